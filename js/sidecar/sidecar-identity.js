// Who a file is, for format 2 of the sidecar index (docs/sidecar-index.md "Identity"): XXH64 (seed 0) of
// its recorded path, size and validator, and of its path alone — computed in bulk by the wasm core — and a
// table that finds an entry by such a hash, telling a unique match from one that two entries share (a
// shared hash describes neither file: such a file is probed as if the index did not know it).
import { getCore } from '../wasm/core.js'
import { hashValues } from '../wasm/batch-writer.js'

/**
 * The text an identity hash is taken of: path, size and validator (none: empty), a line each.
 * @param {string} path
 * @param {number} size
 * @param {string | null | undefined} validator
 */
export function identityText(path, size, validator) {
  return `${path}\n${size}\n${validator ?? ''}`
}

/**
 * XXH64 of each string's UTF-8 bytes, 8 little-endian bytes each.
 * @param {string[]} strings
 * @returns {Uint8Array}
 */
export function hashStrings(strings) {
  if (!strings.length) return new Uint8Array(0)
  return hashValues(getCore(), strings, 'BYTE_ARRAY')
}

/**
 * The digest of each page of `pageFiles` identity hashes (8 bytes each, in order): XXH64 of the page's
 * bytes, 8 little-endian bytes per page.
 * @param {Uint8Array[]} pages each page's hashes
 * @returns {Uint8Array}
 */
export function pageDigests(pages) {
  if (!pages.length) return new Uint8Array(0)
  return hashValues(getCore(), pages, 'BYTE_ARRAY')
}

/**
 * The hashes of `hashStrings` as low and high 32-bit halves.
 * @param {Uint8Array} bytes
 */
export function hashHalves(bytes) {
  // Read in place where the bytes are 4-aligned (hashStrings' are): a listing's worth of hashes is not copied.
  const words = bytes.byteOffset % 4 === 0
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2)
    : new Uint32Array(bytes.slice().buffer)
  const count = words.length >>> 1
  const low = new Uint32Array(count)
  const high = new Uint32Array(count)
  for (let i = 0; i < count; i++) {
    low[i] = words[2 * i]
    high[i] = words[2 * i + 1]
  }
  return { low, high }
}

/** A unique match, or the marker of a hash two entries share. */
export const AMBIGUOUS = -2
const EMPTY = -1

/** Entries by 64-bit hash: open addressing over the low halves, the high halves compared on a hit. */
export class HashTable {
  /** @param {{ low: Uint32Array, high: Uint32Array }} hashes one per entry, in entry order */
  constructor({ low, high }) {
    this.low = low
    this.high = high
    let capacity = 16
    while (capacity < low.length * 2) capacity *= 2
    this.mask = capacity - 1
    this.slots = new Int32Array(capacity).fill(EMPTY)
    for (let i = 0; i < low.length; i++) {
      let s = low[i] & this.mask
      while (this.slots[s] !== EMPTY) s = (s + 1) & this.mask
      this.slots[s] = i
    }
  }

  /**
   * Every entry with this hash.
   * @param {number} low
   * @param {number} high
   * @returns {number[]}
   */
  findAll(low, high) {
    /** @type {number[]} */
    const found = []
    for (let s = low & this.mask; this.slots[s] !== EMPTY; s = (s + 1) & this.mask) {
      const i = this.slots[s]
      if (this.low[i] === low && this.high[i] === high) found.push(i)
    }
    return found
  }

  /**
   * The entry with this hash, AMBIGUOUS when more than one has it, or -1.
   * @param {number} low
   * @param {number} high
   */
  find(low, high) {
    let found = EMPTY
    for (let s = low & this.mask; this.slots[s] !== EMPTY; s = (s + 1) & this.mask) {
      const i = this.slots[s]
      if (this.low[i] !== low || this.high[i] !== high) continue
      if (found !== EMPTY) return AMBIGUOUS
      found = i
    }
    return found
  }
}
