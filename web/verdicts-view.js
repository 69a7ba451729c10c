// Renders a probe result: one summary line per value (how many row groups can be skipped) and the grid
// of row groups × values coloured absent / maybe / unknown. Built as HTML text, which keeps thousands
// of row groups fast to draw; every value the user typed is escaped.
import { formatCount, formatPercent } from './format.js'

/** Beyond this many row groups the grid starts with only those where some value is not absent. */
export const COLLAPSE_ABOVE = 200
const MAX_DRAWN_ROWS = 5000

/** @type {Record<string, string>} */
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (/** @type {unknown} */ text) => String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c])

/** @type {Record<import('../js/index.js').Verdict, string>} */
const SYMBOL = { absent: '✕', maybe: '●', present: '✔', unknown: '?' }
/**
 * The index that decided a verdict, as a cell shows it (the legend under the grid explains them).
 * @type {Partial<Record<import('../js/index.js').VerdictSource, string>>}
 */
export const SOURCE_TAG = { 'statistics': 'S', 'page-index': 'P', 'dictionary': 'D', 'bloom-filter': 'B', 'data-pages': 'R', 'value': 'V' }

/**
 * Per value: row groups by verdict, and the rows a reader still has to scan.
 * @param {import('../js/index.js').ProbeResult} result
 */
export function summarizeVerdicts(result) {
  const values = result.rowGroups[0]?.results.map((r) => r.value) ?? []
  return values.map((value, i) => {
    const counts = { absent: 0, maybe: 0, unknown: 0 }
    /** @type {Record<string, number>} source → row groups it ruled out */
    const absentBy = {}
    let rowsToRead = 0
    let totalRows = 0
    for (const g of result.rowGroups) {
      const { verdict, source } = g.results[i]
      counts[verdict === 'present' ? 'maybe' : verdict]++
      if (verdict === 'absent') absentBy[String(source)] = (absentBy[String(source)] ?? 0) + 1
      totalRows += g.numRows
      if (verdict !== 'absent') rowsToRead += g.numRows
    }
    return { value, ...counts, absentBy, rowsToRead, totalRows }
  })
}

/** @type {Record<string, string | undefined>} */
const SOURCE_NAME = { 'statistics': 'statistics', 'page-index': 'page indexes', 'dictionary': 'dictionaries', 'bloom-filter': 'bloom filters', 'data-pages': 'data pages', 'value': 'the value itself' }

/**
 * @param {ReturnType<typeof summarizeVerdicts>} summary
 * @param {number} rowGroupCount
 */
export function renderSummary(summary, rowGroupCount) {
  const rows = summary.map((s) => {
    const skip = s.absent === rowGroupCount
      ? '<strong class="good">not in the file</strong>'
      : `skip ${formatCount(s.absent)} of ${formatCount(rowGroupCount)} row groups · read ${formatCount(s.rowsToRead)} of ${formatCount(s.totalRows)} rows (${formatPercent(s.totalRows ? s.rowsToRead / s.totalRows : 0)})`
    const by = Object.entries(s.absentBy).map(([source, n]) => `${formatCount(n)} by ${SOURCE_NAME[source] ?? source}`).join(', ')
    return `<tr data-value="${escapeHtml(s.value)}" data-absent="${s.absent}" data-maybe="${s.maybe}" data-unknown="${s.unknown}">
      <td class="value">${escapeHtml(s.value)}</td>
      <td class="num v-maybe-text">${formatCount(s.maybe)}</td><td class="num v-absent-text">${formatCount(s.absent)}</td>
      <td class="num v-unknown-text">${formatCount(s.unknown)}</td><td>${skip}${by ? `<br><span class="muted small" data-ruled-out>ruled out ${escapeHtml(by)}</span>` : ''}</td></tr>`
  })
  return `<table class="summary"><thead><tr><th>Value</th><th class="num">maybe</th><th class="num">absent</th><th class="num">unknown</th><th>What it saves</th></tr></thead>
    <tbody>${rows.join('')}</tbody></table>`
}

/**
 * @param {import('../js/index.js').ProbeResult} result ParquetFile.probe() result
 * @param {{ showAll: boolean, fills?: Map<number, number> }} options fills: row group → filter fill ratio
 * @returns {{ html: string, shown: number, hidden: number }}
 */
