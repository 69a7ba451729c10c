// Decodes the two page-index structs of parquet.thrift (ColumnIndex, OffsetIndex; parquet-format
// PageIndex.md) from Thrift compact-protocol bytes read from the file. Every read is bounds-checked,
// every list count is checked against the bytes left before anything is allocated, and nesting is
// bounded, so hostile bytes end in `{ error: { reason: 'malformed-page-index', detail } }`, never in an
// exception or a hang. Bounds stay subarray views of the input, not copies.

import { CompactReader, Malformed, T } from './thrift-compact.js'

const MALFORMED = 'malformed-page-index'

/**
 * Runs a decoder, turning any Malformed into the typed error result.
 * @template R
 * @param {unknown} bytes checked here: the decoders' callers pass what the file gave them
 * @param {string} what
 * @param {(reader: CompactReader) => R} decode
 * @returns {R | DecodeError}
 */
function decodeWith(bytes, what, decode) {
  if (!(bytes instanceof Uint8Array)) return { error: { reason: MALFORMED, detail: `the ${what} bytes are not a Uint8Array` } }
  const reader = new CompactReader(bytes)
  try {
    const result = decode(reader)
    // The footer gives the struct's exact length: bytes left over mean the two descriptions disagree.
    if (reader.at !== bytes.length) throw new Malformed(`the struct ends at byte ${reader.at} but its length is ${bytes.length}`)
    return result
  } catch (error) {
    if (error instanceof Malformed) return { error: { reason: MALFORMED, detail: `${what}: ${error.detail}` } }
    throw error
  }
}

/**
 * @typedef {{ nullPages: Uint8Array, minValues: Uint8Array[], maxValues: Uint8Array[], boundaryOrder: number,
 *   nullCounts: Float64Array | null }} ColumnIndex boundaryOrder: 0 UNORDERED, 1 ASCENDING, 2 DESCENDING
 * @typedef {{ offsets: Float64Array, compressedSizes: Float64Array, firstRowIndexes: Float64Array }} OffsetIndex
 * @typedef {{ error: { reason: string, detail: string } }} DecodeError
 */

/**
 * @param {Uint8Array} bytes
 * @returns {ColumnIndex | DecodeError}
 */
export function decodeColumnIndex(bytes) {
  return decodeWith(bytes, 'ColumnIndex', (r) => {
    /** @type {Uint8Array | null} */
    let nullPages = null
    /** @type {Uint8Array[] | null} */
    let minValues = null
    /** @type {Uint8Array[] | null} */
    let maxValues = null
    /** @type {number | null} */
    let boundaryOrder = null
    /** @type {Float64Array | null} */
    let nullCounts = null
    let lastId = 0
    for (;;) {
      const { id, type } = r.fieldHeader(lastId)
      if (type === 0) break
      if (id === 1) {
        const n = r.expectList(type, 'null_pages', T.TRUE)
        const flags = new Uint8Array(n)
        nullPages = flags
        for (let i = 0; i < n; i++) {
          const b = r.byte()
          // parquet-java writes 1 for true and 2 for false; 0 is the other common false. Anything else
          // cannot be read as either, and a wrong "true" would hide a page's values.
          if (b !== 0 && b !== 1 && b !== 2) throw new Malformed(`null_pages[${i}] is the byte ${b}, not a boolean`)
          flags[i] = b === 1 ? 1 : 0
        }
      } else if (id === 2 || id === 3) {
        const which = id === 2 ? 'min_values' : 'max_values'
        const n = r.expectList(type, which, T.BINARY)
        const values = new Array(n)
        for (let i = 0; i < n; i++) values[i] = r.binary()
        if (id === 2) minValues = values
        else maxValues = values
      } else if (id === 4) {
        if (type !== T.I32) throw new Malformed(`boundary_order is Thrift type ${type}, not i32`)
        boundaryOrder = r.i32()
      } else if (id === 5) {
        const n = r.expectList(type, 'null_counts', T.I64)
        const counts = new Float64Array(n)
        for (let i = 0; i < n; i++) counts[i] = r.zigzag()
        nullCounts = counts
      } else {
        r.skip(type)
      }
      lastId = id
    }
    if (!nullPages || !minValues || !maxValues || boundaryOrder === null) {
      throw new Malformed('a required field (null_pages, min_values, max_values or boundary_order) is missing')
    }
    return { nullPages, minValues, maxValues, boundaryOrder, nullCounts }
  })
}

/**
 * @param {Uint8Array} bytes
 * @returns {OffsetIndex | DecodeError}
 */
export function decodeOffsetIndex(bytes) {
  return decodeWith(bytes, 'OffsetIndex', (r) => {
    /** @type {OffsetIndex | null} */
    let locations = null
    let lastId = 0
    for (;;) {
      const { id, type } = r.fieldHeader(lastId)
      if (type === 0) break
      if (id === 1) {
        // A PageLocation takes at least 4 bytes (three fields and a stop), so this bounds the count tighter.
        const n = r.expectList(type, 'page_locations', T.STRUCT)
        if (n * 4 > r.left) throw new Malformed(`page_locations claims ${n} pages but only ${r.left} bytes are left`)
        locations = { offsets: new Float64Array(n), compressedSizes: new Float64Array(n), firstRowIndexes: new Float64Array(n) }
        for (let i = 0; i < n; i++) readPageLocation(r, locations, i)
      } else {
        r.skip(type)
      }
      lastId = id
    }
    if (!locations) throw new Malformed('the required field page_locations is missing')
    return locations
  })
}

/**
 * Reads page_locations[i] into `locations`.
 * @param {CompactReader} r
 * @param {OffsetIndex} locations
 * @param {number} i
 */
function readPageLocation(r, locations, i) {
  let seen = 0
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    if (id >= 1 && id <= 3) {
      const expected = id === 2 ? T.I32 : T.I64
      if (type !== expected) throw new Malformed(`page_locations[${i}] field ${id} is Thrift type ${type}, not ${expected}`)
      const value = id === 2 ? r.i32() : r.zigzag()
      if (id === 1) locations.offsets[i] = value
      else if (id === 2) locations.compressedSizes[i] = value
      else locations.firstRowIndexes[i] = value
      seen |= 1 << id
    } else {
      r.skip(type)
    }
    lastId = id
  }
  if (seen !== 0b1110) throw new Malformed(`page_locations[${i}] lacks a required field (offset, compressed_page_size, first_row_index)`)
}
