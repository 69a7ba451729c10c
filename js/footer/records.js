// The decoded footer's per-chunk records (src/file_metadata.h ChunkRecord, ChunkIndexRecord; parquet.thrift
// ColumnChunk / ColumnMetaData / Statistics), read by name: `chunk(layout, rowGroup, column)` is a view of
// one column chunk. The records stay flat typed arrays of words in a FileLayout (one copy out of wasm
// memory, no object per chunk in the cache); only this module knows their word layout, which the wasm
// module describes (js/wasm/abi.js) and init() binds.
import { ChunkFlag as ChunkFlagEnum, ChunkIndexRecord, ChunkRecord, IndexFlag as IndexFlagEnum, whenBound } from '../wasm/abi.js'
import { ensureColumnIndexes, indexRecordAt } from './chunk-indexes.js'

/** Word index of each ChunkRecord field in `layout.chunks`. */
const Chunk = ChunkRecord.wordIndex('f64')
/**
 * ChunkIndexRecords in `layout.indexes`, copied whole and read through two views of the same bytes: the
 * doubles by IndexF64 word (NUM_VALUES …), the int32s by IndexI32 word (FLAGS …). Unlike `layout.chunks`
 * they are decoded a column at a time (js/footer/chunk-indexes.js), so they are kept by column: each
 * decoded column has a slot (`layout.indexSlots[column]`, -1 until decoded) holding its records for every
 * row group in one stretch (js/footer/chunk-indexes.js, which fills the slots, indexRecordAt). Only
 * decoded columns take memory: a probe of one column of a 50-column footer holds 1/50 of the records,
 * and its decode touches no page but theirs.
 */
const IndexF64 = ChunkIndexRecord.wordIndexOfType('f64')
const IndexI32 = ChunkIndexRecord.wordIndexOfType('i32')
/** float64 words per chunk in `layout.chunks`; set at init(). */
export let CHUNK_WORDS = 0
let INDEX_F64_WORDS = 0
let INDEX_I32_WORDS = 0
whenBound(() => {
  CHUNK_WORDS = ChunkRecord.words(8)
  INDEX_F64_WORDS = ChunkIndexRecord.words(8)
  INDEX_I32_WORDS = ChunkIndexRecord.words(4)
})
/** ChunkRecord.flags bits (src/file_metadata.h ChunkFlag). */
export const ChunkFlag = ChunkFlagEnum.values
/** ChunkIndexRecord.flags bits (src/file_metadata.h IndexFlag). */
export const IndexFlag = IndexFlagEnum.values

/**
 * One column chunk of a FileLayout: its ChunkRecord fields (always there) and its ChunkIndexRecord
 * fields (statistics, encodings, codec, page index lengths: decoded per column, by
 * ensureColumnIndexes(layout, column) in js/footer/chunk-indexes.js, or by the first read of one).
 * -1 stands for an absent field.
 */
export class ChunkView {
  /** @param {import('./footer.js').FileLayout} layout @param {number} number row-group-major: rowGroup × columns + column */
  constructor(layout, number) {
    this.layout = layout
    this.number = number
    this.w = number * CHUNK_WORDS
    const columns = layout.columns.length
    this.column = number % columns
    this.rowGroup = Math.floor(number / columns)
  }

  get bloomOffset() { return this.layout.chunks[this.w + Chunk.BLOOM_OFFSET] }
  get bloomLength() { return this.layout.chunks[this.w + Chunk.BLOOM_LENGTH] }
  get dataPageOffset() { return this.layout.chunks[this.w + Chunk.DATA_PAGE_OFFSET] }
  get dictionaryPageOffset() { return this.layout.chunks[this.w + Chunk.DICTIONARY_PAGE_OFFSET] }
  get columnIndexOffset() { return this.layout.chunks[this.w + Chunk.COLUMN_INDEX_OFFSET] }
  get offsetIndexOffset() { return this.layout.chunks[this.w + Chunk.OFFSET_INDEX_OFFSET] }
  get totalCompressedSize() { return this.layout.chunks[this.w + Chunk.TOTAL_COMPRESSED_SIZE] }
  /** ChunkFlag bits */
  get flags() { return this.layout.chunks[this.w + Chunk.FLAGS] }
  /** Sets ChunkFlag bits (a decrypted footer marks its encrypted chunks). @param {number} bits */
  addFlags(bits) { this.layout.chunks[this.w + Chunk.FLAGS] |= bits }
  /** The chunk's decryption context in an encrypted file opened with keys. */
  get crypto() { return this.layout.crypto?.chunks[this.number] }
  /**
   * Whether the chunk's pages are ciphertext: it has crypto metadata or encrypted metadata, or the
   * file's keys decrypt it (files whose chunks carry no crypto metadata, as DuckDB writes them).
   */
  get encrypted() {
    if (this.crypto) return true
    return (this.flags & (ChunkFlag.ENCRYPTED_META_DATA | ChunkFlag.HAS_CRYPTO_META_DATA)) !== 0
  }

