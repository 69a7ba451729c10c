// Dictionary pages of encrypted column chunks (parquet-format Encryption.md §4.4: the dictionary page
// header is module type 5, the page module type 3, neither with a page ordinal): both modules are read
// whole, decrypted (js/crypto/encrypted-pages.js), and the plaintext page handed back for the ordinary
// dictionary decoder (which the probe plan calls: this module, loaded on demand, then needs none of the
// index code, so the download of an unencrypted probe is not split into more chunks). Only AES_GCM_V1
// pages are used: AES_GCM_CTR_V1 encrypts pages with CTR, which authenticates nothing, and a verdict
// never comes from unauthenticated bytes.
import { moduleLength } from './aes-gcm.js'
import { decryptPage, EncryptedPageProblem, pagesAuthenticated } from './encrypted-pages.js'

/**
 * Whether a chunk's dictionary can be read authenticated: only when its pages are GCM modules.
 * @param {import('./encrypted-footer.js').ChunkCrypto | undefined} crypto
 */
export function dictionaryDecryptable(crypto) {
  return pagesAuthenticated(crypto)
}

/**
 * Decrypts the dictionary page read at the chunk's dictionary_page_offset (header module ‖ page module,
 * filling the range up to the data pages): `{ page }`, the plaintext page (header and data) to decode
 * like a plaintext one with an exact length, or `{ error }` for modules that authenticate but do not make
 * a page. Throws DECRYPTION_FAILED when a module does not authenticate.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @param {Uint8Array} bytes
 * @param {string} where the chunk, for errors
 * @returns {Promise<{ page: Uint8Array, error?: undefined }
 *   | { error: { reason: 'malformed-dictionary', detail: string }, page?: undefined }>}
 */
export async function decryptDictionary(crypto, bytes, where) {
  const headerEnd = Math.min(4 + Math.max(0, moduleLength(bytes)), bytes.length)
  let page
  try {
    // The page module fills the rest of the range: a length prefix that says otherwise fails authentication.
    page = await decryptPage(crypto, { header: bytes.subarray(0, headerEnd), page: bytes.subarray(headerEnd) }, 'dictionary',
      `${where}: dictionary page`)
  } catch (error) {
    if (error instanceof EncryptedPageProblem) {
      return { error: { reason: /** @type {'malformed-dictionary'} */ ('malformed-dictionary'), detail: error.message } }
    }
    throw error
  }
  return { page }
}
