// Misbehaving servers through the public path (openParquet(url) + probe + visitBloomFilter), against the
// local range server: errors from the first request and from requests after the footer was read, each
// with its code and the URL in the message, promptly; downloads cancelled when a server ignores Range;
// aborts and timeouts mid-probe that leave nothing running and no pool block behind; and the same file
// object (and module) probing correctly once the server behaves again.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, afterEach, before, describe, test } from 'node:test'

import { ErrorCode, init, memoryStats, openParquet, ParquetBloomError } from '../../js/index.js'
import { bitsetOf, buildTruth, expectedVerdicts, parseParquet, probeValues, rebuild, TARGET } from '../../testkit/file-surgery.js'
import { startTestServer } from '../../testkit/range-server.js'
import { writeHyparquetSample } from '../../testkit/sample-files.js'
import { withFile } from './helpers/with-file.js'
import { tempDir } from '../../testkit/temp-dir.js'

const MiB = 1024 * 1024
const PROMPT_MS = 500 // how long an aborted or failed probe may take to settle
const RETRY_MS = 350 // what the 3 retries of a transient failure wait at most (js/sources/retry.js)
const transient = (mode) => /^status:5|^drop$/.test(mode)
// A tail that holds the footer but none of the filters, so every probe sends range requests.
const OPEN = { initialFetchSize: 4096 }

const dir = await tempDir('hostile-servers')
let server
let base
let truth
let values
let baselineBlocks
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

before(async () => {
  await init()
  const sample = await writeHyparquetSample(dir)
  base = parseParquet(new Uint8Array(await readFile(sample.path)))
  truth = buildTruth(sample)
  values = probeValues(truth, TARGET.column)
  // The same file with 20 MiB of padding between the filters and the footer: larger than maxBytes.
  await writeFile(path.join(dir, 'padded.parquet'), rebuild(base, null, [new Uint8Array(20 * MiB)]))
  server = await startTestServer({ root: dir })
  await withFile(server.url('hyparquet-sample.parquet'), OPEN, (file) => assertProbesExactly(file)) // warm-up
  baselineBlocks = blocksInUse()
})

after(async () => {
  await server?.close()
})

afterEach(() => {
  server?.setMode()
  server?.resetStats()
})

function blocksInUse() {
  return memoryStats().poolInUseBytes
}

/** Every row group answers as the reference SBBF says (present values 'maybe'), in `mode`. */
async function assertProbesExactly(file, mode = 'auto') {
  const result = await file.probe(TARGET.column, values, { mode })
  assert.equal(result.rowGroups.length, base.rowGroupCount)
  for (let g = 0; g < base.rowGroupCount; g++) {
    const expected = expectedVerdicts(truth, TARGET.column, g, values, bitsetOf(base.bytes, base.filter(g, TARGET.column)))
    assert.deepEqual(result.rowGroups[g].results.map((r) => r.verdict), expected, `row group ${g} (${mode})`)
  }
  const g = TARGET.rowGroup
  const checked = await file.visitBloomFilter(g, TARGET.column, (filter) => filter.check(values, 'INT32'))
  const expected = expectedVerdicts(truth, TARGET.column, g, values, bitsetOf(base.bytes, base.filter(g, TARGET.column)))
  assert.deepEqual([...checked].map((v) => (v === 1 ? 'maybe' : 'absent')), expected, 'visitBloomFilter')
}

/** Awaits a rejection: a ParquetBloomError of `code` naming `url`, settled within `withinMs`. */
async function rejectsPromptly(promise, code, url, patterns = [], withinMs = PROMPT_MS, startedAt = performance.now()) {
  const error = await promise.then(() => assert.fail(`expected ${code}, but it succeeded`), (e) => e)
  const took = performance.now() - startedAt
  assert.ok(error instanceof ParquetBloomError, `expected a ParquetBloomError, got ${error?.stack ?? error}`)
  assert.equal(error.code, code, error.message)
  assert.ok(error.message.includes(url), `the message does not name ${url}: ${error.message}`)
  for (const pattern of patterns) assert.match(error.message, pattern)
  assert.ok(took < withinMs, `took ${took.toFixed(0)} ms`)
  return error
}

