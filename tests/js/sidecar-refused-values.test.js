// A probe value one file's column type refuses ('abc' for a BIGINT, a malformed date for a DATE: BAD_VALUE) is that
// file's error, with a sidecar index as without one: a dataset (read by name) of a BIGINT, a VARCHAR and a DATE file
// keeps every other file's answer. DuckDB writes the files and says where the values are (and refuses 'abc' for the
// BIGINT file alone). The index is an optimisation: each file answers the same verdicts and error code both ways,
// with an index of either format; the index itself answers such a file per file (its `error`), never the whole probe.
// A number past INT32 is no such refusal: `absent` (not-representable) both ways, as DuckDB finds no row.
import assert from 'node:assert/strict'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { ErrorCode, init, openDataset } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('sidecar-refused')
const files = {
  big: path.join(dir, 'big.parquet'), // x BIGINT 0…99
  text: path.join(dir, 'text.parquet'), // x VARCHAR, 'abc' and the text '2024-02-30' among others
  day: path.join(dir, 'day.parquet'), // x DATE
}
const int32 = path.join(dir, 'int32.parquet') // x INTEGER 0…99, beside text.parquet in a dataset of its own
const paths = Object.values(files)
// 'abc': refused by BIGINT and DATE; '2024-02-30': refused by BIGINT and DATE (no such day); 'zzz': refused by both too,
// and stored nowhere; 7: BIGINT holds it, VARCHAR reads it as '7' (absent there), DATE as day 7 (1970-01-08).
const values = ['abc', '2024-02-30', 'zzz', 7]
const indexes = { 1: path.join(dir, 'format1.puffin'), 2: path.join(dir, 'format2.puffin') }
const int32Indexes = { 1: path.join(dir, 'int32-format1.puffin'), 2: path.join(dir, 'int32-format2.puffin') }

before(async () => {
  await init()
  await withDuckDB(async (c) => {
    await c.run(`COPY (SELECT i::BIGINT AS x FROM range(100) t(i)) TO '${files.big}' (FORMAT parquet)`)
    await c.run(`COPY (SELECT x FROM (VALUES ('abc'), ('abd'), ('2024-02-30'), ('b')) t(x)) TO '${files.text}' (FORMAT parquet)`)
    await c.run(`COPY (SELECT DATE '1970-01-01' + i::INTEGER AS x FROM range(30) t(i)) TO '${files.day}' (FORMAT parquet)`)
    await c.run(`COPY (SELECT i::INTEGER AS x FROM range(100) t(i)) TO '${int32}' (FORMAT parquet)`)
  })
  await settleMtimes(...paths, int32)
  for (const format of [1, 2]) {
    await buildSidecarIndex(paths, indexes[format], { columns: ['x'], format })
    await buildSidecarIndex([int32, files.text], int32Indexes[format], { columns: ['x'], format })
  }
})

/** Per file (by name): its error code and each value's verdict. */
const byFile = (result) => Object.fromEntries(result.files.map((f) => [path.basename(f.path),
  { error: f.error?.code ?? null, verdicts: f.values.map((v) => v.verdict) }]))

