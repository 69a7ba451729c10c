// The footer cache (js/footer/footer-cache.js) through openParquet(url, { footerCache }) against the local range
// server, which counts requests and evaluates If-Match / If-Unmodified-Since itself. Truth comes from
// outside the cache: the values hyparquet-writer wrote into each version of the file (a present value is
// never "absent"), a fresh open of the file as it is now, and the server's own request log.
import assert from 'node:assert/strict'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, afterEach, before, describe, test } from 'node:test'
import { parquetMetadata } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { createFooterCache, directoryStore, ErrorCode, openParquet, ParquetBloomError } from '../../js/index.js'
import { projectRoot } from './helpers/fixtures.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runCli, runNode } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'

const ROWS_PER_GROUP = 1000
// A tail that holds the footer but none of the filters, so every probe sends range requests.
const OPEN = { initialFetchSize: 4096 }

const dir = await tempDir('footer-cache')
let server
let mtime = Math.floor(Date.now() / 1000) - 100_000
const versions = new Map()

/**
 * Version `seed` of the file: INT32 `id` and STRING `key`, bloom filters on both, uncompressed so that
 * versions with the same row count have the same size. Row group g holds rows [1000g, 1000g + 999].
 */
function version(seed, rows = 3000) {
  if (versions.has(`${seed}/${rows}`)) return versions.get(`${seed}/${rows}`)
  const ids = Array.from({ length: rows }, (_, i) => seed * 1_000_003 + i * 7919)
  const keys = Array.from({ length: rows }, (_, i) => `v${seed}-${String(i).padStart(6, '0')}`)
  const bytes = new Uint8Array(parquetWriteBuffer({
    codec: 'UNCOMPRESSED',
    rowGroupSize: ROWS_PER_GROUP,
    columnData: [{ name: 'id', data: ids, type: 'INT32', bloomFilter: true }, { name: 'key', data: keys, type: 'STRING', bloomFilter: true }],
  }))
  const v = { seed, rows, ids, keys, bytes }
  versions.set(`${seed}/${rows}`, v)
  return v
}

/** Puts version v at name, with an mtime one second later than any before (Last-Modified has seconds). */
async function place(name, v) {
  await writeFile(path.join(dir, name), v.bytes)
  mtime += 2
  utimesSync(path.join(dir, name), mtime, mtime)
}

/** Values present in v (one or three per row group) and values no version with another seed holds. */
function valuesFor(v, others) {
  const present = [5, 1500, v.rows - 1].map((i) => v.ids[i])
  const absent = others.map((o) => o.ids[1234]).filter((x) => !v.ids.includes(x))
  return { present, absent, all: [...present, ...absent] }
}

/** Verdicts as [rowGroup][valueIndex]. */
const verdicts = (result) => result.rowGroups.map((g) => g.results.map((r) => r.verdict))

/** No value v holds in a row group is answered absent there (the one unforgivable bug). */
function assertNoFalseNegative(v, values, result, what) {
  for (const g of result.rowGroups) {
    g.results.forEach((r, k) => {
      const i = v.ids.indexOf(values[k])
      if (i >= 0 && Math.floor(i / ROWS_PER_GROUP) === g.index) assert.notEqual(r.verdict, 'absent', `${what}: ${values[k]} is in row group ${g.index}`)
    })
  }
}

async function freshVerdicts(url, values, options = {}) {
  const file = await openParquet(url, OPEN)
  try {
    return verdicts(await file.probe('id', values, options))
  } finally {
    await file.close()
  }
}

async function probeWith(url, cache, values, options = {}) {
  const file = await openParquet(url, { ...OPEN, footerCache: cache })
  try {
    const requestsAtOpen = server.stats.requests
    const result = await file.probe('id', values, options)
    return { result, fromCache: file.footerFromCache, stats: file.stats, requestsAtOpen, fileSize: file.fileSize, metadataOffset: file.metadataOffset }
  } finally {
    await file.close()
  }
}

