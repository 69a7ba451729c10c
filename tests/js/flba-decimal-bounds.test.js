// Bounds of a FIXED_LEN_BYTE_ARRAY DECIMAL column are PLAIN values of the column: type_length bytes each.
// arrow-rs from 42 (apache/arrow-rs#4389) to 49 truncated binary ColumnIndex bounds past
// column_index_truncate_length, decimals included (fixed by apache/arrow-rs#5154: their order is not the
// bytes'), and its current writer still truncates BYTE_ARRAY and binary statistics past
// statistics_truncate_length: a bound cut to 8 bytes and "incremented" as bytes reads as a decimal of 8
// bytes, another number (1234567 cut to zeros and incremented is 1; -500 cut to 0xff… is -1). Such
// bounds are not used; bounds of the full width still are. Truth: the values hyparquet reads back.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openParquet } from '../../js/index.js'
import { columnChunk, columnMetaData, parseParquet, rebuild } from '../../testkit/file-surgery.js'
import { T, encodeStruct, getField, removeField, setField, struct } from '../../testkit/thrift-writer.js'

const UNSCALED = [-500, 1234567, 99, 2500] // DECIMAL(38, 2): -5.00, 12345.67, 0.99, 25.00
const STORED = ['-5.00', '12345.67', '0.99', '25.00']
const OUTSIDE = ['-5.01', '12345.68', '-123456.78']

/** A DECIMAL's unscaled value as type_length big-endian two's complement bytes (PLAIN FIXED_LEN_BYTE_ARRAY). */
function fixed(unscaled, length = 16) {
  const bytes = new Uint8Array(length)
  let v = BigInt.asUintN(length * 8, BigInt(unscaled))
  for (let i = length - 1; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn)
  return bytes
}

/** arrow-rs's truncate_min_value / truncate_max_value on non-UTF-8 bytes: the prefix; the prefix incremented. */
const truncatedMin = (bytes, length) => bytes.slice(0, length)
function truncatedMax(bytes, length) {
  const out = bytes.slice(0, length)
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] < 0xff) {
      out[i]++
      return out
    }
    out[i] = 0
  }
  throw new Error('cannot increment')
}

const base = parseParquet(new Uint8Array(parquetWriteBuffer({
  columnData: [{ name: 'd', data: UNSCALED.map((u) => u / 100), encoding: 'PLAIN' }],
  schema: [{ name: 'root', num_children: 1 }, {
    name: 'd', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, repetition_type: 'REQUIRED', converted_type: 'DECIMAL',
    precision: 38, scale: 2, logical_type: { type: 'DECIMAL', precision: 38, scale: 2 },
  }],
})))

/**
 * The file as an arrow-rs before 50 would write it (no column_orders), with chunk statistics and a page
 * index (one page) whose bounds are `length` bytes of the extremes, cut as arrow-rs cuts them.
 * @param {number} length 16: the full width (no truncation)
 */
function written(length) {
  const sorted = [...UNSCALED].sort((a, b) => a - b)
  const min = length === 16 ? fixed(sorted[0]) : truncatedMin(fixed(sorted[0]), length)
  const max = length === 16 ? fixed(sorted.at(-1)) : truncatedMax(fixed(sorted.at(-1)), length)
  const meta = columnMetaData(base.meta, 0, 0)
  const pageOffset = getField(meta, 9).value
  const pageSize = getField(meta, 7).value
  assert.equal(getField(meta, 11), undefined, 'one data page, no dictionary')
  const offsetIndex = encodeStruct(struct([1, T.LIST, {
    elemType: T.STRUCT, items: [struct([1, T.I64, pageOffset], [2, T.I32, Number(pageSize)], [3, T.I64, 0n])],
  }]))
  const columnIndex = encodeStruct(struct(
    [1, T.LIST, { elemType: T.TRUE, items: [false] }],
    [2, T.LIST, { elemType: T.BINARY, items: [min] }],
    [3, T.LIST, { elemType: T.BINARY, items: [max] }],
    [4, T.I32, 1],
    [5, T.LIST, { elemType: T.I64, items: [0n] }],
  ))
  return rebuild(base, (edited, [oiAt, ciAt]) => {
    setField(edited, 6, T.BINARY, new TextEncoder().encode('parquet-rs version 45.0.0'))
    removeField(edited, 7)
    const chunk = columnChunk(edited, 0, 0)
    setField(getField(chunk, 3).value, 12, T.STRUCT, struct(
      [3, T.I64, 0n], [5, T.BINARY, max], [6, T.BINARY, min], [7, T.TRUE, length === 16], [8, T.TRUE, length === 16],
    ))
    setField(chunk, 4, T.I64, BigInt(oiAt))
    setField(chunk, 5, T.I32, offsetIndex.length)
    setField(chunk, 6, T.I64, BigInt(ciAt))
    setField(chunk, 7, T.I32, columnIndex.length)
  }, [offsetIndex, columnIndex])
}

/** Each probed value's verdict, by statistics alone and by the page index alone. */
async function verdicts(bytes, values) {
  const file = await openParquet(bytes)
  try {
    const out = {}
    for (const [how, options] of [['statistics', { pageIndex: false }], ['page index', { statistics: false, pageIndex: true }]]) {
      const result = await file.probe('d', values, { dictionary: false, ...options })
      out[how] = result.rowGroups[0].results.map((r) => r.verdict)
    }
    return out
  } finally {
    await file.close()
  }
}

describe('FIXED_LEN_BYTE_ARRAY DECIMAL bounds', () => {
  test('the file holds the values (hyparquet reads them back)', async () => {
    const bytes = written(16)
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) })
    assert.deepEqual(rows.map((r) => r.d), UNSCALED.map((u) => u / 100))
  })

  test('bounds of the full width rule out values beyond them, never a stored one', async () => {
    const answers = await verdicts(written(16), [...STORED, ...OUTSIDE])
    for (const how of ['statistics', 'page index']) {
      assert.deepEqual(answers[how].slice(0, STORED.length).filter((v) => v === 'absent'), [], how)
      assert.deepEqual(answers[how].slice(STORED.length), OUTSIDE.map(() => 'absent'), how)
    }
  })

  test('bounds cut to 8 bytes (arrow-rs truncation) are not used: no stored value is absent', async () => {
    const answers = await verdicts(written(8), STORED)
    assert.deepEqual(answers, { statistics: STORED.map(() => 'unknown'), 'page index': STORED.map(() => 'unknown') })
    const file = await openParquet(written(8))
    try {
      const statistics = file.metadata.rowGroups[0].columns[0].indexes.statistics
      assert.deepEqual([statistics.usable, statistics.reason], [false, 'inconsistent-statistics'])
    } finally {
      await file.close()
    }
  })
})
