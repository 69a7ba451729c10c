// js/indexes/writer-rules.js, a test per row: each known writer bug is recognised from created_by (as
// parquet-java's VersionParser reads it) for the versions and columns it affects and no others, and a
// real file whose footer names that writer has that index ignored by probe() and named by inspect.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { readBloomFilter, sbbfContains } from 'hyparquet/src/bloom.js'
import { xxhash64 } from 'hyparquet/src/xxhash.js'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openParquet, WRITER_RULES, writerRulesFor } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { NO_FILTER_OFFSET_RULE, parseCreatedBy } from '../../js/indexes/writer-rules.js'
import { pageIndexOrder } from '../../js/indexes/page-index.js'
import { editFooter } from './helpers/footer-edit.js'
import { decodeStruct, encodeStruct, getField, setField, T } from '../../testkit/thrift-writer.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { writeDuckdbSample } from '../../testkit/sample-files.js'
import { tempDir } from '../../testkit/temp-dir.js'

const INT64 = { physicalType: 'INT64', logicalType: null }
const UINT64 = { physicalType: 'INT64', logicalType: { type: 'INTEGER', bitWidth: 64, isSigned: false } }
const STRING = { physicalType: 'BYTE_ARRAY', logicalType: { type: 'STRING' } }
const DECIMAL_BYTE_ARRAY = { physicalType: 'BYTE_ARRAY', logicalType: { type: 'DECIMAL', precision: 20, scale: 2 } }
const DECIMAL_FLBA = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'DECIMAL', precision: 38, scale: 2 } }
const UUID = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'UUID' } }
const FLOAT16 = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 2, logicalType: { type: 'FLOAT16' } }
const DICTIONARY = { encodings: (1 << 8) | (1 << 3) }
const ids = (createdBy, index, column, chunk) => writerRulesFor(createdBy, index, column, chunk).map((r) => r.id)

const dir = await tempDir('rules')
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url))
let sample
before(async () => {
  sample = await writeDuckdbSample(dir, { rows: 4096, rowGroupSize: 2048 })
})

/** The sample file with its footer's created_by replaced (the data and every offset stay as they are). */
async function withCreatedBy(createdBy) {
  const bytes = new Uint8Array(await readFile(sample.path))
  return editFooter(bytes, (struct) => setField(struct, 6, T.BINARY, new TextEncoder().encode(createdBy)))
}

describe('created_by parsing (parquet-java VersionParser)', () => {
  test('application, version, prerelease', () => {
    assert.deepEqual(parseCreatedBy('parquet-mr version 1.8.0 (build 0fda28af84b9746396014ad6a415b90592a98b3b)'), { application: 'parquet-mr', version: [1, 8, 0], prerelease: '' })
    assert.deepEqual(parseCreatedBy('parquet-mr version 1.8.0-SNAPSHOT (build abc)'), { application: 'parquet-mr', version: [1, 8, 0], prerelease: 'SNAPSHOT' })
    assert.deepEqual(parseCreatedBy('parquet-go version 18.4.1'), { application: 'parquet-go', version: [18, 4, 1], prerelease: '' })
    assert.equal(parseCreatedBy('DuckDB'), null, 'no "version": not parsed')
    assert.deepEqual(parseCreatedBy('DuckDB version v1.5.6 (build abc)'), { application: 'DuckDB', version: null, prerelease: '' })
    assert.equal(parseCreatedBy(undefined), null)
  })
})

