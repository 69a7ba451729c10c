// Big footers: from footer bytes to "ready to probe one column" for a synthetic FileMetaData of 10,000
// row groups × 50 columns. Ours = what openParquet + a probe of one column decode: the footer's outline
// (over WINDOWED_FOOTER_BYTES, as this one is, a window at a time: js/footer/windowed-outline.js; the
// stage breakdown times the whole-footer decode) and that column's chunk indexes (ensureColumnIndexes);
// 'ours, all columns' = the whole footer decoded with every chunk's indexes at once (decodeFileMetaData);
// hyparquet = parquetMetadata on the same bytes (+ length + PAR1), which decodes everything. Warm time is
// interleaved in one process; cold time and memory are measured in fresh child processes (--expose-gc,
// bench/lib/cold.js), one side each, so neither sees the other's heap and each runs its code for the
// first time, as a page or a CLI run does.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import { parquetMetadata } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { init, openParquet } from '../../js/index.js'
import { ensureColumnIndexes } from '../../js/footer/chunk-indexes.js'
import { getCore } from '../../js/wasm/core.js'
import { FooterPass } from '../../js/wasm/abi.js'
import { decodeFileMetaData, outlinePieces, WINDOWED_FOOTER_BYTES } from '../../js/footer/footer.js'
import { decodeWindowedOutline } from '../../js/footer/windowed-outline.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { coldRun, measureCold, timeFirstCall } from '../lib/cold.js'
import { runIfMain } from '../lib/section.js'
import { bigFooter, withFileTail } from '../lib/synthetic-parquet.js'
import { interleave, median, timeCalls } from '../lib/timing.js'

export const FOOTER_SHAPE = { rowGroups: 10000, quickRowGroups: 2000, columns: 50 }

// The column a probe reads: one in the middle of the schema.
const PROBED_COLUMN = 25

/** The footer's outline as readFooter decodes it: a window at a time over WINDOWED_FOOTER_BYTES. */
function decodeAsRead(metadata) {
  return (metadata.length > WINDOWED_FOOTER_BYTES && decodeWindowedOutline(metadata, 'footer', outlinePieces)) || decodeFileMetaData(metadata, 'footer', 0, { lazyIndexes: true })
}

/** Open + what a probe of one column decodes. */
function openAndProbeOne(metadata) {
  const layout = decodeAsRead(metadata)
  ensureColumnIndexes(layout, Math.min(PROBED_COLUMN, layout.columns.length - 1))
  return layout
}

const sides = {
  ours: (metadata) => openAndProbeOne(metadata),
  oursAll: (metadata) => decodeFileMetaData(metadata),
  hyparquet: (metadata, file) => parquetMetadata(file.buffer),
}

/**
 * One side, once, in this (fresh) process: time and memory from bytes to ready-to-probe. The wasm module
 * is loaded first (untimed, as openParquet loads it while the footer is read); none of its functions
 * has run.
 */
async function childMeasure(side, { rest }) {
  const metadata = new Uint8Array(readFileSync(rest[rest.indexOf('--footer') + 1]))
  const file = withFileTail(metadata)
  await init()
  const core = getCore()
  const heap = () => {
    const m = process.memoryUsage()
    return m.heapUsed + m.arrayBuffers
  }
  globalThis.gc()
  globalThis.gc()
  const wasmBefore = core.memoryStats().heapBytes
  const before = heap()
  let result
  const { ms, cpuMs } = await timeFirstCall(() => {
    result = sides[side](metadata, file)
    return {}
  })
  const transient = heap() - before
  globalThis.gc()
  globalThis.gc()
  const retained = heap() - before
  const wasmGrowth = core.memoryStats().heapBytes - wasmBefore
  const rowGroups = side === 'hyparquet' ? result.row_groups.length : result.rowGroupRows.length
  return { ms, cpuMs, jsHeapRetainedBytes: retained, jsHeapAfterParseBytes: transient, wasmGrowthBytes: wasmGrowth, rowGroups }
}

