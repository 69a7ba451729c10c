// BatchOps against the scalar path (HashInt64/HashBytes + SbbfView) over chunked, odd-sized and nullable
// batches, the gathered-block helpers, and the promise that warm batched calls allocate nothing.
#include "batch_ops.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "alloc_counter.h"
#include "fixtures.h"
#include "hasher.h"
#include "sbbf.h"
#include "scratch_pool.h"

namespace pb {
namespace {

constexpr size_t kPoolBytes = size_t{64} << 20;

// A zeroed filter that owns its words.
struct Filter {
  static Filter ForNdv(uint64_t ndv) {
    uint32_t num_bytes = 0;
    EXPECT_EQ(OptimalNumBytes(ndv, 0.01, &num_bytes), Status::kOk);
    return Filter{num_bytes, std::vector<uint32_t>(num_bytes / 4, 0)};
  }
  static Filter WithBlocks(uint32_t blocks) {
    return Filter{blocks * kBytesPerBlock, std::vector<uint32_t>(blocks * kWordsPerBlock, 0)};
  }
  SbbfView view() { return SbbfView(words.data(), num_bytes); }

  uint32_t num_bytes;
  std::vector<uint32_t> words;
};

std::vector<int64_t> RandomInt64s(size_t n, std::mt19937_64& rng) {
  std::vector<int64_t> v(n);
  for (auto& x : v) x = static_cast<int64_t>(rng());
  return v;
}

ValueBatch Int64Batch(const std::vector<int64_t>& values) {
  ValueBatch b;
  b.type = PhysicalType::kInt64;
  b.count = static_cast<uint32_t>(values.size());
  b.values = reinterpret_cast<const uint8_t*>(values.data());
  b.values_length = values.size() * sizeof(int64_t);
  return b;
}

// Strings in Arrow layout: offsets[i]..offsets[i+1] into data.
struct Strings {
  std::vector<std::string> values;
  std::string data;
  std::vector<int32_t> offsets;

  ValueBatch Batch() const {
    ValueBatch b;
    b.type = PhysicalType::kByteArray;
    b.count = static_cast<uint32_t>(values.size());
    b.values = reinterpret_cast<const uint8_t*>(data.data());
    b.values_length = data.size();
    b.offsets = offsets.data();
    return b;
  }
};

Strings RandomStrings(size_t n, std::mt19937_64& rng, const std::string& prefix) {
  Strings s;
  s.offsets.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    std::string v = rng() % 16 == 0 ? std::string() : prefix + std::to_string(rng() % 1000000000) + "\xc3\xa9";
    s.data += v;
    s.values.push_back(std::move(v));
    s.offsets.push_back(static_cast<int32_t>(s.data.size()));
  }
  return s;
}

// Random validity (LSB-first from bit_offset) with runs of all-valid and all-null longer than a byte.
std::vector<uint8_t> RandomValidity(size_t n, int64_t bit_offset, std::mt19937_64& rng, std::vector<bool>* valid) {
  valid->assign(n, false);
  for (size_t i = 0; i < n; ++i) {
    const size_t phase = (i / 64) % 3;  // 64-slot stretches: random, all valid, all null
    (*valid)[i] = phase == 0 ? rng() % 3 != 0 : phase == 1;
  }
  std::vector<uint8_t> bits(static_cast<size_t>((bit_offset + static_cast<int64_t>(n) + 7) / 8), 0);
  for (size_t i = 0; i < n; ++i) {
    const int64_t bit = bit_offset + static_cast<int64_t>(i);
    if ((*valid)[i]) bits[static_cast<size_t>(bit / 8)] |= static_cast<uint8_t>(1u << (bit % 8));
  }
  return bits;
}

uint64_t HashString(const std::string& s) { return HashBytes(s.data(), s.size()); }

// ---- Insert / Check -----------------------------------------------------------------------------

TEST(BatchOps, InsertedValuesAreAllMaybeAcrossChunkBoundaries) {
  std::mt19937_64 rng(201);
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  for (size_t n : {size_t{1}, size_t{7}, size_t{1023}, size_t{1024}, size_t{1025}, size_t{2049}, size_t{5000}}) {
    const std::vector<int64_t> values = RandomInt64s(n, rng);
    Filter filter = Filter::ForNdv(n);
    ASSERT_EQ(ops.Insert(filter.view(), Int64Batch(values)), Status::kOk) << n;
    std::vector<uint8_t> out(n, 0xEE);
    ASSERT_EQ(ops.Check(filter.view(), Int64Batch(values), out.data()), Status::kOk) << n;
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], kCheckMaybe) << "n " << n << " slot " << i;
  }
}

