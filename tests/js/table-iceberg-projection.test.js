// Which column of an Iceberg data file holds a table field (spec "Column Projection"), on tables built by hand
// from the spec: files without field ids (imported from other writers) are read through the table's name mapping
// (`schema.name-mapping.default`), never by a name that has meant another field; a file without a column added
// since holds its `initial-default` (v3), which must not be answered absent. Truth: the files' rows as hyparquet
// reads them, mapped to fields as the spec's rules say.
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { IcebergFileColumns } from '../../js/table/iceberg-columns.js'
import { parquetWithIds, writeDroppedColumnTable, writeIcebergTable } from './helpers/iceberg-writer.js'
import { readParquet } from './helpers/table-truth.js'
import { tempDir } from '../../testkit/temp-dir.js'

const top = await tempDir('iceberg-projection')
let made = 0

/** Parquet bytes of long columns without field ids, as a writer that is not Iceberg's writes them. */
const parquetWithoutIds = (columns) =>
  new Uint8Array(parquetWriteBuffer({ columnData: Object.entries(columns).map(([name, data]) => ({ name, data, type: 'INT64' })) }))

/**
 * A table of one imported file (columns a = [10, 11], b = [20, 21], no field ids) whose schema now names field 1
 * `b` and field 2 `c`: columns renamed since the import (b to c, then a to b).
 */
async function importedTable(edit) {
  const root = path.join(top, `t${++made}`)
  const file = parquetWithoutIds({ a: [10n, 11n], b: [20n, 21n] })
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'b', type: 'long' }, { id: 2, name: 'c', type: 'long' }],
    files: { 'data/imported.parquet': file },
    manifests: [{ entries: [{ file: { file_path: 'data/imported.parquet', record_count: 2 } }] }], ...edit })
  const truth = await readParquet(path.join(root, 'data/imported.parquet'))
  assert.deepEqual(truth.rows, [{ a: 10n, b: 20n }, { a: 11n, b: 21n }])
  return root
}

/** Each value's verdict in the table's one file (options: openTable's, such as a table index; probing: probe's). */
async function verdicts(root, column, values, options = {}, probing = {}) {
  const table = await openTable(root, options)
  try {
    const result = await table.probe(column, values, probing)
    return result.files[0].values.map((v) => `${v.verdict}${v.verdict === 'unknown' ? `:${v.reason}` : ''}`)
  } finally {
    await table.close()
  }
}

test('a file without field ids is read through the name mapping: a renamed column is found under its old name', async () => {
  // The mapping as Iceberg writes it on import, kept when columns are renamed: the files' names, by field id.
  const root = await importedTable({ properties: { 'schema.name-mapping.default': JSON.stringify([
    { 'field-id': 1, names: ['a'] }, { 'field-id': 2, names: ['b'] }]) } })
  // Field 1 (now `b`) is the file's column a: 10 and 11. Read by the name `b` it was the file's column b (20, 21):
  // 10 was absent.
  assert.deepEqual(await verdicts(root, 'b', [10n, 11n, 20n]), ['maybe', 'maybe', 'absent'])
  // Field 2 (now `c`) is the file's column b; the file has no column c.
  assert.deepEqual(await verdicts(root, 'c', [20n, 21n, 10n]), ['maybe', 'maybe', 'absent'])
  // Confirmed in the rows of the column the mapping names.
  assert.deepEqual(await verdicts(root, 'b', [11n, 21n], {}, { confirm: true }), ['present', 'absent'])
  // A table index reads each file's column as a probe does: its filters of field 1 are the file's column a.
  const index = path.join(root, 'index.puffin')
  await buildSidecarIndex(null, index, { table: root, columns: ['b'], fpp: 0.001 })
  const table = await openTable(root, { index })
  const result = await table.probe('b', [10n, 11n])
  assert.equal(result.totals.index.described, 1)
  assert.deepEqual(result.files[0].values.map((v) => v.verdict), ['maybe', 'maybe'])
  await table.close()
})

