// A byte source over a Blob or File (browser file pickers, drag and drop, fetched blobs): each read
// is blob.slice(a, b).arrayBuffer(), so only the requested bytes are ever loaded.
import { ErrorCode, messageOf, ParquetBloomError } from '../errors.js'
import { SourceBase } from './shared.js'

export class BlobSource extends SourceBase {
  /** @type {Blob | undefined} undefined once closed */
  #blob

  /**
   * @param {Blob & { name?: string }} blob a File has a name
   * @param {import('./shared.js').SourceOptions} options
   */
  constructor(blob, options) {
    super(typeof blob.name === 'string' && blob.name !== '' ? `blob:${blob.name}` : 'blob', blob.size, options)
    this.#blob = blob
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {import('./shared.js').Operation} operation
   */
  async _read(offset, length, operation) {
    this.stats.requests++
    const blob = /** @type {Blob} */ (this.#blob) // set: a closed source refuses reads before _read
    const buffer = await operation.race(blob.slice(offset, offset + length).arrayBuffer())
    this.stats.bytesFetched += buffer.byteLength
    if (buffer.byteLength !== length) {
      throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
        `${this.name} gave ${buffer.byteLength} bytes for bytes ${offset}-${offset + length - 1} (${length} expected); the blob changed ` +
          'or is unreadable',
        { source: this.name, offset })
    }
    return new Uint8Array(buffer)
  }

  /**
   * @param {unknown} cause
   * @param {string} what
   */
  _ioError(cause, what) {
    // A File whose underlying disk file changed or vanished after it was picked rejects with NotReadableError.
    const name = (typeof cause === 'object' || typeof cause === 'function') && cause !== null && 'name' in cause ? cause.name : undefined
    return new ParquetBloomError(ErrorCode.IO,
      `${what} failed: ${name && name !== 'Error' ? `${name}: ` : ''}${messageOf(cause)}`,
      { cause, source: this.name })
  }

  async _close() {
    this.#blob = undefined
  }
}
