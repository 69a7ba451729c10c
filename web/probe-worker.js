// The demo's Web Worker: opens Parquet files through the package as browsers get it (the bundle that
// package.json's "browser" export names), probes, checks filter health and advises on indexes off the
// main thread, and answers the page with plain, cloneable objects.
// Protocol: { id, op, args } → { id, ok: true, result } | { id, ok: false, error }; { op: 'cancel', target }.
import { filterWarnings, summarizeHealth } from './health.js'

const HEALTH_ALL_FILTERS_BYTES = 4 * 1024 * 1024
const HEALTH_SAMPLE_FILTERS = 128

// Loaded once, for every operation. The bundle, not ../js/index.js: the sources import hyparquet by its
// package name (exact lookups), which a module worker cannot resolve without a bundler. A URL, so the
// minified bundle is not type-checked as a source; its types are the entry's.
/** @type {Promise<typeof import('../js/index.js')>} */
const library = import(new URL('../js/parquet-bloom.browser.js', import.meta.url).href)
// Footers of URLs opened before (this page load or an earlier one) are reused when the server validates
// them (ETag / Last-Modified); dropped files are never cached.
const footerCache = library.then(({ browserStore, createFooterCache }) => createFooterCache({ store: browserStore() }))

/** The file being shown: the handle probes run on, and a second one for health checks (see health()). */
let current
const inFlight = new Map()

const handlers = {
  async open({ url, file, decryption }, signal) {
    await closeCurrent()
    const source = file ?? url
    const { openParquet, describeColumnType } = await library
    // Keys live in this worker's memory for the file's life only (openParquet skips the footer cache with them).
    // With its read plan recorded from the footer on: the page draws each probe's requests.
    const opened = await openParquet(source, { signal, footerCache: await footerCache, decryption, plan: true })
    current = { source, file: opened, inspector: undefined, decryption }
    return describeFile(opened, describeColumnType)
  },

  async probe({ column, values, mode, confirm = false }, signal) {
    const { file } = requireOpen()
    const before = file.stats
    const started = performance.now()
    const result = await file.probe(column, values, { mode, signal, confirm, plan: true })
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
    const { openParquet, BloomFilter, assessFilterHealth } = await library
    open.inspector ??= footerCache.then((cache) => openParquet(open.source, { footerCache: cache, decryption: open.decryption }))
    const inspector = await open.inspector
    const blooms = inspector.metadata.rowGroups.map((g) => [g.index, g.columns.find((c) => c.path === column)?.bloom]).filter(([, bloom]) => bloom)
    const withFilter = blooms.map(([index]) => index)
    // Every filter when that is a modest read; an even sample of a column with huge or many filters.
    const totalBytes = blooms.reduce((n, [, bloom]) => n + (bloom.length ?? 64 * 1024), 0)
    const chosen = totalBytes <= HEALTH_ALL_FILTERS_BYTES ? withFilter : spread(withFilter, HEALTH_SAMPLE_FILTERS)
    const checks = []
    // One scheduled read for all chosen filters (coalesced ranges); each bitset is only valid during its visit.
    await inspector.forEachBloomFilter({ rowGroups: chosen, columns: [column] }, (parts) => checks.push(checkFilter({ BloomFilter, assessFilterHealth }, parts, inspector.metadata.rowGroups[parts.rowGroup].numRows)), { signal })
    checks.sort((a, b) => a.index - b.index)
    return { column, withFilter: withFilter.length, checks, summary: summarizeHealth(checks), stats: inspector.stats }
  },

  // Index advice decodes a sample of row groups' pages (the bundle loads advise.js, hyparquet's page
  // readers and the decompressors on the first call). It reads on a handle of its own, closed after, so
  // that neither the probe readout nor the health note counts its reads; `read` is what it took.
  async advise({ fpp }, signal) {
    const open = requireOpen()
    const { openParquet, adviseIndexes } = await library
    const file = await openParquet(open.source, { footerCache: await footerCache, decryption: open.decryption, signal })
    try {
      const before = file.stats
      const started = performance.now()
      const columns = await adviseIndexes(file, { fpp, signal })
      const after = file.stats
      return { fpp, columns, ms: performance.now() - started, read: { requests: after.requests - before.requests, bytesFetched: after.bytesFetched - before.bytesFetched } }
    } finally {
      await file.close()
    }
  },

  async close() {
    await closeCurrent()
  },

  // A list of URLs, or the Parquet files under a public S3-compatible bucket prefix, probed as one
  // dataset (openDataset), sharing this worker's footer cache; `index`: a sidecar index's URL.
  async probeDataset({ urls, prefix, endpoint, index, column, values }, signal) {
    const { openDataset } = await library
    // A prefix is listed by the bundle itself (ListObjectsV2; the listing loads on demand as a chunk of its own).
    const source = prefix || urls
    // plan: a listing's pages are drawn in the probe's waterfall, before its own reads.
    const dataset = await openDataset(source, { footerCache: await footerCache, signal, plan: true, ...(prefix && endpoint ? { endpoint } : {}),
      ...(index ? { index } : {}) })
    try {
      const listing = dataset.listing ? { requests: dataset.listing.requests, bytes: dataset.listing.bytesFetched } : { requests: 0, bytes: 0 }
      return { ...plainDatasetResult(await dataset.probe(column, values, { signal, plan: true })), listing }
    } finally {
      await dataset.close()
    }
  },

  // An Iceberg or Delta table (openTable): its metadata rules files out first (sources table-partition
  // and table-stats), the survivors are probed as a dataset; the metadata reads are counted apart.
  // `at`: a snapshot id (Iceberg, kept as text: ids exceed 2^53) or a version number (Delta); each
  // format's loader reads its own option, so with format auto both are given.
  async probeTable({ location, format, at, column, values }, signal) {
    const { openTable } = await library
    const pinned = at ? { snapshot: at, ...(/^\d+$/.test(at) ? { version: Number(at) } : {}) } : {}
    // plan: the opening's metadata reads are drawn in the probe's waterfall, before its own.
    const table = await openTable(location, { format, ...pinned, footerCache: await footerCache, signal, plan: true })
    const probed = await table.probe(column, values, { signal, plan: true })
    const { format: found, snapshot, version, writer, files, metadataStats } = table.table
    // manifests: what an Iceberg probe did with the snapshot's manifests, where the package says it.
    return { ...plainDatasetResult(probed), table: { format: found, snapshot, version, writer, liveFiles: files.length, metadataStats, manifests: /** @type {any} */ (probed).manifests } }
  },
}

