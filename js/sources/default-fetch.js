// The fetch a URL is read with when the caller passes none: in Node, keep-alive node:http(s) requests
// (js/sources/node-transport.js, loaded on the first request; a third of the client CPU of Node's global
// fetch per small request); in Bun, Deno, workerd and browsers, their own fetch.
import { inBrowser } from './runtime.js'

/** @type {Promise<typeof import('./node-transport.js')> | undefined} */
let nodeTransport
/** @type {typeof import('./node-transport.js') | undefined} once loaded: called directly, without a promise of its own per request */
let loadedTransport
/** The fetches whose requests go over Node's keep-alive pool: its own, and wrappers that call one (signing). */
const overNodePool = new WeakSet()
/**
 * The fetches that hand their init as it is to Node's own transport (its own, a window over it), which
 * takes the request's operation from it (js/sources/shared.js OPERATION) rather than an AbortSignal.
 */
const operationTakers = new WeakSet()

/** @type {typeof fetch | undefined} the fetch over Node's pool: one for every source that reads with it */
let nodePoolFetch

/** @returns {typeof fetch} */
export function defaultFetch() {
  if (isNodeItself()) {
    if (nodePoolFetch) return nodePoolFetch
    const viaPool = /** @type {typeof fetch} */ (/** @type {unknown} */ ((/** @type {string} */ url, /** @type {RequestInit} */ init) =>
      (loadedTransport
      ? loadedTransport.nodeFetch(url, init)
      : (nodeTransport ??= import('./node-transport.js').then((module) => (loadedTransport = module))).then((module) =>
        module.nodeFetch(url, init)))))
    overNodePool.add(viaPool)
    operationTakers.add(viaPool)
    nodePoolFetch = viaPool
    return viaPool
  }
  // Called unbound: browsers' fetch throws "Illegal invocation" when called as a method of another object.
  return (/** @type {Parameters<typeof fetch>} */ ...args) => globalThis.fetch(...args)
}

/** Node — not Bun, Deno or workerd, which provide a `process` too, nor a browser. */
function isNodeItself() {
  if (typeof process !== 'object' || typeof process.versions?.node !== 'string' || process.versions.bun ||
    typeof /** @type {{ Deno?: unknown }} */ (globalThis).Deno !== 'undefined' || inBrowser()) {
    return false
  }
  const agent = globalThis.navigator?.userAgent
  return agent === undefined || agent.startsWith('Node.js')
}

/**
 * Whether requests made with `fetch` (undefined: the default) go over Node's keep-alive pool, whose
 * window follows the wave (js/plan/link-model.js nodeTransportWindow); any other fetch keeps its own limits.
 * @param {Function | undefined} fetch
 */
export function overNodeTransport(fetch) {
  return fetch === undefined ? isNodeItself() : overNodePool.has(fetch)
}

/**
 * Whether `fetch` hands its init as it is to Node's own transport: a request's init may then carry its
 * operation (js/sources/shared.js OPERATION) in place of a signal.
 * @param {Function} fetch
 */
export function takesOperation(fetch) {
  return operationTakers.has(fetch)
}

/**
 * Marks `wrapper` as handing every request's init as it is to `inner`: it takes an operation when inner does.
 * @template {Function} F
 * @param {F} wrapper
 * @param {Function} inner
 * @returns {F}
 */
export function passesInitTo(wrapper, inner) {
  if (operationTakers.has(inner)) operationTakers.add(wrapper)
  return sendsThrough(wrapper, inner)
}

/**
 * Marks `wrapper` as sending every request through `inner`, so it shares inner's transport window.
 * @template {Function} F
 * @param {F} wrapper
 * @param {Function} inner
 * @returns {F}
 */
export function sendsThrough(wrapper, inner) {
  if (overNodePool.has(inner)) overNodePool.add(wrapper)
  return wrapper
}

/**
 * `inner` (default: defaultFetch()), counting into `cost` what it sends: a request and a round each
 * (for requests that follow one another, as a listing's pages do), the bytes its responses say they carry;
 * with `lane` (a read plan's, js/sources/io-ledger.js), each is also a request of it, for `purpose`.
 * @param {typeof fetch | undefined} inner
 * @param {{ requests: number, rounds: number, bytesFetched: number }} cost
 * @param {{ lane?: import('./io-ledger.js').IoLane, purpose?: string }} [recording]
 * @returns {typeof fetch}
 */
export function countedFetch(inner, cost, { lane, purpose = 'listing' } = {}) {
  const sending = inner ?? defaultFetch()
  const counted = /** @type {typeof fetch} */ (async (input, init) => {
    cost.requests++
    cost.rounds++
    const request = lane?.begin(purpose, 0, null)
    let failed = true
    try {
      const response = await sending(input, init)
      const bytes = Number(response.headers.get('content-length') ?? 0)
      cost.bytesFetched += bytes
      request?.received(bytes)
      failed = !response.ok
      return response
    } finally {
      request?.finish(failed)
    }
  })
  return sendsThrough(counted, sending)
}
