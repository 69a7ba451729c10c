// DuckDB (@duckdb/node-api, loaded on first use) for tests, benchmarks and the demo's samples: a fresh
// in-memory database and one connection, closed whatever happens (withDuckDB), or kept open across a
// file's tests and closed by the caller (openDuckDB).

/**
 * A new in-memory DuckDB and one connection to it; `close()` closes both, and does nothing the second
 * time. `binding` names the package that provides DuckDB: '@duckdb/node-api', or an alias of another
 * version of it (the DuckDB 1.4 child process passes 'duckdb14').
 * @param {{ binding?: string }} [options]
 * @returns {Promise<{ connection: import('@duckdb/node-api').DuckDBConnection, db: import('@duckdb/node-api').DuckDBInstance, close: () => void }>}
 */
export async function openDuckDB({ binding = '@duckdb/node-api' } = {}) {
  const { DuckDBInstance } = await import(binding)
  const db = await DuckDBInstance.create(':memory:')
  let connection
  try {
    connection = await db.connect()
  } catch (error) {
    db.closeSync()
    throw error
  }
  let open = true
  const close = () => {
    if (!open) return
    open = false
    try {
      connection.closeSync()
    } finally {
      db.closeSync()
    }
  }
  return { connection, db, close }
}

/**
 * Runs `fn` with a connection to a new in-memory DuckDB (and the database, for callers that need more
 * connections), closes both after, and returns what `fn` returns.
 * @template T
 * @param {(connection: import('@duckdb/node-api').DuckDBConnection, db: import('@duckdb/node-api').DuckDBInstance) => Promise<T>} fn
 * @param {{ binding?: string }} [options] as for openDuckDB
 * @returns {Promise<T>}
 */
export async function withDuckDB(fn, options) {
  const duck = await openDuckDB(options)
  try {
    return await fn(duck.connection, duck.db)
  } finally {
    duck.close()
  }
}
