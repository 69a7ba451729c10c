// BloomFilterHeader decode/encode against the published header bytes and the headers inside files other
// writers produced, plus hostile input: every refusal must name its problem and none may crash or spin.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "bloom_header.h"
#include "fixtures.h"
#include "thrift_compact.h"

namespace pb {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr int32_t k128MiB = 128 * 1024 * 1024;

// {numBytes = 1024, BLOCK, XXHASH, UNCOMPRESSED} spelled out in compact protocol, byte by byte:
// 0x15 = field 1 (delta 1) i32, 0x80 0x10 = zigzag(1024) = 2048 as a varint; 0x1c = next field, a struct;
// inside each union 0x1c = member 1 (an empty struct) then 0x00 0x00 closes member and union.
const Bytes kStandard1024 = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                             0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};

Status Decode(const Bytes& bytes, BloomHeader* header) { return DecodeBloomHeader(bytes.data(), bytes.size(), header); }

// A header with numBytes written as `num_bytes_field` (already compact-encoded: type byte + value) and
// the three unions given as raw struct bodies.
Bytes HeaderWith(const Bytes& num_bytes_field, const Bytes& algorithm, const Bytes& hash, const Bytes& compression) {
  Bytes out = num_bytes_field;
  for (const Bytes* body : {&algorithm, &hash, &compression}) {
    out.push_back(0x1c);  // next field id (delta 1), struct
    out.insert(out.end(), body->begin(), body->end());
  }
  out.push_back(0x00);
  return out;
}

const Bytes kNumBytes1024 = {0x15, 0x80, 0x10};
const Bytes kBlockMember = {0x1c, 0x00, 0x00};  // member 1 = empty struct, then the union's STOP