/** The hyparquet-writer file's open + probe (ours) or parquetMetadata (hyparquet), once, in this fresh process. */
async function childWriterFile(side, { rest }) {
  const bytes = new Uint8Array(readFileSync(rest[rest.indexOf('--file') + 1]))
  if (side === 'hyparquet') return timeFirstCall(() => ({ rowGroups: parquetMetadata(bytes.buffer).row_groups.length }))
  const value = 7 * (PROBED_COLUMN + 1)
  return timeFirstCall(async () => {
    const file = await openParquet(bytes)
    const answer = await file.probe(`c${PROBED_COLUMN}`, [value])
    await file.close()
    return { maybe: answer.rowGroups.filter((g) => g.results[0].verdict !== 'absent').length }
  })
}

/**
 * The stages of the whole-footer decode (what footers under WINDOWED_FOOTER_BYTES take), timed through
 * the raw module right after a whole decode + probe-one-column in the same trial: copy in, the counting
 * pass, the outline pass, one column's indexes (ensureColumnIndexes on a fresh layout); the JS part
 * (leaf/schema build, record copy-out, pool calls) is the whole minus those.
 */
function oursBreakdown(metadata, trials) {
  const core = getCore()
  const stage = { total: [], copyIn: [], countsPass: [], outlinePass: [], oneColumn: [], jsRest: [] }
  const wholeAndProbeOne = () => {
    const layout = decodeFileMetaData(metadata, 'footer', 0, { lazyIndexes: true })
    ensureColumnIndexes(layout, Math.min(PROBED_COLUMN, layout.columns.length - 1))
  }
  for (let t = 0; t < trials; t++) {
    const total = timeCalls(wholeAndProbeOne, 1)
    const layout = decodeFileMetaData(metadata, 'footer', 0, { lazyIndexes: true })
    const oneColumn = timeCalls(() => ensureColumnIndexes(layout, Math.min(PROBED_COLUMN, layout.columns.length - 1)), 1)
    const ptr = core.acquire(metadata.length + 64)
    try {
      const bytes = ptr + 64
      const copyIn = timeCalls(() => core.u8.set(metadata, bytes), 1)
      const countsPass = timeCalls(() => core.decodeFooter(FooterPass.values.FOOTER_COUNTS, bytes, metadata.length, 0, ptr), 1)
      const chunks = layout.chunks.length / 9
      const [schemaCount, rowGroupCount] = [layout.columns.length + 1, layout.rowGroupRows.length]
      const records = core.acquire(chunks * 80 + rowGroupCount * 16 + schemaCount * 60 + 16)
      let outlinePass
      try {
        const spans = records + chunks * 72
        const rowGroupRecords = spans + chunks * 8
        const schema = rowGroupRecords + rowGroupCount * 16
        outlinePass = timeCalls(() => core.decodeFooter(FooterPass.values.FOOTER_WHOLE, bytes, metadata.length, 0, ptr, schema, rowGroupRecords, records, spans,
          schema + schemaCount * 56, schemaCount, rowGroupCount, chunks, schemaCount), 1)
      } finally {
        core.release(records)
      }
      stage.total.push(total)
      stage.copyIn.push(copyIn)
      stage.countsPass.push(countsPass)
      stage.outlinePass.push(outlinePass)
      stage.oneColumn.push(oneColumn)
      stage.jsRest.push(total - copyIn - countsPass - outlinePass - oneColumn)
    } finally {
      core.release(ptr)
    }
  }
  return Object.fromEntries(Object.entries(stage).map(([k, v]) => [k, median(v)]))
}

/**
 * A real file's footer: hyparquet-writer, `rowGroups` row groups of 10 rows × 50 INT32 columns
 * (statistics, no bloom filters). Interleaved: openParquet + a probe of one column (answered by the
 * statistics), hyparquet's parquetMetadata; then, on a fresh open each, file.metadata.rowGroups.length
 * and reading every row group and column of file.metadata (what building it eagerly cost).
 */
