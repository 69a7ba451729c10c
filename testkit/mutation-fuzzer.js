// The mutation fuzzer: real files, mutated (bit flips, byte sets, truncations, splices, varint- and
// field-aware footer and header edits), through openParquet + probe + visitBloomFilter. Only
// ParquetBloomErrors may come out; nothing may hang; the wasm instance must keep working; and where a
// mutation leaves every filter and the footer intact (data pages), or only flips bitset bits, the
// verdicts must be exactly what the reference SBBF says over the bytes as they now are.
// Bounded in `npm test` (tests/js/fuzz-probe.test.js), long in `npm run fuzz:js`; ./fuzz-worker.js runs it in a worker thread.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { ErrorCode, init, memoryStats, openParquet, ParquetBloomError } from '../js/index.js'

import { rng } from './reference-sbbf.js'
import { writeDuckdbSample, writeHyparquetSample } from './sample-files.js'
import { ByteWriter, cloneStruct, encodeStruct, T, varintSpans } from './thrift-writer.js'

import { assemble, bitsetOf, buildTruth, concat, expectedVerdicts, MiB, parseParquet, probeValues, withoutBloomLengths } from './file-surgery.js'

// Columns probed, with the type visitBloomFilter's check() takes for them.
const HYPARQUET_COLUMNS = { i32: 'INT32', i64: 'INT64', str: 'BYTE_ARRAY', bin: 'BYTE_ARRAY', fl: { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 4 }, bool: 'BOOLEAN' }
const DUCKDB_COLUMNS = { ii: 'INT32', si: 'INT32', bi: 'INT64', s: 'BYTE_ARRAY' }
const FUZZ_MODES = ['auto', 'filter', 'block']
const FUZZ_TAILS = [undefined, 8, 512, 4096, 1 << 20]
const ITERATION_TIMEOUT_MS = 5000
const HEALTH_EVERY = 25
const HEAP_LIMIT = 256 * MiB

// [kind, weight]. 'data' and 'bitset' mutations have exact expectations; the rest must merely end well.
const MUTATIONS = [
  ['data-bytes', 3], ['bitset-bits', 3], ['header-bytes', 2], ['header-varint', 2], ['footer-bytes', 3],
  ['footer-varint', 4], ['footer-field', 3], ['tail-bytes', 1], ['truncate', 1], ['splice', 2], ['anywhere-bits', 2],
]
const MUTATION_WEIGHT = MUTATIONS.reduce((n, [, w]) => n + w, 0)

/**
 * The files the fuzzer mutates, each with its layout and truth: hyparquet-writer files (with and
 * without bloom_filter_length, and one small enough for the tail read to hold all of it), and with
 * { duckdb: true } a DuckDB file (29 columns, statistics, another layout; a few seconds to write).
 */
export async function buildFuzzBases(dir, { duckdb = false } = {}) {
  const smallDir = path.join(dir, 'small')
  await mkdir(smallDir, { recursive: true })
  const full = await writeHyparquetSample(dir)
  const small = await writeHyparquetSample(smallDir, { rows: 60, rowGroupSize: 20 })
  const base = parseParquet(new Uint8Array(await readFile(full.path)))
  const fullTruth = buildTruth(full)
  const entry = (name, parsed, truth, checkTypes = HYPARQUET_COLUMNS) => ({
    name,
    parsed,
    truth,
    columns: Object.keys(checkTypes),
    checkTypes,
    values: Object.fromEntries(Object.keys(checkTypes).map((c) => [c, probeValues(truth, c, rng(c.length * 7919), 4)])),
    dataEnd: Math.min(...parsed.filters.map((f) => f.offset)),
  })
  const bases = [
    entry('hyparquet', base, fullTruth),
    entry('hyparquet-no-lengths', parseParquet(withoutBloomLengths(base)), fullTruth),
    entry('hyparquet-small', parseParquet(new Uint8Array(await readFile(small.path))), buildTruth(small)),
  ]
  if (duckdb) {
    const duckDir = path.join(dir, 'duckdb')
    await mkdir(duckDir, { recursive: true })
    const sample = await writeDuckdbSample(duckDir)
    bases.push(entry('duckdb', parseParquet(new Uint8Array(await readFile(sample.path))), buildTruth(sample, DUCKDB_COLUMNS), DUCKDB_COLUMNS))
  }
  for (const b of bases) {
    // What the unmutated file says about each column, to recognise mutations that left a chunk alone.
    const file = await openParquet(b.parsed.bytes)
    b.columnTypes = Object.fromEntries(file.layout.columns.map((c) => [c.name, JSON.stringify([c.physicalType, c.typeLength, c.logicalType])]))
    b.blooms = file.metadata.rowGroups.map((rg) => Object.fromEntries(rg.columns.map((c) => [c.path, c.bloom])))
    await file.close()
  }
  return bases
}