// The standard header with unknown fields an evolved writer might add: i64 id 5, binary id 9 and a
// struct id 7 (whose id is below the previous one, so it needs the explicit-id form).
Bytes HeaderWithUnknownFields() {
  Bytes out(kStandard1024.begin(), kStandard1024.end() - 1);  // drop the final STOP
  const Bytes extra = {
      0x16, 0xAA, 0xB4, 0xDE, 0x75,        // id 5 (delta 1 from 4), i64, a 4-byte varint
      0x48, 0x03, 'x', 'y', 'z',           // id 9 (delta 4), binary of length 3
      0x0c, 0x0e,                          // struct, explicit id zigzag(7) = 14
      0x15, 0x04,                          //   id 1 i32 = 2
      0x1c, 0x11, 0x00,                    //   id 2 struct { id 1 bool true }
      0x19, 0x35, 0x02, 0x04, 0x06,        //   id 3 list<i32> of 3
      0x17, 1, 2, 3, 4, 5, 6, 7, 8,        //   id 4 double
      0x00,                                //   end of the struct
      0x00,                                // end of the header
  };
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

void ExpectStandardHeader(const BloomHeader& h, int32_t num_bytes, uint32_t header_length) {
  EXPECT_EQ(h.num_bytes, num_bytes);
  EXPECT_EQ(h.algorithm, 1);
  EXPECT_EQ(h.hash, 1);
  EXPECT_EQ(h.compression, 1);
  EXPECT_EQ(h.header_length, header_length);
  EXPECT_EQ(h.problem, HeaderProblem::kNone);
}

// ---- Published vectors and real files -----------------------------------------------------------

TEST(BloomHeaderDecode, PublishedNumBytes1024) {
#if PB_HAVE_SBBF_VECTORS
  BloomHeader h;
  ASSERT_EQ(DecodeBloomHeader(vectors::kHeader_numBytes_1024, sizeof vectors::kHeader_numBytes_1024, &h), Status::kOk);
  ExpectStandardHeader(h, 1024, 16);
  EXPECT_EQ(sizeof vectors::kHeader_numBytes_1024, 16u);
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(BloomHeaderDecode, PublishedNumBytes32StopsBeforeTheBitset) {
#if PB_HAVE_SBBF_VECTORS
  const auto& bytes = vectors::kHeader_numBytes_32_followed_by_one_bitset_byte;
  BloomHeader h;
  ASSERT_EQ(DecodeBloomHeader(bytes, sizeof bytes, &h), Status::kOk);
  ExpectStandardHeader(h, 32, 15);
  ASSERT_EQ(sizeof bytes, 16u);
  EXPECT_EQ(bytes[h.header_length], 0x63);  // the first bitset byte, not consumed
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(BloomHeaderDecode, HandSpelledHeaderMatchesThePublishedOne) {
#if PB_HAVE_SBBF_VECTORS
  EXPECT_EQ(kStandard1024, Bytes(std::begin(vectors::kHeader_numBytes_1024), std::end(vectors::kHeader_numBytes_1024)));
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(BloomHeaderDecode, ParquetMrFileHeaderWithoutLength) {
  Bytes file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/data_index_bloom_encoding_stats.parquet", &file);
  constexpr size_t kOffset = 192;
  ASSERT_GT(file.size(), kOffset);
  // bloom_filter_length is absent: the decoder gets everything to the end of the file.
  BloomHeader h;
  ASSERT_EQ(DecodeBloomHeader(file.data() + kOffset, file.size() - kOffset, &h), Status::kOk);
  ExpectStandardHeader(h, 1024, 16);
  EXPECT_EQ(kOffset + h.header_length, 208u);
}

TEST(BloomHeaderDecode, ParquetRsFileHeaderWithLength) {
  Bytes file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/data_index_bloom_encoding_with_length.parquet", &file);
  constexpr size_t kOffset = 253, kLength = 2064;
  ASSERT_GE(file.size(), kOffset + kLength);
  BloomHeader h;
  ASSERT_EQ(DecodeBloomHeader(file.data() + kOffset, kLength, &h), Status::kOk);
  ExpectStandardHeader(h, 2048, 16);
  EXPECT_EQ(h.header_length + static_cast<size_t>(h.num_bytes), kLength);
}

TEST(BloomHeaderDecode, BareXxhashFilterFile) {
  Bytes file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/bloom_filter.xxhash.bin", &file);
  BloomHeader h;
  ASSERT_EQ(Decode(file, &h), Status::kOk);
  ExpectStandardHeader(h, 1024, 16);
  EXPECT_EQ(h.header_length + static_cast<size_t>(h.num_bytes), file.size());
}

TEST(BloomHeaderDecode, LegacyMurmurFileIsUnsupported) {
  Bytes file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/bloom_filter.bin", &file);
  BloomHeader h;
  EXPECT_EQ(Decode(file, &h), Status::kUnsupported);
  EXPECT_EQ(h.problem, HeaderProblem::kLegacyFormat);
}

TEST(BloomHeaderDecode, HandBuiltLegacyHeaderIsUnsupported) {
  // numBytes, algorithm, hash as little-endian int32, then the bitset: the pre-release layout.
  Bytes legacy = {0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  legacy.resize(12 + 32, 0x00);
  BloomHeader h;
  EXPECT_EQ(Decode(legacy, &h), Status::kUnsupported);
  EXPECT_EQ(h.problem, HeaderProblem::kLegacyFormat);
  // Readers that fetch only a header's worth of bytes still recognise it from the 12-byte prefix.
  legacy.resize(12);
  EXPECT_EQ(Decode(legacy, &h), Status::kUnsupported);
  EXPECT_EQ(h.problem, HeaderProblem::kLegacyFormat);
  // Shorter than the prefix, it is just a header with no fields.
  legacy.resize(11);
  EXPECT_EQ(Decode(legacy, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kMissingNumBytes);
}

// ---- Encode -------------------------------------------------------------------------------------

TEST(BloomHeaderEncode, NumBytes1024MatchesPublishedBytes) {
#if PB_HAVE_SBBF_VECTORS
  uint8_t out[kMaxEncodedHeaderLength];
  const size_t n = EncodeBloomHeader(1024, out, sizeof out);
  EXPECT_EQ(Bytes(out, out + n),
            Bytes(std::begin(vectors::kHeader_numBytes_1024), std::end(vectors::kHeader_numBytes_1024)));
  EXPECT_EQ(StandardHeaderLength(1024), sizeof vectors::kHeader_numBytes_1024);
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(BloomHeaderEncode, NumBytes32MatchesPublishedBytes) {
#if PB_HAVE_SBBF_VECTORS
  const auto& published = vectors::kHeader_numBytes_32_followed_by_one_bitset_byte;
  uint8_t out[kMaxEncodedHeaderLength];
  const size_t n = EncodeBloomHeader(32, out, sizeof out);
  EXPECT_EQ(Bytes(out, out + n), Bytes(published, published + 15));
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(BloomHeaderEncode, RoundTripsThroughDecode) {
  for (int32_t num_bytes : {32, 96, 1 << 20, k128MiB}) {
    uint8_t out[kMaxEncodedHeaderLength];
    const size_t n = EncodeBloomHeader(num_bytes, out, sizeof out);
    ASSERT_GT(n, 0u) << num_bytes;
    EXPECT_EQ(StandardHeaderLength(num_bytes), n);
    BloomHeader h;
    ASSERT_EQ(DecodeBloomHeader(out, n, &h), Status::kOk) << num_bytes;
    ExpectStandardHeader(h, num_bytes, static_cast<uint32_t>(n));
  }
}

TEST(BloomHeaderEncode, ShortCapacityWritesNothingPastItAndReportsZero) {
  const size_t full = StandardHeaderLength(1024);
  for (size_t capacity = 0; capacity < full; ++capacity) {
    Bytes out(full + 4, 0xEE);
    EXPECT_EQ(EncodeBloomHeader(1024, out.data(), capacity), 0u) << capacity;
    for (size_t i = capacity; i < out.size(); ++i) EXPECT_EQ(out[i], 0xEE) << "capacity " << capacity << " byte " << i;
  }
}

// ---- Tolerated and refused input ----------------------------------------------------------------

TEST(BloomHeaderDecode, UnknownFieldsAreSkipped) {
  const Bytes bytes = HeaderWithUnknownFields();
  BloomHeader h;
  ASSERT_EQ(Decode(bytes, &h), Status::kOk);
  ExpectStandardHeader(h, 1024, static_cast<uint32_t>(bytes.size()));
}

TEST(BloomHeaderDecode, UnknownFieldsBeforeTheKnownOnesAreSkipped) {
  const Bytes bytes = {
      0x56, 0x01,                    // id 5 i64
      0x05, 0x02, 0x80, 0x10,        // id 1 i32 in explicit-id form (id goes down), numBytes 1024
      0x1c, 0x1c, 0x00, 0x00,        // id 2
      0x58, 0x00,                    // id 7 empty binary
      0x0c, 0x06, 0x1c, 0x00, 0x00,  // id 3 (explicit zigzag(3) = 6)
      0x1c, 0x1c, 0x00, 0x00,        // id 4
      0x00, 0xAB,                    // STOP, then a bitset byte
  };
  BloomHeader h;
  ASSERT_EQ(Decode(bytes, &h), Status::kOk);
  ExpectStandardHeader(h, 1024, static_cast<uint32_t>(bytes.size() - 1));
}

TEST(BloomHeaderDecode, EveryTruncationOfTheStandardHeaderIsTruncated) {
  for (size_t length = 0; length < kStandard1024.size(); ++length) {
    const Bytes prefix(kStandard1024.begin(), kStandard1024.begin() + static_cast<std::ptrdiff_t>(length));
    BloomHeader h;
    EXPECT_EQ(Decode(prefix, &h), Status::kMalformed) << "length " << length;
    EXPECT_EQ(h.problem, HeaderProblem::kTruncated) << "length " << length;
  }
}

TEST(BloomHeaderDecode, EveryTruncationOfAHeaderWithUnknownFieldsIsTruncated) {
  // Cuts land inside a varint, a binary payload, a double and a nested struct.
  const Bytes full = HeaderWithUnknownFields();
  for (size_t length = 0; length < full.size(); ++length) {
    const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(length));
    BloomHeader h;
    EXPECT_EQ(Decode(prefix, &h), Status::kMalformed) << "length " << length;
    EXPECT_EQ(h.problem, HeaderProblem::kTruncated) << "length " << length;
  }
}

TEST(BloomHeaderDecode, NullDataWithNonZeroSizeIsInvalid) {
  BloomHeader h;
  EXPECT_EQ(DecodeBloomHeader(nullptr, 16, &h), Status::kInvalidArgument);
  EXPECT_EQ(DecodeBloomHeader(nullptr, 0, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kTruncated);
}

TEST(BloomHeaderDecode, EmptyUnionsAreUnsupportedButStillReportSizes) {
  const Bytes empty = {0x00};  // the union's STOP straight away
  for (int which = 0; which < 3; ++which) {
    const Bytes bytes = HeaderWith(kNumBytes1024, which == 0 ? empty : kBlockMember, which == 1 ? empty : kBlockMember,
                                   which == 2 ? empty : kBlockMember);
    BloomHeader h;
    EXPECT_EQ(Decode(bytes, &h), Status::kUnsupported) << "union " << which;
    EXPECT_EQ(h.problem, HeaderProblem::kEmptyUnion) << "union " << which;
    EXPECT_EQ(h.num_bytes, 1024);
    EXPECT_EQ(h.header_length, bytes.size());
    EXPECT_EQ(which == 0 ? h.algorithm : which == 1 ? h.hash : h.compression, 0);
  }
}

TEST(BloomHeaderDecode, UnknownUnionMemberIsUnsupported) {
  const Bytes member2 = {0x2c, 0x00, 0x00};  // field id 2 (delta 2), an empty struct: not BLOCK/XXHASH/UNCOMPRESSED
  for (int which = 0; which < 3; ++which) {
    const Bytes bytes = HeaderWith(kNumBytes1024, which == 0 ? member2 : kBlockMember,
                                   which == 1 ? member2 : kBlockMember, which == 2 ? member2 : kBlockMember);
    BloomHeader h;
    EXPECT_EQ(Decode(bytes, &h), Status::kUnsupported) << "union " << which;
    EXPECT_EQ(h.problem, HeaderProblem::kUnknownUnion) << "union " << which;
    EXPECT_EQ(h.num_bytes, 1024);
    EXPECT_EQ(h.header_length, bytes.size());
  }
}

TEST(BloomHeaderDecode, BadNumBytesIsMalformed) {
  // zigzag varints: 0 -> 00; -32 -> 63 = 0x3f; 33 -> 66 = 0x42; 48 -> 96 = 0x60.
  for (const Bytes& field : {Bytes{0x15, 0x00}, Bytes{0x15, 0x3f}, Bytes{0x15, 0x42}, Bytes{0x15, 0x60}}) {
    const Bytes bytes = HeaderWith(field, kBlockMember, kBlockMember, kBlockMember);
    BloomHeader h;
    EXPECT_EQ(Decode(bytes, &h), Status::kMalformed) << "zigzag byte " << int{field[1]};
    EXPECT_EQ(h.problem, HeaderProblem::kBadNumBytes) << "zigzag byte " << int{field[1]};
  }
}

TEST(BloomHeaderDecode, NumBytesOverTheCeilingIsALimit) {
  // 128 MiB + 32 = 134217760; zigzag 268435520 = 0x10000040 -> varint c0 80 80 80 01.
  const Bytes bytes = HeaderWith({0x15, 0xc0, 0x80, 0x80, 0x80, 0x01}, kBlockMember, kBlockMember, kBlockMember);
  BloomHeader h;
  EXPECT_EQ(Decode(bytes, &h), Status::kLimitExceeded);
  EXPECT_EQ(h.problem, HeaderProblem::kNumBytesTooLarge);
  EXPECT_EQ(h.num_bytes, k128MiB + 32);
  // The ceiling itself is fine: zigzag 2^28 -> 80 80 80 80 01.
  BloomHeader at_ceiling;
  EXPECT_EQ(Decode(HeaderWith({0x15, 0x80, 0x80, 0x80, 0x80, 0x01}, kBlockMember, kBlockMember, kBlockMember),
                   &at_ceiling),
            Status::kOk);
  EXPECT_EQ(at_ceiling.num_bytes, k128MiB);
}

TEST(BloomHeaderDecode, MissingFieldsAreNamed) {
  // Without numBytes the unions shift down: 0x2c = id 2 (delta 2), struct.
  const Bytes no_num_bytes = {0x2c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  BloomHeader h;
  EXPECT_EQ(Decode(no_num_bytes, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kMissingNumBytes);

  // numBytes, then only some of the unions (ids jump by delta).
  const Bytes no_algorithm = {0x15, 0x80, 0x10, 0x2c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(Decode(no_algorithm, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kMissingAlgorithm);
  const Bytes no_hash = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x2c, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(Decode(no_hash, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kMissingHash);
  const Bytes no_compression = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(Decode(no_compression, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kMissingCompression);

  const Bytes only_stop = {0x00};
  EXPECT_EQ(Decode(only_stop, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kMissingNumBytes);
}

TEST(BloomHeaderDecode, WrongWireTypeForAKnownFieldIsMalformed) {
  // numBytes as i64 (0x16) instead of i32.
  const Bytes num_bytes_as_i64 = HeaderWith({0x16, 0x80, 0x10}, kBlockMember, kBlockMember, kBlockMember);
  BloomHeader h;
  EXPECT_EQ(Decode(num_bytes_as_i64, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kWrongFieldType);
  // algorithm as i32 (0x15 after field 1) instead of a union struct.
  const Bytes algorithm_as_i32 = {0x15, 0x80, 0x10, 0x15, 0x02, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(Decode(algorithm_as_i32, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kWrongFieldType);
}

// ---- Hostile input: must fail fast, never crash -------------------------------------------------

// Decode must refuse these in well under a second; the bound is loose for slow CI and sanitizers.
void ExpectFastMalformed(const Bytes& bytes, const char* what) {
  const auto start = std::chrono::steady_clock::now();
  BloomHeader h;
  EXPECT_EQ(Decode(bytes, &h), Status::kMalformed) << what;
  EXPECT_TRUE(h.problem == HeaderProblem::kBadEncoding || h.problem == HeaderProblem::kTruncated)
      << what << ": problem " << static_cast<int>(h.problem);
  EXPECT_LE(h.header_length, bytes.size()) << what;
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 2000) << what;
}

TEST(BloomHeaderHostile, NestedStructBomb) {
  ExpectFastMalformed(Bytes(10000, 0x1c), "10000 nested struct fields");
  BloomHeader h;
  EXPECT_EQ(Decode(Bytes(10000, 0x1c), &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kBadEncoding);  // stopped by the depth limit, long before the end
}

TEST(BloomHeaderHostile, NestedListBomb) {
  // id 5 list of 1 list of 1 list ... : 0x59 then 0x19 forever.
  Bytes bytes = {0x59};
  bytes.resize(10000, 0x19);
  ExpectFastMalformed(bytes, "10000 nested lists");
}

TEST(BloomHeaderHostile, HugeListOfI32) {
  // id 5, list with the long size form (0xf5 = size follows, i32 elements), size 2^31, two elements.
  ExpectFastMalformed({0x15, 0x80, 0x10, 0x49, 0xf5, 0x80, 0x80, 0x80, 0x80, 0x08, 0x02, 0x04},
                      "list<i32> declaring 2^31 elements");
}

TEST(BloomHeaderHostile, HugeMapOfDoubles) {
  // id 5 map, 2^62 entries of double -> double.
  ExpectFastMalformed({0x5b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x77, 1, 2, 3},
                      "map<double,double> declaring 2^62 entries");
}

TEST(BloomHeaderHostile, BinaryWithHugeDeclaredLength) {
  ExpectFastMalformed({0x15, 0x80, 0x10, 0x48, 0xff, 0xff, 0xff, 0xff, 0x0f, 'a', 'b'}, "binary of 2^32-1 bytes");
  ExpectFastMalformed({0x58, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
                      "binary of 2^64-1 bytes");
}

TEST(BloomHeaderHostile, BadVarintsAndWireTypes) {
  BloomHeader h;
  // numBytes varint of 11 bytes.
  Bytes overlong = {0x15};
  overlong.insert(overlong.end(), 10, 0x80);
  overlong.push_back(0x00);
  overlong.insert(overlong.end(), kBlockMember.begin(), kBlockMember.end());
  EXPECT_EQ(Decode(overlong, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kBadEncoding);
  // numBytes over 32 bits.
  EXPECT_EQ(Decode({0x15, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00, 0x00}, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kBadEncoding);
  // Wire type 13 does not exist.
  EXPECT_EQ(Decode({0x1d, 0x00, 0x00}, &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kBadEncoding);
}

TEST(BloomHeaderHostile, BadEncodingEndingExactlyAtTheInputIsNotTruncation) {
  BloomHeader h;
  EXPECT_EQ(Decode({0x15, 0x80, 0x10, 0x1d}, &h), Status::kMalformed);  // wire type 13 as the last byte
  EXPECT_EQ(h.problem, HeaderProblem::kBadEncoding);
  // One top-level struct field plus kMaxNestingDepth + 1 nested ones: too deep exactly at the last byte.
  EXPECT_EQ(Decode(Bytes(static_cast<size_t>(thrift::kMaxNestingDepth) + 2, 0x1c), &h), Status::kMalformed);
  EXPECT_EQ(h.problem, HeaderProblem::kBadEncoding);
}

}  // namespace
}  // namespace pb
