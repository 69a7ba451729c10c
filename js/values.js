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
// Decisions, by column kind (the JSDoc of encodeProbeValues repeats them for users):
//  - null/undefined → 'unknown' (bloom filters do not record nulls).
//  - Numbers are taken at face value: a JS number is the exact double it holds. An integer literal above
//    2^53 has already been rounded by JS before it gets here; pass a bigint or a string for those.
//  - Numeric text is trimmed of surrounding whitespace. Integer columns accept decimal text with an
//    optional sign, fraction and exponent ('+42', '1e3', '1.0' are 42/1000/1; '1.5' and '1e-3' are
//    'absent' because no integer column holds them); hex ('0x10') and digit separators are BAD_VALUE.
//  - FLOAT: the float nearest the number (Math.fround). If the number lies exactly halfway between two
//    floats (where string → double → float can round differently from string → float) both are
//    candidates. A finite value that rounds to ±Infinity is 'absent'. FLOAT16 follows the same rules.
//  - Zero (FLOAT, DOUBLE, FLOAT16) is probed as both +0 and -0: writers hash bit patterns.
//  - Date text: 'YYYY-MM-DD' with 1–2 digit month/day, years of 4–9 digits with an optional sign
//    ('+012345-01-01', '-0044-03-15' astronomical) or a ' BC' / ' (BC)' suffix (DuckDB, PostgreSQL
//    output). DATE accepts a time part only when it is midnight with no offset or a zero offset
//    ('2024-01-02T00:00:00.000Z', what JSON.stringify gives for a UTC-midnight Date).
//  - Timestamp text: date, then 'T' / 't' / spaces, 'HH:MM[:SS[.fraction]]' (',' also separates the
//    fraction), then optional 'Z', 'UTC', '±HH', '±HHMM', '±HH:MM' or '±HH:MM:SS'. A date alone means
//    midnight. Hour 24 and leap seconds are BAD_VALUE. Fraction digits finer than the column's unit must
//    be zero, else 'absent'. DuckDB's 'infinity' is not accepted: pass the stored integer instead.
//  - TIMESTAMP(isAdjustedToUTC=true): text with an offset → that instant. Text without an offset →
//    the fields read as UTC AND as process-local wall-clock time. A Date → its instant.
//    TIMESTAMP(isAdjustedToUTC=false): text without an offset → its fields as written; text with an
//    offset → the fields as written AND the UTC instant. A Date → its UTC fields AND its local fields.
//    A number / bigint / integer text is the stored integer in the column's unit (not milliseconds).
//  - INT96 (legacy nanosecond timestamps, wall clock or UTC-normalized depending on the writer): like
//    TIMESTAMP(NANOS, local), plus the local-time reading of offset-free text (Spark normalizes local
//    times to UTC). A bigint / number is nanoseconds since the epoch; a Uint8Array(12) is raw.
//  - TIME: 'HH:MM[:SS[.fraction]]' ('24:00:00' allowed) with an optional offset: with an offset the
//    candidates are the time as written and the UTC time (mod 24 h). TIME(UTC) text without an offset
//    also gets the process's local offsets of this year (January and July) applied. A Date → its UTC
//    and local time of day. A number / bigint / integer text is the stored integer in the unit.
//  - DECIMAL: exact decimal text (exponents allowed), a bigint (an integer value, not the unscaled
//    one), or a number via String(number) — numbers carry ~15–17 significant digits, so pass text for
//    wider decimals. Raw bytes are accepted for FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY decimals.
//    BYTE_ARRAY decimals are probed as minimal big-endian two's complement (Java's
//    BigInteger.toByteArray, as parquet-java writes them); a writer padding them would not be found.
//  - STRING / ENUM / JSON: strings are UTF-8; numbers, bigints and booleans are probed as
//    String(value); bytes as they are. Objects (even for JSON) are BAD_VALUE: pass the text.
//    Plain BYTE_ARRAY: strings (UTF-8) and bytes only; numbers are BAD_VALUE (pass '42').
//  - Plain FIXED_LEN_BYTE_ARRAY: bytes, or a string as UTF-8; a length other than the column width is
//    'absent'.
//  - BSON, INTERVAL, VARIANT, GEOMETRY, GEOGRAPHY, UNKNOWN, unrecognised logical types, and logical
//    types misplaced on BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY (UUID on BYTE_ARRAY, UUID not 16 bytes wide,
//    ...): raw bytes only. STRING / ENUM / JSON on FIXED_LEN_BYTE_ARRAY are treated as plain.
//    On the other physical types a logical type that does not fit (DATE on INT64, TIME(MICROS) on
//    INT32, an unrecognised one) is ignored: the value is converted by the physical type alone.
//  - Raw bytes: Uint8Array (Buffer included), Uint8ClampedArray, Int8Array, DataView or ArrayBuffer.
import { ErrorCode, ParquetBloomError } from './errors.js'

const PHYSICAL_TYPES = new Set(['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'])

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const DAY_SECONDS = 86400n
const DAY_MS = 86400000
const MAX_DATE_MS = 8.64e15
const JULIAN_DAY_OF_EPOCH = 2440588n

const UNIT_PER_SECOND = { MILLIS: 1000n, MICROS: 1000000n, NANOS: 1000000000n }
const UNIT_PER_MS = { MILLIS: 1n, MICROS: 1000n, NANOS: 1000000n }
const UNIT_DIGITS = { MILLIS: 3, MICROS: 6, NANOS: 9 }


/** A verdict decided without the filter. */
class Preset {
  constructor(verdict, reason, detail) {
    this.verdict = verdict
    this.reason = reason // a stable code (js/verdicts.js)
    this.detail = detail // the sentence for people
  }
}

const absent = (detail) => new Preset('absent', 'not-representable', detail)
const NAN = new Preset('unknown', 'nan', 'NaN has many bit patterns')

// ---------------------------------------------------------------------------------------------------
// Column types: labels and logical types from hyparquet schema elements

/**
 * A human label for a column type: "INT32 (DATE)", "FIXED_LEN_BYTE_ARRAY(16) (UUID)",
 * "INT64 (TIMESTAMP(MICROS, UTC))", "INT32 (INTEGER(8, signed))", "BYTE_ARRAY".
 * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null }} column
 */
