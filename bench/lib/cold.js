// Cold figures beside the warm ones: the first call of a case in a fresh Node process, which is what a
// user sees (a CLI run, a serverless invocation, nearly every probe of a browser page). A section names
// its cold cases to runIfMain (bench/lib/section.js); measureCold starts the section's own file again as
// a child with `--cold <case>`, which runs that case once and reports its time. Nothing of the case runs
// in the child before the measured call: the wasm module is not loaded, no JS of the path is compiled,
// no connection is open — unless the case says otherwise (`setup`, untimed).
import { spawn } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { median } from './timing.js'

/**
 * Times `fn`, run once: wall-clock and process CPU milliseconds (CPU includes V8's compiler and GC threads).
 * What `fn` returns is merged into the result (counts, checks), its own `ms` excepted.
 * @template {object} T
 * @param {() => Promise<T> | T} fn
 * @returns {Promise<T & { ms: number, cpuMs: number }>}
 */
export async function timeFirstCall(fn) {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const extra = await fn()
  const ms = performance.now() - start
  const used = process.cpuUsage(cpu)
  return { ...extra, ms, cpuMs: (used.user + used.system) / 1000 }
}

/**
 * One fresh process running `case` of the section at `moduleUrl` once; resolves to what the case returned.
 * @param {string} moduleUrl the section's import.meta.url
 * @param {string} name the cold case
 * @param {{ args?: string[], nodeArgs?: string[] }} [options] args: after `--cold name` (what the case needs: a URL, a file)
 */
export async function coldRun(moduleUrl, name, { args = [], nodeArgs = [] } = {}) {
  const out = path.join(os.tmpdir(), `pb-cold-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`)
  const file = fileURLToPath(moduleUrl)
  try {
    await new Promise((resolve, reject) => {
      // Asynchronous, so a server the parent runs in its own event loop keeps answering the child.
      const child = spawn(process.execPath, [...nodeArgs, file, '--cold', name, '--out', out, ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
      child.once('error', reject)
      child.once('exit', (code, signal) => (code === 0 ? resolve(undefined) : reject(new Error(`cold case ${name} of ${path.basename(file)} exited with ${signal ?? code}`))))
    })
    return JSON.parse(await readFile(out, 'utf8'))
  } finally {
    await rm(out, { force: true })
  }
}

/**
 * Summarises cold runs of one case: median and best wall-clock ms, median CPU ms, and every run's ms.
 * @param {Array<{ ms: number, cpuMs: number }>} runs
 */
export function summarizeCold(runs) {
  return { ms: median(runs.map((r) => r.ms)), minMs: Math.min(...runs.map((r) => r.ms)), cpuMs: median(runs.map((r) => r.cpuMs)), runs: runs.length, runsMs: runs.map((r) => r.ms) }
}

/**
 * `runs` fresh processes of one case, one after another (interleave them with warm trials by calling
 * coldRun yourself where the section's trials allow), summarised.
 * @param {string} moduleUrl
 * @param {string} name
 * @param {{ runs: number, args?: string[], nodeArgs?: string[] }} options
 */
export async function measureCold(moduleUrl, name, { runs, ...options }) {
  const list = []
  for (let k = 0; k < runs; k++) list.push(await coldRun(moduleUrl, name, options))
  return summarizeCold(list)
}
