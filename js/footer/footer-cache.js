// A cache of decoded footers (FileLayouts) keyed by URL and validated by the server's validator (ETag, or
// Last-Modified + size; RFC 9110 §8.8), so a second open of an unchanged file reads and decodes no footer.
// Entries are serialized compactly (typed arrays as their bytes, checksummed, format-versioned) into a
// pluggable store, evicted least-recently-used by their byte size. A cache problem is never an error:
// an unreadable, corrupt or other-version entry is a miss, a store that fails just stops caching.
import { invalidArgument } from '../errors.js'
import { canValidate } from '../sources/validator.js'

// 2: chunk index records by column slot (js/footer/records.js indexSlots); entries of 1 hold them row-group-major.
export const FOOTER_CACHE_FORMAT = 2
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024
const MAGIC = 0x43464250 // 'PBFC' little-endian
const PREAMBLE = 44 // magic, format, header length, SHA-256 of the rest
// What ParquetFile reads from a layout: an entry lacking one came from another build and is refused.
const REQUIRED_FIELDS = ['columns', 'rowGroupRows', 'chunks', 'indexes', 'indexSlots', 'footerBytes']
/**
 * The typed arrays an entry may hold, by constructor name.
 * @type {Record<string, { new (buffer: ArrayBufferLike, byteOffset: number, length: number): ArrayBufferView,
 *   BYTES_PER_ELEMENT: number }>}
 */
const VIEWS = {
  Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array,
}

/**
 * @param {{ maxBytes?: number, store?: FooterStore, trustUnvalidated?: boolean }} [options]
 *   trustUnvalidated: also cache files whose server sends no usable validator (then a file replaced by
 *   one of the same size is answered from the old footer: only for files that never change in place)
 */
export function createFooterCache({ maxBytes = DEFAULT_MAX_BYTES, store, trustUnvalidated = false } = {}) {
  if (store === undefined) {
    // A memory store of its own: its every entry is one this cache stored, so its index lists them all.
    store = memoryStore()
    wholeInIndex.add(store)
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw invalidArgument(`footerCache maxBytes must be a non-negative integer, got ${maxBytes}`)
  }
  if (!store || typeof store.get !== 'function' || typeof store.set !== 'function' || typeof store.delete !== 'function') {
    throw invalidArgument('footerCache store must have get(key), set(key, bytes) and delete(key)')
  }
  return new FooterCache(maxBytes, store, trustUnvalidated === true)
}

/** Stores whose every entry their cache's index lists (the default: a memory store no other cache shares). */
const wholeInIndex = new WeakSet()

/**
 * @typedef {{ get(key: string): Promise<Uint8Array | undefined>, set(key: string, bytes: Uint8Array): Promise<void>,
 *   delete(key: string): Promise<void>, list?(): Promise<Array<{ key: string, size: number }>> }} FooterStore
 *   list(): what a persistent store already holds, oldest first (for eviction across processes).
 * @typedef {import('../sources/validator.js').Validator & { size?: number }} Validator the file's validator and size (kept in
 *   entries as JSON: its fields' names are part of FOOTER_CACHE_FORMAT)
 * @typedef {{ validator: Validator | null, fileSize: number, metadataOffset: number,
 *   layout: import('./footer.js').FileLayout }} FooterCacheEntry
 * @typedef {{ view?: string, section?: number, shared?: Record<string, string>,
 *   views?: Record<string, { view: string, section: number }>, undefined?: true, json?: unknown }} SerializedField
 *   one layout field in an entry's header: a typed array (view: its constructor's name, section: where its bytes are),
 *   views of one buffer (shared), views of several (views), undefined, or JSON
 */
export class FooterCache {
  /** @type {FooterStore} */
  #store
  /** @type {Map<string, number> | undefined} store key → entry bytes, least recently used first */
  #index
  /** @type {Promise<Map<string, number>> | undefined} */
  #indexing
  #bytes = 0

