// addIndexes's options checked before anything is read or written: windowBytes (bytes per read) must be a positive
// integer — 0 or a fraction made the copy loop step by nothing and run for ever, a negative one threw an untyped
// RangeError from a typed array. A column named twice is indexed once.
import assert from 'node:assert/strict'
import { before, test } from 'node:test'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { ErrorCode, init } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'

before(async () => { await init() })

const file = () => new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: Int32Array.of(1, 2, 3), type: 'INT32' }] }))

test('windowBytes other than a positive integer is INVALID_ARGUMENT', { timeout: 10_000 }, async () => {
  for (const windowBytes of [-1, NaN, Infinity, '4096', 0, 0.5]) {
    await assert.rejects(addIndexes(file(), null, { columns: ['x'], windowBytes }), { code: ErrorCode.INVALID_ARGUMENT },
      `windowBytes ${windowBytes}`)
  }
  const { added } = await addIndexes(file(), null, { columns: ['x'], windowBytes: 1 })
  assert.equal(added.length, 1)
})

test('a column named twice (\'x\' and [\'x\']) gets one filter: the output is that of naming it once', async () => {
  const once = await addIndexes(file(), null, { columns: ['x'], pageIndex: true })
  const twice = await addIndexes(file(), null, { columns: ['x', ['x']], pageIndex: true })
  // Before, a second filter and page index were written and the first left in the file, unreferenced.
  assert.deepEqual([twice.added, twice.pageIndexes, twice.bytesWritten], [once.added, once.pageIndexes, once.bytesWritten])
  assert.deepEqual(new Uint8Array(await twice.blob.arrayBuffer()), new Uint8Array(await once.blob.arrayBuffer()))
})