async function hyparquetWriterFile(quick, dir) {
  const rowGroups = quick ? FOOTER_SHAPE.quickRowGroups : FOOTER_SHAPE.rowGroups
  const rows = rowGroups * 10
  const columnData = Array.from({ length: FOOTER_SHAPE.columns }, (_, c) => ({
    name: `c${c}`, type: 'INT32', data: Int32Array.from({ length: rows }, (_, i) => i * (c + 1)),
  }))
  const bytes = new Uint8Array(parquetWriteBuffer({ columnData, rowGroupSize: 10 }))
  const probed = `c${PROBED_COLUMN}`
  const value = 7 * (PROBED_COLUMN + 1) // row 7: in row group 0 only
  const trials = quick ? 5 : 7
  let answer
  const openAndProbe = async () => {
    const file = await openParquet(bytes)
    answer = await file.probe(probed, [value])
    await file.close()
  }
  await openAndProbe() // warm-up
  const asyncTrials = { ours: [], hyparquet: [], metadataLength: [], metadataEveryElement: [] }
  for (let t = 0; t < trials; t++) {
    for (const side of t % 2 ? ['hyparquet', 'ours'] : ['ours', 'hyparquet']) {
      const start = performance.now()
      if (side === 'ours') await openAndProbe()
      else parquetMetadata(bytes.buffer)
      asyncTrials[side].push(performance.now() - start)
    }
    const file = await openParquet(bytes)
    let start = performance.now()
    const count = file.metadata.rowGroups.length
    asyncTrials.metadataLength.push(performance.now() - start)
    start = performance.now()
    let columns = 0
    for (const group of file.metadata.rowGroups) for (const column of group.columns) columns += column.indexes ? 1 : 0
    asyncTrials.metadataEveryElement.push(performance.now() - start)
    await file.close()
    if (count !== rowGroups || columns !== rowGroups * FOOTER_SHAPE.columns) throw new Error(`file.metadata has ${count} row groups, ${columns} columns`)
  }
  const maybe = answer.rowGroups.filter((g) => g.results[0].verdict !== 'absent').map((g) => g.index)
  const ms = Object.fromEntries(Object.entries(asyncTrials).map(([k, v]) => [k, median(v)]))
  // Cold: each side's first call in fresh processes, on the same bytes from a file.
  const writerPath = path.join(dir, 'writer.parquet')
  writeFileSync(writerPath, bytes)
  const coldRuns = quick ? 1 : 3
  const cold = {
    ours: await measureCold(import.meta.url, 'writer-ours', { runs: coldRuns, args: ['--file', writerPath] }),
    hyparquet: await measureCold(import.meta.url, 'writer-hyparquet', { runs: coldRuns, args: ['--file', writerPath] }),
  }
  return { rowGroups, columns: FOOTER_SHAPE.columns, fileBytes: bytes.length, trials, ms, speedup: ms.hyparquet / ms.ours,
    cold, coldSpeedup: cold.hyparquet.ms / cold.ours.ms, rightAnswer: maybe.length === 1 && maybe[0] === 0 }
}

