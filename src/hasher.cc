// Batched PLAIN-value hashing for every Parquet physical type (BloomFilter.md, "Hash Function").
#include "hasher.h"

#include <cstring>

#include "bitmap.h"
#include "xxhash64.h"

namespace pb {

namespace {

// Constant widths let XXH64 specialise on the length; the common widths get their own loop.
template <size_t kWidth>
void HashFixed(const uint8_t* values, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = Xxh64(values + i * kWidth, kWidth);
}

void HashFixedAny(const uint8_t* values, uint32_t width, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = Xxh64(values + static_cast<size_t>(i) * width, width);
}

const uint64_t kHashFalse = Xxh64("\0", 1);
const uint64_t kHashTrue = Xxh64("\1", 1);

// Dense hashing of slots [begin, begin + n).
void HashDense(const ValueBatch& b, uint32_t begin, size_t n, uint64_t* out) {
  switch (b.type) {
    case PhysicalType::kBoolean:
      HashBooleanBitmap(b.values, b.values_bit_offset + begin, n, out);
      return;
    case PhysicalType::kByteArray:
      HashByteArrays(b.offsets + begin, b.values, n, out);
      return;
    default: {
      const uint32_t width = FixedWidthOf(b.type, b.type_length);
      HashFixedWidth(b.values + static_cast<size_t>(begin) * width, width, n, out);
      return;
    }
  }
}

}  // namespace

uint32_t FixedWidthOf(PhysicalType type, uint32_t type_length) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    case PhysicalType::kFixedLenByteArray:
      return type_length;
    default:
      return 0;
  }
}

Status ValidateBatch(const ValueBatch& b) {
  if (static_cast<uint32_t>(b.type) > static_cast<uint32_t>(PhysicalType::kFixedLenByteArray)) {
    return Status::kInvalidArgument;  // a type code outside parquet.thrift's Type
  }
  if (b.count == 0) return Status::kOk;
  if (b.values == nullptr && b.values_length != 0) return Status::kInvalidArgument;
  // The validity bitmap's length is the caller's to guarantee, but a negative offset reads before it.
  if (b.validity != nullptr && b.validity_bit_offset < 0) return Status::kInvalidArgument;
  switch (b.type) {
    case PhysicalType::kBoolean: {
      if (b.values_bit_offset < 0) return Status::kInvalidArgument;
      const uint64_t bits_needed = static_cast<uint64_t>(b.values_bit_offset) + b.count;
      return (bits_needed + 7) / 8 <= b.values_length ? Status::kOk : Status::kMalformed;
    }
    case PhysicalType::kByteArray: {
      if (b.offsets == nullptr) return Status::kInvalidArgument;
      if (b.offsets[0] < 0) return Status::kMalformed;
      for (uint32_t i = 0; i < b.count; ++i) {
        if (b.offsets[i + 1] < b.offsets[i]) return Status::kMalformed;
      }
      return static_cast<uint64_t>(b.offsets[b.count]) <= b.values_length ? Status::kOk : Status::kMalformed;
    }
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kInt96:
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
    case PhysicalType::kFixedLenByteArray: {
      const uint64_t width = FixedWidthOf(b.type, b.type_length);
      return width * b.count <= b.values_length ? Status::kOk : Status::kMalformed;
    }
  }
  return Status::kInvalidArgument;  // a type code outside parquet.thrift's Type
}

uint64_t HashBytes(const void* data, size_t length) { return Xxh64(data, length); }
uint64_t HashInt32(int32_t v) { return Xxh64(&v, sizeof v); }
uint64_t HashInt64(int64_t v) { return Xxh64(&v, sizeof v); }
uint64_t HashFloat(float v) { return Xxh64(&v, sizeof v); }
uint64_t HashDouble(double v) { return Xxh64(&v, sizeof v); }
uint64_t HashBoolean(bool v) { return v ? kHashTrue : kHashFalse; }

void HashFixedWidth(const uint8_t* values, uint32_t width, size_t n, uint64_t* out) {
  switch (width) {
    case 4:
      return HashFixed<4>(values, n, out);
    case 8:
      return HashFixed<8>(values, n, out);
    case 12:
      return HashFixed<12>(values, n, out);
    case 16:
      return HashFixed<16>(values, n, out);
    default:
      return HashFixedAny(values, width, n, out);
  }
}

void HashByteArrays(const int32_t* offsets, const uint8_t* data, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = Xxh64(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
}

void HashBooleanBitmap(const uint8_t* bits, int64_t bit_offset, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = GetBit(bits, bit_offset + static_cast<int64_t>(i)) ? kHashTrue : kHashFalse;
}

size_t HashSlots(const ValueBatch& b, uint32_t begin, uint32_t end, uint64_t* out) {
  if (b.validity == nullptr) {
    HashDense(b, begin, end - begin, out);
    return end - begin;
  }
  size_t written = 0;
  VisitSetBitRuns(b.validity, b.validity_bit_offset + begin, end - begin, [&](int64_t start, int64_t length) {
    HashDense(b, begin + static_cast<uint32_t>(start), static_cast<size_t>(length), out + written);
    written += static_cast<size_t>(length);
  });
  return written;
}

}  // namespace pb