const footerRange = (v) => {
  const view = new DataView(v.bytes.buffer, v.bytes.byteOffset + v.bytes.length - 8)
  return { start: v.bytes.length - 8 - view.getUint32(0, true), end: v.bytes.length }
}
const rangeOf = (header) => {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? '')
  return m && m[1] !== '' ? { start: Number(m[1]), end: Number(m[2]) + 1 } : undefined
}
const touchesFooter = (entry, v) => {
  const r = rangeOf(entry.range)
  const footer = footerRange(v)
  return !r || (r.start < footer.end && footer.start < r.end)
}

before(async () => {
  server = await startTestServer({ root: dir })
})

after(async () => {
  await server?.close()
})

afterEach(() => {
  server.setMode()
  server.beforeServe()
  server.resetStats()
})

describe('a cached footer is read once', () => {
  for (const mode of ['etag', 'last-modified']) {
    test(`second open + probe: one request, no footer bytes, the validator sent (${mode})`, async () => {
      const v = version(1)
      await place(`once-${mode}.parquet`, v)
      server.setMode(mode)
      const url = server.url(`once-${mode}.parquet`)
      const cache = createFooterCache()
      const value = v.ids[1500] // only row group 1's range holds it: one filter read
      const first = await probeWith(url, cache, [value])
      assert.equal(first.fromCache, false)
      assert.equal(cache.stats.stores, 1)
      const validator = server.stats.log[0]
      server.resetStats()

      const second = await probeWith(url, cache, [value])
      assert.equal(second.fromCache, true)
      assert.equal(second.requestsAtOpen, 0, 'the open sends nothing')
      assert.equal(server.stats.requests, 1, JSON.stringify(server.stats.log))
      const [request] = server.stats.log
      assert.equal(request.status, 206)
      assert.equal(touchesFooter(request, v), false, `${request.range} reads footer bytes`)
      if (mode === 'etag') assert.match(request.ifMatch ?? '', /^"[0-9a-f]+"$/)
      else assert.equal(request.ifUnmodifiedSince, new Date(mtime * 1000).toUTCString())
      assert.equal(mode === 'etag' ? request.ifUnmodifiedSince : request.ifMatch, undefined)
      assert.deepEqual(second.stats, { requests: 1, bytesFetched: server.stats.bytesWritten, rounds: 1, retries: 0, heads: 0 })
      assert.deepEqual(verdicts(second.result), verdicts(first.result))
      assertNoFalseNegative(v, [value], second.result, 'cached probe')
      assert.ok(validator)
    })
  }

  test('a cached probe that statistics alone answer still confirms the footer: one 8-byte request', async () => {
    const v = version(1)
    await place('stats-only.parquet', v)
    server.setMode('etag')
    const url = server.url('stats-only.parquet')
    const cache = createFooterCache()
    const outside = [-5, 2 ** 31 - 1] // below and above every row group's range
    await probeWith(url, cache, outside)
    server.resetStats()
    const cached = await probeWith(url, cache, outside)
    assert.equal(cached.fromCache, true)
    assert.deepEqual(server.stats.log.map((e) => [e.range, e.status]), [[`bytes=${v.bytes.length - 8}-${v.bytes.length - 1}`, 206]])
    assert.ok(verdicts(cached.result).flat().every((x) => x === 'absent'))
  })

  test('a whole-file probe from the cache is one round (filter mode, coalesced)', async () => {
    const v = version(1)
    await place('round.parquet', v)
    server.setMode('etag')
    const url = server.url('round.parquet')
    const cache = createFooterCache()
    const { present } = valuesFor(v, [])
    const options = { mode: 'filter', coalesceGap: 1 << 20 }
    await probeWith(url, cache, present, options)
    server.resetStats()
    const cached = await probeWith(url, cache, present, options)
    assert.equal(server.stats.requests, 1, JSON.stringify(server.stats.log))
    assert.ok(server.stats.log.every((e) => e.ifMatch && !touchesFooter(e, v)))
    assert.deepEqual(verdicts(cached.result), await freshVerdicts(url, present, options))
    assertNoFalseNegative(v, present, cached.result, 'cached whole-file probe')
  })
})

