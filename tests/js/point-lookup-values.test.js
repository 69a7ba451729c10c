// Point lookups' values (probe's `columns`) read through exact lookups' page decoding (js/confirm/row-values.js) are
// what hyparquet's row reader reads of the same rows: every top-level column of the parquet-testing files (flat,
// nested lists, maps and structs, dictionaries, DELTA and BYTE_STREAM_SPLIT pages, v1 and v2 pages, OffsetIndexes or
// none, every codec) at the first, middle and last row of each row group; and files DuckDB, arrow-rs and
// hyparquet-writer write with many pages and row groups, at rows a probe finds; and v1 pages that split rows.
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { writeFile as writeFileAsync } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'

import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

import { init, openParquet } from '../../js/index.js'
import { lookupRowValues } from '../../js/confirm/point-lookups.js'
import { checkPlaces, checkRows, decodeOffsetIndex, pageIndexLocation } from '../../js/indexes/page-index.js'
import { fixturePath, missingFixture, readFixture } from './helpers/fixtures.js'
import { editFooter } from './helpers/footer-edit.js'
import { chunk } from '../../js/footer/records.js'
import { ensureColumnIndexes } from '../../js/footer/chunk-indexes.js'
import { columnDecoder, decodePageAt } from '../../js/pages/page-decode.js'
import { loadHyparquetPages } from '../../js/pages/hyparquet.js'
import { encodeStruct, getField, struct, T } from '../../testkit/thrift-writer.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

await init()

// hyparquet's parsers but for timestamps finer than milliseconds, which point lookups floor (the last test checks them
// against DuckDB's values): these tests compare how pages are read.
const { DEFAULT_PARSERS: parsers } = await loadHyparquetPages()

/** hyparquet's rows of the whole file; BYTE_ARRAY without a string annotation as bytes (its `utf8: false`, DuckDB's BLOB). */
function hyparquetRows(bytes, columns) {
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors, columns,
    utf8: false, parsers })
}

// Files whose pages hyparquet does not read (bad_data), or does not check and exact lookups refuse (corrupt CRCs),
// a malformed dictionary page, and one with a 1 GiB page.
const SKIP = /^bad_data\/|corrupt-checksum|dict-malformed|large_string_map/
// Values hyparquet reads otherwise, by file, column and row: the truth is the file's own description. int96_from_spark.md:
// 290000-12-31T01:00+02:00 (9089380393200000000 µs, bytes Spark's int64 wrapped), past a Date: its nanoseconds (hyparquet
// ORs the negative nanoseconds of the day in signed: -4128-06-12).
const DESCRIBED = /** @type {Record<string, Record<string, Record<number, unknown>>>} */ ({
  'int96_from_spark.parquet': { a: { 5: 9089380393200000000n * 1000n } },
})

test('parquet-testing: every column at the first, middle and last row of each row group, as hyparquet reads them',
  { skip: missingFixture('parquet-testing') }, async () => {
    const names = readdirSync(fixturePath('parquet-testing'), { recursive: true })
      .map(String).filter((name) => name.endsWith('.parquet') && !SKIP.test(name)).sort()
    let compared = 0
    for (const name of names) {
      const bytes = readFixture(path.join('parquet-testing', name))
      const file = await openParquet(bytes)
      try {
        const { layout } = file
        const rows = []
        let first = 0
        for (const n of layout.rowGroupRows) {
          if (n) rows.push(first, first + Math.floor(n / 2), first + n - 1)
          first += n
        }
        const wanted = [...new Set(rows)]
        if (!wanted.length) continue
        for (const column of new Set(layout.columns.map((c) => c.path[0]))) {
          const all = await hyparquetRows(bytes, [column])
          const result = { results: [{ rows: wanted, detail: '' }] }
          await lookupRowValues({ layout, metadataOffset: file.metadataOffset, columns: [column], rowGroups: [result],
            offsetIndexes: { checkPlaces, checkRows, decodeOffsetIndex, pageIndexLocation },
            readRange: (offset, length) => file.readRange(offset, length) })
          const [r] = result.results
          assert.ok(r.values, `${name} ${column}: ${r.detail}`)
          const described = DESCRIBED[name]?.[column] ?? {}
          const expected = wanted.map((row) => ({ [column]: row in described ? described[row] : all[row][column] }))
          assert.deepEqual(r.values, expected, `${name} ${column}`)
          compared++
        }
      } finally {
        await file.close()
      }
    }
    assert.ok(compared > 300, `${compared} columns compared`)
  })

