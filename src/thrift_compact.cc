// Thrift compact protocol primitives (see thrift_compact.h).
#include "thrift_compact.h"


namespace pb::thrift {

namespace {

int64_t ZigzagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

uint64_t ZigzagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

bool IsKnownType(uint8_t t) { return t <= static_cast<uint8_t>(WireType::kStruct); }

}  // namespace

bool Reader::ReadByte(uint8_t* out) {
  if (failed_) return false;
  if (pos_ >= size_) return RanOut();
  *out = data_[pos_++];
  return true;
}

bool Reader::ReadVarint(uint64_t* out) {
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

bool Reader::ReadI32(int32_t* out) {
  uint64_t raw;
  if (!ReadVarint(&raw)) return false;
  if (raw > 0xffffffffULL) return Fail();
  *out = static_cast<int32_t>(ZigzagDecode(raw));
  return true;
}

bool Reader::ReadI64(int64_t* out) {
  uint64_t raw;
  if (!ReadVarint(&raw)) return false;
  *out = ZigzagDecode(raw);
  return true;
}

bool Reader::ReadBinary(const uint8_t** data, size_t* length) {
  uint64_t n;
  if (!ReadVarint(&n)) return false;
  const size_t start = pos_;
  if (!SkipBytes(n)) return false;
  *data = data_ + start;
  *length = static_cast<size_t>(n);
  return true;
}

bool Reader::ReadFieldHeader(WireType* type, int16_t* id, int16_t* last_id) {
  uint8_t b;
  if (!ReadByte(&b)) return false;
  uint8_t t = b & 0x0f;
  if (t == 0) {
    *type = WireType::kStop;
    *id = 0;
    return true;
  }
  if (!IsKnownType(t)) return Fail();
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

bool Reader::ReadListHeader(uint8_t* element_type, uint64_t* count) {
  uint8_t b;
  if (!ReadByte(&b)) return false;
  *element_type = b & 0x0f;
  *count = b >> 4;  // 15 means the count follows as a varint
  return *count != 15 || ReadVarint(count);
}

bool Reader::SkipBytes(uint64_t n) {
  if (failed_) return false;
  if (n > size_ - pos_) return RanOut();
  pos_ += static_cast<size_t>(n);
  return true;
}

bool Reader::SkipAt(WireType type, int depth) {
  if (depth > kMaxNestingDepth) return Fail();
  uint64_t u;
  uint8_t b;
  switch (type) {
    case WireType::kBoolTrue:
    case WireType::kBoolFalse:
      return true;  // the value lives in the field header
    case WireType::kByte:
      return ReadByte(&b);
    case WireType::kI16:
    case WireType::kI32:
    case WireType::kI64:
      return ReadVarint(&u);
    case WireType::kDouble:
      return SkipBytes(8);
    case WireType::kBinary:
      if (!ReadVarint(&u)) return false;
      return SkipBytes(u);
    case WireType::kList:
    case WireType::kSet: {
      uint8_t elem;
      uint64_t count;
      if (!ReadListHeader(&elem, &count)) return false;
      if (!IsKnownType(elem) || elem == 0) return count == 0 ? true : Fail();
      // Every element occupies at least one byte (booleans in lists are one byte each), so a huge
      // declared count fails at the end of the input instead of spinning.
      for (uint64_t i = 0; i < count; ++i) {
        if (!SkipElement(elem, depth + 1)) return false;
      }
      return true;
    }
    case WireType::kMap: {
      uint64_t count;
      if (!ReadVarint(&count)) return false;
      if (count == 0) return true;
      if (!ReadByte(&b)) return false;
      uint8_t key = b >> 4, value = b & 0x0f;
      if (!IsKnownType(key) || !IsKnownType(value) || key == 0 || value == 0) return Fail();
      for (uint64_t i = 0; i < count; ++i) {
        if (!SkipElement(key, depth + 1) || !SkipElement(value, depth + 1)) return false;
      }
      return true;
    }
    case WireType::kStruct:
      return ForEachField(this, [&](WireType field_type, int16_t) { return SkipAt(field_type, depth + 1); });
    case WireType::kStop:
      break;
  }
  return Fail();
}

bool Reader::SkipElement(uint8_t type, int depth) {
  if (type == static_cast<uint8_t>(WireType::kBoolTrue) || type == static_cast<uint8_t>(WireType::kBoolFalse)) {
    uint8_t b;
    return ReadByte(&b);
  }
  return SkipAt(static_cast<WireType>(type), depth);
}

void Writer::WriteByte(uint8_t b) {
  if (pos_ >= capacity_) {
    overflow_ = true;
    return;
  }
  data_[pos_++] = b;
}

void Writer::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    WriteByte(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  WriteByte(static_cast<uint8_t>(v));
}

void Writer::WriteFieldHeader(WireType type, int16_t id, int16_t* last_id) {
  int delta = id - *last_id;
  if (delta > 0 && delta <= 15) {
    WriteByte(static_cast<uint8_t>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    WriteByte(static_cast<uint8_t>(type));
    WriteVarint(ZigzagEncode(id));
  }
  *last_id = id;
}

void Writer::WriteI32Field(int16_t id, int32_t value, int16_t* last_id) {
  WriteFieldHeader(WireType::kI32, id, last_id);
  WriteVarint(ZigzagEncode(value));
}

}  // namespace pb::thrift
