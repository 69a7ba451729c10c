// The footer cache's stores beyond memory (js/footer/footer-cache.js): a directory (Node), Cache Storage or
// IndexedDB (browsers). Loaded when such a store is first used, so a probe that keeps footers in memory never
// downloads it.

/**
 * Entries as files in a directory (Node), so later processes reuse them. Writes are atomic (a temporary
 * file renamed into place); a file that does not read back as an entry is a miss.
 * @param {string} dir
 * @returns {Required<import('./footer-cache.js').FooterStore>}
 */
export function openDirectoryStore(dir) {
  const modules = Promise.all([import('node:fs/promises'), import('node:path')])
  const fileOf = async (/** @type {string} */ key) => (await modules)[1].join(dir, `${key}.footer`)
  return {
    async get(key) {
      const [fs] = await modules
      try {
        return new Uint8Array(await fs.readFile(await fileOf(key)))
      } catch {
        return undefined
      }
    },
    async set(key, bytes) {
      const [fs] = await modules
      const file = await fileOf(key)
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
      await fs.mkdir(dir, { recursive: true })
      try {
        await fs.writeFile(temporary, bytes)
        await fs.rename(temporary, file)
      } catch (error) {
        await fs.rm(temporary, { force: true })
        throw error
      }
    },
    async delete(key) {
      const [fs] = await modules
      await fs.rm(await fileOf(key), { force: true })
    },
    async list() {
      const [fs, path] = await modules
      let names
      try {
        names = await fs.readdir(dir)
      } catch {
        return []
      }
      const entries = []
      for (const name of names) {
        if (!name.endsWith('.footer')) continue
        try {
          const { size, mtimeMs } = await fs.stat(path.join(dir, name))
          entries.push({ key: name.slice(0, -'.footer'.length), size, mtimeMs })
        } catch {
          // Removed meanwhile.
        }
      }
      return entries.sort((a, b) => a.mtimeMs - b.mtimeMs)
    },
  }
}

/**
 * A browser's store: Cache Storage when the page has it (secure contexts), else IndexedDB; undefined where neither
 * exists (every lookup then a miss).
 * @param {string} name
 * @returns {Promise<Required<import('./footer-cache.js').FooterStore> | undefined>}
 */
export function openBrowserStore(name) {
  const caches = /** @type {CacheStorage | undefined} */ (globalThis.caches) // none in runtimes without Cache Storage
  return caches?.open ? cacheStorageBackend(name) : indexedDbBackend(name)
}

/** @param {string} name @returns {Promise<Required<import('./footer-cache.js').FooterStore>>} */
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

/** @param {string} name @returns {Promise<Required<import('./footer-cache.js').FooterStore> | undefined>} */
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
