// Node's range requests over node:http / node:https with keep-alive Agents, behind the fetch interface
// the byte sources use: Node's global fetch (undici) costs 2–3× the client CPU per small request
// (bench/sections/transport.js: 0.61 against 0.24 ms with 64 in flight), which dominates a probe of a
// thousand files. Loaded only in Node, and only when no options.fetch is given; Bun, Deno, workerd and
// browsers keep their own fetch. Redirects are followed like fetch's `redirect: 'follow'` (at most 20,
// Authorization dropped across origins). An https origin whose server picks h2 in TLS's ALPN is read over
// HTTP/2 (js/sources/node-http2.js): a wave of 4,000 reads is then a few connections, not 4,000 TLS
// handshakes (bench dataset-scale: ~5× less client CPU per file than HTTP/1.1 over TLS).
import http from 'node:http'
import { IO_RECORD } from './io-ledger.js'
import { EACH_CHUNK, isTimeout, OPERATION } from './shared.js'

const MAX_REDIRECTS = 20
const IDLE_TIMEOUT_MS = 300_000
// Sockets are not limited here: what is in flight is bounded by the window that sends it (a file's,
// js/plan/link-model.js NODE_WINDOW, or a dataset's, js/dataset/request-window.js NODE_MAX_WINDOW: a
// tail read per file). As many are kept idle, so a second probe of the same files opens no connection
// (a TCP handshake, and TLS's, is a round trip of its own). Idle sockets do not keep the process alive
// (the Agent unrefs them) and are closed after IDLE_TIMEOUT_MS, or by the server first. That is also a
// request's silence timeout, set once on the Agent rather than on each request: a request's own timeout
// differing from its Agent's arms two more timers per request (on its socket as it is taken, and again as
// it is freed). Unlimited sockets, and the last freed reused first ('lifo'), are an Agent's defaults. Its
// options are as few as can be: an Agent copies them and a request's, with keys of its own, into one
// object per request in flight, kept as a dictionary, and above 11 keys that object is 864 bytes rather
// than 480. So maxFreeSockets is set on the Agent itself (its documented property, read as sockets are
// freed), and a request's options leave out what defaults to the same (its protocol, GET) or has a shorter
// name (host for hostname), its headers set on it instead.
const agentOptions = { keepAlive: true, timeout: IDLE_TIMEOUT_MS }

/**
 * An Agent with agentOptions, keeping every idle socket.
 * @template {import('node:http').Agent} A
 * @param {new (options: import('node:http').AgentOptions) => A} Agent
 */
function keepAliveAgent(Agent) {
  const agent = new Agent(agentOptions)
  agent.maxFreeSockets = Infinity
  agent.reuseSocket = reuseSocket
  return agent
}

/**
 * An Agent's reuseSocket (Node's, documented to be overridden), then the socket's silence timeout IDLE_TIMEOUT_MS again:
 * kept idle it took a server's shorter Keep-Alive hint (timeout=5: 4 s), which Node restores only for a request with a
 * timeout of its own, unlike the Agent's. Else an answer more than 4 s away on a reused connection was cut off (ETIMEDOUT).
 * @this {import('node:http').Agent} @param {import('node:net').Socket} socket @param {import('node:http').ClientRequest} request
 */
function reuseSocket(socket, request) {
  http.Agent.prototype.reuseSocket.call(this, socket, request)
  if (socket.timeout !== IDLE_TIMEOUT_MS) socket.setTimeout(IDLE_TIMEOUT_MS)
}
// An Agent keeps an origin's sockets in one array and finds a socket in it by a linear search each time
// one is freed or closed: at 4,000 in flight that search was ~8% of a dataset probe's client CPU. So
// requests fill one Agent up to AGENT_LOAD in flight before the next is used: a file's reads, a few at
// a time, reuse the first Agent's idle sockets as before, and a dataset's wave is spread over several.
const AGENT_LOAD = 256
const AGENT_SHARDS = 16
/**
 * @template {import('node:http').Agent} A
 * @param {() => A} make
 */
