// Parquet value hashing: scalar hashes against XXH64 of hand-built PLAIN bytes, then every batched path
// (dense, spaced/nullable, BOOLEAN bitmaps, Arrow BYTE_ARRAY offsets) against those scalar hashes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "hasher.h"
#include "xxhash64.h"

namespace pb {
namespace {

using Bytes = std::vector<uint8_t>;

uint64_t XxhOf(const Bytes& bytes) { return Xxh64(bytes.data(), bytes.size()); }

// ---- Scalar hashes ------------------------------------------------------------------------------

TEST(ScalarHash, IntegersHashTheirLittleEndianBytes) {
  EXPECT_EQ(HashInt32(1), XxhOf({0x01, 0x00, 0x00, 0x00}));
  EXPECT_EQ(HashInt32(-2), XxhOf({0xfe, 0xff, 0xff, 0xff}));
  EXPECT_EQ(HashInt32(0x12345678), XxhOf({0x78, 0x56, 0x34, 0x12}));
  EXPECT_EQ(HashInt64(1), XxhOf({0x01, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(HashInt64(0x0102030405060708LL), XxhOf({0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  EXPECT_EQ(HashInt64(std::numeric_limits<int64_t>::min()), XxhOf({0, 0, 0, 0, 0, 0, 0, 0x80}));
  // The same number hashes differently as INT32 and INT64: the width is part of the PLAIN bytes.
  EXPECT_NE(HashInt32(1), HashInt64(1));
}

TEST(ScalarHash, FloatingPointHashesItsIeeeBytes) {
  EXPECT_EQ(HashFloat(1.0f), XxhOf({0x00, 0x00, 0x80, 0x3f}));
  EXPECT_EQ(HashFloat(-2.5f), XxhOf({0x00, 0x00, 0x20, 0xc0}));
  EXPECT_EQ(HashDouble(1.0), XxhOf({0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  EXPECT_EQ(HashDouble(0.5), XxhOf({0, 0, 0, 0, 0, 0, 0xe0, 0x3f}));
}

TEST(ScalarHash, SignedZerosHashDifferently) {
  // Bloom filters hash bytes, not numeric values: -0.0 and +0.0 are different PLAIN values.
  EXPECT_EQ(HashFloat(0.0f), XxhOf({0, 0, 0, 0}));
  EXPECT_EQ(HashFloat(-0.0f), XxhOf({0, 0, 0, 0x80}));
  EXPECT_NE(HashFloat(0.0f), HashFloat(-0.0f));
  EXPECT_EQ(HashDouble(0.0), XxhOf({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(HashDouble(-0.0), XxhOf({0, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_NE(HashDouble(0.0), HashDouble(-0.0));
}

TEST(ScalarHash, BooleansHashOneByte) {
  EXPECT_EQ(HashBoolean(true), XxhOf({0x01}));
  EXPECT_EQ(HashBoolean(false), XxhOf({0x00}));
}

TEST(ScalarHash, BytesHashWithoutALengthPrefix) {
  EXPECT_EQ(HashBytes("hello", 5), XxhOf({'h', 'e', 'l', 'l', 'o'}));
  EXPECT_EQ(HashBytes("", 0), XxhOf({}));
  EXPECT_EQ(HashBytes("\xc3\xbc", 2), XxhOf({0xc3, 0xbc}));  // "ü" as UTF-8
}

// ---- Batches ------------------------------------------------------------------------------------

// A ValueBatch together with the buffers it points into.
struct OwnedBatch {
  Bytes values;
  std::vector<int32_t> offsets;
  Bytes validity;
  ValueBatch batch;

  // Points batch at the owned buffers; call after the vectors stop changing.
  void Bind() {
    batch.values = values.empty() ? nullptr : values.data();
    batch.values_length = values.size();
    batch.offsets = offsets.empty() ? nullptr : offsets.data();
    batch.validity = validity.empty() ? nullptr : validity.data();
  }
};

void AppendLittleEndian(Bytes* out, const void* value, size_t width) {
  // The test machine and wasm are little-endian (sbbf.h asserts it), so memory order is PLAIN order.
  const uint8_t* p = static_cast<const uint8_t*>(value);
  out->insert(out->end(), p, p + width);
}

OwnedBatch MakeFixedWidth(PhysicalType type, uint32_t type_length, uint32_t count, std::mt19937_64& rng) {
  OwnedBatch b;
  b.batch.type = type;
  b.batch.type_length = type_length;
  b.batch.count = count;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t r = rng();
    switch (type) {
      case PhysicalType::kInt32: {
        const int32_t v = static_cast<int32_t>(r);
        AppendLittleEndian(&b.values, &v, 4);
        break;
      }
      case PhysicalType::kInt64: {
        const int64_t v = static_cast<int64_t>(r);
        AppendLittleEndian(&b.values, &v, 8);
        break;
      }
      case PhysicalType::kFloat: {
        // Special values first: signed zeros, infinities and NaN must hash as their bytes.
        const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(), 1.5f};
        const float v = i < 5 ? specials[i] : static_cast<float>(static_cast<int32_t>(r)) / 1024.0f;
        AppendLittleEndian(&b.values, &v, 4);
        break;
      }
      case PhysicalType::kDouble: {
        const double specials[] = {0.0, -0.0, -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN(), 1e300};
        const double v = i < 5 ? specials[i] : static_cast<double>(static_cast<int64_t>(r)) / 3.0;
        AppendLittleEndian(&b.values, &v, 8);
        break;
      }
      default:  // INT96 and FIXED_LEN_BYTE_ARRAY: opaque bytes
        for (uint32_t k = 0; k < FixedWidthOf(type, type_length); ++k) {
          b.values.push_back(static_cast<uint8_t>(rng()));
        }
        break;
    }
  }
  b.Bind();
  return b;
}

OwnedBatch MakeByteArrays(uint32_t count, std::mt19937_64& rng) {
  static const char* const kSamples[] = {"", "a", "hello", "\xc3\xbc", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
                                         "\xf0\x9f\x8c\xb8 emoji", "doing ", "a somewhat longer string past 32 bytes"};
  OwnedBatch b;
  b.batch.type = PhysicalType::kByteArray;
  b.batch.count = count;
  // Arrow slices start their offsets anywhere: begin at 5 with junk before the first value.
  b.values = {'j', 'u', 'n', 'k', '!'};
  b.offsets.push_back(5);
  for (uint32_t i = 0; i < count; ++i) {
    std::string s = kSamples[rng() % (sizeof kSamples / sizeof kSamples[0])];
    if (rng() % 2 == 0) s += std::to_string(rng() % 100000);
    b.values.insert(b.values.end(), s.begin(), s.end());
    b.offsets.push_back(static_cast<int32_t>(b.values.size()));
  }
  b.values.push_back('#');  // bytes after the last value must not be hashed either
  b.Bind();
  return b;
}

OwnedBatch MakeBooleans(uint32_t count, int64_t bit_offset, std::mt19937_64& rng) {
  OwnedBatch b;
  b.batch.type = PhysicalType::kBoolean;
  b.batch.count = count;
  b.batch.values_bit_offset = bit_offset;
  b.values.resize(static_cast<size_t>((bit_offset + count + 7) / 8));
  for (auto& byte : b.values) byte = static_cast<uint8_t>(rng());
  b.Bind();
  return b;
}

// The reference: each slot through the scalar hash for its type, reading the buffers by hand.
uint64_t ScalarHashOfSlot(const ValueBatch& b, uint32_t i) {
  switch (b.type) {
    case PhysicalType::kBoolean: {
      const int64_t bit = b.values_bit_offset + i;
      return HashBoolean(((b.values[bit / 8] >> (bit % 8)) & 1) != 0);
    }
    case PhysicalType::kInt32: {
      int32_t v;
      std::memcpy(&v, b.values + 4 * size_t{i}, 4);
      return HashInt32(v);
    }
    case PhysicalType::kInt64: {
      int64_t v;
      std::memcpy(&v, b.values + 8 * size_t{i}, 8);
      return HashInt64(v);
    }
    case PhysicalType::kFloat: {
      float v;
      std::memcpy(&v, b.values + 4 * size_t{i}, 4);
      return HashFloat(v);
    }
    case PhysicalType::kDouble: {
      double v;
      std::memcpy(&v, b.values + 8 * size_t{i}, 8);
      return HashDouble(v);
    }
    case PhysicalType::kInt96:
      return HashBytes(b.values + 12 * size_t{i}, 12);
    case PhysicalType::kFixedLenByteArray:
      return HashBytes(b.values + size_t{b.type_length} * i, b.type_length);
    case PhysicalType::kByteArray:
      return HashBytes(b.values + b.offsets[i], static_cast<size_t>(b.offsets[i + 1] - b.offsets[i]));
  }
  ADD_FAILURE() << "unexpected type";
  return 0;
}

struct TypeCase {
  const char* name;
  PhysicalType type;
  uint32_t type_length;
};

const TypeCase kEveryType[] = {
    {"BOOLEAN", PhysicalType::kBoolean, 0},
    {"INT32", PhysicalType::kInt32, 0},
    {"INT64", PhysicalType::kInt64, 0},
    {"INT96", PhysicalType::kInt96, 0},
    {"FLOAT", PhysicalType::kFloat, 0},
    {"DOUBLE", PhysicalType::kDouble, 0},
    {"BYTE_ARRAY", PhysicalType::kByteArray, 0},
    {"FIXED_LEN_BYTE_ARRAY(1)", PhysicalType::kFixedLenByteArray, 1},
    {"FIXED_LEN_BYTE_ARRAY(3)", PhysicalType::kFixedLenByteArray, 3},
    {"FIXED_LEN_BYTE_ARRAY(16)", PhysicalType::kFixedLenByteArray, 16},
    {"FIXED_LEN_BYTE_ARRAY(33)", PhysicalType::kFixedLenByteArray, 33},
};

OwnedBatch MakeBatch(const TypeCase& t, uint32_t count, std::mt19937_64& rng) {
  switch (t.type) {
    case PhysicalType::kBoolean:
      return MakeBooleans(count, 3, rng);  // a bit offset that is not a byte boundary
    case PhysicalType::kByteArray:
      return MakeByteArrays(count, rng);
    default:
      return MakeFixedWidth(t.type, t.type_length, count, rng);
  }
}

// Validity with random stretches, plus all-valid and all-null runs longer than 8 so whole-byte fast
// paths are taken. Bits before the offset and past the end are random, so reading them would show.
Bytes MakeValidity(uint32_t count, int64_t bit_offset, std::mt19937_64& rng, std::vector<bool>* valid) {
  valid->assign(count, false);
  uint32_t i = 0;
  int kind = 0;
  while (i < count) {
    const uint32_t run = 9 + static_cast<uint32_t>(rng() % 40);
    for (uint32_t k = 0; k < run && i < count; ++k, ++i) {
      (*valid)[i] = kind == 0 ? (rng() % 2 == 0) : kind == 1;  // 0: random, 1: all valid, 2: all null
    }
    kind = (kind + 1) % 3;
  }
  Bytes bits(static_cast<size_t>((bit_offset + count + 7) / 8 + 1));
  for (auto& byte : bits) byte = static_cast<uint8_t>(rng());
  for (uint32_t s = 0; s < count; ++s) {
    const int64_t bit = bit_offset + s;
    const uint8_t mask = static_cast<uint8_t>(1u << (bit % 8));
    if ((*valid)[s]) {
      bits[static_cast<size_t>(bit / 8)] |= mask;
    } else {
      bits[static_cast<size_t>(bit / 8)] &= static_cast<uint8_t>(~mask);
    }
  }
  return bits;
}

TEST(BatchHash, BulkEqualsScalarForEveryType) {
  std::mt19937_64 rng(101);
  for (const TypeCase& t : kEveryType) {
    OwnedBatch b = MakeBatch(t, 777, rng);
    ASSERT_EQ(ValidateBatch(b.batch), Status::kOk) << t.name;
    std::vector<uint64_t> out(b.batch.count);
    ASSERT_EQ(HashSlots(b.batch, 0, b.batch.count, out.data()), b.batch.count) << t.name;
    for (uint32_t i = 0; i < b.batch.count; ++i) {
      ASSERT_EQ(out[i], ScalarHashOfSlot(b.batch, i)) << t.name << " slot " << i;
    }
  }
}

TEST(BatchHash, SubRangesHashTheirOwnSlots) {
  std::mt19937_64 rng(103);
  for (const TypeCase& t : kEveryType) {
    OwnedBatch b = MakeBatch(t, 300, rng);
    const std::pair<uint32_t, uint32_t> ranges[] = {{0, 0}, {1, 2}, {5, 77}, {8, 16}, {299, 300}, {13, 300}};
    for (const auto& [begin, end] : ranges) {
      std::vector<uint64_t> out(end - begin + 1, 0);
      ASSERT_EQ(HashSlots(b.batch, begin, end, out.data()), end - begin) << t.name;
      for (uint32_t i = begin; i < end; ++i) {
        ASSERT_EQ(out[i - begin], ScalarHashOfSlot(b.batch, i)) << t.name << " slot " << i;
      }
    }
  }
}

TEST(BatchHash, DenseEntryPointsEqualScalar) {
  std::mt19937_64 rng(107);
  OwnedBatch ints = MakeFixedWidth(PhysicalType::kInt32, 0, 100, rng);
  std::vector<uint64_t> out(100);
  HashFixedWidth(ints.values.data(), 4, 100, out.data());
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(out[i], ScalarHashOfSlot(ints.batch, i));

  OwnedBatch strings = MakeByteArrays(100, rng);
  HashByteArrays(strings.offsets.data(), strings.values.data(), 100, out.data());
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(out[i], ScalarHashOfSlot(strings.batch, i));

  OwnedBatch bools = MakeBooleans(100, 3, rng);
  HashBooleanBitmap(bools.values.data(), 3, 100, out.data());
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(out[i], ScalarHashOfSlot(bools.batch, i));
}

TEST(BatchHash, BooleanBitmapWithOffsetReadsTheRightBits) {
  // Bytes b0 05, LSB first, are bits 0000 1101 1010 0000; bits 3..10 read 0 1 1 0 1 1 0 1.
  const uint8_t bits[] = {0xb0, 0x05};
  std::vector<uint64_t> out(8);
  HashBooleanBitmap(bits, 3, 8, out.data());
  const bool expected[] = {false, true, true, false, true, true, false, true};
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], HashBoolean(expected[i])) << "slot " << i;
}

TEST(BatchHash, SpacedEqualsDenseOfTheValidSlots) {
  std::mt19937_64 rng(109);
  for (const TypeCase& t : kEveryType) {
    for (int64_t validity_offset : {int64_t{5}, int64_t{8}, int64_t{13}}) {
      OwnedBatch b = MakeBatch(t, 1000, rng);
      std::vector<bool> valid;
      b.validity = MakeValidity(b.batch.count, validity_offset, rng, &valid);
      b.Bind();
      b.batch.validity_bit_offset = validity_offset;
      ASSERT_EQ(ValidateBatch(b.batch), Status::kOk);

      std::vector<uint64_t> expected;
      for (uint32_t i = 0; i < b.batch.count; ++i) {
        if (valid[i]) expected.push_back(ScalarHashOfSlot(b.batch, i));
      }
      ASSERT_GT(expected.size(), 0u);
      ASSERT_LT(expected.size(), b.batch.count);

      std::vector<uint64_t> out(b.batch.count, 0);
      const size_t written = HashSlots(b.batch, 0, b.batch.count, out.data());
      ASSERT_EQ(written, expected.size()) << t.name << " offset " << validity_offset;
      out.resize(written);
      EXPECT_EQ(out, expected) << t.name << " offset " << validity_offset;

      // Chunk-sized windows, as BatchOps walks a batch.
      std::vector<uint64_t> windowed;
      for (uint32_t begin = 0; begin < b.batch.count; begin += 96) {
        const uint32_t end = std::min<uint32_t>(b.batch.count, begin + 96);
        std::vector<uint64_t> chunk(end - begin);
        chunk.resize(HashSlots(b.batch, begin, end, chunk.data()));
        windowed.insert(windowed.end(), chunk.begin(), chunk.end());
      }
      EXPECT_EQ(windowed, expected) << t.name << " offset " << validity_offset;
    }
  }
}

TEST(BatchHash, AllNullAndAllValidSpacedBatches) {
  std::mt19937_64 rng(113);
  for (const TypeCase& t : kEveryType) {
    OwnedBatch b = MakeBatch(t, 200, rng);
    std::vector<uint64_t> dense(200), out(200);
    HashSlots(b.batch, 0, 200, dense.data());

    b.validity.assign(27, 0x00);
    b.Bind();
    b.batch.validity_bit_offset = 6;
    EXPECT_EQ(HashSlots(b.batch, 0, 200, out.data()), 0u) << t.name;

    b.validity.assign(27, 0xff);
    b.Bind();
    ASSERT_EQ(HashSlots(b.batch, 0, 200, out.data()), 200u) << t.name;
    EXPECT_EQ(out, dense) << t.name;
  }
}

// ---- Validation ---------------------------------------------------------------------------------

ValueBatch ByteArrayBatch(const std::vector<int32_t>& offsets, const Bytes& data) {
  ValueBatch b;
  b.type = PhysicalType::kByteArray;
  b.count = static_cast<uint32_t>(offsets.size() - 1);
  b.offsets = offsets.data();
  b.values = data.data();
  b.values_length = data.size();
  return b;
}

TEST(ValidateBatch, ByteArrayOffsets) {
  const Bytes data(10, 'x');
  const std::vector<int32_t> good = {2, 2, 5, 10};
  const std::vector<int32_t> decreasing = {0, 3, 2, 4};
  const std::vector<int32_t> past_end = {0, 2, 11};
  const std::vector<int32_t> negative_first = {-1, 2};
  EXPECT_EQ(ValidateBatch(ByteArrayBatch(good, data)), Status::kOk);
  EXPECT_EQ(ValidateBatch(ByteArrayBatch(decreasing, data)), Status::kMalformed);
  EXPECT_EQ(ValidateBatch(ByteArrayBatch(past_end, data)), Status::kMalformed);
  EXPECT_EQ(ValidateBatch(ByteArrayBatch(negative_first, data)), Status::kMalformed);
  ValueBatch no_offsets = ByteArrayBatch(good, data);
  no_offsets.offsets = nullptr;
  EXPECT_EQ(ValidateBatch(no_offsets), Status::kInvalidArgument);
}

TEST(ValidateBatch, FixedWidthLengths) {
  const Bytes data(66, 0);
  ValueBatch b;
  b.values = data.data();

  b.type = PhysicalType::kInt64;
  b.count = 3;
  b.values_length = 24;
  EXPECT_EQ(ValidateBatch(b), Status::kOk);
  b.values_length = 23;
  EXPECT_EQ(ValidateBatch(b), Status::kMalformed);

  b.type = PhysicalType::kInt96;
  b.count = 2;
  b.values_length = 23;
  EXPECT_EQ(ValidateBatch(b), Status::kMalformed);

  b.type = PhysicalType::kFixedLenByteArray;
  b.type_length = 33;
  b.count = 2;
  b.values_length = 66;
  EXPECT_EQ(ValidateBatch(b), Status::kOk);
  b.values_length = 65;
  EXPECT_EQ(ValidateBatch(b), Status::kMalformed);

  // count * width must not wrap around.
  b.type_length = 0x80000000u;
  b.count = 0xffffffffu;
  b.values_length = 66;
  EXPECT_EQ(ValidateBatch(b), Status::kMalformed);
}

TEST(ValidateBatch, BooleanBits) {
  const uint8_t bits[2] = {0, 0};
  ValueBatch b;
  b.type = PhysicalType::kBoolean;
  b.values = bits;
  b.values_length = 1;
  b.values_bit_offset = 3;
  b.count = 5;  // bits 3..7
  EXPECT_EQ(ValidateBatch(b), Status::kOk);
  b.count = 6;  // bit 8 is past the one byte
  EXPECT_EQ(ValidateBatch(b), Status::kMalformed);
  b.values_length = 2;
  EXPECT_EQ(ValidateBatch(b), Status::kOk);
  b.values_bit_offset = -1;
  EXPECT_EQ(ValidateBatch(b), Status::kInvalidArgument);
}

TEST(ValidateBatch, UnknownTypeCodeAndNullValues) {
  const Bytes data(64, 0);
  ValueBatch b;
  b.type = static_cast<PhysicalType>(9);
  b.count = 1;
  b.values = data.data();
  b.values_length = data.size();
  EXPECT_EQ(ValidateBatch(b), Status::kInvalidArgument);
  b.type = static_cast<PhysicalType>(-1);
  EXPECT_EQ(ValidateBatch(b), Status::kInvalidArgument);

  ValueBatch null_values;
  null_values.type = PhysicalType::kInt32;
  null_values.count = 1;
  null_values.values_length = 4;
  EXPECT_EQ(ValidateBatch(null_values), Status::kInvalidArgument);
}

TEST(ValidateBatch, FixedWidthOfEveryType) {
  EXPECT_EQ(FixedWidthOf(PhysicalType::kInt32, 99), 4u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kFloat, 99), 4u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kInt64, 99), 8u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kDouble, 99), 8u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kInt96, 99), 12u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kFixedLenByteArray, 33), 33u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kByteArray, 99), 0u);
  EXPECT_EQ(FixedWidthOf(PhysicalType::kBoolean, 99), 0u);
}

}  // namespace
}  // namespace pb
