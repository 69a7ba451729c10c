// Writes the samples of the demo's dataset and table card into web/samples/ (beside the sample files of
// demo-samples.js), and datasets.json: per sample the card's fields and a probe — a value that is there
// and one that is not, chosen by DuckDB's reading of the files (or the writers' input, for the tables).
//   dataset/events/        a Hive-partitioned dataset DuckDB writes (COPY … PARTITION_BY (day, country)):
//                          day 1 with bloom filters, day 2 without (no dictionary, no filter), day 3 with
//                          them and an evolved schema (a `coupon` column added)
//   dataset/events.puffin  a sidecar index of the dataset's user_id (buildSidecarIndex), built over HTTP
//                          from the demo server, which sends no validator: the file sizes decide
//   tables/iceberg/        an Iceberg v2 table (testkit/iceberg-writer.js): partitioned by day,
//                          two snapshots, the second with more files and a position delete file
//   tables/delta/          a Delta table (testkit/delta-writer.js): partitioned by country, a
//                          Parquet checkpoint at version 4, an inline deletion vector at version 5
// The same dataset is served as a bucket prefix by demo-bucket.js. The browser test
// (tests/browser/sample-scenarios.js) checks the page's answers against DuckDB and the writers' input.
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { withDuckDB } from './duckdb.js'
import { checkpointParquet, commitText, inlineDeletionVector, pad, writeDeltaFiles } from './delta-writer.js'
import { fileIds, ID_STRIDE, writeIcebergTable } from './iceberg-writer.js'
import { samplesDir } from './demo-samples.js'

const MANIFEST_VERSION = 2
const MANIFEST = 'datasets.json'
export const DATASET_DIR = 'dataset/events'
export const DATASET_INDEX = 'dataset/events.puffin'
export const ICEBERG_DIR = 'tables/iceberg'
export const DELTA_DIR = 'tables/delta'
/** The bucket and prefix demo-bucket.js serves the dataset under. */
export const SAMPLE_BUCKET = { bucket: 'pb-demo', prefix: 'events/' }

const DAYS = ['2026-01-07', '2026-01-08', '2026-01-09']
const COUNTRIES = ['DE', 'FR', 'US']
const ROWS_PER_FILE = 4096
const sql = (/** @type {unknown} */ text) => `'${String(text).replace(/'/g, "''")}'`

/**
 * How each day is written: whether DuckDB dictionary-encodes its chunks and writes bloom filters, and
 * which columns it has beyond the first days'.
 */
const DAY_LAYOUT = [
  { bloom: true, coupon: false },
  { bloom: false, coupon: false },
  { bloom: true, coupon: true },
]

/**
 * The dataset: file f (day-major, then country) holds order ids f * 10000 + i and user ids spread over
 * the whole range 0 … 1,000,002 (a bijection of the row's number), so every file's min/max spans nearly
 * all user ids and only a file's own indexes (or the sidecar index) can rule one out.
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {string} root
 * @param {string} scratch a folder for each day's COPY
 */
async function writeDataset(conn, root, scratch) {
  await rm(root, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  for (const [d, day] of DAYS.entries()) {
    const { bloom, coupon } = DAY_LAYOUT[d]
    const staging = path.join(scratch, `day-${d}`)
    const files = COUNTRIES.map((country, c) => `(${sql(country)}, ${d * COUNTRIES.length + c})`).join(', ')
    await conn.run(`COPY (SELECT DATE ${sql(day)} AS day, country,
        (f * 10000 + i)::BIGINT AS order_id,
        (((f * ${ROWS_PER_FILE} + i) * 7919 + 104729) % 1000003)::BIGINT AS user_id,
        'sku-' || lpad(((f * 131 + i * 17) % 5000)::VARCHAR, 4, '0') AS product,
        ((i * 37 % 20000) / 100)::DECIMAL(10, 2) AS amount
        ${coupon ? `, CASE country WHEN 'DE' THEN (['VIP', 'WELCOME10'])[i % 2 + 1] WHEN 'FR' THEN 'BIENVENUE' ELSE 'SPRING' END AS coupon` : ''}
      FROM (VALUES ${files}) p(country, f), range(${ROWS_PER_FILE}) t(i) ORDER BY f, i)
      TO ${sql(staging)} (FORMAT parquet, PARTITION_BY (day, country), ROW_GROUP_SIZE 2048,
        ${bloom ? 'DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01' : 'DICTIONARY_SIZE_LIMIT 1'})`)
    // Each day's folder moves into the dataset whole: one COPY per day, so each can be written its own way.
    for (const entry of await readdir(staging)) await rename(path.join(staging, entry), path.join(root, entry))
  }
}

/**
 * The dataset's files, relative to its root, sorted.
 * @param {string} root
 */
export async function datasetFiles(root) {
  const out = []
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.parquet')) out.push(path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
  }
  return out.sort()
}

