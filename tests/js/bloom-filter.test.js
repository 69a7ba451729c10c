// BloomFilter through the public JS API, checked against the parquet-testing fixtures, the published
// vectors, and an independent pure-JS reference (hyparquet's XXH64 + SBBF over hand-built PLAIN bytes).
import assert from 'node:assert/strict'
import { afterEach, before, describe, test } from 'node:test'

import { BloomFilter, ErrorCode, init, memoryStats, ParquetBloomError } from '../../js/index.js'
import {
  missingFixture, PARQUET_TESTING_ABSENT, PARQUET_TESTING_PRESENT, readFixture, readVectors,
} from './helpers/fixtures.js'
import { referenceFilter, rng } from '../../testkit/reference-sbbf.js'

before(async () => {
  await init()
})

// Node 20 has no `using`: filters a test creates are freed after it.
const live = []
const track = (filter) => (live.push(filter), filter)
afterEach(() => {
  while (live.length) live.pop().free()
})

describe('parquet-testing fixtures', () => {
  test('bloom_filter.xxhash.bin: present values maybe, absent values absent', { skip: missingFixture('parquet-testing/bloom_filter.xxhash.bin') }, () => {
    const f = track(BloomFilter.fromBytes(readFixture('parquet-testing/bloom_filter.xxhash.bin')))
    assert.equal(f.numBytes, 1024)
    assert.deepEqual([...f.check(['hello', 'parquet', 'bloom', 'filter'], 'BYTE_ARRAY')], [1, 1, 1, 1])
    assert.deepEqual([...f.check(['Hello', 'foo', ''], 'BYTE_ARRAY')], [0, 0, 0])
  })

  test('a 1024-byte filter with the four words serializes byte-identical to bloom_filter.xxhash.bin', { skip: missingFixture('parquet-testing/bloom_filter.xxhash.bin') }, () => {
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    f.insert(['hello', 'parquet', 'bloom', 'filter'], 'BYTE_ARRAY')
    assert.deepEqual(f.toBytes(), readFixture('parquet-testing/bloom_filter.xxhash.bin'))
  })

  for (const [file, offset, numBytes] of [
    ['data_index_bloom_encoding_stats.parquet', 192, 1024],
    ['data_index_bloom_encoding_with_length.parquet', 253, 2048],
  ]) {
    test(`${file}: filter at ${offset} answers every listed present/absent value`, { skip: missingFixture(`parquet-testing/${file}`) }, () => {
      const f = track(BloomFilter.fromBytes(readFixture(`parquet-testing/${file}`).subarray(offset)))
      assert.equal(f.numBytes, numBytes)
      assert.ok(f.check(PARQUET_TESTING_PRESENT, 'BYTE_ARRAY').every((r) => r === 1))
      assert.ok(f.check(PARQUET_TESTING_ABSENT, 'BYTE_ARRAY').every((r) => r === 0))
    })
  }

  test('bloom_filter.bin (legacy format) is refused as unsupported', { skip: missingFixture('parquet-testing/bloom_filter.bin') }, () => {
    assert.throws(() => BloomFilter.fromBytes(readFixture('parquet-testing/bloom_filter.bin')),
      (e) => e instanceof ParquetBloomError && e.code === ErrorCode.UNSUPPORTED_FILTER && /pre-release/.test(e.message))
  })
})

describe('published vectors', { skip: missingFixture('sbbf-vectors.json') }, () => {
  test('sizing matches arrow C++ OptimalValueTest', () => {
    for (const { ndv, fpp, bits } of readVectors().optimal_num_of_bits.cases) {
      const f = track(BloomFilter.create({ ndv, fpp }))
      assert.equal(f.numBytes * 8, bits, `ndv ${ndv} fpp ${fpp}`)
    }
  })

  test('Spark 32-byte bitset: a0..a9 present, a10..a19 absent', () => {
    const f = track(BloomFilter.fromBitset(new Uint8Array(readVectors().spark_fixture_32_bytes.bitset)))
    const present = Array.from({ length: 10 }, (_, i) => `a${i}`)
    const absent = Array.from({ length: 10 }, (_, i) => `a${i + 10}`)
    assert.deepEqual([...f.check(present, 'BYTE_ARRAY')], Array(10).fill(1))
    assert.deepEqual([...f.check(absent, 'BYTE_ARRAY')], Array(10).fill(0))
  })

  test('header bytes match the published encoding', () => {
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    const expected = readVectors().bloom_filter_header.numBytes_1024.split(' ').map((h) => parseInt(h, 16))
    assert.deepEqual([...f.toBytes().subarray(0, 16)], expected)
  })
})

