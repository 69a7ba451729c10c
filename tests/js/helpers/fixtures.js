// Locates third-party fixtures in ../shared (never committed here) and lets tests skip, with a reason,
// only the cases that need them when they are missing — unless PB_REQUIRE_FIXTURES=1 (as .ci/run sets
// it): then a missing fixture fails the suite that asked for it instead of skipping quietly.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
export const fixturesDir = process.env.PB_FIXTURES_DIR ?? path.resolve(projectRoot, '../shared/fixtures')

export function fixturePath(relative) {
  return path.join(fixturesDir, relative)
}

export const fixturesRequired = process.env.PB_REQUIRE_FIXTURES === '1'

/** `false` when present, else the skip reason node:test prints; throws when fixtures are required. */
export function missingFixture(relative) {
  if (existsSync(fixturePath(relative))) return false
  const reason = `fixture missing: ${fixturePath(relative)} (third-party test data from ../shared/fixtures; it is not committed)`
  if (fixturesRequired) throw new Error(`PB_REQUIRE_FIXTURES=1: ${reason}`)
  return reason
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

/** The keys of parquet-testing's encrypted files (its data README): 128-bit ones, and aes256/'s. */
export const PARQUET_TESTING_FOOTER_KEY = '0123456789012345'
export const PARQUET_TESTING_KEYS = { footerKey: PARQUET_TESTING_FOOTER_KEY, columnKeys: { double_field: '1234567890123450', float_field: '1234567890123451' } }
const col256 = (n) => `123456789012345678901234567890${n}`
export const PARQUET_TESTING_KEYS_256 = {
  footerKey: '01234567890123456789012345678901',
  columnKeys: {
    double_field: col256(12), float_field: col256(13), boolean_field: col256(14), int32_field: col256(15),
    ba_field: col256(16), flba_field: col256(17), 'int64_field.list.element': col256(18), int96_field: col256(19),
  },
}
