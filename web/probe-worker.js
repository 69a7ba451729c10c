// The demo's Web Worker: opens Parquet files through the package entry (as an npm user would), probes
// and checks filter health off the main thread, and answers the page with plain, cloneable objects.
// Protocol: { id, op, args } → { id, ok: true, result } | { id, ok: false, error }; { op: 'cancel', target }.
import { BloomFilter, browserStore, createFooterCache, openDataset, openParquet } from '../js/index.js'
import { filterWarnings, summarizeHealth } from './health.js'

const HEALTH_ALL_FILTERS_BYTES = 4 * 1024 * 1024
// A URL, not a module specifier: loaded on the first Confirm only (and not type-checked as a source).
const CONFIRMING_BUNDLE = new URL('../js/parquet-bloom.browser.js', import.meta.url).href
const HEALTH_SAMPLE_FILTERS = 128
// Footers of URLs opened before (this page load or an earlier one) are reused when the server validates
// them (ETag / Last-Modified); dropped files are never cached.
const footerCache = createFooterCache({ store: browserStore() })

/** The file being shown: the handle probes run on, and a second one for health checks (see health()). */
let current
const inFlight = new Map()

const handlers = {
  async open({ url, file, decryption }, signal) {
    await closeCurrent()
    const source = file ?? url
    // Keys live in this worker's memory for the file's life only (openParquet skips the footer cache with them).
    const opened = await openParquet(source, { signal, footerCache, decryption })
    current = { source, file: opened, inspector: undefined, confirmer: undefined, decryption }
    return describeFile(opened)
  },

  async probe({ column, values, mode, confirm = false }, signal) {
    const file = confirm ? await confirmingHandle(requireOpen()) : requireOpen().file
    const before = file.stats
    const started = performance.now()
    const result = await file.probe(column, values, { mode, signal, confirm })
    const stats = file.stats
    return {
      result,
      ms: performance.now() - started,
      stats,
      delta: { requests: stats.requests - before.requests, bytesFetched: stats.bytesFetched - before.bytesFetched },
    }
  },

  // Health reads whole filters. It runs on its own handle so that the probe readout shows exactly what
  // a probe costs, with no filter bytes already cached by a health check.
  async health({ column }, signal) {
    const open = requireOpen()
    // Opened without the request's signal: a signal given to openParquet governs every later read too.
    open.inspector ??= openParquet(open.source, { footerCache, decryption: open.decryption })
    const inspector = await open.inspector
    const blooms = inspector.metadata.rowGroups.map((g) => [g.index, g.columns.find((c) => c.path === column)?.bloom]).filter(([, bloom]) => bloom)
    const withFilter = blooms.map(([index]) => index)
    // Every filter when that is a modest read; an even sample of a column with huge or many filters.
    const totalBytes = blooms.reduce((n, [, bloom]) => n + (bloom.length ?? 64 * 1024), 0)
    const chosen = totalBytes <= HEALTH_ALL_FILTERS_BYTES ? withFilter : spread(withFilter, HEALTH_SAMPLE_FILTERS)
    const checks = []
    // One scheduled read for all chosen filters (coalesced ranges); each bitset is only valid during its visit.
    await inspector.forEachBloomFilter({ rowGroups: chosen, columns: [column] }, (parts) => checks.push(checkFilter(parts, inspector.metadata.rowGroups[parts.rowGroup].numRows)), { signal })
    checks.sort((a, b) => a.index - b.index)
    return { column, withFilter: withFilter.length, checks, summary: summarizeHealth(checks), stats: inspector.stats }
  },

  async close() {
    await closeCurrent()
  },

  // A list of URLs probed as one dataset (openDataset), sharing this worker's footer cache.
  async probeDataset({ urls, column, values }, signal) {
    const dataset = await openDataset(urls, { footerCache })
    const { files, totals, stats } = await dataset.probe(column, values, { signal })
    return { files: files.map(({ path, partitions, values: answers, rowGroups, error }) => ({ path, partitions, values: answers, rowGroups: rowGroups.length, error })), totals, stats }
  },
}

