// openByteSource(): one interface for reading byte ranges of a file wherever it lives — an http(s)
// URL (Range requests), a Blob/File, memory, a Node file path, or a hyparquet AsyncBuffer.
import { invalidArgument, messageOf } from '../errors.js'
import { BlobSource } from './blob-source.js'
import { BufferSource } from './buffer-source.js'
import { HttpSource } from './http-source.js'
import { DEFAULT_MAX_BYTES, describeValue, resolveOptions } from './shared.js'
import { hasFileSystem } from './runtime.js'

export { DEFAULT_MAX_BYTES }

/**
 * Random access to the bytes of one file. Every failure is a ParquetBloomError whose message names
 * `name`. Returned bytes may share memory with the source or with each other: do not write into them.
 *
 * @typedef {object} ByteSource
 * @property {string} name The URL (credential-like query values shown as "…"), the path, 'buffer',
 *   'blob:<file name>' / 'blob', or 'async-buffer' (options.name overrides). Used in every error message.
 * @property {number | undefined} size The file's size in bytes. Known from the start for everything but
 *   URLs, which learn it from the first response (readTail() always learns it).
 * @property {{ requests: number, bytesFetched: number }} stats I/O operations performed (HTTP requests,
 *   file reads, blob/AsyncBuffer slices, buffer reads) and the bytes they moved. A read served from a
 *   whole body already downloaded counts nothing.
 * @property {import('./io-ledger.js').IoLane} [io] the ledger lane its requests are clocked in (js/sources/io-ledger.js); a
 * caller's own ByteSource has none
 * @property {string} [readPurpose] what a read is for when its caller does not say (a READ_PURPOSES code)
 * @property {(length: number, options?: { signal?: AbortSignal, purpose?: string }) => Promise<{ offset: number,
 * bytes: Uint8Array }>} readTail
 *   The last min(length, size) bytes and the offset they start at; learns the size. For a URL whose size
 *   is unknown this is one request (a suffix range, no HEAD) whenever the server supports suffix ranges.
 * @property {(offset: number, length: number, options?: { signal?: AbortSignal, purpose?: string | string[] }) => Promise<Uint8Array>} read
 *   Exactly the bytes [offset, offset + length). INVALID_ARGUMENT past the end of a known size, TOO_LARGE
 *   over options.maxBytes; length 0 returns an empty array without any I/O.
 * @property {() => Promise<void>} close Idempotent. Reads in flight end with ABORTED, file handles are
 *   closed, and later reads fail with INVALID_ARGUMENT.
 */

/**
 * @typedef {object} ByteSourceOptions
 * @property {typeof fetch} [fetch] For URLs; defaults to globalThis.fetch.
 * @property {AbortSignal} [signal] Applies to every operation, on top of each call's own signal.
 * @property {number} [maxBytes] The most one read may return, and the most a server that ignores Range
 *   may send before the download is cancelled with RANGE_NOT_SUPPORTED. Default 64 MiB.
 * @property {HeadersInit} [headers] Sent with every HTTP request (e.g. Authorization).
 * @property {number} [requestTimeoutMs] Each request or read taking longer ends with ABORTED ("timed
 *   out"). Default: no timeout.
 * @property {string} [userAgent] User-Agent for HTTP requests (browsers may ignore it).
 * @property {string} [name] Overrides the name used in messages (useful for buffers).
 * @property {import('./io-ledger.js').IoLedger} [ioLedger] The scope whose ledger the source's requests join (internal).
 * @property {number} [ioFloor] The round its lane opens after (internal).
 * @property {string} [ioGroup] The group its lane counts in (internal).
 */

/**
 * Opens `source` for range reads:
 * - an http(s) URL string or URL object → Range requests with fetch;
 * - a file: URL, or any other string → a local file path (Node);
 * - a Blob or File;
 * - an ArrayBuffer, SharedArrayBuffer, typed array, DataView or Node Buffer (zero-copy);
 * - a hyparquet AsyncBuffer ({ byteLength, slice(start, end) });
 * - an object that already is a ByteSource, returned as it is (options are then ignored).
 * No I/O happens here except stat() for a file path, which reports a missing file at once.
 * The source itself where nothing is awaited for it (an http(s) URL, bytes, a Blob), else its promise (a local file, an
 * AsyncBuffer, whose modules load then); bad input throws. Not async: openParquet's files in flight (a dataset's
 * thousands) would each hold the promise of an async function more. Callers await it.
 * @param {string | URL | Blob | ArrayBuffer | ArrayBufferView | object} source
 * @param {ByteSourceOptions} [options]
 * @returns {ByteSource | Promise<ByteSource>}
 */
export function openByteSource(source, options) {
  const settings = resolveOptions(options)
  if (typeof source === 'string') return openString(source, settings)
  if (source instanceof URL || isForeignUrl(source)) return openUrl(new URL(source.href), settings)
  if (typeof Blob === 'function' && source instanceof Blob) return new BlobSource(source, settings)
  if (source instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && source instanceof SharedArrayBuffer) ||
    ArrayBuffer.isView(source)) {
    return new BufferSource(source, settings)
  }
  if (isByteSource(source)) return source
  // hyparquet's AsyncBuffer: its module loaded then, as a local file's (a probe of URLs or bytes never needs it).
  if (isAsyncBuffer(source)) return import('./async-buffer-source.js').then((m) => new m.AsyncBufferSource(source, settings))
  throw invalidArgument(`cannot read from ${describeValue(source)}: expected an http(s) URL, a file path, a Blob, an ArrayBuffer or ` +
    'typed array, or an AsyncBuffer ({ byteLength, slice(start, end) })')
}

