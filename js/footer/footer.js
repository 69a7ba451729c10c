// Reads a Parquet footer from a byte source (one tail read, a second only when the footer is larger) and
// decodes it with the wasm FileMetaData decoder into the compact layout probing needs.
import { ChunkRecord, ChunkSpan, FileSummary, RowGroupRecord, SchemaRecord, whenBound } from '../wasm/abi.js'
import { decodeChunkIndexes, setLayoutOrigin } from './chunk-indexes.js'
import { CHUNK_WORDS } from './records.js'
import { getCore, init } from '../wasm/core.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { NativeStatus } from '../wasm/abi.js'
import { loadCrypto } from '../crypto/load-crypto.js'
import { logicalTypeFromSchemaElement } from '../values/column-type.js'
import { joinBytes } from '../format/bytes.js'

const MAGIC_PAR1 = 0x31524150 // 'PAR1' little-endian
const MAGIC_PARE = 0x45524150 // 'PARE': encrypted footer (Parquet modular encryption)

// FileLayout.columnOrders entry of every column when the file's column_orders list does not have one
// entry per leaf column (parquet.thrift ColumnOrder members are 1 and up; 0 is "none" from the decoder).
export const UNMAPPED_COLUMN_ORDER = -1

export const DEFAULT_INITIAL_FETCH_SIZE = 64 * 1024
export const DEFAULT_MAX_FOOTER_BYTES = 128 * 1024 * 1024

const PHYSICAL_TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY']
const CONVERTED_TYPES = ['UTF8', 'MAP', 'MAP_KEY_VALUE', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME_MILLIS', 'TIME_MICROS',
  'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS', 'UINT_8', 'UINT_16', 'UINT_32', 'UINT_64', 'INT_8', 'INT_16', 'INT_32',
  'INT_64', 'JSON', 'BSON', 'INTERVAL']
const REPETITIONS = ['REQUIRED', 'OPTIONAL', 'REPEATED']
const TIME_UNITS = { 1: 'MILLIS', 2: 'MICROS', 3: 'NANOS' }
// Real schemas nest a few levels (automatic variant shredding reaches ~150); deeper ones are hostile.
const MAX_SCHEMA_DEPTH = 256
// Every leaf's dotted name is materialised; this bounds what a small footer can make us allocate for them.
const MAX_LEAF_PATH_CHARS = 32 * 1024 * 1024
// A real ColumnChunk takes far more footer bytes than this (file_offset, ColumnMetaData's required
// fields). Fewer per chunk is a hostile footer whose 72-byte records would amplify it in wasm memory.
const MIN_CHUNK_BYTES = 8
// Capacities from the list headers are trusted while the records they size take at most this many bytes
// per footer byte; real chunks take 40–200 footer bytes for their 80 (ChunkRecord + ChunkSpan).
const MAX_RECORDS_PER_FOOTER_BYTE = 2

// Records written by src/file_metadata.h, copied out as typed arrays of words: SchemaRecord as int32,
// RowGroupRecord and ChunkRecord as float64. Word indices and counts come from the module (js/wasm/abi.js).
// The per-chunk records are read through js/footer/records.js; the schema and row group words only here.
const Schema = SchemaRecord.wordIndex('i32')
const RowGroup = RowGroupRecord.wordIndex('f64')
let SCHEMA_WORDS = 0
let ROW_GROUP_WORDS = 0
let SPAN_WORDS = 0
whenBound(() => {
  SCHEMA_WORDS = SchemaRecord.words(4)
  ROW_GROUP_WORDS = RowGroupRecord.words(8)
  SPAN_WORDS = ChunkSpan.words(4)
})

const utf8 = new TextDecoder()

/**
 * Reads and decodes the footer.
 * @param {import('../sources/open-byte-source.js').ByteSource} source
 * @param {{ initialFetchSize?: number, maxFooterBytes?: number, signal?: AbortSignal,
 *   decryption?: import('../crypto/file-crypto.js').DecryptionOptions }} [options] decryption: keys for modular encryption (js/crypto/)
 * @returns {Promise<{ fileSize: number, metadataOffset: number, tail: { offset: number, bytes: Uint8Array },
 *   layout: FileLayout }>}
 */
