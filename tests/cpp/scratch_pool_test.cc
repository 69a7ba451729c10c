// ScratchPool: exact reuse by size class (what makes warm batch calls allocation-free), 16-byte
// alignment, the byte budget, refusal of bad releases, and held/in-use accounting.
#include "scratch_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fixtures.h"

namespace pb {
namespace {

constexpr size_t k128MiB = size_t{128} << 20;

TEST(ScratchPool, ReleasedBlockIsReusedForItsSizeClassWithoutASystemAllocation) {
  ScratchPool pool(size_t{1} << 20);
  void* first = pool.Acquire(1000);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(pool.system_allocations(), 1u);
  ASSERT_EQ(pool.Release(first), Status::kOk);

  void* again = pool.Acquire(1000);
  EXPECT_EQ(again, first);
  ASSERT_EQ(pool.Release(again), Status::kOk);
  // Any request landing in the same class gets the same block.
  void* same_class = pool.Acquire(ScratchPool::ClassBytes(1000));
  EXPECT_EQ(same_class, first);
  EXPECT_EQ(pool.system_allocations(), 1u);

  // A different class needs its own block.
  void* other_class = pool.Acquire(100);
  ASSERT_NE(other_class, nullptr);
  EXPECT_NE(other_class, first);
  EXPECT_EQ(pool.system_allocations(), 2u);
  EXPECT_EQ(pool.Release(same_class), Status::kOk);
  EXPECT_EQ(pool.Release(other_class), Status::kOk);
}

TEST(ScratchPool, SeveralCachedBlocksOfOneClassAreAllReused) {
  ScratchPool pool(size_t{1} << 20);
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(pool.Acquire(4096));
  for (void* b : blocks) ASSERT_EQ(pool.Release(b), Status::kOk);
  const uint64_t allocations = pool.system_allocations();
  std::vector<void*> reused;
  for (int i = 0; i < 5; ++i) reused.push_back(pool.Acquire(4096));
  EXPECT_EQ(pool.system_allocations(), allocations);
  for (void* b : reused) {
    EXPECT_NE(std::find(blocks.begin(), blocks.end(), b), blocks.end());
    ASSERT_EQ(pool.Release(b), Status::kOk);
  }
}

TEST(ScratchPool, BlocksAreSixteenByteAlignedAndUsableToTheirClassSize) {
  ScratchPool pool(size_t{64} << 20);
  std::vector<void*> blocks;
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{63}, size_t{64}, size_t{65},
                       size_t{100}, size_t{255}, size_t{256}, size_t{257}, size_t{1000}, size_t{1040}, size_t{2064},
                       size_t{96 * 32}, size_t{4096}, size_t{65536}, size_t{1} << 20}) {
    void* p = pool.Acquire(bytes);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % ScratchPool::kAlignment, 0u) << bytes;
    EXPECT_EQ(ScratchPool::kAlignment, 16u);
    std::memset(p, 0xAB, ScratchPool::ClassBytes(bytes));  // the sanitizer build catches any overrun
    blocks.push_back(p);
  }
  for (void* p : blocks) EXPECT_EQ(pool.Release(p), Status::kOk);
}

TEST(ScratchPool, BudgetRefusesWhatCannotBeHeldEvenAfterDroppingTheCache) {
  ScratchPool pool(4096);
  void* a = pool.Acquire(2048);
  void* b = pool.Acquire(2048);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(pool.held_bytes(), 4096u);
  EXPECT_EQ(pool.Acquire(64), nullptr);  // all 4096 bytes are in use, nothing cached to drop
  EXPECT_EQ(pool.held_bytes(), 4096u);

  ASSERT_EQ(pool.Release(b), Status::kOk);  // cached, still held
  EXPECT_EQ(pool.held_bytes(), 4096u);
  EXPECT_EQ(pool.in_use_bytes(), 2048u);

  // A 1024-byte class does not fit beside the cached 2048 block: the cache is dropped to make room.
  const uint64_t allocations = pool.system_allocations();
  void* c = pool.Acquire(1024);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(pool.system_allocations(), allocations + 1);
  EXPECT_EQ(pool.held_bytes(), 2048u + 1024u);
  EXPECT_LE(pool.held_bytes(), pool.max_held_bytes());

  EXPECT_EQ(pool.Acquire(2048), nullptr);  // 3072 in use + 2048 > 4096, nothing left to drop
  EXPECT_EQ(pool.held_bytes(), 3072u);
  ASSERT_EQ(pool.Release(a), Status::kOk);
  ASSERT_EQ(pool.Release(c), Status::kOk);
}

