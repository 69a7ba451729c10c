// The footer cache's directory store (js/footer/footer-cache.js): entries as files, for Node. Loaded when
// such a store is first used, so a browser never downloads it.

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
