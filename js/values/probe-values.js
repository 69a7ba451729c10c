// Turns the values people type (numbers, bigints, strings, Dates, bytes) into exactly the physical
// values a Parquet writer hashed into a column's bloom filter: BloomFilter.md hashes the PLAIN encoding
// of the stored physical type, so the conversion follows the column's physical + logical type.
//
// The one thing this module must never do is drop a value that could be in the file: a wrong or missing
// candidate turns into a false "absent". So ambiguous input yields several candidates (any hit means
// "maybe"), a value no file of this type can hold yields a preset 'absent' verdict with a reason, and a
// value whose stored form cannot be known yields 'unknown'. Input that is not a value of the column's
// kind at all ('abc' for INT32) is a caller error: ParquetBloomError BAD_VALUE.
//
// Each column's converter (js/values/*.js) comes from the one table below, RULES. Decisions by kind:
//  - null/undefined → 'unknown' (bloom filters do not record nulls).
//  - Numbers are taken at face value: a JS number is the exact double it holds. An integer literal above
//    2^53 has already been rounded by JS before it gets here; pass a bigint or a string for those.
//  - Numeric text is trimmed of surrounding whitespace. Integer columns accept decimal text with an
//    optional sign, fraction and exponent ('+42', '1e3', '1.0' are 42/1000/1; '1.5' and '1e-3' are
//    'absent' because no integer column holds them); hex ('0x10') and digit separators are BAD_VALUE.
//  - An INTEGER width narrower than the stored type and a DECIMAL precision bound nothing: writers that do
//    not check them store 300 in INT(8) and 12345.6 in DECIMAL(4, 1); only the stored type bounds a value.
//  - FLOAT: the float nearest the number (Math.fround); a bigint or text through its nearest double. If
//    that lies exactly halfway between two floats it rounds to the even one (as DuckDB's CAST does), and
//    text or a bigint that is not exactly that double also has the other as a candidate (string → double
//    → float can round differently from string → float). A finite number or bigint that rounds to ±Infinity is
//    'absent'; text past the range is ±Infinity, as strtod and DuckDB's CAST read it ('1e39' on FLOAT,
//    '1e400' on DOUBLE). FLOAT16 follows the same rules, text past FLOAT's range included (DuckDB reads
//    FLOAT16 as FLOAT: '1e5' is not Infinity there).
//  - Zero (FLOAT, DOUBLE, FLOAT16) is probed as both +0 and -0: writers hash bit patterns.
//  - Date text: 'YYYY-MM-DD' with 1–2 digit month/day, years of 4–9 digits with an optional sign
//    ('+012345-01-01', '-0044-03-15' astronomical) or a ' BC' / ' (BC)' suffix (DuckDB, PostgreSQL
//    output). DATE accepts a time part only when it is midnight with no offset or a zero offset
//    ('2024-01-02T00:00:00.000Z', what JSON.stringify gives for a UTC-midnight Date).
//  - Timestamp text: date, then 'T' / 't' / spaces, 'HH:MM[:SS[.fraction]]' (',' also separates the
//    fraction), then optional 'Z', 'UTC', '±HH', '±HHMM', '±HH:MM' or '±HH:MM:SS'. A date alone means
//    midnight. Hour 24 and leap seconds are BAD_VALUE. Fraction digits past microseconds (nanoseconds
//    for a NANOS column) are dropped, as DuckDB's cast drops them; those left finer than the column's
//    unit must be zero, else 'absent'. DuckDB's 'infinity' is not accepted: pass the stored integer instead.
//  - TIMESTAMP(isAdjustedToUTC=true): text with an offset → that instant. Text without an offset →
//    the fields read as UTC AND as process-local wall-clock time. A Date → its instant.
//    TIMESTAMP(isAdjustedToUTC=false): text → its fields as written, an offset ignored (as DuckDB's,
//    Spark's and PostgreSQL's casts to a timestamp without zone). A Date → its UTC AND its local fields.
//    A number / bigint / integer text is the stored integer in the column's unit (not milliseconds).
//    ConvertedType TIMESTAMP_MILLIS/MICROS alone (UTC by the spec, without zone to DuckDB): the UTC
//    column's candidates plus the fields as written (a Date: also its local fields).
//  - INT96 (legacy nanosecond timestamps, wall clock or UTC-normalized depending on the writer): text
//    with an offset → the fields as written AND the UTC instant; without, the fields AND their local-time
//    reading (Spark normalizes local times to UTC). A Date → its UTC fields AND its local fields. Each is
//    floored to its microsecond and marked `wide` (input.js WideInt96): DuckDB reads INT96 and text at
//    microseconds, so it stands for all 1000 nanoseconds an Impala or pyarrow file may store, which no bloom
//    filter can rule out. A bigint / number is nanoseconds since the epoch exactly; a Uint8Array(12) is raw.
//  - TIME: 'HH:MM[:SS[.fraction]]' ('24:00:00' allowed) with an optional offset, which a wall-clock TIME
//    ignores; TIME(UTC) text with one is the UTC time (mod 24 h), ConvertedType-only also the time as written;
//    without an offset, the time and it with the process's local offsets of this year (January and July). A Date → its UTC
//    and local time of day. A number / bigint / integer text is the stored integer in the unit.
//  - DECIMAL: exact decimal text (exponents allowed), a bigint (an integer value, not the unscaled
//    one), or a number via String(number) — numbers carry ~15–17 significant digits, so pass text for
//    wider decimals; or raw bytes (FIXED_LEN_BYTE_ARRAY: of its width, BYTE_ARRAY: any length).
//    BYTE_ARRAY decimals are probed as minimal big-endian two's complement (Java's
//    BigInteger.toByteArray, as parquet-java writes them), zero also as no bytes (hyparquet-writer);
//    a writer padding them would not be found.
//  - UUID: text in any case, hyphens, braces, urn:uuid: and 0x optional, or 16 bytes.
//  - STRING / ENUM / JSON: strings are UTF-8; numbers, bigints and booleans are probed as
//    String(value); bytes as they are. Objects (even for JSON) are BAD_VALUE: pass the text.
//    Plain BYTE_ARRAY: strings (UTF-8) and bytes only; numbers are BAD_VALUE (pass '42').
//  - Plain FIXED_LEN_BYTE_ARRAY(n): bytes ('absent' unless n long); text as its UTF-8 when that is n
//    bytes, else '0x' + 2n hex digits, else for n = 16 a UUID (arrow writers drop the annotation).
//    Other text is BAD_VALUE, never 'absent': a file of the type could hold what was meant.
//  - BSON, INTERVAL, VARIANT, GEOMETRY, GEOGRAPHY, UNKNOWN, unrecognised logical types, and logical
//    types misplaced on BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY (UUID on BYTE_ARRAY, UUID not 16 bytes wide,
//    ...): raw bytes only. STRING / ENUM / JSON on FIXED_LEN_BYTE_ARRAY are treated as plain.
//    On the other physical types a logical type that does not fit (DATE on INT64, TIME(MICROS) on
//    INT32, an unrecognised one) is ignored: the value is converted by the physical type alone.
//  - Raw bytes: Uint8Array (Buffer included), Uint8ClampedArray, Int8Array, DataView or ArrayBuffer.
//  - A preset outcome: { value, verdict, source: 'value', reason: 'null' | 'nan' | 'not-representable'
//    | 'internal', detail: why }.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { describeColumnType } from '../footer/column-type.js'
import { asBytes, NO_CANDIDATE, NULL, show } from './input.js'
import { decimalConverter } from './decimal.js'
import { doubleConverter, float16Converter, floatConverter } from './float.js'
import { booleanConverter, integerConverter } from './integer.js'
import { dateConverter, int96Converter, timeConverter, timestampConverter } from './temporal.js'
import { fixedConverter, rawConverter, textConverter, uuidConverter } from './text.js'

