// Iceberg tables as real writers leave them, made by hand (tests/js/helpers/iceberg-writer.js) where the
// fixtures lack the case: each test reads the data files with hyparquet for the truth, and no value a
// live row holds may be called absent.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { describe, test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'

import { openTable } from '../../js/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { parquetWithIds, uuidBytes, writeIcebergTable } from './helpers/iceberg-writer.js'

/** Every row of a table's data file, read with hyparquet. */
async function rowsOf(dir, file) {
  const bytes = readFileSync(path.join(dir, file))
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
}

describe('UUID bounds in java.util.UUID order', async () => {
  // Iceberg Java orders UUIDs by java.util.UUID.compareTo, two signed 64-bit halves (apache/iceberg
  // Comparators.forType): its partition summaries (PartitionSummary) and a file's bounds merged over row
  // groups (ParquetMetrics) then call f0… the least and 10… the greatest.
  const low = '10000000-0000-4000-8000-000000000001'
  const high = 'f0000000-0000-4000-8000-000000000002'
  const bytes = (u) => Buffer.from(uuidBytes(u))
  const root = await tempDir('iceberg-uuid')

  test('a manifest whose identity(uuid) summary is Java\'s least and greatest is read for a UUID it holds', async () => {
    const dir = path.join(root, 'summary')
    const files = {}
    for (const [name, u] of [['a', low], ['b', high]]) files[`data/${name}.parquet`] = parquetWithIds([{ id: 1, name: 'u', type: 'uuid', data: [uuidBytes(u)] }])
    await writeIcebergTable(dir, {
      schema: [{ id: 1, name: 'u', type: 'uuid' }],
      spec: [{ name: 'u', transform: 'identity', sourceId: 1, avro: { type: 'fixed', name: 'uuid16', size: 16 } }],
      files,
      manifests: [{ summaries: [{ contains_null: false, contains_nan: null, lower_bound: bytes(high), upper_bound: bytes(low) }],
        entries: [['a', low], ['b', high]].map(([n, u]) => ({ file: { file_path: `data/${n}.parquet`, partition: { u: bytes(u) }, record_count: 1 } })) }],
    })
    for (const [file, u] of [['data/a.parquet', low], ['data/b.parquet', high]]) {
      assert.deepEqual((await rowsOf(dir, file)).map((r) => r.u), [u]) // the truth
      const result = await (await openTable(dir)).probe('u', [u], { confirm: true })
      assert.equal(result.manifests.skipped, 0)
      assert.equal(result.files.find((f) => f.path === file)?.values[0].verdict, 'present', `${u} in ${file}`)
    }
  })

  test('a file whose uuid bounds are Java\'s least and greatest over its row groups is kept for the UUIDs it holds', async () => {
    const dir = path.join(root, 'bounds')
    const file = 'data/a.parquet'
    await writeIcebergTable(dir, {
      schema: [{ id: 1, name: 'u', type: 'uuid' }],
      files: { [file]: parquetWithIds([{ id: 1, name: 'u', type: 'uuid', data: [uuidBytes(low), uuidBytes(high)] }], 1) },
      manifests: [{ summaries: [], entries: [{ file: { file_path: file, record_count: 2,
        lower_bounds: [{ key: 1, value: bytes(high) }], upper_bounds: [{ key: 1, value: bytes(low) }] } }] }],
    })
    assert.deepEqual((await rowsOf(dir, file)).map((r) => r.u), [low, high])
    const result = await (await openTable(dir)).probe('u', [low, high, '20000000-0000-4000-8000-000000000003'], { confirm: true })
    const values = result.files.find((f) => f.path === file).values
    assert.deepEqual(values.slice(0, 2).map((v) => v.verdict), ['present', 'present'])
    // Out of the bounds by both orders: still ruled out by the table's metadata.
    assert.deepEqual([values[2].verdict, values[2].source], ['absent', 'table-stats'])
  })
})

