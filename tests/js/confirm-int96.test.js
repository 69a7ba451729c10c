// INT96 values whose nanoseconds of the day are negative: Spark writes them past year ~287,566, where its int64
// Julian microseconds wrap (int96_from_spark.parquet's 290000-12-31T01:00+02:00, its .md's microseconds since the
// epoch 9089380393200000000), and before 4713 BC. Spark's bytes for that instant (composed here as Spark's
// DateTimeUtils.toJulianDay computes them, and found in the fixture) put into a PLAIN INT96 page of
// alltypes_plain.parquet: an exact lookup finds that instant at its row, and no other instant there. Point lookups give
// each instant of the fixture as its .md lists it (past a Date: the nanoseconds, a bigint), as DuckDB reads the others.
import assert from 'node:assert/strict'
import { before, test } from 'node:test'

import { init, openParquet } from '../../js/index.js'
import { fixturePath, missingFixture, readFixture } from './helpers/fixtures.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { int96Bytes } from './helpers/int96-bytes.js'

const SPARK = 'parquet-testing/int96_from_spark.parquet'
const PLAIN = 'parquet-testing/alltypes_plain.parquet'
const MICROS_PER_DAY = 86_400_000_000n
/** 290000-12-30T23:00:00Z, as int96_from_spark.md lists it (µs since the epoch). */
const FAR = 9089380393200000000n

const skip = missingFixture(SPARK) || missingFixture(PLAIN)
let edited
before(async () => {
  if (skip) return
  await init()
  const far = int96Bytes(FAR, { spark: true })
  assert.ok(new DataView(far.buffer).getBigInt64(0, true) < 0n, 'Spark\'s nanoseconds of the day are negative')
  assert.ok(Buffer.from(readFixture(SPARK)).indexOf(far) >= 0, 'the bytes Spark wrote for it')
  // alltypes_plain.parquet: PLAIN INT96 timestamp_col, id 6 at row 2 holding 2009-04-01T00:00:00Z.
  edited = new Uint8Array(readFixture(PLAIN))
  const at = Buffer.from(edited).indexOf(int96Bytes(BigInt(Date.UTC(2009, 3, 1)) * 1000n))
  assert.ok(at > 0)
  edited.set(far, at)
})

test('confirm on a PLAIN INT96 page: Spark\'s wrapped 290000-12-30 is found at its row, a day or years after it is not', { skip },
  async () => {
    const file = await openParquet(edited)
    try {
      const days = [0n, 365n, 36524n, 1n]
      const { rowGroups } = await file.probe('timestamp_col', days.map((d) => (FAR + d * MICROS_PER_DAY) * 1000n), { confirm: true })
      const [found, ...others] = rowGroups[0].results
      assert.deepEqual([found.verdict, found.rows], ['present', [2]])
      // Their bytes share the stored value's negative nanoseconds of the day, on other days: was present at row 2.
      for (const r of others) assert.notEqual(r.verdict, 'present', `${r.value} ns: ${r.reason} ${JSON.stringify(r.rows)}`)
    } finally {
      await file.close()
    }
  })

test('point lookups of int96_from_spark.parquet: each instant as its .md lists it; the one past a Date as its nanoseconds', { skip },
  async () => {
    // The .md's microseconds since the epoch, row by row (row 4 is null); DuckDB reads the first four alike.
    const listed = [1704141296123456n, 1704070800000000n, 253402225200000000n, 1735599600000000n, null, FAR]
    const duck = await withDuckDB(async (c) => (await c.runAndReadAll(`SELECT epoch_us(a) FROM '${fixturePath(SPARK)}'`)).getRows())
    assert.deepEqual(duck.slice(0, 4).map(([us]) => us), listed.slice(0, 4))
    const file = await openParquet(readFixture(SPARK))
    try {
      const asked = listed.filter((us) => us !== null)
      const { rowGroups } = await file.probe('a', asked.map((us) => us * 1000n), { confirm: true, columns: ['a'] })
      const got = rowGroups[0].results.map((r) => [r.rows, r.values?.[0]?.a])
      assert.deepEqual(got, [[[0], new Date(1704141296123)], [[1], new Date(1704070800000)], [[2], new Date(253402225200000)],
        [[3], new Date(1735599600000)], [[5], FAR * 1000n]])
    } finally {
      await file.close()
    }
    // The PLAIN page's row alike.
    const edit = await openParquet(edited)
    try {
      const { rowGroups } = await edit.probe('timestamp_col', [FAR * 1000n], { confirm: true, columns: ['id', 'timestamp_col'] })
      assert.deepEqual(rowGroups[0].results[0].values, [{ id: 6, timestamp_col: FAR * 1000n }])
    } finally {
      await edit.close()
    }
  })

