// Iceberg version hints other than a bare number, over HTTP (where metadata/ cannot be listed) and from a
// folder: a metadata file's name with or without its suffix (`00001-<uuid>`, `v5`, a full path), and an
// empty hint (Spark 4 with Iceberg 1.10 writes one). Real fixture tables are copied and their hint
// rewritten. The server counts the requests and the rounds (mode wave:N): the names a hint may mean are
// asked for in one round; an empty hint costs one round per 16 versions (v1–v16, then v17–v48). Truth is
// the live data files of the metadata.json the hint names, read with avsc's own stream decoder.
import assert from 'node:assert/strict'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { after, before, describe, test } from 'node:test'
import avsc from 'avsc'

import { openTable } from '../../js/index.js'
import { clearTableCache } from '../../js/table/table-io.js'
import { bigLong } from './helpers/avsc-big-long.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { startTestServer } from '../../testkit/range-server.js'
import { readParquet } from './helpers/table-truth.js'
import { tempDir } from '../../testkit/temp-dir.js'

const skip = missingFixture('tables')
const ATHENA_NEW = '00001-aaf0d033-d06b-43c7-be60-67f83abd4aca'
const ATHENA_OLD = '00000-eedf51e6-8c09-463b-8850-844ee6ec1de0'
const dir = await tempDir('version-hint')
let server

/** A fixture table copied to `name` with its version hint replaced (a hint-less table gets one). */
async function tableWithHint(name, fixture, hint) {
  const table = path.join(dir, name)
  await cp(fixturePath(`tables/iceberg/${fixture}`), table, { recursive: true })
  await writeFile(path.join(table, 'metadata/version-hint.text'), hint)
  return table
}

function avroRecords(file) {
  return new Promise((resolve, reject) => {
    const records = []
    readFile(file).then((bytes) => {
      const decoder = new avsc.streams.BlockDecoder({ parseHook: (schema) => avsc.Type.forSchema(schema, { registry: { long: bigLong }, wrapUnions: false }) })
      decoder.on('data', (r) => records.push(r)).on('end', () => resolve(records)).on('error', reject)
      decoder.end(bytes)
    }, reject)
  })
}

/**
 * The current snapshot of a metadata.json and its live data files (paths relative to the table), read
 * here: ids as their digits, the manifest list and manifests with avsc's stream decoder.
 */
async function liveDataFiles(table, metadataName) {
  const text = await readFile(path.join(table, 'metadata', metadataName), 'utf8')
  const metadata = JSON.parse(text.replace(/("(?:current-snapshot-id|snapshot-id|parent-snapshot-id)"\s*:\s*)(-?\d+)/g, '$1"$2"'))
  const snapshot = metadata.snapshots?.find((s) => s['snapshot-id'] === metadata['current-snapshot-id'])
  if (!snapshot) return { snapshot: null, files: [] }
  const local = (written) => path.join(table, written.slice(metadata.location.length + 1))
  const files = []
  for (const manifest of await avroRecords(local(snapshot['manifest-list']))) {
    if ((manifest.content ?? 0) !== 0) continue
    for (const entry of await avroRecords(local(manifest.manifest_path))) {
      if (entry.status !== 2 && (entry.data_file.content ?? 0) === 0) files.push(entry.data_file.file_path.slice(metadata.location.length + 1))
    }
  }
  return { snapshot: snapshot['snapshot-id'], files: files.sort() }
}

/** Opens a table over HTTP with the server answering in waves, and what the server saw while it did. */
async function openOverHttp(name, options = {}) {
  server.resetStats()
  server.setMode('wave:25')
  try {
    const table = await openTable(server.url(`${name}/`), { format: 'iceberg', ...options })
    return { table, rounds: server.stats.rounds, requests: server.stats.requests, paths: server.stats.log.map((e) => e.path.slice(name.length + 2)) }
  } finally {
    server.setMode()
  }
}

async function assertOpensAt(table, local, metadataName) {
  const truth = await liveDataFiles(local, metadataName)
  assert.ok(table.table.metadataLocation.endsWith(`metadata/${metadataName}`), table.table.metadataLocation)
  assert.equal(table.table.snapshot, truth.snapshot)
  assert.deepEqual((await table.listFiles()).map((f) => f.path).sort(), truth.files)
  return truth
}

const metadataReads = (paths) => paths.filter((p) => p.startsWith('metadata/') && !p.endsWith('.avro') && p !== 'metadata/version-hint.text')

