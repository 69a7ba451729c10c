// A dataset of one-day Hive partitions written by DuckDB (user_id BIGINT, no bloom filter, two row
// groups a file, as the dataset issue measured), 1,000 files (200 with --quick), one user id, a server
// in its own process waiting 30 ms per response: openDataset cold and with its footer cache, against a
// window of 256 (one file's, what a dataset had before), a per-file loop over openParquet four files at
// a time (what the CLI did), cold and with a footer cache,
// and against DuckDB reading the same files from local disk (a fresh connection, then the same one
// again). Interleaved trials, medians, client CPU beside wall time; the ratios come from the same run.
import path from 'node:path'

import { createFooterCache, openDataset, openParquet } from '../../js/index.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'
import { startServerProcess } from '../lib/range-server-fork.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ROWS_PER_FILE = 4096
const PER_FILE_CONCURRENCY = 4

async function writeDays(dir, days) {
  const db = await duckdb()
  try {
    // Ids spread over the whole range in every file: statistics keep every row group in the running.
    await db.run(`COPY (SELECT DATE '2026-01-01' + (i // ${ROWS_PER_FILE})::INTEGER AS day, (hash(i) % 1000000000)::BIGINT AS user_id, i % 97 AS amount
      FROM range(${days * ROWS_PER_FILE}) t(i)) TO ${quote(dir)} (FORMAT parquet, PARTITION_BY (day), ROW_GROUP_SIZE 2048, DICTIONARY_SIZE_LIMIT 1)`)
    const [{ id }] = await db.rows(`SELECT user_id AS id FROM read_parquet(${quote(path.join(dir, '**/*.parquet'))}) LIMIT 1 OFFSET 12345`)
    return Number(id)
  } finally {
    db.close()
  }
}

/** The loop a caller writes without openDataset: open, probe, close, a few files at a time. */
async function perFileLoop(urls, value, footerCache) {
  let next = 0
  let requests = 0
  let bytes = 0
  const kept = []
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]
      const file = await openParquet(url, footerCache ? { footerCache } : {})
      try {
        const result = await file.probe('user_id', [value])
        if (result.rowGroups.some((g) => g.results[0].verdict !== 'absent')) kept.push(url)
      } finally {
        requests += file.stats.requests
        bytes += file.stats.bytesFetched
        await file.close()
      }
    }
  }
  await Promise.all(Array.from({ length: PER_FILE_CONCURRENCY }, worker))
  return { requests, bytes, kept: kept.length }
}

export async function run({ quick } = {}) {
  const days = quick ? 200 : 1000
  const { dir, remove } = await makeTempDir('bench-dataset')
  let server
  try {
    const value = await writeDays(dir, days)
    server = await startServerProcess(dir, 'slow:30', 'etag')
    const local = await openDataset(dir)
    const urls = local.files.map((f) => `${server.origin}/${f.path}`)
    const glob = quote(path.join(dir, '**/*.parquet'))
    const duckdbQuery = `SELECT DISTINCT filename FROM read_parquet(${glob}, hive_partitioning = true, filename = true) WHERE user_id = ${value}`
    const trials = quick ? 3 : 5
    const names = ['dataset', 'cached', 'window256', 'perFile', 'perFileCached', 'where', 'localDataset', 'duckdb', 'duckdbAgain']
    const runs = Object.fromEntries(names.map((name) => [name, []]))
    for (let t = -1; t < trials; t++) { // trial -1 warms up wasm, connections and the JIT
      /** Times `fn`, and records its wall time and client CPU with what it says it cost. */
      const time = async (name, fn) => {
        const cpu = process.cpuUsage()
        const started = performance.now()
        const extra = await fn()
        const ms = performance.now() - started
        const used = process.cpuUsage(cpu)
        if (t >= 0) runs[name].push({ ms, cpuMs: (used.user + used.system) / 1000, ...extra })
      }
      const ofDataset = (result) => ({ requests: result.stats.requests, bytes: result.stats.bytes, rounds: result.stats.rounds, window: result.stats.window, kept: kept(result) })
      const dataset = await openDataset(urls.map((url, i) => ({ path: local.files[i].path, location: url })), { footerCache: createFooterCache() })
      await time('dataset', async () => ofDataset(await dataset.probe('user_id', [value])))
      await time('cached', async () => ofDataset(await dataset.probe('user_id', [value])))
      // The window of one file for the whole dataset: a round per 256 files, the server's work spread over them.
      const narrow = await openDataset(urls.map((url, i) => ({ path: local.files[i].path, location: url })), { footerCache: createFooterCache(), concurrency: 256 })
      await time('window256', async () => ofDataset(await narrow.probe('user_id', [value])))
      // Every file of the loop is opened on its own: a round per file, four files side by side.
      const loopRounds = Math.ceil(days / PER_FILE_CONCURRENCY)
      await time('perFile', async () => ({ ...(await perFileLoop(urls, value)), rounds: loopRounds }))
      const loopCache = createFooterCache()
      await perFileLoop(urls, value, loopCache)
      await time('perFileCached', async () => ({ ...(await perFileLoop(urls, value, loopCache)), rounds: loopRounds }))
      const day = local.files[7].partitions.day
      await time('where', async () => ofDataset(await dataset.probe('user_id', [value], { where: { day } })))
      await time('localDataset', async () => ofDataset(await local.probe('user_id', [value])))
      const db = await duckdb()
      try {
        await time('duckdb', async () => ({ requests: null, bytes: null, rounds: null, kept: (await db.rows(duckdbQuery)).length }))
        await time('duckdbAgain', async () => ({ requests: null, bytes: null, rounds: null, kept: (await db.rows(duckdbQuery)).length }))
      } finally {
        db.close()
      }
    }
    const summary = (name) => ({ ms: median(runs[name].map((r) => r.ms)), cpuMs: median(runs[name].map((r) => r.cpuMs)),
      requests: runs[name][0].requests, bytes: runs[name][0].bytes, rounds: runs[name][0].rounds, window: runs[name][0].window ?? null, kept: runs[name][0].kept })
    return { files: days, rowGroups: days * 2, responseDelayMs: 30, trials, value, plans: Object.fromEntries(names.map((name) => [name, summary(name)])) }
  } finally {
    await server?.stop()
    await remove()
  }
}

function kept(result) {
  return result.files.filter((f) => f.values[0].verdict !== 'absent').length
}

runIfMain(import.meta.url, run)
