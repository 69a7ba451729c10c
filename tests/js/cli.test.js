// The parquet-bloom CLI run as a child process. Expectations come from outside the code under test: the
// parquet-testing README (offsets, present/absent values), hyparquet's own footer and bloom filter
// readers (offsets, lengths, bit counts, verdicts), the files' known contents (DuckDB, hyparquet-writer,
// @dsnp/parquetjs written at test time), and the HTTP server's own request counts.
import assert from 'node:assert/strict'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { readBloomFilter, sbbfContains } from 'hyparquet/src/bloom.js'

import { fixturePath, missingFixture, PARQUET_TESTING_ABSENT, PARQUET_TESTING_PRESENT, projectRoot } from './helpers/fixtures.js'
import { writeParquetjsSample, writePatchedFooterSample } from './helpers/hostile-writers.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runCli, runCliJson } from './helpers/run-cli.js'
import { referenceHash } from '../../testkit/reference-sbbf.js'
import { writeDuckdbSample, writeHyparquetSample } from '../../testkit/sample-files.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { duckdb as duckdbConnection, quote } from '../../testkit/hive-dataset.js'

const STATS_FILE = 'parquet-testing/data_index_bloom_encoding_stats.parquet'
const LENGTH_FILE = 'parquet-testing/data_index_bloom_encoding_with_length.parquet'
const ENCRYPTED_FILE = 'parquet-testing/encrypt_columns_and_footer_bloom_filter.parquet.encrypted'
const PARQUET_TESTING_MISSING = missingFixture(STATS_FILE) || missingFixture(LENGTH_FILE)

/** Runs the CLI from the project folder; resolves with its exit code and output (never rejects on a non-zero exit). */
const cli = (args, { stdin } = {}) => runCli(args, { stdin: stdin ?? '', cwd: projectRoot, timeout: 30000 })
const cliJson = (args, { stdin } = {}) => runCliJson(args, { stdin: stdin ?? '', cwd: projectRoot, timeout: 30000 })

// ---------------------------------------------------------------------------------------------------
// Independent readings of a file: hyparquet's footer decoder and bloom filter reader

async function hyparquetView(file) {
  const bytes = new Uint8Array(await readFile(file))
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const filter = (rg, c) => {
    const md = metadata.row_groups[rg].columns[c].meta_data
    if (md.bloom_filter_offset === undefined) return undefined
    return readBloomFilter({ view, offset: Number(md.bloom_filter_offset) }) ?? null // null: header hyparquet refuses
  }
  return { bytes, metadata, filter }
}

const popcount = (words) => {
  let n = 0
  for (let w of words) {
    while (w) {
      w &= w - 1
      n++
    }
  }
  return n
}

// ---------------------------------------------------------------------------------------------------
// JSON shapes (the contract)

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v)

function assertInspectShape(doc) {
  assert.ok(Array.isArray(doc.files), 'files is an array')
  for (const f of doc.files) {
    if (f.error) {
      assert.deepEqual(Object.keys(f).sort(), ['error', 'file'])
      assert.equal(typeof f.error.code, 'string')
      assert.equal(typeof f.error.message, 'string')
      continue
    }
    assert.deepEqual(Object.keys(f).sort(), ['createdBy', 'file', 'numRows', 'rowGroups', 'size'])
    assert.equal(typeof f.file, 'string')
    assert.ok(isNumber(f.size) && isNumber(f.numRows))
    assert.ok(f.createdBy === null || typeof f.createdBy === 'string')
    f.rowGroups.forEach((rg, i) => {
      assert.deepEqual(Object.keys(rg).sort(), ['columns', 'index', 'numRows'])
      assert.equal(rg.index, i)
      for (const c of rg.columns) {
        assert.deepEqual(Object.keys(c).sort(), ['bloom', 'indexes', 'logicalType', 'path', 'physicalType'])
        assert.deepEqual(Object.keys(c.indexes).sort(), ['bloomFilter', 'dictionary', 'pageIndex', 'statistics'])
        assert.equal(typeof c.indexes.statistics.usable, 'boolean')
        assert.equal(typeof c.path, 'string')
        assert.equal(typeof c.physicalType, 'string')
        assert.ok(c.logicalType === null || typeof c.logicalType === 'object')
        if (c.bloom === null) continue
        const b = c.bloom
        assert.deepEqual(Object.keys(b).sort(), ['estimatedFpp', 'estimatedNdv', 'fillRatio', 'headerBytes', 'length', 'numBytes', 'offset', 'warnings'])
        assert.ok(isNumber(b.offset))
        for (const k of ['length', 'headerBytes', 'numBytes', 'fillRatio', 'estimatedNdv', 'estimatedFpp']) {
          assert.ok(b[k] === null || isNumber(b[k]), `${k} is a number or null`)
        }
        for (const w of b.warnings) {
          assert.deepEqual(Object.keys(w).sort(), ['code', 'message'])
          assert.match(w.code, /^[a-z]+(-[a-z]+)*$/, 'kebab-case code')
          assert.ok(w.message.length > 0)
        }
      }
    })
  }
}

