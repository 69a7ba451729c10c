// Row-group statistics as an index, against independent truth: every stored value of every column of
// files written at test time by DuckDB (default options; sorted, shuffled, disjoint and overlapping
// row-group ranges; nulls, NaN and ±0) and of the parquet-testing files, as hyparquet reads them. A
// present value is never 'absent'; 'present' (from dictionaries) only for values that are there; the
// share of other row groups' values ruled out is reported per column, and asserted where row-group
// ranges are disjoint.
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, describe, test } from 'node:test'

import { parquetMetadata, parquetReadObjects } from 'hyparquet'

import { openParquet } from '../../js/index.js'
import { compareBytes, compareDecimal, sortKeys, sortOrderFor } from '../../js/indexes/statistics.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const ROW_GROUP = 2048
const GROUPS = 4

const dir = await tempDir('stats')
// Columns by how their values spread over the row groups (i = row number).
const COLUMNS = {
  sorted_i: { sql: 'i::INTEGER', disjoint: true },
  shuffled_i: { sql: `((i * 7919) % ${ROW_GROUP * GROUPS})::INTEGER`, disjoint: false },
  overlap_bi: { sql: `((i % ${ROW_GROUP}) * 3 + (i // ${ROW_GROUP}) * 1000)::BIGINT`, disjoint: false },
  sorted_s: { sql: "'k' || lpad(i::VARCHAR, 6, '0')", disjoint: true },
  long_s: { sql: "repeat('x', 80) || lpad(i::VARCHAR, 6, '0')", disjoint: true },
  // Row group 2 holds a NaN: DuckDB's max is then NaN, and such bounds are ignored (PARQUET-1246).
  d: { sql: `CASE i WHEN 5 THEN '-0.0'::DOUBLE WHEN 6 THEN 0.0 WHEN ${ROW_GROUP * 2 + 7} THEN 'nan'::DOUBLE ELSE i / 3.0 END`, disjoint: false },
  f: { sql: `CASE i WHEN 9 THEN '-0.0'::FLOAT WHEN ${ROW_GROUP + 3} THEN 'nan'::FLOAT ELSE (i / 4.0)::FLOAT END`, disjoint: false }, // NaN in row group 1
  nullable: { sql: 'CASE WHEN i % 2 = 0 THEN NULL ELSE i END::BIGINT', disjoint: true },
  null_group: { sql: `CASE WHEN i // ${ROW_GROUP} = 1 THEN NULL ELSE i END::INTEGER`, disjoint: true },
  dt: { sql: "DATE '2020-01-01' + i::INTEGER", disjoint: true },
  ts: { sql: "TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 61)", disjoint: true },
  dec: { sql: '(i * 1.5)::DECIMAL(18, 3)', disjoint: true },
  dec38: { sql: '(i * 12345678901234.5 - 50000000000000000)::DECIMAL(38, 2)', disjoint: true },
  b: { sql: `i < ${ROW_GROUP + 100}`, disjoint: false },
  u8: { sql: '(i % 256)::UTINYINT', disjoint: false },
  ubig: { sql: '(18446744073709551615::UBIGINT - i::UBIGINT)', disjoint: true },
  uuid: { sql: 'md5(i::VARCHAR)::UUID', disjoint: false },
}

/** Writes the table with DuckDB's default Parquet options; per column and row group, the distinct values as DuckDB prints them. */
async function writeDuckdb(name, { order = 'i' } = {}) {
  const file = path.join(dir, name)
  return await withDuckDB(async (conn) => {
    await conn.run("SET TimeZone = 'UTC'")
    const select = Object.entries(COLUMNS).map(([c, { sql }]) => `${sql} AS ${c}`).join(', ')
    await conn.run(`COPY (SELECT ${select} FROM range(${ROW_GROUP * GROUPS}) t(i) ORDER BY ${order}) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP})`)
    const texts = Object.keys(COLUMNS).map((c) => `${c}::VARCHAR AS ${c}`).join(', ')
    const rows = (await conn.runAndReadAll(`SELECT file_row_number, ${texts} FROM read_parquet('${file}', file_row_number = true)`)).getRowObjects()
    const bytes = new Uint8Array(await readFile(file))
    const sizes = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups.map((g) => Number(g.num_rows))
    const groupOf = groupFinder(sizes)
    const truth = {}
    for (const c of Object.keys(COLUMNS)) truth[c] = sizes.map(() => new Set())
    for (const row of rows) {
      const g = groupOf(Number(row.file_row_number))
      for (const c of Object.keys(COLUMNS)) if (row[c] !== null) truth[c][g].add(row[c])
    }
    return { path: file, truth, groups: sizes.length }
  })
}

