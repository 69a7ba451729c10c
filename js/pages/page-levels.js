// A data page's repetition and definition levels (parquet-format "Data Pages"; Encodings.md "Run Length
// Encoding / Bit-Packing Hybrid"), each decoded within the bytes the page gives it. hyparquet's level reader
// reads runs until it has num_values levels, on past its section's end if need be — into the next section's
// bytes, levels that are not the page's (a short run, like apache/arrow#41321's files) —, and keeps a level
// above the column's maximum; its page readers then read as many values as those levels say, so a value the
// page holds went unread and confirm answered `absent`, index add left it out of the filter it wrote. Here
// each section is read through a view of exactly its bytes (a run past them throws), every level must be at
// most the maximum, and levels in any encoding but RLE (the deprecated BIT_PACKED, which hyparquet and DuckDB
// read as RLE and arrow-rs as bit-packed) are refused. A throw is a page in doubt: callers answer `maybe`.

/** @typedef {{ readRleBitPackedHybrid: (reader: any, width: number, output: any, length?: number) => void }} LevelReader */
/**
 * What decoding a column's levels needs of its decoder (js/pages/page-decode.js columnDecoder); `scratch`
 * (js/pages/page-scratch.js) when the caller keeps nothing of a page past the next one.
 * @typedef {{ maxDefinitionLevel: number, maxRepetitionLevel: number,
 *   scratch?: { int32: (name: string, n: number) => Int32Array } }} LevelColumn
 */
/**
 * @typedef {{ repetitionLevels: Int32Array | never[], definitionLevels: Int32Array | never[], present: number,
 *   valuesAt: number }} PageLevels
 *   An empty array: the column has no such levels, or (definition levels) the page has no nulls, as hyparquet
 *   gives them; present: the values the levels say the page holds; valuesAt: where its values start
 */

const bitWidth = (/** @type {number} */ level) => 32 - Math.clz32(level)

/**
 * A v1 data page's levels (already decompressed): [repetition levels][definition levels], each a u32 byte
 * length and that many bytes, present only when the column's level is above 0.
 * @param {Uint8Array} page
 * @param {{ num_values: number, repetition_level_encoding?: string, definition_level_encoding?: string }} header DataPageHeader
 * @param {LevelColumn} column
 * @param {LevelReader} read hyparquet's hybrid reader
 * @returns {PageLevels}
 */
export function levelsV1(page, header, column, read) {
  const numValues = header.num_values
  let at = 0
  /** @param {string} kind @param {number} maxLevel @param {string | undefined} encoding */
  const section = (kind, maxLevel, encoding) => {
    if (!maxLevel) return []
    if (encoding !== 'RLE') throw new Error(`${kind} levels in ${encoding ?? 'no'} encoding (only RLE is read)`)
    if (!(at + 4 <= page.length)) throw new Error(`the page ends before its ${kind} levels' length`)
    const length = page[at] | (page[at + 1] << 8) | (page[at + 2] << 16) | (page[at + 3] << 24)
    const levels = decodeLevels(page, at + 4, length, kind, maxLevel, numValues, column, read)
    at += 4 + length
    return levels
  }
  const repetitionLevels = section('repetition', column.maxRepetitionLevel, header.repetition_level_encoding)
  const definitionLevels = section('definition', column.maxDefinitionLevel, header.definition_level_encoding)
  return withPresent(repetitionLevels, definitionLevels, numValues, column.maxDefinitionLevel, at)
}

/**
 * A v2 data page's levels, as stored (never compressed): repetition then definition levels, of the byte
 * lengths the header gives (js/pages/page-decode.js checked they fit the page), no length prefixes.
 * @param {Uint8Array} stored
 * @param {{ num_values: number, num_nulls: number, repetition_levels_byte_length: number,
 *   definition_levels_byte_length: number }} header DataPageHeaderV2
 * @param {LevelColumn} column
 * @param {LevelReader} read hyparquet's hybrid reader
 * @returns {PageLevels}
 */
export function levelsV2(stored, header, column, read) {
  const { num_values: numValues, repetition_levels_byte_length: repetitionBytes, definition_levels_byte_length: definitionBytes } = header
  const repetitionLevels = column.maxRepetitionLevel
    ? decodeLevels(stored, 0, repetitionBytes, 'repetition', column.maxRepetitionLevel, numValues, column, read)
    : []
  const definitionLevels = column.maxDefinitionLevel
    ? decodeLevels(stored, repetitionBytes, definitionBytes, 'definition', column.maxDefinitionLevel, numValues, column, read)
    : []
  const levels = withPresent(repetitionLevels, definitionLevels, numValues, column.maxDefinitionLevel, repetitionBytes + definitionBytes)
  // The header's count of nulls is what hyparquet would read values by: it must be the levels'.
  if (levels.present !== numValues - header.num_nulls) {
    throw new Error(`the levels say ${levels.present} values, the header ${numValues} less ${header.num_nulls} nulls`)
  }
  return levels
}

/**
 * `numValues` levels of one section, [start, start + length) of `bytes`, each at most `maxLevel`.
 * @param {Uint8Array} bytes
 * @param {number} start
 * @param {number} length
 * @param {string} kind
 * @param {number} maxLevel
 * @param {number} numValues
 * @param {LevelColumn} column
 * @param {LevelReader} read
 */
function decodeLevels(bytes, start, length, kind, maxLevel, numValues, column, read) {
  if (!(length >= 0 && start + length <= bytes.length)) {
    throw new Error(`${kind} levels of ${length} bytes do not fit the page's ${bytes.length - start}`)
  }
  // A typed array: a run longer than the levels left is cut to them, never grown past num_values.
  const levels = column.scratch ? column.scratch.int32(kind, numValues) : new Int32Array(numValues)
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset + start, length), offset: 0 }
  try {
    read.readRleBitPackedHybrid(reader, bitWidth(maxLevel), levels, length)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new Error(`${numValues} ${kind} levels run past their ${length}-byte section`)
  }
  for (let i = 0; i < numValues; i++) {
    if (levels[i] > maxLevel) throw new Error(`${kind} level ${levels[i]} above the column's maximum ${maxLevel}`)
  }
  return levels
}

/**
 * @param {Int32Array | never[]} repetitionLevels
 * @param {Int32Array | never[]} definitionLevels
 * @param {number} numValues
 * @param {number} maxDefinitionLevel
 * @param {number} valuesAt
 * @returns {PageLevels}
 */
function withPresent(repetitionLevels, definitionLevels, numValues, maxDefinitionLevel, valuesAt) {
  let present = numValues
  if (definitionLevels.length) {
    present = 0
    for (let i = 0; i < numValues; i++) if (definitionLevels[i] === maxDefinitionLevel) present++
  }
  // As hyparquet: no nulls, no definition levels.
  return { repetitionLevels, definitionLevels: present === numValues ? [] : definitionLevels, present, valuesAt }
}