// Predicates on (logicalType | null, typeLength).
/**
 * @typedef {import('./input.js').ColumnLogicalType} ColumnLogicalType
 * @typedef {(lt: ColumnLogicalType | null, typeLength: number | undefined) => boolean} TypeTest
 */
/** @type {TypeTest} */
const any = () => true
/** @param {...string} types @returns {TypeTest} */
const is = (...types) => (lt) => lt !== null && lt.type !== undefined && types.includes(lt.type)
/** @param {...string} types @returns {TypeTest} */
const noneOr = (...types) => (lt) => !lt?.type || types.includes(lt.type)
/** @param {string} type @param {...string} units @returns {TypeTest} */
const unitIn = (type, ...units) => (lt) => lt?.type === type && lt.unit !== undefined && units.includes(lt.unit)
/** @param {string} type @param {number} width @returns {TypeTest} */
const withWidth = (type, width) => (lt, typeLength) => lt?.type === type && typeLength === width

// THE conversion table: [physical type, logical type predicate, converter factory], first match wins.
// A new logical type is a row here (plus its decoding in footer/column-type.js). Each physical type
// ends with a catch-all: a logical type that does not fit it (DATE on INT64, UUID on BYTE_ARRAY) is ignored.
/** @type {Array<[string, TypeTest, (ctx: import('./input.js').ColumnContext) => import('./input.js').Converter]>} */
const RULES = [
  ['BOOLEAN', any, booleanConverter],

  ['INT32', is('DATE'), dateConverter],
  ['INT32', is('DECIMAL'), decimalConverter],
  ['INT32', unitIn('TIME', 'MILLIS'), timeConverter],
  ['INT32', any, integerConverter],

  ['INT64', is('DECIMAL'), decimalConverter],
  ['INT64', unitIn('TIMESTAMP', 'MILLIS', 'MICROS', 'NANOS'), timestampConverter],
  ['INT64', unitIn('TIME', 'MICROS', 'NANOS'), timeConverter],
  ['INT64', any, integerConverter],

  ['INT96', any, int96Converter],
  ['FLOAT', any, floatConverter],
  ['DOUBLE', any, doubleConverter],

  ['BYTE_ARRAY', noneOr('STRING', 'ENUM', 'JSON'), textConverter],
  ['BYTE_ARRAY', is('DECIMAL'), decimalConverter],
  ['BYTE_ARRAY', any, rawConverter], // BSON, VARIANT, GEOMETRY, ...: only raw bytes say what was stored

  ['FIXED_LEN_BYTE_ARRAY', noneOr('STRING', 'ENUM', 'JSON'), fixedConverter],
  ['FIXED_LEN_BYTE_ARRAY', withWidth('UUID', 16), uuidConverter],
  ['FIXED_LEN_BYTE_ARRAY', withWidth('FLOAT16', 2), float16Converter],
  ['FIXED_LEN_BYTE_ARRAY', is('DECIMAL'), decimalConverter],
  ['FIXED_LEN_BYTE_ARRAY', any, rawConverter], // INTERVAL, a UUID not 16 wide, ...
]