test('point lookups (columns) name the table\'s columns: each is read from the file\'s column of its field, and keyed by the table\'s name',
  async () => {
    const root = await importedTable({ properties: { 'schema.name-mapping.default': JSON.stringify([
      { 'field-id': 1, names: ['a'] }, { 'field-id': 2, names: ['b'] }]) } })
    const table = await openTable(root)
    try {
      // Row 1: field 1 (`b`) is the file's a (11), field 2 (`c`) the file's b (21). Read by name, `b` was 21 and `c` not there.
      for (const columns of [['c', 'b'], ['b']]) {
        const [file] = (await table.probe('b', [11n], { confirm: true, columns })).files
        const [found] = file.values
        assert.deepEqual([found.verdict, found.rows], ['present', [1]])
        const expected = columns.length === 2 ? { c: 21n, b: 11n } : { b: 11n }
        assert.deepEqual(found.values, [expected])
        assert.deepEqual(file.rowGroups.flatMap((g) => g.results[0].values ?? []), [expected])
      }
    } finally {
      await table.close()
    }
  })

test('a name mapping that gives a field none of the file\'s columns, or one name twice, finds no column (unknown)', async () => {
  const none = await importedTable({ properties: { 'schema.name-mapping.default': JSON.stringify([{ 'field-id': 2, names: ['b'] }]) } })
  assert.deepEqual(await verdicts(none, 'b', [10n, 20n]), ['unknown:column-missing', 'unknown:column-missing'])
  const twice = await importedTable({ properties: { 'schema.name-mapping.default': JSON.stringify([
    { 'field-id': 1, names: ['a', 'b'] }, { 'field-id': 2, names: ['b'] }]) } })
  assert.deepEqual(await verdicts(twice, 'b', [10n, 20n]), ['unknown:column-missing', 'unknown:column-missing'])
  const broken = await importedTable({ properties: { 'schema.name-mapping.default': '{"field-id": 1' } })
  assert.deepEqual(await verdicts(broken, 'b', [10n]), ['unknown:column-missing'])
})

test('without a name mapping, a file without field ids is read by a name only while it has always meant the field', async () => {
  // Schema 0 named the fields a and b, as the file does; schema 1 renamed b to c, then a to b. The file's column b
  // is field 2's; field 1, now named b, is its column a (so Iceberg Java reads it too: by position, when a file
  // has neither ids nor a mapping).
  const root = await importedTable({ editMetadata: (metadata) => {
    metadata.schemas = [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'a', required: false, type: 'long' },
      { id: 2, name: 'b', required: false, type: 'long' }] }, { ...metadata.schemas[0], 'schema-id': 1 }]
    metadata['current-schema-id'] = 1
  } })
  assert.deepEqual(await verdicts(root, 'b', [10n, 20n]), ['unknown:column-missing', 'unknown:column-missing'])
  assert.deepEqual(await verdicts(root, 'c', [20n]), ['unknown:column-missing'])
  // A table whose only schema names the fields as the file does reads them by name, as before.
  const plain = await importedTable({ schema: [{ id: 1, name: 'a', type: 'long' }, { id: 2, name: 'b', type: 'long' }] })
  assert.deepEqual(await verdicts(plain, 'a', [10n, 20n]), ['maybe', 'absent'])
})

