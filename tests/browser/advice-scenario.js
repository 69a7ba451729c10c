// The demo's index advice in a browser: a sample file opened, advice asked for at a chosen false-positive
// rate, and what the page shows checked against truth computed here from the file's values as hyparquet
// reads them, not against parquet-bloom's own adviseIndexes: the columns, which have filters, the share
// of (value, other row group) pairs where the value is truly absent, what exact min/max rule out, the
// filter sizes BloomFilter.md's formula gives, and the arithmetic of a filter at that rate. Also: the
// advice code arrives as on-demand chunks only when asked for, and a bad rate reaches the error view.
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { parquetMetadata } from 'hyparquet'

import { measureDownload } from '../../testkit/download-size.js'
import { samplesDir } from '../../testkit/demo-samples.js'
import { readParquet } from '../js/helpers/table-truth.js'
import { assertEqual, assertOk, pageReader } from './checks.js'

const FPP = 0.05
// What the demo asks for (adviseIndexes' defaults, as docs/indexes.md documents them).
const SAMPLE_ROW_GROUPS = 8
const VALUES_PER_ROW_GROUP = 200
const TOLERANCE = 1e-9

/** A value hyparquet read as something that compares and keys by value (instants exact, bytes as hex). */
function comparable(v) {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex')
  if (v instanceof Date) return v.getTime()
  if (v && typeof v === 'object' && 'micros' in v) return v.micros * 1000n + v.nanos
  return v
}

/** The row groups the advice samples: evenly spaced, at most SAMPLE_ROW_GROUPS (docs/indexes.md). */
function sampledGroups(total) {
  if (total <= SAMPLE_ROW_GROUPS) return Array.from({ length: total }, (_, i) => i)
  return Array.from({ length: SAMPLE_ROW_GROUPS }, (_, i) => Math.floor((i * total) / SAMPLE_ROW_GROUPS))
}

/** Bitset bytes of a split block bloom filter for ndv values at fpp (BloomFilter.md, as arrow and parquet-java size it). */
function filterBitsetBytes(ndv, fpp) {
  const bytes = Math.ceil(Math.floor(-8 * ndv / Math.log(1 - fpp ** (1 / 8))) / 8)
  let size = 32
  while (size < bytes) size *= 2
  return size
}

/**
 * Per column, from the file's values: the distinct values of each sampled row group, and the ideal and
 * exact-min/max shares. A row group with more distinct values than are probed gives a range for the ideal
 * (the probes are some VALUES_PER_ROW_GROUP of them), exact when every choice gives the same share.
 */
async function adviceTruth(file) {
  const location = path.join(samplesDir, file)
  const { rows } = await readParquet(location)
  const bytes = readFileSync(location)
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const leaves = metadata.schema.slice(1).map((e) => e.name)
  const starts = []
  let row = 0
  for (const g of metadata.row_groups) {
    starts.push(row)
    row += Number(g.num_rows)
  }
  const groups = sampledGroups(metadata.row_groups.length)
  const columns = leaves.map((name, c) => {
    const sets = groups.map((g) => {
      const values = rows.slice(starts[g], starts[g] + Number(metadata.row_groups[g].num_rows)).map((r) => r[name]).filter((v) => v !== null && v !== undefined)
      const distinct = new Map(values.map((v) => [`${typeof comparable(v)}:${comparable(v)}`, comparable(v)]))
      const sorted = [...distinct.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      return { distinct, min: sorted[0], max: sorted.at(-1) }
    })
    let pairs = 0
    let low = 0
    let high = 0
    let outside = 0
    let everyValueProbed = true
    sets.forEach((from, a) => {
      const absentIn = [...from.distinct].map(([key, value]) => ({
        absent: sets.filter((to, b) => b !== a && !to.distinct.has(key)).length,
        outside: sets.filter((to, b) => b !== a && (value < to.min || value > to.max)).length,
      }))
      const probed = Math.min(absentIn.length, VALUES_PER_ROW_GROUP)
      if (probed < absentIn.length) everyValueProbed = false
      const counts = absentIn.map((x) => x.absent).sort((x, y) => x - y)
      pairs += probed * (sets.length - 1)
      low += counts.slice(0, probed).reduce((n, x) => n + x, 0)
      high += counts.slice(counts.length - probed).reduce((n, x) => n + x, 0)
      outside += absentIn.reduce((n, x) => n + x.outside, 0)
    })
    const filterBytes = sets.reduce((n, s) => n + filterBitsetBytes(s.distinct.size, FPP), 0) / sets.length * metadata.row_groups.length
    const hasFilters = groups.every((g) => metadata.row_groups[g].columns[c].meta_data.bloom_filter_offset !== undefined)
    return { name, ideal: [low / pairs, high / pairs], statistics: everyValueProbed ? outside / pairs : undefined, filterBytes, hasFilters, sampled: groups.length }
  })
  return { columns, rowGroups: metadata.row_groups.length }
}

/** The advice table as the page shows it, exact shares from the cells' data. */
function readAdvice(page) {
  return page.evaluate(() => {
    const table = /** @type {HTMLElement} */ (document.getElementById('advice-table'))
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => {
      const el = /** @type {HTMLElement} */ (tr)
      const share = (key) => {
        const td = /** @type {HTMLElement | null} */ (tr.querySelector(`td[data-share="${key}"]`))
        return td ? { value: td.dataset.value === undefined ? null : Number(td.dataset.value), text: td.textContent } : undefined
      }
      return {
        column: el.dataset.column, skipped: el.dataset.skipped, ideal: share('ideal'), statistics: share('statistics'), bloomFilter: share('bloomFilter'),
        withStatistics: share('withStatistics'), filterBytes: Number(/** @type {HTMLElement} */ (tr.querySelector('td[data-filter-bytes]'))?.dataset.filterBytes),
        hasFilters: /** @type {HTMLElement} */ (tr.querySelector('td[data-has-filters]'))?.dataset.hasFilters, text: tr.textContent,
      }
    })
    return { fpp: Number(table.dataset.fpp), sampled: Number(table.dataset.sampled), rows, note: document.getElementById('advice-note').textContent }
  })
}

