// The one measure of I/O every layer reports (IoStats: requests, bytesFetched, rounds, retries, heads),
// the clock that counts rounds as requests happen, and — when asked — the read plan: every request's
// file, range, purpose, bytes, round and time, as a plain object.
//
// Rounds, measured. A request's round is 1 + the highest round among
//   - the requests of its own lane (one file, or one series of metadata reads) that had completed when it
//     was sent: what it may have waited for;
//   - the request whose slot it took, when it waited for one in a full window (js/dataset/request-window.js);
//   - its lane's floor: what the lane was opened after (a dataset's sidecar answers, a table's manifests,
//     the file a worker finished before opening this one).
// A scope's rounds (a probe's, a file's) are the highest round of its requests, less its floor.
// Why per lane and not "every request completed before it was sent": waves overlap in a dataset. File
// A's index reads may complete before file B's footer arrives; B's index reads waited for B's footer
// only, and are round 2 like A's — a global clock would call them round 3, and rounds would grow with
// the spread of response times rather than with what requests waited for.

/** The purposes a request of the read plan is made for (stable codes). `statistics` come with the footer: no request of their own. */
export const READ_PURPOSES = Object.freeze(['listing', 'table-metadata', 'manifest', 'footer', 'statistics', 'page-index', 'dictionary',
  'bloom', 'sidecar', 'data-page', 'head'])

/** Requests the read plan keeps one by one; beyond this, it counts them per round and purpose only. */
export const MAX_PLAN_REQUESTS = 10_000

/**
 * @typedef {import('../index.js').IoStats} IoStats
 * requests: sent (retries and HEADs included; a local read is one); bytesFetched: body bytes received;
 * rounds: see above; retries: requests sent again after a transient failure; heads: HEAD requests (or stats of local files).
 */

/** @returns {IoStats} */
export function ioStats() {
  return { requests: 0, bytesFetched: 0, rounds: 0, retries: 0, heads: 0 }
}

/**
 * Any stats-like record as an IoStats (missing counts are 0).
 * @param {Partial<IoStats> | null | undefined} stats
 * @returns {IoStats}
 */
export function asIoStats(stats) {
  return { requests: stats?.requests ?? 0, bytesFetched: stats?.bytesFetched ?? 0, rounds: stats?.rounds ?? 0, retries: stats?.retries ?? 0,
    heads: stats?.heads ?? 0 }
}

/**
 * `into` plus `more`, in place: counts summed; rounds summed when `more` came after `into`'s, the larger
 * of the two when they ran beside each other (shards, say).
 * @param {IoStats} into @param {Partial<IoStats>} more
 */
export function addIoStats(into, more, { beside = false } = {}) {
  into.requests += more.requests ?? 0
  into.bytesFetched += more.bytesFetched ?? 0
  into.retries += more.retries ?? 0
  into.heads += more.heads ?? 0
  into.rounds = beside ? Math.max(into.rounds, more.rounds ?? 0) : into.rounds + (more.rounds ?? 0)
  return into
}

/**
 * What happened between two readings of the same stats.
 * @param {Partial<IoStats> | null | undefined} now
 * @param {Partial<IoStats> | null | undefined} before
 * @returns {IoStats}
 */
export function ioStatsSince(now, before) {
  const a = asIoStats(now)
  const b = asIoStats(before)
  return { requests: a.requests - b.requests, bytesFetched: a.bytesFetched - b.bytesFetched, rounds: a.rounds - b.rounds,
    retries: a.retries - b.retries, heads: a.heads - b.heads }
}

/** The property of a fetch's init that carries its request's record to a window (js/sources/scheduled-fetch.js). */
export const IO_RECORD = Symbol('parquet-bloom io record')

