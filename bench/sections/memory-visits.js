// Bounded memory: 10,000 visits of 1 MiB filters through openParquet + visitBloomFilter (the real read
// path) with 8 visits in flight, over a synthetic ~10 GB file served from a template. Wasm memory must
// stay near concurrency × filter size and must not grow from the first thousand visits to the last.
import { BloomFilter, init, memoryStats, openParquet } from '../../js/index.js'
import { runIfMain } from '../lib/section.js'
import { syntheticFilterFile } from '../lib/synthetic-parquet.js'

const FILTER_BYTES = 1 << 20
const IN_FLIGHT = 8
const MiB = 1 << 20

export async function run({ quick }) {
  await init()
  const visits = quick ? 2000 : 10000
  const window = visits / 10
  const baseline = memoryStats()

  // The template: a 1 MiB filter holding 0..99,999, so in-visit checks see hits and misses.
  const template = BloomFilter.create({ numBytes: FILTER_BYTES })
  template.insert(BigInt64Array.from({ length: 100000 }, (_, i) => BigInt(i)), 'INT64') // streamed: no scratch growth
  const bitset = template.bitset()
  template.free()
  const probe = BigInt64Array.from({ length: 64 }, (_, i) => BigInt(i * 3001))

  const source = syntheticFilterFile({ rowGroups: visits, bitset })
  const file = await openParquet(source)
  const afterOpen = memoryStats()
  const perVisit = new Float64Array(visits) // heapBytes observed inside each visit
  const poolPerVisit = new Float64Array(visits)
  let next = 0
  let maybeTotal = 0
  let peakArrayBuffers = 0
  const started = performance.now()
  const worker = async () => {
    while (next < visits) {
      const g = next++
      // The callback awaits between two checks, as user code doing I/O inside a visit would: then up
      // to 8 filters are alive in wasm at once, the case the memory target is about.
      await file.visitBloomFilter(g, 'id', async (filter) => {
        for (const a of filter.check(probe, 'INT64')) maybeTotal += a
        await new Promise((resolve) => setImmediate(resolve))
        filter.check(probe, 'INT64')
        const s = memoryStats()
        perVisit[g] = s.heapBytes
        poolPerVisit[g] = s.poolInUseBytes
      })
      if (g % 50 === 0) peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers)
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  const elapsedMs = performance.now() - started
  const final = memoryStats()
  const stats = file.stats
  await file.close()

  const max = (a, from, to) => a.subarray(from, to).reduce((m, v) => Math.max(m, v), 0)
  return {
    visits,
    inFlight: IN_FLIGHT,
    filterBytes: FILTER_BYTES,
    fileBytes: source.byteLength,
    elapsedMs,
    msPerVisit: elapsedMs / visits,
    maybeAnswers: maybeTotal,
    requests: stats.requests,
    bytesFetched: stats.bytesFetched,
    heapBytes: {
      atStart: baseline.heapBytes,
      afterOpen: afterOpen.heapBytes,
      peak: max(perVisit, 0, visits),
      firstWindowPeak: max(perVisit, 0, window),
      lastWindowPeak: max(perVisit, visits - window, visits),
      final: final.heapBytes,
    },
    poolInUseBytes: {
      peak: max(poolPerVisit, 0, visits),
      firstWindowPeak: max(poolPerVisit, 0, window),
      lastWindowPeak: max(poolPerVisit, visits - window, visits),
      final: final.poolInUseBytes,
    },
    poolHeldBytesFinal: final.poolBytes,
    window,
    processArrayBuffersPeak: peakArrayBuffers,
    target: { peakHeapBytes: IN_FLIGHT * MiB + 4 * MiB },
  }
}

runIfMain(import.meta.url, run)
