// Exact lookups (issue #14). Matching (js/confirm-match.js) on decoded pages: millions of values per
// second for CandidateMatcher.scan over the typed arrays hyparquet decodes (and byte arrays), dictionary
// indexes through hitsThroughDictionary, and walkLevels mapping hits to rows (target ≥ 100 M values/s
// on numeric pages, no object per value). Bytes: one value confirmed in a ≥ 100 MB file with a page
// index (hyparquet-writer), against footer + page index + 2 pages per candidate row group.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { parquetMetadata, readOffsetIndex } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { CandidateMatcher, hitsThroughDictionary, walkLevels } from '../../js/confirm-match.js'
import { openParquet } from '../../js/index.js'
import { runIfMain } from '../lib/section.js'
import { calibrate, interleave } from '../lib/timing.js'

function cases(n) {
  const ints = new Int32Array(n).map((_, i) => (i * 2654435761) >>> 8)
  const longs = new BigInt64Array(n).map((_, i) => BigInt(i) * 7919n)
  const doubles = new Float64Array(n).map((_, i) => i / 8)
  const strings = Array.from({ length: Math.min(n, 1 << 20) }, (_, i) => new TextEncoder().encode(`key-${i}`))
  const indexes = new Uint32Array(n).map((_, i) => i % 1000)
  const one = (type, candidates) => new CandidateMatcher(type, candidates, new Int32Array(candidates.length).map((_, k) => k), new Uint8Array(candidates.length).fill(1))
  return [
    { name: 'INT32, 1 value', n, fn: (m = one('INT32', [ints[5]])) => () => m.scan(ints) },
    { name: 'INT32, 4 values', n, fn: (m = one('INT32', [1, 2, 3, ints[5]])) => () => m.scan(ints) },
    { name: 'INT64 (BigInt64Array), 1 value', n, fn: (m = one('INT64', [longs[5]])) => () => m.scan(longs) },
    { name: 'INT64 (BigInt64Array), 4 values', n, fn: (m = one('INT64', [1n, 2n, 3n, longs[5]])) => () => m.scan(longs) },
    { name: 'DOUBLE, 1 value (both zeros)', n, fn: (m = one('DOUBLE', [0, -0])) => () => m.scan(doubles) },
    { name: 'BYTE_ARRAY, 1 value', n: strings.length, fn: (m = one('BYTE_ARRAY', ['key-77'])) => () => m.scan(strings) },
    { name: 'dictionary indexes', n, fn: (groups = new Int32Array(1000).fill(-1)) => () => hitsThroughDictionary(indexes, groups) },
    { name: 'walkLevels, flat, 1 hit', n, fn: (hits = new Int32Array(n).fill(-1)) => { hits[7] = 0; const page = { numLevels: n, definitionLevels: [], repetitionLevels: [] }; return () => walkLevels(page, 0, hits, 0, () => {}) } },
  ]
}

export async function run({ quick }) {
  const n = quick ? 1 << 20 : 1 << 23
  const targetMs = quick ? 100 : 400
  const rows = []
  for (const c of cases(n)) {
    const fn = c.fn()
    const timed = interleave({ scan: { fn, reps: calibrate(fn, { targetMs }) } }, quick ? 3 : 5).scan
    rows.push({ case: c.name, values: c.n, mValuesPerSecond: c.n / (timed.msPerCall * 1e3), msPerCall: timed.msPerCall })
  }
  return { rows, bytes: await bytesForOneValue(quick ? 1_500_000 : 13_000_000) }
}

/** Writes `rows` sorted INT64 ids (8 bytes each, plain) with a page index and confirms one id. */
async function bytesForOneValue(rows) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-confirm-'))
  try {
    const ids = new BigInt64Array(rows).map((_, i) => BigInt(i) * 2n)
    const bytes = new Uint8Array(parquetWriteBuffer({ codec: 'UNCOMPRESSED', rowGroupSize: 1_000_000, pageSize: 64 * 1024,
      columnData: [{ name: 'id', data: ids, type: 'INT64', columnIndex: true, encoding: 'PLAIN' }] }))
    const file = path.join(dir, 'big.parquet')
    writeFileSync(file, bytes)
    const metadata = parquetMetadata(bytes.buffer)
    const value = BigInt(Math.floor(rows * 0.61)) * 2n
    const opened = await openParquet(file)
    try {
      const result = await opened.probe('id', [value], { confirm: true })
      const candidates = result.rowGroups.filter((g) => g.results[0].source === 'data-pages' || g.results[0].verdict !== 'absent')
      let indexBytes = 0
      let bound = 8 + metadata.metadata_length
      for (const g of candidates) {
        const chunk = metadata.row_groups[g.index].columns[0]
        indexBytes += chunk.column_index_length + chunk.offset_index_length
        const at = Number(chunk.offset_index_offset)
        const pages = readOffsetIndex({ view: new DataView(bytes.buffer, at, chunk.offset_index_length), offset: 0 }).page_locations
        bound += chunk.column_index_length + chunk.offset_index_length + 2 * Math.max(...pages.map((p) => p.compressed_page_size))
      }
      return {
        fileBytes: bytes.length, rowGroups: metadata.row_groups.length, candidateRowGroups: candidates.length, found: candidates.map((g) => g.results[0].rows),
        confirmBytes: result.confirm.bytesFetched, confirmRequests: result.confirm.requests, probeBytes: opened.stats.bytesFetched, requests: opened.stats.requests,
        indexBytes, bound, met: opened.stats.bytesFetched <= bound,
      }
    } finally {
      await opened.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, async (args) => {
  const result = await run(args)
  console.table(result.rows.map((r) => ({ ...r, mValuesPerSecond: r.mValuesPerSecond.toFixed(0), msPerCall: r.msPerCall.toFixed(2) })))
  console.log(result.bytes)
  return result
})
