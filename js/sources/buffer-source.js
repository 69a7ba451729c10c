// A byte source over memory the caller already holds (ArrayBuffer, any ArrayBufferView, Node Buffer):
// reads are zero-copy views, so callers must not write into what they get back.
import { SourceBase } from './shared.js'

export class BufferSource extends SourceBase {
  /** @type {Uint8Array | undefined} undefined once closed */
  #bytes

  /**
   * @param {ArrayBuffer | SharedArrayBuffer | ArrayBufferView} buffer
   * @param {import('./shared.js').SourceOptions} options
   */
  constructor(buffer, options) {
    const bytes = ArrayBuffer.isView(buffer)
      ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
      : new Uint8Array(buffer)
    super('buffer', bytes.length, options)
    this.#bytes = bytes
  }

  /**
   * @param {number} offset
   * @param {number} length
   */
  async _read(offset, length) {
    // Counted like any other source's reads so request counts compare across source kinds.
    this.stats.requests++
    this.stats.bytesFetched += length
    return /** @type {Uint8Array} */ (this.#bytes).subarray(offset, offset + length) // set: a closed source refuses reads
  }

  async _close() {
    this.#bytes = undefined
  }
}
