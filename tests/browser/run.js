// Browser tests (`npm run test:browser`): the demo page (the commented sources, in a module worker) and
// the bare example page (the minified bundle, on the page and in a module worker), served by the demo
// server, in Debian's Chromium (headless via playwright-core) and Firefox ESR (headless via
// puppeteer-core over WebDriver BiDi), the same scenarios in both (tests/browser/drivers.js). Verdicts
// are checked against truth DuckDB reads back from the sample files and, with the cost readout, against
// a Node run of the same probe; the dataset card's samples against DuckDB and the table writers' input
// (tests/browser/sample-scenarios.js). Screenshots go to artifacts/browser/<browser>/. Exits non-zero on any
// failure, and never hangs.
//   node tests/browser/run.js [--browser=chromium|firefox] [scenario...]
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import send from 'send'

import { fixturePath, missingFixture } from '../js/helpers/fixtures.js'
import { measureDownload } from '../../testkit/download-size.js'
import { buildSamples, samplesDir } from '../../testkit/demo-samples.js'
import { repoRoot, startDemoServer } from '../../web/server.js'
import { assertEqual, assertOk, assertProbeMatchesTruth, nodeProbe, pageReader } from './checks.js'
import { BROWSERS, launchBrowser, missingBrowser } from './drivers.js'
import { roundsScenarios } from './rounds-scenarios.js'
import { datasetScenarios, tableMounts } from './dataset-scenarios.js'
import { adviceScenarios } from './advice-scenario.js'
import { sampleScenarios } from './sample-scenarios.js'
import { buildDatasetSamples } from '../../testkit/demo-datasets.js'
import { startSampleBucket } from '../../testkit/demo-bucket.js'
import { openParquet } from '../../js/index.js'

const GLOBAL_TIMEOUT_MS = 420_000 // both browsers, every scenario: 2 min 54 s measured on the shared 2-core machine, with room for more load
const STEP_TIMEOUT_MS = 30_000
const artifacts = path.join(repoRoot, 'artifacts/browser')
const ENCRYPTED_FIXTURE = 'parquet-testing/encrypt_columns_and_footer_bloom_filter.parquet.encrypted'

const resources = { browser: undefined, servers: [] }

// Whatever happens, the process ends: a stuck browser or page fails the run instead of hanging it.
const watchdog = setTimeout(async () => {
  console.error(`browser tests: no result after ${GLOBAL_TIMEOUT_MS / 1000} s; giving up`)
  await Promise.race([cleanup(), new Promise((resolve) => setTimeout(resolve, 5000))])
  process.exit(1)
}, GLOBAL_TIMEOUT_MS)

async function cleanup() {
  const { browser, servers } = resources
  resources.browser = undefined
  resources.servers = []
  await browser?.close().catch(() => {})
  await Promise.all(servers.map((s) => s.close().catch(() => {})))
}

function preflight(browsers) {
  const problems = []
  if (!existsSync(path.join(repoRoot, 'js/wasm/parquet_bloom.wasm'))) {
    problems.push('js/wasm/parquet_bloom.wasm is missing: build it first with `bash scripts/build.sh wasm` (npm test and npm start do).')
  }
  if (!existsSync(path.join(repoRoot, 'js/parquet-bloom.browser.js'))) {
    problems.push('js/parquet-bloom.browser.js is missing: build it first with `bash scripts/build-bundle.sh` (scripts/build.sh wasm does).')
  }
  for (const name of browsers) {
    const missing = missingBrowser(name)
    if (missing) problems.push(missing)
  }
  return problems
}

/** A server without CORS headers on another port: a cross-origin page must be refused by the browser. */
function startServerWithoutCors() {
  const server = http.createServer((req, res) => {
    send(req, new URL(req.url, 'http://x').pathname, { root: samplesDir }).pipe(res)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((done) => {
      server.close(() => done())
      server.closeAllConnections()
    }),
  })))
}

// ---- scenarios ---------------------------------------------------------------------------------

const scenarios = []
const scenario = (name, fn) => scenarios.push({ name, fn })