export async function readFooter(source, { initialFetchSize = DEFAULT_INITIAL_FETCH_SIZE, maxFooterBytes = DEFAULT_MAX_FOOTER_BYTES, signal, decryption } = {}) {
  if (!(Number.isInteger(initialFetchSize) && initialFetchSize >= 8)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `initialFetchSize must be an integer >= 8, got ${initialFetchSize}`)
  }
  const tail = await source.readTail(initialFetchSize, { signal })
  const fileSize = source.size
  const where = source.name
  if (fileSize < 12) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a Parquet file: ${fileSize} bytes is too short for a footer`, { source: where })
  }
  const end = new DataView(tail.bytes.buffer, tail.bytes.byteOffset + tail.bytes.length - 8, 8)
  const magic = end.getUint32(4, true)
  if (magic === MAGIC_PARE && !decryption) {
    throw new ParquetBloomError(ErrorCode.ENCRYPTION_KEY_REQUIRED, `${where}: the file is encrypted (the footer is encrypted: magic PARE): pass options.decryption with its footer key`, { source: where })
  }
  if (magic !== MAGIC_PAR1 && magic !== MAGIC_PARE) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a Parquet file: it does not end with PAR1 (last 4 bytes ${hex(tail.bytes.subarray(-4))})`, { source: where, offset: fileSize - 4 })
  }
  const metadataLength = end.getUint32(0, true)
  const metadataOffset = fileSize - 8 - metadataLength
  if (metadataOffset < 4) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: footer length ${metadataLength} does not fit in a ${fileSize}-byte file`, { source: where, offset: fileSize - 8 })
  }
  if (metadataLength > maxFooterBytes) {
    throw new ParquetBloomError(ErrorCode.TOO_LARGE, `${where}: footer is ${metadataLength} bytes, over maxFooterBytes ${maxFooterBytes}`, { source: where, offset: metadataOffset })
  }
  if (tail.offset === 0 && new DataView(tail.bytes.buffer, tail.bytes.byteOffset, 4).getUint32(0, true) !== magic) {
    // The whole file was read, so the leading magic can be checked for free.
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a Parquet file: it does not start with ${magic === MAGIC_PARE ? 'PARE' : 'PAR1'}`, { source: where, offset: 0 })
  }
  let metadata
  if (metadataOffset >= tail.offset) {
    metadata = tail.bytes.subarray(metadataOffset - tail.offset, tail.bytes.length - 8)
  } else {
    const head = await source.read(metadataOffset, tail.offset - metadataOffset, { signal })
    metadata = joinBytes(head, tail.bytes.subarray(0, tail.bytes.length - 8))
  }
  // The wasm decoder is awaited only now: openParquet starts loading it beside the footer's first read.
  await init()
  // Chunk indexes are decoded per column when a probe first reads them (js/footer/chunk-indexes.js).
  const decode = (bytes) => decodeFileMetaData(bytes, where, metadataOffset, { lazyIndexes: true })
  // Only an encrypted file loads the encryption modules (js/crypto/load-crypto.js).
  const layout = magic === MAGIC_PARE || decryption
    ? await (await loadCrypto()).openEncryptedFooter(metadata, { encryptedFooter: magic === MAGIC_PARE, decryption, where, metadataOffset, decode })
    : decode(metadata)
  return { fileSize, metadataOffset, tail, layout }
}

