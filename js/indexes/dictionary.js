// Dictionary pages as an exact index (parquet-format Encodings.md "Dictionary Encoding"; parquet.thrift
// ColumnMetaData.dictionary_page_offset, encoding_stats, PageHeader, DictionaryPageHeader): when every
// data page of a chunk is dictionary-encoded, its dictionary page lists the chunk's distinct non-null
// values, so a value is 'present' or 'absent' without a false positive. Where the page is, whether the
// chunk is dictionary-only, and whether the page decodes are each checked; any doubt leaves the chunk to
// the other indexes with a reason, never a wrong 'absent'.
import { crc32 } from '../pages/crc32.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk } from '../footer/records.js'
import { chunkUnavailable, dictionaryCoverage } from './index-coverage.js'
import { CODEC_NAMES, decodePageHeader, PageType, UNCOMPRESSED } from '../format/page-header.js'

// parquet.thrift Encoding ids a dictionary page may use (PLAIN_DICTIONARY is the format 1.0 name).
const PLAIN = 0
const PLAIN_DICTIONARY = 2
/** The largest decompressed dictionary page decoded: a header claiming more is refused before any allocation. */
export const MAX_DICTIONARY_BYTES = 64 * 1024 * 1024
/** 'auto' reads the dictionary of a chunk without a bloom filter only up to this many bytes. */
export const AUTO_DICTIONARY_WITHOUT_FILTER_BYTES = 64 * 1024

/**
 * Bytes one PLAIN value takes at least (BYTE_ARRAY: its 4-byte length); BOOLEAN is bit-packed.
 * @type {Readonly<Record<string, number>>}
 */
const MIN_VALUE_BYTES = { INT32: 4, INT64: 8, INT96: 12, FLOAT: 4, DOUBLE: 8, BYTE_ARRAY: 4 }

// Candidates answered by a dictionary, per value: any candidate in the set, or one it cannot compare.
export const DictionaryAnswer = Object.freeze({ ABSENT: 0, PRESENT: 1, UNDECIDED: 2 })

const latin1 = new TextDecoder('latin1') // one char per byte: an injective key for binary values
const utf8 = new TextEncoder()

/**
 * Where a chunk's dictionary page is, when the chunk is provably dictionary-only and its metadata
 * describes the page consistently.
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {number} rowGroup
 * @param {number} columnIndex
 * @param {number} metadataOffset where the footer starts: the data region ends there
 * @param {{ decrypt?: boolean }} [options]
 * @param {import('../footer/records.js').ChunkView} [record] the chunk's, when the caller has it
 * @returns {{ offset: number, maxLength: number, exact: boolean } | { reason: string, detail: string }}
 *   `exact`: the page (header + compressed data) must fill [offset, offset + maxLength) exactly (it ends
 *   where the data pages start); false when the writer gave no dictionary_page_offset and the page is
 *   the first one at data_page_offset, known only to lie within the chunk.
 *   Reasons: 'no-dictionary', 'not-dictionary-only', 'inconsistent-dictionary', or the chunk's
 *   unavailability ('encrypted-column', 'no-column-metadata', 'external-file').
 */
