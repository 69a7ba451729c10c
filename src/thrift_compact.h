// Minimal Thrift compact-protocol reader and writer (thrift-compact-protocol.md): bounds-checked varints,
// field and list headers and a depth-limited skip, what the BloomFilterHeader and FileMetaData decoders
// (parquet.thrift) need to read untrusted input, and the writer EncodeBloomHeader uses.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pb::thrift {

// Compact protocol wire types (thrift/doc/specs/thrift-compact-protocol.md).
enum class WireType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

// Deep enough for any real Parquet struct, shallow enough that nesting bombs stop quickly.
constexpr int kMaxNestingDepth = 32;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  // Sticky: once a read fails every later read fails too, so callers may check once at the end.
  bool failed() const { return failed_; }
  // The failure was a read past the end of the input (truncation), not bad encoding.
  bool truncated() const { return truncated_; }

  bool ReadByte(uint8_t* out);
  bool ReadVarint(uint64_t* out);
  bool ReadI32(int32_t* out);  // zigzag varint
  bool ReadI64(int64_t* out);  // zigzag varint

  // A binary/string value: its varint length then the bytes, returned in place (not copied).
  bool ReadBinary(const uint8_t** data, size_t* length);

  // Reads a field header. On kStop, *id is 0. last_id carries the delta base between calls.
  bool ReadFieldHeader(WireType* type, int16_t* id, int16_t* last_id);

  // Reads a list/set header: the element type nibble (unchecked) and the element count.
  bool ReadListHeader(uint8_t* element_type, uint64_t* count);

  // Skips one value of the given type, descending at most kMaxNestingDepth levels.
  bool Skip(WireType type) { return SkipAt(type, 0); }

 private:
  bool SkipAt(WireType type, int depth);
  bool SkipElement(uint8_t type, int depth);  // one list/set/map element (booleans are a byte there)
  bool SkipBytes(uint64_t n);
  bool Fail() {
    failed_ = true;
    return false;
  }
  bool RanOut() {
    truncated_ = true;
    return Fail();
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool failed_ = false;
  bool truncated_ = false;
};

// Iterates a struct's fields until STOP: visit(type, id) must consume the field's value and returns
// false to stop with a failure.
template <typename Visit>
bool ForEachField(Reader* r, Visit&& visit) {
  int16_t last_id = 0;
  for (;;) {
    WireType type;
    int16_t id;
    if (!r->ReadFieldHeader(&type, &id, &last_id)) return false;
    if (type == WireType::kStop) return true;
    if (!visit(type, id)) return false;
  }
}

// Writes into a caller-provided buffer; reports overflow instead of writing past the end.
class Writer {
 public:
  Writer(uint8_t* data, size_t capacity) : data_(data), capacity_(capacity) {}

  size_t size() const { return pos_; }
  bool overflowed() const { return overflow_; }

  void WriteByte(uint8_t b);
  void WriteVarint(uint64_t v);
  void WriteFieldHeader(WireType type, int16_t id, int16_t* last_id);
  void WriteI32Field(int16_t id, int32_t value, int16_t* last_id);
  void WriteStop() { WriteByte(0); }

 private:
  uint8_t* data_;
  size_t capacity_;
  size_t pos_ = 0;
  bool overflow_ = false;
};

}  // namespace pb::thrift
