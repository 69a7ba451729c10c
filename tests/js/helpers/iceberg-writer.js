// Hand-made Iceberg format v2 tables for tests, written from the spec ("Manifests", "Manifest Lists",
// "Table Metadata") with avsc (Avro) and hyparquet-writer (Parquet, with field ids): what a writer would
// commit, so traps the fixtures lack (bounds, partition summaries, delete files) can be put before a reader.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import avsc from 'avsc'
import { parquetWriteBuffer } from 'hyparquet-writer'

const kv = (name, value) => ({ type: 'array', items: { type: 'record', name, fields: [{ name: 'key', type: 'int' }, { name: 'value', type: value }] } })
const AVRO_OF = { int: 'int', long: 'long', string: 'string', date: 'int', boolean: 'boolean', binary: 'bytes', uuid: { type: 'fixed', name: 'uuid16', size: 16 },
  float: 'float', double: 'double' }

/** The Avro schema of a manifest entry whose partition struct has these fields ({ name, avro }). */
function entrySchema(partitionFields) {
  const partition = { type: 'record', name: 'r102', fields: partitionFields.map((f) => ({ name: f.name, type: ['null', f.avro] })) }
  const dataFile = { type: 'record', name: 'r2', fields: [
    { name: 'content', type: 'int' }, { name: 'file_path', type: 'string' }, { name: 'file_format', type: 'string' },
    { name: 'partition', type: partition }, { name: 'record_count', type: 'long' }, { name: 'file_size_in_bytes', type: 'long' },
    { name: 'value_counts', type: ['null', kv('k119_v120', 'long')], default: null },
    { name: 'null_value_counts', type: ['null', kv('k121_v122', 'long')], default: null },
    { name: 'nan_value_counts', type: ['null', kv('k138_v139', 'long')], default: null },
    { name: 'lower_bounds', type: ['null', kv('k126_v127', 'bytes')], default: null },
    { name: 'upper_bounds', type: ['null', kv('k129_v130', 'bytes')], default: null },
    { name: 'equality_ids', type: ['null', { type: 'array', items: 'int' }], default: null },
    // v3 deletion vectors: the data file a DV is of, and where its blob is in the Puffin file.
    { name: 'referenced_data_file', type: ['null', 'string'], default: null },
    { name: 'content_offset', type: ['null', 'long'], default: null },
    { name: 'content_size_in_bytes', type: ['null', 'long'], default: null },
    // v3 row lineage: the first row's _row_id (null: inherited from the manifest's first_row_id).
    { name: 'first_row_id', type: ['null', 'long'], default: null },
  ] }
  return { type: 'record', name: 'manifest_entry', fields: [
    { name: 'status', type: 'int' }, { name: 'snapshot_id', type: ['null', 'long'] },
    { name: 'sequence_number', type: ['null', 'long'] }, { name: 'file_sequence_number', type: ['null', 'long'] },
    { name: 'data_file', type: dataFile },
  ] }
}

const MANIFEST_FILE = { type: 'record', name: 'manifest_file', fields: [
  { name: 'manifest_path', type: 'string' }, { name: 'manifest_length', type: 'long' }, { name: 'partition_spec_id', type: 'int' },
  { name: 'content', type: 'int' }, { name: 'sequence_number', type: 'long' }, { name: 'min_sequence_number', type: 'long' },
  { name: 'added_snapshot_id', type: 'long' },
  { name: 'partitions', type: ['null', { type: 'array', items: { type: 'record', name: 'r508', fields: [
    { name: 'contains_null', type: 'boolean' }, { name: 'contains_nan', type: ['null', 'boolean'] },
    { name: 'lower_bound', type: ['null', 'bytes'] }, { name: 'upper_bound', type: ['null', 'bytes'] }] } }] },
] }

/** An Avro container file of records of one schema; `meta`: more of the file's metadata (a manifest's partition-spec-id). */
function avroFile(schema, records, meta = {}) {
  return new Promise((resolve, reject) => {
    const chunks = []
    const metadata = Object.fromEntries(Object.entries({ 'format-version': '2', ...meta }).map(([k, v]) => [k, Buffer.from(v)]))
    const encoder = new avsc.streams.BlockEncoder(avsc.Type.forSchema(schema), { codec: 'deflate', metadata })
    encoder.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
    for (const r of records) encoder.write(r)
    encoder.end()
  })
}

const PARQUET_OF = {
  int: { type: 'INT32' }, long: { type: 'INT64' }, date: { type: 'INT32', converted_type: 'DATE' }, boolean: { type: 'BOOLEAN' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' }, binary: { type: 'BYTE_ARRAY' },
  uuid: { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } },
  float: { type: 'FLOAT' }, double: { type: 'DOUBLE' },
  timestamp: { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } },
  timestamp_ns: { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' } },
}

/**
 * Parquet bytes of columns (each { id, name, type, data }) with their Iceberg field ids.
 * @param {Array<{ id: number, name: string, type: string, data: unknown[] }>} columns
 * @param {number} [rowGroupSize]
 */
export function parquetWithIds(columns, rowGroupSize = 1000) {
  const schema = [{ name: 'root', num_children: columns.length },
    ...columns.map((c) => ({ name: c.name, repetition_type: 'OPTIONAL', field_id: c.id, ...PARQUET_OF[c.type] }))]
  return new Uint8Array(parquetWriteBuffer({ schema, columnData: columns.map((c) => ({ name: c.name, data: c.data })), rowGroupSize }))
}

