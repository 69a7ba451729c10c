// A dataset probe's options combined (where, shard, limit, prefilter, columnOf, index, confirm + columns, signal,
// onProgress) over a Hive dataset DuckDB writes, each file's verdicts and rows checked against DuckDB's rows
// (read_parquet(…, hive_partitioning = true, file_row_number = true)); and what a probe does with a caller's
// callbacks that never settle or fail, and with shards it cannot take.
import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { mergeShardResults, openDataset } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { openByteSource } from '../../js/sources/open-byte-source.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('dataset-combos')
const root = path.join(dir, 'ds')
const indexPath = path.join(dir, 'index.puffin')
// 5: in most files, once or twice each; 10003 and 10105: one file's own (three rows each); 999: nowhere.
const VALUES = [5, 10003, 10105, 999]
/** @type {Map<string, Map<number, number[]>>} DuckDB's rows: path → value → row numbers in the file */
const truth = new Map()
const rowsOf = (file, value) => truth.get(file)?.get(value) ?? []

before(async () => {
  const db = await duckdb()
  try {
    // 12 files (3 days × 4 countries) of 1,500 rows in row groups of 500.
    await db.run(`COPY (SELECT DATE '2026-01-07' + (f // 4)::INTEGER AS day, ['DE', 'FR', 'US', 'IT'][f % 4 + 1] AS country,
      (CASE WHEN i % 10 = 0 THEN 10000 + f * 100 + (i // 10) % 50 ELSE (i * 7 + f * 13) % 900 END)::BIGINT AS user_id,
      'n' || i AS name FROM range(12) a(f), range(1500) t(i) ORDER BY f, i)
      TO ${quote(root)} (FORMAT parquet, PARTITION_BY (day, country), ROW_GROUP_SIZE 500, DICTIONARY_SIZE_LIMIT 1)`)
    const rows = await db.rows(`SELECT filename, file_row_number::INTEGER AS r, user_id FROM read_parquet(${quote(`${root}/**/*.parquet`)},
      hive_partitioning = true, filename = true, file_row_number = true) WHERE user_id IN (${VALUES.join(', ')}) ORDER BY filename, r`)
    for (const row of rows) {
      const file = path.relative(root, String(row.filename)).split(path.sep).join('/')
      const byValue = truth.get(file) ?? truth.set(file, new Map()).get(file)
      const value = Number(row.user_id)
      byValue.set(value, [...(byValue.get(value) ?? []), row.r])
    }
  } finally {
    db.close()
  }
  await settleMtimes(root)
  const files = (await readdir(root, { recursive: true })).filter((n) => n.endsWith('.parquet')).sort()
  await buildSidecarIndex(files.map((n) => path.join(root, n)), indexPath, { columns: ['user_id'] })
})

/** A file's answer without its I/O counts (which differ between runs), bigints as text. */
const comparable = ({ stats, ...file }) => JSON.parse(JSON.stringify(file, (k, v) => (typeof v === 'bigint' ? String(v) : v)))
const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)

/** Never absent where DuckDB finds rows (outside `where` aside), never present where it finds none; confirmed rows exact. */
function assertTruth(files, label) {
  for (const file of files) {
    VALUES.forEach((value, k) => {
      const answer = file.values[k]
      const rows = rowsOf(file.path, value)
      const at = `${label}: ${file.path} ${value} (${answer.verdict}, ${answer.reason}; DuckDB: ${rows.length} rows)`
      if (answer.verdict === 'absent' && file.skipped !== 'where') assert.equal(rows.length, 0, at)
      if (answer.verdict === 'present') {
        assert.ok(rows.length > 0, at)
        if (answer.rows && !answer.rowsTruncated) assert.deepEqual(answer.rows, rows, at)
        if (answer.values) assert.deepEqual(answer.values.map((v) => v.name), answer.rows.map((r) => `n${r}`), at)
      }
    })
  }
}

