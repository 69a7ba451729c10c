// The probe view: the column and values to look for, the probe (or confirmation) the worker runs, and
// its result: what it read, the verdict summary and grid (web/verdicts-view.js), confirmed rows.
import { checkHealth } from './footer-view.js'
import { formatBytes, formatCount, formatPercent, plural } from './format.js'
import { hideError, hideStatus, showError, showStatus } from './messages.js'
import { $, shownFile, state, worker } from './page.js'
import { renderPlan } from './plan-view.js'
import { COLLAPSE_ABOVE, renderConfirmedRows, renderGrid, renderSummary, summarizeVerdicts } from './verdicts-view.js'

/** @param {{ column?: string, values?: string[] }} [preset] */
export function prepareProbe({ column, values } = {}) {
  const f = shownFile()
  const select = $('column-select')
  select.replaceChildren(...f.columns.map((c) => {
    const option = document.createElement('option')
    option.value = c.name
    option.textContent = c.filters === 0 ? `${c.name} (no bloom filter)` : c.name
    return option
  }))
  const preferred = f.columns.find((c) => c.name === column) ?? f.columns.find((c) => c.filters > 0) ?? f.columns[0]
  if (values) $('values-input').value = values.join('\n')
  $('probe-card').hidden = f.columns.length === 0
  if (preferred) selectColumn(preferred.name)
}

/** @param {string} name one of the file's columns */
export function selectColumn(name) {
  $('column-select').value = name
  for (const row of $('columns-table').tBodies[0].rows) row.classList.toggle('selected', row.dataset.column === name)
  const info = shownFile().columns.find((c) => c.name === name)
  if (!info) return // the name is one of the file's columns
  $('column-type').textContent = `${info.typeLabel}${info.filters === 0 ? ' — no bloom filter: only its statistics can answer' : ''}`
  checkHealth(name)
}

/**
 * Lines of the values box; a line in double quotes is a JSON string (exact spaces, escapes).
 * @param {string} text
 * @returns {string[]}
 */
function parseValues(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '').map((line) => {
    if (line.length >= 2 && line.startsWith('"') && line.endsWith('"')) {
      try {
        return JSON.parse(line)
      } catch {
        return line
      }
    }
    return line
  })
}

/** @param {{ confirm?: boolean }} [options] confirm: also read the data pages that may hold the values */
export async function runProbe({ confirm = false } = {}) {
  if (!state.file) return
  const column = $('column-select').value
  const values = parseValues($('values-input').value)
  hideError()
  if (values.length === 0) {
    showError({ code: 'INVALID_ARGUMENT', message: 'Enter at least one value to look for, one per line.' })
    return
  }
  const generation = state.generation
  state.probeController?.abort()
  const controller = new AbortController()
  state.probeController = controller
  setProbing(true)
  const started = performance.now()
  const groups = state.file.rowGroups.length
  showStatus(`Probing ${plural(values.length, 'value')} in ${plural(groups, 'row group')}…`)
  const ticker = setInterval(() => showStatus(`Probing ${plural(values.length, 'value')} in ${plural(groups, 'row group')}… ${((performance.now() - started) / 1000).toFixed(1)} s`), 250)
  try {
    // The select offers only the package's modes.
    const mode = /** @type {import('../js/index.js').ProbeOptions['mode']} */ ($('mode-select').value)
    const reply = await worker.call('probe', { column, values, mode, confirm }, { signal: controller.signal })
    if (generation !== state.generation) return
    state.lastProbe = reply
    hideStatus()
    renderResult()
    rememberInAddress(column, values)
  } catch (error) {
    if (generation !== state.generation) return
    hideStatus()
    const { code } = /** @type {import('./worker-client.js').WorkerError} */ (error)
    if (code !== 'ABORTED' || controller.signal.aborted) showError(error)
  } finally {
    clearInterval(ticker)
    if (state.probeController === controller) {
      state.probeController = undefined
      setProbing(false)
    }
  }
}

/** @param {boolean} busy */
function setProbing(busy) {
  $('probe-button').disabled = busy
  $('confirm-button').disabled = busy
  $('cancel-button').hidden = !busy
}

export function renderResult() {
  if (!state.lastProbe) return // drawn only after a probe
  const { result, stats, delta, ms } = state.lastProbe
  const f = shownFile()
  const unit = f.kind === 'local' ? 'read' : 'request'
  const readout = $('readout')
  readout.innerHTML = ''
  readout.append(
    'Read ', strong(formatBytes(stats.bytesFetched)), ` of ${formatBytes(f.fileSize)} in `, strong(plural(stats.requests, unit)),
    ` (${formatPercent(stats.bytesFetched / f.fileSize)} of the file, footer included).`,
  )
  const detail = document.createElement('span')
  detail.className = 'muted small'
  detail.textContent = ` This probe: ${plural(delta.requests, unit)}, ${formatBytes(delta.bytesFetched)}, ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms.`
  readout.append(detail)
  delete readout.dataset.confirmRequests
  delete readout.dataset.confirmBytes
  if (result.confirm) {
    const c = result.confirm
    const cost = document.createElement('span')
    cost.className = 'muted small'
    cost.textContent = ` Of it, confirming in the data pages: ${plural(c.requests, unit)}, ${formatBytes(c.bytesFetched)}.`
    readout.append(cost)
    Object.assign(readout.dataset, { confirmRequests: String(c.requests), confirmBytes: String(c.bytesFetched) })
  }
  const confirmed = $('confirmed-rows')
  confirmed.hidden = !result.confirm
  confirmed.innerHTML = result.confirm ? renderConfirmedRows(result) : ''
  Object.assign(readout.dataset, {
    requests: String(stats.requests),
    bytes: String(stats.bytesFetched),
    fileSize: String(f.fileSize),
    probeRequests: String(delta.requests),
    probeBytes: String(delta.bytesFetched),
  })

  const summary = summarizeVerdicts(result)
  $('summary').innerHTML = renderSummary(summary, result.rowGroups.length)

  const health = state.health.get(result.column)
  const fills = health && 'checks' in health
    ? new Map(health.checks.flatMap((c) => (c.health ? [[c.index, c.health.fillRatio]] : [])))
    : undefined
  const showAll = $('show-all').checked
  const grid = renderGrid(result, { showAll, fills })
  $('grid').innerHTML = grid.html
  $('show-all-label').hidden = result.rowGroups.length <= COLLAPSE_ABOVE
  $('grid-note').textContent = grid.hidden
    ? `Showing the ${plural(grid.shown, 'row group')} where a value may be present; ${formatCount(grid.hidden)} where every value is absent are hidden.`
    : `${plural(result.rowGroups.length, 'row group')} × ${plural(summary.length, 'value')}, column ${result.column}: ${f.columns.find((c) => c.name === result.column)?.typeLabel ?? result.physicalType}.`
  renderPlan($('plan'), result.plan)
  $('result-card').hidden = false
}

/** @param {string} text */
function strong(text) {
  const el = document.createElement('strong')
  el.textContent = text
  return el
}

/**
 * Keeps a URL probe shareable: ?url=…&column=…&value=…&value=…
 * @param {string} column
 * @param {string[]} values
 */
function rememberInAddress(column, values) {
  const { kind, url } = shownFile()
  if (kind !== 'url' || url === undefined) return // a URL file has its URL
  const params = new URLSearchParams({ url, column })
  for (const v of values) params.append('value', v)
  history.replaceState(null, '', `?${params}`)
}