/**
 * @typedef {{ index: number, path: string[], name: string, physicalType: string, typeLength: number | undefined,
 *   logicalType: object | null, repetition: string | undefined, repeated: boolean, fieldId?: number }} LeafColumn
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

function decodeFileOutline(metadata, where, metadataOffset) {
  const core = getCore()
  const summaryBytes = (FileSummary.bytes + 15) & ~15
  const dataPtr = acquireFor(core, metadata.length + summaryBytes, 'bytes', where)
  let recordsPtr = 0
  try {
    const summaryPtr = dataPtr
    const bytesPtr = dataPtr + summaryBytes
    core.u8.set(metadata, bytesPtr)
    let status = core.native.decodeFooterCounts(bytesPtr, metadata.length, summaryPtr)
    let summary = FileSummary.read(core, summaryPtr)
    if (status !== NativeStatus.OK) throw malformed(where, metadataOffset, summary.errorOffset)
    // Capacities from the list headers: chunks are one per leaf (at most every element but the root) per
    // row group, and no more than MIN_CHUNK_BYTES allow; a footer with more is refused below.
    const schemaCapacity = summary.schemaCount
    const rowGroupCapacity = summary.rowGroupCount
    let chunkCapacity = Math.min(summary.rowGroupCount * Math.max(0, summary.schemaCount - 1), Math.floor(metadata.length / MIN_CHUNK_BYTES))
    if (chunkCapacity * (ChunkRecord.bytes + ChunkSpan.bytes) > metadata.length * MAX_RECORDS_PER_FOOTER_BYTE) {
      // Records that could dwarf the footer (tiny chunks, or a hostile footer): count them exactly first.
      status = core.native.decodeFooterSummary(bytesPtr, metadata.length, summaryPtr)
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
    status = core.native.decodeFooterOutline(bytesPtr, metadata.length, summaryPtr, schemaPtr, rowGroupsPtr, chunksPtr, spansPtr, ordersPtr,
      schemaCapacity, rowGroupCapacity, chunkCapacity, orderCapacity)
    summary = FileSummary.read(core, summaryPtr)
    if (status !== NativeStatus.OK) throw malformed(where, metadataOffset, summary.errorOffset)
    if (summary.chunkCount > metadata.length / MIN_CHUNK_BYTES) throw tooManyChunks(where, summary.chunkCount, metadata.length)
    if (summary.schemaCount !== schemaCapacity || summary.rowGroupCount !== rowGroupCapacity) throw malformed(where, metadataOffset, summary.errorOffset)

    const schemaWords = core.i32.slice(schemaPtr >> 2, (schemaPtr >> 2) + summary.schemaCount * SCHEMA_WORDS)
    const rowGroupWords = core.f64.slice(rowGroupsPtr >> 3, (rowGroupsPtr >> 3) + summary.rowGroupCount * ROW_GROUP_WORDS)
    const columns = leafColumns(schemaWords, summary.schemaCount, metadata, where)
    const rowGroupRows = new Float64Array(summary.rowGroupCount)
    for (let g = 0; g < summary.rowGroupCount; g++) {
      rowGroupRows[g] = rowGroupWords[g * ROW_GROUP_WORDS + RowGroup.NUM_ROWS]
      const numColumns = rowGroupWords[g * ROW_GROUP_WORDS + RowGroup.NUM_COLUMNS]
      if (numColumns !== columns.length) {
        throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
          `${where}: row group ${g} has ${numColumns} column chunks but the schema has ${columns.length} leaf columns`, { source: where, field: `row_groups[${g}].columns` })
      }
    }
    // Every row group has one chunk per leaf, so the chunks fit the capacity (a leaf is a schema element).
    if (summary.chunkCount > chunkCapacity) throw malformed(where, metadataOffset, summary.errorOffset)
    const chunks = core.f64.slice(chunksPtr >> 3, (chunksPtr >> 3) + summary.chunkCount * CHUNK_WORDS)
    const chunkSpans = core.i32.slice(spansPtr >> 2, (spansPtr >> 2) + summary.chunkCount * SPAN_WORDS)
    const orderCount = Math.min(summary.columnOrderCount, orderCapacity)
    const columnOrders = summary.columnOrderCount >= 0 ? core.i32.slice(ordersPtr >> 2, (ordersPtr >> 2) + orderCount) : null
    return {
      version: summary.version,
      numRows: summary.numRows,
      createdBy: summary.createdByOffset >= 0 ? utf8.decode(metadata.subarray(summary.createdByOffset, summary.createdByOffset + summary.createdByLength)) : undefined,
      encryptedColumns: summary.hasEncryptionAlgorithm !== 0,
      columns,
      rowGroupRows,
      chunks,
      // Filled per column by js/footer/chunk-indexes.js, into the slots indexSlots gives (js/footer/records.js).
      indexes: { f64: new Float64Array(0), i32: new Int32Array(0) },
      // null: the file has none. A count that differs from the leaves cannot be mapped to columns: every
      // column is then marked as having an order that cannot be told (never as having none at all).
      columnOrders: columnOrders && summary.columnOrderCount !== columns.length
        ? new Int32Array(columns.length).fill(UNMAPPED_COLUMN_ORDER)
        : columnOrders,
      // Statistics bounds are read from these bytes on demand (the decoder only records where they are).
      footerBytes: metadata,
      chunkSpans,
      indexSlots: new Int32Array(columns.length).fill(-1),
    }
  } finally {
    if (recordsPtr) core.release(recordsPtr)
    core.release(dataPtr)
  }
}

/** A pool block for decoding the footer; when the pool cannot give it, the error names the file. */
function acquireFor(core, bytes, what, where) {
  try {
    return core.acquire(bytes, `the footer's ${what}`)
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    throw new ParquetBloomError(error.code, `${where}: decoding the footer: ${error.message}`, { source: where, cause: error })
  }
}

