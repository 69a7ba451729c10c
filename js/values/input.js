// What converters share: raw bytes in their JS forms, hex text, BAD_VALUE errors, and Preset verdicts
// decided from the value alone (null, NaN, a value no file of the column's type could hold).
import { ErrorCode, ParquetBloomError } from '../errors.js'

/**
 * @typedef {number | bigint | string | boolean | Uint8Array | WideInt96} Candidate a physical value as a bloom filter hashes it
 *   (INT32, FLOAT, DOUBLE: number; INT64: bigint; BYTE_ARRAY: string or bytes; BOOLEAN: boolean; others: bytes)
 * @typedef {Uint8Array & { wide?: boolean }} WideInt96 INT96 bytes; `wide`: they stand for every value stored within their
 *   microsecond (text and Dates, which DuckDB compares at microseconds, as it reads INT96): a bloom filter cannot rule
 *   them out, a dictionary holding the bytes holds the value but one without them may still hold another nanosecond of
 *   it, and data pages are compared at microseconds (temporal.js int96Converter)
 * @typedef {{ add(candidate: Candidate): undefined, addUnique(candidate: Candidate): undefined }} CandidateSink
 *   where a converter puts a value's candidates (js/values/probe-values.js Sink); addUnique skips one the value already has
 * @typedef {{ type?: string, unit?: string, isAdjustedToUTC?: boolean, precision?: number, scale?: number,
 *   bitWidth?: number, isSigned?: boolean }} ColumnLogicalType a column type's logicalType as a caller gives it:
 *   every field optional, each checked where a converter reads it
 * @typedef {{ physicalType: string, typeLength: number | undefined, logicalType: ColumnLogicalType | null,
 *   label: string }} ColumnContext a column's type as converters read it (js/values/probe-values.js columnContext);
 *   typeLength: set for FIXED_LEN_BYTE_ARRAY (a positive integer) and INT96 (12)
 * @typedef {(value: unknown, sink: CandidateSink) => Preset | undefined | void} Converter one column's conversion of a
 *   value: undefined after adding its candidates, or a Preset; BAD_VALUE throws
 */

/** A value as messages show it. @param {unknown} value */
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

const article = (/** @type {string} */ label) => (/^[AEIOU]/.test(label) ? 'an' : 'a')

/** @param {{ label: string }} ctx @param {unknown} value @param {string} expected @param {string} [detail] */
export function badValue(ctx, value, expected, detail) {
  return new ParquetBloomError(ErrorCode.BAD_VALUE,
    `${show(value)} is not ${expected} for ${article(ctx.label)} ${ctx.label} column${detail ? `: ${detail}` : ''}`)
}

/**
 * Raw bytes from a Uint8Array (Buffer), Uint8ClampedArray, Int8Array, DataView or ArrayBuffer; else undefined.
 * @param {unknown} value
 * @returns {Uint8Array | undefined}
 */
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
  if (!/^[0-9a-fA-F]*$/.test(t)) {
    throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${show(text)} is not hex: only 0-9, a-f and separators are allowed`)
  }
  if (t.length % 2 !== 0) throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${show(text)} is not hex: it has an odd number of digits`)
  const out = new Uint8Array(t.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.substr(i * 2, 2), 16)
  return out
}

/**
 * Adds raw bytes; 'absent' when of another length than a fixed-width column's (BYTE_ARRAY has none).
 * @param {ColumnContext} ctx @param {CandidateSink} sink @param {Uint8Array} bytes
 * @returns {Preset | undefined}
 */
export function addBytes(ctx, sink, bytes) {
  if (ctx.physicalType !== 'BYTE_ARRAY' && bytes.length !== ctx.typeLength) {
    return absent(`${bytes.length} bytes cannot be in ${article(ctx.label)} ${ctx.label} column`)
  }
  sink.add(bytes)
}

/** A verdict decided from the value, not the filter: reason 'null', 'nan', 'not-representable' or 'internal'. */
export class Preset {
  /**
   * @param {'absent' | 'unknown'} verdict @param {'null' | 'nan' | 'not-representable' | 'internal'} reason
   * @param {string} detail
   */
  constructor(verdict, reason, detail) {
    this.verdict = verdict
    this.source = 'value'
    this.reason = reason
    this.detail = detail
  }
}

/** 'absent' for a value no file of the column's type can hold; `detail` says why. */
export const absent = (/** @type {string} */ detail) => new Preset('absent', 'not-representable', detail)

export const NULL = new Preset('unknown', 'null', 'bloom filters do not record nulls')
export const NAN = new Preset('unknown', 'nan', 'NaN has many bit patterns')
// A converter that produced nothing must not turn into a silent 'absent'.
export const NO_CANDIDATE = new Preset('unknown', 'internal', 'no candidate was produced for this value')
