// Runs byte-range reads for many row groups at once: gathers what each task still needs, skips bytes
// already held, coalesces nearby ranges into few requests, sends them with bounded concurrency, and
// hands each task its bytes as soon as its own requests are in — so memory follows what is in flight.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { mergeForRounds } from './link-model.js'

export const DEFAULT_REQUESTS_IN_FLIGHT = 6
export const DEFAULT_COALESCE_GAP = 1024 // always joined: a request's own overhead; merging for fewer rounds is js/plan/link-model.js's
export const BLOCK_MODE_COALESCE_GAP = 64 // a header and a block that follows it closely
export const DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024
const MAX_ROUNDS = 4

/**
 * A task reads the bytes of one row group's filter in steps. `step(lookup)` either finishes (returns
 * null) or returns the ranges it needs next: [{ start, end }]. `lookup(start, end)` returns the bytes
 * of [start, end) when this task or the file cache holds them. `purpose`: what its reads are for (RangeTask).
 * @typedef {{ step(lookup: (start: number, end: number) => Uint8Array | undefined): Array<{start: number, end: number}> | null,
 *   giveUp(reason: string): void, purpose?: string }} ReadTask
 */

/**
 * One task's need, and a request serving needs (js/plan/link-model.js Span).
 * @typedef {{ task: number, start: number, end: number }} Part
 * @typedef {import('./link-model.js').Span<Part>} Request
 */

/**
 * Reads one byte range whole and hands it over (a dictionary page, a page index, data pages to confirm).
 * `purpose`: what for, in a read plan (a READ_PURPOSES code, js/sources/io-ledger.js); else the source's.
 */
export class RangeTask {
  /**
   * @param {number} start
   * @param {number} end
   * @param {(bytes: Uint8Array) => void} onBytes
   * @param {string} [purpose]
   */
  constructor(start, end, onBytes, purpose) {
    this.start = start
    this.end = end
    this.onBytes = onBytes
    this.purpose = purpose
  }

  /** @param {(start: number, end: number) => Uint8Array | undefined} lookup */
  step(lookup) {
    const bytes = lookup(this.start, this.end)
    if (!bytes) return [{ start: this.start, end: this.end }]
    this.onBytes(bytes)
    return null
  }

  giveUp() {}
}

/**
 * `source`: a ByteSource; its maxBytes, when it has one, bounds a merged request.
 * @typedef {{ source: import('../sources/open-byte-source.js').ByteSource & { maxBytes?: number }, cache: ByteCache,
 *   concurrency?: number, planWindow?: number, coalesceGap?: number, maxRequestBytes?: number,
 *   signal?: AbortSignal, link?: import('./link-model.js').LinkModel }} ReadTasksOptions
 */

/**
 * Each wave's requests are merged for the fewest modelled rounds (js/plan/link-model.js) when a `link` is
 * given, and every response's timing goes back into it. Returns the rounds taken: per wave, its
 * requests over the window. `planWindow` (default `concurrency`) is the window the merge plans for: a
 * dataset's file plans for its share of a window that other files' reads use too, and still sends up to
 * `concurrency` at once.
 * @param {ReadTask[]} tasks
 * @param {ReadTasksOptions} options
 * @returns {Promise<{ rounds: number }>}
 */
