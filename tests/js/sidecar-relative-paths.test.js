// openDataset(…, { index }) and openParquet(…, { index }) with files named by relative paths: they read them from the working directory,
// so the index must be asked about those files — not about the files of the same names beside the index (its
// recorded paths are relative to its own directory). Truth: the rows hyparquet reads from the file the dataset reads.
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openDataset, openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'

const fileOf = (first) =>
  new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'v', data: Int32Array.from({ length: 100 }, (_, i) => first + i), type: 'INT32' }] }))
const valuesIn = async (file) => {
  const bytes = readFileSync(file)
  const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
  return new Set(rows.map((r) => r.v))
}

const top = await tempDir('sidecar-relative-paths')

/**
 * Runs `fn` with the working directory a new folder `name` holding indexed/a.parquet (values 1000…) and a.parquet of
 * the same size but other values (5000…), then restores the working directory.
 * @param {string} name
 * @param {(dir: string) => Promise<void>} fn
 */
async function inTwinFolder(name, fn) {
  const dir = path.join(top, name)
  mkdirSync(dir)
  mkdirSync(path.join(dir, 'indexed'))
  writeFileSync(path.join(dir, 'indexed', 'a.parquet'), fileOf(1000))
  writeFileSync(path.join(dir, 'a.parquet'), fileOf(5000)) // the same size, other values
  await settleMtimes(dir)
  const previous = process.cwd()
  process.chdir(dir)
  try {
    await fn(dir)
  } finally {
    process.chdir(previous)
  }
}

for (const format of [1, 2]) {
  test(`format ${format}: a relative path is the working directory's file, not the index's file of that name`, async () => {
    await inTwinFolder(`dataset-index-relative-${format}`, async (dir) => {
      await buildSidecarIndex(['indexed/a.parquet'], 'indexed/index.puffin', { columns: ['v'], format })
      const held = await valuesIn(path.join(dir, 'a.parquet'))
      const dataset = await openDataset(['a.parquet'], { index: 'indexed/index.puffin' })
      const result = await dataset.probe('v', [5000, 5099])
      for (const [k, v] of [5000, 5099].entries()) {
        assert.ok(held.has(v))
        assert.notEqual(result.files[0].values[k].verdict, 'absent', `a.parquet holds ${v}`)
      }
      assert.deepEqual(result.totals.index.reasons, { 'missing-from-index': 1 })
      await dataset.close()

      // Files under the index's directory, named relative to the working directory, are the ones it describes.
      const beside = await openDataset(['indexed/a.parquet'], { index: 'indexed/index.puffin' })
      const described = await beside.probe('v', [1000, 5000])
      assert.equal(described.totals.index.described, 1)
      assert.equal(described.files[0].values[1].verdict, 'absent')
      assert.notEqual(described.files[0].values[0].verdict, 'absent')
      await beside.close()
    })
  })
}

for (const format of [1, 2]) {
  test(`format ${format}: openParquet of a relative path with an opened index refines from that file's entry only`, async () => {
    await inTwinFolder(`parquet-index-relative-${format}`, async (dir) => {
      await buildSidecarIndex(['indexed/a.parquet'], 'indexed/index.puffin', { columns: ['v'], format })
      const held = await valuesIn(path.join(dir, 'a.parquet'))
      const index = await openSidecarIndex('indexed/index.puffin')
      const file = await openParquet('a.parquet', { index })
      const result = await file.probe('v', [5000, 5099])
      for (const [k, v] of [5000, 5099].entries()) {
        assert.ok(held.has(v))
        assert.ok(result.rowGroups.every((g) => g.results[k].verdict !== 'absent'), `a.parquet holds ${v}`)
      }
      await file.close()
      await index.close()
    })
  })
}
