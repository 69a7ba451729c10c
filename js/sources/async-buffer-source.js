// A byte source over hyparquet's AsyncBuffer ({ byteLength, slice(start, end) } whose slice returns an
// ArrayBuffer or a promise of one), so anything already wrapped for hyparquet can be probed as is. Loaded by
// js/sources/open-byte-source.js when such a source is first given.
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { describeValue, SourceBase } from './shared.js'

/** @typedef {import('../index.js').AsyncBufferLike} AsyncBuffer slice() gives an ArrayBuffer or a view, or a promise of one */

export class AsyncBufferSource extends SourceBase {
  /** @type {AsyncBuffer | undefined} undefined once closed */
  #asyncBuffer

  /**
   * @param {AsyncBuffer} asyncBuffer
   * @param {import('./shared.js').SourceOptions} options
   */
  constructor(asyncBuffer, options) {
    const size = asyncBuffer.byteLength
    if (!Number.isSafeInteger(size) || size < 0) {
      throw invalidArgument(`an AsyncBuffer's byteLength must be a non-negative integer, got ${describeValue(size)}`)
    }
    super('async-buffer', size, options)
    this.#asyncBuffer = asyncBuffer
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {import('./shared.js').Operation} operation
   */
  async _read(offset, length, operation) {
    this.stats.requests++
    const asyncBuffer = /** @type {AsyncBuffer} */ (this.#asyncBuffer) // set: a closed source refuses reads before _read
    // Through then() so a slice() that throws synchronously is handled like one that rejects.
    const result = await operation.race(Promise.resolve().then(() => asyncBuffer.slice(offset, offset + length)))
    let bytes
    if (result instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && result instanceof SharedArrayBuffer)) {
      bytes = new Uint8Array(result)
    } else if (ArrayBuffer.isView(result)) {
      bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength)
    } else {
      throw invalidArgument(`${this.name}: slice(${offset}, ${offset + length}) returned ${describeValue(result)}; an AsyncBuffer must ` +
        'return an ArrayBuffer',
        { source: this.name, offset })
    }
    this.stats.bytesFetched += bytes.length
    if (bytes.length !== length) {
      throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
        `${this.name}: slice(${offset}, ${offset + length}) returned ${bytes.length} bytes, ${length} expected`,
          { source: this.name, offset })
    }
    return bytes
  }

  async _close() {
    this.#asyncBuffer = undefined
  }
}
