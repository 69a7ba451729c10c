// Sidecar index formats side by side at scale (docs/sidecar-index.md): 100,000 files × 10 row groups (2,000
// with --quick), one INT64 column, a synthetic index written by writeSidecarFiles (each chunk a 32-byte
// filter with ~25% of its bits set, one known value inserted in one chunk — the generator is the truth),
// probed over a server that waits 30 ms per response (a child process: the client's CPU and RSS are this
// process's), with a listing that gives every file's size and validator. Per format: cold (open + one
// absent value) and warm (the index kept, another value) rounds, requests, HEADs, bytes, client CPU and RSS
// growth (sampled every 5 ms); and format 2's size model at 1,000,000 files. Client CPU of a cold probe
// is also taken where only the client runs: a fresh process (bench/lib/cold.js) that opens the index and
// probes once (wasm loaded in the timed call) — in this process the collection of what writing the index
// left behind falls in whatever is measured next, hundreds of ms from run to run.
import { mkdirSync } from 'node:fs'
import path from 'node:path'

import { init } from '../../js/index.js'
import { openSidecarIndex } from '../../js/index-builder/index.js'
import { writeSidecarFiles } from '../../js/index-builder/sidecar-build.js'
import { referenceHash, rng } from '../../testkit/reference-sbbf.js'
import { sbbfInsert } from 'hyparquet/src/bloom.js'
import { withTempDir } from '../../testkit/temp-dir.js'
import { runIfMain } from '../lib/section.js'
import { coldRun, summarizeCold, timeFirstCall } from '../lib/cold.js'
import { startServer } from './rounds.js'

const GROUPS = 10
const TYPE = { physicalType: 'INT64', typeLength: null, logicalType: null }
const PRESENT = 987654321n
const ABSENT = [123456789n, 555555555n]

/** File f's path, size and validator, as a listing gives them. */
export function listed(f) {
  return { path: `part-${String(f).padStart(7, '0')}.parquet`, size: 100_000 + f, validator: `etag:"${(f * 2654435761 >>> 0).toString(16).padStart(8, '0')}-${f}"` }
}

/** The synthetic files: file `holder`, row group 4 holds PRESENT. */
export function* synthetic(files, holder) {
  const random = rng(23)
  for (let f = 0; f < files; f++) {
    const rowGroups = []
    for (let g = 0; g < GROUPS; g++) {
      const words = new Uint32Array(8)
      for (let w = 0; w < 8; w++) for (let b = 0; b < 32; b++) if (random() < 0.25) words[w] |= 1 << b
      if (f === holder && g === 4) sbbfInsert(words, referenceHash(PRESENT, 'INT64'))
      rowGroups.push({ numRows: 1000, chunks: { id: { bitset: new Uint8Array(words.buffer), min: '0', max: '9000000000' } } })
    }
    yield { ...listed(f), numRows: GROUPS * 1000, columns: { id: TYPE }, rowGroups }
  }
}

/** Runs fn, sampling RSS every 5 ms: its result, ms, client CPU ms and RSS growth. */
async function measured(fn) {
  const base = process.memoryUsage().rss
  let peak = base
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 5)
  const cpu = process.cpuUsage()
  const started = performance.now()
  try {
    const result = await fn()
    peak = Math.max(peak, process.memoryUsage().rss)
    const used = process.cpuUsage(cpu)
    return { result, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, rssGrowthBytes: peak - base }
  } finally {
    clearInterval(timer)
  }
}

async function probeFormat(origin, name, files, listing, holder) {
  const url = `${origin}/${name}`
  let index
  const before = { requests: 0, bytesFetched: 0, rounds: 0, heads: 0 }
  const cold = await measured(async () => {
    // Format 1 reads its directory whole (~84 MB at 100,000 files): beyond the default maxBytes.
    index = await openSidecarIndex(url, { maxBytes: 512 * 1024 * 1024 })
    return index.probe('id', [ABSENT[0]], { files: listing })
  })
  const afterCold = { ...index.stats }
  const warm = await measured(() => index.probe('id', [ABSENT[1]], { files: listing }))
  const afterWarm = { ...index.stats }
  const present = await index.probe('id', [PRESENT], { files: [listing[holder]] })
  await index.close()
  const falseNegative = present.files[0].rowGroups[4].results[0].verdict === 'absent'
  const absentAnswered = cold.result.files.reduce((n, f) => n + f.rowGroups.filter((g) => g.results[0].verdict === 'absent').length, 0)
  const delta = (a, b) => ({ requests: a.requests - b.requests, heads: a.heads - b.heads, bytes: a.bytesFetched - b.bytesFetched, rounds: a.rounds - b.rounds })
  return {
    cold: { ...delta(afterCold, before), ms: cold.ms, cpuMs: cold.cpuMs, rssGrowthBytes: cold.rssGrowthBytes, absentChunks: absentAnswered, chunks: files * GROUPS },
    warm: { ...delta(afterWarm, afterCold), ms: warm.ms, cpuMs: warm.cpuMs, rssGrowthBytes: warm.rssGrowthBytes },
    falseNegative,
  }
}