function groupFinder(sizes) {
  const ends = []
  let end = 0
  for (const n of sizes) ends.push((end += n))
  return (row) => ends.findIndex((e) => row < e)
}

/**
 * Probes every stored value of `column` against the whole file: never absent where it is stored,
 * never 'present'. Returns the share of (value, other row group without it) pairs answered absent.
 */
async function checkColumn(file, column, perGroup, toInput = (v) => v) {
  const values = []
  const homes = []
  perGroup.forEach((set, g) => {
    for (const v of set) {
      values.push(v)
      homes.push(g)
    }
  })
  if (values.length === 0) return { ruledOut: 0, pairs: 0 }
  const result = await file.probe(column, values.map(toInput), { mode: 'block' })
  let pairs = 0
  let ruledOut = 0
  for (const rg of result.rowGroups) {
    rg.results.forEach((r, i) => {
      const stored = perGroup[rg.index].has(values[i])
      if (r.verdict === 'present') assert.ok(stored, `${column}: ${values[i]} came back present (${r.reason}) in row group ${rg.index}, which does not hold it`)
      if (stored) {
        assert.notEqual(r.verdict, 'absent', `${column}: ${values[i]} is stored in row group ${rg.index} (home ${homes[i]}) but came back absent (${r.reason}: ${r.detail})`)
      } else {
        pairs++
        if (r.verdict === 'absent') ruledOut++
      }
    })
  }
  return { ruledOut, pairs }
}

describe('DuckDB files with default options', () => {
  for (const [label, order] of [['sorted', 'i'], ['shuffled rows', 'hash(i)']]) {
    test(`${label}: every stored value of every column is kept in its row group; disjoint ranges rule out ≥ 99%`, async (t) => {
      const written = await writeDuckdb(`${label.replace(/\W/g, '-')}.parquet`, { order })
      const file = await openParquet(written.path)
      try {
        for (const column of Object.keys(COLUMNS)) {
          const { ruledOut, pairs } = await checkColumn(file, column, written.truth[column])
          const rate = pairs ? ruledOut / pairs : 1
          t.diagnostic(`${label} ${column}: ${ruledOut} of ${pairs} other row groups' values absent (${(rate * 100).toFixed(1)}%)`)
          if (order === 'i' && COLUMNS[column].disjoint) assert.ok(rate >= 0.99, `${column}: only ${(rate * 100).toFixed(1)}% ruled out`)
        }
      } finally {
        await file.close()
      }
    })
  }

  test('ruling out other row groups by statistics costs no request beyond the footer', async () => {
    const written = await writeDuckdb('zero-requests.parquet')
    const file = await openParquet(written.path)
    try {
      const afterFooter = file.stats.requests
      for (const column of ['sorted_i', 'sorted_s', 'dt', 'ts', 'dec', 'd']) {
        for (let g = 0; g < written.groups; g++) {
          if (column === 'd' && g === 2) continue // its NaN max makes its statistics unusable
          const others = written.truth[column].flatMap((set, h) => (h === g ? [] : [...set])).filter((v) => !written.truth[column][g].has(v) && v !== 'nan')
          const result = await file.probe(column, others, { rowGroups: [g] })
          const verdicts = result.rowGroups[0].results
          const absent = verdicts.filter((r) => r.verdict === 'absent' && r.source === 'statistics').length
          assert.ok(absent >= others.length * 0.99, `${column} row group ${g}: ${absent} of ${others.length} ruled out by statistics`)
        }
      }
      assert.equal(file.stats.requests, afterFooter, 'no request after the footer read')
    } finally {
      await file.close()
    }
  })

  test('an all-null chunk rules out every non-null value; NaN and null stay unknown; ±0 are kept', async () => {
    const written = await writeDuckdb('nulls.parquet')
    const file = await openParquet(written.path)
    try {
      const nullGroup = (await file.probe('null_group', [5, null], { rowGroups: [1] })).rowGroups[0].results
      assert.deepEqual(nullGroup.map((r) => [r.verdict, r.reason]), [['absent', 'all-null'], ['unknown', 'null']])
      const floats = await file.probe('d', [0, -0, Number.NaN])
      assert.deepEqual(floats.rowGroups[0].results.map((r) => r.verdict).slice(0, 2).map((v) => v !== 'absent'), [true, true], 'zero is stored in row group 0')
      for (const rg of floats.rowGroups) assert.equal(rg.results[2].reason, 'nan')
      // The row group holding a NaN: its min/max may exclude nothing else, but must never exclude a stored value.
      const nanGroup = (await file.probe('d', [...written.truth.d[2]].filter((v) => v !== 'nan'), { rowGroups: [2] })).rowGroups[0].results
      assert.ok(nanGroup.every((r) => r.verdict !== 'absent'))
    } finally {
      await file.close()
    }
  })
})