describe('equality deletes of binary values', async () => {
  const root = await tempDir('iceberg-eq-binary')

  test('bytes that are not UTF-8 are compared as bytes: 0xFF deletes neither U+FFFD\'s bytes nor 0xFE, 0xFE deletes 0xFE', async () => {
    const dir = path.join(root, 't')
    const replacement = Uint8Array.of(0xef, 0xbf, 0xbd)
    await writeIcebergTable(dir, {
      schema: [{ id: 1, name: 'b', type: 'binary' }],
      files: { 'data/a.parquet': parquetWithIds([{ id: 1, name: 'b', type: 'binary', data: [replacement, Uint8Array.of(0xfe)] }]),
        'data/del.parquet': parquetWithIds([{ id: 1, name: 'b', type: 'binary', data: [Uint8Array.of(0xff), Uint8Array.of(0xfe)] }]) },
      manifests: [
        { sequence: 1, summaries: [], entries: [{ sequence: 1, file: { file_path: 'data/a.parquet', record_count: 2 } }] },
        { sequence: 2, content: 1, summaries: [],
          entries: [{ sequence: 2, file: { content: 2, file_path: 'data/del.parquet', record_count: 2, equality_ids: [1] } }] },
      ],
    })
    // The truth, read as bytes: rows [EF BF BD] and [FE]; delete rows [FF] and [FE].
    const asBytes = async (file) => {
      const bytes = readFileSync(path.join(dir, file))
      return (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), utf8: false }))
        .map((r) => [...r.b])
    }
    assert.deepEqual(await asBytes('data/a.parquet'), [[0xef, 0xbf, 0xbd], [0xfe]])
    assert.deepEqual(await asBytes('data/del.parquet'), [[0xff], [0xfe]])
    const result = await (await openTable(dir)).probe('b', [replacement, Uint8Array.of(0xfe)], { confirm: true })
    const values = result.files.find((f) => f.path === 'data/a.parquet').values
    assert.deepEqual(values.map((v) => [v.verdict, v.reason === 'rows-deleted']), [['present', false], ['absent', true]])
  })
})

describe('equality deletes apply to their own partition only', async () => {
  const root = await tempDir('iceberg-eq-partition')
  // Spec "Scan Planning": an equality delete applies to a data file of an equal partition (spec id and partition
  // values) or is global (unpartitioned spec). Here each data row (id 5) sits in a partition the delete file is not of.
  const cases = [
    { name: 'a null partition is not the string "null"', type: 'string', avro: 'string', data: null, deletes: 'null' },
    { name: '-0.0 is not 0.0', type: 'double', avro: 'double', data: -0, deletes: 0 },
  ]
  for (const c of cases) {
    test(c.name, async () => {
      const dir = path.join(root, c.type)
      await writeIcebergTable(dir, {
        schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'p', type: c.type }],
        spec: [{ name: 'p', transform: 'identity', sourceId: 2, avro: c.avro }],
        files: { 'data/a.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] }, { id: 2, name: 'p', type: c.type, data: [c.data] }]),
          'data/del.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] }]) },
        manifests: [
          { sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/a.parquet', record_count: 1, partition: { p: c.data } } }] },
          { sequence: 2, content: 1, entries: [{ sequence: 2,
            file: { content: 2, file_path: 'data/del.parquet', record_count: 1, equality_ids: [1], partition: { p: c.deletes } } }] },
        ],
      })
      const rows = await rowsOf(dir, 'data/a.parquet')
      assert.equal(rows.length, 1)
      assert.equal(rows[0].id, 5)
      assert.ok(Object.is(rows[0].p, c.data))
      const table = await openTable(dir)
      await table.listFiles()
      assert.deepEqual(table.table.files.map((f) => f.deletes), [[]])
      const result = await table.probe('id', [5], { confirm: true })
      assert.equal(result.files.find((f) => f.path === 'data/a.parquet').values[0].verdict, 'present')
    })
  }
})