/** Random values of each type and how to feed them to both implementations. */
function samples(type, n, random) {
  const int = (lo, hi) => Math.floor(lo + random() * (hi - lo))
  const bytes = (len) => Uint8Array.from({ length: len }, () => int(0, 256))
  switch (type) {
    case 'BOOLEAN': return Array.from({ length: n }, () => random() < 0.5)
    case 'INT32': return Array.from({ length: n }, () => int(-(2 ** 31), 2 ** 31))
    case 'INT64': return Array.from({ length: n }, () => (BigInt(int(-(2 ** 31), 2 ** 31)) << 32n) | BigInt(int(0, 2 ** 32)))
    case 'FLOAT': return Array.from({ length: n }, () => Math.fround((random() - 0.5) * 1e6))
    case 'DOUBLE': return Array.from({ length: n }, () => (random() - 0.5) * 1e12)
    case 'BYTE_ARRAY': {
      const alphabet = ['a', 'Z', '0', 'é', 'ß', '中', '😀', ' ', '\u0000']
      return Array.from({ length: n }, () => Array.from({ length: int(0, 12) }, () => alphabet[int(0, alphabet.length)]).join(''))
    }
    case 'INT96': return Array.from({ length: n }, () => bytes(12))
    case 'FIXED_LEN_BYTE_ARRAY': return Array.from({ length: n }, () => bytes(16))
  }
}