/** A per-iteration generator: iteration i of seed s is the same input whatever ran before it. */
export function iterationRandom(seed, i) {
  let h = (seed ^ 0x9e3779b9) >>> 0
  h = Math.imul(h ^ (i >>> 0), 0x85ebca6b) >>> 0
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0
  return rng((h ^ (h >>> 16)) >>> 0)
}

/** The input of iteration i: which base, what mutation, and how it is probed. */
export function fuzzInput(bases, seed, i) {
  const random = iterationRandom(seed, i)
  const pick = (list) => list[Math.floor(random() * list.length)]
  const base = pick(bases)
  const mutation = mutate(base, random)
  return {
    base,
    mutation,
    column: pick(base.columns),
    mode: pick(FUZZ_MODES),
    initialFetchSize: pick(FUZZ_TAILS),
    visit: random() < 0.3,
    parts: random() < 0.2,
    visitRowGroup: Math.floor(random() * base.parsed.rowGroupCount),
  }
}

function interestingInts(base, original) {
  const { bytes, metadataOffset } = base.parsed
  const o = typeof original === 'bigint' ? original : BigInt(Math.trunc(Number(original ?? 0)))
  return [0n, 1n, -1n, 2n, 3n, 4n, 7n, 8n, 15n, 16n, 17n, 31n, 32n, 33n, 63n, 64n, 127n, 128n, 255n, 256n, 1023n, 1024n,
    2047n, 2048n, 2049n, 4095n, 4096n, 65535n, 65536n, 1n << 24n, (1n << 31n) - 1n, -(1n << 31n), 1n << 31n, (1n << 32n) - 1n,
    1n << 32n, 1n << 53n, (1n << 53n) + 1n, 1n << 62n, (1n << 63n) - 1n, -(1n << 63n), BigInt(bytes.length), BigInt(bytes.length - 1),
    BigInt(bytes.length + 1), BigInt(metadataOffset), BigInt(metadataOffset - 1), BigInt(metadataOffset + 1), o + 1n, o - 1n, o * 2n, o / 2n, -o]
}

function pickInt(base, random, original) {
  if (random() < 0.2) return BigInt(Math.floor(random() * base.parsed.bytes.length))
  const list = interestingInts(base, original)
  return list[Math.floor(random() * list.length)]
}

/**
 * One mutation of a base file: { bytes, kind, note, expect } where expect is 'original' (verdicts as
 * the original bitsets say), 'mutated' (as the mutated bitsets say: only bitset bits changed) or 'any'.
 */
