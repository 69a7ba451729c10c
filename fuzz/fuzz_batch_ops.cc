// Fuzzes ValidateBatch and BatchOps::Insert/Check/Hash with ValueBatch descriptors built from fuzz bytes
// (type code, type_length, count, offsets, bit offsets, validity) whose buffers are exactly as large as
// the input provides, as JS lays them out in wasm memory. Anything ValidateBatch accepts must be read
// strictly inside those buffers; accepted batches hash like the scalar XXH64 of each PLAIN value, and
// whatever was inserted is never reported absent.
//
// Input: type(u8) flags(u8) count(u16 % 4099) filter_size(u8) type_length(u8 | u32) values_bit_offset(u8 | u64)
//        validity_bit_offset(u8 | i16) [offsets: count+1 × (u8 length | i32)] [validity bytes] values...
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "batch_ops.h"
#include "fuzz_input.h"
#include "hasher.h"
#include "sbbf.h"
#include "scratch_pool.h"

using namespace pb;

namespace {

enum Flag : uint8_t {
  kHasValidity = 1,
  kRawOffsets = 2,
  kRawValuesBitOffset = 4,
  kRawValidityBitOffset = 8,
  kNullEmptyValues = 16,
  kRawTypeLength = 32,
  kTinyPoolBudget = 64,
};

bool ValidSlot(const ValueBatch& b, uint32_t slot) {
  if (b.validity == nullptr) return true;
  const int64_t bit = b.validity_bit_offset + slot;
  return (b.validity[bit >> 3] >> (bit & 7)) & 1;
}

// Independent of the batched hashers: one HashBytes call over each value's PLAIN bytes.
uint64_t ReferenceHash(const ValueBatch& b, uint32_t slot) {
  switch (b.type) {
    case PhysicalType::kBoolean: {
      const int64_t bit = b.values_bit_offset + slot;
      const uint8_t plain = (b.values[bit >> 3] >> (bit & 7)) & 1;
      return HashBytes(&plain, 1);
    }
    case PhysicalType::kByteArray:
      return HashBytes(b.values + b.offsets[slot], static_cast<size_t>(b.offsets[slot + 1] - b.offsets[slot]));
    default: {
      const size_t width = FixedWidthOf(b.type, b.type_length);
      return HashBytes(b.values + width * slot, width);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const int32_t type_code = static_cast<int32_t>(in.U8() % 10) - 1;  // -1 and 8 are outside parquet.thrift Type
  const uint8_t flags = in.U8();
  const uint32_t count = in.U16() % 4099;  // enough to cross BatchOps::kChunkSlots boundaries
  const uint32_t filter_bytes = kBytesPerBlock << (in.U8() % 8);

  ValueBatch b;
  b.type = static_cast<PhysicalType>(type_code);
  b.count = count;
  b.type_length = (flags & kRawTypeLength) ? in.U32() : in.U8();
  b.values_bit_offset = (flags & kRawValuesBitOffset) ? static_cast<int64_t>(in.U64()) : in.U8();
  const int64_t validity_bit_offset =
      (flags & kRawValidityBitOffset) ? static_cast<int16_t>(in.U16()) : static_cast<int64_t>(in.U8());

  fuzz::ExactBuffer offsets(b.type == PhysicalType::kByteArray ? (size_t{count} + 1) * sizeof(int32_t) : 0);
  if (b.type == PhysicalType::kByteArray) {
    auto* o = reinterpret_cast<int32_t*>(offsets.data());
    int32_t end = 0;
    for (uint32_t i = 0; i <= count; ++i) {
      if (flags & kRawOffsets) {
        o[i] = static_cast<int32_t>(in.U32());
      } else {
        o[i] = end;
        end += in.U8() % 32;
      }
    }
    b.offsets = o;
  }

  // Validity covers [0, offset + count) bits: exactly the bitmap a caller with that offset would pass.
  const int64_t validity_bits = (validity_bit_offset > 0 ? validity_bit_offset : 0) + count;
  fuzz::ExactBuffer validity((flags & kHasValidity) ? static_cast<size_t>((validity_bits + 7) / 8) : 0);
  if (flags & kHasValidity) {
    size_t got;
    const uint8_t* bits = in.Bytes(validity.size(), &got);
    std::memcpy(validity.data(), bits, got);
    b.validity = validity.data();
    b.validity_bit_offset = validity_bit_offset;
  }

  size_t values_length;
  const uint8_t* values_in = in.Bytes(in.remaining(), &values_length);
  fuzz::ExactBuffer values(values_in, values_length);
  b.values = values_length == 0 && (flags & kNullEmptyValues) ? nullptr : values.data();
  b.values_length = values_length;

  const Status valid = ValidateBatch(b);
  ScratchPool pool((flags & kTinyPoolBudget) ? 4096 : size_t{64} << 20);
  auto* words = static_cast<uint32_t*>(pool.Acquire(filter_bytes));
  if (words == nullptr) return 0;  // the tiny budget cannot hold the larger filters
  std::memset(words, 0, filter_bytes);
  SbbfView filter(words, filter_bytes);
  fuzz::ExactBuffer out(count);
  std::vector<uint64_t> hashes(ok(valid) ? count : 1);
  Status s;
  {
    BatchOps ops(&pool);
    uint32_t written = 0;
    if (!ok(valid)) {
      FUZZ_CHECK(valid == Status::kMalformed || valid == Status::kInvalidArgument);
      FUZZ_CHECK(ops.Hash(b, hashes.data(), &written) == valid && written == 0);
      FUZZ_CHECK(ops.Check(filter, b, out.data()) == valid);
      FUZZ_CHECK(ops.Insert(filter, b) == valid);
    } else {
      FUZZ_CHECK(ok(ops.Hash(b, hashes.data(), &written)));
      uint32_t next = 0;
      for (uint32_t slot = 0; slot < count; ++slot) {
        if (!ValidSlot(b, slot)) continue;
        FUZZ_CHECK(next < written);
        FUZZ_CHECK(hashes[next++] == ReferenceHash(b, slot));
      }
      FUZZ_CHECK(next == written);

      // An empty filter holds nothing; once inserted, every valid slot is "maybe" and nulls stay null.
      s = ops.Check(filter, b, out.data());
      if (s == Status::kLimitExceeded) {
        FUZZ_CHECK(flags & kTinyPoolBudget);
      } else {
        FUZZ_CHECK(ok(s));
        for (uint32_t slot = 0; slot < count; ++slot) {
          FUZZ_CHECK(out.data()[slot] == (ValidSlot(b, slot) ? kCheckAbsent : kCheckNull));
        }
        FUZZ_CHECK(ok(ops.Insert(filter, b)));
        FUZZ_CHECK(ok(ops.Check(filter, b, out.data())));
        for (uint32_t slot = 0; slot < count; ++slot) {
          FUZZ_CHECK(out.data()[slot] == (ValidSlot(b, slot) ? kCheckMaybe : kCheckNull));
        }
      }
    }
  }
  FUZZ_CHECK(ok(pool.Release(words)));
  FUZZ_CHECK(pool.in_use_bytes() == 0);
  FUZZ_CHECK(pool.held_bytes() <= pool.max_held_bytes());
  return 0;
}
