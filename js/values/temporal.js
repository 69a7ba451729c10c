// DATE, TIME, TIMESTAMP (LogicalTypes.md "Temporal Types") and INT96: date/time text (ISO-8601, DuckDB,
// PostgreSQL) and Dates to every stored integer (or INT96 bytes) a writer could have produced.
import { absent, addBytes, asBytes, badValue, Preset, show } from './input.js'
import { addPhysicalIntegers, INT32_MAX, INT32_MIN, integerInput } from './integer.js'

const DAY_SECONDS = 86400n
const DAY_MS = 86400000
const MAX_DATE_MS = 8.64e15

const UNIT_PER_SECOND = { MILLIS: 1000n, MICROS: 1000000n, NANOS: 1000000000n }
/** @typedef {keyof typeof UNIT_PER_SECOND} TimeUnit */
/**
 * @typedef {{ hour: number, minute: number, second: number, fraction: string, offset: number | undefined }} ClockFields
 *   a time of day as written (fraction: its digits; offset: seconds east of UTC, NaN out of range, undefined when none)
 * @typedef {ClockFields & { days: number, hasTime: boolean }} DateTimeFields days since 1970-01-01
 */

const DATE_TIME_TEXT = new RegExp(
  '^([+-]?\\d{4,9})-(\\d{1,2})-(\\d{1,2})' + // date
  '(?:(?:[Tt]|\\s+)(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?' + // time
  '(?:\\s*(Z|z|UTC|GMT|[+-]\\d{2}(?::?\\d{2}(?::?\\d{2})?)?))?)?' + // offset
  '(?:\\s*(\\(BC\\)|BC|\\(AD\\)|AD))?$', // era suffix
)
const TIME_TEXT = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?))?$/

/** @param {string | undefined} text */
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

