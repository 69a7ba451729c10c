// One column chunk's new bloom filter (parquet-format BloomFilter.md), built from its pages in one scan:
// the values stream into a filter sized by the wasm core for the target false-positive rate (exactly,
// for dictionary-only chunks; else folded to the distinct values it received, js/index-builder/
// chunk-values.js) — and, for sidecar indexes, the exact min/max of the values come along.
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ChunkFlag, chunk as chunkView } from '../footer/records.js'
import { chunkByteRange } from '../indexes/page-index.js'
import { columnDecoder, PageDecodeError } from '../pages/page-decode.js'
import { PageScratch } from '../pages/page-scratch.js'
import { scanChunk, DEFAULT_WINDOW_BYTES } from './chunk-scan.js'
import { FILTERABLE_TYPES, FilterFeed } from './chunk-values.js'
import { PageIndexFeed } from './page-index-writer.js'

export { DEFAULT_WINDOW_BYTES, FILTERABLE_TYPES }

/** Bytes a PLAIN value of each fixed-width physical type takes (BOOLEAN's are bits: hyparquet decodes those). */
/** @type {Readonly<Record<string, number | undefined>>} */
const PLAIN_WIDTHS = Object.freeze({ INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12 })

/**
 * @typedef {{ bytes: Uint8Array, headerLength: number, ndv: number, exact: boolean, numBytes: number,
 *   bounds?: { kind: string, min: any, max: any } | null,
 *   pageIndex?: { offsetIndex?: Uint8Array, columnIndex?: Uint8Array, problem?: string } }} ChunkFilter
 *   bytes: BloomFilterHeader + bitset; ndv: the distinct values it is sized for (exact: counted, not
 *   estimated); bounds (with `bounds: true`): min/max as sort keys, null for orders without them;
 *   pageIndex (with `pageIndex`): the serialized indexes, or why there are none
 */

/**
 * @param {{ layout: import('../footer/footer.js').FileLayout, metadataOffset: number, column: import('../footer/footer.js').LeafColumn,
 *   rowGroup: number, read: (offset: number, length: number) => Promise<Uint8Array>, fpp: number,
 *   ndv: 'auto' | number, windowBytes?: number, bounds?: boolean, pageIndex?: false | 'offset' | 'both',
 *   pages?: (decoding: any) => import('./chunk-scan.js').PageLayout, scratch?: PageScratch }} job
 *   pageIndex: also build the chunk's OffsetIndex ('offset') or OffsetIndex and ColumnIndex ('both');
 *   pages: how the chunk's pages lie, when not as plaintext (an encrypted chunk's modules);
 *   scratch: buffers shared by the chunks of a run that pages are decoded into (the filter and the bounds
 *   copy what they keep, so nothing of a page outlives it) and the filter's bytes are put in: `bytes` is then
 *   valid until the next chunk built with it (without it, a chunk's pages share buffers of its own)
 * @returns {Promise<ChunkFilter | { problem: string }>} a problem when the pages cannot be read fully (no filter then)
 */
export async function buildChunkFilter({ layout, metadataOffset, column, rowGroup, read, fpp, ndv,
  windowBytes = DEFAULT_WINDOW_BYTES, bounds = false,
  pageIndex = false, pages: pageLayout, scratch }) {
  ensureColumnIndexes(layout, column.index)
  if (chunkView(layout, rowGroup, column.index).flags & ChunkFlag.EXTERNAL_FILE) {
    return { problem: 'the column chunk lives in another file (file_path): this file\'s bytes at its offsets are other data' }
  }
  const range = chunkByteRange(layout, rowGroup, column.index)
  if (!range || !(range.chunkStart >= 4 && range.chunkEnd <= metadataOffset)) {
    return { problem: 'the footer does not place the column chunk inside the file\'s data' }
  }
  const { codec, numValues } = chunkView(layout, rowGroup, column.index)
  const feed = new FilterFeed(column, {
    capacity: numValues >= 0 ? numValues : layout.rowGroupRows[rowGroup], fpp, ndv: ndv === 'auto' ? undefined : ndv, bounds,
  })
  try {
    const decoding = await columnDecoder(layout, column, codec)
    // PLAIN data pages of fixed-width types as their value bytes, hashed as they lie (BloomFilter.md hashes the
    // PLAIN encoding): no typed array or JS array of levels per page, as hyparquet's page reader makes. INT96
    // dictionaries too as their 12-byte values: hyparquet's bigint of one can lose bytes.
    const width = PLAIN_WIDTHS[column.physicalType]
    if (width) decoding.plainBinaryWidth = width
    decoding.scratch = scratch ?? new PageScratch()
    const pages = pageIndex ? new PageIndexFeed(feed, column, pageIndex === 'both') : undefined
    await scanChunk(read, { start: range.chunkStart, end: range.chunkEnd, numValues }, decoding, pages ?? feed, windowBytes,
      pageLayout?.(decoding))
    feed.finish()
    /** @type {ChunkFilter} */
    const built = feed.take(scratch && ((length) => scratch.bytes('filter', length)))
    if (pages) built.pageIndex = pages.serialize(layout.rowGroupRows[rowGroup])
    if (bounds) built.bounds = /** @type {import('./chunk-values.js').ValueBounds} */ (feed.bounds).result()
    return built
  } catch (error) {
    feed.filter?.free()
    if (error instanceof ParquetBloomError && error.code !== ErrorCode.BAD_VALUE) throw error
    if (error instanceof PageDecodeError || error instanceof Error) return { problem: error.message }
    return { problem: String(error) }
  }
}
