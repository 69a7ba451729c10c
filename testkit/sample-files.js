// Parquet files written by real writers (DuckDB, hyparquet-writer) during test setup, with every value
// in every row group in the forms a user would type it: the JS value the writer's client hands back,
// its text as the writer prints it, and variants (ISO 'T…Z', no hyphens, hex, ...).
//
// Each writer returns { path, writer, rowGroupRows: number[], columns } where
//   columns[name] = { rowGroups: Array<Array<{ key, forms, hex?, expect? }>> }
// One entry per distinct value (key: the writer's text of it) per row group. `forms` are alternative
// inputs for encodeProbeValues; `hex` is the value's bytes as hex text (the CLI's --hex); `expect` is
// 'unknown' for values no bloom filter can answer (NULL, NaN), else absent (meaning 'maybe').
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { parquetMetadata } from 'hyparquet'
import { withDuckDB } from './duckdb.js'

/** Row counts of the row groups, from the footer. */
async function rowGroupRows(file) {
  const bytes = await readFile(file)
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  return metadata.row_groups.map((rg) => Number(rg.num_rows))
}

/** Maps file row numbers to row-group indexes. */
function groupOf(rows) {
  const ends = []
  let end = 0
  for (const n of rows) ends.push((end += n))
  return (rowNumber) => {
    let g = 0
    while (rowNumber >= ends[g]) g++
    return g
  }
}

/** Collects distinct entries per column per row group. */
class Collector {
  constructor(numGroups) {
    this.numGroups = numGroups
    this.columns = {}
  }

  add(column, group, entry) {
    const c = (this.columns[column] ??= { rowGroups: Array.from({ length: this.numGroups }, () => new Map()) })
    const seen = c.rowGroups[group]
    if (!seen.has(entry.key)) seen.set(entry.key, entry)
  }

  result() {
    const out = {}
    for (const [name, c] of Object.entries(this.columns)) out[name] = { rowGroups: c.rowGroups.map((m) => [...m.values()]) }
    return out
  }
}

const hexOf = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

/** '123.4500' and '123.45' are the same decimal; so are '-0.00' and '0'. */
function normalizeDecimalText(text) {
  const negative = text.startsWith('-')
  let [int, frac = ''] = text.replace(/^[+-]/, '').split('.')
  int = int.replace(/^0+(?=\d)/, '')
  frac = frac.replace(/0+$/, '')
  const zero = !/[1-9]/.test(int + frac)
  return `${negative && !zero ? '-' : ''}${int}${frac ? `.${frac}` : ''}`
}

