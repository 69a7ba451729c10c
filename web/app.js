// The demo page's controller: opening a URL or a local file, showing the footer and filter health,
// probing, and drawing verdicts with what they cost. All Parquet work runs in probe-worker.js.
import { explainError } from './error-view.js'
import { formatBytes, formatCount, formatPercent, plural } from './format.js'
import { COLLAPSE_ABOVE, renderConfirmedRows, renderGrid, renderSummary, summarizeVerdicts } from './verdicts-view.js'
import { WorkerClient } from './worker-client.js'

/**
 * The elements of web/index.html that $() returns as more than an HTMLElement, by id.
 * @typedef {{ 'url-input': HTMLInputElement, 'open-url': HTMLButtonElement, 'file-input': HTMLInputElement,
 *   'columns-table': HTMLTableElement, 'column-select': HTMLSelectElement, 'values-input': HTMLTextAreaElement,
 *   'mode-select': HTMLSelectElement, 'probe-button': HTMLButtonElement, 'confirm-button': HTMLButtonElement, 'show-all': HTMLInputElement }} PageElements
 */

/**
 * @template {string} Id
 * @param {Id} id
 * @returns {Id extends keyof PageElements ? PageElements[Id] : HTMLElement}
 */
const $ = (id) => /** @type {any} */ (document.getElementById(id))
const worker = new WorkerClient(new URL('./probe-worker.js', import.meta.url))

const state = {
  generation: 0, // bumped whenever another file is opened: replies about an older file are dropped
  file: undefined, // what the worker's open returned, plus { kind: 'url' | 'local', url? }
  health: new Map(), // column → health reply, or { error }
  healthStats: undefined,
  lastProbe: undefined,
  probeController: undefined,
  healthController: undefined,
}

// ---- opening -------------------------------------------------------------------------------------

/**
 * @param {{ url?: string, file?: File }} source
 * @param {{ column?: string, values?: string[], autoProbe?: boolean }} [preset]
 */
async function openSource(source, preset = {}) {
  const generation = ++state.generation
  state.probeController?.abort()
  state.healthController?.abort()
  Object.assign(state, { file: undefined, health: new Map(), healthStats: undefined, lastProbe: undefined })
  hideError()
  for (const id of ['file-card', 'probe-card', 'result-card']) $(id).hidden = true
  const label = source.file ? source.file.name : source.url
  showStatus(`Reading the footer of ${label}…`)
  $('open-url').disabled = true
  try {
    const decryption = decryptionFromForm()
    const info = await worker.call('open', { ...(source.file ? { file: source.file } : { url: source.url }), decryption })
    if (generation !== state.generation) return
    state.file = { ...info, kind: source.file ? 'local' : 'url', url: source.url, label }
    hideStatus()
    renderFile()
    prepareProbe(preset)
    if (preset.autoProbe && $('values-input').value.trim()) await runProbe()
  } catch (error) {
    if (generation !== state.generation) return
    hideStatus()
    showError(error)
  } finally {
    if (generation === state.generation) $('open-url').disabled = false
  }
}

/**
 * options.decryption from the key fields, or undefined when they are empty. The keys go to the worker
 * by postMessage and live in memory only: never in the URL, storage or the console.
 */
function decryptionFromForm() {
  const key = (text) => {
    const t = text.trim()
    return /^hex:(?:[0-9a-fA-F]{2})+$/.test(t) ? Uint8Array.from(t.slice(4).match(/../g), (h) => parseInt(h, 16)) : t
  }
  const footerKey = /** @type {HTMLInputElement} */ ($('footer-key-input')).value
  const aadPrefix = /** @type {HTMLInputElement} */ ($('aad-prefix-input')).value
  const columnKeys = {}
  for (const line of /** @type {HTMLTextAreaElement} */ ($('column-keys-input')).value.split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) columnKeys[line.slice(0, at).trim()] = key(line.slice(at + 1))
  }
  if (!footerKey.trim() && !aadPrefix && Object.keys(columnKeys).length === 0) return undefined
  return { ...(footerKey.trim() ? { footerKey: key(footerKey) } : {}), ...(aadPrefix ? { aadPrefix } : {}), columnKeys }
}

function resolveUrl(text) {
  const trimmed = text.trim()
  try {
    return new URL(trimmed, location.href).href // relative paths resolve against the page, not the worker
  } catch {
    return trimmed
  }
}

// ---- the footer --------------------------------------------------------------------------------

function renderFile() {
  const f = state.file
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
    tr.addEventListener('click', () => selectColumn(c.name))
    return tr
  }))
  f.columns.forEach((c) => renderHealthCell(c.name))
  setHealthNote('Click a column to probe it and check the health of its filters.')
  $('file-card').hidden = false
}

/**
 * One pill per index a column offers over the file's row groups: usable statistics, page index,
 * dictionary-only chunks, bloom filters. A file without bloom filters can still answer from the others.
 */
