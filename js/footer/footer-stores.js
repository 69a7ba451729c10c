// The footer cache's stores beyond memory (js/footer/footer-cache.js): files in a directory (Node), and
// Cache Storage or IndexedDB in a browser. Loaded when such a store is first used, so a probe never downloads them.

/**
 * Entries as files in a directory (Node), so later processes reuse them. Writes are atomic (a temporary
 * file renamed into place); a file that does not read back as an entry is a miss.
 */
export function openDirectoryStore(dir) {
  const modules = Promise.all([import('node:fs/promises'), import('node:path')])
  const fileOf = async (key) => (await modules)[1].join(dir, `${key}.footer`)
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
 * Entries in the browser: Cache Storage when the page has it (secure contexts), else IndexedDB.
 * Opened on first use; where neither exists every lookup is a miss.
 */
export function openBrowserStore(name) {
  return globalThis.caches?.open ? cacheStorageBackend(name) : indexedDbBackend(name)
}

async function cacheStorageBackend(name) {
  const cache = await globalThis.caches.open(name)
  // Entries are addressed by a synthetic URL: the key is a hash, never the file's URL.
  const requestOf = (key) => `https://parquet-bloom.invalid/footer/${key}`
  return {
    async get(key) {
      const response = await cache.match(requestOf(key))
      return response ? new Uint8Array(await response.arrayBuffer()) : undefined
    },
    async set(key, bytes) {
      await cache.put(requestOf(key), new Response(bytes, { headers: { 'content-type': 'application/octet-stream', 'x-entry-bytes': String(bytes.length) } }))
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

async function indexedDbBackend(name) {
  if (!globalThis.indexedDB) return undefined
  const db = await new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.open(name, 1)
    request.onupgradeneeded = () => request.result.createObjectStore('entries')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
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
