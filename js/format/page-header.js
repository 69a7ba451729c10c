// Decodes a Parquet PageHeader (parquet.thrift PageHeader, DictionaryPageHeader) from Thrift compact
// protocol bytes with the shared bounded reader (js/format/thrift-compact.js): any field this decoder does not
// need is skipped, so hostile bytes give { problem } and never a throw or a hang.
// Written here rather than taken from hyparquet because hyparquet exports no page header reader in its
// public API and its internal one recurses without a bound.

import { CompactReader, Malformed, T } from './thrift-compact.js'

export const PageType = Object.freeze({ DATA_PAGE: 0, INDEX_PAGE: 1, DICTIONARY_PAGE: 2, DATA_PAGE_V2: 3 })
/** parquet.thrift CompressionCodec, by id. */
export const CODEC_NAMES = Object.freeze(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'])
export const UNCOMPRESSED = 0

/**
 * Reads a struct's fields; `onField(id, type)` reads the ones it knows (returns true), the rest are skipped.
 * @param {CompactReader} reader
 * @param {(id: number, type: number) => boolean} onField
 */
function readStruct(reader, onField) {
  let lastId = 0
  for (;;) {
    const { id, type } = reader.fieldHeader(lastId)
    if (type === 0) return
    if (!onField(id, type)) reader.skip(type)
    lastId = id
  }
}

/** @typedef {{ numValues?: number, encoding?: number, isSorted?: boolean }} DictionaryPageHeader */
/**
 * @typedef {{ type?: number, uncompressedPageSize?: number, compressedPageSize?: number, crc?: number,
 *   dictionary?: DictionaryPageHeader }} PageHeader
 */

/**
 * Decodes the PageHeader at the start of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {{ header: PageHeader, length: number } | { problem: string }}
 *   `length` is the header's size in bytes: the page data starts there.
 */
export function decodePageHeader(bytes) {
  const reader = new CompactReader(bytes)
  /** @type {PageHeader} */
  const header = {}
  const i32Field = (/** @type {number} */ type) => {
    if (type !== T.I32) throw new Malformed('a PageHeader integer field has the wrong Thrift type')
    return reader.i32()
  }
  try {
    readStruct(reader, (id, type) => {
      switch (id) {
        case 1: header.type = i32Field(type); return true
        case 2: header.uncompressedPageSize = i32Field(type); return true
        case 3: header.compressedPageSize = i32Field(type); return true
        case 4: header.crc = i32Field(type); return true
        case 7: {
          if (type !== T.STRUCT) throw new Malformed('dictionary_page_header is not a struct')
          const dictionary = (header.dictionary = /** @type {DictionaryPageHeader} */ ({}))
          readStruct(reader, (field, fieldType) => {
            if (field === 1) dictionary.numValues = i32Field(fieldType)
            else if (field === 2) dictionary.encoding = i32Field(fieldType)
            else if (field === 3 && (fieldType === T.TRUE || fieldType === T.FALSE)) dictionary.isSorted = fieldType === T.TRUE
            else return false
            return true
          })
          return true
        }
        default: return false
      }
    })
  } catch (error) {
    if (error instanceof Malformed) return { problem: `the page header does not decode: ${error.detail}` }
    throw error
  }
  return { header, length: reader.at }
}
