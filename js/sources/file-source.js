// A byte source over a local file in Node: stat() when opened (so the size is known up front and a
// missing file is reported at once), one file handle opened on the first read, positioned reads.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { SourceBase } from './shared.js'

/**
 * @param {string} path
 * @param {import('./shared.js').SourceOptions} options
 */
export async function openFileSource(path, options) {
  // Imported here, not at the top, so the module graph still loads in browsers.
  const fs = await import('node:fs/promises')
  let stats
  try {
    stats = await fs.stat(path)
  } catch (cause) {
    throw fileError(cause, path, `opening ${path}`)
  }
  if (stats.isDirectory()) throw new ParquetBloomError(ErrorCode.IO, `${path} is a directory, not a file`, { source: path })
  if (!stats.isFile()) throw new ParquetBloomError(ErrorCode.IO, `${path} is not a regular file (a pipe, socket or device cannot be read by offset)`, { source: path })
  return new FileSource(fs, path, stats.size, options)
}

export class FileSource extends SourceBase {
  #fs
  #path
  /** @type {Promise<import('node:fs/promises').FileHandle> | undefined} */
  #opening

  constructor(fs, path, size, options) {
    super(path, size, options)
    this.#fs = fs
    this.#path = path
  }

  async _read(offset, length, operation, into) {
    const handle = await operation.race(this.#open())
    const bytes = into ?? new Uint8Array(length)
    let filled = 0
    while (filled < length) {
      this.stats.requests++
      const { bytesRead } = await operation.race(handle.read(bytes, filled, length - filled, offset + filled))
      this.stats.bytesFetched += bytesRead
      if (bytesRead === 0) {
        throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
          `${this.#path} ended at byte ${offset + filled} while reading bytes ${offset}-${offset + length - 1}; it had ${this.size} bytes when opened, so it changed while being read`,
          { source: this.#path, offset: offset + filled })
      }
      filled += bytesRead
    }
    return bytes
  }

  _ioError(cause, what) {
    return fileError(cause, this.#path, what)
  }

  #open() {
    this.#opening ??= this.#fs.open(this.#path, 'r').then(
      async (handle) => {
        if (this.closed) {
          await handle.close()
          throw new ParquetBloomError(ErrorCode.ABORTED, `${this.#path} was closed while it was being opened`, { source: this.#path })
        }
        return handle
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
    let handle
    try {
      handle = await opening
    } catch {
      return // never opened, nothing to close
    }
    // FileHandle.close() waits for reads still running on it.
    await handle.close().catch(() => {})
  }
}

/** A failed file operation as a ParquetBloomError: FILE_NOT_FOUND for a missing file, IO otherwise. */
export function fileError(cause, path, what) {
  if (cause instanceof ParquetBloomError) return cause
  switch (cause?.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new ParquetBloomError(ErrorCode.FILE_NOT_FOUND, `file not found: ${path}`, { cause, source: path })
    case 'EISDIR':
      return new ParquetBloomError(ErrorCode.IO, `${path} is a directory, not a file`, { cause, source: path })
    case 'EACCES':
    case 'EPERM':
      return new ParquetBloomError(ErrorCode.IO, `permission denied: ${what} (${cause.code})`, { cause, source: path })
    default:
      return new ParquetBloomError(ErrorCode.IO, `${what} failed: ${cause?.message ?? cause}`, { cause, source: path })
  }
}
