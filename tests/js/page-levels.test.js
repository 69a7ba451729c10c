// A data page's levels read only from the bytes the page gives them (js/pages/page-levels.js). hyparquet's level
// reader reads runs until it has num_values levels — past a short section into the values (apache/arrow#41321's
// files) — and keeps a level above the column's maximum; its page readers then read as many values as those
// levels say. On a DuckDB file whose v1 page had one level byte changed, confirm answered `absent` for values the
// page holds and index add wrote a filter without them, where DuckDB and arrow-rs refuse the page. A page that
// declares BIT_PACKED levels was read as RLE (as DuckDB does) where arrow-rs reads it as bit-packed, other rows.
// Each is now a page in doubt: `maybe` (confirm-failed), and no filter for the chunk.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'

import { tableFromIPC } from 'apache-arrow'

import { init, openParquet } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('page-levels')
const X = [2, 7, 9]
const S = ['a', 'bb', 'ccc']
let original

before(async () => {
  await init()
  const file = path.join(dir, 'levels.parquet')
  await withDuckDB(async (connection) => {
    // Nullable columns, PLAIN (no dictionary), uncompressed v1 pages: each page's definition levels are
    // [u32 length 2][RLE run of 3 ones: 06 01].
    await connection.run(`COPY (SELECT * FROM (VALUES (2, 'a'), (7, 'bb'), (9, 'ccc')) t(x, s)) TO '${file}'
      (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 0)`)
    const rows = (await connection.runAndReadAll(`SELECT x, s FROM '${file}'`)).getRows()
    assert.deepEqual(rows, X.map((x, i) => [x, S[i]]), 'DuckDB reads the file it wrote')
  })
  original = new Uint8Array(await readFile(file))
})

/**
 * The file with `from` (hex) replaced by `to` in its first `pages` occurrences: one per column's page, x's first.
 * @param {string} from @param {string} to @param {number} [pages] 2: both columns' pages; 1: x's only
 */
function edited(from, to, pages = 2) {
  const bytes = original.slice()
  const needle = Buffer.from(from, 'hex')
  let count = 0
  for (let at = Buffer.from(bytes).indexOf(needle); at >= 0; at = Buffer.from(bytes).indexOf(needle, at + 1)) {
    if (count < pages) bytes.set(Buffer.from(to, 'hex'), at)
    count++
  }
  assert.equal(count, 2, 'one page per column, as DuckDB writes them')
  return bytes
}

/** The independent truth that the edited page is bad: no two readers read its rows alike, or one refuses them. */
async function assertReadersDisagree(bytes) {
  const duckdb = await duckdbRows(bytes)
  const arrowRs = await arrowRsRows(bytes)
  assert.ok(typeof duckdb === 'string' || typeof arrowRs === 'string' || JSON.stringify(duckdb) !== JSON.stringify(arrowRs),
    `DuckDB ${JSON.stringify(duckdb)}, arrow-rs ${JSON.stringify(arrowRs)}`)
}

const EDITS = {
  // The definition levels' RLE run says 2 of the 3 levels: the rest lie past the section's 2 bytes.
  'a short level run': ['020000000601', '020000000401'],
  // A definition level of 3 in a column whose maximum is 1.
  'a level above the maximum': ['020000000601', '020000000603'],
  // DataPageHeader.definition_level_encoding BIT_PACKED (4) instead of RLE (3), the bytes as they were.
  'BIT_PACKED definition levels': ['2c1506150015061506', '2c1506150015081506'],
}

/** What arrow-rs (parquet-wasm) reads of `bytes`: rows, or its error. */
async function arrowRsRows(bytes) {
  const { readParquet } = await import('parquet-wasm')
  try {
    return tableFromIPC(readParquet(bytes).intoIPCStream()).toArray().map((row) => row.toJSON().x)
  } catch (error) {
    return `error: ${error}`
  }
}

/** What DuckDB reads of `bytes`: rows, or its error. */
async function duckdbRows(bytes) {
  const file = path.join(dir, 'edited.parquet')
  const { writeFile } = await import('node:fs/promises')
  await writeFile(file, bytes)
  return withDuckDB(async (connection) => {
    try {
      return (await connection.runAndReadAll(`SELECT x FROM '${file}'`)).getRows().map((row) => row[0])
    } catch (error) {
      return `error: ${error}`
    }
  })
}

for (const [name, [from, to]] of Object.entries(EDITS)) {
  test(`${name}: the readers do not agree on the page; confirm answers maybe, never absent or other rows`, async () => {
    const bytes = edited(from, to)
    await assertReadersDisagree(bytes)
    const file = await openParquet(bytes)
    try {
      for (const [column, values] of [['x', X], ['s', S]]) {
        const result = await file.probe(column, values, { confirm: true })
        for (const r of result.rowGroups[0].results) {
          assert.equal(r.verdict, 'maybe', `${column} ${r.value}: ${r.verdict} (${r.reason}: ${r.detail})`)
          assert.equal(r.reason, 'confirm-failed', `${column} ${r.value}`)
        }
      }
    } finally {
      await file.close()
    }
  })

  test(`${name}: index add writes no filter for the page's chunk`, async () => {
    const bytes = edited(from, to)
    const { added, skipped, blob } = await addIndexes(bytes, null, { columns: ['x', 's'] })
    assert.deepEqual(added, [])
    assert.deepEqual(skipped.map((s) => [s.column, s.reason]), [['x', 'unreadable-pages'], ['s', 'unreadable-pages']])
    const file = await openParquet(new Uint8Array(await blob.arrayBuffer()))
    try {
      const result = await file.probe('x', X)
      for (const r of result.rowGroups[0].results) assert.notEqual(r.verdict, 'absent', `${r.value}: ${r.reason}`)
    } finally {
      await file.close()
    }
  })
}

