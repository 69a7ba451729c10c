// What a table keeps across probes: its snapshot's files, not each probe's state. A table opened once and probed many
// times, each probe reading other files, must not grow with the files probed so far (tests/js/helpers/table-plans-child.js
// measures the heap in a process of its own, after a full collection). Truth for the answers is the generator's input.
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'

import { runNode } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'

const KiB = 1024
const top = await tempDir('table-memory')

for (const mode of ['probe', 'each']) {
  test(`point lookups of a list column (${mode === 'each' ? 'probeEach' : 'probe'}): 30 more probes of 450 more files ` +
    'leave the heap as it was', { timeout: 120_000 }, async (t) => {
    const child = path.join(import.meta.dirname, 'helpers', 'table-plans-child.js')
    const dir = path.join(top, mode)
    const { stdout, stderr, code } = await runNode(['--expose-gc', child, JSON.stringify({ dir, files: 600, mode })])
    assert.equal(code, 0, stderr)
    const run = JSON.parse(stdout)
    assert.deepEqual(run.wrong, [])
    const grown = run.after40 - run.after10
    t.diagnostic(`heap after 40 probes − after 10: ${(grown / KiB).toFixed(0)} KiB`)
    // Each file's lookup plan (a list's held the file's footer layout) was kept by the table: +4.8 MiB over 450 files.
    assert.ok(grown < 640 * KiB, `the heap grew ${(grown / KiB).toFixed(0)} KiB over 30 probes of files no earlier probe read`)
  })
}
