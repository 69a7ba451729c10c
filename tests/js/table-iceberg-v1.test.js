// An Iceberg format v1 table written by hand from the spec (metadata v1 fields: `schema`,
// `partition-spec`; manifests without sequence numbers or content; int-keyed maps as arrays of
// key/value records), Avro container files encoded with avsc itself: its files are found, pruned by
// the identity partition and the bounds, and probed.
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import avsc from 'avsc'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../js/index.js'
import { tempDir } from '../../testkit/temp-dir.js'

const kv = (name, value) => ({ type: 'array', items: { type: 'record', name, fields: [{ name: 'key', type: 'int' }, { name: 'value', type: value }] } })
const DATA_FILE = { type: 'record', name: 'r2', fields: [
  { name: 'file_path', type: 'string' }, { name: 'file_format', type: 'string' },
  { name: 'partition', type: { type: 'record', name: 'r102', fields: [{ name: 'region', type: ['null', 'string'] }] } },
  { name: 'record_count', type: 'long' }, { name: 'file_size_in_bytes', type: 'long' }, { name: 'block_size_in_bytes', type: 'long' },
  { name: 'value_counts', type: ['null', kv('k119_v120', 'long')] }, { name: 'null_value_counts', type: ['null', kv('k121_v122', 'long')] },
  { name: 'lower_bounds', type: ['null', kv('k126_v127', 'bytes')] }, { name: 'upper_bounds', type: ['null', kv('k129_v130', 'bytes')] },
] }
const ENTRY = { type: 'record', name: 'manifest_entry', fields: [{ name: 'status', type: 'int' }, { name: 'snapshot_id', type: 'long' }, { name: 'data_file', type: DATA_FILE }] }
const MANIFEST_FILE = { type: 'record', name: 'manifest_file', fields: [
  { name: 'manifest_path', type: 'string' }, { name: 'manifest_length', type: 'long' }, { name: 'partition_spec_id', type: 'int' },
  { name: 'added_snapshot_id', type: ['null', 'long'] },
  { name: 'partitions', type: ['null', { type: 'array', items: { type: 'record', name: 'r508', fields: [
    { name: 'contains_null', type: 'boolean' }, { name: 'lower_bound', type: ['null', 'bytes'] }, { name: 'upper_bound', type: ['null', 'bytes'] }] } }] },
] }

function avroFile(schema, records) {
  return new Promise((resolve, reject) => {
    const chunks = []
    const encoder = new avsc.streams.BlockEncoder(avsc.Type.forSchema(schema), { codec: 'deflate', metadata: { 'format-version': Buffer.from('1') } })
    encoder.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
    for (const r of records) encoder.write(r)
    encoder.end()
  })
}

const int32 = (n) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b }

