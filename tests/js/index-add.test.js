// addIndexes (js/index-builder/): files without bloom filters, written at test time by DuckDB and
// hyparquet-writer and taken from parquet-testing, get filters; the output is checked by other readers —
// DuckDB reads the same rows and its parquet_bloom_probe agrees with the new filters, hyparquet reads the
// same rows, the bytes before the old footer are identical — and every stored value is found (0 false
// negatives) while values known to be absent are ruled out at about the target rate.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { createWriteStream } from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

import { BloomFilter, ErrorCode, init } from '../../js/index.js'
import { FILTERABLE_TYPES, foldBitset } from '../../js/index-builder/chunk-values.js'
import { addIndexes, INDEXES_KEY } from '../../js/index-builder/index.js'
import { PACKAGE_VERSION } from '../../js/index-builder/version.js'
import { fixturePath, fixturesDir, missingFixture, projectRoot } from './helpers/fixtures.js'
import { openDuckDB } from '../../testkit/duckdb.js'
import { runCli } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withFile } from './helpers/with-file.js'

const ROWS = 30000
const GROUP_ROWS = 10240
const dir = await tempDir('index-add')
let duck

before(async () => {
  await init()
  duck = await openDuckDB()
})

after(async () => {
  duck?.close()
})

const rows = async (sql) => (await duck.connection.runAndReadAll(sql)).getRows()
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')
const hyparquetRows = async (file) => {
  const bytes = await readFile(file)
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors, utf8: false })
}
/** The old footer's start: the bytes before it must come through unchanged. */
const metadataOffset = (bytes) => bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true)

/** DuckDB reads the same rows from both files, in the same order. */
async function assertSameRowsDuckDB(input, output) {
  const [[a]] = await rows(`SELECT count(*) FROM (SELECT * FROM read_parquet('${input}') EXCEPT ALL SELECT * FROM read_parquet('${output}'))`)
  const [[b]] = await rows(`SELECT count(*) FROM (SELECT * FROM read_parquet('${output}') EXCEPT ALL SELECT * FROM read_parquet('${input}'))`)
  const [[n1]] = await rows(`SELECT count(*) FROM read_parquet('${input}')`)
  const [[n2]] = await rows(`SELECT count(*) FROM read_parquet('${output}')`)
  assert.equal(a, 0n)
  assert.equal(b, 0n)
  assert.equal(n1, n2)
}

async function assertPrefixUnchanged(input, output) {
  const before = new Uint8Array(await readFile(input))
  const after = new Uint8Array(await readFile(output))
  const end = metadataOffset(before)
  assert.equal(sha256(after.subarray(0, end)), sha256(before.subarray(0, end)), 'the pages and everything before the old footer are byte-identical')
}

