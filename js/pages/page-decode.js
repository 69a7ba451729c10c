// Decodes a column chunk's pages (parquet.thrift PageHeader, DataPageHeader(V2); Encodings.md) into raw
// physical values and levels for exact lookups, with hyparquet's page readers — every encoding and both
// data page versions — loaded by a dynamic import on first use, so probes that never confirm download
// nothing more. The page header is bounded-decoded first (js/format/page-header.js) and its sizes and CRC
// checked before hyparquet sees a byte; anything wrong is a PageDecodeError, which callers turn into a
// `maybe`, never into an answer. PLAIN BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY data pages keep their value
// section as bytes (js/pages/plain-binary-page.js) for matching in place, instead of one array per value.
import { crc32 } from './crc32.js'
import { decompressPage, loadCompressors } from './page-codecs.js'
import { CODEC_NAMES } from '../format/page-header.js'
import { decodePageHeader, PageType } from '../format/page-header.js'
import { PageDecodeError } from './page-decode-error.js'
import { messageOf } from '../errors.js'
import { loadHyparquetPages } from './hyparquet.js'
import { levelsV1, levelsV2 } from './page-levels.js'

/** The largest decompressed page decoded: a header claiming more is refused before any allocation. */
export const MAX_PAGE_BYTES = 64 * 1024 * 1024

export { PageDecodeError }

let loading = null

/** hyparquet's page-level functions (js/pages/hyparquet.js), our PLAIN binary path and the decompressors, loaded once. */
export function loadHyparquet() {
  loading ??= Promise.all([
    loadHyparquetPages(),
    // Our in-place PLAIN binary path, on demand with the rest: it is code only confirmations run.
    import('./plain-binary-page.js'), loadCompressors(),
  ]).then(([pages, plainBinary, compressors]) => ({ pages: /** @type {any} */ (pages), plainBinary, compressors }),
    (error) => {
      loading = null // a later call may succeed (e.g. after an import map is added)
      throw error
    })
  return loading
}

const hyparquetFooters = new WeakMap()

/**
 * hyparquet's FileMetaData for our footer bytes (parsed once per layout): its schema tree gives a
 * leaf's levels exactly as its own reader computes them, and `columns` lookups read through it.
 * @param {import('../footer/footer.js').FileLayout} layout
 */
export async function hyparquetMetadata(layout) {
  const { pages } = await loadHyparquet()
  let parsed = hyparquetFooters.get(layout)
  if (!parsed) {
    const footer = layout.footerBytes
    const framed = new Uint8Array(footer.length + 8)
    framed.set(footer)
    new DataView(framed.buffer).setUint32(footer.length, footer.length, true)
    framed.set([0x50, 0x41, 0x52, 0x31], footer.length + 4) // PAR1
    parsed = pages.parquetMetadata(framed.buffer)
    hyparquetFooters.set(layout, parsed)
  }
  return parsed
}

/**
 * What decoding one column's pages needs: its schema path (levels), physical type and codec.
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {import('../footer/footer.js').LeafColumn} column
 * @param {number} codec ColumnMetaData.codec id
 */
export async function columnDecoder(layout, column, codec) {
  const hyparquet = await loadHyparquet()
  const metadata = await hyparquetMetadata(layout)
  const { pages } = hyparquet
  const schemaPath = pages.getSchemaPath(metadata.schema, column.path)
  const element = schemaPath[schemaPath.length - 1].element
  return {
    hyparquet,
    codec,
    maxDefinitionLevel: pages.getMaxDefinitionLevel(schemaPath),
    maxRepetitionLevel: pages.getMaxRepetitionLevel(schemaPath),
    // PLAIN data pages as value sections: 0 for BYTE_ARRAY, the width for FLBA; undefined (other types,
    // or set so by a caller): decoded by hyparquet like every other page.
    plainBinaryWidth: hyparquet.plainBinary.plainBinaryWidth(column.physicalType, element.type_length),
    // Buffers data pages and their levels are decoded into instead of new arrays (js/pages/page-scratch.js),
    // set by a caller that keeps nothing of a data page past the next one.
    scratch: /** @type {import('./page-scratch.js').PageScratch | undefined} */ (undefined),
    // hyparquet's ColumnDecoder shape, for its page readers.
    decoder: {
      pathInSchema: column.path, type: column.physicalType, element, schemaPath,
      codec: CODEC_NAMES[codec], compressors: hyparquet.compressors, parsers: undefined, utf8: false,
    },
  }
}

