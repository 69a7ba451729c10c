// The seeded JS mutation fuzzer over openParquet + probe + visitBloomFilter (testkit/mutation-fuzzer.js, run in a worker by testkit/fuzz-worker.js),
// bounded for `npm test` (`npm run fuzz:js` runs it for as long as asked): mutated real files may only
// ever produce ParquetBloomErrors, never hang, never leak pool blocks, and never change a verdict where
// the filters and footer are intact. Also tests of the harness itself, so a quiet run means something.
import assert from 'node:assert/strict'
import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parseParquet } from '../../testkit/file-surgery.js'
import { runFuzzInWorker } from '../../testkit/fuzz-worker.js'
import { buildFuzzBases, fuzzInput } from '../../testkit/mutation-fuzzer.js'
import { writeHyparquetSample } from '../../testkit/sample-files.js'
import { decodeStruct, encodeStruct, varintSpans } from '../../testkit/thrift-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

// Fixed, so every run of `npm test` tries the same inputs; the time cap only guards slow machines.
const SEED = 20261130
const ITERATIONS = 4000
const TIME_CAP_MS = 20000

const dir = await tempDir('fuzz')
describe('the harness', () => {
  test('the Thrift codec re-encodes a real footer byte for byte, and finds its varints', async () => {
    await mkdir(path.join(dir, 'codec'))
    const sample = await writeHyparquetSample(path.join(dir, 'codec'))
    const { bytes, metadataOffset } = parseParquet(new Uint8Array(await readFile(sample.path)))
    const metadata = bytes.subarray(metadataOffset, bytes.length - 8)
    const { struct, length } = decodeStruct(metadata)
    assert.equal(length, metadata.length)
    assert.deepEqual(encodeStruct(struct), metadata)
    const spans = varintSpans(metadata)
    assert.ok(spans.some((s) => s.kind === 'int') && spans.some((s) => s.kind === 'length') && spans.some((s) => s.kind === 'list-header'))
    for (const s of spans) assert.ok(s.start < s.end && s.end <= metadata.length)
  })

  test('an iteration is the same input whatever ran before it', async () => {
    const bases = await buildFuzzBases(path.join(dir, 'replay'))
    for (const i of [0, 17, 999]) {
      const a = fuzzInput(bases, SEED, i)
      const b = fuzzInput(bases, SEED, i)
      assert.deepEqual(a.mutation.bytes, b.mutation.bytes)
      assert.equal(a.mutation.note, b.mutation.note)
      assert.equal(a.column, b.column)
    }
  })

  for (const [what, pattern] of [
    ['sync-hang', /no progress for 1500 ms \(a synchronous hang\)/],
    ['async-hang', /no answer after 300 ms/],
    ['type-error', /Cannot read properties of null/],
  ]) {
    test(`${what} at iteration 5 is reported as a finding naming the iteration`, async () => {
      const report = await runFuzzInWorker({ seed: SEED, iterations: 8, dir: path.join(dir, what), simulate: { iteration: 5, what }, iterationTimeoutMs: 300 }, { hangMs: 1500 })
      assert.ok(report.findings.length >= 1, JSON.stringify(report))
      assert.equal(report.findings[0].iteration, 5)
      assert.match(report.findings[0].message, pattern)
      assert.match(report.findings[0].message, new RegExp(`iteration 5 \\(seed ${SEED}\\)`))
    })
  }
})

test(`${ITERATIONS} mutated files (seed ${SEED}): typed errors only, no hang or leak, exact verdicts where filters are intact`, async () => {
  const report = await runFuzzInWorker({ seed: SEED, iterations: ITERATIONS, durationMs: TIME_CAP_MS, dir: path.join(dir, 'run') })
  assert.deepEqual(report.findings, [], `${report.findingCount} findings; replay one with: node scripts/fuzz-js.js --seed ${SEED} --replay <iteration>`)
  assert.ok(report.iterations >= 1000, `only ${report.iterations} iterations in ${TIME_CAP_MS} ms`)
  assert.ok(report.healthChecks >= Math.floor(report.iterations / 25) - 1, `${report.healthChecks} health checks`)
  // Every mutation kind ran, and enough files ended each way for the run to mean something.
  for (const kind of ['data-bytes', 'bitset-bits', 'header-bytes', 'header-varint', 'footer-bytes', 'footer-varint', 'footer-field', 'tail-bytes', 'truncate', 'splice', 'anywhere-bits']) {
    assert.ok(report.kinds[kind] > 0, `no ${kind} mutations`)
  }
  assert.ok(report.outcomes.ok > report.iterations / 4, JSON.stringify(report.outcomes))
  assert.ok(report.outcomes.MALFORMED_FOOTER > report.iterations / 20, JSON.stringify(report.outcomes))
  assert.ok(report.verdicts['malformed-filter'] > 0 && report.verdicts.absent > 0 && report.verdicts.maybe > 0, JSON.stringify(report.verdicts))
  assert.ok(report.heapEnd - report.heapStart < 256 * 1024 * 1024, `wasm heap grew from ${report.heapStart} to ${report.heapEnd}`)
})
