// Chunked batch insert/check over pooled scratch (see batch_ops.h).
#include "batch_ops.h"

#include <algorithm>

#include "bitmap.h"

namespace pb {

BatchOps::~BatchOps() {
  if (hashes_ != nullptr) pool_->Release(hashes_);
  if (results_ != nullptr) pool_->Release(results_);
}

Status BatchOps::EnsureScratch() {
  if (hashes_ == nullptr) {
    hashes_ = static_cast<uint64_t*>(pool_->Acquire(sizeof(uint64_t) * kChunkSlots));
    if (hashes_ == nullptr) return Status::kLimitExceeded;
  }
  if (results_ == nullptr) {
    results_ = static_cast<uint8_t*>(pool_->Acquire(kChunkSlots));
    if (results_ == nullptr) return Status::kLimitExceeded;
  }
  return Status::kOk;
}

template <typename OnChunk>
Status BatchOps::ForEachChunk(const ValueBatch& batch, OnChunk&& on_chunk) {
  Status s = ValidateBatch(batch);
  if (!ok(s)) return s;
  if (!ok(s = EnsureScratch())) return s;
  for (uint32_t begin = 0, end = 0; begin < batch.count; begin = end) {
    end = begin + std::min(kChunkSlots, batch.count - begin);  // no overflow near UINT32_MAX
    on_chunk(begin, end, HashSlots(batch, begin, end, hashes_));
  }
  return Status::kOk;
}

Status BatchOps::Insert(SbbfView filter, const ValueBatch& batch) {
  return ForEachChunk(batch, [&](uint32_t, uint32_t, size_t n) { filter.InsertHashes(hashes_, n); });
}

Status BatchOps::Check(SbbfView filter, const ValueBatch& batch, uint8_t* out) {
  return ForEachChunk(batch, [&](uint32_t begin, uint32_t end, size_t n) {
    if (batch.validity == nullptr) {
      filter.CheckHashes(hashes_, n, out + begin);
      return;
    }
    // Spaced: check the compacted hashes, then spread the answers back over the slots.
    filter.CheckHashes(hashes_, n, results_);
    size_t next = 0;
    for (uint32_t slot = begin; slot < end; ++slot) {
      out[slot] = GetBit(batch.validity, batch.validity_bit_offset + slot) ? results_[next++] : kCheckNull;
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
