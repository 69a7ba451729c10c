// Whole objects by location — an http(s) URL or a local path — read, opened or HEADed under the rules a
// URL's range reads follow (js/sources/http-source.js): transient failures retried with the same bounded
// backoff, the request timeout and the caller's signal, credentials kept out of every message, the Node
// keep-alive transport unless a fetch is given, a missing object told apart from a failure, and the
// object's validator. A table's metadata files and a sidecar index's checks of its files come here.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { fileError } from './file-source.js'
import { describeCause, fetchFor, fetchWithin, identityLength, networkError, redactUrl, refuseUserinfo, releaseBody, requestHeaders,
  statusError } from './http-request.js'
import { isTransientFailure, resolveRetries, sleepWithin, withRetries } from './retry.js'
import { looseLane } from './io-ledger.js'
import { concatChunks, forEachChunk, resolveOptions, runOperation, withKeys } from './shared.js'
import { validatorFromHeaders } from './validator.js'
import { parseContentRange } from './http-source.js'

/**
 * What every read of a whole object takes: openParquet's reading options (fetch, headers, signal,
 * requestTimeoutMs, userAgent, retries), and `stats`, counted into: each request sent (retries included,
 * as a byte source counts them; a local read is one), the body bytes received, and the retries. `ioLane`:
 * the ledger lane its requests are clocked and recorded in (js/sources/io-ledger.js), as `purpose` (a
 * READ_PURPOSES code; a HEAD is always `head`); else a lane of their own.
 * @typedef {{ fetch?: Function, headers?: HeadersInit, signal?: AbortSignal, requestTimeoutMs?: number, userAgent?: string,
 *   retries?: number, stats?: { requests: number, bytesFetched: number, retries: number, [count: string]: number },
 *   ioLane?: import('./io-ledger.js').IoLane, purpose?: string }} ObjectReadOptions
 */

// A URL answering one of these has no object there.
const GONE = new Set([404, 410])

const isUrl = (/** @type {string | URL} */ location) => location instanceof URL || /^https?:\/\//i.test(location)

/**
 * The object's bytes; null when it does not exist and `optional` says it need not (else FILE_NOT_FOUND).
 * `forbiddenIsMissing`: with `optional`, a 403 is its absence too (S3 without s3:ListBucket).
 * @param {string | URL} location
 * @param {ObjectReadOptions & { optional?: boolean, forbiddenIsMissing?: boolean }} [options]
 * @returns {Promise<Uint8Array | null>}
 */
export async function readObject(location, options = {}) {
  const reader = objectReader(location, options)
  if (reader.local) {
    return reader.local(`reading ${reader.name}`, async (fs, op) => {
      try {
        return await readFileWithin(fs, op, reader)
      } catch (cause) {
        if (options.optional && isMissingFile(cause)) return null
        throw cause
      }
    })
  }
  return reader.exchange('GET', async (response, op) => {
    if (response.ok) return readBody(response, op, reader)
    if (options.optional && missing(response.status, options.forbiddenIsMissing)) return null
    throw reader.statusError(response, 'GET')
  })
}

/**
 * The object's first `length` bytes (fewer when it is shorter) and its total size — a Range request of a
 * URL (the size from Content-Range, undefined when the response has none usable; a server that ignores the
 * range sends it whole), a read of a local file's start and a stat — or null when it does not exist (404,
 * 410, or with `forbiddenIsMissing` 403; no such file).
 * @param {string | URL} location
 * @param {number} length
 * @param {ObjectReadOptions & { forbiddenIsMissing?: boolean }} [options]
 * @returns {Promise<{ bytes: Uint8Array, size: number | undefined } | null>}
 */
