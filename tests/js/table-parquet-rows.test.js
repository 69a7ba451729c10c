// Tables' Parquet metadata files read as rows (js/table/parquet-rows.js) through the page decoding point lookups use:
// levels within their section and at most the maximum, values within their page. hyparquet's row reader, used before,
// read a short level run on into the page's values: a DuckDB sidecar (or checkpoint part) whose add.path page had one
// level byte changed lost its last add, so that file's values were answered absent; a position delete file's short run
// in pos deleted row 0 (not deleted) and kept row 5 (deleted); an equality delete's made its last value null. DuckDB
// and arrow-rs refuse each edited page: the table is now MALFORMED_TABLE naming the file, the deletes not applied.
import assert from 'node:assert/strict'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'

import { tableFromIPC } from 'apache-arrow'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { ErrorCode, openTable } from '../../js/index.js'
import { checkpointParquet, pad, writeDeltaFiles } from '../../testkit/delta-writer.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { parquetWithIds, writeIcebergTable } from './helpers/iceberg-writer.js'

const dir = await tempDir('table-parquet-rows')

/** DuckDB's COPY of `select` to a Parquet file of uncompressed v1 PLAIN pages; its bytes. */
async function duckdbParquet(name, select, options = '') {
  const file = path.join(dir, name)
  await withDuckDB((connection) => connection.run(`COPY (${select}) TO '${file}'
    (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 0${options})`))
  return new Uint8Array(await readFile(file))
}

/**
 * `bytes` with the definition levels of the `nth` page whose section is one RLE run of `count` levels `level`
 * ([u32 length 2][count << 1][level]) cut to a run of count - 1: the last level lies past the section.
 */
function shortRun(bytes, count, level, nth) {
  const needle = Buffer.from([2, 0, 0, 0, count << 1, level])
  const places = []
  for (let at = Buffer.from(bytes).indexOf(needle); at >= 0; at = Buffer.from(bytes).indexOf(needle, at + 1)) places.push(at)
  assert.ok(places.length > nth, `a page whose levels are one run of ${count}`)
  const edited = bytes.slice()
  edited[places[nth] + 4] = (count - 1) << 1
  return edited
}

/** What DuckDB and arrow-rs read of `bytes` (`column`'s values), or their errors. */
async function readers(bytes, column) {
  const file = path.join(dir, 'read.parquet')
  await writeFile(file, bytes)
  const duckdb = await withDuckDB(async (connection) => {
    try {
      return (await connection.runAndReadAll(`SELECT ${column} FROM '${file}'`)).getRows().map((row) => String(row[0]))
    } catch (error) {
      return `error: ${error}`
    }
  })
  const { readParquet } = await import('parquet-wasm')
  let arrowRs
  try {
    arrowRs = tableFromIPC(readParquet(bytes).intoIPCStream()).toArray()
      .map((row) => String(column.split('.').reduce((/** @type {any} */ o, k) => o?.[k], row.toJSON())))
  } catch (error) {
    arrowRs = `error: ${error}`
  }
  return { duckdb, arrowRs }
}

// Five adds, as a V2 checkpoint's sidecar or a multi-part checkpoint's second part holds them (every row an add).
const ADDS = `SELECT {'path': 'f' || i || '.parquet', 'partitionValues': MAP {}::MAP(VARCHAR, VARCHAR), 'size': 100::BIGINT,
  'modificationTime': 0::BIGINT, 'dataChange': false} AS add,
  NULL::STRUCT(path VARCHAR, deletionTimestamp BIGINT, dataChange BOOLEAN) AS remove FROM range(5) t(i)`
const SCHEMA = JSON.stringify({ type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] })
const DATA = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`f${i}.parquet`,
  new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [BigInt(10 * i), BigInt(10 * i + 1)], type: 'INT64' }] }))]))
const DATA_PATHS = Object.keys(DATA).sort()

const LAYOUTS = {
  'a V2 checkpoint\'s sidecar': {
    where: '_sidecars/side.parquet',
    log: (adds) => {
      const uuid = '80a083e8-7026-4e79-81be-64bd76c43a11'
      const checkpoint = [
        { checkpointMetadata: { version: 1 } },
        { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['v2Checkpoint'], writerFeatures: ['v2Checkpoint'] } },
        { metaData: { id: 'v2', format: { provider: 'parquet', options: {} }, schemaString: SCHEMA, partitionColumns: [],
          configuration: {} } },
        { sidecar: { path: 'side.parquet', sizeInBytes: adds.length, modificationTime: 0 } },
      ]
      return {
        [`${pad(1)}.checkpoint.${uuid}.json`]: checkpoint.map((a) => JSON.stringify(a)).join('\n'),
        '_sidecars/side.parquet': adds,
        '_last_checkpoint': JSON.stringify({ version: 1, size: 4, v2Checkpoint: { path: `${pad(1)}.checkpoint.${uuid}.json` } }),
      }
    },
  },
  'a multi-part checkpoint\'s second part': {
    where: `${pad(1)}.checkpoint.0000000002.0000000002.parquet`,
    log: (adds) => ({
      [`${pad(1)}.checkpoint.0000000001.0000000002.parquet`]: checkpointParquet([{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: 'mp', schemaString: SCHEMA, partitionColumns: [] } }]),
      [`${pad(1)}.checkpoint.0000000002.0000000002.parquet`]: adds,
    }),
  },
}