describe('Iceberg version hints that name a file, or nothing', { skip }, () => {
  before(async () => {
    if (skip) return
    server = await startTestServer({ root: dir })
  })
  after(async () => { await server?.close() })

  test('a hint holding a metadata file\'s name (bare, with its suffix, as a path) opens that file over HTTP in one round, and from the folder', async () => {
    for (const [name, hint] of [['athena-bare', ATHENA_NEW], ['athena-full', `${ATHENA_NEW}.metadata.json`],
      ['athena-path', `s3://hyperparam-iceberg/athena/example/metadata/${ATHENA_NEW}.metadata.json\n`]]) {
      const local = await tableWithHint(name, 'athena_example', hint)
      clearTableCache()
      const { table, rounds, paths } = await openOverHttp(name)
      const truth = await assertOpensAt(table, local, `${ATHENA_NEW}.metadata.json`)
      assert.equal(truth.files.length, 1)
      // The hint, the names it may mean (one wave), the manifest list; the other metadata file is never read.
      assert.equal(rounds, 3, `${name}: ${paths}`)
      assert.equal(paths[0], 'metadata/version-hint.text')
      assert.ok(metadataReads(paths).includes(`metadata/${ATHENA_NEW}.metadata.json`))
      assert.ok(metadataReads(paths).length <= 3 && !paths.some((p) => p.includes(ATHENA_OLD)), `${name}: ${paths}`)
      // Its answers are the data's: each id the live file holds (read by hyparquet) is not ruled out.
      const ids = (await readParquet(path.join(local, truth.files[0]))).rows.map((r) => r.id)
      const result = await table.probe('id', ids)
      assert.ok(result.files[0].values.every((v) => v.verdict !== 'absent'), JSON.stringify(result.files[0].values))
      // A second open: the metadata.json is kept, so the hint is the only request before the manifest list (kept too).
      const warm = await openOverHttp(name)
      assert.deepEqual(warm.paths, ['metadata/version-hint.text'])
      await assertOpensAt(await openTable(local), local, `${ATHENA_NEW}.metadata.json`)
    }
  })

  test('over HTTP the hint is followed, not guessed past: an older file\'s name opens that file; `v3` and `5` open v3 and v5', async () => {
    const old = await tableWithHint('athena-old', 'athena_example', ATHENA_OLD)
    const { table } = await openOverHttp('athena-old')
    assert.deepEqual(await assertOpensAt(table, old, `${ATHENA_OLD}.metadata.json`), { snapshot: null, files: [] })
    for (const [name, hint, file] of [['bunnies-v3', 'v3', 'v3.metadata.json'], ['bunnies-5', '5', 'v5.metadata.json']]) {
      const local = await tableWithHint(name, 'spark_bunnies', hint)
      clearTableCache()
      const opened = await openOverHttp(name)
      await assertOpensAt(opened.table, local, file)
      assert.equal(opened.rounds, 3, `${name}: ${opened.paths}`)
    }
  })

  test('an empty hint: over HTTP v1–v16 are asked for in one round and the newest opens; from the folder the newest opens too', async () => {
    for (const [name, fixture, newest] of [['bunnies-empty', 'spark_bunnies', 'v5.metadata.json'], ['eqdeletes-empty', 'mytable_partitioned_eqdeletes', 'v6.metadata.json']]) {
      const local = await tableWithHint(name, fixture, '')
      clearTableCache()
      const { table, rounds, paths } = await openOverHttp(name)
      await assertOpensAt(table, local, newest)
      assert.equal(rounds, 3, `${name}: ${paths}`)
      assert.deepEqual(metadataReads(paths).sort(), Array.from({ length: 16 }, (_, k) => `metadata/v${k + 1}.metadata.json`).sort())
      await assertOpensAt(await openTable(local), local, newest)
    }
    // Found by format detection alone too (an empty hint still says Iceberg).
    const detected = await openTable(server.url('bunnies-empty/'))
    assert.equal(detected.table.format, 'iceberg')
    assert.ok(detected.table.metadataLocation.endsWith('metadata/v5.metadata.json'))
  })

  test('an empty hint past 16 versions takes a second round; past 128, or with no v1–v16, it fails and says what to pass', async () => {
    // v1–v19 are the fixture's v1 (21 rows), v20 its v5: only the newest opens at the current snapshot.
    const many = await tableWithHint('bunnies-20', 'spark_bunnies', '')
    const metadataDir = path.join(many, 'metadata')
    const [first, last] = await Promise.all([readFile(path.join(metadataDir, 'v1.metadata.json')), readFile(path.join(metadataDir, 'v5.metadata.json'))])
    for (let v = 2; v <= 19; v++) await writeFile(path.join(metadataDir, `v${v}.metadata.json`), first)
    await writeFile(path.join(metadataDir, 'v20.metadata.json'), last)
    clearTableCache()
    const { table, rounds, paths } = await openOverHttp('bunnies-20')
    await assertOpensAt(table, many, 'v20.metadata.json')
    assert.equal(rounds, 4, paths.join(', ')) // hint, v1–v16, v17–v48, manifest list
    assert.equal(metadataReads(paths).length, 48)

    const endless = await tableWithHint('bunnies-128', 'spark_bunnies', '')
    for (let v = 6; v <= 128; v++) await writeFile(path.join(endless, 'metadata', `v${v}.metadata.json`), first)
    await assert.rejects(openOverHttp('bunnies-128'), (e) => e.code === 'MALFORMED_TABLE' && /128/.test(e.message) && /options\.metadata/.test(e.message))

    await tableWithHint('athena-empty', 'athena_example', '\n')
    server.resetStats()
    await assert.rejects(openTable(server.url('athena-empty/'), { format: 'iceberg' }), (e) => e.code === 'MALFORMED_TABLE' && /empty/.test(e.message) && /options\.metadata/.test(e.message))
    assert.equal(server.stats.requests, 17) // the hint, v1–v16
    // The caller's metadata.json still opens it.
    const named = await openTable(server.url(`athena-empty/metadata/${ATHENA_NEW}.metadata.json`))
    assert.equal((await named.listFiles()).length, 1)
  })

  test('two metadata files of the newest version in a folder: the hint decides; without one that names either, refused', async () => {
    // A second 00001 file holding the older snapshot: what a commit the catalog refused leaves behind.
    const orphan = '00001-ffffffff-0000-0000-0000-000000000000'
    const tied = async (name, hint) => {
      const local = await tableWithHint(name, 'athena_example', hint)
      await writeFile(path.join(local, `metadata/${orphan}.metadata.json`), await readFile(path.join(local, `metadata/${ATHENA_OLD}.metadata.json`)))
      return local
    }
    const toNew = await tied('athena-tie-new', ATHENA_NEW)
    await assertOpensAt(await openTable(toNew), toNew, `${ATHENA_NEW}.metadata.json`)
    const toOrphan = await tied('athena-tie-orphan', `${orphan}.metadata.json`)
    assert.deepEqual(await assertOpensAt(await openTable(toOrphan), toOrphan, `${orphan}.metadata.json`), { snapshot: null, files: [] })
    for (const [name, hint] of [['athena-tie-none', null], ['athena-tie-other', ATHENA_OLD], ['athena-tie-number', '1']]) {
      const local = await tied(name, '')
      if (hint === null) await rm(path.join(local, 'metadata/version-hint.text'))
      else await writeFile(path.join(local, 'metadata/version-hint.text'), hint)
      await assert.rejects(openTable(local), (e) => e.code === 'MALFORMED_TABLE' && e.message.includes(orphan) &&
        e.message.includes(ATHENA_NEW) && /options\.metadata/.test(e.message), name)
    }
    // Named by the caller, either opens.
    await assertOpensAt(await openTable(toNew, { metadata: `metadata/${orphan}.metadata.json` }), toNew, `${orphan}.metadata.json`)
  })

  test('a hint naming no file that exists fails with the names it tried; one naming gzipped metadata says it is not read', async () => {
    await tableWithHint('athena-gone', 'athena_example', '00002-00000000-0000-0000-0000-000000000000')
    await assert.rejects(openTable(server.url('athena-gone/'), { format: 'iceberg' }),
      (e) => e.code === 'MALFORMED_TABLE' && e.message.includes('metadata/00002-00000000-0000-0000-0000-000000000000.metadata.json') && /options\.metadata/.test(e.message))
    const gzipped = await tableWithHint('athena-gz', 'athena_example', '00002-gz.gz.metadata.json')
    await writeFile(path.join(gzipped, 'metadata/00002-gz.gz.metadata.json'), gzipSync(await readFile(path.join(gzipped, `metadata/${ATHENA_NEW}.metadata.json`))))
    await assert.rejects(openTable(server.url('athena-gz/'), { format: 'iceberg' }), (e) => e.code === 'MALFORMED_TABLE' && /gzip/.test(e.message))
  })
})