test('an equality delete of a partition spec the table does not list is MALFORMED_TABLE, not applied as global', async () => {
  const dir = path.join(await tempDir('iceberg-eq-unlisted-spec'), 't')
  // The delete manifest says spec 5 (its tuple: region eu), which the metadata does not list: read as a spec of no
  // field it was global, and deleted the us file's id 5, a row of another partition.
  await writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'region', type: 'string' }],
    specs: [{ id: 0, fields: [{ name: 'region', transform: 'identity', sourceId: 2, avro: 'string' }] },
      { id: 5, fields: [{ name: 'region', transform: 'identity', sourceId: 2, avro: 'string' }] }],
    files: { 'data/us.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] },
      { id: 2, name: 'region', type: 'string', data: ['us'] }]),
      'data/del.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] }]) },
    manifests: [
      { specId: 0, sequence: 1,
        entries: [{ sequence: 1, file: { file_path: 'data/us.parquet', record_count: 1, partition: { region: 'us' } } }] },
      { specId: 5, sequence: 2, content: 1, entries: [{ sequence: 2,
        file: { content: 2, file_path: 'data/del.parquet', record_count: 1, equality_ids: [1], partition: { region: 'eu' } } }] },
    ],
    editMetadata: (metadata) => { metadata['partition-specs'] = metadata['partition-specs'].filter((s) => s['spec-id'] === 0) },
  })
  const table = await openTable(dir)
  await assert.rejects(table.probe('id', [5], { confirm: true }), { code: 'MALFORMED_TABLE', message: /partition spec 5/ })
  await table.close()
})

describe('a table index records partition values JSON has no number for', async () => {
  const root = await tempDir('iceberg-index-partition')

  test('identity(double) partitions of Infinity, -Infinity and -0.0 are kept as such, never as null', async () => {
    const { buildSidecarIndex } = await import('../../js/index-builder/index.js')
    const dir = path.join(root, 't')
    const values = [Infinity, -Infinity, -0]
    const files = Object.fromEntries(values.map((x, k) => [`data/f${k}.parquet`,
      parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [k] }, { id: 2, name: 'x', type: 'double', data: [x] }])]))
    await writeIcebergTable(dir, {
      schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'x', type: 'double' }],
      spec: [{ name: 'x', transform: 'identity', sourceId: 2, avro: 'double' }],
      files,
      manifests: [{ sequence: 1, entries: values.map((x, k) => ({ sequence: 1, file: { file_path: `data/f${k}.parquet`, record_count: 1, partition: { x } } })) }],
    })
    const index = path.join(root, 't.puffin')
    await buildSidecarIndex(null, index, { table: dir, columns: ['x'] })
    for (const [k, x] of values.entries()) {
      assert.ok(Object.is((await rowsOf(dir, `data/f${k}.parquet`))[0].x, x)) // the truth
      const table = await openTable(dir, { index })
      const result = await table.probe('x', [x])
      assert.equal(table.table.index?.unchanged, true)
      assert.notEqual(result.files.find((f) => f.path === `data/f${k}.parquet`).values[0].verdict, 'absent', String(x))
      await table.close()
    }
  })
})

test('an equality delete of a spec whose fields are all void is global (Iceberg\'s PartitionSpec.isUnpartitioned)', async () => {
  const dir = path.join(await tempDir('iceberg-eq-void'), 't')
  await writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'cat', type: 'string' }],
    specs: [{ id: 0, fields: [{ name: 'cat', transform: 'identity', sourceId: 2, avro: 'string' }] },
      { id: 1, fields: [{ name: 'cat', transform: 'void', sourceId: 2, avro: 'string' }] }],
    files: { 'data/a.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5, 6] }, { id: 2, name: 'cat', type: 'string', data: ['a', 'a'] }]),
      'data/del.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] }]) },
    manifests: [
      { specId: 0, sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/a.parquet', record_count: 2, partition: { cat: 'a' } } }] },
      { specId: 1, sequence: 2, content: 1,
        entries: [{ sequence: 2, file: { content: 2, file_path: 'data/del.parquet', record_count: 1, equality_ids: [1], partition: { cat: null } } }] },
    ],
  })
  // The truth: id 5 is deleted (a later delete of the unpartitioned spec), id 6 is not.
  assert.deepEqual((await rowsOf(dir, 'data/a.parquet')).map((r) => r.id), [5, 6])
  assert.deepEqual((await rowsOf(dir, 'data/del.parquet')).map((r) => r.id), [5])
  const result = await (await openTable(dir)).probe('id', [5, 6], { confirm: true })
  assert.deepEqual(result.files.find((f) => f.path === 'data/a.parquet').values.map((v) => [v.verdict, v.reason]),
    [['absent', 'rows-deleted'], ['present', 'in-data-pages']])
})

