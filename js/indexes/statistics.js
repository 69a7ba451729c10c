// Row-group statistics as an index (parquet.thrift Statistics, ColumnOrder; parquet-format
// LogicalTypes.md "Sort Order"): can a chunk's min/max, null_count and num_values rule a value out?
// Bounds compare by the column's sort order: min_value/max_value are in it when FileMetaData.column_orders
// says TYPE_ORDER or, as parquet-java, arrow-rs and DuckDB read them, when the file has no column_orders
// at all; otherwise only the deprecated min/max of a signed-ordered type may be used. Any
// bound that cannot be read with certainty — NaN, the wrong width, min > max, counts that disagree —
// makes the statistics unusable for that chunk, never a reason for "absent".
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk, IndexFlag } from '../footer/records.js'
import { UNMAPPED_COLUMN_ORDER } from '../footer/outline-layout.js'
import { writerRulesFor } from './writer-rules.js'
import { sameBytes } from '../format/bytes.js'

const TYPE_ORDER = 1 // ColumnOrder union member
const utf8 = new TextEncoder()

/**
 * @typedef {{ kind: string, width: number, signed: boolean }} SortOrder how a column's values are ordered (sortOrderFor)
 * @typedef {number | bigint | Uint8Array} SortKey a value or bound in its order: a number, a bigint or bytes, by the order's kind
 * @typedef {{ bytes: Uint8Array, offsets: Int32Array, prefixes?: Float64Array }} PackedKeys byte keys in one buffer
 *   (sortKeys); `prefixes`: their bytePrefix, made by the first bounds check that needs them
 * @typedef {Float64Array | BigInt64Array | BigUint64Array | PackedKeys} SortKeys the probe's candidates as sort keys
 * @typedef {{ physicalType: string, typeLength?: number, logicalType?: import('../index.js').LogicalType | null }} TypedColumn
 * @typedef {{ usable: boolean, allNull?: boolean, min?: SortKey, max?: SortKey, reason?: string, detail?: string,
 *   rules?: import('../index.js').WriterRule[] }} ChunkStatistics usable: { allNull, min, max }; not: { reason, detail, rules }
 */

/**
 * Whether a column's min_value/max_value and ColumnIndex bounds are in its type-defined order: null when
 * they are, else why not. A file without column_orders (DuckDB before 1.5, Databricks Photon, Trino,
 * arrow-rs before 50) is read as parquet-java reads it: PrimitiveType's default column order is
 * TYPE_DEFINED_ORDER for every type but INT96 (and INTERVAL), which sortOrderFor leaves without an order
 * anyway; writers known to compute these bounds otherwise are in js/indexes/writer-rules.js.
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {{ index: number }} column
 * @returns {string | null}
 */
export function boundsOrderProblem(layout, column) {
  const orders = layout.columnOrders
  if (orders === null) return null
  const order = orders[column.index]
  if (order === TYPE_ORDER) return null
  if (order === UNMAPPED_COLUMN_ORDER) {
    return 'the file\'s column_orders list does not have one entry per column, so which order its bounds are in cannot be told'
  }
  return `the column's order is ColumnOrder ${order}, not TYPE_ORDER, the only order its bounds can be read in`
}

/**
 * How a column's values are ordered, or null when the spec defines no order (INT96, INTERVAL, unknown
 * logical types). Signed orderings are the ones the deprecated min/max fields were computed in.
 * @param {TypedColumn} column
 * @returns {SortOrder | null}
 */
