// openDataset(): many Parquet files probed as one — listed (js/dataset/listing.js), pruned by their Hive
// partitions (js/dataset/hive.js) and a caller's prefilter before any read, then every remaining file
// opened and probed through ONE request window (js/dataset/request-window.js): all footers go out in one
// wave, all index reads in the next, so the rounds a probe takes stay constant in the number of files.
// A step in front of the file layer: each file is an openParquet()/ParquetFile probe; nothing is re-done.
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { createFooterCache } from '../footer/footer-cache.js'
import { LinkModel } from '../plan/link-model.js'
import { throwIfAborted } from '../plan/read-scheduler.js'
import { confirmOptions } from '../confirm/confirm-options.js'
import { Source, valueResult } from '../verdicts.js'
import { inferPartitionTypes, parseHivePartitions, partitionMayEqual, typedPartitionValue } from './hive.js'
import { listDataset } from './listing.js'
import { FileSession } from './session.js'
import { PROBE_NOW, PROBE_VALUES } from '../parquet-file.js'
import { ProbeValuesCache } from '../values/probe-values.js'
import { CoverageTally } from './coverage.js'
import { rollUpValue } from './roll-up.js'
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
 * @typedef {import('./listing.js').FileDescriptor} FileDescriptor
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {{ descriptor: FileDescriptor, raw: Record<string, string | null>, pathPartitions: boolean, path: string,
 *   size: number | null, validator: string | null, partitions: Record<string, unknown> }} DatasetFile
 *   one file of the dataset: raw, its partitions as text (a path's key=value folders, or a caller's); partitions, typed
 * @typedef {{ [PROBE_ONLY]?: Set<string>, [IO_LEDGER]?: IoLedger,
 *   [DECIDE_IN_FILE]?: (parquetFile: import('../parquet-file.js').ParquetFile, column: string | string[],
 *     fileColumn: string | string[], values: unknown[]) => Array<ValueResult | null> | null }} LayerOptions
 *   what a layer in front (a table) adds to the dataset's options and a probe's
 * @typedef {Record<string, any>} FileResult a file's answer (DatasetFileResult), `order` its place until sorted
 * @typedef {ReturnType<IoLedger['plan']>} ReadPlan
 * @typedef {NonNullable<import('../index.js').OpenDatasetOptions['prefilter']>} Prefilter
 */

