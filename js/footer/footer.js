// Reads a Parquet footer from a byte source (one tail read, a second only when the footer is larger) and
// decodes it with the wasm FileMetaData decoder into the compact layout probing needs.
import { ChunkRecord, ChunkSpan, FileSummary, FooterPass, RowGroupRecord, SchemaRecord } from '../wasm/abi.js'
import { decodeChunkIndexes, setLayoutOrigin } from './chunk-indexes.js'
import { CHUNK_WORDS, ChunkFlag, ChunkView } from './records.js'
import { getCore, init, initialized } from '../wasm/core.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { NativeStatus } from '../wasm/abi.js'
import { loadCrypto } from '../crypto/load-crypto.js'
import {
  acquireFor, leafColumns, MIN_CHUNK_BYTES, outlineLayout, ROW_GROUP_WORDS, rowGroupRowsOf, SCHEMA_WORDS, SPAN_WORDS,
} from './outline-layout.js'
import { joinBytes } from '../format/bytes.js'

const MAGIC_PAR1 = 0x31524150 // 'PAR1' little-endian
const MAGIC_PARE = 0x45524150 // 'PARE': encrypted footer (Parquet modular encryption)

export const DEFAULT_INITIAL_FETCH_SIZE = 64 * 1024
export const DEFAULT_MAX_FOOTER_BYTES = 128 * 1024 * 1024
// Footers larger than this are decoded a window at a time (js/footer/windowed-outline.js): copied whole,
// they and their records would take over twice their size of wasm memory, faulted in page by page.
export const WINDOWED_FOOTER_BYTES = 8 * 1024 * 1024

// Capacities from the list headers are trusted while the records they size take at most this many bytes
// per footer byte; real chunks take 40–200 footer bytes for their 80 (ChunkRecord + ChunkSpan).
const MAX_RECORDS_PER_FOOTER_BYTE = 2

/**
 * Reads and decodes the footer.
 * @param {import('../sources/open-byte-source.js').ByteSource} source
 * @param {{ initialFetchSize?: number, maxFooterBytes?: number, signal?: AbortSignal,
 *   decryption?: import('../crypto/file-crypto.js').DecryptionOptions }} [options] decryption: keys for modular encryption (js/crypto/)
 * @returns {Promise<ReadFooter>}
 */
