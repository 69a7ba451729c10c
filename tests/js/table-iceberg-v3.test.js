// Iceberg format v3 tables built by hand from the spec: a column added with an `initial-default` (files written
// before it hold the default in every row, spec "Default values"), and deletion vectors (spec "Deletion Vectors",
// Puffin `deletion-vector-v1` blobs: a big-endian length, magic D1 D3 39 64, a portable 64-bit Roaring bitmap, a
// big-endian CRC-32) referenced from a delete manifest by content_offset and content_size_in_bytes. Truth: the
// rows written, less the positions each vector sets.
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { crc32 } from 'node:zlib'

import { parquetMetadata } from 'hyparquet'

import { openTable } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { puffinFooter } from '../../js/sidecar/puffin.js'
import { Bytes } from '../../testkit/delta-writer.js'
import { parquetWithIds, writeIcebergTable } from './helpers/iceberg-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

const top = await tempDir('iceberg-v3')
let made = 0
const v3 = (metadata) => { metadata['format-version'] = 3; metadata['next-row-id'] = 0 }

test('a column added with an initial-default: a file written before it is never absent for the default', async () => {
  const root = path.join(top, `t${++made}`)
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'level', type: 'long' }],
    files: { 'data/old.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n, 2n] }]),
      'data/new.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [3n] },
        { id: 2, name: 'level', type: 'long', data: [9n] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/old.parquet', record_count: 2 } },
      { file: { file_path: 'data/new.parquet', record_count: 1 } }] }],
    editMetadata: (metadata) => {
      v3(metadata)
      Object.assign(metadata.schemas[0].fields[1], { 'initial-default': 5, 'write-default': 5 })
    } })
  const index = path.join(root, 'index.puffin')
  await buildSidecarIndex(null, index, { table: root, columns: ['level'], fpp: 0.001 })
  for (const options of [{}, { index }]) {
    const table = await openTable(root, options)
    const result = await table.probe('level', [5n, 9n])
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f.values.map((v) => v.verdict)]))
    // Both rows of old.parquet hold 5: the file has no column of field 2, which is not knowing its values.
    assert.deepEqual(byPath['data/old.parquet'], ['unknown', 'unknown'])
    assert.deepEqual(byPath['data/new.parquet'], ['absent', 'maybe'])
    await table.close()
  }
})

/** A deletion-vector-v1 blob setting `rows` (< 65536: one array container under key 0), as the Puffin spec frames it. */
function vectorBlob(rows) {
  const vector = new Bytes().u32(1681511377).i64(1).u32(0).u32(12346).u32(1).u16(0).u16(rows.length - 1).u32(0)
  for (const r of rows) vector.u16(r)
  const body = vector.done() // the magic D1 D3 39 64 (1681511377, little-endian), then the vector
  const out = new Uint8Array(body.length + 8)
  const view = new DataView(out.buffer)
  view.setUint32(0, body.length, false)
  out.set(body, 4)
  view.setUint32(4 + body.length, crc32(body), false)
  return out
}

/**
 * A v3 table of f0.parquet (ids 1, 2, 3) and f1.parquet (ids 2, 5), one partition, and a deletion vector of f0 setting
 * row 1 (its 2) in a Puffin file; `damage` edits the Puffin file's bytes.
 */
async function tableWithVector(damage = (bytes) => bytes) {
  const root = path.join(top, `t${++made}`)
  const blob = vectorBlob([1])
  const offset = 4
  const puffin = new Uint8Array([...Buffer.from('PFA1'), ...blob, ...puffinFooter([{ type: 'deletion-vector-v1', fields: [2147483645],
    'snapshot-id': -1, 'sequence-number': -1, offset, length: blob.length,
    properties: { 'referenced-data-file': 'file:///warehouse/t/data/f0.parquet', cardinality: '1' } }], {})])
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }],
    files: { 'data/f0.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [1n, 2n, 3n] }]),
      'data/f1.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'long', data: [2n, 5n] }]),
      'data/dv.puffin': damage(puffin) },
    manifests: [
      { sequence: 1, entries: [{ file: { file_path: 'data/f0.parquet', record_count: 3 } },
        { file: { file_path: 'data/f1.parquet', record_count: 2 } }] },
      { content: 1, sequence: 2, entries: [{ file: { content: 1, file_format: 'PUFFIN', file_path: 'data/dv.puffin', record_count: 1,
        referenced_data_file: 'data/f0.parquet', content_offset: offset, content_size_in_bytes: blob.length } }] },
    ],
    editMetadata: v3 })
  return root
}

/** Each file's verdicts (and reasons) for ids 1, 2 and 5, confirmed. */
async function confirmed(root, options = {}) {
  const table = await openTable(root, options)
  try {
    const result = await table.probe('id', [1n, 2n, 5n], { confirm: true })
    return Object.fromEntries(result.files.map((f) => [f.path, f.values.map((v) => `${v.verdict}:${v.reason}`)]))
  } finally {
    await table.close()
  }
}

