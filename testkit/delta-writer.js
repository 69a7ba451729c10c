// Writes Delta tables by hand from the protocol (PROTOCOL.md), for the table tests and the demo's sample
// table: commits as JSON lines, a Parquet checkpoint in the protocol's checkpoint schema (written by
// hyparquet-writer), and deletion vectors as Z85 text (ZeroMQ RFC 32) of a RoaringBitmapArray
// ("Deletion Vector Format") over the portable Roaring serialization (RoaringFormatSpec).
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'

/** A version as the log names its files: 20 digits. */
export const pad = (/** @type {number} */ v) => String(v).padStart(20, '0')

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#'

/**
 * Z85 text of bytes whose length is a multiple of 4.
 * @param {Uint8Array} bytes
 */
export function z85Encode(bytes) {
  let out = ''
  for (let i = 0; i < bytes.length; i += 4) {
    let n = ((bytes[i] << 24) >>> 0) + (bytes[i + 1] << 16) + (bytes[i + 2] << 8) + bytes[i + 3]
    const chunk = []
    for (let j = 0; j < 5; j++) { chunk.unshift(Z85[n % 85]); n = Math.floor(n / 85) }
    out += chunk.join('')
  }
  return out
}

/** Little-endian bytes, appended field by field. */
export class Bytes {
  constructor() {
    /** @type {Uint8Array[]} */
    this.parts = []
  }
  /** @param {number} n */
  u16(n) { const b = new Uint8Array(2); new DataView(b.buffer).setUint16(0, n, true); this.parts.push(b); return this }
  /** @param {number} n */
  u32(n) { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n, true); this.parts.push(b); return this }
  /** @param {number | bigint} n */
  i64(n) { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, BigInt(n), true); this.parts.push(b); return this }
  /** @param {Uint8Array} b */
  raw(b) { this.parts.push(b); return this }
  done() { const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0)); let o = 0; for (const p of this.parts) { out.set(p, o); o += p.length } return out }
}

const ROARING_ARRAY_MAGIC = 1681511377
const ROARING_NO_RUN_COOKIE = 12346

/**
 * A RoaringBitmapArray of rows below 2^16 (one bitmap, one array container), padded to a multiple of
 * 4 bytes for Z85; the deletion vector an inline `deletionVector` carries.
 * @param {number[]} rows ascending, distinct, < 65536 (at most 4096: an array container)
 */
export function inlineDeletionVector(rows) {
  const b = new Bytes().u32(ROARING_ARRAY_MAGIC).i64(1)
    .u32(0).u32(ROARING_NO_RUN_COOKIE).u32(1).u16(0).u16(rows.length - 1).u32(0) // high bits 0: one container (key 0, n values), its offset
  for (const r of rows) b.u16(r)
  if (rows.length % 2) b.u16(0) // padding to a multiple of 4
  const bytes = b.done()
  return { storageType: 'i', pathOrInlineDv: z85Encode(bytes), sizeInBytes: bytes.length - (rows.length % 2 ? 2 : 0), cardinality: rows.length }
}

/**
 * Writes `log` (file name → text or bytes) under root/_delta_log and `files` (path → bytes) under root.
 * @param {string} root
 * @param {Record<string, string | Uint8Array>} log
 * @param {Record<string, Uint8Array>} files
 */
