// openDataset(…, { index }): one sidecar index (js/sidecar/sidecar-index.js) answers every file of a
// dataset probe in one call. DuckDB writes the files and says which values are where; over the HTTP range
// server: no stored value is missed, files the sidecar rules out are never read (no GET), a rewritten file
// is probed as usual, and the sidecar's rounds do not grow with the number of files.
import assert from 'node:assert/strict'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, after, describe, test } from 'node:test'

import { init, openDataset } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runCli } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'

const FILES = 12
const ROWS = 3000
const dir = await tempDir('dataset-index')
const fileName = (f) => `part-${String(f).padStart(2, '0')}.parquet`
/** File f: ids 3·(f·ROWS + i) (so 3k+1 is stored nowhere), in row groups of 1000. */
const copySql = (f, target) => `COPY (SELECT ((i + ${f * ROWS}) * 3)::BIGINT AS id FROM range(${ROWS}) t(i)) TO '${target}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`
let server
let urls
let indexPath

before(async () => {
  await init()
  await withDuckDB(async (conn) => { for (let f = 0; f < FILES; f++) await conn.run(copySql(f, path.join(dir, fileName(f)))) })
  server = await startTestServer({ root: dir })
  urls = Array.from({ length: FILES }, (_, f) => server.url(fileName(f), { mode: 'etag' }))
  indexPath = path.join(dir, '_index.puffin')
  await buildSidecarIndex(urls, indexPath, { columns: ['id'] })
})

after(() => server?.close())

/** GET requests per file name since the last reset (the sidecar's HEADs, which validate, are not reads of the data). */
const filesRead = () => new Set(server.stats.log.filter((e) => e.method === 'GET' && e.path.endsWith('.parquet')).map((e) => path.basename(e.path)))

describe('openDataset(…, { index })', () => {
  test('no stored value is missed; a file the sidecar rules out for every value is not read', async () => {
    // DuckDB's own answer: which file holds each id.
    const stored = await withDuckDB(async (conn) => (await conn.runAndReadAll(`SELECT id, filename FROM read_parquet('${dir}/part-*.parquet', filename = true) WHERE id IN (30, 9003, 35997)`)).getRows())
    assert.equal(stored.length, 3)
    // The index behind the same server (it records the files' URLs), opened at the first probe.
    const dataset = await openDataset(urls, { index: server.url('_index.puffin') })
    try {
      server.resetStats()
      const values = [30n, 9003n, 35997n, 31n]
      const result = await dataset.probe('id', values)
      // Every request the server saw is counted in the dataset's stats: the sidecar's HEADs of the files too.
      assert.equal(server.stats.log.filter((e) => e.method === 'HEAD').length, FILES)
      assert.equal(result.stats.requests, server.stats.requests)
      assert.equal(result.stats.bytes, server.stats.bytesWritten)
      for (const [id, file] of stored) {
        const entry = result.files.find((f) => f.path.includes(path.basename(String(file))))
        const answer = entry.values.find((v) => v.value === id)
        assert.notEqual(answer.verdict, 'absent', `${id} is in ${file}`)
      }
      const holders = new Set(stored.map(([, file]) => path.basename(String(file))))
      const read = filesRead()
      for (const name of read) assert.ok(holders.has(name), `${name} holds none of the values, yet was read`)
      assert.ok(read.size <= holders.size && read.size >= 1, [...read].join(', '))
      const ruledOut = result.files.filter((f) => !holders.has(path.basename(new URL(f.path, 'http://x/').pathname)))
      for (const f of ruledOut) {
        assert.deepEqual(f.rowGroups, [])
        for (const v of f.values) assert.equal(v.verdict, 'absent', `${f.path}: ${v.value}: ${v.reason}: ${v.detail}`)
      }
    } finally {
      await dataset.close()
    }
  })

  test('every sampled stored value is found in the file DuckDB reads it from (0 false negatives)', async () => {
    const stored = await withDuckDB(async (conn) => (await conn.runAndReadAll(
      `SELECT id, filename FROM read_parquet('${dir}/part-*.parquet', filename = true) USING SAMPLE reservoir(60 ROWS) REPEATABLE (7)`)).getRows())
    const values = stored.map(([id]) => id)
    const dataset = await openDataset(urls, { index: indexPath })
    try {
      const { files } = await dataset.probe('id', values)
      stored.forEach(([id, file], k) => {
        const entry = files.find((f) => f.path.includes(path.basename(String(file))))
        assert.notEqual(entry.values[k].verdict, 'absent', `${id} is in ${file}: ${entry.values[k].reason}`)
      })
    } finally {
      await dataset.close()
    }
  })

  test('the sidecar\'s rounds do not grow with the number of files', async () => {
    // A short tail read, so the bitsets are not already in it (this index is small).
    const index = await openSidecarIndex(server.url('_index.puffin'), { initialFetchSize: 4096 })
    try {
      const roundsOf = async (files) => {
        const before = index.stats.rounds
        const dataset = await openDataset(files, { index })
        // One absent id inside every file's bounds: every file's filter is read.
        const { stats } = await dataset.probe('id', urls.map((_, f) => BigInt((f * ROWS + 7) * 3 + 1)))
        return { index: index.stats.rounds - before, dataset: stats.rounds }
      }
      const few = await roundsOf(urls.slice(0, 2))
      const all = await roundsOf(urls)
      assert.equal(few.index, 1, 'one wave of block reads')
      assert.equal(all.index, few.index)
      // The dataset's own count includes the index's round, and stays as flat: a file the index leaves
      // open (a filter's false positive) costs its footer wave and its index reads, however many files.
      assert.ok(few.dataset >= few.index, JSON.stringify(few))
      assert.ok(all.dataset <= few.index + 3, JSON.stringify({ few, all }))
    } finally {
      await index.close()
    }
  })

  test('a rewritten file is probed as usual: the sidecar says stale-index for it, never absent', async () => {
    const name = fileName(3)
    const original = await readFile(path.join(dir, name))
    try {
      // File 3 rewritten with file 0's rows: 30 is now stored there too, which the index does not know.
      await writeFile(path.join(dir, name), await readFile(path.join(dir, fileName(0))))
      const dataset = await openDataset(urls, { index: indexPath })
      try {
        server.resetStats()
        const result = await dataset.probe('id', [30n])
        const rewritten = result.files.find((f) => f.path.includes(name))
        assert.notEqual(rewritten.values[0].verdict, 'absent')
        assert.ok(rewritten.rowGroups.length > 0, 'the rewritten file was opened')
        assert.ok(filesRead().has(name))
      } finally {
        await dataset.close()
      }
    } finally {
      await writeFile(path.join(dir, name), original)
    }
  })
})

