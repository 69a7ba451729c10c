// The indexes of encrypted column chunks (parquet-format Encryption.md §4.4): bloom filters (module
// types 8 and 9: the header module and the bitset module read whole — GCM authenticates a module only
// whole, so never by block — decrypted concurrently, only then checked like a plaintext filter) and
// page indexes (ColumnIndex 6, OffsetIndex 7).
import { decodeHeaderBytes, headerError, MAX_HEADER_BYTES } from '../indexes/bloom-header.js'
import { NativeStatus } from '../wasm/abi.js'
import { Unanswerable } from '../plan/verdicts.js'
import { decryptGcmModule, decryptionFailed, GCM_MODULE_OVERHEAD, moduleLength } from './aes-gcm.js'
import { ModuleType } from './aad.js'
import { thriftStructPrefix } from './thrift-rewrite.js'

const MAX_FILTER_BYTES = 128 * 1024 * 1024

/**
 * Reads a chunk's two filter modules: with bloom_filter_length in one range, else the header module's
 * length first. Hands `{ header, bitset }` (the two modules, length prefixes included) to `onModules`.
 */
export class EncryptedFilterTask {
  /** @param {{ offset: number, length: number | undefined, bound: number }} location @param {string} where */
  constructor(location, where, onModules) {
    this.offset = location.offset
    this.length = location.length
    this.bound = location.bound
    this.where = where
    this.onModules = onModules
  }

  step(lookup) {
    const { offset } = this
    if (this.length !== undefined) {
      const bytes = lookup(offset, offset + this.length)
      if (!bytes) return [{ start: offset, end: offset + this.length }]
      const headerEnd = 4 + Math.max(0, moduleLength(bytes))
      this.onModules({ header: bytes.subarray(0, Math.min(headerEnd, bytes.length)), bitset: bytes.subarray(Math.min(headerEnd, bytes.length)) })
      return null
    }
    const prefix = lookup(offset, offset + 4)
    if (!prefix) return [{ start: offset, end: Math.min(offset + 4, this.bound) }]
    const headerLength = moduleLength(prefix)
    const headerEnd = offset + 4 + headerLength
    if (headerLength > MAX_HEADER_BYTES + GCM_MODULE_OVERHEAD || headerEnd + 4 > this.bound) {
      this.onModules({ error: decryptionFailed(`${this.where}: bloom filter header`, `the module declares ${headerLength} bytes, more than a filter header can take here`) })
      return null
    }
    const head = lookup(offset, headerEnd + 4)
    if (!head) return [{ start: offset, end: headerEnd + 4 }]
    const bitsetLength = moduleLength(head, headerEnd - offset)
    const end = headerEnd + 4 + bitsetLength
    if (bitsetLength > MAX_FILTER_BYTES + GCM_MODULE_OVERHEAD || end > this.bound) {
      this.onModules({ error: decryptionFailed(`${this.where}: bloom filter bitset`, `the module declares ${bitsetLength} bytes, past the next structure at ${this.bound}`) })
      return null
    }
    const bitset = lookup(headerEnd, end)
    if (!bitset) return [{ start: headerEnd, end }]
    this.onModules({ header: head.subarray(0, headerEnd - offset), bitset })
    return null
  }

  giveUp(reason) {
    this.onModules({ error: decryptionFailed(`${this.where}: bloom filter`, reason) })
  }
}

/**
 * Decrypts and checks one filter read by EncryptedFilterTask. Returns the decoded header and the
 * bitset's plaintext, or an Unanswerable for an authenticated filter this reader cannot use; throws
 * DECRYPTION_FAILED for anything that does not authenticate.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @returns {Promise<{ header: ReturnType<typeof decodeHeaderBytes>, bitset: Uint8Array } | Unanswerable>}
 */
export async function decryptFilter(crypto, modules, where) {
  if (modules.error) throw modules.error
  const aad = (type) => crypto.aad(type)
  const [headerBytes, bitset] = await Promise.all([
    decryptGcmModule(crypto.keys.gcm, modules.header, aad(ModuleType.BLOOM_FILTER_HEADER), `${where}: bloom filter header`),
    decryptGcmModule(crypto.keys.gcm, modules.bitset, aad(ModuleType.BLOOM_FILTER_BITSET), `${where}: bloom filter bitset`),
  ])
  const header = decodeHeaderBytes(headerBytes)
  if (header.status !== NativeStatus.OK) {
    const error = headerError(header, `${where}: bloom filter`)
    return new Unanswerable(error.reason ?? (header.status === NativeStatus.UNSUPPORTED ? 'unsupported-filter' : 'malformed-filter'), error.message)
  }
  // Both modules authenticated, so they are the writer's: still, a header that does not describe this
  // bitset is not used. Bytes after the header's struct are ignored, as Thrift readers do (parquet-mr's
  // header modules carry padding: 100 bytes for a 16-byte header in the parquet-testing files).
  if (header.numBytes !== bitset.length) {
    return new Unanswerable('inconsistent-filter', `${where}: the decrypted bloom filter header says numBytes ${header.numBytes}, the bitset has ${bitset.length}`)
  }
  return { header, bitset }
}

/**
 * The plaintext ColumnIndex and OffsetIndex of an encrypted chunk, from their modules as read (each
 * column_index_length / offset_index_length covers one whole module). Throws DECRYPTION_FAILED.
 * @param {import('./encrypted-footer.js').ChunkKeys} crypto
 * @param {{ columnIndex: Uint8Array, offsetIndex: Uint8Array }} modules
 */
export async function decryptPageIndex(crypto, modules, where) {
  const [columnIndex, offsetIndex] = await Promise.all([
    decryptGcmModule(crypto.keys.gcm, modules.columnIndex, crypto.aad(ModuleType.COLUMN_INDEX), `${where}: column index`),
    decryptGcmModule(crypto.keys.gcm, modules.offsetIndex, crypto.aad(ModuleType.OFFSET_INDEX), `${where}: offset index`),
  ])
  // A prefix that does not decode is handed on whole: the page index decoder then says what is wrong.
  const struct = (bytes) => thriftStructPrefix(bytes).bytes ?? bytes
  return { columnIndex: struct(columnIndex), offsetIndex: struct(offsetIndex) }
}