for (const [name, { where, log }] of Object.entries(LAYOUTS)) {
  test(`Delta: ${name} whose add.path page has a short level run is MALFORMED_TABLE naming it, not a table without its last add`,
    async () => {
      const adds = await duckdbParquet(`adds-${where.length}.parquet`, ADDS)
      const truth = await readers(adds, 'add.path')
      assert.deepEqual(truth, { duckdb: DATA_PATHS, arrowRs: DATA_PATHS }, 'DuckDB and arrow-rs read the adds DuckDB wrote')
      const good = path.join(dir, `good-${where.length}`)
      const bad = path.join(dir, `bad-${where.length}`)
      for (const [root, bytes] of [[good, adds], [bad, shortRun(adds, 5, 2, 0)]]) {
        await mkdir(path.join(root, '_delta_log', '_sidecars'), { recursive: true })
        await writeDeltaFiles(root, log(bytes), DATA)
      }
      // The unedited log: every file DuckDB reads, and 41 found in f4 (not ruled out there).
      const table = await openTable(good)
      const result = await table.probe('id', [41n])
      assert.deepEqual(result.files.map((f) => f.path).sort(), DATA_PATHS)
      assert.equal(result.files.find((f) => f.path === 'f4.parquet').values[0].verdict, 'maybe')
      const edited = await readers(shortRun(adds, 5, 2, 0), 'add.path')
      assert.match(edited.duckdb, /^error/, 'DuckDB refuses the edited page')
      assert.match(edited.arrowRs, /^error/, 'arrow-rs refuses the edited page')
      // Before: f4's add was lost (add: null) and 41, which f4 holds, was in no file: absent.
      await assert.rejects(openTable(bad), (error) => {
        assert.equal(error.code, ErrorCode.MALFORMED_TABLE)
        assert.ok(error.message.includes(where), error.message)
        assert.match(error.message, /definition levels run past/)
        return true
      })
    })
}
// A data file of ids 10…15 (rows 0…5) and a delete file of DuckDB's, with field ids, removing some of its rows.
async function icebergWithDeletes(name, deleteFile, content, equalityIds) {
  const root = path.join(dir, name)
  await writeIcebergTable(root, {
    schema: [{ id: 1, name: 'id', type: 'int' }],
    files: { 'data/a.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: IDS }]), 'data/deletes.parquet': deleteFile },
    manifests: [
      { sequence: 1, entries: [{ sequence: 1, file: { file_path: 'data/a.parquet', record_count: IDS.length } }] },
      { sequence: 2, content: 1, entries: [{ sequence: 2,
        file: { content, file_path: 'data/deletes.parquet', record_count: 5, ...(equalityIds ? { equality_ids: equalityIds } : {}) } }] },
    ],
  })
  const result = await (await openTable(root)).probe('id', IDS, { confirm: true })
  return result.files[0].values
}
const IDS = [10, 11, 12, 13, 14, 15]

for (const { kind, select, options, content, equalityIds, column } of [
  { kind: 'position', content: 1, column: 'pos',
    select: 'SELECT \'file:///warehouse/t/data/a.parquet\' AS file_path, i::BIGINT AS pos FROM range(1, 6) t(i)',
    options: ', FIELD_IDS {file_path: 2147483546, pos: 2147483545}' },
  { kind: 'equality', content: 2, equalityIds: [1], column: 'id',
    select: 'SELECT (10 + i)::INTEGER AS id FROM range(1, 6) t(i)', options: ', FIELD_IDS {id: 1}' },
]) {
  const title = `${kind === 'equality' ? 'an' : 'a'} ${kind} delete file whose ${column} page has a short level run`
  test(`Iceberg: ${title} is not applied (maybe), never other rows deleted`, async () => {
    const deletes = await duckdbParquet(`${kind}-deletes.parquet`, select, options)
    const truth = await readers(deletes, column)
    const written = ['1', '2', '3', '4', '5'].map((n) => (kind === 'position' ? n : String(10 + Number(n))))
    assert.deepEqual(truth, { duckdb: written, arrowRs: written }, 'DuckDB and arrow-rs read the deletes DuckDB wrote')
    // The unedited deletes remove rows 1…5 (ids 11…15): DuckDB's rows.
    const good = await icebergWithDeletes(`${kind}-good`, deletes, content, equalityIds)
    assert.deepEqual(good.map((v) => [v.value, v.verdict, v.reason]),
      IDS.map((id) => (id === 10 ? [id, 'present', 'in-data-pages'] : [id, 'absent', 'rows-deleted'])))
    // The column's page (the file's last one) with its run of 5 present levels cut to 4.
    const edited = shortRun(deletes, 5, 1, kind === 'position' ? 1 : 0)
    const refused = await readers(edited, column)
    assert.match(refused.duckdb, /^error/, 'DuckDB refuses the edited page')
    assert.match(refused.arrowRs, /^error/, 'arrow-rs refuses the edited page')
    // Before: the fifth delete row read as null — position 0 deleted (10 absent) and 15 kept, or an equality
    // delete of null (15 kept, present).
    const bad = await icebergWithDeletes(`${kind}-bad`, edited, content, equalityIds)
    for (const v of bad) {
      assert.deepEqual([v.verdict, v.reason], ['maybe', 'deletes-not-applied'], `${v.value}: ${v.verdict} (${v.reason}: ${v.detail})`)
      assert.match(v.detail, /MALFORMED_TABLE: .*data\/deletes\.parquet: does not read as Parquet/)
    }
  })
}