TEST(BatchOps, InsertSetsTheSameBitsAsScalarInserts) {
  std::mt19937_64 rng(203);
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  const std::vector<int64_t> ints = RandomInt64s(3001, rng);
  const Strings strings = RandomStrings(2500, rng, "s");
  Filter batched = Filter::WithBlocks(96), scalar = Filter::WithBlocks(96);
  ASSERT_EQ(ops.Insert(batched.view(), Int64Batch(ints)), Status::kOk);
  ASSERT_EQ(ops.Insert(batched.view(), strings.Batch()), Status::kOk);
  for (int64_t v : ints) scalar.view().Insert(HashInt64(v));
  for (const std::string& s : strings.values) scalar.view().Insert(HashString(s));
  EXPECT_EQ(batched.words, scalar.words);
}

TEST(BatchOps, CheckOfAbsentValuesMatchesScalarCheck) {
  std::mt19937_64 rng(205);
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  // A deliberately small filter so that plenty of probes come back "maybe" as well as "absent".
  Filter filter = Filter::WithBlocks(16);
  ASSERT_EQ(ops.Insert(filter.view(), Int64Batch(RandomInt64s(400, rng))), Status::kOk);
  const std::vector<int64_t> probes = RandomInt64s(5000, rng);
  std::vector<uint8_t> out(probes.size(), 0xEE);
  ASSERT_EQ(ops.Check(filter.view(), Int64Batch(probes), out.data()), Status::kOk);
  size_t maybes = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    ASSERT_EQ(out[i], filter.view().Check(HashInt64(probes[i])) ? kCheckMaybe : kCheckAbsent) << i;
    maybes += out[i];
  }
  EXPECT_GT(maybes, 0u);
  EXPECT_LT(maybes, probes.size());

  const Strings absent = RandomStrings(3333, rng, "absent-");
  std::vector<uint8_t> string_out(absent.values.size(), 0xEE);
  ASSERT_EQ(ops.Check(filter.view(), absent.Batch(), string_out.data()), Status::kOk);
  for (size_t i = 0; i < absent.values.size(); ++i) {
    ASSERT_EQ(string_out[i], filter.view().Check(HashString(absent.values[i])) ? kCheckMaybe : kCheckAbsent) << i;
  }
}

TEST(BatchOps, SpacedCheckReportsNullsAndTheDenseAnswerElsewhere) {
  std::mt19937_64 rng(207);
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  Filter filter = Filter::WithBlocks(16);
  const std::vector<int64_t> values = RandomInt64s(5001, rng);
  // Insert every other value so the dense answers are a mix of maybe and absent.
  std::vector<int64_t> half;
  for (size_t i = 0; i < values.size(); i += 2) half.push_back(values[i]);
  ASSERT_EQ(ops.Insert(filter.view(), Int64Batch(half)), Status::kOk);

  std::vector<uint8_t> dense(values.size());
  ASSERT_EQ(ops.Check(filter.view(), Int64Batch(values), dense.data()), Status::kOk);

  for (int64_t validity_offset : {int64_t{0}, int64_t{3}, int64_t{11}}) {
    std::vector<bool> valid;
    const std::vector<uint8_t> validity = RandomValidity(values.size(), validity_offset, rng, &valid);
    ValueBatch spaced = Int64Batch(values);
    spaced.validity = validity.data();
    spaced.validity_bit_offset = validity_offset;
    std::vector<uint8_t> out(values.size(), 0xEE);
    ASSERT_EQ(ops.Check(filter.view(), spaced, out.data()), Status::kOk);
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(out[i], valid[i] ? dense[i] : kCheckNull) << "offset " << validity_offset << " slot " << i;
    }
  }
}

