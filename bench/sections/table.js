// An Iceberg v2 table of 1,000 data files in 50 manifests (testkit/iceberg-writer.js:
// hyparquet-writer files, disjoint id bounds, identity partitions by day, one day per manifest), one
// stored id and its day, a server in its own process waiting 30 ms per response: openTable cold
// (pointer, metadata.json, manifest list, then the manifests the probe needs — all 50 for an id, the
// one whose partition summary holds the day for a day — then the dataset's footer and index reads of
// the files the metadata keeps) and warm (the unchanged table again with the same footer cache:
// manifests neither read nor decoded again), with the client's CPU time; beside it the CPU of decoding
// the 50 manifests again, which every warm open spent before manifests were kept decoded; against
// per-file probing of the same data files without the table metadata (openDataset over their URLs),
// cold and warm. Interleaved trials, medians.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { createFooterCache, openDataset, openTable } from '../../js/index.js'
import { readFileSync } from 'node:fs'

import { readAvroFile } from '../../js/table/avro.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { timeFirstCall } from '../lib/cold.js'
import { startServerProcess } from '../lib/range-server-fork.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const FILES = 1000
const MANIFESTS = 50

const kept = (result) => result.files.filter((f) => f.values[0].verdict !== 'absent').length

/** openTable + probe: what opening read (pointer, metadata, manifest list) added to the probe's (manifests, files). */
async function tableProbe(url, column, value, options) {
  const table = await openTable(url, options)
  const open = table.table.metadataStats
  const result = await table.probe(column, [value])
  return { rounds: open.rounds + result.stats.rounds, metadataRounds: table.table.metadataStats.rounds, requests: open.requests + result.stats.requests,
    bytes: open.bytesFetched + result.stats.bytes, kept: kept(result), opened: result.stats.filesOpened, manifestsRead: result.manifests.read, manifestsSkipped: result.manifests.skipped }
}

async function datasetProbe(dataset, value) {
  const result = await dataset.probe('id', [value])
  return { rounds: result.stats.rounds, metadataRounds: 0, requests: result.stats.requests, bytes: result.stats.bytes, kept: kept(result), opened: result.stats.filesOpened, manifestsRead: null, manifestsSkipped: null }
}

export async function run({ quick } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-table-'))
  let server
  try {
    const written = await writeIcebergTable(dir, { files: FILES, manifests: MANIFESTS })
    const value = written.files[617].ids[11]
    const day = written.files[617].day
    const manifestBytes = Array.from({ length: written.manifests }, (_, m) => readFileSync(path.join(dir, `metadata/manifest-${String(m).padStart(3, '0')}-m0.avro`)))
    server = await startServerProcess(dir, 'slow:30', 'etag')
    const tableUrl = `${server.origin}/`
    const fileUrls = written.files.map((f) => ({ path: f.path, location: `${server.origin}/${f.path}` }))
    const trials = quick ? 2 : 5
    const runs = { tableCold: [], tableWarm: [], tableColdDay: [], tableWarmDay: [], decodeManifests: [], perFileCold: [], perFileWarm: [] }
    for (let t = -1; t < trials; t++) { // trial -1 warms up wasm, connections and the JIT
      const record = (name, r) => { if (t >= 0) runs[name].push(r) }
      clearTableCache()
      const footerCache = createFooterCache()
      record('tableCold', await timeFirstCall(() => tableProbe(tableUrl, 'id', value, { footerCache })))
      record('tableWarm', await timeFirstCall(() => tableProbe(tableUrl, 'id', value, { footerCache, format: 'iceberg' })))
      clearTableCache()
      const dayCache = createFooterCache()
      record('tableColdDay', await timeFirstCall(() => tableProbe(tableUrl, 'day', day, { footerCache: dayCache })))
      record('tableWarmDay', await timeFirstCall(() => tableProbe(tableUrl, 'day', day, { footerCache: dayCache, format: 'iceberg' })))
      record('decodeManifests', await timeFirstCall(async () => {
        await Promise.all(manifestBytes.map((b, m) => readAvroFile(new Uint8Array(b), `manifest ${m}`)))
        return { rounds: 0, metadataRounds: 0, requests: 0, bytes: 0, kept: null, opened: 0, manifestsRead: manifestBytes.length, manifestsSkipped: 0 }
      }))
      const dataset = await openDataset(fileUrls, { footerCache: createFooterCache() })
      record('perFileCold', await timeFirstCall(() => datasetProbe(dataset, value)))
      record('perFileWarm', await timeFirstCall(() => datasetProbe(dataset, value)))
    }
    const summary = (name) => ({ ...runs[name][0], ms: median(runs[name].map((r) => r.ms)), cpuMs: median(runs[name].map((r) => r.cpuMs)) })
    return { files: FILES, manifests: written.manifests, rowsPerFile: written.rows, responseDelayMs: 30, trials, value: String(value), day,
      plans: Object.fromEntries(Object.keys(runs).map((name) => [name, summary(name)])) }
  } finally {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
