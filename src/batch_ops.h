// Batched insert/check of a ValueBatch against a Split Block Bloom Filter. Values are hashed a chunk at a
// time into scratch leased from the pool for the call and returned after it: a warm call allocates
// nothing, and between calls the pool holds in use only what callers own.
#pragma once

#include <cstdint>

#include "hasher.h"
#include "sbbf.h"
#include "scratch_pool.h"
#include "status.h"

namespace pb {

constexpr uint8_t kCheckAbsent = 0;
constexpr uint8_t kCheckMaybe = 1;
constexpr uint8_t kCheckNull = 2;  // the slot is null: a bloom filter says nothing about nulls

class BatchOps {
 public:
  static constexpr uint32_t kChunkSlots = 1024;
  // The scratch a call leases: kChunkSlots hashes, then kChunkSlots answers.
  static constexpr size_t kChunkScratchBytes = (sizeof(uint64_t) + 1) * kChunkSlots;

  explicit BatchOps(ScratchPool* pool) : pool_(pool) {}
  BatchOps(const BatchOps&) = delete;
  BatchOps& operator=(const BatchOps&) = delete;

  // Inserts every valid slot.
  Status Insert(SbbfView filter, const ValueBatch& batch);
  // out[slot] = kCheckMaybe, kCheckAbsent or kCheckNull; out holds batch.count bytes.
  Status Check(SbbfView filter, const ValueBatch& batch, uint8_t* out);
  // Hashes of the valid slots, compacted; out holds batch.count hashes.
  Status Hash(const ValueBatch& batch, uint64_t* out, uint32_t* written);

 private:
  // Validates, leases the chunk scratch, then hashes the valid slots a chunk at a time:
  // on_chunk(begin, end, hashes, n, results), where results has room for kChunkSlots answers.
  template <typename OnChunk>
  Status ForEachChunk(const ValueBatch& batch, OnChunk&& on_chunk);

  ScratchPool* pool_;
};

// Checks hashes[i] against blocks + 32·i: one gathered block per hash, as a reader that fetched only
// the blocks BlockIndex chose holds them.
void CheckGatheredBlocks(const uint64_t* hashes, const uint32_t* blocks, uint32_t n, uint8_t* out);

// out[i] = SbbfView::BlockIndex(hashes[i], num_blocks).
void BlockIndices(const uint64_t* hashes, uint32_t n, uint32_t num_blocks, uint32_t* out);

}  // namespace pb