TEST(ScratchPool, OversizedRequestsAreRefused) {
  ScratchPool small(1000);
  EXPECT_EQ(small.Acquire(2000), nullptr);
  EXPECT_EQ(small.system_allocations(), 0u);
  ScratchPool unbounded(~size_t{0});
  EXPECT_EQ(unbounded.Acquire(ScratchPool::kMaxBlockBytes + 1), nullptr);
  EXPECT_EQ(unbounded.Acquire(~size_t{0}), nullptr);
  EXPECT_EQ(unbounded.held_bytes(), 0u);
}

TEST(ScratchPool, BadReleasesAreRefusedWithoutChangingAccounting) {
  ScratchPool pool(size_t{1} << 20);
  void* p = pool.Acquire(500);
  ASSERT_NE(p, nullptr);
  const size_t held = pool.held_bytes(), in_use = pool.in_use_bytes();

  EXPECT_EQ(pool.Release(nullptr), Status::kInvalidArgument);
  EXPECT_EQ(pool.Release(static_cast<uint8_t*>(p) + 1), Status::kInvalidArgument);
  EXPECT_EQ(pool.Release(static_cast<uint8_t*>(p) + 8), Status::kInvalidArgument);
  // Aligned, but not a block this pool handed out: what precedes it is not a live block header.
  alignas(16) uint8_t foreign[96] = {};
  EXPECT_EQ(pool.Release(foreign + 48), Status::kInvalidArgument);
  EXPECT_EQ(pool.held_bytes(), held);
  EXPECT_EQ(pool.in_use_bytes(), in_use);

  ASSERT_EQ(pool.Release(p), Status::kOk);
  EXPECT_EQ(pool.Release(p), Status::kInvalidArgument);  // double release of a cached block
  EXPECT_EQ(pool.in_use_bytes(), 0u);
  EXPECT_EQ(pool.held_bytes(), held);
}

TEST(ScratchPool, ClassBytesCoversTheRequestWithAtMostAQuarterOverhead) {
  std::vector<size_t> sizes;
  for (size_t n = 0; n <= 70000; ++n) sizes.push_back(n);
  for (int shift = 8; shift <= 27; ++shift) {
    const size_t p = size_t{1} << shift;
    for (size_t n : {p - 1, p, p + 1, p + p / 8, p + p / 4, p + p / 4 + 1, p + p / 2 + 3}) sizes.push_back(n);
  }
  for (size_t n : {size_t{1040}, size_t{2064}, size_t{96 * 32}, size_t{1} << 20, k128MiB, k128MiB + 32,
                   ScratchPool::kMaxBlockBytes}) {
    sizes.push_back(n);
  }
  size_t previous_class = 0;
  size_t previous_size = 0;
  for (size_t n : sizes) {
    const size_t class_bytes = ScratchPool::ClassBytes(n);
    ASSERT_GE(class_bytes, n);
    if (n >= 256) {
      ASSERT_LE(class_bytes * 4, n * 5) << n << " -> " << class_bytes;
    }
    ASSERT_EQ(class_bytes % ScratchPool::kAlignment, 0u) << n;
    ASSERT_EQ(ScratchPool::ClassBytes(class_bytes), class_bytes) << n;  // a class's own size maps to it
    if (n >= previous_size) {
      ASSERT_GE(class_bytes, previous_class) << n;
    }
    previous_size = n;
    previous_class = class_bytes;
  }
}

TEST(ScratchPool, PowerOfTwoFiltersGetExactlyTheirSize) {
  for (int shift = 6; shift <= 27; ++shift) {
    EXPECT_EQ(ScratchPool::ClassBytes(size_t{1} << shift), size_t{1} << shift) << shift;
  }
  EXPECT_EQ(ScratchPool::ClassBytes(k128MiB), k128MiB);
  EXPECT_LE(ScratchPool::ClassBytes(1040), 1300u);
  EXPECT_LE(ScratchPool::ClassBytes(2064), 2580u);
}

