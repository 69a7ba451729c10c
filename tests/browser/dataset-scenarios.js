// Browser scenarios of the demo's dataset card: a public bucket prefix on a real S3 server (s3rver in its
// own process, testkit/s3-server.js, with a CORS configuration s3rver itself answers) holding a
// Hive dataset DuckDB wrote; and an Iceberg and a Delta table from the table fixtures, served on the demo's
// origin. Verdicts are checked against truth from outside parquet-bloom: DuckDB's query over the same
// files, and hyparquet's read of each live data file; the cost shown against the S3 server's own log.
import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { measureDownload } from '../../testkit/download-size.js'
import { fixturePath, missingFixture } from '../js/helpers/fixtures.js'
import { filesHolding, writeHiveDataset } from '../../testkit/hive-dataset.js'
import { startS3Server } from '../../testkit/s3-server.js'
import { readParquet } from '../js/helpers/table-truth.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { assertEqual, assertOk } from './checks.js'

const BUCKET = 'pb-demo'
const PREFIX = 'events/'
// Temporary credentials as STS hands them out: a key pair s3rver knows, and a session token that only the
// signature (checked by the test server, testkit/s3-server.js) and the request log can tell apart.
const SESSION_CREDENTIALS = Object.freeze({ accessKeyId: 'ASIABROWSERTEST', secretAccessKey: 'browser-test-secret-key', sessionToken: 'FwoGZXIvYXdzEBrowserSessionToken/+=' })
const ICEBERG = 'tables/iceberg/mytable_partitioned_eqdeletes'
const DELTA = 'tables/delta/dv-partitioned-with-checkpoint'

/** The table fixtures, served by the demo server under /tables/ (web/server.js mounts). */
export const tableMounts = () => (missingFixture('tables') ? {} : { tables: fixturePath('tables') })

/** The dataset card's state, read from the DOM. */
async function readDatasetCard(page) {
  await page.waitForSelector('#dataset-readout[data-files], #dataset-readout[data-error]')
  const failed = await page.getAttribute('#dataset-readout', 'data-error')
  if (failed) throw new Error(`the page shows an error: ${await page.textContent('#dataset-readout')}`)
  return page.evaluate(() => {
    const readout = /** @type {HTMLElement} */ (document.getElementById('dataset-readout'))
    const rows = [...document.querySelectorAll('#dataset-files tbody tr')].map((tr) => ({
      path: /** @type {HTMLElement} */ (tr).dataset.path,
      partitions: tr.children[1].textContent,
      cells: [...tr.querySelectorAll('td[data-verdict]')].map((td) => ({ verdict: /** @type {HTMLElement} */ (td).dataset.verdict, source: /** @type {HTMLElement} */ (td).dataset.source })),
    }))
    const steps = document.getElementById('dataset-steps')
    return { text: readout.textContent, files: Number(readout.dataset.files), requests: Number(readout.dataset.requests), rows,
      steps: steps.dataset.steps ? JSON.parse(steps.dataset.steps) : {}, stepsText: steps.textContent,
      facets: [...document.querySelectorAll('#dataset-facets button')].map((b) => /** @type {HTMLElement} */ (b).dataset.facet) }
  })
}

async function fillDatasetCard(page, demo, kind, fields, column, values) {
  await page.goto(`${demo.url}web/`)
  await page.click('#dataset-details summary')
  await page.selectOption('#dataset-kind', kind)
  for (const [selector, value] of Object.entries(fields)) {
    if (selector === '#table-format') await page.selectOption(selector, value)
    else await page.fill(selector, value)
  }
  await page.fill('#dataset-column', column)
  await page.fill('#dataset-values', values.map(String).join('\n'))
  await page.click('#dataset-button')
  return readDatasetCard(page)
}

/**
 * Each file the page lists must not read `absent` for a value hyparquet finds in it (deleted rows only
 * make a value less present, never absent), and the table's metadata must have ruled some file out.
 */