export function sortOrderFor(column) {
  const lt = column.logicalType
  const t = lt?.type
  if (t === 'OTHER' || t === 'UNKNOWN' || (typeof t === 'string' && t.startsWith('LOGICAL_TYPE_'))) return null
  const unsigned = t === 'INTEGER' && lt?.isSigned === false
  switch (column.physicalType) {
    case 'BOOLEAN': return ORDERS.boolean
    case 'INT32': return unsigned ? ORDERS.uint32 : ORDERS.int32
    case 'INT64': return unsigned ? ORDERS.uint64 : ORDERS.int64
    case 'FLOAT': return ORDERS.float
    case 'DOUBLE': return ORDERS.double
    case 'BYTE_ARRAY':
      if (t === 'DECIMAL') return ORDERS.decimal
      if (!t || t === 'STRING' || t === 'ENUM' || t === 'JSON' || t === 'BSON') return ORDERS.bytes
      return null
    case 'FIXED_LEN_BYTE_ARRAY':
      // Its bounds are PLAIN values, type_length bytes each (boundKey checks the width). A shorter one was cut as
      // bytes (arrow-rs 42–49 cut ColumnIndex bounds so, apache/arrow-rs#5154), which reads as another number in
      // decimal order (1234567 cut to its leading zeros and incremented reads 1).
      if (t === 'DECIMAL') return { ...ORDERS.decimal, width: column.typeLength ?? 0 }
      if (t === 'FLOAT16') return column.typeLength === 2 ? ORDERS.float16 : null
      if (!t || t === 'STRING' || t === 'ENUM' || t === 'JSON' || t === 'BSON' || t === 'UUID') return ORDERS.bytes
      return null
    default: return null // INT96: no defined order (PARQUET-1065)
  }
}

/** Why a column whose type has no order (sortOrderFor: null) has no usable bounds. */
export const NO_ORDER = 'the column type has no defined sort order (INT96, INTERVAL or an unknown logical type)'

/**
 * Every sort order, made once (a FIXED_LEN_BYTE_ARRAY DECIMAL's, of its width, per call): sortOrderFor is asked per file
 * of a dataset, and orders are read, never changed.
 */
const ORDERS = Object.freeze({
  boolean: Object.freeze({ kind: 'boolean', width: 1, signed: true }),
  int32: Object.freeze({ kind: 'int32', width: 4, signed: true }),
  uint32: Object.freeze({ kind: 'uint32', width: 4, signed: false }),
  int64: Object.freeze({ kind: 'int64', width: 8, signed: true }),
  uint64: Object.freeze({ kind: 'uint64', width: 8, signed: false }),
  float: Object.freeze({ kind: 'float', width: 4, signed: true }),
  double: Object.freeze({ kind: 'double', width: 8, signed: true }),
  float16: Object.freeze({ kind: 'float16', width: 2, signed: false }),
  decimal: Object.freeze({ kind: 'decimal', width: 0, signed: false }),
  bytes: Object.freeze({ kind: 'bytes', width: 0, signed: false }),
})

/**
 * The probe's candidates as sort keys of `order`, computed once per probe and kept in typed arrays:
 * numbers (Float64Array), bigints (BigInt64Array / BigUint64Array, which wrap as the stored bits do),
 * or for byte orders all candidates' bytes in one buffer with offsets.
 * @param {{ kind: string }} order
 * @param {any[]} candidates in the forms values.js produces for the physical type
 * @returns {SortKeys}
 */
export function sortKeys(order, candidates) {
  const n = candidates.length
  switch (order.kind) {
    case 'boolean': {
      const keys = new Float64Array(n)
      for (let k = 0; k < n; k++) keys[k] = candidates[k] ? 1 : 0
      return keys
    }
    case 'int32':
    case 'float':
    case 'double': return Float64Array.from(candidates)
    case 'uint32': {
      const keys = new Float64Array(n)
      for (let k = 0; k < n; k++) keys[k] = candidates[k] >>> 0
      return keys
    }
    case 'int64':
    case 'uint64': {
      const keys = order.kind === 'int64' ? new BigInt64Array(n) : new BigUint64Array(n)
      for (let k = 0; k < n; k++) keys[k] = BigInt(candidates[k])
      return keys
    }
    case 'float16': {
      const keys = new Float64Array(n)
      for (let k = 0; k < n; k++) keys[k] = halfToNumber(candidates[k][0] | (candidates[k][1] << 8))
      return keys
    }
    default: return packedBytes(candidates)
  }
}

/**
 * @typedef {Float64Array | BigInt64Array | BigUint64Array | Uint8Array[]} KeyList sort keys one per candidate (keyList)
 */
