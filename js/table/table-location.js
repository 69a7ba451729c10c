// Where a table lives and where the files its metadata names are: the table root (a local folder, a
// file: URL or an http(s) URL), paths joined onto it, and the one check that refuses a path from the
// metadata that leads outside it (another host, a link-local address, `..` out of the folder). Table
// metadata is written by whoever could write the table: it must not make us fetch arbitrary URLs.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { redactUrl } from '../sources/http-request.js'

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/

/**
 * Whether a path from a table's metadata is absolute (a URI with a scheme, or a path from a root) rather than relative
 * to where it is read from.
 * @param {string} path
 */
export const isAbsolutePath = (path) => SCHEME.test(path) || path.startsWith('/')

/**
 * @typedef {{ kind: 'local', root: string } | { kind: 'url', root: URL }} TableRoot
 *   `root` of a local table is an absolute path without a trailing separator; of a URL table, a URL
 *   whose pathname ends in '/'.
 */

/**
 * @param {string | URL} location a folder path, a file: URL or an http(s) URL of the table's root
 * @returns {Promise<TableRoot>}
 */
export async function tableRoot(location) {
  const text = location instanceof URL ? location.href : String(location)
  if (/^https?:/i.test(text)) {
    const url = new URL(text)
    if (!url.pathname.endsWith('/')) url.pathname += '/'
    url.search = url.search // kept: signed URLs carry their query on every file
    return { kind: 'url', root: url }
  }
  const { fileURLToPath } = await import('node:url')
  const path = await import('node:path')
  const local = /^file:/i.test(text) ? fileURLToPath(text) : text
  return { kind: 'local', root: path.resolve(local).replace(/[\\/]+$/, '') || '/' }
}

/**
 * `text` with every http(s) URL in it shown as redactUrl shows it: messages name locations built from a
 * signed table URL (its query rides on every location under it).
 * @param {string} text
 */
function redactUrlsIn(text) {
  return text.replace(/https?:\/\/[^\s"'<>`]+/gi, (found) => {
    // Punctuation after a URL belongs to the sentence.
    const trailing = /[.,;:!?)\]]+$/.exec(found)?.[0] ?? ''
    let url
    try {
      url = new URL(found.slice(0, found.length - trailing.length))
    } catch {
      return found
    }
    return url.search || url.username || url.password ? redactUrl(url) + trailing : found
  })
}

/**
 * An error about a table's files: the URLs it names shown without credentials (a signed table URL's query
 * rides on every location under it).
 * @param {string} code an ErrorCode
 * @param {string} message
 * @param {{ source?: string, cause?: unknown }} [details]
 */
export function tableError(code, message, { source, cause } = {}) {
  return new ParquetBloomError(code, redactUrlsIn(message), {
    ...(cause !== undefined ? { cause } : {}), ...(source !== undefined ? { source: redactUrlsIn(source) } : {}),
  })
}

/**
 * Splits a '/'-separated relative path into segments, resolving '.' and '..'; null when it climbs out.
 * @param {string} relative
 */
function normalizeSegments(relative) {
  /** @type {string[]} */
  const out = []
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (out.length === 0) return null
      out.pop()
    } else {
      out.push(segment)
    }
  }
  return out
}

/**
 * The location (a local path or a URL string) of `relative` (decoded text, '/'-separated) under the
 * table root, or null when it leads outside the root.
 * @param {TableRoot} root
 * @param {string} relative
 */
export function locationUnder(root, relative) {
  const segments = normalizeSegments(relative)
  if (segments === null) return null
  if (segments.some((s) => s.includes('\\') && root.kind === 'local' && process.platform === 'win32')) return null
  if (root.kind === 'local') return segments.length ? `${root.root === '/' ? '' : root.root}/${segments.join('/')}` : root.root
  const url = new URL(root.root.href)
  url.pathname = root.root.pathname + segments.map(encodeURIComponent).join('/')
  return url.href
}

/**
 * Whether a URL names a link-local, loopback-metadata or otherwise never-table host (cloud metadata endpoints).
 * @param {string} hostname
 */
function isLinkLocalHost(hostname) {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return /^169\.254\./.test(host) || /^fe[89ab][0-9a-f]:/.test(host) || host === 'metadata.google.internal'
}

/**
 * The caller's permission for a location outside the table: `allowOutside: true` allows every one;
 * an array allows locations starting with one of its prefixes (URLs or local folders).
 * @param {string} location
 * @param {boolean | string[] | undefined} allowOutside
 */
function outsideAllowed(location, allowOutside) {
  if (allowOutside === true) return true
  if (!Array.isArray(allowOutside)) return false
  return allowOutside.some((prefix) => typeof prefix === 'string' && prefix !== '' && location.startsWith(prefix))
}

/** @param {string} path @param {TableRoot} root @param {string} why */
function refuse(path, root, why) {
  const where = root.kind === 'local' ? root.root : root.root.href
  return tableError(ErrorCode.PATH_OUTSIDE_TABLE,
    `the table's metadata names ${JSON.stringify(path)}, which ${why} (table at ${where}); pass allowOutside to read it`, { source: path })
}