export function dictionaryPageRange(layout, rowGroup, columnIndex, metadataOffset, { decrypt = false } = {},
  record = chunk(layout, rowGroup, columnIndex)) {
  ensureColumnIndexes(layout, columnIndex)
  // Only callers that decrypt (js/crypto/encrypted-dictionary.js) locate an encrypted chunk's dictionary.
  const unavailable = chunkUnavailable(record.flags, decrypt ? record.crypto : undefined)
  if (unavailable) return { reason: unavailable.reason, detail: unavailable.detail }
  const dictionaryOffset = record.dictionaryPageOffset
  const dataOffset = record.dataPageOffset
  const totalSize = record.totalCompressedSize
  if (dictionaryOffset !== -1 && !(dictionaryOffset >= 4 && dictionaryOffset < dataOffset)) {
    return inconsistent(
      `dictionary_page_offset ${dictionaryOffset} does not lie between the file's magic and data_page_offset ${dataOffset}`)
  }
  const coverage = dictionaryCoverage(record)
  if (!coverage.present) return NO_DICTIONARY
  if (coverage.allDataPages === false) {
    return {
      reason: 'not-dictionary-only',
      detail: 'some data pages are not dictionary-encoded (encoding_stats or encodings say so), so the dictionary is not every value',
    }
  }
  if (coverage.allDataPages !== true) {
    return {
      reason: 'not-dictionary-only',
      detail: 'without encoding_stats the encodings cannot show that every data page is dictionary-encoded ' +
        '(parquet-java DictionaryFilter rule)',
    }
  }
  const start = dictionaryOffset === -1 ? dataOffset : dictionaryOffset
  if (!(start >= 4 && totalSize > 0 && start + totalSize <= metadataOffset)) {
    return inconsistent(`the chunk [${start}, +${totalSize}) does not lie in the data region [4, ${metadataOffset})`)
  }
  if (dictionaryOffset === -1) return { offset: start, maxLength: totalSize, exact: false }
  const maxLength = dataOffset - dictionaryOffset
  if (maxLength >= totalSize) {
    return inconsistent(`the data pages start ${maxLength} bytes after the dictionary page, ` +
      `at or past the chunk's total_compressed_size ${totalSize}`)
  }
  return { offset: start, maxLength, exact: true }
}

/** A chunk without a dictionary page: one answer for them all (read, never changed). */
const NO_DICTIONARY = Object.freeze({ reason: 'no-dictionary', detail: 'the chunk has no dictionary page' })

/** @param {string} detail why the chunk's dictionary cannot be where its metadata says */
function inconsistent(detail) {
  return { reason: 'inconsistent-dictionary', detail }
}

/**
 * Bytes a dictionary read of the chunk costs (the planner compares it with the bloom filter read), or
 * null when the chunk's dictionary cannot be used (dictionaryPageRange says why).
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {number} rowGroup
 * @param {number} columnIndex
 * @param {number} [metadataOffset]
 * @returns {number | null}
 */
export function dictionaryReadCost(layout, rowGroup, columnIndex, metadataOffset = Infinity) {
  const range = dictionaryPageRange(layout, rowGroup, columnIndex, metadataOffset)
  return 'reason' in range ? null : range.maxLength
}

/**
 * Whether `probe`'s `dictionary` option reads a chunk's dictionary: true → whenever it can be used,
 * false → never, 'auto' → when it costs fewer bytes than the bloom filter read it replaces, or the chunk
 * has no usable filter and its dictionary is at most 64 KiB.
 * @param {'auto' | boolean} option
 * @param {number | null} dictionaryBytes dictionaryReadCost()
 * @param {number | null} bloomBytes bytes the bloom filter read would cost, null without a usable filter
 */
export function shouldReadDictionary(option, dictionaryBytes, bloomBytes) {
  if (option !== 'auto' && typeof option !== 'boolean') {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `dictionary must be 'auto', true or false, got ${JSON.stringify(option)}`)
  }
  if (dictionaryBytes === null || option === false) return false
  if (option === true) return true
  return bloomBytes === null ? dictionaryBytes <= AUTO_DICTIONARY_WITHOUT_FILTER_BYTES : dictionaryBytes < bloomBytes
}

/**
 * @typedef {{ physicalType: string, typeLength?: number, codec: number | string, exact?: boolean,
 *   maxBytes?: number, compressors?: Record<string, (input: Uint8Array, length: number) => Uint8Array> }} DecodeDictionaryOptions
 */

