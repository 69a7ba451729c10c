// What a table's per-file bound stands for when it is stored at another precision than the data it
// bounds (Delta PROTOCOL.md "Per-file Statistics" and "Type Widening"; Iceberg spec "Schema Evolution"
// and Appendix D): one rules table, a row per case. A bound becomes the keys, in the column's current
// type, of every value it may stand for; the file's lower bound is the least of them and its upper
// bound the greatest, so a value is ruled out only when no reading of the bound could hold it.
import { JsonNumber } from './exact-json.js'
import { compareKeys, twosComplementToBigInt, utf8Length, utf8Prefix, valueKeys } from './column-keys.js'

/**
 * @typedef {import('./column-keys.js').TableType} TableType
 * @typedef {import('./column-keys.js').Key} Key
 * @typedef {{ format: 'delta' | 'iceberg', type: TableType, widenedFrom?: TableType[], prefixLength?: number }} BoundContext
 *   widenedFrom: the column's earlier types (Delta `delta.typeChanges`), whose bounds old files still carry
 * @typedef {{ keys: Key[], upperPrefix?: Uint8Array }} BoundReading
 */

const DAY_MICROS = 86_400_000_000n
const MS_IN_MICROS = 1000n
const MINUTE_MICROS = 60_000_000n
// An offset at the end of a timestamp's text that is not UTC.
const NONZERO_OFFSET = /T.*[+-](?!00:?00(?::?00)?$)\d{2}:?\d{2}(?::?\d{2})?$/
// 2^44: a double's rounding (2^-53 each step) times far more steps than delta-rs takes.
const DOUBLE_SLACK = 1n << 44n
const isTimestamp = (/** @type {TableType} */ type) => type.kind === 'timestamp' || type.kind === 'timestamptz'
const isNanos = (/** @type {TableType} */ type) => type.kind === 'timestamp_ns' || type.kind === 'timestamptz_ns'
const view = (/** @type {Uint8Array} */ bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/**
 * The keys of one value read as a type (several where a value has several stored readings), or [].
 * @param {TableType} type
 * @param {unknown} value
 * @returns {Key[]}
 */
function keysAs(type, value) {
  try {
    const slot = valueKeys(type, [value])[0]
    return slot && 'keys' in slot ? slot.keys : []
  } catch {
    return []
  }
}

/**
 * The text of a Delta statistic (a JSON string, or a JsonNumber's digits), or undefined.
 * @param {unknown} raw
 */
const textOf = (raw) => (typeof raw === 'string' ? raw : raw instanceof JsonNumber ? raw.text : undefined)

/**
 * A Delta statistic as the input valueKeys takes: JSON number text (a JsonNumber's literal digits, so a
 * long or a decimal never passes through a double), a string, or a `stats_parsed` value as hyparquet
 * reads it — except a decimal, which hyparquet reads as a double.
 * @param {TableType} type
 * @param {unknown} raw
 */
function deltaInput(type, raw) {
  if (raw === null || raw === undefined) return undefined
  if (raw instanceof JsonNumber) {
    // A float's digits stay text: those a double rounds onto a tie between two floats stand for both, exact ones not.
    return type.kind === 'double' ? Number(raw.text) : raw.text
  }
  if (typeof raw === 'string') return type.kind === 'float' || type.kind === 'double' ? Number(raw) : raw
  if (type.kind === 'decimal') return undefined
  if (typeof raw === 'number' || typeof raw === 'bigint' || raw instanceof Date) return raw
  return undefined
}

/**
 * What precedes a string max's trailing tie-breaker — U+FFFD, Spark's (StatisticsCollection.truncateMaxStringAgg:
 * the first 32 UTF-16 units, then any units >= U+FFFD, then U+FFFD), or U+FFFE/U+FFFF, which a writer cutting
 * the same way may append — less a "?" just before it (half a surrogate pair cut at the limit, which Spark's UTF-8
 * encoding writes as "?"); null when the max does not end in one of them.
 * @param {Uint8Array} bytes
 */
function beforeSparkTieBreaker(bytes) {
  let n = bytes.length - 3
  if (n < 0 || bytes[n] !== 0xef || bytes[n + 1] !== 0xbf || bytes[n + 2] < 0xbd || bytes[n + 2] > 0xbf) return null
  if (n > 0 && bytes[n - 1] === 0x3f) n--
  return bytes.subarray(0, n)
}

/**
 * The rules. `reads` rows decide a bound's keys (the first that applies); `adjusts` rows then widen
 * them (every one that applies). Each row is tested in tests/js/bound-precision.test.js.
 * @type {Array<{ id: string, format: 'delta' | 'iceberg', kind: 'reads' | 'adjusts', message: string,
 *   applies: (context: BoundContext, raw: any) => boolean,
 *   read?: (context: BoundContext, raw: any) => Key[],
 *   adjust?: (context: BoundContext, reading: BoundReading, end: 'lower' | 'upper') => BoundReading }>}
 */
export const BOUND_PRECISION_RULES = [
  {
    id: 'delta-widened-from-float',
    format: 'delta',
    kind: 'reads',
    message: 'a double column widened from float: a file written before the widening stores float32 values, and its bounds are the ' +
      'floats\' shortest decimals ("3.4" for the float 3.4000000953674316); a file written after stores doubles. The bound is both',
    applies: (c) => c.type.kind === 'double' && (c.widenedFrom ?? []).some((t) => t.kind === 'float'),
    read: (c, raw) => {
      const value = deltaInput(c.type, raw)
      if (value === undefined) return []
      return [...keysAs(c.type, value), ...keysAs({ kind: 'float' }, value)]
    },
  },
  {
    id: 'delta-float-shortest-decimal',
    format: 'delta',
    kind: 'reads',
    message: 'a float column\'s bounds are JSON decimals (Spark: the float\'s shortest text; delta-rs: the double of the float): ' +
      'each stands for the float32 it rounds to, both floats when it lies halfway between two',
    applies: (c) => c.type.kind === 'float',
    read: (c, raw) => {
      const value = deltaInput(c.type, raw)
      return value === undefined ? [] : keysAs(c.type, value)
    },
  },
  {
    id: 'delta-binary-not-read',
    format: 'delta',
    kind: 'reads',
    message: 'binary bounds are not read: Spark writes none, and delta-rs writes each byte as Rust\'s ASCII escape ' +
      '("\\x00" for 0x00, "\\\\" for a backslash), text that is neither the bytes nor in their order',
    applies: (c) => c.type.kind === 'binary',
    read: () => [],
  },
  {
    id: 'delta-decimal-through-double',
    format: 'delta',
    kind: 'reads',
    message: 'delta-rs writes a decimal bound as a double (the unscaled value as f64 over 10^scale, printed shortest, nudged ' +
      'down when it rounds past the precision): past 15 digits it may be a little above the least value or below the greatest. ' +
      'Such a bound stands for every decimal within 2^-44 of it (a few units of the double\'s last place)',
    applies: (c) => c.type.kind === 'decimal' && (c.type.precision ?? 38) > 15,
    read: (c, raw) => {
      const value = deltaInput(c.type, raw)
      if (value === undefined) return []
      return keysAs(c.type, value).flatMap((k) => {
        if (typeof k !== 'bigint') return []
        const slack = (k < 0n ? -k : k) / DOUBLE_SLACK + 1n
        return [k - slack, k + slack]
      })
    },
  },
  {
    id: 'delta-exact-digits',
    format: 'delta',
    kind: 'reads',
    message: 'integers, longs and decimals are read from the literal digits, never through a double, in the column\'s current type: ' +
      'a bound written before a widening (int to long, an integer or decimal to a wider decimal, date to timestamp_ntz) denotes the ' +
      'same number or instant in the wider type (decimals of up to 15 digits, which a double holds exactly); doubles are the ' +
      'correctly rounded value of the digits',
    applies: () => true,
    read: (c, raw) => {
      const value = deltaInput(c.type, raw)
      return value === undefined ? [] : keysAs(c.type, value)
    },
  },
  {
    id: 'delta-timestamp-milliseconds',
    format: 'delta',
    kind: 'adjusts',
    message: 'timestamp bounds are written in milliseconds, truncated, over microsecond data: a bound may be up to 1 ms off either way',
    applies: (c) => isTimestamp(c.type),
    adjust: (_c, reading, end) => ({
      ...reading, keys: reading.keys.map((k) => /** @type {bigint} */ (k) + (end === 'lower' ? -MS_IN_MICROS : MS_IN_MICROS)),
    }),
  },
  {
    id: 'delta-timestamp-offset-minutes',
    format: 'delta',
    kind: 'adjusts',
    message: 'Spark writes timestamp bounds in the session time zone with the offset as +HH:MM (java.time pattern XXX), which ' +
      'drops an offset\'s seconds (Africa/Monrovia until 1972 was -00:44:30, printed -00:44): a bound with an offset other than ' +
      'Z may be up to a minute off either way',
    applies: (c, raw) => isTimestamp(c.type) && typeof textOf(raw) === 'string' && NONZERO_OFFSET.test(/** @type {string} */ (textOf(raw))),
    adjust: (_c, reading, end) => ({
      ...reading, keys: reading.keys.map((k) => /** @type {bigint} */ (k) + (end === 'lower' ? -MINUTE_MICROS : MINUTE_MICROS)),
    }),
  },
  {
    id: 'delta-string-prefix',
    format: 'delta',
    kind: 'adjusts',
    message: 'string maxima are cut to the first 32 characters (delta.dataSkippingStringPrefixLength) and a tie-breaker appended: ' +
      'an upper bound of that many characters is a prefix, and any value starting with it may be in the file. Spark counts ' +
      'UTF-16 units and appends U+FFFD, which sorts below every 4-byte UTF-8 character (and writes half a pair cut at the limit ' +
      'as "?"): a string max ending in U+FFFD is a prefix too, up to the tie-breaker (and such a "?")',
    applies: (c) => c.type.kind === 'string' || c.type.kind === 'binary',
    adjust: (c, reading, end) => {
      const hi = reading.keys.find((k) => k instanceof Uint8Array)
      if (end !== 'upper' || !(hi instanceof Uint8Array)) return reading
      const prefixes = utf8Length(hi) >= (c.prefixLength ?? 32) ? [utf8Prefix(hi, c.prefixLength ?? 32)] : []
      const beforeTieBreaker = c.type.kind === 'string' ? beforeSparkTieBreaker(hi) : null
      if (beforeTieBreaker) prefixes.push(beforeTieBreaker)
      if (prefixes.length === 0) return reading
      return { ...reading, upperPrefix: prefixes.reduce((a, b) => (b.length < a.length ? b : a)) }
    },
  },
  {
    id: 'iceberg-date-promoted-to-timestamp',
    format: 'iceberg',
    kind: 'reads',
    message: 'v3 promotes date to timestamp and timestamp_ns without rewriting bounds: a 4-byte bound of a timestamp column is a day count',
    applies: (c, bytes) => (isTimestamp(c.type) || isNanos(c.type)) && bytes.length === 4,
    read: (c, bytes) => {
      const micros = BigInt(view(bytes).getInt32(0, true)) * DAY_MICROS
      return [isNanos(c.type) ? micros * 1000n : micros]
    },
  },
  {
    id: 'iceberg-int-promoted-to-long',
    format: 'iceberg',
    kind: 'reads',
    message: 'int promoted to long keeps the old files\' 4-byte bounds: read as int32',
    applies: (c, bytes) => c.type.kind === 'long' && bytes.length === 4,
    read: (_c, bytes) => [BigInt(view(bytes).getInt32(0, true))],
  },
  {
    id: 'iceberg-float-promoted-to-double',
    format: 'iceberg',
    kind: 'reads',
    message: 'float promoted to double keeps the old files\' 4-byte bounds: read as float32, ' +
      'which widens to the double exactly as the data does',
    applies: (c, bytes) => c.type.kind === 'double' && bytes.length === 4,
    read: (_c, bytes) => [view(bytes).getFloat32(0, true)],
  },
  {
    id: 'iceberg-decimal-precision-promoted',
    format: 'iceberg',
    kind: 'reads',
    message: 'decimal precision widens with the scale fixed: an old bound\'s unscaled two\'s complement value ' +
      'is the same number, whatever its width',
    applies: (c) => c.type.kind === 'decimal',
    read: (_c, bytes) => [twosComplementToBigInt(bytes)],
  },
]

/**
 * A bound's reading for one end of the range, or null when no reading is certain enough to rule
 * anything out (the bound is then not used).
 * @param {BoundContext} context
 * @param {any} raw Delta: a JsonNumber, string or `stats_parsed` value; Iceberg: the serialized bytes
 * @param {'lower' | 'upper'} end
 * @returns {{ key: Key, upperPrefix?: Uint8Array } | null}
 */
export function readBound(context, raw, end) {
  const rules = BOUND_PRECISION_RULES.filter((r) => r.format === context.format)
  const reader = rules.find((r) => r.kind === 'reads' && r.applies(context, raw))
  if (!reader?.read) return null
  /** @type {BoundReading} */
  let reading = { keys: reader.read(context, raw) }
  for (const rule of rules) {
    if (rule.kind === 'adjusts' && rule.adjust && rule.applies(context, raw)) reading = rule.adjust(context, reading, end)
  }
  const keys = reading.keys.filter((k) => !(typeof k === 'number' && Number.isNaN(k)))
  if (keys.length === 0) return null
  const key = keys.reduce((a, b) => (end === 'lower' ? (compareKeys(b, a) < 0 ? b : a) : (compareKeys(a, b) < 0 ? b : a)))
  return reading.upperPrefix ? { key, upperPrefix: reading.upperPrefix } : { key }
}