const TYPES = ['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'INT96', 'FIXED_LEN_BYTE_ARRAY']

describe('agreement with an independent reference (hyparquet XXH64 + SBBF)', () => {
  for (const type of TYPES) {
    test(`${type}: same bitset after the same inserts, same answers`, () => {
      const random = rng(0xb10f + type.length)
      const inserted = samples(type, 500, random)
      const probes = samples(type, 2000, random)
      const ref = referenceFilter(4096, type)
      for (const v of inserted) ref.insert(v)
      const f = track(BloomFilter.create({ numBytes: 4096 }))
      f.insert(inserted, type)
      assert.deepEqual(f.bitset(), ref.bytes())
      const answers = f.check(probes, type)
      probes.forEach((v, i) => assert.equal(answers[i], ref.contains(v) ? 1 : 0, `probe ${i}`))
    })
  }

  test('non-power-of-two filter (96 blocks) agrees and has no false negatives', () => {
    const random = rng(96)
    const values = samples('INT64', 3000, random)
    const ref = referenceFilter(96 * 32, 'INT64')
    for (const v of values) ref.insert(v)
    const f = track(BloomFilter.create({ numBytes: 96 * 32 }))
    f.insert(new BigInt64Array(values), 'INT64')
    assert.deepEqual(f.bitset(), ref.bytes())
    assert.ok(f.check(values, 'INT64').every((r) => r === 1))
  })
})

describe('batch forms agree', () => {
  test('bulk check == scalar mightContain for every type', () => {
    for (const type of TYPES) {
      const random = rng(7)
      const f = track(BloomFilter.create({ numBytes: 1024 }))
      f.insert(samples(type, 100, random), type)
      const probes = samples(type, 300, random)
      const bulk = f.check(probes, type)
      probes.forEach((v, i) => assert.equal(bulk[i] === 1, f.mightContain(v, type), `${type} probe ${i}`))
    }
  })

  test('typed arrays, number[] and bigint[] give the same answers', () => {
    const f = track(BloomFilter.create({ numBytes: 2048 }))
    f.insert(new BigInt64Array([1n, -5n, 2n ** 40n]), 'INT64')
    const asNumbers = f.check([1, -5, 2 ** 40, 7, -(2 ** 40)], 'INT64')
    const asBigints = f.check([1n, -5n, 2n ** 40n, 7n, -(2n ** 40n)], 'INT64')
    const asTyped = f.check(new BigInt64Array([1n, -5n, 2n ** 40n, 7n, -(2n ** 40n)]), 'INT64')
    assert.deepEqual(asNumbers, asBigints)
    assert.deepEqual(asTyped, asBigints)
    assert.deepEqual([...asBigints.subarray(0, 3)], [1, 1, 1])
    // UINT64 above 2^63 is the same bit pattern as its signed reinterpretation.
    f.insert([2n ** 64n - 1n], 'INT64')
    assert.equal(f.mightContain(-1n, 'INT64'), true)
  })

  test('nulls are skipped on insert and reported as 2 on check', () => {
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    f.insert(['a', null, 'b', undefined], 'BYTE_ARRAY')
    assert.deepEqual([...f.check(['a', null, 'b', 'zzz-not-there', undefined], 'BYTE_ARRAY')], [1, 2, 1, 0, 2])
  })

  test('columnar (Arrow-style) input with validity and offset == dense answers', () => {
    const random = rng(11)
    const values = samples('BYTE_ARRAY', 200, random)
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    f.insert(values.slice(0, 100), 'BYTE_ARRAY')
    // Build Arrow buffers for slots [3, 203) of a column whose first 3 slots are padding.
    const utf8 = new TextEncoder()
    const encoded = [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), ...values.map((v) => utf8.encode(v))]
    const offsets = new Int32Array(encoded.length + 1)
    encoded.forEach((b, i) => { offsets[i + 1] = offsets[i] + b.length })
    const data = new Uint8Array(offsets[encoded.length])
    encoded.forEach((b, i) => data.set(b, offsets[i]))
    const validity = new Uint8Array(Math.ceil(encoded.length / 8))
    const nullAt = new Set([0, 5, 17, 18, 19, 150])
    for (let i = 0; i < values.length; i++) if (!nullAt.has(i)) validity[(i + 3) >> 3] |= 1 << ((i + 3) & 7)
    const got = f.check({ values: data, offsets, validity, offset: 3, length: values.length }, 'BYTE_ARRAY')
    const dense = f.check(values, 'BYTE_ARRAY')
    for (let i = 0; i < values.length; i++) assert.equal(got[i], nullAt.has(i) ? 2 : dense[i], `slot ${i}`)
  })

  test('BOOLEAN straight from a bitmap with a bit offset', () => {
    const f = track(BloomFilter.create({ numBytes: 32 }))
    f.insert({ values: new Uint8Array([0b00001000]), offset: 3, length: 1 }, 'BOOLEAN') // one true
    assert.equal(f.mightContain(true, 'BOOLEAN'), true)
    assert.equal(f.mightContain(false, 'BOOLEAN'), false)
  })

  test('FIXED_LEN_BYTE_ARRAY with an explicit typeLength', () => {
    const f = track(BloomFilter.create({ numBytes: 1024 }))
    const type = { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 3 }
    f.insert([new Uint8Array([1, 2, 3])], type)
    assert.deepEqual([...f.check([new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])], type)], [1, 0])
    assert.throws(() => f.check([new Uint8Array([1, 2])], type), { code: ErrorCode.BAD_VALUE })
  })
})

describe('property: random inserts', () => {
  test('0 false negatives and measured FPP within the target', () => {
    const random = rng(2024)
    const n = 20000
    const inserted = new BigInt64Array(n)
    for (let i = 0; i < n; i++) inserted[i] = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32))
    const f = track(BloomFilter.create({ ndv: n, fpp: 0.01 }))
    f.insert(inserted, 'INT64')
    assert.ok(f.check(inserted, 'INT64').every((r) => r === 1), 'false negative')
    const probes = new BigInt64Array(200000)
    // Odd values only; inserted ones are made even below, so no probe was inserted.
    for (let i = 0; i < n; i++) inserted[i] &= ~1n
    for (let i = 0; i < probes.length; i++) probes[i] = ((BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32))) | 1n
    const positives = f.check(probes, 'INT64').reduce((a, r) => a + r, 0)
    assert.ok(positives / probes.length <= 0.01, `fpp ${positives / probes.length}`)
  })
})

