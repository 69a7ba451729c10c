// A table index (buildSidecarIndex(null, sink, { table }) → openTable(…, { index })) over HTTP, counted at
// the server: an Iceberg table of 400 files in 50 manifests (testkit/iceberg-writer.js) and a
// Delta table of 200 files in 20 commits (testkit/delta-appends-writer.js). While the table is at the
// indexed snapshot, an id probe reads no manifest, manifest list or commit and sends no HEAD, in at most
// 4 rounds counted at the server; after one more append only that snapshot's manifest (or that commit)
// is read, and files a later snapshot drops (a manifest left out of its list; a Delta remove) are gone
// from the answers. Which files hold a value comes from the writers' own ids. A renamed Iceberg column is
// indexed in files written under its old name (by field id). On fixtures with equality deletes
// and deletion vectors, live values are never absent and deleted ones never present with the index, by
// hyparquet's reads and Spark's expected results.
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, openTable } from '../../js/index.js'
import { openSidecarIndex } from '../../js/sidecar/sidecar-index.js'
import { TABLE_SNAPSHOT_BLOB } from '../../js/sidecar/sidecar-blobs.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { loadTable } from '../../js/table/load-table.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { appendIcebergSnapshot, ID_STRIDE, writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { appendDeltaCommit, writeDeltaTable } from '../../testkit/delta-appends-writer.js'
import { startTestServer } from '../../testkit/range-server.js'
import { checkpointParquet } from '../../testkit/delta-writer.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { icebergTruth, idOf, probeForm, readParquet } from './helpers/table-truth.js'
import { runCli } from './helpers/run-cli.js'

const FPP = 0.001
let dir
let server
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pb-table-index-'))
  server = await startTestServer({ root: dir })
})
after(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const isManifest = (p) => /\/metadata\/.*\.avro$/.test(p)
const isCommit = (p) => /\/_delta_log\/\d{20}\.(json|checkpoint)/.test(p)
/** The paths of files the probe did not rule out for value k. */
const kept = (result, k = 0) => result.files.filter((f) => f.values[k].verdict !== 'absent').map((f) => f.path).sort()

/** Opens the table and probes once, cold, with the server's log and rounds counted from the open on. */
async function openAndProbe(name, index, column, values, options = {}) {
  clearTableCache()
  server.resetStats()
  server.setMode('wave:15')
  try {
    const table = await openTable(server.url(`${name}/`), { index: server.url(index), ...options })
    const result = await table.probe(column, values)
    const log = server.stats.log
    const rounds = server.stats.rounds
    await table.close()
    return { table, result, log, rounds }
  } finally {
    server.setMode()
  }
}

describe('a table index over HTTP', () => {
  test('Iceberg: no manifest read while the table is at the indexed snapshot; after an append, that snapshot\'s manifest only', async (t) => {
    let table = await writeIcebergTable(path.join(dir, 'ice'), { files: 400, manifests: 50 })
    const built = await buildSidecarIndex(null, path.join(dir, 'ice.puffin'), { table: path.join(dir, 'ice'), columns: ['id'], fpp: FPP })
    assert.equal(built.files, 400)
    assert.equal(built.table?.snapshot, String(table.metadata['current-snapshot-id']))
    assert.equal(built.table?.statistics?.['blob-metadata'].every((b) => b['snapshot-id'] === built.table?.snapshot && b.fields.join() === '1'), true)

    const target = table.files[271]
    const value = target.ids[9]
    const gap = BigInt(123 * ID_STRIDE + 3) // between the ids the writer stores
    const cold = await openAndProbe('ice', 'ice.puffin', 'id', [value, gap], { format: 'iceberg' })
    assert.deepEqual(cold.log.filter((r) => isManifest(r.path)).map((r) => r.path), [], 'no manifest or manifest list is read')
    assert.deepEqual(cold.log.filter((r) => r.method === 'HEAD').map((r) => r.path), [], 'no file is checked')
    assert.ok(cold.rounds >= 2 && cold.rounds <= 4, `open and probe in ${cold.rounds} rounds`)
    t.diagnostic(`cold open + id probe: ${cold.rounds} rounds at the server`)
    assert.deepEqual(kept(cold.result, 0), [target.path])
    assert.deepEqual(kept(cold.result, 1), [])
    assert.equal(cold.result.files.length, 400)
    assert.deepEqual(cold.result.totals.index, { described: 400, notDescribed: 0, reasons: {} })
    assert.equal(cold.table.table.index?.unchanged, true)
    assert.deepEqual(cold.result.manifests, { total: 50, read: 0, skipped: 0, fetched: 0, fromIndex: 50 })

    // Without the index the same probe reads every manifest (the id is in no partition summary).
    clearTableCache()
    server.resetStats()
    const plain = await openTable(server.url('ice/'), { format: 'iceberg' })
    assert.deepEqual(kept(await plain.probe('id', [value])), [target.path])
    assert.equal(server.stats.log.filter((r) => isManifest(r.path)).length, 51)

    table = await appendIcebergSnapshot(table, { files: 2 })
    const [fresh] = table.added
    const afterAppend = await openAndProbe('ice', 'ice.puffin', 'id', [fresh.ids[3], value], { format: 'iceberg' })
    const manifests = afterAppend.log.filter((r) => isManifest(r.path)).map((r) => path.basename(r.path)).sort()
    assert.deepEqual(manifests, ['manifest-s2-m0.avro', `snap-${table.metadata['current-snapshot-id']}-2-list.avro`])
    assert.deepEqual(afterAppend.log.filter((r) => r.method === 'HEAD').map((r) => r.path), [])
    assert.deepEqual(afterAppend.result.manifests, { total: 51, read: 1, skipped: 0, fetched: 1, fromIndex: 50 })
    assert.deepEqual(kept(afterAppend.result, 0), [fresh.path])
    assert.deepEqual(kept(afterAppend.result, 1), [target.path])
    assert.equal(afterAppend.result.files.length, 402)
    assert.deepEqual(afterAppend.result.totals.index, { described: 400, notDescribed: 2, reasons: { 'missing-from-index': 2 } })

    // A snapshot that drops a manifest: its files leave the table; of the manifests, only the one added since the index is read.
    table = await appendIcebergSnapshot(table, { files: 0, dropManifests: [0] })
    const gone = table.removed[0]
    const afterDrop = await openAndProbe('ice', 'ice.puffin', 'id', [gone.ids[1], fresh.ids[3]], { format: 'iceberg' })
    assert.deepEqual(afterDrop.log.filter((r) => isManifest(r.path) && !r.path.includes('-list.avro')).map((r) => path.basename(r.path)), ['manifest-s2-m0.avro'])
    assert.equal(afterDrop.result.files.length, 402 - table.removed.length)
    assert.ok(!afterDrop.result.files.some((f) => f.path === gone.path))
    assert.deepEqual(kept(afterDrop.result, 0), [])
    assert.deepEqual(kept(afterDrop.result, 1), [fresh.path])

    // A column the index does not hold: the manifests its values need are read, as without an index.
    const byDay = await openAndProbe('ice', 'ice.puffin', 'day', [new Date(target.day * 86_400_000).toISOString().slice(0, 10)], { format: 'iceberg' })
    const sameDay = table.files.filter((f) => f.day === target.day).map((f) => f.path).sort()
    assert.deepEqual(kept(byDay.result), sameDay)
    assert.ok(byDay.log.some((r) => isManifest(r.path)))
  })

  test('Delta: no commit read while the table is at the indexed version; after one commit, that commit only', async (t) => {
    let table = await writeDeltaTable(path.join(dir, 'delta'), { files: 200, commits: 20 })
    const built = await buildSidecarIndex(null, path.join(dir, 'delta.puffin'), { table: path.join(dir, 'delta'), columns: ['id'], fpp: FPP })
    assert.deepEqual([built.files, built.table?.version], [200, 19])
    const target = table.files[150]
    const value = target.ids[20]
    const cold = await openAndProbe('delta', 'delta.puffin', 'id', [value], { format: 'delta' })
    const read = (log) => log.filter((r) => isCommit(r.path) && r.status === 200).map((r) => path.basename(r.path))
    assert.deepEqual(read(cold.log), [], 'no commit or checkpoint part read')
    // The record is tied to the log it was built from: the start of its version's commit, read beside the commits after it.
    assert.deepEqual(cold.log.filter((r) => isCommit(r.path) && r.status === 206).map((r) => [path.basename(r.path), r.range]), [['00000000000000000019.json', 'bytes=0-4095']])
    assert.deepEqual(cold.log.filter((r) => r.method === 'HEAD').map((r) => r.path), [])
    assert.ok(cold.rounds >= 2 && cold.rounds <= 4, `open and probe in ${cold.rounds} rounds`)
    t.diagnostic(`cold open + id probe: ${cold.rounds} rounds at the server`)
    assert.deepEqual(kept(cold.result), [target.path])
    assert.equal(cold.table.table.index?.unchanged, true)

    table = await appendDeltaCommit(table, { files: 1, remove: [150] })
    const [fresh] = table.added
    const afterCommit = await openAndProbe('delta', 'delta.puffin', 'id', [fresh.ids[0], value, table.files[3].ids[1]], { format: 'delta' })
    assert.deepEqual(read(afterCommit.log), ['00000000000000000020.json'])
    assert.deepEqual(kept(afterCommit.result, 0), [fresh.path])
    assert.deepEqual(kept(afterCommit.result, 1), [], 'the removed file is no longer the table\'s')
    assert.deepEqual(kept(afterCommit.result, 2), [table.files[3].path])
    assert.equal(afterCommit.result.files.length, 200)
    assert.equal(afterCommit.table.table.index?.commitsRead, 1)
  })
})

describe('a Delta table index and a log that goes on past a missing commit', () => {
  const pad = (v) => String(v).padStart(20, '0')
  /** A table at version 9, indexed, then 10 more commits (10–19) of one file each. */
  const indexedThenAppended = async (name) => {
    let table = await writeDeltaTable(path.join(dir, name), { files: 10, commits: 10, rows: 16 })
    await buildSidecarIndex(null, path.join(dir, `${name}.puffin`), { table: path.join(dir, name), columns: ['id'], fpp: FPP })
    for (let i = 0; i < 10; i++) table = await appendDeltaCommit(table, { files: 1 })
    return table
  }
  const commit = (name, v) => path.join(dir, name, '_delta_log', `${pad(v)}.json`)

  // Read from the index's version up to the first missing commit, the table was version 10: the files added in 11–19 were
  // not its, and their values answered absent. The truth: PROTOCOL.md's contiguous versions, the writer's ids.
  test('a gap after the indexed version, later commits there: MALFORMED_TABLE, as without the index', async () => {
    await indexedThenAppended('since-gap')
    rmSync(commit('since-gap', 11))
    for (const index of [server.url('since-gap.puffin'), undefined]) {
      clearTableCache()
      await assert.rejects(openTable(server.url('since-gap/'), { format: 'delta', ...(index ? { index } : {}) }),
        (e) => e.code === ErrorCode.MALFORMED_TABLE && /00011\.json is missing/.test(e.message), String(index))
    }
  })

  test('commits gone up to a newer checkpoint _last_checkpoint names: read from it, not as the version before the first gone', async () => {
    const table = await indexedThenAppended('since-checkpoint')
    for (let v = 11; v <= 18; v++) rmSync(commit('since-checkpoint', v))
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: false, metadata: {} }] }
    const actions = [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: '0f6c2d8e-5a41-4b7e-9c3d-7e2a1b9f4c60', schemaString: JSON.stringify(schema), partitionColumns: [] } },
      ...table.files.map((f) => ({ add: { path: f.path, partitionValues: [], size: BigInt(f.size), modificationTime: 0n,
        dataChange: true } }))]
    const log = path.join(dir, 'since-checkpoint', '_delta_log')
    writeFileSync(path.join(log, `${pad(19)}.checkpoint.parquet`), checkpointParquet(actions))
    writeFileSync(path.join(log, '_last_checkpoint'), JSON.stringify({ version: 19, size: actions.length }))
    const values = [table.files[19].ids[3], table.files[12].ids[0], table.files[2].ids[5]]
    const truth = holders(table, values)
    assert.deepEqual(truth.map((t) => t.length), [1, 1, 1])
    const over = await openAndProbe('since-checkpoint', 'since-checkpoint.puffin', 'id', values, { format: 'delta' })
    assert.deepEqual(answers(over.result, 3), truth)
    assert.equal(over.table.table.version, 19)
    assert.equal(over.table.table.index?.reason, 'commits-unavailable')
  })

  // Nothing without a listing sees a gap a whole batch wide (no log object points forward), but the index's own log object,
  // read to tie it (00009.json, the same bytes), says the log holds version 9: a read that ends before it is an older version.
  test('the index\'s version still in the log, the log read without it ends before it: MALFORMED_TABLE, not that older version',
    async () => {
    const table = await indexedThenAppended('since-wide-gap')
    // Checkpoint 0 (_last_checkpoint), commits 1–8 gone (the whole first batch after it), 9 there, 10 gone, 11–19 there.
    const schema = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: false, metadata: {} }] }
    const actions = [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: '0f6c2d8e-5a41-4b7e-9c3d-7e2a1b9f4c60', schemaString: JSON.stringify(schema), partitionColumns: [] } },
      { add: { path: table.files[0].path, partitionValues: [], size: BigInt(table.files[0].size), modificationTime: 0n,
        dataChange: true } }]
    const log = path.join(dir, 'since-wide-gap', '_delta_log')
    writeFileSync(path.join(log, `${pad(0)}.checkpoint.parquet`), checkpointParquet(actions))
    writeFileSync(path.join(log, '_last_checkpoint'), JSON.stringify({ version: 0, size: actions.length }))
    for (const v of [1, 2, 3, 4, 5, 6, 7, 8, 10]) rmSync(commit('since-wide-gap', v))
    clearTableCache()
    await assert.rejects(openTable(server.url('since-wide-gap/'), { format: 'delta', index: server.url('since-wide-gap.puffin') }),
      (e) => e.code === ErrorCode.MALFORMED_TABLE && /version 9/.test(e.message))
  })
})

