// Reads one column chunk's pages in bounded windows and hands their raw physical values to a collector,
// with hyparquet's page readers (js/page-decode.js). A chunk is read a window at a time (4 MiB, or one
// page when a page is larger), so memory follows the page size, not the chunk's. Anything in doubt — a
// page that does not decode, a second dictionary page, a dictionary index past the dictionary, values
// that do not add up to the chunk's num_values — is a PageDecodeError: the chunk then gets no filter.
import { decodePageAt, PageDecodeError } from '../page-decode.js'
import { decodePageHeader } from '../page-header.js'

export const DEFAULT_WINDOW_BYTES = 4 * 1024 * 1024

/**
 * What a scan feeds: `dictionary(values)` once before any data page that uses it, `plain(values)` per
 * non-dictionary data page, `indexes(indexes)` per dictionary-encoded one (indexes into the dictionary).
 * @typedef {{ dictionary: (values: any) => void, plain: (values: any) => void, indexes: (indexes: ArrayLike<number>) => void }} ValueSink
 */

/**
 * Scans the pages of [start, end) of the file.
 * @param {(offset: number, length: number) => Promise<Uint8Array>} read
 * @param {{ start: number, end: number, numValues: number }} chunk numValues: ColumnMetaData.num_values (-1: unknown)
 * @param {Awaited<ReturnType<typeof import('../page-decode.js').columnDecoder>>} decoding
 * @param {ValueSink} sink
 * @returns {Promise<{ levels: number, pages: Array<{ offset: number, size: number, kind: string }> }>}
 */
export async function scanChunk(read, chunk, decoding, sink, windowBytes = DEFAULT_WINDOW_BYTES) {
  const pages = []
  let levels = 0
  let dictionaryLength = -1
  /** @type {Uint8Array} */
  let bytes = new Uint8Array(0)
  let bytesStart = chunk.start
  for (let at = chunk.start; at < chunk.end;) {
    // The page's header and body must be held; read from `at` on when they are not.
    let local = at - bytesStart
    for (;;) {
      const held = decodePageHeader(bytes.subarray(local))
      // A header that does not decode from what is held may only be cut off: read on, up to the chunk's end.
      const need = 'problem' in held ? bytes.length - local + windowBytes : held.length + held.header.compressedPageSize
      if (local + need <= bytes.length || bytesStart + bytes.length >= chunk.end) break
      bytes = await read(at, Math.min(Math.max(windowBytes, need), chunk.end - at))
      bytesStart = at
      local = 0
    }
    const { page, next } = await decodePageAt(bytes, local, bytes.length, decoding)
    pages.push({ offset: at, size: next - local, kind: page.kind })
    if (page.kind === 'dictionary') {
      if (dictionaryLength >= 0) throw new PageDecodeError('a second dictionary page in the chunk')
      if (levels > 0) throw new PageDecodeError('a dictionary page after data pages')
      dictionaryLength = page.values.length
      sink.dictionary(page.values)
    } else if (page.kind === 'data') {
      levels += page.numLevels
      if (page.dictionaryIndexes) {
        if (dictionaryLength < 0) throw new PageDecodeError('a dictionary-encoded page, but the chunk has no dictionary page')
        const indexes = page.values ?? []
        for (let i = 0; i < indexes.length; i++) {
          if (!(indexes[i] >= 0 && indexes[i] < dictionaryLength)) throw new PageDecodeError(`dictionary index ${indexes[i]} past the ${dictionaryLength}-entry dictionary`)
        }
        sink.indexes(indexes)
      } else if (page.values) {
        sink.plain(page.values)
      }
    }
    at += next - local
  }
  if (chunk.numValues >= 0 && levels !== chunk.numValues) {
    throw new PageDecodeError(`the chunk's pages hold ${levels} values, its ColumnMetaData says ${chunk.numValues}`)
  }
  return { levels, pages }
}
