// A dataset of 1,000 files over HTTP in a constant number of rounds, counted at the server: every
// response waits until no request has come for a while (the range server's wave mode), so requests the
// client sent without waiting for each other are one round however long it took to send them, and a
// request that waited for a response (a read the footer asked for, a slot of a full window) is the next.
// Requests and bytes are counted at the server too; DuckDB's answers over the same files are the truth.
import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { createFooterCache, openDataset } from '../../js/index.js'
import { NODE_MAX_WINDOW } from '../../js/dataset/request-window.js'
import { filesHolding, writeHiveDataset } from '../../testkit/hive-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

const FILES = 1000
// A round is answered once no request has come for this long: longer than the pauses of a loaded
// machine between requests sent together, so they stay one round. A request that waited for a
// response comes after it whatever the length; times are not asserted.
const QUIET_MS = 100
const COUNTRIES = ['DE', 'FR', 'NL', 'US']
const dir = await tempDir('dataset-rounds')

describe(`${FILES} files written by DuckDB, a server that counts rounds`, () => {
  let root
  let server
  let urls
  before(async () => {
    root = path.join(dir, 'hive')
    // File f holds user_id f * 1000 + 3i (i < 2,000): one row group, a bloom filter and a dictionary each.
    await writeHiveDataset(root, { days: FILES / COUNTRIES.length, countries: COUNTRIES, rowsPerFile: 2000, bloom: true })
    server = await startTestServer({ root })
    urls = (await openDataset(root)).files.map((f) => ({ path: f.path, location: server.url(f.path) }))
    // One file per partition, and now and then a second where DuckDB's threads split one.
    assert.ok(urls.length >= FILES && urls.length <= NODE_MAX_WINDOW, `${urls.length} files`)
  })
  after(async () => {
    await server?.close()
  })

  /** One probe, its cost as the client counts it and as the server does. */
  async function probeCounted(dataset, values, options) {
    server.resetStats()
    server.setMode(`wave:${QUIET_MS}`, 'etag')
    try {
      const result = await dataset.probe('user_id', values, options)
      return { result, server: { ...server.stats } }
    } finally {
      server.setMode()
    }
  }

  function describeRun(name, { result, server: s }) {
    return `${name}: ${s.rounds} rounds at the server (${result.stats.rounds} counted by the client), ${s.requests} requests, ${(s.bytesWritten / 1000).toFixed(1)} KB, window ${result.stats.window}, ${result.stats.ms.toFixed(0)} ms`
  }

  test('footers in one round; filters outside the tail in one more; a cached second probe in one', async (t) => {
    const value = 417 * 1000 + 3 * 7
    const holding = [...(await filesHolding(root, `user_id = ${value}`)).keys()]
    assert.ok(holding.length >= 1)

    const footerCache = createFooterCache()
    const dataset = await openDataset(urls, { footerCache })
    const cold = await probeCounted(dataset, [value])
    t.diagnostic(describeRun('cold', cold))
    // Small files: the 64 KiB tail read holds each footer, filter and dictionary — one request a file.
    assert.equal(cold.server.rounds, 1)
    assert.equal(cold.server.requests, urls.length)
    assert.equal(cold.result.stats.requests, cold.server.requests)
    assert.equal(cold.result.stats.bytes, cold.server.bytesWritten)
    assert.equal(cold.result.stats.rounds, cold.server.rounds)
    assert.ok(cold.result.stats.window >= urls.length && cold.result.stats.window <= NODE_MAX_WINDOW, `window ${cold.result.stats.window}`)
    assert.ok(cold.server.maxInFlight <= cold.result.stats.window)

    const cached = await probeCounted(dataset, [value])
    t.diagnostic(describeRun('cached', cached))
    assert.equal(cached.result.stats.footersFromCache, urls.length)
    assert.equal(cached.server.rounds, 1)
    assert.equal(cached.result.stats.rounds, 1)
    assert.equal(cached.result.stats.requests, cached.server.requests)
    assert.equal(cached.result.stats.bytes, cached.server.bytesWritten)
    assert.deepEqual(cached.result.files.map((f) => f.values[0].verdict), cold.result.files.map((f) => f.values[0].verdict))

    // A 4 KiB tail holds the footer but not the filter: every file's filter reads are the second round.
    const filters = await openDataset(urls, { initialFetchSize: 4096 })
    const split = await probeCounted(filters, [value, value + 3], { statistics: false, dictionary: false })
    t.diagnostic(describeRun('filters after a 4 KiB tail', split))
    assert.equal(split.server.rounds, 2)
    // Each file's filter reads (a header and two blocks) planned for its share of the window: one request.
    const filterReads = split.server.requests - urls.length
    assert.ok(filterReads >= FILES - 20 && filterReads <= urls.length, `${filterReads} filter reads`)
    // What each file joins to spare the shared round is bounded per file (64 KiB a wave in vain).
    assert.ok(split.server.bytesWritten <= urls.length * (4096 + 64 * 1024), `${split.server.bytesWritten} bytes`)
    assert.equal(split.result.stats.requests, split.server.requests)
    assert.equal(split.result.stats.bytes, split.server.bytesWritten)
    assert.equal(split.result.stats.rounds, split.server.rounds)

    for (const run of [cold, cached, split]) {
      for (const file of run.result.files) {
        assert.equal(file.error, null, file.path)
        if (holding.includes(file.path)) assert.notEqual(file.values[0].verdict, 'absent', `${file.path} holds ${value}`)
      }
    }
    const ruledOut = split.result.files.filter((f) => f.values[0].verdict === 'absent' && f.values[0].source === 'bloom-filter').length
    assert.ok(ruledOut >= urls.length - 20, `the filters ruled out ${ruledOut} files`)
  })

  test('confirmed: exactly the files and rows DuckDB finds, in a constant number of rounds', async (t) => {
    const values = [3 * 1000 + 3, 999 * 1000 + 3 * 1999, 512 * 1000 + 1, -5]
    const dataset = await openDataset(urls)
    const run = await probeCounted(dataset, values, { confirm: true })
    t.diagnostic(describeRun('confirm', run))
    assert.ok(run.server.rounds <= 3, `${run.server.rounds} rounds`)
    assert.equal(run.result.stats.requests, run.server.requests)
    for (const [k, value] of values.entries()) {
      const truth = await filesHolding(root, `user_id = ${value}`)
      for (const file of run.result.files) {
        const rows = truth.get(file.path) ?? 0
        assert.equal(file.values[k].verdict, rows > 0 ? 'present' : 'absent', `${file.path}: ${value} is in ${rows} rows`)
        if (rows > 0) assert.equal(file.values[k].rows.length, rows)
      }
    }
  })
})
