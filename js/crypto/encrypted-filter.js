// The indexes of encrypted column chunks (parquet-format Encryption.md §4.4): bloom filters (module
// types 8 and 9: the header module and the bitset module read whole — GCM authenticates a module only
// whole, so never by block — decrypted concurrently, then checked like a plaintext filter by
// js/indexes/bloom-reads.js, which also sets the size limits: this module, loaded on demand, reaches
// none of the index code) and page indexes (ColumnIndex 6, OffsetIndex 7).
import { decryptGcmModule, decryptionFailed, GCM_MODULE_OVERHEAD, moduleLength } from './aes-gcm.js'
import { ModuleType } from './aad.js'
import { thriftStructPrefix } from '../format/thrift-writer.js'

/**
 * Reads a chunk's two filter modules: with bloom_filter_length in one range, else the header module's
 * length first. Hands `{ header, bitset }` (the two modules, length prefixes included) to `onModules`.
 * `limits`: the largest plaintext header and bitset a filter may have.
 * @typedef {{ header: Uint8Array, bitset: Uint8Array, error?: undefined }
 *   | { error: import('../errors.js').ParquetBloomError, header?: undefined, bitset?: undefined }} FilterModules
 *   the two modules as read, or why they could not be
 */
export class EncryptedFilterTask {
  /** What its reads are for, in a read plan (js/sources/io-ledger.js). */
  purpose = 'bloom'

  /**
   * @param {{ offset: number, length: number | undefined, bound: number }} location @param {string} where
   * @param {(modules: FilterModules) => void} onModules @param {{ maxHeaderBytes: number, maxFilterBytes: number }} limits
   */
  constructor(location, where, onModules, limits) {
    this.limits = limits
    this.offset = location.offset
    this.length = location.length
    this.bound = location.bound
    this.where = where
    this.onModules = onModules
  }

  /**
   * @param {(start: number, end: number) => Uint8Array | undefined} lookup
   * @returns {Array<{ start: number, end: number }> | null}
   */
  step(lookup) {
    const { offset } = this
    if (this.length !== undefined) {
      const bytes = lookup(offset, offset + this.length)
      if (!bytes) return [{ start: offset, end: offset + this.length }]
      const headerEnd = 4 + Math.max(0, moduleLength(bytes))
      this.onModules({
        header: bytes.subarray(0, Math.min(headerEnd, bytes.length)),
        bitset: bytes.subarray(Math.min(headerEnd, bytes.length)),
      })
      return null
    }
    const prefix = lookup(offset, offset + 4)
    if (!prefix) return [{ start: offset, end: Math.min(offset + 4, this.bound) }]
    const headerLength = moduleLength(prefix)
    const headerEnd = offset + 4 + headerLength
    if (headerLength > this.limits.maxHeaderBytes + GCM_MODULE_OVERHEAD || headerEnd + 4 > this.bound) {
      this.onModules({
        error: decryptionFailed(`${this.where}: bloom filter header`,
          `the module declares ${headerLength} bytes, more than a filter header can take here`),
      })
      return null
    }
    const head = lookup(offset, headerEnd + 4)
    if (!head) return [{ start: offset, end: headerEnd + 4 }]
    const bitsetLength = moduleLength(head, headerEnd - offset)
    const end = headerEnd + 4 + bitsetLength
    if (bitsetLength > this.limits.maxFilterBytes + GCM_MODULE_OVERHEAD || end > this.bound) {
      this.onModules({
        error: decryptionFailed(`${this.where}: bloom filter bitset`,
          `the module declares ${bitsetLength} bytes, past the next structure at ${this.bound}`),
      })
      return null
    }
    const bitset = lookup(headerEnd, end)
    if (!bitset) return [{ start: headerEnd, end }]
    this.onModules({ header: head.subarray(0, headerEnd - offset), bitset })
    return null
  }

  /** @param {string} reason */
  giveUp(reason) {
    this.onModules({ error: decryptionFailed(`${this.where}: bloom filter`, reason) })
  }
}

/**
 * Decrypts one filter read by EncryptedFilterTask: the plaintext header module and bitset, to check like a
 * plaintext filter's. Throws DECRYPTION_FAILED for anything that does not authenticate (or was not read).
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto @param {FilterModules} modules @param {string} where
 * @returns {Promise<{ header: Uint8Array, bitset: Uint8Array }>}
 */
export async function decryptFilter(crypto, modules, where) {
  if (modules.error) throw modules.error
  const aad = (/** @type {number} */ type) => crypto.aad(type)
  const [header, bitset] = await Promise.all([
    decryptGcmModule(crypto.keys.gcm, modules.header, aad(ModuleType.BLOOM_FILTER_HEADER), `${where}: bloom filter header`),
    decryptGcmModule(crypto.keys.gcm, modules.bitset, aad(ModuleType.BLOOM_FILTER_BITSET), `${where}: bloom filter bitset`),
  ])
  return { header, bitset }
}

/**
 * The plaintext ColumnIndex and OffsetIndex of an encrypted chunk, from their modules as read (each
 * column_index_length / offset_index_length covers one whole module). Throws DECRYPTION_FAILED.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @param {{ columnIndex: Uint8Array, offsetIndex: Uint8Array }} modules
 * @param {string} where the chunk, for errors
 */
export async function decryptPageIndex(crypto, modules, where) {
  const [columnIndex, offsetIndex] = await Promise.all([
    decryptGcmModule(crypto.keys.gcm, modules.columnIndex, crypto.aad(ModuleType.COLUMN_INDEX), `${where}: column index`),
    decryptGcmModule(crypto.keys.gcm, modules.offsetIndex, crypto.aad(ModuleType.OFFSET_INDEX), `${where}: offset index`),
  ])
  // A prefix that does not decode is handed on whole: the page index decoder then says what is wrong.
  const struct = (/** @type {Uint8Array} */ bytes) => thriftStructPrefix(bytes).bytes ?? bytes
  return { columnIndex: struct(columnIndex), offsetIndex: struct(offsetIndex) }
}