describe('temporal partitions before 1970 as Iceberg Java writes them', async () => {
  // Iceberg Java's DateTimeUtil.microsToYears/Months/Days/Hours (apache/iceberg, run on these instants) give the
  // last microsecond of the first second of a unit before 1970 the unit before: one past the spec's floor.
  const JAVA = [
    { ts: '1969-12-31T00:00:00.999999', micros: -86_399_000_001n, year: -1, month: -1, day: -2, hour: -25 },
    { ts: '1969-12-31T23:00:00.999999', micros: -3_599_000_001n, year: -1, month: -1, day: -1, hour: -2 },
    { ts: '1969-12-01T00:00:00.999999', micros: -2_678_399_000_001n, year: -1, month: -2, day: -32, hour: -745 },
    { ts: '1969-01-01T00:00:00.999999', micros: -31_535_999_000_001n, year: -2, month: -13, day: -366, hour: -8761 },
    { ts: '1969-12-31T23:59:59.999999', micros: -1n, year: -1, month: -1, day: -1, hour: -1 },
  ]
  const root = await tempDir('iceberg-java-temporal')
  for (const transform of ['year', 'month', 'day', 'hour']) {
    test(`${transform}(ts): each file is kept for the timestamp it holds, and its manifest too`, async () => {
      const dir = path.join(root, transform)
      const files = Object.fromEntries(JAVA.map((r, k) => [`data/f${k}.parquet`, parquetWithIds([{ id: 1, name: 'ts', type: 'timestamp', data: [r.micros] }])]))
      const int32 = (n) => Buffer.from(Int32Array.of(n).buffer)
      await writeIcebergTable(dir, {
        schema: [{ id: 1, name: 'ts', type: 'timestamp' }],
        spec: [{ name: `ts_${transform}`, transform, sourceId: 1, avro: 'int' }],
        files,
        // A manifest per file, its summary that file's partition value.
        manifests: JAVA.map((r, k) => ({ sequence: 1,
          summaries: [{ contains_null: false, contains_nan: null, lower_bound: int32(r[transform]), upper_bound: int32(r[transform]) }],
          entries: [{ sequence: 1, file: { file_path: `data/f${k}.parquet`, record_count: 1, partition: { [`ts_${transform}`]: r[transform] } } }] })),
      })
      for (const [k, r] of JAVA.entries()) {
        const bytes = readFileSync(path.join(dir, `data/f${k}.parquet`))
        const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
          parsers: { timestampFromMicroseconds: (micros) => BigInt(micros) } })
        assert.deepEqual(rows, [{ ts: r.micros }]) // the truth
        const result = await (await openTable(dir)).probe('ts', [r.ts], { confirm: true })
        assert.equal(result.files.find((f) => f.path === `data/f${k}.parquet`)?.values[0].verdict, 'present', `${r.ts} (${transform} ${r[transform]})`)
      }
      // A timestamp of no file's unit by either reading: every manifest is still skipped.
      const other = await (await openTable(dir)).probe('ts', ['1950-06-15T12:30:00'])
      assert.deepEqual([other.manifests.skipped, other.files.length], [JAVA.length, 0])
    })
  }
})

test('metadata without current-snapshot-id (optional in the spec) is at the snapshot its main branch names', async () => {
  const dir = path.join(await tempDir('iceberg-refs'), 't')
  await writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'id', type: 'int' }],
    files: { 'data/a.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] }]) },
    manifests: [{ sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/a.parquet', record_count: 1 } }] }],
    editMetadata: (metadata) => { delete metadata['current-snapshot-id'] },
  })
  assert.deepEqual((await rowsOf(dir, 'data/a.parquet')).map((r) => r.id), [5])
  const table = await openTable(dir)
  assert.equal(table.table.snapshot, '1')
  const result = await table.probe('id', [5], { confirm: true })
  assert.deepEqual(result.files.map((f) => [f.path, f.values[0].verdict]), [['data/a.parquet', 'present']])
})

test('options.snapshot names a snapshot by id, or by a branch or tag of refs; another name is INVALID_ARGUMENT', async () => {
  const dir = path.join(await tempDir('iceberg-ref-names'), 't')
  await writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'id', type: 'int' }],
    files: { 'data/a.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [5] }]) },
    manifests: [{ sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/a.parquet', record_count: 1 } }] }],
    editMetadata: (metadata) => { metadata.refs.v1 = { 'snapshot-id': 1, type: 'tag' } },
  })
  for (const snapshot of ['1', 1, 'main', 'v1']) {
    const table = await openTable(dir, { snapshot })
    assert.equal(table.table.snapshot, '1')
    await table.close()
  }
  // It was a SyntaxError of BigInt, not the package's.
  await assert.rejects(openTable(dir, { snapshot: 'nightly' }), { code: 'INVALID_ARGUMENT', message: /nightly.*refs: main, v1/ })
})