describe('sort orders (LogicalTypes.md)', () => {
  test('unsigned and signed integers, bytes and decimals order as the spec says', () => {
    const keysOf = (column, candidates) => sortKeys(sortOrderFor(column), candidates)
    const u32 = keysOf({ physicalType: 'INT32', logicalType: { type: 'INTEGER', bitWidth: 32, isSigned: false } }, [-1, 1])
    assert.ok(u32[0] > u32[1], 'UINT32 -1 is 4294967295')
    const i32 = keysOf({ physicalType: 'INT32', logicalType: null }, [-1, 1])
    assert.ok(i32[0] < i32[1])
    const u64 = keysOf({ physicalType: 'INT64', logicalType: { type: 'INTEGER', bitWidth: 64, isSigned: false } }, [-1n, 1n])
    assert.ok(u64[0] > u64[1])
    assert.ok(compareBytes(Uint8Array.of(0x7f), Uint8Array.of(0x80)) < 0, 'bytes compare unsigned')
    assert.ok(compareBytes(Uint8Array.of(1), Uint8Array.of(1, 0)) < 0, 'a prefix sorts first')
    assert.ok(compareDecimal(Uint8Array.of(0xff), Uint8Array.of(0x00)) < 0, '-1 < 0')
    assert.equal(compareDecimal(Uint8Array.of(0xff, 0xff), Uint8Array.of(0xff)), 0, 'sign extension')
    assert.ok(compareDecimal(Uint8Array.of(0x01, 0x00), Uint8Array.of(0x7f)) > 0, '256 > 127')
    for (const physicalType of ['INT96']) assert.equal(sortOrderFor({ physicalType, logicalType: null }), null)
    assert.equal(sortOrderFor({ physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 12, logicalType: { type: 'INTERVAL' } }), null)
  })
})

// parquet-testing files whose values hyparquet reads back in a form probe() takes exactly.
const READABLE = new Set(['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BOOLEAN', 'BYTE_ARRAY'])

describe('parquet-testing files, every stored value', () => {
  const dirOf = fixturePath('parquet-testing')
  test('statistics never rule out a stored value (hyparquet reads the values)', { skip: missingFixture('parquet-testing') }, async (t) => {
    let checkedFiles = 0
    for (const name of readdirSync(dirOf).filter((n) => n.endsWith('.parquet'))) {
      let file
      try {
        file = await openParquet(path.join(dirOf, name))
      } catch {
        continue // refused files are the hostile tests' business
      }
      try {
        const columns = file.layout.columns.filter((c) => !c.repeated && READABLE.has(c.physicalType) && probeable(c))
        if (columns.length === 0) continue
        const bytes = new Uint8Array(await readFile(path.join(dirOf, name)))
        const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
        let rows
        try {
          rows = await parquetReadObjects({ file: buffer, columns: columns.map((c) => c.name), rowFormat: 'object' })
        } catch (error) {
          t.diagnostic(`${name}: hyparquet cannot read it (${error.message}); skipped`)
          continue
        }
        checkedFiles++
        const groupOf = groupFinder(Array.from(file.layout.rowGroupRows))
        const summary = []
        for (const column of columns) {
          const perGroup = Array.from(file.layout.rowGroupRows, () => new Set())
          rows.forEach((row, r) => {
            const v = row[column.name]
            if (v !== null && v !== undefined && !(typeof v === 'number' && Number.isNaN(v))) perGroup[groupOf(r)].add(v)
          })
          const { ruledOut, pairs } = await checkColumn(file, column.name, perGroup)
          if (pairs) summary.push(`${column.name} ${ruledOut}/${pairs}`)
        }
        if (summary.length) t.diagnostic(`${name}: ruled out ${summary.join(', ')}`)
      } finally {
        await file.close()
      }
    }
    assert.ok(checkedFiles >= 20, `only ${checkedFiles} files checked`)
  })
})

