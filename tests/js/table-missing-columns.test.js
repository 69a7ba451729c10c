// Point lookups (`columns`) of a table column a data file has no column of: the rows hold what the table says, not null
// (Iceberg spec "Column Projection": the file's identity partition value, else the field's `initial-default`, else null;
// Delta PROTOCOL.md: partition columns are in the log, not the data files); a struct's fields are the table's (by id,
// or logical name), not the file's. Truth: the spec's values for tables written here, and the expected scan (Spark's
// rows, read with hyparquet) of delta-kernel-rs's golden partition-values table.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../js/index.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { parquetWithIds, writeIcebergTable } from './helpers/iceberg-writer.js'
import { readParquet } from './helpers/table-truth.js'
import { mappedField, writeOneFileTable } from '../../testkit/delta-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

const top = await tempDir('table-missing-columns')
let made = 0

/** The found rows' values per file path, for `value` of `column`. */
async function lookedUp(root, column, value, columns) {
  const table = await openTable(root)
  try {
    const result = await table.probe(column, [value], { confirm: true, columns })
    return Object.fromEntries(result.files.map((f) => [f.path, f.values[0]]))
  } finally {
    await table.close()
  }
}

/**
 * A v3 table: id (1), level (2, initial-default 5), born (3, date, initial-default 2020-01-02), note (4, no default),
 * region (5, identity-partitioned). old.parquet holds id alone (partition eu); new.parquet id, level and region (us).
 */
async function evolvedTable(edit = () => {}) {
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, {
    schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'level', type: 'long' }, { id: 3, name: 'born', type: 'date' },
      { id: 4, name: 'note', type: 'string' }, { id: 5, name: 'region', type: 'string' }],
    spec: [{ name: 'region', transform: 'identity', sourceId: 5, avro: 'string' }],
    files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n, 2n] }]),
      'data/new.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [2n] },
        { id: 2, name: 'level', type: 'long', data: [9n] }, { id: 5, name: 'region', type: 'string', data: ['us'] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/old.parquet', record_count: 2, partition: { region: 'eu' } } },
      { file: { file_path: 'data/new.parquet', record_count: 1, partition: { region: 'us' } } }] }],
    editMetadata: (metadata) => {
      metadata['format-version'] = 3
      metadata['next-row-id'] = 0
      const fields = metadata.schemas[0].fields
      Object.assign(fields[1], { 'initial-default': 5, 'write-default': 5 })
      Object.assign(fields[2], { 'initial-default': '2020-01-02', 'write-default': '2020-01-02' })
      edit(metadata)
    } })
  return root
}

test('Iceberg: a column a file lacks holds its identity partition value, else its initial-default, else null', async () => {
  const byPath = await lookedUp(await evolvedTable(), 'id', 2n, ['id', 'level', 'born', 'note', 'region'])
  const born = new Date(Date.UTC(2020, 0, 2)) // a DATE as hyparquet reads one
  // Read as null before: level, born and region of old.parquet, born of new.parquet.
  assert.deepEqual([byPath['data/old.parquet'].rows, byPath['data/old.parquet'].values],
    [[1], [{ id: 2n, level: 5n, born, note: null, region: 'eu' }]])
  assert.deepEqual([byPath['data/new.parquet'].rows, byPath['data/new.parquet'].values],
    [[0], [{ id: 2n, level: 9n, born, note: null, region: 'us' }]])
})

