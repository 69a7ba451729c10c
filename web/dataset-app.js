// The demo's dataset card: a list of URLs, a public S3-compatible bucket prefix, or an Iceberg or Delta
// table, probed as one dataset in the worker (openDataset / openTable), drawn as a table of files with
// each value's file-level verdict and the index (or table step) that decided, the partition values as
// facets to narrow the table by, and what the whole probe cost: listing or table metadata, then footers
// and index reads. Per value it says how many files may hold it, how many ruled it out (and by what), and
// how many could not answer and why. Its samples (web/samples/datasets.json, written by `npm start`) fill
// the card and probe in one click.
import { explainError } from './error-view.js'
import { formatBytes, plural } from './format.js'
import { WorkerClient } from './worker-client.js'
import { renderPlan } from './plan-view.js'

/**
 * The card's elements that $() returns as more than an HTMLElement, by id.
 * @typedef {{ 'dataset-kind': HTMLSelectElement, 'dataset-urls': HTMLTextAreaElement, 'dataset-index': HTMLInputElement,
 *   'dataset-prefix': HTMLInputElement, 'dataset-endpoint': HTMLInputElement, 'table-location': HTMLInputElement,
 *   'table-format': HTMLSelectElement, 'table-at': HTMLInputElement, 'dataset-column': HTMLInputElement,
 *   'dataset-values': HTMLTextAreaElement, 'dataset-button': HTMLButtonElement, 'dataset-form': HTMLFormElement }} CardElements
 */

/**
 * What the worker answers for a dataset or a table (web/probe-worker.js), and a sample of web/samples/datasets.json
 * (testkit/demo-datasets.js writes it).
 * @typedef {import('./probe-worker.js').Handlers} Handlers
 * @typedef {Awaited<ReturnType<Handlers['probeDataset']>>} DatasetReply
 * @typedef {Awaited<ReturnType<Handlers['probeTable']>>} TableReply
 * @typedef {(DatasetReply & { table?: undefined }) | (TableReply & { listing?: undefined })} Reply
 * @typedef {Reply['files'][number]} FileAnswer
 * @typedef {{ id: string, title: string, column: string, values: unknown[], absent: unknown[] } & (
 *   { kind: 'urls', fields: { urls: string[], index?: string } } | { kind: 'prefix', fields: { prefix: string } } |
 *   { kind: 'table', fields: { location: string, format: 'iceberg' | 'delta' } })} DatasetSample
 * @typedef {{ endpoint: string, prefix: string }} SampleBucket where web/server.js's local S3 API holds the sample dataset
 */

/**
 * @template {string} Id
 * @param {Id} id
 * @returns {Id extends keyof CardElements ? CardElements[Id] : HTMLElement}
 */
const $ = (id) => /** @type {any} */ (document.getElementById(id))
/** @type {WorkerClient | undefined} */
let worker
/** @type {Reply | undefined} */
let last
/** @type {{ key: string | undefined, value: string | undefined }} */
const facet = { key: undefined, value: undefined }

/** @type {Record<string, string | undefined>} */
const SOURCE_TAG = { 'statistics': 'S', 'page-index': 'P', 'dictionary': 'D', 'bloom-filter': 'B', 'data-pages': 'R', 'value': 'V', 'partition': 'H',
  'table-partition': 'TP', 'table-stats': 'TS' }
/** @type {Record<string, string | undefined>} */
const STEP_NAMES = { 'table-partition': "the table's partition values", 'table-stats': "the table's column statistics", 'partition': "the path's partitions",
  'statistics': "the files' min/max statistics", 'page-index': "the files' page indexes", 'dictionary': "the files' dictionaries",
  'bloom-filter': "the files' bloom filters", 'data-pages': "the files' data pages", 'value': 'the value itself' }

const lines = (/** @type {'dataset-values' | 'dataset-urls'} */ id) => $(id).value.split('\n').map((l) => l.trim()).filter(Boolean)

/**
 * What the prefix field names, as the package's listing takes it: `s3://bucket/prefix/` (with the endpoint
 * field, if any), a path-style `https://endpoint/bucket/prefix/`, or AWS's virtual-hosted
 * `https://bucket.s3.region.amazonaws.com/prefix/`.
 * @param {string} text
 * @param {string} endpoint
 * @returns {{ prefix: string, endpoint?: string }}
 */
