// A byte source over an http(s) URL using Range requests: the tail in one request (a suffix range,
// no HEAD), bounded ranges after that, and fallbacks for servers that reject suffixes or ignore Range.
// It records the file's validator (ETag, else Last-Modified + size; RFC 9110 §8.8) and, when asked, sends
// it with every request (If-Match / If-Unmodified-Since, §13.1) so a replaced file fails as FILE_CHANGED.
// A size and ETag known beforehand (a bucket listing) make the tail read an exact range; transient
// failures are retried (js/sources/retry.js).
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { callSignal, concatChunks, forEachChunk, SourceBase, withKeys } from './shared.js'
import { resolveRetries, retryDelayMs, shouldRetry, sleepWithin } from './retry.js'
import { describeCause, fetchFor, fetchWithin, identityLength, networkError, plainRangeHeaders, redactUrl, refuseUserinfo, releaseBody,
  requestHeaders, statusError } from './http-request.js'
import { etagsDiffer, preconditionFor, validatorChange, validatorFromEtag, validatorFromHeaders } from './validator.js'

export { redactUrl }

// How readTail() goes on after the suffix request when that request did not give the tail.
const NEXT_BOUNDED = 'bounded' // the size is known now: ask for bytes=start-end
const NEXT_PROBE = 'probe' // ask for bytes=0-0 to learn the size from Content-Range
const WHOLE_BODY = Symbol('whole body')
// What a browser needs of a server to read its ranges (one string, not one built per request).
const CORS_RANGE = 'the server must allow this origin and the Range request header, and expose Content-Range'

/**
 * What a browser needs of a server to read its ranges with `condition` sent too (for the message of a
 * request that failed).
 * @param {{ name: string } | undefined} condition
 */
function corsNeeds(condition) {
  return condition ? `the server must allow this origin and the Range and ${condition.name} request headers, and expose ` +
    'Content-Range' : CORS_RANGE
}

// The headers of every request of a source given neither headers nor a User-Agent (requestHeaders()'s).
const IDENTITY_ONLY = requestHeaders({})

// A body that came in one chunk is kept as that chunk (no copy) when the memory the chunk lies in holds at
// most this many bytes more (a response's headers, read with it), not when it is a view of a larger buffer.
const MAX_SHARED_SLACK = 4096

// What a request asks for, and so how its response is read (HttpSource #answered, #settled): the last n
// bytes (bytes=-n), bytes=0-0 to learn the size, a range, or a range that is the tail of a known size.
/** @typedef {0 | 1 | 2 | 3} RequestKind */
const TAIL = 0
const PROBE = 1
const RANGE = 2
const BOUNDED_TAIL = 3

// Origins seen answering a suffix range (bytes=-n) with other bytes than the last n — s3rver answers
// bytes 0-n/N — while telling the size. Such an answer's body is never read: its Content-Range gives the
// size, then the tail is read as an exact range. Noted for callers (misreadsSuffixRanges): a file of such
// an origin costs one request more unless its size is given (options.size, from a listing).
/** @type {Set<string>} */
const suffixMisread = new Set()

/**
 * True when a server of this origin has answered a suffix range with the wrong bytes in this process.
 * @param {string} origin
 */
export function misreadsSuffixRanges(origin) {
  return suffixMisread.has(origin)
}

/**
 * Parses Content-Range. undefined when absent, null when malformed, { start, end, total } for a
 * satisfied range (total undefined for "*"), { unsatisfied: true, total } for "bytes *\/total".
 * @param {string | null | undefined} value
 * @returns {ContentRange | null | undefined}
 */
export function parseContentRange(value) {
  if (value === null || value === undefined) return undefined
  let m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value)
  if (m) {
    const start = Number(m[1])
    const end = Number(m[2])
    const total = m[3] === '*' ? undefined : Number(m[3])
    if (!Number.isSafeInteger(end) || start > end || (total !== undefined && (!Number.isSafeInteger(total) || end >= total))) return null
    return { start, end, total }
  }
  m = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(value)
  if (m && Number.isSafeInteger(Number(m[1]))) return { unsatisfied: true, total: Number(m[1]) }
  return null
}

