// Writes the demo's sample Parquet files with real writers (DuckDB, hyparquet-writer) into web/samples/,
// plus manifest.json: per file a suggested probe and the truth about it, read back from the file by
// DuckDB (which row groups hold each value, and values the file does not hold at all). The encrypted
// sample (Parquet modular encryption) lists its keys under `decryption`: they are a demo's, public.
// The tests read the truth from here; `node web/build-samples.js [--force]` (npm start) writes them for the demo.
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { withDuckDB } from './duckdb.js'
import { withTempDir } from './temp-dir.js'

export const samplesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/samples')
const MANIFEST_VERSION = 3

/**
 * The encrypted sample's footer key (16 bytes: AES-128). It is public — in docs/demo.md, the page and the
 * manifest — so the sample protects nothing; it only shows probing with keys. DuckDB knows it by name.
 */
export const DEMO_FOOTER_KEY = 'public-demo-key!'
const DUCKDB_KEY_NAME = 'demo'

const sql = (/** @type {unknown} */ text) => `'${String(text).replace(/'/g, "''")}'`

const CITIES = ['Amsterdam', 'Berlin', 'Cairo', 'Dakar', 'Edinburgh', 'Florence', 'Geneva', 'Hanoi', 'Istanbul', 'Jakarta',
  'Kyoto', 'Lima', 'Madrid', 'Nairobi', 'Oslo', 'Porto', 'Quito', 'Riga', 'Santiago', 'Tokyo', 'Utrecht', 'Valencia',
  'Warsaw', 'Xi\'an', 'Yerevan', 'Zagreb', 'Accra', 'Bogotá', 'Chennai', 'Dublin', 'Essen', 'Fukuoka']

/**
 * What to probe in a sample: the values (or the rows to take them from) and the values in no row group.
 * @typedef {{ column: string, values?: string[], valuesFromRows?: number[], absent?: string[] }} ProbeSpec
 */

/**
 * A sample: a DuckDB SELECT written with COPY options, or rows hyparquet-writer writes.
 * @typedef {{ file: string, title: string, probe: ProbeSpec, extraTruth?: ProbeSpec[] } & (
 *   { writer: 'duckdb', select: string, options: string, falsePositiveRatio?: number, encryption?: { footerKey: string } } |
 *   { writer: 'hyparquet-writer', rows: number, rowGroupSize: number, falsePositiveRatio?: undefined, encryption?: undefined })} SampleSpec
 * @typedef {Extract<SampleSpec, { writer: 'duckdb' }>} DuckdbSample
 */

/**
 * The samples. `write` produces the file; `probe` is what the page suggests and the browser test runs:
 * present values are checked against the truth DuckDB reads back, `absent` values must not be in the file.
 * @type {SampleSpec[]}
 */
