// A Delta table index answers a file the record lists by its recorded identity, with no stat: table files are
// immutable. A commit after the indexed version may still remove a path and add it again with other bytes of the same
// size (PROTOCOL.md does not forbid it): that add is not the recorded one (another modificationTime), and the file is
// probed as without the index. A deletion vector added later re-adds the path with the same modificationTime (Delta
// copies the add): still answered from the index. Iceberg alike: a later snapshot's manifest that ADDs a recorded path
// gives it that snapshot's data sequence number, not the recorded one. Truth: the writer's own ids (hyparquet's rows for
// the Iceberg file), and the probe without an index.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { writeDeltaTable } from '../../testkit/delta-appends-writer.js'
import { appendIcebergSnapshot, fileIds, writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'

/** The ids of writer file k (another id range per k) written as the writer writes them, padded to `size` bytes. */
function sameSizeFile(size) {
  for (let k = 11; k < 400; k++) {
    const ids = fileIds(k, 64)
    for (let pad = 0; pad < 40; pad++) {
      const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: BigInt64Array.from(ids), bloomFilter: true }],
        schema: [{ name: 'root', num_children: 1 }, { name: 'id', type: 'INT64', repetition_type: 'REQUIRED' }],
        kvMetadata: pad ? [{ key: 'pad', value: 'x'.repeat(pad) }] : undefined }))
      if (bytes.length === size) return { ids, bytes }
    }
  }
  throw new Error(`no file of ${size} bytes`)
}

async function probe(root, values, options) {
  clearTableCache()
  const table = await openTable(root, options)
  const result = await table.probe('id', values)
  await table.close()
  return result
}

/**
 * Probes `values` with and without the index: the re-added file at `filePath` is not described by it, its first two
 * values (held by its new bytes) are not absent, and every answer is the one without the index. The probe with the index.
 * @param {string} root @param {unknown[]} values @param {string} index @param {string} filePath
 */
async function readdedAnsweredByFile(root, values, index, filePath) {
  const withIndex = await probe(root, values, { index })
  const file = withIndex.files.find((f) => f.path.endsWith(filePath))
  assert.notEqual(file.values[0].verdict, 'absent', `${values[0]} is in the file now`)
  assert.notEqual(file.values[1].verdict, 'absent', `${values[1]} is in the file now`)
  assert.equal(file.index.described, false)
  const without = await probe(root, values, {})
  assert.deepEqual(withIndex.files.map((f) => f.values.map((v) => v.verdict)), without.files.map((f) => f.values.map((v) => v.verdict)))
  return withIndex
}

test('Delta: a path removed and added again with other bytes of the same size is not answered from the index', async () => {
  const root = path.join(await tempDir('table-index-readded'), 'delta')
  const table = await writeDeltaTable(root, { files: 10, commits: 2 })
  const index = `${root}.puffin`
  await buildSidecarIndex(null, index, { table: root, columns: ['id'] })
  const target = table.files[3]
  const { ids, bytes } = sameSizeFile(target.size)
  await writeFile(path.join(root, target.path), bytes)
  const stats = JSON.stringify({ numRecords: 64, minValues: { id: Number(ids[0]) }, maxValues: { id: Number(ids[63]) },
    nullCount: { id: 0 } })
  await writeFile(path.join(root, '_delta_log', '00000000000000000002.json'), [
    { remove: { path: target.path, deletionTimestamp: 1767225700000, dataChange: true } },
    { add: { path: target.path, partitionValues: {}, size: bytes.length, modificationTime: 1767225800000, dataChange: true, stats } },
  ].map((a) => JSON.stringify(a)).join('\n') + '\n')

  const values = [ids[5], ids[60], target.ids[5]]
  const withIndex = await readdedAnsweredByFile(root, values, index, target.path)
  // The other files are still the recorded ones.
  assert.deepEqual(withIndex.totals.index, { described: 9, notDescribed: 1, reasons: { 'missing-from-index': 1 } })
})

