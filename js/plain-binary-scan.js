// Matches byte-string candidates against a PLAIN BYTE_ARRAY ([u32 length][bytes]…) or
// FIXED_LEN_BYTE_ARRAY (fixed width) value section in place (parquet-format Encodings.md "Plain"), for
// exact lookups (issue #14): no object per value. Candidates are grouped by length; a value is compared
// only when a key of its length exists and a table keyed by its length, first and last byte says one may
// be equal (values sharing a prefix, as ids do, mostly differ at the end). A section that runs out of
// bytes before the values the levels announce throws PageDecodeError.
import { PageDecodeError } from './page-decode-error.js'

// Lengths below this index an array; longer keys (rare) are found through a Map.
const LENGTH_TABLE_LIMIT = 4096
const EDGE_BITS = 16
const EDGE_MASK = (1 << EDGE_BITS) - 1

/** The edge table's slot for a non-empty value of `length` bytes starting with `first`, ending with `last`. */
const edgeSlot = (length, first, last) => (Math.imul(length, 0x9e3779b1) >>> 16 ^ first << 8 ^ last) & EDGE_MASK

/**
 * The keys' lookup tables, built once per matcher: per length the first key of that length, chained
 * through `nextSameLength`.
 * @param {Uint8Array[]} keys distinct keys; a hit records the key's index
 */
export function plainBinaryKeys(keys) {
  let maxLength = -1
  for (const key of keys) if (key.length > maxLength) maxLength = key.length
  const firstOfLength = new Int32Array(Math.min(maxLength + 1, LENGTH_TABLE_LIMIT)).fill(-1)
  /** @type {Map<number, number>} */
  const firstOfLongLength = new Map()
  const nextSameLength = new Int32Array(keys.length).fill(-1)
  const edges = new Uint8Array(1 << EDGE_BITS)
  for (let g = keys.length - 1; g >= 0; g--) {
    const key = keys[g]
    const length = key.length
    if (length < LENGTH_TABLE_LIMIT) {
      nextSameLength[g] = firstOfLength[length]
      firstOfLength[length] = g
    } else {
      nextSameLength[g] = firstOfLongLength.get(length) ?? -1
      firstOfLongLength.set(length, g)
    }
    if (length > 0) edges[edgeSlot(length, key[0], key[length - 1])] = 1
  }
  return { keys, maxLength, firstOfLength, firstOfLongLength, nextSameLength, edges }
}

/** @typedef {ReturnType<typeof plainBinaryKeys>} PlainBinaryKeys */

/**
 * Hits of a BYTE_ARRAY section: per value the index of the key it equals, or -1.
 * @param {Uint8Array} bytes the value section (it may run on past the values: later bytes are ignored, as by hyparquet)
 * @param {number} count values the levels say the section holds
 * @param {PlainBinaryKeys} table
 * @returns {Int32Array}
 */
export function scanPlainByteArray(bytes, count, table) {
  const hits = new Int32Array(count).fill(-1)
  const { keys, maxLength, firstOfLength, firstOfLongLength, nextSameLength, edges } = table
  const tableSize = firstOfLength.length
  const end = bytes.length
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 4 > end) throw new PageDecodeError(`the PLAIN values end after ${i} of the ${count} values the levels say (${end} bytes)`)
    const length = (bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | bytes[at + 3] << 24) >>> 0
    at += 4
    if (length > end - at) throw new PageDecodeError(`value ${i} of a PLAIN section claims ${length} bytes, ${end - at} remain`)
    if (length <= maxLength) {
      let g = length < tableSize ? firstOfLength[length] : firstOfLongLength.get(length) ?? -1
      if (g >= 0 && (length === 0 || edges[edgeSlot(length, bytes[at], bytes[at + length - 1])] !== 0)) {
        for (; g >= 0; g = nextSameLength[g]) {
          if (equalAt(bytes, at, keys[g])) {
            hits[i] = g
            break
          }
        }
      }
    }
    at += length
  }
  return hits
}

/**
 * Hits of a FIXED_LEN_BYTE_ARRAY section of `width`-byte values: keys of other lengths never match.
 * @param {Uint8Array} bytes
 * @param {number} count
 * @param {number} width
 * @param {PlainBinaryKeys} table
 * @returns {Int32Array}
 */
export function scanPlainFixed(bytes, count, width, table) {
  if (count * width > bytes.length) {
    throw new PageDecodeError(`${count} values of ${width} bytes need ${count * width} bytes, the PLAIN section has ${bytes.length}`)
  }
  const hits = new Int32Array(count).fill(-1)
  const { keys, firstOfLength, firstOfLongLength, nextSameLength, edges } = table
  const first = width < firstOfLength.length ? firstOfLength[width] : firstOfLongLength.get(width) ?? -1
  if (first < 0) return hits
  const last = width - 1
  for (let i = 0, at = 0; i < count; i++, at += width) {
    if (edges[edgeSlot(width, bytes[at], bytes[at + last])] === 0) continue
    for (let g = first; g >= 0; g = nextSameLength[g]) {
      if (equalAt(bytes, at, keys[g])) {
        hits[i] = g
        break
      }
    }
  }
  return hits
}

function equalAt(bytes, at, key) {
  for (let j = 0; j < key.length; j++) if (bytes[at + j] !== key[j]) return false
  return true
}
