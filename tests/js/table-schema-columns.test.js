// A table's probe names the table's columns, as its schema gives them (Iceberg spec "Schema Evolution", "Column
// Projection", "Reserved Field IDs", "Row Lineage"; Delta PROTOCOL.md "Row Tracking"): a name the schema does not
// have is no column of the table, whatever a data file holds under it. Truth: the spec's rows, written here.
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { ErrorCode, openTable } from '../../js/index.js'
import { parquetWithIds, writeDroppedColumnTable, writeIcebergTable } from './helpers/iceberg-writer.js'
import { readParquet } from './helpers/table-truth.js'
import { mappedField, pad, writeDeltaFiles, writeOneFileTable } from '../../testkit/delta-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'

const top = await tempDir('table-schema-columns')
let made = 0
const ROW_ID = 2147483540 // spec "Reserved Field IDs": _row_id

const LIST_OF_LONG = { type: 'list', 'element-id': 3, element: 'long', 'element-required': false }

/** Parquet bytes of id (field 1: 1, 2) and tags (field 2, a list of longs, its element field 3: [5, 6], [7]). */
function withTags() {
  const schema = [{ name: 'root', num_children: 2 }, { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 3 }]
  const columnData = [{ name: 'id', data: [1n, 2n] }, { name: 'tags', data: [[5n, 6n], [7n]] }]
  return new Uint8Array(parquetWriteBuffer({ schema, columnData }))
}

const notFound = (name) => (error) => error.code === ErrorCode.COLUMN_NOT_FOUND && error.message.includes(JSON.stringify(name))

/** Every way a table probe names a column: probe, probeEach, and a point lookup. */
async function assertNoColumn(root, name, value, probed) {
  const table = await openTable(root)
  try {
    await assert.rejects(table.probe(name, [value], { confirm: true }), notFound(name))
    await assert.rejects(async () => {
      for await (const f of table.probeEach(name, [value])) assert.fail(`answered ${f.path}`)
    }, notFound(name))
    await assert.rejects(table.probe(probed.column, [probed.value], { confirm: true, columns: [name] }), notFound(name))
  } finally {
    await table.close()
  }
}

test('Iceberg: a file\'s column with a field id the schema does not have is no column of the table', async () => {
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }],
    files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n, 2n] },
      { id: 99, name: 'extra', type: 'long', data: [7n, 8n] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  // The table's rows are { id } alone: its file's field 99 was read as a column `extra`, present for 7.
  await assertNoColumn(root, 'extra', 7n, { column: 'id', value: 1n })
})

test('Iceberg v3: _row_id, a metadata column, is not read from a file whose nulls stand for inherited row ids', async () => {
  // Spec "Row Lineage": a null _row_id is the file's first_row_id plus the row's position. This file (first_row_id 100)
  // stores null, null, 7 (its third row was moved here with id 7): the rows' ids are 100, 101 and 7.
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }],
    files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n, 2n, 3n] },
      { id: ROW_ID, name: '_row_id', type: 'long', data: [null, null, 7n] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 3, first_row_id: 100 } }] }],
    editMetadata: (metadata) => { metadata['format-version'] = 3; metadata['next-row-id'] = 103 } })
  assert.deepEqual((await readParquet(path.join(root, 'data/f.parquet'))).rows.map((r) => r._row_id), [null, null, 7n])
  // Read as the file's column, row id 100 was `absent`.
  await assertNoColumn(root, '_row_id', 100n, { column: 'id', value: 1n })
})

