// The package as npm users get it: `npm pack`, install the tarball into an empty folder, then import it,
// probe a file (also through the "browser" export condition, which resolves to the minified bundle),
// type-check against its declarations and run its CLI from there. Also holds the browser download to its
// size budget.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'
import { promisify } from 'node:util'

import { measureDownload } from '../../testkit/download-size.js'
import { buildSamples, samplesDir } from '../../testkit/demo-samples.js'
import { projectRoot as repoRoot } from './helpers/fixtures.js'
import { tempDir } from '../../testkit/temp-dir.js'

const execFileAsync = promisify(execFile)
// The installed package must load its own wasm, whatever module the suite itself was pointed at.
const { PARQUET_BLOOM_WASM_DIR, ...cleanEnv } = process.env
const run = (file, args, options) => execFileAsync(file, args, { env: cleanEnv, ...options })
const npm = (args, cwd) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeout: 60_000 })
const BROWSER_BUDGET_GZIP = 100 * 1024

const work = await tempDir('package')
let consumer
let packed
let manifest

before(async () => {
  manifest = await buildSamples()
  // --ignore-scripts: prepack would rebuild js/wasm/ while other test files load it; scripts/test.sh has
  // already built it, and the file list below proves the tarball carries it.
  const { stdout } = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], repoRoot)
  packed = JSON.parse(stdout)[0]
  // The runtime dependencies come along as tarballs packed from node_modules, installed with the package in
  // one offline install: the registry's stand-in. `npm install --offline` of the package alone would need
  // their full packuments in the npm cache, which `npm ci` never puts there (ENOTCACHED on a new machine).
  const dependencies = await dependencyTarballs(work)
  consumer = path.join(work, 'consumer')
  await mkdir(consumer)
  await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  await npm(['install', '--offline', path.join(work, packed.filename), ...dependencies], consumer)
})

/** Tarballs, packed into `dir`, of every package the installed parquet-bloom needs at run time (the closure of `dependencies`). */
async function dependencyTarballs(dir) {
  const { stdout: tree } = await npm(['ls', '--omit=dev', '--all', '--parseable'], repoRoot)
  const folders = tree.split('\n').filter((line) => line && path.resolve(line) !== path.resolve(repoRoot))
  if (!folders.length) return []
  const { stdout } = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir, ...folders], repoRoot)
  return JSON.parse(stdout).map((/** @type {{ filename: string }} */ p) => path.join(dir, p.filename))
}

test('the tarball holds the library, its types and the built wasm, and nothing else', () => {
  const files = packed.files.map((f) => f.path)
  for (const needed of ['package.json', 'js/index.js', 'js/index.d.ts', 'js/cli.js', 'js/wasm-loader.js', 'js/wasm/parquet_bloom.mjs', 'js/wasm/parquet_bloom.wasm',
    'js/parquet-bloom.browser.js']) {
    assert.ok(files.includes(needed), `${needed} missing from ${packed.filename}`)
  }
  const stray = files.filter((f) => !/^(js\/|package\.json$|README\.md$|LICENSE)/.test(f))
  assert.deepEqual(stray, [], 'only js/, package.json, README and LICENSE belong in the package')
})

test('the installed package imports, loads its wasm and probes a file from an empty folder', async () => {
  const s = manifest.samples.find((x) => x.file === 'orders.parquet')
  const values = s.probe.truth.map((t) => t.value)
  await writeFile(path.join(consumer, 'probe.js'), `
    import { openParquet, BloomFilter, ErrorCode, ParquetBloomError, memoryStats } from 'parquet-bloom'
    const file = await openParquet(${JSON.stringify(path.join(samplesDir, s.file))})
    const result = await file.probe(${JSON.stringify(s.probe.column)}, ${JSON.stringify(values)})
    const filter = BloomFilter.create({ ndv: 10, fpp: 0.01 })
    filter.insert(['x'], 'BYTE_ARRAY')
    const roundTrip = filter.mightContain('x', 'BYTE_ARRAY')
    filter.free()
    let code
    try { await openParquet(new Uint8Array(16)) } catch (error) { code = error instanceof ParquetBloomError && error.code }
    console.log(JSON.stringify({ rowGroups: result.rowGroups, roundTrip, code, expected: ErrorCode.MALFORMED_FOOTER, pool: memoryStats().poolInUseBytes }))
    await file.close()
  `)
  const { stdout } = await run(process.execPath, ['probe.js'], { cwd: consumer, timeout: 30_000 })
  const out = JSON.parse(stdout)
  s.probe.truth.forEach((t, i) => {
    for (const g of t.rowGroups) assert.equal(out.rowGroups[g].results[i].verdict, 'maybe', `${t.value} is in row group ${g}`)
  })
  const absent = s.probe.truth.findIndex((t) => t.rowGroups.length === 0)
  assert.ok(out.rowGroups.filter((g) => g.results[absent].verdict === 'absent').length >= out.rowGroups.length - 1)
  assert.equal(out.roundTrip, true)
  assert.equal(out.code, out.expected)
})

