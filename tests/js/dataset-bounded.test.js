// A dataset probe's memory stays bounded whatever the number of files. probeEach() streams: a file's answer waits for
// the loop to take the ones before it, so a loop slower than the files holds the files in flight, not the dataset
// (10,000 values over 400 local files of 10 row groups had every answer queued, 2.2 GB live, and V8 abort the process
// in a heap of 1 GiB). The files are hyparquet-writer's (testkit/sidecar-dataset.js), whose values are known without
// reading them back: the answers that come back never say absent for a file holding the value, nor present for a
// value stored nowhere.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'

import { openDataset } from '../../js/index.js'
import { storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'

const FILES = 12
const GROUPS = 3
const GROUP_ROWS = 10
const dir = await tempDir('dataset-bounded')

/** @type {(f: number) => bigint[]} */
let valuesOf
// Stored values of files 0, 5 and 11, and two stored nowhere (≡ 1 mod 3).
let probed

before(async () => {
  ;({ valuesOf } = await writeSidecarDataset(dir, { files: FILES, groups: GROUPS, groupRows: GROUP_ROWS }))
  probed = [storedValue(3), storedValue(5 * GROUPS * GROUP_ROWS + 17), storedValue(FILES * GROUPS * GROUP_ROWS - 1), 1n, 7n]
})

/** Asserts each file's answers against the values the writer stored in it. */
function assertAgainstWriter(file) {
  const f = Number(/p(\d+)\.parquet$/.exec(file.path)[1])
  const stored = new Set(valuesOf(f))
  file.values.forEach((answer, k) => {
    assert.equal(answer.value, probed[k])
    if (stored.has(probed[k])) assert.notEqual(answer.verdict, 'absent', `${file.path} holds ${probed[k]}`)
    if (probed[k] % 3n === 1n) assert.notEqual(answer.verdict, 'present', `${probed[k]} is stored nowhere`)
  })
}

describe('a dataset probe holds a bounded number of answers', () => {
  test('probeEach: a slow loop holds the files in flight, not every file answered ahead of it', async () => {
    const dataset = await openDataset(dir)
    const fileConcurrency = 2
    let done = 0
    let taken = 0
    let ahead = 0
    for await (const file of dataset.probeEach('id', probed, { fileConcurrency, onProgress: (p) => { done = p.filesDone } })) {
      taken++
      ahead = Math.max(ahead, done - taken)
      assertAgainstWriter(file)
      await new Promise((resolve) => setTimeout(resolve, 15))
    }
    assert.equal(taken, FILES)
    // Each worker's answer waits once one is unread: at most one a worker ahead of the loop (every file, before).
    assert.ok(ahead <= fileConcurrency, `${ahead} files answered ahead of the loop, with ${fileConcurrency} in flight`)
  })

  test('probeEach left early: the workers held for the loop end with it', async () => {
    const dataset = await openDataset(dir)
    let taken = 0
    for await (const file of dataset.probeEach('id', probed, { fileConcurrency: 3 })) {
      assertAgainstWriter(file)
      await new Promise((resolve) => setTimeout(resolve, 15))
      if (++taken === 2) break
    }
    assert.equal(taken, 2)
  })
})
