// What every byte source shares: option and argument checks, stats, close(), and the per-operation
// plumbing that joins the caller's signals, the source's own close and a timeout into one abort.
import { ErrorCode, invalidArgument, messageOf, ParquetBloomError } from '../errors.js'
import { IoLedger } from './io-ledger.js'

export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024

/**
 * The key of a fetch's init that hands Node's own transport the request's Operation in place of a signal
 * (js/sources/http-request.js fetchWithin): its end destroys the request.
 */
export const OPERATION = Symbol('parquet-bloom operation')

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
  // source: the one in flight, or a set of several, rather than an AbortController of the source's own,
  // which every operation would listen to (a dataset holds thousands of sources open at once, each
  // waiting on one request).
  /** @type {Operation | Set<Operation> | undefined} */
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
    const inFlight = this.#inFlight
    if (inFlight !== undefined && !(inFlight instanceof Set && inFlight.size === 0)) {
      const reason = this.#closeReason()
      for (const op of inFlight instanceof Set ? [...inFlight] : [inFlight]) op.abort(reason)
    }
    // Awaited only when it is a promise: most sources have nothing to close (a URL's).
    const closing = this._close()
    if (closing) await closing
  }

  #closeReason() {
    this.#closedReason ??= new ParquetBloomError(ErrorCode.ABORTED, `${this.#name} was closed while a read was in flight`,
      { source: this.#name })
    return this.#closedReason
  }

  /**
   * @protected
   * @returns {Promise<void> | void}
   */
  _close() {}

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
    const op = this._begin(what, signal, undefined, timeout)
    return runWithin(op, fn, (cause) => this._ioError(cause, what), () => this._end(op))
  }

  /**
   * An operation of this source begun: in flight (close() aborts it) until _end(op); already aborted when
   * the source is closed or a signal has aborted. The caller runs it, and maps its failures with op.failure().
   * @protected
   * @param {string} what as Operation's
   * @param {AbortSignal | undefined} signal the call's own signal
   * @param {string} [detail] as Operation's: what is acted on, in messages only
   * @param {boolean} [timeout] false for a wait of our own (a retry's backoff), which requestTimeoutMs does not bound
   */
  _begin(what, signal, detail, timeout = true) {
    const op = new Operation(what, this.#name, NO_SIGNALS, undefined, detail)
    if (this.#closed) op.abort(this.#closeReason())
    op.watch(this.#signal)
    op.watch(signal)
    if (timeout) op.limit(this.#requestTimeoutMs)
    const inFlight = this.#inFlight
    if (inFlight === undefined) this.#inFlight = op
    else if (inFlight instanceof Set) inFlight.add(op)
    else this.#inFlight = new Set([inFlight, op])
    return op
  }

  /**
   * An operation of _begin() done: out of flight, its listeners and timer gone.
   * @protected
   * @param {Operation} op
   */
  _end(op) {
    const inFlight = this.#inFlight
    if (inFlight === op) this.#inFlight = undefined
    else if (inFlight instanceof Set) inFlight.delete(op)
    op.dispose()
  }
}

/** @type {(AbortSignal | undefined)[]} */
const NO_SIGNALS = []

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
 * @returns {Promise<T>}
 */
export function runOperation(what, source, signals, timeoutMs, fn, ioError) {
  const op = new Operation(what, source, signals, timeoutMs)
  return runWithin(op, fn, ioError, () => op.dispose())
}

/**
 * fn(op) unless op has been aborted, `end` called once it settles, and its failure made a ParquetBloomError
 * (op.failure()). Settled through the promise rather than awaited: no async frame held per operation in flight.
 * @template T
 * @param {Operation} op
 * @param {(operation: Operation) => Promise<T>} fn
 * @param {(error: unknown) => Error} ioError
 * @param {() => void} end
 * @returns {Promise<T>}
 */
function runWithin(op, fn, ioError, end) {
  /** @type {Promise<T>} */
  let running
  try {
    op.throwIfAborted()
    running = Promise.resolve(fn(op))
  } catch (error) {
    running = Promise.reject(error)
  }
  return running.then((value) => {
    end()
    return value
  }, (error) => {
    end()
    throw op.failure(error, ioError)
  })
}

/**
 * The method of a body that hands its chunks to a callback itself (js/sources/node-transport.js's): read
 * so, a body costs one promise rather than one per chunk, each raced against the abort. It resolves at
 * the body's end, rejects when the transfer fails, and when the callback throws destroys the body and
 * rejects with what it threw. Its body can be destroyed (destroy(reason)), which an abort does.
 */
export const EACH_CHUNK = Symbol('each chunk')

/**
 * A body that hands its chunks over itself (EACH_CHUNK).
 * @typedef {{ [EACH_CHUNK](onChunk: (chunk: Uint8Array) => void): Promise<void>, destroy(reason?: any): void }} ChunkSource
 */

/**
 * Reads a response body chunk by chunk under `op`, handing each chunk to `onChunk` (which may throw to
 * stop), and answers what `onEnd` makes of it at its end (in the same step: no promise more); a read that
 * fails becomes `failure(cause)`, an abort the operation's ABORTED. Whenever it stops before the end, the
 * body is cancelled and the transfer torn down (op.stop()).
 * @template [T=void]
 * @param {ReadableStream<Uint8Array> | ChunkSource} body
 * @param {Operation} op
 * @param {(chunk: Uint8Array) => void} onChunk
 * @param {(cause: unknown) => Error} failure
 * @param {() => T} [onEnd]
 * @returns {Promise<T>}
 */
export function forEachChunk(body, op, onChunk, failure, onEnd) {
  if (!(EACH_CHUNK in body)) {
    const read = readEachChunk(body, op, onChunk, failure)
    return /** @type {Promise<T>} */ (onEnd ? read.then(onEnd) : read)
  }
  if (op.aborted) return Promise.reject(op.abortError())
  // The abort destroys the body, which ends its reading: no race per chunk.
  op.bind(body)
  return body[EACH_CHUNK](onChunk).then(() => {
    op.unbind(body)
    return /** @type {T} */ (onEnd?.())
  }, (cause) => {
    op.unbind(body)
    op.stop()
    if (cause instanceof ParquetBloomError) throw cause
    if (op.aborted) throw op.abortError()
    throw failure(cause)
  })
}

/**
 * forEachChunk() of a ReadableStream: each read raced against the abort.
 * @param {ReadableStream<Uint8Array>} body
 * @param {Operation} op
 * @param {(chunk: Uint8Array) => void} onChunk
 * @param {(cause: unknown) => Error} failure
 */
async function readEachChunk(body, op, onChunk, failure) {
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
 * What an abort tears down at once: a request of Node's transport, a body it is reading (js/sources/node-transport.js).
 * @typedef {{ destroy(reason?: any): unknown }} Destroyable
 */

/**
 * One abortable unit of work. It ends when any input signal aborts, the timeout elapses, or abort()/stop()
 * is called. Its signal (an AbortController's, made only when asked for: Node's are costly, and a request
 * of Node's own transport never needs one) aborts then; so does the target bound to it (bind()); race()
 * makes any promise lose to the abort, so a fetch or body read that ignores its signal still ends on time.
 * Listeners are removed in dispose() — AbortSignal.any() would leave them on a long-lived options.signal
 * until it is collected, and Node 20.0–20.2 lack it.
 */
export class Operation {
  #ended = false
  /** @type {unknown} why it ended (STOPPED_ON_PURPOSE for a stop()) */
  #reason
  /** @type {AbortController | undefined} */
  #controller
  /** @type {AbortSignal[] | undefined} the signals it watches (watch()) */
  #watched
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer
  #what
  /** @type {string | undefined} */
  #detail
  #source
  /** @type {Promise<never> | undefined} rejects with the abort: made by the first race() */
  #abortedPromise
  /** @type {((error: unknown) => void) | undefined} */
  #rejectAborted
  /** @type {Destroyable | undefined} */
  #bound

  /**
   * @param {string} what the start of every message ("reading bytes 0-99 of <name>"), or with `detail` its verb
   * @param {string} source
   * @param {(AbortSignal | undefined)[]} signals
   * @param {number | undefined} timeoutMs
   * @param {string} [detail] what is acted on: `what` is then "<what> <detail> of <source>", made only for a message
   */
  constructor(what, source, signals, timeoutMs, detail) {
    this.#what = what
    this.#detail = detail
    this.#source = source
    for (const signal of signals) this.watch(signal)
    this.limit(timeoutMs)
  }

  /**
   * Ends it as timed out (ABORTED, a timeout: js/sources/retry.js may retry it) once `timeoutMs` elapse.
   * @param {number | undefined} timeoutMs
   */
  limit(timeoutMs) {
    if (timeoutMs !== undefined && !this.#ended) this.#arm(timeoutMs)
  }

  /**
   * limit()'s timer. A method of its own: a function's closures' context is made as it is entered, so
   * limit() itself, called for every operation, makes none when there is no timeout.
   * @param {number} timeoutMs
   */
  #arm(timeoutMs) {
    this.#timer = setTimeout(() => {
      const timeout = new ParquetBloomError(ErrorCode.ABORTED, `${this.what} timed out after ${timeoutMs} ms (options.requestTimeoutMs)`,
        { source: this.#source })
      timeouts.add(timeout)
      this.#abort(timeout)
    }, timeoutMs)
  }

  /** What the operation does, as messages start: "requesting bytes=0-99 of <name>". */
  get what() {
    return this.#detail === undefined ? this.#what : `${this.#what} ${this.#detail} of ${this.#source}`
  }

  /**
   * Ends the operation too when `signal` aborts (watched once however often given).
   * @param {AbortSignal | undefined} signal
   */
  watch(signal) {
    if (!signal || this.#ended) return
    if (signal.aborted) this.#abort(signal.reason)
    else if (!this.#watched?.includes(signal)) {
      watch(signal, this)
      if (this.#watched) this.#watched.push(signal)
      else this.#watched = [signal]
    }
  }

  /** Pass to fetch() and the like. */
  get signal() {
    if (!this.#controller) {
      this.#controller = new AbortController()
      if (this.#ended) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  /** True when the caller, close() or the timeout ended this operation (not a stop() of our own). */
  get aborted() {
    return this.#ended && this.#reason !== STOPPED_ON_PURPOSE
  }

  /** True once it ended in any way, a stop() of our own included: what it bound is torn down. */
  get ended() {
    return this.#ended
  }

  /** Why it ended (a stop()'s own reason included), as its signal's reason would say. */
  get reason() {
    return this.#reason
  }

  throwIfAborted() {
    if (this.aborted) throw this.abortError()
  }

  /**
   * From now on, until unbind(target), its end destroys `target` with the reason (at once if it has ended).
   * A transfer so bound needs neither the signal nor race().
   * @param {Destroyable} target
   */
  bind(target) {
    if (this.#ended) target.destroy(this.#reason)
    else this.#bound = target
  }

  /** @param {Destroyable} target no longer destroyed by its end (when it is the one bound) */
  unbind(target) {
    if (this.#bound === target) this.#bound = undefined
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
    const reason = /** @type {any} */ (this.#reason)
    if (reason instanceof ParquetBloomError) return reason
    const detail = reason?.message && reason.name !== 'AbortError' ? ` (${reason.message})` : ''
    return new ParquetBloomError(ErrorCode.ABORTED, `${this.what} was aborted${detail}`, { cause: reason, source: this.#source })
  }

  /**
   * What a failure of the operation throws: a ParquetBloomError as it is, the abort once aborted, else `ioError(error)`.
   * @param {unknown} error
   * @param {(error: unknown) => Error} ioError
   */
  failure(error, ioError) {
    if (error instanceof ParquetBloomError) return error
    if (this.aborted) return this.abortError()
    return ioError(error)
  }

  dispose() {
    for (const signal of this.#watched ?? []) watchers.get(signal)?.delete(this)
    this.#watched = undefined
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#bound = undefined
  }

  /** @param {unknown} reason */
  #abort(reason) {
    if (this.#ended) return
    this.#ended = true
    this.#reason = reason
    this.#controller?.abort(reason)
    const bound = this.#bound
    this.#bound = undefined
    bound?.destroy(reason)
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
  return options.fileSize === size ? options : withKeys(options, { fileSize: size })
}

/**
 * A copy of `base` with `more`'s keys set too: what `{ ...base, key: value }` says, without its cost. In
 * Node 20 (V8 11.3) an object spread with keys after it, or a key set on a spread's copy, makes a hidden
 * class of its own on every call: 0.4 us or more each (against 0.03), and every function that reads such
 * objects then meets a new shape each time and misses its caches. Object.assign onto {} follows the
 * shapes of other objects made so.
 * @template {object} B
 * @template {object} M
 * @param {B} base
 * @param {M} more
 * @returns {B & M}
 */
export function withKeys(base, more) {
  return Object.assign({}, base, more)
}