export function describeColumnType(column) {
  const physical = column?.physicalType ?? 'unknown type'
  const base = physical === 'FIXED_LEN_BYTE_ARRAY' && Number.isInteger(column.typeLength) ? `${physical}(${column.typeLength})` : String(physical)
  const logical = describeLogicalType(column?.logicalType)
  return logical ? `${base} (${logical})` : base
}

function describeLogicalType(lt) {
  if (!lt || typeof lt !== 'object') return ''
  switch (lt.type) {
    case 'INTEGER': return `INTEGER(${lt.bitWidth}, ${lt.isSigned === false ? 'unsigned' : 'signed'})`
    case 'DECIMAL': return `DECIMAL(${lt.precision}, ${lt.scale ?? 0})`
    case 'TIME':
    case 'TIMESTAMP': return `${lt.type}(${lt.unit}, ${lt.isAdjustedToUTC ? 'UTC' : 'local'})`
    case 'OTHER': return lt.name ? `OTHER(${lt.name})` : 'OTHER'
    default: return String(lt.type)
  }
}

const SIMPLE_LOGICAL = new Set(['STRING', 'ENUM', 'JSON', 'BSON', 'UUID', 'FLOAT16', 'INTERVAL', 'DATE', 'VARIANT', 'GEOMETRY', 'GEOGRAPHY', 'UNKNOWN'])

/**
 * The normalized logical type of a hyparquet SchemaElement: its `logical_type` when it is one we know,
 * else its legacy `converted_type`, else null.
 * @param {{ logical_type?: any, converted_type?: string, precision?: number, scale?: number }} element
 * @returns {object | null}
 */
export function logicalTypeFromSchemaElement(element) {
  const fromLogical = logicalFromThrift(element?.logical_type)
  if (fromLogical && fromLogical.type !== 'OTHER') return fromLogical
  // An unrecognised logical type defers to a converted type a legacy reader would have used.
  return logicalFromConverted(element) ?? fromLogical
}

function logicalFromThrift(lt) {
  if (!lt || typeof lt !== 'object') return null
  const type = lt.type
  if (type === 'NULL') return { type: 'UNKNOWN' }
  if (SIMPLE_LOGICAL.has(type)) return { type }
  switch (type) {
    case 'DECIMAL': return { type, precision: lt.precision, scale: lt.scale ?? 0 }
    case 'TIME':
    case 'TIMESTAMP': return { type, unit: lt.unit, isAdjustedToUTC: Boolean(lt.isAdjustedToUTC) }
    case 'INTEGER': return { type, bitWidth: lt.bitWidth, isSigned: lt.isSigned !== false }
  }
  if (typeof type === 'string') return { type: 'OTHER', name: type }
  // hyparquet passes union members it does not know through as { field_N: ... }
  const key = Object.keys(lt)[0]
  return { type: 'OTHER', name: key ? `LogicalType ${key.replace('field_', 'field ')}` : 'LogicalType' }
}

const CONVERTED_INTEGERS = {
  INT_8: [8, true], INT_16: [16, true], INT_32: [32, true], INT_64: [64, true],
  UINT_8: [8, false], UINT_16: [16, false], UINT_32: [32, false], UINT_64: [64, false],
}

function logicalFromConverted(element) {
  const ct = element?.converted_type
  switch (ct) {
    case undefined:
    case null: return null
    case 'UTF8': return { type: 'STRING' }
    case 'ENUM':
    case 'JSON':
    case 'BSON':
    case 'DATE':
    case 'INTERVAL': return { type: ct }
    case 'DECIMAL': return { type: 'DECIMAL', precision: element.precision, scale: element.scale ?? 0 }
    case 'TIME_MILLIS': return { type: 'TIME', unit: 'MILLIS', isAdjustedToUTC: true }
    case 'TIME_MICROS': return { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: true }
    case 'TIMESTAMP_MILLIS': return { type: 'TIMESTAMP', unit: 'MILLIS', isAdjustedToUTC: true }
    case 'TIMESTAMP_MICROS': return { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: true }
  }
  const int = CONVERTED_INTEGERS[ct]
  if (int) return { type: 'INTEGER', bitWidth: int[0], isSigned: int[1] }
  return null // MAP, MAP_KEY_VALUE, LIST annotate groups, not leaves
}

// ---------------------------------------------------------------------------------------------------
// Showing values in messages

function show(value) {
  switch (typeof value) {
    case 'string': return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)
    case 'bigint': return `${value}n`
    case 'number': return Object.is(value, -0) ? '-0' : String(value)
    case 'boolean': return String(value)
    case 'symbol': return value.toString()
    case 'function': return 'a function'
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Date(Invalid Date)' : `Date(${value.toISOString()})`
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength} bytes)`
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength} bytes)`
  if (Array.isArray(value)) return `an array of ${value.length}`
  return value === null ? 'null' : `an object (${Object.prototype.toString.call(value).slice(8, -1)})`
}

const article = (label) => (/^[AEIOU]/.test(label) ? 'an' : 'a')

function badValue(ctx, value, expected, detail) {
  return new ParquetBloomError(ErrorCode.BAD_VALUE,
    `${show(value)} is not ${expected} for ${article(ctx.label)} ${ctx.label} column${detail ? `: ${detail}` : ''}`)
}

// ---------------------------------------------------------------------------------------------------
// Candidate collection

class Sink {
  constructor(capacity) {
    /** @type {any[]} */
    this.candidates = []
    this.owners = new Int32Array(Math.max(16, capacity))
    this.owner = 0
    this.start = 0 // first candidate of the current value
  }

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
  addUnique(candidate) {
    for (let k = this.start; k < this.candidates.length; k++) if (sameCandidate(this.candidates[k], candidate)) return
    this.add(candidate)
  }

  finishOwners() {
    const n = this.candidates.length
    return n === this.owners.length ? this.owners : this.owners.slice(0, n)
  }
}

function sameCandidate(a, b) {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
    return true
  }
  return Object.is(a, b)
}

/** Raw bytes from a Uint8Array (Buffer), Uint8ClampedArray, Int8Array, DataView or ArrayBuffer; else undefined. */
function asBytes(value) {
  if (value instanceof Uint8Array) return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (value instanceof DataView || value instanceof Int8Array || value instanceof Uint8ClampedArray) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  }
  return undefined
}

