// Whole-object reads and HEADs (js/sources/object-reads.js) against a local server that counts requests
// and fails on demand: the bytes are the file's, a missing object is null or FILE_NOT_FOUND, transient
// failures are retried (counted server-side and in stats), validators are the server's own headers, and
// no credential of the URL or the headers reaches a message.
import assert from 'node:assert/strict'
import { randomFillSync } from 'node:crypto'
import { statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, afterEach, before, describe, test } from 'node:test'

import { ErrorCode, ParquetBloomError } from '../../js/errors.js'
import { headObject, openObject, readObject } from '../../js/sources/object-reads.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('object-reads')
const bytes = randomFillSync(Buffer.alloc(200_000))
const SECRET = 'sig-value-MUST-NOT-APPEAR'
const TOKEN = 'Bearer header-token-MUST-NOT-APPEAR'
let server

before(async () => {
  writeFileSync(path.join(dir, 'object.bin'), bytes)
  server = await startTestServer({ root: dir })
})
after(async () => { await server?.close() })
afterEach(() => {
  server.setMode()
  server.resetStats()
})

const same = (got) => assert.ok(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(bytes), 'bytes differ from the file')
const freshStats = () => ({ requests: 0, bytesFetched: 0, retries: 0 })

/** The error a promise rejects with, checked to be a ParquetBloomError of `code`. */
async function failure(promise, code) {
  const error = await promise.then(() => assert.fail('expected a rejection'), (e) => e)
  assert.ok(error instanceof ParquetBloomError, `not a ParquetBloomError: ${error?.stack ?? error}`)
  assert.equal(error.code, code, error.message)
  return error
}

