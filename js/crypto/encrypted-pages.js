// Pages of encrypted column chunks (parquet-format Encryption.md §4.4, §5.1): each page is a page
// header module followed by a page module — dictionary pages module types 5 and 3 without a page
// ordinal, data pages 4 and 2 with the data page's 0-based ordinal in the chunk. Both modules of a page
// are decrypted concurrently, and the pair becomes a plaintext page (the header's compressed_page_size,
// rewritten to the plaintext's length) for the ordinary page decoders.
// Only GCM page modules (AES_GCM_V1) are read: AES_GCM_CTR_V1 pages are CTR, which authenticates nothing.
import { crc32 } from '../pages/crc32.js'
import { decodePageHeader, PageType } from '../format/page-header.js'
import { CompactReader, Malformed, T } from '../format/thrift-compact.js'
import { decryptGcmModule, decryptionFailed, moduleLength } from './aes-gcm.js'
import { ModuleType } from './aad.js'
import { concatBytes } from '../format/bytes.js'
import { longFieldHeader, thriftStructPrefix, varint } from '../format/thrift-writer.js'

/**
 * Whether a chunk's pages can be read authenticated: only when they are GCM modules.
 * @param {import('./encrypted-footer.js').ChunkCrypto | undefined} crypto
 */
export function pagesAuthenticated(crypto) {
  return crypto?.algorithm === 'AES_GCM_V1'
}

/** A decrypted page that is not a well-formed page of the kind its module says (authenticated, so the writer's doing). */
export class EncryptedPageProblem extends Error {}

/**
 * Where each page's two modules lie in `bytes`, from their length prefixes alone (no decryption), so
 * every module of a read can be decrypted at once. A length running past the end is DECRYPTION_FAILED:
 * the modules are truncated, or a length lies (GCM would refuse the bytes anyway).
 * @param {Uint8Array} bytes one or more whole pages
 * @param {(k: number) => string} nameOf page k's name, for errors ("data page 3")
 * @returns {Array<{ header: Uint8Array, page: Uint8Array }>}
 */
export function splitPageModules(bytes, nameOf) {
  const pages = []
  for (let at = 0; at < bytes.length;) {
    const k = pages.length
    const header = moduleAt(bytes, at, () => `${nameOf(k)} header`)
    const page = moduleAt(bytes, at + header.length, () => nameOf(k))
    pages.push({ header, page })
    at += header.length + page.length
  }
  return pages
}

/** @param {Uint8Array} bytes @param {number} at @param {() => string} what the module, for the error */
function moduleAt(bytes, at, what) {
  const declared = moduleLength(bytes, at)
  if (declared < 0 || at + 4 + declared > bytes.length) {
    throw decryptionFailed(what(), declared < 0 ? `the module is cut off after ${bytes.length - at} bytes`
      : `the module declares ${declared} bytes but ${bytes.length - at - 4} are left`)
  }
  return bytes.subarray(at, at + 4 + declared)
}

/**
 * One page's plaintext: header and page module decrypted concurrently, the header checked to be of the
 * module's kind and its compressed_page_size rewritten. Throws DECRYPTION_FAILED when a module does not
 * authenticate, EncryptedPageProblem when the plaintext header is not what it must be.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @param {{ header: Uint8Array, page: Uint8Array }} modules
 * @param {number | 'dictionary'} ordinal the data page's ordinal in the chunk, or 'dictionary'
 * @param {string} what the page, for errors ("file: row group 0, column x: data page 3")
 * @returns {Promise<Uint8Array>} the plaintext page: header ‖ page bytes
 */