/**
 * Decodes a dictionary page into an exact lookup set.
 * @param {Uint8Array} bytes the bytes dictionaryPageRange() located
 * @param {DecodeDictionaryOptions} options
 *   `codec`: ColumnMetaData.codec (a ChunkView's codec, js/footer/records.js) or its name; `exact`: the range's
 *   `exact`; `compressors`: decompressors by codec name (hyparquet's Compressors shape) instead of
 *   loading hyparquet-compressors, e.g. in a browser page without an import map for it.
 * @returns {Promise<{ set: DictionarySet }
 *   | { error: { reason: 'malformed-dictionary' | 'unsupported-codec' | 'dictionary-too-large', detail: string } }>}
 */
export async function decodeDictionary(bytes, {
  physicalType, typeLength, codec, exact = true, maxBytes = MAX_DICTIONARY_BYTES, compressors,
} = /** @type {DecodeDictionaryOptions} */ ({})) {
  if (!(bytes instanceof Uint8Array)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'decodeDictionary needs the page bytes as a Uint8Array')
  }
  const width = valueWidth(physicalType, typeLength)
  const codecId = typeof codec === 'string' ? CODEC_NAMES.indexOf(codec) : codec
  if (!(Number.isInteger(codecId) && codecId >= 0)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `unknown codec ${JSON.stringify(codec)}`)
  }

  const decoded = decodePageHeader(bytes)
  if ('problem' in decoded) return malformed(decoded.problem)
  const { header, length: headerLength } = decoded
  if (header.type !== PageType.DICTIONARY_PAGE || !header.dictionary) {
    return malformed(`the page at the dictionary offset is not a dictionary page (page type ${header.type})`)
  }
  const { numValues, encoding } = header.dictionary
  const { compressedPageSize, uncompressedPageSize } = header
  if (encoding !== PLAIN && encoding !== PLAIN_DICTIONARY) return malformed(`the dictionary page's encoding ${encoding} is not PLAIN`)
  if (numValues === undefined || compressedPageSize === undefined || uncompressedPageSize === undefined ||
    !(numValues >= 0 && compressedPageSize >= 0 && uncompressedPageSize >= 0)) {
    return malformed(`the page header lacks or has negative num_values (${numValues}), ` +
      `compressed (${compressedPageSize}) or uncompressed (${uncompressedPageSize}) size`)
  }
  const pageEnd = headerLength + compressedPageSize
  if (exact ? pageEnd !== bytes.length : pageEnd > bytes.length) {
    return malformed(`a ${headerLength}-byte header and ${compressedPageSize} bytes of page ${exact ? 'do not fill' : 'do not fit in'} ` +
      `the ${bytes.length} bytes the footer gives the dictionary page`)
  }
  if (uncompressedPageSize > maxBytes) {
    return {
      error: {
        reason: 'dictionary-too-large',
        detail: `the dictionary page is ${uncompressedPageSize} bytes uncompressed, over the ${maxBytes}-byte limit`,
      },
    }
  }
  const needed = physicalType === 'BOOLEAN' ? Math.ceil(numValues / 8) : numValues * (width ?? MIN_VALUE_BYTES[physicalType])
  if (needed > uncompressedPageSize) return malformed(`${numValues} ${physicalType} values cannot fit in ${uncompressedPageSize} bytes`)
  const stored = bytes.subarray(headerLength, pageEnd)
  if (header.crc !== undefined && crc32(stored) !== header.crc) return malformed('the dictionary page does not match its CRC-32 checksum')

  // The codecs' module is loaded with the first compressed dictionary (it loads the decompressors then too).
  const page = codecId === UNCOMPRESSED && stored.length === uncompressedPageSize ? { bytes: stored }
    : await (await import('../pages/page-codecs.js')).decompressPage(stored, uncompressedPageSize, codecId, compressors)
  if ('error' in page) {
    const reason = page.error.kind === 'unsupported' ? 'unsupported-codec' : 'malformed-dictionary'
    return { error: { reason, detail: page.error.detail } }
  }
  const set = readPlainValues(page.bytes, physicalType, width, numValues)
  return typeof set === 'string' ? malformed(set) : { set }
}

/**
 * @param {string} detail
 * @returns {{ error: { reason: 'malformed-dictionary', detail: string } }}
 */
