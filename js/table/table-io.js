// Reads of a table's metadata objects (metadata.json, manifest lists, manifests, Delta commits and
// checkpoints): whole objects, in waves that count as one round each, with the objects that never
// change once written (everything but the metadata pointer) kept in one bounded, process-wide cache.
import { ErrorCode, ParquetBloomError } from '../errors.js'

const CACHE_BYTES = 64 * 1024 * 1024
/** Immutable objects by location, least recently used first. */
const immutableCache = new Map()
let cachedBytes = 0

function remember(location, bytes) {
  if (bytes.byteLength > CACHE_BYTES / 4) return
  immutableCache.delete(location)
  immutableCache.set(location, bytes)
  cachedBytes += bytes.byteLength
  for (const [key, value] of immutableCache) {
    if (cachedBytes <= CACHE_BYTES) break
    immutableCache.delete(key)
    cachedBytes -= value.byteLength
  }
}

/** Empties the cache of immutable table objects (for tests and long-lived processes). */
export function clearTableCache() {
  immutableCache.clear()
  cachedBytes = 0
}

export class TableIO {
  /**
   * @param {import('./table-location.js').TableRoot} root
   * @param {{ fetch?: typeof fetch, headers?: HeadersInit, signal?: AbortSignal }} [options]
   */
  constructor(root, options = {}) {
    this.root = root
    // Called unbound: browsers' fetch throws "Illegal invocation" when called as a method of this object.
    this.fetch = options.fetch ?? ((/** @type {Parameters<typeof fetch>} */ ...args) => globalThis.fetch(...args))
    this.headers = options.headers
    this.signal = options.signal
    this.stats = { requests: 0, bytesFetched: 0, rounds: 0 }
    this.inFlight = 0
    /** Objects already read for another purpose (format detection), handed to the first read of them. */
    this.primed = new Map()
  }

  /** Keeps bytes (or null: missing) read for one purpose for the next read of the same location. */
  prime(location, bytes) {
    this.primed.set(location, bytes)
  }

  /**
   * Reads every location in one round (concurrently). Missing objects give null when `optional`.
   * @param {string[]} locations
   * @param {{ immutable?: boolean, optional?: boolean }} [options]
   * @returns {Promise<Array<Uint8Array | null>>}
   */
  async readAll(locations, { immutable = false, optional = false } = {}) {
    const pending = locations.filter((l) => !(immutable && immutableCache.has(l)) && !this.primed.has(l))
    // Reads started while others are in flight share their round (a wave made of several calls).
    if (pending.length && this.inFlight === 0) this.stats.rounds++
    this.inFlight += pending.length
    return Promise.all(locations.map(async (location) => {
      if (this.primed.has(location)) {
        const bytes = this.primed.get(location)
        this.primed.delete(location)
        if (bytes === null && !optional) throw new ParquetBloomError(ErrorCode.FILE_NOT_FOUND, `${location} does not exist`, { source: location })
        return bytes
      }
      if (immutable && immutableCache.has(location)) {
        const bytes = immutableCache.get(location)
        immutableCache.delete(location)
        immutableCache.set(location, bytes)
        return bytes
      }
      try {
        const bytes = await this.#read(location, optional)
        if (bytes && immutable) remember(location, bytes)
        return bytes
      } finally {
        this.inFlight--
      }
    }))
  }

  /** @param {string} location @param {{ immutable?: boolean, optional?: boolean }} [options] */
  async read(location, options) {
    return (await this.readAll([location], options))[0]
  }

  /**
   * The names in a folder of a local table, or null where folders cannot be listed (URLs).
   * @param {string} location
   */
  async list(location) {
    if (this.root.kind !== 'local') return null
    const { readdir } = await import('node:fs/promises')
    try {
      return await readdir(location)
    } catch (err) {
      if (/** @type {any} */ (err).code === 'ENOENT') return []
      throw new ParquetBloomError(ErrorCode.IO, `cannot list ${location}: ${/** @type {Error} */ (err).message}`, { cause: err, source: location })
    }
  }

  async #read(location, optional) {
    this.stats.requests++
    if (this.root.kind === 'local') {
      const { readFile } = await import('node:fs/promises')
      try {
        const bytes = new Uint8Array(await readFile(location, { signal: this.signal }))
        this.stats.bytesFetched += bytes.byteLength
        return bytes
      } catch (err) {
        const code = /** @type {any} */ (err).code
        if ((code === 'ENOENT' || code === 'ENOTDIR') && optional) return null
        if (code === 'ENOENT') throw new ParquetBloomError(ErrorCode.FILE_NOT_FOUND, `${location} does not exist`, { cause: err, source: location })
        throw new ParquetBloomError(ErrorCode.IO, `cannot read ${location}: ${/** @type {Error} */ (err).message}`, { cause: err, source: location })
      }
    }
    let response
    try {
      response = await this.fetch(location, { headers: this.headers, signal: this.signal })
    } catch (err) {
      if (this.signal?.aborted) throw new ParquetBloomError(ErrorCode.ABORTED, `reading ${location} was aborted`, { cause: err, source: location })
      throw new ParquetBloomError(ErrorCode.IO, `cannot fetch ${location}: ${/** @type {Error} */ (err).message}`, { cause: err, source: location })
    }
    if ((response.status === 404 || response.status === 403) && optional) {
      await response.body?.cancel()
      return null
    }
    if (!response.ok) {
      await response.body?.cancel()
      throw new ParquetBloomError(response.status === 404 ? ErrorCode.FILE_NOT_FOUND : ErrorCode.HTTP_STATUS, `${location}: HTTP ${response.status}`, { status: response.status, source: location })
    }
    const bytes = new Uint8Array(await response.arrayBuffer())
    this.stats.bytesFetched += bytes.byteLength
    return bytes
  }
}

const utf8 = new TextDecoder()
/** @param {Uint8Array} bytes */
export const textOf = (bytes) => utf8.decode(bytes)
