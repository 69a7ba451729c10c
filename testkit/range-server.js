// A local static file server for tests: `send` does the serving (Range, 206, 416, suffix ranges);
// this wrapper counts what it sends and misbehaves on demand the way real servers and proxies do.
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import https from 'node:https'
import path from 'node:path'
import send from 'send'

import { ResponseTimers } from './response-timers.js'

/**
 * Modes, chosen per request with ?mode=a,b (on the URL the client uses) or for every request without
 * one with server.setMode('a', 'b'):
 * - ignore-range      200 with the whole file, whatever the Range header says
 * - ignore-suffix     200 with the whole file for suffix ranges (bytes=-n) only
 * - suffix-416        a suffix longer than the file gets 416 bytes *\/size (Express/send) instead of the
 *                     whole file as a 206 (RFC 9110, what S3, GCS and nginx do, and the default here)
 * - no-suffix         416 with Content-Range: bytes *\/size for suffix ranges; no-suffix:400 and
 *                     no-suffix:501 answer that status instead, no-suffix:bare a 416 without Content-Range
 * - wrong-content-range  Content-Range shifted by one byte (the body is right)
 * - no-content-range  206 without Content-Range (as a browser sees a server that does not expose it)
 * - unknown-size      Content-Range total "*"
 * - change-size       from a path's second request on, Content-Range reports 1000 bytes more
 * - short-body        Content-Length and body cut to half of the range (a complete, short response)
 * - drop              promises the full length, sends half, then closes the connection
 * - chunked           no Content-Length (chunked transfer encoding)
 * - status:NNN        answers NNN with a small text body
 * - fail-first:NNN    answers NNN (a small text body) to the first request of each path since the start or
 *                     the last resetStats(), then serves normally: a transient failure a retry gets past
 * - redirect          302 to /moved/<path> (served like <path>, without the mode)
 * - slow:N            headers after N ms
 * - slow-body:N       headers and the first half of the first chunk at once, the rest after N ms
 * - wave:N            rounds counted at the server: every response waits until no request has come
 *                     for N ms, then the requests held are answered together and stats.rounds counts
 *                     one. A request sent only after some response (a read that needed a footer, or one
 *                     waiting for a slot of a full window) lands in the next round; requests sent
 *                     without waiting for each other share one, however long the client takes to send them.
 * - etag              a strong ETag from the file's content; If-Match is evaluated (strong comparison,
 *                     RFC 9110 §13.1.1) and a mismatch answers 412
 * - weak-etag         a weak ETag (W/"size-mtime"), which never satisfies If-Match
 * - nginx-etag        nginx's strong ETag, "<mtime in whole seconds, hex>-<size, hex>", with its Last-Modified: a tag
 *                     of the time and size, not of the bytes; If-Match is evaluated as with etag
 * - last-modified     Last-Modified from the file's mtime; If-Unmodified-Since earlier than it answers 412
 * - ignore-conditions sends the validators above but ignores If-Match / If-Unmodified-Since
 * Every timer belongs to its request and is cleared when the request ends or the server closes.
 * With `tls` ({ key, cert } in PEM) it serves HTTPS over HTTP/2 (node:http2, HTTP/1.1 for clients
 * that do not offer h2), for browsers' multiplexed transport; with `http2: false` too, HTTPS over
 * HTTP/1.1 only (node:https: its ALPN names no protocol). Over HTTP/2, `maxStreams` is the
 * SETTINGS_MAX_CONCURRENT_STREAMS it announces (default: node:http2's, 2^32 − 1), and `goawayAfter` n
 * closes each session gracefully once it has received n streams (a GOAWAY: the streams it names as
 * received are answered, later ones refused), as servers that cap a connection's requests do. With `goawayOnly`
 * too, the GOAWAY names the stream 10 before the n-th as the last it processes (the client sends those after it
 * again) and the server never closes the connection (node:http2's session.goaway() alone): the client must.
 *
 * @param {{ root: string, tls?: { key: string, cert: string }, http2?: boolean, maxStreams?: number,
 *   goawayAfter?: number, goawayOnly?: boolean }} options directory served at /
 */
