// A dataset probe's memory stays bounded whatever the number of files. probe() holds every file's answers (one per
// value for each file and each of its row groups) until the last: past maxResults it fails TOO_LARGE — before any read
// when values × files alone are over, else once a file's footer takes it over, before that file's answers are made (one
// file of 100 row groups and 100,001 values is refused in a heap of 128 MiB) — where 10,000 values over 2,000 files of
// 10 row groups had V8 abort the process (heap out of memory). probeEach() streams: a file's answer waits for the loop to take the
// ones before it, so a loop slower than the files holds the files in flight, not the dataset (10,000 values over 400
// local files of 10 row groups had every answer queued, 2.2 GB live, and V8 abort the process in a heap of 1 GiB).
// The files are hyparquet-writer's (testkit/sidecar-dataset.js), whose values are known without reading them back: the
// answers that come back never say absent for a file holding the value, nor present for a value stored nowhere. A
// table's probes are the dataset's: the same bounds (an Iceberg table of testkit/iceberg-writer.js, ids known as written).
import assert from 'node:assert/strict'
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { ErrorCode, openDataset, openParquet, openTable } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { DEFAULT_MAX_RESULTS } from '../../js/plan/max-results.js'
import { FileRoom, ResultBudget } from '../../js/plan/result-budget.js'
import { IndexBatches } from '../../js/dataset/index-batches.js'
import { writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { datasetFileName, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { runNode } from './helpers/run-cli.js'

const FILES = 12
const GROUPS = 3
const GROUP_ROWS = 10
const dir = await tempDir('dataset-bounded')
const oneFileDir = await tempDir('dataset-bounded-one')
const indexedDir = await tempDir('dataset-bounded-indexed')
const wideFileDir = await tempDir('dataset-bounded-wide-file')
const wideEachDir = await tempDir('dataset-bounded-wide-each')
const wideIndexedDir = await tempDir('dataset-bounded-wide-indexed')

/** @type {(f: number) => bigint[]} */
let valuesOf
// Stored values of files 0, 5 and 11, and two stored nowhere (≡ 1 mod 3).
let probed

before(async () => {
  ;({ valuesOf } = await writeSidecarDataset(dir, { files: FILES, groups: GROUPS, groupRows: GROUP_ROWS }))
  probed = [storedValue(3), storedValue(5 * GROUPS * GROUP_ROWS + 17), storedValue(FILES * GROUPS * GROUP_ROWS - 1), 1n, 7n]
})

/** The files as sources that count their reads: { byteLength, slice } (hyparquet's AsyncBuffer). */
async function countedSources() {
  const reads = { count: 0 }
  const sources = await Promise.all(Array.from({ length: FILES }, async (_, f) => {
    const bytes = await readFile(path.join(dir, datasetFileName(f)))
    return { path: datasetFileName(f), location: { byteLength: bytes.length, slice: (start, end) => {
      reads.count++
      return bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + (end ?? bytes.length))
    } } }
  }))
  return { sources, reads }
}

/** Asserts each file's answers against the values the writer stored in it. */
function assertAgainstWriter(file) {
  const f = Number(/p(\d+)\.parquet$/.exec(file.path)[1])
  const stored = new Set(valuesOf(f))
  file.values.forEach((answer, k) => {
    assert.equal(answer.value, probed[k])
    if (stored.has(probed[k])) assert.notEqual(answer.verdict, 'absent', `${file.path} holds ${probed[k]}`)
    if (probed[k] % 3n === 1n) assert.notEqual(answer.verdict, 'present', `${probed[k]} is stored nowhere`)
  })
}

describe('a dataset probe holds a bounded number of answers', () => {
  test('probe() of more values × files than maxResults is TOO_LARGE before any read, naming probeEach', async () => {
    const { sources, reads } = await countedSources()
    const dataset = await openDataset(sources)
    const values = probed.length
    const error = await dataset.probe('id', probed, { maxResults: values * FILES - 1 }).then(() => null, (e) => e)
    assert.equal(error?.code, ErrorCode.TOO_LARGE)
    assert.match(error.message, /probeEach\(\)/)
    assert.match(error.message, new RegExp(`${values} values over ${FILES} files needs room for ${values * FILES} answers`))
    assert.equal(reads.count, 0, 'nothing is read')
    // The default: 10,000 values over 2,000 files are refused at once, whatever their row groups.
    assert.ok(10_000 * 2_000 > DEFAULT_MAX_RESULTS)
  })

  test('probe() within maxResults answers; past it (the row groups counted as footers are read), TOO_LARGE', async () => {
    const dataset = await openDataset(dir)
    // Every file answers every value, and so does each of its row groups.
    const cells = probed.length * FILES * (1 + GROUPS)
    const result = await dataset.probe('id', probed, { maxResults: cells })
    assert.equal(result.files.length, FILES)
    assert.equal(result.totals.rowGroups, FILES * GROUPS)
    for (const file of result.files) assertAgainstWriter(file)
    const error = await dataset.probe('id', probed, { maxResults: cells - 1 }).then(() => null, (e) => e)
    assert.equal(error?.code, ErrorCode.TOO_LARGE)
    assert.match(error.message, /probeEach\(\)/)
    // probeEach holds no more than the files in flight: probe()'s total does not stop it, only a file's own answers.
    const streamed = []
    for await (const file of dataset.probeEach('id', probed, { maxResults: probed.length * GROUPS })) streamed.push(file)
    assert.deepEqual(streamed.map((f) => f.path).sort(), result.files.map((f) => f.path))
    for (const file of streamed) {
      assert.equal(file.error, null)
      assertAgainstWriter(file)
    }
  })

  test('one file of many row groups: refused once its footer is read, before its answers are made', { timeout: 60_000 }, async () => {
    // 100,001 values over one file of 100 row groups: 10,000,100 answers, over the default budget, though values × files
    // are not. In a heap of 128 MiB: made before they were counted, they would not fit (~850 MB).
    const root = oneFileDir
    await writeSidecarDataset(root, { files: 1, groups: 100, groupRows: 2 })
    const code = `import { openDataset } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)}
      const values = Array.from({ length: 100_001 }, (_, i) => BigInt(i) * 3n + 1n)
      const dataset = await openDataset(${JSON.stringify(root)})
      const error = await dataset.probe('id', values).then(() => null, (e) => e)
      console.log(JSON.stringify({ code: error?.code, message: error?.message }))`
    const { code: exit, stdout, stderr } = await runNode(['--max-old-space-size=128', '--input-type=module', '-e', code])
    assert.equal(exit, 0, stderr.slice(0, 400))
    const { code: errorCode, message } = JSON.parse(stdout)
    assert.equal(errorCode, ErrorCode.TOO_LARGE)
    assert.match(message, /needs room for 10100101 answers/)
  })

  test('maxResults: an integer >= 1 or Infinity', async () => {
    const dataset = await openDataset(dir)
    for (const bad of [0, -1, 1.5, NaN, '10']) {
      await assert.rejects(dataset.probe('id', probed, { maxResults: bad }), { code: ErrorCode.INVALID_ARGUMENT }, String(bad))
    }
    assert.equal((await dataset.probe('id', probed, { maxResults: Infinity })).files.length, FILES)
  })

  test('probeEach: a slow loop holds the files in flight, not every file answered ahead of it', async () => {
    const dataset = await openDataset(dir)
    const fileConcurrency = 2
    let done = 0
    let taken = 0
    let ahead = 0
    for await (const file of dataset.probeEach('id', probed, { fileConcurrency, onProgress: (p) => { done = p.filesDone } })) {
      taken++
      ahead = Math.max(ahead, done - taken)
      assertAgainstWriter(file)
      await new Promise((resolve) => setTimeout(resolve, 15))
    }
    assert.equal(taken, FILES)
    // Each worker's answer waits once one is unread: at most one a worker ahead of the loop (every file, before).
    assert.ok(ahead <= fileConcurrency, `${ahead} files answered ahead of the loop, with ${fileConcurrency} in flight`)
  })

  test('probeEach of many values has fewer files in flight: 125,001 values, one file at a time', async () => {
    const dataset = await openDataset(dir)
    const values = [...probed, ...Array.from({ length: 125_001 - probed.length }, (_, i) => BigInt(i) * 3n + 4n)]
    let started = 0
    let done = 0
    let most = 0
    // Called as each file's job starts, before any read of it.
    const prefilter = async () => {
      most = Math.max(most, ++started - done)
      await new Promise((resolve) => setTimeout(resolve, 5))
      return null
    }
    let taken = 0
    for await (const file of dataset.probeEach('id', values, { prefilter, onProgress: (p) => { done = p.filesDone } })) {
      const stored = new Set(valuesOf(Number(/p(\d+)\.parquet$/.exec(file.path)[1])))
      probed.forEach((v, k) => { if (stored.has(v)) assert.notEqual(file.values[k].verdict, 'absent', `${file.path} holds ${v}`) })
      taken++
    }
    assert.equal(taken, FILES)
    assert.equal(most, 1, 'files in flight at once: 250,000 (value, file) pairs over 125,001 values')
    // fileConcurrency, when given, is the caller's word.
    most = started = done = 0
    for await (const _ of dataset.probeEach('id', values.slice(0, 125_001), { prefilter, fileConcurrency: 3,
      onProgress: (p) => { done = p.filesDone } })) taken++
    assert.equal(most, 3)
  })

  test('probeEach left early: the workers held for the loop end with it', async () => {
    const dataset = await openDataset(dir)
    let taken = 0
    for await (const file of dataset.probeEach('id', probed, { fileConcurrency: 3 })) {
      assertAgainstWriter(file)
      await new Promise((resolve) => setTimeout(resolve, 15))
      if (++taken === 2) break
    }
    assert.equal(taken, 2)
  })
})

describe('a file\'s probe makes a bounded number of answers', () => {
  test('past maxResults (values × row groups probed) TOO_LARGE before any index is read; within it, the answers', async () => {
    const bytes = await readFile(path.join(dir, datasetFileName(5)))
    let reads = 0
    const file = await openParquet({ byteLength: bytes.length, slice: (start, end) => {
      reads++
      return bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + (end ?? bytes.length))
    } })
    try {
      const cells = probed.length * GROUPS
      const afterFooter = reads
      const error = await file.probe('id', probed, { maxResults: cells - 1 }).then(() => null, (e) => e)
      assert.equal(error?.code, ErrorCode.TOO_LARGE)
      assert.match(error.message, new RegExp(`${cells} answers over maxResults: probe fewer values per call`))
      assert.equal(reads, afterFooter, 'nothing read past the footer')
      // Only the row groups asked count.
      const one = await file.probe('id', probed, { maxResults: probed.length, rowGroups: [1], statistics: false })
      assert.deepEqual(one.rowGroups.map((g) => g.index), [1])
      for (const options of [{ maxResults: cells }, { maxResults: Infinity }, {}]) {
        const result = await file.probe('id', probed, { ...options, statistics: false })
        assert.equal(result.rowGroups.length, GROUPS)
        const stored = new Set(valuesOf(5))
        result.rowGroups.forEach((g) => g.results.forEach((r, k) => {
          // The writer's row group g of file 5 holds storedValue((5 * GROUPS + g) * GROUP_ROWS + i).
          if (valuesOf(5).slice(g.index * GROUP_ROWS, (g.index + 1) * GROUP_ROWS).includes(probed[k])) {
            assert.notEqual(r.verdict, 'absent', `row group ${g.index} holds ${probed[k]}`)
          }
          if (!stored.has(probed[k]) && probed[k] % 3n === 1n) assert.notEqual(r.verdict, 'present', `${probed[k]} is stored nowhere`)
        }))
      }
      // Not an integer >= 1 or Infinity: refused as a dataset's is (js/plan/max-results.js maxResultsOf).
      for (const maxResults of [NaN, 0, -1, 1.5, '10']) {
        await assert.rejects(file.probe('id', probed, { maxResults }), { code: ErrorCode.INVALID_ARGUMENT })
      }
    } finally {
      await file.close()
    }
  })

  test('over the default (100,001 values × 100 row groups) refused in a heap of 128 MiB, typed', { timeout: 60_000 }, async () => {
    // Made before they were counted, its 10,000,100 answers (~850 MB) had V8 abort the process.
    await writeSidecarDataset(wideFileDir, { files: 1, groups: 100, groupRows: 2 })
    const code = `import { openParquet } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)}
      const values = Array.from({ length: 100_001 }, (_, i) => BigInt(i) * 3n + 1n)
      const file = await openParquet(${JSON.stringify(path.join(wideFileDir, datasetFileName(0)))})
      const error = await file.probe('id', values).then(() => null, (e) => e)
      console.log(JSON.stringify({ code: error?.code, message: error?.message }))`
    const { code: exit, stdout, stderr } = await runNode(['--max-old-space-size=128', '--input-type=module', '-e', code],
      { timeout: 50_000 })
    assert.equal(exit, 0, stderr.slice(0, 400))
    const { code: errorCode, message } = JSON.parse(stdout)
    assert.equal(errorCode, ErrorCode.TOO_LARGE)
    assert.match(message, /10000100 answers over maxResults/)
    assert.ok(100_001 * 100 > DEFAULT_MAX_RESULTS)
  })

  test('probeEach: a file over maxResults by itself is its own TOO_LARGE, before its indexes are read; the others answer', async () => {
    // One file of 200 row groups and one of 2, the sidecar dataset's: each file's answers are values × its row groups.
    const wide = path.join(wideEachDir, 'wide')
    const narrow = path.join(wideEachDir, 'narrow')
    await mkdir(wide, { recursive: true })
    await mkdir(narrow, { recursive: true })
    const { valuesOf: wideValues } = await writeSidecarDataset(wide, { files: 1, groups: 200, groupRows: 2 })
    const { valuesOf: narrowValues } = await writeSidecarDataset(narrow, { files: 1, groups: 2, groupRows: 10 })
    const paths = [path.join(wide, datasetFileName(0)), path.join(narrow, datasetFileName(0))]
  const indexOf = (/** @type {number} */ format) => path.join(wideIndexedDir, `index-${format}.puffin`)
    // A value of each file, and one stored nowhere (≡ 1 mod 3).
    const values = [wideValues(0)[7], narrowValues(0)[3], 1n]
    const stored = [new Set(wideValues(0)), new Set(narrowValues(0))]
    /** @param {number} maxResults */
    const each = async (maxResults) => {
      const files = []
      for await (const file of (await openDataset(paths)).probeEach('id', values, { maxResults })) files.push(file)
      return files.sort((a, b) => (a.path < b.path ? -1 : 1))
    }
    // Within it (3 values × 200 row groups), every file answers, though probe()'s total (3 × (2 + 202)) is over.
    for (const [f, file] of (await each(values.length * 200)).reverse().entries()) {
      assert.equal(file.error, null)
      values.forEach((v, k) => {
        if (stored[f].has(v)) assert.notEqual(file.values[k].verdict, 'absent', `${file.path} holds ${v}`)
        if (v === 1n) assert.notEqual(file.values[k].verdict, 'present', `${v} is stored nowhere`)
      })
    }
    const [narrowAnswer, wideAnswer] = await each(values.length * 200 - 1)
    assert.equal(wideAnswer.path, paths[0])
    assert.equal(wideAnswer.error?.code, ErrorCode.TOO_LARGE)
    assert.match(wideAnswer.error.message, /3 values over this file's 200 row groups need room for 600 answers/)
    assert.deepEqual(wideAnswer.rowGroups, [])
    assert.deepEqual(wideAnswer.values.map((a) => [a.verdict, a.reason]), values.map(() => ['unknown', 'file-error']))
    assert.equal(narrowAnswer.error, null)
    assert.notEqual(narrowAnswer.values[1].verdict, 'absent')
    // Its footer alone was read: no index of it, no data page.
    assert.ok(wideAnswer.stats.requests <= 2, `${wideAnswer.stats.requests} requests`)
  })

  test('probeEach: one file over the default (100,001 values × 200 row groups) answers TOO_LARGE in a heap of 128 MiB',
    { timeout: 60_000 }, async () => {
      // Its 20,000,200 answers were made at once, its file asked with no limit of its own: V8 aborted the process
      // (SIGABRT, heap out of memory), the other file's answer lost with it.
      const code = `import { openDataset } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)}
        const values = Array.from({ length: 100_001 }, (_, i) => BigInt(i) * 3n + 1n)
        const dataset = await openDataset(${JSON.stringify([path.join(wideEachDir, 'wide'), path.join(wideEachDir, 'narrow')]
          .map((d) => path.join(d, datasetFileName(0))))})
        const files = []
        for await (const f of dataset.probeEach('id', values)) {
          files.push({ path: f.path, error: f.error?.code ?? null, message: f.error?.message, rowGroups: f.rowGroups.length,
            verdicts: [...new Set(f.values.map((a) => a.verdict))] })
        }
        console.log(JSON.stringify(files.sort((a, b) => (a.path < b.path ? -1 : 1))))`
      const { code: exit, signal, stdout, stderr } = await runNode(['--max-old-space-size=128', '--input-type=module', '-e', code],
        { timeout: 50_000 })
      assert.equal(exit, 0, `${signal} ${stderr.slice(0, 400)}`)
      const [narrowAnswer, wideAnswer] = JSON.parse(stdout)
      assert.deepEqual({ ...wideAnswer, message: undefined }, { path: path.join(wideEachDir, 'wide', datasetFileName(0)),
        error: ErrorCode.TOO_LARGE, message: undefined, rowGroups: 0, verdicts: ['unknown'] })
      assert.match(wideAnswer.message, /need room for 20000200 answers .* more than maxResults \(10000000\)/)
      // Values ≡ 1 (mod 3) are stored nowhere: never present; the other file answered them all.
      assert.deepEqual({ ...narrowAnswer, verdicts: narrowAnswer.verdicts.filter((v) => v === 'present') },
        { path: path.join(wideEachDir, 'narrow', datasetFileName(0)), error: null, rowGroups: 2, verdicts: [] })
      assert.ok(100_001 * 200 > DEFAULT_MAX_RESULTS)
    })

  test('probeEach: maxResults is checked as probe()\'s', async () => {
    const dataset = await openDataset(dir)
    for (const bad of [0, 1.5, '10']) {
      const error = await (async () => { for await (const _ of dataset.probeEach('id', probed, { maxResults: bad })); })()
        .then(() => null, (e) => e)
      assert.equal(error?.code, ErrorCode.INVALID_ARGUMENT, String(bad))
    }
  })
})

describe('a table probe holds a bounded number of answers', () => {
  const tableDir = tempDir('table-bounded')
  test('an Iceberg table\'s probe() past maxResults is TOO_LARGE; probeEach answers every file', async () => {
    const root = await tableDir
    const written = await writeIcebergTable(root, { files: 4, manifests: 2, rows: 16 })
    // A value of each file: no file is pruned by its manifest's bounds.
    const values = written.files.map((f) => f.ids[3])
    const table = await openTable(root)
    const error = await table.probe('id', values, { maxResults: values.length * 4 - 1 }).then(() => null, (e) => e)
    assert.equal(error?.code, ErrorCode.TOO_LARGE)
    assert.match(error.message, /probeEach\(\)/)
    // probeEach: each file's own answers (4 values × its one row group) within maxResults, though probe()'s are not.
    let answered = 0
    for await (const file of table.probeEach('id', values, { maxResults: values.length, fileConcurrency: 1 })) {
      const { ids } = written.files.find((f) => file.path.endsWith(path.basename(f.path)))
      assert.equal(file.error, null)
      assert.equal(file.rowGroups.length, 1)
      values.forEach((v, k) => { if (ids.includes(v)) assert.notEqual(file.values[k].verdict, 'absent', `${file.path} holds ${v}`) })
      answered++
    }
    assert.equal(answered, 4)
    // Past it, each file alone is TOO_LARGE: the value it holds unknown (the others its bounds in the manifest rule out).
    for await (const file of table.probeEach('id', values, { maxResults: values.length - 1 })) {
      const { ids } = written.files.find((f) => file.path.endsWith(path.basename(f.path)))
      assert.equal(file.error?.code, ErrorCode.TOO_LARGE)
      values.forEach((v, k) => { if (ids.includes(v)) assert.equal(file.values[k].verdict, 'unknown', `${file.path} holds ${v}`) })
      answered++
    }
    assert.equal(answered, 8)
  })
})

describe('a dataset probe with a sidecar index holds a bounded number of its answers', () => {
  test('probeEach of 10,000 values over 100 indexed files of 10 row groups fits a heap of 128 MiB', { timeout: 120_000 }, async () => {
    // The index's answers (per value, for each row group of each file) were all held before the first file answered:
    // 10 million of them, and V8 aborted the process. Now the files are asked a batch at a time (PAIRS_AT_ONCE).
    const files = 100
    const groups = 10
    const groupRows = 10
    const data = path.join(indexedDir, 'data')
    const { valuesOf: storedIn } = await writeSidecarDataset(await mkdirp(data), { files, groups, groupRows })
    const indexPath = path.join(indexedDir, 'index.puffin')
    await buildSidecarIndex([data], indexPath, { columns: ['id'] })
    // Values stored nowhere (≡ 1 mod 3), and one of each of files 0, 50 and 99.
    const held = [[0, 5], [50, 17], [99, groups * groupRows - 1]].map(([f, i]) => ({ file: f, value: storedIn(f)[i] }))
    const values = [...Array.from({ length: 10_000 - held.length }, (_, i) => BigInt(i) * 3n + 1n), ...held.map((h) => h.value)]
    const code = `import { openDataset } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)}
      const values = ${JSON.stringify(values.map(String))}.map(BigInt)
      const held = new Map(${JSON.stringify(held.map((h) => [String(h.value), datasetFileName(h.file)]))})
      const dataset = await openDataset(${JSON.stringify(data)}, { index: ${JSON.stringify(indexPath)} })
      let answered = 0, presentUnstored = 0, absentHeld = 0, described = 0
      for await (const file of dataset.probeEach('id', values)) {
        answered++
        if (file.index?.described) described++
        file.values.forEach((a, k) => {
          const holder = held.get(String(values[k]))
          if (holder === undefined && a.verdict === 'present') presentUnstored++
          if (holder !== undefined && file.path.endsWith(holder) && a.verdict === 'absent') absentHeld++
        })
      }
      await dataset.close()
      console.log(JSON.stringify({ answered, presentUnstored, absentHeld, described }))`
    const { code: exit, stdout, stderr } = await runNode(['--max-old-space-size=128', '--input-type=module', '-e', code])
    assert.equal(exit, 0, stderr.slice(0, 400))
    assert.deepEqual(JSON.parse(stdout), { answered: files, presentUnstored: 0, absentHeld: 0, described: files })
  })
})

describe('a dataset probe with a sidecar index counts the row groups the index describes', () => {
  // One file of 200 row groups and one of 2, indexed: the index's answers (per value, for each row group of each file
  // asked) were made before any footer was read, counted by files alone: 100,001 values made 20 million at once, and V8
  // aborted the process (a heap of 128 MiB, probe() and probeEach() alike). Now the index tells the row groups it describes
  // before it makes an answer: probe() fails TOO_LARGE there, probeEach's file over its room is left unanswered by it
  // (and answers TOO_LARGE from its footer, as without the index); the answers are otherwise those without the index.
  const wide = path.join(wideIndexedDir, 'wide')
  const narrow = path.join(wideIndexedDir, 'narrow')
  const paths = [path.join(wide, datasetFileName(0)), path.join(narrow, datasetFileName(0))]
  const indexOf = (/** @type {number} */ format) => path.join(wideIndexedDir, `index-${format}.puffin`)
  let values
  let stored
  before(async () => {
    await mkdir(wide, { recursive: true })
    await mkdir(narrow, { recursive: true })
    const { valuesOf: wideValues } = await writeSidecarDataset(wide, { files: 1, groups: 200, groupRows: 2 })
    const { valuesOf: narrowValues } = await writeSidecarDataset(narrow, { files: 1, groups: 2, groupRows: 10 })
    for (const format of [1, 2]) await buildSidecarIndex(paths, indexOf(format), { format, columns: ['id'] })
    // A value of each file, and one stored nowhere (≡ 1 mod 3).
    values = [wideValues(0)[7], narrowValues(0)[3], 1n]
    stored = [new Set(wideValues(0)), new Set(narrowValues(0))]
  })

  /** The index of `format`, its probes' outcomes recorded: files answered (path, row groups), or the error's code. */
  async function recordedIndex(format) {
    const index = await openSidecarIndex(indexOf(format))
    const outcomes = []
    return { outcomes, index: {
      get stats() { return index.stats },
      get columns() { return index.columns },
      probe: (column, asked, options) => index.probe(column, asked, options).then((result) => {
        outcomes.push(result.files.map((f) => ({ path: f.path, rowGroups: f.rowGroups.length })))
        return result
      }, (error) => {
        outcomes.push(error.code)
        throw error
      }),
      close: () => index.close(),
    } }
  }

  /** A file's answers as the writer's truth checks them, and as they compare with and without the index. */
  const verdicts = (file) => file.values.map((a, k) => {
    const f = paths.indexOf(file.path)
    if (file.error === null && stored[f].has(values[k])) assert.notEqual(a.verdict, 'absent', `${file.path} holds ${values[k]}`)
    if (values[k] === 1n) assert.notEqual(a.verdict, 'present', `${values[k]} is stored nowhere`)
    return [a.value, a.verdict === 'present' ? 'present' : a.verdict === 'unknown' ? `unknown ${a.reason}` : 'not present']
  })

  for (const format of [1, 2]) {
    test(`format ${format}: probe() past maxResults by the row groups the index describes is TOO_LARGE before it makes them`, async () => {
      const total = values.length * (paths.length + 200 + 2)
      const { index, outcomes } = await recordedIndex(format)
      const dataset = await openDataset(paths, { index })
      try {
        const error = await dataset.probe('id', values, { maxResults: total - 1 }).then(() => null, (e) => e)
        assert.equal(error?.code, ErrorCode.TOO_LARGE)
        assert.match(error.message, new RegExp(`needs room for ${total} answers`))
        // The index was refused its answers (it made none), where it made 606 of them before the footers said too many.
        assert.deepEqual(outcomes, [ErrorCode.TOO_LARGE])
        // Within it: the answers without the index, and the index's answers for both files.
        const result = await dataset.probe('id', values, { maxResults: total })
        const plain = await (await openDataset(paths)).probe('id', values, { maxResults: total })
        assert.deepEqual(result.files.map((f) => [f.path, f.error, f.index, verdicts(f)]),
          plain.files.map((f) => [f.path, f.error, { described: true }, verdicts(f)]))
        assert.deepEqual(outcomes[1], [{ path: paths[0], rowGroups: 200 }, { path: paths[1], rowGroups: 2 }])
      } finally {
        await dataset.close()
        await index.close()
      }
    })

    test(`format ${format}: probeEach's file over maxResults by the index's row groups is its own TOO_LARGE, unanswered by the index`,
      async () => {
        const { index, outcomes } = await recordedIndex(format)
        const each = async (options) => {
          const files = []
          for await (const file of (await openDataset(paths, options)).probeEach('id', values, { maxResults: values.length * 200 - 1 })) {
            files.push(file)
          }
          return files.sort((a, b) => paths.indexOf(a.path) - paths.indexOf(b.path))
        }
        try {
          const [wideAnswer, narrowAnswer] = await each({ index })
          const [widePlain, narrowPlain] = await each({})
          // As without the index: the wide file's TOO_LARGE (its footer's), the narrow one's answers.
          assert.equal(wideAnswer.error?.code, ErrorCode.TOO_LARGE)
          assert.deepEqual(wideAnswer.error, widePlain.error)
          assert.match(wideAnswer.error.message, /3 values over this file's 200 row groups need room for 600 answers/)
          assert.deepEqual([wideAnswer.rowGroups, verdicts(wideAnswer)], [widePlain.rowGroups, verdicts(widePlain)])
          assert.deepEqual(wideAnswer.index, { described: true })
          assert.equal(narrowAnswer.error, null)
          assert.deepEqual(verdicts(narrowAnswer), verdicts(narrowPlain))
          // The index made no answers for the wide file, where it made 600.
          assert.deepEqual(outcomes, [[{ path: paths[0], rowGroups: 0 }, { path: paths[1], rowGroups: 2 }]])
        } finally {
          await index.close()
        }
      })

    test(`format ${format}: 100,001 values over the indexed files answer typed in a heap of 128 MiB`, { timeout: 90_000 }, async () => {
      const code = `import { openDataset } from ${JSON.stringify(new URL('../../js/index.js', import.meta.url).href)}
        const values = Array.from({ length: 100_001 }, (_, i) => BigInt(i) * 3n + 1n)
        const open = () => openDataset(${JSON.stringify(paths)}, { index: ${JSON.stringify(indexOf(format))} })
        const dataset = await open()
        const probed = await dataset.probe('id', values).then(() => null, (e) => e.code)
        await dataset.close()
        const again = await open()
        const files = []
        const said = (a) => (a.verdict === 'unknown' ? a.reason : a.verdict === 'present' ? 'present' : 'not present')
        for await (const f of again.probeEach('id', values)) {
          files.push({ path: f.path, error: f.error?.code ?? null, rowGroups: f.rowGroups.length, index: f.index,
            verdicts: [...new Set(f.values.map(said))] })
        }
        await again.close()
        console.log(JSON.stringify({ probed, files: files.sort((a, b) => (a.path < b.path ? 1 : -1)) }))`
      const { code: exit, signal, stdout, stderr } = await runNode(['--max-old-space-size=128', '--input-type=module', '-e', code],
        { timeout: 80_000 })
      assert.equal(exit, 0, `${signal} ${stderr.slice(0, 400)}`)
      // Values ≡ 1 (mod 3) are stored nowhere: never present; the narrow file answered them all.
      assert.deepEqual(JSON.parse(stdout), { probed: ErrorCode.TOO_LARGE, files: [
        { path: paths[0], error: ErrorCode.TOO_LARGE, rowGroups: 0, index: { described: true }, verdicts: ['file-error'] },
        { path: paths[1], error: null, rowGroups: 2, index: { described: true }, verdicts: ['not present'] },
      ] })
    })
  }

  test('the index is asked a batch of files at a time by the answers it makes, its described row groups counted once', async () => {
    // Files a–e of 3, 3, 2, 0 and 9 row groups, 2 values, at most 10 answers at once (so file e, 18 answers, alone).
    const rowGroups = { a: 3, b: 3, c: 2, d: 0, e: 9 }
    const files = Object.keys(rowGroups)
    const asked = []
    const ask = async (list, rowGroupsKnown) => {
      const unanswered = rowGroupsKnown(list.map((f) => rowGroups[f])) ?? new Set()
      asked.push(list.join(''))
      const answers = new Map(list.flatMap((f, i) => (unanswered.has(i) ? [] : [[f, { rowGroups: rowGroups[f] }]])))
      return { opened: null, answers, described: new Map(list.map((f) => [f, { described: true }])), cost: { requests: 1, inLedger: true } }
    }
    const budget = new ResultBudget(2 * (5 + 17), 2, 5)
    const batches = new IndexBatches(files, 2, ask, { room: budget, answersAtOnce: 10 })
    const taken = []
    for (const f of files) taken.push({ file: f, ...(await batches.for(f)) })
    // Asked whole (refused before any answer: 34), then in parts that fit (a: 6 answers; b, c, d: 10; e: 18, alone), each once.
    assert.deepEqual(asked, ['a', 'bcd', 'e'])
    assert.deepEqual(taken.map((t) => [t.file, t.indexed?.rowGroups, t.counted]),
      files.map((f) => [f, rowGroups[f], rowGroups[f]]))
    // The probe's room: values × files, and values × the described row groups once each (17, not the whole batch's twice).
    assert.equal(budget.held, 2 * (5 + 17))
    // A file's footer of the row groups its index described takes no more room; one of more takes the difference.
    budget.add(3, 3)
    assert.equal(budget.held, 2 * (5 + 17))
    assert.throws(() => budget.add(4, 3), { code: ErrorCode.TOO_LARGE })

    // probeEach's room: a file over it (e: 18 answers, over 17) is left unanswered by the index, the others answered.
    asked.length = 0
    const room = new FileRoom(17, 2)
    const each = new IndexBatches(files, 2, ask, { room, answersAtOnce: 100 })
    const eachTaken = []
    for (const f of files) eachTaken.push({ file: f, ...(await each.for(f)) })
    assert.deepEqual(asked, ['abcde'])
    assert.deepEqual(eachTaken.map((t) => [t.file, t.indexed?.rowGroups, t.status]),
      files.map((f) => [f, f === 'e' ? undefined : rowGroups[f], { described: true }]))
  })
})

describe('a sidecar index\'s own probe makes a bounded number of answers', () => {
  for (const format of [1, 2]) {
    test(`format ${format}: past maxResults (values × row groups of the files asked) TOO_LARGE, before they are made`, async () => {
      const indexPath = path.join(indexedDir, `small-${format}.puffin`)
      await buildSidecarIndex([dir], indexPath, { format, columns: ['id'] })
      const index = await openSidecarIndex(indexPath)
      try {
        const cells = probed.length * FILES * GROUPS
        const error = await index.probe('id', probed, { maxResults: cells - 1 }).then(() => null, (e) => e)
        assert.equal(error?.code, ErrorCode.TOO_LARGE)
        assert.match(error.message, new RegExp(`${probed.length} values over ${FILES} files of ${FILES * GROUPS} row groups needs room ` +
          `for ${cells} answers`))
        const { files } = await index.probe('id', probed, { maxResults: cells })
        assert.equal(files.length, FILES)
        for (const file of files) {
          assert.equal(file.rowGroups.length, GROUPS)
          const stored = new Set(valuesOf(Number(/p(\d+)\.parquet$/.exec(file.path)[1])))
          probed.forEach((v, k) => {
            if (stored.has(v)) assert.ok(file.rowGroups.some((g) => g.results[k].verdict !== 'absent'), `${file.path} holds ${v}`)
          })
        }
        // Two files asked: their row groups only.
        const two = [path.join(dir, datasetFileName(0)), path.join(dir, datasetFileName(1))]
        assert.equal((await index.probe('id', probed, { files: two, maxResults: probed.length * 2 * GROUPS })).files.length, 2)
        await assert.rejects(index.probe('id', probed, { files: two, maxResults: probed.length * 2 * GROUPS - 1 }),
          { code: ErrorCode.TOO_LARGE })
        // Files named by path alone, not checked (`validate: false`): format 2 matches them by path after its first count,
        // and made their answers past maxResults uncounted.
        await assert.rejects(index.probe('id', probed, { files: two, validate: false, maxResults: probed.length * 2 * GROUPS - 1 }),
          { code: ErrorCode.TOO_LARGE })
        assert.equal((await index.probe('id', probed, { files: two, validate: false, maxResults: probed.length * 2 * GROUPS }))
          .files.reduce((n, f) => n + f.rowGroups.length, 0), 2 * GROUPS)
        // A dataset asks its index with no limit of the index's (it asks a batch of files at a time, under its own budget).
        const dataset = await openDataset(dir, { index })
        const result = await dataset.probe('id', probed, { maxResults: probed.length * FILES * (1 + GROUPS) })
        assert.equal(result.files.length, FILES)
        for (const file of result.files) assertAgainstWriter(file)
      } finally {
        await index.close()
      }
    })
  }
})

/** @param {string} folder @returns {Promise<string>} the folder, made */
async function mkdirp(folder) {
  await mkdir(folder, { recursive: true })
  return folder
}
