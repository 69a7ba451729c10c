// XXH64 (seed 0) against the published vectors: the hash every Parquet bloom filter depends on, so a
// wrong xxhash.h or a miscompiled inline path shows up here before it corrupts any filter.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "fixtures.h"
#include "xxhash64.h"

namespace pb {
namespace {

TEST(Xxh64, EmptyInputIsTheWellKnownSeedZeroValue) {
  // Part of the xxHash specification itself, so it needs no fixture file.
  EXPECT_EQ(Xxh64(nullptr, 0), 0xEF46DB3751D8E999ULL);
  const uint8_t unused = 0x5a;
  EXPECT_EQ(Xxh64(&unused, 0), 0xEF46DB3751D8E999ULL);
}

TEST(Xxh64, PublishedEmptyAndHelloVectors) {
#if PB_HAVE_SBBF_VECTORS
  EXPECT_EQ(Xxh64("", 0), vectors::kXxh64Empty);
  EXPECT_EQ(Xxh64("Hello", 5), vectors::kXxh64Hello);
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(Xxh64, LoopingBytesVectorsInBothPublishedViews) {
#if PB_HAVE_SBBF_VECTORS
  ASSERT_EQ(vectors::kLoopingBytesCount, 32);
  std::vector<uint8_t> input;
  for (int length = 0; length < vectors::kLoopingBytesCount; ++length) {
    // Covers every tail length of the 32-byte stripe loop, 1-, 4- and 8-byte tails included.
    const uint64_t hash = Xxh64(input.data(), input.size());
    EXPECT_EQ(hash, vectors::kLoopingBytesHex[length]) << "length " << length;
    EXPECT_EQ(static_cast<int64_t>(hash), vectors::kLoopingBytesSigned[length]) << "length " << length;
    input.push_back(static_cast<uint8_t>(length));
  }
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(Xxh64, PublishedHexAndSignedViewsDescribeTheSameValues) {
#if PB_HAVE_SBBF_VECTORS
  for (int i = 0; i < vectors::kLoopingBytesCount; ++i) {
    EXPECT_EQ(static_cast<uint64_t>(vectors::kLoopingBytesSigned[i]), vectors::kLoopingBytesHex[i]) << i;
  }
#else
  PB_SKIP_WITHOUT_SBBF_VECTORS();
#endif
}

TEST(Xxh64, UnalignedInputHashesLikeAlignedInput) {
  // The batched paths hash slots at arbitrary offsets inside Arrow buffers.
  alignas(16) uint8_t buffer[64 + 7];
  for (size_t i = 0; i < sizeof buffer; ++i) buffer[i] = static_cast<uint8_t>(i * 37 + 11);
  alignas(16) uint8_t aligned[64];
  for (size_t shift = 1; shift < 8; ++shift) {
    for (size_t i = 0; i < sizeof aligned; ++i) aligned[i] = buffer[shift + i];
    for (size_t length : {size_t{4}, size_t{8}, size_t{12}, size_t{16}, size_t{33}, size_t{64}}) {
      EXPECT_EQ(Xxh64(buffer + shift, length), Xxh64(aligned, length)) << "shift " << shift << " length " << length;
    }
  }
}

}  // namespace
}  // namespace pb
