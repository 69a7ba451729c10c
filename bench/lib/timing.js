// Timing helpers shared by the sections: medians of interleaved trials (A, B, A, B… so load drifts on a
// noisy 2-core machine hit every contender alike), with calls batched so the timer cost disappears.
import { performance } from 'node:perf_hooks'

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Milliseconds for `reps` back-to-back calls of fn. */
export function timeCalls(fn, reps) {
  const start = performance.now()
  for (let r = 0; r < reps; r++) fn()
  return performance.now() - start
}

/**
 * How many calls make one trial last about targetMs (at least minReps), from a calibration run that
 * also serves as warm-up (V8 tiers wasm up from Liftoff to TurboFan and JS up to TurboFan): it runs
 * for warmupMs and at least minCalls calls.
 */
export function calibrate(fn, { targetMs, minReps = 1, warmupMs = targetMs, minCalls = 2 }) {
  let reps = 1
  let calls = 0
  let spent = 0
  let perCall = Infinity
  while (spent < warmupMs || calls < minCalls) {
    const ms = timeCalls(fn, reps)
    calls += reps
    spent += ms
    perCall = Math.min(perCall, ms / reps)
    if (ms < targetMs / 4) reps *= 2
  }
  return Math.max(minReps, Math.ceil(targetMs / Math.max(perCall, 1e-6)))
}

/**
 * Runs every contender `trials` times, interleaved (the order rotates each round), and returns per
 * contender the median wall-clock milliseconds per call, the median process CPU milliseconds per call
 * (user + system: less sensitive to other processes taking the cores, but it includes V8's helper
 * threads), and every trial's wall-clock value.
 * @param {Record<string, { fn: () => void, reps: number }>} contenders
 */
export function interleave(contenders, trials) {
  const names = Object.keys(contenders)
  const wall = Object.fromEntries(names.map((n) => [n, []]))
  const cpu = Object.fromEntries(names.map((n) => [n, []]))
  for (let t = 0; t < trials; t++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(t + k) % names.length]
      const { fn, reps } = contenders[name]
      const cpuStart = process.cpuUsage()
      const ms = timeCalls(fn, reps)
      const used = process.cpuUsage(cpuStart)
      wall[name].push(ms / reps)
      cpu[name].push((used.user + used.system) / 1000 / reps)
    }
  }
  return Object.fromEntries(names.map((n) => [n, { msPerCall: median(wall[n]), cpuMsPerCall: median(cpu[n]), trialsMsPerCall: wall[n] }]))
}

/** Milliseconds of one async run. */
export async function timeAsync(fn) {
  const start = performance.now()
  await fn()
  return performance.now() - start
}