TEST(ScratchPool, LoweredBudgetFreesBlocksAsTheyReturn) {
  ScratchPool pool(size_t{1} << 20);
  void* cached = pool.Acquire(4096);
  ASSERT_EQ(pool.Release(cached), Status::kOk);
  void* a = pool.Acquire(1024);
  void* b = pool.Acquire(1024);
  void* c = pool.Acquire(1024);
  ASSERT_TRUE(a != nullptr && b != nullptr && c != nullptr);
  EXPECT_EQ(pool.held_bytes(), 4096u + 3072u);

  pool.set_max_held_bytes(1024);
  EXPECT_EQ(pool.max_held_bytes(), 1024u);
  EXPECT_EQ(pool.held_bytes(), 3072u);  // the cached block went at once; blocks in use stay
  EXPECT_EQ(pool.in_use_bytes(), 3072u);

  ASSERT_EQ(pool.Release(a), Status::kOk);
  EXPECT_EQ(pool.held_bytes(), 2048u);
  ASSERT_EQ(pool.Release(b), Status::kOk);
  EXPECT_EQ(pool.held_bytes(), 1024u);
  ASSERT_EQ(pool.Release(c), Status::kOk);  // now within budget: kept for reuse
  EXPECT_EQ(pool.held_bytes(), 1024u);
  EXPECT_EQ(pool.in_use_bytes(), 0u);

  const uint64_t allocations = pool.system_allocations();
  void* reused = pool.Acquire(1024);
  EXPECT_EQ(reused, c);
  EXPECT_EQ(pool.system_allocations(), allocations);
  ASSERT_EQ(pool.Release(reused), Status::kOk);
}

TEST(ScratchPool, TrimFreesCachedBlocksOnly) {
  ScratchPool pool(size_t{1} << 20);
  void* kept = pool.Acquire(300);
  void* x = pool.Acquire(5000);
  void* y = pool.Acquire(64);
  ASSERT_EQ(pool.Release(x), Status::kOk);
  ASSERT_EQ(pool.Release(y), Status::kOk);
  EXPECT_EQ(pool.held_bytes(), ScratchPool::ClassBytes(300) + ScratchPool::ClassBytes(5000) + 64);

  pool.Trim();
  EXPECT_EQ(pool.held_bytes(), ScratchPool::ClassBytes(300));
  EXPECT_EQ(pool.in_use_bytes(), ScratchPool::ClassBytes(300));

  const uint64_t allocations = pool.system_allocations();
  void* fresh = pool.Acquire(5000);  // the cache is gone: this one comes from the system
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(pool.system_allocations(), allocations + 1);
  ASSERT_EQ(pool.Release(fresh), Status::kOk);
  ASSERT_EQ(pool.Release(kept), Status::kOk);
}

TEST(ScratchPool, HeldAndInUseAccounting) {
  ScratchPool pool(size_t{1} << 20);
  EXPECT_EQ(pool.held_bytes(), 0u);
  EXPECT_EQ(pool.in_use_bytes(), 0u);
  void* a = pool.Acquire(100);  // class 128
  EXPECT_EQ(pool.in_use_bytes(), 128u);
  EXPECT_EQ(pool.held_bytes(), 128u);
  void* b = pool.Acquire(1000);  // class 1024
  EXPECT_EQ(pool.in_use_bytes(), 128u + 1024u);
  EXPECT_EQ(pool.held_bytes(), 128u + 1024u);
  ASSERT_EQ(pool.Release(a), Status::kOk);
  EXPECT_EQ(pool.in_use_bytes(), 1024u);
  EXPECT_EQ(pool.held_bytes(), 128u + 1024u);
  void* a_again = pool.Acquire(128);
  EXPECT_EQ(pool.in_use_bytes(), 128u + 1024u);
  EXPECT_EQ(pool.held_bytes(), 128u + 1024u);
  ASSERT_EQ(pool.Release(a_again), Status::kOk);
  ASSERT_EQ(pool.Release(b), Status::kOk);
  EXPECT_EQ(pool.in_use_bytes(), 0u);
  pool.Trim();
  EXPECT_EQ(pool.held_bytes(), 0u);
}

}  // namespace
}  // namespace pb