function malformed(detail) {
  return { error: { reason: 'malformed-dictionary', detail } }
}

/**
 * The fixed width of a physical type's PLAIN values, undefined for BYTE_ARRAY and BOOLEAN.
 * @param {string} physicalType
 * @param {number | undefined} typeLength
 * @returns {number | undefined}
 */
function valueWidth(physicalType, typeLength) {
  if (physicalType === 'FIXED_LEN_BYTE_ARRAY') {
    if (typeLength === undefined || !(Number.isInteger(typeLength) && typeLength > 0)) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `a FIXED_LEN_BYTE_ARRAY dictionary needs a positive typeLength, got ${typeLength}`)
    }
    return typeLength
  }
  if (physicalType === 'BYTE_ARRAY' || physicalType === 'BOOLEAN') return undefined
  const width = MIN_VALUE_BYTES[physicalType]
  if (width === undefined) throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `unknown physical type ${JSON.stringify(physicalType)}`)
  return width
}

/**
 * The dictionary's values as lookup keys: numbers (INT32, FLOAT bit patterns), bigints (INT64, DOUBLE
 * bit patterns), booleans, or latin1 strings of the bytes (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96).
 * @typedef {number | bigint | boolean | string} DictionaryKey
 */
export class DictionarySet {
  /**
   * @param {string} physicalType
   * @param {number | undefined} typeLength
   * @param {Set<DictionaryKey>} keys
   */
  constructor(physicalType, typeLength, keys) {
    this.physicalType = physicalType
    this.typeLength = typeLength
    this.keys = keys
  }

  get size() {
    return this.keys.size
  }
}

/**
 * PLAIN values (Encodings.md "Plain"), which must fill the page exactly: a page with bytes left over or
 * missing disagrees with its header. Returns a DictionarySet, or a sentence saying what is wrong.
 * @param {Uint8Array} page
 * @param {string} physicalType
 * @param {number | undefined} width valueWidth(): set for every type but BYTE_ARRAY and BOOLEAN
 * @param {number} numValues
 * @returns {DictionarySet | string}
 */
function readPlainValues(page, physicalType, width, numValues) {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength)
  /** @type {Set<DictionaryKey>} */
  const keys = new Set()
  const fill = (/** @type {number} */ used) => `${numValues} ${physicalType} values take ${used} bytes, the page holds ${page.length}`
  if (physicalType === 'BOOLEAN') {
    if (Math.ceil(numValues / 8) !== page.length) return fill(Math.ceil(numValues / 8))
    for (let k = 0; k < numValues; k++) keys.add((page[k >> 3] & (1 << (k & 7))) !== 0)
  } else if (physicalType === 'BYTE_ARRAY') {
    let at = 0
    for (let k = 0; k < numValues; k++) {
      if (page.length - at < 4) return `value ${k} of ${numValues}: its length runs past the page`
      const length = view.getUint32(at, true)
      if (length > page.length - at - 4) return `value ${k} of ${numValues}: ${length} bytes run past the page`
      keys.add(latin1.decode(page.subarray(at + 4, at + 4 + length)))
      at += 4 + length
    }
    if (at !== page.length) return fill(at)
  } else {
    const size = /** @type {number} */ (width) // the fixed-width types have one
    if (numValues * size !== page.length) return fill(numValues * size)
    if (physicalType === 'INT32') for (let k = 0; k < numValues; k++) keys.add(view.getInt32(k * 4, true))
    else if (physicalType === 'INT64') for (let k = 0; k < numValues; k++) keys.add(view.getBigInt64(k * 8, true))
    else if (physicalType === 'FLOAT') for (let k = 0; k < numValues; k++) keys.add(view.getUint32(k * 4, true))
    else if (physicalType === 'DOUBLE') for (let k = 0; k < numValues; k++) keys.add(view.getBigUint64(k * 8, true))
    else for (let k = 0; k < numValues; k++) keys.add(latin1.decode(page.subarray(k * size, (k + 1) * size)))
  }
  return new DictionarySet(physicalType, physicalType === 'FIXED_LEN_BYTE_ARRAY' ? width : undefined, keys)
}