test('DuckDB (v1, v2, dictionary or not), arrow-rs and hyparquet-writer files of many pages: a probe\'s rows\' values', async () => {
  const dir = await tempDir('point-lookup-values')
  const select = `SELECT i AS id,
    CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 END AS n,
    CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || (i % 13) END AS s,
    CASE WHEN i % 11 = 0 THEN NULL WHEN i % 4 = 0 THEN [] ELSE [i, NULL, i + 1][1:(i % 3) + 1] END AS l,
    {'a': i % 9, 'b': CASE WHEN i % 6 = 0 THEN NULL ELSE ['x' || i, 'y'] END} AS st,
    CASE WHEN i % 8 = 0 THEN NULL ELSE MAP {'k' || (i % 3): i} END AS m,
    (DATE '2020-01-01' + i::INTEGER) AS d, (i / 3.0)::DECIMAL(10,2) AS dec
    FROM range(5000) t(i)`
  const files = []
  for (const [name, options] of Object.entries({
    'v1-dictionary': 'ROW_GROUP_SIZE 2048',
    'v1-plain': 'ROW_GROUP_SIZE 3000, DICTIONARY_SIZE_LIMIT 0, COMPRESSION uncompressed',
    'v2-dictionary': 'ROW_GROUP_SIZE 1500, PARQUET_VERSION V2, COMPRESSION zstd',
    'v2-plain': 'PARQUET_VERSION V2, DICTIONARY_SIZE_LIMIT 0, COMPRESSION snappy',
  })) {
    const file = path.join(dir, `${name}.parquet`)
    await withDuckDB((connection) => connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet, ${options})`))
    files.push([name, new Uint8Array(await import('node:fs/promises').then((fs) => fs.readFile(file)))])
  }
  // arrow-rs: 256-byte pages and their OffsetIndex, v1 with dictionaries, v2 without.
  const arrowRs = await import('parquet-wasm')
  for (const v2 of [false, true]) {
    let properties = new arrowRs.WriterPropertiesBuilder().setMaxRowGroupSize(1800).setDataPageSizeLimit(256)
      .setStatisticsEnabled(arrowRs.EnabledStatistics.Page)
    if (v2) properties = properties.setDictionaryEnabled(false).setWriterVersion(arrowRs.WriterVersion.V2)
    files.push([`arrow-rs ${v2 ? 'v2' : 'v1'}`, arrowRs.writeParquet(arrowRs.readParquet(files[0][1]), properties.build())])
  }
  const { parquetWriteBuffer } = await import('hyparquet-writer')
  const source = await hyparquetRows(files[0][1])
  const data = (/** @type {string} */ k) => source.map((row) => row[k])
  for (const encoding of ['PLAIN', undefined]) {
    const as = encoding ? { encoding, columnIndex: true } : { columnIndex: true }
    files.push([`hyparquet-writer ${encoding ?? 'dictionary'}`, new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'id', data: data('id'), type: 'INT64' }, { name: 'n', data: data('n'), type: 'INT64', ...as },
        { name: 's', data: data('s'), type: 'STRING', ...as }],
      rowGroupSize: 2000, pageSize: 256,
    }))])
  }
  const wanted = [0, 1, 2, 3, 4, 7, 8, 11, 12, 99, 1499, 1500, 1799, 1800, 2047, 2048, 2999, 3000, 4095, 4096, 4999]
  for (const [name, bytes] of files) {
    const all = await hyparquetRows(bytes)
    const file = await openParquet(bytes)
    try {
      const columns = [...new Set(file.layout.columns.map((c) => c.path[0]))]
      const result = await file.probe('id', wanted, { confirm: true, columns })
      const found = result.rowGroups.flatMap((g) => g.results.filter((r) => r.verdict === 'present'))
      assert.deepEqual(found.map((r) => r.rows), wanted.map((row) => [row]), name)
      for (const r of found) assert.deepEqual(r.values, [all[r.rows[0]]], `${name} row ${r.rows[0]}`)
    } finally {
      await file.close()
    }
  }
})

/** A level section of a v1 page: its u32 length, then one RLE run per stretch of equal levels (each level one byte). */
function levelSection(levels) {
  const runs = []
  for (let i = 0; i < levels.length;) {
    let j = i
    while (j < levels.length && levels[j] === levels[i]) j++
    for (let n = (j - i) << 1; ; n >>>= 7) {
      if (n < 0x80) { runs.push(n); break }
      runs.push((n & 0x7f) | 0x80)
    }
    runs.push(levels[i])
    i = j
  }
  return [...new Uint8Array(new Uint32Array([runs.length]).buffer), ...runs]
}

test('a list column whose v1 pages split rows (as older parquet-mr wrote them, no OffsetIndex): each row whole', async () => {
  const dir = await tempDir('point-lookup-split-rows')
  const file = path.join(dir, 'lists.parquet')
  await withDuckDB((connection) => connection.run(`COPY (SELECT i::INTEGER AS id, CASE WHEN i % 9 = 0 THEN NULL WHEN i % 4 = 0 THEN []
    ELSE [i * 10, NULL, i * 10 + 1, i * 10 + 2][1:(i % 4) + 1] END AS l FROM range(40) t(i))
    TO '${file}' (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 0)`))
  const bytes = new Uint8Array(await import('node:fs/promises').then((fs) => fs.readFile(file)))
  // l's one page (the file's last chunk), rewritten as three v1 pages cut inside rows: levels as RLE runs, values PLAIN.
  const original = await openParquet(bytes)
  const column = original.layout.columns[1]
  ensureColumnIndexes(original.layout, column.index)
  const record = chunk(original.layout, 0, column.index)
  const { chunkStart, chunkEnd } = record.pageRange()
  const decoding = await columnDecoder(original.layout, column, record.codec)
  const { page } = await decodePageAt(bytes, chunkStart, chunkEnd, decoding)
  await original.close()
  const reps = [...page.repetitionLevels]
  const defs = page.definitionLevels.length ? [...page.definitionLevels] : reps.map(() => decoding.maxDefinitionLevel)
  const inside = reps.flatMap((r, k) => (r ? [k] : []))
  const cuts = [0, inside[Math.floor(inside.length / 3)], inside[Math.floor((2 * inside.length) / 3)], reps.length]
  const pages = []
  let v = 0
  for (let p = 0; p < 3; p++) {
    const d = defs.slice(cuts[p], cuts[p + 1])
    const values = new BigInt64Array(d.filter((x) => x === decoding.maxDefinitionLevel).length).map(() => page.values[v++])
    const body = new Uint8Array([...levelSection(reps.slice(cuts[p], cuts[p + 1])), ...levelSection(d), ...new Uint8Array(values.buffer)])
    pages.push(encodeStruct(struct([1, T.I32, 0], [2, T.I32, body.length], [3, T.I32, body.length],
      [5, T.STRUCT, struct([1, T.I32, d.length], [2, T.I32, 0], [3, T.I32, 3], [4, T.I32, 3])])), body)
  }
  const chunkBytes = Buffer.concat(pages)
  const footerStart = bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true)
  const delta = BigInt(chunkBytes.length - (chunkEnd - chunkStart))
  const rebuilt = new Uint8Array(Buffer.concat([bytes.subarray(0, chunkStart), chunkBytes, bytes.subarray(footerStart)]))
  const split = editFooter(rebuilt, (meta) => {
    const group = getField(meta, 4).value.items[0]
    const columnMetaData = getField(getField(group, 1).value.items[1], 3).value
    for (const field of [getField(columnMetaData, 6), getField(columnMetaData, 7), getField(group, 2), getField(group, 6)]) {
      if (field) field.value = BigInt(field.value) + delta
    }
  })
  const splitFile = path.join(dir, 'lists-split.parquet')
  await writeFileAsync(splitFile, split)
  const duckdb = await withDuckDB(async (connection) => Promise.all([file, splitFile].map(async (f) =>
    (await connection.runAndReadAll(`SELECT l::VARCHAR FROM '${f}'`)).getRows().map((row) => row[0]))))
  assert.deepEqual(duckdb[1], duckdb[0], 'DuckDB reads the split pages as the pages DuckDB wrote')
  const all = await hyparquetRows(split)
  const opened = await openParquet(split)
  try {
    const ids = Array.from({ length: 40 }, (_, i) => i)
    const result = await opened.probe('id', ids, { confirm: true, columns: ['l'] })
    for (const r of result.rowGroups[0].results) {
      assert.deepEqual([r.rows, r.values], [[r.value], [{ l: all[r.value].l }]], `row ${r.value}: ${r.detail}`)
    }
  } finally {
    await opened.close()
  }
})

test('byte columns\' values as DuckDB reads them: ConvertedType ENUM as text (VARCHAR), unannotated and logical-only as bytes',
  async () => {
    const dir = await tempDir('point-lookup-enum')
    const file = path.join(dir, 'enum.parquet')
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const utf8 = new TextEncoder()
    const bytesOf = (/** @type {string[]} */ texts) => texts.map((t) => utf8.encode(t))
    // parquet-avro writes an Avro enum as BYTE_ARRAY with ConvertedType ENUM.
    await writeFileAsync(file, new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'id', data: Int32Array.from([1, 2, 3]) }, { name: 'mood', data: bytesOf(['sad', 'happy', 'sad']) },
        { name: 'le', data: bytesOf(['sad', 'happy', 'sad']) }, { name: 'raw', data: bytesOf(['a', 'b', 'c']) }],
      schema: [{ name: 'root', num_children: 4 }, { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
        { name: 'mood', type: 'BYTE_ARRAY', converted_type: 'ENUM', repetition_type: 'OPTIONAL' },
        { name: 'le', type: 'BYTE_ARRAY', logical_type: { type: 'ENUM' }, repetition_type: 'OPTIONAL' },
        { name: 'raw', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }],
    })))
    const truth = await withDuckDB(async (connection) => (await connection.runAndReadAll(
      `SELECT typeof(mood), mood::VARCHAR, typeof(le), lower(hex(le)), typeof(raw), lower(hex(raw)) FROM '${file}' ORDER BY id`))
      .getRows())
    assert.deepEqual(truth.map((r) => [r[0], r[2], r[4]]), Array(3).fill(['VARCHAR', 'BLOB', 'BLOB']))
    const opened = await openParquet(file)
    try {
      const result = await opened.probe('id', [1, 2, 3], { confirm: true, columns: ['mood', 'le', 'raw'] })
      const hex = (/** @type {unknown} */ v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)
      const rows = result.rowGroups[0].results.map((r) => r.values?.map((row) => ({ mood: row.mood, le: hex(row.le), raw: hex(row.raw) })))
      assert.deepEqual(rows, truth.map((r) => [{ mood: r[1], le: r[3], raw: r[5] }]))
    } finally {
      await opened.close()
    }
  })

test('timestamps finer than milliseconds before 1970: the Date of the millisecond holding DuckDB\'s value, not the next one', async () => {
  const dir = await tempDir('point-lookup-timestamps')
  const file = path.join(dir, 'before-1970.parquet')
  const stored = ['1969-12-31 23:59:59.999999999', '1969-12-31 23:59:59.9995', '1900-02-28 12:34:56.789012345', '1677-09-22 00:00:00.000000001',
    '2024-02-29 00:00:00.000999999']
  const types = ['TIMESTAMP', 'TIMESTAMP_NS', 'TIMESTAMPTZ']
  const select = stored.map((s, id) => `SELECT ${id} AS id, ${types.map((t) => `'${s}'::${t} AS "${t}"`).join(', ')}, ` +
    `{'t': '${s}'::TIMESTAMP} AS st`).join(' UNION ALL ')
  const truth = await withDuckDB(async (connection) => {
    await connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`)
    return (await connection.runAndReadAll(`SELECT ${types.map((t) => `epoch_ns("${t}")::VARCHAR`).join(', ')}, epoch_ns(st.t)::VARCHAR
      FROM '${file}' ORDER BY id`)).getRows()
  })
  // The millisecond holding each instant: floor division of its nanoseconds.
  const floorMs = (/** @type {unknown} */ ns) => {
    const n = BigInt(String(ns))
    return Number(n / 1000000n - (n % 1000000n < 0n ? 1n : 0n))
  }
  const opened = await openParquet(file)
  try {
    const result = await opened.probe('id', stored.map((_, id) => id), { confirm: true, columns: [...types, 'st'] })
    const got = result.rowGroups[0].results.map((r) => {
      const row = /** @type {Record<string, any>} */ (r.values?.[0])
      return [...types.map((t) => row[t].toISOString()), row.st.t.toISOString()]
    })
    assert.deepEqual(got, truth.map((row) => row.map((ns) => new Date(floorMs(ns)).toISOString())))
  } finally {
    await opened.close()
  }
})

