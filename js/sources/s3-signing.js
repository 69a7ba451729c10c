// Requests to S3-compatible stores, signed with AWS Signature Version 4 by aws4fetch when credentials
// are given (imported on the first signed request only; public buckets need no signing). The
// credentials live in this module's closures only: never in URLs, names, messages or returned objects.
import { invalidArgument } from '../errors.js'
import { describeValue, withKeys } from './shared.js'
import { DEFAULT_REGION } from './s3-url.js'
import { defaultFetch, sendsThrough } from './default-fetch.js'

// Sent but not signed: a browser replaces Accept-Encoding with its own, which would break the signature.
const UNSIGNED_HEADERS = ['accept-encoding']

/**
 * @typedef {{ accessKeyId: string, secretAccessKey: string, sessionToken?: string, region?: string }} S3Credentials
 */

/**
 * Checks options.credentials; undefined when none are given.
 * @param {unknown} credentials
 * @returns {S3Credentials | undefined}
 */
export function checkCredentials(credentials) {
  if (credentials === undefined || credentials === null) return undefined
  if (typeof credentials !== 'object') {
    throw invalidArgument(`options.credentials must be an object { accessKeyId, secretAccessKey, sessionToken?, ` +
      `region? }, got ${describeValue(credentials)}`)
  }
  const { accessKeyId, secretAccessKey, sessionToken, region } = /** @type {Record<string, unknown>} */ (credentials)
  // Only types are named in these messages: a value here may be a secret.
  for (const [name, value, required] of [['accessKeyId', accessKeyId, true], ['secretAccessKey', secretAccessKey, true],
    ['sessionToken', sessionToken, false], ['region', region, false]]) {
    if (value === undefined && !required) continue
    if (typeof value !== 'string' || value === '') {
      throw invalidArgument(`options.credentials.${name} must be a non-empty string, got ${value === undefined ? 'nothing' : typeof value}`)
    }
  }
  return /** @type {S3Credentials} */ ({ accessKeyId, secretAccessKey, sessionToken, region }) // each checked above
}

/**
 * A fetch for the objects (and listings) of a bucket: openParquet's `fetch` option. With
 * `options.credentials` every request is signed (SigV4, service s3, the credentials' region, else
 * options.region, else us-east-1); without, it is options.fetch (or the default one,
 * js/sources/default-fetch.js) as it is.
 * @param {{ credentials?: S3Credentials, region?: string, fetch?: typeof fetch }} [options]
 * @returns {typeof fetch}
 */
export function s3FetchFor(options = {}) {
  if (options === null || typeof options !== 'object') throw invalidArgument(`options must be an object, got ${describeValue(options)}`)
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw invalidArgument(`options.fetch must be a function, got ${describeValue(options.fetch)}`)
  }
  if (options.region !== undefined && (typeof options.region !== 'string' || options.region === '')) {
    throw invalidArgument(`options.region must be a non-empty string, got ${describeValue(options.region)}`)
  }
  const credentials = checkCredentials(options.credentials)
  const base = options.fetch ?? defaultFetch()
  if (!credentials) return /** @type {typeof fetch} */ (base)
  const region = credentials.region ?? options.region ?? DEFAULT_REGION
  const signingKeys = new Map() // aws4fetch's cache of derived keys, per date and region
  /** @type {Promise<typeof import('aws4fetch')> | undefined} */
  let loading
  const signed = async (/** @type {RequestInfo | URL} */ input, /** @type {RequestInit} */ init = {}) => {
    const { AwsV4Signer } = await (loading ??= import('aws4fetch'))
    const isRequest = typeof Request === 'function' && input instanceof Request
    const url = isRequest ? /** @type {Request} */ (input).url : String(input)
    const headers = new Headers(init.headers ?? (isRequest ? /** @type {Request} */ (input).headers : undefined))
    const unsigned = []
    for (const name of UNSIGNED_HEADERS) {
      const value = headers.get(name)
      if (value !== null) unsigned.push([name, value])
      headers.delete(name)
    }
    const signer = new AwsV4Signer({
      url, method: init.method ?? (isRequest ? /** @type {Request} */ (input).method : 'GET'), headers,
      accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken,
      service: 's3', region, cache: signingKeys,
    })
    const request = await signer.sign()
    const sent = new Headers(request.headers)
    for (const [name, value] of unsigned) sent.set(name, value)
    return base(request.url.toString(), withKeys(init, { method: request.method, headers: sent }))
  }
  return /** @type {typeof fetch} */ (sendsThrough(signed, base))
}
