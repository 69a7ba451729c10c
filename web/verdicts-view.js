// Renders a probe result: one summary line per value (how many row groups can be skipped) and the grid
// of row groups × values coloured absent / maybe / unknown. Built as HTML text, which keeps thousands
// of row groups fast to draw; every value the user typed is escaped.
import { formatCount, formatPercent } from './format.js'

/** Beyond this many row groups the grid starts with only those where some value is not absent. */
export const COLLAPSE_ABOVE = 200
const MAX_DRAWN_ROWS = 5000

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])

const SYMBOL = { absent: '✕', maybe: '●', unknown: '?' }

/** Per value: row groups by verdict, and the rows a reader still has to scan. */
export function summarizeVerdicts(result) {
  const values = result.rowGroups[0]?.results.map((r) => r.value) ?? []
  return values.map((value, i) => {
    const counts = { absent: 0, maybe: 0, unknown: 0 }
    let rowsToRead = 0
    let totalRows = 0
    for (const g of result.rowGroups) {
      const verdict = g.results[i].verdict
      counts[verdict]++
      totalRows += g.numRows
      if (verdict !== 'absent') rowsToRead += g.numRows
    }
    return { value, ...counts, rowsToRead, totalRows }
  })
}

export function renderSummary(summary, rowGroupCount) {
  const rows = summary.map((s) => {
    const skip = s.absent === rowGroupCount
      ? '<strong class="good">not in the file</strong>'
      : `skip ${formatCount(s.absent)} of ${formatCount(rowGroupCount)} row groups · read ${formatCount(s.rowsToRead)} of ${formatCount(s.totalRows)} rows (${formatPercent(s.totalRows ? s.rowsToRead / s.totalRows : 0)})`
    return `<tr data-value="${escapeHtml(s.value)}" data-absent="${s.absent}" data-maybe="${s.maybe}" data-unknown="${s.unknown}">
      <td class="value">${escapeHtml(s.value)}</td>
      <td class="num v-maybe-text">${formatCount(s.maybe)}</td><td class="num v-absent-text">${formatCount(s.absent)}</td>
      <td class="num v-unknown-text">${formatCount(s.unknown)}</td><td>${skip}</td></tr>`
  })
  return `<table class="summary"><thead><tr><th>Value</th><th class="num">maybe</th><th class="num">absent</th><th class="num">unknown</th><th>What it saves</th></tr></thead>
    <tbody>${rows.join('')}</tbody></table>`
}

/**
 * @param {object} result ParquetFile.probe() result
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
    const fill = fills ? `<td class="num muted">${fills.has(g.index) ? formatPercent(fills.get(g.index)) : ''}</td>` : ''
    const cells = g.results.map((r) =>
      `<td class="cell v-${r.verdict}" data-verdict="${r.verdict}" title="${escapeHtml(`${r.value} — ${r.verdict}: ${r.reason}`)}">${SYMBOL[r.verdict]} ${r.verdict}</td>`).join('')
    return `<tr data-row-group="${g.index}"><td class="num">${g.index}</td><td class="num muted">${formatCount(g.numRows)}</td>${fill}${cells}</tr>`
  }).join('')
  const note = truncated ? `<p class="muted">… and ${formatCount(truncated)} more row groups not drawn.</p>` : ''
  return { html: `<table class="grid"><thead>${head}</thead><tbody>${body}</tbody></table>${note}`, shown: shownGroups.length, hidden }
}
