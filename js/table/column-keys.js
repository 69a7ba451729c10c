// Table column types (Iceberg's and Delta's, in one model) and the comparable keys of values and
// bounds: every integer-like type (int, long, date, time, timestamp, decimal's unscaled value, boolean)
// as a bigint, floats as numbers, strings and binaries as bytes — strings as UTF-8, because Iceberg and
// Delta order them by UTF-8 bytes, not by UTF-16 units. Probe values are converted by the same rules as
// a file probe (js/values/probe-values.js encodeProbeValues) through a Parquet column of the same type, so a table
// never reads a value differently from its files.
import { encodeProbeValues } from '../values/probe-values.js'

/**
 * @typedef {{ kind: 'int' | 'long' | 'float' | 'double' | 'decimal' | 'string' | 'binary' | 'fixed' | 'uuid' | 'boolean'
 *   | 'date' | 'time' | 'timestamp' | 'timestamptz' | 'timestamp_ns' | 'timestamptz_ns' | 'other',
 *   precision?: number, scale?: number, length?: number, name?: string }} TableType
 * @typedef {bigint | number | Uint8Array} Key
 */

const utf8 = new TextEncoder()

/**
 * The Parquet column a value of this table type is converted through (null: not comparable).
 * @param {TableType} type
 */
export function parquetColumnOf(type) {
  switch (type.kind) {
    case 'int': return { physicalType: 'INT32' }
    case 'long': return { physicalType: 'INT64' }
    case 'float': return { physicalType: 'FLOAT' }
    case 'double': return { physicalType: 'DOUBLE' }
    case 'boolean': return { physicalType: 'BOOLEAN' }
    case 'date': return { physicalType: 'INT32', logicalType: { type: 'DATE' } }
    case 'time': return { physicalType: 'INT64', logicalType: { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: false } }
    case 'timestamp': return { physicalType: 'INT64', logicalType: { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: false } }
    case 'timestamptz': return { physicalType: 'INT64', logicalType: { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: true } }
    case 'timestamp_ns': return { physicalType: 'INT64', logicalType: { type: 'TIMESTAMP', unit: 'NANOS', isAdjustedToUTC: false } }
    case 'timestamptz_ns': return { physicalType: 'INT64', logicalType: { type: 'TIMESTAMP', unit: 'NANOS', isAdjustedToUTC: true } }
    case 'decimal': return { physicalType: 'BYTE_ARRAY', logicalType: { type: 'DECIMAL', precision: type.precision, scale: type.scale } }
    case 'string': return { physicalType: 'BYTE_ARRAY', logicalType: { type: 'STRING' } }
    case 'binary': return { physicalType: 'BYTE_ARRAY' }
    case 'fixed': return { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: type.length }
    case 'uuid': return { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'UUID' } }
    default: return null
  }
}

/**
 * Big-endian two's complement bytes (Iceberg decimals, Parquet BYTE_ARRAY decimals) to a bigint.
 * @param {Uint8Array} bytes
 */
export function twosComplementToBigInt(bytes) {
  if (bytes.length === 0) return 0n
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  return bytes[0] & 0x80 ? n - (1n << BigInt(bytes.length * 8)) : n
}

/**
 * The minimal big-endian two's complement bytes of a bigint (Java's BigInteger.toByteArray).
 * @param {bigint} n
 */
export function bigIntToTwosComplement(n) {
  /** @type {number[]} */
  const out = []
  let v = n
  for (;;) {
    out.unshift(Number(BigInt.asUintN(8, v)))
    v >>= 8n
    const sign = out[0] & 0x80
    if ((v === 0n && !sign) || (v === -1n && sign)) break
  }
  return Uint8Array.from(out)
}

/**
 * @param {TableType} type
 * @param {unknown} candidate a probe value as encodeProbeValues converted it
 * @returns {Key | undefined}
 */
function candidateKey(type, candidate) {
  if (typeof candidate === 'boolean') return candidate ? 1n : 0n
  if (typeof candidate === 'bigint') return candidate
  if (typeof candidate === 'number') return type.kind === 'float' || type.kind === 'double' ? candidate : BigInt(candidate)
  if (typeof candidate === 'string') return utf8.encode(candidate)
  if (candidate instanceof Uint8Array) return type.kind === 'decimal' ? twosComplementToBigInt(candidate) : candidate
  return undefined
}

/**
 * Each value's keys (several when a value has several stored readings), or a marker: `{ nan: true }`
 * for NaN, null when the table's metadata cannot say anything about it (a null, a type without keys,
 * a value no file of the type can hold — the file probe answers that one). BAD_VALUE throws, as a
 * file probe would.
 * @param {TableType} type
 * @param {unknown[]} values
 * @returns {Array<{ keys: Key[] } | { nan: true } | null>}
 */
