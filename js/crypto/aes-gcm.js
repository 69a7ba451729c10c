// Decrypts (and, for writers, seals) Parquet modular-encryption modules with WebCrypto (parquet-format
// Encryption.md §4.2, §5.1): a GCM module is length (4 bytes LE) ‖ nonce (12) ‖ ciphertext ‖ tag (16),
// authenticated whole with its AAD; a plaintext footer's signature is nonce ‖ tag (§5.5). (A CTR page
// module of AES_GCM_CTR_V1 is never decrypted: nothing authenticates it.) No cryptography of our own.
import { ErrorCode, ParquetBloomError } from '../errors.js'

const NONCE_BYTES = 12
const TAG_BYTES = 16
const LENGTH_BYTES = 4
/** Bytes a GCM module adds to its plaintext: length, nonce and tag. */
export const GCM_MODULE_OVERHEAD = LENGTH_BYTES + NONCE_BYTES + TAG_BYTES

/** @type {Promise<Crypto> | undefined} */
let webCryptoPromise
/** WebCrypto: globalThis.crypto in browsers, workers and Node ≥ 19; node:crypto's in Node 18. */
function webCrypto() {
  webCryptoPromise ??= (async () => (globalThis.crypto?.subtle
    ? globalThis.crypto
    : /** @type {Crypto} */ ((await import('node:crypto')).webcrypto)))()
  return webCryptoPromise
}

/**
 * `bytes` typed as the BufferSource WebCrypto's types ask for (a view of an ArrayBuffer). Nothing changes at
 * run time: WebCrypto refuses a view of a SharedArrayBuffer itself, as it always did.
 * @param {Uint8Array} bytes
 */
const bufferSource = (bytes) => /** @type {Uint8Array<ArrayBuffer>} */ (bytes)

/** WebCrypto's SubtleCrypto. */
export async function subtleCrypto() {
  return (await webCrypto()).subtle
}

/**
 * The length a module declares in its first 4 bytes (the bytes after them), or -1 when fewer are there.
 * @param {Uint8Array} bytes @param {number} [at]
 */
export function moduleLength(bytes, at = 0) {
  if (bytes.length - at < LENGTH_BYTES) return -1
  return new DataView(bytes.buffer, bytes.byteOffset + at, LENGTH_BYTES).getUint32(0, true)
}

/**
 * The plaintext of one whole GCM module (`bytes` is exactly the module, length prefix included).
 * @param {CryptoKey} key an AES-GCM key from importKeys
 * @param {Uint8Array} bytes
 * @param {Uint8Array} aad
 * @param {string} what the module, for the error ("row group 0, column x: bloom filter header")
 */
export async function decryptGcmModule(key, bytes, aad, what) {
  const declared = moduleLength(bytes)
  if (declared < NONCE_BYTES + TAG_BYTES || declared !== bytes.length - LENGTH_BYTES) {
    throw decryptionFailed(what, declared < 0 ? 'the module is shorter than its length field'
      : `the module declares ${declared} bytes but ${Math.max(0, bytes.length - LENGTH_BYTES)} are there ` +
        `(at least ${NONCE_BYTES + TAG_BYTES} needed)`)
  }
  const subtle = await subtleCrypto()
  const nonce = bytes.subarray(LENGTH_BYTES, LENGTH_BYTES + NONCE_BYTES)
  try {
    const plain = await subtle.decrypt(
      { name: 'AES-GCM', iv: bufferSource(nonce), additionalData: bufferSource(aad), tagLength: TAG_BYTES * 8 }, key,
      bufferSource(bytes.subarray(LENGTH_BYTES + NONCE_BYTES)))
    return new Uint8Array(plain)
  } catch (error) {
    // WebCrypto says only "OperationError": a wrong key, a wrong AAD and tampered bytes look the same.
    throw decryptionFailed(what, 'authentication failed (wrong key or AAD prefix, or the bytes were altered)', error)
  }
}

