// Iceberg types and values: the schema's type names to the table type model, bounds in the
// single-value binary serialization (spec Appendix D), and partition transforms (spec "Partition
// Transforms", bucket hashing by Appendix B: 32-bit Murmur3, x86 variant, seed 0).
import { bigIntToTwosComplement, twosComplementToBigInt, utf8Length, utf8Prefix } from './column-keys.js'
import { readBound } from './bound-precision.js'

/**
 * @typedef {import('./column-keys.js').TableType} TableType
 * @typedef {import('./column-keys.js').Key} Key
 * @typedef {{ name: string, arg?: number }} Transform a partition transform: its name and its argument (bucket[N], truncate[W])
 */

const utf8 = new TextEncoder()

/**
 * @param {string | { type?: string } | null | undefined} type a schema field's type: a name, or a nested type's object
 * @returns {TableType}
 */
export function icebergType(type) {
  if (typeof type !== 'string') return { kind: 'other', name: type?.type ?? 'nested' }
  const decimal = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(type)
  if (decimal) return { kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) }
  const fixed = /^fixed\[\s*(\d+)\s*\]$/.exec(type)
  if (fixed) return { kind: 'fixed', length: Number(fixed[1]) }
  const simple = [
    'boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns',
    'string', 'uuid', 'binary',
  ]
  return simple.includes(type) ? { kind: /** @type {any} */ (type) } : { kind: 'other', name: type }
}

/** @param {Uint8Array} bytes */
function view(bytes) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/**
 * A bound's key (spec Appendix D), or undefined when its bytes do not fit the type. A bound written
 * before a promotion keeps its old width (int in a long column, float in a double, a date in a
 * timestamp): js/table/bound-precision.js reads those.
 * @param {import('./column-keys.js').TableType} type
 * @param {Uint8Array} bytes
 */
export function decodeBound(type, bytes) {
  const promoted = readBound({ format: 'iceberg', type }, bytes, 'lower')
  if (promoted) return promoted.key
  const n = bytes.length
  switch (type.kind) {
    case 'boolean': return n === 1 ? BigInt(bytes[0] ? 1 : 0) : undefined
    case 'int': case 'date': return n === 4 ? BigInt(view(bytes).getInt32(0, true)) : undefined
    case 'long': case 'time': case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns':
      return n === 8 ? view(bytes).getBigInt64(0, true) : undefined
    case 'float': return n === 4 ? view(bytes).getFloat32(0, true) : undefined
    case 'double': return n === 8 ? view(bytes).getFloat64(0, true) : undefined
    case 'string': case 'binary': case 'fixed': return bytes
    case 'uuid': return n === 16 ? bytes : undefined
    default: return undefined
  }
}

/**
 * A partition value as Avro decoded it (manifest `partition` struct) to the key of the transform's result type.
 * @param {TableType} resultType
 * @param {unknown} value
 * @returns {Key | null | undefined}
 */
export function partitionKey(resultType, value) {
  if (value === null || value === undefined) return null
  switch (resultType.kind) {
    case 'boolean': return value ? 1n : 0n
    case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns': {
      // Avro longs decode as bigints (js/table/avro.js), ints as numbers: an int is a day, written before v3's
      // date → timestamp promotion (as a 4-byte bound is one, js/table/bound-precision.js).
      const days = typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined
      if (days !== undefined) return days * DAY_MICROS * (resultType.kind.endsWith('_ns') ? 1000n : 1n)
      return typeof value === 'bigint' ? value : undefined
    }
    case 'int': case 'long': case 'date': case 'time':
      return typeof value === 'bigint' ? value : typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined
    case 'float': case 'double': return typeof value === 'number' ? value : undefined
    case 'decimal': return value instanceof Uint8Array ? twosComplementToBigInt(value) : undefined
    case 'string': return typeof value === 'string' ? utf8.encode(value) : undefined
    case 'binary': case 'fixed': case 'uuid': return value instanceof Uint8Array ? new Uint8Array(value) : undefined
    default: return undefined
  }
}

/**
 * 32-bit Murmur3 (x86), seed 0, as a signed int (spec Appendix B).
 * @param {Uint8Array} bytes
 */
