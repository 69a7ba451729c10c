// js/values/probe-values.js and js/values/: user values → the physical values a writer hashed. Checked two ways: hand-computed
// PLAIN encodings for each rule, and a round trip through files written by real writers (DuckDB,
// hyparquet-writer) where every stored value, typed as a user would type it, must be found.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { BloomFilter, ErrorCode, init, ParquetBloomError } from '../../js/index.js'
import { combineVerdicts, encodeProbeValues } from '../../js/values/probe-values.js'
import { describeColumnType, logicalTypeFromSchemaElement } from '../../js/footer/column-type.js'
import { parseHexBytes } from '../../js/values/input.js'
import { writeDuckdbSample, writeHyparquetSample } from '../../testkit/sample-files.js'
import { tempDir } from '../../testkit/temp-dir.js'

before(async () => {
  await init()
})

/** Runs fn with process.env.TZ set (Node re-reads it on assignment), then restores it. */
function withTimeZone(tz, fn) {
  const saved = process.env.TZ
  process.env.TZ = tz
  try {
    return fn()
  } finally {
    if (saved === undefined) delete process.env.TZ
    else process.env.TZ = saved
  }
}

const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
const show = (c) => (c instanceof Uint8Array ? hex(c) : c)

/** Per input value: { c: its candidates (bytes as hex), v: preset verdict, r: reason code, d: detail }. */
function probe(column, values) {
  const enc = encodeProbeValues(column, values)
  assert.equal(enc.owners.length, enc.candidates.length)
  const out = values.map(() => ({ c: [] }))
  enc.candidates.forEach((c, k) => out[enc.owners[k]].c.push(show(c)))
  enc.outcomes.forEach((o, i) => {
    assert.equal(o.value, values[i])
    if (o.verdict) {
      assert.deepEqual(out[i].c, [], 'a value with a preset verdict has no candidates')
      assert.equal(o.source, 'value', 'a preset verdict comes from the value')
      out[i].v = o.verdict
      out[i].r = o.reason
      out[i].d = o.detail
    }
  })
  return out
}

/** The candidates of a single value, asserting it has no preset verdict. */
function candidatesOf(column, value) {
  const [r] = probe(column, [value])
  assert.equal(r.v, undefined, `unexpected ${r.v}: ${r.r}: ${r.d}`)
  return r.c
}

function assertPreset(column, value, verdict, reason, detailPattern) {
  const [r] = probe(column, [value])
  assert.equal(r.v, verdict, `verdict for ${String(value)}`)
  assert.equal(r.r, reason)
  assert.match(r.d, detailPattern)
}

function assertBadValue(column, value, messagePattern = /./) {
  assert.throws(() => encodeProbeValues(column, [value]),
    (e) => e instanceof ParquetBloomError && e.code === ErrorCode.BAD_VALUE && messagePattern.test(e.message))
}

const le32 = (n) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, n, true); return hex(b) }
const le64 = (n) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, n, true); return hex(b) }

const INT32 = { physicalType: 'INT32', logicalType: null }
const INT64 = { physicalType: 'INT64', logicalType: null }
const integer = (physicalType, bitWidth, isSigned) => ({ physicalType, logicalType: { type: 'INTEGER', bitWidth, isSigned } })
const DATE = { physicalType: 'INT32', logicalType: { type: 'DATE' } }
const timestamp = (unit, isAdjustedToUTC) => ({ physicalType: 'INT64', logicalType: { type: 'TIMESTAMP', unit, isAdjustedToUTC } })
const time = (unit, isAdjustedToUTC = false) => ({ physicalType: unit === 'MILLIS' ? 'INT32' : 'INT64', logicalType: { type: 'TIME', unit, isAdjustedToUTC } })
const decimal = (physicalType, precision, scale, typeLength) => ({ physicalType, typeLength, logicalType: { type: 'DECIMAL', precision, scale } })
const STRING = { physicalType: 'BYTE_ARRAY', logicalType: { type: 'STRING' } }
const UUID = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'UUID' } }
const FLOAT16 = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 2, logicalType: { type: 'FLOAT16' } }

describe('integers', () => {
  test('INT32 accepts numbers, bigints and integer text', () => {
    const got = probe(integer('INT32', 32, true), [1, '42', ' -7 ', '+3', 5n, '1e3', '1.0', 2147483647, -2147483648, '-0'])
    assert.deepEqual(got.map((r) => r.c), [[1], [42], [-7], [3], [5], [1000], [1], [2147483647], [-2147483648], [0]])
  })

  test('values no integer column holds are absent, not errors', () => {
    for (const v of [1.5, '1.5', '1e-3', NaN, Infinity, 'NaN', '-Infinity']) assertPreset(INT32, v, 'absent', 'not-representable', /^.* is not an integer/)
    assertPreset(INT32, 2 ** 31, 'absent', 'not-representable', /^2147483648 is outside INT32 \[-2147483648, 2147483647\]/)
    assertPreset(INT32, -(2 ** 31) - 1, 'absent', 'not-representable', /outside INT32/)
    assertPreset(INT64, 2n ** 63n, 'absent', 'not-representable', /outside INT64/)
    assertPreset(INT64, '1e400', 'absent', 'not-representable', /out of range/)
  })

  test('narrow logical widths bound nothing: values are the stored type\'s (writers that skip the check store any)', () => {
    const INT8 = integer('INT32', 8, true)
    assert.deepEqual(probe(INT8, [-1, 127, '-128', 300, -129]).map((r) => r.c), [[-1], [127], [-128], [300], [-129]])
    assertPreset(INT8, 2 ** 31, 'absent', 'not-representable', /^2147483648 is outside INT32 \[-2147483648, 2147483647\]/)
    const UINT8 = integer('INT32', 8, false)
    assert.deepEqual(probe(UINT8, [255, 256, -1]).map((r) => r.c), [[255], [256], [-1]])
    assert.deepEqual(candidatesOf(integer('INT32', 16, false), -1), [-1])
    assert.deepEqual(candidatesOf(integer('INT32', 16, true), -32768), [-32768])
    assert.deepEqual(candidatesOf(integer('INT64', 32, true), 2n ** 40n), [2n ** 40n])
    assertPreset(integer('INT64', 32, false), 2n ** 63n, 'absent', 'not-representable', /outside INT64/)
  })

  test('UINT32 and UINT64 are stored as the signed bit pattern', () => {
    const UINT32 = integer('INT32', 32, false)
    assert.deepEqual(probe(UINT32, [4294967295, '4294967295', 4294967295n, 2147483648]).map((r) => r.c), [[-1], [-1], [-1], [-2147483648]])
    assertPreset(UINT32, '4294967296', 'absent', 'not-representable', /outside/)
    assertPreset(UINT32, -1, 'absent', 'not-representable', /outside/)
    const UINT64 = integer('INT64', 64, false)
    assert.deepEqual(probe(UINT64, [2n ** 64n - 1n, '18446744073709551615', 2n ** 63n, 5]).map((r) => r.c), [[-1n], [-1n], [-(2n ** 63n)], [5n]])
    assertPreset(UINT64, 2n ** 64n, 'absent', 'not-representable', /outside/)
    assertPreset(UINT64, -1n, 'absent', 'not-representable', /outside/)
  })

  test('INT64 text is parsed exactly, never through a double', () => {
    assert.deepEqual(candidatesOf(INT64, '9007199254740993'), [9007199254740993n])
    assert.deepEqual(candidatesOf(INT64, '9223372036854775807'), [2n ** 63n - 1n])
    assert.deepEqual(candidatesOf(INT64, '-9223372036854775808'), [-(2n ** 63n)])
    assert.deepEqual(candidatesOf(INT64, 2 ** 53), [2n ** 53n])
    assert.deepEqual(candidatesOf(INT64, 2 ** 60), [2n ** 60n]) // numbers are taken at face value
    assert.deepEqual(candidatesOf(INT64, -5), [-5n])
  })

  test('non-numbers are BAD_VALUE naming the value and the column type', () => {
    assertBadValue(integer('INT32', 32, true), 'abc', /^"abc" is not a number for an INT32 \(INTEGER\(32, signed\)\) column$/)
    for (const v of ['', ' ', '0x10', '1_000', '12abc', true, {}, [1], new Date(0), new Uint8Array(4)]) assertBadValue(INT64, v, /for an INT64 column/)
  })
})