/**
 * A value of `column` that DuckDB finds in exactly one file (in `preferred`'s, the nearest `middle` — inside
 * every file's min/max — or the first), and one it finds in none.
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {string} root
 * @param {string} column
 * @param {{ preferred: string, absentFrom: Array<string | number>, middle?: number }} choice
 */
async function chooseValues(conn, root, column, { preferred, absentFrom, middle = undefined }) {
  const glob = sql(path.join(root, '**/*.parquet'))
  const [there] = (await conn.runAndReadAll(`SELECT ${column}::VARCHAR AS v FROM read_parquet(${glob}, union_by_name = true, filename = true)
      WHERE filename LIKE ${sql(`%${preferred}%`)} AND ${column} IS NOT NULL
        AND ${column} IN (SELECT ${column} FROM read_parquet(${glob}, union_by_name = true, filename = true) GROUP BY ${column} HAVING count(DISTINCT filename) = 1)
      ORDER BY ${middle === undefined ? column : `abs(${column} - ${middle})`}, ${column} LIMIT 1`)).getRowObjectsJS()
  for (const candidate of absentFrom) {
    const [{ n }] = (await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet(${glob}, union_by_name = true) WHERE ${column}::VARCHAR = ${sql(candidate)}`)).getRowObjectsJS()
    if (n === 0) return { there: there.v, notThere: String(candidate) }
  }
  throw new Error(`no value of ${column} is absent from the sample dataset among ${absentFrom}`)
}

/**
 * The sidecar index of the dataset's user_id, built from the URLs the demo server serves (no ETag, no
 * Last-Modified: the index records no validator and the sizes decide, as they will when the page probes).
 * @param {string} dir
 * @param {string[]} files
 */
async function writeSidecarIndex(dir, files) {
  const { startDemoServer } = await import('../web/server.js')
  const { buildSidecarIndex } = await import('../js/index-builder/index.js')
  const server = await startDemoServer({ port: 0, mounts: { 'sample-root': dir } })
  try {
    const base = `${server.url}sample-root/${path.posix.dirname(DATASET_INDEX)}/`
    await buildSidecarIndex(files.map((f) => `${server.url}sample-root/${DATASET_DIR}/${f}`), path.join(dir, DATASET_INDEX), { columns: ['user_id'], base })
  } finally {
    await server.close()
  }
}

/** The Iceberg sample: 6 files over 3 days in snapshot 1; snapshot 2 adds 2 files and deletes rows of file 1. */
export const ICEBERG_SHAPE = { files: 6, manifests: 3, rows: 200, filesPerDay: 2, then: { files: 2, deletes: [{ file: 1, positions: [0, 5, 9] }] } }

/**
 * The Delta sample's files, the writer's input: file k (country DELTA_COUNTRIES[k % 3]) holds ids
 * k * 1000 + 3j and products; `version` is the commit that adds it. File 1 gets a deletion vector at
 * version 5 (rows DELTA_DELETED).
 */
export const DELTA_ROWS = 300
export const DELTA_COUNTRIES = ['DE', 'FR', 'US']
export const DELTA_DELETED = [0, 4, 7]
export const deltaFileIds = (/** @type {number} */ k) => Array.from({ length: DELTA_ROWS }, (_, j) => BigInt(k * 1000 + 3 * j))
/** @param {number} k */
const deltaProducts = (k) => Array.from({ length: DELTA_ROWS }, (_, j) => `sku-${String((k * 131 + j * 17) % 5000).padStart(4, '0')}`)
export const DELTA_FILES = Array.from({ length: 8 }, (_, k) => ({
  path: `country=${DELTA_COUNTRIES[k % 3]}/part-${String(k).padStart(5, '0')}.snappy.parquet`,
  country: DELTA_COUNTRIES[k % 3],
  version: k < 3 ? 0 : k < 7 ? k - 2 : 6,
  ids: deltaFileIds(k),
}))

/** @param {string} root */
async function writeDeltaTable(root) {
  await rm(root, { recursive: true, force: true })
  const schema = { type: 'struct', fields: [
    { name: 'id', type: 'long', nullable: false, metadata: {} },
    { name: 'product', type: 'string', nullable: true, metadata: {} },
    { name: 'country', type: 'string', nullable: true, metadata: {} },
  ] }
  const protocol = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['deletionVectors'], writerFeatures: ['deletionVectors'] }
  const metaData = { id: '0b6c7f0e-9d6a-4a43-8a0e-5f4b2a9c1d77', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema),
    partitionColumns: ['country'], configuration: { 'delta.enableDeletionVectors': 'true' }, createdTime: 1767225600000 }
  /** @type {Record<string, Uint8Array>} path → the file's bytes */
  const bytes = {}
  const adds = DELTA_FILES.map((f, k) => {
    const data = parquetWriteBuffer({ columnData: [
      { name: 'id', data: BigInt64Array.from(f.ids), type: 'INT64', bloomFilter: true },
      { name: 'product', data: deltaProducts(k), type: 'STRING', bloomFilter: true },
    ] })
    bytes[f.path] = new Uint8Array(data)
    const products = deltaProducts(k).sort()
    const stats = { numRecords: DELTA_ROWS, minValues: { id: Number(f.ids[0]), product: products[0] }, maxValues: { id: Number(f.ids.at(-1)), product: products.at(-1) }, nullCount: { id: 0, product: 0 } }
    return { path: f.path, partitionValues: { country: f.country }, size: data.byteLength, modificationTime: 1767225600000 + f.version * 60_000, dataChange: true, stats: JSON.stringify(stats) }
  })
  /**
   * @param {number} version
   * @param {string} operation
   */
  const commitInfo = (version, operation) => ({ commitInfo: { timestamp: 1767225600000 + version * 60_000, operation, engineInfo: 'parquet-bloom demo sample writer' } })
  /** @type {Record<string, string | Uint8Array>} file name → its text or bytes */
  const log = {}
  for (let version = 0; version <= 6; version++) {
    /** @type {object[]} */
    const actions = [commitInfo(version, version === 5 ? 'DELETE' : 'WRITE')]
    if (version === 0) actions.push({ protocol }, { metaData })
    actions.push(...adds.filter((_, k) => DELTA_FILES[k].version === version && version !== 5).map((add) => ({ add })))
    if (version === 5) {
      // A DELETE by deletion vector: the file is removed and added again with the vector (PROTOCOL.md "Deletion Vectors").
      const [one] = adds.slice(1, 2)
      actions.push({ remove: { path: one.path, deletionTimestamp: 1767225600000 + 5 * 60_000, dataChange: true, partitionValues: one.partitionValues, size: one.size } },
        { add: { ...one, deletionVector: inlineDeletionVector(DELTA_DELETED) } })
    }
    log[`${pad(version)}.json`] = commitText(actions)
  }
  // The checkpoint of version 4: protocol, metadata and the live files then (the first seven).
  const checkpointed = adds.filter((_, k) => DELTA_FILES[k].version <= 4).map((add) => ({ add: { ...add, partitionValues: Object.entries(add.partitionValues).map(([key, value]) => ({ key, value })),
    size: BigInt(add.size), modificationTime: BigInt(add.modificationTime) } }))
  const checkpointActions = [{ protocol }, { metaData: { id: metaData.id, schemaString: metaData.schemaString, partitionColumns: metaData.partitionColumns } }, ...checkpointed]
  log[`${pad(4)}.checkpoint.parquet`] = checkpointParquet(checkpointActions)
  log._last_checkpoint = JSON.stringify({ version: 4, size: checkpointActions.length })
  await writeDeltaFiles(root, log, bytes)
}

/**
 * Writes what is missing (everything with force) and the manifest; returns the manifest:
 * { version, samples: [{ id, title, kind, fields, column, values, absent }], dataset: { files } }.
 * @param {{ dir?: string, force?: boolean, log?: (line: string) => void }} [options]
 */
export async function buildDatasetSamples({ dir = samplesDir, force = false, log = () => {} } = {}) {
  const manifestPath = path.join(dir, MANIFEST)
  const parts = [DATASET_DIR, DATASET_INDEX, ICEBERG_DIR, DELTA_DIR, MANIFEST]
  if (!force && parts.every((p) => existsSync(path.join(dir, p)))) {
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
    if (manifest.version === MANIFEST_VERSION) return manifest
  }
  const started = Date.now()
  await mkdir(path.join(dir, 'dataset'), { recursive: true })
  const { makeTempDir } = await import('./temp-dir.js')
  const scratch = await makeTempDir('dataset-samples')
  try {
    return await withDuckDB(async (conn) => {
      const root = path.join(dir, DATASET_DIR)
      await writeDataset(conn, root, scratch.dir)
      const files = await datasetFiles(root)
      await writeSidecarIndex(dir, files)
      const users = await chooseValues(conn, root, 'user_id', { preferred: 'day=2026-01-08/country=FR', absentFrom: [500000, 500001, 500002, 500003], middle: 500000 })
      const coupons = await chooseValues(conn, root, 'coupon', { preferred: 'country=DE', absentFrom: ['FREESHIP'] })
      await rm(path.join(dir, ICEBERG_DIR), { recursive: true, force: true })
      const iceberg = await writeIcebergTable(path.join(dir, ICEBERG_DIR), ICEBERG_SHAPE)
      await writeDeltaTable(path.join(dir, DELTA_DIR))
      const urls = files.map((f) => `${DATASET_DIR}/${f}`)
      const manifest = {
        version: MANIFEST_VERSION,
        dataset: { files: urls, bytes: await totalSize(root, files) },
        samples: [
          { id: 'dataset-urls', title: `Hive dataset: ${files.length} files by day and country (DuckDB); day 2 without bloom filters`,
            kind: 'urls', fields: { urls }, column: 'user_id', values: [users.there], absent: [users.notThere] },
          { id: 'dataset-index', title: 'The same files with a sidecar index of user_id: it answers for the files without bloom filters',
            kind: 'urls', fields: { urls, index: DATASET_INDEX }, column: 'user_id', values: [users.there], absent: [users.notThere] },
          { id: 'dataset-bucket', title: `The same dataset as an s3:// prefix on a local S3 server; coupon, a column only day 3's files have`,
            kind: 'prefix', fields: { prefix: `s3://${SAMPLE_BUCKET.bucket}/${SAMPLE_BUCKET.prefix}` }, column: 'coupon', values: [coupons.there], absent: [coupons.notThere] },
          { id: 'table-iceberg', title: `Iceberg table: partitioned by day, ${iceberg.snapshots.length} snapshots, a position delete file`,
            kind: 'table', fields: { location: `${ICEBERG_DIR}/`, format: 'iceberg' }, column: 'id',
            values: [String(fileIds(3, ICEBERG_SHAPE.rows)[17])], absent: [String(3 * ID_STRIDE + 1)], snapshots: iceberg.snapshots },
          { id: 'table-delta', title: 'Delta table: partitioned by country, a checkpoint, a deletion vector',
            kind: 'table', fields: { location: `${DELTA_DIR}/`, format: 'delta' }, column: 'id',
            values: [String(DELTA_FILES[5].ids[40])], absent: [String(DELTA_FILES[5].ids[40] + 1n)] },
        ],
      }
      await writeFile(`${manifestPath}.${process.pid}.partial`, `${JSON.stringify(manifest, null, 2)}\n`)
      await rename(`${manifestPath}.${process.pid}.partial`, manifestPath)
      log(`wrote the dataset and table samples (${files.length} dataset files, an index, an Iceberg and a Delta table) in ${Date.now() - started} ms`)
      return manifest
    })
  } finally {
    await scratch.remove()
  }
}

/**
 * @param {string} root
 * @param {string[]} files
 */
async function totalSize(root, files) {
  let n = 0
  for (const f of files) n += (await stat(path.join(root, f))).size
  return n
}