export async function startTestServer({ root, tls, http2: offerH2 = true, maxStreams, goawayAfter, goawayOnly = false }) {
  const timers = new ResponseTimers()
  let defaultModes = []
  let beforeServe
  let stats = emptyStats()

  let inFlight = 0
  /** The requests held for the current wave (mode wave:N), answered when its timer fires. */
  let wave = { held: new Set(), timer: undefined }
  const holdForWave = (respond, res, ms) => {
    const current = wave
    current.held.add(respond)
    res.on('close', () => current.held.delete(respond))
    timers.cancel(current.timer)
    current.timer = timers.arm(() => {
      wave = { held: new Set(), timer: undefined }
      if (current.held.size > 0) stats.rounds++
      for (const answer of current.held) answer()
    }, ms)
  }
  /** @type {WeakSet<object>} HTTP/2 streams a goawayAfter server refuses: not answered */
  const refused = new WeakSet()
  const handler = (req, res) => {
    if (req.stream && refused.has(req.stream)) return
    const url = new URL(req.url, 'http://127.0.0.1')
    let urlPath
    try {
      urlPath = decodeURIComponent(url.pathname)
    } catch {
      res.writeHead(400, { 'content-length': 0 }).end()
      return
    }
    let modes = defaultModes
    try {
      if (url.searchParams.has('mode')) modes = parseModes(url.searchParams.get('mode'))
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(error.message)
      return
    }
    const entry = { method: req.method, path: urlPath, httpVersion: req.httpVersion, range: req.headers.range, status: undefined, bytesWritten: 0,
      ifMatch: req.headers['if-match'], ifUnmodifiedSince: req.headers['if-unmodified-since'], arrivedMs: performance.now() }
    const perPath = (stats.paths[urlPath] ??= { requests: 0, bytesWritten: 0, ranges: [] })
    stats.requests++
    stats.log.push(entry)
    inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight)
    perPath.requests++
    perPath.ranges.push(req.headers.range)
    const nth = perPath.requests
    const counted = stats
    const count = (n) => {
      entry.bytesWritten += n
      perPath.bytesWritten += n
      counted.bytesWritten += n
    }
    res.on('close', () => {
      entry.status = res.statusCode
      inFlight--
    })
    const later = (fn, ms) => timers.later(res, fn, ms)
    const respond = () => {
      beforeServe?.(entry, nth)
      serve({ req, res, urlPath, modes, nth, count, later, root })
    }
    if (modes.wave !== undefined) holdForWave(respond, res, modes.wave)
    else if (modes.slow !== undefined) later(respond, modes.slow)
    else respond()
  }
  const h2Settings = maxStreams === undefined ? {} : { settings: { maxConcurrentStreams: maxStreams } }
  const server = !tls ? http.createServer(handler)
    : offerH2 ? http2.createSecureServer({ ...tls, ...h2Settings, allowHTTP1: true }, handler) : https.createServer(tls, handler)
  if (tls && offerH2 && goawayAfter !== undefined) {
    server.on('session', (session) => {
      let received = 0
      session.on('stream', (stream) => {
        received++
        // Not from inside this event: it runs while node:http2 is still reading the frame, and closing the session
        // (or a stream) there can make it free a stream it then uses (nodejs/node#64113; Node 20 aborted with
        // "malloc(): smallbin double linked list corrupted"). Streams past the n-th are refused (REFUSED_STREAM:
        // never processed, so a client may send them again) and left unanswered by the handler.
        if (received > goawayAfter) {
          refused.add(stream)
          setImmediate(() => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM))
        } else if (received === goawayAfter) {
          setImmediate(() => goawayOnly ? session.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id - 20) : session.close())
        }
      })
    })
  }
  // Idle keep-alive connections stay open a minute, as object stores keep them, rather than Node's 5 s: a
  // client reusing one the server is closing sees a reset and retries, an extra round no test asked for.
  server.keepAliveTimeout = 60_000
  const sockets = new Set() // a TLS server has no closeAllConnections()
  server.on(tls ? 'secureConnection' : 'connection', () => stats.connections++)
  server.on('secureConnection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    // A dataset's first wave opens a connection per file at once: past the default backlog of 511
    // the kernel drops connection attempts, and the client's retransmit a second later is a false round.
    server.listen(0, '127.0.0.1', 4096, resolve)
  })
  const { port } = server.address()
  const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`

  return {
    origin,
    /** Request and byte counts since the start or the last resetStats(). */
    get stats() {
      return stats
    },
    resetStats() {
      stats = emptyStats()
    },
    /** Applies modes to every request whose URL has no ?mode=; setMode() with none goes back to normal. */
    setMode(...modes) {
      defaultModes = parseModes(modes.join(','))
    },
    /**
     * Calls fn(logEntry, nthRequestOfItsPath) before each request is served (e.g. to replace the file
     * between two requests of one probe); beforeServe() with none removes it.
     */
    beforeServe(fn) {
      beforeServe = fn
    },
    /** The URL of a served file, with modes when given. */
    url(filePath, { mode } = {}) {
      const u = new URL(filePath.startsWith('/') ? filePath : `/${filePath}`, origin)
      if (mode) {
        const text = Array.isArray(mode) ? mode.join(',') : mode
        parseModes(text) // a typo fails here, in the test, not as a puzzling HTTP 400
        u.searchParams.set('mode', text)
      }
      return u.href
    },
    /** Ends every connection and pending timer, so no test can hang on the server. */
    async close() {
      timers.clear()
      if (tls) for (const socket of sockets) socket.destroy()
      else server.closeAllConnections()
      await new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

function emptyStats() {
  return {
    requests: 0,
    bytesWritten: 0, // response body bytes handed to sockets
    maxInFlight: 0, // the most requests received and not yet answered at once
    connections: 0, // TCP connections accepted (TLS ones once their handshake is done)
    rounds: 0, // waves answered (mode wave:N)
    /** @type {Record<string, { requests: number, bytesWritten: number, ranges: (string | undefined)[] }>} */
    paths: {},
    /** @type {{ method: string, path: string, range: string | undefined, status: number | undefined, bytesWritten: number }[]} */
    log: [],
  }
}

function parseModes(text) {
  const modes = []
  for (const part of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const colon = part.indexOf(':')
    const name = colon < 0 ? part : part.slice(0, colon)
    const arg = colon < 0 ? undefined : part.slice(colon + 1)
    if (!KNOWN_MODES.has(name)) throw new Error(`test server: unknown mode ${JSON.stringify(part)}`)
    modes.push(name)
    modes[name] = arg === undefined ? true : arg
  }
  if (modes.slow !== undefined) modes.slow = Number(modes.slow === true ? 1000 : modes.slow)
  if (modes.wave !== undefined) modes.wave = Number(modes.wave === true ? 30 : modes.wave)
  return modes
}

const KNOWN_MODES = new Set(['ignore-range', 'ignore-suffix', 'suffix-416', 'no-suffix', 'wrong-content-range', 'no-content-range', 'unknown-size',
  'change-size', 'short-body', 'drop', 'chunked', 'status', 'redirect', 'slow', 'slow-body', 'wave', 'etag', 'weak-etag', 'last-modified',
  'nginx-etag', 'ignore-conditions', 'fail-first'])

function serve({ req, res, urlPath, modes, nth, count, later, root }) {
  const range = req.headers.range
  const isSuffix = typeof range === 'string' && /^bytes=\s*-\d+\s*$/.test(range)

  if (modes.status || (modes['fail-first'] && nth === 1)) {
    const status = Number(modes.status || modes['fail-first'])
    const body = `test server: status ${status} on request`
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) })
    count(Buffer.byteLength(body))
    res.end(body)
    return
  }
  if (modes.redirect && !urlPath.startsWith('/moved/')) {
    res.writeHead(302, { location: `/moved${encodeURI(urlPath)}`, 'content-length': 0 })
    res.end()
    return
  }
  const filePath = urlPath.startsWith('/moved/') ? urlPath.slice('/moved'.length) : urlPath
  if (!answerPreconditions(req, res, path.join(root, filePath), modes)) return

  if (modes['no-suffix'] && isSuffix) {
    const variant = modes['no-suffix']
    if (variant === '400' || variant === '501') {
      res.writeHead(Number(variant), { 'content-length': 0 })
      res.end()
      return
    }
    const headers = { 'content-length': 0 }
    if (variant !== 'bare') {
      try {
        headers['content-range'] = `bytes */${statSync(path.join(root, filePath)).size}`
      } catch {
        // Missing file: fall through to a 416 without a size.
      }
    }
    res.writeHead(416, headers)
    res.end()
    return
  }
  if (modes['ignore-range'] || (modes['ignore-suffix'] && isSuffix)) delete req.headers.range
  if (isSuffix && !modes['suffix-416']) {
    // RFC 9110 14.1.2: a suffix longer than the representation selects all of it. `send` refuses
    // with 416 instead, so rewrite the request the way conforming servers read it.
    try {
      const size = statSync(path.join(root, filePath)).size
      if (size > 0 && Number(range.replace(/[^\d]/g, '')) > size) req.headers.range = `bytes=0-${size - 1}`
    } catch {
      // Missing file: send answers 404.
    }
  }

  interceptHeaders(res, modes, nth)
  interceptBody(res, modes, count, later)
  send(req, encodeURI(filePath), { root, etag: false, lastModified: false, cacheControl: false }).pipe(res)
}

/** The strong ETags of files by path, kept while the file's inode, size, mtime and ctime stay the same. */
const contentTags = new Map()

/**
 * A strong ETag from the file's content, as an object store keeps it with the object: hashed again once
 * the file was written (ctime moves with every write, and with utimes too), not on every request — a
 * thousand requests at once would otherwise each read and hash a whole file. A file written in the last
 * two seconds is always hashed: file times tick coarsely, so two quick writes of one size may share them.
 */
function contentTag(file) {
  const { ino, size, mtimeNs, ctimeNs, ctimeMs } = statSync(file, { bigint: true })
  const version = `${ino}:${size}:${mtimeNs}:${ctimeNs}`
  const known = contentTags.get(file)
  if (known?.version === version) return known.tag
  const tag = `"${createHash('sha1').update(readFileSync(file)).digest('hex').slice(0, 20)}"`
  if (Date.now() - Number(ctimeMs) > 2000) contentTags.set(file, { version, tag })
  else contentTags.delete(file)
  return tag
}

/** Sends the validators the modes ask for; answers 412 (and returns false) when a precondition fails. */
function answerPreconditions(req, res, file, modes) {
  if (!modes.etag && !modes['weak-etag'] && !modes['last-modified'] && !modes['nginx-etag']) return true
  let stat
  try {
    stat = statSync(file)
  } catch {
    return true // send answers 404
  }
  const seconds = Math.floor(stat.mtimeMs / 1000)
  const etag = modes.etag
    ? contentTag(file)
    : modes['nginx-etag'] ? `"${seconds.toString(16)}-${stat.size.toString(16)}"`
      : modes['weak-etag'] ? `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"` : undefined
  const lastModified = modes['last-modified'] || modes['nginx-etag'] ? new Date(seconds * 1000).toUTCString() : undefined
  if (etag) res.setHeader('etag', etag)
  if (lastModified) res.setHeader('last-modified', lastModified)
  if (modes['ignore-conditions']) return true
  const ifMatch = req.headers['if-match']
  const ifUnmodifiedSince = req.headers['if-unmodified-since']
  let failed = false
  if (ifMatch !== undefined) {
    // Strong comparison: a weak tag on either side never matches.
    const tags = ifMatch.split(',').map((t) => t.trim())
    failed = !(tags.includes('*') || (etag && !etag.startsWith('W/') && tags.includes(etag)))
  } else if (ifUnmodifiedSince !== undefined && lastModified) {
    const since = Date.parse(ifUnmodifiedSince)
    failed = !Number.isNaN(since) && Date.parse(lastModified) > since
  }
  if (!failed) return true
  res.writeHead(412, { 'content-length': 0 })
  res.end()
  return false
}