describe('FLOAT and DOUBLE', () => {
  const DOUBLE = { physicalType: 'DOUBLE', logicalType: null }
  const FLOAT = { physicalType: 'FLOAT', logicalType: null }
  const bits64 = (x) => hex(new Uint8Array(new Float64Array([x]).buffer))

  test('zero is probed as +0 and -0, with distinct bit patterns', () => {
    for (const v of [0, -0, '0', '-0', '0.0', 0n]) {
      const c = candidatesOf(DOUBLE, v)
      assert.deepEqual(c, [0, -0])
      assert.deepEqual(c.map(bits64), ['0000000000000000', '0000000000000080'])
    }
    assert.deepEqual(candidatesOf(FLOAT, -0), [0, -0])
  })

  test('NaN is unknown; Infinity is a value', () => {
    for (const column of [DOUBLE, FLOAT]) {
      for (const v of [NaN, 'NaN', 'nan', '-nan']) assertPreset(column, v, 'unknown', 'nan', /^NaN has many bit patterns/)
      assert.deepEqual(probe(column, [Infinity, 'Infinity', '-inf', '+inf']).map((r) => r.c), [[Infinity], [Infinity], [-Infinity], [Infinity]])
    }
  })

  test('text is parsed strictly', () => {
    assert.deepEqual(probe(DOUBLE, ['1.5', ' -2e3 ', '.5', '5.', '1E-2']).map((r) => r.c), [[1.5], [-2000], [0.5], [5], [0.01]])
    for (const v of ['abc', '', '1.5.2', '1e', '0x10', '1,5', true, {}]) assertBadValue(DOUBLE, v, /for a DOUBLE column/)
    assertBadValue(FLOAT, 'abc', /^"abc" is not a number for a FLOAT column$/)
    // Text past the range reads as ±Infinity, as strtod, Java's parseDouble and DuckDB's CAST read it.
    assert.deepEqual(probe(DOUBLE, ['1e400', '-1e400']).map((r) => r.c), [[Infinity], [-Infinity]])
  })

  test('FLOAT probes the float nearest the number', () => {
    assert.deepEqual(candidatesOf(FLOAT, 0.1), [0.10000000149011612])
    assert.deepEqual(candidatesOf(FLOAT, '0.1'), [0.10000000149011612])
    assert.deepEqual(candidatesOf(FLOAT, 3.4028235e38), [3.4028234663852886e38])
    assertPreset(FLOAT, 1e39, 'absent', 'not-representable', /^1e\+39 is beyond the FLOAT range/)
    assert.deepEqual(probe(FLOAT, ['1e39', '-1e39']).map((r) => r.c), [[Infinity], [-Infinity]])
    // 16777217 lies exactly between two floats: it rounds to the even one, as DuckDB's CAST does.
    assert.deepEqual(candidatesOf(FLOAT, '16777217'), [16777216])
    assert.deepEqual(candidatesOf(FLOAT, 1 + 2 ** -24), [1])
    assert.deepEqual(candidatesOf(FLOAT, '1.000000059604644775390625'), [1]) // 1 + 2^-24 in full
    // Text past the tie that a double rounds onto it: a writer rounding the text straight to float picks the odd one.
    assert.deepEqual(candidatesOf(FLOAT, '1.0000000596046448'), [1, 1.0000001192092896])
  })

  test('bigints take the nearest value, as text does', () => {
    assert.deepEqual(candidatesOf(DOUBLE, 2n ** 53n), [2 ** 53])
    assert.deepEqual(candidatesOf(DOUBLE, 2n ** 53n + 1n), candidatesOf(DOUBLE, '9007199254740993'))
    assert.deepEqual(candidatesOf(FLOAT, 2n ** 24n), [2 ** 24])
    assert.deepEqual(candidatesOf(FLOAT, 2n ** 24n + 1n), [16777216])
    // 2^60 + 2^36 + 1 is the double 2^60 + 2^36, halfway between two floats, but lies past it: both are candidates.
    assert.deepEqual(candidatesOf(FLOAT, 2n ** 60n + 2n ** 36n + 1n), [2 ** 60, 2 ** 60 + 2 ** 37])
    assertPreset(FLOAT, 2n ** 128n, 'absent', 'not-representable', /^340282366920938463463374607431768211456n is beyond the FLOAT range/)
    assertPreset(DOUBLE, 2n ** 1024n, 'absent', 'not-representable', /is beyond the range of DOUBLE/)
  })
})

describe('FLOAT16', () => {
  test('half-precision little-endian bytes, round to nearest even', () => {
    assert.deepEqual(probe(FLOAT16, [1, -2, 65504, 0.1, 2 ** -24, Infinity, 0.5]).map((r) => r.c),
      [['003c'], ['00c0'], ['ff7b'], ['662e'], ['0100'], ['007c'], ['0038']])
    assert.deepEqual(candidatesOf(FLOAT16, 0), ['0000', '0080'])
    assert.deepEqual(candidatesOf(FLOAT16, 1 + 2 ** -11), ['003c', '013c']) // a tie: both neighbours
    assertPreset(FLOAT16, NaN, 'unknown', 'nan', /^NaN has many bit patterns/)
    assertPreset(FLOAT16, 1e5, 'absent', 'not-representable', /beyond the FLOAT16 range/)
    assertPreset(FLOAT16, '1e5', 'absent', 'not-representable', /beyond the FLOAT16 range/)
    assert.deepEqual(candidatesOf(FLOAT16, '1e39'), ['007c'])
    assert.deepEqual(candidatesOf(FLOAT16, new Uint8Array([0x00, 0x3c])), ['003c'])
    assertPreset(FLOAT16, new Uint8Array(3), 'absent', 'not-representable', /3 bytes cannot be in a FIXED_LEN_BYTE_ARRAY\(2\) \(FLOAT16\) column/)
  })
})

