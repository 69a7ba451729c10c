// Browser scenario of the dataset card's samples (web/samples/datasets.json, testkit/demo-datasets.js):
// each sample button fills the card and probes; every file's verdict is checked against truth from outside
// parquet-bloom — DuckDB's reading of the dataset's files (which hold the value, which lack the column,
// which have bloom filters) and, for the tables, the writers' own input (each data file's ids, the rows deleted).
// Also: the words of the per-value answers agree with the table of files, and the card's disclosure marker
// sits on the heading's line.
import { statSync } from 'node:fs'
import path from 'node:path'

import { DATASET_DIR, DELTA_DELETED, DELTA_FILES, ICEBERG_SHAPE } from '../../testkit/demo-datasets.js'
import { samplesDir } from '../../testkit/demo-samples.js'
import { duckdb, filesHolding, quote } from '../../testkit/hive-dataset.js'
import { fileIds } from '../../testkit/iceberg-writer.js'
import { assertEqual, assertOk } from './checks.js'

/** The card after a sample's probe: the readout, per file its verdicts, per value the answers' words. */
async function readCard(page) {
  await page.waitForSelector('#dataset-readout[data-files], #dataset-readout[data-error]')
  const failed = await page.getAttribute('#dataset-readout', 'data-error')
  if (failed) throw new Error(`the page shows an error: ${await page.textContent('#dataset-readout')}`)
  return page.evaluate(() => ({
    readout: document.getElementById('dataset-readout').textContent,
    read: Number(document.getElementById('dataset-readout').dataset.read),
    rows: [...document.querySelectorAll('#dataset-files tbody tr')].map((tr) => ({
      path: /** @type {HTMLElement} */ (tr).dataset.path,
      cells: [...tr.querySelectorAll('td[data-verdict]')].map((td) => ({ verdict: /** @type {HTMLElement} */ (td).dataset.verdict, reason: /** @type {HTMLElement} */ (td).dataset.reason })),
    })),
    answers: [...document.querySelectorAll('#dataset-answers li')].map((li) => {
      const d = /** @type {HTMLElement} */ (li).dataset
      return { value: d.value, may: Number(d.may), absent: Number(d.absent), unknown: Number(d.unknown), why: JSON.parse(d.why), text: li.textContent }
    }),
  }))
}

/** Clicks sample `id` on a fresh page: the sample as the manifest gives it, the values it probes, the card it fills. */
async function clickSample(page, demo, datasetManifest, id) {
  const sample = datasetManifest.samples.find((s) => s.id === id)
  const values = [...sample.values, ...sample.absent]
  await page.goto(`${demo.url}web/`)
  await page.click('#dataset-details summary')
  demo.requests.length = 0
  await page.click(`button[data-dataset-sample="${id}"]`)
  const card = await readCard(page)
  console.log(`# ${id}: ${card.readout} | ${card.answers.map((a) => a.text).join(' | ')}`)
  return { sample, values, card }
}

/**
 * The card's read plan (web/plan-view.js) against the demo server's log of the probe: every request the
 * server saw for `wanted` paths is a row of the plan, and every such row a request it saw (a range read
 * `bytes=a-b`, a whole object no Range, a HEAD by its method).
 */
async function assertPlanIsServerLog(page, demo, wanted, what) {
  const rows = await page.$$eval('#dataset-plan tr[data-request]', (trs) => trs.map((tr) => ({
    file: tr.getAttribute('data-file'), offset: tr.getAttribute('data-offset'), length: tr.getAttribute('data-length') })))
  // Both as the bytes served: a suffix range (`bytes=-n`) and a whole object by the file's size on disk.
  const sizeOf = (file) => {
    try {
      return statSync(path.join(samplesDir, file.slice('/web/samples/'.length))).size
    } catch {
      return 0 // an object that is not there (a 404): no bytes on either side
    }
  }
  const served = (file, start, end) => `${file} ${start}-${end}`
  const asRow = (r) => {
    const file = decodeURIComponent(new URL(r.file, demo.url).pathname)
    if (r.offset === '' && r.length === '') return `${file} HEAD`
    if (r.offset === '') return served(file, Math.max(0, sizeOf(file) - Number(r.length)), sizeOf(file) - 1)
    return r.length === '' ? served(file, 0, sizeOf(file) - 1) : served(file, Number(r.offset), Number(r.offset) + Number(r.length) - 1)
  }
  const asSeen = (r) => {
    if (r.method === 'HEAD') return `${r.path} HEAD`
    const size = sizeOf(r.path)
    const range = /^bytes=(\d*)-(\d*)$/.exec(r.range ?? '')
    if (!range) return served(r.path, 0, size - 1)
    if (range[1] === '') return served(r.path, Math.max(0, size - Number(range[2])), size - 1)
    return served(r.path, Number(range[1]), Math.min(size - 1, range[2] === '' ? size - 1 : Number(range[2])))
  }
  const planned = rows.filter((r) => wanted(decodeURIComponent(new URL(r.file, demo.url).pathname))).map(asRow).sort()
  const seen = demo.requests.filter((r) => wanted(r.path)).map(asSeen).sort()
  assertOk(seen.length > 0, `${what}: the server saw the probe's reads`)
  assertEqual(planned, seen, `${what}: the read plan lists every request the server saw, and no other`)
}

