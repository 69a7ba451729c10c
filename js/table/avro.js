// Avro object container files (Avro 1.11 spec, "Object Container Files") to records, for Iceberg
// manifest lists and manifests. Decoding is avsc's (loaded on first use, so the probe path and the
// browser bundle never carry it); here only its long type is swapped for one that yields bigints,
// because snapshot ids and sequence numbers exceed 2^53.
import { ErrorCode, ParquetBloomError } from '../errors.js'

/** @type {Promise<any> | undefined} */
let avscLoaded

// avsc reads through Node's streams and zlib: a name the browser bundler does not follow keeps it out
// of the bundle (Iceberg manifests are read in Node, Bun and Deno; a browser gets a clear error).
const AVSC = 'avsc'

async function loadAvsc() {
  avscLoaded ??= import(/* webpackIgnore: true */ AVSC).then((m) => m.default ?? m).catch((err) => {
    avscLoaded = undefined
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `reading Iceberg manifests (Avro) needs the avsc package, which runs in Node, Bun and Deno, not in browsers (${err?.message ?? err})`, { cause: err })
  })
  return avscLoaded
}

function bigLongType(avsc) {
  return avsc.types.LongType.__with({
    fromBuffer: (buf) => buf.readBigInt64LE(),
    toBuffer: (n) => {
      const buf = Buffer.alloc(8)
      buf.writeBigInt64LE(BigInt(n))
      return buf
    },
    fromJSON: BigInt,
    toJSON: Number,
    isValid: (n) => typeof n === 'bigint',
    compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
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
  const avsc = await loadAvsc()
  const longType = bigLongType(avsc)
  const records = []
  /** @type {Record<string, string>} */
  const meta = {}
  await new Promise((resolve, reject) => {
    const decoder = new avsc.streams.BlockDecoder({
      parseHook: (schema) => avsc.Type.forSchema(schema, { registry: { long: longType }, wrapUnions: false }),
    })
    decoder.on('metadata', (_type, _codec, header) => {
      for (const [key, value] of Object.entries(header.meta ?? {})) meta[key] = Buffer.from(value).toString('utf8')
    })
    decoder.on('data', (record) => records.push(record))
    decoder.on('end', resolve)
    decoder.on('error', (err) => reject(new ParquetBloomError(ErrorCode.MALFORMED_TABLE, `${name}: not a readable Avro file (${err.message})`, { cause: err, source: name })))
    decoder.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  })
  return { records, meta }
}