TEST(BatchOps, SpacedInsertInsertsOnlyTheValidSlots) {
  std::mt19937_64 rng(209);
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  const Strings strings = RandomStrings(3000, rng, "v");
  std::vector<bool> valid;
  const std::vector<uint8_t> validity = RandomValidity(strings.values.size(), 5, rng, &valid);
  ValueBatch spaced = strings.Batch();
  spaced.validity = validity.data();
  spaced.validity_bit_offset = 5;

  Filter batched = Filter::WithBlocks(64), scalar = Filter::WithBlocks(64);
  ASSERT_EQ(ops.Insert(batched.view(), spaced), Status::kOk);
  for (size_t i = 0; i < strings.values.size(); ++i) {
    if (valid[i]) scalar.view().Insert(HashString(strings.values[i]));
  }
  EXPECT_EQ(batched.words, scalar.words);
}

TEST(BatchOps, HashReturnsTheCompactedValidHashes) {
  std::mt19937_64 rng(211);
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  const std::vector<int64_t> values = RandomInt64s(2500, rng);
  std::vector<bool> valid;
  const std::vector<uint8_t> validity = RandomValidity(values.size(), 7, rng, &valid);
  ValueBatch spaced = Int64Batch(values);
  spaced.validity = validity.data();
  spaced.validity_bit_offset = 7;

  std::vector<uint64_t> expected;
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid[i]) expected.push_back(HashInt64(values[i]));
  }
  std::vector<uint64_t> out(values.size(), 0);
  uint32_t written = 0;
  ASSERT_EQ(ops.Hash(spaced, out.data(), &written), Status::kOk);
  ASSERT_EQ(written, expected.size());
  out.resize(written);
  EXPECT_EQ(out, expected);

  std::vector<uint64_t> dense(values.size(), 0);
  ASSERT_EQ(ops.Hash(Int64Batch(values), dense.data(), &written), Status::kOk);
  ASSERT_EQ(written, values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(dense[i], HashInt64(values[i])) << i;
}

TEST(BatchOps, InvalidAndEmptyBatches) {
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  Filter filter = Filter::WithBlocks(4);
  const std::vector<int32_t> decreasing = {0, 4, 2};
  const std::string data = "abcd";
  ValueBatch bad;
  bad.type = PhysicalType::kByteArray;
  bad.count = 2;
  bad.offsets = decreasing.data();
  bad.values = reinterpret_cast<const uint8_t*>(data.data());
  bad.values_length = data.size();
  uint8_t out[2] = {0xEE, 0xEE};
  uint64_t hashes[2];
  uint32_t written = 99;
  EXPECT_EQ(ops.Insert(filter.view(), bad), Status::kMalformed);
  EXPECT_EQ(ops.Check(filter.view(), bad, out), Status::kMalformed);
  EXPECT_EQ(ops.Hash(bad, hashes, &written), Status::kMalformed);
  EXPECT_EQ(written, 0u);
  for (uint32_t w : filter.words) EXPECT_EQ(w, 0u);  // nothing half-inserted

  ValueBatch empty;
  empty.type = PhysicalType::kInt64;
  EXPECT_EQ(ops.Insert(filter.view(), empty), Status::kOk);
  EXPECT_EQ(ops.Check(filter.view(), empty, out), Status::kOk);
  EXPECT_EQ(out[0], 0xEE);
}

// ---- Gathered blocks ----------------------------------------------------------------------------

