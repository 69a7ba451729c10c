// A table index names its columns as the table did when it was built; a rename since (Iceberg: the name moves to
// another field id; Delta with column mapping: to another physical column) must not let the index answer for the
// field now under that name, whose values it never saw. An index built from files (no record) knows columns by the
// names the files carry: it is asked by those (Delta's physical name), and not at all for an Iceberg name the files
// may give another field; nor for a Delta partition column, whose values are the log's. Truth: the files' rows as hyparquet
// reads them, and the log's partition values as Spark reads them.
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { parquetWithIds, writeIcebergTable } from './helpers/iceberg-writer.js'
import { readParquet } from './helpers/table-truth.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'

const top = await tempDir('table-index-renames')
let made = 0

/** Probes `column` for `values` with and without the index; every value some live row holds must not be absent. */
async function assertNoFalseNegative(root, index, column, values, heldBy) {
  for (const options of [{}, { index }]) {
    const table = await openTable(root, options)
    const result = await table.probe(column, values)
    values.forEach((v, k) => {
      if (!heldBy(v)) return
      assert.notEqual(result.files[0]?.values[k].verdict ?? 'absent', 'absent',
        `${column} = ${v} is in a row ${options.index ? 'with' : 'without'} the index`)
    })
    await table.close()
  }
}

test('Iceberg: two columns swap names after the index was built (same snapshot): the index does not answer for the other field', async () => {
  const dir = path.join(top, `table-index-rename-iceberg-${++made}`)
  mkdirSync(dir)
  const root = path.join(dir, 't')
  const bytes = parquetWithIds([{ id: 1, name: 'a', type: 'long', data: [1n, 2n, 3n] }, { id: 2, name: 'b', type: 'long', data: [100n, 200n, 300n] }])
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'a', type: 'long' }, { id: 2, name: 'b', type: 'long' }],
    files: { 'data/f0.parquet': bytes }, manifests: [{ entries: [{ file: { file_path: 'data/f0.parquet', record_count: 3 } }] }] })
  const index = path.join(dir, 't.puffin')
  await buildSidecarIndex(null, index, { table: root, columns: ['a'], fpp: 0.001 })
  const before = await openTable(root, { index })
  assert.equal((await before.probe('a', [2n])).totals.index.described, 1, 'before the rename the index answers for a')
  await before.close()
  // A schema change alone: a new metadata.json, the same snapshot; field 2 (written as b) is now named a.
  const metadata = JSON.parse(readFileSync(path.join(root, 'metadata', 'v1.metadata.json'), 'utf8'))
  metadata.schemas.push({ type: 'struct', 'schema-id': 1, fields: [
    { id: 1, name: 'b', required: false, type: 'long' }, { id: 2, name: 'a', required: false, type: 'long' }] })
  metadata['current-schema-id'] = 1
  writeFileSync(path.join(root, 'metadata', 'v2.metadata.json'), JSON.stringify(metadata))
  writeFileSync(path.join(root, 'metadata', 'version-hint.text'), '2')
  const { rows } = await readParquet(path.join(root, 'data/f0.parquet'))
  const fieldTwo = new Set(rows.map((r) => r.b)) // the file's column of field id 2
  assert.ok(fieldTwo.has(200n))
  await assertNoFalseNegative(root, index, 'a', [200n, 300n, 2n], (v) => fieldTwo.has(v))
  const table = await openTable(root, { index })
  const result = await table.probe('a', [200n])
  assert.equal(result.totals.index.described, 0, 'the index holds field 1 under a, not field 2')
  await table.close()
})

