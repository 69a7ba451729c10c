// Dictionary pages as an exact index (js/indexes/dictionary.js), against independent truth: files DuckDB writes
// at test time in every codec it has and the parquet-testing conformance files, whose values hyparquet
// reads; every value hyparquet reads from a chunk must be 'present' in the chunk's dictionary, values
// of other row groups that this one lacks 'absent'. Hostile pages must give a reason, never a throw
// other than ParquetBloomError and never a wrong answer.
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

import { crc32 } from '../../js/pages/crc32.js'
import {
  decodeDictionary, dictionaryPageRange, dictionaryReadCost, dictionaryVerdicts, shouldReadDictionary,
} from '../../js/indexes/dictionary.js'
import { chunk } from '../../js/footer/records.js'
import { openParquet, ParquetBloomError } from '../../js/index.js'
import { encodeProbeValues } from '../../js/values/probe-values.js'
import { fixturePath, fixturesDir, missingFixture } from './helpers/fixtures.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const CODECS = ['SNAPPY', 'ZSTD', 'GZIP', 'UNCOMPRESSED', 'LZ4', 'BROTLI']
const ROWS = 6144
const GROUP_ROWS = 2048
// The `big` column has a distinct value per row: over DICTIONARY_SIZE_LIMIT, so DuckDB writes it PLAIN.
const DUCKDB_SELECT = `
SELECT
  CASE WHEN i % 5 = 0 THEN 7 ELSE i % 97 + g * 1000 END::INTEGER AS ii,
  ((i % 89 + g * 1000)::BIGINT * 100000000007 - 4000000000000000000)::BIGINT AS bi,
  CASE i % 50 WHEN 0 THEN '-0.0'::DOUBLE WHEN 1 THEN 0.0 ELSE (i % 61 + g * 100) / 8 END AS d,
  ((i % 53 + g * 100) / 4)::FLOAT AS f,
  CASE WHEN i % 13 = 0 THEN NULL ELSE 'v' || (i % 71 + g * 1000) END AS s,
  CASE WHEN i % 31 = 0 THEN '\\x00\\xFF'::BLOB ELSE ('b' || (i % 31 + g * 1000))::BLOB END AS bl,
  DATE '2024-01-01' + (i % 41 + g * 100)::INTEGER AS dt,
  TIMESTAMP '2024-01-01' + to_microseconds((i % 43 + g * 100) * 1000003::BIGINT) AS ts,
  ((i % 47 + g * 100) * 1.25)::DECIMAL(9, 2) AS d9,
  ((i % 37 + g * 100)::BIGINT * 1234567 * 0.001)::DECIMAL(18, 3) AS d18,
  ((i % 29 + g * 100) * 0.5)::DECIMAL(38, 10) AS d38,
  md5((i % 23 + g * 100)::VARCHAR)::UUID AS u,
  i % 3 = 0 AS b,
  md5(i::VARCHAR) AS big
FROM (SELECT i, i // ${GROUP_ROWS} AS g FROM range(${ROWS}) t(i))`
// Every column but these must be dictionary-encoded throughout by DuckDB (it writes BOOLEAN and
// DECIMAL(38) PLAIN; a dictionary, if a later version writes one, is still checked).
const NOT_DICTIONARY = new Set(['big', 'b', 'd38'])

const dir = await tempDir('dictionary')
async function writeDuckdbFiles() {
  const files = {}
  await withDuckDB(async (conn) => {
    await conn.run('SET threads = 1')
    for (const codec of CODECS) {
      const file = path.join(dir, `duckdb-${codec.toLowerCase()}.parquet`)
      await conn.run(`COPY (${DUCKDB_SELECT}) TO '${file}'
        (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${GROUP_ROWS}, DICTIONARY_SIZE_LIMIT 500)`)
      files[codec] = file
    }
  })
  return files
}

