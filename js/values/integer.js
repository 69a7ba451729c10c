// Integer and BOOLEAN columns (INTEGER annotations: LogicalTypes.md "Signed Integers"), and numeric
// text parsed exactly, never through a double (also for temporal and decimal columns).
import { absent, badValue, Preset, show } from './input.js'

export const INT32_MIN = -2147483648
export const INT32_MAX = 2147483647
export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/
export const NON_FINITE_WORD = /^[+-]?(?:nan|inf|infinity)$/i
export const FRACTION = Symbol('fraction')
export const OVERFLOW = Symbol('overflow')

/** @typedef {{ negative: boolean, digits: string, exp: number }} DecimalText ±digits × 10^exp (parseDecimalText) */

/**
 * '−12.340e1' → { negative: true, digits: '1234', exp: -1 }: value = ±digits × 10^exp with no leading or
 * trailing zeros in digits ('' for zero). undefined when the text is not a decimal number.
 * @param {string} t
 * @returns {DecimalText | undefined}
 */
export function parseDecimalText(t) {
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

/**
 * dec × 10^shift as a bigint, FRACTION when that is not an integer, OVERFLOW when it has more than maxDigits digits.
 * @param {DecimalText} dec @param {number} shift @param {number} maxDigits
 * @returns {bigint | typeof FRACTION | typeof OVERFLOW}
 */
export function decimalToBigInt(dec, shift, maxDigits) {
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
 * @param {import('./input.js').ColumnContext} ctx @param {string} text @param {string} [expected] @param {boolean} [temporal]
 * @returns {bigint | Preset}
 */
export function parseIntegerText(ctx, text, expected = 'a number', temporal = false) {
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

/**
 * A temporal column's integer from a number, bigint or integer text; a Preset when it cannot be an integer.
 * @param {import('./input.js').ColumnContext} ctx @param {unknown} value @param {string} expected
 * @returns {bigint | Preset}
 */
export function integerInput(ctx, value, expected) {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badValue(ctx, value, expected, INFINITY_HINT)
    if (!Number.isInteger(value)) return absent(`${show(value)} is not an integer`)
    return BigInt(value)
  }
  if (typeof value === 'string') return parseIntegerText(ctx, value, expected, true)
  throw badValue(ctx, value, expected)
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function integerConverter(ctx) {
  const physBits = ctx.physicalType === 'INT32' ? 32 : 64
  const lt = ctx.logicalType
  const bits = physBits
  let signed = true
  let rangeLabel = ctx.physicalType
  // A narrower width bounds nothing a file can hold: writers that do not check it (hyparquet-writer) store 200 in
  // INT(8) as the INT32 200, and readers give it back so. Only an unsigned annotation as wide as the stored type
  // changes which values it holds (UINT_32 4294967295 is the INT32 -1).
  if (lt?.type === 'INTEGER' && lt.bitWidth !== undefined && [8, 16, 32, 64].includes(lt.bitWidth) &&
    lt.bitWidth >= physBits && lt.isSigned === false) {
    signed = false
    rangeLabel = `INTEGER(${bits}, unsigned)`
  }
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
  const minN = Number(min)
  const maxN = Number(max)
  const is32 = physBits === 32
  const outOfRange = (/** @type {unknown} */ value) => absent(`${show(value)} is outside ${rangeLabel} [${min}, ${max}]`)

  /** @param {bigint} v @param {unknown} value @param {import('./input.js').CandidateSink} sink */
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

/**
 * Adds the in-range int32 / int64 stored values among `values` (bigints); a Preset when none fits.
 * @param {import('./input.js').ColumnContext} ctx @param {import('./input.js').CandidateSink} sink
 * @param {bigint[]} values @param {unknown} value what they were made of
 * @returns {Preset | undefined}
 */
export function addPhysicalIntegers(ctx, sink, values, value) {
  const [lo, hi] = ctx.physicalType === 'INT32' ? [BigInt(INT32_MIN), BigInt(INT32_MAX)] : [INT64_MIN, INT64_MAX]
  let added = false
  for (const v of values) {
    if (v < lo || v > hi) continue
    sink.addUnique(ctx.physicalType === 'INT32' ? Number(v) : v)
    added = true
  }
  if (!added) return absent(`${show(value)} is outside the ${ctx.physicalType} range of ${ctx.label}`)
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function booleanConverter(ctx) {
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