export async function runReadTasks(tasks, { source, cache, concurrency = DEFAULT_REQUESTS_IN_FLIGHT, coalesceGap = DEFAULT_COALESCE_GAP,
  maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES, signal, link, planWindow = concurrency } = /** @type {ReadTasksOptions} */ ({})) {
  checkConcurrency(concurrency)
  // A merged request must stay a read the source accepts: each range may fit where their union does not.
  if (source.maxBytes !== undefined && Number.isFinite(source.maxBytes)) maxRequestBytes = Math.min(maxRequestBytes, source.maxBytes)
  /** @type {Array<Array<{ start: number, bytes: Uint8Array }>>} each task's bytes read so far */
  const held = tasks.map(() => [])
  const lookupFor = (/** @type {number} */ t) => (/** @type {number} */ start, /** @type {number} */ end) =>
    findBytes(held[t], start, end) ?? cache.get(start, end)

  let rounds = 0
  /** @type {Array<{ task: number, needs: Array<{ start: number, end: number }> }>} */
  let waiting = []
  for (let t = 0; t < tasks.length; t++) {
    const needs = tasks[t].step(lookupFor(t))
    if (needs) waiting.push({ task: t, needs })
  }
  for (let round = 0; waiting.length > 0; round++) {
    throwIfAborted(signal, source.name)
    if (round === MAX_ROUNDS) {
      // A filter whose header keeps contradicting what was read: say "unknown" rather than loop.
      for (const { task } of waiting) tasks[task].giveUp('the filter\'s header and layout never agreed after several reads')
      return { rounds }
    }
    const pending = new Map(waiting.map(({ task, needs }) => [task, needs.length]))
    let requests = coalesce(waiting, coalesceGap, maxRequestBytes)
    if (link) {
      requests = mergeForRounds(requests,
        { window: Math.min(planWindow, concurrency), roundWindow: concurrency, minGap: coalesceGap, maxBytes: maxRequestBytes, link })
    }
    rounds += Math.ceil(requests.length / concurrency)
    /** @type {typeof waiting} */
    const next = []
    const finished = (/** @type {number} */ t) => {
      const needs = tasks[t].step(lookupFor(t))
      if (needs) next.push({ task: t, needs })
      else held[t] = [] // done: drop the bytes so memory tracks only what is still needed
    }
    /** @type {Array<{ bytes: number, ms: number }>} */
    const responses = []
    const waveStarted = performance.now()
    await forEachConcurrently(requests, concurrency, signal, async (request, requestSignal) => {
      const started = performance.now()
      const purpose = purposeOf(request, tasks)
      const bytes = await source.read(request.start, request.end - request.start, { signal: requestSignal, purpose })
      responses.push({ bytes: bytes.length, ms: performance.now() - started })
      for (const part of request.parts) {
        held[part.task].push({ start: part.start, bytes: bytes.subarray(part.start - request.start, part.end - request.start) })
        const left = /** @type {number} */ (pending.get(part.task)) - 1 // every task waiting has its count
        pending.set(part.task, left)
        if (left === 0) finished(part.task)
      }
    })
    link?.observeWave(responses, performance.now() - waveStarted, Math.ceil(requests.length / concurrency))
    waiting = next
  }
  return { rounds }
}

/**
 * Throws INVALID_ARGUMENT unless `concurrency` is a window runReadTasks takes (a probe that reads nothing checks it too).
 * @param {number} concurrency
 */
export function checkConcurrency(concurrency) {
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `concurrency must be an integer >= 1, got ${concurrency}`)
  }
}

/**
 * What a request is for (js/sources/io-ledger.js): its tasks' purpose; when it serves several, their list,
 * the one with the most bytes first. Undefined: the source's own.
 * @param {Request} request
 * @param {ReadTask[]} tasks
 * @returns {string | string[] | undefined}
 */
function purposeOf(request, tasks) {
  const first = tasks[request.parts[0].task].purpose
  if (request.parts.length === 1) return first
  /** @type {Map<string | undefined, number> | undefined} */
  let bytes
  for (const part of request.parts) {
    const purpose = tasks[part.task].purpose
    if (purpose === first && !bytes) continue
    bytes ??= new Map([[first, 0]])
    bytes.set(purpose, (bytes.get(purpose) ?? 0) + part.end - part.start)
  }
  if (!bytes) return first
  for (const part of request.parts) {
    if (tasks[part.task].purpose === first) bytes.set(first, /** @type {number} */ (bytes.get(first)) + part.end - part.start) // set above
  }
  const listed = [...bytes].sort((a, b) => b[1] - a[1]).map(([p]) => p).filter(/** @returns {p is string} */ (p) => p !== undefined)
  return listed.length ? listed : undefined
}

/**
 * Requests a wave of tasks takes with every read split to the bytes it needs and with each read as
 * one range, for pricing a request (js/plan/link-model.js). Tasks that cannot say count one request each.
 * @param {Array<ReadTask & {
 *   plannedRequests?: (isHeld: (start: number, end: number) => boolean) => { split: number, joined: number } }>} tasks
 * @param {ByteCache} cache
 */
