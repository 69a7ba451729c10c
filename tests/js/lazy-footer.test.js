// Big footers decode chunk indexes per column, on first need (js/footer/chunk-indexes.js): a probe decodes only
// the probed column's chunks; per-column decoding gives exactly what decoding every column at once gives,
// and what hyparquet reads from the same footers (parquet-testing files); a chunk that decodes wrong only
// when its column is first read still fails that probe with MALFORMED_FOOTER, while other columns probe.
import assert from 'node:assert/strict'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { chunkIndexDecodes, ensureColumnIndexes } from '../../js/footer/chunk-indexes.js'
import { decodeFileMetaData } from '../../js/footer/footer.js'
import { chunk as chunkRecord } from '../../js/footer/records.js'
import { ErrorCode, init, openParquet, ParquetBloomError } from '../../js/index.js'
import { editFooter } from './helpers/footer-edit.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { writeHyparquetSample } from '../../testkit/sample-files.js'
import { getField, setField, T } from '../../testkit/thrift-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('lazy-footer')
let sample

before(async () => {
  await init()
  sample = await writeHyparquetSample(dir)
})

/** 1 for each column whose chunk index records are decoded, else 0. */
const decodedColumns = (layout) => Array.from(layout.indexSlots, (slot) => (slot >= 0 ? 1 : 0))

/** The FileMetaData bytes of a Parquet file. */
function footerOf(bytes) {
  const length = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true)
  return bytes.subarray(bytes.length - 8 - length, bytes.length - 8)
}

describe('a probe decodes only what it reads', () => {
  test('probing one column decodes that column\'s chunks, in every row group, and no other column\'s', async () => {
    const file = await openParquet(sample.path)
    try {
      const { layout } = file
      const numRowGroups = layout.rowGroupRows.length
      assert.ok(numRowGroups >= 3 && layout.columns.length === 9)
      assert.deepEqual(decodedColumns(layout), new Array(9).fill(0), 'opening decodes no chunk index')
      const before = chunkIndexDecodes.chunks
      const column = layout.columns.find((c) => c.name === 'i64')
      const present = sample.columns.i64.rowGroups[0].find((e) => e.expect !== 'unknown')
      const result = await file.probe('i64', [present.forms[0]])
      assert.ok(result.rowGroups.some((g) => g.results[0].verdict === 'maybe'))
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups)
      assert.deepEqual(decodedColumns(layout), layout.columns.map((c) => (c.index === column.index ? 1 : 0)))
      await file.probe('i64', [present.forms[0]])
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups, 'a second probe decodes nothing')
      // file.metadata decodes a column when one of its chunks is first shown; showing all decodes the rest, once.
      assert.equal(file.metadata.rowGroups[0].columns.length, 9)
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups, 'counting row groups and columns decodes nothing')
      JSON.stringify(file.metadata)
      assert.deepEqual(decodedColumns(layout), new Array(9).fill(1))
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups * 9)
      JSON.stringify(file.metadata)
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups * 9)
    } finally {
      await file.close()
    }
  })
})

describe('file.metadata is built as it is read', () => {
  test('rowGroups.length decodes nothing; what is read matches hyparquet; arrays behave as arrays', async () => {
    const file = await openParquet(sample.path)
    try {
      const theirs = parquetMetadata((await readFile(sample.path)).buffer)
      const before = chunkIndexDecodes.chunks
      const metadata = file.metadata
      const { rowGroups } = metadata
      assert.ok(Array.isArray(rowGroups))
      assert.equal(rowGroups.length, theirs.row_groups.length)
      assert.equal(metadata.numRows, Number(theirs.num_rows))
      assert.equal(chunkIndexDecodes.chunks, before, 'nothing decoded before a column is read')
      const numRowGroups = rowGroups.length
      const bin = rowGroups[1].columns[7]
      assert.equal(bin.path, 'bin')
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups, 'reading one column decodes that column')
      assert.deepEqual(decodedColumns(file.layout), [0, 0, 0, 0, 0, 0, 0, 1, 0])
      assert.ok(Array.isArray(rowGroups[0].columns))
      // Every access path sees the same elements: index, iteration, methods, keys, JSON.
      assert.deepEqual(rowGroups.map((g) => g.numRows), theirs.row_groups.map((g) => Number(g.num_rows)))
      assert.deepEqual([...rowGroups].map((g) => g.index), Array.from({ length: numRowGroups }, (_, g) => g))
      assert.deepEqual(Object.keys(rowGroups), Array.from({ length: numRowGroups }, (_, g) => String(g)))
      assert.ok(0 in rowGroups && !(numRowGroups in rowGroups))
      assert.equal(rowGroups[numRowGroups], undefined)
      for (const [g, group] of rowGroups.entries()) {
        assert.deepEqual(group.columns.map((c) => c.pathInSchema.join('.')), theirs.row_groups[g].columns.map((c) => c.meta_data.path_in_schema.join('.')))
        for (const [i, column] of group.columns.entries()) {
          const offset = theirs.row_groups[g].columns[i].meta_data.bloom_filter_offset
          assert.equal(column.bloom?.offset, offset === undefined ? undefined : Number(offset))
        }
      }
      const spread = { ...metadata, rowGroups: [...rowGroups].map((g) => ({ ...g, columns: [...g.columns].map((c) => ({ ...c })) })) }
      assert.deepEqual(JSON.parse(JSON.stringify(spread)), JSON.parse(JSON.stringify(metadata)))
      assert.deepEqual(rowGroups, spread.rowGroups)
      assert.equal(chunkIndexDecodes.chunks - before, numRowGroups * 9, 'each column decoded once')
    } finally {
      await file.close()
    }
  })
})

