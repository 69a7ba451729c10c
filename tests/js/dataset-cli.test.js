// `parquet-bloom probe|inspect` on a dataset (a directory, a glob): one line per file, a summary per
// partition value, --json with the dataset's result, --where; inspect's coverage per column — checked
// against DuckDB's answers and DuckDB's own description of the files (parquet_metadata).
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { duckdb, filesHolding, quote, writeHiveDataset } from '../../testkit/hive-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { CLI_PATH, runCli, runNode } from './helpers/run-cli.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { tempDir } from '../../testkit/temp-dir.js'

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

const cli = (args) => runCli(args, { cwd: projectRoot })

const dir = await tempDir('dataset-cli')
let root
before(async () => {
  root = path.join(dir, 'hive')
  await writeHiveDataset(root, { days: 2, bloom: true })
})

/**
 * A Hive dataset whose schema evolved: k=1/a.parquet holds id 1; k=2/b.parquet id 2 and extra 'x' (written by DuckDB).
 * @param {string} name its folder under the test's
 */
async function evolvedDataset(name) {
  const evolved = path.join(dir, name)
  await mkdir(path.join(evolved, 'k=1'), { recursive: true })
  await mkdir(path.join(evolved, 'k=2'), { recursive: true })
  const db = await duckdb()
  try {
    await db.run(`COPY (SELECT 1 AS id) TO ${quote(path.join(evolved, 'k=1/a.parquet'))} (FORMAT parquet)`)
    await db.run(`COPY (SELECT 2 AS id, 'x' AS extra) TO ${quote(path.join(evolved, 'k=2/b.parquet'))} (FORMAT parquet)`)
  } finally {
    db.close()
  }
  return evolved
}

test('probe <dir>: a line per file, a summary per partition value, the totals; --json as DuckDB answers', async () => {
  const text = await cli(['probe', root, '--column', 'user_id', '--value', '1003', '--value', '7'])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /^day=2026-01-07\/country=FR\/data_0\.parquet {2}\[day=2026-01-07 country=FR\] {2}1003: maybe \(\w+\) {2}7: absent \(\w+\)$/m)
  assert.match(text.stdout, /^ {2}country=FR\s+1003: 1 of 2 files\s+7: 0 of 2 files$/m)
  assert.match(text.stdout, /^1003: maybe in 1 of 6 files; ruled out 5 by \w+/m)
  assert.match(text.stdout, /^6 files \(6 opened\), 6 requests, [\d.]+ KB read, 1 round, \d+ ms$/m)

  const json = await cli(['probe', path.join(root, '**/*.parquet'), '-c', 'user_id', '-v', '1003', '--confirm', '--json'])
  assert.equal(json.code, 0, json.stderr)
  const doc = JSON.parse(json.stdout)
  const truth = await filesHolding(root, 'user_id = 1003')
  assert.equal(doc.files.length, 6)
  for (const f of doc.files) assert.equal(f.values[0].verdict, truth.has(f.file) ? 'present' : 'absent', f.file)
  assert.equal(doc.totals.files, 6)
  assert.ok(doc.stats.requests >= 6)
})