test('Iceberg: a binary column\'s initial-default is bytes, as a file\'s own binary column reads (not text)', async () => {
  // Appendix C: a binary default is written as hex. The file's own binary (BYTE_ARRAY, no annotation) reads as bytes.
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, {
    schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'tag', type: 'binary' }],
    files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n] }]),
      'data/new.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n] },
        { id: 2, name: 'tag', type: 'binary', data: [new Uint8Array([0xff, 0x00])] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/old.parquet', record_count: 1 } },
      { file: { file_path: 'data/new.parquet', record_count: 1 } }] }],
    editMetadata: (metadata) => {
      metadata['format-version'] = 3
      metadata['next-row-id'] = 0
      Object.assign(metadata.schemas[0].fields[1], { 'initial-default': 'CAFE', 'write-default': 'CAFE' })
    } })
  const byPath = await lookedUp(root, 'id', 1n, ['tag'])
  assert.deepEqual(byPath['data/new.parquet'].values, [{ tag: new Uint8Array([0xff, 0x00]) }])
  assert.deepEqual(byPath['data/old.parquet'].values, [{ tag: new Uint8Array([0xca, 0xfe]) }])
})

test('Iceberg: a default not read here leaves the rows without values, never null', async () => {
  // A struct added with a non-null default {} holds { x: 0 } in old rows (spec "Default values"): not made up here.
  const root = await evolvedTable((metadata) => {
    metadata.schemas[0].fields.push({ id: 6, name: 'point', required: false, 'initial-default': {}, 'write-default': {},
      type: { type: 'struct', fields: [{ id: 7, name: 'x', required: false, type: 'long', 'initial-default': 0, 'write-default': 0 }] } })
    metadata['last-column-id'] = 7
  })
  const found = (await lookedUp(root, 'id', 2n, ['id', 'point']))['data/old.parquet']
  assert.deepEqual([found.verdict, found.rows, found.values], ['present', [1], undefined])
  assert.match(found.detail, /no column point/)
})

const PARTITIONED = 'tables/delta/data-reader-partition-values'

test('Delta: partition columns in point lookups hold the add\'s partition values, as Spark\'s scan reads them',
  { skip: missingFixture(PARTITIONED) }, async () => {
    const expectedDir = fixturePath(`tables/expected/${PARTITIONED.slice('tables/'.length)}`)
    const expected = []
    for (const name of readdirSync(expectedDir).filter((n) => n.endsWith('.parquet'))) {
      const bytes = readFileSync(path.join(expectedDir, name))
      const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
      expected.push(...await parquetReadObjects({ file, compressors }))
    }
    assert.equal(expected.length, 3)
    const table = await openTable(fixturePath(PARTITIONED))
    try {
      // as_timestamp's partition value has no offset: in a session time zone the log does not record (checked below).
      const columns = table.table.columns.map((c) => c.name).filter((n) => !n.includes('.') && n !== 'as_timestamp')
      const result = await table.probe('value', ['0', '1', '2'], { confirm: true, columns })
      const found = result.files.flatMap((f) => f.values).filter((v) => v.verdict === 'present')
      assert.equal(found.length, 3)
      for (const v of found) {
        const row = expected.find((r) => r.value === v.value)
        delete row.as_timestamp
        // Every partition column read as null before (as_int 0 was null); the row with null partitions holds nulls.
        assert.deepEqual(v.values, [row], v.value)
      }
      // A partition value not read is no row value: the rows keep their verdict without values.
      const timed = await table.probe('value', ['0'], { confirm: true, columns: ['value', 'as_timestamp'] })
      const [zero] = timed.files.flatMap((f) => f.values).filter((v) => v.verdict === 'present')
      assert.deepEqual([zero.rows, zero.values], [[0], undefined])
      assert.match(zero.detail, /as_timestamp/)
    } finally {
      await table.close()
    }
  })

