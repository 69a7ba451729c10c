// A byte source over a Blob or File (browser file pickers, drag and drop, fetched blobs): each read
// is blob.slice(a, b).arrayBuffer(), so only the requested bytes are ever loaded.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { SourceBase } from './shared.js'

export class BlobSource extends SourceBase {
  #blob

  /**
   * @param {Blob & { name?: string }} blob a File has a name
   * @param {import('./shared.js').SourceOptions} options
   */
  constructor(blob, options) {
    super(typeof blob.name === 'string' && blob.name !== '' ? `blob:${blob.name}` : 'blob', blob.size, options)
    this.#blob = blob
  }

  async _read(offset, length, operation) {
    this.stats.requests++
    const buffer = await operation.race(this.#blob.slice(offset, offset + length).arrayBuffer())
    this.stats.bytesFetched += buffer.byteLength
    if (buffer.byteLength !== length) {
      throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
        `${this.name} gave ${buffer.byteLength} bytes for bytes ${offset}-${offset + length - 1} (${length} expected); the blob changed ` +
          'or is unreadable',
        { source: this.name, offset })
    }
    return new Uint8Array(buffer)
  }

  _ioError(cause, what) {
    // A File whose underlying disk file changed or vanished after it was picked rejects with NotReadableError.
    return new ParquetBloomError(ErrorCode.IO,
      `${what} failed: ${cause?.name && cause.name !== 'Error' ? `${cause.name}: ` : ''}${cause?.message ?? cause}`,
      { cause, source: this.name })
  }

  async _close() {
    this.#blob = undefined
  }
}