test('without a name mapping, a file without field ids is read by a name only where Iceberg Java\'s position agrees', async () => {
  // The file's columns are b then a. Iceberg Java reads a file with neither ids nor a mapping by position (its 1st column
  // as field 1, ParquetSchemaUtil.addFallbackIds): field 1 (a) is the file's b (20, 21). The spec reads nulls. Read by
  // name, a=10 was present and a=20 absent: both wrong by Java, the first by the spec too.
  const root = path.join(top, `t${++made}`)
  const file = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'b', data: [20n, 21n], type: 'INT64' },
    { name: 'a', data: [10n, 11n], type: 'INT64' }] }))
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'a', type: 'long' }, { id: 2, name: 'b', type: 'long' }],
    files: { 'data/imported.parquet': file },
    manifests: [{ entries: [{ file: { file_path: 'data/imported.parquet', record_count: 2 } }] }] })
  assert.deepEqual((await readParquet(path.join(root, 'data/imported.parquet'))).rows, [{ b: 20n, a: 10n }, { b: 21n, a: 11n }])
  for (const column of ['a', 'b']) {
    assert.deepEqual(await verdicts(root, column, [10n, 20n], {}, { confirm: true }), ['unknown:column-missing', 'unknown:column-missing'])
  }
  // A nested field of such a file: Java reads none of them by name.
  const lat = { id: 2, name: 'loc.lat', type: { kind: 'double' }, topLevel: false }
  const columns = new IcebergFileColumns(null, [[{ id: 1, name: 'loc', type: { kind: 'other' }, topLevel: true }, lat]], [], [])
  assert.ok('missing' in columns.columnOf([{ path: ['loc', 'lat'] }], lat))
})

test('without ids or a name mapping, a point lookup of a column the probe cannot read gives no values (why), not a made-up null', async () => {
  // Iceberg Java reads such a file by position (top-level fields only: nested ones get no id), the spec reads nulls; the probe
  // answers unknown for loc.lat and for a (field 1, the file's 1st column is b). Their row values were { lat: null } and null,
  // where the file holds 1.5 and 10.
  const root = path.join(top, `t${++made}`)
  const file = new Uint8Array(parquetWriteBuffer({ schema: [{ name: 'root', num_children: 4 },
    { name: 'b', type: 'INT64', repetition_type: 'OPTIONAL' }, { name: 'a', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'loc', repetition_type: 'OPTIONAL', num_children: 1 }, { name: 'lat', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL' }],
  columnData: [{ name: 'b', data: [20n] }, { name: 'a', data: [10n] }, { name: 'loc', data: [{ lat: 1.5 }] }, { name: 'id', data: [1n] }] }))
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'a', type: 'long' }, { id: 2, name: 'b', type: 'long' },
    { id: 3, name: 'loc', type: { type: 'struct', fields: [{ id: 5, name: 'lat', required: false, type: 'double' }] } },
    { id: 4, name: 'id', type: 'long' }],
  files: { 'data/imported.parquet': file }, manifests: [{ entries: [{ file: { file_path: 'data/imported.parquet', record_count: 1 } }] }] })
  assert.deepEqual((await readParquet(path.join(root, 'data/imported.parquet'))).rows, [{ b: 20n, a: 10n, loc: { lat: 1.5 }, id: 1n }])
  for (const column of ['loc.lat', 'a']) {
    assert.deepEqual(await verdicts(root, column, [1.5], {}, { confirm: true }), ['unknown:column-missing'], column)
  }
  const table = await openTable(root)
  try {
    // id is read (Java's 4th column is field 4, id): its rows' values are given with the others' or not at all.
    assert.deepEqual((await table.probe('id', [1n], { confirm: true, columns: ['id'] })).files[0].values[0].values, [{ id: 1n }])
    for (const [columns, named] of [[['id', 'loc'], /loc\.lat/], [['id', 'a'], /column a /]]) {
      const [value] = (await table.probe('id', [1n], { confirm: true, columns })).files[0].values
      assert.equal(value.verdict, 'present')
      assert.equal(value.values, undefined, JSON.stringify(columns))
      assert.match(value.detail, named)
    }
  } finally {
    await table.close()
  }
})

