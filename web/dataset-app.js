// The demo's dataset card: a list of URLs probed as one dataset in the worker (openDataset), drawn as a
// table of files with each value's file-level verdict and the index that decided, the partition values
// as facets to narrow the table by, and what the whole dataset cost.
import { explainError } from './error-view.js'
import { formatBytes, plural } from './format.js'
import { WorkerClient } from './worker-client.js'

const $ = (id) => /** @type {any} */ (document.getElementById(id))
let worker
let last
const facet = { key: undefined, value: undefined }

const SOURCE_TAG = { 'statistics': 'S', 'page-index': 'P', 'dictionary': 'D', 'bloom-filter': 'B', 'data-pages': 'R', 'value': 'V', 'partition': 'H' }

async function probeDataset(event) {
  event.preventDefault()
  const urls = $('dataset-urls').value.split('\n').map((l) => l.trim()).filter(Boolean).map((u) => new URL(u, location.href).href)
  const values = $('dataset-values').value.split('\n').map((l) => l.trim()).filter(Boolean)
  const column = $('dataset-column').value.trim()
  if (!urls.length || !values.length || !column) return
  worker ??= new WorkerClient(new URL('./probe-worker.js', import.meta.url))
  $('dataset-button').disabled = true
  $('dataset-readout').hidden = false
  $('dataset-readout').textContent = `Probing ${plural(urls.length, 'file')}…`
  try {
    last = await worker.call('probeDataset', { urls, column, values })
    Object.assign(facet, { key: undefined, value: undefined })
    render()
  } catch (error) {
    const { title, message } = explainError(error)
    $('dataset-readout').textContent = `${title}: ${message}`
  } finally {
    $('dataset-button').disabled = false
  }
}

function render() {
  const { files, totals, stats } = last
  const kept = files.filter((f) => f.values.some((v) => v.verdict !== 'absent')).length
  $('dataset-readout').textContent = `${kept} of ${plural(files.length, 'file')} may hold a value (${totals.filesOpened} opened` +
    `${totals.filesWithError ? `, ${totals.filesWithError} unreadable` : ''}); ${plural(stats.requests, 'request')}, ${formatBytes(stats.bytes)}, ` +
    `${plural(stats.rounds, 'round')}, ${Math.round(stats.ms)} ms`
  renderFacets(files)
  const shown = files.filter((f) => facet.key === undefined || String(f.partitions[facet.key]) === facet.value)
  const table = document.createElement('table')
  table.className = 'columns'
  const head = table.createTHead().insertRow()
  for (const title of ['File', 'Partitions', ...files[0]?.values.map((v) => String(v.value)) ?? [], 'Row groups']) head.appendChild(Object.assign(document.createElement('th'), { textContent: title }))
  const body = table.createTBody()
  for (const f of shown) {
    const row = body.insertRow()
    row.insertCell().textContent = f.path
    row.insertCell().textContent = Object.entries(f.partitions).map(([k, v]) => `${k}=${v}`).join(' ')
    for (const v of f.values) {
      const cell = row.insertCell()
      cell.className = `v-${v.verdict}`
      cell.textContent = `${v.verdict} ${v.source ? SOURCE_TAG[v.source] ?? v.source : v.reason}`
      cell.title = `${v.reason}: ${v.detail}`
    }
    row.insertCell().textContent = f.error ? f.error.code : String(f.rowGroups)
  }
  $('dataset-files').replaceChildren(table)
}

/** One chip per partition key=value; clicking one shows only its files, clicking it again all. */
function renderFacets(files) {
  const chips = new Map()
  for (const f of files) for (const [k, v] of Object.entries(f.partitions)) chips.set(`${k}=${v}`, [k, String(v)])
  const box = $('dataset-facets')
  box.hidden = chips.size === 0
  box.replaceChildren(...[...chips].map(([label, [key, value]]) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary', textContent: label })
    button.setAttribute('aria-pressed', String(facet.key === key && facet.value === value))
    button.addEventListener('click', () => {
      const same = facet.key === key && facet.value === value
      Object.assign(facet, same ? { key: undefined, value: undefined } : { key, value })
      render()
    })
    return button
  }))
}

$('dataset-form').addEventListener('submit', probeDataset)
