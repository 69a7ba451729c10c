// Point lookups' values (probe's `columns`, js/confirm/point-lookups.js): one leaf column's values at some rows
// of a row group, its pages decoded as exact lookups decode them (js/pages/page-decode.js decodePageAt: header
// sizes and CRC, levels read within their section and at most the maximum, value sections that hold their
// values), then converted and assembled into rows by hyparquet's convert and assembleLists, as its row reader
// does. That row reader, used here before, read the pages with none of those checks: on a DuckDB file whose x
// page had a short level run, columns ['x'] gave x: null for a row holding 9, where DuckDB and arrow-rs refuse
// the page. Rows are counted as confirm counts them (js/confirm/confirm.js): with an OffsetIndex (PageIndex.md)
// only the dictionary page and the pages holding the rows are read, each must start a row and hold the rows its
// entry says; without one (or without `offsetIndexes`), the whole chunk, whose pages must hold the row group's rows.
// Anything else throws.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk } from '../footer/records.js'
import { columnDecoder, decodePageAt, PageDecodeError } from '../pages/page-decode.js'
import { countEqual } from './confirm-match.js'

/**
 * js/indexes/page-index.js's OffsetIndex functions, handed over by the probe path (js/parquet-file.js says why).
 * @typedef {{ checkPlaces: typeof import('../indexes/page-index.js').checkPlaces,
 *   checkRows: typeof import('../indexes/page-index.js').checkRows,
 *   decodeOffsetIndex: typeof import('../indexes/page-index.js').decodeOffsetIndex,
 *   pageIndexLocation: typeof import('../indexes/page-index.js').pageIndexLocation }} OffsetIndexes
 * @typedef {(offset: number, length: number) => Promise<Uint8Array>} ReadRange
 * @typedef {Extract<import('../pages/page-decode.js').DecodedPage, { kind: 'data' }>} DataPage
 */

/**
 * One leaf column's values at `rows` (ascending, numbered within the row group), parallel to them, as hyparquet's
 * row reader gives them (its types converted, the leaf's lists assembled; `utf8` false: bytes without a string
 * annotation stay bytes, as its option of that name). Throws PageDecodeError (or hyparquet's error) for a page in
 * doubt; a read's ParquetBloomError as it is.
 * `countPastDates`: a timestamp or date no Date holds is its stored count, a bigint (hyparquet's LOOKUP_PARSERS), not
 * an Invalid Date.
 * @param {{ layout: import('../footer/footer.js').FileLayout, metadataOffset: number, group: number,
 *   column: import('../footer/footer.js').LeafColumn, rows: number[], offsetIndexes?: OffsetIndexes, read: ReadRange,
 *   utf8?: boolean, countPastDates?: boolean }} lookup
 * @returns {Promise<unknown[]>}
 */
export async function leafValuesAt({ layout, metadataOffset, group, column, rows, offsetIndexes, read, utf8 = true,
  countPastDates = false }) {
  try {
    ensureColumnIndexes(layout, column.index) // the chunks' codecs and page index places
  } catch (error) {
    // A chunk record the footer does not decode (the probe itself may not need it): no values, not the probe's error.
    if (error instanceof ParquetBloomError && error.code === ErrorCode.MALFORMED_FOOTER) throw new PageDecodeError(error.message)
    throw error
  }
  const record = chunk(layout, group, column.index)
  const range = record.pageRange()
  if (!range || !(range.chunkStart >= 4 && range.chunkEnd <= metadataOffset)) {
    throw new PageDecodeError('the footer does not place the column chunk inside the file\'s data')
  }
  const numRows = layout.rowGroupRows[group]
  const decoding = await columnDecoder(layout, column, record.codec)
  decoding.plainBinaryWidth = undefined // every page's values as arrays, for hyparquet's convert
  const rowsOut = rowAssembler(decoding, rows, utf8, countPastDates)
  const index = offsetIndexes && await offsetIndex({ layout, group, column, metadataOffset, range, numRows, read }, offsetIndexes)
  if (!index) {
    const bytes = await read(range.chunkStart, range.chunkEnd - range.chunkStart)
    for (let at = 0; at < bytes.length;) {
      const { page, next } = await decodePageAt(bytes, at, bytes.length, decoding)
      if (page.kind === 'dictionary') rowsOut.dictionary(page.values)
      else if (page.kind === 'data') rowsOut.data(page)
      at = next
    }
    return rowsOut.values(numRows)
  }
  const { offsets, compressedSizes, firstRowIndexes } = index
  const pageCount = offsets.length
  const endOf = (/** @type {number} */ p) => (p + 1 < pageCount ? firstRowIndexes[p + 1] : numRows)
  // The pages holding the rows (first_row_index 0 and rows < numRows were checked: every row is on one).
  const pages = []
  for (let p = 0, k = 0; p < pageCount && k < rows.length; p++) {
    if (rows[k] >= endOf(p)) continue
    pages.push(p)
    while (k < rows.length && rows[k] < endOf(p)) k++
  }
  const [before, ...pageBytes] = await Promise.all([
    range.chunkStart < offsets[0] ? read(range.chunkStart, offsets[0] - range.chunkStart) : new Uint8Array(0),
    ...pages.map((p) => read(offsets[p], compressedSizes[p])),
  ])
  // Whatever precedes the first data page: the dictionary page (index pages may sit there too).
  for (let at = 0; at < before.length;) {
    const { page, next } = await decodePageAt(before, at, before.length, decoding)
    if (page.kind === 'dictionary') rowsOut.dictionary(page.values)
    else if (page.kind === 'data') throw new PageDecodeError('a data page before the OffsetIndex\'s first page')
    at = next
  }
  for (const [i, p] of pages.entries()) {
    const bytes = pageBytes[i]
    const { page, next } = await decodePageAt(bytes, 0, bytes.length, decoding)
    if (page.kind !== 'data') throw new PageDecodeError(`the OffsetIndex's page ${p} is not a data page`)
    if (next !== bytes.length) throw new PageDecodeError(`page ${p} takes ${next} bytes, its OffsetIndex entry says ${bytes.length}`)
    const held = rowsOut.data(page, firstRowIndexes[p])
    if (held !== endOf(p) - firstRowIndexes[p]) {
      throw new PageDecodeError(`page ${p} holds ${held} rows, its OffsetIndex says ${endOf(p) - firstRowIndexes[p]}`)
    }
  }
  return rowsOut.values()
}