  /** @param {number} maxBytes @param {FooterStore} store @param {boolean} trustUnvalidated */
  constructor(maxBytes, store, trustUnvalidated) {
    this.maxBytes = maxBytes
    this.trustUnvalidated = trustUnvalidated
    this.#store = store
    this.stats = { hits: 0, misses: 0, stores: 0, evictions: 0, invalidations: 0 }
  }

  /**
   * Whether footers validated this way may be kept.
   * @param {import('../sources/validator.js').Validator | null | undefined} validator
   */
  accepts(validator) {
    return canValidate(validator) || this.trustUnvalidated
  }

  /**
   * True, counted as a miss, when the cache surely holds no entry at all (a memory store of its own with
   * nothing in it yet): its caller reads the footer without a lookup (no hash of the URL, no promise).
   */
  holdsNothing() {
    if (!wholeInIndex.has(this.#store) || (this.#index !== undefined && this.#index.size !== 0)) return false
    this.stats.misses++
    return true
  }

  /** @param {string} url @returns {Promise<FooterCacheEntry | undefined>} */
  async lookup(url) {
    const index = this.#index ?? (await this.#loadIndex())
    // A store that holds only what its index lists, holding nothing: a miss without hashing the URL.
    if (index.size === 0 && wholeInIndex.has(this.#store)) {
      this.stats.misses++
      return undefined
    }
    let key
    let entry
    try {
      key = await storeKey(url)
      // A store whose every entry the index lists: a key it does not list is a miss without asking it.
      const bytes = wholeInIndex.has(this.#store) && !index.has(key) ? undefined : await this.#store.get(key)
      entry = bytes ? await deserializeEntry(bytes, key) : undefined
      if (bytes && !entry) await this.#drop(key) // corrupt or from another format: a miss, and room freed
    } catch {
      entry = undefined
    }
    if (!entry || key === undefined) {
      this.stats.misses++
      return undefined
    }
    const size = index.get(key)
    if (size !== undefined) {
      index.delete(key)
      index.set(key, size) // most recently used now
    }
    this.stats.hits++
    return entry
  }

  /**
   * Keeps a footer just read; false when it is not kept (no validator, too large, the store failed).
   * @param {string} url
   * @param {{ validator: Validator | null | undefined, fileSize: number, metadataOffset: number,
   *   layout: import('./footer.js').FileLayout }} footer
   */
  async remember(url, { validator, fileSize, metadataOffset, layout }) {
    if (!this.accepts(validator)) return false
    let key
    let bytes
    try {
      key = await storeKey(url)
      bytes = await serializeEntry({ validator: validator ?? null, fileSize, metadataOffset, layout }, key)
    } catch {
      return false // a layout this format cannot hold (e.g. a field of a newer footer.js): not cached
    }
    if (bytes.length > this.maxBytes) return false
    const index = await this.#loadIndex()
    try {
      await this.#store.set(key, bytes)
    } catch {
      return false
    }
    this.#bytes -= index.get(key) ?? 0
    index.delete(key)
    index.set(key, bytes.length)
    this.#bytes += bytes.length
    this.stats.stores++
    for (const [oldest] of index) {
      if (this.#bytes <= this.maxBytes || oldest === key) break
      await this.#drop(oldest)
      this.stats.evictions++
    }
    return true
  }

  /** Drops the entry of a URL (its file changed). @param {string} url */
  async forget(url) {
    this.stats.invalidations++
    let key
    try {
      key = await storeKey(url)
    } catch {
      return // no digest in this runtime: nothing was ever stored
    }
    await this.#drop(key)
  }

  /** Bytes the entries take, as far as this process knows. */
  get bytes() {
    return this.#bytes
  }

  /** @param {string} key */
  async #drop(key) {
    const index = await this.#loadIndex()
    this.#bytes -= index.get(key) ?? 0
    index.delete(key)
    try {
      await this.#store.delete(key)
    } catch {
      // Nothing to do: the entry may linger, and will be refused or replaced.
    }
  }

  async #loadIndex() {
    if (this.#index) return this.#index
    this.#indexing ??= (async () => {
      /** @type {Map<string, number>} */
      const index = new Map()
      try {
        for (const { key, size } of (await this.#store.list?.()) ?? []) index.set(key, size)
      } catch {
        // An unlistable store: eviction covers only what this process stored.
      }
      for (const size of index.values()) this.#bytes += size
      this.#index = index
      return index
    })()
    return this.#indexing
  }
}

/** Entries in this process's memory (the default store). @returns {Required<FooterStore>} */
export function memoryStore() {
  /** @type {Map<string, Uint8Array>} */
  const entries = new Map()
  return {
    async get(key) {
      return entries.get(key)
    },
    async set(key, bytes) {
      entries.set(key, bytes)
    },
    async delete(key) {
      entries.delete(key)
    },
    async list() {
      return [...entries].map(([key, bytes]) => ({ key, size: bytes.length }))
    },
  }
}

/**
 * Entries as files in a directory (Node), so later processes reuse them. Writes are atomic (a temporary
 * file renamed into place); a file that does not read back as an entry is a miss.
 * @param {string} dir
 * @returns {Required<FooterStore>}
 */
export function directoryStore(dir) {
  if (typeof dir !== 'string' || dir === '') throw invalidArgument(`directoryStore needs a directory path, got ${dir}`)
  return lazyStore(() => import('./footer-stores.js').then((stores) => stores.openDirectoryStore(dir)))
}

/**
 * Entries in the browser: Cache Storage when the page has it (secure contexts), else IndexedDB.
 * Opened on first use; where neither exists every lookup is a miss.
 * @returns {Required<FooterStore>}
 */
export function browserStore(name = 'parquet-bloom-footers') {
  return lazyStore(async () => {
    const caches = /** @type {CacheStorage | undefined} */ (globalThis.caches) // none in runtimes without Cache Storage
    return caches?.open ? cacheStorageBackend(name) : indexedDbBackend(name)
  })
}

/**
 * A store whose backend is opened on first use (the directory store's module, js/footer/footer-stores.js, loaded then).
 * @param {() => Promise<Required<FooterStore> | undefined>} open
 * @returns {Required<FooterStore>}
 */
function lazyStore(open) {
  /** @type {Promise<Required<FooterStore> | undefined> | undefined} */
  let opened
  const backend = () => (opened ??= open())
  return {
    async get(key) {
      return (await backend())?.get(key)
    },
    async set(key, bytes) {
      await (await backend())?.set(key, bytes)
    },
    async delete(key) {
      await (await backend())?.delete(key)
    },
    async list() {
      return (await (await backend())?.list()) ?? []
    },
  }
}

/** @param {string} name @returns {Promise<Required<FooterStore>>} */
async function cacheStorageBackend(name) {
  const cache = await globalThis.caches.open(name)
  // Entries are addressed by a synthetic URL: the key is a hash, never the file's URL.
  const requestOf = (/** @type {string} */ key) => `https://parquet-bloom.invalid/footer/${key}`
  return {
    async get(key) {
      const response = await cache.match(requestOf(key))
      return response ? new Uint8Array(await response.arrayBuffer()) : undefined
    },
    async set(key, bytes) {
      // (Entries are serializeEntry's own arrays, never views of a SharedArrayBuffer.)
      await cache.put(requestOf(key), new Response(/** @type {Uint8Array<ArrayBuffer>} */ (bytes), {
        headers: { 'content-type': 'application/octet-stream', 'x-entry-bytes': String(bytes.length) },
      }))
    },
    async delete(key) {
      await cache.delete(requestOf(key))
    },
    async list() {
      const out = []
      for (const request of await cache.keys()) {
        const response = await cache.match(request)
        out.push({ key: request.url.slice(request.url.lastIndexOf('/') + 1), size: Number(response?.headers.get('x-entry-bytes')) || 0 })
      }
      return out
    },
  }
}

/** @param {string} name @returns {Promise<Required<FooterStore> | undefined>} */
async function indexedDbBackend(name) {
  if (!globalThis.indexedDB) return undefined
  const db = await /** @type {Promise<IDBDatabase>} */ (new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.open(name, 1)
    request.onupgradeneeded = () => request.result.createObjectStore('entries')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  }))
  /** @type {<T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T>) => Promise<T>} */
  const run = (mode, fn) => new Promise((resolve, reject) => {
    const request = fn(db.transaction('entries', mode).objectStore('entries'))
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  return {
    async get(key) {
      const value = await run('readonly', (s) => s.get(key))
      return value ? new Uint8Array(value) : undefined
    },
    async set(key, bytes) {
      await run('readwrite', (s) => s.put(bytes.slice().buffer, key))
    },
    async delete(key) {
      await run('readwrite', (s) => s.delete(key))
    },
    async list() {
      const keys = await run('readonly', (s) => s.getAllKeys())
      return Promise.all(keys.map(async (key) => ({ key: String(key), size: (await run('readonly', (s) => s.get(key)))?.byteLength ?? 0 })))
    },
  }
}

// ---------------------------------------------------------------------------------------------------
// Entry format (FOOTER_CACHE_FORMAT): 'PBFC', u32 format, u32 header length, SHA-256 of everything after
// the preamble, the JSON header, then each typed array's bytes 8-byte aligned. The header names the
// store key it belongs to, so an entry copied under another key is refused too.

/** @param {FooterCacheEntry} entry @param {string} key @returns {Promise<Uint8Array>} */
export async function serializeEntry({ validator, fileSize, metadataOffset, layout }, key) {
  /** @type {{ at: number, bytes: Uint8Array }[]} */
  const sections = []
  let sectionBytes = 0
  const section = (/** @type {ArrayBufferView} */ view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
    sections.push({ at: sectionBytes, bytes })
    sectionBytes += (bytes.length + 7) & ~7
    return sections.length - 1
  }
  /** @type {Record<string, SerializedField>} */
  const fields = {}
  for (const [name, value] of Object.entries(layout)) {
    if (ArrayBuffer.isView(value)) {
      fields[name] = { view: viewName(value), section: section(value) }
    } else if (value && typeof value === 'object' && !Array.isArray(value) &&
      Object.values(value).length && Object.values(value).every(ArrayBuffer.isView)) {
      // Views of one buffer (the chunk index records) stay one buffer when read back.
      const views = Object.entries(value)
      const buffer = views[0][1].buffer
      const whole = views.every(([, v]) => v.buffer === buffer && v.byteOffset === 0 && v.byteLength === buffer.byteLength)
      fields[name] = whole
        ? { shared: Object.fromEntries(views.map(([k, v]) => [k, viewName(v)])), section: section(new Uint8Array(buffer)) }
        : { views: Object.fromEntries(views.map(([k, v]) => [k, { view: viewName(v), section: section(v) }])) }
    } else {
      fields[name] = value === undefined ? { undefined: true } : { json: value } // JSON.stringify throws on bigint: not cached
    }
  }
  const header = new TextEncoder().encode(JSON.stringify({
    key, validator, fileSize, metadataOffset, fields, sections: sections.map((s) => [s.at, s.bytes.length]),
  }))
  const bodyStart = (PREAMBLE + header.length + 7) & ~7
  const out = new Uint8Array(bodyStart + sectionBytes)
  const view = new DataView(out.buffer)
  view.setUint32(0, MAGIC, true)
  view.setUint32(4, FOOTER_CACHE_FORMAT, true)
  view.setUint32(8, header.length, true)
  out.set(header, PREAMBLE)
  for (const s of sections) out.set(s.bytes, bodyStart + s.at)
  out.set(await sha256(out.subarray(PREAMBLE)), 12)
  return out
}

/**
 * The entry, or undefined when the bytes are not a whole, intact entry of this format for `key`.
 * @param {Uint8Array} bytes @param {string} key
 * @returns {Promise<FooterCacheEntry | undefined>}
 */
export async function deserializeEntry(bytes, key) {
  if (bytes.length < PREAMBLE) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== FOOTER_CACHE_FORMAT) return undefined
  const headerLength = view.getUint32(8, true)
  const bodyStart = (PREAMBLE + headerLength + 7) & ~7
  if (bodyStart > bytes.length) return undefined
  const digest = await sha256(bytes.subarray(PREAMBLE))
  if (!digest.every((b, i) => b === bytes[12 + i])) return undefined
  let header
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREAMBLE, PREAMBLE + headerLength)))
  } catch {
    return undefined
  }
  if (header?.key !== key || !Number.isSafeInteger(header.fileSize) || !Number.isSafeInteger(header.metadataOffset)) return undefined
  // One aligned copy: the stored bytes may start anywhere, typed arrays need their element alignment.
  const body = bytes.slice(bodyStart).buffer
  const sectionView = (/** @type {number} */ index, /** @type {string} */ name) => {
    const [at, length] = header.sections[index] ?? []
    const View = VIEWS[name]
    if (!View || !(at >= 0) || at + length > body.byteLength || length % View.BYTES_PER_ELEMENT) throw new Error('bad section')
    return new View(body, at, length / View.BYTES_PER_ELEMENT)
  }
  /** @type {Record<string, unknown>} */
  const layout = {}
  try {
    for (const [name, field] of Object.entries(header.fields ?? {})) {
      if (field.view) layout[name] = sectionView(field.section, field.view)
      else if (field.shared) {
        const bytesOf = sectionView(field.section, 'Uint8Array')
        layout[name] = Object.fromEntries(Object.entries(field.shared).map(([k, v]) =>
          [k, new VIEWS[v](bytesOf.buffer, bytesOf.byteOffset, bytesOf.byteLength / VIEWS[v].BYTES_PER_ELEMENT)]))
      } else if (field.views) {
        layout[name] = Object.fromEntries(Object.entries(field.views).map(([k, v]) => [k, sectionView(v.section, v.view)]))
      } else {
        layout[name] = field.undefined ? undefined : field.json
      }
    }
  } catch {
    return undefined
  }
  if (!REQUIRED_FIELDS.every((f) => layout[f] !== undefined)) return undefined
  // The fields ParquetFile reads are there (REQUIRED_FIELDS), as serialized from a FileLayout of this format.
  return { validator: header.validator ?? null, fileSize: header.fileSize, metadataOffset: header.metadataOffset,
    layout: /** @type {import('./footer.js').FileLayout} */ (layout) }
}

