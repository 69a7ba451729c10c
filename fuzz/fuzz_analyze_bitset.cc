// Fuzzes AnalyzeBitset with arbitrary bitsets: every count it reports is recomputed here directly, and
// the estimates must stay finite and inside their ranges (a NaN would reach the JS health() report).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <cstring>
#include <vector>

#include "fuzz_input.h"
#include "sbbf.h"
#include "sbbf_health.h"

using namespace pb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint32_t num_bytes = static_cast<uint32_t>(size / kBytesPerBlock * kBytesPerBlock);
  std::vector<uint32_t> words(num_bytes / 4);
  if (num_bytes != 0) std::memcpy(words.data(), data, num_bytes);
  BitsetHealth health;
  AnalyzeBitset(words.data(), num_bytes, &health);

  const uint32_t num_blocks = num_bytes / kBytesPerBlock;
  double bits = 0, saturated = 0, empty = 0;
  bool identical = num_blocks > 1;
  for (uint32_t b = 0; b < num_blocks; ++b) {
    int block_bits = 0;
    for (uint32_t w = 0; w < kWordsPerBlock; ++w) {
      const uint32_t word = words[b * kWordsPerBlock + w];
      block_bits += __builtin_popcount(word);
      saturated += word == 0xffffffffu ? 1 : 0;
      if (word != words[w]) identical = false;
    }
    bits += block_bits;
    empty += block_bits == 0 ? 1 : 0;
  }
  FUZZ_CHECK(health.bits_set == bits);
  FUZZ_CHECK(health.saturated_words == saturated);
  FUZZ_CHECK(health.empty_blocks == empty);
  FUZZ_CHECK(health.all_blocks_identical == (identical ? 1 : 0));
  for (double v : {health.fill_ratio, health.estimated_ndv, health.estimated_fpp}) FUZZ_CHECK(std::isfinite(v) && v >= 0);
  FUZZ_CHECK(health.fill_ratio <= 1 && health.estimated_fpp <= 1);
  if (num_blocks == 0) {
    FUZZ_CHECK(health.fill_ratio == 0 && health.estimated_ndv == 0 && health.estimated_fpp == 0);
  } else {
    FUZZ_CHECK(health.fill_ratio == bits / (num_bytes * 8.0));
    // An empty filter holds nothing and passes nothing; a full one passes everything.
    if (bits == 0) FUZZ_CHECK(health.estimated_ndv == 0 && health.estimated_fpp == 0);
    if (saturated == num_blocks * kWordsPerBlock) FUZZ_CHECK(health.estimated_fpp == 1);
  }
  return 0;
}
