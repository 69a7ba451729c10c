// Node's HTTP/2 connections (RFC 9113) for the https origins that offer it in TLS's ALPN (§3.2): a
// dataset's wave of thousands of range reads multiplexed over a few connections, rather than a TCP and a
// TLS handshake and a socket each (js/sources/node-transport.js decides per origin and sends over it).
// A few sessions per origin, each given streams up to the server's SETTINGS_MAX_CONCURRENT_STREAMS
// (§6.5.2); the first session is the connection that asked ALPN, so an origin costs one handshake to learn.
import http2 from 'node:http2'
import { isIP } from 'node:net'
import tls from 'node:tls'

// RFC 9113 §6.5.2: a peer should allow at least 100 concurrent streams; used until its SETTINGS arrive.
const STREAMS_BEFORE_SETTINGS = 100
// Node's own server advertises 2^32 − 1: one connection is still one TCP window and one parser, so a
// session takes at most this many at once, and a wave of 4,096 is spread over 16 sessions.
const MOST_STREAMS_PER_SESSION = 256
// Past this many sessions to one origin, a request waits for a stream to end (SessionPool.wait()): the
// dataset's window, not this, bounds what is in flight.
const MOST_SESSIONS = 64
const IDLE_SESSION_MS = 60_000
// A connection whose TLS handshake, or whose server's first SETTINGS, has not come in this long is given up,
// as the HTTP/1.1 Agent's would be (setHandshakeTimeout: tests shorten it).
let handshakeTimeoutMs = 60_000

/**
 * Sets how long a connection may take to agree on TLS and send its SETTINGS (default 60 s). For tests, which
 * check that a server saying nothing fails its requests rather than holding them.
 * @param {number} ms
 */
export function setHandshakeTimeout(ms) {
  handshakeTimeoutMs = ms
}
// Flow control (§6.9): the default windows are 64 KiB per connection and per stream, one round trip
// each at 30 ms is ~2 MB/s; a browser opens them to ~15 and ~6 MiB. Only a permission: bytes arrive
// no faster than they are read, and every body here is read as it comes.
const SESSION_WINDOW = 15 * 2 ** 20
const STREAM_WINDOW = 6 * 2 ** 20
// Headers a request over HTTP/2 must not carry (§8.2.2); Host becomes :authority, set by the session.
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host'])

/** What an origin speaks once known: 'h2', or 'http/1.1' (ALPN refused h2, or named nothing). */
/** @type {Map<string, 'h2' | 'http/1.1' | Promise<'h2' | 'http/1.1'>>} */
const protocols = new Map()
/** @type {Map<string, SessionPool>} */
const pools = new Map()

/**
 * The protocol an https origin speaks, or a promise of it when it is not known yet: the first request to
 * it opens a TLS connection offering h2 and HTTP/1.1, and keeps it as the origin's first session when the
 * server picks h2 (unless PARQUET_BLOOM_HTTP2=0). A connection that fails teaches nothing: the next request asks again.
 * @param {string} origin e.g. https://host:port
 * @param {string} host the host name (no brackets), for SNI and the connection
 * @param {string} port '' for 443
 * @returns {'h2' | 'http/1.1' | Promise<'h2' | 'http/1.1'>}
 */
