// FLOAT, DOUBLE and FLOAT16 (LogicalTypes.md, on FIXED_LEN_BYTE_ARRAY(2)): the IEEE 754 values nearest
// the input, both zeros (writers hash bit patterns), NaN 'unknown'.
import { absent, addBytes, asBytes, badValue, NAN, Preset, show } from './input.js'
import { parseDecimalText } from './integer.js'

const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const f32 = new Float32Array(1)
const f32bits = new Uint32Array(f32.buffer)

/**
 * A number from a number, bigint or strict float text; a Preset when it cannot be one. Text and bigints take the
 * nearest double, as the type's own values do ('0.1', '16777217' on FLOAT) and as text parsers (strtod, Java's
 * parseDouble, DuckDB's CAST) and integer-to-float conversions do: text beyond the range is ±Infinity.
 * @param {import('./input.js').ColumnContext} ctx @param {unknown} value
 * @returns {number | Preset}
 */
function floatInput(ctx, value) {
  if (typeof value === 'number') return value
  if (typeof value === 'string') {
    const t = value.trim()
    if (FLOAT_TEXT.test(t)) return Number(t)
    switch (t.toLowerCase()) {
      case 'nan': case '+nan': case '-nan': return NaN
      case 'inf': case '+inf': case 'infinity': case '+infinity': return Infinity
      case '-inf': case '-infinity': return -Infinity
    }
    throw badValue(ctx, value, 'a number')
  }
  if (typeof value === 'bigint') {
    const x = Number(value)
    return Number.isFinite(x) ? x : absent(`${show(value)} is beyond the range of ${ctx.label}`)
  }
  throw badValue(ctx, value, 'a number')
}

/** The float32 next to finite float f in the direction of x. @param {number} f @param {number} x */
function floatNeighbor(f, x) {
  if (f === 0) return x > 0 ? 2 ** -149 : -(2 ** -149)
  f32[0] = f
  f32bits[0] += (x > f) === (f > 0) ? 1 : -1
  return f32[0]
}

const f64 = new Float64Array(1)
const u64 = new BigUint64Array(f64.buffer)
const over = (/** @type {number} */ k) => BigInt(Math.max(k, 0))

/**
 * Whether a number, bigint or float text is exactly the finite non-zero double x: not rounded to it, which may have
 * made a tie between two floats of a value on one side of it.
 * @param {unknown} value @param {number} x
 */
function isExactly(value, x) {
  if (typeof value !== 'string') return typeof value === 'number' || BigInt(x) === value
  const { digits, exp } = /** @type {import('./integer.js').DecimalText} */ (parseDecimalText(value.trim())) // FLOAT_TEXT
  if (exp < -1100) return false // a double's exact digits end by 10^-1074
  f64[0] = Math.abs(x)
  const biased = Number(u64[0] >> 52n)
  const e = Math.max(biased, 1) - 1075 // |x| = m × 2^e
  const m = (u64[0] & 0xfffffffffffffn) | (biased ? 1n << 52n : 0n)
  return BigInt(digits) * 10n ** over(exp) * 2n ** over(-e) === m * 2n ** over(e) * 10n ** over(-exp)
}

/** @param {import('./input.js').CandidateSink} sink @param {number} x */
function addFloat(sink, x) {
  if (x === 0) {
    sink.add(0)
    sink.add(-0)
  } else {
    sink.addUnique(x)
  }
}

/** Half-precision bits of finite x, rounded to nearest even; overflow gives ±Infinity. @param {number} x */
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

/** @param {number} y */
function roundHalfEven(y) {
  const f = Math.floor(y)
  const d = y - f
  if (d > 0.5) return f + 1
  if (d < 0.5) return f
  return f % 2 === 0 ? f : f + 1
}

/** @param {number} bits */
function halfValue(bits) {
  const sign = bits & 0x8000 ? -1 : 1
  const e = (bits >> 10) & 0x1f
  const m = bits & 0x3ff
  if (e === 0x1f) return m ? NaN : sign * Infinity
  return sign * (e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25))
}

const halfBytes = (/** @type {number} */ bits) => new Uint8Array([bits & 0xff, bits >> 8])

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function doubleConverter(ctx) {
  return (value, sink) => {
    const x = typeof value === 'number' ? value : floatInput(ctx, value)
    if (x instanceof Preset) return x
    if (x !== x) return NAN // eslint-disable-line no-self-compare
    addFloat(sink, x)
  }
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function floatConverter(ctx) {
  return (value, sink) => {
    const x = floatInput(ctx, value)
    if (x instanceof Preset) return x
    if (x !== x) return NAN // eslint-disable-line no-self-compare
    const f = Math.fround(x)
    // A number rounds to ±Infinity only past the range (DuckDB refuses that cast); text reads as ±Infinity there.
    if (!Number.isFinite(f) && Number.isFinite(x) && typeof value !== 'string') return absent(`${show(value)} is beyond the FLOAT range`)
    addFloat(sink, f)
    if (f !== x) {
      // Exactly halfway between two floats: a value that is x rounds to the even one (fround, DuckDB's CAST); text or a
      // bigint that only rounded to x may lie past the tie, where a writer rounding it straight to float picks the other.
      const g = floatNeighbor(f, x)
      if (Number.isFinite(g) && Math.abs(x - f) === Math.abs(g - x) && !isExactly(value, x)) addFloat(sink, g)
    }
  }
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function float16Converter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addBytes(ctx, sink, bytes)
    const x = floatInput(ctx, value)
    if (x instanceof Preset) return x
    if (x !== x) return NAN // eslint-disable-line no-self-compare
    const bits = [halfBits(x)]
    // Text reads as ±Infinity past FLOAT's range only: DuckDB reads FLOAT16 as FLOAT, where '1e5' is not Infinity.
    if (Number.isFinite(typeof value === 'string' ? Math.fround(x) : x) && (bits[0] & 0x7fff) === 0x7c00) {
      return absent(`${show(value)} is beyond the FLOAT16 range`)
    }
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
