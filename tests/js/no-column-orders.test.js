// Files without FileMetaData.column_orders, read as parquet-java reads them (type-defined order for
// min_value/max_value and the ColumnIndex): DuckDB 1.4 (the npm alias duckdb14, run in a child process)
// writes such files at test time. Every stored value (DuckDB's own read as truth) is never 'absent' in
// its row group; sorted string, UTF-8-order, DECIMAL(38) and UUID columns rule out ≥ 99% of other row
// groups' values by the statistics; absent values agree with DuckDB's SQL. DuckDB writes no page index,
// so the ColumnIndex is checked on a hyparquet-writer file whose column_orders are taken out.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js'

import { openParquet } from '../../js/index.js'
import { pageIndexOrder } from '../../js/indexes/page-index.js'
import { editFooter } from './helpers/footer-edit.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { removeField } from '../../testkit/thrift-writer.js'
import { duckdb14 } from './helpers/duckdb14.js'

const ROW_GROUP = 2048
const GROUPS = 20
const ROWS = ROW_GROUP * GROUPS
const HALF = ROWS / 2
// Every column sorted by i, so row groups hold disjoint ranges.
const COLUMNS = {
  s: "'k' || lpad(i::VARCHAR, 7, '0')",
  // U+FFFD then U+1F600: ascending in UTF-8 bytes (EF.. < F0..), descending in UTF-16 units (FFFD > D83D).
  utf8: `CASE WHEN i < ${HALF} THEN chr(65533) ELSE chr(128512) END || lpad(i::VARCHAR, 7, '0')`,
  long_s: "repeat('x', 80) || lpad(i::VARCHAR, 7, '0')",
  // Negative and positive, 34 digits: the sign decides the order of the two's complement bytes.
  dec38: `((i - ${HALF})::VARCHAR || '123456789012345678901234567.89')::DECIMAL(38, 2)`,
  // The first 32 bits rise from 0 to 0xfff.....: half the UUIDs have the top bit set.
  uuid: "printf('%08x-%04x-4000-8000-%012x', (i * 104857)::BIGINT, i % 65536, i)::UUID",
}
const BYTE_COLUMNS = ['s', 'utf8', 'long_s', 'dec38', 'uuid']

const dir = await tempDir('no-orders')
let written
before(async () => {
  const file = path.join(dir, 'duckdb14.parquet')
  const select = Object.entries(COLUMNS).map(([c, sql]) => `${sql} AS ${c}`).join(', ')
  const texts = Object.keys(COLUMNS).map((c) => `${c}::VARCHAR AS ${c}`).join(', ')
  const { version, results } = await duckdb14({
    statements: ['SET threads = 1', `COPY (SELECT ${select} FROM range(${ROWS}) t(i) ORDER BY i) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP})`],
    queries: [`SELECT file_row_number, ${texts} FROM read_parquet('${file}', file_row_number = true)`],
  })
  const bytes = new Uint8Array(await readFile(file))
  const sizes = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups.map((g) => Number(g.num_rows))
  const ends = []
  let end = 0
  for (const n of sizes) ends.push((end += n))
  const truth = Object.fromEntries(Object.keys(COLUMNS).map((c) => [c, sizes.map(() => new Set())]))
  for (const row of results[0]) {
    const g = ends.findIndex((e) => Number(row.file_row_number) < e)
    for (const c of Object.keys(COLUMNS)) truth[c][g].add(row[c])
  }
  written = { file, bytes, version, truth, groups: sizes.length }
})

/** FileMetaData as hyparquet's Thrift reader decodes it, by field id (column_orders is field 7). */
function rawFileMetaData(bytes) {
  const length = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true)
  const view = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8 - length, length)
  return deserializeTCompactProtocol({ view, offset: 0 })
}

/**
 * Probes every stored value of the column: never absent where DuckDB stores it, never present where it
 * does not; returns the share of (value, other row group) pairs answered absent, and by which index.
 */