function tooManyChunks(where, chunkCount, footerBytes) {
  return new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
    `${where}: malformed footer: ${chunkCount} column chunks cannot fit in ${footerBytes} bytes of FileMetaData`, { source: where, field: 'row_groups' })
}

function malformed(where, metadataOffset, errorOffset) {
  return new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
    `${where}: malformed footer: FileMetaData does not decode (stopped at byte ${metadataOffset + errorOffset} of the file)`,
    { source: where, offset: metadataOffset + errorOffset, field: 'FileMetaData' })
}

/** Walks the flattened schema tree (depth-first, num_children) into leaf columns with their paths. */
function leafColumns(words, count, metadata, where) {
  const fail = (why) => new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: malformed schema: ${why}`, { source: where, field: 'schema' })
  const element = (i) => {
    const w = i * SCHEMA_WORDS
    const nameOffset = words[w + Schema.NAME_OFFSET]
    const typeCode = words[w + Schema.TYPE]
    const typeLength = words[w + Schema.TYPE_LENGTH]
    const scale = words[w + Schema.SCALE]
    const precision = words[w + Schema.PRECISION]
    return {
      name: utf8.decode(metadata.subarray(nameOffset, nameOffset + words[w + Schema.NAME_LENGTH])),
      type: PHYSICAL_TYPES[typeCode],
      typeCode,
      type_length: typeLength >= 0 ? typeLength : undefined,
      repetition_type: REPETITIONS[words[w + Schema.REPETITION]],
      num_children: words[w + Schema.NUM_CHILDREN],
      converted_type: CONVERTED_TYPES[words[w + Schema.CONVERTED_TYPE]],
      scale: scale >= 0 ? scale : undefined,
      precision: precision >= 0 ? precision : undefined,
      logical_type: logicalTypeRecord(words[w + Schema.LOGICAL_KIND], words[w + Schema.LOGICAL_A], words[w + Schema.LOGICAL_B]),
      field_id: words[w + Schema.FIELD_ID],
    }
  }
  const root = element(0)
  if (root.num_children < 0) throw fail('the root element has no children count')
  const columns = []
  // Explicit stack of the open groups: a hostile schema must not be able to exhaust the JS call stack.
  // A leaf's path is built from it when the leaf is reached, so a group costs nothing per descendant.
  const stack = [{ remaining: root.num_children, name: '', chars: -1, repeated: false }]
  let pathChars = 0
  let i = 1
  while (stack.length) {
    const top = stack[stack.length - 1]
    if (top.remaining === 0) {
      stack.pop()
      continue
    }
    top.remaining--
    if (i >= count) throw fail(`children counts need more than the ${count} elements present`)
    const e = element(i++)
    const chars = top.chars + 1 + e.name.length // of the dotted name
    if (e.num_children > 0) {
      // Each leaf's path and name cost its depth: without a bound, a chain of groups makes that quadratic.
      if (stack.length >= MAX_SCHEMA_DEPTH) throw fail(`element ${i - 1} nests deeper than ${MAX_SCHEMA_DEPTH} levels`)
      stack.push({ remaining: e.num_children, name: e.name, chars, repeated: top.repeated || e.repetition_type === 'REPEATED' })
    } else {
      pathChars += chars
      if (pathChars > MAX_LEAF_PATH_CHARS) {
        throw new ParquetBloomError(ErrorCode.TOO_LARGE,
          `${where}: the schema's column paths add up to more than ${MAX_LEAF_PATH_CHARS} characters (at element ${i - 1} of ${count})`, { source: where, field: 'schema' })
      }
      const path = stack.slice(1).map((s) => s.name)
      path.push(e.name)
      const name = path.join('.')
      if (e.type === undefined) throw fail(`leaf ${shorten(name)} has no physical type (type code ${e.typeCode})`)
      // As parquet-java and Arrow do: without its width no value of the column can be read or hashed.
      if (e.type === 'FIXED_LEN_BYTE_ARRAY' && !(e.type_length > 0)) throw fail(`leaf ${shorten(name)} is a FIXED_LEN_BYTE_ARRAY without a positive type_length`)
      columns.push({
        index: columns.length,
        path,
        name,
        physicalType: e.type,
        typeLength: e.type_length,
        logicalType: logicalTypeFromSchemaElement(e) ?? null,
        repetition: e.repetition_type,
        // The schema's field_id (Iceberg maps columns by it, not by name); undefined when absent.
        fieldId: e.field_id >= 0 ? e.field_id : undefined,
        // Under a repeated field a chunk holds more (or fewer) values than its row group has rows.
        repeated: top.repeated || e.repetition_type === 'REPEATED',
      })
    }
  }
  if (i !== count) throw fail(`${count - i} elements are not reachable from the root`)
  return columns
}

