// The file of the round-trip tests and benchmark (reads planned for round trips, js/plan/link-model.js): 100 row groups of 2048 rows written by
// DuckDB, a BIGINT `id` of shuffled values with a bloom filter per row group (so min/max keep every row
// group and the filters must answer), and the ids of two rows whose row groups are known.
import path from 'node:path'
import { withDuckDB } from './duckdb.js'

export const ROUNDS_ROW_GROUPS = 100
export const ROUNDS_ROWS_PER_GROUP = 2048
/** The rows whose ids `writeRoundsFile` returns, and their row groups. */
export const ROUNDS_PROBED_ROWS = [{ row: 57 * 2048 + 5, rowGroup: 57 }, { row: 3 * 2048, rowGroup: 3 }]

/**
 * Writes `<dir>/<name>`; returns its path and the ids of ROUNDS_PROBED_ROWS, in that order (bigints).
 * @returns {Promise<{ file: string, values: bigint[] }>}
 */
export async function writeRoundsFile(dir, name = 'many.parquet') {
  const file = path.join(dir, name)
  return await withDuckDB(async (conn) => {
    const rows = ROUNDS_ROW_GROUPS * ROUNDS_ROWS_PER_GROUP
    await conn.run(`COPY (SELECT (hash(i) // 2)::BIGINT AS id, i::BIGINT AS row_id FROM range(${rows}) t(i))
      TO '${file.replace(/'/g, "''")}' (FORMAT parquet, ROW_GROUP_SIZE ${ROUNDS_ROWS_PER_GROUP}, DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
    const values = []
    for (const { row } of ROUNDS_PROBED_ROWS) {
      values.push((await conn.runAndReadAll(`SELECT (hash(${row}::BIGINT) // 2)::BIGINT AS id`)).getRowObjects()[0].id)
    }
    return { file, values }
  })
}
