// Node's transport over HTTPS (js/sources/node-transport.js, js/sources/node-http2.js): a server that picks
// h2 in ALPN gets a dataset's whole wave multiplexed over a few connections, one HTTP/2 stream per read; a
// server that speaks only HTTP/1.1 gets keep-alive sockets as over http. The files are hyparquet-writer's
// (testkit/sidecar-dataset.js), the servers node:http2's and node:https's with a certificate the openssl CLI
// makes (testkit/self-signed.js), and the truth is what the files hold: each value's file answers
// "maybe", every file the dataset writer says lacks it (its row groups' ranges rule it out) "absent".
// Servers that misbehave as real ones do: few streams a connection, a GOAWAY after 50, no stream at all,
// and ones that never finish the handshake or never send SETTINGS (the files then fail, in seconds).
import assert from 'node:assert/strict'
import net from 'node:net'
import path from 'node:path'
import tls from 'node:tls'
import { after, before, describe, test } from 'node:test'

import { init, openDataset, openParquet } from '../../js/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { selfSignedCertificate } from '../../testkit/self-signed.js'
import { datasetFileName, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { runNode } from './helpers/run-cli.js'

const FILES = 600
const child = path.join(import.meta.dirname, 'helpers', 'https-probe-child.js')
const waitAbortChild = path.join(import.meta.dirname, 'helpers', 'h2-wait-abort-child.js')
const dir = await tempDir('node-http2')

let certificate
let dataset
/** @type {Record<string, Awaited<ReturnType<typeof startTestServer>>>} */
const servers = {}

before(async () => {
  await init()
  dataset = await writeSidecarDataset(dir, { files: FILES, groups: 5, groupRows: 8 })
  certificate = await selfSignedCertificate(dir)
  const pem = { key: certificate.key, cert: certificate.cert }
  servers.h2 = await startTestServer({ root: dir, tls: pem })
  servers.http1 = await startTestServer({ root: dir, tls: pem, http2: false })
  servers.plain = await startTestServer({ root: dir })
  servers.fewStreams = await startTestServer({ root: dir, tls: pem, maxStreams: 8 })
  servers.goaway = await startTestServer({ root: dir, tls: pem, goawayAfter: 50 })
  servers.noStreams = await startTestServer({ root: dir, tls: pem, maxStreams: 0 })
  servers.goawayOpen = await startTestServer({ root: dir, tls: pem, goawayAfter: 50, goawayOnly: true })
  for (const server of Object.values(servers)) server.setMode('slow:30')
})

after(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()))
})

/**
 * Probes every file of `server` for the value of file `holder`'s first row, in a child that trusts the certificate:
 * what the child printed, and what the server saw (its stats reset first); `env` adds to the child's environment.
 */
async function probeOver(server, holder, extra = {}, env = {}) {
  server.resetStats()
  const urls = Array.from({ length: FILES }, (_, f) => server.url(datasetFileName(f)))
  const value = String(dataset.valuesOf(holder)[0])
  const { stdout, stderr, code } = await runNode([child, JSON.stringify({ urls, column: 'id', value, ...extra })],
    { env: { NODE_EXTRA_CA_CERTS: certificate.certFile, ...env }, timeout: 60_000 })
  assert.equal(code, 0, stderr)
  return { result: JSON.parse(stdout), stats: server.stats }
}

/** The files whose row groups' ranges (from the values written) could hold `value`. */
function filesInRange(value) {
  const out = new Set()
  for (let f = 0; f < FILES; f++) {
    const values = dataset.valuesOf(f)
    for (let g = 0; g < 5; g++) {
      const group = values.slice(g * 8, g * 8 + 8)
      const min = group.reduce((a, b) => (b < a ? b : a))
      const max = group.reduce((a, b) => (b > a ? b : a))
      if (value >= min && value <= max) out.add(f)
    }
  }
  return out
}

/** Every file answered, as the files say: "maybe" where a row group's range holds the value of file `holder`, else "absent". */
function assertAnswersFor(result, holder) {
  const inRange = filesInRange(dataset.valuesOf(holder)[0])
  assert.ok(inRange.has(holder))
  assert.equal(result.files.length, FILES)
  for (const [f, file] of result.files.entries()) {
    assert.equal(file.error, undefined, datasetFileName(f))
    assert.equal(file.verdict, inRange.has(f) ? 'maybe' : 'absent', datasetFileName(f))
  }
}