/**
 * Hex text to bytes: optional 0x prefix; whitespace, ':' '-' and '_' between digits are ignored.
 * '' and '0x' are zero bytes. Used by the CLI's --hex.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function parseHexBytes(text) {
  if (typeof text !== 'string') throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${show(text)} is not hex text`)
  let t = text.trim()
  if (/^0x/i.test(t)) t = t.slice(2)
  t = t.replace(/[\s:_-]/g, '')
  if (!/^[0-9a-fA-F]*$/.test(t)) throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${show(text)} is not hex: only 0-9, a-f and separators are allowed`)
  if (t.length % 2 !== 0) throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${show(text)} is not hex: it has an odd number of digits`)
  const out = new Uint8Array(t.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.substr(i * 2, 2), 16)
  return out
}

// ---------------------------------------------------------------------------------------------------
// Exact decimal text

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/
const NON_FINITE_WORD = /^[+-]?(?:nan|inf|infinity)$/i
const FRACTION = Symbol('fraction')
const OVERFLOW = Symbol('overflow')

/**
 * '−12.340e1' → { negative: true, digits: '1234', exp: -1 }: value = ±digits × 10^exp with no leading or
 * trailing zeros in digits ('' for zero). undefined when the text is not a decimal number.
 */
function parseDecimalText(t) {
  const m = DECIMAL_TEXT.exec(t)
  if (!m) return undefined
  const intPart = m[2]
  const frac = m[3] ?? ''
  if (intPart === '' && frac === '') return undefined
  let exp = m[4] === undefined ? 0 : Math.max(-1e15, Math.min(1e15, Number(m[4])))
  const all = (intPart + frac).replace(/^0+/, '')
  if (all === '') return { negative: m[1] === '-', digits: '', exp: 0 }
  const digits = all.replace(/0+$/, '')
  exp += all.length - digits.length - frac.length
  return { negative: m[1] === '-', digits, exp }
}

/** dec × 10^shift as a bigint, FRACTION when that is not an integer, OVERFLOW when it has more than maxDigits digits. */
function decimalToBigInt(dec, shift, maxDigits) {
  if (dec.digits === '') return 0n
  const e = dec.exp + shift
  if (e < 0) return FRACTION
  if (dec.digits.length + e > maxDigits) return OVERFLOW
  const magnitude = BigInt(dec.digits) * 10n ** BigInt(e)
  return dec.negative ? -magnitude : magnitude
}

/**
 * Integer text → bigint, or a Preset for numbers that are not integers; BAD_VALUE for non-numbers.
 * `temporal`: 'infinity' / 'NaN' are BAD_VALUE (DuckDB and PostgreSQL store an 'infinity' timestamp as
 * an extreme integer, so 'absent' could be wrong).
 */
function parseIntegerText(ctx, text, expected = 'a number', temporal = false) {
  const t = text.trim()
  if (/^[+-]?\d{1,300}$/.test(t)) return BigInt(t)
  const dec = parseDecimalText(t)
  if (dec === undefined) {
    if (NON_FINITE_WORD.test(t)) {
      if (temporal) throw badValue(ctx, text, expected, INFINITY_HINT)
      return absent(`${show(text)} is not an integer`)
    }
    throw badValue(ctx, text, expected)
  }
  const value = decimalToBigInt(dec, 0, 320)
  if (value === FRACTION) return absent(`${show(text)} is not an integer`)
  if (value === OVERFLOW) return absent(`${show(text)} is out of range for ${ctx.label}`)
  return value
}

const INFINITY_HINT = "infinite dates and times have no standard Parquet encoding; pass the integer the writer stored"

/** A temporal column's integer from a number, bigint or integer text; a Preset when it cannot be an integer. */
function integerInput(ctx, value, expected) {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badValue(ctx, value, expected, INFINITY_HINT)
    if (!Number.isInteger(value)) return absent(`${show(value)} is not an integer`)
    return BigInt(value)
  }
  if (typeof value === 'string') return parseIntegerText(ctx, value, expected, true)
  throw badValue(ctx, value, expected)
}

// ---------------------------------------------------------------------------------------------------
// Floating point

const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const f32 = new Float32Array(1)
const f32bits = new Uint32Array(f32.buffer)

/** A number from a number, exactly-representable bigint or strict float text; a Preset when it cannot be one. */
function floatInput(ctx, value) {
  if (typeof value === 'number') return value
  if (typeof value === 'string') {
    const t = value.trim()
    if (FLOAT_TEXT.test(t)) {
      const x = Number(t)
      if (!Number.isFinite(x)) return absent(`${show(value)} is beyond the range of ${ctx.label}`)
      return x
    }
    switch (t.toLowerCase()) {
      case 'nan': case '+nan': case '-nan': return NaN
      case 'inf': case '+inf': case 'infinity': case '+infinity': return Infinity
      case '-inf': case '-infinity': return -Infinity
    }
    throw badValue(ctx, value, 'a number')
  }
  if (typeof value === 'bigint') {
    const x = Number(value)
    if (Number.isFinite(x) && BigInt(x) === value) return x
    return absent(`${show(value)} has no exact ${ctx.physicalType} representation`)
  }
  throw badValue(ctx, value, 'a number')
}

/** The float32 next to finite float f in the direction of x. */
function floatNeighbor(f, x) {
  if (f === 0) return x > 0 ? 2 ** -149 : -(2 ** -149)
  f32[0] = f
  f32bits[0] += (x > f) === (f > 0) ? 1 : -1
  return f32[0]
}

function addFloat(sink, x) {
  if (x === 0) {
    sink.add(0)
    sink.add(-0)
  } else {
    sink.addUnique(x)
  }
}

/** Half-precision bits of finite x, rounded to nearest even; overflow gives ±Infinity. */
function halfBits(x) {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0
  const a = Math.abs(x)
  if (a >= 65520) return sign | 0x7c00 // halfway between 65504 and 65536 rounds (to even) up to Infinity
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24) // subnormal; 1024 carries into the smallest normal
  let e = Math.floor(Math.log2(a))
  if (2 ** e > a) e--
  else if (2 ** (e + 1) <= a) e++
  return sign | (((e + 15) << 10) + roundHalfEven((a / 2 ** e) * 1024) - 1024)
}

