// Writes an Iceberg v2 table at test time (Iceberg table spec v2: metadata.json, version-hint.text, an
// Avro manifest list and manifests with the spec's field ids; bounds by Appendix D single-value
// serialization): N data files written by hyparquet-writer (field ids in the Parquet schema, a bloom
// filter on `id`) in M manifests, partitioned by identity on a `day` date column. The file → values
// map it returns is the generator's own input, independent of the reader, for tests, the bench and the demo's sample
// table (which adds a second snapshot with more files and a position delete file).
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PassThrough } from 'node:stream'

import avsc from 'avsc'
import { parquetWriteBuffer } from 'hyparquet-writer'

const TABLE_LOCATION = 's3://warehouse/db/events'
const SNAPSHOT_ID = 3055729675574597
const SECOND_SNAPSHOT_ID = 6170183452690412
const EPOCH_DAY = 20454 // 2026-01-01
// Each file's ids are a disjoint range: [file * ID_STRIDE, file * ID_STRIDE + rows * ID_STEP).
export const ID_STRIDE = 100_000
export const ID_STEP = 7

/**
 * A data file written: its number, path under the table's root, day, ids (the truth) and size; `snapshot`, the first
 * to hold it, and `manifest`, the manifest that lists it.
 * @typedef {{ index: number, path: string, day: number, ids: bigint[], size: number, snapshot?: string, manifest?: string }} DataFile
 * @typedef {Awaited<ReturnType<typeof writeManifest>>} ManifestRecord a manifest's record in a manifest list
 * @typedef {{ 'snapshot-id': number, 'parent-snapshot-id'?: number, 'sequence-number': number, 'timestamp-ms': number,
 *   'manifest-list': string, summary: Record<string, string>, 'schema-id': number }} Snapshot
 * @typedef {{ snapshots: Snapshot[], 'last-sequence-number': number } & Record<string, unknown>} TableMetadata
 *   a metadata.json written (appendIcebergSnapshot goes on from its snapshots and sequence number)
 */

/** @param {string | object} type an Avro type */
const optional = (type) => ['null', type]
/**
 * An Iceberg int → value map as Avro writes it: an array of key/value records (logicalType map).
 * @param {string} fieldId the field's name
 * @param {number} keyId
 * @param {number} valueId
 * @param {string} valueType
 */
const intMap = (fieldId, keyId, valueId, valueType) => ({
  name: fieldId, type: optional({ type: 'array', logicalType: 'map', items: { type: 'record', name: `k${keyId}_v${valueId}`, fields: [
    { name: 'key', type: 'int', 'field-id': keyId }, { name: 'value', type: valueType, 'field-id': valueId }] } }),
})

// Manifest entry schema (spec "Manifests", v2 fields), with the partition struct of identity(day).
const MANIFEST_ENTRY = {
  type: 'record', name: 'manifest_entry', fields: [
    { name: 'status', type: 'int', 'field-id': 0 },
    { name: 'snapshot_id', type: optional('long'), default: null, 'field-id': 1 },
    { name: 'sequence_number', type: optional('long'), default: null, 'field-id': 3 },
    { name: 'file_sequence_number', type: optional('long'), default: null, 'field-id': 4 },
    { name: 'data_file', 'field-id': 2, type: { type: 'record', name: 'r2', fields: [
      { name: 'content', type: 'int', 'field-id': 134 },
      { name: 'file_path', type: 'string', 'field-id': 100 },
      { name: 'file_format', type: 'string', 'field-id': 101 },
      { name: 'partition', 'field-id': 102, type: { type: 'record', name: 'r102', fields: [
        { name: 'day', type: optional({ type: 'int', logicalType: 'date' }), default: null, 'field-id': 1000 }] } },
      { name: 'record_count', type: 'long', 'field-id': 103 },
      { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
      { ...intMap('value_counts', 119, 120, 'long'), default: null, 'field-id': 109 },
      { ...intMap('null_value_counts', 121, 122, 'long'), default: null, 'field-id': 110 },
      { ...intMap('nan_value_counts', 138, 139, 'long'), default: null, 'field-id': 137 },
      { ...intMap('lower_bounds', 126, 127, 'bytes'), default: null, 'field-id': 125 },
      { ...intMap('upper_bounds', 129, 130, 'bytes'), default: null, 'field-id': 128 },
    ] } },
  ],
}

// Manifest list schema (spec "Manifest Lists", v2).
const MANIFEST_FILE = {
  type: 'record', name: 'manifest_file', fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    { name: 'partitions', default: null, 'field-id': 507, type: optional({ type: 'array', items: { type: 'record', name: 'r508', fields: [
      { name: 'contains_null', type: 'boolean', 'field-id': 509 },
      { name: 'contains_nan', type: optional('boolean'), default: null, 'field-id': 518 },
      { name: 'lower_bound', type: optional('bytes'), default: null, 'field-id': 510 },
      { name: 'upper_bound', type: optional('bytes'), default: null, 'field-id': 511 }] } }) },
  ],
}

