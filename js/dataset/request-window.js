// One window of requests in flight for a whole dataset: every file's fetch() goes through it, so the
// footers of all files form one wave, their index reads the next, and many files never put more requests
// on the link than the transport carries at once (js/plan/link-model.js transportWindow).
import { NODE_WINDOW } from '../plan/link-model.js'
import { scheduledFetch } from '../sources/scheduled-fetch.js'

// Node's own transport (js/sources/node-transport.js) holds one keep-alive socket per request in
// flight, so its window is what a wave needs rather than a fixed limit: a dataset's first wave is one
// tail read per file, and 1,000 files in a window of 256 would wait four round trips for what the link
// carries in one. A round is one wait for responses whose requests did not wait for each other; the
// CPU each request costs, client and server, is priced apart (requestMs) and does not shrink with a
// narrower window. The window is capped by sockets (one file descriptor each, kept idle for the next
// probe) and by what is in flight: 1,024 tail reads of 64 KiB are 64 MiB.
export const NODE_MAX_WINDOW = 1024
export const NODE_MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024

/**
 * The window of Node's own transport for a wave of `requests` requests of up to `bytesPerRequest` bytes
 * each: the wave whole, at least NODE_WINDOW, at most NODE_MAX_WINDOW and NODE_MAX_IN_FLIGHT_BYTES.
 */
export function nodeTransportWindow(requests, bytesPerRequest) {
  const byBytes = Math.floor(NODE_MAX_IN_FLIGHT_BYTES / Math.max(1, bytesPerRequest))
  return Math.max(NODE_WINDOW, Math.min(requests, NODE_MAX_WINDOW, byBytes))
}

export class RequestWindow {
  #free
  #queue = []

  /** @param {number} size requests in flight at once */
  constructor(size) {
    this.size = size
    this.#free = size
  }

  /**
   * Runs `task` when a slot is free; the slot is held until it settles. `record`: the request's ledger
   * entry (js/sources/io-ledger.js), told which request's slot it took when it had to wait.
   */
  async run(task, record) {
    if (this.#free > 0) this.#free--
    else record?.waitedFor(await new Promise((resolve) => this.#queue.push(resolve)))
    try {
      return await task()
    } finally {
      const next = this.#queue.shift()
      if (next) next(record)
      else this.#free++
    }
  }

  /**
   * A fetch whose requests wait for a slot. The slot is held until the response's headers are in; the
   * body follows on the same connection.
   * @param {typeof fetch} [inner]
   * @returns {typeof fetch}
   */
  windowedFetch(inner) {
    return scheduledFetch(inner, (send, record) => this.run(send, record))
  }
}