/**
 * @typedef {{ kind: 'dictionary', values: any[] | ArrayLike<any> }
 *   | { kind: 'data', numLevels: number, definitionLevels: ArrayLike<number>, repetitionLevels: ArrayLike<number>,
 *       values: ArrayLike<any> | undefined, dictionaryIndexes: boolean, plainBinary?: import('./plain-binary-page.js').PlainBinarySection }
 *   | { kind: 'other' }} DecodedPage
 *   `values` are raw physical values (hyparquet's readPlain forms: Int32Array, BigInt64Array, Float32Array,
 *   Float64Array, Uint8Array[], booleans; INT96 as int96Values' bigints); for a dictionary-encoded data page, indexes
 *   into the chunk's dictionary. Empty level arrays mean every level is a present value (no nulls).
 *   A PLAIN binary data page has `plainBinary` (its value section) instead of `values`.
 */

/**
 * PLAIN INT96 values (12 bytes: nanoseconds of the day, LE int64, then the Julian day, LE int32) as bigints
 * `day << 64 | nanoseconds`, the nanoseconds read unsigned: one bigint per byte string. hyparquet's readPlainInt96 ORs
 * them in signed, so every value whose nanoseconds read negative (Spark's before 4713 BC and after year ~287,566) was
 * the same bigint whatever its day: confirm matched 290001-12-30 at a row holding Spark's 290000-12-30.
 * @param {Uint8Array} section holding them (checked by valueSection)
 * @param {number} count
 */
function int96Values(section, count) {
  const view = new DataView(section.buffer, section.byteOffset, section.byteLength)
  const out = new Array(count)
  for (let i = 0; i < count; i++) out[i] = BigInt(view.getInt32(12 * i + 8, true)) << 64n | view.getBigUint64(12 * i, true)
  return out
}

/**
 * A PLAIN INT96 dictionary's entries as 12-byte views.
 * @param {Uint8Array} page
 * @param {number} count
 */
function int96Entries(page, count) {
  if (page.length < 12 * count) throw new PageDecodeError(`a dictionary page of ${count} INT96 values holds ${page.length} bytes`)
  return Array.from({ length: count }, (_, i) => page.subarray(12 * i, 12 * i + 12))
}

/**
 * Decodes the page starting at `bytes[at]`, which must end by `end`. Returns the page and where the next
 * one starts. Throws PageDecodeError.
 * @param {Uint8Array} bytes
 * @param {number} at
 * @param {number} end
 * @param {Awaited<ReturnType<typeof columnDecoder>>} column
 * @returns {Promise<{ page: DecodedPage, next: number }>}
 */
