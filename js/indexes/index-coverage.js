// Which indexes one column chunk offers, and whether each can be trusted (parquet.thrift ColumnChunk,
// ColumnMetaData, PageIndex.md): shown by file.metadata, `parquet-bloom inspect` and the demo, so a
// user sees how probe-able a file is before probing it.
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk, ChunkFlag, IndexFlag } from '../footer/records.js'
import { ErrorCode } from '../errors.js'
import { Unanswerable } from '../verdicts.js'
import { chunkStatistics, sortOrderFor } from './statistics.js'

// parquet.thrift Encoding ids
const PLAIN_DICTIONARY = 2
const RLE = 3
const BIT_PACKED = 4
const RLE_DICTIONARY = 8

/**
 * @param {import('../footer/file-geometry.js').FileGeometry} geometry
 * @param {number} rowGroup
 * @param {number} columnIndex
 * @returns {{ statistics: { present: boolean, usable: boolean, reason?: string, detail?: string },
 *   pageIndex: { columnIndex: boolean, offsetIndex: boolean }, dictionary: { present: boolean, allDataPages: boolean | null },
 *   bloomFilter: boolean }}
 */
export function chunkIndexes(geometry, rowGroup, columnIndex) {
  const { layout } = geometry
  ensureColumnIndexes(layout, columnIndex)
  const record = chunk(layout, rowGroup, columnIndex)
  const flags = record.indexFlags
  const column = layout.columns[columnIndex]
  // With its key an encrypted chunk's (decrypted) statistics are usable like any others.
  const unavailable = chunkUnavailable(record.flags, record.crypto)
  let statistics
  if (unavailable) statistics = { present: false, usable: false, reason: unavailable.reason, detail: unavailable.detail }
  else if (!(flags & (IndexFlag.HAS_STATISTICS | IndexFlag.FOREIGN_STATISTICS_FIELD))) statistics = { present: false, usable: false }
  else {
    const stats = chunkStatistics(layout, rowGroup, column, sortOrderFor(column))
    statistics = stats.usable
      ? { present: true, usable: true }
      : { present: true, usable: false, reason: stats.reason, detail: stats.detail }
  }
  const { bloomOffset } = record
  return {
    statistics,
    pageIndex: { columnIndex: record.columnIndexOffset >= 4, offsetIndex: record.offsetIndexOffset >= 4 },
    dictionary: { ...dictionaryCoverage(record) }, // a copy: the shared answer is not the caller's to change
    bloomFilter: bloomOffset > 0 && !(flags & IndexFlag.FOREIGN_BLOOM_FIELD),
  }
}

/**
 * Does the chunk have a dictionary page, and are all its data pages dictionary-encoded (so that the
 * dictionary is the exact set of its values)? With encoding_stats that is what they say; without, only
 * parquet-java's DictionaryFilter rule: PLAIN_DICTIONARY (format 1.0) and nothing but level encodings.
 * null when it cannot be told.
 * @param {import('../footer/records.js').ChunkView} record
 */
export function dictionaryCoverage(record) {
  const { dictionaryPageOffset: dictionaryOffset, dataPageOffset: dataOffset, indexFlags: flags, encodings } = record
  if (flags & IndexFlag.FOREIGN_DICTIONARY_FIELD) return COVERAGE.absentUnknown
  const listed = (flags & IndexFlag.HAS_ENCODINGS) !== 0 &&
    (hasEncoding(encodings, PLAIN_DICTIONARY) || hasEncoding(encodings, RLE_DICTIONARY))
  // A dictionary page comes first in its chunk; an offset at or after the data pages (0 in some files)
  // disagrees with the rest of the chunk and is not used.
  const placed = dictionaryOffset >= 4 && dictionaryOffset < dataOffset
  const present = placed || (listed && dictionaryOffset === -1)
  if (!present) return COVERAGE.absent
  if (flags & IndexFlag.HAS_ENCODING_STATS) return (flags & IndexFlag.DATA_PAGES_DICTIONARY) !== 0 ? COVERAGE.every : COVERAGE.some
  if (flags & IndexFlag.HAS_ENCODINGS && hasEncoding(encodings, PLAIN_DICTIONARY)) {
    const others = encodings & ~((1 << PLAIN_DICTIONARY) | (1 << RLE) | (1 << BIT_PACKED))
    return others === 0 ? COVERAGE.every : COVERAGE.some
  }
  return COVERAGE.unknown
}

/** dictionaryCoverage's answers, made once (they are read, never changed). */
const COVERAGE = Object.freeze({
  absentUnknown: Object.freeze({ present: false, allDataPages: null }),
  absent: Object.freeze({ present: false, allDataPages: false }),
  every: Object.freeze({ present: true, allDataPages: true }),
  some: Object.freeze({ present: true, allDataPages: false }),
  unknown: Object.freeze({ present: true, allDataPages: null }),
})

/** @param {number} encodings a ChunkView's encodings bits @param {number} encoding */
function hasEncoding(encodings, encoding) {
  return (encodings & (1 << encoding)) !== 0
}

/**
 * Why a chunk's metadata or indexes cannot be read at all, or null. With the chunk's crypto context
 * (js/crypto/encrypted-footer.js) an encrypted chunk is readable, by a caller that decrypts.
 * @param {number} flags the chunk's ChunkFlag bits
 * @param {import('../crypto/encrypted-footer.js').ChunkCrypto} [crypto]
 * @returns {Unanswerable | null}
 */
export function chunkUnavailable(flags, crypto) {
  if (crypto?.missing !== undefined) {
    return new Unanswerable('no-key', `this column is encrypted and ${crypto.missing}`, ErrorCode.ENCRYPTION_KEY_REQUIRED)
  }
  if (crypto) return chunkUnavailable(flags & ~(ChunkFlag.ENCRYPTED_META_DATA | ChunkFlag.HAS_CRYPTO_META_DATA))
  if (flags & ChunkFlag.ENCRYPTED_META_DATA) {
    return new Unanswerable('encrypted-column', 'this column\'s metadata is encrypted', ErrorCode.ENCRYPTED)
  }
  // crypto_metadata alone also means an encrypted column, and its bloom filter is ciphertext.
  if (flags & ChunkFlag.HAS_CRYPTO_META_DATA) {
    return new Unanswerable('encrypted-column', 'this column is encrypted (it has crypto_metadata)', ErrorCode.ENCRYPTED)
  }
  if (!(flags & ChunkFlag.HAS_META_DATA)) {
    return new Unanswerable('no-column-metadata', 'the column chunk has no metadata', ErrorCode.UNSUPPORTED_FILTER)
  }
  if (flags & ChunkFlag.EXTERNAL_FILE) {
    return new Unanswerable('external-file', 'the column chunk lives in another file', ErrorCode.UNSUPPORTED_FILTER)
  }
  return null
}
