// A data page whose values end before its levels say (js/pages/page-decode.js valueSection). hyparquet's PLAIN
// and DELTA_LENGTH_BYTE_ARRAY readers make their arrays on the page's ArrayBuffer, not its DataView: on a DuckDB
// file whose page (and chunk) was cut short, the missing value was read from the bytes after the page, so confirm
// answered `present` at row 2 for a value no page holds there (and `absent` for the one written), where DuckDB
// and arrow-rs refuse the page. Such a page is now unreadable: `maybe` (confirm-failed).
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'

import { tableFromIPC } from 'apache-arrow'

import { init, openParquet } from '../../js/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { getField, removeField } from '../../testkit/thrift-writer.js'
import { editFooter } from './helpers/footer-edit.js'
import { pageSizeFields, readZigzag, writeZigzag } from './helpers/page-header-edit.js'

const dir = await tempDir('page-value-section')

/**
 * DuckDB's file of `select` (its first column's chunk starts at byte 4 with its one data page), that page and
 * chunk made `cut` bytes shorter, and the bytes cut off (now between two chunks) overwritten with `orphan`.
 */
async function cutShort(name, select, options, cut, written, orphan) {
  const file = path.join(dir, `${name}.parquet`)
  await withDuckDB((connection) => connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet, COMPRESSION uncompressed, ${options})`))
  let bytes = new Uint8Array(await readFile(file))
  const { uncompressedAt, compressedAt } = pageSizeFields(bytes, 4)
  for (const at of [uncompressedAt, compressedAt]) writeZigzag(bytes, at, readZigzag(bytes, at).value - BigInt(cut))
  bytes = editFooter(bytes, (meta) => {
    const columnMetaData = getField(getField(getField(meta, 4).value.items[0], 1).value.items[0], 3).value
    for (const id of [6, 7]) getField(columnMetaData, id).value = BigInt(getField(columnMetaData, id).value) - BigInt(cut)
  })
  const at = Buffer.from(bytes).indexOf(Buffer.from(written))
  assert.ok(at > 0, 'the last value is where DuckDB writes it')
  bytes.set(orphan, at)
  const edited = path.join(dir, `${name}-cut.parquet`)
  await writeFile(edited, bytes)
  return { bytes, edited }
}

async function readersRefuse(edited, bytes) {
  const duckdb = await withDuckDB(async (connection) => {
    try {
      return (await connection.runAndReadAll(`SELECT * FROM '${edited}'`)).getRows()
    } catch (error) {
      return `error: ${error}`
    }
  })
  assert.match(String(duckdb), /^error/, 'DuckDB refuses the page')
  const { readParquet } = await import('parquet-wasm')
  assert.throws(() => tableFromIPC(readParquet(bytes).intoIPCStream()), 'arrow-rs refuses the page')
}

const CASES = [
  {
    name: 'PLAIN INT32, 4 bytes short', column: 'x', values: [2, 7, 9], orphanValue: 5,
    select: 'SELECT * FROM (VALUES (2, \'a\'), (7, \'bb\'), (9, \'ccc\')) t(x, s)', options: 'DICTIONARY_SIZE_LIMIT 0',
    cut: 4, written: [9, 0, 0, 0], orphan: [5, 0, 0, 0],
  },
  {
    name: 'DELTA_LENGTH_BYTE_ARRAY, 2 bytes short', column: 's', values: ['aa', 'bb', 'cc'], orphanValue: 'bc',
    select: 'SELECT * FROM (VALUES (\'aa\', 1), (\'bb\', 2), (\'cc\', 3)) t(s, y)',
    options: 'DICTIONARY_SIZE_LIMIT 0, PARQUET_VERSION V2', cut: 2, written: [0x63, 0x63], orphan: [0x62, 0x63],
  },
]

for (const c of CASES) {
  test(`${c.name}: confirm answers maybe, not the bytes after the page`, async () => {
    await init()
    const { bytes, edited } = await cutShort(c.name.split(',')[0].replace(/ /g, '-'), c.select, c.options, c.cut, c.written, c.orphan)
    await readersRefuse(edited, bytes)
    for (const source of [bytes, edited]) {
      const file = await openParquet(source)
      try {
        const result = await file.probe(c.column, [...c.values, c.orphanValue], { confirm: true })
        for (const r of result.rowGroups[0].results) {
          assert.equal(r.verdict, 'maybe', `${String(r.value)}: ${r.verdict} ${JSON.stringify(r.rows)} (${r.reason}: ${r.detail})`)
          assert.equal(r.reason, 'confirm-failed')
        }
      } finally {
        await file.close()
      }
    }
  })
}

// Point lookups read the cut page's column through the same decoding (js/confirm/row-values.js): through hyparquet's
// row reader, the other column's probe gave the bytes after the page as the row's value.
const LOOKUPS = [
  { name: 'PLAIN INT32, 4 bytes short', probe: 's', values: ['a', 'bb', 'ccc'], lookup: 'x' },
  { name: 'DELTA_LENGTH_BYTE_ARRAY, 2 bytes short', probe: 'y', values: [1, 2, 3], lookup: 's' },
]

for (const l of LOOKUPS) {
  test(`${l.name}: a point lookup of the column leaves its rows without values, never the bytes after the page`, async () => {
    await init()
    const c = CASES.find((k) => k.name === l.name)
    const name = `${c.name.split(',')[0].replace(/ /g, '-')}-lookup`
    const { bytes, edited } = await cutShort(name, c.select, c.options, c.cut, c.written, c.orphan)
    await readersRefuse(edited, bytes)
    const file = await openParquet(bytes)
    try {
      const result = await file.probe(l.probe, l.values, { confirm: true, columns: [l.lookup] })
      result.rowGroups[0].results.forEach((r, i) => {
        assert.deepEqual([r.verdict, r.rows, r.values], ['present', [i], undefined], `${r.value}: ${JSON.stringify(r.values)}`)
        assert.match(r.detail, new RegExp(`the rows' values of ${l.lookup} could not be read`))
      })
    } finally {
      await file.close()
    }
  })
}

