// Big footers: from footer bytes to "ready to probe" for a synthetic FileMetaData of 10,000 row groups ×
// 50 columns. Ours = decodeFileMetaData (wasm two-pass lean decoder + JS schema/leaf build); hyparquet =
// parquetMetadata on the same bytes (+ length + PAR1). Time is interleaved in one process; memory is
// measured in fresh child processes (--expose-gc), one side each, so neither sees the other's heap.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { parquetMetadata } from 'hyparquet'

import { init } from '../../js/index.js'
import { getCore } from '../../js/core.js'
import { decodeFileMetaData } from '../../js/footer.js'
import { runIfMain } from '../lib/section.js'
import { bigFooter, withFileTail } from '../lib/synthetic-parquet.js'
import { interleave, median, timeCalls } from '../lib/timing.js'

const self = fileURLToPath(import.meta.url)
export const FOOTER_SHAPE = { rowGroups: 10000, quickRowGroups: 2000, columns: 50 }

const sides = {
  ours: (metadata) => decodeFileMetaData(metadata),
  hyparquet: (metadata, file) => parquetMetadata(file.buffer),
}

/** One side, once, in this (fresh) process: time and memory from bytes to ready-to-probe. */
async function childMeasure(side, footerPath) {
  const metadata = new Uint8Array(readFileSync(footerPath))
  const file = withFileTail(metadata)
  await init()
  const core = getCore()
  const heap = () => {
    const m = process.memoryUsage()
    return m.heapUsed + m.arrayBuffers
  }
  globalThis.gc()
  globalThis.gc()
  const wasmBefore = core.m.HEAPU8.length
  const before = heap()
  const start = performance.now()
  const result = sides[side](metadata, file)
  const ms = performance.now() - start
  const transient = heap() - before
  globalThis.gc()
  globalThis.gc()
  const retained = heap() - before
  const wasmGrowth = core.m.HEAPU8.length - wasmBefore
  const rowGroups = side === 'ours' ? result.rowGroupRows.length : result.row_groups.length
  return { coldMs: ms, jsHeapRetainedBytes: retained, jsHeapAfterParseBytes: transient, wasmGrowthBytes: wasmGrowth, rowGroups }
}

/**
 * Our decoder's stages, timed through the raw module right after a full decodeFileMetaData call in the
 * same trial: copy in, pass one, pass two; the JS part (leaf/schema build, record copy-out, pool calls)
 * is the full call minus those, per trial, then the median.
 */
function oursBreakdown(metadata, trials) {
  const core = getCore()
  const stage = { total: [], copyIn: [], summaryPass: [], recordsPass: [], jsRest: [] }
  for (let t = 0; t < trials; t++) {
    const total = timeCalls(() => decodeFileMetaData(metadata), 1)
    const ptr = core.acquire(metadata.length + 48)
    try {
      const bytes = ptr + 48
      const copyIn = timeCalls(() => core.u8.set(metadata, bytes), 1)
      const summaryPass = timeCalls(() => core.m.decodeFooterSummary(bytes, metadata.length, ptr), 1)
      const i32 = core.i32
      const [schemaCount, rowGroupCount, chunkCount] = [i32[(ptr >> 2) + 1], i32[(ptr >> 2) + 2], i32[(ptr >> 2) + 3]]
      const records = core.acquire(chunkCount * 72 + rowGroupCount * 16 + schemaCount * 56 + 16)
      let recordsPass
      try {
        recordsPass = timeCalls(() => core.m.decodeFooterRecords(bytes, metadata.length, ptr, records + chunkCount * 72 + rowGroupCount * 16, records + chunkCount * 72, records), 1)
      } finally {
        core.release(records)
      }
      stage.total.push(total)
      stage.copyIn.push(copyIn)
      stage.summaryPass.push(summaryPass)
      stage.recordsPass.push(recordsPass)
      stage.jsRest.push(total - copyIn - summaryPass - recordsPass)
    } finally {
      core.release(ptr)
    }
  }
  return Object.fromEntries(Object.entries(stage).map(([k, v]) => [k, median(v)]))
}

export async function run({ quick, rest = [] }) {
  const childSide = rest.indexOf('--child')
  if (childSide >= 0) return childMeasure(rest[childSide + 1], rest[rest.indexOf('--footer') + 1])

  await init()
  const rowGroups = quick ? FOOTER_SHAPE.quickRowGroups : FOOTER_SHAPE.rowGroups
  const columns = FOOTER_SHAPE.columns
  const trials = quick ? 5 : 7
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-footer-'))
  // run.js generates the footer once (the native decoder benchmark reads it too) and passes --footer.
  const given = rest.indexOf('--footer')
  const footerPath = given >= 0 ? rest[given + 1] : path.join(dir, 'footer.bin')
  if (given < 0) writeFooterFile(footerPath, { rowGroups, columns })
  const metadata = new Uint8Array(readFileSync(footerPath))
  const file = withFileTail(metadata)
  try {
    // Same answer from both before timing anything.
    const ours = decodeFileMetaData(metadata)
    const theirs = parquetMetadata(file.buffer)
    const sameOffsets = theirs.row_groups.every((rg, g) => rg.columns.every((c, i) =>
      Number(c.meta_data.bloom_filter_offset) === ours.chunks[(g * columns + i) * 9]))

    decodeFileMetaData(metadata) // one more warm-up call for ours (the check above was the first)
    const timed = interleave({
      ours: { fn: () => sides.ours(metadata, file), reps: 1 },
      hyparquet: { fn: () => sides.hyparquet(metadata, file), reps: 1 },
    }, trials)
    const breakdown = oursBreakdown(metadata, trials)

    // Memory: alternate fresh processes (two of each, one with --quick), medians.
    const memory = { ours: [], hyparquet: [] }
    for (let k = 0; k < (quick ? 1 : 2); k++) {
      for (const side of ['ours', 'hyparquet']) {
        const out = path.join(dir, `${side}-${k}.json`)
        execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', self, '--out', out, '--child', side, '--footer', footerPath], { stdio: ['ignore', 'ignore', 'inherit'] })
        memory[side].push(JSON.parse(readFileSync(out, 'utf8')))
      }
    }
    const med = (list, key) => median(list.map((m) => m[key]))
    const memorySummary = Object.fromEntries(Object.entries(memory).map(([side, list]) => [side, {
      coldMs: med(list, 'coldMs'), jsHeapRetainedBytes: med(list, 'jsHeapRetainedBytes'),
      jsHeapAfterParseBytes: med(list, 'jsHeapAfterParseBytes'), wasmGrowthBytes: med(list, 'wasmGrowthBytes'),
    }]))
    return {
      rowGroups: ours.rowGroupRows.length, columns: ours.columns.length, footerBytes: metadata.length, sameBloomOffsets: sameOffsets, trials,
      warmMs: { ours: timed.ours.msPerCall, hyparquet: timed.hyparquet.msPerCall },
      warmCpuMs: { ours: timed.ours.cpuMsPerCall, hyparquet: timed.hyparquet.cpuMsPerCall },
      trialsMs: { ours: timed.ours.trialsMsPerCall, hyparquet: timed.hyparquet.trialsMsPerCall },
      oursBreakdownMs: breakdown,
      memory: memorySummary,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Writes the footer for the native decoder benchmark (bench/native, PB_BENCH_FOOTER). */
export function writeFooterFile(file, { rowGroups = 10000, columns = 50 } = {}) {
  writeFileSync(file, bigFooter({ rowGroups, columns }).bytes)
}

runIfMain(import.meta.url, run)
