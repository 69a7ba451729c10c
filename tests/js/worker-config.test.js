// examples/cloudflare-worker/config.capnp lists the package's modules one by one (workerd resolves
// imports only among the modules its config names): it must name every module js/index.js reaches, so
// that adding a module to the package cannot silently break the Workers recipe. That includes the
// packages loaded on demand (hyparquet for exact lookups, hyparquet-compressors for compressed pages):
// workerd resolves a bare specifier relative to the importing module's name, so they are named under
// node_modules/parquet-bloom/js/pages/ (beside js/pages/, which imports them).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { importSpecifiers, moduleGraph } from '../../testkit/download-size.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const PACKAGE_PREFIX = 'node_modules/parquet-bloom/'
const config = readFileSync(path.join(root, 'examples/cloudflare-worker/config.capnp'), 'utf8')
const named = new Map([...config.matchAll(/\(name = "([^"]+)", esModule = (?:embed )?"([^"]+)"\)/g)].map((m) => [m[1], m[2]]))

test('the Workers example config names each module once (workerd refuses a module added twice)', () => {
  const names = [...config.matchAll(/\(name = "([^"]+)"/g)].map((m) => m[1])
  assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), [])
})

test('the Workers example config names every module the package entry reaches', () => {
  const reached = moduleGraph().map((file) => path.relative(root, file))
  const missing = reached.filter((file) => !named.has(PACKAGE_PREFIX + file))
  assert.deepEqual(missing, [], `add these to examples/cloudflare-worker/config.capnp: ${missing.join(', ')}`)
})

test('…and every module of the packages it imports on demand, under the names workerd resolves them by', () => {
  const expected = new Map()
  for (const importer of moduleGraph()) {
    const name = PACKAGE_PREFIX + path.relative(root, importer)
    for (const spec of importsOf(importer)) if (!spec.startsWith('.')) mountPackage(spec, importer, name, expected)
  }
  assert.ok(expected.size > 10, 'hyparquet and hyparquet-compressors are found')
  const wrong = [...expected].filter(([name, body]) => named.get(name) !== body)
  assert.deepEqual(wrong.map(([name]) => name), [],
    `add or fix these in examples/cloudflare-worker/config.capnp:\n${wrong.map(([name, body]) => `    (name = "${name}", esModule = ${body.startsWith('export') ? '' : 'embed '}"${body}"),`).join('\n')}`)
})

/** The specifiers a module imports (statically or on demand), type-only imports in comments not counted. */
function importsOf(file) {
  const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
  return importSpecifiers(code).filter((spec) => !spec.startsWith('node:'))
}

/**
 * The config entries a bare import needs: workerd resolves `spec` against the importing module's
 * name, so the package is mounted beside it; a bare package name is a module of its own re-exporting
 * the package's entry. Walks the package's imports (relative, and bare ones of its own dependencies).
 */
function mountPackage(spec, importer, importerName, expected) {
  const dir = path.posix.dirname(importerName)
  const entry = fileURLToPath(import.meta.resolve(spec, new URL(`file://${importer}`).href))
  const packageName = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
  const packageRoot = entry.slice(0, entry.lastIndexOf(`node_modules/${packageName}/`) + `node_modules/${packageName}`.length)
  const mounted = (file) => `${dir}/${packageName}/${path.relative(packageRoot, file)}`
  if (spec === packageName) expected.set(`${dir}/${packageName}`, `export * from './${packageName}/${path.relative(packageRoot, entry)}'`)
  else assert.equal(mounted(entry), `${dir}/${spec}`, `${spec}: the package maps it to another file, which workerd would not find`)
  const visit = (file, name) => {
    if (expected.has(name)) return
    expected.set(name, `../../${path.relative(root, file)}`)
    for (const s of importsOf(file)) {
      if (s.startsWith('.')) visit(path.resolve(path.dirname(file), s), path.posix.join(path.posix.dirname(name), s))
      else mountPackage(s, file, name, expected)
    }
  }
  visit(entry, mounted(entry))
}