// Options of the dataset itself; everything else goes on to openParquet() and ParquetFile.probe().
// (`index` is the dataset's: one sidecar answers every file at once, so no file refines on its own.)
const DATASET_OPTIONS = [PROBE_ONLY, DECIDE_IN_FILE, IO_LEDGER, 'partitioning', 'hivePartitioning', 'prefilter', 'columnOf', 'where',
  'shard', 'limit', 'onProgress', 'fileConcurrency', 'credentials', 'endpoint', 'region', 'index']

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
    const raw = descriptors.map((d) => (d.partitions ? rawPartitions(d.partitions) : hive ? parseHivePartitions(d.path) : {}))
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
      partitions: d.partitions ? { ...d.partitions } : typedPartitions(raw[i], this.partitionTypes),
    }))
  }

  /** The files in probe order (a caller's list as given, listed files by path): { path, size, validator, partitions }. */
  get files() {
    return this.#files.map(({ path, size, validator, partitions }) => ({ path, size, validator, partitions }))
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
    const run = this.#start(column, values, options, (result) => files.push(result))
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
      })
      run.then(() => { finished = true }, (error) => { failure = error; finished = true }).finally(() => wake?.())
      while (true) {
        if (ready.length) {
          yield /** @type {import('../index.js').DatasetFileResult} */ (ready.shift())
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
        await run.catch(() => {})
      }
    }
  }

  /**
   * Starts a probe of the selected files; each file's answer goes to `emit` as it finishes.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions & LayerOptions} options
   * @param {(result: FileResult) => void} emit
   * @returns {Promise<{ stats: Record<string, any>, plan: ReadPlan | undefined }>}
   */
  async #start(column, values, options, emit) {
    const list = Array.from(values)
    const { settings, confirm, limit } = probeSettings(this.#options, options)
    /** @type {AbortSignal | undefined} */
    const signal = settings.signal
    const only = settings[PROBE_ONLY]
    const selected = this.#files.map((file, order) => ({ file, order })).filter(({ file }) => inShard(file.path, settings.shard) &&
      (!only || only.has(file.path)))
    const where = whereConditions(settings.where, this.partitionTypes)
    const session = await FileSession.open(selected.map(({ file }) => file), omit(settings, DATASET_OPTIONS),
      { footerCache: this.#footerCache, fileConcurrency: settings.fileConcurrency, link: this.#link,
      ledger: settings[IO_LEDGER] })
    const ledger = session.ledger
    // The plan is the dataset's (its ledger records every file's requests): no file makes one of its own.
    /** @type {Record<string, any>} */
    // Every file asked every value shares one encoding of them per column type.
    const probeOptions = { ...omit(settings, [...DATASET_OPTIONS, 'plan']), concurrency: session.window,
      confirmBudget: confirm ? { remaining: confirm.maxConfirmBytes } : undefined, [PROBE_VALUES]: new ProbeValuesCache(list) }
    if (limit !== undefined && confirm) probeOptions.maxRows = Math.min(confirm.maxRows, limit)
    const columnName = Array.isArray(column) ? column.join('.') : String(column)
    // The sidecar answers every selected file in one call (one wave of block reads), while footers are read;
    // files `where` skips are never probed, so it is not asked about them.
    const index = this.#sidecar()
    const fromIndex = index?.then(async (opened) => {
      const asked = selected.filter(({ file }) => !where || where(file.raw)).map(({ file }) => file)
      const answered = await opened.answers(columnName, list, asked, signal, ledger)
      // The files are opened once its answers are in: their requests come in the rounds after its.
      ledger.closePhase()
      return { opened, ...answered }
    })
    fromIndex?.catch(() => {}) // awaited per file; a failure there fails the probe, not an unhandled rejection
    let rowsFound = 0

    /**
     * What every file's answer starts with. Its `order` is added last of all (ordered()), so that deleting it
     * once the files are sorted leaves each kept answer a fast object, not a dictionary.
     * @param {DatasetFile} file @param {unknown} status the sidecar's word on the file, if any
     * @returns {FileResult}
     */
    const baseOf = (file, status) => {
      /** @type {FileResult} */
      const base = { path: file.path, partitions: file.partitions, rowGroups: [], error: null, stats: ioStats() }
      if (status) base.index = status
      return base
    }

    /** @type {(item: { file: DatasetFile, order: number }, chain: { floor: number }) => Promise<FileResult>} */
    const probeOne = ({ file, order }, chain) => {
      if (where && !where(file.raw)) {
        return Promise.resolve(ordered({ ...baseOf(file, undefined), skipped: 'where',
          values: list.map((v) => valueResult(v, 'absent', Source.PARTITION, 'outside-where',
            'the file\'s partitions fall outside `where`: none of its rows are asked about')) }, order))
      }
      if (limit !== undefined && rowsFound >= limit) {
        const detail = `not probed: ${limit} rows were found in other files`
        return Promise.resolve(ordered({ ...baseOf(file, undefined), skipped: 'limit',
          values: list.map((v) => valueResult(v, 'unknown', null, 'limit-reached', detail)) }, order))
      }
      const partitioned = decidedByPartition(file, columnName, list)
      // Awaited only when there is something to wait for: a file in flight holds every frame it awaits in.
      if ((!partitioned && settings.prefilter) || fromIndex) return decideThenProbe(file, order, partitioned, chain)
      return probeFile(file, order, partitioned ?? list.map(() => null), undefined, chain)
    }

    /**
     * A file's values decided first by the prefilter and the sidecar, then the file probed for the rest.
     * @param {DatasetFile} file @param {number} order
     * @param {Array<ValueResult | null> | null} partitioned what the file's partition folders decided
     * @param {{ floor: number }} chain
     */
    const decideThenProbe = async (file, order, partitioned, chain) => {
      const decided = partitioned ??
        (settings.prefilter ? await this.#decidedByPrefilter(file, columnName, list, settings.prefilter) : list.map(() => null))
      const { opened: sidecar, answers, described } = fromIndex ? await fromIndex : {}
      const indexed = answers?.get(file)
      // A value the sidecar rules out in every row group needs no read of this file.
      if (indexed) {
        list.forEach((v, k) => {
          decided[k] ??= indexed.rowGroups.length && indexed.rowGroups.every((g) => g.results[k].verdict === 'absent')
            ? rollUpValue(indexed.rowGroups, k, v)
            : null
        })
      }
      // Whether the sidecar described the file (and if not, why): a file it does not describe is probed without it.
      return probeFile(file, order, decided, indexed ? { indexed, sidecar } : undefined, chain, described?.get(file))
    }

    /**
     * Probes the file for the values not decided without it.
     * @param {DatasetFile} file @param {number} order @param {Array<ValueResult | null>} decided per value, or null
     * @param {{ indexed: any, sidecar: any } | undefined} fromSidecar the sidecar's answers for the file, to sharpen
     * @param {{ floor: number }} chain
     * @param {unknown} [status] the sidecar's word on the file
     * @returns {Promise<FileResult>}
     */
    const probeFile = (file, order, decided, fromSidecar, chain, status = undefined) => {
      let count = 0
      for (let k = 0; k < list.length; k++) if (!decided[k]) count++
      /** @type {number[]} the values still open, by position (the room they need, where push would leave seventeen) */
      const open = new Array(count)
      for (let k = 0, j = 0; k < list.length; k++) if (!decided[k]) open[j++] = k
      if (open.length === 0) return Promise.resolve(ordered({ ...baseOf(file, status), values: decided }, order))
      /** @type {import('../parquet-file.js').ParquetFile | undefined} */
      let parquet
      // The file's read chained rather than awaited: thousands of files in flight hold no async frame each (and
      // what answers it is made once it is open).
      return session.withFile(file.descriptor, (opened) => {
        parquet = opened
        /** A file without the column answers 'column-missing' for what is still open; any other failure is its error. */
        const columnMissing = (/** @type {unknown} */ error) => {
          if (/** @type {{ code?: unknown } | null | undefined} */ (error)?.code !== ErrorCode.COLUMN_NOT_FOUND) throw error
          const detail = /** @type {ParquetBloomError} */ (error).message // names the file's columns
          return ordered({ ...baseOf(file, status), stats: statsOf(opened),
            values: list.map((v, k) => decided[k] ?? valueResult(v, 'unknown', null, 'column-missing', detail)) }, order)
        }
        /**
         * The file's answer from its column `fileColumn`: at once when its statistics answer, else its promise.
         * @param {string | string[]} fileColumn
         * @returns {FileResult | Promise<FileResult>}
         */
        const answerIn = (fileColumn) => {
          let asked = open
          let probed
          try {
            const inFile = settings[DECIDE_IN_FILE]?.(opened, column, fileColumn, open.map((k) => list[k]))
            if (inFile) asked = open.filter((k, j) => !(decided[k] = inFile[j] ?? null))
            if (asked.length === 0) return ordered({ ...baseOf(file, status), stats: statsOf(opened), values: decided }, order)
            probed = opened[PROBE_NOW](fileColumn, asked.length === list.length ? list : asked.map((k) => list[k]), probeOptions)
          } catch (error) {
            return columnMissing(error)
          }
          if (probed instanceof Promise) {
            return probed.then((answer) => fileAnswer(file, order, status, opened, fileColumn, decided, asked, answer, fromSidecar),
              columnMissing)
          }
          return fileAnswer(file, order, status, opened, fileColumn, decided, asked, probed, fromSidecar)
        }
        if (!settings.columnOf) return answerIn(column)
        // The published ParquetFile is this class's declared face.
        const published = /** @type {import('../index.js').ParquetFile} */ (/** @type {unknown} */ (opened))
        return (async () => {
          let fileColumn
          try {
            fileColumn = await settings.columnOf(this.#fileView(file), published, column)
          } catch (error) {
            return columnMissing(error)
          }
          return answerIn(fileColumn)
        })()
      }, chain).catch((error) => {
        if (signal?.aborted) throw error
        const data = errorData(error)
        const base = baseOf(file, status)
        return ordered({ ...base, error: data, stats: parquet ? statsOf(parquet) : base.stats,
          values: list.map((v, k) => decided[k] ??
            valueResult(v, 'unknown', null, 'file-error', `${file.path}: ${data.code}: ${data.message}`)) }, order)
      })
    }

    /**
     * A probed file's answer: its row groups' answers, rolled up per value with those decided without it.
     * @param {DatasetFile} file @param {number} order @param {unknown} status
     * @param {import('../parquet-file.js').ParquetFile} opened @param {string | string[]} fileColumn
     * @param {Array<ValueResult | null>} decided @param {number[]} asked the values the file was asked, by position
     * @param {import('../index.js').ProbeResult} probed
     * @param {{ indexed: any, sidecar: any } | undefined} fromSidecar
     * @returns {FileResult}
     */
    const fileAnswer = (file, order, status, opened, fileColumn, decided, asked, probed, fromSidecar) => {
      if (fromSidecar) fromSidecar.sidecar?.sharpen(probed.rowGroups, fromSidecar.indexed.rowGroups, asked)
      // Every value asked of the file: its row groups' answers are the file's as they are.
      const rowGroups = asked.length === list.length ? probed.rowGroups : withDecided(probed.rowGroups, asked, decided)
      /** @type {ValueResult[]} */
      const values = new Array(list.length)
      for (let k = 0; k < list.length; k++) {
        const r = decided[k] ?? rollUpValue(rowGroups, k, list[k])
        values[k] = r
        if (r.verdict === 'present') rowsFound += r.rows?.length ?? 0
      }
      const { typeLength } = opened.column(fileColumn)
      const stats = statsOf(opened)
      // The published key order: path, partitions, rowGroups, error, stats, index, column, physicalType, logicalType,
      // typeLength, values, confirm.
      /** @type {FileResult} */
      const result = { path: file.path, partitions: file.partitions, rowGroups, error: null, stats }
      if (status) result.index = status
      result.column = probed.column
      result.physicalType = probed.physicalType
      result.logicalType = probed.logicalType
      if (typeLength !== undefined) result.typeLength = typeLength
      result.values = values
      if (probed.confirm) result.confirm = probed.confirm
      return ordered(result, order)
    }

    return session.run(selected, probeOne, emit, settings.onProgress).then(async () => ({
      stats: withSidecarCost(session.stats, fromIndex && (await fromIndex).cost),
      plan: settings.plan === true && !settings[IO_LEDGER] ? ledger.plan() : undefined,
    }))
  }

  /**
   * How probe-able the dataset is: reads every footer (one wave) and reports, per column, how many files
   * and row groups have statistics, a page index, dictionary-only chunks and bloom filters.
   * @param {Parameters<import('../index.js').ParquetDataset['inspect']>[0]} [options]
   */
  async inspect(options = {}) {
    const settings = { ...this.#options, ...options }
    throwIfAborted(settings.signal)
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
        return await session.withFile(file.descriptor, async (parquet) => {
          await parquet.validateFooter() // a cached footer must still describe the file it reports on
          tally.add(parquet.metadata)
          return { path: file.path, error: null }
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
   * Per value, the answer the caller's prefilter gives without a read (or null).
   * @param {DatasetFile} file
   * @param {string} columnName
   * @param {unknown[]} values
   * @param {Prefilter} prefilter
   */
  async #decidedByPrefilter(file, columnName, values, prefilter) {
    /** @type {Array<import('../verdicts.js').ValueResult | null>} */
    const decided = values.map(() => null)
    const answers = await prefilter(this.#fileView(file), columnName, values)
    if (answers === null || answers === undefined) return decided
    if (!Array.isArray(answers) || answers.length !== values.length) {
      throw invalidArgument(`prefilter must return null or an array of ${values.length} entries for ${file.path}`)
    }
    answers.forEach((a, k) => {
      if (a === null || a === undefined) return
      if ((a.verdict !== 'absent' && a.verdict !== 'maybe') || typeof a.source !== 'string' || typeof a.reason !== 'string') {
        throw invalidArgument(`prefilter: entry ${k} for ${file.path} must be null or { verdict: 'absent' | 'maybe', source, ` +
          'reason, detail }')
      }
      // A prefilter names its own reason (PrefilterAnswer takes a string): a table's are reason codes, a caller's its own.
      const reason = /** @type {import('../verdicts.js').ReasonCode} */ (a.reason)
      decided[k] = valueResult(values[k], a.verdict, a.source, reason, String(a.detail ?? ''))
    })
    return decided
  }

  /**
   * The file as a prefilter and columnOf see it.
   * @param {DatasetFile} file
   */
  #fileView(file) {
    return { ...file.descriptor, partitions: file.partitions, validator: file.validator }
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
  /** @type {Record<string, any>} */
  const totals = { files: files.length, filesOpened: 0, filesWithError: 0, filesSkipped: 0, rowGroups: 0,
    verdicts: { absent: 0, maybe: 0, present: 0, unknown: 0 },
      ruledOut: /** @type {Record<string, { files: number, rowGroups: number }>} */ ({}) }
  /** @param {string | null} source */
  const credit = (source) => (totals.ruledOut[source ?? 'none'] ??= { files: 0, rowGroups: 0 })
  // Indexed loops: this runs once per probe over every file, mostly unoptimized, where for…of allocates per step.
  for (let i = 0; i < files.length; i++) {
    const f = files[i]
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
  }
  return totals
}

/**
 * `where: { key: value | [values] }` as a test of a file's raw partitions: false only when a key rules it out.
 * @param {unknown} where
 * @param {Record<string, string>} types the partition keys' types
 * @returns {((raw: Record<string, string | null>) => boolean) | null}
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
    return /** @type {[string, unknown[]]} */ ([key, Array.isArray(wanted) ? wanted : [wanted]])
  })
  return (raw) => entries.every(([key, wanted]) => !(key in raw) || wanted.some((v) => partitionMayEqual(raw[key], v)))
}

/**
 * Whether a file belongs to shard `index` of `count`: by a hash of its path, the same on every machine.
 * @param {string} path
 * @param {{ index: number, count: number } | undefined} shard
 */
export function inShard(path, shard) {
  if (shard === undefined) return true
  const { index, count } = shard
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

/**
 * Per value, the answer of the file's partition folder (`column=value` in its path) when the column is
 * one; else null, and the prefilter decides.
 * @param {{ pathPartitions: boolean, raw: Record<string, string | null> }} file
 * @param {string} columnName
 * @param {unknown[]} values
 * @returns {Array<import('../verdicts.js').ValueResult> | null}
 */
function decidedByPartition(file, columnName, values) {
  if (!file.pathPartitions || !Object.prototype.hasOwnProperty.call(file.raw, columnName)) return null
  const raw = file.raw[columnName]
  const shown = raw === null ? 'null (the default partition)' : JSON.stringify(raw)
  return values.map((v) => (partitionMayEqual(raw, v)
    ? valueResult(v, 'maybe', Source.PARTITION, 'partition-match', `the file's partition ${columnName} is ${shown}; its rows were not read`)
    : valueResult(v, 'absent', Source.PARTITION, 'partition-mismatch', `the file's partition ${columnName} is ${shown}`)))
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
 * A file's row groups' answers for the values it was asked (`asked`, by position), with those decided without it
 * (prefilter, sidecar, DECIDE_IN_FILE) in their places. Apart: its closures would cost every file a context.
 * @param {Array<{ results: ValueResult[] }>} rowGroups
 * @param {number[]} asked
 * @param {Array<ValueResult | null>} decided one per value
 */
function withDecided(rowGroups, asked, decided) {
  const at = new Map(asked.map((k, j) => [k, j]))
  return rowGroups.map((g) => ({ ...g, results: decided.map((r, k) =>
    (at.has(k) ? g.results[/** @type {number} */ (at.get(k))] : /** @type {ValueResult} */ (r))) }))
}

/**
 * A file's answer with its place among the files (`order`, removed once they are sorted), as its last property.
 * @param {FileResult} result
 * @param {number} order
 */
function ordered(result, order) {
  result.order = order
  return result
}

/** @param {import('../parquet-file.js').ParquetFile} file */
function statsOf(file) {
  return asIoStats(file.stats)
}

/**
 * A failure as data: { code, message } of a ParquetBloomError, IO for anything else.
 * @param {unknown} error
 * @returns {{ code: string, message: string }}
 */
function errorData(error) {
  if (error instanceof ParquetBloomError) return { code: error.code, message: error.message }
  return { code: ErrorCode.IO, message: String(/** @type {{ message?: unknown } | null | undefined} */ (error)?.message ?? error) }
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
