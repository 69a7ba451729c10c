// The published types (js/index.d.ts, js/s3.d.ts, js/index-builder/index.d.ts) against the code and against
// a consumer. The declarations are written by hand beside the JSDoc tsc checks; these tests keep the two
// from drifting apart:
// - tests/types/consumer.ts, which passes every documented option and reads every documented result
//   field (see its header), compiles with tsc --strict against the package entry ('parquet-bloom'
//   through package.json "exports", as an installed package resolves it);
// - so do tests/types/consumer-dataset.ts (openDataset, openTable), consumer-s3.ts ('parquet-bloom/s3')
//   and consumer-index-builder.ts ('parquet-bloom/index-builder'), through their package.json exports;
// - what each entry's module exports at run time is what its declarations declare, and the public members
//   of its classes are declared — the dataset and table classes too, which the API hands out unexported
//   (the JSDoc of ParquetFile.probe and openParquet refers to ProbeOptions and OpenParquetOptions, so
//   `npm run typecheck` checks the implementation against the same options);
// - what the dataset, table, S3 listing and index-builder code returns from real calls (a DuckDB-written
//   Hive dataset, also in an s3rver bucket; fixture tables) is written out as literals and compiled against
//   the declared result types: a field the code produces and the declarations lack, or one they declare
//   and the code never sets, fails.
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
import { tempDir } from '../../testkit/temp-dir.js'

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
  FooterCache: ['accepts', 'holdsNothing', 'lookup', 'remember'], // used by js/footer/cached-footer.js
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

const shapesDir = tempDir('consumer-shapes') // the real-results test's files and the literals written of them