/**
 * Writes a v2 table at `dir`: one snapshot, its manifests as given.
 * @param {string} dir
 * @param {{ schema: Array<{ id: number, name: string, type: string }>, spec?: Array<{ name: string, transform: string, sourceId: number, avro: any }>,
 *   specs?: Array<{ id: number, fields: Array<{ name: string, transform: string, sourceId: number, avro: any }> }>,
 *   properties?: Record<string, string>, editMetadata?: (metadata: Record<string, any>) => void,
 *   files: Record<string, Uint8Array>,
 *   manifests: Array<{ specId?: number, content?: number, sequence?: number, summaries?: any[] | null, meta?: Record<string, string>,
 *     listedSpecId?: number,
 *     entries: Array<{ status?: number, sequence?: number, file: Record<string, any> }> }> }} table
 *   files: data and delete files by path under the table; entries' file: data_file fields (file_path relative to the table);
 *   meta: more of a manifest's Avro metadata; listedSpecId: the spec id the manifest list gives it (else its own)
 */
export async function writeIcebergTable(dir, table) {
  const location = 'file:///warehouse/t'
  await mkdir(path.join(dir, 'metadata'), { recursive: true })
  await mkdir(path.join(dir, 'data'), { recursive: true })
  for (const [name, bytes] of Object.entries(table.files)) await writeFile(path.join(dir, name), bytes)
  const specs = table.specs ?? [{ id: 0, fields: table.spec ?? [] }]
  // Manifest and manifest list names carry the commit's UUID, as Iceberg writers name them: never written twice.
  const commit = randomUUID()
  const listed = []
  for (const [k, m] of table.manifests.entries()) {
    const spec = specs.find((s) => s.id === (m.specId ?? 0))
    const records = m.entries.map((e) => ({
      status: e.status ?? 1, snapshot_id: 1, sequence_number: e.sequence ?? null, file_sequence_number: e.sequence ?? null,
      data_file: { content: 0, file_format: 'PARQUET', record_count: 0, value_counts: null, null_value_counts: null, nan_value_counts: null,
        lower_bounds: null, upper_bounds: null, equality_ids: null,
        referenced_data_file: null, content_offset: null, content_size_in_bytes: null, first_row_id: null,
        ...e.file, file_path: `${location}/${e.file.file_path}`,
        ...(e.file.referenced_data_file ? { referenced_data_file: `${location}/${e.file.referenced_data_file}` } : {}),
        file_size_in_bytes: e.file.file_size_in_bytes ?? table.files[e.file.file_path].byteLength },
    }))
    const manifest = await avroFile(entrySchema(spec.fields), records, m.meta)
    await writeFile(path.join(dir, 'metadata', `${commit}-m${k}.avro`), manifest)
    listed.push({ manifest_path: `${location}/metadata/${commit}-m${k}.avro`, manifest_length: manifest.length,
      partition_spec_id: m.listedSpecId ?? spec.id,
      content: m.content ?? 0, sequence_number: m.sequence ?? 1, min_sequence_number: m.sequence ?? 1, added_snapshot_id: 1,
      partitions: m.summaries === undefined ? null : m.summaries })
  }
  const list = await avroFile(MANIFEST_FILE, listed)
  await writeFile(path.join(dir, 'metadata', `snap-1-1-${commit}.avro`), list)
  const metadata = {
    'format-version': 2, 'table-uuid': '00000000-0000-0000-0000-000000000002', location, 'last-sequence-number': 9,
    'last-updated-ms': 0, 'last-column-id': Math.max(...table.schema.map((f) => f.id)), 'current-schema-id': 0,
    schemas: [{ type: 'struct', 'schema-id': 0, fields: table.schema.map((f) => ({ id: f.id, name: f.name, required: false, type: f.type })) }],
    'default-spec-id': specs[specs.length - 1].id,
    'partition-specs': specs.map((s) => ({ 'spec-id': s.id, fields: s.fields.map((f, i) => ({ name: f.name, transform: f.transform,
      'source-id': f.sourceId, 'field-id': 1000 + i })) })),
    'last-partition-id': 1000, properties: table.properties ?? {}, 'current-snapshot-id': 1, refs: { main: { 'snapshot-id': 1, type: 'branch' } },
    snapshots: [{ 'snapshot-id': 1, 'sequence-number': 9, 'timestamp-ms': 0, 'manifest-list': `${location}/metadata/snap-1-1-${commit}.avro`,
      summary: { operation: 'append' }, 'schema-id': 0 }],
  }
  table.editMetadata?.(metadata)
  await writeFile(path.join(dir, 'metadata', 'v1.metadata.json'), JSON.stringify(metadata))
  await writeFile(path.join(dir, 'metadata', 'version-hint.text'), '1')
}

/** A UUID's 16 big-endian bytes (spec Appendix D). */
export const uuidBytes = (text) => Uint8Array.from(Buffer.from(text.replace(/-/g, ''), 'hex'))

/**
 * A table whose schema 0 had id (field 1) and x (field 2) and whose current schema 1 dropped x; its one file, written
 * under schema 0, holds id 1, 2 and x 7, 8. (The table's snapshot was committed under schema 0.)
 * @param {string} root
 */
export async function writeDroppedColumnTable(root) {
  const file = parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n, 2n] }, { id: 2, name: 'x', type: 'long', data: [7n, 8n] }])
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }], files: { 'data/f.parquet': file },
    manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }],
    editMetadata: (metadata) => {
      metadata.schemas = [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'long' },
        { id: 2, name: 'x', required: false, type: 'long' }] }, { ...metadata.schemas[0], 'schema-id': 1 }]
      metadata['current-schema-id'] = 1
    } })
}
