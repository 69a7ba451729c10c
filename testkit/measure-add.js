// One addIndexes run measured in a child process of its own (the bench's index-builder section and the
// bounded-memory test share it): wall and CPU time, and memory above the child's start — the kernel's peak
// RSS (getrusage maxRSS) above the RSS just before the copy, which counts everything the process holds
// (JS heap, ArrayBuffers, every wasm memory, native buffers) with no sampling gap, and JS heap + external
// sampled every 10 ms beside it. The child's young generation is held to 2 MiB unless other flags are
// given, so that garbage V8 has not yet collected (16 MiB semi-spaces by default) does not count as memory
// the copy holds.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)

/**
 * @returns {{ ms: number, cpuMs: number, filters: number, filterBytes: number, baselineRssBytes: number,
 *   peakAboveStartBytes: number, heldPeakAboveStartBytes: number }}
 */
export function measureAddInChild(input, output, column, flags = ['--max-semi-space-size=2']) {
  const out = execFileSync(process.execPath, [...flags, here, input, output, column], { encoding: 'utf8', maxBuffer: 1 << 20 })
  return JSON.parse(out)
}

async function addOnce(input, output, column) {
  const { init } = await import('../js/index.js')
  const { addIndexes } = await import('../js/index-builder/index.js')
  await init()
  const held = () => { const m = process.memoryUsage(); return m.heapUsed + m.external }
  const baseline = process.memoryUsage().rss
  const heldBaseline = held()
  let peak = baseline
  let heldPeak = heldBaseline
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
    heldPeak = Math.max(heldPeak, held())
  }, 10)
  const started = performance.now()
  const cpuStart = process.cpuUsage()
  const result = await addIndexes(input, output, { columns: [column], replace: true })
  const ms = performance.now() - started
  const cpu = process.cpuUsage(cpuStart)
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024) // maxRSS: KiB
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, filters: result.added.length, filterBytes: result.added.reduce((n, a) => n + a.length, 0),
    baselineRssBytes: baseline, peakAboveStartBytes: peak - baseline, heldPeakAboveStartBytes: heldPeak - heldBaseline }
}

if (process.argv[1] === here) {
  const [, , input, output, column] = process.argv
  addOnce(input, output, column).then((r) => { process.stdout.write(JSON.stringify(r)); process.exit(0) }, (e) => { console.error(e); process.exit(1) })
}