function roundHalfEven(y) {
  const f = Math.floor(y)
  const d = y - f
  if (d > 0.5) return f + 1
  if (d < 0.5) return f
  return f % 2 === 0 ? f : f + 1
}

function halfValue(bits) {
  const sign = bits & 0x8000 ? -1 : 1
  const e = (bits >> 10) & 0x1f
  const m = bits & 0x3ff
  if (e === 0x1f) return m ? NaN : sign * Infinity
  return sign * (e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25))
}

const halfBytes = (bits) => new Uint8Array([bits & 0xff, bits >> 8])

// ---------------------------------------------------------------------------------------------------
// Dates and times

const DATE_TIME_TEXT = new RegExp(
  '^([+-]?\\d{4,9})-(\\d{1,2})-(\\d{1,2})' + // date
  '(?:(?:[Tt]|\\s+)(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?' + // time
  '(?:\\s*(Z|z|UTC|GMT|[+-]\\d{2}(?::?\\d{2}(?::?\\d{2})?)?))?)?' + // offset
  '(?:\\s*(\\(BC\\)|BC|\\(AD\\)|AD))?$', // era suffix
)
const TIME_TEXT = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?))?$/

function offsetSeconds(text) {
  if (text === undefined) return undefined
  if (!/^[+-]/.test(text)) return 0
  const digits = text.slice(1).replace(/:/g, '')
  const h = Number(digits.slice(0, 2))
  const m = Number(digits.slice(2, 4) || 0)
  const s = Number(digits.slice(4, 6) || 0)
  if (h > 23 || m > 59 || s > 59) return NaN
  return (text[0] === '-' ? -1 : 1) * (h * 3600 + m * 60 + s)
}

const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

