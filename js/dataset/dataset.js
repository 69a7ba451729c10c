// openDataset(): many Parquet files probed as one — listed (js/dataset/listing.js), pruned by their Hive
// partitions (js/dataset/hive.js) and a caller's prefilter before any read, then every remaining file
// opened and probed through ONE request window (js/dataset/request-window.js): all footers go out in one
// wave, all index reads in the next, so the rounds a probe takes stay constant in the number of files.
// A step in front of the file layer: each file is an openParquet()/ParquetFile probe; nothing is re-done.
import { invalidArgument } from '../errors.js'
import { createFooterCache } from '../footer/footer-cache.js'
import { LinkModel } from '../plan/link-model.js'
import { throwIfAborted } from '../plan/read-scheduler.js'
import { confirmOptions } from '../confirm/confirm-options.js'
import { comparableWith, inferPartitionTypes, NO_PARTITIONS, noneIfEmpty, ownPartitions, parseHivePartitions, partitionMayEqual,
  partitionReadings, typedPartitionValue } from './hive.js'
import { listDataset } from './listing.js'
import { FileSession } from './session.js'
import { PROBE_VALUES } from '../parquet-file.js'
import { ProbeValuesCache } from '../values/probe-values.js'
import { CoverageTally } from './coverage.js'
import { errorData, ProbeRun } from './probe-run.js'
import { FileRoom, ResultBudget } from '../plan/result-budget.js'
import { IndexBatches } from './index-batches.js'
import { addIoStats, asIoStats, ioStats, IoLedger, ioStatsSince } from '../sources/io-ledger.js'

/**
 * For a layer in front whose file list grows as it is read (a table reading its manifests as probes
 * need them): `dataset[ADD_FILES](descriptors)` adds files; a probe option `[PROBE_ONLY]: Set<path>`
 * probes only those files. Symbols, not names: they are not part of the dataset's public options.
 */
export const ADD_FILES = Symbol('addFiles')
export const PROBE_ONLY = Symbol('probeOnly')
/**
 * A table's answers for values the file's own column type cannot hold as the table reads them (a double
 * column's file written as FLOAT holds only float32 values): `(parquetFile, column, fileColumn, values)` →
 * per value null or an answer, asked once the footer is read and before the file is probed.
 */
export const DECIDE_IN_FILE = Symbol('decideInFile')
/** A table's probe ledger (js/sources/io-ledger.js), so its manifest reads and the files' reads are one plan, one clock. */
export const IO_LEDGER = Symbol('ioLedger')
/**
 * A table's names of a probe's `columns` (point lookups) in one file, parallel to them: `(parquetFile, columns)` →
 * each column's top-level name in that file (renamed columns, column mapping), or null when the file has none.
 */
export const LOOKUP_COLUMNS_IN = Symbol('lookupColumnsIn')
/**
 * A table's word that its sidecar (js/table/table-index.js) answers for the table's column however each file names it
 * (renames, column mapping), so its rulings hold whatever `columnOf` names in a file. An index of files answers for the
 * file's column of the name asked, which a caller's columnOf may name otherwise (js/dataset/probe-run.js).
 */
export const INDEX_ANSWERS_BY_COLUMN = Symbol('indexAnswersByColumn')
/**
 * A probeEach option of the CLI's (js/cli/dataset.js), which streams a dataset's answers and still prints probe()'s
 * totals and stats: `({ stats, plan })` of the whole probe, as probe() returns them, called before its loop ends.
 */
export const PROBE_END = Symbol('probeEnd')

