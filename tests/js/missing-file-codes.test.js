// A missing file is FILE_NOT_FOUND wherever it is — no such local file, a URL answering 404 or 410, an S3 key that does
// not exist (s3rver's own NoSuchKey 404) — whether it is opened alone, probed in a dataset (its file's `error`) or is a
// sidecar index: a caller checks one code. The status stays in the error (`status`), and in a dataset file's error data.
// A 403 stays HTTP_STATUS: S3 answers it for a missing key the requester may not list, and for a refusal alike.
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, test } from 'node:test'

import { ErrorCode, openDataset, openParquet } from '../../js/index.js'
import { openSidecarIndex } from '../../js/index-builder/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { startS3Server } from '../../testkit/s3-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('missing-file-codes')
let server
let s3
before(async () => {
  server = await startTestServer({ root: dir })
  s3 = await startS3Server({ buckets: ['bucket'] })
})
after(async () => {
  await server?.close()
  await s3?.stop()
})

/** Each missing file, and the status its error carries (undefined: a local file). */
const missing = () => [
  [path.join(dir, 'nope.parquet'), undefined],
  [server.url('nope.parquet'), 404],
  [server.url('gone.parquet', { mode: 'status:410' }), 410],
  [`${s3.endpoint}/bucket/no-such-key.parquet`, 404],
]

test('openParquet of a missing file is FILE_NOT_FOUND, with the status of a URL\'s', async () => {
  for (const [location, status] of missing()) {
    await assert.rejects(openParquet(location), (e) => {
      assert.equal(e.code, ErrorCode.FILE_NOT_FOUND, `${location}: ${e.message}`)
      assert.equal(e.status, status, location)
      return true
    })
  }
  await assert.rejects(openParquet(server.url('refused.parquet', { mode: 'status:403' })),
    (e) => e.code === ErrorCode.HTTP_STATUS && e.status === 403)
})

test('a dataset reports each missing file as FILE_NOT_FOUND, the status in its error data', async () => {
  const files = missing()
  const dataset = await openDataset(files.map(([location]) => location))
  try {
    const result = await dataset.probe('v', [1])
    assert.deepEqual(result.files.map((f) => [f.error?.code, f.error?.status]), files.map(([, status]) => [ErrorCode.FILE_NOT_FOUND, status]))
    for (const f of result.files) assert.equal(f.values[0].verdict, 'unknown')
  } finally {
    await dataset.close()
  }
})

test('a sidecar index that is not there is FILE_NOT_FOUND', async () => {
  for (const [location] of missing()) {
    await assert.rejects(openSidecarIndex(location.replace('.parquet', '.puffin')), { code: ErrorCode.FILE_NOT_FOUND })
  }
})
