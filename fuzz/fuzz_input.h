// Shared by the fuzz harnesses: a front-to-back reader that turns fuzz bytes into structured choices
// (so seeds are easy to write with fuzz/make_seeds.cc), and a check that aborts loudly so libFuzzer
// records the input as a crash when an invariant breaks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Not assert(): the harnesses are built with NDEBUG (RelWithDebInfo) and must check anyway.
#define FUZZ_CHECK(condition)                                                                   \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition);  \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)

namespace pb::fuzz {

// Reads little-endian integers and byte runs from the front; past the end every read yields zeros and
// Bytes() yields an empty run, so any input decodes to some choice.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_ - pos_; }
  bool empty() const { return pos_ >= size_; }
  const uint8_t* cursor() const { return data_ + pos_; }

  uint8_t U8() { return static_cast<uint8_t>(Read(1)); }
  uint16_t U16() { return static_cast<uint16_t>(Read(2)); }
  uint32_t U32() { return static_cast<uint32_t>(Read(4)); }
  uint64_t U64() { return Read(8); }
  bool Bool() { return (U8() & 1) != 0; }

  // Up to n bytes (fewer when the input runs out), returned in place.
  const uint8_t* Bytes(size_t n, size_t* got) {
    *got = n < remaining() ? n : remaining();
    const uint8_t* p = data_ + pos_;
    pos_ += *got;
    return p;
  }

 private:
  uint64_t Read(size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n && pos_ < size_; ++i) v |= static_cast<uint64_t>(data_[pos_++]) << (8 * i);
    return v;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// The value's bytes in a heap block of exactly that size, so AddressSanitizer flags any read past it.
class ExactBuffer {
 public:
  ExactBuffer(const void* data, size_t size) : size_(size), bytes_(new uint8_t[size]) {
    if (size != 0) std::memcpy(bytes_, data, size);
  }
  explicit ExactBuffer(size_t size) : size_(size), bytes_(new uint8_t[size]()) {}
  ~ExactBuffer() { delete[] bytes_; }
  ExactBuffer(const ExactBuffer&) = delete;
  ExactBuffer& operator=(const ExactBuffer&) = delete;

  uint8_t* data() { return bytes_; }
  const uint8_t* data() const { return bytes_; }
  size_t size() const { return size_; }

 private:
  size_t size_;
  uint8_t* bytes_;
};

}  // namespace pb::fuzz