/** The words agree with the table: per value, files that may hold it, that ruled it out, that could not answer. */
function assertAnswersMatchRows(card, values, what) {
  assertEqual(card.answers.map((a) => a.value), values.map(String), `${what}: one answer per value`)
  values.forEach((value, k) => {
    const verdicts = card.rows.map((r) => r.cells[k].verdict)
    const a = card.answers[k]
    assertEqual([a.may, a.absent, a.unknown], [verdicts.filter((v) => v === 'maybe' || v === 'present').length, verdicts.filter((v) => v === 'absent').length,
      verdicts.filter((v) => v === 'unknown').length], `${what}: the words for ${value} (${a.text})`)
    assertOk(a.text.includes(`may be in ${a.may} of ${card.rows.length} files`), `${what}: ${a.text}`)
  })
}

/** DuckDB's reading of the sample dataset: per value the files holding it, the files with the column, the files with bloom filters on it. */
async function datasetTruth(column, values) {
  const root = path.join(samplesDir, DATASET_DIR)
  const holding = []
  for (const v of values) holding.push(await filesHolding(root, `${column}::VARCHAR = ${quote(v)}`, { unionByName: true }))
  const db = await duckdb()
  try {
    const relative = (f) => path.relative(root, String(f)).split(path.sep).join('/')
    const glob = quote(path.join(root, '**/*.parquet'))
    const withColumn = new Set((await db.rows(`SELECT DISTINCT file_name FROM parquet_schema(${glob}) WHERE name = ${quote(column)}`)).map((r) => relative(r.file_name)))
    const withFilter = new Set((await db.rows(`SELECT file_name FROM parquet_metadata(${glob}) WHERE path_in_schema = ${quote(column)}
        GROUP BY file_name HAVING count(bloom_filter_offset) = count(*)`)).map((r) => relative(r.file_name)))
    return { holding, withColumn, withFilter }
  } finally {
    db.close()
  }
}

/** A row's file relative to the dataset's root: the page shows a URL's path, a listing's path under the prefix. */
const pathIn = (rowPath) => (rowPath.includes(`${DATASET_DIR}/`) ? rowPath.slice(rowPath.indexOf(`${DATASET_DIR}/`) + DATASET_DIR.length + 1) : rowPath)

function datasetScenario(id, { indexed = false } = {}) {
  return {
    name: `sample-${id}`,
    fn: async ({ page, demo, datasetManifest }) => {
      const { sample, values, card } = await clickSample(page, demo, datasetManifest, id)
      if (sample.kind !== 'prefix') await assertPlanIsServerLog(page, demo, (p) => p.startsWith(`/web/samples/${DATASET_DIR}/`) || p.endsWith('.puffin'), id)
      else {
        // The bucket's requests go to the S3 server: the plan begins with the listing's pages, then the files'.
        const drawn = await page.$$eval('#dataset-plan tr[data-request]', (trs) => trs.map((tr) => tr.getAttribute('data-purpose')))
        assertOk(drawn[0] === 'listing' && drawn.filter((p) => p === 'footer').length > 0, `${id}: the listing, then the files, drawn: ${drawn}`)
      }
      const truth = await datasetTruth(sample.column, values)
      assertEqual(card.rows.length, datasetManifest.dataset.files.length, `${id}: every file of the dataset listed`)
      assertAnswersMatchRows(card, values, id)
      values.forEach((value, k) => {
        const held = truth.holding[k]
        assertEqual(held.size > 0, sample.values.includes(value), `${id}: DuckDB finds ${value} as the sample says`)
        let falsePositives = 0
        for (const row of card.rows) {
          const file = pathIn(row.path)
          const { verdict, reason } = row.cells[k]
          if (held.has(file)) assertOk(verdict !== 'absent', `${id}: ${file} holds ${sample.column} = ${value} (${held.get(file)} rows, DuckDB), the page reads absent`)
          else if (!truth.withColumn.has(file)) assertEqual([verdict, reason], ['unknown', 'column-missing'], `${id}: ${file} has no ${sample.column} (DuckDB)`)
          else if (verdict !== 'absent') {
            // Not there: only a file without bloom filters (min/max only) may leave it open, unless the sidecar index answers for it.
            if (indexed || truth.withFilter.has(file)) falsePositives++
            else assertEqual(verdict, 'maybe', `${id}: ${file}`)
          }
        }
        assertOk(falsePositives <= 1, `${id}: ${value} is not in ${falsePositives} files whose filters (or index) still say maybe`)
      })
      if (indexed) assertOk(card.read < card.rows.length && card.readout.includes(`${card.rows.length - card.read} answered by the sidecar index without a read`), `${id}: the index spared some footer reads (${card.readout})`)
      else assertOk(card.readout.startsWith(`${card.rows.length} files: ${card.rows.length} footers read`), `${id}: every footer read (${card.readout})`)
      const missing = card.rows.filter((r) => !truth.withColumn.has(pathIn(r.path))).length
      if (missing) assertOk(card.answers.every((a) => a.why['column-missing'] === missing && a.text.includes(`${missing} could not answer (they lack the column)`)), `${id}: ${missing} files lack the column, said in words`)
    },
  }
}

