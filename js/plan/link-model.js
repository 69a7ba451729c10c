// Plans reads for round trips and requests: a probe's time is modelled as rounds × RTT + requests ×
// the cost of one request + bytes ÷ bandwidth, where a round is one window of concurrent requests. RTT,
// bandwidth and the per-request cost (client and server CPU, serialised however wide the window) are
// estimated from the waves seen so far (starting from 30 ms, 10 MB/s and 0.5 ms — between the 0.40 ms of
// wall time per request Node's keep-alive transport takes with 64 in flight and the 1.05 of its global
// fetch, bench/sections/transport.js), and the window follows the transport: many requests at once where
// the transport multiplexes (Node's fetch, HTTP/2 and HTTP/3 origins in browsers), six where a browser
// holds six HTTP/1.1 connections.
import { inBrowser } from '../sources/runtime.js'

export const INITIAL_RTT_MS = 30
export const INITIAL_BYTES_PER_MS = 10_000 // 10 MB/s
export const INITIAL_REQUEST_MS = 0.5
// Outside browsers nothing limits requests per origin (Node's fetch opens a connection per request in
// flight): the window is wide enough that one round carries a probe's ranges, a header and a block for
// each of a hundred or so row groups — 256, Bun's default limit of requests in flight. A browser's
// HTTP/2 or HTTP/3 connection carries as many streams at once as the server allows: Chromium opens 100
// (the SETTINGS_MAX_CONCURRENT_STREAMS most servers send), beyond which it queues.
export const NODE_WINDOW = 256 // a dataset over Node's own transport widens it to its wave (js/dataset/request-window.js)
export const BROWSER_MULTIPLEXED_WINDOW = 100
export const BROWSER_HTTP1_WINDOW = 6
export const LOCAL_WINDOW = 16 // files, Blobs, buffers: no network, a few reads in flight suffice
const SMOOTHING = 0.25
const MAX_WASTE_BYTES = 64 * 1024
// Bytes a wave may read in vain to send fewer requests (on top of MAX_WASTE_BYTES for fewer rounds):
// the bandwidth is a guess until large responses come in, and on a metered link bytes are paid for. So
// at most this, or the wave's share of what one round trip carries at the modelled bandwidth when that is
// more: a file's wave of small reads (a block of each of a hundred filters) then waits at most about one
// more round for its bytes read in vain, where each request it saves would have opened a connection of
// its own (a first probe's wave finds none open); a dataset's file, planning for its share of a window
// its other files fill too, gets that share of the round's bytes, so a dataset's bytes read in vain grow
// with its files as before, never by a round's worth each.
const MAX_REQUEST_WASTE_BYTES = 128 * 1024
// A wave of fewer requests says little about what one costs: the round trip hides them.
const MIN_REQUESTS_TO_PRICE = 16
const MAX_REQUEST_MS = 20

/** What one source's link has shown so far. */
export class LinkModel {
  /** @param {{ rttMs?: number, bytesPerMs?: number, requestMs?: number }} [initial] */
  constructor({ rttMs = INITIAL_RTT_MS, bytesPerMs = INITIAL_BYTES_PER_MS, requestMs = INITIAL_REQUEST_MS } = {}) {
    this.rttMs = rttMs
    this.bytesPerMs = bytesPerMs
    this.requestMs = requestMs
    this.samples = 0
    this.waves = 0
  }

  /**
   * One response: `bytes` in `ms` from request to last byte. Small responses measure the round trip;
   * large ones, what is left after it, the bandwidth.
   * @param {number} bytes
   * @param {number} ms
   */
  observe(bytes, ms) {
    if (!(ms > 0)) return
    const transfer = bytes / this.bytesPerMs
    const rtt = Math.max(0.1, ms - transfer)
    const w = this.samples === 0 ? 1 : SMOOTHING
    this.rttMs += w * (rtt - this.rttMs)
    if (ms > this.rttMs * 2 && bytes > 64 * 1024) {
      const rate = bytes / Math.max(0.1, ms - this.rttMs)
      this.bytesPerMs += w * (rate - this.bytesPerMs)
    }
    this.samples++
  }