test('a struct column\'s values name its fields as the table does: renamed, added since (initial-default), dropped', async () => {
  // The file's struct loc (field 2) holds lat (field 3) and old (field 5); the table renamed 3 to latitude, dropped 5 and
  // added alt (field 4, initial-default 9). Spec "Column Projection": fields by id; a missing one is its initial-default.
  const schema = [{ name: 'root', num_children: 2 }, { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'loc', repetition_type: 'OPTIONAL', num_children: 2, field_id: 2 },
    { name: 'lat', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 3 },
    { name: 'old', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 5 }]
  const columnData = [{ name: 'id', data: [1n, 2n] }, { name: 'loc', data: [{ lat: 5n, old: 0n }, null] }]
  const root = path.join(top, `t${++made}`)
  const loc = { type: 'struct', fields: [{ id: 3, name: 'latitude', required: false, type: 'long' },
    { id: 4, name: 'alt', required: false, type: 'long', 'initial-default': 9 }] }
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'loc', type: loc }],
  files: { 'data/f.parquet': new Uint8Array(parquetWriteBuffer({ schema, columnData })) },
  manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }],
  editMetadata: (metadata) => { metadata['format-version'] = 3; metadata['next-row-id'] = 0 } })
  assert.deepEqual((await readParquet(path.join(root, 'data/f.parquet'))).rows.map((r) => r.loc), [{ lat: 5n, old: 0n }, null])
  // Read as the file's struct: { lat: 5n, old: 0n }.
  const byPath = await lookedUp(root, 'id', 1n, ['id', 'loc'])
  assert.deepEqual(byPath['data/f.parquet'].values, [{ id: 1n, loc: { latitude: 5n, alt: 9n } }])
  // A null struct stays null.
  assert.deepEqual((await lookedUp(root, 'id', 2n, ['loc']))['data/f.parquet'].values, [{ loc: null }])
})

test('Delta column mapping: a struct column\'s values name its fields by their logical names, not the physical ones', async () => {
  const schema = [{ name: 'root', num_children: 2 }, { name: 'col-a', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'col-s', repetition_type: 'OPTIONAL', num_children: 1 }, { name: 'col-x', type: 'INT32', repetition_type: 'OPTIONAL' }]
  const file = new Uint8Array(parquetWriteBuffer({ schema, columnData: [{ name: 'col-a', data: [1, 2] },
    { name: 'col-s', data: [{ 'col-x': 5 }, { 'col-x': 6 }] }] }))
  const deltaSchema = { type: 'struct', fields: [mappedField('a', 'col-a', 1, 'integer'),
    mappedField('s', 'col-s', 2, { type: 'struct', fields: [mappedField('x', 'col-x', 3, 'integer')] })] }
  const root = await writeOneFileTable(path.join(top, `d${++made}`), deltaSchema, file, { mode: 'name', maxColumnId: 3 })
  // Read as the file's struct: { 'col-x': 6 }.
  assert.deepEqual((await lookedUp(root, 'a', 2, ['a', 's']))['a.parquet'].values, [{ a: 2, s: { x: 6 } }])
})