/**
 * The column's converter: (value, sink) → undefined after adding ≥ 1 candidate, or a Preset; BAD_VALUE throws.
 * @param {import('./input.js').ColumnContext} ctx
 */
function converterFor(ctx) {
  // Found: each physical type's rows end with a catch-all, and columnContext admits only those types.
  const row = /** @type {(typeof RULES)[number]} */ (RULES.find(([physical, matches]) =>
    physical === ctx.physicalType && matches(ctx.logicalType, ctx.typeLength)))
  return row[2](ctx)
}

const PHYSICAL_TYPES = [...new Set(RULES.map(([physical]) => physical))]

// The width a logical type fixes, for a FIXED_LEN_BYTE_ARRAY column type given without typeLength.
/** @type {Record<string, number>} */
const DEFAULT_WIDTH = { UUID: 16, FLOAT16: 2, INTERVAL: 12 }

/**
 * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null } | null | undefined} column
 * @returns {import('./input.js').ColumnContext}
 */
function columnContext(column) {
  if (!column || typeof column !== 'object') {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'a column type { physicalType, typeLength?, logicalType? } is required')
  }
  const { physicalType } = column
  if (!PHYSICAL_TYPES.includes(physicalType)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `unknown physical type ${JSON.stringify(physicalType)}; expected one of ${PHYSICAL_TYPES.join(', ')}`)
  }
  // A caller's object: the converters check each field they read.
  const logicalType = column.logicalType && typeof column.logicalType === 'object'
    ? /** @type {ColumnLogicalType} */ (column.logicalType)
    : null
  /** @type {number | undefined} */
  let typeLength
  if (physicalType === 'FIXED_LEN_BYTE_ARRAY') {
    typeLength = column.typeLength ?? DEFAULT_WIDTH[String(logicalType?.type)]
    if (typeLength === undefined || !Number.isInteger(typeLength) || typeLength <= 0) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `a FIXED_LEN_BYTE_ARRAY column needs a positive integer typeLength, got ${column.typeLength}`)
    }
  } else if (physicalType === 'INT96') {
    typeLength = 12
  }
  return { physicalType, typeLength, logicalType, label: describeColumnType({ physicalType, typeLength, logicalType }) }
}

