// A LogicalType whose IntType or DecimalType lacks a required field (a writer's bug, or a footer damaged in
// transit): its column is read neither as unsigned nor at a scale of -1. The file defers to what else
// describes the column (its converted type, the SchemaElement's scale), as a legacy reader would, and no
// value it holds is ever "absent". Truth: the values hyparquet-writer wrote, before the footer was edited.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { init, openParquet } from '../../js/index.js'
import { parseParquet, rebuild } from '../../testkit/file-surgery.js'
import { getField, removeField } from '../../testkit/thrift-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const dir = await tempDir('logical-missing')
/** SchemaElement fields (parquet.thrift) */
const CONVERTED_TYPE = 6
const LOGICAL_TYPE = 10
/** LogicalType union members and their structs' fields */
const DECIMAL = 5
const INTEGER = 10
const DECIMAL_SCALE = 1
const INT_IS_SIGNED = 2

/**
 * A one-column INT32 file hyparquet-writer writes with this schema element.
 * @param {number[]} data
 * @param {Record<string, unknown>} element
 */
function writeColumn(data, element) {
  return editable(new Uint8Array(parquetWriteBuffer({
    columnData: [{ name: 'x', data }],
    schema: [{ name: 'root', num_children: 1 }, { name: 'x', type: 'INT32', repetition_type: 'REQUIRED', ...element }],
  })))
}

/**
 * A file of one column x, and copies of it with a field of x's logical type removed.
 * @param {Uint8Array} bytes
 */
function editable(bytes) {
  const base = parseParquet(bytes)
  /**
   * @param {number} member the LogicalType union member
   * @param {number} field the field of its struct to remove
   * @param {{ withoutConvertedType?: boolean }} [options]
   */
  const without = (member, field, { withoutConvertedType = false } = {}) => rebuild(base, (meta) => {
    const leaf = getField(meta, 2).value.items[1]
    const logical = getField(getField(leaf, LOGICAL_TYPE).value, member).value
    assert.ok(getField(logical, field), 'the writer wrote the field the test removes')
    removeField(logical, field)
    if (withoutConvertedType) removeField(leaf, CONVERTED_TYPE)
  })
  return { bytes, without }
}

/**
 * The verdict of each value in the file's one row group.
 * @param {string} label
 * @param {Uint8Array} bytes
 * @param {unknown[]} values
 */
async function verdicts(label, bytes, values) {
  const file = path.join(dir, `${label}.parquet`)
  await writeFile(file, bytes)
  const parquet = await openParquet(file)
  try {
    const answer = await parquet.probe('x', values)
    return answer.rowGroups[0].results.map((r) => r.verdict)
  } finally {
    await parquet.close()
  }
}

describe('an IntType or DecimalType without a required field', () => {
  before(() => init())

  test('a signed INTEGER without isSigned: -5 is not absent; with INT_32 beside it, the answers of the intact file', async () => {
    const col = writeColumn([-5, 3, 10],
      { logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: true }, converted_type: 'INT_32' })
    const values = [-5, 3, 10, 11, -6]
    const intact = await verdicts('signed-intact', col.bytes, values)
    assert.deepEqual(intact, ['maybe', 'maybe', 'maybe', 'absent', 'absent'])
    assert.deepEqual(await verdicts('signed-no-sign', col.without(INTEGER, INT_IS_SIGNED), values), intact)
    // Nothing else says how it is ordered: its statistics decide nothing, and what it holds is never absent.
    const bare = await verdicts('signed-bare', col.without(INTEGER, INT_IS_SIGNED, { withoutConvertedType: true }), values)
    assert.deepEqual(bare.slice(0, 3).map((v) => v === 'absent'), [false, false, false], `written values: ${bare}`)
  })

  test('an unsigned INTEGER without isSigned, UINT_32 beside it: read unsigned, as the intact file', async () => {
    // 4294967291 is stored as the bits of -5.
    const col = writeColumn([3, 4294967291],
      { logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false }, converted_type: 'UINT_32' })
    const values = [3, 4294967291, 4294967292]
    const intact = await verdicts('unsigned-intact', col.bytes, values)
    assert.deepEqual(intact.slice(0, 2), ['maybe', 'maybe'])
    assert.deepEqual(await verdicts('unsigned-no-sign', col.without(INTEGER, INT_IS_SIGNED), values), intact)
  })

  test('a DECIMAL without its scale takes the SchemaElement\'s: 12.50 and -0.03 stay in, 99.99 out', async () => {
    // DuckDB's statistics of a DECIMAL(4, 2) stored as INT32 are trusted (hyparquet-writer's are not).
    const written = path.join(dir, 'decimal-duckdb.parquet')
    await withDuckDB((db) => db.run(`COPY (SELECT x::DECIMAL(4, 2) AS x FROM (VALUES (12.50), (-0.03)) t(x)) TO '${written}'`))
    const col = editable(new Uint8Array(await readFile(written)))
    const values = ['12.50', '-0.03', '12.5', '99.99']
    const intact = await verdicts('decimal-intact', col.bytes, values)
    assert.deepEqual(intact.map((v) => v === 'absent'), [false, false, false, true], `intact: ${intact}`)
    assert.deepEqual(await verdicts('decimal-no-scale', col.without(DECIMAL, DECIMAL_SCALE), values), intact)
  })
})