async function assertTableAnswers(card, root, column, values, what) {
  assertOk(card.rows.length > 0, `${what}: files listed (${card.rows.length})`)
  let ruledOut = 0
  for (const row of card.rows) {
    const { rows } = await readParquet(path.join(root, row.path), [column])
    const held = new Set(rows.map((r) => String(r[column])))
    values.forEach((value, i) => {
      const cell = row.cells[i]
      if (held.has(String(value))) assertOk(cell.verdict !== 'absent', `${what}: ${row.path} holds ${value} (hyparquet), the page reads ${cell.verdict}`)
      if (cell.verdict === 'absent') ruledOut++
    })
  }
  assertOk(ruledOut > 0, `${what}: nothing ruled out`)
  const tableSteps = (card.steps['table-partition'] ?? 0) + (card.steps['table-stats'] ?? 0)
  assertOk(tableSteps > 0 && card.rows.some((r) => r.cells.some((c) => c.source === 'table-stats' || c.source === 'table-partition')),
    `${what}: the table step decided some file (${card.stepsText})`)
}

/**
 * Values of `column` each held by exactly one data file of the fixture (from up to six files), and one
 * held by none, by hyparquet's read of every Parquet file under the table's folder (metadata and the
 * Delta log left out; delete files lack the column). Some of those files may no longer be live.
 */
async function valuesToProbe(root, column) {
  const perFile = []
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(root, path.join(entry.parentPath, entry.name))
    if (!entry.isFile() || !entry.name.endsWith('.parquet') || /(^|\/)(_delta_log|metadata)\//.test(relative)) continue
    const { rows } = await readParquet(path.join(root, relative), [column]).catch(() => ({ rows: [] }))
    perFile.push(new Set(rows.map((r) => r[column]).filter((v) => v !== undefined && v !== null)))
  }
  const counts = new Map()
  for (const held of perFile) for (const v of held) counts.set(v, (counts.get(v) ?? 0) + 1)
  const singles = perFile.map((held) => [...held].find((v) => counts.get(v) === 1)).filter((v) => v !== undefined).slice(0, 6)
  const numbers = [...counts.keys()].filter((v) => typeof v === 'number')
  return [...singles, numbers.length ? Math.max(...numbers) + 1000 : 'no-such-value']
}