/** One request as the ledger sees it. */
export class IoRequest {
  /**
   * @param {IoLane} lane
   * @param {string | string[]} purpose several for a request that served several (most bytes first)
   * @param {number | null} offset null for a suffix read (known once answered) or a HEAD
   * @param {number | null} length null for a whole object
   * @param {boolean} retry
   * @param {boolean} [reportsAnswer] its sender calls answered() (IoLane.begin)
   */
  constructor(lane, purpose, offset, length, retry, reportsAnswer = false) {
    this.lane = lane
    /** @type {string} */
    this.purpose = Array.isArray(purpose) ? purpose[0] : purpose
    /** @type {string[] | undefined} other purposes a merged request served */
    this.also = Array.isArray(purpose) && purpose.length > 1 ? purpose.slice(1) : undefined
    this.offset = offset
    this.length = length
    this.bytes = 0
    this.retry = retry
    /** @type {string | undefined} the object asked for, when not the lane's (a HEAD of another file) */
    this.name = undefined
    this.round = lane.done + 1
    this.start = performance.now()
    this.end = -1
    this.failed = false
    /** past the plan's maxRequests: counted per round, not listed */
    this.omitted = false
    /** its sender calls answered() once the response's headers (or its failure) are in: a window may leave its slot here */
    this.reportsAnswer = reportsAnswer
    /** @type {{ release(record: IoRequest): void } | undefined} the window slot it holds until answered() */
    this.slot = undefined
    lane.sent(this)
  }

  /** Its response's headers are in, or it failed: the window slot it held (if any) passes on. */
  answered() {
    const slot = this.slot
    if (slot === undefined) return
    this.slot = undefined
    slot.release(this)
  }

  /**
   * It waited in a full window for the slot `before` held: it was sent when that one's answer came.
   * @param {IoRequest | null | undefined} before
   */
  waitedFor(before) {
    const round = Math.max(this.round, (before?.round ?? 0) + 1, this.lane.done + 1)
    this.start = performance.now()
    if (round !== this.round) {
      this.round = round
      this.lane.raise(round)
    }
  }

  /**
   * Body bytes as they arrive.
   * @param {number} count
   */
  received(count) {
    this.bytes += count
    this.lane.received(count)
  }

  /** Done: its bytes are in (or it failed). Requests of its lane sent from now on come in a later round. */
  finish(failed = false) {
    if (this.end >= 0) return
    this.end = performance.now()
    this.failed = failed
    this.lane.finished(this)
    if (this.omitted) this.lane.ledger.aggregate(this)
  }
}

/** @typedef {{ stats: IoStats, floor: number, top: number }} IoGroup lanes counted together as well */

/** One file's (or one series of metadata reads') requests in a ledger. */
export class IoLane {
  /** @param {IoLedger} ledger @param {string} name @param {number} floor @param {IoGroup} [group] */
  constructor(ledger, name, floor, group) {
    this.ledger = ledger
    this.name = name
    this.floor = floor
    this.group = group
    if (group && floor < group.floor) group.floor = floor
    /** highest round of this lane's requests completed */
    this.done = floor
    /** highest round of this lane's requests sent */
    this.top = floor
    this.stats = ioStats()
  }

  /** The lane's own rounds: from its floor to its last request. */
  get rounds() {
    return this.top - this.floor
  }

  /**
   * A request of this lane, sent now. `offset` null for a suffix read (known once answered) or a HEAD;
   * `retry`: it is a failed request sent again; `reportsAnswer`: its sender calls answered() when its response's headers
   * (or its failure) are in, so a window's slot may be left with it rather than held by a promise callback of its own.
   * @param {string | string[]} purpose
   * @param {number | null} offset
   * @param {number | null} length
   */
  begin(purpose, offset, length, retry = false, reportsAnswer = false) {
    return new IoRequest(this, purpose, offset, length, retry, reportsAnswer)
  }

  /** @param {IoRequest} request */
  sent(request) {
    const s = this.stats
    s.requests++
    if (request.retry) s.retries++
    if (request.purpose === 'head') s.heads++
    if (this.group) {
      const g = this.group.stats
      g.requests++
      if (request.retry) g.retries++
      if (request.purpose === 'head') g.heads++
    }
    this.raise(request.round)
    this.ledger.sent(request)
  }