/**
 * The streams sent again (refused, or past a GOAWAY's last one) counted as the requests they are, as retries (docs/api.md:
 * `retries` counts the requests sent again, `requests` includes them): every file's first request is the only one not a
 * retry, and at least as many requests as the server answered (each stream it answered was one the client sent). They
 * were counted in neither: 800 requests (200 retries) for the 1,456 the server answered.
 */
function assertResendsCounted(probeStats, answered) {
  assert.equal(probeStats.requests - probeStats.retries, FILES, JSON.stringify(probeStats))
  assert.ok(probeStats.requests >= answered, `${probeStats.requests} requests counted, ${answered} answered`)
}

describe('Node transport over HTTPS', () => {
  test('h2 in ALPN: every read an HTTP/2 stream over a few connections, the answers the files say', async () => {
    const holder = 123
    const { result, stats } = await probeOver(servers.h2, holder)
    assert.equal(stats.log.length, FILES, 'one read per file (its tail holds the whole file)')
    assert.ok(stats.log.every((entry) => entry.httpVersion === '2.0'), 'every request over HTTP/2')
    // One connection asks ALPN; the wave then opens sessions of up to 256 streams each (the server's limit is higher).
    assert.ok(stats.connections <= 1 + Math.ceil(FILES / 100), `${stats.connections} connections for ${FILES} files`)
    assert.ok(result.stats.rounds <= 2, `${result.stats.rounds} rounds`)
    assert.equal(result.stats.window, FILES, 'the whole wave at once')
    assertAnswersFor(result, holder)
  })

  test('a server without h2 in ALPN: HTTP/1.1 keep-alive sockets, at most 256 at once (a TLS handshake each), the same answers', async () => {
    const holder = 321
    const { result, stats } = await probeOver(servers.http1, holder)
    assert.equal(stats.log.length, FILES)
    assert.ok(stats.log.every((entry) => entry.httpVersion === '1.1'))
    // The window is asked of the origin before the wave: one connection asks ALPN, then 256 carry the 600 reads.
    assert.equal(result.stats.window, 256)
    assert.ok(stats.connections <= 1 + 256, `${stats.connections} connections for ${FILES} files`)
    assert.ok(result.stats.rounds >= Math.ceil(FILES / 256), `${result.stats.rounds} rounds`)
    assertAnswersFor(result, holder)
  })

  test('PARQUET_BLOOM_HTTP2=0: a server that picks h2 is read over HTTP/1.1 with no ALPN question, the same answers', async () => {
    const holder = 222
    const { result, stats } = await probeOver(servers.h2, holder, {}, { PARQUET_BLOOM_HTTP2: '0' })
    assert.equal(stats.log.length, FILES)
    assert.ok(stats.log.every((entry) => entry.httpVersion === '1.1'), 'every request over HTTP/1.1')
    assert.equal(result.stats.window, 256)
    assert.ok(stats.connections <= 256, `${stats.connections} connections for ${FILES} files`)
    assertAnswersFor(result, holder)
  })

  test('an abort mid-wave ends the probe with ABORTED and resets the streams in flight', async () => {
    servers.h2.setMode('slow:5000')
    const started = performance.now()
    try {
      const { result } = await probeOver(servers.h2, 5, { abortAfterMs: 700 })
      assert.equal(result.aborted, 'ABORTED')
      // The child exits at the abort: no stream left open holds it until the server's answers.
      assert.ok(performance.now() - started < 4000, `the child took ${performance.now() - started} ms`)
    } finally {
      servers.h2.setMode('slow:30')
    }
    assert.ok(servers.h2.stats.log.length > 0)
  })

  test('a server that takes 8 streams a connection: more sessions, each within its limit, the same answers', async () => {
    const holder = 77
    const { result, stats } = await probeOver(servers.fewStreams, holder)
    assert.equal(stats.log.length, FILES)
    // At most 64 sessions to an origin (js/sources/node-http2.js): past that, requests wait in one for a free stream.
    assert.ok(stats.connections > 8 && stats.connections <= 65, `${stats.connections} connections`)
    assertAnswersFor(result, holder)
  })

  test('a request waiting for a stream (every session full) ends at its abort, not once a stream frees', async () => {
    servers.fewStreams.setMode('slow:5000')
    try {
      const url = servers.fewStreams.url(datasetFileName(0))
      const { stdout, stderr, code } = await runNode([waitAbortChild, JSON.stringify({ url, streams: 8, abortAfterMs: 500 })],
        { env: { NODE_EXTRA_CA_CERTS: certificate.certFile }, timeout: 60_000 })
      assert.equal(code, 0, stderr)
      const { waitedMs, name, held } = JSON.parse(stdout)
      assert.equal(name, 'AbortError')
      assert.ok(waitedMs < 1000, `rejected ${waitedMs} ms after its abort`)
      // Every stream still held by the server (5 s each): the abort alone ended the waiting request.
      assert.ok(held > 64 * 8, `${held} requests unanswered`)
    } finally {
      servers.fewStreams.setMode('slow:30')
    }
  })

  test('a server that closes each connection after 50 streams (GOAWAY): the refused reads sent again, the same answers', async () => {
    const holder = 450
    const { result, stats } = await probeOver(servers.goaway, holder)
    assert.ok(stats.connections >= Math.ceil(FILES / 50), `${stats.connections} connections`)
    assertResendsCounted(result.stats, stats.log.length)
    assertAnswersFor(result, holder)
  })

  test('a GOAWAY naming a stream below those in flight, the connection left open: the same answers, the child exits', async () => {
    // node:http2 only half-closes a session after a GOAWAY with NO_ERROR, waiting for the server to close its side; the
    // socket, referenced while it carried streams, kept the probe's process alive until the server went (killed at 20 s here).
    const holder = 321
    servers.goawayOpen.resetStats()
    const urls = Array.from({ length: FILES }, (_, f) => servers.goawayOpen.url(datasetFileName(f)))
    const value = String(dataset.valuesOf(holder)[0])
    const { stdout, stderr, code, signal } = await runNode([child, JSON.stringify({ urls, column: 'id', value })],
      { env: { NODE_EXTRA_CA_CERTS: certificate.certFile }, timeout: 20_000 })
    assert.equal(signal, null, 'the child exited by itself')
    assert.equal(code, 0, stderr)
    // Streams past the GOAWAY's last one were sent again: the server saw more than one per file.
    assert.ok(servers.goawayOpen.stats.log.length > FILES, `${servers.goawayOpen.stats.log.length} requests`)
    assertResendsCounted(JSON.parse(stdout).stats, servers.goawayOpen.stats.log.length)
    assertAnswersFor(JSON.parse(stdout), holder)
  })

  test('a connection that goes silent (no stream answered): the timed-out reads retried over another, every file answered', async () => {
    // The first connection (the one that asked ALPN) is silent: node:http2 server that answers no stream of it, as a client
    // whose reading of a session stopped sees it. take() gives the first session with room, so every retry went to it again
    // and the files failed ABORTED after their timeouts; a session that answered nothing while a stream timed out is left.
    const { readFile } = await import('node:fs/promises')
    const http2 = (await import('node:http2')).default
    let sessions = 0
    const silentSessions = new WeakSet()
    let answered = 0
    const server = http2.createSecureServer({ key: certificate.key, cert: certificate.cert })
    server.on('session', (session) => { if (sessions++ === 0) silentSessions.add(session) })
    server.on('stream', async (stream, headers) => {
      stream.on('error', () => {}) // the client's resets of the streams it gave up
      if (silentSessions.has(stream.session)) return
      const bytes = await readFile(path.join(dir, decodeURIComponent(String(headers[':path']).slice(1))))
      const [, from, to] = /^bytes=(\d*)-(\d*)$/.exec(String(headers.range)) ?? []
      const start = from === '' ? Math.max(0, bytes.length - Number(to)) : Number(from)
      const end = from === '' || to === '' ? bytes.length - 1 : Math.min(Number(to), bytes.length - 1)
      answered++
      stream.respond({ ':status': 206, 'content-range': `bytes ${start}-${end}/${bytes.length}`, 'content-length': end - start + 1 })
      stream.end(bytes.subarray(start, end + 1))
    })
    const port = await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
    try {
      const files = 40
      const holder = 17
      const urls = Array.from({ length: files }, (_, f) => `https://127.0.0.1:${port}/${datasetFileName(f)}`)
      const started = performance.now()
      const value = String(dataset.valuesOf(holder)[0])
      const { stdout, stderr, code } = await runNode([child, JSON.stringify({ urls, column: 'id', value, requestTimeoutMs: 500 })],
        { env: { NODE_EXTRA_CA_CERTS: certificate.certFile }, timeout: 60_000 })
      assert.equal(code, 0, stderr)
      const result = JSON.parse(stdout)
      assert.equal(result.aborted, undefined)
      const inRange = filesInRange(dataset.valuesOf(holder)[0])
      for (const [f, file] of result.files.entries()) {
        assert.equal(file.error, undefined, datasetFileName(f))
        assert.equal(file.verdict, inRange.has(f) ? 'maybe' : 'absent', datasetFileName(f))
      }
      assert.ok(answered >= files && sessions >= 2, `${answered} answered over ${sessions} connections`)
      assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`)
    } finally {
      server.close()
    }
  })

  test('a server that offers h2 but takes no stream (SETTINGS_MAX_CONCURRENT_STREAMS 0): HTTP/1.1, the same answers', async () => {
    const holder = 9
    const { result, stats } = await probeOver(servers.noStreams, holder)
    assert.ok(stats.log.length === FILES && stats.log.every((entry) => entry.httpVersion === '1.1'))
    assertAnswersFor(result, holder)
  })

  test('servers that agree on h2 and then say nothing, or never finish TLS: the files fail with IO, nothing waits for ever', async () => {
    // One completes the handshake (ALPN h2) and sends no SETTINGS; the other accepts TCP and sends nothing at all.
    const silentTls = tls.createServer({ key: certificate.key, cert: certificate.cert, ALPNProtocols: ['h2'] }, () => {})
    const silentTcp = net.createServer(() => {})
    const listening = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
    try {
      for (const port of [await listening(silentTls), await listening(silentTcp)]) {
        const urls = [`https://127.0.0.1:${port}/${datasetFileName(0)}`, `https://127.0.0.1:${port}/${datasetFileName(1)}`]
        const started = performance.now()
        const { stdout, stderr, code } = await runNode([child, JSON.stringify({ urls, column: 'id', value: '1', handshakeTimeoutMs: 300 })],
          { env: { NODE_EXTRA_CA_CERTS: certificate.certFile }, timeout: 60_000 })
        assert.equal(code, 0, stderr)
        const { files } = JSON.parse(stdout)
        assert.deepEqual(files.map((f) => f.error), ['IO', 'IO'])
        // Four attempts each (retries of a network error) of 0.3 s, with their backoff: seconds, not the 60 s default.
        assert.ok(performance.now() - started < 30_000, `${performance.now() - started} ms`)
      }
    } finally {
      silentTls.close()
      silentTcp.close()
    }
  })

  test('an abort while an https origin has not finished TLS ends the probe then, not when the handshake times out', async () => {
    const { setHandshakeTimeout } = await import('../../js/sources/node-http2.js')
    const silent = net.createServer(() => {}) // accepts, says nothing: no TLS handshake ever
    const port = await new Promise((resolve) => silent.listen(0, '127.0.0.1', () => resolve(silent.address().port)))
    setHandshakeTimeout(4_000) // bounds what the test leaves behind; the aborts must come long before
    try {
      const urls = [`https://127.0.0.1:${port}/a.parquet`, `https://127.0.0.1:${port}/b.parquet`]
      for (const run of [
        (signal) => openDataset(urls, { signal }).then((dataset) => dataset.probe('id', [1n])), // the dataset's ALPN question
        (signal) => openParquet(urls[0], { signal }), // a file's request waiting for the origin's answer
      ]) {
        const controller = new AbortController()
        setTimeout(() => controller.abort(), 300)
        const started = performance.now()
        await assert.rejects(run(controller.signal), (e) => e.code === 'ABORTED')
        assert.ok(performance.now() - started < 3000, `${performance.now() - started} ms`)
      }
    } finally {
      setHandshakeTimeout(60_000)
      silent.close()
    }
  })

  test('over plain http, HTTP/1.1 as before', async () => {
    servers.plain.resetStats()
    const urls = Array.from({ length: 20 }, (_, f) => servers.plain.url(datasetFileName(f)))
    const result = await (await openDataset(urls)).probe('id', [dataset.valuesOf(7)[0]])
    assert.equal(result.files[7].values[0].verdict, 'maybe')
    assert.ok(servers.plain.stats.log.every((entry) => entry.httpVersion === '1.1'))
  })
})
