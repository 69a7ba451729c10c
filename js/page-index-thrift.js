// Decodes the two page-index structs of parquet.thrift (ColumnIndex, OffsetIndex; parquet-format
// PageIndex.md) from Thrift compact-protocol bytes read from the file. Every read is bounds-checked,
// every list count is checked against the bytes left before anything is allocated, and nesting is
// bounded, so hostile bytes end in `{ error: { reason: 'malformed-page-index', detail } }`, never in an
// exception or a hang. Bounds stay subarray views of the input, not copies.

const MALFORMED = 'malformed-page-index'
// Thrift compact type ids
const T = { TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 }
// Fields we do not read (histograms, newer additions) are skipped; real ones nest two levels at most.
const MAX_SKIP_DEPTH = 32
const I32_MIN = -(2 ** 31)
const I32_MAX = 2 ** 31 - 1

/** Thrown inside this module only, turned into an `{ error }` result by the exported decoders. */
class Malformed {
  constructor(detail) {
    this.detail = detail
  }
}

class CompactReader {
  constructor(bytes) {
    this.bytes = bytes
    this.at = 0
  }

  get left() {
    return this.bytes.length - this.at
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Malformed(`the struct ends early, at byte ${this.at} of ${this.bytes.length}`)
    return this.bytes[this.at++]
  }

  /** An unsigned varint as a Number; beyond 2^53 a value cannot be held exactly and is refused. */
  varint() {
    let result = 0
    let scale = 1
    for (let i = 0; i < 10; i++) {
      const b = this.byte()
      result += (b & 0x7f) * scale
      if (!(b & 0x80)) {
        if (result > Number.MAX_SAFE_INTEGER) throw new Malformed(`an integer at byte ${this.at} is larger than 2^53`)
        return result
      }
      scale *= 128
    }
    throw new Malformed(`a varint at byte ${this.at} runs past 10 bytes`)
  }

  zigzag() {
    const n = this.varint()
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2
  }

  i32() {
    const v = this.zigzag()
    if (v < I32_MIN || v > I32_MAX) throw new Malformed(`an i32 at byte ${this.at} is out of range (${v})`)
    return v
  }

  binary() {
    const n = this.varint()
    if (n > this.left) throw new Malformed(`a binary of ${n} bytes at byte ${this.at} runs past the end`)
    const view = this.bytes.subarray(this.at, this.at + n)
    this.at += n
    return view
  }

  /** A list header: { elemType, count }, the count checked against the bytes left (≥ 1 byte per element). */
  listHeader(what) {
    const b = this.byte()
    let count = b >> 4
    if (count === 15) count = this.varint()
    const elemType = b & 0x0f
    if (count > this.left) throw new Malformed(`${what} claims ${count} elements but only ${this.left} bytes are left`)
    return { elemType, count }
  }

  /** A field header: { id, type } (type 0: the struct's end). */
  fieldHeader(lastId) {
    const b = this.byte()
    const type = b & 0x0f
    if (type === 0) return { id: 0, type: 0 }
    const delta = b >> 4
    const id = delta ? lastId + delta : this.i32()
    return { id, type }
  }

  skip(type, depth = 0) {
    if (depth > MAX_SKIP_DEPTH) throw new Malformed(`fields nest deeper than ${MAX_SKIP_DEPTH} levels`)
    switch (type) {
      case T.TRUE:
      case T.FALSE: return
      case T.BYTE: this.byte(); return
      case T.I16:
      case T.I32:
      case T.I64: this.varint(); return
      case T.DOUBLE:
        if (this.left < 8) throw new Malformed('a double runs past the end')
        this.at += 8
        return
      case T.BINARY: this.binary(); return
      case T.LIST:
      case T.SET: {
        const { elemType, count } = this.listHeader('a skipped list')
        for (let i = 0; i < count; i++) this.skipElement(elemType, depth + 1)
        return
      }
      case T.MAP: {
        const count = this.varint()
        if (count === 0) return
        if (count > this.left) throw new Malformed(`a skipped map claims ${count} entries but only ${this.left} bytes are left`)
        const kinds = this.byte()
        for (let i = 0; i < count; i++) {
          this.skipElement(kinds >> 4, depth + 1)
          this.skipElement(kinds & 0x0f, depth + 1)
        }
        return
      }
      case T.STRUCT: {
        let lastId = 0
        for (;;) {
          const { id, type: fieldType } = this.fieldHeader(lastId)
          if (fieldType === 0) return
          this.skip(fieldType, depth + 1)
          lastId = id
        }
      }
      default: throw new Malformed(`unknown Thrift type ${type} at byte ${this.at}`)
    }
  }

  /** Inside a list, set or map a boolean takes a byte of its own (in a field it lives in the header). */
  skipElement(type, depth) {
    if (type === T.TRUE || type === T.FALSE) this.byte()
    else this.skip(type, depth)
  }

  expectList(type, what, elemType) {
    if (type !== T.LIST) throw new Malformed(`${what} is not a list (Thrift type ${type})`)
    const header = this.listHeader(what)
    if (header.count > 0 && header.elemType !== elemType && !(elemType === T.TRUE && header.elemType === T.FALSE)) {
      throw new Malformed(`${what} holds Thrift type ${header.elemType}, not ${elemType}`)
    }
    return header.count
  }
}

/** Runs a decoder, turning any Malformed into the typed error result. */
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

/** @returns {ColumnIndex | DecodeError} */
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

/** @returns {OffsetIndex | DecodeError} */
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