function indexPills(coverage, rowGroupCount) {
  const pills = []
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

function renderHealthCell(column) {
  const row = [...$('columns-table').tBodies[0].rows].find((r) => r.dataset.column === column)
  if (!row) return
  const cell = /** @type {HTMLTableCellElement} */ (row.querySelector('td.health'))
  const info = state.file.columns.find((c) => c.name === column)
  const health = state.health.get(column)
  cell.replaceChildren()
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
  if (health.pending) {
    cell.innerHTML = '<span class="muted">checking…</span>'
    return
  }
  if (health.error) {
    cell.innerHTML = '<span class="warn"></span>'
    cell.firstChild.textContent = `could not check: ${health.error.message}`
    return
  }
  const s = health.summary
  const line = document.createElement('div')
  line.className = 'health-line'
  const fill = s.minFill === undefined ? '' : formatPercent(s.minFill) === formatPercent(s.maxFill) ? formatPercent(s.minFill) : `${formatPercent(s.minFill)}–${formatPercent(s.maxFill)}`
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

/** The note under the columns table, with a button checking every column not yet checked. */
function setHealthNote(text) {
  const note = $('health-note')
  note.textContent = `${text} `
  const unchecked = state.file.columns.filter((c) => c.filters > 0 && !state.health.has(c.name))
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

async function checkHealth(column) {
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
      `${plural(reply.stats.requests, state.file.kind === 'local' ? 'read' : 'request')} so far, not counted in the probe readout.`)
  } catch (error) {
    if (generation !== state.generation) return
    if (error.code === 'ABORTED') state.health.delete(column)
    else state.health.set(column, { error })
  }
  renderHealthCell(column)
  if (state.lastProbe?.result.column === column) renderResult()
}

// ---- probing -----------------------------------------------------------------------------------

/** @param {{ column?: string, values?: string[] }} [preset] */
function prepareProbe({ column, values } = {}) {
  const f = state.file
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

function selectColumn(name) {
  $('column-select').value = name
  for (const row of $('columns-table').tBodies[0].rows) row.classList.toggle('selected', row.dataset.column === name)
  const info = state.file.columns.find((c) => c.name === name)
  $('column-type').textContent = `${info.typeLabel}${info.filters === 0 ? ' — no bloom filter: only its statistics can answer' : ''}`
  checkHealth(name)
}

/** Lines of the values box; a line in double quotes is a JSON string (exact spaces, escapes). */
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
async function runProbe({ confirm = false } = {}) {
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
    const reply = await worker.call('probe', { column, values, mode: $('mode-select').value, confirm }, { signal: controller.signal })
    if (generation !== state.generation) return
    state.lastProbe = reply
    hideStatus()
    renderResult()
    rememberInAddress(column, values)
  } catch (error) {
    if (generation !== state.generation) return
    hideStatus()
    if (error.code !== 'ABORTED' || controller.signal.aborted) showError(error)
  } finally {
    clearInterval(ticker)
    if (state.probeController === controller) {
      state.probeController = undefined
      setProbing(false)
    }
  }
}

function setProbing(busy) {
  $('probe-button').disabled = busy
  $('confirm-button').disabled = busy
  $('cancel-button').hidden = !busy
}

function renderResult() {
  const { result, stats, delta, ms } = state.lastProbe
  const f = state.file
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
  const fills = health?.checks ? new Map(health.checks.filter((c) => c.health).map((c) => [c.index, c.health.fillRatio])) : undefined
  const showAll = $('show-all').checked
  const grid = renderGrid(result, { showAll, fills })
  $('grid').innerHTML = grid.html
  $('show-all-label').hidden = result.rowGroups.length <= COLLAPSE_ABOVE
  $('grid-note').textContent = grid.hidden
    ? `Showing the ${plural(grid.shown, 'row group')} where a value may be present; ${formatCount(grid.hidden)} where every value is absent are hidden.`
    : `${plural(result.rowGroups.length, 'row group')} × ${plural(summary.length, 'value')}, column ${result.column}: ${f.columns.find((c) => c.name === result.column)?.typeLabel ?? result.physicalType}.`
  $('result-card').hidden = false
}

function strong(text) {
  const el = document.createElement('strong')
  el.textContent = text
  return el
}

/** Keeps a URL probe shareable: ?url=…&column=…&value=…&value=… */
function rememberInAddress(column, values) {
  if (state.file.kind !== 'url') return
  const params = new URLSearchParams({ url: state.file.url, column })
  for (const v of values) params.append('value', v)
  history.replaceState(null, '', `?${params}`)
}

// ---- messages ----------------------------------------------------------------------------------

function showStatus(text) {
  const el = $('status')
  el.innerHTML = '<span class="spinner" aria-hidden="true"></span>'
  el.append(text)
  el.hidden = false
}

function hideStatus() {
  $('status').hidden = true
}

function showError(error) {
  const e = explainError(error)
  const box = $('error')
  box.dataset.code = e.code
  box.querySelector('.error-title').textContent = e.title
  box.querySelector('.error-message').textContent = e.message
  const hint = /** @type {HTMLElement} */ (box.querySelector('.error-hint'))
  hint.textContent = e.hint
  hint.hidden = !e.hint
  box.hidden = false
}

function hideError() {
  $('error').hidden = true
}

// ---- samples, wiring -----------------------------------------------------------------------------

const KEY_FIELDS = ['footer-key-input', 'column-keys-input', 'aad-prefix-input']

/**
 * Puts an encrypted sample's keys (public demo keys, from the manifest) into the key fields, or clears
 * keys an earlier sample put there when this one needs none; keys a person typed are left alone. Like
 * typed keys they stay in the fields' memory only: never in the URL, storage or the console.
 * @param {{ file: string, decryption?: { footerKey?: string, columnKeys?: Record<string, string>, aadPrefix?: string } }} sample
 */
function useSampleKeys(sample) {
  const keys = /** @type {HTMLDetailsElement} */ ($('keys'))
  const [footer, columns, aad] = KEY_FIELDS.map((id) => /** @type {HTMLInputElement} */ ($(id)))
  const note = $('keys-note')
  if (sample.decryption) {
    const { footerKey = '', columnKeys = {}, aadPrefix = '' } = sample.decryption
    footer.value = footerKey
    columns.value = Object.entries(columnKeys).map(([column, key]) => `${column}=${key}`).join('\n')
    aad.value = aadPrefix
    keys.dataset.filledBy = sample.file
    keys.open = true
    note.textContent = `Filled in for ${sample.file}: its footer key is the public demo key "${footerKey}" ` +
      '(published in the README), so this sample protects nothing; it shows probing a file with keys.'
    note.hidden = false
  } else if (keys.dataset.filledBy) {
    for (const field of [footer, columns, aad]) field.value = ''
    forgetSampleKeys()
  }
}

/** The key fields no longer hold a sample's keys (cleared, or edited by hand). */
function forgetSampleKeys() {
  delete $('keys').dataset.filledBy
  $('keys-note').hidden = true
}

/** @returns {Promise<{ samples: any[] } | undefined>} the manifest, or undefined without one */
async function loadSamples() {
  const list = $('sample-list')
  let manifest
  try {
    const response = await fetch('samples/manifest.json', { cache: 'no-store' })
    if (!response.ok) throw new Error(String(response.status))
    manifest = await response.json()
  } catch {
    list.textContent = 'none yet: `npm start` writes them with DuckDB.'
    $('samples').hidden = false
    return undefined
  }
  list.replaceChildren(...manifest.samples.map((s) => {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'sample'
    button.dataset.sample = s.file
    button.title = `${s.title} — ${formatBytes(s.sizeBytes)}${s.decryption ? ' — its key is a public demo key' : ''}`
    button.textContent = `${s.file} · ${formatBytes(s.sizeBytes)}${s.decryption ? ' · encrypted' : ''}`
    button.addEventListener('click', () => {
      const url = sampleUrl(s)
      $('url-input').value = url
      useSampleKeys(s)
      openSource({ url }, { column: s.probe.column, values: [...s.probe.values, ...s.probe.absent] })
    })
    return button
  }))
  $('samples').hidden = false
  return manifest
}

const sampleUrl = (sample) => new URL(`samples/${sample.file}`, location.href).href

function wire() {
  $('url-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const url = resolveUrl($('url-input').value)
    if (url) openSource({ url })
  })
  $('file-input').addEventListener('change', () => {
    const file = $('file-input').files[0]
    if (file) openSource({ file })
    $('file-input').value = '' // the same file can be picked again
  })
  const zone = $('drop-zone')
  // Dropping anywhere on the page opens the file instead of navigating away to it.
  document.addEventListener('dragover', (event) => {
    event.preventDefault()
    zone.classList.add('dragging')
  })
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) zone.classList.remove('dragging')
  })
  document.addEventListener('drop', (event) => {
    event.preventDefault()
    zone.classList.remove('dragging')
    const file = event.dataTransfer?.files?.[0]
    if (file) openSource({ file })
  })
  $('probe-form').addEventListener('submit', (event) => {
    event.preventDefault()
    runProbe()
  })
  $('confirm-button').addEventListener('click', () => runProbe({ confirm: true }))
  $('cancel-button').addEventListener('click', () => state.probeController?.abort())
  $('column-select').addEventListener('change', () => selectColumn($('column-select').value))
  $('show-all').addEventListener('change', () => state.lastProbe && renderResult())
  for (const id of KEY_FIELDS) $(id).addEventListener('input', forgetSampleKeys)
  window.addEventListener('unhandledrejection', (event) => {
    event.preventDefault()
    showError(event.reason ?? {})
  })
}

wire()
const samples = loadSamples()
const params = new URLSearchParams(location.search)
if (params.get('url')) {
  const url = resolveUrl(params.get('url'))
  $('url-input').value = url
  // A link never carries keys: one to an encrypted sample opens with the sample's public key from the manifest.
  samples.then((manifest) => {
    const sample = manifest?.samples.find((s) => s.decryption && sampleUrl(s) === url)
    if (sample) useSampleKeys(sample)
    openSource({ url }, { column: params.get('column') ?? undefined, values: params.getAll('value'), autoProbe: params.getAll('value').length > 0 })
  })
}
