// Locates the levels and the PLAIN value section of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY data page
// (parquet-format Encodings.md "Plain"; "Data Pages" for the v1 and v2 level layouts), so exact lookups
// match on the page's bytes instead of one Uint8Array per value (js/pages/plain-binary-scan.js). The levels
// are decoded by hyparquet's RLE/bit-packed hybrid reader exactly as its readDataPage(V2) does; the
// value section is handed on unread, with the number of values the levels say it holds.
// Loaded on demand and importing nothing of the main bundle (a module both import would make the
// bundler split off a chunk every page loads): the caller hands in how to decompress; errors thrown here
// are plain, and decodePageAt (js/pages/page-decode.js), the one caller, reports them as PageDecodeError.

// The matching that reads these sections, loaded with them (js/pages/page-decode.js loadHyparquet).
export { plainBinaryKeys, scanPlainByteArray, scanPlainFixed } from './plain-binary-scan.js'

/**
 * A PLAIN value section: `count` values, each [u32 length][bytes] (BYTE_ARRAY) or `width` bytes (FLBA).
 * @typedef {{ bytes: Uint8Array, count: number, width: number | undefined }} PlainBinarySection
 */

/**
 * The value width the fast path reads a column's PLAIN pages with: 0 for BYTE_ARRAY, the type length for
 * FIXED_LEN_BYTE_ARRAY, undefined for every other type (or an FLBA without a usable length).
 * @param {string} physicalType
 * @param {number | undefined} typeLength
 */
export function plainBinaryWidth(physicalType, typeLength) {
  if (physicalType === 'BYTE_ARRAY') return 0
  if (physicalType === 'FIXED_LEN_BYTE_ARRAY' && typeLength !== undefined && Number.isInteger(typeLength) && typeLength > 0) {
    return typeLength
  }
  return undefined
}

/**
 * What reading a column's PLAIN binary pages needs of its decoder (page-decode.js columnDecoder): its
 * levels, value width (0: BYTE_ARRAY) and hyparquet's level reader; `scratch` (js/pages/page-scratch.js),
 * when the caller keeps nothing of a page past the next one: levels are decoded into it, not new arrays.
 * @typedef {{ maxDefinitionLevel: number, maxRepetitionLevel: number, plainBinaryWidth: number,
 *   hyparquet: { pages: { readRleBitPackedHybrid: (reader: any, width: number, output: any, length?: number) => void } },
 *   scratch?: { int32: (name: string, n: number) => Int32Array } }} PlainBinaryColumn
 */

/**
 * An array for `n` levels: scratch when the column has it (a JS array of numbers is 8 bytes a level, freed late).
 * @param {PlainBinaryColumn} column
 * @param {string} kind
 * @param {number} n
 * @returns {Int32Array | number[]}
 */
function levelArray(column, kind, n) {
  return column.scratch ? column.scratch.int32(kind, n) : new Array(n)
}

const bitWidth = (/** @type {number} */ level) => 32 - Math.clz32(level)

/**
 * A v1 data page (already decompressed): [repetition levels][definition levels][values], each level run
 * prefixed by its u32 byte length (hyparquet readDataPage's readRepetitionLevels/readDefinitionLevels).
 * @param {Uint8Array} page
 * @param {number} numValues DataPageHeader.num_values (levels)
 * @param {PlainBinaryColumn} column
 */
