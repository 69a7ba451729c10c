// Exact lookups (probe(…, { confirm: true }), js/confirm/confirm.js) against independent truth: files written
// at test time by hyparquet-writer (page index, known row formulas) and DuckDB (many row groups, no
// page index), and the parquet-testing conformance files; the rows must be exactly those a full read by
// hyparquet finds, and the bytes read are asserted over HTTP. Hostile pages keep 'maybe', never a
// wrong 'absent' or 'present'.
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

import { openParquet } from '../../js/index.js'
import { fixturePath, missingFixture, readFixture } from './helpers/fixtures.js'
import { hyparquetTruth } from './helpers/page-index-truth.js'
import { pageSizeFields, readZigzag, writeZigzag } from './helpers/page-header-edit.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const ROWS = 60000
const GROUP_ROWS = 20000
// Row i's values, the formulas the writer was given: id sorted, key a permutation (shuffled), n with nulls.
const idOf = (i) => BigInt(i) * 3n
const keyOf = (i) => `k${(i * 7919) % ROWS}`
const nOf = (i) => (i % 10 === 0 ? null : i % 1000)
const dOf = (i) => (i % 500) / 4 - (i % 1000 === 500 ? 0 : 0)

const dir = await tempDir('confirm')
let server
let written
before(async () => {
  const { parquetWriteBuffer } = await import('hyparquet-writer')
  const rows = Array.from({ length: ROWS }, (_, i) => i)
  const columnData = [
    { name: 'id', data: rows.map(idOf), type: 'INT64', columnIndex: true, bloomFilter: true },
    { name: 'key', data: rows.map(keyOf), type: 'STRING', columnIndex: true, bloomFilter: true },
    { name: 'n', data: rows.map(nOf), type: 'INT32', columnIndex: true },
    { name: 'd', data: rows.map(dOf), type: 'DOUBLE', columnIndex: true },
  ]
  const indexed = new Uint8Array(parquetWriteBuffer({ codec: 'SNAPPY', rowGroupSize: GROUP_ROWS, pageSize: 4096, columnData }))
  const plain = new Uint8Array(parquetWriteBuffer({ codec: 'UNCOMPRESSED', rowGroupSize: GROUP_ROWS, pageSize: 4096,
    columnData: columnData.map((c) => ({ ...c, columnIndex: false, offsetIndex: false, bloomFilter: false })) }))
  await writeFile(path.join(dir, 'indexed.parquet'), indexed)
  await writeFile(path.join(dir, 'plain.parquet'), plain)
  written = { indexed, plain }
  server = await startTestServer({ root: dir })
})
after(async () => {
  await server?.close()
})

/** Rows of the formula's data where `match(i)` holds. */
function rowsWhere(match) {
  const out = []
  for (let i = 0; i < ROWS; i++) if (match(i)) out.push(i)
  return out
}

/** Per value: all the rows the probe found, over every row group, and the verdicts it gave. */
function collect(result) {
  const n = result.rowGroups[0]?.results.length ?? 0
  return Array.from({ length: n }, (_, v) => {
    const rows = []
    const verdicts = new Set()
    const reasons = new Set()
    for (const g of result.rowGroups) {
      const r = g.results[v]
      verdicts.add(r.verdict)
      reasons.add(r.reason)
      if (r.rows) rows.push(...r.rows)
    }
    return { rows, verdicts, reasons }
  })
}

async function probeUrl(name, column, values, options = {}) {
  server.resetStats()
  const file = await openParquet(server.url(name), { initialFetchSize: 1024 })
  try {
    const result = await file.probe(column, values, { confirm: true, ...options })
    return { result, stats: file.stats, server: { ...server.stats } }
  } finally {
    await file.close()
  }
}