scenario('url-probe', async ({ page, demo, manifest, jsRequests }) => {
  const s = manifest.samples.find((x) => x.file === 'events-20rg.parquet')
  const url = `${demo.url}web/samples/${s.file}`
  const values = [...s.probe.values, ...s.probe.absent]
  const read = pageReader(page)

  await page.goto(`${demo.url}web/`)
  await page.fill('#url-input', url)
  await page.click('#open-url')
  await page.waitForSelector('#probe-card:not([hidden])')
  assertEqual(await read.fact('Row groups'), String(s.probe.rowGroupCount), 'row groups shown')
  const columns = await read.columns()
  assertEqual(columns.map((c) => c.name), s.footer.columns.map((c) => c.name), 'columns shown')
  for (const c of s.footer.columns) {
    const shown = columns.find((x) => x.name === c.name).filters
    assertEqual(shown, c.filters === 0 ? 'none' : `${c.filters} of ${s.probe.rowGroupCount} row groups`, `filters of ${c.name}`)
  }

  await page.selectOption('#column-select', s.probe.column)
  await page.fill('#values-input', values.join('\n'))
  await page.click('#probe-button')
  await page.waitForSelector('#readout[data-requests]')

  const expected = await nodeProbe(url, s.probe.column, values)
  const grid = await read.grid()
  assertProbeMatchesTruth(grid, s.probe, 'grid')
  assertEqual(grid, expected.verdicts, 'grid equals the Node run of the same probe')
  const readout = await read.readout()
  assertEqual(readout.requests, expected.stats.requests, 'requests in the readout')
  assertEqual(readout.bytes, expected.stats.bytesFetched, 'bytes in the readout')
  assertEqual(readout.fileSize, s.sizeBytes, 'file size in the readout')
  assertOk(readout.bytes < s.sizeBytes / 10, `reads a small part of the file (${readout.bytes} of ${s.sizeBytes})`)
  assertOk(new RegExp(`in ${expected.stats.requests} requests`).test(readout.text), `readout text: ${readout.text}`)
  // The waterfall draws every request of the file so far (it was opened for this probe): one bar each, per round.
  const plan = await read.plan()
  assertOk(plan.shown, 'the read plan is shown')
  assertEqual(plan.requests.length, readout.requests, 'one waterfall row per request')
  assertOk(plan.requests.every((r) => r.bar), 'each row has its bar')
  assertEqual(plan.rounds, [...new Set(plan.requests.map((r) => r.round))].sort((a, b) => a - b), 'a heading per round')
  assertOk(plan.requests.some((r) => r.purpose === 'bloom'), `the filters' reads are drawn: ${plan.requests.map((r) => r.purpose)}`)

  // The probe ran in the module worker, which loaded the package once, as browsers get it: the bundle,
  // the glue and the wasm (the page itself loads nothing from js/).
  assertOk(page.workers().some((w) => w.url().endsWith('/web/probe-worker.js')), 'the probe worker is running')
  const measured = (await measureDownload()).files.map((f) => `/${f.file}`).sort()
  assertEqual([...jsRequests].sort(), measured, 'package files the worker loaded = the download scripts/size.js budgets')
})

scenario('confirm', async ({ page, demo, manifest }) => {
  // Confirm reads the data pages (hyparquet, through the bundle's on-demand chunks in the worker): the
  // rows shown must be those a Node run of the same confirming probe finds.
  const s = manifest.samples[0]
  const url = `${demo.url}web/samples/${s.file}`
  const values = [...s.probe.values, ...s.probe.absent]
  await page.goto(`${demo.url}web/`)
  await page.fill('#url-input', url)
  await page.click('#open-url')
  await page.waitForSelector('#probe-card:not([hidden])')
  await page.selectOption('#column-select', s.probe.column)
  await page.fill('#values-input', values.join('\n'))
  await page.click('#confirm-button')
  await page.waitForSelector('#readout[data-confirm-bytes]')
  const shown = await page.$$eval('#confirmed-rows tr[data-value]', (rows) => rows.map((r) => Number(r.getAttribute('data-rows'))))
  const file = await openParquet(url)
  let expected
  try {
    const result = await file.probe(s.probe.column, values, { confirm: true })
    expected = values.map((_, i) => result.rowGroups.reduce((n, g) => n + (g.results[i].rows?.length ?? 0), 0))
  } finally {
    await file.close()
  }
  assertEqual(shown, expected, 'rows found per value, as a Node run finds them')
  assertOk(expected.some((n) => n > 0), 'some value is found in the data pages')
})