describe('a replaced file is answered from its new footer, every time', () => {
  for (const mode of ['etag', 'last-modified', 'etag,ignore-conditions']) {
    test(`same size and other sizes, several replacements (${mode})`, async () => {
      const name = `replaced-${mode.replace(',', '-')}.parquet`
      const sequence = [version(1), version(2), version(3), version(4, 4000), version(5, 2000), version(6)]
      assert.equal(sequence[1].bytes.length, sequence[0].bytes.length, 'same-size versions')
      assert.equal(sequence[2].bytes.length, sequence[0].bytes.length, 'same-size versions')
      server.setMode(...mode.split(','))
      const url = server.url(name)
      const cache = createFooterCache()
      await place(name, sequence[0])
      await probeWith(url, cache, valuesFor(sequence[0], sequence).all)
      for (let k = 1; k < sequence.length; k++) {
        const v = sequence[k]
        const values = valuesFor(v, sequence).all
        await place(name, v)
        server.resetStats()
        const cached = await probeWith(url, cache, values)
        const log = server.stats.log
        const refused = log.filter((e) => e.status === 412).length
        // The probe's first wave goes out at once: every request of it may get its 412, none after the re-read.
        const reread = log.findIndex((e) => e.range === `bytes=-${OPEN.initialFetchSize}`)
        if (!mode.includes('ignore-conditions')) {
          assert.ok(refused >= 1 && log.slice(reread).every((e) => e.status !== 412), `412s only before the new footer, for version ${v.seed}: ${JSON.stringify(log)}`)
        }
        assert.equal(log.filter((e) => e.range === `bytes=-${OPEN.initialFetchSize}`).length, 1, 'the footer is read once more')
        assert.equal(cached.fileSize, v.bytes.length)
        assert.equal(cached.metadataOffset, footerRange(v).start)
        assertNoFalseNegative(v, values, cached.result, `version ${v.seed}`)
        server.resetStats()
        assert.deepEqual(verdicts(cached.result), await freshVerdicts(url, values), `version ${v.seed} answered as a fresh open answers`)
        // The entry now holds the new footer: the next open is a hit again.
        server.resetStats()
        const again = await probeWith(url, cache, values)
        assert.equal(again.fromCache, true)
        assert.ok(server.stats.log.every((e) => e.status === 206 && !touchesFooter(e, v)), JSON.stringify(server.stats.log))
        assert.deepEqual(verdicts(again.result), verdicts(cached.result))
      }
      assert.equal(cache.stats.invalidations, sequence.length - 1)
    })
  }

  test('a 412 mid-probe redoes the probe once, from the new footer', async () => {
    const [v1, v2] = [version(1), version(2)]
    const name = 'mid-probe.parquet'
    await place(name, v1)
    server.setMode('etag')
    const url = server.url(name)
    const cache = createFooterCache()
    const values = valuesFor(v1, [v2]).present
    const options = { mode: 'block', concurrency: 1 } // one request per row group, one after another
    await probeWith(url, cache, values, options)
    server.resetStats()
    let replaced = false
    // Replaced just before the probe's first read is served: the footer came from the cache, so that read
    // is the first to learn of the change (one window-1 wave: the plan merges its ranges into one read).
    server.beforeServe(() => {
      if (!replaced) {
        replaced = true
        writeFileReplace(name, v2)
      }
    })
    const cached = await probeWith(url, cache, values, options)
    const log = server.stats.log
    assert.equal(log[0].status, 412, 'the cached footer\'s first read finds the file replaced')
    assert.equal(log.filter((e) => e.status === 412).length, 1, JSON.stringify(log))
    assert.equal(log[1].range, `bytes=-${OPEN.initialFetchSize}`, 'then the new footer')
    const etagOf2 = log.at(-1).ifMatch
    assert.ok(log.slice(2).every((e) => e.status === 206 && e.ifMatch === etagOf2 && e.ifMatch !== log[0].ifMatch))
    assertNoFalseNegative(v2, values, cached.result, 'after the 412')
    server.beforeServe()
    assert.deepEqual(verdicts(cached.result), await freshVerdicts(url, values, options))
  })

  test('forEachBloomFilter and metadata of a replaced file come from its new footer', async () => {
    const [v1, v4] = [version(1), version(4, 4000)]
    const name = 'visits.parquet'
    await place(name, v1)
    server.setMode('etag')
    const url = server.url(name)
    const cache = createFooterCache()
    await probeWith(url, cache, [v1.ids[5]])
    await place(name, v4)
    const file = await openParquet(url, { ...OPEN, footerCache: cache })
    try {
      assert.equal(file.footerFromCache, true)
      await file.validateFooter()
      assert.equal(file.footerFromCache, false)
      assert.equal(file.metadata.rowGroups.length, v4.rows / ROWS_PER_GROUP)
      const visited = []
      await file.forEachBloomFilter(undefined, (parts) => visited.push([parts.rowGroup, parts.column, parts.error?.code]))
      assert.equal(visited.length, 2 * v4.rows / ROWS_PER_GROUP)
      assert.ok(visited.every(([, , error]) => error === undefined), JSON.stringify(visited))
    } finally {
      await file.close()
    }
  })

  test('concurrent probes of a replaced file share one footer re-read and both answer from it', async () => {
    const [v1, v2] = [version(1), version(5, 2000)]
    const name = 'concurrent.parquet'
    await place(name, v1)
    server.setMode('etag')
    const url = server.url(name)
    const cache = createFooterCache()
    await probeWith(url, cache, [v1.ids[5]])
    await place(name, v2)
    server.resetStats()
    const file = await openParquet(url, { ...OPEN, footerCache: cache })
    try {
      const values = valuesFor(v2, [v1]).all
      const [a, b] = await Promise.all([file.probe('id', values), file.probe('id', values, { mode: 'block' })])
      assert.equal(server.stats.log.filter((e) => e.range === `bytes=-${OPEN.initialFetchSize}`).length, 1, JSON.stringify(server.stats.log))
      assertNoFalseNegative(v2, values, a, 'first of two')
      assertNoFalseNegative(v2, values, b, 'second of two')
      assert.equal(a.rowGroups.length, v2.rows / ROWS_PER_GROUP)
      assert.deepEqual(verdicts(a), await freshVerdicts(url, values))
      assert.deepEqual(verdicts(b), await freshVerdicts(url, values, { mode: 'block' }))
    } finally {
      await file.close()
    }
  })

  test('after a change, requests bypass the HTTP cache (a browser may hold the old tail)', async () => {
    const [v1, v2] = [version(1), version(5, 2000)]
    const name = 'no-store.parquet'
    await place(name, v1)
    server.setMode('etag')
    const url = server.url(name)
    const cache = createFooterCache()
    const seen = []
    const recording = (target, init) => {
      seen.push({ range: new Headers(init.headers).get('range'), cache: init.cache })
      return fetch(target, init)
    }
    await probeWith(url, cache, [v1.ids[5]])
    await place(name, v2)
    const file = await openParquet(url, { ...OPEN, footerCache: cache, fetch: recording })
    try {
      await file.probe('id', [v2.ids[5]])
    } finally {
      await file.close()
    }
    assert.equal(seen[0].cache, undefined, 'the first, validated request uses the HTTP cache as usual')
    assert.equal(seen[1].range, `bytes=-${OPEN.initialFetchSize}`)
    assert.ok(seen.slice(1).every((r) => r.cache === 'no-store'), JSON.stringify(seen))
  })

  test('a file that keeps changing fails with FILE_CHANGED after one retry, never loops', async () => {
    const sequence = [version(1), version(2), version(3)]
    const name = 'churn.parquet'
    await place(name, sequence[0])
    server.setMode('etag')
    const url = server.url(name)
    const cache = createFooterCache()
    const values = valuesFor(sequence[0], []).present
    await probeWith(url, cache, values)
    server.resetStats()
    let k = 0
    server.beforeServe((entry) => {
      if (rangeOf(entry.range)) writeFileReplace(name, sequence[++k % sequence.length]) // before every bounded read
    })
    await assert.rejects(probeWith(url, cache, values), (e) => e instanceof ParquetBloomError && e.code === ErrorCode.FILE_CHANGED && e.message.includes(name))
    assert.ok(server.stats.log.filter((e) => e.range === `bytes=-${OPEN.initialFetchSize}`).length <= 2, JSON.stringify(server.stats.log))
  })
})

