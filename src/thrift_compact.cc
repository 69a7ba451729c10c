// Thrift compact protocol primitives (see thrift_compact.h).
#include "thrift_compact.h"


namespace pb::thrift {

namespace {

uint64_t ZigzagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

using detail::IsKnownType;

}  // namespace

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
      return SkipStructFields(depth + 1);
    case WireType::kStop:
      break;
  }
  return Fail();
}

// The loop a skipped struct's fields take, scalars handled in place: structs nested in a footer's chunks
// (statistics, encoding stats) are skipped by the million, and a call per field was most of their cost.
// It refuses what ReadFieldHeader and SkipAt refuse.
// depth is that of the fields' values, as SkipAt would be called for each.
bool Reader::SkipStructFields(int depth) {
  int16_t last_id = 0;
  for (;;) {
    WireType type;
    int16_t id;
    if (!ReadFieldHeader(&type, &id, &last_id)) return false;
    if (type == WireType::kStop) return true;
    if (depth > kMaxNestingDepth) return Fail();
    uint64_t u;
    switch (type) {
      case WireType::kBoolTrue:
      case WireType::kBoolFalse:
        break;
      case WireType::kI16:
      case WireType::kI32:
      case WireType::kI64:
        if (!ReadVarint(&u)) return false;
        break;
      case WireType::kBinary:
        if (!ReadVarint(&u) || !SkipBytes(u)) return false;
        break;
      default:
        if (!SkipAt(type, depth)) return false;
        break;
    }
  }
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
