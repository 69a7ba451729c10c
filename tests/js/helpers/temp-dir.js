// Temporary folders for tests: a new empty folder under the OS's temporary folder, removed with
// everything in it when the tests of the file (or of the describe() it is made in) have run. Call it at
// the top level of a test file or in a describe() callback, not inside a hook or a test.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'

/** A new empty folder named pb-<name>-…, removed after the current file's (or suite's) tests. */
export async function tempDir(name) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pb-${name}-`))
  after(() => rm(dir, { recursive: true, force: true }))
  return dir
}