describe('confirm: hyparquet-writer files with known row formulas', () => {
  const cases = [
    { column: 'id', values: [300n, 301n, idOf(ROWS - 1), 0n], truth: [[100], [], [ROWS - 1], [0]] },
    { column: 'key', values: ['k123', 'k59999', 'nope'], truth: [rowsWhere((i) => keyOf(i) === 'k123'), rowsWhere((i) => keyOf(i) === 'k59999'), []] },
    { column: 'n', values: [7, 0, 1000], truth: [rowsWhere((i) => nOf(i) === 7), rowsWhere((i) => nOf(i) === 0), []] },
    { column: 'd', values: [0, 12.25, 0.1], truth: [rowsWhere((i) => dOf(i) === 0), rowsWhere((i) => dOf(i) === 12.25), []] },
  ]
  for (const name of ['indexed.parquet', 'plain.parquet']) {
    for (const { column, values, truth } of cases) {
      test(`${name} ${column}: rows equal the formula's, absent values exact`, async () => {
        const { result } = await probeUrl(name, column, values)
        collect(result).forEach((got, v) => {
          assert.deepEqual(got.rows, truth[v], `${column} ${values[v]}`)
          if (truth[v].length === 0) assert.deepEqual([...got.verdicts], ['absent'], `${column} ${values[v]}: ${[...got.reasons]}`)
          else assert.ok(got.verdicts.has('present'), `${column} ${values[v]}`)
        })
        for (const g of result.rowGroups) {
          for (const r of g.results) {
            if (r.verdict === 'present') assert.equal(r.source, 'data-pages')
            assert.notEqual(r.reason, 'confirm-failed', r.detail)
          }
        }
      })
    }
  }

  test('with a page index, one value reads at most 2 pages (+ its dictionary) per candidate row group', async () => {
    const truth = hyparquetTruth(written.indexed)
    const idColumn = 0
    const { result, stats } = await probeUrl('indexed.parquet', 'id', [300n])
    const candidates = result.rowGroups.filter((g) => g.results[0].verdict !== 'absent' || g.results[0].source === 'data-pages')
    assert.equal(candidates.length, 1)
    const pages = truth.offsetIndex(0, idColumn).page_locations
    const largest = Math.max(...pages.map((p) => p.compressed_page_size))
    const chunk = truth.chunk(0, idColumn).meta_data
    const dictionary = chunk.dictionary_page_offset !== undefined ? Number(chunk.data_page_offset - chunk.dictionary_page_offset) : 0
    assert.ok(result.confirm.bytesFetched <= 2 * largest + dictionary, `${result.confirm.bytesFetched} bytes > 2 × ${largest} + ${dictionary}`)
    assert.ok(result.confirm.bytesFetched < Number(chunk.total_compressed_size) / 4, 'less than the chunk')
    assert.ok(result.confirm.requests <= 2, `${result.confirm.requests} requests`)
    assert.ok(result.confirm.requests <= stats.requests)
    console.log(`indexed id: confirm read ${result.confirm.bytesFetched} bytes in ${result.confirm.requests} requests (chunk ${chunk.total_compressed_size} bytes; whole probe ${stats.bytesFetched})`)
  })

  test('without a page index, confirmation reads at most the candidate column chunks, in one round', async () => {
    const truth = hyparquetTruth(written.plain)
    const { result } = await probeUrl('plain.parquet', 'id', [300n])
    const chunk = truth.chunk(0, 0).meta_data
    assert.ok(result.confirm.bytesFetched <= Number(chunk.total_compressed_size), `${result.confirm.bytesFetched} > ${chunk.total_compressed_size}`)
    assert.equal(result.confirm.rounds, 1)
    console.log(`plain id: confirm read ${result.confirm.bytesFetched} bytes (chunk ${chunk.total_compressed_size} bytes)`)
  })

  test('maxConfirmBytes: chunks past the budget keep their verdict with reason confirm-budget', async () => {
    const { result } = await probeUrl('plain.parquet', 'n', [7], { maxConfirmBytes: 30000 })
    const reasons = result.rowGroups.map((g) => g.results[0].reason)
    assert.ok(reasons.includes('confirm-budget'), reasons.join())
    for (const g of result.rowGroups) {
      const r = g.results[0]
      if (r.reason === 'confirm-budget') assert.notEqual(r.verdict, 'absent')
    }
    assert.ok(result.confirm.bytesFetched <= 30000)
  })

  test('a chunk larger than openParquet\'s maxBytes is not read: confirm-budget, not an error', async () => {
    const file = await openParquet(server.url('plain.parquet'), { maxBytes: 100000 })
    try {
      const result = await file.probe('id', [300n], { confirm: true, maxConfirmBytes: 1 << 30 })
      assert.equal(result.rowGroups[0].results[0].reason, 'confirm-budget')
      assert.equal(result.rowGroups[0].results[0].verdict, 'maybe')
    } finally {
      await file.close()
    }
  })

  test('maxRows: rows stop at maxRows per value, with rowsTruncated', async () => {
    const { result } = await probeUrl('indexed.parquet', 'n', [7], { maxRows: 5 })
    const got = collect(result)[0]
    assert.deepEqual(got.rows, rowsWhere((i) => nOf(i) === 7).slice(0, 5))
    assert.ok(result.rowGroups.some((g) => g.results[0].rowsTruncated === true))
  })

  test('many values at once answer as each value alone', async () => {
    const values = [7, 0, 1000, 999, 5, 123]
    for (const name of ['indexed.parquet', 'plain.parquet']) {
      const bulk = collect((await probeUrl(name, 'n', values)).result)
      for (let v = 0; v < values.length; v++) {
        const alone = collect((await probeUrl(name, 'n', [values[v]])).result)[0]
        assert.deepEqual(bulk[v].rows, alone.rows, `${name} ${values[v]}`)
        assert.deepEqual([...bulk[v].verdicts].sort(), [...alone.verdicts].sort(), `${name} ${values[v]}`)
      }
    }
  })

  test('columns: the matching rows\' values of other columns, reading only the pages holding those rows', async () => {
    const truth = hyparquetTruth(written.indexed)
    // By id (sorted: the page index finds its one page), returning the shuffled key and n.
    const { result } = await probeUrl('indexed.parquet', 'id', [idOf(100), idOf(45001)], { columns: ['id', 'key', 'n'] })
    const found = result.rowGroups.flatMap((g) => g.results.filter((r) => r.verdict === 'present'))
    assert.deepEqual(found.map((r) => r.rows), [[100], [45001]])
    assert.deepEqual(found.map((r) => r.values), [[{ id: idOf(100), key: keyOf(100), n: nOf(100) }], [{ id: idOf(45001), key: keyOf(45001), n: nOf(45001) }]])
    // Two rows in two row groups: far less than the three columns' chunks of those row groups.
    const chunkBytes = [0, 2].reduce((sum, g) => sum + [0, 1, 2].reduce((s, c) => s + Number(truth.chunk(g, c).meta_data.total_compressed_size), 0), 0)
    assert.ok(result.confirm.bytesFetched < chunkBytes / 5, `${result.confirm.bytesFetched} bytes of ${chunkBytes}`)
    console.log(`point lookup of 2 rows × 3 columns: ${result.confirm.bytesFetched} bytes in ${result.confirm.requests} requests (chunks: ${chunkBytes} bytes)`)
    await assert.rejects(probeUrl('indexed.parquet', 'key', ['k1'], { columns: ['nope'] }), { code: 'COLUMN_NOT_FOUND' })
    await assert.rejects(probeUrl('indexed.parquet', 'key', ['k1'], { confirm: false, columns: ['id'] }), { code: 'INVALID_ARGUMENT' })
    await assert.rejects(probeUrl('indexed.parquet', 'key', ['k1'], { maxRows: -1 }), { code: 'INVALID_ARGUMENT' })
    await assert.rejects(probeUrl('indexed.parquet', 'key', ['k1'], { confirm: 'yes' }), { code: 'INVALID_ARGUMENT' })
  })

  test('without confirm nothing changes and no page is read', async () => {
    const file = await openParquet(written.indexed)
    try {
      const result = await file.probe('id', [300n])
      assert.equal(result.confirm, undefined)
      for (const g of result.rowGroups) assert.notEqual(g.results[0].source, 'data-pages')
    } finally {
      await file.close()
    }
  })
})