export function mutate(base, random) {
  const { bytes, metadataOffset, filters } = base.parsed
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo))
  const pickFilter = () => filters[int(0, filters.length)]
  let r = random() * MUTATION_WEIGHT
  let kind = MUTATIONS[0][0]
  for (const [k, w] of MUTATIONS) {
    if ((r -= w) < 0) {
      kind = k
      break
    }
  }
  const out = bytes.slice()
  const touched = []
  const setByte = (at, value) => {
    out[at] = value
    touched.push(at)
  }
  const flip = (at) => setByte(at, out[at] ^ (1 << int(0, 8)))
  const smash = (at) => setByte(at, random() < 0.5 ? [0x00, 0xff, 0x7f, 0x80, 0x0f, 0xf0, 0x1c, 0x19, 0x15][int(0, 9)] : int(0, 256))
  const metadata = bytes.subarray(metadataOffset, bytes.length - 8)
  const data = bytes.subarray(0, metadataOffset)

  switch (kind) {
    case 'data-bytes': {
      for (let n = int(1, 9); n > 0; n--) (random() < 0.5 ? flip : smash)(int(4, base.dataEnd))
      return { bytes: out, kind, note: `bytes ${touched.join(',')}`, expect: 'original' }
    }
    case 'bitset-bits': {
      const f = pickFilter()
      const start = f.offset + f.headerLength
      if (random() < 0.2) {
        const block = int(0, f.numBytes / 32)
        out.fill(random() < 0.5 ? 0 : 0xff, start + block * 32, start + block * 32 + 32)
        return { bytes: out, kind, note: `block ${block} of the filter at ${f.offset} filled`, expect: 'mutated' }
      }
      for (let n = int(1, 17); n > 0; n--) flip(int(start, start + f.numBytes))
      return { bytes: out, kind, note: `bits in the filter at ${f.offset}: ${touched.join(',')}`, expect: 'mutated' }
    }
    case 'header-bytes': {
      const f = pickFilter()
      for (let n = int(1, 4); n > 0; n--) (random() < 0.5 ? flip : smash)(int(f.offset, f.offset + f.headerLength))
      return { bytes: out, kind, note: `header of the filter at ${f.offset}: bytes ${touched.join(',')}`, expect: 'any' }
    }
    case 'header-varint': {
      const f = pickFilter()
      const spans = varintSpans(bytes.subarray(f.offset, f.offset + f.headerLength))
      if (spans.length === 0) return { bytes: out, kind, note: 'no varint', expect: 'original' }
      const span = spans[int(0, spans.length)]
      const replacement = varintBytes(span.kind, pickInt(base, random), random)
      const at = f.offset + span.start
      return { bytes: concat(bytes.subarray(0, at), replacement, bytes.subarray(f.offset + span.end)), kind, note: `${span.kind} at ${at} → ${hex(replacement)}`, expect: 'any' }
    }
    case 'footer-bytes': {
      for (let n = int(1, 9); n > 0; n--) (random() < 0.5 ? flip : smash)(int(metadataOffset, bytes.length - 8))
      return { bytes: out, kind, note: `footer bytes ${touched.join(',')}`, expect: 'any' }
    }
    case 'footer-varint': {
      const spans = varintSpans(metadata)
      const span = spans[int(0, spans.length)]
      let replacement
      if (span.kind === 'list-header') {
        const elem = random() < 0.8 ? metadata[span.start] & 0x0f : int(0, 16)
        replacement = new ByteWriter().listHeader(elem, pickInt(base, random) & ((1n << 64n) - 1n)).bytes()
      } else {
        replacement = varintBytes(span.kind, pickInt(base, random), random)
      }
      const edited = concat(metadata.subarray(0, span.start), replacement, metadata.subarray(span.end))
      return { bytes: assemble(data, edited), kind, note: `${span.kind} at footer byte ${span.start} → ${hex(replacement)}`, expect: 'any' }
    }
    case 'footer-field': {
      const meta = cloneStruct(base.parsed.meta)
      const ints = []
      const structs = []
      collectFields(meta, ints, structs)
      let note
      const r2 = random()
      if (r2 < 0.7 && ints.length) {
        const field = ints[int(0, ints.length)]
        const value = pickInt(base, random, field.value)
        note = `field ${field.id} (${field.value}) → ${value}`
        field.value = field.type === T.I64 ? value : Number(BigInt.asIntN(64, value))
      } else if (r2 < 0.85) {
        const s = structs[int(0, structs.length)]
        const removed = s.fields.splice(int(0, s.fields.length), 1)[0]
        note = `field ${removed?.id} removed`
      } else {
        const s = structs[int(0, structs.length)]
        const f = s.fields[int(0, s.fields.length)]
        if (f) s.fields.push({ ...f, id: f.id + int(1, 40) })
        note = `field ${f?.id} duplicated under a new id`
      }
      let encoded
      try {
        encoded = encodeStruct(meta)
      } catch {
        encoded = metadata // a value the writer cannot encode: keep the footer
      }
      return { bytes: assemble(data, encoded), kind, note, expect: 'any' }
    }
    case 'tail-bytes': {
      if (random() < 0.6) {
        const length = Number(BigInt.asUintN(32, pickInt(base, random, metadata.length)))
        new DataView(out.buffer).setUint32(out.length - 8, length, true)
        return { bytes: out, kind, note: `footer length ${length}`, expect: 'any' }
      }
      flip(int(out.length - 8, out.length))
      return { bytes: out, kind, note: `trailer byte ${touched[0]}`, expect: 'any' }
    }
    case 'truncate': {
      const cut = random() < 0.5 ? int(Math.max(0, bytes.length - 4096), bytes.length) : int(0, bytes.length)
      if (random() < 0.5) return { bytes: bytes.slice(0, cut), kind, note: `cut at ${cut}`, expect: 'any' }
      // Cut, then the original trailer: the footer length now points somewhere else.
      return { bytes: concat(bytes.subarray(0, cut), bytes.subarray(bytes.length - 8)), kind, note: `cut at ${cut}, trailer kept`, expect: 'any' }
    }
    case 'splice': {
      const n = int(1, 300)
      const from = int(0, bytes.length - n)
      const to = random() < 0.7 ? int(Math.max(0, metadataOffset - 5000), bytes.length - n) : int(0, bytes.length - n)
      const r3 = random()
      if (r3 < 0.4) {
        out.set(bytes.subarray(from, from + n), to)
        return { bytes: out, kind, note: `${n} bytes from ${from} over ${to}`, expect: 'any' }
      }
      if (r3 < 0.7) return { bytes: concat(bytes.subarray(0, to), bytes.subarray(from, from + n), bytes.subarray(to)), kind, note: `${n} bytes from ${from} inserted at ${to}`, expect: 'any' }
      return { bytes: concat(bytes.subarray(0, to), bytes.subarray(to + n)), kind, note: `${n} bytes deleted at ${to}`, expect: 'any' }
    }
    case 'anywhere-bits': {
      for (let n = int(1, 5); n > 0; n--) flip(int(0, bytes.length))
      const inData = touched.every((at) => at >= 4 && at < base.dataEnd)
      const inBitsets = touched.every((at) => filters.some((f) => at >= f.offset + f.headerLength && at < f.offset + f.headerLength + f.numBytes))
      return { bytes: out, kind, note: `bits at ${touched.join(',')}`, expect: inData ? 'original' : inBitsets ? 'mutated' : 'any' }
    }
    default:
      throw new Error(`unknown mutation ${kind}`)
  }
}