describe('DATE', () => {
  test('text, day numbers and extended / BC years', () => {
    const got = probe(DATE, ['2024-01-02', '1970-01-01', '1969-12-31', '2024-02-29', '0001-01-01', '0045-03-15 (BC)', '-0044-03-15', '+012345-01-01', '2024-1-2', 19724, '19724', 19724n])
    assert.deepEqual(got.map((r) => r.c), [[19724], [0], [-1], [19782], [-719162], [-735525], [-735525],
      [Date.UTC(12345, 0, 1) / 86400000], [19724], [19724], [19724], [19724]])
  })

  test('a UTC-midnight timestamp is accepted; other times of day are ambiguous', () => {
    assert.deepEqual(candidatesOf(DATE, '2024-01-02T00:00:00.000Z'), [19724])
    assert.deepEqual(candidatesOf(DATE, '2024-01-02 00:00'), [19724])
    assertBadValue(DATE, '2024-01-02T03:00:00', /has a time of day/)
    assertBadValue(DATE, '2024-01-02T00:00:00+09:00', /has a time of day/)
  })

  test('invalid dates are BAD_VALUE', () => {
    assertBadValue(DATE, '2024-02-30', /^"2024-02-30" is not a valid date for an INT32 \(DATE\) column: February 2024 has 29 days$/)
    assertBadValue(DATE, '2023-02-29', /February 2023 has 28 days/)
    for (const v of ['2024-13-01', '2024-00-10', 'yesterday', '', '2024/01/02', true, new Date(NaN)]) assertBadValue(DATE, v, /INT32 \(DATE\)/)
    assertPreset(DATE, 1.5, 'absent', 'not-representable', /not an integer/)
  })

  test('a Date gives its UTC calendar date and, when different, its local one', () => {
    withTimeZone('UTC', () => assert.deepEqual(candidatesOf(DATE, new Date(Date.UTC(2024, 0, 2, 23, 59))), [19724]))
    withTimeZone('Asia/Tokyo', () => {
      // Local midnight 2024-01-02 in UTC+9 is 2024-01-01T15:00Z.
      assert.deepEqual(candidatesOf(DATE, new Date(2024, 0, 2)), [19723, 19724])
    })
    withTimeZone('America/Los_Angeles', () => {
      assert.deepEqual(candidatesOf(DATE, new Date(2024, 0, 2)), [19724])
      assert.deepEqual(candidatesOf(DATE, new Date(Date.UTC(2024, 0, 2))), [19724, 19723])
    })
  })
})

describe('TIMESTAMP', () => {
  const T = 1704164645123456n // 2024-01-02T03:04:05.123456Z in microseconds

  test('UTC-adjusted: offsets convert to UTC', () => {
    const MICROS = timestamp('MICROS', true)
    for (const v of ['2024-01-02T03:04:05.123456Z', '2024-01-02 03:04:05.123456+00', '2024-01-02T08:34:05.123456+05:30',
      '2024-01-01T19:04:05.123456-0800', '2024-01-02t03:04:05,123456z', '2024-01-02T03:04:05.123456000Z', '2024-01-02 03:04:05.123456 UTC']) {
      assert.deepEqual(candidatesOf(MICROS, v), [T], v)
    }
    assert.deepEqual(probe(MICROS, [T, String(T), Number(T)]).map((r) => r.c), [[T], [T], [T]])
    assert.deepEqual(candidatesOf(MICROS, new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123))), [1704164645123000n])
    assert.deepEqual(candidatesOf(timestamp('MILLIS', true), '2024-01-02T03:04:05.123Z'), [1704164645123n])
    assert.deepEqual(candidatesOf(timestamp('NANOS', true), '2024-01-02T03:04:05.123456789Z'), [1704164645123456789n])
  })

  test('UTC-adjusted text without an offset: read as UTC and as local time', () => {
    const MICROS = timestamp('MICROS', true)
    withTimeZone('UTC', () => {
      assert.deepEqual(candidatesOf(MICROS, '2024-01-02T03:04:05.123456'), [T])
      assert.deepEqual(candidatesOf(MICROS, '2024-01-02'), [1704153600000000n])
    })
    withTimeZone('America/New_York', () => {
      assert.deepEqual(candidatesOf(MICROS, '2024-01-02T03:04:05.123456'), [T, T + 5n * 3600000000n])
      // 01:30 on 2024-11-03 happens twice in New York (EDT, then EST): both instants.
      const wall = 1730597400000000n
      assert.deepEqual(candidatesOf(MICROS, '2024-11-03 01:30'), [wall, wall + 4n * 3600000000n, wall + 5n * 3600000000n])
    })
  })

  test('wall-clock (not adjusted): the digits as written, an offset ignored (DuckDB: \'…03:04:05+05:30\'::TIMESTAMP is 03:04:05)', () => {
    const MICROS = timestamp('MICROS', false)
    withTimeZone('Asia/Kolkata', () => {
      assert.deepEqual(candidatesOf(MICROS, '2024-01-02 03:04:05.123456'), [T])
      assert.deepEqual(candidatesOf(MICROS, '2024-01-02T03:04:05.123456+05:30'), [T])
      assert.deepEqual(candidatesOf(MICROS, '2024-01-02T03:04:05.123456Z'), [T])
      // A Date: its UTC fields and its local (UTC+5:30) fields.
      assert.deepEqual(candidatesOf(MICROS, new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123))), [1704164645123000n, 1704164645123000n + 19800000000n])
    })
  })

  test('digits finer than the unit must be zero, past microseconds (nanoseconds for NANOS) they are dropped, as DuckDB drops them', () => {
    assertPreset(timestamp('MILLIS', true), '2024-01-02T03:04:05.0005Z', 'absent',
      'not-representable', /^.* has fractional seconds finer than MILLIS/)
    assert.deepEqual(candidatesOf(timestamp('MICROS', false), '2024-01-02 03:04:05.1234567'), [1704164645123456n])
    assert.deepEqual(candidatesOf(timestamp('MILLIS', false), '2024-01-02 03:04:05.1230009'), [1704164645123n])
    assert.deepEqual(candidatesOf(timestamp('NANOS', false), '2024-01-02 03:04:05.1234567891'), [1704164645123456789n])
    assert.deepEqual(candidatesOf(timestamp('MILLIS', true), '2024-01-02T03:04:05.123000000Z'), [1704164645123n])
    assertPreset(timestamp('MICROS', true), 1.5, 'absent', 'not-representable', /not an integer/)
  })

  test('values outside int64 are absent', () => {
    const NANOS = timestamp('NANOS', true)
    assert.deepEqual(candidatesOf(NANOS, '1677-09-21T00:12:43.145224192Z'), [-(2n ** 63n)])
    assertPreset(NANOS, '1677-09-21T00:12:43.145224191Z', 'absent', 'not-representable', /outside the INT64 range/)
    assertPreset(NANOS, '2262-04-12T00:00:00Z', 'absent', 'not-representable', /outside the INT64 range/)
    assertPreset(NANOS, 2n ** 63n, 'absent', 'not-representable', /outside/)
  })

  test('malformed text is BAD_VALUE', () => {
    const MICROS = timestamp('MICROS', true)
    for (const v of ['yesterday', '2024-01-02T25:00:00Z', '2024-01-02T03:04:60Z', '2024-01-02T03:04:05+25:00', '2024-02-30 00:00', 'infinity', '-Infinity', Infinity, NaN, true]) {
      assertBadValue(MICROS, v, /INT64 \(TIMESTAMP\(MICROS, UTC\)\)/)
    }
  })
})