describe('what is cached', () => {
  test('no validators: not cached, unless trustUnvalidated', async () => {
    const v = version(1)
    await place('plain.parquet', v)
    const url = server.url('plain.parquet')
    const cache = createFooterCache()
    await probeWith(url, cache, [v.ids[5]])
    server.resetStats()
    const second = await probeWith(url, cache, [v.ids[5]])
    assert.equal(second.fromCache, false)
    assert.equal(server.stats.log[0].range, `bytes=-${OPEN.initialFetchSize}`)
    assert.equal(cache.stats.stores, 0)

    const trusting = createFooterCache({ trustUnvalidated: true })
    await probeWith(url, trusting, [v.ids[5]])
    server.resetStats()
    const trusted = await probeWith(url, trusting, [v.ids[5]])
    assert.equal(trusted.fromCache, true)
    assert.equal(server.stats.requests, 1)
    assert.deepEqual(verdicts(trusted.result), await freshVerdicts(url, [v.ids[5]]))
    // Another size is still noticed without validators.
    const other = version(7, 2000)
    await place('plain.parquet', other)
    server.resetStats()
    const replaced = await probeWith(url, trusting, [other.ids[5]])
    assertNoFalseNegative(other, [other.ids[5]], replaced.result, 'replaced, no validators')
    assert.equal(replaced.fileSize, other.bytes.length)
  })

  for (const mode of ['nginx-etag', 'last-modified']) {
    test(`a footer read within 3 s of its file's modification is not kept: a rewrite in that second keeps the validator (${mode})`,
      async () => {
        const [v1, v2] = [version(1), version(2)]
        const name = `just-written-${mode}.parquet`
        const file = path.join(dir, name)
        const second = Math.floor(Date.now() / 1000) // the file is written, then read, within this second
        writeFileSync(file, v1.bytes)
        utimesSync(file, second, second)
        server.setMode(mode)
        const url = server.url(name)
        const cache = createFooterCache()
        await probeWith(url, cache, valuesFor(v1, [v2]).present)
        assert.equal(cache.stats.stores, 0, 'not kept')
        // Rewritten in that second: the same size, Last-Modified and (nginx's, of the time and size) ETag.
        writeFileSync(file, v2.bytes)
        utimesSync(file, second, second)
        const values = valuesFor(v2, [v1]).all
        const again = await probeWith(url, cache, values)
        assert.equal(again.fromCache, false)
        assertNoFalseNegative(v2, values, again.result, 'the rewrite')
        assert.deepEqual(verdicts(again.result), await freshVerdicts(url, values))
      })
  }

  test('a weak ETag is never sent in If-Match: not cached alone, If-Unmodified-Since with Last-Modified', async () => {
    const v = version(1)
    await place('weak.parquet', v)
    server.setMode('weak-etag')
    const url = server.url('weak.parquet')
    const cache = createFooterCache()
    await probeWith(url, cache, [v.ids[5]])
    await probeWith(url, cache, [v.ids[5]])
    assert.equal(cache.stats.stores, 0)
    assert.ok(server.stats.log.every((e) => e.ifMatch === undefined))

    server.setMode('weak-etag', 'last-modified')
    server.resetStats()
    await probeWith(url, cache, [v.ids[5]])
    const cached = await probeWith(url, cache, [v.ids[5]])
    assert.equal(cached.fromCache, true)
    assert.ok(server.stats.log.every((e) => e.ifMatch === undefined))
    assert.ok(server.stats.log.at(-1).ifUnmodifiedSince)
  })

  test('only URLs are cached', async () => {
    const v = version(1)
    await place('local.parquet', v)
    const cache = createFooterCache({ trustUnvalidated: true })
    for (const source of [path.join(dir, 'local.parquet'), v.bytes]) {
      const file = await openParquet(source, { footerCache: cache })
      assert.equal(file.footerFromCache, false)
      await file.close()
    }
    assert.equal(cache.stats.stores, 0)
    await assert.rejects(openParquet(v.bytes, { footerCache: {} }), (e) => e.code === ErrorCode.INVALID_ARGUMENT)
  })

  test('maxBytes evicts the least recently used entry', async () => {
    const [a, b] = [version(1), version(2)]
    await place('lru-a.parquet', a)
    await place('lru-b.parquet', b)
    server.setMode('etag')
    const sizing = createFooterCache()
    await probeWith(server.url('lru-a.parquet'), sizing, [a.ids[5]])
    const entryBytes = sizing.bytes
    assert.ok(entryBytes > footerRange(a).end - footerRange(a).start, `an entry (${entryBytes} B) holds at least the footer`)

    const cache = createFooterCache({ maxBytes: Math.floor(entryBytes * 1.5) })
    await probeWith(server.url('lru-a.parquet'), cache, [a.ids[5]])
    await probeWith(server.url('lru-b.parquet'), cache, [b.ids[5]])
    assert.equal(cache.stats.evictions, 1)
    assert.ok(cache.bytes <= cache.maxBytes)
    server.resetStats()
    assert.equal((await probeWith(server.url('lru-b.parquet'), cache, [b.ids[5]])).fromCache, true)
    assert.equal((await probeWith(server.url('lru-a.parquet'), cache, [a.ids[5]])).fromCache, false, 'a was evicted')

    const tiny = createFooterCache({ maxBytes: entryBytes - 1 })
    await probeWith(server.url('lru-a.parquet'), tiny, [a.ids[5]])
    assert.equal(tiny.stats.stores, 0, 'an entry larger than maxBytes is not kept')
  })
})