function daysInMonth(y, m) {
  return m === 2 ? (isLeap(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/**
 * Parses date or date-time text. undefined when it does not look like one; BAD_VALUE when it does but
 * names no real date or time ('2024-02-30', '25:00').
 */
function parseDateTimeText(ctx, text) {
  const m = DATE_TIME_TEXT.exec(text.trim())
  if (!m) return undefined
  let year = Number(m[1])
  const era = m[9]
  if (era && /BC/.test(era)) {
    if (/^[+-]/.test(m[1]) || year < 1) throw badValue(ctx, text, 'a valid date', 'a BC year must be a positive year without a sign')
    year = 1 - year
  }
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12) throw badValue(ctx, text, 'a valid date', `there is no month ${month}`)
  const dim = daysInMonth(year, month)
  if (day < 1 || day > dim) throw badValue(ctx, text, 'a valid date', `${MONTH_NAMES[month - 1]} ${year} has ${dim} days`)
  const parsed = {
    days: daysFromCivil(year, month, day), hasTime: m[4] !== undefined,
    hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0), fraction: m[7] ?? '',
    offset: offsetSeconds(m[8]),
  }
  checkClock(ctx, text, parsed, false)
  return parsed
}

function checkClock(ctx, text, p, allow24) {
  const is24 = allow24 && p.hour === 24 && p.minute === 0 && p.second === 0 && !/[^0]/.test(p.fraction)
  if ((p.hour > 23 && !is24) || p.minute > 59 || p.second > 59) throw badValue(ctx, text, 'a valid time', 'hours run 0-23, minutes and seconds 0-59')
  if (Number.isNaN(p.offset)) throw badValue(ctx, text, 'a valid time', 'the UTC offset is out of range')
}

/** Fraction digits as a count of `unit`, or a Preset when non-zero digits are finer than the unit. */
function fractionIn(ctx, text, fraction, unit) {
  const digits = UNIT_DIGITS[unit]
  if (fraction.length > digits && /[^0]/.test(fraction.slice(digits))) {
    return absent(`${show(text)} has fractional seconds finer than ${unit}, which ${ctx.label} cannot hold`)
  }
  return BigInt(fraction.slice(0, digits).padEnd(digits, '0'))
}

/** The process's offsets (local − UTC, ms) under which wallMs is a local wall-clock reading. */
function localOffsetsFor(wallMs) {
  if (!(Math.abs(wallMs) <= MAX_DATE_MS - 2 * DAY_MS)) return []
  const offsets = []
  for (const probe of [wallMs - DAY_MS, wallMs, wallMs + DAY_MS]) {
    const off = -new Date(probe).getTimezoneOffset() * 60000
    if (!offsets.includes(off)) offsets.push(off)
  }
  const valid = offsets.filter((off) => -new Date(wallMs - off).getTimezoneOffset() * 60000 === off)
  return valid.length ? valid : offsets // a wall time skipped by a DST jump: try each side
}

/** Instants (in unit since the epoch) that read as `wall` on the process's local clock. */
function localReadings(wall, unit) {
  const perMs = UNIT_PER_MS[unit]
  let ms = wall / perMs
  if (wall < 0n && ms * perMs !== wall) ms -= 1n
  return localOffsetsFor(Number(ms)).map((off) => wall - BigInt(off) * perMs)
}

/** Local wall-clock fields of a Date's instant, as ms since the epoch read as UTC. */
const localFieldsMs = (date) => date.getTime() - date.getTimezoneOffset() * 60000

function validDateMs(ctx, value) {
  const ms = value.getTime()
  if (Number.isNaN(ms)) throw badValue(ctx, value, 'a valid date')
  return ms
}

// ---------------------------------------------------------------------------------------------------
// Converters: (value, sink) → undefined after adding ≥ 1 candidate, or a Preset

function resolveRule(physicalType, lt, typeLength) {
  const t = lt?.type
  switch (physicalType) {
    case 'BOOLEAN': return 'boolean'
    case 'FLOAT': return 'float'
    case 'DOUBLE': return 'double'
    case 'INT96': return 'int96'
    case 'INT32':
      if (t === 'DATE') return 'date'
      if (t === 'DECIMAL') return 'decimal'
      if (t === 'TIME' && lt.unit === 'MILLIS') return 'time'
      return 'integer'
    case 'INT64':
      if (t === 'DECIMAL') return 'decimal'
      if (t === 'TIMESTAMP' && Object.hasOwn(UNIT_PER_SECOND, lt.unit)) return 'timestamp'
      if (t === 'TIME' && (lt.unit === 'MICROS' || lt.unit === 'NANOS')) return 'time'
      return 'integer'
    case 'BYTE_ARRAY':
      if (!t) return 'text'
      if (t === 'STRING' || t === 'ENUM' || t === 'JSON') return 'text'
      if (t === 'DECIMAL') return 'decimal'
      return 'raw'
    case 'FIXED_LEN_BYTE_ARRAY':
      if (!t || t === 'STRING' || t === 'ENUM' || t === 'JSON') return 'fixed'
      if (t === 'UUID' && typeLength === 16) return 'uuid'
      if (t === 'FLOAT16' && typeLength === 2) return 'float16'
      if (t === 'DECIMAL') return 'decimal'
      return 'raw'
  }
}

function makeConverter(ctx) {
  switch (ctx.rule) {
    case 'boolean': return booleanConverter(ctx)
    case 'float': return floatConverter(ctx)
    case 'double': return doubleConverter(ctx)
    case 'integer': return integerConverter(ctx)
    case 'date': return dateConverter(ctx)
    case 'time': return timeConverter(ctx)
    case 'timestamp': return timestampConverter(ctx)
    case 'int96': return int96Converter(ctx)
    case 'decimal': return decimalConverter(ctx)
    case 'text': return textConverter(ctx)
    case 'fixed': return fixedConverter(ctx)
    case 'uuid': return uuidConverter(ctx)
    case 'float16': return float16Converter(ctx)
    case 'raw': return rawConverter(ctx)
  }
}

function booleanConverter(ctx) {
  return (value, sink) => {
    let b
    if (typeof value === 'boolean') b = value
    else if (value === 1 || value === 1n) b = true
    else if (value === 0 || value === 0n) b = false
    else if (typeof value === 'string') {
      const t = value.trim().toLowerCase()
      if (t === 'true' || t === '1') b = true
      else if (t === 'false' || t === '0') b = false
    }
    if (b === undefined) throw badValue(ctx, value, 'a boolean (true/false, 1/0)')
    sink.add(b)
  }
}

function doubleConverter(ctx) {
  return (value, sink) => {
    const x = typeof value === 'number' ? value : floatInput(ctx, value)
    if (x instanceof Preset) return x
    if (x !== x) return NAN // eslint-disable-line no-self-compare
    if (x === 0) {
      sink.add(0)
      sink.add(-0)
    } else {
      sink.add(x)
    }
  }
}

function floatConverter(ctx) {
  return (value, sink) => {
    const x = floatInput(ctx, value)
    if (x instanceof Preset) return x
    if (x !== x) return NAN // eslint-disable-line no-self-compare
    const f = Math.fround(x)
    if (typeof value === 'bigint' && f !== x) return absent(`${show(value)} has no exact FLOAT representation`)
    if (!Number.isFinite(f) && Number.isFinite(x)) return absent(`${show(value)} is beyond the FLOAT range`)
    addFloat(sink, f)
    if (f !== x) {
      // Exactly halfway between two floats: a writer rounding decimal text straight to float may pick the other one.
      const g = floatNeighbor(f, x)
      if (Number.isFinite(g) && Math.abs(x - f) === Math.abs(g - x)) addFloat(sink, g)
    }
  }
}

function float16Converter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addWidth(ctx, sink, bytes)
    const x = floatInput(ctx, value)
    if (x instanceof Preset) return x
    if (x !== x) return NAN // eslint-disable-line no-self-compare
    const bits = [halfBits(x)]
    if (Number.isFinite(x) && (bits[0] & 0x7fff) === 0x7c00) return absent(`${show(value)} is beyond the FLOAT16 range`)
    const h = halfValue(bits[0])
    if (h !== x && Number.isFinite(x)) {
      const magnitude = bits[0] & 0x7fff
      const towardsX = Math.abs(x) > Math.abs(h) ? magnitude + 1 : magnitude - 1
      const neighbor = (bits[0] & 0x8000) | towardsX
      if (towardsX >= 0 && towardsX < 0x7c00 && Math.abs(x - h) === Math.abs(halfValue(neighbor) - x)) bits.push(neighbor)
      const viaFloat = halfBits(Math.fround(x)) // a writer that goes through float32 first
      if ((viaFloat & 0x7fff) !== 0x7c00) bits.push(viaFloat)
    }
    for (const b of bits) {
      if ((b & 0x7fff) === 0) {
        sink.addUnique(halfBytes(0))
        sink.addUnique(halfBytes(0x8000))
      } else {
        sink.addUnique(halfBytes(b))
      }
    }
  }
}

function integerConverter(ctx) {
  const physBits = ctx.physicalType === 'INT32' ? 32 : 64
  const lt = ctx.logicalType
  let bits = physBits
  let signed = true
  let rangeLabel = ctx.physicalType
  if (lt?.type === 'INTEGER' && [8, 16, 32, 64].includes(lt.bitWidth)) {
    bits = Math.min(lt.bitWidth, physBits)
    signed = lt.isSigned !== false
    rangeLabel = describeLogicalType({ type: 'INTEGER', bitWidth: bits, isSigned: signed })
  }
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
  const minN = Number(min)
  const maxN = Number(max)
  const is32 = physBits === 32
  const outOfRange = (value) => absent(`${show(value)} is outside ${rangeLabel} [${min}, ${max}]`)

  const fromBigInt = (v, value, sink) => {
    if (v < min || v > max) return outOfRange(value)
    sink.add(is32 ? Number(BigInt.asIntN(32, v)) : signed ? v : BigInt.asIntN(64, v))
  }
  return (value, sink) => {
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value)) {
        if (value < minN || value > maxN) return outOfRange(value)
        sink.add(is32 ? value | 0 : BigInt(value))
        return
      }
      if (!Number.isInteger(value)) return absent(`${show(value)} is not an integer`)
      return fromBigInt(BigInt(value), value, sink)
    }
    if (typeof value === 'bigint') return fromBigInt(value, value, sink)
    if (typeof value === 'string') {
      const v = parseIntegerText(ctx, value)
      return v instanceof Preset ? v : fromBigInt(v, value, sink)
    }
    throw badValue(ctx, value, 'a number')
  }
}

