// A DATA_PAGE_V2 header without its (required) level lengths: hyparquet's page reader then seeks to an undefined
// offset, reads the first byte of the page again and again and never returns — index add hung, its CPU busy,
// on one changed byte of parquet-testing's datapage_v2.snappy.parquet. Such a page is a PageDecodeError before
// hyparquet reads it: the chunk gets no filter, the others do. Run in a worker, so a hang fails the test.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { Worker } from 'node:worker_threads'

import { fixturePath, missingFixture } from './helpers/fixtures.js'

const NAME = 'parquet-testing/datapage_v2.snappy.parquet'

/** addIndexes of `bytes` in a worker: its result, or 'hung' after `ms`. */
function addIndexesInWorker(bytes, columns, ms) {
  const worker = new Worker(`
    import { parentPort, workerData } from 'node:worker_threads'
    import { init } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)}
    import { addIndexes } from ${JSON.stringify(new URL('../../js/index-builder/index.js', import.meta.url).href)}
    await init()
    const { added, skipped } = await addIndexes(workerData.bytes, null, { columns: workerData.columns, pageIndex: true })
    parentPort.postMessage({ added: added.map((a) => [a.rowGroup, a.column]), skipped: skipped.map((s) => [s.column, s.reason, s.detail]) })
  `, { eval: true, workerData: { bytes, columns } })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { worker.terminate().then(() => resolve('hung')) }, ms)
    worker.once('message', (result) => { clearTimeout(timer); worker.terminate().then(() => resolve(result)) })
    worker.once('error', (error) => { clearTimeout(timer); reject(error) })
  })
}

test('a v2 data page whose header lacks the level lengths: the chunk is skipped, nothing hangs', { skip: missingFixture(NAME) }, async () => {
  const bytes = new Uint8Array(await readFile(fixturePath(NAME)))
  // The v2 page of column e (a list of INT32) at 270: its DataPageHeaderV2's field 4 (num_rows, i32) becomes a
  // boolean field, after which the header's decoder sees no definition_levels_byte_length and
  // repetition_levels_byte_length.
  assert.equal(bytes[283], 0x15, 'the fixture as expected')
  bytes[283] = 0x12
  const result = await addIndexesInWorker(bytes, ['a', 'b', ['e', 'list', 'element']], 20_000)
  assert.notEqual(result, 'hung', 'addIndexes returned')
  assert.deepEqual(result.added.map(([, column]) => column), ['a', 'b'])
  assert.equal(result.skipped.length, 1)
  assert.equal(result.skipped[0][1], 'unreadable-pages')
  assert.match(result.skipped[0][2], /level lengths/)
})
