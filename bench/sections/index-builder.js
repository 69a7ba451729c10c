// Giving files the indexes they lack (js/index-builder/): `index add` throughput on generated DuckDB
// files without filters (an INT64 column, a string column, each ≥ 1 GiB unless --quick; input MB/s on one
// core, peak memory of the process above its start), and a sidecar index's probe of many files over HTTP
// (rounds, requests, bytes) beside probing each file's footer without it, measured side by side in one run.
// Memory is the kernel's peak RSS (getrusage maxRSS) of a child process above its RSS just before the
// copy starts (tests/js/helpers/measure-add.js): it counts everything — JS heap, ArrayBuffers, every wasm
// memory (ours and the snappy decoder's), native buffers — with no sampling gap, and over-counts rather
// than under-counts (any peak before the baseline stays in it). JS heap + external is shown beside it.
import { mkdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

import { openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { withDuckDB } from '../../tests/js/helpers/duckdb.js'
import { withTempDir } from '../../tests/js/helpers/temp-dir.js'
import { measureAddInChild } from '../../tests/js/helpers/measure-add.js'
import { runIfMain } from '../lib/section.js'
import { startServer } from './rounds.js'

const MiB = 1 << 20

async function throughput(dir, quick) {
  // Full runs: ≥ 1 GiB each (≈ 8 bytes a row for the INT64 hashes, ≈ 10.7 for the strings, snappy).
  const rows = quick ? 4_000_000 : 136_000_000
  const stringRows = quick ? 2_000_000 : 102_000_000
  return withDuckDB(async (conn) => {
    const cases = [
      ['INT64', 'id', `SELECT (hash(i) >> 1)::BIGINT AS id FROM range(${rows}) t(i)`],
      ['STRING (≈ 12 B)', 'name', `SELECT 'u' || (hash(i) % 100000000000)::VARCHAR AS name FROM range(${stringRows}) t(i)`],
    ]
    const out = []
    for (const [label, column, select] of cases) {
      const input = path.join(dir, `${column}.parquet`)
      await conn.run(`COPY (${select}) TO '${input}' (FORMAT parquet, COMPRESSION snappy)`)
      const bytes = statSync(input).size
      const output = path.join(dir, `${column}-indexed.parquet`)
      const run = measureAddInChild(input, output, column)
      // The same copy under Node's default heap flags: its young generation (up to 3 × 16 MiB) holds garbage too.
      const defaults = measureAddInChild(input, output, column, [])
      out.push({ case: label, inputBytes: bytes, ...run, mbPerSecond: bytes / MiB / (run.ms / 1000), defaultFlagsPeakAboveStartBytes: defaults.peakAboveStartBytes })
      rmSync(input)
      rmSync(output)
    }
    return out
  })
}

async function sidecarProbe(dir, quick) {
  const files = quick ? 50 : 200
  const data = path.join(dir, 'dataset')
  mkdirSync(data)
  await withDuckDB(async (conn) => {
    for (let f = 0; f < files; f++) {
      await conn.run(`COPY (SELECT (hash(i + ${f * 20000}) % 1000000000000)::BIGINT AS id FROM range(20000) t(i)) TO '${path.join(data, `p${f}.parquet`)}' (FORMAT parquet, ROW_GROUP_SIZE 10240)`)
    }
  })
  const indexPath = path.join(data, '_index.puffin')
  const started = performance.now()
  await buildSidecarIndex([data], indexPath, { columns: ['id'] })
  const buildMs = performance.now() - started
  const server = await startServer(dir, ['slow:20'])
  try {
    const value = [123456789n]
    let t = performance.now()
    const index = await openSidecarIndex(`${server.origin}/dataset/_index.puffin`, { base: data + path.sep })
    await index.probe('id', value, { validate: false })
    const sidecar = { ...index.stats, ms: performance.now() - t }
    await index.close()
    t = performance.now()
    let requests = 0
    let bytes = 0
    let rounds = 0
    await Promise.all(Array.from({ length: files }, async (_, f) => {
      const file = await openParquet(`${server.origin}/dataset/p${f}.parquet`)
      try {
        await file.probe('id', value)
        requests += file.stats.requests
        bytes += file.stats.bytesFetched
        rounds = Math.max(rounds, file.stats.rounds)
      } finally {
        await file.close()
      }
    }))
    const footers = { requests, bytesFetched: bytes, rounds, ms: performance.now() - t }
    return { files, rowGroups: files * 2, indexBytes: statSync(indexPath).size, buildMs, sidecar, footers }
  } finally {
    await server.stop()
  }
}

export async function run({ quick } = {}) {
  return withTempDir('bench-index', async (dir) => ({ add: await throughput(dir, quick), sidecar: await sidecarProbe(dir, quick) }))
}

runIfMain(import.meta.url, run)