/** Adds the in-range int32 / int64 stored values among `values` (bigints); a Preset when none fits. */
function addPhysicalIntegers(ctx, sink, values, value) {
  const [lo, hi] = ctx.physicalType === 'INT32' ? [BigInt(INT32_MIN), BigInt(INT32_MAX)] : [INT64_MIN, INT64_MAX]
  let added = false
  for (const v of values) {
    if (v < lo || v > hi) continue
    sink.addUnique(ctx.physicalType === 'INT32' ? Number(v) : v)
    added = true
  }
  if (!added) return absent(`${show(value)} is outside the ${ctx.physicalType} range of ${ctx.label}`)
}

const DATE_EXPECTED = "a date ('YYYY-MM-DD', a Date or a day number)"

function dateConverter(ctx) {
  return (value, sink) => {
    if (value instanceof Date) {
      const ms = validDateMs(ctx, value)
      sink.add(Math.floor(ms / DAY_MS))
      sink.addUnique(Math.floor(localFieldsMs(value) / DAY_MS))
      return
    }
    if (typeof value === 'string') {
      const p = parseDateTimeText(ctx, value)
      if (p) {
        if (p.hasTime && (p.hour || p.minute || p.second || /[^0]/.test(p.fraction) || p.offset)) {
          throw badValue(ctx, value, 'a date', "it has a time of day; pass 'YYYY-MM-DD'")
        }
        return addPhysicalIntegers(ctx, sink, [BigInt(p.days)], value)
      }
    }
    const days = integerInput(ctx, value, DATE_EXPECTED)
    if (days instanceof Preset) return days
    return addPhysicalIntegers(ctx, sink, [days], value)
  }
}

function timestampConverter(ctx) {
  const unit = ctx.logicalType.unit
  const adjusted = Boolean(ctx.logicalType.isAdjustedToUTC)
  const perSecond = UNIT_PER_SECOND[unit]
  const perMs = UNIT_PER_MS[unit]
  return (value, sink) => {
    if (value instanceof Date) {
      const ms = validDateMs(ctx, value)
      const values = [BigInt(ms) * perMs]
      if (!adjusted) values.push(BigInt(localFieldsMs(value)) * perMs)
      return addPhysicalIntegers(ctx, sink, values, value)
    }
    if (typeof value === 'string') {
      const p = parseDateTimeText(ctx, value)
      if (p) {
        const wall = wallClock(ctx, value, p, unit, perSecond)
        if (wall instanceof Preset) return wall
        const values = []
        if (p.offset !== undefined) {
          const utc = wall - BigInt(p.offset) * perSecond
          if (adjusted) values.push(utc)
          else values.push(wall, utc)
        } else {
          values.push(wall)
          if (adjusted) values.push(...localReadings(wall, unit))
        }
        return addPhysicalIntegers(ctx, sink, values, value)
      }
    }
    const v = integerInput(ctx, value, "a timestamp (ISO-8601 text, a Date or an integer in the column's unit)")
    if (v instanceof Preset) return v
    return addPhysicalIntegers(ctx, sink, [v], value)
  }
}

/** The parsed date-time's fields as a count of unit since 1970-01-01T00:00 (offset not applied). */
function wallClock(ctx, text, p, unit, perSecond) {
  const fraction = fractionIn(ctx, text, p.fraction, unit)
  if (fraction instanceof Preset) return fraction
  return (BigInt(p.days) * DAY_SECONDS + BigInt(p.hour * 3600 + p.minute * 60 + p.second)) * perSecond + fraction
}

const NANOS_PER_DAY = 86400000000000n

function int96Bytes(nanos) {
  let days = nanos / NANOS_PER_DAY
  if (nanos < 0n && days * NANOS_PER_DAY !== nanos) days -= 1n
  const julian = days + JULIAN_DAY_OF_EPOCH
  if (julian < BigInt(INT32_MIN) || julian > BigInt(INT32_MAX)) return undefined
  const out = new Uint8Array(12)
  const view = new DataView(out.buffer)
  view.setBigInt64(0, nanos - days * NANOS_PER_DAY, true)
  view.setInt32(8, Number(julian), true)
  return out
}

function int96Converter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addWidth(ctx, sink, bytes)
    let values
    const p = typeof value === 'string' ? parseDateTimeText(ctx, value) : undefined
    if (value instanceof Date) {
      values = [BigInt(validDateMs(ctx, value)) * 1000000n, BigInt(localFieldsMs(value)) * 1000000n]
    } else if (p) {
      const wall = wallClock(ctx, value, p, 'NANOS', UNIT_PER_SECOND.NANOS)
      if (wall instanceof Preset) return wall
      values = p.offset !== undefined ? [wall, wall - BigInt(p.offset) * UNIT_PER_SECOND.NANOS] : [wall, ...localReadings(wall, 'NANOS')]
    } else {
      const v = integerInput(ctx, value, 'a timestamp (ISO-8601 text, a Date, nanoseconds since the epoch or 12 raw bytes)')
      if (v instanceof Preset) return v
      values = [v]
    }
    let added = false
    for (const nanos of values) {
      const b = int96Bytes(nanos)
      if (b) {
        sink.addUnique(b)
        added = true
      }
    }
    if (!added) return absent(`${show(value)} is outside the INT96 date range`)
  }
}

