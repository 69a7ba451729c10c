// ParquetFile: an opened Parquet file whose footer has been read, answering "could row group R hold
// value X of column C?" from its bloom filters, and lending filters out for the length of a visit.
import { BloomFilter } from './filter/bloom-filter.js'
import { getCore, init, initialized } from './wasm/core.js'
import { ErrorCode, invalidArgument, ParquetBloomError } from './errors.js'
import { withFileSize } from './sources/shared.js'
import { setLayoutOrigin } from './footer/chunk-indexes.js'
import { readFooter } from './footer/footer.js'
import { chunk } from './footer/records.js'
import { decryptedFilter, encryptedFilterTask, locateFilter, MODES, WholeFilterTask } from './indexes/bloom-reads.js'
import { fileGeometry } from './footer/file-geometry.js'
import { planProbe } from './plan/probe-plan.js'
import { maxResultsOf } from './plan/max-results.js'
import { confirmOptions } from './confirm/confirm-options.js'
import { LinkModel, transportWindow } from './plan/link-model.js'
import {
  BLOCK_MODE_COALESCE_GAP, ByteCache, checkConcurrency, DEFAULT_COALESCE_GAP, DEFAULT_MAX_REQUEST_BYTES, plannedRequests, runReadTasks,
} from './plan/read-scheduler.js'
import { openByteSource } from './sources/open-byte-source.js'
import { IoLedger, ioStatsSince, looseLane } from './sources/io-ledger.js'
import { HttpSource } from './sources/http-source.js'
import { confirmFooter, FooterReading, footerThroughCache, rereadFooter } from './footer/cached-footer.js'
import { FooterCache } from './footer/footer-cache.js'
import { encodeProbeValues } from './values/probe-values.js'
import { Unanswerable } from './verdicts.js'
import { writerRulesFor } from './indexes/writer-rules.js'
import { lazyMetadata } from './indexes/lazy-metadata.js'
import { checkPlaces, checkRows, decodeOffsetIndex, pageIndexLocation } from './indexes/page-index.js'

// Point lookups' OffsetIndex reading, handed to them from here: imported by the lazy confirm chunk itself, page-index.js
// and what it imports would be split out of the probe path's chunks (+1.7 KB gzip of cross-chunk imports).
const OFFSET_INDEXES = { checkPlaces, checkRows, decodeOffsetIndex, pageIndexLocation }

/** A closed file's byte cache: empty, and nothing adds to it (#adopt gives a file a cache of its own). */
const NO_BYTES = new ByteCache()

/** The key of a ParquetFile's highest round in its ledger, for js/dataset/session.js. */
export const IO_TOP = Symbol('ioTop')
/** A probe option of a dataset's (js/dataset/dataset.js): its values' encodings (ProbeValuesCache), shared by its files. */
export const PROBE_VALUES = Symbol('probeValues')
/** A dataset's way into probe() (js/dataset/dataset.js): `file[PROBE_NOW](…)` answers without a promise when it reads nothing. */
export const PROBE_NOW = Symbol('probeNow')

/**
 * Opens a Parquet file and reads its footer (one tail read; a second only for a footer larger than it).
 * @param {string | URL | Blob | ArrayBuffer | ArrayBufferView | { byteLength: number, slice: Function }} source
 * @param {{ signal?: AbortSignal, fetch?: typeof fetch, initialFetchSize?: number, maxBytes?: number,
 *   maxFooterBytes?: number, concurrency?: number, coalesceGap?: number, maxRequestBytes?: number,
 *   requestTimeoutMs?: number, headers?: Record<string, string>, footerCache?: FooterCache, name?: string,
 *   decryption?: import('./crypto/file-crypto.js').DecryptionOptions, size?: number, fileSize?: number, etag?: string,
 *   retries?: number, plan?: boolean, ioLedger?: import('./sources/io-ledger.js').IoLedger, ioFloor?: number,
 *   index?: { refine: (probe: { name: string, fileSize: number, column: string, values: unknown[], rowGroups: any[],
 *     rowGroupCount?: number, signal?: AbortSignal }) => Promise<unknown> } }} [options]
 *   size, etag: the file as a listing describes it (URLs; `fileSize`: the former name of `size`): the tail is
 *   read as an exact range, responses are checked against them (BAD_RESPONSE_LENGTH, FILE_CHANGED), a cached
 *   footer is validated by the ETag
 *   retries: transient failures (429, 5xx, resets, timeouts) are retried per request, default 3; 0: none
 *   plan: record every request from the footer read on, for the read plan of `probe(…, { plan: true })`
 *   ioLedger: (internal) a dataset's ledger the file's requests join; ioFloor: (internal) the round they come after
 *   index: a sidecar index (openSidecarIndex) whose filters answer what the file's own indexes leave open
 *   footerCache: footers of URLs are kept there (validated by ETag / Last-Modified) and reused; other sources ignore it
 *   decryption: keys of a file with Parquet modular encryption (docs/encryption.md)
 * @returns {Promise<ParquetFile>}
 */
export function openParquet(source, options = {}) {
  return /** @type {Promise<ParquetFile>} */ (openParquetInto(source, options, undefined))
}

