// A file replaced after its sidecar index was built by one of the same size, served with no validator (the size
// decides, docs/sidecar-index.md "What validators cannot show"): once the probe has read the new file's footer, its row
// groups are not the entry's (another count, other row counts), and the index's answer for row group g is of the old
// file's group g. The sharpen step must not replace the file's own `maybe` with it, and a value the index ruled out in
// every row group is asked of the file. Truth: the rows hyparquet reads from the file as the server now serves it.
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openDataset, openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

/** ids 0…499 in blocks of 100 in the order `blocks`, in row groups of `groupRows`, padded by a key-value of `pad` bytes. */
const fileOf = (blocks, groupRows, pad) => new Uint8Array(parquetWriteBuffer({
  columnData: [{ name: 'id', data: blocks.flatMap((b) => Array.from({ length: 100 }, (_, i) => BigInt(b * 100 + i))), type: 'INT64' }],
  rowGroupSize: groupRows, kvMetadata: [{ key: 'pad', value: 'x'.repeat(pad) }],
}))
const original = fileOf([0, 1, 2, 3, 4], 100, 300)
/** Other row groups (and 500…599 for 400…499), padded to the original's size. */
function replacement(groupRows) {
  for (let pad = 0; pad < 1200; pad++) {
    const bytes = fileOf([5, 3, 2, 1, 0], groupRows, pad)
    if (bytes.length === original.length) return bytes
  }
  throw new Error('no padding gives the same size')
}

const dir = await tempDir('sidecar-replaced-footer')
let server
before(async () => {
  server = await startTestServer({ root: dir })
})
after(async () => {
  await server?.close()
})

// 550: in none of the old row groups' bounds, so the index rules it out before the file is read (50 and 120 it leaves open).
const values = [50n, 120n, 550n]

for (const format of [1, 2]) {
  for (const groupRows of [125, 84]) {
    test(`format ${format}: a same-size replacement in row groups of ${groupRows} is not sharpened by the old entry`, async () => {
      const name = `f${format}-${groupRows}.parquet`
      const file = path.join(dir, name)
      writeFileSync(file, original)
      const url = server.url(name)
      const index = path.join(dir, `${name}.puffin`)
      await buildSidecarIndex([url], index, { columns: ['id'], format })
      writeFileSync(file, replacement(groupRows))
      const bytes = readFileSync(file)
      const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
      for (const v of values) assert.ok(rows.some((r) => r.id === v), `the file holds ${v}`)

      const dataset = await openDataset([url], { index })
      const result = await dataset.probe('id', values)
      await dataset.close()
      const [only] = result.files
      assert.deepEqual(only.values.map((r) => r.verdict), ['maybe', 'maybe', 'maybe'])
      assert.equal(only.index.described, false)
      assert.equal(only.index.reason, 'row-groups-differ')
      assert.deepEqual(result.totals.index.reasons, { 'row-groups-differ': 1 })

      const sidecar = await openSidecarIndex(index)
      const parquet = await openParquet(url, { index: sidecar })
      const own = await parquet.probe('id', values)
      await parquet.close()
      await sidecar.close()
      for (let v = 0; v < values.length; v++) {
        const holding = own.rowGroups.filter((g) => g.results[v].verdict !== 'absent').map((g) => g.index)
        assert.ok(holding.length > 0, `${values[v]} is not absent from every row group`)
      }
    })
  }
}