test('a table dropped and created again at its location (v1.metadata.json written anew) is read as the new table, locally and over HTTP',
  async () => {
    const parent = await tempDir('iceberg-recreated-http')
    const server = await startTestServer({ root: parent })
    try {
      await recreated(path.join(parent, 't'), () => openTable(server.url('t/')))
      // Told the format, the warm open of an unchanged table reads the hint and, beside it, v1.metadata.json: one round.
      server.resetStats()
      const warm = await openTable(server.url('t/'), { format: 'iceberg' })
      assert.deepEqual(server.stats.log.map((r) => r.path).sort(), ['/t/metadata/v1.metadata.json', '/t/metadata/version-hint.text'])
      assert.equal(warm.table.metadataStats.rounds, 1)
    } finally {
      await server.close()
    }
    const dir = path.join(await tempDir('iceberg-recreated'), 't')
    await recreated(dir, () => openTable(dir))
  })

/**
 * Writes a table at `dir` holding id 5, probes it, drops it and writes one holding 6 in its place: the second open
 * (`open`) must read the new table.
 * @param {string} dir @param {() => Promise<any>} open
 */
async function recreated(dir, open) {
  const int32 = (n) => Buffer.from(Int32Array.of(n).buffer)
  const write = (name, id) => writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'id', type: 'int' }],
    files: { [`data/${name}.parquet`]: parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [id] }]) },
    manifests: [{ sequence: 1, entries: [{ sequence: 1, file: { file_path: `data/${name}.parquet`, record_count: 1,
      lower_bounds: [{ key: 1, value: int32(id) }], upper_bounds: [{ key: 1, value: int32(id) }] } }] }],
  })
  await write('a', 5)
  const first = await (await open()).probe('id', [6])
  assert.deepEqual(first.files.map((f) => [f.path, f.values[0].verdict]), [['data/a.parquet', 'absent']])
  await rm(dir, { recursive: true })
  await write('b', 6)
  assert.deepEqual((await rowsOf(dir, 'data/b.parquet')).map((r) => r.id), [6]) // the truth
  const second = await (await open()).probe('id', [6], { confirm: true })
  assert.deepEqual(second.files.map((f) => [f.path, f.values[0].verdict]), [['data/b.parquet', 'present']])
}

test('a v3 timestamp column widened from date: a file still of DATE holds its days as midnights, and only those', async () => {
  const dir = path.join(await tempDir('iceberg-date-to-timestamp'), 't')
  const days = [19722, 19724] // 2023-12-31, 2024-01-02
  const int32 = (n) => Buffer.from(Int32Array.of(n).buffer)
  await writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'ts', type: 'timestamp' }],
    files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'ts', type: 'date', data: days }]) },
    // The spec's bound table: a 4-byte bound of a timestamp column is the day the file was written with.
    manifests: [{ sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/old.parquet', record_count: 2,
      lower_bounds: [{ key: 1, value: int32(days[0]) }], upper_bounds: [{ key: 1, value: int32(days[1]) }] } }] }],
    editMetadata: (metadata) => { metadata['format-version'] = 3; metadata['next-row-id'] = 0 },
  })
  // The truth: the file's DATE values, which the table reads as those days' midnights.
  const bytes = readFileSync(path.join(dir, 'data/old.parquet'))
  const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
  assert.deepEqual(rows.map((r) => r.ts.toISOString()), ['2023-12-31T00:00:00.000Z', '2024-01-02T00:00:00.000Z'])
  const micros = BigInt(Date.UTC(2023, 11, 31)) * 1000n
  const result = await (await openTable(dir)).probe('ts', [
    '2023-12-31T00:00:00', new Date(Date.UTC(2023, 11, 31)), micros, // held: present, or unknown for the integer
    new Date(Date.UTC(2023, 11, 31, 12)), '2023-12-31T12:00:00', micros + 1n, '2024-01-01T00:00:00', // not held
  ], { confirm: true })
  assert.deepEqual(result.files[0].values.map((v) => v.verdict), ['present', 'present', 'unknown', 'absent', 'absent', 'absent', 'absent'])
  assert.equal(result.files[0].values[2].reason, 'unit-differs')
})

