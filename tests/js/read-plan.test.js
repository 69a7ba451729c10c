// The read plan (`plan: true`) against what the server saw: every request the range server logged is in
// the plan — the same object, the same byte range, the same body bytes — and nothing else is; its rounds
// are the rounds the server counted (wave mode). For a file, a dataset (DuckDB-written, over HTTP) and an
// Iceberg table (the fixture tables).
import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import path from 'node:path'
import { after, describe, test } from 'node:test'

import { openDataset, openParquet, openTable, READ_PURPOSES } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { writeHiveDataset } from '../../testkit/hive-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { runCli } from './helpers/run-cli.js'

const QUIET_MS = 60

/** The server's log as [path, first byte, last byte, body bytes] rows (a suffix range resolved by the file's size), sorted. */
function serverRows(log, sizeOf) {
  return log.map((e) => {
    const range = e.range
    if (e.method === 'HEAD') return [e.path, 'HEAD', '', e.bytesWritten]
    if (!range) return [e.path, 0, e.bytesWritten - 1, e.bytesWritten]
    const [first, last] = range.slice(6).split('-')
    if (first === '') {
      const size = sizeOf(e.path)
      return [e.path, Math.max(0, size - Number(last)), size - 1, e.bytesWritten]
    }
    return [e.path, Number(first), Math.min(Number(last), sizeOf(e.path) - 1), e.bytesWritten]
  }).sort(byRow)
}

/** The plan's requests as the same rows: its file names are URLs of the server. */
function planRows(plan, server) {
  return plan.requests.map((r) => {
    const urlPath = decodeURIComponent(new URL(plan.files[r.file]).pathname)
    assert.equal(new URL(plan.files[r.file]).origin, new URL(server.url('x')).origin)
    if (r.offset === null) return [urlPath, 'HEAD', '', r.bytes]
    return [urlPath, r.offset, r.offset + (r.length ?? r.bytes) - 1, r.bytes]
  }).sort(byRow)
}

function byRow(a, b) {
  return String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1]), 'en', { numeric: true })
}

function checkPlanShape(plan) {
  assert.doesNotThrow(() => JSON.stringify(plan))
  assert.deepEqual(JSON.parse(JSON.stringify(plan)), plan, 'plain data')
  for (const r of plan.requests) {
    assert.ok(READ_PURPOSES.includes(r.purpose), r.purpose)
    assert.ok(r.round >= 1 && r.round <= plan.stats.rounds)
  }
  assert.equal(plan.listed.omitted, 0)
  assert.equal(plan.rounds.reduce((n, r) => n + r.requests, 0), plan.stats.requests)
}

