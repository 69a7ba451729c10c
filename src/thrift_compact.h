// Minimal Thrift compact-protocol reader and writer (thrift-compact-protocol.md): bounds-checked varints,
// field and list headers and a depth-limited skip, what the BloomFilterHeader and FileMetaData decoders
// (parquet.thrift) need to read untrusted input, and the writer EncodeBloomHeader uses.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pb::thrift {

// The FastCursor's per-byte steps must be inlined into its callers' loops: left to itself, clang keeps
// Varint out of line when compiling to wasm, and a call per varint was a sixth of the outline pass.
// Only the smallest steps: each inlined copy adds to the module every browser downloads.
#define PB_THRIFT_INLINE inline __attribute__((always_inline))

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

  // The primitives are defined inline below: the decoders call them per field, and across translation
  // units (no LTO) each call would cost a real call, which was most of a big footer's decode time.
  inline bool ReadByte(uint8_t* out);
  inline bool ReadVarint(uint64_t* out);
  inline bool ReadI32(int32_t* out);  // zigzag varint
  inline bool ReadI64(int64_t* out);  // zigzag varint

  // A binary/string value: its varint length then the bytes, returned in place (not copied).
  inline bool ReadBinary(const uint8_t** data, size_t* length);

  // Reads a field header. On kStop, *id is 0. last_id carries the delta base between calls.
  inline bool ReadFieldHeader(WireType* type, int16_t* id, int16_t* last_id);

  // Reads a list/set header: the element type nibble (unchecked) and the element count.
  inline bool ReadListHeader(uint8_t* element_type, uint64_t* count);

  // Skips one value of the given type, descending at most kMaxNestingDepth levels.
  bool Skip(WireType type) { return SkipAt(type, 0); }

  // Where the next read starts, as a pointer (for a FastCursor), and moving there once it has read on:
  // `at` must lie between the current position and the end of the input.
  const uint8_t* cursor() const { return data_ + pos_; }
  const uint8_t* end() const { return data_ + size_; }
  void MoveTo(const uint8_t* at) { pos_ = static_cast<size_t>(at - data_); }

 private:
  bool SkipAt(WireType type, int depth);
  bool SkipStructFields(int depth);  // up to and including STOP
  bool SkipElement(uint8_t type, int depth);  // one list/set/map element (booleans are a byte there)
  inline bool SkipBytes(uint64_t n);
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

namespace detail {
inline int64_t ZigzagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
inline bool IsKnownType(uint8_t t) { return t <= static_cast<uint8_t>(WireType::kStruct); }
}  // namespace detail

inline bool Reader::ReadByte(uint8_t* out) {
  if (failed_) return false;
  if (pos_ >= size_) return RanOut();
  *out = data_[pos_++];
  return true;
}

inline bool Reader::ReadVarint(uint64_t* out) {
  // Most varints in a footer (field values, lengths, counts) are one byte.
  if (!failed_ && pos_ < size_ && data_[pos_] < 0x80) {
    *out = data_[pos_++];
    return true;
  }
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    uint8_t b;
    if (!ReadByte(&b)) return false;
    // The tenth byte may only contribute the top bit of a 64-bit value.
    if (shift == 63 && (b & 0x7e) != 0) return Fail();
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  return Fail();
}

inline bool Reader::ReadI32(int32_t* out) {
  uint64_t raw;
  if (!ReadVarint(&raw)) return false;
  if (raw > 0xffffffffULL) return Fail();
  *out = static_cast<int32_t>(detail::ZigzagDecode(raw));
  return true;
}

inline bool Reader::ReadI64(int64_t* out) {
  uint64_t raw;
  if (!ReadVarint(&raw)) return false;
  *out = detail::ZigzagDecode(raw);
  return true;
}

inline bool Reader::ReadBinary(const uint8_t** data, size_t* length) {
  uint64_t n;
  if (!ReadVarint(&n)) return false;
  const size_t start = pos_;
  if (!SkipBytes(n)) return false;
  *data = data_ + start;
  *length = static_cast<size_t>(n);
  return true;
}

inline bool Reader::ReadFieldHeader(WireType* type, int16_t* id, int16_t* last_id) {
  uint8_t b;
  if (!ReadByte(&b)) return false;
  uint8_t t = b & 0x0f;
  if (t == 0) {
    *type = WireType::kStop;
    *id = 0;
    return true;
  }
  if (!detail::IsKnownType(t)) return Fail();
  uint8_t delta = b >> 4;
  int32_t field_id;
  if (delta != 0) {
    field_id = *last_id + delta;
  } else {
    int32_t explicit_id;
    if (!ReadI32(&explicit_id)) return false;
    field_id = explicit_id;
  }
  if (field_id < -32768 || field_id > 32767) return Fail();
  *type = static_cast<WireType>(t);
  *id = static_cast<int16_t>(field_id);
  *last_id = *id;
  return true;
}

inline bool Reader::ReadListHeader(uint8_t* element_type, uint64_t* count) {
  uint8_t b;
  if (!ReadByte(&b)) return false;
  *element_type = b & 0x0f;
  *count = b >> 4;  // 15 means the count follows as a varint
  return *count != 15 || ReadVarint(count);
}

inline bool Reader::SkipBytes(uint64_t n) {
  if (failed_) return false;
  if (n > size_ - pos_) return RanOut();
  pos_ += static_cast<size_t>(n);
  return true;
}