  /**
   * One wave: its responses ({ bytes, ms } each, from request to last byte) and how long the whole wave
   * took. The fastest response measures the round trip — later ones of a wide wave also waited behind
   * the others' processing, which is what the per-request cost is: what the wave took beyond its
   * rounds and bytes, per request. Large responses measure the bandwidth.
   * @param {Array<{ bytes: number, ms: number }>} responses
   * @param {number} wallMs
   * @param {number} rounds
   */
  observeWave(responses, wallMs, rounds) {
    if (responses.length === 0) return
    let fastest = responses[0]
    for (const r of responses) if (r.ms - r.bytes / this.bytesPerMs < fastest.ms - fastest.bytes / this.bytesPerMs) fastest = r
    this.observe(fastest.bytes, fastest.ms)
    for (const r of responses) if (r !== fastest && r.bytes > 64 * 1024) this.observe(r.bytes, r.ms)
    if (responses.length >= MIN_REQUESTS_TO_PRICE && wallMs > 0) {
      const bytes = responses.reduce((n, r) => n + r.bytes, 0)
      const perRequest = Math.min(MAX_REQUEST_MS, Math.max(0, (wallMs - rounds * this.rttMs - bytes / this.bytesPerMs) / responses.length))
      this.requestMs += (this.waves === 0 ? 0.5 : SMOOTHING) * (perRequest - this.requestMs)
      this.waves++
    }
  }

  /**
   * Modelled milliseconds of `requests` requests carrying `bytes` through a window of `window`.
   * @param {number} requests
   * @param {number} bytes
   * @param {number} window
   */
  cost(requests, bytes, window) {
    return Math.ceil(requests / window) * this.rttMs + requests * this.requestMs + bytes / this.bytesPerMs
  }

  /** Bytes that take as long to transfer as one request costs: a smaller gap is cheaper read than skipped. */
  get bytesPerRequest() {
    return this.requestMs * this.bytesPerMs
  }

  /** Bytes that cost as much time as one round trip: reading fewer to save a round is not worth it. */
  get bytesPerRound() {
    return this.rttMs * this.bytesPerMs
  }

  /**
   * What one more request of a wave is worth in bytes, when a read may be split into more requests
   * for fewer bytes: the wave takes `joinedRequests` requests with every read in one range, and
   * `splitRequests` with each read cut to the bytes it needs. When the split wave fits in the rounds
   * the joined one takes anyway, its extra requests ride in rounds that happen regardless and cost
   * nothing: split. Otherwise every `roundWindow` more requests cost a round: one request, that
   * window's share of the bytes a round is worth. `window` is what the wave may use of a round, and
   * `roundWindow` (default `window`) what a round carries: a dataset's file plans for its share of a
   * window its other files fill too, and its extra request costs a share of that whole round, not all of it.
   * @param {{ splitRequests: number, joinedRequests: number, window: number, roundWindow?: number }} wave
   */
  requestBytes({ splitRequests, joinedRequests, window, roundWindow = window }) {
    if (Math.ceil(splitRequests / window) <= Math.ceil(joinedRequests / window)) return 0
    return this.bytesPerRound / Math.max(window, roundWindow)
  }
}

/**
 * A range of a file and the parts (the reads' own ranges) it serves.
 * @template P
 * @typedef {{ start: number, end: number, parts: P[] }} Span
 */

/**
 * How many requests to keep in flight for a source: the caller's `concurrency` when given, else by
 * transport. In a browser an origin's protocol is read from Resource Timing (nextHopProtocol) once a
 * response from it has been seen; until then it is treated as HTTP/1.1.
 * @param {{ name: string, constructor: Function }} source
 * @param {boolean} remote the source is an HTTP(S) URL
 */
export function transportWindow(source, remote) {
  if (!remote) return LOCAL_WINDOW
  if (!inBrowser()) return NODE_WINDOW
  return multiplexedOrigin(source.name) ? BROWSER_MULTIPLEXED_WINDOW : BROWSER_HTTP1_WINDOW
}

/**
 * True when a Resource Timing entry of the URL's origin says it was fetched over HTTP/2 or HTTP/3.
 * @param {string} url
 */
function multiplexedOrigin(url) {
  let origin
  try {
    origin = new URL(url).origin
  } catch {
    return false
  }
  const entries = globalThis.performance?.getEntriesByType?.('resource') ?? []
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = /** @type {{ name: unknown, nextHopProtocol?: unknown }} */ (entries[i]) // a PerformanceResourceTiming
    if (typeof e.name === 'string' && e.name.startsWith(origin) && e.nextHopProtocol) {
      return e.nextHopProtocol === 'h2' || e.nextHopProtocol === 'h3'
    }
  }
  return false
}

