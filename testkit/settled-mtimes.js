// Modification times set into the past, for files a test or benchmark writes and then indexes at once: a sidecar
// build waits for an mtime less than a few seconds old to settle before it reads the file (a coarse file system gives
// a same-size rewrite within that span the same mtime), which would slow every such test. Each file gets a time of its own,
// a minute back and later than any given before, so a file rewritten and settled again never gets its old time
// back — its index entry must still see the change.
import { readdir, stat, utimes } from 'node:fs/promises'
import path from 'node:path'

const BACK_MS = 60_000
let last = 0

/**
 * Sets the mtime (and atime) of each file a minute back; a directory stands for every file under it.
 * @param {...string} paths
 */
export async function settleMtimes(...paths) {
  for (const p of paths) {
    const info = await stat(p)
    if (info.isDirectory()) {
      const names = await readdir(p, { recursive: true })
      for (const name of names.sort()) {
        const file = path.join(p, name)
        if ((await stat(file)).isFile()) await settleOne(file)
      }
    } else {
      await settleOne(p)
    }
  }
}

/** @param {string} file */
async function settleOne(file) {
  // Whole milliseconds, a millisecond apart at least: the file systems tests run on keep them apart.
  last = Math.max(Date.now() - BACK_MS, last + 1)
  const when = new Date(last)
  await utimes(file, when, when)
}