const isLeap = (/** @type {number} */ y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
/** A month's English name (every runtime's Intl has 'en'). @param {number} m 1-12 */
const monthName = (m) => new Date(Date.UTC(2000, m - 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' })

/** @param {number} y @param {number} m */
function daysInMonth(y, m) {
  return m === 2 ? (isLeap(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
 * @param {number} y @param {number} m @param {number} d
 */
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
 * @param {import('./input.js').ColumnContext} ctx @param {string} text
 * @returns {DateTimeFields | undefined}
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
  if (day < 1 || day > dim) throw badValue(ctx, text, 'a valid date', `${monthName(month)} ${year} has ${dim} days`)
  const parsed = {
    days: daysFromCivil(year, month, day), hasTime: m[4] !== undefined,
    hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0), fraction: m[7] ?? '',
    offset: offsetSeconds(m[8]),
  }
  checkClock(ctx, text, parsed, false)
  return parsed
}

/** @param {import('./input.js').ColumnContext} ctx @param {string} text @param {ClockFields} p @param {boolean} allow24 */
function checkClock(ctx, text, p, allow24) {
  const is24 = allow24 && p.hour === 24 && p.minute === 0 && p.second === 0 && !/[^0]/.test(p.fraction)
  if ((p.hour > 23 && !is24) || p.minute > 59 || p.second > 59) {
    throw badValue(ctx, text, 'a valid time', 'hours run 0-23, minutes and seconds 0-59')
  }
  if (Number.isNaN(p.offset)) throw badValue(ctx, text, 'a valid time', 'the UTC offset is out of range')
}

/**
 * Fraction digits as a count of `unit`, or a Preset when non-zero digits are finer than the unit. Digits past
 * microseconds (past nanoseconds for NANOS) are dropped first, as DuckDB's and Spark's casts drop them: DuckDB finds
 * '… 00:00:00.0000019' at 1 µs (at 1 ms in a MILLIS column '…00.0010009'), where this answered absent.
 * @param {import('./input.js').ColumnContext} ctx @param {unknown} text (for messages) @param {string} fraction @param {TimeUnit} unit
 */
function fractionIn(ctx, text, fraction, unit) {
  const digits = String(UNIT_PER_SECOND[unit]).length - 1
  const read = fraction.slice(0, Math.max(digits, 6)) // microseconds' digits at least
  if (/[^0]/.test(read.slice(digits))) {
    return absent(`${show(text)} has fractional seconds finer than ${unit}, which ${ctx.label} cannot hold`)
  }
  return BigInt(read.slice(0, digits).padEnd(digits, '0'))
}

/** The process's offsets (local − UTC, ms) under which wallMs is a local wall-clock reading. @param {number} wallMs */
function localOffsetsFor(wallMs) {
  if (!(Math.abs(wallMs) <= MAX_DATE_MS - 2 * DAY_MS)) return []
  const offsets = [...new Set([wallMs - DAY_MS, wallMs, wallMs + DAY_MS].map((t) => localFieldsMs(t) - t))]
  const valid = offsets.filter((off) => localFieldsMs(wallMs - off) === wallMs)
  return valid.length ? valid : offsets // a wall time skipped by a DST jump: try each side
}

/**
 * Instants (in unit since the epoch) that read as `wall` on the process's local clock.
 * @param {bigint} wall
 * @param {TimeUnit} unit
 */
function localReadings(wall, unit) {
  const perMs = UNIT_PER_SECOND[unit] / 1000n
  let ms = wall / perMs
  if (wall < 0n && ms * perMs !== wall) ms -= 1n
  return localOffsetsFor(Number(ms)).map((off) => wall - BigInt(off) * perMs)
}

/**
 * The process's local wall-clock fields at an instant, as ms since the epoch read as UTC, to the second: not through
 * getTimezoneOffset(), whole minutes, which Monrovia's -00:44:30 (until 1972) and the local mean times before ~1900 are
 * not (DuckDB's ICU keeps the seconds). Date.UTC reads years 0-99 as 1900-1999: the year is set after (2000 has Feb 29).
 * @param {number} ms
 */
export function localFieldsMs(ms) {
  const d = new Date(ms)
  return new Date(Date.UTC(2000, d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()))
    .setUTCFullYear(d.getFullYear())
}

/** @param {import('./input.js').ColumnContext} ctx @param {Date} value */
function validDateMs(ctx, value) {
  const ms = value.getTime()
  if (Number.isNaN(ms)) throw badValue(ctx, value, 'a valid date')
  return ms
}

/** The process's UTC offsets (ms) in January and July of this year. */
function currentLocalOffsetsMs() {
  const year = new Date().getFullYear()
  return [...new Set([0, 6].map((month) => new Date(year, month).getTime()).map((t) => localFieldsMs(t) - t))]
}

const JULIAN_DAY_OF_EPOCH = 2440588n

const DATE_EXPECTED = "a date ('YYYY-MM-DD', a Date or a day number)"

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function dateConverter(ctx) {
  return (value, sink) => {
    if (value instanceof Date) {
      const ms = validDateMs(ctx, value)
      sink.add(Math.floor(ms / DAY_MS))
      sink.addUnique(Math.floor(localFieldsMs(ms) / DAY_MS))
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

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function timestampConverter(ctx) {
  // RULES (js/values/probe-values.js) route only TIMESTAMP(MILLIS | MICROS | NANOS) columns here.
  const lt = /** @type {{ unit: TimeUnit, isAdjustedToUTC?: boolean, legacy?: boolean }} */ (ctx.logicalType)
  const unit = lt.unit
  const adjusted = Boolean(lt.isAdjustedToUTC)
  const perSecond = UNIT_PER_SECOND[unit]
  const perMs = UNIT_PER_SECOND[unit] / 1000n
  return (value, sink) => {
    if (value instanceof Date) {
      const ms = validDateMs(ctx, value)
      const values = [BigInt(ms) * perMs]
      if (!adjusted || lt.legacy) values.push(BigInt(localFieldsMs(ms)) * perMs) // DuckDB compares a local column by local fields
      return addPhysicalIntegers(ctx, sink, values, value)
    }
    if (typeof value === 'string') {
      const p = parseDateTimeText(ctx, value)
      if (p) {
        const wall = wallClock(ctx, value, p, unit)
        if (wall instanceof Preset) return wall
        // A wall-clock column takes the fields as written, offset or not, as DuckDB's, Spark's (TIMESTAMP_NTZ) and
        // PostgreSQL's casts to a timestamp without time zone do: its UTC instant was a `present` none of them finds.
        // A ConvertedType-only column (`legacy`) is either to its readers: the instant, and the fields as DuckDB reads them.
        let values = [wall]
        if (adjusted) values = p.offset === undefined ? [wall, ...localReadings(wall, unit)] : [wall - BigInt(p.offset) * perSecond]
        if (lt.legacy) values.push(wall)
        return addPhysicalIntegers(ctx, sink, values, value)
      }
    }
    const v = integerInput(ctx, value, "a timestamp (ISO-8601 text, a Date or an integer in the column's unit)")
    if (v instanceof Preset) return v
    return addPhysicalIntegers(ctx, sink, [v], value)
  }
}

/**
 * The parsed date-time's fields as a count of unit since 1970-01-01T00:00 (offset not applied).
 * @param {import('./input.js').ColumnContext} ctx @param {unknown} text (for messages) @param {DateTimeFields} p
 * @param {TimeUnit} unit
 */
function wallClock(ctx, text, p, unit) {
  const fraction = fractionIn(ctx, text, p.fraction, unit)
  if (fraction instanceof Preset) return fraction
  return (BigInt(p.days) * DAY_SECONDS + BigInt(p.hour * 3600 + p.minute * 60 + p.second)) * UNIT_PER_SECOND[unit] + fraction
}

const NANOS_PER_DAY = 86400000000000n

const MICROS_PER_DAY = NANOS_PER_DAY / 1000n
const INT64_MAX = 2n ** 63n - 1n

/**
 * The INT96 encodings of an instant (nanoseconds since the epoch): nanoseconds of day (LE int64), then
 * the Julian day (LE int32). Writers agree between 4713 BC and year 287,000; outside it Spark (its
 * DateTimeUtils.toJulianDay, int64 microseconds) writes other bytes, which are candidates too:
 * - before 4713 BC its division truncates towards zero, leaving a negative nanosecond of day where
 *   floor division gives a non-negative one;
 * - after about year 287,566 `micros + JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY` overflows int64 and wraps
 *   (int96_from_spark.parquet stores 290000-12-31 so). Spark reads both back to the instant.
 * @param {bigint} nanos
 */
function int96Forms(nanos) {
  const julianNanos = nanos + JULIAN_DAY_OF_EPOCH * NANOS_PER_DAY
  const floorDays = julianNanos / NANOS_PER_DAY - (julianNanos % NANOS_PER_DAY < 0n ? 1n : 0n)
  const forms = [[floorDays, julianNanos - floorDays * NANOS_PER_DAY]]
  if (julianNanos % NANOS_PER_DAY < 0n) forms.push(truncatedForm(julianNanos, NANOS_PER_DAY, 1n))
  const julianMicros = nanos % 1000n === 0n ? nanos / 1000n + JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY : null
  if (julianMicros !== null && julianMicros > INT64_MAX) forms.push(truncatedForm(julianMicros - 2n ** 64n, MICROS_PER_DAY, 1000n))
  return forms.filter(([julian]) => julian >= BigInt(INT32_MIN) && julian <= BigInt(INT32_MAX)).map(([julian, nanosOfDay]) => {
    const out = new Uint8Array(12)
    const view = new DataView(out.buffer)
    view.setBigInt64(0, nanosOfDay, true)
    view.setInt32(8, Number(julian), true)
    return out
  })
}

/**
 * Days and time of day by truncating division (BigInt's, as Java's), the time of day in nanoseconds.
 * @param {bigint} julian @param {bigint} perDay @param {bigint} nanosPerUnit
 * @returns {bigint[]}
 */
function truncatedForm(julian, perDay, nanosPerUnit) {
  const days = julian / perDay
  return [days, (julian - days * perDay) * nanosPerUnit]
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function int96Converter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addBytes(ctx, sink, bytes)
    // DuckDB reads INT96 at microseconds, dropping the stored nanoseconds, and text at microseconds too: text and a Date
    // stand for every value stored within their microsecond ('….123456' finds Impala's ….123456789, '….1234567' Spark's
    // ….123456). Their candidates are that microsecond's forms, marked `wide` (input.js Candidate); a bigint is exact.
    let wide = true
    let values
    const p = typeof value === 'string' ? parseDateTimeText(ctx, value) : undefined
    if (value instanceof Date) {
      values = [validDateMs(ctx, value), localFieldsMs(value.getTime())].map((ms) => BigInt(ms) * 1000000n)
    } else if (p) {
      const wall = wallClock(ctx, value, p, 'NANOS')
      if (wall instanceof Preset) return wall
      values = p.offset !== undefined ? [wall, wall - BigInt(p.offset * 1e9)] : [wall, ...localReadings(wall, 'NANOS')]
    } else {
      const v = integerInput(ctx, value, 'a timestamp (ISO-8601 text, a Date, nanoseconds since the epoch or 12 raw bytes)')
      if (v instanceof Preset) return v
      values = [v]
      wide = false
    }
    let added = false
    for (const nanos of values) {
      for (const b of int96Forms(wide ? nanos - ((nanos % 1000n) + 1000n) % 1000n : nanos)) {
        sink.addUnique(Object.assign(b, { wide }))
        added = true
      }
    }
    if (!added) return absent(`${show(value)} is outside the INT96 date range`)
  }
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function timeConverter(ctx) {
  // RULES (js/values/probe-values.js) route only TIME(MILLIS | MICROS | NANOS) columns here.
  const lt = /** @type {{ unit: TimeUnit, isAdjustedToUTC?: boolean, legacy?: boolean }} */ (ctx.logicalType)
  const unit = lt.unit
  const adjusted = Boolean(lt.isAdjustedToUTC)
  const perSecond = UNIT_PER_SECOND[unit]
  const perMs = UNIT_PER_SECOND[unit] / 1000n
  const perDay = DAY_SECONDS * perSecond
  const mod = (/** @type {bigint} */ v) => ((v % perDay) + perDay) % perDay
  return (value, sink) => {
    if (value instanceof Date) {
      const ms = validDateMs(ctx, value)
      const values = [ms, localFieldsMs(ms)].map((t) => BigInt(((t % DAY_MS) + DAY_MS) % DAY_MS) * perMs)
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
        // A wall-clock TIME ignores an offset, as a timestamp's (DuckDB reads '14:00+02' as TIME 14:00); a UTC one takes the
        // UTC time alone (its 14:00 was a `present` for 14:00Z), a `legacy` one both (DuckDB reads it as a wall-clock TIME).
        const values = [wall]
        if (adjusted && p.offset !== undefined) values[lt.legacy ? 1 : 0] = mod(wall - BigInt(p.offset) * perSecond)
        else if (adjusted) for (const off of currentLocalOffsetsMs()) values.push(mod(wall - BigInt(off) * perMs))
        return addPhysicalIntegers(ctx, sink, values, value)
      }
    }
    const v = integerInput(ctx, value, "a time ('HH:MM:SS[.fff]', a Date or an integer in the column's unit)")
    if (v instanceof Preset) return v
    return addPhysicalIntegers(ctx, sink, [v], value)
  }
}