/**
 * The chunk's OffsetIndex when the footer places one and it is consistent (as js/indexes/page-index.js checks it
 * for exact lookups); undefined reads the whole chunk instead.
 * @param {{ layout: import('../footer/footer.js').FileLayout, group: number, column: import('../footer/footer.js').LeafColumn,
 *   metadataOffset: number, range: { chunkStart: number, chunkEnd: number }, numRows: number, read: ReadRange }} chunkAt
 * @param {OffsetIndexes} offsetIndexes
 */
async function offsetIndex({ layout, group, column, metadataOffset, range, numRows, read }, offsetIndexes) {
  const { checkPlaces, checkRows, decodeOffsetIndex, pageIndexLocation } = offsetIndexes
  const located = pageIndexLocation(layout, group, column.index, metadataOffset)
  if (!('offsetIndex' in located) || !located.offsetIndex) return undefined
  const index = decodeOffsetIndex(await read(located.offsetIndex.offset, located.offsetIndex.length))
  if ('error' in index || checkRows(index.firstRowIndexes, numRows) ||
    checkPlaces(index.offsets, index.compressedSizes, range.chunkStart, range.chunkEnd)) return undefined
  return index
}

/**
 * Takes a chunk's dictionary and data pages in order and keeps the assembled rows of `rows`.
 * @param {Awaited<ReturnType<typeof columnDecoder>>} decoding
 * @param {number[]} rows ascending
 * @param {boolean} utf8
 * @param {boolean} countPastDates
 */