/**
 * Resolves paths written in table metadata to locations to read, refusing those outside the table.
 * `tablePrefix` is the table's own location as its metadata writes it (Iceberg `location`, a Delta
 * table's root): a path starting with it is rebased onto the root; other absolute paths are taken as
 * they are (then usually refused as outside); relative paths are relative to the root.
 * @param {TableRoot} root
 * @param {{ tablePrefix?: string, encoded?: boolean, rebase?: (path: string) => string | URL | null | undefined,
 *   allowOutside?: boolean | string[] }} options `encoded`: relative paths are URL-encoded (Delta);
 *   `rebase`: the caller's own mapping (its answer is still checked against the root)
 * @returns {(path: string) => { location: string, relative: string }}
 */
export function pathResolver(root, { tablePrefix, encoded = false, rebase, allowOutside } = {}) {
  const prefixes = prefixVariants(tablePrefix)
  const decode = (/** @type {string} */ text) => (encoded ? safeDecode(text) : text)
  return (path) => {
    if (typeof path !== 'string' || path === '') {
      throw new ParquetBloomError(ErrorCode.MALFORMED_TABLE,
        `a file path in the table's metadata is ${JSON.stringify(path)}`)
    }
    const mapped = rebase?.(path)
    if (mapped != null) return checkedAbsolute(String(mapped instanceof URL ? mapped.href : mapped), path, root, allowOutside)
    for (const prefix of prefixes) {
      if (path === prefix || path.startsWith(prefix + '/')) return underRoot(root, decode(path.slice(prefix.length)), path, allowOutside)
    }
    if (isAbsolutePath(path)) {
      // An absolute path of the table's own root (a local table whose metadata writes real paths). Delta's is a URI
      // even without a scheme (`/t/a%20b.parquet` is the file `/t/a b.parquet`); a URL is decoded as it is parsed.
      return checkedAbsolute(encoded && !SCHEME.test(path) ? decode(path) : path, path, root, allowOutside)
    }
    return underRoot(root, decode(path), path, allowOutside)
  }
}

/**
 * @param {TableRoot} root
 * @param {string} relative
 * @param {string} original the path as the metadata writes it
 * @param {boolean | string[] | undefined} allowOutside
 * @returns {{ location: string, relative: string }}
 */
function underRoot(root, relative, original, allowOutside) {
  const location = locationUnder(root, relative)
  const segments = normalizeSegments(relative)
  if (location === null || segments === null) {
    if (allowOutside === true && root.kind === 'local') return { location: `${root.root}/${relative}`, relative }
    throw refuse(original, root, 'climbs out of the table\'s folder')
  }
  return { location, relative: segments.join('/') }
}

/**
 * An absolute location (URL or path) from the metadata or a rebase: inside the root, or allowed.
 * @param {string} location
 * @param {string} original the path as the metadata writes it
 * @param {TableRoot} root
 * @param {boolean | string[] | undefined} allowOutside
 * @returns {{ location: string, relative: string }}
 */
function checkedAbsolute(location, original, root, allowOutside) {
  let candidate = location
  if (root.kind === 'local') {
    if (/^file:/i.test(candidate)) {
      try { candidate = decodeURIComponent(new URL(candidate).pathname) } catch { throw refuse(original, root, 'is not a valid file URL') }
    }
    if (candidate.startsWith('/')) {
      const inside = candidate === root.root || candidate.startsWith(root.root === '/' ? '/' : root.root + '/')
      const rel = inside ? candidate.slice(root.root.length + 1) : null
      if (rel !== null && normalizeSegments(rel) !== null) return underRoot(root, rel, original, allowOutside)
    }
  } else if (/^https?:/i.test(candidate)) {
    let url
    try { url = new URL(candidate) } catch { throw refuse(original, root, 'is not a valid URL') }
    if (url.origin === root.root.origin && url.pathname.startsWith(root.root.pathname) && !isLinkLocalHost(url.hostname)) {
      return { location: url.href, relative: decodeURIComponent(url.pathname.slice(root.root.pathname.length)) }
    }
    if (isLinkLocalHost(url.hostname) && !outsideAllowed(candidate, allowOutside)) {
      throw refuse(original, root, 'is on a link-local address')
    }
  }
  if (outsideAllowed(candidate, allowOutside)) return { location: candidate, relative: candidate }
  throw refuse(original, root, 'is outside the table\'s location')
}

/** @param {string | undefined} prefix */
function prefixVariants(prefix) {
  if (typeof prefix !== 'string' || prefix === '') return []
  const trimmed = prefix.replace(/\/+$/, '')
  const variants = new Set([trimmed])
  if (trimmed.startsWith('./')) variants.add(trimmed.slice(2))
  // s3://, s3a:// and s3n:// name the same object store.
  const s3 = /^s3[an]?:\/\//.exec(trimmed)
  if (s3) for (const scheme of ['s3://', 's3a://', 's3n://']) variants.add(scheme + trimmed.slice(s3[0].length))
  if (/^file:\/\//.test(trimmed)) {
    variants.add(trimmed.replace(/^file:\/\//, '').replace(/^localhost/, '')).add(trimmed.replace(/^file:\/\/\/?/, 'file:/'))
  }
  return [...variants].sort((a, b) => b.length - a.length)
}

/** @param {string} text */
function safeDecode(text) {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new ParquetBloomError(ErrorCode.MALFORMED_TABLE,
      `the path ${JSON.stringify(text)} is not valid URL encoding`)
  }
}
