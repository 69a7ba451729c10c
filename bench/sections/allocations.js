// Allocations per warm batched call, counted by the wasm module itself (allocationCount(): the pool's
// system allocations + every C++ operator new), for check() and insert() of every throughput case.
import { BloomFilter, init } from '../../js/index.js'
import { getCore } from '../../js/wasm/core.js'
import { CASES, rng } from '../lib/cases.js'
import { runIfMain } from '../lib/section.js'

const CALLS = 50

export async function run({ quick }) {
  await init()
  const core = getCore()
  const sizes = quick ? [1024] : [64, 1024, 100000]
  const results = []
  for (const c of CASES) {
    for (const n of sizes) {
      const built = c.build(n, rng(0xa110c ^ n))
      const filter = BloomFilter.create({ numBytes: 1 << 20 })
      const insertType = built.insertType ?? built.type
      try {
        // Warm-up: the module's first batch call makes the pool allocate the core's chunk scratch,
        // cached from then on (counted too, as evidence that the counter does count).
        const cold = core.native.allocationCount()
        for (let i = 0; i < 3; i++) {
          filter.insert(built.inserted, insertType)
          filter.check(built.input, built.type)
        }
        const before = core.native.allocationCount()
        const warmUpAllocations = before - cold
        for (let i = 0; i < CALLS; i++) filter.check(built.input, built.type)
        const afterCheck = core.native.allocationCount()
        for (let i = 0; i < CALLS; i++) filter.insert(built.inserted, insertType)
        const afterInsert = core.native.allocationCount()
        results.push({ case: c.name, n, calls: CALLS, warmUpAllocations, checkAllocationsPerCall: (afterCheck - before) / CALLS, insertAllocationsPerCall: (afterInsert - afterCheck) / CALLS })
      } finally {
        filter.free()
      }
    }
  }
  return { calls: CALLS, results }
}

runIfMain(import.meta.url, run)
