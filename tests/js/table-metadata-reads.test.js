// A table's metadata objects read over HTTP through the same seam as data files (js/sources/object-reads.js):
// a server that fails the first request of every object with 503 still gives the table (the same files as
// a fault-free open), each failure retried once, counted server-side and in metadataStats.retries; an
// object that stays 5xx is HTTP_STATUS after the retries; no credential of a signed URL or of the headers
// appears in an error.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, openTable } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { startTestServer } from '../../testkit/range-server.js'

const skip = missingFixture('tables')
const SECRET = 'signature-MUST-NOT-APPEAR'
const TOKEN = 'Bearer token-MUST-NOT-APPEAR'
let server
before(async () => { if (!skip) server = await startTestServer({ root: fixturePath('tables') }) })
after(async () => { await server?.close() })

const isMetadata = (/** @type {string} */ p) => p.includes('/metadata/') || p.includes('/_delta_log/')

/** Opens the table cold (no cached metadata) with the server's requests counted from zero. */
async function openCold(name, options = {}) {
  clearTableCache()
  server.resetStats()
  const table = await openTable(server.url(`${name}/`), options)
  const metadata = server.stats.log.filter((r) => isMetadata(r.path))
  return { table, requests: metadata.length, failed: metadata.filter((r) => r.status === 503).length }
}

describe('table metadata reads over HTTP', { skip }, () => {
  for (const [name, column, values, files] of [
    ['iceberg/spark_rename_column', 'id', [1, 3, 99], 3],
    ['delta/dv-partitioned-with-checkpoint', 'col1', [1, 28, 1000], 15],
  ]) {
    test(`${name}: every object's first request answered 503 — opened and probed as without faults, each retry counted`, async () => {
      const clean = await openCold(name)
      const cleanStats = clean.table.table.metadataStats
      const cleanResult = await clean.table.probe(column, values)
      assert.equal(cleanStats.retries, 0)
      try {
        server.setMode('fail-first:503')
        const faulty = await openCold(name)
        const stats = faulty.table.table.metadataStats
        assert.ok(faulty.failed > 0, 'the server failed requests')
        assert.equal(stats.retries, faulty.failed, 'one retry per failed request')
        assert.equal(stats.requests, faulty.requests, 'every request the server saw is counted')
        assert.equal(stats.requests - stats.retries, cleanStats.requests, 'the same objects as without faults')
        const result = await faulty.table.probe(column, values)
        await faulty.table.listFiles()
        assert.equal(faulty.table.table.files.length, files)
        assert.deepEqual(faulty.table.table.files.map((f) => f.path).sort(), clean.table.table.files.map((f) => f.path).sort())
        const verdicts = (/** @type {any} */ r) => r.files.map((f) => [f.path, f.error?.code ?? null, f.values.map((v) => v.verdict)])
        assert.deepEqual(verdicts(result), verdicts(cleanResult))
      } finally {
        server.setMode()
      }
    })
  }

  test('an object that stays 503 is HTTP_STATUS after the retries (4 requests for it)', async () => {
    clearTableCache()
    server.resetStats()
    const error = await openTable(server.url('iceberg/spark_rename_column/', { mode: 'status:503' }), { format: 'iceberg' }).then(() => assert.fail('opened'), (e) => e)
    assert.equal(error.code, ErrorCode.HTTP_STATUS)
    assert.equal(error.status, 503)
    assert.equal(server.stats.requests, 4)
    assert.deepEqual(server.stats.log.map((r) => r.path), Array(4).fill('/iceberg/spark_rename_column/metadata/version-hint.text'))
  })

  test('no credential of a signed table URL or of the headers appears in an error', async () => {
    for (const [mode, format] of [['status:500', 'auto'], ['status:403', 'iceberg'], ['status:401', 'delta']]) {
      clearTableCache()
      const url = new URL(server.url('iceberg/spark_rename_column/', { mode }))
      url.searchParams.set('X-Amz-Signature', SECRET)
      const error = await openTable(url.href, { format, headers: { authorization: TOKEN }, retries: 1 }).then(() => assert.fail('opened'), (e) => e)
      assert.ok(error.code === ErrorCode.HTTP_STATUS || error.code === ErrorCode.MALFORMED_TABLE, `${error.code}: ${error.message}`)
      const shown = `${error.message} ${JSON.stringify(error)} ${error.source ?? ''} ${error.stack}`
      assert.ok(!shown.includes(SECRET) && !shown.includes(TOKEN), `a credential appears in: ${shown}`)
    }
  })
})
