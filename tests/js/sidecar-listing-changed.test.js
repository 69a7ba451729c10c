// A dataset's listing gives a file's size and ETag (an S3 listing's), and a sidecar index matches the file by them,
// deciding values it rules out without reading the file. When the file's read then shows it replaced since the listing
// (FILE_CHANGED: the server's ETag is another), what the index decided is of bytes no longer there: those values are
// not left `absent`. Truth: the rows hyparquet reads from the file as the server now serves it.
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openDataset } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

const fileOf = (first) =>
  new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'v', data: Int32Array.from({ length: 100 }, (_, i) => first + i), type: 'INT32' }] }))

const dir = await tempDir('sidecar-listing-changed')
let server
before(async () => {
  server = await startTestServer({ root: dir })
  server.setMode('etag')
})
after(async () => {
  await server?.close()
})

for (const format of [1, 2]) {
  test(`format ${format}: a file replaced after the listing: the index's absents of the listed version are not kept`, async () => {
    const name = `f${format}.parquet`
    const file = path.join(dir, name)
    writeFileSync(file, fileOf(1000))
    const url = server.url(name)
    const index = path.join(dir, `${name}.puffin`)
    await buildSidecarIndex([url], index, { columns: ['v'], format })
    const head = await fetch(url, { method: 'HEAD' })
    const listed = { path: name, location: url, size: fileOf(1000).length, etag: /** @type {string} */ (head.headers.get('etag')) }
    const sidecar = await openSidecarIndex(index)
    const probed = await sidecar.probe('v', [1005, 5005], { files: [{ path: url, size: listed.size, validator: `etag:${listed.etag}` }] })
    await sidecar.close()
    assert.equal(probed.files[0].current, true, 'the listing matches the entry')

    writeFileSync(file, fileOf(5000)) // the same size, other values: another ETag
    const bytes = readFileSync(file)
    assert.equal(bytes.length, listed.size)
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
    assert.ok(rows.some((r) => r.v === 5005))

    const dataset = await openDataset([listed], { index })
    const result = await dataset.probe('v', [1005, 5005])
    await dataset.close()
    const [only] = result.files
    assert.equal(only.error?.code, 'FILE_CHANGED')
    assert.notEqual(only.values[1].verdict, 'absent', '5005 is held by the file as it is now')
    assert.deepEqual(only.values.map((r) => r.verdict), ['unknown', 'unknown'])
  })
}