export async function run({ quick, rest = [] }) {
  await init()
  const rowGroups = quick ? FOOTER_SHAPE.quickRowGroups : FOOTER_SHAPE.rowGroups
  const columns = FOOTER_SHAPE.columns
  const trials = quick ? 5 : 7
  const { dir, remove } = await makeTempDir('bench-footer')
  // run.js generates the footer once (the native decoder benchmark reads it too) and passes --footer.
  const given = rest.indexOf('--footer')
  const footerPath = given >= 0 ? rest[given + 1] : path.join(dir, 'footer.bin')
  if (given < 0) writeFooterFile(footerPath, { rowGroups, columns })
  const metadata = new Uint8Array(readFileSync(footerPath))
  const file = withFileTail(metadata)
  try {
    // Same answer from both before timing anything.
    let ours = decodeFileMetaData(metadata)
    let theirs = parquetMetadata(file.buffer)
    const sameOffsets = theirs.row_groups.every((rg, g) => rg.columns.every((c, i) =>
      Number(c.meta_data.bloom_filter_offset) === ours.chunks[(g * columns + i) * 9]))
    const shape = { rowGroups: ours.rowGroupRows.length, columns: ours.columns.length }
    // Neither result may stay alive while the other side is timed: hyparquet's (~550 MB of objects)
    // makes every major GC that ours triggers cost ~600 ms of marking it.
    ours = theirs = undefined

    openAndProbeOne(metadata) // warm-up calls for ours (the check above was the first)
    const timed = interleave({
      ours: { fn: () => sides.ours(metadata, file), reps: 1 },
      oursAll: { fn: () => sides.oursAll(metadata, file), reps: 1 },
      hyparquet: { fn: () => sides.hyparquet(metadata, file), reps: 1 },
    }, trials)
    const breakdown = oursBreakdown(metadata, trials)

    // Cold time and memory: alternate fresh processes (ours three each, hyparquet two; one each with
    // --quick), medians.
    const memory = { ours: [], oursAll: [], hyparquet: [] }
    const nodeArgs = ['--expose-gc', '--max-old-space-size=8192']
    for (let k = 0; k < (quick ? 1 : 3); k++) {
      for (const side of k < 2 ? ['ours', 'oursAll', 'hyparquet'] : ['ours', 'oursAll']) {
        memory[side].push(await coldRun(import.meta.url, side, { nodeArgs, args: ['--footer', footerPath] }))
      }
    }
    const med = (list, key) => median(list.map((m) => m[key]))
    const memorySummary = Object.fromEntries(Object.entries(memory).map(([side, list]) => [side, {
      coldMs: med(list, 'ms'), coldCpuMs: med(list, 'cpuMs'), coldRunsMs: list.map((m) => m.ms), jsHeapRetainedBytes: med(list, 'jsHeapRetainedBytes'),
      jsHeapAfterParseBytes: med(list, 'jsHeapAfterParseBytes'), wasmGrowthBytes: med(list, 'wasmGrowthBytes'),
    }]))
    const writerFile = await hyparquetWriterFile(quick, dir)
    return {
      writerFile,
      rowGroups: shape.rowGroups, columns: shape.columns, footerBytes: metadata.length, sameBloomOffsets: sameOffsets, trials,
      probedColumn: Math.min(PROBED_COLUMN, shape.columns - 1),
      warmMs: { ours: timed.ours.msPerCall, oursAll: timed.oursAll.msPerCall, hyparquet: timed.hyparquet.msPerCall },
      warmCpuMs: { ours: timed.ours.cpuMsPerCall, oursAll: timed.oursAll.cpuMsPerCall, hyparquet: timed.hyparquet.cpuMsPerCall },
      trialsMs: { ours: timed.ours.trialsMsPerCall, oursAll: timed.oursAll.trialsMsPerCall, hyparquet: timed.hyparquet.trialsMsPerCall },
      speedup: { warm: timed.hyparquet.msPerCall / timed.ours.msPerCall, cpu: timed.hyparquet.cpuMsPerCall / timed.ours.cpuMsPerCall },
      oursBreakdownMs: breakdown,
      memory: memorySummary,
    }
  } finally {
    await remove()
  }
}

/** Writes the footer for the native decoder benchmark (bench/native, PB_BENCH_FOOTER). */
export function writeFooterFile(file, { rowGroups = 10000, columns = 50 } = {}) {
  writeFileSync(file, bigFooter({ rowGroups, columns }).bytes)
}

runIfMain(import.meta.url, run, {
  ours: (args) => childMeasure('ours', args),
  oursAll: (args) => childMeasure('oursAll', args),
  hyparquet: (args) => childMeasure('hyparquet', args),
  'writer-ours': (args) => childWriterFile('ours', args),
  'writer-hyparquet': (args) => childWriterFile('hyparquet', args),
})
