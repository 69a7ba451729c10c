// An Iceberg v2 table written at test time (1,000 hyparquet-writer data files in 50 Avro manifests,
// identity-partitioned by day, 15 files a day and 20 a manifest, disjoint id bounds per file) served over HTTP at
// 30 ms per response: stored ids and days are never absent, a probe of the partition column reads only
// the manifests whose partition summaries hold its days, the metadata rules out ≥ 99% of the files for
// an id, a cold probe takes ≤ 6 rounds, and a second probe of the unchanged table reads only the
// version hint before the index reads (no manifest is read or decoded again). Truth is the generator's
// own input (testkit/iceberg-writer.js), not the reader.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { createFooterCache, openTable } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { ID_STEP, ID_STRIDE, writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

const FILES = 1000
const MANIFESTS = 50
// A warm open's metadata requests: the hint, and the names its number may mean (read each open: see below).
const METADATA_PATHS = ['/metadata/v1.metadata.json', '/metadata/version-hint.text'] // sorted
const dir = await tempDir('table-scale')
let written
let server
before(async () => {
  // 15 files a day, 20 a manifest: a manifest's summary spans one or two days, and some days two manifests.
  written = await writeIcebergTable(dir, { files: FILES, manifests: MANIFESTS, filesPerDay: 15 })
  server = await startTestServer({ root: dir })
})
after(async () => { await server?.close() })

async function probeOver(values, open = {}, column = 'id') {
  server.resetStats()
  server.setMode('slow:30')
  try {
    const table = await openTable(server.url(''), open)
    // What opening read; the manifests the probe reads are counted in the probe's own stats.
    const metadata = table.table.metadataStats
    const result = await table.probe(column, values)
    return { table, result, metadata, rounds: metadata.rounds + result.stats.rounds, requests: server.stats.requests, paths: Object.keys(server.stats.paths) }
  } finally {
    server.setMode()
  }
}

const toArrayBuffer = (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)
const kept = (result, k) => result.files.filter((f) => f.values[k].verdict !== 'absent')