describe('readObject', () => {
  test('reads the whole object, counting one request and its bytes', async () => {
    const stats = freshStats()
    same(await readObject(server.url('object.bin'), { stats }))
    assert.deepEqual(stats, { requests: 1, bytesFetched: bytes.length, retries: 0 })
    assert.equal(server.stats.requests, 1)
    same(await readObject(path.join(dir, 'object.bin')))
  })

  test('a first request answered 503 (or 429, 500) is retried: the object is read, the retry counted on both sides', async () => {
    for (const status of [503, 429, 500]) {
      server.resetStats()
      const stats = freshStats()
      same(await readObject(server.url('object.bin', { mode: `fail-first:${status}` }), { stats }))
      assert.equal(server.stats.requests, 2)
      assert.deepEqual(server.stats.log.map((r) => r.status), [status, 200])
      assert.deepEqual(stats, { requests: 2, bytesFetched: bytes.length, retries: 1 })
    }
  })

  test('a connection dropped mid-body is retried; with retries: 0 it is IO', async () => {
    const stats = freshStats()
    await failure(readObject(server.url('object.bin', { mode: 'drop' }), { stats, retries: 0 }), ErrorCode.IO)
    assert.equal(server.stats.requests, 1)
    server.resetStats()
    await failure(readObject(server.url('object.bin', { mode: 'drop' }), { stats: freshStats(), retries: 2 }), ErrorCode.IO)
    assert.equal(server.stats.requests, 3, 'the first attempt and two retries')
  })

  test('a missing object: null when optional, else FILE_NOT_FOUND with the status; 410 alike; 403 only when asked', async () => {
    assert.equal(await readObject(server.url('nope.json'), { optional: true }), null)
    assert.equal(await readObject(path.join(dir, 'nope.json'), { optional: true }), null)
    const error = await failure(readObject(server.url('nope.json')), ErrorCode.FILE_NOT_FOUND)
    assert.equal(error.status, 404)
    await failure(readObject(path.join(dir, 'nope.json')), ErrorCode.FILE_NOT_FOUND)
    assert.equal(await readObject(server.url('object.bin', { mode: 'status:410' }), { optional: true }), null)
    assert.equal(await readObject(server.url('object.bin', { mode: 'status:403' }), { optional: true, forbiddenIsMissing: true }), null)
    assert.equal((await failure(readObject(server.url('object.bin', { mode: 'status:403' }), { optional: true }), ErrorCode.HTTP_STATUS)).status, 403)
    server.resetStats()
    assert.equal((await failure(readObject(server.url('object.bin', { mode: 'status:403' })), ErrorCode.HTTP_STATUS)).status, 403)
    assert.equal(server.stats.requests, 1, 'a 4xx is an answer, not retried')
  })

  test('a status that stays 5xx is HTTP_STATUS after the retries', async () => {
    const stats = freshStats()
    const error = await failure(readObject(server.url('object.bin', { mode: 'status:502' }), { stats, retries: 2 }), ErrorCode.HTTP_STATUS)
    assert.equal(error.status, 502)
    assert.match(error.message, /HTTP 502.*bad gateway/)
    assert.equal(server.stats.requests, 3)
    assert.deepEqual(stats, { requests: 3, bytesFetched: 0, retries: 2 })
  })

  test('no credential of the URL or the headers appears in a message', async () => {
    const signed = new URL(server.url('object.bin', { mode: 'status:500' }))
    signed.searchParams.set('X-Amz-Signature', SECRET)
    const error = await failure(readObject(signed.href, { headers: { authorization: TOKEN }, retries: 0 }), ErrorCode.HTTP_STATUS)
    const missing = await failure(readObject(signed.href.replace('object.bin', 'nope.bin').replace('status%3A500', 'etag')), ErrorCode.FILE_NOT_FOUND)
    const refused = await failure(readObject(`http://user:${SECRET}@127.0.0.1:1/x.json`), ErrorCode.INVALID_ARGUMENT)
    const unreachable = await failure(readObject(`http://127.0.0.1:1/x.json?token=${SECRET}`, { retries: 0 }), ErrorCode.IO)
    for (const e of [error, missing, refused, unreachable]) {
      const shown = `${e.message} ${JSON.stringify(e)} ${e.source ?? ''}`
      assert.ok(!shown.includes(SECRET) && !shown.includes(TOKEN), `a credential appears in: ${shown}`)
    }
    assert.match(error.message, /X-Amz-Signature=…/)
    assert.equal(server.stats.log[0].path, '/object.bin', 'the signed URL was the one requested')
  })

  test('an abort ends the read at once, never retried; requestTimeoutMs is retried, then ABORTED', async () => {
    const controller = new AbortController()
    const reading = readObject(server.url('object.bin', { mode: 'slow:2000' }), { signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    const started = performance.now()
    await failure(reading, ErrorCode.ABORTED)
    assert.ok(performance.now() - started < 1000)
    server.resetStats()
    const stats = freshStats()
    await failure(readObject(server.url('object.bin', { mode: 'slow:2000' }), { requestTimeoutMs: 50, retries: 1, stats }), ErrorCode.ABORTED)
    assert.equal(stats.retries, 1)
    assert.equal(stats.requests, 2)
  })
})

describe('openObject', () => {
  test('tells whether the object exists before its body is read; the body read or dropped', async () => {
    assert.equal(await openObject(server.url('nope.json')), null)
    assert.equal(await openObject(server.url('object.bin', { mode: 'status:403' })), null)
    assert.equal(await openObject(path.join(dir, 'nope.json')), null)
    server.resetStats() // fail-first fails a path's first request since the reset
    const stats = freshStats()
    const found = await openObject(server.url('object.bin', { mode: 'fail-first:503' }), { stats })
    assert.ok(found)
    same(await found.read())
    assert.deepEqual(stats, { requests: 2, bytesFetched: bytes.length, retries: 1 })
    const local = await openObject(path.join(dir, 'object.bin'))
    same(await /** @type {any} */ (local).read())
    const dropped = await openObject(server.url('object.bin'))
    await /** @type {any} */ (dropped).cancel()
  })
})

describe('headObject', () => {
  test('the size and the validators the server sends (its own headers are the truth); null when gone', async () => {
    const truth = await fetch(server.url('object.bin', { mode: 'etag,last-modified' }), { method: 'HEAD' })
    const head = await headObject(server.url('object.bin', { mode: 'etag,last-modified' }))
    assert.deepEqual(head, { size: bytes.length, validator: { etag: truth.headers.get('etag'), weak: undefined, lastModified: truth.headers.get('last-modified') } })
    assert.equal(server.stats.log.at(-1).method, 'HEAD')
    assert.equal(await headObject(server.url('nope.bin')), null)
    assert.equal(await headObject(server.url('object.bin', { mode: 'status:410' })), null)
    assert.equal((await failure(headObject(server.url('object.bin', { mode: 'status:403' })), ErrorCode.HTTP_STATUS)).status, 403)
  })

  test('a HEAD answered 503 once is retried', async () => {
    const stats = freshStats()
    assert.equal((await headObject(server.url('object.bin', { mode: 'fail-first:503' }), { stats }))?.size, bytes.length)
    assert.deepEqual(server.stats.log.map((r) => [r.method, r.status]), [['HEAD', 503], ['HEAD', 200]])
    assert.equal(stats.retries, 1)
  })

  test('a local file: its size and modification time; null when there is no such file', async () => {
    const file = path.join(dir, 'object.bin')
    assert.deepEqual(await headObject(file), { size: bytes.length, validator: { mtimeMs: statSync(file).mtimeMs, ctimeMs: statSync(file).ctimeMs } })
    assert.equal(await headObject(path.join(dir, 'nope.bin')), null)
    assert.equal(await headObject(path.join(dir, 'object.bin', 'below-a-file')), null)
  })
})
