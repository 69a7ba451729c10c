// S3 locations: `s3://bucket/key` URLs and glob patterns over keys, and the https/http URLs that
// address a bucket (AWS virtual-hosted style by default, path style for custom endpoints such as R2,
// MinIO, Ceph, GCS's XML API or s3rver). Key bytes go into URLs percent-encoded per RFC 3986.
import { invalidArgument } from '../errors.js'
import { describeValue } from './shared.js'

export const DEFAULT_REGION = 'us-east-1'
// A bucket name that is one DNS label the virtual-host wildcard certificate covers.
const VIRTUAL_HOST_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/

/**
 * A parsed `s3://bucket/pattern`. `prefix` is the literal start of the key pattern (what ListObjectsV2
 * is asked for); `directory` the part of it up to its last '/', which listed paths are relative to;
 * `match` tells whether a key is selected (undefined: every key under `prefix`); `key` is set when the
 * URL names one object (no glob, no trailing '/'); `delimiter` is '/' when no key below the next '/' can
 * match (so the listing need not descend).
 * @typedef {{ bucket: string, prefix: string, directory: string, key?: string,
 *   match?: (key: string) => boolean, delimiter?: string }} S3Location
 */

/**
 * Parses `s3://bucket/prefix/`, `s3://bucket/key` or `s3://bucket/prefix/**\/*.parquet`. In the key part
 * `**` matches any characters, `*` any but '/', `?` one character but '/', and `\` makes the next
 * character literal; `**\/` also matches no directory at all.
 * @param {string | URL} url
 * @returns {S3Location}
 */
export function parseS3Url(url) {
  const text = typeof url === 'string' ? url : url instanceof URL ? url.href : undefined
  if (text === undefined) throw invalidArgument(`an S3 location must be an s3://bucket/key string, got ${describeValue(url)}`)
  const m = /^s3:\/\/([^/?#]+)(?:\/(.*))?$/is.exec(text)
  if (!m) {
    throw invalidArgument(`${JSON.stringify(text)} is not an S3 location; expected s3://bucket/prefix/, s3://bucket/key or ` +
      's3://bucket/prefix/**/*.parquet')
  }
  const bucket = m[1]
  // Checked so that a bucket can never smuggle a host or a path into the URLs built from it: AWS's naming
  // rules, widened to what other stores and legacy buckets allow (capitals, '_', up to 222 characters).
  if (!/^[a-z0-9][a-z0-9._-]{1,221}$/i.test(bucket)) {
    throw invalidArgument(`${JSON.stringify(bucket)} is not a valid bucket name`)
  }
  const pattern = m[2] ?? ''
  const { literal, glob } = splitPattern(pattern)
  const directory = literal.slice(0, literal.lastIndexOf('/') + 1)
  if (glob === undefined) {
    // No glob: a prefix ending in '/' (or the whole bucket), or one key.
    if (literal === '' || literal.endsWith('/')) return { bucket, prefix: literal, directory: literal }
    return { bucket, prefix: literal, directory, key: literal }
  }
  const regex = globRegex(glob)
  const match = (/** @type {string} */ key) => key.startsWith(literal) && regex.test(key.slice(literal.length))
  // Without '**' and without a '/' after the first wildcard, no key below the next '/' can match.
  const delimiter = !glob.includes('**') && !glob.slice(0, -1).includes('/') && !glob.endsWith('/') ? '/' : undefined
  return { bucket, prefix: literal, directory, match, delimiter }
}

/**
 * The pattern split at its first unescaped wildcard: the literal start (escapes removed) and the rest
 * (escapes kept, for globRegex). `glob` is undefined when there is no wildcard.
 * @param {string} pattern
 */
function splitPattern(pattern) {
  let literal = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\' && i + 1 < pattern.length) {
      literal += pattern[++i]
      continue
    }
    if (c === '*' || c === '?') return { literal, glob: pattern.slice(i) }
    literal += c
  }
  return { literal, glob: undefined }
}

/** @param {string} glob */
function globRegex(glob) {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '\\' && i + 1 < glob.length) {
      source += escapeRegex(glob[++i])
    } else if (c === '*' && glob[i + 1] === '*') {
      i++
      if (glob[i + 1] === '/') {
        i++
        source += '(?:.*/)?'
      } else {
        source += '.*'
      }
    } else if (c === '*') {
      source += '[^/]*'
    } else if (c === '?') {
      source += '[^/]'
    } else {
      source += escapeRegex(c)
    }
  }
  return new RegExp(`^${source}$`, 's')
}

/** @param {string} c */
function escapeRegex(c) {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c
}

/**
 * Where a bucket is reached: `endpoint` (path style: endpoint/bucket/key) when given, else AWS's
 * virtual-hosted https://bucket.s3.region.amazonaws.com/key — or path style on AWS for bucket names
 * that are not one DNS label (dots, capitals), which the virtual hosts' wildcard certificate does not cover.
 * @param {string} bucket
 * @param {{ endpoint?: string | URL, region?: string }} options
 * @returns {{ base: string, listing: string, region: string }} base: the URL keys are appended to (ends
 *   with '/'); listing: the bucket's own URL, which ListObjectsV2 queries
 */
export function bucketAddress(bucket, { endpoint, region }) {
  const signingRegion = region ?? DEFAULT_REGION
  if (endpoint === undefined || endpoint === null) {
    const host = VIRTUAL_HOST_BUCKET.test(bucket)
      ? `${bucket}.s3.${signingRegion}.amazonaws.com`
      : `s3.${signingRegion}.amazonaws.com/${bucket}`
    const base = `https://${host}/`
    return { base, listing: host.includes('/') ? base.slice(0, -1) : base, region: signingRegion }
  }
  let url
  try {
    url = new URL(String(endpoint))
  } catch (cause) {
    throw invalidArgument(`options.endpoint ${JSON.stringify(String(endpoint))} is not a URL`, { cause })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidArgument(`options.endpoint must be an http(s) URL, got ${url.protocol}`)
  }
  if (url.username || url.password || url.search || url.hash) {
    throw invalidArgument('options.endpoint must be a plain http(s) URL without credentials, query or fragment')
  }
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`
  const listing = `${url.origin}${path}${encodeURIComponent(bucket)}`
  return { base: `${listing}/`, listing, region: signingRegion }
}

/**
 * The URL of one object: the bucket's base and the key, each segment percent-encoded (RFC 3986).
 * @param {string} base
 * @param {string} key
 */
export function objectUrl(base, key) {
  return base + key.split('/').map(encodeRfc3986).join('/')
}

/**
 * encodeURIComponent plus the characters it leaves that S3's canonical form encodes: ! ' ( ) *.
 * @param {string} text
 */
export function encodeRfc3986(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
