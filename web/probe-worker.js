// The demo's Web Worker: opens Parquet files through the package as browsers get it (the bundle that
// package.json's "browser" export names), probes, checks filter health and advises on indexes off the
// main thread, and answers the page with plain, cloneable objects.
// Protocol: { id, op, args } → { id, ok: true, result } | { id, ok: false, error }; { op: 'cancel', target }.
import { filterWarnings, summarizeHealth } from './health.js'

/**
 * @typedef {typeof import('../js/index.js')} Library
 * @typedef {import('../js/index.js').ParquetFile} ParquetFile
 * @typedef {import('../js/index.js').DecryptionOptions} DecryptionOptions
 * @typedef {typeof handlers} Handlers the worker's operations: the page calls them by name (web/worker-client.js)
 */

const HEALTH_ALL_FILTERS_BYTES = 4 * 1024 * 1024
const HEALTH_SAMPLE_FILTERS = 128

// Loaded once, for every operation. The bundle, not ../js/index.js: the sources import hyparquet by its
// package name (exact lookups), which a module worker cannot resolve without a bundler. A URL, so the
// minified bundle is not type-checked as a source; its types are the entry's.
/** @type {Promise<Library>} */
const library = import(new URL('../js/parquet-bloom.browser.js', import.meta.url).href)
// Footers of URLs opened before (this page load or an earlier one) are reused when the server validates
// them (ETag / Last-Modified); dropped files are never cached.
const footerCache = library.then(({ browserStore, createFooterCache }) => createFooterCache({ store: browserStore() }))

/**
 * The file being shown: the handle probes run on, and a second one for health checks (see health()).
 * @type {{ source: File | string, file: ParquetFile, inspector: Promise<ParquetFile> | undefined,
 *   decryption: DecryptionOptions | undefined } | undefined}
 */
let current
/** @type {Map<number, AbortController>} */
const inFlight = new Map()

