// One window of requests in flight for a whole dataset: every file's fetch() goes through it, so the
// footers of all files form one wave, their index reads the next, and many files never put more requests
// on the link than the transport carries at once (js/plan/link-model.js transportWindow).
import { NODE_WINDOW } from '../plan/link-model.js'
import { windowedFetch } from '../sources/scheduled-fetch.js'

// Node's own transport (js/sources/node-transport.js) holds one keep-alive socket per request in
// flight, so its window is what a wave needs rather than a fixed limit: a dataset's first wave is one
// tail read per file, and 1,000 files in a window of 256 would wait four round trips for what the link
// carries in one. A round is one wait for responses whose requests did not wait for each other; the
// CPU each request costs, client and server, is priced apart (requestMs) and does not shrink with a
// narrower window. What bounds it:
// - sockets: one file descriptor each (kept idle for the next probe), and one more at a server in the
//   same process (a test's, a local one): at most half the process's limit (RLIMIT_NOFILE, which Node
//   raises to the hard limit at start-up), less a reserve for everything else the process opens;
// - the server's accept backlog: a wave opens a connection per request at once, and a connection the
//   listen queue drops is retried a second later (a false round). 4,096 is Linux's default
//   net.core.somaxconn since 5.4, the queue a server asking for more gets;
// - bytes in flight: a tail read per file is up to initialFetchSize (64 KiB: 4,096 of them are 256 MiB).
// At 4,096, 20,000 files take five rounds (of 4,000: the narrowest window that takes no more).
// That holds for http, and for an https origin whose server speaks HTTP/2 (a wave is then streams of a few
// connections). Over HTTP/1.1 with TLS, each request in flight is a connection of its own with a TLS
// handshake (~1.5 ms of client CPU here) and ~90 KB of memory: a wave of 4,000 takes the client seconds of
// CPU before its first answer, long enough for servers to close the connections left idle meanwhile
// (Node's keep-alive timeout is 5 s), so the next wave pays the handshakes again. Measured, 20,000 files
// at 30 ms per response (bench dataset-scale's setup over https without h2): 4,000 at once took 21 s,
// 1.09 ms of client CPU per file, +865 MiB and a connection per request; NODE_WINDOW (256) 5 s, 0.24 ms,
// +107 MiB, 257 connections, in 79 rounds. So such an origin keeps NODE_WINDOW.
export const NODE_MAX_WINDOW = 4096
export const NODE_MAX_IN_FLIGHT_BYTES = 256 * 1024 * 1024
// Where the descriptor limit cannot be read (not Linux, a runtime without process.getBuiltinModule):
// the window Node's transport held before its limit was read.
const UNKNOWN_LIMIT_WINDOW = 1024
const RESERVED_DESCRIPTORS = 256

/**
 * The window of Node's own transport for a wave of `requests` requests of up to `bytesPerRequest` bytes
 * each: at least NODE_WINDOW; at most NODE_MAX_WINDOW (NODE_WINDOW over HTTP/1.1 with TLS),
 * NODE_MAX_IN_FLIGHT_BYTES and the sockets the process may open; and of those, the narrowest that takes as
 * few rounds: 5,000 requests go in two rounds of 2,500, not of 4,096 and 904, each round holding half the
 * sockets and bytes.
 * @param {number} requests
 * @param {number} bytesPerRequest
 * @param {number} [sockets] sockets the process may hold open at once (default: from its descriptor limit)
 * @param {'http' | 'h2' | 'tls'} [connection] how the requests travel (js/sources/node-transport.js connectionKind)
 */
export function nodeTransportWindow(requests, bytesPerRequest, sockets = nodeSocketLimit(), connection = 'http') {
  const byBytes = Math.floor(NODE_MAX_IN_FLIGHT_BYTES / Math.max(1, bytesPerRequest))
  const most = Math.max(NODE_WINDOW, Math.min(connection === 'tls' ? NODE_WINDOW : NODE_MAX_WINDOW, byBytes, sockets))
  const rounds = Math.ceil(requests / most)
  return Math.max(NODE_WINDOW, Math.ceil(requests / Math.max(1, rounds)))
}

/** @type {number | undefined} */
let socketLimit

/**
 * Sockets this process may keep open for requests: half its soft file descriptor limit less a reserve
 * (a server in the same process holds the other end of each), read once from /proc/self/limits.
 */
export function nodeSocketLimit() {
  socketLimit ??= readSocketLimit()
  return socketLimit
}

function readSocketLimit() {
  try {
    // Not imported: this module is in the browser bundle too, where there is no process.
    const fs = /** @type {any} */ (globalThis.process)?.getBuiltinModule?.('node:fs')
    if (!fs) return UNKNOWN_LIMIT_WINDOW
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'latin1'))?.[1]
    if (soft === undefined) return UNKNOWN_LIMIT_WINDOW
    if (soft === 'unlimited') return NODE_MAX_WINDOW
    return Math.max(NODE_WINDOW, Math.floor((Number(soft) - RESERVED_DESCRIPTORS) / 2))
  } catch {
    return UNKNOWN_LIMIT_WINDOW
  }
}

export class RequestWindow {
  #free
  /** @type {Array<(freedBy: unknown) => void>} the requests waiting for a slot */
  #queue = []

  /** @param {number} size requests in flight at once */
  constructor(size) {
    this.size = size
    this.#free = size
  }

  /**
   * Runs `task` when a slot is free; the slot is held until it settles. Promise chains rather than an
   * async function: a dataset holds thousands of these at once, each waiting on the network. `record`:
   * the request's ledger entry (js/sources/io-ledger.js), told which request's slot it took when it had to
   * wait; `op`: its operation, when it has no signal of its own (js/sources/http-request.js fetchWithin),
   * whose abort ends a wait for a slot.
   * @template T
   * @param {() => Promise<T>} task
   * @param {{ waitedFor(freedBy: unknown): void }} [record]
   * @param {{ race<R>(promise: Promise<R>): Promise<R> }} [op]
   * @returns {Promise<T>}
   */
  run(task, record, op) {
    if (this.take()) return this.#hold(task, record)
    const turn = new Promise((resolve) => this.#queue.push(resolve)).then((freedBy) => {
      record?.waitedFor(freedBy)
      return this.#hold(task, record)
    })
    return op ? op.race(turn) : turn
  }

  /** @template T @param {() => Promise<T>} task @param {unknown} record @returns {Promise<T>} */
  #hold(task, record) {
    let running
    try {
      running = Promise.resolve(task())
    } catch (error) {
      this.release(record)
      return Promise.reject(error)
    }
    return this.holdUntil(running, record)
  }

  /** Takes a free slot (the caller then holds it: holdUntil()); false when there is none. */
  take() {
    if (this.#free === 0) return false
    this.#free--
    return true
  }

  /**
   * A slot taken (take()) held until `running` settles, then passed on.
   * @template T @param {Promise<T>} running @param {unknown} [record] the request's ledger entry, for the
   * request that takes the slot next @returns {Promise<T>}
   */
  holdUntil(running, record) {
    const release = () => this.release(record)
    running.then(release, release)
    return running
  }

  /**
   * A slot taken (take()) passes to the first request waiting, which learns whose it was; else it is free.
   * @param {unknown} record the request that held it
   */
  release(record) {
    const next = this.#queue.shift()
    if (next) next(record)
    else this.#free++
  }

  /**
   * A fetch whose requests wait for a slot. The slot is held until the response's headers are in; the
   * body follows on the same connection.
   * @param {typeof fetch} [inner]
   * @returns {typeof fetch}
   */
  windowedFetch(inner) {
    return windowedFetch(inner, this)
  }
}
