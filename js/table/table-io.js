// Reads of a table's metadata objects (metadata.json, manifest lists, manifests, Delta commits and
// checkpoints): whole objects, in waves that count as one round each — or of several names that may
// exist, the first that does — with the objects that never change once written (everything but the
// metadata pointer) kept in one bounded, process-wide cache — as bytes, or, for those read through a
// decoder (Avro manifests), as what the decoder made of them. Each object is read through
// js/sources/object-reads.js: retried, timed out, redacted and validated as the data files' reads are.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { openObject, readObject, readObjectStart } from '../sources/object-reads.js'
import { sameBytes } from '../format/bytes.js'

const CACHE_BYTES = 64 * 1024 * 1024

/**
 * Values by location, least recently used first, dropped oldest first once their weights pass a budget.
 * @template V
 */
class WeighedCache {
  /** @type {Map<string, { value: V, weight: number }>} */
  entries = new Map()
  total = 0

  /** @param {number} budget */
  constructor(budget) {
    this.budget = budget
  }

  /** @param {string} location */
  has(location) {
    return this.entries.has(location)
  }

  /** The value, now the most recently used (undefined when absent). @param {string} location */
  get(location) {
    const entry = this.entries.get(location)
    if (!entry) return undefined
    this.entries.delete(location)
    this.entries.set(location, entry)
    return entry.value
  }

  /** @param {string} location @param {V} value @param {number} weight */
  set(location, value, weight) {
    this.delete(location)
    this.entries.set(location, { value, weight })
    this.total += weight
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budget) break
      this.entries.delete(key)
      this.total -= entry.weight
    }
  }

  /** @param {string} location */
  delete(location) {
    const entry = this.entries.get(location)
    if (!entry) return
    this.entries.delete(location)
    this.total -= entry.weight
  }

  clear() {
    this.entries.clear()
    this.total = 0
  }
}

// What stillAsCached() compares: an object up to WHOLE_CHECK_BYTES whole, a larger one's size and first bytes.
const WHOLE_CHECK_BYTES = 64 * 1024
const KEPT_PREFIX_BYTES = 1024

/** Immutable objects' bytes by location. @type {WeighedCache<Uint8Array>} */
const immutableCache = new WeighedCache(CACHE_BYTES)
// Decoded immutable objects (a promise while the read is under way, so concurrent readers share it),
// weighed by the bytes they were decoded from: a decoded manifest is several times their size.
/** @type {WeighedCache<Promise<unknown>>} */
const decodedCache = new WeighedCache(CACHE_BYTES / 4)

/** @param {string} location @param {Uint8Array} bytes */
function remember(location, bytes) {
  if (bytes.byteLength <= CACHE_BYTES / 4) immutableCache.set(location, bytes, bytes.byteLength)
}

/**
 * By pointer (an Iceberg version hint): the object the last open read through it, which the next reads again
 * beside the pointer (js/table/iceberg-pointer.js). Bounded: a process opens few tables.
 * @type {Map<string, string>}
 */
export const readThroughPointer = new Map()

/** Empties the cache of immutable table objects (for tests and long-lived processes). */
export function clearTableCache() {
  immutableCache.clear()
  decodedCache.clear()
  readThroughPointer.clear()
}

export class TableIO {
  /**
   * @param {import('./table-location.js').TableRoot} root
   * @param {{ fetch?: typeof fetch, headers?: HeadersInit, signal?: AbortSignal, requestTimeoutMs?: number,
   *   userAgent?: string, retries?: number }} [options]
   *   openTable's reading options, as openParquet takes them
   */
  constructor(root, options = {}) {
    this.root = root
    this.signal = options.signal
    /** requests sent (retries included), body bytes, rounds (waves of reads), and retries of transient failures */
    this.stats = { requests: 0, bytesFetched: 0, rounds: 0, retries: 0, heads: 0 }
    /** @type {import('../sources/object-reads.js').ObjectReadOptions} */
    this.reading = { fetch: options.fetch, headers: options.headers, signal: options.signal, requestTimeoutMs: options.requestTimeoutMs,
      userAgent: options.userAgent, retries: options.retries, stats: this.stats }
    this.inFlight = 0
    /** Objects already read for another purpose (format detection), handed to the first read of them. */
    /** @type {Map<string, Uint8Array | null>} */
    this.primed = new Map()
  }

