// The batched-check inputs every throughput contender gets: for each case, the batch as our public
// API takes it, the half of it inserted into the filter, and the per-value loops of the two JS peers
// (hyparquet's hashParquetValue + sbbfContains; xxhash-wasm h64Raw + a plain JS SBBF check).
import * as arrow from 'apache-arrow'
import { hashParquetValue, sbbfContains } from 'hyparquet/src/bloom.js'

import { rng } from '../../testkit/reference-sbbf.js'
import { plainSbbfContains } from './plain-sbbf.js'

// The tests' seeded PRNG (mulberry32), so every run builds the same inputs.
export { rng }

const NULL_EVERY = 10 // the Arrow cases: every 10th slot is null

const ELEMENT = {
  INT64: { type: 'INT64' },
  INT32: { type: 'INT32' },
  DOUBLE: { type: 'DOUBLE' },
  BYTE_ARRAY: { type: 'BYTE_ARRAY' },
  FIXED_LEN_BYTE_ARRAY: { type: 'FIXED_LEN_BYTE_ARRAY' },
  BOOLEAN: { type: 'BOOLEAN' },
}

const every2 = (list) => list.filter((_, i) => i % 2 === 0)

function randomBytes(n, random) {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = (random() * 256) | 0
  return out
}

export function randomBigInts(n, random) {
  const words = new Uint32Array(n * 2)
  for (let i = 0; i < words.length; i++) words[i] = (random() * 4294967296) >>> 0
  return new BigInt64Array(words.buffer)
}

export function asciiStrings(n, random) {
  const codes = new Array(16)
  const out = new Array(n)
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 16; k++) codes[k] = 97 + ((random() * 26) | 0)
    out[i] = String.fromCharCode(...codes)
  }
  return out
}

function validityEvery(n) {
  const bits = new Uint8Array((n + 7) >> 3)
  for (let i = 0; i < n; i++) if (i % NULL_EVERY !== NULL_EVERY - 1) bits[i >> 3] |= 1 << (i & 7)
  return bits
}

const isValid = (bits, i) => (bits[i >> 3] >> (i & 7)) & 1

/**
 * Per-value peer loops over `values` (a plain accessor) writing 1/0 (2 for nulls) into out[0..m).
 * `scratch` is a little buffer the xxhash-wasm path writes each fixed-width value into.
 */
function fixedWidthPeers(element, get, write, width, validity) {
  const scratch = new Uint8Array(8)
  const view = new DataView(scratch.buffer)
  const bytes = scratch.subarray(0, width)
  return {
    hyparquet: (blocks, out, m) => {
      for (let i = 0; i < m; i++) {
        if (validity && !isValid(validity, i)) out[i] = 2
        else out[i] = sbbfContains(blocks, hashParquetValue(get(i), element)) ? 1 : 0
      }
    },
    xxhash: (xxh, words, out, m) => {
      const h64Raw = xxh.h64Raw
      for (let i = 0; i < m; i++) {
        if (validity && !isValid(validity, i)) {
          out[i] = 2
          continue
        }
        write(view, i)
        out[i] = plainSbbfContains(words, h64Raw(bytes)) ? 1 : 0
      }
    },
  }
}

function bytesPeers(get, validity) {
  return {
    hyparquet: (blocks, out, m) => {
      for (let i = 0; i < m; i++) {
        if (validity && !isValid(validity, i)) out[i] = 2
        else out[i] = sbbfContains(blocks, hashParquetValue(get(i), ELEMENT.BYTE_ARRAY)) ? 1 : 0
      }
    },
    xxhash: (xxh, words, out, m) => {
      const h64Raw = xxh.h64Raw
      for (let i = 0; i < m; i++) {
        if (validity && !isValid(validity, i)) out[i] = 2
        else out[i] = plainSbbfContains(words, h64Raw(get(i))) ? 1 : 0
      }
    },
  }
}

/**
 * Each case: build(n, random) → { input, type, inserted, insertType?, hyparquet(blocks, out, m), xxhash(xxh, words, out, m) }.
 * `inserted` goes through filter.insert(inserted, type) first, so checks see hits and misses.
 */
