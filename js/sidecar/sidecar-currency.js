// Whether a file is still the one a sidecar index describes (docs/sidecar-index.md "Probing", step 2): its
// size and validator now — a stat for a local file, a HEAD for a URL — against what the index recorded.
// A probe checks its files a window at a time and counts each HEAD as a request of the index, so its stats
// (and a dataset's) show what answering from the index cost.
import { headObject } from '../sources/object-reads.js'
import { recordedValidator, recordedValidatorKind, sameValidator } from '../sources/validator-text.js'

/**
 * @param {unknown} input
 */
const isUrl = (input) => typeof input === 'string' && /^https?:\/\//i.test(input)

/**
 * What tells one version of a file from another: its size, and the modification time of a local file,
 * the strong ETag (else Last-Modified) of a URL, nothing for memory. A file that is gone (no such local
 * file; a URL answering 404 or 410) is size -1, which no entry matches: stale-index, never an error that
 * would take the other files' answers with it.
 * @param {any} input
 * @param {{ fetch?: typeof fetch, signal?: AbortSignal, headers?: HeadersInit,
 *   ioLane?: import('../sources/io-ledger.js').IoLane }} [options] headers: the
 *   caller's (credentials), sent with a HEAD as with the index's own reads; ioLane: where the HEAD is clocked
 * @returns {Promise<{ size: number, validator: string | null }>}
 */
export async function fileValidator(input, { fetch: fetchImpl, signal, headers, ioLane } = {}) {
  if (typeof input === 'string') {
    const found = await headObject(input, { fetch: fetchImpl, signal, headers, ioLane })
    // A server that does not tell the size (no Content-Length) cannot show the file is the one indexed.
    return found ? { size: found.size ?? Number.NaN, validator: recordedValidator(found.validator) } : { size: -1, validator: null }
  }
  if (typeof Blob === 'function' && input instanceof Blob) return { size: input.size, validator: null }
  return { size: input?.byteLength ?? -1, validator: null }
}

/**
 * Why an index does not describe a file (a stable code), as probes report it beside `stale-index`:
 * - missing-from-index: no entry names the file
 * - file-gone: no such local file; a URL answering 404 or 410
 * - size-differs: another size than the entry records
 * - validator-differs: the same kind of validator (mtime, ETag, Last-Modified), another value
 * - validator-kind-differs: the same size, a validator of another kind — an index built from local paths
 *   (mtime) probed over HTTP (ETag, Last-Modified), an ETag recorded where the server now sends only
 *   Last-Modified, or none at all: nothing says whether the file is the one indexed, so it is not taken to
 *   be. (A caller's listing without validators is taken at its word: its sizes decide.) An mtime is
 *   never compared with a Last-Modified: the server chooses that time (an object store's is the upload's,
 *   not the file's) and states it to the second, a weak validator (RFC 9110 §8.8.2.2) — a rewrite of the
 *   same size within that second would pass for the file indexed.
 * - validator-unsettled: the index recorded the file's mtime or Last-Modified (or an ETag sent with one) while it
 *   was too recent to tell versions apart (a rewrite of the same size within the file system's or server's
 *   granularity keeps it): the filters may be of a version before the file's, so the entry describes no file,
 *   whatever is found now.
 * - ambiguous-in-index (format 2): two entries share the file's identity (or path) hash, so the index
 *   cannot say which describes it; it describes neither.
 * - row-groups-differ: the file passed the check, but its footer, once read, has another number of row groups, or a
 *   row group of another row count, than the entry: a file replaced by one of the same size where no validator tells
 *   them apart. The index's answer for its row group g would be of another group's (or file's) values.
 */
export const StaleReason = Object.freeze({
  MISSING_FROM_INDEX: 'missing-from-index',
  FILE_GONE: 'file-gone',
  SIZE_DIFFERS: 'size-differs',
  VALIDATOR_DIFFERS: 'validator-differs',
  VALIDATOR_KIND_DIFFERS: 'validator-kind-differs',
  VALIDATOR_UNSETTLED: 'validator-unsettled',
  AMBIGUOUS_IN_INDEX: 'ambiguous-in-index',
  ROW_GROUPS_DIFFER: 'row-groups-differ',
})

/**
 * The kind of a validator as recorded (`mtime:…`, `etag:…`, `last-modified:…`, `unsettled-…`); 'other' for one
 * given in another form (a caller's listing), null for none.
 * @param {string | null | undefined} validator
 * @returns {'mtime' | 'etag' | 'last-modified' | 'unsettled' | 'other' | null}
 */
