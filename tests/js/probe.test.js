// openParquet + probe end to end: the parquet-testing conformance files, files written by DuckDB and
// hyparquet-writer at test time (0 false negatives over every stored value, in every mode), and the
// requests/bytes a probe costs over HTTP against a local counting server.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, memoryStats, openParquet } from '../../js/index.js'
import { fixturePath, missingFixture, PARQUET_TESTING_ABSENT, PARQUET_TESTING_PRESENT } from './helpers/fixtures.js'
import { startTestServer } from '../../testkit/range-server.js'
import { writeDuckdbSample, writeHyparquetSample } from '../../testkit/sample-files.js'
import { withFile } from './helpers/with-file.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const MODES = ['auto', 'filter', 'block']
const STATS_FILE = 'parquet-testing/data_index_bloom_encoding_stats.parquet'
const LENGTH_FILE = 'parquet-testing/data_index_bloom_encoding_with_length.parquet'
const ENCRYPTED_FILE = 'parquet-testing/encrypt_columns_and_footer_bloom_filter.parquet.encrypted'

const dir = await tempDir('probe')
let server
after(async () => {
  await server?.close()
})

const verdictsOf = (result, g = 0) => result.rowGroups[g].results.map((r) => r.verdict)

describe('parquet-testing conformance files', () => {
  for (const [name, offset, length] of [[STATS_FILE, 192, undefined], [LENGTH_FILE, 253, 2064]]) {
    test(`${path.basename(name)}: metadata, and every listed value in every mode and source kind`, { skip: missingFixture(name) }, async () => {
      const bytes = new Uint8Array(await readFile(fixturePath(name)))
      const sources = {
        path: fixturePath(name),
        buffer: bytes,
        blob: new Blob([bytes]),
        asyncBuffer: { byteLength: bytes.length, slice: async (s, e) => bytes.slice(s, e).buffer },
      }
      for (const [kind, source] of Object.entries(sources)) {
        for (const mode of MODES) {
          await withFile(source, {}, async (file) => {
            const [column] = file.metadata.rowGroups[0].columns
            assert.deepEqual(column.bloom, { offset, length }, kind)
            assert.equal(column.physicalType, 'BYTE_ARRAY')
            assert.deepEqual(column.logicalType, { type: 'STRING' })
            const result = await file.probe('String', [...PARQUET_TESTING_PRESENT, ...PARQUET_TESTING_ABSENT], { mode })
            const expected = [...PARQUET_TESTING_PRESENT.map(() => 'maybe'), ...PARQUET_TESTING_ABSENT.map(() => 'absent')]
            assert.deepEqual(verdictsOf(result), expected, `${kind} ${mode}`)
            // Absent values may be ruled out by the chunk's min/max already; the filter decides the rest.
            assert.ok(result.rowGroups[0].results.every((r) => r.source === 'bloom-filter' || (r.source === 'statistics' && r.verdict === 'absent')))
            const bloomOnly = await file.probe('String', [...PARQUET_TESTING_PRESENT, ...PARQUET_TESTING_ABSENT], { mode, statistics: false })
            assert.deepEqual(verdictsOf(bloomOnly), expected, `${kind} ${mode}, bloom filter only`)
            assert.ok(bloomOnly.rowGroups[0].results.every((r) => r.reason === 'bloom-filter' && r.source === 'bloom-filter'))
          })
        }
      }
    })
  }

  test('the encrypted-footer file opened without keys is refused with ENCRYPTION_KEY_REQUIRED', { skip: missingFixture(ENCRYPTED_FILE) }, async () => {
    await assert.rejects(openParquet(fixturePath(ENCRYPTED_FILE)),
      (e) => e.code === ErrorCode.ENCRYPTION_KEY_REQUIRED && e.message.includes('encrypted') && e.message.includes('.parquet.encrypted'))
  })

  test('over HTTP a small file costs exactly one request, footer and filter included', { skip: missingFixture(LENGTH_FILE) }, async () => {
    const local = await startTestServer({ root: path.dirname(fixturePath(LENGTH_FILE)) })
    try {
      await withFile(local.url(path.basename(LENGTH_FILE)), {}, async (file) => {
        const result = await file.probe('String', ['Hello', 'NOT_EXISTS'])
        assert.deepEqual(verdictsOf(result), ['maybe', 'absent'])
        assert.equal(file.stats.requests, 1)
      })
      assert.equal(local.stats.requests, 1)
    } finally {
      await local.close()
    }
  })
})

