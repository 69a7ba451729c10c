// Runs the mutation fuzzer (./mutation-fuzzer.js runFuzz) in a worker thread, watched from the calling
// thread, so that a hang or a crash of the wasm instance becomes a finding instead of a stuck test.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

import { runFuzz } from './mutation-fuzzer.js'

/**
 * runFuzz in a worker thread, watched from here: a synchronous hang (no progress for hangMs) or a crash
 * of the worker (out of memory, a wasm trap that kills it) becomes a finding naming the iteration, in a
 * report marked `broken` (iteration -1 when the worker died before its first iteration).
 */
export function runFuzzInWorker(options, { hangMs = 20000, onProgress } = {}) {
  const progress = new Int32Array(new SharedArrayBuffer(8))
  progress[0] = -1
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { hostileCorpusFuzz: { ...options, progress } },
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  })
  return new Promise((resolve) => {
    let settled = false
    let last = -1
    let lastChange = performance.now()
    const finish = (report) => {
      if (settled) return
      settled = true
      clearInterval(watchdog)
      resolve(report)
    }
    const broken = (why) => {
      const i = Atomics.load(progress, 0)
      finish({ seed: options.seed, broken: true, iterations: Math.max(0, i - (options.start ?? 0)), findings: [{ iteration: i, message: `iteration ${i} (seed ${options.seed}): ${why}` }], findingCount: 1, outcomes: {}, verdicts: {}, kinds: {} })
    }
    const watchdog = setInterval(() => {
      const at = Atomics.load(progress, 0)
      if (at !== last) {
        last = at
        lastChange = performance.now()
        onProgress?.(at)
      } else if (performance.now() - lastChange > hangMs) {
        worker.terminate()
        broken(`no progress for ${hangMs} ms (a synchronous hang)`)
      }
    }, 250)
    worker.on('message', (message) => finish(message))
    worker.on('error', (error) => broken(`the worker died: ${error?.stack ?? error}`))
    worker.on('exit', (code) => broken(`the worker exited with code ${code} before reporting`))
  })
}

if (!isMainThread && workerData?.hostileCorpusFuzz) {
  parentPort.postMessage(await runFuzz(workerData.hostileCorpusFuzz))
}
