// DuckDB (@duckdb/node-api, loaded on first use) for tests, benchmarks and the demo's samples: a fresh
// in-memory database and one connection per call, both closed whatever happens.

/**
 * Runs `fn` with a connection to a new in-memory DuckDB (and the database, for callers that need more
 * connections), closes both after, and returns what `fn` returns.
 * @template T
 * @param {(connection: import('@duckdb/node-api').DuckDBConnection, db: import('@duckdb/node-api').DuckDBInstance) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withDuckDB(fn) {
  const { DuckDBInstance } = await import('@duckdb/node-api')
  const db = await DuckDBInstance.create(':memory:')
  try {
    const connection = await db.connect()
    try {
      return await fn(connection, db)
    } finally {
      connection.closeSync()
    }
  } finally {
    db.closeSync()
  }
}