const SAMPLES = [
  {
    file: 'orders.parquet',
    title: 'Orders — 8 row groups, typed columns (DuckDB)',
    writer: 'duckdb',
    // 8 row groups of 2048 rows. Cities and dates cluster by row group so the verdict grid has a shape.
    select: `SELECT
        (100000 + i)::BIGINT AS order_id,
        (['${CITIES.map((c) => c.replace(/'/g, "''")).join("', '")}'])[((i // 1024) * 3 + i % 4) % ${CITIES.length} + 1] AS city,
        'customer-' || lpad(((i * 7919) % 5000)::VARCHAR, 4, '0') AS customer,
        (DATE '2024-01-01' + (i // 256)::INTEGER) AS order_date,
        (TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 37)) AS created_at,
        (((i * 7919) % 100000) / 100)::DECIMAL(10, 2) AS amount,
        (1 + i % 20)::INTEGER AS quantity,
        md5(i::VARCHAR)::UUID AS order_uuid,
        (i % 7 = 0) AS is_gift
      FROM range(16384) t(i)`,
    options: 'ROW_GROUP_SIZE 2048',
    probe: { column: 'city', values: ['Tokyo', 'Lima', 'Bogotá'], absent: ['Atlantis'] },
    extraTruth: [
      { column: 'order_date', values: ['2024-01-03', '2024-02-20'], absent: ['2023-12-31'] },
      { column: 'order_id', values: ['100005', '116383'], absent: ['99999', '200000'] },
      { column: 'order_uuid', values: [], absent: ['00000000-0000-0000-0000-000000000000'] },
    ],
  },
  {
    file: 'events-20rg.parquet',
    title: 'Events — 20 row groups, filters beyond the footer read (DuckDB)',
    writer: 'duckdb',
    // A high-cardinality BIGINT: each row group's filter is ~16 KiB, so most of them lie outside the
    // 64 KiB tail read with the footer and probing shows real range requests.
    select: `SELECT
        (i * 2654435761 % 1000000007)::BIGINT AS event_id,
        (i % 9973)::BIGINT AS user_id,
        (['click', 'view', 'purchase', 'signup'])[i % 4 + 1] AS kind,
        (TIMESTAMP '2024-06-01 00:00:00' + to_milliseconds(i * 250)) AS at
      FROM range(163840) t(i)`,
    options: 'ROW_GROUP_SIZE 8192',
    probe: { column: 'event_id', valuesFromRows: [5, 100000], absent: ['42', '-1'] },
  },
  {
    file: 'overfull.parquet',
    title: 'Overfull filters — written for 30% false positives (DuckDB)',
    writer: 'duckdb',
    // BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.3 squeezes 50 strings per row group into one 32-byte block:
    // the health check must flag it.
    select: `SELECT (i * 7919)::BIGINT AS id, 'k' || (i % 50) AS k FROM range(8192) t(i)`,
    options: 'ROW_GROUP_SIZE 2048',
    falsePositiveRatio: 0.3,
    probe: { column: 'k', values: ['k7', 'k49'], absent: [] },
  },
  {
    file: 'thousands-of-row-groups.parquet',
    title: '2,500 row groups of 40 rows (hyparquet-writer)',
    writer: 'hyparquet-writer',
    rows: 100000,
    rowGroupSize: 40,
    probe: { column: 'sku', values: ['SKU-000123', 'SKU-099999'], absent: ['SKU-XYZ'] },
  },
  {
    file: 'encrypted-payroll.parquet',
    title: 'Payroll — encrypted with a public demo key; no bloom filters, its decrypted statistics and dictionaries answer (DuckDB)',
    writer: 'duckdb',
    // Footer and every column encrypted with the footer key (DuckDB's ENCRYPTION_CONFIG, AES_GCM_V1).
    // DuckDB writes no bloom filters when encrypting: the decrypted statistics and dictionaries answer.
    // Five departments per row group, each in at most two (≤ 820 rows: Confirm lists them all).
    encryption: { footerKey: DEMO_FOOTER_KEY },
    select: `SELECT
        (700000 + i)::BIGINT AS employee_id,
        (['Accounts', 'Design', 'Engineering', 'Facilities', 'Finance', 'Legal', 'Marketing', 'Operations', 'Procurement',
          'Research', 'Sales', 'Support'])[((i // 2048) * 5 + i % 5) % 12 + 1] AS department,
        (((i * 7919) % 900000) / 10 + 20000)::DECIMAL(10, 2) AS salary,
        (DATE '2015-01-01' + ((i * 37) % 3650)::INTEGER) AS hired
      FROM range(8192) t(i)`,
    // Uncompressed: chosen when the demo's worker loaded the package sources, which cannot import
    // hyparquet-compressors by name there (it now loads the bundle); kept so the sample and its truth stay.
    options: "ROW_GROUP_SIZE 2048, COMPRESSION 'uncompressed'",
    probe: { column: 'department', values: ['Engineering', 'Procurement', 'Support'], absent: ['Astrology'] },
  },
]

/**
 * Writes the sample with DuckDB; `plaintext` writes an encrypted sample's unencrypted twin.
 * @param {import('@duckdb/node-api').DuckDBInstance} db
 * @param {DuckdbSample} sample
 * @param {string} file
 * @param {{ plaintext?: boolean }} [options]
 */
async function writeDuckdb(db, sample, file, { plaintext = false } = {}) {
  const conn = await db.connect()
  try {
    const encrypt = sample.encryption && !plaintext
    // The Node package's DuckDB writes encrypted Parquet only with mbedtls forced on (it says "unsafe":
    // its random numbers; a demo key protects nothing anyway).
    if (encrypt) await registerDemoKey(conn, { forWriting: true })
    await conn.run(`COPY (${sample.select}) TO ${sql(file)}
      (FORMAT parquet, ${sample.options}, DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO ${sample.falsePositiveRatio ?? 0.01}${encrypt ? `, ENCRYPTION_CONFIG {footer_key: ${sql(DUCKDB_KEY_NAME)}}` : ''})`)
  } finally {
    conn.closeSync?.()
  }
}

/**
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {{ forWriting?: boolean }} [options]
 */
async function registerDemoKey(conn, { forWriting = false } = {}) {
  if (forWriting) await conn.run("SET force_mbedtls_unsafe = 'true'")
  await conn.run(`PRAGMA add_parquet_key(${sql(DUCKDB_KEY_NAME)}, ${sql(DEMO_FOOTER_KEY)})`)
}

/**
 * @param {Extract<SampleSpec, { writer: 'hyparquet-writer' }>} sample
 * @param {string} file
 */
