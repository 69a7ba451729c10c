// The minified browser bundle (js/parquet-bloom.browser.js, scripts/build-bundle.js) is the library: it
// is current with the sources, exports the same API, and probes real files with the verdicts the
// writers' truth demands and the sources give. It runs in Node too (its node: imports stay external),
// which is how this suite drives it; tests/browser/run.js drives it in Chromium.
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { before, test } from 'node:test'

import * as sources from '../../js/index.js'
import { BUNDLE, buildBrowserBundle, root } from '../../scripts/build-bundle.js'
import { buildSamples, samplesDir } from '../../testkit/demo-samples.js'
import { fixturePath, missingFixture, PARQUET_TESTING_ABSENT, PARQUET_TESTING_PRESENT, readFixture } from './helpers/fixtures.js'

const bundlePath = path.join(root, BUNDLE)
const LENGTH_FILE = 'parquet-testing/data_index_bloom_encoding_with_length.parquet'
const XXHASH_FILTER = 'parquet-testing/bloom_filter.xxhash.bin'

let bundle
let manifest

before(async () => {
  assert.ok(existsSync(bundlePath), `${BUNDLE} is missing: build it with bash scripts/build-bundle.sh (scripts/build.sh wasm does)`)
  bundle = await import(pathToFileURL(bundlePath).href)
  manifest = await buildSamples()
})

async function probeVerdicts(lib, source, column, values, options, openOptions = {}) {
  const file = await lib.openParquet(source, openOptions)
  try {
    const result = await file.probe(column, values, options)
    return { verdicts: result.rowGroups.map((g) => g.results.map((r) => r.verdict)), stats: file.stats }
  } finally {
    await file.close()
  }
}

test('the bundle on disk is what the current sources build', async () => {
  const { outputFiles } = await buildBrowserBundle({ write: false })
  const fresh = outputFiles.find((f) => path.relative(root, f.path) === BUNDLE)
  assert.ok(Buffer.from(fresh.contents).equals(await readFile(bundlePath)), `${BUNDLE} is stale: rebuild it with bash scripts/build-bundle.sh`)
})

test('the bundle exports what js/index.js exports', () => {
  assert.deepEqual(Object.keys(bundle).sort(), Object.keys(sources).sort())
  assert.deepEqual(bundle.ErrorCode, sources.ErrorCode)
})

test('parquet-testing: every listed value present is maybe, every absent one absent, in every mode', { skip: missingFixture(LENGTH_FILE) }, async () => {
  const values = [...PARQUET_TESTING_PRESENT, ...PARQUET_TESTING_ABSENT]
  const expected = [[...PARQUET_TESTING_PRESENT.map(() => 'maybe'), ...PARQUET_TESTING_ABSENT.map(() => 'absent')]]
  for (const mode of ['auto', 'filter', 'block']) {
    const { verdicts } = await probeVerdicts(bundle, fixturePath(LENGTH_FILE), 'String', values, { mode })
    assert.deepEqual(verdicts, expected, mode)
  }
})

test('DuckDB and hyparquet-writer samples: the writers\' truth holds, and the verdicts and I/O equal the sources\'', async () => {
  for (const s of manifest.samples) {
    const values = [...s.probe.values, ...s.probe.absent]
    const bytes = new Uint8Array(await readFile(path.join(samplesDir, s.file)))
    const open = { decryption: s.decryption } // the encrypted sample's public demo key
    const got = await probeVerdicts(bundle, new Blob([bytes]), s.probe.column, values, undefined, open)
    // A column with bloom filters answers maybe where the value is; one without (DuckDB writes none into
    // encrypted files) answers from its decrypted dictionaries, which hold it: present.
    const filtered = s.footer.columns.find((c) => c.name === s.probe.column).filters > 0
    s.probe.truth.forEach((t, i) => {
      for (const g of t.rowGroups) assert.equal(got.verdicts[g][i], filtered ? 'maybe' : 'present', `${s.file}: ${t.value} is in row group ${g}`)
    })
    assert.deepEqual(got, await probeVerdicts(sources, new Blob([bytes]), s.probe.column, values, undefined, open), s.file)
  }
})