describe('directoryStore', () => {
  test('survives a new process and takes a corrupt entry as a miss', async () => {
    const v = version(1)
    await place('disk.parquet', v)
    server.setMode('etag')
    const url = server.url('disk.parquet')
    const cacheDir = path.join(dir, 'footer-cache')
    const first = await childProbe(url, cacheDir, v.ids[1500])
    assert.equal(first.fromCache, false)
    const entries = (await readdir(cacheDir)).filter((n) => n.endsWith('.footer'))
    assert.equal(entries.length, 1)
    assert.ok(!entries[0].includes('disk'), 'the file name does not show the URL')
    const entryFile = path.join(cacheDir, entries[0])
    assert.ok(!(await readFile(entryFile)).includes(Buffer.from('127.0.0.1')), 'the entry does not hold the URL')

    server.resetStats()
    const second = await childProbe(url, cacheDir, v.ids[1500])
    assert.equal(second.fromCache, true)
    assert.equal(server.stats.requests, 1)
    assert.deepEqual(second.verdicts, first.verdicts)
    assert.deepEqual(second.verdicts, await freshVerdicts(url, [v.ids[1500]]))

    for (const corrupt of [(b) => { b[b.length - 100] ^= 1 }, (b) => b.subarray(0, 30), (b) => { b[4] = 99 }]) {
      const bytes = await readFile(entryFile)
      const damaged = corrupt(bytes) ?? bytes
      await writeFile(entryFile, damaged)
      server.resetStats()
      const third = await childProbe(url, cacheDir, v.ids[1500])
      assert.equal(third.fromCache, false, 'a corrupt entry is a miss')
      assert.equal(third.error, undefined)
      assert.deepEqual(third.verdicts, first.verdicts)
      assert.equal(server.stats.log[0].range, `bytes=-${OPEN.initialFetchSize}`)
      assert.equal((await childProbe(url, cacheDir, v.ids[1500])).fromCache, true, 'and replaced by a good one')
    }
    const store = directoryStore(cacheDir)
    assert.equal((await store.list()).length, 1)
  })
})

