// An independent reference for what our wasm core must produce: hyparquet's pure-JS XXH64 and SBBF
// (a different implementation, by other authors) over plain-encoded bytes built here by hand.
import { xxhash64 } from 'hyparquet/src/xxhash.js'
import { sbbfContains, sbbfInsert } from 'hyparquet/src/bloom.js'

const utf8 = new TextEncoder()

/** PLAIN encoding of one value (BloomFilter.md: BYTE_ARRAY without its length prefix). */
export function plainBytes(value, type) {
  const dv = (n) => new DataView(new ArrayBuffer(n))
  switch (type) {
    case 'BOOLEAN': return new Uint8Array([value ? 1 : 0])
    case 'INT32': { const d = dv(4); d.setInt32(0, Number(value) | 0, true); return new Uint8Array(d.buffer) }
    case 'INT64': { const d = dv(8); d.setBigInt64(0, BigInt.asIntN(64, BigInt(value)), true); return new Uint8Array(d.buffer) }
    case 'FLOAT': { const d = dv(4); d.setFloat32(0, value, true); return new Uint8Array(d.buffer) }
    case 'DOUBLE': { const d = dv(8); d.setFloat64(0, value, true); return new Uint8Array(d.buffer) }
    case 'BYTE_ARRAY': return typeof value === 'string' ? utf8.encode(value) : value
    default: return value // INT96, FIXED_LEN_BYTE_ARRAY: raw bytes
  }
}

export function referenceHash(value, type) {
  return xxhash64(plainBytes(value, type))
}

/** A reference filter: { words, insert(value), contains(value), bytes() } */
export function referenceFilter(numBytes, type) {
  const words = new Uint32Array(numBytes / 4)
  return {
    words,
    insert(value) { sbbfInsert(words, referenceHash(value, type)) },
    contains(value) { return sbbfContains(words, referenceHash(value, type)) },
    bytes() { return new Uint8Array(words.buffer) },
  }
}

/** Seeded PRNG (mulberry32) so property tests are repeatable. */
export function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