/** A name from the file as shown in a message: hostile names can be megabytes long. */
function shorten(text) {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text
}

/** The LogicalType union as hyparquet shapes it, so one converter serves both decoders. */
function logicalTypeRecord(kind, a, b) {
  switch (kind) {
    case 0: return undefined
    case 1: return { type: 'STRING' }
    case 2: return { type: 'MAP' }
    case 3: return { type: 'LIST' }
    case 4: return { type: 'ENUM' }
    case 5: return { type: 'DECIMAL', scale: a, precision: b }
    case 6: return { type: 'DATE' }
    case 7:
    case 8:
      // An unknown unit cannot be converted to; the values layer then treats the column as plain integers.
      if (!TIME_UNITS[a]) return { type: 'OTHER', name: `${kind === 7 ? 'TIME' : 'TIMESTAMP'} with unknown unit ${a}` }
      return { type: kind === 7 ? 'TIME' : 'TIMESTAMP', isAdjustedToUTC: b === 1, unit: TIME_UNITS[a] }
    case 10: return { type: 'INTEGER', bitWidth: a, isSigned: b === 1 }
    case 11: return { type: 'NULL' }
    case 12: return { type: 'JSON' }
    case 13: return { type: 'BSON' }
    case 14: return { type: 'UUID' }
    case 15: return { type: 'FLOAT16' }
    case 16: return { type: 'VARIANT' }
    case 17: return { type: 'GEOMETRY' }
    case 18: return { type: 'GEOGRAPHY' }
    default: return { type: `LOGICAL_TYPE_${kind}` }
  }
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ')
}
