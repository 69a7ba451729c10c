// addIndexes on INT96 and BOOLEAN columns: each value is hashed as its PLAIN bytes (12 for INT96, one byte
// 0/1 for BOOLEAN). Checked against other code: the INT96 bytes of every timestamp DuckDB reads are composed
// here (Julian day, nanoseconds of the day) and found in the new filters by hyparquet's SBBF and XXH64;
// DuckDB's filtered scans return the same rows from the copy; hyparquet's own hash of a boolean and DuckDB's
// parquet_bloom_probe agree with the BOOLEAN filters on present and absent values.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { hashParquetValue, readBloomFilter, sbbfContains } from 'hyparquet/src/bloom.js'

import { init, openParquet } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { referenceHash } from '../../testkit/reference-sbbf.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { int96Bytes } from './helpers/int96-bytes.js'

const dir = await tempDir('index-add-types')
before(async () => { await init() })

/** The filter at `added` in the copy, read by hyparquet. */
async function filterOf(output, added) {
  const bytes = new Uint8Array(await readFile(output))
  const region = bytes.slice(added.offset, added.offset + added.length)
  const filter = readBloomFilter({ view: new DataView(region.buffer), offset: 0 })
  assert.ok(filter, 'hyparquet reads the new filter')
  return filter
}

describe('addIndexes: INT96 columns (12-byte values)', () => {
  for (const name of ['alltypes_plain.parquet', 'alltypes_dictionary.parquet', 'alltypes_plain.snappy.parquet']) {
    const relative = `parquet-testing/${name}`
    test(`${name}: every timestamp DuckDB reads is in the new filters (hyparquet's SBBF over the INT96 bytes); DuckDB's filtered scans agree`, { skip: missingFixture(relative) }, async () => {
      const input = fixturePath(relative)
      const output = path.join(dir, `${name}.indexed`)
      const result = await addIndexes(input, output, { columns: ['timestamp_col'] })
      assert.deepEqual(result.skipped, [])
      assert.ok(result.added.length >= 1)
      await withDuckDB(async (connection) => {
        const rows = async (sql) => (await connection.runAndReadAll(sql)).getRows()
        const stored = (await rows(`SELECT DISTINCT epoch_us(timestamp_col), timestamp_col::VARCHAR FROM read_parquet('${input}') WHERE timestamp_col IS NOT NULL`))
        assert.ok(stored.length > 0)
        for (const added of result.added) {
          const filter = await filterOf(output, added)
          const missing = stored.filter(([micros]) => !sbbfContains(filter.blocks, referenceHash(int96Bytes(micros), 'INT96')))
          assert.deepEqual(missing, [], 'every stored timestamp is in the filter')
        }
        // DuckDB reads INT96 into its TIMESTAMP; its filtered scans of the copy return what they return from the file.
        for (const [, text] of stored) {
          const where = `WHERE timestamp_col = '${text}'::TIMESTAMP`
          assert.deepEqual(await rows(`SELECT count(*) FROM read_parquet('${output}') ${where}`), await rows(`SELECT count(*) FROM read_parquet('${input}') ${where}`))
        }
        const file = await openParquet(output)
        try {
          const found = await file.probe('timestamp_col', stored.map(([, text]) => text), { statistics: false })
          assert.ok(found.rowGroups.every((g) => g.results.every((r) => r.verdict !== 'absent' && r.source === 'bloom-filter')), 'our probe finds every stored timestamp through the new filter')
          // Nanoseconds (bigints) are exact; a Date or text stands for its microsecond's 1000 nanoseconds, which DuckDB reads
          // alike, so the filter never rules it out.
          const hours = Array.from({ length: 200 }, (_, i) => Date.UTC(2015, 0, 1) + i * 3_600_000)
          const ruledOut = await file.probe('timestamp_col', hours.map((ms) => BigInt(ms) * 1_000_000n), { statistics: false })
          const share = ruledOut.rowGroups[0].results.filter((r) => r.verdict === 'absent').length / hours.length
          assert.ok(share >= 0.95, `${share} of absent timestamps ruled out`)
          const asDates = await file.probe('timestamp_col', hours.slice(0, 5).map((ms) => new Date(ms)), { statistics: false })
          assert.ok(asDates.rowGroups[0].results.every((r) => r.verdict === 'maybe'))
        } finally {
          await file.close()
        }
      })
    })
  }

  test('int96_from_spark.parquet: instants past the int64-nanosecond range (whose bytes hyparquet\'s bigint form cannot keep) are in the filter', { skip: missingFixture('parquet-testing/int96_from_spark.parquet') }, async () => {
    const input = fixturePath('parquet-testing/int96_from_spark.parquet')
    const output = path.join(dir, 'int96_from_spark.indexed')
    const result = await addIndexes(input, output, { columns: ['a'] })
    assert.deepEqual(result.skipped, [])
    const filter = await filterOf(output, result.added[0])
    // The values int96_from_spark.md documents, as microseconds since the epoch.
    const documented = [1704141296123456n, 1704070800000000n, 253402225200000000n, 1735599600000000n, 9089380393200000000n]
    const missing = documented.filter((micros) => !sbbfContains(filter.blocks, referenceHash(int96Bytes(micros, { spark: true }), 'INT96')))
    assert.deepEqual(missing, [], 'every documented instant is in the filter, as Spark wrote its bytes')
    const file = await openParquet(output)
    try {
      const probed = await file.probe('a', documented.map((micros) => int96Bytes(micros, { spark: true })), { statistics: false })
      assert.ok(probed.rowGroups[0].results.every((r) => r.verdict !== 'absent'))
    } finally {
      await file.close()
    }
  })
})

describe('addIndexes: BOOLEAN columns (one byte 0/1)', () => {
  test('a row group of only true and one of both: hyparquet\'s hash and DuckDB\'s parquet_bloom_probe agree with the new filters', async () => {
    await withDuckDB(async (connection) => {
      const input = path.join(dir, 'booleans.parquet')
      const output = path.join(dir, 'booleans-indexed.parquet')
      await connection.run(`COPY (SELECT i < 2048 OR i % 3 = 0 AS flag FROM range(4096) t(i)) TO '${input}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`)
      const result = await addIndexes(input, output, { columns: ['flag'] })
      assert.equal(result.added.length, 2)
      const element = { type: 'BOOLEAN' }
      const hyparquetSays = []
      for (const added of result.added) {
        const filter = await filterOf(output, added)
        hyparquetSays[added.rowGroup] = [true, false].map((v) => sbbfContains(filter.blocks, hashParquetValue(v, element)))
      }
      // Row group 0 holds only true; row group 1 both.
      assert.deepEqual(hyparquetSays, [[true, false], [true, true]])
      // DuckDB's probe never excludes a stored value (it does not rule booleans out by filters at all).
      const probe = async (value) => (await connection.runAndReadAll(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${output}', 'flag', ${value}) ORDER BY row_group_id`)).getRows()
      assert.deepEqual(await probe('true'), [[0n, false], [1n, false]])
      assert.equal((await probe('false'))[1][1], false)
      const file = await openParquet(output)
      try {
        const ours = await file.probe('flag', [true, false], { statistics: false })
        assert.deepEqual(ours.rowGroups.map((g) => g.results.map((r) => r.verdict !== 'absent')), hyparquetSays, 'our probe answers as hyparquet\'s check of the filters')
        assert.ok(ours.rowGroups.every((g) => g.results.every((r) => r.source === 'bloom-filter')))
      } finally {
        await file.close()
      }
    })
  })
})