  /**
   * From now on (until called again), reads are requests of `ledger` (a probe's, js/sources/io-ledger.js):
   * clocked there and in its read plan. Without one, each read is clocked on its own.
   * @param {import('../sources/io-ledger.js').IoLedger | undefined} ledger
   */
  useLedger(ledger) {
    this.reading.ioLane = ledger?.lane('table metadata')
  }

  /**
   * Keeps bytes (or null: missing) read for one purpose for the next read of the same location.
   * @param {string} location @param {Uint8Array | null} bytes
   */
  prime(location, bytes) {
    this.primed.set(location, bytes)
  }

  /**
   * Reads every location in one round (concurrently). Missing objects give null when `optional`; `purpose`:
   * what for, in a read plan (js/sources/io-ledger.js), default table-metadata.
   * @overload
   * @param {string[]} locations
   * @param {{ immutable?: boolean, optional?: false, purpose?: string }} [options]
   * @returns {Promise<Uint8Array[]>} a missing object rejects
   */
  /**
   * @overload
   * @param {string[]} locations
   * @param {{ immutable?: boolean, optional?: boolean, purpose?: string }} [options]
   * @returns {Promise<Array<Uint8Array | null>>}
   */
  /**
   * @param {string[]} locations
   * @param {{ immutable?: boolean, optional?: boolean, purpose?: string }} [options]
   * @returns {Promise<Array<Uint8Array | null>>}
   */
  async readAll(locations, { immutable = false, optional = false, purpose = 'table-metadata' } = {}) {
    const pending = locations.filter((l) => !(immutable && immutableCache.has(l)) && !this.primed.has(l))
    // Reads started while others are in flight share their round (a wave made of several calls).
    if (pending.length && this.inFlight === 0) this.stats.rounds++
    this.inFlight += pending.length
    return Promise.all(locations.map(async (location) => {
      const primed = this.primed.get(location)
      if (primed !== undefined) {
        this.primed.delete(location)
        // Read while telling the format apart, where it may have been missing: here it must not be.
        if (primed === null && !optional) return readObject(location, this.reading)
        return primed
      }
      const cached = immutable ? immutableCache.get(location) : undefined
      if (cached) return cached
      try {
        const bytes = await readObject(location, { ...this.reading, optional, forbiddenIsMissing: true, purpose })
        if (bytes && immutable) remember(location, bytes)
        return bytes
      } finally {
        this.inFlight--
      }
    }))
  }

  /**
   * Immutable objects decoded: those decoded before (by any TableIO of this process) come from the
   * cache without a read or a decode; the others are read in one round and decoded once.
   * @template T
   * @param {string[]} locations
   * @param {(bytes: Uint8Array, location: string) => Promise<T>} decode
   * @returns {Promise<T[]>}
   */
  async readAllDecoded(locations, decode) {
    const missing = [...new Set(locations.filter((l) => !decodedCache.has(l)))]
    if (missing.length) {
      // The bytes are kept too (as before there was a decoded cache): an object whose decoded form the
      // smaller decoded budget dropped is decoded again, not fetched again.
      const reading = this.readAll(missing, { immutable: true, purpose: 'manifest' })
      reading.catch(() => {})
      missing.forEach((location, k) => {
        let size = 0
        const decoded = reading.then((all) => { size = all[k].byteLength; return decode(all[k], location) })
        decodedCache.set(location, decoded, 0) // weighed once its bytes are known
        decoded.then(() => {
          if (decodedCache.get(location) === decoded) decodedCache.set(location, decoded, size)
        }, () => { if (decodedCache.get(location) === decoded) decodedCache.delete(location) })
      })
    }
    return Promise.all(locations.map((location) => /** @type {Promise<T>} */ (decodedCache.get(location))))
  }