/** Probes every column that has filters with all its values and checks each row group's own values. */
async function assertNoFalseNegatives(sample, { modes = MODES } = {}) {
  const checked = []
  await withFile(sample.path, {}, async (file) => {
    for (const [name, { rowGroups }] of Object.entries(sample.columns)) {
      const hasFilters = file.metadata.rowGroups.every((g) => g.columns.find((c) => c.path === name)?.bloom)
      if (!hasFilters) continue
      checked.push(name)
      const entries = rowGroups.flatMap((group, g) => group.filter((e) => e.expect !== 'unknown').map((e) => ({ ...e, g })))
      const values = entries.map((e) => e.forms[0])
      for (const mode of modes) {
        const result = await file.probe(name, values, { mode })
        let foreign = 0
        let foreignMaybe = 0
        entries.forEach((e, i) => {
          for (const rg of result.rowGroups) {
            const { verdict, reason } = rg.results[i]
            if (rg.index === e.g) {
              assert.equal(verdict, 'maybe', `${sample.writer} ${name} ${mode}: ${e.key} stored in row group ${e.g} came back ${verdict} (${reason})`)
            } else if (!rowGroups[rg.index].some((o) => o.key === e.key)) {
              foreign++
              if (verdict === 'maybe') foreignMaybe++
            }
          }
        })
        // Values of other row groups must mostly be rejected: proof the encoding really matched.
        if (foreign > 50) assert.ok(foreignMaybe / foreign < 0.05, `${name} ${mode}: ${foreignMaybe}/${foreign} foreign values maybe`)
      }
    }
  })
  return checked
}

describe('files written by real writers', () => {
  test('DuckDB: every stored value is maybe in its row group, in every mode', async () => {
    const sample = await writeDuckdbSample(dir)
    assert.ok(sample.rowGroupRows.length >= 3)
    const checked = await assertNoFalseNegatives(sample)
    for (const c of ['ti', 'ii', 'bi', 'ubi', 'f', 'd', 's', 'n', 'dt', 'ts', 'tsns', 'tstz', 'd9', 'd18', 'u', 'bl']) {
      assert.ok(checked.includes(c), `expected DuckDB to write filters for ${c}; checked ${checked}`)
    }
  })

  test('hyparquet-writer: every stored value is maybe in its row group, in every mode', async () => {
    const sample = await writeHyparquetSample(dir)
    const checked = await assertNoFalseNegatives(sample)
    assert.ok(checked.length >= 8, `checked ${checked}`)
  })

  test('zero is probed as both +0.0 and -0.0, NaN is unknown, impossible values absent, bad kinds throw', async () => {
    const sample = await writeHyparquetSample(dir, { rows: 1000, rowGroupSize: 1000 })
    await withFile(sample.path, {}, async (file) => {
      // hyparquet-writer stored -0 (row 5); a user typing 0 must still find it.
      assert.deepEqual(verdictsOf(await file.probe('dbl', [0, -0, '0'])), ['maybe', 'maybe', 'maybe'])
      const r = (await file.probe('dbl', [NaN])).rowGroups[0].results[0]
      assert.equal(r.verdict, 'unknown')
      assert.match(r.reason, /^nan/)
      const notInt = (await file.probe('i32', [1.5])).rowGroups[0].results[0]
      assert.equal(notInt.verdict, 'absent')
      assert.match(notInt.reason, /^not-representable/)
      await assert.rejects(file.probe('i32', ['abc']), { code: ErrorCode.BAD_VALUE })
      await assert.rejects(file.probe('nope', [1]), { code: ErrorCode.COLUMN_NOT_FOUND })
      await assert.rejects(file.probe('i32', [1], { mode: 'fast' }), { code: ErrorCode.INVALID_ARGUMENT })
      const withNull = (await file.probe('str', [null])).rowGroups[0].results[0]
      assert.equal(withNull.verdict, 'unknown')
    })
  })
})

describe('a dotted path two leaves share', () => {
  test('a column named "a.b" beside a struct a with field b: the dotted path is refused, path segments pick one', async () => {
    const written = path.join(dir, 'dotted-names.parquet')
    let truth
    await withDuckDB(async (conn) => {
      await conn.run(`COPY (SELECT i AS "a.b", {'b': i + 1000} AS a FROM range(100) t(i)) TO '${written}' (FORMAT parquet)`)
      truth = (await conn.runAndReadAll(`SELECT count(*)::INT AS n FROM '${written}' WHERE a.b = 1050`)).getRowObjects()[0].n
    })
    assert.equal(truth, 1, 'DuckDB finds 1050 in a.b')
    await withFile(written, {}, async (file) => {
      // Either leaf answering alone would say 'absent' for a value the other holds.
      await assert.rejects(file.probe('a.b', [1050, 50]), (e) => e.code === ErrorCode.INVALID_ARGUMENT && /\["a","b"\]/.test(e.message))
      assert.deepEqual(verdictsOf(await file.probe(['a', 'b'], [1050, 50])), ['maybe', 'absent'])
      assert.deepEqual(verdictsOf(await file.probe(['a.b'], [1050, 50])), ['absent', 'maybe'])
    })
  })
})

