// Bit-sliced split block bloom filters (docs/sidecar-index.md "Bit slices"): M bitsets of one size stored
// as one row of ceil(M / 8) bytes per bit position, so the 8 bits a value's hash selects — the same
// positions in every bitset of that size (BloomFilter.md: block ((hash >> 32) × numBlocks) >> 32, in each
// of its 8 words the bit the salted low 32 bits choose) — are 8 rows, and one value over M filters costs M
// bytes instead of M × 32. Bit position p of a bitset is byte p >> 3, bit p & 7: the little-endian words
// make block b, word w, bit i position b × 256 + w × 32 + i.
import { BYTES_PER_BLOCK, SALTS } from '../wasm/sbbf.js'

const SALT = Uint32Array.from(SALTS)
const BLOCK_BITS = 256

/**
 * Bytes of one bit row of a region of `count` filters.
 * @param {number} count
 */
export function sliceRowBytes(count) {
  return (count + 7) >>> 3
}

/**
 * The region of `bitsets` (all `numBytes` long), bit-sliced: numBytes × 8 rows, row p holding bit p of
 * bitset k at byte k >> 3, bit k & 7.
 * @param {Uint8Array[]} bitsets
 * @param {number} numBytes
 */
export function sliceBitsets(bitsets, numBytes) {
  const rowBytes = sliceRowBytes(bitsets.length)
  const out = new Uint8Array(numBytes * 8 * rowBytes)
  for (let k = 0; k < bitsets.length; k++) {
    const bits = bitsets[k]
    if (bits.length !== numBytes) throw new RangeError(`bitset ${k} has ${bits.length} bytes, the region ${numBytes}`)
    const column = k >>> 3
    const mask = 1 << (k & 7)
    for (let j = 0; j < numBytes; j++) {
      let v = bits[j]
      // Only set bits are visited: a filter at its designed load has fewer than half of them set.
      while (v) {
        const low = v & -v
        out[((j << 3) + 31 - Math.clz32(low)) * rowBytes + column] |= mask
        v ^= low
      }
    }
  }
  return out
}

/**
 * Bitset k back from a bit-sliced region (the whole region's bytes).
 * @param {Uint8Array} regionBytes
 * @param {{ count: number, numBytes: number }} region
 * @param {number} k
 */
export function unsliceBitset(regionBytes, region, k) {
  const rowBytes = sliceRowBytes(region.count)
  const out = new Uint8Array(region.numBytes)
  const column = k >>> 3
  const shift = k & 7
  for (let p = 0; p < region.numBytes * 8; p++) {
    if ((regionBytes[p * rowBytes + column] >> shift) & 1) out[p >>> 3] |= 1 << (p & 7)
  }
  return out
}

/**
 * A bitset of `numBytes` made `toBytes` long (a power-of-two multiple) without changing any answer: the
 * block a hash selects among N blocks is b = ⌊h·N / 2³²⌋, among f·N blocks ⌊h·f·N / 2³²⌋, whose ⌊· / f⌋
 * is b — so new block b' is old block ⌊b' / f⌋, and every check reads the same bits. A file's chunks of
 * one column then share one size and lie in consecutive slots of one region.
 * @param {Uint8Array} bitset
 * @param {number} toBytes
 */
export function widenBitset(bitset, toBytes) {
  if (bitset.length === toBytes) return bitset
  const factor = toBytes / bitset.length
  const out = new Uint8Array(toBytes)
  for (let b = 0; b < toBytes / BYTES_PER_BLOCK; b++) {
    const from = Math.floor(b / factor) * BYTES_PER_BLOCK
    out.set(bitset.subarray(from, from + BYTES_PER_BLOCK), b * BYTES_PER_BLOCK)
  }
  return out
}

/**
 * The 8 bit positions (rows) one hash selects in filters of `numBlocks` blocks.
 * @param {number} block ((hash >> 32) × numBlocks) >> 32
 * @param {number} low32 the hash's low 32 bits
 * @returns {number[]}
 */
export function hashRows(block, low32) {
  const rows = new Array(8)
  for (let w = 0; w < 8; w++) rows[w] = block * BLOCK_BITS + w * 32 + (Math.imul(low32, SALT[w]) >>> 27)
  return rows
}

/**
 * ((hash >> 32) × numBlocks) >> 32 exactly, with the high 32 bits given as a number (the product can
 * pass 2⁵³, so it is taken in two halves).
 * @param {number} high32
 * @param {number} numBlocks
 */
export function blockIndexOf(high32, numBlocks) {
  const a = (high32 >>> 16) * numBlocks
  const b = (high32 & 0xffff) * numBlocks
  const q = Math.floor(a / 65536)
  const r = a - q * 65536
  return q + Math.floor((r * 65536 + b) / 4294967296)
}

/**
 * The filters of a region that may hold the value: the AND of its 8 rows (bit k set: filter k may).
 * @param {Uint8Array[]} rows the 8 rows' bytes
 */
export function andRows(rows) {
  const out = Uint8Array.from(rows[0])
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]
    for (let j = 0; j < out.length; j++) out[j] &= row[j]
  }
  return out
}
