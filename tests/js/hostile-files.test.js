// Hostile files through openParquet + probe + visitBloomFilter + readBloomFilterParts: each case of the
// corpus (made at test time from a file hyparquet-writer writes, see helpers/hostile-corpus.js) must end
// in its typed error, or in 'unknown' verdicts naming the problem, within a second, without growing wasm
// memory or leaking pool blocks — and a good file must probe correctly right after, in the same module.
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, init, memoryStats, openParquet, ParquetBloomError } from '../../js/index.js'
import { bitsetOf, expectedVerdicts, probeValues, rebuild, TARGET } from '../../testkit/file-surgery.js'
import { buildCorpus } from './helpers/hostile-corpus.js'
import { getField, setField, T } from '../../testkit/thrift-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

const MiB = 1024 * 1024
// Within a second; the debug wasm build (SAFE_HEAP checks every access) gets four.
const TIME_LIMIT_MS = process.env.PARQUET_BLOOM_WASM_DIR ? 4000 : 1000
const HEAP_GROWTH_LIMIT = 64 * MiB

// Each case is run three ways: filters served from the tail read, and fetched by block or whole.
const CONFIGS = [
  { label: 'from the tail read, auto', open: {}, mode: 'auto' },
  { label: 'small tail, block reads', open: { initialFetchSize: 8 }, mode: 'block' },
  { label: 'small tail, whole-filter reads', open: { initialFetchSize: 1024 }, mode: 'filter' },
]
// What visitBloomFilter must throw for each kind of 'unknown' reason.
const VISIT_CODES = {
  'malformed-filter': [ErrorCode.MALFORMED_FILTER, ErrorCode.TOO_LARGE],
  'inconsistent-filter': [ErrorCode.MALFORMED_FILTER],
  'no-index': [ErrorCode.NO_BLOOM_FILTER],
  'unsupported-filter': [ErrorCode.UNSUPPORTED_FILTER],
  'encrypted-column': [ErrorCode.ENCRYPTED],
  'external-file': [ErrorCode.UNSUPPORTED_FILTER],
  'no-column-metadata': [ErrorCode.NO_BLOOM_FILTER, ErrorCode.MALFORMED_FOOTER, ErrorCode.UNSUPPORTED_FILTER],
}

const dir = await tempDir('hostile-files')
let corpus
let values
let baseline

before(async () => {
  await init()
  corpus = await buildCorpus(dir)
  values = probeValues(corpus.truth, TARGET.column)
  await probeGoodFile() // warms the pool, the scratch region and the core's batch buffers
  baseline = { ...memoryStats(), blocks: blocksInUse() }
})

/**
 * Pool bytes in use (the core's batch region is static memory, not the pool's); compared with its value after the
 * warm-up.
 */
function blocksInUse() {
  return memoryStats().poolInUseBytes
}

function assertMemoryBounded(what) {
  const now = memoryStats()
  assert.equal(blocksInUse(), baseline.blocks, `${what}: pool blocks still in use`)
  assert.ok(now.heapBytes - baseline.heapBytes < HEAP_GROWTH_LIMIT, `${what}: wasm heap grew from ${baseline.heapBytes} to ${now.heapBytes}`)
}

/** Every row group of a column answered exactly as the reference SBBF says, present values 'maybe'. */
function assertExact(result, g, what) {
  const { base, truth } = corpus
  const expected = expectedVerdicts(truth, TARGET.column, g, values, bitsetOf(base.bytes, base.filter(g, TARGET.column)))
  assert.deepEqual(result.rowGroups[g].results.map((r) => r.verdict), expected, `${what}: row group ${g}`)
}

/** The unmodified sample file, probed in every mode: the module must still work. */
async function probeGoodFile() {
  const file = await openParquet(corpus.sample.path)
  try {
    for (const mode of ['auto', 'block', 'filter']) {
      const result = await file.probe(TARGET.column, values, { mode, statistics: false })
      for (let g = 0; g < result.rowGroups.length; g++) assertExact(result, g, `good file, ${mode}`)
    }
    const g = TARGET.rowGroup
    const checked = await file.visitBloomFilter(g, TARGET.column, (filter) => filter.check(values, 'INT32'))
    const expected = expectedVerdicts(corpus.truth, TARGET.column, g, values, bitsetOf(corpus.base.bytes, corpus.base.filter(g, TARGET.column)))
    assert.deepEqual([...checked].map((v) => (v === 1 ? 'maybe' : 'absent')), expected, 'good file, visitBloomFilter')
  } finally {
    await file.close()
  }
}