function assertProbeShape(doc, values) {
  assert.ok(Array.isArray(doc.files))
  for (const f of doc.files) {
    if (f.error) {
      assert.deepEqual(Object.keys(f).sort(), ['error', 'file'])
      continue
    }
    assert.deepEqual(Object.keys(f).sort(), ['column', 'file', 'logicalType', 'physicalType', 'rowGroups', 'stats'])
    assert.deepEqual(Object.keys(f.stats).sort(), ['bytesFetched', 'ms', 'requests'])
    assert.ok(isNumber(f.stats.requests) && isNumber(f.stats.bytesFetched) && isNumber(f.stats.ms))
    for (const rg of f.rowGroups) {
      assert.deepEqual(Object.keys(rg).sort(), ['index', 'numRows', 'results'])
      assert.equal(rg.results.length, values.length)
      rg.results.forEach((r, i) => {
        assert.deepEqual(Object.keys(r).sort(), ['detail', 'reason', 'source', 'value', 'verdict'])
        assert.equal(r.value, values[i], 'values are echoed as JSON-safe text')
        assert.ok(['absent', 'maybe', 'present', 'unknown'].includes(r.verdict))
        assert.match(r.reason, /^[a-z]+(-[a-z]+)*$/, 'a kebab-case reason code')
        assert.ok(r.source === null || ['statistics', 'page-index', 'dictionary', 'bloom-filter', 'value'].includes(r.source))
        assert.equal(typeof r.detail, 'string')
      })
    }
  }
}

/** A one-line `parquet-bloom: …` error on stderr, without a stack trace. */
function assertOneLineError(stderr, ...needles) {
  const lines = stderr.split('\n').filter(Boolean)
  assert.ok(lines.length >= 1, 'an error line')
  for (const line of lines) assert.match(line, /^parquet-bloom: /, `every stderr line is an error line: ${line}`)
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace')
  for (const needle of needles) assert.ok(stderr.includes(needle), `stderr names ${needle}: ${stderr}`)
}

const dir = await tempDir('cli')
let duckdb
let hyparquet
let parquetjs
before(async () => {
  ;[duckdb, hyparquet, parquetjs] = await Promise.all([writeDuckdbSample(dir), writeHyparquetSample(dir), writeParquetjsSample(dir)])
})

// ---------------------------------------------------------------------------------------------------