/** A Delta table of one file whose columns are id, extra and the materialized row id column; its schema has id alone. */
async function deltaTable() {
  const file = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [1, 2, 3], type: 'INT32' },
    { name: 'extra', data: [7, 8, 9], type: 'INT32' }, { name: '_row-id-col-1', data: [null, null, 7n], type: 'INT64' }] }))
  const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} }] }
  const actions = [
    { protocol: { minReaderVersion: 1, minWriterVersion: 7, writerFeatures: ['domainMetadata', 'rowTracking'] } },
    { metaData: { id: 'rows', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration: { 'delta.enableRowTracking': 'true', 'delta.rowTracking.materializedRowIdColumnName': '_row-id-col-1',
        'delta.rowTracking.materializedRowCommitVersionColumnName': '_row-commit-version-col-1' } } },
    { add: { path: 'f.parquet', partitionValues: {}, size: file.length, modificationTime: 0, dataChange: true, baseRowId: 100,
      defaultRowCommitVersion: 0 } },
  ]
  return writeDeltaFiles(path.join(top, `d${++made}`), { [`${pad(0)}.json`]: actions.map((a) => JSON.stringify(a)).join('\n') },
    { 'f.parquet': file })
}

test('Delta: a file\'s column the schema does not have, and the materialized row id column, are no columns of the table', async () => {
  const root = await deltaTable()
  await assertNoColumn(root, 'extra', 7, { column: 'id', value: 1 })
  // PROTOCOL.md "Row Tracking": a null materialized row id is baseRowId + the row's position; the rows' ids are 100, 101, 7.
  // Read as the file's column, 100 was `absent`.
  await assertNoColumn(root, '_row-id-col-1', 100n, { column: 'id', value: 1 })
})

test('a column dropped from the schema, or a typo, is COLUMN_NOT_FOUND up front; a list\'s element under a column is not', async () => {
  const root = path.join(top, `t${++made}`)
  await writeDroppedColumnTable(root) // schema 0 had x (field 2); schema 1, current, dropped it
  const table = await openTable(root)
  try {
    // The dropped column's values are still in the file: as a point lookup they were the rows' `x`.
    await assert.rejects(table.probe('id', [1n], { confirm: true, columns: ['id', 'x'] }),
      (e) => notFound('x')(e) && /field 2/.test(e.message))
    await assert.rejects(table.probe('x', [7n]), notFound('x'))
    await assert.rejects(table.probe('id', [1n], { confirm: true, columns: ['ID'] }), notFound('ID'))
    const found = (await table.probe('id', [1n], { confirm: true, columns: ['id'] })).files[0].values[0]
    assert.deepEqual([found.verdict, found.values], ['present', [{ id: 1n }]])
  } finally {
    await table.close()
  }
  // A list column's element is probed by the file's names under the table's column.
  const list = path.join(top, `t${++made}`)
  await writeIcebergTable(list, { schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'tags', type: LIST_OF_LONG }],
    files: { 'data/f.parquet': withTags() }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  const tags = await openTable(list)
  try {
    const result = await tags.probe('tags.list.element', [6n, 9n], { confirm: true })
    assert.deepEqual(result.files[0].values.map((v) => v.verdict), ['present', 'absent'])
  } finally {
    await tags.close()
  }
})

test('Iceberg: a list column in point lookups is read from the file\'s column of its element\'s field id', async () => {
  // The file's leaf tags.list.element carries the element's id (3), not the list's (2): tags read null for [5, 6].
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'labels', type: LIST_OF_LONG }],
    files: { 'data/f.parquet': withTags() }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  assert.deepEqual((await readParquet(path.join(root, 'data/f.parquet'))).rows, [{ id: 1n, tags: [5n, 6n] }, { id: 2n, tags: [7n] }])
  const tags = await openTable(root)
  try {
    // Renamed since (tags to labels): keyed by the table's name.
    const found = (await tags.probe('id', [1n], { confirm: true, columns: ['id', 'labels'] })).files[0].values[0]
    assert.deepEqual([found.verdict, found.rows, found.values], ['present', [0], [{ id: 1n, labels: [5n, 6n] }]])
  } finally {
    await tags.close()
  }
})

