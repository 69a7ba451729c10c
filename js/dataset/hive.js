// Hive-style partitions (`day=2026-01-07/country=FR/part-0.parquet`): the key=value folders of a file's
// path, their types inferred the way DuckDB's read_parquet(hive_partitioning = true) infers them (DATE,
// then TIMESTAMP, then BIGINT, else VARCHAR; `__HIVE_DEFAULT_PARTITION__` and `NULL` are null), and whether a
// partition value could equal a probed value. That last answer decides files without reading them, so it
// errs towards "could": a value is ruled out only when no reading of both sides (text, integer, number,
// date, timestamp) makes them equal.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { localFieldsMs } from '../values/temporal.js'

export const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__'
// DuckDB reads a folder `key=NULL` (any case) as null too; Spark as the text: both readings are kept.
const NULL_TEXT = /^null$/i
export const PARTITION_TYPES = ['DATE', 'TIMESTAMP', 'BIGINT', 'VARCHAR']

const DATE = /^(-?\d{1,6})-(\d{1,2})-(\d{1,2})$/
const TIMESTAMP = /^(-?\d{1,6})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]00(?::?00)?)?$/
// An integer as DuckDB's hive_partitioning types one (a strict cast of the trimmed text): decimal digits with a '-' or
// none, 0x and 0b integers; never a leading zero before a digit ('01' stays text, '-03' is -3).
const BIGINT = /^(-?(?!0\d)\d+|-0\d+|0x[0-9a-f]+|0b[01]+)$/i
const TEMPORAL_START = /^\s*-?\d{1,6}([-/ \\])\d{1,2}\1\d{1,2}/
// DuckDB's casts to DATE and TIMESTAMP also take '/', ' ' or '\' between a date's fields (the same one twice).
const OTHER_DATE_SEPARATORS = /^(-?\d{1,6})([/ \\])(\d{1,2})\2(\d{1,2})(?=$|[ T])/
// How a boolean's text may read, as casts read it; a value of neither kind is not ruled out.
const TRUE_TEXT = new Set(['true', 't', '1', 'yes', 'y', 'on'])
const FALSE_TEXT = new Set(['false', 'f', '0', 'no', 'n', 'off'])
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const DAY_MICROS = 86_400_000_000n
// DuckDB's casts to DATE and TIMESTAMP also read these words (any case): a folder `d=epoch` is a DATE, 1970-01-01.
// The infinities stand beyond every date, at odd numbers no day or day number equals.
const FAR = 2n ** 100n + 1n
/** @type {Record<string, bigint>} */
const SPECIAL_DATES = { epoch: 0n, infinity: FAR, inf: FAR, '-infinity': -FAR, '-inf': -FAR }
const SPECIAL_WORD = /^\s*(?:epoch|-?inf(?:inity)?)\s*$/i

/**
 * The partitions (raw and typed) of every file that has none: one object, not two per file, for datasets of
 * 10^5 files. Never handed out (ownPartitions()): a caller may add to a file's.
 */
export const NO_PARTITIONS = Object.freeze({})

/** @template {Record<string, unknown>} P @param {P} partitions @returns {P} NO_PARTITIONS for an object without keys */
export function noneIfEmpty(partitions) {
  for (const _ in partitions) return partitions
  return /** @type {P} */ (NO_PARTITIONS)
}

/**
 * A file's partitions as its answers and views give them: its own object, a new one for NO_PARTITIONS.
 * @param {Record<string, unknown>} partitions
 */
export function ownPartitions(partitions) {
  return partitions === NO_PARTITIONS ? {} : partitions
}

/**
 * The raw partition values of a path, by key: folder segments `key=value` (URL-decoded), in path
 * order; the last segment (the file name) never counts. A key seen twice keeps its first value (DuckDB's).
 * @param {string} path '/'-separated
 * @returns {Record<string, string | null>}
 */
