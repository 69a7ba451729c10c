// Temporary folders for tests and benchmarks: a new empty folder under the OS's temporary folder, removed
// with everything in it when the tests of the file (or of the describe() it is made in) have run
// (tempDir), when a function has run (withTempDir), or when its owner says (makeTempDir: a server's or
// a child process's folder). Call tempDir at the top level of a test file or in a describe() callback,
// not inside a hook or a test.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'

/**
 * A new empty folder named pb-<name>-…, and `remove()`, which deletes it with everything in it.
 * @param {string} name
 * @returns {Promise<{ dir: string, remove: () => Promise<void> }>}
 */
export async function makeTempDir(name) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pb-${name}-`))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/**
 * A new empty folder named pb-<name>-…, removed after the current file's (or suite's) tests.
 * @param {string} name
 */
export async function tempDir(name) {
  const { dir, remove } = await makeTempDir(name)
  after(remove)
  return dir
}

/**
 * Runs `fn` with a new empty folder named pb-<name>-…, removes the folder after, and returns what `fn`
 * returns.
 * @template T
 * @param {string} name
 * @param {(dir: string) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withTempDir(name, fn) {
  const { dir, remove } = await makeTempDir(name)
  try {
    return await fn(dir)
  } finally {
    await remove()
  }
}