describe('TIME', () => {
  test('text and integers in the unit', () => {
    assert.deepEqual(probe(time('MILLIS'), ['03:04:05.123', '00:00', '24:00:00', 11045123, '11045123']).map((r) => r.c),
      [[11045123], [0], [86400000], [11045123], [11045123]])
    assert.deepEqual(candidatesOf(time('MICROS'), '03:04:05.123456'), [11045123456n])
    assert.deepEqual(candidatesOf(time('NANOS'), '00:00:00.000000001'), [1n])
    assertPreset(time('MILLIS'), '03:04:05.1234', 'absent', 'not-representable', /finer than MILLIS/)
    for (const v of ['25:00', '12:60', '3pm', '24:00:01']) assertBadValue(time('MICROS'), v, /INT64 \(TIME\(MICROS, local\)\)/)
  })

  test('with an offset: the UTC time (DuckDB TIMETZ stores it), also the time as written for a ConvertedType-only column', () => {
    assert.deepEqual(candidatesOf(time('MICROS', true), '03:04:05+05:30'), [77645000000n])
    assert.deepEqual(candidatesOf(time('MICROS', true), '03:04:05-08'), [39845000000n])
    const legacy = { physicalType: 'INT64', logicalType: { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: true, legacy: true } }
    assert.deepEqual(candidatesOf(legacy, '03:04:05-08'), [11045000000n, 39845000000n])
    // A wall-clock TIME ignores it, as DuckDB's cast to TIME does.
    assert.deepEqual(candidatesOf(time('MICROS', false), '03:04:05+05:30'), [11045000000n])
  })

  test('a Date gives its UTC and local time of day', () => {
    withTimeZone('Asia/Tokyo', () => assert.deepEqual(candidatesOf(time('MILLIS'), new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6))), [11045006, 11045006 + 9 * 3600000]))
  })
})

describe('INT96', () => {
  const INT96 = { physicalType: 'INT96', logicalType: null }

  test('nanoseconds of day (LE int64) then Julian day (LE int32)', () => {
    withTimeZone('UTC', () => {
      // Julian day 2440588 = 0x00253d8c is 1970-01-01.
      // Text and Dates: their microsecond (DuckDB reads INT96 and the text at microseconds), marked `wide`: it stands for
      // every value stored within it (….123456 for Impala's ….123456789).
      assert.deepEqual(candidatesOf(INT96, '1970-01-01T00:00:00.000000001'), ['0000000000000000' + '8c3d2500'])
      assert.deepEqual(candidatesOf(INT96, new Date(0)), ['0000000000000000' + '8c3d2500'])
      assert.deepEqual(candidatesOf(INT96, '2024-01-02T03:04:05.123456789Z'), [le64(11045123456000n) + le32(2440588 + 19724)])
      assert.deepEqual(candidatesOf(INT96, '1969-12-31T23:59:59.9999999Z'), [le64(86399999999000n) + le32(2440587)])
      assert.deepEqual(encodeProbeValues(INT96, ['2024-01-02 03:04:05.123', new Date(0), 5n]).candidates.map((c) => c.wide),
        [true, true, false])
      // A bigint is nanoseconds exactly.
      assert.deepEqual(candidatesOf(INT96, -1n), [le64(86399999999999n) + le32(2440587)])
    })
    assert.deepEqual(candidatesOf(INT96, new Uint8Array(12).fill(7)), ['07'.repeat(12)])
    assertPreset(INT96, new Uint8Array(11), 'absent', 'not-representable', /11 bytes cannot be in an INT96 column/)
  })

  test('before 4713 BC: the floor form, and the truncated form Spark writes (negative nanosecond of day)', () => {
    const nanos = (-3n - 2440588n) * 86400000000000n - 1000n // 1 µs before Julian day -3 begins
    assert.deepEqual(candidatesOf(INT96, nanos), [
      le64(86400000000000n - 1000n) + le32(-4),
      le64(-1000n) + le32(-3),
    ])
    // A whole day has one form only.
    assert.deepEqual(candidatesOf(INT96, (-5n - 2440588n) * 86400000000000n), [le64(0n) + le32(-5)])
  })

  test('after year 287,566: also the bytes of Spark\'s wrapped int64 arithmetic', () => {
    // int96_from_spark.parquet: 290000-12-31T01:00:00+02:00 = 9089380393200000000 µs is stored as Julian
    // day -105862232, nanosecond of day -32509551616000.
    const stored = le64(-32509551616000n) + le32(-105862232)
    assert.ok(candidatesOf(INT96, 9089380393200000000n * 1000n).includes(stored))
    // Below the wrap, and for instants Spark cannot hold (sub-microsecond), no such form.
    assert.equal(candidatesOf(INT96, 1704141296123456n * 1000n).length, 1)
    assert.equal(candidatesOf(INT96, 9089380393200000000n * 1000n + 1n).length, 1)
  })

  test('text with an offset: wall clock and UTC', () => {
    withTimeZone('UTC', () => {
      assert.deepEqual(candidatesOf(INT96, '1970-01-02T01:00:00+01:00'),
        [le64(3600000000000n) + le32(2440589), le64(0n) + le32(2440589)])
    })
  })
})

