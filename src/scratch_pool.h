// A bounded pool of reusable linear-memory blocks for bitsets and batch scratch. After warm-up, acquiring
// a block of a size seen before pops a free list: batched calls then never touch the system allocator.
#pragma once

#include <cstddef>
#include <cstdint>

#include "status.h"

namespace pb {

class ScratchPool {
 public:
  static constexpr size_t kAlignment = 16;  // enough for v128 loads of bitset blocks
  static constexpr size_t kMaxBlockBytes = (128u << 20) + (1u << 20);

  explicit ScratchPool(size_t max_held_bytes) : max_held_bytes_(max_held_bytes) {}
  ~ScratchPool();
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;

  // Returns a block of at least `bytes` bytes, kAlignment-aligned, or nullptr when holding it would
  // cross the budget (after dropping cached blocks) or bytes exceeds kMaxBlockBytes.
  void* Acquire(size_t bytes);
  // kInvalidArgument for a pointer this pool did not hand out or one already released.
  Status Release(void* block);
  // Returns every cached (free) block to the system allocator.
  void Trim();

  // Lowering the budget below what is in use takes effect as blocks come back.
  void set_max_held_bytes(size_t bytes);
  size_t max_held_bytes() const { return max_held_bytes_; }

  size_t held_bytes() const { return held_bytes_; }      // in use + cached
  size_t in_use_bytes() const { return in_use_bytes_; }
  uint64_t system_allocations() const { return system_allocations_; }

  // The usable size of the class a request of `bytes` lands in (what Acquire really reserves).
  static size_t ClassBytes(size_t bytes);

 private:
  struct alignas(kAlignment) BlockHeader {
    uint32_t magic;
    uint32_t size_class;
    BlockHeader* next_free;
  };
  static constexpr int kNumClasses = 96;
  static int ClassOf(size_t bytes);
  static size_t SizeOfClass(int size_class);
  void DropCached(size_t needed);
  void FreeBlock(BlockHeader* block);

  // The addresses of every block held (in use or cached), so Release can refuse a pointer without
  // reading memory the pool may not own: a block already given back to the system, a foreign pointer.
  // Open addressing over a power-of-two table from calloc; it grows only with a system allocation.
  bool IsHeld(uintptr_t block) const;
  bool RememberHeld(uintptr_t block);
  void ForgetHeld(uintptr_t block);
  uintptr_t* held_table_ = nullptr;  // 0 = empty slot
  size_t held_table_capacity_ = 0;
  size_t held_blocks_ = 0;

  size_t max_held_bytes_;
  size_t held_bytes_ = 0;
  size_t in_use_bytes_ = 0;
  uint64_t system_allocations_ = 0;
  BlockHeader* free_lists_[kNumClasses] = {};
};

}  // namespace pb