/**
 * Sort keys one per candidate (bytes as views of the packed buffer), for readers that index them; a list already is one.
 * @param {SortKeys | KeyList} keys
 * @returns {KeyList}
 */
export function keyList(keys) {
  if (Array.isArray(keys) || !('offsets' in keys)) return keys
  const { bytes, offsets } = keys
  return Array.from({ length: offsets.length - 1 }, (_, k) => bytes.subarray(offsets[k], offsets[k + 1]))
}

/**
 * Every candidate's bytes (strings as UTF-8) in one buffer: candidate k is bytes[offsets[k], offsets[k + 1]).
 * @param {Array<string | Uint8Array>} candidates
 * @returns {PackedKeys}
 */
function packedBytes(candidates) {
  const n = candidates.length
  const offsets = new Int32Array(n + 1)
  let capacity = 0
  for (let k = 0; k < n; k++) {
    const c = candidates[k]
    capacity += typeof c === 'string' ? c.length * 3 : c.length
  }
  const bytes = new Uint8Array(capacity)
  let at = 0
  for (let k = 0; k < n;) {
    const c = candidates[k]
    if (typeof c !== 'string') {
      bytes.set(c, at)
      at += c.length
      offsets[++k] = at
      continue
    }
    // A run of strings is encoded STRING_RUN at a time with one encodeInto: when it is all ASCII (bytes
    // = characters) the offsets follow from the lengths; otherwise each string is encoded alone.
    let end = k
    while (end < n && end - k < STRING_RUN && typeof candidates[end] === 'string') end++
    const run = candidates.slice(k, end)
    const joined = run.join('')
    const { written } = utf8.encodeInto(joined, bytes.subarray(at))
    if (written === joined.length) {
      for (let j = k; j < end; j++) offsets[j + 1] = (at += candidates[j].length)
    } else {
      for (let j = k; j < end; j++) {
        const text = /** @type {string} */ (candidates[j]) // candidates[k, end) are the run's strings
        offsets[j + 1] = (at += utf8.encodeInto(text, bytes.subarray(at)).written)
      }
    }
    k = end
  }
  return { bytes, offsets }
}

const STRING_RUN = 256

/**
 * What one chunk's statistics can say. `{ usable: false, reason, detail }` when they cannot be used;
 * else `{ usable: true, allNull, min, max }` with bounds as sort keys (undefined when one is absent).
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {number} rowGroup
 * @param {import('../footer/footer.js').LeafColumn} column
 * @param {SortOrder | null} order sortOrderFor(column)
 * @param {import('../footer/records.js').ChunkView} [record] the chunk's, when the caller has it
 * @returns {ChunkStatistics}
 */