/**
 * openParquet()'s file handed on in its own chain: `receiver.fileOpened(file, a, b)`, or, once the file's source is
 * closed, `receiver.fileFailed(error, a, b)`; without a receiver, the file or the failure itself. For a dataset's session
 * (js/dataset/session.js), whose thousands of files in flight then hold no promise, closure or context of its own each.
 * @template A, B, R
 * @param {Parameters<typeof openParquet>[0]} source
 * @param {Parameters<typeof openParquet>[1]} options
 * @param {{ fileOpened(file: ParquetFile, a: A, b: B): R | Promise<R>, fileFailed(error: unknown, a: A, b: B): R | Promise<R> }
 *   | undefined} receiver
 * @param {A} [a] @param {B} [b] handed to the receiver
 * @returns {Promise<any>} the file, or the receiver's answer
 */
export function openParquetInto(source, options = {}, receiver, a, b) {
  // Not async: a chain of the source's opening and the footer's read, so that a dataset's thousands of files in flight
  // hold no async function's promise (nor its await's) each. Whatever throws becomes the promise's rejection (the
  // receiver's fileFailed).
  /** @type {import('./sources/open-byte-source.js').ByteSource | Promise<import('./sources/open-byte-source.js').ByteSource>} */
  let byteSource
  /** @type {FooterCache | undefined} */
  let cache
  /** @type {Promise<unknown> | undefined} */
  let ready
  try {
    options = withFileSize(options)
    // Loaded while the footer is read (readFooter awaits it before decoding): in a fresh process the
    // module's import, compile and instantiation then take no time of their own. Awaited on every path
    // below (readFooter's own init() shares this load); the catch only keeps a failure from being
    // reported as unhandled before that. Once loaded, nothing is awaited for it.
    ready = initialized() ? undefined : init()
    ready?.catch(() => {})
    // The declared FooterCache (js/index.d.ts) hides the class's internals; instanceof checks it is one.
    cache = /** @type {FooterCache | undefined} */ (/** @type {unknown} */ (options.footerCache))
    if (cache !== undefined && !(cache instanceof FooterCache)) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'options.footerCache must come from createFooterCache()')
    }
    // With `plan`, the file's own ledger records from the footer read on (a dataset's session passes its ledger).
    const recorded = options.plan === true && !options.ioLedger ? { ...options, ioLedger: new IoLedger({ record: true }) } : options
    byteSource = openByteSource(source, recorded)
  } catch (error) {
    byteSource = Promise.reject(error)
  }
  const settled = /** @type {FileOptions} */ (options)
  return byteSource instanceof Promise
    ? byteSource.then((opened) => openedFrom(opened, settled, cache, ready, receiver, a, b),
      receiver && ((error) => receiver.fileFailed(error, /** @type {A} */ (a), /** @type {B} */ (b))))
    : openedFrom(byteSource, settled, cache, ready, receiver, a, b)
}

/**
 * openParquet's file once its byte source is open: its footer read (through the cache for a URL), then the file,
 * handed to the receiver when there is one (openParquetInto).
 * @template A, B
 * @param {import('./sources/open-byte-source.js').ByteSource} byteSource
 * @param {FileOptions} options
 * @param {FooterCache | undefined} cache
 * @param {Promise<unknown> | undefined} ready the wasm module's load, when it was not loaded yet
 * @param {{ fileOpened(file: ParquetFile, a: A, b: B): any, fileFailed(error: unknown, a: A, b: B): any } | undefined} receiver
 * @param {A} a @param {B} b
 * @returns {Promise<any>}
 */
function openedFrom(byteSource, options, cache, ready, receiver, a, b) {
  // Decrypted footers are never cached: they would put what the keys protect in the store.
  const through = cache && byteSource instanceof HttpSource && !options.decryption ? cache : undefined
  const opening = new FileOpening(byteSource, options, through, receiver, a, b)
  if (!through) return opening.start()
  const http = /** @type {HttpSource} */ (byteSource)
  /** @type {Promise<OpenedFooter>} */
  let footer
  try {
    http.useConditionalRequests()
    // A dataset's own cache in a fresh process holds nothing: straight to the read, its record the file's only state.
    if (!ready && through.holdsNothing()) return opening.start()
    // A footer taken from the cache is decoded already: the probe needs the wasm module loaded first.
    footer = ready ? ready.then(() => footerThroughCache(through, http, options)) : footerThroughCache(through, http, options)
  } catch (error) {
    footer = Promise.reject(error)
  }
  return footer.then((read) => opening.footerRead(read), (error) => opening.footerFailed(error))
}

/**
 * openParquet's footer read (js/footer/cached-footer.js FooterReading) going on to open the file: the file, or the
 * receiver's answer (openParquetInto); a failure closes the source first.
 * @template A, B
 */
class FileOpening extends FooterReading {
  /**
   * @param {import('./sources/open-byte-source.js').ByteSource} byteSource
   * @param {FileOptions} options
   * @param {FooterCache | undefined} cache the footer kept there, and read anew through it (a URL's)
   * @param {{ fileOpened(file: ParquetFile, a: A, b: B): any, fileFailed(error: unknown, a: A, b: B): any } | undefined} receiver
   * @param {A} a @param {B} b
   */
  constructor(byteSource, options, cache, receiver, a, b) {
    super(byteSource, options, cache)
    this.receiver = receiver
    this.a = a
    this.b = b
  }

  /** @param {OpenedFooter} read */
  footerRead(read) {
    let file
    try {
      file = new ParquetFile(this.source, read, /** @type {FileOptions} */ (this.options), this.cache)
    } catch (error) {
      return this.footerFailed(error)
    }
    return this.receiver ? this.receiver.fileOpened(file, this.a, this.b) : file
  }

  /** @param {unknown} error */
  async footerFailed(error) {
    try {
      await this.source.close()
    } catch (closing) {
      error = closing // what the caller (or the receiver: a dataset's file keeps its answer, an error) is told
    }
    if (this.receiver) return this.receiver.fileFailed(error, this.a, this.b)
    throw error
  }
}