async function writeHyparquet(sample, file) {
  const { parquetWriteBuffer } = await import('hyparquet-writer')
  const n = sample.rows
  const sku = Array.from({ length: n }, (_, i) => `SKU-${String(i).padStart(6, '0')}`)
  const qty = Int32Array.from({ length: n }, (_, i) => (i * 31) % 1000)
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'sku', data: sku, type: 'STRING', bloomFilter: true },
      { name: 'qty', data: qty, type: 'INT32', bloomFilter: true },
    ],
    rowGroupSize: sample.rowGroupSize,
  })
  await writeFile(file, new Uint8Array(buffer))
}

/**
 * How DuckDB reads a sample back for its truth: `rows` is the read_parquet() call (with the key for an
 * encrypted sample) and `layoutFile` the file whose footer parquet_metadata() reads. parquet_metadata()
 * takes no encryption_config, so an encrypted sample's row-group layout is read from its plaintext twin:
 * the same SELECT written with the same options, checked to hold the same rows in the same order.
 * @typedef {{ rows: (options?: string) => string, layoutFile: string, encrypted: boolean }} SampleReading
 */

/**
 * @param {import('@duckdb/node-api').DuckDBInstance} db
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {SampleSpec} sample
 * @param {string} file
 * @param {string} scratchDir
 * @returns {Promise<SampleReading>}
 */
async function readingFor(db, conn, sample, file, scratchDir) {
  // Only DuckDB writes encrypted samples.
  if (sample.writer !== 'duckdb' || !sample.encryption) {
    return { rows: (options = '') => `read_parquet(${sql(file)}${options})`, layoutFile: file, encrypted: false }
  }
  const twin = path.join(scratchDir, `plaintext-${sample.file}`)
  await writeDuckdb(db, sample, twin, { plaintext: true })
  const rows = (options = '') => `read_parquet(${sql(file)}, encryption_config = {footer_key: ${sql(DUCKDB_KEY_NAME)}}${options})`
  /** @param {string} from */
  const digest = async (from) => (await conn.runAndReadAll(`SELECT count(*)::BIGINT AS n, md5(string_agg(t::VARCHAR, '|' ORDER BY t.file_row_number)) AS h
      FROM ${from} t`)).getRowObjectsJS()[0]
  const [encrypted, plaintext] = [await digest(rows(', file_row_number = true')), await digest(`read_parquet(${sql(twin)}, file_row_number = true)`)]
  if (encrypted.n !== plaintext.n || encrypted.h !== plaintext.h) throw new Error(`${sample.file}: its plaintext twin holds other rows; its layout cannot stand in`)
  return { rows, layoutFile: twin, encrypted: true }
}

/**
 * Which row groups hold each value (compared as DuckDB's text of the column), and in how many rows.
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {SampleReading} reading
 * @param {string} column
 * @param {string[]} values
 */
async function truthFor(conn, reading, column, values) {
  const groups = (await conn.runAndReadAll(`SELECT row_group_id, any_value(row_group_num_rows) AS n
      FROM parquet_metadata(${sql(reading.layoutFile)}) GROUP BY row_group_id ORDER BY row_group_id`)).getRowObjectsJS()
  /** @type {number[]} the row after each row group */
  const ends = []
  let end = 0
  for (const g of groups) ends.push((end += Number(g.n)))
  const groupOf = (/** @type {number} */ row) => ends.findIndex((e) => row < e)
  const out = []
  for (const value of values) {
    const rows = (await conn.runAndReadAll(`SELECT file_row_number AS r FROM ${reading.rows(', file_row_number = true')}
        WHERE "${column}"::VARCHAR = ${sql(value)}`)).getRowObjectsJS()
    out.push({ value, rowGroups: [...new Set(rows.map((row) => groupOf(Number(row.r))))].sort((a, b) => a - b), rowCount: rows.length })
  }
  return { rowGroupCount: groups.length, results: out }
}

/**
 * Rows, and per column how many row groups have a bloom filter and its bytes, as DuckDB reads the footer.
 * DuckDB writes no bloom filters into encrypted files (ParquetWriter::BufferBloomFilter returns when
 * encrypting), so an encrypted sample's columns have none: its statistics and dictionaries answer.
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {SampleReading} reading
 */