scenario('local-file', async ({ page, demo, manifest }) => {
  const s = manifest.samples.find((x) => x.file === 'orders.parquet')
  const values = [...s.probe.values, ...s.probe.absent]
  const read = pageReader(page)

  await page.goto(`${demo.url}web/`)
  await page.setInputFiles('#file-input', path.join(samplesDir, s.file))
  await page.waitForSelector('#probe-card:not([hidden])')
  assertEqual(await read.fact('File'), `${s.file} (local)`, 'file name shown')
  assertEqual(await read.fact('Rows'), s.footer.numRows.toLocaleString('en-US'), 'rows shown')
  await page.selectOption('#column-select', s.probe.column)
  await page.fill('#values-input', values.join('\n'))
  await page.click('#probe-button')
  await page.waitForSelector('#readout[data-requests]')

  // The page reads the picked File as a Blob: the same source a Node run gets from the same bytes.
  const bytes = await readFile(path.join(samplesDir, s.file))
  const expected = await nodeProbe(new Blob([bytes]), s.probe.column, values)
  const grid = await read.grid()
  assertProbeMatchesTruth(grid, s.probe, 'grid')
  assertEqual(grid, expected.verdicts, 'grid equals the Node run of the same probe')
  const readout = await read.readout()
  assertEqual(readout.requests, expected.stats.requests, 'reads in the readout')
  assertEqual(readout.bytes, expected.stats.bytesFetched, 'bytes in the readout')

  const summary = await read.summary()
  s.probe.truth.forEach((t, i) => {
    if (t.rowGroups.length === 0) assertEqual(summary[i].text.includes('not in the file'), summary[i].maybe === 0, `summary of ${t.value}`)
    assertOk(summary[i].maybe >= t.rowGroups.length, `${t.value}: maybe in at least the ${t.rowGroups.length} row groups holding it`)
  })
  await page.waitForSelector(`#columns-table tr[data-column="${s.probe.column}"] td.health .health-line`)
  const health = await page.textContent(`#columns-table tr[data-column="${s.probe.column}"] td.health`)
  assertOk(/fill \d+%.*healthy/.test(health), `health of ${s.probe.column}: ${health}`)
})

scenario('thousands-of-row-groups', async ({ page, demo, manifest }) => {
  const s = manifest.samples.find((x) => x.file === 'thousands-of-row-groups.parquet')
  const values = [...s.probe.values, ...s.probe.absent]
  const read = pageReader(page)

  await page.goto(`${demo.url}web/`)
  await page.click(`button[data-sample="${s.file}"]`)
  await page.waitForSelector('#probe-card:not([hidden])')
  assertEqual(await page.inputValue('#values-input'), values.join('\n'), 'the sample prefills its values')
  await page.click('#probe-button')
  await page.waitForSelector('#readout[data-requests]')

  const expected = await nodeProbe(`${demo.url}web/samples/${s.file}`, s.probe.column, values)
  const summary = await read.summary()
  values.forEach((v, i) => {
    const counts = { absent: 0, maybe: 0, unknown: 0 }
    for (const g of expected.verdicts) counts[g[i]]++
    assertEqual({ absent: summary[i].absent, maybe: summary[i].maybe, unknown: summary[i].unknown }, counts, `summary of ${v}`)
  })
  // Collapsed: only row groups where some value may be present; then all of them.
  const interesting = expected.verdicts.map((g, i) => [g, i]).filter(([g]) => g.some((v) => v !== 'absent')).map(([, i]) => i)
  assertEqual((await read.grid({ withIndex: true })).map((r) => r.index), interesting, 'collapsed grid rows')
  assertProbeMatchesTruth(expected.verdicts, s.probe, 'Node run')
  await page.check('#show-all')
  const all = await read.grid()
  assertEqual(all.length, s.probe.rowGroupCount, 'all row groups drawn')
  assertEqual(all, expected.verdicts, 'full grid equals the Node run')
  await page.uncheck('#show-all')
})