export function murmur3(bytes) {
  const c1 = 0xcc9e2d51
  const c2 = 0x1b873593
  let h = 0
  const blocks = bytes.length & ~3
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)
    k = Math.imul(k, c1); k = (k << 15) | (k >>> 17); k = Math.imul(k, c2)
    h ^= k; h = (h << 13) | (h >>> 19); h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  let k = 0
  switch (bytes.length & 3) {
    case 3: k ^= bytes[blocks + 2] << 16 // falls through
    case 2: k ^= bytes[blocks + 1] << 8 // falls through
    case 1: k ^= bytes[blocks]; k = Math.imul(k, c1); k = (k << 15) | (k >>> 17); k = Math.imul(k, c2); h ^= k
  }
  h ^= bytes.length
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16
  return h | 0
}

/** @param {bigint} n */
function longBytes(n) {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigInt64(0, BigInt.asIntN(64, n), true)
  return bytes
}

/**
 * The bucket hash of a key of a source type (spec Appendix B), or undefined for types without one.
 * @param {TableType} type
 * @param {Key} key
 */
export function bucketHash(type, key) {
  switch (type.kind) {
    case 'int': case 'long': case 'date': case 'time': case 'timestamp': case 'timestamptz':
      return murmur3(longBytes(/** @type {bigint} */ (key)))
    // Nanoseconds hash as their microseconds (floored, as Iceberg Java's DateTimeUtil.nanosToMicros), spec Appendix B note 3.
    case 'timestamp_ns': case 'timestamptz_ns': return murmur3(longBytes(floorDiv(/** @type {bigint} */ (key), 1000n)))
    case 'decimal': return murmur3(bigIntToTwosComplement(/** @type {bigint} */ (key)))
    case 'string': case 'binary': case 'fixed': case 'uuid': return murmur3(/** @type {Uint8Array} */ (key))
    default: return undefined // others: not ruled out
  }
}

const DAY_MICROS = 86_400_000_000n
const HOUR_MICROS = 3_600_000_000n
/** @type {(a: bigint, b: bigint) => bigint} */
const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b))

/**
 * Civil date of days since 1970-01-01 (H. Hinnant's civil_from_days).
 * @param {bigint} days
 */
function civil(days) {
  const z = Number(days) + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const m = mp + (mp < 10 ? 3 : -9)
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m }
}

/**
 * Micros (or days, for dates) of a temporal key.
 * @param {TableType} type
 * @param {bigint} key
 */
function daysOf(type, key) {
  if (type.kind === 'date') return key
  const micros = type.kind.endsWith('_ns') ? floorDiv(key, 1000n) : key
  return floorDiv(micros, DAY_MICROS)
}

/**
 * Parses a transform name ('identity', 'bucket[16]', 'truncate[4]', 'year', 'month', 'day', 'hour', 'void'), in any
 * case as Iceberg Java's Transforms.fromString (equalsIgnoreCase): 'VOID' is void.
 * @param {unknown} text
 * @returns {Transform}
 */
export function parseTransform(text) {
  const m = /^(\w+)(?:\[(\d+)\])?$/.exec(String(text).trim())
  return m ? { name: m[1].toLowerCase(), arg: m[2] === undefined ? undefined : Number(m[2]) } : { name: String(text) }
}

/**
 * Whether a transform's value is null only for a null source value (spec: every transform maps null to null), so a
 * null partition value means every row's is null. Not void (always null), nor a transform not known here (Iceberg
 * Java's UnknownTransform rules nothing out).
 * @param {Transform} transform
 */
export function nullOnlyFromNull(transform) {
  return ['identity', 'bucket', 'truncate', 'year', 'month', 'day', 'hour'].includes(transform.name)
}

/**
 * The type of a transform's result, for decoding partition values and summaries.
 * @param {Transform} transform
 * @param {TableType} sourceType
 * @returns {TableType}
 */
export function transformResultType(transform, sourceType) {
  switch (transform.name) {
    case 'identity': case 'truncate': return sourceType
    case 'bucket': case 'year': case 'month': case 'hour': return { kind: 'int' }
    case 'day': return { kind: 'date' }
    default: return { kind: 'other', name: transform.name }
  }
}

/**
 * The transform of a source key, in the result type's key space; undefined when this reader does
 * not compute it (then a partition cannot rule the value out). `void` maps every value to null, so
 * it never rules anything out either.
 * @param {Transform} transform
 * @param {TableType} type
 * @param {Key} key
 * @returns {Key | undefined}
 */