describe('the CLI --cache-dir', () => {
  test('a second run reads no footer, and answers as the first did', async () => {
    const v = version(1)
    await place('cli.parquet', v)
    server.setMode('etag')
    const url = server.url('cli.parquet')
    for (const args of [['probe', url, '-c', 'id', '-v', String(v.ids[1500])], ['inspect', url]]) {
      const runs = []
      for (let k = 0; k < 2; k++) {
        server.resetStats()
        const r = await runCli([...args, '--cache-dir', path.join(dir, `cli-cache-${args[0]}`), '--json'])
        assert.equal(r.code, 0, r.stderr)
        runs.push({ doc: JSON.parse(r.stdout), log: server.stats.log, bytes: server.stats.bytesWritten })
      }
      assert.ok(runs[0].log.some((e) => /^bytes=-\d+$/.test(e.range)), 'the first run reads the tail')
      assert.ok(runs[1].log.every((e) => rangeOf(e.range) && e.ifMatch), `${args[0]}: ${JSON.stringify(runs[1].log)}`)
      assert.ok(runs[1].bytes < runs[0].bytes, `${args[0]}: ${runs[1].bytes} bytes read, first run ${runs[0].bytes}`)
      const strip = ({ stats, ...file }) => file
      assert.deepEqual(runs[1].doc.files.map(strip), runs[0].doc.files.map(strip))
    }
  })
})

