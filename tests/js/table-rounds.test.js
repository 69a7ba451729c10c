// Tables over HTTP at 30 ms per response: the rounds a cold probe takes are the metadata levels
// (Iceberg: pointer, metadata.json, manifest list when opened, then the manifests the probe needs;
// Delta: pointer, checkpoint + commits) plus the dataset's two (footers, indexes), whatever the number
// of files; a second open of an unchanged table reads only the pointer (Iceberg: and, beside it, the start of a
// metadata.json named without a UUID; Delta: the next commit's absence) before the probe, and no manifest (they are
// kept decoded).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'

import { createFooterCache, openTable } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { startTestServer } from '../../testkit/range-server.js'

const skip = missingFixture('tables')
let server
before(async () => { if (!skip) server = await startTestServer({ root: fixturePath('tables') }) })
after(async () => { await server?.close() })

async function probeOver(name, column, values, open = {}) {
  server.resetStats()
  server.setMode('slow:30')
  const started = performance.now()
  try {
    const table = await openTable(server.url(`${name}/`), open)
    const metadataRounds = table.table.metadataStats.rounds
    const result = await table.probe(column, values)
    return { table, result, metadataRounds, rounds: metadataRounds + result.stats.rounds, requests: server.stats.requests, ms: performance.now() - started }
  } finally {
    server.setMode()
  }
}

describe('table rounds over HTTP', { skip }, () => {
  test('Iceberg (partitioned, 3 files): a cold probe takes ≤ 6 rounds; a warm one reads only the version hint (and checks v3.metadata.json beside it) before the probe', async (t) => {
    clearTableCache()
    const footerCache = createFooterCache()
    const cold = await probeOver('iceberg/spark_rename_column', 'id', [1, 3, 99], { footerCache })
    t.diagnostic(`cold: ${cold.rounds} rounds (${cold.metadataRounds} metadata), ${cold.requests} requests, ${cold.ms.toFixed(0)} ms`)
    assert.ok(cold.rounds <= 6, `${cold.rounds} rounds`)
    assert.equal(cold.metadataRounds, 3) // pointer, metadata.json, manifest list; the manifests are the probe's
    assert.equal(cold.result.manifests.read, 1)
    assert.notEqual(cold.result.files.find((f) => f.path.includes('id_bucket=0')).values[0].verdict, 'absent')
    const warm = await probeOver('iceberg/spark_rename_column', 'id', [1, 3, 99], { footerCache })
    t.diagnostic(`warm: ${warm.rounds} rounds (${warm.metadataRounds} metadata), ${warm.requests} requests, ${warm.ms.toFixed(0)} ms`)
    // The hint, and beside it the start of v3.metadata.json (a name without a UUID is written again by a table
    // created anew at the same location: the kept copy is used once storage's size and first KiB match it).
    // The manifest list and manifests come from the cache.
    assert.equal(warm.metadataRounds, 1)
    assert.equal(warm.result.manifests.fetched, 0)
    // Told the format, the only metadata requests are the version hint and that check of v3.metadata.json.
    const told = await probeOver('iceberg/spark_rename_column', 'id', [1, 3, 99], { footerCache, format: 'iceberg' })
    assert.equal(told.table.table.metadataStats.requests, 2)
    assert.equal(told.metadataRounds, 1)
  })

  test('Delta (checkpoint + 5 commits, 15 files): a cold probe takes ≤ 5 rounds', async (t) => {
    clearTableCache()
    const cold = await probeOver('delta/dv-partitioned-with-checkpoint', 'col1', [1, 28, 1000])
    t.diagnostic(`cold: ${cold.rounds} rounds (${cold.metadataRounds} metadata), ${cold.requests} requests, ${cold.ms.toFixed(0)} ms, ${cold.table.table.files.length} files`)
    assert.ok(cold.rounds <= 5, `${cold.rounds} rounds`)
    assert.equal(cold.table.table.files.length, 15)
    assert.equal(cold.table.table.version, 15)
  })

  test('over HTTP without listings: a log that starts at a checkpoint, and Iceberg without a version hint', async () => {
    const cdf = await openTable(server.url('delta/checkpoint-cdf-table/'))
    assert.equal(cdf.table.version, 5)
    assert.equal(cdf.table.files.length, 13)
    await assert.rejects(openTable(server.url('iceberg/athena_example/'), { format: 'iceberg' }), (e) => e.code === 'MALFORMED_TABLE' && /metadata/.test(e.message))
    const athena = await openTable(server.url('iceberg/athena_example/'), { format: 'iceberg', metadata: 'metadata/00001-aaf0d033-d06b-43c7-be60-67f83abd4aca.metadata.json' })
    assert.equal((await athena.listFiles()).length, 1)
    const result = await athena.probe('id', [1, 2, 3, 1000])
    assert.ok(result.files[0].values.some((v) => v.verdict !== 'absent'))
  })
})
