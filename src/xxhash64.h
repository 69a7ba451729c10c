// XXH64 with seed 0, the hash the Parquet spec prescribes for bloom filters (BloomFilter.md, "Hash Function").
// Uses the system xxHash header-only (XXH_INLINE_ALL) so fixed-size calls are specialised by the compiler.
#pragma once

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

namespace pb {

inline uint64_t Xxh64(const void* data, size_t length) {
  return static_cast<uint64_t>(XXH64(data, length, 0));
}

}  // namespace pb