  /** @param {number} round */
  raise(round) {
    if (round > this.top) {
      this.top = round
      this.stats.rounds = round - this.floor
    }
    if (this.group && round > this.group.top) {
      this.group.top = round
      this.group.stats.rounds = round - this.group.floor
    }
    this.ledger.raise(round)
  }

  /** @param {number} count */
  received(count) {
    this.stats.bytesFetched += count
    if (this.group) this.group.stats.bytesFetched += count
    this.ledger.stats.bytesFetched += count
  }

  /** @param {IoRequest} request */
  finished(request) {
    if (request.round > this.done) this.done = request.round
  }
}

/**
 * A lane for requests outside any scope that asked for one: counted, timed, never kept.
 * @param {string} name
 */
export function looseLane(name) {
  return new IoLedger().lane(name)
}

/**
 * One scope's requests (a probe of a file, a dataset or a table): their IoStats, rounds measured, and with
 * `record` the read plan.
 */
export class IoLedger {
  /** @param {{ record?: boolean, maxRequests?: number }} [options] */
  constructor({ record = false, maxRequests = MAX_PLAN_REQUESTS } = {}) {
    this.record = record
    this.maxRequests = maxRequests
    this.stats = ioStats()
    /** @type {Map<string, IoGroup>} */
    this.groups = new Map()
    /** Lanes opened from now on start after this round (what they wait for has completed). */
    this.floor = 0
    this.started = performance.now()
    /** @type {IoRequest[]} */
    this.requests = []
    /** @type {Map<number, { requests: number, bytes: number, purposes: Record<string, number> }>} per round,
     * the requests past maxRequests */
    this.omitted = new Map()
  }

  /**
   * A lane for one file or series of reads, opened after `floor` (default: the ledger's); `group` names
   * a share of the scope counted apart too (a dataset's sidecar index: `groupStats('index')`).
   * @param {string} name
   * @param {number} [floor]
   * @param {string} [group]
   */
  lane(name, floor = this.floor, group) {
    /** @type {IoGroup | undefined} */
    let shared
    if (group !== undefined) {
      shared = this.groups.get(group)
      if (!shared) this.groups.set(group, shared = { stats: ioStats(), floor: Infinity, top: 0 })
    }
    return new IoLane(this, name, Math.max(floor ?? 0, this.floor), shared)
  }

  /**
   * The IoStats of a group's lanes (its rounds: from the earliest lane's floor to its last request); undefined when none was opened.
   * @param {string} group
   */
  groupStats(group) {
    const shared = this.groups.get(group)
    return shared && { ...shared.stats }
  }

  /** What is opened from now on waits for everything sent so far (a table's manifests, a sidecar's answers). */
  closePhase() {
    this.floor = Math.max(this.floor, this.stats.rounds)
  }

  /** @param {IoRequest} request */
  sent(request) {
    const s = this.stats
    s.requests++
    if (request.retry) s.retries++
    if (request.purpose === 'head') s.heads++
    if (!this.record) return
    if (this.requests.length < this.maxRequests) this.requests.push(request)
    else request.omitted = true
  }

  /** @param {IoRequest} request one past maxRequests, once done */
  aggregate(request) {
    let round = this.omitted.get(request.round)
    if (!round) this.omitted.set(request.round, round = { requests: 0, bytes: 0, purposes: {} })
    round.requests++
    round.bytes += request.bytes
    round.purposes[request.purpose] = (round.purposes[request.purpose] ?? 0) + 1
  }

  /** @param {number} round */
  raise(round) {
    if (round > this.stats.rounds) this.stats.rounds = round
  }

  /**
   * The read plan: a plain, JSON-serializable object (READ_PURPOSES; js/index.d.ts ReadPlan) of the requests
   * recorded from the `from`-th on (a file probed again: those since its last plan).
   */
  plan(from = 0) {
    return readPlan(this, from)
  }
}