/** A dataset probe's result as the page draws it: per file its answers per value and whether it was read, and the totals and cost. */
/** @param {{ files: any[], totals: any, stats: any, plan?: any }} result */
function plainDatasetResult({ files, totals, stats, plan }) {
  // read: the file's footer was read (by a request, or from the footer cache: it has row groups, or it
  // lacks the column), not answered from the table's metadata, its path or a sidecar index alone.
  const read = (own, rowGroups, answers) => (own?.requests ?? 0) > 0 || rowGroups.length > 0 || answers.some((a) => a.reason === 'column-missing')
  return { files: files.map(({ path, partitions, values: answers, rowGroups, error, stats: own }) => ({ path, partitions, values: answers, rowGroups: rowGroups.length, error,
    read: read(own, rowGroups, answers) })), totals, stats, plan }
}

function checkFilter({ BloomFilter, assessFilterHealth }, parts, numRows) {
  if (parts.error !== undefined || !parts.bitset) {
    return { index: parts.rowGroup, error: { code: parts.error?.reason ?? 'unreadable', message: String(parts.error?.message ?? parts.error ?? 'no bitset') } }
  }
  const filter = BloomFilter.fromBitset(parts.bitset)
  try {
    const health = filter.health()
    return { index: parts.rowGroup, numBytes: parts.bitset.length, health, warnings: filterWarnings(health, numRows, assessFilterHealth) }
  } finally {
    filter.free()
  }
}

/** At most `limit` items spread evenly over the list, first and last included. */
function spread(items, limit) {
  if (items.length <= limit) return items
  return Array.from({ length: limit }, (_, k) => items[Math.round((k * (items.length - 1)) / (limit - 1))])
}

function describeFile(file, describeColumnType) {
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
    return { name: c.path, physicalType: c.physicalType, typeLength: c.typeLength, logicalType: c.logicalType, typeLabel: describeColumnType(c),
      filters, filterBytes, unknownLength, coverage }
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