// hyparquet's values in the forms probe() takes: days for DATE, stored integers for timestamps, bytes for binary.
const RAW_PARSERS = {
  dateFromDays: (days) => days,
  timestampFromMilliseconds: (v) => v,
  timestampFromMicroseconds: (v) => v,
  timestampFromNanoseconds: (v) => v,
}

function sameValue(a, b) {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0
  if (typeof a === 'number' && typeof b === 'number') return a === b // 0 === -0: a probe of 0 asks for both
  return a === b
}

/** Whether a row's cell holds `value` (any leaf of a list). */
function cellHolds(cell, value) {
  if (Array.isArray(cell)) return cell.some((c) => cellHolds(c, value))
  return cell !== null && cell !== undefined && sameValue(cell, value)
}

/** Rows (file-level) hyparquet's full read finds holding `value` in a top-level column. */
function truthRows(cells, value) {
  const out = []
  cells.forEach((cell, i) => { if (cellHolds(cell, value)) out.push(i) })
  return out
}

/** Some values of the column to look up: first, middle and last present leaves, and their count. */
function sampleValues(cells) {
  const leaves = []
  const walk = (c) => {
    if (Array.isArray(c)) c.forEach(walk)
    else if (c !== null && c !== undefined && !(typeof c === 'number' && Number.isNaN(c))) leaves.push(c)
  }
  cells.forEach(walk)
  if (!leaves.length) return []
  return [...new Set([leaves[0], leaves[leaves.length >> 1], leaves[leaves.length - 1]])]
}

