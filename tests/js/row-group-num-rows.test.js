// A row group's numRows is the footer's num_rows as written, whatever its size or sign: a malformed footer's count is
// not turned into another (plausible) one.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { openDataset, openParquet } from '../../js/index.js'
import { parseParquet, rebuild } from '../../testkit/file-surgery.js'
import { getField, setField, T } from '../../testkit/thrift-writer.js'
import { readFixture } from './helpers/fixtures.js'

const base = parseParquet(readFixture('parquet-testing/data_index_bloom_encoding_stats.parquet'))

test("numRows is the footer's num_rows, past 32 bits and negative too", async () => {
  for (const written of [-3_000_000_000n, -(2n ** 31n), -5n, 14n, 2n ** 30n, 2n ** 31n, 3_000_000_000n]) {
    // RowGroup.num_rows (field 3) of the file's one row group, rewritten.
    const bytes = rebuild(base, (meta) => { setField(getField(meta, 4).value.items[0], 3, T.I64, written) })
    const file = await openParquet(bytes)
    assert.equal((await file.probe('String', ['Hello'])).rowGroups[0].numRows, Number(written))
    const dataset = await openDataset([bytes])
    assert.equal((await dataset.probe('String', ['Hello'])).files[0].rowGroups[0].numRows, Number(written))
  }
})