/**
 * One chunk's filter as forEachBloomFilter() hands it over (readBloomFilterParts() describes the fields).
 * @typedef {{ rowGroup: number, column: string, columnIndex: number, offset?: number, length?: number,
 *   header?: ReturnType<typeof import('./indexes/bloom-header.js').decodeHeaderBytes>, bitset?: Uint8Array,
 *   error?: ParquetBloomError | string, encrypted?: boolean }} BloomFilterParts encrypted: read from a decrypted filter
 * @typedef {NonNullable<Parameters<typeof openParquet>[1]> & { link?: LinkModel, windowShare?: () => number }} FileOptions
 *   openParquet's options, and what a dataset's session adds (js/dataset/session.js): the link model and window
 *   share its files plan with
 * @typedef {import('./sources/open-byte-source.js').ByteSource & { maxBytes?: number,
 *   stats: { requests: number, bytesFetched: number, retries?: number },
 *   read: (offset: number, length: number, options?: { signal?: AbortSignal, purpose?: string, into?: Uint8Array })
 *     => Promise<Uint8Array> }} FileSource
 *   the file's ByteSource (HttpSource's also counts retries and caps a read at maxBytes; a file's reads into `into`)
 * @typedef {{ fileSize: number, metadataOffset: number, layout: import('./footer/footer.js').FileLayout,
 *   tail: { offset: number, bytes: Uint8Array }, fromCache?: boolean }} OpenedFooter a footer as read or taken from a cache
 * @typedef {ReturnType<typeof import('./indexes/bloom-header.js').decodeHeaderBytes>} FilterHeader a decoded BloomFilterHeader
 * @typedef {import('./index.js').ProbeOptions & { confirmBudget?: { remaining: number },
 *   [PROBE_VALUES]?: import('./values/probe-values.js').ProbeValuesCache }} ProbeRunOptions
 *   probe()'s options, and a dataset's shared maxConfirmBytes and value encodings (js/dataset/dataset.js)
 * @typedef {{ where: { rowGroup: number, column: string, columnIndex: number, offset: number, length: number | undefined },
 *   crypto: import('./crypto/encrypted-footer.js').ChunkKeys,
 *   modules: import('./crypto/encrypted-filter.js').FilterModules | undefined }} EncryptedFilterJob
 *   an encrypted chunk's filter: which it is, its keys, and its two modules once read
 */

export class ParquetFile {
  /** @type {FileSource} */
  #source
  /** Bytes already read (the tail at first): #adopt gives each footer a cache of its own. */
  #cache = NO_BYTES
  /** @type {FileOptions} */
  #options
  /** @type {ReturnType<typeof lazyMetadata> | undefined} */
  #metadata
  /** @type {import('./footer/file-geometry.js').FileGeometry} */
  #geometry
  #closed = false
  /** @type {LinkModel} */
  #link
  /** @type {import('./sources/io-ledger.js').IoLane} */
  #io
  /** Where the next read plan starts in the ledger's requests (a file's own ledger), once one was asked for. */
  #planFrom = 0
  /** @type {(() => number) | undefined} */
  #windowShare
  /** @type {FooterCache | undefined} The footer cache a URL's footer came through: read again after FILE_CHANGED. */
  #reread
  #footerGeneration = 0
  /** @type {Promise<void> | undefined} */
  #rereading

  // Use openParquet(). Private to this module, which calls it, rather than to the class, so not
  // @private; js/index.d.ts declares it private to users.
  /**
   * @param {FileSource} source @param {OpenedFooter} footer @param {FileOptions} options
   * @param {FooterCache} [reread] the cache the footer came through (source then is an HttpSource): it is read
   *   anew through it after FILE_CHANGED
   */
  constructor(source, footer, options, reread) {
    this.#source = source
    // A caller's own ByteSource has no lane: its reads are counted by it alone.
    this.#io = source.io ?? looseLane(source.name)
    this.#options = options
    this.#reread = reread
    // A dataset's files share one model of their link (js/dataset/session.js): what one file's responses
    // showed prices the next file's reads.
    this.#link = options.link instanceof LinkModel ? options.link : new LinkModel()
    // And one window: a file plans its reads for its share of it (the session's windowShare), so a
    // thousand files' index reads, merged file by file, still fit the window as one wave.
    this.#windowShare = typeof options.windowShare === 'function' ? options.windowShare : undefined
    this.#geometry = this.#adopt(footer)
  }