describe('Iceberg format v1', async () => {
  const dir = await tempDir('iceberg-v1')
  before(async () => {
    const t = path.join(dir, 't')
    await mkdir(path.join(t, 'metadata'), { recursive: true })
    await mkdir(path.join(t, 'data'), { recursive: true })
    const files = { eu: [1, 2, 3], us: [10, 20, 30] }
    const entries = []
    for (const [region, ids] of Object.entries(files)) {
      const parquet = parquetWriteBuffer({ columnData: [{ name: 'id', data: ids, type: 'INT32' }, { name: 'region', data: ids.map(() => region), type: 'STRING' }] })
      await writeFile(path.join(t, 'data', `${region}.parquet`), new Uint8Array(parquet))
      entries.push({ status: 1, snapshot_id: 1, data_file: {
        file_path: `file:///warehouse/t/data/${region}.parquet`, file_format: 'PARQUET', partition: { region }, record_count: ids.length,
        file_size_in_bytes: parquet.byteLength, block_size_in_bytes: 67108864,
        value_counts: [{ key: 1, value: 3 }], null_value_counts: [{ key: 1, value: 0 }],
        lower_bounds: [{ key: 1, value: int32(Math.min(...ids)) }], upper_bounds: [{ key: 1, value: int32(Math.max(...ids)) }],
      } })
    }
    const manifest = await avroFile(ENTRY, entries)
    await writeFile(path.join(t, 'metadata', 'm0.avro'), manifest)
    const list = await avroFile(MANIFEST_FILE, [{ manifest_path: 'file:///warehouse/t/metadata/m0.avro', manifest_length: manifest.length, partition_spec_id: 0, added_snapshot_id: 1,
      partitions: [{ contains_null: false, lower_bound: Buffer.from('eu'), upper_bound: Buffer.from('us') }] }])
    await writeFile(path.join(t, 'metadata', 'snap-1.avro'), list)
    const metadata = {
      'format-version': 1, 'table-uuid': '00000000-0000-0000-0000-000000000001', location: 'file:///warehouse/t', 'last-updated-ms': 0, 'last-column-id': 2,
      schema: { type: 'struct', fields: [{ id: 1, name: 'id', required: false, type: 'int' }, { id: 2, name: 'region', required: false, type: 'string' }] },
      'partition-spec': [{ name: 'region', transform: 'identity', 'source-id': 2, 'field-id': 1000 }],
      properties: {}, 'current-snapshot-id': 1,
      snapshots: [{ 'snapshot-id': 1, 'timestamp-ms': 0, 'manifest-list': 'file:///warehouse/t/metadata/snap-1.avro', summary: { operation: 'append' } }],
    }
    await writeFile(path.join(t, 'metadata', 'v1.metadata.json'), JSON.stringify(metadata))
    await writeFile(path.join(t, 'metadata', 'version-hint.text'), '1')
  })

  test('files found by rebasing file:// paths, pruned by partition and bounds, probed', async () => {
    const table = await openTable(path.join(dir, 't'))
    assert.deepEqual((await table.listFiles()).map((f) => f.path).sort(), ['data/eu.parquet', 'data/us.parquet'])
    assert.deepEqual(table.table.files.map((f) => f.path).sort(), ['data/eu.parquet', 'data/us.parquet'])
    const byRegion = await table.probe('region', ['eu', 'asia'])
    const eu = byRegion.files.find((f) => f.path === 'data/eu.parquet')
    const us = byRegion.files.find((f) => f.path === 'data/us.parquet')
    assert.notEqual(eu.values[0].verdict, 'absent')
    assert.equal(us.values[0].source, 'table-partition')
    assert.ok(byRegion.files.every((f) => f.values[1].verdict === 'absent'))
    const byId = await table.probe('id', [2, 20, 5], { confirm: true })
    assert.deepEqual(byId.files.find((f) => f.path === 'data/eu.parquet').values.map((v) => v.verdict), ['present', 'absent', 'absent'])
    assert.deepEqual(byId.files.find((f) => f.path === 'data/us.parquet').values.map((v) => [v.verdict, v.source]), [['absent', 'table-stats'], ['present', 'data-pages'], ['absent', 'table-stats']])
  })
})

/** An Avro container file whose metadata also holds `meta` (a manifest's partition-spec-id, partition-spec, schema). */
function avroFileWith(schema, records, meta) {
  return new Promise((resolve, reject) => {
    const chunks = []
    const metadata = Object.fromEntries(Object.entries({ 'format-version': '1', ...meta }).map(([k, v]) => [k, Buffer.from(v)]))
    const encoder = new avsc.streams.BlockEncoder(avsc.Type.forSchema(schema), { codec: 'deflate', metadata })
    encoder.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
    for (const r of records) encoder.write(r)
    encoder.end()
  })
}

