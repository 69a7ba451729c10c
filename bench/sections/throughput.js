// Batched check throughput (ns/value) through the public JS API against a 1 MiB filter, next to the two
// JS peers' per-value paths on the same values, interleaved trial by trial. Native numbers come from
// bench/native (see run.js); this section reports the JS side only.
import xxhashWasm from 'xxhash-wasm'

import { BloomFilter, init } from '../../js/index.js'
import { CASES, rng } from '../lib/cases.js'
import { runIfMain } from '../lib/section.js'
import { calibrate, interleave } from '../lib/timing.js'

export const SIZES = [64, 1024, 100000, 1000000]
export const FILTER_BYTES = 1 << 20

export async function run({ quick }) {
  await init()
  const xxh = await xxhashWasm()
  const trials = quick ? 5 : 9
  const targetMs = quick ? 10 : 25
  // Per-value peers cost the same per value at any batch size; past this many values a trial times a
  // prefix of the batch (the INT64 × 1,000,000 headline is always timed whole outside --quick).
  const peerCap = quick ? 20000 : 100000
  const results = []
  for (const c of CASES) {
    for (const n of SIZES) {
      const built = c.build(n, rng(0x5eed ^ n))
      const filter = BloomFilter.create({ numBytes: FILTER_BYTES })
      try {
        filter.insert(built.inserted, built.insertType ?? built.type)
        const bitset = filter.bitset()
        const blocks = new Uint32Array(bitset.buffer, bitset.byteOffset, bitset.length >> 2)
        const whole = !quick && c.native === 'INT64' && n === 1000000
        const m = whole ? n : Math.min(n, peerCap)
        const hyparquetOut = new Uint8Array(m)
        const xxhashOut = new Uint8Array(m)
        let answers
        const ours = () => { answers = filter.check(built.input, built.type) }
        const hyparquet = () => built.hyparquet(blocks, hyparquetOut, m)
        const xxhash = () => built.xxhash(xxh, blocks, xxhashOut, m)
        const contenders = {
          ours: { fn: ours, reps: calibrate(ours, { targetMs, warmupMs: Math.max(targetMs, 150), minReps: n <= 64 ? 10000 : 1 }) },
          hyparquet: { fn: hyparquet, reps: calibrate(hyparquet, { targetMs, minReps: n <= 64 ? 1000 : 1 }) },
          xxhashWasm: { fn: xxhash, reps: calibrate(xxhash, { targetMs, minReps: n <= 64 ? 1000 : 1 }) },
        }
        // The three must give identical answers (all are exact SBBF checks): otherwise the timing is of different work.
        const agree = sameAnswers(answers, hyparquetOut, m) && sameAnswers(answers, xxhashOut, m)
        const timed = interleave(contenders, trials)
        const maybe = answers.reduce((k, a) => k + (a === 1), 0)
        results.push({
          case: c.name, native: c.native, n, peerValues: m, trials, agree, maybeFraction: maybe / n,
          ours: { ...perValue(timed.ours, n), nsPerCall: timed.ours.msPerCall * 1e6, cpuNsPerCall: timed.ours.cpuMsPerCall * 1e6, callsPerTrial: contenders.ours.reps },
          hyparquet: perValue(timed.hyparquet, m),
          xxhashWasm: perValue(timed.xxhashWasm, m),
        })
        if (!agree) console.error(`throughput: ${c.name} × ${n}: the contenders' answers differ`)
      } finally {
        filter.free()
      }
    }
  }
  return { filterBytes: FILTER_BYTES, sizes: SIZES, results }
}

const perValue = (t, values) => ({ nsPerValue: (t.msPerCall * 1e6) / values, cpuNsPerValue: (t.cpuMsPerCall * 1e6) / values })

function sameAnswers(ours, peer, m) {
  for (let i = 0; i < m; i++) if (ours[i] !== peer[i]) return false
  return true
}

runIfMain(import.meta.url, run)