TEST(BatchOps, BlockIndicesAndGatheredBlockChecksAgreeWithTheWholeFilter) {
  std::mt19937_64 rng(213);
  constexpr uint32_t kBlocks = 37;  // not a power of two
  Filter filter = Filter::WithBlocks(kBlocks);
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 600; ++i) hashes.push_back(rng());
  filter.view().InsertHashes(hashes.data(), 300);  // the first half present, the rest mostly absent
  const uint32_t n = static_cast<uint32_t>(hashes.size());

  std::vector<uint32_t> indices(n);
  BlockIndices(hashes.data(), n, kBlocks, indices.data());
  std::vector<uint32_t> gathered(size_t{n} * kWordsPerBlock);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(indices[i], SbbfView::BlockIndex(hashes[i], kBlocks)) << i;
    std::memcpy(&gathered[size_t{i} * kWordsPerBlock], &filter.words[size_t{indices[i]} * kWordsPerBlock],
                kBytesPerBlock);
  }
  std::vector<uint8_t> out(n, 0xEE);
  CheckGatheredBlocks(hashes.data(), gathered.data(), n, out.data());
  size_t absent = 0;
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], filter.view().Check(hashes[i]) ? kCheckMaybe : kCheckAbsent) << i;
    if (i < 300) {
      ASSERT_EQ(out[i], kCheckMaybe) << i;
    }
    absent += out[i] == kCheckAbsent ? 1 : 0;
  }
  EXPECT_GT(absent, 0u);
}

// ---- Allocation behaviour -----------------------------------------------------------------------

TEST(AllocCounter, CountsOperatorNew) {
  // Guards the zero-allocation test against a counter that never moves.
  const uint64_t before = OperatorNewCount();
  void* p = ::operator new(64);
  volatile uint8_t* bytes = static_cast<uint8_t*>(p);
  bytes[0] = 1;
  ::operator delete(p);
  int* array = new int[3];
  volatile int* sink = array;
  sink[1] = 2;
  delete[] array;
  EXPECT_GE(OperatorNewCount(), before + 2);
}

TEST(BatchOpsAllocation, WarmInsertAndCheckMakeNoAllocations) {
  // Everything the measured calls touch is built before the first snapshot.
  std::mt19937_64 rng(215);
  const std::vector<int64_t> ints = RandomInt64s(100000, rng);
  const Strings strings = RandomStrings(10000, rng, "value-");
  std::vector<bool> int_valid, string_valid;
  const std::vector<uint8_t> int_validity = RandomValidity(ints.size(), 3, rng, &int_valid);
  const std::vector<uint8_t> string_validity = RandomValidity(strings.values.size(), 6, rng, &string_valid);
  const ValueBatch dense_ints = Int64Batch(ints);
  ValueBatch spaced_ints = dense_ints;
  spaced_ints.validity = int_validity.data();
  spaced_ints.validity_bit_offset = 3;
  const ValueBatch dense_strings = strings.Batch();
  ValueBatch spaced_strings = dense_strings;
  spaced_strings.validity = string_validity.data();
  spaced_strings.validity_bit_offset = 6;
  Filter filter = Filter::ForNdv(110000);
  std::vector<uint8_t> out(ints.size());
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);
  const SbbfView view = filter.view();

  // Warm-up: the first call makes the pool allocate the chunk scratch; released, it stays cached.
  ASSERT_EQ(ops.Insert(view, dense_ints), Status::kOk);
  ASSERT_EQ(ops.Check(view, spaced_strings, out.data()), Status::kOk);

  Status statuses[8];
  const uint64_t system_before = pool.system_allocations();
  const uint64_t new_before = OperatorNewCount();
  statuses[0] = ops.Insert(view, dense_ints);
  statuses[1] = ops.Insert(view, spaced_ints);
  statuses[2] = ops.Check(view, dense_ints, out.data());
  statuses[3] = ops.Check(view, spaced_ints, out.data());
  statuses[4] = ops.Insert(view, dense_strings);
  statuses[5] = ops.Insert(view, spaced_strings);
  statuses[6] = ops.Check(view, dense_strings, out.data());
  statuses[7] = ops.Check(view, spaced_strings, out.data());
  const uint64_t new_after = OperatorNewCount();
  const uint64_t system_after = pool.system_allocations();

  EXPECT_EQ(system_after - system_before, 0u) << "ScratchPool system allocations during warm batched calls";
  EXPECT_EQ(new_after - new_before, 0u) << "operator new calls during warm batched calls";
  for (Status s : statuses) EXPECT_EQ(s, Status::kOk);
  // The measured calls did real work: every valid string checked "maybe".
  for (size_t i = 0; i < strings.values.size(); ++i) {
    ASSERT_EQ(out[i], string_valid[i] ? kCheckMaybe : kCheckNull) << i;
  }
}

