// The index work, measured (statistics, page index, dictionary and bloom reads in one plan): statistics checks per value for 1M-value batches (sort keys
// once, then one typed pass per row group). Rounds and bytes of remote probes are bench/sections/rounds.js.
import { excludedByBounds, sortKeys, sortOrderFor } from '../../js/indexes/statistics.js'
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

runIfMain(import.meta.url, async ({ quick }) => ({ statistics: statisticsThroughput(quick) }))
