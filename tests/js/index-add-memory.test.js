// index add keeps memory bounded whatever the file's size: the copy streams in bounded windows and each
// chunk is decoded and filtered on its own, so a 400 MB input takes about what a 100 MB one does. Each run
// is a child process of its own (testkit/measure-add.js: the kernel's peak RSS above the RSS just
// before the copy), on DuckDB files written here (random INT64s, and ~12-byte PLAIN strings; snappy,
// DuckDB's 122,880-row groups) and removed after. The 1 GB run is `npm run bench` (bench/sections/index-builder.js).
import assert from 'node:assert/strict'
import { rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { measureAddInChild } from '../../testkit/measure-add.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const MiB = 1 << 20
const dir = await tempDir('index-add-memory')

// Each case: a 100 MB and a 400 MB input (rows for each), and the SELECT writing them.
const CASES = [
  { label: 'INT64', column: 'id', rows: [13_000_000, 52_000_000], select: (rows) => `SELECT (hash(i) >> 1)::BIGINT AS id FROM range(${rows}) t(i)` },
  // PLAIN strings of ~12 bytes (too many distinct values for DuckDB's dictionary): a page's values copied
  // behind offsets, the case whose page-sized garbage once took the copy past 64 MiB.
  { label: 'string', column: 'name', rows: [9_500_000, 38_000_000], select: (rows) => `SELECT 'u' || (hash(i) % 100000000000)::VARCHAR AS name FROM range(${rows}) t(i)` },
]

for (const { label, column, rows: sizes, select } of CASES) {
  test(`index add, ${label} column: peak memory of a 400 MB input is about that of a 100 MB one, both under 64 MiB`, { timeout: 240_000 }, async (t) => {
    const runs = []
    for (const rows of sizes) {
      const input = path.join(dir, `${column}-${rows}.parquet`)
      const output = path.join(dir, `${column}-${rows}-indexed.parquet`)
      await withDuckDB((connection) => connection.run(`COPY (${select(rows)}) TO '${input}' (FORMAT parquet, COMPRESSION snappy)`))
      const inputBytes = statSync(input).size
      try {
        const run = measureAddInChild(input, output, column)
        assert.equal(run.filters, Math.ceil(rows / 122_880), 'a filter for every row group')
        runs.push({ inputBytes, ...run })
      } finally {
        rmSync(input, { force: true })
        rmSync(output, { force: true })
      }
    }
    const [small, large] = runs
    t.diagnostic(runs.map((r) => `${(r.inputBytes / 1e6).toFixed(0)} MB: peak RSS +${(r.peakAboveStartBytes / MiB).toFixed(1)} MiB, JS heap + external +${(r.heldPeakAboveStartBytes / MiB).toFixed(1)} MiB, ${(r.inputBytes / MiB / (r.cpuMs / 1000)).toFixed(0)} MB/s of CPU`).join('; '))
    assert.ok(large.inputBytes > 3.5 * small.inputBytes)
    for (const r of runs) assert.ok(r.peakAboveStartBytes <= 64 * MiB, `${r.inputBytes} bytes: peak RSS ${r.peakAboveStartBytes} above start`)
    // Four times the input, not four times the memory: at most 1.5 × plus 8 MiB for the collector's timing.
    assert.ok(large.peakAboveStartBytes <= 1.5 * small.peakAboveStartBytes + 8 * MiB, `peak RSS above start: ${small.peakAboveStartBytes} for 100 MB, ${large.peakAboveStartBytes} for 400 MB`)
  })
}
