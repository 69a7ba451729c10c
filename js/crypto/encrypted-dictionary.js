// Dictionary pages of encrypted column chunks (parquet-format Encryption.md §4.4: the dictionary page
// header is module type 5, the page module type 3, neither with a page ordinal): both modules are read
// whole, decrypted (js/crypto/encrypted-pages.js), and the plaintext page handed to the ordinary
// dictionary decoder. Only AES_GCM_V1 pages are used: AES_GCM_CTR_V1 encrypts pages with CTR, which
// authenticates nothing, and a verdict never comes from unauthenticated bytes.
import { decodeDictionary } from '../indexes/dictionary.js'
import { moduleLength } from './aes-gcm.js'
import { decryptPage, EncryptedPageProblem, pagesAuthenticated } from './encrypted-pages.js'

/** Whether a chunk's dictionary can be read authenticated: only when its pages are GCM modules. */
export function dictionaryDecryptable(crypto) {
  return pagesAuthenticated(crypto)
}

/**
 * Decrypts the dictionary page read at the chunk's dictionary_page_offset (header module ‖ page module,
 * filling the range up to the data pages) and decodes it like a plaintext one. Throws DECRYPTION_FAILED
 * when a module does not authenticate; returns decodeDictionary's result otherwise.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @param {Uint8Array} bytes
 * @param {import('../indexes/dictionary.js').DecodeDictionaryOptions} options
 */
export async function decryptDictionary(crypto, bytes, options, where) {
  const headerEnd = Math.min(4 + Math.max(0, moduleLength(bytes)), bytes.length)
  let page
  try {
    // The page module fills the rest of the range: a length prefix that says otherwise fails authentication.
    page = await decryptPage(crypto, { header: bytes.subarray(0, headerEnd), page: bytes.subarray(headerEnd) }, 'dictionary', `${where}: dictionary page`)
  } catch (error) {
    if (error instanceof EncryptedPageProblem) return { error: { reason: /** @type {'malformed-dictionary'} */ ('malformed-dictionary'), detail: error.message } }
    throw error
  }
  return decodeDictionary(page, { ...options, exact: true })
}
