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

/** @typedef {{ avsc: any, Buffer: any, header: any, block: any, longType: any }} AvroKit */

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

/** avsc's types and the Buffer class it works on. */
async function loadKit() {
  kitLoaded ??= import('avsc/etc/browser/avsc-types.js').then((loaded) => {
    const avsc = loaded.default ?? loaded
    // The class of what avsc encodes to: Node's Buffer in Node, Bun and Deno, in a browser the `buffer`
    // package it is bundled with (scripts/build-bundle.js), so its inputs are always of its own kind.
    const Buffer = avsc.Type.forSchema('int').toBuffer(0).constructor
    const longType = bigLongType(avsc, Buffer)
    // The spec's header and block records: magic, metadata map (bytes values), sync marker; then blocks of
    // an object count, the (possibly compressed) serialized objects, and the sync marker again.
    const header = avsc.Type.forSchema({ type: 'record', name: 'Header', fields: [
      { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
      { name: 'meta', type: { type: 'map', values: 'bytes' } },
      { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
    ] }, { registry: { long: longType } })
    const block = avsc.Type.forSchema({ type: 'record', name: 'Block', fields: [
      { name: 'count', type: 'long' },
      { name: 'data', type: 'bytes' },
      { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
    ] }, { registry: { long: longType } })
    return { avsc, Buffer, header, block, longType }
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
    // Longs written as objects ({ "type": "long", "logicalType": … }: Iceberg's timestamp partition values)
    // bypass the registry, and avsc's own long type refuses values past 2^53 (nanosecond timestamps).
    const typeHook = (/** @type {{ type?: unknown } | undefined} */ schema) => (schema?.type === 'long' ? kit.longType : undefined)
    type = kit.avsc.Type.forSchema(JSON.parse(meta['avro.schema']), { registry: { long: kit.longType }, typeHook, wrapUnions: false })
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
