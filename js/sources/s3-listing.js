// Lists the objects of an S3-compatible bucket under a prefix, one key or a glob (ListObjectsV2,
// https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html): page by page with
// continuation tokens, signed when credentials are given, transient failures retried. Each entry carries
// what openParquet needs to read the object without a HEAD: its URL, size and ETag.
import { ErrorCode, invalidArgument, messageOf, ParquetBloomError } from '../errors.js'
import { redactUrl } from './http-request.js'
import { resolveRetries, sleepWithin, withRetries } from './retry.js'
import { checkSignal, concatChunks, describeValue, forEachChunk, Operation } from './shared.js'
import { checkCredentials, s3FetchFor } from './s3-signing.js'
import { parseListBucketResult, parseS3Error } from './s3-xml.js'
import { bucketAddress, encodeRfc3986, objectUrl, parseS3Url } from './s3-url.js'

export { s3FetchFor }

export const MAX_KEYS_PER_PAGE = 1000 // what S3 returns at most per page, and its default
// A page of 1,000 keys of 1 KiB each is ~1.3 MB of XML; a body past this is not a listing.
const MAX_PAGE_BYTES = 16 * 1024 * 1024
// Listings of millions of keys take thousands of pages; a server that never stops is not one.
const MAX_PAGES = 100_000

/**
 * What every page request of one listing shares: the fetch, the caller's signal and timeout, the retries,
 * and the credentials no message may show.
 * @typedef {{ fetchFn: typeof fetch, signal: AbortSignal | undefined, requestTimeoutMs: number | undefined, retries: number,
 *   secrets: string[] }} ListingContext
 */

/**
 * Lists `url` — `s3://bucket/prefix/`, `s3://bucket/key` or a glob such as `s3://bucket/prefix/**\/*.parquet`
 * (`**` any characters, `*` any but '/', `?` one but '/'): the longest literal prefix is listed, the
 * rest matched here. A key that is a "directory" (others start with key + '/') lists what is under it.
 * Directory markers (keys ending in '/') are skipped. Entries come in the listing's order (by key).
 * @param {string} url
 * @param {import('../s3.js').ListS3Options} [options] as js/s3.d.ts declares them
 * @returns {Promise<import('../s3.js').S3Entry[]>}
 */
export async function listS3(url, options = {}) {
  if (options === null || typeof options !== 'object') throw invalidArgument(`options must be an object, got ${describeValue(options)}`)
  const location = parseS3Url(url)
  const { maxKeys = MAX_KEYS_PER_PAGE, signal, requestTimeoutMs } = options
  if (!Number.isInteger(maxKeys) || maxKeys < 1 || maxKeys > MAX_KEYS_PER_PAGE) {
    throw invalidArgument(`options.maxKeys must be an integer from 1 to ${MAX_KEYS_PER_PAGE}, got ${describeValue(maxKeys)}`)
  }
  checkSignal(signal, 'options.signal')
  if (requestTimeoutMs !== undefined &&
    !(typeof requestTimeoutMs === 'number' && requestTimeoutMs > 0 && requestTimeoutMs <= 2 ** 31 - 1)) {
    throw invalidArgument(`options.requestTimeoutMs must be a positive number of milliseconds, got ${describeValue(requestTimeoutMs)}`)
  }
  const retries = resolveRetries(options.retries)
  const credentials = checkCredentials(options.credentials)
  const address = bucketAddress(location.bucket, { endpoint: options.endpoint, region: credentials?.region ?? options.region })
  const fetchFn = s3FetchFor(options)
  const context = { fetchFn, signal, requestTimeoutMs, retries, secrets: secretsOf(credentials) }

  // Kept page by page, so a glob over a large prefix holds only what it matches.
  const { key, match } = location
  const keep = key !== undefined ? (/** @type {string} */ k) => k === key || k.startsWith(`${key}/`) : (match ?? (() => true))
  const listed = await listPrefix(address.listing, location.prefix, location.delimiter, maxKeys, (k) => !k.endsWith('/') && keep(k),
    context)
  let selected = listed
  let directory = location.directory
  if (key !== undefined) {
    const exact = listed.filter((o) => o.key === key)
    if (exact.length) {
      selected = exact
    } else {
      directory = `${key}/`
    }
  }
  return selected.map((o) => ({ path: o.key.slice(directory.length), key: o.key, url: objectUrl(address.base, o.key), size: o.size,
    etag: o.etag ?? '' }))
}

