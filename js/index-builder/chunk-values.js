// What a new bloom filter of one column chunk receives: the values of its plain data pages and the
// dictionary entries its dictionary-encoded pages use, hashed as probes hash them (XXH64 of the PLAIN
// bytes, in the wasm core), in one pass and bounded memory. The filter is sized before its values are
// known: exactly for a dictionary-only chunk (its used entries), else for the chunk's value count and
// then folded down to the size the distinct values it received call for — split block filters of
// power-of-two sizes fold exactly: a hash's block in a filter of N/2 blocks is its block in N blocks,
// halved (BloomFilter.md: block = (hash >> 32) × numBlocks >> 32; the bits within a block depend on the
// low 32 bits only), so OR-ing block pairs gives the very filter built at the smaller size. A floating-point
// chunk's filter also holds the forms readers probe for its values (FloatForms): a filter that lacks them
// makes those readers skip row groups that hold the rows asked for.
import { BloomFilter } from '../filter/bloom-filter.js'
import { encodeHeader } from '../indexes/bloom-header.js'
import { getCore } from '../wasm/core.js'
import { compareBytes, halfToNumber, sortKeys, sortOrderFor } from '../indexes/statistics.js'
import { WORDS_PER_BLOCK } from '../wasm/sbbf.js'

/**
 * @typedef {import('../footer/footer.js').LeafColumn} LeafColumn
 * @typedef {{ values: Uint8Array, offsets?: Int32Array, length: number }} ColumnarBytes a PLAIN section's values as bytes
 *   (js/index-builder/chunk-scan.js): fixed-width values back to back, or BYTE_ARRAY values behind `offsets`
 */

/**
 * The batch type a column's values are hashed as.
 * @param {LeafColumn} column
 */
export function hashType(column) {
  return column.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? { type: column.physicalType, typeLength: column.typeLength } : column.physicalType
}

/**
 * Physical types filters are built for: every one (BloomFilter.md hashes each value's PLAIN bytes: INT96's 12,
 * BOOLEAN's one byte 0/1, as arrow-rs and hyparquet hash them; Arrow C++ and parquet-java write none for
 * BOOLEAN, whose two values min/max statistics already tell apart).
 */
export const FILTERABLE_TYPES = new Set(['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'])

/**
 * The typed array of each fixed-width numeric physical type's PLAIN values (little-endian, as typed arrays are here).
 * @type {Readonly<Record<string, Int32ArrayConstructor | Float32ArrayConstructor | BigInt64ArrayConstructor |
 *   Float64ArrayConstructor>>}
 */
const NUMBER_ARRAYS = Object.freeze({ INT32: Int32Array, FLOAT: Float32Array, INT64: BigInt64Array, DOUBLE: Float64Array })

/** Headroom over the fill's estimate of the distinct values, for its error. */
const ESTIMATE_MARGIN = 1.1

/**
 * Values chosen by index from a typed array or array (dictionary entries by the indexes pages use).
 * @param {ArrayLike<unknown>} values
 * @param {ArrayLike<number>} chosen
 * @returns {ArrayLike<unknown>} of the same kind as `values`
 */
export function pick(values, chosen) {
  if (Array.isArray(values)) return Array.from(chosen, (i) => values[i])
  const out = new /** @type {any} */ (values.constructor)(chosen.length)
  for (let k = 0; k < chosen.length; k++) out[k] = values[chosen[k]]
  return out
}

/** Which dictionary entries the data pages use. */
export class DictionaryUse {
  constructor() {
    /** @type {ArrayLike<unknown> | undefined} */
    this.values = undefined
    /** @type {Uint8Array | undefined} per entry: 1 when a page uses it */
    this.used = undefined
  }

  /** @param {ArrayLike<unknown>} values */
  set(values) {
    this.values = values
    this.used = new Uint8Array(values.length)
  }

  /** @param {ArrayLike<number>} indexes */
  mark(indexes) {
    const used = /** @type {Uint8Array} */ (this.used)
    for (let i = 0; i < indexes.length; i++) used[indexes[i]] = 1
  }

  /** The used entries, or undefined when there is no dictionary. */
  usedValues() {
    if (!this.values) return undefined
    /** @type {number[]} */
    const chosen = []
    const used = /** @type {Uint8Array} */ (this.used) // set with the values
    used.forEach((u, i) => { if (u) chosen.push(i) })
    return pick(this.values, chosen)
  }
}