test('Delta column mapping `id`: a list or map column is found by its group\'s field id (its leaves carry none)', async () => {
  // As Spark writes under column mapping: each field's id on its own schema element (PROTOCOL.md "Writer Requirements for
  // Column Mapping"), none on a list's or map's leaves. Read by leaf ids alone, tags and m were null in every row.
  const schema = [{ name: 'root', num_children: 3 }, { name: 'col-a', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'col-t', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'col-m', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1, field_id: 3 },
    { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
    { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'value', type: 'INT32', repetition_type: 'OPTIONAL' }]
  const file = new Uint8Array(parquetWriteBuffer({ schema, columnData: [{ name: 'col-a', data: [1, 2] },
    { name: 'col-t', data: [[5, 6], [7]] }, { name: 'col-m', data: [{ x: 1 }, { y: 2 }] }] }))
  const rows = await parquetReadObjects({ file: file.buffer })
  assert.deepEqual(rows[1], { 'col-a': 2, 'col-t': [7], 'col-m': { y: 2 } })
  const deltaSchema = { type: 'struct', fields: [mappedField('a', 'col-a', 1, 'integer'),
    mappedField('tags', 'col-t', 2, { type: 'array', elementType: 'integer', containsNull: true }),
    mappedField('m', 'col-m', 3, { type: 'map', keyType: 'string', valueType: 'integer', valueContainsNull: true })] }
  const root = await writeOneFileTable(path.join(top, `d${++made}`), deltaSchema, file, { mode: 'id', maxColumnId: 3 })
  // Read as { a: 2, tags: null, m: null }.
  assert.deepEqual((await lookedUp(root, 'a', 2, ['a', 'tags', 'm']))['a.parquet'].values, [{ a: 2, tags: [7], m: { y: 2 } }])
})

test('structs under a list or map name their fields as the table does: Iceberg by id (renamed, added, dropped)', async () => {
  // items: list (2) of struct (element 6) whose lat (3) was renamed latitude, old (5) dropped, alt (4, initial-default 9)
  // added; m: map (7) of string (8) to struct (9) whose v (10) was renamed val. Spec "Column Projection": by field id.
  const schema = [{ name: 'root', num_children: 3 }, { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'items', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 2, field_id: 6 },
    { name: 'lat', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 3 },
    { name: 'old', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 5 },
    { name: 'm', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1, field_id: 7 },
    { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
    { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED', field_id: 8 },
    { name: 'value', repetition_type: 'OPTIONAL', num_children: 1, field_id: 9 },
    { name: 'v', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 10 }]
  const columnData = [{ name: 'id', data: [1n, 2n] }, { name: 'items', data: [[{ lat: 5n, old: 0n }, null], null] },
    { name: 'm', data: [{ k: { v: 1n } }, null] }]
  const file = new Uint8Array(parquetWriteBuffer({ schema, columnData }))
  const rows = await parquetReadObjects({ file: file.buffer })
  assert.deepEqual([rows[0].items, rows[0].m], [[{ lat: 5n, old: 0n }, null], { k: { v: 1n } }])
  const struct = { type: 'struct', fields: [{ id: 3, name: 'latitude', required: false, type: 'long' },
    { id: 4, name: 'alt', required: false, type: 'long', 'initial-default': 9 }] }
  const value = { type: 'struct', fields: [{ id: 10, name: 'val', required: false, type: 'long' }] }
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' },
    { id: 2, name: 'items', type: { type: 'list', 'element-id': 6, element: struct, 'element-required': false } },
    { id: 7, name: 'm', type: { type: 'map', 'key-id': 8, key: 'string', 'value-id': 9, value, 'value-required': false } }],
  files: { 'data/f.parquet': file }, manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 2 } }] }],
  editMetadata: (metadata) => { metadata['format-version'] = 3; metadata['next-row-id'] = 0 } })
  // Read as the file's: items [{ lat: 5n, old: 0n }, null], m { k: { v: 1n } }.
  assert.deepEqual((await lookedUp(root, 'id', 1n, ['items', 'm']))['data/f.parquet'].values,
    [{ items: [{ latitude: 5n, alt: 9n }, null], m: { k: { val: 1n } } }])
  assert.deepEqual((await lookedUp(root, 'id', 2n, ['items', 'm']))['data/f.parquet'].values, [{ items: null, m: null }])
})