// Rows 0..N-1; values are spread so row groups hold mostly different values, with edge cases placed
// in known rows. DuckDB writes bloom filters only for dictionary-encoded chunks, so the dictionary limit
// is raised (its buffer is allocated up front: 1e9 would take gigabytes, 1e6 is plenty for ~2048 values).
const DUCKDB_SELECT = `
SELECT
  ((i % 256) - 128)::TINYINT AS ti,
  (i - 3000)::SMALLINT AS si,
  ((i * 104729) % 2000000000 - 1000000000)::INTEGER AS ii,
  CASE i WHEN 0 THEN -9223372036854775808 WHEN 1 THEN 9223372036854775807
    ELSE i::HUGEINT * 3037000493 - 9000000000000000000 END::BIGINT AS bi,
  (i % 256)::UTINYINT AS uti,
  (65535 - i)::USMALLINT AS usi,
  (4294967295 - i * 7)::UINTEGER AS ui,
  (18446744073709551615::UBIGINT - (i * 1000003)::UBIGINT) AS ubi,
  CASE i WHEN 100 THEN '-0.0'::FLOAT WHEN 101 THEN 'inf'::FLOAT WHEN 102 THEN 'nan'::FLOAT
    WHEN 103 THEN '3.4028235e38'::FLOAT WHEN 104 THEN '1e-45'::FLOAT ELSE ((i - 3000) / 10)::FLOAT END AS f,
  CASE i WHEN 100 THEN '-0.0'::DOUBLE WHEN 101 THEN '-inf'::DOUBLE WHEN 102 THEN 'nan'::DOUBLE
    WHEN 103 THEN 1.7976931348623157e308::DOUBLE WHEN 104 THEN '5e-324'::DOUBLE ELSE (i - 3000) / 7 END AS d,
  CASE i WHEN 5 THEN '' WHEN 6 THEN 'héllo wörld' WHEN 7 THEN '😀 emoji' WHEN 8 THEN '中文字符'
    WHEN 9 THEN 'tab' || chr(9) || 'newline' || chr(10) WHEN 10 THEN ' padded ' ELSE 'str' || i END AS s,
  CASE WHEN i % 3 = 0 THEN NULL ELSE i * 11 END::BIGINT AS n,
  CASE i WHEN 0 THEN DATE '0045-03-15 (BC)' WHEN 1 THEN DATE '1969-12-31' WHEN 2 THEN DATE '9999-12-31'
    WHEN 3 THEN DATE '1970-01-01' ELSE DATE '2024-01-02' + (i - 3000)::INTEGER END AS dt,
  CASE i WHEN 0 THEN TIMESTAMP '1969-12-31 23:59:59.999999' WHEN 1 THEN TIMESTAMP '1900-01-01 00:00:00'
    ELSE TIMESTAMP '2024-01-02 03:04:05.123456' + to_microseconds((i - 3000) * 1000003::BIGINT) END AS ts,
  (TIMESTAMP '2024-01-02 03:04:05.123' + to_milliseconds((i - 3000) * 1000003::BIGINT))::TIMESTAMP_MS AS tsms,
  ('2024-01-02 03:' || lpad((i % 60)::VARCHAR, 2, '0') || ':05.' || lpad((i * 7919 % 1000000000)::VARCHAR, 9, '0'))::TIMESTAMP_NS AS tsns,
  (TIMESTAMP '2024-01-02 03:04:05.123456' + to_microseconds((i - 3000) * 999983::BIGINT))::TIMESTAMPTZ AS tstz,
  TIME '00:00:00' + to_microseconds(i * 14000017::BIGINT) AS tm,
  ((TIME '00:00:00' + to_microseconds(i * 14000017::BIGINT))::VARCHAR
    || CASE i % 3 WHEN 0 THEN '+00' WHEN 1 THEN '+05:30' ELSE '-08' END)::TIMETZ AS ttz,
  (((i % 10000) - 5000)::DECIMAL(18, 0) * 0.01)::DECIMAL(4, 2) AS d4,
  (((i * 104729) % 1999999999 - 999999999)::DECIMAL(18, 0) * 0.01)::DECIMAL(9, 2) AS d9,
  ((i * 162259276829213 - 999999999999999999)::DECIMAL(18, 0) * 0.001)::DECIMAL(18, 3) AS d18,
  ((i::DECIMAL(38, 0) * 12345678901234567890123) * 0.0000000001)::DECIMAL(38, 10) AS d38,
  md5(i::VARCHAR)::UUID AS u,
  CASE i WHEN 5 THEN ''::BLOB WHEN 6 THEN '\\x00\\xFF'::BLOB ELSE ('blob' || i)::BLOB END AS bl,
  i % 2 = 0 AS b,
  (['sad', 'ok', 'happy'])[i % 3 + 1]::mood AS e,
  json_object('a', i) AS j,
  to_milliseconds(i * 1001) + to_days(i % 40) + to_months(i % 13) AS iv
FROM range(?) t(i)`

/**
 * A DuckDB-written file (FORMAT parquet, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01) covering integer,
 * float, text, temporal, decimal, UUID, BLOB, BOOLEAN, ENUM, JSON and INTERVAL columns.
 * @param {string} dir
 * @param {{ rows?: number, rowGroupSize?: number, textTimeZone?: string }} [options]
 */
