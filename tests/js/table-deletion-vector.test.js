// Delta deletion vectors decoded from bytes built by hand: Z85 (ZeroMQ RFC 32's own vector), the
// RoaringBitmapArray framing (Delta protocol "Deletion Vector Format") and the portable Roaring
// serialization (RoaringFormatSpec: array, bitmap and run containers, with and without run flags); and a DV
// file Delta Spark wrote (the dv-partitioned-with-checkpoint fixture), whose CRC-32 guards its bitmap.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'

import { bitmapInFile, decodeRoaringBitmapArray, deletionVectorSource, z85Decode } from '../../js/table/deletion-vector.js'
import { Bytes, inlineDeletionVector, z85Encode } from '../../testkit/delta-writer.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'

const DV_FILE = 'tables/delta/dv-partitioned-with-checkpoint/deletion_vector_0229ec3d-5100-44e1-8e53-702d448da8da.bin'

describe('deletion vectors', () => {
  test('Z85: the RFC\'s vector', () => {
    assert.deepEqual(Array.from(z85Decode('HelloWorld')), [0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b])
  })

  test('an inline RoaringBitmapArray of two bitmaps: an array container, and rows past 2^32', () => {
    const b = new Bytes().u32(1681511377).i64(2)
      // bitmap under high bits 0: no-run cookie, 1 container (key 0, 2 values), offsets, values 5 and 9
      .u32(0).u32(12346).u32(1).u16(0).u16(1).u32(0).u16(5).u16(9)
      // bitmap under high bits 1: the same layout, value 3
      .u32(1).u32(12346).u32(1).u16(0).u16(0).u32(0).u16(3).u16(0) // two bytes of padding to a multiple of 4
      .done()
    const { inline } = deletionVectorSource({ storageType: 'i', pathOrInlineDv: z85Encode(b), sizeInBytes: b.length })
    assert.deepEqual(decodeRoaringBitmapArray(inline), [5, 9, 2 ** 32 + 3])
  })

  test('the writer helper\'s inline vector (odd and even counts, padded for Z85) decodes to its rows', () => {
    for (const rows of [[4], [0, 17, 199], [1, 2]]) {
      const dv = inlineDeletionVector(rows)
      assert.deepEqual(decodeRoaringBitmapArray(deletionVectorSource(dv).inline), rows)
    }
  })

  test('run and bitmap containers (cookie with run flags)', () => {
    const bitmap = new Uint8Array(8192)
    bitmap[0] = 0b00000110 // values 1, 2 of container key 1
    bitmap[8191] = 0x80 // value 65535
    const b = new Bytes().u32(1681511377).i64(1).u32(0)
      .u32(12347 | ((2 - 1) << 16)).raw(Uint8Array.of(0b01)) // 2 containers, the first is a run container
      .u16(0).u16(10 - 1).u16(1).u16(5000 - 1) // key 0: 10 values (a run); key 1: 5000 values says the header (a bitmap)
      .u16(1).u16(100).u16(9) // one run: 100..109
      .raw(bitmap)
      .done()
    const rows = decodeRoaringBitmapArray(b)
    assert.deepEqual(rows, [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 65536 + 1, 65536 + 2, 65536 + 65535])
  })

  test('storage type u: the file name comes from the Z85 UUID after the random prefix', () => {
    // table_with_deletion_logs / dv-partitioned name files deletion_vector_<uuid>.bin at the table root
    const uuid = Uint8Array.from('f37f3d8eaf4f40c0a5b45b3c02c1bdd8'.match(/../g).map((h) => parseInt(h, 16)))
    const source = deletionVectorSource({ storageType: 'u', pathOrInlineDv: `ab${z85Encode(uuid)}`, offset: 1, sizeInBytes: 34 })
    assert.equal(source.path, 'ab/deletion_vector_f37f3d8e-af4f-40c0-a5b4-5b3c02c1bdd8.bin')
    assert.equal(deletionVectorSource({ storageType: 'u', pathOrInlineDv: z85Encode(uuid), offset: 1, sizeInBytes: 34 }).path, 'deletion_vector_f37f3d8e-af4f-40c0-a5b4-5b3c02c1bdd8.bin')
  })

  test('a wrong magic or a truncated bitmap is MALFORMED_TABLE, never an empty set', () => {
    assert.throws(() => decodeRoaringBitmapArray(new Bytes().u32(1).i64(0).done()), (e) => e.code === 'MALFORMED_TABLE')
    assert.throws(() => decodeRoaringBitmapArray(new Bytes().u32(1681511377).i64(1).u32(0).u32(12346).done()), (e) => e.code === 'MALFORMED_TABLE')
  })

  test('a DV file\'s bitmap is checked against its CRC-32: a flipped bit that still decodes is MALFORMED_TABLE, not other rows',
    { skip: missingFixture(DV_FILE) }, () => {
      const file = new Uint8Array(readFileSync(fixturePath(DV_FILE)))
      const size = new DataView(file.buffer).getInt32(1, false) // after the format version byte
      const rows = decodeRoaringBitmapArray(bitmapInFile(file, 1, size))
      assert.ok(rows.length > 0)
      // The last byte of the bitmap is part of an array container's last row number: flipped, the bitmap still decodes,
      // to other rows — the rows a reader without the check would delete.
      const flipped = file.slice()
      flipped[1 + 4 + size - 1] ^= 1
      assert.notDeepEqual(decodeRoaringBitmapArray(flipped.subarray(5, 5 + size)), rows)
      assert.throws(() => bitmapInFile(flipped, 1, size), (e) => e.code === 'MALFORMED_TABLE' && /CRC-32/.test(e.message))
      const badSum = file.slice()
      badSum[1 + 4 + size] ^= 0x80
      assert.throws(() => bitmapInFile(badSum, 1, size), (e) => e.code === 'MALFORMED_TABLE')
      assert.throws(() => bitmapInFile(file.subarray(0, 1 + 4 + size + 2), 1, size), (e) => e.code === 'MALFORMED_TABLE')
    })
})
