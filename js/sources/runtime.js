// Which runtime this is, as far as reading bytes cares: a browser page or worker (its own HTTP cache,
// a few connections per origin) or a runtime with a file system (Node, Bun, Deno).

/** A page or a worker of a browser (not Node, Bun, Deno or workerd). */
export function inBrowser() {
  return typeof globalThis.document !== 'undefined' ||
    (typeof globalThis.WorkerGlobalScope !== 'undefined' && typeof globalThis.importScripts === 'function')
}

/** Node, and the runtimes that provide its process object with a file system (Bun, Deno). */
export function hasFileSystem() {
  return typeof process === 'object' && typeof process.versions?.node === 'string' && typeof globalThis.document === 'undefined'
}
