// One HTTP request as every reader of URLs here sends it (range reads, whole objects, HEADs): the
// caller's headers with identity encoding and a User-Agent, no user:password in URLs, credentials kept out
// of what is shown (redactUrl), a fetch that throws turned into IO with what a browser's CORS refusal
// would need, a status turned into HTTP_STATUS (FILE_NOT_FOUND for no object there) with a hint, and an
// unread body cancelled to free its connection. Retries are js/sources/retry.js's; the operation (signals,
// timeout) js/sources/shared.js's.
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { IO_RECORD } from './io-ledger.js'
import { inBrowser } from './runtime.js'
import { defaultFetch, takesOperation } from './default-fetch.js'
import { OPERATION } from './shared.js'

// Query parameters whose values are credentials (S3/GCS/Azure/CloudFront signatures, tokens, keys):
// shown as "…" in names and messages, which end up in logs.
const SECRET_PARAM = /sig|signature|token|credential|secret|key|auth|password|passwd|policy|session/i

/** @type {Readonly<Record<number, string>>} */
const STATUS_HINTS = {
  400: 'bad request',
  401: 'unauthorized — the server wants credentials (pass them in options.headers)',
  403: "forbidden — check the URL's credentials/signature (a presigned URL may have expired)",
  404: 'not found',
  405: 'method not allowed',
  410: 'gone',
  416: 'range not satisfiable',
  429: 'too many requests — try again later',
  500: 'internal server error',
  501: 'not implemented',
  502: 'bad gateway',
  503: 'service unavailable — try again later',
  504: 'gateway timeout',
}

/**
 * The URL as shown in messages: no user:password, credential-like query values replaced by "…".
 * @param {{ href: string }} url
 * @param {string} [href] url.href as a string of the caller's, returned (not a copy) when there is nothing to hide
 */
export function redactUrl(url, href = url.href) {
  // Nothing to hide (no credentials, query or fragment): shown as it is, without parsing it again.
  if (url instanceof URL && !url.username && !url.password && !href.includes('?') && !href.includes('#')) return href
  const shown = new URL(url.href)
  shown.username = ''
  shown.password = ''
  shown.hash = '' // never sent
  if (!shown.search) return shown.href
  const parts = shown.search.slice(1).split('&').map((part) => {
    const eq = part.indexOf('=')
    if (eq < 0) return part
    let key = part.slice(0, eq)
    try {
      key = decodeURIComponent(key)
    } catch {
      // A malformed escape: match on the raw text.
    }
    return SECRET_PARAM.test(key) ? `${part.slice(0, eq)}=…` : part
  })
  shown.search = ''
  return `${shown.href}?${parts.join('&')}`
}

/**
 * Refuses a URL with user:password (fetch refuses them; credentials belong in a header).
 * @param {URL} url
 */
export function refuseUserinfo(url) {
  if (url.username || url.password) {
    throw invalidArgument(`${redactUrl(url)}: URLs with user:password are refused by fetch; send the credentials in options.headers ` +
      '(Authorization) instead')
  }
}

/**
 * The fetch requests go through: options.fetch, else this runtime's (js/sources/default-fetch.js).
 * @param {Function | undefined} given
 * @param {string} name the URL as shown, for the message when there is none
 * @returns {Function}
 */
export function fetchFor(given, name) {
  if (typeof (given ?? globalThis.fetch) !== 'function') {
    throw invalidArgument(`no fetch() in this runtime to read ${name}; pass options.fetch`)
  }
  return given ?? defaultFetch()
}

/**
 * The headers every request carries: the caller's, identity encoding (a compressed body's length is not
 * the file's, and breaks byte ranges; browsers ignore it and set their own) and options.userAgent.
 * @param {{ headers?: Headers, userAgent?: string }} options headers: as resolveOptions checked them (js/sources/shared.js)
 */
export function requestHeaders({ headers, userAgent }) {
  // A plain record (names lower-cased, as Headers iterates them), not a Headers: in Node, the first
  // touch of the Headers global loads all of undici, ~20–35 ms of a fresh process's first probe.
  /** @type {Record<string, string>} */
  const all = headers ? Object.fromEntries(headers) : {}
  // Compressed bodies break byte ranges; browsers ignore this header (they set it themselves).
  all['accept-encoding'] = 'identity'
  if (userAgent !== undefined) all['user-agent'] = userAgent
  return all
}

/**
 * requestHeaders({}) with a Range header, made as one literal: a range request of a source given neither
 * headers nor a User-Agent, without copying a record per request.
 * @param {string} range
 * @returns {Record<string, string>}
 */
export function plainRangeHeaders(range) {
  return { 'accept-encoding': 'identity', range }
}

