// One window of requests in flight for a whole dataset: every file's fetch() goes through it, so the
// footers of all files form one wave, their index reads the next, and many files never put more requests
// on the link than the transport carries at once (js/plan/link-model.js transportWindow).
import { defaultFetch } from '../sources/default-fetch.js'

export class RequestWindow {
  #free
  #queue = []

  /** @param {number} size requests in flight at once */
  constructor(size) {
    this.size = size
    this.#free = size
  }

  /** Runs `task` when a slot is free; the slot is held until it settles. */
  async run(task) {
    if (this.#free > 0) this.#free--
    else await new Promise((resolve) => this.#queue.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.#queue.shift()
      if (next) next()
      else this.#free++
    }
  }

  /**
   * A fetch whose requests wait for a slot. The slot is held until the response's headers are in; the
   * body follows on the same connection.
   * @param {typeof fetch} [inner]
   * @returns {typeof fetch}
   */
  fetch(inner) {
    // Without one, what a single file would read with (Node's keep-alive transport, else the runtime's fetch).
    const call = inner ?? defaultFetch()
    return /** @type {typeof fetch} */ ((input, init) => this.run(() => call(input, init)))
  }
}