function assertNamesFile(error, file, what) {
  assert.ok(error instanceof ParquetBloomError, `${what}: expected a ParquetBloomError, got ${error?.stack ?? error}`)
  assert.ok(Object.values(ErrorCode).includes(error.code), `${what}: unknown code ${error.code}`)
  assert.ok(error.message.includes(file), `${what}: the message does not name the file: ${error.message}`)
}

async function runCase(c, config) {
  const what = `${c.name} (${config.label})`
  const options = { ...config.open, ...c.open }
  const { expect } = c
  if (expect.code) {
    let error
    try {
      const file = await openParquet(c.path, options)
      try {
        await file.probe(TARGET.column, values, { mode: config.mode, statistics: false })
      } finally {
        await file.close()
      }
    } catch (e) {
      error = e
    }
    assert.ok(error, `${what}: expected ${expect.code}, but it opened and probed`)
    assertNamesFile(error, c.path, what)
    assert.equal(error.code, expect.code, `${what}: ${error.message}`)
    if (expect.message) assert.match(error.message, expect.message, what)
    return
  }
  const file = await openParquet(c.path, options)
  try {
    if (expect.opens) return
    // The corpus breaks bloom filters: statistics (which the cases leave intact) would answer first.
    const result = await file.probe(TARGET.column, values, { mode: config.mode, statistics: false })
    for (let g = 0; g < result.rowGroups.length; g++) {
      if (expect.unknown && g === TARGET.rowGroup) {
        for (const r of result.rowGroups[g].results) {
          assert.equal(r.verdict, 'unknown', `${what}: row group ${g} value ${r.value}: ${r.reason}`)
          assert.match(`${r.reason}: ${r.detail}`, expect.unknown, what)
        }
      } else {
        assertExact(result, g, what)
      }
    }
    await checkVisitAndParts(file, c, what, result.rowGroups[TARGET.rowGroup].results[0].reason)
  } finally {
    await file.close()
  }
}

/** visitBloomFilter and readBloomFilterParts on the broken chunk agree with the probe. */
async function checkVisitAndParts(file, c, what, reason) {
  const { base } = corpus
  const g = TARGET.rowGroup
  const parts = await file.readBloomFilterParts(g, TARGET.column)
  if (c.expect.answers) {
    const original = base.filter(g, TARGET.column)
    assert.equal(parts.error, undefined, what)
    assert.equal(parts.header.numBytes, original.numBytes, what)
    assert.deepEqual(parts.bitset, bitsetOf(base.bytes, original), what)
    const checked = await file.visitBloomFilter(g, TARGET.column, (filter) => filter.check(values, 'INT32'))
    const expected = expectedVerdicts(corpus.truth, TARGET.column, g, values, bitsetOf(base.bytes, original))
    assert.deepEqual([...checked].map((v) => (v === 1 ? 'maybe' : 'absent')), expected, what)
    return
  }
  assert.ok(parts.error !== undefined, `${what}: readBloomFilterParts reported no error`)
  if (parts.bitset !== undefined) {
    // Inspection may still get the bits of a refused filter, but only when the header says where they are.
    assert.equal(parts.bitset.length, parts.header?.numBytes, `${what}: a refused filter's bitset does not match its header`)
    const original = bitsetOf(base.bytes, base.filter(g, TARGET.column))
    if (c.bitsetFollowsHeader && Buffer.compare(Buffer.from(parts.bitset), Buffer.from(original)) !== 0) refusedBitsetMismatches.add(c.name)
  }
  let error
  await file.visitBloomFilter(g, TARGET.column, () => assert.fail(`${what}: visited a broken filter`)).catch((e) => { error = e })
  assertNamesFile(error, c.path, `${what}, visitBloomFilter`)
  const kind = reason
  if (!(VISIT_CODES[kind] ?? []).includes(error.code)) visitCodeMismatches.add(`${kind} → ${error.code} (${c.name})`)
}

