// A dataset probed without an index at scale, over HTTP: 500 and 4,000 files written by hyparquet-writer
// (testkit/sidecar-dataset.js: five row groups each, an INT64 column whose values spread over
// the whole range, no bloom filter, no dictionary) served by the range server, which counts requests,
// bytes and rounds (wave mode: a round is a wave of requests sent without waiting for a response). The
// rounds do not grow with the files, each file costs one request (its tail read holds the whole file),
// and every file's verdict per value is what DuckDB's reading of the same files says: absent exactly
// where every row group's min/max (DuckDB's parquet_metadata) rules the value out, never in a file
// holding it (DuckDB's read_parquet). A second test streams 1,500 and 6,000 files through probeEach in
// child processes: the peak memory of the larger is about that of the smaller; and 4,000 files through
// the dataset's own window (all of them in flight at once) stay within 256 MiB of peak RSS growth.
import assert from 'node:assert/strict'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { init, openDataset } from '../../js/index.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runNode } from './helpers/run-cli.js'
import { datasetFileName, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'

const FILES = 4000
const GROUPS = 5
const GROUP_ROWS = 32
const QUIET_MS = 500 // a gap the client never leaves between requests of one wave, even on a loaded machine
const MiB = 1024 * 1024
const dir = await tempDir('dataset-scale')

let server
let sizes
/** DuckDB's reading of the files: per file, each row group's [min, max], and which files hold each probed value. */
let truth
let values

before(async () => {
  await init()
  await writeSidecarDataset(dir, { files: FILES, groups: GROUPS, groupRows: GROUP_ROWS })
  sizes = await Promise.all(Array.from({ length: FILES }, async (_, f) => (await stat(path.join(dir, datasetFileName(f)))).size))
  assert.ok(Math.max(...sizes) < 64 * 1024, 'every file fits in one tail read')
  // Values ruled out by the statistics of some files and not others: each file's largest value
  // (above most files' max), a value stored nowhere (≡ 1 mod 3) inside every range, one above all.
  const rows = GROUPS * GROUP_ROWS
  const largestOf = (f) => Array.from({ length: rows }, (_, i) => storedValue(f * rows + i)).reduce((a, b) => (a > b ? a : b))
  values = [largestOf(321), largestOf(3210), storedValue(77 * rows + 5), 1_000_000_001n, 3n * 2n ** 32n + 3n]
  const db = await duckdb()
  try {
    const glob = quote(path.join(dir, '*.parquet'))
    const stats = await db.rows(`SELECT file_name, row_group_id, stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata(${glob}) WHERE path_in_schema = 'id'`)
    const groups = new Map()
    for (const r of stats) {
      const name = path.basename(r.file_name)
      if (!groups.has(name)) groups.set(name, [])
      groups.get(name).push({ lo: BigInt(r.lo), hi: BigInt(r.hi) })
    }
    const holders = await Promise.all(values.map(async (v) => new Set((await db.rows(`SELECT DISTINCT filename FROM read_parquet(${glob}, filename = true) WHERE id = ${v}`)).map((r) => path.basename(r.filename)))))
    truth = { groups, holders }
  } finally {
    db.close()
  }
  server = await startTestServer({ root: dir })
}, { timeout: 300_000 })

after(() => server?.close())

/** One probe of `files` files, counted at the server, every response held until the client has sent all it can without waiting. */
async function probeCounted(files) {
  const urls = Array.from({ length: files }, (_, f) => ({ path: datasetFileName(f), location: server.url(datasetFileName(f)) }))
  const dataset = await openDataset(urls)
  server.resetStats()
  server.setMode(`wave:${QUIET_MS}`)
  try {
    const result = await dataset.probe('id', values)
    return { result, server: { ...server.stats } }
  } finally {
    server.setMode()
  }
}

describe(`a dataset without an index: 500 and ${FILES} files over HTTP`, () => {
  test('rounds do not grow with the files; a request per file; verdicts as DuckDB reads the files', { timeout: 300_000 }, async (t) => {
    const runs = []
    for (const files of [500, FILES]) {
      const run = await probeCounted(files)
      const { stats } = run.result
      t.diagnostic(`${files} files: ${run.server.rounds} rounds at the server (${stats.rounds} counted by the client), window ${stats.window}, ` +
        `${run.server.requests} requests, ${(run.server.bytesWritten / MiB).toFixed(1)} MiB, ${stats.ms.toFixed(0)} ms`)
      // One tail read per file and nothing else: each file is smaller than the tail.
      assert.equal(run.server.requests, files)
      assert.equal(stats.requests, files)
      assert.equal(run.server.bytesWritten, sizes.slice(0, files).reduce((a, b) => a + b, 0))
      assert.equal(stats.bytes, run.server.bytesWritten)
      // As many rounds as windows of files, counted alike by both ends; a window of every file where
      // the process may open that many sockets (half its descriptors, js/dataset/request-window.js).
      assert.equal(run.server.rounds, Math.ceil(files / stats.window))
      assert.equal(stats.rounds, run.server.rounds)
      assert.ok(run.server.rounds <= 5, `${run.server.rounds} rounds`)
      assert.ok(run.server.maxInFlight <= stats.window)
      runs.push({ files, run })
    }
    const [small, large] = runs
    if (large.run.result.stats.window >= FILES) assert.equal(large.run.server.rounds, small.run.server.rounds, 'the rounds do not grow with the files')

    // Every verdict as DuckDB's reading of the file says.
    let absent = 0
    for (const { run } of runs) {
      for (const file of run.result.files) {
        assert.equal(file.error, null, file.path)
        const groups = truth.groups.get(file.path)
        assert.equal(file.rowGroups.length, GROUPS)
        values.forEach((v, k) => {
          const outside = groups.map((g) => v < g.lo || v > g.hi)
          file.rowGroups.forEach((g, i) => {
            assert.equal(g.results[k].verdict, outside[i] ? 'absent' : 'maybe', `${file.path} row group ${i}: ${v} in [${groups[i].lo}, ${groups[i].hi}]`)
          })
          const verdict = file.values[k].verdict
          if (truth.holders[k].has(file.path)) assert.notEqual(verdict, 'absent', `${file.path} holds ${v}`)
          assert.equal(verdict, outside.every(Boolean) ? 'absent' : 'maybe', `${file.path}: ${v}`)
          if (verdict === 'absent') absent++
        })
      }
    }
    assert.ok(absent > 0 && absent < (500 + FILES) * values.length, `${absent} file answers absent: the values are ruled out in some files, not all`)
  })

  test('probeEach streams: 6,000 files take about the memory of 1,500', { timeout: 300_000 }, async (t) => {
    // More files than the window in both, so that only the answers kept could grow with them: 500 in flight.
    const child = path.join(import.meta.dirname, 'helpers', 'probe-each-memory-child.js')
    assert.equal((await readdir(dir)).filter((n) => n.endsWith('.parquet')).length, FILES)
    const runs = []
    for (const files of [1500, 6000]) {
      const { stdout, stderr, code } = await runNode(['--expose-gc', child, JSON.stringify({ origin: server.origin, files, distinct: FILES, concurrency: 500, column: 'id', value: String(values[2]) })])
      assert.equal(code, 0, stderr)
      const run = JSON.parse(stdout)
      assert.equal(run.files, files)
      assert.equal(run.errors, 0)
      runs.push(run)
    }
    t.diagnostic(runs.map((r) => `${r.files} files: peak RSS +${(r.peakAboveStartBytes / MiB).toFixed(1)} MiB, heap after +${(r.heapAfterBytes / MiB).toFixed(1)} MiB`).join('; '))
    const [small, large] = runs
    // Four times the files, not four times the memory: at most 1.5 × plus 32 MiB for the collector's
    // timing (on a loaded machine a full collection comes sooner or later).
    assert.ok(large.peakAboveStartBytes <= 1.5 * small.peakAboveStartBytes + 32 * MiB, `peak RSS above start: ${small.peakAboveStartBytes} for 1,500 files, ${large.peakAboveStartBytes} for 6,000`)
    assert.ok(large.heapAfterBytes <= small.heapAfterBytes + 8 * MiB, 'nothing of the files is kept after the stream ends')
  })

  test('a worker opens no more than its share of the files: a slow file does not make another worker\'s chain longer', async () => {
    // Five files through a window of two; the first file's answer comes 300 ms late, the others' at once.
    // The worker with the quick ones must leave the fifth to the other: chains of three and two files
    // (three rounds, ⌈5 / 2⌉), not the slow one alone beside a chain of four.
    const slow = datasetFileName(0)
    const fetch = (/** @type {string} */ url, /** @type {RequestInit} */ init) => (String(url).endsWith(slow)
      ? new Promise((resolve) => setTimeout(resolve, 300)).then(() => globalThis.fetch(url, init))
      : globalThis.fetch(url, init))
    const urls = Array.from({ length: 5 }, (_, f) => server.url(datasetFileName(f)))
    const result = await (await openDataset(urls, { fetch, concurrency: 2 })).probe('id', [values[2]])
    assert.deepEqual(result.files.map((f) => f.error), [null, null, null, null, null])
    assert.equal(result.stats.requests, 5)
    assert.equal(result.stats.rounds, 3)
  })

  test(`probeEach of ${FILES} files in one window: peak RSS growth within 256 MiB`, { timeout: 300_000 }, async (t) => {
    const child = path.join(import.meta.dirname, 'helpers', 'probe-each-memory-child.js')
    const { stdout, stderr, code } = await runNode([child, JSON.stringify({ origin: server.origin, files: FILES, distinct: FILES, concurrency: null, column: 'id', value: String(values[2]) })])
    assert.equal(code, 0, stderr)
    const run = JSON.parse(stdout)
    t.diagnostic(`${run.files} files, every tail read in flight at once: peak RSS +${(run.peakAboveStartBytes / MiB).toFixed(1)} MiB`)
    assert.equal(run.files, FILES)
    assert.equal(run.errors, 0)
    assert.ok(run.peakAboveStartBytes <= 256 * MiB, `peak RSS above start: ${(run.peakAboveStartBytes / MiB).toFixed(1)} MiB`)
  })
})