test('a timestamp column in a file of milliseconds (written by another tool, added to the table): an integer in micros is never absent', async () => {
  const { parquetWriteBuffer } = await import('hyparquet-writer')
  const dir = path.join(await tempDir('iceberg-millis'), 't')
  const ms = 1703980800123n // 2023-12-31T00:00:00.123
  const file = new Uint8Array(parquetWriteBuffer({ schema: [{ name: 'root', num_children: 1 }, { name: 'ts', repetition_type: 'OPTIONAL',
    field_id: 1, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MILLIS' } }], columnData: [{ name: 'ts', data: [ms] }] }))
  const int64 = (n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(n); return b }
  await writeIcebergTable(dir, {
    schema: [{ id: 1, name: 'ts', type: 'timestamp' }],
    files: { 'data/m.parquet': file },
    // Iceberg's Parquet metrics convert a millisecond column's statistics to micros.
    manifests: [{ sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/m.parquet', record_count: 1,
      lower_bounds: [{ key: 1, value: int64(ms * 1000n) }], upper_bounds: [{ key: 1, value: int64(ms * 1000n) }] } }] }],
  })
  const bytes = readFileSync(path.join(dir, 'data/m.parquet'))
  const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    parsers: { timestampFromMilliseconds: (n) => BigInt(n) } })
  assert.deepEqual(rows, [{ ts: ms }]) // the truth
  const result = await (await openTable(dir)).probe('ts', [ms * 1000n, '2023-12-31T00:00:00.123', '2023-12-31T00:00:00.124'], { confirm: true })
  assert.deepEqual(result.files[0].values.map((v) => [v.verdict, v.reason]),
    [['unknown', 'unit-differs'], ['present', 'in-data-pages'], ['absent', 'out-of-range']])
})

test('a v3 timestamp widened from date, partitioned by identity or bucket in an older spec: its files are in their date\'s partition',
  async () => {
    // The spec forbids the promotion of a partition source whose transform value changes; writers check the current
    // spec only (Redpanda's compat check), so files of an older spec keep a day (identity, an Avro int) or the bucket
    // of a day — as their manifest summaries do.
    const day = 19724 // 2024-01-02
    const int32 = (n) => Buffer.from(Int32Array.of(n).buffer)
    const { bucketHash } = await import('../../js/table/iceberg-types.js')
    const bucketOfDay = (bucketHash({ kind: 'date' }, BigInt(day)) & 0x7fffffff) % 16
    const later = BigInt(day) * 86_400_000_000n + 36_000_123_456n // 2024-01-02T10:00:00.123456
    const layouts = {
      identity: { field: { name: 'ts_day', transform: 'identity', sourceId: 1, avro: { type: 'int', logicalType: 'date' } }, value: day },
      bucket: { field: { name: 'ts_bucket', transform: 'bucket[16]', sourceId: 1, avro: 'int' }, value: bucketOfDay },
    }
    for (const [name, { field, value }] of Object.entries(layouts)) {
      const dir = path.join(await tempDir(`iceberg-date-partition-${name}`), 't')
      const summary = { contains_null: false, contains_nan: null, lower_bound: int32(value), upper_bound: int32(value) }
      await writeIcebergTable(dir, {
        schema: [{ id: 1, name: 'ts', type: 'timestamp' }],
        specs: [{ id: 0, fields: [field] }, { id: 1, fields: [] }],
        files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'ts', type: 'date', data: [day] }]),
          'data/new.parquet': parquetWithIds([{ id: 1, name: 'ts', type: 'timestamp', data: [later] }]) },
        manifests: [
          { specId: 0, sequence: 1, summaries: [summary], entries: [{ sequence: 1, file: { file_path: 'data/old.parquet', record_count: 1,
            partition: { [field.name]: value } } }] },
          { specId: 1, sequence: 2, summaries: [], entries: [{ sequence: 2, file: { file_path: 'data/new.parquet', record_count: 1 } }] },
        ],
        editMetadata: (metadata) => {
          metadata['format-version'] = 3
          metadata['next-row-id'] = 0
          metadata.schemas = [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'ts', required: false, type: 'date' }] },
            { type: 'struct', 'schema-id': 1, fields: [{ id: 1, name: 'ts', required: false, type: 'timestamp' }] }]
          metadata['current-schema-id'] = 1
        },
      })
      // The truth: the old file holds the day, which the table reads as its midnight; the new one 10:00:00.123456.
      assert.deepEqual((await rowsOf(dir, 'data/old.parquet')).map((r) => r.ts.toISOString()), ['2024-01-02T00:00:00.000Z'])
      const newBytes = readFileSync(path.join(dir, 'data/new.parquet'))
      const newFile = newBytes.buffer.slice(newBytes.byteOffset, newBytes.byteOffset + newBytes.byteLength)
      const newRows = await parquetReadObjects({ file: newFile,
        parsers: { timestampFromMicroseconds: (n) => BigInt(n) } })
      assert.deepEqual(newRows.map((r) => r.ts), [later])
      const table = await openTable(dir)
      const result = await table.probe('ts', ['2024-01-02T00:00:00', new Date(Date.UTC(2024, 0, 2)), '2024-01-02T10:00:00.123456'],
        { confirm: true })
      const verdicts = Object.fromEntries(result.files.map((f) => [f.path, f.values.map((v) => v.verdict)]))
      assert.deepEqual(verdicts,
        { 'data/old.parquet': ['present', 'present', 'absent'], 'data/new.parquet': ['absent', 'absent', 'present'] }, name)
      if (name === 'identity') {
        // Its partition value as text is that midnight, which `where` compares with.
        const where = await table.probe('ts', ['2024-01-02T00:00:00'], { where: { ts_day: '2024-01-02T00:00:00.000000' }, confirm: true })
        assert.equal(where.files.find((f) => f.path === 'data/old.parquet')?.values[0].verdict, 'present')
      }
    }
  })

