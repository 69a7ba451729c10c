// What every byte source shares: option and argument checks, stats, close(), and the per-operation
// plumbing that joins the caller's signals, the source's own close and a timeout into one abort.
import { ErrorCode, invalidArgument, messageOf, ParquetBloomError } from '../errors.js'
import { IoLedger } from './io-ledger.js'

export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024

/** The abort reason used when a source stops a transfer on purpose (not an abort the caller sees). */
const STOPPED_ON_PURPOSE = Symbol('stopped on purpose')
/** The ABORTED errors that are requestTimeoutMs elapsing, not an abort: a retry may succeed (js/sources/retry.js). */
const timeouts = new WeakSet()

/**
 * True when `error` is the ABORTED of a request that ran past requestTimeoutMs.
 * @param {unknown} error
 */
export function isTimeout(error) {
  return typeof error === 'object' && error !== null && timeouts.has(error)
}

/**
 * The options every source takes, checked and with defaults filled in.
 * `fileSize` and `etag` describe a URL's file as a listing gave them (js/sources/s3-listing.js): its
 * tail is then read as an exact range, and responses are checked against them. `retries`: how many
 * times a transient failure of a request is retried (js/sources/retry.js); undefined for the default.
 * @typedef {{ fetch?: Function, signal?: AbortSignal, maxBytes: number, headers?: Headers,
 *   requestTimeoutMs?: number, userAgent?: string, name?: string, fileSize?: number, etag?: string,
 *   retries?: number, ioLedger?: IoLedger, ioFloor?: number, ioGroup?: string }} SourceOptions
 * ioLedger: the scope whose rounds and read plan the source's requests join (js/sources/io-ledger.js),
 * as a lane opened after round `ioFloor`, counted in `ioGroup` too; else a ledger of its own.
 */

/**
 * What resolveOptions reads: ByteSourceOptions (with any function as fetch, as callers' options type it),
 * and what a listing tells of the file (SourceOptions).
 * @typedef {Omit<import('./open-byte-source.js').ByteSourceOptions, 'fetch'>
 *   & { fetch?: Function, fileSize?: number, etag?: string, retries?: number }} SourceOptionsInput
 */

/**
 * A read's or readTail's options argument.
 * @typedef {{ signal?: AbortSignal | null, purpose?: string | string[], into?: Uint8Array }} ReadOptions
 */

/**
 * Checks the options every source takes and fills in defaults. Unknown keys are ignored: callers
 * such as openParquet() pass one options object to several layers.
 * @param {SourceOptionsInput | null | undefined} options
 * @returns {SourceOptions}
 */
export function resolveOptions(options) {
  if (options === undefined || options === null) options = {}
  if (typeof options !== 'object') throw invalidArgument(`options must be an object, got ${describeValue(options)}`)
  const { fetch, signal, maxBytes = DEFAULT_MAX_BYTES, headers, requestTimeoutMs, userAgent, name, fileSize, etag, retries, ioLedger,
    ioFloor, ioGroup } = options
  if (fetch !== undefined && typeof fetch !== 'function') {
    throw invalidArgument(`options.fetch must be a function, got ${describeValue(fetch)}`)
  }
  checkSignal(signal, 'options.signal')
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw invalidArgument(`options.maxBytes must be a positive integer, got ${describeValue(maxBytes)}`)
  }
  if (requestTimeoutMs !== undefined &&
    !(typeof requestTimeoutMs === 'number' && requestTimeoutMs > 0 && requestTimeoutMs <= 2 ** 31 - 1)) {
    throw invalidArgument(`options.requestTimeoutMs must be a positive number of milliseconds (at most ` +
      `2^31-1), got ${describeValue(requestTimeoutMs)}`)
  }
  if (userAgent !== undefined && typeof userAgent !== 'string') {
    throw invalidArgument(`options.userAgent must be a string, got ${describeValue(userAgent)}`)
  }
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    throw invalidArgument(`options.name must be a non-empty string, got ${describeValue(name)}`)
  }
  if (fileSize !== undefined && !(Number.isSafeInteger(fileSize) && fileSize >= 0)) {
    throw invalidArgument(`options.fileSize must be a non-negative integer, got ${describeValue(fileSize)}`)
  }
  if (etag !== undefined && (typeof etag !== 'string' || etag.trim() === '')) {
    throw invalidArgument(`options.etag must be a non-empty string, got ${describeValue(etag)}`)
  }
  let resolvedHeaders
  if (headers !== undefined && headers !== null) {
    try {
      resolvedHeaders = new Headers(headers)
    } catch (cause) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `options.headers is not a valid set of HTTP headers: ${messageOf(cause)}`, { cause })
    }
  }
  return { fetch, signal, maxBytes, headers: resolvedHeaders, requestTimeoutMs, userAgent, name, fileSize, etag: etag?.trim(), retries,
    ioLedger: ioLedger instanceof IoLedger ? ioLedger : undefined, ioFloor, ioGroup }
}