test('a list\'s element probed by name is read from the table\'s list column, not a file column of that name', async () => {
  // Delta column mapping enabled on a table whose list tags kept "tags" as its physical name; tags was renamed old and a new
  // list tags (physical col-new) added. The old file's tags.list.element is old's: read as tags', 5 was present there,
  // where the table's tags is null in that file (PROTOCOL.md "Reader Requirements for Column Mapping").
  const schema = [{ name: 'root', num_children: 2 }, { name: 'a', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' }]
  const columnData = [{ name: 'a', data: [1, 2] }, { name: 'tags', data: [[5, 6], [7]] }]
  const file = new Uint8Array(parquetWriteBuffer({ schema, columnData }))
  assert.deepEqual((await parquetReadObjects({ file: file.buffer })).map((r) => r.tags), [[5, 6], [7]])
  const list = { type: 'array', elementType: 'integer', containsNull: true }
  const deltaSchema = { type: 'struct',
    fields: [mappedField('a', 'a', 1, 'integer'), mappedField('old', 'tags', 2, list), mappedField('tags', 'col-new', 3, list)] }
  for (const mode of ['name', 'id']) {
    const table = await openTable(await writeOneFileTable(path.join(top, `d${++made}`), deltaSchema, file, { mode, maxColumnId: 3 }))
    try {
      const verdicts = async (column) => (await table.probe(column, [5, 99], { confirm: true })).files[0].values.map((v) => v.verdict)
      // The table's tags is null in this file: 5 is not there (unknown here: the file has no column of it).
      assert.deepEqual(await verdicts('tags.list.element'), ['unknown', 'unknown'], mode)
      // old's list holds 5 (read as unknown before: the file has no column "old.list.element").
      assert.deepEqual(await verdicts('old.list.element'), ['present', 'absent'], mode)
      const values = (await table.probe('a', [1], { confirm: true, columns: ['old', 'tags'] })).files[0].values[0].values
      assert.deepEqual(values, [{ old: [5, 6], tags: null }], mode)
    } finally {
      await table.close()
    }
  }
})

test('Iceberg: a list\'s element probed by name is the table\'s list, by field id, not the file\'s column of that name', async () => {
  // The file's tags (field 2, element 3) holds [5, 6]; the table renamed it labels and added a list tags (4, element 5),
  // its old schema since removed. Read by name, tags.list.element was field 3's: 5 present, where tags is null in the file.
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'labels', type: LIST_OF_LONG },
    { id: 4, name: 'tags', type: { ...LIST_OF_LONG, 'element-id': 5 } }],
  files: { 'data/f.parquet': withTags() }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  const table = await openTable(root)
  try {
    const verdicts = async (column) => (await table.probe(column, [5n, 99n], { confirm: true })).files[0].values.map((v) => v.verdict)
    assert.deepEqual(await verdicts('tags.list.element'), ['unknown', 'unknown'])
    // Unknown before (the file has no column labels.list.element).
    assert.deepEqual(await verdicts('labels.list.element'), ['present', 'absent'])
  } finally {
    await table.close()
  }
})

test('Iceberg: an element of a list of lists is probed under the table\'s name of the list (renamed since)', async () => {
  // The file's aa (field 2) holds [[5], [6]] and [[7]]; the table renamed it bb. No struct under it: no name below is a field's.
  const schema = [{ name: 'root', num_children: 2 }, { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'aa', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 3 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 4 }]
  const columnData = [{ name: 'id', data: [1n, 2n] }, { name: 'aa', data: [[[5n], [6n]], [[7n]]] }]
  const file = new Uint8Array(parquetWriteBuffer({ schema, columnData }))
  assert.deepEqual((await parquetReadObjects({ file: file.buffer })).map((r) => r.aa), [[[5n], [6n]], [[7n]]])
  const root = path.join(top, `t${++made}`)
  const listOfLists = { type: 'list', 'element-id': 3, element: { ...LIST_OF_LONG, 'element-id': 4 }, 'element-required': false }
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'bb', type: listOfLists }],
  files: { 'data/f.parquet': file }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  const table = await openTable(root)
  try {
    const found = (await table.probe('bb.list.element.list.element', [7n, 99n], { confirm: true })).files[0].values
    assert.deepEqual(found.map((v) => [v.verdict, v.rows]), [['present', [1]], ['absent', undefined]])
  } finally {
    await table.close()
  }
})