test('Delta UniForm metadata of a double column widened from float: an old file\'s bounds are its floats\' shortest decimals as doubles',
  async () => {
    // UniForm parses each file's Delta stats with the converted snapshot's schema (IcebergTransactionUtils) and a first or
    // full conversion adds every file: Spark wrote a float file's stats as Float.toString ("3.4", "-0.3"), now read as the
    // doubles 3.4 and -0.3, below 3.4000000953674316 and above -0.30000001192092896, which the file holds widened.
    const dir = path.join(await tempDir('iceberg-uniform-widened'), 't')
    const f64 = (x) => Buffer.from(Float64Array.of(x).buffer)
    const floats = [Math.fround(-0.3), Math.fround(3.4)]
    await writeIcebergTable(dir, {
      schema: [{ id: 1, name: 'x', type: 'double' }],
      files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'x', type: 'float', data: floats }]),
        'data/new.parquet': parquetWithIds([{ id: 1, name: 'x', type: 'double', data: [0.1, 3.4] }]) },
      manifests: [{ sequence: 1, entries: [
        { sequence: 1, file: { file_path: 'data/old.parquet', record_count: 2, lower_bounds: [{ key: 1, value: f64(Number(String(-0.3))) }],
          upper_bounds: [{ key: 1, value: f64(Number(String(3.4))) }] } },
        { sequence: 1, file: { file_path: 'data/new.parquet', record_count: 2, lower_bounds: [{ key: 1, value: f64(0.1) }],
          upper_bounds: [{ key: 1, value: f64(3.4) }] } }] }],
      editMetadata: (metadata) => { metadata.snapshots[0].summary['delta-version'] = '7' },
    })
    const truth = (await rowsOf(dir, 'data/old.parquet')).map((r) => r.x)
    assert.deepEqual(truth, [-0.30000001192092896, 3.4000000953674316]) // the floats, as a double column reads them
    const table = await openTable(dir)
    assert.equal(table.table.writer, 'delta-uniform')
    const result = await table.probe('x', [...truth, 3.4, 3.5], { confirm: true })
    const old = result.files.find((f) => f.path === 'data/old.parquet').values
    assert.deepEqual(old.map((v) => v.verdict), ['present', 'present', 'absent', 'absent'])
    // Past the float's reading the bound still rules values out, by the table's metadata.
    assert.deepEqual([old[3].source, old[3].reason], ['table-stats', 'out-of-range'])
  })