// hyparquet's values in the forms encodeProbeValues takes: days for DATE, the stored integer for
// timestamps, bytes for BLOB (utf8: false), canonical text for UUID.
const RAW_PARSERS = {
  dateFromDays: (days) => days,
  timestampFromMilliseconds: (v) => v,
  timestampFromMicroseconds: (v) => v,
  timestampFromNanoseconds: (v) => v,
}

/** Distinct non-null values hyparquet reads from each row group of a top-level column: Map key → value. */
async function hyparquetValues(bytes, column) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const metadata = parquetMetadata(buffer)
  const groups = []
  let rowStart = 0
  for (const rowGroup of metadata.row_groups) {
    const rowEnd = rowStart + Number(rowGroup.num_rows)
    const rows = await parquetReadObjects({ file: buffer, columns: [column], rowStart, rowEnd, compressors, utf8: false, parsers: RAW_PARSERS })
    const distinct = new Map()
    for (const row of rows) {
      const v = row[column]
      if (v !== null && v !== undefined) distinct.set(valueKey(v), v)
    }
    groups.push(distinct)
    rowStart = rowEnd
  }
  return groups
}

/** ±0 are one value (a probe of 0 asks for both); bytes by their hex. */
function valueKey(v) {
  if (v instanceof Uint8Array) return `x${Buffer.from(v).toString('hex')}`
  if (typeof v === 'number' && v === 0) return 'n0'
  return `${typeof v}:${String(v)}`
}

function chunkCodec(layout, rowGroup, columnIndex) {
  return chunk(layout, rowGroup, columnIndex).codec
}

/** The chunk's dictionary read and decoded the way the planner would: { set } or { reason }. */
async function readDictionary(file, rowGroup, column) {
  const range = dictionaryPageRange(file.layout, rowGroup, column.index, file.metadataOffset)
  if ('reason' in range) return { reason: range.reason, detail: range.detail }
  const bytes = await file.readRange(range.offset, range.maxLength)
  const decoded = await decodeDictionary(bytes, {
    physicalType: column.physicalType, typeLength: column.typeLength, codec: chunkCodec(file.layout, rowGroup, column.index), exact: range.exact,
  })
  return 'error' in decoded ? decoded.error : decoded
}

/** 1/0 per value from the dictionary, skipping values with preset verdicts (NaN). */
function answers(set, column, values) {
  const encoded = encodeProbeValues(column, values)
  const verdicts = dictionaryVerdicts(set, encoded.candidates, encoded.owners, values.length)
  return values.map((value, i) => ({ value, answer: encoded.outcomes[i].verdict === undefined ? verdicts[i] : encoded.outcomes[i].verdict }))
}

/** Asserts every value of the group is present and every value of other groups that it lacks is absent. */
function assertExact(set, column, groups, g, where) {
  const own = [...groups[g].values()]
  for (const { value, answer } of answers(set, column, own)) {
    if (answer === 'unknown') continue // NaN
    assert.equal(answer, 1, `${where}: ${String(value)} is in the chunk but the dictionary says ${answer}`)
  }
  const others = []
  for (const [k, group] of groups.entries()) {
    if (k === g) continue
    for (const [key, value] of group) if (!groups[g].has(key)) others.push(value)
  }
  for (const { value, answer } of answers(set, column, others)) {
    if (answer === 'unknown') continue
    assert.equal(answer, 0, `${where}: ${String(value)} is not in the chunk but the dictionary says ${answer}`)
  }
  return { present: own.length, absent: others.length }
}