// A cursor for the hot loops of big footers (millions of ColumnChunk fields): its position is a local
// pointer the compiler keeps in a register, where Reader loads and stores its members and a sticky flag
// around every byte. It accepts a subset of what Reader accepts (short-form field ids, nesting up to
// kMaxFastDepth, no maps) and returns false on anything else, so a caller that re-reads the same bytes
// with Reader whenever it returns false decides every input, and places every error, as Reader does.
// Whatever it accepts, Reader accepts the same way, consuming the same bytes.
class FastCursor {
 public:
  static constexpr int kMaxFastDepth = 8;  // well under kMaxNestingDepth: Reader never refuses what this accepts

  FastCursor(const uint8_t* at, const uint8_t* end) : p_(at), end_(end) {}
  const uint8_t* at() const { return p_; }

  // As Reader::ReadVarint: at most ten bytes, the tenth contributing only the top bit. The one-byte case
  // inline, longer ones out of line (inlined everywhere they cost the wasm module kilobytes).
  PB_THRIFT_INLINE bool Varint(uint64_t* out) {
    if (p_ < end_ && *p_ < 0x80) {
      *out = *p_++;
      return true;
    }
    return LongVarint(out);
  }

  __attribute__((noinline)) bool LongVarint(uint64_t* out) {
    uint64_t result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p_ >= end_) return false;
      const uint8_t b = *p_++;
      if (shift == 63 && (b & 0x7e) != 0) return false;
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *out = result;
        return true;
      }
    }
    return false;
  }

  // A field header with a short-form (delta) id; *type is 0 at STOP. Long-form ids are not taken.
  PB_THRIFT_INLINE bool FieldHeader(uint8_t* type, int16_t* id, int16_t* last_id) {
    if (p_ >= end_) return false;
    const uint8_t b = *p_++;
    const uint8_t t = b & 0x0f;
    *type = t;
    if (t == 0) return true;
    if (!detail::IsKnownType(t) || (b >> 4) == 0) return false;
    const int32_t field_id = *last_id + (b >> 4);
    if (field_id > 32767) return false;
    *id = *last_id = static_cast<int16_t>(field_id);
    return true;
  }

  // An integer field as the FileMetaData decoder reads one: zigzag varints of i16/i32/i64, or a byte.
  // False for other wire types too.
  PB_THRIFT_INLINE bool Int(uint8_t type, int64_t* out) {
    if (type == static_cast<uint8_t>(WireType::kI16) || type == static_cast<uint8_t>(WireType::kI32) ||
        type == static_cast<uint8_t>(WireType::kI64)) {
      uint64_t raw;
      if (!Varint(&raw)) return false;
      *out = detail::ZigzagDecode(raw);
      return true;
    }
    if (type == static_cast<uint8_t>(WireType::kByte) && p_ < end_) {
      *out = static_cast<int8_t>(*p_++);
      return true;
    }
    return false;
  }

  // A binary value, returned in place.
  PB_THRIFT_INLINE bool Binary(const uint8_t** data, uint64_t* length) {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    *data = p_;
    *length = n;
    p_ += n;
    return true;
  }

  // Skips one value of the given type, as Reader::Skip does.
  PB_THRIFT_INLINE bool Skip(uint8_t type) { return SkipAt(type, 0); }

 private:
  PB_THRIFT_INLINE bool SkipAt(uint8_t type, int depth) {
    uint64_t u;
    const uint8_t* unused;
    switch (static_cast<WireType>(type)) {
      case WireType::kBoolTrue:
      case WireType::kBoolFalse:
        return true;
      case WireType::kByte:
        if (p_ >= end_) return false;
        ++p_;
        return true;
      case WireType::kI16:
      case WireType::kI32:
      case WireType::kI64:
        return Varint(&u);
      case WireType::kDouble:
        if (end_ - p_ < 8) return false;
        p_ += 8;
        return true;
      case WireType::kBinary:
        return Binary(&unused, &u);
      case WireType::kList:
      case WireType::kSet:
      case WireType::kStruct:
        return depth < kMaxFastDepth && SkipNested(type, depth + 1);
      default:
        return false;  // maps, STOP, unknown types: left to Reader
    }
  }

  // A list, set or struct whose members are at `depth`.
  bool SkipNested(uint8_t type, int depth) {
    if (type == static_cast<uint8_t>(WireType::kStruct)) {
      int16_t last_id = 0;
      for (;;) {
        uint8_t t;
        int16_t id;
        if (!FieldHeader(&t, &id, &last_id)) return false;
        if (t == 0) return true;
        if (!SkipAt(t, depth)) return false;
      }
    }
    if (p_ >= end_) return false;
    const uint8_t b = *p_++;
    const uint8_t element = b & 0x0f;
    uint64_t count = b >> 4;
    if (count == 15 && !Varint(&count)) return false;
    if (element == 0 || !detail::IsKnownType(element)) return false;
    // Every element takes a byte at least: a count beyond the bytes left cannot be met.
    if (count > static_cast<uint64_t>(end_ - p_)) return false;
    if (element == static_cast<uint8_t>(WireType::kBoolTrue) || element == static_cast<uint8_t>(WireType::kBoolFalse)) {
      p_ += count;  // booleans are a byte each in a list
      return true;
    }
    for (uint64_t i = 0; i < count; ++i) {
      if (!SkipAt(element, depth)) return false;
    }
    return true;
  }

  const uint8_t* p_;
  const uint8_t* end_;
};

// Iterates a struct's fields until STOP: visit(type, id) must consume the field's value and returns
// false to stop with a failure. `last_id`: the field id the first delta counts from (0 at a struct's start).
template <typename Visit>
bool ForEachField(Reader* r, Visit&& visit, int16_t last_id = 0) {
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