/**
 * @typedef {import('./listing.js').FileDescriptor} FileDescriptor
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {{ descriptor: FileDescriptor, raw: Record<string, string | null>, pathPartitions: boolean, path: string,
 *   size: number | null, validator: string | null, partitions: Record<string, unknown> }} DatasetFile
 *   one file of the dataset: raw, its partitions as text (a path's key=value folders, or a caller's); partitions, typed
 * @typedef {(parquetFile: import('../parquet-file.js').ParquetFile, column: string | string[],
 *   fileColumn: string | string[], values: unknown[]) => Array<ValueResult | null> | null} DecideInFile
 * @typedef {(parquetFile: import('../parquet-file.js').ParquetFile, columns: string[]) => Array<string | null>} LookupColumnsIn
 * @typedef {{ [PROBE_ONLY]?: Set<string>, [IO_LEDGER]?: IoLedger, [DECIDE_IN_FILE]?: DecideInFile,
 *   [LOOKUP_COLUMNS_IN]?: LookupColumnsIn, [INDEX_ANSWERS_BY_COLUMN]?: boolean,
 *   [PROBE_END]?: (ended: { stats: Record<string, any>, plan: ReadPlan | undefined }) => void }} LayerOptions
 *   what a layer in front (a table) adds to the dataset's options and a probe's
 * @typedef {Record<string, any>} FileResult a file's answer (DatasetFileResult), `order` its place until sorted
 * @typedef {ReturnType<IoLedger['plan']>} ReadPlan
 * @typedef {NonNullable<import('../index.js').OpenDatasetOptions['prefilter']>} Prefilter
 */

/**
 * (value, file) pairs a probe has in flight unless `fileConcurrency` says otherwise. A file's answers (one per value for each
 * of its row groups) are held from when they are made until probeEach's loop takes them, so the files in flight bound its
 * memory (up to the window's 4,096 over HTTP): of 10 row groups probed for 10,000 values, 32 files held 215 MB live, 128
 * 1.1 GB. So at most this over the values: 25 files for 10,000 values, the whole window for a few.
 */
const PAIRS_IN_FLIGHT = 250_000

// Options of the dataset itself; everything else goes on to openParquet() and ParquetFile.probe().
// (`index` is the dataset's: one sidecar answers every file at once, so no file refines on its own.)
const DATASET_OPTIONS = [PROBE_ONLY, DECIDE_IN_FILE, LOOKUP_COLUMNS_IN, IO_LEDGER, INDEX_ANSWERS_BY_COLUMN, PROBE_END, 'partitioning',
  'hivePartitioning', 'prefilter', 'columnOf', 'where', 'shard', 'limit', 'onProgress', 'fileConcurrency', 'credentials',
  'endpoint', 'region', 'index', 'maxResults']

/**
 * @param {unknown} source an array of openParquet sources or file descriptors ({ path, location, size?,
 *   etag?, partitions? }), a local directory or glob, or an s3:// prefix or glob
 * @param {import('../index.js').OpenDatasetOptions} [options] openParquet's options (shared by every file) and the dataset's own:
 *   partitioning ({ key: 'DATE' | 'TIMESTAMP' | 'BIGINT' | 'VARCHAR' }), hivePartitioning (default true),
 *   prefilter(file, column, values), columnOf(file, parquetFile, column) (the column's path in that file,
 *   for tables whose files name a column differently: renames, column mapping), footerCache (default:
 *   one in memory for this dataset)
 */
export async function openDataset(source, options = {}) {
  // With `plan`, the listing's requests are recorded for the first probe that asks for a plan.
  const openLedger = options.plan === true ? new IoLedger({ record: true }) : undefined
  const { files, fetch, listing } = await listDataset(source, openLedger ? { ...options, ioLedger: openLedger } : options)
  const { plan, ...rest } = options
  const dataset = new ParquetDataset(files, fetch ? { ...rest, fetch } : rest, listing ? openLedger : undefined)
  if (listing) dataset.listing = listing
  return dataset
}

export class ParquetDataset {
  /** @type {import('../sources/io-ledger.js').IoStats | undefined} what listing an s3:// prefix cost, when one was listed */
  listing
  /** @type {DatasetFile[]} */
  #files
  /** @type {Record<string, any> & LayerOptions} openDataset's options: the dataset's own and those for every file */
  #options
  #footerCache
  #link = new LinkModel()
  /** @type {Promise<import('./dataset-index.js').DatasetIndex> | undefined} the sidecar index of
   * options.index, loaded at the first probe */
  #index

  /** @type {IoLedger | undefined} openDataset's listing, with `plan: true`: the first probe that asks for a plan lists it first. */
  #openLedger