export function originProtocol(origin, host, port) {
  const known = protocols.get(origin)
  if (known !== undefined) return known
  // PARQUET_BLOOM_HTTP2=0 (read when an origin is first asked): HTTP/1.1 without asking, for a proxy or server
  // whose h2 misbehaves.
  if (process.env.PARQUET_BLOOM_HTTP2 === '0') {
    protocols.set(origin, 'http/1.1')
    return 'http/1.1'
  }
  const asking = new Promise((resolve, reject) => {
    const socket = connectTls(host, port, ['h2', 'http/1.1'])
    socket.once('secureConnect', () => {
      socket.removeListener('error', reject)
      if (socket.alpnProtocol === 'h2') {
        // Known once its SETTINGS say how many streams a session takes: the first wave then opens as many
        // sessions as it needs, not one per 100 requests.
        // Kept referenced until then (the requests waiting for it keep no handle of their own), and unref'd
        // after if none of them took it.
        const entry = poolFor(origin, host, port).adopt(socket)
        const session = entry.session
        // A server that agreed on h2 and then says nothing would leave every request to it waiting.
        const silent = setTimeout(() => session.destroy(Object.assign(
          new Error(`no HTTP/2 settings from ${host} in ${handshakeTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' })), handshakeTimeoutMs)
        session.once('close', () => clearTimeout(silent))
        session.once('remoteSettings', (settings) => {
          clearTimeout(silent)
          if (settings.maxConcurrentStreams === 0) {
            // A server that takes no stream (§6.5.2 allows it): its streams would wait in nghttp2 until they
            // time out. HTTP/1.1 then, as if it had not offered h2. Destroyed after this event, not in it:
            // node:http2 emits it while still reading the frame, where freeing the session is the hazard that
            // crashed Node when our test server closed one inside its 'stream' event.
            setImmediate(() => session.destroy())
            resolve('http/1.1')
            return
          }
          resolve('h2')
          setImmediate(() => entry.inFlight === 0 && entry.open && session.unref())
        })
        session.once('error', reject)
        session.once('close', () => reject(new Error('the connection closed before its HTTP/2 settings')))
      } else {
        socket.destroy()
        resolve('http/1.1')
      }
    })
    socket.once('error', reject)
  }).then((protocol) => {
    protocols.set(origin, protocol)
    return protocol
  }, (error) => {
    protocols.delete(origin)
    throw error
  })
  protocols.set(origin, asking)
  return asking
}

/**
 * A TLS connection to host:port offering `alpn`, verified as https.request verifies one (the system's CAs
 * and NODE_EXTRA_CA_CERTS); SNI with a host name, not an IP address.
 * @param {string} host
 * @param {string} port
 * @param {string[]} alpn
 */
function connectTls(host, port, alpn) {
  const socket = tls.connect({ host, port: port === '' ? 443 : Number(port), ALPNProtocols: alpn,
    servername: isIP(host) ? undefined : host })
  socket.setTimeout(handshakeTimeoutMs, () => {
    socket.destroy(Object.assign(new Error(`no TLS handshake with ${host} in ${handshakeTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' }))
  })
  socket.once('secureConnect', () => socket.setTimeout(0))
  return socket
}

/**
 * The sessions of an origin that speaks h2.
 * @param {string} origin
 * @param {string} host
 * @param {string} port
 */
export function poolFor(origin, host, port) {
  let pool = pools.get(origin)
  if (pool === undefined) {
    pool = new SessionPool(origin, host, port)
    pools.set(origin, pool)
  }
  return pool
}

/**
 * A session and the streams it carries: `inFlight` counted by take() and release(), `room` the most it
 * takes (the server's limit once known), `open` false once it is closing or closed.
 */
export class SessionEntry {
  inFlight = 0
  room = STREAMS_BEFORE_SETTINGS
  open = true
  /** responses its streams received: one that times out while this stays as it was found the session silent */
  heard = 0

  /**
   * @param {import('node:http2').ClientHttp2Session} session
   * @param {import('node:tls').TLSSocket} socket its connection
   */
  constructor(session, socket) {
    this.session = session
    this.socket = socket
    /** @type {(() => void) | undefined} takes it out of its pool (SessionPool.retire) */
    this.leave = undefined
  }

  /**
   * Ends the connection of a session that left (a GOAWAY came) once its last stream ended. After a GOAWAY with
   * NO_ERROR node:http2 only half-closes it (socket.end()) and waits for the server to close its side; a server
   * that never does (node:http2's session.goaway() alone) held the socket, still referenced by the streams
   * it carried, and the probe's process never exited.
   */
  finish() {
    setImmediate(() => this.socket.destroy())
  }
}

/**
 * A request waiting for a stream (SessionPool.wait()): given a session's room, or undefined to take() again.
 * @typedef {{ given(room: SessionEntry | undefined): void }} StreamWaiter
 */

/**
 * One origin's sessions: a request takes the first with room, opening another when none has; past
 * MOST_SESSIONS it waits for a stream to end (wait()). A new session takes as many streams as the
 * origin's first said it takes: until its own SETTINGS come, nothing holds back streams past the limit.
 */
export class SessionPool {
  /** @type {SessionEntry[]} */
  #entries = []
  /** @type {StreamWaiter[]} requests waiting for a stream, first come first served */
  #waiting = []
  #room = STREAMS_BEFORE_SETTINGS
  #origin
  #host
  #port

  /**
   * @param {string} origin
   * @param {string} host
   * @param {string} port
   */
  constructor(origin, host, port) {
    this.#origin = origin
    this.#host = host
    this.#port = port
  }

  /**
   * A session with room for one stream more, counted until release(); undefined when every session is full
   * and no other may be opened (then wait()).
   * @returns {SessionEntry | undefined}
   */
  take() {
    const entries = this.#entries
    for (const entry of entries) if (entry.inFlight < entry.room) return this.#count(entry)
    if (entries.length < MOST_SESSIONS) return this.#count(this.#open(connectTls(this.#host, this.#port, ['h2'])))
    return undefined
  }

  /**
   * Queues `waiter` for a stream's room in a session, handed over as one ends (counted: release() it), or for
   * undefined when a session closed (take() again: there is room for another).
   * @param {StreamWaiter} waiter
   */
  wait(waiter) {
    this.#waiting.push(waiter)
  }

  /**
   * Takes `waiter` out of the queue (its request ended while it waited): false when it was no longer there.
   * @param {StreamWaiter} waiter
   */
  cancel(waiter) {
    const at = this.#waiting.indexOf(waiter)
    if (at < 0) return false
    this.#waiting.splice(at, 1)
    return true
  }

  /**
   * The end of a stream take() or wait() counted: its room goes to the first request waiting, if any.
   * @param {SessionEntry} entry
   */
  release(entry) {
    if (entry.open && entry.inFlight <= entry.room && this.#waiting.length > 0) {
      /** @type {StreamWaiter} */ (this.#waiting.shift()).given(entry)
      return
    }
    if (--entry.inFlight > 0) return
    if (entry.open) entry.session.unref() // idle: it does not keep the process alive
    else entry.finish()
  }

  /**
   * Takes `entry` out of the pool: no new stream on it, its connection destroyed once its last stream ends.
   * For a session that answered nothing while a stream of it timed out: a connection whose reading stopped
   * (its socket open, its bytes unread: seen under load on Node 20) would otherwise take every retry, as
   * take() gives the first session with room, and each would wait out its timeout there.
   * @param {SessionEntry} entry
   */
  retire(entry) {
    entry.leave?.()
  }

  /**
   * A connection that agreed on h2 as the origin's first session.
   * @param {import('node:tls').TLSSocket} socket
   */
  adopt(socket) {
    return this.#open(socket)
  }

  /** @param {SessionEntry} entry */
  #count(entry) {
    if (entry.inFlight++ === 0) entry.session.ref()
    return entry
  }

  /** @param {import('node:tls').TLSSocket} socket */
  #open(socket) {
    const session = http2.connect(this.#origin, {
      createConnection: () => socket,
      settings: { initialWindowSize: STREAM_WINDOW, enablePush: false },
    })
    const entry = new SessionEntry(session, socket)
    entry.room = this.#room
    this.#entries.push(entry)
    const leave = () => {
      if (!entry.open) return
      entry.open = false
      if (entry.inFlight === 0) entry.finish()
      const at = this.#entries.indexOf(entry)
      if (at >= 0) this.#entries.splice(at, 1)
      // Room for a session more: the requests waiting take() again.
      for (const waiting of this.#waiting.splice(0)) waiting.given(undefined)
    }
    entry.leave = leave
    session.once('connect', () => session.setLocalWindowSize(SESSION_WINDOW))
    session.on('remoteSettings', (settings) => {
      // At least one, so that a session allowing none for now (§6.5.2 permits 0) never leaves requests waiting
      // for a room: its stream waits in nghttp2 for the server's next SETTINGS, or its own timeout.
      const allowed = settings.maxConcurrentStreams ?? MOST_STREAMS_PER_SESSION
      entry.room = this.#room = Math.max(1, Math.min(MOST_STREAMS_PER_SESSION, allowed))
    })
    // A GOAWAY: streams it names as processed finish, later ones fail (retried by the sources); no new ones.
    session.once('goaway', leave)
    session.once('close', leave)
    // A session's error fails its streams, each with its own 'error'; here it is only taken out, and when it
    // never connected (the server behind the origin is another now, or refuses h2), the origin asked again.
    session.on('error', () => {
      if (session.connecting && protocols.get(this.#origin) === 'h2') protocols.delete(this.#origin)
      leave()
    })
    session.setTimeout(IDLE_SESSION_MS, () => {
      if (entry.inFlight === 0) session.close()
    })
    return entry
  }
}

/**
 * Whether the server never processed a stream that failed, so it may be sent again whatever its method
 * (RFC 9113 §8.7): it refused it, or it came after the last stream a GOAWAY named.
 * @param {import('node:http2').ClientHttp2Stream} stream
 */
export function neverProcessed(stream) {
  return stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM
}

/**
 * The request headers of an HTTP/2 stream: the record's, less connection-specific ones, with :path and,
 * when not GET, :method; `auth` (a URL's user:password) as Basic credentials unless Authorization is set.
 * @param {string} path
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {string | undefined} auth
 * @returns {import('node:http2').OutgoingHttpHeaders}
 */
export function streamHeaders(path, method, headers, auth) {
  /** @type {import('node:http2').OutgoingHttpHeaders} */
  const out = { ':path': path }
  if (method !== 'GET') out[':method'] = method
  for (const name in headers) if (!CONNECTION_HEADERS.has(name)) out[name] = headers[name]
  if (auth !== undefined && out.authorization === undefined) out.authorization = `Basic ${Buffer.from(auth).toString('base64')}`
  return out
}
