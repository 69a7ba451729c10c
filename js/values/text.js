// Byte columns: text (STRING / ENUM / JSON), plain BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, UUID
// (LogicalTypes.md UUID: 16 big-endian bytes) and types only raw bytes can be probed for.
import { addWidth, asBytes, badValue, parseHexBytes } from './input.js'

export function textConverter(ctx) {
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

export function fixedConverter(ctx) {
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return addWidth(ctx, sink, bytes)
    if (typeof value === 'string') return addWidth(ctx, sink, utf8.encode(value))
    throw badValue(ctx, value, 'bytes or text')
  }
}

const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function uuidConverter(ctx) {
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

export function rawConverter(ctx) {
  const fixed = ctx.physicalType === 'FIXED_LEN_BYTE_ARRAY'
  return (value, sink) => {
    const bytes = asBytes(value)
    if (bytes) return fixed ? addWidth(ctx, sink, bytes) : sink.add(bytes)
    throw badValue(ctx, value, 'raw bytes', `only raw bytes (a Uint8Array; --hex on the command line) can be probed for ${ctx.label}`)
  }
}