export function chunkStatistics(layout, rowGroup, column, order, record = chunk(layout, rowGroup, column.index)) {
  ensureColumnIndexes(layout, column.index)
  const flags = record.indexFlags
  if (flags & IndexFlag.FOREIGN_STATISTICS_FIELD) {
    return unusable('inconsistent-statistics', 'the chunk\'s statistics field is not the Statistics struct parquet.thrift defines')
  }
  if (!(flags & IndexFlag.HAS_STATISTICS)) return unusable('no-statistics', 'the chunk has no statistics')
  const { numValues, nullCount } = record
  const numRows = layout.rowGroupRows[rowGroup]
  if (nullCount > numValues && numValues >= 0) {
    return unusable('inconsistent-statistics', `null_count ${nullCount} is larger than the chunk's ${numValues} values`)
  }
  if (!column.repeated && numValues >= 0 && numValues !== numRows) {
    return unusable('inconsistent-statistics', `the chunk says it has ${numValues} values but its row group has ${numRows} rows`)
  }
  // A writer known to overcount nulls (the 'null-count' writer rules) may hold values in such a chunk: its bounds decide.
  if (nullCount >= 0 && numValues > 0 && nullCount === numValues &&
    !writerRulesFor(layout.createdBy, 'null-count', column, record).length) return { usable: true, allNull: true }

  if (!order) return unusable('no-sort-order', NO_ORDER)
  const rules = writerRulesFor(layout.createdBy, 'statistics', column, record)
  if (rules.length) return unusable('untrusted-writer', `${rules[0].message} (${rules[0].link})`, rules)

  // Bounds as where they lie in footerBytes (offset -1: absent): only a byte order's key is a view of them.
  let min = record.bound('minValue')
  let max = record.bound('maxValue')
  const orderProblem = boundsOrderProblem(layout, column)
  const hasValueBounds = min.offset >= 0 || max.offset >= 0
  if (orderProblem !== null) {
    min = NO_BOUND
    max = NO_BOUND
  }
  const bytes = layout.footerBytes
  if (min.offset < 0 && max.offset < 0) {
    // The deprecated fields were computed in the physical type's signed order: usable only where that
    // is the column's order, or where min = max (one value has the same place in every order).
    const oldMin = record.bound('min')
    const oldMax = record.bound('max')
    const either = oldMin.offset >= 0 || oldMax.offset >= 0
    const both = oldMin.offset >= 0 && oldMax.offset >= 0
    if (either && (order.signed || (both && sameBytes(boundBytes(bytes, oldMin), boundBytes(bytes, oldMax))))) {
      min = oldMin
      max = oldMax
    } else if (either) {
      return unusable('no-sort-order', 'the deprecated min/max were computed in signed order, which is not this column\'s order')
    } else if (hasValueBounds) {
      return unusable('no-sort-order', /** @type {string} */ (orderProblem))
    }
  }
  if (min.offset < 0 && max.offset < 0) return unusable('no-bounds', 'the statistics hold no min or max')
  const minKey = min.offset >= 0 ? boundKey(order, bytes, min.offset, min.length, 'min') : undefined
  const maxKey = max.offset >= 0 ? boundKey(order, bytes, max.offset, max.length, 'max') : undefined
  if (minKey instanceof BoundProblem) return unusable(minKey.reason, minKey.problem)
  if (maxKey instanceof BoundProblem) return unusable(maxKey.reason, maxKey.problem)
  if (minKey !== undefined && maxKey !== undefined && compareKeys(order, minKey, maxKey) > 0) {
    return unusable('inconsistent-statistics', 'min is larger than max')
  }
  return { usable: true, allNull: false, min: minKey, max: maxKey }
}

/**
 * A bound's bytes, as a view.
 * @param {Uint8Array} bytes
 * @param {{ offset: number, length: number }} bound
 */
function boundBytes(bytes, bound) {
  return bytes.subarray(bound.offset, bound.offset + bound.length)
}

/** No bound (a ChunkView bound's form). */
const NO_BOUND = Object.freeze({ offset: -1, length: 0 })

/**
 * @param {string} reason
 * @param {string} detail
 * @param {import('../index.js').WriterRule[]} [rules]
 * @returns {ChunkStatistics}
 */
const unusable = (reason, detail, rules) => ({ usable: false, reason, detail, rules })

const scratchBytes = new Uint8Array(8)
const scratchI64 = new BigInt64Array(scratchBytes.buffer)
const scratchU64 = new BigUint64Array(scratchBytes.buffer)
const scratchF32 = new Float32Array(scratchBytes.buffer)
const scratchF64 = new Float64Array(scratchBytes.buffer)

/** Why a bound cannot be read with certainty. */
class BoundProblem {
  /** @param {string} reason @param {string} problem */
  constructor(reason, problem) {
    this.reason = reason
    this.problem = problem
  }
}

/**
 * A bound's sort key, read from bytes[offset, offset + length), or a BoundProblem when it cannot be read with certainty.
 * @param {SortOrder} order
 * @param {Uint8Array} bytes
 * @param {number} offset
 * @param {number} length
 * @param {string} which
 * @returns {SortKey | BoundProblem}
 */
