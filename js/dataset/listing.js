// What files a dataset is made of: a caller's list (sources or file descriptors), a local directory or
// glob walked recursively (Node, Bun, Deno), or an s3:// prefix listed by js/sources/s3-listing.js
// (loaded only then: in the browser bundle it is a chunk of its own, outside what a probe downloads).
// Always in one deterministic order: a caller's list as given, anything listed here by path.
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { countedFetch } from '../sources/default-fetch.js'
import { ioStats } from '../sources/io-ledger.js'
import { hasFileSystem } from '../sources/runtime.js'

const PARQUET_NAME = /\.(parquet|parq|pq)$/i
// Writers' bookkeeping (_delta_log, .hive-staging, _SUCCESS): names starting with '.' or '_', but not a partition folder
// `_key=value` (DuckDB's PARTITION_BY (_key) writes them; Spark's listing keeps them too).
const BOOKKEEPING = /^(\.|_(?!.*=))/
export const GLOB_CHARS = /[*?[{]/

/**
 * @typedef {{ path: string, location: any, size?: number, etag?: string, partitions?: Record<string, unknown> }} FileDescriptor
 *   path: the file's name in the dataset (relative to a listed folder or prefix); location: what openParquet reads
 */

/**
 * @typedef {import('../s3.js').ListS3Options & { ioLedger?: import('../sources/io-ledger.js').IoLedger }} ListOptions
 *   ioLedger: the opening's, when its reads are recorded (openDataset's `plan`)
 */

/**
 * @param {unknown} source an array of sources or descriptors, a directory, a glob, an s3:// URL, or one file
 * @param {ListOptions} [options] passed on to the S3 listing
 * @returns {Promise<{ files: FileDescriptor[], fetch?: typeof fetch, listing?: import('../sources/io-ledger.js').IoStats }>}
 *   files: a caller's list in its order, listed ones by path; fetch: what reads them, when the listing says (a signed
 *   fetch for a bucket); listing: what listing a bucket cost (its pages are requests, one after another)
 */
export async function listDataset(source, options = {}) {
  const { files, fetch, listed, listing } = await listUnsorted(source, options)
  // A folder, glob or prefix that lists no Parquet file is an error, as DuckDB's "No files found": a typo in it would
  // otherwise make every value look absent from a dataset of no file. A caller's own list of none is theirs.
  if (listed && files.length === 0) {
    const where = String(source)
    throw new ParquetBloomError(ErrorCode.FILE_NOT_FOUND, GLOB_CHARS.test(where) ? `${where}: the glob matches no file`
      : `${where}: no Parquet files there (.parquet, .parq, .pq; names starting with . or _ are skipped, but for _key=value folders)`,
    { source: where })
  }
  const seen = new Set()
  for (const file of files) {
    if (seen.has(file.path)) throw invalidArgument(`the dataset names ${JSON.stringify(file.path)} twice`)
    seen.add(file.path)
  }
  const ordered = listed ? files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) : files
  return { files: ordered, fetch, ...(listing ? { listing } : {}) }
}

/**
 * @param {unknown} source
 * @param {ListOptions} options
 * @returns {Promise<{ files: FileDescriptor[], fetch?: typeof fetch, listed?: boolean,
 *   listing?: import('../sources/io-ledger.js').IoStats }>}
 *   fetch: what reads the listed objects (signed, for a bucket with credentials); listed: found here, not given; listing: the
 *   bucket listing's cost
 */
async function listUnsorted(source, options) {
  if (Array.isArray(source)) return { files: source.map((item, i) => descriptor(item, i)) }
  if (source instanceof URL) source = source.href
  if (typeof source !== 'string') return { files: [descriptor(source, 0)] }
  if (/^s3:\/\//i.test(source)) {
    const { listS3, s3FetchFor } = await import('../sources/s3-listing.js').catch((cause) => {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `listing ${source} needs js/sources/s3-listing.js, which could not be loaded (${cause?.message ?? cause})`, { cause })
    })
    const listing = ioStats()
    // With a read plan of the opening (openDataset's `plan`), the listing's pages are its requests.
    const lane = options.ioLedger?.lane(source)
    const listed = await listS3(source, { ...options, fetch: countedFetch(options.fetch, listing, { lane }) })
    // An ETag the listing did not give ('') validates nothing: the file's own responses will.
    // A prefix is a directory: its Parquet files, without writers' bookkeeping; a glob says itself what it wants, and so
    // does a key naming one object (`_x.parquet`, Hive's `000000_0`), as a local file path does.
    const named = source.replace(/^s3:\/\/[^/]*\//i, '')
    const wanted = GLOB_CHARS.test(source) ? listed : listed.filter((f) => f.key === named || isDataFile(f.path))
    const files = wanted.map((f) => ({ path: f.path, location: f.url, size: f.size, ...(f.etag ? { etag: f.etag } : {}) }))
    return { files, fetch: options.credentials ? s3FetchFor(options) : options.fetch, listed: true, listing }
  }
  // Without a file system (a page, a worker) a string is one file's URL, as openParquet reads it.
  if (/^https?:\/\//i.test(source) || !hasFileSystem()) return { files: [descriptor(source, 0)] }
  return { files: await listLocal(source), listed: true }
}

/**
 * A caller's entry as a descriptor: descriptors as they are (checked), plain sources named by what they are.
 * @param {unknown} item
 * @param {number} index
 * @returns {FileDescriptor}
 */
function descriptor(item, index) {
  if (item && typeof item === 'object' && 'location' in item && 'path' in item) {
    const given = /** @type {{ path: unknown, location: unknown, size?: unknown, etag?: unknown }} */ (item)
    if (typeof given.path !== 'string' || given.path === '') throw invalidArgument(`file ${index}: path must be a non-empty string`)
    if (given.size !== undefined && !(typeof given.size === 'number' && Number.isSafeInteger(given.size) && given.size >= 0)) {
      throw invalidArgument(`${given.path}: size must be a non-negative integer`)
    }
    if (given.etag !== undefined && typeof given.etag !== 'string') throw invalidArgument(`${given.path}: etag must be a string`)
    return /** @type {FileDescriptor} */ ({ ...given }) // as checked above
  }
  return { path: sourcePath(item, index), location: item }
}

/**
 * @param {unknown} item
 * @param {number} index
 */
function sourcePath(item, index) {
  if (typeof item === 'string') {
    if (!/^(https?|file):\/\//i.test(item)) return item
    // A URL that does not parse keeps its text as its path: the file fails on its own (INVALID_ARGUMENT), reported
    // with the others' answers rather than failing the dataset.
    let url
    try {
      url = new URL(item)
    } catch {
      return item
    }
    // Sliced from the caller's string where it is the URL's spelling (no query or fragment): a dataset's records then
    // hold no second copy of each URL (url.href's) behind their paths.
    // Not with a query or fragment, empty ones too ('x?', 'x#': in href, not in the pathname the path was before).
    if (url.href === item && url.origin !== 'null' && !item.includes('?') && !item.includes('#') && !url.username && !url.password) {
      return item.slice(url.origin.length + 1) || item
    }
    return url.pathname.replace(/^\//, '') || item
  }
  if (item instanceof URL) return item.pathname.replace(/^\//, '') || item.href
  if (typeof Blob === 'function' && item instanceof Blob && typeof (/** @type {any} */ (item).name) === 'string' &&
    /** @type {any} */ (item).name) {
    return /** @type {any} */ (item).name
  }
  return `#${index}`
}

/**
 * A directory (every Parquet file below it), a glob ('dir/**\/*.parquet') or one file, on a local file system.
 * @param {string} text
 * @returns {Promise<Array<FileDescriptor & { size: number }>>}
 */
async function listLocal(text) {
  const fs = await import('node:fs/promises')
  const path = await import('node:path')
  const segments = text.split(/[\\/]/)
  // A path that exists as written is that path, whatever it holds ('run[1]/'), not a glob.
  const asWritten = await fs.stat(text).catch(() => null)
  const globAt = asWritten ? -1 : segments.findIndex((s) => GLOB_CHARS.test(s))
  const root = globAt < 0 ? text : segments.slice(0, globAt).join('/') || (text.startsWith('/') ? '/' : '.')
  const pattern = globAt < 0 ? null : globRegExp(segments.slice(globAt).join('/'))
  let info = asWritten
  try {
    info ??= await fs.stat(root)
  } catch (cause) {
    throw new ParquetBloomError(ErrorCode.FILE_NOT_FOUND, `${root}: no such file or directory`, { source: root, cause })
  }
  if (!info.isDirectory()) {
    if (pattern) throw invalidArgument(`${root} is not a directory`)
    return [{ path: path.basename(root), location: root, size: info.size }]
  }
  /** @type {Array<{ path: string, location: string, size: number }>} */
  const files = []
  const walked = new Set([await fs.realpath(root)])
  /** @type {(dir: string, relative: string) => Promise<void>} */
  const walk = async (dir, relative) => {
    const entries = await fs.readdir(dir, { withFileTypes: true })
    for (const entry of entries) {
      // A folder's bookkeeping is not data; a glob says itself what it wants (DuckDB's globs skip nothing, nor s3:// ones).
      if (!pattern && BOOKKEEPING.test(entry.name)) continue
      const rel = relative ? `${relative}/${entry.name}` : entry.name
      const full = path.join(dir, entry.name)
      // A symbolic link counts as what it points to (a link to a folder already walked is not followed).
      const target = entry.isSymbolicLink() ? await fs.stat(full).catch(() => undefined) : entry
      if (!target) continue
      if (target.isDirectory()) {
        const real = await fs.realpath(full)
        if (!walked.has(real)) {
          walked.add(real)
          await walk(full, rel)
        }
      } else if (target.isFile() && (pattern ? pattern.test(rel) : PARQUET_NAME.test(entry.name))) {
        files.push({ path: rel, location: full, size: -1 })
      }
    }
  }
  await walk(root, '')
  // Sizes asked for all at once, through node:fs's callbacks (a third of the CPU of node:fs/promises' stat).
  const { stat } = (await import('node:fs')).default
  await Promise.all(files.map((file) => new Promise((resolve, reject) => stat(file.location, (error, stats) => {
    if (error) reject(error)
    else resolve(file.size = stats.size)
  }))))
  return files
}

/**
 * The first folder of a listed path that is writers' bookkeeping (BOOKKEEPING: _delta_log, .hive-staging, _temporary),
 * or undefined: a glob lists its files too, as DuckDB's does (the CLI says so).
 * @param {string} relative
 */
export function bookkeepingFolder(relative) {
  return relative.split('/').slice(0, -1).find((s) => BOOKKEEPING.test(s))
}

/**
 * A Parquet file's name under no bookkeeping folder (BOOKKEEPING: _delta_log, .hive-staging).
 * @param {string} relative
 */
function isDataFile(relative) {
  const segments = relative.split('/')
  return segments.every((s) => !BOOKKEEPING.test(s)) && PARQUET_NAME.test(segments[segments.length - 1])
}

/**
 * A glob over '/'-separated relative paths: `**` any folders, `*` and `?` within a segment, `[abc]`, `[a-z]` and
 * `[!abc]` one character of a set (as DuckDB's globs), `{a,b}` alternatives.
 * @param {string} glob
 */
export function globRegExp(glob) {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/'
      out += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else if (c === '[') {
      // A ']' right after '[' or '[!' is one of the set; with no ']' at all, '[' is itself.
      const negated = glob[i + 1] === '!' || glob[i + 1] === '^'
      const end = glob.indexOf(']', i + (negated ? 3 : 2))
      if (end < 0) { out += '\\['; continue }
      const set = glob.slice(i + (negated ? 2 : 1), end).replace(/[\\\]^[]/g, '\\$&')
      out += negated ? `[^/${set}]` : `(?!/)[${set}]`
      i = end
    } else if (c === '{') {
      const end = glob.indexOf('}', i)
      if (end < 0) { out += '\\{'; continue }
      out += `(?:${glob.slice(i + 1, end).split(',').map(escape).join('|')})`
      i = end
    } else out += escape(c)
  }
  return new RegExp(`^${out}$`)
}

/** @param {string} text */
function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

