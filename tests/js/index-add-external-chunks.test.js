// addIndexes on a file whose footer places a column chunk in another file (ColumnChunk.file_path): the chunk's
// pages lie in that file, at the offsets its ColumnMetaData records, and this file's bytes at those offsets are
// something else. A filter or page index built from them would describe other values — the filter answering absent
// for the chunk's own. Such a chunk gets neither (skipped: external-file), as probes answer it `unknown`; nor does a
// sidecar index (index build) record a filter of those bytes for it.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'

import { parquetWriteBuffer } from 'hyparquet-writer'
import { readBloomFilter, sbbfContains } from 'hyparquet/src/bloom.js'
import { xxhash64 } from 'hyparquet/src/xxhash.js'

import { init } from '../../js/index.js'
import { addIndexes, buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { columnChunk, parseParquet, rebuild } from '../../testkit/file-surgery.js'
import { setField, T } from '../../testkit/thrift-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('index-add-external')
before(async () => { await init() })

const ROWS = 1000
/** One INT32 column of `ROWS` distinct values from `first`: files of equal layout whatever `first` is. */
const fileOf = (first) => new Uint8Array(parquetWriteBuffer({
  columnData: [{ name: 'x', data: Int32Array.from({ length: ROWS }, (_, i) => first + i), type: 'INT32' }],
  compressed: false,
}))

const OTHER_VALUES = Array.from({ length: ROWS }, (_, i) => 1_000_000 + i)

/** A file whose one chunk's pages are other.parquet's: same offsets, other values. */
async function externalChunkFile() {
  await writeFile(path.join(dir, 'other.parquet'), fileOf(OTHER_VALUES[0]))
  const input = path.join(dir, 'external.parquet')
  await writeFile(input, rebuild(parseParquet(fileOf(0)),
    (meta) => setField(columnChunk(meta, 0, 0), 1, T.BINARY, new TextEncoder().encode('other.parquet'))))
  return input
}

test('a chunk whose file_path names another file gets no filter and no page index built from this file\'s bytes', async () => {
  const input = await externalChunkFile()
  const output = path.join(dir, 'external.indexed.parquet')
  const result = await addIndexes(input, output, { columns: ['x'], pageIndex: true })

  // Whatever was written must not rule out the chunk's values (other.parquet's).
  const copy = new Uint8Array(await readFile(output))
  const int32 = (v) => {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setInt32(0, v, true)
    return b
  }
  for (const added of result.added) {
    const region = copy.slice(added.offset, added.offset + added.length)
    const filter = readBloomFilter({ view: new DataView(region.buffer), offset: 0 })
    const missing = OTHER_VALUES.filter((v) => !sbbfContains(filter.blocks, xxhash64(int32(v))))
    assert.equal(missing.length, 0, `the filter written rules out ${missing.length} of the chunk's ${ROWS} values`)
  }
  assert.deepEqual(result.added, [])
  assert.deepEqual(result.pageIndexes, [])
  assert.deepEqual(result.skipped.map((s) => [s.rowGroup, s.column, s.reason]), [[0, 'x', 'external-file']])
})

test('a sidecar index records no filter of a chunk in another file: its values are not answered absent', async () => {
  const input = await externalChunkFile()
  const built = await buildSidecarIndex([input], path.join(dir, 'external.puffin'), { columns: ['x'] })
  const index = await openSidecarIndex(path.join(dir, 'external.puffin'))
  const { files } = await index.probe('x', OTHER_VALUES.slice(0, 50), { files: [input] })
  const absent = files[0].rowGroups[0].results.filter((r) => r.verdict === 'absent')
  assert.equal(absent.length, 0, `${absent.length} of the chunk's values answered absent`)
  assert.match(built.skipped[0]?.detail ?? '', /another file/)
})
