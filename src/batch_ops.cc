// Chunked batch insert/check over pooled scratch (see batch_ops.h).
#include "batch_ops.h"

#include <algorithm>

#include "bitmap.h"

namespace pb {

namespace {

// A pool block held for one call: returned however the call ends. A released block goes to the pool's
// free list, so the next call's lease pops it again without a system allocation.
class Lease {
 public:
  Lease(ScratchPool* pool, size_t bytes) : pool_(pool), block_(pool->Acquire(bytes)) {}
  ~Lease() {
    if (block_ != nullptr) pool_->Release(block_);
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  void* get() const { return block_; }

 private:
  ScratchPool* pool_;
  void* block_;
};

}  // namespace

template <typename OnChunk>
Status BatchOps::ForEachChunk(const ValueBatch& batch, OnChunk&& on_chunk) {
  Status s = ValidateBatch(batch);
  if (!ok(s)) return s;
  // One block for the chunk's hashes and its spaced answers: one lease per call.
  const Lease scratch(pool_, kChunkScratchBytes);
  if (scratch.get() == nullptr) return Status::kLimitExceeded;
  auto* chunk_hashes = static_cast<uint64_t*>(scratch.get());
  auto* chunk_results = reinterpret_cast<uint8_t*>(chunk_hashes + kChunkSlots);
  for (uint32_t begin = 0, end = 0; begin < batch.count; begin = end) {
    end = begin + std::min(kChunkSlots, batch.count - begin);  // no overflow near UINT32_MAX
    on_chunk(begin, end, chunk_hashes, HashSlots(batch, begin, end, chunk_hashes), chunk_results);
  }
  return Status::kOk;
}

Status BatchOps::Insert(SbbfView filter, const ValueBatch& batch) {
  return ForEachChunk(batch, [&](uint32_t, uint32_t, const uint64_t* hashes, size_t n, uint8_t*) {
    filter.InsertHashes(hashes, n);
  });
}

Status BatchOps::Check(SbbfView filter, const ValueBatch& batch, uint8_t* out) {
  return ForEachChunk(batch, [&](uint32_t begin, uint32_t end, const uint64_t* hashes, size_t n, uint8_t* results) {
    if (batch.validity == nullptr) {
      filter.CheckHashes(hashes, n, out + begin);
      return;
    }
    // Spaced: check the compacted hashes, then spread the answers back over the slots.
    filter.CheckHashes(hashes, n, results);
    size_t next = 0;
    for (uint32_t slot = begin; slot < end; ++slot) {
      out[slot] = GetBit(batch.validity, batch.validity_bit_offset + slot) ? results[next++] : kCheckNull;
    }
  });
}

Status BatchOps::Hash(const ValueBatch& batch, uint64_t* out, uint32_t* written) {
  *written = 0;
  Status s = ValidateBatch(batch);
  if (!ok(s)) return s;
  *written = static_cast<uint32_t>(HashSlots(batch, 0, batch.count, out));
  return Status::kOk;
}

void CheckGatheredBlocks(const uint64_t* hashes, const uint32_t* blocks, uint32_t n, uint8_t* out) {
  for (uint32_t i = 0; i < n; ++i) {
    out[i] = BlockCheck(blocks + static_cast<size_t>(i) * kWordsPerBlock, hashes[i]) ? kCheckMaybe : kCheckAbsent;
  }
}

void BlockIndices(const uint64_t* hashes, uint32_t n, uint32_t num_blocks, uint32_t* out) {
  for (uint32_t i = 0; i < n; ++i) out[i] = SbbfView::BlockIndex(hashes[i], num_blocks);
}

}  // namespace pb