describe('per-column decoding equals decoding every column', () => {
  test('on every parquet-testing file: chunk and index records identical, and as hyparquet reads them', async (t) => {
    const missing = missingFixture('parquet-testing')
    if (missing) return t.skip(missing)
    const names = (await readdir(fixturePath('parquet-testing'))).filter((n) => n.endsWith('.parquet')).sort()
    let compared = 0
    for (const name of names) {
      const bytes = new Uint8Array(await readFile(fixturePath(`parquet-testing/${name}`)))
      if (new TextDecoder().decode(bytes.subarray(-4)) !== 'PAR1') continue // encrypted footers
      const footer = footerOf(bytes)
      let eager
      try {
        eager = decodeFileMetaData(footer, name)
      } catch (error) {
        // A footer this reader refuses is refused the same way lazily, at open or at the first column.
        assert.ok(error instanceof ParquetBloomError, `${name}: ${error}`)
        assert.throws(() => {
          const lazy = decodeFileMetaData(footer, name, 0, { lazyIndexes: true })
          for (const c of lazy.columns) ensureColumnIndexes(lazy, c.index)
        }, (e) => e instanceof ParquetBloomError && e.code === error.code, name)
        continue
      }
      const lazy = decodeFileMetaData(footer, name, 0, { lazyIndexes: true })
      assert.deepEqual(lazy.chunks, eager.chunks, `${name}: chunk records`)
      // Columns in reverse order, one at a time.
      for (let c = lazy.columns.length - 1; c >= 0; c--) ensureColumnIndexes(lazy, c)
      // Slots differ (the lazy layout decoded the columns last first): each column's records must not.
      const words = lazy.indexes.i32.length / Math.max(1, lazy.columns.length)
      for (const c of lazy.columns) {
        const of = (layout) => layout.indexes.i32.subarray(layout.indexSlots[c.index] * words, (layout.indexSlots[c.index] + 1) * words)
        assert.deepEqual(of(lazy), of(eager), `${name}: index records of ${c.name}`)
      }
      assert.equal(lazy.indexes.i32.length, eager.indexes.i32.length, `${name}: index records held`)

      // Independent truth: what hyparquet decodes from the same bytes.
      const theirs = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))
      theirs.row_groups.forEach((rowGroup, g) => rowGroup.columns.forEach((chunk, c) => {
        const meta = chunk.meta_data
        if (!meta) return
        const at = `${name}: row group ${g}, column ${c}`
        const ours = chunkRecord(lazy, g, c)
        assert.equal(ours.numValues, Number(meta.num_values), `${at}: num_values`)
        const codecs = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW']
        assert.equal(codecs[ours.codec], meta.codec, `${at}: codec`)
        const nulls = meta.statistics?.null_count
        if (nulls !== undefined) assert.equal(ours.nullCount, Number(nulls), `${at}: null_count`)
        if (chunk.column_index_length !== undefined) assert.equal(ours.columnIndexLength, chunk.column_index_length, `${at}: column_index_length`)
      }))
      compared++
    }
    assert.ok(compared >= 40, `compared ${compared} files`)
  })
})

describe('a chunk malformed only where its indexes are', () => {
  test('opens, probes other columns, and fails a probe of its column with MALFORMED_FOOTER', async () => {
    const original = new Uint8Array(await readFile(sample.path))
    // Row group 1, column i64: Statistics.null_count (field 3) as a string, which only the chunk's
    // index decode reads.
    const broken = editFooter(original, (meta) => {
      const chunk = getField(getField(meta, 4).value.items[1], 1).value.items[1]
      const statistics = getField(getField(chunk, 3).value, 12).value
      setField(statistics, 3, T.BINARY, new TextEncoder().encode('not a count'))
    })
    const where = path.join(dir, 'broken-statistics.parquet')
    await writeFile(where, broken)
    const file = await openParquet(where)
    try {
      const present = sample.columns.i32.rowGroups[0].find((e) => e.expect !== 'unknown')
      const other = await file.probe('i32', [present.forms[0]])
      assert.ok(other.rowGroups.some((g) => g.results[0].verdict === 'maybe'))
      for (let k = 0; k < 2; k++) {
        await assert.rejects(file.probe('i64', [1n]), (e) => e instanceof ParquetBloomError && e.code === ErrorCode.MALFORMED_FOOTER &&
          /row group 1, column i64/.test(e.message) && e.message.includes(where))
      }
      // file.metadata shows the bad column's chunks only when they are read.
      assert.equal(file.metadata.rowGroups.length, sample.rowGroupRows.length)
      const i64 = file.layout.columns.find((c) => c.name === 'i64').index
      assert.throws(() => file.metadata.rowGroups[0].columns[i64], (e) => e instanceof ParquetBloomError && e.code === ErrorCode.MALFORMED_FOOTER)
      assert.throws(() => JSON.stringify(file.metadata), (e) => e instanceof ParquetBloomError && e.code === ErrorCode.MALFORMED_FOOTER)
    } finally {
      await file.close()
    }
  })
})
