// One column chunk's new bloom filter (parquet-format BloomFilter.md), built from its pages: the distinct
// values are counted exactly (up to a bound; past it the chunk's value count sizes the filter and a
// second scan fills it), the filter is sized for the target false-positive rate by the wasm core, and
// — for sidecar indexes — the exact min/max of the values in the column's sort order come along.
import { BloomFilter } from '../bloom-filter.js'
import { ensureColumnIndexes } from '../chunk-indexes.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { IndexF64, IndexI32, INDEX_F64_WORDS, INDEX_I32_WORDS } from '../footer.js'
import { chunkByteRange } from '../page-index.js'
import { columnDecoder, PageDecodeError } from '../page-decode.js'
import { compareBytes, sortKeys, sortOrderFor } from '../statistics.js'
import { scanChunk, DEFAULT_WINDOW_BYTES } from './chunk-scan.js'
import { DistinctValues, FILTERABLE_TYPES, FilterFeed, TooManyDistinct, DEFAULT_MAX_EXACT_DISTINCT } from './distinct-values.js'

export { DEFAULT_WINDOW_BYTES, DEFAULT_MAX_EXACT_DISTINCT, FILTERABLE_TYPES }

/** Sort orders whose bounds a sidecar index records (js/statistics.js sortOrderFor kinds); decimals keep the file's own. */
const BOUND_KINDS = new Set(['int32', 'uint32', 'int64', 'uint64', 'float', 'double', 'bytes'])

/**
 * @typedef {{ bytes: Uint8Array, ndv: number, exact: boolean, numBytes: number,
 *   bounds?: { kind: string, min: any, max: any } | null }} ChunkFilter
 *   bytes: BloomFilterHeader + bitset; bounds (with `bounds: true`): min/max as sort keys, null when
 *   they were not computed (an order without bounds, or too many distinct values to keep)
 */

/**
 * @param {{ layout: import('../footer.js').FileLayout, metadataOffset: number, column: import('../footer.js').LeafColumn,
 *   rowGroup: number, chunk: number, read: (offset: number, length: number) => Promise<Uint8Array>, fpp: number,
 *   ndv: 'auto' | number, windowBytes?: number, maxExactDistinct?: number, bounds?: boolean }} job
 * @returns {Promise<ChunkFilter | { problem: string }>} a problem when the pages cannot be read fully (no filter then)
 */
export async function buildChunkFilter({ layout, metadataOffset, column, rowGroup, chunk, read, fpp, ndv, windowBytes = DEFAULT_WINDOW_BYTES,
  maxExactDistinct = DEFAULT_MAX_EXACT_DISTINCT, bounds = false }) {
  ensureColumnIndexes(layout, column.index)
  const range = chunkByteRange(layout, rowGroup, column.index)
  if (!range || !(range.chunkStart >= 4 && range.chunkEnd <= metadataOffset)) return { problem: 'the footer does not place the column chunk inside the file\'s data' }
  const codec = layout.indexes.i32[chunk * INDEX_I32_WORDS + IndexI32.CODEC]
  const numValues = layout.indexes.f64[chunk * INDEX_F64_WORDS + IndexF64.NUM_VALUES]
  const scanned = { start: range.chunkStart, end: range.chunkEnd, numValues }
  try {
    const decoding = { ...(await columnDecoder(layout, column, codec)), plainBinaryWidth: undefined }
    const fill = async (size, exact) => {
      const filter = BloomFilter.create({ ndv: size, fpp })
      try {
        if (exact) exact.insertInto(filter)
        else {
          const feed = new FilterFeed(column, filter)
          await scanChunk(read, scanned, decoding, feed, windowBytes)
          feed.finish()
        }
        /** @type {ChunkFilter} */
        const built = { bytes: filter.toBytes(), ndv: size, exact: exact !== undefined, numBytes: filter.numBytes }
        if (bounds) built.bounds = exact ? valueBounds(column, exact.kept) : null
        return built
      } finally {
        filter.free()
      }
    }
    if (ndv !== 'auto' && !bounds) return await fill(ndv, undefined)
    const distinct = new DistinctValues(column, maxExactDistinct)
    try {
      await scanChunk(read, scanned, decoding, distinct, windowBytes)
      distinct.finish()
    } catch (error) {
      if (!(error instanceof TooManyDistinct)) throw error
      return await fill(ndv !== 'auto' ? ndv : Math.max(numValues, maxExactDistinct), undefined)
    }
    return await fill(ndv !== 'auto' ? ndv : distinct.count, distinct)
  } catch (error) {
    if (error instanceof ParquetBloomError && error.code !== ErrorCode.BAD_VALUE) throw error
    if (error instanceof PageDecodeError || error instanceof Error) return { problem: error.message }
    return { problem: String(error) }
  }
}

/**
 * The least and greatest of the values in the column's sort order, as sort keys (js/statistics.js
 * sortKeys), or null for orders without bounds here. NaN takes no part (it has no place in an order;
 * probes answer NaN themselves); an all-NaN or empty chunk has bounds { min: undefined, max: undefined }.
 */
function valueBounds(column, batches) {
  const order = sortOrderFor(column)
  if (!order || !BOUND_KINDS.has(order.kind)) return null
  let min
  let max
  const bytesOrder = order.kind === 'bytes'
  for (const batch of batches) {
    const keys = sortKeys(order, Array.isArray(batch) ? batch : Array.from(batch))
    if (bytesOrder) {
      const { bytes, offsets } = /** @type {{ bytes: Uint8Array, offsets: Int32Array }} */ (keys)
      for (let k = 0; k + 1 < offsets.length; k++) {
        const v = bytes.subarray(offsets[k], offsets[k + 1])
        if (min === undefined || compareBytes(v, min) < 0) min = v.slice()
        if (max === undefined || compareBytes(v, max) > 0) max = v.slice()
      }
      continue
    }
    const list = /** @type {ArrayLike<number | bigint>} */ (keys)
    for (let k = 0; k < list.length; k++) {
      const v = list[k]
      if (v !== v) continue // NaN
      if (min === undefined || v < min) min = v
      if (max === undefined || v > max) max = v
    }
  }
  return { kind: order.kind, min, max }
}
