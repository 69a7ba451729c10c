// Avro object container files (Avro 1.11 spec, "Object Container Files") to records, for Iceberg
// manifest lists and manifests. Decoding is avsc's, through its types-only entry (no Node streams, so the
// same decoder runs in Node, Bun, Deno, browsers and web workers), loaded on first use so the probe path and
// the browser bundle's core never carry it. Runtimes that forbid the code avsc compiles at run time
// (Cloudflare Workers, pages under a strict CSP) get js/table/avro-interpreted.js instead, which walks the
// schema and yields the same records. The container's framing (header, blocks, sync markers) is read with
// avsc types of the spec's own header and block schemas; block codecs are js/table/avro-codecs.js's.
// Longs are swapped for a type that yields bigints, because snapshot ids and sequence numbers exceed 2^53.
/// <reference path="./avsc-types.d.ts" />
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { AVRO_CODECS } from './avro-codecs.js'
import { tableError } from './table-location.js'

/** @typedef {{ avsc: any, Buffer: any, header: any, block: any, longType: any, typeHook: Function }} AvroKit */

/** @type {Promise<AvroKit> | undefined} */
let kitLoaded

const MAGIC = [0x4f, 0x62, 0x6a, 0x01] // "Obj" 1

/**
 * Whether this runtime compiles code from strings. avsc builds each type's reader with `new Function`,
 * which Cloudflare Workers (workerd) and pages under a CSP without 'unsafe-eval' refuse.
 */
function compilesAtRunTime() {
  try {
    return typeof new Function('return 1') === 'function'
  } catch {
    return false
  }
}

/**
 * avsc's array and map readers take a block's item count as the bytes say and loop that many times, past the
 * end of the bytes if need be: a hostile count of 2^31 items of `null` is an allocation that ends the process,
 * one of 2^62 a loop that never ends. The types a typeHook gives for every array and map schema read with a
 * count checked against the bytes left instead (an item takes at least one byte, or, for one of no bytes, no
 * more of them than bytes left); past it the read is marked truncated, as avsc marks a read past the end.
 * @param {any} avsc
 */
function boundedCollections(avsc) {
  /** @type {{ ArrayType: new (schema: unknown, opts: unknown) => any, MapType: new (schema: unknown, opts: unknown) => any }} */
  const { ArrayType, MapType } = avsc.types
  class BoundedArrayType extends ArrayType {
    /** @param {any} tap */
    _read(tap) {
      const items = this.itemsType
      const values = []
      let n
      while ((n = itemCount(tap)) > 0) {
        while (n--) values.push(items._read(tap))
      }
      return values
    }
  }
  class BoundedMapType extends MapType {
    /** @param {any} tap */
    _read(tap) {
      const values = this.valuesType
      /** @type {Record<string, unknown>} */
      const map = {}
      let n
      while ((n = itemCount(tap)) > 0) {
        while (n--) {
          const key = tap.readString()
          map[key] = values._read(tap)
        }
      }
      return map
    }
  }
  return { BoundedArrayType, BoundedMapType }
}

/**
 * A block's count of items (negative: followed by the block's byte size), or -1 when more items are claimed than
 * bytes are left (the tap then marked past its end).
 * @param {any} tap avsc's Tap
 */
function itemCount(tap) {
  let n = tap.readLong()
  if (n < 0) {
    n = -n
    tap.skipLong()
  }
  if (n > tap.buf.length - tap.pos) {
    tap.pos = tap.buf.length + 1
    return -1
  }
  return n
}

