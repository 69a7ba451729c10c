// The command line on tables: `probe <table> --table …` answers per file with the table's metadata
// pruning first; `inspect <table> --table …` reports the snapshot and what the metadata can prune.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cp, rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import path from 'node:path'
import { describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { fixturePath, missingFixture, projectRoot } from './helpers/fixtures.js'
import { runCli } from './helpers/run-cli.js'
import { commitText, pad, writeDeltaFiles } from '../../testkit/delta-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'

const run = (...args) => promisify(execFile)(process.execPath, [`${projectRoot}/js/cli.js`, ...args], { encoding: 'utf8' })
const skip = missingFixture('tables')

describe('parquet-bloom on tables', { skip }, () => {
  test('probe --table delta --json: a value the table holds is never absent; one it lacks is ruled out by table stats', async () => {
    const { stdout } = await run('probe', fixturePath('tables/delta/dv-partitioned-with-checkpoint'), '--table', 'delta', '-c', 'col1', '-v', '28', '-v', '1000', '--json')
    const result = JSON.parse(stdout)
    assert.equal(result.files.length, 15)
    assert.ok(result.files.some((f) => f.values[0].verdict !== 'absent'))
    assert.ok(result.files.every((f) => f.values[1].verdict === 'absent'))
    assert.ok(result.files.filter((f) => f.values[1].source === 'table-stats').length >= 1)
  })

  test('inspect --table auto: snapshot, files and per-column pruning facts', async () => {
    const { stdout } = await run('inspect', fixturePath('tables/iceberg/spark_rename_column'), '--table', 'auto', '--json')
    const { table } = JSON.parse(stdout)
    assert.equal(table.format, 'iceberg')
    assert.equal(table.snapshot, '5276958600260276572')
    assert.equal(table.files, 3)
    assert.deepEqual(table.columns.find((c) => c.column === 'id').partitions, ['bucket[4]'])
    assert.deepEqual(table.columns.find((c) => c.column === 'event_date').partitions, ['identity'])
  })

  test('--snapshot without --table is a usage error', async () => {
    await assert.rejects(run('inspect', fixturePath('tables/iceberg/spark_rename_column'), '--snapshot', '1'), (e) => e.code === 1 || e.code === 64 || e.code > 0)
  })
})

describe('probe --table: a column the table does not have', async () => {
  const dir = await tempDir('table-cli')
  // One file holding `a`; the schema also has `b`, added after the file was written (no file holds it).
  const parquet = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'a', data: [1n, 2n, 3n], type: 'INT64' }] }))
  const schema = { type: 'struct', fields: [{ name: 'a', type: 'long', nullable: true, metadata: {} },
    { name: 'b', type: 'long', nullable: true, metadata: {} }] }
  const root = await writeDeltaFiles(path.join(dir, 'added-column'), { [`${pad(0)}.json`]: commitText([
    { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
    { metaData: { id: 't', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [],
      configuration: {} } },
    { add: { path: 'f.parquet', partitionValues: {}, size: parquet.length, modificationTime: 0, dataChange: true } },
  ]) }, { 'f.parquet': parquet })

  test('a name in no schema nor file (a typo) exits 2 with one line naming the columns, as a dataset probe does', async () => {
    const r = await runCli(['probe', root, '--table', 'delta', '-c', 'aa', '-v', '1'])
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stderr, `parquet-bloom: ${root}: "aa" is no column of the table; its columns: a, b\n`)
  })

  test('a column the schema gained after every file was written is an answer (unknown), not a mistake', async () => {
    const r = await runCli(['probe', root, '--table', 'delta', '-c', 'b', '-v', '1'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /f\.parquet {2}1: unknown \(column-missing\)/)
  })

  test('the typo exits 2 on the fixtures too (Delta and Iceberg); a file leaf no schema field names still probes', async () => {
    for (const t of ['delta/dv-partitioned-with-checkpoint', 'iceberg/spark_rename_column']) {
      if (missingFixture(`tables/${t}`)) continue
      const r = await runCli(['probe', fixturePath(`tables/${t}`), '--table', 'auto', '-c', 'nosuch', '-v', '1', '--json'])
      assert.equal(r.code, 2, `${t}: ${r.stderr}`)
      assert.match(r.stderr, /^parquet-bloom: .*: "nosuch" is no column of the table; its columns: .*\n$/)
    }
    if (missingFixture('tables/delta/parquet-all-types')) return
    // A list's element is the files' own leaf: the schema names only `array_of_prims`.
    const leaf = await runCli(['probe', fixturePath('tables/delta/parquet-all-types'), '--table', 'auto', '-c',
      'array_of_prims.list.element', '-v', '1'])
    assert.equal(leaf.code, 0, leaf.stderr)
    assert.doesNotMatch(leaf.stdout, /column-missing/)
  })
})

