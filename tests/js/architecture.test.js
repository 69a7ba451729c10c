// ARCHITECTURE.md's module map lists every module of js/ (one row each, by its path under js/), and
// nothing that is not there: a module added, moved or renamed must be placed on the map.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const js = path.join(root, 'js')
// Built by scripts/build.sh (gitignored), not sources.
const BUILT = /^(parquet-bloom\.browser|wasm\/parquet_bloom\.(mjs|wasm)$)/

function sourceModules(dir = js, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    const name = path.relative(js, file).split(path.sep).join('/')
    if (entry.isDirectory()) sourceModules(file, out)
    else if (/\.(js|d\.ts|d\.mts)$/.test(entry.name) && !BUILT.test(name)) out.push(name)
  }
  return out
}

test('ARCHITECTURE.md lists every module in js/, one row each', () => {
  const doc = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8')
  const rows = [...doc.matchAll(/^\| `([^`]+\.(?:js|d\.ts|d\.mts))` \|/gm)].map((m) => m[1])
  const modules = sourceModules()
  assert.deepEqual(modules.filter((m) => !rows.includes(m)), [], 'modules missing from the module map')
  assert.deepEqual(rows.filter((r) => !modules.includes(r)), [], 'rows of the module map naming no module')
  assert.equal(new Set(rows).size, rows.length, 'a module listed twice')
})