scenario('health-warnings', async ({ page, demo, manifest }) => {
  // DuckDB was told to accept 30% false positives: its filters must be flagged; the 1% ones must not.
  const s = manifest.samples.find((x) => x.file === 'overfull.parquet')
  assertOk(s.falsePositiveRatio > 0.05, 'the sample is written overfull')
  await page.goto(`${demo.url}web/`)
  await page.click(`button[data-sample="${s.file}"]`)
  await page.waitForSelector('#check-all')
  await page.click('#check-all')
  for (const c of s.footer.columns.filter((c) => c.filters > 0)) {
    await page.waitForSelector(`#columns-table tr[data-column="${c.name}"] td.health .health-line`)
  }
  const cell = `#columns-table tr[data-column="${s.probe.column}"] td.health`
  const warnings = await page.$$eval(`${cell} li.warn`, (items) => items.map((li) => li.textContent))
  // The package's one health policy (js/filter/filter-health.js) judges it, as `parquet-bloom inspect` does.
  assertOk(warnings.some((w) => /^(high-fpp|saturated): /.test(w) && w.endsWith(`(${s.probe.rowGroupCount} of ${s.probe.rowGroupCount})`)),
    `high-fpp or saturated warning on every filter of ${s.probe.column}: ${JSON.stringify(warnings)}`)
  await page.click('#probe-button')
  await page.waitForSelector('#readout[data-requests]')
  assertProbeMatchesTruth(await pageReader(page).grid(), s.probe, 'grid')
})

scenario('error-not-parquet', async ({ page, demo }) => {
  const read = pageReader(page)
  await page.goto(`${demo.url}web/`)
  await page.fill('#url-input', `${demo.url}web/index.html`)
  await page.click('#open-url')
  const error = await read.error()
  assertEqual(error.code, 'MALFORMED_FOOTER', 'error code')
  assertEqual(error.title, 'This is not a readable Parquet file', 'error title')
  assertOk(error.message.includes('/web/index.html') && error.message.includes('PAR1'), `error message: ${error.message}`)
  assertOk(await page.isHidden('#file-card'), 'no file shown')
})

scenario('error-missing-file', async ({ page, demo }) => {
  const read = pageReader(page)
  await page.goto(`${demo.url}web/`)
  await page.fill('#url-input', 'samples/no-such-file.parquet') // relative: resolved against the page
  await page.click('#open-url')
  const error = await read.error()
  assertEqual(error.code, 'FILE_NOT_FOUND', 'error code') // a 404: no object at the URL, as a missing local file
  assertOk(error.message.includes(`${demo.url}web/samples/no-such-file.parquet`) && error.message.includes('404'), `error message: ${error.message}`)
})

scenario('error-cors', async ({ page, demo, noCors }) => {
  const read = pageReader(page)
  await page.goto(`${demo.url}web/`)
  await page.fill('#url-input', `${noCors.url}orders.parquet`)
  await page.click('#open-url')
  const error = await read.error()
  assertEqual(error.code, 'IO', 'error code')
  assertOk(/CORS/.test(error.message) && /CORS/.test(error.hint), `message and hint name CORS: ${error.message} / ${error.hint}`)
})

scenario('error-encrypted', async ({ page, demo }) => {
  const missing = missingFixture(ENCRYPTED_FIXTURE)
  if (missing) return { skipped: missing }
  const read = pageReader(page)
  await page.goto(`${demo.url}web/`)
  await page.setInputFiles('#file-input', fixturePath(ENCRYPTED_FIXTURE))
  const error = await read.error()
  assertEqual(error.code, 'ENCRYPTION_KEY_REQUIRED', 'error code')
  assertEqual(error.title, 'The file is encrypted', 'error title')
})

scenario('encrypted-file-with-keys', async ({ page, demo }) => {
  // Parquet modular encryption decrypted with WebCrypto in the page's worker: keys from the key fields.
  const missing = missingFixture(ENCRYPTED_FIXTURE)
  if (missing) return { skipped: missing }
  await page.goto(`${demo.url}web/`)
  await page.click('#keys summary')
  await page.fill('#footer-key-input', '0123456789012345')
  await page.fill('#column-keys-input', 'double_field=1234567890123450\nfloat_field=1234567890123451')
  await page.setInputFiles('#file-input', fixturePath(ENCRYPTED_FIXTURE))
  await page.waitForSelector('#probe-card:not([hidden])')
  await page.selectOption('#column-select', 'double_field')
  // Stored: i + 0.5 for i < 2000 (upstream data; its statistics agree). 3 is ruled out by the decrypted filter.
  await page.fill('#values-input', ['0.5', '1999.5', '3', '5000'].join('\n'))
  await page.click('#probe-button')
  await page.waitForSelector('#readout[data-requests]')
  assertEqual(await pageReader(page).grid(), [['maybe', 'maybe', 'absent', 'absent']], 'verdicts of the encrypted file')
  // Confirm decrypts the candidate data pages (AES-GCM header and page modules) in the worker: rows 0 and 1999.
  await page.click('#confirm-button')
  await page.waitForSelector('#readout[data-confirm-bytes]')
  const rows = await page.$$eval('#confirmed-rows tr[data-value]', (trs) => trs.map((r) => Number(r.getAttribute('data-rows'))))
  assertEqual(rows, [1, 1, 0, 0], 'rows found per value in the decrypted data pages')
})

