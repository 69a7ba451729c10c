// From the outline pass's records to a FileLayout (js/footer/footer.js): the leaf columns with their
// paths and types from the schema records, each row group's row count, and the layout itself. Shared by
// the decode of a whole footer (js/footer/footer.js) and of one too big to copy at once, a window at a
// time (js/footer/windowed-outline.js), so both give the same layout and the same errors.
import { ChunkSpan, RowGroupRecord, SchemaRecord, whenBound } from '../wasm/abi.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { logicalTypeFromSchemaElement } from './column-type.js'

// FileLayout.columnOrders entry of every column when the file's column_orders list does not have one
// entry per leaf column (parquet.thrift ColumnOrder members are 1 and up; 0 is "none" from the decoder).
export const UNMAPPED_COLUMN_ORDER = -1

/** @type {import('../index.js').PhysicalType[]} */
const PHYSICAL_TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY']
const CONVERTED_TYPES = ['UTF8', 'MAP', 'MAP_KEY_VALUE', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME_MILLIS', 'TIME_MICROS',
  'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS', 'UINT_8', 'UINT_16', 'UINT_32', 'UINT_64', 'INT_8', 'INT_16', 'INT_32',
  'INT_64', 'JSON', 'BSON', 'INTERVAL']
const REPETITIONS = ['REQUIRED', 'OPTIONAL', 'REPEATED']
/** @type {Record<number, string>} */
const TIME_UNITS = { 1: 'MILLIS', 2: 'MICROS', 3: 'NANOS' }
// Real schemas nest a few levels (automatic variant shredding reaches ~150); deeper ones are hostile.
const MAX_SCHEMA_DEPTH = 256
// Every leaf's dotted name is materialised; this bounds what a small footer can make us allocate for them.
const MAX_LEAF_PATH_CHARS = 32 * 1024 * 1024
// A real ColumnChunk takes far more footer bytes than this (file_offset, ColumnMetaData's required
// fields). Fewer per chunk is a hostile footer whose 72-byte records would amplify it in wasm memory.
export const MIN_CHUNK_BYTES = 8

// Records written by src/file_metadata.h, copied out as typed arrays of words: SchemaRecord as int32,
// RowGroupRecord and ChunkRecord as float64. Word indices and counts come from the module (js/wasm/abi.js).
// The per-chunk records are read through js/footer/records.js; the schema and row group words only here.
const Schema = SchemaRecord.wordIndex('i32')
const RowGroup = RowGroupRecord.wordIndex('f64')
export let SCHEMA_WORDS = 0
export let ROW_GROUP_WORDS = 0
export let SPAN_WORDS = 0
whenBound(() => {
  SCHEMA_WORDS = SchemaRecord.words(4)
  ROW_GROUP_WORDS = RowGroupRecord.words(8)
  SPAN_WORDS = ChunkSpan.words(4)
})

const utf8 = new TextDecoder()

/**
 * A pool block for decoding the footer; when the pool cannot give it, the error names the file.
 * @param {import('../wasm/core.js').Core} core @param {number} bytes @param {string} what @param {string} where
 */
export function acquireFor(core, bytes, what, where) {
  try {
    return core.acquire(bytes, `the footer's ${what}`)
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    throw new ParquetBloomError(error.code, `${where}: decoding the footer: ${error.message}`, { source: where, cause: error })
  }
}

/**
 * Each row group's row count, from the RowGroupRecord words; MALFORMED_FOOTER for a row group whose
 * chunks are not one per leaf column (they could not be mapped to the columns safely).
 * @param {Float64Array} rowGroupWords
 * @param {unknown[]} columns the leaf columns
 * @param {string} where the file, for errors
 * @param {Float64Array} [rowGroupRows] where to write them (one per row group), else a new array
 * @param {number} [base] the first row group's first word in rowGroupWords (then rowGroupRows gives the count)
 */
export function rowGroupRowsOf(rowGroupWords, columns, where, rowGroupRows = new Float64Array(rowGroupWords.length / ROW_GROUP_WORDS),
  base = 0) {
  const count = rowGroupRows.length
  for (let g = 0; g < count; g++) {
    rowGroupRows[g] = rowGroupWords[base + g * ROW_GROUP_WORDS + RowGroup.NUM_ROWS]
    const numColumns = rowGroupWords[base + g * ROW_GROUP_WORDS + RowGroup.NUM_COLUMNS]
    if (numColumns !== columns.length) {
      throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
        `${where}: row group ${g} has ${numColumns} column chunks but the schema has ${columns.length} leaf columns`,
        { source: where, field: `row_groups[${g}].columns` })
    }
  }
  return rowGroupRows
}

/**
 * The FileLayout of the outline pass's records.
 * @param {Uint8Array} metadata the footer bytes
 * @param {Record<string, number>} summary FileSummary fields: version, numRows, createdByOffset,
 *   createdByLength, hasEncryptionAlgorithm, columnOrderCount
 * @param {import('./footer.js').LeafColumn[]} columns
 * @param {Float64Array} rowGroupRows
 * @param {Float64Array} chunks ChunkRecord words, row-group-major
 * @param {Int32Array} chunkSpans
 * @param {Int32Array | null} columnOrders null: the file has none
 * @param {Int32Array} [indexSlots] one per leaf column, to be filled with -1 (none decoded yet), else a new array
 * @returns {import('./footer.js').FileLayout}
 */