TEST(BatchOpsAllocation, ChunkScratchGoesBackToThePoolAfterEveryCall) {
  std::mt19937_64 rng(311);
  const std::vector<int64_t> values = RandomInt64s(5 * BatchOps::kChunkSlots + 3, rng);
  Filter filter = Filter::ForNdv(values.size());
  std::vector<uint8_t> out(values.size());
  ScratchPool pool(kPoolBytes);
  BatchOps ops(&pool);

  ASSERT_EQ(ops.Insert(filter.view(), Int64Batch(values)), Status::kOk);
  EXPECT_EQ(pool.in_use_bytes(), 0u) << "after Insert";
  const size_t cached = pool.held_bytes();
  EXPECT_GT(cached, 0u) << "the scratch stays cached for the next call";
  ASSERT_EQ(ops.Check(filter.view(), Int64Batch(values), out.data()), Status::kOk);
  EXPECT_EQ(pool.in_use_bytes(), 0u) << "after Check";
  EXPECT_EQ(pool.held_bytes(), cached) << "Check reused Insert's scratch";
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(out[i], kCheckMaybe) << i;

  // A call that fails on its batch leaves nothing in use either.
  ValueBatch broken = Int64Batch(values);
  broken.values_length -= 1;
  EXPECT_EQ(ops.Check(filter.view(), broken, out.data()), Status::kMalformed);
  EXPECT_EQ(pool.in_use_bytes(), 0u) << "after a refused Check";
}

TEST(BatchOpsAllocation, TooSmallPoolIsALimitNotACrash) {
  std::mt19937_64 rng(217);
  const std::vector<int64_t> values = RandomInt64s(3000, rng);
  Filter filter = Filter::WithBlocks(8);
  std::vector<uint8_t> out(values.size(), 0xEE);

  ScratchPool tiny(1024);  // less than the 8 KiB hash scratch
  BatchOps tiny_ops(&tiny);
  EXPECT_EQ(tiny_ops.Insert(filter.view(), Int64Batch(values)), Status::kLimitExceeded);
  EXPECT_EQ(tiny_ops.Check(filter.view(), Int64Batch(values), out.data()), Status::kLimitExceeded);
  for (uint32_t w : filter.words) EXPECT_EQ(w, 0u);

  // Room for the hashes alone, not the hashes and answers a call leases together.
  ScratchPool almost(ScratchPool::ClassBytes(sizeof(uint64_t) * BatchOps::kChunkSlots) + 64);
  BatchOps almost_ops(&almost);
  EXPECT_EQ(almost_ops.Insert(filter.view(), Int64Batch(values)), Status::kLimitExceeded);
  EXPECT_EQ(almost_ops.Check(filter.view(), Int64Batch(values), out.data()), Status::kLimitExceeded);
  EXPECT_EQ(almost.in_use_bytes(), 0u) << "a refused call leaves nothing in use";

  // Raising the budget lets the same BatchOps proceed.
  almost.set_max_held_bytes(kPoolBytes);
  EXPECT_EQ(almost_ops.Insert(filter.view(), Int64Batch(values)), Status::kOk);
}

}  // namespace
}  // namespace pb
