// Split Block Bloom Filter insert/check and sizing (BloomFilter.md, "Technical Approach" and "Sizing").
#include "sbbf.h"

#include <cmath>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace pb {

namespace {

constexpr uint32_t kSalt[kWordsPerBlock] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                            0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

#if defined(__wasm_simd128__)
// wasm SIMD has no per-lane variable shift, so 1 << s is built as the float 2^s (exponent s + 127)
// converted back to an integer: exact for s in [0, 31]. Two vectors cover the block's 8 words.
inline void BlockMasks(uint32_t key, v128_t* lo, v128_t* hi) {
  const v128_t k = wasm_i32x4_splat(static_cast<int32_t>(key));
  const v128_t salt_lo = wasm_u32x4_make(kSalt[0], kSalt[1], kSalt[2], kSalt[3]);
  const v128_t salt_hi = wasm_u32x4_make(kSalt[4], kSalt[5], kSalt[6], kSalt[7]);
  const v128_t bias = wasm_i32x4_splat(127);
  *lo = wasm_u32x4_trunc_sat_f32x4(wasm_i32x4_shl(wasm_i32x4_add(wasm_u32x4_shr(wasm_i32x4_mul(k, salt_lo), 27), bias), 23));
  *hi = wasm_u32x4_trunc_sat_f32x4(wasm_i32x4_shl(wasm_i32x4_add(wasm_u32x4_shr(wasm_i32x4_mul(k, salt_hi), 27), bias), 23));
}

inline void BlockInsert(uint32_t* block, uint32_t key) {
  v128_t lo, hi;
  BlockMasks(key, &lo, &hi);
  wasm_v128_store(block, wasm_v128_or(wasm_v128_load(block), lo));
  wasm_v128_store(block + 4, wasm_v128_or(wasm_v128_load(block + 4), hi));
}

inline bool BlockCheckKey(const uint32_t* block, uint32_t key) {
  v128_t lo, hi;
  BlockMasks(key, &lo, &hi);
  const v128_t missing = wasm_v128_or(wasm_v128_andnot(lo, wasm_v128_load(block)), wasm_v128_andnot(hi, wasm_v128_load(block + 4)));
  return !wasm_v128_any_true(missing);
}
#else
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
#endif

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
