// Bitset health estimates (see sbbf_health.h). An insert sets one bit in each of a block's 8 words, so a
// word with b of 32 bits set after k inserts has E[b] = 32·(1 − (31/32)^k); inverting gives k.
#include "sbbf_health.h"

#include <cmath>
#include <cstring>

#include "sbbf.h"

namespace pb {

namespace {

int PopCount(uint32_t w) { return __builtin_popcount(w); }

// Inserts implied by a word's fill; a full word only says "many", so it counts as 31.5 bits set.
double InsertsForBits(int bits) {
  const double b = bits >= 32 ? 31.5 : static_cast<double>(bits);
  return std::log(1.0 - b / 32.0) / std::log(31.0 / 32.0);
}

}  // namespace

void AnalyzeBitset(const uint32_t* words, uint32_t num_bytes, BitsetHealth* out) {
  *out = BitsetHealth{};
  const uint32_t num_blocks = num_bytes / kBytesPerBlock;
  if (num_blocks == 0) return;
  double inserts_table[33];
  for (int b = 0; b <= 32; ++b) inserts_table[b] = InsertsForBits(b);

  bool identical = num_blocks > 1;
  double fpp_sum = 0;
  for (uint32_t block = 0; block < num_blocks; ++block) {
    const uint32_t* w = words + static_cast<size_t>(block) * kWordsPerBlock;
    double pass = 1.0, inserts = 0;
    int block_bits = 0;
    for (uint32_t i = 0; i < kWordsPerBlock; ++i) {
      const int bits = PopCount(w[i]);
      block_bits += bits;
      pass *= bits / 32.0;
      inserts += inserts_table[bits];
      if (bits == 32) out->saturated_words += 1;
    }
    out->bits_set += block_bits;
    out->estimated_ndv += inserts / kWordsPerBlock;
    fpp_sum += pass;
    if (block_bits == 0) out->empty_blocks += 1;
    if (identical && block > 0 && std::memcmp(w, words, kBytesPerBlock) != 0) identical = false;
  }
  out->fill_ratio = out->bits_set / (static_cast<double>(num_bytes) * 8.0);
  out->estimated_fpp = fpp_sum / num_blocks;
  out->all_blocks_identical = identical ? 1 : 0;
}

}  // namespace pb