describe('DuckDB-written files, every codec', () => {
  let files
  before(async () => {
    files = await writeDuckdbFiles()
  })

  for (const codec of CODECS) {
    test(`${codec}: each chunk's dictionary is exactly its values`, async () => {
      const bytes = new Uint8Array(await readFile(files[codec]))
      const file = await openParquet(files[codec])
      try {
        const groupCount = file.layout.rowGroupRows.length
        assert.equal(groupCount, ROWS / GROUP_ROWS)
        let checked = 0
        for (const column of file.layout.columns) {
          const groups = await hyparquetValues(bytes, column.name)
          for (let g = 0; g < groupCount; g++) {
            const where = `${codec} ${column.name} row group ${g}`
            const result = await readDictionary(file, g, column)
            if (NOT_DICTIONARY.has(column.name)) {
              if (column.name === 'big') assert.equal(result.reason, 'no-dictionary', `${where}: fell back to PLAIN, so no exact dictionary`)
              else if (result.set) assertExact(result.set, column, groups, g, where)
              continue
            }
            assert.ok(result.set, `${where}: expected a usable dictionary, got ${result.reason}: ${result.detail}`)
            assertExact(result.set, column, groups, g, where)
            // The dictionary holds the chunk's distinct values and no more (±0 are two entries).
            if (column.physicalType !== 'DOUBLE' && column.physicalType !== 'FLOAT') assert.equal(result.set.size, groups[g].size, `${where}: dictionary size`)
            checked++
          }
        }
        assert.equal(checked, (file.layout.columns.length - NOT_DICTIONARY.size) * groupCount)
      } finally {
        await file.close()
      }
    })
  }

  test('zero is found whichever sign the chunk stores', async () => {
    const file = await openParquet(files.SNAPPY)
    try {
      const column = file.layout.columns.find((c) => c.name === 'd')
      const { set } = await readDictionary(file, 0, column)
      assert.deepEqual(answers(set, column, [0, -0, 0.125, 1e9 + 0.5]).map((a) => a.answer), [1, 1, 1, 0])
    } finally {
      await file.close()
    }
  })

  test('dictionaryReadCost is the range the page is read from; auto prefers the cheaper read', async () => {
    const file = await openParquet(files.ZSTD)
    try {
      const column = file.layout.columns.find((c) => c.name === 's')
      const range = dictionaryPageRange(file.layout, 0, column.index, file.metadataOffset)
      assert.equal(dictionaryReadCost(file.layout, 0, column.index, file.metadataOffset), range.maxLength)
      assert.equal(dictionaryReadCost(file.layout, 0, file.layout.columns.find((c) => c.name === 'big').index), null)
      assert.equal(shouldReadDictionary('auto', range.maxLength, range.maxLength + 1), true)
      assert.equal(shouldReadDictionary('auto', range.maxLength, range.maxLength), false)
      assert.equal(shouldReadDictionary('auto', 64 * 1024, null), true)
      assert.equal(shouldReadDictionary('auto', 64 * 1024 + 1, null), false)
      assert.equal(shouldReadDictionary(true, 1e9, 10), true)
      assert.equal(shouldReadDictionary(false, 1, 1e9), false)
      assert.equal(shouldReadDictionary(true, null, 10), false)
      assert.throws(() => shouldReadDictionary('yes', 1, 1), ParquetBloomError)
    } finally {
      await file.close()
    }
  })
})

