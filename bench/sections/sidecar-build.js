// Sidecar index builds at scale (js/index-builder/build-plan.js): 10,000 files × 10 row groups
// (hyparquet-writer, 1,000 with --quick) built from their URLs over a server that waits 30 ms per
// response, in a child process whose peak RSS (getrusage maxRSS) and CPU time are reported; beside it,
// in the same run, the files read one at a time (concurrency 1) on a slice of them, extrapolated; a
// local build of the same files; and the build in 16 shards, merged, checked byte for byte against the
// one-shot index and probed for stored values (the generator's truth: no false negative allowed).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { withTempDir } from '../../testkit/temp-dir.js'
import { datasetFileName, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { runIfMain } from '../lib/section.js'
import { startServer } from './rounds.js'

const here = fileURLToPath(import.meta.url)
const LATENCY_MS = 30
const SHARDS = 16
const GROUPS = 10
const GROUP_ROWS = 32

/** In a child process: one build (or shard builds and a merge) of the URLs in `listFile`; its time, CPU and peak RSS. */
async function child([mode, listFile, out, concurrency]) {
  const { buildSidecarIndex, mergeSidecarSegments } = await import('../../js/index-builder/index.js')
  const inputs = JSON.parse(readFileSync(listFile, 'utf8'))
  const startRss = process.memoryUsage().rss
  const usage = process.resourceUsage()
  const started = performance.now()
  const options = { columns: ['id'], ...(concurrency ? { concurrency: Number(concurrency) } : {}) }
  let shardMs
  if (mode === 'shards') {
    const segments = []
    for (let i = 0; i < SHARDS; i++) {
      segments.push(`${out}.${i}`)
      await buildSidecarIndex(inputs, segments[i], { ...options, base: path.dirname(out), shard: { index: i, count: SHARDS } })
    }
    shardMs = performance.now() - started
    await mergeSidecarSegments(segments, out)
  } else {
    await buildSidecarIndex(inputs, out, options)
  }
  const ms = performance.now() - started
  const after = process.resourceUsage()
  const cpuMs = (after.userCPUTime - usage.userCPUTime + after.systemCPUTime - usage.systemCPUTime) / 1000
  process.stdout.write(JSON.stringify({ files: inputs.length, ms, cpuMs, shardMs, peakRssBytes: after.maxRSS * 1024, startRssBytes: startRss }))
}

function inChild(...args) {
  process.stderr.write(`[sidecar-build] ${args[0]} ${path.basename(args[1])}${args[3] ? ` concurrency ${args[3]}` : ''}…\n`)
  return JSON.parse(execFileSync(process.execPath, [here, '--child', ...args.map(String)], { encoding: 'utf8', maxBuffer: 1 << 20 }))
}

/** Stored values spread over all files (`count` of them, 20 per probe) must be maybe in their file and row group; returns how many were checked. */
async function checkStored(indexFile, files, count) {
  const { openSidecarIndex } = await import('../../js/index-builder/index.js')
  const index = await openSidecarIndex(indexFile)
  try {
    const rowsPerFile = GROUPS * GROUP_ROWS
    const rows = files * rowsPerFile
    for (let first = 0; first < count; first += 20) {
      const present = Array.from({ length: Math.min(20, count - first) }, (_, k) => Math.floor(((first + k) * rows) / count) + 7)
      const probed = await index.probe('id', present.map(storedValue), { validate: false })
      const byName = new Map(probed.files.map((f) => [path.basename(f.path), f]))
      present.forEach((n, k) => {
        const file = byName.get(datasetFileName(Math.floor(n / rowsPerFile)))
        if (file?.rowGroups[Math.floor((n % rowsPerFile) / GROUP_ROWS)].results[k].verdict !== 'maybe') throw new Error(`a false negative: row ${n}`)
      })
    }
    return count
  } finally {
    await index.close()
  }
}

export async function run({ quick } = {}) {
  const files = quick ? 1000 : 10_000
  const slice = quick ? 50 : 200
  return withTempDir('bench-sidecar-build', async (dir) => {
    const data = path.join(dir, 'data')
    mkdirSync(data)
    let t = performance.now()
    await writeSidecarDataset(data, { files, groups: GROUPS, groupRows: GROUP_ROWS })
    const writeMs = performance.now() - t
    const server = await startServer(dir, [`slow:${LATENCY_MS}`])
    try {
      const urls = Array.from({ length: files }, (_, f) => `${server.origin}/data/${datasetFileName(f)}`)
      const list = path.join(dir, 'urls.json')
      writeFileSync(list, JSON.stringify(urls))
      const sliceList = path.join(dir, 'slice.json')
      writeFileSync(sliceList, JSON.stringify(urls.slice(0, slice)))
      const localList = path.join(dir, 'local.json')
      writeFileSync(localList, JSON.stringify([data]))
      const oneShot = inChild('build', list, path.join(dir, 'whole.puffin'))
      const oneAtATime = inChild('build', sliceList, path.join(dir, 'slice.puffin'), 1)
      const local = inChild('build', localList, path.join(data, '_local.puffin'))
      const shards = inChild('shards', list, path.join(dir, 'merged.puffin'))
      const identical = readFileSync(path.join(dir, 'merged.puffin')).equals(readFileSync(path.join(dir, 'whole.puffin')))
      const checked = await checkStored(path.join(dir, 'merged.puffin'), files, 200)
      return { files, rowGroups: files * GROUPS, latencyMs: LATENCY_MS, writeMs, oneShot, oneAtATime, local: { ...local, files }, shards: { ...shards, count: SHARDS, identical, checked } }
    } finally {
      await server.stop()
    }
  })
}

if (process.argv[2] === '--child') await child(process.argv.slice(3))
else runIfMain(import.meta.url, run)
