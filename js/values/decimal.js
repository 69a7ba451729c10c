// DECIMAL (LogicalTypes.md): exact decimal text to the unscaled integer, as INT32, INT64 or big-endian
// two's complement: FIXED_LEN_BYTE_ARRAY of the width, BYTE_ARRAY minimal.
import { absent, addBytes, asBytes, badValue, show } from './input.js'
import {
  decimalToBigInt, FRACTION, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, NON_FINITE_WORD, OVERFLOW, parseDecimalText,
} from './integer.js'

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function decimalConverter(ctx) {
  // RULES (js/values/probe-values.js) route only DECIMAL columns here.
  const { precision, scale: rawScale } = /** @type {import('./input.js').ColumnLogicalType} */ (ctx.logicalType)
  const scale = typeof rawScale === 'number' && Number.isInteger(rawScale) ? rawScale : 0
  const physical = ctx.physicalType
  const width = /** @type {number} */ (ctx.typeLength) // read for FIXED_LEN_BYTE_ARRAY only, where columnContext set it
  // Only the physical type bounds the unscaled values: writers that do not check the precision (hyparquet-writer)
  // store 12345.6 in DECIMAL(4, 1) as the INT32 123456, and readers give it back so. Digits beyond what the
  // physical type holds overflow anyway; the cap only bounds the BigInt work.
  const capDigits = physical === 'INT32' ? 10 : physical === 'INT64' ? 19
    : physical === 'FIXED_LEN_BYTE_ARRAY' ? Math.ceil(width * 8 * 0.302) + 1 : 100000
  const label = `DECIMAL(${precision}, ${scale})`
  return (value, sink) => {
    if (physical === 'FIXED_LEN_BYTE_ARRAY' || physical === 'BYTE_ARRAY') {
      const bytes = asBytes(value)
      if (bytes) return addBytes(ctx, sink, bytes)
    }
    /** @type {import('./integer.js').DecimalText | undefined} */
    let dec
    if (typeof value === 'bigint') {
      dec = /** @type {import('./integer.js').DecimalText} */ (parseDecimalText(value.toString())) // a bigint's digits
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return absent(`${show(value)} cannot be in a ${label} column`)
      dec = /** @type {import('./integer.js').DecimalText} */ (parseDecimalText(String(value))) // a finite number's text
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
    if (unscaled === OVERFLOW) return absent(`${show(value)} does not fit ${ctx.label}`)
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
      case 'BYTE_ARRAY': {
        // LogicalTypes.md asks for big-endian two's complement, not the shortest: a writer that pads to a width
        // (hyparquet-writer given a type_length) stores 2.00 as 00 00 00 00 00 00 00 c8, which DuckDB reads as 2.00.
        // So every sign-extended width from the shortest (Java's BigInteger.toByteArray) to 32 bytes (Arrow's
        // Decimal256, wide enough for a precision of 76).
        const minimal = minimalTwosComplementLength(unscaled)
        for (let w = minimal; w <= Math.max(minimal, 32); w++) sink.add(/** @type {Uint8Array} */ (twosComplement(unscaled, w)))
        if (unscaled === 0n) sink.add(new Uint8Array(0)) // hyparquet-writer stores zero as no bytes
        return
      }
    }
    return absent(`${show(value)} does not fit ${ctx.label}`)
  }
}

/**
 * Bytes of Java's BigInteger.toByteArray(): the shortest two's complement, at least one byte.
 * @param {bigint} v
 */
function minimalTwosComplementLength(v) {
  const magnitude = v < 0n ? -v - 1n : v
  const bitLength = magnitude === 0n ? 0 : magnitude.toString(2).length
  return (bitLength >> 3) + 1
}

/** Big-endian two's complement of v in exactly `width` bytes, or undefined when it does not fit. @param {bigint} v @param {number} width */
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