export async function writeDuckdbSample(dir, { rows = 6144, rowGroupSize = 2048, textTimeZone = 'Asia/Kolkata' } = {}) {
  const file = path.join(dir, 'duckdb-sample.parquet')
  return await withDuckDB(async (conn) => {
    await conn.run("SET TimeZone = 'UTC'")
    await conn.run("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')")
    await conn.run(`COPY (${DUCKDB_SELECT.replace('?', String(rows))}) TO '${file.replace(/'/g, "''")}'
      (FORMAT parquet, ROW_GROUP_SIZE ${rowGroupSize}, DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
    // Text as a user copies it from DuckDB: TIMESTAMPTZ printed in a zone with a non-whole-hour offset.
    await conn.run(`SET TimeZone = '${textTimeZone}'`)
    const reader = await conn.runAndReadAll(`SELECT *, f::VARCHAR AS f_text, d::VARCHAR AS d_text, tstz::VARCHAR AS tstz_text,
        ttz::VARCHAR AS ttz_text, hex(bl) AS bl_hex, e::VARCHAR AS e_text,
        ((TIME '00:00:00' + to_microseconds(file_row_number * 14000017::BIGINT))::VARCHAR
          || CASE file_row_number % 3 WHEN 0 THEN '+00' WHEN 1 THEN '+05:30' ELSE '-08' END) AS ttz_written
      FROM read_parquet('${file.replace(/'/g, "''")}', file_row_number = true) ORDER BY file_row_number`)
    const raw = reader.getRowObjects()
    const js = reader.getRowObjectsJS()
    const groupRows = await rowGroupRows(file)
    const group = groupOf(groupRows)
    const out = new Collector(groupRows.length)
    for (let r = 0; r < raw.length; r++) {
      const g = group(Number(raw[r].file_row_number))
      for (const [name, entry] of duckdbEntries(raw[r], js[r])) out.add(name, g, entry)
    }
    return { path: file, writer: 'duckdb', rowGroupRows: groupRows, columns: out.result() }
  })
}

/** [column, entry] pairs for one DuckDB row. */
function* duckdbEntries(raw, js) {
  const plain = (name) => {
    const v = raw[name]
    if (v === null) return { key: 'NULL', forms: [null], expect: 'unknown' }
    const forms = [js[name], String(v)]
    if (typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) forms.push(Number(v))
    return { key: String(v), forms }
  }
  for (const name of ['ti', 'si', 'ii', 'bi', 'uti', 'usi', 'ui', 'ubi', 'n']) yield [name, plain(name)]

  for (const name of ['f', 'd']) {
    const v = js[name]
    const text = raw[`${name}_text`]
    yield [name, { key: text, forms: [v, text], expect: Number.isNaN(v) ? 'unknown' : undefined }]
  }

  yield ['s', { key: raw.s, forms: [raw.s, new TextEncoder().encode(raw.s)] }]

  const dt = raw.dt
  yield ['dt', { key: String(dt), forms: [js.dt, String(dt), dt.days, String(dt.days)] }]

  const timestamp = (name, integer, perMs) => {
    const v = raw[name]
    const text = String(v) // '2024-01-02 03:04:05.123456' (wall clock, no offset)
    const iso = text.replace(' ', 'T')
    const forms = [integer, String(integer), text, iso, `${iso}Z`, `${text}+00:00`]
    if (integer % perMs === 0n) forms.push(js[name]) // a Date only when it holds the whole value
    return { key: text, forms }
  }
  yield ['ts', timestamp('ts', raw.ts.micros, 1000n)]
  // DuckDB reads TIMESTAMP(MILLIS) back as its microsecond TIMESTAMP.
  yield ['tsms', timestamp('tsms', raw.tsms.millis ?? raw.tsms.micros / 1000n, 1n)]
  yield ['tsns', timestamp('tsns', raw.tsns.nanos, 1000000n)]
  {
    const v = raw.tstz
    const utcText = String(v) // '2024-01-02 03:04:05.123456+00'
    const noOffset = utcText.replace(/\+00$/, '')
    const forms = [v.micros, raw.tstz_text, utcText, `${noOffset.replace(' ', 'T')}Z`, noOffset]
    if (v.micros % 1000n === 0n) forms.push(js.tstz)
    yield ['tstz', { key: utcText, forms }]
  }
  yield ['tm', { key: String(raw.tm), forms: [raw.tm.micros, String(raw.tm), js.tm] }]
  // TIMETZ is stored normalized to UTC and read back with offset +00; also probe the text as written.
  yield ['ttz', { key: raw.ttz_text, forms: [raw.ttz_text, raw.ttz_written] }]

  for (const name of ['d4', 'd9', 'd18', 'd38']) {
    const v = raw[name]
    const text = String(v)
    const forms = [text]
    if (typeof js[name] === 'number' && normalizeDecimalText(String(js[name])) === normalizeDecimalText(text)) forms.push(js[name])
    if (!normalizeDecimalText(text).includes('.')) forms.push(BigInt(normalizeDecimalText(text)))
    yield [name, { key: normalizeDecimalText(text), forms }]
  }

  {
    const text = js.u // canonical lower-case
    yield ['u', { key: text, forms: [text, text.toUpperCase().replace(/-/g, ''), `{${text}}`, `urn:uuid:${text}`], hex: text.replace(/-/g, '') }]
  }
  yield ['bl', { key: raw.bl_hex, forms: [js.bl], hex: raw.bl_hex }]
  yield ['b', { key: String(raw.b), forms: [raw.b, String(raw.b)] }]
  yield ['e', { key: raw.e_text, forms: [raw.e_text] }]
  yield ['j', { key: String(raw.j), forms: [String(raw.j)] }]
  {
    // Parquet INTERVAL: months, days, milliseconds as little-endian uint32s.
    const iv = raw.iv
    const bytes = new Uint8Array(12)
    const view = new DataView(bytes.buffer)
    view.setUint32(0, iv.months, true)
    view.setUint32(4, iv.days, true)
    view.setUint32(8, Number(iv.micros / 1000n), true)
    yield ['iv', { key: `${iv.months}/${iv.days}/${iv.micros}`, forms: [bytes], hex: hexOf(bytes) }]
  }
}

