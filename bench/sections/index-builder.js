// Giving files the indexes they lack (js/index-builder/): `index add` throughput on generated DuckDB
// files without filters (an INT64 column, a string column, each ≥ 1 GiB unless --quick; input MB/s on one
// core, peak memory of the process above its start), and a sidecar index's probe of many files over HTTP
// (rounds, requests, bytes) beside probing each file's footer without it, measured side by side in one run:
// 200 DuckDB files, and 10,000 files × 10 row groups at scale (hyparquet-writer, 500 with --quick),
// whose megabytes of directory the first probe reads in one wave with its blocks; with the false-positive
// rate measured on values known to be absent.
// Memory is the kernel's peak RSS (getrusage maxRSS) of a child process above its RSS just before the
// copy starts (testkit/measure-add.js): it counts everything — JS heap, ArrayBuffers, every wasm
// memory (ours and the snappy decoder's), native buffers — with no sampling gap, and over-counts rather
// than under-counts (any peak before the baseline stays in it). JS heap + external is shown beside it.
import { mkdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

import { openDataset, openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { withTempDir } from '../../testkit/temp-dir.js'
import { measureAddInChild } from '../../testkit/measure-add.js'
import { datasetFileName, directoryLength, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
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
  await buildSidecarIndex([data], indexPath, { format: 1, columns: ['id'] })
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

/**
 * At scale: a one-value probe of 10,000 files × 10 row groups through a sidecar index (open + probe, the
 * directory read by the probe) beside the same probe of every file's footer (a dataset of the URLs, its
 * requests a window at a time), over a server that waits 20 ms per response. Target: 2 rounds, at most
 * files × row groups × 32 bytes of blocks beside the directory.
 */
async function sidecarAtScale(dir, quick) {
  const files = quick ? 500 : 10_000
  const groups = 10
  const data = path.join(dir, 'scale')
  mkdirSync(data)
  let started = performance.now()
  const { where } = await writeSidecarDataset(data, { files, groups, groupRows: 32 })
  const writeMs = performance.now() - started
  const indexPath = path.join(data, '_index.puffin')
  started = performance.now()
  await buildSidecarIndex([data], indexPath, { format: 1, columns: ['id'] })
  const buildMs = performance.now() - started
  const directoryBytes = await directoryLength(indexPath)
  const server = await startServer(dir, ['slow:20'])
  try {
    const n = Math.floor(files * groups * 32 * 0.43) + 5
    const value = storedValue(n)
    const { file: holder, rowGroup } = where(n)
    let t = performance.now()
    const index = await openSidecarIndex(`${server.origin}/scale/_index.puffin`)
    let sidecar
    let fpp
    try {
      const probed = await index.probe('id', [value], { validate: false })
      sidecar = { ...index.stats, ms: performance.now() - t }
      if (probed.files[holder].rowGroups[rowGroup].results[0].verdict === 'absent') throw new Error(`sidecar: a false negative in ${datasetFileName(holder)}, row group ${rowGroup}`)
      // Values ≡ 1 (mod 3) are stored nowhere: the share of (value, row group) pairs the filters leave open.
      const absent = Array.from({ length: 4 }, (_, i) => BigInt(i) * 1_610_612_731n + 1n)
      let open = 0
      let decided = 0
      for (const f of (await index.probe('id', absent, { validate: false })).files) {
        for (const g of f.rowGroups) for (const r of g.results) if (r.source === 'bloom-filter') { decided++; if (r.verdict !== 'absent') open++ }
      }
      fpp = { pairs: decided, measured: open / decided, target: 0.01 }
    } finally {
      await index.close()
    }
    t = performance.now()
    const dataset = await openDataset(Array.from({ length: files }, (_, f) => `${server.origin}/scale/${datasetFileName(f)}`))
    let footers
    try {
      const { stats, files: answered } = await dataset.probe('id', [value])
      if (answered[holder].values[0].verdict === 'absent') throw new Error(`footers: a false negative in ${datasetFileName(holder)}`)
      footers = { requests: stats.requests, bytesFetched: stats.bytes, rounds: stats.rounds, ms: performance.now() - t }
    } finally {
      await dataset.close()
    }
    const blockBytes = sidecar.bytesFetched - Math.min(statSync(indexPath).size, 256 * 1024) - directoryBytes
    return { files, rowGroups: files * groups, indexBytes: statSync(indexPath).size, directoryBytes, writeMs, buildMs,
      blockBytes, blockBound: files * groups * 32, sidecar, footers, fpp }
  } finally {
    await server.stop()
  }
}

export async function run({ quick } = {}) {
  return withTempDir('bench-index', async (dir) => ({ add: await throughput(dir, quick), sidecar: await sidecarProbe(dir, quick), sidecarAtScale: await sidecarAtScale(dir, quick) }))
}

runIfMain(import.meta.url, run)
