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
import * as indexBuilder from '../../js/index-builder/index.js'
import * as s3 from '../../js/sources/s3-listing.js'
import { ParquetDataset } from '../../js/dataset/dataset.js'
import { ParquetTable } from '../../js/table/open-table.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))

// Each published entry: the module package.json "exports" gives for it, and its declarations.
const ENTRIES = [
  { entry: '.', module: api, consumer: 'consumer.ts' },
  { entry: './s3', module: s3, consumer: 'consumer-s3.ts' },
  { entry: './index-builder', module: indexBuilder, consumer: 'consumer-index-builder.ts' },
].map((e) => {
  const { types, default: code } = packageJson.exports[e.entry]
  return { ...e, types, code, declarations: readFileSync(path.join(root, types), 'utf8') }
})
const main = ENTRIES[0].declarations

// Public on the prototype for the package's own modules, not part of the API (so not declared).
const INTERNAL_MEMBERS = {
  BloomFilter: ['address', 'expire', 'adopt', 'scoped'], // the pool's handle, the end of a visit, wrapping native filters
  FooterCache: ['accepts', 'lookup', 'remember'], // used by js/footer/cached-footer.js
  SidecarIndex: ['entry', 'readBitset'], // buildSidecarIndex's update: an old entry by its recorded path, its bitsets copied
}

// Classes the API hands out but does not export (they load with openDataset/openTable): declared as interfaces.
const UNEXPORTED_CLASSES = [
  { cls: ParquetDataset, declared: ['ParquetDataset'] },
  { cls: ParquetTable, declared: ['ParquetTable', 'ParquetDataset'] }, // its interface extends the dataset's
]

/** The member names of a class or interface `name` as `declarations` declares it (null when it is not). */
function declaredMembers(declarations, name, kinds = 'class') {
  const body = declarations.match(new RegExp(`^export (?:declare )?(?:${kinds}) ${name}\\b[^{]*\\{([\\s\\S]*?)^\\}`, 'm'))
  return body && new Set([...body[1].matchAll(/^ {2}(?:readonly |static |private )*([A-Za-z_$][\w$]*)\s*[<(:?]/gm)].map((m) => m[1]))
}

const own = (o) => Object.getOwnPropertyNames(o).filter((k) => !['constructor', 'length', 'name', 'prototype'].includes(k))

test('a consumer using every documented option and result field compiles against the published types', async () => {
  const config = JSON.parse(readFileSync(path.join(root, 'tests/types/tsconfig.json'), 'utf8'))
  for (const { consumer } of ENTRIES) assert.ok(config.files.includes(consumer), `tests/types/tsconfig.json compiles ${consumer}`)
  assert.ok(config.files.includes('consumer-dataset.ts'), 'tests/types/tsconfig.json compiles consumer-dataset.ts')
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc')
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', path.join(root, 'tests/types/tsconfig.json')], { cwd: root, timeout: 120_000 })
  } catch (error) {
    assert.fail(`tsc rejected tests/types/consumer*.ts against the published declarations:\n${error.stdout}${error.stderr}`)
  }
})

test('each entry\'s modules are the ones package.json exports for it', () => {
  assert.deepEqual(ENTRIES.map((e) => [e.entry, e.code]), [['.', './js/index.js'], ['./s3', './js/sources/s3-listing.js'], ['./index-builder', './js/index-builder/index.js']])
})

for (const { entry, module, types, code, declarations } of ENTRIES) {
  test(`${code} (${entry}) exports at run time exactly the values ${types} declares`, () => {
    const declared = new Set([...declarations.matchAll(/^export (?:declare )?(?:function|const|class|let) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]))
    const exported = new Set(Object.keys(module))
    assert.deepEqual([...exported].filter((n) => !declared.has(n)), [], `exported by ${code} but not declared in ${types}`)
    assert.deepEqual([...declared].filter((n) => !exported.has(n)), [], `declared in ${types} but not exported by ${code}`)
  })

  test(`every public member of the classes ${code} exports is declared in ${types}`, () => {
    for (const [name, cls] of Object.entries(module)) {
      if (typeof cls !== 'function' || !/^class\b/.test(Function.prototype.toString.call(cls))) continue
      const members = declaredMembers(declarations, name)
      assert.ok(members, `${name} is a class ${types} does not declare as one`)
      const internal = new Set(INTERNAL_MEMBERS[name] ?? [])
      const undeclared = [...own(cls.prototype), ...own(cls)].filter((k) => !members.has(k) && !internal.has(k))
      assert.deepEqual(undeclared, [], `${name}: public members ${types} does not declare`)
    }
  })
}

test('every public member of the dataset and table classes is declared in js/index.d.ts', () => {
  for (const { cls, declared } of UNEXPORTED_CLASSES) {
    const members = new Set()
    for (const name of declared) {
      const found = declaredMembers(main, name, 'class|interface')
      assert.ok(found, `js/index.d.ts declares ${name}`)
      for (const m of found) members.add(m)
    }
    const internal = new Set(INTERNAL_MEMBERS[cls.name] ?? [])
    const undeclared = [...own(cls.prototype), ...own(cls)].filter((k) => !members.has(k) && !internal.has(k))
    assert.deepEqual(undeclared, [], `${cls.name}: public members js/index.d.ts does not declare`)
  }
})
