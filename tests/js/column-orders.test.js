// ColumnOrder (parquet.thrift): min_value/max_value and the ColumnIndex are read only in TYPE_ORDER. Under
// IEEE754_TOTAL_ORDER (field 2, 2025) a bound may be NaN (an all-NaN chunk's) and -0 sorts below +0; a reader
// taking them as TYPE_ORDER bounds could rule out every value (x <= NaN is false); an order this reader does not
// know must leave them unused ("min and max stats for this column should be ignored"). Truth: the rows hyparquet
// reads back.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, test } from 'node:test'

import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openParquet } from '../../js/index.js'
import { columnMetaData, parseParquet, rebuild } from '../../testkit/file-surgery.js'
import { T, setField, struct } from '../../testkit/thrift-writer.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'

const NUMBERS = [0, -0, 1, -1, 2, -2, 0.5, 3, 5, -5, 6, Infinity, -Infinity]

/**
 * Probes every stored value of every column (and NUMBERS) in every row group, by statistics and by the page index
 * alone: { absent, total, wrong } with `wrong` the stored values answered absent.
 */
async function probeStored(bytes, columns) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
  const file = await openParquet(bytes)
  try {
    const counts = { absent: 0, total: 0, wrong: [] }
    for (const name of columns) {
      const rows = await parquetReadObjects({ file: buffer, columns: [name] })
      const stored = rows.map((r) => r[name])
      const values = [...new Set([...stored.filter((v) => typeof v === 'number' && !Number.isNaN(v)), ...NUMBERS])]
      for (const options of [{ pageIndex: false }, { statistics: false, pageIndex: true }]) {
        const result = await file.probe(name, values, { dictionary: false, ...options })
        let start = 0
        for (const group of result.rowGroups) {
          const held = stored.slice(start, (start += file.layout.rowGroupRows[group.index]))
          for (const r of group.results) {
            counts.total++
            if (r.verdict !== 'absent') continue
            counts.absent++
            if (held.some((h) => h === r.value)) counts.wrong.push(`${name} row group ${group.index}: ${r.value} (${r.reason})`)
          }
        }
      }
    }
    return counts
  } finally {
    await file.close()
  }
}

describe('column orders', () => {
  const fixture = 'parquet-testing/floating_orders_nan_count.parquet'
  test('floating_orders_nan_count: no stored value is absent in IEEE 754 or type-defined order columns', { skip: missingFixture(fixture) },
    async () => {
      const bytes = new Uint8Array(await readFile(fixturePath(fixture)))
      const columns = ['float_ieee754', 'float_typedef', 'double_ieee754', 'double_typedef']
      const counts = await probeStored(bytes, columns)
      assert.deepEqual(counts.wrong, [])
      assert.ok(counts.absent > 100, `other values are still ruled out (${counts.absent} of ${counts.total})`)
      const file = await openParquet(bytes)
      try {
        assert.deepEqual(Array.from(file.layout.columnOrders), [2, 1, 2, 1, 2, 1])
        // Row group 2 is all NaN: its IEEE 754 bounds are NaN, and the deprecated min/max too.
        const statistics = file.metadata.rowGroups[2].columns.find((c) => c.path === 'double_ieee754').indexes.statistics
        assert.equal(statistics.usable, false)
      } finally {
        await file.close()
      }
    })

  test('bounds under an order this reader does not know, or IEEE 754 total order, are not used', async () => {
    const data = [-0, -0, -0, NaN, 1, 2, NaN, NaN, NaN, 0, 0, 0]
    const base = parseParquet(new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'd', data, type: 'DOUBLE' }], rowGroupSize: 3, createdBy: 'parquet-mr version 1.18.0 (build x)',
    })))
    const f64 = (x) => new Uint8Array(Float64Array.of(x).buffer)
    // Bounds a TYPE_ORDER reader would misread: a NaN max, an all-NaN chunk's NaNs, -0 as the max of +0s.
    const bounds = [[-0, -0], [1, NaN], [NaN, NaN], [-0, -0]]
    for (const order of [2, 9]) {
      const bytes = rebuild(base, (meta) => {
        setField(meta, 7, T.LIST, { elemType: T.STRUCT, items: [struct([order, T.STRUCT, struct()])] })
        bounds.forEach(([min, max], g) => {
          setField(columnMetaData(meta, g, 0), 12, T.STRUCT, struct([3, T.I64, 0n], [5, T.BINARY, f64(max)], [6, T.BINARY, f64(min)]))
        })
      })
      const file = await openParquet(bytes)
      try {
        const result = await file.probe('d', [0, 1, 2, 3], { dictionary: false, pageIndex: false })
        const unknown = bounds.map(() => ['unknown', 'unknown', 'unknown', 'unknown'])
        assert.deepEqual(result.rowGroups.map((g) => g.results.map((r) => r.verdict)), unknown, `ColumnOrder ${order}`)
        assert.equal(file.metadata.rowGroups[0].columns[0].indexes.statistics.reason, 'no-sort-order')
      } finally {
        await file.close()
      }
    }
  })
})