/**
 * @param {unknown} signal
 * @param {string} what
 * @returns {asserts signal is AbortSignal | null | undefined}
 */
export function checkSignal(signal, what) {
  if (signal === undefined || signal === null) return
  const candidate = /** @type {{ aborted?: unknown, addEventListener?: unknown }} */ (signal)
  if (typeof signal !== 'object' || typeof candidate.aborted !== 'boolean' || typeof candidate.addEventListener !== 'function') {
    throw invalidArgument(`${what} must be an AbortSignal, got ${describeValue(signal)}`)
  }
}


/**
 * A short description of a value for messages: its type, and the value itself when it is short.
 * @param {unknown} value
 */
export function describeValue(value) {
  if (value === null) return 'null'
  if (typeof value === 'string') return value.length > 60 ? `a ${value.length}-character string` : JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${value}${typeof value === 'bigint' ? 'n' : ''}`
  }
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no constructor'})`
  return typeof value
}

/**
 * The base of every source: name, size, stats, argument checks, close(), and operations (one read
 * or one HTTP request) that end promptly with ABORTED on any signal, close() or the timeout.
 * Subclasses implement _read(offset, length, operation) and may override _close() and _ioError().
 */
export class SourceBase {
  #name
  #size
  #closed = false
  #signal
  #requestTimeoutMs
  // The operations in flight, which close() aborts so they end instead of finishing against a closed
  // source: a set rather than an AbortController of the source's own, which every operation would
  // listen to (a dataset holds thousands of sources open at once, each waiting on one request).
  /** @type {Set<Operation> | undefined} */
  #inFlight
  /** @type {ParquetBloomError | undefined} */
  #closedReason

