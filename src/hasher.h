// Batched XXH64 hashing of Parquet values exactly as writers hash them: the PLAIN encoding of each
// value (BloomFilter.md, "Hash Function"; BYTE_ARRAY without its 4-byte length prefix).
#pragma once

#include <cstddef>
#include <cstdint>

#include "abi.h"
#include "status.h"

namespace pb {

// parquet.thrift `Type`; declared through the ABI (src/abi.h), JS passes these codes in batch descriptors.
#define PB_PHYSICAL_TYPE_VALUES(X) \
  X(kBoolean, 0)                   \
  X(kInt32, 1)                     \
  X(kInt64, 2)                     \
  X(kInt96, 3)                     \
  X(kFloat, 4)                     \
  X(kDouble, 5)                    \
  X(kByteArray, 6)                 \
  X(kFixedLenByteArray, 7)
enum class PhysicalType : int32_t { PB_PHYSICAL_TYPE_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(PhysicalType, PB_PHYSICAL_TYPE_VALUES)

// A column of values in Arrow layout. Slots are counted; nulls (validity bit 0) occupy slots too.
struct ValueBatch {
  PhysicalType type = PhysicalType::kInt64;
  uint32_t type_length = 0;        // FIXED_LEN_BYTE_ARRAY width in bytes
  uint32_t count = 0;              // number of slots
  const uint8_t* values = nullptr; // fixed-width slots, BYTE_ARRAY data, or the BOOLEAN bitmap
  uint64_t values_length = 0;      // bytes readable at `values`
  const int32_t* offsets = nullptr;  // BYTE_ARRAY: count + 1 offsets into values
  int64_t values_bit_offset = 0;   // BOOLEAN: index of the first slot's bit
  const uint8_t* validity = nullptr;  // optional; nullptr = every slot valid
  int64_t validity_bit_offset = 0;
};

// Width of one PLAIN-encoded value of a fixed-width type (0 for BYTE_ARRAY and BOOLEAN).
uint32_t FixedWidthOf(PhysicalType type, uint32_t type_length);

// Checks type code, widths and that every offset and slot lies inside values_length.
Status ValidateBatch(const ValueBatch& batch);

// Scalar hashes: the reference the batched paths must agree with.
uint64_t HashBytes(const void* data, size_t length);
uint64_t HashInt32(int32_t v);
uint64_t HashInt64(int64_t v);
uint64_t HashFloat(float v);
uint64_t HashDouble(double v);
uint64_t HashBoolean(bool v);

// Dense batched hashes (every slot valid).
void HashFixedWidth(const uint8_t* values, uint32_t width, size_t n, uint64_t* out);
void HashByteArrays(const int32_t* offsets, const uint8_t* data, size_t n, uint64_t* out);
void HashBooleanBitmap(const uint8_t* bits, int64_t bit_offset, size_t n, uint64_t* out);

// Hashes the valid slots of [begin, end) of a validated batch into out (compacted, in slot order) and
// returns how many were written. Spaced batches walk runs of set validity bits.
size_t HashSlots(const ValueBatch& batch, uint32_t begin, uint32_t end, uint64_t* out);

}  // namespace pb
