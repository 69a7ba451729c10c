// The folders of js/ ranked along the data path (ARCHITECTURE.md): a module may import its own folder
// and the folders ranked below it, never one above — at load time or by a dynamic import at run time
// (type-only imports in JSDoc comments do not count). So the shape the map describes stays the shape
// of the code: the result model, the sources, the footer know nothing of plans, datasets or writers.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { JS_DIR, jsModules } from './helpers/js-modules.js'


// Lowest first. Top-level modules are ranked one by one: what every layer shares sits at the bottom,
// the file layer's front door above its steps, the public API, then the command line over it.
const RANKS = [
  ['errors.js', 'verdicts.js', 'wasm-loader.js', 'wasm', 'format'],
  ['sources'],
  ['pages'],
  ['crypto'],
  ['footer'],
  ['values'],
  ['indexes'],
  ['filter'],
  ['plan'],
  ['confirm'],
  ['parquet-file.js'],
  ['sidecar'],
  ['dataset'],
  ['table'],
  ['index-builder'],
  ['advice'],
  ['index.js'],
  ['cli', 'cli.js'],
]
const rankOf = new Map(RANKS.flatMap((names, rank) => names.map((name) => [name, rank])))
// The package's entries (package.json "exports", e.g. parquet-bloom/index-builder) gather what their
// sub-package offers, whatever folder it lives in: they rank with the public API.
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
const ENTRIES = new Set(Object.values(packageJson.exports).map((target) => (typeof target === 'string' ? target : target.default))
  .filter((target) => target.startsWith('./js/') && target.endsWith('.js')).map((target) => target.slice('./js/'.length)))

/** The folder (or, at the top level, the file) a module path under js/ belongs to. */
const unitOf = (name) => name.split('/')[0]
/** What a module may import up to: an entry, anything below the public API; others, their folder's rank. */
const importerRank = (name) => rankOf.get(ENTRIES.has(name) ? 'index.js' : unitOf(name))

/** The code of a module without its comments (type-only imports in JSDoc load nothing). */
const withoutComments = (source) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')

/** Relative imports that run: static imports and exports, and import() outside comments. */
function runtimeImports(source) {
  const code = withoutComments(source)
  const found = []
  for (const m of code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) found.push(m[1])
  for (const m of code.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.push(m[1])
  return found
}

test('every folder and top-level module of js/ has a rank', () => {
  const unranked = [...new Set(jsModules().map(unitOf))].filter((unit) => !rankOf.has(unit))
  assert.deepEqual(unranked, [], 'place these in RANKS (and on ARCHITECTURE.md\'s map)')
})

test('no module imports a folder ranked above its own', () => {
  const climbs = []
  for (const name of jsModules()) {
    const from = unitOf(name)
    for (const spec of runtimeImports(readFileSync(path.join(JS_DIR, name), 'utf8'))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(name), spec))
      if (target.startsWith('..')) continue // outside js/ (package.json)
      const to = unitOf(target)
      if (to !== from && rankOf.get(to) > importerRank(name)) climbs.push(`${name} → ${target}`)
    }
  }
  assert.deepEqual(climbs, [], 'imports that climb the data path')
})

// An import() of a computed specifier would load a module this test (and the bundler, and the Workers
// config check) cannot see. The one allowed: the Emscripten glue from a directory the caller chose
// (PARQUET_BLOOM_WASM_DIR), which is outside js/.
const COMPUTED_IMPORTS = new Map([['wasm-loader.js', ["import(new URL('parquet_bloom.mjs', dir).href)"]]])

test('every import() names its module by a string literal', () => {
  const computed = []
  for (const name of jsModules()) {
    const code = withoutComments(readFileSync(path.join(JS_DIR, name), 'utf8'))
    for (const m of code.matchAll(/\bimport\s*\((?!\s*['"][^'"\n]+['"]\s*\))[^\n]*/g)) {
      if (!(COMPUTED_IMPORTS.get(name) ?? []).some((allowed) => m[0].startsWith(allowed))) computed.push(`${name}: ${m[0].trim()}`)
    }
  }
  assert.deepEqual(computed, [], 'import() of a computed specifier: name the module literally')
})