  /**
   * @param {string} name
   * @param {number | undefined} size
   * @param {SourceOptions} options
   */
  constructor(name, size, options) {
    this.#name = options.name ?? name
    this.#size = size
    this.maxBytes = options.maxBytes
    this.#requestTimeoutMs = options.requestTimeoutMs
    this.#signal = options.signal ?? undefined
    /**
     * I/O operations performed and bytes they transferred or read (retries: an HTTP source's).
     * @type {{ requests: number, bytesFetched: number, retries?: number }}
     */
    this.stats = { requests: 0, bytesFetched: 0 }
    /** The lane of a ledger this source's requests are clocked and recorded in (js/sources/io-ledger.js). */
    this.io = (options.ioLedger ?? new IoLedger()).lane(this.#name, options.ioFloor, options.ioGroup)
    /** What a read is for when its caller does not say (a READ_PURPOSES code). */
    this.readPurpose = 'data-page'
  }

  /**
   * From now on, requests join `ledger` (a probe's), as a lane opened after round `floor`, in `group` (IoLedger.lane).
   * @param {IoLedger} ledger
   * @param {number} [floor]
   * @param {string} [group]
   */
  attachIo(ledger, floor, group) {
    this.io = ledger.lane(this.#name, floor, group)
  }

  /** The URL (credentials in its query redacted), path, or a label; every error message names it. */
  get name() {
    return this.#name
  }

  /** The file's size in bytes, or undefined for a URL not yet read. */
  get size() {
    return this.#size
  }

  get closed() {
    return this.#closed
  }

  /**
   * @protected
   * @param {number | undefined} size
   */
  _setSize(size) {
    this.#size = size
  }

  /**
   * The last min(length, size) bytes and where they start. `options.purpose`: what the read is for (js/sources/io-ledger.js).
   * @param {number} length
   * @param {ReadOptions} [options]
   * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
   */
  async readTail(length, options) {
    const signal = callSignal(options, 'readTail')
    this._checkOpen()
    this._checkTailLength(length)
    const size = /** @type {number} */ (this.#size) // known here: a source that learns it (HttpSource) has its own readTail
    const start = Math.max(0, size - length)
    return { offset: start, bytes: await this.read(start, size - start, { signal, purpose: options?.purpose }) }
  }

  /**
   * Exactly the bytes [offset, offset + length). `options.into`: a buffer of at least `length` bytes the
   * source may read into and return a view of (a local file does; others return bytes of their own), so a
   * caller streaming a file through can reuse its buffers instead of leaving one behind per read.
   * @param {number} offset
   * @param {number} length
   * @param {ReadOptions} [options]
   * @returns {Promise<Uint8Array>}
   */
  async read(offset, length, options) {
    const signal = callSignal(options, 'read')
    this._checkOpen()
    this._checkRange(offset, length)
    if (length === 0) return new Uint8Array(0)
    const into = options?.into instanceof Uint8Array && options.into.length >= length ? options.into.subarray(0, length) : undefined
    const request = this.io.begin(options?.purpose ?? this.readPurpose, offset, length)
    let failed = true
    try {
      const bytes = await this._operation(`reading bytes ${offset}-${offset + length - 1} of ${this.#name}`, signal, (op) =>
        this._read(offset, length, op, into))
      request.received(bytes.byteLength)
      failed = false
      return bytes
    } finally {
      request.finish(failed)
    }
  }

  /** Idempotent. Reads in flight end with ABORTED; later reads fail. */
  async close() {
    if (this.#closed) return
    this.#closed = true
    // Only reads in flight are aborted: a file closed after its last read (nearly always) needs no
    // abort, whose error alone costs more than the rest of close(). A read begun later aborts at once (_operation).
    if (this.#inFlight?.size) {
      const reason = this.#closeReason()
      for (const op of [...this.#inFlight]) op.abort(reason)
    }
    await this._close()
  }

  #closeReason() {
    this.#closedReason ??= new ParquetBloomError(ErrorCode.ABORTED, `${this.#name} was closed while a read was in flight`,
      { source: this.#name })
    return this.#closedReason
  }

  /** @protected */
  async _close() {}

  /**
   * @protected
   * @param {number} _offset
   * @param {number} _length
   * @param {Operation} _operation
   * @param {Uint8Array | undefined} _into
   * @returns {Promise<Uint8Array>}
   */
  async _read(_offset, _length, _operation, _into) {
    throw new Error('not implemented')
  }

  /**
   * @protected Turns a failure that is not ours (a rejected fs call, a thrown slice()) into an error.
   * @param {unknown} cause
   * @param {string} what
   * @returns {Error}
   */
  _ioError(cause, what) {
    return new ParquetBloomError(ErrorCode.IO, `${what} failed: ${messageOf(cause)}`, { cause, source: this.#name })
  }

  /** @protected */
  _checkOpen() {
    if (this.#closed) throw invalidArgument(`${this.#name} is closed; open the source again to read it`, { source: this.#name })
  }

  /**
   * @protected
   * @param {number} length
   */
  _checkTailLength(length) {
    if (!Number.isSafeInteger(length) || length <= 0) {
      throw invalidArgument(`readTail length must be a positive integer, got ${describeValue(length)} (${this.#name})`,
        { source: this.#name })
    }
    if (length > this.maxBytes) throw this._tooLarge(length)
  }

  /**
   * @protected
   * @param {number} offset
   * @param {number} length
   */
  _checkRange(offset, length) {
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw invalidArgument(`read offset must be a non-negative integer, got ${describeValue(offset)} (${this.#name})`,
        { source: this.#name })
    }
    if (!Number.isSafeInteger(length) || length < 0) {
      throw invalidArgument(`read length must be a non-negative integer, got ${describeValue(length)} (${this.#name})`,
        { source: this.#name })
    }
    if (length > this.maxBytes) throw this._tooLarge(length)
    if (this.#size !== undefined && offset + length > this.#size) throw this._pastEnd(offset, length, this.#size)
  }

  /**
   * @protected
   * @param {number} offset
   * @param {number} length
   * @param {number} size
   */
  _pastEnd(offset, length, size) {
    return invalidArgument(`bytes ${offset}-${offset + length - 1} are past the end of ${this.#name}, which has ${size} bytes`,
      { source: this.#name, offset })
  }

  /**
   * @protected
   * @param {number} length
   */
  _tooLarge(length) {
    return new ParquetBloomError(ErrorCode.TOO_LARGE,
      `reading ${length} bytes at once from ${this.#name} is over maxBytes (${this.maxBytes}); raise options.maxBytes to allow it`,
      { source: this.#name })
  }

  /**
   * Runs fn(operation) so that it ends promptly on abort, close() or timeout, and turns whatever it
   * throws into a ParquetBloomError.
   * @protected
   * @template T
   * @param {string} what e.g. "reading bytes 0-99 of <name>", the start of every message
   * @param {AbortSignal | undefined} signal the call's own signal
   * @param {(operation: Operation) => Promise<T>} fn
   * @param {{ timeout?: boolean }} [limits] timeout: false for a wait of our own (a retry's backoff), which
   *   requestTimeoutMs does not bound
   * @returns {Promise<T>}
   */
  _operation(what, signal, fn, { timeout = true } = {}) {
    const closed = this.#closed ? AbortSignal.abort(this.#closeReason()) : undefined
    return runOperation(what, this.#name, [this.#signal, signal, closed],
      timeout ? this.#requestTimeoutMs : undefined,
      fn, (error) => this._ioError(error, what), (this.#inFlight ??= new Set()))
  }
}

/**
 * Runs fn(operation) so that it ends promptly when one of `signals` aborts or `timeoutMs` elapses, and
 * turns whatever it throws into a ParquetBloomError (`ioError` for a failure that is not ours).
 * @template T
 * @param {string} what the start of every message, e.g. "reading bytes 0-99 of <name>"
 * @param {string} source the name errors carry
 * @param {(AbortSignal | undefined)[]} signals
 * @param {number | undefined} timeoutMs
 * @param {(operation: Operation) => Promise<T>} fn
 * @param {(error: unknown) => Error} ioError
 * @param {Set<Operation>} [inFlight] the operation is in it while it runs (a source's, which close() aborts)
 * @returns {Promise<T>}
 */
export function runOperation(what, source, signals, timeoutMs, fn, ioError, inFlight) {
  const op = new Operation(what, source, signals, timeoutMs)
  inFlight?.add(op)
  /** @type {Promise<T>} */
  let running
  try {
    op.throwIfAborted()
    running = Promise.resolve(fn(op))
  } catch (error) {
    running = Promise.reject(error)
  }
  // Settled through the promise rather than awaited: no async frame held per operation in flight.
  return running.then((value) => {
    inFlight?.delete(op)
    op.dispose()
    return value
  }, (error) => {
    try {
      if (error instanceof ParquetBloomError) throw error
      if (op.aborted) throw op.abortError()
      throw ioError(error)
    } finally {
      inFlight?.delete(op)
      op.dispose()
    }
  })
}

/**
 * Reads a response body chunk by chunk under `op`, handing each chunk to `onChunk` (which may throw to
 * stop); a read that fails becomes `failure(cause)`, an abort the operation's ABORTED. Whenever it stops
 * before the end, the body is cancelled and the transfer torn down (op.stop()).
 * @param {ReadableStream<Uint8Array>} body
 * @param {Operation} op
 * @param {(chunk: Uint8Array) => void} onChunk
 * @param {(cause: unknown) => Error} failure
 */
export async function forEachChunk(body, op, onChunk, failure) {
  const reader = body.getReader()
  let done = false
  try {
    for (;;) {
      let chunk
      try {
        chunk = await op.race(reader.read())
      } catch (cause) {
        if (cause instanceof ParquetBloomError || op.aborted) throw cause
        throw failure(cause)
      }
      if (chunk.done) {
        done = true
        return
      }
      onChunk(chunk.value)
    }
  } finally {
    if (!done) {
      reader.cancel().catch(() => {})
      op.stop()
    }
  }
}

/**
 * The chunks joined into one array of `length` bytes.
 * @param {Iterable<Uint8Array>} chunks
 * @param {number} length
 */
export function concatChunks(chunks, length) {
  const bytes = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/**
 * The signal in a read/readTail options argument, checked.
 * @param {ReadOptions | null | undefined} options
 * @param {string} method
 */
export function callSignal(options, method) {
  if (options === undefined || options === null) return undefined
  if (typeof options !== 'object') throw invalidArgument(`${method} options must be an object, got ${describeValue(options)}`)
  checkSignal(options.signal, `${method} options.signal`)
  return options.signal ?? undefined
}

// One listener per shared signal, fanned out to the operations that watch it: a probe keeps thousands of
// requests in flight on the same signals, and Node warns about (and browsers keep) one listener each.
// The operations themselves are kept, not a closure each: a dataset's files in flight hold no more.
/** @type {WeakMap<AbortSignal, Set<Operation>>} */
const watchers = new WeakMap()

/**
 * Aborts `op` once `signal` aborts, until unwatch().
 * @param {AbortSignal} signal
 * @param {Operation} op
 */
function watch(signal, op) {
  let set = watchers.get(signal)
  if (!set) {
    set = new Set()
    watchers.set(signal, set)
    const all = set
    signal.addEventListener('abort', () => {
      for (const watching of [...all]) watching.abort(signal.reason)
      all.clear()
    }, { once: true })
  }
  set.add(op)
}

/**
 * One abortable unit of work. Its signal aborts when any input signal does or the timeout elapses;
 * race() makes any promise lose to that abort, so a fetch or body read that ignores its signal still
 * ends on time. Listeners are removed in dispose() — AbortSignal.any() would leave them on a long-lived
 * options.signal until it is collected, and Node 20.0–20.2 lack it.
 */
export class Operation {
  #controller = new AbortController()
  /** @type {AbortSignal[] | undefined} the signals it watches (watch()) */
  #watched
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer
  #what
  #source
  /** @type {Promise<never> | undefined} rejects with the abort: made by the first race() */
  #abortedPromise
  /** @type {((error: unknown) => void) | undefined} */
  #rejectAborted

  /**
   * @param {string} what
   * @param {string} source
   * @param {(AbortSignal | undefined)[]} signals
   * @param {number | undefined} timeoutMs
   */
  constructor(what, source, signals, timeoutMs) {
    this.#what = what
    this.#source = source
    for (const signal of signals) {
      if (!signal) continue
      if (signal.aborted) {
        this.#abort(signal.reason)
        break
      }
      // The same signal twice (a source's and its call's, often one) is watched once.
      if (this.#watched?.includes(signal)) continue
      watch(signal, this)
      if (this.#watched) this.#watched.push(signal)
      else this.#watched = [signal]
    }
    if (timeoutMs !== undefined && !this.#controller.signal.aborted) {
      const timer = setTimeout(() => {
        const timeout = new ParquetBloomError(ErrorCode.ABORTED, `${what} timed out after ${timeoutMs} ms (options.requestTimeoutMs)`,
          { source })
        timeouts.add(timeout)
        this.#abort(timeout)
      }, timeoutMs)
      this.#timer = timer
    }
  }

  /** Pass to fetch() and the like. */
  get signal() {
    return this.#controller.signal
  }

  /** True when the caller, close() or the timeout ended this operation (not a stop() of our own). */
  get aborted() {
    return this.#controller.signal.aborted && this.#controller.signal.reason !== STOPPED_ON_PURPOSE
  }

  throwIfAborted() {
    if (this.aborted) throw this.abortError()
  }

  /**
   * Settles like promise, or rejects with ABORTED as soon as the operation is aborted.
   * @template T
   * @param {Promise<T>} promise
   * @returns {Promise<T>}
   */
  race(promise) {
    if (!this.#abortedPromise) {
      // Made on first use, not per operation: most operations end without racing an abort.
      this.#abortedPromise = new Promise((_, reject) => { this.#rejectAborted = reject })
      this.#abortedPromise.catch(() => {}) // only ever observed through race()
      if (this.aborted) this.#rejectAborted?.(this.abortError())
    }
    return Promise.race([promise, this.#abortedPromise])
  }

  /** Tears down the transfer (e.g. a body we decided not to read) without reporting an abort. */
  stop() {
    this.#abort(STOPPED_ON_PURPOSE)
  }

  /**
   * Ends the operation as aborted for `reason` (its source was closed).
   * @param {unknown} reason
   */
  abort(reason) {
    this.#abort(reason)
  }

  abortError() {
    const reason = this.#controller.signal.reason
    if (reason instanceof ParquetBloomError) return reason
    const detail = reason?.message && reason.name !== 'AbortError' ? ` (${reason.message})` : ''
    return new ParquetBloomError(ErrorCode.ABORTED, `${this.#what} was aborted${detail}`, { cause: reason, source: this.#source })
  }

  dispose() {
    for (const signal of this.#watched ?? []) watchers.get(signal)?.delete(this)
    this.#watched = undefined
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
  }

  /** @param {unknown} reason */
  #abort(reason) {
    if (this.#controller.signal.aborted) return
    this.#controller.abort(reason)
    if (reason !== STOPPED_ON_PURPOSE) this.#rejectAborted?.(this.abortError())
  }
}

/**
 * The options with the file's size under the name the sources read (`fileSize`): a caller gives it as `size`,
 * as a dataset's descriptors and a listing's entries name it, or by its former name `fileSize`; both, unequal,
 * is an INVALID_ARGUMENT.
 * @template {{ size?: number, fileSize?: number }} T
 * @param {T} options
 * @returns {T}
 */
export function withFileSize(options) {
  const { size } = options
  if (size === undefined) return options
  if (options.fileSize !== undefined && options.fileSize !== size) {
    throw invalidArgument(`options.size (${size}) and options.fileSize (${options.fileSize}) ` +
      'differ: give the size once, as options.size')
  }
  if (!(typeof size === 'number' && Number.isSafeInteger(size) && size >= 0)) {
    throw invalidArgument(`options.size must be a non-negative integer, got ${String(size)}`)
  }
  return options.fileSize === size ? options : { ...options, fileSize: size }
}
