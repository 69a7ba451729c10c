// openDataset(): many files probed as one, checked against DuckDB's own answers over the same Hive
// datasets (read_parquet(…, hive_partitioning = true)): no file that holds a value is ever ruled out, a
// confirmed answer names exactly the files and rows DuckDB finds, partitions decide without reads, and
// over HTTP the rounds stay constant in the number of files (counted at the server).
import assert from 'node:assert/strict'
import { copyFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { createFooterCache, mergeShardResults, openDataset, REASONS, Source } from '../../js/index.js'
import { duckdb, filesHolding, quote, writeHiveDataset } from '../../testkit/hive-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { parseHivePartitions, partitionMayEqual } from '../../js/dataset/hive.js'

const dir = await tempDir('dataset')

const PROBED = [1003, 1004, 42, 8000, 8897, 999999, -1]

/** Asserts a dataset answer against DuckDB's: never absent where DuckDB finds rows; with confirm, exact. */
async function assertAgainstDuckdb(root, result, column, values, { confirmed = false, unionByName = false } = {}) {
  for (const [k, value] of values.entries()) {
    const truth = await filesHolding(root, `${column} = ${typeof value === 'string' ? quote(value) : value}`, { unionByName })
    for (const file of result.files) {
      const answer = file.values[k]
      assert.equal(answer.value, value)
      const rows = truth.get(file.path) ?? 0
      if (rows > 0) assert.notEqual(answer.verdict, 'absent', `${file.path}: ${value} is in ${rows} rows, answered ${JSON.stringify(answer)}`)
      if (confirmed && !file.error && answer.reason !== 'column-missing') {
        assert.equal(answer.verdict, rows > 0 ? 'present' : 'absent', `${file.path}: ${value}: ${rows} rows, answered ${answer.verdict} (${answer.reason})`)
        if (rows > 0) assert.equal(answer.rows.length, rows)
      }
    }
  }
}

describe('a Hive dataset written by DuckDB', () => {
  let root
  before(async () => {
    root = path.join(dir, 'hive')
    await writeHiveDataset(root, { days: 3 })
  })

  test('lists every file in path order with the partitions and types DuckDB infers', async () => {
    const dataset = await openDataset(root)
    const db = await duckdb()
    try {
      const files = await db.rows(`SELECT DISTINCT filename, day::VARCHAR AS day, country FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}, hive_partitioning = true, filename = true)`)
      const expected = files.map((f) => ({ path: path.relative(root, String(f.filename)), day: f.day, country: f.country })).sort((a, b) => (a.path < b.path ? -1 : 1))
      assert.deepEqual(dataset.files.map((f) => ({ path: f.path, ...f.partitions })), expected)
      const types = await db.rows(`DESCRIBE SELECT day, country FROM read_parquet(${quote(path.join(root, '**/*.parquet'))}, hive_partitioning = true)`)
      assert.deepEqual(dataset.partitionTypes, Object.fromEntries(types.map((t) => [t.column_name, t.column_type])))
    } finally {
      db.close()
    }
    for (const f of dataset.files) assert.ok(f.size > 0)
    // A glob, bookkeeping files and symbolic links (a loop back to the root is not followed).
    await writeFile(path.join(root, '_SUCCESS'), '')
    await symlink(root, path.join(root, 'day=2026-01-07', 'loop'))
    try {
      assert.deepEqual((await openDataset(root)).files.map((f) => f.path), dataset.files.map((f) => f.path))
      const fr = await openDataset(path.join(root, '*/country={FR,DE}/*.parquet'))
      assert.deepEqual(fr.files.map((f) => f.path), dataset.files.filter((f) => f.partitions.country !== 'US').map((f) => f.path))
    } finally {
      await rm(path.join(root, '_SUCCESS'))
      await rm(path.join(root, 'day=2026-01-07', 'loop'))
    }
  })

  test('probe: no false negative against DuckDB; confirm: exactly DuckDB\'s files and rows', async () => {
    const dataset = await openDataset(root)
    const plain = await dataset.probe('user_id', PROBED)
    await assertAgainstDuckdb(root, plain, 'user_id', PROBED)
    assert.equal(plain.totals.files, 9)
    const confirmed = await dataset.probe('user_id', PROBED, { confirm: true })
    await assertAgainstDuckdb(root, confirmed, 'user_id', PROBED, { confirmed: true })
    for (const file of confirmed.files) assert.equal(file.error, null)
    // columns: the matching rows' other values, per file (names are 'name' || (f * 1000 + i) for user_id f * 1000 + i * 3).
    const looked = await dataset.probe('user_id', [1003], { confirm: true, columns: ['name'] })
    const holder = looked.files.find((f) => f.values[0].verdict === 'present')
    const row = holder.rowGroups.flatMap((g) => g.results[0].values ?? [])
    assert.deepEqual(row, [{ name: 'name1001' }])
    // The file's answer carries them too, parallel to its rows.
    assert.deepEqual([holder.values[0].rows.length, holder.values[0].values], [1, [{ name: 'name1001' }]])
  })

  test('a partition column is answered from paths alone: 0 requests, DuckDB\'s files', async () => {
    const dataset = await openDataset(root)
    for (const [column, values] of [['country', ['FR', 'XX']], ['day', ['2026-01-08', new Date(Date.UTC(2026, 0, 9))]]]) {
      const result = await dataset.probe(column, values)
      assert.equal(result.stats.requests, 0)
      assert.equal(result.stats.filesOpened, 0)
      for (const [k, value] of values.entries()) {
        const literal = value instanceof Date ? `DATE '${value.toISOString().slice(0, 10)}'` : quote(value)
        const truth = await filesHolding(root, `${column} = ${literal}`)
        for (const file of result.files) {
          assert.equal(file.values[k].source, Source.PARTITION)
          assert.equal(file.values[k].verdict, truth.has(file.path) ? 'maybe' : 'absent', `${file.path} ${column}=${value}`)
        }
      }
    }
  })

  test('where (equality and IN) skips files before any read; what is left answers as DuckDB', async () => {
    const dataset = await openDataset(root)
    const result = await dataset.probe('user_id', [1003, 4003], { where: { country: ['FR', 'DE'], day: '2026-01-07' }, confirm: true })
    const opened = result.files.filter((f) => !f.skipped)
    assert.deepEqual(opened.map((f) => f.path), ['day=2026-01-07/country=DE/data_0.parquet', 'day=2026-01-07/country=FR/data_0.parquet'])
    assert.equal(result.stats.filesOpened, 2)
    const truth = await filesHolding(root, "user_id = 1003 AND country IN ('FR', 'DE') AND day = DATE '2026-01-07'")
    for (const file of result.files) {
      assert.equal(file.values[0].verdict, truth.has(file.path) ? 'present' : 'absent', file.path)
      if (file.skipped) assert.equal(file.values[0].reason, 'outside-where')
    }
    await assert.rejects(dataset.probe('user_id', [1], { where: { user_id: 1 } }), { code: 'INVALID_ARGUMENT' })
  })

  test('probeEach streams every file once; onProgress counts them; shards split the files', async () => {
    const dataset = await openDataset(root)
    const seen = []
    const progress = []
    for await (const file of dataset.probeEach('user_id', [42], { onProgress: (p) => progress.push(p) })) seen.push(file.path)
    assert.deepEqual([...seen].sort(), dataset.files.map((f) => f.path))
    assert.equal(progress.length, 9)
    assert.deepEqual(progress.at(-1).filesDone, 9)
    // Leaving the loop early stops the files still in flight; the dataset stays usable.
    let taken = 0
    for await (const file of dataset.probeEach('user_id', [42], { fileConcurrency: 1 })) {
      assert.ok(file.path)
      if (++taken === 2) break
    }
    assert.equal((await dataset.probe('user_id', [42])).files.length, 9)
    const shards = await Promise.all([0, 1, 2].map((index) => dataset.probe('user_id', [42], { shard: { index, count: 3 } })))
    const union = shards.flatMap((s) => s.files.map((f) => f.path)).sort()
    assert.deepEqual(union, dataset.files.map((f) => f.path))
    const merged = await mergeShardResults(shards)
    const whole = await dataset.probe('user_id', [42])
    assert.deepEqual(merged.files.map((f) => [f.path, f.values[0].verdict]), whole.files.map((f) => [f.path, f.values[0].verdict]))
    assert.deepEqual(merged.totals, whole.totals)
    assert.equal(merged.stats.requests, whole.stats.requests)
  })

  test('a prefilter rules files out before any read: those are never opened', async () => {
    const calls = []
    const dataset = await openDataset(root, {
      prefilter: (file, column, values) => {
        calls.push(file.path)
        return file.partitions.country === 'US' ? values.map(() => ({ verdict: 'absent', source: Source.TABLE_PARTITION, reason: 'partition-mismatch', detail: 'the table says so' })) : null
      },
    })
    const result = await dataset.probe('user_id', [2003])
    assert.equal(calls.length, 9)
    assert.equal(result.stats.filesOpened, 6)
    for (const file of result.files.filter((f) => f.partitions.country === 'US')) {
      assert.deepEqual(file.rowGroups, [])
      assert.equal(file.values[0].source, 'table-partition')
    }
    assert.equal(result.totals.ruledOut['table-partition'].files, 3)
  })

  test('a prefilter\'s maybe decides without a read; an absent from the probe\'s own prefilter wins over it', async () => {
    const maybe = (values) => values.map(() => ({ verdict: 'maybe', source: Source.TABLE_PARTITION, reason: 'partition-match', detail: 'the table says so' }))
    const dataset = await openDataset(root, { prefilter: (file, column, values) => maybe(values) })
    const result = await dataset.probe('user_id', [2003])
    assert.equal(result.stats.filesOpened, 0)
    assert.ok(result.files.every((f) => f.values[0].verdict === 'maybe' && f.values[0].reason === 'partition-match'))
    const ruled = await dataset.probe('user_id', [2003], { prefilter: (file, column, values) => (file.partitions.country === 'US' ? values.map(() => ({ verdict: 'absent', source: Source.TABLE_PARTITION, reason: 'partition-mismatch', detail: 'no' })) : null) })
    for (const f of ruled.files) assert.equal(f.values[0].verdict, f.partitions.country === 'US' ? 'absent' : 'maybe')
  })

  test('confirm shares one maxConfirmBytes over the whole dataset', async () => {
    const dataset = await openDataset(root)
    const everywhere = Array.from({ length: 9 }, (_, f) => f * 1000 + 3)
    const full = await dataset.probe('user_id', everywhere, { confirm: true, fileConcurrency: 1 })
    const perFile = full.files.map((f) => f.stats.bytesFetched)
    assert.ok(full.files.every((f) => f.values.some((v) => v.verdict === 'present')))
    // A budget that covers about two files' pages: the others keep their index verdict, reason confirm-budget.
    const small = await dataset.probe('user_id', everywhere, { confirm: true, fileConcurrency: 1, maxConfirmBytes: 2 * Math.max(...full.files.map((f) => f.rowGroups[0].numRows)) * 8 })
    const confirmed = small.files.filter((f) => f.values.some((v) => v.source === 'data-pages')).length
    const refused = small.files.filter((f) => f.rowGroups.some((g) => g.results.some((r) => r.reason === 'confirm-budget'))).length
    assert.ok(confirmed >= 1 && confirmed < 9, `${confirmed} files confirmed`)
    assert.equal(confirmed + refused, 9)
    assert.ok(perFile.length === 9)
  })

  test('signal aborts the whole probe with ABORTED', async () => {
    const dataset = await openDataset(root)
    const controller = new AbortController()
    controller.abort()
    await assert.rejects(dataset.probe('user_id', [1], { signal: controller.signal }), { code: 'ABORTED' })
    const later = new AbortController()
    const run = dataset.probe('user_id', [1], { signal: later.signal, fileConcurrency: 1, onProgress: () => later.abort() })
    await assert.rejects(run, { code: 'ABORTED' })
  })

  test('descriptors\' partitions serve where, but never answer a probe of a same-named column', async () => {
    const local = await openDataset(root)
    // As a table might describe a bucket transform named like its column: user_id = bucket number.
    const dataset = await openDataset(local.files.map((f, i) => ({ path: f.path, location: path.join(root, f.path), partitions: { ...f.partitions, user_id: i % 4 } })))
    const result = await dataset.probe('user_id', [1003])
    const truth = await filesHolding(root, 'user_id = 1003')
    for (const file of result.files) if (truth.has(file.path)) assert.notEqual(file.values[0].verdict, 'absent', file.path)
    assert.equal(result.stats.filesOpened, 9)
    const where = await dataset.probe('user_id', [1003], { where: { country: 'FR' } })
    assert.equal(where.stats.filesOpened, 3)
  })

  test('limit stops once N rows are found; the files left are marked, never dropped', async () => {
    const dataset = await openDataset(root)
    const result = await dataset.probe('user_id', [42], { confirm: true, limit: 1, fileConcurrency: 1 })
    assert.equal(result.files.length, 9)
    assert.equal(result.files[0].values[0].verdict, 'present')
    assert.ok(result.files.slice(1).every((f) => f.skipped === 'limit' && f.values[0].reason === 'limit-reached'))
    await assert.rejects(dataset.probe('user_id', [42], { limit: 1 }), { code: 'INVALID_ARGUMENT' })
  })
})

describe('a mixed dataset: bloom filters or not, a corrupt file, an evolved schema', () => {
  let root
  let readable
  before(async () => {
    root = path.join(dir, 'mixed')
    readable = path.join(dir, 'mixed-readable')
    await writeHiveDataset(path.join(dir, 'mixed-a'), { days: 1, countries: ['FR'], bloom: true })
    await writeHiveDataset(path.join(dir, 'mixed-b'), { days: 1, countries: ['DE'], bloom: false })
    await mkdir(path.join(root, 'day=2026-01-07/country=FR'), { recursive: true })
    await mkdir(path.join(root, 'day=2026-01-07/country=DE'), { recursive: true })
    await copyFile(path.join(dir, 'mixed-a/day=2026-01-07/country=FR/data_0.parquet'), path.join(root, 'day=2026-01-07/country=FR/data_0.parquet'))
    await copyFile(path.join(dir, 'mixed-b/day=2026-01-07/country=DE/data_0.parquet'), path.join(root, 'day=2026-01-07/country=DE/data_0.parquet'))
    const db = await duckdb()
    try {
      // The same column as INT32 in a later file, and a file written before the column existed.
      await mkdir(path.join(root, 'day=2026-01-08/country=FR'), { recursive: true })
      await db.run(`COPY (SELECT (5000 + i * 3)::INTEGER AS user_id, 'n' || i AS name FROM range(300) t(i))
        TO ${quote(path.join(root, 'day=2026-01-08/country=FR/data_0.parquet'))} (FORMAT parquet)`)
      await mkdir(path.join(root, 'day=2026-01-08/country=DE'), { recursive: true })
      await db.run(`COPY (SELECT 'n' || i AS name FROM range(10) t(i)) TO ${quote(path.join(root, 'day=2026-01-08/country=DE/data_0.parquet'))} (FORMAT parquet)`)
    } finally {
      db.close()
    }
    // DuckDB's truth comes from the readable files (the corrupt one would fail its whole query).
    for (const f of (await openDataset(root)).files) {
      await mkdir(path.dirname(path.join(readable, f.path)), { recursive: true })
      await copyFile(path.join(root, f.path), path.join(readable, f.path))
    }
    await mkdir(path.join(root, 'day=2026-01-09/country=FR'), { recursive: true })
    await writeFile(path.join(root, 'day=2026-01-09/country=FR/data_0.parquet'), 'PAR1 this is not a parquet file PAR1')
  })

  test('the corrupt file is its typed error, the schema changes answer per file, the others as DuckDB', async () => {
    const dataset = await openDataset(root)
    const values = [3, 1003, 5003, 5004, 77]
    const result = await dataset.probe('user_id', values, { confirm: true })
    assert.equal(result.files.length, 5)
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f]))
    const corrupt = byPath['day=2026-01-09/country=FR/data_0.parquet']
    assert.equal(corrupt.error.code, 'MALFORMED_FOOTER')
    assert.ok(corrupt.values.every((v) => v.verdict === 'unknown' && v.reason === 'file-error'))
    const missing = byPath['day=2026-01-08/country=DE/data_0.parquet']
    assert.equal(missing.error, null)
    assert.ok(missing.values.every((v) => v.verdict === 'unknown' && v.reason === 'column-missing'))
    assert.equal(byPath['day=2026-01-08/country=FR/data_0.parquet'].physicalType, 'INT32')
    assert.equal(result.totals.filesWithError, 1)
    await assertAgainstDuckdb(readable, { files: result.files.filter((f) => !f.error) }, 'user_id', values, { confirmed: true, unionByName: true })
  })

  test('without confirm and without statistics (bloom filters, dictionaries): still no false negative', async () => {
    const dataset = await openDataset(root)
    const values = [3, 1003, 5003, 5004, 77, 6000]
    for (const options of [{ statistics: false }, { statistics: false, dictionary: false }, { mode: 'block' }]) {
      const result = await dataset.probe('user_id', values, options)
      await assertAgainstDuckdb(readable, { files: result.files.filter((f) => !f.error) }, 'user_id', values, { unionByName: true })
      const bloomFile = result.files.find((f) => f.path === 'day=2026-01-07/country=FR/data_0.parquet')
      if (options.dictionary === false) assert.ok(bloomFile.values.some((v) => v.verdict === 'absent' && v.source === 'bloom-filter'), JSON.stringify(bloomFile.values))
    }
  })

  test('without confirm: still no false negative, and errors count as could-not-rule-out', async () => {
    const result = await (await openDataset(root)).probe('user_id', [5003, 1003])
    assert.equal(result.totals.verdicts.absent + result.totals.verdicts.maybe + result.totals.verdicts.present + result.totals.verdicts.unknown, 10)
    const int32 = result.files.find((f) => f.path === 'day=2026-01-08/country=FR/data_0.parquet')
    assert.notEqual(int32.values[0].verdict, 'absent')
    assert.equal(int32.values[1].verdict, 'absent')
  })
})

