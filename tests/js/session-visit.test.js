// FileSession.withFile (js/dataset/session.js): a file handed to its visit is closed whatever the visit does — also
// when `opened` fails and `failed` throws (an abort, or inspect() passing the error on) — and what `failed` throws
// rejects the pass's job, while a close that fails is the visit's failure.
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import test from 'node:test'

import { FileSession } from '../../js/dataset/session.js'
import { createFooterCache, init } from '../../js/index.js'
import { datasetFileName, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { makeTempDir } from '../../testkit/temp-dir.js'

const openDescriptors = () => readdirSync('/proc/self/fd').length

test('withFile closes each file when its visit fails and failed throws, and the rejection is failed\'s', async (t) => {
  await init()
  const { dir, remove } = await makeTempDir('session-visit')
  t.after(remove)
  await writeSidecarDataset(dir, { files: 1, groups: 1, groupRows: 10 })
  const file = path.join(dir, datasetFileName(0))
  const session = new FileSession([{ descriptor: { location: file } }], {}, { footerCache: createFooterCache() })
  const before = openDescriptors()
  for (let i = 0; i < 25; i++) {
    await assert.rejects(session.withFile({ location: file }, {
      opened() {
        throw new Error('the probe failed')
      },
      failed(error) {
        throw new Error(`passed on: ${/** @type {Error} */ (error).message}`)
      },
    }), /passed on: the probe failed/)
  }
  assert.equal(openDescriptors(), before, 'every file opened was closed')
  // And an answer from failed() is the job's answer, the file closed too.
  const answer = await session.withFile({ location: file }, {
    opened() {
      throw new Error('no')
    },
    failed(error, opened) {
      return { error: /** @type {Error} */ (error).message, opened: opened !== undefined }
    },
  })
  assert.deepEqual(answer, { error: 'no', opened: true })
  assert.equal(openDescriptors(), before)
})
