// A byte source over a local file in Node: stat() when opened (so the size is known up front and a
// missing file is reported at once), one file descriptor opened on the first read, positioned reads.
// A call to the file system is synchronous while such calls stay fast and the read is small, else one
// of node:fs's callback functions (never node:fs/promises, whose FileHandle and promises cost two to
// three times the CPU per call). A callback is a round trip through libuv's thread pool: handing the
// call to another thread and back costs the event loop more than the call itself on a local disk (a
// dataset of 1,000 small files took twice as long that way), while a synchronous call blocks the loop
// for as long as the disk takes — microseconds from the page cache, milliseconds from a network file
// system. So synchronous calls that keep taking longer than SLOW_SYNC_MS (a few among the last dozens:
// one alone may be the collector, or the thread losing its core) turn them off for the process.
import { ErrorCode, messageOf, ParquetBloomError } from '../errors.js'
import { callSignal, SourceBase } from './shared.js'

const SYNC_MAX_BYTES = 1024 * 1024
const SLOW_SYNC_MS = 2
const SLOW_SYNC_DECAY = 0.95 // per call: a slow call counts about as long as the last 20 calls
const SLOW_SYNC_LIMIT = 3

/** @type {Promise<typeof import('node:fs')> | undefined} */
let loading
let syncCalls = true
let slowSyncCalls = 0

/**
 * @param {string} path
 * @param {import('./shared.js').SourceOptions} options
 */
export async function openFileSource(path, options) {
  // Imported here, not at the top, so the module graph still loads in browsers.
  const fs = await (loading ??= import('node:fs').then((m) => m.default))
  // A listing's size (a dataset's folder walk stat()ed every file) is checked by the tail read itself.
  if (options.fileSize !== undefined) return new FileSource(fs, path, options.fileSize, options, true)
  let stats
  try {
    stats = await call(fs, 'stat', path)
  } catch (cause) {
    throw fileError(cause, path, `opening ${path}`)
  }
  if (stats.isDirectory()) throw new ParquetBloomError(ErrorCode.IO, `${path}: is a directory, not a file`, { source: path })
  if (!stats.isFile()) {
    throw new ParquetBloomError(ErrorCode.IO, `${path} is not a regular file (a pipe, socket or device cannot be read by offset)`,
      { source: path })
  }
  return new FileSource(fs, path, stats.size, options, false, versionOf(stats))
}

/**
 * What tells one version of a local file from another while it is read: its inode (a file renamed over it is
 * another), size, and modification and change times (any write sets the change time, and no tool sets it back).
 * @param {import('node:fs').Stats} stats
 */
