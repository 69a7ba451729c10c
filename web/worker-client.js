// The page's side of the worker protocol (see probe-worker.js): call(op, args) returns a promise, an
// AbortSignal cancels the operation in the worker, and a worker that fails to start rejects every call.

/**
 * @typedef {import('./probe-worker.js').Handlers} Handlers
 * @typedef {Error & { code: string, status?: number }} WorkerError what a call rejects with: the worker's
 *   { name, code, message, status } on an Error (WORKER when the worker did not start, ABORTED when cancelled)
 */

export class WorkerClient {
  #worker
  #nextId = 1
  /** @type {Map<number, { resolve(result: unknown): void, reject(error: WorkerError): void }>} */
  #pending = new Map()
  /** @type {{ code: string, message: string } | undefined} */
  #broken

  /** @param {URL} url a module worker script */
  constructor(url) {
    this.#worker = new Worker(url, { type: 'module', name: 'parquet-bloom probe worker' })
    this.#worker.addEventListener('message', ({ data }) => {
      const pending = this.#pending.get(data.id)
      if (!pending) return
      this.#pending.delete(data.id)
      if (data.ok) pending.resolve(data.result)
      else pending.reject(Object.assign(new Error(data.error.message), data.error))
    })
    // A module worker that cannot load (a file:// page, a missing build) reports only this event.
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault()
      this.#fail({ code: 'WORKER', message: `the probe worker could not start${event.message ? `: ${event.message}` : ''}` })
    })
    this.#worker.addEventListener('messageerror', () => this.#fail({ code: 'WORKER', message: 'a message from the probe worker could not be read' }))
  }

  /**
   * @template {keyof Handlers} Op
   * @param {Op} op
   * @param {Parameters<Handlers[Op]>[0]} [args] structured-cloneable (File objects included)
   * @param {{ signal?: AbortSignal }} [options]
   * @returns {Promise<Awaited<ReturnType<Handlers[Op]>>>} what the worker's operation returned
   */
  call(op, args, { signal } = {}) {
    if (this.#broken) return Promise.reject(Object.assign(new Error(this.#broken.message), this.#broken))
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      signal?.addEventListener('abort', () => this.#worker.postMessage({ op: 'cancel', target: id }), { once: true })
      this.#worker.postMessage({ id, op, args })
    })
  }

  /** @param {{ code: string, message: string }} error */
  #fail(error) {
    this.#broken = error
    for (const pending of this.#pending.values()) pending.reject(Object.assign(new Error(error.message), error))
    this.#pending.clear()
  }
}