export async function decodePageAt(bytes, at, end, column) {
  const decoded = decodePageHeader(bytes.subarray(at, end))
  if ('problem' in decoded) throw new PageDecodeError(decoded.problem)
  const { header, length: headerLength } = decoded
  const { compressedPageSize, uncompressedPageSize, crc } = header
  if (!(compressedPageSize !== undefined && uncompressedPageSize !== undefined && compressedPageSize >= 0 && uncompressedPageSize >= 0)) {
    throw new PageDecodeError('a page header without or with negative sizes ' +
      `(compressed ${compressedPageSize}, uncompressed ${uncompressedPageSize})`)
  }
  const dataStart = at + headerLength
  const next = dataStart + compressedPageSize
  if (next > end) {
    throw new PageDecodeError(`a ${headerLength}-byte page header and ${compressedPageSize} bytes of page ` +
      `run past the ${end - at} bytes the page has`)
  }
  if (uncompressedPageSize > MAX_PAGE_BYTES) {
    throw new PageDecodeError(`a page of ${uncompressedPageSize} bytes uncompressed, over the ${MAX_PAGE_BYTES}-byte limit`)
  }
  const stored = bytes.subarray(dataStart, next)
  if (crc !== undefined && crc32(stored) !== crc) throw new PageDecodeError('a page does not match its CRC-32 checksum')
  if (header.type !== PageType.DATA_PAGE && header.type !== PageType.DATA_PAGE_V2 && header.type !== PageType.DICTIONARY_PAGE) {
    return { page: { kind: 'other' }, next }
  }
  const { decoder } = column
  const { pages } = column.hyparquet
  try {
    // The header decoded within bounds above; hyparquet re-reads only those bytes for its fields.
    const full = pages.parquetHeader({ view: new DataView(bytes.buffer, bytes.byteOffset + at, headerLength), offset: 0 })
    if (header.type === PageType.DICTIONARY_PAGE) {
      const page = await decompressed(stored, uncompressedPageSize, column.codec)
      const count = full.dictionary_page_header?.num_values
      if (!(count >= 0)) throw new PageDecodeError('a dictionary page without num_values')
      // The entries must lie in the page (valueSection): readPlain read num_values of them on into the next page's
      // bytes (a DuckDB dictionary of 3 INT32s claiming 4, whose 4th was the data page header's first bytes:
      // confirm answered present at a row whose index said 3, where DuckDB and arrow-rs refuse the page).
      const entries = valueSection(page, 'PLAIN', count, decoder)
      // INT96 entries as their 12 bytes when the caller asks for INT96 value bytes (plainBinaryWidth 12):
      // hyparquet's bigint of one loses bytes when its first 8 read as a negative int64.
      const int96 = decoder.type === 'INT96'
      const values = int96 && column.plainBinaryWidth === 12 ? int96Entries(entries, count)
        : int96 ? int96Values(entries, count)
          : pages.readPlain({ view: new DataView(entries.buffer, entries.byteOffset, entries.byteLength), offset: 0 },
            decoder.type, count, decoder.element.type_length)
      return { page: { kind: 'dictionary', values }, next }
    }
    if (header.type === PageType.DATA_PAGE) {
      const daph = full.data_page_header
      if (!daph || !(daph.num_values >= 0)) throw new PageDecodeError('a data page without a DataPageHeader')
      // Into the scan's scratch when it has one: a data page is done with before the next (a dictionary is not).
      const page = await decompressed(stored, uncompressedPageSize, column.codec, column.scratch?.bytes('page', uncompressedPageSize))
      const levels = levelsV1(page, daph, column, pages)
      const values = page.subarray(levels.valuesAt)
      if (daph.encoding === 'PLAIN' && column.plainBinaryWidth !== undefined) {
        return { page: column.hyparquet.plainBinary.plainBinaryPage(daph.num_values, levels, values, column.plainBinaryWidth), next }
      }
      // The levels are ours: hyparquet reads the values only, as many as they say (a schema path without levels).
      const section = valueSection(values, daph.encoding, levels.present, decoder)
      if (decoder.type === 'INT96' && daph.encoding === 'PLAIN') {
        return { page: dataPage_(daph.num_values, levels, int96Values(section, levels.present), daph.encoding), next }
      }
      const { dataPage } = pages.readDataPage(section, { ...daph, num_values: levels.present }, valuesOnly(decoder))
      return { page: dataPage_(daph.num_values, levels, dataPage, daph.encoding), next }
    }
    const v2 = full.data_page_header_v2
    if (!v2 || !(v2.num_values >= 0) || !(v2.num_nulls >= 0)) throw new PageDecodeError('a v2 data page without a DataPageHeaderV2')
    // Required: without them hyparquet's level reader looped forever on the page's first byte.
    const { repetition_levels_byte_length: repetitionBytes, definition_levels_byte_length: definitionBytes } = v2
    if (!(repetitionBytes >= 0 && definitionBytes >= 0 && repetitionBytes + definitionBytes <= stored.length)) {
      throw new PageDecodeError(`v2 level lengths ${repetitionBytes} + ${definitionBytes} do not fit the page's ${stored.length} bytes`)
    }
    const levels = levelsV2(stored, v2, column, pages)
    // The values, compressed unless is_compressed is false; a page of no values may have no bytes at all.
    let values = stored.subarray(levels.valuesAt)
    const valuesSize = uncompressedPageSize - levels.valuesAt
    if (v2.is_compressed !== false && valuesSize) {
      values = await decompressed(values, valuesSize, column.codec, column.scratch?.bytes('page', valuesSize))
    }
    if (v2.encoding === 'PLAIN' && column.plainBinaryWidth !== undefined) {
      return { page: column.hyparquet.plainBinary.plainBinaryPage(v2.num_values, levels, values, column.plainBinaryWidth), next }
    }
    const section = valueSection(values, v2.encoding, levels.present, decoder)
    if (decoder.type === 'INT96' && v2.encoding === 'PLAIN') {
      return { page: dataPage_(v2.num_values, levels, int96Values(section, levels.present), v2.encoding), next }
    }
    const valuesHeader = {
      ...full, uncompressed_page_size: section.length,
      data_page_header_v2: {
        ...v2, num_values: levels.present, num_nulls: 0, repetition_levels_byte_length: 0, definition_levels_byte_length: 0,
        is_compressed: false,
      },
    }
    const { dataPage } = pages.readDataPageV2(section, valuesHeader, valuesOnly(decoder))
    return { page: dataPage_(v2.num_values, levels, dataPage, v2.encoding), next }
  } catch (error) {
    if (error instanceof PageDecodeError) throw error
    throw new PageDecodeError(`the page does not decode: ${messageOf(error)}`)
  }
}