/** A Delta field of type long under column mapping: its logical name, id and physical name. */
const mapped = (name, id, physical) =>
  ({ name, type: 'long', nullable: true, metadata: { 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': physical } })

/**
 * A Delta table in a folder of its own whose one file holds the long columns `physical[0]` = 1, 2, 3 and `physical[1]` = 100,
 * 200, 300; `commit(version, actions)` writes a commit, `metaData(fields)` and `add` are its actions.
 * @param {string} label @param {[string, string]} physical
 */
function deltaTableOfTwoColumns(label, physical) {
  const dir = path.join(top, `${label}-${++made}`)
  mkdirSync(dir)
  const root = path.join(dir, 't')
  mkdirSync(path.join(root, '_delta_log'), { recursive: true })
  const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [
    { name: physical[0], data: BigInt64Array.of(1n, 2n, 3n), type: 'INT64' },
    { name: physical[1], data: BigInt64Array.of(100n, 200n, 300n), type: 'INT64' }] }))
  writeFileSync(path.join(root, 'part-0.parquet'), bytes)
  const metaData = (fields) => ({ metaData: { id: label, format: { provider: 'parquet', options: {} },
    schemaString: JSON.stringify({ type: 'struct', fields }), partitionColumns: [],
    configuration: { 'delta.columnMapping.mode': 'name', 'delta.columnMapping.maxColumnId': '2' } } })
  const commit = (version, actions) =>
    writeFileSync(path.join(root, '_delta_log', `${String(version).padStart(20, '0')}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
  const add = { add: { path: 'part-0.parquet', partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true,
    stats: '{"numRecords":3}' } }
  return { dir, root, commit, metaData, add }
}

test('Delta with column mapping: two columns swap names in a later commit: the index does not answer for the other column', async () => {
  const { dir, root, commit, metaData, add } = deltaTableOfTwoColumns('table-index-rename-delta', ['col-a', 'col-b'])
  commit(0, [{ protocol: { minReaderVersion: 2, minWriterVersion: 5 } }, metaData([mapped('a', 1, 'col-a'), mapped('b', 2, 'col-b')]), add])
  const index = path.join(dir, 't.puffin')
  await buildSidecarIndex(null, index, { table: root, columns: ['a'], fpp: 0.001 })
  commit(1, [metaData([mapped('b', 1, 'col-a'), mapped('a', 2, 'col-b')])])
  const { rows } = await readParquet(path.join(root, 'part-0.parquet'))
  const colB = new Set(rows.map((r) => r['col-b'])) // the physical column logical a now names
  assert.ok(colB.has(200n))
  await assertNoFalseNegative(root, index, 'a', [200n, 300n, 2n], (v) => colB.has(v))
})

test('Iceberg, an index built from files: a name the table gave another field is not answered from the files\' column of that name', async () => {
  const bytes = parquetWithIds([{ id: 1, name: 'a', type: 'long', data: [1n, 2n, 3n] }, { id: 2, name: 'b', type: 'long', data: [100n, 200n, 300n] }])
  const field = (id, name) => ({ id, name, required: false, type: 'long' })
  const renamed = { type: 'struct', 'schema-id': 1, fields: [field(1, 'b'), field(2, 'a')] }
  const original = { type: 'struct', 'schema-id': 0, fields: [field(1, 'a'), field(2, 'b')] }
  // The files were written under schema 0; schema 1 swapped the names. With schema 0 removed from the metadata the
  // files' names are not known either.
  const histories = { renamed: [original, renamed], 'renamed, schema 0 removed': [renamed], unrenamed: [original] }
  const { rows } = await (async () => {
    const dir = path.join(top, `table-files-index-truth-${++made}`)
    mkdirSync(dir)
    writeFileSync(path.join(dir, 'f.parquet'), bytes)
    return readParquet(path.join(dir, 'f.parquet'))
  })()
  for (const [name, schemas] of Object.entries(histories)) {
    const dir = path.join(top, `table-files-index-iceberg-${++made}`)
    mkdirSync(dir)
    const root = path.join(dir, 't')
    await writeIcebergTable(root, { schema: [{ id: 1, name: 'a', type: 'long' }, { id: 2, name: 'b', type: 'long' }],
      files: { 'data/f0.parquet': bytes }, manifests: [{ entries: [{ file: { file_path: 'data/f0.parquet', record_count: 3 } }] }],
      editMetadata: (metadata) => { metadata.schemas = schemas; metadata['current-schema-id'] = schemas.at(-1)['schema-id'] } })
    const index = path.join(dir, 'files.puffin')
    await settleMtimes(path.join(root, 'data/f0.parquet'))
    await buildSidecarIndex([path.join(root, 'data/f0.parquet')], index, { columns: ['a', 'b'] })
    const idOfA = schemas.at(-1).fields.find((f) => f.name === 'a').id
    const held = new Set(rows.map((r) => (idOfA === 1 ? r.a : r.b))) // the file's column of the field named a now
    await assertNoFalseNegative(root, index, 'a', [2n, 200n], (v) => held.has(v))
    const table = await openTable(root, { index })
    const result = await table.probe('a', [2n])
    assert.equal(result.totals.index.described, name === 'unrenamed' ? 1 : 0, name)
    await table.close()
  }
})

test('Delta, an index built from files: asked by the physical name, the files\' column of the logical name is not taken for it', async () => {
  // Column mapping enabled on a table of a and b (physical names a and b), then the names swapped: logical a is physical b.
  const { dir, root, commit, metaData, add } = deltaTableOfTwoColumns('table-files-index-delta', ['a', 'b'])
  commit(0, [{ protocol: { minReaderVersion: 2, minWriterVersion: 5 } }, metaData([mapped('b', 1, 'a'), mapped('a', 2, 'b')]), add])
  const index = path.join(dir, 'files.puffin')
  await settleMtimes(path.join(root, 'part-0.parquet'))
  await buildSidecarIndex([path.join(root, 'part-0.parquet')], index, { columns: ['a', 'b'] })
  const { rows } = await readParquet(path.join(root, 'part-0.parquet'))
  const physicalB = new Set(rows.map((r) => r.b))
  await assertNoFalseNegative(root, index, 'a', [200n, 2n], (v) => physicalB.has(v))
  const table = await openTable(root, { index })
  const result = await table.probe('a', [200n, 2n])
  assert.equal(result.totals.index.described, 1, 'the files index answers, by the physical name')
  assert.equal(result.files[0].values[1].verdict, 'absent', 'physical b does not hold 2')
  await table.close()
})

test('Delta column mapping id, an index built from files: the files\' column of the physical name is not taken for the field', async () => {
  // As CONVERT TO DELTA logs an Iceberg table whose columns swapped names: id mode, physical names the current names. The
  // file holds id 1 (1, 2, 3) as "a" and id 2 (100, 200, 300) as "b"; the table's `a` is id 2, read by field id.
  const dir = path.join(top, `table-files-index-delta-id-${++made}`)
  const root = path.join(dir, 't')
  mkdirSync(path.join(root, '_delta_log'), { recursive: true })
  const bytes = new Uint8Array(parquetWriteBuffer({
    columnData: [{ name: 'a', data: BigInt64Array.of(1n, 2n, 3n) }, { name: 'b', data: BigInt64Array.of(100n, 200n, 300n) }],
    schema: [{ name: 'root', num_children: 2 }, { name: 'a', type: 'INT64', repetition_type: 'REQUIRED', field_id: 1 },
      { name: 'b', type: 'INT64', repetition_type: 'REQUIRED', field_id: 2 }],
  }))
  writeFileSync(path.join(root, 'part-0.parquet'), bytes)
  const metaData = { metaData: { id: 'converted', format: { provider: 'parquet', options: {} },
    schemaString: JSON.stringify({ type: 'struct', fields: [mapped('b', 1, 'b'), mapped('a', 2, 'a')] }), partitionColumns: [],
    configuration: { 'delta.columnMapping.mode': 'id', 'delta.columnMapping.maxColumnId': '2' } } }
  const add = { add: { path: 'part-0.parquet', partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true,
    stats: '{"numRecords":3}' } }
  writeFileSync(path.join(root, '_delta_log', `${'0'.padStart(20, '0')}.json`),
    [{ protocol: { minReaderVersion: 2, minWriterVersion: 5 } }, metaData, add].map((a) => JSON.stringify(a)).join('\n'))
  const index = path.join(dir, 'files.puffin')
  await buildSidecarIndex([path.join(root, 'part-0.parquet')], index, { columns: ['a', 'b'] })
  const idTwo = new Set([100n, 200n, 300n])
  await assertNoFalseNegative(root, index, 'a', [200n, 2n], (v) => idTwo.has(v))
  // A table index built from the table finds each column by field id too.
  const tableIndex = path.join(dir, 'table.puffin')
  await buildSidecarIndex(null, tableIndex, { table: root, columns: ['a', 'b'], fpp: 0.001 })
  await assertNoFalseNegative(root, tableIndex, 'a', [200n, 2n], (v) => idTwo.has(v))
  await assertNoFalseNegative(root, tableIndex, 'b', [2n, 200n], (v) => v === 2n)
})

test('Delta: a partition column is not answered from an index (of the table or of its files), which saw the files\' column of '
  + 'that name', async () => {
  // p is a binary partition column (its value 'ab' in the log, ASCII: the same bytes in every writer's spelling), and the file
  // holds a column p of other values ('zz': written before p was a partition column). Spark reads p as the log's value in
  // every row (TahoeFileIndex.getPartitionValuesRow), never the file's column: p = 'ab' was absent from the index's filter.
  const dir = path.join(top, `table-index-partition-${++made}`)
  const root = path.join(dir, 't')
  mkdirSync(path.join(root, '_delta_log'), { recursive: true })
  const bytes = parquetWriteBuffer({ columnData: [{ name: 'id', data: [1, 2], type: 'INT32' },
    { name: 'p', data: [new TextEncoder().encode('zz'), new TextEncoder().encode('zz')], type: 'BYTE_ARRAY' }] })
  writeFileSync(path.join(root, 'part-0.parquet'), new Uint8Array(bytes))
  const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} },
    { name: 'p', type: 'binary', nullable: true, metadata: {} }] }
  writeFileSync(path.join(root, '_delta_log', `${'0'.repeat(20)}.json`), [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
    { metaData: { id: 'partition-indexed', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
      partitionColumns: ['p'], configuration: {} } },
    { add: { path: 'part-0.parquet', partitionValues: { p: 'ab' }, size: bytes.byteLength, modificationTime: 0, dataChange: true } },
  ].map((a) => JSON.stringify(a)).join('\n'))
  await settleMtimes(path.join(root, 'part-0.parquet'))
  const tableIndex = path.join(dir, 'table.puffin')
  const filesIndex = path.join(dir, 'files.puffin')
  await buildSidecarIndex(null, tableIndex, { table: root, columns: ['p', 'id'] })
  await buildSidecarIndex([path.join(root, 'part-0.parquet')], filesIndex, { columns: ['p', 'id'] })
  for (const index of [tableIndex, filesIndex]) {
    await assertNoFalseNegative(root, index, 'p', [new TextEncoder().encode('ab')], () => true)
  }
})
