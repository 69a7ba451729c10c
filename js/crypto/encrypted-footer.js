// Opens the footer of a file protected by Parquet modular encryption (parquet-format Encryption.md
// §5.3–5.5): an encrypted footer (PARE: FileCryptoMetaData ‖ footer module) is decrypted with the
// footer key; a plaintext footer's signature is verified when the footer key is given. Each column's
// encrypted ColumnMetaData is decrypted with its key and spliced in as ColumnChunk.meta_data, so the
// wasm decoder sees ordinary metadata, and each encrypted chunk keeps a crypto context for later reads.
import { ErrorCode, ParquetBloomError } from '../errors.js'
// footer.js imports this module too: its bindings are used only at run time, after both have loaded.
import { CompactReader, Malformed, T } from '../format/thrift-compact.js'
import { decryptGcmModule, decryptionFailed, verifyFooterSignature } from './aes-gcm.js'
import { moduleAad, ModuleType } from './aad.js'
import { decodeFileCryptoMetaData, FileDecryption, readEncryptionAlgorithm } from './file-crypto.js'
import { concatBytes } from '../format/bytes.js'
import { longFieldHeader, thriftStructPrefix } from '../format/thrift-writer.js'

const SIGNATURE_BYTES = 28
const utf8 = new TextDecoder()

/**
 * One encrypted chunk: what its module reads need, or why they cannot be made.
 * @typedef {{ rowGroupOrdinal: number, columnOrdinal: number, path: string, keys: { gcm: CryptoKey },
 *   aad: (moduleType: number, page?: number) => Uint8Array, algorithm: string, missing?: undefined }} ChunkKeys
 *   aad: the AAD of one of the chunk's modules (js/crypto/aad.js)
 * @typedef {ChunkKeys | { missing: string, path: string, algorithm?: undefined }} ChunkCrypto
 * @typedef {{ bytes: Uint8Array, keys: { gcm: CryptoKey } | null, aad: Uint8Array, cryptoMetaData?: Uint8Array,
 *   emptyAad: boolean }} FooterCrypto
 *   the footer as the file stores it, for a writer that re-seals it (js/index-builder/encrypted-output.js): the
 *   plaintext FileMetaData before any ColumnMetaData was decrypted into it, the footer key (null when not given),
 *   the footer's AAD, an encrypted footer's FileCryptoMetaData bytes, and whether the file's modules have empty AADs (DuckDB's)
 * @typedef {{ algorithm: string, encryptedFooter: boolean, chunks: Array<ChunkCrypto | undefined>, footer: FooterCrypto }} FileCrypto
 * @typedef {{ footerKey: boolean, path?: string[], keyMetadata?: Uint8Array }} ColumnCryptoMetaData
 *   { footerKey: true } (encrypted with the footer key) or { footerKey: false, path, keyMetadata } (with its column's)
 * @typedef {{ id: number, type: number, valueStart: number, valueEnd: number }} ChunkField one field of a ColumnChunk
 * @typedef {{ start: number, end: number, fields: ChunkField[], columnOrdinal: number, rowGroupOrdinal: number,
 *   crypto: ColumnCryptoMetaData | null, encryptedMetaData: Uint8Array | null }} WalkedChunk
 *   a ColumnChunk of the serialized FileMetaData: its extent, its fields' and what its encryption needs
 * @typedef {{ chunk: WalkedChunk, plaintext: Uint8Array }} Splice a chunk's decrypted ColumnMetaData, to splice in as its field 3
 */

/**
 * @param {Uint8Array} region the bytes between the data and the footer length
 * @param {{ encryptedFooter: boolean, decryption: import('./file-crypto.js').DecryptionOptions | undefined, where: string,
 *   metadataOffset: number, decode: (bytes: Uint8Array) => import('../footer/footer.js').FileLayout }} context
 *   `decode` is decodeFileMetaData
 * @returns {Promise<import('../footer/footer.js').FileLayout>} with `crypto` (FileCrypto) when the file is encrypted
 */