scenario('encrypted-sample', async ({ page, demo, manifest }) => {
  // The sample DuckDB encrypted with a public demo key: one click fills the key fields from the manifest
  // and opens it. The decrypted statistics and dictionaries answer as DuckDB's truth says, Confirm lists
  // the rows DuckDB reads back, the key reaches neither the address bar nor storage, and the shared link
  // (which carries no key) opens and probes it again on a fresh page.
  const s = manifest.samples.find((x) => x.decryption)
  const url = `${demo.url}web/samples/${s.file}`
  const values = [...s.probe.values, ...s.probe.absent]
  const read = pageReader(page)
  const assertVerdictsMatchTruth = (grid, what) => {
    assertEqual(grid.length, s.probe.rowGroupCount, `${what}: row groups`)
    s.probe.truth.forEach((t, i) => grid.forEach((row, g) => {
      // No bloom filters: exact statistics and dictionaries decide every row group.
      assertEqual(row[i] === 'absent', !t.rowGroups.includes(g), `${what}: ${t.value} in row group ${g} reads ${row[i]}`)
    }))
  }

  await page.goto(`${demo.url}web/`)
  await page.click(`button[data-sample="${s.file}"]`)
  await page.waitForSelector('#probe-card:not([hidden])')
  assertEqual(await page.inputValue('#footer-key-input'), s.decryption.footerKey, 'the sample fills in its key')
  assertOk(/public demo key/.test(await page.textContent('#keys-note')), 'the page says the key is public')
  assertEqual(await read.fact('Rows'), s.footer.numRows.toLocaleString('en-US'), 'rows shown')
  assertEqual((await read.columns()).map((c) => [c.name, c.filters]), s.footer.columns.map((c) => [c.name, 'none']), 'columns, without bloom filters')
  assertEqual(await page.inputValue('#values-input'), values.join('\n'), 'the sample prefills its values')
  await page.click('#probe-button')
  await page.waitForSelector('#readout[data-requests]')
  const grid = await read.grid()
  assertVerdictsMatchTruth(grid, 'grid')
  const expected = await nodeProbe(url, s.probe.column, values, { decryption: s.decryption })
  assertEqual(grid, expected.verdicts, 'grid equals the Node run of the same probe')
  const readout = await read.readout()
  assertEqual([readout.requests, readout.bytes], [expected.stats.requests, expected.stats.bytesFetched], 'requests and bytes in the readout')

  await page.click('#confirm-button')
  await page.waitForSelector('#readout[data-confirm-bytes]')
  const rows = await page.$$eval('#confirmed-rows tr[data-value]', (trs) => trs.map((r) => Number(r.getAttribute('data-rows'))))
  assertEqual(rows, s.probe.truth.map((t) => t.rowCount), 'rows found per value in the decrypted data pages = rows DuckDB reads back')

  const address = await page.evaluate(() => location.href)
  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]))
  assertOk(!decodeURIComponent(address).includes(s.decryption.footerKey) && !stored.includes(s.decryption.footerKey), 'the key is in neither the address nor storage')
  assertEqual(new URL(address).searchParams.get('url'), url, 'the address keeps the probe shareable')

  // A plaintext sample next clears the key the encrypted one filled in.
  await page.click('button[data-sample="orders.parquet"]')
  await page.waitForSelector('#probe-card:not([hidden])')
  assertEqual(await page.inputValue('#footer-key-input'), '', 'a plaintext sample clears the sample key')

  await page.goto(address) // a fresh page: the link's sample takes its key from the manifest
  await page.waitForSelector('#readout[data-requests]')
  assertVerdictsMatchTruth(await read.grid(), 'grid from the shared link')
  assertEqual(await page.inputValue('#footer-key-input'), s.decryption.footerKey, 'the link filled in the sample\'s key')
})

