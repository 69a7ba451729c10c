// Avro object container files decoded by walking the writer's schema, for runtimes that forbid compiling
// code at run time (Cloudflare Workers, pages under a strict Content-Security-Policy), where avsc cannot
// run: js/table/avro.js sends them here. It yields what avro.js's avsc path yields (longs as bigints, ints,
// floats and doubles as numbers, bytes and fixed as Uint8Arrays, unions unwrapped, enums as their symbol,
// maps as objects, logical types as their underlying type), with records as plain objects. The header and
// blocks are read as the spec's own header and block schemas, by the same walker. Every count and length
// is checked against the bytes that remain, so damaged input is a typed error, never a hang.
import { ErrorCode } from '../errors.js'
import { sameBytes } from '../format/bytes.js'
import { AVRO_CODECS } from './avro-codecs.js'
import { tableError } from './table-location.js'

const MAGIC = [0x4f, 0x62, 0x6a, 0x01] // "Obj" 1

/** A reason the bytes or the schema cannot be read; becomes MALFORMED_TABLE with the file's name. */
class AvroUnreadable extends Error {}

/** A position in a byte array, reading Avro's binary encoding (spec, "Binary Encoding"). */
class Cursor {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.pos = 0
  }

  get remaining() {
    return this.bytes.length - this.pos
  }

  /** @param {number} n */
  need(n) {
    if (n > this.remaining) throw new AvroUnreadable(`truncated at byte ${this.pos} (${n} bytes wanted, ${this.remaining} left)`)
  }

  byte() {
    this.need(1)
    return this.bytes[this.pos++]
  }

  /** A zigzag varint as a bigint, wrapped to 64 bits as Java's long. */
  long() {
    let low = 0
    let shift = 0
    let b
    // Up to 7 bytes (49 bits) exactly in a double; longer ones in bigints.
    do {
      b = this.byte()
      low += (b & 0x7f) * 2 ** shift
      shift += 7
    } while (b & 0x80 && shift < 49)
    let n = BigInt(low)
    while (b & 0x80) {
      b = this.byte()
      // The tenth byte holds the 64th bit only: anything more is no long (Java's reader refuses it too).
      if (shift === 63 && b > 1) throw new AvroUnreadable(`varint past 64 bits at byte ${this.pos}`)
      n |= BigInt(b & 0x7f) << BigInt(shift)
      shift += 7
    }
    return BigInt.asIntN(64, (n >> 1n) ^ -(n & 1n))
  }

  /** A zigzag varint as a number (ints, counts, lengths, union and enum indices). */
  int() {
    return Number(this.long())
  }

  /** A block count, a length or an index that must lie in [0, max]. @param {string} what @param {number} max */
  count(what, max) {
    const n = this.long()
    if (n < 0n || n > BigInt(max)) throw new AvroUnreadable(`${what} ${n} at byte ${this.pos} (at most ${max} possible)`)
    return Number(n)
  }

  /** @param {number} n */
  take(n) {
    this.need(n)
    const out = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }
}

const utf8 = new TextDecoder()
const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * A name as the spec allows it (a full name: each dotted part), or the schema is refused as avsc refuses it.
 * @param {unknown} name
 * @param {string} what
 * @returns {string}
 */
function checkedName(name, what) {
  if (typeof name !== 'string' || !name.split('.').every((part) => NAME.test(part))) {
    throw new AvroUnreadable(`bad schema: invalid ${what} ${JSON.stringify(name)}`)
  }
  return name
}

/**
 * @typedef {{ read: (c: Cursor) => any, mayBeEmpty: boolean }} Reader
 *   read: a value of the schema's type (a record, a map, a long, …: what the schema says)
 * @typedef {any} AvroSchema the writer's schema as JSON, of any shape: each use checks what it needs of it
 */

/**
 * Items of an array or entries of a map: blocks of a count (negative: followed by the block's byte size).
 * @param {Cursor} c
 * @param {boolean} itemMayBeEmpty
 * @param {() => void} readItem
 */
function readBlocks(c, itemMayBeEmpty, readItem) {
  for (;;) {
    let n = c.long()
    if (n === 0n) return
    if (n < 0n) {
      n = -n
      c.count('block byte size', c.remaining)
    }
    // Each item takes a byte at least, unless its type encodes to nothing (null, fixed of size 0, …).
    const max = itemMayBeEmpty ? 1_000_000 : c.remaining
    if (n > BigInt(max)) throw new AvroUnreadable(`block of ${n} items at byte ${c.pos} (at most ${max} possible)`)
    for (let i = Number(n); i > 0; i--) readItem()
  }
}

/**
 * Readers for a schema (spec, "Schema Declaration"), named types registered by full name as they are
 * declared, so later references and recursive ones resolve.
 * @param {AvroSchema} schema
 * @param {string} namespace
 * @param {Map<string, Reader>} named
 * @returns {Reader}
 */
