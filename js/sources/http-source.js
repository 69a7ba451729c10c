// A byte source over an http(s) URL using Range requests: the tail in one request (a suffix range,
// no HEAD), bounded ranges after that, and fallbacks for servers that reject suffixes or ignore Range.
// It records the file's validator (ETag, else Last-Modified + size; RFC 9110 §8.8) and, when asked, sends
// it with every request (If-Match / If-Unmodified-Since, §13.1) so a replaced file fails as FILE_CHANGED.
// A size and ETag known beforehand (a bucket listing) make the tail read an exact range; transient
// failures are retried (js/sources/retry.js).
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { callSignal, concatChunks, forEachChunk, SourceBase } from './shared.js'
import { resolveRetries, sleepWithin, withRetries } from './retry.js'
import { describeCause, fetchFor, identityLength, redactUrl, refuseUserinfo, releaseBody, requestHeaders, sendRequest,
  statusError } from './http-request.js'
import { preconditionFor, validatorChange, validatorFromEtag, validatorFromHeaders } from './validator.js'

export { redactUrl }

// How readTail() goes on after the suffix request when that request did not give the tail.
const NEXT_BOUNDED = 'bounded' // the size is known now: ask for bytes=start-end
const NEXT_PROBE = 'probe' // ask for bytes=0-0 to learn the size from Content-Range
const WHOLE_BODY = Symbol('whole body')
// What a browser needs of a server to read its ranges (one string, not one built per request).
const CORS_RANGE = 'the server must allow this origin and the Range request header, and expose Content-Range'

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

// Each request's ledger entry (js/sources/io-ledger.js) by the operation it runs in, for its body's bytes.
/** @type {WeakMap<import('./shared.js').Operation, import('./io-ledger.js').IoRequest>} */
const requestRecords = new WeakMap()

/**
 * A Range header's offset and length: [null, n] for a suffix of n bytes (known once answered).
 * @param {string} range
 * @returns {[number | null, number]}
 */
