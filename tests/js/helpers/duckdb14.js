// DuckDB 1.4 for tests that need files it writes (no column_orders) or its answers: statements and queries run in a
// child process of their own (tests/js/helpers/duckdb14-child.js says why).
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'duckdb14-child.js')

/**
 * Runs `statements`, then `queries`, in DuckDB 1.4.
 * @param {{ statements?: string[], queries?: string[] }} job
 * @returns {Promise<{ version: string, results: Array<Array<Record<string, unknown>>> }>} each query's rows (bigints as strings)
 */
export async function duckdb14(job) {
  const pending = promisify(execFile)(process.execPath, [child], { maxBuffer: 256 * 1024 * 1024, timeout: 120_000 })
  pending.child.stdin?.end(JSON.stringify(job))
  const { stdout } = await pending
  return JSON.parse(stdout)
}