/**
 * The least and greatest non-NaN value seen, as sort keys of the column's order (js/indexes/statistics.js), for
 * the orders a sidecar index records; `kind` is null for the others.
 */
export class ValueBounds {
  /** @param {LeafColumn} column */
  constructor(column) {
    const order = sortOrderFor(column)
    this.order = order && ['int32', 'uint32', 'int64', 'uint64', 'float', 'double', 'bytes'].includes(order.kind) ? order : null
    /** @type {(typeof NUMBER_ARRAYS)[string] | undefined} */
    this.numbers = NUMBER_ARRAYS[column.physicalType]
    /** @type {number | bigint | Uint8Array | undefined} a sort key: bytes for kind 'bytes', else a number or bigint */
    this.min = undefined
    /** @type {number | bigint | Uint8Array | undefined} */
    this.max = undefined
  }

  /** @param {any} input values, or columnar bytes { values, offsets?, length } (js/index-builder/chunk-scan.js) */
  add(input) {
    if (!this.order || !input.length) return
    const columnar = !(Array.isArray(input) || ArrayBuffer.isView(input))
    // Fixed-width numbers as PLAIN bytes: read as their numbers (copied, as the section need not be aligned).
    const values = /** @type {any[]} */ (!columnar ? input
      : this.numbers && this.order.kind !== 'bytes'
        ? new this.numbers(input.values.slice(0, input.length * this.numbers.BYTES_PER_ELEMENT).buffer)
        : columnarViews(input))
    const keys = sortKeys(this.order, values)
    if ('offsets' in keys) {
      const { bytes, offsets } = keys
      for (let k = 0; k + 1 < offsets.length; k++) {
        const v = bytes.subarray(offsets[k], offsets[k + 1])
        if (this.min === undefined || compareBytes(v, /** @type {Uint8Array} */ (this.min)) < 0) this.min = v.slice()
        if (this.max === undefined || compareBytes(v, /** @type {Uint8Array} */ (this.max)) > 0) this.max = v.slice()
      }
      return
    }
    // Keys of numbers: so are the bounds kept.
    let { min, max } = /** @type {{ min: number | bigint | undefined, max: number | bigint | undefined }} */ (this)
    for (let k = 0; k < keys.length; k++) {
      const v = keys[k]
      if (v !== v) continue // NaN has no place in an order; probes answer it themselves
      if (min === undefined || v < min) min = v
      if (max === undefined || v > max) max = v
    }
    this.min = min
    this.max = max
  }

  /** { kind, min, max }, or null for an order without recorded bounds. */
  result() {
    return this.order ? { kind: this.order.kind, min: this.min, max: this.max } : null
  }
}

/**
 * FLOAT's (width 4) or DOUBLE's (8) quiet NaN, sign clear and set, as PLAIN bytes: the NaN of Java, Rust, Python
 * and C++, and DuckDB's 'nan' and '-nan'.
 * @param {number} width
 * @returns {ColumnarBytes}
 */
function quietNaNs(width) {
  const values = new Uint8Array(2 * width)
  const high = width === 4 ? [0xc0, 0x7f] : [0xf8, 0x7f]
  values.set(high, width - 2)
  values.set([high[0], 0xff], 2 * width - 2)
  return { values, length: 2 }
}

/** @typedef {{ values: ArrayLike<number> | ColumnarBytes, type: ReturnType<typeof hashType> }} ExtraValues a batch and its hash type */

/**
 * What a floating-point chunk's filter holds besides its stored bits: readers hash the constant they are asked
 * for, not a stored value. DuckDB asks for one zero whichever zero is stored (a DOUBLE `-0.0` literal is +0.0 to
 * it), for one NaN whatever NaN is stored (x86 computes NaN with the sign bit set), and reads a FLOAT16 column
 * as FLOAT, hashing the 4-byte float. So a chunk holding a zero gets both zeros; one holding a NaN, the quiet
 * NaNs; a FLOAT16 chunk, each of its values also as a FLOAT. Only more "maybe": every stored value's own bytes are in.
 */
export class FloatForms {
  /**
   * The forms to collect for the column, or undefined when it is not floating-point.
   * @param {LeafColumn} column
   */
  static of(column) {
    const { physicalType: type } = column
    if (type === 'FLOAT' || type === 'DOUBLE') return new FloatForms(type === 'FLOAT' ? 4 : 8)
    const half = type === 'FIXED_LEN_BYTE_ARRAY' && column.typeLength === 2 && column.logicalType?.type === 'FLOAT16'
    return half ? new FloatForms(2) : undefined
  }

