// js/indexes/bloom-layout.js layoutFromLength: the (header length, numBytes) a bloom_filter_length implies, checked
// against headers spelled by the test Thrift encoder, the published header vector, and a parquet-rs file
// whose footer records bloom_filter_length (its header decoded independently of the wasm decoder).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { layoutFromLength, standardHeaderLength } from '../../js/indexes/bloom-layout.js'
import { missingFixture, readFixture, readVectors } from './helpers/fixtures.js'
import { decodeStruct, encodeStruct, getField, struct, T } from '../../testkit/thrift-writer.js'

/** BloomFilterHeader {1: numBytes, 2: BLOCK {}, 3: XXHASH {}, 4: UNCOMPRESSED {}}, as standard writers emit it. */
function standardHeader(numBytes) {
  const unit = () => struct([1, T.STRUCT, struct()])
  return encodeStruct(struct([1, T.I32, numBytes], [2, T.STRUCT, unit()], [3, T.STRUCT, unit()], [4, T.STRUCT, unit()]))
}

const LENGTH_FILE = 'parquet-testing/data_index_bloom_encoding_with_length.parquet'

describe('layoutFromLength', () => {
  // Each numBytes at either side of a varint-length step of its zigzag encoding (1 to 5 bytes).
  const sizes = [32, 64, 8160, 8192, 1048544, 1048576, 134217696, 134217728]
  for (const numBytes of sizes) {
    test(`numBytes ${numBytes}: header + bitset length gives back both parts`, () => {
      const header = standardHeader(numBytes)
      assert.deepEqual(layoutFromLength(header.length + numBytes), { headerLength: header.length, numBytes })
      assert.equal(standardHeaderLength(numBytes), header.length)
    })
  }

  test('the published 1024-byte header: 16 bytes, so a length of 1040', { skip: missingFixture('sbbf-vectors.json') }, () => {
    const hex = readVectors().bloom_filter_header.numBytes_1024
    assert.equal(hex.split(' ').length, 16)
    assert.deepEqual(layoutFromLength(1040), { headerLength: 16, numBytes: 1024 })
  })

  test('lengths no standard header + bitset adds up to are null', () => {
    // Below the smallest filter; one byte off a real layout; a bitset that is not a multiple of 32;
    // and 79 = 15 + 64, which would need numBytes 64 with a one-byte varint (64 zigzags to two bytes).
    for (const length of [0, 1, 46, 48, 15 + 33, 79, 16 + 1023, -47, 1040.5]) {
      assert.equal(layoutFromLength(length), null, `length ${length}`)
    }
  })

  test(`${LENGTH_FILE}: every recorded bloom_filter_length matches the header at its offset`, { skip: missingFixture(LENGTH_FILE) }, () => {
    const file = readFixture(LENGTH_FILE)
    const metadata = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.length))
    let checked = 0
    for (const rowGroup of metadata.row_groups) {
      for (const chunk of rowGroup.columns) {
        const { bloom_filter_offset: offset, bloom_filter_length: length } = chunk.meta_data
        if (offset === undefined || length === undefined) continue
        const { struct: header, length: headerLength } = decodeStruct(file.subarray(Number(offset)))
        const numBytes = getField(header, 1).value
        assert.deepEqual(layoutFromLength(length), { headerLength, numBytes })
        checked++
      }
    }
    assert.ok(checked > 0, 'the file records at least one bloom_filter_length')
  })
})