test('the unedited pages: confirm finds every value at DuckDB\'s rows', async () => {
  const file = await openParquet(original)
  try {
    for (const [column, values] of [['x', X], ['s', S]]) {
      const result = await file.probe(column, values, { confirm: true })
      assert.deepEqual(result.rowGroups[0].results.map((r) => [r.verdict, r.rows]), values.map((_, i) => ['present', [i]]), column)
    }
  } finally {
    await file.close()
  }
})

test('a lookup column whose page hyparquet cannot read: the probe answers, its rows without values', async () => {
  // Only s's page gets the short run; x's page is as DuckDB wrote it. hyparquet's row reader (point lookups) runs
  // off the end of s's page: a bare RangeError left the probe, and with it every answer.
  const bytes = original.slice()
  const needle = Buffer.from('020000000601', 'hex')
  const second = Buffer.from(bytes).indexOf(needle, Buffer.from(bytes).indexOf(needle) + 1)
  bytes[second + 4] = 0x04
  const file = await openParquet(bytes)
  try {
    const result = await file.probe('x', X, { confirm: true, columns: ['s'] })
    result.rowGroups[0].results.forEach((r, i) => {
      assert.deepEqual([r.verdict, r.rows, r.values], ['present', [i], undefined], `${r.value}`)
      assert.match(r.detail, /the rows' values of s could not be read/)
    })
  } finally {
    await file.close()
  }
})

// Point lookups read other columns' values through the same page decoding (js/confirm/row-values.js). Through
// hyparquet's row reader, a short level run in x's page gave `x: null` for the row holding 9.
for (const [name, [from, to]] of Object.entries(EDITS)) {
  test(`${name} in a lookup column's page: its rows keep their verdicts, without values, never other values`, async () => {
    // Only x's page (the first) is edited; s's page, the one probed, is as DuckDB wrote it.
    const bytes = edited(from, to, 1)
    await assertReadersDisagree(bytes)
    const file = await openParquet(bytes)
    try {
      const result = await file.probe('s', S, { confirm: true, columns: ['x'] })
      result.rowGroups[0].results.forEach((r, i) => {
        assert.deepEqual([r.verdict, r.rows, r.values], ['present', [i], undefined], `${r.value}: ${JSON.stringify(r.values)}`)
        assert.match(r.detail, /the rows' values of x could not be read/)
      })
    } finally {
      await file.close()
    }
  })
}

test('a lookup column with one bad page: the other row groups\' rows get DuckDB\'s values', async () => {
  const file = path.join(dir, 'groups.parquet')
  const n = 4096 // two row groups of 2048 rows, one page per column chunk
  await withDuckDB((connection) => connection.run(`COPY (SELECT i::INTEGER * 3 AS x, 's' || i AS s FROM range(${n}) t(i))
    TO '${file}' (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 0, ROW_GROUP_SIZE 2048)`))
  const bytes = new Uint8Array(await readFile(file))
  // Each page's definition levels: [u32 length 3][RLE run of 2048 ones: 80 20 01]; pages in file order x, s, x, s.
  const needle = Buffer.from('03000000802001', 'hex')
  const places = []
  for (let at = Buffer.from(bytes).indexOf(needle); at >= 0; at = Buffer.from(bytes).indexOf(needle, at + 1)) places.push(at)
  assert.equal(places.length, 4, 'one page per column chunk')
  bytes[places[2] + 5] = 0x1f // row group 1's x page: a run of 1984 levels, the rest past the section
  const wanted = [0, 1, 2047, 2048, 3000, 4095]
  const truth = await withDuckDB(async (connection) => {
    const rows = (await connection.runAndReadAll(`SELECT x FROM '${file}'`)).getRows() // the unedited file
    return wanted.map((row) => rows[row][0])
  })
  assert.match(String(await duckdbRows(bytes)), /^error/, 'DuckDB refuses the edited page')
  const probed = await openParquet(bytes)
  try {
    const result = await probed.probe('s', wanted.map((row) => `s${row}`), { confirm: true, columns: ['x'] })
    const found = result.rowGroups.flatMap((g) => g.results.filter((r) => r.verdict === 'present'))
    assert.deepEqual(found.map((r) => r.rows), wanted.map((row) => [row]))
    found.forEach((r, i) => {
      if (wanted[i] < 2048) assert.deepEqual(r.values, [{ x: truth[i] }], `row ${wanted[i]}`)
      else assert.deepEqual([r.values, /the rows' values of x could not be read/.test(r.detail)], [undefined, true], `row ${wanted[i]}`)
    })
  } finally {
    await probed.close()
  }
})
