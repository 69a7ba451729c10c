// Health of a loaded SBBF bitset for inspection tools: how full it is, how many distinct values it
// probably holds (from per-word fill), and the false-positive probability that fill implies.
#pragma once

#include <cstdint>

namespace pb {

struct BitsetHealth {
  double bits_set = 0;
  double fill_ratio = 0;       // bits set / bits
  double estimated_ndv = 0;    // inserts implied by each block's word fill, summed over blocks
  double estimated_fpp = 0;    // chance a value never inserted passes: mean over blocks of prod_w fill(w)
  double saturated_words = 0;  // words with all 32 bits set: no information left in them
  double empty_blocks = 0;
  double all_blocks_identical = 0;  // 1 when every block equals the first (and there are several)
};
static_assert(sizeof(BitsetHealth) == 7 * 8, "JS reads BitsetHealth as 7 float64 words");

void AnalyzeBitset(const uint32_t* words, uint32_t num_bytes, BitsetHealth* out);

}  // namespace pb