  /**
   * The first of `locations` that exists, and its bytes (kept as immutable), or null when none does. Every
   * location is asked for in one round, but only the chosen one's body is read: the others' are cancelled
   * once their status is known, so probing many names that may exist (metadata versions no listing can
   * tell) costs requests, not bytes. A location already kept is known to exist: those after it are not
   * asked for.
   * @param {string[]} locations in order of preference
   * @param {{ immutable?: boolean }} [options] immutable false: objects whose name may be written again (neither
   *   taken from the cache nor kept in it)
   * @returns {Promise<{ location: string, bytes: Uint8Array } | null>}
   */
  async readFirstExisting(locations, { immutable = true } = {}) {
    const kept = immutable ? locations.findIndex((l) => immutableCache.has(l)) : -1
    // Taken now: the reads below may push it out of the cache.
    const keptBytes = kept < 0 ? undefined : immutableCache.get(locations[kept])
    const asked = kept < 0 ? locations : locations.slice(0, kept)
    if (asked.length && this.inFlight === 0) this.stats.rounds++
    this.inFlight += asked.length
    const answers = await Promise.allSettled(asked.map(async (location) => {
      try {
        return await openObject(location, this.reading)
      } finally {
        this.inFlight--
      }
    }))
    const chosen = answers.findIndex((a) => a.status === 'fulfilled' && a.value !== null)
    for (const [k, a] of answers.entries()) if (k !== chosen && a.status === 'fulfilled') await a.value?.cancel()
    const failed = answers.slice(0, chosen < 0 ? answers.length : chosen).find((a) => a.status === 'rejected')
    if (failed) {
      if (chosen >= 0) await /** @type {any} */ (answers[chosen]).value.cancel()
      throw /** @type {PromiseRejectedResult} */ (failed).reason
    }
    if (chosen < 0) return keptBytes ? { location: locations[kept], bytes: keptBytes } : null
    const location = asked[chosen]
    const bytes = await /** @type {any} */ (answers[chosen]).value.read()
    if (immutable) remember(location, bytes)
    return { location, bytes }
  }

  /**
   * An immutable object's first `length` bytes and its total size (a range read; from the cache when
   * the whole object is kept), or null when it does not exist. Shares the round of reads in flight.
   * @param {string} location
   * @param {number} length
   * @returns {Promise<{ bytes: Uint8Array, size: number | undefined } | null>}
   */
  async readStart(location, length) {
    const whole = immutableCache.get(location)
    if (whole) {
      return { bytes: whole.subarray(0, length), size: whole.byteLength }
    }
    if (this.inFlight === 0) this.stats.rounds++
    this.inFlight++
    try {
      return await readObjectStart(location, length, { ...this.reading, forbiddenIsMissing: true, purpose: 'table-metadata' })
    } finally {
      this.inFlight--
    }
  }

  /**
   * Whether storage holds what the cache keeps for `location` (true when nothing is kept): one read beside the
   * reads in flight (call it after them, so it shares their round) — the whole object when it is small (up to
   * WHOLE_CHECK_BYTES: a Delta commit), else its size and first KiB (a checkpoint starts with its first page). An
   * object "written once" is written again when its table is deleted and created anew at the same location.
   * @param {string} location
   */
  async stillAsCached(location) {
    const kept = immutableCache.get(location)
    if (!kept) return true
    if (this.inFlight === 0) this.stats.rounds++
    this.inFlight++
    try {
      const reading = { ...this.reading, optional: true, forbiddenIsMissing: true, purpose: 'table-metadata' }
      const now = kept.byteLength <= WHOLE_CHECK_BYTES
        ? await readObject(location, reading).then((bytes) => (bytes ? { bytes, size: bytes.byteLength } : null))
        : await readObjectStart(location, KEPT_PREFIX_BYTES, reading)
      return now !== null && now.size === kept.byteLength && sameBytes(now.bytes, kept.subarray(0, now.bytes.length))
    } finally {
      this.inFlight--
    }
  }

  /**
   * The last of `locations` the cache keeps, or undefined.
   * @param {string[]} locations
   */
  lastCached(locations) {
    for (let i = locations.length - 1; i >= 0; i--) if (immutableCache.has(locations[i])) return locations[i]
    return undefined
  }

  /**
   * Drops every object kept under `prefix` (bytes and decoded): a table found re-created at its location.
   * @param {string} prefix
   */
  forgetUnder(prefix) {
    for (const cache of [immutableCache, decodedCache]) {
      for (const location of [...cache.entries.keys()]) if (location.startsWith(prefix)) cache.delete(location)
    }
  }

  /**
   * @overload
   * @param {string} location
   * @param {{ immutable?: boolean, optional?: false }} [options]
   * @returns {Promise<Uint8Array>} a missing object rejects
   */
  /**
   * @overload
   * @param {string} location
   * @param {{ immutable?: boolean, optional?: boolean }} [options]
   * @returns {Promise<Uint8Array | null>}
   */
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
      throw new ParquetBloomError(ErrorCode.IO,
        `cannot list ${location}: ${/** @type {Error} */ (err).message}`, { cause: err, source: location })
    }
  }
}

const utf8 = new TextDecoder()
/** @param {Uint8Array} bytes */
export const textOf = (bytes) => utf8.decode(bytes)