export function bucketSource(text, endpoint) {
  if (/^s3:\/\//i.test(text)) return { prefix: text, endpoint: endpoint || undefined }
  const url = new URL(text)
  const virtualHost = /^([^.]+)\.s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/i.exec(url.hostname)
  if (virtualHost) return { prefix: `s3://${virtualHost[1]}${decodeURIComponent(url.pathname)}` }
  const [, bucket, ...key] = decodeURIComponent(url.pathname).split('/')
  if (!bucket) throw Object.assign(new Error(`${text} names no bucket: expected https://endpoint/bucket/prefix/`), { code: 'INVALID_ARGUMENT' })
  return { prefix: `s3://${bucket}/${key.join('/')}`, endpoint: url.origin }
}

function showKind() {
  const kind = $('dataset-kind').value
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#dataset-form [data-kind]'))) {
    el.hidden = !(el.getAttribute('data-kind') ?? '').split(' ').includes(kind) // selected by having the attribute
  }
}

/** @param {Event} event */
async function probeDataset(event) {
  event.preventDefault()
  const kind = $('dataset-kind').value
  const values = lines('dataset-values')
  const column = $('dataset-column').value.trim()
  if (!values.length || !column) return
  worker ??= new WorkerClient(new URL('./probe-worker.js', import.meta.url))
  $('dataset-button').disabled = true
  $('dataset-readout').hidden = false
  $('dataset-readout').removeAttribute('data-files')
  $('dataset-answers').hidden = true
  $('dataset-steps').hidden = true
  try {
    if (kind === 'table') {
      const tableLocation = new URL($('table-location').value.trim(), location.href).href
      $('dataset-readout').textContent = `Reading the table's metadata at ${tableLocation}…`
      // The select offers only openTable's formats.
      const format = /** @type {import('../js/index.js').OpenTableOptions['format']} */ ($('table-format').value)
      last = await worker.call('probeTable', { location: tableLocation, format, at: $('table-at').value.trim(), column, values })
    } else if (kind === 'prefix') {
      const source = bucketSource($('dataset-prefix').value.trim(), $('dataset-endpoint').value.trim())
      $('dataset-readout').textContent = `Listing ${source.prefix}…`
      last = await worker.call('probeDataset', { ...source, column, values })
    } else {
      const urls = lines('dataset-urls').map((u) => new URL(u, location.href).href)
      if (!urls.length) return
      const index = $('dataset-index').value.trim()
      $('dataset-readout').textContent = `Probing ${plural(urls.length, 'file')}${index ? ' through the sidecar index' : ''}…`
      last = await worker.call('probeDataset', { urls, column, values, index: index ? new URL(index, location.href).href : undefined })
    }
    Object.assign(facet, { key: undefined, value: undefined })
    render()
  } catch (error) {
    const { title, message, code } = explainError(error) // code: the error's, else INTERNAL
    $('dataset-readout').textContent = `${title}: ${message}`
    $('dataset-readout').dataset.error = code
  } finally {
    $('dataset-button').disabled = false
  }
}

/**
 * The cost line: what was read before the files (listing or table metadata), then the files' footers and indexes.
 * @param {Reply} reply
 */
function costText({ stats, listing, table }) {
  const before = table ? { what: `table metadata (${table.format}${table.snapshot ? `, snapshot ${table.snapshot}` : table.version !== undefined ? `, version ${table.version}` : ''})`,
    requests: table.metadataStats.requests, bytes: table.metadataStats.bytesFetched, rounds: table.metadataStats.rounds }
    : listing?.requests ? { what: 'listing', requests: listing.requests, bytes: listing.bytes } : undefined
  const files = `footers and indexes: ${plural(stats.requests, 'request')}, ${formatBytes(stats.bytes)}, ${plural(stats.rounds, 'round')}`
  if (!before) return `${files}; ${Math.round(stats.ms)} ms`
  const total = before.requests + stats.requests
  return `${plural(total, 'request')} in all — ${before.what}: ${plural(before.requests, 'request')}, ${formatBytes(before.bytes)}` +
    `${before.rounds !== undefined ? `, ${plural(before.rounds, 'round')}` : ''}; ${files}; ${Math.round(stats.ms)} ms after it`
}