async function checkColumn(file, column, options) {
  const perGroup = written.truth[column]
  const values = perGroup.flatMap((set) => [...set])
  const result = await file.probe(column, values, options)
  let pairs = 0
  let ruledOut = 0
  const sources = {}
  for (const rg of result.rowGroups) {
    rg.results.forEach((r, i) => {
      const stored = perGroup[rg.index].has(values[i])
      if (stored) {
        assert.notEqual(r.verdict, 'absent', `${column}: ${values[i]} is stored in row group ${rg.index} but came back absent (${r.reason}: ${r.detail})`)
        return
      }
      assert.notEqual(r.verdict, 'present', `${column}: ${values[i]} came back present in row group ${rg.index}, which does not hold it`)
      pairs++
      if (r.verdict === 'absent') {
        ruledOut++
        sources[r.source] = (sources[r.source] ?? 0) + 1
      }
    })
  }
  return { rate: ruledOut / pairs, pairs, sources }
}

describe('DuckDB 1.4: no column_orders', () => {
  test('the file is DuckDB 1.4\'s and has min_value/max_value but no column_orders', () => {
    assert.match(written.version, /^v1\.4\./)
    const metadata = rawFileMetaData(written.bytes)
    assert.match(new TextDecoder().decode(metadata.field_6), /^DuckDB version v1\.4\./, 'created_by')
    assert.equal(metadata.field_7, undefined, 'no column_orders')
    const stats = metadata.field_4[0].field_1.map((chunk) => chunk.field_3.field_12)
    assert.ok(stats.every((s) => s.field_5 !== undefined && s.field_6 !== undefined), 'every chunk has max_value and min_value')
  })

  test('statistics: every stored value kept in its row group, ≥ 99% of other row groups\' values ruled out', async (t) => {
    const file = await openParquet(written.file)
    try {
      assert.equal(file.layout.columnOrders, null)
      for (const column of BYTE_COLUMNS) {
        const { rate, pairs, sources } = await checkColumn(file, column, { dictionary: false, pageIndex: false })
        t.diagnostic(`${column}: ${(rate * 100).toFixed(2)}% of ${pairs} (value, other row group) pairs absent, by ${JSON.stringify(sources)}`)
        assert.ok(rate >= 0.99, `${column}: only ${(rate * 100).toFixed(2)}% ruled out`)
        assert.equal(sources.statistics, Math.round(rate * pairs))
      }
    } finally {
      await file.close()
    }
  })

  test('page index: its bounds are read in the type-defined order too', async (t) => {
    const file = await openParquet(written.file)
    try {
      for (const column of BYTE_COLUMNS) {
        const leaf = file.layout.columns.find((c) => c.name === column)
        assert.equal(pageIndexOrder(file.layout, leaf).usable, true, column)
        const hasIndex = file.metadata.rowGroups.every((g) => g.columns[leaf.index].indexes.pageIndex.columnIndex)
        if (!hasIndex) {
          t.diagnostic(`${column}: DuckDB 1.4 wrote no column index`)
          continue
        }
        const { rate, sources } = await checkColumn(file, column, { statistics: false, dictionary: false, pageIndex: true })
        t.diagnostic(`${column}: page index alone rules out ${(rate * 100).toFixed(2)}% (${JSON.stringify(sources)})`)
        assert.ok(rate >= 0.99, `${column}: only ${(rate * 100).toFixed(2)}% ruled out by the page index`)
      }
    } finally {
      await file.close()
    }
  })

  test('absent and present values agree with DuckDB\'s own SQL answers', async () => {
    // Below, between and above the stored values, and some stored ones (text as DuckDB prints it).
    const probes = {
      s: ['a', 'k0000100a', 'k0020000', 'k0020000 ', 'k9999999', 'l'],
      utf8: ['\uFFFD0000005', '\u{1F600}0030000', '\uFFFD0030000', '\u{1F600}0000005', '\uFFFE', '\u{1F601}'],
      long_s: [`${'x'.repeat(80)}0000007`, `${'x'.repeat(80)}0040959`, `${'x'.repeat(80)}0040960`, 'x', 'y'],
      dec38: ['-20480123456789012345678901234567.89', '-20480123456789012345678901234567.88', '0', '123456789012345678901234567.89',
        '20479123456789012345678901234567.89', '20479123456789012345678901234567.90', '-1'],
      uuid: ['00000000-0000-4000-8000-000000000000', '00019999-0001-4000-8000-000000000001', 'ffffffff-ffff-4000-8000-ffffffffffff',
        '80000000-0000-4000-8000-000000000000', `${(20480 * 104857).toString(16).padStart(8, '0')}-5000-4000-8000-000000005000`],
    }
    const casts = { s: 'VARCHAR', utf8: 'VARCHAR', long_s: 'VARCHAR', dec38: 'DECIMAL(38, 2)', uuid: 'UUID' }
    const queries = []
    for (const [column, values] of Object.entries(probes)) {
      for (const v of values) queries.push(`SELECT count(*) AS n FROM read_parquet('${written.file}') WHERE ${column} = '${v}'::${casts[column]}`)
    }
    const { results } = await duckdb14({ queries })
    const file = await openParquet(written.file)
    try {
      let q = 0
      let present = 0
      let absent = 0
      for (const [column, values] of Object.entries(probes)) {
        const result = await file.probe(column, values)
        values.forEach((v, i) => {
          const count = Number(results[q++][0].n)
          const verdicts = result.rowGroups.map((g) => g.results[i].verdict)
          if (count > 0) {
            present++
            assert.ok(verdicts.some((x) => x !== 'absent'), `${column} ${v}: DuckDB finds ${count} rows, the probe says absent everywhere`)
          } else {
            absent++
            assert.ok(!verdicts.includes('present'), `${column} ${v}: DuckDB finds none, the probe says present`)
            // Statistics can keep only the row group whose range the value falls in.
            assert.ok(verdicts.filter((x) => x !== 'absent').length <= 1, `${column} ${v}: DuckDB finds none, kept in ${verdicts.filter((x) => x !== 'absent').length} row groups`)
          }
        })
      }
      assert.ok(present >= 8 && absent >= 15, `${present} present and ${absent} absent probes`)
    } finally {
      await file.close()
    }
  })
})

