// INT96 timestamps stored at nanoseconds (Impala, pyarrow's use_deprecated_int96_timestamps with nanosecond data) probed
// with text or Dates, against DuckDB's rows: DuckDB reads INT96 as TIMESTAMP (microseconds, the stored nanoseconds
// dropped) and the text at microseconds, so `ts = '….123456'` finds a stored ….123456789. The bloom filter and the
// dictionary hold the exact 12 bytes: such a value must never be `absent` from them (it was), and confirm finds DuckDB's
// rows. A bigint is nanoseconds exactly. TIMESTAMP(NANOS) is not concerned: DuckDB reads it as TIMESTAMP_NS and compares
// the text's nanoseconds exactly (checked below).
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { init, openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { columnMetaData, parseParquet, rebuild } from '../../testkit/file-surgery.js'
import { getField, removeField, setField, T } from '../../testkit/thrift-writer.js'
import { openDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { duckdb14 } from './helpers/duckdb14.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'

const dir = await tempDir('int96-nanoseconds')
/** @type {Awaited<ReturnType<typeof openDuckDB>>} */
let duck
const count = async (/** @type {string} */ sql) => Number((await duck.connection.runAndReadAll(sql)).getRows()[0][0])

before(async () => {
  await init()
  duck = await openDuckDB()
  await duck.connection.run("SET TimeZone = 'UTC'")
})
after(() => duck?.close())

const NANOS_PER_DAY = 86_400_000_000_000n

/** An instant (ns since the epoch) as the INT96 writers store it: nanoseconds of day (LE int64), Julian day (LE int32). */
function int96(/** @type {bigint} */ nanos) {
  const julian = nanos + 2_440_588n * NANOS_PER_DAY
  const day = julian / NANOS_PER_DAY - (julian % NANOS_PER_DAY < 0n ? 1n : 0n)
  const bytes = new Uint8Array(12)
  const view = new DataView(bytes.buffer)
  view.setBigInt64(0, julian - day * NANOS_PER_DAY, true)
  view.setInt32(8, Number(day), true)
  return bytes
}

// 2024-01-02 03:04:05.123456 and around it, with nanoseconds; one before the epoch.
const AT = 1_704_164_645_123_456_000n
const STORED = [AT + 789n, AT + 1000n, AT - 999n, 1_704_164_645_000_000_001n, 1_704_164_645_123_000_500n, -500n]

/**
 * A file of one INT96 column holding STORED, written by hyparquet-writer as FIXED_LEN_BYTE_ARRAY(12) (the same PLAIN
 * bytes, hashed alike by its bloom filter) and retyped INT96 in the footer, its statistics removed (INT96 has no order).
 * @param {string} name
 * @param {{ bloomFilter: boolean, encoding: 'PLAIN' | 'RLE_DICTIONARY' }} options
 */
async function writeInt96File(name, { bloomFilter, encoding }) {
  const written = new Uint8Array(parquetWriteBuffer({
    columnData: [{ name: 'ts', data: STORED.map(int96), bloomFilter, encoding }],
    schema: [{ name: 'root', num_children: 1 }, { name: 'ts', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 12, repetition_type: 'OPTIONAL' }],
  }))
  const bytes = rebuild(parseParquet(written), (meta) => {
    const element = getField(meta, 2).value.items[1]
    setField(element, 1, T.I32, 3) // INT96
    removeField(element, 2) // type_length
    setField(columnMetaData(meta, 0, 0), 1, T.I32, 3)
    removeField(columnMetaData(meta, 0, 0), 12) // statistics
  })
  const at = path.join(dir, name)
  await writeFile(at, bytes)
  return at
}

// Text at every precision, with and without an offset (which DuckDB's cast to TIMESTAMP ignores; the probe also reads
// the instant, as Spark does: not compared here); Dates (DuckDB's TIMESTAMPTZ of the instant, in UTC).
const TEXT = [
  '2024-01-02 03:04:05.123456', '2024-01-02T03:04:05.123456Z', '2024-01-02 03:04:05.123456+02:00', '2024-01-02 03:04:05.123456-05',
  '2024-01-02 03:04:05.123456789', '2024-01-02 03:04:05.123456001', '2024-01-02 03:04:05.1234561', '2024-01-02 03:04:05.123455',
  '2024-01-02 03:04:05.123457', '2024-01-02 03:04:05.123', '2024-01-02 03:04:05', '2024-01-02 03:04:05.123458',
  '2024-01-02 03:04:05.999', '1969-12-31 23:59:59.999999', '1970-01-01 00:00:00',
]
const DATES = [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123)), new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), new Date(Date.UTC(2024, 0, 2, 3, 4, 6))]
const VALUES = [...TEXT, ...DATES]
const literal = (/** @type {string | Date} */ v) => (v instanceof Date ? `TIMESTAMPTZ '${v.toISOString()}'` : `'${v}'`)