/**
 * A table sample against its writer's input: `liveIds(path)` the ids each live data file holds in rows no delete
 * removes. A file holding a probed value must not read absent; each file's ids are a range of their own, so every
 * other file is ruled out (its bloom filter may leave one value open, at its false-positive rate).
 */
function tableScenario(id, liveIds) {
  return {
    name: `sample-${id}`,
    fn: async ({ page, demo, datasetManifest }) => {
      const { sample, values, card } = await clickSample(page, demo, datasetManifest, id)
      // Opened with `plan: true`: the table's metadata reads (and its probing for objects that are not there) too.
      await assertPlanIsServerLog(page, demo, (p) => p.startsWith('/web/samples/tables/'), id)
      const files = liveIds()
      assertEqual(card.rows.map((r) => r.path).sort(), [...files.keys()].sort(), `${id}: the live files, as the writer wrote them`)
      assertAnswersMatchRows(card, values, id)
      values.forEach((value, k) => {
        let open = 0
        for (const row of card.rows) {
          const held = files.get(row.path).has(BigInt(value))
          if (held) assertOk(row.cells[k].verdict !== 'absent', `${id}: ${row.path} holds id ${value} (the writer's input), the page reads absent`)
          else if (row.cells[k].verdict !== 'absent') open++
        }
        assertEqual([...files.values()].some((ids) => ids.has(BigInt(value))), sample.values.includes(value), `${id}: ${value} is in the table as the sample says`)
        assertOk(open <= 1, `${id}: ${value} left open in ${open} files that do not hold it`)
      })
      assertOk(card.read <= 1 && card.readout.includes("answered by the table's metadata without a read"), `${id}: the table's metadata answered for all but one file (${card.readout})`)
    },
  }
}

function icebergLiveIds() {
  const { files, rows, filesPerDay, then } = ICEBERG_SHAPE
  const map = new Map()
  for (let k = 0; k < files + then.files; k++) {
    const deleted = new Set(then.deletes.filter((d) => d.file === k).flatMap((d) => d.positions))
    map.set(`data/day=${20454 + Math.floor(k / filesPerDay)}/part-${String(k).padStart(5, '0')}.parquet`, new Set(fileIds(k, rows).filter((_, j) => !deleted.has(j))))
  }
  return map
}

function deltaLiveIds() {
  return new Map(DELTA_FILES.map((f, k) => [f.path, new Set(f.ids.filter((_, j) => k !== 1 || !DELTA_DELETED.includes(j)))]))
}

export function sampleScenarios() {
  return [
    {
      name: 'dataset-card-heading',
      fn: async ({ page, demo }) => {
        // The disclosure marker is drawn on the heading's line: the summary is one line as tall as the heading.
        await page.goto(`${demo.url}web/`)
        const boxes = await page.evaluate(() => {
          const summary = document.querySelector('#dataset-details > summary').getBoundingClientRect()
          const heading = document.getElementById('dataset-title').getBoundingClientRect()
          return { summaryTop: summary.top, headingTop: heading.top, summaryHeight: summary.height, headingHeight: heading.height }
        })
        assertOk(Math.abs(boxes.summaryTop - boxes.headingTop) < 2 && boxes.summaryHeight - boxes.headingHeight < 2, `marker and heading on one line: ${JSON.stringify(boxes)}`)
      },
    },
    datasetScenario('dataset-urls'),
    datasetScenario('dataset-index', { indexed: true }),
    datasetScenario('dataset-bucket'),
    tableScenario('table-iceberg', icebergLiveIds),
    tableScenario('table-delta', deltaLiveIds),
  ]
}