// Bytes a PLAIN value of a fixed-width type takes (BOOLEAN: bits; FIXED_LEN_BYTE_ARRAY: its type_length).
const PLAIN_WIDTHS = /** @type {Record<string, number>} */ ({ INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12 })
// hyparquet's readers that make arrays on the section's ArrayBuffer, not its DataView (fixed-width PLAIN is checked by size).
const BUFFER_READERS = new Set(['DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'ALP'])

/**
 * A data page's value section as hyparquet may read it: hyparquet's PLAIN reader (and those of BUFFER_READERS)
 * make typed arrays on the section's ArrayBuffer, so a page holding fewer values than its levels say was read
 * on into the bytes after it — the next page or column chunk —: a value no page holds, found at a row (a
 * DuckDB page cut short by 4 bytes). A fixed-width PLAIN section must hold its values; the others (PLAIN
 * BYTE_ARRAY too: a length read from the page said where its last value ends, point lookups gave 'ccc' and two
 * bytes of the footer for a DuckDB 'ccc' whose length said 5) get a buffer that ends with them, where a read past
 * them throws. A dictionary page's entries are such a section too.
 * @param {Uint8Array} values
 * @param {string} encoding
 * @param {number} present the values the levels say the page holds
 * @param {{ type: string, element: { type_length?: number } }} decoder
 */
function valueSection(values, encoding, present, { type, element }) {
  if (encoding === 'PLAIN' && type !== 'BYTE_ARRAY') {
    const need = type === 'BOOLEAN' ? Math.ceil(present / 8) : present * (PLAIN_WIDTHS[type] ?? element.type_length ?? 0)
    if (values.length < need) throw new PageDecodeError(`${present} PLAIN ${type} values need ${need} bytes, the page has ${values.length}`)
    return values
  }
  const ownBuffer = encoding === 'PLAIN' || BUFFER_READERS.has(encoding)
  return ownBuffer && values.byteOffset + values.length !== values.buffer.byteLength ? values.slice() : values
}

// A schema path of a required root alone: hyparquet's page readers given it read no levels, only values.
const NO_LEVELS = [{ element: { name: '', repetition_type: 'REQUIRED' }, children: [], count: 0, path: [] }]

/**
 * hyparquet's ColumnDecoder for a page's values alone (js/pages/page-levels.js read the levels).
 * @param {object} decoder
 */
function valuesOnly(decoder) {
  return { ...decoder, schemaPath: NO_LEVELS }
}

/**
 * @param {number} numLevels
 * @param {import('./page-levels.js').PageLevels} levels
 * @param {ArrayLike<any>} values hyparquet's decoded values: any of readPlain's forms
 * @param {string} encoding
 */
function dataPage_(numLevels, { definitionLevels, repetitionLevels }, values, encoding) {
  return {
    kind: /** @type {'data'} */ ('data'), numLevels, definitionLevels, repetitionLevels, values,
    dictionaryIndexes: encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY',
  }
}

/**
 * @param {Uint8Array} stored
 * @param {number} uncompressedSize
 * @param {number} codec
 * @param {Uint8Array} [into] where to decompress, when the caller keeps nothing of the page past the next one
 */
async function decompressed(stored, uncompressedSize, codec, into) {
  const page = await decompressPage(stored, uncompressedSize, codec, undefined, into)
  if ('error' in page) throw new PageDecodeError(page.error.detail)
  return page.bytes
}
