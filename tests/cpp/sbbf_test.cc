// Split Block Bloom Filter sizing, block selection and insert/check, asserted against published vectors,
// files written by other Parquet implementations and the bit layout BloomFilter.md specifies.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "bloom_header.h"
#include "fixtures.h"
#include "hasher.h"
#include "sbbf.h"

namespace pb {
namespace {

constexpr uint32_t k128MiB = 128u * 1024 * 1024;

// Bitsets in files are byte arrays; SbbfView wants aligned little-endian words.
std::vector<uint32_t> WordsFromBytes(const uint8_t* bytes, size_t num_bytes) {
  std::vector<uint32_t> words(num_bytes / 4);
  std::memcpy(words.data(), bytes, num_bytes);
  return words;
}

uint64_t HashString(const std::string& s) { return HashBytes(s.data(), s.size()); }

// The word mask of BloomFilter.md ("Technical Approach"), written out from the spec's salt table
// rather than shared with the implementation.
void SpecMask(uint32_t key, uint32_t mask[8]) {
  static const uint32_t kSpecSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                        0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
  for (int i = 0; i < 8; ++i) mask[i] = 1u << ((key * kSpecSalt[i]) >> 27);
}

// ---- Sizing -------------------------------------------------------------------------------------

TEST(SbbfSizing, OptimalBitsMatchPublishedArrowValues) {
#if PB_HAVE_SBBF_VECTORS
  for (const auto& c : vectors::kOptimalBits) {
    uint32_t num_bytes = 0;
    ASSERT_EQ(OptimalNumBytes(c.ndv, c.fpp, &num_bytes), Status::kOk) << "ndv " << c.ndv << " fpp " << c.fpp;
    EXPECT_EQ(uint64_t{num_bytes} * 8, c.bits) << "ndv " << c.ndv << " fpp " << c.fpp;
  }
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(SbbfSizing, ClampMatchesPublishedArrowRsValues) {
#if PB_HAVE_SBBF_VECTORS
  for (const auto& c : vectors::kClampBytes) {
    EXPECT_EQ(uint64_t{ClampNumBytes(c.in)}, c.out) << "requested " << c.in;
  }
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(SbbfSizing, ClampRoundsUpToPowersOfTwoWithinBounds) {
  EXPECT_EQ(ClampNumBytes(1), 32u);
  EXPECT_EQ(ClampNumBytes(32), 32u);
  EXPECT_EQ(ClampNumBytes(64), 64u);
  EXPECT_EQ(ClampNumBytes(65), 128u);
  EXPECT_EQ(ClampNumBytes(96 * 32), 4096u);
  EXPECT_EQ(ClampNumBytes(k128MiB - 1), k128MiB);
  EXPECT_EQ(ClampNumBytes(k128MiB), k128MiB);
  EXPECT_EQ(ClampNumBytes(k128MiB + 1), k128MiB);
  EXPECT_EQ(ClampNumBytes(std::numeric_limits<uint64_t>::max()), k128MiB);
}

TEST(SbbfSizing, FppOutsideOpenUnitIntervalIsInvalid) {
  for (double fpp : {0.0, -0.0, -0.5, 1.0, 1.5, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    uint32_t num_bytes = 12345;
    EXPECT_EQ(OptimalNumBytes(1000, fpp, &num_bytes), Status::kInvalidArgument) << "fpp " << fpp;
  }
}

TEST(SbbfSizing, HugeNdvClampsToTheCeiling) {
  uint32_t num_bytes = 0;
  ASSERT_EQ(OptimalNumBytes(std::numeric_limits<uint64_t>::max(), 0.01, &num_bytes), Status::kOk);
  EXPECT_EQ(num_bytes, k128MiB);
  ASSERT_EQ(OptimalNumBytes(uint64_t{1} << 40, 1e-9, &num_bytes), Status::kOk);
  EXPECT_EQ(num_bytes, k128MiB);
}

TEST(SbbfSizing, TinyNdvGetsTheMinimumSize) {
  uint32_t num_bytes = 0;
  ASSERT_EQ(OptimalNumBytes(0, 0.01, &num_bytes), Status::kOk);
  EXPECT_EQ(num_bytes, 32u);
  ASSERT_EQ(OptimalNumBytes(1, 0.5, &num_bytes), Status::kOk);
  EXPECT_EQ(num_bytes, 32u);
}

TEST(SbbfSizing, ResultIsAlwaysAValidPowerOfTwo) {
  for (uint64_t ndv : {uint64_t{1}, uint64_t{10}, uint64_t{999}, uint64_t{123457}, uint64_t{50000000}}) {
    for (double fpp : {0.5, 0.1, 0.01, 0.001, 1e-6}) {
      uint32_t num_bytes = 0;
      ASSERT_EQ(OptimalNumBytes(ndv, fpp, &num_bytes), Status::kOk);
      EXPECT_TRUE(IsValidNumBytes(num_bytes)) << num_bytes;
      EXPECT_EQ(num_bytes & (num_bytes - 1), 0u) << num_bytes;
    }
  }
}

TEST(SbbfSizing, ValidNumBytesEdges) {
  EXPECT_FALSE(IsValidNumBytes(0));
  EXPECT_FALSE(IsValidNumBytes(-32));
  EXPECT_FALSE(IsValidNumBytes(31));
  EXPECT_TRUE(IsValidNumBytes(32));
  EXPECT_FALSE(IsValidNumBytes(33));
  EXPECT_FALSE(IsValidNumBytes(48));  // not a whole number of 32-byte blocks
  EXPECT_TRUE(IsValidNumBytes(64));
  EXPECT_TRUE(IsValidNumBytes(96));  // three blocks: legal even though not a power of two
  EXPECT_TRUE(IsValidNumBytes(96 * 32));
  EXPECT_TRUE(IsValidNumBytes(k128MiB));
  EXPECT_FALSE(IsValidNumBytes(int64_t{k128MiB} + 32));
  EXPECT_FALSE(IsValidNumBytes(int64_t{1} << 40));
}

// ---- Block selection ----------------------------------------------------------------------------

TEST(SbbfBlockIndex, MatchesHandComputedValues) {
  // ((hash >> 32) * num_blocks) >> 32, worked out by hand.
  EXPECT_EQ(SbbfView::BlockIndex(0x0000000000000000ULL, 32), 0u);
  EXPECT_EQ(SbbfView::BlockIndex(0x00000000FFFFFFFFULL, 32), 0u);  // low bits pick the bit, not the block
  EXPECT_EQ(SbbfView::BlockIndex(0x8000000000000000ULL, 32), 16u);
  EXPECT_EQ(SbbfView::BlockIndex(0xFFFFFFFF00000000ULL, 32), 31u);
  EXPECT_EQ(SbbfView::BlockIndex(0x0800000000000000ULL, 32), 1u);
  EXPECT_EQ(SbbfView::BlockIndex(0x07FFFFFF12345678ULL, 32), 0u);
  EXPECT_EQ(SbbfView::BlockIndex(0xFFFFFFFFFFFFFFFFULL, 1), 0u);
  // Non-power-of-two block counts: 0x55555555 * 96 = 137438953440 < 32 * 2^32 = 137438953472.
  EXPECT_EQ(SbbfView::BlockIndex(0x5555555500000000ULL, 96), 31u);
  EXPECT_EQ(SbbfView::BlockIndex(0x5555555600000000ULL, 96), 32u);
  EXPECT_EQ(SbbfView::BlockIndex(0xFFFFFFFF00000000ULL, 96), 95u);
  // 0xAAAAAAAB * 3 = 2 * 2^32 + 1; 0xAAAAAAAA * 3 = 2 * 2^32 - 2.
  EXPECT_EQ(SbbfView::BlockIndex(0xAAAAAAAB00000000ULL, 3), 2u);
  EXPECT_EQ(SbbfView::BlockIndex(0xAAAAAAAA00000000ULL, 3), 1u);
  // The largest filter: (2^32 - 1) * 2^22 >> 32 = 2^22 - 1, no 64-bit overflow.
  EXPECT_EQ(SbbfView::BlockIndex(0xFFFFFFFFFFFFFFFFULL, k128MiB / 32), k128MiB / 32 - 1);
}

TEST(SbbfBlockIndex, MemberAndStaticFormsAgree) {
  std::vector<uint32_t> words(96 * 8);
  SbbfView view(words.data(), 96 * 32);
  ASSERT_EQ(view.num_blocks(), 96u);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t h = rng();
    EXPECT_EQ(view.BlockIndex(h), SbbfView::BlockIndex(h, 96));
    EXPECT_LT(view.BlockIndex(h), 96u);
  }
}

// ---- Insert / check -----------------------------------------------------------------------------

TEST(SbbfInsert, SetsExactlyTheSpecifiedBitOfEachWord) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const uint64_t hash = rng();
    std::vector<uint32_t> words(4 * 8, 0);
    SbbfView view(words.data(), 4 * 32);
    view.Insert(hash);
    uint32_t mask[8];
    SpecMask(static_cast<uint32_t>(hash), mask);
    const uint32_t block = SbbfView::BlockIndex(hash, 4);
    for (uint32_t b = 0; b < 4; ++b) {
      for (int w = 0; w < 8; ++w) {
        EXPECT_EQ(words[b * 8 + static_cast<uint32_t>(w)], b == block ? mask[w] : 0u) << "block " << b << " word " << w;
      }
    }
  }
}

TEST(SbbfInsert, KeyOneSetsTheSaltsTopFiveBits) {
  // key 1 multiplies to the salt itself; its top five bits, by hand: 8, 8, 17, 20, 14, 5, 19, 11.
  std::vector<uint32_t> words(8, 0);
  SbbfView view(words.data(), 32);
  view.Insert(0x0000000000000001ULL);
  const uint32_t expected[8] = {1u << 8, 1u << 8, 1u << 17, 1u << 20, 1u << 14, 1u << 5, 1u << 19, 1u << 11};
  for (int w = 0; w < 8; ++w) EXPECT_EQ(words[static_cast<size_t>(w)], expected[w]) << "word " << w;
}

TEST(SbbfInsert, SingleBlockFilterInsertThenCheck) {
  std::vector<uint32_t> words(8, 0);
  SbbfView view(words.data(), 32);
  ASSERT_EQ(view.num_blocks(), 1u);
  std::mt19937_64 rng(3);
  std::vector<uint64_t> inserted;
  for (int i = 0; i < 5; ++i) inserted.push_back(rng());
  for (uint64_t h : inserted) EXPECT_FALSE(view.Check(h));  // an empty filter holds nothing
  for (uint64_t h : inserted) view.Insert(h);
  for (uint64_t h : inserted) EXPECT_TRUE(view.Check(h));
  const std::vector<uint32_t> before = words;
  for (uint64_t h : inserted) view.Insert(h);  // idempotent
  EXPECT_EQ(words, before);
}

TEST(SbbfInsert, FullFilterSaysMaybeToEverything) {
  std::vector<uint32_t> words(8 * 3, 0xFFFFFFFFu);
  SbbfView view(words.data(), 3 * 32);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(view.Check(rng()));
}

TEST(SbbfInsert, BatchedHashesMatchScalarInsertAndCheck) {
  std::mt19937_64 rng(13);
  std::vector<uint64_t> present(300), probes(1000);
  for (auto& h : present) h = rng();
  for (auto& h : probes) h = rng();
  std::vector<uint32_t> scalar_words(16 * 8, 0), batch_words(16 * 8, 0);
  SbbfView scalar(scalar_words.data(), 16 * 32), batched(batch_words.data(), 16 * 32);
  for (uint64_t h : present) scalar.Insert(h);
  batched.InsertHashes(present.data(), present.size());
  EXPECT_EQ(scalar_words, batch_words);
  std::vector<uint8_t> out(probes.size(), 0xEE);
  batched.CheckHashes(probes.data(), probes.size(), out.data());
  for (size_t i = 0; i < probes.size(); ++i) EXPECT_EQ(out[i], scalar.Check(probes[i]) ? 1 : 0) << i;
}

TEST(SbbfInsert, IsolatedBlockCheckAgreesWithTheWholeFilter) {
  std::vector<uint32_t> words(96 * 8, 0);
  SbbfView view(words.data(), 96 * 32);
  std::mt19937_64 rng(17);
  for (int i = 0; i < 2000; ++i) view.Insert(rng());
  for (int i = 0; i < 2000; ++i) {
    const uint64_t h = rng();
    EXPECT_EQ(BlockCheck(words.data() + SbbfView::BlockIndex(h, 96) * 8, h), view.Check(h));
  }
}

TEST(SbbfProperty, NoFalseNegativesAndFppWithinTarget) {
  constexpr uint64_t kNdv = 10000;
  constexpr double kTargetFpp = 0.01;
  uint32_t num_bytes = 0;
  ASSERT_EQ(OptimalNumBytes(kNdv, kTargetFpp, &num_bytes), Status::kOk);
  std::vector<uint32_t> words(num_bytes / 4, 0);
  SbbfView view(words.data(), num_bytes);

  std::mt19937_64 rng(0x5eed5bbfULL);
  std::unordered_set<int64_t> inserted;
  while (inserted.size() < kNdv) inserted.insert(static_cast<int64_t>(rng()));
  for (int64_t v : inserted) view.Insert(HashInt64(v));

  size_t false_negatives = 0;
  for (int64_t v : inserted) false_negatives += view.Check(HashInt64(v)) ? 0 : 1;
  EXPECT_EQ(false_negatives, 0u);

  constexpr int kProbes = 100000;
  int probes = 0, false_positives = 0;
  while (probes < kProbes) {
    const int64_t v = static_cast<int64_t>(rng());
    if (inserted.count(v) != 0) continue;
    ++probes;
    false_positives += view.Check(HashInt64(v)) ? 1 : 0;
  }
  const double measured = static_cast<double>(false_positives) / kProbes;
  EXPECT_LE(measured, kTargetFpp) << false_positives << " false positives in " << kProbes << " probes, "
                                  << num_bytes << "-byte filter";
}

TEST(SbbfProperty, NonPowerOfTwoFilterHasNoFalseNegativesAndUsesEveryBlock) {
  constexpr uint32_t kBlocks = 96;
  std::vector<uint32_t> words(kBlocks * 8, 0);
  SbbfView view(words.data(), kBlocks * 32);
  std::mt19937_64 rng(29);
  std::vector<int64_t> values(3000);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  for (int64_t v : values) view.Insert(HashInt64(v));
  size_t false_negatives = 0;
  for (int64_t v : values) false_negatives += view.Check(HashInt64(v)) ? 0 : 1;
  EXPECT_EQ(false_negatives, 0u);
  // BlockIndex spreads hashes over all 96 blocks, not just a power-of-two prefix of them.
  for (uint32_t b = 0; b < kBlocks; ++b) {
    uint32_t any = 0;
    for (uint32_t w = 0; w < 8; ++w) any |= words[b * 8 + w];
    EXPECT_NE(any, 0u) << "block " << b << " never selected";
  }
}

// ---- Filters written by other implementations --------------------------------------------------

TEST(SbbfCompat, SparkBitsetAnswersLikeParquetMr) {
#if PB_HAVE_SBBF_VECTORS
  static_assert(sizeof vectors::kSparkBitset == 32, "one block");
  std::vector<uint32_t> words = WordsFromBytes(vectors::kSparkBitset, sizeof vectors::kSparkBitset);
  SbbfView view(words.data(), 32);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(view.Check(HashString("a" + std::to_string(i)))) << "a" << i;
  for (int i = 10; i < 20; ++i) EXPECT_FALSE(view.Check(HashString("a" + std::to_string(i)))) << "a" << i;
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

// The README's lists for both column files ("doing " has a trailing space; "doing" does not).
const char* const kColumnPresent[] = {"Hello", "This is",   "a",         "test",  "How",  "are you",  "doing ",
                                      "today", "the quick", "brown fox", "jumps", "over", "the lazy", "dog"};
const char* const kColumnAbsent[] = {"NOT_EXISTS", "Hello_Not_Exists", "b",     "c",    "d",
                                     "doing",      "The quick",        "hello", "world"};

void ExpectColumnAnswers(const std::vector<uint8_t>& file, size_t bitset_offset, uint32_t num_bytes) {
  ASSERT_LE(bitset_offset + num_bytes, file.size());
  std::vector<uint32_t> words = WordsFromBytes(file.data() + bitset_offset, num_bytes);
  SbbfView view(words.data(), num_bytes);
  for (const char* s : kColumnPresent) EXPECT_TRUE(view.Check(HashString(s))) << "present \"" << s << "\"";
  for (const char* s : kColumnAbsent) EXPECT_FALSE(view.Check(HashString(s))) << "absent \"" << s << "\"";
}

TEST(SbbfCompat, ParquetMrColumnFilterAnswersMatchTheReadme) {
  std::vector<uint8_t> file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/data_index_bloom_encoding_stats.parquet", &file);
  ExpectColumnAnswers(file, 208, 1024);
}

TEST(SbbfCompat, ParquetRsColumnFilterAnswersMatchTheReadme) {
  std::vector<uint8_t> file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/data_index_bloom_encoding_with_length.parquet", &file);
  ExpectColumnAnswers(file, 253 + 16, 2048);
}

TEST(SbbfCompat, BareXxhashFilterAnswersMatchTheReadme) {
  std::vector<uint8_t> file;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/bloom_filter.xxhash.bin", &file);
  ASSERT_EQ(file.size(), 16u + 1024u);
  std::vector<uint32_t> words = WordsFromBytes(file.data() + 16, 1024);
  SbbfView view(words.data(), 1024);
  for (const char* s : {"hello", "parquet", "bloom", "filter"}) EXPECT_TRUE(view.Check(HashString(s))) << s;
  for (const char* s : {"Hello", "foo", ""}) EXPECT_FALSE(view.Check(HashString(s))) << "\"" << s << "\"";
}

TEST(SbbfCompat, SerializedFilterIsByteIdenticalToParquetMrOutput) {
  // arrow C++'s CompatibilityTest: same strings, same size, same bytes.
  std::vector<uint8_t> expected;
  PB_READ_FIXTURE_OR_SKIP("parquet-testing/bloom_filter.xxhash.bin", &expected);
  std::vector<uint32_t> words(1024 / 4, 0);
  SbbfView view(words.data(), 1024);
  for (const char* s : {"hello", "parquet", "bloom", "filter"}) view.Insert(HashString(s));
  std::vector<uint8_t> serialized(kMaxEncodedHeaderLength);
  const size_t header_length = EncodeBloomHeader(1024, serialized.data(), serialized.size());
  ASSERT_GT(header_length, 0u);
  serialized.resize(header_length);
  const uint8_t* bitset = reinterpret_cast<const uint8_t*>(words.data());
  serialized.insert(serialized.end(), bitset, bitset + 1024);
  ASSERT_EQ(serialized.size(), expected.size());
  EXPECT_TRUE(serialized == expected) << "serialized filter differs from bloom_filter.xxhash.bin";
}

}  // namespace
}  // namespace pb