/** Replaces the file synchronously, so the request being served already sees the new version. */
function writeFileReplace(name, v) {
  mtime += 2
  const file = path.join(dir, name)
  writeFileSync(file, v.bytes)
  utimesSync(file, mtime, mtime)
}

/** Opens and probes in a new Node process with a directoryStore. */
async function childProbe(url, cacheDir, value) {
  const script = `
    import { createFooterCache, directoryStore, openParquet } from ${JSON.stringify(pathToFileURL(path.join(projectRoot, 'js/index.js')).href)}
    const cache = createFooterCache({ store: directoryStore(${JSON.stringify(cacheDir)}) })
    const file = await openParquet(${JSON.stringify(url)}, { footerCache: cache, initialFetchSize: ${OPEN.initialFetchSize} })
    const result = await file.probe('id', [${value}])
    console.log(JSON.stringify({ fromCache: file.footerFromCache, verdicts: result.rowGroups.map((g) => g.results.map((r) => r.verdict)) }))
    await file.close()
  `
  const { code, stdout, stderr } = await runNode(['--input-type=module', '-e', script])
  if (code !== 0) throw new Error(`child exited ${code}: ${stderr}`)
  return JSON.parse(stdout)
}

// hyparquet reads each version's footer independently: the fixture itself is what the test thinks it is.
test('the versions are what the tests assume', () => {
  for (const v of [version(1), version(2), version(4, 4000)]) {
    const meta = parquetMetadata(v.bytes.buffer.slice(v.bytes.byteOffset, v.bytes.byteOffset + v.bytes.length))
    assert.deepEqual(meta.row_groups.map((g) => Number(g.num_rows)), Array.from({ length: v.rows / ROWS_PER_GROUP }, () => ROWS_PER_GROUP))
    assert.ok(meta.row_groups.every((g) => g.columns.every((c) => c.meta_data.bloom_filter_offset !== undefined)))
  }
})
