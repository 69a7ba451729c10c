// Runs SQL in DuckDB 1.4 (the npm alias duckdb14 of @duckdb/node-api 1.4.x) in its own Node process: the
// 1.4 and current bindings both load libduckdb under one soname, so in one process the second gets the
// first's library. Reads { statements, queries } as JSON on stdin; prints { version, results } as JSON,
// each query's rows as objects (bigints as strings).
import { withDuckDB } from '../../../testkit/duckdb.js'

let input = ''
for await (const chunk of process.stdin) input += chunk
const { statements = [], queries = [] } = JSON.parse(input)
await withDuckDB(async (conn) => {
  for (const sql of statements) await conn.run(sql)
  const version = (await conn.runAndReadAll('SELECT version() AS v')).getRowObjects()[0].v
  const results = []
  for (const sql of queries) results.push((await conn.runAndReadAll(sql)).getRowObjects())
  process.stdout.write(JSON.stringify({ version, results }, (_key, v) => (typeof v === 'bigint' ? v.toString() : v)))
}, { binding: 'duckdb14' })