/**
 * Checks a plaintext footer's signature (§5.5): GCM-encrypting the footer with the stored nonce and the
 * footer AAD must give the stored tag.
 * @param {CryptoKey} key an AES-GCM key with 'encrypt' usage
 * @param {Uint8Array} footer the serialized FileMetaData
 * @param {Uint8Array} signature nonce (12) ‖ tag (16)
 * @param {Uint8Array} aad the footer AAD
 * @param {string} what the footer, for the error
 */
export async function verifyFooterSignature(key, footer, signature, aad, what) {
  if (signature.length !== NONCE_BYTES + TAG_BYTES) {
    throw decryptionFailed(what, `the footer signature is ${signature.length} bytes, not ${NONCE_BYTES + TAG_BYTES}`)
  }
  const subtle = await subtleCrypto()
  const sealed = new Uint8Array(await subtle.encrypt(
    { name: 'AES-GCM', iv: bufferSource(signature.subarray(0, NONCE_BYTES)), additionalData: bufferSource(aad), tagLength: TAG_BYTES * 8 },
    key, bufferSource(footer)))
  const tag = sealed.subarray(sealed.length - TAG_BYTES)
  let diff = 0
  for (let i = 0; i < TAG_BYTES; i++) diff |= tag[i] ^ signature[NONCE_BYTES + i]
  if (diff !== 0) {
    throw decryptionFailed(what, 'the footer signature does not match (wrong footer key or AAD prefix, or the footer was altered)')
  }
}

/**
 * One GCM module sealing `plaintext` under `aad`, with a fresh random nonce (a nonce is never used twice
 * with one key: 96 random bits, as the spec's writers draw them).
 * @param {CryptoKey} key an AES-GCM key with 'encrypt' usage
 * @param {Uint8Array} plaintext @param {Uint8Array} aad
 * @returns {Promise<Uint8Array>} length ‖ nonce ‖ ciphertext ‖ tag
 */
export async function encryptGcmModule(key, plaintext, aad) {
  const crypto = await webCrypto()
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES))
  const sealed = new Uint8Array(await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: bufferSource(aad), tagLength: TAG_BYTES * 8 }, key, bufferSource(plaintext)))
  const module = new Uint8Array(LENGTH_BYTES + NONCE_BYTES + sealed.length)
  new DataView(module.buffer).setUint32(0, NONCE_BYTES + sealed.length, true)
  module.set(nonce, LENGTH_BYTES)
  module.set(sealed, LENGTH_BYTES + NONCE_BYTES)
  return module
}

/**
 * A plaintext footer's signature (§5.5): a fresh nonce and the tag of GCM-encrypting the footer with it
 * under the footer AAD — what verifyFooterSignature checks.
 * @param {CryptoKey} key @param {Uint8Array} footer @param {Uint8Array} aad
 * @returns {Promise<Uint8Array>} nonce (12) ‖ tag (16)
 */
export async function signFooter(key, footer, aad) {
  const module = await encryptGcmModule(key, footer, aad)
  const signature = new Uint8Array(NONCE_BYTES + TAG_BYTES)
  signature.set(module.subarray(LENGTH_BYTES, LENGTH_BYTES + NONCE_BYTES))
  signature.set(module.subarray(module.length - TAG_BYTES), NONCE_BYTES)
  return signature
}

/**
 * The WebCrypto key for raw key bytes: AES-GCM (decrypt + encrypt, for footer signatures), not
 * extractable. No AES-CTR key: AES_GCM_CTR_V1 pages are never decrypted, since nothing authenticates
 * them (js/confirm/confirm.js, js/crypto/encrypted-dictionary.js refuse them).
 * @param {Uint8Array} raw 16, 24 or 32 bytes
 * @returns {Promise<{ gcm: CryptoKey }>}
 */
export async function importKeys(raw) {
  const subtle = await subtleCrypto()
  return { gcm: await subtle.importKey('raw', bufferSource(raw), { name: 'AES-GCM' }, false, ['decrypt', 'encrypt']) }
}

/** DECRYPTION_FAILED naming the module; never a key. @param {string} what @param {string} why @param {unknown} [cause] */
export function decryptionFailed(what, why, cause) {
  return new ParquetBloomError(ErrorCode.DECRYPTION_FAILED, `${what}: cannot decrypt: ${why}`, { cause, field: what })
}
