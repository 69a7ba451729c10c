// Where a rewritten file or an index goes: a Node file path (written to a temporary file beside it and
// renamed when complete, so a failure never leaves half a file under the name), a Node Writable, a WHATWG
// WritableStream, or — for `null` — memory, handed back as a Blob. Writes wait for the destination
// (backpressure), so memory holds one write at a time.
import { ErrorCode, ParquetBloomError } from '../errors.js'

/**
 * @typedef {{ write: (bytes: Uint8Array) => Promise<void>, close: () => Promise<Blob | undefined>,
 *   abort: (error: unknown) => Promise<void>,
 *   written: number }} Sink
 * @typedef {{ write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean,
 *   once(event: 'drain', listener: () => void): unknown, end(callback: (error?: Error | null) => void): unknown,
 *   destroy?: (error?: Error) => void }} NodeWritable what of a Node Writable is used
 */

/**
 * @param {string | NodeJS.WritableStream | WritableStream | null} target
 * @param {{ copyOf?: string }} [options] copyOf: the local file a path target copies, whose permission bits a new
 *   file gets (as cp gives them): a copy of a private file is private too
 * @returns {Promise<Sink>}
 */
export async function openSink(target, { copyOf } = {}) {
  if (target === null || target === undefined) return memorySink()
  if (typeof target === 'string') return fileSink(target, copyOf)
  if (typeof (/** @type {any} */ (target).getWriter) === 'function') return webSink(/** @type {WritableStream} */ (target))
  if (typeof (/** @type {any} */ (target).write) === 'function' && typeof (/** @type {any} */ (target).end) === 'function') {
    return nodeSink(/** @type {any} */ (target))
  }
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
    'the sink must be a file path, a Node Writable, a WritableStream, or null (a Blob)')
}

/**
 * @param {Omit<Sink, 'written'>} sink
 * @returns {Sink}
 */
function counted(sink) {
  const counting = /** @type {Sink} */ (sink) // its count starts here
  const write = counting.write
  counting.written = 0
  counting.write = async (bytes) => {
    await write(bytes)
    counting.written += bytes.length
  }
  return counting
}

function memorySink() {
  /** @type {Uint8Array<ArrayBuffer>[]} copies (slice()), so a caller may reuse its buffers */
  const parts = []
  return counted({
    write: async (bytes) => { parts.push(bytes.slice()) },
    close: async () => new Blob(parts),
    abort: async () => { parts.length = 0 },
  })
}

/**
 * A file written whole under a temporary name; it keeps the permission bits of the file it replaces (a file rewritten
 * in place stays as private as it was), else a new one gets those of the file it copies (the umask applies).
 * @param {string} path
 * @param {string} [copyOf]
 */
async function fileSink(path, copyOf) {
  const { open, rename, stat, unlink } = await import('node:fs/promises')
  const temporary = `${path}.partial-${process.pid}-${Date.now()}`
  /** @param {string} file */
  const modeOf = async (file) => stat(file).then((s) => s.mode & 0o777, () => undefined)
  const replaced = await modeOf(path)
  const copied = copyOf === undefined ? undefined : await modeOf(copyOf)
  let handle
  try {
    // Created with those bits (less the umask), so never readable by more than the result; a replaced file's exactly.
    handle = await open(temporary, 'w', replaced ?? copied ?? 0o666)
    if (replaced !== undefined) await handle.chmod(replaced)
  } catch (cause) {
    await handle?.close().catch(() => {})
    if (handle) await unlink(temporary).catch(() => {})
    throw new ParquetBloomError(ErrorCode.IO, `${path}: cannot be written: ${/** @type {Error} */ (cause)?.message ?? cause}`,
      { cause, source: path })
  }
  return counted({
    write: async (bytes) => {
      let at = 0
      while (at < bytes.length) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten
    },
    close: async () => {
      await handle.close()
      await rename(temporary, path)
      return undefined
    },
    abort: async () => {
      await handle.close().catch(() => {})
      await unlink(temporary).catch(() => {})
    },
  })
}

/** @param {WritableStream<Uint8Array>} stream */
function webSink(stream) {
  const writer = stream.getWriter()
  return counted({
    write: async (bytes) => {
      await writer.ready
      await writer.write(bytes.slice())
    },
    close: async () => {
      await writer.close()
      return undefined
    },
    abort: async (error) => { await writer.abort(error).catch(() => {}) },
  })
}

/** @param {NodeWritable} stream */
function nodeSink(stream) {
  return counted({
    write: (bytes) => /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
      const ok = stream.write(bytes.slice(), (error) => { if (error) reject(error) })
      if (ok) resolve()
      else stream.once('drain', () => resolve())
    })),
    close: () => new Promise((resolve, reject) => {
      stream.end((error) => (error ? reject(error) : resolve(undefined)))
    }),
    abort: async (error) => { stream.destroy?.(error instanceof Error ? error : undefined) },
  })
}