function timeConverter(ctx) {
  const unit = ctx.logicalType.unit
  const adjusted = Boolean(ctx.logicalType.isAdjustedToUTC)
  const perSecond = UNIT_PER_SECOND[unit]
  const perMs = UNIT_PER_MS[unit]
  const perDay = DAY_SECONDS * perSecond
  const mod = (v) => ((v % perDay) + perDay) % perDay
  return (value, sink) => {
    if (value instanceof Date) {
      const ms = validDateMs(ctx, value)
      const values = [ms, localFieldsMs(value)].map((t) => BigInt(((t % DAY_MS) + DAY_MS) % DAY_MS) * perMs)
      return addPhysicalIntegers(ctx, sink, values, value)
    }
    if (typeof value === 'string') {
      const m = TIME_TEXT.exec(value.trim())
      if (m) {
        const p = { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0), fraction: m[4] ?? '', offset: offsetSeconds(m[5]) }
        checkClock(ctx, value, p, true)
        const fraction = fractionIn(ctx, value, p.fraction, unit)
        if (fraction instanceof Preset) return fraction
        const wall = BigInt(p.hour * 3600 + p.minute * 60 + p.second) * perSecond + fraction
        const values = [wall]
        if (p.offset !== undefined) values.push(mod(wall - BigInt(p.offset) * perSecond))
        else if (adjusted) for (const off of currentLocalOffsetsMs()) values.push(mod(wall - BigInt(off) * perMs))
        return addPhysicalIntegers(ctx, sink, values, value)
      }
    }
    const v = integerInput(ctx, value, "a time ('HH:MM:SS[.fff]', a Date or an integer in the column's unit)")
    if (v instanceof Preset) return v
    return addPhysicalIntegers(ctx, sink, [v], value)
  }
}

/** The process's UTC offsets (ms) in January and July of this year. */
function currentLocalOffsetsMs() {
  const year = new Date().getFullYear()
  const offsets = [new Date(year, 0, 1), new Date(year, 6, 1)].map((d) => -d.getTimezoneOffset() * 60000)
  return offsets[0] === offsets[1] ? [offsets[0]] : offsets
}

function decimalConverter(ctx) {
  const { precision, scale: rawScale } = ctx.logicalType
  const scale = Number.isInteger(rawScale) ? rawScale : 0
  const physical = ctx.physicalType
  const width = ctx.typeLength
  const validPrecision = Number.isInteger(precision) && precision > 0
  // Digits beyond what the physical type can hold overflow anyway; the cap only bounds the BigInt work.
  const capDigits = validPrecision ? precision
    : physical === 'INT32' ? 10 : physical === 'INT64' ? 19 : physical === 'FIXED_LEN_BYTE_ARRAY' ? Math.ceil(width * 8 * 0.302) + 1 : 100000
  const label = `DECIMAL(${precision}, ${scale})`
  return (value, sink) => {
    if (physical === 'FIXED_LEN_BYTE_ARRAY' || physical === 'BYTE_ARRAY') {
      const bytes = asBytes(value)
      if (bytes) return addWidth(ctx, sink, bytes)
    }
    let dec
    if (typeof value === 'bigint') {
      dec = parseDecimalText(value.toString())
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return absent(`${show(value)} cannot be in a ${label} column`)
      dec = parseDecimalText(String(value))
    } else if (typeof value === 'string') {
      dec = parseDecimalText(value.trim())
      if (dec === undefined) {
        if (NON_FINITE_WORD.test(value.trim())) return absent(`${show(value)} cannot be in a ${label} column`)
        throw badValue(ctx, value, 'a decimal number')
      }
    } else {
      throw badValue(ctx, value, 'a decimal number')
    }
    const unscaled = decimalToBigInt(dec, scale, capDigits)
    if (unscaled === FRACTION) return absent(`${show(value)} has more than ${scale} fractional digits`)
    if (unscaled === OVERFLOW) return absent(`${show(value)} does not fit ${label}: it needs more than ${capDigits} digits`)
    switch (physical) {
      case 'INT32':
        if (unscaled < BigInt(INT32_MIN) || unscaled > BigInt(INT32_MAX)) break
        sink.add(Number(unscaled))
        return
      case 'INT64':
        if (unscaled < INT64_MIN || unscaled > INT64_MAX) break
        sink.add(unscaled)
        return
      case 'FIXED_LEN_BYTE_ARRAY': {
        const bytes = twosComplement(unscaled, width)
        if (!bytes) break
        sink.add(bytes)
        return
      }
      case 'BYTE_ARRAY':
        sink.add(twosComplement(unscaled, minimalTwosComplementLength(unscaled)))
        return
    }
    return absent(`${show(value)} does not fit ${ctx.label}`)
  }
}

/** Bytes of Java's BigInteger.toByteArray(): the shortest two's complement, at least one byte. */
function minimalTwosComplementLength(v) {
  const magnitude = v < 0n ? -v - 1n : v
  const bitLength = magnitude === 0n ? 0 : magnitude.toString(2).length
  return (bitLength >> 3) + 1
}

/** Big-endian two's complement of v in exactly `width` bytes, or undefined when it does not fit. */
function twosComplement(v, width) {
  const bits = BigInt(width * 8)
  if (width === 0 || v < -(1n << (bits - 1n)) || v >= 1n << (bits - 1n)) return undefined
  let x = BigInt.asUintN(width * 8, v)
  const out = new Uint8Array(width)
  for (let i = width - 1; i >= 0 && x !== 0n; i--) {
    out[i] = Number(x & 0xffn)
    x >>= 8n
  }
  return out
}

function textConverter(ctx) {
  // Only annotated text columns turn numbers into text; for plain BYTE_ARRAY a number is more likely a
  // mistake (a Uint8Array spread into its byte values) than the digits the user meant.
  const numbersAsText = ctx.logicalType !== null
  return (value, sink) => {
    if (typeof value === 'string') return sink.add(value)
    const bytes = asBytes(value)
    if (bytes) return sink.add(bytes)
    if (numbersAsText && (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')) return sink.add(String(value))
    throw badValue(ctx, value, 'text or bytes', ctx.logicalType?.type === 'JSON' ? 'pass the exact JSON text the writer stored' : undefined)
  }
}

const utf8 = new TextEncoder()

/** A FIXED_LEN_BYTE_ARRAY value of the column's width; other lengths cannot be in the column. */
function addWidth(ctx, sink, bytes) {
  if (bytes.length !== ctx.typeLength) return absent(`${bytes.length} bytes cannot be in ${article(ctx.label)} ${ctx.label} column`)
  sink.add(bytes)
}

function fixedConverter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addWidth(ctx, sink, bytes)
    if (typeof value === 'string') return addWidth(ctx, sink, utf8.encode(value))
    throw badValue(ctx, value, 'bytes or text')
  }
}

