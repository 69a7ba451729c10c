// The plain-JS SBBF check the xxhash-wasm peer pairs with h64Raw: what a JS reader writes by hand
// (BloomFilter.md), with the 64-bit hash split through a typed array instead of BigInt arithmetic.
const SALT = new Uint32Array([0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31])
const split = new BigUint64Array(1)
const halves = new Uint32Array(split.buffer)
const TWO_32 = 4294967296

/**
 * false when the hash is definitely absent from the bitset's words. Exact while numBlocks ≤ 2^21
 * (hi · numBlocks < 2^53), which covers the 1 MiB filters benchmarked here.
 * @param {Uint32Array} words
 * @param {bigint} hash unsigned 64-bit
 */
export function plainSbbfContains(words, hash) {
  split[0] = hash
  const lo = halves[0]
  const numBlocks = words.length >>> 3
  const base = Math.floor((halves[1] * numBlocks) / TWO_32) << 3
  for (let i = 0; i < 8; i++) {
    if ((words[base + i] & (1 << (Math.imul(lo, SALT[i]) >>> 27))) === 0) return false
  }
  return true
}
