// Node's range requests over node:http / node:https with keep-alive Agents, behind the fetch interface
// the byte sources use: Node's global fetch (undici) costs 2–3× the client CPU per small request
// (bench/sections/transport.js: 0.61 against 0.24 ms with 64 in flight), which dominates a probe of a
// thousand files. Loaded only in Node, and only when no options.fetch is given; Bun, Deno, workerd and
// browsers keep their own fetch. Redirects are followed like fetch's `redirect: 'follow'` (at most 20,
// Authorization dropped across origins).
import http from 'node:http'

const MAX_REDIRECTS = 20
const IDLE_TIMEOUT_MS = 300_000
// Sockets are not limited here: what is in flight is bounded by the window that sends it (a file's,
// js/plan/link-model.js NODE_WINDOW, or a dataset's, js/dataset/request-window.js NODE_MAX_WINDOW: a
// tail read per file). As many are kept idle, so a second probe of the same files opens no connection
// (a TCP handshake, and TLS's, is a round trip of its own). Idle sockets do not keep the process alive
// (the Agent unrefs them) and are closed after a minute.
const agentOptions = { keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity, timeout: 60_000, scheduling: /** @type {'lifo'} */ ('lifo') }
const httpAgent = new http.Agent(agentOptions)
// node:https (TLS with it) and node:zlib are loaded when first needed, by an https URL or a compressed
// body: a fresh process probing over http spends no time on either.
/** @type {Promise<{ client: typeof import('node:https'), agent: import('node:https').Agent }> | undefined} */
let httpsLoading
/** @type {Promise<typeof import('node:zlib')> | undefined} */
let zlibLoading
// What fetch decodes by itself, for servers that compress although asked for identity: node:zlib's factories.
const DECODERS = { gzip: 'createGunzip', 'x-gzip': 'createGunzip', deflate: 'createInflate', br: 'createBrotliDecompress' }

/**
 * The part of a fetch Response the byte sources read.
 * @typedef {{ status: number, statusText: string, ok: boolean, url: string, redirected: boolean,
 *   headers: { get(name: string): string | null }, body: NodeBody | null, bodyUsed: boolean,
 *   arrayBuffer(): Promise<ArrayBuffer>, text(): Promise<string> }} NodeResponse
 */

/**
 * fetch(url, { method, headers, signal, redirect }) over the keep-alive agents.
 * @param {string | URL} input
 * @param {{ method?: string, headers?: HeadersInit, signal?: AbortSignal, redirect?: string }} [init]
 * @returns {Promise<NodeResponse>}
 */
export async function nodeFetch(input, init = {}) {
  let url = new URL(String(input))
  const method = (init.method ?? 'GET').toUpperCase()
  const headers = headerRecord(init.headers)
  for (let redirects = 0; ; redirects++) {
    const answer = await send(url, method, headers, init.signal)
    const location = answer.headers.location
    if (!REDIRECTS.has(answer.statusCode ?? 0) || !location || init.redirect === 'manual') {
      const decoder = DECODERS[String(answer.headers['content-encoding'] ?? '').trim().toLowerCase()]
      return new NodeFetchResponse(answer, url, redirects > 0, decoder && (await (zlibLoading ??= import('node:zlib')))[decoder])
    }
    answer.destroy()
    if (init.redirect === 'error') throw new TypeError(`fetch failed: redirected to ${location}`)
    if (redirects === MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects`)
    const next = new URL(location, url)
    if (next.origin !== url.origin) delete headers.authorization
    url = next
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * The headers as a record of lower-cased names. A plain record (what the byte sources send) is copied
 * as it is: in a fresh process, the first touch of the Headers global loads all of undici (~20–35 ms).
 * @param {HeadersInit | undefined} init
 * @returns {Record<string, string>}
 */
function headerRecord(init) {
  if (init === undefined || init === null) return {}
  if (Object.getPrototypeOf(init) === Object.prototype) {
    return Object.fromEntries(Object.entries(init).map(([name, value]) => [name.toLowerCase(), String(value).trim()]))
  }
  return Object.fromEntries(new Headers(init))
}

/** @returns {Promise<import('node:http').IncomingMessage>} */
async function send(url, method, headers, signal) {
  let client, agent
  if (url.protocol === 'http:') [client, agent] = [http, httpAgent]
  else if (url.protocol === 'https:') ({ client, agent } = await (httpsLoading ??= import('node:https').then((https) => ({ client: https.default, agent: new https.default.Agent(agentOptions) }))))
  else throw new TypeError(`fetch failed: unsupported protocol ${url.protocol}`)
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method, headers, agent, signal }, resolve)
    request.once('error', (error) => reject(new TypeError('fetch failed', { cause: error })))
    // As undici's headers and body timeouts: a connection silent this long is dead (requestTimeoutMs,
    // when given, ends the request sooner).
    request.setTimeout(IDLE_TIMEOUT_MS, () => request.destroy(Object.assign(new Error(`the connection was silent for ${IDLE_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })))
    request.end()
  })
}

/** A Response-like view of an IncomingMessage; its body is read once, through getReader() or a method. */
class NodeFetchResponse {
  #body

  /**
   * @param {import('node:http').IncomingMessage} message
   * @param {URL} url
   * @param {boolean} redirected
   * @param {(() => import('node:stream').Transform) | undefined} decoder for the body's content-encoding
   */
  constructor(message, url, redirected, decoder) {
    this.status = message.statusCode ?? 0
    this.statusText = message.statusMessage ?? ''
    this.ok = this.status >= 200 && this.status < 300
    this.url = url.href
    this.redirected = redirected
    const raw = message.headers
    this.headers = {
      get(name) {
        const value = raw[name.toLowerCase()]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value)
      },
    }
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
    const chunks = []
    const reader = this.#body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
    }
    // A copy of its own: a small Buffer.concat lives in Node's shared pool, beside other bytes.
    const joined = Buffer.concat(chunks)
    return joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength)
  }

  async text() {
    return new TextDecoder().decode(await this.arrayBuffer())
  }
}

/** The ReadableStream surface the sources use: getReader() with read() and cancel(), locked, cancel(). */
class NodeBody {
  #stream
  #message
  used = false
  locked = false

  /**
   * @param {import('node:stream').Readable} stream the body's bytes (decoded when the server compressed them)
   * @param {import('node:http').IncomingMessage} message
   */
  constructor(stream, message) {
    this.#stream = stream
    this.#message = message
  }

  getReader() {
    if (this.locked) throw new TypeError('the body is locked to a reader')
    this.locked = true
    this.used = true
    const iterator = this.#stream[Symbol.asyncIterator]()
    return {
      read: async () => {
        const { done, value } = await iterator.next()
        return done ? { done: true, value: undefined } : { done: false, value: /** @type {Uint8Array} */ (value) }
      },
      cancel: async () => this.#destroy(),
      releaseLock: () => {},
    }
  }

  async cancel() {
    this.used = true
    this.#destroy()
  }

  #destroy() {
    if (!this.#message.complete || !this.#stream.readableEnded) {
      this.#stream.destroy()
      this.#message.destroy()
    }
  }
}