describe('over HTTP: one plan across files', () => {
  const FILES = 100
  let root
  let server
  before(async () => {
    root = path.join(dir, 'http')
    await writeHiveDataset(root, { days: FILES / 4, countries: ['DE', 'FR', 'NL', 'US'], rowsPerFile: 2000, bloom: true })
    server = await startTestServer({ root })
  })
  after(async () => {
    await server?.close()
  })

  test(`${FILES} files at 30 ms per response: footers in one wave, index reads in one more; a cached second probe takes one round`, async (t) => {
    const local = await openDataset(root)
    const urls = local.files.map((f) => ({ path: f.path, location: server.url(f.path) }))
    const footerCache = createFooterCache()
    const dataset = await openDataset(urls, { footerCache })
    server.setMode('slow:30', 'etag')
    try {
      server.resetStats()
      const first = await dataset.probe('user_id', [4003])
      t.diagnostic(`first: ${first.stats.rounds} rounds, ${first.stats.requests} requests, ${(first.stats.bytes / 1000).toFixed(1)} KB, ${first.stats.ms.toFixed(0)} ms`)
      assert.equal(server.stats.requests, first.stats.requests)
      assert.equal(server.stats.bytesWritten, first.stats.bytes)
      assert.ok(first.stats.rounds <= 3, `${first.stats.rounds} rounds`)
      assert.ok(server.stats.maxInFlight <= first.stats.window)
      const holding = [...(await filesHolding(root, 'user_id = 4003')).keys()]
      for (const file of first.files) if (holding.includes(file.path)) assert.notEqual(file.values[0].verdict, 'absent', file.path)
      server.resetStats()
      const second = await dataset.probe('user_id', [4003])
      t.diagnostic(`cached: ${second.stats.rounds} rounds, ${second.stats.requests} requests, ${(second.stats.bytes / 1000).toFixed(1)} KB, ${second.stats.ms.toFixed(0)} ms`)
      assert.equal(second.stats.footersFromCache, FILES)
      assert.equal(second.stats.rounds, 1)
      assert.equal(server.stats.requests, second.stats.requests)
      assert.deepEqual(second.files.map((f) => f.values[0].verdict), first.files.map((f) => f.values[0].verdict))
      // Filters outside the tail read: every file's index reads form one more wave, not one per file.
      const small = await openDataset(urls.map((u) => ({ ...u, location: `${u.location}?bloom` })), { initialFetchSize: 4096 })
      server.resetStats()
      const indexed = await small.probe('user_id', [4003, 4004], { statistics: false, dictionary: false })
      t.diagnostic(`filters after a 4 KiB tail: ${indexed.stats.rounds} rounds, ${indexed.stats.requests} requests, ${(indexed.stats.bytes / 1000).toFixed(1)} KB, ${indexed.stats.ms.toFixed(0)} ms`)
      assert.equal(server.stats.requests, indexed.stats.requests)
      assert.ok(indexed.stats.requests > FILES, 'the filters took reads of their own')
      assert.ok(indexed.stats.rounds <= 3, `${indexed.stats.rounds} rounds`)
      for (const holder of indexed.files.filter((f) => holding.includes(f.path))) {
        assert.equal(holder.values[0].verdict, 'maybe')
        assert.equal(holder.values[0].source, 'bloom-filter')
      }
      assert.ok(indexed.totals.ruledOut['bloom-filter'].files >= FILES - 5)
      // A browser-like window of 6: requests never exceed it, whatever the number of files.
      server.resetStats()
      const narrow = await dataset.probe('user_id', [4003], { concurrency: 6 })
      assert.ok(server.stats.maxInFlight <= 6, `${server.stats.maxInFlight} in flight`)
      assert.deepEqual(narrow.files.map((f) => f.values[0].verdict), first.files.map((f) => f.values[0].verdict))
    } finally {
      server.setMode()
    }
  })

  test('a URL with an empty query or a fragment names its file by its path alone, as the URL without them', async () => {
    const file = (await openDataset(root)).files[0].path
    const plain = server.url(file)
    const expected = (await (await openDataset([plain])).probe('user_id', [4003])).files[0]
    assert.equal(expected.error, null)
    for (const spelled of [`${plain}?`, `${plain}#`, `${plain}?#`, `${plain}#part`]) {
      const dataset = await openDataset([spelled])
      assert.deepEqual(dataset.files.map((f) => f.path), [file], spelled)
      const { files: [answer] } = await dataset.probe('user_id', [4003])
      assert.deepEqual([answer.path, answer.error, answer.values[0].verdict], [file, null, expected.values[0].verdict], spelled)
    }
  })

  test('a URL that does not parse is its own file\'s INVALID_ARGUMENT, reported beside the other files\' answers', async () => {
    const local = await openDataset(root)
    const good = local.files.slice(0, 3).map((f) => server.url(f.path))
    const result = await (await openDataset(['https://exa mple.com/a.parquet', ...good])).probe('user_id', [4003])
    assert.equal(result.files.length, 4)
    assert.equal(result.files[0].error.code, 'INVALID_ARGUMENT')
    assert.ok(result.files.slice(1).every((f) => f.error === null), JSON.stringify(result.files.map((f) => f.error)))
  })
})

