// Reused buffers that a scan of many pages decodes each page into (levels, a PLAIN byte-array section's
// values and offsets), so that a page leaves no page-sized garbage behind: V8 frees large arrays and
// ArrayBuffers late, and over thousands of pages that garbage, not what the scan holds, set its peak
// memory. What a page is decoded into is valid only until the next page is: only sinks that copy what
// they keep (a filter, bounds) may be handed scratch (js/index-builder/chunk-filter.js opts in).

export class PageScratch {
  /** @type {Map<string, Int32Array | Uint8Array>} */
  #buffers = new Map()

  /**
   * `n` 32-bit integers under `name` (a view of a buffer reused while it is large enough; contents undefined).
   * @param {string} name
   * @param {number} n
   */
  int32(name, n) {
    return /** @type {Int32Array} */ (this.#view(name, n, Int32Array))
  }

  /**
   * `n` bytes under `name`, as int32().
   * @param {string} name
   * @param {number} n
   */
  bytes(name, n) {
    return /** @type {Uint8Array} */ (this.#view(name, n, Uint8Array))
  }

  /**
   * @param {string} name
   * @param {number} n
   * @param {Int32ArrayConstructor | Uint8ArrayConstructor} Type
   */
  #view(name, n, Type) {
    let buffer = this.#buffers.get(name)
    if (!buffer || buffer.length < n) {
      // Grown by half again at least, so a run of slowly growing pages reallocates a few times, not every page.
      buffer = new Type(Math.max(n, Math.ceil((buffer?.length ?? 0) * 1.5)))
      this.#buffers.set(name, buffer)
    }
    return buffer.subarray(0, n)
  }
}
