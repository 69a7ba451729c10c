// Split Block Bloom Filter operations over a caller-owned bitset (BloomFilter.md, "Technical Approach"):
// blocks of 8 little-endian uint32 words, one bit per word chosen by the salted low 32 hash bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "status.h"

namespace pb {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the bitset is read in place as little-endian words");

// The SBBF's sizes, declared once through the ABI (src/abi.h) so JS (js/wasm/sbbf.js) is checked against them.
#define PB_SBBF_LIMIT_VALUES(X)                                                        \
  X(kBytesPerBlock, 32)                                                                \
  X(kWordsPerBlock, 8)                                                                 \
  X(kMinNumBytes, 32)                                                                  \
  X(kMaxNumBytes, 128 * 1024 * 1024) /* the ceiling arrow, parquet-java and arrow-rs use */
enum class SbbfLimit : int32_t { PB_SBBF_LIMIT_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(SbbfLimit, PB_SBBF_LIMIT_VALUES)

constexpr uint32_t kBytesPerBlock = static_cast<uint32_t>(SbbfLimit::kBytesPerBlock);
constexpr uint32_t kWordsPerBlock = static_cast<uint32_t>(SbbfLimit::kWordsPerBlock);
constexpr uint32_t kMinNumBytes = static_cast<uint32_t>(SbbfLimit::kMinNumBytes);
constexpr uint32_t kMaxNumBytes = static_cast<uint32_t>(SbbfLimit::kMaxNumBytes);

inline bool IsValidNumBytes(int64_t num_bytes) {
  return num_bytes >= kMinNumBytes && num_bytes <= kMaxNumBytes && num_bytes % kBytesPerBlock == 0;
}

// arrow-rs optimal_num_of_bytes: clamp to [32 B, 128 MiB], then round up to a power of two.
uint32_t ClampNumBytes(uint64_t requested);

// Bits needed for ndv distinct values at false-positive probability fpp, as arrow C++/arrow-go/arrow-rs
// compute it (m = -8·ndv / ln(1 - fpp^(1/8))), clamped and rounded up to a power of two.
Status OptimalNumBytes(uint64_t ndv, double fpp, uint32_t* num_bytes);

// A non-owning view of a bitset. words must hold num_bytes / 4 words, 4-byte aligned.
class SbbfView {
 public:
  SbbfView(uint32_t* words, uint32_t num_bytes) : words_(words), num_blocks_(num_bytes / kBytesPerBlock) {}

  uint32_t num_blocks() const { return num_blocks_; }
  uint32_t* words() const { return words_; }

  static uint32_t BlockIndex(uint64_t hash, uint32_t num_blocks) {
    return static_cast<uint32_t>(((hash >> 32) * num_blocks) >> 32);
  }
  uint32_t BlockIndex(uint64_t hash) const { return BlockIndex(hash, num_blocks_); }

  void Insert(uint64_t hash);
  bool Check(uint64_t hash) const;

  void InsertHashes(const uint64_t* hashes, size_t n);
  // out[i] = 1 if hashes[i] may be present, 0 if it is definitely absent.
  void CheckHashes(const uint64_t* hashes, size_t n, uint8_t* out) const;

 private:
  uint32_t* words_;
  uint32_t num_blocks_;
};

// Checks a hash against one isolated 32-byte block (the block BlockIndex chose): what a reader that
// fetched only that block needs.
bool BlockCheck(const uint32_t* block, uint64_t hash);

}  // namespace pb