/** Format 2's bytes for a cold one-value probe of `files` files × `groups` row groups (docs/sidecar-index.md "Size model"). */
export function sizeModel(files, groups = GROUPS, { pageFiles = 64, segmentChunks = 1 << 20 } = {}) {
  // Per file a 4-byte locator and a row-group count; per page of 64 files its table entry (16) and digest (8).
  const filesBlob = files * 5 + Math.ceil(files / pageFiles) * 24
  const chunks = files * groups
  const regions = Math.ceil(chunks / segmentChunks)
  const rows = 8 * (Math.ceil(chunks / 8) + regions)
  return { files, groups, filesBlobBytes: filesBlob, bitRowBytes: rows, coldBytes: filesBlob + rows, warmBytes: rows }
}

export async function run({ quick } = {}) {
  await init()
  const files = Number(process.env.PB_SIDECAR_FILES) || (quick ? 2_000 : 100_000)
  const holder = Math.floor(files * 0.37)
  // PB_SIDECAR_FORMATS=2 measures format 2 alone (format 1 at full scale takes minutes).
  const formats = (process.env.PB_SIDECAR_FORMATS ?? '2,1').split(',').map(Number)
  return withTempDir('bench-sidecar-formats', async (dir) => {
    const data = path.join(dir, 'idx')
    mkdirSync(data)
    const written = {}
    for (const format of formats) {
      const started = performance.now()
      const { bytesWritten } = await writeSidecarFiles(synthetic(files, holder), path.join(data, `v${format}.puffin`), { format, columns: ['id'] })
      written[format] = { bytes: bytesWritten, ms: performance.now() - started }
    }
    // The listing alone (not the synthetic filters, whose garbage would be collected during the probes measured).
    const listing = Array.from({ length: files }, (_, f) => listed(f))
    const server = await startServer(data, ['slow:30'])
    try {
      const out = { files, rowGroups: files * GROUPS, latencyMs: 30 }
      for (const format of formats) {
        out[`format${format}`] = { indexBytes: written[format].bytes, writeMs: written[format].ms, ...await probeFormat(server.origin, `v${format}.puffin`, files, listing, holder) }
        if (format !== 2) continue
        const runs = []
        for (let t = 0; t < (quick ? 1 : 3); t++) runs.push(await coldRun(import.meta.url, 'probe', { args: ['--url', `${server.origin}/v${format}.puffin`, '--files', String(files)] }))
        out[`format${format}`].coldFresh = { ...summarizeCold(runs), rounds: runs[0].rounds, bytes: runs[0].bytesFetched, absentChunks: runs[0].absentChunks }
      }
      out.sizeModel = [sizeModel(10_000), sizeModel(100_000), sizeModel(1_000_000)]
      return out
    } finally {
      await server.stop()
    }
  })
}

/** A cold case: open + one absent value over the listing, the first of a fresh process (the listing made untimed: it is the caller's). */
async function coldProbe({ rest }) {
  const arg = (name) => rest[rest.indexOf(name) + 1]
  const listing = Array.from({ length: Number(arg('--files')) }, (_, f) => listed(f))
  let index
  const timed = await timeFirstCall(async () => {
    index = await openSidecarIndex(arg('--url'))
    const { files } = await index.probe('id', [ABSENT[0]], { files: listing })
    return { absentChunks: files.reduce((n, f) => n + f.rowGroups.filter((g) => g.results[0].verdict === 'absent').length, 0) }
  })
  const stats = { ...index.stats }
  await index.close()
  return { ...timed, ...stats }
}

runIfMain(import.meta.url, run, { probe: coldProbe })