function boundKey(order, bytes, offset, length, which) {
  if (order.width && length !== order.width) {
    return new BoundProblem('inconsistent-statistics', `the ${which} bound is ${length} bytes, not the column's ${order.width}`)
  }
  let key
  const b = offset
  // Read through views of one 8-byte scratch buffer (little-endian, as wasm and every JS engine are):
  // a DataView per bound costs more than the rest of a chunk's statistics check.
  switch (order.kind) {
    case 'boolean': key = bytes[b] ? 1 : 0; break
    case 'int32': key = bytes[b] | (bytes[b + 1] << 8) | (bytes[b + 2] << 16) | (bytes[b + 3] << 24); break
    case 'uint32': key = (bytes[b] | (bytes[b + 1] << 8) | (bytes[b + 2] << 16) | (bytes[b + 3] << 24)) >>> 0; break
    case 'int64': key = scratchI64[scratched(bytes, b, 8)]; break
    case 'uint64': key = scratchU64[scratched(bytes, b, 8)]; break
    case 'float': key = scratchF32[scratched(bytes, b, 4)]; break
    case 'double': key = scratchF64[scratched(bytes, b, 8)]; break
    case 'float16': key = halfToNumber(bytes[b] | (bytes[b + 1] << 8)); break
    default: return bytes.subarray(offset, offset + length)
  }
  // A NaN bound says nothing about the other values (PARQUET-1246): ignore the statistics. A zero bound
  // needs no care here: -0 and +0 compare equal, which is how the spec asks readers to treat them.
  if (typeof key === 'number' && Number.isNaN(key)) return new BoundProblem('nan-bound', `the ${which} bound is NaN`)
  return key
}

/**
 * Copies bytes[offset, offset + width) into the scratch buffer; 0, the index its views read the value at.
 * @param {Uint8Array} bytes
 * @param {number} offset
 * @param {number} width
 */
function scratched(bytes, offset, width) {
  for (let i = 0; i < width; i++) scratchBytes[i] = bytes[offset + i]
  return 0
}

/**
 * For each candidate k, 1 when the statistics rule it out (it is below min or above max), else 0.
 * @param {SortOrder} order
 * @param {SortKeys} keys sortKeys(order, candidates): packed bytes for the byte orders, numbers or bigints for the others
 * @param {SortKey | undefined} min a bound of the same kind
 * @param {SortKey | undefined} max
 * @param {Uint8Array} [out] where to write the flags (at least one per candidate; its first ones are written), else a new array
 * @returns {Uint8Array}
 */
export function excludedByBounds(order, keys, min, max, out = undefined) {
  if (order.kind === 'bytes' || order.kind === 'decimal') {
    return excludedBytes(order.kind === 'decimal', /** @type {PackedKeys} */ (keys), /** @type {Uint8Array | undefined} */ (min),
      /** @type {Uint8Array | undefined} */ (max), out)
  }
  const numeric = /** @type {Float64Array | BigInt64Array | BigUint64Array} */ (keys)
  const low = /** @type {number | bigint | undefined} */ (min)
  const high = /** @type {number | bigint | undefined} */ (max)
  const n = numeric.length
  out ??= new Uint8Array(n)
  for (let k = 0; k < n; k++) {
    const v = numeric[k]
    // NaN candidates never reach here (values.js answers them itself); a NaN key would compare false
    // both ways and so be kept, which is the safe side.
    out[k] = (low !== undefined && v < low) || (high !== undefined && v > high) ? 1 : 0
  }
  return out
}

/**
 * @param {boolean} decimal
 * @param {PackedKeys} keys
 * @param {Uint8Array | undefined} min
 * @param {Uint8Array | undefined} max
 * @param {Uint8Array} [out]
 */