function agentPool(make) {
  const agents = Array.from({ length: AGENT_SHARDS }, make)
  const load = new Uint32Array(AGENT_SHARDS)
  return {
    /** The first Agent with room, else the least loaded; its load counted until release(). */
    take() {
      let pick = 0
      for (let i = 0; i < AGENT_SHARDS; i++) {
        if (load[i] < AGENT_LOAD) { pick = i; break }
        if (load[i] < load[pick]) pick = i
      }
      load[pick]++
      return pick
    },
    /** @param {number} shard */
    agent: (shard) => agents[shard],
    /** @param {number} shard */
    release(shard) { load[shard]-- },
  }
}
const httpAgents = agentPool(() => keepAliveAgent(http.Agent))
// node:https (TLS with it) and node:zlib are loaded when first needed, by an https URL or a compressed
// body: a fresh process probing over http spends no time on either.
/** @type {Promise<unknown> | undefined} */
let httpsLoading
/** @type {Promise<typeof import('node:zlib')> | undefined} */
let zlibLoading
// What fetch decodes by itself, for servers that compress although asked for identity: node:zlib's factories.
/** @type {Readonly<Record<string, 'createGunzip' | 'createInflate' | 'createBrotliDecompress' | undefined>>} */
const DECODERS = { gzip: 'createGunzip', 'x-gzip': 'createGunzip', deflate: 'createInflate', br: 'createBrotliDecompress' }

/**
 * The part of a fetch Response the byte sources read.
 * @typedef {{ status: number, statusText: string, ok: boolean, url: string, redirected: boolean,
 *   headers: { get(name: string): string | null }, body: NodeBody | null, bodyUsed: boolean,
 *   arrayBuffer(): Promise<ArrayBuffer>, text(): Promise<string> }} NodeResponse
 */

/**
 * What the transport reads of a fetch's init. [OPERATION]: the request's operation (js/sources/shared.js),
 * handed over by the byte sources in place of a signal: its end destroys the request.
 * @typedef {{ method?: string, headers?: HeadersInit, signal?: AbortSignal | null, redirect?: string,
 *   [OPERATION]?: import('./shared.js').Operation, [IO_RECORD]?: unknown }} NodeInit
 */

/**
 * fetch(url, { method, headers, signal, redirect }) over the keep-alive agents.
 * @param {string | URL} input
 * @param {NodeInit} [init]
 * @returns {Promise<NodeResponse>}
 */