/**
 * A hyparquet-writer file with bloom filters on INT32, INT64, UINT32, DOUBLE, FLOAT, STRING, BOOLEAN,
 * plain BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY(4) columns.
 * @param {string} dir
 * @param {{ rows?: number, rowGroupSize?: number }} [options]
 */
export async function writeHyparquetSample(dir, { rows = 3000, rowGroupSize = 1000 } = {}) {
  const { parquetWriteBuffer } = await import('hyparquet-writer')
  const columns = [
    ['i32', { type: 'INT32' }, (i) => i * 7919 - 10000000],
    ['i64', { type: 'INT64' }, (i) => (i === 0 ? -(2n ** 63n) : BigInt(i) * 3037000493n * 1000n - 9000000000000000000n)],
    ['u32', { type: 'INT32', converted_type: 'UINT_32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } }, (i) => 4294967295 - i * 3],
    ['dbl', { type: 'DOUBLE' }, (i) => (i === 5 ? -0 : i === 6 ? Infinity : (i - 1000) / 3)],
    ['flt', { type: 'FLOAT' }, (i) => (i === 5 ? -0 : (i - 1000) / 10)],
    ['str', { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }, (i) => (i % 7 === 0 ? null : i === 1 ? '' : `s${i}-é😀`)],
    ['bool', { type: 'BOOLEAN' }, (i) => i % 2 === 0],
    ['bin', { type: 'BYTE_ARRAY' }, (i) => new Uint8Array([i & 255, i >> 8, 0xff])],
    ['fl', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 4 }, (i) => new Uint8Array([i & 255, i >> 8, 1, 2])],
  ]
  const data = columns.map(([, , make]) => Array.from({ length: rows }, (_, i) => make(i)))
  const buffer = parquetWriteBuffer({
    columnData: columns.map(([name], c) => ({ name, data: data[c], bloomFilter: true })),
    schema: [
      { name: 'root', num_children: columns.length },
      ...columns.map(([name, element], c) => ({ name, repetition_type: data[c].includes(null) ? 'OPTIONAL' : 'REQUIRED', ...element })),
    ],
    rowGroupSize,
  })
  const file = path.join(dir, 'hyparquet-sample.parquet')
  await writeFile(file, new Uint8Array(buffer))
  const groupRows = await rowGroupRows(file)
  const group = groupOf(groupRows)
  const out = new Collector(groupRows.length)
  columns.forEach(([name], c) => {
    data[c].forEach((v, i) => {
      let entry
      if (v === null) entry = { key: 'NULL', forms: [null], expect: 'unknown' }
      else if (v instanceof Uint8Array) entry = { key: hexOf(v), forms: [v], hex: hexOf(v) }
      else entry = { key: Object.is(v, -0) ? '-0' : String(v), forms: [v, Object.is(v, -0) ? '-0' : String(v)] }
      out.add(name, group(i), entry)
    })
  })
  return { path: file, writer: 'hyparquet-writer', rowGroupRows: groupRows, columns: out.result() }
}