function interceptHeaders(res, modes, nth) {
  const setHeader = res.setHeader.bind(res)
  res.setHeader = (name, value) => {
    const key = name.toLowerCase()
    if (key === 'content-range') {
      let text = String(value)
      if (modes['no-content-range']) return res
      if (modes['wrong-content-range']) text = text.replace(/^bytes (\d+)-(\d+)/, (_, a, b) => `bytes ${Number(a) + 1}-${Number(b) + 1}`)
      if (modes['unknown-size']) text = text.replace(/\/\d+$/, '/*')
      if (modes['change-size'] && nth >= 2) text = text.replace(/\/(\d+)$/, (_, total) => `/${Number(total) + 1000}`)
      return setHeader(name, text)
    }
    if (key === 'content-length' && (res.statusCode === 200 || res.statusCode === 206)) {
      const length = Number(value)
      if (modes.chunked) return res
      if (modes['short-body']) {
        res.bodyLimit = Math.floor(length / 2)
        return setHeader(name, res.bodyLimit)
      }
      if (modes.drop) res.dropAt = Math.floor(length / 2)
    }
    return setHeader(name, value)
  }
}

function interceptBody(res, modes, count, later) {
  const write = res.write.bind(res)
  const end = res.end.bind(res)
  let written = 0
  let holding = false
  let stalled = false
  const queue = []

  const pass = (chunk) => {
    if (res.destroyed) return false
    const limit = res.bodyLimit ?? res.dropAt
    const out = limit === undefined ? chunk : chunk.subarray(0, Math.max(0, limit - written))
    let ok = true
    if (out.length > 0) {
      written += out.length
      count(out.length)
      if (res.dropAt !== undefined && written >= res.dropAt) {
        write(out, () => res.socket?.destroy())
        return false
      }
      ok = write(out)
    } else if (res.dropAt !== undefined) {
      res.socket?.destroy()
      return false
    }
    return ok
  }

  res.write = (chunk, encoding, callback) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    if (holding) {
      queue.push(buffer)
      return true
    }
    if (modes['slow-body'] && !stalled && buffer.length > 0) {
      stalled = true
      const half = Math.ceil(buffer.length / 2)
      pass(buffer.subarray(0, half))
      queue.push(buffer.subarray(half))
      holding = true
      later(() => {
        holding = false
        while (queue.length > 0) {
          const next = queue.shift()
          if (next === END) return end()
          pass(next)
        }
      }, Number(modes['slow-body'] === true ? 1000 : modes['slow-body']))
      return true
    }
    const ok = pass(buffer)
    if (typeof callback === 'function') process.nextTick(callback)
    return ok
  }
  res.end = (chunk, encoding, callback) => {
    if (typeof chunk === 'function') return res.end(undefined, undefined, chunk)
    if (chunk !== undefined && chunk !== null) res.write(chunk, encoding)
    if (holding) {
      queue.push(END)
      return res
    }
    if (res.dropAt !== undefined && written >= res.dropAt) return res // already closing the connection
    return end(callback)
  }
}

const END = Symbol('end')
