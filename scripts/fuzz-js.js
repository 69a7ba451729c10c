#!/usr/bin/env node
// `npm run fuzz:js`: the JS mutation fuzzer of tests/js/fuzz-probe.test.js for as long as asked. Mutated
// sample files go through openParquet + probe + visitBloomFilter in worker threads watched for hangs and
// crashes; findings are written to the output directory with the command that replays them.
//
//   node scripts/fuzz-js.js [--minutes 10 | --duration 90s|10m|1h] [--iterations N] [--seed S] [--jobs J] [--out DIR]
//                           [--hyparquet-only]       (without the DuckDB-written file, as `npm test` runs it)
//   node scripts/fuzz-js.js --seed S --replay I      re-runs iteration I of seed S here and saves its file
// A run is reproducible from its seed (and --hyparquet-only): iteration i is the same input on every run.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import { runFuzzInWorker } from '../testkit/fuzz-worker.js'
import { buildFuzzBases, describeInput, fuzzInput, runFuzzIteration } from '../testkit/mutation-fuzzer.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CHUNK_ITERATIONS = 50000 // a fresh worker (and wasm instance) per chunk, so one crash costs little
const PROGRESS_EVERY_MS = 30000

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    duration: { type: 'string' },
    iterations: { type: 'string' },
    seed: { type: 'string' },
    jobs: { type: 'string', default: '1' },
    out: { type: 'string', default: path.join(root, 'build', 'fuzz-js') },
    replay: { type: 'string' },
    'hyparquet-only': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
})

if (args.help) {
  console.log(`usage: node scripts/fuzz-js.js [--minutes M | --duration 90s|10m|1h] [--iterations N] [--seed S] [--jobs J] [--out DIR] [--hyparquet-only]
       node scripts/fuzz-js.js --seed S --replay I [--hyparquet-only]`)
  process.exit(0)
}
if (!existsSync(path.join(root, 'js', 'wasm', 'parquet_bloom.wasm'))) {
  console.error('js/wasm/parquet_bloom.wasm is missing: build it first (bash scripts/build.sh wasm)')
  process.exit(2)
}

const seed = args.seed !== undefined ? Number(args.seed) : Date.now() % 2 ** 31
const duckdb = !args['hyparquet-only']
const replayFlags = duckdb ? '' : ' --hyparquet-only'
if (!Number.isSafeInteger(seed) || seed < 0) fail(`--seed must be a non-negative integer, got ${args.seed}`)
const workDir = await mkdtemp(path.join(os.tmpdir(), 'pb-fuzz-js-'))
try {
  if (args.replay !== undefined) await replay(Number(args.replay))
  else process.exitCode = await fuzz()
} finally {
  await rm(workDir, { recursive: true, force: true })
}

async function replay(i) {
  if (!Number.isSafeInteger(i) || i < 0) fail(`--replay must be an iteration number, got ${args.replay}`)
  const bases = await buildFuzzBases(path.join(workDir, 'bases'), { duckdb })
  const input = fuzzInput(bases, seed, i)
  await mkdir(args.out, { recursive: true })
  const file = path.join(args.out, `seed-${seed}-iteration-${i}.parquet`)
  await writeFile(file, input.mutation.bytes)
  console.log(`iteration ${i} of seed ${seed}: ${describeInput(input)}\n  file: ${file} (${input.mutation.bytes.length} bytes)`)
  try {
    const { outcome, reasons } = await runFuzzIteration(bases, seed, i)
    console.log(`  outcome: ${outcome}; verdicts: ${[...(reasons ?? [])].join(', ') || '-'}`)
  } catch (error) {
    console.log(`  FINDING: ${error?.message ?? error}`)
    process.exitCode = 1
  }
}