export function applyTransform(transform, type, key) {
  const temporal = ['date', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']
  switch (transform.name) {
    case 'identity': return key
    case 'bucket': {
      const hash = bucketHash(type, key)
      const buckets = transform.arg
      return hash === undefined || buckets === undefined || !(buckets > 0) ? undefined : BigInt((hash & 0x7fffffff) % buckets)
    }
    case 'truncate': {
      const w = transform.arg
      if (w === undefined || !(w > 0)) return undefined
      if (typeof key === 'bigint' && ['int', 'long', 'decimal'].includes(type.kind)) {
        const W = BigInt(w)
        return key - (((key % W) + W) % W)
      }
      if (key instanceof Uint8Array && type.kind === 'string') return utf8Length(key) <= w ? key : utf8Prefix(key, w)
      if (key instanceof Uint8Array && type.kind === 'binary') return key.subarray(0, w)
      return undefined
    }
    case 'year': case 'month': case 'day': case 'hour': {
      if (!temporal.includes(type.kind) || typeof key !== 'bigint') return undefined
      if (transform.name === 'hour') {
        if (type.kind === 'date') return undefined
        const micros = type.kind.endsWith('_ns') ? floorDiv(key, 1000n) : key
        return floorDiv(micros, HOUR_MICROS)
      }
      const days = daysOf(type, key)
      if (transform.name === 'day') return days
      const { y, m } = civil(days)
      return transform.name === 'year' ? BigInt(y - 1970) : BigInt((y - 1970) * 12 + (m - 1))
    }
    default: return undefined
  }
}

/**
 * The partition values a writer may have given a source key: the spec's (applyTransform); for truncate of an int or long,
 * also Iceberg Java's (its arithmetic wraps); for a nanosecond timestamp before 1970 in a bucket, also iceberg-rust's; for
 * a timestamp at midnight in a bucket, also the bucket of its date (a file written before v3's date → timestamp
 * promotion); for a timestamp before 1970 whose fraction is the last tick of the first second of an hour, day, month or year
 * (1969-12-31T00:00:00.999999), also Iceberg Java's, one unit earlier: its DateTimeUtil adds one tick to the
 * fraction of a negative instant but not to its seconds, and subtracts one unit from the count truncated towards
 * zero; for a day before 1970 in the last second before a midnight, also iceberg-rust's, one day later. Empty when the
 * transform is not computed here.
 * @param {Transform} transform
 * @param {TableType} type
 * @param {Key} key
 * @returns {Key[]}
 */
export function transformReadings(transform, type, key) {
  const value = applyTransform(transform, type, key)
  if (value === undefined) return []
  if (transform.name === 'truncate' && typeof key === 'bigint' && (type.kind === 'int' || type.kind === 'long')) {
    // Iceberg Java computes v - (((v % W) + W) % W) in the column's width (TruncateUtil.truncateInt/Long), which wraps near
    // its ends: int -2147483648 by 10 is 2147483646, 1500000000 by 2000000000 is -2000000000; in int for a file written
    // before the column was promoted to long.
    const readings = [value]
    for (const bits of type.kind === 'int' ? [32] : [64, 32]) {
      const java = javaTruncate(key, BigInt(/** @type {number} */ (transform.arg)), bits)
      if (java !== undefined && !readings.includes(java)) readings.push(java)
    }
    return readings
  }
  const nanos = type.kind === 'timestamp_ns' || type.kind === 'timestamptz_ns'
  if (transform.name === 'bucket' && nanos && typeof key === 'bigint' && key < 0n && key % 1000n !== 0n) {
    // Before 1970 between two microseconds: Java floors the nanoseconds to microseconds, iceberg-rust divides toward zero.
    const towardZero = applyTransform(transform, { kind: 'timestamp' }, key / 1000n)
    return towardZero === undefined || towardZero === value ? [value] : [value, towardZero]
  }
  const day = type.kind === 'timestamp' ? DAY_MICROS : type.kind === 'timestamp_ns' ? DAY_MICROS * 1000n : 0n
  if (transform.name === 'bucket' && day && typeof key === 'bigint' && key % day === 0n) {
    // v3 promotes date to timestamp (and timestamp_ns); its writers check only the current spec's fields for a transform
    // whose value changes (Redpanda's compat check), so a file of an older spec may be in the bucket of its date: a
    // midnight is both.
    const ofDate = applyTransform(transform, { kind: 'date' }, key / day)
    return ofDate === undefined || ofDate === value ? [value] : [value, ofDate]
  }
  const timestamp = ['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(type.kind)
  if (!['year', 'month', 'day', 'hour'].includes(transform.name) || !timestamp || typeof key !== 'bigint' || typeof value !== 'bigint' ||
    key >= 0n) return [value]
  const second = type.kind.endsWith('_ns') ? 1_000_000_000n : 1_000_000n
  const readings = [value]
  // iceberg-rust's day (Day::day_timestamp_micro/nano) takes the seconds toward zero, adds the fraction of the next tick
  // and truncates chrono's whole seconds and days toward zero: in the last second before a midnight before 1970 (but its
  // last tick and whole seconds), one day later (1969-12-30T23:59:59.5 is day -1, not -2).
  if (transform.name === 'day') {
    const frac = (((key + 1n) % second) + second) % second
    const rust = ((key / second) + (key <= -second && frac > 0n ? 1n : 0n)) / 86_400n - 1n
    if (rust !== value) readings.push(rust)
  }
  if ((key + 1n) % second !== 0n) return readings
  // The second holding the key starts a unit when the tick before it is in the unit before.
  const secondStart = key + 1n - second
  if (applyTransform(transform, type, secondStart - 1n) === value - 1n) readings.push(value - 1n)
  return readings
}

/**
 * Java's truncate of an integer in `bits`-bit arithmetic (each step wraps), or undefined when the value does not fit.
 * @param {bigint} v
 * @param {bigint} w
 * @param {number} bits
 */
function javaTruncate(v, w, bits) {
  const wrap = (/** @type {bigint} */ x) => BigInt.asIntN(bits, x)
  return wrap(v) === v ? wrap(v - (wrap(wrap(v % w) + w) % w)) : undefined
}

const pad2 = (/** @type {number} */ n) => String(n).padStart(2, '0')

/** @param {bigint} micros @param {boolean} zoned */
function isoOfMicros(micros, zoned) {
  const ms = Number(floorDiv(micros, 1000n))
  const fraction = String(micros - floorDiv(micros, 1000000n) * 1000000n).padStart(6, '0')
  return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}${zoned ? 'Z' : ''}`
}

/**
 * A partition value as text, as Iceberg writes it in partition paths (Transform.toHumanString):
 * dates as 2022-01-01, months as 2022-01, hours as 2022-01-01-10, decimals with their scale — what a
 * dataset `where` compares with, and what people read.
 * @param {Transform} transform
 * @param {TableType | undefined} sourceType
 * @param {unknown} raw
 * @returns {string | null}
 */
export function partitionText(transform, sourceType, raw) {
  if (raw === null || raw === undefined) return null
  const n = typeof raw === 'bigint' ? raw : typeof raw === 'number' && Number.isInteger(raw) ? BigInt(raw) : null
  const dateOf = (/** @type {bigint} */ days) => new Date(Number(days) * 86400000).toISOString().slice(0, 10)
  switch (transform.name) {
    case 'bucket': return String(raw)
    case 'year': return n === null ? String(raw) : String(1970n + n)
    case 'month': {
      if (n === null) return String(raw)
      const y = 1970n + floorDiv(n, 12n)
      return `${y}-${pad2(Number(n - floorDiv(n, 12n) * 12n) + 1)}`
    }
    case 'day': return n === null ? String(raw) : dateOf(n)
    case 'hour': {
      if (n === null) return String(raw)
      const ms = Number(n) * 3600000
      const iso = new Date(ms).toISOString()
      return `${iso.slice(0, 10)}-${iso.slice(11, 13)}`
    }
  }
  switch (sourceType?.kind) {
    case 'date': return n === null ? String(raw) : dateOf(n)
    case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns': {
      const key = partitionKey(sourceType, raw) // an int is a date's, from before the promotion
      if (typeof key !== 'bigint') return String(raw)
      return isoOfMicros(sourceType.kind.endsWith('_ns') ? floorDiv(key, 1000n) : key, sourceType.kind.startsWith('timestamptz'))
    }
    case 'decimal': {
      if (!(raw instanceof Uint8Array)) return String(raw)
      const v = twosComplementToBigInt(raw)
      const scale = sourceType.scale ?? 0
      const digits = (v < 0n ? -v : v).toString().padStart(scale + 1, '0')
      return `${v < 0n ? '-' : ''}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`
    }
    case 'uuid': {
      if (!(raw instanceof Uint8Array)) return String(raw)
      const hex = [...raw].map((b) => b.toString(16).padStart(2, '0')).join('')
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    }
    case 'binary': case 'fixed':
      return raw instanceof Uint8Array ? [...raw].map((b) => b.toString(16).padStart(2, '0')).join('') : String(raw)
    default: return String(raw)
  }
}