export function plannedRequests(tasks, cache) {
  const isHeld = (/** @type {number} */ start, /** @type {number} */ end) => cache.get(start, end) !== undefined
  let splitRequests = 0
  let joinedRequests = 0
  for (const task of tasks) {
    const { split, joined } = task.plannedRequests?.(isHeld) ?? { split: 1, joined: 1 }
    splitRequests += split
    joinedRequests += joined
  }
  return { splitRequests, joinedRequests }
}

const NO_SEGMENTS = /** @type {Array<{ start: number, bytes: Uint8Array }>} */ (/** @type {unknown} */ (Object.freeze([])))

/** Bytes already fetched for the whole file (the tail read), reused before any new request. */
export class ByteCache {
  constructor() {
    /** @type {Array<{ start: number, bytes: Uint8Array }>} none yet: add() makes the array (a file makes and drops a few caches) */
    this.segments = NO_SEGMENTS
  }

  /**
   * @param {number} start
   * @param {Uint8Array} bytes
   */
  add(start, bytes) {
    // Most files hold one segment (the tail read): an array of one, not push's room for seventeen.
    if (this.segments.length === 0) this.segments = [{ start, bytes }]
    else this.segments.push({ start, bytes })
  }

  /**
   * @param {number} start
   * @param {number} end
   */
  get(start, end) {
    return findBytes(this.segments, start, end)
  }
}

/**
 * @param {Array<{ start: number, bytes: Uint8Array }>} segments
 * @param {number} start
 * @param {number} end
 */
function findBytes(segments, start, end) {
  for (const s of segments) {
    if (s.start <= start && end <= s.start + s.bytes.length) return s.bytes.subarray(start - s.start, end - s.start)
  }
  return undefined
}

/**
 * Merges every task's needs into requests: sorted by offset, joined while the gap between them is at
 * most `gap` and the request stays under `maxBytes`. Each request lists the parts it serves.
 * @param {Array<{ task: number, needs: Array<{ start: number, end: number }> }>} waiting
 * @param {number} gap
 * @param {number} maxBytes
 */
export function coalesce(waiting, gap, maxBytes) {
  /** @type {Part[]} */
  const parts = []
  for (const { task, needs } of waiting) for (const n of needs) parts.push({ task, start: n.start, end: n.end })
  parts.sort((a, b) => a.start - b.start || a.end - b.end)
  /** @type {Request[]} */
  const requests = []
  /** @type {Request | undefined} */
  let current
  for (const p of parts) {
    if (current && p.start - current.end <= gap && Math.max(current.end, p.end) - current.start <= maxBytes) {
      current.end = Math.max(current.end, p.end)
      current.parts.push(p)
    } else {
      current = { start: p.start, end: p.end, parts: [p] }
      requests.push(current)
    }
  }
  return requests
}

/**
 * Runs fn(item, signal) over items with at most `limit` in flight. The first failure aborts the
 * requests still running (their signal) and stops new work, so a failed probe returns promptly.
 * @template T
 * @param {T[]} items
 * @param {number} limit
 * @param {AbortSignal | undefined} signal
 * @param {(item: T, signal: AbortSignal) => Promise<void>} fn
 */
async function forEachConcurrently(items, limit, signal, fn) {
  const stop = new AbortController()
  const onAbort = () => stop.abort(signal?.reason) // watched only when there is a signal
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  let next = 0
  /** @type {unknown} */
  let firstError
  const worker = async () => {
    while (firstError === undefined && !stop.signal.aborted && next < items.length) {
      const item = items[next++]
      try {
        await fn(item, stop.signal)
      } catch (error) {
        firstError ??= error
        stop.abort(error)
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
  if (firstError !== undefined) throw firstError
  throwIfAborted(signal)
}

/**
 * @param {AbortSignal | null | undefined} signal
 * @param {string} [where]
 */
export function throwIfAborted(signal, where) {
  if (signal?.aborted) {
    throw new ParquetBloomError(ErrorCode.ABORTED,
      `${where ? `${where}: ` : ''}aborted${signal.reason?.message ? ` (${signal.reason.message})` : ''}`, { cause: signal.reason })
  }
}