/** Columns whose hyparquet values are probe inputs as they are (no temporal or decimal conversions). */
function probeable(column) {
  const t = column.logicalType?.type
  if (column.physicalType === 'BYTE_ARRAY') return t === 'STRING' || t === 'ENUM' || t === undefined
  return t === undefined || t === 'INTEGER'
}

// Malformed statistics, as a hostile or buggy writer leaves them: each makes the chunk's statistics
// unusable (with a reason), never a wrong 'absent' for a stored value.
describe('statistics that disagree are not used', () => {
  /** A DuckDB file whose footer has one chunk's Statistics (or ColumnMetaData) edited. */
  async function edited(editChunk) {
    const { getField } = await import('../../testkit/thrift-writer.js')
    const { editFooter } = await import('./helpers/footer-edit.js')
    const written = await writeDuckdb(`hostile-${Math.random().toString(36).slice(2)}.parquet`)
    const bytes = editFooter(new Uint8Array(await readFile(written.path)), (struct) => {
      const rowGroup = getField(struct, 4).value.items[1]
      const chunk = getField(rowGroup, 1).value.items[Object.keys(COLUMNS).indexOf('sorted_i')]
      const meta = getField(chunk, 3).value
      editChunk(meta, getField(meta, 12).value)
    })
    return { bytes, truth: written.truth.sorted_i }
  }

  const i32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v, true); return b }
  const cases = [
    ['min above max', (m, s) => { setBinary(s, 6, i32(1_000_000)); setBinary(s, 5, i32(-5)) }, 'inconsistent-statistics'],
    ['a bound of the wrong width', (m, s) => setBinary(s, 6, new Uint8Array(3)), 'inconsistent-statistics'],
    ['a bound of 8 bytes on INT32', (m, s) => setBinary(s, 5, new Uint8Array(8).fill(0x7f)), 'inconsistent-statistics'],
    ['null_count above num_values', (m, s) => setI64(s, 3, 10n ** 9n), 'inconsistent-statistics'],
    ['num_values other than the row count', (m) => setI64(m, 5, 17n), 'inconsistent-statistics'],
    ['statistics of another Thrift type', (m) => replaceWithI32(m, 12), 'inconsistent-statistics'],
    ['an all-null claim the row count contradicts', (m, s) => { setI64(s, 3, 2048n); setI64(m, 5, 4096n) }, 'inconsistent-statistics'],
  ]
  for (const [name, edit, reason] of cases) {
    test(name, async () => {
      const { bytes, truth } = await edited(edit)
      const file = await openParquet(bytes)
      try {
        const column = file.metadata.rowGroups[1].columns.find((c) => c.path === 'sorted_i')
        assert.deepEqual([column.indexes.statistics.usable, column.indexes.statistics.reason], [false, reason], JSON.stringify(column.indexes.statistics))
        const stored = [...truth[1]]
        const result = await file.probe('sorted_i', stored, { rowGroups: [1], dictionary: false })
        assert.ok(result.rowGroups[0].results.every((r) => r.verdict !== 'absent'), 'no stored value ruled out by statistics that disagree')
      } finally {
        await file.close()
      }
    })
  }
})

function setBinary(struct, id, bytes) {
  const field = struct.fields.find((f) => f.id === id)
  if (field) field.value = bytes
  else {
    struct.fields.push({ id, type: 8, value: bytes })
    struct.fields.sort((a, b) => a.id - b.id)
  }
}

function setI64(struct, id, value) {
  const field = struct.fields.find((f) => f.id === id)
  if (field) {
    field.type = 6
    field.value = value
  } else {
    struct.fields.push({ id, type: 6, value })
    struct.fields.sort((a, b) => a.id - b.id)
  }
}

function replaceWithI32(struct, id) {
  const field = struct.fields.find((f) => f.id === id)
  field.type = 5
  field.value = 7
}