export async function writeDeltaFiles(root, log, files) {
  await mkdir(path.join(root, '_delta_log'), { recursive: true })
  for (const [file, text] of Object.entries(log)) {
    await mkdir(path.dirname(path.join(root, '_delta_log', file)), { recursive: true }) // _sidecars/
    await writeFile(path.join(root, '_delta_log', file), text)
  }
  for (const [file, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await writeFile(path.join(root, file), bytes)
  }
  return root
}

/**
 * A Delta schema field under column mapping (PROTOCOL.md "Column Mapping"): its field id and physical name in its metadata.
 * @param {string} name @param {string} physical @param {number} id @param {unknown} type
 */
export const mappedField = (name, physical, id, type) => ({ name, type, nullable: true,
  metadata: { 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': physical } })

/**
 * Writes a Delta table of one file at `root`: commit 0 holds the protocol (reader 2, writer 5), the metaData of `schema`
 * under column mapping `mode` ('none': no mapping configured) and the add of a.parquet, `file`'s bytes. Returns root.
 * @param {string} root @param {object} schema @param {Uint8Array} file
 * @param {{ mode?: 'none' | 'name' | 'id', maxColumnId?: number }} [mapping]
 */
export function writeOneFileTable(root, schema, file, { mode = 'none', maxColumnId = 0 } = {}) {
  const configuration = mode === 'none' ? {} : { 'delta.columnMapping.mode': mode, 'delta.columnMapping.maxColumnId': String(maxColumnId) }
  const actions = [{ protocol: { minReaderVersion: 2, minWriterVersion: 5 } },
    { metaData: { id: 'cm', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration } },
    { add: { path: 'a.parquet', partitionValues: {}, size: file.length, modificationTime: 0, dataChange: true } }]
  return writeDeltaFiles(root, { [`${pad(0)}.json`]: commitText(actions) }, { 'a.parquet': file })
}

/**
 * A commit's text: one JSON action per line.
 * @param {object[]} actions
 */
export const commitText = (actions) => actions.map((a) => JSON.stringify(a)).join('\n')

/**
 * @param {string} name
 * @param {string} type
 * @param {object} [extra]
 */
const opt = (name, type, extra = {}) => ({ name, type, repetition_type: 'OPTIONAL', ...extra })
const str = (/** @type {string} */ name) => opt(name, 'BYTE_ARRAY', { converted_type: 'UTF8' })
const group = (/** @type {string} */ name, /** @type {number} */ n) => ({ name, repetition_type: 'OPTIONAL', num_children: n })
/** @param {string} name */
const stringList = (name) => [{ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }]
/** @param {string} name */
const stringMap = (name) => [{ name, repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 }, { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
  { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' }, str('value')]

/**
 * A single-file Parquet checkpoint (PROTOCOL.md "Checkpoint Schema"): one row per action, each a
 * protocol (its reader and writer features as string lists), metaData or add (the other columns null).
 * Partition values are a string map — in an action as `[{ key, value }]` — and sizes and times INT64 (BigInt). `statsParsed`: the add.stats_parsed struct
 * (numRecords, minValues, maxValues, nullCount) for these physical columns: name → 'INT64' | 'STRING'.
 * @param {Array<{ protocol?: object, metaData?: object, add?: object }>} actions
 * @param {{ statsParsed?: Record<string, 'INT64' | 'STRING'> }} [options]
 */
export function checkpointParquet(actions, { statsParsed } = {}) {
  const parsed = statsParsed ? Object.entries(statsParsed) : []
  /** @param {string} name */
  const valueStruct = (name, counts = false) => [group(name, parsed.length), ...parsed.map(([column, type]) => (counts || type === 'INT64' ? opt(column, 'INT64') : str(column)))]
  const statsColumns = parsed.length ? [group('stats_parsed', 4), opt('numRecords', 'INT64'), ...valueStruct('minValues'), ...valueStruct('maxValues'), ...valueStruct('nullCount', true)] : []
  /** @type {any[]} */
  const schema = [
    { name: 'spark_schema', num_children: 3 },
    group('protocol', 4), opt('minReaderVersion', 'INT32'), opt('minWriterVersion', 'INT32'), ...stringList('readerFeatures'), ...stringList('writerFeatures'),
    group('metaData', 3), str('id'), str('schemaString'),
    ...stringList('partitionColumns'),
    group('add', parsed.length ? 7 : 6), str('path'), ...stringMap('partitionValues'),
    opt('size', 'INT64'), opt('modificationTime', 'INT64'), opt('dataChange', 'BOOLEAN'), str('stats'), ...statsColumns,
  ]
  const rows = actions.map((a) => ({ protocol: a.protocol ?? null, metaData: a.metaData ?? null, add: a.add ?? null }))
  const actionColumns = /** @type {const} */ (['protocol', 'metaData', 'add'])
  return new Uint8Array(parquetWriteBuffer({ schema, columnData: actionColumns.map((name) => ({ name, data: rows.map((r) => r[name]) })) }))
}