scenario('cross-origin-probe', async ({ page, demo, manifest }) => {
  // The page is on 127.0.0.1, the file on localhost: another origin, so CORS (with a preflight for the
  // suffix Range) must let the probe through, Content-Range included.
  const s = manifest.samples.find((x) => x.file === 'orders.parquet')
  const url = `http://localhost:${demo.port}/web/samples/${s.file}`
  const values = [...s.probe.values, ...s.probe.absent]
  const params = new URLSearchParams({ url, column: s.probe.column })
  for (const v of values) params.append('value', v)
  await page.goto(`${demo.url}web/?${params}`) // a shared link opens and probes at once
  await page.waitForSelector('#readout[data-requests]')
  const grid = await pageReader(page).grid()
  assertProbeMatchesTruth(grid, s.probe, 'grid')
  assertEqual(grid, (await nodeProbe(`${demo.url}web/samples/${s.file}`, s.probe.column, values)).verdicts, 'grid equals the Node run')
})

scenario('bare-example', async ({ page, demo, manifest, jsRequests }) => {
  const s = manifest.samples.find((x) => x.file === 'orders.parquet')
  const values = [...s.probe.values, ...s.probe.absent]
  const params = new URLSearchParams({ url: `../web/samples/${s.file}`, column: s.probe.column })
  for (const v of values) params.append('value', v)
  await page.goto(`${demo.url}examples/browser.html?${params}`)
  await page.waitForSelector('body[data-state]')
  assertEqual(await page.getAttribute('body', 'data-state'), 'done', `example state (${await page.textContent('#out')})`)
  const shown = JSON.parse(await page.getAttribute('#out', 'data-result'))
  const verdicts = shown.rowGroups.map((g) => g.results.map((r) => r.verdict))
  const expected = await nodeProbe(`${demo.url}web/samples/${s.file}`, s.probe.column, values)
  assertProbeMatchesTruth(verdicts, s.probe, 'example output')
  assertEqual(verdicts, expected.verdicts, 'example output equals the Node run')
  assertEqual(shown.stats, expected.stats, 'example stats equal the Node run')
  // The page imports the minified bundle: it loaded the bundle, the glue and the wasm, and nothing else.
  const measured = (await measureDownload()).files.map((f) => `/${f.file}`).sort()
  assertEqual([...jsRequests].sort(), measured, 'package files the page loaded = the download scripts/size.js budgets')
})

scenario('bundle-in-worker', async ({ page, demo, manifest }) => {
  // The same bundle in a module worker (its import.meta.url is the bundle's, so the wasm resolves).
  const s = manifest.samples.find((x) => x.file === 'events-20rg.parquet')
  const url = `${demo.url}web/samples/${s.file}`
  const values = [...s.probe.values, ...s.probe.absent]
  await page.goto(`${demo.url}examples/browser.html`) // any page of the origin the bundle is served from
  const verdicts = await page.evaluate(({ bundle, url, column, values }) => new Promise((resolve, reject) => {
    const code = `import { openParquet } from ${JSON.stringify(bundle)}
      const { url, column, values } = (await new Promise((r) => { self.onmessage = (e) => r(e.data) }))
      try {
        const file = await openParquet(url)
        const result = await file.probe(column, values)
        await file.close()
        postMessage({ verdicts: result.rowGroups.map((g) => g.results.map((r) => r.verdict)) })
      } catch (error) { postMessage({ error: String(error.stack ?? error) }) }`
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })), { type: 'module' })
    worker.onmessage = (e) => { worker.terminate(); e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.verdicts) }
    worker.onerror = (e) => reject(new Error(e.message ?? 'worker failed to load'))
    worker.postMessage({ url, column, values })
  }), { bundle: `${demo.url}js/parquet-bloom.browser.js`, url, column: s.probe.column, values })
  assertProbeMatchesTruth(verdicts, s.probe, 'worker')
  assertEqual(verdicts, (await nodeProbe(url, s.probe.column, values)).verdicts, 'worker verdicts equal the Node run of the sources')
})

scenarios.push(...adviceScenarios())
const rounds = roundsScenarios()
scenarios.push(...rounds.scenarios)
resources.servers.push(rounds)
const datasets = datasetScenarios()
scenarios.push(...datasets.scenarios)
resources.servers.push(datasets)
scenarios.push(...sampleScenarios())

