// Exact lookups (probe's confirm option). Matching (js/confirm/confirm-match.js) on decoded pages: millions of values per
// second for CandidateMatcher.scan over the typed arrays hyparquet decodes (and byte arrays), dictionary
// indexes through hitsThroughDictionary, and walkLevels mapping hits to rows (target ≥ 100 M values/s
// on numeric pages, no object per value). PLAIN byte-array pages, old against new in one run: hyparquet's
// one Uint8Array per value (readPlain, then CandidateMatcher.scan) against matching the value section in
// place (scanPlainBinary), match alone and decode + match. Bytes: one value confirmed in a ≥ 100 MB file with a page
// index (hyparquet-writer), against footer + page index + 2 pages per candidate row group.
import { writeFileSync } from 'node:fs'
import path from 'node:path'

import { parquetMetadata, readOffsetIndex } from 'hyparquet'
import { readPlain } from 'hyparquet/src/plain.js'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { CandidateMatcher, hitsThroughDictionary, walkLevels } from '../../js/confirm/confirm-match.js'
import * as plainBinaryScan from '../../js/pages/plain-binary-scan.js'
import { openParquet } from '../../js/index.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
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
    { name: 'BYTE_ARRAY, 1 value (Uint8Array per value)', n: strings.length, fn: (m = one('BYTE_ARRAY', ['key-77'])) => () => m.scan(strings) },
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
  return { rows, plainBinary: plainBinaryPairs({ quick }), bytes: await bytesForOneValue(quick ? 1_500_000 : 13_000_000) }
}

/** A PLAIN BYTE_ARRAY section ([u32 length][bytes]…) of `values`. */
function plainSection(values) {
  const out = new Uint8Array(values.reduce((n, v) => n + 4 + v.length, 0))
  const view = new DataView(out.buffer)
  let at = 0
  for (const v of values) {
    view.setUint32(at, v.length, true)
    out.set(v, at + 4)
    at += 4 + v.length
  }
  return out
}

/** Old (hyparquet's per-value arrays) against new (in place), interleaved in the same trials. */
function plainBinaryPairs({ quick }) {
  const n = 1 << 20
  const targetMs = quick ? 100 : 400
  const encoder = new TextEncoder()
  const matcherOf = (type, candidates) => new CandidateMatcher(type, candidates, new Int32Array(candidates.length).map((_, k) => k), new Uint8Array(candidates.length).fill(1))
  const keys = (i) => encoder.encode(`key-${i}`)
  const ids = (i) => encoder.encode(`0b8e6f2c-3d4a-4e5f-9a1b-${String(i).padStart(12, '0')}`)
  const sixteen = (valueOf) => Array.from({ length: 16 }, (_, k) => valueOf((k * 65537) % n))
  // Each case's values are made when it runs, so earlier cases' arrays are garbage by then.
  const binary = (name, valueOf, candidates) => () => {
    const values = Array.from({ length: n }, (_, i) => valueOf(i))
    return { name, type: 'BYTE_ARRAY', bytes: plainSection(values), width: undefined, values, candidates }
  }
  const fixed16 = (name) => () => {
    const bytes = new Uint8Array(n * 16).map((_, j) => (j % 16 < 12 ? 0xab : (j * 2654435761) >>> 24))
    const values = Array.from({ length: n }, (_, i) => bytes.subarray(i * 16, i * 16 + 16))
    return { name, type: 'FIXED_LEN_BYTE_ARRAY', bytes, width: 16, values, candidates: [values[77]] }
  }
  const cases = [
    binary('BYTE_ARRAY key-<i> (~10 B), 1 value', keys, [keys(77)]),
    binary('BYTE_ARRAY key-<i> (~10 B), 16 values', keys, sixteen(keys)),
    binary('BYTE_ARRAY 36-byte ids, 1 value', ids, [ids(77)]),
    fixed16('FIXED_LEN_BYTE_ARRAY(16), 1 value'),
  ]
  const rows = []
  for (const make of cases) {
    const c = make()
    const matcher = matcherOf(c.type, c.candidates)
    const section = { bytes: c.bytes, count: n, width: c.width }
    const timedGroup = (contenders) => interleave(Object.fromEntries(Object.entries(contenders).map(([k, fn]) => [k, { fn, reps: calibrate(fn, { targetMs }) }])), quick ? 3 : 5)
    // Old and new matching interleaved; hyparquet's decode apart, after them: the million arrays it makes
    // per call would load the garbage collector during the others' trials.
    const timed = {
      ...timedGroup({ oldMatch: () => matcher.scan(c.values), newMatch: () => matcher.scanPlainBinary(section, plainBinaryScan) }),
      ...timedGroup({ oldDecodeMatch: () => matcher.scan(readPlain({ view: new DataView(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength), offset: 0 }, c.type, n, c.width)) }),
    }
    // Wall clock, and process CPU time: on a shared machine the CPU rate is the steadier of the two.
    const rate = (k) => n / (timed[k].msPerCall * 1e3)
    const cpuRate = (k) => n / (timed[k].cpuMsPerCall * 1e3)
    rows.push({ case: c.name, values: n, oldMatch: rate('oldMatch'), oldDecodeMatch: rate('oldDecodeMatch'), newInPlace: rate('newMatch'),
      cpu: { oldMatch: cpuRate('oldMatch'), oldDecodeMatch: cpuRate('oldDecodeMatch'), newInPlace: cpuRate('newMatch') } })
  }
  return rows
}

/** Writes `rows` sorted INT64 ids (8 bytes each, plain) with a page index and confirms one id. */
async function bytesForOneValue(rows) {
  const { dir, remove } = await makeTempDir('bench-confirm')
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
    await remove()
  }
}

runIfMain(import.meta.url, async (args) => {
  const result = await run(args)
  console.table(result.rows.map((r) => ({ ...r, mValuesPerSecond: r.mValuesPerSecond.toFixed(0), msPerCall: r.msPerCall.toFixed(2) })))
  console.log('PLAIN byte-array pages, M values/s: old = hyparquet\'s Uint8Array per value (match only / readPlain + match), new = in place')
  console.table(result.plainBinary.map((r) => ({ case: r.case, values: r.values, 'old match': r.oldMatch.toFixed(0),
    'old decode+match': r.oldDecodeMatch.toFixed(0), 'new in place': r.newInPlace.toFixed(0), 'new (CPU time)': r.cpu.newInPlace.toFixed(0),
    'vs old match': `${(r.newInPlace / r.oldMatch).toFixed(1)}x`, 'vs old decode+match': `${(r.newInPlace / r.oldDecodeMatch).toFixed(1)}x` })))
  console.log(result.bytes)
  return result
})