test('a PLAIN BYTE_ARRAY value whose length runs past its page: a point lookup gives no value, not the bytes after it', async () => {
  await init()
  const file = path.join(dir, 'byte-array-length.parquet')
  await withDuckDB((connection) => connection.run(`COPY (SELECT * FROM (VALUES (2, 'a'), (7, 'bb'), (9, 'ccc')) t(x, s)) TO '${file}'
    (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 0)`))
  const bytes = new Uint8Array(await readFile(file))
  const at = Buffer.from(bytes).indexOf(Buffer.from('03000000636363', 'hex'))
  assert.ok(at > 0, '\'ccc\' is where DuckDB writes it')
  bytes[at] = 5 // its length says 5: 'ccc' and the first two bytes after the page (here the footer's)
  const edited = path.join(dir, 'byte-array-length-edited.parquet')
  await writeFile(edited, bytes)
  await readersRefuse(edited, bytes)
  const opened = await openParquet(bytes)
  try {
    const result = await opened.probe('x', [2, 7, 9], { confirm: true, columns: ['s'] })
    result.rowGroups[0].results.forEach((r, i) => {
      assert.deepEqual([r.verdict, r.rows, r.values], ['present', [i], undefined], `${r.value}: ${JSON.stringify(r.values)}`)
      assert.match(r.detail, /the rows' values of s could not be read/)
    })
  } finally {
    await opened.close()
  }
})

test('a dictionary page claiming more entries than it holds: confirm does not read the extra one from the next page', async () => {
  await init()
  const file = path.join(dir, 'dictionary-count.parquet')
  await withDuckDB((connection) => connection.run(`COPY (SELECT ((i % 3) * 10 + 10)::INTEGER AS x FROM range(1000) t(i)) TO '${file}'
    (FORMAT parquet, COMPRESSION uncompressed)`))
  let bytes = new Uint8Array(await readFile(file))
  // DuckDB's dictionary page at byte 4: its header (num_values 3: 15 06) and 3 INT32s (10, 20, 30), then the data page.
  assert.equal(Buffer.from(bytes.subarray(4, 17)).toString('hex'), '150415181518' + '4c1506150000' + '00', 'the dictionary page header')
  bytes[12] = 0x08 // num_values 4: the 4th entry would be the data page header's first 4 bytes
  const over = new DataView(bytes.buffer).getInt32(17 + 12, true)
  // The data page: 1000 definition levels of 1 (d0 0f 01), bit width 2, a bit-packed run whose first byte holds rows
  // 0–3's indexes 0, 1, 2, 0 (0x24): row 0's becomes 3 (0x27).
  const at = Buffer.from(bytes).indexOf(Buffer.from('d00f01024124', 'hex'))
  assert.ok(at > 0, 'the data page is as DuckDB writes it')
  bytes[at + 5] = 0x27
  // No statistics or bloom filter for the chunk: only the pages answer.
  bytes = editFooter(bytes, (meta) => {
    const columnMetaData = getField(getField(getField(meta, 4).value.items[0], 1).value.items[0], 3).value
    for (const id of [12, 14, 15]) removeField(columnMetaData, id)
  })
  const edited = path.join(dir, 'dictionary-count-edited.parquet')
  await writeFile(edited, bytes)
  await readersRefuse(edited, bytes)
  const opened = await openParquet(bytes)
  try {
    const result = await opened.probe('x', [over, 10, 20, 30], { confirm: true })
    for (const r of result.rowGroups[0].results) {
      assert.ok(r.verdict === 'maybe' || r.verdict === 'unknown', `${r.value}: ${r.verdict} ${JSON.stringify(r.rows?.slice(0, 3))}`)
      assert.equal(r.reason, 'confirm-failed', `${r.value}`)
    }
  } finally {
    await opened.close()
  }
})