test('Delta column mapping: structs under a list or map name their fields by logical names (name and id modes)', async () => {
  const schema = [{ name: 'root', num_children: 3 }, { name: 'col-a', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 1 },
    { name: 'col-l', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, { name: 'element', repetition_type: 'OPTIONAL', num_children: 1 },
    { name: 'col-x', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 3 },
    { name: 'col-m', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1, field_id: 4 },
    { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
    { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'value', repetition_type: 'OPTIONAL', num_children: 1 },
    { name: 'col-y', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 5 }]
  const file = new Uint8Array(parquetWriteBuffer({ schema, columnData: [{ name: 'col-a', data: [1, 2] },
    { name: 'col-l', data: [[{ 'col-x': 5 }], [{ 'col-x': 6 }]] }, { name: 'col-m', data: [{ k: { 'col-y': 7 } }, null] }] }))
  assert.deepEqual((await parquetReadObjects({ file: file.buffer }))[0],
    { 'col-a': 1, 'col-l': [{ 'col-x': 5 }], 'col-m': { k: { 'col-y': 7 } } })
  const deltaSchema = { type: 'struct', fields: [mappedField('a', 'col-a', 1, 'integer'),
    mappedField('l', 'col-l', 2, { type: 'array', elementType: { type: 'struct', fields: [mappedField('x', 'col-x', 3, 'integer')] } }),
    mappedField('m', 'col-m', 4, { type: 'map', keyType: 'string',
      valueType: { type: 'struct', fields: [mappedField('y', 'col-y', 5, 'integer')] } })] }
  for (const mode of ['name', 'id']) {
    const root = await writeOneFileTable(path.join(top, `d${++made}`), deltaSchema, file, { mode, maxColumnId: 5 })
    // Read as the file's: l [{ 'col-x': 5 }], m { k: { 'col-y': 7 } }.
    const values = (await lookedUp(root, 'a', 1, ['l', 'm']))['a.parquet'].values
    assert.deepEqual(values, [{ l: [{ x: 5 }], m: { k: { y: 7 } } }], mode)
  }
})

test('Iceberg: a timestamp initial-default before 1970 finer than milliseconds is the Date of the millisecond holding it', async () => {
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, {
    schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'ts', type: 'timestamp' }, { id: 3, name: 'ns', type: 'timestamptz_ns' }],
    spec: [],
    files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/old.parquet', record_count: 1, partition: {} } }] }],
    editMetadata: (metadata) => {
      metadata['format-version'] = 3
      metadata['next-row-id'] = 0
      const fields = metadata.schemas[0].fields
      Object.assign(fields[1], { 'initial-default': '1969-12-31T23:59:59.999999' })
      Object.assign(fields[2], { 'initial-default': '1969-12-31T23:59:59.999999999+00:00' })
    } })
  const byPath = await lookedUp(root, 'id', 1n, ['id', 'ts', 'ns'])
  // 1 µs and 1 ns before 1970: was 1970-01-01T00:00:00.000Z (a division towards zero)
  const last = new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999))
  assert.deepEqual(byPath['data/old.parquet'].values, [{ id: 1n, ts: last, ns: last }])
})

test('Delta: a timestamp or date partition value no Date holds (after 275760) is DuckDB\'s count as a bigint, not an Invalid Date',
  async () => {
    const { withDuckDB } = await import('../../testkit/duckdb.js')
    const { commitText, pad, writeDeltaFiles } = await import('../../testkit/delta-writer.js')
    const root = path.join(top, `t${++made}`)
    const ts = '280000-01-01 00:00:00.123456'
    const day = '300000-03-01'
    // DuckDB's µs and days since the epoch.
    const [[micros, days]] = await withDuckDB(async (c) => (await c.runAndReadAll(
      `SELECT epoch_us(TIMESTAMP '${ts}'), (DATE '${day}' - DATE '1970-01-01')::BIGINT`)).getRows())
    const file = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [1n], type: 'INT64' }] }))
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} },
      { name: 'ts', type: 'timestamp_ntz', nullable: true, metadata: {} }, { name: 'd', type: 'date', nullable: true, metadata: {} }] }
    const actions = [
      { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['timestampNtz'], writerFeatures: ['timestampNtz'] } },
      { metaData: { id: 'far', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
        partitionColumns: ['ts', 'd'], configuration: {} } },
      { add: { path: 'a.parquet', partitionValues: { ts, d: day }, size: file.length, modificationTime: 0, dataChange: true } }]
    await writeDeltaFiles(root, { [`${pad(0)}.json`]: commitText(actions) }, { 'a.parquet': file })
    const byPath = await lookedUp(root, 'id', 1n, ['id', 'ts', 'd'])
    assert.deepEqual(byPath['a.parquet'].values, [{ id: 1n, ts: BigInt(String(micros)), d: BigInt(String(days)) }])
  })