describe('every row of the table', () => {
  test('the table has the rows the issues ask for, each with a link', () => {
    const rows = new Set(WRITER_RULES.map((r) => r.id))
    for (const id of ['parquetjs-hashes-text', 'arrow-go-adaptive-bloom', 'parquet-251']) assert.ok(rows.has(id), id)
    for (const rule of WRITER_RULES) {
      assert.match(rule.link, /^https:\/\//, rule.id)
      assert.match(rule.code, /^[a-z0-9]+(-[a-z0-9.]+)*$/, rule.id)
      assert.ok(rule.message.length > 20, rule.id)
    }
  })

  test('parquetjs-hashes-text: numbers and binary from parquetjs, not its text columns', () => {
    assert.deepEqual(ids('parquet.js v1.8.8', 'bloom-filter', INT64), ['parquetjs-hashes-text'])
    assert.deepEqual(ids('@dsnp/parquetjs', 'bloom-filter', STRING), [])
    assert.deepEqual(ids('parquet-mr version 1.13.1', 'bloom-filter', INT64), [])
  })

  test('arrow-go-adaptive-bloom: parquet-go 18.3.0 up to 18.5.0, every column', () => {
    for (const v of ['18.3.0', '18.4.0', '18.4.1']) assert.deepEqual(ids(`parquet-go version ${v}`, 'bloom-filter', STRING), ['arrow-go-adaptive-bloom'], v)
    for (const v of ['18.2.0', '18.5.0', '18.5.1', '17.0.0']) assert.deepEqual(ids(`parquet-go version ${v}`, 'bloom-filter', STRING), [], v)
  })

  test('arrow-go-dictionary-bloom: dictionary-encoded chunks of parquet-go 18.3.0 on, not its plain ones', () => {
    for (const v of ['18.5.0', '18.7.0', '19.0.0']) assert.deepEqual(ids(`parquet-go version ${v}`, 'bloom-filter', INT64, DICTIONARY), ['arrow-go-dictionary-bloom'], v)
    assert.deepEqual(ids('parquet-go version 18.4.0', 'bloom-filter', STRING, DICTIONARY), ['arrow-go-adaptive-bloom', 'arrow-go-dictionary-bloom'])
    assert.deepEqual(ids('parquet-go version 18.7.0', 'bloom-filter', STRING, { encodings: 1 }), [], 'PLAIN only: filled value by value')
    assert.deepEqual(ids('parquet-go version 18.2.0', 'bloom-filter', STRING, DICTIONARY), [], 'no filters before 18.3.0')
    assert.deepEqual(ids('parquet-go version 18.7.0', 'statistics', STRING, DICTIONARY), [])
  })

  test('parquet-251: binary statistics before parquet-mr 1.8.0, or from an unknown writer', () => {
    assert.deepEqual(ids('parquet-mr version 1.7.0 (build x)', 'statistics', STRING), ['parquet-251'])
    assert.deepEqual(ids('parquet-mr version 1.8.0-SNAPSHOT (build x)', 'statistics', STRING), ['parquet-251'])
    assert.deepEqual(ids(undefined, 'statistics', STRING), ['parquet-251'])
    assert.deepEqual(ids('parquet-mr version 1.8.0 (build x)', 'statistics', STRING), [])
    assert.deepEqual(ids('parquet-mr version 1.7.0 (build x)', 'statistics', INT64), [], 'numbers were right')
    assert.deepEqual(ids('impala version 1.3.0', 'statistics', STRING), [])
  })

  test('parquet-1655: binary decimal statistics from parquet-cpp and Arrow before 4.0', () => {
    assert.deepEqual(ids('parquet-cpp-arrow version 3.0.0', 'statistics', DECIMAL_FLBA), ['parquet-1655'])
    assert.deepEqual(ids('parquet-cpp version 1.5.1-SNAPSHOT', 'statistics', DECIMAL_FLBA), ['parquet-1655'])
    assert.deepEqual(ids('parquet-cpp-arrow version 4.0.0', 'statistics', DECIMAL_FLBA), [])
  })

  test('arrow-15042: dictionary-encoded chunks from Arrow before 12.0', () => {
    assert.deepEqual(ids('parquet-cpp-arrow version 11.0.0', 'statistics', INT64, DICTIONARY), ['arrow-15042'])
    assert.deepEqual(ids('parquet-cpp-arrow version 11.0.0', 'statistics', INT64, { encodings: 1 }), [])
    assert.deepEqual(ids('parquet-cpp-arrow version 12.0.0', 'statistics', INT64, DICTIONARY), [])
  })

  test('polars-uint64: UInt64 statistics from polars', () => {
    assert.deepEqual(ids('Polars', 'statistics', UINT64), ['polars-uint64'])
    assert.deepEqual(ids('Polars', 'statistics', INT64), [])
  })

  test('polars-int128: the Int128 (FIXED_LEN_BYTE_ARRAY(16), no logical type) page index of polars', () => {
    const INT128 = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: null }
    assert.deepEqual(ids('Polars', 'statistics', INT128), ['parquet-251', 'polars-int128'], 'chunk statistics: parquet-251 already')
    assert.deepEqual(ids('Polars', 'statistics', UUID), ['parquet-251'])
    assert.deepEqual(ids('Polars', 'statistics', { ...INT128, typeLength: 8 }), ['parquet-251'])
    assert.deepEqual(ids('parquet-cpp-arrow version 15.0.0', 'statistics', INT128), [])
    const order = pageIndexOrder({ createdBy: 'Polars', columnOrders: null }, { ...INT128, index: 0 })
    assert.deepEqual([order.usable, order.reason], [false, 'untrusted-writer'])
    assert.equal(pageIndexOrder({ createdBy: 'Polars', columnOrders: null }, { ...UUID, index: 0 }).usable, true)
  })

  test('polars-null-count: the all-null count of polars\' dictionary-encoded or nested chunks, not its bounds', () => {
    assert.deepEqual(ids('Polars', 'null-count', STRING, DICTIONARY), ['polars-null-count'])
    assert.deepEqual(ids('Polars', 'null-count', { ...INT64, repeated: true }, { encodings: 1 }), ['polars-null-count'])
    assert.deepEqual(ids('Polars', 'null-count', INT64, { encodings: 1 }), [], 'a flat PLAIN chunk: counted per page, right')
    assert.deepEqual(ids('Polars', 'statistics', INT64, DICTIONARY), [], 'min/max still used')
    assert.deepEqual(ids('parquet-cpp-arrow version 15.0.0', 'null-count', STRING, DICTIONARY), [])
  })

  test('arrow-rs-641: binary statistics from arrow-rs before 5.2.0', () => {
    assert.deepEqual(ids('parquet-rs version 5.1.0', 'statistics', STRING), ['arrow-rs-641'])
    assert.deepEqual(ids('parquet-rs version 4.0.0', 'statistics', DECIMAL_FLBA), ['arrow-rs-641', 'arrow-rs-1532'])
    assert.deepEqual(ids('parquet-rs version 5.2.0', 'statistics', STRING), [])
    assert.deepEqual(ids('parquet-rs version 5.1.0', 'statistics', INT64), [], 'numbers were right')
  })

  test('arrow-rs-1532: FIXED_LEN_BYTE_ARRAY decimals and unsigned integers from arrow-rs before 13.0.0', () => {
    assert.deepEqual(ids('parquet-rs version 12.0.0', 'statistics', DECIMAL_FLBA), ['arrow-rs-1532'])
    assert.deepEqual(ids('parquet-rs version 12.0.0', 'statistics', UINT64), ['arrow-rs-1532'])
    assert.deepEqual(ids('parquet-rs version 13.0.0', 'statistics', DECIMAL_FLBA), [])
    assert.deepEqual(ids('parquet-rs version 13.0.0', 'statistics', UINT64), [])
    assert.deepEqual(ids('parquet-rs version 12.0.0', 'statistics', INT64), [])
  })

  test('arrow-rs-11073: BYTE_ARRAY decimals from every arrow-rs', () => {
    for (const v of ['12.0.0', '49.0.0', '57.1.0']) assert.deepEqual(ids(`parquet-rs version ${v}`, 'statistics', DECIMAL_BYTE_ARRAY), ['arrow-rs-11073'], v)
    assert.deepEqual(ids('parquet-rs version 57.1.0', 'statistics', DECIMAL_FLBA), [])
    assert.deepEqual(ids('parquet-cpp-arrow version 15.0.0', 'statistics', DECIMAL_BYTE_ARRAY), [])
  })

  test('hyparquet-bounds: binary and INT32 DECIMAL bounds from hyparquet-writer (no version in created_by), not its other numbers', () => {
    const DECIMAL_INT32 = { physicalType: 'INT32', logicalType: { type: 'DECIMAL', precision: 6, scale: 2 } }
    for (const column of [STRING, UUID, FLOAT16, DECIMAL_FLBA, DECIMAL_BYTE_ARRAY, { physicalType: 'BYTE_ARRAY', logicalType: null }]) {
      assert.deepEqual(ids('hyparquet', 'statistics', column), ['parquet-251', 'hyparquet-bounds'])
    }
    assert.deepEqual(ids('hyparquet', 'statistics', DECIMAL_INT32), ['hyparquet-bounds'])
    assert.deepEqual(ids('hyparquet', 'statistics', INT64), [])
    assert.deepEqual(ids('hyparquet', 'statistics', { physicalType: 'INT64', logicalType: { type: 'DECIMAL', precision: 12, scale: 2 } }), [])
    assert.deepEqual(ids('DuckDB version v1.5.6 (build x)', 'statistics', DECIMAL_INT32), [])
  })

  test('parquetjs-binary-bounds: binary page bounds from parquetjs, not its numeric ones', () => {
    for (const createdBy of ['@dsnp/parquetjs', 'parquet.js']) {
      assert.deepEqual(ids(createdBy, 'statistics', STRING), ['parquet-251', 'parquetjs-binary-bounds'], createdBy)
    }
    assert.deepEqual(ids('@dsnp/parquetjs', 'statistics', DECIMAL_FLBA), ['parquet-251'])
    assert.deepEqual(ids('@dsnp/parquetjs', 'statistics', UUID), ['parquet-251', 'parquetjs-binary-bounds'])
    assert.deepEqual(ids('@dsnp/parquetjs', 'statistics', INT64), [])
  })

  test('segmentio-page-max: binary page indexes of segmentio/parquet-go (any build), not parquet-go/parquet-go\'s', () => {
    const segmentio = 'github.com/segmentio/parquet-go version 0.0.0(build 39e02a5af5a5)'
    for (const column of [STRING, UUID, DECIMAL_FLBA]) assert.deepEqual(ids(segmentio, 'statistics', column), ['segmentio-page-max'])
    assert.deepEqual(ids('github.com/segmentio/parquet-go', 'statistics', STRING), ['parquet-251', 'segmentio-page-max'])
    assert.deepEqual(ids(segmentio, 'statistics', INT64), [])
    assert.deepEqual(ids('github.com/parquet-go/parquet-go version 0.25.0(build abc)', 'statistics', STRING), [])
  })

  test('questdb-binary-max: Binary (BYTE_ARRAY, no logical type) bounds of QuestDB, not its text or numbers', () => {
    const BINARY = { physicalType: 'BYTE_ARRAY', logicalType: null }
    for (const createdBy of ['QuestDB version 9.0', 'QuestDB version 8.0']) {
      assert.deepEqual(ids(createdBy, 'statistics', BINARY), ['questdb-binary-max'], createdBy)
      assert.deepEqual(ids(createdBy, 'statistics', STRING), [], createdBy)
      assert.deepEqual(ids(createdBy, 'statistics', INT64), [], createdBy)
    }
    assert.deepEqual(ids('DuckDB version v1.5.6 (build 069cc9f9b5)', 'statistics', BINARY), [])
    const order = pageIndexOrder({ createdBy: 'QuestDB version 9.0', columnOrders: null }, { ...BINARY, index: 0 })
    assert.deepEqual([order.usable, order.reason], [false, 'untrusted-writer'])
  })

  test('go-parquet-nan-min: FLOAT/DOUBLE bounds of xitongsys/parquet-go and hangxie/parquet-go, not of arrow-go', () => {
    const DOUBLE = { physicalType: 'DOUBLE', logicalType: null }
    const FLOAT = { physicalType: 'FLOAT', logicalType: null }
    const writers = ['parquet-go version latest', 'parquet-go', 'github.com/hangxie/parquet-go v2 latest',
      'github.com/hangxie/parquet-go/v3']
    for (const createdBy of writers) {
      for (const column of [DOUBLE, FLOAT]) assert.ok(ids(createdBy, 'statistics', column).includes('go-parquet-nan-min'), createdBy)
      assert.deepEqual(ids(createdBy, 'statistics', INT64), [], createdBy)
    }
    assert.deepEqual(ids('parquet-go version 18.4.1', 'statistics', DOUBLE), [])
    const order = pageIndexOrder({ createdBy: 'parquet-go version latest', columnOrders: null }, { ...DOUBLE, index: 0 })
    assert.deepEqual([order.usable, order.reason], [false, 'untrusted-writer'])
  })

  test('rules marked pageIndex make the ColumnIndex unusable too; the others leave it', () => {
    const layout = (createdBy) => ({ createdBy, columnOrders: null })
    const column = (type) => ({ ...type, index: 0 })
    const order = pageIndexOrder(layout('parquet-rs version 12.0.0'), column(DECIMAL_FLBA))
    assert.deepEqual([order.usable, order.reason], [false, 'untrusted-writer'])
    assert.match(order.detail, /arrow-rs\/issues\/1532/)
    assert.equal(pageIndexOrder(layout('parquet-rs version 57.1.0'), column(DECIMAL_BYTE_ARRAY)).reason, 'untrusted-writer')
    assert.equal(pageIndexOrder(layout('parquet-rs version 13.0.0'), column(DECIMAL_FLBA)).usable, true)
    // parquet-251 also covers unidentified writers, whose page indexes (parquet-mr wrote none before 1.11) stay usable.
    assert.equal(pageIndexOrder(layout('some writer'), column(STRING)).usable, true)
    assert.equal(pageIndexOrder(layout('hyparquet'), column(STRING)).reason, 'untrusted-writer')
    assert.equal(pageIndexOrder(layout('hyparquet'), column(INT64)).usable, true)
    assert.equal(pageIndexOrder(layout('parquet-cpp-arrow version 11.0.0'), column(INT64)).usable, true, 'arrow-15042 is about chunk statistics')
  })

  test('bloom-filter-offset-zero: 0 and negative offsets mean no filter', () => {
    assert.equal(NO_FILTER_OFFSET_RULE.applies(0), true)
    assert.equal(NO_FILTER_OFFSET_RULE.applies(-5), true)
    assert.equal(NO_FILTER_OFFSET_RULE.applies(4), false)
    assert.match(NO_FILTER_OFFSET_RULE.link, /iceberg/)
  })
})