describe('parquet-bloom probe --index', () => {
  const run = (args) => runCli(args)
  let local
  let localIndex

  before(async () => {
    local = path.join(dir, 'local')
    await mkdir(local)
    for (let f = 0; f < 4; f++) await writeFile(path.join(local, fileName(f)), await readFile(path.join(dir, fileName(f))))
    localIndex = path.join(dir, 'local.puffin')
    await settleMtimes(local)
    await buildSidecarIndex([local], localIndex, { columns: ['id'] })
  })

  test('a directory goes through the dataset with the index: the files it rules out are answered from it', async () => {
    // 9003 is stored in file 1 only (ids 3·(1000·f + i)); the index rules the other files out by their bounds.
    const { code, stdout, stderr } = await run(['probe', local, '-c', 'id', '-v', '9003', '--index', localIndex, '--json'])
    assert.equal(code, 0, stderr)
    const out = JSON.parse(stdout)
    const verdicts = Object.fromEntries(out.files.map((f) => [f.file, f.values[0].verdict]))
    assert.notEqual(verdicts[fileName(1)], 'absent')
    for (const f of out.files.filter((f) => f.file !== fileName(1))) {
      assert.equal(f.values[0].verdict, 'absent')
      assert.deepEqual(f.rowGroups, [], `${f.file} was not opened`)
    }
  })

  test('files named on the command line are probed as one dataset with the index', async () => {
    const files = [0, 1, 2, 3].map((f) => path.join(local, fileName(f)))
    const { code, stdout, stderr } = await run(['probe', ...files, '-c', 'id', '-v', '9003', '--index', localIndex, '--json'])
    assert.equal(code, 0, stderr)
    const out = JSON.parse(stdout)
    const byFile = new Map(out.files.map((f) => [path.basename(f.file), f]))
    assert.ok(byFile.get(fileName(1)).rowGroups.some((g) => g.results[0].verdict !== 'absent'))
    for (const f of [0, 2, 3]) assert.deepEqual(byFile.get(fileName(f)).rowGroups, [], `${fileName(f)} was not opened`)
  })
})
