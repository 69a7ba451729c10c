// Sidecar index builds in shards: 16 segments (`buildSidecarIndex(…, { shard })`, `index build --shard`)
// merged (`mergeSidecarSegments`, `index merge`) are the one-shot index byte for byte, and answer every
// value the files hold (truth: what hyparquet-writer was given) as present where it is; `--update` of
// segments reads only the files that changed (counted at an HTTP server) and merges into the one-shot
// index of the changed files. A build over HTTP reads many files at once (requests in flight at the server).
import assert from 'node:assert/strict'
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { init } from '../../js/index.js'
import { buildSidecarIndex, mergeSidecarSegments, openSidecarIndex } from '../../js/index-builder/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runCli } from './helpers/run-cli.js'
import { datasetFileName, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'

const FILES = 200
const GROUPS = 2
const GROUP_ROWS = 16
const SHARDS = 16
const COLUMNS = ['id', 'name']
const dir = await tempDir('sidecar-shards')

/** Files with a string column too, under more/: values the test knows, none of them in the id files. */
const NAMED = 3
const namedRows = (f) => Array.from({ length: 20 }, (_, i) => ({ id: 7_000_000_000n + BigInt(f * 100 + i), name: `name-${f}-${i}` }))
async function writeNamed(f, rows = namedRows(f)) {
  const buffer = parquetWriteBuffer({ columnData: [{ name: 'id', data: rows.map((r) => r.id), type: 'INT64' }, { name: 'name', data: rows.map((r) => r.name), type: 'STRING' }], rowGroupSize: 10 })
  await writeFile(path.join(dir, 'more', `named-${f}.parquet`), new Uint8Array(buffer))
  await settleMtimes(path.join(dir, 'more', `named-${f}.parquet`))
}

let dataset
before(async () => {
  await init()
  dataset = await writeSidecarDataset(dir, { files: FILES, groups: GROUPS, groupRows: GROUP_ROWS })
  await mkdir(path.join(dir, 'more'))
  for (let f = 0; f < NAMED; f++) await writeNamed(f)
})

const indexPath = (name) => path.join(dir, name)
const shard = (index) => ({ index, count: SHARDS })

async function buildShards(prefix, options = {}) {
  const results = []
  for (let i = 0; i < SHARDS; i++) results.push(await buildSidecarIndex([dir], indexPath(`${prefix}-${i}.puffin`), { columns: COLUMNS, shard: shard(i), ...options, ...(options.update ? { update: indexPath(`${prefix}-${i}.puffin`) } : {}) }))
  return results
}

/**
 * Probes `index` for values the files hold (every 7th row of the id files, every name) and values stored
 * nowhere; every present value must be maybe in its file and row group. Returns every verdict, for comparing.
 */
async function probeAgainstTruth(source, { files = FILES, skip = new Set(), named: rowsOf = namedRows, namedFiles = NAMED } = {}) {
  const index = await openSidecarIndex(source)
  try {
    const rows = files * GROUPS * GROUP_ROWS
    const present = []
    for (let n = 0; n < rows; n += 7) if (!skip.has(Math.floor(n / (GROUPS * GROUP_ROWS)))) present.push(n)
    const absent = Array.from({ length: 40 }, (_, k) => BigInt(k) * 1_000_003n * 3n + 1n)
    const probed = await index.probe('id', [...present.map(storedValue), ...absent], { validate: false })
    const byPath = new Map(probed.files.map((f) => [path.basename(f.path), f]))
    for (const [k, n] of present.entries()) {
      const { file, rowGroup } = dataset.where(n)
      const answer = byPath.get(datasetFileName(file))
      assert.ok(answer, `${datasetFileName(file)} is in the index`)
      assert.equal(answer.rowGroups[rowGroup].results[k].verdict, 'maybe', `row ${n} (${storedValue(n)}) in ${datasetFileName(file)}, row group ${rowGroup}`)
    }
    const ruledOut = probed.files.flatMap((f) => f.rowGroups.flatMap((g) => g.results.slice(present.length))).filter((r) => r.verdict === 'absent').length
    assert.ok(ruledOut > 0, 'the filters rule absent values out')
    const names = Array.from({ length: namedFiles }, (_, f) => rowsOf(f).map((r) => r.name)).flat()
    const named = await index.probe('name', [...names, 'nobody'], { validate: false })
    for (const f of named.files.filter((x) => x.path.includes('named-'))) {
      const file = Number(/named-(\d+)/.exec(f.path)[1])
      for (const [g, group] of f.rowGroups.entries()) {
        rowsOf(file).forEach((row, i) => {
          if (Math.floor(i / 10) === g) assert.equal(group.results[names.indexOf(row.name)].verdict, 'maybe', `${row.name} in ${f.path}, row group ${g}`)
        })
      }
    }
    return { id: probed.files.map((f) => [f.path, f.rowGroups.map((g) => g.results.map((r) => r.verdict))]), name: named.files.map((f) => [f.path, f.rowGroups.map((g) => g.results.map((r) => r.verdict))]) }
  } finally {
    await index.close()
  }
}

describe(`${FILES + NAMED} files in ${SHARDS} shards`, () => {
  test('the merged segments are the one-shot index byte for byte, and find every stored value', async () => {
    const whole = await buildSidecarIndex([dir], indexPath('whole.puffin'), { columns: COLUMNS })
    assert.equal(whole.files, FILES + NAMED)
    const shards = await buildShards('seg')
    assert.equal(shards.reduce((n, s) => n + s.files, 0), FILES + NAMED, 'every file in exactly one shard')
    assert.ok(shards.every((s) => s.files > 0 && s.files < FILES / 4), `the files spread over the shards: ${shards.map((s) => s.files)}`)
    const merged = await mergeSidecarSegments(shards.map((_, i) => indexPath(`seg-${i}.puffin`)).reverse(), indexPath('merged.puffin'))
    assert.deepEqual([merged.segments, merged.files, merged.chunks], [SHARDS, whole.files, whole.chunks])
    assert.ok((await readFile(indexPath('merged.puffin'))).equals(await readFile(indexPath('whole.puffin'))), 'merged = one-shot, byte for byte')
    const truth = await probeAgainstTruth(indexPath('merged.puffin'))
    // A segment is an index of its own: its files answer as in the whole index.
    const one = await probeAgainstTruth(indexPath('seg-0.puffin')).catch((error) => error)
    assert.ok(one instanceof assert.AssertionError, 'a segment lacks the other shards\' files')
    assert.ok(truth.id.length === FILES + NAMED)
  })

  test('format 1 segments merge into the format 1 one-shot index', async () => {
    await buildSidecarIndex([dir], indexPath('whole1.puffin'), { columns: COLUMNS, format: 1 })
    const segments = []
    for (let i = 0; i < 4; i++) {
      segments.push(indexPath(`f1-${i}.puffin`))
      await buildSidecarIndex([dir], segments[i], { columns: COLUMNS, format: 1, shard: { index: i, count: 4 } })
    }
    await mergeSidecarSegments(segments, indexPath('merged1.puffin'))
    assert.ok((await readFile(indexPath('merged1.puffin'))).equals(await readFile(indexPath('whole1.puffin'))), 'merged = one-shot, byte for byte')
  })

  test('a shard outside 0…n-1 is refused; merging refuses a missing or doubled shard, and segments of other settings', async () => {
    const segments = Array.from({ length: SHARDS }, (_, i) => indexPath(`seg-${i}.puffin`))
    await assert.rejects(mergeSidecarSegments(segments.slice(1), null), { code: 'INVALID_ARGUMENT', message: /shards 0 of 16 are missing/ })
    await assert.rejects(mergeSidecarSegments([...segments, segments[3]], null), { code: 'INVALID_ARGUMENT', message: /twice/ })
    await assert.rejects(buildSidecarIndex([], null, { columns: COLUMNS, shard: { index: 4, count: 4 } }), { code: 'INVALID_ARGUMENT', message: /shard must be/ })
    await buildSidecarIndex([dir], indexPath('other-fpp.puffin'), { columns: COLUMNS, fpp: 0.05, shard: shard(0) })
    await assert.rejects(mergeSidecarSegments([indexPath('other-fpp.puffin'), ...segments.slice(1)], null), { code: 'INVALID_ARGUMENT', message: /fpp/ })
  })

  test('the CLI: index build --shard i/n, then index merge', async () => {
    const segments = []
    for (let i = 0; i < 4; i++) {
      segments.push(indexPath(`cli-${i}.puffin`))
      const run = await runCli(['index', 'build', dir, '-o', segments[i], '--column', 'id', '--column', 'name', '--shard', `${i}/4`, '--json'])
      assert.equal(run.code, 0, run.stderr)
      assert.deepEqual(JSON.parse(run.stdout).shard, { index: i, count: 4 })
    }
    const run = await runCli(['index', 'merge', ...segments, '-o', indexPath('cli-merged.puffin')])
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, /4 segments merged, 203 files/)
    assert.ok((await readFile(indexPath('cli-merged.puffin'))).equals(await readFile(indexPath('whole.puffin'))), 'merged = one-shot, byte for byte')
  })

  test('--update of the segments keeps unchanged files, reads changed and new ones, drops gone ones', async () => {
    // One file rewritten with other rows, one removed, one added.
    await writeNamed(1, namedRows(1).map((r) => ({ ...r, name: `${r.name}-v2` })))
    await rm(path.join(dir, datasetFileName(7)))
    await writeNamed(3)
    const updated = await buildShards('seg', { update: true })
    const sum = (key) => updated.reduce((n, s) => n + s[key], 0)
    assert.deepEqual({ rebuilt: sum('rebuilt'), kept: sum('kept'), dropped: sum('dropped') }, { rebuilt: 2, kept: FILES + NAMED - 2, dropped: 1 })
    await mergeSidecarSegments(updated.map((_, i) => indexPath(`seg-${i}.puffin`)), indexPath('merged2.puffin'))
    await buildSidecarIndex([dir], indexPath('whole2.puffin'), { columns: COLUMNS })
    assert.ok((await readFile(indexPath('merged2.puffin'))).equals(await readFile(indexPath('whole2.puffin'))), 'merged updates = one-shot of the files as they are now')
    const rewritten = (f) => (f === 1 ? namedRows(1).map((r) => ({ ...r, name: `${r.name}-v2` })) : namedRows(f))
    const verdicts = await probeAgainstTruth(indexPath('merged2.puffin'), { skip: new Set([7]), named: rewritten, namedFiles: NAMED + 1 })
    assert.ok(!verdicts.id.some(([p]) => path.basename(p) === datasetFileName(7)), 'the removed file is gone from the index')
    const index = await openSidecarIndex(indexPath('merged2.puffin'))
    try {
      const renamed = await index.probe('name', ['name-1-0-v2', 'name-3-0'], { validate: false })
      const file = (p) => renamed.files.find((f) => f.path.endsWith(p))
      assert.equal(file('more/named-1.parquet').rowGroups[0].results[0].verdict, 'maybe', 'the rewritten file\'s new value')
      assert.equal(file('more/named-3.parquet').rowGroups[0].results[1].verdict, 'maybe', 'the new file\'s value')
    } finally {
      await index.close()
    }
  })
})

