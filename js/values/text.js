// Byte columns: STRING / ENUM / JSON, plain BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, UUID (LogicalTypes.md:
// 16 big-endian bytes) and types only raw bytes can be probed for.
import { addBytes, asBytes, badValue, parseHexBytes } from './input.js'

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function textConverter(ctx) {
  // Only annotated text columns turn numbers into text; for plain BYTE_ARRAY a number is more likely a
  // mistake (a Uint8Array spread into its byte values) than the digits the user meant.
  const numbersAsText = ctx.logicalType !== null
  return (value, sink) => {
    if (typeof value === 'string') return sink.add(value)
    const bytes = asBytes(value)
    if (bytes) return sink.add(bytes)
    if (numbersAsText && (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')) {
      return sink.add(String(value))
    }
    throw badValue(ctx, value, 'text or bytes', ctx.logicalType?.type === 'JSON' ? 'pass the exact JSON text the writer stored' : undefined)
  }
}

const utf8 = new TextEncoder()

const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The 16 bytes of UUID text in any case, with or without hyphens, braces, urn:uuid: or 0x; else undefined. @param {string} text */
function uuidTextBytes(text) {
  let t = text.trim().replace(/^(urn:uuid:|0x)/i, '')
  if (t.startsWith('{') && t.endsWith('}')) t = t.slice(1, -1)
  if (UUID_HYPHENATED.test(t)) t = t.replace(/-/g, '')
  return /^[0-9a-f]{32}$/i.test(t) ? parseHexBytes(t) : undefined
}

// Text as n bytes: its UTF-8, '0x' + 2n hex digits or, for n = 16, a UUID. They differ in length: one fits.
/** @param {string} text @param {number} n */
function fixedText(text, n) {
  const encoded = utf8.encode(text)
  if (encoded.length === n) return encoded
  const t = text.trim()
  if (t.length === 2 * n + 2 && /^0x[0-9a-f]+$/i.test(t)) return parseHexBytes(t)
  if (n === 16) return uuidTextBytes(t)
}

// Text no file of the type could hold is BAD_VALUE, never a silent 'absent'.
/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function fixedConverter(ctx) {
  const n = /** @type {number} */ (ctx.typeLength) // FIXED_LEN_BYTE_ARRAY: columnContext checked it
  return (value, sink) => {
    const bytes = asBytes(value) ?? (typeof value === 'string' ? fixedText(value, n) : undefined)
    if (bytes) return addBytes(ctx, sink, bytes)
    if (typeof value !== 'string') throw badValue(ctx, value, 'bytes or text')
    throw badValue(ctx, value, 'a value', `its UTF-8 is ${utf8.encode(value).length} bytes; expected text of ${n} UTF-8 bytes, ` +
      `'0x' + ${2 * n} hex digits${n === 16 ? ', a UUID' : ''} or ${n} raw bytes`)
  }
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function uuidConverter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addBytes(ctx, sink, bytes)
    const uuid = typeof value === 'string' ? uuidTextBytes(value) : undefined
    if (uuid) return sink.add(uuid)
    throw badValue(ctx, value, 'a UUID',
      "expected 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' (hyphens, braces and urn:uuid: optional) or 16 bytes")
  }
}

/** @param {import('./input.js').ColumnContext} ctx @returns {import('./input.js').Converter} */
export function rawConverter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addBytes(ctx, sink, bytes)
    throw badValue(ctx, value, 'raw bytes', `only raw bytes (a Uint8Array; --hex on the command line) can be probed for ${ctx.label}`)
  }
}
