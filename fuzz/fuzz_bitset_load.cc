// Fuzzes the path a bloom filter takes from file bytes to answers: header decode, bitset copied into a
// pool block, then probes. Input: header, bitset (num_bytes from the header), then probe values as
// [length byte, bytes]... Invariants: the per-block ("block" mode, only the chosen 32-byte blocks
// fetched) answers equal the whole-filter answers, and after inserting a value it is never "absent".
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "batch_ops.h"
#include "bloom_header.h"
#include "fuzz_input.h"
#include "hasher.h"
#include "sbbf.h"
#include "sbbf_health.h"
#include "scratch_pool.h"

using namespace pb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  BloomHeader header;
  if (!ok(DecodeBloomHeader(data, size, &header))) return 0;
  const size_t num_bytes = static_cast<size_t>(header.num_bytes);
  if (size - header.header_length < num_bytes) return 0;  // a short read: JS refuses it as truncated
  const uint8_t* bitset = data + header.header_length;

  ScratchPool pool(size_t{256} << 20);
  auto* words = static_cast<uint32_t*>(pool.Acquire(num_bytes));
  FUZZ_CHECK(words != nullptr);
  std::memcpy(words, bitset, num_bytes);
  SbbfView view(words, static_cast<uint32_t>(num_bytes));
  FUZZ_CHECK(view.num_blocks() * kBytesPerBlock == num_bytes);

  fuzz::Input probes(bitset + num_bytes, size - header.header_length - num_bytes);
  std::vector<uint64_t> hashes;
  while (!probes.empty() && hashes.size() < 512) {
    size_t length;
    const uint8_t* value = probes.Bytes(probes.U8() % 48, &length);
    hashes.push_back(HashBytes(value, length));
  }
  const uint32_t n = static_cast<uint32_t>(hashes.size());

  std::vector<uint8_t> whole(n), gathered(n);
  view.CheckHashes(hashes.data(), n, whole.data());
  std::vector<uint32_t> indices(n);
  BlockIndices(hashes.data(), n, view.num_blocks(), indices.data());
  std::vector<uint32_t> blocks(static_cast<size_t>(n) * kWordsPerBlock);
  for (uint32_t i = 0; i < n; ++i) {
    FUZZ_CHECK(indices[i] < view.num_blocks());
    std::memcpy(&blocks[static_cast<size_t>(i) * kWordsPerBlock], bitset + static_cast<size_t>(indices[i]) * kBytesPerBlock,
                kBytesPerBlock);
  }
  CheckGatheredBlocks(hashes.data(), blocks.data(), n, gathered.data());
  for (uint32_t i = 0; i < n; ++i) {
    FUZZ_CHECK(whole[i] <= 1);
    FUZZ_CHECK(whole[i] == gathered[i]);
    FUZZ_CHECK(whole[i] == (view.Check(hashes[i]) ? 1 : 0));
  }

  BitsetHealth before;
  AnalyzeBitset(words, static_cast<uint32_t>(num_bytes), &before);

  // Inserting only sets bits, and whatever was inserted answers "maybe" from then on.
  view.InsertHashes(hashes.data(), n);
  for (size_t w = 0; w < num_bytes / 4; ++w) {
    uint32_t old_word;
    std::memcpy(&old_word, bitset + w * 4, 4);
    FUZZ_CHECK((words[w] & old_word) == old_word);
  }
  view.CheckHashes(hashes.data(), n, whole.data());
  for (uint32_t i = 0; i < n; ++i) FUZZ_CHECK(whole[i] == 1);

  BitsetHealth after;
  AnalyzeBitset(words, static_cast<uint32_t>(num_bytes), &after);
  FUZZ_CHECK(after.bits_set >= before.bits_set);
  FUZZ_CHECK(ok(pool.Release(words)));
  FUZZ_CHECK(pool.in_use_bytes() == 0);
  return 0;
}