/**
 * Merges sorted, non-overlapping needs into requests for the least modelled time: ranges closer than
 * `minGap` are always joined (a request's own overhead), then the smallest gaps are joined while doing
 * so saves a whole round for fewer bytes than a round is worth at the measured bandwidth — and while the
 * bytes read in vain stay within MAX_WASTE_BYTES per wave: the model's bandwidth is a guess until
 * responses come in, and on a metered or slow link bytes are what the user pays for. Then, smallest
 * first, gaps that cost less to read than a request costs to send, within MAX_REQUEST_WASTE_BYTES or the
 * wave's share (`window` of `roundWindow`) of a round's bytes. Requests stay ≤ maxBytes.
 * @template P
 * @param {Array<Span<P>>} requests sorted, each already a union of parts
 * @param {{ window: number, roundWindow?: number, minGap: number, maxBytes: number, link: LinkModel }} limits
 *   roundWindow: what a round carries (default `window`: the wave has the round to itself)
 * @returns {Array<Span<P>>}
 */
export function mergeForRounds(requests, { window, roundWindow = window, minGap, maxBytes, link }) {
  /** @type {Array<Span<P>>} */
  let merged = []
  for (const r of requests) {
    const last = merged[merged.length - 1]
    if (last && r.start - last.end <= minGap && r.end - last.start <= maxBytes) joinInto(last, r)
    else merged.push({ start: r.start, end: r.end, parts: [...r.parts] })
  }
  merged = mergeForRoundsOnly(merged, { window, maxBytes, link })
  return joinCheapGaps(merged, { maxBytes, link, share: Math.min(1, window / Math.max(window, roundWindow)) })
}

/**
 * @template P
 * @param {Array<Span<P>>} merged
 * @param {{ window: number, maxBytes: number, link: LinkModel }} limits
 */
function mergeForRoundsOnly(merged, { window, maxBytes, link }) {
  let wasted = 0
  for (;;) {
    const rounds = Math.ceil(merged.length / window)
    if (rounds <= 1) return merged
    // Dropping a round needs (requests - window × (rounds - 1)) fewer requests: join that many of the
    // smallest gaps, if their bytes cost less than the round they save.
    const joins = merged.length - window * (rounds - 1)
    /** @type {Array<{ i: number, bytes: number }>} */
    const gaps = []
    for (let i = 1; i < merged.length; i++) {
      if (merged[i].end - merged[i - 1].start <= maxBytes) gaps.push({ i, bytes: merged[i].start - merged[i - 1].end })
    }
    if (gaps.length < joins) return merged
    gaps.sort((a, b) => a.bytes - b.bytes)
    const chosen = gaps.slice(0, joins)
    const extra = chosen.reduce((n, g) => n + g.bytes, 0)
    if (extra / link.bytesPerMs >= link.rttMs || wasted + extra > MAX_WASTE_BYTES) return merged
    wasted += extra
    const joinAt = new Set(chosen.map((g) => g.i))
    /** @type {Array<Span<P>>} */
    const next = []
    for (let i = 0; i < merged.length; i++) {
      const last = next[next.length - 1]
      // A gap chosen twice in a chain may exceed maxBytes once joined: check again.
      if (joinAt.has(i) && last && merged[i].end - last.start <= maxBytes) joinInto(last, merged[i])
      else next.push(merged[i])
    }
    if (next.length === merged.length) return merged
    merged = next
  }
}

/**
 * Joins the gaps cheaper to read than a request is to send, smallest first, within the waste budget.
 * @template P
 * @param {Array<Span<P>>} merged
 * @param {{ maxBytes: number, link: LinkModel, share: number }} limits share: the wave's of a round
 */
function joinCheapGaps(merged, { maxBytes, link, share }) {
  const worth = link.bytesPerRequest
  if (merged.length < 2 || !(worth > 0)) return merged
  /** @type {Array<{ i: number, bytes: number }>} */
  const gaps = []
  for (let i = 1; i < merged.length; i++) {
    const bytes = merged[i].start - merged[i - 1].end
    if (bytes < worth) gaps.push({ i, bytes })
  }
  gaps.sort((a, b) => a.bytes - b.bytes)
  const budget = Math.max(MAX_REQUEST_WASTE_BYTES, link.bytesPerRound * share)
  /** @type {Set<number>} */
  const joinAt = new Set()
  let wasted = 0
  for (const g of gaps) {
    if (wasted + g.bytes > budget) break
    wasted += g.bytes
    joinAt.add(g.i)
  }
  if (joinAt.size === 0) return merged
  /** @type {Array<Span<P>>} */
  const next = []
  for (let i = 0; i < merged.length; i++) {
    const last = next[next.length - 1]
    if (joinAt.has(i) && last && merged[i].end - last.start <= maxBytes) joinInto(last, merged[i])
    else next.push(merged[i])
  }
  return next
}

/**
 * @template P
 * @param {Span<P>} target
 * @param {Span<P>} r
 */
function joinInto(target, r) {
  target.end = Math.max(target.end, r.end)
  target.parts.push(...r.parts)
}
