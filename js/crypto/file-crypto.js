// The file's encryption (parquet-format Encryption.md §5.2, §5.4): FileCryptoMetaData and the
// EncryptionAlgorithm union decoded from Thrift, and the caller's keys — footer key, column keys by
// path, or a keyRetriever for files that carry key metadata — turned into WebCrypto keys. Raw key bytes
// live only in this object, which lives as long as the file; they are never logged or put in messages.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { CompactReader, Malformed, T } from '../format/thrift-compact.js'
import { importKeys } from './aes-gcm.js'

const KEY_LENGTHS = [16, 24, 32]
const utf8 = new TextEncoder()

/**
 * @typedef {{ footerKey?: Uint8Array | string, columnKeys?: Record<string, Uint8Array | string>,
 *   aadPrefix?: Uint8Array | string, keyRetriever?: (keyMetadata: Uint8Array, context: { column?: string }) => unknown }} DecryptionOptions
 * @typedef {{ algorithm: 'AES_GCM_V1' | 'AES_GCM_CTR_V1', aadPrefix?: Uint8Array, aadFileUnique: Uint8Array,
 *   supplyAadPrefix: boolean }} EncryptionAlgorithm
 */

/**
 * Decodes FileCryptoMetaData: { algorithm, keyMetadata? }. Throws Malformed.
 * @param {Uint8Array} bytes
 * @returns {{ algorithm: EncryptionAlgorithm, keyMetadata: Uint8Array | undefined, length: number }}
 */
export function decodeFileCryptoMetaData(bytes) {
  const r = new CompactReader(bytes)
  /** @type {EncryptionAlgorithm | undefined} */
  let algorithm
  /** @type {Uint8Array | undefined} */
  let keyMetadata
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    if (id === 1 && type === T.STRUCT) algorithm = readEncryptionAlgorithm(r)
    else if (id === 2 && type === T.BINARY) keyMetadata = r.binary()
    else r.skip(type)
    lastId = id
  }
  if (!algorithm) throw new Malformed('FileCryptoMetaData has no encryption_algorithm')
  return { algorithm, keyMetadata, length: r.at }
}

/**
 * Reads the EncryptionAlgorithm union (its field header already read). Throws Malformed.
 * @param {CompactReader} r
 * @returns {EncryptionAlgorithm}
 */
export function readEncryptionAlgorithm(r) {
  /** @type {EncryptionAlgorithm | undefined} */
  let algorithm
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    if ((id === 1 || id === 2) && type === T.STRUCT) {
      if (algorithm) throw new Malformed('EncryptionAlgorithm sets more than one algorithm')
      algorithm = readAesParameters(r, id === 1 ? 'AES_GCM_V1' : 'AES_GCM_CTR_V1')
    } else r.skip(type)
    lastId = id
  }
  if (!algorithm) throw new Malformed('EncryptionAlgorithm names no algorithm this reader knows')
  return algorithm
}

/** @param {CompactReader} r @param {EncryptionAlgorithm['algorithm']} name */
function readAesParameters(r, name) {
  /** @type {EncryptionAlgorithm} */
  const out = { algorithm: name, aadPrefix: undefined, aadFileUnique: new Uint8Array(0), supplyAadPrefix: false }
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    if (id === 1 && type === T.BINARY) out.aadPrefix = r.binary().slice()
    else if (id === 2 && type === T.BINARY) out.aadFileUnique = r.binary().slice()
    else if (id === 3 && (type === T.TRUE || type === T.FALSE)) out.supplyAadPrefix = type === T.TRUE
    else r.skip(type)
    lastId = id
  }
  return out
}

/**
 * A key as bytes: a Uint8Array of 16, 24 or 32 bytes, or a string (its UTF-8 bytes). Copied.
 * @param {unknown} key @param {string} what the option it came from, for the error
 */
