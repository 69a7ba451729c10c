// openParquet over a real S3 implementation (s3rver, testkit/s3-server.js) with files DuckDB
// wrote: the listing's size and ETag make the footer one exact range, s3rver's wrong answer to suffix
// ranges is corrected without a HEAD, 503 SlowDown and reset connections are retried, a lying size or
// ETag is a typed error, signed GETs work and no message carries a credential. Verdicts are checked
// against DuckDB's own answer to "which row groups hold this id".
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'

import { createFooterCache, ErrorCode, openParquet } from '../../js/index.js'
import { misreadsSuffixRanges } from '../../js/sources/http-source.js'
import { listS3, s3FetchFor } from '../../js/sources/s3-listing.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { startS3Server } from '../../testkit/s3-server.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withFile } from './helpers/with-file.js'

const BUCKET = 'pb-probe'
const FILES = 3
const ROWS = 20_000
const ROW_GROUP = 5_000
const KEY = { accessKeyId: 'AKIDPROBETEST', secretAccessKey: 'probe-secret-MUST-NOT-APPEAR-anywhere/+=' }
const idOf = (file, i) => BigInt(file * 1_000_000 + i * 7)
// Per file: a stored id in row group 1, one between stored ids (in range, not stored), one beyond every file.
const probedValues = (file) => [idOf(file, ROW_GROUP + 1234), idOf(file, ROW_GROUP + 1234) + 1n, 99_000_000n]

