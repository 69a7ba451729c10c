// Dictionary pages of encrypted column chunks (parquet-format Encryption.md §4.4: the dictionary page
// header is module type 5, the page module type 3, neither with a page ordinal): both modules are read
// whole, decrypted, and the plaintext page handed to the ordinary dictionary decoder. Only AES_GCM_V1
// pages are used: AES_GCM_CTR_V1 encrypts pages with CTR, which authenticates nothing, and a verdict
// never comes from unauthenticated bytes.
import { decodeDictionary } from '../dictionary.js'
import { decryptGcmModule, moduleLength } from './aes-gcm.js'
import { ModuleType } from './aad.js'
import { concatBytes, longFieldHeader, thriftStructPrefix, varint } from './thrift-rewrite.js'
import { CompactReader, Malformed, T } from '../thrift-compact.js'

/** Whether a chunk's dictionary can be read authenticated: only when its pages are GCM modules. */
export function dictionaryDecryptable(crypto) {
  return crypto?.algorithm === 'AES_GCM_V1'
}

/**
 * Decrypts the dictionary page read at the chunk's dictionary_page_offset (header module ‖ page module,
 * filling the range up to the data pages) and decodes it like a plaintext one. Throws DECRYPTION_FAILED
 * when a module does not authenticate; returns decodeDictionary's result otherwise.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @param {Uint8Array} bytes
 * @param {import('../dictionary.js').DecodeDictionaryOptions} options
 */
export async function decryptDictionary(crypto, bytes, options, where) {
  const headerEnd = 4 + Math.max(0, moduleLength(bytes))
  const [headerPlain, pagePlain] = await Promise.all([
    decryptGcmModule(crypto.keys.gcm, bytes.subarray(0, Math.min(headerEnd, bytes.length)), crypto.aad(ModuleType.DICTIONARY_PAGE_HEADER), `${where}: dictionary page header`),
    decryptGcmModule(crypto.keys.gcm, bytes.subarray(Math.min(headerEnd, bytes.length)), crypto.aad(ModuleType.DICTIONARY_PAGE), `${where}: dictionary page`),
  ])
  const header = thriftStructPrefix(headerPlain)
  if (header.problem !== undefined) return malformed(`the decrypted page header does not decode: ${header.problem}`)
  // In an encrypted chunk compressed_page_size counts the page module (length, nonce, ciphertext, tag):
  // the header must say so, and is then rewritten to the plaintext's size, giving a plaintext page.
  const rewritten = withCompressedPageSize(header.bytes, bytes.length - headerEnd, pagePlain.length)
  if (typeof rewritten === 'string') return malformed(rewritten)
  return decodeDictionary(concatBytes([rewritten, pagePlain]), { ...options, exact: true })
}

function malformed(detail) {
  return { error: { reason: /** @type {'malformed-dictionary'} */ ('malformed-dictionary'), detail } }
}

/**
 * The PageHeader struct with field 3 (compressed_page_size) set to `size`, when it says `expected`; every
 * other field copied as it is, under long-form field headers. Else the disagreement, as a sentence.
 */
function withCompressedPageSize(header, expected, size) {
  const r = new CompactReader(header)
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
        if (stored !== expected) return `the page header's compressed_page_size ${stored} is not its ${expected}-byte page module`
        found = true
        parts.push(longFieldHeader(T.I32, 3), varint(size * 2))
      } else {
        r.skip(type)
        parts.push(longFieldHeader(type, id), header.subarray(start, r.at))
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