async function fuzz() {
  const durationMs = parseDuration()
  const maxIterations = args.iterations !== undefined ? Number(args.iterations) : Infinity
  const jobs = Number(args.jobs)
  if (!Number.isInteger(jobs) || jobs < 1) fail(`--jobs must be a positive integer, got ${args.jobs}`)
  const deadline = performance.now() + durationMs
  console.log(`fuzz:js — seed ${seed}${jobs > 1 ? `..${seed + jobs - 1}` : ''}${duckdb ? '' : ' (hyparquet only)'}, ${Number.isFinite(durationMs) ? `${Math.round(durationMs / 1000)} s` : 'no time limit'}` +
    `${Number.isFinite(maxIterations) ? `, at most ${maxIterations} iterations per job` : ''}, findings in ${args.out}`)

  const totals = { iterations: 0, findings: [], outcomes: {}, verdicts: {}, kinds: {}, healthChecks: 0, maxHeap: 0 }
  const live = new Array(jobs).fill(0)
  const startedAt = performance.now()
  const progress = setInterval(() => {
    const done = totals.iterations + live.reduce((a, b) => a + b, 0)
    const seconds = (performance.now() - startedAt) / 1000
    console.log(`  ${Math.round(seconds)} s: ${done} iterations (${Math.round(done / seconds)}/s), ${totals.findings.length} findings`)
  }, PROGRESS_EVERY_MS)

  await Promise.all(Array.from({ length: jobs }, async (_, j) => {
    const jobSeed = seed + j
    let start = 0
    while (start < maxIterations && performance.now() < deadline) {
      const chunkStart = start
      const report = await runFuzzInWorker({
        seed: jobSeed, start, iterations: Math.min(CHUNK_ITERATIONS, maxIterations - start), durationMs: deadline - performance.now(),
        dir: path.join(workDir, `job-${j}`), saveDir: args.out, duckdb,
      }, { onProgress: (at) => { live[j] = at - chunkStart } })
      live[j] = 0
      merge(totals, report, jobSeed)
      if (report.broken) {
        // A hang or crash ended the worker at an iteration: carry on after it with a fresh one.
        const at = report.findings[0].iteration
        if (at < start) break // it died while setting up: nothing to carry on from
        start = at + 1
      } else {
        if (report.iterations === 0) break
        start += report.iterations
      }
    }
  }))
  clearInterval(progress)

  const seconds = (performance.now() - startedAt) / 1000
  console.log(`\n${totals.iterations} iterations in ${Math.round(seconds)} s (${Math.round(totals.iterations / seconds)}/s), ` +
    `${totals.healthChecks} health checks, wasm heap at most ${(totals.maxHeap / 2 ** 20).toFixed(0)} MiB`)
  console.log(`mutations: ${format(totals.kinds)}`)
  console.log(`outcomes:  ${format(totals.outcomes)}`)
  console.log(`verdicts:  ${format(totals.verdicts)}`)
  if (totals.findings.length === 0) {
    console.log('no findings')
    return 0
  }
  await saveBrokenReproducers(totals.findings)
  console.log(`\n${totals.findings.length} findings:`)
  for (const f of totals.findings) {
    console.log(`- ${f.message.split('\n')[0].slice(0, 2000)}\n  replay: node scripts/fuzz-js.js --seed ${f.seed} --replay ${f.iteration}${replayFlags}`)
  }
  return 1
}

function merge(totals, report, jobSeed) {
  totals.iterations += report.iterations ?? 0
  totals.healthChecks += report.healthChecks ?? 0
  totals.maxHeap = Math.max(totals.maxHeap, report.heapEnd ?? 0)
  for (const key of ['outcomes', 'verdicts', 'kinds']) {
    for (const [k, n] of Object.entries(report[key] ?? {})) totals[key][k] = (totals[key][k] ?? 0) + n
  }
  for (const f of report.findings ?? []) totals.findings.push({ ...f, seed: jobSeed })
}

// A worker that hung or died could not save its input; rebuild it here.
async function saveBrokenReproducers(findings) {
  let bases
  for (const f of findings) {
    const file = path.join(args.out, `seed-${f.seed}-iteration-${f.iteration}.parquet`)
    if (existsSync(file)) continue
    bases ??= await buildFuzzBases(path.join(workDir, 'reproducers'), { duckdb })
    await mkdir(args.out, { recursive: true })
    await writeFile(file, fuzzInput(bases, f.seed, f.iteration).mutation.bytes)
  }
}

function parseDuration() {
  if (args.minutes !== undefined) return Number(args.minutes) * 60000
  if (args.duration !== undefined) {
    const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(args.duration.trim())
    if (!m) fail(`--duration must look like 90s, 10m or 1h, got ${args.duration}`)
    return Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] ?? 's']
  }
  return args.iterations !== undefined ? Infinity : 10 * 60000
}

function format(counts) {
  return Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || '-'
}

function fail(message) {
  console.error(message)
  process.exit(2)
}
