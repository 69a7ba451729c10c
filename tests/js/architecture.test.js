// ARCHITECTURE.md's module map lists every module of js/ (one row each, by its path under js/), and
// nothing that is not there: a module added, moved or renamed must be placed on the map.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { jsModules } from './helpers/js-modules.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('ARCHITECTURE.md lists every module in js/, one row each', () => {
  const doc = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8')
  const rows = [...doc.matchAll(/^\| `([^`]+\.(?:js|d\.ts|d\.mts))` \|/gm)].map((m) => m[1])
  const modules = jsModules(/\.(js|d\.ts|d\.mts)$/)
  assert.deepEqual(modules.filter((m) => !rows.includes(m)), [], 'modules missing from the module map')
  assert.deepEqual(rows.filter((r) => !modules.includes(r)), [], 'rows of the module map naming no module')
  assert.equal(new Set(rows).size, rows.length, 'a module listed twice')
})