describe('partition values typed differently from the probe', () => {
  let root
  before(async () => {
    root = path.join(dir, 'typed')
    const db = await duckdb()
    try {
      for (const [n, d, s] of [['01', '2026-01-07', 'a'], ['1', '2026-1-8', 'b'], ['2', '__HIVE_DEFAULT_PARTITION__', '__HIVE_DEFAULT_PARTITION__'], ['10', '2026-01-07', 'x%2Fy']]) {
        const folder = path.join(root, `n=${n}`, `d=${d}`, `s=${s}`)
        await mkdir(folder, { recursive: true })
        await db.run(`COPY (SELECT 1 AS v) TO ${quote(path.join(folder, 'f.parquet'))} (FORMAT parquet)`)
      }
    } finally {
      db.close()
    }
  })

  test('never absent where DuckDB\'s own comparison finds the file', async () => {
    const dataset = await openDataset(root)
    const cases = [['n', 1, 'n = 1'], ['n', '01', "n = '01'"], ['n', 10, 'n = 10'], ['d', '2026-01-08', "d = DATE '2026-01-08'"],
      ['d', null, 'd IS NULL'], ['s', 'x/y', "s = 'x/y'"], ['s', null, 's IS NULL'], ['n', 3, 'n = 3']]
    for (const [column, value, predicate] of cases) {
      const result = await dataset.probe(column, [value])
      assert.equal(result.stats.requests, 0)
      let truth
      try {
        truth = await filesHolding(root, predicate)
      } catch {
        continue // DuckDB refuses the comparison for its inferred type: nothing to hold us to
      }
      for (const file of result.files) {
        if (truth.has(file.path)) assert.equal(file.values[0].verdict, 'maybe', `${file.path}: ${predicate}`)
      }
      if (value === 3) assert.ok(result.files.every((f) => f.values[0].verdict === 'absent'))
    }
  })
})

