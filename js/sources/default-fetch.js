// The fetch a URL is read with when the caller passes none: in Node, keep-alive node:http(s) requests
// (js/sources/node-transport.js, loaded on the first request; a third of the client CPU of Node's global
// fetch per small request); in Bun, Deno, workerd and browsers, their own fetch.
import { inBrowser } from '../link-model.js'

/** @type {Promise<typeof import('./node-transport.js')> | undefined} */
let nodeTransport

/** @returns {typeof fetch} */
export function defaultFetch() {
  if (isNodeItself()) {
    return /** @type {typeof fetch} */ (/** @type {unknown} */ (async (/** @type {string} */ url, /** @type {RequestInit} */ init) => (await (nodeTransport ??= import('./node-transport.js'))).nodeFetch(url, init)))
  }
  // Called unbound: browsers' fetch throws "Illegal invocation" when called as a method of another object.
  return (/** @type {Parameters<typeof fetch>} */ ...args) => globalThis.fetch(...args)
}

/** Node — not Bun, Deno or workerd, which provide a `process` too, nor a browser. */
function isNodeItself() {
  if (typeof process !== 'object' || typeof process.versions?.node !== 'string' || process.versions.bun || typeof globalThis.Deno !== 'undefined' || inBrowser()) return false
  const agent = globalThis.navigator?.userAgent
  return agent === undefined || agent.startsWith('Node.js')
}