describe('a real file naming an affected writer', () => {
  test('bloom filters of an untrusted writer answer unknown; probe and inspect say why', async () => {
    const bytes = await withCreatedBy('parquet-go version 18.4.0')
    const file = await openParquet(bytes)
    try {
      const stored = sample.columns.s.rowGroups[0][0].key
      const result = await file.probe('s', [stored], { statistics: false, dictionary: false })
      for (const rg of result.rowGroups) assert.deepEqual([rg.results[0].verdict, rg.results[0].reason], ['unknown', 'untrusted-writer'])
      assert.match(result.rowGroups[0].results[0].detail, /arrow-go\/issues\/525/)
      // inspect as users run it: the CLI's JSON report of the same bytes.
      const written = path.join(dir, 'untrusted-writer.parquet')
      await writeFile(written, bytes)
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'inspect', written, '--json'], { timeout: 30_000 })
      const warnings = JSON.parse(stdout).files[0].rowGroups[0].columns.find((c) => c.path === 's').bloom.warnings
      assert.ok(warnings.some((w) => w.code === 'adaptive-bloom-false-negatives' && w.message.includes('https://github.com/apache/arrow-go/issues/525')))
    } finally {
      await file.close()
    }
  })

  test('arrow-go: a dictionary array\'s chunk with its filter left empty is not ruled out by that filter', async () => {
    // What pqarrow (before apache/arrow-go#1164) writes for a column given as an Arrow dictionary array: a dictionary-
    // encoded chunk, right statistics, and a bloom filter no value went into. The DuckDB sample's row group 0 filter
    // of `s` with its bits cleared, and the footer naming arrow-go.
    const bytes = await withCreatedBy('parquet-go version 18.7.0')
    let file = await openParquet(bytes)
    const { offset, header } = await file.readBloomFilterParts(0, 's')
    await file.close()
    bytes.fill(0, offset + header.headerLength, offset + header.headerLength + header.numBytes)
    file = await openParquet(bytes)
    try {
      assert.equal(file.metadata.rowGroups[0].columns.find((c) => c.path === 's').indexes.dictionary.present, true)
      const stored = [...new Set(sample.columns.s.rowGroups[0].map((e) => e.key))].slice(0, 20)
      const { rowGroups } = await file.probe('s', stored, { dictionary: false })
      for (const r of rowGroups[0].results) assert.notEqual(r.verdict, 'absent', `${r.value}: ${r.detail}`)
      const bloomOnly = await file.probe('s', stored.slice(0, 1), { statistics: false, dictionary: false })
      assert.deepEqual([bloomOnly.rowGroups[0].results[0].verdict, bloomOnly.rowGroups[0].results[0].reason], ['unknown', 'untrusted-writer'])
      assert.match(bloomOnly.rowGroups[0].results[0].detail, /arrow-go\/pull\/1164/)
      // Lent for membership only as probe() uses it: refused, where its empty bits would say "absent" for every value.
      await assert.rejects(file.visitBloomFilter(0, 's', () => {}), (e) => e.code === 'UNSUPPORTED_FILTER' && e.reason === 'untrusted-writer')
      await assert.rejects(file.getBloomFilter(0, 's'), (e) => e.code === 'UNSUPPORTED_FILTER')
      const written = path.join(dir, 'arrow-go-dictionary.parquet')
      await writeFile(written, bytes)
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'inspect', written, '--json'], { timeout: 30_000 })
      const warnings = JSON.parse(stdout).files[0].rowGroups[0].columns.find((c) => c.path === 's').bloom.warnings
      assert.deepEqual(warnings.map((w) => w.code).sort(), ['dictionary-bloom-arrow-go', 'empty'])
      // index add takes such a filter for none: it writes one from the chunk's values, which hyparquet finds in it.
      const indexed = path.join(dir, 'arrow-go-dictionary.indexed.parquet')
      const added = await addIndexes(written, indexed, { columns: ['s'] })
      assert.ok(added.added.some((a) => a.rowGroup === 0 && a.column === 's'), JSON.stringify(added))
      const copy = await readFile(indexed)
      const meta = parquetMetadata(copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.length))
      const s = meta.row_groups[0].columns.find((c) => c.meta_data.path_in_schema.join('.') === 's').meta_data
      const region = copy.subarray(Number(s.bloom_filter_offset), Number(s.bloom_filter_offset) + s.bloom_filter_length)
      const filter = readBloomFilter({ view: new DataView(region.buffer, region.byteOffset, region.length), offset: 0 })
      for (const v of stored) assert.ok(sbbfContains(filter.blocks, xxhash64(new TextEncoder().encode(v))), v)
    } finally {
      await file.close()
    }
  })

  test('UUIDs hyparquet-writer took as mixed-case text: its page bounds order the text, so they are not used', async () => {
    // hyparquet-writer 0.17.0 compares UUIDs given as text by the text ('B' < 'a') and writes the bytes (0xb0 > 0xa0):
    // the first page's bounds [0x10…, 0xa0…] leave out the 0xb0… it holds. Rows 0–98 fill that page (16-byte values).
    const first = ['10000000-0000-0000-0000-000000000000', 'B0000000-0000-0000-0000-000000000000', 'a0000000-0000-0000-0000-000000000000']
    const data = Array.from({ length: 200 }, (_, i) => (i < 99 ? first[i % 3] : `${i % 2 ? 'c' : 'd'}0000000-0000-0000-0000-000000000000`))
    const bytes = parquetWriteBuffer({ columnData: [{ name: 'id', data, type: 'UUID', columnIndex: true, encoding: 'PLAIN' }], pageSize: 1600, rowGroupSize: 1000 })
    const held = [...new Set((await parquetReadObjects({ file: bytes })).map((row) => row.id))]
    assert.ok(held.includes('b0000000-0000-0000-0000-000000000000'), 'hyparquet reads the row back')
    const file = await openParquet(new Uint8Array(bytes))
    try {
      assert.equal(file.metadata.rowGroups[0].columns[0].indexes.pageIndex.columnIndex, true, 'the file has a page index')
      for (const options of [{}, { confirm: true }]) {
        const { rowGroups } = await file.probe('id', held, options)
        for (const r of rowGroups[0].results) assert.notEqual(r.verdict, 'absent', `${r.value} ${JSON.stringify(options)}: ${r.detail}`)
        if (options.confirm) for (const r of rowGroups[0].results) assert.equal(r.verdict, 'present', r.value)
      }
    } finally {
      await file.close()
    }
  })

  test('INT32 decimals whose bounds hyparquet-writer wrote as float32 bits (before 0.17): statistics not used', async () => {
    // hyparquet-writer#38: up to 0.16.x its DECIMAL INT32 min/max were the unscaled integer's float32 bits. The file is
    // 0.17.0's, with those bounds put where 0.16.5 put them (its data and created_by are the same).
    const element = { name: 'price', type: 'INT32', repetition_type: 'REQUIRED', converted_type: 'DECIMAL', precision: 6, scale: 2,
      logical_type: { type: 'DECIMAL', precision: 6, scale: 2 } }
    const written = parquetWriteBuffer({ schema: [{ name: 'root', num_children: 1 }, element], columnData: [{ name: 'price', data: [123.45, 1.5] }] })
    const float32Bits = (unscaled) => new Uint8Array(new Float32Array([unscaled]).buffer)
    const bytes = editFooter(new Uint8Array(written), (footer) => {
      const columnChunk = getField(footer, 4).value.items[0].fields.find((f) => f.id === 1).value.items[0]
      const stats = getField(getField(columnChunk, 3).value, 12).value
      for (const [id, unscaled] of [[1, 12345], [2, 150], [5, 12345], [6, 150]]) if (getField(stats, id)) setField(stats, id, T.BINARY, float32Bits(unscaled))
    })
    const held = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) })).map((row) => row.price)
    assert.deepEqual(held, [123.45, 1.5], 'hyparquet reads the rows back')
    const file = await openParquet(bytes)
    try {
      const statistics = file.metadata.rowGroups[0].columns[0].indexes.statistics
      assert.deepEqual([statistics.usable, statistics.reason], [false, 'untrusted-writer'])
      for (const options of [{}, { confirm: true }]) {
        const { rowGroups } = await file.probe('price', held, options)
        for (const r of rowGroups[0].results) assert.notEqual(r.verdict, 'absent', `${r.value} ${JSON.stringify(options)}: ${r.detail}`)
      }
    } finally {
      await file.close()
    }
  })

  test('parquetjs with its defaults: text by UTF-16 code units, JSON objects by JS >, so its page bounds are not used', async () => {
    const { ParquetSchema, ParquetWriter } = createRequire(import.meta.url)('@dsnp/parquetjs')
    const written = path.join(dir, 'parquetjs-bounds.parquet')
    const writer = await ParquetWriter.openFile(new ParquetSchema({ s: { type: 'UTF8' }, j: { type: 'JSON' } }), written)
    // U+1F600 sorts below U+FFFF in UTF-16, above it in UTF-8; objects never compare greater or less in JS.
    const text = ['a', '\uFFFF', '\u{1F600}']
    const json = [{ a: 1 }, { z: 2 }, { m: [1, 2] }]
    for (let i = 0; i < 30; i++) await writer.appendRow({ s: text[i % 3], j: json[i % 3] })
    await writer.close()
    const bytes = await readFile(written)
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) })
    const held = { s: [...new Set(rows.map((r) => r.s))], j: [...new Set(rows.map((r) => JSON.stringify(r.j)))] }
    assert.deepEqual(held, { s: text, j: json.map((v) => JSON.stringify(v)) }, 'hyparquet reads the rows back')
    const file = await openParquet(written)
    try {
      assert.equal(file.metadata.rowGroups[0].columns[0].indexes.pageIndex.columnIndex, true, 'the file has a page index')
      for (const column of ['s', 'j']) {
        for (const options of [{}, { confirm: true }]) {
          const { rowGroups } = await file.probe(column, held[column], options)
          for (const r of rowGroups[0].results) {
            assert.equal(r.verdict, options.confirm ? 'present' : 'unknown', `${column} ${r.value} ${JSON.stringify(options)}: ${r.detail}`)
          }
        }
      }
    } finally {
      await file.close()
    }
  })

  test('polars: a dictionary-encoded chunk whose null_count was multiplied by its pages up to num_values is not all null', async () => {
    // pola-rs/polars#29321: polars gives each data page of a dictionary-encoded chunk the chunk's null_count and sums the
    // pages' counts. Half the rows null and two data pages: null_count = num_values, for a chunk that holds values.
    // The file is DuckDB's (its rows are the truth), with that count and polars' created_by in its footer.
    const written = path.join(dir, 'polars-null-count.parquet')
    const held = await withDuckDB(async (connection) => {
      await connection.run(`COPY (SELECT CASE WHEN i % 2 = 0 THEN NULL ELSE 100 + i % 20 END AS h FROM range(2000) t(i))
        TO '${written}' (FORMAT PARQUET)`)
      const reader = await connection.runAndReadAll(`SELECT DISTINCT h FROM '${written}' WHERE h IS NOT NULL ORDER BY h`)
      return reader.getRowObjects().map((row) => Number(row.h))
    })
    assert.deepEqual(held, [101, 103, 105, 107, 109, 111, 113, 115, 117, 119])
    const withCount = (createdBy) => editFooter(new Uint8Array(readFileSync(written)), (footer) => {
      setField(footer, 6, T.BINARY, new TextEncoder().encode(createdBy))
      const meta = getField(getField(footer, 4).value.items[0].fields.find((f) => f.id === 1).value.items[0], 3).value
      setField(getField(meta, 12).value, 3, T.I64, getField(meta, 5).value)
    })
    let file = await openParquet(withCount('parquet-cpp-arrow version 15.0.0'))
    try {
      const [result] = (await file.probe('h', held.slice(0, 1))).rowGroups[0].results
      assert.deepEqual([result.verdict, result.reason], ['absent', 'all-null'], 'the count alone says all null')
    } finally {
      await file.close()
    }
    file = await openParquet(withCount('Polars'))
    try {
      assert.equal(file.metadata.rowGroups[0].columns[0].indexes.dictionary.present, true)
      for (const options of [{}, { confirm: true }]) {
        const { rowGroups } = await file.probe('h', held, options)
        for (const r of rowGroups[0].results) assert.notEqual(r.verdict, 'absent', `${r.value} ${JSON.stringify(options)}: ${r.detail}`)
        if (options.confirm) for (const r of rowGroups[0].results) assert.equal(r.verdict, 'present', r.value)
      }
      const [result] = (await file.probe('h', [7])).rowGroups[0].results
      assert.deepEqual([result.verdict, result.reason], ['absent', 'out-of-range'], 'its bounds still used')
    } finally {
      await file.close()
    }
  })

  test('polars: a list column whose null_count counts the nulls under a null list (pola-rs/polars#20621) is not all null', async () => {
    // Written by polars (nodejs-polars 0.26.1): the rows [1.0] and a null list that held [null, null] before a
    // when/then masked it. Two leaf levels, one null, but null_count 2 = num_values.
    const bytes = Uint8Array.from(Buffer.from([
      'UEFSMRUAFSoVKiwVBBUAFQYVBhw2BCgIAAAAAAAA8D8YCAAAAAAAAPA/AAAAAgAAAAMAAwAAAAMDAAAAAAAAAPA/FQoZJQAGGTgB',
      'bARsaXN0B2VsZW1lbnQVABYEFnwWfCYIPDYEKAgAAAAAAADwPxgIAAAAAAAA8D8AABkRAhkYCAAAAAAAAPA/GRgIAAAAAAAA8D8V',
      'ABkWBAAZHBYIFXwWAAAAFQIZTEgEcm9vdBUCADUCGAFsFQIVBkw8AAAANQQYBGxpc3QVAgAVCiUCGAdlbGVtZW50ABYEGRwZHCaE',
      'ARwVChklAAYZOAFsBGxpc3QHZWxlbWVudBUAFgQWfBZ8Jgg8NgQoCAAAAAAAAPA/GAgAAAAAAADwPwAAFrYCFRQW+AEVPgAWfBYE',
      'JggWfBQAABkcGAxBUlJPVzpzY2hlbWEY4AEvLy8vLzU0QUFBQUVBQUFBOHYvLy94UUFBQUFFQUFFQUFBQUtBQXNBQ0FBS0FBUUEr',
      'UC8vL3d3QUFBQUlBQWdBQUFBRUFBRUFBQUFFQUFBQTBQLy8vMkFBQUFCVUFBQUFDQUFBQUFFVkFBQUJBQUFBQkFBQUFPei8vLzh3',
      'QUFBQUlBQUFBQmdBQUFBQkF3QUFFQUFTQUFRQUVBQVJBQWdBQUFBTUFBQUFBQUQ2Ly8vL0FnQUdBQVlBQkFBRUFBQUFhWFJsYlFB',
      'QUFBRDgvLy8vQkFBRUFBRUFBQUJzQUE9PQAYBlBvbGFycxkcHAAAAJABAABQQVIx',
    ].join(''), 'base64'))
    const meta = parquetMetadata(bytes.buffer).row_groups[0].columns[0].meta_data
    assert.deepEqual([meta.num_values, meta.statistics.null_count], [2n, 2n])
    assert.deepEqual((await parquetReadObjects({ file: bytes.buffer })).map((row) => row.l), [[1], null], 'hyparquet reads the rows back')
    const file = await openParquet(bytes)
    try {
      assert.equal(file.metadata.createdBy, 'Polars')
      for (const options of [{}, { confirm: true }]) {
        const [result] = (await file.probe(['l', 'list', 'element'], [1], options)).rowGroups[0].results
        assert.equal(result.verdict, options.confirm ? 'present' : 'maybe', `${JSON.stringify(options)}: ${result.detail}`)
      }
    } finally {
      await file.close()
    }
  })

  test('polars Int128: page bounds in big-endian bytes over little-endian values are not used', async () => {
    // polars (1.32.0 on) writes an Int128 column as FIXED_LEN_BYTE_ARRAY(16) with no logical type: each value's
    // little-endian bytes, but each page's ColumnIndex bounds are the big-endian bytes of its smallest and largest
    // integer (pola-rs/polars#25965). hyparquet-writer's file of such values, its ColumnIndex bounds rewritten so
    // (same lengths, so nothing moves), and created_by polars'. hyparquet reads the values back.
    const le = (n) => {
      const b = new Uint8Array(16)
      new DataView(b.buffer).setBigInt64(0, BigInt(n), true)
      return b
    }
    const numbers = [1, 300, 2, 300, 1, 2, 5, 6, 5, 6]
    const schema = [{ name: 'root', num_children: 1 },
      { name: 'x', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, repetition_type: 'REQUIRED' }]
    const columnData = [{ name: 'x', data: numbers.map(le), columnIndex: true, encoding: 'PLAIN' }]
    const bytes = new Uint8Array(parquetWriteBuffer({ schema, columnData, pageSize: 90 }))
    const chunkMeta = parquetMetadata(bytes.buffer).row_groups[0].columns[0]
    const at = Number(chunkMeta.column_index_offset)
    const { struct: columnIndex } = decodeStruct(bytes.subarray(at, at + chunkMeta.column_index_length))
    for (const id of [2, 3]) {
      const bounds = getField(columnIndex, id).value
      bounds.items = bounds.items.map((b) => Uint8Array.from(b).reverse())
    }
    const encoded = encodeStruct(columnIndex)
    assert.equal(encoded.length, chunkMeta.column_index_length)
    bytes.set(encoded, at)
    const held = (await parquetReadObjects({ file: bytes.buffer, columns: ['x'] })).map((row) => row.x)
    assert.deepEqual(held.map((b) => Number(new DataView(b.buffer, b.byteOffset).getBigInt64(0, true))), numbers)
    const file = await openParquet(editFooter(bytes, (footer) => setField(footer, 6, T.BINARY, new TextEncoder().encode('Polars'))))
    try {
      assert.equal(file.metadata.rowGroups[0].columns[0].indexes.pageIndex.columnIndex, true, 'the file has a page index')
      for (const options of [{}, { pageIndex: true }, { confirm: true }]) {
        const { rowGroups } = await file.probe('x', [1, 2, 5, 6, 300].map(le), options)
        for (const r of rowGroups[0].results) assert.notEqual(r.verdict, 'absent', `${JSON.stringify(options)}: ${r.detail}`)
        if (options.confirm) for (const r of rowGroups[0].results) assert.equal(r.verdict, 'present')
      }
    } finally {
      await file.close()
    }
  })

  test('segmentio/parquet-go: page maxima cut to 16 bytes, not rounded up, are not used', async () => {
    // segmentio/parquet-go (2022-05 to 2023-04, #495) cut each binary page's ColumnIndex max to its first 16 bytes:
    // the longer values at the top of a page lie above it. hyparquet-writer's file of sorted 24-byte strings, its
    // ColumnIndex rewritten so (min and max cut to 16 bytes), no chunk min/max (segmentio wrote none), created_by
    // segmentio's. hyparquet reads the values back.
    const texts = Array.from({ length: 400 }, (_, i) => `customer-${String(i).padStart(6, '0')}-${'x'.repeat(8)}`)
    const columnData = [{ name: 's', data: texts, type: 'STRING', columnIndex: true, encoding: 'PLAIN' }]
    const written = new Uint8Array(parquetWriteBuffer({ columnData, pageSize: 1024 }))
    const chunkMeta = parquetMetadata(written.buffer).row_groups[0].columns[0]
    const at = Number(chunkMeta.column_index_offset)
    const { struct: columnIndex } = decodeStruct(written.subarray(at, at + chunkMeta.column_index_length))
    // Each page's least and greatest value (its rows from the OffsetIndex), cut to 16 bytes.
    const oiAt = Number(chunkMeta.offset_index_offset)
    const { struct: offsetIndex } = decodeStruct(written.subarray(oiAt, oiAt + chunkMeta.offset_index_length))
    const firstRows = getField(offsetIndex, 1).value.items.map((location) => Number(getField(location, 3).value))
    const pages = firstRows.map((first, p) => texts.slice(first, firstRows[p + 1] ?? texts.length).sort())
    const cut = (text) => new TextEncoder().encode(text).slice(0, 16)
    getField(columnIndex, 2).value.items = pages.map((page) => cut(page[0]))
    getField(columnIndex, 3).value.items = pages.map((page) => cut(page.at(-1)))
    assert.ok(pages.length > 4)
    const index = encodeStruct(columnIndex)
    // The new ColumnIndex goes where the footer was; the footer follows it.
    const footer = editFooter(written, (struct) => {
      setField(struct, 6, T.BINARY, new TextEncoder().encode('github.com/segmentio/parquet-go version 0.0.0(build 39e02a5af5a5)'))
      const chunk = getField(getField(struct, 4).value.items[0], 1).value.items[0]
      setField(chunk, 6, T.I64, BigInt(footerStart(written)))
      setField(chunk, 7, T.I32, index.length)
      getField(chunk, 3).value.fields = getField(chunk, 3).value.fields.filter((f) => f.id !== 12)
    })
    const bytes = new Uint8Array(footerStart(written) + index.length + (footer.length - footerStart(written)))
    bytes.set(written.subarray(0, footerStart(written)))
    bytes.set(index, footerStart(written))
    bytes.set(footer.subarray(footerStart(written)), footerStart(written) + index.length)
    const held = (await parquetReadObjects({ file: bytes.buffer, columns: ['s'] })).map((row) => row.s)
    assert.deepEqual(held, texts)
    const file = await openParquet(bytes)
    try {
      assert.equal(file.metadata.rowGroups[0].columns[0].indexes.pageIndex.columnIndex, true, 'the file has a page index')
      for (const options of [{}, { pageIndex: true }]) {
        const { rowGroups } = await file.probe('s', texts, options)
        const absent = rowGroups[0].results.filter((r) => r.verdict === 'absent').map((r) => r.value)
        assert.deepEqual(absent, [], JSON.stringify(options))
      }
      assert.deepEqual(pageIndexOrder(file.layout, file.layout.columns[0]).rules.map((r) => r.id), ['segmentio-page-max'])
    } finally {
      await file.close()
    }
  })

  test('xitongsys/parquet-go: a NaN resets its running min, so its DOUBLE bounds are not used', async () => {
    // Its page and chunk min/max are common.Min/Max with Go's < from the first value: a NaN after the min replaces it
    // (1 < NaN is false) and the next value replaces the NaN. hyparquet-writer's file of these row groups, their
    // statistics rewritten to what that computes, no column_orders, created_by xitongsys'. hyparquet reads the values.
    const groups = [[1, NaN, 2], [5, 3, NaN, 4], [NaN, 7, 8]]
    const goBounds = (values) => {
      let [min, max] = [values[0], values[0]]
      for (const v of values) [min, max] = [min < v ? min : v, max < v ? v : max]
      return [min, max]
    }
    assert.deepEqual(groups.map(goBounds), [[2, 2], [4, 5], [7, NaN]])
    const columnData = [{ name: 'd', data: groups.flat(), type: 'DOUBLE' }]
    const written = new Uint8Array(parquetWriteBuffer({ columnData, rowGroupSize: [3, 4, 3] }))
    const f64 = (x) => new Uint8Array(Float64Array.of(x).buffer)
    const bytes = editFooter(written, (footer) => {
      setField(footer, 6, T.BINARY, new TextEncoder().encode('parquet-go version latest'))
      footer.fields = footer.fields.filter((f) => f.id !== 7)
      getField(footer, 4).value.items.forEach((rowGroup, g) => {
        const [min, max] = goBounds(groups[g])
        const meta = getField(getField(rowGroup, 1).value.items[0], 3).value
        const statistics = { fields: [] }
        for (const [id, value] of [[1, f64(max)], [2, f64(min)], [3, 0n], [5, f64(max)], [6, f64(min)]]) {
          setField(statistics, id, id === 3 ? T.I64 : T.BINARY, value)
        }
        setField(meta, 12, T.STRUCT, statistics)
      })
    })
    const held = (await parquetReadObjects({ file: bytes.buffer, columns: ['d'] })).map((row) => row.d)
    assert.deepEqual(held, groups.flat())
    const file = await openParquet(bytes)
    try {
      assert.deepEqual([file.layout.columnOrders, file.layout.rowGroupRows.length], [null, 3])
      const { rowGroups } = await file.probe('d', [1, 2, 3, 4, 5, 7, 8], { dictionary: false })
      const absent = rowGroups.flatMap((g) => g.results.filter((r) => r.verdict === 'absent' && groups[g.index].includes(r.value))
        .map((r) => `row group ${g.index}: ${r.value}`))
      assert.deepEqual(absent, [])
      assert.equal(file.metadata.rowGroups[0].columns[0].indexes.statistics.reason, 'untrusted-writer')
    } finally {
      await file.close()
    }
  })

  test('QuestDB: a Binary max it could not round up (below a held value) is not used', async () => {
    // QuestDB keeps 8 bytes of a longer Binary max and increments them (questdb/questdb#7283 fixed the rest): eight 0xFF
    // cannot be, and it stored the 9-byte prefix (ff x8 aa for ff x8 aa bb); older builds incremented them as an i64, -1
    // to 0 (eight 0x00). DuckDB's BLOB file (no logical type, as QuestDB's Binary), its statistics rewritten to those,
    // no column_orders (QuestDB wrote none before #7283), created_by QuestDB's. hyparquet reads the values back.
    const long = [...Array(8).fill(0xff), 0xaa, 0xbb]
    const hex = (b) => `'${b.map((x) => '\\x' + x.toString(16).padStart(2, '0')).join('')}'::BLOB`
    const file = path.join(dir, 'questdb-binary.parquet')
    await withDuckDB((c) => c.run(`COPY (SELECT * FROM (VALUES (${hex([0])}), (${hex(long)})) t(b)) TO '${file}' (FORMAT parquet)`))
    const written = new Uint8Array(await readFile(file))
    for (const max of [long.slice(0, 9), Array(8).fill(0)]) {
      const bytes = editFooter(written, (footer) => {
        setField(footer, 6, T.BINARY, new TextEncoder().encode('QuestDB version 9.0'))
        footer.fields = footer.fields.filter((f) => f.id !== 7)
        const meta = getField(getField(getField(footer, 4).value.items[0], 1).value.items[0], 3).value
        const statistics = { fields: [] }
        for (const [id, value] of [[3, 0n], [5, Uint8Array.from(max)], [6, Uint8Array.of(0)]]) {
          setField(statistics, id, id === 3 ? T.I64 : T.BINARY, value)
        }
        setField(meta, 12, T.STRUCT, statistics)
      })
      const held = (await parquetReadObjects({ file: bytes.buffer, columns: ['b'], utf8: false })).map((row) => Array.from(row.b))
      assert.deepEqual(held, [[0], long])
      const opened = await openParquet(bytes)
      try {
        const { rowGroups } = await opened.probe('b', [Uint8Array.from(long)], { dictionary: false, bloomFilter: false })
        assert.notEqual(rowGroups[0].results[0].verdict, 'absent', `max ${max}`)
        assert.equal(opened.metadata.rowGroups[0].columns[0].indexes.statistics.reason, 'untrusted-writer')
      } finally {
        await opened.close()
      }
    }
  })

  test('binary statistics of arrow-rs 5.1 are ignored, numeric ones used', async () => {
    const file = await openParquet(await withCreatedBy('parquet-rs version 5.1.0'))
    try {
      const column = file.metadata.rowGroups[0].columns.find((c) => c.path === 's')
      assert.deepEqual([column.indexes.statistics.usable, column.indexes.statistics.reason], [false, 'untrusted-writer'])
      assert.match(column.indexes.statistics.detail, /arrow-rs\/issues\/641/)
      assert.equal(file.metadata.rowGroups[0].columns.find((c) => c.path === 'si').indexes.statistics.usable, true)
    } finally {
      await file.close()
    }
  })

  test('binary statistics of parquet-mr 1.7 are ignored, numeric ones used', async () => {
    const bytes = await withCreatedBy('parquet-mr version 1.7.0 (build 0)')
    const file = await openParquet(bytes)
    try {
      const column = file.metadata.rowGroups[0].columns.find((c) => c.path === 's')
      assert.deepEqual([column.indexes.statistics.present, column.indexes.statistics.usable, column.indexes.statistics.reason], [true, false, 'untrusted-writer'])
      assert.match(column.indexes.statistics.detail, /PARQUET-251/)
      const numeric = file.metadata.rowGroups[0].columns.find((c) => c.path === 'si')
      assert.equal(numeric.indexes.statistics.usable, true)
    } finally {
      await file.close()
    }
  })
})

/** Where a file's footer (FileMetaData) starts. */
function footerStart(bytes) {
  return bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true)
}