/** Polls until condition() holds; fails instead of hanging. */
async function waitFor(condition, what, timeoutMs = 2000) {
  const deadline = performance.now() + timeoutMs
  while (!condition()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

/** Every request the server saw has ended (answered, or its connection closed by the client). */
function allRequestsEnded() {
  return server.stats.log.every((entry) => entry.status !== undefined)
}

/** The server's misbehaviour for some range requests only: pick(range) returns modes or undefined. */
function fetchWithModes(pick) {
  return (url, init) => {
    const modes = pick(new Headers(init.headers).get('range'))
    if (!modes) return fetch(url, init)
    const u = new URL(url)
    u.searchParams.set('mode', modes)
    return fetch(u.href, init)
  }
}

/** True once every row group's filter request has started to receive its body. */
function allFilterBodiesStarted() {
  return [0, 1, 2].every((g) => server.stats.log.some((e) => isFilterRequest(e.range, g) && e.bytesWritten > 0))
}

/** The range request that reads row group g's filter of the target column (whole-filter mode). */
function isFilterRequest(range, g) {
  const f = base.filter(g, TARGET.column)
  return range?.startsWith(`bytes=${f.offset}-`)
}

describe('a server misbehaving from the first request', () => {
  for (const [status, hint, code] of [[403, /forbidden/, ErrorCode.HTTP_STATUS], [404, /not found/, ErrorCode.FILE_NOT_FOUND],
    [500, /server error/, ErrorCode.HTTP_STATUS]]) {
    test(`HTTP ${status}: ${code} with the status, the URL and a hint`, async () => {
      const url = server.url('hyparquet-sample.parquet', { mode: `status:${status}` })
      const error = await rejectsPromptly(openParquet(url), code, url, [new RegExp(`HTTP ${status}`), hint], PROMPT_MS + (status >= 500 ? RETRY_MS : 0))
      assert.equal(error.status, status)
    })
  }

  for (const [mode, code, pattern] of [
    ['wrong-content-range', ErrorCode.BAD_RESPONSE_LENGTH, /Content-Range/],
    ['short-body', ErrorCode.BAD_RESPONSE_LENGTH, /the body ended early/],
    ['drop', ErrorCode.IO, /failed after \d+ of \d+ bytes/],
    ['unknown-size', ErrorCode.RANGE_NOT_SUPPORTED, /does not tell its size/],
  ]) {
    test(`${mode}: ${code}`, async () => {
      const url = server.url('hyparquet-sample.parquet', { mode })
      await rejectsPromptly(openParquet(url, OPEN), code, url, [pattern], PROMPT_MS + (transient(mode) ? RETRY_MS : 0))
    })
  }

  test('200 with the whole body of a file over maxBytes: RANGE_NOT_SUPPORTED, the download cancelled', async () => {
    const url = server.url('padded.parquet', { mode: 'ignore-range' })
    await rejectsPromptly(openParquet(url, { maxBytes: MiB }), ErrorCode.RANGE_NOT_SUPPORTED, url, [/ignores Range/, /maxBytes/], 2000)
    await waitFor(allRequestsEnded, 'the server to see its responses end')
    // 20 MiB were on offer; what crossed is at most what socket buffers held when the client let go.
    assert.ok(server.stats.bytesWritten < 5 * MiB, `the server sent ${server.stats.bytesWritten} bytes`)
  })

  test('200 with the whole body of a small file: taken whole once, every probe served from it', async () => {
    await withFile(server.url('hyparquet-sample.parquet', { mode: 'ignore-range' }), OPEN, async (file) => {
      await assertProbesExactly(file)
      await assertProbesExactly(file, 'block')
    })
    assert.equal(server.stats.requests, 1)
  })

  test('a redirect: followed, and later requests go to the final URL', async () => {
    await withFile(server.url('hyparquet-sample.parquet', { mode: 'redirect' }), OPEN, (file) => assertProbesExactly(file))
    assert.equal(server.stats.paths['/hyparquet-sample.parquet'].requests, 1)
    assert.ok(server.stats.paths['/moved/hyparquet-sample.parquet'].requests >= 4)
  })

  test('headers that never come: requestTimeoutMs ends the open with ABORTED', async () => {
    const url = server.url('hyparquet-sample.parquet', { mode: 'slow:10000' })
    await rejectsPromptly(openParquet(url, { requestTimeoutMs: 150, retries: 0 }), ErrorCode.ABORTED, url, [/timed out after 150 ms/], 150 + PROMPT_MS)
    await waitFor(allRequestsEnded, 'the request to be cancelled')
  })

  test('headers that never come: a timed-out request is retried 3 times, then ABORTED within 4 timeouts and the backoff', async () => {
    const url = server.url('hyparquet-sample.parquet', { mode: 'slow:10000' })
    server.resetStats()
    // Backoff: at most 50 + 100 + 200 ms between the four attempts.
    await rejectsPromptly(openParquet(url, { requestTimeoutMs: 100 }), ErrorCode.ABORTED, url, [/timed out after 100 ms/], 4 * 100 + 350 + PROMPT_MS)
    assert.equal(server.stats.requests, 4)
    await waitFor(allRequestsEnded, 'the requests to be cancelled')
  })

  test('headers that never come: an AbortSignal ends the open with ABORTED', async () => {
    const url = server.url('hyparquet-sample.parquet', { mode: 'slow:10000' })
    const controller = new AbortController()
    const opening = openParquet(url, { signal: controller.signal })
    await waitFor(() => server.stats.requests === 1, 'the request to arrive')
    const abortedAt = performance.now()
    controller.abort(new Error('user went away'))
    await rejectsPromptly(opening, ErrorCode.ABORTED, url, [/user went away/], PROMPT_MS, abortedAt)
    await waitFor(allRequestsEnded, 'the request to be cancelled')
  })
})

describe('a server that starts misbehaving after the footer was read', () => {
  const url = () => server.url('hyparquet-sample.parquet')

  // The file is opened while the server behaves; then every request misbehaves; then it behaves again.
  for (const [mode, code, patterns] of [
    ['status:500', ErrorCode.HTTP_STATUS, [/HTTP 500/]],
    ['status:403', ErrorCode.HTTP_STATUS, [/HTTP 403/, /forbidden/]],
    ['status:404', ErrorCode.FILE_NOT_FOUND, [/HTTP 404/]],
    ['short-body', ErrorCode.BAD_RESPONSE_LENGTH, [/the body ended early/]],
    ['drop', ErrorCode.IO, [/failed after \d+ of \d+ bytes/]],
    ['wrong-content-range', ErrorCode.BAD_RESPONSE_LENGTH, [/Content-Range: bytes \d+-\d+/]],
    ['change-size', ErrorCode.BAD_RESPONSE_LENGTH, [/changed while being read/]],
  ]) {
    test(`${mode}: probe and visitBloomFilter reject with ${code}; the same file probes once the server recovers`, async () => {
      await withFile(url(), OPEN, async (file) => {
        server.setMode(mode)
        const within = PROMPT_MS + (transient(mode) ? RETRY_MS : 0)
        for (const probeMode of ['auto', 'block', 'filter']) {
          await rejectsPromptly(file.probe(TARGET.column, values, { mode: probeMode }), code, url(), patterns, within)
        }
        await rejectsPromptly(file.visitBloomFilter(TARGET.rowGroup, TARGET.column, () => assert.fail('visited')), code, url(), patterns, within)
        await waitFor(allRequestsEnded, 'every request to end')
        assert.equal(blocksInUse(), baselineBlocks, 'pool blocks left in use')
        server.setMode()
        await assertProbesExactly(file)
        await assertProbesExactly(file, 'block')
      })
    })
  }

  for (const mode of ['no-content-range', 'chunked', 'redirect', 'slow:20']) {
    test(`${mode}: tolerated, the probe answers exactly`, async () => {
      await withFile(url(), OPEN, async (file) => {
        server.setMode(mode)
        await assertProbesExactly(file)
        await assertProbesExactly(file, 'block')
      })
    })
  }

  test('200 with the whole body of a file over maxBytes: RANGE_NOT_SUPPORTED, the download cancelled', async () => {
    const padded = server.url('padded.parquet')
    await withFile(padded, { ...OPEN, maxBytes: MiB }, async (file) => {
      server.resetStats()
      server.setMode('ignore-range')
      await rejectsPromptly(file.probe(TARGET.column, values), ErrorCode.RANGE_NOT_SUPPORTED, padded, [/ignores Range/], 2000)
      await waitFor(allRequestsEnded, 'the responses to end')
      assert.ok(server.stats.bytesWritten < 5 * MiB, `the server sent ${server.stats.bytesWritten} bytes of 20 MiB`)
      server.setMode()
      await assertProbesExactly(file)
    })
  })

  test('one row group\'s filter gets a 500 while another\'s server stalls: the probe fails at once', async () => {
    const stalls = fetchWithModes((range) => (isFilterRequest(range, 1) ? 'status:500' : isFilterRequest(range, 2) ? 'slow:10000' : undefined))
    await withFile(url(), { ...OPEN, fetch: stalls }, async (file) => {
      await rejectsPromptly(file.probe(TARGET.column, values, { mode: 'filter' }), ErrorCode.HTTP_STATUS, url(), [/HTTP 500/], PROMPT_MS + RETRY_MS)
      await waitFor(allRequestsEnded, 'the stalled request to be cancelled')
      assert.equal(blocksInUse(), baselineBlocks)
    })
  })
})

describe('aborts and timeouts during a multi-row-group probe', () => {
  const url = () => server.url('hyparquet-sample.parquet')
  // Row group 0's filter arrives at once; row groups 1 and 2 send half their body, then stall (until stopped).
  const stallLater = () => {
    let stalling = true
    const stalls = fetchWithModes((range) => (stalling && (isFilterRequest(range, 1) || isFilterRequest(range, 2)) ? 'slow-body:10000' : undefined))
    stalls.stop = () => { stalling = false }
    return stalls
  }

  for (const where of ['probe', 'open']) {
    test(`an AbortSignal passed to ${where === 'probe' ? 'probe()' : 'openParquet()'} ends the probe promptly, leaving no request or pool block behind`, async () => {
      const controller = new AbortController()
      const stalls = stallLater()
      const openOptions = { ...OPEN, fetch: stalls, ...(where === 'open' ? { signal: controller.signal } : {}) }
      await withFile(url(), openOptions, async (file) => {
        const probing = file.probe(TARGET.column, values, { mode: 'filter', ...(where === 'probe' ? { signal: controller.signal } : {}) })
        await waitFor(allFilterBodiesStarted, 'all three filter bodies to start')
        const abortedAt = performance.now()
        controller.abort(new Error('the user moved on'))
        await rejectsPromptly(probing, ErrorCode.ABORTED, url(), [/the user moved on/], PROMPT_MS, abortedAt)
        await waitFor(allRequestsEnded, 'the stalled bodies to be cancelled', 1000)
        assert.equal(blocksInUse(), baselineBlocks, 'no bitset left in the pool')
        stalls.stop()
        if (where === 'probe') await assertProbesExactly(file) // a probe's signal ends that probe only
        else await rejectsPromptly(file.probe(TARGET.column, values), ErrorCode.ABORTED, url()) // the file's signal ends the file
      })
    })
  }

  test('requestTimeoutMs ends a stalled filter read with ABORTED saying it timed out', async () => {
    await withFile(url(), { ...OPEN, fetch: stallLater(), requestTimeoutMs: 200, retries: 0 }, async (file) => {
      const startedAt = performance.now()
      await rejectsPromptly(file.probe(TARGET.column, values, { mode: 'filter' }), ErrorCode.ABORTED, url(), [/timed out after 200 ms/], 200 + PROMPT_MS, startedAt)
      await waitFor(allRequestsEnded, 'the stalled bodies to be cancelled', 1000)
      assert.equal(blocksInUse(), baselineBlocks)
    })
  })

  test('an already-aborted signal sends nothing', async () => {
    await withFile(url(), OPEN, async (file) => {
      const before = server.stats.requests
      await rejectsPromptly(file.probe(TARGET.column, values, { signal: AbortSignal.abort() }), ErrorCode.ABORTED, url())
      assert.equal(server.stats.requests, before)
      await assertProbesExactly(file)
    })
  })

  test('close() during a stalled probe ends it with ABORTED', async () => {
    const file = await openParquet(url(), { ...OPEN, fetch: stallLater() })
    const probing = file.probe(TARGET.column, values, { mode: 'filter' })
    await waitFor(allFilterBodiesStarted, 'all three filter bodies to start')
    const closedAt = performance.now()
    await file.close()
    await rejectsPromptly(probing, ErrorCode.ABORTED, url(), [/closed/], PROMPT_MS, closedAt)
    await waitFor(allRequestsEnded, 'the stalled bodies to be cancelled', 1000)
    assert.equal(blocksInUse(), baselineBlocks)
  })
})

describe('limits have sane defaults', () => {
  test('maxBytes 64 MiB, maxFooterBytes 128 MiB, filters up to 128 MiB', async () => {
    const { DEFAULT_MAX_BYTES } = await import('../../js/sources/open-byte-source.js')
    const { DEFAULT_MAX_FOOTER_BYTES } = await import('../../js/footer/footer.js')
    assert.equal(DEFAULT_MAX_BYTES, 64 * MiB)
    assert.equal(DEFAULT_MAX_FOOTER_BYTES, 128 * MiB)
    // The filter ceiling: a 128 MiB + 32 header is refused (hostile-files covers it end to end).
    const { BloomFilter } = await import('../../js/index.js')
    assert.throws(() => BloomFilter.create({ numBytes: 128 * MiB + 32 }), (e) => e.code === ErrorCode.TOO_LARGE)
  })
})

// Last: nothing the tests above started may outlive them once the server is closed.
test('nothing keeps the event loop alive once the server is closed', async () => {
  await server.close()
  server = undefined
  const lingering = () => process.getActiveResourcesInfo().filter((r) => /Timeout|TCP|FSReq/.test(r))
  const deadline = performance.now() + 1000
  while (lingering().length > 0) {
    if (performance.now() > deadline) assert.fail(`still active: ${lingering().join(', ')}`)
    await sleep(5)
  }
})