describe('inspect', () => {
  test('parquet-testing files: offsets, lengths, header and bitset sizes from the README; health from the bits', { skip: PARQUET_TESTING_MISSING }, async () => {
    const { code, doc, stderr } = await cliJson(['inspect', fixturePath(STATS_FILE), fixturePath(LENGTH_FILE)])
    assert.equal(code, 0, stderr)
    assertInspectShape(doc)
    const expected = [[STATS_FILE, 192, null, 1024, 1643], [LENGTH_FILE, 253, 2064, 2048, 2885]]
    for (const [k, [name, offset, length, numBytes, size]] of expected.entries()) {
      const f = doc.files[k]
      assert.equal(f.file, fixturePath(name))
      assert.equal(f.size, size)
      assert.equal(f.numRows, 14)
      const [column] = f.rowGroups[0].columns
      assert.equal(column.path, 'String')
      assert.equal(column.physicalType, 'BYTE_ARRAY')
      assert.deepEqual(column.logicalType, { type: 'STRING' })
      const b = column.bloom
      assert.equal(b.offset, offset)
      assert.equal(b.length, length)
      assert.equal(b.headerBytes, 16)
      assert.equal(b.numBytes, numBytes)
      const reference = (await hyparquetView(fixturePath(name))).filter(0, 0)
      assert.equal(b.fillRatio, popcount(reference.blocks) / (numBytes * 8))
      assert.ok(Math.abs(b.estimatedNdv - 14) <= 2, `14 distinct values, estimated ${b.estimatedNdv}`)
      assert.ok(b.estimatedFpp < 1e-6)
      assert.deepEqual(b.warnings, [])
    }
    const text = await cli(['inspect', fixturePath(STATS_FILE), fixturePath(LENGTH_FILE)])
    assert.equal(text.code, 0)
    assert.match(text.stdout, /String\s+BYTE_ARRAY \(STRING\)\s+192\s+absent\s+16\s+1 KB/)
    assert.match(text.stdout, /String\s+BYTE_ARRAY \(STRING\)\s+253\s+2064\s+16\s+2 KB/)
  })

  test('DuckDB file: every chunk where hyparquet finds a filter, same offset/length/bit count, and no false alarm', async () => {
    const { code, doc, stderr } = await cliJson(['inspect', duckdb.path])
    assert.equal(code, 0, stderr)
    assertInspectShape(doc)
    const ref = await hyparquetView(duckdb.path)
    const [f] = doc.files
    assert.equal(f.numRows, duckdb.rowGroupRows.reduce((a, b) => a + b))
    assert.equal(f.size, ref.bytes.length)
    assert.match(f.createdBy, /DuckDB/i)
    let filters = 0
    f.rowGroups.forEach((rg, g) => {
      assert.equal(rg.numRows, duckdb.rowGroupRows[g])
      rg.columns.forEach((column, c) => {
        const md = ref.metadata.row_groups[g].columns[c].meta_data
        assert.equal(column.path, md.path_in_schema.join('.'))
        const reference = ref.filter(g, c)
        if (reference === undefined) return assert.equal(column.bloom, null, `${column.path}: no filter`)
        filters++
        const b = column.bloom
        assert.equal(b.offset, Number(md.bloom_filter_offset))
        assert.equal(b.length, md.bloom_filter_length ?? null)
        assert.equal(b.numBytes, reference.numBytes)
        assert.equal(b.headerBytes + b.numBytes, b.length ?? b.headerBytes + b.numBytes)
        assert.equal(b.fillRatio, popcount(reference.blocks) / (reference.numBytes * 8), column.path)
        assert.deepEqual(b.warnings, [], `${column.path} rg ${g}: a healthy writer's filter`)
      })
    })
    assert.ok(filters >= 60, `DuckDB wrote ${filters} filters`)
  })

  test('@dsnp/parquetjs file: empty-union headers, saturated shared block, numbers hashed as text — all reported', async () => {
    const { code, doc, stderr } = await cliJson(['inspect', parquetjs.path])
    assert.equal(code, 0, stderr)
    assertInspectShape(doc)
    const ref = await hyparquetView(parquetjs.path)
    const [f] = doc.files
    assert.equal(f.createdBy, '@dsnp/parquetjs')
    const offsets = []
    f.rowGroups.forEach((rg, g) => {
      assert.equal(rg.numRows, parquetjs.rowGroupRows[g])
      for (const [c, column] of rg.columns.entries()) {
        if (parquetjs.plainColumns.includes(column.path)) {
          assert.equal(column.bloom, null)
          continue
        }
        assert.ok(parquetjs.bloomColumns.includes(column.path))
        assert.equal(ref.filter(g, c), null, 'hyparquet refuses the header too')
        const b = column.bloom
        offsets.push(b)
        const codes = b.warnings.map((w) => w.code)
        for (const expected of ['header-empty-union', 'saturated', 'all-blocks-identical']) assert.ok(codes.includes(expected), `${column.path}: ${codes}`)
        assert.equal(codes.includes('hashes-text'), column.path === 'quantity', 'numbers hashed as text; strings are fine')
        // The health comes from the bitset bytes themselves.
        const bits = ref.bytes.subarray(b.offset + b.headerBytes, b.offset + b.headerBytes + b.numBytes)
        assert.equal(b.fillRatio, popcount(new Uint32Array(bits.slice().buffer)) / (b.numBytes * 8))
        const first = Buffer.from(bits.subarray(0, 32))
        for (let k = 32; k < bits.length; k += 32) assert.ok(first.equals(bits.subarray(k, k + 32)), 'blocks identical in the file')
        assert.ok(b.fillRatio >= 0.9)
      }
    })
    // parquetjs writes the filters back to back: each one's header + bitset ends where the next begins.
    offsets.sort((a, b) => a.offset - b.offset)
    for (let k = 0; k + 1 < offsets.length; k++) assert.equal(offsets[k].offset + offsets[k].headerBytes + offsets[k].numBytes, offsets[k + 1].offset)

    const text = await cli(['inspect', parquetjs.path])
    assert.equal(text.code, 0)
    for (const word of ['header-empty-union', 'saturated', 'all-blocks-identical', 'hashes-text', 'no bloom filter']) assert.ok(text.stdout.includes(word), word)
  })

  for (const defect of ['length-mismatch', 'offset-in-footer', 'offset-past-end']) {
    test(`a footer with ${defect} is reported, not fatal`, async () => {
      const patched = await writePatchedFooterSample(hyparquet.path, path.join(dir, `${defect}.parquet`), defect, { rowGroup: 1, column: 0 })
      const { code, doc, stderr } = await cliJson(['inspect', patched.path])
      assert.equal(code, 0, stderr)
      assertInspectShape(doc)
      const b = doc.files[0].rowGroups[1].columns[0].bloom
      assert.equal(b.offset, patched.patchedOffset)
      assert.equal(b.length, patched.patchedLength)
      const codes = b.warnings.map((w) => w.code)
      const expected = { 'length-mismatch': 'length-mismatch', 'offset-in-footer': 'overlaps-footer', 'offset-past-end': 'outside-file' }[defect]
      assert.ok(codes.includes(expected), `${defect}: ${JSON.stringify(b.warnings)}`)
      // The other chunks are untouched and healthy.
      assert.deepEqual(doc.files[0].rowGroups[0].columns[0].bloom.warnings, [])
    })
  }
})