/** Parquet bytes of id, a list "a.b" ([5, 6], [7]), a list a ([8], [9]) and a struct s with a list "x.y" ([10], [11]). */
function dottedLists(names, ids) {
  const list = (name, id) => [{ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: ids && id },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL', field_id: ids && id + 1 }]
  const schema = [{ name: 'root', num_children: 4 }, { name: 'id', type: 'INT32', repetition_type: 'OPTIONAL', field_id: ids && 1 },
    ...list(names.ab, 2), ...list(names.a, 4), { name: names.s, repetition_type: 'OPTIONAL', num_children: 1, field_id: ids && 6 },
    ...list(names.xy, 7)].map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined && v !== false)))
  const columnData = [{ name: 'id', data: [1, 2] }, { name: names.ab, data: [[5, 6], [7]] }, { name: names.a, data: [[8], [9]] },
    { name: names.s, data: [{ [names.xy]: [10] }, { [names.xy]: [11] }] }]
  return new Uint8Array(parquetWriteBuffer({ schema, columnData }))
}

/** Each probe of a dotted list's element, by path and string, against the lists' values as DuckDB reads the file. */
async function assertDottedLists(table, file, names) {
  const db = await duckdb()
  let rows
  try {
    rows = await db.rows(`SELECT "${names.ab}" AS ab, "${names.s}"."${names.xy}" AS xy FROM read_parquet(${quote(file)}) ORDER BY id`)
  } finally {
    db.close()
  }
  assert.deepEqual(rows, [{ ab: [5, 6], xy: [10] }, { ab: [7], xy: [11] }])
  const holds = (list) => (v) => rows.some((r) => r[list].includes(v)) ? 'present' : 'absent'
  const values = [5, 7, 8, 10, 11]
  for (const [column, list] of [[['a.b', 'list', 'element'], 'ab'], ['a.b.list.element', 'ab'],
    [['s', 'x.y', 'list', 'element'], 'xy'], ['s.x.y.list.element', 'xy']]) {
    const found = (await table.probe(column, values, { confirm: true })).files[0].values.map((v) => v.verdict)
    assert.deepEqual(found, values.map(holds(list)), JSON.stringify(column))
  }
  const looked = (await table.probe('id', [1, 2], { confirm: true, columns: ['a.b', 'a'] })).files[0].values.map((v) => v.values[0])
  assert.deepEqual(looked, [{ 'a.b': [5, 6], a: [8] }, { 'a.b': [7], a: [9] }])
}

test('Delta: the element of a list named "a.b" (top-level, or in a struct) is probed in that list, under each column mapping',
  async () => {
  // Its depth in the file was taken from its name's dots: the element path had a segment too many (col-2 → list →
  // list → element), no column of the file, and 5, held by the list, was unknown under column mapping name and id.
  const list = { type: 'array', elementType: 'integer', containsNull: true }
  for (const mode of ['none', 'name', 'id']) {
    const names = mode === 'none' ? { ab: 'a.b', a: 'a', s: 's', xy: 'x.y' } : { ab: 'col-2', a: 'col-4', s: 'col-6', xy: 'col-7' }
    const field = (name, type, physical, id) => ({ name, type, nullable: true,
      metadata: mode === 'none' ? {} : { 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': physical } })
    const deltaSchema = { type: 'struct', fields: [field('id', 'integer', 'id', 1), field('a.b', list, names.ab, 2),
      field('a', list, names.a, 4), field('s', { type: 'struct', fields: [field('x.y', list, names.xy, 7)] }, names.s, 6)] }
    const file = dottedLists(names, mode !== 'none')
    const root = await writeOneFileTable(path.join(top, `d${++made}`), deltaSchema, file, { mode, maxColumnId: 8 })
    const table = await openTable(root)
    try {
      await assertDottedLists(table, path.join(root, 'a.parquet'), names)
    } finally {
      await table.close()
    }
  }
})

test('Iceberg: a list named "a.b" (top-level, or in a struct) is probed in its own column, and `columns: [\'a\']` is a, not "a.b"',
  async () => {
  // By its dotted name, "a.b"'s element path had a segment too many (unknown where 5 was held), and the point lookup of
  // the list a found "a.b" first as a field "under" a: a's values were "a.b"'s ([5, 6] for [8]).
  const root = path.join(top, `t${++made}`)
  const L = (element) => ({ type: 'list', 'element-id': element, element: 'int', 'element-required': false })
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'a.b', type: L(3) },
    { id: 4, name: 'a', type: L(5) }, { id: 6, name: 's', type: { type: 'struct', fields: [{ id: 7, name: 'x.y', type: L(8) }] } }],
  files: { 'data/f.parquet': dottedLists({ ab: 'a.b', a: 'a', s: 's', xy: 'x.y' }, true) },
  manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }] })
  const table = await openTable(root)
  try {
    await assertDottedLists(table, path.join(root, 'data/f.parquet'), { ab: 'a.b', a: 'a', s: 's', xy: 'x.y' })
  } finally {
    await table.close()
  }
})

