// Rounds, bytes and time of one value over 100 row groups (reads planned for round trips, js/plan/link-model.js) behind a server that waits 30 ms
// per response, running in its own process: the plan before the round model (6 in flight, 8 KiB
// coalescing), the round model with a window of 64 (where a request cost a 64th of a round whatever
// the wave's size, so each filter's header and block were joined across ~3 KB of bitset), and the
// plan now (the transport's window; a request that adds no round is free), with statistics off too
// (the ids are shuffled, so min/max keep every row group either way), interleaved, medians. The plans of
// now are also timed cold: the first open + probe of a fresh Node process (bench/lib/cold.js), one such
// process per trial, beside the warm trials.
import { fork } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { ROUNDS_ROW_GROUPS, writeRoundsFile } from '../../testkit/rounds-file.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { coldRun, summarizeCold, timeFirstCall } from '../lib/cold.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const serverScript = fileURLToPath(new URL('../lib/range-server-process.js', import.meta.url))

export const PLANS = {
  'before #13: 6 in flight, 8 KiB gaps': { concurrency: 6, coalesceGap: 8192 },
  'window 64, a request = 1/64 round': { concurrency: 64 },
  'now, statistics off (the filters alone)': { probe: { statistics: false } },
  'now: transport window, free requests': {},
}
// The plans a fresh process is timed with too, by their key in the results' `cold`.
const COLD_PLANS = { statisticsOff: 'now, statistics off (the filters alone)', now: 'now: transport window, free requests' }

/** Opens the file and probes the value with a plan; checks the answer. */
async function openAndProbe(openParquet, url, value, name) {
  const { probe = {}, ...options } = PLANS[name]
  const f = await openParquet(url, options)
  try {
    const result = await f.probe('id', [value], probe)
    if (result.rowGroups[57].results[0].verdict !== 'maybe') throw new Error(`${name}: a false negative in row group 57`)
    return f.stats
  } finally {
    await f.close()
  }
}

/** A cold case: the package imported (timed apart), then the first open + probe of this process. */
async function coldProbe({ rest }) {
  const arg = (name) => rest[rest.indexOf(name) + 1]
  const started = performance.now()
  const { openParquet } = await import('../../js/index.js')
  const importMs = performance.now() - started
  const stats = await timeFirstCall(() => openAndProbe(openParquet, arg('--url'), BigInt(arg('--value')), COLD_PLANS[arg('--plan')]))
  return { ...stats, importMs }
}

/** The range server in a process of its own, its modes applied to every request. */
export async function startServer(root, modes = ['slow:30']) {
  const child = fork(serverScript, [root, ...modes], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const { origin } = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`the range server exited (${code})`)))
  })
  return { origin, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.disconnect() }) }
}

export async function run({ quick } = {}) {
  const { openParquet } = await import('../../js/index.js')
  const { dir, remove } = await makeTempDir('bench-rounds')
  let server
  try {
    const { file, values: [value] } = await writeRoundsFile(dir, 'rounds.parquet')
    server = await startServer(dir)
    const url = `${server.origin}/${path.basename(file)}`
    const runs = Object.fromEntries(Object.keys(PLANS).map((name) => [name, []]))
    const cold = Object.fromEntries(Object.keys(COLD_PLANS).map((plan) => [plan, []]))
    const trials = quick ? 3 : 9
    for (let t = -1; t < trials; t++) { // trial -1 warms up wasm, connections and the JIT
      if (t >= 0) {
        for (const plan of Object.keys(COLD_PLANS)) cold[plan].push(await coldRun(import.meta.url, 'probe', { args: ['--url', url, '--value', String(value), '--plan', plan] }))
      }
      for (const name of Object.keys(PLANS)) {
        const cpu = process.cpuUsage()
        const started = performance.now()
        const stats = await openAndProbe(openParquet, url, value, name)
        const ms = performance.now() - started
        const used = process.cpuUsage(cpu)
        if (t >= 0) runs[name].push({ ms, cpuMs: (used.user + used.system) / 1000, ...stats })
      }
    }
    return {
      rowGroups: ROUNDS_ROW_GROUPS, trials, responseDelayMs: 30,
      plans: Object.entries(runs).map(([name, list]) => ({
        plan: name, rounds: median(list.map((r) => r.rounds)), requests: median(list.map((r) => r.requests)),
        bytes: median(list.map((r) => r.bytesFetched)), ms: median(list.map((r) => r.ms)), minMs: Math.min(...list.map((r) => r.ms)),
        cpuMs: median(list.map((r) => r.cpuMs)),
        cold: Object.entries(COLD_PLANS).filter(([, n]) => n === name).map(([plan]) => ({
          ...summarizeCold(cold[plan]), importMs: median(cold[plan].map((r) => r.importMs)),
          requests: median(cold[plan].map((r) => r.requests)), bytes: median(cold[plan].map((r) => r.bytesFetched)), rounds: median(cold[plan].map((r) => r.rounds)),
        }))[0],
      })),
    }
  } finally {
    await server?.stop()
    await remove()
  }
}

runIfMain(import.meta.url, run, { probe: coldProbe })
