// The index advice view: on request, the worker's adviseIndexes over the open file (a sample of row
// groups decoded), drawn as one row per column — how much an ideal index, the file's statistics, a bloom
// filter and both would prune for probes of the column's own values, and what the filters would cost.
import { formatBytes, formatPercent, plural } from './format.js'
import { hideError, showError } from './messages.js'
import { $, shownFile, state, worker } from './page.js'

/** Shows the advice form for a newly opened file and forgets the last file's advice. */
export function resetAdvice() {
  state.adviceController?.abort()
  state.adviceController = undefined
  setAdvising(false)
  $('advice-note').textContent = ''
  $('advice-result').hidden = true
  $('advice-table').tBodies[0].replaceChildren()
}

export async function runAdvice() {
  if (!state.file) return
  hideError()
  const generation = state.generation
  state.adviceController?.abort()
  const controller = new AbortController()
  state.adviceController = controller
  // The text as typed: the library judges it (0 < fpp < 1) and the error view says why it was refused.
  const fpp = Number($('fpp-input').value)
  setAdvising(true)
  const started = performance.now()
  const progress = () => {
    $('advice-note').textContent = `Decoding a sample of row groups… ${((performance.now() - started) / 1000).toFixed(1)} s`
  }
  progress()
  const ticker = setInterval(progress, 250)
  try {
    const reply = await worker.call('advise', { fpp }, { signal: controller.signal })
    if (generation !== state.generation) return
    renderAdvice(reply)
  } catch (error) {
    if (generation !== state.generation) return
    $('advice-note').textContent = ''
    const { code } = /** @type {import('./worker-client.js').WorkerError} */ (error)
    if (code !== 'ABORTED' || controller.signal.aborted) showError(error)
  } finally {
    clearInterval(ticker)
    if (state.adviceController === controller) {
      state.adviceController = undefined
      setAdvising(false)
    }
  }
}

/** @param {boolean} busy */
function setAdvising(busy) {
  $('advice-button').disabled = busy
  $('advice-cancel').hidden = !busy
}

/**
 * A share as a cell: the rounded percentage shown, the exact number kept for readers of the page.
 * @param {number | null} share null: no usable statistics
 * @param {string} key
 */
function shareCell(share, key) {
  const td = document.createElement('td')
  td.className = 'num'
  td.dataset.share = key
  if (share === null) {
    td.className = 'muted'
    td.textContent = 'no usable statistics'
    return td
  }
  td.dataset.value = String(share)
  td.textContent = formatPercent(share)
  return td
}

/** @param {Awaited<ReturnType<import('./probe-worker.js').Handlers['advise']>>} reply */
function renderAdvice({ fpp, columns, read, ms }) {
  const f = shownFile()
  const unit = f.kind === 'local' ? 'read' : 'request'
  const sampled = columns.flatMap((c) => ('skipped' in c ? [] : [c.sampledRowGroups]))[0] // the first column sampled
  $('advice-note').textContent = `${sampled === undefined ? 'No column could be sampled' : `Sampled ${sampled} of ${plural(f.rowGroups.length, 'row group')}`}: ` +
    `read ${formatBytes(read.bytesFetched)} in ${plural(read.requests, unit)}, ${(ms / 1000).toFixed(1)} s.`
  const table = $('advice-table')
  Object.assign(table.dataset, { fpp: String(fpp), sampled: String(sampled ?? 0) })
  $('advice-fpp').textContent = String(fpp)
  table.tBodies[0].replaceChildren(...columns.map((c) => {
    const tr = document.createElement('tr')
    tr.dataset.column = c.column
    const name = document.createElement('td')
    name.className = 'name'
    name.textContent = c.column
    const type = document.createElement('td')
    type.className = 'type'
    // As the columns table above labels it; the advice itself knows only the physical type.
    type.textContent = f.columns.find((x) => x.name === c.column)?.typeLabel ?? c.physicalType
    tr.append(name, type)
    if ('skipped' in c) {
      tr.dataset.skipped = c.skipped
      const reason = document.createElement('td')
      reason.colSpan = 7
      reason.className = 'note'
      reason.textContent = `skipped: ${c.skipped}`
      tr.append(reason)
      return tr
    }
    const distinct = document.createElement('td')
    distinct.className = 'num'
    distinct.textContent = `~${Math.round(c.distinctPerRowGroup).toLocaleString('en-US')}`
    const bytes = document.createElement('td')
    bytes.className = 'num'
    bytes.dataset.filterBytes = String(c.filterBytes)
    bytes.textContent = formatBytes(c.filterBytes)
    const has = document.createElement('td')
    has.dataset.hasFilters = String(c.hasFilters)
    const pill = document.createElement('span')
    pill.className = `pill ${c.hasFilters ? 'ok' : 'none'}`
    pill.textContent = c.hasFilters ? 'yes' : 'no'
    has.append(pill)
    tr.append(distinct, shareCell(c.prune.ideal, 'ideal'), shareCell(c.prune.statistics, 'statistics'), shareCell(c.prune.bloomFilter, 'bloomFilter'),
      shareCell(c.prune.withStatistics, 'withStatistics'), bytes, has)
    return tr
  }))
  $('advice-result').hidden = false
}
