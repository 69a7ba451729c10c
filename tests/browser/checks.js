// What the browser tests compare: assertions, the page's state as data (grid, readout, summary, error),
// and the same probe run in Node with the library, for the numbers the page must match.
import assert from 'node:assert/strict'

import { openParquet } from '../../js/index.js'
import { BROWSER_HTTP1_WINDOW } from '../../js/plan/link-model.js'

export function assertEqual(actual, expected, what) {
  assert.deepStrictEqual(actual, expected, what)
}

export function assertOk(value, what) {
  assert.ok(value, what)
}

/**
 * Verdicts (row group × value) against DuckDB's truth: every row group holding a value reads "maybe"
 * (a false negative is the one unforgivable bug); a value in no row group reads "absent" nearly
 * everywhere (the filters' ~1% false positives allowed).
 * @param {string[][]} verdicts
 * @param {{ truth: Array<{ value: string, rowGroups: number[] }>, rowGroupCount: number }} probe
 */
export function assertProbeMatchesTruth(verdicts, probe, what) {
  assert.equal(verdicts.length, probe.rowGroupCount, `${what}: row groups`)
  probe.truth.forEach((t, i) => {
    for (const g of t.rowGroups) assert.equal(verdicts[g][i], 'maybe', `${what}: ${t.value} is in row group ${g}`)
    if (t.rowGroups.length === 0) {
      const notAbsent = verdicts.filter((row) => row[i] !== 'absent').length
      assert.ok(notAbsent <= Math.max(1, Math.ceil(verdicts.length * 0.02)), `${what}: ${t.value} is in no row group, yet ${notAbsent} of ${verdicts.length} do not read absent`)
    }
  })
}

/**
 * The probe in Node with default options, as the page runs it: verdicts and the I/O it took, footer
 * included. For a browser's sake (`asBrowser`, the default) a URL is read through the window a browser
 * keeps for an HTTP/1.1 origin (6; js/plan/link-model.js), where Node keeps 256 in flight, so that the two runs
 * plan the same requests; other runtimes compare with Node's own window. `decryption`: an encrypted file's keys.
 */
export async function nodeProbe(source, column, values, { asBrowser = true, decryption = undefined } = {}) {
  const remote = typeof source === 'string' && /^https?:/.test(source)
  const file = await openParquet(source, { ...(remote && asBrowser ? { concurrency: BROWSER_HTTP1_WINDOW } : {}), decryption })
  try {
    const result = await file.probe(column, values)
    return { verdicts: result.rowGroups.map((g) => g.results.map((r) => r.verdict)), stats: file.stats, fileSize: file.fileSize }
  } finally {
    await file.close()
  }
}

/** The demo page's state, read from the DOM. */
export function pageReader(page) {
  return {
    fact: (term) => page.textContent(`#facts dd[data-fact="${term}"]`),

    columns: () => page.$$eval('#columns-table tbody tr', (rows) => rows.map((r) => ({
      name: r.dataset.column,
      filters: r.querySelector('td.filters').textContent.trim(),
    }))),

    /** Verdicts of the drawn rows, or { index, verdicts } with withIndex. */
    grid: ({ withIndex = false } = {}) => page.$$eval('#grid tr[data-row-group]', (rows, withIndex) => rows.map((r) => {
      const verdicts = [...r.querySelectorAll('td.cell')].map((td) => td.dataset.verdict)
      return withIndex ? { index: Number(r.dataset.rowGroup), verdicts } : verdicts
    }), withIndex),

    readout: () => page.$eval('#readout', (el) => ({
      text: el.textContent,
      requests: Number(el.dataset.requests),
      bytes: Number(el.dataset.bytes),
      fileSize: Number(el.dataset.fileSize),
    })),

    /** The read plan's waterfall (web/plan-view.js): one row per request drawn, and the rounds' headings. */
    plan: () => page.$eval('#plan', (el) => ({
      shown: !el.hidden,
      requests: [...el.querySelectorAll('tr[data-request]')].map((r) => ({ purpose: r.dataset.purpose, round: Number(r.dataset.round), bar: r.querySelector('.plan-bar') !== null })),
      rounds: [...el.querySelectorAll('tr.plan-round')].map((r) => Number(r.dataset.round)),
    })),

    summary: () => page.$$eval('#summary tbody tr', (rows) => rows.map((r) => ({
      value: r.dataset.value,
      absent: Number(r.dataset.absent),
      maybe: Number(r.dataset.maybe),
      unknown: Number(r.dataset.unknown),
      text: r.textContent,
    }))),

    async error() {
      await page.waitForSelector('#error:not([hidden])')
      return page.$eval('#error', (el) => ({
        code: el.dataset.code,
        title: el.querySelector('.error-title').textContent,
        message: el.querySelector('.error-message').textContent,
        hint: el.querySelector('.error-hint').textContent,
      }))
    },
  }
}
