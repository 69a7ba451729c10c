// A table index (buildSidecarIndex(null, sink, { table }) → openTable(…, { index })) over HTTP, counted at
// the server: an Iceberg table of 400 files in 50 manifests (tests/js/helpers/iceberg-writer.js) and a
// Delta table of 200 files in 20 commits (tests/js/helpers/delta-appends-writer.js). While the table is at the
// indexed snapshot, an id probe reads no manifest, manifest list or commit and sends no HEAD, in at most
// 4 rounds counted at the server; after one more append only that snapshot's manifest (or that commit)
// is read, and files a later snapshot drops (a manifest left out of its list; a Delta remove) are gone
// from the answers. Which files hold a value comes from the writers' own ids. A renamed Iceberg column is
// indexed in files written under its old name (by field id). On fixtures with equality deletes
// and deletion vectors, live values are never absent and deleted ones never present with the index, by
// hyparquet's reads and Spark's expected results.
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { openTable } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { loadTable } from '../../js/table/load-table.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { appendIcebergSnapshot, ID_STRIDE, writeIcebergTable } from './helpers/iceberg-writer.js'
import { appendDeltaCommit, writeDeltaTable } from './helpers/delta-appends-writer.js'
import { startTestServer } from './helpers/range-server.js'
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
})