export function renderGrid(result, { showAll, fills }) {
  const groups = result.rowGroups
  const collapsed = !showAll && groups.length > COLLAPSE_ABOVE
  let shownGroups = collapsed ? groups.filter((g) => g.results.some((r) => r.verdict !== 'absent')) : groups
  const hidden = groups.length - shownGroups.length
  const truncated = shownGroups.length > MAX_DRAWN_ROWS ? shownGroups.length - MAX_DRAWN_ROWS : 0
  if (truncated) shownGroups = shownGroups.slice(0, MAX_DRAWN_ROWS)
  const values = groups[0]?.results.map((r) => r.value) ?? []
  const head = `<tr><th class="num">Row group</th><th class="num">Rows</th>${fills ? '<th class="num" title="share of bits set in this row group\'s filter">Fill</th>' : ''}
    ${values.map((v) => `<th class="value" title="${escapeHtml(v)}">${escapeHtml(v)}</th>`).join('')}</tr>`
  const body = shownGroups.map((g) => {
    const fillRatio = fills?.get(g.index)
    const fill = fills ? `<td class="num muted">${fillRatio !== undefined ? formatPercent(fillRatio) : ''}</td>` : ''
    const cells = g.results.map((r) =>
      `<td class="cell v-${r.verdict}" data-verdict="${r.verdict}" data-source="${r.source ?? ''}" data-reason="${escapeHtml(r.reason)}" title="${escapeHtml(`${r.value} — ${r.verdict} (${r.reason}): ${r.detail}`)}">${SYMBOL[r.verdict]} ${r.verdict}${r.source ? ` <span class="source-tag">${SOURCE_TAG[r.source] ?? ''}</span>` : ''}</td>`).join('')
    return `<tr data-row-group="${g.index}"><td class="num">${g.index}</td><td class="num muted">${formatCount(g.numRows)}</td>${fill}${cells}</tr>`
  }).join('')
  const note = truncated ? `<p class="muted">… and ${formatCount(truncated)} more row groups not drawn.</p>` : ''
  return { html: `<table class="grid"><thead>${head}</thead><tbody>${body}</tbody></table>${note}`, shown: shownGroups.length, hidden }
}

const MAX_ROWS_SHOWN = 50

/**
 * The rows a confirmed probe (confirm: true) found: per value, the rows holding it (file-level, 0-based)
 * and the row groups its data pages could not decide.
 * @param {import('../js/index.js').ProbeResult} result
 */
export function renderConfirmedRows(result) {
  const values = result.rowGroups[0]?.results.map((r) => r.value) ?? []
  const body = values.map((value, i) => {
    const rows = []
    let truncated = false
    let undecided = 0
    for (const g of result.rowGroups) {
      const r = g.results[i]
      if (r.rows) rows.push(...r.rows)
      truncated ||= r.rowsTruncated === true
      if (r.verdict === 'maybe' || r.verdict === 'unknown') undecided++
    }
    const shown = rows.slice(0, MAX_ROWS_SHOWN).join(', ')
    const more = rows.length > MAX_ROWS_SHOWN || truncated ? ` … (${formatCount(rows.length)}${truncated ? '+' : ''} rows)` : ''
    const verdict = rows.length ? 'present' : undecided ? 'maybe' : 'absent'
    return `<tr data-value="${escapeHtml(value)}" data-rows="${rows.length}"><td class="value">${escapeHtml(value)}</td>
      <td class="v-${verdict}-text">${verdict}</td><td class="num">${formatCount(rows.length)}${truncated ? '+' : ''}</td>
      <td>${rows.length ? escapeHtml(shown + more) : '<span class="muted">none</span>'}${undecided ? `<br><span class="muted small">${formatCount(undecided)} row groups not confirmed (see their cells)</span>` : ''}</td></tr>`
  })
  return `<table class="summary"><thead><tr><th>Value</th><th>Exact</th><th class="num">Rows</th><th>Row numbers (0-based, file order)</th></tr></thead>
    <tbody>${body.join('')}</tbody></table>`
}