describe('DECIMAL', () => {
  test('INT32 / INT64: the unscaled integer', () => {
    const D92 = decimal('INT32', 9, 2)
    assert.deepEqual(probe(D92, ['123.45', '-0.5', '+3', '1e-2', '1.5E1', '1.230', 123.45, -0.5, 3n, '999999.99', '.5', '-0']).map((r) => r.c),
      [[12345], [-50], [300], [1], [1500], [123], [12345], [-50], [300], [99999999], [50], [0]])
    assertPreset(D92, '0.001', 'absent', 'not-representable', /^"0.001" has more than 2 fractional digits/)
    // The precision bounds nothing (writers that skip the check store any INT32); the INT32 does.
    assert.deepEqual(candidatesOf(D92, '12345678.9'), [1234567890])
    assertPreset(D92, '21474836.48', 'absent', 'not-representable', /^"21474836.48" does not fit INT32 \(DECIMAL\(9, 2\)\)/)
    assertPreset(D92, '1e30', 'absent', 'not-representable', /does not fit INT32 \(DECIMAL\(9, 2\)\)/)
    assertPreset(D92, NaN, 'absent', 'not-representable', /cannot be in a DECIMAL\(9, 2\) column/)
    assertBadValue(D92, 'abc', /^"abc" is not a decimal number for an INT32 \(DECIMAL\(9, 2\)\) column$/)
    assert.deepEqual(candidatesOf(decimal('INT64', 18, 3), '-999999999999999.999'), [-999999999999999999n])
  })

  test('FIXED_LEN_BYTE_ARRAY: big-endian two\'s complement at the column width', () => {
    assert.deepEqual(probe(decimal('FIXED_LEN_BYTE_ARRAY', 10, 0, 5), ['-1', '1', '0', '-256']).map((r) => r.c),
      [['ffffffffff'], ['0000000001'], ['0000000000'], ['ffffffff00']])
    assert.deepEqual(probe(decimal('FIXED_LEN_BYTE_ARRAY', 4, 0, 2), ['9999', '-9999']).map((r) => r.c), [['270f'], ['d8f1']])
    assertPreset(decimal('FIXED_LEN_BYTE_ARRAY', 3, 0, 1), '200', 'absent', 'not-representable', /does not fit FIXED_LEN_BYTE_ARRAY\(1\)/)
    const unscaled = 123456789012345678900123456789n
    assert.deepEqual(candidatesOf(decimal('FIXED_LEN_BYTE_ARRAY', 38, 10, 16), '12345678901234567890.0123456789'),
      [unscaled.toString(16).padStart(32, '0')])
    assert.deepEqual(candidatesOf(decimal('FIXED_LEN_BYTE_ARRAY', 38, 10, 16), new Uint8Array(16)), ['00'.repeat(16)])
  })

  test('BYTE_ARRAY: two\'s complement from the shortest (BigInteger.toByteArray) to every width up to 32 bytes', () => {
    const D = decimal('BYTE_ARRAY', 10, 0)
    // Each value sign-extended to every width up to 32 bytes (writers that pad to a width).
    const widths = (shortest, pad) => Array.from({ length: 33 - shortest.length / 2 }, (_, k) => pad.repeat(k) + shortest)
    // Zero is also probed as no bytes: hyparquet-writer (and Go's big.Int.Bytes) store it that way.
    assert.deepEqual(probe(D, [128, -129, 0, 127, -128, -1, 255, 256, '-0']).map((r) => r.c),
      [widths('0080', '00'), widths('ff7f', 'ff'), [...widths('00', '00'), ''], widths('7f', '00'), widths('80', 'ff'),
        widths('ff', 'ff'), widths('00ff', '00'), widths('0100', '00'), [...widths('00', '00'), '']])
    // A value wider than 32 bytes: its shortest form only.
    const wide = 1n << 300n
    assert.deepEqual(candidatesOf(decimal('BYTE_ARRAY', 100, 0), wide.toString()), [wide.toString(16)])
  })

  test('BYTE_ARRAY has no width: raw bytes of any length are probed as they are (never a false absent)', () => {
    const D = decimal('BYTE_ARRAY', 30, 2)
    for (const raw of [new Uint8Array([0x7b]), new Uint8Array(13).fill(0x11), new Uint8Array(0), new Uint8Array([0, 0x80]).buffer]) {
      assert.deepEqual(candidatesOf(D, raw), [hex(new Uint8Array(raw instanceof ArrayBuffer ? raw : raw.buffer))])
    }
    // The fixed width still applies where there is one.
    assertPreset(decimal('FIXED_LEN_BYTE_ARRAY', 30, 2, 13), new Uint8Array(1), 'absent', 'not-representable', /^1 bytes cannot be in a FIXED_LEN_BYTE_ARRAY\(13\) \(DECIMAL\(30, 2\)\) column$/)
  })
})

describe('UUID', () => {
  const bytes = '123e4567e89b12d3a456426614174000'

  test('canonical text in any case, with or without hyphens, braces or urn:uuid:', () => {
    for (const v of ['123e4567-e89b-12d3-a456-426614174000', '123E4567-E89B-12D3-A456-426614174000', bytes,
      '{123e4567-e89b-12d3-a456-426614174000}', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000', parseHexBytes(bytes)]) {
      assert.deepEqual(candidatesOf(UUID, v), [bytes])
    }
  })

  test('malformed text is BAD_VALUE; wrong byte lengths are absent', () => {
    for (const v of ['not-a-uuid', '123e4567-e89b-12d3-a456-42661417400', '123e4567e89b-12d3-a456-426614174000', 42, '']) {
      assertBadValue(UUID, v, /for a FIXED_LEN_BYTE_ARRAY\(16\) \(UUID\) column/)
    }
    assertPreset(UUID, new Uint8Array(15), 'absent', 'not-representable', /15 bytes/)
  })

  test("'0x' + 32 hex digits, as any FIXED_LEN_BYTE_ARRAY(16) takes", () => {
    assert.deepEqual(candidatesOf(UUID, `0x${bytes}`), [bytes])
    assert.deepEqual(candidatesOf(UUID, ` 0X${bytes.toUpperCase()} `), [bytes])
    assertBadValue(UUID, `0x${bytes}00`, /UUID/)
  })
})

describe('plain FIXED_LEN_BYTE_ARRAY: text is never silently absent', () => {
  const FLBA16 = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: null }
  const FLBA4 = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 4, logicalType: null }
  const uuid = '123e4567-e89b-12d3-a456-426614174000'
  const uuidHex = '123e4567e89b12d3a456426614174000'

  test('width 16: UUID text (arrow-based writers drop the UUID annotation) is its 16 bytes', () => {
    for (const v of [uuid, uuid.toUpperCase(), uuidHex, `{${uuid}}`, `urn:uuid:${uuid}`, ` ${uuid} `, `0x${uuidHex}`]) {
      assert.deepEqual(candidatesOf(FLBA16, v), [uuidHex], v)
    }
    // Text of exactly 16 UTF-8 bytes stays its UTF-8, and 16 raw bytes stay as they are.
    assert.deepEqual(candidatesOf(FLBA16, 'abcdefghijklmnop'), [hex(Buffer.from('abcdefghijklmnop'))])
    assert.deepEqual(candidatesOf(FLBA16, 'héllo😀wörld'), [hex(Buffer.from('héllo😀wörld'))])
    assert.deepEqual(candidatesOf(FLBA16, parseHexBytes(uuidHex)), [uuidHex])
  })

  test("any width: '0x' followed by exactly 2n hex digits is those n bytes", () => {
    assert.deepEqual(probe(FLBA4, ['0x01020304', '0XdeadBEEF', ' 0x00000000 ']).map((r) => r.c), [['01020304'], ['deadbeef'], ['00000000']])
    assert.deepEqual(candidatesOf(FLBA4, 'abcd'), ['61626364'])
    assert.deepEqual(candidatesOf(FLBA4, '0x12'), [hex(Buffer.from('0x12'))]) // 4 UTF-8 bytes: text as it is
  })

  test('other text is BAD_VALUE naming the accepted forms; wrong-length bytes stay absent', () => {
    assertBadValue(FLBA16, 'not-a-uuid', /^"not-a-uuid" is not a value for a FIXED_LEN_BYTE_ARRAY\(16\) column: its UTF-8 is 10 bytes; expected text of 16 UTF-8 bytes, '0x' \+ 32 hex digits, a UUID or 16 raw bytes$/)
    for (const v of [`${uuid}0`, uuid.slice(1), `0x${uuidHex}0`, '0x' + 'g'.repeat(32), '']) assertBadValue(FLBA16, v, /FIXED_LEN_BYTE_ARRAY\(16\)/)
    for (const v of ['abc', 'abcde', '0x010203', '0x0102030405', uuid]) assertBadValue(FLBA4, v, /expected text of 4 UTF-8 bytes, '0x' \+ 8 hex digits or 4 raw bytes$/)
    assertPreset(FLBA16, new Uint8Array(15), 'absent', 'not-representable', /^15 bytes cannot be in a FIXED_LEN_BYTE_ARRAY\(16\) column$/)
    assertPreset(FLBA4, new Uint8Array(5), 'absent', 'not-representable', /^5 bytes/)
  })

  test('text annotations on FIXED_LEN_BYTE_ARRAY follow the same rules', () => {
    const STRING16 = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'STRING' } }
    assert.deepEqual(candidatesOf(STRING16, uuid), [uuidHex])
    assertBadValue(STRING16, 'short', /its UTF-8 is 5 bytes/)
  })
})