export function adviceScenarios() {
  return [{
    name: 'index-advice',
    fn: async ({ page, demo, jsRequests }) => {
      const file = 'orders.parquet'
      const truth = await adviceTruth(file)
      const { files } = await measureDownload()
      const base = new Set(files.map((f) => `/${f.file}`))

      await page.goto(`${demo.url}web/`)
      await page.fill('#url-input', `${demo.url}web/samples/${file}`)
      await page.click('#open-url')
      await page.waitForSelector('#file-card:not([hidden])')
      assertEqual(await page.inputValue('#fpp-input'), '0.01', 'the rate defaults to 0.01')
      assertOk([...jsRequests].every((p) => base.has(p)), `before advice, only the probe download is loaded: ${[...jsRequests]}`)

      // A rate that is no probability: the library refuses it and the page says so in the error view.
      await page.fill('#fpp-input', '2')
      await page.click('#advice-button')
      const error = await pageReader(page).error()
      assertEqual(error.code, 'INVALID_ARGUMENT', 'a bad rate is refused')
      assertOk(/fpp/.test(error.message), `the message names the rate: ${error.message}`)

      await page.fill('#fpp-input', String(FPP))
      await page.click('#advice-button')
      await page.waitForSelector('#advice-result:not([hidden])')
      assertOk(await page.isHidden('#error'), 'the error of the earlier request is gone')
      const shown = await readAdvice(page)
      assertOk([...jsRequests].some((p) => !base.has(p)), 'the advice came in on-demand chunks')
      assertEqual(shown.fpp, FPP, 'the rate asked for')
      assertEqual(shown.sampled, Math.min(SAMPLE_ROW_GROUPS, truth.rowGroups), 'row groups sampled')
      assertOk(shown.note.startsWith(`Sampled ${shown.sampled} of ${truth.rowGroups} row groups`), `note: ${shown.note}`)
      assertEqual(shown.rows.map((r) => r.column), truth.columns.map((c) => c.name), 'one row per column of the file, in order')

      const near = (a, b) => Math.abs(a - b) <= TOLERANCE
      let exactIdeal = 0
      let partialIdeal = 0
      for (const [i, t] of truth.columns.entries()) {
        const r = shown.rows[i]
        const what = `${t.name}: ${r.text}`
        assertEqual(r.skipped, undefined, `${what}: every column of the file can be read`)
        const ideal = r.ideal.value
        assertOk(ideal >= t.ideal[0] - TOLERANCE && ideal <= t.ideal[1] + TOLERANCE, `${what}: ideal ${ideal} within [${t.ideal}] from hyparquet's values`)
        if (t.ideal[0] === t.ideal[1]) exactIdeal++
        if (ideal > 0 && ideal < 1) partialIdeal++
        // DuckDB writes exact min/max: with every value probed, statistics rule out exactly the pairs outside them.
        if (t.statistics !== undefined && r.statistics.value !== null) assertOk(near(r.statistics.value, t.statistics), `${what}: statistics ${r.statistics.value}, exact min/max ${t.statistics}`)
        if (r.statistics.value !== null) assertOk(r.statistics.value <= ideal + TOLERANCE, `${what}: statistics prune only absent pairs`)
        else assertEqual(r.statistics.text, 'no usable statistics', `${what}: statistics cell`)
        assertOk(near(r.bloomFilter.value, ideal * (1 - FPP)), `${what}: a filter alone rules out the absent pairs at 1 − fpp`)
        const stats = r.statistics.value ?? 0
        assertOk(near(r.withStatistics.value, stats + (ideal - stats) * (1 - FPP)), `${what}: a filter rules out, at 1 − fpp, the absent pairs statistics leave`)
        assertOk(r.filterBytes >= t.filterBytes && r.filterBytes <= t.filterBytes + 32 * truth.rowGroups, `${what}: ${r.filterBytes} filter bytes, bitsets alone ${t.filterBytes}`)
        assertEqual(r.hasFilters, String(t.hasFilters), `${what}: has filters`)
      }
      assertOk(exactIdeal >= truth.columns.length - 2, `the ideal share is exact for nearly every column (${exactIdeal} of ${truth.columns.length})`)
      assertOk(partialIdeal > 0, 'some column is neither always nor never absent')
      assertOk(truth.columns.some((c) => c.hasFilters) && truth.columns.some((c) => !c.hasFilters), 'columns with and without filters')
    },
  }]
}