const SCHEMA = { type: 'struct', 'schema-id': 0, fields: [
  { id: 1, name: 'id', required: true, type: 'long' },
  { id: 2, name: 'day', required: true, type: 'date' },
] }
const SPEC = { 'spec-id': 0, fields: [{ name: 'day', transform: 'identity', 'source-id': 2, 'field-id': 1000 }] }

/** Appendix D: long as 8 bytes little-endian, int/date as 4. */
const longBound = (/** @type {number | bigint} */ n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(n)); return b }
const intBound = (/** @type {number} */ n) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b }

/**
 * An Avro object container file (avsc's block encoder) of records, with Iceberg's file metadata.
 * @param {object} schema an Avro schema
 * @param {object[]} records
 * @param {Record<string, string>} metadata
 */
function avroFile(schema, records, metadata) {
  // Iceberg's schemas carry field-id attributes: Avro keeps such attributes, avsc's types do not declare them.
  const type = avsc.Type.forSchema(/** @type {import('avsc').Schema} */ (schema))
  const encoder = new avsc.streams.BlockEncoder(type, /** @type {any} */ ({ codec: 'null', metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v)])) }))
  const sink = new PassThrough()
  /** @type {Buffer[]} */
  const chunks = []
  sink.on('data', (c) => chunks.push(c))
  const done = new Promise((resolve, reject) => { sink.on('end', resolve); encoder.on('error', reject) })
  encoder.pipe(sink)
  for (const r of records) encoder.write(r)
  encoder.end()
  return done.then(() => Buffer.concat(chunks))
}

/**
 * The ids stored in one data file (the generator's input: the truth the tests check against).
 * @param {number} file
 * @param {number} rows
 */
export function fileIds(file, rows) {
  return Array.from({ length: rows }, (_, j) => BigInt(file * ID_STRIDE + j * ID_STEP))
}

/** The day (days since epoch) of a data file: consecutive files share a day, manifests hold consecutive files. */
const dayOf = (/** @type {number} */ file, /** @type {number} */ filesPerDay) => EPOCH_DAY + Math.floor(file / filesPerDay)

/**
 * Writes data file k (its ids and day) and returns what it wrote.
 * @param {string} dir
 * @param {number} k
 * @param {number} day
 * @param {number} rows
 * @returns {Promise<DataFile>}
 */