export function keyBytes(key, what) {
  const bytes = typeof key === 'string' ? utf8.encode(key) : key instanceof Uint8Array ? key.slice() : null
  if (!bytes || !KEY_LENGTHS.includes(bytes.length)) {
    // The length is safe to say; the key is not.
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `${what} must be a Uint8Array of 16, 24 or 32 bytes or a string of that many UTF-8 bytes` +
      `${bytes ? ` (got ${bytes.length} bytes)` : ''}`)
  }
  return bytes
}

/**
 * The keys and AAD of one encrypted file. `footerKey()` and `columnKey()` resolve lazily (the retriever
 * may be asynchronous) and cache the imported WebCrypto keys, so each key is imported once.
 */
export class FileDecryption {
  /**
   * @param {DecryptionOptions} options
   * @param {EncryptionAlgorithm} algorithm
   * @param {string} where the file, for messages
   */
  constructor(options, algorithm, where) {
    this.where = where
    this.algorithm = algorithm
    this.options = options
    /** @type {Map<string, Promise<{ gcm: CryptoKey } | null>>} imported keys by slot ('footer', 'column a.b') */
    this.cache = new Map()
    /** Set when the footer authenticated only with an empty AAD (DuckDB's files; js/crypto/encrypted-footer.js). */
    this.emptyAad = false
    const supplied = options.aadPrefix !== undefined
      ? (typeof options.aadPrefix === 'string' ? utf8.encode(options.aadPrefix) : options.aadPrefix)
      : undefined
    if (supplied !== undefined && !(supplied instanceof Uint8Array)) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'decryption.aadPrefix must be a string or a Uint8Array')
    }
    if (algorithm.supplyAadPrefix && supplied === undefined && !algorithm.aadPrefix) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTION_KEY_REQUIRED,
        `${where}: the file was encrypted with an AAD prefix it does not store: pass decryption.aadPrefix`,
        { source: where, field: 'aad_prefix' })
    }
    // A supplied prefix wins: a stored one that differs then fails authentication, which is the point.
    const prefix = supplied ?? algorithm.aadPrefix ?? new Uint8Array(0)
    this.fileAad = new Uint8Array(prefix.length + algorithm.aadFileUnique.length)
    this.fileAad.set(prefix)
    this.fileAad.set(algorithm.aadFileUnique, prefix.length)
  }

  /** Drops the caller's options (raw keys, the retriever) once every key the file needs is imported. */
  forget() {
    this.options = {}
    this.cache.clear()
  }

  /**
   * The footer key's WebCrypto keys, or null when none was given or retrieved.
   * @param {Uint8Array | null} [keyMetadata]
   */
  footerKey(keyMetadata) {
    return this.#resolve('footer', this.options.footerKey, keyMetadata, undefined, 'decryption.footerKey')
  }

  /**
   * A column's keys (columnKeys by dotted path, else keyRetriever), or null.
   * @param {string} path @param {Uint8Array} [keyMetadata]
   */
  columnKey(path, keyMetadata) {
    return this.#resolve(`column ${path}`, this.options.columnKeys?.[path], keyMetadata, path,
      `decryption.columnKeys[${JSON.stringify(path)}]`)
  }

  /**
   * @param {string} slot @param {Uint8Array | string | undefined} given @param {Uint8Array | null | undefined} keyMetadata
   * @param {string | undefined} column @param {string} what
   * @returns {Promise<{ gcm: CryptoKey } | null>}
   */
  #resolve(slot, given, keyMetadata, column, what) {
    let entry = this.cache.get(slot)
    if (!entry) {
      entry = (async () => {
        /** @type {unknown} */
        let key = given
        if (key === undefined && typeof this.options.keyRetriever === 'function' && keyMetadata) {
          key = await this.options.keyRetriever(keyMetadata, column === undefined ? {} : { column })
        }
        if (key === undefined || key === null) return null
        return importKeys(keyBytes(key, given === undefined ? `the key keyRetriever returned for the ${slot}` : what))
      })()
      this.cache.set(slot, entry)
    }
    return entry
  }
}