  /**
   * The byte range of the chunk's pages: from its dictionary page (when that offset is plausible: some
   * writers put 0 there) or first data page, total_compressed_size long. null when the footer cannot say.
   * @returns {{ chunkStart: number, chunkEnd: number } | null}
   */
  pageRange() {
    const data = this.dataPageOffset
    const dictionary = this.dictionaryPageOffset
    const size = this.totalCompressedSize
    if (!(data >= 4) || !(size > 0)) return null
    const chunkStart = dictionary >= 4 && dictionary < data ? dictionary : data
    return { chunkStart, chunkEnd: chunkStart + size }
  }

  get numValues() { return this.#f64(IndexF64.NUM_VALUES) }
  get nullCount() { return this.#f64(IndexF64.NULL_COUNT) }
  /** IndexFlag bits */
  get indexFlags() { return this.#i32(IndexI32.FLAGS) }
  /** bit e set: Encoding e is in ColumnMetaData.encodings */
  get encodings() { return this.#i32(IndexI32.ENCODINGS) }
  /** parquet.thrift CompressionCodec */
  get codec() { return this.#i32(IndexI32.CODEC) }
  get columnIndexLength() { return this.#i32(IndexI32.COLUMN_INDEX_LENGTH) }
  get offsetIndexLength() { return this.#i32(IndexI32.OFFSET_INDEX_LENGTH) }
  /**
   * Where one statistics bound lies in layout.footerBytes: `which` is 'minValue', 'maxValue' (Statistics
   * min_value/max_value) or 'min', 'max' (the deprecated fields). Offsets are -1 when the field is absent.
   * @param {'minValue' | 'maxValue' | 'min' | 'max'} which
   */
  bound(which) {
    const words = BOUND_WORDS[which] // by index: destructuring would make an iterator per read
    return { offset: this.#i32(words[0]), length: this.#i32(words[1]) }
  }

  // The slot is looked up at each read (the column may be decoded after this view was made); a column not
  // decoded yet is decoded now, so no read ever sees a record that was not filled.
  #record() {
    if (this.layout.indexSlots[this.column] < 0) ensureColumnIndexes(this.layout, this.column)
    return indexRecordAt(this.layout, this.layout.indexSlots[this.column], this.rowGroup)
  }
  // The record first: decoding may replace layout.indexes.
  /** @param {number} word */
  #f64(word) {
    const record = this.#record()
    return this.layout.indexes.f64[record * INDEX_F64_WORDS + word]
  }

  /** @param {number} word */
  #i32(word) {
    const record = this.#record()
    return this.layout.indexes.i32[record * INDEX_I32_WORDS + word]
  }
}

/** Each bound's [offset, length] IndexI32 words, looked up once (at init) rather than by name per read. */
const BOUND_WORDS = /** @type {Record<'minValue' | 'maxValue' | 'min' | 'max', [number, number]>} */ ({}) // filled at init()
whenBound(() => {
  const fields = /** @type {const} */ ([['minValue', 'MIN_VALUE'], ['maxValue', 'MAX_VALUE'], ['min', 'MIN'], ['max', 'MAX']])
  for (const [which, word] of fields) {
    BOUND_WORDS[which] = [IndexI32[word + '_OFFSET'], IndexI32[word + '_LENGTH']]
  }
})

/**
 * Row-group-major number of the chunk of leaf column `column` in row group `rowGroup`.
 * @param {import('./footer.js').FileLayout} layout @param {number} rowGroup @param {number} column
 */
export function chunkNumber(layout, rowGroup, column) {
  return rowGroup * layout.columns.length + column
}

/**
 * The chunk of leaf column `column` in row group `rowGroup`.
 * @param {import('./footer.js').FileLayout} layout @param {number} rowGroup @param {number} column
 */
export function chunk(layout, rowGroup, column) {
  return new ChunkView(layout, rowGroup * layout.columns.length + column)
}

/** Every chunk of the file, row-group-major. @param {import('./footer.js').FileLayout} layout */
export function* allChunks(layout) {
  const count = layout.chunks.length / CHUNK_WORDS
  for (let n = 0; n < count; n++) yield new ChunkView(layout, n)
}