/**
 * The objects whose key starts with `prefix` and that `keep` selects, following continuation tokens.
 * @param {string} listingUrl
 * @param {string} prefix
 * @param {string | undefined} delimiter
 * @param {number} maxKeys
 * @param {(key: string) => boolean} keep
 * @param {ListingContext} context
 */
async function listPrefix(listingUrl, prefix, delimiter, maxKeys, keep, context) {
  /** @type {Array<{ key: string, size: number, etag: string | undefined }>} */
  const objects = []
  /** @type {Set<string>} */
  const seenTokens = new Set()
  /** @type {string | undefined} */
  let token
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) throw listingError(`${redactUrl(new URL(listingUrl))} sent more than ${MAX_PAGES} pages; giving up`, context)
    const query = [['list-type', '2'], ['prefix', prefix], ['max-keys', String(maxKeys)], ['encoding-type', 'url']]
    if (delimiter) query.push(['delimiter', delimiter])
    if (token !== undefined) query.push(['continuation-token', token])
    // Encoded by hand: URLSearchParams writes a space as '+', which S3 may read as a '+'.
    const pageUrl = `${listingUrl}?${query.map(([k, v]) => `${k}=${encodeRfc3986(v)}`).join('&')}`
    const text = await fetchPage(pageUrl, context)
    let result
    try {
      result = parseListBucketResult(text)
    } catch (cause) {
      throw listingError(`${shownUrl(pageUrl)} did not answer with a ListObjectsV2 listing: ${messageOf(cause)}`, context, { cause })
    }
    for (const o of result.objects) {
      if (!o.key.startsWith(prefix)) {
        throw listingError(`${shownUrl(pageUrl)} listed ${JSON.stringify(o.key)}, which is not under the prefix asked for`, context)
      }
      if (keep(o.key)) objects.push(o)
    }
    if (!result.truncated) return objects
    if (result.nextToken === undefined) {
      throw listingError(`${shownUrl(pageUrl)} says the listing is truncated but gives no NextContinuationToken`, context)
    }
    if (seenTokens.has(result.nextToken)) {
      throw listingError(`${shownUrl(pageUrl)} gave a continuation token it had given before: the listing would never end`, context)
    }
    seenTokens.add(result.nextToken)
    token = result.nextToken
  }
}

/**
 * One page's XML: the GET retried on transient failures, its body bounded.
 * @param {string} pageUrl
 * @param {ListingContext} context
 */
async function fetchPage(pageUrl, context) {
  const shown = shownUrl(pageUrl)
  try {
    return await withRetries(() => fetchPageOnce(pageUrl, shown, context), {
      retries: context.retries,
      pause: async (ms) => {
        const op = new Operation(`waiting to retry the listing ${shown}`, shown, [context.signal], undefined)
        try {
          await sleepWithin(ms, op)
        } finally {
          op.dispose()
        }
      },
    })
  } catch (error) {
    // A status still transient after the retries is the listing's failure, like any other status.
    const failure = /** @type {{ code?: unknown, message: string, status?: number } | null | undefined} */ (error)
    if (failure?.code === ErrorCode.HTTP_STATUS) {
      throw new ParquetBloomError(ErrorCode.LISTING_FAILED, failure.message, { source: shown, status: failure.status })
    }
    throw error
  }
}

/**
 * @param {string} pageUrl
 * @param {string} shown
 * @param {ListingContext} context
 */
async function fetchPageOnce(pageUrl, shown, context) {
  const op = new Operation(`listing ${shown}`, shown, [context.signal], context.requestTimeoutMs)
  try {
    op.throwIfAborted()
    const response = await op.race(context.fetchFn(pageUrl, { signal: op.signal, headers: { 'accept-encoding': 'identity' } }))
    const body = await readText(response, op, shown, context)
    if (response.status !== 200) throw statusError(response.status, body, shown, context)
    return body
  } catch (cause) {
    if (cause instanceof ParquetBloomError) throw cause
    if (op.aborted) throw op.abortError()
    throw new ParquetBloomError(ErrorCode.IO, scrub(`network error listing ${shown}: ${messageOf(cause)}` +
      '. In a browser, a CORS refusal looks the same: the bucket must allow this origin to GET the listing', context.secrets),
        { cause, source: shown })
  } finally {
    op.dispose()
  }
}

