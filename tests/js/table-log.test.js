// Table versions and log layouts: Iceberg time travel by exact snapshot id, Delta time travel by
// version (checked against a plain replay of every JSON commit written here), the commit that adds and
// removes the same path with different deletion vectors, Delta column mapping and a V2 checkpoint,
// on synthetic tables written by hand from the protocol.
import assert from 'node:assert/strict'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { ErrorCode, openTable } from '../../js/index.js'
import { loadTable } from '../../js/table/load-table.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { checkpointParquet, commitText, inlineDeletionVector, pad, writeDeltaFiles } from '../../testkit/delta-writer.js'
import { startTestServer } from '../../testkit/range-server.js'
import { writeDeltaTable } from '../../testkit/delta-appends-writer.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'

describe('Iceberg snapshots', { skip: missingFixture('tables/iceberg/spark_bunnies') }, () => {
  test('time travel to snapshot 7505300640432048841 (over 2^53) gives 21 rows; the current snapshot 20', async () => {
    const location = fixturePath('tables/iceberg/spark_bunnies')
    const rows = (t) => t.files.reduce((n, f) => n + f.recordCount, 0)
    assert.equal(rows(await loadTable(location)), 20)
    assert.equal(rows(await loadTable(location, { snapshot: '7505300640432048841' })), 21)
    assert.equal(rows(await loadTable(location, { snapshot: 7505300640432048841n })), 21)
    await assert.rejects(loadTable(location, { snapshot: '7505300640432048840' }), (e) => e.code === ErrorCode.MALFORMED_TABLE)
  })

  test('a metadata.json named directly: v1 holds 21 rows; v3, 21 rows and the position delete of one (20, as icebird reads it)', async () => {
    const v1 = await loadTable(fixturePath('tables/iceberg/spark_bunnies/metadata/v1.metadata.json'))
    assert.equal(v1.files.reduce((n, f) => n + f.recordCount, 0), 21)
    const v3 = await loadTable(fixturePath('tables/iceberg/spark_bunnies/metadata/v3.metadata.json'))
    assert.match(v3.metadataLocation, /v3\.metadata\.json$/)
    assert.deepEqual(v3.files.map((f) => f.deletes.map((d) => d.kind)), [['position']])
  })
})

/** Live (path, DV) pairs by replaying JSON commits 0..version as the protocol says. */
async function replayJson(table, version) {
  const live = new Map()
  for (let v = 0; v <= version; v++) {
    const text = await readFile(path.join(table, '_delta_log', `${pad(v)}.json`), 'utf8')
    for (const line of text.split('\n').filter(Boolean)) {
      const a = JSON.parse(line)
      const key = (x) => `${x.path}|${x.deletionVector?.pathOrInlineDv ?? ''}|${x.deletionVector?.offset ?? ''}`
      if (a.add) live.set(key(a.add), a.add)
      if (a.remove) live.delete(key(a.remove))
    }
  }
  return [...live.values()].map((a) => decodeURIComponent(a.path)).sort()
}

describe('Delta versions', { skip: missingFixture('tables/delta/dv-partitioned-with-checkpoint') }, () => {
  const location = fixturePath('tables/delta/dv-partitioned-with-checkpoint')
  for (const version of [0, 5, 10, 12, 15]) {
    test(`version ${version}: the live files of a replay of every JSON commit`, async () => {
      const table = await loadTable(location, { version })
      assert.equal(table.version, version)
      assert.deepEqual(table.files.map((f) => f.path).sort(), await replayJson(location, version))
    })
  }

  test('a version past the newest is MALFORMED_TABLE, not the newest read instead', async () => {
    await assert.rejects(loadTable(location, { version: 16 }), (e) => e.code === ErrorCode.MALFORMED_TABLE && /version 16/.test(e.message))
  })

  test('commit 15 adds (path, new DV) and removes (path, old DV): the file stays, with its new DV', async () => {
    const table = await loadTable(location)
    const file = table.files.find((f) => f.path.startsWith('part=8/part-00001-7c58de64'))
    assert.ok(file, 'the file is live')
    assert.equal(file.deletes[0].dv.pathOrInlineDv, '7NnC4LX-RqU.S:B4VD9n')
  })
})