/**
 * Converts values as a user would type them (rules at the top of this file) into the candidates that
 * BloomFilter.check() takes for `physicalType` (INT32: number, INT64: bigint, FLOAT/DOUBLE: number,
 * BYTE_ARRAY: string or Uint8Array, FIXED_LEN_BYTE_ARRAY / INT96: Uint8Array, BOOLEAN: boolean). A value
 * can have several (0 as +0 and -0, ...): `owners[k]` is the index in `values` of candidate k.
 * `outcomes[i]` is `{ value }`, or its preset outcome (above) when no filter is needed. Input not of the
 * column's kind ('abc' for INT32, '2024-02-30' for DATE) throws ParquetBloomError BAD_VALUE.
 * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null }} column
 * @param {ArrayLike<unknown> | Iterable<unknown>} values
 * @returns {{ physicalType: string, typeLength: number | undefined, candidates: import('./input.js').Candidate[], owners: Int32Array,
 *   outcomes: Array<{ value: unknown } & Partial<import('./input.js').Preset>> }}
 */
export function encodeProbeValues(column, values) {
  const ctx = columnContext(column)
  const list = valueList(values)
  const n = list.length
  const sink = new Sink(n)
  const outcomes = new Array(n)
  const convert = converterFor(ctx)
  for (let i = 0; i < n; i++) {
    const value = list[i]
    if (value === null || value === undefined) {
      outcomes[i] = { value, ...NULL }
      continue
    }
    sink.owner = i
    const start = (sink.start = sink.candidates.length)
    let preset = convert(value, sink)
    if (preset === undefined && sink.candidates.length === start) preset = NO_CANDIDATE
    if (preset === undefined) {
      outcomes[i] = { value }
    } else {
      sink.candidates.length = start
      outcomes[i] = { value, ...preset }
    }
  }
  return { physicalType: ctx.physicalType, typeLength: ctx.typeLength, candidates: sink.candidates, owners: sink.finishOwners(), outcomes }
}

/**
 * One probe's values encoded once per column type, for the many files a dataset probes with them: every file
 * whose column has the same physical and logical type shares one encoding (it depends on nothing else), so
 * 20,000 files encode their values once rather than 20,000 times. The encodings are read only.
 */
export class ProbeValuesCache {
  /** @param {ArrayLike<unknown> | Iterable<unknown>} values the list every file is asked (a file asked fewer encodes its own) */
  constructor(values) {
    this.values = values
    /** @type {Array<{ column: { physicalType: string, typeLength?: number, logicalType?: object | null },
     *   encoded: ReturnType<typeof encodeProbeValues> }>} */
    this.entries = []
  }

  /**
   * encodeProbeValues(column, values), made once per column type.
   * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null }} column
   */
  encode(column) {
    for (let e = 0; e < this.entries.length; e++) if (sameColumnType(this.entries[e].column, column)) return this.entries[e].encoded
    const encoded = encodeProbeValues(column, this.values)
    this.entries.push({ column, encoded })
    return encoded
  }
}