test('a file with field ids is read by them whatever the name mapping says', async () => {
  const root = path.join(top, `t${++made}`)
  const file = parquetWithIds([{ id: 1, name: 'a', type: 'long', data: [10n, 11n] }, { id: 2, name: 'b', type: 'long', data: [20n, 21n] }])
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'b', type: 'long' }, { id: 2, name: 'c', type: 'long' }],
    properties: { 'schema.name-mapping.default': JSON.stringify([{ 'field-id': 1, names: ['b'] }, { 'field-id': 2, names: ['a'] }]) },
    files: { 'data/f.parquet': file }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  assert.deepEqual(await verdicts(root, 'b', [10n, 20n]), ['maybe', 'absent'])
})

test('a column dropped from the schema is no column of the table: files written before still hold it, and are not asked', async () => {
  const root = path.join(top, `t${++made}`)
  await writeDroppedColumnTable(root) // schema 0 had x (field 2); schema 1, current, dropped it
  // The table (its current schema) has no x: its file's column x was `present` for 7.
  await assert.rejects(verdicts(root, 'x', [7n], {}, { confirm: true }), (e) => e.code === 'COLUMN_NOT_FOUND' && /field 2/.test(e.message))
  // Read at the snapshot by id, its schema's x is field 2 (as Iceberg reads a snapshot asked for by id).
  assert.deepEqual(await verdicts(root, 'x', [7n, 9n], { snapshot: 1 }), ['maybe', 'absent'])
})

test('at a snapshot asked for by id or tag, a name is its schema\'s field even where the current schema gives it another', async () => {
  // Schema 0 (the snapshot's) named field 1 a and field 2 b, as the file does; schema 1, current, swapped the names.
  const root = path.join(top, `t${++made}`)
  const file = parquetWithIds([{ id: 1, name: 'a', type: 'long', data: [10n, 11n] }, { id: 2, name: 'b', type: 'long', data: [20n, 21n] }])
  const field = (id, name) => ({ id, name, required: false, type: 'long' })
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'a', type: 'long' }, { id: 2, name: 'b', type: 'long' }],
    files: { 'data/f.parquet': file }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }],
    editMetadata: (metadata) => {
      metadata.schemas.push({ type: 'struct', 'schema-id': 1, fields: [field(1, 'b'), field(2, 'a')] })
      metadata['current-schema-id'] = 1
      metadata.refs.v0 = { 'snapshot-id': 1, type: 'tag' }
    } })
  // The current schema's a is field 2 (20, 21); the snapshot's (Iceberg Java's useSnapshot: SnapshotUtil.schemaFor) field 1
  // (10, 11), where 10 was absent and 20 present.
  assert.deepEqual(await verdicts(root, 'a', [10n, 20n], {}, { confirm: true }), ['absent', 'present'])
  for (const snapshot of [1, 'v0']) {
    assert.deepEqual(await verdicts(root, 'a', [10n, 20n], { snapshot }, { confirm: true }), ['present', 'absent'])
  }
  // A branch is read with the current schema.
  assert.deepEqual(await verdicts(root, 'a', [10n, 20n], { snapshot: 'main' }, { confirm: true }), ['absent', 'present'])
})

test('which names are no column of the table: an older schema\'s field under a name the table gives no field, or another', () => {
  const f = (id, name) => ({ id, name, type: { kind: 'long' } })
  const old = [f(1, 'a'), f(2, 'x'), f(3, 'loc'), f(4, 'loc.alt'), f(5, 'tags')]
  const current = [f(1, 'b'), f(3, 'loc'), f(6, 'loc.lat'), f(5, 'tags'), f(7, 'x')]
  const columns = new IcebergFileColumns(null, null, [old, current], current)
  assert.match(String(columns.notAColumn('a')), /field 1 had that name/) // renamed to b
  assert.match(String(columns.notAColumn('loc.alt')), /field 4/) // a dropped nested field
  assert.equal(columns.notAColumn('tags.list.element'), null) // under a field of the table (a list's element)
  assert.equal(columns.notAColumn('never'), null)
  // x is field 7 now; field 2 had the name before: the table's x, not a former name.
  assert.equal(columns.notAColumn('x'), null)
})
