// Batches of any size stream through the fixed batch region a chunk at a time (js/wasm/batch-writer.js), and a
// probe's hashes are checked through it a slice at a time (js/indexes/bloom-reads.js): memory stays bounded for
// million-value batches and probes, and answers across chunk and slice boundaries, ropes cut short by the region's
// end and values too large for the region all match hyparquet's independent SBBF.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { afterEach, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

import { BloomFilter, ErrorCode, init, memoryStats } from '../../js/index.js'
import { getCore } from '../../js/wasm/core.js'
import { HashedCandidates } from '../../js/indexes/bloom-reads.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { referenceFilter, referenceHash, rng } from '../../testkit/reference-sbbf.js'
import { writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const run = promisify(execFile)
const MiB = 1 << 20

before(async () => {
  await init()
})

const live = []
const track = (filter) => (live.push(filter), filter)
afterEach(() => {
  while (live.length) live.pop().free()
})

describe('memory of million-value batches', () => {
  test('insert + check of 1M INT64s and 1M strings in a fresh module: heap grows <= 8 MiB, pool in use back to the filter', async () => {
    const { stdout } = await run(process.execPath, [path.join(here, 'helpers', 'batch-memory-child.js')], { maxBuffer: MiB, timeout: 120_000 })
    const { filterBytes, before: start, after: end, everyInsertedValueMaybe } = JSON.parse(stdout)
    assert.ok(everyInsertedValueMaybe, 'an inserted value answered absent')
    assert.equal(start.poolInUseBytes, filterBytes, 'before: only the filter is in use')
    assert.equal(end.poolInUseBytes, filterBytes, 'after: pool memory in use is the filter\'s bitset again')
    const growth = end.heapBytes - start.heapBytes
    assert.ok(growth <= 8 * MiB, `wasm heap grew by ${(growth / MiB).toFixed(2)} MiB`)
  })

  test('probes of 1M values through a file\'s filters (whole, by blocks) and a format-1 sidecar index: no heap growth', async () => {
    // The hashes are checked a slice at a time through the fixed batch region: 1M values once took 9 to 41 bytes
    // each of pool scratch (12 MB to 41 MB of heap, never given back to the system, held in use after the probe).
    const dir = await tempDir('probe-memory')
    const { valuesOf } = await writeSidecarDataset(dir, { files: 2, groups: 4, groupRows: 256 })
    await buildSidecarIndex([dir], path.join(dir, '_v1.puffin'), { columns: ['id'], format: 1 })
    const stored = valuesOf(0).map(String)
    const { stdout } = await run(process.execPath, [path.join(here, 'helpers', 'probe-memory-child.js'), JSON.stringify({ dir, stored })],
      { maxBuffer: MiB, timeout: 240_000 })
    const { before: start, after: end, falseNegatives } = JSON.parse(stdout)
    assert.equal(falseNegatives, 0, 'a stored value answered absent')
    assert.equal(end.poolInUseBytes, start.poolInUseBytes, 'pool memory in use after the probes')
    const growth = end.heapBytes - start.heapBytes
    assert.ok(growth <= MiB, `wasm heap grew by ${(growth / MiB).toFixed(2)} MiB`)
  })
})

/** Our filter and the reference after the same inserts: same bitset, then the same answers to `probes`. */
function assertAgrees(type, inserted, probes, { numBytes = 1 << 16, insertInput = inserted, probeInput = probes } = {}) {
  const ref = referenceFilter(numBytes, typeof type === 'string' ? type : type.type)
  for (const v of inserted) if (v != null) ref.insert(v)
  const f = track(BloomFilter.create({ numBytes }))
  f.insert(insertInput, type)
  assert.deepEqual(f.bitset(), ref.bytes(), 'bitset after insert')
  const answers = f.check(probeInput, type)
  assert.equal(answers.length, probes.length)
  for (let i = 0; i < probes.length; i++) {
    const expected = probes[i] == null ? 2 : ref.contains(probes[i]) ? 1 : 0
    if (answers[i] !== expected) assert.fail(`probe ${i}: got ${answers[i]}, reference ${expected}`)
  }
  return f
}

function poolInUse() {
  return memoryStats().poolInUseBytes
}

describe('answers across chunks agree with the reference', () => {
  test('a probe\'s hashes checked a slice at a time (whole bitset, block indices, gathered blocks) == the reference', () => {
    const numBytes = 1 << 14
    const numBlocks = numBytes / 32
    const ref = referenceFilter(numBytes, 'INT64')
    for (let i = 0; i < 5000; i++) ref.insert(BigInt(i) * 7n)
    const bitset = ref.bytes()
    const random = rng(43)
    // Each check's slice is as many candidates as the batch region holds at 9, 12 or 41 bytes each: one either side.
    const steps = [9, 12, 41].map((bytes) => Math.floor(getCore().batchRegionBytes / bytes))
    for (const n of [0, 1, ...steps.flatMap((step) => [step - 1, step, step + 1, 2 * step + 1])]) {
      const values = Array.from({ length: n }, () => BigInt(Math.floor(random() * 40000)))
      const hashed = new HashedCandidates(values, 'INT64', 0)
      const indices = hashed.blockIndices(numBlocks)
      const whole = hashed.checkBitset(bitset)
      const blocks = hashed.checkBlocks(Array.from(indices, (b) => bitset.subarray(b * 32, b * 32 + 32)))
      assert.equal(indices.length, n)
      for (let i = 0; i < n; i++) {
        const hash = referenceHash(values[i], 'INT64')
        const expected = ref.contains(values[i]) ? 1 : 0
        if (indices[i] !== Number(((hash >> 32n) * BigInt(numBlocks)) >> 32n) || whole[i] !== expected || blocks[i] !== expected) {
          assert.fail(`${n} values, value ${i}: block ${indices[i]}, whole ${whole[i]}, blocks ${blocks[i]}, reference ${expected}`)
        }
      }
    }
  })

  test('INT64: BigInt64Array and number[] with nulls over many chunks', () => {
    const random = rng(41)
    const n = 100_003
    const typed = new BigInt64Array(n)
    for (let i = 0; i < n; i++) typed[i] = (BigInt(Math.floor(random() * 2 ** 31)) << 32n) | BigInt(Math.floor(random() * 2 ** 32))
    const probes = Array.from({ length: n }, (_, i) => (i % 7 === 3 ? null : i % 2 ? Number(BigInt.asIntN(53, typed[i])) : Math.floor(random() * 2 ** 40)))
    const f = assertAgrees('INT64', [...typed], probes, { insertInput: typed })
    assert.ok(f.check(typed, 'INT64').every((a) => a === 1), 'false negative')
  })

  test('strings: ASCII, non-ASCII, bytes, empties and nulls mixed over many chunks and ropes', () => {
    const random = rng(42)
    const alphabet = ['a', 'q', '7', 'é', '中', '😀', '\u0000']
    const pick = (i) => {
      if (i % 97 === 5) return null
      if (i % 89 === 1) return ''
      if (i % 53 === 2) return Uint8Array.from({ length: 1 + (i % 40) }, (_, k) => (i * 31 + k) & 255)
      const len = 1 + Math.floor(random() * 24)
      // Most ropes are ASCII (the fast path); some carry a non-ASCII letter.
      const letters = i % 300 < 280 ? 'abcdefghijklmnopqrstuvwxyz' : alphabet.join('')
      return Array.from({ length: len }, () => letters[Math.floor(random() * letters.length)]).join('')
    }
    const values = Array.from({ length: 40_000 }, (_, i) => pick(i))
    assertAgrees('BYTE_ARRAY', values.slice(0, 20_000), values)
  })

  test('long strings: chunks end on the region\'s bytes, values larger than the region go alone', () => {
    const before = poolInUse()
    const random = rng(43)
    const ascii = (len) => Array.from({ length: len }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')
    const values = []
    for (let i = 0; i < 900; i++) values.push(i % 50 === 0 ? ascii(900) + 'ß' : ascii(700 + (i % 400)))
    values.splice(100, 0, ascii(300_000)) // over the 256 KiB region in ASCII
    values.splice(400, 0, '中'.repeat(100_000)) // 100,000 units, 300,000 UTF-8 bytes
    values.splice(600, 0, Uint8Array.from({ length: 400_000 }, (_, k) => k & 255))
    values.push(ascii(200_000)) // fits an empty region, not the rest of a chunk
    const probes = [...values, ...values.map((v) => (typeof v === 'string' ? `${v}!` : v))]
    assertAgrees('BYTE_ARRAY', values, probes)
    assert.equal(poolInUse(), before + (1 << 16), 'only the filter stays in use')
  })

  test('columnar BYTE_ARRAY with offset and validity over many chunks == the reference', () => {
    const random = rng(44)
    const n = 30_000
    const pad = 5
    const strings = Array.from({ length: n + pad }, (_, i) => `s${i}-${Math.floor(random() * 1e9)}`)
    const utf8 = new TextEncoder()
    const encoded = strings.map((s) => utf8.encode(s))
    const offsets = new Int32Array(encoded.length + 1)
    encoded.forEach((b, i) => { offsets[i + 1] = offsets[i] + b.length })
    const data = new Uint8Array(offsets[encoded.length])
    encoded.forEach((b, i) => data.set(b, offsets[i]))
    const validityOffset = 3
    const validity = new Uint8Array(Math.ceil((n + validityOffset) / 8))
    const slots = []
    for (let i = 0; i < n; i++) {
      const valid = i % 11 !== 4
      if (valid) validity[(validityOffset + i) >> 3] |= 1 << ((validityOffset + i) & 7)
      slots.push(valid ? strings[pad + i] : null)
    }
    const input = { values: data, offsets, validity, offset: pad, validityOffset, length: n }
    assertAgrees('BYTE_ARRAY', slots.slice(0, n / 2), slots, { insertInput: { ...input, length: n / 2 }, probeInput: input })
  })

  test('columnar BOOLEAN bitmap and validity from bit offsets over many chunks', () => {
    const n = 100_000
    const offset = 5
    const validityOffset = 2
    const bits = new Uint8Array(Math.ceil((n + offset) / 8))
    const validity = new Uint8Array(Math.ceil((n + validityOffset) / 8))
    const slots = []
    for (let i = 0; i < n; i++) {
      const value = i % 3 === 0
      const valid = i % 13 !== 6
      if (value) bits[(offset + i) >> 3] |= 1 << ((offset + i) & 7)
      if (valid) validity[(validityOffset + i) >> 3] |= 1 << ((validityOffset + i) & 7)
      slots.push(valid ? value : null)
    }
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    f.insert([true], 'BOOLEAN')
    const answers = f.check({ values: bits, validity, offset, validityOffset, length: n }, 'BOOLEAN')
    const ref = referenceFilter(1024, 'BOOLEAN')
    ref.insert(true)
    for (let i = 0; i < n; i++) {
      const expected = slots[i] == null ? 2 : ref.contains(slots[i]) ? 1 : 0
      if (answers[i] !== expected) assert.fail(`slot ${i}: got ${answers[i]}, reference ${expected}`)
    }
  })

  test('FIXED_LEN_BYTE_ARRAY wider than the region, from arrays and from columnar bytes', () => {
    const before = poolInUse()
    const width = 300_000
    const type = { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: width }
    const values = Array.from({ length: 3 }, (_, v) => Uint8Array.from({ length: width }, (_, k) => (k * (v + 3)) & 255))
    const other = Uint8Array.from({ length: width }, (_, k) => (k * 7 + 1) & 255)
    assertAgrees(type, values.slice(0, 2), [...values, other])
    const columnar = new Uint8Array(width * 4)
    values.forEach((v, i) => columnar.set(v, i * width))
    columnar.set(other, 3 * width)
    assertAgrees(type, values.slice(0, 2), [...values, other], { probeInput: { values: columnar, length: 4 } })
    assert.equal(poolInUse(), before + 2 * (1 << 16), 'only the two filters stay in use')
  })
})

describe('errors part-way through a batch', () => {
  test('a bad value after many chunks throws BAD_VALUE and leaves no pool memory in use', () => {
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    const before = poolInUse()
    const values = [...Array.from({ length: 70_000 }, (_, i) => `v${i}`), 42]
    assert.throws(() => f.check(values, 'BYTE_ARRAY'), (e) => e.code === ErrorCode.BAD_VALUE && /value 70000/.test(e.message))
    const ints = [...Array.from({ length: 70_000 }, (_, i) => i), 'x']
    assert.throws(() => f.insert(ints, 'INT32'), (e) => e.code === ErrorCode.BAD_VALUE && /value 70000/.test(e.message))
    assert.equal(poolInUse(), before)
    // The values before the bad one were inserted: never a false "absent" for them.
    assert.ok(f.check(ints.slice(0, 1000), 'INT32').every((a) => a === 1))
  })

  test('a columnar batch whose buffers are too short fails before any chunk is inserted', () => {
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    const empty = f.bitset()
    assert.throws(() => f.insert({ values: new BigInt64Array(50_000), length: 50_001 }, 'INT64'), { code: ErrorCode.BAD_VALUE })
    const offsets = Int32Array.from({ length: 50_001 }, (_, i) => i)
    assert.throws(() => f.insert({ values: new Uint8Array(49_999), offsets, length: 50_000 }, 'BYTE_ARRAY'), { code: ErrorCode.BAD_VALUE })
    assert.deepEqual(f.bitset(), empty)
  })
})

describe('hashValues', () => {
  test('streams the hashes of a large batch, equal to hyparquet\'s XXH64 of the PLAIN bytes', async () => {
    const { hashValues } = await import('../../js/wasm/batch-writer.js')
    const { referenceHash } = await import('../../testkit/reference-sbbf.js')
    const strings = Array.from({ length: 25_000 }, (_, i) => (i % 1000 === 7 ? 'x'.repeat(300_000) : `h${i}é`))
    const ints = BigInt64Array.from({ length: 70_000 }, (_, i) => BigInt(i) * 1234567891011n)
    for (const [values, type] of [[strings, 'BYTE_ARRAY'], [ints, 'INT64']]) {
      const hashes = hashValues(getCore(), values, type)
      const view = new DataView(hashes.buffer, hashes.byteOffset, hashes.byteLength)
      assert.equal(hashes.length, values.length * 8)
      for (let i = 0; i < values.length; i++) assert.equal(view.getBigUint64(i * 8, true), referenceHash(values[i], type), `${type} ${i}`)
    }
    assert.throws(() => hashValues(getCore(), ['a', null], 'BYTE_ARRAY'), { code: ErrorCode.BAD_VALUE })
  })
})
