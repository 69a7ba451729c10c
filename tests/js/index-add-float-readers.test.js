// addIndexes on floating-point columns, checked by the reader that prunes with the new filters: DuckDB's scans of
// the copy must count every row the original's scans count. DuckDB hashes the constant of `c = v`, not the stored
// bits: one zero for both zeros, one NaN for every NaN (x86 computes NaN with the sign bit set), and a FLOAT16
// column's values as the FLOAT it reads them as. A filter holding only the stored PLAIN bytes (BloomFilter.md)
// made DuckDB skip row groups holding the rows: the copies' filters hold those forms too.
import assert from 'node:assert/strict'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { readBloomFilter, sbbfContains } from 'hyparquet/src/bloom.js'
import { xxhash64 } from 'hyparquet/src/xxhash.js'

import { init, openParquet } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { openDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('index-add-float-readers')
let duck
before(async () => {
  await init()
  duck = await openDuckDB()
})
after(() => duck?.close())

const count = async (file, where) => (await duck.connection.runAndReadAll(`SELECT count(*) FROM read_parquet('${file}') WHERE ${where}`))
  .getRows()[0][0]

/**
 * Each `where` counts the same rows in the copy as in the original (DuckDB prunes the copy with its filters).
 * `found`: the original has rows for each (DuckDB's scan of a FLOAT16 NaN as FLOAT equals no NaN).
 */
async function assertSameCounts(input, output, wheres, { found = false } = {}) {
  for (const where of wheres) {
    const before = await count(input, where)
    if (found) assert.ok(before > 0n, `${where}: the original has such rows`)
    assert.equal(await count(output, where), before, `${path.basename(input)}: ${where}`)
  }
}

describe('addIndexes: DuckDB finds every zero and NaN of FLOAT and DOUBLE columns in the copy', () => {
  test('-0.0 stored, 0.0 asked; NaN stored with its sign bit set (as x86 computes it), NaN asked', async () => {
    const written = path.join(dir, 'zeros-written.parquet')
    await duck.connection.run(`COPY (SELECT
        CASE WHEN i % 100 = 0 THEN '-0.0'::DOUBLE WHEN i % 100 = 1 THEN 'nan'::DOUBLE ELSE i * 1.5 END AS d,
        CASE WHEN i % 100 = 0 THEN '-0.0'::FLOAT WHEN i % 100 = 1 THEN 'nan'::FLOAT ELSE (i * 0.25)::FLOAT END AS f
      FROM range(30000) t(i)) TO '${written}' (COMPRESSION 'uncompressed', ROW_GROUP_SIZE 10240)`)
    // DuckDB writes NaN as the positive quiet NaN; give its PLAIN values the sign bit, as 0.0 / 0.0 on x86 has it.
    const bytes = await readFile(written)
    let flipped = 0
    for (const nan of [Buffer.from('000000000000f87f', 'hex'), Buffer.from('0000c07f', 'hex')]) {
      for (let at = bytes.indexOf(nan); at >= 0; at = bytes.indexOf(nan, at + nan.length)) {
        bytes[at + nan.length - 1] = 0xff
        flipped++
      }
    }
    assert.ok(flipped >= 600, `${flipped} NaNs given the sign bit`)
    const input = path.join(dir, 'zeros.parquet')
    await writeFile(input, bytes)
    const output = path.join(dir, 'zeros.indexed.parquet')
    const result = await addIndexes(input, output, { columns: ['d', 'f'] })
    assert.equal(result.added.length, 6)
    await assertSameCounts(input, output, [
      'd = 0.0', 'd = -0.0', 'isnan(d)', `d = 'nan'::DOUBLE`, 'd = 3.0',
      'f = 0.0::FLOAT', `f = '-0.0'::FLOAT`, `f = 'nan'::FLOAT`, 'f = 0.5::FLOAT',
    ], { found: true })
    // Readers of the spec still find the stored bits: hyparquet's SBBF has -0.0 and the stored NaN.
    const copy = new Uint8Array(await readFile(output))
    const hashOf = (hex) => xxhash64(Buffer.from(hex, 'hex'))
    for (const added of result.added.filter((a) => a.column === 'd')) {
      const region = copy.slice(added.offset, added.offset + added.length)
      const filter = readBloomFilter({ view: new DataView(region.buffer), offset: 0 })
      assert.ok(sbbfContains(filter.blocks, hashOf('0000000000000080')), 'the stored -0.0')
      assert.ok(sbbfContains(filter.blocks, hashOf('000000000000f8ff')), 'the stored NaN')
    }
  })
})

describe('addIndexes: DuckDB finds every value of a FLOAT16 column in the copy', () => {
  for (const name of ['float16_nonzeros_and_nans.parquet', 'float16_zeros_and_nans.parquet']) {
    test(name, { skip: missingFixture(`parquet-testing/${name}`) }, async () => {
      const input = fixturePath(`parquet-testing/${name}`)
      const output = path.join(dir, name)
      const result = await addIndexes(input, output, { columns: ['x'], replace: true })
      assert.ok(result.added.length > 0)
      const stored = (await duck.connection.runAndReadAll(
        `SELECT DISTINCT x::VARCHAR FROM read_parquet('${input}') WHERE x IS NOT NULL`)).getRows().map(([v]) => v)
      assert.ok(stored.length > 0)
      await assertSameCounts(input, output, stored.map((v) => `x = '${v}'::FLOAT`))
      // Our own probe of the copy rules none of them out.
      const file = await openParquet(output)
      try {
        const probed = await file.probe('x', stored.filter((v) => !/nan/i.test(v)).map(Number), { statistics: false })
        for (const g of probed.rowGroups) assert.ok(g.results.every((r) => r.verdict !== 'absent'))
      } finally {
        await file.close()
      }
    })
  }
})

test('the parquet-testing files with floating-point columns: DuckDB counts the same rows of each stored value', async (t) => {
  const skip = missingFixture('parquet-testing/floating_orders_nan_count.parquet')
  if (skip) return t.skip(skip)
  const data = path.dirname(fixturePath('parquet-testing/floating_orders_nan_count.parquet'))
  let checked = 0
  for (const name of ['floating_orders_nan_count.parquet', 'nan_in_stats.parquet', 'single_nan.parquet',
    'byte_stream_split_extended.gzip.parquet']) {
    if (!(await readdir(data)).includes(name)) continue
    const input = path.join(data, name)
    const output = path.join(dir, `pt-${name}`)
    const file = await openParquet(input)
    const floats = file.layout.columns.filter((c) => ['FLOAT', 'DOUBLE'].includes(c.physicalType) ||
      c.logicalType?.type === 'FLOAT16').map((c) => c.name)
    await file.close()
    await addIndexes(input, output, { columns: floats, replace: true })
    for (const column of floats) {
      const q = `"${column}"`
      let stored
      try {
        stored = (await duck.connection.runAndReadAll(
          `SELECT DISTINCT ${q}::VARCHAR, typeof(${q}) FROM read_parquet('${input}') WHERE ${q} IS NOT NULL`)).getRows()
      } catch {
        continue // DuckDB reads BYTE_STREAM_SPLIT pages of FLOAT and DOUBLE only
      }
      checked++
      await assertSameCounts(input, output, stored.map(([v, type]) => `${q} = '${v}'::${type}`))
    }
  }
  assert.ok(checked >= 10, `${checked} floating-point columns checked`)
})