/** Which of the writer's files hold each value: the truth, from the writer's own ids. */
const holders = (table, values) => values.map((v) => table.files.filter((f) => f.ids.includes(v)).map((f) => f.path).sort())
const answers = (result, count) => Array.from({ length: count }, (_, k) => kept(result, k))

/** Opens the table without an index and probes once, as openAndProbe does with one. */
async function probeWithoutIndex(name, column, values, options = {}) {
  clearTableCache()
  const table = await openTable(server.url(`${name}/`), options)
  const result = await table.probe(column, values)
  await table.close()
  return result
}

// The delta and iceberg writers give every table they write the same metaData id / table-uuid (and the iceberg writer the same
// snapshot id): the table id alone cannot tell these tables apart, as it cannot a table copied or re-created under the same id.
describe('a table index is tied to the table it was built from', () => {
  test('Delta: the index of another table at the same version is not used; answers are the table\'s own', async () => {
    await writeDeltaTable(path.join(dir, 'tied-a'), { files: 100, commits: 10 })
    await buildSidecarIndex(null, path.join(dir, 'tied-a.puffin'), { table: path.join(dir, 'tied-a'), columns: ['id'], fpp: FPP })
    const b = await writeDeltaTable(path.join(dir, 'tied-b'), { files: 150, commits: 10 })
    assert.equal(b.version, 9)
    const values = [b.files[120].ids[5], b.files[149].ids[0], b.files[7].ids[2]]
    const truth = holders(b, values)
    assert.deepEqual(truth.map((t) => t.length), [1, 1, 1])
    const withA = await openAndProbe('tied-b', 'tied-a.puffin', 'id', values, { format: 'delta' })
    assert.deepEqual(answers(withA.result, 3), truth)
    assert.deepEqual(answers(await probeWithoutIndex('tied-b', 'id', values, { format: 'delta' }), 3), truth)
    assert.equal(withA.result.files.length, 150)
    assert.deepEqual({ ...withA.table.table.index, reads: undefined }, { unchanged: false, replayed: true, reason: 'log-differs', reads: undefined })
    assert.deepEqual(withA.result.totals.index, { described: 0, notDescribed: 150, reasons: { 'missing-from-index': 150 } })
  })

  test('Delta: a table deleted and written again at the same location, at the same version, is read as without an index', async () => {
    const root = path.join(dir, 'tied-again')
    const first = await writeDeltaTable(root, { files: 60, commits: 6 })
    await buildSidecarIndex(null, path.join(dir, 'tied-again.puffin'), { table: root, columns: ['id'], fpp: FPP })
    const before = await openAndProbe('tied-again', 'tied-again.puffin', 'id', [first.files[30].ids[1]], { format: 'delta' })
    assert.equal(before.table.table.index?.unchanged, true)

    rmSync(root, { recursive: true, force: true })
    // The same file names and count, more rows each: the ids past the 64th are in no file the index saw.
    const again = await writeDeltaTable(root, { files: 60, commits: 6, rows: 80 })
    assert.equal(again.version, first.version)
    const values = [again.files[30].ids[70], again.files[59].ids[79], again.files[2].ids[3]]
    const truth = holders(again, values)
    assert.deepEqual(truth.map((t) => t.length), [1, 1, 1])
    const over = await openAndProbe('tied-again', 'tied-again.puffin', 'id', values, { format: 'delta' })
    assert.deepEqual(answers(over.result, 3), truth)
    assert.equal(over.table.table.index?.reason, 'log-differs')
    assert.equal(over.table.table.index?.replayed, true)
    // A local folder: the size from a stat, the start of the commit read from the file.
    clearTableCache()
    const local = await openTable(root, { index: path.join(dir, 'tied-again.puffin') })
    assert.deepEqual(answers(await local.probe('id', values), 3), truth)
    assert.equal(local.table.index?.reason, 'log-differs')
    await local.close()
  })

  test('Delta: a record from before records named their log object is not used, and says so', async () => {
    const root = path.join(dir, 'tied-old')
    const table = await writeDeltaTable(root, { files: 40, commits: 4 })
    const indexPath = path.join(dir, 'tied-old.puffin')
    await buildSidecarIndex(null, indexPath, { table: root, columns: ['id'], fpp: FPP })
    // The index as a version-1 build wrote it: no log object in its record or its footer.
    const opened = await openSidecarIndex(indexPath)
    const stored = JSON.parse(new TextDecoder().decode((await opened.readBlob(TABLE_SNAPSHOT_BLOB)).bytes))
    assert.equal(stored.version, 2)
    assert.equal(stored.logObject.name, '00000000000000000003.json')
    assert.equal(stored.logObject.size, statSync(path.join(root, '_delta_log/00000000000000000003.json')).size)
    delete stored.logObject
    const oldRecord = new TextEncoder().encode(JSON.stringify({ ...stored, version: 1 }))
    const old = {
      probe: (...args) => opened.probe(...args),
      get stats() { return opened.stats },
      get columns() { return opened.columns },
      blobMetadata: (type) => {
        const found = opened.blobMetadata(type)
        if (!found) return found
        const { 'delta-log-object': _, ...properties } = found.properties
        return { ...found, properties }
      },
      readBlob: async (type, options) => (type === TABLE_SNAPSHOT_BLOB ? { bytes: oldRecord } : opened.readBlob(type, options)),
      close: async () => {},
    }
    try {
      clearTableCache()
      const values = [table.files[33].ids[4], table.files[0].ids[0]]
      const opening = await openTable(root, { index: old })
      assert.deepEqual({ ...opening.table.index, reads: undefined }, { unchanged: false, replayed: true, reason: 'untied-record', reads: undefined })
      const result = await opening.probe('id', values)
      assert.deepEqual(answers(result, 2), holders(table, values))
      assert.equal(result.totals.index.described, 0)
      await opening.close()
    } finally {
      await opened.close()
    }
  })

  test('Iceberg: the index of another table with the same table-uuid and snapshot id is not used for its manifests', async () => {
    await writeIcebergTable(path.join(dir, 'tied-ice-a'), { files: 40, manifests: 5 })
    await buildSidecarIndex(null, path.join(dir, 'tied-ice-a.puffin'), { table: path.join(dir, 'tied-ice-a'), columns: ['id'], fpp: FPP })
    const b = await writeIcebergTable(path.join(dir, 'tied-ice-b'), { files: 60, manifests: 5 })
    const values = [b.files[55].ids[3], b.files[12].ids[0]]
    const truth = holders(b, values)
    assert.deepEqual(truth.map((t) => t.length), [1, 1])
    const withA = await openAndProbe('tied-ice-b', 'tied-ice-a.puffin', 'id', values, { format: 'iceberg' })
    assert.deepEqual(answers(withA.result, 2), truth)
    assert.deepEqual(answers(await probeWithoutIndex('tied-ice-b', 'id', values, { format: 'iceberg' }), 2), truth)
    assert.equal(withA.result.files.length, 60)
    assert.equal(withA.table.table.index?.reason, 'snapshot-differs')
    assert.ok(withA.log.some((r) => isManifest(r.path)), 'the manifests are read')
  })
})