describe('addIndexes: a DuckDB file with high-cardinality columns (no filters written)', () => {
  let input
  let output
  let result
  before(async () => {
    input = path.join(dir, 'duck.parquet')
    output = path.join(dir, 'duck-indexed.parquet')
    await duck.connection.run(`COPY (SELECT i::BIGINT * 3 AS id, 'user-' || ((i * 7919) % ${ROWS}) AS name,
        CASE WHEN i % 9 = 0 THEN NULL ELSE (i * 31) % 100003 END::INTEGER AS n, (i % 1000) / 8 AS d, (i % 5)::INTEGER AS small
      FROM range(${ROWS}) t(i)) TO '${input}' (FORMAT parquet, ROW_GROUP_SIZE ${GROUP_ROWS})`)
    result = await addIndexes(input, output, { columns: ['id', 'name', 'n', 'd', 'small'] })
  })

  test('the chunks without a filter get one; DuckDB\'s own dictionary filters are kept', async () => {
    const groups = (await rows(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${input}')`))[0][0]
    const before = await rows(`SELECT path_in_schema, bloom_filter_offset IS NOT NULL FROM parquet_metadata('${input}') ORDER BY row_group_id, column_id`)
    const hadFilter = new Set(before.filter(([, has]) => has).map(([p]) => p))
    assert.ok(hadFilter.has('small'), 'DuckDB writes filters for dictionary-encoded chunks')
    assert.ok(!hadFilter.has('id') && !hadFilter.has('name'), 'and none for high-cardinality ones')
    assert.equal(result.added.length + result.skipped.length, Number(groups) * 5)
    for (const s of result.skipped) assert.equal(s.reason, 'has-filter')
    const afterRows = await rows(`SELECT path_in_schema, bloom_filter_offset IS NOT NULL FROM parquet_metadata('${output}')`)
    assert.ok(afterRows.every(([, has]) => has), 'every chunk of the five columns has a filter now')
  })

  test('DuckDB and hyparquet read the same rows; the pages are byte-identical', async () => {
    await assertSameRowsDuckDB(input, output)
    assert.deepEqual(await hyparquetRows(output), await hyparquetRows(input))
    await assertPrefixUnchanged(input, output)
  })

  test('key-value metadata records what was added and by which version; other footer fields unchanged', async () => {
    const kv = await rows(`SELECT key::VARCHAR, value::VARCHAR FROM parquet_kv_metadata('${output}')`)
    const entry = kv.find(([k]) => k === INDEXES_KEY)
    assert.ok(entry)
    const record = JSON.parse(entry[1].replaceAll('\\x22', '"'))
    assert.equal(record.writer, `parquet-bloom ${PACKAGE_VERSION}`)
    assert.deepEqual(record.bloomFilters.columns, ['id', 'name', 'n', 'd', 'small'])
    const meta = async (file) => {
      const bytes = await readFile(file)
      const m = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
      for (const rg of m.row_groups) for (const c of rg.columns) { delete c.meta_data.bloom_filter_offset; delete c.meta_data.bloom_filter_length }
      m.key_value_metadata = m.key_value_metadata?.filter((e) => e.key !== INDEXES_KEY)
      if (!m.key_value_metadata?.length) delete m.key_value_metadata
      delete m.metadata_length
      return m
    }
    assert.deepEqual(await meta(output), await meta(input))
  })

  test('DuckDB\'s parquet_bloom_probe agrees with our probe on present and absent values', async () => {
    const present = [0, 3, 29997, 15000, 12345 * 3]
    const absent = [1, 2, 100000000, -3]
    await withFile(output, {}, async (file) => {
      const ours = await file.probe('id', [...present, ...absent].map(BigInt), { statistics: false })
      for (const [k, v] of [...present, ...absent].entries()) {
        const theirs = await rows(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${output}', 'id', ${v}::BIGINT) ORDER BY row_group_id`)
        for (const [g, excludes] of theirs) {
          const verdict = ours.rowGroups[Number(g)].results[k].verdict
          assert.equal(excludes, verdict === 'absent', `value ${v}, row group ${g}: DuckDB excludes ${excludes}, we say ${verdict}`)
        }
      }
      const names = await file.probe('name', ['user-1', 'user-29999', 'nobody'], { statistics: false })
      const theirs = await rows(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${output}', 'name', 'nobody') ORDER BY row_group_id`)
      for (const [g, excludes] of theirs) assert.equal(excludes, names.rowGroups[Number(g)].results[2].verdict === 'absent')
    })
  })

  test('every stored value is found; absent values are ruled out at about the target rate', async (t) => {
    const stored = await rows(`SELECT file_row_number // ${GROUP_ROWS} AS g, id, name, n, d, small FROM read_parquet('${output}', file_row_number = true)`)
    await withFile(output, {}, async (file) => {
      const columns = { id: 1, name: 2, n: 3, d: 4, small: 5 }
      for (const [column, k] of Object.entries(columns)) {
        const byGroup = new Map()
        for (const r of stored) {
          if (r[k] === null) continue
          const g = Number(r[0])
          if (!byGroup.has(g)) byGroup.set(g, new Set())
          byGroup.get(g).add(typeof r[k] === 'object' ? Number(r[k].toString()) : r[k])
        }
        for (const [g, values] of byGroup) {
          const result = await file.probe(column, [...values], { statistics: false, rowGroups: [g] })
          const wrong = result.rowGroups[0].results.filter((x) => x.verdict === 'absent')
          assert.equal(wrong.length, 0, `${column}, row group ${g}: ${wrong.length} stored values answered absent`)
        }
      }
      // ids are multiples of 3: the others are absent from every row group.
      const absent = Array.from({ length: 20000 }, (_, i) => BigInt(i * 3 + 1))
      const result = await file.probe('id', absent, { statistics: false })
      let maybe = 0
      let total = 0
      for (const g of result.rowGroups) for (const r of g.results) { total++; if (r.verdict !== 'absent') maybe++ }
      const rate = maybe / total
      t.diagnostic(`measured false-positive rate ${rate} over ${total} absent (value, row group) pairs`)
      assert.ok(rate <= 0.01, `measured false-positive rate ${rate} at fpp 0.01`)
      assert.ok(rate > 0, 'a filter sized for 1% answers maybe for some absent values')
    })
  })

  test('a second run keeps the new filters; replace: true builds them again and replaces the key-value entry', async () => {
    const again = path.join(dir, 'duck-again.parquet')
    const kept = await addIndexes(output, again, { columns: ['id'] })
    assert.equal(kept.added.length, 0)
    assert.ok(kept.skipped.every((s) => s.reason === 'has-filter'))
    const replaced = await addIndexes(output, again, { columns: ['id'], replace: true, fpp: 0.001 })
    assert.equal(replaced.added.length, kept.skipped.length)
    const kv = await rows(`SELECT key::VARCHAR FROM parquet_kv_metadata('${again}')`)
    assert.equal(kv.filter(([k]) => k === INDEXES_KEY).length, 1)
    await assertSameRowsDuckDB(input, again)
  })
})

describe('addIndexes: hyparquet-writer files (no filters), every supported type, nulls', () => {
  test('INT32, INT64, DOUBLE (-0, NaN), FLOAT, strings, binary, FIXED_LEN_BYTE_ARRAY, with nulls: no false negatives; readers agree', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const n = 5000
    const columns = [
      ['i32', { type: 'INT32' }, (i) => (i % 13 === 0 ? null : i * 7919 - 10000000)],
      ['i64', { type: 'INT64' }, (i) => BigInt(i) * 3037000493n - 9000000000000000n],
      ['dbl', { type: 'DOUBLE' }, (i) => (i === 5 ? -0 : i === 6 ? NaN : i % 11 === 0 ? null : (i - 1000) / 3)],
      ['flt', { type: 'FLOAT' }, (i) => (i - 1000) / 4],
      ['str', { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }, (i) => (i % 7 === 0 ? null : `s${i % 1700}-é`)],
      ['bin', { type: 'BYTE_ARRAY' }, (i) => new Uint8Array([i & 255, i >> 8, 0xff])],
      ['fl', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 4 }, (i) => new Uint8Array([i & 255, i >> 8, 1, 2])],
    ]
    const data = columns.map(([, , make]) => Array.from({ length: n }, (_, i) => make(i)))
    const buffer = parquetWriteBuffer({
      columnData: columns.map(([name], c) => ({ name, data: data[c] })),
      schema: [{ name: 'root', num_children: columns.length },
        ...columns.map(([name, element], c) => ({ name, repetition_type: data[c].includes(null) ? 'OPTIONAL' : 'REQUIRED', ...element }))],
      rowGroupSize: 2000,
    })
    const input = path.join(dir, 'hyparquet.parquet')
    const output = path.join(dir, 'hyparquet-indexed.parquet')
    await writeFile(input, new Uint8Array(buffer))
    const result = await addIndexes(input, output, { columns: columns.map(([name]) => name) })
    assert.equal(result.skipped.length, 0)
    assert.equal(result.added.length, 3 * columns.length)
    assert.deepEqual(await hyparquetRows(output), await hyparquetRows(input))
    await assertSameRowsDuckDB(input, output)
    await assertPrefixUnchanged(input, output)
    await withFile(output, {}, async (file) => {
      for (const [c, [name]] of columns.entries()) {
        for (let g = 0; g < 3; g++) {
          const values = data[c].slice(g * 2000, (g + 1) * 2000).filter((v) => v !== null)
          const probed = await file.probe(name, values, { statistics: false, rowGroups: [g] })
          assert.equal(probed.rowGroups[0].results.filter((r) => r.verdict === 'absent').length, 0, `${name}, row group ${g}`)
          // A NaN is never answered from an index (writers' NaN bits differ): unknown, reason nan.
          assert.ok(probed.rowGroups[0].results.every((r) => (Number.isNaN(r.value) ? r.verdict === 'unknown' && r.reason === 'nan' : r.source === 'bloom-filter')))
        }
      }
    })
  })
})

describe('addIndexes: sinks, options and refusals', () => {
  let input
  before(async () => {
    input = path.join(dir, 'small.parquet')
    await duck.connection.run(`COPY (SELECT i::BIGINT AS id FROM range(5000) t(i)) TO '${input}' (FORMAT parquet)`)
  })

  test('a Blob, a Node stream and a WritableStream receive the same bytes as a path', async () => {
    const file = path.join(dir, 'small-path.parquet')
    await addIndexes(input, file, { columns: ['id'] })
    const expected = sha256(await readFile(file))
    const { blob } = await addIndexes(input, null, { columns: ['id'] })
    assert.equal(sha256(new Uint8Array(await blob.arrayBuffer())), expected)
    const streamed = path.join(dir, 'small-stream.parquet')
    await addIndexes(input, createWriteStream(streamed), { columns: ['id'] })
    assert.equal(sha256(await readFile(streamed)), expected)
    const chunks = []
    await addIndexes(await readFile(input), new WritableStream({ write: (c) => { chunks.push(c) } }), { columns: ['id'] })
    assert.equal(sha256(Buffer.concat(chunks)), expected)
  })

  test('ndv: a number sizes every filter for it; small windows read the same result', async () => {
    const sized = await addIndexes(input, null, { columns: ['id'], ndv: 100000 })
    assert.ok(sized.added.every((a) => a.ndv === 100000 && !a.exact && a.numBytes >= 65536))
    const exact = await addIndexes(input, null, { columns: ['id'] })
    const windowed = await addIndexes(input, null, { columns: ['id'], windowBytes: 1024 })
    assert.equal(sha256(new Uint8Array(await windowed.blob.arrayBuffer())), sha256(new Uint8Array(await exact.blob.arrayBuffer())))
    // Plain pages: sized for the distinct values the filter's fill shows (5000 here), within its margin.
    assert.ok(exact.added.every((a) => !a.exact && a.ndv >= 5000 && a.ndv <= 5000 * 1.25), JSON.stringify(exact.added))
    await withFile(new Uint8Array(await exact.blob.arrayBuffer()), {}, async (file) => {
      const r = await file.probe('id', Array.from({ length: 5000 }, (_, i) => BigInt(i)), { statistics: false })
      assert.ok(r.rowGroups.every((g) => g.results.every((x) => x.verdict !== 'absent')))
    })
  })

  test('a folded bitset is the bitset the core builds at the smaller size', async () => {
    const values = Array.from({ length: 3000 }, (_, i) => BigInt(i) * 7919n - 5n)
    const big = BloomFilter.create({ numBytes: 1 << 16 })
    const small = BloomFilter.create({ numBytes: 1 << 12 })
    try {
      big.insert(values, 'INT64')
      small.insert(values, 'INT64')
      assert.deepEqual(foldBitset(big.bitset(), 1 << 12), small.bitset())
      assert.deepEqual(foldBitset(big.bitset(), 1 << 20), big.bitset(), 'never grown')
    } finally {
      big.free()
      small.free()
    }
  })

  test('bad options are INVALID_ARGUMENT; an unknown column COLUMN_NOT_FOUND; BOOLEAN columns get filters too', async () => {
    await assert.rejects(addIndexes(input, null, { columns: [] }), { code: ErrorCode.INVALID_ARGUMENT })
    await assert.rejects(addIndexes(input, null, { columns: ['id'], fpp: 2 }), { code: ErrorCode.INVALID_ARGUMENT })
    await assert.rejects(addIndexes(input, null, { columns: ['id'], ndv: -1 }), { code: ErrorCode.INVALID_ARGUMENT })
    await assert.rejects(addIndexes(input, null, { columns: ['nope'] }), { code: ErrorCode.COLUMN_NOT_FOUND })
    const bools = path.join(dir, 'bools.parquet')
    await duck.connection.run(`COPY (SELECT i % 2 = 0 AS b FROM range(10) t(i)) TO '${bools}' (FORMAT parquet)`)
    assert.equal((await addIndexes(bools, null, { columns: ['b'] })).added.length, 1)
  })

  test('encrypted files are refused with ENCRYPTED, and no output is left behind', async (t) => {
    const encrypted = ['encrypt_columns_and_footer.parquet.encrypted', 'encrypt_columns_plaintext_footer.parquet.encrypted', 'uniform_encryption.parquet.encrypted']
    const skip = missingFixture(`parquet-testing/${encrypted[0]}`)
    if (skip) return t.skip(skip)
    for (const name of encrypted) {
      const out = path.join(dir, `${name}.out`)
      await assert.rejects(addIndexes(fixturePath(`parquet-testing/${name}`), out, { columns: ['double_field'] }), { code: ErrorCode.ENCRYPTED }, name)
      await assert.rejects(stat(out), { code: 'ENOENT' })
    }
    const leftovers = (await readdir(dir)).filter((f) => f.includes('.partial-'))
    assert.deepEqual(leftovers, [])
  })
})

/** Top-level leaf columns whose values hyparquet hands back losslessly in a form probe() takes. */
function probeableColumns(metadata) {
  const out = []
  const schema = metadata.schema
  for (let i = 1; i < schema.length; i++) {
    const e = schema[i]
    if (e.num_children) { i += countDescendants(schema, i); continue }
    if (e.repetition_type === 'REPEATED') continue
    const logical = e.logical_type?.type
    const plainNumber = ['INT32', 'INT64', 'DOUBLE', 'FLOAT'].includes(e.type) && !e.converted_type && (!logical || (logical === 'INTEGER' && e.logical_type.isSigned))
    const bytes = e.type === 'BYTE_ARRAY' && (!e.converted_type || e.converted_type === 'UTF8') && (!logical || logical === 'STRING')
    if (plainNumber || bytes) out.push(e.name)
  }
  return out
}

function countDescendants(schema, i) {
  let n = 0
  let open = schema[i].num_children
  for (let j = i + 1; open > 0; j++) {
    n++
    open--
    open += schema[j].num_children ?? 0
  }
  return n
}

describe('addIndexes over the parquet-testing files', () => {
  test('every readable, unencrypted file: readers agree, every stored value is found', async (t) => {
    const skip = missingFixture('parquet-testing/alltypes_plain.parquet')
    if (skip) return t.skip(skip)
    const data = path.join(fixturesDir, 'parquet-testing')
    const names = (await readdir(data)).filter((f) => f.endsWith('.parquet')).sort()
    const report = { indexed: [], skipped: [] }
    for (const name of names) {
      const input = path.join(data, name)
      const bytes = await readFile(input)
      let metadata
      let before
      try {
        metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
        before = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors, utf8: false })
      } catch (error) {
        report.skipped.push(`${name}: hyparquet cannot read it (${String(error?.message ?? error).slice(0, 60)})`)
        continue
      }
      // Every leaf of a type filters are built for gets one (nested ones included); the values of the
      // top-level ones hyparquet hands back losslessly are probed.
      const columns = probeableColumns(metadata)
      let leaves
      try {
        leaves = await withFile(input, {}, async (file) => file.layout.columns.filter((c) => FILTERABLE_TYPES.has(c.physicalType)).map((c) => c.path))
      } catch (error) {
        report.skipped.push(`${name}: ${error.code}: ${String(error.message).slice(0, 80)}`)
        continue
      }
      if (!leaves.length) {
        report.skipped.push(`${name}: no column of a type bloom filters are built for`)
        continue
      }
      const output = path.join(dir, `pt-${name}`)
      let result
      try {
        result = await addIndexes(input, output, { columns: leaves, replace: true, pageIndex: true })
      } catch (error) {
        report.skipped.push(`${name}: ${error.code}: ${String(error.message).slice(0, 80)}`)
        assert.ok([ErrorCode.MALFORMED_FOOTER, ErrorCode.ENCRYPTED].includes(error.code), `${name}: ${error.message}`)
        continue
      }
      const outBytes = await readFile(output)
      const after = await parquetReadObjects({ file: outBytes.buffer.slice(outBytes.byteOffset, outBytes.byteOffset + outBytes.byteLength), compressors, utf8: false })
      assert.deepEqual(after, before, `${name}: hyparquet reads the same rows`)
      await assertPrefixUnchanged(input, output)
      // Every stored value, probed in its row group through the bloom filters alone.
      const groupStarts = []
      let start = 0
      for (const rg of metadata.row_groups) { groupStarts.push(start); start += Number(rg.num_rows) }
      const built = new Set(result.added.map((a) => `${a.rowGroup}/${a.column}`))
      await withFile(output, {}, async (file) => {
        for (const column of columns) {
          for (let g = 0; g < groupStarts.length; g++) {
            if (!built.has(`${g}/${column}`)) continue
            const values = before.slice(groupStarts[g], groupStarts[g] + Number(metadata.row_groups[g].num_rows)).map((r) => r[column]).filter((v) => v !== null && v !== undefined)
            const distinct = [...new Map(values.map((v) => [v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'number' && Object.is(v, -0) ? '-0' : String(v), v])).values()]
            const probed = await file.probe(column, distinct, { statistics: false, rowGroups: [g] })
            const wrong = probed.rowGroups[0].results.filter((r) => r.verdict === 'absent')
            assert.equal(wrong.length, 0, `${name}, ${column}, row group ${g}: ${wrong.length} stored values answered absent`)
          }
        }
      })
      try {
        await assertSameRowsDuckDB(input, output)
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error
        // DuckDB cannot read some of these files (nor their copies): hyparquet's reads above still compare.
      }
      report.indexed.push(`${name}: ${result.added.length} filters${result.skipped.length ? `, ${result.skipped.length} chunks skipped (${[...new Set(result.skipped.map((s) => s.reason))].join(', ')})` : ''}`)
    }
    t.diagnostic(`indexed ${report.indexed.length} files (with chunks left alone: ${report.indexed.filter((x) => x.includes('skipped')).join('; ') || 'none'}); skipped ${report.skipped.length}: ${report.skipped.join('; ')}`)
    assert.ok(report.indexed.length >= 20, `indexed ${report.indexed.length} parquet-testing files`)
  })
})

