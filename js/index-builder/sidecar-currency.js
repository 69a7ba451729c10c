// Whether a file is still the one a sidecar index describes (docs/sidecar-index.md "Probing", step 2): its
// size and validator now — a stat for a local file, a HEAD for a URL — against what the index recorded.
// A probe checks its files a window at a time and counts each HEAD as a request of the index, so its stats
// (and a dataset's) show what answering from the index cost.
import { ErrorCode, ParquetBloomError } from '../errors.js'

const isUrl = (input) => typeof input === 'string' && /^https?:\/\//i.test(input)

/**
 * What tells one version of a file from another: its size, and the modification time of a local file,
 * the strong ETag (else Last-Modified) of a URL, nothing for memory. A file that is gone (no such local
 * file; a URL answering 404 or 410) is size -1, which no entry matches: stale-index, never an error that
 * would take the other files' answers with it.
 * @param {any} input
 * @param {{ fetch?: typeof fetch, signal?: AbortSignal, headers?: HeadersInit }} [options] headers: the
 *   caller's (credentials), sent with a HEAD as with the index's own reads
 * @returns {Promise<{ size: number, validator: string | null }>}
 */
export async function fileValidator(input, { fetch: fetchImpl = globalThis.fetch, signal, headers } = {}) {
  if (isUrl(input)) {
    const response = await fetchImpl(input, { method: 'HEAD', signal, ...(headers ? { headers } : {}) })
    if (response.status === 404 || response.status === 410) return { size: -1, validator: null }
    if (!response.ok) throw new ParquetBloomError(ErrorCode.HTTP_STATUS, `${input}: HEAD answered ${response.status}`, { status: response.status, source: input })
    const etag = response.headers.get('etag')
    const lastModified = response.headers.get('last-modified')
    const validator = etag && !etag.startsWith('W/') ? `etag:${etag}` : lastModified ? `last-modified:${lastModified}` : null
    return { size: Number(response.headers.get('content-length')), validator }
  }
  if (typeof input === 'string') {
    const { stat } = await import('node:fs/promises')
    try {
      const info = await stat(input)
      return { size: info.size, validator: `mtime:${info.mtimeMs}` }
    } catch (cause) {
      if (cause?.code === 'ENOENT') return { size: -1, validator: null }
      throw new ParquetBloomError(ErrorCode.IO, `${input}: ${cause?.message ?? cause}`, { cause, source: input })
    }
  }
  if (typeof Blob === 'function' && input instanceof Blob) return { size: input.size, validator: null }
  return { size: input?.byteLength ?? -1, validator: null }
}

/**
 * Whether an entry describes the file as it is now.
 * @param {{ size: number, validator: string | null }} entry
 * @param {{ size: number, validator?: string | null }} now
 * @returns {{ current: boolean, detail?: string }}
 */
export function currency(entry, now) {
  if (now.size !== entry.size) return { current: false, detail: now.size < 0 ? 'the file is gone' : `its size is ${now.size}, the index recorded ${entry.size}` }
  if (now.validator && entry.validator && now.validator !== entry.validator) return { current: false, detail: `its validator is ${now.validator}, the index recorded ${entry.validator}` }
  return { current: true }
}

/**
 * Starts the validators of `paths` (distinct), at most `window` in flight — a dataset of 10,000 files
 * must not open 10,000 connections at once. Returns each path's promise (awaited only where used: a
 * failed check of a file the probe ends up not needing fails nothing), how many HEADs were sent and the
 * rounds they take (a window of requests each).
 * @param {string[]} paths
 * @param {{ fetch?: typeof globalThis.fetch, signal?: AbortSignal, headers?: HeadersInit, origin?: string, window: number }} options
 *   headers: sent with the HEADs of URLs of `origin` (the index's) only
 * @returns {{ checks: Map<string, Promise<{ size: number, validator: string | null }>>, requests: number, rounds: number, settled: Promise<unknown> }}
 */
export function startValidators(paths, { fetch, signal, headers, origin, window }) {
  // The caller's headers (credentials for the index's host) go only to that origin, as HttpSource keeps
  // them from other origins' redirects.
  const headersFor = (path) => (headers && origin && isUrl(path) && new URL(path).origin === origin ? headers : undefined)
  const checks = new Map()
  let running = 0
  const queue = []
  const release = () => {
    running--
    queue.shift()?.()
  }
  const slot = () => (running < window ? (running++, Promise.resolve())
    : /** @type {Promise<void>} */ (new Promise((go) => queue.push(() => { running++; go(undefined) }))))
  for (const path of paths) {
    const check = slot().then(() => fileValidator(path, { fetch, signal, headers: headersFor(path) })).finally(release)
    check.catch(() => {}) // seen where it is awaited
    checks.set(path, check)
  }
  const requests = paths.filter(isUrl).length
  return { checks, requests, rounds: Math.ceil(requests / window), settled: Promise.allSettled(checks.values()) }
}
