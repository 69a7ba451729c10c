// Page index as an index (js/indexes/page-index.js): ns per probed value of candidatePages for 1,000,000 and
// 10 values against a 100-page chunk — pages sorted by value (binary search per value) and overlapping
// unordered pages (keys sorted once) — for INT32, INT64 and 16-byte strings; plus the per-chunk cost of
// decoding a ColumnIndex/OffsetIndex and preparing it. Runnable alone: node bench/sections/page-index.js
import { CompactWriter, T } from '../lib/thrift-compact.js'
import { calibrate, interleave } from '../lib/timing.js'
import { runIfMain } from '../lib/section.js'
import { candidatePages, decodeColumnIndex, decodeOffsetIndex, preparePageIndex } from '../../js/indexes/page-index.js'
import { sortKeys } from '../../js/indexes/statistics.js'

const PAGES = 100
const ROWS_PER_PAGE = 10_000
const SPAN = 1_000_000 // values per page range for sorted pages

/** A deterministic generator (LCG) so each run probes the same values. */
function random(seed) {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s / 2 ** 31
  }
}

const text = (n) => `k${String(Math.floor(n)).padStart(15, '0')}`

/** Page bounds [lo, hi] per page: sorted adjacent ranges, or ranges of random width anywhere (overlapping). */
function pageRanges(sorted) {
  const next = random(7)
  const ranges = []
  for (let p = 0; p < PAGES; p++) {
    if (sorted) ranges.push([p * SPAN, p * SPAN + SPAN - 1])
    else {
      const lo = Math.floor(next() * PAGES * SPAN * 0.9)
      ranges.push([lo, lo + Math.floor(next() * PAGES * SPAN * 0.1)])
    }
  }
  return ranges
}

function encodeBound(kind, n) {
  if (kind === 'string') return new TextEncoder().encode(text(n))
  const b = new Uint8Array(kind === 'int64' ? 8 : 4)
  const view = new DataView(b.buffer)
  if (kind === 'int64') view.setBigInt64(0, BigInt(n), true)
  else view.setInt32(0, n, true)
  return b
}

function columnIndexBytes(kind, ranges, ascending) {
  const w = new CompactWriter()
  w.beginStruct()
  w.listField(1, T.TRUE, ranges, (wr) => wr.byte(2))
  w.listField(2, T.BINARY, ranges, (wr, [lo]) => wr.binary(encodeBound(kind, lo)))
  w.listField(3, T.BINARY, ranges, (wr, [, hi]) => wr.binary(encodeBound(kind, hi)))
  w.i32Field(4, ascending ? 1 : 0)
  w.listField(5, T.I64, ranges, (wr) => wr.zigzag(0))
  w.endStruct()
  return w.bytes()
}

function offsetIndexBytes() {
  const w = new CompactWriter()
  w.beginStruct()
  w.listField(1, T.STRUCT, Array.from({ length: PAGES }), (wr, _, p) => {
    wr.i64Field(1, 4 + p * 1000)
    wr.i32Field(2, 1000)
    wr.i64Field(3, p * ROWS_PER_PAGE)
  })
  w.endStruct()
  return w.bytes()
}

const ORDERS = {
  int32: { kind: 'int32', width: 4, signed: true },
  int64: { kind: 'int64', width: 8, signed: true },
  string: { kind: 'bytes', width: 0, signed: false },
}

function probeValues(kind, n) {
  const next = random(42)
  const raw = Array.from({ length: n }, () => Math.floor(next() * PAGES * SPAN * 1.1))
  if (kind === 'int32') return raw
  if (kind === 'int64') return raw.map(BigInt)
  return raw.map(text)
}

export async function run({ quick = false } = {}) {
  const trials = quick ? 3 : 7
  const targetMs = quick ? 150 : 400
  const chunk = { numRows: PAGES * ROWS_PER_PAGE, chunkStart: 4, chunkEnd: 4 + PAGES * 1000 }
  const rows = []
  for (const kind of ['int32', 'int64', 'string']) {
    for (const sorted of [true, false]) {
      const ciBytes = columnIndexBytes(kind, pageRanges(sorted), sorted)
      const oiBytes = offsetIndexBytes()
      const prepareOnce = () => preparePageIndex(ORDERS[kind], decodeColumnIndex(ciBytes), decodeOffsetIndex(oiBytes), chunk)
      const index = prepareOnce()
      if (!index.usable || index.monotone !== sorted) throw new Error(`bench index for ${kind} is not what it should be: ${index.detail ?? index.monotone}`)
      const prepare = interleave({ prepare: { fn: prepareOnce, reps: calibrate(prepareOnce, { targetMs }) } }, trials).prepare
      for (const n of quick ? [10, 100_000] : [10, 1_000_000]) {
        const keys = sortKeys(ORDERS[kind], probeValues(kind, n))
        const owners = Int32Array.from({ length: n }, (_, k) => k)
        let result
        const probe = () => {
          result = candidatePages(index, keys, owners, { numValues: n })
        }
        const timed = interleave({ probe: { fn: probe, reps: calibrate(probe, { targetMs, minCalls: 2 }) } }, trials).probe
        let kept = 0
        for (let k = 0; k < n; k++) kept += result.excluded[k] ? 0 : 1
        rows.push({
          type: kind, pages: sorted ? 'sorted' : 'unordered', values: n,
          nsPerValue: (timed.msPerCall * 1e6) / n, cpuNsPerValue: (timed.cpuMsPerCall * 1e6) / n, msPerCall: timed.msPerCall,
          prepareUs: prepare.msPerCall * 1e3, keptShare: kept / n, pagesPerKeptValue: kept ? result.pageList.length / kept : 0,
        })
      }
    }
  }
  return { pages: PAGES, rows }
}

runIfMain(import.meta.url, async (args) => {
  const result = await run(args)
  console.table(result.rows.map((r) => ({ ...r, nsPerValue: r.nsPerValue.toFixed(1), cpuNsPerValue: r.cpuNsPerValue.toFixed(1), msPerCall: r.msPerCall.toFixed(3), prepareUs: r.prepareUs.toFixed(1), keptShare: r.keptShare.toFixed(3), pagesPerKeptValue: r.pagesPerKeptValue.toFixed(2) })))
  return result
})