export function parseHivePartitions(path) {
  const segments = path.split('/')
  segments.pop()
  /** @type {Record<string, string | null>} */
  const partitions = {}
  for (const segment of segments) {
    // At the last '=', as DuckDB splits `a=b=c` (key `a=b`); writers escape an '=' of a value as %3D.
    const eq = segment.lastIndexOf('=')
    if (eq <= 0) continue
    const key = decode(segment.slice(0, eq))
    // A key seen again deeper down (`a=1/a=2/…`) keeps its first value, as DuckDB reads it.
    if (Object.prototype.hasOwnProperty.call(partitions, key)) continue
    const value = decode(segment.slice(eq + 1))
    partitions[key] = value === HIVE_NULL ? null : value
  }
  return partitions
}

/**
 * The values a file's folders may give column `key`: its folder's, and that of the first whose key differs only in case
 * (DuckDB's names ignore case: it reads `Day=1/day=2/` as day 1, and a folder `K=1` as the file's own column k; pyarrow
 * reads each key as written). `exact`: a folder is named `key`, so no value but these is possible in either reading.
 * @param {Record<string, string | null>} raw
 * @param {string} key
 */
export function partitionReadings(raw, key) {
  const exact = Object.prototype.hasOwnProperty.call(raw, key)
  /** @type {Array<string | null>} */
  const values = exact ? [raw[key]] : []
  const lower = key.toLowerCase()
  for (const other in raw) {
    if (other !== key && other.toLowerCase() === lower) {
      values.push(raw[other])
      break
    }
  }
  return { exact, values }
}

/**
 * Each run of %XX escapes decoded as UTF-8; a '%' not starting one (`100%`, `a%2Fb%zz`) stays, as DuckDB and Spark
 * read it (decoding the whole text at once would keep every escape of a text with one stray '%').
 * @param {string} text
 */
function decode(text) {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run // not UTF-8 (DuckDB refuses the path): as written
    }
  })
}

/**
 * One type per partition key over all files: the caller's (`partitioning`), else the first of DATE,
 * TIMESTAMP, BIGINT that every non-null value of the key parses as, else VARCHAR.
 * @param {Array<Record<string, string | null>>} rawPartitions
 * @param {Record<string, string>} [partitioning]
 * @returns {Record<string, string>}
 */
export function inferPartitionTypes(rawPartitions, partitioning = {}) {
  for (const [key, type] of Object.entries(partitioning)) {
    if (!PARTITION_TYPES.includes(String(type).toUpperCase())) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `partitioning.${key}: type must be one of ${PARTITION_TYPES.join(', ')}, got ${JSON.stringify(type)}`)
    }
  }
  /** @type {Map<string, string[]>} */
  const values = new Map()
  for (const partitions of rawPartitions) {
    for (const [key, value] of Object.entries(partitions)) {
      let list = values.get(key)
      if (!list) values.set(key, (list = []))
      if (value !== null && !NULL_TEXT.test(value)) list.push(value)
    }
  }
  /** @type {Record<string, string>} */
  const types = {}
  for (const [key, list] of values) {
    const given = partitioning[key]
    // VARCHAR, last, parses every value: find always finds. A key of nulls only is VARCHAR, as DuckDB types it.
    types[key] = given !== undefined ? String(given).toUpperCase()
      : /** @type {string} */ (PARTITION_TYPES.find((type) => type === 'VARCHAR' || (list.length && list.every((v) => parsesAs(type, v)))))
  }
  return types
}

/**
 * @param {string} type
 * @param {string} text
 */
function parsesAs(type, text) {
  if (type === 'DATE') return dateMicros(text) !== undefined
  if (type === 'TIMESTAMP') return timestampMicros(text) !== undefined || dateMicros(text) !== undefined
  if (type === 'BIGINT') return bigint(text) !== undefined
  return true
}

/**
 * The integer a folder's text is as a BIGINT (BIGINT above), or undefined.
 * @param {string} text
 */
function bigint(text) {
  const trimmed = text.trim()
  if (!BIGINT.test(trimmed)) return undefined
  const n = trimmed[0] === '-' ? -BigInt(trimmed.slice(1)) : BigInt(trimmed)
  return n >= INT64_MIN && n <= INT64_MAX ? n : undefined
}

/**
 * A raw partition value as its key's type: BIGINT as a number (a bigint beyond 2^53), DATE as
 * 'YYYY-MM-DD', TIMESTAMP and VARCHAR as the text; null (and `NULL`, as DuckDB reads it) is null.
 * @param {string} type
 * @param {string | null} raw
 * @returns {number | bigint | string | null}
 */
