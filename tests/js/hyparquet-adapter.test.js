// js/pages/hyparquet.js is the one place parquet-bloom imports hyparquet's internal modules
// (hyparquet/src/*.js, held only by the exact version pin). These tests fail, naming the function and
// module, when an upgrade moves or renames one, and when another module imports hyparquet around it.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { HYPARQUET_FUNCTIONS, loadHyparquetPages, loadHyparquetSnappy } from '../../js/pages/hyparquet.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('every hyparquet function the adapter names is exported where it says', async () => {
  for (const [specifier, functions] of Object.entries(HYPARQUET_FUNCTIONS)) {
    const module = await import(specifier)
    for (const name of functions) assert.equal(typeof module[name], 'function', `${specifier} exports ${name}()`)
  }
  const pages = await loadHyparquetPages()
  const snappy = await loadHyparquetSnappy()
  const loaded = [...Object.keys(pages), ...Object.keys(snappy)].sort()
  // And the parsers its row reader converts with by default (point lookups convert as it does).
  assert.deepEqual(loaded, [...Object.values(HYPARQUET_FUNCTIONS).flat(), 'DEFAULT_PARSERS', 'LOOKUP_PARSERS'].sort(),
    'the adapter hands over every function it names')
  // Its own, but for the timestamps finer than milliseconds it truncates towards zero (js/pages/hyparquet.js).
  const { DEFAULT_PARSERS } = await import('hyparquet/src/convert.js')
  const same = Object.keys(DEFAULT_PARSERS).filter((k) => !/^timestampFrom(Micro|Nano)seconds$/.test(k))
  assert.deepEqual(Object.keys(pages.DEFAULT_PARSERS).sort(), Object.keys(DEFAULT_PARSERS).sort())
  for (const k of same) assert.equal(pages.DEFAULT_PARSERS[k], DEFAULT_PARSERS[k], k)
  // Point lookups': the same, but a count no Date holds is the count (tests/js/point-lookup-values.test.js, against DuckDB).
  assert.deepEqual(Object.keys(pages.LOOKUP_PARSERS).sort(), Object.keys(DEFAULT_PARSERS).sort())
  const dated = /^(timestampFrom(Milli|Micro|Nano)seconds|dateFromDays)$/
  for (const k of Object.keys(DEFAULT_PARSERS).filter((n) => !dated.test(n))) assert.equal(pages.LOOKUP_PARSERS[k], DEFAULT_PARSERS[k], k)
})

test('the installed hyparquet is the pinned version the adapter was written for', () => {
  const pinned = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies.hyparquet
  const installed = JSON.parse(readFileSync(path.join(root, 'node_modules/hyparquet/package.json'), 'utf8')).version
  assert.equal(installed, pinned, 'after an upgrade, check js/pages/hyparquet.js against the new hyparquet/src modules, then pin the version')
})

test('no other module of js/ imports hyparquet', () => {
  const files = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (entry.name.endsWith('.js') && !entry.name.startsWith('parquet-bloom.browser') && !entry.name.startsWith('parquet_bloom')) files.push(file)
    }
  }
  walk(path.join(root, 'js'))
  const adapter = path.join(root, 'js/pages/hyparquet.js')
  const importing = files.filter((file) => file !== adapter &&
    /(?:\bfrom\s*|\bimport\s*\(\s*)['"]hyparquet(?:\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')))
  assert.deepEqual(importing.map((f) => path.relative(root, f)), [], 'import hyparquet through js/pages/hyparquet.js')
})
