// BYTE_ARRAY decimals padded to a width (LogicalTypes.md asks for big-endian two's complement, not the shortest):
// hyparquet-writer, given a type_length on a BYTE_ARRAY DECIMAL, stores 2.00 as 00 00 00 00 00 00 00 c8, which
// DuckDB reads as 2.00. Probes looked for the shortest form only: confirm answered `absent` for every value the file
// holds, and after `index add` (whose filter hashes the stored bytes) so did the bloom filter.
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { init, openParquet } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('decimal-padded')
const UNSCALED = [200n, -5n, 123456n, 0n, 200n, -1n, 7n]
const PROBES = ['2.00', '-0.05', '1234.56', '0', '-0.01', '0.07', '9.99', '-2.00']

/** hyparquet-writer's file of a BYTE_ARRAY DECIMAL(10, 2) padded to `width`, and DuckDB's rows of it as text. */
async function paddedFile(width) {
  const element = { type: 'DECIMAL', precision: 10, scale: 2 }
  const schema = [
    { name: 'root', num_children: 1 },
    { name: 'd', type: 'BYTE_ARRAY', type_length: width, repetition_type: 'REQUIRED', converted_type: 'DECIMAL', precision: 10, scale: 2,
      logical_type: element },
  ]
  const bytes = new Uint8Array(parquetWriteBuffer({ schema, codec: 'UNCOMPRESSED', columnData: [{ name: 'd', data: UNSCALED }] }))
  const file = path.join(dir, `padded-${width}.parquet`)
  await writeFile(file, bytes)
  const rows = await withDuckDB(async (connection) =>
    (await connection.runAndReadAll(`SELECT d::VARCHAR FROM '${file}'`)).getRows().map((row) => row[0]))
  return { bytes, rows }
}

/** DuckDB's rows holding each probe's value (compared as DECIMAL(10, 2) text). */
function duckdbRows(rows, value) {
  const text = (Number(value) === 0 ? 0 : Number(value)).toFixed(2)
  return rows.flatMap((r, i) => (Number(r).toFixed(2) === text ? [i] : []))
}

for (const width of [8, 16]) {
  test(`padded to ${width} bytes: confirm finds DuckDB's rows, and index add's filter keeps them`, async () => {
    await init()
    const { bytes, rows } = await paddedFile(width)
    assert.equal(rows.length, UNSCALED.length)
    assert.deepEqual(duckdbRows(rows, '2.00'), [0, 4], 'DuckDB reads the padded bytes as the decimals written')
    const file = await openParquet(bytes)
    try {
      const result = await file.probe('d', PROBES, { confirm: true })
      result.rowGroups[0].results.forEach((r, v) => {
        const truth = duckdbRows(rows, PROBES[v])
        assert.equal(r.verdict, truth.length ? 'present' : 'absent', `${PROBES[v]}: ${r.reason}`)
        assert.deepEqual(r.rows, truth, PROBES[v])
      })
    } finally {
      await file.close()
    }
    const { added, blob } = await addIndexes(bytes, null, { columns: ['d'] })
    assert.equal(added.length, 1)
    const indexed = await openParquet(new Uint8Array(await blob.arrayBuffer()))
    try {
      const result = await indexed.probe('d', PROBES, { statistics: false })
      result.rowGroups[0].results.forEach((r, v) => {
        if (duckdbRows(rows, PROBES[v]).length) assert.notEqual(r.verdict, 'absent', `${PROBES[v]}: ${r.source} ${r.reason}`)
      })
    } finally {
      await indexed.close()
    }
  })
}

test('padded to 16 bytes, dictionary-encoded: the dictionary finds every value DuckDB reads', async () => {
  await init()
  const schema = [{ name: 'root', num_children: 1 },
    { name: 'd', type: 'BYTE_ARRAY', type_length: 16, repetition_type: 'REQUIRED', converted_type: 'DECIMAL', precision: 10, scale: 2 }]
  const data = Array.from({ length: 2000 }, (_, i) => BigInt((i % 7) * 100 - 300))
  const bytes = new Uint8Array(parquetWriteBuffer({ schema, codec: 'UNCOMPRESSED', columnData: [{ name: 'd', data }] }))
  const file = path.join(dir, 'padded-dictionary.parquet')
  await writeFile(file, bytes)
  const held = await withDuckDB(async (connection) =>
    (await connection.runAndReadAll(`SELECT DISTINCT d::VARCHAR FROM '${file}' ORDER BY 1`)).getRows().map((row) => row[0]))
  assert.deepEqual(held, ['-1.00', '-2.00', '-3.00', '0.00', '1.00', '2.00', '3.00'])
  const parquet = await openParquet(bytes)
  try {
    const result = await parquet.probe('d', [...held, '2.50'], { statistics: false })
    assert.deepEqual(result.rowGroups[0].results.map((r) => [r.verdict, r.source]),
      [...held.map(() => ['present', 'dictionary']), ['absent', 'dictionary']])
  } finally {
    await parquet.close()
  }
})