  /**
   * @param {FileDescriptor[]} descriptors
   * @param {Record<string, any> & LayerOptions} options
   * @param {IoLedger} [openLedger] the opening's recorded reads (a listing)
   */
  constructor(descriptors, options, openLedger = undefined) {
    this.#options = options
    this.#openLedger = openLedger
    openLedger?.closePhase()
    // Footers of URLs are kept and validated per file, so a second probe reads no footer.
    this.#footerCache = options.footerCache ?? createFooterCache()
    this.#files = []
    /** @type {Record<string, string>} */
    this.partitionTypes = {}
    this[ADD_FILES](descriptors)
  }

  /**
   * Adds files (ADD_FILES above); partition types are inferred again over every file.
   * @param {FileDescriptor[]} descriptors
   */
  [ADD_FILES](descriptors) {
    const options = this.#options
    const hive = options.hivePartitioning !== false
    const raw = descriptors.map((d) => noneIfEmpty(d.partitions ? rawPartitions(d.partitions) : hive ? parseHivePartitions(d.path) : {}))
    /** The type of each partition key over all files (DuckDB's inference, or options.partitioning). */
    this.partitionTypes = inferPartitionTypes([...this.#files.map((f) => f.raw), ...raw], options.partitioning)
    descriptors.forEach((d, i) => this.#files.push({
      descriptor: d,
      raw: raw[i],
      // Only a path's key=value folders are column values for certain; a caller's partitions may be a
      // table's transforms (a bucket number named like its column): they serve `where`, the prefilter decides.
      pathPartitions: !d.partitions,
      path: d.path,
      size: d.size ?? null,
      validator: d.etag ?? null,
      partitions: d.partitions ? { ...d.partitions }
        : raw[i] === NO_PARTITIONS ? NO_PARTITIONS : typedPartitions(raw[i], this.partitionTypes),
    }))
  }

  /** The files in probe order (a caller's list as given, listed files by path): { path, size, validator, partitions }. */
  get files() {
    return this.#files.map(({ path, size, validator, partitions }) => ({ path, size, validator, partitions: ownPartitions(partitions) }))
  }

  /**
   * Probes every file; resolves to { files, totals, stats } once all have answered (see probeEach).
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions & LayerOptions} [options]
   * @returns {Promise<import('../index.js').DatasetProbeResult>}
   */
  async probe(column, values, options = {}) {
    const opening = options.plan === true && !options[IO_LEDGER] ? this.#openLedger : undefined
    if (opening) {
      // The first planned probe goes on from the listing's requests: its plan lists them, its stats are its own.
      this.#openLedger = undefined
      const before = { ...opening.stats }
      const result = await this.probe(column, values, { ...options, [IO_LEDGER]: opening })
      const own = ioStatsSince(opening.stats, before)
      // The ledger's plan is the published ReadPlan (its purposes are ReadPurpose's).
      const plan = /** @type {import('../index.js').ReadPlan} */ (opening.plan())
      return { ...result, stats: { ...result.stats, ...own, bytes: own.bytesFetched }, plan }
    }
    /** @type {FileResult[]} */
    const files = []
    // Every answer is held until the last file's: probe() holds no more than maxResults (js/plan/result-budget.js).
    const run = this.#start(column, values, options, (result) => { files.push(result) }, true)
    const { stats, plan } = await run
    files.sort((a, b) => a.order - b.order)
    for (let i = 0; i < files.length; i++) delete files[i].order
    // The records built here are the published shapes (js/index.d.ts), checked by tests/js/consumer-types.test.js.
    return /** @type {import('../index.js').DatasetProbeResult} */ ({ files, totals: totalsOf(files), stats, ...(plan ? { plan } : {}) })
  }

