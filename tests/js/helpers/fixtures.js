// Locates third-party fixtures in ../shared (never committed here) and lets tests skip, with a reason,
// only the cases that need them when they are missing.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
export const fixturesDir = process.env.PB_FIXTURES_DIR ?? path.resolve(projectRoot, '../shared/fixtures')

export function fixturePath(relative) {
  return path.join(fixturesDir, relative)
}

/** `false` when present, else the skip reason node:test prints. */
export function missingFixture(relative) {
  return existsSync(fixturePath(relative)) ? false : `fixture missing: ${fixturePath(relative)} (../shared/fixtures is not committed; see DEVELOPERS.md)`
}

export function readFixture(relative) {
  return new Uint8Array(readFileSync(fixturePath(relative)))
}

export function readVectors() {
  return JSON.parse(readFileSync(fixturePath('sbbf-vectors.json'), 'utf8'))
}

/** Present/absent strings of the two parquet-testing files (parquet-testing/README.md). */
export const PARQUET_TESTING_PRESENT = ['Hello', 'This is', 'a', 'test', 'How', 'are you', 'doing ', 'today',
  'the quick', 'brown fox', 'jumps', 'over', 'the lazy', 'dog']
export const PARQUET_TESTING_ABSENT = ['NOT_EXISTS', 'Hello_Not_Exists', 'b', 'c', 'd', 'doing', 'The quick', 'hello', 'world']