/** A varint of the given span kind: zigzag for integers, plain for lengths and sizes, sometimes overlong. */
function varintBytes(kind, value, random) {
  const w = new ByteWriter()
  if (random() < 0.1) return w.raw([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).bytes() // 11 bytes
  if (kind === 'int' || kind === 'field-id') w.zigzag(value)
  else w.varint(value < 0n ? -value : value)
  const encoded = w.bytes()
  if (random() < 0.1 && encoded.length < 10) {
    // The same value, one byte longer (a non-minimal encoding).
    const longer = concat(encoded, Uint8Array.of(0))
    longer[encoded.length - 1] |= 0x80
    return longer
  }
  return encoded
}

function collectFields(s, ints, structs) {
  structs.push(s)
  for (const f of s.fields) {
    if (f.type === T.I32 || f.type === T.I64 || f.type === T.I16 || f.type === T.BYTE) ints.push(f)
    else if (f.type === T.STRUCT && !f.value.raw) collectFields(f.value, ints, structs)
    else if ((f.type === T.LIST || f.type === T.SET) && f.value.elemType === T.STRUCT) for (const item of f.value.items) collectFields(item, ints, structs)
  }
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Pool bytes in use (the core's batch region is static memory, not the pool's). */
function blocksInUse() {
  return memoryStats().poolInUseBytes
}

function describe(value) {
  if (value instanceof Uint8Array) return `0x${hex(value)}`
  if (typeof value === 'bigint') return `${value}n`
  return JSON.stringify(value)
}

/**
 * Runs iteration i: opens the mutated bytes, probes, maybe visits / reads parts. Returns
 * { outcome: 'ok' | <error code> } or throws an Error describing a finding.
 */
export async function runFuzzIteration(bases, seed, i) {
  const input = fuzzInput(bases, seed, i)
  const { base, mutation, column, mode } = input
  const name = `fuzz-${seed}-${i}`
  const values = base.values[column]
  const what = () => `iteration ${i} (seed ${seed}): ${describeInput(input)}`
  const checkError = (error, step) => {
    if (!(error instanceof ParquetBloomError)) throw new Error(`${what()}: ${step} threw a non-ParquetBloomError: ${error?.stack ?? error}`)
    if (!Object.values(ErrorCode).includes(error.code)) throw new Error(`${what()}: ${step}: unknown code ${error.code}`)
    if (!error.message.includes(name)) throw new Error(`${what()}: ${step}: ${error.code} message does not name the source: ${error.message}`)
    return error.code
  }
  const expected = (g, bytes) => {
    const f = base.parsed.filter(g, column)
    return expectedVerdicts(base.truth, column, g, values, bitsetOf(bytes, f), { written: bytes === base.parsed.bytes })
  }
  const exactAgainst = mutation.expect === 'original' ? base.parsed.bytes : mutation.expect === 'mutated' ? mutation.bytes : undefined

  let file
  try {
    file = await openParquet(mutation.bytes, { name, initialFetchSize: input.initialFetchSize })
  } catch (error) {
    const code = checkError(error, 'openParquet')
    if (exactAgainst && !(base.name === 'hyparquet-small' && code === ErrorCode.MALFORMED_FOOTER)) {
      throw new Error(`${what()}: a file with its footer intact failed to open: ${error.message}`)
    }
    return { outcome: code, kind: mutation.kind }
  }
  try {
    let outcome = 'ok'
    const reasons = new Set()
    try {
      // Exact against the reference filter: the bloom filter alone (statistics would answer first).
      const result = await file.probe(column, values, { mode, statistics: false })
      // With statistics too (the default) the same file answers the same, except that min/max may rule
      // out values the filter lets through: never the other way round.
      const withStats = await file.probe(column, values, { mode })
      withStats.rowGroups.forEach((rg, g) => rg.results.forEach((r, i) => {
        const alone = result.rowGroups[g].results[i]
        if (r.verdict !== alone.verdict && !(r.verdict === 'absent' && r.source === 'statistics' && alone.verdict !== 'absent')) {
          throw new Error(`${what()}: row group ${g} value ${describe(values[i])}: ${r.verdict} (${r.reason}) with statistics, ${alone.verdict} (${alone.reason}) without`)
        }
      }))
      if (result.rowGroups.length !== file.layout.rowGroupRows.length) throw new Error(`${what()}: ${result.rowGroups.length} row groups answered`)
      result.rowGroups.forEach((rg, g) => {
        if (rg.index !== g || rg.results.length !== values.length) throw new Error(`${what()}: malformed result for row group ${g}`)
        for (const r of rg.results) {
          if (!['absent', 'maybe', 'unknown'].includes(r.verdict) || typeof r.reason !== 'string') throw new Error(`${what()}: bad result ${JSON.stringify(r)}`)
        }
        const verdicts = rg.results.map((r) => r.verdict)
        if (exactAgainst) {
          const want = expected(g, exactAgainst)
          if (verdicts.join() !== want.join()) {
            throw new Error(`${what()}: row group ${g} answered ${verdicts.join(',')} where the reference says ${want.join(',')} for ${values.map(describe).join(',')}; reasons ${rg.results.map((r) => r.reason).join(' | ')}`)
          }
        } else if (chunkUntouched(base, file, mutation.bytes, g, column)) {
          // Whatever else changed, this chunk's filter is where it was, as it was, for a column of the
          // same type: it may turn unknown (a bound or length elsewhere changed) but never say otherwise.
          const want = expected(g, base.parsed.bytes)
          if (verdicts.some((v, k) => v !== 'unknown' && v !== want[k])) {
            throw new Error(`${what()}: row group ${g}, whose filter is untouched, answered ${verdicts.join(',')} where the reference says ${want.join(',')}; reasons ${rg.results.map((r) => r.reason).join(' | ')}`)
          }
        }
        for (const r of rg.results) reasons.add(r.verdict === 'unknown' ? r.reason : r.verdict)
      })
    } catch (error) {
      if (!(error instanceof ParquetBloomError)) throw error
      outcome = checkError(error, 'probe')
      if (exactAgainst) throw new Error(`${what()}: the probe of a file whose footer and filters are intact failed: ${error.message}`)
    }
    if (input.visit) {
      const g = input.visitRowGroup
      try {
        const checked = await file.visitBloomFilter(g, column, (filter) => filter.check(values, base.checkTypes[column]))
        if (exactAgainst) {
          const got = [...checked].map((v) => (v === 1 ? 'maybe' : 'absent'))
          if (got.join() !== expected(g, exactAgainst).join()) throw new Error(`${what()}: visitBloomFilter of row group ${g} disagrees with the reference`)
        }
      } catch (error) {
        if (!(error instanceof ParquetBloomError)) throw error.message?.startsWith('iteration') ? error : new Error(`${what()}: visitBloomFilter threw a non-ParquetBloomError: ${error?.stack ?? error}`)
        checkError(error, 'visitBloomFilter')
        if (exactAgainst) throw new Error(`${what()}: visitBloomFilter of an intact filter failed: ${error.message}`)
      }
    }
    if (input.parts) {
      try {
        const parts = await file.readBloomFilterParts(input.visitRowGroup, column)
        if (!parts || (parts.bitset === undefined && parts.error === undefined)) throw new Error(`${what()}: readBloomFilterParts returned ${JSON.stringify(parts)}`)
      } catch (error) {
        if (!(error instanceof ParquetBloomError)) throw error.message?.startsWith('iteration') ? error : new Error(`${what()}: readBloomFilterParts threw: ${error?.stack ?? error}`)
        checkError(error, 'readBloomFilterParts')
      }
    }
    return { outcome, reasons, kind: mutation.kind }
  } finally {
    await file.close()
  }
}

export function describeInput({ base, mutation, column, mode, initialFetchSize }) {
  return `${base.name}, ${mutation.kind} [${mutation.note}], column ${column}, mode ${mode}, initialFetchSize ${initialFetchSize}`
}

/** Row group g's chunk of `column` has the original filter location, bytes, column type and rows. */
function chunkUntouched(base, file, bytes, g, column) {
  const c = file.layout.columns.find((col) => col.name === column)
  if (!c || JSON.stringify([c.physicalType, c.typeLength, c.logicalType]) !== base.columnTypes[column]) return false
  if (!(file.layout.rowGroupRows[g] > 0)) return false
  const bloom = file.metadata.rowGroups[g].columns[c.index].bloom
  const original = base.blooms[g]?.[column]
  if (!bloom || !original || bloom.offset !== original.offset || (bloom.length !== undefined && bloom.length !== original.length)) return false
  const f = base.parsed.filter(g, column)
  const end = f.offset + f.headerLength + f.numBytes
  if (end > bytes.length) return false
  for (let k = f.offset; k < end; k++) if (bytes[k] !== base.parsed.bytes[k]) return false
  return true
}

/** The failures the harness must catch, for its own tests. */
async function simulateFailure(what) {
  switch (what) {
    case 'sync-hang': for (;;) { /* spins until the watchdog terminates the worker */ }
    case 'async-hang': return new Promise(() => {})
    case 'type-error': return null.outcome
    default: throw new Error(`unknown simulated failure ${what}`)
  }
}

/** A valid probe of the first base, exact, and the pool back where it was. */
async function healthCheck(bases, baselineBlocks, heapStart) {
  const base = bases[0]
  const file = await openParquet(base.parsed.bytes, { name: 'health-check', initialFetchSize: 512 })
  try {
    for (const column of ['i32', 'str']) {
      const values = base.values[column]
      const result = await file.probe(column, values, { mode: 'block', statistics: false })
      result.rowGroups.forEach((rg, g) => {
        const want = expectedVerdicts(base.truth, column, g, values, bitsetOf(base.parsed.bytes, base.parsed.filter(g, column)))
        if (rg.results.map((r) => r.verdict).join() !== want.join()) throw new Error(`health check: ${column} row group ${g} answered wrongly`)
      })
      const g = base.parsed.rowGroupCount - 1
      const checked = await file.visitBloomFilter(g, column, (filter) => filter.check(values, base.checkTypes[column]))
      const want = expectedVerdicts(base.truth, column, g, values, bitsetOf(base.parsed.bytes, base.parsed.filter(g, column)))
      if ([...checked].map((v) => (v === 1 ? 'maybe' : 'absent')).join() !== want.join()) throw new Error(`health check: visitBloomFilter of ${column} answered wrongly`)
    }
  } finally {
    await file.close()
  }
  if (blocksInUse() !== baselineBlocks) throw new Error(`health check: ${blocksInUse() - baselineBlocks} pool bytes leaked`)
  const heap = memoryStats().heapBytes
  if (heap - heapStart > HEAP_LIMIT) throw new Error(`health check: wasm heap grew from ${heapStart} to ${heap}`)
}

/**
 * Runs iterations [start, start + iterations) of `seed` (or until durationMs passes), reporting the
 * iteration under way in progress[0] so a watchdog can tell a hang from slowness.
 */
export async function runFuzz({ seed, iterations = Infinity, durationMs = Infinity, start = 0, dir, saveDir, progress, maxFindings = 20, simulate,
  iterationTimeoutMs = ITERATION_TIMEOUT_MS, duckdb = false }) {
  await init()
  const bases = await buildFuzzBases(dir, { duckdb })
  await healthCheck(bases, 0, memoryStats().heapBytes).catch(() => {}) // warm-up: scratch, batch buffers
  const baselineBlocks = blocksInUse()
  const heapStart = memoryStats().heapBytes
  const report = { seed, start, iterations: 0, outcomes: {}, verdicts: {}, kinds: {}, findings: [], findingCount: 0, healthChecks: 0, heapStart, heapEnd: heapStart, elapsedMs: 0 }
  const startedAt = performance.now()
  const finding = async (i, message) => {
    report.findingCount++
    if (report.findings.length < maxFindings) {
      report.findings.push({ iteration: i, message })
      if (saveDir) {
        await mkdir(saveDir, { recursive: true })
        await writeFile(path.join(saveDir, `seed-${seed}-iteration-${i}.parquet`), fuzzInput(bases, seed, i).mutation.bytes)
      }
    }
  }
  for (let i = start; i < start + iterations && performance.now() - startedAt < durationMs; i++) {
    if (progress) Atomics.store(progress, 0, i)
    let timer
    try {
      const { outcome, reasons, kind } = await Promise.race([
        simulate?.iteration === i ? simulateFailure(simulate.what) : runFuzzIteration(bases, seed, i),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`iteration ${i} (seed ${seed}): no answer after ${iterationTimeoutMs} ms`)), iterationTimeoutMs) }),
      ])
      report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1
      if (kind) report.kinds[kind] = (report.kinds[kind] ?? 0) + 1
      for (const reason of reasons ?? []) report.verdicts[reason] = (report.verdicts[reason] ?? 0) + 1
    } catch (error) {
      const message = typeof error?.message === 'string' && error.message.startsWith(`iteration ${i} `) ? error.message
        : `iteration ${i} (seed ${seed}): ${describeInput(fuzzInput(bases, seed, i))}: threw ${error?.stack ?? error}`
      await finding(i, message)
    } finally {
      clearTimeout(timer)
    }
    report.iterations++
    if (blocksInUse() !== baselineBlocks) await finding(i, `iteration ${i} (seed ${seed}): ${blocksInUse() - baselineBlocks} pool bytes still in use after it`)
    if (report.iterations % HEALTH_EVERY === 0) {
      try {
        await healthCheck(bases, baselineBlocks, heapStart)
        report.healthChecks++
      } catch (error) {
        await finding(i, `after iteration ${i} (seed ${seed}): ${error.message}`)
      }
    }
  }
  report.heapEnd = memoryStats().heapBytes
  report.elapsedMs = Math.round(performance.now() - startedAt)
  return report
}