async function writeDataFile(dir, k, day, rows) {
  const ids = fileIds(k, rows)
  const bytes = parquetWriteBuffer({
    columnData: [
      { name: 'id', data: BigInt64Array.from(ids), bloomFilter: true },
      { name: 'day', data: Int32Array.from({ length: rows }, () => day) },
    ],
    schema: [
      { name: 'root', num_children: 2 },
      { name: 'id', type: 'INT64', repetition_type: 'REQUIRED', field_id: 1 },
      { name: 'day', type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' }, repetition_type: 'REQUIRED', field_id: 2 },
    ],
  })
  const relative = `data/day=${day}/part-${String(k).padStart(5, '0')}.parquet`
  await mkdir(path.join(dir, path.dirname(relative)), { recursive: true })
  await writeFile(path.join(dir, relative), new Uint8Array(bytes))
  return { index: k, path: relative, day, ids, size: bytes.byteLength }
}

/**
 * @param {DataFile} f
 * @param {number} rows
 * @param {number} snapshotId
 * @param {number} sequence
 */
const dataEntry = (f, rows, snapshotId, sequence) => ({
  status: 1, snapshot_id: snapshotId, sequence_number: sequence, file_sequence_number: sequence,
  data_file: {
    content: 0, file_path: `${TABLE_LOCATION}/${f.path}`, file_format: 'PARQUET', partition: { day: f.day },
    record_count: rows, file_size_in_bytes: f.size,
    value_counts: [{ key: 1, value: rows }, { key: 2, value: rows }],
    null_value_counts: [{ key: 1, value: 0 }, { key: 2, value: 0 }],
    nan_value_counts: null,
    lower_bounds: [{ key: 1, value: longBound(f.ids[0]) }, { key: 2, value: intBound(f.day) }],
    upper_bounds: [{ key: 1, value: longBound(f.ids[f.ids.length - 1]) }, { key: 2, value: intBound(f.day) }],
  },
})

/**
 * A manifest of `entries` (data or position deletes) and its record in a manifest list.
 * @param {string} dir
 * @param {string} name
 * @param {object[]} entries
 * @param {{ content: number, snapshotId: number, sequence: number, days: number[], rows: number }} record
 */
async function writeManifest(dir, name, entries, { content, snapshotId, sequence, days, rows }) {
  const fileMetadata = { schema: JSON.stringify(SCHEMA), 'schema-id': '0', 'partition-spec': JSON.stringify(SPEC.fields), 'partition-spec-id': '0', 'format-version': '2', content: content === 1 ? 'deletes' : 'data' }
  const bytes = await avroFile(MANIFEST_ENTRY, entries, fileMetadata)
  await writeFile(path.join(dir, name), bytes)
  return {
    manifest_path: `${TABLE_LOCATION}/${name}`, manifest_length: bytes.length, partition_spec_id: 0, content, sequence_number: sequence, min_sequence_number: sequence,
    added_snapshot_id: snapshotId, added_files_count: entries.length, existing_files_count: 0, deleted_files_count: 0,
    added_rows_count: rows, existing_rows_count: 0, deleted_rows_count: 0,
    partitions: [{ contains_null: false, contains_nan: false, lower_bound: intBound(Math.min(...days)), upper_bound: intBound(Math.max(...days)) }],
  }
}

/**
 * A manifest of data files all ADDED by one snapshot, and its record in a manifest list.
 * @param {string} dir
 * @param {string} name
 * @param {DataFile[]} members
 * @param {number} rows
 * @param {number} snapshotId
 * @param {number} sequence
 */
function writeDataManifest(dir, name, members, rows, snapshotId, sequence) {
  return writeManifest(dir, name, members.map((f) => dataEntry(f, rows, snapshotId, sequence)),
    { content: 0, snapshotId, sequence, days: members.map((f) => f.day), rows: members.length * rows })
}

/**
 * A position delete file (spec "Position Delete Files": file_path and pos, field ids 2147483546 and
 * 2147483545) removing rows of one data file, in the data file's partition.
 * @param {string} dir
 * @param {string} name
 * @param {DataFile} file
 * @param {number[]} positions
 */
async function writePositionDeletes(dir, name, file, positions) {
  const bytes = parquetWriteBuffer({
    columnData: [
      { name: 'file_path', data: positions.map(() => `${TABLE_LOCATION}/${file.path}`) },
      { name: 'pos', data: BigInt64Array.from(positions.map(BigInt)) },
    ],
    schema: [
      { name: 'root', num_children: 2 },
      { name: 'file_path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED', field_id: 2147483546 },
      { name: 'pos', type: 'INT64', repetition_type: 'REQUIRED', field_id: 2147483545 },
    ],
  })
  await mkdir(path.dirname(path.join(dir, name)), { recursive: true })
  await writeFile(path.join(dir, name), new Uint8Array(bytes))
  return { path: name, day: file.day, size: bytes.byteLength, of: file.path, positions }
}

/**
 * @param {string} dir
 * @param {number} snapshotId
 * @param {number} sequence
 * @param {ManifestRecord[]} records
 */
async function writeManifestList(dir, snapshotId, sequence, records) {
  const name = `metadata/snap-${snapshotId}-${sequence}-list.avro`
  await writeFile(path.join(dir, name), await avroFile(MANIFEST_FILE, records, { 'snapshot-id': String(snapshotId), 'sequence-number': String(sequence), 'format-version': '2' }))
  return name
}

/**
 * Writes the table under dir and returns what it wrote.
 * @param {string} dir an empty folder (the table's root)
 * @param {{ files?: number, manifests?: number, rows?: number, filesPerDay?: number,
 *   then?: { files: number, deletes: Array<{ file: number, positions: number[] }> } }} [shape] filesPerDay: default one
 *   day per manifest; fewer than a manifest's files make days straddle two manifests. `then`: a second snapshot that
 *   appends `files` more data files (the days going on) in a manifest of their own and position deletes of rows of
 *   earlier files (row positions within the file) in a delete manifest; the first snapshot stays, as time travel sees it.
 * @returns {Promise<{ root: string, files: DataFile[], rows: number, manifests: number, filesPerManifest: number,
 *   snapshots: string[], deletes: Array<{ path: string, of: string, positions: number[] }>, listRecords: ManifestRecord[],
 *   metadata: TableMetadata }>}
 *   files: every data file written with its ids, `snapshot` (the first to hold it) and `manifest`; snapshots: their ids,
 *   oldest first; listRecords: the current snapshot's manifest list; metadata: its metadata.json (appendIcebergSnapshot takes them)
 */
export async function writeIcebergTable(dir, { files = 1000, manifests = 50, rows = 64, filesPerDay, then } = {}) {
  const filesPerManifest = Math.ceil(files / manifests)
  const perDay = filesPerDay ?? filesPerManifest
  await mkdir(path.join(dir, 'metadata'), { recursive: true })
  /** @type {DataFile[]} */
  const written = []
  for (let k = 0; k < files; k++) written.push({ ...await writeDataFile(dir, k, dayOf(k, perDay), rows), snapshot: String(SNAPSHOT_ID) })
  const listRecords = []
  for (let m = 0; m < manifests; m++) {
    const members = written.slice(m * filesPerManifest, (m + 1) * filesPerManifest)
    if (!members.length) break
    const record = await writeDataManifest(dir, `metadata/manifest-${String(m).padStart(3, '0')}-m0.avro`, members, rows, SNAPSHOT_ID, 1)
    for (const f of members) f.manifest = record.manifest_path
    listRecords.push(record)
  }
  const listName = await writeManifestList(dir, SNAPSHOT_ID, 1, listRecords)
  const now = 1767225600000
  /** @type {Snapshot[]} */
  const snapshots = [{ 'snapshot-id': SNAPSHOT_ID, 'sequence-number': 1, 'timestamp-ms': now, 'manifest-list': `${TABLE_LOCATION}/${listName}`,
    summary: { operation: 'append', 'added-data-files': String(files) }, 'schema-id': 0 }]
  const deletes = []
  let currentRecords = listRecords
  if (then) {
    /** @type {DataFile[]} */
    const added = []
    for (let k = files; k < files + then.files; k++) added.push({ ...await writeDataFile(dir, k, dayOf(k, perDay), rows), snapshot: String(SECOND_SNAPSHOT_ID) })
    written.push(...added)
    const records = [...listRecords]
    const record = await writeDataManifest(dir, 'metadata/manifest-s2-data.avro', added, rows, SECOND_SNAPSHOT_ID, 2)
    for (const f of added) f.manifest = record.manifest_path
    records.push(record)
    for (const { file, positions } of then.deletes) {
      const of = written[file]
      deletes.push(await writePositionDeletes(dir, `data/day=${of.day}/deletes-${String(file).padStart(5, '0')}.parquet`, of, positions))
    }
    if (deletes.length) {
      const entries = deletes.map((d) => ({ status: 1, snapshot_id: SECOND_SNAPSHOT_ID, sequence_number: 2, file_sequence_number: 2,
        data_file: { content: 1, file_path: `${TABLE_LOCATION}/${d.path}`, file_format: 'PARQUET', partition: { day: d.day }, record_count: d.positions.length,
          file_size_in_bytes: d.size, value_counts: null, null_value_counts: null, nan_value_counts: null, lower_bounds: null, upper_bounds: null } }))
      records.push(await writeManifest(dir, 'metadata/manifest-s2-deletes.avro', entries,
        { content: 1, snapshotId: SECOND_SNAPSHOT_ID, sequence: 2, days: deletes.map((d) => d.day), rows: deletes.reduce((n, d) => n + d.positions.length, 0) }))
    }
    currentRecords = records
    const secondList = await writeManifestList(dir, SECOND_SNAPSHOT_ID, 2, records)
    snapshots.push({ 'snapshot-id': SECOND_SNAPSHOT_ID, 'parent-snapshot-id': SNAPSHOT_ID, 'sequence-number': 2, 'timestamp-ms': now + 3_600_000,
      'manifest-list': `${TABLE_LOCATION}/${secondList}`, summary: { operation: 'overwrite', 'added-data-files': String(then.files), 'added-delete-files': String(deletes.length) }, 'schema-id': 0 })
  }
  const current = snapshots[snapshots.length - 1]
  const metadata = {
    'format-version': 2, 'table-uuid': '5b0a6e0c-2f7e-4c1a-9a3e-0d9b1c6f4a21', location: TABLE_LOCATION, 'last-sequence-number': snapshots.length, 'last-updated-ms': current['timestamp-ms'],
    'last-column-id': 2, 'current-schema-id': 0, schemas: [SCHEMA], 'default-spec-id': 0, 'partition-specs': [SPEC], 'last-partition-id': 1000,
    'default-sort-order-id': 0, 'sort-orders': [{ 'order-id': 0, fields: [] }], properties: {}, 'current-snapshot-id': current['snapshot-id'],
    snapshots, 'snapshot-log': snapshots.map((s) => ({ 'snapshot-id': s['snapshot-id'], 'timestamp-ms': s['timestamp-ms'] })), 'metadata-log': [],
    refs: { main: { 'snapshot-id': current['snapshot-id'], type: 'branch' } },
  }
  await writeFile(path.join(dir, 'metadata/v1.metadata.json'), JSON.stringify(metadata, null, 2))
  await writeFile(path.join(dir, 'metadata/version-hint.text'), '1')
  return { root: dir, files: written, rows, manifests: listRecords.length, filesPerManifest, snapshots: snapshots.map((s) => String(s['snapshot-id'])), deletes,
    listRecords: currentRecords, metadata }
}

/**
 * Appends one snapshot to a table writeIcebergTable wrote (a fast append, as Iceberg's AppendFiles does):
 * `files` new data files (their own day) in one new manifest, a manifest list of the old manifests and
 * the new one, metadata v(n+1).json and the version hint. With `dropManifests` (indexes into the manifest
 * list), those manifests leave the list: their files are no longer the table's (a delete of whole
 * manifests' files). Returns the table as writeIcebergTable does, with `added` and `removed`.
 * @param {Awaited<ReturnType<typeof writeIcebergTable>>} table
 * @param {{ files?: number, dropManifests?: number[] }} [change]
 */
export async function appendIcebergSnapshot(table, { files = 1, dropManifests = [] } = {}) {
  const dir = table.root
  const first = Math.max(...table.files.map((f) => f.index)) + 1
  const day = EPOCH_DAY + 10_000 + table.metadata.snapshots.length
  const added = []
  for (let k = first; k < first + files; k++) added.push(await writeDataFile(dir, k, day, table.rows))
  const sequence = table.metadata['last-sequence-number'] + 1
  const snapshotId = SNAPSHOT_ID + sequence - 1
  const dropped = new Set(dropManifests.map((m) => table.listRecords[m].manifest_path))
  const kept = table.listRecords.filter((r) => !dropped.has(r.manifest_path))
  const listRecords = added.length ? [...kept, await writeDataManifest(dir, `metadata/manifest-s${sequence}-m0.avro`, added, table.rows, snapshotId, sequence)] : kept
  const metadata = await writeSnapshot(dir, { snapshots: table.metadata.snapshots, listRecords, snapshotId, sequence, version: sequence, addedFiles: files })
  const removed = table.files.filter((f) => f.manifest !== undefined && dropped.has(f.manifest))
  return { ...table, files: [...table.files.filter((f) => !removed.includes(f)), ...added.map((f) => ({ ...f, manifest: listRecords[listRecords.length - 1].manifest_path }))],
    manifests: listRecords.length, listRecords, metadata, added, removed }
}

/**
 * The snapshot's manifest list, metadata v<version>.json naming it current, and the version hint.
 * @param {string} dir
 * @param {{ snapshots: Snapshot[], listRecords: ManifestRecord[], snapshotId: number, sequence: number, version: number,
 *   addedFiles: number }} snapshot
 * @returns {Promise<TableMetadata>}
 */
async function writeSnapshot(dir, { snapshots, listRecords, snapshotId, sequence, version, addedFiles }) {
  const listName = `metadata/snap-${snapshotId}-${sequence}-list.avro`
  await writeFile(path.join(dir, listName), await avroFile(MANIFEST_FILE, listRecords, { 'snapshot-id': String(snapshotId), 'sequence-number': String(sequence), 'format-version': '2' }))
  const now = 1767225600000 + sequence * 1000
  const snapshot = { 'snapshot-id': snapshotId, ...(snapshots.length ? { 'parent-snapshot-id': snapshots[snapshots.length - 1]['snapshot-id'] } : {}), 'sequence-number': sequence,
    'timestamp-ms': now, 'manifest-list': `${TABLE_LOCATION}/${listName}`, summary: { operation: 'append', 'added-data-files': String(addedFiles) }, 'schema-id': 0 }
  const all = [...snapshots, snapshot]
  const metadata = {
    'format-version': 2, 'table-uuid': '5b0a6e0c-2f7e-4c1a-9a3e-0d9b1c6f4a21', location: TABLE_LOCATION, 'last-sequence-number': sequence, 'last-updated-ms': now,
    'last-column-id': 2, 'current-schema-id': 0, schemas: [SCHEMA], 'default-spec-id': 0, 'partition-specs': [SPEC], 'last-partition-id': 1000,
    'default-sort-order-id': 0, 'sort-orders': [{ 'order-id': 0, fields: [] }], properties: {}, 'current-snapshot-id': snapshotId,
    snapshots: all, 'snapshot-log': all.map((s) => ({ 'snapshot-id': s['snapshot-id'], 'timestamp-ms': s['timestamp-ms'] })), 'metadata-log': [],
    refs: { main: { 'snapshot-id': snapshotId, type: 'branch' } },
  }
  await writeFile(path.join(dir, `metadata/v${version}.metadata.json`), JSON.stringify(metadata, null, 2))
  await writeFile(path.join(dir, 'metadata/version-hint.text'), String(version))
  return metadata
}