export async function readObjectStart(location, length, options = {}) {
  const reader = objectReader(location, withKeys(options, { range: `bytes=0-${length - 1}` }))
  if (reader.local) {
    return reader.local(`reading ${reader.name}`, async (fs, op) => {
      let handle
      try {
        handle = await op.race(fs.open(reader.name, 'r'))
      } catch (cause) {
        if (isMissingFile(cause)) return null
        throw cause
      }
      try {
        const { size } = await op.race(handle.stat())
        const bytes = new Uint8Array(Math.min(length, size))
        const { bytesRead } = await op.race(handle.read(bytes, 0, bytes.length, 0))
        reader.stats.bytesFetched += bytesRead
        reader.record?.received(bytesRead)
        return { bytes: bytes.subarray(0, bytesRead), size }
      } finally {
        await handle.close()
      }
    })
  }
  return reader.exchange('GET', async (response, op) => {
    if (response.status === 416) {
      // Nothing at offset 0: an empty object.
      const unsatisfied = parseContentRange(response.headers.get('content-range'))
      return { bytes: new Uint8Array(0), size: unsatisfied?.total ?? 0 }
    }
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get('content-range'))
      const bytes = await readBody(response, op, reader)
      // No Content-Range a browser may read (not exposed), or another range than asked: the size is not known.
      const usable = range && !range.unsatisfied && range.start === 0 && range.total !== undefined
      return { bytes: bytes.subarray(0, length), size: usable ? range.total : undefined }
    }
    if (response.ok) {
      const bytes = await readBody(response, op, reader)
      return { bytes: bytes.subarray(0, length), size: bytes.byteLength }
    }
    if (missing(response.status, options.forbiddenIsMissing)) return null
    throw reader.statusError(response, 'GET')
  })
}

/**
 * The object, if it exists, as a handle that reads or drops its body: asking several names that may exist
 * and reading only the body of the one chosen costs requests, not bytes. Null when it does not exist (a
 * 404, 410 or — see readObject's forbiddenIsMissing — 403). The body read is retried like a read.
 * @param {string | URL} location
 * @param {ObjectReadOptions} [options]
 * @returns {Promise<{ read: () => Promise<Uint8Array>, cancel: () => Promise<void> } | null>}
 */
export async function openObject(location, options = {}) {
  const reader = objectReader(location, options)
  if (reader.local) {
    const exists = await reader.local(`opening ${reader.name}`, async (fs, op) => {
      try {
        await op.race(fs.stat(reader.name))
        return true
      } catch (cause) {
        if (isMissingFile(cause)) return false
        throw cause
      }
    })
    if (!exists) return null
    // One request counted, the stat: the read that follows is of the object found.
    return { read: () => reader.local(`reading ${reader.name}`, (fs, op) => readFileWithin(fs, op, reader), { counted: false }),
      cancel: async () => {} }
  }
  const response = await reader.exchange('GET', async (response) => {
    if (response.ok) return { response }
    if (missing(response.status, true)) return null
    throw reader.statusError(response, 'GET')
  }, { keepBody: true })
  if (!response) return null
  const body = response.response
  return {
    read: async () => {
      try {
        return await runOperation(`reading ${reader.name}`, reader.name, [reader.signal], reader.timeoutMs, (op) =>
          readBody(body, op, reader), reader.ioError)
      } catch (error) {
        // The connection dropped mid-body (or timed out): read it anew, with the retries left.
        if (reader.retries === 0 || !isTransientFailure(error)) throw error
        reader.stats.retries++
        const bytes = await readObject(location, withKeys(options, { retries: reader.retries - 1 }))
        return /** @type {Uint8Array} */ (bytes)
      }
    },
    cancel: async () => { releaseBody(body) },
  }
}

/**
 * The object's size and validator — a stat of a local file (its modification and change times), a HEAD of a URL
 * (its strong ETag, else Last-Modified) — or null when it does not exist (no such file; 404 or 410).
 * `size` is undefined when a server does not tell it.
 * @param {string | URL} location
 * @param {ObjectReadOptions} [options]
 * @returns {Promise<{ size: number | undefined, validator: import('./validator.js').Validator } | null>}
 */