const handlers = {
  /**
   * @param {{ url?: string, file?: File, decryption?: DecryptionOptions }} args a URL or a picked or dropped file
   * @param {AbortSignal} signal
   */
  async open({ url, file, decryption }, signal) {
    await closeCurrent()
    const source = /** @type {File | string} */ (file ?? url) // the page sends one of the two
    const { openParquet, describeColumnType } = await library
    // Keys live in this worker's memory for the file's life only (openParquet skips the footer cache with them).
    // With its read plan recorded from the footer on: the page draws each probe's requests.
    const opened = await openParquet(source, { signal, footerCache: await footerCache, decryption, plan: true })
    current = { source, file: opened, inspector: undefined, decryption }
    return describeFile(opened, describeColumnType)
  },

  /**
   * @param {{ column: string, values: unknown[], mode?: import('../js/index.js').ProbeOptions['mode'], confirm?: boolean }} args
   * @param {AbortSignal} signal
   */
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
  /**
   * @param {{ column: string }} args
   * @param {AbortSignal} signal
   */
  async health({ column }, signal) {
    const open = requireOpen()
    // Opened without the request's signal: a signal given to openParquet governs every later read too.
    const { openParquet, BloomFilter, assessFilterHealth } = await library
    open.inspector ??= footerCache.then((cache) => openParquet(open.source, { footerCache: cache, decryption: open.decryption }))
    const inspector = await open.inspector
    /** @type {Array<[number, { offset: number, length: number | undefined }]>} row group, where its filter is */
    const blooms = []
    for (const g of inspector.metadata.rowGroups) {
      const bloom = g.columns.find((c) => c.path === column)?.bloom
      if (bloom) blooms.push([g.index, bloom])
    }
    const withFilter = blooms.map(([index]) => index)
    // Every filter when that is a modest read; an even sample of a column with huge or many filters.
    const totalBytes = blooms.reduce((n, [, bloom]) => n + (bloom.length ?? 64 * 1024), 0)
    const chosen = totalBytes <= HEALTH_ALL_FILTERS_BYTES ? withFilter : spread(withFilter, HEALTH_SAMPLE_FILTERS)
    /** @type {Array<ReturnType<typeof checkFilter>>} */
    const checks = []
    // One scheduled read for all chosen filters (coalesced ranges); each bitset is only valid during its visit.
    await inspector.forEachBloomFilter({ rowGroups: chosen, columns: [column] }, (parts) => checks.push(checkFilter({ BloomFilter, assessFilterHealth }, parts, inspector.metadata.rowGroups[parts.rowGroup].numRows)), { signal })
    checks.sort((a, b) => a.index - b.index)
    return { column, withFilter: withFilter.length, checks, summary: summarizeHealth(checks), stats: inspector.stats }
  },

  // Index advice decodes a sample of row groups' pages (the bundle loads advise.js, hyparquet's page
  // readers and the decompressors on the first call). It reads on a handle of its own, closed after, so
  // that neither the probe readout nor the health note counts its reads; `read` is what it took.
  /**
   * @param {{ fpp: number }} args
   * @param {AbortSignal} signal
   */
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
  /**
   * @param {{ urls?: string[], prefix?: string, endpoint?: string, index?: string, column: string, values: unknown[] }} args
   * @param {AbortSignal} signal
   */
  async probeDataset({ urls, prefix, endpoint, index, column, values }, signal) {
    const { openDataset } = await library
    // A prefix is listed by the bundle itself (ListObjectsV2; the listing loads on demand as a chunk of its own).
    const source = /** @type {string | string[]} */ (prefix || urls) // the page sends one of the two
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
  /**
   * @param {{ location: string, format?: import('../js/index.js').OpenTableOptions['format'], at?: string, column: string,
   *   values: unknown[] }} args
   * @param {AbortSignal} signal
   */
  async probeTable({ location, format, at, column, values }, signal) {
    const { openTable } = await library
    const pinned = at ? { snapshot: at, ...(/^\d+$/.test(at) ? { version: Number(at) } : {}) } : {}
    // plan: the opening's metadata reads are drawn in the probe's waterfall, before its own.
    const table = await openTable(location, { format, ...pinned, footerCache: await footerCache, signal, plan: true })
    const probed = await table.probe(column, values, { signal, plan: true })
    const { format: found, snapshot, version, writer, files, metadataStats } = table.table
    // manifests: what an Iceberg probe did with the snapshot's manifests, where the package says it.
    return { ...plainDatasetResult(probed), table: { format: found, snapshot, version, writer, liveFiles: files.length, metadataStats, manifests: probed.manifests } }
  },
}

/**
 * A dataset probe's result as the page draws it: per file its answers per value and whether it was read, and the totals and cost.
 * @param {import('../js/index.js').DatasetProbeResult} result
 */
function plainDatasetResult({ files, totals, stats, plan }) {
  // read: the file's footer was read (by a request, or from the footer cache: it has row groups, or it
  // lacks the column), not answered from the table's metadata, its path or a sidecar index alone.
  /**
   * @param {import('../js/index.js').IoStats} own
   * @param {unknown[]} rowGroups
   * @param {import('../js/index.js').ProbeValueResult[]} answers
   */
  const read = (own, rowGroups, answers) => (own?.requests ?? 0) > 0 || rowGroups.length > 0 || answers.some((a) => a.reason === 'column-missing')
  return { files: files.map(({ path, partitions, values: answers, rowGroups, error, stats: own }) => ({ path, partitions, values: answers, rowGroups: rowGroups.length, error,
    read: read(own, rowGroups, answers) })), totals, stats, plan }
}

/**
 * @param {Pick<Library, 'BloomFilter' | 'assessFilterHealth'>} library
 * @param {import('../js/index.js').BloomFilterVisit} parts
 * @param {number} numRows
 */
function checkFilter({ BloomFilter, assessFilterHealth }, parts, numRows) {
  if (parts.error !== undefined || !parts.bitset) {
    // error: a ParquetBloomError, or a reason string when there was nothing to read.
    const error = typeof parts.error === 'string' ? undefined : parts.error
    return { index: parts.rowGroup, error: { code: error?.reason ?? 'unreadable', message: String(error?.message ?? parts.error ?? 'no bitset') } }
  }
  const filter = BloomFilter.fromBitset(parts.bitset)
  try {
    const health = filter.health()
    return { index: parts.rowGroup, numBytes: parts.bitset.length, health, warnings: filterWarnings(health, numRows, assessFilterHealth) }
  } finally {
    filter.free()
  }
}

/**
 * At most `limit` items spread evenly over the list, first and last included.
 * @template T
 * @param {T[]} items
 * @param {number} limit
 */
function spread(items, limit) {
  if (items.length <= limit) return items
  return Array.from({ length: limit }, (_, k) => items[Math.round((k * (items.length - 1)) / (limit - 1))])
}

/**
 * @param {ParquetFile} file
 * @param {Library['describeColumnType']} describeColumnType
 */
function describeFile(file, describeColumnType) {
  const { rowGroups, numRows, createdBy } = file.metadata
  const columns = (rowGroups[0]?.columns ?? []).map((c, i) => {
    let filters = 0
    let filterBytes = 0
    let unknownLength = 0
    /** @type {{ statistics: number, pageIndex: number, dictionaryOnly: number, bloomFilter: number, ignoredStatistics: string | undefined }} */
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
    // The footer gives typeLength null where the schema has none; describeColumnType is declared for undefined.
    const typeLabel = describeColumnType({ physicalType: c.physicalType, typeLength: c.typeLength ?? undefined, logicalType: c.logicalType })
    return { name: c.path, physicalType: c.physicalType, typeLength: c.typeLength, logicalType: c.logicalType, typeLabel,
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

/** @param {unknown} error anything thrown: read as a ParquetBloomError, whose fields other values lack */
function plainError(error) {
  const e = /** @type {{ name?: string, code?: string, message?: unknown, status?: number } | null | undefined} */ (error)
  return {
    name: e?.name ?? 'Error',
    code: e?.code ?? 'INTERNAL',
    message: String(e?.message ?? error),
    status: e?.status,
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
    // By the name the page sent; it sends each operation's args as that operation takes them.
    const handler = /** @type {Record<string, ((args: object, signal: AbortSignal) => Promise<unknown>) | undefined>} */ (handlers)[data.op]
    if (!handler) throw new Error(`unknown operation ${data.op}`)
    self.postMessage({ id: data.id, ok: true, result: await handler(data.args ?? {}, controller.signal) })
  } catch (error) {
    self.postMessage({ id: data.id, ok: false, error: plainError(error) })
  } finally {
    inFlight.delete(data.id)
  }
}