/** A value as TypeScript source: a literal tsc checks against a declared type (excess fields included). */
function literal(value) {
  if (value === undefined) return 'undefined'
  if (value === null) return 'null'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value)
  if (value instanceof Uint8Array) return `new Uint8Array([${value.join(', ')}])`
  if (value instanceof Date) return `new Date(${value.getTime()})`
  if (typeof Blob === 'function' && value instanceof Blob) return 'new Blob([])'
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  const prototype = Object.getPrototypeOf(value)
  assert.ok(prototype === Object.prototype || prototype === null, `a result holds a ${prototype?.constructor?.name}, which this test cannot write as a literal`)
  return `{ ${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${literal(v)}`).join(', ')} }`
}

test('what the dataset, table, S3 listing and index-builder code really returns is what their declarations declare, field for field', async (t) => {
  const { writeHiveDataset } = await import('../../testkit/hive-dataset.js')
  const { fixturePath, missingFixture } = await import('./helpers/fixtures.js')
  const { writeFile } = await import('node:fs/promises')
  const dir = await shapesDir
  const { dir: data } = await writeHiveDataset(path.join(dir, 'data'), { days: 2, countries: ['DE', 'FR'], rowsPerFile: 40, bloom: true })
  await writeFile(path.join(data, 'day=2026-01-07', 'broken.parquet'), 'not parquet') // a file error

  const shapes = [] // [declared type, value]
  const dataset = await api.openDataset(data)
  const probed = await dataset.probe('user_id', [0n, 3n, 999_999n], { confirm: true, columns: ['name'], where: { country: 'DE' } })
  assert.ok(probed.files.some((f) => f.error) && probed.files.some((f) => f.skipped) && probed.files.some((f) => f.confirm), 'the probe covers errors, skipped files and confirmations')
  shapes.push(['DatasetProbeResult', probed], ['DatasetProbeResult', await api.mergeShardResults([probed, probed])])
  const coverage = await dataset.inspect({ concurrency: 3 })
  assert.equal(coverage.stats.window, 3, 'inspect takes concurrency as its request window')
  shapes.push(['DatasetCoverage', coverage], ["ParquetDataset['files']", dataset.files], ["ParquetDataset['partitionTypes']", dataset.partitionTypes])
  const byDay = await dataset.probe('day', ['2026-01-07'], { shard: { index: 0, count: 2 } })
  shapes.push(['DatasetProbeResult', byDay])
  const progress = []
  await dataset.probe('user_id', [3n], { limit: 1, confirm: true, fileConcurrency: 1, onProgress: (p) => progress.push(p) })
  shapes.push(["Parameters<NonNullable<DatasetProbeOptions['onProgress']>>[0][]", progress])

  for (const table of ['delta/table_with_deletion_logs', 'iceberg/spark_rename_column']) {
    if (missingFixture(`tables/${table}`)) continue
    const opened = await api.openTable(fixturePath(`tables/${table}`))
    shapes.push(['TableProbeResult', await opened.probe(opened.table.columns[0].name, [1], { confirm: true })])
    shapes.push(["ParquetTable['table']", opened.table], ['TableSummary', await opened.summary()])
  }

  // The same files in a bucket (s3rver), listed with credentials and probed as an s3:// dataset.
  const { startS3Server, S3RVER_CREDENTIALS } = await import('../../testkit/s3-server.js')
  const s3server = await startS3Server({ buckets: ['shapes'] })
  try {
    for (const f of dataset.files) await s3server.put('shapes', `events/${f.path}`, readFileSync(path.join(data, f.path)))
    const s3Options = { endpoint: new URL(s3server.endpoint), credentials: { ...S3RVER_CREDENTIALS, region: 'us-east-1' } }
    shapes.push(['S3Entry[]', await s3.listS3('s3://shapes/events/**/*.parquet', { ...s3Options, maxKeys: 2 })])
    const inBucket = await api.openDataset('s3://shapes/events/', { ...s3Options, maxKeys: 3 })
    assert.equal(inBucket.files.length, dataset.files.length)
    shapes.push(["ParquetDataset['files']", inBucket.files], ['DatasetProbeResult', await inBucket.probe('user_id', [3n])])
  } finally {
    await s3server.stop()
  }

  const files = dataset.files.filter((f) => !f.path.endsWith('broken.parquet')).map((f) => path.join(data, f.path))
  const file = files[0]
  shapes.push(['AddIndexesResult', await indexBuilder.addIndexes(file, null, { columns: ['user_id', 'name'], pageIndex: true })])
  const indexPath = path.join(dir, '_index.puffin')
  // Written just now: their mtimes set back, or the index would record them unsettled and describe none of them.
  await (await import('../../testkit/settled-mtimes.js')).settleMtimes(...files)
  shapes.push(['Awaited<ReturnType<typeof buildSidecarIndex>>', await indexBuilder.buildSidecarIndex(files, indexPath, { columns: ['user_id'] })])
  const index = await indexBuilder.openSidecarIndex(indexPath)
  try {
    await index.loadDirectory()
    shapes.push(["SidecarIndex['files']", index.files], ["SidecarIndex['directory']", index.directory], ["SidecarIndex['stats']", index.stats])
    shapes.push(['SidecarProbeResult', await index.probe('user_id', [3n, 999_999n], { files: [...files, path.join(data, 'gone.parquet')] })])
  } finally {
    await index.close()
  }
  // A dataset through the index: a file it does not describe (the broken one, never indexed) shows in `index` of files and totals.
  const indexed = await api.openDataset(data, { index: indexPath })
  try {
    const withIndex = await indexed.probe('user_id', [3n])
    assert.ok(withIndex.totals.index?.notDescribed && withIndex.totals.index.described && withIndex.stats.index, 'the probe covers described and not-described files')
    shapes.push(['DatasetProbeResult', withIndex], ['DatasetProbeResult', await api.mergeShardResults([withIndex, withIndex])])
  } finally {
    await indexed.close()
  }
  const parquet = await api.openParquet(file)
  try {
    shapes.push(['Awaited<ReturnType<typeof adviseIndexes>>', await indexBuilder.adviseIndexes(parquet)])
    shapes.push(['IndexAdvice[]', await api.adviseIndexes(parquet, { fpp: 0.05 })]) // the main entry's, loaded on demand
  } finally {
    await parquet.close()
  }

  const importOf = (entry, names) => `import type { ${names.join(', ')} } from ${JSON.stringify(path.join(root, entry))}`
  const source = [
    importOf('js/index.js', ['IndexAdvice', 'DatasetProbeResult', 'DatasetCoverage', 'DatasetProbeOptions', 'ParquetDataset', 'ParquetTable', 'TableProbeResult', 'TableSummary']),
    importOf('js/index-builder/index.js', ['AddIndexesResult', 'SidecarIndex', 'SidecarProbeResult']),
    importOf('js/s3.js', ['S3Entry']),
    `import type { adviseIndexes, buildSidecarIndex } from ${JSON.stringify(path.join(root, 'js/index-builder/index.js'))}`,
    ...shapes.map(([type, value], i) => `export const shape${i} = ${literal(value)} satisfies ${type}`),
  ].join('\n')
  await writeFile(path.join(dir, 'shapes.mts'), source)
  const config = JSON.parse(readFileSync(path.join(root, 'tests/types/tsconfig.json'), 'utf8'))
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...config, files: ['shapes.mts'] }))
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc')
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir, timeout: 120_000, maxBuffer: 64 << 20 })
  } catch (error) {
    const lines = source.split('\n')
    const shown = `${error.stdout}`.split('\n').slice(0, 20).map((l) => { const m = /shapes\.mts\((\d+),/.exec(l); return m ? `${l}\n    in: ${lines[Number(m[1]) - 1].slice(0, 160)}…` : l })
    assert.fail(`the code's real results do not match their declarations:\n${shown.join('\n')}${error.stderr}`)
  }
  t.diagnostic(`${shapes.length} results checked`)
})