function render() {
  if (!last) return // drawn once a probe has answered
  const { files, totals, stats, listing, table } = last
  const kept = files.filter((f) => f.values.some((v) => v.verdict !== 'absent')).length
  const readout = $('dataset-readout')
  readout.textContent = `${filesText(files, totals, stats)}; ${costText(last)}`
  Object.assign(readout.dataset, { files: String(files.length), kept: String(kept), read: String(files.filter((f) => f.read).length),
    requests: String(stats.requests + (listing?.requests ?? 0) + (table?.metadataStats.requests ?? 0)) })
  delete readout.dataset.error
  renderAnswers(files)
  renderSteps(totals, table)
  renderFacets(files)
  renderPlan($('dataset-plan'), last.plan)
  const shown = files.filter((f) => facet.key === undefined || String(f.partitions[facet.key]) === facet.value)
  const grid = document.createElement('table')
  grid.className = 'columns'
  const head = grid.createTHead().insertRow()
  for (const title of ['File', 'Partitions', ...files[0]?.values.map((v) => String(v.value)) ?? [], 'Row groups']) head.appendChild(Object.assign(document.createElement('th'), { textContent: title }))
  const body = grid.createTBody()
  for (const f of shown) {
    const row = body.insertRow()
    row.dataset.path = f.path
    row.insertCell().textContent = f.path
    row.insertCell().textContent = Object.entries(f.partitions).map(([k, v]) => `${k}=${v}`).join(' ')
    for (const v of f.values) {
      const cell = row.insertCell()
      cell.className = `v-${v.verdict}`
      Object.assign(cell.dataset, { verdict: v.verdict, source: v.source ?? '', reason: v.reason ?? '' })
      cell.textContent = `${v.verdict} ${v.source ? SOURCE_TAG[v.source] ?? v.source : v.reason}`
      cell.title = `${v.reason}: ${v.detail}`
    }
    row.insertCell().textContent = f.error ? f.error.code : String(f.rowGroups)
  }
  $('dataset-files').replaceChildren(grid)
}

/** @type {Set<import('../js/index.js').VerdictSource | null>} */
const WITHOUT_READ = new Set(['table-partition', 'table-stats', 'partition'])
/**
 * What answered for a file without reading it: the table's metadata, its path, the probe's where, else the sidecar index.
 * @param {FileAnswer} f
 */
const answeredBy = (f) => (f.values.some((v) => v.source === 'table-partition' || v.source === 'table-stats') ? "the table's metadata"
  : f.values.some((v) => v.reason === 'outside-where') ? "the probe's where" : f.values.some((v) => v.source === 'partition') ? 'their paths' : 'the sidecar index')

/**
 * How many files there are, how many footers were read, and what answered for the others without a read.
 * @param {FileAnswer[]} files
 * @param {Reply['totals']} totals
 * @param {Reply['stats']} stats
 */
function filesText(files, totals, stats) {
  const read = files.filter((f) => f.read).length
  const parts = [`${plural(read, 'footer')} read${stats.footersFromCache ? ` (${stats.footersFromCache} from cache)` : ''}`]
  for (const [by, n] of count(files.filter((f) => !f.read && !f.error).map(answeredBy))) parts.push(`${n} answered by ${by} without a read`)
  if (totals.filesWithError) parts.push(`${totals.filesWithError} unreadable`)
  return `${plural(files.length, 'file')}: ${parts.join(', ')}`
}

/** Why files could not answer, as "N files …". */
/** @type {Record<string, string | undefined>} */
const UNKNOWN_WHY = { 'column-missing': 'lack the column', 'file-error': 'could not be read', 'no-index': 'have no usable index',
  'limit-reached': 'were not probed (limit reached)', 'null': 'do not index nulls', 'nan': 'do not index NaN', 'encrypted-column': 'hold the column encrypted',
  'no-key': 'need a key for the column', 'unsupported-codec': 'use a compression this page cannot read' }
