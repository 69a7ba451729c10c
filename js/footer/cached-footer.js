// Reads a URL's footer through a FooterCache (js/footer/footer-cache.js): a hit costs no request, a miss reads
// the footer and keeps it when the server validated it; after FILE_CHANGED the entry is dropped and the
// footer read anew from the new version of the file. An ETag known beforehand (a listing's) that equals
// the entry's confirms it without the 8-byte request; one that differs makes the entry a miss.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { etagsDiffer, strongEtag, validatorFromEtag } from '../sources/validator.js'
import { footerFromTail, readFooter, readFooterTail } from './footer.js'

/**
 * @typedef {Parameters<typeof readFooter>[1]} ReadFooterOptions
 * @typedef {import('./footer-cache.js').FooterCache} FooterCache
 * @typedef {import('../sources/http-source.js').HttpSource} HttpSource
 */

/**
 * @param {import('./footer-cache.js').FooterCache} cache
 * @param {import('../sources/http-source.js').HttpSource} source in conditional mode
 * @param {ReadFooterOptions} [options]
 * @returns {Promise<import('./footer.js').ReadFooter>}
 */
export function footerThroughCache(cache, source, options) {
  // A cache that holds nothing (a dataset's own, in a fresh process or over files without validators):
  // straight to the read, with no lookup and no promise of the cache's own per file.
  if (cache.holdsNothing()) return readAndRemember(cache, source, options)
  return lookUp(cache, source, options)
}

/** @param {FooterCache} cache @param {HttpSource} source @param {ReadFooterOptions} [options] */
async function lookUp(cache, source, options) {
  let entry = await cache.lookup(source.cacheKey)
  // A listing's size and ETag (options.size, options.etag) validate the entry without a request.
  const given = source.givenVersion
  const listed = validatorFromEtag(given.etag)
  const sameAsGiven = entry !== undefined && (given.size === undefined || given.size === entry.fileSize) &&
    !etagsDiffer(listed, entry.validator)
  if (entry && !sameAsGiven) {
    await cache.forget(source.cacheKey)
    entry = undefined
  }
  if (!entry) return readAndRemember(cache, source, options)
  // The listing's strong ETag is the entry's (it did not differ): the entry is the file as listed.
  source.expectFile(entry.validator, entry.fileSize, { confirmed: Boolean(strongEtag(listed) && entry.validator?.etag) })
  return {
    fileSize: entry.fileSize, metadataOffset: entry.metadataOffset, layout: entry.layout,
    tail: { offset: entry.fileSize, bytes: new Uint8Array(0) }, fromCache: true,
  }
}

/**
 * After FILE_CHANGED: drops the entry and reads the footer of the file as it is now.
 * @param {FooterCache} cache @param {HttpSource} source @param {ReadFooterOptions} [options]
 */
export async function rereadFooter(cache, source, options) {
  await cache.forget(source.cacheKey)
  refuseIfListed(source)
  source.forgetFile()
  return readAndRemember(cache, source, options)
}

/**
 * @param {FooterCache} cache @param {HttpSource} source @param {ReadFooterOptions} [options]
 * @returns {Promise<import('./footer.js').ReadFooter>}
 */
function readAndRemember(cache, source, options = {}) {
  return new FooterReading(source, options, cache).start()
}

/**
 * One file's footer read: the tail read, its decoding, the footer kept in `cache` when one is given (and read once
 * more after FILE_CHANGED, from the new version), then handed to footerRead(), or the failure to footerFailed():
 * by default the footer itself, or the rejection. A subclass's (js/parquet-file.js) go on to open the file. A record
 * with one promise and two bound methods rather than a chain of promises, each with its callbacks and their context: a
 * dataset holds thousands of these while their tail reads are in flight.
 */
export class FooterReading {
  /**
   * @param {import('../sources/open-byte-source.js').ByteSource} source
   * @param {NonNullable<ReadFooterOptions>} options
   * @param {FooterCache} [cache] keeps the footer; `source` is then an HttpSource in conditional mode
   */
  constructor(source, options, cache) {
    this.source = source
    this.options = options
    this.cache = cache
    /** read once more already, after FILE_CHANGED */
    this.again = false
  }

  /** @returns {Promise<any>} what footerRead() or footerFailed() makes of it */
  start() {
    // Always a promise of this realm (Promise.resolve hands one back as it is): a source whose readTail answered at once,
    // or with another realm's promise, would otherwise hand its caller the file itself or a foreign promise.
    return Promise.resolve(step(this, () => readFooterTail(this.source, this.options), this.tailIn, this.readFailed))
  }

  /** @param {{ offset: number, bytes: Uint8Array }} tail */
  tailIn(tail) {
    return step(this, () => footerFromTail(this.source, tail, this.options), this.footerIn, this.readFailed)
  }