let s3
const dir = await tempDir('s3-probe')
/** @type {Array<{ local: string, truth: Map<bigint, Set<number>> }>} */
const files = []
/** When the objects were put: a footer cache keeps no entry of an object modified less than 3 s before (its Last-Modified). */
let uploaded = 0
before(async () => {
  await withDuckDB(async (conn) => {
    for (let k = 0; k < FILES; k++) {
      const local = path.join(dir, `part-${k}.parquet`)
      // md5 text makes each file ~800 KB: far more than the 64 KiB tail, so s3rver's suffix bug shows.
      await conn.run(`COPY (SELECT (${k * 1_000_000} + i * 7)::BIGINT AS id, md5(i::VARCHAR) AS payload FROM range(${ROWS}) t(i))
        TO '${local}' (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP}, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
      const values = probedValues(k)
      const rows = (await conn.runAndReadAll(`SELECT id, file_row_number // ${ROW_GROUP} AS rg FROM read_parquet('${local}', file_row_number = true)
        WHERE id IN (${values.join(', ')})`)).getRowObjects()
      const truth = new Map(values.map((v) => [v, new Set()]))
      for (const row of rows) truth.get(row.id).add(Number(row.rg))
      files.push({ local, truth })
    }
  })
  s3 = await startS3Server({ buckets: [BUCKET], keyPairs: [KEY] })
  for (let k = 0; k < FILES; k++) await s3.put(BUCKET, `tables/t/part-${k}.parquet`, await readFile(files[k].local))
  uploaded = Date.now()
})
after(async () => {
  await s3?.stop()
})

const listing = (options = {}) => listS3(`s3://${BUCKET}/tables/t/*.parquet`, { endpoint: s3.endpoint, ...options })
const gets = () => s3.stats.log.filter((e) => e.method === 'GET' && e.query.get('list-type') === null)

/** Probes file k's values and checks every verdict against DuckDB's row groups. */
async function assertVerdicts(file, k) {
  const result = await file.probe('id', probedValues(k))
  for (const [v, value] of probedValues(k).entries()) {
    const holding = files[k].truth.get(value)
    for (const group of result.rowGroups) {
      const { verdict } = group.results[v]
      if (holding.has(group.index)) assert.notEqual(verdict, 'absent', `file ${k}: ${value} is in row group ${group.index}`)
      else if (value === 99_000_000n) assert.equal(verdict, 'absent', `file ${k}: ${value} is beyond every id`)
      else assert.notEqual(verdict, 'present', `file ${k}: ${value} is not in row group ${group.index}`)
    }
  }
  assert.equal(files[k].truth.get(probedValues(k)[0]).size, 1, 'DuckDB finds the stored id')
  return result
}

describe('openParquet over s3rver', () => {
  test('without a size: s3rver\'s wrong suffix answer (bytes 0-65536/N) is corrected from its Content-Range, no HEAD', async () => {
    const [entry] = await listing()
    s3.resetStats()
    const origin = new URL(entry.url).origin
    await withFile(entry.url, {}, async (file) => {
      assert.equal(file.fileSize, entry.size)
      const [suffix, exact] = gets()
      assert.equal(suffix.range, 'bytes=-65536')
      assert.equal(exact.range, `bytes=${entry.size - 65536}-${entry.size - 1}`)
      assert.ok(!gets().some((e) => e.method === 'HEAD'))
      await assertVerdicts(file, 0)
    })
    assert.ok(misreadsSuffixRanges(origin), 'the origin is noted')
  })

  test('with the listing\'s size and ETag: one exact range per footer, the right verdicts in every file', async () => {
    const entries = await listing()
    assert.equal(entries.length, FILES)
    for (const [k, entry] of entries.entries()) {
      s3.resetStats()
      await withFile(entry.url, { size: entry.size, etag: entry.etag }, async (file) => {
        assert.equal(file.stats.requests, 1, 'one request for the footer')
        assert.deepEqual(gets().map((e) => e.range), [`bytes=${entry.size - 65536}-${entry.size - 1}`])
        await assertVerdicts(file, k)
        assert.equal(file.stats.retries, 0)
      })
    }
  })

  test('a lying size is BAD_RESPONSE_LENGTH and a lying ETag FILE_CHANGED: never an answer', async () => {
    const [entry] = await listing()
    for (const size of [entry.size + 1000, entry.size - 1000, entry.size + 100_000_000]) {
      await assert.rejects(openParquet(entry.url, { size, etag: entry.etag }),
        (e) => (e.code === ErrorCode.BAD_RESPONSE_LENGTH && /options\.size/.test(e.message)) || (e.code === ErrorCode.HTTP_STATUS && e.status === 416), String(size))
    }
    await assert.rejects(openParquet(entry.url, { size: entry.size, etag: '"0123456789abcdef0123456789abcdef"' }),
      (e) => e.code === ErrorCode.FILE_CHANGED && /options\.etag/.test(e.message))
  })

  test('the size by its former name (fileSize) reads the same exact range; the two names unequal are refused', async () => {
    const [entry] = await listing()
    s3.resetStats()
    await withFile(entry.url, { fileSize: entry.size, etag: entry.etag }, async (file) => {
      assert.deepEqual(gets().map((e) => e.range), [`bytes=${entry.size - 65536}-${entry.size - 1}`])
      await assertVerdicts(file, 0)
    })
    s3.resetStats()
    for (const options of [{ size: entry.size, fileSize: entry.size + 1 }, { size: -1 }, { size: '123' }]) {
      await assert.rejects(openParquet(entry.url, /** @type {any} */ (options)), (e) => e.code === ErrorCode.INVALID_ARGUMENT, JSON.stringify(options))
    }
    assert.equal(s3.stats.requests, 0, 'refused before any request')
  })

  test('a footer cache validated by the listing\'s ETag: the second open sends no request, the probe no 8-byte check', async () => {
    const [entry] = await listing()
    await delay(uploaded + 3000 - Date.now())
    const footerCache = createFooterCache()
    await withFile(entry.url, { fileSize: entry.size, etag: entry.etag, footerCache }, (file) => assertVerdicts(file, 0))
    s3.resetStats()
    await withFile(entry.url, { fileSize: entry.size, etag: entry.etag, footerCache }, async (file) => {
      assert.equal(file.footerFromCache, true)
      assert.equal(s3.stats.requests, 0)
      await assertVerdicts(file, 0)
      assert.ok(gets().every((e) => Number(/^bytes=\d+-(\d+)$/.exec(e.range)?.[1]) < file.metadataOffset), 'no footer bytes, no 8-byte confirmation')
      assert.ok(gets().every((e) => e.ifMatch === entry.etag), 'each request carries If-Match')
    })
    // Another ETag than the cached one: the entry is not used.
    s3.resetStats()
    await assert.rejects(openParquet(entry.url, { fileSize: entry.size, etag: '"ffffffffffffffffffffffffffffffff"', footerCache }), (e) => e.code === ErrorCode.FILE_CHANGED)
    assert.equal(gets().length, 1, 'the footer was read again, not taken from the cache')
  })

  test('503 SlowDown and a reset connection are retried (stats.retries); the verdicts are unchanged', async () => {
    const [entry] = await listing()
    s3.resetStats()
    // The footer's first attempt gets a 503, the probe's first filter request a reset.
    let footerFailed = false
    let probeReset = false
    s3.failRequests((e) => {
      if (e.method !== 'GET' || e.query.get('list-type') !== null) return undefined
      if (!footerFailed) {
        footerFailed = true
        return 503
      }
      if (!probeReset && Number(/^bytes=(\d+)-/.exec(e.range)?.[1]) < entry.size - 65536) {
        probeReset = true
        return 'reset'
      }
      return undefined
    })
    try {
      await withFile(entry.url, { size: entry.size, etag: entry.etag }, async (file) => {
        await assertVerdicts(file, 0)
        assert.ok(file.stats.retries >= 1, `${file.stats.retries} retries`)
        assert.equal(file.stats.requests, gets().length, 'every attempt is a counted request')
      })
      assert.ok(footerFailed)
      assert.ok(gets().some((e) => e.injected === '503'))
    } finally {
      s3.failRequests()
    }
  })

  test('a file that always answers 503 is HTTP_STATUS after 3 retries, within the backoff\'s bound', async () => {
    const [entry] = await listing()
    s3.resetStats()
    s3.failRequests((e) => (e.method === 'GET' && e.query.get('list-type') === null ? 503 : undefined))
    try {
      const started = performance.now()
      await assert.rejects(openParquet(entry.url, { fileSize: entry.size, etag: entry.etag }),
        (e) => e.code === ErrorCode.HTTP_STATUS && e.status === 503)
      const ms = performance.now() - started
      assert.equal(gets().length, 4)
      // 3 waits of at most 50, 100 and 200 ms, plus the four requests on loopback.
      assert.ok(ms < 1500, `${ms} ms`)
      s3.resetStats()
      await assert.rejects(openParquet(entry.url, { fileSize: entry.size, retries: 0 }), (e) => e.code === ErrorCode.HTTP_STATUS)
      assert.equal(gets().length, 1, 'retries: 0 sends it once')
      // An abort during a backoff ends it at once, and nothing is sent after it.
      s3.resetStats()
      const controller = new AbortController()
      const opening = openParquet(entry.url, { fileSize: entry.size, signal: controller.signal, retries: 10 })
      while (gets().length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
      const abortedAt = performance.now()
      controller.abort(new Error('user went away'))
      await assert.rejects(opening, (e) => e.code === ErrorCode.ABORTED && /user went away/.test(e.message))
      assert.ok(performance.now() - abortedAt < 250, `${performance.now() - abortedAt} ms after the abort`)
      const sent = gets().length
      await new Promise((resolve) => setTimeout(resolve, 300))
      assert.equal(gets().length, sent, 'no retry after the abort')
    } finally {
      s3.failRequests()
    }
  })

  test('a private bucket: signed listing and signed range GETs probe; unsigned is HTTP_STATUS 403; no credential in any message or JSON', async () => {
    s3.requireSignature(KEY)
    try {
      await assert.rejects(listing(), (e) => e.code === ErrorCode.LISTING_FAILED && e.status === 403)
      const entries = await listing({ credentials: KEY })
      const fetch = s3FetchFor({ credentials: KEY })
      for (const [k, entry] of entries.entries()) {
        await withFile(entry.url, { fetch, fileSize: entry.size, etag: entry.etag }, async (file) => {
          await assertVerdicts(file, k)
          assertNoSecret(JSON.stringify({ stats: file.stats, name: file.name, metadata: file.metadata }, (_, v) => (typeof v === 'bigint' ? String(v) : v)))
        })
      }
      const unsigned = await openParquet(entries[0].url, { fileSize: entries[0].size }).then(() => assert.fail('opened'), (e) => e)
      assert.equal(unsigned.code, ErrorCode.HTTP_STATUS)
      assert.equal(unsigned.status, 403)
      const wrong = s3FetchFor({ credentials: { ...KEY, secretAccessKey: `${KEY.secretAccessKey}x` } })
      const refused = await openParquet(entries[0].url, { fetch: wrong, fileSize: entries[0].size }).then(() => assert.fail('opened'), (e) => e)
      assert.equal(refused.status, 403)
      for (const error of [unsigned, refused]) assertNoSecret(`${error.message}\n${error.stack}\n${JSON.stringify(error)}`)
      assert.ok(gets().every((e) => !e.authorization || e.authorization.startsWith('AWS4-HMAC-SHA256 Credential=AKIDPROBETEST/')))
    } finally {
      s3.requireSignature(undefined)
    }
  })
})

function assertNoSecret(text) {
  assert.ok(!text.includes(KEY.secretAccessKey), `the secret appears in: ${text.slice(0, 500)}`)
}
