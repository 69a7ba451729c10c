// One column chunk's new bloom filter (parquet-format BloomFilter.md), built from its pages in one scan:
// the values stream into a filter sized by the wasm core for the target false-positive rate (exactly,
// for dictionary-only chunks; else folded to the distinct values it received, js/index-builder/
// chunk-values.js) — and, for sidecar indexes, the exact min/max of the values come along.
import { ensureColumnIndexes } from '../chunk-indexes.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { IndexF64, IndexI32, INDEX_F64_WORDS, INDEX_I32_WORDS } from '../footer.js'
import { chunkByteRange } from '../page-index.js'
import { columnDecoder, PageDecodeError } from '../page-decode.js'
import { scanChunk, DEFAULT_WINDOW_BYTES } from './chunk-scan.js'
import { FILTERABLE_TYPES, FilterFeed } from './chunk-values.js'

export { DEFAULT_WINDOW_BYTES, FILTERABLE_TYPES }

/**
 * @typedef {{ bytes: Uint8Array, ndv: number, exact: boolean, numBytes: number,
 *   bounds?: { kind: string, min: any, max: any } | null }} ChunkFilter
 *   bytes: BloomFilterHeader + bitset; ndv: the distinct values it is sized for (exact: counted, not
 *   estimated); bounds (with `bounds: true`): min/max as sort keys, null for orders without them
 */

/**
 * @param {{ layout: import('../footer.js').FileLayout, metadataOffset: number, column: import('../footer.js').LeafColumn,
 *   rowGroup: number, chunk: number, read: (offset: number, length: number) => Promise<Uint8Array>, fpp: number,
 *   ndv: 'auto' | number, windowBytes?: number, bounds?: boolean }} job
 * @returns {Promise<ChunkFilter | { problem: string }>} a problem when the pages cannot be read fully (no filter then)
 */
export async function buildChunkFilter({ layout, metadataOffset, column, rowGroup, chunk, read, fpp, ndv, windowBytes = DEFAULT_WINDOW_BYTES, bounds = false }) {
  ensureColumnIndexes(layout, column.index)
  const range = chunkByteRange(layout, rowGroup, column.index)
  if (!range || !(range.chunkStart >= 4 && range.chunkEnd <= metadataOffset)) return { problem: 'the footer does not place the column chunk inside the file\'s data' }
  const codec = layout.indexes.i32[chunk * INDEX_I32_WORDS + IndexI32.CODEC]
  const numValues = layout.indexes.f64[chunk * INDEX_F64_WORDS + IndexF64.NUM_VALUES]
  const feed = new FilterFeed(column, { capacity: numValues >= 0 ? numValues : layout.rowGroupRows[rowGroup], fpp, ndv: ndv === 'auto' ? undefined : ndv, bounds })
  try {
    const decoding = await columnDecoder(layout, column, codec)
    await scanChunk(read, { start: range.chunkStart, end: range.chunkEnd, numValues }, decoding, feed, windowBytes)
    feed.finish()
    /** @type {ChunkFilter} */
    const built = feed.take()
    if (bounds) built.bounds = /** @type {import('./chunk-values.js').ValueBounds} */ (feed.bounds).result()
    return built
  } catch (error) {
    feed.filter?.free()
    if (error instanceof ParquetBloomError && error.code !== ErrorCode.BAD_VALUE) throw error
    if (error instanceof PageDecodeError || error instanceof Error) return { problem: error.message }
    return { problem: String(error) }
  }
}
