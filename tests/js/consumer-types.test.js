// The published types (js/index.d.ts) against the code and against a consumer. The declarations are
// written by hand beside the JSDoc tsc checks; these tests keep the two from drifting apart:
// - tests/types/consumer.ts, which passes every documented option and reads every documented result
//   field (see its header), compiles with tsc --strict against the package entry ('parquet-bloom'
//   through package.json "exports", as an installed package resolves it);
// - what js/index.js exports at run time is what the declarations declare, and the public members of
//   its classes are declared (the JSDoc of ParquetFile.probe and openParquet refers to ProbeOptions and
//   OpenParquetOptions, so `npm run typecheck` checks the implementation against the same options).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

import * as api from '../../js/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const declarations = readFileSync(path.join(root, 'js/index.d.ts'), 'utf8')

// Public on the prototype for the package's own modules, not part of the API (so not declared).
const INTERNAL_MEMBERS = {
  BloomFilter: ['address', 'expire', 'adopt', 'scoped'], // the pool's handle, the end of a visit, wrapping native filters
  FooterCache: ['accepts', 'lookup', 'remember'], // used by js/footer/cached-footer.js
}

test('a consumer using every documented option and result field compiles against the published types', async () => {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc')
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', path.join(root, 'tests/types/tsconfig.json')], { cwd: root, timeout: 120_000 })
  } catch (error) {
    assert.fail(`tsc rejected tests/types/consumer.ts against js/index.d.ts:\n${error.stdout}${error.stderr}`)
  }
})

test('js/index.js exports at run time exactly the values js/index.d.ts declares', () => {
  const declared = new Set([...declarations.matchAll(/^export (?:declare )?(?:function|const|class|let) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]))
  const exported = new Set(Object.keys(api))
  assert.deepEqual([...exported].filter((n) => !declared.has(n)), [], 'exported by js/index.js but not declared in js/index.d.ts')
  assert.deepEqual([...declared].filter((n) => !exported.has(n)), [], 'declared in js/index.d.ts but not exported by js/index.js')
})

test('every public member of the exported classes is declared', () => {
  for (const [name, cls] of Object.entries(api)) {
    if (typeof cls !== 'function' || !/^class\b/.test(Function.prototype.toString.call(cls))) continue
    const body = declarations.match(new RegExp(`^export (?:declare )?class ${name}\\b[^{]*\\{([\\s\\S]*?)^\\}`, 'm'))
    assert.ok(body, `${name} is a class js/index.d.ts does not declare as one`)
    const members = new Set([...body[1].matchAll(/^ {2}(?:readonly |static |private )*([A-Za-z_$][\w$]*)\s*[<(:?]/gm)].map((m) => m[1]))
    const internal = new Set(INTERNAL_MEMBERS[name] ?? [])
    const own = (o) => Object.getOwnPropertyNames(o).filter((k) => !['constructor', 'length', 'name', 'prototype'].includes(k))
    const undeclared = [...own(cls.prototype), ...own(cls)].filter((k) => !members.has(k) && !internal.has(k))
    assert.deepEqual(undeclared, [], `${name}: public members js/index.d.ts does not declare`)
  }
})