export const CASES = [
  {
    name: 'INT64 BigInt64Array',
    native: 'INT64',
    build(n, random) {
      const values = randomBigInts(n, random)
      return {
        input: values, type: 'INT64', inserted: every2(Array.from(values)),
        ...fixedWidthPeers(ELEMENT.INT64, (i) => values[i], (v, i) => v.setBigInt64(0, values[i], true), 8),
      }
    },
  },
  {
    name: 'INT32 Int32Array',
    native: 'INT32',
    build(n, random) {
      const values = new Int32Array(randomBytes(n * 4, random).buffer)
      return {
        input: values, type: 'INT32', inserted: Int32Array.from(every2(Array.from(values))),
        ...fixedWidthPeers(ELEMENT.INT32, (i) => values[i], (v, i) => v.setInt32(0, values[i], true), 4),
      }
    },
  },
  {
    name: 'DOUBLE Float64Array',
    native: 'DOUBLE',
    build(n, random) {
      const values = Float64Array.from({ length: n }, () => random() * 2e9 - 1e9)
      return {
        input: values, type: 'DOUBLE', inserted: Float64Array.from(every2(Array.from(values))),
        ...fixedWidthPeers(ELEMENT.DOUBLE, (i) => values[i], (v, i) => v.setFloat64(0, values[i], true), 8),
      }
    },
  },
  {
    name: '16-byte strings string[]',
    native: 'STRING16',
    build(n, random) {
      const values = asciiStrings(n, random)
      return {
        input: values, type: 'BYTE_ARRAY', inserted: every2(values),
        hyparquet: bytesPeers((i) => values[i]).hyparquet,
        // xxhash-wasm's own string entry point encodes straight into its memory: its best case.
        xxhash: (xxh, words, out, m) => {
          for (let i = 0; i < m; i++) out[i] = plainSbbfContains(words, xxh.h64(values[i])) ? 1 : 0
        },
      }
    },
  },
  {
    name: 'FLBA(16) Uint8Array[]',
    native: 'FLBA16',
    build(n, random) {
      const data = randomBytes(n * 16, random)
      const values = Array.from({ length: n }, (_, i) => data.subarray(i * 16, i * 16 + 16))
      const type = { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16 }
      const peers = bytesPeers((i) => values[i])
      return {
        input: values, type, inserted: every2(values),
        hyparquet: (blocks, out, m) => {
          for (let i = 0; i < m; i++) out[i] = sbbfContains(blocks, hashParquetValue(values[i], ELEMENT.FIXED_LEN_BYTE_ARRAY)) ? 1 : 0
        },
        xxhash: peers.xxhash,
      }
    },
  },
  {
    name: 'FLBA(16) columnar bytes',
    native: 'FLBA16',
    build(n, random) {
      const data = randomBytes(n * 16, random)
      const type = { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16 }
      const slot = (i) => data.subarray(i * 16, i * 16 + 16)
      return {
        input: { values: data, length: n }, type, inserted: every2(Array.from({ length: n }, (_, i) => slot(i))),
        hyparquet: (blocks, out, m) => {
          for (let i = 0; i < m; i++) out[i] = sbbfContains(blocks, hashParquetValue(slot(i), ELEMENT.FIXED_LEN_BYTE_ARRAY)) ? 1 : 0
        },
        xxhash: bytesPeers(slot).xxhash,
      }
    },
  },
  {
    name: 'BOOLEAN bitmap',
    native: 'BOOLEAN_BITMAP',
    build(n, random) {
      const bitmap = randomBytes((n + 7) >> 3, random)
      const bit = (i) => isValid(bitmap, i) === 1
      return {
        input: { values: bitmap, length: n }, type: 'BOOLEAN', inserted: [true],
        ...fixedWidthPeers(ELEMENT.BOOLEAN, bit, (v, i) => v.setUint8(0, bit(i) ? 1 : 0), 1),
      }
    },
  },
  {
    name: 'Arrow Int64 vector, 10% nulls',
    native: 'INT64_NULLS',
    build(n, random) {
      const values = randomBigInts(n, random)
      const nullBitmap = validityEvery(n)
      const vector = arrow.makeVector(arrow.makeData({ type: new arrow.Int64(), length: n, nullCount: Math.floor(n / NULL_EVERY), nullBitmap, data: values }))
      return {
        input: vector, type: undefined, inserted: every2(Array.from(values)), insertType: 'INT64',
        ...fixedWidthPeers(ELEMENT.INT64, (i) => values[i], (v, i) => v.setBigInt64(0, values[i], true), 8, nullBitmap),
      }
    },
  },
  {
    name: 'Arrow Utf8 vector (16 B), 10% nulls',
    native: 'STRING16_NULLS',
    build(n, random) {
      const strings = asciiStrings(n, random)
      const nullBitmap = validityEvery(n)
      const data = new TextEncoder().encode(strings.join(''))
      const valueOffsets = Int32Array.from({ length: n + 1 }, (_, i) => i * 16)
      const vector = arrow.makeVector(arrow.makeData({ type: new arrow.Utf8(), length: n, nullCount: Math.floor(n / NULL_EVERY), nullBitmap, valueOffsets, data }))
      // The peers read the vector's buffers directly, the cheapest per-value path a JS reader has.
      const slot = (i) => data.subarray(i * 16, i * 16 + 16)
      return {
        input: vector, type: undefined, inserted: every2(strings), insertType: 'BYTE_ARRAY',
        ...bytesPeers(slot, nullBitmap),
      }
    },
  },
]
