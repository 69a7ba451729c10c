// A dataset of one-day Hive partitions written by DuckDB (user_id BIGINT, no bloom filter, two row
// groups a file, as the dataset issue measured), one user id, a server in its own process waiting 30 ms
// per response: openDataset (cold, then with its footer cache) against a per-file loop over openParquet
// four files at a time (what the CLI did), and against DuckDB reading the same files from local disk.
// Interleaved trials, medians; the ratios come from the same run.
import path from 'node:path'

import { createFooterCache, openDataset, openParquet } from '../../js/index.js'
import { duckdb, quote } from '../../tests/js/helpers/hive-dataset.js'
import { startServerProcess } from '../lib/range-server-fork.js'
import { makeTempDir } from '../../tests/js/helpers/temp-dir.js'
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
async function perFileLoop(urls, value) {
  let next = 0
  let requests = 0
  let bytes = 0
  const kept = []
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]
      const file = await openParquet(url)
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
  const days = quick ? 50 : 200
  const { dir, remove } = await makeTempDir('bench-dataset')
  let server
  try {
    const value = await writeDays(dir, days)
    server = await startServerProcess(dir, 'slow:30', 'etag')
    const local = await openDataset(dir)
    const urls = local.files.map((f) => `${server.origin}/${f.path}`)
    const db = await duckdb()
    const trials = quick ? 3 : 7
    const runs = { dataset: [], cached: [], perFile: [], localDataset: [], duckdb: [], where: [] }
    try {
      for (let t = -1; t < trials; t++) { // trial -1 warms up wasm, connections and the JIT
        const record = (name, ms, extra) => { if (t >= 0) runs[name].push({ ms, ...extra }) }
        const footerCache = createFooterCache()
        const dataset = await openDataset(urls.map((url, i) => ({ path: local.files[i].path, location: url })), { footerCache })
        let started = performance.now()
        const cold = await dataset.probe('user_id', [value])
        record('dataset', performance.now() - started, { requests: cold.stats.requests, bytes: cold.stats.bytes, rounds: cold.stats.rounds, kept: kept(cold) })
        started = performance.now()
        const warm = await dataset.probe('user_id', [value])
        record('cached', performance.now() - started, { requests: warm.stats.requests, bytes: warm.stats.bytes, rounds: warm.stats.rounds, kept: kept(warm) })
        started = performance.now()
        const loop = await perFileLoop(urls, value)
        record('perFile', performance.now() - started, { requests: loop.requests, bytes: loop.bytes, rounds: Math.ceil(days / PER_FILE_CONCURRENCY), kept: loop.kept })
        started = performance.now()
        const day = local.files[7].partitions.day
        const where = await dataset.probe('user_id', [value], { where: { day } })
        record('where', performance.now() - started, { requests: where.stats.requests, bytes: where.stats.bytes, rounds: where.stats.rounds, kept: kept(where) })
        started = performance.now()
        const onDisk = await local.probe('user_id', [value])
        record('localDataset', performance.now() - started, { requests: onDisk.stats.requests, bytes: onDisk.stats.bytes, rounds: onDisk.stats.rounds, kept: kept(onDisk) })
        started = performance.now()
        const rows = await db.rows(`SELECT DISTINCT filename FROM read_parquet(${quote(path.join(dir, '**/*.parquet'))}, hive_partitioning = true, filename = true) WHERE user_id = ${value}`)
        record('duckdb', performance.now() - started, { requests: null, bytes: null, rounds: null, kept: rows.length })
      }
    } finally {
      db.close()
    }
    const summary = (name) => ({ ms: median(runs[name].map((r) => r.ms)), requests: runs[name][0].requests, bytes: runs[name][0].bytes, rounds: runs[name][0].rounds, kept: runs[name][0].kept })
    return { files: days, rowGroups: days * 2, responseDelayMs: 30, trials, value, plans: Object.fromEntries(Object.keys(runs).map((name) => [name, summary(name)])) }
  } finally {
    await server?.stop()
    await remove()
  }
}

function kept(result) {
  return result.files.filter((f) => f.values[0].verdict !== 'absent').length
}

runIfMain(import.meta.url, run)
