// Module AADs of Parquet modular encryption (parquet-format Encryption.md §4.4): aad_prefix ‖
// aad_file_unique ‖ module type (1 byte) ‖ row group ordinal (2 LE) ‖ column ordinal (2 LE) ‖ page
// ordinal (2 LE, data pages and their headers only). The footer's AAD stops after its module type.

/** Module types (Encryption.md §4.4.2). */
export const ModuleType = Object.freeze({
  FOOTER: 0,
  COLUMN_META_DATA: 1,
  DATA_PAGE: 2,
  DICTIONARY_PAGE: 3,
  DATA_PAGE_HEADER: 4,
  DICTIONARY_PAGE_HEADER: 5,
  COLUMN_INDEX: 6,
  OFFSET_INDEX: 7,
  BLOOM_FILTER_HEADER: 8,
  BLOOM_FILTER_BITSET: 9,
})

const ORDINAL_LIMIT = 0x8000 // the ordinals are Java shorts: 32767 at most

/**
 * @param {Uint8Array} fileAad aad_prefix ‖ aad_file_unique
 * @param {number} moduleType
 * @param {number} [rowGroup] omitted for the footer
 * @param {number} [column]
 * @param {number} [page] data pages and data page headers only
 */
export function moduleAad(fileAad, moduleType, rowGroup, column, page) {
  if (moduleType === ModuleType.FOOTER) {
    const aad = new Uint8Array(fileAad.length + 1)
    aad.set(fileAad)
    aad[fileAad.length] = moduleType
    return aad
  }
  const withPage = page !== undefined
  const aad = new Uint8Array(fileAad.length + 5 + (withPage ? 2 : 0))
  aad.set(fileAad)
  const view = new DataView(aad.buffer)
  let at = fileAad.length
  aad[at++] = moduleType
  for (const ordinal of withPage ? [rowGroup, column, page] : [rowGroup, column]) {
    if (!(typeof ordinal === 'number' && Number.isInteger(ordinal) && ordinal >= 0 && ordinal < ORDINAL_LIMIT)) {
      throw new RangeError(`AAD ordinal ${ordinal} out of range`)
    }
    view.setUint16(at, ordinal, true)
    at += 2
  }
  return aad
}