export function typedPartitionValue(type, raw) {
  if (raw === null || NULL_TEXT.test(raw)) return null
  const n = type === 'BIGINT' ? bigint(raw) : undefined
  if (n !== undefined) {
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
  }
  const date = type === 'DATE' ? DATE.exec(dashed(raw)) : null
  if (date && dateMicros(raw) !== undefined) {
    const [, y, m, d] = date
    return `${y.padStart(4, '0')}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`
  }
  return raw
}

/**
 * Whether a file whose partition key holds `raw` (null: the default partition) may hold rows whose
 * column equals `value`. False only when no reading of the two makes them equal.
 * @param {string | null} raw
 * @param {unknown} value
 */
export function partitionMayEqual(raw, value) {
  if (value === null || value === undefined) return raw === null || raw === '' || NULL_TEXT.test(raw)
  if (raw === null) return false
  if (typeof value === 'number' && Number.isNaN(value)) return true // NaN compares by bit pattern in files; do not guess
  if (value instanceof Date) {
    // As the file layer reads a Date (js/values/temporal.js): its UTC fields, or its local wall clock.
    const ms = value.getTime()
    if (Number.isNaN(ms)) return true
    const readings = [ms, localFieldsMs(ms)] // to the second (getTimezoneOffset() counts whole minutes)
    const micros = timestampMicros(raw)
    if (micros !== undefined) return readings.some((r) => BigInt(r) * 1000n === micros)
    const day = dateMicros(raw)
    if (day !== undefined) return readings.some((r) => BigInt(Math.floor(r / 86_400_000)) * DAY_MICROS === day)
    // A text this parser does not read as a date or time of day (an offset, a zone) is not ruled out.
    return value.toISOString() === raw || TEMPORAL_START.test(raw)
  }
  // Byte arrays, decimals as objects: not compared here; nor what no column holds (a function, a symbol), which
  // a file's own probe refuses (BAD_VALUE) rather than rule out by its text.
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') return true
  if (typeof value === 'boolean') return !(value ? FALSE_TEXT : TRUE_TEXT).has(raw.trim().toLowerCase())
  const text = String(value)
  if (text === raw) return true
  const a = numeric(raw)
  const b = numeric(text)
  if (a !== undefined && b !== undefined && numbersEqual(a, b)) return true
  // A day number, as the file layer takes one for a DATE column; a count of milli-, micro- or nanoseconds, as it takes one
  // for a TIMESTAMP column (of that unit: a folder has none).
  const day = dateMicros(raw)
  if (day !== undefined && typeof b === 'bigint' && b * DAY_MICROS === day) return true
  const instant = timestampMicros(raw)
  if (instant !== undefined && typeof b === 'bigint' && (b * 1000n === instant || b === instant || b === instant * 1000n)) return true
  const ta = instant ?? day
  const tb = timestampMicros(text) ?? dateMicros(text)
  if (ta !== undefined && tb !== undefined && ta === tb) return true
  // Text compared with a DATE is cast to one: a date and time stands for its day.
  if (day !== undefined && tb !== undefined && tb - (((tb % DAY_MICROS) + DAY_MICROS) % DAY_MICROS) === day) return true
  // Two dates or times this parser does not read whole (an offset, a zone name) may still be one instant.
  if (TEMPORAL_START.test(raw) && TEMPORAL_START.test(text) && (ta === undefined || tb === undefined)) return true
  return false
}

/**
 * Whether a probed value can be compared with a partition value `raw` of a key of `type` at all: not a Date or text
 * that is no number with a BIGINT key, nor text that is no date or time with a DATE or TIMESTAMP key, nor a Date with
 * a VARCHAR value that is no date or time. DuckDB refuses those comparisons (a conversion error) and a file's own
 * column of the type refuses the value (BAD_VALUE); answering `absent` for them would say a value written another way
 * (a Date asked of `dt=20260107`) is in no file.
 * @param {string | undefined} type
 * @param {unknown} value
 * @param {string | null} raw
 */
