// Split Block Bloom Filter insert/check and sizing (BloomFilter.md, "Technical Approach" and "Sizing").
#include "sbbf.h"

#include <cmath>

namespace pb {

namespace {

constexpr uint32_t kSalt[kWordsPerBlock] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                            0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

inline uint32_t MaskBit(uint32_t key, int i) { return 1u << ((key * kSalt[i]) >> 27); }

inline void BlockInsert(uint32_t* block, uint32_t key) {
  for (int i = 0; i < 8; ++i) block[i] |= MaskBit(key, i);
}

inline bool BlockCheckKey(const uint32_t* block, uint32_t key) {
  // Accumulate instead of returning early: branch-free, and the compiler vectorises it.
  uint32_t missing = 0;
  for (int i = 0; i < 8; ++i) {
    uint32_t bit = MaskBit(key, i);
    missing |= (block[i] & bit) ^ bit;
  }
  return missing == 0;
}

uint32_t NextPowerOfTwo(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return static_cast<uint32_t>(p);
}

}  // namespace

uint32_t ClampNumBytes(uint64_t requested) {
  if (requested < kMinNumBytes) requested = kMinNumBytes;
  if (requested > kMaxNumBytes) requested = kMaxNumBytes;
  return NextPowerOfTwo(requested);
}

Status OptimalNumBytes(uint64_t ndv, double fpp, uint32_t* num_bytes) {
  if (!(fpp > 0.0 && fpp < 1.0)) return Status::kInvalidArgument;
  const double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double max_bits = static_cast<double>(kMaxNumBytes) * 8.0;
  uint64_t num_bits = !(bits >= 0.0) || bits > max_bits ? static_cast<uint64_t>(max_bits) : static_cast<uint64_t>(bits);
  *num_bytes = ClampNumBytes((num_bits + 7) / 8);
  return Status::kOk;
}

void SbbfView::Insert(uint64_t hash) {
  BlockInsert(words_ + static_cast<size_t>(BlockIndex(hash)) * kWordsPerBlock, static_cast<uint32_t>(hash));
}

bool SbbfView::Check(uint64_t hash) const {
  return BlockCheckKey(words_ + static_cast<size_t>(BlockIndex(hash)) * kWordsPerBlock, static_cast<uint32_t>(hash));
}

void SbbfView::InsertHashes(const uint64_t* hashes, size_t n) {
  for (size_t i = 0; i < n; ++i) Insert(hashes[i]);
}

void SbbfView::CheckHashes(const uint64_t* hashes, size_t n, uint8_t* out) const {
  for (size_t i = 0; i < n; ++i) out[i] = Check(hashes[i]) ? 1 : 0;
}

bool BlockCheck(const uint32_t* block, uint64_t hash) { return BlockCheckKey(block, static_cast<uint32_t>(hash)); }

}  // namespace pb
