// A footer over WINDOWED_FOOTER_BYTES is decoded a window at a time (js/footer/windowed-outline.js): that must
// give exactly the layout the whole decode gives, and what hyparquet reads from the same bytes; it must never
// give a layout for a footer the whole decode refuses (it declines, and the whole decode names the fault);
// and it must keep the wasm memory a big footer takes to a few windows' worth.
import assert from 'node:assert/strict'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { decodeFileMetaData, outlinePieces, WINDOWED_FOOTER_BYTES } from '../../js/footer/footer.js'
import { decodeWindowedOutline } from '../../js/footer/windowed-outline.js'
import { chunk } from '../../js/footer/records.js'
import { init, memoryStats, openParquet, ParquetBloomError } from '../../js/index.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('windowed-footer')

/** The FileMetaData bytes of a Parquet file. */
function footerOf(bytes) {
  const length = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true)
  return bytes.subarray(bytes.length - 8 - length, bytes.length - 8)
}

/** hyparquet-writer's file of `rowGroups` row groups of 10 rows × `columns` INT32 columns (c{k} = row × (k + 1)). */
function writerFile(rowGroups, columns) {
  const rows = rowGroups * 10
  const columnData = Array.from({ length: columns }, (_, c) => ({ name: `c${c}`, type: 'INT32', data: Int32Array.from({ length: rows }, (_, i) => i * (c + 1)) }))
  return new Uint8Array(parquetWriteBuffer({ columnData, rowGroupSize: 10 }))
}

/** Row counts and every chunk's data page and bloom filter offsets, as our layout holds them and as hyparquet reads them. */
function asHyparquetReads(layout, theirs) {
  const ours = { rows: [...layout.rowGroupRows], pages: [], blooms: [] }
  const truth = { rows: theirs.row_groups.map((g) => Number(g.num_rows)), pages: [], blooms: [] }
  for (const [g, group] of theirs.row_groups.entries()) {
    for (const [c, column] of group.columns.entries()) {
      const view = chunk(layout, g, c)
      ours.pages.push(view.dataPageOffset)
      truth.pages.push(Number(column.meta_data.data_page_offset))
      ours.blooms.push(view.bloomOffset)
      truth.blooms.push(column.meta_data.bloom_filter_offset === undefined ? -1 : Number(column.meta_data.bloom_filter_offset))
    }
  }
  return [ours, truth]
}

// Enough row groups of 50 columns for a footer over WINDOWED_FOOTER_BYTES (8 MiB): ~2.9 KB of footer each.
const BIG_ROW_GROUPS = 3200
let big
const bigWriterFile = () => (big ??= writerFile(BIG_ROW_GROUPS, 50))

before(async () => {
  await init()
})

// First in this file: the wasm memory has not grown for anything else yet.
test('openParquet decodes a footer over WINDOWED_FOOTER_BYTES a window at a time: the wasm memory grows by less than the footer, the answers are right', async () => {
  const bytes = bigWriterFile()
  const footer = footerOf(bytes)
  assert.ok(footer.length > WINDOWED_FOOTER_BYTES, `a ${footer.length}-byte footer`)
  const file = path.join(dir, 'big-footer.parquet')
  await writeFile(file, bytes)
  const heapBefore = memoryStats().heapBytes
  const opened = await openParquet(file)
  try {
    const growth = memoryStats().heapBytes - heapBefore
    // Decoded whole, the footer and its records alone take more than twice its size.
    assert.ok(growth < footer.length, `wasm memory grew by ${growth} bytes for a ${footer.length}-byte footer`)
    assert.equal(opened.layout.rowGroupRows.length, BIG_ROW_GROUPS)
    // The whole decode's layout, before a probe decodes any column's indexes into it (compared field by
    // field: a failing deepEqual of arrays this size would spend gigabytes on its message).
    const whole = decodeFileMetaData(footer, file, bytes.length - 8 - footer.length, { lazyIndexes: true })
    for (const key of Object.keys(whole)) {
      const [a, b] = [opened.layout[key], whole[key]]
      if (ArrayBuffer.isView(a)) assert.ok(a.constructor === b.constructor && a.length === b.length && a.every((v, i) => Object.is(v, b[i])), key)
      else assert.deepEqual(a, b, key)
    }
    // c7 = row × 8: row 12 (row group 1) holds 96; 97 lies within row group 1's min and max (statistics
    // answer maybe); the last row's value is in the last row group only.
    const last = BIG_ROW_GROUPS * 10 - 1
    const result = await opened.probe('c7', [96, 97, last * 8])
    const maybe = (v) => result.rowGroups.filter((g) => g.results[v].verdict !== 'absent').map((g) => g.index)
    assert.deepEqual(maybe(0), [1])
    assert.deepEqual(maybe(1), [1])
    assert.deepEqual(maybe(2), [BIG_ROW_GROUPS - 1])
    // (hyparquet's reading of a footer this size takes gigabytes of heap: the small windows below compare with it.)
  } finally {
    await opened.close()
  }
})

