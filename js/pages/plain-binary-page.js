// The PLAIN value section of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY data page (parquet-format Encodings.md
// "Plain"), kept as bytes, so exact lookups match on the page's bytes instead of one Uint8Array per value
// (js/pages/plain-binary-scan.js). The levels are the page's (js/pages/page-levels.js, decoded by the caller);
// the value section is handed on unread, with the number of values the levels say it holds.
// Loaded on demand and importing nothing of the main bundle (a module both import would make the
// bundler split off a chunk every page loads); errors thrown here are plain, and decodePageAt
// (js/pages/page-decode.js), the one caller, reports them as PageDecodeError.

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
 * A PLAIN binary data page: its levels (js/pages/page-levels.js) and its value section, unread.
 * @param {number} numLevels the header's num_values
 * @param {import('./page-levels.js').PageLevels} levels
 * @param {Uint8Array} bytes the value section (decompressed)
 * @param {number} width the column's plainBinaryWidth
 */
export function plainBinaryPage(numLevels, { definitionLevels, repetitionLevels, present }, bytes, width) {
  /** @type {PlainBinarySection} */
  const plainBinary = { bytes, count: present, width: width || undefined }
  return {
    kind: /** @type {'data'} */ ('data'), numLevels, definitionLevels, repetitionLevels, values: undefined, plainBinary,
    dictionaryIndexes: false,
  }
}