test('the recorded version is package.json\'s', async () => {
  const pkg = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8'))
  assert.equal(PACKAGE_VERSION, pkg.version)
})

describe('parquet-bloom index add', () => {
  const run = (args) => runCli(args)

  test('writes the copy, prints what it added as text or JSON; usage errors exit 2', async () => {
    const input = path.join(dir, 'cli-in.parquet')
    const output = path.join(dir, 'cli-out.parquet')
    await duck.connection.run(`COPY (SELECT i::BIGINT AS id, 'n' || i AS name FROM range(3000) t(i)) TO '${input}' (FORMAT parquet)`)
    const text = await run(['index', 'add', input, '-o', output, '--column', 'id', '-c', 'name', '--fpp', '0.001'])
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /2 bloom filters added/)
    await assertSameRowsDuckDB(input, output)
    const json = await run(['index', 'add', input, '-o', output, '--column', 'id', '--ndv', '5000', '--page-index', '--json'])
    assert.equal(json.code, 0, json.stderr)
    const doc = JSON.parse(json.stdout)
    assert.equal(doc.added[0].ndv, 5000)
    assert.equal(doc.pageIndexes.length, 1)
    const probe = await run(['probe', output, '-c', 'id', '-v', '2999', '--no-statistics', '--json'])
    assert.equal(JSON.parse(probe.stdout).files[0].rowGroups[0].results[0].source, 'bloom-filter')
    for (const args of [['index', 'add', input], ['index', 'add', input, '-o', output], ['index', 'add', input, '-o', output, '-c', 'id', '--fpp', '3'], ['index', 'nope']]) {
      const r = await run(args)
      assert.equal(r.code, 2, args.join(' '))
      assert.match(r.stderr, /^parquet-bloom: /)
    }
  })
})