/**
 * Starts one request within `op`: what fetch answers, or rejects with (networkError() tells what that
 * means). `record`: the request's entry in its ledger, handed to a window the fetch may wait in
 * (js/sources/scheduled-fetch.js). Node's own transport, and a window over it, is handed the operation itself,
 * whose end destroys the request (no AbortSignal, which Node makes at a cost, nor a race); any other fetch
 * gets the operation's signal, and loses to its abort should it ignore the signal.
 * @param {import('./shared.js').Operation} op
 * @param {Function} fetchFn
 * @param {string} url
 * @param {string | undefined} method undefined: GET
 * @param {Record<string, string>} headers
 * @param {boolean} bypassHttpCache
 * @param {import('./io-ledger.js').IoRequest | undefined} record
 * @returns {Promise<Response>}
 */
export function fetchWithin(op, fetchFn, url, method, headers, bypassHttpCache, record) {
  const own = takesOperation(fetchFn)
  // Redirects followed, fetch's default. Every key in the literal, so the object is made once with its shape.
  /** @type {RequestInit & { [OPERATION]?: import('./shared.js').Operation, [IO_RECORD]?: unknown }} */
  const init = { method, headers, [IO_RECORD]: record, [OPERATION]: own ? op : undefined }
  // In a browser, always: Chromium's HTTP cache lets one request of a URL through at a time (its cache
  // lock), so a wave of reads of one file would go one by one, a round each; and a mutable object (a
  // table's pointer) must not come from a stale cache.
  if (bypassHttpCache || inBrowser()) init.cache = 'no-store'
  // Neither async nor awaited here: no frame or promise of its own held per request in flight.
  try {
    if (own) return fetchFn(url, init)
    init.signal = op.signal
    return op.race(fetchFn(url, init))
  } catch (cause) {
    return Promise.reject(cause)
  }
}

/**
 * What a fetch that failed within `op` throws: the abort, or IO naming `what` and, in a browser (whose fetch reports a
 * CORS refusal the same way; nothing else applies CORS), `cors`: what the server must allow.
 * @param {import('./shared.js').Operation} op
 * @param {unknown} cause
 * @param {string} what e.g. "requesting bytes=0-99 of <name>"
 * @param {string} name the URL as shown
 * @param {string} cors what the server must allow for a browser to read it
 */
export function networkError(op, cause, what, name, cors) {
  if (cause instanceof ParquetBloomError) return cause
  if (op.aborted) return op.abortError()
  return new ParquetBloomError(ErrorCode.IO,
    `network error ${what}: ${describeCause(cause)}${inBrowser() ? `, or a CORS refusal: ${cors}` : ''}`,
    { cause, source: name })
}

/**
 * Cancels a body left unread (or half read), so its connection is freed for the next request.
 * @param {{ body: { locked: boolean, cancel(): Promise<unknown> } | null, bodyUsed: boolean }} response a fetch
 *   Response, or js/sources/node-transport.js's
 */
export function releaseBody(response) {
  if (response.body && !response.bodyUsed && !response.body.locked) response.body.cancel().catch(() => {})
}

/**
 * HTTP_STATUS (the error has `status`; js/sources/retry.js retries 429 and 5xx) with a hint at the cause; FILE_NOT_FOUND
 * for 404 and 410, no object at the URL (S3's NoSuchKey is a 404), as a missing local file is: the code a caller checks
 * for a missing file is the same whatever the file's location.
 * @param {Response} response
 * @param {string} what e.g. "from <name> for bytes=0-99"
 * @param {string} name
 * @param {string} expected the hint for a status that is no error, e.g. "expected 206 Partial Content"
 */
export function statusError(response, what, name, expected) {
  const status = response.status
  const code = status === 404 || status === 410 ? ErrorCode.FILE_NOT_FOUND : ErrorCode.HTTP_STATUS
  const hint = STATUS_HINTS[status] ?? (status >= 500 ? 'server error' : status >= 400 ? 'client error' : expected)
  const text = response.statusText && response.statusText.toLowerCase() !== hint ? ` ${response.statusText}` : ''
  return new ParquetBloomError(code, `HTTP ${status}${text} ${what}: ${hint}`, { source: name, status })
}

/**
 * A header's non-negative integer (Content-Length), or undefined.
 * @param {string | null | undefined} value
 */
export function parseLength(value) {
  if (value === null || value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : undefined
}

/**
 * A response's Content-Length, when it is the file's size (not that of a compressed body).
 * @param {{ headers: { get(name: string): string | null } }} response
 */
export function identityLength(response) {
  const encoding = response.headers.get('content-encoding')
  return !encoding || /^\s*identity\s*$/i.test(encoding) ? parseLength(response.headers.get('content-length')) : undefined
}

/**
 * A failure's message with its cause's (fetch's "fetch failed" says nothing alone).
 * @param {unknown} thrown
 */
export function describeCause(thrown) {
  // Read through ?.: any thrown value reads so (a primitive has no message).
  const cause = /** @type {{ message?: unknown, cause?: { message?: unknown, code?: unknown } } | null | undefined} */ (thrown)
  const message = cause?.message ?? String(cause)
  const inner = cause?.cause?.message ?? cause?.cause?.code
  return inner && inner !== message ? `${message} (${inner})` : message
}