export async function headObject(location, options = {}) {
  const reader = objectReader(location, options, 'head')
  if (reader.local) {
    return reader.local(`checking ${reader.name}`, async (fs, op) => {
      try {
        const info = await op.race(fs.stat(reader.name))
        return { size: info.size, validator: { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs } }
      } catch (cause) {
        if (isMissingFile(cause)) return null
        throw cause
      }
    })
  }
  return reader.exchange('HEAD', async (response) => {
    if (response.ok) return { size: identityLength(response), validator: validatorFromHeaders(response.headers) }
    if (GONE.has(response.status)) return null
    throw reader.statusError(response, 'HEAD')
  })
}

/**
 * What reading an object's body needs of its reader (objectReader): its name, counts, and the request in progress.
 * @typedef {{ name: string, stats: { bytesFetched: number }, record: import('./io-ledger.js').IoRequest | undefined }} BodyReader
 */

/** What a read of one object needs, its options checked once. */
/**
 * @param {string | URL} location
 * @param {ObjectReadOptions & { range?: string }} options range: a Range header's value
 */
function objectReader(location, options, purpose = options.purpose ?? 'table-metadata') {
  const settings = resolveOptions(options)
  const retries = resolveRetries(settings.retries)
  const stats = options.stats ?? { requests: 0, bytesFetched: 0, retries: 0 }
  /** Opens a ledger entry for one request of the object (named apart when the lane is not the object's). */
  const begin = (/** @type {string} */ name, /** @type {boolean} */ retry) => {
    const lane = options.ioLane ?? looseLane(name)
    const record = lane.begin(purpose, purpose === 'head' ? null : 0, null, retry)
    if (lane.name !== name) record.name = name
    return record
  }
  const signal = settings.signal
  const timeoutMs = settings.requestTimeoutMs
  if (!isUrl(location)) {
    const name = String(location)
    const ioError = (/** @type {unknown} */ cause) => fileError(cause, name, `reading ${name}`)
    const reader = {
      name, stats, signal, timeoutMs, retries, ioError, exchange: undefined, statusError: undefined,
      /** @type {import('./io-ledger.js').IoRequest | undefined} the request in progress, for its bytes */
      record: undefined,
      /**
       * @template T
       * @param {string} what
       * @param {(fs: typeof import('node:fs/promises'), op: import('./shared.js').Operation) => Promise<T>} fn
       */
      local: async (what, fn, { counted = true } = {}) => {
        if (counted) stats.requests++
        // A stat of a local file to check it (a HEAD's counterpart) is no request a server sees: not in the ledger.
        const record = counted && purpose !== 'head' ? begin(name, false) : undefined
        if (record) reader.record = record
        let failed = true
        try {
          // Imported here, not at the top, so the module graph still loads in browsers.
          const fs = await import('node:fs/promises')
          const result = await runOperation(what, name, [signal], timeoutMs, (op) => fn(fs, op), (cause) => fileError(cause, name, what))
          failed = false
          return result
        } finally {
          record?.finish(failed)
        }
      },
    }
    return reader
  }
  const url = new URL(String(location))
  refuseUserinfo(url)
  const name = redactUrl(url)
  const fetchFn = fetchFor(settings.fetch, name)
  const headers = options.range ? withKeys(requestHeaders(settings), { range: options.range }) : requestHeaders(settings)
  const ioError = (/** @type {any} */ cause) =>
    new ParquetBloomError(ErrorCode.IO, `reading ${name} failed: ${describeCause(cause)}`, { cause, source: name })
  // What a browser needs to read it across origins: the caller's headers allowed, and for a HEAD the
  // headers it reads exposed.
  const callerHeaders = Object.keys(headers).some((h) => h !== 'accept-encoding' && h !== 'user-agent')
  const cors = (/** @type {string} */ method) =>
    `the server must allow this origin${callerHeaders ? ' and the request headers given' : ''}` +
    (method === 'HEAD' ? ', and expose Content-Length, ETag and Last-Modified' : '')
  const reader = {
    name, stats, signal, timeoutMs, retries, ioError, local: undefined,
    /** @type {import('./io-ledger.js').IoRequest | undefined} the request in progress, for its bytes */
    record: undefined,
    /**
     * One request, retried while it fails transiently; `onResponse` decides what its response means
     * (and reads its body within the same operation). keepBody: the body is left open for the caller.
     * @template T
     * @param {'GET' | 'HEAD'} method
     * @param {(response: Response, op: import('./shared.js').Operation) => Promise<T>} onResponse
     * @returns {Promise<T>}
     */
    exchange: (method, onResponse, { keepBody = false } = {}) => withRetries(async (attempt) => {
      const what = `${method === 'HEAD' ? 'checking' : 'reading'} ${name}`
      /** @type {import('./io-ledger.js').IoRequest | undefined} */
      let record
      let failed = true
      try {
        const answer = await runOperation(what, name, [signal], timeoutMs, async (op) => {
          stats.requests++
          record = reader.record = begin(name, attempt > 0)
          const response = await fetchWithin(op, fetchFn, url.href, method, headers, false, record).catch((cause) => {
            throw networkError(op, cause, what, name, cors(method))
          })
          let kept = false
          try {
            const result = await onResponse(response, op)
            kept = keepBody && result !== null
            return result
          } finally {
            if (!kept) releaseBody(response)
          }
        }, ioError)
        failed = false
        return answer
      } finally {
        record?.finish(failed)
      }
    }, {
      retries,
      pause: (ms) => runOperation(`waiting to retry ${name}`, name, [signal], undefined, (op) => sleepWithin(ms, op), ioError),
      onRetry: () => { stats.retries++ },
    }),
    /** @param {Response} response @param {string} method */
    statusError: (response, method) => statusError(response, `from ${name} for ${method}`, name, 'expected 200 OK'),
  }
  return reader
}

