// Reads one column chunk's pages in bounded windows and hands their raw physical values to a collector,
// with hyparquet's page readers (js/pages/page-decode.js). A chunk is read a window at a time (4 MiB, or one
// page when a page is larger), so memory follows the page size, not the chunk's. Anything in doubt — a
// page that does not decode, a second dictionary page, a dictionary index past the dictionary, values
// that do not add up to the chunk's num_values — is a PageDecodeError: the chunk then gets no filter.
import { decodePageAt, PageDecodeError } from '../pages/page-decode.js'
import { decodePageHeader } from '../format/page-header.js'

export const DEFAULT_WINDOW_BYTES = 4 * 1024 * 1024

/**
 * What a scan feeds: `dictionary(values)` once before any data page that uses it, `plain(values)` per
 * non-dictionary data page — as Arrow-style columnar bytes `{ values, offsets?, length }` for PLAIN
 * BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY pages (no object per value) —, `indexes(indexes)` per
 * dictionary-encoded one (indexes into the dictionary).
 * `pageStart()` / `pageEnd(page)`, when the sink has them, bracket each data page (its offset, size with
 * header, rows started, levels, present values, and whether it starts a row).
 * @typedef {{ dictionary: (values: any) => void, plain: (values: any) => void, indexes: (indexes: ArrayLike<number>) => void,
 *   pageStart?: () => void,
 *   pageEnd?: (page: { offset: number, size: number, rows: number, levels: number, present: number, startsRow: boolean }) => void
 * }} ValueSink
 */

/**
 * How a chunk's pages lie: `need(bytes, at)` is how many bytes from `at` the page there takes, or -1 when
 * what is held does not tell yet; `decode(bytes, at, offset)` decodes it (all of it held; `offset`: where it lies in the file).
 * @typedef {{ need: (bytes: Uint8Array, at: number) => number,
 *   decode: (bytes: Uint8Array, at: number, offset: number) =>
 *     Promise<{ page: import('../pages/page-decode.js').DecodedPage, size: number }> }} PageLayout
 */

/**
 * Plaintext pages: a PageHeader, then compressed_page_size bytes.
 * @param {Awaited<ReturnType<typeof import('../pages/page-decode.js').columnDecoder>>} decoding
 * @returns {PageLayout}
 */
export function plaintextPages(decoding) {
  return {
    need(bytes, at) {
      const held = decodePageHeader(bytes.subarray(at))
      // compressed_page_size is a required field (decodePageHeader does not check that it is there).
      return 'problem' in held ? -1 : held.length + /** @type {number} */ (held.header.compressedPageSize)
    },
    async decode(bytes, at) {
      const { page, next } = await decodePageAt(bytes, at, bytes.length, decoding)
      return { page, size: next - at }
    },
  }
}

/**
 * Scans the pages of [start, end) of the file.
 * @param {(offset: number, length: number) => Promise<Uint8Array>} read
 * @param {{ start: number, end: number, numValues: number }} chunk numValues: ColumnMetaData.num_values (-1: unknown)
 * @param {Awaited<ReturnType<typeof import('../pages/page-decode.js').columnDecoder>>} decoding
 * @param {ValueSink} sink
 * @param {PageLayout} [layout] plaintext pages unless given (encrypted chunks: js/index-builder/encrypted-output.js)
 * @returns {Promise<{ levels: number, pages: Array<{ offset: number, size: number, kind: string }> }>}
 */