/** Per column: values in live rows and values only in deleted rows, read with hyparquet (Spark's expected rows for Delta). */
async function deltaTruth(name, loaded) {
  const live = new Map()
  const held = new Map()
  const add = (map, column, value) => {
    if (value === null || value === undefined) return
    if (!map.has(column)) map.set(column, new Map())
    map.get(column).set(idOf(value), value)
  }
  for (const file of loaded.files) for (const row of (await readParquet(file.location)).rows) for (const f of loaded.fields) add(held, f.name, row[f.physicalName])
  const expected = fixturePath(`tables/expected/${name}`)
  for (const f of readdirSync(expected).filter((n) => n.endsWith('.parquet'))) {
    for (const row of (await readParquet(`${expected}/${f}`)).rows) for (const [k, v] of Object.entries(row)) add(live, k, v)
  }
  return { live, held }
}

describe('a table index keeps deletes', () => {
  for (const [name, columns] of [['iceberg/mytable_partitioned_eqdeletes', ['id', 'name']], ['delta/dv-partitioned-with-checkpoint', ['col1', 'col2']]]) {
    test(`${name}: live values are never absent, values only in deleted rows never present`, { skip: missingFixture(`tables/${name}`) }, async () => {
      const location = fixturePath(`tables/${name}`)
      const loaded = await loadTable(location)
      const { live, held } = loaded.format === 'iceberg' ? await icebergTruth(loaded) : await deltaTruth(name, loaded)
      const indexPath = path.join(dir, `${name.replace('/', '-')}.puffin`)
      const built = await buildSidecarIndex(null, indexPath, { table: location, columns })
      assert.equal(built.files, loaded.files.length)
      const table = await openTable(location, { index: indexPath })
      assert.equal(table.table.index?.unchanged, true)
      let deletedOnly = 0
      for (const column of columns) {
        const field = loaded.fields.find((f) => f.name === column)
        const liveValues = [...(live.get(column)?.values() ?? [])]
        const gone = [...(held.get(column)?.entries() ?? [])].filter(([id]) => !live.get(column)?.has(id)).map(([, v]) => v)
        const values = [...liveValues, ...gone].map((v) => probeForm(field, v))
        for (const confirm of [false, true]) {
          const result = await table.probe(column, values, { confirm })
          assert.equal(result.totals.index.notDescribed, 0)
          values.forEach((v, k) => {
            const verdicts = result.files.map((f) => f.values[k].verdict)
            if (k < liveValues.length) assert.ok(!verdicts.every((x) => x === 'absent'), `${column} = ${String(v)} is in a live row (confirm ${confirm})`)
            else if (confirm) assert.ok(!verdicts.includes('present'), `${column} = ${String(v)} is only in deleted rows`)
          })
        }
        deletedOnly += gone.length
      }
      assert.ok(deletedOnly > 0, 'the fixture has values only in deleted rows')
      await table.close()
    })
  }
})

