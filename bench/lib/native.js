// Runs the Google Benchmark binary of bench/native (the same C++ core built for the host) and reduces
// its JSON to medians per benchmark: ns/value for the batched checks, ms for the footer decoder.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'

import { median } from './timing.js'

const run = promisify(execFile)

const UNIT_NS = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }

/**
 * @param {string} binary build/bench/pb_bench
 * @param {{ repetitions: number, minTime: number, footerPath?: string }} options
 * @returns {Promise<{ context: object, samples: Record<string, { realNs: number[], cpuNs: number[], values?: number, bytes?: number }> } | null>}
 */
export async function runNative(binary, { repetitions, minTime, footerPath }) {
  if (!existsSync(binary)) return null
  const args = ['--benchmark_format=json', `--benchmark_repetitions=${repetitions}`, `--benchmark_min_time=${minTime}`,
    '--benchmark_enable_random_interleaving=true']
  if (!footerPath) args.push('--benchmark_filter=CheckBatch')
  const { stdout } = await run(binary, args, { maxBuffer: 64 << 20, env: { ...process.env, PB_BENCH_FOOTER: footerPath ?? '' } })
  const report = JSON.parse(stdout)
  const samples = {}
  for (const b of report.benchmarks) {
    if (b.run_type !== 'iteration' || b.error_occurred) continue
    const name = b.run_name ?? b.name
    const s = (samples[name] ??= { realNs: [], cpuNs: [] })
    s.realNs.push(b.real_time * UNIT_NS[b.time_unit ?? 'ns'])
    s.cpuNs.push(b.cpu_time * UNIT_NS[b.time_unit ?? 'ns'])
    if (b.values !== undefined) s.values = b.values
    if (b.bytes !== undefined) s.bytes = b.bytes
  }
  return { context: report.context, samples }
}

/** Merges the samples of several runs and takes medians: { name: { realNs, cpuNs, nsPerValue?, runs } }. */
export function summarizeNative(runs) {
  const merged = {}
  for (const r of runs) {
    if (!r) continue
    for (const [name, s] of Object.entries(r.samples)) {
      const m = (merged[name] ??= { realNs: [], cpuNs: [], values: s.values, bytes: s.bytes })
      m.realNs.push(...s.realNs)
      m.cpuNs.push(...s.cpuNs)
    }
  }
  return Object.fromEntries(Object.entries(merged).map(([name, m]) => {
    const realNs = median(m.realNs)
    const cpuNs = median(m.cpuNs)
    const out = { realNs, cpuNs, samples: m.realNs.length }
    if (m.values) {
      out.nsPerValue = realNs / m.values
      out.cpuNsPerValue = cpuNs / m.values
    }
    if (m.bytes) out.footerBytes = m.bytes
    return [name, out]
  }))
}