describe('errors and lifetime', () => {
  test('wrong-kind values are a BAD_VALUE error naming the index', () => {
    const f = track(BloomFilter.create({ numBytes: 64 }))
    assert.throws(() => f.check([1, 'x'], 'INT32'), (e) => e.code === ErrorCode.BAD_VALUE && /value 1/.test(e.message))
    assert.throws(() => f.check([1.5], 'INT64'), { code: ErrorCode.BAD_VALUE })
    assert.throws(() => f.check([2 ** 32], 'INT32'), { code: ErrorCode.BAD_VALUE })
    assert.throws(() => f.check([{}], 'BYTE_ARRAY'), { code: ErrorCode.BAD_VALUE })
    assert.throws(() => f.check(new Float64Array(2), 'INT64'), { code: ErrorCode.BAD_VALUE })
    assert.throws(() => f.check([1], 'INT33'), { code: ErrorCode.INVALID_ARGUMENT })
  })

  test('bad sizes are refused', () => {
    assert.throws(() => BloomFilter.create({ numBytes: 48 }), { code: ErrorCode.INVALID_ARGUMENT })
    assert.throws(() => BloomFilter.create({ numBytes: 2 ** 27 + 32 }), { code: ErrorCode.TOO_LARGE })
    assert.throws(() => BloomFilter.create({ ndv: 10, fpp: 1.5 }), { code: ErrorCode.INVALID_ARGUMENT })
    assert.throws(() => BloomFilter.create({}), { code: ErrorCode.INVALID_ARGUMENT })
  })

  test('fromBytes: truncated header, truncated bitset, empty unions', () => {
    const f = track(BloomFilter.create({ numBytes: 64 }))
    const bytes = f.toBytes()
    assert.throws(() => BloomFilter.fromBytes(bytes.subarray(0, 5)), { code: ErrorCode.MALFORMED_FILTER })
    assert.throws(() => BloomFilter.fromBytes(bytes.subarray(0, bytes.length - 1)), { code: ErrorCode.MALFORMED_FILTER })
    // numBytes 64, then algorithm/hash/compression as empty unions (struct with immediate STOP).
    const empty = new Uint8Array([0x15, 0x80, 0x01, 0x1c, 0x00, 0x1c, 0x00, 0x1c, 0x00, 0x00, ...new Uint8Array(64)])
    assert.throws(() => BloomFilter.fromBytes(empty), { code: ErrorCode.UNSUPPORTED_FILTER })
    assert.throws(() => BloomFilter.fromBytes(new Uint8Array(0)), { code: ErrorCode.MALFORMED_FILTER })
  })

  test('a freed filter throws FILTER_RELEASED and its memory returns to the pool', () => {
    const before = memoryStats().poolInUseBytes
    const f = BloomFilter.create({ numBytes: 1 << 20 })
    assert.ok(memoryStats().poolInUseBytes >= before + (1 << 20))
    f.free()
    f.free() // idempotent
    assert.equal(memoryStats().poolInUseBytes, before)
    assert.throws(() => f.check([1], 'INT32'), { code: ErrorCode.FILTER_RELEASED })
    assert.throws(() => f.numBytes, { code: ErrorCode.FILTER_RELEASED })
  })

  test('memoryStats reports the heap and the pool', () => {
    const s = memoryStats()
    for (const k of ['heapBytes', 'poolBytes', 'poolInUseBytes']) assert.equal(typeof s[k], 'number', k)
    assert.ok(s.heapBytes >= s.poolBytes && s.poolBytes >= s.poolInUseBytes)
  })
})