describe('dataset probe options combined, against DuckDB', () => {
  test('probe() and probeEach answer alike; shards merged are the whole probe; totals count the files', async () => {
    const mine = { verdict: 'absent', source: 'mine', reason: 'mine', detail: '' }
    const prefilter = (file, column, values) => values.map((v) => (v === 999 ? mine : null))
    const combos = []
    for (const where of [undefined, { country: ['FR', 'DE'] }]) {
      for (const index of [undefined, indexPath]) {
        for (const confirm of [{}, { confirm: true, columns: ['name'] }]) {
          const open = index ? { index, columnOf: async (file, parquet, column) => column } : {}
          combos.push({ open, probe: { where, prefilter, ...confirm } })
        }
      }
    }
    for (const { open, probe } of combos) {
      const label = JSON.stringify({ index: !!open.index, where: probe.where, confirm: !!probe.confirm })
      const dataset = await openDataset(root, open)
      try {
        const whole = await dataset.probe('user_id', VALUES, probe)
        assertTruth(whole.files, label)
        const each = []
        for await (const file of dataset.probeEach('user_id', VALUES, probe)) each.push(file)
        assert.deepEqual(each.map(comparable).sort(byPath), whole.files.map(comparable), label)
        const verdicts = { absent: 0, maybe: 0, present: 0, unknown: 0 }
        for (const file of whole.files) for (const v of file.values) verdicts[v.verdict]++
        assert.deepEqual(whole.totals.verdicts, verdicts, label)
        assert.equal(whole.totals.files, 12)
        assert.equal(whole.totals.filesSkipped, whole.files.filter((f) => f.skipped).length, label)
        for (const count of [2, 40]) {
          const shards = []
          for (let index = 0; index < count; index++) {
            shards.push(await dataset.probe('user_id', VALUES, { ...probe, shard: { index, count } }))
          }
          const paths = shards.flatMap((s) => s.files.map((f) => f.path)).sort()
          assert.deepEqual(paths, whole.files.map((f) => f.path), `${label}: each file in one shard of ${count}`)
          const merged = await mergeShardResults(shards)
          assert.deepEqual(merged.files.map(comparable), whole.files.map(comparable), label)
          assert.deepEqual(merged.totals, whole.totals, label)
          for (const key of ['requests', 'bytesFetched', 'filesOpened']) {
            assert.equal(merged.stats[key], shards.reduce((n, s) => n + s.stats[key], 0), `${label}: stats.${key}`)
          }
        }
      } finally {
        await dataset.close()
      }
    }
  })

  test('with an index, stats count its reads even when `where` or the shard leaves no file to wait for them', async () => {
    for (const options of [{ where: { country: 'XX' } }, { shard: { index: 0, count: 40 } }, { where: { country: 'FR' } }]) {
      const dataset = await openDataset(root, { index: indexPath })
      try {
        const { stats, plan } = await dataset.probe('user_id', [5], { plan: true, ...options })
        const label = JSON.stringify(options)
        assert.ok(stats.index.requests >= 1, label)
        assert.equal(stats.requests, plan.requests.length, label)
        assert.equal(stats.bytesFetched, plan.requests.reduce((n, r) => n + r.bytes, 0), label)
        assert.ok(stats.requests >= stats.index.requests, label)
      } finally {
        await dataset.close()
      }
    }
  })

  test('limit: the files left say limit-reached (unknown), the rows found are DuckDB\'s and reach the limit', async () => {
    for (const index of [undefined, indexPath]) {
      const dataset = await openDataset(root, { ...(index ? { index } : {}), fileConcurrency: 2 })
      try {
        for (const limit of [1, 3, 10]) {
          for (const where of [undefined, { country: ['FR', 'DE'] }]) {
            const result = await dataset.probe('user_id', [5], { confirm: true, limit, where })
            const label = JSON.stringify({ index: !!index, limit, where })
            let found = 0
            let available = 0
            for (const file of result.files) {
              const answer = file.values[0]
              if (file.skipped === 'limit') assert.deepEqual([answer.verdict, answer.reason], ['unknown', 'limit-reached'], label)
              if (file.skipped !== 'where') available += rowsOf(file.path, 5).length
              if (answer.verdict === 'absent' && file.skipped !== 'where') assert.equal(rowsOf(file.path, 5).length, 0, label)
              if (answer.verdict === 'present') {
                assert.ok(answer.rows.every((r) => rowsOf(file.path, 5).includes(r)), label)
                found += answer.rows.length
              }
            }
            assert.ok(found >= Math.min(limit, available), `${label}: ${found} rows found`)
          }
        }
      } finally {
        await dataset.close()
      }
    }
  })
})