  /**
   * The files' answers as they finish: `for await (const file of dataset.probeEach(column, values))`.
   * Each is { path, partitions, values: [{ value, verdict, source, reason, detail }], rowGroups, error, stats }.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions & LayerOptions} [options]
   * @returns {AsyncGenerator<import('../index.js').DatasetFileResult, void, undefined>}
   */
  async * probeEach(column, values, options = {}) {
    /** @type {FileResult[]} */
    const ready = []
    /**
     * The workers whose file answered while earlier answers were still unread, each waiting for the loop to take one:
     * a loop slower than the files (its own work, or only its turns among theirs) would otherwise have every answer
     * of the dataset queued, and hold them all (10,000 values over 400 local files of 10 row groups: 2.2 GB live, where the
     * 32 files in flight hold 215 MB).
     * @type {Array<(value?: unknown) => void>}
     */
    const held = []
    /** @type {((value?: unknown) => void) | undefined} */
    let wake
    let finished = false
    /** @type {unknown} */
    let failure
    // A loop that stops early (break, return, a throw) stops the files still being read.
    // (Not AbortSignal.any: Node 18 lacks it, and its listener would outlive the loop.)
    const stop = new AbortController()
    const signal = options.signal ?? this.#options.signal
    const forward = () => stop.abort(signal.reason)
    if (signal?.aborted) forward()
    else signal?.addEventListener('abort', forward, { once: true })
    let run
    try {
      run = this.#start(column, values, { ...options, signal: stop.signal }, (result) => {
        delete result.order
        ready.push(result)
        wake?.()
        return ready.length > 1 ? new Promise((resolve) => held.push(resolve)) : undefined
      })
      const end = options[PROBE_END]
      run.then((ended) => { end?.(ended); finished = true }, (error) => { failure = error; finished = true }).finally(() => wake?.())
      while (true) {
        if (ready.length) {
          const next = /** @type {import('../index.js').DatasetFileResult} */ (ready.shift())
          held.shift()?.()
          yield next
          continue
        }
        if (failure) throw failure
        if (finished) return
        await new Promise((resolve) => { wake = resolve })
        wake = undefined
      }
    } finally {
      signal?.removeEventListener('abort', forward)
      if (run && !finished) {
        stop.abort(new Error('probeEach was left before its last file'))
        // Each held worker goes on to find the probe stopped (its next file refused), so the run can end.
        for (const resolve of held.splice(0)) resolve()
        await run.catch(() => {})
      }
    }
  }

  /**
   * Starts a probe of the selected files; each file's answer goes to `emit` as it finishes.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions & LayerOptions} options
   * @param {(result: FileResult) => void | Promise<unknown>} emit (a promise: FileSession.run holds the worker until it settles)
   * @param {boolean} [budgeted] whether the answers are all held (probe()): TOO_LARGE over maxResults (ResultBudget); else
   *   a file's own answers over it are its error (FileRoom)
   * @returns {Promise<{ stats: Record<string, any>, plan: ReadPlan | undefined }>}
   */
  async #start(column, values, options, emit, budgeted = false) {
    const list = Array.from(values)
    const { settings, confirm, limit } = probeSettings(this.#options, options)
    /** @type {AbortSignal | undefined} */
    const signal = settings.signal
    const only = settings[PROBE_ONLY]
    // The files asked, and each one's place in the dataset (its answer's `order`): two flat lists, not a record per file,
    // held through the whole probe (at 20,000 files, a 40-byte record each is 0.8 MB the heap grows about fourfold).
    /** @type {DatasetFile[]} */
    const selected = []
    /** @type {number[]} */
    const orders = []
    this.#files.forEach((file, order) => {
      if (!inShard(file.path, settings.shard) || (only && !only.has(file.path))) return
      selected.push(file)
      orders.push(order)
    })
    const where = whereConditions(settings.where, this.partitionTypes)
    // Refused before any read (an https origin's ALPN question, the sidecar's) when the files' answers alone are too many.
    // probeEach: a file over maxResults by itself is that file's error (FileRoom), the others answered.
    const budget = budgeted ? new ResultBudget(settings.maxResults, list.length, selected.length)
      : new FileRoom(settings.maxResults, list.length)
    const session = await FileSession.open(selected, omit(settings, DATASET_OPTIONS),
      { footerCache: this.#footerCache, fileConcurrency: settings.fileConcurrency, link: this.#link,
      ledger: settings[IO_LEDGER], mostFiles: Math.max(1, Math.floor(PAIRS_IN_FLIGHT / Math.max(1, list.length))) })
    const ledger = session.ledger
    // The plan is the dataset's (its ledger records every file's requests): no file makes one of its own.
    /** @type {Record<string, any>} */
    // Every file asked every value shares one encoding of them per column type.
    // Its files make their answers under the dataset's budget (probe()) or its room for each (probeEach): none counts its own.
    const probeOptions = { ...omit(settings, [...DATASET_OPTIONS, 'plan']), concurrency: session.window, maxResults: Infinity,
      confirmBudget: confirm ? { remaining: confirm.maxConfirmBytes } : undefined, [PROBE_VALUES]: new ProbeValuesCache(list) }
    if (limit !== undefined && confirm) probeOptions.maxRows = Math.min(confirm.maxRows, limit)
    const columnName = Array.isArray(column) ? column.join('.') : String(column)
    // The sidecar answers every selected file in one call (one wave of block reads), while footers are read — a batch at
    // a time for many values (js/dataset/index-batches.js); files `where` skips are never probed, so it is not asked
    // about them.
    const index = this.#sidecar()
    const asked = index && (where ? selected.filter(where) : selected)
    const fromIndex = index && new IndexBatches(/** @type {DatasetFile[]} */ (asked), list.length, async (files, rowGroupsKnown) => {
      const opened = await index
      const answered = await opened.answers(columnName, list, /** @type {DatasetFile[]} */ (files), signal, ledger, rowGroupsKnown)
      // The files are opened once its answers are in: their requests come in the rounds after its.
      ledger.closePhase()
      return { opened, ...answered }
    }, { room: budget })
    const run = new ProbeRun({ list, column, columnName, settings, where, limit, session, probeOptions, fromIndex,
      fileView: (file) => this.#fileView(file), decideInFile: settings[DECIDE_IN_FILE], lookupColumnsIn: settings[LOOKUP_COLUMNS_IN],
      indexAnswersByColumn: settings[INDEX_ANSWERS_BY_COLUMN] === true, partitionTypes: this.partitionTypes, budget })
    const probeOne = (/** @type {DatasetFile} */ file, /** @type {{ floor: number }} */ chain, /** @type {number} */ at) =>
      run.probeOne(file, orders[at], chain)
    return session.run(selected, probeOne, emit, settings.onProgress).then(async () => {
      // The sidecar's answers first, then the session's stats: when no file waited for them (`where` or the shard left
      // none), stats read before they came in lacked the index's reads that stats.index and the plan list.
      const cost = fromIndex && await fromIndex.cost()
      const plan = settings.plan === true && !settings[IO_LEDGER] ? ledger.plan() : undefined
      return { stats: withSidecarCost(session.stats, cost), plan }
    })
  }

  /**
   * How probe-able the dataset is: reads every footer (one wave) and reports, per column, how many files
   * and row groups have statistics, a page index, dictionary-only chunks and bloom filters.
   * @param {Parameters<import('../index.js').ParquetDataset['inspect']>[0]} [options]
   */
  async inspect(options = {}) {
    const settings = { ...this.#options, ...options }
    throwIfAborted(settings.signal)
    inShard('', settings.shard) // refused even when no file falls in it
    const selected = this.#files.filter((file) => inShard(file.path, settings.shard))
    const session = await FileSession.open(selected, omit(settings, DATASET_OPTIONS),
      { footerCache: this.#footerCache, fileConcurrency: settings.fileConcurrency, link: this.#link })
    const tally = new CoverageTally()
    /** @typedef {{ path: string, error: { code: string, message: string } | null }} Inspected */
    /** @type {Inspected[]} */
    const errors = []
    /** @type {(file: DatasetFile, chain: { floor: number }) => Promise<Inspected>} */
    const inspectOne = async (file, chain) => {
      try {
        return await session.withFile(file.descriptor, {
          async opened(parquet) {
            await parquet.validateFooter() // a cached footer must still describe the file it reports on
            tally.add(parquet.metadata)
            return { path: file.path, error: null }
          },
          failed(error) {
            throw error
          },
        }, chain)
      } catch (error) {
        if (settings.signal?.aborted) throw error
        return { path: file.path, error: errorData(error) }
      }
    }
    await session.run(selected, inspectOne, (result) => { if (result.error) errors.push(result) }, settings.onProgress)
    const plan = settings.plan === true ? { plan: session.ledger.plan() } : {}
    errors.sort((a, b) => (a.path < b.path ? -1 : 1))
    return { files: selected.length, filesWithError: errors.length, errors, columns: tally.result(), stats: session.stats, ...plan }
  }

  /**
   * The file as a prefilter and columnOf see it.
   * @param {DatasetFile} file
   */
  #fileView(file) {
    return { ...file.descriptor, partitions: ownPartitions(file.partitions), validator: file.validator }
  }

  /** openDataset's `index`, its module (and the index-builder's) loaded only when a dataset has one. */
  #sidecar() {
    const given = this.#options.index
    if (given === undefined || given === null) return undefined
    this.#index ??= import('./dataset-index.js').then((m) =>
      new m.DatasetIndex(given, omit(this.#options, [...DATASET_OPTIONS, 'footerCache'])))
    return this.#index
  }

  /** Releases the sidecar index the dataset opened itself (one a caller passed opened stays theirs). */
  async close() {
    await (await this.#index?.catch(() => undefined))?.close()
  }
}


/**
 * The answers of a dataset's shards (`probe(…, { shard: { index, count } })` run apart, on other
 * machines or Worker invocations) as one: files in path order, totals recounted, stats added up (rounds
 * and time: the slowest shard's, as shards run side by side).
 * @param {Array<{ files: any[], stats: Record<string, any> }>} results
 */
export function mergeShardResults(results) {
  const files = results.flatMap((r) => r.files).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  /** @param {string} name */
  const sum = (name) => results.reduce((n, r) => n + (r.stats[name] ?? 0), 0)
  /** @param {string} name */
  const max = (name) => Math.max(0, ...results.map((r) => r.stats[name] ?? 0))
  // Shards run side by side: counts add up, rounds are the slowest shard's.
  const io = ioStats()
  for (const r of results) addIoStats(io, asIoStats({ ...r.stats, bytesFetched: r.stats.bytesFetched ?? r.stats.bytes }), { beside: true })
  const withIndex = results.map((r) => r.stats.index).filter(Boolean)
  let index
  if (withIndex.length) {
    index = ioStats()
    for (const s of withIndex) addIoStats(index, asIoStats({ ...s, bytesFetched: s.bytesFetched ?? s.bytes }), { beside: true })
    index = { ...index, reads: index.requests - index.heads, bytes: index.bytesFetched }
  }
  return {
    files,
    totals: totalsOf(files),
    stats: { ...io, bytes: io.bytesFetched, window: max('window'), filesOpened: sum('filesOpened'),
      footersFromCache: sum('footersFromCache'), ms: max('ms'),
      ...(index ? { index } : {}) },
  }
}

/**
 * Counts per verdict, and per source what it ruled out: files and row groups, counted per value. With a
 * sidecar index, `index`: how many files it described, and of the others (probed without it) how many
 * for each reason.
 * @param {FileResult[]} files
 */
function totalsOf(files) {
  const totals = emptyTotals()
  // Indexed loops: this runs once per probe over every file, mostly unoptimized, where for…of allocates per step.
  for (let i = 0; i < files.length; i++) addToTotals(totals, files[i])
  return totals
}

/** Totals of no file yet, for addToTotals (the CLI's streamed probe counts its files as they come). */
export function emptyTotals() {
  /** @type {Record<string, any>} */
  const totals = { files: 0, filesOpened: 0, filesWithError: 0, filesSkipped: 0, rowGroups: 0,
    verdicts: { absent: 0, maybe: 0, present: 0, unknown: 0 },
    ruledOut: /** @type {Record<string, { files: number, rowGroups: number }>} */ ({}) }
  return totals
}

/**
 * One file's answer counted into totals (totalsOf's, in the files' order).
 * @param {Record<string, any>} totals @param {FileResult} f
 */
export function addToTotals(totals, f) {
  /** @param {string | null} source */
  const credit = (source) => (totals.ruledOut[source ?? 'none'] ??= { files: 0, rowGroups: 0 })
  totals.files++
  if (f.index) {
    const index = (totals.index ??= { described: 0, notDescribed: 0, reasons: {} })
    if (f.index.described) index.described++
    else {
      index.notDescribed++
      index.reasons[f.index.reason] = (index.reasons[f.index.reason] ?? 0) + 1
    }
  }
  if (f.error) totals.filesWithError++
  if (f.skipped) totals.filesSkipped++
  if (f.rowGroups.length) totals.filesOpened++
  totals.rowGroups += f.rowGroups.length
  const { values, rowGroups } = f
  for (let v = 0; v < values.length; v++) {
    totals.verdicts[values[v].verdict]++
    if (values[v].verdict === 'absent') credit(values[v].source).files++
  }
  for (let g = 0; g < rowGroups.length; g++) {
    const { results } = rowGroups[g]
    for (let r = 0; r < results.length; r++) if (results[r].verdict === 'absent') credit(results[r].source).rowGroups++
  }
  return totals
}

/**
 * `where: { key: value | [values] }` as a test of a file's raw partitions: false only when a key rules it out (a folder
 * named as the key holds none of the values, nor one whose name differs only in case: partitionReadings).
 * @param {unknown} where
 * @param {Record<string, string>} types the partition keys' types
 * @returns {((file: { raw: Record<string, string | null>, pathPartitions: boolean }) => boolean) | null}
 */
function whereConditions(where, types) {
  if (where === undefined || where === null) return null
  if (typeof where !== 'object') throw invalidArgument('where must be an object { partitionKey: value | [values] }')
  /** @type {Array<[string, unknown[]]>} */
  const entries = Object.entries(where).map(([key, wanted]) => {
    if (!(key in types)) {
      throw invalidArgument(`where: ${JSON.stringify(key)} is not a partition key of the ` +
        `dataset (keys: ${Object.keys(types).join(', ') || 'none'})`)
    }
    const list = Array.isArray(wanted) ? wanted : [wanted]
    // An unset variable (`where: { country: opts.country }`) would otherwise ask for the null partition alone.
    if (list.includes(undefined)) {
      throw invalidArgument(`where.${key} is undefined: give a value (null for the default partition) or leave the key out`)
    }
    return /** @type {[string, unknown[]]} */ ([key, list])
  })
  return ({ raw, pathPartitions }) => entries.every(([key, wanted]) => {
    const { exact, values } = partitionReadings(raw, key)
    // A value a folder's type (DuckDB's) cannot be compared with (a Date, for a BIGINT key) rules out nothing. (A
    // caller's partitions are typed from their text alone: a table's string column may hold '20260107'.)
    return !exact || wanted.some((v) => (pathPartitions && !comparableWith(types[key], v, raw[key])) ||
      values.some((r) => partitionMayEqual(r, v)))
  })
}

/**
 * Whether a file belongs to shard `index` of `count`: by a hash of its path, the same on every machine.
 * @param {string} path
 * @param {{ index: number, count: number } | undefined} shard
 */
export function inShard(path, shard) {
  if (shard === undefined) return true
  // null too is refused here, as a shard, not a TypeError: `shard: null` probing every file would double a merge's answers.
  const { index, count } = shard ?? {}
  if (!(Number.isInteger(count) && count >= 1 && Number.isInteger(index) && index >= 0 && index < count)) {
    throw invalidArgument(`shard must be { index, count } with 0 <= index < count, got ${JSON.stringify(shard)}`)
  }
  return fnv1a(path) % count === index
}

/** @param {string} text */
function fnv1a(text) {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/** @param {Record<string, unknown>} partitions a caller's, typed */
function rawPartitions(partitions) {
  /** @type {Record<string, string | null>} */
  const raw = {}
  for (const [key, value] of Object.entries(partitions)) {
    raw[key] = value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value)
  }
  return raw
}

/**
 * @param {Record<string, string | null>} raw
 * @param {Record<string, string>} types
 */
function typedPartitions(raw, types) {
  /** @type {Record<string, unknown>} */
  const typed = {}
  for (const key in raw) typed[key] = typedPartitionValue(types[key], raw[key])
  return typed
}

/**
 * @param {Record<string | symbol, any>} object
 * @param {Array<string | symbol>} keys
 * @returns {Record<string, any>}
 */
function omit(object, keys) {
  const out = { ...object }
  for (const key of keys) delete out[key]
  return out
}


/**
 * A probe's settings (the dataset's options, then the probe's), checked: its prefilter added to the dataset's,
 * its confirmation settings and its limit. Throws INVALID_ARGUMENT (or the signal's abort) before any read.
 * @param {import('../index.js').OpenDatasetOptions & LayerOptions} datasetOptions
 * @param {import('../index.js').DatasetProbeOptions & LayerOptions} options
 */
function probeSettings(datasetOptions, options) {
  /** @type {Record<string | symbol, any>} */
  const settings = { ...datasetOptions, ...options }
  throwIfAborted(settings.signal)
  for (const given of [datasetOptions.prefilter, options.prefilter]) {
    if (given !== undefined && typeof given !== 'function') throw invalidArgument('prefilter must be a function')
  }
  // A probe's prefilter adds to the dataset's (a table's pruning, say) rather than replacing it.
  settings.prefilter = bothPrefilters(datasetOptions.prefilter, options.prefilter)
  if ('rowGroups' in settings && settings.rowGroups !== undefined) {
    throw invalidArgument('rowGroups names row groups of one file; a dataset probe takes every row group')
  }
  // Refused even when no file falls in the shard (a dataset of no file, too), as the index builder's shard is.
  inShard('', settings.shard)
  const confirm = confirmOptions(settings)
  /** @type {number | undefined} */
  const limit = settings.limit
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw invalidArgument(`limit must be an integer >= 1, got ${limit}`)
  }
  // Rows are found by reading the data pages: a limit without them would never stop anything.
  if (limit !== undefined && !confirm) throw invalidArgument('limit counts the rows found: it needs confirm: true')
  return { settings, confirm, limit }
}

/**
 * A probe's stats with the sidecar's reads in them: they are the probe's too, in its ledger (its rounds before the
 * files'); `index` shows them apart (`reads` and `bytes`: the old names of its reads of the index file and of
 * bytesFetched, deprecated).
 * @param {import('../index.js').IoStats & Record<string, any>} stats the session's
 * @param {(import('../index.js').IoStats & { inLedger?: boolean }) | undefined} cost the sidecar's, when one was asked
 */
function withSidecarCost(stats, cost) {
  if (!cost) return stats
  if (!cost.inLedger) addIoStats(stats, cost)
  stats.bytes = stats.bytesFetched
  return { ...stats, index: { ...asIoStats(cost), reads: cost.requests - cost.heads, bytes: cost.bytesFetched } }
}

/**
 * Two prefilters both asked (the dataset's and a probe's; a table's pruning and its caller's): per value,
 * the first answer that rules it out, else the first that decides it without a read (`maybe`).
 * @param {Prefilter | undefined} first
 * @param {Prefilter | undefined} second
 * @returns {Prefilter | undefined}
 */
export function bothPrefilters(first, second) {
  if (!first || !second) return first ?? second
  return async (file, column, values) => {
    const [a, b] = await Promise.all([first(file, column, values), second(file, column, values)])
    if (!a || !b) return a ?? b
    // A malformed answer is passed on whole, for the check that refuses it.
    if (!Array.isArray(a) || a.length !== values.length) return a
    if (!Array.isArray(b) || b.length !== values.length) return b
    return values.map((_, k) => (a[k]?.verdict === 'absent' ? a[k] : b[k]?.verdict === 'absent' ? b[k] : a[k] ?? b[k] ?? null))
  }
}
