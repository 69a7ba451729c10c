// The encrypted side of addIndexes (parquet-format Encryption.md §4.4, §5): an encrypted chunk's pages are
// read as page header + page module pairs and decrypted (js/crypto/encrypted-pages.js); its new filter is
// written as the spec's two modules — BloomFilter Header (module type 8) and BloomFilter Bitset (9), each
// sealed with the chunk's key under its own AAD (row group and column ordinals), and its new page indexes as
// ColumnIndex (6) and OffsetIndex (7) modules; an encrypted ColumnMetaData
// is decrypted, given the filter's location and sealed again (module type 1); and the footer is sealed as the
// file's mode says — encrypted footer: FileCryptoMetaData as it was, then the footer module under the footer
// key; plaintext footer: the FileMetaData and a new signature (nonce ‖ tag). Loaded only for encrypted files.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { CompactReader, Malformed, T } from '../format/thrift-compact.js'
import { concatBytes } from '../format/bytes.js'
import { decodePageAt, PageDecodeError } from '../pages/page-decode.js'
import { decryptGcmModule, encryptGcmModule, moduleLength, signFooter } from '../crypto/aes-gcm.js'
import { ModuleType } from '../crypto/aad.js'
import { decryptPage, EncryptedPageProblem, pagesAuthenticated } from '../crypto/encrypted-pages.js'
import { thriftStructPrefix } from '../format/thrift-writer.js'
import { intValue, mapStruct, spliceStruct } from './footer-splice.js'

const MAGIC_PARE = Uint8Array.of(0x50, 0x41, 0x52, 0x45) // PARE: an encrypted footer
const MAGIC_PAR1 = Uint8Array.of(0x50, 0x41, 0x52, 0x31)

/**
 * Why a chunk's filter cannot be built and written here, or undefined when it can.
 * @param {import('../crypto/encrypted-footer.js').ChunkCrypto} crypto
 * @returns {{ reason: 'no-key' | 'unreadable-pages', detail: string } | undefined}
 */
export function encryptedChunkProblem(crypto) {
  if (crypto.missing !== undefined) return { reason: 'no-key', detail: `the column is encrypted and ${crypto.missing}` }
  if (!pagesAuthenticated(crypto)) {
    return { reason: 'unreadable-pages', detail: `${/** @type {any} */ (crypto).algorithm} encrypts pages with AES-CTR, ` +
      'which authenticates nothing: a filter is never built from unauthenticated bytes' }
  }
  return undefined
}

/**
 * An encrypted chunk's pages (a PageLayout for js/index-builder/chunk-scan.js): each a header module and
 * a page module, both GCM; the dictionary page (at dictionary_page_offset) has no ordinal, data pages
 * count from 0.
 * @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto
 * @param {any} decoding the chunk's columnDecoder
 * @param {{ dictionaryOffset: number, where: string }} place dictionaryOffset: dictionary_page_offset (or -1)
 * @returns {import('./chunk-scan.js').PageLayout}
 */
export function encryptedPages(crypto, decoding, { dictionaryOffset, where }) {
  let dataPages = 0
  const modules = (/** @type {Uint8Array} */ bytes, /** @type {number} */ at) => {
    const h = moduleLength(bytes, at)
    if (h < 0 || at + 4 + h + 4 > bytes.length) return { need: h < 0 ? -1 : 4 + h + 4 }
    const p = moduleLength(bytes, at + 4 + h)
    return { need: 8 + h + p, header: bytes.subarray(at, at + 4 + h), page: bytes.subarray(at + 4 + h, at + 8 + h + p) }
  }
  return {
    need(bytes, at) {
      const { need, page } = modules(bytes, at)
      return page || need < 0 ? need : -1 // the second length is not held yet: read on
    },
    async decode(bytes, at, offset) {
      const { need, header, page } = modules(bytes, at)
      if (!page || at + need > bytes.length) throw new PageDecodeError(`an encrypted page's modules (${need} bytes) run past the chunk`)
      const ordinal = offset === dictionaryOffset ? 'dictionary' : dataPages
      let plain
      try {
        plain = await decryptPage(crypto, { header, page }, ordinal,
          `${where}: ${ordinal === 'dictionary' ? 'dictionary page' : `data page ${ordinal}`}`)
      } catch (error) {
        if (error instanceof EncryptedPageProblem) throw new PageDecodeError(error.message)
        throw error
      }
      if (ordinal !== 'dictionary') dataPages++
      const decoded = await decodePageAt(plain, 0, plain.length, decoding)
      return { page: decoded.page, size: need }
    },
  }
}

/**
 * A filter (BloomFilterHeader ‖ bitset, as js/index-builder/chunk-values.js builds it) as its two modules.
 * @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto
 * @param {Uint8Array} bytes
 * @param {number} headerLength
 */
export async function sealFilter(crypto, bytes, headerLength) {
  const [header, bitset] = await Promise.all([
    encryptGcmModule(crypto.keys.gcm, bytes.subarray(0, headerLength), crypto.aad(ModuleType.BLOOM_FILTER_HEADER)),
    encryptGcmModule(crypto.keys.gcm, bytes.subarray(headerLength), crypto.aad(ModuleType.BLOOM_FILTER_BITSET)),
  ])
  return concatBytes([header, bitset])
}

