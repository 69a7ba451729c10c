// Bit-sliced bloom filters (js/sidecar/bit-slices.js) against hyparquet's SBBF (testkit/
// reference-sbbf.js, another implementation): for many values, the AND of the 8 rows a value's hash selects
// says of every filter exactly what the reference's check of that filter's bitset says; widening a bitset
// changes no answer; a bitset comes back whole from its region.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { andRows, blockIndexOf, hashRows, sliceBitsets, sliceRowBytes, unsliceBitset, widenBitset } from '../../js/sidecar/bit-slices.js'
import { referenceFilter, referenceHash, rng } from '../../testkit/reference-sbbf.js'

function membership(rows, regionBytes, count, hash, numBlocks) {
  const block = blockIndexOf(Number(hash >> 32n), numBlocks)
  const rowBytes = sliceRowBytes(count)
  const positions = hashRows(block, Number(hash & 0xffffffffn))
  return andRows(positions.map((p) => regionBytes.subarray(p * rowBytes, (p + 1) * rowBytes)))
}

for (const [numBytes, count] of [[32, 13], [64, 77], [1024, 40], [4096, 9]]) {
  test(`${count} filters of ${numBytes} bytes: bit-sliced membership equals the reference SBBF check, value by value`, () => {
    const random = rng(numBytes * 7 + count)
    const filters = Array.from({ length: count }, () => referenceFilter(numBytes, 'INT64'))
    filters.forEach((f) => {
      const n = Math.floor(random() * numBytes / 2)
      for (let i = 0; i < n; i++) f.insert(BigInt(Math.floor(random() * 2 ** 40)))
    })
    const region = sliceBitsets(filters.map((f) => f.bytes()), numBytes)
    assert.equal(region.length, numBytes * 8 * sliceRowBytes(count))
    let maybes = 0
    for (let v = 0; v < 3000; v++) {
      const value = BigInt(Math.floor(random() * 2 ** 40))
      const mask = membership(null, region, count, referenceHash(value, 'INT64'), numBytes / 32)
      for (let k = 0; k < count; k++) {
        const sliced = (mask[k >> 3] >> (k & 7)) & 1
        assert.equal(Boolean(sliced), filters[k].contains(value), `value ${value}, filter ${k}`)
        maybes += sliced
      }
    }
    assert.ok(maybes > 0)
    for (let k = 0; k < count; k++) assert.deepEqual(unsliceBitset(region, { count, numBytes }, k), filters[k].bytes())
  })
}

test('a widened bitset answers every value as the original does', () => {
  const random = rng(5)
  const small = referenceFilter(64, 'INT64')
  for (let i = 0; i < 40; i++) small.insert(BigInt(i * 7919))
  const wide = referenceFilter(512, 'INT64')
  wide.words.set(new Uint32Array(widenBitset(small.bytes(), 512).buffer))
  for (let v = 0; v < 5000; v++) {
    const value = v < 40 ? BigInt(v * 7919) : BigInt(Math.floor(random() * 2 ** 50))
    assert.equal(wide.contains(value), small.contains(value), `${value}`)
  }
})

test('the block index is exact where the product passes 2^53', () => {
  for (const [high, blocks] of [[0xffffffff, 2 ** 26], [0x80000001, 2 ** 27 - 1], [12345, 3], [0xdeadbeef, 123457]]) {
    assert.equal(blockIndexOf(high, blocks), Number((BigInt(high) * BigInt(blocks)) >> 32n))
  }
})