/**
 * A parsed Content-Range (parseContentRange); `unsatisfied` tells the two apart.
 * @typedef {{ start: number, end: number, total: number | undefined, unsatisfied?: undefined }
 *   | { unsatisfied: true, total: number, start?: undefined, end?: undefined }} ContentRange
 */

/** The last suffix range asked for: every file of a dataset asks for the same one, and keeps the header in flight. */
let lastSuffix = { length: -1, range: '' }

/** The Range header of the last `length` bytes. @param {number} length */
function suffixRange(length) {
  if (lastSuffix.length !== length) lastSuffix = { length, range: `bytes=-${length}` }
  return lastSuffix.range
}

/**
 * HTTP semantics worth knowing:
 * - stats.requests counts fetch() calls; a redirect fetch follows is part of one request.
 * - After a redirect, later requests go straight to the final URL (one round trip saved each) when it
 *   is on the same origin, or when the caller passed no headers; a cross-origin redirect with caller
 *   headers keeps going through the original URL so those headers never reach the other origin.
 * - A server that answers 200 (ignoring Range) with at most maxBytes is taken whole: every later read
 *   is served from that body with no request.
 */
export class HttpSource extends SourceBase {
  #url
  #fetch
  /** @type {Record<string, string>} */
  #headers
  #hasCallerHeaders
  /** @type {Uint8Array | undefined} the whole file, after a server ignored Range */
  #whole
  #key
  #conditional = false
  /** @type {import('./validator.js').Validator | undefined} from the first response */
  #validator
  #confirmed = true
  #bypassHttpCache = false
  #retries
  /** @type {number | undefined} the file's size as options.size describes it */
  #givenSize
  /** @type {string | undefined} its ETag as options.etag gives it */
  #givenEtag

  /**
   * @param {URL} url http: or https:
   * @param {import('./shared.js').SourceOptions} options
   * @param {string} [href] url.href spelled by a string the caller holds anyway (its own), kept rather than the URL's copy
   */
  constructor(url, options, href = url.href) {
    refuseUserinfo(url)
    super(redactUrl(url, href), undefined, options)
    this.#fetch = fetchFor(options.fetch, this.name)
    this.#url = href
    this.#key = href
    // Only ever copied into a request's headers: one record for every source without headers of its own.
    this.#headers = options.headers === undefined && options.userAgent === undefined ? IDENTITY_ONLY : requestHeaders(options)
    this.#hasCallerHeaders = options.headers !== undefined && [...options.headers.keys()].length > 0
    this.#retries = resolveRetries(options.retries)
    // Made with its three counters rather than one added to the base's (an object grown later holds them apart).
    this.stats = { requests: 0, bytesFetched: 0, retries: 0 }
    this.#givenSize = options.fileSize
    this.#givenEtag = options.etag
    if (options.fileSize !== undefined) this._setSize(options.fileSize)
    if (options.etag !== undefined) this.#validator = validatorFromEtag(options.etag)
  }