/** DuckDB's row count for `ts = value`, per value. @param {string} file */
const duckCounts = (file) => Promise.all(VALUES.map((v) => count(`SELECT count(*) FROM '${file}' WHERE ts = ${literal(v)}`)))

/** @param {string} file @param {unknown[]} values @param {object} [options] @param {string} [column] */
async function probe(file, values, options, column = 'ts') {
  const f = await openParquet(file)
  try {
    return (await f.probe(column, values, options)).rowGroups[0].results
  } finally {
    await f.close()
  }
}

/** Runs fn with the process in another time zone (the probe's local readings), restored after. */
async function inTimeZone(/** @type {string} */ tz, /** @type {() => Promise<void>} */ fn) {
  const saved = process.env.TZ
  process.env.TZ = tz
  try {
    await fn()
  } finally {
    if (saved === undefined) delete process.env.TZ
    else process.env.TZ = saved
  }
}

describe('INT96 stored at nanoseconds, probed at coarser precision', () => {
  test('DuckDB (1.5 and 1.4) reads INT96 at microseconds: text finds the nanoseconds of its microsecond', async () => {
    const file = await writeInt96File('truth.parquet', { bloomFilter: false, encoding: 'PLAIN' })
    const counts = await duckCounts(file)
    // Found: the microseconds of the stored values; not: .123458, .999, 03:04:06.
    // Found: each stored value's microsecond, typed to the second, millisecond, microsecond or nanosecond (….123456001 finds
    // ….123456789: both are ….123456 to DuckDB); not: .123458, .999, 1970-01-01, 03:04:06.
    assert.deepEqual(counts, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 0])
    const old = await duckdb14({ statements: ["SET TimeZone = 'UTC'"],
      queries: VALUES.map((v) => `SELECT count(*)::INTEGER AS n FROM '${file}' WHERE ts = ${literal(v)}`) })
    assert.deepEqual(old.results.map((rows) => rows[0].n), counts, old.version)
  })

  for (const [kind, options] of [['bloom filter', { bloomFilter: true, encoding: 'PLAIN' }],
    ['dictionary', { bloomFilter: false, encoding: 'RLE_DICTIONARY' }]]) {
    test(`${kind}: never absent where DuckDB finds rows; confirm finds DuckDB's rows (UTC and America/New_York)`, async () => {
      const file = await writeInt96File(`${kind.replace(' ', '-')}.parquet`, /** @type {any} */ (options))
      const counts = await duckCounts(file)
      for (const tz of ['UTC', 'America/New_York']) {
        await inTimeZone(tz, async () => {
          const results = await probe(file, VALUES)
          results.forEach((r, i) => {
            if (!counts[i]) return
            assert.notEqual(r.verdict, 'absent', `${tz}: ${String(VALUES[i])}: ${r.detail}`)
            if (kind === 'bloom filter') assert.equal(r.verdict, 'maybe') // the filter cannot rule out 1000 nanoseconds
          })
          const confirmed = await probe(file, VALUES, { confirm: true, columns: ['ts'] })
          const found = confirmed.map((r) => r.rows?.length ?? (r.source === 'dictionary' ? 0 : -1)) // (absent from it: no rows)
          assert.deepEqual(found, counts, `${tz}: ${JSON.stringify(confirmed)}`)
          assert.deepEqual(confirmed.map((r) => r.verdict), counts.map((n) => (n ? 'present' : 'absent')), tz)
          assert.deepEqual(confirmed.map((r) => r.values?.length ?? 0), counts, 'point lookups return the rows found')
        })
      }
    })
  }

  test('a bigint is nanoseconds exactly: the bloom filter and confirm match the stored bytes only', async () => {
    const file = await writeInt96File('exact.parquet', { bloomFilter: true, encoding: 'PLAIN' })
    const results = await probe(file, [AT + 789n, AT + 788n, -500n, -501n], { confirm: true })
    assert.deepEqual(results.map((r) => r.verdict), ['present', 'absent', 'present', 'absent'])
    assert.deepEqual(results.map((r) => r.source), ['data-pages', 'bloom-filter', 'data-pages', 'bloom-filter'])
  })

  test('confirm: text and the bigint of the same stored value, probed together, both find its row (text was absent)', async () => {
    for (const encoding of /** @type {const} */ (['PLAIN', 'RLE_DICTIONARY'])) {
      const file = await writeInt96File(`together-${encoding}.parquet`, { bloomFilter: false, encoding })
      const text = '2024-01-02 03:04:05.123456'
      assert.equal(await count(`SELECT count(*) FROM '${file}' WHERE ts = '${text}'`), 1)
      const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123)) // DuckDB's row 4, ….123000500
      const results = await probe(file, [text, AT + 789n, date, 1_704_164_645_123_000_500n, AT + 788n], { confirm: true })
      assert.deepEqual(results.map((r) => [r.verdict, r.rows ?? []]),
        [['present', [0]], ['present', [0]], ['present', [4]], ['present', [4]], ['absent', []]], encoding)
    }
  })

  for (const format of [1, 2]) {
    test(`sidecar index (format ${format}): never absent where DuckDB finds rows`, async () => {
      const file = await writeInt96File(`sidecar-${format}.parquet`, { bloomFilter: false, encoding: 'PLAIN' })
      const counts = await duckCounts(file)
      const indexPath = path.join(dir, `sidecar-${format}.puffin`)
      await buildSidecarIndex([file], indexPath, { columns: ['ts'], format, base: dir })
      const index = await openSidecarIndex(indexPath, { base: dir })
      try {
        const { files } = await index.probe('ts', [...VALUES, AT + 788n])
        const results = files[0].rowGroups[0].results
        counts.forEach((n, i) => { if (n) assert.notEqual(results[i].verdict, 'absent', `${String(VALUES[i])}: ${results[i].detail}`) })
        assert.equal(results[VALUES.length].verdict, 'absent', 'a bigint is still ruled out by the filter')
      } finally {
        await index.close()
      }
    })
  }

  test('dictionary: text and Dates no stored value\'s microsecond (as DuckDB reads it) equals are absent; the others are not', async () => {
    const file = await writeInt96File('dictionary-absent.parquet', { bloomFilter: false, encoding: 'RLE_DICTIONARY' })
    const counts = await duckCounts(file)
    await inTimeZone('UTC', async () => {
      const results = await probe(file, VALUES)
      assert.deepEqual(results.map((r) => (r.verdict === 'absent' ? `absent (${r.source})` : 'not absent')),
        counts.map((n) => (n ? 'not absent' : 'absent (dictionary)')))
    })
  })

  test('int96_from_spark.parquet (a dictionary): text and Dates DuckDB finds no row for are absent, from the dictionary',
    { skip: missingFixture('parquet-testing/int96_from_spark.parquet') }, async () => {
      const file = fixturePath('parquet-testing/int96_from_spark.parquet')
      const rows = await duck.connection.runAndReadAll(`SELECT DISTINCT (a + INTERVAL 1 MICROSECOND)::VARCHAR,
        (a - INTERVAL 1 SECOND)::VARCHAR, epoch_ms(a) + 1 FROM '${file}' WHERE a IS NOT NULL AND a::VARCHAR NOT LIKE '%BC%'`)
      const values = rows.getRows().flatMap(([a, b, ms]) => [String(a), String(b), new Date(Number(ms))])
      const counts = await Promise.all(values.map((v) => count(`SELECT count(*) FROM '${file}' WHERE a = ${literal(v)}`)))
      assert.ok(values.length >= 12 && counts.every((n) => n === 0), JSON.stringify(counts))
      await inTimeZone('UTC', async () => {
        const results = await probe(file, values, undefined, 'a')
        assert.deepEqual(results.map((r) => `${r.verdict} (${r.source})`), values.map(() => 'absent (dictionary)'))
      })
    })

  test('int96_from_spark.parquet (microseconds): DuckDB\'s rows for its values at each precision are never absent, and confirmed',
    { skip: missingFixture('parquet-testing/int96_from_spark.parquet') }, async () => {
      const file = fixturePath('parquet-testing/int96_from_spark.parquet')
      // (Not the year-290000 value, which DuckDB reads as a BC date it prints as text the probe does not parse.)
      const stored = (await duck.connection.runAndReadAll(`SELECT DISTINCT a::VARCHAR FROM '${file}' WHERE a IS NOT NULL`)).getRows()
        .map(([text]) => String(text)).filter((text) => !text.includes('BC'))
      // Each as DuckDB prints it, with nanosecond digits, and to the second.
      const values = stored.flatMap((text) => [text, text.includes('.') ? `${text}789` : `${text}.000000789`, text.replace(/\.\d+$/, '')])
      const counts = await Promise.all(values.map((v) => count(`SELECT count(*) FROM '${file}' WHERE a = '${v}'`)))
      assert.ok(counts.some((n) => n > 0))
      const f = await openParquet(file)
      try {
        const plain = (await f.probe('a', values)).rowGroups.flatMap((g) => g.results)
        plain.forEach((r, i) => { if (counts[i % values.length]) assert.notEqual(r.verdict, 'absent', `${values[i % values.length]}: ${r.detail}`) })
        const confirmed = (await f.probe('a', values, { confirm: true })).rowGroups[0].results
        assert.deepEqual(confirmed.map((r) => r.rows?.length ?? 0), counts)
      } finally {
        await f.close()
      }
    })

  test('int96_from_spark.parquet: text for year 290000 (bytes Spark wrapped: a day hyparquet\'s bigint loses) is confirmed with its row',
    { skip: missingFixture('parquet-testing/int96_from_spark.parquet') }, async () => {
      // The truth is the fixture's description (int96_from_spark.md: row 5 is 290000-12-31T01:00:00+02:00); DuckDB reads
      // those bytes as another instant, a BC date.
      const results = await probe(fixturePath('parquet-testing/int96_from_spark.parquet'), ['290000-12-31 01:00:00+02:00'],
        { confirm: true }, 'a')
      assert.deepEqual(results.map((r) => [r.verdict, r.source, r.rows]), [['present', 'data-pages', [5]]])
    })

  test('TIMESTAMP(NANOS) is unchanged: DuckDB reads it as TIMESTAMP_NS and compares the nanoseconds exactly', async () => {
    const file = path.join(dir, 'timestamp-ns.parquet')
    await duck.connection.run(`COPY (SELECT TIMESTAMP_NS '2024-01-02 03:04:05.123456789' AS ts) TO '${file}'`)
    const values = ['2024-01-02 03:04:05.123456', '2024-01-02 03:04:05.123456789']
    const counts = await Promise.all(values.map((v) => count(`SELECT count(*) FROM '${file}' WHERE ts = '${v}'`)))
    assert.deepEqual(counts, [0, 1])
    const results = await probe(file, values, { confirm: true })
    assert.deepEqual(results.map((r) => r.rows?.length ?? 0), counts)
  })
})
