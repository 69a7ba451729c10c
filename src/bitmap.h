// Arrow-style LSB-first bitmaps: bit access and a visitor over runs of set bits, so spaced (nullable)
// batches skip nulls a run at a time instead of testing every slot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pb {

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

// Calls visit(start, length) for each maximal run of set bits in bits[offset, offset + length),
// with start relative to offset.
template <typename Visit>
void VisitSetBitRuns(const uint8_t* bits, int64_t offset, int64_t length, Visit&& visit) {
  int64_t run_start = -1;
  int64_t i = 0;
  while (i < length) {
    const int64_t bit = offset + i;
    // Whole bytes that are all-set or all-clear extend or skip a run in one step.
    if ((bit & 7) == 0 && length - i >= 8) {
      const uint8_t byte = bits[bit >> 3];
      if (byte == 0xff) {
        if (run_start < 0) run_start = i;
        i += 8;
        continue;
      }
      if (byte == 0x00) {
        if (run_start >= 0) {
          visit(run_start, i - run_start);
          run_start = -1;
        }
        i += 8;
        continue;
      }
    }
    if (GetBit(bits, bit)) {
      if (run_start < 0) run_start = i;
    } else if (run_start >= 0) {
      visit(run_start, i - run_start);
      run_start = -1;
    }
    ++i;
  }
  if (run_start >= 0) visit(run_start, length - run_start);
}

}  // namespace pb