test('probe <dir> past maxResults: streamed a file at a time (probeEach), the output as within it', async () => {
  // probe() of a dataset holds every answer, TOO_LARGE past maxResults; the CLI printed what it returned, so a big probe
  // exited 2 telling the user to use probeEach(). Here the limit is 1 (a preloaded hook): probe() refuses at once.
  const hook = pathToFileURL(path.join(projectRoot, 'tests/js/helpers/low-max-results.js')).href
  const refused = await runNode(['--import', hook, '--input-type=module', '-e', `import { openDataset } from
    ${JSON.stringify(pathToFileURL(path.join(projectRoot, 'js/index.js')).href)}
    const error = await (await openDataset(${JSON.stringify(root)})).probe('user_id', [1003]).then(() => null, (e) => e)
    console.log(error?.code)`])
  assert.equal(refused.stdout.trim(), 'TOO_LARGE', refused.stderr)
  const times = (/** @type {string} */ text) => text.replace(/\d+ ms/g, 'N ms').replace(/"(ms|rounds)":[\d.]+/g, '"$1":N')
  const truth = await filesHolding(root, 'user_id = 1003')
  for (const json of [[], ['--json']]) {
    const args = ['probe', root, '-c', 'user_id', '-v', '1003', '-v', '7', ...json]
    const low = await runNode(['--import', hook, CLI_PATH, ...args], { cwd: projectRoot })
    const within = await cli(args)
    assert.equal(low.code, 0, low.stderr)
    assert.equal(within.code, 0, within.stderr)
    assert.equal(times(low.stdout), times(within.stdout))
    assert.equal(low.stderr, within.stderr)
    if (json.length) {
      const doc = JSON.parse(low.stdout)
      assert.equal(doc.files.length, 6)
      for (const f of doc.files) if (truth.has(f.file)) assert.notEqual(f.values[0].verdict, 'absent', f.file)
      assert.equal(doc.totals.files, 6)
      assert.equal(doc.totals.rowGroups, doc.files.reduce((n, f) => n + f.rowGroups.length, 0))
    } else {
      assert.match(low.stdout, new RegExp(`^1003: maybe in ${truth.size} of 6 files`, 'm'))
    }
  }
})

test('probe --where and a partition column: files skipped before any read', async () => {
  const where = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--where', 'country=FR', '--where', 'country=DE', '--json'])
  assert.equal(where.code, 0, where.stderr)
  const doc = JSON.parse(where.stdout)
  assert.equal(doc.stats.filesOpened, 4)
  assert.ok(doc.files.filter((f) => f.partitions.country === 'US').every((f) => f.skipped === 'where'))
  const partition = await cli(['probe', root, '-c', 'day', '-v', '2026-01-08'])
  assert.equal(partition.code, 0, partition.stderr)
  assert.match(partition.stdout, /^6 files \(0 opened\), 0 requests, 0 B read, 0 rounds, \d+ ms$/m)
})

test('a dataset without files is an error (exit 2), not an empty answer', async () => {
  const empty = path.join(dir, 'empty')
  await mkdir(path.join(empty, 'day=2026-01-07'), { recursive: true })
  const r = await cli(['probe', empty, '-c', 'user_id', '-v', '1'])
  assert.equal(r.code, 2)
  assert.match(r.stderr, /^parquet-bloom: .*empty: no Parquet files there/m)
})

test('inspect <dir>: per column, the share of files and row groups with each index, as DuckDB describes them', async () => {
  const r = await cli(['inspect', root, '--json'])
  assert.equal(r.code, 0, r.stderr)
  const report = JSON.parse(r.stdout)
  assert.equal(report.files, 6)
  const db = await duckdb()
  try {
    const chunks = await db.rows(`SELECT path_in_schema AS col, count(*)::INTEGER AS n, count(bloom_filter_offset)::INTEGER AS bloom, count(stats_min_value)::INTEGER AS stats
      FROM parquet_metadata(${quote(path.join(root, '**/*.parquet'))}) GROUP BY path_in_schema`)
    for (const c of chunks) {
      const column = report.columns.find((x) => x.column === c.col)
      assert.equal(column.rowGroups, c.n)
      assert.equal(column.bloomFilter.rowGroups, c.bloom, `${c.col} bloom filters`)
      assert.equal(column.statistics.rowGroups, c.stats, `${c.col} statistics`)
    }
  } finally {
    db.close()
  }
  const text = await cli(['inspect', root])
  assert.match(text.stdout, /^ {2}user_id\s+INT64\s+6\s+100% \(6\/6\)/m)
})