test('small windows (many row groups per window, one per window, windows widened for a row group) give the whole decode\'s layout', () => {
  const bytes = writerFile(300, 6)
  const footer = footerOf(bytes)
  const whole = decodeFileMetaData(footer, 'writer', 0, { lazyIndexes: true })
  for (const [windowBytes, recordBytes] of [[4096, 4096], [4096, 1], [16, 1 << 20], [footer.length, 1 << 20]]) {
    const windowed = decodeWindowedOutline(footer, 'writer', outlinePieces, { windowBytes, recordBytes })
    assert.ok(windowed, `windows of ${windowBytes} bytes, records of ${recordBytes}: declined`)
    assert.deepEqual(windowed, whole, `windows of ${windowBytes} bytes, records of ${recordBytes}`)
  }
  const [ours, truth] = asHyparquetReads(whole, parquetMetadata(bytes.buffer))
  assert.deepEqual(ours, truth)
})

test('every parquet-testing footer: the windowed decode gives the whole decode\'s layout, and declines what that refuses', async (t) => {
  const missing = missingFixture('parquet-testing')
  if (missing) return t.skip(missing)
  const names = (await readdir(fixturePath('parquet-testing'))).filter((n) => n.endsWith('.parquet')).sort()
  let compared = 0
  let refused = 0
  for (const name of names) {
    const bytes = new Uint8Array(await readFile(fixturePath(`parquet-testing/${name}`)))
    if (new TextDecoder().decode(bytes.subarray(-4)) !== 'PAR1') continue // encrypted footers
    const footer = footerOf(bytes)
    let whole
    try {
      whole = decodeFileMetaData(footer, name, 0, { lazyIndexes: true })
    } catch (error) {
      assert.ok(error instanceof ParquetBloomError, `${name}: ${error}`)
      assert.equal(decodeWindowedOutline(footer, name, outlinePieces, { windowBytes: 64, recordBytes: 1 }), undefined, `${name}: a layout for a footer the whole decode refuses`)
      refused++
      continue
    }
    const windowed = decodeWindowedOutline(footer, name, outlinePieces, { windowBytes: 64, recordBytes: 1 })
    assert.ok(windowed, `${name}: declined`)
    assert.deepEqual(windowed, whole, name)
    compared++
  }
  assert.ok(compared >= 20, `${compared} footers compared`)
  t.diagnostic(`${compared} footers compared, ${refused} refused by both`)
})

test('mutated footers: the windowed decode gives the whole decode\'s layout, or declines where that refuses', () => {
  const footer = footerOf(writerFile(40, 4))
  let seed = 0x2545f491
  const random = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  let refused = 0
  for (let i = 0; i < 400; i++) {
    const mutated = footer.slice()
    for (let k = 1 + Math.floor(random() * 3); k > 0; k--) mutated[Math.floor(random() * mutated.length)] = Math.floor(random() * 256)
    let whole
    try {
      whole = decodeFileMetaData(mutated, 'mutated', 0, { lazyIndexes: true })
    } catch {
      refused++
      assert.equal(decodeWindowedOutline(mutated, 'mutated', outlinePieces, { windowBytes: 256, recordBytes: 1 }), undefined, `mutation ${i}: a layout for a footer the whole decode refuses`)
      continue
    }
    const windowed = decodeWindowedOutline(mutated, 'mutated', outlinePieces, { windowBytes: 256, recordBytes: 1 })
    if (windowed) assert.deepEqual(windowed, whole, `mutation ${i}`)
  }
  assert.ok(refused > 50 && refused < 400, `${refused} of 400 refused`)
})

test('a big footer with a chunk that does not decode fails as the whole decode fails it', async () => {
  const bytes = bigWriterFile()
  const footer = footerOf(bytes)
  const metadataOffset = bytes.length - 8 - footer.length
  // The first field header of a ColumnChunk in the middle of the footer given wire type 15 (there is none).
  const { chunkSpans } = decodeFileMetaData(footer, 'big', 0, { lazyIndexes: true })
  const middle = (BIG_ROW_GROUPS >> 1) * 50 + 7
  const broken = bytes.slice()
  broken[metadataOffset + chunkSpans[middle * 2]] = 0x1f
  const file = path.join(dir, 'broken-footer.parquet')
  await writeFile(file, broken)
  let expected
  try {
    decodeFileMetaData(footerOf(broken), file, metadataOffset, { lazyIndexes: true })
  } catch (error) {
    expected = error
  }
  assert.ok(expected instanceof ParquetBloomError, 'the whole decode refuses it')
  assert.match(expected.message, /malformed footer/)
  await assert.rejects(openParquet(file), (error) => error instanceof ParquetBloomError && error.code === expected.code && error.message === expected.message)
  assert.equal(decodeWindowedOutline(footerOf(broken), file, outlinePieces), undefined)
})