function rangeBounds(range) {
  const dash = range.indexOf('-')
  const first = range.slice(6, dash)
  if (first === '') return [null, Number(range.slice(dash + 1))]
  const start = Number(first)
  return [start, Number(range.slice(dash + 1)) - start + 1]
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
  #origin
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
  /** @type {{ size?: number, etag?: string }} the file as options.size / options.etag describe it */
  #given

  /**
   * @param {URL} url http: or https:
   * @param {import('./shared.js').SourceOptions} options
   */
  constructor(url, options) {
    refuseUserinfo(url)
    super(redactUrl(url), undefined, options)
    this.#fetch = fetchFor(options.fetch, this.name)
    this.#url = url.href
    this.#key = url.href
    this.#origin = url.origin
    this.#headers = requestHeaders(options)
    this.#hasCallerHeaders = options.headers !== undefined && [...options.headers.keys()].length > 0
    this.#retries = resolveRetries(options.retries)
    this.stats.retries = 0
    this.#given = { size: options.fileSize, etag: options.etag }
    if (options.fileSize !== undefined) this._setSize(options.fileSize)
    if (options.etag !== undefined) this.#validator = validatorFromEtag(options.etag)
  }

  /** The size and ETag options.size and options.etag gave (a listing's), before any response. */
  get givenVersion() {
    return { ...this.#given }
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
    return { ...v, size: this.size }
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
    this.#given = {}
    this._setSize(undefined)
    this.#whole = undefined
    this.#confirmed = true
  }

  /**
   * @param {number} length
   * @param {import('./shared.js').ReadOptions} [options]
   * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
   */
  async readTail(length, options) {
    const signal = callSignal(options, 'readTail')
    this._checkOpen()
    this._checkTailLength(length)
    const purpose = options?.purpose ?? this.readPurpose
    if (this.#whole) return this.#tailOfWhole(length)
    if (this.size !== undefined) return this.#boundedTail(length, signal, purpose)

    const range = `bytes=-${length}`
    // Chained rather than awaited: no async frame held per request in flight (a dataset has thousands).
    const suffix = this.#exchange(range, signal, purpose, async (response, op) => {
      switch (response.status) {
        case 206: return this.#suffixPartial(response, op, range, length)
        case 200: return this.#takeWhole(response, op, range, { retryBounded: true })
        case 416: {
          // The file is shorter than the suffix (some servers refuse that instead of sending it all) or
          // empty, or suffixes are not supported; bytes */total still tells the size.
          const contentRange = parseContentRange(response.headers.get('content-range'))
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
    })
    return suffix.then((first) => this.#tailAfterSuffix(first, length, signal, purpose))
  }

  /**
   * readTail() once its suffix request answered `first`: the tail, or what to ask next for it.
   * @param {any} first the tail ({ offset, bytes }), or NEXT_BOUNDED, NEXT_PROBE, WHOLE_BODY (any: the exchange answers any of them)
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   */
  async #tailAfterSuffix(first, length, signal, purpose) {
    if (first === WHOLE_BODY) return this.#tailOfWhole(length)
    if (first === NEXT_BOUNDED) return this.#boundedTail(length, signal, purpose)
    if (first !== NEXT_PROBE) return first

    const probe = await this.#probeSize(signal, purpose)
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
  async read(offset, length, options) {
    const signal = callSignal(options, 'read')
    this._checkOpen()
    this._checkRange(offset, length)
    if (length === 0) return new Uint8Array(0)
    if (this.#whole) return this.#whole.subarray(offset, offset + length)
    return this.#readRange(offset, length, signal, options?.purpose ?? this.readPurpose)
  }

  async _close() {
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
   */
  async #boundedTail(length, signal, purpose) {
    if (this.#whole) return this.#tailOfWhole(length)
    const size = /** @type {number} */ (this.size) // a bounded tail is read once the size is known
    const start = Math.max(0, size - length)
    if (start === size) return { offset: start, bytes: new Uint8Array(0) }
    return this.#readRange(start, size - start, signal, purpose).then((bytes) => ({ offset: start, bytes }))
  }

  /**
   * A 206 to bytes=-n: must be exactly the last min(n, total) bytes.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {number} length
   */
  async #suffixPartial(response, op, range, length) {
    const raw = response.headers.get('content-range')
    const contentRange = parseContentRange(raw)
    if (contentRange === undefined) throw this.#missingContentRange(range)
    if (contentRange === null || contentRange.unsatisfied) throw this.#malformedContentRange(raw, range)
    if (contentRange.total === undefined) return NEXT_PROBE // "bytes a-b/*": the tail, but not where it starts
    const { start, end, total } = contentRange
    const expectedStart = Math.max(0, total - length)
    if (start !== expectedStart || end !== total - 1) {
      // Other bytes than the tail, but the size: read the tail as an exact range (one more request, no HEAD).
      suffixMisread.add(this.#origin)
      this.#learnSize(total, range)
      return NEXT_BOUNDED
    }
    this.#learnSize(total, range)
    this.#followRedirect(response)
    const bytes = await this.#readBody(response, op, range, { expected: end - start + 1 })
    return { offset: start, bytes }
  }

  /**
   * bytes=0-0, for servers that reject suffix ranges: the size comes from Content-Range.
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @returns {Promise<Uint8Array | typeof NEXT_BOUNDED | typeof WHOLE_BODY>} WHOLE_BODY (#takeWhole's) when it took the
   *   file whole; never NEXT_BOUNDED, which #takeWhole gives only when asked to retry bounded
   */
  async #probeSize(signal, purpose) {
    const range = 'bytes=0-0'
    return this.#exchange(range, signal, purpose, async (/** @type {Response} */ response, op) => {
      const raw = response.headers.get('content-range')
      const contentRange = parseContentRange(raw)
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
        return this.#readBody(response, op, range, { expected: 1 })
      }
      if (response.status === 200) return this.#takeWhole(response, op, range, { retryBounded: false })
      // Only an empty file cannot satisfy bytes=0-0.
      if (response.status === 416 && (contentRange === undefined || (contentRange?.unsatisfied && contentRange.total === 0))) {
        this.#learnSize(0, range)
        return new Uint8Array(0)
      }
      throw this.#statusError(response, range)
    })
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @returns {Promise<Uint8Array>}
   */
  async #readRange(offset, length, signal, purpose) {
    const last = offset + length - 1
    const range = `bytes=${offset}-${last}`
    const exchanged = this.#exchange(range, signal, purpose, async (response, op) => {
      const raw = response.headers.get('content-range')
      const contentRange = parseContentRange(raw)
      if (response.status === 206) {
        if (contentRange === null || contentRange?.unsatisfied) throw this.#malformedContentRange(raw, range)
        // No Content-Range at all is accepted here: a cross-origin server may not expose it to browsers,
        // and the status plus the exact body length still say we got the range.
        if (contentRange) {
          if (contentRange.total !== undefined) this.#checkSameSize(contentRange.total, range)
          if (contentRange.start !== offset || contentRange.end !== last) {
            if (contentRange.total !== undefined && offset + length > contentRange.total) {
              throw this._pastEnd(offset, length, contentRange.total)
            }
            throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
              `asked ${this.name} for ${range} but it answered Content-Range: ${raw?.trim()}`, { source: this.name, offset })
          }
          if (contentRange.total !== undefined) this.#learnSize(contentRange.total, range)
        }
        this.#followRedirect(response)
        return this.#readBody(response, op, range, { expected: length })
      }
      if (response.status === 200) {
        await this.#takeWhole(response, op, range, { retryBounded: false })
        return WHOLE_BODY
      }
      if (response.status === 416 && contentRange?.unsatisfied) {
        this.#learnSize(contentRange.total, range)
        if (offset + length > contentRange.total) throw this._pastEnd(offset, length, contentRange.total)
      }
      throw this.#statusError(response, range)
    })
    return exchanged.then((result) => {
      if (result !== WHOLE_BODY) return result
      const whole = /** @type {Uint8Array} */ (this.#whole) // WHOLE_BODY: #takeWhole kept it
      if (offset + length > whole.length) throw this._pastEnd(offset, length, whole.length)
      return whole.subarray(offset, offset + length)
    })
  }

  /**
   * A 200 to a range request: the server ignores Range. Taken whole when it fits in maxBytes; else
   * the download is cancelled at once and, for a suffix request with a declared length, one bounded
   * request is worth trying (some servers ignore only suffix ranges).
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {{ retryBounded: boolean }} fallback
   * @returns {Promise<typeof NEXT_BOUNDED | typeof WHOLE_BODY>}
   */
  async #takeWhole(response, op, range, { retryBounded }) {
    const declared = identityLength(response)
    if (declared !== undefined && declared > this.maxBytes) {
      op.stop()
      if (retryBounded) {
        this.#learnSize(declared, range)
        return NEXT_BOUNDED
      }
      throw this.#rangeIgnored(declared)
    }
    const bytes = await this.#readBody(response, op, range, { expected: declared, limit: this.maxBytes })
    this.#learnSize(bytes.length, range)
    this.#followRedirect(response)
    this.#whole = bytes
    return WHOLE_BODY
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
   * cancels the transfer whenever it stops reading early.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op the operation the request runs in
   * @param {string} range the Range header sent, for messages
   * @param {{ expected?: number, limit?: number }} size
   */
  async #readBody(response, op, range, { expected, limit }) {
    const body = response.body
    /** @type {Uint8Array[]} */
    const chunks = []
    // Set exactly when expected is: tested below in its place, to the same effect.
    const bytes = expected !== undefined ? new Uint8Array(expected) : undefined
    let received = 0
    if (!body) {
      if (expected === 0 || expected === undefined) return new Uint8Array(0)
      throw this.#shortBody(range, received, expected)
    }
    const record = requestRecords.get(op)
    await forEachChunk(body, op, (value) => {
      this.stats.bytesFetched += value.byteLength
      record?.received(value.byteLength)
      if (bytes !== undefined) {
        if (received + value.byteLength > bytes.length) {
          throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
            `${this.name} sent more than the ${expected} bytes it promised for ${range}`, { source: this.name })
        }
        bytes.set(value, received)
      } else {
        if (received + value.byteLength > /** @type {number} */ (limit)) throw this.#rangeIgnored(undefined) // given without expected
        chunks.push(value)
      }
      received += value.byteLength
    }, (cause) => new ParquetBloomError(ErrorCode.IO,
      `the connection to ${this.name} failed after ` +
        `${received}${expected !== undefined ? ` of ${expected}` : ''} bytes of ${range}: ${describeCause(cause)}`,
      { cause, source: this.name }))
    if (bytes !== undefined) {
      if (received !== bytes.length) throw this.#shortBody(range, received, bytes.length)
      return bytes
    }
    return concatChunks(chunks, received)
  }

  /**
   * One HTTP request: counts it, sends it under an operation (caller signals, close(), timeout) and
   * hands the response to onResponse; a body left unread is cancelled so the connection is freed.
   * @template T
   * @param {string} range
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @param {(response: Response, op: import('./shared.js').Operation) => Promise<T>} onResponse
   * @returns {Promise<T>}
   */
  #exchange(range, signal, purpose, onResponse) {
    return /** @type {Promise<T>} */ (withRetries((attempt) => this.#exchangeOnce(range, signal, purpose, attempt > 0, onResponse), {
      retries: this.#retries,
      pause: (ms) => this._operation(`waiting to retry ${range} of ${this.name}`, signal, (op) => sleepWithin(ms, op), { timeout: false }),
      onRetry: () => { this.stats.retries = (this.stats.retries ?? 0) + 1 }, // 0 from the constructor on
    }))
  }

  /**
   * One attempt of #exchange.
   * @template T
   * @param {string} range
   * @param {AbortSignal | undefined} signal
   * @param {string | string[]} purpose
   * @param {boolean} retry
   * @param {(response: Response, op: import('./shared.js').Operation) => Promise<T>} onResponse
   */
  #exchangeOnce(range, signal, purpose, retry, onResponse) {
    const what = `requesting ${range} of ${this.name}`
    /** @type {import('./io-ledger.js').IoRequest | undefined} */
    let record
    // Chained rather than awaited, here and in the operation: a dataset holds thousands of requests in
    // flight, and a suspended async frame each would hold its registers and context for as long.
    let sent
    try {
      sent = this._operation(what, signal, (op) => {
        /** @type {Record<string, string>} */
        const headers = { ...this.#headers, range }
        // The validator the request carries (a weak ETag never does: If-Match compares strongly).
        const condition = this.#conditional ? preconditionFor(this.#validator) : undefined
        if (condition) headers[condition.name] = condition.value
        this.stats.requests++
        record = this.io.begin(purpose, ...rangeBounds(range), { retry })
        requestRecords.set(op, record)
        const cors = condition ? `the server must allow this origin and the Range and ${condition.name} request headers, and expose ` +
          'Content-Range' : CORS_RANGE
        const sending = sendRequest(op, this.#fetch, this.#url, { headers, bypassHttpCache: this.#bypassHttpCache, record }, what,
          this.name, cors)
        return sending.then((response) => this.#answered(response, op, range, condition, /** @type {any} */ (record), onResponse))
      })
    } catch (error) {
      sent = Promise.reject(error)
    }
    return sent.then((result) => {
      record?.finish(false)
      return result
    }, (error) => {
      record?.finish(true)
      throw error
    })
  }

  /**
   * A request's response: where a suffix read started, the validator checked, then `onResponse`; an unread body released.
   * @param {Response} response
   * @param {import('./shared.js').Operation} op
   * @param {string} range
   * @param {{ name: string, value: string } | undefined} condition the precondition the request carried
   * @param {import('./io-ledger.js').IoRequest} record
   * @param {(response: Response, op: import('./shared.js').Operation) => unknown} onResponse
   */
  async #answered(response, op, range, condition, record, onResponse) {
    if (record.offset === null) {
      // A suffix read: where it started is known from the answer.
      const answered = parseContentRange(response.headers.get('content-range'))
      if (answered && !answered.unsatisfied) {
        record.offset = answered.start
        record.length = answered.end - answered.start + 1
      } else if (response.status === 200) {
        // The whole object instead (a suffix longer than the file, or Range ignored).
        record.offset = 0
        record.length = identityLength(response) ?? null
      }
    }
    try {
      this.#checkValidator(response, range, condition)
      return await onResponse(response, op)
    } finally {
      releaseBody(response)
    }
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
    if (origin === this.#origin || !this.#hasCallerHeaders) this.#url = response.url
  }

  /**
   * Records the validator of the first response; in conditional mode, a 412 or a response whose ETag,
   * Last-Modified or size differ from it means another version of the file: FILE_CHANGED.
   * @param {Response} response
   * @param {string} range
   * @param {{ name: string, value: string } | undefined} condition the precondition the request carried
   */
  #checkValidator(response, range, condition) {
    const status = response.status
    if (status !== 200 && status !== 206 && status !== 412 && status !== 416) return
    const found = validatorFromHeaders(response.headers)
    const contentRange = parseContentRange(response.headers.get('content-range'))
    const total = status === 200 ? identityLength(response) : contentRange?.total
    // A 412 to the precondition a request carried means that version is gone, whatever happened to the
    // validator since (a concurrent probe may have forgotten it to read the new footer).
    if (status === 412 && condition) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED,
        `${this.name} changed since its footer was read: it answered 412 Precondition ` +
          `Failed to ${condition.name}: ${condition.value} (${range})`, { source: this.name })
    }
    if (this.#given.etag !== undefined && found.etag !== undefined && found.etag !== this.#given.etag &&
      (status === 200 || status === 206)) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED,
        `${this.name} is not the file options.etag describes: its ETag is ${found.etag}, expected ${this.#given.etag} (${range}); ` +
          'list it again', { source: this.name })
    }
    if (!this.#validator) {
      // The first 200/206 of this version of the file says what it is (a 416 before it says nothing).
      if (status === 200 || status === 206) this.#validator = found
      return
    }
    // A validator made from options.etag alone takes the Last-Modified of the first response too.
    if (this.#given.etag !== undefined && this.#validator.lastModified === undefined &&
      (status === 200 || status === 206)) this.#validator.lastModified = found.lastModified
    if (!this.#conditional) return
    let change
    if (status === 412) change = condition ? `it answered 412 Precondition Failed to ${condition.name}: ${condition.value}` : undefined
    else change = validatorChange(this.#validator, found)
    if (change === undefined && status !== 412 && total !== undefined && this.size !== undefined &&
      total !== this.size) change = `it has ${total} bytes, had ${this.size}`
    if (change) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED, `${this.name} changed since its footer was read: ${change} (${range})`,
        { source: this.name })
    }
    if (status === 200 || status === 206) this.#confirmed = true
  }

  /**
   * @param {number} total
   * @param {string} range
   */
  #checkSameSize(total, range) {
    if (this.size !== undefined && this.size !== total && this.size === this.#given.size) {
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