const DV_TABLE = 'tables/delta/dv-partitioned-with-checkpoint'
describe('probe --table with an index built from the table\'s folder as plain files', { skip: missingFixture(DV_TABLE) }, async () => {
  const dir = await tempDir('table-cli-index')
  const root = path.join(dir, 'dv')
  await cp(fixturePath(DV_TABLE), root, { recursive: true })
  const values = Array.from({ length: 50 }, (_, v) => String(v)) // col1 is 0..49 over the table's 20 files, each value in one

  test('the index covers removed files too; the table asks it only of live ones: never absent where the file holds the value, ' +
    'present only for rows Spark\'s scan holds', async () => {
    const built = await runCli(['index', 'build', root, '-o', path.join(root, '_index.puffin'), '-c', 'col1', '--json'])
    assert.equal(built.code, 0, built.stderr)
    assert.equal(JSON.parse(built.stdout).files, 20) // 20 data files (live and removed); not the log's checkpoint
    const db = await duckdb()
    let holders, live, held
    try {
      // Every data file's own rows (deleted ones too), by file; the table's live files; Spark's scan of the table (SOURCES.md).
      holders = new Map((await db.rows(`SELECT filename, col1 FROM read_parquet(${quote(path.join(root, 'part=*/*.parquet'))},
        filename = true, hive_partitioning = false)`)).map((r) => [String(r.col1), path.relative(root, String(r.filename))]))
      held = new Set((await db.rows(`SELECT col1 FROM read_parquet(${quote(fixturePath('tables/expected/delta/' +
        'dv-partitioned-with-checkpoint/*.parquet'))})`)).map((r) => String(r.col1)))
    } finally {
      db.close()
    }
    const plain = await runCli(['probe', root, '--table', 'auto', '-c', 'col1', ...values.flatMap((v) => ['-v', v]), '--json'])
    live = new Set(JSON.parse(plain.stdout).files.map((f) => f.file))
    assert.equal(live.size, 15)
    for (const confirm of [[], ['--confirm']]) {
      const r = await runCli(['probe', root, '--table', 'auto', '--index', path.join(root, '_index.puffin'), '-c', 'col1',
        ...values.flatMap((v) => ['-v', v]), '--json', ...confirm])
      assert.equal(r.code, 0, r.stderr)
      const { files } = JSON.parse(r.stdout)
      assert.deepEqual(new Set(files.map((f) => f.file)), live, 'only the live files, none the index alone describes')
      assert.ok(files.every((f) => f.index?.described), 'the index describes every live file')
      // The index decided: the files have no bloom filter (parquet-mr wrote none), so its filters ruled these out.
      assert.ok(files.some((f) => f.values.some((v) => v.source === 'bloom-filter')))
      for (const f of files) {
        for (const [k, v] of f.values.entries()) {
          if (holders.get(values[k]) === f.file && !confirm.length) assert.notEqual(v.verdict, 'absent', `${f.file} ${values[k]}`)
          if (v.verdict === 'present') assert.ok(held.has(values[k]), `${f.file} ${values[k]}: present, but Spark's scan has no such row`)
        }
      }
      // Every value Spark's scan holds is in a live file the probe keeps.
      for (const v of held) assert.ok(files.some((f) => f.values[values.indexOf(v)].verdict !== 'absent'), v)
    }
  })
})

const goneDir = await tempDir('table-cli-gone')
test('probe --table, a live file gone: its stderr line is `parquet-bloom: <file>: <problem>`, the table\'s path of it first',
  { skip: missingFixture(DV_TABLE) }, async () => {
    const root = path.join(goneDir, 'dv')
    await cp(fixturePath(DV_TABLE), root, { recursive: true })
    const gone = 'part=1/part-00000-a1586fa1-50e8-4f06-858a-b43b2e83010b.c000.snappy.parquet' // live at the table's version
    await rm(path.join(root, gone))
    const r = await runCli(['probe', root, '--table', 'auto', '-c', 'col1', '-v', '11'])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, `parquet-bloom: ${gone}: ${path.join(root, gone)}: file not found\n`)
  })
