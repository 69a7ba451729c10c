// Health of a loaded SBBF bitset for inspection tools: how full it is, how many distinct values it
// probably holds (from per-word fill), and the false-positive probability that fill implies.
#pragma once

#include <cstdint>

#include "abi.h"

namespace pb {

// Declared through the ABI (src/abi.h): js/filter/bloom-filter.js reads it whole.
#define PB_BITSET_HEALTH_FIELDS(X)                                                                          \
  X(double, bits_set, 0)                                                                                    \
  X(double, fill_ratio, 0)           /* bits set / bits */                                                  \
  X(double, estimated_ndv, 0)        /* inserts implied by each block's word fill, summed over blocks */    \
  X(double, estimated_fpp, 0)        /* chance a never-inserted value passes: mean over blocks of prod_w fill(w) */ \
  X(double, saturated_words, 0)      /* words with all 32 bits set: no information left in them */          \
  X(double, empty_blocks, 0)                                                                                \
  X(double, all_blocks_identical, 0) /* 1 when every block equals the first (and there are several) */
struct BitsetHealth {
  PB_BITSET_HEALTH_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(BitsetHealth, PB_BITSET_HEALTH_FIELDS)

void AnalyzeBitset(const uint32_t* words, uint32_t num_bytes, BitsetHealth* out);

}  // namespace pb