export function nodeFetch(input, init = {}) {
  // Not async: a request in flight holds no promise of this function's own (a dataset keeps thousands in flight).
  try {
    const url = target(typeof input === 'string' ? input : String(input))
    const method = init.method === undefined ? 'GET' : init.method.toUpperCase()
    return send(url, method, headerRecord(init.headers), init, 0)
  } catch (error) {
    return Promise.reject(error)
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * A URL as requests are sent to it: http.request's host, port, path and auth (user:password), read once.
 * @typedef {{ href: string, origin: string, protocol: string, host: string, port: string, path: string, auth: string | undefined }} Target
 */
// A probe sends each of its URLs many requests: each is parsed once into request options rather than
// per request (new URL, then http.request's own conversion of it).
/** @type {Map<string, Target>} */
const targets = new Map()
const MAX_TARGETS = 4096

/**
 * @param {string} href
 * @returns {Target}
 */
function target(href) {
  let known = targets.get(href)
  if (known) return known
  const url = new URL(href)
  const auth = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined
  const server = serverOf(url)
  // Strings of the caller's href where it is the URL's own spelling, and the server's shared by its URLs: a dataset's
  // thousands of targets would otherwise each hold a copy of the URL and of its origin's parts.
  const canonical = url.href === href
  // Not when it has a fragment, or an empty query or fragment ('x?', 'x#': in href, not in pathname or search): never sent.
  const path = canonical && !auth && !href.includes('#') && !href.endsWith('?') ? href.slice(server.origin.length)
    : `${url.pathname}${url.search}`
  known = { href: canonical ? href : url.href, origin: server.origin, protocol: server.protocol, host: server.host, port: server.port,
    path, auth }
  if (targets.size >= MAX_TARGETS) targets.clear()
  targets.set(href, known)
  return known
}

/** @type {Map<string, { origin: string, protocol: string, host: string, port: string }>} */
const servers = new Map()

/**
 * A URL's origin and its parts as http.request takes them (host without an IPv6 literal's brackets), one record per origin.
 * @param {URL} url
 */
function serverOf(url) {
  let server = servers.get(url.origin)
  if (server) return server
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  server = { origin: url.origin, protocol: url.protocol, host, port: url.port }
  if (servers.size >= MAX_TARGETS) servers.clear()
  servers.set(server.origin, server)
  return server
}

/**
 * The headers as a record of lower-cased names and trimmed values. A plain record already so (what the byte
 * sources send) is used as it is, never changed; another is copied. Not a Headers: in a fresh process,
 * the first touch of the Headers global loads all of undici (~20–35 ms).
 * @param {HeadersInit | undefined} init
 * @returns {Record<string, string>}
 */
function headerRecord(init) {
  if (init === undefined || init === null) return {}
  if (Object.getPrototypeOf(init) === Object.prototype) {
    const plain = /** @type {Record<string, unknown>} */ (init) // a plain object: its own prototype is Object's
    for (const name in plain) {
      const value = plain[name]
      if (typeof value !== 'string' || name !== name.toLowerCase() || value !== value.trim()) return copyHeaders(plain)
    }
    return /** @type {Record<string, string>} */ (plain)
  }
  return Object.fromEntries(new Headers(init))
}

/**
 * @param {Record<string, unknown>} plain
 * @returns {Record<string, string>}
 */
function copyHeaders(plain) {
  /** @type {Record<string, string>} */
  const record = {}
  for (const name in plain) record[name.toLowerCase()] = String(plain[name]).trim()
  return record
}

/** The client and agents of a protocol. @typedef {{ client: typeof http, agents: ReturnType<typeof agentPool> }} Transport */
/** @type {Transport} */
const HTTP = { client: http, agents: httpAgents }
/** @type {Transport | undefined} once loaded */
let httpsTransport
/** @type {typeof import('./node-http2.js') | undefined} once loaded, with node:https */
let http2Module

/**
 * node:https and node:http2 (TLS with them), loaded when first needed: a fresh process probing over http
 * spends no time on them.
 * @returns {Promise<unknown>}
 */
function loadTls() {
  return (httpsLoading ??= Promise.all([import('node:https'), import('./node-http2.js')]).then(([https, h2]) => {
    httpsTransport = { client: /** @type {typeof http} */ (/** @type {unknown} */ (https.default)),
      agents: agentPool(() => keepAliveAgent(https.default.Agent)) }
    http2Module = h2
  }))
}

/**
 * How requests to `href`'s origin travel: 'http' (HTTP/1.1, a socket per request in flight), 'h2' (streams of a
 * few HTTP/2 connections) or 'tls' (HTTP/1.1 over TLS: a socket and a TLS handshake per request in flight). An
 * https origin's is its server's ALPN answer, asked once (the connection that asks becomes its first HTTP/2
 * session, if h2); an origin that does not answer, or a URL that does not parse, counts as 'tls' (its requests
 * then fail, or retry, as any).
 * @param {string} href
 * @returns {Promise<'http' | 'h2' | 'tls'>}
 */
export async function connectionKind(href) {
  try {
    const url = target(href)
    if (url.protocol !== 'https:') return 'http'
    await loadTls()
    return (await /** @type {typeof import('./node-http2.js')} */ (http2Module).originProtocol(url.origin, url.host, url.port)) === 'h2'
      ? 'h2' : 'tls'
  } catch {
    // Not a URL (its file fails on its own, and is reported), or no answer: the narrow window.
    return 'tls'
  }
}

/**
 * One request and the redirects it leads to: the response, once its headers are in. Listeners rather
 * than promises chained on it: no promise or async frame of its own held while it is in flight.
 * @param {Target} url
 * @param {string} method
 * @param {Record<string, string>} headers never changed (a redirect to another origin drops Authorization from a copy)
 * @param {NodeInit} init
 * @param {number} redirects followed so far
 * @returns {Promise<NodeResponse>}
 */
function send(url, method, headers, init, redirects) {
  if (url.protocol === 'https:') {
    if (http2Module === undefined) return afterReady(loadTls(), init, () => send(url, method, headers, init, redirects))
    // HTTP/2 where the server picks it in TLS's ALPN (js/sources/node-http2.js), else HTTP/1.1's keep-alive sockets.
    const protocol = http2Module.originProtocol(url.origin, url.host, url.port)
    if (protocol === 'h2') return sendOverHttp2(http2Module, url, method, headers, init, redirects)
    if (protocol !== 'http/1.1') {
      const answered = protocol.catch((error) => {
        throw new TypeError('fetch failed', { cause: error })
      })
      return afterReady(answered, init, () => send(url, method, headers, init, redirects))
    }
  }
  const transport = url.protocol === 'http:' ? HTTP : url.protocol === 'https:' ? httpsTransport : undefined
  if (transport === undefined) return Promise.reject(new TypeError(`fetch failed: unsupported protocol ${url.protocol}`))
  const op = init[OPERATION]
  const signal = init.signal
  if (op?.ended) return Promise.reject(op.reason)
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const { client, agents } = transport
    const shard = agents.take()
    /** @type {import('node:http').ClientRequest} */
    let request
    try {
      // As undici's headers and body timeouts: a connection silent IDLE_TIMEOUT_MS is dead (requestTimeoutMs,
      // when given, ends the request sooner): the Agent's timeout, which each request's socket carries.
      // A literal, not a spread of the target's options with these keys added (js/sources/shared.js withKeys).
      /** @type {import('node:http').RequestOptions} */
      const options = { host: url.host, port: url.port, path: url.path, agent: agents.agent(shard) }
      if (url.auth !== undefined) options.auth = url.auth
      if (method !== 'GET') options.method = method
      request = client.request(options)
    } catch (error) {
      agents.release(shard) // an option http.request refuses: no request, no 'close'
      throw error
    }
    /** @type {Exchange} */
    const exchange = { resolve, reject, url, method, headers, init, redirects, agents, shard, op, signal, abort: undefined }
    const holder = /** @type {any} */ (request)
    holder[EXCHANGE] = exchange
    // The same listener functions for every request, its state on it: a request in flight holds one record rather
    // than a closure per listener and their contexts. Added with on(), not once(): each fires once anyway, and
    // once() wraps each in two objects more.
    request.on('response', requestAnswered)
    request.on('error', requestFailed)
    request.on('timeout', silent)
    request.on('close', requestClosed)
    try {
      for (const name in headers) request.setHeader(name, headers[name])
    } catch (error) {
      request.destroy() // a header it refuses: the request is given up before it is sent (its 'close' frees the shard)
      throw error
    }
    exchange.abort = endWith(request, op, signal)
    request.end()
  })
}