// ---------------------------------------------------------------------------------------------------

describe('probe', () => {
  test('parquet-testing files: README present values maybe, absent values absent (values file)', { skip: PARQUET_TESTING_MISSING }, async () => {
    const values = [...PARQUET_TESTING_PRESENT, ...PARQUET_TESTING_ABSENT]
    const valuesFile = path.join(dir, 'values.txt')
    await writeFile(valuesFile, `${values.join('\r\n')}\r\n`)
    const { code, doc, stderr } = await cliJson(['probe', fixturePath(STATS_FILE), fixturePath(LENGTH_FILE), '--column', 'String', '--values-file', valuesFile])
    assert.equal(code, 0, stderr)
    assertProbeShape(doc, values)
    const expected = [...PARQUET_TESTING_PRESENT.map(() => 'maybe'), ...PARQUET_TESTING_ABSENT.map(() => 'absent')]
    for (const f of doc.files) {
      assert.equal(f.column, 'String')
      assert.equal(f.physicalType, 'BYTE_ARRAY')
      assert.deepEqual(f.rowGroups[0].results.map((r) => r.verdict), expected)
    }
    const text = await cli(['probe', fixturePath(STATS_FILE), fixturePath(LENGTH_FILE), '-c', 'String', '-v', 'Hello', '-v', 'NOT_EXISTS'])
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /^Hello: maybe in 2 of 2 row groups \(2 of 2 files\)$/m)
    assert.match(text.stdout, /^NOT_EXISTS: maybe in 0 of 2 row groups \(0 of 2 files\); ruled out 2 by (bloom filters|statistics)$/m)
    assert.match(text.stdout, /^\s+row group 0\s+14 rows\s+Hello: maybe \(bloom\)\s+NOT_EXISTS: absent \((bloom|stats)\)$/m)
    assert.match(text.stdout, /^2 requests, [\d.]+ KB read$/m)
  })

  test('a values file saved with a UTF-8 byte order mark: its first value is the README\'s Hello (maybe), not "\\uFEFFHello" (absent)',
    { skip: PARQUET_TESTING_MISSING }, async () => {
      const valuesFile = path.join(dir, 'bom-values.txt')
      await writeFile(valuesFile, `\uFEFF${PARQUET_TESTING_PRESENT.join('\r\n')}\r\n`)
      for (const values of [['--values-file', valuesFile], ['--values-file', '-']]) {
        const stdin = values[1] === '-' ? await readFile(valuesFile, 'utf8') : ''
        const { code, doc, stderr } = await cliJson(['probe', fixturePath(STATS_FILE), '-c', 'String', ...values], { stdin })
        assert.equal(code, 0, stderr)
        assert.deepEqual(doc.files[0].rowGroups[0].results.map((r) => [r.value, r.verdict]),
          PARQUET_TESTING_PRESENT.map((v) => [v, 'maybe']))
      }
    })

  test('a values file\'s blank lines are no value (docs/cli.md): "" not probed, a number column not failed; CRLF, last newline',
    { skip: PARQUET_TESTING_MISSING }, async () => {
      // The README's String column: Hello and today are held; a blank line would probe "", which no row holds.
      const valuesFile = path.join(dir, 'blank-line-values.txt')
      await writeFile(valuesFile, 'Hello\n\n  \r\n\r\ntoday\r\n\n')
      const { code, doc, stderr } = await cliJson(['probe', fixturePath(STATS_FILE), '-c', 'String', '--values-file', valuesFile])
      assert.equal(code, 0, stderr)
      // A line of spaces is a value as written.
      assert.deepEqual(doc.files[0].rowGroups[0].results.map((r) => r.value), ['Hello', '  ', 'today'])
      const numbers = await cliJson(['probe', hyparquet.path, '-c', 'i32', '--values-file', '-'], { stdin: '1\n\n2\n' })
      assert.equal(numbers.code, 0, numbers.stderr)
      assert.deepEqual(numbers.doc.files[0].rowGroups[0].results.map((r) => r.value), ['1', '2'])
      const blank = await cli(['probe', hyparquet.path, '-c', 'i32', '--values-file', '-'], { stdin: '\n\r\n' })
      assert.equal(blank.code, 2)
      assert.match(blank.stderr, /^parquet-bloom: no values to probe/)
    })

  test('--columns: BYTE_ARRAY without a string annotation prints as hex (docs/cli.md), DuckDB\'s hex() of its BLOB, not U+FFFD text',
    async () => {
      const file = path.join(dir, 'raw-bytes.parquet')
      await writeFile(file, new Uint8Array(parquetWriteBuffer({ columnData: [
        { name: 'id', data: [1, 2, 3], type: 'INT32' },
        { name: 'raw', data: [Uint8Array.of(0xff, 0xfe, 0x00, 0x41), Uint8Array.of(0x68, 0x69), Uint8Array.of(0xc3, 0x28)],
          type: 'BYTE_ARRAY' },
        { name: 'txt', data: ['héllo', 'hi', 'x'], type: 'STRING' },
      ] })))
      const db = await duckdbConnection()
      let truth
      try {
        truth = await db.rows(`SELECT typeof(raw) AS t, lower(hex(raw)) AS raw, txt FROM read_parquet(${quote(file)}) ORDER BY id`)
      } finally {
        db.close()
      }
      assert.deepEqual(truth.map((r) => r.t), ['BLOB', 'BLOB', 'BLOB'])
      const { code, doc, stderr } = await cliJson(['probe', file, '-c', 'id', '-v', '1', '-v', '2', '-v', '3', '--confirm',
        '--columns', 'raw,txt'])
      assert.equal(code, 0, stderr)
      assert.deepEqual(doc.files[0].rowGroups[0].results.flatMap((r) => r.values), truth.map(({ raw, txt }) => ({ raw, txt })))
      const text = await cli(['probe', file, '-c', 'id', '-v', '1', '--confirm', '--columns', 'raw'])
      assert.match(text.stdout, /^ {6}row 0: \{"raw":"fffe0041"\}$/m)
    })

  test('hyparquet-writer file, several types: stored values maybe in their row group, other verdicts as hyparquet\'s filter says', async () => {
    const ref = await hyparquetView(hyparquet.path)
    const columnIndex = Object.fromEntries(ref.metadata.row_groups[0].columns.map((c, i) => [c.meta_data.path_in_schema.join('.'), i]))
    const cases = [
      // [column, physical type, values as typed, their JS values for the reference hash, hex?]
      ['i32', 'INT32', hyparquet.columns.i32.rowGroups[1].slice(0, 3).map((e) => e.key), (t) => Number(t)],
      ['i64', 'INT64', hyparquet.columns.i64.rowGroups[2].slice(0, 2).map((e) => e.key), (t) => BigInt(t)],
      ['dbl', 'DOUBLE', [...hyparquet.columns.dbl.rowGroups[0].slice(10, 12).map((e) => e.key), '123456.5'], (t) => Number(t)],
      ['str', 'BYTE_ARRAY', [hyparquet.columns.str.rowGroups[2][3].key, 'not-there'], (t) => t],
      ['bin', 'BYTE_ARRAY', [hyparquet.columns.bin.rowGroups[1][0].hex, 'deadbeef'], (t) => Buffer.from(t, 'hex'), true],
      ['fl', 'FIXED_LEN_BYTE_ARRAY', [hyparquet.columns.fl.rowGroups[0][5].hex, '01020304'], (t) => Buffer.from(t, 'hex'), true],
    ]
    for (const [column, type, values, toJs, hex] of cases) {
      const args = ['probe', hyparquet.path, '--column', column, ...values.flatMap((v) => ['--value', v]), ...(hex ? ['--hex'] : [])]
      const { code, doc, stderr } = await cliJson(args)
      assert.equal(code, 0, `${column}: ${stderr}`)
      assertProbeShape(doc, values)
      const [f] = doc.files
      assert.equal(f.physicalType, type)
      f.rowGroups.forEach((rg, g) => {
        const filter = ref.filter(g, columnIndex[column])
        rg.results.forEach((r, i) => {
          const stored = hyparquet.columns[column].rowGroups[g].some((e) => (hex ? e.hex : e.key) === values[i])
          const expected = sbbfContains(filter.blocks, referenceHash(toJs(values[i]), type)) ? 'maybe' : 'absent'
          if (stored) assert.equal(expected, 'maybe', 'the reference agrees the value is there')
          assert.equal(r.verdict, expected, `${column} ${values[i]} rg ${g}`)
        })
      })
    }
  })

  test('DuckDB file: typed text of dates, decimals, UUIDs, timestamps, strings and JSON is found in its row group', async () => {
    const picks = { ii: 1, s: 0, dt: 2, d9: 1, u: 2, ts: 0, tstz: 1, j: 0 }
    for (const [column, g] of Object.entries(picks)) {
      const entries = duckdb.columns[column].rowGroups[g].filter((e) => e.expect === undefined).slice(0, 3)
      const values = entries.map((e) => e.forms.find((form) => typeof form === 'string'))
      const { code, doc, stderr } = await cliJson(['probe', duckdb.path, '-c', column, ...values.flatMap((v) => ['-v', v])])
      assert.equal(code, 0, `${column}: ${stderr}`)
      assertProbeShape(doc, values)
      for (const r of doc.files[0].rowGroups[g].results) assert.equal(r.verdict, 'maybe', `${column} ${r.value} in row group ${g}: ${r.reason}`)
    }
  })

  test('@dsnp/parquetjs file: its unusable filters answer unknown, never absent', async () => {
    const values = [parquetjs.rows[5].name, 'never-written']
    const { code, doc, stderr } = await cliJson(['probe', parquetjs.path, '-c', 'name', ...values.flatMap((v) => ['-v', v])])
    assert.equal(code, 0, stderr)
    assertProbeShape(doc, values)
    for (const rg of doc.files[0].rowGroups) {
      for (const r of rg.results) {
        assert.equal(r.verdict, 'unknown')
        assert.match(r.reason, /^unsupported-filter/)
      }
    }
  })

  test('negative numbers after --value, values from standard input, the human per-row-group lines', async () => {
    const value = hyparquet.columns.i32.rowGroups[0][0].key
    assert.ok(value.startsWith('-'))
    const r = await cli(['probe', hyparquet.path, '--column', 'i32', '--value', value])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`row group 0\\s+1000 rows\\s+${value}: maybe`))
    assert.match(r.stdout, new RegExp(`^${value}: maybe in [1-3] of 3 row groups \\(1 of 1 file\\)(; ruled out \\d+ by [a-z ]+(, \\d+ by [a-z ]+)*)?; \\d+ requests?, .* read$`, 'm'))

    const other = hyparquet.columns.i32.rowGroups[2][0].key
    const stdin = await cliJson(['probe', hyparquet.path, '--column', 'i32', '--values-file', '-'], { stdin: `${value}\n${other}\n` })
    assert.equal(stdin.code, 0, stdin.stderr)
    assertProbeShape(stdin.doc, [value, other])
    assert.equal(stdin.doc.files[0].rowGroups[0].results[0].verdict, 'maybe')
    assert.equal(stdin.doc.files[0].rowGroups[2].results[1].verdict, 'maybe')
  })

  test('URLs: bounded concurrency over several files; stats match the server\'s counts; an HTTP error fails only its file', async () => {
    const server = await startTestServer({ root: dir })
    try {
      const good = [path.basename(hyparquet.path), path.basename(duckdb.path)]
      const urls = [server.url(good[0]), server.url('missing.parquet'), server.url(good[1])]
      const { code, doc, stderr } = await cliJson(['probe', ...urls, '--column', 'i32', '--value', '5', '--concurrency', '2'])
      assert.equal(code, 2)
      assertOneLineError(stderr, urls[1], '404')
      assert.equal(stderr.trim().split('\n').length, 2, 'two failures: a 404 and a file without column i32')
      assertProbeShape(doc, ['5'])
      assert.deepEqual(doc.files.map((f) => f.file), urls, 'input order')
      assert.equal(doc.files[1].error.code, 'FILE_NOT_FOUND')
      assert.equal(doc.files[2].error.code, 'COLUMN_NOT_FOUND')
      const served = server.stats.paths[`/${good[0]}`]
      assert.equal(doc.files[0].stats.requests, served.requests)
      assert.equal(doc.files[0].stats.bytesFetched, served.bytesWritten)
    } finally {
      await server.close()
    }
  })
})