test('a renamed column is indexed in every file by its field id (iceberg/spark_rename_column: event_date was date)', { skip: missingFixture('tables/iceberg/spark_rename_column') }, async () => {
  const location = fixturePath('tables/iceberg/spark_rename_column')
  const loaded = await loadTable(location)
  const { live } = await icebergTruth(loaded)
  const indexPath = path.join(dir, 'rename.puffin')
  const built = await buildSidecarIndex(null, indexPath, { table: location, columns: ['event_date', 'id'] })
  assert.deepEqual(built.skipped, [], 'every file has the column, under whatever name it was written')
  const table = await openTable(location, { index: indexPath })
  const field = loaded.fields.find((f) => f.name === 'event_date')
  const values = [...(live.get('event_date')?.values() ?? [])].map((v) => probeForm(field, v))
  assert.ok(values.length > 0)
  const result = await table.probe('event_date', values)
  values.forEach((v, k) => assert.ok(!result.files.every((f) => f.values[k].verdict === 'absent'), `event_date = ${String(v)} is in a live row`))
  assert.equal(result.totals.index.described, loaded.files.length)
  await table.close()
})

describe('the command line', () => {
  test('index build --table, then probe --table auto --index: the table index\'s snapshot is recorded and answers the probe', async () => {
    const root = path.join(dir, 'cli-table')
    const table = await writeIcebergTable(root, { files: 20, manifests: 5 })
    const index = path.join(dir, 'cli.puffin')
    const built = await runCli(['index', 'build', '--table', root, '-o', index, '--column', 'id', '--json'])
    assert.equal(built.code, 0, built.stderr)
    assert.equal(JSON.parse(built.stdout).table.snapshot, String(table.metadata['current-snapshot-id']))
    const target = table.files[13]
    const probed = await runCli(['probe', root, '--table', 'auto', '--index', index, '-c', 'id', '-v', String(target.ids[2]), '--json'])
    assert.equal(probed.code, 0, probed.stderr)
    const result = JSON.parse(probed.stdout)
    assert.deepEqual(result.files.filter((f) => f.values[0].verdict !== 'absent').map((f) => f.file), [target.path])
    assert.equal(result.totals.index.described, 20)
    const refused = await runCli(['index', 'build', '--table', root, root, '-o', index, '--column', 'id'])
    assert.equal(refused.code, 2)
  })

  test('probe --table --index: the cost line counts the index\'s reads when the table opened (it said 0 reads of it)', async () => {
    const root = path.join(dir, 'cli-table-cost')
    const table = await writeIcebergTable(root, { files: 20, manifests: 5 })
    const index = path.join(dir, 'cli-cost.puffin')
    assert.equal((await runCli(['index', 'build', '--table', root, '-o', index, '--column', 'id'])).code, 0)
    const probed = await runCli(['probe', root, '--table', 'auto', '--index', index, '-c', 'id', '-v', String(table.files[13].ids[2])])
    assert.equal(probed.code, 0, probed.stderr)
    // A small index is read whole, in one read, as the table opens (its record says which manifests need no reading).
    const kb = `${(statSync(index).size / 1024).toFixed(1)} KB`
    assert.match(probed.stdout, new RegExp(`^20 files \\(1 opened\\), 1 request \\(the sidecar index: 0 reads, 0 HEADs, 0 B; ` +
      `1 read, ${kb.replace('.', '\\.')} when the table opened\\), `, 'm'))
  })
})
