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
import { getField } from '../../testkit/thrift-writer.js'
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
