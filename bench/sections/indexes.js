// The index work, measured (issues #12 and #13): statistics checks per value for 1M-value batches
// (sort keys once, then one typed pass per row group), and one value over 100 row groups behind a
// local server that waits 30 ms per response, planned the old way (6 in flight, 8 KiB coalescing, no
// round model) and the new way (the transport's window, merges that save rounds), interleaved, with
// rounds, requests, bytes and wall time side by side.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { openParquet } from '../../js/index.js'
import { excludedByBounds, sortKeys, sortOrderFor } from '../../js/statistics.js'
import { startTestServer } from '../../tests/js/helpers/range-server.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function statisticsThroughput(quick) {
  const n = quick ? 200_000 : 1_000_000
  const trials = quick ? 3 : 7
  const cases = [
    ['INT64', { physicalType: 'INT64', logicalType: null }, Array.from({ length: n }, (_, i) => BigInt(i * 7919 % 10_000_000)), [1000n, 5_000_000n]],
    ['DOUBLE', { physicalType: 'DOUBLE', logicalType: null }, Array.from({ length: n }, (_, i) => (i * 7919) % 10_000_000 / 3), [1000, 1_000_000]],
    ['STRING (8 B)', { physicalType: 'BYTE_ARRAY', logicalType: { type: 'STRING' } }, Array.from({ length: n }, (_, i) => `k${String(i).padStart(7, '0')}`),
      [new TextEncoder().encode('k0100000'), new TextEncoder().encode('k0500000')]],
  ]
  return cases.map(([label, column, candidates, [min, max]]) => {
    const order = sortOrderFor(column)
    const keyTimes = []
    const checkTimes = []
    for (let t = 0; t < trials; t++) {
      let started = performance.now()
      const keys = sortKeys(order, candidates)
      keyTimes.push(performance.now() - started)
      started = performance.now()
      excludedByBounds(order, keys, min, max)
      checkTimes.push(performance.now() - started)
    }
    return { case: label, values: n, keysNsPerValue: (median(keyTimes) * 1e6) / n, checkNsPerValue: (median(checkTimes) * 1e6) / n }
  })
}

async function roundsOldAndNew(dir, quick) {
  const { DuckDBInstance } = await import('@duckdb/node-api')
  const file = path.join(dir, 'rounds.parquet')
  const db = await DuckDBInstance.create(':memory:')
  const conn = await db.connect()
  let value
  try {
    await conn.run(`COPY (SELECT (hash(i) // 2)::BIGINT AS id, i::BIGINT AS row_id FROM range(${100 * 2048}) t(i)) TO '${file}'
      (FORMAT parquet, ROW_GROUP_SIZE 2048, DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
    value = (await conn.runAndReadAll(`SELECT (hash(${57 * 2048 + 5}::BIGINT) // 2)::BIGINT AS id`)).getRowObjects()[0].id
  } finally {
    conn.closeSync?.()
    db.closeSync?.()
  }
  const server = await startTestServer({ root: dir })
  server.setMode('slow:30')
  const plans = {
    // What the scheduler did before: six in flight, ranges within 8 KiB joined, nothing else.
    old: { open: { concurrency: 6, coalesceGap: 8192 }, probe: {} },
    new: { open: {}, probe: {} },
  }
  const runs = { old: [], new: [] }
  try {
    for (let t = 0; t < (quick ? 2 : 5); t++) {
      for (const [name, plan] of Object.entries(plans)) {
        const started = performance.now()
        const f = await openParquet(server.url('rounds.parquet'), plan.open)
        try {
          await f.probe('id', [value], { ...plan.probe, statistics: false })
          runs[name].push({ ms: performance.now() - started, ...f.stats })
        } finally {
          await f.close()
        }
      }
    }
  } finally {
    await server.close()
  }
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, {
    rounds: median(list.map((r) => r.rounds)), requests: median(list.map((r) => r.requests)),
    bytes: median(list.map((r) => r.bytesFetched)), ms: median(list.map((r) => r.ms)),
  }]))
}

runIfMain(import.meta.url, async ({ quick }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pb-bench-indexes-'))
  try {
    return { statistics: statisticsThroughput(quick), rounds: await roundsOldAndNew(dir, quick) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
