// Values given in another JS type than the column's, or not exactly representable in it, against DuckDB's rows for
// `c = CAST(<the value as a SQL literal> AS <the column's type>)`: numbers, bigints and text on FLOAT / DOUBLE /
// FLOAT16 (the nearest value; text past the range is ±Infinity, as DuckDB's CAST and strtod read it), on integer
// and DECIMAL columns (and bigints on the DOUBLE DuckDB writes a HUGEINT as), Dates and text on DATE / TIMESTAMP / TIME,
// UUID text in other spellings, text on BOOLEAN.
// Each stored value fills its own row group (2,048 rows: its statistics are that value), written with dictionaries
// and bloom filters and without. Forms where the two knowingly differ are not here (the report of the audit lists
// them): DuckDB rounds '1.5' into an integer column and '1.005' into DECIMAL(_, 2), where the probe answers 'absent'
// (not-representable, docs/verdicts.md); a FLOAT16 column is a
// FLOAT to DuckDB, and NaN stays 'unknown'.
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, test } from 'node:test'

import { parquetWriteFile } from 'hyparquet-writer'

import { init, openParquet } from '../../js/index.js'
import { openDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('value-forms')
/** @type {Awaited<ReturnType<typeof openDuckDB>>} */
let duck
const rowsOf = async (/** @type {string} */ sql) => (await duck.connection.runAndReadAll(sql)).getRowObjectsJS()

before(async () => {
  await init()
  duck = await openDuckDB()
  await rowsOf("SET TimeZone = 'UTC'")
})
after(() => duck?.close())

/** A JS value as the SQL literal of its own kind: a number is a DOUBLE, a bigint a HUGEINT, a Date a TIMESTAMPTZ. */
function literal(/** @type {unknown} */ v) {
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`
  if (typeof v === 'bigint') return `${v}::HUGEINT`
  if (typeof v === 'boolean') return String(v)
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && !Object.is(v, -0)) return String(v)
    return Number.isFinite(v) || Number.isNaN(v) ? `'${Object.is(v, -0) ? '-0.0' : v}'::DOUBLE` : `'${v > 0 ? 'inf' : '-inf'}'::DOUBLE`
  }
  if (v instanceof Date) return `TIMESTAMPTZ '${v.toISOString()}'`
  if (v instanceof Uint8Array) return `unhex('${Buffer.from(v).toString('hex')}')`
  throw new Error(`no literal for ${v}`)
}
const show = (/** @type {unknown} */ v) => typeof v === 'bigint' ? `${v}n` : v instanceof Date ? v.toISOString()
  : Object.is(v, -0) ? '-0' : JSON.stringify(v) ?? String(v)

/**
 * Probes `file`'s column c for `values` (with and without confirm) and returns every answer DuckDB's rows contradict.
 * @param {string} file @param {string} type @param {unknown[]} values
 */
async function contradictions(file, type, values) {
  await rowsOf(`CREATE OR REPLACE TABLE m AS SELECT c FROM read_parquet('${file}')`)
  const failures = []
  const parquet = await openParquet(file)
  try {
    for (const value of values) {
      const [{ n }] = await rowsOf(`SELECT count(*)::INTEGER AS n FROM m WHERE c = TRY_CAST(${literal(value)} AS ${type})`)
      for (const confirm of [false, true]) {
        const answers = (await parquet.probe('c', [value], { confirm, maxRows: 1e6 })).rowGroups.map((g) => g.results[0])
        const where = `${path.basename(file)} ${show(value)}${confirm ? ' (confirm)' : ''}: DuckDB finds ${n} rows`
        if (n && answers.every((a) => a.verdict === 'absent')) failures.push(`${where}, answered absent (${answers[0].reason})`)
        if (!n && answers.some((a) => a.verdict === 'present')) failures.push(`${where}, answered present`)
        const rows = answers.reduce((sum, a) => sum + (a.rows?.length ?? 0), 0)
        if (confirm && rows !== n) failures.push(`${where}, confirm found ${rows}`)
      }
    }
  } finally {
    await parquet.close()
  }
  return failures
}

const D = (/** @type {string} */ text) => new Date(text)
/** @type {Array<[string, string[], unknown[]]>} DuckDB type, stored values (SQL), probed values */
const COLUMNS = [
  ['FLOAT', ['0.1', "'-0.0'", "'inf'", "'-inf'", '16777216', '3.4028235e38', '1e-45'],
    [0.1, '0.1', Math.fround(0.1), 0, -0, '-0', Infinity, '-inf', '1e39', '-1e39', '1e400', 1e39, 3.4028235e38, 3.5e38,
      16777217, '16777217', 16777217n, 16777216n, 2n ** 127n - 1n, 1e-46, 2 ** -149, 1n]],
  // Exactly halfway between two floats: DuckDB's CAST (and any float conversion) rounds to the even one; text
  // only near the tie ('…539063' is above it) may be either.
  ['FLOAT', ['16777218', '1.0000001192092896'], [16777217, '16777217', 16777217n, 16777219, '16777219', 1 + 2 ** -24,
    '1.000000059604644775390625', '1.00000005960464477539063', '1.0000000596046448']],
  ['DOUBLE', ['0.1', "'-0.0'", "'inf'", "'-inf'", '9007199254740992', '1.0'],
    [0.1, '0.1', Math.fround(0.1), -0, '1e309', '-1e309', 9007199254740993n, '9007199254740993', 2 ** 53 + 1, 1n, ' 1 ', '1.0']],
  // DuckDB writes HUGEINT as DOUBLE: the bigints inserted are the nearest doubles.
  ['HUGEINT', ['1152921504606846977', '123456789012345678901'],
    [2n ** 60n + 1n, 2n ** 60n, 2n ** 60n + 1000n, 123456789012345678901n, '123456789012345678901', 1152921504606846977]],
  ['TINYINT', ['-128', '0', '7', '16', '127'], [' 7 ', '7.0', '0.7e1', '+7', -0, '-0', 7n, 128, 128n, -129n, 2n ** 64n, 16]],
  ['BIGINT', ['-9223372036854775808', '0', '9007199254740992', '9007199254740993', '9223372036854775807'],
    [2 ** 53 + 1, 9007199254740993n, '9007199254740993', '9.007199254740993e15', 9223372036854775807n, 9223372036854775808n,
      -(2 ** 63), '-9223372036854775808', -0, '1e3']],
  ['UBIGINT', ['0', '9223372036854775808', '18446744073709551615'],
    [-1n, 18446744073709551615n, '18446744073709551615', 2 ** 63, 9223372036854775808n, -(2n ** 63n), -0]],
  ['DECIMAL(4,2)', ['0.10', '1.50', '0.00', '-1.50', '99.99'], [0.1, '0.1', 1.5, '1.50', '1.5e0', '-0.00', -0, 1n, '99.99', 99.99, '-1.5']],
  ['DECIMAL(20,2)', ['0.10', '1.50', '0.00', '-1.50', '123456789012345678.91'],
    [0.1, '0.10', 1.5, '-0.00', -0, 0n, '123456789012345678.91', '-1.5e0']],
  ['DATE', ["'2024-01-01'", "'1969-12-31'"],
    [D('2024-01-01T00:00:00Z'), D('2024-01-01T12:00:00Z'), D('1969-12-31T23:59:59.999Z'), '2024-01-01T00:00:00.000Z', '2024-1-1',
      ' 2024-01-01 ']],
  ['TIMESTAMP', ["'2024-01-01 00:00:00'", "'2024-01-01 00:00:00.000001'", "'2024-01-01 00:00:00.001'"],
    [D('2024-01-01T00:00:00Z'), D('2024-01-01T00:00:00.001Z'), '2024-01-01', '2024-01-01T00:00:00.000001Z', '2024-01-01 00:00:00.0010000',
      '2024-01-01 00:00:00.0000019', '2024-01-01 00:00:00.0010009', '2024-01-01 02:00:00+02', '2024-01-01T00:00:00.000001-05:00']],
  // Digits past microseconds (past nanoseconds in TIMESTAMP_NS) are dropped by DuckDB's cast, before 1970 too.
  ['TIMESTAMP', ["'1969-12-31 23:59:59.999999'"], ['1969-12-31 23:59:59.9999999', '1969-12-31T23:59:59.99999999Z', '1969-12-31 23:59:59.9999989']],
  // (CAST to TIMESTAMP_MS rounds '….001001' to 1 ms; DuckDB reads the column as TIMESTAMP, so `c = '….001001'` finds nothing.)
  ['TIMESTAMP_MS', ["'2024-01-01 00:00:00.001'"], ['2024-01-01 00:00:00.0010009', '2024-01-01 00:00:00.0010000001']],
  ['TIMESTAMP_NS', ["'2024-01-01 00:00:00.001'", "'2024-01-01 00:00:00.001000001'"],
    [D('2024-01-01T00:00:00.001Z'), '2024-01-01 00:00:00.001000001', '2024-01-01T00:00:00.001000001Z', '2024-01-01 00:00:00.0010000019']],
  ['TIMESTAMPTZ', ["'2024-01-01 00:00:00Z'", "'2024-01-01 08:00:00Z'"],
    [D('2024-01-01T00:00:00Z'), '2024-01-01 10:00:00+02', '2024-01-01T08:00:00+00:00', '2024-01-01', '2024-01-01T08:00:00.0000001Z']],
  ['TIME', ["'12:00:00'", "'12:00:00.000001'", "'00:00:00'"], ['12:00', '12:00:00+02', '12:00:00.000001', '24:00:00', '12:00:00.0000019',
    '14:00:00+02']],
  ['UUID', ["'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"],
    ['A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', 'a0eebc999c0b4ef8bb6d6bb9bd380a11',
      Uint8Array.from(Buffer.from('a0eebc999c0b4ef8bb6d6bb9bd380a11', 'hex')), '00000000-0000-0000-0000-000000000000']],
  // A lone surrogate is U+FFFD in UTF-8 (TextEncoder's, and the SQL text DuckDB is given).
  ['VARCHAR', ["'abc'", "''", "'7'", "'true'", 'chr(65533)'],
    [new TextEncoder().encode('abc'), new Uint8Array(0), 7, 7n, true, '\uD800', 'e\u0301']],
  ['BOOLEAN', ['true'], ['true', 'TRUE', 1, 1n, 0, 'false']],
]

test('values in other JS forms: no verdict DuckDB\'s rows contradict (dictionaries and bloom filters, or statistics alone)', async () => {
  const failures = []
  for (const [index, [type, stored, values]] of COLUMNS.entries()) {
    await rowsOf(`CREATE OR REPLACE TABLE t AS SELECT c FROM (${stored.map((s) => `SELECT CAST(${s} AS ${type}) AS c FROM range(2048)`)
      .join(' UNION ALL ')}) ORDER BY c`)
    for (const [layout, options] of [['dictionary', ''], ['plain', ', DICTIONARY_SIZE_LIMIT 1']]) {
      const file = path.join(dir, `${index}-${layout}.parquet`)
      await rowsOf(`COPY t TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048${options})`)
      failures.push(...await contradictions(file, type, values))
    }
  }
  assert.deepEqual(failures, [])
})

test('FLOAT16 (a FLOAT to DuckDB): text past FLOAT\'s range is ±Infinity, numbers past it are not there', async () => {
  const file = path.join(dir, 'float16.parquet')
  const data = [Infinity, -Infinity, 1, 65504].flatMap((v) => Array(50).fill(v))
  await parquetWriteFile({ filename: file, columnData: [{ name: 'c', type: 'FLOAT16', data, bloomFilter: true }], rowGroupSize: 50 })
  assert.deepEqual(await contradictions(file, 'FLOAT', ['1e39', '-1e39', '1e400', 'inf', 1e39, '1e5', 1e5, 65504, 1n, 65504n]), [])
})

test('ConvertedType TIMESTAMP_MILLIS/MICROS alone (UTC by the spec, TIMESTAMP without zone to DuckDB): text with an offset finds the '
  + 'fields DuckDB compares', async () => {
  const file = path.join(dir, 'converted-only.parquet')
  const instants = [Date.UTC(2024, 0, 1, 2), Date.UTC(1969, 11, 31, 23, 59, 59, 999)]
  await parquetWriteFile({ filename: file, rowGroupSize: 50, columnData: [
    { name: 'c', data: instants.flatMap((ms) => Array(50).fill(BigInt(ms))), bloomFilter: true },
    { name: 'us', data: instants.flatMap((ms) => Array(50).fill(BigInt(ms) * 1000n + 7n)), bloomFilter: true },
  ], schema: [{ name: 'root', num_children: 2 }, { name: 'c', type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type: 'REQUIRED' },
    { name: 'us', type: 'INT64', converted_type: 'TIMESTAMP_MICROS', repetition_type: 'REQUIRED' }] })
  assert.deepEqual(await contradictions(file, 'TIMESTAMP', ['2024-01-01 02:00:00-05', '2024-01-01T02:00:00+02:00', '2024-01-01 02:00:00Z',
    '2024-01-01 02:00', '1969-12-31 23:59:59.999+01', '1969-12-31T23:59:59.999-00:30']), [])
  // A Date: DuckDB compares the zone-less column with the Date's local fields (here New York's), as a wall-clock column's.
  const zone = process.env.TZ
  process.env.TZ = 'America/New_York'
  await rowsOf("SET TimeZone = 'America/New_York'")
  try {
    assert.deepEqual(await contradictions(file, 'TIMESTAMP', [new Date(Date.UTC(2024, 0, 1, 7)), new Date(Date.UTC(1970, 0, 1, 4, 59, 59, 999))]), [])
  } finally {
    if (zone === undefined) delete process.env.TZ
    else process.env.TZ = zone
    await rowsOf("SET TimeZone = 'UTC'")
  }
  // The same forms on the microsecond column (contradictions probes c): confirm finds DuckDB's rows.
  const opened = await openParquet(file)
  try {
    for (const value of ['2024-01-01 02:00:00.000007+09', '1969-12-31 23:59:59.999007-05:00']) {
      const [{ n }] = await rowsOf(`SELECT count(*)::INTEGER AS n FROM '${file}' WHERE us = '${value}'`)
      const { rowGroups } = await opened.probe('us', [value], { confirm: true })
      assert.equal(rowGroups.reduce((sum, g) => sum + (g.results[0].rows?.length ?? 0), 0), n, value)
    }
  } finally {
    await opened.close()
  }
})

test('TIME(isAdjustedToUTC=true) (DuckDB TIMETZ) with an offset is its UTC time alone; ConvertedType TIME_MICROS alone (a TIME to DuckDB) '
  + 'also the time as written', async () => {
  const file = path.join(dir, 'timetz.parquet')
  await rowsOf(`COPY (SELECT CAST(t AS TIMETZ) AS c FROM (VALUES ('12:00:00+00'), ('10:00:00+00')) v(t), range(50) ORDER BY c)
    TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 50)`)
  const legacy = path.join(dir, 'time-converted-only.parquet')
  await parquetWriteFile({ filename: legacy, rowGroupSize: 50, columnData: [{ name: 'c', data: [43200000000n, 36000000000n].flatMap((v) => Array(50).fill(v)) }],
    schema: [{ name: 'root', num_children: 1 }, { name: 'c', type: 'INT64', converted_type: 'TIME_MICROS', repetition_type: 'REQUIRED' }] })
  /** DuckDB's rows (file row numbers) where `where` holds. @param {string} at @param {string} where */
  const rowsWhere = async (at, where) => (await rowsOf(`SELECT r FROM (SELECT row_number() OVER () - 1 AS r, c FROM '${at}') WHERE ${where} ORDER BY r`))
    .map((row) => Number(row.r))
  // TIMETZ: the instant's rows (DuckDB's own equality also compares offsets, so it is asked as UTC); a ConvertedType-only
  // TIME: the rows DuckDB finds (the time as written, 12:00) and the UTC time's (LogicalTypes.md: TIME_MICROS is UTC).
  const expected = [await rowsWhere(file, "c = '10:00:00+00'"), [...await rowsWhere(legacy, "c = '12:00:00+02'"), ...await rowsWhere(legacy, "c = '10:00'")]]
  assert.deepEqual(expected.map((rows) => rows.length), [50, 100])
  for (const [k, at] of [file, legacy].entries()) {
    const opened = await openParquet(at)
    try {
      const { rowGroups } = await opened.probe('c', ['12:00:00+02'], { confirm: true })
      assert.deepEqual(rowGroups.flatMap((g) => g.results[0].rows ?? []), expected[k].sort((a, b) => a - b), at)
    } finally {
      await opened.close()
    }
  }
})

test('a process whose offset has seconds (Monrovia, -00:44:30 until 1972): Dates and zone-less text read on its local clock as DuckDB does',
  async () => {
    const zone = process.env.TZ
    process.env.TZ = 'Africa/Monrovia'
    await rowsOf("SET TimeZone = 'Africa/Monrovia'")
    try {
      const failures = []
      // getTimezoneOffset() says 44 minutes: local midnight read through it was 30 s off.
      const midnight = new Date(1965, 8, 17)
      assert.equal(midnight.toISOString(), '1965-09-17T00:44:30.000Z')
      for (const [type, values] of [['TIMESTAMP', [midnight, new Date(1900, 0, 1, 12)]], ['TIMESTAMPTZ', ['1965-09-17', '1900-01-01 12:00']]]) {
        await rowsOf(`CREATE OR REPLACE TABLE t AS SELECT CAST(v AS ${type}) AS c FROM (VALUES ('1965-09-17'), ('1900-01-01 12:00')) s(v), range(50)`)
        const file = path.join(dir, `monrovia-${type}.parquet`)
        await rowsOf(`COPY t TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 50)`)
        failures.push(...await contradictions(file, type, values))
      }
      assert.deepEqual(failures, [])
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
      await rowsOf("SET TimeZone = 'UTC'")
    }
  })