export function valueKeys(type, values) {
  const column = parquetColumnOf(type)
  if (!column) return values.map(() => null)
  const encoded = encodeProbeValues(column, values)
  /** @type {Array<{ keys: Key[] } | { nan: true } | null>} */
  const out = encoded.outcomes.map((/** @type {any} */ o) => (o.reason === 'nan'
    ? { nan: true }
    : o.verdict !== undefined ? null : { keys: [] }))
  encoded.candidates.forEach((candidate, k) => {
    const slot = out[encoded.owners[k]]
    if (!slot || !('keys' in slot)) return
    const key = candidateKey(type, candidate)
    if (key === undefined) out[encoded.owners[k]] = null
    else slot.keys.push(key)
  })
  return out.map((slot) => (slot && 'keys' in slot && slot.keys.length === 0 ? null : slot))
}

/**
 * Order of two keys of one type: numbers and bigints numerically, bytes lexicographically (unsigned).
 * @param {Key} a
 * @param {Key} b
 */
export function compareKeys(a, b) {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    const n = Math.min(a.length, b.length)
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
    return a.length - b.length
  }
  return a < b ? -1 : a > b ? 1 : 0
}

/** @param {Key} a @param {Key} b */
export function sameKey(a, b) {
  if (typeof a !== typeof b && !(a instanceof Uint8Array && b instanceof Uint8Array)) return false
  return compareKeys(a, b) === 0
}

/** @param {Key} key @param {Key} prefix */
export function startsWith(key, prefix) {
  if (!(key instanceof Uint8Array) || !(prefix instanceof Uint8Array) || prefix.length > key.length) return false
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false
  return true
}

/**
 * The first `n` code points of UTF-8 bytes (bytes as they are when they are not valid UTF-8).
 * @param {Uint8Array} bytes
 * @param {number} n
 */
export function utf8Prefix(bytes, n) {
  let i = 0
  let points = 0
  while (i < bytes.length && points < n) {
    const b = bytes[i]
    i += b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4
    points++
  }
  return bytes.subarray(0, Math.min(i, bytes.length))
}

/** @param {Uint8Array} bytes */
export function utf8Length(bytes) {
  let points = 0
  for (const b of bytes) if ((b & 0xc0) !== 0x80) points++
  return points
}

/**
 * One column's facts for one file, from the table's metadata. `upperPrefix`: the upper bound may be a
 * truncated prefix of a larger value — any value starting with it may be there. `uuidOrders`: the bounds
 * are a UUID column's, which may be the least and greatest by either of two orders (see uuidSignedOrderKey).
 * @typedef {{ lower?: Key, upper?: Key, upperPrefix?: Uint8Array, nullCount?: bigint, valueCount?: bigint, nanCount?: bigint,
 *   uuidOrders?: boolean }} ColumnFacts
 */

/**
 * A UUID's bytes rearranged so that their unsigned order is java.util.UUID's (two signed 64-bit halves):
 * Iceberg Java merges row groups' bounds and computes manifest partition summaries in that order, other
 * writers (and one Parquet row group's statistics) in unsigned byte order (RFC 9562).
 * @param {Uint8Array} bytes
 */
export function uuidSignedOrderKey(bytes) {
  const out = Uint8Array.from(bytes)
  if (out.length === 16) { out[0] ^= 0x80; out[8] ^= 0x80 }
  return out
}

/**
 * Why a key cannot be in a file by its column facts: 'out-of-bounds', 'all-null', or null.
 * @param {ColumnFacts} facts
 * @param {Key} key
 */
export function factsExclude(facts, key) {
  if (facts.valueCount !== undefined && facts.nullCount !== undefined && facts.valueCount > 0n &&
    facts.nullCount === facts.valueCount) return 'all-null'
  if (facts.valueCount === 0n) return 'all-null'
  /** @param {Key | undefined} bound @returns {bound is Key} */
  const usable = (bound) => bound !== undefined && !(typeof bound === 'number' && Number.isNaN(bound))
  const below = usable(facts.lower) && compareKeys(key, facts.lower) < 0
  const above = usable(facts.upper) && compareKeys(key, facts.upper) > 0 && !(facts.upperPrefix && startsWith(key, facts.upperPrefix))
  if (!below && !above) return null
  // A UUID's bounds may be Java's signed least and greatest: out of bounds only if out by that order too.
  if (facts.uuidOrders && key instanceof Uint8Array) {
    const signed = uuidSignedOrderKey(key)
    const belowSigned = facts.lower instanceof Uint8Array && compareKeys(signed, uuidSignedOrderKey(facts.lower)) < 0
    const aboveSigned = facts.upper instanceof Uint8Array && compareKeys(signed, uuidSignedOrderKey(facts.upper)) > 0
    if (!belowSigned && !aboveSigned) return null
  }
  return 'out-of-bounds'
}