describe('an index with a caller\'s columnOf', () => {
  test('the index\'s answers count only where columnOf names the column asked: a swap rename held 5007 absent', async () => {
    // Written before the table swapped its names: the file's x is the table's y and its y the table's x.
    const file = path.join(dir, 'swapped.parquet')
    const db = await duckdb()
    try {
      await db.run(`COPY (SELECT i::BIGINT AS x, (i + 5000)::BIGINT AS y FROM range(1000) t(i)) TO ${quote(file)} (FORMAT parquet)`)
      const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM read_parquet(${quote(file)}) WHERE y = 5007`)
      assert.equal(row.n, 1)
    } finally {
      db.close()
    }
    await settleMtimes(file)
    const swappedIndex = path.join(dir, 'swapped.puffin')
    await buildSidecarIndex([file], swappedIndex, { columns: ['x', 'y'] })
    const columnOf = (f, parquet, column) => ({ x: 'y', y: 'x' })[column] ?? column
    const dataset = await openDataset([file], { columnOf, index: swappedIndex })
    try {
      // The table's x is the file's y, which holds 5007 (DuckDB above); the file's x, which the index describes, does not.
      const { files: [swapped] } = await dataset.probe('x', [5007, 7], { confirm: true })
      assert.deepEqual(swapped.values.map((v) => v.verdict), ['present', 'absent'])
      assert.deepEqual(swapped.values[0].rows, [7])
      // Where columnOf names the column asked, the index still rules out what it describes.
      const same = await openDataset([file], { columnOf: (f, parquet, column) => column, index: swappedIndex })
      const { files: [plain] } = await same.probe('y', [5007, 7], { confirm: true })
      assert.deepEqual(plain.values.map((v) => v.verdict), ['present', 'absent'])
      await same.close()
    } finally {
      await dataset.close()
    }
  })
})

describe('a probe\'s callbacks and shards', () => {
  /** Rejects with TIMEOUT after `ms`: a probe that hangs fails the test rather than the run. */
  const within = (promise, ms = 5000) => {
    let timer
    return Promise.race([promise, new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error('TIMEOUT')), ms) })])
      .finally(() => clearTimeout(timer))
  }
  const drain = async (iterable) => { for await (const file of iterable) assert.ok(file) }

  test('an abort rejects with ABORTED at once while a prefilter or columnOf has not settled', async () => {
    const never = () => new Promise(() => {})
    for (const [open, probe] of [[{}, { prefilter: never }], [{ columnOf: never }, {}]]) {
      const dataset = await openDataset(root, open)
      for (const run of [(o) => dataset.probe('user_id', [5], o), (o) => drain(dataset.probeEach('user_id', [5], o))]) {
        const controller = new AbortController()
        setTimeout(() => controller.abort(), 50)
        const started = performance.now()
        await assert.rejects(within(run({ ...probe, signal: controller.signal })), { code: 'ABORTED' })
        assert.ok(performance.now() - started < 2000)
      }
    }
  })

  test('an abort rejects with ABORTED at once while the index\'s opening read has no answer', async () => {
    const server = await startTestServer({ root: dir })
    try {
      const dataset = await openDataset(root, { index: server.url('index.puffin', { mode: 'slow:30000' }) })
      for (const run of [(o) => dataset.probe('user_id', [5], o), (o) => drain(dataset.probeEach('user_id', [5], o))]) {
        const controller = new AbortController()
        setTimeout(() => controller.abort(), 50)
        await assert.rejects(within(run({ signal: controller.signal })), { code: 'ABORTED' })
      }
    } finally {
      await server.close()
    }
  })

  test('a failed probe starts no other file; a file finished after the abort is not reported', async () => {
    const dataset = await openDataset(root, { fileConcurrency: 3 })
    let calls = 0
    const prefilter = () => {
      if (++calls === 1) throw new Error('the caller\'s prefilter failed')
      return null
    }
    await assert.rejects(dataset.probe('user_id', [5], { prefilter }), /prefilter failed/)
    const atRejection = calls
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(calls, atRejection, 'no file was started after the probe rejected')
    assert.ok(calls <= 3)
    const controller = new AbortController()
    const progress = []
    const onProgress = (p) => {
      progress.push(p.filesDone)
      if (p.filesDone === 2) controller.abort()
    }
    await assert.rejects(dataset.probe('user_id', [5], { signal: controller.signal, onProgress }), { code: 'ABORTED' })
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.deepEqual(progress, [1, 2])
  })

  test('a file whose probe fails once aborted is closed all the same (no descriptor left open)',
    { skip: !existsSync('/proc/self/fd') && 'needs /proc/self/fd' }, async () => {
      const openFiles = () => readdirSync('/proc/self/fd').length
      const dataset = await openDataset(root, { fileConcurrency: 1 })
      for (const run of [(o) => dataset.probe('user_id', [5], o), (o) => drain(dataset.probeEach('user_id', [5], o))]) {
        const before = openFiles()
        const controller = new AbortController()
        let calls = 0
        // The second file's columnOf aborts and fails: that file is open (its footer read), its probe fails on the abort.
        const columnOf = async () => {
          if (++calls < 2) return 'user_id'
          controller.abort()
          throw new Error('the caller\'s columnOf failed')
        }
        await assert.rejects(run({ signal: controller.signal, columnOf }), { code: 'ABORTED' })
        await new Promise((resolve) => setTimeout(resolve, 200))
        assert.equal(openFiles(), before)
      }
    })

  test('a file whose source fails to close is answered with that error; the other files still are', async () => {
    const bytes = await readFile(path.join(root, (await readdir(root, { recursive: true })).find((n) => n.endsWith('.parquet'))))
    /** A caller's ByteSource over `data` whose close() fails after closing it. */
    const closeFails = async (data) => {
      const source = await openByteSource(data)
      const close = async () => {
        await source.close()
        throw new Error('close failed')
      }
      return new Proxy(source, {
        get: (target, key) => (key === 'close' ? close : typeof target[key] === 'function' ? target[key].bind(target) : target[key]),
      })
    }
    // Not Parquet (its footer read fails, then its close), Parquet (its probe answers, then its close fails), and bytes.
    const dataset = await openDataset([await closeFails(new Uint8Array(64).fill(7)), await closeFails(bytes), bytes])
    const result = await dataset.probe('user_id', [5])
    assert.deepEqual(result.files.map((f) => [f.path, f.error?.code ?? null]), [['#0', 'IO'], ['#1', 'IO'], ['#2', null]])
    assert.match(result.files[0].error.message, /close failed/)
  })

  test('a shard it cannot take is INVALID_ARGUMENT, null or on a dataset of no file too', async () => {
    const dataset = await openDataset(root)
    const empty = await openDataset([])
    const cases = [[dataset, null], [dataset, { index: 2, count: 2 }], [empty, { index: 2, count: 2 }], [empty, null], [empty, {}]]
    for (const [d, shard] of cases) {
      await assert.rejects(d.probe('user_id', [5], { shard }), { code: 'INVALID_ARGUMENT' })
      await assert.rejects(drain(d.probeEach('user_id', [5], { shard })), { code: 'INVALID_ARGUMENT' })
      await assert.rejects(d.inspect({ shard }), { code: 'INVALID_ARGUMENT' })
    }
  })
})