describe('over HTTP', () => {
  test('files are read many at once, and an update reads only the changed file (counted at the server)', async () => {
    const server = await startTestServer({ root: dir })
    try {
      server.setMode('etag', 'slow:20')
      const urls = Array.from({ length: 100 }, (_, f) => f).filter((f) => f !== 7).map((f) => server.url(datasetFileName(f)))
      const out = indexPath('http.puffin')
      const built = await buildSidecarIndex(urls, out, { columns: ['id'] })
      assert.equal(built.files, urls.length)
      // One file at a time would have one request in flight: its tail read (whose ETag is recorded: no HEAD).
      assert.ok(server.stats.maxInFlight >= 16, `requests in flight at once: ${server.stats.maxInFlight}`)
      assert.deepEqual([server.stats.requests, server.stats.log.filter((e) => e.method === 'HEAD').length], [urls.length, 0], 'one request per file')
      assert.deepEqual(built.validators, { etag: urls.length })
      await probeAgainstTruth(out, { files: 100, skip: new Set([7]) })

      // p00003 rewritten with the rows of p00004: same size, another ETag.
      await writeFile(path.join(dir, datasetFileName(3)), await readFile(path.join(dir, datasetFileName(4))))
      server.resetStats()
      const update = await buildSidecarIndex(urls, out, { columns: ['id'], update: out })
      // The ETags recorded from the tail reads are the ones the HEADs find: every unchanged file is kept.
      assert.deepEqual([update.rebuilt, update.kept], [1, urls.length - 1])
      const gets = server.stats.log.filter((e) => e.method === 'GET').map((e) => e.path)
      assert.deepEqual([...new Set(gets)], [`/${datasetFileName(3)}`], 'only the changed file is read')
      assert.equal(server.stats.log.filter((e) => e.method === 'HEAD').length, urls.length, 'every file is checked once')

      // A file that cannot be read fails the build (its error, not a hang), whatever the files around it do.
      await assert.rejects(buildSidecarIndex([...urls.slice(0, 50), server.url('gone.parquet'), ...urls.slice(50)], null, { columns: ['id'] }),
        (error) => error.name === 'ParquetBloomError' && /gone\.parquet/.test(error.message))
    } finally {
      await server.close()
    }
  })
})