test('confirm: true through the bundle (hyparquet in its on-demand chunk) finds the rows the sources find', async () => {
  for (const s of manifest.samples) {
    const values = [...s.probe.values, ...s.probe.absent]
    const bytes = new Uint8Array(await readFile(path.join(samplesDir, s.file)))
    const rows = async (lib) => {
      const file = await lib.openParquet(new Blob([bytes]), { decryption: s.decryption })
      try {
        const result = await file.probe(s.probe.column, values, { confirm: true })
        return result.rowGroups.map((g) => g.results.map((r) => ({ verdict: r.verdict, reason: r.reason, rows: r.rows })))
      } finally {
        await file.close()
      }
    }
    const got = await rows(bundle)
    assert.ok(got.flat().some((r) => r.reason === 'in-data-pages'), `${s.file}: some value confirmed`)
    assert.deepEqual(got, await rows(sources), s.file)
  }
})

test('adviseIndexes through the bundle (advise.js and the page readers in on-demand chunks) advises what the sources advise', async () => {
  const s = manifest.samples.find((x) => x.file === 'orders.parquet')
  const bytes = new Uint8Array(await readFile(path.join(samplesDir, s.file)))
  const advise = async (lib) => {
    const file = await lib.openParquet(new Blob([bytes]))
    try {
      return await lib.adviseIndexes(file, { fpp: 0.05 })
    } finally {
      await file.close()
    }
  }
  const got = await advise(bundle)
  assert.deepEqual(got.map((c) => c.column), s.footer.columns.map((c) => c.name))
  assert.ok(got.every((c) => !('skipped' in c)), 'every column read')
  assert.deepEqual(got, await advise(sources))
  await assert.rejects(advise({ ...bundle, adviseIndexes: (file) => bundle.adviseIndexes(file, { fpp: 1 }) }), (error) => error instanceof bundle.ParquetBloomError && error.code === 'INVALID_ARGUMENT')
})

test('BloomFilter from the bundle reads the parquet-testing filter and throws its ParquetBloomError', { skip: missingFixture(XXHASH_FILTER) }, () => {
  const f = bundle.BloomFilter.fromBytes(readFixture(XXHASH_FILTER))
  try {
    assert.deepEqual([...f.check(['hello', 'parquet', 'bloom', 'filter', 'Hello', 'foo'], 'BYTE_ARRAY')], [1, 1, 1, 1, 0, 0])
  } finally {
    f.free()
  }
  assert.throws(() => bundle.BloomFilter.fromBytes(new Uint8Array(3)), (error) => error instanceof bundle.ParquetBloomError && typeof error.code === 'string')
})

test('the bundle reads an Iceberg table\'s manifests (avsc in a chunk of its own, with the buffer package and the util shim) as the sources do', async (t) => {
  const table = 'tables/iceberg/mytable_partitioned_eqdeletes'
  const missing = missingFixture(table)
  if (missing) return t.skip(missing)
  const answers = async (lib) => {
    const opened = await lib.openTable(fixturePath(table), { format: 'iceberg' })
    const result = await opened.probe('name', ['a', 'e', 'no-such-name'])
    return { files: opened.table.files.map((f) => [f.path, f.deletes]), verdicts: result.files.map((f) => [f.path, f.values.map((v) => [v.verdict, v.source])]) }
  }
  const fromBundle = await answers(bundle)
  assert.equal(fromBundle.files.length, 6, 'the live data files of the current snapshot')
  assert.deepEqual(fromBundle, await answers(sources))
  assert.ok(fromBundle.verdicts.some(([, values]) => values.some(([verdict, source]) => verdict === 'absent' && source === 'table-partition')), 'partition values from the manifests ruled files out')
})