export async function openEncryptedFooter(region, { encryptedFooter, decryption, where, metadataOffset, decode }) {
  if (encryptedFooter) {
    let fileCrypto
    try {
      fileCrypto = decodeFileCryptoMetaData(region)
    } catch (error) {
      if (!(error instanceof Malformed)) throw error
      throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: malformed FileCryptoMetaData: ${error.detail}`,
        { source: where, offset: metadataOffset, field: 'FileCryptoMetaData' })
    }
    const files = new FileDecryption(decryption ?? {}, fileCrypto.algorithm, where)
    const footerKeys = await files.footerKey(fileCrypto.keyMetadata)
    if (!footerKeys) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTION_KEY_REQUIRED,
        `${where}: the footer is encrypted: pass decryption.footerKey` +
        `${fileCrypto.keyMetadata ? ' (or a keyRetriever for its key metadata)' : ''}`, { source: where, field: 'footer' })
    }
    const module = region.subarray(fileCrypto.length)
    const plaintext = await decryptFooterModule(files, footerKeys, module, where)
    const footer = {
      bytes: plaintext, keys: footerKeys, aad: footerAad(files),
      cryptoMetaData: region.subarray(0, fileCrypto.length), emptyAad: files.emptyAad,
    }
    return withColumns(plaintext, decode(plaintext), files, footer, true, where, decode)
  }
  const layout = decode(region)
  if (!layout.encryptedColumns || !decryption) return layout
  // A plaintext footer with an encryption_algorithm: the algorithm is in FileMetaData field 8.
  const { algorithm, footerEnd, signingKeyMetadata } = plaintextFooterAlgorithm(region, where)
  const files = new FileDecryption(decryption, algorithm, where)
  // The signing key's metadata goes to a keyRetriever as an encrypted footer's does: without it, a footer
  // signed under a KMS key would go unverified (and columns under that key unread).
  const footerKeys = await files.footerKey(signingKeyMetadata)
  const footer = region.subarray(0, footerEnd)
  if (footerKeys) {
    // Without the footer key the footer cannot be verified; it is then trusted as any plaintext footer is.
    await verifyFooterSignature(footerKeys.gcm, footer, region.subarray(footerEnd), footerAad(files), `${where}: footer signature`)
  }
  return withColumns(footer, layout, files, { bytes: footer, keys: footerKeys, aad: footerAad(files), emptyAad: false },
    false, where, decode)
}

/** The footer module's AAD: the spec's, or DuckDB's empty one (files.emptyAad). @param {FileDecryption} files */
function footerAad(files) {
  return files.emptyAad ? new Uint8Array(0) : moduleAad(files.fileAad, ModuleType.FOOTER)
}

/**
 * The footer module's plaintext. DuckDB (1.x) writes no aad_file_unique and encrypts every module with
 * an empty AAD, not the spec's: a file with neither AAD prefix nor file identifier whose footer
 * authenticates only with an empty AAD is read that way throughout (files.emptyAad). Still
 * authenticated by the key; only module swapping within the file goes undetected, as it does for DuckDB.
 * @param {FileDecryption} files @param {{ gcm: CryptoKey }} footerKeys @param {Uint8Array} module @param {string} where
 */
async function decryptFooterModule(files, footerKeys, module, where) {
  try {
    return await decryptGcmModule(footerKeys.gcm, module, moduleAad(files.fileAad, ModuleType.FOOTER), `${where}: footer`)
  } catch (error) {
    const code = /** @type {{ code?: unknown } | undefined} */ (error)?.code
    if (files.fileAad.length !== 0 || code !== ErrorCode.DECRYPTION_FAILED) throw error
    const plaintext = await decryptGcmModule(footerKeys.gcm, module, new Uint8Array(0), `${where}: footer`).catch(() => { throw error })
    files.emptyAad = true
    return plaintext
  }
}

/**
 * FileMetaData's encryption_algorithm, footer_signing_key_metadata and where the struct ends (its signature follows).
 * @param {Uint8Array} region @param {string} where
 */
function plaintextFooterAlgorithm(region, where) {
  const r = new CompactReader(region)
  /** @type {import('./file-crypto.js').EncryptionAlgorithm | undefined} */
  let algorithm
  /** @type {Uint8Array | null} */
  let signingKeyMetadata = null
  try {
    let lastId = 0
    for (;;) {
      const { id, type } = r.fieldHeader(lastId)
      if (type === 0) break
      if (id === 8 && type === T.STRUCT) algorithm = readEncryptionAlgorithm(r)
      else if (id === 9 && type === T.BINARY) signingKeyMetadata = r.binary().slice()
      else r.skip(type)
      lastId = id
    }
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: malformed footer: ${error.detail}`,
      { source: where, field: 'FileMetaData' })
  }
  if (!algorithm) {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: the footer's encryption_algorithm does not decode`,
      { source: where, field: 'encryption_algorithm' })
  }
  if (region.length - r.at !== SIGNATURE_BYTES) {
    throw decryptionFailed(`${where}: footer signature`,
      `${region.length - r.at} bytes follow the footer where its 28-byte signature should be`)
  }
  return { algorithm, footerEnd: r.at, signingKeyMetadata }
}