const DV = 'tables/delta/table_with_deletion_logs'
test('Delta: files re-added with a deletion vector after the indexed version are still answered from the index',
  { skip: missingFixture(DV) }, async () => {
    const root = fixturePath(DV)
    const index = path.join(await tempDir('table-index-readded-dv'), 'dv.puffin')
    await buildSidecarIndex(null, index, { table: { location: root, version: 2 }, columns: ['id'] })
    const values = Array.from({ length: 40 }, (_, i) => i)
    const withIndex = await probe(root, values, { index })
    assert.deepEqual(withIndex.totals.index, { described: 1, notDescribed: 0, reasons: {} })
    const without = await probe(root, values, {})
    assert.deepEqual(withIndex.files.map((f) => f.values.map((v) => v.verdict)), without.files.map((f) => f.values.map((v) => v.verdict)))
  })

/** Avro's zigzag varint of a long (a manifest entry's record_count and file_size_in_bytes). */
function zigzag(n) {
  const out = []
  for (let v = n * 2; ; v = Math.floor(v / 128)) {
    if (v < 0x80) return Buffer.from([...out, v])
    out.push((v & 0x7f) | 0x80)
  }
}

test('Iceberg: a later snapshot that ADDs a recorded path again (other bytes, same size) is not answered from the index', async () => {
  const root = path.join(await tempDir('table-index-readded-iceberg'), 'iceberg')
  const table = await writeIcebergTable(root, { files: 10, manifests: 2 })
  const index = `${root}.puffin`
  await buildSidecarIndex(null, index, { table: root, columns: ['id'] })
  // A snapshot that drops the first manifest (files 0-4) and adds one file; its manifest is then made to name file 3's
  // path and size (an uncompressed Avro file: the path and the size in place), and file 3's bytes are replaced by ids
  // within the added file's bounds, of file 3's size.
  const next = await appendIcebergSnapshot(table, { files: 1, dropManifests: [0] })
  const [added] = next.added
  const old = table.files[3]
  const manifest = path.join(root, next.listRecords[next.listRecords.length - 1].manifest_path.replace(/^.*\/metadata\//, 'metadata/'))
  const avro = await readFile(manifest)
  const at = avro.indexOf(Buffer.from(added.path))
  assert.ok(at > 0 && added.path.length === old.path.length)
  Buffer.from(old.path).copy(avro, at)
  const sizeAt = avro.indexOf(Buffer.concat([zigzag(64), zigzag(added.size)]), at) + zigzag(64).length
  assert.equal(zigzag(added.size).length, zigzag(old.size).length)
  zigzag(old.size).copy(avro, sizeAt)
  await writeFile(manifest, avro)
  let seed = 1
  const random = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 16 }
  let bytes
  for (let attempt = 0; attempt < 400 && bytes?.length !== old.size; attempt++) {
    const ids = added.ids.map((x, i) => (i === 0 || i === added.ids.length - 1 ? x : x + BigInt(random() % 7)))
    for (let pad = 0; pad < 60 && bytes?.length !== old.size; pad++) {
      bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: BigInt64Array.from(ids), bloomFilter: true },
        { name: 'day', data: Int32Array.from({ length: 64 }, () => added.day) }],
      schema: [{ name: 'root', num_children: 2 }, { name: 'id', type: 'INT64', repetition_type: 'REQUIRED', field_id: 1 },
        { name: 'day', type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' }, repetition_type: 'REQUIRED', field_id: 2 }],
      kvMetadata: pad ? [{ key: 'pad', value: 'x'.repeat(pad) }] : undefined }))
    }
  }
  assert.equal(bytes.length, old.size)
  await writeFile(path.join(root, old.path), bytes)
  const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
  const values = [rows[5].id, rows[40].id, old.ids[5]]

  await readdedAnsweredByFile(root, values, index, old.path)
})