/**
 * The body whole, its bytes counted as they come; BAD_RESPONSE_LENGTH when it ends short of its Content-Length.
 * @param {Response} response
 * @param {import('./shared.js').Operation} op
 * @param {BodyReader} reader
 */
async function readBody(response, op, reader) {
  const declared = identityLength(response)
  /** @type {Uint8Array[]} */
  const chunks = []
  let received = 0
  if (response.body) {
    const record = reader.record
    await forEachChunk(response.body, op, (chunk) => {
      reader.stats.bytesFetched += chunk.byteLength
      record?.received(chunk.byteLength)
      received += chunk.byteLength
      chunks.push(chunk)
    }, (/** @type {any} */ cause) =>
      new ParquetBloomError(ErrorCode.IO, `the connection to ${reader.name} failed after ${received} bytes: ${describeCause(cause)}`,
      { cause, source: reader.name }))
  }
  if (declared !== undefined && received !== declared) {
    throw new ParquetBloomError(ErrorCode.BAD_RESPONSE_LENGTH,
      `${reader.name} sent ${received} of the ${declared} bytes it promised: the body ended early`, { source: reader.name })
  }
  return concatChunks(chunks, received)
}

/**
 * Whether a status says an object that may not exist does not. S3 answers 403 (AccessDenied), not 404,
 * for a key that does not exist when the requester may not list the bucket (s3:ListBucket): where an
 * object is only possibly there (a table's next commit, a metadata version probed for), that is its
 * absence too; an object that must exist answering 403 stays an error.
 * @param {number} status
 * @param {boolean | undefined} forbiddenIsMissing
 */
function missing(status, forbiddenIsMissing) {
  return GONE.has(status) || (forbiddenIsMissing === true && status === 403)
}

/** @param {unknown} thrown read through ?.: a primitive has no code */
function isMissingFile(thrown) {
  const cause = /** @type {{ code?: unknown } | null | undefined} */ (thrown)
  return cause?.code === 'ENOENT' || cause?.code === 'ENOTDIR'
}

/**
 * @param {typeof import('node:fs/promises')} fs
 * @param {import('./shared.js').Operation} op
 * @param {BodyReader} reader
 */
async function readFileWithin(fs, op, reader) {
  const bytes = new Uint8Array(await op.race(fs.readFile(reader.name, { signal: op.signal })))
  reader.stats.bytesFetched += bytes.byteLength
  reader.record?.received(bytes.byteLength)
  return bytes
}