  /** @param {2 | 4 | 8} width the bytes of one value */
  constructor(width) {
    this.width = width
    this.zero = false
    this.nan = false
    /** @type {Uint8Array | undefined} FLOAT16: per bit pattern, 1 when stored */
    this.halves = width === 2 ? new Uint8Array(0x10000) : undefined
  }

  /** @param {ArrayLike<any> | ColumnarBytes} input values (numbers; FLOAT16's as 2-byte arrays), or columnar bytes */
  add(input) {
    const values = Array.isArray(input) || ArrayBuffer.isView(input) ? /** @type {ArrayLike<any>} */ (input) : undefined
    const { halves } = this
    if (halves) {
      if (!values) {
        const bytes = /** @type {ColumnarBytes} */ (input).values
        for (let i = 0; i + 1 < 2 * input.length; i += 2) halves[bytes[i] | (bytes[i + 1] << 8)] = 1
      } else {
        for (let k = 0; k < values.length; k++) halves[values[k][0] | (values[k][1] << 8)] = 1
      }
      return
    }
    if (this.zero && this.nan) return
    if (values) {
      for (let k = 0; k < values.length; k++) {
        const v = values[k]
        if (v === 0) this.zero = true
        else if (v !== v) this.nan = true
      }
      return
    }
    // PLAIN bytes: only a value whose exponent's high bits are all clear or all set can be a zero or a NaN.
    const bytes = /** @type {ColumnarBytes} */ (input).values
    const { width } = this
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    for (let at = 0; at + width <= input.length * width; at += width) {
      const high = bytes[at + width - 1] & 0x7f
      if (high !== 0 && high !== 0x7f) continue
      const v = width === 4 ? view.getFloat32(at, true) : view.getFloat64(at, true)
      if (v === 0) this.zero = true
      else if (v !== v) this.nan = true
    }
  }

  /**
   * The values to insert besides the stored ones, each batch with the type it is hashed as.
   * @param {ReturnType<typeof hashType>} storedType the column's hash type (hashType)
   * @returns {ExtraValues[]}
   */
  extras(storedType) {
    if (!this.halves) {
      /** @type {ExtraValues[]} */
      const out = []
      const type = this.width === 4 ? 'FLOAT' : 'DOUBLE'
      if (this.zero) out.push({ values: this.width === 4 ? Float32Array.of(0, -0) : Float64Array.of(0, -0), type })
      if (this.nan) out.push({ values: quietNaNs(this.width), type })
      return out
    }
    /** @type {number[]} */
    const floats = []
    let nan = false
    let zero = false
    this.halves.forEach((stored, bits) => {
      if (!stored) return
      const v = halfToNumber(bits)
      if (v !== v) nan = true
      else if (v === 0) zero = true
      else floats.push(v)
    })
    if (zero) floats.push(0, -0)
    /** @type {ExtraValues[]} */
    const out = [{ values: Float32Array.from(floats), type: 'FLOAT' }]
    if (nan) out.push({ values: quietNaNs(4), type: 'FLOAT' })
    // Both FLOAT16 zeros too, for readers of the spec asking for the one not stored.
    if (zero) out.push({ values: { values: Uint8Array.of(0, 0, 0, 0x80), length: 2 }, type: storedType })
    return out
  }
}

/** A chunk's values streamed into a filter (a ValueSink for js/index-builder/chunk-scan.js). */
export class FilterFeed {
  /**
   * @param {LeafColumn} column
   * @param {{ capacity: number, fpp: number, ndv?: number, bounds?: boolean }} sizing capacity: the most
   *   distinct values the chunk can hold (its value count); ndv: a fixed size instead of the fold
   */
  constructor(column, sizing) {
    this.type = hashType(column)
    this.sizing = sizing
    this.dictionaryUse = new DictionaryUse()
    this.bounds = sizing.bounds ? new ValueBounds(column) : undefined
    this.floatForms = FloatForms.of(column)
    /** @type {BloomFilter | undefined} */
    this.filter = undefined
    /** @type {number | undefined} the distinct values, when only dictionary pages told them */
    this.exactNdv = undefined
  }

  /** @param {ArrayLike<unknown>} values */
  dictionary(values) {
    this.dictionaryUse.set(values)
  }

  /** @param {ArrayLike<number>} indexes */
  indexes(indexes) {
    this.dictionaryUse.mark(indexes)
  }