const f32 = new Float32Array(1)
const f32Bits = new Uint32Array(f32.buffer)
const f64 = new Float64Array(1)
const f64Bits = new BigUint64Array(f64.buffer)

/**
 * A candidate (encodeProbeValues' form for the physical type) as a key of the set, undefined if of another form.
 * @param {string} physicalType
 * @returns {(candidate: unknown) => DictionaryKey | undefined}
 */
function keyFunction(physicalType) {
  switch (physicalType) {
    case 'INT32': return (c) => (typeof c === 'number' && Number.isInteger(c) ? c : undefined)
    case 'INT64': return (c) => (typeof c === 'bigint' ? c : undefined)
    case 'FLOAT': return (c) => {
      if (typeof c !== 'number' || Math.fround(c) !== c && !Number.isNaN(c)) return undefined
      f32[0] = c
      return f32Bits[0]
    }
    case 'DOUBLE': return (c) => {
      if (typeof c !== 'number') return undefined
      f64[0] = c
      return f64Bits[0]
    }
    case 'BOOLEAN': return (c) => (typeof c === 'boolean' ? c : undefined)
    case 'BYTE_ARRAY':
      return (c) => (typeof c === 'string' ? latin1.decode(utf8.encode(c)) : c instanceof Uint8Array ? latin1.decode(c) : undefined)
    default: return (c) => (c instanceof Uint8Array ? latin1.decode(c) : undefined)
  }
}

/**
 * Per value: 1 present (a candidate is in the dictionary), 0 absent (none is), 2 undecided (a candidate
 * of a form this set cannot compare: answer as without a dictionary). Values without candidates (preset
 * verdicts: null, NaN, not representable) come out 0 and must keep their preset verdict.
 * @param {DictionarySet} set
 * @param {any[]} candidates encodeProbeValues().candidates
 * @param {Int32Array} owners encodeProbeValues().owners
 * @param {number} valueCount
 * @returns {Uint8Array}
 */
export function dictionaryVerdicts(set, candidates, owners, valueCount) {
  const answers = new Uint8Array(valueCount)
  const key = keyFunction(set.physicalType)
  const { keys } = set
  /** @type {Set<bigint> | undefined} */
  let micros
  for (let k = 0; k < candidates.length; k++) {
    const owner = owners[k]
    if (answers[owner] === DictionaryAnswer.PRESENT) continue
    const candidateKey = key(candidates[k])
    // `wide` INT96 bytes (values/input.js WideInt96) found are the value; not found, another nanosecond of their microsecond
    // may be: undecided if a value is that microsecond as DuckDB reads both, else absent. (No key is undefined.)
    if (keys.has(/** @type {DictionaryKey} */ (candidateKey))) answers[owner] = DictionaryAnswer.PRESENT
    else if (candidateKey === undefined || candidates[k].wide && int96Micros(/** @type {string} */ (candidateKey))
      .some((us) => (micros ??= new Set([...keys].flatMap((entry) => int96Micros(/** @type {string} */ (entry))))).has(us))) {
      answers[owner] = DictionaryAnswer.UNDECIDED
    }
  }
  return answers
}

/**
 * INT96 bytes (a latin1 key) as DuckDB reads them: (Julian day - 2440588) days + trunc(nanoseconds of day, a signed int64,
 * / 1000) µs, wrapped to int64, the day read signed and unsigned.
 * @param {string} key
 */
function int96Micros(key) {
  const view = new DataView(Uint8Array.from(key, (c) => c.charCodeAt(0)).buffer)
  const nanos = view.getBigInt64(0, true)
  const days = [view.getInt32(8, true), view.getUint32(8, true)]
  return days.map((day) => BigInt.asIntN(64, BigInt(day - 2440588) * 86400000000n + nanos / 1000n))
}