describe('an Iceberg table of 1,000 files in 50 manifests over HTTP', () => {
  test('the table as written: 1,000 files; a day is kept only in its own partition\'s files, and only its manifest is read', async () => {
    clearTableCache()
    const table = await openTable(dir)
    assert.equal(table.table.files.length, 0) // opening reads the manifest list, no manifest
    assert.deepEqual(table.table.manifests, { total: MANIFESTS, read: 0 })
    const day = written.files[321].day
    const result = await table.probe('day', [day])
    const holders = written.files.filter((f) => f.day === day).map((f) => f.path).sort()
    // Only the manifests whose summaries hold the day are read (the day of file 321 straddles two); their files are the probe's.
    const holding = new Set(written.files.filter((f) => f.day === day).map((f) => Math.floor(f.index / written.filesPerManifest)))
    assert.equal(holding.size, 2)
    assert.deepEqual(result.manifests, { total: MANIFESTS, read: 2, skipped: MANIFESTS - 2, fetched: 2 })
    assert.deepEqual(kept(result, 0).map((f) => f.path).sort(), holders)
    assert.equal(result.files.length, 2 * written.filesPerManifest)
    assert.equal(result.stats.filesOpened, holders.length)
    assert.equal(table.table.files.length, 2 * written.filesPerManifest)

    // A non-partition column: every manifest may hold an id.
    const byId = await table.probe('id', [written.files[5].ids[3]])
    assert.deepEqual(byId.manifests, { total: MANIFESTS, read: MANIFESTS, skipped: 0, fetched: MANIFESTS - 2 })
    assert.deepEqual(kept(byId, 0).map((f) => f.path), [written.files[5].path])

    // Every file listed, once every manifest is read.
    assert.equal((await table.listFiles()).length, FILES)
    const sizes = new Map(table.table.files.map((f) => [f.path, f.size]))
    for (const f of written.files) assert.equal(sizes.get(f.path), f.size, f.path)
    // The data files carry Iceberg field ids (hyparquet reads them): columns are matched by id, not name.
    const schema = parquetMetadata(toArrayBuffer(await readFile(path.join(dir, written.files[0].path)))).schema
    assert.deepEqual(schema.slice(1).map((e) => [e.name, e.field_id]), [['id', 1], ['day', 2]])
  })

  test('manifest skipping by day never loses a file that holds a probed day (every day, one probe each, and all days at once)', async () => {
    clearTableCache()
    const table = await openTable(dir)
    const days = [...new Set(written.files.map((f) => f.day))]
    const before = days[0] - 1
    const after = days[days.length - 1] + 1
    for (const day of days) {
      const result = await table.probe('day', [day, before])
      const holders = written.files.filter((f) => f.day === day).map((f) => f.path)
      const manifestsHolding = new Set(written.files.filter((f) => f.day === day).map((f) => Math.floor(f.index / written.filesPerManifest)))
      assert.equal(result.manifests.read, manifestsHolding.size, `day ${day}`)
      // 0 false negatives: every file holding the day is listed and not absent.
      for (const holder of holders) assert.notEqual(result.files.find((f) => f.path === holder)?.values[0].verdict ?? 'absent', 'absent', `${holder} day ${day}`)
      assert.ok(result.files.every((f) => f.values[1].verdict === 'absent'))
    }
    const all = await table.probe('day', days)
    assert.equal(all.manifests.read, MANIFESTS)
    for (const f of written.files) assert.notEqual(all.files.find((r) => r.path === f.path).values[days.indexOf(f.day)].verdict, 'absent', f.path)
    // Days outside every manifest's bounds: no manifest is read, no file listed.
    const none = await table.probe('day', [before, after])
    assert.deepEqual([none.manifests.read, none.files.length], [0, 0])
  })

  test('every stored id of sampled files is never absent; the metadata rules a value out of ≥ 99% of the files; a cold probe takes ≤ 6 rounds', async (t) => {
    clearTableCache()
    const footerCache = createFooterCache()
    // A sample of files across manifests, two stored ids each (first, last, a middle one), and absent ids
    // inside one file's bounds (between two stored ids) and outside every file's bounds.
    const sample = [0, 1, 137, 499, 500, 777, 998, 999].map((k) => written.files[k])
    const present = sample.flatMap((f) => [f.ids[0], f.ids[Math.floor(f.ids.length / 2)], f.ids[f.ids.length - 1]])
    const inGap = BigInt(500 * ID_STRIDE + 3 * ID_STEP + 1)
    const outside = BigInt(FILES * ID_STRIDE + 5)
    const cold = await probeOver([...present, inGap, outside], { footerCache })
    t.diagnostic(`cold: ${cold.rounds} rounds (${cold.metadata.rounds} metadata), ${cold.requests} requests, ${cold.result.stats.filesOpened} files opened`)
    for (const [k, value] of present.entries()) {
      const holder = sample[Math.floor(k / 3)]
      const entry = cold.result.files.find((f) => f.path === holder.path)
      assert.notEqual(entry.values[k].verdict, 'absent', `${value} in ${holder.path}`)
      // Bounds are disjoint: the metadata rules the value out of every other file.
      assert.deepEqual(kept(cold.result, k).map((f) => f.path), [holder.path], `${value}`)
    }
    const gapSlot = present.length
    assert.ok(kept(cold.result, gapSlot).length <= FILES / 100, `in-gap id kept in ${kept(cold.result, gapSlot).length} files`)
    const outSlot = present.length + 1
    assert.equal(kept(cold.result, outSlot).length, 0)
    assert.ok(cold.result.files.every((f) => f.values[outSlot].source === 'table-stats'))
    assert.ok(cold.result.stats.filesOpened <= sample.length, `${cold.result.stats.filesOpened} files opened`)
    assert.ok(cold.rounds <= 6, `${cold.rounds} rounds`)
    assert.equal(cold.metadata.rounds, 3) // version hint, metadata.json, manifest list; then the probe's
    assert.deepEqual(cold.result.manifests, { total: MANIFESTS, read: MANIFESTS, skipped: 0, fetched: MANIFESTS }) // an id may be in any manifest
    assert.equal(cold.paths.filter((p) => p.endsWith('.avro')).length, MANIFESTS + 1)

    // The same table again: only the pointer is read before the probe's index reads (footers cached), and beside
    // it the start of v1.metadata.json — a name a table created anew at this location would write again, so its
    // kept copy is used once storage's size and first KiB match it. Told the format, those are the only metadata
    // requests (without it, format detection adds a look for a Delta log in the same round).
    const warm = await probeOver([...present, inGap, outside], { footerCache, format: 'iceberg' })
    t.diagnostic(`warm: ${warm.rounds} rounds (${warm.metadata.rounds} metadata), ${warm.requests} requests`)
    assert.equal(warm.metadata.requests, 2)
    assert.equal(warm.metadata.rounds, 1)
    assert.equal(warm.result.manifests.fetched, 0) // kept decoded: neither read nor decoded again
    assert.deepEqual(warm.paths.filter((p) => !p.endsWith('.parquet')).sort(), METADATA_PATHS)
    // The data files are small (a few KiB): the tail read that finds the footer holds the indexes too,
    // so each kept file is one request, cold or warm.
    assert.equal(warm.requests - 2, warm.result.stats.filesOpened)
    assert.ok(warm.rounds <= 3, `${warm.rounds} rounds`)
    for (const k of present.keys()) assert.notEqual(warm.result.files.find((f) => f.path === sample[Math.floor(k / 3)].path).values[k].verdict, 'absent')
  })

  test('over HTTP, a probe of the partition column fetches only the manifests holding its day: ≤ 6 rounds cold, none warm', async (t) => {
    clearTableCache()
    const footerCache = createFooterCache()
    const day = written.files[321].day
    const holding = new Set(written.files.filter((f) => f.day === day).map((f) => Math.floor(f.index / written.filesPerManifest)))
    const cold = await probeOver([day], { footerCache }, 'day')
    t.diagnostic(`cold: ${cold.rounds} rounds, ${cold.requests} requests, ${cold.result.manifests.read} of ${MANIFESTS} manifests read`)
    assert.ok(cold.rounds <= 6, `${cold.rounds} rounds`)
    assert.equal(cold.result.manifests.read, holding.size)
    const manifestPaths = cold.paths.filter((p) => /manifest-\d+-m0\.avro$/.test(p)).sort()
    assert.deepEqual(manifestPaths, [...holding].sort((a, b) => a - b).map((m) => `/metadata/manifest-${String(m).padStart(3, '0')}-m0.avro`))
    const holders = written.files.filter((f) => f.day === day).map((f) => f.path).sort()
    assert.deepEqual(kept(cold.result, 0).map((f) => f.path).sort(), holders)
    const warm = await probeOver([day], { footerCache, format: 'iceberg' }, 'day')
    assert.equal(warm.result.manifests.fetched, 0)
    assert.deepEqual(warm.paths.filter((p) => !p.endsWith('.parquet')).sort(), METADATA_PATHS)
    assert.deepEqual(kept(warm.result, 0).map((f) => f.path).sort(), holders)
  })

  test('concurrent probes of two opens share the manifests being read: each is fetched once', async () => {
    clearTableCache()
    server.resetStats()
    const [a, b] = await Promise.all([openTable(server.url(''), { format: 'iceberg' }), openTable(server.url(''), { format: 'iceberg' })])
    const days = [written.files[0].day, written.files[500].day]
    const [ra, rb, rc] = await Promise.all([a.probe('day', days), b.probe('day', days), a.probe('id', [written.files[0].ids[0]])])
    const manifestRequests = Object.entries(server.stats.paths).filter(([p]) => /manifest-\d+-m0\.avro$/.test(p)).map(([, s]) => s.requests)
    assert.equal(manifestRequests.length, MANIFESTS)
    assert.ok(manifestRequests.every((n) => n === 1), `manifest requests: ${manifestRequests}`)
    for (const r of [ra, rb]) for (const [k, day] of days.entries()) {
      for (const f of written.files.filter((x) => x.day === day)) assert.notEqual(r.files.find((x) => x.path === f.path)?.values[k].verdict ?? 'absent', 'absent', f.path)
    }
    assert.deepEqual(kept(rc, 0).map((f) => f.path), [written.files[0].path])
  })
})