// Checked by their own tests below: each is worth reporting on its own, not worth hiding the other checks.
const visitCodeMismatches = new Set()
const refusedBitsetMismatches = new Set()

describe('hostile files', () => {
  test('the corpus covers what the issue lists', () => {
    const kinds = { code: 0, unknown: 0, answers: 0, opens: 0 }
    for (const c of corpus.cases) kinds[Object.keys(c.expect).find((k) => k in kinds)]++
    assert.ok(corpus.cases.length >= 130, `only ${corpus.cases.length} cases`)
    assert.ok(kinds.code >= 60 && kinds.unknown >= 50 && kinds.answers >= 15, JSON.stringify(kinds))
  })

  // One test per case so a failure names it; the corpus is built in before(), so cases are listed lazily.
  test('every case ends in its error or verdict, fast, with memory bounded; a good file probes after each', async (t) => {
    for (const c of corpus.cases) {
      await t.test(c.name, async () => {
        for (const config of CONFIGS) {
          const started = performance.now()
          await runCase(c, config)
          const took = performance.now() - started
          assert.ok(took < TIME_LIMIT_MS, `${c.name} (${config.label}) took ${took.toFixed(0)} ms`)
          assertMemoryBounded(`${c.name} (${config.label})`)
        }
        await probeGoodFile()
      })
    }
  })
})

describe('limits', () => {
  test('a filter read over maxBytes rejects the probe with TOO_LARGE naming the file; the file probes again in block mode', async () => {
    const file = await openParquet(corpus.sample.path, { maxBytes: 2050, initialFetchSize: 8 })
    try {
      const error = await file.probe(TARGET.column, values, { mode: 'filter' }).catch((e) => e)
      assertNamesFile(error, corpus.sample.path, 'filter over maxBytes')
      assert.equal(error.code, ErrorCode.TOO_LARGE)
      assert.match(error.message, /over maxBytes \(2050\)/)
      const result = await file.probe(TARGET.column, values, { mode: 'block' })
      for (let g = 0; g < result.rowGroups.length; g++) assertExact(result, g, 'block mode under maxBytes')
    } finally {
      await file.close()
    }
    assertMemoryBounded('maxBytes')
  })

  test('coalesced requests never exceed maxBytes when every filter fits', async () => {
    // A wide coalescing gap would merge the three row groups' filters into one 35 KB request.
    const file = await openParquet(corpus.sample.path, { maxBytes: 4096, initialFetchSize: 8, coalesceGap: 1 << 20 })
    try {
      const result = await file.probe(TARGET.column, values, { mode: 'filter' })
      for (let g = 0; g < result.rowGroups.length; g++) assertExact(result, g, 'coalesced under maxBytes')
    } finally {
      await file.close()
    }
  })
})

test('visitBloomFilter refusals carry the code their reason names', () => {
  assert.deepEqual([...visitCodeMismatches], [])
})

// A header whose decode stopped early (truncated, or longer than 64 KiB) does not say where its bitset
// starts: its headerLength is where the decoder stopped (found here: 'header with a 70000-byte unknown field').
test('readBloomFilterParts returns a refused filter\'s bits only when they are its bitset', () => {
  assert.deepEqual([...refusedBitsetMismatches], [])
})

// Found by the fuzzer (seed 424242, iteration 13674): a mutated footer made a BOOLEAN column INT96, and
// the values layer's BAD_VALUE named neither the file nor the column.
test('a value that does not fit the type a file declares: BAD_VALUE naming the file and the column', async () => {
  const bytes = rebuild(corpus.base, (meta) => {
    const bool = getField(meta, 2).value.items.find((e) => new TextDecoder().decode(getField(e, 4).value) === 'bool')
    setField(bool, 1, T.I32, 3) // INT96
  })
  const file = await openParquet(bytes, { name: 'bool-declared-int96.parquet' })
  try {
    const error = await file.probe('bool', [true]).catch((e) => e)
    assert.ok(error instanceof ParquetBloomError && error.code === ErrorCode.BAD_VALUE, String(error))
    assert.match(error.message, /bool-declared-int96\.parquet/)
    assert.match(error.message, /\bbool\b/)
  } finally {
    await file.close()
  }
})
