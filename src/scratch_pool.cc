// Bounded, size-classed block pool (see scratch_pool.h). Classes step by quarter powers of two, so a
// non-power-of-two filter wastes at most 25% and blocks of one size are always reused exactly.
#include "scratch_pool.h"

#include <cstdlib>

namespace pb {

namespace {
constexpr uint32_t kLiveMagic = 0x5042b10cU;
constexpr uint32_t kFreeMagic = 0x5042f4eeU;
constexpr size_t kSmallestClassBytes = 64;

size_t HomeSlot(uintptr_t block, size_t capacity) {
  const uint64_t mixed = (static_cast<uint64_t>(block) >> 4) * 0x9e3779b97f4a7c15ULL;  // Fibonacci hashing
  return static_cast<size_t>(mixed >> 32) & (capacity - 1);
}
}  // namespace

bool ScratchPool::IsHeld(uintptr_t block) const {
  if (held_table_capacity_ == 0) return false;
  for (size_t i = HomeSlot(block, held_table_capacity_); held_table_[i] != 0; i = (i + 1) & (held_table_capacity_ - 1)) {
    if (held_table_[i] == block) return true;
  }
  return false;
}

bool ScratchPool::RememberHeld(uintptr_t block) {
  if ((held_blocks_ + 1) * 2 > held_table_capacity_) {  // keep the load at most one half
    const size_t capacity = held_table_capacity_ == 0 ? 64 : held_table_capacity_ * 2;
    auto* table = static_cast<uintptr_t*>(std::calloc(capacity, sizeof(uintptr_t)));
    if (table == nullptr) return false;
    for (size_t i = 0; i < held_table_capacity_; ++i) {
      if (held_table_[i] == 0) continue;
      size_t j = HomeSlot(held_table_[i], capacity);
      while (table[j] != 0) j = (j + 1) & (capacity - 1);
      table[j] = held_table_[i];
    }
    std::free(held_table_);
    held_table_ = table;
    held_table_capacity_ = capacity;
  }
  size_t i = HomeSlot(block, held_table_capacity_);
  while (held_table_[i] != 0) i = (i + 1) & (held_table_capacity_ - 1);
  held_table_[i] = block;
  ++held_blocks_;
  return true;
}

void ScratchPool::ForgetHeld(uintptr_t block) {
  const size_t mask = held_table_capacity_ - 1;
  size_t i = HomeSlot(block, held_table_capacity_);
  while (held_table_[i] != block) i = (i + 1) & mask;
  held_table_[i] = 0;
  --held_blocks_;
  // Backward-shift deletion: move later entries of the probe run up so lookups never stop early.
  for (size_t j = (i + 1) & mask; held_table_[j] != 0; j = (j + 1) & mask) {
    const size_t home = HomeSlot(held_table_[j], held_table_capacity_);
    const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    held_table_[i] = held_table_[j];
    held_table_[j] = 0;
    i = j;
  }
}

void ScratchPool::FreeBlock(BlockHeader* block) {
  ForgetHeld(reinterpret_cast<uintptr_t>(block));
  held_bytes_ -= SizeOfClass(static_cast<int>(block->size_class));
  block->magic = 0;
  std::free(block);
}

// Classes 0..3: 64, 128, 192, 256 bytes; from 256 on, four classes per doubling.
size_t ScratchPool::SizeOfClass(int c) {
  if (c < 4) return kSmallestClassBytes * (c + 1);
  const int doubling = (c - 4) / 4;  // 256 << doubling is the base of this group
  const int quarter = (c - 4) % 4 + 1;
  const size_t base = size_t{256} << doubling;
  return base + base / 4 * quarter;
}

// The inverse of SizeOfClass in constant time (every batch call leases its scratch through here): with
// 2^d <= bytes - 1 < 2^(d+1), the class is the quarter of [2^d, 2^(d+1)) that bytes - 1 falls in.
int ScratchPool::ClassOf(size_t bytes) {
  if (bytes <= 256) return bytes == 0 ? 0 : static_cast<int>((bytes - 1) / kSmallestClassBytes);
  const uint64_t last = static_cast<uint64_t>(bytes) - 1;
  const int d = 63 - __builtin_clzll(last);  // >= 8
  const int quarter = static_cast<int>((last >> (d - 2)) & 3);
  const int c = 4 + (d - 8) * 4 + quarter;
  return c < kNumClasses ? c : kNumClasses;
}

size_t ScratchPool::ClassBytes(size_t bytes) { return SizeOfClass(ClassOf(bytes)); }

ScratchPool::~ScratchPool() {
  Trim();
  std::free(held_table_);
}

void* ScratchPool::Acquire(size_t bytes) {
  if (bytes > kMaxBlockBytes) return nullptr;
  const int c = ClassOf(bytes);
  if (c >= kNumClasses) return nullptr;
  const size_t class_bytes = SizeOfClass(c);
  BlockHeader* block = free_lists_[c];
  if (block != nullptr) {
    free_lists_[c] = block->next_free;
  } else {
    if (held_bytes_ + class_bytes > max_held_bytes_) DropCached(class_bytes);
    if (held_bytes_ + class_bytes > max_held_bytes_) return nullptr;
    // malloc only guarantees 8-byte alignment on wasm32; the bitset wants kAlignment.
    void* raw = std::aligned_alloc(kAlignment, sizeof(BlockHeader) + class_bytes);
    if (raw == nullptr) return nullptr;
    if (!RememberHeld(reinterpret_cast<uintptr_t>(raw))) {
      std::free(raw);
      return nullptr;
    }
    ++system_allocations_;
    held_bytes_ += class_bytes;
    block = static_cast<BlockHeader*>(raw);
    block->size_class = static_cast<uint32_t>(c);
  }
  block->magic = kLiveMagic;
  block->next_free = nullptr;
  in_use_bytes_ += class_bytes;
  return block + 1;
}

Status ScratchPool::Release(void* p) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  if (address < sizeof(BlockHeader) || address % kAlignment != 0) return Status::kInvalidArgument;
  // Only a block the pool still holds is read; a cached one (already released) has kFreeMagic.
  if (!IsHeld(address - sizeof(BlockHeader))) return Status::kInvalidArgument;
  BlockHeader* block = static_cast<BlockHeader*>(p) - 1;
  if (block->magic != kLiveMagic || block->size_class >= kNumClasses) return Status::kInvalidArgument;
  const size_t class_bytes = SizeOfClass(static_cast<int>(block->size_class));
  in_use_bytes_ -= class_bytes;
  if (held_bytes_ > max_held_bytes_) {
    // The budget was lowered while this block was out: give it back instead of caching it.
    FreeBlock(block);
    return Status::kOk;
  }
  block->magic = kFreeMagic;
  block->next_free = free_lists_[block->size_class];
  free_lists_[block->size_class] = block;
  return Status::kOk;
}

void ScratchPool::DropCached(size_t needed) {
  // Largest classes first: one big cached bitset frees more room than many small scratch blocks.
  for (int c = kNumClasses - 1; c >= 0 && held_bytes_ + needed > max_held_bytes_; --c) {
    while (free_lists_[c] != nullptr && held_bytes_ + needed > max_held_bytes_) {
      BlockHeader* block = free_lists_[c];
      free_lists_[c] = block->next_free;
      FreeBlock(block);
    }
  }
}

void ScratchPool::Trim() {
  for (int c = 0; c < kNumClasses; ++c) {
    while (free_lists_[c] != nullptr) {
      BlockHeader* block = free_lists_[c];
      free_lists_[c] = block->next_free;
      FreeBlock(block);
    }
  }
}

void ScratchPool::set_max_held_bytes(size_t bytes) {
  max_held_bytes_ = bytes;
  if (held_bytes_ > max_held_bytes_) DropCached(0);
}

}  // namespace pb