export function validatorKind(validator) {
  return recordedValidatorKind(validator)
}

const KIND_NAMES = {
  'mtime': 'a local modification time',
  'etag': 'an ETag',
  'last-modified': 'a Last-Modified date',
  'unsettled': 'a validator too recent to tell versions apart',
  'other': 'a validator of another form',
  'none': 'no validator',
}

/**
 * Whether an entry describes the file as it is now; when not, why (`reason`, a StaleReason code) and, for
 * validators of different kinds, which (`validators: { recorded, found }`).
 * @param {{ size: number, validator: string | null }} entry
 * @param {{ size: number, validator?: string | null }} now
 * @param {{ checked?: boolean }} [how] checked: `now` is the file's stat or HEAD (fileValidator), not a
 *   caller's listing — a HEAD without a validator, where the entry has one, cannot show the file unchanged
 * @returns {{ current: boolean, reason?: string, detail?: string, validators?: { recorded: string, found: string } }}
 */
export function currency(entry, now, { checked = false } = {}) {
  if (now.size < 0) return { current: false, reason: StaleReason.FILE_GONE, detail: 'the file is gone' }
  if (now.size !== entry.size) {
    return { current: false, reason: StaleReason.SIZE_DIFFERS, detail: `its size is ${now.size}, the index recorded ${entry.size}` }
  }
  if (validatorKind(entry.validator) === 'unsettled') {
    return { current: false, reason: StaleReason.VALIDATOR_UNSETTLED,
      detail: `the index recorded ${entry.validator}: a validator too recent when recorded to tell the file's versions apart` }
  }
  if (entry.validator && (now.validator ? !sameValidator(entry.validator, now.validator) : checked)) {
    // Not null: entry.validator is set.
    const recorded = /** @type {Exclude<ReturnType<typeof validatorKind>, null>} */ (validatorKind(entry.validator))
    const found = validatorKind(now.validator) ?? 'none'
    if (recorded !== found) {
      return { current: false, reason: StaleReason.VALIDATOR_KIND_DIFFERS, validators: { recorded, found },
        detail: `its size matches, but the index recorded ${KIND_NAMES[recorded]} (${entry.validator}) ` +
          `and the file has ${KIND_NAMES[found]}${now.validator ? ` (${now.validator})` : ''}: ` +
          'validators of different kinds cannot be compared' }
    }
    return { current: false, reason: StaleReason.VALIDATOR_DIFFERS,
      detail: `its validator is ${now.validator}, the index recorded ${entry.validator}` }
  }
  return { current: true }
}

/**
 * Starts the validators of `paths` (distinct), at most `window` in flight — a dataset of 10,000 files
 * must not open 10,000 connections at once. Returns each path's promise (awaited only where used: a
 * failed check of a file the probe ends up not needing fails nothing), how many HEADs were sent and the
 * rounds they take (a window of requests each).
 * @param {string[]} paths
 * @param {{ fetch?: typeof globalThis.fetch, signal?: AbortSignal, headers?: HeadersInit, origin?: string, window: number,
 *   ioLane?: import('../sources/io-ledger.js').IoLane }} options
 *   headers: sent with the HEADs of URLs of `origin` (the index's) only; ioLane: where the HEADs are clocked and
 *   recorded (a probe's ledger)
 * @returns {{ checks: Map<string, Promise<{ size: number, validator: string | null }>>, requests: number, rounds: number,
 *   settled: Promise<unknown> }}
 */
export function startValidators(paths, { fetch, signal, headers, origin, window, ioLane }) {
  // The caller's headers (credentials for the index's host) go only to that origin, as HttpSource keeps
  // them from other origins' redirects.
  /** @param {string} path */
  const headersFor = (path) => (headers && origin && isUrl(path) && new URL(path).origin === origin ? headers : undefined)
  const checks = new Map()
  let running = 0
  /** @type {Array<() => void>} */
  const queue = []
  const release = () => {
    running--
    queue.shift()?.()
  }
  const slot = () => (running < window ? (running++, Promise.resolve())
    : /** @type {Promise<void>} */ (new Promise((go) => queue.push(() => { running++; go(undefined) }))))
  for (const path of paths) {
    const check = slot().then(() => fileValidator(path, { fetch, signal, headers: headersFor(path), ioLane })).finally(release)
    check.catch(() => {}) // seen where it is awaited
    checks.set(path, check)
  }
  const requests = paths.filter(isUrl).length
  return { checks, requests, rounds: Math.ceil(requests / window), settled: Promise.allSettled(checks.values()) }
}