describe('parquet-testing files', () => {
  const DATA = 'parquet-testing'

  /** Every flat (top-level) column of a file whose chunk has a dictionary: checked against hyparquet. */
  async function checkFlatColumns(name, { truth = true } = {}) {
    const bytes = new Uint8Array(await readFile(fixturePath(`${DATA}/${name}`)))
    const file = await openParquet(fixturePath(`${DATA}/${name}`))
    const outcomes = []
    try {
      for (const column of file.layout.columns) {
        const groups = truth && column.path.length === 1 ? await hyparquetValues(bytes, column.name) : null
        for (let g = 0; g < file.layout.rowGroupRows.length; g++) {
          const result = await readDictionary(file, g, column)
          outcomes.push({ column: column.name, rowGroup: g, reason: result.reason, size: result.set?.size })
          if (!result.set || !groups) continue
          const where = `${name} ${column.name} row group ${g}`
          // Spark's INT96 can store a negative nanosecond-of-day: hyparquet reads it as a time whose
          // canonical bytes differ from the stored ones, so only the count of values is compared here
          // (the probe of int96_from_spark below checks that every instant is found).
          if (column.physicalType === 'INT96') assert.equal(result.set.size, groups[g].size, where)
          else assertExact(result.set, column, groups, g, where)
        }
      }
    } finally {
      await file.close()
    }
    return outcomes
  }

  const usable = (outcomes) => outcomes.filter((o) => o.reason === undefined).map((o) => o.column)

  test('int96_from_spark.parquet: every instant it holds is found, those Spark stores out of the common range too', { skip: missingFixture(`${DATA}/int96_from_spark.parquet`) }, async () => {
    // The truth is the fixture's own description (int96_from_spark.md lists the microseconds since the
    // epoch); hyparquet and DuckDB read the last one (year 290000, which Spark's int64 arithmetic
    // wraps when it writes) as another instant.
    const micros = [1704141296123456n, 1704070800000000n, 253402225200000000n, 1735599600000000n, 9089380393200000000n]
    const file = await openParquet(fixturePath(`${DATA}/int96_from_spark.parquet`))
    try {
      const { rowGroups } = await file.probe('a', micros.map((us) => us * 1000n))
      for (const group of rowGroups) {
        for (const r of group.results) assert.equal(r.verdict, 'present', `${r.value}: ${r.reason}`)
      }
    } finally {
      await file.close()
    }
  })

  test('int96_from_spark.parquet: text with digits past microseconds finds DuckDB\'s rows (it reads INT96 and text at microseconds)',
    { skip: missingFixture(`${DATA}/int96_from_spark.parquet`) }, async () => {
      const at = fixturePath(`${DATA}/int96_from_spark.parquet`)
      const values = ['2024-01-01 20:34:56.1234567', '2024-01-01T20:34:56.123456999Z', '2024-01-01 20:34:56.1234561', '2024-12-30 23:00:00.0000009']
      const counts = await withDuckDB(async (connection) => {
        await connection.run("SET TimeZone = 'UTC'")
        return Promise.all(values.map(async (v) => Number((await connection.runAndReadAll(`SELECT count(*) FROM '${at}' WHERE a = '${v}'`))
          .getRows()[0][0])))
      })
      assert.deepEqual(counts, [1, 1, 1, 1])
      const file = await openParquet(at)
      try {
        const { rowGroups } = await file.probe('a', values, { confirm: true })
        assert.deepEqual(rowGroups[0].results.map((r) => r.rows?.length ?? 0), counts, JSON.stringify(rowGroups[0].results))
      } finally {
        await file.close()
      }
    })

  for (const name of ['plain-dict-uncompressed-checksum.parquet', 'rle-dict-snappy-checksum.parquet']) {
    test(`${name}: dictionary pages with checksums`, { skip: missingFixture(`${DATA}/${name}`) }, async () => {
      const outcomes = await checkFlatColumns(name)
      assert.deepEqual(usable(outcomes), ['long_field', 'binary_field'])
    })
  }

  test('rle-dict-uncompressed-corrupt-checksum.parquet: a page that fails its CRC is not used', { skip: missingFixture(`${DATA}/rle-dict-uncompressed-corrupt-checksum.parquet`) }, async () => {
    const outcomes = await checkFlatColumns('rle-dict-uncompressed-corrupt-checksum.parquet')
    assert.deepEqual(outcomes.map((o) => o.reason), ['malformed-dictionary', 'malformed-dictionary'])
  })

  test('alltypes_dictionary.parquet: PLAIN among the encodings and no encoding_stats: not provably dictionary-only', { skip: missingFixture(`${DATA}/alltypes_dictionary.parquet`) }, async () => {
    const outcomes = await checkFlatColumns('alltypes_dictionary.parquet')
    assert.ok(outcomes.length > 0)
    for (const o of outcomes) assert.equal(o.reason, 'not-dictionary-only', o.column)
  })

  test('alltypes_dictionary.parquet: its dictionary pages still decode to the values hyparquet reads', { skip: missingFixture(`${DATA}/alltypes_dictionary.parquet`) }, async () => {
    // Decoding alone (the planner would not use these): the range a dictionary-only chunk would get.
    const name = fixturePath(`${DATA}/alltypes_dictionary.parquet`)
    const bytes = new Uint8Array(await readFile(name))
    const file = await openParquet(name)
    try {
      let decoded = 0
      for (const column of file.layout.columns) {
        const { chunks } = file.layout
        const w = column.index * 9
        const dictionaryOffset = chunks[w + 3]
        const dataOffset = chunks[w + 2]
        if (!(dictionaryOffset >= 4)) continue
        const page = await file.readRange(dictionaryOffset, dataOffset - dictionaryOffset)
        const { set, error } = await decodeDictionary(page, { physicalType: column.physicalType, typeLength: column.typeLength, codec: chunkCodec(file.layout, 0, column.index) })
        assert.ok(set, `${column.name}: ${error?.detail}`)
        const groups = await hyparquetValues(bytes, column.name)
        for (const { value, answer } of answers(set, column, [...groups[0].values()])) assert.equal(answer, 1, `${column.name} ${String(value)}`)
        decoded++
      }
      assert.equal(decoded, 10) // every column but bool_col, which has no dictionary page
    } finally {
      await file.close()
    }
  })

  test('nation.dict-malformed.parquet: never a wrong answer', { skip: missingFixture(`${DATA}/nation.dict-malformed.parquet`) }, async () => {
    const outcomes = await checkFlatColumns('nation.dict-malformed.parquet', { truth: false }) // hyparquet refuses it too
    for (const o of outcomes) assert.ok(['malformed-dictionary', 'not-dictionary-only', 'no-dictionary'].includes(o.reason), `${o.column}: ${o.reason}`)
    // Its chunks start with dictionary pages the footer does not declare; decoded directly, the broken ones say so.
    const file = await openParquet(fixturePath(`${DATA}/nation.dict-malformed.parquet`))
    try {
      const reasons = {}
      for (const column of file.layout.columns) {
        const w = column.index * 9
        const page = await file.readRange(file.layout.chunks[w + 2], file.layout.chunks[w + 6])
        const result = await decodeDictionary(page, { physicalType: column.physicalType, codec: 0, exact: false })
        reasons[column.name] = result.error?.reason ?? `${result.set.size} values`
      }
      // The INT32 chunks start with a data page, not a dictionary page; the text ones hold TPC-H's 25 nations.
      assert.deepEqual(reasons, { nation_key: 'malformed-dictionary', name: '25 values', region_key: 'malformed-dictionary', comment_col: '25 values' })
    } finally {
      await file.close()
    }
  })

  test('dict-page-offset-zero.parquet: dictionary_page_offset 0 is not used', { skip: missingFixture(`${DATA}/dict-page-offset-zero.parquet`) }, async () => {
    const outcomes = await checkFlatColumns('dict-page-offset-zero.parquet')
    assert.deepEqual(outcomes.map((o) => o.reason), ['inconsistent-dictionary'])
  })

  test('column_chunk_key_value_metadata.parquet: data_page_offset 0 disagrees with the dictionary offset', { skip: missingFixture(`${DATA}/column_chunk_key_value_metadata.parquet`) }, async () => {
    const outcomes = await checkFlatColumns('column_chunk_key_value_metadata.parquet')
    for (const o of outcomes) assert.equal(o.reason, 'inconsistent-dictionary')
  })

  // Every dictionary-encoded file of the conformance set, by codec: LZ4 (Hadoop framing and raw
  // block), SNAPPY, BROTLI, UNCOMPRESSED; without dictionary_page_offset the page is found at
  // data_page_offset.
  const EXPECTED_USABLE = {
    'hadoop_lz4_compressed.parquet': ['c0', 'c1', 'v11'],
    'non_hadoop_lz4_compressed.parquet': ['c0', 'c1', 'v11'],
    'large_string_map.brotli.parquet': ['arr.key_value.value'],
    'alltypes_tiny_pages.parquet': ['tinyint_col', 'smallint_col', 'int_col', 'bigint_col', 'float_col', 'double_col', 'date_string_col', 'string_col', 'timestamp_col', 'year', 'month'],
    'int96_from_spark.parquet': ['a'],
    'sort_columns.parquet': ['a', 'a', 'b', 'b'],
    'float16_nonzeros_and_nans.parquet': ['x'],
    'float16_zeros_and_nans.parquet': ['x'],
    'unknown-logical-type.parquet': ['column with known type', 'column with unknown type'],
  }
  for (const [name, expected] of Object.entries(EXPECTED_USABLE)) {
    test(`${name}: dictionary-only chunks are exact`, { skip: missingFixture(`${DATA}/${name}`) }, async () => {
      assert.deepEqual(usable(await checkFlatColumns(name)), expected)
    })
  }

  test('no parquet-testing file makes a dictionary throw or contradict hyparquet', { skip: missingFixture(DATA) }, async () => {
    const names = readdirSync(path.join(fixturesDir, DATA)).filter((n) => n.endsWith('.parquet'))
    let usableChunks = 0
    for (const name of names) {
      let outcomes
      try {
        outcomes = await checkFlatColumns(name)
      } catch (error) {
        // Files the footer decoder or hyparquet refuse are other suites' business; a dictionary must not throw anything else.
        assert.ok(error instanceof ParquetBloomError || !String(error?.stack).includes('dictionary.js'), `${name}: ${error?.stack}`)
        continue
      }
      usableChunks += usable(outcomes).length
    }
    assert.ok(usableChunks >= 40, `${usableChunks} usable dictionary chunks`)
  })
})