async function hyparquetCells(bytes, column) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const rows = await parquetReadObjects({ file: buffer, columns: [column], compressors, utf8: false, parsers: RAW_PARSERS })
  return rows.map((r) => r[column])
}

/** Checks a file's columns: each sampled value's confirmed rows equal hyparquet's. */
async function checkAgainstHyparquet(bytes, columns, { expectPages = true } = {}) {
  const file = await openParquet(bytes)
  try {
    for (const column of columns) {
      const cells = await hyparquetCells(bytes, column)
      const values = sampleValues(cells)
      // A list's leaf: the one leaf under the top-level column.
      const leaves = file.layout.columns.filter((c) => c.path[0] === column)
      assert.equal(leaves.length, 1, column)
      const result = await file.probe(leaves[0].path, values, { confirm: true, maxConfirmBytes: 64 * 1024 * 1024, maxRows: 1e9 })
      collect(result).forEach((got, v) => {
        const label = `${column} ${String(values[v])}: ${[...got.reasons].join(', ')}`
        if (expectPages) assert.ok(!got.reasons.has('confirm-failed'), label + ' ' + JSON.stringify(result.rowGroups.map((g) => g.results[v].detail)))
        if (got.reasons.has('confirm-failed')) return
        assert.deepEqual(got.rows, truthRows(cells, values[v]), label)
      })
    }
  } finally {
    await file.close()
  }
}

describe('confirm: DuckDB, many row groups, no page index', () => {
  test('sorted and shuffled columns, nulls, several types, a list: rows equal hyparquet\'s full read', async () => {
    const file = path.join(dir, 'duckdb.parquet')
    await withDuckDB(async (conn) => {
      await conn.run(`COPY (SELECT
          i::BIGINT AS sorted,
          (hash(i) % 5000)::BIGINT AS shuffled,
          CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || (i % 301) END AS s,
          CASE WHEN i % 50 = 0 THEN '-0.0'::DOUBLE ELSE (i % 61) / 8 END AS d,
          DATE '2024-01-01' + (i % 41)::INTEGER AS dt,
          TIMESTAMP '2024-01-01' + to_microseconds((i % 43) * 1000003::BIGINT) AS ts,
          (i % 97)::INTEGER AS small,
          CASE WHEN i % 11 = 0 THEN NULL ELSE [i % 13, (i + 1) % 13] END AS list
        FROM range(40000) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`)
    })
    const { readFile } = await import('node:fs/promises')
    const bytes = new Uint8Array(await readFile(file))
    await checkAgainstHyparquet(bytes, ['sorted', 'shuffled', 's', 'd', 'dt', 'ts', 'small', 'list'])
  })
})

