// js/sources/node-transport.js, Node's keep-alive client behind the fetch interface: it must answer as
// Node's own fetch does where the byte sources look — status, headers, body, redirects (Authorization
// not carried to another origin, at most 20), bodies a server compressed although asked not to, aborts
// — and reuse its connections.
import assert from 'node:assert/strict'
import http from 'node:http'
import { after, before, test } from 'node:test'
import zlib from 'node:zlib'

import { nodeFetch } from '../../js/sources/node-transport.js'

const BODY = Buffer.from('0123456789'.repeat(1000))
let a
let b
const seen = []
const sockets = new Set()

function serve(handler) {
  const server = http.createServer((req, res) => {
    sockets.add(req.socket)
    seen.push({ origin: server.origin, url: req.url, authorization: req.headers.authorization, socket: req.socket })
    handler(req, res)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    server.origin = `http://127.0.0.1:${server.address().port}`
    resolve(server)
  }))
}

before(async () => {
  b = await serve((req, res) => res.writeHead(200, { 'content-length': 2 }).end('ok'))
  a = await serve((req, res) => {
    const url = new URL(req.url, 'http://x')
    if (url.pathname === '/range') {
      const [, start, end] = /bytes=(\d+)-(\d+)/.exec(req.headers.range)
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${BODY.length}`, 'content-length': end - start + 1, etag: '"e"' })
      res.end(BODY.subarray(Number(start), Number(end) + 1))
    } else if (url.pathname === '/gzip') {
      const gz = zlib.gzipSync(BODY)
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': gz.length }).end(gz)
    } else if (url.pathname === '/hop') {
      const n = Number(url.searchParams.get('n'))
      res.writeHead(302, { location: n > 0 ? `/hop?n=${n - 1}` : '/range' }).end()
    } else if (url.pathname === '/away') {
      res.writeHead(307, { location: `${b.origin}/elsewhere` }).end()
    } else if (url.pathname === '/stall') {
      res.writeHead(200, { 'content-length': 100 })
      res.write('x')
    } else {
      res.writeHead(404).end()
    }
  })
})
after(async () => {
  for (const s of sockets) s.destroy()
  await Promise.all([a, b].map((s) => new Promise((resolve) => s.close(resolve))))
})

test('a range: status, headers and body bytes as fetch gives them; the connection is reused', async () => {
  seen.length = 0
  for (let i = 0; i < 3; i++) {
    const response = await nodeFetch(`${a.origin}/range`, { headers: new Headers({ range: 'bytes=10-19' }) })
    assert.equal(response.status, 206)
    assert.equal(response.headers.get('Content-Range'), `bytes 10-19/${BODY.length}`)
    assert.equal(response.headers.get('etag'), '"e"')
    assert.equal(response.headers.get('x-missing'), null)
    assert.equal(response.redirected, false)
    const chunks = []
    const reader = response.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
    }
    assert.equal(Buffer.concat(chunks).toString(), '0123456789')
    assert.equal(response.bodyUsed, true)
  }
  assert.equal(new Set(seen.map((s) => s.socket)).size, 1, 'one keep-alive connection for the three')
})

test('a gzip body the server sent anyway is decoded', async () => {
  const response = await nodeFetch(`${a.origin}/gzip`, { headers: { 'accept-encoding': 'identity' } })
  assert.deepEqual(Buffer.from(await response.arrayBuffer()), BODY)
})

test('redirects are followed (url and redirected set), at most 20, and Authorization stays on its origin', async () => {
  const response = await nodeFetch(`${a.origin}/hop?n=3`, { headers: { range: 'bytes=0-1', authorization: 'Bearer secret' } })
  assert.equal(response.status, 206)
  assert.equal(response.redirected, true)
  assert.equal(response.url, `${a.origin}/range`)
  await response.text()
  await assert.rejects(nodeFetch(`${a.origin}/hop?n=25`), /more than 20 redirects/)
  seen.length = 0
  const away = await nodeFetch(`${a.origin}/away`, { headers: { authorization: 'Bearer secret' } })
  assert.equal(await away.text(), 'ok')
  assert.deepEqual(seen.map((s) => [s.origin, s.authorization]), [[a.origin, 'Bearer secret'], [b.origin, undefined]])
})

test('an abort ends the request and a body read in progress', async () => {
  const controller = new AbortController()
  const response = await nodeFetch(`${a.origin}/stall`, { signal: controller.signal })
  const reader = response.body.getReader()
  assert.equal((await reader.read()).value.length, 1)
  const pending = reader.read()
  controller.abort()
  await assert.rejects(pending)
  await assert.rejects(nodeFetch(`${a.origin}/range`, { signal: AbortSignal.abort(), headers: { range: 'bytes=0-1' } }))
})

test('a refused connection is a TypeError with the cause, as fetch reports it', async () => {
  const closed = await serve(() => {})
  const origin = closed.origin
  await new Promise((resolve) => closed.close(resolve))
  await assert.rejects(nodeFetch(`${origin}/x`), (e) => e instanceof TypeError && e.cause?.code === 'ECONNREFUSED')
})

test('a kept-alive connection taken again waits for its answer as a new one does, whatever idle timeout the server hinted', async () => {
  // Node's Agent gives an idle socket the server's Keep-Alive hint less a second (timeout=2: 1 s) and, without a
  // request timeout of its own, leaves it so when the socket is taken again: an answer 1.5 s away was cut off (ETIMEDOUT).
  let n = 0
  const slow = await serve((req, res) => setTimeout(() => res.writeHead(200, { 'content-length': 2 }).end('ok'), ++n === 2 ? 1500 : 0))
  slow.keepAliveTimeout = 2000
  try {
    seen.length = 0
    for (let i = 0; i < 2; i++) {
      const response = await nodeFetch(`${slow.origin}/x`)
      assert.equal(response.headers.get('keep-alive'), 'timeout=2')
      assert.equal(await response.text(), 'ok')
    }
    assert.equal(new Set(seen.map((s) => s.socket)).size, 1, 'the second request went over the first one\'s connection')
  } finally {
    for (const s of seen) s.socket.destroy()
    await new Promise((resolve) => slow.close(resolve))
  }
})

test('the request\'s path is the URL\'s path and query: no fragment, nor an empty query or fragment\'s mark', async () => {
  // As before 6ef24c4 (pathname + search); a fragment is never sent (RFC 9110 §7.1: the target has none).
  const cases = [['/range', '/range'], ['/range?', '/range'], ['/range#', '/range'], ['/range?#', '/range'], ['/range#f', '/range'],
    ['/range?a=1#f', '/range?a=1'], ['/range?a=1', '/range?a=1'], ['/./a/../range', '/range'], ['/r%61nge', '/r%61nge']]
  for (const [spelled, sent] of cases) {
    seen.length = 0
    const response = await nodeFetch(`${a.origin}${spelled}`, { headers: { range: 'bytes=0-1' } })
    await response.text()
    assert.deepEqual(seen.map((s) => s.url), [sent], spelled)
  }
})