describe('text, bytes and booleans', () => {
  test('STRING: strings as they are, numbers via String(), bytes raw', () => {
    assert.deepEqual(probe(STRING, ['héllo', '', 42, 1.5, 7n, true]).map((r) => r.c), [['héllo'], [''], ['42'], ['1.5'], ['7'], ['true']])
    assert.deepEqual(candidatesOf(STRING, Buffer.from('abc')), ['616263'])
    assertBadValue(STRING, { a: 1 }, /BYTE_ARRAY \(STRING\)/)
    assertBadValue({ physicalType: 'BYTE_ARRAY', logicalType: { type: 'JSON' } }, { a: 1 }, /exact JSON text/)
  })

  test('plain BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY', () => {
    const BA = { physicalType: 'BYTE_ARRAY', logicalType: null }
    assert.deepEqual(probe(BA, ['ab', new Uint8Array([1, 2]).buffer, new DataView(new Uint8Array([3]).buffer)]).map((r) => r.c), [['ab'], ['0102'], ['03']])
    const FLBA = { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 4, logicalType: null }
    assert.deepEqual(probe(FLBA, ['abcd', new Uint8Array([1, 2, 3, 4])]).map((r) => r.c), [['61626364'], ['01020304']])
    // Issue #11: text that cannot be the column's width is a caller error, not a silent 'absent'.
    assertBadValue(FLBA, 'abc', /^"abc" is not a value for a FIXED_LEN_BYTE_ARRAY\(4\) column: its UTF-8 is 3 bytes; /)
    assertPreset(FLBA, new Uint8Array(5), 'absent', 'not-representable', /5 bytes/)
    assertBadValue(BA, 42, /^42 is not text or bytes for a BYTE_ARRAY column$/)
    assertBadValue(FLBA, 1234, /FIXED_LEN_BYTE_ARRAY\(4\)/)
  })

  test('raw-bytes-only types', () => {
    for (const column of [
      { physicalType: 'BYTE_ARRAY', logicalType: { type: 'BSON' } },
      { physicalType: 'BYTE_ARRAY', logicalType: { type: 'VARIANT' } },
      { physicalType: 'BYTE_ARRAY', logicalType: { type: 'GEOMETRY' } },
      { physicalType: 'BYTE_ARRAY', logicalType: { type: 'GEOGRAPHY' } },
      { physicalType: 'BYTE_ARRAY', logicalType: { type: 'UNKNOWN' } },
      { physicalType: 'BYTE_ARRAY', logicalType: { type: 'OTHER', name: 'FILE' } },
      { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 12, logicalType: { type: 'INTERVAL' } },
    ]) {
      const raw = new Uint8Array(column.typeLength ?? 3).fill(9)
      assert.deepEqual(candidatesOf(column, raw), [hex(raw)])
      assertBadValue(column, 'text', /only raw bytes \(a Uint8Array; --hex on the command line\) can be probed/)
    }
    assertPreset({ physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 12, logicalType: { type: 'INTERVAL' } }, new Uint8Array(11), 'absent', 'not-representable', /11 bytes/)
  })

  test('BOOLEAN', () => {
    const BOOLEAN = { physicalType: 'BOOLEAN', logicalType: null }
    assert.deepEqual(probe(BOOLEAN, [true, false, 'TRUE', 'False', 1, 0, '1', '0', 1n]).map((r) => r.c),
      [[true], [false], [true], [false], [true], [false], [true], [false], [true]])
    for (const v of ['yes', 2, '', {}]) assertBadValue(BOOLEAN, v, /for a BOOLEAN column/)
  })

  test('parseHexBytes', () => {
    assert.deepEqual([...parseHexBytes('DEADbeef')], [0xde, 0xad, 0xbe, 0xef])
    assert.deepEqual([...parseHexBytes('0xde:ad be-ef')], [0xde, 0xad, 0xbe, 0xef])
    assert.deepEqual([...parseHexBytes('')], [])
    for (const v of ['abc', 'xyz', '0xg0', 42]) {
      assert.throws(() => parseHexBytes(v), (e) => e instanceof ParquetBloomError && e.code === ErrorCode.BAD_VALUE)
    }
  })
})

describe('outcomes, owners and verdicts', () => {
  test('nulls are unknown; owners map candidates back to values', () => {
    const enc = encodeProbeValues({ physicalType: 'DOUBLE', logicalType: null }, [1, null, 0, undefined, NaN, 2])
    assert.deepEqual(enc.candidates, [1, 0, -0, 2])
    assert.deepEqual([...enc.owners], [0, 2, 2, 5])
    assert.ok(enc.owners instanceof Int32Array)
    assert.deepEqual(enc.outcomes.map((o) => o.verdict), [undefined, 'unknown', undefined, 'unknown', 'unknown', undefined])
    assert.equal(enc.outcomes[1].reason, 'null')
    assert.match(enc.outcomes[1].detail, /^bloom filters do not record nulls/)
    assert.equal(enc.outcomes[1].source, 'value')
    assert.equal(enc.physicalType, 'DOUBLE')
    assert.deepEqual(combineVerdicts(enc, [0, 0, 1, 0]), ['absent', 'unknown', 'maybe', 'unknown', 'unknown', 'absent'])
  })

  test('iterables are accepted; bad arguments are INVALID_ARGUMENT', () => {
    assert.deepEqual(encodeProbeValues(INT64, new Set([1n, 2n])).candidates, [1n, 2n])
    assert.deepEqual(encodeProbeValues(INT64, new BigInt64Array([3n])).candidates, [3n])
    const invalid = (fn) => assert.throws(fn, { code: ErrorCode.INVALID_ARGUMENT })
    invalid(() => encodeProbeValues(INT64, 5))
    invalid(() => encodeProbeValues(INT64, 'abc'))
    invalid(() => encodeProbeValues({ physicalType: 'INT33' }, [1]))
    invalid(() => encodeProbeValues({ physicalType: 'FIXED_LEN_BYTE_ARRAY', logicalType: null }, [new Uint8Array(1)]))
    invalid(() => combineVerdicts(encodeProbeValues(INT64, [1]), []))
    assert.equal(encodeProbeValues({ physicalType: 'FIXED_LEN_BYTE_ARRAY', logicalType: { type: 'UUID' } }, []).typeLength, 16)
  })

  test('a logical type that does not fit the physical type is ignored', () => {
    assert.deepEqual(candidatesOf({ physicalType: 'INT64', logicalType: { type: 'DATE' } }, 5), [5n])
    assert.deepEqual(candidatesOf({ physicalType: 'BYTE_ARRAY', logicalType: { type: 'UUID' } }, new Uint8Array([1])), ['01'])
  })

  test('1,000,000 INT64 and short strings in reasonable time', () => {
    const n = 1000000
    const bigints = Array.from({ length: n }, (_, i) => BigInt(i) * 7919n)
    const strings = Array.from({ length: n }, (_, i) => `k${i}`)
    let t = performance.now()
    assert.equal(encodeProbeValues(INT64, bigints).candidates.length, n)
    const int64Ms = performance.now() - t
    t = performance.now()
    assert.equal(encodeProbeValues(STRING, strings).candidates.length, n)
    const stringMs = performance.now() - t
    // ~0.1-0.4 µs per value on a laptop; the bound only catches accidental quadratic or per-value heavy work.
    assert.ok(int64Ms < 5000 && stringMs < 5000, `INT64 ${int64Ms.toFixed(0)} ms, STRING ${stringMs.toFixed(0)} ms`)
  })
})