const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function uuidConverter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addWidth(ctx, sink, bytes)
    if (typeof value === 'string') {
      let t = value.trim()
      if (/^urn:uuid:/i.test(t)) t = t.slice(9)
      if (t.startsWith('{') && t.endsWith('}')) t = t.slice(1, -1)
      if (UUID_HYPHENATED.test(t)) t = t.replace(/-/g, '')
      if (/^[0-9a-f]{32}$/i.test(t)) return sink.add(parseHexBytes(t))
    }
    throw badValue(ctx, value, 'a UUID', "expected 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' (hyphens, braces and urn:uuid: optional) or 16 bytes")
  }
}

function rawConverter(ctx) {
  const fixed = ctx.physicalType === 'FIXED_LEN_BYTE_ARRAY'
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return fixed ? addWidth(ctx, sink, bytes) : sink.add(bytes)
    throw badValue(ctx, value, 'raw bytes', `only raw bytes (a Uint8Array; --hex on the command line) can be probed for ${ctx.label}`)
  }
}

// ---------------------------------------------------------------------------------------------------
// Entry points

const DEFAULT_WIDTH = { UUID: 16, FLOAT16: 2, INTERVAL: 12 }

function columnContext(column) {
  if (!column || typeof column !== 'object') {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'a column type { physicalType, typeLength?, logicalType? } is required')
  }
  const { physicalType } = column
  if (!PHYSICAL_TYPES.has(physicalType)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `unknown physical type ${JSON.stringify(physicalType)}; expected one of ${[...PHYSICAL_TYPES].join(', ')}`)
  }
  const logicalType = column.logicalType && typeof column.logicalType === 'object' ? column.logicalType : null
  let typeLength
  if (physicalType === 'FIXED_LEN_BYTE_ARRAY') {
    typeLength = column.typeLength ?? DEFAULT_WIDTH[logicalType?.type]
    if (!Number.isInteger(typeLength) || typeLength <= 0) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `a FIXED_LEN_BYTE_ARRAY column needs a positive integer typeLength, got ${column.typeLength}`)
    }
  } else if (physicalType === 'INT96') {
    typeLength = 12
  }
  const ctx = { physicalType, typeLength, logicalType, label: describeColumnType({ physicalType, typeLength, logicalType }) }
  ctx.rule = resolveRule(physicalType, logicalType, typeLength)
  return ctx
}

/**
 * Converts values as a user would type them into the physical values a Parquet writer hashed into the
 * column's bloom filter (PLAIN encoding of the stored type, BloomFilter.md).
 *
 * Returns candidates in the form BloomFilter.check() takes for `physicalType` (INT32: number, INT64:
 * bigint, FLOAT/DOUBLE: number, BYTE_ARRAY: string or Uint8Array, FIXED_LEN_BYTE_ARRAY / INT96:
 * Uint8Array of the width, BOOLEAN: boolean). A value can have several candidates (0 as +0 and -0,
 * both readings of an ambiguous timestamp, ...): `owners[k]` is the index in `values` of candidate k.
 * `outcomes[i]` is `{ value }`, or `{ value, verdict, reason }` when the verdict needs no filter:
 * 'unknown' (null, NaN) or 'absent' (a value the column cannot hold: 1.5 in INT32, 300 in INT8, a
 * 3-byte value in FIXED_LEN_BYTE_ARRAY(16)). A value's verdict is its preset one, else 'maybe' when
 * any of its candidates may be in the filter, else 'absent' (combineVerdicts does this).
 *
 * Accepted input per column type is described at the top of js/values.js. Values that are not of the
 * column's kind at all ('abc' for INT32, true for DATE, '2024-02-30') throw ParquetBloomError BAD_VALUE.
 *
 * @param {{ physicalType: string, typeLength?: number, logicalType?: object | null }} column
 * @param {ArrayLike<any> | Iterable<any>} values
 * @returns {{ physicalType: string, typeLength: number | undefined, candidates: any[], owners: Int32Array,
 *   outcomes: Array<{ value: any, verdict?: 'absent' | 'unknown', reason?: string }> }}
 */
export function encodeProbeValues(column, values) {
  const ctx = columnContext(column)
  const list = valueList(values)
  const n = list.length
  const sink = new Sink(n)
  const outcomes = new Array(n)
  const convert = makeConverter(ctx)
  for (let i = 0; i < n; i++) {
    const value = list[i]
    if (value === null || value === undefined) {
      outcomes[i] = { value, verdict: 'unknown', source: 'value', reason: 'null', detail: 'bloom filters and min/max do not record nulls' }
      continue
    }
    sink.owner = i
    const start = (sink.start = sink.candidates.length)
    let preset = convert(value, sink)
    if (preset === undefined && sink.candidates.length === start) {
      // Defensive: a converter that produced nothing must not turn into a silent 'absent'.
      preset = new Preset('unknown', 'internal', 'no candidate was produced for this value')
    }
    if (preset === undefined) {
      outcomes[i] = { value }
    } else {
      sink.candidates.length = start
      outcomes[i] = { value, verdict: preset.verdict, source: 'value', reason: preset.reason, detail: preset.detail }
    }
  }
  return { physicalType: ctx.physicalType, typeLength: ctx.typeLength, candidates: sink.candidates, owners: sink.finishOwners(), outcomes }
}

function valueList(values) {
  // One Uint8Array / ArrayBuffer is one bytes value to most callers, not a list of small numbers:
  // splitting it would probe '1', '2', … and answer a false 'absent'. Make the caller say which.
  if (values instanceof Uint8Array || values instanceof ArrayBuffer || values instanceof DataView || values instanceof Uint8ClampedArray || values instanceof Int8Array) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'values is a byte array: wrap one bytes value in [ ] (or pass Array.from(bytes) to probe its numbers)')
  }
  if (Array.isArray(values) || ArrayBuffer.isView(values)) return values
  if (values != null && typeof values !== 'string' && typeof values[Symbol.iterator] === 'function') return Array.from(values)
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `values must be an array or iterable of values, got ${show(values)}; wrap a single value in [ ]`)
}

/**
 * One verdict per input value from the filter's answers for the candidates (check() results: 1 maybe,
 * 0 absent): the preset verdict, else 'maybe' when any candidate may be present, else 'absent'.
 * @param {{ owners: Int32Array, outcomes: Array<{ verdict?: string }> }} encoded
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
