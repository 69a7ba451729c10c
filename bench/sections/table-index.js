// A table index at scale: an Iceberg v2 table of 10,000 data files in 50 manifests
// (testkit/iceberg-writer.js) and a Delta log of 20 commits over the same files
// (testkit/delta-appends-writer.js), each with a table index of `id` (buildSidecarIndex(null, …, { table }),
// fpp 0.001). A server in its own process waits 30 ms per response. Per format, side by side in each trial,
// a cold openTable + one id probe without the index and with it; then, after one more append (a snapshot
// of one new file; a commit adding one), with the index again: the manifests or commits read, the
// metadata and index requests, rounds, bytes, files opened, wall and client CPU time. Interleaved trials, medians.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { createFooterCache, openTable } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { appendIcebergSnapshot, writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { appendDeltaCommit, writeDeltaLog } from '../../testkit/delta-appends-writer.js'
import { timeFirstCall } from '../lib/cold.js'
import { startServerProcess } from '../lib/range-server-fork.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const FILES = 10_000
const MANIFESTS = 50
const COMMITS = 20
const ROWS = 16
const FPP = 0.001

/** A cold openTable + one probe: the metadata's reads, the index's, the dataset's, and which files the probe kept. */
async function openAndProbe(url, value, options) {
  clearTableCache()
  const table = await openTable(url, { footerCache: createFooterCache(), ...options })
  const result = await table.probe('id', [value])
  const t = table.table
  await table.close()
  const meta = t.metadataStats
  const index = t.index?.reads ?? {}
  return {
    metadataRequests: meta.requests, metadataBytes: meta.bytesFetched, metadataRounds: meta.rounds,
    manifestsRead: result.manifests?.fetched ?? null, commitsRead: t.index?.commitsRead ?? null, unchanged: t.index?.unchanged ?? null,
    indexRequests: index.requests ?? 0, indexBytes: index.bytesFetched ?? 0, indexRounds: index.rounds ?? 0,
    probeRounds: result.stats.rounds, probeRequests: result.stats.requests, probeBytes: result.stats.bytes, filesOpened: result.stats.filesOpened,
    kept: result.files.filter((f) => f.values[0].verdict !== 'absent').map((f) => f.path),
  }
}

export async function run({ quick } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-table-index-'))
  let server
  try {
    const root = path.join(dir, 'table')
    let iceberg = await writeIcebergTable(root, { files: FILES, manifests: MANIFESTS, rows: ROWS })
    let delta = await writeDeltaLog(root, iceberg.files, { commits: COMMITS, rows: ROWS })
    const builds = {}
    for (const format of ['iceberg', 'delta']) {
      const started = performance.now()
      const built = await buildSidecarIndex(null, path.join(dir, `${format}.puffin`), { table: { location: root, format }, columns: ['id'], fpp: FPP })
      builds[format] = { seconds: (performance.now() - started) / 1000, bytes: built.bytesWritten, files: built.files }
    }
    const target = iceberg.files[6173]
    const value = target.ids[5]
    server = await startServerProcess(dir, 'slow:30')
    const tableUrl = `${server.origin}/table/`
    const indexUrl = (format) => `${server.origin}/${format}.puffin`
    const trials = quick ? 1 : 3
    const runs = {}
    const record = (t, name, r) => { if (t >= 0) (runs[name] ??= []).push(r) }
    for (let t = -1; t < trials; t++) { // trial -1 warms up wasm, connections and the JIT
      for (const format of ['iceberg', 'delta']) {
        record(t, `${format} without index`, await timeFirstCall(() => openAndProbe(tableUrl, value, { format })))
        record(t, `${format} with index`, await timeFirstCall(() => openAndProbe(tableUrl, value, { format, index: indexUrl(format) })))
      }
    }
    // One more append to each: a snapshot of one new file, a commit adding one.
    iceberg = await appendIcebergSnapshot(iceberg, { files: 1 })
    delta = await appendDeltaCommit({ ...delta, files: iceberg.files.slice(0, FILES) }, { files: 1 })
    const appended = { iceberg: iceberg.added[0], delta: delta.added[0] }
    for (let t = -1; t < trials; t++) {
      for (const format of ['iceberg', 'delta']) {
        record(t, `${format} with index, after one append`, await timeFirstCall(() => openAndProbe(tableUrl, appended[format].ids[1], { format, index: indexUrl(format) })))
      }
    }
    const summary = (name) => ({ ...runs[name][0], kept: runs[name][0].kept.length, ms: median(runs[name].map((r) => r.ms)), cpuMs: median(runs[name].map((r) => r.cpuMs)) })
    const correct = Object.entries(runs).every(([name, rs]) => rs.every((r) => r.kept.length === 1 && r.kept[0] === (name.includes('append') ? appended[name.split(' ')[0]].path : target.path)))
    return { files: FILES, manifests: MANIFESTS, commits: COMMITS, rowsPerFile: ROWS, fpp: FPP, responseDelayMs: 30, trials, value: String(value), builds, correct,
      plans: Object.fromEntries(Object.keys(runs).map((name) => [name, summary(name)])) }
  } finally {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