function schemaReader(schema, namespace, named) {
  if (typeof schema === 'string') {
    if (PRIMITIVES.has(schema)) return primitiveReader(schema)
    // A leading dot names the null namespace; a short name is looked up in the enclosing namespace first.
    const name = schema.replace(/^\./, '')
    const found = named.get(!schema.includes('.') && namespace ? `${namespace}.${name}` : name) ?? named.get(name)
    if (!found) throw new AvroUnreadable(`bad schema: unknown type ${schema}`)
    return found
  }
  if (Array.isArray(schema)) {
    if (!schema.length) throw new AvroUnreadable('bad schema: empty union')
    const seen = new Set()
    for (const branch of schema) {
      if (Array.isArray(branch)) throw new AvroUnreadable('bad schema: a union directly in a union')
      const unnamed = PRIMITIVES.has(branch?.type) || branch?.type === 'array' || branch?.type === 'map'
      const kind = typeof branch === 'string' ? branch : unnamed ? branch.type : undefined
      if (kind && seen.has(kind)) throw new AvroUnreadable(`bad schema: union branch ${kind} twice`)
      if (kind) seen.add(kind)
    }
    const branches = schema.map((s) => schemaReader(s, namespace, named))
    return {
      mayBeEmpty: false,
      read: (/** @type {Cursor} */ c) => branches[c.count('union branch', branches.length - 1)].read(c),
    }
  }
  if (!schema || typeof schema !== 'object') throw new AvroUnreadable(`bad schema: ${JSON.stringify(schema)}`)
  const { type } = schema
  switch (type) {
    case 'record': case 'error': case 'enum': case 'fixed': return namedReader(schema, namespace, named)
    case 'array': {
      const items = schemaReader(schema.items, namespace, named)
      return {
        mayBeEmpty: false,
        read: (/** @type {Cursor} */ c) => {
          /** @type {unknown[]} */
          const out = []
          readBlocks(c, items.mayBeEmpty, () => out.push(items.read(c)))
          return out
        },
      }
    }
    case 'map': {
      const values = schemaReader(schema.values, namespace, named)
      return {
        mayBeEmpty: false,
        read: (/** @type {Cursor} */ c) => {
          /** @type {Record<string, unknown>} */
          const out = {}
          readBlocks(c, false, () => {
            const key = utf8.decode(c.take(c.count('string length', c.remaining)))
            const value = values.read(c)
            // A "__proto__" key is data, not the object's prototype.
            if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
            else out[key] = value
          })
          return out
        },
      }
    }
    default:
      if (PRIMITIVES.has(type)) return primitiveReader(type) // logical types read as their underlying type
      return schemaReader(type, namespace, named)
  }
}

/**
 * @param {string} type a primitive type's name
 * @returns {Reader}
 */
function primitiveReader(type) {
  switch (type) {
    case 'null': return { mayBeEmpty: true, read: () => null }
    case 'boolean': return { mayBeEmpty: false, read: (c) => c.byte() !== 0 }
    case 'int': return { mayBeEmpty: false, read: (c) => c.int() }
    case 'long': return { mayBeEmpty: false, read: (c) => c.long() }
    case 'float': return { mayBeEmpty: false, read: (c) => { c.need(4); const v = c.view.getFloat32(c.pos, true); c.pos += 4; return v } }
    case 'double': return { mayBeEmpty: false, read: (c) => { c.need(8); const v = c.view.getFloat64(c.pos, true); c.pos += 8; return v } }
    case 'bytes': return { mayBeEmpty: false, read: (c) => c.take(c.count('bytes length', c.remaining)) }
    default: return { mayBeEmpty: false, read: (c) => utf8.decode(c.take(c.count('string length', c.remaining))) }
  }
}

/**
 * A record, enum or fixed: registered under its full name before its fields are read, for recursion. One
 * without a name (the spec requires one; avsc reads it all the same) is read, and never referenced.
 * @param {AvroSchema} schema
 * @param {string} namespace
 * @param {Map<string, Reader>} named
 */
