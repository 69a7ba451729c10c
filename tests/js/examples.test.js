// Runs the examples in examples/ as a user would (separate node processes) and checks what they print
// against truth DuckDB reads back from the sample files (testkit/demo-samples.js writes both).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'

import { buildSamples, samplesDir } from '../../testkit/demo-samples.js'
import { startDemoServer } from '../../web/server.js'
import { projectRoot as repoRoot } from './helpers/fixtures.js'

const run = promisify(execFile)
let manifest
let server

before(async () => {
  manifest = await buildSamples()
  server = await startDemoServer({ port: 0 })
})

after(async () => {
  await server?.close()
})

function sample(file) {
  return manifest.samples.find((s) => s.file === file)
}

/** Runs an example; resolves to { code, stdout, stderr } whatever the exit code. */
async function example(script, args) {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(repoRoot, 'examples', script), ...args], { cwd: repoRoot, timeout: 60_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    if (error.code === undefined || typeof error.code === 'string') throw error
    return { code: error.code, stdout: error.stdout, stderr: error.stderr }
  }
}

/** No false negative: every row group DuckDB finds a value in reads "maybe"; absent values read absent (a false positive or so allowed). */
function assertMatchesTruth(rowGroups, probe) {
  probe.truth.forEach((t, i) => {
    for (const g of t.rowGroups) assert.equal(rowGroups[g].results[i].verdict, 'maybe', `${t.value} is in row group ${g}`)
    if (t.rowGroups.length === 0) {
      const maybes = rowGroups.filter((g) => g.results[i].verdict !== 'absent').length
      assert.ok(maybes <= Math.max(1, Math.ceil(rowGroups.length * 0.02)), `${t.value} is in no row group but ${maybes} of ${rowGroups.length} read maybe`)
    }
  })
}

test('quickstart.js builds, probes and round-trips a filter', async () => {
  const { code, stdout, stderr } = await example('quickstart.js', [])
  assert.equal(code, 0, stderr)
  assert.match(stdout, /^paris\s+maybe present$/m)
  assert.match(stdout, /^round trip: \d+ bytes, tokyo still found$/m)
})

test('probe-url.js probes a sample over HTTP and reports the cost', async () => {
  const s = sample('orders.parquet')
  const values = s.probe.truth.map((t) => t.value)
  const url = `${server.url}web/samples/${s.file}`

  const { code, stdout, stderr } = await example('probe-url.js', [url, s.probe.column, ...values, '--json'])
  assert.equal(code, 0, stderr)
  const report = JSON.parse(stdout)
  assert.equal(report.fileSize, s.sizeBytes)
  assert.equal(report.result.rowGroups.length, s.probe.rowGroupCount)
  assertMatchesTruth(report.result.rowGroups, s.probe)
  assert.ok(report.stats.requests >= 1 && report.stats.bytesFetched < s.sizeBytes / 2, JSON.stringify(report.stats))

  const text = await example('probe-url.js', [url, s.probe.column, ...values])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, new RegExp(`^read .+ of .+ in ${report.stats.requests} requests?$`, 'm'))
})

test('probe-url.js explains a missing file and exits 2', async () => {
  const { code, stderr } = await example('probe-url.js', [`${server.url}web/samples/no-such-file.parquet`, 'city', 'Tokyo'])
  assert.equal(code, 2)
  assert.match(stderr, /^error \[FILE_NOT_FOUND\]: HTTP 404 /m)
})

test('inspect-files.js reports row groups, filters and their health', async () => {
  const files = ['orders.parquet', 'thousands-of-row-groups.parquet']
  const { code, stdout, stderr } = await example('inspect-files.js', [...files.map((f) => path.join(samplesDir, f)), '--json'])
  assert.equal(code, 0, stderr)
  const reports = stdout.trim().split('\n').map((line) => JSON.parse(line))
  assert.equal(reports.length, files.length)
  reports.forEach((report, i) => {
    const s = sample(files[i])
    assert.equal(report.rowGroups, s.probe.rowGroupCount)
    assert.equal(report.numRows, s.footer.numRows)
    assert.deepEqual(report.columns.map((c) => [c.name, c.filters, c.filterBytes]), s.footer.columns.map((c) => [c.name, c.filters, c.filterBytes]))
    for (const c of report.columns.filter((c) => c.filters > 0)) {
      // Writers size filters for ~1% false positives: a healthy fill is far from empty and from full.
      assert.ok(c.minFill > 0.05 && c.maxFill < 0.7, `${c.name}: fill ${c.minFill}–${c.maxFill}`)
      assert.ok(c.maxEstimatedFpp < 0.05, `${c.name}: estimated fpp ${c.maxEstimatedFpp}`)
    }
  })
})

test('inspect-files.js names a file that is not Parquet and exits 2', async () => {
  const { code, stderr } = await example('inspect-files.js', [path.join(repoRoot, 'web/index.html')])
  assert.equal(code, 2)
  assert.match(stderr, /index\.html: error \[MALFORMED_FOOTER\]/)
})