/**
 * What a request of send() (or a stream of streamOver()) holds while it is in flight, on it under EXCHANGE: its
 * promise's ends, what answered() needs and what endWith() tied; a request, its Agent's shard too.
 * @typedef {{ resolve: (response: NodeResponse | Promise<NodeResponse>) => void, reject: (error: unknown) => void,
 *   url: Target, method: string, headers: Record<string, string>, init: NodeInit, redirects: number,
 *   op: import('./shared.js').Operation | undefined, signal: AbortSignal | null | undefined,
 *   abort: (() => void) | undefined }} Sent what a request or an HTTP/2 stream in flight holds (its listeners read it)
 * @typedef {Sent & { agents: ReturnType<typeof agentPool>, shard: number }} Exchange
 */
const EXCHANGE = Symbol('exchange')

/**
 * A request's 'response' listener.
 * @this {import('node:http').ClientRequest} @param {import('node:http').IncomingMessage} answer
 */
function requestAnswered(answer) {
  const x = /** @type {Exchange} */ (/** @type {any} */ (this)[EXCHANGE])
  try {
    x.resolve(answered(answer.statusCode ?? 0, answer.statusMessage ?? '', answer.headers, answer, x.url, x.method, x.headers, x.init,
      x.redirects))
  } catch (error) {
    x.reject(error)
  }
}

/** A request's 'error' listener. @this {import('node:http').ClientRequest} @param {Error} error */
function requestFailed(error) {
  /** @type {Exchange} */ (/** @type {any} */ (this)[EXCHANGE]).reject(new TypeError('fetch failed', { cause: error }))
}

/** A request's 'close' listener: its Agent's shard freed, and nothing of it left on its operation or signal. @this {any} */
function requestClosed() {
  const x = /** @type {Exchange} */ (this[EXCHANGE])
  x.agents.release(x.shard)
  untie(this, x.op, x.signal, x.abort)
}

/**
 * What a request does once `ready` is (node:https loaded, an origin's ALPN answer in), waiting no longer than its
 * operation or signal lasts: a server that never finishes TLS holds an aborted request only until its abort, not
 * until the handshake times out.
 * @template T
 * @param {Promise<unknown>} ready
 * @param {NodeInit} init
 * @param {() => Promise<T>} next
 * @returns {Promise<T>}
 */
function afterReady(ready, init, next) {
  const op = init[OPERATION]
  const signal = init.signal
  if (op?.ended) return Promise.reject(op.reason)
  if (signal?.aborted) return Promise.reject(signal.reason)
  if (!op && !signal) return ready.then(next)
  return new Promise((resolve, reject) => {
    let ended = false
    /** @type {(() => void) | undefined} */
    let abort
    const waiting = {
      /** @param {unknown} reason */
      destroy(reason) {
        ended = true
        untie(waiting, op, signal, abort)
        reject(reason)
      },
    }
    abort = endWith(waiting, op, signal)
    ready.then(() => {
      if (ended) return
      untie(waiting, op, signal, abort)
      try {
        resolve(next())
      } catch (error) {
        reject(error)
      }
    }, (error) => {
      if (ended) return
      untie(waiting, op, signal, abort)
      reject(error)
    })
  })
}