describe('reading only what is needed, over HTTP', () => {
  let big
  before(async () => {
    // 20 row groups of distinct BIGINTs: ~32 KB filters, most of them outside the 64 KiB tail read.
    big = path.join(dir, 'many-row-groups.parquet')
    await withDuckDB(async (conn) => {
      await conn.run(`COPY (SELECT i::BIGINT AS id, (i % 7)::INTEGER AS small FROM range(20 * 16384) t(i)) TO '${big}'
        (FORMAT parquet, ROW_GROUP_SIZE 16384, DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
    })
    server ??= await startTestServer({ root: dir })
  })

  async function probeOverHttp(values, options) {
    server.resetStats()
    return withFile(server.url('many-row-groups.parquet'), {}, async (file) => {
      const footerRequests = file.stats.requests
      const footerBytes = file.stats.bytesFetched
      // These tests measure bloom filter reads: statistics (which rule out most row groups of this
      // sorted file at no cost) are off unless a test turns them on.
      const result = await file.probe('id', values, { statistics: false, ...options })
      const filters = file.metadata.rowGroups.map((g) => g.columns[0].bloom)
      return { file, result, footerRequests, footerBytes, stats: file.stats, filters, server: { ...server.stats } }
    })
  }

  test('opening costs one request (the tail), and every filter location is known', async () => {
    const { footerRequests, filters } = await probeOverHttp([1])
    assert.equal(footerRequests, 1)
    assert.equal(filters.length, 20)
    assert.ok(filters.every((f) => f && f.length > 0))
  })

  test('block mode, one value: about one header + one block per row group, answered right', async () => {
    const run = await probeOverHttp([16384 * 7 + 5], { mode: 'block', coalesceGap: 0 })
    const R = run.filters.length
    const inTail = run.filters.filter((f) => f.offset >= run.file.fileSize - 65536).length
    const expectedMax = run.footerBytes + (R - inTail) * (20 + 32)
    assert.ok(run.stats.bytesFetched <= expectedMax, `block mode read ${run.stats.bytesFetched} > ${expectedMax}`)
    assert.ok(run.stats.requests - run.footerRequests <= 2 * (R - inTail), `requests ${run.stats.requests}`)
    assert.equal(run.server.requests, run.stats.requests)
    assert.equal(run.result.rowGroups[7].results[0].verdict, 'maybe')
    const absentElsewhere = run.result.rowGroups.filter((g) => g.index !== 7 && g.results[0].verdict === 'absent').length
    assert.ok(absentElsewhere >= R - 3, `only ${absentElsewhere} of ${R - 1} other row groups rejected the value`)
  })

  test('statistics rule out the other row groups of a sorted file at no cost beyond the footer', async () => {
    const value = 16384 * 7 + 5
    const run = await probeOverHttp([value, -1, 20 * 16384], { statistics: true })
    // One wave for the one row group the value may be in: its filter's header and block, at once.
    assert.equal(run.stats.rounds, run.footerRequests + 1, 'one round of bloom filter reads')
    assert.ok(run.stats.requests <= run.footerRequests + 2, `${run.stats.requests} requests`)
    for (const g of run.result.rowGroups) {
      const [hit, below, above] = g.results
      if (g.index === 7) assert.deepEqual([hit.verdict, hit.source], ['maybe', 'bloom-filter'])
      else assert.deepEqual([hit.verdict, hit.source, hit.reason], ['absent', 'statistics', 'out-of-range'], `row group ${g.index}`)
      for (const r of [below, above]) assert.deepEqual([r.verdict, r.source, r.reason], ['absent', 'statistics', 'out-of-range'])
    }
    const none = await probeOverHttp([-1, 20 * 16384], { statistics: true })
    assert.equal(none.stats.requests, none.footerRequests, 'values outside every row group cost no request')
  })

  test('filter mode reads whole filters, coalesced into few requests', async () => {
    const run = await probeOverHttp([5, 16384 * 3 + 1], { mode: 'filter' })
    const total = run.filters.reduce((s, f) => s + f.length, 0)
    assert.ok(run.stats.bytesFetched >= total - 65536, 'filters must have been read')
    assert.ok(run.stats.bytesFetched <= run.footerBytes + total + 16 * 1024, `read ${run.stats.bytesFetched}`)
    assert.ok(run.stats.requests <= run.footerRequests + 3, `filter mode took ${run.stats.requests} requests`)
    assert.equal(run.result.rowGroups[0].results[0].verdict, 'maybe')
    assert.equal(run.result.rowGroups[3].results[1].verdict, 'maybe')
  })

  test('auto picks blocks for a few values and whole filters for many', async () => {
    const few = await probeOverHttp([123], { mode: 'auto' })
    const fewBlock = await probeOverHttp([123], { mode: 'block' })
    assert.equal(few.stats.bytesFetched, fewBlock.stats.bytesFetched)
    const many = Array.from({ length: 3000 }, (_, i) => i * 97)
    const manyAuto = await probeOverHttp(many, { mode: 'auto' })
    const manyFilter = await probeOverHttp(many, { mode: 'filter' })
    assert.ok(manyAuto.stats.requests <= manyFilter.stats.requests + 2, `auto ${manyAuto.stats.requests} requests vs filter ${manyFilter.stats.requests}`)
    for (const run of [manyAuto, manyFilter]) {
      many.forEach((v, i) => assert.equal(run.result.rowGroups[Math.floor(v / 16384)].results[i].verdict, 'maybe', `value ${v}`))
    }
  })

  test('a server that ignores Range still works for a small file; 404 is FILE_NOT_FOUND with its status', { skip: missingFixture(LENGTH_FILE) }, async () => {
    const local = await startTestServer({ root: path.dirname(fixturePath(LENGTH_FILE)) })
    try {
      local.setMode('ignore-range')
      const url = local.url(path.basename(LENGTH_FILE))
      await withFile(url, {}, async (file) => {
        assert.deepEqual(verdictsOf(await file.probe('String', ['Hello', 'NOT_EXISTS'])), ['maybe', 'absent'])
      })
      local.setMode()
      await assert.rejects(openParquet(local.url('missing.parquet')), (e) => e.code === ErrorCode.FILE_NOT_FOUND && e.status === 404)
    } finally {
      await local.close()
    }
  })

  test('an aborted probe rejects with ABORTED', async () => {
    await withFile(server.url('many-row-groups.parquet'), {}, async (file) => {
      const controller = new AbortController()
      controller.abort()
      await assert.rejects(file.probe('id', [1], { mode: 'filter', signal: controller.signal }), { code: ErrorCode.ABORTED })
      // The same file object still answers afterwards.
      assert.equal((await file.probe('id', [1])).rowGroups[0].results[0].verdict, 'maybe')
    })
  })
})

describe('visit-scoped filters', () => {
  test('a filter lives for its visit only, and its memory goes back to the pool', { skip: missingFixture(LENGTH_FILE) }, async () => {
    await withFile(fixturePath(LENGTH_FILE), {}, async (file) => {
      // Warm-up: the first batch call takes the core's per-module hashing scratch for good.
      await file.visitBloomFilter(0, 'String', (filter) => filter.check(['x'], 'BYTE_ARRAY'))
      const before = memoryStats().poolInUseBytes
      let kept
      const answer = await file.visitBloomFilter(0, 'String', (filter) => {
        kept = filter
        assert.equal(filter.numBytes, 2048)
        assert.ok(memoryStats().poolInUseBytes >= before + 2048)
        return [...filter.check(['Hello', 'NOT_EXISTS'], 'BYTE_ARRAY')]
      })
      assert.deepEqual(answer, [1, 0])
      assert.equal(memoryStats().poolInUseBytes, before)
      assert.throws(() => kept.check(['Hello'], 'BYTE_ARRAY'), (e) => e.code === ErrorCode.FILTER_RELEASED && /visit/.test(e.message))

      // A throwing (or async) visit releases too.
      await assert.rejects(file.visitBloomFilter(0, 'String', async () => { throw new Error('boom') }), /boom/)
      assert.equal(memoryStats().poolInUseBytes, before)

      const owned = await file.getBloomFilter(0, 'String')
      try {
        assert.equal(owned.mightContain('today', 'BYTE_ARRAY'), true)
      } finally {
        owned.free()
      }
      assert.equal(memoryStats().poolInUseBytes, before)
    })
  })

  test('a chunk without a filter: maybe from its statistics, unknown without them, NO_BLOOM_FILTER for visits', async () => {
    const sample = await writeDuckdbSample(dir, { rows: 2048, rowGroupSize: 2048 })
    await withFile(sample.path, {}, async (file) => {
      const boolean = file.metadata.rowGroups[0].columns.find((c) => c.path === 'b')
      assert.equal(boolean.bloom, null)
      const r = (await file.probe('b', [true])).rowGroups[0].results[0]
      assert.deepEqual([r.verdict, r.source, r.reason], ['maybe', 'statistics', 'in-range'])
      const blind = (await file.probe('b', [true], { statistics: false })).rowGroups[0].results[0]
      assert.deepEqual([blind.verdict, blind.source, blind.reason], ['unknown', null, 'no-index'])
      await assert.rejects(file.visitBloomFilter(0, 'b', () => 1), { code: ErrorCode.NO_BLOOM_FILTER })
    })
  })
})