describe('addIndexes: pageIndex', () => {
  test('the OffsetIndex and ColumnIndex written equal hyparquet-writer\'s own for the same pages', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const n = 9000
    const columnData = (index) => [
      { name: 'id', data: Array.from({ length: n }, (_, i) => BigInt(i) * 3n), type: 'INT64' },
      { name: 'key', data: Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : `k${(i * 7919) % n}`)), type: 'STRING' },
      { name: 'd', data: Array.from({ length: n }, (_, i) => (i % 500) / 4 - 20), type: 'DOUBLE' },
    ].map((c) => ({ ...c, columnIndex: index, offsetIndex: index }))
    const indexed = path.join(dir, 'hw-indexed.parquet')
    const plain = path.join(dir, 'hw-plain.parquet')
    const output = path.join(dir, 'hw-plain-indexed.parquet')
    await writeFile(indexed, new Uint8Array(parquetWriteBuffer({ codec: 'SNAPPY', rowGroupSize: 3000, pageSize: 2048, columnData: columnData(true) })))
    await writeFile(plain, new Uint8Array(parquetWriteBuffer({ codec: 'SNAPPY', rowGroupSize: 3000, pageSize: 2048, columnData: columnData(false) })))
    const result = await addIndexes(plain, output, { columns: ['id', 'key', 'd'], pageIndex: true })
    assert.equal(result.pageIndexes.length, 9)
    const { readColumnIndex, readOffsetIndex } = await import('hyparquet')
    const indexes = async (file) => {
      const bytes = await readFile(file)
      const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      const m = parquetMetadata(ab)
      return m.row_groups.map((rg) => rg.columns.map((c, k) => {
        const at = (o, l) => ({ view: new DataView(ab, Number(o), l), offset: 0 })
        const offsets = readOffsetIndex(at(c.offset_index_offset, c.offset_index_length))
        const ci = readColumnIndex(at(c.column_index_offset, c.column_index_length), m.schema[k + 1])
        const base = Number(c.meta_data.dictionary_page_offset ?? c.meta_data.data_page_offset)
        return {
          pages: offsets.page_locations.map((p) => ({ at: Number(p.offset) - base, size: p.compressed_page_size, first: p.first_row_index })),
          nullPages: ci.null_pages, min: ci.min_values, max: ci.max_values, nullCounts: ci.null_counts,
        }
      }))
    }
    const theirs = await indexes(indexed)
    const ours = await indexes(output)
    assert.ok(theirs[0][0].pages.length > 1, 'several pages per chunk')
    assert.deepEqual(ours, theirs)
    assert.deepEqual(await hyparquetRows(output), await hyparquetRows(plain))
    await assertSameRowsDuckDB(plain, output)
    await assertPrefixUnchanged(plain, output)
    // Probes read them: exact lookups through the OffsetIndex find the rows hyparquet has.
    await withFile(output, {}, async (file) => {
      const r = await file.probe('id', [300n, 8997n * 3n, 1n], { confirm: true })
      const rows = r.rowGroups.flatMap((g) => g.results.map((x, v) => [v, x.rows ?? []])).filter(([, list]) => list.length)
      assert.deepEqual(rows, [[0, [100]], [1, [8997]]])
    })
  })
})

