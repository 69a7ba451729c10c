// Remote probing is bound by round trips (docs/performance.md "Rounds, not requests"): a probe over many row groups must take a
// constant number of rounds — the tail, then every row group's filter bytes at once — not one per row
// group; and by requests, each of which costs CPU however wide the window: where filters lie close
// together, fewer, larger reads win. Asserted through a local server that answers once no request has
// come for 30 ms, counting rounds, requests and bytes at the server; times are printed, never asserted
// (npm run bench measures them).
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { createFooterCache, openParquet } from '../../js/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { ROUNDS_ROW_GROUPS, writeRoundsFile } from '../../testkit/rounds-file.js'
import { tempDir } from '../../testkit/temp-dir.js'

const ROW_GROUPS = ROUNDS_ROW_GROUPS
const dir = await tempDir('rounds')
let server
before(async () => {
  before.values = (await writeRoundsFile(dir, 'many.parquet')).values
  server = await startTestServer({ root: dir })
})
after(async () => {
  await server?.close()
})

async function probeOnce(values, options = {}, { open = {}, modes = [] } = {}) {
  server.resetStats()
  // Every response waits until no request has come for 30 ms: the server counts the rounds.
  server.setMode('wave:30', ...modes)
  const started = performance.now()
  const file = await openParquet(server.url('many.parquet'), open)
  try {
    assert.equal(file.metadata.rowGroups.length, ROW_GROUPS)
    const result = await file.probe('id', values, options)
    return { result, stats: file.stats, ms: performance.now() - started, server: { ...server.stats }, metadataOffset: file.metadataOffset, fileSize: file.fileSize }
  } finally {
    await file.close()
    server.setMode()
  }
}

describe('rounds, not requests', () => {
  test(`one value over ${ROW_GROUPS} row groups at 30 ms per response: ≤ 3 rounds, ≤ the tail and a round's bytes in vain, fewer requests than reads, no more bytes than whole filters`, async (t) => {
    const [value] = before.values
    const whole = await probeOnce([value], { mode: 'filter' })
    for (const [mode, options] of [['auto', {}], ['block', { mode: 'block' }], ['statistics off', { statistics: false }]]) {
      const run = await probeOnce([value], options)
      t.diagnostic(`${mode}: ${run.stats.rounds} rounds, ${run.stats.requests} requests, ${(run.stats.bytesFetched / 1000).toFixed(1)} KB, ${run.ms.toFixed(0)} ms`)
      assert.equal(run.server.requests, run.stats.requests)
      assert.equal(run.server.bytesWritten, run.stats.bytesFetched)
      assert.equal(run.server.rounds, run.stats.rounds, `${mode}: ${run.server.rounds} rounds at the server`)
      assert.ok(run.stats.rounds <= 3, `${mode}: ${run.stats.rounds} rounds`)
      // The footer's tail read (64 KiB) holds 5 row groups' filters; the other 95 need a header and a
      // block each, 3,232 bytes apart: read apart, 191 requests in one round. A request costs more than
      // reading 3 KiB (0.5 ms against 0.3 at the model's 10 MB/s), so gaps are read, smallest first,
      // up to a round's bytes (30 ms × 10 MB/s = 300 KB) in vain per wave.
      assert.ok(run.server.bytesWritten <= 64 * 1024 + 95 * 64 + 300_000, `${mode}: ${run.server.bytesWritten} bytes`)
      assert.ok(run.stats.requests <= 120, `${mode}: ${run.stats.requests} requests`)
      assert.ok(run.stats.bytesFetched <= whole.stats.bytesFetched, `${mode}: ${run.stats.bytesFetched} bytes, whole filters ${whole.stats.bytesFetched}`)
      const home = run.result.rowGroups[57].results[0]
      assert.equal(home.verdict, 'maybe', 'the value is in row group 57')
      const absent = run.result.rowGroups.filter((g) => g.results[0].verdict === 'absent').length
      assert.ok(absent >= ROW_GROUPS - 5, `only ${absent} row groups ruled out`)
    }
  })

  test('whole filters of all row groups: one wave after the footer', async (t) => {
    const run = await probeOnce(before.values, { mode: 'filter' })
    t.diagnostic(`filter: ${run.stats.rounds} rounds, ${run.stats.requests} requests, ${(run.stats.bytesFetched / 1000).toFixed(1)} KB, ${run.ms.toFixed(0)} ms`)
    assert.ok(run.stats.rounds <= 3, `${run.stats.rounds} rounds`)
    assert.equal(run.result.rowGroups[57].results[0].verdict, 'maybe')
    assert.equal(run.result.rowGroups[3].results[1].verdict, 'maybe')
  })

  test('a browser-like window of 6 still takes a constant number of rounds: ranges are merged', async (t) => {
    const [value] = before.values
    const run = await probeOnce([value], { concurrency: 6 })
    t.diagnostic(`concurrency 6: ${run.stats.rounds} rounds, ${run.stats.requests} requests, ${(run.stats.bytesFetched / 1000).toFixed(1)} KB, ${run.ms.toFixed(0)} ms`)
    assert.ok(run.stats.rounds <= Math.ceil(ROW_GROUPS / 6) + 2, `${run.stats.rounds} rounds`)
    assert.equal(run.server.rounds, run.stats.rounds, 'a request waiting for a slot of the window is a round of its own')
    assert.ok(run.server.maxInFlight <= 6)
    assert.equal(run.result.rowGroups[57].results[0].verdict, 'maybe')
  })

  test(`a cached second probe over ${ROW_GROUPS} row groups: one round, no footer bytes, the same answers`, async (t) => {
    const [value] = before.values
    const footerCache = createFooterCache()
    const first = await probeOnce([value], {}, { open: { footerCache }, modes: ['etag'] })
    const second = await probeOnce([value], {}, { open: { footerCache }, modes: ['etag'] })
    t.diagnostic(`cached: ${second.stats.rounds} rounds, ${second.stats.requests} requests, ${(second.stats.bytesFetched / 1000).toFixed(1)} KB, ${second.ms.toFixed(0)} ms`)
    assert.equal(second.stats.rounds, 1)
    assert.equal(second.server.rounds, 1)
    assert.equal(second.server.requests, second.stats.requests)
    for (const entry of second.server.log) {
      const [, start, end] = /^bytes=(\d+)-(\d+)$/.exec(entry.range ?? '') ?? []
      assert.ok(start !== undefined && Number(end) < first.metadataOffset, `${entry.range} reads footer bytes (the footer starts at ${first.metadataOffset})`)
      assert.match(entry.ifMatch ?? '', /^"[0-9a-f]+"$/, 'every request carries the validator')
    }
    assert.deepEqual(second.result.rowGroups.map((g) => g.results[0].verdict), first.result.rowGroups.map((g) => g.results[0].verdict))
    assert.equal(second.result.rowGroups[57].results[0].verdict, 'maybe')
  })
})