describe('Iceberg format v1: a snapshot listing its manifests itself (no manifest list)', async () => {
  const dir = await tempDir('iceberg-v1-inline')
  // Spec 0 partitioned by identity(region); spec 1, as a v1 table evolves one, made region void and added identity(city).
  const specs = [
    { 'spec-id': 0, fields: [{ name: 'region', transform: 'identity', 'source-id': 2, 'field-id': 1000 }] },
    { 'spec-id': 1, fields: [{ name: 'region', transform: 'void', 'source-id': 2, 'field-id': 1000 },
      { name: 'city', transform: 'identity', 'source-id': 3, 'field-id': 1001 }] },
  ]
  const schema = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'int' },
    { id: 2, name: 'region', required: false, type: 'string' }, { id: 3, name: 'city', required: false, type: 'string' }] }
  /** Writes the table: one data file (region eu, city paris) in a manifest written with `specId`, as `meta` says. */
  async function writeTable(name, specId, meta) {
    const t = path.join(dir, name)
    await mkdir(path.join(t, 'metadata'), { recursive: true })
    await mkdir(path.join(t, 'data'), { recursive: true })
    const parquet = parquetWriteBuffer({ schema: [{ name: 'root', num_children: 3 },
      { name: 'id', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 1 },
      { name: 'region', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL', field_id: 2 },
      { name: 'city', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL', field_id: 3 }],
    columnData: [{ name: 'id', data: [1] }, { name: 'region', data: ['eu'] }, { name: 'city', data: ['paris'] }] })
    await writeFile(path.join(t, 'data', 'f.parquet'), new Uint8Array(parquet))
    const spec = specs[specId]
    const partition = { type: 'record', name: 'r102', fields: spec.fields.map((f) => ({ name: f.name, type: ['null', 'string'] })) }
    const entry = { type: 'record', name: 'manifest_entry', fields: [{ name: 'status', type: 'int' }, { name: 'snapshot_id', type: 'long' },
      { name: 'data_file', type: { ...DATA_FILE,
        fields: DATA_FILE.fields.map((f) => (f.name === 'partition' ? { name: 'partition', type: partition } : f)) } }] }
    const manifest = await avroFileWith(entry, [{ status: 1, snapshot_id: 1, data_file: {
      file_path: 'file:///warehouse/t/data/f.parquet', file_format: 'PARQUET',
      partition: specId === 1 ? { region: null, city: 'paris' } : { region: 'eu' },
      record_count: 1, file_size_in_bytes: parquet.byteLength, block_size_in_bytes: 67108864,
      value_counts: null, null_value_counts: null, lower_bounds: null, upper_bounds: null } }],
    { schema: JSON.stringify(schema), 'partition-spec': JSON.stringify(spec.fields), ...meta })
    await writeFile(path.join(t, 'metadata', 'm0.avro'), manifest)
    const metadata = {
      'format-version': 1, 'table-uuid': '00000000-0000-0000-0000-000000000003', location: 'file:///warehouse/t', 'last-updated-ms': 0,
      'last-column-id': 3, schema, 'partition-spec': specs[1].fields, 'partition-specs': specs, 'default-spec-id': 1,
      properties: {}, 'current-snapshot-id': 1,
      snapshots: [{ 'snapshot-id': 1, 'timestamp-ms': 0, manifests: ['file:///warehouse/t/metadata/m0.avro'],
        summary: { operation: 'append' } }],
    }
    await writeFile(path.join(t, 'metadata', 'v1.metadata.json'), JSON.stringify(metadata))
    await writeFile(path.join(t, 'metadata', 'version-hint.text'), '1')
    return t
  }

  /** Per file, per value: its verdict when absent, else 'kept' (the data file, whose writer is not identified, says unknown). */
  const kept = (result) => result.files.map((f) => f.values.map((v) => (v.verdict === 'absent' ? `absent:${v.source}` : 'kept')))

  test('a manifest written with spec 1 is read with spec 1, as its own metadata says: its file is not ruled out by spec 0', async () => {
    const t = await writeTable('spec1', 1, { 'partition-spec-id': '1' })
    const table = await openTable(t)
    // Read as spec 0, the tuple's first value (region's void, null) was identity(region): every row's region null.
    const byRegion = await table.probe('region', ['eu', 'us'])
    assert.deepEqual(kept(byRegion), [['kept', 'kept']])
    const byCity = await table.probe('city', ['paris', 'rome'])
    assert.deepEqual(kept(byCity), [['kept', 'absent:table-partition']])
    await table.close()
  })

  test('without a spec id in its metadata, a manifest of a table of several specs rules nothing out by partition', async () => {
    const t = await writeTable('no-id', 1, {})
    const table = await openTable(t)
    const byRegion = await table.probe('region', ['eu'])
    assert.deepEqual(kept(byRegion), [['kept']])
    assert.deepEqual(kept(await table.probe('city', ['rome'])), [['kept']])
    await table.close()
  })

  test('a manifest written with spec 0 is read with spec 0', async () => {
    const t = await writeTable('spec0', 0, { 'partition-spec-id': '0' })
    const table = await openTable(t)
    const byRegion = await table.probe('region', ['eu', 'us'])
    assert.deepEqual(kept(byRegion), [['kept', 'absent:table-partition']])
    await table.close()
  })
})