  /**
   * Takes a footer as the file's description: the one read at open, or a new one after the file changed.
   * @param {OpenedFooter} footer
   * @returns {import('./footer/file-geometry.js').FileGeometry} what probe planning needs of it, for #geometry
   */
  #adopt(footer) {
    /** True when the footer came from options.footerCache (no footer bytes read). */
    this.footerFromCache = footer.fromCache === true
    this.#metadata = undefined
    this.#cache = new ByteCache()
    /** @type {import('./footer/footer.js').FileLayout} */
    this.layout = footer.layout
    /** @type {number} */
    this.fileSize = footer.fileSize
    /** @type {number} */
    this.metadataOffset = footer.metadataOffset
    setLayoutOrigin(this.layout, this.name, this.metadataOffset) // a cached layout comes without one
    // The tail often already holds the filters (DuckDB writes them right before the footer).
    this.#cache.add(footer.tail.offset, footer.tail.bytes)
    /** what probe planning needs of the footer, explicitly */
    return fileGeometry(this.layout, this.fileSize, this.metadataOffset)
  }

  /** The highest round of this file's requests in its ledger (js/dataset/session.js chains files by it); not public. */
  get [IO_TOP]() {
    return this.#io.top
  }

  /** Where the bytes come from: the URL, path or a label for in-memory sources. */
  get name() {
    return this.#source.name
  }

  /**
   * IoStats { requests, bytesFetched, rounds, retries, heads } so far, the footer read included: `rounds`
   * are measured (js/sources/io-ledger.js: a request is one round after what it waited for); `retries` the
   * requests sent again after a transient failure (counted in `requests` too); `heads` always 0 here.
   */
  get stats() {
    const { requests, bytesFetched, retries = 0 } = this.#source.stats
    return { requests, bytesFetched, rounds: this.#io.rounds, retries, heads: 0 }
  }

  /**
   * The footer, shaped for probing: { numRows, createdBy, rowGroups: [{ index, numRows, columns:
   * [{ path, pathInSchema, physicalType, typeLength, logicalType, bloom: { offset, length } | null }] }] }.
   * `path` is dotted; `pathInSchema` the segments (unambiguous when names contain dots).
   * Built as it is read (js/lazy-metadata.js): a row group when it is first read, a chunk's `indexes`
   * when they are (decoding that column), so a footer of thousands of row groups costs nothing here.
   */
  get metadata() {
    this.#metadata ??= lazyMetadata(this.#geometry)
    return this.#metadata
  }

  /**
   * The leaf column a dotted path (or path array) names.
   * @param {string | string[]} path
   */
  column(path) {
    const columns = this.layout.columns
    const wanted = Array.isArray(path) ? path.join('\u0000') : String(path)
    // A dotted name is looked up by a loop first: every file of a dataset asks it once per probe. A name two leaves
    // share (a column named "a.b" beside a → b) picks neither: the other's values would be answered 'absent'.
    if (!Array.isArray(path)) {
      let named
      for (let c = 0; c < columns.length; c++) {
        if (columns[c].name !== wanted) continue
        if (named) {
          throw invalidArgument(`${this.name}: ${JSON.stringify(wanted)} names two columns: pass the path segments, ` +
            `${JSON.stringify(named.path)} or ${JSON.stringify(columns[c].path)}`, { source: this.name, field: wanted })
        }
        named = columns[c]
      }
      if (named) return named
    }
    const found = Array.isArray(path)
      ? columns.find((c) => c.path.join('\u0000') === wanted)
      : columns.find((c) => c.path.length > 1 && c.path[c.path.length - 1] === wanted &&
          columns.filter((d) => d.path[d.path.length - 1] === wanted).length === 1)
    if (!found) {
      const names = columns.map((c) => c.name)
      throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND,
        `${this.name}: no column ${JSON.stringify(Array.isArray(path) ? path.join('.') : path)}; ` +
        `columns: ${names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length})` : ''}`,
        { source: this.name, field: String(path) })
    }
    return found
  }

  /**
   * Says, per row group, whether each value is definitely absent or may be present.
   * @param {string | string[]} columnPath dotted path ('a.b.c') or path segments
   * @param {Iterable<unknown>} values converted by the column's type (see js/values/probe-values.js); wrap one value in [ ]
   * @param {import('./index.js').ProbeOptions} [options] every option, with its meaning and default: js/index.d.ts ProbeOptions
   * @returns {Promise<import('./index.js').ProbeResult>}
   */
  async probe(columnPath, values, options = {}) {
    return this[PROBE_NOW](columnPath, values, options)
  }

  /**
   * probe() without a promise where none is needed: planned at once, and answered at once when it reads, refines and
   * confirms nothing (its statistics answered; the footer is known to be current), else by #withCurrentFooter's rule.
   * What probe() rejects with before any read is thrown. A dataset's thousands of files in flight hold no frame each.
   * @param {string | string[]} columnPath @param {Iterable<unknown>} values @param {ProbeRunOptions} [options]
   * @returns {import('./index.js').ProbeResult | Promise<import('./index.js').ProbeResult>}
   */
  [PROBE_NOW](columnPath, values, options = {}) {
    const generation = this.#footerGeneration
    const plan = this.#rereading ? undefined : this.#probeOnce(columnPath, values, options)
    if (plan && !plan.tasks.length && !plan.readsAfter && !this.#options.index && options.confirm !== true &&
      /** @type {{ confirmed?: boolean }} */ (this.#source).confirmed !== false) { // else confirmFooter reads
      checkConcurrency(this.#window(options)) // as runReadTasks would
      return this.#probeResult(plan, plan.results(), options)
    }
    return this.#probeReading(plan, generation, columnPath, values, options)
  }

  /**
   * A probe that reads (or waits for a footer being read anew), by #withCurrentFooter's rule.
   * @param {ReturnType<typeof planProbe> | undefined} plan made from the footer of `generation`, if one was
   * @param {number} generation
   * @param {string | string[]} columnPath @param {Iterable<unknown>} values @param {ProbeRunOptions} options
   */
  #probeReading(plan, generation, columnPath, values, options) {
    return this.#withCurrentFooter(() => {
      // The plan made already, unless the file changed since (a second attempt plans from the footer read anew).
      const planned = plan && generation === this.#footerGeneration ? plan : this.#probeOnce(columnPath, values, options)
      plan = undefined
      return this.#readAndAnswer(planned, options)
    }, options)
  }

  /**
   * One probe planned from the footer as it is.
   * @param {string | string[]} columnPath @param {Iterable<unknown>} values @param {ProbeRunOptions} options
   */
  #probeOnce(columnPath, values, options) {
    this.#assertOpen()
    const ledger = this.#io.ledger
    if (options.plan === true && !ledger.record) {
      // Recorded from now on: the footer read is in the plan only when openParquet was given `plan: true`.
      ledger.record = true
      this.#planFrom = ledger.requests.length
    }
    const mode = options.mode ?? 'auto'
    if (!MODES.includes(mode)) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(mode)}`)
    }
    const column = this.column(columnPath)
    let encoded
    try {
      // A dataset's files share one encoding of its values per column type.
      const shared = options[PROBE_VALUES]
      encoded = shared && shared.values === values ? shared.encode(column) : encodeProbeValues(column, values)
    } catch (error) {
      if (!(error instanceof ParquetBloomError)) throw error
      throw new ParquetBloomError(error.code, `${this.name}: column ${column.name}: ${error.message}`,
        { source: this.name, field: column.name, cause: error })
    }
    // Block mode is chosen to read few bytes: only ranges that (nearly) touch are joined, unless asked.
    const coalesceGap = options.coalesceGap ?? this.#options.coalesceGap ??
      (mode === 'block' ? BLOCK_MODE_COALESCE_GAP : DEFAULT_COALESCE_GAP)
    // What a request and a sequential round are worth in bytes, from the link seen so far.
    const roundWindow = this.#window(options)
    const roundBytes = this.#remote ? this.#link.bytesPerRound : 4096
    const costs = { requestBytes: roundBytes / roundWindow, roundBytes }
    const confirm = confirmOptions(options)
    // An exact lookup reads the page index with the other indexes, so its pages are known in one wave.
    const pageIndex = options.pageIndex ?? (confirm ? true : 'auto')
    if (pageIndex !== 'auto' && typeof pageIndex !== 'boolean') {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `pageIndex must be 'auto', true or false, got ${JSON.stringify(pageIndex)}`)
    }
    const dictionary = options.dictionary ?? 'auto'
    if (dictionary !== 'auto' && typeof dictionary !== 'boolean') {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `dictionary must be 'auto', true or false, got ${JSON.stringify(dictionary)}`)
    }
    const rowGroups = options.rowGroups === undefined ? null : this.#rowGroupSelection(options.rowGroups)
    // Its answers, one per value for each row group, are made at once: past maxResults refused before they are planned
    // (1,000,000 values over 100 row groups had V8 abort a 512 MiB process, untyped). A dataset's files are asked with
    // Infinity: its own budget counts them (js/plan/result-budget.js).
    const answers = encoded.outcomes.length * (rowGroups ?? this.layout.rowGroupRows).length
    if (answers > maxResultsOf(options.maxResults)) {
      throw new ParquetBloomError(ErrorCode.TOO_LARGE, `${answers} answers over maxResults: probe fewer values per call`)
    }
    return planProbe({
      name: this.name, geometry: this.#geometry, column, encoded, coalesceGap, costs, mode, rowGroups,
      statistics: options.statistics !== false, dictionary, pageIndex,
    })
  }

  /**
   * The rest of a probe whose plan reads: the reads, a second wave for dictionaries that failed, the sidecar's
   * refinement, the exact lookup, then the footer confirmed.
   * @param {ReturnType<typeof planProbe>} plan
   * @param {ProbeRunOptions} options
   */
  async #readAndAnswer(plan, options) {
    const { column, coalesceGap } = plan.probe
    const confirm = confirmOptions(options) // checked when planned
    const encoded = /** @type {ReturnType<typeof encodeProbeValues>} */ (plan.probe.encoded)
    if (this.#remote && plan.tasks.length) {
      const window = this.#planWindow(options)
      const roundWindow = this.#window(options)
      plan.probe.costs.requestBytes = this.#link.requestBytes({ ...plannedRequests(plan.tasks, this.#cache), window, roundWindow })
    }
    await this.#run(plan.tasks, options, coalesceGap)
    // Chunks whose dictionary did not decode fall back to their bloom filters: one more wave, only then.
    if (plan.readsAfter) {
      const retry = await plan.afterReads()
      if (retry.length) await this.#run(retry, options, coalesceGap)
    }
    const rowGroups = plan.results()
    // A sidecar index (js/sidecar/sidecar-index.js) answers what the file's own indexes left open.
    if (this.#options.index) {
      await this.#options.index.refine({
        name: this.name, fileSize: this.fileSize, column: column.name, values: encoded.outcomes.map((o) => o.value), rowGroups,
        rowGroupCount: this.metadata.rowGroups.length, signal: options.signal ?? this.#options.signal,
      })
    }
    let confirmed
    if (confirm) {
      confirmed = await this.#confirm(
        { column, encoded, rowGroups, pageIndexOf: (g) => plan.pageIndexOf(g), columns: options.columns, ...confirm },
        { ...options, coalesceGap })
    }
    return this.#probeResult(plan, rowGroups, options, confirmed)
  }

  /**
   * The probe's result.
   * @param {ReturnType<typeof planProbe>} plan
   * @param {import('./index.js').ProbeResult['rowGroups']} rowGroups
   * @param {ProbeRunOptions} options
   * @param {import('./index.js').IoStats} [confirmed] what an exact lookup cost, when one was made
   * @returns {import('./index.js').ProbeResult}
   */
  #probeResult(plan, rowGroups, options, confirmed) {
    const { column } = plan.probe
    /** @type {import('./index.js').ProbeResult} */
    const result = {
      column: column.name,
      physicalType: column.physicalType,
      logicalType: column.logicalType,
      rowGroups,
    }
    if (confirmed) result.confirm = confirmed
    if (options.plan === true) {
      const ledger = this.#io.ledger
      // (Its purposes are READ_PURPOSES codes.)
      result.plan = /** @type {import('./index.js').ReadPlan} */ (ledger.plan(this.#planFrom))
      this.#planFrom = ledger.requests.length
    }
    return result
  }

  /**
   * Reads and compares the data pages of what is still open (js/confirm/confirm.js); returns what that cost apart from
   * the probe.
   * @param {Omit<Parameters<typeof import('./confirm/confirm.js').planConfirm>[0], 'name' | 'layout' | 'metadataOffset' | 'maxReadBytes'>
   *   & { columns?: string[], maxConfirmBytes: number }} probe
   * @param {ProbeRunOptions} options
   */
  async #confirm(probe, options) {
    const before = { ...this.stats }
    // Loaded on the first confirmation, point lookups with it: a probe that does not confirm never downloads it (or hyparquet).
    const { planConfirm, lookupColumns, lookupRowValues } = await import('./confirm/confirm.js')
    const columns = probe.columns === undefined ? undefined : lookupColumns(this.layout, probe.columns, this.name)
    // A dataset's files share one maxConfirmBytes (js/dataset/dataset.js): each takes what is left of it.
    const budget = options.confirmBudget
    const maxConfirmBytes = budget ? Math.min(probe.maxConfirmBytes, budget.remaining) : probe.maxConfirmBytes
    const confirmation = planConfirm({
      name: this.name, layout: this.layout, metadataOffset: this.metadataOffset, maxReadBytes: this.#source.maxBytes ?? Infinity,
      ...probe, maxConfirmBytes,
    })
    if (budget) budget.remaining -= confirmation.plannedBytes
    await this.#run(confirmation.tasks, options)
    await confirmation.finish()
    if (columns?.length) {
      await lookupRowValues({ layout: this.layout, metadataOffset: this.metadataOffset, columns, rowGroups: probe.rowGroups,
        offsetIndexes: OFFSET_INDEXES, readRange: (offset, length) => this.readRange(offset, length, options) })
    }
    return ioStatsSince(this.stats, before)
  }

  /**
   * Lends the filter of one column chunk to `visit` for the duration of the call (and of the promise it
   * returns). Its bitset returns to the pool when the visit ends; using the filter afterwards throws
   * FILTER_RELEASED. Returns what `visit` returns.
   * @template T
   * @param {number} rowGroupIndex
   * @param {string | string[]} columnPath
   * @param {(filter: BloomFilter) => T | Promise<T>} visit
   * @param {{ signal?: AbortSignal }} [options]
   * @returns {Promise<T>}
   */
  async visitBloomFilter(rowGroupIndex, columnPath, visit, options = {}) {
    if (typeof visit !== 'function') throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'visitBloomFilter needs a callback')
    const bitset = await this.#readBitset(rowGroupIndex, columnPath, options)
    const core = getCore()
    const ptr = core.acquire(bitset.length, 'a bloom filter bitset')
    const filter = BloomFilter.scoped(ptr, bitset.length)
    try {
      core.u8.set(bitset, ptr)
      return await visit(filter)
    } finally {
      filter.expire(`its visit of row group ${rowGroupIndex} ended`)
      core.release(ptr)
    }
  }

  /**
   * The filter of one column chunk as an owned BloomFilter: call free() (or rely on the finalizer as a
   * last resort). Prefer visitBloomFilter, which cannot leak.
   * @param {number} rowGroupIndex @param {string | string[]} columnPath @param {{ signal?: AbortSignal }} [options]
   */
  async getBloomFilter(rowGroupIndex, columnPath, options = {}) {
    return BloomFilter.fromBitset(await this.#readBitset(rowGroupIndex, columnPath, options))
  }

  /**
   * The raw parts of one chunk's filter for inspection: `{ offset, length, header, bitset }`, or with
   * `error` (a ParquetBloomError, or a reason string when there is nothing to read) when it cannot be
   * used. `header` is the decoded BloomFilterHeader; a refused filter whose header still gives a usable
   * size comes with its `bitset` too.
   * @param {number} rowGroupIndex @param {string | string[]} columnPath @param {{ signal?: AbortSignal }} [options]
   * @returns {Promise<Partial<BloomFilterParts>>}
   */
  async readBloomFilterParts(rowGroupIndex, columnPath, options = {}) {
    const column = this.column(columnPath)
    /** @type {BloomFilterParts | undefined} */
    let parts
    await this.forEachBloomFilter({ rowGroups: [rowGroupIndex], columns: [column.path] }, (p) => { parts = p }, options)
    return parts ?? {
      error: this.#refusal(new Unanswerable('no-index', 'this row group has no bloom filter for the column', ErrorCode.NO_BLOOM_FILTER),
        rowGroupIndex, column.name),
    }
  }

  /**
   * Reads the filters of many column chunks at once — ranges coalesced, bounded concurrency, bytes
   * dropped as soon as each chunk is handed over — and calls `visit(parts)` for each chunk that has a
   * bloom_filter_offset, as its bytes arrive. `parts` is `{ rowGroup, column, columnIndex, offset, length, header?,
   * bitset?, error? }` as readBloomFilterParts describes; `bitset` may be reused after `visit` returns.
   * @param {{ rowGroups?: number[], columns?: Array<string | string[]> } | undefined} selection default: everything
   * @param {(parts: BloomFilterParts) => void} visit
   * @param {{ signal?: AbortSignal, concurrency?: number }} [options]
   */
  async forEachBloomFilter(selection, visit, options = {}) {
    // Visits cannot be taken back: a cached footer is confirmed before any, and a change is an error
    // (after which the footer is read anew, so the next call reads the file as it is).
    await this.validateFooter(options)
    try {
      await this.#forEachBloomFilterOnce(selection, visit, options)
    } catch (error) {
      if (/** @type {{ code?: unknown } | undefined} */ (error)?.code === ErrorCode.FILE_CHANGED && this.#reread && !this.#closed) {
        await this.#rereadOnce(this.#footerGeneration).catch(() => {})
      }
      throw error
    }
  }

  /**
   * @param {{ rowGroups?: number[], columns?: Array<string | string[]> } | undefined} selection
   * @param {(parts: BloomFilterParts) => void} visit @param {{ signal?: AbortSignal, concurrency?: number }} options
   */
  async #forEachBloomFilterOnce(selection, visit, options) {
    this.#assertOpen()
    const rowGroups = this.#rowGroupSelection(selection?.rowGroups)
    const columns = selection?.columns ? selection.columns.map((p) => this.column(p)) : this.layout.columns
    const tasks = []
    /** @type {EncryptedFilterJob[]} */
    const encrypted = []
    for (const g of rowGroups) {
      for (const column of columns) {
        const location = locateFilter(this.#geometry, g, column.index, { decrypt: true })
        const base = { rowGroup: g, column: column.name, columnIndex: column.index }
        if (location instanceof Unanswerable) {
          if (location.reason !== 'no-index') visit({ ...base, error: this.#refusal(location, g, column.name) })
          continue
        }
        const where = { ...base, offset: location.offset, length: location.length }
        if (location.crypto) {
          // Read whole, decrypted once every read is in (js/crypto/encrypted-filter.js).
          // (A chunk whose key is missing is refused by locateFilter: this one has its keys.)
          const keys = /** @type {import('./crypto/encrypted-footer.js').ChunkKeys} */ (location.crypto)
          /** @type {EncryptedFilterJob} */
          const job = { where, crypto: keys, modules: undefined }
          encrypted.push(job)
          tasks.push(encryptedFilterTask(location, `${this.name}: row group ${g}, column ${column.name}`,
            (/** @type {import('./crypto/encrypted-filter.js').FilterModules} */ modules) => { job.modules = modules }))
          continue
        }
        tasks.push(new WholeFilterTask(location, `${this.name}: row group ${g}, column ${column.name}`,
          (/** @type {FilterHeader} */ header, /** @type {Uint8Array} */ bitset) => visit({ ...where, header, bitset }),
          (/** @type {ParquetBloomError | string} */ error, /** @type {FilterHeader | undefined} */ header,
            /** @type {Uint8Array | undefined} */ bitset) => visit({ ...where, header, bitset, error }),
          { keepRefusedBits: true }))
      }
    }
    await this.#run(tasks, options)
    await visitDecrypted(encrypted, visit, this.name)
  }

  /**
   * Makes sure the footer (metadata, layout) describes the file as it is: a footer from the cache that no
   * read has confirmed yet costs one 8-byte validated request, and a replaced file has its footer read
   * anew. Free otherwise. probe() does this itself.
   */
  async validateFooter(options = {}) {
    await this.#withCurrentFooter(async () => {}, options)
  }

  /**
   * Bytes [offset, offset + length) of the file, from what is already held or one counted read.
   * @param {number} offset @param {number} length @param {{ signal?: AbortSignal, into?: Uint8Array }} [options]
   */
  async readRange(offset, length, options = {}) {
    this.#assertOpen()
    const held = this.#cache.get(offset, offset + length)
    if (held) return held
    return this.#source.read(offset, length, { signal: options.signal ?? this.#options.signal, into: options.into, purpose: 'data-page' })
  }

  async close() {
    if (this.#closed) return
    this.#closed = true
    this.#cache = NO_BYTES
    // The keys of an encrypted file (CryptoKeys in layout.crypto) do not outlive it.
    if (this.layout.crypto) this.layout.crypto = undefined
    await this.#source.close()
  }

  /**
   * Runs `answer` and returns its result only once the footer it used is known to describe the file.
   * A file replaced since its footer was cached or read (FILE_CHANGED) gets its footer read anew and
   * `answer` run once more from it; a second change is the caller's error. Never loops.
   * @template T
   * @param {() => Promise<T>} answer @param {{ signal?: AbortSignal }} options
   * @returns {Promise<T>}
   */
  async #withCurrentFooter(answer, options) {
    const signal = options.signal ?? this.#options.signal
    /** @type {number | undefined} */
    let generation
    const attempt = async () => {
      await this.#rereading
      generation = this.#footerGeneration
      const result = await answer()
      await confirmFooter(this.#source, this, signal)
      // Another call re-read the footer meanwhile: this answer may mix the two versions.
      if (generation !== this.#footerGeneration || this.#rereading) {
        throw new ParquetBloomError(ErrorCode.FILE_CHANGED, `${this.name} changed while it was being probed`, { source: this.name })
      }
      return result
    }
    try {
      return await attempt()
    } catch (error) {
      const code = /** @type {{ code?: unknown } | undefined} */ (error)?.code
      if (code !== ErrorCode.FILE_CHANGED || !this.#reread || this.#closed) throw error
      await this.#rereadOnce(generation)
      return attempt()
    }
  }

  /**
   * Reads the footer anew unless a newer one than `generation` is already in; concurrent callers share it.
   * Only for a file that can (`#reread`: its callers check).
   * @param {number | undefined} generation
   */
  async #rereadOnce(generation) {
    const cache = this.#reread
    if (generation === this.#footerGeneration && cache) {
      const source = /** @type {HttpSource} */ (/** @type {unknown} */ (this.#source))
      this.#rereading ??= rereadFooter(cache, source, this.#options).then((footer) => {
        this.#geometry = this.#adopt(footer)
        this.#footerGeneration++
      }).finally(() => { this.#rereading = undefined })
    }
    await this.#rereading
  }

  /** @param {number} rowGroupIndex @param {string | string[]} columnPath @param {{ signal?: AbortSignal }} options */
  async #readBitset(rowGroupIndex, columnPath, options) {
    const parts = await this.readBloomFilterParts(rowGroupIndex, columnPath, options)
    if (!parts.bitset || parts.error) throw parts.error
    // A filter its writer is known to fill wrongly would answer "absent" for values the chunk holds: it is lent
    // for membership only as probe() would use it (readBloomFilterParts still hands it over, for inspection).
    const column = this.column(columnPath)
    const rules = writerRulesFor(this.layout.createdBy, 'bloom-filter', column, chunk(this.layout, rowGroupIndex, column.index))
    if (rules.length) {
      const untrusted = new Unanswerable('untrusted-writer', `${rules[0].message} (${rules[0].link})`, ErrorCode.UNSUPPORTED_FILTER)
      throw this.#refusal(untrusted, rowGroupIndex, column.name)
    }
    return parts.bitset
  }

  /**
   * The error a chunk's missing or unusable filter turns into when one is asked for.
   * @param {Unanswerable} unanswerable @param {number} rowGroup @param {string} columnName
   */
  #refusal(unanswerable, rowGroup, columnName) {
    return new ParquetBloomError(unanswerable.errorCode ?? ErrorCode.UNSUPPORTED_FILTER,
      `${this.name}: row group ${rowGroup}, column ${columnName}: ${unanswerable.detail}`,
      { source: this.name, reason: unanswerable.reason, problem: unanswerable.problem })
  }

  get #remote() {
    return this.#source instanceof HttpSource
  }

  /**
   * Requests in flight at once: the caller's `concurrency`, else what the transport allows.
   * @param {{ concurrency?: number }} options
   */
  #window(options) {
    return options.concurrency ?? this.#options.concurrency ?? transportWindow(this.#source, this.#remote)
  }

  /**
   * The window this file's reads are planned for: its share of a dataset's, else all of its own. Each
   * file still joins its reads across at most MAX_WASTE_BYTES a wave (js/plan/link-model.js), so a
   * dataset's bytes read in vain grow with its files, never with the size of their filters.
   * @param {{ concurrency?: number }} options
   */
  #planWindow(options) {
    const window = this.#window(options)
    return this.#windowShare && this.#remote ? Math.max(1, Math.min(window, this.#windowShare())) : window
  }

  /**
   * @param {Parameters<typeof runReadTasks>[0]} tasks
   * @param {{ concurrency?: number, coalesceGap?: number, signal?: AbortSignal }} options
   * @param {number} [coalesceGap] the probe's (its mode's), when it chose one
   */
  async #run(tasks, options, coalesceGap = options.coalesceGap ?? this.#options.coalesceGap ?? DEFAULT_COALESCE_GAP) {
    await runReadTasks(tasks, {
      source: this.#source,
      cache: this.#cache,
      link: this.#remote ? this.#link : undefined,
      concurrency: this.#window(options),
      planWindow: this.#planWindow(options),
      coalesceGap,
      maxRequestBytes: this.#options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
      signal: options.signal ?? this.#options.signal,
    })
  }

  /** @param {number[] | undefined} selection @returns {number[]} */
  #rowGroupSelection(selection) {
    const count = this.layout.rowGroupRows.length
    if (selection === undefined) {
      const all = new Array(count)
      for (let g = 0; g < count; g++) all[g] = g
      return all
    }
    for (const g of selection) {
      if (!Number.isInteger(g) || g < 0 || g >= count) {
        throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `${this.name}: row group ${g} does not exist (the file has ${count})`)
      }
    }
    return selection
  }

  #assertOpen() {
    if (this.#closed) throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `${this.name}: the file is closed`)
  }
}

/**
 * Decrypts the encrypted filters forEachBloomFilter read (concurrently) and visits them in order.
 * @param {EncryptedFilterJob[]} jobs @param {(parts: BloomFilterParts) => void} visit @param {string} name the file
 */
async function visitDecrypted(jobs, visit, name) {
  const filters = await Promise.all(jobs.map((job) => decryptedFilter(job.crypto,
    job.modules ?? { error: new ParquetBloomError(ErrorCode.IO, `${name}: the filter was not read`) },
    `${name}: row group ${job.where.rowGroup}, column ${job.where.column}`)))
  jobs.forEach((job, k) => {
    const filter = filters[k]
    const code = filter instanceof Unanswerable && filter.reason === 'unsupported-filter'
      ? ErrorCode.UNSUPPORTED_FILTER
      : ErrorCode.MALFORMED_FILTER
    if (filter instanceof Unanswerable) {
      visit({ ...job.where, error: new ParquetBloomError(code, filter.detail, { reason: filter.reason }) })
    }
    else visit({ ...job.where, header: filter.header, bitset: filter.bitset, encrypted: true })
  })
}