export function datasetScenarios() {
  let ready
  const setup = () => (ready ??= (async () => {
    const { dir, remove } = await makeTempDir('browser-dataset')
    const root = path.join(dir, 'events')
    await writeHiveDataset(root, { days: 2, bloom: true, rowsPerFile: 300 })
    const { sessionToken, ...keyPair } = SESSION_CREDENTIALS
    const s3 = await startS3Server({ buckets: [BUCKET], cors: true, keyPairs: [keyPair] })
    const { listDataset } = await import('../../js/dataset/listing.js')
    const local = (await listDataset(root)).files
    for (const f of local) await s3.put(BUCKET, `${PREFIX}${f.path}`, await readFile(path.join(root, f.path)))
    await s3.put(BUCKET, `${PREFIX}_SUCCESS`, new Uint8Array(0)) // writers' bookkeeping: not a data file
    return { root, remove, s3, local }
  })())

  // Each probe of a table: `step` is the table step that must rule some file out for that column.
  const tableScenario = (name, fixture, format, probes) => ({
    name,
    fn: async ({ page, demo }) => {
      const missing = missingFixture(fixture)
      if (missing) return { skipped: missing }
      for (const { column, step, at } of probes) await probeTable(page, demo, `${name} ${column}${at ? ` at ${at}` : ''}`, fixture, format, column, step, at)
    },
  })

  const probeTable = async (page, demo, name, fixture, format, column, step, at = '') => {
    const root = fixturePath(fixture)
    const fields = { '#table-location': `${demo.url}${fixture}/`, '#table-format': format, '#table-at': at }
    const values = await valuesToProbe(root, column)
    assertOk(values.length > 1, `${name}: some ${column} value is in one file only`)
    const card = await fillDatasetCard(page, demo, 'table', fields, column, values)
    console.log(`# ${name}: ${card.text} | ${card.stepsText}`)
    await assertTableAnswers(card, root, column, values, name)
    assertOk(card.rows.some((r) => r.cells.some((c) => c.verdict !== 'absent')), `${name}: some listed file may hold a probed value`)
    assertOk(new RegExp(`^${format === 'iceberg' ? 'Iceberg' : 'Delta'} table, ${card.rows.length} live files`).test(card.stepsText), `${name}: steps line ${card.stepsText}`)
    assertOk((card.steps[step] ?? 0) > 0, `${name}: ${step} ruled some file out (${card.stepsText})`)
    if (at) assertOk(card.text.includes(format === 'delta' ? `version ${at}` : `snapshot ${at}`), `${name}: the readout names ${at}: ${card.text}`)
  }

  return {
    scenarios: [
      {
        name: 'dataset-bucket-prefix',
        fn: async ({ page, demo }) => {
          const { root, s3, local } = await setup()
          const values = [1003, 7] // 1003 is in one file; 7 in none (user_id = file * 1000 + 3i)
          s3.resetStats()
          const card = await fillDatasetCard(page, demo, 'prefix', { '#dataset-prefix': `s3://${BUCKET}/${PREFIX}`, '#dataset-endpoint': s3.endpoint }, 'user_id', values)
          console.log(`# bucket prefix: ${card.text}`)
          assertEqual(card.rows.map((r) => r.path), local.map((f) => f.path), 'the listing\'s Parquet files, _SUCCESS left out')
          for (const [i, value] of values.entries()) {
            const truth = await filesHolding(root, `user_id = ${value}`)
            for (const row of card.rows) {
              // Each file's min/max are disjoint from the others': a file not holding the value is ruled out.
              assertEqual(row.cells[i].verdict === 'absent', !truth.has(row.path), `${row.path}: ${value} reads ${row.cells[i].verdict}, DuckDB finds ${truth.get(row.path) ?? 0} rows`)
            }
          }
          // The cost shown is what the S3 server answered (preflights are the browser's, not the probe's).
          const answered = s3.stats.log.filter((e) => e.method !== 'OPTIONS').length
          assertEqual(card.requests, answered, `requests shown (${card.text}) = GETs the S3 server answered`)
          assertOk(card.facets.includes('country=FR') && card.facets.some((f) => f.startsWith('day=')), `partition facets: ${card.facets}`)
          await page.click('#dataset-facets button[data-facet="country=FR"]')
          const narrowed = await readDatasetCard(page)
          assertOk(narrowed.rows.length > 0 && narrowed.rows.every((r) => r.path.includes('country=FR')), 'the facet shows only its partition\'s files')

          // The same prefix as a path-style https URL (endpoint/bucket/prefix/), no endpoint field.
          const again = await fillDatasetCard(page, demo, 'prefix', { '#dataset-prefix': `${s3.endpoint}/${BUCKET}/${PREFIX}`, '#dataset-endpoint': '' }, 'user_id', values)
          assertEqual(again.rows.map((r) => r.cells.map((c) => c.verdict)), card.rows.map((r) => r.cells.map((c) => c.verdict)), 'the https form answers as the s3:// one')
          // AWS's virtual-hosted form names the bucket in the host (not reachable here: parsed only).
          const parsed = await page.evaluate(() => import('/web/dataset-app.js').then((m) => m.bucketSource('https://my-bucket.s3.eu-west-1.amazonaws.com/events/day%3D1/', '')))
          assertEqual(parsed, { prefix: 's3://my-bucket/events/day=1/' }, 'a virtual-hosted URL as an s3:// prefix')

          // The same objects as a list of URLs: no listing, the same answers.
          const urls = local.map((f) => `${s3.endpoint}/${BUCKET}/${PREFIX}${f.path}`)
          const listed = await fillDatasetCard(page, demo, 'urls', { '#dataset-urls': urls.join('\n') }, 'user_id', values)
          assertEqual(listed.rows.map((r) => r.cells.map((c) => c.verdict)), card.rows.map((r) => r.cells.map((c) => c.verdict)), 'a URL list answers as the prefix')
        },
      },
      {
        // openDataset('s3://…') from the minified bundle itself (not the demo's sources): the listing and
        // the signer load as chunks on demand, and every request is signed with session credentials.
        name: 'bundle-s3-prefix',
        fn: async ({ page, demo, jsRequests }) => {
          const { root, s3, local } = await setup()
          const values = [1003, 2006, 7] // each of the first two in one file; 7 in none (user_id = file * 1000 + 3i)
          await page.goto(`${demo.url}examples/browser.html`) // any page of the origin the bundle is served from
          const before = new Set(jsRequests)
          s3.resetStats()
          s3.requireSignature(SESSION_CREDENTIALS)
          let answer
          try {
            answer = await page.evaluate(async ({ bundle, url, options, values }) => {
              const { openDataset } = await import(bundle)
              const dataset = await openDataset(url, options)
              const { files, stats } = await dataset.probe('user_id', values)
              return { files: files.map((f) => ({ path: f.path, verdicts: f.values.map((v) => v.verdict), error: f.error?.code ?? null })), requests: stats.requests }
            }, { bundle: `${demo.url}js/parquet-bloom.browser.js`, url: `s3://${BUCKET}/${PREFIX}`, options: { endpoint: s3.endpoint, region: 'eu-west-1', credentials: SESSION_CREDENTIALS }, values })
          } finally {
            s3.requireSignature(undefined)
          }
          console.log(`# bundle s3:// prefix: ${answer.files.length} files, ${answer.requests} requests`)
          assertEqual(answer.files.map((f) => f.path), local.map((f) => f.path), 'the listing\'s Parquet files, _SUCCESS left out')
          assertEqual(answer.files.filter((f) => f.error), [], 'no file failed')
          for (const [i, value] of values.entries()) {
            const truth = await filesHolding(root, `user_id = ${value}`)
            for (const file of answer.files) {
              // Each file's min/max are disjoint from the others': a file not holding the value is ruled out.
              assertEqual(file.verdicts[i] === 'absent', !truth.has(file.path), `${file.path}: ${value} reads ${file.verdicts[i]}, DuckDB finds ${truth.get(file.path) ?? 0} rows`)
            }
          }
          // At the request level: the listing and every read were signed with the session credentials (the
          // server's independent signer checked each signature) and carried the session token.
          const signed = s3.stats.log.filter((e) => e.method !== 'OPTIONS')
          assertOk(signed.some((e) => e.query.get('list-type') === '2') && signed.some((e) => e.range), `a listing and range reads reached the server: ${signed.map((e) => `${e.method} ${e.path}`)}`)
          for (const e of signed) {
            assertEqual([[200, 206].includes(e.status), e.injected ?? null, e.securityToken, /Credential=ASIABROWSERTEST\/\d{8}\/eu-west-1\/s3\/aws4_request/.test(e.authorization ?? '')],
              [true, null, SESSION_CREDENTIALS.sessionToken, true], `${e.method} ${e.path} ${e.range ?? ''} (status ${e.status}): signed with the session credentials`)
          }
          assertEqual(answer.requests, signed.length - signed.filter((e) => e.query.get('list-type') === '2').length, 'the probe\'s requests = the reads the S3 server answered')
          // The S3 listing and the signer came as chunks of their own, fetched only now.
          const download = await measureDownload()
          const base = new Set(download.files.map((f) => `/${f.file}`))
          const loadedNow = [...jsRequests].filter((p) => !before.has(p) && !base.has(p))
          assertOk(loadedNow.length >= 2, `on-demand chunks loaded for s3:// (${loadedNow.join(', ')})`)
          assertOk(download.lazy.some((c) => loadedNow.includes(`/${c.file}`)), 'what was loaded on demand is outside the budgeted download')
        },
      },
      // The Iceberg table is partitioned by name (identity), the Delta table by part.
      tableScenario('table-iceberg', ICEBERG, 'iceberg', [{ column: 'id', step: 'table-stats' }, { column: 'name', step: 'table-partition' }]),
      // Version 12: before the last commits, after the checkpoint (10), so checkpoint and commits are both read.
      tableScenario('table-delta', DELTA, 'delta', [{ column: 'col1', step: 'table-stats' }, { column: 'col1', step: 'table-stats', at: '12' }]),
    ],
    async close() {
      if (!ready) return
      const { s3, remove } = await ready
      await s3.stop()
      await remove()
    },
  }
}