describe('hostile dictionary pages', () => {
  // A valid UNCOMPRESSED INT32 dictionary page of [1, 2, 3], built by hand: PageHeader (Thrift compact)
  // { 1: type, 2: uncompressed_page_size, 3: compressed_page_size, [4: crc], 7: { 1: num_values, 2: encoding } }.
  const zigzag = (n) => varint(n >= 0 ? n * 2 : -n * 2 - 1)
  function varint(n) {
    const out = []
    while (n >= 0x80) {
      out.push((n % 0x80) | 0x80)
      n = Math.floor(n / 0x80)
    }
    out.push(n)
    return out
  }
  function page({ type = 2, uncompressed, compressed, numValues, encoding = 0, crc, data }) {
    const header = [0x15, ...zigzag(type), 0x15, ...zigzag(uncompressed), 0x15, ...zigzag(compressed)]
    if (crc !== undefined) header.push(0x15, ...zigzag(crc))
    header.push(crc !== undefined ? 0x3c : 0x4c, 0x15, ...zigzag(numValues), 0x15, ...zigzag(encoding), 0x00, 0x00)
    return new Uint8Array([...header, ...data])
  }
  const int32s = (...values) => new Uint8Array(new Int32Array(values).buffer)
  const good = { uncompressed: 12, compressed: 12, numValues: 3, data: int32s(1, 2, 3) }
  const decode = (bytes, options = {}) => decodeDictionary(bytes, { physicalType: 'INT32', codec: 0, ...options })

  test('the hand-built page decodes, with and without a CRC', async () => {
    for (const bytes of [page(good), page({ ...good, crc: crc32(good.data) })]) {
      const { set } = await decode(bytes)
      assert.deepEqual([...dictionaryVerdicts(set, [1, 3, 4], new Int32Array([0, 1, 2]), 3)], [1, 1, 0])
    }
  })

  const HOSTILE = {
    'truncated header': page(good).subarray(0, 5),
    'truncated page data': page(good).subarray(0, page(good).length - 1),
    'compressed size past the bytes': page({ ...good, compressed: 1 << 30 }),
    'negative sizes': page({ ...good, compressed: -12 }),
    'a data page, not a dictionary page': page({ ...good, type: 0 }),
    'an RLE_DICTIONARY-encoded dictionary': page({ ...good, encoding: 8 }),
    'num_values larger than the page': page({ ...good, numValues: 4 }),
    'num_values smaller than the page': page({ ...good, numValues: 2 }),
    'num_values huge': page({ ...good, numValues: 0x7fffffff }),
    'uncompressed size differs from the stored page': page({ ...good, uncompressed: 16 }),
    'a wrong CRC': page({ ...good, crc: crc32(good.data) ^ 1 }),
    'bytes left after the page (exact range)': new Uint8Array([...page(good), 0]),
    'not Thrift at all': new Uint8Array(64).fill(0xff),
    'deeply nested structs': new Uint8Array([...new Array(5000).fill(0x1c), 0]),
  }
  for (const [what, bytes] of Object.entries(HOSTILE)) {
    test(`${what}: malformed-dictionary`, async () => {
      const result = await decode(bytes)
      assert.equal(result.error?.reason, 'malformed-dictionary', JSON.stringify(result.error ?? result.set?.size))
    })
  }

  test('a BYTE_ARRAY length running past the page', async () => {
    const data = new Uint8Array([3, 0, 0, 0, 97, 98, 99, 200, 0, 0, 0, 1])
    const result = await decode(page({ uncompressed: 12, compressed: 12, numValues: 2, data }), { physicalType: 'BYTE_ARRAY' })
    assert.equal(result.error?.reason, 'malformed-dictionary')
  })

  test('an uncompressed size over the limit is refused before anything is allocated', async () => {
    const result = await decode(page({ ...good, uncompressed: 2 ** 31 - 1, compressed: 12 }), { codec: 'ZSTD' })
    assert.equal(result.error?.reason, 'dictionary-too-large')
  })

  test('LZO and unknown codecs: unsupported-codec', async () => {
    for (const codec of [3, 42]) {
      const result = await decode(page(good), { codec })
      assert.equal(result.error?.reason, 'unsupported-codec', String(codec))
    }
  })

  test('garbage in every codec: malformed-dictionary, never a throw', async () => {
    const junk = new Uint8Array(40).map((_, i) => (i * 37 + 11) & 0xff)
    for (const codec of ['SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW']) {
      const result = await decode(page({ uncompressed: 12, compressed: junk.length, numValues: 3, data: junk }), { codec })
      assert.ok(result.error, `${codec}: garbage decoded to ${result.set?.size} values`)
    }
  })

  // zstd frames built by hand (RFC 8878): raw and RLE blocks, and no Frame_Content_Size unless given,
  // as parquet-mr's zstd-jni streams them (with a 2 MiB window whatever the page's size).
  const blockHeader = (last, type, size) => {
    const h = last | (type << 1) | (size << 3)
    return [h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]
  }
  function zstdFrame(blocks, { window = 0x58, contentSize } = {}) {
    const out = [0x28, 0xb5, 0x2f, 0xfd]
    // Single_Segment with a 4-byte Frame_Content_Size, or a Window_Descriptor (exponent 11: 2 MiB).
    if (contentSize === undefined) out.push(0x00, window)
    else out.push((2 << 6) | (1 << 5), ...new Uint8Array(new Uint32Array([contentSize]).buffer))
    blocks.forEach((b, i) => {
      const last = i === blocks.length - 1 ? 1 : 0
      if (b.rle !== undefined) out.push(...blockHeader(last, 1, b.size), b.rle)
      else out.push(...blockHeader(last, 0, b.length), ...b)
    })
    return out
  }
  const zstdPage = (uncompressed, numValues, ...frames) => {
    const data = new Uint8Array(frames.flat())
    return page({ uncompressed, compressed: data.length, numValues, data })
  }
  const decodeZstd = (bytes) => decode(bytes, { codec: 'ZSTD' })

  test('zstd frames without a declared content size decode when they hold the header\'s size exactly', async () => {
    const cases = {
      'one frame': zstdPage(12, 3, zstdFrame([int32s(1, 2, 3)])),
      'two blocks': zstdPage(12, 3, zstdFrame([int32s(1), int32s(2, 3)])),
      'two frames': zstdPage(12, 3, zstdFrame([int32s(1, 2)]), zstdFrame([int32s(3)])),
      'a frame claiming a 2 GiB window': zstdPage(12, 3, zstdFrame([int32s(1, 2, 3)], { window: 0xa8 })),
      'an RLE block': zstdPage(12, 3, zstdFrame([int32s(1, 2), { rle: 0, size: 4 }])),
    }
    for (const [what, bytes] of Object.entries(cases)) {
      const result = await decodeZstd(bytes)
      assert.ok(result.set, `${what}: ${result.error?.detail}`)
      const stored = what === 'an RLE block' ? [1, 2, 0] : [1, 2, 3]
      assert.deepEqual([...dictionaryVerdicts(result.set, [...stored, 4], new Int32Array([0, 1, 2, 3]), 4)], [1, 1, 1, 0], what)
    }
  })

  test('zstd frames that decode to fewer or more bytes than the page header says are refused', async () => {
    const cases = {
      'fewer, no declared size': [zstdPage(16, 4, zstdFrame([int32s(1, 2, 3)])), /hold 12 bytes, the page header says 16/],
      'more, no declared size': [zstdPage(8, 2, zstdFrame([int32s(1, 2), int32s(3)])), /more than the 8 bytes/],
      'a raw block larger than the page': [zstdPage(8, 2, zstdFrame([int32s(1, 2, 3)])), /larger than the page header's 8/],
      'more in a second frame': [zstdPage(8, 2, zstdFrame([int32s(1, 2)]), zstdFrame([int32s(3)])), /more than the 8 bytes/],
      'fewer than its declared size, which matches the header': [zstdPage(12, 3, zstdFrame([int32s(1, 2)], { contentSize: 12 })), /hold 8 bytes, the page header says 12/],
      'a declared size other than the header\'s': [zstdPage(12, 3, zstdFrame([int32s(1, 2, 3)], { contentSize: 16 })), /hold 16 bytes, the page header says 12/],
      'an RLE block of 2 MiB in a page of 12 bytes': [zstdPage(12, 3, zstdFrame([{ rle: 7, size: (1 << 21) - 1 }])), /larger than the page header's 12/],
      'a frame cut short': [zstdPage(12, 3, zstdFrame([int32s(1, 2, 3)]).slice(0, -2)), /do not parse/],
    }
    for (const [what, [bytes, detail]] of Object.entries(cases)) {
      const result = await decodeZstd(bytes)
      assert.equal(result.error?.reason, 'malformed-dictionary', `${what}: ${result.set ? `decoded ${result.set.size} values` : ''}`)
      assert.match(result.error.detail, detail, what)
    }
  })

  test('caller errors throw ParquetBloomError', async () => {
    await assert.rejects(decodeDictionary([1, 2], { physicalType: 'INT32', codec: 0 }), ParquetBloomError)
    await assert.rejects(decodeDictionary(page(good), { physicalType: 'INT33', codec: 0 }), ParquetBloomError)
    await assert.rejects(decodeDictionary(page(good), { physicalType: 'FIXED_LEN_BYTE_ARRAY', codec: 0 }), ParquetBloomError)
    await assert.rejects(decodeDictionary(page(good), { physicalType: 'INT32', codec: 'LZMA' }), ParquetBloomError)
  })

  test('candidates of a form the set cannot compare are undecided, not absent', async () => {
    const { set } = await decode(page(good))
    assert.deepEqual([...dictionaryVerdicts(set, ['1', 1.5, 2], new Int32Array([0, 1, 2]), 3)], [2, 2, 1])
  })
})
