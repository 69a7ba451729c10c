// Regression tests for inputs the fuzzers in fuzz/ found crashing or breaking an invariant: each test
// holds the minimised reproducer and asserts the behaviour the fix guarantees. The first of each pair
// is the fuzzer's own input; the others are the same defect reached another way.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "batch_ops.h"
#include "file_metadata.h"
#include "fixtures.h"
#include "hasher.h"
#include "sbbf.h"
#include "scratch_pool.h"

namespace pb {
namespace {

// fuzz_file_metadata: FileMetaData.schema given twice, 5 elements then 1. Pass one counted the last list
// (1) while pass two wrote records for both (6): a heap overflow of the caller's schema array.
TEST(FuzzRegression, FooterWithTheSchemaListTwiceIsMalformed) {
  const std::vector<uint8_t> footer = {
      0x15, 0x04, 0x19, 0x5c, 0x48, 0x00, 0x80, 0x15, 0x04, 0x25, 0x00, 0x18, 0x00, 0x00, 0x48, 0x00, 0x00, 0x48, 0x00,
      0x00, 0x48, 0x00, 0x00, 0x16, 0x00, 0x19, 0x04, 0x02, 0x00, 0x15, 0x04, 0x19, 0x1c, 0x48, 0x00, 0x00, 0x00};
  FileSummary summary;
  EXPECT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &summary, nullptr), Status::kMalformed);
}