describe('a page index without column_orders', () => {
  test('hyparquet-writer\'s ColumnIndex with column_orders removed: every sampled value found on its page, one lookup reads ≤ 1% of the chunk', async (t) => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const rows = 20000
    const text = (i) => `${i < rows / 2 ? '\uFFFD' : '\u{1F600}'}${String(i).padStart(6, '0')}`
    const uuid = (i) => `${(i * 214748).toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`
    const data = { text: Array.from({ length: rows }, (_, i) => text(i)), uuid: Array.from({ length: rows }, (_, i) => uuid(i)) }
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'text', data: data.text, type: 'STRING', columnIndex: true, offsetIndex: true },
        { name: 'uuid', data: data.uuid, type: 'UUID', columnIndex: true, offsetIndex: true },
      ],
      rowGroupSize: rows,
      pageSize: 1024,
      // Its default created_by ('hyparquet', no version) has binary page bounds ignored (writer rule
      // hyparquet-bounds); this version orders this text by code points and these lowercase UUIDs as their bytes.
      createdBy: 'hyparquet-writer version 0.17.0',
    })
    const bytes = editFooter(new Uint8Array(buffer), (struct) => removeField(struct, 7))
    assert.equal(rawFileMetaData(bytes).field_7, undefined)
    const file = await openParquet(bytes)
    try {
      assert.equal(file.layout.columnOrders, null)
      for (const column of ['text', 'uuid']) {
        const leaf = file.layout.columns.find((c) => c.name === column)
        assert.equal(pageIndexOrder(file.layout, leaf).usable, true, column)
        // Every 50th row's value, probed against the page index alone: kept on its own page, the
        // pages it is not on ruled out (confirm reads only the kept pages, so its rows show which).
        const sample = data[column].filter((_, i) => i % 50 === 0)
        const result = await file.probe(column, sample, { statistics: false, dictionary: false, pageIndex: true, confirm: true, maxRows: 1e9 })
        const rowsOf = result.rowGroups[0].results.map((r) => r.rows)
        sample.forEach((v, k) => assert.deepEqual(rowsOf[k], [k * 50], `${column} ${v}`))
        // One value's lookup reads only the pages the ColumnIndex keeps for it: a small share of the chunk.
        const chunkBytes = Number(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups[0].columns[leaf.index].meta_data.total_compressed_size)
        for (const i of [0, 4321, 10000, 19999]) {
          const one = await file.probe(column, [data[column][i]], { statistics: false, dictionary: false, pageIndex: true, confirm: true })
          assert.deepEqual(one.rowGroups[0].results[0].rows, [i])
          const share = one.confirm.bytesFetched / chunkBytes
          t.diagnostic(`${column} row ${i}: ${one.confirm.bytesFetched} of the chunk's ${chunkBytes} bytes read`)
          assert.ok(share <= 0.01, `${column} row ${i}: read ${(share * 100).toFixed(1)}% of the chunk`)
        }
      }
    } finally {
      await file.close()
    }
  })
})