describe('confirm: parquet-testing files (every codec and encoding there)', () => {
  const FIXTURES = {
    'alltypes_tiny_pages.parquet': ['id', 'bool_col', 'tinyint_col', 'int_col', 'bigint_col', 'float_col', 'double_col', 'string_col'],
    'alltypes_tiny_pages_plain.parquet': ['id', 'bool_col', 'int_col', 'bigint_col', 'double_col', 'string_col'],
    'int32_with_null_pages.parquet': ['int32_field'],
    'data_index_bloom_encoding_stats.parquet': ['String'],
    'data_index_bloom_encoding_with_length.parquet': ['String'],
    'delta_binary_packed.parquet': ['bitwidth0', 'bitwidth31', 'bitwidth64', 'int_value'],
    'delta_byte_array.parquet': ['c_customer_id', 'c_email_address'],
    'delta_length_byte_array.parquet': ['FRUIT'],
    'delta_encoding_optional_column.parquet': ['c_customer_sk', 'c_email_address'],
    'delta_encoding_required_column.parquet': ['c_customer_sk:', 'c_email_address:'],
    'byte_stream_split.zstd.parquet': ['f32', 'f64'],
    'datapage_v2.snappy.parquet': ['a', 'b', 'c', 'd', 'e'],
    'rle_boolean_encoding.parquet': ['datatype_boolean'],
    'alltypes_dictionary.parquet': ['id', 'int_col', 'string_col'],
    'alltypes_plain.snappy.parquet': ['id', 'int_col', 'string_col'],
    'lz4_raw_compressed.parquet': ['c0', 'c1'],
    'lz4_raw_compressed_larger.parquet': ['a'],
    'concatenated_gzip_members.parquet': ['long_col'],
    'list_columns.parquet': ['int64_list', 'utf8_list'],
    'repeated_primitive_no_list.parquet': ['Int32_list', 'String_list'],
    'datapage_v1-snappy-compressed-checksum.parquet': ['a', 'b'],
    'plain-dict-uncompressed-checksum.parquet': ['long_field', 'binary_field'],
    'rle-dict-snappy-checksum.parquet': ['long_field', 'binary_field'],
    'int32_decimal.parquet': ['value'],
    'int64_decimal.parquet': ['value'],
    'fixed_length_decimal.parquet': ['value'],
    'byte_array_decimal.parquet': ['value'],
    'fixed_length_byte_array.parquet': ['flba_field'],
    'nested_lists.snappy.parquet': ['a'],
    'nonnullable.impala.parquet': ['ID'],
    'nullable.impala.parquet': ['id'],
    'byte_stream_split_extended.gzip.parquet': ['float16_plain', 'float16_byte_stream_split', 'int32_plain', 'int32_byte_stream_split', 'int64_byte_stream_split', 'flba5_byte_stream_split', 'decimal_byte_stream_split'],
    'hadoop_lz4_compressed.parquet': ['c0', 'c1'],
    'non_hadoop_lz4_compressed.parquet': ['c0', 'c1'],
    'dict-page-offset-zero.parquet': ['l_partkey'],
    'float16_nonzeros_and_nans.parquet': ['x'],
    'float16_zeros_and_nans.parquet': ['x'],
    'single_nan.parquet': ['mycol'],
    'overflow_i16_page_cnt.parquet': ['inc'],
    'sort_columns.parquet': ['a', 'b'],
  }
  for (const [name, columns] of Object.entries(FIXTURES)) {
    const relative = `parquet-testing/${name}`
    test(name, { skip: missingFixture(relative) }, async () => {
      await checkAgainstHyparquet(readFixture(relative), columns)
    })
  }
  test('a page with a bad checksum is not used: maybe, never a wrong answer', { skip: missingFixture('parquet-testing/datapage_v1-corrupt-checksum.parquet') }, async () => {
    const file = await openParquet(fixturePath('parquet-testing/datapage_v1-corrupt-checksum.parquet'))
    try {
      const result = await file.probe('a', [1, 2, 3], { confirm: true })
      for (const g of result.rowGroups) for (const r of g.results) assert.ok(r.verdict !== 'present' || r.source !== 'data-pages' || r.reason === 'in-data-pages')
      assert.ok(result.rowGroups.some((g) => g.results.some((r) => r.reason === 'confirm-failed')))
    } finally {
      await file.close()
    }
  })
})