test('its TypeScript declarations resolve through "exports" and type the API', async () => {
  const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc')
  await writeFile(path.join(consumer, 'check.ts'), `
    import { openParquet, BloomFilter, ErrorCode, ParquetBloomError, type ProbeResult, type Verdict, type FilterHealth } from 'parquet-bloom'
    import { listS3, s3FetchFor, type S3Entry } from 'parquet-bloom/s3'
    export async function listed(): Promise<number> {
      const entries: S3Entry[] = await listS3('s3://bucket/data/**/*.parquet', { endpoint: 'http://127.0.0.1:9000', maxKeys: 10, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } })
      const fetch = s3FetchFor({ credentials: { accessKeyId: 'a', secretAccessKey: 'b', region: 'auto' } })
      const file = await openParquet(entries[0].url, { fetch, size: entries[0].size, etag: entries[0].etag, retries: 2 })
      return file.stats.retries + entries.length
    }
    export async function main(url: string): Promise<Verdict[]> {
      const file = await openParquet(url, { requestTimeoutMs: 1000, headers: { authorization: 'x' } })
      const result: ProbeResult = await file.probe('city', ['Tokyo'], { mode: 'block' })
      const health: FilterHealth = await file.visitBloomFilter(0, 'city', (f) => f.health())
      const fills: number[] = []
      await file.forEachBloomFilter({ columns: ['city'] }, (parts) => {
        if (parts.error === undefined && parts.bitset) fills.push(BloomFilter.fromBitset(parts.bitset).health().fillRatio + parts.rowGroup)
      })
      const owned: BloomFilter = await file.getBloomFilter(0, 'city')
      owned.free()
      const bytes: number = file.stats.bytesFetched + file.metadata.rowGroups[0].numRows + health.fillRatio + fills.length
      // @ts-expect-error an unknown probe mode is a type error
      await file.probe('city', ['Tokyo'], { mode: 'everything' })
      // @ts-expect-error verdicts are a closed set
      const wrong: Verdict = 'perhaps'
      try { await file.close() } catch (error) {
        if (error instanceof ParquetBloomError && error.code === ErrorCode.ABORTED) return [wrong]
      }
      return bytes > 0 ? result.rowGroups.map((g) => g.results[0].verdict) : []
    }
  `)
  try {
    await run(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--lib', 'es2022,dom', '--types', '', '--skipLibCheck', 'false', 'check.ts'], { cwd: consumer, timeout: 60_000 })
  } catch (error) {
    assert.fail(`tsc rejected the declarations:\n${error.stdout}${error.stderr}`)
  }
})

test('npx parquet-bloom --version runs the installed CLI', async () => {
  const { version } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8'))
  const { stdout } = await run('npx', ['--no-install', 'parquet-bloom', '--version'], { cwd: consumer, timeout: 30_000 })
  assert.match(stdout.trim(), new RegExp(`(^|\\s)v?${version.replace(/\./g, '\\.')}$`))
})

test('the "browser" export condition resolves to the bundle, which probes like the Node entry', async () => {
  const s = manifest.samples.find((x) => x.file === 'events-20rg.parquet')
  const values = [...s.probe.values, ...s.probe.absent]
  await writeFile(path.join(consumer, 'probe-conditions.js'), `
    import { openParquet } from 'parquet-bloom'
    const file = await openParquet(new Blob([(await import('node:fs')).readFileSync(${JSON.stringify(path.join(samplesDir, s.file))})]))
    const result = await file.probe(${JSON.stringify(s.probe.column)}, ${JSON.stringify(values)})
    await file.close()
    console.log(JSON.stringify({ entry: import.meta.resolve('parquet-bloom'), verdicts: result.rowGroups.map((g) => g.results.map((r) => r.verdict)) }))
  `)
  const probeWith = async (conditions) => JSON.parse((await run(process.execPath, [...conditions, 'probe-conditions.js'], { cwd: consumer, timeout: 30_000 })).stdout)
  const browser = await probeWith(['--conditions=browser'])
  const node = await probeWith([])
  assert.match(browser.entry, /\/node_modules\/parquet-bloom\/js\/parquet-bloom\.browser\.js$/)
  assert.match(node.entry, /\/node_modules\/parquet-bloom\/js\/index\.js$/)
  s.probe.truth.forEach((t, i) => {
    for (const g of t.rowGroups) assert.equal(browser.verdicts[g][i], 'maybe', `${t.value} is in row group ${g}`)
  })
  assert.deepEqual(browser.verdicts, node.verdicts)
})

test(`a browser downloads at most ${BROWSER_BUDGET_GZIP / 1024} KiB gzip (bundle + glue + wasm) to probe`, async () => {
  const { total, files } = await measureDownload()
  assert.ok(files.some((f) => f.file.endsWith('.wasm')))
  assert.ok(files.some((f) => f.file === 'js/parquet-bloom.browser.js'))
  assert.ok(total.gzip <= BROWSER_BUDGET_GZIP, `${(total.gzip / 1024).toFixed(1)} KiB gzip; run npm run size for the breakdown`)
})

test('a probe downloads none of the index advice (adviseIndexes loads js/advice/advise.js on demand)', async () => {
  const { modules, lazy } = await measureDownload()
  assert.deepEqual(modules.filter((m) => m.startsWith('js/index-builder/')), [])
  assert.ok(lazy.length > 0, 'the on-demand chunks are measured')
})

test('a probe of an unencrypted file downloads none of the encryption code (js/crypto/ loads on demand)', async () => {
  const { modules } = await measureDownload()
  assert.deepEqual(modules.filter((m) => m.startsWith('js/crypto/')), ['js/crypto/load-crypto.js'])
})