/**
 * Decrypts every encrypted ColumnMetaData it has a key for, splices them in, and decodes the result once
 * more when anything changed. Chunks are visited in the decoder's order (row group-major).
 * @param {Uint8Array} footer @param {import('../footer/footer.js').FileLayout} layout @param {FileDecryption} files
 * @param {FooterCrypto} footerCrypto
 * @param {boolean} encryptedFooter @param {string} where @param {(bytes: Uint8Array) => import('../footer/footer.js').FileLayout} decode
 */
async function withColumns(footer, layout, files, footerCrypto, encryptedFooter, where, decode) {
  const footerKeys = footerCrypto.keys
  const walk = walkChunks(footer, where)
  const names = layout.columns.map((c) => c.name)
  /** @type {Array<ChunkCrypto | undefined>} */
  const chunks = new Array(walk.chunks.length)
  /** @type {Splice[]} */
  const splices = []
  await Promise.all(walk.chunks.map(async (chunk, index) => {
    // DuckDB encrypts every column with the footer key without saying so per chunk.
    if (!chunk.crypto && files.emptyAad) chunk.crypto = { footerKey: true }
    if (!chunk.crypto) return
    const columnOrdinal = chunk.columnOrdinal
    const path = names[columnOrdinal] ?? chunk.crypto.path?.join('.') ?? `#${columnOrdinal}`
    const keys = chunk.crypto.footerKey ? footerKeys : await files.columnKey(path, chunk.crypto.keyMetadata)
    if (!keys) {
      chunks[index] = {
        missing: chunk.crypto.footerKey
          ? 'no footer key was given (this column is encrypted with it)'
          : `no key was given for column ${path}`,
        path,
      }
      return
    }
    const { rowGroupOrdinal } = chunk
    /** @type {ChunkKeys['aad']} */
    const aad = (moduleType, page) => {
      if (files.emptyAad) return new Uint8Array(0)
      try {
        return moduleAad(files.fileAad, moduleType, rowGroupOrdinal, columnOrdinal, page)
      } catch (error) {
        // An ordinal no module can have (they are 16-bit): from a footer no key authenticated (a plaintext
        // footer read without its footer key), so the file's doing, and typed like any module that cannot be read.
        throw decryptionFailed(`${where}: row group ${rowGroupOrdinal}, column ${path}`, /** @type {Error} */ (error).message)
      }
    }
    const context = { rowGroupOrdinal, columnOrdinal, path, keys, aad, algorithm: files.algorithm.algorithm }
    chunks[index] = context
    if (chunk.encryptedMetaData) {
      const what = `${where}: row group ${rowGroupOrdinal}, column ${path}: column metadata`
      const plaintext = await decryptGcmModule(keys.gcm, chunk.encryptedMetaData, aad(ModuleType.COLUMN_META_DATA), what)
      const struct = thriftStructPrefix(plaintext)
      if (struct.problem !== undefined) {
        throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${what}: the decrypted ColumnMetaData does not decode: ${struct.problem}`,
          { source: where, field: 'encrypted_column_metadata' })
      }
      splices.push({ chunk, plaintext: struct.bytes })
    }
  }))
  // Statistics are read from layout.footerBytes on demand: they must point into the rewritten bytes.
  const out = splices.length ? decode(spliceColumnMetaData(footer, splices)) : layout
  out.crypto = { algorithm: files.algorithm.algorithm, encryptedFooter, chunks, footer: footerCrypto }
  // Every key is resolved now: what stays for the file's life are non-extractable CryptoKeys.
  files.forget()
  return out
}

/**
 * Every ColumnChunk of a FileMetaData with the byte extents of its fields, its ordinals and its
 * crypto_metadata (ColumnCryptoMetaData). Throws MALFORMED_FOOTER.
 * @param {Uint8Array} bytes @param {string} where
 */
function walkChunks(bytes, where) {
  const r = new CompactReader(bytes)
  /** @type {WalkedChunk[]} */
  const chunks = []
  try {
    let lastId = 0
    for (;;) {
      const { id, type } = r.fieldHeader(lastId)
      if (type === 0) break
      if (id === 4 && type === T.LIST) {
        const count = r.expectList(type, 'row_groups', T.STRUCT)
        for (let g = 0; g < count; g++) readRowGroup(r, g, chunks)
      } else r.skip(type)
      lastId = id
    }
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: malformed footer: ${error.detail}`,
      { source: where, field: 'row_groups' })
  }
  return { chunks }
}

/** @param {CompactReader} r @param {number} g the row group's place @param {WalkedChunk[]} chunks */
function readRowGroup(r, g, chunks) {
  const first = chunks.length
  /** @type {number | undefined} */
  let ordinal
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    if (id === 1 && type === T.LIST) {
      const count = r.expectList(type, 'columns', T.STRUCT)
      for (let c = 0; c < count; c++) chunks.push(readColumnChunk(r, c))
    } else if (id === 7 && type === T.I16) ordinal = r.zigzag()
    else r.skip(type)
    lastId = id
  }
  // RowGroup.ordinal is authenticated with the footer; without it the ordinal is the row group's place.
  for (let k = first; k < chunks.length; k++) chunks[k].rowGroupOrdinal = ordinal ?? g
}

/** @param {CompactReader} r @param {number} columnOrdinal @returns {WalkedChunk} */
function readColumnChunk(r, columnOrdinal) {
  const start = r.at
  /** @type {ChunkField[]} */
  const fields = []
  /** @type {WalkedChunk} */
  const chunk = { start, end: 0, fields, columnOrdinal, rowGroupOrdinal: 0, crypto: null, encryptedMetaData: null }
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    const valueStart = r.at
    if (id === 8 && type === T.STRUCT) chunk.crypto = readColumnCrypto(r)
    else if (id === 9 && type === T.BINARY) chunk.encryptedMetaData = r.binary()
    else r.skip(type)
    fields.push({ id, type, valueStart, valueEnd: r.at })
    lastId = id
  }
  chunk.end = r.at
  return chunk
}

/**
 * ColumnCryptoMetaData: { footerKey: true } or { path, keyMetadata }.
 * @param {CompactReader} r
 * @returns {ColumnCryptoMetaData}
 */
function readColumnCrypto(r) {
  /** @type {ColumnCryptoMetaData | null} */
  let out = null
  let lastId = 0
  for (;;) {
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) break
    if (id === 1 && type === T.STRUCT) {
      r.skip(type)
      out = { footerKey: true }
    } else if (id === 2 && type === T.STRUCT) {
      /** @type {string[]} */
      const path = []
      out = { footerKey: false, path, keyMetadata: undefined }
      let inner = 0
      for (;;) {
        const field = r.fieldHeader(inner)
        if (field.type === 0) break
        if (field.id === 1 && field.type === T.LIST) {
          const count = r.expectList(field.type, 'path_in_schema', T.BINARY)
          for (let i = 0; i < count; i++) path.push(utf8.decode(r.binary()))
        } else if (field.id === 2 && field.type === T.BINARY) out.keyMetadata = r.binary().slice()
        else r.skip(field.type)
        inner = field.id
      }
    } else r.skip(type)
    lastId = id
  }
  if (!out) throw new Malformed('a ColumnCryptoMetaData names no key')
  return out
}

/**
 * The FileMetaData with each edited ColumnChunk re-serialized: its fields copied as they are, under
 * long-form field headers (always valid, whatever the previous id), field 9 replaced by field 3 holding
 * the decrypted ColumnMetaData, and any stripped field 3 (plaintext footers) dropped.
 * @param {Uint8Array} bytes the FileMetaData
 * @param {Splice[]} splices
 */
function spliceColumnMetaData(bytes, splices) {
  splices.sort((a, b) => a.chunk.start - b.chunk.start)
  /** @type {Uint8Array[]} */
  const parts = []
  let at = 0
  for (const { chunk, plaintext } of splices) {
    parts.push(bytes.subarray(at, chunk.start))
    for (const field of chunk.fields) {
      if (field.id === 3) continue
      if (field.id === 9) {
        parts.push(longFieldHeader(T.STRUCT, 3), plaintext)
        continue
      }
      parts.push(longFieldHeader(field.type, field.id), bytes.subarray(field.valueStart, field.valueEnd))
    }
    parts.push(new Uint8Array([0]))
    at = chunk.end
  }
  parts.push(bytes.subarray(at))
  return concatBytes(parts)
}
