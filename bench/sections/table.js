// An Iceberg v2 table of 1,000 data files in 50 manifests (tests/js/helpers/iceberg-writer.js:
// hyparquet-writer files, disjoint id bounds, identity partitions by day), one stored id, a server in
// its own process waiting 30 ms per response: openTable cold (pointer, metadata.json, manifest list,
// manifests, then the dataset's footer and index reads of the files the metadata keeps) and warm (the
// unchanged table again with the same footer cache), against per-file probing of the same data files
// without the table metadata (openDataset over their URLs), cold and warm. Interleaved trials, medians.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { createFooterCache, openDataset, openTable } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { writeIcebergTable } from '../../tests/js/helpers/iceberg-writer.js'
import { startServerProcess } from '../lib/range-server-fork.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const FILES = 1000
const MANIFESTS = 50

const kept = (result) => result.files.filter((f) => f.values[0].verdict !== 'absent').length

async function timed(fn) {
  const started = performance.now()
  const out = await fn()
  return { ...out, ms: performance.now() - started }
}

/** openTable + probe: metadata rounds and requests added to the probe's. */
async function tableProbe(url, value, options) {
  const table = await openTable(url, options)
  const result = await table.probe('id', [value])
  const m = table.table.metadataStats
  return { rounds: m.rounds + result.stats.rounds, metadataRounds: m.rounds, requests: m.requests + result.stats.requests, bytes: m.bytesFetched + result.stats.bytes, kept: kept(result), opened: result.stats.filesOpened }
}

async function datasetProbe(dataset, value) {
  const result = await dataset.probe('id', [value])
  return { rounds: result.stats.rounds, metadataRounds: 0, requests: result.stats.requests, bytes: result.stats.bytes, kept: kept(result), opened: result.stats.filesOpened }
}

export async function run({ quick } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-table-'))
  let server
  try {
    const written = await writeIcebergTable(dir, { files: FILES, manifests: MANIFESTS })
    const value = written.files[617].ids[11]
    server = await startServerProcess(dir, 'slow:30', 'etag')
    const tableUrl = `${server.origin}/`
    const fileUrls = written.files.map((f) => ({ path: f.path, location: `${server.origin}/${f.path}` }))
    const trials = quick ? 2 : 5
    const runs = { tableCold: [], tableWarm: [], perFileCold: [], perFileWarm: [] }
    for (let t = -1; t < trials; t++) { // trial -1 warms up wasm, connections and the JIT
      const record = (name, r) => { if (t >= 0) runs[name].push(r) }
      clearTableCache()
      const footerCache = createFooterCache()
      record('tableCold', await timed(() => tableProbe(tableUrl, value, { footerCache })))
      record('tableWarm', await timed(() => tableProbe(tableUrl, value, { footerCache, format: 'iceberg' })))
      const dataset = await openDataset(fileUrls, { footerCache: createFooterCache() })
      record('perFileCold', await timed(() => datasetProbe(dataset, value)))
      record('perFileWarm', await timed(() => datasetProbe(dataset, value)))
    }
    const summary = (name) => ({ ...runs[name][0], ms: median(runs[name].map((r) => r.ms)) })
    return { files: FILES, manifests: written.manifests, rowsPerFile: written.rows, responseDelayMs: 30, trials, value: String(value),
      plans: Object.fromEntries(Object.keys(runs).map((name) => [name, summary(name)])) }
  } finally {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