// ---------------------------------------------------------------------------------------------------

describe('usage and errors', () => {
  test('--help, --version', async () => {
    const pkg = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8'))
    const version = await cli(['--version'])
    assert.equal(version.code, 0)
    assert.equal(version.stdout.trim(), pkg.version)
    for (const [args, needle] of [[['--help'], 'parquet-bloom inspect'], [['inspect', '--help'], 'saturated'], [['probe', '-h'], '--values-file']]) {
      const r = await cli(args)
      assert.equal(r.code, 0)
      assert.ok(r.stdout.includes(needle), `${args}: ${needle}`)
      assert.equal(r.stderr, '')
    }
  })

  test('bad usage: exit 2 with one line', async () => {
    const cases = [
      [[], 'no command'],
      [['frobnicate', 'x'], 'unknown command'],
      [['inspect'], 'at least one file'],
      [['inspect', 'x', '--bogus'], "'--bogus'"],
      [['probe', 'x', '--value', '1'], '--column'],
      [['probe', 'x', '--column', 'c'], '--value'],
      [['probe', 'x', '-c', 'c', '-v', '1', '--mode', 'fast'], '--mode'],
      [['probe', 'x', '-c', 'c', '-v', '1', '--concurrency', '0'], '--concurrency'],
      [['probe', hyparquet.path, '-c', 'bin', '-v', 'zz', '--hex'], 'hex'],
    ]
    for (const [args, needle] of cases) {
      const r = await cli(args)
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
      assert.equal(r.stdout, '')
      assertOneLineError(r.stderr, needle)
      assert.equal(r.stderr.trim().split('\n').length, 1)
    }
  })

  test('missing, unreadable and malformed files: named on stderr, the other files still processed', async () => {
    const notParquet = path.join(dir, 'not-parquet.txt')
    await writeFile(notParquet, 'hello, this is not parquet\n')
    const missing = path.join(dir, 'missing.parquet')
    const files = [missing, hyparquet.path, notParquet, dir]
    const r = await cli(['inspect', ...files])
    assert.equal(r.code, 2)
    assertOneLineError(r.stderr, missing, notParquet, 'not a Parquet file', dir)
    assert.equal(r.stderr.trim().split('\n').length, 3)
    assert.ok(r.stdout.includes(hyparquet.path), 'the good file is reported')

    const probe = await cliJson(['probe', ...files, '-c', 'i32', '-v', '1'])
    assert.equal(probe.code, 2)
    assert.deepEqual(probe.doc.files.map((f) => f.error?.code ?? 'ok'), ['FILE_NOT_FOUND', 'ok', 'MALFORMED_FOOTER', 'IO'])

    const badValue = await cli(['probe', hyparquet.path, '-c', 'i32', '-v', 'abc'])
    assert.equal(badValue.code, 2)
    assertOneLineError(badValue.stderr, hyparquet.path, '"abc"', 'INT32')

    const noColumn = await cli(['probe', hyparquet.path, '-c', 'nope', '-v', '1'])
    assert.equal(noColumn.code, 2)
    assertOneLineError(noColumn.stderr, 'no column "nope"')

    const missingValues = await cli(['probe', hyparquet.path, '-c', 'i32', '--values-file', path.join(dir, 'none.txt')])
    assert.equal(missingValues.code, 2)
    assertOneLineError(missingValues.stderr, 'none.txt')
  })

  test('an encrypted file is refused clearly', { skip: missingFixture(ENCRYPTED_FILE) }, async () => {
    const r = await cli(['inspect', fixturePath(ENCRYPTED_FILE)])
    assert.equal(r.code, 2)
    assertOneLineError(r.stderr, 'encrypted')
  })

  test('every failed file is one stderr line `parquet-bloom: <file>: <problem>` (docs/cli.md), the file first', async () => {
    const missing = path.join(dir, 'no-such.parquet')
    const notParquet = path.join(dir, 'not-parquet.parquet')
    await writeFile(notParquet, 'not parquet at all')
    const folder = path.join(dir, 'a-folder.parquet')
    await mkdir(folder, { recursive: true })
    const url = 'http://user:secret@127.0.0.1:9/x.parquet' // refused before any request; its label has no password
    for (const command of [['probe', '-c', 'i32', '-v', '1'], ['inspect']]) {
      const r = await cli([command[0], missing, notParquet, folder, url, hyparquet.path, ...command.slice(1)])
      assert.equal(r.code, 2)
      const lines = r.stderr.split('\n').filter(Boolean)
      assert.deepEqual(lines.map((line) => line.slice(0, line.indexOf(': ', 'parquet-bloom: '.length) + 2)),
        [missing, notParquet, folder, 'http://127.0.0.1:9/x.parquet'].map((file) => `parquet-bloom: ${file}: `), r.stderr)
      assert.doesNotMatch(r.stderr, /secret/)
    }
  })

  test('--debug shows the stack', async () => {
    const r = await cli(['inspect', path.join(dir, 'missing.parquet'), '--debug'])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^parquet-bloom: .*missing\.parquet: file not found$/m)
    assert.match(r.stderr, /^\s+at /m)
  })
})