export async function decryptPage(crypto, modules, ordinal, what) {
  const dictionary = ordinal === 'dictionary'
  const [headerAad, pageAad] = dictionary
    ? [crypto.aad(ModuleType.DICTIONARY_PAGE_HEADER), crypto.aad(ModuleType.DICTIONARY_PAGE)]
    : [crypto.aad(ModuleType.DATA_PAGE_HEADER, ordinal), crypto.aad(ModuleType.DATA_PAGE, ordinal)]
  // Both decrypt at once; when both fail, the header's failure is the one reported (whichever finished
  // first would otherwise name the module, by timing).
  const [headerResult, pageResult] = await Promise.allSettled([
    decryptGcmModule(crypto.keys.gcm, modules.header, headerAad, `${what} header`),
    decryptGcmModule(crypto.keys.gcm, modules.page, pageAad, what),
  ])
  if (headerResult.status === 'rejected') throw headerResult.reason
  if (pageResult.status === 'rejected') throw pageResult.reason
  const headerPlain = headerResult.value
  const pagePlain = pageResult.value
  const header = thriftStructPrefix(headerPlain)
  const decoded = header.bytes !== undefined ? decodePageHeader(header.bytes) : { problem: header.problem }
  if ('problem' in decoded) throw new EncryptedPageProblem(`${what}: the decrypted page header does not decode: ${decoded.problem}`)
  const { type, crc } = decoded.header
  // parquet-mr computes a page's CRC over its page module; one that matches it is dropped here (GCM has
  // authenticated the page), any other is kept for the page decoder to check against the plaintext.
  const dropCrc = crc !== undefined && (crc32(modules.page) | 0) === (crc | 0)
  // compressed_page_size counts the page module (length, nonce, ciphertext, tag) as the spec's writers
  // count it, or the plaintext, as DuckDB does; both modules are authenticated, so either is the writer's.
  const headerBytes = /** @type {Uint8Array} */ (header.bytes) // it decoded above
  const rewritten = withCompressedPageSize(headerBytes, [modules.page.length, pagePlain.length], pagePlain.length, dropCrc)
  if (typeof rewritten === 'string') throw new EncryptedPageProblem(`${what}: ${rewritten}`)
  const fits = dictionary ? type === PageType.DICTIONARY_PAGE : type === PageType.DATA_PAGE || type === PageType.DATA_PAGE_V2
  // Spec AADs already bind the module type; an empty AAD (DuckDB) does not, so the header must say it.
  if (!fits) {
    throw new EncryptedPageProblem(
      `${what}: the decrypted header is of page type ${type}, not a ${dictionary ? 'dictionary' : 'data'} page`)
  }
  return concatBytes([rewritten, pagePlain])
}

/**
 * The PageHeader struct with field 3 (compressed_page_size) set to `size`, when it says one of `expected`; every
 * other field copied as it is (but field 4, crc, when `dropCrc`), under long-form field headers. Else
 * the disagreement, as a sentence.
 * @param {Uint8Array} header @param {number[]} expected @param {number} size @param {boolean} [dropCrc]
 * @returns {Uint8Array | string}
 */
export function withCompressedPageSize(header, expected, size, dropCrc = false) {
  const r = new CompactReader(header)
  /** @type {Uint8Array[]} */
  const parts = []
  let found = false
  try {
    let lastId = 0
    for (;;) {
      const { id, type } = r.fieldHeader(lastId)
      if (type === 0) break
      const start = r.at
      if (id === 3 && type === T.I32) {
        const stored = r.i32()
        if (!expected.includes(stored)) {
          return `the page header's compressed_page_size ${stored} is neither its ${expected[0]}-byte page module ` +
            `nor its ${expected[1]}-byte plaintext`
        }
        found = true
        parts.push(longFieldHeader(T.I32, 3), varint(size * 2))
      } else {
        r.skip(type)
        if (!(dropCrc && id === 4)) parts.push(longFieldHeader(type, id), header.subarray(start, r.at))
      }
      lastId = id
    }
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    return `the decrypted page header does not decode: ${error.detail}`
  }
  if (!found) return 'the decrypted page header has no compressed_page_size'
  parts.push(new Uint8Array([0]))
  return concatBytes(parts)
}