describe('Hive partition values', () => {
  test('parsed from folders, URL-decoded, the default partition as null', () => {
    assert.deepEqual(parseHivePartitions('a=1/b=x%2Fy/c=__HIVE_DEFAULT_PARTITION__/d=1=2/e=f%3Dg/h=100%/part=9.parquet'), { a: '1', b: 'x/y', c: null, 'd=1': '2', e: 'f=g', h: '100%' })
  })

  test('never ruled out where DuckDB\'s comparison could match', () => {
    assert.equal(partitionMayEqual('01', 1), true)
    assert.equal(partitionMayEqual('1', '01'), true)
    assert.equal(partitionMayEqual('2026-1-7', '2026-01-07'), true)
    assert.equal(partitionMayEqual('2026-01-07 00:00:00', '2026-01-07'), true)
    assert.equal(partitionMayEqual('9007199254740993', 9007199254740993n), true)
    assert.equal(partitionMayEqual('9007199254740993', 9007199254740992n), false)
    assert.equal(partitionMayEqual(null, null), true)
    assert.equal(partitionMayEqual(null, 'FR'), false)
    assert.equal(partitionMayEqual('FR', null), false)
    assert.equal(partitionMayEqual('FR', 'DE'), false)
    assert.equal(partitionMayEqual('1.5', NaN), true)
    assert.equal(partitionMayEqual('1', true), true)
    assert.equal(partitionMayEqual('false', true), false)
    assert.equal(partitionMayEqual('2026-01-07', '2026-01-07T01:00:00+01:00'), true)
    assert.equal(partitionMayEqual('2026-01-07', '2026-01-08'), false)
    assert.equal(partitionMayEqual('2026-01-07', 20460), true, 'a day number, as the file layer takes one for DATE')
    assert.equal(partitionMayEqual('2026-01-07T10:00:00+02:00', new Date(Date.UTC(2026, 0, 7, 8))), true, 'an offset this parser does not read')
  })

  test('reason codes and sources are in the one table', () => {
    for (const reason of ['partition-match', 'partition-mismatch', 'outside-where', 'column-missing', 'file-error', 'limit-reached']) assert.ok(REASONS[reason], reason)
    assert.equal(Source.TABLE_STATS, 'table-stats')
  })
})

test('a folder, glob or prefix of no Parquet file is FILE_NOT_FOUND, not a dataset of no file; an empty list given is one', async () => {
  const empty = path.join(dir, 'no-parquet')
  await mkdir(path.join(empty, 'day=2026-01-07'), { recursive: true })
  await writeFile(path.join(empty, 'day=2026-01-07', '_SUCCESS'), '')
  // A typo in a glob or a folder would otherwise make every value look absent.
  for (const [source, message] of [[empty, /no Parquet files there/], [path.join(dir, 'no-parquet', '**', '*.parquet'), /glob matches no file/]]) {
    await assert.rejects(openDataset(source), (e) => e.code === 'FILE_NOT_FOUND' && message.test(e.message) && e.source === source)
  }
  const given = await openDataset([])
  assert.equal(given.files.length, 0)
})