async function footerTruth(conn, reading) {
  const [{ rows }] = (await conn.runAndReadAll(`SELECT count(*)::BIGINT AS rows FROM ${reading.rows()}`)).getRowObjectsJS()
  if (reading.encrypted) {
    const names = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${reading.rows()}`)).getRowObjectsJS()
    return { numRows: Number(rows), columns: names.map((c) => ({ name: c.column_name, filters: 0, filterBytes: 0 })) }
  }
  const columns = (await conn.runAndReadAll(`SELECT path_in_schema AS name, count(bloom_filter_offset)::INTEGER AS filters,
      coalesce(sum(bloom_filter_length), 0)::BIGINT AS "filterBytes" FROM parquet_metadata(${sql(reading.layoutFile)}) GROUP BY ALL ORDER BY min(column_id)`)).getRowObjectsJS()
  return { numRows: Number(rows), columns: columns.map((c) => ({ name: c.name, filters: c.filters, filterBytes: Number(c.filterBytes) })) }
}

/**
 * The column's values at those rows, as DuckDB's text of them.
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {SampleReading} reading
 * @param {string} column
 * @param {number[]} rows rows where the column is not null
 * @returns {Promise<string[]>}
 */
async function valuesAtRows(conn, reading, column, rows) {
  const found = (await conn.runAndReadAll(`SELECT "${column}"::VARCHAR AS v FROM ${reading.rows(', file_row_number = true')}
      WHERE file_row_number IN (${rows.join(', ')}) ORDER BY file_row_number`)).getRowObjectsJS()
  return found.map((row) => /** @type {string} */ (row.v)) // a VARCHAR, not null at these rows
}

/**
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {SampleReading} reading
 * @param {string} file
 * @param {{ column: string, values?: string[], valuesFromRows?: number[], absent?: string[] }} probe the values
 *   to probe (or the rows to take them from) and the values that must be in no row group
 */
async function describeProbe(conn, reading, file, { column, values = [], valuesFromRows, absent = [] }) {
  const present = valuesFromRows ? await valuesAtRows(conn, reading, column, valuesFromRows) : values
  const truth = await truthFor(conn, reading, column, [...present, ...absent])
  for (const r of truth.results) {
    const shouldBeAbsent = absent.includes(r.value)
    if (shouldBeAbsent !== (r.rowGroups.length === 0)) {
      throw new Error(`${path.basename(file)}: ${column} = ${r.value} is ${r.rowGroups.length ? `in row groups ${r.rowGroups}` : 'in no row group'}, not what the sample promises`)
    }
  }
  return { column, values: present, absent, rowGroupCount: truth.rowGroupCount, truth: truth.results }
}

/**
 * Writes the samples that are missing (all of them with force) and the manifest; returns the manifest.
 * @param {{ dir?: string, force?: boolean, log?: (line: string) => void }} [options]
 */
export async function buildSamples({ dir = samplesDir, force = false, log = () => {} } = {}) {
  const manifestPath = path.join(dir, 'manifest.json')
  const complete = !force && existsSync(manifestPath) && SAMPLES.every((s) => existsSync(path.join(dir, s.file)))
  if (complete) {
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
    if (manifest.version === MANIFEST_VERSION) return manifest
  }
  await mkdir(dir, { recursive: true })
  return await withTempDir('samples', (scratchDir) => withDuckDB(async (conn, db) => {
    await conn.run("SET TimeZone = 'UTC'")
    await registerDemoKey(conn) // the truth of the encrypted sample is read with its key
    const samples = []
    for (const sample of SAMPLES) {
      const file = path.join(dir, sample.file)
      if (force || !existsSync(file)) {
        const started = Date.now()
        // A unique name, renamed into place when complete: a run killed half-way leaves no file that looks
        // finished, and test files building the samples at the same time do not write into each other's.
        const partial = `${file}.${process.pid}.partial`
        if (sample.writer === 'duckdb') await writeDuckdb(db, sample, partial)
        else await writeHyparquet(sample, partial)
        await rename(partial, file)
        log(`wrote ${path.relative(process.cwd(), file)} in ${Date.now() - started} ms`)
      }
      const reading = await readingFor(db, conn, sample, file, scratchDir)
      const probe = await describeProbe(conn, reading, file, sample.probe)
      const extra = []
      for (const e of sample.extraTruth ?? []) extra.push(await describeProbe(conn, reading, file, e))
      samples.push({
        file: sample.file,
        title: sample.title,
        writer: sample.writer,
        ...(sample.encryption ? { decryption: sample.encryption } : {}), // openParquet's options.decryption
        falsePositiveRatio: sample.falsePositiveRatio ?? (sample.writer === 'duckdb' ? 0.01 : undefined),
        sizeBytes: (await stat(file)).size,
        footer: await footerTruth(conn, reading),
        probe,
        extraTruth: extra,
      })
    }
    const manifest = { version: MANIFEST_VERSION, samples }
    await writeFile(`${manifestPath}.${process.pid}.partial`, `${JSON.stringify(manifest, null, 2)}\n`)
    await rename(`${manifestPath}.${process.pid}.partial`, manifestPath)
    return manifest
  }))
}