/**
 * The handle Confirm probes run on. The source modules load hyparquet (the page decoder) by its package
 * name, which a module worker cannot resolve without a bundler or import map; the browser bundle
 * carries it in on-demand chunks, so confirmations go through the bundle, on a handle of their own
 * (its readout then shows what a confirming probe costs, footer included on the first one).
 */
function confirmingHandle(open) {
  open.confirmer ??= import(CONFIRMING_BUNDLE).then((lib) => lib.openParquet(open.source, { decryption: open.decryption }))
  return open.confirmer
}

function checkFilter(parts, numRows) {
  if (parts.error !== undefined || !parts.bitset) {
    return { index: parts.rowGroup, error: { code: parts.error?.reason ?? 'unreadable', message: String(parts.error?.message ?? parts.error ?? 'no bitset') } }
  }
  const filter = BloomFilter.fromBitset(parts.bitset)
  try {
    const health = filter.health()
    return { index: parts.rowGroup, numBytes: parts.bitset.length, health, warnings: filterWarnings(health, numRows) }
  } finally {
    filter.free()
  }
}

/** At most `limit` items spread evenly over the list, first and last included. */
function spread(items, limit) {
  if (items.length <= limit) return items
  return Array.from({ length: limit }, (_, k) => items[Math.round((k * (items.length - 1)) / (limit - 1))])
}

function describeFile(file) {
  const { rowGroups, numRows, createdBy } = file.metadata
  const columns = (rowGroups[0]?.columns ?? []).map((c, i) => {
    let filters = 0
    let filterBytes = 0
    let unknownLength = 0
    const coverage = { statistics: 0, pageIndex: 0, dictionaryOnly: 0, bloomFilter: 0, ignoredStatistics: undefined }
    for (const g of rowGroups) {
      const { indexes } = g.columns[i]
      if (indexes.statistics.usable) coverage.statistics++
      else if (indexes.statistics.present) coverage.ignoredStatistics ??= indexes.statistics.detail
      if (indexes.pageIndex.columnIndex) coverage.pageIndex++
      if (indexes.dictionary.allDataPages) coverage.dictionaryOnly++
      if (indexes.bloomFilter) coverage.bloomFilter++
      const bloom = g.columns[i].bloom
      if (!bloom) continue
      filters++
      if (bloom.length === undefined) unknownLength++
      else filterBytes += bloom.length
    }
    return { name: c.path, physicalType: c.physicalType, typeLength: c.typeLength, logicalType: c.logicalType, filters, filterBytes, unknownLength, coverage }
  })
  return {
    name: file.name,
    fileSize: file.fileSize,
    metadataOffset: file.metadataOffset,
    numRows,
    createdBy,
    rowGroups: rowGroups.map((g) => g.numRows),
    columns,
    stats: file.stats,
  }
}

function requireOpen() {
  if (!current) throw Object.assign(new Error('open a file first'), { code: 'INVALID_ARGUMENT' })
  return current
}

async function closeCurrent() {
  const closing = current
  current = undefined
  if (!closing) return
  await closing.file.close()
  const inspector = await closing.inspector?.catch(() => undefined)
  await inspector?.close()
  const confirmer = await closing.confirmer?.catch(() => undefined)
  await confirmer?.close()
}

function plainError(error) {
  return {
    name: error?.name ?? 'Error',
    code: error?.code ?? 'INTERNAL',
    message: String(error?.message ?? error),
    status: error?.status,
  }
}

self.onmessage = async ({ data }) => {
  if (data.op === 'cancel') {
    inFlight.get(data.target)?.abort()
    return
  }
  const controller = new AbortController()
  inFlight.set(data.id, controller)
  try {
    const handler = handlers[data.op]
    if (!handler) throw new Error(`unknown operation ${data.op}`)
    self.postMessage({ id: data.id, ok: true, result: await handler(data.args ?? {}, controller.signal) })
  } catch (error) {
    self.postMessage({ id: data.id, ok: false, error: plainError(error) })
  } finally {
    inFlight.delete(data.id)
  }
}
