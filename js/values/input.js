// What a typed value is, for the converters: raw bytes in their many JS forms (and whether they fit a
// fixed width), hex text, and the wording of BAD_VALUE errors naming the value and the column type.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { absent } from './preset.js'

export function show(value) {
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

export function badValue(ctx, value, expected, detail) {
  return new ParquetBloomError(ErrorCode.BAD_VALUE,
    `${show(value)} is not ${expected} for ${article(ctx.label)} ${ctx.label} column${detail ? `: ${detail}` : ''}`)
}

/** Raw bytes from a Uint8Array (Buffer), Uint8ClampedArray, Int8Array, DataView or ArrayBuffer; else undefined. */
export function asBytes(value) {
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

/** A FIXED_LEN_BYTE_ARRAY value of the column's width; other lengths cannot be in the column. */
export function addWidth(ctx, sink, bytes) {
  if (bytes.length !== ctx.typeLength) return absent(`${bytes.length} bytes cannot be in ${article(ctx.label)} ${ctx.label} column`)
  sink.add(bytes)
}
