// A fetch whose requests each wait for a turn first — a dataset's window of requests in flight
// (js/dataset/request-window.js) — so the code that schedules requests never calls a fetch itself.
import { defaultFetch, passesInitTo, takesOperation } from './default-fetch.js'
import { IO_RECORD } from './io-ledger.js'
import { OPERATION } from './shared.js'

/**
 * A fetch whose every request first waits for `schedule` to run it (a window's slot, held until the
 * response's headers are in; the body follows on the same connection): through `inner`, else what a
 * single file would read with (Node's keep-alive transport, else the runtime's fetch). `schedule` is
 * handed the request's ledger entry too (js/sources/io-ledger.js), when its sender gave one: a request
 * that waited for a slot is sent in the round after the one whose slot it took; and its operation, when
 * its sender handed one over in place of a signal (js/sources/http-request.js fetchWithin): a wait for a
 * turn must then end on its abort.
 * @param {Function | undefined} inner
 * @param {<T>(send: () => Promise<T>, record?: import('./io-ledger.js').IoRequest, op?: import('./shared.js').Operation) =>
 *   Promise<T>} schedule
 * @returns {typeof fetch}
 */
export function scheduledFetch(inner, schedule) {
  const call = inner ?? defaultFetch()
  const scheduled = /** @type {typeof fetch} */ ((input, init) => {
    const given = /** @type {any} */ (init)
    return schedule(() => call(input, init), given?.[IO_RECORD], given?.[OPERATION])
  })
  return passesInitTo(scheduled, call)
}

/**
 * The slots of a window of requests in flight (js/dataset/request-window.js RequestWindow); release(): a slot taken
 * passes on (to the request waiting first).
 * @typedef {{ take(): boolean, release(record: import('./io-ledger.js').IoRequest): void,
 *   holdUntil<T>(running: Promise<T>, record?: import('./io-ledger.js').IoRequest): Promise<T>,
 *   run<T>(task: () => Promise<T>, record?: import('./io-ledger.js').IoRequest, op?: import('./shared.js').Operation):
 *   Promise<T> }} Slots
 */

/**
 * scheduledFetch(inner, window.run) without a task made per request: one that finds a slot free is sent at
 * once, and holds the slot until its response's headers are in. Through a fetch that takes the operation (Node's
 * transport: its promise settles when the headers are in, never raced against the abort), a request whose sender
 * reports its answer (IoRequest.answered(): an HttpSource's) leaves the slot with its record rather than with a
 * callback of the window's on its promise: thousands of requests in flight then hold no promise, closure or context
 * each for it.
 * @param {Function | undefined} inner
 * @param {Slots} window
 * @returns {typeof fetch}
 */
export function windowedFetch(inner, window) {
  const call = inner ?? defaultFetch()
  const reported = takesOperation(call)
  const windowed = /** @type {typeof fetch} */ ((input, init) => {
    const given = /** @type {any} */ (init)
    const record = given?.[IO_RECORD]
    if (!window.take()) return waitForSlot(window, call, input, init, record, given?.[OPERATION])
    let running
    try {
      running = Promise.resolve(call(input, init))
    } catch (error) {
      running = Promise.reject(error)
    }
    if (reported && record?.reportsAnswer) {
      record.slot = window
      return running
    }
    return window.holdUntil(running, record)
  })
  return passesInitTo(windowed, call)
}

/**
 * A request of windowedFetch() that found no slot free: sent once it has one. A function of its own, so
 * that a request sent at once makes no closure nor context for this one (a context is made as a function
 * is entered, for every closure it may make).
 * @param {Slots} window
 * @param {Function} call
 * @param {unknown} input
 * @param {unknown} init
 * @param {import('./io-ledger.js').IoRequest | undefined} record
 * @param {import('./shared.js').Operation | undefined} op
 */
function waitForSlot(window, call, input, init, record, op) {
  return window.run(() => call(input, init), record, op)
}
