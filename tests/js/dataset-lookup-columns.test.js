// A dataset probe whose `columns` (point lookups) names a column some files lack: DuckDB's union_by_name reads
// such a file's rows with that column null. The file answered `unknown` (column-missing) for every value instead,
// even for values its probed column holds; now it answers them, the missing column null in its row values.
import assert from 'node:assert/strict'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
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

test('a file whose lookup column page cannot be read: its rows without values, not the missing column\'s null beside nothing', async () => {
  await init()
  const dir = path.join(root, 'unreadable')
  await mkdir(dir)
  await withDuckDB(async (connection) => {
    // a: nullable id and x, one PLAIN page each, definition levels [u32 length 2][RLE run of 3 ones: 06 01]; b: id, name.
    await connection.run(`COPY (SELECT i::INTEGER AS id, i::INTEGER * 3 AS x FROM range(3) t(i)) TO '${dir}/a.parquet'
      (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 0)`)
    await connection.run(`COPY (SELECT i::INTEGER AS id, 'n' || i AS name FROM range(3) t(i)) TO '${dir}/b.parquet' (FORMAT parquet)`)
  })
  const a = await readFile(`${dir}/a.parquet`)
  const needle = Buffer.from('020000000601', 'hex')
  const xPage = a.indexOf(needle, a.indexOf(needle) + 1)
  assert.ok(xPage > 0, 'x\'s page is where DuckDB writes it')
  a[xPage + 4] = 0x04 // x's run says 2 of its 3 levels: DuckDB refuses the page, exact lookups read it as unreadable
  await writeFile(`${dir}/a.parquet`, a)
  const refused = await withDuckDB((connection) =>
    connection.runAndReadAll(`SELECT x FROM '${dir}/a.parquet'`).then(() => false, () => true))
  assert.ok(refused, 'DuckDB refuses a\'s x page')
  const dataset = await openDataset(dir)
  const result = await dataset.probe('id', [1, 2], { confirm: true, columns: ['x', 'name'] })
  const [fileA, fileB] = ['a.parquet', 'b.parquet'].map((name) => result.files.find((f) => f.path === name))
  fileA.values.forEach((r, v) => {
    assert.deepEqual([r.verdict, r.rows, r.values], ['present', [v + 1], undefined], `a ${r.value}: ${JSON.stringify(r.values)}`)
    assert.match(fileA.rowGroups[0].results[v].detail, /the rows' values of x could not be read/)
  })
  fileB.values.forEach((r, v) => assert.deepEqual(r.values, [{ x: null, name: `n${v + 1}` }], `b ${r.value}`))
})

test('a lookup column a file names in another case is its values, not null: DuckDB union_by_name reads Name as name', async () => {
  await init()
  const dir = path.join(root, 'case')
  await mkdir(dir)
  const truth = await withDuckDB(async (connection) => {
    await connection.run(`COPY (SELECT i AS id, 'a' || i AS name FROM range(3) t(i)) TO '${dir}/a.parquet' (FORMAT parquet)`)
    await connection.run(`COPY (SELECT i AS id, 'b' || i AS "Name" FROM range(3) t(i)) TO '${dir}/b.parquet' (FORMAT parquet)`)
    const rows = (await connection.runAndReadAll(`SELECT parse_filename(filename), name
      FROM read_parquet('${dir}/*.parquet', union_by_name = true, filename = true) WHERE id = 1`)).getRows()
    return new Map(rows.map(([file, name]) => [file, name]))
  })
  assert.equal(truth.get('b.parquet'), 'b1', 'DuckDB reads b\'s Name as name')
  const dataset = await openDataset(dir)
  const result = await dataset.probe('id', [1], { confirm: true, columns: ['name'] })
  assert.equal(result.files.length, 2)
  for (const file of result.files) {
    const r = file.values[0]
    assert.equal(r.verdict, 'present', `${file.path}: ${r.reason} ${r.detail}`)
    assert.deepEqual(r.values, [{ name: truth.get(file.path) }], file.path)
  }
})

test('columnsMissing names the lookup columns a file lacks: a name no file has (a typo DuckDB refuses) is told, not only nulls',
  async () => {
    await init()
    const dir = path.join(root, 'typo')
    await mkdir(dir)
    const refused = await withDuckDB(async (connection) => {
      await connection.run(`COPY (SELECT i AS id, 'n' || i AS name FROM range(3) t(i)) TO '${dir}/a.parquet' (FORMAT parquet)`)
      await connection.run(`COPY (SELECT i AS id, i * 2 AS twice FROM range(3) t(i)) TO '${dir}/b.parquet' (FORMAT parquet)`)
      const read = (/** @type {string} */ column) => connection.runAndReadAll(`SELECT ${column}
        FROM read_parquet('${dir}/*.parquet', union_by_name = true) WHERE id = 1`).then(() => false, () => true)
      return { nmae: await read('nmae'), name: await read('name'), twice: await read('twice') }
    })
    assert.deepEqual(refused, { nmae: true, name: false, twice: false }, 'DuckDB refuses only the name no file has')
    const dataset = await openDataset(dir)
    const result = await dataset.probe('id', [1], { confirm: true, columns: ['nmae', 'name', 'twice'] })
    const missing = Object.fromEntries(result.files.map((f) => [f.path, f.columnsMissing]))
    assert.deepEqual(missing, { 'a.parquet': ['nmae', 'twice'], 'b.parquet': ['nmae', 'name'] })
    const inEvery = ['nmae', 'name', 'twice'].filter((c) => result.files.every((f) => f.columnsMissing?.includes(c)))
    assert.deepEqual(inEvery, Object.keys(refused).filter((c) => refused[c]))
    // Names every file has: no field, the published shape as it was.
    const plain = await dataset.probe('id', [1], { confirm: true, columns: ['id'] })
    for (const f of plain.files) assert.equal('columnsMissing' in f, false, f.path)
  })

test('a lookup column that is a Hive partition key is its folder\'s value in the rows, as DuckDB\'s hive_partitioning reads it,' +
  ' not null, nor in columnsMissing', async () => {
  await init()
  const dir = path.join(root, 'hive')
  const probes = [0, 1, 4, 7]
  const truth = await withDuckDB(async (connection) => {
    await connection.run(`COPY (SELECT i::INT AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE 'r' || (i % 3) END AS Region
      FROM range(9) t(i)) TO '${dir}' (FORMAT parquet, PARTITION_BY (Region))`)
    const rows = (await connection.runAndReadAll(`SELECT id, region FROM read_parquet('${dir}/**/*.parquet',
      hive_partitioning = true) WHERE id IN (${probes.join(', ')}) ORDER BY id`)).getRows()
    return rows.map(([id, region]) => ({ id: Number(id), region }))
  })
  assert.deepEqual(truth.map((t) => t.region), [null, 'r1', 'r1', 'r1'])
  const dataset = await openDataset(dir)
  const result = await dataset.probe('id', probes, { confirm: true, columns: ['region', 'id'] })
  const found = result.files.flatMap((f) => f.values.filter((v) => v.verdict === 'present')
    .flatMap((v) => v.values.map((row) => ({ id: Number(row.id), region: row.region }))))
  assert.deepEqual(found.sort((a, b) => a.id - b.id), truth)
  for (const f of result.files) assert.equal('columnsMissing' in f, false, f.path)
})
