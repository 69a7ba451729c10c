// Byte sources (js/sources/) against real bytes: every kind reads the same random files, and the HTTP
// source is run against a local server that counts requests and misbehaves like real servers do.
import assert from 'node:assert/strict'
import { randomFillSync } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, afterEach, before, describe, test } from 'node:test'
import { asyncBufferFromFile } from 'hyparquet'

import { ErrorCode, ParquetBloomError } from '../../js/errors.js'
import { openByteSource as openSource } from '../../js/sources/open-byte-source.js'
import { RequestWindow } from '../../js/dataset/request-window.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

// openByteSource gives a source at once where nothing is awaited for it and throws bad input at once: awaited here as
// callers await it, so that its refusals are rejections these tests can wait for.
const openByteSource = async (/** @type {any} */ source, /** @type {any} */ options) => openSource(source, options)

const MiB = 1024 * 1024
const TAIL = 64 * 1024

const dir = await tempDir('sources')
let server
const files = {}

before(async () => {
  const make = (name, size) => {
    files[name] = randomFillSync(Buffer.alloc(size))
    writeFileSync(path.join(dir, name), files[name])
  }
  make('data.bin', 3 * MiB + 123)
  make('small.bin', 10_000)
  make('one.bin', 1)
  make('empty.bin', 0)
  make('big.bin', 20 * MiB)
  mkdirSync(path.join(dir, 'a-directory'))
  server = await startTestServer({ root: dir })
})

after(async () => {
  await server?.close()
})

afterEach(() => {
  server.setMode()
  server.resetStats()
})

/** Asserts a rejection with a ParquetBloomError of `code` whose message matches every pattern. */
async function rejectsWith(promise, code, ...patterns) {
  let error
  await assert.rejects(promise, (e) => {
    error = e
    assert.ok(e instanceof ParquetBloomError, `expected a ParquetBloomError, got ${e?.stack ?? e}`)
    assert.equal(e.code, code, `code of: ${e.message}`)
    for (const pattern of patterns) assert.match(e.message, pattern)
    return true
  })
  return error
}

