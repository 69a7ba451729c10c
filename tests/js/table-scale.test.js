// An Iceberg v2 table written at test time (1,000 hyparquet-writer data files in 50 Avro manifests,
// identity-partitioned by day, disjoint id bounds per file) served over HTTP at 30 ms per response:
// stored ids are never absent, the metadata rules out ≥ 99% of the files for a value, a cold probe
// takes ≤ 6 rounds, and a second probe of the unchanged table reads only the version hint before the
// index reads. Truth is the generator's own input (tests/js/helpers/iceberg-writer.js), not the reader.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetMetadata } from 'hyparquet'

import { createFooterCache, openTable } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { ID_STEP, ID_STRIDE, writeIcebergTable } from './helpers/iceberg-writer.js'
import { startTestServer } from './helpers/range-server.js'
import { tempDir } from './helpers/temp-dir.js'

const FILES = 1000
const MANIFESTS = 50
const dir = await tempDir('table-scale')
let written
let server
before(async () => {
  written = await writeIcebergTable(dir, { files: FILES, manifests: MANIFESTS })
  server = await startTestServer({ root: dir })
})
after(async () => { await server?.close() })

async function probeOver(values, open = {}) {
  server.resetStats()
  server.setMode('slow:30')
  try {
    const table = await openTable(server.url(''), open)
    const result = await table.probe('id', values)
    const metadata = table.table.metadataStats
    return { table, result, metadata, rounds: metadata.rounds + result.stats.rounds, requests: server.stats.requests, paths: Object.keys(server.stats.paths) }
  } finally {
    server.setMode()
  }
}

const toArrayBuffer = (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)
const kept = (result, k) => result.files.filter((f) => f.values[k].verdict !== 'absent')

describe('an Iceberg table of 1,000 files in 50 manifests over HTTP', () => {
  test('the table as written: 1,000 files; a day is kept only in its own partition\'s files', async () => {
    clearTableCache()
    const table = await openTable(dir)
    assert.equal(table.table.files.length, FILES)
    const sizes = new Map(table.table.files.map((f) => [f.path, f.size]))
    for (const f of written.files) assert.equal(sizes.get(f.path), f.size, f.path)
    // The data files carry Iceberg field ids (hyparquet reads them): columns are matched by id, not name.
    const schema = parquetMetadata(toArrayBuffer(await readFile(path.join(dir, written.files[0].path)))).schema
    assert.deepEqual(schema.slice(1).map((e) => [e.name, e.field_id]), [['id', 1], ['day', 2]])
    const day = written.files[321].day
    const result = await table.probe('day', [day])
    const holders = written.files.filter((f) => f.day === day).map((f) => f.path).sort()
    assert.deepEqual(kept(result, 0).map((f) => f.path).sort(), holders)
    const pruned = result.files.filter((f) => f.values[0].verdict === 'absent')
    assert.equal(pruned.length, FILES - holders.length)
    assert.ok(pruned.every((f) => f.values[0].source === 'table-partition'))
    assert.equal(result.stats.filesOpened, holders.length)
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
    assert.equal(cold.metadata.rounds, 4) // version hint, metadata.json, manifest list, the 50 manifests
    assert.equal(cold.paths.filter((p) => p.endsWith('.avro')).length, MANIFESTS + 1)

    // The same table again: only the pointer is read before the probe's index reads (footers cached).
    // Told the format, the pointer is the only metadata request (without it, format detection adds a
    // look for a Delta log in the same round).
    const warm = await probeOver([...present, inGap, outside], { footerCache, format: 'iceberg' })
    t.diagnostic(`warm: ${warm.rounds} rounds (${warm.metadata.rounds} metadata), ${warm.requests} requests`)
    assert.equal(warm.metadata.requests, 1)
    assert.deepEqual(warm.paths.filter((p) => !p.endsWith('.parquet')), ['/metadata/version-hint.text'])
    // The data files are small (a few KiB): the tail read that finds the footer holds the indexes too,
    // so each kept file is one request, cold or warm.
    assert.equal(warm.requests - 1, warm.result.stats.filesOpened)
    assert.ok(warm.rounds <= 2, `${warm.rounds} rounds`)
    for (const k of present.keys()) assert.notEqual(warm.result.files.find((f) => f.path === sample[Math.floor(k / 3)].path).values[k].verdict, 'absent')
  })
})
