// Every documented input form (docs/api.md "Values are converted by the column's type") of every stored
// value, per column type, through openParquet(buffer).probe: files written at test time by DuckDB and
// hyparquet-writer, values and their forms written out here by hand. A present value must come back
// 'maybe' (or 'present' from a dictionary), never 'absent' (the false negatives this guards against: UUID text on a plain
// FIXED_LEN_BYTE_ARRAY(16), raw bytes on a BYTE_ARRAY decimal); a few values that are not stored must come back 'absent', so the match is real.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { openParquet } from '../../js/index.js'
import { decodeStruct, encodeStruct, getField, setField, struct, T } from '../../testkit/thrift-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const utf8 = (text) => new TextEncoder().encode(text)
const fromHex = (hex) => new Uint8Array(Buffer.from(hex, 'hex'))
const safe = (n) => n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)

/** number (when exact), bigint, text, text with spaces and a sign. */
const integerForms = (n) => [...(safe(n) ? [Number(n)] : []), n, String(n), ` ${n >= 0n ? '+' : ''}${n} `]

const UUIDS = ['123e4567-e89b-12d3-a456-426614174000', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']
const uuidForms = (u) => {
  const hex = u.replace(/-/g, '')
  return [u, u.toUpperCase(), hex, hex.toUpperCase(), `{${u}}`, `urn:uuid:${u}`, `0x${hex}`, fromHex(hex)]
}

// [stored value as DuckDB SQL text, forms a user would type for it]
const DUCKDB_COLUMNS = {
  ti: ['TINYINT', [-128n, -1n, 0n, 42n, 127n].map((n) => [String(n), integerForms(n)])],
  si: ['SMALLINT', [-32768n, -300n, 0n, 32767n].map((n) => [String(n), integerForms(n)])],
  ii: ['INTEGER', [-2147483648n, -7n, 0n, 123456789n, 2147483647n].map((n) => [String(n), integerForms(n)])],
  bi: ['BIGINT', [-(2n ** 63n), -1n, 0n, 9007199254740993n, 2n ** 63n - 1n].map((n) => [String(n), integerForms(n)])],
  uti: ['UTINYINT', [0n, 200n, 255n].map((n) => [String(n), integerForms(n)])],
  usi: ['USMALLINT', [0n, 40000n, 65535n].map((n) => [String(n), integerForms(n)])],
  ui: ['UINTEGER', [0n, 3000000000n, 4294967295n].map((n) => [String(n), integerForms(n)])],
  ubi: ['UBIGINT', [0n, 2n ** 63n, 2n ** 64n - 1n].map((n) => [String(n), integerForms(n)])],
  f: ['FLOAT', [['0.0', [0, -0, '0', '-0', '0.0']], ['-0.0', [0, -0, '-0']], ['1.5', [1.5, '1.5', ' 1.5 ', '15e-1']],
    ['0.1', [0.1, '0.1']], ['-2.75', [-2.75, '-2.75']], ['1e30', [1e30, '1e30']], ['16777216', [16777216, '16777216', 16777216n]]]],
  d: ['DOUBLE', [['0.0', [0, -0, '0']], ['-0.0', [0, -0, '-0', '-0.0']], ['0.1', [0.1, '0.1', ' 0.1 ']],
    ['-1.25e300', [-1.25e300, '-1.25e300']], ['3', [3, '3', '3.0', 3n]]]],
  dt: ['DATE', [['2024-01-02', 2024, 0, 2], ['1970-01-01', 1970, 0, 1], ['1969-12-31', 1969, 11, 31], ['2000-02-29', 2000, 1, 29]]
    .map(([text, y, m, d]) => {
      const days = Date.UTC(y, m, d) / 86400000
      return [text, [text, new Date(Date.UTC(y, m, d)), days, String(days), `${text}T00:00:00.000Z`]]
    })],
  tm: ['TIME', [['03:04:05.123456', 11045123456n], ['00:00:00', 0n], ['23:59:59.999', 86399999000n]]
    .map(([text, micros]) => [text, [text, micros, Number(micros), String(micros),
      ...(micros % 1000n === 0n ? [new Date(Number(micros / 1000n))] : [])]])],
  // DuckDB stores TIMETZ normalized to UTC: the text as written (with its offset) must be found.
  ttz: ['TIMETZ', [['03:04:05+05:30', ['03:04:05+05:30', '21:34:05+00', '21:34:05Z']], ['12:00:00-08', ['12:00:00-08', '20:00:00+00:00']]]],
  ts: ['TIMESTAMP', timestampValues(1000n, 6)],
  tsms: ['TIMESTAMP_MS', timestampValues(1n, 3)],
  tsns: ['TIMESTAMP_NS', timestampValues(1000000n, 9)],
  // TIMESTAMPTZ is TIMESTAMP(MICROS, UTC): an instant, in any offset, or as UTC wall-clock text.
  tstz: ['TIMESTAMPTZ', [['2024-01-02 03:04:05.123+00', 1704164645123000n], ['1969-12-31 23:59:59+00', -1000000n]]
    .map(([text, micros]) => {
      const ms = Number(micros / 1000n)
      const iso = new Date(ms).toISOString()
      const kolkata = new Date(ms + 19800000).toISOString().replace('Z', '+05:30')
      return [text, [text, iso, kolkata, iso.replace('T', ' ').replace('Z', ''), new Date(ms), micros, String(micros)]]
    })],
  d4: ['DECIMAL(4, 2)', [['12.34', [12.34, '12.34', '12.340', '1234e-2']], ['-0.5', [-0.5, '-0.5', '-.50']], ['0', [0, 0n, '0', '0.00', '-0']], ['99', [99, 99n, '99.00', '+99']]]],
  d18: ['DECIMAL(18, 3)', [['-999999999999999.999', ['-999999999999999.999']], ['1.5', [1.5, '1.5', '1.500']], ['123456789012', [123456789012, 123456789012n, '123456789012.000', '1.23456789012e11']]]],
  u: ['UUID', UUIDS.map((u) => [u, uuidForms(u)])],
  s: ['VARCHAR', ['', 'héllo wörld', '😀 emoji', ' padded ', '42'].map((text) => [text, [text, utf8(text)]])],
  j: ['JSON', [['{"a":1}', ['{"a":1}']], ['[1,2]', ['[1,2]']]]],
  bl: ['BLOB', [['00ff', [fromHex('00ff')]], ['626c6f62', [fromHex('626c6f62'), 'blob']], ['', [new Uint8Array(0), '']]]],
}

/**
 * Wall-clock timestamps with as many fraction digits as the unit has: text (space or 'T', with 'Z' or
 * '+00:00'), the integer in the unit (ms × perMs + the digits below the millisecond), a Date when exact.
 */
function timestampValues(perMs, digits) {
  return [['2024-01-02', '03:04:05', '123456789', Date.UTC(2024, 0, 2, 3, 4, 5, 123)], ['1969-12-31', '23:59:59', '', Date.UTC(1969, 11, 31, 23, 59, 59)]]
    .map(([date, time, fraction, ms]) => {
      const kept = fraction.slice(0, digits)
      const text = `${date} ${time}${kept ? `.${kept}` : ''}`
      const value = BigInt(ms) * perMs + BigInt(kept.padEnd(digits, '0').slice(3) || '0')
      const forms = [text, text.replace(' ', 'T'), `${text.replace(' ', 'T')}Z`, `${text}+00:00`, value, String(value)]
      if (value % perMs === 0n) forms.push(new Date(ms))
      return [text, forms]
    })
}

const BOOLEAN_FORMS = { true: [true, 'true', 'TRUE', 1, '1', 1n], false: [false, 'false', 'False', 0, '0', 0n] }

// DECIMAL(30, 2) values (unscaled integers) for the hyparquet-writer BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns.
const WIDE_DECIMALS = [
  [12345678901234567890123456n, '123456789012345678901234.56', []],
  [-5n, '-0.05', [-0.05]],
  [0n, '0', [0, 0n, '0.00']],
  [150n, '1.5', [1.5, '1.50']],
  [-100000000000000000000000000n, '-1000000000000000000000000', [-(10n ** 24n)]],
]
const FIXED4 = ['abcd', '\u0000\u0001\u0002\u0003', 'wxyz']

async function writeDuckdb(dir) {
  const file = path.join(dir, 'forms-duckdb.parquet')
  const names = Object.keys(DUCKDB_COLUMNS)
  // Each value repeated: DuckDB writes bloom filters only for dictionary-encoded chunks.
  const rows = 64
  const literal = (name, r) => {
    const [type, values] = DUCKDB_COLUMNS[name]
    const text = values[r % values.length][0]
    if (type === 'BLOB') return `from_hex('${text}')`
    return `CAST('${text.replace(/'/g, "''")}' AS ${type})`
  }
  const select = Array.from({ length: rows }, (_, r) => `SELECT ${names.map((n) => `${literal(n, r)} AS ${n}`).join(', ')}`).join(' UNION ALL ')
  await withDuckDB(async (conn) => {
    await conn.run("SET TimeZone = 'UTC'")
    await conn.run(`COPY (${select}) TO '${file.replace(/'/g, "''")}' (FORMAT parquet, DICTIONARY_SIZE_LIMIT 100000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
  })
  return new Uint8Array(await readFile(file))
}

async function writeHyparquet() {
  const { parquetWriteBuffer } = await import('hyparquet-writer')
  const { unconvertDecimal } = await import('hyparquet-writer/src/unconvert.js')
  const rows = 8
  const cycle = (list, make) => Array.from({ length: rows }, (_, i) => make(list[i % list.length]))
  const columns = [
    ['bool', { type: 'BOOLEAN' }, cycle([true, false], (b) => b)],
    ['fl4', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 4 }, cycle(FIXED4, utf8)],
    // What arrow-based writers produce for UUIDs: 16 bytes with no UUID annotation.
    ['fl16', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16 }, cycle(UUIDS, (u) => fromHex(u.replace(/-/g, '')))],
    // hyparquet-writer hashes a BYTE_ARRAY whose DECIMAL is only a logical type: its own bytes of the decimal.
    ['dba', { type: 'BYTE_ARRAY', logical_type: { type: 'DECIMAL', precision: 30, scale: 2 } },
      cycle(WIDE_DECIMALS, ([v]) => unconvertDecimal({ type: 'BYTE_ARRAY' }, v))],
    // Written as plain FIXED_LEN_BYTE_ARRAY(13) (hyparquet-writer does not hash decimals there), annotated below.
    ['dfl', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 13 }, cycle(WIDE_DECIMALS, ([v]) => unconvertDecimal({ type: 'FIXED_LEN_BYTE_ARRAY', type_length: 13 }, v))],
  ]
  const buffer = parquetWriteBuffer({
    columnData: columns.map(([name, , data]) => ({ name, data, bloomFilter: true })),
    schema: [{ name: 'root', num_children: columns.length }, ...columns.map(([name, element]) => ({ name, repetition_type: 'REQUIRED', ...element }))],
  })
  return annotateDecimal(new Uint8Array(buffer), 'dfl', 30, 2)
}

/** Adds DECIMAL(precision, scale) (converted and logical type) to a leaf's schema element: a new footer. */
function annotateDecimal(bytes, name, precision, scale) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const footerLength = view.getUint32(bytes.length - 8, true)
  const footerStart = bytes.length - 8 - footerLength
  const { struct: metadata } = decodeStruct(bytes.subarray(footerStart, bytes.length - 8))
  const element = getField(metadata, 2).value.items.find((e) => new TextDecoder().decode(getField(e, 4).value) === name)
  setField(element, 6, T.I32, 5) // converted_type DECIMAL
  setField(element, 7, T.I32, scale)
  setField(element, 8, T.I32, precision)
  setField(element, 10, T.STRUCT, struct([5, T.STRUCT, struct([1, T.I32, scale], [2, T.I32, precision])]))
  const footer = encodeStruct(metadata)
  const out = new Uint8Array(footerStart + footer.length + 8)
  out.set(bytes.subarray(0, footerStart))
  out.set(footer, footerStart)
  new DataView(out.buffer).setUint32(footerStart + footer.length, footer.length, true)
  out.set(utf8('PAR1'), out.length - 4)
  return out
}

/** The type the footer gives the column, from hyparquet (not from parquet-bloom). */
function footerType(bytes, name) {
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const e = metadata.schema.find((s) => s.name === name)
  return { type: e.type, typeLength: e.type_length, logical: e.logical_type?.type }
}

const show = (f) => (f instanceof Uint8Array ? `bytes ${Buffer.from(f).toString('hex')}` : f instanceof Date ? `Date ${f.toISOString()}` : typeof f === 'bigint' ? `${f}n` : JSON.stringify(f))

/** Probes every form of every stored value and some values that are not stored. */
async function assertForms(bytes, column, entries, notStored) {
  const forms = entries.flatMap(([key, list]) => list.map((form) => ({ key, form })))
  const file = await openParquet(bytes)
  try {
    // The bloom filter alone (what the forms are hashed for), then every index (a dictionary may answer
    // 'present'): a stored value is never absent, and only stored values are ever 'present'.
    const bloomOnly = await file.probe(column, [...forms.map((f) => f.form), ...notStored], { statistics: false, dictionary: false })
    const all = await file.probe(column, [...forms.map((f) => f.form), ...notStored])
    for (const [label, result, allowed] of [['bloom filter', bloomOnly, ['maybe']], ['every index', all, ['maybe', 'present']]]) {
      assert.equal(result.rowGroups.length, 1)
      const got = result.rowGroups[0].results
      const wrong = []
      forms.forEach((f, i) => { if (!allowed.includes(got[i].verdict)) wrong.push(`${f.key} as ${show(f.form)}: ${got[i].verdict} (${got[i].reason})`) })
      assert.deepEqual(wrong, [], `${column} (${label}): ${wrong.length} of ${forms.length} present forms not ${allowed.join('/')}`)
      const foreign = got.slice(forms.length)
      const maybes = foreign.filter((r) => r.verdict !== 'absent').map((r) => show(r.value))
      assert.ok(maybes.length <= 1, `${column} (${label}): values that are not stored look present: ${maybes.join(', ')}`)
      assert.ok(foreign.every((r) => r.verdict !== 'present'), `${column} (${label}): a value not stored came back present`)
    }
  } finally {
    await file.close()
  }
}

// Values of the column's type that are not stored: at most one may be a false positive.
const NOT_STORED = {
  ti: [1, 2, 3, -2], si: [1, 2, 3, -2], ii: [1, 2, 3, -2], bi: [1n, 2n, 3n, -2n], uti: [1, 2, 3, 4], usi: [1, 2, 3, 4], ui: [1, 2, 3, 4], ubi: [1n, 2n, 3n, 4n],
  f: [2.5, 3.5, -1, 7], d: [2.5, 3.5, -1, 7], dt: ['2024-01-03', '2001-01-01', 1, 2], tm: ['01:00:00', '02:00:00', 1n, 2n], ttz: ['01:00:00+00', '02:00:00+00', '03:00:00+00', '04:00:00+00'],
  ts: [1n, 2n, 3n, 4n], tsms: [1n, 2n, 3n, 4n], tsns: [1n, 2n, 3n, 4n], tstz: [1n, 2n, 3n, 4n],
  d4: ['1.11', '2.22', '3.33', '4.44'], d18: ['1.111', '2.222', '3.333', '4.444'], u: UUIDS.map((u) => u.replace(/^./, '7')),
  s: ['a', 'b', 'c', 'd'], j: ['{"a":2}', '{}', '[]', '1'], bl: [fromHex('01'), fromHex('02'), fromHex('03'), fromHex('04')],
  fl4: ['efgh', 'ijkl', '0x01010101', '0x02020202'], fl16: UUIDS.map((u) => u.replace(/^./, '7')),
  dba: ['1.11', '2.22', '3.33', '4.44'], dfl: ['1.11', '2.22', '3.33', '4.44'], bool: [],
}

const dir = await tempDir('forms')
let duckdb
let hyparquet
before(async () => {
  ;[duckdb, hyparquet] = await Promise.all([writeDuckdb(dir), writeHyparquet()])
})

describe('DuckDB: every documented form of every stored value is maybe', () => {
  for (const [name, [type, entries]] of Object.entries(DUCKDB_COLUMNS)) {
    test(`${name} (${type})`, () => assertForms(duckdb, name, entries, NOT_STORED[name]))
  }
})

describe('hyparquet-writer: every documented form of every stored value is maybe', () => {
  test('the files have the types under test', () => {
    assert.deepEqual(footerType(hyparquet, 'fl16'), { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logical: undefined })
    assert.deepEqual(footerType(hyparquet, 'dba'), { type: 'BYTE_ARRAY', typeLength: undefined, logical: 'DECIMAL' })
    assert.deepEqual(footerType(hyparquet, 'dfl'), { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 13, logical: 'DECIMAL' })
    assert.deepEqual(footerType(duckdb, 'u'), { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logical: 'UUID' })
  })

  test('bool (BOOLEAN)', () => assertForms(hyparquet, 'bool', Object.entries(BOOLEAN_FORMS), []))

  test('fl4 (plain FIXED_LEN_BYTE_ARRAY(4)): bytes, text of 4 UTF-8 bytes, 0x hex', () =>
    assertForms(hyparquet, 'fl4', FIXED4.map((t) => [t, [utf8(t), t, `0x${Buffer.from(t).toString('hex')}`]]), NOT_STORED.fl4))

  test('fl16 (plain FIXED_LEN_BYTE_ARRAY(16), UUIDs without the annotation): UUID text in every form, bytes', () =>
    assertForms(hyparquet, 'fl16', UUIDS.map((u) => [u, uuidForms(u)]), NOT_STORED.fl16))

  for (const [name, label] of [['dba', 'BYTE_ARRAY'], ['dfl', 'FIXED_LEN_BYTE_ARRAY(13)']]) {
    test(`${name} (DECIMAL(30, 2) on ${label}): exact text, bigint, number, raw bytes`, async () => {
      const { unconvertDecimal } = await import('hyparquet-writer/src/unconvert.js')
      const element = name === 'dba' ? { type: 'BYTE_ARRAY' } : { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 13 }
      const entries = WIDE_DECIMALS.map(([unscaled, text, more]) => [text, [text, ` ${text} `, ...more, unconvertDecimal(element, unscaled)]])
      await assertForms(hyparquet, name, entries, NOT_STORED[name])
    })
  }
})