export function outlineLayout(metadata, summary, columns, rowGroupRows, chunks, chunkSpans, columnOrders,
  indexSlots = new Int32Array(columns.length)) {
  return {
    version: summary.version,
    numRows: summary.numRows,
    createdBy: summary.createdByOffset >= 0
      ? utf8.decode(metadata.subarray(summary.createdByOffset, summary.createdByOffset + summary.createdByLength))
      : undefined,
    encryptedColumns: summary.hasEncryptionAlgorithm !== 0,
    columns,
    rowGroupRows,
    chunks,
    // Filled per column by js/footer/chunk-indexes.js, into the slots indexSlots gives (js/footer/records.js).
    indexes: NO_INDEXES,
    // null: the file has none. A count that differs from the leaves cannot be mapped to columns: every
    // column is then marked as having an order that cannot be told (never as having none at all).
    columnOrders: columnOrders && summary.columnOrderCount !== columns.length
      ? new Int32Array(columns.length).fill(UNMAPPED_COLUMN_ORDER)
      : columnOrders,
    // Statistics bounds are read from these bytes on demand (the decoder only records where they are).
    footerBytes: metadata,
    chunkSpans,
    indexSlots: indexSlots.fill(-1),
  }
}

/**
 * A layout's `indexes` before any column's are decoded, shared by every layout: nothing writes into it
 * (chunk-indexes.js replaces it when it makes room).
 * @type {import('./footer.js').IndexRecords}
 */
const NO_INDEXES = Object.freeze({ f64: new Float64Array(0), i32: new Int32Array(0) })

/**
 * Walks the flattened schema tree (depth-first, num_children) into leaf columns with their paths.
 * @param {Int32Array} words SchemaRecord words @param {number} count schema elements
 * @param {Uint8Array} metadata the footer bytes @param {string} where the file, for errors
 * @param {number} [base] the first element's first word in `words` (the wasm heap's, read in place)
 * @returns {import('./footer.js').LeafColumn[]}
 */
export function leafColumns(words, count, metadata, where, base = 0) {
  const fail = (/** @type {string} */ why) => new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: malformed schema: ${why}`,
    { source: where, field: 'schema' })
  const element = (/** @type {number} */ i) => {
    const w = base + i * SCHEMA_WORDS
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
  // Of the root only its children count is read (its name is no column's).
  // (A schema of no elements: NaN, as reading past an empty list gave, which fails below as too few elements.)
  const rootChildren = count > 0 ? words[base + Schema.NUM_CHILDREN] : NaN
  if (rootChildren < 0) throw fail('the root element has no children count')
  /** @type {import('./footer.js').LeafColumn[]} */
  const columns = []
  // Explicit stack of the open groups: a hostile schema must not be able to exhaust the JS call stack.
  // A leaf's path is built from it when the leaf is reached, so a group costs nothing per descendant.
  const stack = [{ remaining: rootChildren, name: '', chars: -1, repeated: false }]
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
          `${where}: the schema's column paths add up to more than ${MAX_LEAF_PATH_CHARS} characters ` +
          `(at element ${i - 1} of ${count})`, { source: where, field: 'schema' })
      }
      // A top-level leaf (most columns) is its own path: no array of its groups' names to join.
      const path = stack.length === 1 ? [e.name] : [...stack.slice(1).map((s) => s.name), e.name]
      const name = stack.length === 1 ? e.name : path.join('.')
      if (e.type === undefined) throw fail(`leaf ${shorten(name)} has no physical type (type code ${e.typeCode})`)
      // As parquet-java and Arrow do: without its width no value of the column can be read or hashed.
      if (e.type === 'FIXED_LEN_BYTE_ARRAY' && !(e.type_length !== undefined && e.type_length > 0)) {
        throw fail(`leaf ${shorten(name)} is a FIXED_LEN_BYTE_ARRAY without a positive type_length`)
      }
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

/** A name from the file as shown in a message: hostile names can be megabytes long. @param {string} text */
function shorten(text) {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text
}

/**
 * The LogicalType union as hyparquet shapes it, so one converter serves both decoders.
 * @param {number} kind @param {number} a @param {number} b SchemaRecord LOGICAL_KIND, LOGICAL_A, LOGICAL_B
 */
function logicalTypeRecord(kind, a, b) {
  switch (kind) {
    case 0: return undefined
    case 1: return { type: 'STRING' }
    case 2: return { type: 'MAP' }
    case 3: return { type: 'LIST' }
    case 4: return { type: 'ENUM' }
    // A field the writer left out (-1) is left out here too, as hyparquet's decoding leaves it: one normalization
    // (column-type.js) then decides for both what a missing scale or signedness means.
    case 5: return { type: 'DECIMAL', scale: a >= 0 ? a : undefined, precision: b >= 0 ? b : undefined }
    case 6: return { type: 'DATE' }
    case 7:
    case 8:
      // An unknown unit cannot be converted to; the values layer then treats the column as plain integers.
      if (!TIME_UNITS[a]) return { type: 'OTHER', name: `${kind === 7 ? 'TIME' : 'TIMESTAMP'} with unknown unit ${a}` }
      return { type: kind === 7 ? 'TIME' : 'TIMESTAMP', isAdjustedToUTC: b === 1, unit: TIME_UNITS[a] }
    case 10: return { type: 'INTEGER', bitWidth: a >= 0 ? a : undefined, isSigned: b === -1 ? undefined : b === 1 }
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