// The same for row_groups (pass two overflowed the row group array) and for a row group's columns list
// (its chunks shifted every later row group's columns: one column's filter answered for another).
TEST(FuzzRegression, FooterWithRowGroupsOrColumnsTwiceIsMalformed) {
  // {2: schema [{4: "s"}], 3: num_rows 0, 4: row_groups [{1: columns [{}]}]}
  const std::vector<uint8_t> once = {0x29, 0x1c, 0x48, 0x01, 's', 0x00, 0x16, 0x00,
                                     0x19, 0x1c, 0x19, 0x1c, 0x00, 0x00, 0x00};
  FileSummary summary;
  ASSERT_EQ(DecodeFileMetaData(once.data(), once.size(), &summary, nullptr), Status::kOk);
  EXPECT_EQ(summary.schema_count, 1);
  EXPECT_EQ(summary.row_group_count, 1);
  EXPECT_EQ(summary.chunk_count, 1);

  // The same, then field 4 again (explicit id: zigzag 4 = 0x08) holding another row group.
  const std::vector<uint8_t> row_groups_twice = {0x29, 0x1c, 0x48, 0x01, 's',  0x00, 0x16, 0x00, 0x19, 0x1c, 0x19,
                                                 0x1c, 0x00, 0x00, 0x09, 0x08, 0x1c, 0x19, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(DecodeFileMetaData(row_groups_twice.data(), row_groups_twice.size(), &summary, nullptr),
            Status::kMalformed);

  // One row group whose field 1 (columns) comes twice (explicit id: zigzag 1 = 0x02).
  const std::vector<uint8_t> columns_twice = {0x29, 0x1c, 0x48, 0x01, 's',  0x00, 0x16, 0x00, 0x19, 0x1c,
                                              0x19, 0x1c, 0x00, 0x09, 0x02, 0x1c, 0x00, 0x00, 0x00};
  EXPECT_EQ(DecodeFileMetaData(columns_twice.data(), columns_twice.size(), &summary, nullptr), Status::kMalformed);
}

// fuzz_batch_ops: a BOOLEAN batch whose validity_bit_offset is negative (-18941) passed ValidateBatch,
// and hashing read the validity bitmap 2.3 KiB before its start.
TEST(FuzzRegression, NegativeValidityBitOffsetIsRefusedBeforeAnyRead) {
  const uint8_t values[] = {0x01};
  const uint8_t validity[] = {0x39};
  ValueBatch batch;
  batch.type = PhysicalType::kBoolean;
  batch.count = 2;
  batch.values = values;
  batch.values_length = sizeof values;
  batch.validity = validity;
  batch.validity_bit_offset = -18941;
  EXPECT_EQ(ValidateBatch(batch), Status::kInvalidArgument);

  ScratchPool pool(size_t{1} << 20);
  BatchOps ops(&pool);
  alignas(16) uint32_t words[kBytesPerBlock / 4] = {};
  SbbfView filter(words, kBytesPerBlock);
  uint8_t out[2] = {7, 7};
  uint64_t hashes[2];
  uint32_t written = 99;
  EXPECT_EQ(ops.Check(filter, batch, out), Status::kInvalidArgument);
  EXPECT_EQ(ops.Insert(filter, batch), Status::kInvalidArgument);
  EXPECT_EQ(ops.Hash(batch, hashes, &written), Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);
  EXPECT_EQ(out[0], 7);

  batch.type = PhysicalType::kInt32;  // any type: the validity offset is checked for all of them
  const int32_t ints[2] = {1, 2};
  batch.values = reinterpret_cast<const uint8_t*>(ints);
  batch.values_length = sizeof ints;
  batch.validity_bit_offset = -1;
  EXPECT_EQ(ValidateBatch(batch), Status::kInvalidArgument);
  batch.validity_bit_offset = 0;
  EXPECT_EQ(ValidateBatch(batch), Status::kOk);
}

// fuzz_scratch_pool: releasing a block twice after the pool had already given it back to the system
// (budget lowered while it was out, or Trim after its release) read the freed block's header.
TEST(FuzzRegression, DoubleReleaseAfterTheBlockWentBackToTheSystemIsRefused) {
  ScratchPool pool(size_t{1} << 20);
  void* lowered = pool.Acquire(1000);
  ASSERT_NE(lowered, nullptr);
  pool.set_max_held_bytes(0);
  ASSERT_EQ(pool.Release(lowered), Status::kOk);  // over budget: freed, not cached
  EXPECT_EQ(pool.held_bytes(), 0u);
  EXPECT_EQ(pool.Release(lowered), Status::kInvalidArgument);
  EXPECT_EQ(pool.held_bytes(), 0u);
  EXPECT_EQ(pool.in_use_bytes(), 0u);

  pool.set_max_held_bytes(size_t{1} << 20);
  void* trimmed = pool.Acquire(4096);
  ASSERT_NE(trimmed, nullptr);
  ASSERT_EQ(pool.Release(trimmed), Status::kOk);  // cached
  pool.Trim();                                    // freed
  EXPECT_EQ(pool.Release(trimmed), Status::kInvalidArgument);
  EXPECT_EQ(pool.held_bytes(), 0u);
  EXPECT_EQ(pool.in_use_bytes(), 0u);
}

// The address table behind that refusal must keep every held block findable through growth and
// removals (backward-shift deletion), or a good release would be refused.
TEST(FuzzRegression, EveryHeldBlockStaysReleasableThroughManyAcquiresAndReleases) {
  ScratchPool pool(size_t{64} << 20);
  std::vector<void*> blocks;
  for (int i = 0; i < 300; ++i) {
    void* p = pool.Acquire(64 + static_cast<size_t>(i % 7) * 100);
    ASSERT_NE(p, nullptr);
    blocks.push_back(p);
  }
  for (size_t i = 0; i < blocks.size(); i += 2) ASSERT_EQ(pool.Release(blocks[i]), Status::kOk) << i;
  pool.Trim();  // removes half the table's entries
  for (size_t i = 1; i < blocks.size(); i += 2) ASSERT_EQ(pool.Release(blocks[i]), Status::kOk) << i;
  for (size_t i = 0; i < blocks.size(); i += 2) EXPECT_EQ(pool.Release(blocks[i]), Status::kInvalidArgument) << i;
  EXPECT_EQ(pool.in_use_bytes(), 0u);
  pool.Trim();
  EXPECT_EQ(pool.held_bytes(), 0u);
}

}  // namespace
}  // namespace pb