/**
 * @param {Response} response
 * @param {Operation} op
 * @param {string} shown
 * @param {ListingContext} context
 */
async function readText(response, op, shown, context) {
  const declared = Number(response.headers.get('content-length'))
  if (declared > MAX_PAGE_BYTES) {
    response.body?.cancel().catch(() => {})
    throw listingError(`${shown} sent a ${declared}-byte listing page, more than ${MAX_PAGE_BYTES}`, context)
  }
  /** @type {Uint8Array[]} */
  const chunks = []
  let received = 0
  if (response.body) {
    await forEachChunk(response.body, op, (chunk) => {
      received += chunk.byteLength
      if (received > MAX_PAGE_BYTES) throw listingError(`${shown} sent a listing page of more than ${MAX_PAGE_BYTES} bytes`, context)
      chunks.push(chunk)
    }, (cause) =>
      new ParquetBloomError(ErrorCode.IO,
        scrub(`the connection failed while listing ${shown}: ${messageOf(cause)}`, context.secrets), { cause, source: shown }))
  }
  const bytes = concatChunks(chunks, received)
  return new TextDecoder().decode(bytes)
}

/**
 * HTTP_STATUS for what may pass (429, 5xx: retried), LISTING_FAILED with S3's error code otherwise.
 * @param {number} status
 * @param {string} body
 * @param {string} shown
 * @param {ListingContext} context
 */
function statusError(status, body, shown, context) {
  const s3 = parseS3Error(body)
  const said = s3 ? ` ${[s3.code, s3.message].filter(Boolean).join(': ')}` : ''
  const hint = LISTING_HINTS[String(s3?.code)] ?? LISTING_HINTS[status] ?? ''
  const message = scrub(`HTTP ${status} listing ${shown}:${said}${hint ? ` — ${hint}` : ''}`, context.secrets)
  return new ParquetBloomError(status >= 500 || status === 429 ? ErrorCode.HTTP_STATUS : ErrorCode.LISTING_FAILED, message,
    { source: shown, status })
}

/** @type {Readonly<Record<string, string>>} by S3 error code, else by status */
const LISTING_HINTS = {
  AccessDenied: 'the bucket does not allow listing to these credentials (or to anonymous requests: pass options.credentials)',
  SignatureDoesNotMatch: 'check options.credentials (the secret access key) and options.region',
  InvalidAccessKeyId: 'check options.credentials.accessKeyId',
  AuthorizationHeaderMalformed: 'the region the credentials were signed for is not the bucket\'s: set options.region',
  PermanentRedirect: 'the bucket is in another region: set options.region (or options.endpoint)',
  NoSuchBucket: 'no such bucket',
  301: 'the bucket is in another region: set options.region (or options.endpoint)',
  403: 'forbidden: the bucket needs credentials (options.credentials), or these may not list it',
  404: 'no such bucket',
}

/**
 * @param {string} message
 * @param {ListingContext} context
 * @param {{ cause?: unknown }} [details]
 */
function listingError(message, context, details = {}) {
  return new ParquetBloomError(ErrorCode.LISTING_FAILED, scrub(message, context.secrets), { cause: details.cause })
}

/** @param {string} pageUrl */
function shownUrl(pageUrl) {
  return redactUrl(new URL(pageUrl))
}

/**
 * @param {import('./s3-signing.js').S3Credentials | undefined} credentials
 * @returns {string[]}
 */
function secretsOf(credentials) {
  return credentials ? [credentials.secretAccessKey, credentials.sessionToken, credentials.accessKeyId].filter(
    /** @returns {s is string} */ (s) => typeof s === 'string' && s.length >= 4) : []
}

/**
 * Replaces any credential a server may have echoed with '…': messages reach logs and JSON output.
 * @param {string} text
 * @param {string[]} secrets
 */
function scrub(text, secrets) {
  let out = text
  for (const secret of secrets) out = out.split(secret).join('…')
  return out
}