test('a list named "a.b" beside a struct a with a list b: the string a.b.list.element is refused, each path is its list',
  async () => {
  // The string is either list's (docs/tables.md: a name two fields share is INVALID_ARGUMENT); it was read as the first:
  // 9, in a's list b (DuckDB: a.b = [9]), was absent from "a.b"'s [5].
  const list = (name, id) => [{ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: id },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL', field_id: id + 1 }]
  const bytes = (n) => new Uint8Array(parquetWriteBuffer({ schema: [{ name: 'root', num_children: 3 },
    { name: 'id', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 1 }, ...list(n.ab, 2),
    { name: n.a, repetition_type: 'OPTIONAL', num_children: 1, field_id: 4 }, ...list(n.b, 5)],
  columnData: [{ name: 'id', data: [1] }, { name: n.ab, data: [[5]] }, { name: n.a, data: [{ [n.b]: [9] }] }] }))
  const iceberg = path.join(top, `t${++made}`)
  const L = (element) => ({ type: 'list', 'element-id': element, element: 'int', 'element-required': false })
  await writeIcebergTable(iceberg, { schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'a.b', type: L(3) },
    { id: 4, name: 'a', type: { type: 'struct', fields: [{ id: 5, name: 'b', type: L(6) }] } }],
  files: { 'data/f.parquet': bytes({ ab: 'a.b', a: 'a', b: 'b' }) },
  manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 1 } }] }] })
  const array = { type: 'array', elementType: 'integer', containsNull: true }
  const deltaSchema = { type: 'struct', fields: [mappedField('id', 'id', 1, 'integer'), mappedField('a.b', 'col-2', 2, array),
    mappedField('a', 'col-4', 4, { type: 'struct', fields: [mappedField('b', 'col-5', 5, array)] })] }
  const file = bytes({ ab: 'col-2', a: 'col-4', b: 'col-5' })
  const delta = await writeOneFileTable(path.join(top, `d${++made}`), deltaSchema, file, { mode: 'name', maxColumnId: 6 })
  const db = await duckdb()
  try {
    const truth = `SELECT "col-2" AS ab, "col-4"."col-5" AS b FROM read_parquet(${quote(path.join(delta, 'a.parquet'))})`
    assert.deepEqual(await db.rows(truth), [{ ab: [5], b: [9] }])
  } finally {
    db.close()
  }
  for (const root of [iceberg, delta]) {
    const table = await openTable(root)
    try {
      await assert.rejects(table.probe('a.b.list.element', [5, 9], { confirm: true }), (e) => e.code === ErrorCode.INVALID_ARGUMENT)
      const verdicts = async (column) => (await table.probe(column, [5, 9], { confirm: true })).files[0].values.map((v) => v.verdict)
      assert.deepEqual(await verdicts(['a.b', 'list', 'element']), ['present', 'absent'], root)
      assert.deepEqual(await verdicts(['a', 'b', 'list', 'element']), ['absent', 'present'], root)
    } finally {
      await table.close()
    }
  }
})