export function readFooter(source, options = {}) {
  // A chain of the tail read and the decode rather than an async function around them: no frame, and no
  // promise of its own, held per file while its tail read is in flight.
  try {
    return readFooterTail(source, options).then((tail) => footerFromTail(source, tail, options))
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * readFooter()'s first read: the file's last initialFetchSize bytes (INVALID_ARGUMENT, thrown, for a size below 8).
 * @param {import('../sources/open-byte-source.js').ByteSource} source
 * @param {NonNullable<Parameters<typeof readFooter>[1]>} options
 * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
 */
export function readFooterTail(source, { initialFetchSize = DEFAULT_INITIAL_FETCH_SIZE, signal }) {
  if (!(Number.isInteger(initialFetchSize) && initialFetchSize >= 8)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `initialFetchSize must be an integer >= 8, got ${initialFetchSize}`)
  }
  return source.readTail(initialFetchSize, signal ? { signal, purpose: 'footer' } : FOOTER_READ)
}

/** A footer read's options without a signal, the same for every file. */
const FOOTER_READ = Object.freeze({ purpose: 'footer' })

/**
 * A footer as read: the file's size, where its footer starts, the tail read (its bytes hold the footer, and
 * often the filters before it) and the decoded layout; fromCache: false (a FooterCache's entries say true).
 * @typedef {{ fileSize: number, metadataOffset: number, tail: { offset: number, bytes: Uint8Array }, layout: FileLayout,
 *   fromCache: boolean }} ReadFooter
 */

/**
 * readFooter() once the tail is in: the footer checked, read further when the tail does not hold it, decoded.
 * Synchronous when the tail holds the footer and the wasm module is loaded (the common case: no promise made).
 * @param {import('../sources/open-byte-source.js').ByteSource} source
 * @param {{ offset: number, bytes: Uint8Array }} tail
 * @param {NonNullable<Parameters<typeof readFooter>[1]>} options
 * @returns {ReadFooter | Promise<ReadFooter>}
 */
export function footerFromTail(source, tail, { maxFooterBytes = DEFAULT_MAX_FOOTER_BYTES, signal, decryption }) {
  const fileSize = /** @type {number} */ (source.size)
  const where = source.name
  if (fileSize < 12) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a Parquet file: ${fileSize} bytes is too short for a footer`,
      { source: where })
  }
  const bytes = tail.bytes
  const magic = uint32At(bytes, bytes.length - 4)
  if (magic === MAGIC_PARE && !decryption) {
    throw new ParquetBloomError(ErrorCode.ENCRYPTION_KEY_REQUIRED,
      `${where}: the file is encrypted (the footer is encrypted: magic PARE): pass options.decryption with its footer key`,
      { source: where })
  }
  if (magic !== MAGIC_PAR1 && magic !== MAGIC_PARE) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
      `${where}: not a Parquet file: it does not end with PAR1 (last 4 bytes ${hex(bytes.subarray(-4))})`,
      { source: where, offset: fileSize - 4 })
  }
  const metadataLength = uint32At(bytes, bytes.length - 8)
  const metadataOffset = fileSize - 8 - metadataLength
  if (metadataOffset < 4) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
      `${where}: footer length ${metadataLength} does not fit in a ${fileSize}-byte file`, { source: where, offset: fileSize - 8 })
  }
  if (metadataLength > maxFooterBytes) {
    throw new ParquetBloomError(ErrorCode.TOO_LARGE,
      `${where}: footer is ${metadataLength} bytes, over maxFooterBytes ${maxFooterBytes}`, { source: where, offset: metadataOffset })
  }
  if (tail.offset === 0 && uint32At(bytes, 0) !== magic) {
    // The whole file was read, so the leading magic can be checked for free.
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
      `${where}: not a Parquet file: it does not start with ${magic === MAGIC_PARE ? 'PARE' : 'PAR1'}`, { source: where, offset: 0 })
  }
  const footer = (/** @type {FileLayout} */ layout) => {
    setLayoutOrigin(layout, where, metadataOffset)
    return { fileSize, metadataOffset, tail, layout, fromCache: false }
  }
  if (metadataOffset >= tail.offset) {
    // The footer is the tail's own bytes (a view, no copy): the layout reads statistics from them.
    const layout = layoutOf(where, metadataOffset, bytes.subarray(metadataOffset - tail.offset, bytes.length - 8), magic, decryption)
    return layout instanceof Promise ? layout.then(footer) : footer(layout)
  }
  return source.read(metadataOffset, tail.offset - metadataOffset, { signal, purpose: 'footer' }).then((head) =>
    layoutOf(where, metadataOffset, joinBytes(head, bytes.subarray(0, bytes.length - 8)), magic, decryption)).then(footer)
}

/**
 * The footer's layout: at once for a plain footer of ordinary size once the wasm module is loaded (chunk
 * indexes are decoded per column when a probe first reads them: js/footer/chunk-indexes.js), else through
 * what it awaits.
 * @param {string} where @param {number} metadataOffset @param {Uint8Array} metadata @param {number} magic
 * @param {import('../crypto/file-crypto.js').DecryptionOptions | undefined} decryption
 * @returns {FileLayout | Promise<FileLayout>}
 */
function layoutOf(where, metadataOffset, metadata, magic, decryption) {
  return initialized() && magic === MAGIC_PAR1 && !decryption && metadata.length <= WINDOWED_FOOTER_BYTES
    ? decodeFileOutline(metadata, where, metadataOffset)
    : layoutAwaiting(where, metadataOffset, metadata, magic, decryption)
}

/**
 * @param {string} where @param {number} metadataOffset @param {Uint8Array} metadata @param {number} magic
 * @param {import('../crypto/file-crypto.js').DecryptionOptions | undefined} decryption
 */
async function layoutAwaiting(where, metadataOffset, metadata, magic, decryption) {
  // The wasm decoder is awaited only now: openParquet starts loading it beside the footer's first read.
  await init()
  const decode = (/** @type {Uint8Array} */ bytes) => decodeFileMetaData(bytes, where, metadataOffset, { lazyIndexes: true })
  // Only an encrypted file loads the encryption modules (js/crypto/load-crypto.js).
  return magic === MAGIC_PARE || decryption
    ? markEncryptedChunks(await (await loadCrypto()).openEncryptedFooter(metadata,
      { encryptedFooter: magic === MAGIC_PARE, decryption, where, metadataOffset, decode }))
    // A big footer a window at a time (js/footer/windowed-outline.js, loaded only for one), or whole
    // where that declines it.
    : (metadata.length > WINDOWED_FOOTER_BYTES &&
      (await import('./windowed-outline.js')).decodeWindowedOutline(metadata, where, outlinePieces)) || decode(metadata)
}

/** The little-endian uint32 at `at` (no DataView made for four bytes). @param {Uint8Array} bytes @param {number} at */
function uint32At(bytes, at) {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0
}

/**
 * Flags every chunk the decrypted footer gives a crypto context as encrypted: readers that do not decrypt
 * must see it so, also in DuckDB's files, which carry no crypto_metadata, and answer 'encrypted-column'
 * instead of reading ciphertext.
 * @param {FileLayout} layout
 */
function markEncryptedChunks(layout) {
  layout.crypto?.chunks.forEach((context, index) => { if (context) new ChunkView(layout, index).addFlags(ChunkFlag.HAS_CRYPTO_META_DATA) })
  return layout
}

/**
 * What the windowed decode (js/footer/windowed-outline.js) shares with the whole one, handed to it in this
 * order (a list: its names would be bytes of the bundle every page downloads).
 */
export const outlinePieces = /** @type {const} */ ([getCore, FileSummary, FooterPass, NativeStatus, RowGroupRecord, ChunkRecord, ChunkSpan,
  SchemaRecord, acquireFor, leafColumns, rowGroupRowsOf, outlineLayout])

/**
 * @typedef {{ index: number, path: string[], name: string, physicalType: import('../index.js').PhysicalType,
 *   typeLength: number | undefined, logicalType: import('../index.js').LogicalType | null, repetition: string | undefined,
 *   repeated: boolean, fieldId?: number }} LeafColumn
 * @typedef {{ f64: Float64Array, i32: Int32Array }} IndexRecords ChunkIndexRecords of the decoded columns, by slot (js/footer/records.js)
 * @typedef {{ version: number, numRows: number, createdBy: string | undefined, encryptedColumns: boolean,
 *   columns: LeafColumn[], rowGroupRows: Float64Array, chunks: Float64Array, indexes: IndexRecords,
 *   columnOrders: Int32Array | null, footerBytes: Uint8Array, chunkSpans: Int32Array,
 *   indexSlots: Int32Array, crypto?: import('../crypto/encrypted-footer.js').FileCrypto }} FileLayout
 *   chunkSpans: each chunk's ColumnChunk bytes in footerBytes (offset, length); indexSlots: where each
 *   column's `indexes` records are (js/footer/records.js), -1 while they are not decoded;
 *   crypto: set for encrypted files opened with keys; columnOrders: each leaf's ColumnOrder member, null
 *   when the file has no column_orders (read as type-defined order, js/indexes/statistics.js boundsOrderProblem).
 */

/**
 * Decodes serialized FileMetaData (the bytes between the file's data and its length + PAR1): one pass
 * over the bytes (after a counting pass that stops at the row groups' list header) fills the schema, the
 * row groups and every chunk's ChunkRecord, and records where each ColumnChunk lies. Its ChunkIndexRecords
 * (statistics, encodings) are decoded from those spans per column: at once, or with `lazyIndexes` when
 * first read (ensureColumnIndexes), so a probe of one column of a huge footer decodes only that column's.
 * @param {Uint8Array} metadata
 * @param {string} [where] the file, for errors
 * @param {number} [metadataOffset] where the footer starts in the file, for errors
 * @param {{ lazyIndexes?: boolean }} [options]
 * @returns {FileLayout}
 */
export function decodeFileMetaData(metadata, where = 'footer', metadataOffset = 0, options = {}) {
  const { lazyIndexes = false } = options
  const layout = decodeFileOutline(metadata, where, metadataOffset)
  setLayoutOrigin(layout, where, metadataOffset)
  if (!lazyIndexes) decodeChunkIndexes(layout, layout.columns.map((c) => c.index))
  return layout
}

/** @param {Uint8Array} metadata @param {string} where @param {number} metadataOffset @returns {FileLayout} */
function decodeFileOutline(metadata, where, metadataOffset) {
  const core = getCore()
  const summaryBytes = (FileSummary.bytes + 15) & ~15
  const dataPtr = acquireFor(core, metadata.length + summaryBytes, 'bytes', where)
  let recordsPtr = 0
  try {
    const summaryPtr = dataPtr
    const bytesPtr = dataPtr + summaryBytes
    core.u8.set(metadata, bytesPtr)
    let status = core.decodeFooter(FooterPass.values.FOOTER_COUNTS, bytesPtr, metadata.length, 0, summaryPtr)
    let summary = FileSummary.read(core, summaryPtr)
    if (status !== NativeStatus.OK) throw malformed(where, metadataOffset, summary.errorOffset)
    // Capacities from the list headers: chunks are one per leaf (at most every element but the root) per
    // row group, and no more than MIN_CHUNK_BYTES allow; a footer with more is refused below.
    const schemaCapacity = summary.schemaCount
    const rowGroupCapacity = summary.rowGroupCount
    let chunkCapacity = Math.min(summary.rowGroupCount * Math.max(0, summary.schemaCount - 1),
      Math.floor(metadata.length / MIN_CHUNK_BYTES))
    if (chunkCapacity * (ChunkRecord.bytes + ChunkSpan.bytes) > metadata.length * MAX_RECORDS_PER_FOOTER_BYTE) {
      // Records that could dwarf the footer (tiny chunks, or a hostile footer): count them exactly first.
      status = core.decodeFooter(FooterPass.values.FOOTER_SUMMARY, bytesPtr, metadata.length, 0, summaryPtr)
      summary = FileSummary.read(core, summaryPtr)
      if (status !== NativeStatus.OK) throw malformed(where, metadataOffset, summary.errorOffset)
      if (summary.chunkCount > metadata.length / MIN_CHUNK_BYTES) throw tooManyChunks(where, summary.chunkCount, metadata.length)
      chunkCapacity = summary.chunkCount
    }
    const orderCapacity = summary.schemaCount
    const schemaBytes = schemaCapacity * SCHEMA_WORDS * 4
    const rowGroupBytes = rowGroupCapacity * ROW_GROUP_WORDS * 8
    const chunkBytes = chunkCapacity * CHUNK_WORDS * 8
    const spanBytes = chunkCapacity * ChunkSpan.bytes
    const orderBytes = orderCapacity * 4
    recordsPtr = acquireFor(core, chunkBytes + spanBytes + rowGroupBytes + schemaBytes + orderBytes + 16, 'records', where)
    const chunksPtr = recordsPtr
    const spansPtr = chunksPtr + chunkBytes
    const rowGroupsPtr = spansPtr + spanBytes
    const schemaPtr = rowGroupsPtr + rowGroupBytes
    const ordersPtr = schemaPtr + schemaBytes
    status = core.decodeFooter(FooterPass.values.FOOTER_WHOLE, bytesPtr, metadata.length, 0,
      summaryPtr, schemaPtr, rowGroupsPtr, chunksPtr, spansPtr, ordersPtr,
      schemaCapacity, rowGroupCapacity, chunkCapacity, orderCapacity)
    summary = FileSummary.read(core, summaryPtr)
    if (status !== NativeStatus.OK) throw malformed(where, metadataOffset, summary.errorOffset)
    if (summary.chunkCount > metadata.length / MIN_CHUNK_BYTES) throw tooManyChunks(where, summary.chunkCount, metadata.length)
    if (summary.schemaCount !== schemaCapacity || summary.rowGroupCount !== rowGroupCapacity) {
      throw malformed(where, metadataOffset, summary.errorOffset)
    }

    // The schema and row group records are read in place, in the heap (nothing below calls into wasm, so
    // memory cannot grow under them).
    const columns = leafColumns(core.i32, summary.schemaCount, metadata, where, schemaPtr >> 2)
    // Every row group has one chunk per leaf, so the chunks fit the capacity (a leaf is a schema element).
    if (summary.chunkCount > chunkCapacity) throw malformed(where, metadataOffset, summary.errorOffset)
    // What the layout keeps of the records, in one buffer rather than an ArrayBuffer each: the doubles
    // (chunk records, row counts), then the int32s (chunk spans, column orders, index slots).
    const chunkWords = summary.chunkCount * CHUNK_WORDS
    const spanWords = summary.chunkCount * SPAN_WORDS
    const orderCount = summary.columnOrderCount >= 0 ? Math.min(summary.columnOrderCount, orderCapacity) : 0
    const f64Words = chunkWords + summary.rowGroupCount
    const buffer = new ArrayBuffer(f64Words * 8 + (spanWords + orderCount + columns.length) * 4)
    const rowGroupRows = rowGroupRowsOf(core.f64, columns, where, new Float64Array(buffer, chunkWords * 8, summary.rowGroupCount),
      rowGroupsPtr >> 3)
    const chunks = copyWords(new Float64Array(buffer, 0, chunkWords), core.f64, chunksPtr >> 3)
    const chunkSpans = copyWords(new Int32Array(buffer, f64Words * 8, spanWords), core.i32, spansPtr >> 2)
    const columnOrders = summary.columnOrderCount >= 0
      ? copyWords(new Int32Array(buffer, (f64Words * 2 + spanWords) * 4, orderCount), core.i32, ordersPtr >> 2)
      : null
    const indexSlots = new Int32Array(buffer, (f64Words * 2 + spanWords + orderCount) * 4, columns.length)
    return outlineLayout(metadata, summary, columns, rowGroupRows, chunks, chunkSpans, columnOrders, indexSlots)
  } finally {
    if (recordsPtr) core.release(recordsPtr)
    core.release(dataPtr)
  }
}

/**
 * Fills `target` from `heap` at word `from`: a few words one by one (no view of the heap made for them).
 * @template {Float64Array | Int32Array} T @param {T} target @param {T} heap @param {number} from @returns {T}
 */
function copyWords(target, heap, from) {
  const n = target.length
  if (n > 256) target.set(heap.subarray(from, from + n))
  else for (let i = 0; i < n; i++) target[i] = heap[from + i]
  return target
}

/** @param {string} where @param {number} chunkCount @param {number} footerBytes */
function tooManyChunks(where, chunkCount, footerBytes) {
  return new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
    `${where}: malformed footer: ${chunkCount} column chunks cannot fit in ${footerBytes} bytes of FileMetaData`,
    { source: where, field: 'row_groups' })
}

/** @param {string} where @param {number} metadataOffset @param {number} errorOffset */
function malformed(where, metadataOffset, errorOffset) {
  return new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
    `${where}: malformed footer: FileMetaData does not decode (stopped at byte ${metadataOffset + errorOffset} of the file)`,
    { source: where, offset: metadataOffset + errorOffset, field: 'FileMetaData' })
}

/** @param {Uint8Array} bytes */
function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ')
}
