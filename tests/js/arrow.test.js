// Apache Arrow JS vectors as filter input: every supported type, with nulls, slices and several chunks,
// must answer exactly as the same values given as a plain array (nulls as 2), and insert the same bits.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import * as arrow from 'apache-arrow'

import { BloomFilter, init } from '../../js/index.js'
import { rng } from '../../testkit/reference-sbbf.js'

before(async () => {
  await init()
})
const live = []
after(() => {
  while (live.length) live.pop().free()
})
const filter = (numBytes = 4096) => {
  const f = BloomFilter.create({ numBytes })
  live.push(f)
  return f
}

const random = rng(0xa770)
const int = (lo, hi) => Math.floor(lo + random() * (hi - lo))
const withNulls = (values) => values.map((v, i) => (i % 5 === 3 ? null : v))

// [name, arrow type, plain values, physical type of the plain form]
const CASES = [
  ['Int8', new arrow.Int8(), () => int(-128, 128), 'INT32'],
  ['Uint16', new arrow.Uint16(), () => int(0, 65536), 'INT32'],
  ['Int32', new arrow.Int32(), () => int(-(2 ** 31), 2 ** 31), 'INT32'],
  ['Uint32', new arrow.Uint32(), () => int(0, 2 ** 32), 'INT32'],
  ['Int64', new arrow.Int64(), () => BigInt(int(-(2 ** 40), 2 ** 40)) * 7919n, 'INT64'],
  ['Uint64', new arrow.Uint64(), () => 2n ** 64n - BigInt(int(1, 2 ** 40)), 'INT64'],
  ['Float32', new arrow.Float32(), () => Math.fround(random() * 1000 - 500), 'FLOAT'],
  ['Float64', new arrow.Float64(), () => random() * 1e9 - 5e8, 'DOUBLE'],
  ['Utf8', new arrow.Utf8(), () => `k${int(0, 1e6)}é`, 'BYTE_ARRAY'],
  ['LargeUtf8', new arrow.LargeUtf8(), () => `big${int(0, 1e6)}`, 'BYTE_ARRAY'],
  ['Binary', new arrow.Binary(), () => Uint8Array.from({ length: int(0, 9) }, () => int(0, 256)), 'BYTE_ARRAY'],
  ['FixedSizeBinary(16)', new arrow.FixedSizeBinary(16), () => Uint8Array.from({ length: 16 }, () => int(0, 256)), { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16 }],
  ['Bool', new arrow.Bool(), () => random() < 0.5, 'BOOLEAN'],
  ['DateDay', new arrow.DateDay(), () => new Date(int(0, 20000) * 86400000), 'INT32'],
]

/** The plain-array form of an Arrow value of the case's type. */
function plain(name, v) {
  if (v === null) return null
  if (name === 'Uint64') return BigInt.asIntN(64, v)
  if (name === 'Uint32') return v | 0
  if (name === 'DateDay') return Math.round(v.getTime() / 86400000)
  return v
}

describe('Arrow vectors answer exactly like plain arrays', () => {
  for (const [name, type, make, physical] of CASES) {
    test(name, () => {
      const inserted = withNulls(Array.from({ length: 300 }, make))
      const probes = withNulls(Array.from({ length: 500 }, make))
      const insertedVector = arrow.vectorFromArray(inserted, type)
      const probeVector = arrow.vectorFromArray(probes, type)

      const viaArrow = filter()
      viaArrow.insert(insertedVector)
      const viaArray = filter()
      viaArray.insert(inserted.map((v) => plain(name, v)), physical)
      assert.deepEqual(viaArrow.bitset(), viaArray.bitset(), 'same bits inserted')

      const got = viaArrow.check(probeVector)
      const want = viaArray.check(probes.map((v) => plain(name, v)), physical)
      assert.deepEqual(got, want)
      assert.ok(got.every((r, i) => (probes[i] === null ? r === 2 : r <= 1)))
      assert.ok(viaArrow.check(insertedVector).every((r, i) => r === (inserted[i] === null ? 2 : 1)), 'no false negatives')
    })
  }
})

describe('chunks, slices and dictionaries', () => {
  test('a sliced, multi-chunk Utf8 vector', () => {
    const a = arrow.vectorFromArray(withNulls(Array.from({ length: 100 }, (_, i) => `a${i}`)), new arrow.Utf8())
    const b = arrow.vectorFromArray(withNulls(Array.from({ length: 50 }, (_, i) => `b${i}`)), new arrow.Utf8())
    const vector = a.slice(7, 90).concat(b.slice(3))
    assert.ok(vector.data.length >= 2)
    const f = filter()
    f.insert(vector)
    const values = [...vector]
    assert.deepEqual(f.check(vector), f.check(values, 'BYTE_ARRAY'))
    assert.ok(f.check(values, 'BYTE_ARRAY').every((r, i) => r === (values[i] === null ? 2 : 1)))
    assert.equal(f.mightContain('a3', 'BYTE_ARRAY'), false) // sliced away before insert (with high probability)
  })

  test('a sliced Bool vector reads its bitmap from the slice offset', () => {
    const f = filter(32)
    f.insert(arrow.vectorFromArray([false, false, true, true], new arrow.Bool()).slice(2))
    assert.equal(f.mightContain(true, 'BOOLEAN'), true)
    assert.equal(f.mightContain(false, 'BOOLEAN'), false)
  })

  test('dictionary-encoded strings are checked through their dictionary', () => {
    const values = ['x', 'y', null, 'x', 'z', 'y']
    const vector = arrow.vectorFromArray(values) // strings default to Dictionary<Int32, Utf8>
    assert.equal(vector.type.typeId, arrow.Type.Dictionary)
    const f = filter()
    f.insert(['x', 'y'], 'BYTE_ARRAY')
    assert.deepEqual([...f.check(vector)], [1, 1, 2, 1, f.mightContain('z', 'BYTE_ARRAY') ? 1 : 0, 1])
    const g = filter()
    g.insert(vector)
    assert.deepEqual([...g.check(['x', 'y', 'z'], 'BYTE_ARRAY')], [1, 1, 1])
  })

  test('unsupported Arrow types are refused clearly', () => {
    const f = filter()
    const list = arrow.vectorFromArray([[1, 2]], new arrow.List(new arrow.Field('item', new arrow.Int32())))
    assert.throws(() => f.check(list), /not supported/)
  })
})