describe('confirm: hostile pages give maybe (confirm-failed) or the right answer, never a wrong one', () => {
  const value = 300n
  const rightRows = [100]

  /** Probes the edited bytes: each row group's answer must be right, or not decided by the pages. */
  async function assertNeverWrong(bytes, label) {
    const file = await openParquet(bytes)
    let failed = 0
    try {
      const result = await file.probe('id', [value, 301n], { confirm: true })
      for (const g of result.rowGroups) {
        const [held, missing] = g.results
        if (held.source === 'data-pages') assert.deepEqual(held.rows, g.index === 0 ? rightRows : [], `${label}: row group ${g.index}`)
        else if (g.index === 0) assert.notEqual(held.verdict, 'absent', label)
        if (missing.source === 'data-pages') assert.equal(missing.verdict, 'absent', label)
        failed += [held, missing].filter((r) => r.reason === 'confirm-failed').length
      }
    } finally {
      await file.close()
    }
    return failed
  }

  function firstPageOf(bytes) {
    const truth = hyparquetTruth(bytes)
    const location = truth.offsetIndex(0, 0)?.page_locations[0]
    const chunk = truth.chunk(0, 0).meta_data
    return { truth, at: location ? Number(location.offset) : Number(chunk.dictionary_page_offset ?? chunk.data_page_offset) }
  }

  for (const [name, delta] of [['a larger compressed_page_size', 2n], ['a smaller compressed_page_size (a truncated page)', -3n]]) {
    for (const which of ['indexed', 'plain']) {
      test(`${which} file, ${name}`, async () => {
        const bytes = written[which].slice()
        const { at } = firstPageOf(bytes)
        const { compressedAt } = pageSizeFields(bytes, at)
        writeZigzag(bytes, compressedAt, readZigzag(bytes, compressedAt).value + delta)
        const failed = await assertNeverWrong(bytes, `${which} ${name}`)
        assert.ok(failed > 0, 'the damaged row group is reported as not confirmed')
      })
    }
  }

  test('a wrong uncompressed_page_size', async () => {
    const bytes = written.indexed.slice()
    const { at } = firstPageOf(bytes)
    const { uncompressedAt } = pageSizeFields(bytes, at)
    writeZigzag(bytes, uncompressedAt, readZigzag(bytes, uncompressedAt).value - 8n)
    assert.ok(await assertNeverWrong(bytes, 'uncompressed') > 0)
  })

  for (const shift of [-4096n, 7n, 1n << 20n]) {
    test(`an OffsetIndex whose first page is moved by ${shift} bytes (outside the chunk or onto no page)`, async () => {
      const bytes = written.indexed.slice()
      const truth = hyparquetTruth(bytes)
      const chunk = truth.chunk(0, 0)
      const at = Number(chunk.offset_index_offset)
      // OffsetIndex: field 1 list<PageLocation> (0x19, then size/type), PageLocation field 1 i64 offset (0x16).
      assert.equal(bytes[at], 0x19)
      const listHeader = bytes[at + 1]
      const offsetAt = at + 2 + ((listHeader >> 4) === 0xf ? readZigzag(bytes, at + 2).end - (at + 2) : 0)
      assert.equal(bytes[offsetAt], 0x16)
      const old = readZigzag(bytes, offsetAt + 1).value
      const moved = old + shift < 4n ? 4n : old + shift
      const padded = bytes.slice()
      try {
        writeZigzag(padded, offsetAt + 1, moved)
      } catch {
        return // does not fit in the varint's bytes: nothing to test at this shift
      }
      await assertNeverWrong(padded, `offset moved by ${shift}`)
    })
  }

  test('a truncated file (the last row group\'s pages cut off) is an error or maybe, never absent', async () => {
    const { truth } = firstPageOf(written.plain)
    const last = truth.metadata.row_groups.length - 1
    const chunk = truth.chunk(last, 0).meta_data
    const bytes = written.plain.slice()
    // Zero the second half of the last row group's id chunk: a page that no longer decodes, or decodes to other values.
    const start = Number(chunk.data_page_offset) + Number(chunk.total_compressed_size) / 2
    bytes.fill(0, start, Number(chunk.data_page_offset) + Number(chunk.total_compressed_size))
    const file = await openParquet(bytes)
    try {
      const result = await file.probe('id', [idOf(ROWS - 1)], { confirm: true })
      const r = result.rowGroups[last].results[0]
      assert.notEqual(r.verdict, 'absent', `${r.reason}: ${r.detail}`)
    } finally {
      await file.close()
    }
  })
})