function namedReader(schema, namespace, named) {
  /** @type {Reader} */
  const reader = { mayBeEmpty: false, read: () => undefined }
  let fullName = `an unnamed ${schema.type}`
  let ownNamespace = namespace
  if (schema.name !== undefined) {
    const name = checkedName(typeof schema.name === 'string' ? schema.name.replace(/^\./, '') : schema.name, `${schema.type} name`)
    ownNamespace = name.includes('.')
      ? name.slice(0, name.lastIndexOf('.'))
      : typeof schema.namespace === 'string' ? schema.namespace : namespace
    if (ownNamespace) checkedName(ownNamespace, 'namespace')
    fullName = name.includes('.') || !ownNamespace ? name : `${ownNamespace}.${name}`
    if (PRIMITIVES.has(fullName)) throw new AvroUnreadable(`bad schema: a ${schema.type} named ${fullName}`)
    if (named.has(fullName)) throw new AvroUnreadable(`bad schema: ${fullName} declared twice`)
    named.set(fullName, reader)
  }
  if (schema.type === 'enum') {
    const symbols = schema.symbols
    if (!Array.isArray(symbols) || !symbols.length) throw new AvroUnreadable(`bad schema: enum ${fullName} without symbols`)
    const badSymbol = symbols.find((symbol) => typeof symbol !== 'string' || !NAME.test(symbol))
    if (badSymbol !== undefined) throw new AvroUnreadable(`bad schema: invalid ${fullName} symbol ${JSON.stringify(badSymbol)}`)
    if (new Set(symbols).size !== symbols.length) throw new AvroUnreadable(`bad schema: enum ${fullName} repeats a symbol`)
    reader.read = (c) => symbols[c.count(`enum ${fullName} index`, symbols.length - 1)]
  } else if (schema.type === 'fixed') {
    const size = schema.size
    if (!Number.isInteger(size) || size < 0) throw new AvroUnreadable(`bad schema: fixed ${fullName} of size ${size}`)
    reader.mayBeEmpty = size === 0
    reader.read = (c) => c.take(size)
  } else {
    if (!Array.isArray(schema.fields)) throw new AvroUnreadable(`bad schema: record ${fullName} without fields`)
    // Field types resolve in the record's namespace; recursive references see the reader registered above.
    const fields = schema.fields.map((/** @type {AvroSchema} */ f) => {
      if (typeof f?.name !== 'string' || !NAME.test(f.name)) {
        throw new AvroUnreadable(`bad schema: invalid field name ${JSON.stringify(f?.name)} in ${fullName}`)
      }
      return { name: f.name, reader: schemaReader(f.type, ownNamespace, named) }
    })
    if (new Set(fields.map((/** @type {{ name: string }} */ f) => f.name)).size !== fields.length) {
      throw new AvroUnreadable(`bad schema: record ${fullName} repeats a field name`)
    }
    reader.mayBeEmpty = fields.every((/** @type {{ reader: Reader }} */ f) => f.reader.mayBeEmpty)
    reader.read = (c) => {
      /** @type {Record<string, unknown>} */
      const out = {}
      for (const f of fields) out[f.name] = f.reader.read(c)
      return out
    }
  }
  return reader
}

// The spec's container header and block (spec, "Object Container Files").
const HEADER = schemaReader({ type: 'record', name: 'Header', fields: [
  { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
  { name: 'meta', type: { type: 'map', values: 'bytes' } },
  { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
] }, '', new Map())
const SYNC = schemaReader({ type: 'fixed', name: 'Sync', size: 16 }, '', new Map())


/**
 * Every record of an Avro container file and its metadata, as js/table/avro.js's readAvroFile gives them.
 * @param {Uint8Array} bytes the whole file
 * @param {string} name for messages
 * @returns {Promise<{ records: any[], meta: Record<string, string> }>}
 */
export async function readAvroFileInterpreted(bytes, name) {
  const refuse = (/** @type {string} */ why, /** @type {unknown} */ cause = undefined) =>
    tableError(ErrorCode.MALFORMED_TABLE, `${name}: not a readable Avro file (${why})`, { cause, source: name })
  /** @template T @param {() => T} fn @returns {T} */
  const attempt = (fn) => {
    try {
      return fn()
    } catch (err) {
      if (err instanceof AvroUnreadable) throw refuse(err.message, err)
      throw err
    }
  }
  if (MAGIC.some((b, i) => bytes[i] !== b)) throw refuse('invalid magic bytes')
  const file = new Cursor(bytes)
  const header = attempt(() => HEADER.read(file))
  /** @type {Record<string, string>} */
  const meta = {}
  for (const [key, value] of Object.entries(header.meta)) meta[key] = utf8.decode(value)
  if (!Object.hasOwn(AVRO_CODECS, meta['avro.codec'] ?? 'null')) throw refuse(`unsupported codec ${meta['avro.codec']}`)
  const codec = AVRO_CODECS[meta['avro.codec'] ?? 'null']
  let schema
  try {
    schema = JSON.parse(meta['avro.schema'])
  } catch (err) {
    throw refuse(`bad schema: ${/** @type {Error} */ (err).message}`, err)
  }
  const type = attempt(() => schemaReader(schema, '', new Map()))
  /** @type {any[]} */
  const records = []
  while (file.remaining > 0) {
    const at = file.pos
    const { count, data, sync } = attempt(() => ({
      count: file.count('block object count', Number.MAX_SAFE_INTEGER),
      data: file.take(file.count('block byte size', file.remaining)),
      sync: SYNC.read(file),
    }))
    if (!sameBytes(sync, header.sync)) throw refuse(`sync marker mismatch at byte ${at}`)
    let objects
    try {
      objects = new Cursor(await codec(data))
    } catch (err) {
      throw refuse(`${meta['avro.codec']} block at byte ${file.pos}: ${/** @type {Error} */ (err).message}`, err)
    }
    if (count > (type.mayBeEmpty ? 1_000_000 : objects.remaining)) {
      throw refuse(`block of ${count} objects in ${objects.remaining} bytes at byte ${at}`)
    }
    attempt(() => {
      for (let i = 0; i < count; i++) records.push(type.read(objects))
    })
  }
  return { records, meta }
}