describe('the read plan lists every request the server saw', () => {
  /** @type {any} */
  let server
  let root
  const servers = []
  async function serve(dir) {
    root = dir
    server = await startTestServer({ root })
    servers.push(server)
  }
  after(async () => { for (const s of servers) await s.close() })
  const sizeOf = (p) => statSync(path.join(root, p)).size

  async function counted(run) {
    server.resetStats()
    server.setMode(`wave:${QUIET_MS}`)
    try {
      const result = await run()
      return { result, log: server.stats.log.map((e) => ({ ...e })), rounds: server.stats.rounds }
    } finally {
      server.setMode()
    }
  }

  test('a file: the footer in two reads, then its bloom filter', { skip: missingFixture('parquet-testing') }, async () => {
    await serve(fixturePath('parquet-testing'))
    const name = 'data_index_bloom_encoding_stats.parquet'
    let file
    const { result, log, rounds } = await counted(async () => {
      // A tail of 64 bytes: the footer takes a second read, the filter a third round.
      file = await openParquet(server.url(name), { plan: true, initialFetchSize: 64 })
      return file.probe('String', ['Hello', 'nope'], { plan: true, dictionary: false })
    })
    await file.close()
    const plan = result.plan
    checkPlanShape(plan)
    assert.deepEqual(planRows(plan, server), serverRows(log, sizeOf))
    assert.equal(plan.stats.requests, log.length)
    assert.equal(plan.stats.rounds, rounds, 'the plan\'s rounds are the server\'s')
    assert.equal(file.stats.rounds, rounds)
    assert.deepEqual(plan.requests.map((r) => r.purpose), ['footer', 'footer', 'bloom'])
    // A second probe's plan lists that probe's requests only.
    const again = await openParquet(server.url(name), { initialFetchSize: 64 })
    const second = await counted(() => again.probe('String', ['Hello'], { plan: true, dictionary: false }))
    await again.close()
    assert.deepEqual(planRows(second.result.plan, server), serverRows(second.log, sizeOf))
  })

  test('a dataset over HTTP: footers, then index reads, each listed once', async () => {
    const dataRoot = path.join(await tempDir('read-plan'), 'hive')
    await writeHiveDataset(dataRoot, { days: 3, countries: ['DE', 'FR'], rowsPerFile: 2000, bloom: true })
    await serve(dataRoot)
    const local = await openDataset(dataRoot)
    const dataset = await openDataset(local.files.map((f) => ({ path: f.path, location: server.url(f.path) })))
    const { result, log, rounds } = await counted(() => dataset.probe('user_id', [2 * 1000 + 3 * 7, 123456789], { plan: true, initialFetchSize: 256 }))
    const plan = result.plan
    checkPlanShape(plan)
    assert.deepEqual(planRows(plan, server), serverRows(log, sizeOf))
    assert.equal(result.stats.requests, log.length)
    assert.ok(rounds >= 2, `${rounds} rounds at the server`)
    assert.equal(result.stats.rounds, rounds, 'the probe\'s measured rounds are the server\'s')
    assert.equal(plan.stats.rounds, rounds)
    assert.equal(plan.files.length, local.files.length)
    assert.ok(plan.requests.some((r) => r.purpose === 'footer'))
    assert.ok(plan.requests.some((r) => r.purpose !== 'footer'), 'index reads past a 256-byte tail')
    // Without plan: the same rounds, measured, and no plan.
    const { result: plain, rounds: plainRounds } = await counted(() => dataset.probe('user_id', [5 * 1000 + 3], { initialFetchSize: 256 }))
    assert.equal(plain.plan, undefined)
    assert.equal(plain.stats.rounds, plainRounds)
  })

  test('an Iceberg table: the manifests the probe reads, then its files', { skip: missingFixture('tables') }, async () => {
    clearTableCache()
    await serve(fixturePath('tables'))
    const table = await openTable(server.url('iceberg/spark_rename_column/'))
    const { result, log, rounds } = await counted(() => table.probe('id', [1, 3, 99], { plan: true }))
    const plan = result.plan
    checkPlanShape(plan)
    assert.deepEqual(planRows(plan, server), serverRows(log, sizeOf))
    assert.equal(result.stats.requests, log.length)
    assert.equal(result.stats.rounds, rounds)
    assert.ok(plan.requests.some((r) => r.purpose === 'manifest'), JSON.stringify(plan.requests.map((r) => r.purpose)))
    const firstFooterRound = Math.min(...plan.requests.filter((r) => r.purpose === 'footer').map((r) => r.round))
    const lastManifestRound = Math.max(...plan.requests.filter((r) => r.purpose === 'manifest').map((r) => r.round))
    assert.ok(firstFooterRound > lastManifestRound, 'files are read after the manifests that list them')
  })

  test('a table opened with plan: true: its first plan begins with the opening\'s reads, its stats stay the probe\'s', { skip: missingFixture('tables') }, async () => {
    clearTableCache()
    await serve(fixturePath('tables'))
    const opened = await counted(() => openTable(server.url('iceberg/spark_rename_column/'), { plan: true }))
    const table = opened.result
    try {
      const { result: probed, log } = await counted(() => table.probe('id', [1, 3, 99], { plan: true }))
      const plan = probed.plan
      checkPlanShape(plan)
      const seen = [...opened.log, ...log]
      // Objects that are not there (the probing for a Delta log, a version hint): the server's 404 page is no
      // bytes of the table, so the plan lists them at 0 bytes.
      const missing = new Set(seen.filter((e) => e.status === 404).map((e) => e.path))
      assert.ok(missing.size > 0, 'the opening looked for objects that are not there')
      assert.deepEqual(planRows(plan, server).filter((r) => missing.has(r[0])).map((r) => `${r[0]} ${r[3]}`).sort(), [...missing].map((p) => `${p} 0`).sort())
      assert.deepEqual(planRows(plan, server).filter((r) => !missing.has(r[0])), serverRows(seen.filter((e) => e.status !== 404), sizeOf),
        'the opening and the probe: every request the server saw')
      // The opening's reads come first (the manifest list it sends ahead is drawn as the first manifest read).
      const opening = plan.requests.filter((r) => r.purpose === 'table-metadata')
      assert.ok(opening.length >= 2, 'the pointer and metadata.json')
      assert.ok(Math.max(...opening.map((r) => r.round)) < Math.min(...plan.requests.filter((r) => r.purpose === 'manifest').map((r) => r.round)))
      assert.equal(probed.stats.requests, log.length, 'the probe\'s stats count what it sent, not what the opening did')
      const again = await table.probe('id', [2], { plan: true })
      assert.ok(again.plan.requests.every((r) => r.purpose !== 'table-metadata' || r.round > 0) && again.plan.requests.length < plan.requests.length,
        'a later plan lists its own probe only')
    } finally {
      await table.close()
    }
  })
})

describe('parquet-bloom probe --explain', { skip: missingFixture('parquet-testing') }, () => {
  test('prints the plan round by round; --json carries it', async () => {
    const file = fixturePath('parquet-testing/data_index_bloom_encoding_stats.parquet')
    const text = await runCli(['probe', file, '-c', 'String', '-v', 'Hello', '--explain'])
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, /read plan: 1 request, .*1 round/)
    assert.match(text.stdout, /round 1: 1 request.*\(footer 1\)/)
    const json = await runCli(['probe', file, '-c', 'String', '-v', 'Hello', '--explain', '--json'])
    const [entry] = JSON.parse(json.stdout).files
    assert.deepEqual(entry.plan.requests.map((r) => [r.purpose, r.offset, r.length]), [['footer', 0, statSync(file).size]])
  })
})