/**
 * A request's (or an HTTP/2 stream's) 'timeout' listener: its connection was silent for IDLE_TIMEOUT_MS.
 * @this {{ destroy(error: Error): void }}
 */
function silent() {
  this.destroy(Object.assign(new Error(`the connection was silent for ${IDLE_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' }))
}

// A stream the server never processed (REFUSED_STREAM, or past a GOAWAY's last stream: RFC 9113 §8.7) is
// sent again at once, on another session, this many times before it fails as any network error does.
const MOST_RESENDS = 4

/**
 * One request over an HTTP/2 session of the origin's (js/sources/node-http2.js): a stream, answered as send()'s
 * request is, its end the operation's to destroy. When every session is full (at most 64, each up to the
 * server's limit), it waits for a stream to end rather than go past the server's limit.
 * @param {typeof import('./node-http2.js')} h2
 * @param {Target} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {NodeInit} init
 * @param {number} redirects
 * @param {number} [resends] streams of this request the server refused so far
 * @returns {Promise<NodeResponse>}
 */
function sendOverHttp2(h2, url, method, headers, init, redirects, resends = 0) {
  const op = init[OPERATION]
  const signal = init.signal
  if (op?.ended) return Promise.reject(op.reason)
  if (signal?.aborted) return Promise.reject(signal.reason)
  const pool = h2.poolFor(url.origin, url.host, url.port)
  const entry = pool.take()
  if (entry !== undefined) return streamOver(h2, pool, entry, url, method, headers, init, redirects, resends)
  // Every session full: the request waits for a stream to end, no longer than its operation (or signal) lasts.
  return new Promise((resolve, reject) => {
    /** @type {(() => void) | undefined} */
    let abort
    /** @type {import('./node-http2.js').StreamWaiter & { destroy(reason?: unknown): void }} */
    const waiter = {
      given(room) {
        untie(waiter, op, signal, abort)
        // Called from another stream's end: whatever this one meets is its own rejection, never thrown there.
        try {
          resolve(room === undefined ? sendOverHttp2(h2, url, method, headers, init, redirects, resends)
            : streamOver(h2, pool, room, url, method, headers, init, redirects, resends))
        } catch (error) {
          if (room !== undefined) pool.release(room)
          reject(error)
        }
      },
      // Its end: out of the queue at once, not once a stream frees (which a stalled server may never do).
      destroy(reason) {
        if (!pool.cancel(waiter)) return
        untie(waiter, op, signal, abort)
        reject(reason)
      },
    }
    pool.wait(waiter)
    abort = endWith(waiter, op, signal)
  })
}

/**
 * A stream the server refused, counted as the request it was and its resend as a retry (docs/api.md: `retries` counts the
 * requests sent again, `requests` includes them), in the ledger of the request's record (a dataset's or a table's stats, the
 * read plan): the refused one a failed request of its own in the record's round, the record (its resend) in the round after.
 * @param {NodeInit} init
 */
function countResend(init) {
  const record = /** @type {import('./io-ledger.js').IoRequest | undefined} */ (init[IO_RECORD])
  if (record === undefined) return
  const refused = record.lane.begin(record.also ? [record.purpose, ...record.also] : record.purpose, record.offset, record.length, true)
  refused.round = record.round
  refused.start = record.start
  refused.finish(true)
  record.waitedFor(refused)
}

/**
 * The stream of sendOverHttp2, on `entry`'s session (counted in it until the stream closes).
 * @param {typeof import('./node-http2.js')} h2
 * @param {import('./node-http2.js').SessionPool} pool
 * @param {import('./node-http2.js').SessionEntry} entry
 * @param {Target} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {NodeInit} init
 * @param {number} redirects
 * @param {number} resends
 * @returns {Promise<NodeResponse>}
 */
function streamOver(h2, pool, entry, url, method, headers, init, redirects, resends) {
  const op = init[OPERATION]
  const signal = init.signal
  return new Promise((resolve, reject) => {
    /** @type {import('node:http2').ClientHttp2Stream} */
    let stream
    try {
      stream = entry.session.request(h2.streamHeaders(url.path, method, headers, url.auth), { endStream: true })
    } catch (error) {
      // A session closing or closed (a GOAWAY came): no stream, no 'close'; sent again on another. Else a
      // header it refuses.
      pool.release(entry)
      const closing = !entry.open || entry.session.closed || entry.session.destroyed
      if (closing && resends < MOST_RESENDS) {
        resolve(sendOverHttp2(h2, url, method, headers, init, redirects, resends + 1))
        return
      }
      throw new TypeError('fetch failed', { cause: error })
    }
    /** @type {StreamExchange} */
    const exchange = { resolve, reject, url, method, headers, init, redirects, op, signal, abort: undefined, h2, pool, entry, resends,
      heard: entry.heard, settled: false }
    const holder = /** @type {any} */ (stream)
    holder[EXCHANGE] = exchange
    // As send()'s request: listener functions shared by every stream, its state on it.
    stream.on('response', streamAnswered)
    stream.on('error', streamFailed)
    // Its listener added with on(), not given to setTimeout (which adds it with once(): two objects more per stream).
    stream.on('timeout', silent)
    stream.setTimeout(IDLE_TIMEOUT_MS)
    stream.on('close', streamClosed)
    exchange.abort = endWith(stream, op, signal)
  })
}

/**
 * What a stream of streamOver() holds while it is in flight: what send()'s request holds, its session's entry and pool, the
 * resends so far, what its session had heard when it was sent, and whether it is answered.
 * @typedef {Sent & { h2: typeof import('./node-http2.js'), pool: import('./node-http2.js').SessionPool,
 *   entry: import('./node-http2.js').SessionEntry, resends: number, heard: number, settled: boolean }} StreamExchange
 */

/**
 * A stream's 'response' listener.
 * @this {import('node:http2').ClientHttp2Stream} @param {import('node:http2').IncomingHttpHeaders} answer
 */
function streamAnswered(answer) {
  const x = /** @type {StreamExchange} */ (/** @type {any} */ (this)[EXCHANGE])
  x.settled = true
  x.entry.heard++
  try {
    x.resolve(answered(Number(answer[':status']), '', answer, this, x.url, x.method, x.headers, x.init, x.redirects))
  } catch (error) {
    x.reject(error)
  }
}

/** A stream's 'error' listener. @this {import('node:http2').ClientHttp2Stream} @param {Error} error */
function streamFailed(error) {
  const x = /** @type {StreamExchange} */ (/** @type {any} */ (this)[EXCHANGE])
  if (x.settled) return
  x.settled = true
  // Timed out (requestTimeoutMs, or silent for IDLE_TIMEOUT_MS) with no response on its session since it was
  // sent: the session is taken out, so the retry goes over another connection (js/sources/node-http2.js retire).
  if (x.entry.heard === x.heard && (isTimeout(error) || /** @type {{ code?: unknown }} */ (error).code === 'ETIMEDOUT')) {
    x.pool.retire(x.entry)
  }
  if (x.h2.neverProcessed(this) && x.resends < MOST_RESENDS && !x.op?.ended && !x.signal?.aborted) {
    countResend(x.init)
    x.resolve(sendOverHttp2(x.h2, x.url, x.method, x.headers, x.init, x.redirects, x.resends + 1))
  } else {
    x.reject(new TypeError('fetch failed', { cause: error }))
  }
}

/** A stream's 'close' listener: its session's count freed, nothing of it left on its operation or signal. @this {any} */
function streamClosed() {
  const x = /** @type {StreamExchange} */ (this[EXCHANGE])
  x.pool.release(x.entry)
  untie(this, x.op, x.signal, x.abort)
  if (!x.settled) x.reject(closedEarly()) // reset with no error code before its response (no 'error' then)
}

/**
 * Ties a request's (or an HTTP/2 stream's) end to what ends its fetch: the operation the byte sources
 * handed over (its end destroys what is bound to it), or else the fetch's signal. The signal is watched
 * here rather than handed to http.request, which ties it to the request's and the response's stream ends
 * through a dozen listeners each: one listener, removed at close (untie()).
 * @param {{ destroy(error?: unknown): void }} target
 * @param {import('./shared.js').Operation | undefined} op
 * @param {AbortSignal | null | undefined} signal
 * @returns {(() => void) | undefined} the signal's listener, when one was added
 */
function endWith(target, op, signal) {
  if (op) {
    op.bind(target)
    return undefined
  }
  if (!signal) return undefined
  const abort = () => target.destroy(signal.reason)
  signal.addEventListener('abort', abort, { once: true })
  return abort
}

/**
 * At the close of what endWith() tied: nothing of it left on the operation or the signal.
 * @param {{ destroy(error?: unknown): void }} target
 * @param {import('./shared.js').Operation | undefined} op
 * @param {AbortSignal | null | undefined} signal
 * @param {(() => void) | undefined} abort endWith()'s answer
 */
function untie(target, op, signal, abort) {
  if (op) op.unbind(target)
  else if (abort) signal?.removeEventListener('abort', abort)
}

/**
 * The response to a request once its headers are in, or the next request of a redirect (see send()).
 * @param {number} status
 * @param {string} statusText
 * @param {import('node:http').IncomingHttpHeaders} responseHeaders
 * @param {ResponseMessage} message the body's stream: an IncomingMessage, or an HTTP/2 stream
 * @param {Target} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {NodeInit} init
 * @param {number} redirects
 * @returns {NodeResponse | Promise<NodeResponse>}
 */
function answered(status, statusText, responseHeaders, message, url, method, headers, init, redirects) {
  const location = responseHeaders.location
  if (!REDIRECTS.has(status) || !location || init.redirect === 'manual') {
    const encoding = responseHeaders['content-encoding']
    const decoder = encoding === undefined ? undefined : DECODERS[encoding.trim().toLowerCase()]
    const head = { status, statusText, headers: responseHeaders, url, redirected: redirects > 0 }
    if (decoder === undefined) return new NodeFetchResponse(head, message, undefined)
    return (zlibLoading ??= import('node:zlib')).then((zlib) => new NodeFetchResponse(head, message, zlib[decoder]))
  }
  message.destroy()
  if (init.redirect === 'error') throw new TypeError(`fetch failed: redirected to ${location}`)
  if (redirects === MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects`)
  const next = target(new URL(location, url.href).href)
  let nextHeaders = headers
  if (next.origin !== url.origin && 'authorization' in headers) {
    nextHeaders = {}
    for (const name in headers) if (name !== 'authorization') nextHeaders[name] = headers[name]
  }
  return send(next, method, nextHeaders, init, redirects + 1)
}

/**
 * A response's body as it comes: HTTP/1.1's IncomingMessage (complete once its body has all come) or an
 * HTTP/2 stream (readableEnded then).
 * @typedef {import('node:stream').Readable & { complete?: boolean }} ResponseMessage
 */

/** @param {ResponseMessage} message */
function complete(message) {
  return message.complete ?? message.readableEnded
}

/**
 * A Response-like view of an IncomingMessage or an HTTP/2 stream; its body is read once, through getReader(), EACH_CHUNK
 * or a method.
 */
class NodeFetchResponse {
  #body

  /**
   * @param {{ status: number, statusText: string, headers: import('node:http').IncomingHttpHeaders, url: Target,
   *   redirected: boolean }} head
   * @param {ResponseMessage} message
   * @param {(() => import('node:stream').Transform) | undefined} decoder for the body's content-encoding
   */
  constructor({ status, statusText, headers, url, redirected }, message, decoder) {
    this.status = status
    this.statusText = statusText
    this.ok = status >= 200 && status < 300
    this.url = url.href
    this.redirected = redirected
    this.headers = new NodeHeaders(headers)
    if (decoder) {
      const decoded = message.pipe(decoder())
      message.once('error', (error) => decoded.destroy(error))
      this.#body = new NodeBody(decoded, message)
    } else {
      this.#body = new NodeBody(message, message)
    }
  }

  get body() {
    return this.#body
  }

  get bodyUsed() {
    return this.#body.used
  }

  async arrayBuffer() {
    /** @type {Uint8Array[]} */
    const chunks = []
    await this.#body[EACH_CHUNK]((chunk) => { chunks.push(chunk) })
    // A copy of its own: a small Buffer.concat lives in Node's shared pool, beside other bytes.
    const joined = Buffer.concat(chunks)
    return joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength)
  }

  async text() {
    return new TextDecoder().decode(await this.arrayBuffer())
  }
}

/** A response's headers as fetch's Headers answers get(): one object, its method shared. */
class NodeHeaders {
  #raw

  /** @param {import('node:http').IncomingHttpHeaders} raw */
  constructor(raw) {
    this.#raw = raw
  }

  /** @param {string} name */
  get(name) {
    const value = this.#raw[name.toLowerCase()]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value)
  }
}

/**
 * The ReadableStream surface the sources use: getReader() with read() and cancel(), locked, cancel(); and
 * EACH_CHUNK (js/sources/shared.js), which hands every chunk to a callback with one promise for the whole body.
 */
class NodeBody {
  #stream
  #message
  used = false
  locked = false

  /**
   * @param {import('node:stream').Readable} stream the body's bytes (decoded when the server compressed them)
   * @param {ResponseMessage} message
   */
  constructor(stream, message) {
    this.#stream = stream
    this.#message = message
  }

  getReader() {
    this.#lock()
    const chunks = new ChunkQueue(this.#stream)
    return {
      read: () => chunks.next(),
      cancel: async () => this.#destroy(),
      releaseLock: () => {},
    }
  }

  /**
   * Every chunk handed to `onChunk` as it comes (the stream flows: a chunk is copied as it comes, so no
   * queue is needed); resolves at the end, rejects when the connection fails, and when onChunk throws,
   * destroys the body and rejects with what it threw.
   * @param {(chunk: Uint8Array) => void} onChunk
   * @returns {Promise<void>}
   */
  [EACH_CHUNK](onChunk) {
    try {
      this.#lock()
    } catch (error) {
      return Promise.reject(error)
    }
    const stream = this.#stream
    if (stream.destroyed || (this.#message.destroyed && !complete(this.#message))) return Promise.reject(closedEarly())
    return new Promise((resolve, reject) => {
      let failed = false
      const fail = (/** @type {unknown} */ error) => {
        if (failed) return
        failed = true
        reject(error)
      }
      stream.on('data', (chunk) => {
        if (failed) return
        try {
          onChunk(chunk)
        } catch (error) {
          fail(error)
          this.#destroy()
        }
      })
      stream.on('end', resolve)
      stream.on('error', fail)
      // A connection reset mid-body ends with 'close' (or 'aborted') and no 'end'.
      stream.on('close', () => {
        if (!stream.readableEnded) fail(failed ? undefined : closedEarly())
      })
    })
  }

  async cancel() {
    this.used = true
    this.#destroy()
  }

  /**
   * Ends the transfer now (an abort): the body's reading fails with `reason`.
   * @param {unknown} reason
   */
  destroy(reason) {
    if (complete(this.#message) && this.#stream.readableEnded) return
    this.#stream.destroy(/** @type {Error} */ (reason))
    this.#message.destroy(/** @type {Error} */ (reason))
  }

  #lock() {
    if (this.locked) throw new TypeError('the body is locked to a reader')
    this.locked = true
    this.used = true
  }

  #destroy() {
    if (!complete(this.#message) || !this.#stream.readableEnded) {
      this.#stream.destroy()
      this.#message.destroy()
    }
  }
}

/** The error of a body whose connection closed before its end: made only then, its stack trace costing more than a small body's reading. */
function closedEarly() {
  return Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' })
}

// A stream's chunks handed out one read() at a time: the stream flows into a queue of its 'data'
// events, paused while a chunk waits unread. Cheaper than the stream's async iterator, whose set-up
// (end-of-stream watching, a promise per step) costs more than a small range response itself.
/** @typedef {{ resolve: (r: { done: boolean, value: any }) => void, reject: (e: unknown) => void }} Waiting a read() waiting for a chunk */
class ChunkQueue {
  #stream
  /** @type {Uint8Array[]} */
  #chunks = []
  #ended = false
  /** @type {unknown} */
  #error
  /** @type {Waiting | undefined} */
  #waiting

  /** @param {import('node:stream').Readable} stream */
  constructor(stream) {
    this.#stream = stream
    stream.on('data', (chunk) => {
      if (this.#waiting) this.#settle().resolve({ done: false, value: chunk })
      else {
        this.#chunks.push(chunk)
        stream.pause()
      }
    })
    stream.once('end', () => {
      this.#ended = true
      this.#waiting && this.#settle().resolve({ done: true, value: undefined })
    })
    const fail = (/** @type {unknown} */ error) => {
      if (this.#ended) return
      this.#error = error
      this.#waiting && this.#settle().reject(error)
    }
    stream.once('error', fail)
    // A connection reset mid-body ends with 'close' (or 'aborted') and no 'end'. The error is made only
    // then: its stack trace costs more than the rest of a small response's reading.
    stream.once('close', () => {
      if (!this.#ended) fail(closedEarly())
    })
  }

  /** @returns {Promise<{ done: boolean, value: any }>} */
  next() {
    const chunk = this.#chunks.shift()
    if (chunk) {
      if (this.#chunks.length === 0) this.#stream.resume()
      return Promise.resolve({ done: false, value: chunk })
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined })
    if (this.#error !== undefined) return Promise.reject(this.#error)
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject }
      this.#stream.resume()
    })
  }

  #settle() {
    const waiting = /** @type {Waiting} */ (this.#waiting)
    this.#waiting = undefined
    return waiting
  }
}