describe('probe --confirm', () => {
  const TINY_PAGES = 'parquet-testing/alltypes_tiny_pages.parquet'
  test('prints the rows holding each value and --json carries them, equal to hyparquet\'s full read', { skip: missingFixture(TINY_PAGES) }, async () => {
    const { parquetReadObjects } = await import('hyparquet')
    const bytes = await readFile(fixturePath(TINY_PAGES))
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), columns: ['id', 'string_col'] })
    const truth = (id) => rows.flatMap((r, i) => (r.id === id ? [i] : []))
    const args = ['probe', fixturePath(TINY_PAGES), '--column', 'id', '--value', '5000', '--value', '77', '--value', '99999', '--confirm', '--max-rows', '10']
    const { code, doc, stderr } = await cliJson(args)
    assert.equal(code, 0, stderr)
    const [result5000, result77, missing] = doc.files[0].rowGroups[0].results
    assert.deepEqual(result5000.rows, truth(5000))
    assert.deepEqual(result77.rows, truth(77))
    assert.equal(result5000.verdict, 'present')
    assert.equal(missing.verdict, 'absent')
    assert.ok(doc.files[0].confirm.bytesFetched > 0)
    const text = await cli(args.filter((a) => a !== '--json'))
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, new RegExp(`5000 in rows ${truth(5000).join(', ')}`))
    assert.match(text.stdout, /of which confirming: \d+ requests?/)
    const withColumns = await cliJson(['probe', fixturePath(TINY_PAGES), '-c', 'id', '-v', '5000', '--confirm', '--columns', 'id,string_col'])
    assert.equal(withColumns.code, 0, withColumns.stderr)
    const [row] = truth(5000)
    assert.deepEqual(withColumns.doc.files[0].rowGroups[0].results[0].values, [{ id: 5000, string_col: rows[row].string_col }])
    const bad = await cli(['probe', fixturePath(TINY_PAGES), '-c', 'id', '-v', '1', '--max-rows', '3'])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /--max-rows goes with --confirm/)
  })
})