describe('inspect --advise', () => {
  test('sorted columns are pruned by their statistics, shuffled ones only by a filter; the cost is what the filters would take', async () => {
    const { adviseIndexes } = await import('../../js/advice/advise.js')
    const input = path.join(dir, 'advise.parquet')
    // sorted: row i; shuffled: a permutation spread over every row group; few: 4 values in each row group.
    await duck.connection.run(`COPY (SELECT i::BIGINT AS sorted, ((i * 7919) % 40960)::BIGINT AS shuffled, (i % 4)::INTEGER AS few
      FROM range(40960) t(i)) TO '${input}' (FORMAT parquet, ROW_GROUP_SIZE 4096, DICTIONARY_SIZE_LIMIT 1)`)
    const advice = await withFile(input, {}, (file) => adviseIndexes(file, { sampleRowGroups: 5 }))
    const by = Object.fromEntries(advice.map((a) => [a.column, a]))
    assert.equal(by.sorted.sampledRowGroups, 5)
    assert.equal(by.sorted.prune.ideal, 1)
    assert.equal(by.sorted.prune.statistics, 1)
    assert.equal(by.shuffled.prune.ideal, 1)
    assert.ok(by.shuffled.prune.statistics < 0.05, `statistics prune ${by.shuffled.prune.statistics} of a permutation`)
    assert.ok(Math.abs(by.shuffled.prune.bloomFilter - 0.99) < 1e-9)
    assert.equal(by.few.prune.ideal, 0, 'every row group holds all four values')
    // Each row group's 4096 distinct values: the filter a writer sizes for them, in all 10 row groups.
    const perGroup = (BloomFilter.create({ ndv: 4096, fpp: 0.01 }))
    try {
      assert.ok(Math.abs(by.shuffled.filterBytes - 10 * (perGroup.numBytes + 15)) <= 10 * 8, `${by.shuffled.filterBytes} vs ${10 * perGroup.numBytes}`)
    } finally {
      perGroup.free()
    }
    const { stdout: text } = await runCli(['inspect', input, '--advise', '--fpp', '0.001'])
    assert.match(text, /shuffled\s+INT64\s+8\s+4096\s+100\.0%\s+\d\.\d%\s+99\.9%/)
  })
})