/**
 * Whether two columns convert values alike: same physical type, width and logical type (flat records of primitives).
 * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null }} a
 * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null }} b
 */
function sameColumnType(a, b) {
  if (a.physicalType !== b.physicalType || a.typeLength !== b.typeLength) return false
  const x = /** @type {Record<string, unknown> | null | undefined} */ (a.logicalType)
  const y = /** @type {Record<string, unknown> | null | undefined} */ (b.logicalType)
  if (!x || !y) return !x === !y
  let keys = 0
  for (const key in x) {
    if (!Object.is(x[key], y[key])) return false
    keys++
  }
  for (const _ in y) keys--
  return keys === 0
}

/** The candidates of all values, and the index of the value owning each. */
class Sink {
  /** @param {number} capacity values */
  constructor(capacity) {
    /** @type {import('./input.js').Candidate[]} */
    this.candidates = []
    this.owners = new Int32Array(Math.max(16, capacity))
    this.owner = 0
    this.start = 0 // first candidate of the current value
  }

  /** @param {import('./input.js').Candidate} candidate @returns {undefined} */
  add(candidate) {
    const k = this.candidates.length
    if (k === this.owners.length) {
      const grown = new Int32Array(k * 2)
      grown.set(this.owners)
      this.owners = grown
    }
    this.owners[k] = this.owner
    this.candidates.push(candidate)
  }

  /** Adds unless the current value already has an identical candidate (same number, bigint or bytes). */
  /** @param {import('./input.js').Candidate} candidate @returns {undefined} */
  addUnique(candidate) {
    for (let k = this.start; k < this.candidates.length; k++) if (sameCandidate(this.candidates[k], candidate)) return
    this.add(candidate)
  }

  finishOwners() {
    const n = this.candidates.length
    return n === this.owners.length ? this.owners : this.owners.slice(0, n)
  }
}

/** @param {import('./input.js').Candidate} a @param {import('./input.js').Candidate} b */
function sameCandidate(a, b) {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
    return true
  }
  return Object.is(a, b)
}

/** @param {ArrayLike<unknown> | Iterable<unknown>} values @returns {ArrayLike<unknown>} */
function valueList(values) {
  // One Uint8Array / ArrayBuffer is one bytes value to most callers, not a list of small numbers:
  // splitting it would probe '1', '2', … and answer a false 'absent'. Make the caller say which.
  if (asBytes(values)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      'values is a byte array: wrap one bytes value in [ ] (or pass Array.from(bytes) to probe its numbers)')
  }
  // A typed array (a DataView was refused above as bytes).
  if (Array.isArray(values) || ArrayBuffer.isView(values)) return /** @type {ArrayLike<unknown>} */ (values)
  const iterator = values != null && typeof values !== 'string' && /** @type {Partial<Iterable<unknown>>} */ (values)[Symbol.iterator]
  if (typeof iterator === 'function') {
    return Array.from(values)
  }
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
    `values must be an array or iterable of values, got ${show(values)}; wrap a single value in [ ]`)
}

/**
 * One verdict per input value from the filter's answers for the candidates (check() results: 1 maybe,
 * 0 absent): the preset verdict, else 'maybe' when any candidate may be present, else 'absent'.
 * @param {{ owners: Int32Array, outcomes: Array<{ verdict?: 'maybe' | 'absent' | 'unknown' }> }} encoded
 * @param {ArrayLike<number>} results
 * @returns {Array<'maybe' | 'absent' | 'unknown'>}
 */
export function combineVerdicts(encoded, results) {
  const { owners, outcomes } = encoded
  if (results.length !== owners.length) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `expected ${owners.length} check results, got ${results.length}`)
  }
  const verdicts = outcomes.map((o) => o.verdict ?? 'absent')
  // Anything but a definite 0 counts as "maybe": never turn an odd answer into a false 'absent'.
  for (let k = 0; k < owners.length; k++) if (results[k] !== 0 && outcomes[owners[k]].verdict === undefined) verdicts[owners[k]] = 'maybe'
  return verdicts
}
