// Hive-partitioned datasets written by DuckDB (COPY … TO dir (FORMAT parquet, PARTITION_BY …)) for the
// dataset tests and bench, and DuckDB's own answers over them: which files hold a value, and how many rows.
import path from 'node:path'

import { openDuckDB } from './duckdb.js'

/** A DuckDB connection for one setup or one truth query; closed by the caller with `close()`. */
export async function duckdb() {
  const { connection, close } = await openDuckDB()
  try {
    await connection.run("SET TimeZone = 'UTC'")
  } catch (error) {
    close()
    throw error
  }
  return {
    run: (sql) => connection.run(sql),
    rows: async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJS(),
    close,
  }
}

export function quote(text) {
  return `'${String(text).replace(/'/g, "''")}'`
}

/**
 * `days` × `countries` files (one per partition), `rowsPerFile` rows each, user_id BIGINT spread so each
 * file holds its own ids: file f holds f * 1000 + (0 … rowsPerFile - 1) * 3. With `bloom` DuckDB
 * dictionary-encodes the chunks and writes their bloom filters; without, neither.
 * @returns {Promise<{ dir: string, days: string[], countries: string[] }>}
 */
export async function writeHiveDataset(dir, { days = 3, countries = ['DE', 'FR', 'US'], rowsPerFile = 300, rowGroupSize = 2048, bloom = false } = {}) {
  const db = await duckdb()
  try {
    const dayList = Array.from({ length: days }, (_, d) => new Date(Date.UTC(2026, 0, 7 + d)).toISOString().slice(0, 10))
    const combos = dayList.flatMap((day) => countries.map((country) => ({ day, country })))
    const values = combos.map(({ day, country }, f) => `(DATE '${day}', '${country}', ${f})`).join(', ')
    await db.run(`CREATE TABLE parts(day DATE, country VARCHAR, f INTEGER) ; INSERT INTO parts VALUES ${values}`)
    await db.run(`COPY (SELECT day, country, (f * 1000 + i * 3)::BIGINT AS user_id, 'name' || (f * 1000 + i) AS name
      FROM parts, range(${rowsPerFile}) t(i) ORDER BY f, i)
      TO ${quote(dir)} (FORMAT parquet, PARTITION_BY (day, country), ROW_GROUP_SIZE ${rowGroupSize}, ${bloom ? 'DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01' : 'DICTIONARY_SIZE_LIMIT 1'})`)
    return { dir, days: dayList, countries }
  } finally {
    db.close()
  }
}

/**
 * DuckDB's answer: per file (path relative to `dir`), the rows where `predicate` holds.
 * @returns {Promise<Map<string, number>>}
 */
export async function filesHolding(dir, predicate, { glob = '**/*.parquet', unionByName = false } = {}) {
  const db = await duckdb()
  try {
    const rows = await db.rows(`SELECT filename, count(*)::INTEGER AS n FROM read_parquet(${quote(path.join(dir, glob))}, hive_partitioning = true,
      filename = true${unionByName ? ', union_by_name = true' : ''}) WHERE ${predicate} GROUP BY filename`)
    return new Map(rows.map((r) => [path.relative(dir, String(r.filename)).split(path.sep).join('/'), Number(r.n)]))
  } finally {
    db.close()
  }
}
