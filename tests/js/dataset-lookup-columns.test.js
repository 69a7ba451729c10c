// A dataset probe whose `columns` (point lookups) names a column some files lack: DuckDB's union_by_name reads
// such a file's rows with that column null. The file answered `unknown` (column-missing) for every value instead,
// even for values its probed column holds; now it answers them, the missing column null in its row values.
import assert from 'node:assert/strict'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'

import { init, openDataset } from '../../js/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const root = await tempDir('dataset-lookup-columns')

test('a lookup column one file lacks is null in its rows, as DuckDB union_by_name reads them', async () => {
  await init()
  const dir = path.join(root, 'ds')
  await mkdir(dir)
  const probes = [7, 12, 3, 100]
  const truth = await withDuckDB(async (connection) => {
    await connection.run(`COPY (SELECT i AS id, 'n' || i AS name FROM range(10) t(i)) TO '${dir}/a.parquet' (FORMAT parquet)`)
    await connection.run(`COPY (SELECT i AS id, i * 2 AS twice FROM range(5, 15) t(i)) TO '${dir}/b.parquet' (FORMAT parquet)`)
    const rows = (await connection.runAndReadAll(`SELECT parse_filename(filename), file_row_number, id, name
      FROM read_parquet('${dir}/*.parquet', union_by_name = true, filename = true, file_row_number = true)
      WHERE id IN (${probes.join(', ')})`)).getRows()
    return rows.map(([file, row, id, name]) => ({ file, row: Number(row), id: Number(id), name }))
  })
  assert.ok(truth.some((t) => t.file === 'b.parquet' && t.name === null), 'DuckDB reads b\'s rows with name null')
  const dataset = await openDataset(dir)
  const result = await dataset.probe('id', probes, { confirm: true, columns: ['name', 'id'] })
  for (const file of result.files) {
    probes.forEach((id, v) => {
      const rows = truth.filter((t) => t.file === file.path && t.id === id)
      const r = file.values[v]
      assert.equal(r.verdict, rows.length ? 'present' : 'absent', `${file.path} ${id}: ${r.reason} ${r.detail}`)
      if (!rows.length) return
      assert.deepEqual(r.rows, rows.map((t) => t.row), `${file.path} ${id}`)
      assert.deepEqual(r.values, rows.map((t) => ({ name: t.name, id: BigInt(t.id) })), `${file.path} ${id}`)
    })
  }
})
