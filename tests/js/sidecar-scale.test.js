// A sidecar index at issue #23's scale: 10,000 files × 10 row groups, written at test time by
// hyparquet-writer (testkit/sidecar-dataset.js: an INT64 column whose values the test computes
// itself, spread so every chunk's min/max spans nearly the whole range; 3k+1 is stored nowhere). Its
// directory is megabytes, far beyond the 256 KiB tail read, so opening leaves it to the first probe:
// over HTTP, counted at the server, opening and a one-value probe take 2 rounds and read at most
// 10,000 × 10 × 32 bytes of blocks beside the directory; HEADs that check files are counted as the
// index's requests. Every stored value of every file is found (truth: the generator); values known to
// be absent are ruled out at the target rate.
import assert from 'node:assert/strict'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, init } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { datasetFileName as fileName, directoryLength, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'

const FILES = 10_000
const GROUPS = 10
const GROUP_ROWS = 32 // bitsets of 64 bytes: two blocks, so values fall into different block rows
const BLOCK_ROW_BYTES = FILES * GROUPS * 32
const QUIET_MS = 100
const dir = await tempDir('sidecar-scale')

let server
let indexPath
let directoryBytes
let dataset

before(async () => {
  const started = performance.now()
  await init()
  dataset = await writeSidecarDataset(dir, { files: FILES, groups: GROUPS, groupRows: GROUP_ROWS })
  indexPath = path.join(dir, '_index.puffin')
  const built = await buildSidecarIndex([dir], indexPath, { format: 1, columns: ['id'] })
  assert.equal(built.files, FILES)
  assert.equal(built.chunks, FILES * GROUPS)
  directoryBytes = await directoryLength(indexPath)
  server = await startTestServer({ root: dir })
  console.log(`# ${FILES} files written and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}, { timeout: 300_000 })

after(() => server?.close())

/** What `fn` costs at the server, every response held until the client has sent all it can without waiting (rounds). */
async function counted(fn) {
  server.resetStats()
  server.setMode(`wave:${QUIET_MS}`)
  try {
    const result = await fn()
    return { result, server: { ...server.stats } }
  } finally {
    server.setMode()
  }
}

describe(`a sidecar index over ${FILES} files × ${GROUPS} row groups`, () => {
  test('open + a one-value probe over HTTP: 2 rounds, blocks ≤ files × row groups × 32 B beside the directory', async (t) => {
    const n = 4321 * GROUPS * GROUP_ROWS + 3 * GROUP_ROWS + 17 // file 4321, row group 3
    const value = storedValue(n)
    let index
    const cold = await counted(async () => {
      index = await openSidecarIndex(server.url('_index.puffin'), { base: dir })
      assert.throws(() => index.directory, { code: ErrorCode.INVALID_ARGUMENT }, 'a directory beyond the tail read is not read at open')
      return index.probe('id', [value], { validate: false })
    })
    try {
      const tailBytes = 256 * 1024
      t.diagnostic(`directory ${directoryBytes} bytes; open + probe: ${cold.server.rounds} rounds, ${cold.server.requests} requests, ${cold.server.bytesWritten} bytes at the server`)
      assert.ok(directoryBytes > tailBytes, `the directory (${directoryBytes} bytes) lies beyond the tail read`)
      assert.equal(cold.server.rounds, 2)
      assert.equal(index.stats.rounds, 2)
      assert.equal(index.stats.requests, cold.server.requests)
      assert.equal(index.stats.bytesFetched, cold.server.bytesWritten)
      const blockBytes = cold.server.bytesWritten - tailBytes - directoryBytes
      assert.ok(blockBytes <= BLOCK_ROW_BYTES, `${blockBytes} bytes of blocks > ${BLOCK_ROW_BYTES}`)
      const { files } = cold.result
      assert.equal(files.length, FILES)
      assert.equal(files[4321].rowGroups[3].results[0].verdict, 'maybe')
      // A later probe: min/max first, then only the blocks left open — one more round.
      const again = await counted(() => index.probe('id', [storedValue(n + 1), storedValue(n + 2)], { validate: false }))
      assert.equal(again.server.rounds, 1)
      assert.ok(again.server.bytesWritten <= 2 * BLOCK_ROW_BYTES, `${again.server.bytesWritten} bytes`)
    } finally {
      await index?.close()
    }
  })

  test('a listing (sizes) costs nothing more; HEADs of files are counted as the index\'s requests', async () => {
    const listing = await Promise.all([0, 1, 2, 9999].map(async (f) => ({ path: fileName(f), size: (await stat(path.join(dir, fileName(f)))).size })))
    let index
    const cold = await counted(async () => {
      index = await openSidecarIndex(server.url('_index.puffin'))
      return index.probe('id', [storedValue(17)], { files: listing })
    })
    try {
      assert.equal(cold.server.rounds, 2)
      assert.equal(cold.result.files[0].rowGroups[0].results[0].verdict, 'maybe')
      assert.ok(cold.result.files.every((f) => f.current))
      // Without sizes the index HEADs each file (its relative paths resolve against the index's URL), beside its block reads.
      const headed = await counted(() => index.probe('id', [storedValue(17)], { files: listing.map((f) => f.path) }))
      const heads = headed.server.log.filter((e) => e.method === 'HEAD').length
      assert.equal(heads, listing.length)
      assert.equal(headed.server.rounds, 1)
      assert.equal(index.stats.requests, cold.server.requests + headed.server.requests)
      assert.equal(index.stats.heads, heads)
      assert.equal(index.stats.rounds, 3)
      // Built from local paths, the index records mtimes; this server sends no validator, so a HEAD cannot show a
      // file unchanged — its size alone would let a rewrite of the same size pass: not described, never answered.
      for (const f of headed.result.files) {
        assert.deepEqual([f.current, f.reason, f.validators], [false, 'validator-kind-differs', { recorded: 'mtime', found: 'none' }])
        assert.ok(f.rowGroups.every((g) => g.results.every((r) => r.reason === 'stale-index')))
      }
    } finally {
      await index?.close()
    }
  })

  test('many values at once share the block rows: a region of two-block bitsets has two, whatever the values', async () => {
    const values = Array.from({ length: 20 }, (_, i) => storedValue(i * 160_001))
    let index
    const cold = await counted(async () => {
      index = await openSidecarIndex(server.url('_index.puffin'))
      return index.probe('id', values, { validate: false })
    })
    try {
      assert.equal(cold.server.rounds, 2)
      assert.ok(cold.server.bytesWritten <= 256 * 1024 + directoryBytes + 2 * BLOCK_ROW_BYTES, `${cold.server.bytesWritten} bytes`)
      values.forEach((v, i) => {
        const { file, rowGroup } = dataset.where(i * 160_001)
        assert.notEqual(cold.result.files[file].rowGroups[rowGroup].results[i].verdict, 'absent', `${v} in file ${file}, row group ${rowGroup}`)
      })
    } finally {
      await index?.close()
    }
  })

  test('every stored value of every file is found (0 false negatives); absent values are ruled out at the target rate', async (t) => {
    const index = await openSidecarIndex(indexPath)
    try {
      let missed = 0
      for (let f = 0; f < FILES; f++) {
        const values = dataset.valuesOf(f)
        const [file] = (await index.probe('id', values, { files: [fileName(f)], validate: false })).files
        for (let i = 0; i < values.length; i++) if (file.rowGroups[Math.floor(i / GROUP_ROWS)].results[i].verdict === 'absent') missed++
      }
      assert.equal(missed, 0, `${missed} stored values answered absent`)
      // Values ≡ 1 (mod 3) are stored nowhere.
      const absent = Array.from({ length: 8 }, (_, i) => BigInt(i) * 1_610_612_731n + 1n)
      let bloomAbsent = 0
      let bloomMaybe = 0
      for (const f of (await index.probe('id', absent, { validate: false })).files) {
        for (const g of f.rowGroups) {
          for (const r of g.results) {
            assert.notEqual(r.verdict, 'unknown')
            if (r.source === 'bloom-filter') r.verdict === 'absent' ? bloomAbsent++ : bloomMaybe++
          }
        }
      }
      const rate = bloomMaybe / (bloomAbsent + bloomMaybe)
      t.diagnostic(`false-positive rate ${rate} over ${bloomAbsent + bloomMaybe} absent (value, row group) pairs inside the bounds (fpp 0.01)`)
      assert.ok(bloomAbsent + bloomMaybe > 0.5 * absent.length * FILES * GROUPS, 'most pairs lie inside the chunk bounds')
      assert.ok(rate <= 0.01, `false-positive rate ${rate}`)
    } finally {
      await index.close()
    }
  })
})