/** avsc's types and the Buffer class it works on. */
async function loadKit() {
  kitLoaded ??= import('avsc/etc/browser/avsc-types.js').then((loaded) => {
    const avsc = loaded.default ?? loaded
    // The class of what avsc encodes to: Node's Buffer in Node, Bun and Deno, in a browser the `buffer`
    // package it is bundled with (scripts/build-bundle.js), so its inputs are always of its own kind.
    const Buffer = avsc.Type.forSchema('int').toBuffer(0).constructor
    const longType = bigLongType(avsc, Buffer)
    const { BoundedArrayType, BoundedMapType } = boundedCollections(avsc)
    // Longs written as objects ({ "type": "long", "logicalType": … }: Iceberg's timestamp partition values)
    // bypass the registry, and avsc's own long type refuses values past 2^53 (nanosecond timestamps).
    const typeHook = (/** @type {any} */ schema, /** @type {unknown} */ opts) => {
      const kind = schema?.type
      return kind === 'long' ? longType : kind === 'array' ? new BoundedArrayType(schema, opts)
        : kind === 'map' ? new BoundedMapType(schema, opts) : undefined
    }
    // The spec's header and block records: magic, metadata map (bytes values), sync marker; then blocks of
    // an object count, the (possibly compressed) serialized objects, and the sync marker again.
    const header = avsc.Type.forSchema({ type: 'record', name: 'Header', fields: [
      { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
      { name: 'meta', type: { type: 'map', values: 'bytes' } },
      { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
    ] }, { registry: { long: longType }, typeHook })
    const block = avsc.Type.forSchema({ type: 'record', name: 'Block', fields: [
      { name: 'count', type: 'long' },
      { name: 'data', type: 'bytes' },
      { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
    ] }, { registry: { long: longType } })
    return { avsc, Buffer, header, block, longType, typeHook }
  }).catch((err) => {
    kitLoaded = undefined
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `reading Iceberg manifests (Avro) needs the avsc package (${err?.message ?? err})`, { cause: err })
  })
  return kitLoaded
}

/**
 * @param {AvroKit['avsc']} avsc
 * @param {AvroKit['Buffer']} Buffer
 */
function bigLongType(avsc, Buffer) {
  return avsc.types.LongType.__with({
    fromBuffer: (/** @type {import('node:buffer').Buffer} */ buf) => buf.readBigInt64LE(),
    toBuffer: (/** @type {bigint | number} */ n) => {
      const buf = Buffer.alloc(8)
      buf.writeBigInt64LE(BigInt(n))
      return buf
    },
    fromJSON: BigInt,
    toJSON: Number,
    isValid: (/** @type {unknown} */ n) => typeof n === 'bigint',
    compare: (/** @type {bigint} */ a, /** @type {bigint} */ b) => (a < b ? -1 : a > b ? 1 : 0),
  })
}

/**
 * Every record of an Avro container file, with longs as bigints and bytes/fixed as Uint8Arrays, and the
 * file's metadata (avro.schema, avro.codec, and the writer's own keys such as Iceberg's format-version).
 * @param {Uint8Array} bytes the whole file
 * @param {string} name for messages
 * @returns {Promise<{ records: any[], meta: Record<string, string> }>}
 */
export async function readAvroFile(bytes, name) {
  if (!compilesAtRunTime()) {
    const { readAvroFileInterpreted } = await import('./avro-interpreted.js')
    return readAvroFileInterpreted(bytes, name)
  }
  const kit = await loadKit()
  const refuse = (/** @type {string} */ why, /** @type {unknown} */ cause = undefined) => tableError(ErrorCode.MALFORMED_TABLE,
    `${name}: not a readable Avro file (${why})`, { cause, source: name })
  const buf = kit.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (MAGIC.some((b, i) => buf[i] !== b)) throw refuse('invalid magic bytes')
  let decoded
  try {
    decoded = kit.header.decode(buf, 0)
  } catch (err) {
    throw refuse(/** @type {Error} */ (err).message, err)
  }
  if (decoded.offset < 0) throw refuse('truncated header')
  /** @type {Record<string, string>} */
  const meta = {}
  for (const [key, value] of Object.entries(decoded.value.meta)) meta[key] = new TextDecoder().decode(value)
  const sync = decoded.value.sync
  const codec = Object.hasOwn(AVRO_CODECS, meta['avro.codec'] ?? 'null') ? AVRO_CODECS[meta['avro.codec'] ?? 'null'] : undefined
  if (!codec) throw refuse(`unsupported codec ${meta['avro.codec']}`)
  let type
  try {
    type = kit.avsc.Type.forSchema(JSON.parse(meta['avro.schema']),
      { registry: { long: kit.longType }, typeHook: kit.typeHook, wrapUnions: false })
  } catch (err) {
    throw refuse(`bad schema: ${/** @type {Error} */ (err).message}`, err)
  }
  const records = []
  let offset = decoded.offset
  while (offset < buf.length) {
    try {
      decoded = kit.block.decode(buf, offset)
    } catch (err) {
      throw refuse(/** @type {Error} */ (err).message, err)
    }
    if (decoded.offset < 0) throw refuse(`truncated block at byte ${offset}`)
    const { count, data, sync: blockSync } = decoded.value
    if (!sync.equals(blockSync)) throw refuse(`sync marker mismatch at byte ${offset}`)
    offset = decoded.offset
    let objects
    try {
      objects = kit.Buffer.from(await codec(data))
    } catch (err) {
      throw refuse(`${meta['avro.codec']} block at byte ${offset}: ${/** @type {Error} */ (err).message}`, err)
    }
    // Records of no bytes (a schema of nulls) could be counted in the billions by a few bytes: at most a
    // million then, as js/table/avro-interpreted.js allows; others run out of bytes first.
    if (count < 0n || (count > BigInt(objects.length) && count > 1_000_000n)) {
      throw refuse(`block of ${count} objects in ${objects.length} bytes at byte ${offset}`)
    }
    let at = 0
    for (let i = 0n; i < count; i++) {
      let record
      try {
        record = type.decode(objects, at)
      } catch (err) {
        throw refuse(/** @type {Error} */ (err).message, err)
      }
      if (record.offset < 0) throw refuse(`truncated record in the block before byte ${offset}`)
      records.push(record.value)
      at = record.offset
    }
  }
  return { records, meta }
}
