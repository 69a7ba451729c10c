// Side-by-side A/B of the batch path: this checkout's js/ against another checkout's (a base commit, say),
// both loaded into one Node process and timed interleaved, plus each side's wasm heap growth and pool
// memory left in use after insert + check of a million values, measured in fresh child processes.
//   git archive <base> js package.json | tar -x -C /tmp/pb-base && cp -r js/wasm /tmp/pb-base/js/   (or build it there)
//   node bench/ab-batch.js --baseline /tmp/pb-base [--trials 9] [--json]
// Not part of npm test.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { asciiStrings, randomBigInts, rng } from './lib/cases.js'
import { calibrate, interleave } from './lib/timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const MiB = 1 << 20
const N = 1_000_000
const FILTER_BYTES = 1 << 20

const argv = process.argv.slice(2)
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback)

/** The inputs both sides get: 1M random INT64s and 1M 16-byte ASCII strings. */
function inputs() {
  return { int64: randomBigInts(N, rng(0xab1)), strings: asciiStrings(N, rng(0xab2)) }
}

/** Child-process mode: a fresh module, one insert + check of each input, memory before and after. */
async function measureMemory(checkout) {
  const { BloomFilter, init, memoryStats } = await import(pathToFileURL(path.join(checkout, 'js', 'index.js')).href)
  await init()
  const { int64, strings } = inputs()
  const filter = BloomFilter.create({ numBytes: FILTER_BYTES })
  const before = memoryStats()
  filter.insert(int64, 'INT64')
  filter.check(int64, 'INT64')
  filter.insert(strings, 'BYTE_ARRAY')
  filter.check(strings, 'BYTE_ARRAY')
  const after = memoryStats()
  filter.free()
  return { heapGrowthBytes: after.heapBytes - before.heapBytes, poolInUseBeforeBytes: before.poolInUseBytes, poolInUseAfterBytes: after.poolInUseBytes }
}

function memoryOf(checkout) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--memory-child', checkout], { encoding: 'utf8' })
  return JSON.parse(out)
}

/** Arrow-style buffers of the strings (ASCII), every 10th slot null, as Arrow JS hands them over. */
function columnarOf(strings) {
  const offsets = new Int32Array(strings.length + 1)
  for (let i = 0; i < strings.length; i++) offsets[i + 1] = offsets[i] + strings[i].length
  const validity = new Uint8Array((strings.length + 7) >> 3)
  for (let i = 0; i < strings.length; i++) if (i % 10 !== 9) validity[i >> 3] |= 1 << (i & 7)
  return { values: new TextEncoder().encode(strings.join('')), offsets, validity, length: strings.length }
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

async function loadSide(checkout) {
  const api = await import(pathToFileURL(path.join(checkout, 'js', 'index.js')).href)
  await api.init()
  return api
}

async function main() {
  if (argv[0] === '--memory-child') {
    process.stdout.write(JSON.stringify(await measureMemory(argv[1])))
    return
  }
  const baseline = option('--baseline')
  if (!baseline) throw new Error('usage: node bench/ab-batch.js --baseline <checkout with js/ and js/wasm/> [--trials 9] [--json]')
  const trials = Number(option('--trials', 9))
  const sides = { base: path.resolve(baseline), branch: root }

  const memory = Object.fromEntries(Object.entries(sides).map(([name, dir]) => [name, memoryOf(dir)]))

  const { int64, strings } = inputs()
  const apis = {}
  for (const [name, dir] of Object.entries(sides)) apis[name] = await loadSide(dir)
  const columnarStrings = columnarOf(strings)
  const small64 = int64.subarray(0, 64)
  const smallStrings = strings.slice(0, 64)
  const operations = [
    ['check INT64 BigInt64Array', N, (f) => f.check(int64, 'INT64')],
    ['check 16-byte string[]', N, (f) => f.check(strings, 'BYTE_ARRAY')],
    ['insert INT64 BigInt64Array', N, (f) => f.insert(int64, 'INT64')],
    ['insert 16-byte string[]', N, (f) => f.insert(strings, 'BYTE_ARRAY')],
    ['check columnar strings, 10% null', N, (f) => f.check(columnarStrings, 'BYTE_ARRAY')],
    ['check 64 INT64 (per call)', 64, (f) => f.check(small64, 'INT64')],
    ['check 64 strings (per call)', 64, (f) => f.check(smallStrings, 'BYTE_ARRAY')],
  ]
  const throughput = []
  for (const [what, n, op] of operations) {
    const contenders = {}
    const filters = []
    let answers = {}
    for (const [name, api] of Object.entries(apis)) {
      const filter = api.BloomFilter.create({ numBytes: FILTER_BYTES })
      filters.push(filter)
      filter.insert(int64.subarray(0, N / 2), 'INT64')
      filter.insert(strings.slice(0, N / 2), 'BYTE_ARRAY')
      const fn = () => { answers[name] = op(filter) }
      contenders[name] = { fn, reps: calibrate(fn, { targetMs: 200, warmupMs: 400, minReps: n < 1000 ? 20000 : 1 }) }
    }
    const timed = interleave(contenders, trials)
    const same = what.startsWith('insert') ? sameBytes(filters[0].bitset(), filters[1].bitset()) : sameBytes(answers.base, answers.branch)
    for (const f of filters) f.free()
    const ns = (side) => (timed[side].msPerCall * 1e6) / n
    const cpuNs = (side) => (timed[side].cpuMsPerCall * 1e6) / n
    throughput.push({ what, values: n, baseNsPerValue: ns('base'), branchNsPerValue: ns('branch'), branchOverBase: ns('branch') / ns('base'),
      baseCpuNsPerValue: cpuNs('base'), branchCpuNsPerValue: cpuNs('branch'), cpuBranchOverBase: cpuNs('branch') / cpuNs('base'), sameResult: same,
      baseTrialsMs: timed.base.trialsMsPerCall, branchTrialsMs: timed.branch.trialsMsPerCall })
    answers = {}
  }

  if (argv.includes('--json')) {
    console.log(JSON.stringify({ memory, throughput }, null, 2))
    return
  }
  console.log('memory after insert + check of 1M INT64 and 1M strings (fresh module each):')
  for (const [name, m] of Object.entries(memory)) {
    console.log(`  ${name.padEnd(6)} heap +${(m.heapGrowthBytes / MiB).toFixed(2)} MiB, pool in use ${(m.poolInUseBeforeBytes / MiB).toFixed(3)} -> ${(m.poolInUseAfterBytes / MiB).toFixed(3)} MiB`)
  }
  console.log(`throughput, medians of ${trials} interleaved trials, ns/value wall-clock (process CPU):`)
  for (const t of throughput) {
    console.log(`  ${t.what.padEnd(34)} base ${t.baseNsPerValue.toFixed(2).padStart(6)} (${t.baseCpuNsPerValue.toFixed(2)})  ` +
      `branch ${t.branchNsPerValue.toFixed(2).padStart(6)} (${t.branchCpuNsPerValue.toFixed(2)})  ` +
      `branch/base ${t.branchOverBase.toFixed(3)} (${t.cpuBranchOverBase.toFixed(3)})${t.sameResult ? '' : '  RESULTS DIFFER'}`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