describe('synthetic Delta tables', async () => {
  const dir = await tempDir('delta')

  const writeTable = (name, log, files) => writeDeltaFiles(path.join(dir, name), log, files)
  /**
   * A log of `commits` JSON commits, each adding f<v>.parquet (no file written), the first with protocol and metaData.
   * @param {string} id the metaData's id @param {number} commits @returns {Record<string, string>}
   */
  const addOnlyLog = (id, commits) => {
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }
    const metaData = { id, format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [] }
    const add = (p) => ({ add: { path: p, partitionValues: {}, size: 1, modificationTime: 0, dataChange: true } })
    /** @type {Record<string, string>} */
    const log = {}
    for (let v = 0; v < commits; v++) {
      log[`${pad(v)}.json`] = [...(v === 0 ? [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } }, { metaData }] : []),
        add(`f${v}.parquet`)].map((a) => JSON.stringify(a)).join('\n')
    }
    return log
  }

  test('column mapping (name mode): stats and files use physical names; probes use logical ones', async () => {
    const parquet = new Uint8Array(parquetWriteBuffer({ columnData: [
      { name: 'col-5f1a', data: [1, 2, 3], type: 'INT32' },
      { name: 'col-9b2c', data: ['a', 'b', 'c'], type: 'STRING' },
    ] }))
    const schema = { type: 'struct', fields: [
      { name: 'id', type: 'integer', nullable: true, metadata: { 'delta.columnMapping.id': 1, 'delta.columnMapping.physicalName': 'col-5f1a' } },
      { name: 'label', type: 'string', nullable: true, metadata: { 'delta.columnMapping.id': 2, 'delta.columnMapping.physicalName': 'col-9b2c' } },
    ] }
    const actions = [
      { protocol: { minReaderVersion: 2, minWriterVersion: 5 } },
      { metaData: { id: 'cm', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: { 'delta.columnMapping.mode': 'name', 'delta.columnMapping.maxColumnId': '2' } } },
      { add: { path: 'a.parquet', partitionValues: {}, size: parquet.length, modificationTime: 0, dataChange: true,
        stats: JSON.stringify({ numRecords: 3, minValues: { 'col-5f1a': 1, 'col-9b2c': 'a' }, maxValues: { 'col-5f1a': 3, 'col-9b2c': 'c' }, nullCount: { 'col-5f1a': 0, 'col-9b2c': 0 } }) } },
    ]
    const root = await writeTable('mapped', { [`${pad(0)}.json`]: actions.map((a) => JSON.stringify(a)).join('\n') }, { 'a.parquet': parquet })
    const table = await openTable(root)
    const result = await table.probe('id', [2, 99], { confirm: true })
    assert.equal(result.files[0].values[0].verdict, 'present')
    assert.deepEqual(result.files[0].values[0].rows, [1])
    assert.equal(result.files[0].values[1].verdict, 'absent')
    assert.equal(result.files[0].values[1].source, 'table-stats')
    const labels = await table.probe('label', ['c', 'd'])
    assert.notEqual(labels.files[0].values[0].verdict, 'absent')
    assert.equal(labels.files[0].values[1].source, 'table-stats')
    // Point lookups name logical columns too: read from the physical ones, keyed by the logical names.
    const looked = await table.probe('id', [2], { confirm: true, columns: ['label', 'id'] })
    assert.deepEqual([looked.files[0].values[0].rows, looked.files[0].values[0].values], [[1], [{ label: 'b', id: 2 }]])
  })

  test('point lookups of a column added after a file was written are null in that file\'s rows, not the file\'s answer', async () => {
    const before = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [1, 2], type: 'INT32' }] }))
    const after = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [2, 3], type: 'INT32' },
      { name: 'note', data: ['x', 'y'], type: 'STRING' }] }))
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} },
      { name: 'note', type: 'string', nullable: true, metadata: {} }] }
    const add = (file, bytes) => ({ add: { path: file, partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true } })
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'added', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
        configuration: {} } },
      add('before.parquet', before), add('after.parquet', after),
    ]
    const root = await writeTable('added-column', { [`${pad(0)}.json`]: actions.map((a) => JSON.stringify(a)).join('\n') },
      { 'before.parquet': before, 'after.parquet': after })
    const table = await openTable(root)
    const result = await table.probe('id', [2], { confirm: true, columns: ['id', 'note'] })
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f.values[0]]))
    assert.deepEqual([byPath['before.parquet'].verdict, byPath['before.parquet'].rows, byPath['before.parquet'].values],
      ['present', [1], [{ id: 2, note: null }]])
    assert.deepEqual([byPath['after.parquet'].verdict, byPath['after.parquet'].rows, byPath['after.parquet'].values],
      ['present', [0], [{ id: 2, note: 'x' }]])
  })

  test('a partition column no key of an add names is null in that file, as Spark and delta-kernel-rs read it, not the data file\'s '
    + 'column of that name', async () => {
    // p was a data column at version 0 (old.parquet holds p = 'a') and a partition column from version 1 (new.parquet, p = 'b',
    // without a p column), old.parquet still live with partitionValues {}. Spark's TahoeFileIndex.getPartitionValuesRow
    // (partitionValues.get(physical name).orNull) and delta-kernel-rs's parse_partition_value_raw (no key: Scalar::Null) read
    // p as null in every row of old.parquet and never read its p column: read, p = 'a' was `present` there.
    const old = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [1, 2], type: 'INT32' },
      { name: 'p', data: ['a', 'a'], type: 'STRING' }] }))
    const partitioned = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [3, 4], type: 'INT32' }] }))
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} },
      { name: 'p', type: 'string', nullable: true, metadata: {} }] }
    const metaData = (partitionColumns) => ({ metaData: { id: 'repartitioned', format: { provider: 'parquet', options: {} },
      schemaString: JSON.stringify(schema), partitionColumns, configuration: {} } })
    const add = (file, bytes, partitionValues) => ({ add: { path: file, partitionValues, size: bytes.length, modificationTime: 0,
      dataChange: true } })
    const root = await writeTable('partition-key-missing', {
      [`${pad(0)}.json`]: commitText([{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } }, metaData([]),
        add('old.parquet', old, {})]),
      [`${pad(1)}.json`]: commitText([metaData(['p']), add('p=b/new.parquet', partitioned, { p: 'b' })]),
    }, { 'old.parquet': old, 'p=b/new.parquet': partitioned })
    const table = await openTable(root)
    const verdicts = async (value) => Object.fromEntries((await table.probe('p', [value], { confirm: true })).files
      .map((f) => [f.path, f.values[0].verdict]))
    assert.deepEqual(await verdicts('a'), { 'old.parquet': 'absent', 'p=b/new.parquet': 'absent' })
    assert.deepEqual(await verdicts('b'), { 'old.parquet': 'absent', 'p=b/new.parquet': 'maybe' })
    const looked = await table.probe('id', [1, 3], { confirm: true, columns: ['id', 'p'] })
    assert.deepEqual(looked.files.flatMap((f) => f.values.flatMap((v) => v.values ?? [])), [{ id: 1, p: null }, { id: 3, p: 'b' }])
    assert.deepEqual((await loadTable(root)).files.map((f) => [f.path, f.partitionValues.p]),
      [['old.parquet', null], ['p=b/new.parquet', 'b']])
  })

  test('a string or binary partition value logged as "" is null per PROTOCOL.md but \'\' to Spark and delta-kernel-rs: '
    + '\'\' is maybe, not absent; other values absent; no row value', async () => {
    // PROTOCOL.md "Partition Value Serialization": "An empty string for any type translates to a null partition value".
    // Spark's TahoeFileIndex.getPartitionValuesRow casts "" (non-ANSI Cast) to '' for string (empty bytes for binary),
    // to null for other types; delta-kernel-rs (empty_string_partition_cast) the same. delta-rs logs '' as "". So
    // WHERE s = '' returns both rows to Spark: answered absent (read as null) they were missed.
    const data = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [1, 2], type: 'INT32' }] }))
    const types = { s: 'string', bin: 'binary', i: 'integer', d: 'date', b: 'boolean' }
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} },
      ...Object.entries(types).map(([name, type]) => ({ name, type, nullable: true, metadata: {} }))] }
    const root = await writeTable('partition-empty-string', {
      [`${pad(0)}.json`]: commitText([{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: 'empty', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
          partitionColumns: Object.keys(types), configuration: {} } },
        { add: { path: 'f.parquet', partitionValues: { s: '', bin: '', i: '', d: '', b: '' }, size: data.length,
          modificationTime: 0, dataChange: true } }]),
    }, { 'f.parquet': data })
    const table = await openTable(root)
    const verdicts = async (column, values, options = {}) => (await table.probe(column, values, { confirm: true, ...options }))
      .files.flatMap((f) => f.values.map((v) => v.verdict))
    assert.deepEqual(await verdicts('s', ['', 'x', 'null']), ['maybe', 'absent', 'absent'])
    assert.deepEqual(await verdicts('bin', [new Uint8Array(0), new Uint8Array([1])]), ['maybe', 'absent'])
    // Every reader reads "" as null for the other types: no value is there.
    assert.deepEqual(await verdicts('i', [0]), ['absent'])
    assert.deepEqual(await verdicts('d', ['1970-01-01']), ['absent'])
    assert.deepEqual(await verdicts('b', [false]), ['absent'])
    // `where` of '' (Spark's reading) or of null (the protocol's) keeps the file.
    assert.deepEqual(await verdicts('id', [1], { where: { s: '' } }), ['present'])
    assert.deepEqual(await verdicts('id', [1], { where: { s: null } }), ['present'])
    const looked = (await table.probe('id', [1], { confirm: true, columns: ['id', 's', 'i'] })).files[0].values[0]
    assert.equal(looked.values, undefined, 'no row value: s is \'\' or null by whom reads it')
    const only = (await table.probe('id', [1], { confirm: true, columns: ['id', 'i'] })).files[0].values[0]
    assert.deepEqual(only.values, [{ id: 1, i: null }])
  })

  test('column mapping: a partition value logged under the logical name alone is that value or null by whom reads it: maybe, '
    + 'no row value, no `where` rules it out', async () => {
    // Spark (TahoeFileIndex.getPartitionValuesRow) and delta-kernel-rs read partitionValues by the physical name only: p is
    // null in logical.parquet. Its writer (as Delta Kernel Java's getWriteContext before delta#7212) meant 'a', and
    // readers that fall back to the logical name (sail) read 'a'. Answered p: 'a' in a lookup (a value Spark does not
    // return) and `absent` (outside-where) under `where: { p: null }`, which Spark's p IS NULL returns the row for.
    const ids = (data) => new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'col-id', data, type: 'INT32' }] }))
    const logical = ids([1, 2])
    const physical = ids([3, 4])
    const mapped = (name, id) => ({ 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': `col-${name}` })
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: mapped('id', 1) },
      { name: 'p', type: 'string', nullable: true, metadata: mapped('p', 2) }] }
    const add = (file, bytes, partitionValues) => ({ add: { path: file, partitionValues, size: bytes.length, modificationTime: 0,
      dataChange: true } })
    const log = (adds) => ({ [`${pad(0)}.json`]: commitText([{ protocol: { minReaderVersion: 2, minWriterVersion: 5 } },
      { metaData: { id: 'logical-keys', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
        partitionColumns: ['p'], configuration: { 'delta.columnMapping.mode': 'name', 'delta.columnMapping.maxColumnId': '2' } } },
      ...adds]) })
    const root = await writeTable('partition-logical-key', log([add('logical.parquet', logical, { p: 'a' }),
      add('physical.parquet', physical, { 'col-p': 'b' })]), { 'logical.parquet': logical, 'physical.parquet': physical })
    const table = await openTable(root)
    const verdicts = async (column, values, options = {}) => Object.fromEntries((await table.probe(column, values,
      { confirm: true, ...options })).files.map((f) => [f.path, f.values.map((v) => v.verdict)]))
    assert.deepEqual(await verdicts('p', ['a', 'b', 'c']),
      { 'logical.parquet': ['maybe', 'absent', 'absent'], 'physical.parquet': ['absent', 'maybe', 'absent'] })
    const rows = (await table.probe('id', [1, 3], { confirm: true, columns: ['id', 'p'] })).files
      .map((f) => [f.path, f.values.map((v) => v.values)])
    assert.deepEqual(rows, [['logical.parquet', [undefined, undefined]], ['physical.parquet', [undefined, [{ id: 3, p: 'b' }]]]])
    for (const where of [{ p: null }, { p: 'a' }]) {
      assert.deepEqual((await verdicts('id', [1], { where }))['logical.parquet'], ['present'], JSON.stringify(where))
    }
    // Every file keyed by the logical name alone: `where` on p still rules none out, rather than refuse p as no partition key.
    const alone = await writeTable('partition-logical-key-only', log([add('logical.parquet', logical, { p: 'a' })]),
      { 'logical.parquet': logical })
    const only = await openTable(alone)
    const underNull = await only.probe('id', [1], { confirm: true, where: { p: null } })
    assert.deepEqual(underNull.files.map((f) => f.values[0].verdict), ['present'])
    await assert.rejects(only.probe('id', [1], { where: { q: 1 } }), { code: ErrorCode.INVALID_ARGUMENT })
    // One data file live twice (relative, absolute) under other logical-name values is still two logical files: refused.
    const twice = await writeTable('partition-logical-key-twice', log([add('logical.parquet', logical, { p: 'a' }),
      add(`${path.join(dir, 'partition-logical-key-twice')}/logical.parquet`, logical, { p: 'b' })]), { 'logical.parquet': logical })
    await assert.rejects(openTable(twice), { code: ErrorCode.MALFORMED_TABLE })
  })

  test('column mapping (id mode): a file\'s column is the one of the field\'s id, not the one of its physical name', async () => {
    // As CONVERT TO DELTA writes an Iceberg table's log: id mode, each physical name the column's current name. Column `a`
    // (id 1) was renamed `b` and a new `a` (id 2) added: the old file holds id 1 under its old name "a", and no id 2.
    const old = new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'a', data: Int32Array.from([7, 8, 9]) }],
      schema: [{ name: 'root', num_children: 1 }, { name: 'a', type: 'INT32', repetition_type: 'OPTIONAL', field_id: 1 }],
    }))
    const mapped = (name, id) => ({ name, type: 'integer', nullable: true,
      metadata: { 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': name } })
    const schema = { type: 'struct', fields: [mapped('b', 1), mapped('a', 2)] }
    const actions = [
      { protocol: { minReaderVersion: 2, minWriterVersion: 5 } },
      { metaData: { id: 'converted', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
        configuration: { 'delta.columnMapping.mode': 'id', 'delta.columnMapping.maxColumnId': '2' } } },
      { add: { path: 'old.parquet', partitionValues: {}, size: old.length, modificationTime: 0, dataChange: true } },
    ]
    const root = await writeTable('mapped-by-id', { [`${pad(0)}.json`]: actions.map((a) => JSON.stringify(a)).join('\n') },
      { 'old.parquet': old })
    const table = await openTable(root)
    // `a` is null in this file (PROTOCOL.md: ids a file lacks read as nulls): never `present` from the other field's 8.
    const a = (await table.probe('a', [8], { confirm: true })).files[0].values[0]
    assert.notEqual(a.verdict, 'present', JSON.stringify(a))
    const b = (await table.probe('b', [8, 5], { confirm: true })).files[0].values
    assert.deepEqual(b.map((v) => v.verdict), ['present', 'absent'])
    assert.deepEqual(b[0].rows, [1])
  })

  test('column mapping mode none: columns, stats and partition values by display names, not physical names left in the schema',
    async () => {
    // PROTOCOL.md "Reader Requirements for Column Mapping": in `none` mode, or without the property, files are read by
    // display names (Spark's createPhysicalSchema and Delta Kernel's convertToPhysicalSchema return the logical schema).
    // The schema still names a's physical name b and b's a: read by those, a's bounds were b's.
    const parquet = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'a', data: [1, 2], type: 'INT32' },
      { name: 'b', data: [10, 20], type: 'INT32' }] }))
    const leftover = (name, id, physical) => ({ name, type: 'integer', nullable: true,
      metadata: { 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': physical } })
    const schema = { type: 'struct', fields: [leftover('a', 1, 'b'), leftover('b', 2, 'a'), leftover('p', 3, 'q')] }
    for (const configuration of [{}, { 'delta.columnMapping.mode': 'none' }]) {
      const actions = [
        { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: 'unmapped', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
          partitionColumns: ['p'], configuration } },
        { add: { path: 'x.parquet', partitionValues: { p: '7', q: '8' }, size: parquet.length, modificationTime: 0, dataChange: true,
          stats: JSON.stringify({ numRecords: 2, minValues: { a: 1, b: 10 }, maxValues: { a: 2, b: 20 }, nullCount: { a: 0, b: 0 } }) } },
      ]
      const log = { [`${pad(0)}.json`]: actions.map((a) => JSON.stringify(a)).join('\n') }
      const root = await writeTable(`unmapped-${Object.keys(configuration).length}`, log, { 'x.parquet': parquet })
      const table = await openTable(root)
      const a = (await table.probe('a', [1, 10], { confirm: true })).files[0].values
      assert.deepEqual(a.map((v) => v.verdict), ['present', 'absent'], JSON.stringify(a))
      assert.deepEqual(a[0].rows, [0])
      const b = (await table.probe('b', [20, 2], { confirm: true })).files[0].values
      assert.deepEqual(b.map((v) => v.verdict), ['present', 'absent'], JSON.stringify(b))
      const p = (await table.probe('p', [7, 8])).files[0].values
      assert.deepEqual(p.map((v) => [v.verdict, v.source]), [['maybe', 'table-partition'], ['absent', 'table-partition']])
    }
  })

  test('a column named "a.b": its stats and file column under that name, not a struct a\'s b; beside a → b, refused', async () => {
    // Delta (without column mapping) allows dots in column names; its stats mirror the schema ({"a.b": 1} for the column,
    // {"a": {"b": 10}} for the struct's field). Read as a → b, the column's 1 was `absent` by the struct's bounds 10–20.
    const struct = { type: 'struct', fields: [{ name: 'b', type: 'integer', nullable: true, metadata: {} }] }
    const cases = [
      { name: 'dotted', fields: [['a.b', 'integer']], data: { 'a.b': [1, 2] }, stats: (s) => ({ 'a.b': s }) },
      { name: 'dotted-and-nested', fields: [['a.b', 'integer'], ['a', struct]], data: { 'a.b': [1, 2], a: [{ b: 10 }, { b: 20 }] },
        stats: (s) => ({ 'a.b': s, a: { b: s * 10 } }) },
    ]
    for (const c of cases) {
      const leaves = [{ name: 'a.b', type: 'INT32', repetition_type: 'OPTIONAL' }]
      if (c.data.a) {
        leaves.push({ name: 'a', repetition_type: 'OPTIONAL', num_children: 1 }, { name: 'b', type: 'INT32', repetition_type: 'OPTIONAL' })
      }
      const parquet = new Uint8Array(parquetWriteBuffer({ schema: [{ name: 'root', num_children: c.fields.length }, ...leaves],
        columnData: Object.entries(c.data).map(([name, data]) => ({ name, data })) }))
      const schema = { type: 'struct', fields: c.fields.map(([name, type]) => ({ name, type, nullable: true, metadata: {} })) }
      const actions = [
        { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: c.name, format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
          partitionColumns: [] } },
        { add: { path: 'x.parquet', partitionValues: {}, size: parquet.length, modificationTime: 0, dataChange: true,
          stats: JSON.stringify({ numRecords: 2, minValues: c.stats(1), maxValues: c.stats(2), nullCount: c.stats(0) }) } },
      ]
      const log = { [`${pad(0)}.json`]: actions.map((a) => JSON.stringify(a)).join('\n') }
      const root = await writeTable(c.name, log, { 'x.parquet': parquet })
      const table = await openTable(root)
      if (!c.data.a) {
        const values = (await table.probe('a.b', [1, 9], { confirm: true })).files[0].values
        assert.deepEqual(values.map((v) => [v.verdict, v.source]), [['present', 'data-pages'], ['absent', 'table-stats']])
      } else {
        // Which of the two a caller means, a prefilter cannot be told (it gets the dotted name): neither is answered for the other.
        for (const column of ['a.b', ['a.b'], ['a', 'b']]) {
          await assert.rejects(table.probe(column, [1, 10]),
            (e) => e.code === ErrorCode.INVALID_ARGUMENT && /names 2 columns/.test(e.message))
        }
      }
    }
  })

  test('columns: a field named "a.b" beside a (top-level, or in a struct) gives its own value in the rows, as DuckDB reads them',
    async () => {
    // Read by dotted names, the struct s lost its field a.b ({ a: 10 }), and the column a read the column a.b (20 for { c: 10 }).
    const int = (name) => ({ name, type: 'integer', nullable: true, metadata: {} })
    const cases = [
      { name: 'dotted-in-struct', select: `{'a': 10, 'a.b': 20} AS s`, columns: ['s'],
        fields: [{ name: 's', nullable: true, metadata: {}, type: { type: 'struct', fields: [int('a'), int('a.b')] } }] },
      { name: 'dotted-beside-struct', select: `20 AS "a.b", {'c': 10} AS a`, columns: ['a', 'a.b'],
        fields: [int('a.b'), { name: 'a', nullable: true, metadata: {}, type: { type: 'struct', fields: [int('c')] } }] },
    ]
    const db = await duckdb()
    try {
      for (const c of cases) {
        const file = path.join(dir, `${c.name}.parquet`)
        await db.run(`COPY (SELECT 1 AS id, ${c.select}) TO ${quote(file)} (FORMAT parquet)`)
        const [truth] = await db.rows(`SELECT ${c.columns.map((n) => `"${n}"`).join(', ')} FROM read_parquet(${quote(file)}) WHERE id = 1`)
        const parquet = new Uint8Array(await readFile(file))
        const schema = { type: 'struct', fields: [int('id'), ...c.fields] }
        const log = { [`${pad(0)}.json`]: [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
          { metaData: { id: c.name, format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [] } },
          { add: { path: 'x.parquet', partitionValues: {}, size: parquet.length, modificationTime: 0, dataChange: true } }]
          .map((a) => JSON.stringify(a)).join('\n') }
        const table = await openTable(await writeTable(c.name, log, { 'x.parquet': parquet }))
        const [value] = (await table.probe('id', [1], { confirm: true, columns: c.columns })).files[0].values
        assert.equal(value.verdict, 'present', c.name)
        assert.deepEqual(value.values, [truth], c.name)
      }
    } finally {
      db.close()
    }
  })

  test('a path names a field by its segments: s → a → b is no field of s { a: int, "a.b": int }, only the string "s.a.b" is s."a.b"',
    async () => {
    // Matched by joining segments with dots, the path s → a → b found the field "a.b" and answered present for its 20
    // (DuckDB has no s.a.b: s.a is an int).
    const int = (name) => ({ name, type: 'integer', nullable: true, metadata: {} })
    const db = await duckdb()
    const file = path.join(dir, 'dotted-path.parquet')
    try {
      await db.run(`COPY (SELECT 1 AS id, {'a': 10, 'a.b': 20} AS s) TO ${quote(file)} (FORMAT parquet)`)
      await assert.rejects(db.rows(`SELECT s.a.b FROM read_parquet(${quote(file)})`))
      assert.deepEqual(await db.rows(`SELECT s."a.b" AS v FROM read_parquet(${quote(file)})`), [{ v: 20 }])
    } finally {
      db.close()
    }
    const parquet = new Uint8Array(await readFile(file))
    const schema = { type: 'struct', fields: [int('id'),
      { name: 's', nullable: true, metadata: {}, type: { type: 'struct', fields: [int('a'), int('a.b')] } }] }
    const log = { [`${pad(0)}.json`]: [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'dp', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [] } },
      { add: { path: 'x.parquet', partitionValues: {}, size: parquet.length, modificationTime: 0, dataChange: true } }]
      .map((a) => JSON.stringify(a)).join('\n') }
    const table = await openTable(await writeTable('dotted-path', log, { 'x.parquet': parquet }))
    try {
      const missing = ['s', 'a', 'b']
      for (const call of [() => table.probe(missing, [20], { confirm: true }), () => table.probeEach(missing, [20]).next()]) {
        await assert.rejects(call(), (e) => e.code === 'COLUMN_NOT_FOUND')
      }
      const verdict = async (column, value) => (await table.probe(column, [value], { confirm: true })).files[0].values[0].verdict
      assert.equal(await verdict(['s', 'a.b'], 20), 'present')
      assert.equal(await verdict('s.a.b', 20), 'present') // the string form: the column named so (docs/tables.md)
      assert.equal(await verdict(['s', 'a'], 10), 'present')
      assert.equal(await verdict(['s', 'a.b'], 10), 'absent')
    } finally {
      await table.close()
    }
  })

  test('a protocol asking for a reader feature or version not implemented here: UNSUPPORTED_TABLE, not a table read wrong', async () => {
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }
    const metaData = { id: 'p', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration: {} }
    const add = { path: 'one.parquet', partitionValues: {}, size: 1, modificationTime: 0, dataChange: true }
    const tableWith = (name, protocol) => writeTable(name, { [`${pad(0)}.json`]: [{ protocol }, { metaData }, { add }]
      .map((a) => JSON.stringify(a)).join('\n') }, {})
    // Catalog-managed (PROTOCOL.md): the newest commits are the catalog's, not in the log storage shows.
    for (const [name, protocol, named] of [
      ['catalog', { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['catalogManaged', 'deletionVectors'], writerFeatures: [] }, /catalogManaged/],
      ['future', { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['someFutureFeature'], writerFeatures: [] }, /someFutureFeature/],
      ['version4', { minReaderVersion: 4, minWriterVersion: 8 }, /reader version 4/],
    ]) {
      await assert.rejects(loadTable(await tableWith(name, protocol)), (e) => e.code === ErrorCode.UNSUPPORTED_TABLE && named.test(e.message))
    }
    // Coordinated commits (a writer feature of Delta 4.0's preview): the newest commits wait in _delta_log/_commits/
    // for their coordinator to copy them into the log.
    const coordinated = await writeTable('coordinated', { [`${pad(0)}.json`]: [
      { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['vacuumProtocolCheck'],
        writerFeatures: ['coordinatedCommits-preview', 'inCommitTimestamp', 'vacuumProtocolCheck'] } },
      { metaData: { ...metaData, configuration: { 'delta.coordinatedCommits.commitCoordinator-preview': 'dynamodb' } } }, { add },
    ].map((a) => JSON.stringify(a)).join('\n') }, {})
    await assert.rejects(loadTable(coordinated), (e) => e.code === ErrorCode.UNSUPPORTED_TABLE && /dynamodb/.test(e.message))
    assert.equal((await loadTable(coordinated, { version: 0 })).files.length, 1, 'a version asked for is read as the log holds it')
    // What is implemented reads; writer features are the writers' business.
    const readable = await loadTable(await tableWith('readable', { minReaderVersion: 3, minWriterVersion: 7,
      readerFeatures: ['columnMapping', 'deletionVectors', 'timestampNtz', 'typeWidening', 'v2Checkpoint', 'vacuumProtocolCheck'],
      writerFeatures: ['rowTracking', 'domainMetadata', 'inCommitTimestamp', 'catalogManaged'] }))
    assert.deepEqual(readable.files.map((f) => f.path), ['one.parquet'])
  })

  test('a table deleted and created anew at its location is read anew, locally and over HTTP: not from the old one\'s kept log', async () => {
    const schema = { type: 'struct', fields: [{ name: 'x', type: 'integer', nullable: true, metadata: {} }] }
    const metaData = { id: 'x', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration: {} }
    // A table of `commits` commits, each adding a file of `values` (as a writer logs it: commitInfo first, with its time).
    const create = async (root, commits, values, time) => {
      await rm(root, { recursive: true, force: true })
      const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: Int32Array.from(values), type: 'INT32' }] }))
      const stats = JSON.stringify({ numRecords: values.length, minValues: { x: Math.min(...values) }, maxValues: { x: Math.max(...values) },
        nullCount: { x: 0 } })
      const log = {}
      const files = {}
      for (let v = 0; v < commits; v++) {
        const add = { path: `f${v}.parquet`, partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true, stats }
        log[`${pad(v)}.json`] = [{ commitInfo: { timestamp: time + v } }, ...(v === 0 ? [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
          { metaData }] : []), { add }].map((a) => JSON.stringify(a)).join('\n')
        files[`f${v}.parquet`] = bytes
      }
      return writeDeltaFiles(root, log, files)
    }
    const root = path.join(dir, 'created-anew')
    const server = await startTestServer({ root: dir })
    try {
      for (const open of [() => openTable(root), () => openTable(server.url('created-anew/'))]) {
        await create(root, 4, [1, 2], 1_700_000_000_000)
        const before = await (await open()).probe('x', [5])
        assert.equal(before.files.length, 4)
        assert.ok(before.files.every((f) => f.values[0].verdict === 'absent'))
        // Dropped and written again with fewer commits, its file holding 5: the old table's commits are still kept.
        await create(root, 2, [5, 6], 1_700_000_999_000)
        const after = await (await open()).probe('x', [5])
        assert.deepEqual(after.files.map((f) => f.path).sort(), ['f0.parquet', 'f1.parquet'])
        assert.ok(after.files.every((f) => f.values[0].verdict !== 'absent'), JSON.stringify(after.files.map((f) => f.values[0])))
      }
    } finally {
      await server.close()
    }
  })

  test('a remove names its add\'s file as Spark canonicalizes paths: unqualified or file: URL, with ./; escapes as written', async () => {
    // Spark canonicalizes add and remove paths before matching them (DeltaLogSuite "paths should be canonicalized":
    // an add of /some/unqualified/absolute/path, a remove of file:/… or file:///…, leave no file), and its checkpoints
    // and DML removes write the canonical form whatever the add logged.
    const schema = { type: 'struct', fields: [{ name: 'x', type: 'integer', nullable: true, metadata: {} }] }
    const metaData = { id: 'canon', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration: {} }
    const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: Int32Array.from([1, 2, 3]), type: 'INT32' }] }))
    const root = path.join(dir, 'canonical-paths')
    const add = (p) => ({ add: { path: p, partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true } })
    const remove = (p) => ({ remove: { path: p, deletionTimestamp: 1, dataChange: true } })
    const commit = (actions) => actions.map((a) => JSON.stringify(a)).join('\n')
    await writeTable('canonical-paths', {
      [`${pad(0)}.json`]: commit([{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } }, { metaData },
        add(`${root}/a.parquet`), add(`${root}/b.parquet`), add('k%3Dv/c.parquet'), add('./d.parquet'), add(`file:${root}/e.parquet`)]),
      [`${pad(1)}.json`]: commit([remove(`file:${root}/a.parquet`), remove(`file://${root}/b.parquet`), remove('k=v/c.parquet'),
        remove('d.parquet'), remove(`s3://elsewhere${root}/e.parquet`)]),
    }, Object.fromEntries(['a', 'b', 'k=v/c', 'd', 'e'].map((n) => [`${n}.parquet`, bytes])))
    const table = await openTable(root)
    // A remove on another file system (s3://elsewhere) is not e's file; k%3Dv and k=v are two keys to Spark and the
    // Delta kernels alike (they compare escapes as written), so that remove leaves c live.
    assert.deepEqual(table.table.files.map((f) => f.path).sort(), ['e.parquet', 'k=v/c.parquet'])
    const result = await table.probe('x', [2], { confirm: true })
    assert.deepEqual(result.files.map((f) => [f.path, f.values[0].verdict]).sort(), [['e.parquet', 'present'], ['k=v/c.parquet', 'present']])
  })

  test('over HTTP (no listing), a checkpoint _last_checkpoint names that is gone, or a part of it: the commits from 0 are read',
    async () => {
    // Spark lists the log from 0 then; PROTOCOL.md: readers ignore a multi-part checkpoint with missing parts. Truth: the
    // JSON commits replayed (replayJson). With commits 0–2 cleaned up the missing checkpoint is the error, not version 3 read.
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }
    const add = (p) => ({ add: { path: p, partitionValues: {}, size: 1, modificationTime: 0, dataChange: true } })
    const commits = [
      [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: 'gone', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
          partitionColumns: [] } },
        add('f0.parquet')],
      [add('f1.parquet')], [add('f2.parquet'), { remove: { path: 'f0.parquet', deletionTimestamp: 1, dataChange: true } }],
      [add('f3.parquet')], [add('f4.parquet')],
    ]
    const text = (actions) => actions.map((a) => JSON.stringify(a)).join('\n')
    const pointers = { single: { version: 3, size: 4 }, 'multi-part': { version: 3, size: 4, parts: 2 } }
    const dir = path.dirname(await writeTable('gone-checkpoint-probe', {}, {}))
    const server = await startTestServer({ root: dir })
    try {
      for (const [kind, pointer] of Object.entries(pointers)) {
        const log = Object.fromEntries(commits.map((c, v) => [`${pad(v)}.json`, text(c)]))
        // Of the multi-part checkpoint, part 1 is there and part 2 is not.
        if (pointer.parts) log[`${pad(3)}.checkpoint.0000000001.0000000002.parquet`] = checkpointParquet([{ add: { path: 'f9.parquet',
          partitionValues: [], size: 1n, modificationTime: 0n, dataChange: true } }])
        const root = await writeTable(`gone-${kind}`, { ...log, '_last_checkpoint': JSON.stringify(pointer) }, {})
        const table = await loadTable(server.url(`${path.basename(root)}/`), { format: 'delta' })
        assert.equal(table.version, 4, kind)
        assert.deepEqual(table.files.map((f) => f.path).sort(), await replayJson(root, 4), kind)
        for (const v of [0, 1, 2]) delete log[`${pad(v)}.json`]
        const cleaned = await writeTable(`gone-${kind}-cleaned`, { ...log, '_last_checkpoint': JSON.stringify(pointer) }, {})
        await assert.rejects(loadTable(server.url(`${path.basename(cleaned)}/`), { format: 'delta' }),
          (e) => e.code === ErrorCode.FILE_NOT_FOUND && /00003\.checkpoint/.test(e.message), kind)
      }
    } finally {
      await server.close()
    }
  })

  test('over HTTP, a gone checkpoint and an abort while the commits from 0 are read: ABORTED, not the checkpoint\'s FILE_NOT_FOUND',
    async () => {
    const log = addOnlyLog('abort', 5)
    const root = await writeTable('gone-checkpoint-abort', { ...log, '_last_checkpoint': JSON.stringify({ version: 3, size: 4 }) }, {})
    const server = await startTestServer({ root: path.dirname(root) })
    try {
      // Commit 0 is asked for only once the checkpoint's 404 sent the read back to the start of the log.
      const controller = new AbortController()
      server.beforeServe((entry) => { if (entry.path.endsWith(`${pad(0)}.json`)) controller.abort() })
      await assert.rejects(loadTable(server.url(`${path.basename(root)}/`), { format: 'delta', signal: controller.signal }),
        (e) => e.code === ErrorCode.ABORTED)
      server.beforeServe()
      assert.equal((await loadTable(server.url(`${path.basename(root)}/`), { format: 'delta' })).version, 4)
    } finally {
      await server.close()
    }
  })

  test('over HTTP, a 100-commit log whose checkpoint is gone is read from 0 in doubling batches: 6 rounds, not 15', async () => {
    const log = addOnlyLog('long', 100)
    const root = await writeTable('gone-checkpoint-long', { ...log, '_last_checkpoint': JSON.stringify({ version: 98, size: 4 }) }, {})
    const server = await startTestServer({ root: path.dirname(root) })
    try {
      server.setMode('wave:30')
      const table = await loadTable(server.url(`${path.basename(root)}/`), { format: 'delta' })
      assert.equal(table.version, 99)
      assert.deepEqual(table.files.map((f) => f.path).sort(), await replayJson(root, 99))
      // _last_checkpoint; the checkpoint with commits 99–106; from 0: 8, 16, 32, 64 commits (one batch of 8 a round: 13).
      assert.equal(server.stats.rounds, 6)
    } finally {
      await server.close()
    }
  })

  test('over HTTP (no listing), a commit missing while later ones are there: MALFORMED_TABLE, as from a listing, not the version '
    + 'before the gap', async () => {
    // PROTOCOL.md: versions are contiguous; delta-kernel-rs and Spark refuse a listing with a gap. Read up to the gap, the
    // files added after it were not the table's, and a value only they hold was answered absent. The truth: the writer's ids.
    const server = await startTestServer({ root: dir })
    try {
      for (const [name, commits, missing] of [['gap-first-batch', 10, 4], ['gap-second-batch', 20, 9]]) {
        const root = path.join(dir, name)
        const written = await writeDeltaTable(root, { files: commits, commits, rows: 8 })
        const last = written.files[written.files.length - 1]
        const whole = await (await openTable(server.url(`${name}/`), { format: 'delta' })).probe('id', [last.ids[3]])
        assert.deepEqual(whole.files.filter((f) => f.values[0].verdict !== 'absent').map((f) => f.path), [last.path])
        await rm(path.join(root, '_delta_log', `${pad(missing)}.json`))
        clearTableCache() // the commits kept from the read before the gap
        const gap = new RegExp(`${pad(missing)}\\.json is missing`)
        for (const location of [root, server.url(`${name}/`)]) {
          await assert.rejects(openTable(location, { format: 'delta' }), (e) => e.code === ErrorCode.MALFORMED_TABLE && gap.test(e.message),
            `${name} at ${location}`)
        }
      }
    } finally {
      await server.close()
    }
  })

  test('over HTTP, a log cleaned up behind a newer checkpoint (a stale _last_checkpoint, or none) is read from the classic checkpoint '
    + 'at the first commit after the gap, as a listing reads it; none there: MALFORMED_TABLE', async () => {
    // PROTOCOL.md "Checkpoints": metadata cleanup MUST provide a checkpoint for the oldest kept version (and keeps its commit);
    // Spark and delta-kernel-rs list the log and read from the newest checkpoint. Without a listing the batch shows the first
    // commit kept (10 here): its classic checkpoint is tried (one more round). The truth: the writer's files and ids.
    const server = await startTestServer({ root: dir })
    // The table at `version`: its protocol and metaData (first: false for a second part), and the adds of files from..version.
    const checkpoint = (written, version, from = 0, first = true) => checkpointParquet([
      ...(first ? [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: '0f6c2d8e-5a41-4b7e-9c3d-7e2a1b9f4c60', schemaString: JSON.stringify({ type: 'struct',
          fields: [{ name: 'id', type: 'long', nullable: false, metadata: {} }] }), partitionColumns: [] } }] : []),
      ...written.files.slice(from, version + 1).map((f) => ({ add: { path: f.path, partitionValues: [], size: BigInt(f.size),
        modificationTime: 0n, dataChange: true } })),
    ])
    const cases = [
      // _last_checkpoint names 5; commits 6–9 cleaned up, checkpoint 5 and commits 0–5 still there.
      { name: 'cleaned-stale-pointer', pointer: 5, gone: [6, 7, 8, 9], rounds: 3 },
      // All before 10 cleaned up, _last_checkpoint (5) not rewritten: its checkpoint is gone too.
      { name: 'cleaned-pointer-gone', pointer: 5, gone: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], rounds: 3 },
      // No _last_checkpoint: commits 0–3 cleaned up behind checkpoint 4.
      { name: 'cleaned-no-pointer', gone: [0, 1, 2, 3], kept: 4, rounds: 4 },
    ]
    try {
      for (const { name, pointer, gone, kept = 10, rounds } of cases) {
        const root = path.join(dir, name)
        const written = await writeDeltaTable(root, { files: 14, commits: 14, rows: 8 })
        const logged = { [`${pad(kept)}.checkpoint.parquet`]: checkpoint(written, kept) }
        if (pointer !== undefined) {
          logged[`${pad(pointer)}.checkpoint.parquet`] = checkpoint(written, pointer)
          logged._last_checkpoint = JSON.stringify({ version: pointer, size: pointer + 3 })
        }
        await writeDeltaFiles(root, logged, {})
        for (const v of gone) await rm(path.join(root, '_delta_log', `${pad(v)}.json`))
        if (pointer !== undefined && gone.includes(pointer)) await rm(path.join(root, '_delta_log', `${pad(pointer)}.checkpoint.parquet`))
        const last = written.files[13]
        for (const location of [root, server.url(`${name}/`)]) {
          const table = await openTable(location, { format: 'delta' })
          assert.equal(table.table.version, 13, `${name} at ${location}`)
          // _last_checkpoint; its checkpoint and 8 commits (or from 0: 8 commits); checkpoint 10 (4) and the 8 after it; from 4, 16.
          if (location !== root) assert.equal(table.table.metadataStats.rounds, rounds, name)
          assert.deepEqual((await loadTable(location, { format: 'delta' })).files.map((f) => f.path).sort(),
            written.files.map((f) => f.path).sort(), name)
          const result = await table.probe('id', [last.ids[3]])
          assert.deepEqual(result.files.filter((f) => f.values[0].verdict !== 'absent').map((f) => f.path), [last.path], name)
        }
        // Its checkpoint not classic (a multi-part one here), no read without a listing finds it: MALFORMED_TABLE, no older version.
        if (pointer === undefined) {
          await rm(path.join(root, '_delta_log', `${pad(kept)}.checkpoint.parquet`))
          await writeDeltaFiles(root, { [`${pad(kept)}.checkpoint.0000000001.0000000002.parquet`]: checkpoint(written, 1),
            [`${pad(kept)}.checkpoint.0000000002.0000000002.parquet`]: checkpoint(written, kept, 2, false) }, {})
          clearTableCache()
          assert.equal((await loadTable(root, { format: 'delta' })).version, 13)
          await assert.rejects(loadTable(server.url(`${name}/`), { format: 'delta' }),
            (e) => e.code === ErrorCode.MALFORMED_TABLE && /00000\.json is missing/.test(e.message), name)
        }
      }
    } finally {
      await server.close()
    }
  })

  test('over HTTP, a _last_checkpoint cut short or naming no version is ignored, as delta-kernel-rs and Spark do: the log from 0',
    async () => {
    // Thrown, the cut-short one's SyntaxError (no error code) left the table unread. The truth: the JSON commits replayed.
    const server = await startTestServer({ root: dir })
    try {
      for (const [name, text] of [['pointer-cut-short', '{"version":1'], ['pointer-no-version', '{"size":3}'], ['pointer-empty', '']]) {
        const root = path.join(dir, name)
        await writeDeltaTable(root, { files: 4, commits: 4, rows: 8 })
        await writeFile(path.join(root, '_delta_log', '_last_checkpoint'), text)
        const table = await loadTable(server.url(`${name}/`), { format: 'delta' })
        assert.equal(table.version, 3, name)
        assert.deepEqual(table.files.map((f) => f.path).sort(), await replayJson(root, 3), name)
      }
    } finally {
      await server.close()
    }
  })

  test('a commit line that is JSON but no action (null, a number, an array) is MALFORMED_TABLE, not a TypeError; CRLF ends are read',
    async () => {
    // PROTOCOL.md "Delta Log Entries": every action a single-line JSON document (an object). The truth for CRLF: the replay.
    for (const [name, line] of [['line-null', 'null'], ['line-number', '5'], ['line-array', '[]'], ['line-crlf', '']]) {
      const root = path.join(dir, name)
      await writeDeltaTable(root, { files: 3, commits: 3, rows: 8 })
      const last = path.join(root, '_delta_log', `${pad(2)}.json`)
      const text = await readFile(last, 'utf8')
      await writeFile(last, line ? `${text}${line}\n` : text.replace(/\n/g, '\r\n'))
      if (!line) {
        const table = await loadTable(root, { format: 'delta' })
        assert.deepEqual(table.files.map((f) => f.path).sort(), await replayJson(root, 2))
        continue
      }
      await assert.rejects(loadTable(root, { format: 'delta' }),
        (e) => e.code === ErrorCode.MALFORMED_TABLE && /00002\.json: a line is not an action/.test(e.message), name)
    }
  })

  test('one data file live twice with other deletion vectors or partition values: MALFORMED_TABLE, not one\'s answers for both',
    async () => {
    // Each live add is a logical file (PROTOCOL.md: path and DV id), so Spark reads x.parquet's rows once as x.parquet (id 1
    // kept) and once as the absolute path with a DV deleting row 0: id 1 is in the table. Read by one path with one DV,
    // id 1 was `absent`. Adding a path with a second DV and no remove is illegal (PROTOCOL.md) and read alike.
    const parquet = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [1, 2, 3], type: 'INT32' }] }))
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} },
      { name: 'p', type: 'string', nullable: true, metadata: {} }] }
    const features = ['deletionVectors']
    const head = [{ protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: features, writerFeatures: features } },
      { metaData: { id: 'twice', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
        partitionColumns: ['p'] } }]
    const add = (p, extra = {}) => ({ add: { path: p, partitionValues: { p: 'a' }, size: parquet.length, modificationTime: 0,
      dataChange: true, ...extra } })
    const dv = (rows) => ({ deletionVector: inlineDeletionVector(rows) })
    const cases = {
      'relative and absolute, one with a DV': (root) => [[...head, add('x.parquet'), add(`${root}/x.parquet`, dv([0]))]],
      'one path, a second DV without a remove': () => [[...head, add('x.parquet', dv([1]))], [add('x.parquet', dv([0]))]],
      'relative and absolute, other partition values': (root) => [[...head, add('x.parquet'),
        add(`${root}/x.parquet`, { partitionValues: { p: 'b' } })]],
      'relative and absolute, alike': (root) => [[...head, add('x.parquet'), add(`${root}/x.parquet`)]],
    }
    for (const [name, commits] of Object.entries(cases)) {
      const root = path.join(dir, `twice-${Object.keys(cases).indexOf(name)}`)
      const log = Object.fromEntries(commits(root).map((c, v) => [`${pad(v)}.json`, c.map((a) => JSON.stringify(a)).join('\n')]))
      await writeTable(path.basename(root), log, { 'x.parquet': parquet })
      if (name.endsWith('alike')) {
        const result = await (await openTable(root)).probe('id', [1], { confirm: true })
        assert.ok(result.files.every((f) => f.values[0].verdict === 'present'), name)
      } else {
        await assert.rejects(openTable(root),
          (e) => e.code === ErrorCode.MALFORMED_TABLE && /name "x\.parquet" twice/.test(e.message), name)
      }
    }
  })

  test('two multi-part checkpoints of one version, neither whole: not read as one, the commits are', async () => {
    // Two writers cut the checkpoint of version 2 in 3 and in 2 parts; each left a part unwritten. Together the parts
    // there hold files 1 and 2 only.
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }
    const protocol = { minReaderVersion: 1, minWriterVersion: 2 }
    const metaData = { id: 'parts', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration: {} }
    const add = (n, one = 1) => ({ add: { path: `f${n}.parquet`, partitionValues: {}, size: one, modificationTime: one, dataChange: true } })
    const lines = (actions) => actions.map((a) => JSON.stringify(a)).join('\n')
    const inCheckpoint = (n) => add(n, 1n) // longs as the Parquet writer takes them
    const part = (i, of) => `${pad(2)}.checkpoint.${pad(i).slice(-10)}.${pad(of).slice(-10)}.parquet`
    const root = await writeTable('parts', {
      [`${pad(0)}.json`]: lines([{ protocol }, { metaData }, add(1), add(2)]),
      [`${pad(1)}.json`]: lines([add(3)]),
      [`${pad(2)}.json`]: lines([add(4)]),
      [part(1, 3)]: checkpointParquet([{ protocol }, { metaData }, inCheckpoint(1)]),
      [part(2, 3)]: checkpointParquet([inCheckpoint(2)]),
      [part(1, 2)]: checkpointParquet([{ protocol }, { metaData }, inCheckpoint(1), inCheckpoint(2)]),
    }, {})
    const table = await loadTable(root)
    assert.deepEqual(table.files.map((f) => f.path).sort(), ['f1.parquet', 'f2.parquet', 'f3.parquet', 'f4.parquet'])
  })

  test('a V2 checkpoint (JSON, UUID-named) with no commits before it', async () => {
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }
    const checkpoint = [
      { checkpointMetadata: { version: 4 } },
      { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['v2Checkpoint'], writerFeatures: ['v2Checkpoint'] } },
      { metaData: { id: 'v2', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: {} } },
      { add: { path: 'one.parquet', partitionValues: {}, size: 1, modificationTime: 0, dataChange: false } },
      { add: { path: 'two.parquet', partitionValues: {}, size: 1, modificationTime: 0, dataChange: false } },
    ]
    const commit5 = [
      { remove: { path: 'one.parquet', deletionTimestamp: 1, dataChange: true } },
      { add: { path: 'three%20x.parquet', partitionValues: {}, size: 1, modificationTime: 0, dataChange: true } },
    ]
    const root = await writeTable('v2', {
      [`${pad(4)}.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json`]: checkpoint.map((a) => JSON.stringify(a)).join('\n'),
      [`${pad(4)}.json`]: '{"commitInfo":{}}',
      [`${pad(5)}.json`]: commit5.map((a) => JSON.stringify(a)).join('\n'),
      '_last_checkpoint': JSON.stringify({ version: 4, size: 5, v2Checkpoint: { path: `${pad(4)}.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json` } }),
    }, {})
    const table = await loadTable(root)
    assert.equal(table.version, 5)
    assert.deepEqual(table.files.map((f) => f.path).sort(), ['three x.parquet', 'two.parquet'])
    assert.ok((await readdir(path.join(root, '_delta_log'))).length === 4)
  })

  test('a V2 checkpoint\'s sidecars: their removes are tombstones, as the checkpoint\'s own, never applied to its adds', async () => {
    // Delta Kernel (ActiveAddFilesIterator: isFromCheckpoint) and delta-kernel-rs read sidecars as checkpoint batches,
    // whose removes tombstone nothing they hold: a.parquet stays live though the second sidecar holds a remove of it.
    const opt = (name, type, extra = {}) => ({ name, type, repetition_type: 'OPTIONAL', ...extra })
    const str = (name) => opt(name, 'BYTE_ARRAY', { converted_type: 'UTF8' })
    const sidecar = (rows) => new Uint8Array(parquetWriteBuffer({
      schema: [{ name: 'root', num_children: 2 },
        { name: 'add', repetition_type: 'OPTIONAL', num_children: 3 }, str('path'), opt('size', 'INT64'), opt('dataChange', 'BOOLEAN'),
        { name: 'remove', repetition_type: 'OPTIONAL', num_children: 3 }, str('path'), opt('deletionTimestamp', 'INT64'),
        opt('dataChange', 'BOOLEAN')],
      columnData: ['add', 'remove'].map((name) => ({ name, data: rows.map((r) => r[name] ?? null) })) }))
    const data = { 'a.parquet': [1, 2], 'b.parquet': [3, 4] }
    const files = Object.fromEntries(Object.entries(data).map(([f, ids]) => [f, new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'id', data: ids, type: 'INT32' }] }))]))
    const first = sidecar(Object.keys(data).map((p) => ({ add: { path: p, size: BigInt(files[p].length), dataChange: false } })))
    const second = sidecar([{ remove: { path: 'a.parquet', deletionTimestamp: 5n, dataChange: true } }])
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'integer', nullable: true, metadata: {} }] }
    const checkpoint = [
      { checkpointMetadata: { version: 1 } },
      { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['v2Checkpoint'], writerFeatures: ['v2Checkpoint'] } },
      { metaData: { id: 'sc', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [] } },
      { sidecar: { path: 'first.parquet', sizeInBytes: first.length, modificationTime: 0 } },
      { sidecar: { path: 'second.parquet', sizeInBytes: second.length, modificationTime: 0 } },
    ]
    const name = `${pad(1)}.checkpoint.3a0d65cd-4056-49b8-937b-95f9e3ee90e5.json`
    const root = await writeTable('sidecar-tombstone', { [name]: checkpoint.map((a) => JSON.stringify(a)).join('\n'),
      '_sidecars/first.parquet': first, '_sidecars/second.parquet': second }, files)
    const table = await openTable(root)
    const result = await table.probe('id', [1, 3], { confirm: true })
    assert.deepEqual(result.files.map((f) => f.path).sort(), ['a.parquet', 'b.parquet'])
    for (const f of result.files) {
      assert.deepEqual(f.values.map((v) => v.verdict), [1, 3].map((v) => (data[f.path].includes(v) ? 'present' : 'absent')), f.path)
    }
  })

  test('sidecar paths as PROTOCOL.md allows them: URI-encoded, relative to _delta_log/_sidecars (with folders) or absolute', async () => {
    // Spark reads new Path(sidecarDir, path), delta-kernel-rs joins the path onto _sidecars/ as a URL: both decode escapes
    // and resolve a relative path under _sidecars/, an absolute one as it is.
    const root = path.join(dir, 'sidecar-paths')
    const where = { 'a b.parquet': 'a%20b.parquet', 'sub/c.parquet': 'sub/c.parquet',
      'd.parquet': `file://${path.join(root, '_delta_log/_sidecars/d.parquet').split('/').map(encodeURIComponent).join('/')}` }
    const sidecars = Object.fromEntries(Object.keys(where).map((name, i) => [`_sidecars/${name}`, checkpointParquet([{ add: {
      path: `f${i}.parquet`, partitionValues: [], size: 1n, modificationTime: 0n, dataChange: true } }])]))
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }
    const checkpoint = [
      { checkpointMetadata: { version: 0 } },
      { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['v2Checkpoint'], writerFeatures: ['v2Checkpoint'] } },
      { metaData: { id: 'paths', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
        partitionColumns: [] } },
      ...Object.values(where).map((p) => ({ sidecar: { path: p, sizeInBytes: 1, modificationTime: 0 } })),
    ]
    await writeTable('sidecar-paths', { ...sidecars, [`${pad(0)}.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json`]:
      checkpoint.map((a) => JSON.stringify(a)).join('\n') }, {})
    const table = await loadTable(root)
    assert.deepEqual(table.files.map((f) => f.path).sort(), ['f0.parquet', 'f1.parquet', 'f2.parquet'])
  })

  test('a Parquet checkpoint whose add actions carry stats_parsed (no stats JSON) prunes by it, truncated strings as prefixes', async () => {
    const long = 'x'.repeat(40)
    const data = {
      'a.parquet': { id: [1n, 2n, 3n], name: ['apple', 'fig', 'kiwi'] },
      'b.parquet': { id: [100n, 101n, 102n], name: ['pear', 'plum', `${long}z`] },
    }
    const files = Object.fromEntries(Object.entries(data).map(([f, c]) => [f, new Uint8Array(parquetWriteBuffer({ columnData: [
      { name: 'id', data: c.id, type: 'INT64' }, { name: 'name', data: c.name, type: 'STRING' }] }))]))
    // stats_parsed as the protocol's checkpoint schema has it (add.stats_parsed: numRecords, minValues,
    // maxValues, nullCount by physical name); strings cut to 32 characters as Delta writes them.
    const cut = (v) => [...v].slice(0, 32).join('')
    const statsOf = (c) => {
      const names = [...c.name].sort()
      return { numRecords: BigInt(c.id.length), minValues: { id: c.id[0], name: cut(names[0]) }, maxValues: { id: c.id[c.id.length - 1], name: cut(names[names.length - 1]) }, nullCount: { id: 0n, name: 0n } }
    }
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }, { name: 'name', type: 'string', nullable: true, metadata: {} }] }
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 }, metaData: null, add: null },
      { protocol: null, metaData: { id: 'sp', schemaString: JSON.stringify(schema), partitionColumns: [] }, add: null },
      ...Object.entries(data).map(([f, c]) => ({ protocol: null, metaData: null, add: { path: f, partitionValues: [], size: BigInt(files[f].length), modificationTime: 0n, dataChange: true, stats: null, stats_parsed: statsOf(c) } })),
    ]
    const checkpoint = checkpointParquet(actions, { statsParsed: { id: 'INT64', name: 'STRING' } })
    const root = await writeTable('stats-parsed', { [`${pad(1)}.checkpoint.parquet`]: checkpoint, '_last_checkpoint': JSON.stringify({ version: 1, size: actions.length }) }, files)
    const table = await openTable(root)
    const probes = { id: [2n, 101n, 50n], name: ['fig', 'plum', `${long}z`, `${long}a`, 'zebra'] }
    for (const [column, values] of Object.entries(probes)) {
      const result = await table.probe(column, values)
      for (const f of result.files) {
        values.forEach((v, k) => {
          const held = data[f.path][column].includes(v)
          const answer = f.values[k]
          // Truth: the data files as written. A value a file holds is never ruled out; one outside its
          // stats is ruled out by the table's stats (a value after the 32-character prefix is not).
          if (held) assert.notEqual(answer.verdict, 'absent', `${f.path} holds ${column} = ${v}`)
          const inside = column === 'id' ? v >= data[f.path].id[0] && v <= data[f.path].id.at(-1) : v >= [...data[f.path].name].sort()[0] && (v <= cut([...data[f.path].name].sort().at(-1)) || v.startsWith(cut([...data[f.path].name].sort().at(-1))))
          if (!inside) assert.deepEqual([answer.verdict, answer.source], ['absent', 'table-stats'], `${f.path}: ${column} = ${v}`)
        })
      }
    }
    assert.equal((await table.probe('id', [50n])).stats.filesOpened, 0)
  })
})