export async function scanChunk(read, chunk, decoding, sink, windowBytes = DEFAULT_WINDOW_BYTES, layout = plaintextPages(decoding)) {
  const pages = []
  let levels = 0
  let dictionaryLength = -1
  /** @type {Uint8Array} */
  let bytes = new Uint8Array(0)
  let bytesStart = chunk.start
  for (let at = chunk.start; at < chunk.end;) {
    // The page must be held whole; read from `at` on when it is not.
    let local = at - bytesStart
    for (;;) {
      const needed = layout.need(bytes, local)
      // What is held does not tell the page's length: it may only be cut off; read on, up to the chunk's end.
      const need = needed < 0 ? bytes.length - local + windowBytes : needed
      if (local + need <= bytes.length || bytesStart + bytes.length >= chunk.end) break
      bytes = await read(at, Math.min(Math.max(windowBytes, need), chunk.end - at))
      bytesStart = at
      local = 0
    }
    const { page, size } = await layout.decode(bytes, local, at)
    const next = local + size
    pages.push({ offset: at, size, kind: page.kind })
    if (page.kind === 'dictionary') {
      if (dictionaryLength >= 0) throw new PageDecodeError('a second dictionary page in the chunk')
      if (levels > 0) throw new PageDecodeError('a dictionary page after data pages')
      dictionaryLength = page.values.length
      sink.dictionary(page.values)
    } else if (page.kind === 'data') {
      levels += page.numLevels
      sink.pageStart?.()
      let present = 0
      if (page.dictionaryIndexes) {
        if (dictionaryLength < 0) throw new PageDecodeError('a dictionary-encoded page, but the chunk has no dictionary page')
        const indexes = page.values ?? []
        for (let i = 0; i < indexes.length; i++) {
          if (!(indexes[i] >= 0 && indexes[i] < dictionaryLength)) {
            throw new PageDecodeError(`dictionary index ${indexes[i]} past the ${dictionaryLength}-entry dictionary`)
          }
        }
        present = indexes.length
        sink.indexes(indexes)
      } else if (page.plainBinary) {
        present = page.plainBinary.count
        sink.plain(columnarSection(page.plainBinary, decoding.scratch))
      } else if (page.values) {
        present = page.values.length
        sink.plain(page.values)
      }
      const reps = page.repetitionLevels
      const repeated = decoding.maxRepetitionLevel > 0
      let rows = page.numLevels
      if (repeated) {
        rows = 0
        for (let i = 0; i < reps.length; i++) if (reps[i] === 0) rows++
      }
      sink.pageEnd?.({
        offset: at, size: next - local, rows, levels: page.numLevels, present,
        startsRow: !repeated || page.numLevels === 0 || reps[0] === 0,
      })
    }
    at += next - local
  }
  if (chunk.numValues >= 0 && levels !== chunk.numValues) {
    throw new PageDecodeError(`the chunk's pages hold ${levels} values, its ColumnMetaData says ${chunk.numValues}`)
  }
  return { levels, pages }
}

/**
 * A PLAIN value section (js/pages/plain-binary-page.js) as columnar bytes: FIXED_LEN_BYTE_ARRAY values as they
 * lie, BYTE_ARRAY values ([u32 length][bytes] each) copied together behind offsets — into `scratch` when
 * given (js/pages/page-scratch.js: valid until the next page), else into new arrays.
 * @param {import('../pages/plain-binary-page.js').PlainBinarySection} section
 * @param {import('../pages/page-scratch.js').PageScratch} [scratch]
 */
export function columnarSection({ bytes, count, width }, scratch) {
  if (width) {
    if (bytes.length < count * width) throw new PageDecodeError(`a PLAIN page of ${count} ${width}-byte values holds ${bytes.length} bytes`)
    return { values: bytes.subarray(0, count * width), length: count }
  }
  const valueBytes = Math.max(0, bytes.length - 4 * count)
  const offsets = scratch ? scratch.int32('offsets', count + 1) : new Int32Array(count + 1)
  const values = scratch ? scratch.bytes('values', valueBytes) : new Uint8Array(valueBytes)
  const stop = copyByteArrays(bytes, count, values, offsets)
  if (stop >= 0) throw new PageDecodeError(`a PLAIN BYTE_ARRAY page ends at value ${stop} of ${count}`)
  if (stop < -1) throw new PageDecodeError(`value ${-stop - 2} of a PLAIN BYTE_ARRAY page runs past the page`)
  return { values, offsets, length: count }
}

/**
 * Copies `count` PLAIN BYTE_ARRAY values of `bytes` into `values`, their ends into `offsets[1..]`. Returns -1
 * when all are there; else i when value i's length is cut off, -(i + 2) when its bytes run past the section.
 * Kept to small integers and typed arrays throughout: optimized, anything else (DataView.getUint32's uint32,
 * a subarray view per value) allocated ~20 bytes a value that V8 pretenured into old space — ~2.7 MB of
 * garbage a 122,880-value page, freed only by full collections.
 */
/**
 * @param {Uint8Array} bytes
 * @param {number} count
 * @param {Uint8Array} values
 * @param {Int32Array} offsets
 */
function copyByteArrays(bytes, count, values, offsets) {
  const length = bytes.length | 0
  let at = 0
  let out = 0
  offsets[0] = 0
  for (let i = 0; i < count; i++) {
    if (at + 4 > length) return i
    // Signed: a length of 2 GiB or more reads negative and runs past any page.
    const n = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)
    at = (at + 4) | 0
    if (n < 0 || at + n > length) return -(i + 2)
    if (n <= 64) {
      for (let k = 0; k < n; k++) values[out + k] = bytes[at + k]
    } else {
      values.set(bytes.subarray(at, at + n), out)
    }
    at = (at + n) | 0
    out = (out + n) | 0
    offsets[i + 1] = out
  }
  return -1
}
