// The footer view: the file's facts, one row per column (type, indexes, filters, their health), and the
// health checks the worker runs on request. A finished check is announced on healthEvents ('checked').
import { formatBytes, formatCount, formatPercent, plural } from './format.js'
import { $, shownFile, state, worker } from './page.js'

/** Dispatches 'checked' (detail: the column) when a column's health check has finished. */
export const healthEvents = new EventTarget()

/** @param {(column: string) => void} onSelectColumn a row was clicked */
export function renderFile(onSelectColumn) {
  const f = shownFile()
  const footerBytes = f.fileSize - f.metadataOffset - 8
  const facts = [
    ['File', f.kind === 'local' ? `${f.label} (local)` : f.label, 'wide'],
    ['Size', formatBytes(f.fileSize)],
    ['Rows', formatCount(f.numRows)],
    ['Row groups', formatCount(f.rowGroups.length)],
    ['Columns', formatCount(f.columns.length)],
    ['With bloom filters', `${f.columns.filter((c) => c.filters > 0).length} of ${f.columns.length}`],
    ['Footer', formatBytes(footerBytes)],
    ['Written by', f.createdBy || 'unknown', 'wide'],
  ]
  const dl = $('facts')
  dl.replaceChildren(...facts.map(([term, value, cls]) => {
    const div = document.createElement('div')
    if (cls) div.className = cls
    const dt = document.createElement('dt')
    dt.textContent = term
    const dd = document.createElement('dd')
    dd.textContent = value
    dd.dataset.fact = term
    div.append(dt, dd)
    return div
  }))

  const tbody = $('columns-table').tBodies[0]
  tbody.replaceChildren(...f.columns.map((c) => {
    const tr = document.createElement('tr')
    tr.dataset.column = c.name
    tr.innerHTML = '<td class="name"></td><td class="type"></td><td class="indexes"></td><td class="filters"></td><td class="num bytes"></td><td class="health"></td>'
    tr.cells[0].textContent = c.name
    tr.cells[1].textContent = c.typeLabel
    tr.cells[2].append(...indexPills(c.coverage, f.rowGroups.length))
    const pill = document.createElement('span')
    const all = f.rowGroups.length
    pill.className = `pill ${c.filters === 0 ? 'none' : c.filters === all ? 'ok' : 'partial'}`
    pill.textContent = c.filters === 0 ? 'none' : `${formatCount(c.filters)} of ${plural(all, 'row group')}`
    tr.cells[3].append(pill)
    tr.cells[4].textContent = c.filters === 0 ? '' : `${formatBytes(c.filterBytes)}${c.unknownLength ? ' +?' : ''}`
    tr.addEventListener('click', () => onSelectColumn(c.name))
    return tr
  }))
  f.columns.forEach((c) => renderHealthCell(c.name))
  setHealthNote('Click a column to probe it and check the health of its filters.')
  $('file-card').hidden = false
}

/**
 * One pill per index a column offers over the file's row groups: usable statistics, page index,
 * dictionary-only chunks, bloom filters. A file without bloom filters can still answer from the others.
 * @param {import('./page.js').OpenFile['columns'][number]['coverage']} coverage
 * @param {number} rowGroupCount
 */
function indexPills(coverage, rowGroupCount) {
  const pills = []
  /**
   * @param {string} label
   * @param {number} count
   * @param {string} title
   */
  const add = (label, count, title) => {
    if (count === 0) return
    const pill = document.createElement('span')
    pill.className = `pill index ${count === rowGroupCount ? 'ok' : 'partial'}`
    pill.dataset.index = label
    pill.textContent = count === rowGroupCount ? label : `${label} ${formatCount(count)}/${formatCount(rowGroupCount)}`
    pill.title = title
    pills.push(pill)
  }
  add('stats', coverage.statistics, 'row groups whose min/max statistics can be used')
  add('page index', coverage.pageIndex, 'row groups with a column index (per-page min/max)')
  add('dictionary', coverage.dictionaryOnly, 'row groups whose data pages are all dictionary-encoded')
  add('bloom', coverage.bloomFilter, 'row groups with a bloom filter')
  if (coverage.ignoredStatistics) {
    const note = document.createElement('span')
    note.className = 'pill index none'
    note.textContent = 'stats ignored'
    note.title = coverage.ignoredStatistics
    pills.push(note)
  }
  if (pills.length === 0) {
    const none = document.createElement('span')
    none.className = 'pill none'
    none.textContent = 'no index'
    pills.push(none)
  }
  return pills
}