export function plainBinaryPageV1(page, numValues, column) {
  const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 }
  /** @type {Int32Array | number[]} */
  let repetitionLevels = []
  if (column.maxRepetitionLevel) {
    repetitionLevels = levelArray(column, 'repetition', numValues)
    column.hyparquet.pages.readRleBitPackedHybrid(reader, bitWidth(column.maxRepetitionLevel), repetitionLevels)
  }
  /** @type {Int32Array | number[]} */
  let definitionLevels = []
  let present = numValues
  if (column.maxDefinitionLevel) {
    definitionLevels = levelArray(column, 'definition', numValues)
    column.hyparquet.pages.readRleBitPackedHybrid(reader, bitWidth(column.maxDefinitionLevel), definitionLevels)
    present = countEqual(definitionLevels, column.maxDefinitionLevel)
    if (present === numValues) definitionLevels = [] // as hyparquet: no nulls, no levels
  }
  if (!(reader.offset <= page.length)) throw new Error(`the page's levels claim ${reader.offset} bytes, the page has ${page.length}`)
  return levelsAndSection(numValues, definitionLevels, repetitionLevels, page.subarray(reader.offset), present, column.plainBinaryWidth)
}

/**
 * A v2 data page as stored: uncompressed levels of the lengths the header gives, then the values,
 * compressed unless is_compressed is false (hyparquet readDataPageV2).
 * @param {Uint8Array} stored
 * @param {{ uncompressed_page_size: number, data_page_header_v2: { num_values: number, num_nulls: number,
 *   repetition_levels_byte_length: number, definition_levels_byte_length: number, is_compressed?: boolean } }} header
 * @param {PlainBinaryColumn} column
 * @param {(bytes: Uint8Array, size: number) => Promise<Uint8Array>} decompress the column's codec (it throws)
 */
export async function plainBinaryPageV2(stored, header, column, decompress) {
  const v2 = header.data_page_header_v2
  // Lengths that fit the page: js/pages/page-decode.js checked them before calling.
  const repetitionBytes = v2.repetition_levels_byte_length
  const definitionBytes = v2.definition_levels_byte_length
  const reader = { view: new DataView(stored.buffer, stored.byteOffset, stored.byteLength), offset: 0 }
  /** @type {Int32Array | number[]} */
  let repetitionLevels = []
  if (column.maxRepetitionLevel) {
    repetitionLevels = levelArray(column, 'repetition', v2.num_values)
    column.hyparquet.pages.readRleBitPackedHybrid(reader, bitWidth(column.maxRepetitionLevel), repetitionLevels, repetitionBytes)
  }
  reader.offset = repetitionBytes
  /** @type {Int32Array | number[]} */
  let definitionLevels = []
  if (column.maxDefinitionLevel) {
    definitionLevels = levelArray(column, 'definition', v2.num_values)
    column.hyparquet.pages.readRleBitPackedHybrid(reader, bitWidth(column.maxDefinitionLevel), definitionLevels, definitionBytes)
  }
  let values = stored.subarray(repetitionBytes + definitionBytes)
  const valuesSize = header.uncompressed_page_size - repetitionBytes - definitionBytes
  if (v2.is_compressed !== false && valuesSize) {
    values = await decompress(values, valuesSize)
  }
  // As hyparquet: the header's num_nulls says how many values the section holds; walkLevels checks the levels agree.
  return levelsAndSection(v2.num_values, definitionLevels, repetitionLevels, values, v2.num_values - v2.num_nulls, column.plainBinaryWidth)
}

/**
 * @param {number} numLevels
 * @param {ArrayLike<number>} definitionLevels
 * @param {ArrayLike<number>} repetitionLevels
 * @param {Uint8Array} bytes
 * @param {number} count
 * @param {number} width
 */
function levelsAndSection(numLevels, definitionLevels, repetitionLevels, bytes, count, width) {
  if (!(count >= 0)) throw new Error(`a page of ${count} values`)
  /** @type {PlainBinarySection} */
  const plainBinary = { bytes, count, width: width || undefined }
  return {
    kind: /** @type {'data'} */ ('data'), numLevels, definitionLevels, repetitionLevels, values: undefined, plainBinary,
    dictionaryIndexes: false,
  }
}

/**
 * @param {ArrayLike<number>} levels
 * @param {number} level
 */
function countEqual(levels, level) {
  let count = 0
  for (let i = 0; i < levels.length; i++) if (levels[i] === level) count++
  return count
}