/** @type {Record<string, string | undefined>} */
const RULED_BY = { 'table-partition': 'table partitions', 'table-stats': 'table statistics', 'partition': 'path partitions', 'statistics': 'min/max statistics',
  'page-index': 'page indexes', 'dictionary': 'dictionaries', 'bloom-filter': 'bloom filters', 'data-pages': 'data pages', 'value': 'the value itself',
  'sidecar-index': 'the sidecar index', 'outside-where': "the probe's where" }
/**
 * What ruled a value out of a file: a file not read was ruled out by the table, its path, the where, or the sidecar index.
 * @param {FileAnswer} f
 * @param {FileAnswer['values'][number]} a an absent answer: an index decided it, so its source is set
 */
const ruledBy = (f, a) => (a.reason === 'outside-where' ? 'outside-where'
  : f.read || WITHOUT_READ.has(a.source) ? String(a.source) : 'sidecar-index')
/**
 * @template K
 * @param {K[]} list
 * @returns {Map<K, number>} how many times each item is in the list
 */
const count = (list) => list.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map())
/**
 * "by X" for one cause, "(a by X, b by Y)" for several.
 * @param {Map<string, number>} counts
 */
const ruledText = (counts) => (counts.size === 1 ? `by ${RULED_BY[[...counts.keys()][0]] ?? [...counts.keys()][0]}` : `(${[...counts].map(([k, n]) => `${n} by ${RULED_BY[k] ?? k}`).join(', ')})`)
/**
 * "(they lack the column)" for one reason, "(5 lack the column, 1 could not be read)" for several.
 * @param {Map<string, number>} counts
 */
const unknownText = (counts) => (counts.size === 1 ? `(${[...counts.values()][0] === 1 ? 'it' : 'they'} ${UNKNOWN_WHY[[...counts.keys()][0]] ?? `answered ${[...counts.keys()][0]}`})`
  : `(${[...counts].map(([k, n]) => `${n} ${UNKNOWN_WHY[k] ?? `answered ${k}`}`).join(', ')})`)

/**
 * Per value: how many files may hold it (present counted apart), how many ruled it out and by which index,
 * how many could not answer and why.
 * @param {FileAnswer[]} files
 */
function renderAnswers(files) {
  const box = $('dataset-answers')
  const first = files[0]?.values ?? []
  box.replaceChildren(...first.map((_, k) => {
    const answers = files.map((f) => f.values[k])
    const may = answers.filter((a) => a.verdict === 'maybe' || a.verdict === 'present')
    const present = answers.filter((a) => a.verdict === 'present').length
    const absent = files.filter((f) => f.values[k].verdict === 'absent')
    const unknown = answers.filter((a) => a.verdict === 'unknown')
    const why = count(unknown.map((a) => a.reason))
    const li = document.createElement('li')
    li.append(Object.assign(document.createElement('span'), { className: 'value', textContent: String(first[k].value) }))
    const parts = [`may be in ${may.length} of ${plural(files.length, 'file')}${present ? ` (${present} ${present === 1 ? 'holds' : 'hold'} it for sure)` : ''}`]
    if (absent.length) parts.push(`ruled out in ${absent.length} ${ruledText(count(absent.map((f) => ruledBy(f, f.values[k]))))}`)
    if (unknown.length) parts.push(`${unknown.length} could not answer ${unknownText(why)}`)
    li.append(`: ${parts.join('; ')}.`)
    Object.assign(li.dataset, { value: String(first[k].value), may: String(may.length), absent: String(absent.length), unknown: String(unknown.length),
      why: JSON.stringify(Object.fromEntries(why)) })
    return li
  }))
  box.hidden = first.length === 0
}

/**
 * Which step ruled how many files out: the table's metadata, the paths, or the files' own indexes.
 * @param {Reply['totals']} totals
 * @param {TableReply['table'] | undefined} table
 */