test('several files named on the command line go out as one wave (one request window), answered file by file in their order', async () => {
  const server = await startTestServer({ root })
  try {
    const paths = (await filesHolding(root, 'true')).keys()
    const urls = [...paths].sort().reverse().map((p) => server.url(p))
    server.setMode('slow:30')
    const r = await cli(['probe', ...urls, '-c', 'user_id', '-v', '1003', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.files.map((f) => f.file), urls, 'the order given')
    assert.equal(server.stats.maxInFlight, urls.length, 'every footer in one wave')
    const truth = await filesHolding(root, 'user_id = 1003')
    for (const [i, f] of doc.files.entries()) {
      const holds = [...truth.keys()].some((p) => urls[i].endsWith(p))
      if (holds) assert.notEqual(f.rowGroups[0].results[0].verdict, 'absent', urls[i])
      assert.equal(f.stats.requests, server.stats.paths[new URL(urls[i]).pathname].requests)
    }
  } finally {
    await server.close()
  }
})

test('probe <dir> --confirm --columns: each row\'s values printed, as DuckDB reads them (the JSON had them, the text not)', async () => {
  const r = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--confirm', '--columns', 'name'])
  assert.equal(r.code, 0, r.stderr)
  const db = await duckdb()
  try {
    const [row] = await db.rows(`SELECT name FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}) WHERE user_id = 1003`)
    assert.match(r.stdout, new RegExp(`^ {4}row \\d+: \\{"name":"${row.name}"\\}$`, 'm'))
  } finally {
    db.close()
  }
})

test('probe <dir> -c <a column no file has>: exit 2 with a line saying so, not exit 0 with unknown everywhere', async () => {
  const r = await cli(['probe', root, '-c', 'user_idd', '-v', '1003'])
  assert.equal(r.code, 2, 'a typo in the column is a mistake, as for one file')
  assert.match(r.stderr, /^parquet-bloom: .*hive: no file read has column "user_idd"$/m)
  assert.doesNotMatch(r.stdout, /: absent/)
  const where = await cli(['probe', root, '-c', 'user_idd', '-v', '1003', '--where', 'country=FR'])
  assert.equal(where.code, 2, 'the files --where skipped do not hide it')
  // A column only some files have (schema evolution) is an answer: DuckDB's union_by_name reads it.
  const evolved = await evolvedDataset('evolved')
  const some = await cli(['probe', evolved, '-c', 'extra', '-v', 'x'])
  assert.equal(some.code, 0, some.stderr)
  const truth = await filesHolding(evolved, `extra = 'x'`, { unionByName: true })
  assert.deepEqual([...truth.keys()], ['k=2/b.parquet'])
  assert.match(some.stdout, /^k=2\/b\.parquet {2}\[k=2\] {2}x: (maybe|present) /m)
})

test('probe <dir> -c <a column only files --where skipped have>: not a typo (DuckDB\'s union_by_name has it)', async () => {
  // k=2's file has extra, k=1's not; --where k=1 opens only k=1's. It said "no file read has column" (exit 2).
  const evolved = await evolvedDataset('skipped-extra')
  const db = await duckdb()
  let truth
  try {
    const from = `read_parquet(${quote(path.join(evolved, '**/*.parquet'))}, union_by_name = true, hive_partitioning = true)`
    truth = await db.rows(`SELECT count(*)::INT AS n FROM ${from} WHERE k = 1 AND extra = 'x'`)
    await assert.rejects(db.rows(`SELECT count(*) FROM ${from} WHERE k = 1 AND extraa = 'x'`))
  } finally {
    db.close()
  }
  assert.deepEqual(truth, [{ n: 0 }])
  const r = await cli(['probe', evolved, '-c', 'extra', '-v', 'x', '--where', 'k=1'])
  assert.equal(r.code, 0, r.stderr)
  assert.doesNotMatch(r.stderr, /no file read has column/)
  assert.match(r.stdout, /^k=1\/a\.parquet {2}\[k=1\] {2}x: unknown /m)
  const typo = await cli(['probe', evolved, '-c', 'extraa', '-v', 'x', '--where', 'k=1'])
  assert.equal(typo.code, 2, typo.stderr)
  assert.match(typo.stderr, /no file read has column "extraa"$/m)
  // --columns by the same rule: a name no file has is a typo with --where too (it was let through), one k=2 has is not.
  const lookups = await cli(['probe', evolved, '-c', 'id', '-v', '1', '--where', 'k=1', '--confirm', '--columns', 'extraa'])
  assert.equal(lookups.code, 2, lookups.stderr)
  assert.match(lookups.stderr, /no file read has --columns column "extraa"$/m)
  const known = await cli(['probe', evolved, '-c', 'id', '-v', '1', '--where', 'k=1', '--confirm', '--columns', 'extra'])
  assert.equal(known.code, 0, known.stderr)
})

test('probe <dir> --confirm --columns <a column no file has>: exit 2 with a line saying so, not nulls in every row', async () => {
  const typo = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--confirm', '--columns', 'nmae,name'])
  assert.equal(typo.code, 2, typo.stderr)
  assert.match(typo.stderr, /^parquet-bloom: .*hive: no file read has --columns column "nmae"$/m)
  // DuckDB refuses the name too; a name the files have is read, and exits 0.
  const db = await duckdb()
  try {
    await assert.rejects(db.rows(`SELECT nmae FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}) WHERE user_id = 1003`))
  } finally {
    db.close()
  }
  const right = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--confirm', '--columns', 'name'])
  assert.equal(right.code, 0, right.stderr)
})

test('probe <dir> --confirm --columns <a column only files settled unread have>: not a typo, null in the rows (DuckDB\'s)', async () => {
  // k=2's file has extra, k=1's not; --where k=1 leaves k=2 unread, where DuckDB's union_by_name still finds extra.
  const evolved = await evolvedDataset('unread-extra')
  const db = await duckdb()
  let truth
  try {
    truth = await db.rows(`SELECT extra FROM read_parquet(${quote(path.join(evolved, '**/*.parquet'))}, union_by_name = true,
      hive_partitioning = true) WHERE k = 1 AND id = 1`)
  } finally {
    db.close()
  }
  assert.deepEqual(truth, [{ extra: null }])
  const r = await cli(['probe', evolved, '-c', 'id', '-v', '1', '--where', 'k=1', '--confirm', '--columns', 'extra'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^ {4}row 0: \{"extra":null\}$/m)
  // Every file opened and none has it: a typo still.
  const typo = await cli(['probe', evolved, '-c', 'id', '-v', '1', '--confirm', '--columns', 'extrx'])
  assert.equal(typo.code, 2, typo.stderr)
})

test('probe <dir> --confirm --columns <a partition key>: its folder\'s value in each row (DuckDB\'s), exit 0, not a typo', async () => {
  const db = await duckdb()
  let truth
  try {
    truth = await db.rows(`SELECT country FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}, hive_partitioning = true)
      WHERE user_id = 1003`)
  } finally {
    db.close()
  }
  assert.ok(truth.length > 0)
  const run = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--confirm', '--columns', 'country'])
  assert.equal(run.code, 0, run.stderr)
  const printed = [...run.stdout.matchAll(/row \d+: (\{.*\})$/gm)].map((m) => JSON.parse(m[1]).country)
  assert.deepEqual(printed.sort(), truth.map((r) => r.country).sort())
})

test('probe <files> --where: a usage error (exit 2), not a filter silently ignored', async () => {
  const files = [...(await filesHolding(root, 'true')).keys()].map((p) => path.join(root, p))
  for (const named of [files.slice(0, 1), files.slice(0, 2)]) {
    const r = await cli(['probe', ...named, '-c', 'user_id', '-v', '1003', '--where', 'country=XX'])
    assert.equal(r.code, 2, r.stdout)
    assert.match(r.stderr, /^parquet-bloom: --where filters a dataset's partitions/m)
  }
})

test('probe <dir> --where <a value no partition holds>: exit 0 (DuckDB finds none either), a warning naming the values', async () => {
  const r = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--where', 'country=fr'])
  assert.equal(r.code, 0, r.stderr)
  assert.equal((await filesHolding(root, `country = 'fr'`)).size, 0)
  assert.match(r.stderr, /^parquet-bloom: warning: --where matches no file of .* \(values country: DE, FR, US\)$/m)
  const some = await cli(['probe', root, '-c', 'user_id', '-v', '1003', '--where', 'country=FR'])
  assert.equal(some.stderr, '')
})

const DV_TABLE = 'tables/delta/dv-partitioned-with-checkpoint'
test('probe <a Delta table\'s root> without --table: a usage error, not its removed files and deleted rows answered present',
  { skip: missingFixture(DV_TABLE) }, async () => {
    const db = await duckdb()
    let held
    try { // Spark's scan of the table (SOURCES.md): col1 0 and 10 are deleted, 30 is held
      const expected = fixturePath('tables/expected/delta/dv-partitioned-with-checkpoint/*.parquet')
      held = new Set((await db.rows(`SELECT col1 FROM read_parquet(${quote(expected)})`)).map((r) => Number(r.col1)))
    } finally {
      db.close()
    }
    assert.deepEqual([0, 10, 30].map((v) => held.has(v)), [false, false, true])
    const plain = await cli(['probe', fixturePath(DV_TABLE), '-c', 'col1', '-v', '0', '-v', '10', '--confirm'])
    assert.equal(plain.code, 2, plain.stdout)
    assert.match(plain.stderr, /is the root of a Delta table: --table auto reads it as the table/)
    const table = await cli(['probe', fixturePath(DV_TABLE), '--table', 'auto', '-c', 'col1', '-v', '0', '-v', '10', '-v', '30',
      '--confirm', '--json'])
    assert.equal(table.code, 0, table.stderr)
    const files = JSON.parse(table.stdout).files
    for (const [k, v] of [0, 10, 30].entries()) {
      assert.equal(files.some((f) => f.values[k].verdict === 'present'), held.has(v), String(v))
    }
  })

test('probe <a table\'s root>/**/*.parquet: DuckDB\'s glob files, its _delta_log checkpoint too, never present there; one warning says so',
  { skip: missingFixture(DV_TABLE) }, async () => {
    const root = fixturePath(DV_TABLE)
    const db = await duckdb()
    const glob = quote(path.join(root, '**/*.parquet'))
    const relative = (file) => path.relative(root, String(file)).split(path.sep).join('/')
    let globbed, held
    try {
      globbed = (await db.rows(`SELECT file FROM glob(${glob})`)).map((r) => relative(r.file)).sort()
      // The files' rows as DuckDB reads the glob (the checkpoint has no col1: null there), deleted rows too.
      held = new Set((await db.rows(`SELECT DISTINCT filename FROM read_parquet(${glob}, filename = true, union_by_name = true,
        hive_partitioning = false) WHERE col1 = 10`)).map((r) => relative(r.filename)))
    } finally {
      db.close()
    }
    assert.ok(globbed.includes('_delta_log/00000000000000000010.checkpoint.parquet'), 'DuckDB\'s glob matches the checkpoint')
    assert.equal(held.size, 1) // the files as files: deleted rows too
    const r = await cli(['probe', path.join(root, '**/*.parquet'), '-c', 'col1', '-v', '10', '--confirm', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const files = JSON.parse(r.stdout).files
    assert.deepEqual(files.map((f) => f.file).sort(), globbed)
    for (const f of files) {
      assert.equal(f.values[0].verdict, held.has(f.file) ? 'present' : f.file.startsWith('_') ? 'unknown' : 'absent', f.file)
    }
    assert.equal(r.stderr, `parquet-bloom: warning: ${path.join(root, '**/*.parquet')} matches 1 file in writers' bookkeeping folders ` +
      '(_delta_log), probed as data; a table\'s folder with --table auto reads the table\n')
    const data = await cli(['probe', path.join(root, 'part=*/*.parquet'), '-c', 'col1', '-v', '10'])
    assert.equal(data.code, 0, data.stderr)
    assert.equal(data.stderr, '')
  })