function excludedBytes(decimal, keys, min, max, out = new Uint8Array(keys.offsets.length - 1)) {
  const { bytes, offsets } = keys
  const n = offsets.length - 1
  if (decimal) {
    for (let k = 0; k < n; k++) {
      const start = offsets[k]
      const end = offsets[k + 1]
      out[k] = (min !== undefined && compareDecimalRange(bytes, start, end, min) < 0) ||
        (max !== undefined && compareDecimalRange(bytes, start, end, max) > 0) ? 1 : 0
    }
    return out
  }
  // Most candidates are decided by their 6-byte prefixes (made once per probe); equal prefixes compare the bytes.
  const prefixes = (keys.prefixes ??= bytePrefixes(bytes, offsets))
  const minPrefix = min === undefined ? -1 : bytePrefix(min, 0, min.length)
  const maxPrefix = max === undefined ? Infinity : bytePrefix(max, 0, max.length)
  for (let k = 0; k < n; k++) {
    const p = prefixes[k]
    // A prefix equals minPrefix (maxPrefix) only when min (max) is there: -1 and Infinity are no prefix.
    const below = p < minPrefix || (p === minPrefix && min !== undefined && compareBytesRange(bytes, offsets[k], offsets[k + 1], min) < 0)
    const above = p > maxPrefix || (p === maxPrefix && max !== undefined && compareBytesRange(bytes, offsets[k], offsets[k + 1], max) > 0)
    out[k] = below || above ? 1 : 0
  }
  return out
}

/**
 * The first 6 bytes of a[start, end) as a number, zero-padded: exact in a double, and in the bytes'
 * order (a smaller prefix means smaller bytes; equal prefixes say nothing).
 * @param {ArrayLike<number>} a
 * @param {number} start
 * @param {number} end
 */
export function bytePrefix(a, start, end) {
  let p = 0
  for (let i = start; i < start + 6; i++) p = p * 256 + (i < end ? a[i] : 0)
  return p
}

/**
 * @param {Uint8Array} bytes
 * @param {Int32Array} offsets
 */
function bytePrefixes(bytes, offsets) {
  const prefixes = new Float64Array(offsets.length - 1)
  for (let k = 0; k < prefixes.length; k++) prefixes[k] = bytePrefix(bytes, offsets[k], offsets[k + 1])
  return prefixes
}

/**
 * @param {SortOrder} order
 * @param {SortKey} a
 * @param {SortKey} b
 */
function compareKeys(order, a, b) {
  // Both keys are of the order's kind (boundKey): bytes for the byte orders, else numbers or bigints.
  if (order.kind === 'bytes') return compareBytes(/** @type {Uint8Array} */ (a), /** @type {Uint8Array} */ (b))
  if (order.kind === 'decimal') return compareDecimal(/** @type {Uint8Array} */ (a), /** @type {Uint8Array} */ (b))
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Unsigned lexicographic order of byte strings (how strings and binary sort, LogicalTypes.md).
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function compareBytes(a, b) {
  return compareBytesRange(a, 0, a.length, b)
}

/**
 * compareBytes of a[start, end) and b, without a view.
 * @param {Uint8Array} a
 * @param {number} start
 * @param {number} end
 * @param {Uint8Array} b
 */
function compareBytesRange(a, start, end, b) {
  const length = end - start
  const n = Math.min(length, b.length)
  for (let i = 0; i < n; i++) if (a[start + i] !== b[i]) return a[start + i] - b[i]
  return length - b.length
}

/**
 * Signed big-endian two's complement order of DECIMAL bytes of any lengths (empty is zero).
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function compareDecimal(a, b) {
  return compareDecimalRange(a, 0, a.length, b)
}

/**
 * @param {Uint8Array} a
 * @param {number} start
 * @param {number} end
 * @param {Uint8Array} b
 */
function compareDecimalRange(a, start, end, b) {
  const length = end - start
  const negA = length > 0 && a[start] >= 0x80
  const negB = b.length > 0 && b[0] >= 0x80
  if (negA !== negB) return negA ? -1 : 1
  const fill = negA ? 0xff : 0
  const n = Math.max(length, b.length)
  for (let i = 0; i < n; i++) {
    const x = i < n - length ? fill : a[start + i - (n - length)]
    const y = i < n - b.length ? fill : b[i - (n - b.length)]
    if (x !== y) return x - y
  }
  return 0
}

/**
 * IEEE 754 half precision to a number (FLOAT16; LogicalTypes.md).
 * @param {number} bits
 */
export function halfToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1
  const exponent = (bits >> 10) & 0x1f
  const fraction = bits & 0x3ff
  if (exponent === 0) return sign * fraction * 2 ** -24
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15)
}
