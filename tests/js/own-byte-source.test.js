// A caller's own ByteSource (openByteSource returns it as it is) may answer with a promise of another realm (a vm
// context's, an iframe's) or another thenable: openParquet awaits what its reads return, it does not require this
// realm's Promise.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import vm from 'node:vm'

import { openParquet } from '../../js/index.js'
import { readFixture } from './helpers/fixtures.js'

const bytes = readFixture('parquet-testing/data_index_bloom_encoding_stats.parquet')
const otherRealm = vm.createContext({})

/** A ByteSource over `bytes` whose reads answer with `settle(value)`. @param {(value: unknown) => unknown} settle */
function ownSource(settle) {
  return {
    name: 'own', size: bytes.length, stats: { requests: 0, bytesFetched: 0 },
    readTail(n) {
      const start = Math.max(0, bytes.length - n)
      return settle({ offset: start, bytes: bytes.subarray(start) })
    },
    read(offset, length) { return settle(bytes.subarray(offset, offset + length)) },
    async close() {},
  }
}

test("a ByteSource answering with another realm's promises, or thenables, is opened and probed", async () => {
  const settles = {
    'another realm': (value) => vm.runInContext('(v) => Promise.resolve(v)', otherRealm)(value),
    thenable: (value) => ({ then: (ok, fail) => Promise.resolve(value).then(ok, fail) }),
  }
  for (const [name, settle] of Object.entries(settles)) {
    const file = await openParquet(ownSource(settle))
    assert.equal(file.fileSize, bytes.length, name)
    // The file holds "Hello" in column `String` (DuckDB reads it there): not absent; "zzz-nope" is past its maximum.
    const result = await file.probe('String', ['Hello', 'zzz-nope'])
    assert.deepEqual(result.rowGroups[0].results.map((r) => r.verdict), ['maybe', 'absent'], name)
  }
})
