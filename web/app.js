// The demo page's controller: wires the views (web/source-view.js, footer-view.js, probe-view.js,
// advice-view.js, messages.js) together and runs the opening of a file. All Parquet work runs in probe-worker.js.
import { resetAdvice, runAdvice } from './advice-view.js'
import { healthEvents, renderFile } from './footer-view.js'
import { hideError, hideStatus, showError, showStatus } from './messages.js'
import { $, state, worker } from './page.js'
import { prepareProbe, renderResult, runProbe, selectColumn } from './probe-view.js'
import { decryptionFromForm, forgetSampleKeys, KEY_FIELDS, loadSamples, resolveUrl, sampleUrl, useSampleKeys } from './source-view.js'

/**
 * @param {{ url: string, file?: undefined } | { file: File, url?: undefined }} source
 * @param {{ column?: string, values?: string[], autoProbe?: boolean }} [preset]
 */
async function openSource(source, preset = {}) {
  const generation = ++state.generation
  state.probeController?.abort()
  state.healthController?.abort()
  resetAdvice()
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
    renderFile(selectColumn)
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

function wire() {
  $('url-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const url = resolveUrl($('url-input').value)
    if (url) openSource({ url })
  })
  $('file-input').addEventListener('change', () => {
    const file = $('file-input').files?.[0]
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
  $('advice-form').addEventListener('submit', (event) => {
    event.preventDefault()
    runAdvice()
  })
  $('advice-cancel').addEventListener('click', () => state.adviceController?.abort())
  $('cancel-button').addEventListener('click', () => state.probeController?.abort())
  $('column-select').addEventListener('change', () => selectColumn($('column-select').value))
  $('show-all').addEventListener('change', () => state.lastProbe && renderResult())
  for (const id of KEY_FIELDS) $(id).addEventListener('input', forgetSampleKeys)
  // A finished health check redraws the result of its column (its grid shows the filters' fill).
  healthEvents.addEventListener('checked', (event) => {
    if (state.lastProbe?.result.column === /** @type {CustomEvent} */ (event).detail) renderResult()
  })
  window.addEventListener('unhandledrejection', (event) => {
    event.preventDefault()
    showError(event.reason ?? {})
  })
}

wire()
const samples = loadSamples((url, preset) => openSource({ url }, preset))
const params = new URLSearchParams(location.search)
const urlParam = params.get('url')
if (urlParam) {
  const url = resolveUrl(urlParam)
  $('url-input').value = url
  // A link never carries keys: one to an encrypted sample opens with the sample's public key from the manifest.
  samples.then((manifest) => {
    const sample = manifest?.samples.find((s) => s.decryption && sampleUrl(s) === url)
    if (sample) useSampleKeys(sample)
    openSource({ url }, { column: params.get('column') ?? undefined, values: params.getAll('value'), autoProbe: params.getAll('value').length > 0 })
  })
}