/**
 * A serialized ColumnIndex or OffsetIndex (js/index-builder/page-index-writer.js) as its module (type 6 or 7),
 * sealed with the chunk's key under the AAD of its row group and column (Encryption.md §4.4: page indexes
 * are modules of their own; column_index_length / offset_index_length cover the whole module).
 * @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto
 * @param {'columnIndex' | 'offsetIndex'} kind
 * @param {Uint8Array} bytes
 */
export function sealPageIndex(crypto, kind, bytes) {
  return encryptGcmModule(crypto.keys.gcm, bytes, crypto.aad(kind === 'columnIndex' ? ModuleType.COLUMN_INDEX : ModuleType.OFFSET_INDEX))
}

/**
 * A chunk's encrypted_column_metadata (ColumnChunk field 9) with bloom_filter_offset/length set: the module
 * decrypted, its ColumnMetaData spliced (every other byte kept; writers' padding after the struct dropped)
 * and sealed again under the same key and AAD. Undefined when the chunk has none (its ColumnMetaData is
 * then plaintext, in a footer the footer key seals).
 * @param {Uint8Array} footer the plaintext FileMetaData
 * @param {import('./footer-splice.js').ChunkPlace} place
 * @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto
 * @param {{ offset: number, length: number }} bloom where the filter lies
 * @param {string} where
 */
export async function sealColumnMetaData(footer, place, crypto, bloom, where) {
  const field = place.struct.fields.find((f) => f.id === 9 && f.type === T.BINARY)
  if (!field) return undefined
  const module = new CompactReader(footer.subarray(field.valueStart, field.end)).binary()
  const aad = crypto.aad(ModuleType.COLUMN_META_DATA)
  const plaintext = await decryptGcmModule(crypto.keys.gcm, module, aad, `${where}: column metadata`)
  const struct = thriftStructPrefix(plaintext)
  if (struct.problem !== undefined) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
      `${where}: the decrypted ColumnMetaData does not decode: ${struct.problem}`, { source: where })
  }
  let meta
  try {
    meta = mapStruct(struct.bytes)
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
      `${where}: the decrypted ColumnMetaData does not decode: ${error.detail}`, { source: where })
  }
  const spliced = concatBytes(spliceStruct(struct.bytes, meta, new Map([
    [14, { type: T.I64, parts: [intValue(bloom.offset)] }],
    [15, { type: T.I32, parts: [intValue(bloom.length)] }],
  ])))
  return encryptGcmModule(crypto.keys.gcm, spliced, aad)
}

/**
 * The file's new tail after the data and filters: the footer sealed as the file's mode says, its length
 * and magic. The footer key is needed either way: an encrypted footer is sealed with it, a plaintext one
 * signed (readers that verify would refuse a stale signature).
 * @param {import('../crypto/encrypted-footer.js').FileCrypto} fileCrypto
 * @param {Uint8Array} footer the new plaintext FileMetaData
 * @param {string} where
 */
export async function sealFooter(fileCrypto, footer, where) {
  const { keys, aad, cryptoMetaData } = fileCrypto.footer
  if (!keys) throw footerKeyRequired(where)
  const body = fileCrypto.encryptedFooter
    ? concatBytes([/** @type {Uint8Array} */ (cryptoMetaData), await encryptGcmModule(keys.gcm, footer, aad)])
    : concatBytes([footer, await signFooter(keys.gcm, footer, aad)])
  const length = new Uint8Array(4)
  new DataView(length.buffer).setUint32(0, body.length, true)
  return concatBytes([body, length, fileCrypto.encryptedFooter ? MAGIC_PARE : MAGIC_PAR1])
}

/**
 * Why the file's filters cannot be written encrypted in a way its readers read, or undefined. DuckDB's
 * encrypted files (empty AADs, no file identifier) are the one such case: DuckDB reads the bloom filters
 * of an encrypted file as plaintext, so encrypted filters would make its filtered scans fail, and
 * plaintext ones would give the data's hashes to anyone without the key.
 * @param {import('../crypto/encrypted-footer.js').FileCrypto} fileCrypto
 * @param {string} where
 */
export function unsealableFile(fileCrypto, where) {
  if (!fileCrypto.footer.emptyAad) return undefined
  return new ParquetBloomError(ErrorCode.ENCRYPTED,
    `${where}: the file is encrypted as DuckDB encrypts (empty AADs): DuckDB reads bloom filters of encrypted files ` +
      'as plaintext, so encrypted filters would break its filtered scans and plaintext ones would disclose ' +
      'the values\' hashes; no filters are added', { source: where })
}

/**
 * ENCRYPTION_KEY_REQUIRED: the footer cannot be sealed again without its key.
 * @param {string} where
 */
export function footerKeyRequired(where) {
  return new ParquetBloomError(ErrorCode.ENCRYPTION_KEY_REQUIRED,
    `${where}: adding indexes to an encrypted file needs its footer key (decryption.footerKey): ` +
      'the new footer must be encrypted or signed with it', { source: where, field: 'footer' })
}