function rowAssembler(decoding, rows, utf8, countPastDates) {
  const hyparquet = decoding.hyparquet.pages
  const { schemaPath } = decoding.decoder
  // hyparquet's row reader's decoder: its default parsers, strings as text (unannotated bytes too unless utf8 is false).
  // ConvertedType ENUM (parquet-avro's enums) is text too, as DuckDB reads it (VARCHAR), though hyparquet takes only
  // UTF8/STRING as text: with utf8 false its 'happy' came back as bytes (hex in the CLI). (DuckDB reads an ENUM or JSON
  // logical type without a converted type as BLOB.)
  const converting = { ...decoding.decoder, parsers: countPastDates ? hyparquet.LOOKUP_PARSERS : hyparquet.DEFAULT_PARSERS,
    utf8: utf8 || decoding.decoder.element.converted_type === 'ENUM' }
  // INT96 as the instant Spark reads (asSparkReads), in the form hyparquet's convert takes.
  const raw = decoding.decoder.type === 'INT96' ? asSparkReads : (/** @type {ArrayLike<unknown>} */ v) => v
  const out = new Array(rows.length)
  /** @type {ArrayLike<unknown> | undefined} */
  let dictionary
  // Rows assembled and not yet kept, the first of them row `base`; the last may go on in the next page.
  /** @type {ArrayLike<unknown>} */
  let pending = []
  let base = 0
  let next = 0 // the first of `rows` not yet kept
  let started = 0 // rows the levels started
  const keep = () => {
    const end = base + pending.length
    for (; next < rows.length && rows[next] < end; next++) {
      if (rows[next] < base) throw new PageDecodeError(`row ${rows[next]} is on no page read`)
      out[next] = pending[rows[next] - base]
    }
    base = end
    pending = []
  }
  return {
    /** @param {ArrayLike<unknown>} values */
    dictionary(values) {
      if (dictionary) throw new PageDecodeError('a second dictionary page in the chunk')
      dictionary = hyparquet.convert(raw(values), converting)
    },
    /**
     * One data page; `firstRow` (its OffsetIndex's) when it is read alone, else it follows the last. Returns the rows it starts.
     * @param {DataPage} page
     * @param {number} [firstRow]
     */
    data(page, firstRow) {
      const { numLevels, definitionLevels: defs, repetitionLevels: reps, values } = page
      if (values === undefined) throw new PageDecodeError('a data page without values')
      const present = defs.length ? countEqual(defs, decoding.maxDefinitionLevel) : numLevels
      if (values.length !== present) throw new PageDecodeError(`the levels say ${present} values, the page holds ${values.length}`)
      if (!numLevels) return 0
      const startsRow = !reps.length || reps[0] === 0
      if (firstRow !== undefined && !startsRow) throw new PageDecodeError('an OffsetIndex page does not start a row')
      if (!startsRow && !pending.length) throw new PageDecodeError('the chunk\'s first page does not start a row')
      if (startsRow) keep()
      if (firstRow !== undefined) base = firstRow
      let converted
      if (page.dictionaryIndexes) {
        if (!dictionary) throw new PageDecodeError('a dictionary-encoded page, but the chunk has no dictionary page')
        for (let i = 0; i < values.length; i++) {
          if (!(values[i] >= 0 && values[i] < dictionary.length)) {
            throw new PageDecodeError(`dictionary index ${values[i]} outside a dictionary of ${dictionary.length} values`)
          }
        }
        converted = hyparquet.convertWithDictionary(values, dictionary, 'RLE_DICTIONARY', converting)
      } else {
        converted = hyparquet.convert(raw(values), converting)
      }
      const held = pending.length // the rows before, the last of them going on here when the page does not start a row
      pending = hyparquet.assembleLists(pending, defs, reps, converted, schemaPath)
      const rowsStarted = reps.length ? countEqual(reps, 0) : numLevels
      if (pending.length - held !== rowsStarted) {
        throw new PageDecodeError(`the page's levels start ${rowsStarted} rows, ${pending.length - held} were assembled`)
      }
      started += rowsStarted
      return rowsStarted
    },
    /**
     * The values of `rows`, once every page is in; `numRows` when the pages were the whole chunk.
     * @param {number} [numRows]
     */
    values(numRows) {
      keep()
      if (numRows !== undefined && started !== numRows) {
        throw new PageDecodeError(`the chunk's pages hold ${started} rows, the row group ${numRows}`)
      }
      if (next !== rows.length) throw new PageDecodeError(`row ${rows[next]} is on no page read`)
      return out
    },
  }
}

const JULIAN_EPOCH = 2440588n // the Julian day of 1970-01-01
const MICROS_PER_DAY = 86400000000n
const NANOS_PER_DAY = 86400000000000n

/**
 * INT96 page values (js/pages/page-decode.js int96Values: day << 64 | nanoseconds read unsigned) in the form hyparquet's
 * convert takes (day << 64 | nanoseconds of the day, 0 ≤ them < a day: (day - epoch) days + them), for the instant Spark
 * reads: the day and the signed nanoseconds, its microseconds wrapped to int64 as Spark's fromJulianDay computes them.
 * That is the instant every writer means, and for the bytes Spark writes past year ~287,566 (int96_from_spark.parquet's
 * 290000-12-31, which probes match as that instant: js/values/temporal.js int96Forms) the one Spark wrote; hyparquet's
 * own reading gave its row -4128-06-12 (DuckDB's: 226414 BC).
 * @param {ArrayLike<unknown>} values
 */
function asSparkReads(values) {
  return Array.from(values, (value) => {
    const v = /** @type {bigint} */ (value)
    const day = v >> 64n
    const nanos = BigInt.asIntN(64, v)
    const micros = BigInt.asIntN(64, (day - JULIAN_EPOCH) * MICROS_PER_DAY + nanos / 1000n)
    const instant = micros * 1000n + nanos % 1000n
    const days = instant / NANOS_PER_DAY - (instant % NANOS_PER_DAY < 0n ? 1n : 0n)
    return (days + JULIAN_EPOCH) << 64n | (instant - days * NANOS_PER_DAY)
  })
}
