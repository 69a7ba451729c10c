// Every verdict against DuckDB's rows, row group by row group: columns of every type DuckDB writes (nulls,
// repeats, ±0, ±inf, NaN, the type's extremes, empty, long and non-ASCII text), written by DuckDB (current,
// and 1.4 in a child process: no column_orders), arrow-rs (parquet-wasm) and hyparquet-writer, in row groups
// of several sizes, with and without dictionaries and bloom filters, and list elements and struct fields;
// probed for the values they hold (a list's: in any element of the row), their neighbours in the type's order
// (one unit more or less, the next float, a byte more or less) and random others. The truth is DuckDB's rows
// for `c = value`, read from the file into a table first, so that no filter reaches its Parquet reader (which
// reads the same indexes: its BLOB and -0.0 pushdown has answered wrongly here). No row group holding a value
// is 'absent'; none without it is 'present'; confirm's rows are DuckDB's. A sidecar index (both formats) of
// each column's files is held to the same truth.
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { makeVector, Table, tableToIPC } from 'apache-arrow'
import { parquetWriteFile } from 'hyparquet-writer'

import { init, openDataset, openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { openDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { arrowColumn, arrowSelect } from './helpers/arrow-column.js'
import { duckdb14 } from './helpers/duckdb14.js'

const R = 'random()'
/** [name, DuckDB type, SQL for one random value] */
const COLUMNS = [
  ['tiny', 'TINYINT', `(${R}*255-127)::TINYINT`],
  ['small', 'SMALLINT', `(${R}*65000-32500)::SMALLINT`],
  ['int', 'INTEGER', `CASE WHEN ${R}<0.1 THEN 2147483647 WHEN ${R}<0.1 THEN -2147483648 ELSE (${R}*4e9-2e9)::INTEGER END`],
  ['big', 'BIGINT', `CASE WHEN ${R}<0.1 THEN 9223372036854775807 WHEN ${R}<0.1 THEN -9223372036854775808 ` +
    `ELSE (${R}*1e18-5e17)::BIGINT END`],
  ['utiny', 'UTINYINT', `(${R}*255)::UTINYINT`],
  ['usmall', 'USMALLINT', `(${R}*65535)::USMALLINT`],
  ['uint', 'UINTEGER', `(${R}*4294967295)::UINTEGER`],
  ['ubig', 'UBIGINT', `CASE WHEN ${R}<0.2 THEN 18446744073709551615::UBIGINT ELSE (${R}*1.8e19)::UBIGINT END`],
  ...['FLOAT', 'DOUBLE'].map((type) => [type.toLowerCase(), type, `CASE WHEN ${R}<0.05 THEN '-0.0'::${type} ` +
    `WHEN ${R}<0.05 THEN 0.0::${type} WHEN ${R}<0.03 THEN 'inf'::${type} WHEN ${R}<0.03 THEN '-inf'::${type} ` +
    `WHEN ${R}<0.02 THEN 'nan'::${type} ELSE ((${R}-0.5)*1e7)::${type} END`]),
  ['dec4', 'DECIMAL(4,2)', `((${R}-0.5)*199)::DECIMAL(4,2)`],
  ['dec9', 'DECIMAL(9,3)', `((${R}-0.5)*1e6)::DECIMAL(9,3)`],
  ['dec18', 'DECIMAL(18,4)', `((${R}-0.5)*1e14)::DECIMAL(18,4)`],
  ['dec38', 'DECIMAL(38,5)', `((${R}-0.5)*1e30)::DECIMAL(38,5)`],
  // Empty, long runs (past any truncation), two- and three-byte UTF-8, astral (four bytes, two UTF-16 units).
  ['text', 'VARCHAR', `CASE WHEN ${R}<0.05 THEN '' WHEN ${R}<0.2 THEN repeat(chr((65+${R}*3)::INT), (${R}*80)::INT) ` +
    `WHEN ${R}<0.3 THEN chr((160+${R}*4000)::INT) || 'x' WHEN ${R}<0.4 THEN chr((65536+${R}*1000)::INT) ` +
    `ELSE md5(i::VARCHAR)[1:(${R}*20)::INT] END`],
  ['blob', 'BLOB', `CASE WHEN ${R}<0.1 THEN ''::BLOB ELSE unhex(md5(i::VARCHAR)[1:(2*(${R}*10)::INT)]) END`],
  ['date', 'DATE', `DATE '1960-01-01' + (${R}*40000)::INT`],
  ...['TIMESTAMP', 'TIMESTAMP_MS', 'TIMESTAMP_S', 'TIMESTAMP_NS', 'TIMESTAMPTZ'].map((type) => [type.toLowerCase(), type,
    `(TIMESTAMP '1960-01-01' + to_microseconds((${R}*2e15)::BIGINT))::${type}`]),
  ['time', 'TIME', `TIME '00:00:00' + to_microseconds((${R}*86399999999)::BIGINT)`],
  ['uuid', 'UUID', `CASE WHEN ${R}<0.2 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID ` +
    `WHEN ${R}<0.2 THEN '00000000-0000-0000-0000-000000000000'::UUID ELSE gen_random_uuid() END`],
  ['bool', 'BOOLEAN', `${R}<0.1`],
]
/** Row counts, distinct values per column (few: dictionaries and filters; many: plain pages), row group sizes
 * (DuckDB's are multiples of 2,048 rows whatever is asked), whether rows are sorted by the value (pages and row
 * groups then hold disjoint ranges). */
const LAYOUTS = [
  { rows: 5000, distinct: 8, rowGroup: 2048, duckdb: '' },
  { rows: 5000, distinct: 60, rowGroup: 1000, duckdb: ", PARQUET_VERSION V2, COMPRESSION 'zstd'", sorted: true },
  { rows: 2500, distinct: 400, rowGroup: 600, duckdb: '' },
]
// hyparquet-writer's types for DuckDB's, and how a DuckDB value (as SELECTed by HYPARQUET_SELECT) becomes its data.
/** @type {Record<string, [string, (v: any) => unknown]>} */
const HYPARQUET_TYPES = {
  INTEGER: ['INT32', Number], BIGINT: ['INT64', BigInt], FLOAT: ['FLOAT', Number], DOUBLE: ['DOUBLE', Number],
  VARCHAR: ['STRING', String], BLOB: ['BYTE_ARRAY', (hex) => Uint8Array.from(Buffer.from(hex, 'hex'))],
  TIMESTAMP_MS: ['TIMESTAMP', (ms) => new Date(Number(ms))], UUID: ['UUID', String], BOOLEAN: ['BOOLEAN', Boolean],
}
/** @type {Record<string, string>} */
const HYPARQUET_SELECT = { BLOB: 'hex(c)', TIMESTAMP_MS: 'epoch_ms(c)', UUID: 'c::VARCHAR', FLOAT: 'c::DOUBLE' }

const dir = await tempDir('differential')
/** @type {Awaited<ReturnType<typeof openDuckDB>>} */
let duck
/** @param {string} sql */
const rowsOf = async (sql) => (await duck.connection.runAndReadAll(sql)).getRowObjectsJS()

before(async () => {
  await init()
  duck = await openDuckDB()
  // One thread, a fixed seed: the same columns every run.
  await rowsOf('SET threads = 1')
  await rowsOf(`SET TimeZone = 'UTC'`)
  await rowsOf('SELECT setseed(0.25)')
})
after(() => duck?.close())

/**
 * The column's rows as DuckDB table t (`c`): `distinct` random values repeated over `rows`, 1 in 20 null.
 * @param {string} gen @param {{ rows: number, distinct: number, sorted?: boolean }} layout @param {number} salt
 */
async function makeTable(gen, { rows, distinct, sorted }, salt) {
  await rowsOf('CREATE OR REPLACE TABLE p AS SELECT (row_number() OVER ()) - 1 AS j, c ' +
    `FROM (SELECT ${gen} AS c FROM range(${distinct}) r(i))`)
  await rowsOf(`CREATE OR REPLACE TABLE t AS SELECT CASE WHEN hash(i * 7 + ${salt}) % 20 = 0 THEN NULL ELSE p.c END AS c ` +
    `FROM range(${rows}) r(i) JOIN p ON p.j = hash(i + ${salt}) % ${distinct} ORDER BY ${sorted ? 'c, i' : 'i'}`)
}

/** DuckDB's text of a value of `type`, from which probeValue and literal make the probe's value and SQL's. */
const textOf = (/** @type {string} */ type, c = 'c') => type === 'BLOB' ? `hex(${c})`
  : type === 'TIMESTAMP WITH TIME ZONE' ? `strftime(${c}, '%Y-%m-%dT%H:%M:%S.%fZ')` : `CAST(${c} AS VARCHAR)`
/** @param {string} type @param {string} text */
function probeValue(type, text) {
  if (type === 'BLOB') return Uint8Array.from(Buffer.from(text, 'hex'))
  if (type === 'FLOAT' || type === 'DOUBLE') return { inf: 'Infinity', '-inf': '-Infinity', nan: 'NaN' }[text] ?? text
  if (type.startsWith('TIMESTAMP')) return text.replace(' ', 'T')
  return text
}
const literal = (/** @type {string} */ type, /** @type {string} */ text) =>
  type === 'BLOB' ? `unhex('${text}')` : `CAST('${text.replaceAll("'", "''")}' AS ${type})`

/** Values next to a column's own in its type's order, as SQL over `c` (null where there is none). */
function neighbours(/** @type {string} */ type) {
  const decimal = /^DECIMAL\(\d+,(\d+)\)$/.exec(type)
  if (decimal) {
    const unit = `CAST('0.${'0'.repeat(Number(decimal[1]) - 1)}1' AS ${type})`
    return [`TRY_CAST(c + ${unit} AS ${type})`, `TRY_CAST(c - ${unit} AS ${type})`]
  }
  if (/INT$/.test(type)) return [`TRY_CAST(c::HUGEINT + 1 AS ${type})`, `TRY_CAST(c::HUGEINT - 1 AS ${type})`]
  if (type === 'FLOAT' || type === 'DOUBLE') return [`nextafter(c, 'inf'::${type})`, `nextafter(c, '-inf'::${type})`]
  if (type === 'VARCHAR') return [`c || 'a'`, 'c[1:length(c)-1]', 'c || chr(127)', 'c || chr(128)']
  if (type === 'BLOB') return [`c || '\\x00'::BLOB`, `c || '\\xFF'::BLOB`]
  if (type === 'DATE') return ['c + 1', 'c - 1']
  const unit = { TIMESTAMP_MS: 'MILLISECOND', TIMESTAMP_S: 'SECOND' }[type] ?? 'MICROSECOND'
  if (type.startsWith('TIMESTAMP') || type === 'TIME') return [`c + INTERVAL 1 ${unit}`, `c - INTERVAL 1 ${unit}`]
  return []
}

/**
 * Probes `file` for its own values, their neighbours and others made by `gen`, with and without confirm, and
 * returns every verdict DuckDB's rows contradict, with how many row groups each index ruled out.
 * @param {string} file @param {string} gen @param {string} label
 */
async function check(file, gen, label) {
  await rowsOf(`CREATE OR REPLACE TABLE m AS SELECT c, file_row_number AS r FROM read_parquet('${file}', file_row_number = true)`)
  const type = (await rowsOf('SELECT column_type AS t FROM (DESCRIBE m) WHERE column_name = \'c\''))[0].t
  const texts = new Set()
  const add = async (/** @type {string} */ sql) => {
    for (const { v } of await rowsOf(sql)) if (v !== null) texts.add(v)
  }
  await add(`SELECT DISTINCT ${textOf(type)} AS v FROM m ORDER BY v LIMIT 150`)
  for (const expr of neighbours(type)) {
    await add(`SELECT DISTINCT ${textOf(type, 'x')} AS v FROM (SELECT ${expr} AS x FROM m) ORDER BY v LIMIT 60`)
  }
  await add(`SELECT DISTINCT ${textOf(type, 'x')} AS v FROM (SELECT TRY_CAST(${gen} AS ${type}) AS x FROM range(40) r(i)) ORDER BY v`)
  const candidates = [...texts]
  const truth = await rowsHolding(candidates.map((text) => literal(type, text)), 'm.c = cand.x')
  const values = candidates.map((text) => probeValue(type, text))
  const found = await verdictsAgainst(file, ['c'], values, truth, (k) => `${label} (${type}), ${JSON.stringify(candidates[k])}`)
  // The same values as JS numbers, bigints or Dates, where the type takes them without loss.
  const other = otherForm(type)
  if (other) {
    const name = (/** @type {number} */ k) => `${label} (${type}), ${JSON.stringify(candidates[k])} as JS`
    const again = await verdictsAgainst(file, ['c'], candidates.map(other), truth, name)
    found.failures.push(...again.failures)
  }
  return { type, candidates, ...found }
}

/**
 * How DuckDB's text of a `type` value becomes a JS value of another kind that the probe takes for it, or null.
 * @param {string} type
 * @returns {((text: string) => unknown) | null}
 */
function otherForm(type) {
  if (/INT$/.test(type)) return BigInt
  if (type === 'FLOAT' || type === 'DOUBLE') return (text) => Number(probeValue(type, text))
  if (type === 'DATE') return (text) => new Date(`${text}T00:00:00Z`)
  // A Date where the text has no digits past milliseconds (a timestamp column of any unit; zone-less text is UTC).
  if (type.startsWith('TIMESTAMP')) {
    return (text) => /\.\d{4}/.test(text) ? probeValue(type, text) : new Date(text.replace(' ', 'T').replace(/Z?$/, 'Z'))
  }
  return null
}

/**
 * The file rows (of table m, column r) where `match` holds for each candidate (cand.x, a SQL literal each).
 * @param {string[]} literals @param {string} match
 * @returns {Promise<Map<number, number[]>>} by the candidate's position
 */
async function rowsHolding(literals, match) {
  await rowsOf(`CREATE OR REPLACE TABLE cand AS SELECT * FROM (VALUES ${literals.map((x, k) => `(${k}, ${x})`).join(', ')}) v(k, x)`)
  const truth = new Map()
  for (const { k, rows } of await rowsOf(`SELECT k, list(r ORDER BY r) AS rows FROM cand JOIN m ON ${match} GROUP BY k`)) {
    truth.set(Number(k), rows.map(Number))
  }
  return truth
}

/**
 * Every verdict of a probe of `column` for `values` (with and without confirm) that the file rows in `truth`
 * contradict, and how many row groups each index ruled out.
 * @param {string} file @param {string[]} column @param {unknown[]} values @param {Map<number, number[]>} truth
 * @param {(k: number) => string} label names value k
 */
async function verdictsAgainst(file, column, values, truth, label) {
  const failures = []
  /** @type {Record<string, number>} */
  const ruledOut = {}
  const parquet = await openParquet(file)
  try {
    const starts = []
    let first = 0
    for (const group of parquet.metadata.rowGroups) {
      starts.push(first)
      first += Number(group.numRows)
    }
    for (const confirm of [false, true]) {
      // Every row listed: no value here is in more rows than the file has.
      const result = await parquet.probe(column, values, { confirm, maxRows: first })
      for (const group of result.rowGroups) {
        const [lo, hi] = [starts[group.index], starts[group.index] + Number(parquet.metadata.rowGroups[group.index].numRows)]
        group.results.forEach((answer, k) => {
          const rows = (truth.get(k) ?? []).filter((row) => row >= lo && row < hi)
          const where = `${label(k)}, row group ${group.index}, confirm ${confirm}`
          if (rows.length && answer.verdict === 'absent') failures.push(`absent, held in ${rows.length} rows: ${where} (${answer.reason})`)
          if (!rows.length && answer.verdict === 'present') failures.push(`present, held nowhere: ${where} (${answer.reason})`)
          if (confirm && answer.rows && answer.rows.join() !== rows.join()) {
            failures.push(`rows ${answer.rows.slice(0, 8)}… for ${rows.slice(0, 8)}…: ${where}`)
          }
          if (answer.verdict === 'absent') ruledOut[answer.source] = (ruledOut[answer.source] ?? 0) + 1
        })
      }
    }
  } finally {
    await parquet.close()
  }
  return { failures, ruledOut }
}

/**
 * A sidecar index of `files` (both formats: it hashes and bounds the values it reads from their pages itself),
 * probed for `candidates`: every verdict DuckDB's rows contradict.
 * @param {string} label @param {{ files: string[], type: string, candidates: Set<string> }} column
 */
async function checkSidecar(label, { files, type, candidates }) {
  const texts = [...candidates]
  const values = texts.map((text) => probeValue(type, text))
  /** @type {Map<string, Map<number, number[]>>} */
  const truths = new Map()
  for (const file of files) {
    await rowsOf(`CREATE OR REPLACE TABLE m AS SELECT c, file_row_number AS r FROM read_parquet('${file}', file_row_number = true)`)
    truths.set(file, await rowsHolding(texts.map((text) => literal(type, text)), 'm.c = cand.x'))
  }
  const failures = []
  let ruledOut = 0
  for (const format of [1, 2]) {
    const output = path.join(dir, `${label.replace(' ', '-')}-${format}.puffin`)
    await buildSidecarIndex(files, output, { columns: ['c'], format })
    const index = await openSidecarIndex(output)
    try {
      const result = await index.probe('c', values, { validate: false })
      assert.deepEqual(result.files.map((f) => f.path).sort(), [...truths.keys()].sort())
      for (const answered of result.files) {
        let first = 0
        for (const group of answered.rowGroups) {
          const [lo, hi] = [first, first += Number(group.numRows)]
          group.results.forEach((answer, k) => {
            const held = (truths.get(answered.path)?.get(k) ?? []).some((row) => row >= lo && row < hi)
            const where = `${label} (${type}) sidecar format ${format}, ${path.basename(answered.path)} ` +
              `row group ${group.index}, ${JSON.stringify(texts[k])}`
            if (held && answer.verdict === 'absent') failures.push(`absent, held: ${where} (${answer.reason})`)
            if (!held && answer.verdict === 'present') failures.push(`present, held nowhere: ${where} (${answer.reason})`)
            if (answer.verdict === 'absent') ruledOut++
          })
        }
      }
    } finally {
      await index.close()
    }
    // The files as a dataset, with the index and without: a file is absent only where none of its rows holds the value.
    for (const options of [{ index: output }, {}]) {
      const dataset = await openDataset(files, options)
      try {
        for (const answered of (await dataset.probe('c', values)).files) {
          if (!truths.has(answered.path) || answered.error) {
            failures.push(`${label}: dataset file ${answered.path} ${answered.error?.code ?? 'not among the files'}`)
          }
          answered.values.forEach((answer, k) => {
            const held = (truths.get(answered.path)?.get(k) ?? []).length > 0
            const where = `${label} (${type}) dataset${options.index ? ` with the format ${format} index` : ''}, ` +
              `${path.basename(answered.path)}, ${JSON.stringify(texts[k])}`
            if (held && answer.verdict === 'absent') failures.push(`absent, held: ${where} (${answer.reason})`)
            if (!held && answer.verdict === 'present') failures.push(`present, held nowhere: ${where} (${answer.reason})`)
          })
        }
      } finally {
        await dataset.close()
      }
    }
  }
  // The check means something: the index ruled values out (their row groups hold at most a few of them).
  if (!ruledOut) failures.push(`${label} (${type}): the sidecar ruled nothing out`)
  return failures
}

/**
 * Writes every column in every layout with `write` (then `flush`, for writers that batch), checks each file,
 * and asserts no verdict is wrong and each index in `indexes` ruled something out.
 * @param {string} writer
 * @param {(file: string, type: string, layout: typeof LAYOUTS[number], index: number) => Promise<boolean>} write
 *   false: the writer has no such column
 * @param {string[]} indexes
 * @param {() => Promise<void>} [flush]
 */
async function checkWriter(writer, write, indexes, flush) {
  const written = []
  for (const [name, type, gen] of COLUMNS) {
    for (const [index, layout] of LAYOUTS.entries()) {
      await makeTable(gen, layout, index)
      const file = path.join(dir, `${writer}-${name}-${index}.parquet`)
      if (await write(file, type, layout, index)) written.push({ file, name, gen, label: `${writer} ${name} layout ${index}` })
    }
  }
  await flush?.()
  const failures = []
  /** @type {Record<string, number>} */
  const ruledOut = {}
  /** @type {Map<string, { files: string[], type: string, candidates: Set<string> }>} each column's files, for the sidecar */
  const byColumn = new Map()
  for (const { file, name, gen, label } of written) {
    const found = await check(file, gen, label)
    failures.push(...found.failures)
    for (const [source, count] of Object.entries(found.ruledOut)) ruledOut[source] = (ruledOut[source] ?? 0) + count
    const column = byColumn.get(name) ?? { files: [], type: found.type, candidates: new Set() }
    byColumn.set(name, column)
    // One index per column over its files, where they read back as one type.
    if (column.type !== found.type) continue
    column.files.push(file)
    for (const text of found.candidates) column.candidates.add(text)
  }
  for (const [name, column] of byColumn) failures.push(...await checkSidecar(`${writer} ${name}`, column))
  assert.deepEqual(failures.slice(0, 20), [])
  // The check means something: each index ruled values out somewhere.
  for (const index of indexes) {
    assert.ok((ruledOut[index] ?? 0) > 0, `${writer}: nothing ruled out by ${index} (${JSON.stringify(ruledOut)})`)
  }
}

describe('every verdict against DuckDB\'s rows', () => {
  test('files DuckDB writes', async () => {
    await checkWriter('duckdb', async (file, _type, layout) => {
      await rowsOf(`COPY t TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${layout.rowGroup}${layout.duckdb})`)
      return true
    }, ['statistics', 'bloom-filter', 'data-pages'])
  })

  test('files DuckDB 1.4 writes (no column_orders)', async () => {
    // The current DuckDB writes each table as a source file; 1.4 writes the files from them, in one child process.
    const statements = ['SET threads = 1']
    await checkWriter('duckdb14', async (file, _type, layout) => {
      const source = `${file}.source.parquet`
      await rowsOf(`COPY t TO '${source}' (FORMAT parquet)`)
      statements.push(`COPY (SELECT * FROM read_parquet('${source}')) TO '${file}' ` +
        `(FORMAT parquet, ROW_GROUP_SIZE ${layout.rowGroup}${layout.duckdb})`)
      return true
    }, ['statistics', 'dictionary', 'bloom-filter', 'data-pages'], async () => {
      await duckdb14({ statements })
    })
  })

  test('nested columns: lists (a value in any element of the row) and struct fields, as DuckDB writes them', async () => {
    // Rows of zero to three list elements (nulls among them), empty lists, null lists and structs.
    await rowsOf(`CREATE OR REPLACE TABLE t AS SELECT
      CASE WHEN i % 13 = 0 THEN NULL WHEN i % 17 = 0 THEN []
        ELSE [(hash(i) % 50)::INT, NULL, (hash(i + 1) % 50)::INT][1:i % 4] END AS l,
      CASE WHEN i % 11 = 0 THEN NULL ELSE {'a': (hash(i + 2) % 40)::BIGINT, 'b': md5((i % 30)::VARCHAR)[1:3]} END AS s,
      CASE WHEN i % 7 = 0 THEN [] ELSE [md5((i % 25)::VARCHAR)[1:2], NULL] END AS ls
      FROM range(6000) r(i) ORDER BY i`)
    /** Forty texts of `chars` characters, as the columns' are made. @param {number} chars */
    const texts = async (chars) => (await rowsOf(`SELECT DISTINCT md5((i % 40)::VARCHAR)[1:${chars}] AS v FROM range(40) r(i) ORDER BY v`))
      .map(({ v }) => /** @type {string} */ (v))
    const numbers = Array.from({ length: 60 }, (_, k) => k - 5)
    /** @type {Array<[string[], unknown[], (x: string) => string, (v: unknown) => string]>} column, values, match, literal */
    const columns = [
      [['l', 'list', 'element'], numbers, (x) => `list_contains(m.l, ${x})`, String],
      [['s', 'a'], numbers, (x) => `m.s.a = ${x}`, String],
      [['s', 'b'], await texts(3), (x) => `m.s.b = ${x}`, (v) => `'${v}'`],
      [['ls', 'list', 'element'], await texts(2), (x) => `list_contains(m.ls, ${x})`, (v) => `'${v}'`],
    ]
    const failures = []
    for (const [index, layout] of [[0, ''], [1, ", PARQUET_VERSION V2, COMPRESSION 'zstd'"]].entries()) {
      const file = path.join(dir, `nested-${index}.parquet`)
      await rowsOf(`COPY t TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048${layout[1]})`)
      await rowsOf(`CREATE OR REPLACE TABLE m AS SELECT *, file_row_number AS r FROM read_parquet('${file}', file_row_number = true)`)
      for (const [column, values, match, literalOf] of columns) {
        const truth = await rowsHolding(values.map(literalOf), match('cand.x'))
        const found = await verdictsAgainst(file, column, values, truth, (k) => `nested ${index} ${column.join('.')} ${values[k]}`)
        failures.push(...found.failures)
        assert.ok(found.ruledOut.statistics || found.ruledOut['bloom-filter'], `${column.join('.')}: nothing ruled out`)
      }
    }
    assert.deepEqual(failures.slice(0, 20), [])
  })

  test('files arrow-rs writes (parquet-wasm: page statistics and their index; dictionary or plain, V1 or V2 pages)', async () => {
    const arrowRs = await import('parquet-wasm')
    await checkWriter('arrow-rs', async (file, type, layout, index) => {
      const column = arrowColumn(type, (await rowsOf(`SELECT ${arrowSelect(type)} AS c FROM t`)).map(({ c }) => c))
      if (!column) return false
      let properties = new arrowRs.WriterPropertiesBuilder().setMaxRowGroupSize(layout.rowGroup)
        .setStatisticsEnabled(arrowRs.EnabledStatistics.Page).setDataPageSizeLimit(256)
      if (index === 1) properties = properties.setDictionaryEnabled(false).setWriterVersion(arrowRs.WriterVersion.V2)
      const table = arrowRs.Table.fromIPCStream(tableToIPC(new Table({ c: makeVector(column) }), 'stream'))
      await writeFile(file, arrowRs.writeParquet(table, properties.build()))
      return true
    }, ['statistics', 'page-index', 'data-pages'])
  })

  test('files hyparquet-writer writes (256-byte pages and their index; filters in two layouts, plain pages in the other)', async () => {
    await checkWriter('hyparquet', async (file, type, layout, index) => {
      const as = HYPARQUET_TYPES[type]
      if (!as) return false
      const data = (await rowsOf(`SELECT ${HYPARQUET_SELECT[type] ?? 'c'} AS c FROM t`)).map(({ c }) => (c === null ? null : as[1](c)))
      await parquetWriteFile({ filename: file, columnData: [{ name: 'c', data, type: as[0], bloomFilter: index !== 1, columnIndex: true,
        ...(index === 1 && { encoding: 'PLAIN' }) }],
        rowGroupSize: layout.rowGroup, pageSize: 256 })
      return true
    }, ['statistics', 'page-index', 'dictionary', 'bloom-filter', 'data-pages'])
  })
})