/** @param {string} column */
function renderHealthCell(column) {
  const row = [...$('columns-table').tBodies[0].rows].find((r) => r.dataset.column === column)
  if (!row) return
  const cell = /** @type {HTMLTableCellElement} */ (row.querySelector('td.health'))
  const info = shownFile().columns.find((c) => c.name === column)
  const health = state.health.get(column)
  cell.replaceChildren()
  if (!info) return // the row drawn for it is one of the file's columns
  if (info.filters === 0) {
    cell.innerHTML = '<span class="muted">—</span>'
    return
  }
  if (!health) {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'linkbutton'
    button.textContent = 'check'
    button.addEventListener('click', (event) => {
      event.stopPropagation()
      checkHealth(column)
    })
    cell.append(button)
    return
  }
  if ('pending' in health) {
    cell.innerHTML = '<span class="muted">checking…</span>'
    return
  }
  if ('error' in health) {
    cell.innerHTML = '<span class="warn"></span>'
    const warn = /** @type {HTMLElement} */ (cell.firstChild)
    warn.textContent = `could not check: ${health.error.message}`
    return
  }
  const s = health.summary
  const line = document.createElement('div')
  line.className = 'health-line'
  // minFill and maxFill are both set (some filter was read) or both undefined.
  const fill = s.minFill === undefined || s.maxFill === undefined ? ''
    : formatPercent(s.minFill) === formatPercent(s.maxFill) ? formatPercent(s.minFill) : `${formatPercent(s.minFill)}–${formatPercent(s.maxFill)}`
  const sampled = health.checks.length < health.withFilter ? ` (${health.checks.length} of ${formatCount(health.withFilter)} sampled)` : ''
  const fpp = s.maxFpp ?? 0
  line.textContent = `fill ${fill} · est. false positives ${fpp < 0.0001 ? '< 0.01%' : `≤ ${formatPercent(fpp)}`}${sampled}`
  cell.dataset.warnings = String(s.warnings.length)
  const list = document.createElement('ul')
  for (const w of s.warnings) {
    const li = document.createElement('li')
    li.className = w.level === 'bad' ? 'warn' : 'note'
    li.textContent = `${w.text}${s.checked > 1 ? ` (${w.count} of ${s.checked})` : ''}`
    list.append(li)
  }
  if (s.warnings.length === 0) {
    const ok = document.createElement('span')
    ok.className = 'good'
    ok.textContent = ' ✓ healthy'
    line.append(ok)
  }
  cell.append(line)
  if (s.warnings.length) line.append(list)
}

/**
 * The note under the columns table, with a button checking every column not yet checked.
 * @param {string} text
 */
function setHealthNote(text) {
  const note = $('health-note')
  note.textContent = `${text} `
  const unchecked = shownFile().columns.filter((c) => c.filters > 0 && !state.health.has(c.name))
  if (unchecked.length === 0) return
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'linkbutton small'
  button.id = 'check-all'
  button.textContent = `Check ${unchecked.length === 1 ? 'the other column' : `all ${unchecked.length} unchecked columns`}`
  button.addEventListener('click', async () => {
    button.disabled = true
    for (const c of unchecked) await checkHealth(c.name)
  })
  note.append(button)
}

/** @param {string} column */
export async function checkHealth(column) {
  const info = state.file?.columns.find((c) => c.name === column)
  if (!info || info.filters === 0 || state.health.has(column)) return
  const generation = state.generation
  state.health.set(column, { pending: true })
  renderHealthCell(column)
  const controller = new AbortController()
  state.healthController = controller
  try {
    const reply = await worker.call('health', { column }, { signal: controller.signal })
    if (generation !== state.generation) return
    state.health.set(column, reply)
    state.healthStats = reply.stats
    setHealthNote(`Health checks read whole filters on a separate handle: ${formatBytes(reply.stats.bytesFetched)} in ` +
      `${plural(reply.stats.requests, shownFile().kind === 'local' ? 'read' : 'request')} so far, not counted in the probe readout.`)
  } catch (caught) {
    if (generation !== state.generation) return
    const error = /** @type {import('./worker-client.js').WorkerError} */ (caught) // what call() rejects with
    if (error.code === 'ABORTED') state.health.delete(column)
    else state.health.set(column, { error })
  }
  renderHealthCell(column)
  healthEvents.dispatchEvent(new CustomEvent('checked', { detail: column }))
}