function versionOf(stats) {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`
}

/** @typedef {typeof import('node:fs')} NodeFs */

/**
 * node:fs's `name` (stat, open, read, fstat, close) as a promise of its result: its synchronous form while
 * those stay fast (and `small`: a read of at most SYNC_MAX_BYTES), else its callback form.
 * @overload
 * @param {NodeFs} fs
 * @param {'stat'} name
 * @param {string} path
 * @returns {Promise<import('node:fs').Stats>}
 */
/**
 * @overload
 * @param {NodeFs} fs
 * @param {'fstat'} name
 * @param {number} fd
 * @returns {Promise<import('node:fs').Stats>}
 */
/**
 * @overload
 * @param {NodeFs} fs
 * @param {'open'} name
 * @param {string} path
 * @param {string} flags
 * @returns {Promise<number>} the file descriptor
 */
/**
 * @overload
 * @param {NodeFs} fs
 * @param {'read'} name
 * @param {number} fd
 * @param {Uint8Array} buffer
 * @param {number} offset
 * @param {number} length
 * @param {number} position
 * @returns {Promise<number>} the bytes read
 */
/**
 * @overload
 * @param {NodeFs} fs
 * @param {'close'} name
 * @param {number} fd
 * @returns {Promise<void>}
 */
/**
 * @param {NodeFs} fs
 * @param {'stat' | 'fstat' | 'open' | 'read' | 'close'} name
 * @param {...unknown} args
 * @returns {Promise<unknown>}
 */
function call(fs, name, ...args) {
  // Each name's synchronous and callback forms, called by name with the arguments the overloads above give.
  const functions = /** @type {Record<string, (...args: unknown[]) => unknown>} */ (/** @type {unknown} */ (fs))
  if (syncCalls && (name !== 'read' || /** @type {number} */ (args[3]) <= SYNC_MAX_BYTES)) {
    const started = performance.now()
    try {
      return Promise.resolve(functions[`${name}Sync`](...args))
    } catch (error) {
      return Promise.reject(error)
    } finally {
      slowSyncCalls = slowSyncCalls * SLOW_SYNC_DECAY + (performance.now() - started > SLOW_SYNC_MS ? 1 : 0)
      if (slowSyncCalls > SLOW_SYNC_LIMIT) syncCalls = false
    }
  }
  return new Promise((resolve, reject) =>
    functions[name](...args, (/** @type {unknown} */ error, /** @type {unknown} */ value) => (error ? reject(error) : resolve(value))))
}

export class FileSource extends SourceBase {
  /** @type {NodeFs} */
  #fs
  #path
  /** @type {Promise<number> | undefined} the file descriptor */
  #opening
  /** @type {Set<Promise<number>>} reads in the thread pool: the descriptor is closed only after them (a closed number
   * may be reused by another open) */
  #reads = new Set()

  /** The size came from a listing and no read has confirmed it yet. */
  #listedSize
  /** @type {string | undefined} the version (versionOf) its size and first bytes are of: every read checks it still is */
  #version

  /**
   * @param {NodeFs} fs
   * @param {string} path
   * @param {number} size
   * @param {import('./shared.js').SourceOptions} options
   * @param {string} [version] versionOf the stat that gave the size (none for a listing's)
   */
  constructor(fs, path, size, options, listedSize = false, version = undefined) {
    super(path, size, options)
    this.#fs = fs
    this.#path = path
    this.#listedSize = listedSize
    this.#version = version
  }

  /**
   * With a listing's size not yet confirmed, the tail is read one byte past it: the read ending exactly
   * at that size confirms it without a stat() of its own; a file that changed since is stat()ed and read anew.
   * @param {number} length
   * @param {import('./shared.js').ReadOptions} [options]
   * @returns {Promise<{ offset: number, bytes: Uint8Array }>}
   */
  async readTail(length, options) {
    if (!this.#listedSize) return super.readTail(length, options)
    const signal = callSignal(options, 'readTail')
    this._checkOpen()
    this._checkTailLength(length)
    const size = /** @type {number} */ (this.size) // a FileSource is made with its size
    const start = Math.max(0, size - length)
    const wanted = size - start
    // A request of the source's ledger as every read is (shared.js read()): counted, clocked, in a plan.
    const request = this.io.begin(options?.purpose ?? this.readPurpose, start, wanted)
    let received = 0
    let failed = true
    let bytes
    try {
      bytes = await this.#readListedTail(start, wanted, signal, (n) => { received = n })
      failed = false
    } finally {
      request.received(received)
      request.finish(failed)
    }
    this.#listedSize = false
    return bytes ? { offset: start, bytes } : super.readTail(length, options)
  }

  /**
   * The listed tail's one read; undefined when the file is not the size listed (it is stat()ed anew).
   * @param {number} start
   * @param {number} wanted
   * @param {AbortSignal | undefined} signal
   * @param {(bytesRead: number) => void} got
   */
  #readListedTail(start, wanted, signal, got) {
    return this._operation(`reading the last ${wanted} bytes of ${this.#path}`, signal, async (operation) => {
      const fd = await operation.race(this.#open())
      const buffer = new Uint8Array(wanted + 1)
      // One read: of a regular file, a read returns less than asked only at its end.
      this.stats.requests++
      const filled = await operation.race(this.#track(call(this.#fs, 'read', fd, buffer, 0, buffer.length, start)))
      this.stats.bytesFetched += filled
      got(filled)
      const stats = await this.#stillTheVersion(fd, operation)
      if (filled === wanted) return buffer.subarray(0, wanted)
      if (!stats.isFile()) throw new ParquetBloomError(ErrorCode.IO, `${this.#path} is not a regular file`, { source: this.#path })
      this._setSize(stats.size)
      return undefined
    })
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {import('./shared.js').Operation} operation
   * @param {Uint8Array | undefined} into
   */
  async _read(offset, length, operation, into) {
    const fd = await operation.race(this.#open())
    const bytes = into ?? new Uint8Array(length)
    let filled = 0
    while (filled < length) {
      this.stats.requests++
      const bytesRead = await operation.race(this.#track(call(this.#fs, 'read', fd, bytes, filled, length - filled, offset + filled)))
      this.stats.bytesFetched += bytesRead
      if (bytesRead === 0) {
        throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
          `${this.#path} ended at byte ${offset + filled} while reading bytes ${offset}-${offset + length - 1}; it had ${this.size} ` +
            'bytes when opened, so it changed while being read',
          { source: this.#path, offset: offset + filled })
      }
      filled += bytesRead
    }
    await this.#stillTheVersion(fd, operation)
    return bytes
  }

  /**
   * The open file's stat, once it is known to be the version read so far (a rewrite in place, as cp does, would
   * put another version's bytes at this footer's offsets): FILE_CHANGED otherwise.
   * @param {number} fd
   * @param {import('./shared.js').Operation} operation
   */
  async #stillTheVersion(fd, operation) {
    const stats = await operation.race(call(this.#fs, 'fstat', fd))
    if (versionOf(stats) !== this.#version) {
      throw new ParquetBloomError(ErrorCode.FILE_CHANGED, `${this.#path} changed while it was being read (its inode, size or ` +
        'times differ from those of its first bytes): open it again', { source: this.#path })
    }
    return stats
  }

  /**
   * A read in the thread pool, kept until it ends (close() waits for it).
   * @param {Promise<number>} reading
   */
  #track(reading) {
    this.#reads.add(reading)
    const done = () => this.#reads.delete(reading)
    reading.then(done, done)
    return reading
  }

  /**
   * @param {unknown} cause
   * @param {string} what
   */
  _ioError(cause, what) {
    return fileError(cause, this.#path, what)
  }

  #open() {
    this.#opening ??= call(this.#fs, 'open', this.#path, 'r').then(
      async (fd) => {
        if (this.closed) {
          await call(this.#fs, 'close', fd).catch(() => {})
          throw new ParquetBloomError(ErrorCode.ABORTED, `${this.#path} was closed while it was being opened`, { source: this.#path })
        }
        // The version every read is checked against: a listing's file's (no stat yet) is the one opened.
        this.#version ??= versionOf(await call(this.#fs, 'fstat', fd))
        return fd
      },
      (cause) => {
        this.#opening = undefined // a later read may succeed (e.g. after a permission fix)
        throw fileError(cause, this.#path, `opening ${this.#path}`)
      })
    return this.#opening
  }

  async _close() {
    const opening = this.#opening
    if (!opening) return
    let fd
    try {
      fd = await opening
    } catch {
      return // never opened, nothing to close
    }
    // A read aborted with the source may still run in the thread pool: the descriptor stays open until it is done.
    if (this.#reads.size) await Promise.allSettled([...this.#reads])
    await call(this.#fs, 'close', fd).catch(() => {})
  }
}

/**
 * A failed file operation as a ParquetBloomError: FILE_NOT_FOUND for a missing file, IO otherwise.
 * @param {unknown} cause
 * @param {string} path
 * @param {string} what
 */
export function fileError(cause, path, what) {
  if (cause instanceof ParquetBloomError) return cause
  const code = /** @type {{ code?: unknown } | null | undefined} */ (cause)?.code // read through ?.: a primitive has none
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new ParquetBloomError(ErrorCode.FILE_NOT_FOUND, `${path}: file not found`, { cause, source: path })
    case 'EISDIR':
      return new ParquetBloomError(ErrorCode.IO, `${path}: is a directory, not a file`, { cause, source: path })
    case 'EACCES':
    case 'EPERM':
      return new ParquetBloomError(ErrorCode.IO, `permission denied: ${what} (${code})`, { cause, source: path })
    default:
      return new ParquetBloomError(ErrorCode.IO, `${what} failed: ${messageOf(cause)}`, { cause, source: path })
  }
}