describe('column types', () => {
  test('describeColumnType', () => {
    assert.equal(describeColumnType(DATE), 'INT32 (DATE)')
    assert.equal(describeColumnType(UUID), 'FIXED_LEN_BYTE_ARRAY(16) (UUID)')
    assert.equal(describeColumnType(timestamp('MICROS', true)), 'INT64 (TIMESTAMP(MICROS, UTC))')
    assert.equal(describeColumnType(timestamp('NANOS', false)), 'INT64 (TIMESTAMP(NANOS, local))')
    assert.equal(describeColumnType(integer('INT32', 8, false)), 'INT32 (INTEGER(8, unsigned))')
    assert.equal(describeColumnType(decimal('FIXED_LEN_BYTE_ARRAY', 38, 10, 16)), 'FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38, 10))')
    assert.equal(describeColumnType({ physicalType: 'BYTE_ARRAY', logicalType: null }), 'BYTE_ARRAY')
  })

  test('logicalTypeFromSchemaElement: logical_type first, converted_type otherwise', () => {
    const lt = logicalTypeFromSchemaElement
    assert.equal(lt({ type: 'INT32' }), null)
    assert.deepEqual(lt({ logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' }, converted_type: 'TIMESTAMP_MICROS' }),
      { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: false })
    assert.deepEqual(lt({ converted_type: 'TIMESTAMP_MILLIS' }), { type: 'TIMESTAMP', unit: 'MILLIS', isAdjustedToUTC: true, legacy: true })
    assert.deepEqual(lt({ converted_type: 'TIME_MICROS' }), { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: true, legacy: true })
    assert.deepEqual(lt({ converted_type: 'UTF8' }), { type: 'STRING' })
    assert.deepEqual(lt({ converted_type: 'UINT_64' }), { type: 'INTEGER', bitWidth: 64, isSigned: false })
    assert.deepEqual(lt({ converted_type: 'INT_8' }), { type: 'INTEGER', bitWidth: 8, isSigned: true })
    assert.deepEqual(lt({ converted_type: 'DECIMAL', precision: 9, scale: 2 }), { type: 'DECIMAL', precision: 9, scale: 2 })
    assert.deepEqual(lt({ converted_type: 'DECIMAL', precision: 5 }), { type: 'DECIMAL', precision: 5, scale: 0 })
    for (const ct of ['ENUM', 'JSON', 'BSON', 'DATE', 'INTERVAL']) assert.deepEqual(lt({ converted_type: ct }), { type: ct })
    assert.deepEqual(lt({ logical_type: { type: 'DECIMAL', scale: 10, precision: 38 } }), { type: 'DECIMAL', precision: 38, scale: 10 })
    assert.deepEqual(lt({ logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: false } }), { type: 'INTEGER', bitWidth: 16, isSigned: false })
    assert.deepEqual(lt({ logical_type: { type: 'NULL' } }), { type: 'UNKNOWN' })
    assert.deepEqual(lt({ logical_type: { type: 'FLOAT16' } }), { type: 'FLOAT16' })
    assert.deepEqual(lt({ logical_type: { type: 'GEOMETRY', crs: 'x' } }), { type: 'GEOMETRY' })
    assert.deepEqual(lt({ logical_type: { type: 'FILE' } }), { type: 'OTHER', name: 'FILE' })
    assert.deepEqual(lt({ logical_type: { field_20: {} } }), { type: 'OTHER', name: 'LogicalType field 20' })
    assert.deepEqual(lt({ logical_type: { field_20: {} }, converted_type: 'UTF8' }), { type: 'STRING' })
  })
})

// ---------------------------------------------------------------------------------------------------
// Real writers

/** Footer, column types and per-row-group filters of a sample file. */
async function openSample(sample) {
  const bytes = new Uint8Array(await readFile(sample.path))
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const leaves = metadata.schema.filter((e) => e.type)
  const columns = new Map()
  leaves.forEach((element, c) => {
    const filters = metadata.row_groups.map((rg) => {
      const offset = rg.columns[c].meta_data.bloom_filter_offset
      return offset === undefined ? undefined : BloomFilter.fromBytes(bytes.subarray(Number(offset)))
    })
    columns.set(element.name, {
      element,
      type: { physicalType: element.type, typeLength: element.type_length, logicalType: logicalTypeFromSchemaElement(element) },
      filters,
    })
  })
  return { metadata, columns }
}

/** Every form of every entry → its verdict against `filter`, combined here independently of combineVerdicts. */
function verdicts(filter, type, forms) {
  const enc = encodeProbeValues(type, forms)
  const results = enc.candidates.length ? filter.check(enc.candidates, { type: enc.physicalType, typeLength: enc.typeLength }) : []
  const out = enc.outcomes.map((o) => o.verdict ?? 'absent')
  for (let k = 0; k < results.length; k++) if (results[k] === 1 && !enc.outcomes[enc.owners[k]].verdict) out[enc.owners[k]] = 'maybe'
  assert.deepEqual(combineVerdicts(enc, results), out)
  return out
}

function formsOf(entry) {
  return entry.hex === undefined ? entry.forms : [...entry.forms, parseHexBytes(entry.hex)]
}

const displayForm = (f) => (f instanceof Uint8Array ? `bytes ${hex(f)}` : f instanceof Date ? `Date ${f.toISOString()}` : typeof f === 'bigint' ? `${f}n` : JSON.stringify(f))

function assertNoFalseNegatives(opened, sample, name, timeZone) {
  const { type, filters } = opened.columns.get(name)
  const groups = sample.columns[name].rowGroups
  let checked = 0
  groups.forEach((entries, g) => {
    const forms = []
    const expected = []
    const labels = []
    for (const entry of entries) {
      for (const form of formsOf(entry)) {
        forms.push(form)
        expected.push(entry.expect ?? 'maybe')
        labels.push(`${entry.key} as ${displayForm(form)}`)
      }
    }
    const got = withTimeZone(timeZone, () => verdicts(filters[g], type, forms))
    const wrong = []
    got.forEach((v, i) => { if (v !== expected[i]) wrong.push(`${labels[i]}: ${v}, expected ${expected[i]}`) })
    assert.deepEqual(wrong, [], `${describeColumnType(type)} column ${name}, row group ${g}, TZ ${timeZone}: ${wrong.length} wrong of ${forms.length}`)
    checked += forms.length
  })
  return checked
}

/** Values of row group g whose key is not in row group h, probed against h's filter: the 'maybe' rate. */
function crossGroupRate(opened, sample, name) {
  const { type, filters } = opened.columns.get(name)
  const groups = sample.columns[name].rowGroups
  let probes = 0
  let maybes = 0
  for (let g = 0; g < groups.length; g++) {
    for (let h = 0; h < groups.length; h++) {
      if (g === h) continue
      const keysH = new Set(groups[h].map((e) => e.key))
      const forms = groups[g].filter((e) => !keysH.has(e.key) && !e.expect).flatMap(formsOf)
      if (!forms.length) continue
      const got = verdicts(filters[h], type, forms)
      probes += got.length
      maybes += got.filter((v) => v === 'maybe').length
    }
  }
  return { probes, maybes }
}

const DUCKDB_COLUMNS = ['ti', 'si', 'ii', 'bi', 'uti', 'usi', 'ui', 'ubi', 'f', 'd', 's', 'n', 'dt', 'ts', 'tsms', 'tsns', 'tstz', 'tm', 'ttz',
  'd4', 'd9', 'd18', 'u', 'bl', 'j', 'iv']
const DUCKDB_WITHOUT_FILTERS = ['d38', 'b', 'e'] // PLAIN (DECIMAL(38) FLBA, BOOLEAN) and ENUM's RLE_DICTIONARY chunks get none
const HYPARQUET_COLUMNS = ['i32', 'i64', 'u32', 'dbl', 'flt', 'str', 'bool', 'bin', 'fl']

for (const [writer, write, withFilters, withoutFilters] of [
  ['DuckDB', writeDuckdbSample, DUCKDB_COLUMNS, DUCKDB_WITHOUT_FILTERS],
  ['hyparquet-writer', writeHyparquetSample, HYPARQUET_COLUMNS, []],
]) {
  describe(`${writer} round trip: every stored value, typed as a user would, is found`, async () => {
    const dir = await tempDir('values')
    let sample
    let opened

    before(async () => {
      await init()
      sample = await write(dir)
      opened = await openSample(sample)
    })

    after(async () => {
      for (const { filters } of opened?.columns.values() ?? []) for (const f of filters) f?.free()
    })

    test('the expected columns carry bloom filters in every row group', () => {
      assert.ok(sample.rowGroupRows.length >= 3, `row groups: ${sample.rowGroupRows}`)
      const filtered = [...opened.columns].filter(([, c]) => c.filters.every(Boolean)).map(([name]) => name)
      const unfiltered = [...opened.columns].filter(([, c]) => c.filters.every((f) => !f)).map(([name]) => name)
      assert.deepEqual(filtered.sort(), [...withFilters].sort())
      assert.deepEqual(unfiltered.sort(), [...withoutFilters].sort())
    })

    for (const name of withFilters) {
      test(`${name}: 0 false negatives; values of other row groups mostly absent`, (t) => {
        let checked = 0
        for (const tz of ['UTC', 'America/New_York']) checked += assertNoFalseNegatives(opened, sample, name, tz)
        const { probes, maybes } = crossGroupRate(opened, sample, name)
        t.diagnostic(`${describeColumnType(opened.columns.get(name).type)}: ${checked} present forms all maybe; other groups ${maybes}/${probes} maybe`)
        if (probes >= 100) assert.ok(maybes / probes < 0.05, `${maybes} of ${probes} values from other row groups look present`)
      })
    }
  })
}

describe('values a writer stored outside the column\'s annotation are probed as stored', () => {
  // hyparquet-writer checks neither an INTEGER's width nor a DECIMAL's precision: it stores 200 in INT(8) and
  // 12345.6 in DECIMAL(4, 1) as their INT32s, and hyparquet reads them back so. Only the physical type bounds
  // what a file holds; values within it are left to the indexes.
  test('INT(8), UINT(8), UINT(16) and DECIMAL on INT32, INT64, FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const { parquetReadObjects } = await import('hyparquet')
    const { openParquet } = await import('../../js/index.js')
    const column = (name, type, extra) => ({ name, type, repetition_type: 'REQUIRED', ...extra })
    const integerElement = (bitWidth, isSigned) => ({
      converted_type: `${isSigned ? '' : 'U'}INT_${bitWidth}`, logical_type: { type: 'INTEGER', bitWidth, isSigned },
    })
    const decimalElement = (precision, scale) => ({ converted_type: 'DECIMAL', precision, scale, logical_type: { type: 'DECIMAL', precision, scale } })
    const columns = [
      [column('i8', 'INT32', integerElement(8, true)), [200, -1000, 5]],
      [column('u8', 'INT32', integerElement(8, false)), [-1, 300, 7]],
      [column('u16', 'INT32', integerElement(16, false)), [70000, 1, 2]],
      [column('d32', 'INT32', decimalElement(4, 1)), [12345.6, -99999.9, 1.5]],
      [column('d64', 'INT64', decimalElement(5, 2)), [1234567.89, -0.5, 2.25]],
      [column('dfl', 'FIXED_LEN_BYTE_ARRAY', { type_length: 2, ...decimalElement(3, 2) }), [300, -300, 1.5]],
      [column('dba', 'BYTE_ARRAY', decimalElement(3, 0)), [123456, -98765, 12]],
    ]
    const bytes = parquetWriteBuffer({
      schema: [{ name: 'root', num_children: columns.length }, ...columns.map(([element]) => element)],
      columnData: columns.map(([element, data]) => ({ name: element.name, data, encoding: 'PLAIN' })),
    })
    const rows = await parquetReadObjects({ file: bytes })
    const file = await openParquet(new Uint8Array(bytes))
    try {
      for (const [{ name }, data] of columns) {
        const held = rows.map((row) => row[name])
        assert.deepEqual(held, data, `hyparquet reads ${name} back as written`)
        for (const options of [{}, { confirm: true }]) {
          const { rowGroups } = await file.probe(name, held, options)
          for (const r of rowGroups[0].results) {
            const where = `${name} ${r.value} ${JSON.stringify(options)}: ${r.detail}`
            if (options.confirm) assert.equal(r.verdict, 'present', where)
            else assert.notEqual(r.verdict, 'absent', where)
          }
        }
      }
    } finally {
      await file.close()
    }
  })
})