const ms = (/** @type {number} */ t) => Math.round(t * 10) / 10

/**
 * A request of a read plan (js/index.d.ts ReadPlan's requests, with the ledger's purposes as strings).
 * @typedef {{ file: number, purpose: string, purposes?: string[], offset: number | null, length: number | null, bytes: number,
 *   round: number, startMs: number, ms: number, retry?: true, failed?: true }} PlanEntry
 */
/**
 * A round of a read plan (js/index.d.ts ReadPlan's rounds).
 * @typedef {{ round: number, requests: number, bytes: number, startMs: number | null, endMs: number | null,
 *   purposes: Record<string, number> }} PlanRound
 */

/**
 * The IoStats of part of a plan: its rounds from the first listed to the last.
 * @param {PlanEntry[]} requests
 * @param {Map<number, PlanRound>} rounds
 */
function statsOfEntries(requests, rounds) {
  const stats = ioStats()
  for (const r of requests) {
    stats.requests++
    stats.bytesFetched += r.bytes
    if (r.retry) stats.retries++
    if (r.purpose === 'head') stats.heads++
  }
  const listed = [...rounds.keys()]
  if (listed.length) stats.rounds = Math.max(...listed) - Math.min(...listed) + 1
  return stats
}

/**
 * @param {IoLedger} ledger
 * @param {number} from
 */
function readPlan(ledger, from) {
  /** @type {string[]} */
  const files = []
  /** @type {Map<string, number>} */
  const fileIndex = new Map()
  /** @type {Map<number, PlanRound>} */
  const rounds = new Map()
  const requests = (from > 0 ? ledger.requests.slice(from) : ledger.requests).map((r) => {
    const name = r.name ?? r.lane.name
    let file = fileIndex.get(name)
    if (file === undefined) {
      file = files.length
      files.push(name)
      fileIndex.set(name, file)
    }
    const end = r.end >= 0 ? r.end : performance.now()
    /** @type {PlanEntry} */
    const entry = { file, purpose: r.purpose, offset: r.offset, length: r.length, bytes: r.bytes, round: r.round,
      startMs: ms(r.start - ledger.started), ms: ms(end - r.start) }
    if (r.also) entry.purposes = [r.purpose, ...r.also]
    if (r.retry) entry.retry = true
    if (r.failed) entry.failed = true
    let round = rounds.get(r.round)
    if (!round) rounds.set(r.round, round = { round: r.round, requests: 0, bytes: 0, startMs: entry.startMs, endMs: 0, purposes: {} })
    round.requests++
    round.bytes += r.bytes
    // Numbers: a round made here has its times, and one made for omitted requests below is made after these.
    round.startMs = Math.min(/** @type {number} */ (round.startMs), entry.startMs)
    round.endMs = Math.max(/** @type {number} */ (round.endMs), ms(end - ledger.started))
    round.purposes[r.purpose] = (round.purposes[r.purpose] ?? 0) + 1
    return entry
  })
  let omitted = 0
  for (const [r, more] of ledger.omitted) {
    omitted += more.requests
    let round = rounds.get(r)
    if (!round) rounds.set(r, round = { round: r, requests: 0, bytes: 0, startMs: null, endMs: null, purposes: {} })
    round.requests += more.requests
    round.bytes += more.bytes
    for (const [p, n] of Object.entries(more.purposes)) round.purposes[p] = (round.purposes[p] ?? 0) + n
  }
  return {
    files,
    requests,
    rounds: [...rounds.values()].sort((a, b) => a.round - b.round),
    stats: from > 0 ? statsOfEntries(requests, rounds) : { ...ledger.stats },
    // Requests past maxRequests are counted in `rounds` and `stats`, not listed: a plan of 100,000 files stays bounded.
    listed: { requests: requests.length, omitted, maxRequests: ledger.maxRequests },
  }
}