function renderSteps(totals, table) {
  const entries = Object.entries(totals.ruledOut ?? {}).filter(([source, n]) => source !== 'none' && n.files > 0)
  const el = $('dataset-steps')
  el.hidden = entries.length === 0 && !table
  const parts = entries.map(([source, n]) => `${n.files} by ${STEP_NAMES[source] ?? `the files' ${source}`}`)
  const manifests = table?.manifests ? `, ${table.manifests.read} of ${plural(table.manifests.total, 'manifest')} read (${table.manifests.skipped} skipped by the manifest list's partition summaries)` : ''
  el.textContent = `${table ? `${table.format === 'iceberg' ? 'Iceberg' : 'Delta'} table, ${plural(table.liveFiles, 'live file')}${manifests}. ` : ''}Ruled out, of the file × value answers: ${parts.join(', ') || 'none'}.`
  el.dataset.steps = JSON.stringify(Object.fromEntries(entries.map(([source, n]) => [source, n.files])))
}

/**
 * One chip per partition key=value; clicking one shows only its files, clicking it again all.
 * @param {FileAnswer[]} files
 */
function renderFacets(files) {
  /** @type {Map<string, [string, string]>} label → key, value */
  const chips = new Map()
  for (const f of files) for (const [k, v] of Object.entries(f.partitions)) chips.set(`${k}=${v}`, [k, String(v)])
  const box = $('dataset-facets')
  box.hidden = chips.size === 0
  box.replaceChildren(...[...chips].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([label, [key, value]]) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary', textContent: label })
    button.dataset.facet = label
    button.setAttribute('aria-pressed', String(facet.key === key && facet.value === value))
    button.addEventListener('click', () => {
      const same = facet.key === key && facet.value === value
      Object.assign(facet, same ? { key: undefined, value: undefined } : { key, value })
      render()
    })
    return button
  }))
}

/**
 * The card's samples (web/samples/datasets.json): one button each fills the card and probes. The bucket's
 * sample needs the local S3 server web/server.js starts (bucket.json says where); without it, it is left out.
 */
async function loadDatasetSamples() {
  /** @param {string} name */
  const get = (name) => fetch(`samples/${name}`, { cache: 'no-store' }).then((r) => (r.ok ? r.json() : undefined)).catch(() => undefined)
  /** @type {[{ samples: DatasetSample[] } | undefined, SampleBucket | undefined]} */
  const [manifest, bucket] = await Promise.all([get('datasets.json'), get('bucket.json')])
  if (!manifest) return
  const usable = manifest.samples.filter((s) => s.kind !== 'prefix' || bucket)
  $('dataset-sample-list').replaceChildren(...usable.map((sample) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'sample', title: sample.title, textContent: SAMPLE_LABELS[sample.id] ?? sample.id })
    button.dataset.datasetSample = sample.id
    button.addEventListener('click', () => useSample(sample, bucket))
    return button
  }))
  $('dataset-samples').hidden = usable.length === 0
}

/** @type {Record<string, string | undefined>} */
const SAMPLE_LABELS = { 'dataset-urls': 'Hive dataset (URLs)', 'dataset-index': 'with a sidecar index', 'dataset-bucket': 'the same as an s3:// bucket',
  'table-iceberg': 'Iceberg table', 'table-delta': 'Delta table' }

/**
 * @param {DatasetSample} sample
 * @param {SampleBucket | undefined} bucket set for a prefix sample (one is offered only with it)
 */
function useSample(sample, bucket) {
  const page = (/** @type {string} */ relative) => new URL(`samples/${relative}`, location.href).href
  $('dataset-kind').value = sample.kind
  showKind()
  if (sample.kind === 'urls') {
    const { fields } = sample
    $('dataset-urls').value = fields.urls.map(page).join('\n')
    $('dataset-index').value = fields.index ? page(fields.index) : ''
  } else if (sample.kind === 'prefix') {
    if (!bucket) return
    $('dataset-prefix').value = bucket.prefix
    $('dataset-endpoint').value = bucket.endpoint
  } else {
    const { fields } = sample
    $('table-location').value = page(fields.location)
    $('table-format').value = fields.format
    $('table-at').value = ''
  }
  $('dataset-column').value = sample.column
  $('dataset-values').value = [...sample.values, ...sample.absent].join('\n')
  $('dataset-form').requestSubmit()
}

$('dataset-kind').addEventListener('change', showKind)
$('dataset-form').addEventListener('submit', probeDataset)
loadDatasetSamples()