test('a deletion vector removes the rows it sets from the data file it references, and no other file\'s', async () => {
  const byPath = await confirmed(await tableWithVector())
  assert.deepEqual(byPath['data/f0.parquet'].map((v) => v.split(':')[0]), ['present', 'absent', 'absent'])
  assert.equal(byPath['data/f0.parquet'][1], 'absent:rows-deleted')
  assert.deepEqual(byPath['data/f1.parquet'].map((v) => v.split(':')[0]), ['absent', 'present', 'present'])
})

test('a deletion vector whose bytes do not check (CRC-32, length) is not applied: present becomes maybe, never absent', async () => {
  // The set row's low byte (after PFA1, the length, magic, count, key, cookie, container count, key, cardinality and
  // offset): 1 becomes 0. Read without its checksum, the vector would delete row 0 (the live 1) and keep row 1 (the 2).
  const flipped = await tableWithVector((bytes) => {
    const out = Uint8Array.from(bytes)
    out[4 + 4 + 4 + 8 + 4 + 4 + 4 + 4 + 4] ^= 0x01
    return out
  })
  const [one, two] = (await confirmed(flipped))['data/f0.parquet']
  assert.deepEqual([one, two], ['maybe:deletes-not-applied', 'maybe:deletes-not-applied'])
})

test('a table index records each deletion vector (its data file and blob): at the snapshot it applies as without it', async () => {
  const root = await tableWithVector()
  const index = path.join(root, 'index.puffin')
  await buildSidecarIndex(null, index, { table: root, columns: ['id'], fpp: 0.001 })
  const table = await openTable(root, { index })
  assert.equal(table.table.index.unchanged, true)
  await table.close()
  assert.deepEqual(await confirmed(root, { index }), await confirmed(root))
})

test('a deleted row does not make a file absent when another of its row groups was left unconfirmed (maxConfirmBytes)', async () => {
  // f0.parquet: 2000 rows in two row groups of 1000; 7 at row 0 (set by the vector) and at row 1500 (live).
  const root = path.join(top, `t${++made}`)
  const data = Array.from({ length: 2000 }, (_, i) => (i === 0 || i === 1500 ? 7n : BigInt(i + 100)))
  const f0 = parquetWithIds([{ id: 1, name: 'id', type: 'long', data }], 1000)
  const blob = vectorBlob([0])
  const offset = 4
  const puffin = new Uint8Array([...Buffer.from('PFA1'), ...blob, ...puffinFooter([{ type: 'deletion-vector-v1', fields: [2147483645],
    'snapshot-id': -1, 'sequence-number': -1, offset, length: blob.length,
    properties: { 'referenced-data-file': 'file:///warehouse/t/data/f0.parquet', cardinality: '1' } }], {})])
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'long' }],
    files: { 'data/f0.parquet': f0, 'data/dv.puffin': puffin },
    manifests: [
      { sequence: 1, entries: [{ file: { file_path: 'data/f0.parquet', record_count: 2000 } }] },
      { content: 1, sequence: 2, entries: [{ file: { content: 1, file_format: 'PUFFIN', file_path: 'data/dv.puffin', record_count: 1,
        referenced_data_file: 'data/f0.parquet', content_offset: offset, content_size_in_bytes: blob.length } }] },
    ],
    editMetadata: v3 })
  // A budget of the first row group's chunk: its pages are read, the second's are not.
  const [firstChunk] = parquetMetadata(f0.buffer).row_groups[0].columns
  const maxConfirmBytes = Number(firstChunk.meta_data.total_compressed_size)
  const table = await openTable(root)
  try {
    const [file] = (await table.probe('id', [7n], { confirm: true, maxConfirmBytes })).files
    assert.deepEqual(file.rowGroups.map((g) => `${g.results[0].verdict}:${g.results[0].reason}`),
      ['present:in-data-pages', 'maybe:confirm-budget'])
    assert.deepEqual([file.values[0].verdict, file.values[0].reason], ['maybe', 'deletes-not-applied'])
    // With the budget for both, the live row is found.
    const [whole] = (await table.probe('id', [7n], { confirm: true })).files
    assert.deepEqual([whole.values[0].verdict, whole.values[0].rows], ['present', [1500]])
  } finally {
    await table.close()
  }
})

test('with columns, a file\'s answer lists the row values of its rows, and a deleted row\'s values go with it', async () => {
  const table = await openTable(await tableWithVector())
  try {
    const result = await table.probe('id', [1n, 2n], { confirm: true, columns: ['id'] })
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f.values]))
    // f0.parquet holds 1, 2, 3 (row 1, its 2, deleted); f1.parquet 2, 5.
    assert.deepEqual(byPath['data/f0.parquet'].map((v) => [v.verdict, v.rows, v.values]),
      [['present', [0], [{ id: 1n }]], ['absent', undefined, undefined]])
    assert.deepEqual(byPath['data/f1.parquet'].map((v) => [v.verdict, v.rows, v.values]),
      [['absent', undefined, undefined], ['present', [0], [{ id: 2n }]]])
  } finally {
    await table.close()
  }
})