export function comparableWith(type, value, raw) {
  if (value === raw) return true // the folder's own text (`NULL`, which Spark reads as text, in a BIGINT key of nulls)
  if (type === 'BIGINT') return !(value instanceof Date) && (typeof value !== 'string' || numeric(value) !== undefined)
  if (type === 'VARCHAR' && value instanceof Date) return raw === null || NULL_TEXT.test(raw) || temporal(raw)
  return type !== 'DATE' && type !== 'TIMESTAMP' || typeof value !== 'string' || temporal(value)
}

/** @param {string} text a date or time, as DuckDB's casts read one (or may: TEMPORAL_START) */
function temporal(text) {
  return dateMicros(text) !== undefined || timestampMicros(text) !== undefined || TEMPORAL_START.test(text)
}

/**
 * @param {number | bigint} a
 * @param {number | bigint} b
 */
function numbersEqual(a, b) {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b
  return Number(a) === Number(b)
}

/**
 * An integer as a bigint, another finite number as a number, else undefined — read as DuckDB casts text to a number
 * (a folder's value typed BIGINT, or text compared with a number): '_' between digits, 0x and 0b integers.
 * @param {string} text
 */
function numeric(text) {
  const trimmed = text.trim().replace(/(?<=[0-9a-f])_(?=[0-9a-f])/gi, '')
  const unsigned = trimmed.replace(/^[+-]/, '')
  const negative = trimmed[0] === '-'
  if (/^(\d+|0x[0-9a-f]+|0b[01]+)$/i.test(unsigned)) return negative ? -BigInt(unsigned) : BigInt(unsigned)
  if (trimmed === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined
  const n = Number(trimmed)
  return Number.isFinite(n) ? n : undefined
}

/**
 * A date or timestamp's text trimmed, its date's fields separated by '-' (as DuckDB reads '2026 01 07' or '2026/01/07').
 * @param {string} text
 */
function dashed(text) {
  return text.trim().replace(OTHER_DATE_SEPARATORS, '$1-$3-$4')
}

/**
 * Microseconds since 1970-01-01 of a valid 'Y-M-D' date at midnight, or undefined.
 * @param {string} text
 */
function dateMicros(text) {
  const special = specialDate(text)
  if (special !== undefined) return special
  const m = DATE.exec(dashed(text))
  if (!m) return undefined
  const day = civilDay(Number(m[1]), Number(m[2]), Number(m[3]))
  return day === undefined ? undefined : BigInt(day) * DAY_MICROS
}

/**
 * Microseconds since 1970-01-01 of a valid 'Y-M-D h:m[:s[.f]]' timestamp (UTC), or undefined.
 * @param {string} text
 */
function timestampMicros(text) {
  const special = specialDate(text)
  if (special !== undefined) return special
  const m = TIMESTAMP.exec(dashed(text))
  if (!m) return undefined
  const day = civilDay(Number(m[1]), Number(m[2]), Number(m[3]))
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)]
  if (day === undefined || h > 23 || min > 59 || s > 60) return undefined
  const fraction = BigInt((m[7] ?? '').padEnd(6, '0').slice(0, 6) || '0')
  return BigInt(day) * DAY_MICROS + BigInt((h * 3600 + min * 60 + s) * 1_000_000) + fraction
}

/**
 * Microseconds of 'epoch' or an infinity (SPECIAL_DATES), or undefined.
 * @param {string} text
 */
function specialDate(text) {
  // Tested before any text is made: this runs for every folder and probed value a partition compares (files × values).
  if (!SPECIAL_WORD.test(text)) return undefined
  return SPECIAL_DATES[text.trim().toLowerCase()]
}

/**
 * Days since 1970-01-01 of a valid date, or undefined.
 * @param {number} y
 * @param {number} m 1-12
 * @param {number} d
 */
function civilDay(y, m, d) {
  if (m < 1 || m > 12 || d < 1) return undefined
  // Not Date.UTC, which reads years 0-99 as 1900-1999 (d=0050-03-01 was 1950's day: a Date of 0050-03-01 was absent).
  const check = new Date(0)
  const ms = check.setUTCFullYear(y, m - 1, d)
  if (check.getUTCDate() !== d || check.getUTCMonth() !== m - 1) return undefined
  return Math.round(ms / 86_400_000)
}