  /** @param {ArrayLike<unknown> | ColumnarBytes} values */
  plain(values) {
    if (!values.length) return
    this.filter ??= BloomFilter.create({ ndv: this.sizing.ndv ?? Math.max(1, this.sizing.capacity), fpp: this.sizing.fpp })
    this.filter.insert(values, this.type)
    this.bounds?.add(values)
    this.floatForms?.add(values)
  }

  /** Takes in the used dictionary entries, once the chunk's pages are scanned. */
  finish() {
    const used = this.dictionaryUse.usedValues()
    if (used?.length) this.floatForms?.add(used)
    const extras = this.floatForms?.extras(this.type) ?? []
    // Only dictionary pages: the used entries are the distinct values, counted exactly.
    if (!this.filter) {
      this.exactNdv = used?.length ?? 0
      const forms = extras.reduce((n, e) => n + e.values.length, 0)
      this.filter = BloomFilter.create({ ndv: this.sizing.ndv ?? this.exactNdv + forms, fpp: this.sizing.fpp })
    }
    if (used?.length) {
      this.filter.insert(used, this.type)
      this.bounds?.add(used)
    }
    for (const { values, type } of extras) this.filter.insert(values, type)
  }

  /**
   * The filter as Parquet stores it (BloomFilterHeader + bitset), folded to the size its distinct values
   * call for; frees the working filter.
   * @param {(length: number) => Uint8Array} [into] where to put the bytes (a buffer of `length` bytes the
   *   caller reuses, js/pages/page-scratch.js), else a new array
   * @returns {{ bytes: Uint8Array, headerLength: number, ndv: number, exact: boolean, numBytes: number }} headerLength: the
   *   BloomFilterHeader's bytes at the start of `bytes`
   */
  take(into = (length) => new Uint8Array(length)) {
    const filter = /** @type {BloomFilter} */ (this.filter)
    try {
      const core = getCore()
      const sized = this.sizing.ndv !== undefined || this.exactNdv !== undefined
      const estimate = sized ? 0 : Math.ceil(filter.health().estimatedNdv * ESTIMATE_MARGIN)
      const target = sized ? filter.numBytes : core.native.optimalNumBytes(estimate, this.sizing.fpp)
      // Folded where the filter lies in wasm memory (it is freed next), so the bytes below are its one copy:
      // a page-scale copy or two per chunk is garbage V8 lets pile up.
      const memory = /** @type {Uint8Array} */ (core.u8) // the core is loaded: the filter lives in it
      const bitset = foldBitset(memory.subarray(filter.address, filter.address + filter.numBytes), target)
      const header = encodeHeader(bitset.length)
      const bytes = into(header.length + bitset.length)
      bytes.set(header)
      bytes.set(bitset, header.length)
      return sized
        ? {
          bytes, headerLength: header.length, ndv: /** @type {number} */ (this.sizing.ndv ?? this.exactNdv), // sized: one is set
          exact: this.exactNdv !== undefined,
          numBytes: bitset.length,
        }
        : { bytes, headerLength: header.length, ndv: estimate, exact: false, numBytes: bitset.length }
    } finally {
      filter.free()
      this.filter = undefined
    }
  }
}

/**
 * One view per value of columnar bytes.
 * @param {ColumnarBytes} section
 */
export function columnarViews({ values, offsets, length }) {
  const width = offsets ? 0 : values.length / length
  return Array.from({ length }, (_, i) => (offsets
    ? values.subarray(offsets[i], offsets[i + 1])
    : values.subarray(i * width, (i + 1) * width)))
}

/**
 * A power-of-two bitset folded (block pairs OR-ed) down to `target` bytes, when smaller — in place: the
 * result is a view of the first bytes of `bitset`, whose other bytes are left as they are.
 * @param {Uint8Array} bitset
 * @param {number} target
 */
export function foldBitset(bitset, target) {
  const aligned = bitset.byteOffset % 4 === 0 ? bitset : bitset.slice()
  let words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2)
  const blockWords = WORDS_PER_BLOCK
  while (words.length * 4 > target && words.length > blockWords) {
    const half = words.length / 2
    // Ascending, block b of the half takes blocks 2b and 2b + 1, which lie at or after it: every word is
    // read before it is written.
    for (let b = 0; b < half / blockWords; b++) {
      const from = 2 * b * blockWords
      for (let w = 0; w < blockWords; w++) words[b * blockWords + w] = words[from + w] | words[from + blockWords + w]
    }
    words = words.subarray(0, half)
  }
  return new Uint8Array(words.buffer, words.byteOffset, words.length * 4)
}