/**
 * @param {string} text
 * @param {import('./shared.js').SourceOptions} settings
 * @returns {ByteSource | Promise<ByteSource>} a URL's source itself: openByteSource's promise is the only one
 */
function openString(text, settings) {
  if (text === '') throw invalidArgument('the source is an empty string; expected a URL or a file path')
  // A scheme of two or more letters (so Windows drive letters stay paths); a dataset's URLs, nearly always
  // written in lower case, are told without the regular expression.
  const scheme = text.startsWith('https://') ? 'https' : text.startsWith('http://') ? 'http'
    : /^([a-z][a-z0-9+.-]+):/i.exec(text)?.[1]?.toLowerCase()
  if (scheme === 'http' || scheme === 'https' || scheme === 'file') {
    let url
    try {
      url = new URL(text)
    } catch (cause) {
      throw invalidArgument(`${JSON.stringify(text)} is not a valid URL`, { cause })
    }
    // The caller's string kept where it already is the URL's href: a dataset holds thousands of sources in
    // flight, and another copy of each URL apiece.
    return openUrl(url, settings, url.href === text ? text : url.href)
  }
  if (scheme !== undefined && /^[a-z][a-z0-9+.-]+:\/\//i.test(text)) {
    throw invalidArgument(`unsupported URL scheme in ${JSON.stringify(text)}; use an http(s) URL (e.g. a presigned one) or a file path`)
  }
  if (!hasFileSystem()) {
    // In a page or worker a relative string is a URL relative to it, as fetch() would take it.
    const base = globalThis.location?.href
    if (base) {
      let url
      try {
        url = new URL(text, base)
      } catch (cause) {
        throw invalidArgument(`${JSON.stringify(text)} is not a valid URL relative to ${base}`, { cause })
      }
      return openUrl(url, settings)
    }
    throw invalidArgument(`${JSON.stringify(text)} looks like a file path, but this runtime has no file system; pass an http(s) URL, a ` +
      'Blob or bytes')
  }
  return openLocalFile(text, settings)
}

/**
 * A local file, through the module only runtimes with a file system load (never a browser).
 * @param {string} path
 * @param {import('./shared.js').SourceOptions} settings
 * @returns {Promise<ByteSource>}
 */
async function openLocalFile(path, settings) {
  const { openFileSource } = await import('./file-source.js')
  return openFileSource(path, settings)
}

/**
 * @param {URL} url
 * @param {import('./shared.js').SourceOptions} settings
 * @param {string} [href] url.href, as a string the caller holds
 * @returns {ByteSource | Promise<ByteSource>} an http(s) URL's source itself: openByteSource's promise is the only one
 */
function openUrl(url, settings, href) {
  if (url.protocol === 'http:' || url.protocol === 'https:') return new HttpSource(url, settings, href)
  if (url.protocol === 'file:') return openFileUrl(url, settings)
  throw invalidArgument(`unsupported URL scheme ${url.protocol} in ${url.href}; use an http(s) URL (e.g. a presigned one), a file: ` +
    'URL or a path')
}

/**
 * @param {URL} url a file: URL
 * @param {import('./shared.js').SourceOptions} settings
 * @returns {Promise<ByteSource>}
 */
async function openFileUrl(url, settings) {
  const { fileURLToPath } = await import('node:url')
  let path
  try {
    path = fileURLToPath(url)
  } catch (cause) {
    throw invalidArgument(`${url.href} cannot be turned into a file path: ${messageOf(cause)}`, { cause })
  }
  return openLocalFile(path, settings)
}

/**
 * True for an object shaped like hyparquet's AsyncBuffer ({ byteLength, slice(start, end) }); ArrayBuffers themselves are
 * handled before this.
 * @param {unknown} value
 * @returns {value is import('./async-buffer-source.js').AsyncBuffer}
 */
function isAsyncBuffer(value) {
  const candidate = /** @type {{ byteLength?: unknown, slice?: unknown }} */ (value)
  return typeof value === 'object' && value !== null && typeof candidate.byteLength === 'number' && typeof candidate.slice === 'function'
}

/**
 * URL objects from another realm (an iframe, a vm context) fail instanceof.
 * @param {unknown} value
 * @returns {value is URL}
 */
function isForeignUrl(value) {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object URL]' &&
    typeof /** @type {{ href?: unknown }} */ (value).href === 'string'
}

/**
 * @param {unknown} value
 * @returns {value is ByteSource}
 */
function isByteSource(value) {
  const candidate = /** @type {{ readTail?: unknown, read?: unknown, close?: unknown }} */ (value)
  return typeof value === 'object' && value !== null &&
    typeof candidate.readTail === 'function' && typeof candidate.read === 'function' && typeof candidate.close === 'function'
}