test('timestamps and dates no Date holds (after 275760, before -271821): DuckDB\'s stored count as a bigint, not an Invalid Date',
  async () => {
    const dir = await tempDir('point-lookup-far-dates')
    const file = path.join(dir, 'far.parquet')
    // Each row: a TIMESTAMP (µs), a TIMESTAMPTZ (µs), a TIMESTAMP_MS, a DATE, and a struct's TIMESTAMP; the last
    // millisecond and day a Date holds, one past them, years DuckDB's types reach beyond (294247, 5881580) and before.
    const rows = [
      ['280000-01-01 00:00:00.123456', '280000-01-01 00:00:00.123', '300000-03-01'],
      ['-280000-01-01 00:00:00', '-271821-04-19 23:59:59.999', '-271821-04-19'],
      ['275760-09-13 00:00:00', '275760-09-13 00:00:00', '275760-09-13'],
      ['275760-09-13 00:00:00.001', '275760-09-13 00:00:00.001', '275760-09-14'],
      ['294247-01-10 04:00:54.775806', '-271821-04-20 00:00:00', '5881580-07-10'],
      ['2024-02-29 12:00:00', '2024-02-29 12:00:00.5', '2024-02-29'],
    ]
    const select = rows.map(([ts, ms, day], id) => `SELECT ${id} AS id, TIMESTAMP '${ts}' AS ts, TIMESTAMPTZ '${ts}+00' AS tz, ` +
      `TIMESTAMP_MS '${ms}' AS tms, DATE '${day}' AS d, {'t': TIMESTAMP '${ts}'} AS st`).join(' UNION ALL ')
    // DuckDB's counts: µs, µs, ms since the epoch, days since it.
    const truth = await withDuckDB(async (connection) => {
      await connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`)
      return (await connection.runAndReadAll(`SELECT epoch_us(ts), epoch_us(tz), epoch_ms(tms), (d - DATE '1970-01-01')::BIGINT,
        epoch_us(st.t) FROM '${file}' ORDER BY id`)).getRows().map((row) => row.map((n) => BigInt(String(n))))
    })
    const MAX_MS = 8640000000000000n // a Date's range: ±8.64e15 ms
    const floorDiv = (/** @type {bigint} */ n, /** @type {bigint} */ d) => n / d - (n % d < 0n ? 1n : 0n)
    // A Date of the millisecond holding the count where one holds it, else the count itself.
    const expected = (/** @type {bigint} */ count, /** @type {bigint} */ msPer, /** @type {bigint} */ perMs) => {
      const ms = floorDiv(count * msPer, perMs)
      return ms >= -MAX_MS && ms <= MAX_MS ? `Date ${new Date(Number(ms)).toISOString()}` : `bigint ${count}`
    }
    const shown = (/** @type {unknown} */ v) => (v instanceof Date ? `Date ${v.toISOString()}` : `${typeof v} ${String(v)}`)
    const opened = await openParquet(file)
    try {
      const result = await opened.probe('id', rows.map((_, id) => id), { confirm: true, columns: ['ts', 'tz', 'tms', 'd', 'st'] })
      const got = result.rowGroups[0].results.map((r) => {
        const row = /** @type {Record<string, any>} */ (r.values?.[0])
        return [row.ts, row.tz, row.tms, row.d, row.st.t].map(shown)
      })
      assert.deepEqual(got, truth.map(([ts, tz, tms, d, st]) => [expected(ts, 1n, 1000n), expected(tz, 1n, 1000n),
        expected(tms, 1n, 1n), expected(d, 86400000n, 1n), expected(st, 1n, 1000n)]))
      // Both sides of the range are in the file: some values are counts, the others Dates.
      assert.ok(got.flat().some((v) => v.startsWith('bigint')) && got.flat().some((v) => v.startsWith('Date')))
    } finally {
      await opened.close()
    }
  })