describe('a value one file\'s column type refuses, with and without a sidecar index', () => {
  test('DuckDB: the BIGINT file refuses \'abc\'; read by name (VARCHAR), \'abc\' is in the text file', async () => {
    await withDuckDB(async (c) => {
      await assert.rejects(c.runAndReadAll(`SELECT * FROM read_parquet('${files.big}') WHERE x = 'abc'`), /Conversion Error/)
      await assert.rejects(c.runAndReadAll(`SELECT * FROM read_parquet('${files.day}') WHERE x = '2024-02-30'`), /Conversion Error|date/i)
      const rows = (await c.runAndReadAll(`SELECT x, filename FROM read_parquet(['${paths.join("','")}'], union_by_name = true,
        filename = true) WHERE x IN ('abc', '2024-02-30', 'zzz', '7', '1970-01-08')`)).getRows()
      assert.deepEqual(rows.map(([x, f]) => `${x}@${path.basename(String(f))}`).sort(),
        ['1970-01-08@day.parquet', '2024-02-30@text.parquet', '7@big.parquet', 'abc@text.parquet'])
    })
  })

  test('every file answers as without the index: the refusing files with BAD_VALUE, the others their verdicts', async () => {
    const plain = await openDataset(paths)
    const without = byFile(await plain.probe('x', values))
    await plain.close()
    // Without an index: the files that refuse a value are that file's error, the text file answers (DuckDB's rows).
    assert.deepEqual(without['big.parquet'], { error: ErrorCode.BAD_VALUE, verdicts: ['unknown', 'unknown', 'unknown', 'unknown'] })
    assert.deepEqual(without['day.parquet'], { error: ErrorCode.BAD_VALUE, verdicts: ['unknown', 'unknown', 'unknown', 'unknown'] })
    assert.equal(without['text.parquet'].error, null)
    assert.notEqual(without['text.parquet'].verdicts[0], 'absent') // 'abc' is there
    assert.notEqual(without['text.parquet'].verdicts[1], 'absent') // so is the text '2024-02-30'
    for (const format of [1, 2]) {
      const dataset = await openDataset(paths, { index: indexes[format] })
      const result = await dataset.probe('x', values)
      await dataset.close()
      const withIndex = byFile(result)
      // The refusing files as without the index; the text file's verdicts as without it, or sharper (the index's filter
      // rules out the '7' its min/max leave open), never absent for what DuckDB finds there.
      for (const name of ['big.parquet', 'day.parquet']) assert.deepEqual(withIndex[name], without[name], `format ${format}: ${name}`)
      assert.equal(withIndex['text.parquet'].error, null)
      withIndex['text.parquet'].verdicts.forEach((v, k) => assert.ok(v === without['text.parquet'].verdicts[k] ||
        (v === 'absent' && without['text.parquet'].verdicts[k] === 'maybe' && k >= 2), `format ${format}: ${values[k]}: ${v}`))
      for (const f of result.files) assert.equal(f.index?.described, true, `format ${format}: ${f.path} is described`)
    }
  })

  test('the index answers the refusing file per file, with its error; the others from their filters', async () => {
    for (const format of [1, 2]) {
      const index = await openSidecarIndex(indexes[format])
      try {
        const answer = await index.probe('x', values, { files: paths })
        const entries = Object.fromEntries(answer.files.map((f) => [path.basename(f.path), f]))
        for (const name of ['big.parquet', 'day.parquet']) {
          const entry = entries[name]
          assert.equal(entry.current, true)
          assert.equal(entry.error?.code, ErrorCode.BAD_VALUE, `format ${format}: ${name}`)
          assert.match(entry.error.message, new RegExp(`${name}: column x: `))
          for (const g of entry.rowGroups) {
            assert.deepEqual(g.results.map((r) => [r.verdict, r.reason]), values.map(() => ['unknown', 'file-error']))
          }
        }
        const text = entries['text.parquet']
        assert.equal(text.error, undefined)
        assert.deepEqual(text.rowGroups.map((g) => g.results[2].verdict), text.rowGroups.map(() => 'absent'), `format ${format}: no 'zzz'`)
        assert.ok(text.rowGroups.every((g) => g.results[0].verdict !== 'absent'), `format ${format}: 'abc' is there`)
      } finally {
        await index.close()
      }
    }
  })

  test('a number past INT32 is no caller error: absent in the INT32 file (no row in DuckDB), with the index as without', async () => {
    const big = 2 ** 40
    const rows = await withDuckDB(async (c) =>
      (await c.runAndReadAll(`SELECT count(*) FROM read_parquet('${int32}') WHERE x = ${big}`)).getRows())
    assert.equal(Number(rows[0][0]), 0)
    const plain = await openDataset([int32, files.text])
    const without = byFile(await plain.probe('x', [big, 5]))
    await plain.close()
    assert.deepEqual(without['int32.parquet'], { error: null, verdicts: ['absent', 'maybe'] })
    for (const format of [1, 2]) {
      const dataset = await openDataset([int32, files.text], { index: int32Indexes[format] })
      const result = await dataset.probe('x', [big, 5])
      await dataset.close()
      assert.deepEqual(byFile(result)['int32.parquet'], without['int32.parquet'], `format ${format}`)
      assert.equal(result.files.find((f) => f.path === int32).values[0].reason, 'not-representable')
    }
  })
})