// ---- runner ------------------------------------------------------------------------------------

async function main() {
  const args = process.argv.slice(2)
  const chosen = args.filter((a) => a.startsWith('--browser=')).map((a) => a.slice('--browser='.length))
  const browsers = chosen.length ? chosen : Object.keys(BROWSERS)
  const only = args.filter((a) => !a.startsWith('--'))
  const problems = preflight(browsers)
  if (problems.length) {
    for (const p of problems) console.error(`browser tests cannot run: ${p}`)
    return 1
  }
  const manifest = await buildSamples({ log: (line) => console.log(`# ${line}`) })
  const datasetManifest = await buildDatasetSamples({ log: (line) => console.log(`# ${line}`) })
  const bucket = await startSampleBucket(samplesDir)
  resources.servers.push({ close: () => bucket.stop() })
  // What the demo server saw, for the sample scenarios to hold the page's read plan to.
  const seen = []
  const demo = Object.assign(await startDemoServer({ port: 0, mounts: tableMounts(), documents: { '/web/samples/bucket.json': { endpoint: bucket.endpoint, prefix: bucket.prefix } },
    onRequest: (request) => seen.push(request) }), { requests: seen })
  resources.servers.push(demo)
  const noCors = await startServerWithoutCors()
  resources.servers.push(noCors)

  let passed = 0
  let failed = 0
  let skipped = 0
  for (const browserName of browsers) {
    const shots = path.join(artifacts, browserName)
    await mkdir(shots, { recursive: true })
    try {
      resources.browser = await launchBrowser(browserName, { timeout: STEP_TIMEOUT_MS })
    } catch (error) {
      failed++
      console.log(`not ok - ${browserName}: launch\n  ${String(error.stack ?? error).split('\n').join('\n  ')}`)
      continue
    }
    console.log(`# ${resources.browser.version}`)
    for (const { name, fn } of scenarios) {
      if (only.length && !only.includes(name)) continue
      const { page, onRequest, close } = await resources.browser.newPage({ viewport: { width: 1280, height: 900 }, timeout: STEP_TIMEOUT_MS })
      const pageErrors = []
      page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.message}`))
      // The browser itself logs failed loads and CORS refusals; anything else on console.error is ours.
      page.on('console', (message) => {
        if (message.type() === 'error' && !/Failed to load resource|blocked by CORS policy|net::ERR_FAILED|Cross-Origin Request Blocked/.test(message.text())) pageErrors.push(`console.error: ${message.text()}`)
      })
      const jsRequests = new Set()
      onRequest((url) => {
        const { pathname } = new URL(url)
        if (pathname.startsWith('/js/')) jsRequests.add(pathname)
      })
      await rm(path.join(shots, `${name}-failed.png`), { force: true })
      const started = Date.now()
      try {
        const outcome = await fn({ page, demo, noCors, manifest, datasetManifest, jsRequests })
        if (pageErrors.length) throw new Error(pageErrors.join('\n'))
        await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
        if (outcome?.skipped) {
          skipped++
          console.log(`ok - ${browserName}: ${name} # SKIP ${outcome.skipped}`)
        } else {
          passed++
          console.log(`ok - ${browserName}: ${name} (${Date.now() - started} ms)`)
        }
      } catch (error) {
        failed++
        console.log(`not ok - ${browserName}: ${name}\n  ${String(error.stack ?? error).split('\n').join('\n  ')}`)
        if (pageErrors.length) console.log(`  page errors:\n    ${pageErrors.join('\n    ')}`)
        await page.screenshot({ path: path.join(shots, `${name}-failed.png`), fullPage: true }).catch(() => {})
      } finally {
        await close().catch(() => {})
      }
    }
    const browser = resources.browser
    resources.browser = undefined
    await browser.close().catch(() => {})
  }
  console.log(`# screenshots in ${path.relative(process.cwd(), artifacts) || '.'}/<browser>/`)
  console.log(`browser: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
  return failed === 0 && passed > 0 ? 0 : 1
}

let code = 1
try {
  code = await main()
} catch (error) {
  console.error(`browser tests failed to run: ${error.stack ?? error}`)
} finally {
  await cleanup()
  clearTimeout(watchdog)
}
process.exit(code)
