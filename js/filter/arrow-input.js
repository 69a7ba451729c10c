// Apache Arrow JS vectors as batch input, recognised by shape (apache-arrow is not imported): each
// chunk's values / offsets / validity buffers are described for the batch writer, which copies them
// into wasm memory once; the spaced and bitmap hashers then skip nulls there, with no per-value JS.
import { ErrorCode, ParquetBloomError } from '../errors.js'

// Arrow's Type enum (Schema.fbs); stable across apache-arrow versions.
const ArrowType = {
  Int: 2, Float: 3, Binary: 4, Utf8: 5, Bool: 6, Date: 8, Time: 9, Timestamp: 10,
  FixedSizeBinary: 15, LargeBinary: 19, LargeUtf8: 20, Dictionary: -1,
}
const DATE_DAY = 0

/**
 * What is read here of an apache-arrow Data (one chunk of a Vector). `values` is the typed array of the
 * chunk's type (or the dictionary's indices), handed to the batch writer as it is.
 * @typedef {{ type: { typeId: number, bitWidth?: number, unit?: number, precision?: number, byteWidth?: number },
 *   length: number, offset: number, nullCount: number, nullBitmap?: Uint8Array, values: any,
 *   valueOffsets?: any, dictionary?: ArrowVector }} ArrowData
 * @typedef {{ data: ArrowData[], type: { typeId: number }, length: number } & Iterable<unknown>} ArrowVector
 */

/**
 * The batch writer's columnar form (js/wasm/batch-writer.js): Arrow-style buffers.
 * @typedef {{ values: any, offsets?: Int32Array, offset: number, validity?: Uint8Array, validityOffset?: number,
 *   length?: number }} ColumnarInput
 */

/**
 * One chunk of a vector: its values in the batch writer's form, or a dictionary chunk's dictionary and indices.
 * @typedef {{ length: number, type: import('./bloom-filter.js').FilterType, input: ColumnarInput, dictionary?: undefined }} PlainChunk
 * @typedef {{ length: number, dictionary: ArrowVector, indices: ArrayLike<number>, validity: Uint8Array | undefined,
 *   validityOffset: number }} DictionaryChunk
 * @typedef {PlainChunk | DictionaryChunk} ArrowChunk
 */

/**
 * Whether a chunk is a dictionary chunk (which apache-arrow never makes without its dictionary).
 * @param {ArrowChunk} chunk
 * @returns {chunk is DictionaryChunk}
 */
export function hasDictionary(chunk) {
  return Boolean(chunk.dictionary)
}

/**
 * @param {any} value a caller's batch, of any shape: recognised here by its shape
 * @returns {value is ArrowVector}
 */
export function isArrowVector(value) {
  return value !== null && typeof value === 'object' && Array.isArray(value.data) && typeof value.type?.typeId === 'number' &&
    typeof value.length === 'number' && !ArrayBuffer.isView(value)
}

/**
 * One entry per chunk: `{ length, type, input }` with input in the batch writer's columnar form, or
 * `{ length, dictionary, indices, validity, validityOffset }` for dictionary-encoded chunks.
 * @param {ArrowVector} vector an apache-arrow Vector
 * @param {import('./bloom-filter.js').FilterType | undefined} type an explicit physical type overrides the inferred one
 * @returns {ArrowChunk[]}
 */
export function arrowChunks(vector, type) {
  return vector.data.map((data) => {
    const validity = data.nullCount > 0 && data.nullBitmap?.length ? data.nullBitmap : undefined
    if (data.type.typeId === ArrowType.Dictionary) {
      const dictionary = /** @type {ArrowVector} */ (data.dictionary) // a Dictionary chunk's Data always has it
      return { length: data.length, dictionary, indices: data.values, validity, validityOffset: data.offset }
    }
    const described = describe(data)
    // Assigned, not spread: a spread costs microseconds per chunk on V8, more than a 64-value check.
    const input = described.input
    input.validity = validity
    input.validityOffset = data.offset
    input.length = data.length
    return { length: data.length, type: type ?? described.type, input }
  })
}

/**
 * Physical type and buffers of a non-dictionary chunk. Fixed-width and offset buffers are already sliced.
 * @param {ArrowData} data
 * @returns {{ type: string | { type: string, typeLength: number | undefined }, input: ColumnarInput }}
 */
function describe(data) {
  const t = data.type
  switch (t.typeId) {
    case ArrowType.Int:
    case ArrowType.Time:
      if (t.bitWidth === 64) return { type: 'INT64', input: { values: data.values, offset: 0 } }
      // Narrow integers widen to the stored INT32 (sign- or zero-extended by the typed-array copy).
      return { type: 'INT32', input: { values: t.bitWidth === 32 ? data.values : new Int32Array(data.values), offset: 0 } }
    case ArrowType.Date:
      if (t.unit !== DATE_DAY) break
      return { type: 'INT32', input: { values: data.values, offset: 0 } }
    case ArrowType.Timestamp:
      return { type: 'INT64', input: { values: data.values, offset: 0 } }
    case ArrowType.Float:
      if (t.precision === 1) return { type: 'FLOAT', input: { values: data.values, offset: 0 } }
      if (t.precision === 2) return { type: 'DOUBLE', input: { values: data.values, offset: 0 } }
      return { type: { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 2 }, input: { values: data.values, offset: 0 } }
    case ArrowType.Bool:
      // Bit-packed buffers are not sliced: the bitmap starts at bit data.offset.
      return { type: 'BOOLEAN', input: { values: data.values, offset: data.offset } }
    case ArrowType.Utf8:
    case ArrowType.Binary:
      return { type: 'BYTE_ARRAY', input: { values: data.values, offsets: data.valueOffsets, offset: 0 } }
    case ArrowType.LargeUtf8:
    case ArrowType.LargeBinary:
      return { type: 'BYTE_ARRAY', input: { values: data.values, offsets: narrowOffsets(data.valueOffsets), offset: 0 } }
    case ArrowType.FixedSizeBinary:
      return { type: { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: t.byteWidth }, input: { values: data.values, offset: 0 } }
  }
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
    `Arrow ${String(t)} vectors are not supported; ` +
    'convert to an Int/Float/Utf8/Binary/Bool/FixedSizeBinary/Date(DAY)/Timestamp vector or a plain array')
}

/**
 * Large (int64) offsets as int32, which the core takes; a chunk over 2 GiB of data cannot be hashed in one go anyway.
 * @param {BigInt64Array} offsets
 */
function narrowOffsets(offsets) {
  const out = new Int32Array(offsets.length)
  for (let i = 0; i < offsets.length; i++) {
    const v = offsets[i]
    if (v > 2147483647n) {
      throw new ParquetBloomError(ErrorCode.TOO_LARGE, 'an Arrow Large* chunk holds over 2 GiB of data; slice it into smaller chunks')
    }
    out[i] = Number(v)
  }
  return out
}