  /** @param {import('./footer.js').ReadFooter} footer */
  footerIn(footer) {
    const cache = this.cache
    return step(this, () => cache ? rememberFooter(cache, /** @type {HttpSource} */ (this.source), footer) : footer, this.footerRead,
      this.footerFailed)
  }

  /** The footer's read failed. @param {unknown} error */
  readFailed(error) {
    const source = /** @type {HttpSource} */ (this.source)
    // Replaced between the tail read and the rest of a large footer: once more, from the new version.
    if (!this.cache || this.again || /** @type {{ code?: unknown } | undefined} */ (error)?.code !== ErrorCode.FILE_CHANGED) {
      return this.footerFailed(error)
    }
    this.again = true
    return step(this, () => {
      refuseIfListed(source, error)
      source.forgetFile()
      return readFooter(source, this.options)
    }, this.footerIn, this.footerFailed)
  }

  /** @param {import('./footer.js').ReadFooter} footer @returns {any} */
  footerRead(footer) {
    return footer
  }

  /** @param {unknown} error @returns {any} */
  footerFailed(error) {
    throw error
  }
}

/**
 * `next` (a method of `reading`) given what `make` returns, once it is in when it is a promise (no promise made when it is
 * not); `failed` given what it throws or rejects with.
 * @template T
 * @param {FooterReading} reading
 * @param {() => T | Promise<T>} make
 * @param {(value: T) => any} next
 * @param {(error: unknown) => any} failed
 * @returns {any}
 */
function step(reading, make, next, failed) {
  let made
  try {
    made = make()
  } catch (error) {
    return failed.call(reading, error)
  }
  // Bound rather than arrow functions: no context is made for this call, and a dataset's thousands of footer reads in
  // flight each hold two bound methods, not two closures and their context.
  // A thenable, not only this realm's Promise: a caller's own ByteSource may answer with another realm's promises.
  return typeof (/** @type {any} */ (made)?.then) === 'function' ? /** @type {Promise<T>} */ (made).then(next.bind(reading),
    failed.bind(reading)) : next.call(reading, /** @type {T} */ (made))
}

/**
 * Keeps a footer just read in the cache when its server validated it, and hands it on; one the cache
 * would not keep (no validator, or a validator too recent to tell it from a rewrite) goes on at
 * once, without a promise of the cache's.
 * @param {FooterCache} cache @param {HttpSource} source @param {import('./footer.js').ReadFooter} footer
 * @returns {import('./footer.js').ReadFooter | Promise<import('./footer.js').ReadFooter>}
 */
function rememberFooter(cache, source, footer) {
  const validator = source.validator
  // A Last-Modified less than 3 s old cannot tell this version from a rewrite of the same size within its second, nor
  // can an ETag made of the time and size (nginx's) sent with it (RFC 9110 §8.8.2.2): an entry kept now would answer for
  // such a rewrite from this footer in every later process. (Compared with this clock: a server's Date is not exposed
  // to pages of other origins.)
  if (!cache.accepts(validator) || Date.now() - Date.parse(/** @type {string} */ (validator?.lastModified)) < 3e3) return footer
  return cache.remember(source.cacheKey, { validator, fileSize: footer.fileSize, metadataOffset: footer.metadataOffset,
    layout: footer.layout }).then(() => footer)
}

/**
 * Checks that a footer taken from the cache still describes the file, when no read has shown it yet:
 * the file's last 8 bytes (footer length + PAR1), fetched with the validator. FILE_CHANGED otherwise.
 * @param {import('../sources/open-byte-source.js').ByteSource & { confirmed?: boolean }} source any file's (only an
 *   HttpSource's footer can be unconfirmed)
 * @param {{ fileSize: number, metadataOffset: number }} footer @param {AbortSignal} [signal]
 */
export async function confirmFooter(source, { fileSize, metadataOffset }, signal) {
  if (source.confirmed !== false) return
  const last = await source.read(fileSize - 8, 8, { signal, purpose: 'footer' })
  const view = new DataView(last.buffer, last.byteOffset, 8)
  if (view.getUint32(0, true) !== fileSize - 8 - metadataOffset || view.getUint32(4, true) !== 0x31524150) {
    throw new ParquetBloomError(ErrorCode.FILE_CHANGED,
      `${source.name} changed since its footer was cached: its footer length or magic differ`, { source: source.name })
  }
}

/**
 * A file opened with a listing's size or ETag that changed is not the file the listing (a table's
 * snapshot) named: reading whatever replaced it would answer for another version. FILE_CHANGED (`error`,
 * when one already says so).
 * @param {HttpSource} source @param {unknown} [error]
 */
function refuseIfListed(source, error) {
  const given = source.givenVersion
  if (given.size !== undefined || given.etag !== undefined) {
    throw error ?? new ParquetBloomError(ErrorCode.FILE_CHANGED,
      `${source.name} is no longer the version options.size / options.etag describe; list it again`, { source: source.name })
  }
}