  /** The size and ETag options.size and options.etag gave (a listing's), before any response. */
  get givenVersion() {
    return { size: this.#givenSize, etag: this.#givenEtag }
  }

  /** The URL as given, credentials and all: a cache key, never to be shown (name is the shown form). */
  get cacheKey() {
    return this.#key
  }

  /**
   * The file's validator once a response gave one: { etag, weak, lastModified, size }. `weak` ETags are
   * never sent in If-Match (it compares strongly, RFC 9110 §13.1.1). undefined when the server sent neither.
   */
  get validator() {
    const v = this.#validator
    if (!v || (v.etag === undefined && v.lastModified === undefined)) return undefined
    return Object.assign({}, v, { size: this.size }) // not { ...v, size }: see js/sources/shared.js withKeys
  }

  /** False from expectFile() until a response proves the file is still the one expected. */
  get confirmed() {
    return this.#confirmed
  }

  /** From now on every request carries the validator, and a 412 or another validator is FILE_CHANGED. */
  useConditionalRequests() {
    this.#conditional = true
  }

  /**
   * Reads as of a known version of the file (a cached footer): no request is needed to learn its size.
   * `confirmed`: something other than a response already showed it is the file as it is (a listing's
   * ETag equal to the cached one), so no request need confirm it.
   * @param {import('./validator.js').Validator | null | undefined} validator
   * @param {number} size
   */
  expectFile(validator, size, { confirmed = false } = {}) {
    // An object even without validators: the size alone is then what later responses are checked against.
    this.#validator = { etag: validator?.etag, weak: validator?.weak, lastModified: validator?.lastModified }
    this._setSize(size)
    this.#whole = undefined
    this.#confirmed = confirmed
  }

  /** Forgets the version read so far (after FILE_CHANGED): the next readTail() learns the file anew. */
  forgetFile() {
    // A browser's HTTP cache may still hold the old version's tail: go to the server from now on.
    this.#bypassHttpCache = true
    this.#validator = undefined
    // What a listing said of the file described the old version too.
    this.#givenSize = undefined
    this.#givenEtag = undefined
    this._setSize(undefined)
    this.#whole = undefined
    this.#confirmed = true
  }

  /**
   * @param {number} length
   * @param {import('./shared.js').ReadOptions} [options]
   * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
   */
  readTail(length, options) {
    // Not async (its checks' throws are rejections all the same): the request's own promise is the answer.
    try {
      const signal = callSignal(options, 'readTail')
      this._checkOpen()
      this._checkTailLength(length)
      const purpose = options?.purpose ?? this.readPurpose
      if (this.#whole) return Promise.resolve(this.#tailOfWhole(length))
      if (this.size !== undefined) return this.#boundedTail(length, signal, purpose)
      return this.#exchange(TAIL, suffixRange(length), null, length, signal, purpose, 0)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * readTail() once its suffix request answered `first` other than the tail: what to ask next for it.
   * @param {typeof NEXT_BOUNDED | typeof NEXT_PROBE | typeof WHOLE_BODY} first
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
   */
  async #tailAfterSuffix(first, length, signal, purpose) {
    if (first === WHOLE_BODY) return this.#tailOfWhole(length)
    if (first === NEXT_BOUNDED) return this.#boundedTail(length, signal, purpose)

    const probe = await this.#exchange(PROBE, 'bytes=0-0', 0, 1, signal, purpose, 0)
    // The probe answers bytes, or WHOLE_BODY having set #whole.
    if (this.#whole || typeof probe !== 'object') return this.#tailOfWhole(length)
    const { size } = this // the probe learned it
    if (size !== undefined && size <= 1) return { offset: 0, bytes: probe.subarray(0, size) }
    return this.#boundedTail(length, signal, purpose)
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {import('./shared.js').ReadOptions} [options]
   * @returns {Promise<Uint8Array>}
   */
  read(offset, length, options) {
    try {
      const signal = callSignal(options, 'read')
      this._checkOpen()
      this._checkRange(offset, length)
      if (length === 0) return Promise.resolve(new Uint8Array(0))
      if (this.#whole) return Promise.resolve(this.#whole.subarray(offset, offset + length))
      const purpose = options?.purpose ?? this.readPurpose
      return this.#exchange(RANGE, `bytes=${offset}-${offset + length - 1}`, offset, length, signal, purpose, 0)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  _close() {
    this.#whole = undefined
  }

  /** @param {number} length */
  #tailOfWhole(length) {
    const whole = /** @type {Uint8Array} */ (this.#whole) // callers check it is set
    const start = Math.max(0, whole.length - length)
    return { offset: start, bytes: whole.subarray(start) }
  }

  /**
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
   */
  #boundedTail(length, signal, purpose) {
    if (this.#whole) return Promise.resolve(this.#tailOfWhole(length))
    const size = /** @type {number} */ (this.size) // a bounded tail is read once the size is known
    const start = Math.max(0, size - length)
    if (start === size) return Promise.resolve({ offset: start, bytes: new Uint8Array(0) })
    return this.#exchange(BOUNDED_TAIL, `bytes=${start}-${size - 1}`, start, size - start, signal, purpose, 0)
  }

  /**
   * One request, sent again while it fails transiently (js/sources/retry.js): counted, recorded in the
   * ledger, sent under an operation (caller signals, close(), timeout), its response checked and read
   * as `kind` asks (#answered). One chain of promises, none of them an async function's: a dataset holds
   * thousands of requests in flight, and a suspended frame each would hold its registers and context.
   * @param {RequestKind} kind
   * @param {string} range the Range header
   * @param {number | null} offset the first byte asked for (null: a suffix)
   * @param {number} length how many bytes
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @param {number} attempt 0, then 1 for the first retry…
   * @returns {Promise<any>} what #settled makes of the answer for `kind`
   */
  #exchange(kind, range, offset, length, signal, purpose, attempt) {
    const op = this._begin('requesting', signal, range)
    if (op.aborted) {
      this._end(op)
      return Promise.reject(op.abortError())
    }
    // The validator the request carries (a weak ETag never does: If-Match compares strongly).
    const condition = this.#conditional ? preconditionFor(this.#validator) : undefined
    this.stats.requests++
    const record = this.io.begin(purpose, offset, length, attempt > 0, true)
    /** @type {Record<string, string>} */
    const headers = this.#headers === IDENTITY_ONLY ? plainRangeHeaders(range) : withKeys(this.#headers, { range })
    if (condition) headers[condition.name] = condition.value
    // One stage of the chain waits on the network (a promise and its two callbacks per request in flight);
    // what the response leads to, and a failure, are methods called from it.
    return fetchWithin(op, this.#fetch, this.#url, undefined, headers, this.#bypassHttpCache, record).then((response) => {
      record.answered()
      let result
      try {
        result = this.#answered(kind, response, op, range, offset, length, condition, record)
      } catch (error) {
        return this.#failed(error, op, record, kind, range, offset, length, signal, purpose, attempt)
      }
      if (!(result instanceof Promise)) return this.#done(result, op, record, kind, offset, length, signal, purpose)
      return result.then((read) => this.#done(read, op, record, kind, offset, length, signal, purpose),
        (error) => this.#failed(error, op, record, kind, range, offset, length, signal, purpose, attempt))
    }, (cause) => {
      record.answered()
      return this.#failed(networkError(op, cause, op.what, this.name, corsNeeds(condition)), op, record, kind, range, offset,
        length, signal, purpose, attempt)
    })
  }

  /**
   * #exchange's request answered and read: recorded, its operation ended, and what `kind` makes of it.
   * @param {unknown} result what #answered made of the response
   * @param {import('./shared.js').Operation} op
   * @param {import('./io-ledger.js').IoRequest} record
   * @param {RequestKind} kind
   * @param {number | null} offset
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   */
  #done(result, op, record, kind, offset, length, signal, purpose) {
    record.finish(false)
    this._end(op)
    return this.#settled(kind, result, offset, length, signal, purpose)
  }

  /**
   * #exchange's request failed: recorded, its operation ended, and sent again when the failure is transient
   * (js/sources/retry.js), else thrown as what it means.
   * @param {unknown} error
   * @param {import('./shared.js').Operation} op
   * @param {import('./io-ledger.js').IoRequest} record
   * @param {RequestKind} kind
   * @param {string} range
   * @param {number | null} offset
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @param {number} attempt
   * @returns {Promise<any>}
   */
  #failed(error, op, record, kind, range, offset, length, signal, purpose, attempt) {
    record.finish(true)
    this._end(op)
    const failure = op.failure(error, (cause) => this._ioError(cause, op.what))
    if (!shouldRetry(failure, attempt, this.#retries)) return Promise.reject(failure)
    this.stats.retries = (this.stats.retries ?? 0) + 1 // 0 from the constructor on
    const delay = retryDelayMs(attempt)
    const waited = this._operation(`waiting to retry ${range} of ${this.name}`, signal, (wait) => sleepWithin(delay, wait),
      { timeout: false })
    return waited.then(() => this.#exchange(kind, range, offset, length, signal, purpose, attempt + 1))
  }

  /**
   * A request's response: where a suffix read started, the validator checked, then read as `kind` asks; a
   * body left unread released, so its connection is freed. What the kind's reading answers, or its promise.
   * @param {RequestKind} kind
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {number | null} offset
   * @param {number} length
   * @param {{ name: string, value: string } | undefined} condition the precondition the request carried
   * @param {import('./io-ledger.js').IoRequest} record
   * @returns {unknown}
   */
  #answered(kind, response, op, range, offset, length, condition, record) {
    const raw = response.headers.get('content-range')
    const contentRange = parseContentRange(raw)
    if (record.offset === null) {
      // A suffix read: where it started is known from the answer.
      if (contentRange && !contentRange.unsatisfied) {
        record.offset = contentRange.start
        record.length = contentRange.end - contentRange.start + 1
      } else if (response.status === 200) {
        // The whole object instead (a suffix longer than the file, or Range ignored).
        record.offset = 0
        record.length = identityLength(response) ?? null
      }
    }
    try {
      this.#checkValidator(response, range, condition, contentRange)
      // Each reading starts to read the body (if it does) before it returns: what it left unread is released below.
      if (kind === TAIL) return this.#suffixAnswered(response, op, range, length, raw, contentRange, record)
      if (kind === PROBE) return this.#probeAnswered(response, op, range, raw, contentRange, record)
      return this.#rangeAnswered(response, op, range, /** @type {number} */ (offset), length, raw, contentRange, record)
    } finally {
      releaseBody(response)
    }
  }

  /**
   * What #exchange answers for `kind` once its request is done: a tail or a range's bytes, or what the
   * suffix request's answer leads to.
   * @param {RequestKind} kind
   * @param {any} result what #answered's reading answered
   * @param {number | null} offset
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   */
  #settled(kind, result, offset, length, signal, purpose) {
    // A tail's answer is { offset, bytes } (#suffixAnswered's), else what it leads to.
    if (kind === TAIL) return typeof result === 'object' ? result : this.#tailAfterSuffix(result, length, signal, purpose)
    if (kind === PROBE) return result
    let bytes = result
    if (result === WHOLE_BODY) {
      const whole = /** @type {Uint8Array} */ (this.#whole) // WHOLE_BODY: #takeWhole kept it
      const start = /** @type {number} */ (offset)
      if (start + length > whole.length) throw this._pastEnd(start, length, whole.length)
      bytes = whole.subarray(start, start + length)
    }
    return kind === BOUNDED_TAIL ? { offset, bytes } : bytes
  }

  /**
   * A response to bytes=-n: a 206 must be exactly the last min(n, total) bytes.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {number} length
   * @param {string | null} raw the Content-Range header
   * @param {ContentRange | null | undefined} contentRange
   * @param {import('./io-ledger.js').IoRequest} record
   * @returns {Promise<{ offset: number, bytes: Uint8Array }> | typeof NEXT_BOUNDED | typeof NEXT_PROBE
   *   | Promise<typeof NEXT_BOUNDED | typeof WHOLE_BODY>}
   */
  #suffixAnswered(response, op, range, length, raw, contentRange, record) {
    switch (response.status) {
      case 206: {
        if (contentRange === undefined) throw this.#missingContentRange(range)
        if (contentRange === null || contentRange.unsatisfied) throw this.#malformedContentRange(raw, range)
        if (contentRange.total === undefined) return NEXT_PROBE // "bytes a-b/*": the tail, but not where it starts
        const { start, end, total } = contentRange
        const expectedStart = Math.max(0, total - length)
        if (start !== expectedStart || end !== total - 1) {
          // Other bytes than the tail, but the size: read the tail as an exact range (one more request, no HEAD).
          suffixMisread.add(this.#origin())
          this.#learnSize(total, range)
          return NEXT_BOUNDED
        }
        this.#learnSize(total, range)
        this.#followRedirect(response)
        return this.#readBody(response, op, range, record, end - start + 1, undefined, start)
      }
      case 200: return this.#takeWhole(response, op, range, record, true)
      case 416: {
        // The file is shorter than the suffix (some servers refuse that instead of sending it all) or
        // empty, or suffixes are not supported; bytes */total still tells the size.
        if (contentRange?.unsatisfied) {
          this.#learnSize(contentRange.total, range)
          return NEXT_BOUNDED
        }
        return NEXT_PROBE
      }
      case 400:
      case 501:
        return NEXT_PROBE // suffix ranges rejected outright
      default:
        throw this.#statusError(response, range)
    }
  }

  /**
   * A response to bytes=0-0, sent to servers that reject suffix ranges: the size comes from Content-Range.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {string | null} raw the Content-Range header
   * @param {ContentRange | null | undefined} contentRange
   * @param {import('./io-ledger.js').IoRequest} record
   * @returns {Promise<Uint8Array> | Uint8Array | Promise<typeof NEXT_BOUNDED | typeof WHOLE_BODY>} WHOLE_BODY (#takeWhole's)
   *   when it took the file whole; never NEXT_BOUNDED, which #takeWhole gives only when asked to retry bounded
   */
  #probeAnswered(response, op, range, raw, contentRange, record) {
    if (response.status === 206) {
      if (contentRange === undefined) throw this.#missingContentRange(range)
      if (contentRange === null || contentRange.unsatisfied || contentRange.start !== 0 || contentRange.end !== 0) {
        throw this.#malformedContentRange(raw, range)
      }
      if (contentRange.total === undefined) {
        throw new ParquetBloomError(ErrorCode.RANGE_NOT_SUPPORTED,
          `${this.name} does not tell its size (Content-Range: ${raw?.trim()}), so its tail cannot be located`, { source: this.name })
      }
      this.#learnSize(contentRange.total, range)
      this.#followRedirect(response)
      return this.#readBody(response, op, range, record, 1, undefined)
    }
    if (response.status === 200) return this.#takeWhole(response, op, range, record, false)
    // Only an empty file cannot satisfy bytes=0-0.
    if (response.status === 416 && (contentRange === undefined || (contentRange?.unsatisfied && contentRange.total === 0))) {
      this.#learnSize(0, range)
      return new Uint8Array(0)
    }
    throw this.#statusError(response, range)
  }

  /**
   * A response to bytes=offset-last: its bytes, or WHOLE_BODY when it took the file whole.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {number} offset
   * @param {number} length
   * @param {string | null} raw the Content-Range header
   * @param {ContentRange | null | undefined} contentRange
   * @param {import('./io-ledger.js').IoRequest} record
   * @returns {Promise<Uint8Array> | Promise<typeof NEXT_BOUNDED | typeof WHOLE_BODY>}
   */
  #rangeAnswered(response, op, range, offset, length, raw, contentRange, record) {
    if (response.status === 206) {
      if (contentRange === null || contentRange?.unsatisfied) throw this.#malformedContentRange(raw, range)
      // No Content-Range at all is accepted here: a cross-origin server may not expose it to browsers,
      // and the status plus the exact body length still say we got the range.
      if (contentRange) {
        if (contentRange.total !== undefined) this.#checkSameSize(contentRange.total, range)
        if (contentRange.start !== offset || contentRange.end !== offset + length - 1) {
          if (contentRange.total !== undefined && offset + length > contentRange.total) {
            throw this._pastEnd(offset, length, contentRange.total)
          }
          throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
            `asked ${this.name} for ${range} but it answered Content-Range: ${raw?.trim()}`, { source: this.name, offset })
        }
        if (contentRange.total !== undefined) this.#learnSize(contentRange.total, range)
      }
      this.#followRedirect(response)
      return this.#readBody(response, op, range, record, length, undefined)
    }
    if (response.status === 200) return this.#takeWhole(response, op, range, record, false)
    if (response.status === 416 && contentRange?.unsatisfied) {
      this.#learnSize(contentRange.total, range)
      if (offset + length > contentRange.total) throw this._pastEnd(offset, length, contentRange.total)
    }
    throw this.#statusError(response, range)
  }

  /**
   * A 200 to a range request: the server ignores Range. Taken whole when it fits in maxBytes; else
   * the download is cancelled at once and, for a suffix request with a declared length, one bounded
   * request is worth trying (some servers ignore only suffix ranges).
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {import('./io-ledger.js').IoRequest} record
   * @param {boolean} retryBounded
   * @returns {Promise<typeof NEXT_BOUNDED | typeof WHOLE_BODY>}
   */
  #takeWhole(response, op, range, record, retryBounded) {
    const declared = identityLength(response)
    if (declared !== undefined && declared > this.maxBytes) {
      op.stop()
      if (retryBounded) {
        this.#learnSize(declared, range)
        return Promise.resolve(NEXT_BOUNDED)
      }
      throw this.#rangeIgnored(declared)
    }
    return this.#readBody(response, op, range, record, declared, this.maxBytes).then((/** @type {Uint8Array} */ bytes) => {
      this.#learnSize(bytes.length, range)
      this.#followRedirect(response)
      this.#whole = bytes
      return WHOLE_BODY
    })
  }

  /** @param {number | undefined} declared the Content-Length, when the server sent one */
  #rangeIgnored(declared) {
    const sizes = declared === undefined ? `${this.maxBytes} bytes` : `${declared} > ${this.maxBytes} bytes`
    return new ParquetBloomError(ErrorCode.RANGE_NOT_SUPPORTED,
      `${this.name}: server ignores Range requests and the file is larger than maxBytes (${sizes}); ` +
      'serve it from a server that supports Range requests, or raise options.maxBytes to download it whole',
      { source: this.name })
  }

  /**
   * Streams a body into memory, never past `expected` (or `limit` when the length is unknown), and
   * cancels the transfer whenever it stops reading early. It starts reading before it returns.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op the operation the request runs in
   * @param {string} range the Range header sent, for messages
   * @param {import('./io-ledger.js').IoRequest} record the request's ledger entry, told of the bytes
   * @param {number | undefined} expected
   * @param {number | undefined} limit given when expected is not
   * @param {number} [at] for a tail, the offset its bytes start at: the answer is then { offset: at, bytes }
   * @returns {Promise<any>} the bytes (Uint8Array), or the tail's { offset, bytes }
   */
  #readBody(response, op, range, record, expected, limit, at) {
    const body = response.body
    if (!body) {
      const empty = new Uint8Array(0)
      if (expected === 0 || expected === undefined) return Promise.resolve(at === undefined ? empty : { offset: at, bytes: empty })
      return Promise.reject(this.#shortBody(range, 0, expected))
    }
    /**
     * With `expected`, the body: the first chunk itself when it is the whole body (a small range's, nearly
     * always), else a copy of every chunk. (A typed array of more than 64 bytes has its memory apart, which
     * costs its allocation, zeroing and the garbage collector's accounting: more than the rest of a small read.)
     * @type {Uint8Array | undefined}
     */
    let bytes
    /** @type {Uint8Array[] | undefined} made only when the length is unknown */
    let chunks
    let received = 0
    const stats = this.stats
    return forEachChunk(body, op, (value) => {
      stats.bytesFetched += value.byteLength
      record.received(value.byteLength)
      if (expected !== undefined) {
        if (received + value.byteLength > expected) {
          throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
            `${this.name} sent more than the ${expected} bytes it promised for ${range}`, { source: this.name })
        }
        if (received === 0 && value.byteLength === expected && value.buffer.byteLength - expected <= MAX_SHARED_SLACK) {
          bytes = new Uint8Array(value.buffer, value.byteOffset, expected) // a plain Uint8Array, not a Node Buffer
        } else {
          bytes ??= new Uint8Array(expected)
          bytes.set(value, received)
        }
      } else {
        if (received + value.byteLength > /** @type {number} */ (limit)) throw this.#rangeIgnored(undefined) // given without expected
        if (chunks) chunks.push(value)
        else chunks = [value]
      }
      received += value.byteLength
    }, (cause) => new ParquetBloomError(ErrorCode.IO,
      `the connection to ${this.name} failed after ` +
        `${received}${expected !== undefined ? ` of ${expected}` : ''} bytes of ${range}: ${describeCause(cause)}`,
      { cause, source: this.name }), () => {
      if (expected === undefined) return concatChunks(chunks ?? [], received)
      if (received !== expected) throw this.#shortBody(range, received, expected)
      const answer = bytes ?? new Uint8Array(0)
      return at === undefined ? answer : { offset: at, bytes: answer }
    })
  }

  /** @param {Response} response */
  #followRedirect(response) {
    if (!response.redirected || !response.url || response.url === this.#url) return
    let origin
    try {
      origin = new URL(response.url).origin
    } catch {
      return
    }
    if (origin === this.#origin() || !this.#hasCallerHeaders) this.#url = response.url
  }

  /** The origin of the URL as given (made when a redirect or a misread suffix needs it, not per source). */
  #origin() {
    return new URL(this.#key).origin
  }

  /**
   * Records the validator of the first response; a response whose ETag or Last-Modified differ from it means another
   * version of the file: FILE_CHANGED, as do, in conditional mode, a 412 and another size.
   * @param {Response} response
   * @param {string} range
   * @param {{ name: string, value: string } | undefined} condition the precondition the request carried
   * @param {ContentRange | null | undefined} contentRange its Content-Range, parsed
   */
  #checkValidator(response, range, condition, contentRange) {
    const status = response.status
    if (status !== 200 && status !== 206 && status !== 412 && status !== 416) return
    // From here on a status below 300 is a 200 or 206: bytes of the file.
    const found = validatorFromHeaders(response.headers)
    const total = status === 200 ? identityLength(response) : contentRange?.total
    // A 412 to the precondition a request carried means that version is gone, whatever happened to the
    // validator since (a concurrent probe may have forgotten it to read the new footer).
    if (status === 412 && condition) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED,
        `${this.name} changed since its footer was read: it answered 412 Precondition ` +
          `Failed to ${condition.name}: ${condition.value} (${range})`, { source: this.name })
    }
    if (etagsDiffer({ etag: this.#givenEtag }, found) && status < 300) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED,
        `${this.name} is not the file options.etag describes: its ETag is ${found.etag}, expected ${this.#givenEtag} (${range}); ` +
          'list it again', { source: this.name })
    }
    if (!this.#validator) {
      // The first 200/206 of this version of the file says what it is (a 416 before it says nothing).
      if (status < 300) this.#validator = found
      return
    }
    // A validator made from options.etag alone takes the Last-Modified of the first response too.
    if (this.#givenEtag !== undefined && this.#validator.lastModified === undefined && status < 300) {
      this.#validator.lastModified = found.lastModified
    }
    // Without preconditions (no footer cache) the bytes of a 200/206 are checked too: another version's at this footer's
    // offsets answer for neither version. (A size that differs is #checkSameSize's BAD_RESPONSE_LENGTH then.)
    if (!this.#conditional && status > 299) return
    // (A 412 here answered a request that carried no precondition: it is the HTTP_STATUS it says, not a version.)
    let change = status === 412 ? undefined : validatorChange(this.#validator, found)
    if (this.#conditional && change === undefined && total !== undefined && this.size !== undefined && total !== this.size) {
      change = `it has ${total} bytes, had ${this.size}`
    }
    if (change) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED, `${this.name} changed since its footer was read: ${change} (${range})`,
        { source: this.name })
    }
    if (status < 300) this.#confirmed = true
  }

  /**
   * @param {number} total
   * @param {string} range
   */
  #checkSameSize(total, range) {
    if (this.size !== undefined && this.size !== total && this.size === this.#givenSize) {
      throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
        `${this.name} has ${total} bytes (the response to ${range} says so), not the ${this.size} options.size gave; list it again`,
          { source: this.name })
    }
    if (this.size !== undefined && this.size !== total) {
      throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
        `${this.name} changed while being read: it had ${this.size} bytes, and the response to ${range} says ${total}`,
          { source: this.name })
    }
  }

  /**
   * @param {number} total
   * @param {string} range
   */
  #learnSize(total, range) {
    this.#checkSameSize(total, range)
    this._setSize(total)
  }

  /**
   * @param {Response} response
   * @param {string} range
   */
  #statusError(response, range) {
    return statusError(response, `from ${this.name} for ${range}`, this.name, 'expected 206 Partial Content')
  }

  /** @param {string} range */
  #missingContentRange(range) {
    return new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
      `${this.name} answered ${range} with 206 but no Content-Range header, so the file's size is unknown ` +
      '(in a browser, a cross-origin server must send Access-Control-Expose-Headers: Content-Range)', { source: this.name })
  }

  /**
   * @param {string | null} raw
   * @param {string} range
   */
  #malformedContentRange(raw, range) {
    return new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
      `${this.name} answered ${range} with a malformed Content-Range: ${JSON.stringify(raw)}`, { source: this.name })
  }

  /**
   * @param {string} range
   * @param {number} received
   * @param {number} expected
   */
  #shortBody(range, received, expected) {
    return new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
      `${this.name} sent ${received} of the ${expected} bytes of ${range}: the body ended early`, { source: this.name })
  }
}