const same = (bytes, expected) => assert.ok(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(expected), 'bytes differ from the file')
const escape = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until condition() holds; fails (instead of hanging) after timeoutMs. */
async function waitFor(condition, what, timeoutMs = 2000) {
  const deadline = performance.now() + timeoutMs
  while (!condition()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

/**
 * A fetch stand-in that answers Range requests over `bytes` as RFC 9110 says (a suffix longer than the
 * file gets the whole file), optionally as if every request had been redirected to `redirectTo`.
 */
function fakeRangeFetch(bytes, { redirectTo } = {}) {
  const calls = []
  const fetch = async (url, init) => {
    const headers = new Headers(init.headers)
    calls.push({ url, headers })
    const range = headers.get('range')
    let start = 0
    let end = bytes.length - 1
    let m
    if ((m = /^bytes=-(\d+)$/.exec(range))) start = Math.max(0, bytes.length - Number(m[1]))
    else if ((m = /^bytes=(\d+)-(\d+)$/.exec(range))) [start, end] = [Number(m[1]), Math.min(Number(m[2]), end)]
    const response = new Response(bytes.subarray(start, end + 1), { status: 206, headers: { 'content-range': `bytes ${start}-${end}/${bytes.length}` } })
    if (redirectTo) {
      Object.defineProperty(response, 'redirected', { value: true })
      Object.defineProperty(response, 'url', { value: redirectTo })
    }
    return response
  }
  return { fetch, calls }
}

// One opener per source kind, each over the named file's bytes.
const KINDS = {
  buffer: (name, options) => openByteSource(files[name], options),
  'array-buffer': (name, options) => {
    const copy = new Uint8Array(files[name].length + 8)
    copy.set(files[name], 8)
    return openByteSource(new DataView(copy.buffer, 8), options)
  },
  blob: (name, options) => openByteSource(new Blob([files[name]]), options),
  file: (name, options) => openByteSource(path.join(dir, name), options),
  'file-url': (name, options) => openByteSource(pathToFileURL(path.join(dir, name)), options),
  'async-buffer': async (name, options) => openByteSource(await asyncBufferFromFile(path.join(dir, name)), options),
  http: (name, options) => openByteSource(server.url(name), options),
}

for (const [kind, open] of Object.entries(KINDS)) {
  describe(`every kind: ${kind}`, () => {
    test('readTail returns the last bytes and where they start; the size is known after', async () => {
      const source = await open('data.bin')
      const { offset, bytes } = await source.readTail(TAIL)
      assert.equal(source.size, files['data.bin'].length)
      assert.equal(offset, files['data.bin'].length - TAIL)
      same(bytes, files['data.bin'].subarray(offset))
      await source.close()
    })

    test('readTail longer than the file returns the whole file at offset 0', async () => {
      const source = await open('small.bin')
      const { offset, bytes } = await source.readTail(TAIL)
      assert.equal(offset, 0)
      same(bytes, files['small.bin'])
      await source.close()
    })

    test('an empty file has an empty tail', async () => {
      const source = await open('empty.bin')
      assert.deepEqual(await source.readTail(TAIL), { offset: 0, bytes: new Uint8Array(0) })
      assert.equal(source.size, 0)
      await source.close()
    })

    test('read returns exactly the requested ranges, in parallel too', async () => {
      const source = await open('data.bin')
      await source.readTail(16)
      const ranges = [[0, 1], [0, 4096], [1_000_003, 777_777], [files['data.bin'].length - 5, 5], [MiB, MiB]]
      const results = await Promise.all(ranges.map(([offset, length]) => source.read(offset, length)))
      results.forEach((bytes, i) => same(bytes, files['data.bin'].subarray(ranges[i][0], ranges[i][0] + ranges[i][1])))
      await source.close()
    })

    test('stats count reads and bytes; a zero-length read does no I/O', async () => {
      const source = await open('data.bin')
      await source.readTail(100)
      await source.read(10, 20)
      const before = { ...source.stats }
      assert.equal(before.requests, 2)
      assert.equal(before.bytesFetched, 120)
      assert.equal((await source.read(50, 0)).length, 0)
      assert.deepEqual(source.stats, before)
      await source.close()
    })

    test('reads past the end, bad offsets and lengths are refused', async () => {
      const source = await open('small.bin')
      await source.readTail(1)
      await rejectsWith(source.read(9_990, 11), ErrorCode.INVALID_ARGUMENT, /past the end/, /10000 bytes/)
      await rejectsWith(source.read(20_000, 1), ErrorCode.INVALID_ARGUMENT, /past the end/)
      await rejectsWith(source.read(-1, 1), ErrorCode.INVALID_ARGUMENT, /offset/)
      await rejectsWith(source.read(0, 1.5), ErrorCode.INVALID_ARGUMENT, /length/)
      await rejectsWith(source.read('0', 1), ErrorCode.INVALID_ARGUMENT, /offset/)
      await rejectsWith(source.readTail(0), ErrorCode.INVALID_ARGUMENT, /positive/)
      await rejectsWith(source.read(0, 1, { signal: 'nope' }), ErrorCode.INVALID_ARGUMENT, /AbortSignal/)
      await source.close()
    })

    test('a read longer than maxBytes is TOO_LARGE', async () => {
      const source = await open('data.bin', { maxBytes: 1000 })
      await rejectsWith(source.readTail(1001), ErrorCode.TOO_LARGE, /maxBytes/)
      await rejectsWith(source.read(0, 1001), ErrorCode.TOO_LARGE, /maxBytes \(1000\)/)
      await source.close()
    })

    test('an aborted signal, the call\'s or the source\'s, rejects with ABORTED', async () => {
      const source = await open('data.bin')
      await rejectsWith(source.read(0, 10, { signal: AbortSignal.abort() }), ErrorCode.ABORTED)
      const controller = new AbortController()
      const guarded = await open('data.bin', { signal: controller.signal })
      assert.equal((await guarded.read(0, 10)).length, 10)
      controller.abort()
      await rejectsWith(guarded.readTail(10), ErrorCode.ABORTED)
      await source.close()
      await guarded.close()
    })

    test('close() is idempotent and later reads fail naming the source', async () => {
      const source = await open('data.bin')
      await source.readTail(10)
      await source.close()
      await source.close()
      await rejectsWith(source.read(0, 10), ErrorCode.INVALID_ARGUMENT, /closed/, escape(source.name))
      await rejectsWith(source.readTail(10), ErrorCode.INVALID_ARGUMENT, /closed/)
    })
  })
}

describe('openByteSource', () => {
  test('names each kind of source', async () => {
    const url = server.url('data.bin')
    assert.equal((await openByteSource(url)).name, url)
    assert.equal((await openByteSource(new URL(url))).name, url)
    assert.equal((await openByteSource(files['data.bin'])).name, 'buffer')
    assert.equal((await openByteSource(new ArrayBuffer(4))).name, 'buffer')
    assert.equal((await openByteSource(new Blob([files['small.bin']]))).name, 'blob')
    assert.equal((await openByteSource(new File([files['small.bin']], 'x.parquet'))).name, 'blob:x.parquet')
    assert.equal((await openByteSource(path.join(dir, 'data.bin'))).name, path.join(dir, 'data.bin'))
    assert.equal((await openByteSource(pathToFileURL(path.join(dir, 'data.bin')).href)).name, path.join(dir, 'data.bin'))
    assert.equal((await openByteSource({ byteLength: 3, slice: () => new ArrayBuffer(0) })).name, 'async-buffer')
    assert.equal((await openByteSource(files['data.bin'], { name: 'my-upload' })).name, 'my-upload')
  })

  test('sizes are known up front for everything but URLs', async () => {
    assert.equal((await openByteSource(server.url('data.bin'))).size, undefined)
    assert.equal((await openByteSource(path.join(dir, 'data.bin'))).size, files['data.bin'].length)
    assert.equal((await openByteSource(new Blob([files['small.bin']]))).size, 10_000)
    assert.equal(server.stats.requests, 0, 'opening a URL sends nothing')
  })

  test('an object that already is a ByteSource is returned as is', async () => {
    const source = await openByteSource(files['small.bin'])
    assert.equal(await openByteSource(source), source)
  })

  test('anything else is INVALID_ARGUMENT', async () => {
    for (const bad of [42, null, undefined, {}, [], '', 's3://bucket/key.parquet', 'gs://bucket/x', new URL('ftp://example.com/x')]) {
      await rejectsWith(openByteSource(bad), ErrorCode.INVALID_ARGUMENT)
    }
    await rejectsWith(openByteSource({ byteLength: -1, slice() {} }), ErrorCode.INVALID_ARGUMENT, /byteLength/)
    await rejectsWith(openByteSource('https://user:secret@example.com/x.parquet'), ErrorCode.INVALID_ARGUMENT, /Authorization/)
  })

  test('bad options are INVALID_ARGUMENT; unknown option keys are ignored', async () => {
    const buffer = files['small.bin']
    await rejectsWith(openByteSource(buffer, { maxBytes: 0 }), ErrorCode.INVALID_ARGUMENT, /maxBytes/)
    await rejectsWith(openByteSource(buffer, { fetch: 'fetch' }), ErrorCode.INVALID_ARGUMENT, /fetch/)
    await rejectsWith(openByteSource(buffer, { signal: {} }), ErrorCode.INVALID_ARGUMENT, /signal/)
    await rejectsWith(openByteSource(buffer, { requestTimeoutMs: -5 }), ErrorCode.INVALID_ARGUMENT, /requestTimeoutMs/)
    await rejectsWith(openByteSource(buffer, { headers: [['bad header', 'x']] }), ErrorCode.INVALID_ARGUMENT, /headers/)
    await rejectsWith(openByteSource(buffer, 'options'), ErrorCode.INVALID_ARGUMENT, /options/)
    assert.equal((await openByteSource(buffer, { initialFetchSize: 1, concurrency: 4 })).size, 10_000)
  })

  test('credential-like query parameters are hidden in the name', async () => {
    const source = await openByteSource('https://bucket.example.com/x.parquet?X-Amz-Credential=AKIA&X-Amz-Signature=abc123&versionId=7#part')
    assert.equal(source.name, 'https://bucket.example.com/x.parquet?X-Amz-Credential=…&X-Amz-Signature=…&versionId=7')
    assert.equal((await openByteSource('https://x.blob.core.windows.net/c/f.parquet?sv=2022&sig=abc%2B')).name, 'https://x.blob.core.windows.net/c/f.parquet?sv=2022&sig=…')
  })
})

describe('file source', () => {
  test('a missing file is FILE_NOT_FOUND naming the path, at open', async () => {
    const missing = path.join(dir, 'missing.parquet')
    await rejectsWith(openByteSource(missing), ErrorCode.FILE_NOT_FOUND, escape(missing))
    await rejectsWith(openByteSource(pathToFileURL(missing)), ErrorCode.FILE_NOT_FOUND, escape(missing))
  })

  test('the file is opened once, on the first read, and close() closes it', { skip: !existsSync('/proc/self/fd') && 'needs /proc/self/fd' }, async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length
    const before = openFiles()
    const source = await openByteSource(path.join(dir, 'data.bin'))
    assert.equal(openFiles(), before, 'opening only stats the file')
    await Promise.all([source.read(0, 10), source.read(100, 10), source.readTail(10)])
    assert.equal(openFiles(), before + 1)
    await source.close()
    assert.equal(openFiles(), before)
  })

  test('a directory is IO', async () => {
    await rejectsWith(openByteSource(path.join(dir, 'a-directory')), ErrorCode.IO, /is a directory/)
  })

  test('a file deleted before the first read is FILE_NOT_FOUND; one truncated while open is BAD_RESPONSE_LENGTH', async () => {
    const doomed = path.join(dir, 'doomed.bin')
    writeFileSync(doomed, files['small.bin'])
    const source = await openByteSource(doomed)
    rmSync(doomed)
    await rejectsWith(source.read(0, 10), ErrorCode.FILE_NOT_FOUND, escape(doomed))

    const shrinking = path.join(dir, 'shrinking.bin')
    writeFileSync(shrinking, files['small.bin'])
    const open = await openByteSource(shrinking)
    same(await open.read(0, 100), files['small.bin'].subarray(0, 100))
    truncateSync(shrinking, 5_000)
    await rejectsWith(open.readTail(100), ErrorCode.BAD_RESPONSE_LENGTH, /changed/, escape(shrinking))
    await open.close()
  })
})

describe('async-buffer source', () => {
  test('slice() may return a promise or an ArrayBuffer directly', async () => {
    const bytes = files['small.bin']
    const sync = { byteLength: bytes.length, slice: (s, e) => bytes.buffer.slice(bytes.byteOffset + s, bytes.byteOffset + e) }
    const async = { byteLength: bytes.length, slice: async (s, e) => sync.slice(s, e) }
    for (const asyncBuffer of [sync, async]) {
      const source = await openByteSource(asyncBuffer)
      same((await source.readTail(300)).bytes, bytes.subarray(bytes.length - 300))
    }
  })

  test('a slice of the wrong length, of the wrong type, or that throws is reported', async () => {
    const short = await openByteSource({ byteLength: 100, slice: () => new ArrayBuffer(3) })
    await rejectsWith(short.read(0, 10), ErrorCode.BAD_RESPONSE_LENGTH, /returned 3 bytes, 10 expected/)
    const wrongType = await openByteSource({ byteLength: 100, slice: () => 'bytes' })
    await rejectsWith(wrongType.read(0, 10), ErrorCode.INVALID_ARGUMENT, /ArrayBuffer/)
    const throwing = await openByteSource({ byteLength: 100, slice: () => { throw new Error('disk on fire') } })
    await rejectsWith(throwing.read(0, 10), ErrorCode.IO, /disk on fire/, /async-buffer/)
  })
})

describe('http source', () => {
  test('readTail with the size unknown is one suffix request; later reads are bounded ranges', async () => {
    const source = await openByteSource(server.url('data.bin'))
    const size = files['data.bin'].length
    await source.readTail(TAIL)
    assert.equal(server.stats.requests, 1)
    assert.deepEqual(server.stats.paths['/data.bin'].ranges, [`bytes=-${TAIL}`])
    assert.deepEqual(source.stats, { requests: 1, bytesFetched: TAIL, retries: 0 })

    await source.readTail(100)
    await source.read(5, 10)
    assert.deepEqual(server.stats.paths['/data.bin'].ranges, [`bytes=-${TAIL}`, `bytes=${size - 100}-${size - 1}`, 'bytes=5-14'])
    assert.deepEqual(source.stats, { requests: 3, bytesFetched: TAIL + 110, retries: 0 })
  })

  test('read() before readTail learns the size from Content-Range', async () => {
    const source = await openByteSource(server.url('data.bin'))
    same(await source.read(100, 50), files['data.bin'].subarray(100, 150))
    assert.equal(source.size, files['data.bin'].length)
  })

  test('a read past the end with the size unknown is INVALID_ARGUMENT', async () => {
    const size = files['small.bin'].length
    const clamped = await openByteSource(server.url('small.bin'))
    await rejectsWith(clamped.read(size - 10, 100), ErrorCode.INVALID_ARGUMENT, /past the end/, /10000 bytes/)
    const unsatisfiable = await openByteSource(server.url('small.bin'))
    await rejectsWith(unsatisfiable.read(size + 10, 5), ErrorCode.INVALID_ARGUMENT, /past the end/)
    assert.equal(unsatisfiable.size, size)
  })

  test('a file shorter than the suffix, on an Express-style server: a 416 with its size, then one bounded request', async () => {
    // send (range-parser) answers 416 bytes */size for a suffix longer than the file.
    const source = await openByteSource(server.url('small.bin', { mode: 'suffix-416' }))
    same((await source.readTail(TAIL)).bytes, files['small.bin'])
    assert.deepEqual(server.stats.log.map((r) => [r.range, r.status]), [[`bytes=-${TAIL}`, 416], ['bytes=0-9999', 206]])
    assert.equal(source.stats.requests, 2)
  })

  test('a one-byte file', async () => {
    const source = await openByteSource(server.url('one.bin'))
    assert.deepEqual(await source.readTail(TAIL), { offset: 0, bytes: new Uint8Array(files['one.bin']) })
  })

  test('no-suffix servers: 416 with a size costs one more request, 400/501/bare 416 two more (bytes=0-0 probe)', async () => {
    const size = files['data.bin'].length
    const cases = [
      ['no-suffix', [`bytes=-${TAIL}`, `bytes=${size - TAIL}-${size - 1}`]],
      ['no-suffix:400', [`bytes=-${TAIL}`, 'bytes=0-0', `bytes=${size - TAIL}-${size - 1}`]],
      ['no-suffix:501', [`bytes=-${TAIL}`, 'bytes=0-0', `bytes=${size - TAIL}-${size - 1}`]],
      ['no-suffix:bare', [`bytes=-${TAIL}`, 'bytes=0-0', `bytes=${size - TAIL}-${size - 1}`]],
    ]
    for (const [mode, ranges] of cases) {
      server.resetStats()
      const source = await openByteSource(server.url('data.bin', { mode }))
      const { offset, bytes } = await source.readTail(TAIL)
      assert.equal(offset, size - TAIL, mode)
      same(bytes, files['data.bin'].subarray(offset))
      assert.deepEqual(server.stats.log.map((r) => r.range), ranges, mode)
      assert.equal(source.stats.requests, ranges.length, mode)
    }
  })

  test('no-suffix:400 on a one-byte file answers from the probe alone', async () => {
    const source = await openByteSource(server.url('one.bin', { mode: 'no-suffix:400' }))
    assert.deepEqual(await source.readTail(TAIL), { offset: 0, bytes: new Uint8Array(files['one.bin']) })
    assert.equal(server.stats.requests, 2)
  })

  test('a server that ignores Range, small file: the one full response serves every later read', async () => {
    const source = await openByteSource(server.url('small.bin', { mode: 'ignore-range' }))
    const { offset, bytes } = await source.readTail(1000)
    assert.equal(offset, 9_000)
    same(bytes, files['small.bin'].subarray(9_000))
    same(await source.read(10, 20), files['small.bin'].subarray(10, 30))
    await rejectsWith(source.read(9_999, 2), ErrorCode.INVALID_ARGUMENT, /past the end/)
    assert.equal(server.stats.requests, 1)
    assert.deepEqual(source.stats, { requests: 1, bytesFetched: 10_000, retries: 0 })
  })

  test('a server that ignores Range, 20 MB file, maxBytes 1 MiB: cancelled early, RANGE_NOT_SUPPORTED', async () => {
    const source = await openByteSource(server.url('big.bin', { mode: 'ignore-range' }), { maxBytes: MiB })
    await rejectsWith(source.readTail(TAIL), ErrorCode.RANGE_NOT_SUPPORTED, /ignores Range/, /larger than maxBytes/, /big\.bin/)
    // The declared length was over maxBytes, so one bounded request was tried before giving up.
    assert.equal(server.stats.requests, 2)
    await sleep(50) // let the server notice the closed connections
    assert.ok(server.stats.bytesWritten < 5 * MiB, `server wrote ${server.stats.bytesWritten} bytes of a 20 MiB file`)
    assert.ok(source.stats.bytesFetched <= MiB)
  })

  test('the same without Content-Length (chunked): the body is streamed and cut off past maxBytes', async () => {
    const source = await openByteSource(server.url('big.bin', { mode: 'ignore-range,chunked' }), { maxBytes: MiB })
    await rejectsWith(source.readTail(TAIL), ErrorCode.RANGE_NOT_SUPPORTED, /ignores Range/, /1048576 bytes/)
    assert.equal(server.stats.requests, 1)
    await sleep(50)
    assert.ok(server.stats.bytesWritten < 5 * MiB, `server wrote ${server.stats.bytesWritten} bytes of a 20 MiB file`)
    assert.ok(source.stats.bytesFetched < 2 * MiB)
  })

  test('a server that ignores only suffix ranges: a small file is taken whole, a large one read by a bounded range', async () => {
    const small = await openByteSource(server.url('small.bin', { mode: 'ignore-suffix' }))
    same((await small.readTail(100)).bytes, files['small.bin'].subarray(9_900))
    assert.equal(server.stats.requests, 1)

    server.resetStats()
    const size = files['data.bin'].length
    const large = await openByteSource(server.url('data.bin', { mode: 'ignore-suffix' }), { maxBytes: MiB })
    same((await large.readTail(TAIL)).bytes, files['data.bin'].subarray(size - TAIL))
    assert.deepEqual(server.stats.log.map((r) => [r.range, r.status]), [[`bytes=-${TAIL}`, 200], [`bytes=${size - TAIL}-${size - 1}`, 206]])
  })

  test('a wrong Content-Range is BAD_RESPONSE_LENGTH, for the tail and for later reads', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'wrong-content-range' }))
    await rejectsWith(source.readTail(TAIL), ErrorCode.BAD_RESPONSE_LENGTH, /Content-Range/, /data\.bin/)

    const later = await openByteSource(server.url('data.bin'))
    await later.readTail(TAIL)
    server.setMode('wrong-content-range')
    await rejectsWith(later.read(0, 100), ErrorCode.BAD_RESPONSE_LENGTH, /bytes=0-99/, /Content-Range: bytes 1-100/)
  })

  test('a missing Content-Range: fatal for the tail (size unknown), tolerated for a bounded read', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'no-content-range' }))
    await rejectsWith(source.readTail(TAIL), ErrorCode.BAD_RESPONSE_LENGTH, /no Content-Range/, /Access-Control-Expose-Headers/)

    const later = await openByteSource(server.url('data.bin'))
    await later.readTail(TAIL)
    server.setMode('no-content-range')
    same(await later.read(100, 100), files['data.bin'].subarray(100, 200))
  })

  test('a Content-Range without a total: the probe cannot learn the size either', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'unknown-size' }))
    await rejectsWith(source.readTail(TAIL), ErrorCode.RANGE_NOT_SUPPORTED, /does not tell its size/)
    assert.deepEqual(server.stats.log.map((r) => r.range), [`bytes=-${TAIL}`, 'bytes=0-0'])
  })

  test('a short body is BAD_RESPONSE_LENGTH', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'short-body' }))
    await rejectsWith(source.readTail(TAIL), ErrorCode.BAD_RESPONSE_LENGTH, /32768 of the 65536 bytes/, /bytes=-65536/, /data\.bin/)
  })

  test('a connection dropped mid-body is IO naming the URL and range', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'drop' }))
    await rejectsWith(source.readTail(TAIL), ErrorCode.IO, /failed after \d+ of 65536 bytes of bytes=-65536/, /data\.bin/)
  })

  test('a file that changes size between requests is BAD_RESPONSE_LENGTH', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'change-size' }))
    await source.readTail(TAIL)
    await rejectsWith(source.read(0, 10), ErrorCode.BAD_RESPONSE_LENGTH, /changed/, new RegExp(`${files['data.bin'].length + 1000}`))
  })

  for (const [status, hint] of [[404, /not found/], [410, /gone/], [403, /forbidden — check the URL's credentials\/signature/], [500, /server error/],
    [401, /unauthorized/]]) {
    // No object at the URL (404, 410) is FILE_NOT_FOUND, as a missing local file is; the status is kept.
    const code = status === 404 || status === 410 ? ErrorCode.FILE_NOT_FOUND : ErrorCode.HTTP_STATUS
    test(`HTTP ${status} is ${code} with status ${status}`, async () => {
      const source = await openByteSource(server.url('data.bin', { mode: `status:${status}` }))
      const error = await rejectsWith(source.readTail(TAIL), code, hint, new RegExp(`HTTP ${status}`), /data\.bin/)
      assert.equal(error.status, status)
      // A 5xx may pass: retried 3 times (js/sources/retry.js); a 4xx is an answer.
      assert.equal(server.stats.requests, status >= 500 ? 4 : 1, status >= 500 ? 'retried' : 'no retry')
      assert.equal(source.stats.retries, status >= 500 ? 3 : 0)
    })
  }

  test('a file the server does not have is FILE_NOT_FOUND, status 404', async () => {
    const source = await openByteSource(server.url('nope.parquet'))
    const error = await rejectsWith(source.readTail(TAIL), ErrorCode.FILE_NOT_FOUND, /404/, /nope\.parquet/)
    assert.equal(error.status, 404)
  })

  test('after a same-origin redirect, later requests go to the final URL', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'redirect' }))
    same((await source.readTail(TAIL)).bytes, files['data.bin'].subarray(files['data.bin'].length - TAIL))
    same(await source.read(0, 10), files['data.bin'].subarray(0, 10))
    assert.equal(source.stats.requests, 2)
    assert.equal(server.stats.paths['/data.bin'].requests, 1)
    assert.equal(server.stats.paths['/moved/data.bin'].requests, 2)
  })

  test('after a cross-origin redirect, caller headers never reach the other origin', async () => {
    const redirectTo = 'https://cdn.example.net/signed/x.parquet'
    const withHeaders = fakeRangeFetch(files['small.bin'], { redirectTo })
    const source = await openByteSource('https://origin.example.com/x.parquet', {
      fetch: withHeaders.fetch, headers: { authorization: 'Bearer t' }, userAgent: 'parquet-bloom-test',
    })
    await source.readTail(100)
    await source.read(0, 10)
    assert.deepEqual(withHeaders.calls.map((c) => c.url), ['https://origin.example.com/x.parquet', 'https://origin.example.com/x.parquet'])
    assert.equal(withHeaders.calls[0].headers.get('authorization'), 'Bearer t')
    assert.equal(withHeaders.calls[0].headers.get('user-agent'), 'parquet-bloom-test')
    assert.equal(withHeaders.calls[0].headers.get('range'), 'bytes=-100')

    const plain = fakeRangeFetch(files['small.bin'], { redirectTo })
    const noHeaders = await openByteSource('https://origin.example.com/x.parquet', { fetch: plain.fetch })
    await noHeaders.readTail(100)
    await noHeaders.read(0, 10)
    assert.deepEqual(plain.calls.map((c) => c.url), ['https://origin.example.com/x.parquet', redirectTo])
  })

  test('a server that sends the whole file for a suffix longer than it (as RFC 9110 says): one request', async () => {
    const fake = fakeRangeFetch(files['small.bin'])
    const source = await openByteSource('https://example.com/small.parquet', { fetch: fake.fetch })
    const { offset, bytes } = await source.readTail(TAIL)
    assert.equal(offset, 0)
    same(bytes, files['small.bin'])
    assert.equal(fake.calls.length, 1)
  })

  test('a fetch that never settles and ignores its signal still ends on time', async () => {
    const source = await openByteSource('https://example.com/x.parquet', { fetch: () => new Promise(() => {}), requestTimeoutMs: 50 })
    await rejectsWith(source.readTail(TAIL), ErrorCode.ABORTED, /timed out after 50 ms/, /example\.com/)
  })

  /**
   * Starts reading a body the server sends slowly (with `signal`, when given), ends it mid-body with
   * `end(source)`, and checks that the read rejects promptly with ABORTED matching `pattern`, part of the body
   * read, the connection closed.
   */
  async function endsMidBody(end, pattern, signal = undefined) {
    const source = await openByteSource(server.url('data.bin', { mode: 'slow-body:10000' }))
    const reading = source.read(0, MiB, signal ? { signal } : undefined)
    await waitFor(() => server.stats.bytesWritten > 0, 'the body to start')
    await sleep(20)
    const endedAt = performance.now()
    await end(source)
    await rejectsWith(reading, ErrorCode.ABORTED, pattern, /data\.bin/)
    const took = performance.now() - endedAt
    assert.ok(took < 100, `took ${took} ms`)
    assert.ok(source.stats.bytesFetched > 0 && source.stats.bytesFetched < MiB)
    await waitFor(() => server.stats.log[0].status !== undefined, 'the server to see the connection close')
  }

  test('aborting mid-body rejects promptly with ABORTED and closes the connection', async () => {
    const controller = new AbortController()
    await endsMidBody(() => controller.abort(), /aborted/, controller.signal)
  })

  test('the source-wide signal aborts a request waiting for headers', async () => {
    const controller = new AbortController()
    const source = await openByteSource(server.url('data.bin', { mode: 'slow:10000' }), { signal: controller.signal })
    const reading = source.readTail(TAIL)
    await sleep(30)
    const abortedAt = performance.now()
    controller.abort(new Error('user navigated away'))
    await rejectsWith(reading, ErrorCode.ABORTED, /user navigated away/)
    assert.ok(performance.now() - abortedAt < 100)
  })

  test('requestTimeoutMs aborts a slow request with ABORTED saying it timed out', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'slow:10000' }), { requestTimeoutMs: 150 })
    const startedAt = performance.now()
    await rejectsWith(source.readTail(TAIL), ErrorCode.ABORTED, /timed out after 150 ms/, /data\.bin/)
    const took = performance.now() - startedAt
    assert.ok(took >= 140 && took < 1000, `took ${took} ms`)

    const slowBody = await openByteSource(server.url('data.bin', { mode: 'slow-body:10000' }), { requestTimeoutMs: 150 })
    await rejectsWith(slowBody.read(0, MiB), ErrorCode.ABORTED, /timed out/)
    const fine = await openByteSource(server.url('data.bin', { mode: 'slow:20' }), { requestTimeoutMs: 2000 })
    await fine.readTail(TAIL)
  })

  test('close() ends a request in flight', async () => {
    const source = await openByteSource(server.url('data.bin', { mode: 'slow:10000' }))
    const reading = source.readTail(TAIL)
    await sleep(30)
    await source.close()
    await rejectsWith(reading, ErrorCode.ABORTED, /closed/)
  })

  test('close() ends a body being read, promptly, and closes the connection', async () => {
    await endsMidBody((source) => source.close(), /closed/)
  })

  test('a request waiting for a slot of a full window ends on its abort, and is never sent', async () => {
    const window = new RequestWindow(1)
    const fetch = window.windowedFetch()
    const holding = await openByteSource(server.url('data.bin', { mode: 'slow:10000' }), { fetch })
    const waiting = await openByteSource(server.url('small.bin'), { fetch })
    const held = holding.readTail(TAIL)
    await waitFor(() => server.stats.requests === 1, 'the first request to reach the server')
    const controller = new AbortController()
    const queued = waiting.readTail(TAIL, { signal: controller.signal })
    await sleep(20)
    const abortedAt = performance.now()
    controller.abort()
    await rejectsWith(queued, ErrorCode.ABORTED, /aborted/, /small\.bin/)
    assert.ok(performance.now() - abortedAt < 100)
    await holding.close()
    await rejectsWith(held, ErrorCode.ABORTED, /closed/)
    await sleep(20)
    assert.equal(server.stats.requests, 1, 'the aborted request never reached the server')
    assert.equal(waiting.stats.requests, 1)
  })

  test('a network failure is IO; CORS is named as a possible cause only in a browser, where fetch reports a refusal so', async () => {
    const closed = await startTestServer({ root: dir })
    const url = closed.url('data.bin')
    await closed.close()
    const source = await openByteSource(url)
    // In Node no CORS applies: the hint only misled (an HTTP/2 reset's message ended with it).
    await rejectsWith(source.readTail(TAIL), ErrorCode.IO, /network error/, escape(url))
    await assert.rejects(source.readTail(TAIL), (e) => !/CORS/.test(e.message))
    const { networkError } = await import('../../js/sources/http-request.js')
    globalThis.document = {} // as a page (js/sources/runtime.js inBrowser)
    try {
      const error = networkError({ aborted: false }, new TypeError('Failed to fetch'), 'requesting bytes=-8 of x', 'x',
        'the server must allow it')
      assert.match(error.message, /^network error requesting bytes=-8 of x: Failed to fetch, or a CORS refusal: the server must allow it$/)
    } finally {
      delete globalThis.document
    }
  })
})

// Last, so it sees what every test above left behind: no timer, socket or pending fs call may outlive them.
test('nothing keeps the event loop alive once the server is closed', async () => {
  await server.close()
  const lingering = () => process.getActiveResourcesInfo().filter((r) => /Timeout|TCP|FSReq/.test(r))
  const deadline = performance.now() + 1000
  while (lingering().length > 0) {
    if (performance.now() > deadline) assert.fail(`still active: ${lingering().join(', ')}`)
    await sleep(5)
  }
})