/** @param {ArrayBufferView} view */
function viewName(view) {
  const name = view.constructor.name
  if (VIEWS[name] !== view.constructor) throw new Error(`cannot serialize a ${name}`)
  return name
}

/** The store key of a URL: a SHA-256 hex, so no store ever holds (or shows) a URL or its credentials. */
/** @param {string} url */
async function storeKey(url) {
  const hash = await (hashHere ??= runtimeHash())
  // Hex made by the runtime where it can (one string, not one per byte).
  if (hash) return hash.hex(String(url))
  return Array.from(await sha256(new TextEncoder().encode(String(url))), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** @type {Promise<{ bytes: (bytes: Uint8Array) => Uint8Array, hex: (text: string) => string } | null> | undefined} */
let hashHere

/** @param {Uint8Array} bytes */
async function sha256(bytes) {
  const hash = await (hashHere ??= runtimeHash())
  if (hash) return hash.bytes(bytes)
  // Typed as the BufferSource WebCrypto's types ask for: WebCrypto itself refuses a view of a SharedArrayBuffer.
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', /** @type {Uint8Array<ArrayBuffer>} */ (bytes)))
}

/**
 * node:crypto's hash where the runtime has it (Node, Bun, Deno): a dataset hashes three times per
 * file (two store keys, one checksum), and WebCrypto's digest is a thread-pool round trip each, about
 * ten times the CPU of hashing in place — a quarter of a second over 1,000 files. Elsewhere, WebCrypto.
 * `hex` hashes text as its UTF-8 bytes, as TextEncoder gives them.
 */
async function runtimeHash() {
  if (typeof process !== 'object' || typeof process.versions?.node !== 'string') return null
  try {
    const { createHash } = await import('node:crypto')
    return {
      bytes: (/** @type {Uint8Array} */ bytes) => new Uint8Array(createHash('sha256').update(bytes).digest()),
      hex: (/** @type {string} */ text) => createHash('sha256').update(text, 'utf8').digest('hex'),
    }
  } catch {
    return null
  }
}
