// `npm run bench` (through scripts/bench.sh): runs every benchmark section in its own Node process, the
// native Google Benchmark binary before and after the JS throughput section, prints the tables and the
// targets, and writes everything to bench/results/latest.json with the machine it ran on.
//   node bench/run.js [--quick] [--only throughput,allocations,memory,wire,rounds,transport,dataset,dataset-scale,table,table-index,indexes,confirm,size,footer,index-builder,sidecar-formats,sidecar-build] [--no-native]
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { measureDownload } from '../testkit/download-size.js'
import { makeTempDir } from '../testkit/temp-dir.js'
import { runNative, summarizeNative } from './lib/native.js'
import { FOOTER_SHAPE, writeFooterFile } from './sections/big-footer.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const NATIVE_BINARY = path.join(root, process.env.PB_BUILD_DIR ?? 'build', 'bench', 'pb_bench')
const SECTIONS = ['throughput', 'allocations', 'memory', 'wire', 'rounds', 'transport', 'dataset', 'dataset-scale', 'table', 'table-index', 'indexes', 'confirm', 'size', 'footer', 'index-builder', 'sidecar-formats', 'sidecar-build']
const MiB = 1 << 20
const KiB = 1024

const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : SECTIONS
const wantNative = !argv.includes('--no-native')
const want = (s) => only.includes(s)

let tmp
let removeTmp = async () => {}
const log = (text) => process.stderr.write(`[bench] ${text}\n`)

/** Runs bench/sections/<file> in a fresh Node process and returns its JSON. */
function section(file, extra = [], nodeArgs = []) {
  const out = path.join(tmp, `${path.basename(file, '.js')}.json`)
  const started = Date.now()
  log(`${file}…`)
  execFileSync(process.execPath, [...nodeArgs, path.join(here, 'sections', file), '--out', out, ...(quick ? ['--quick'] : []), ...extra],
    { stdio: ['ignore', 'inherit', 'inherit'], cwd: root })
  log(`${file}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return JSON.parse(readFileSync(out, 'utf8'))
}

function machine() {
  const cpus = os.cpus()
  let compiler
  try {
    compiler = execFileSync('g++', ['--version'], { encoding: 'utf8' }).split('\n')[0]
  } catch {
    compiler = undefined
  }
  return {
    cpuModel: cpus[0]?.model, cores: cpus.length, totalMemoryBytes: os.totalmem(), platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version, v8: process.versions.v8, nativeCompiler: compiler, date: new Date().toISOString(), loadAverageAtStart: os.loadavg(),
  }
}

async function main() {
  ;({ dir: tmp, remove: removeTmp } = await makeTempDir('bench'))
  const started = Date.now()
  const result = { machine: machine(), quick, sections: only }
  const footerRows = quick ? FOOTER_SHAPE.quickRowGroups : FOOTER_SHAPE.rowGroups
  const footerPath = path.join(tmp, 'footer.bin')
  if (want('footer') || (wantNative && want('throughput'))) {
    log(`generating a ${footerRows} × ${FOOTER_SHAPE.columns} footer…`)
    writeFooterFile(footerPath, { rowGroups: footerRows, columns: FOOTER_SHAPE.columns })
  }

  const nativeRuns = []
  const nativeOptions = { repetitions: quick ? 3 : 5, minTime: quick ? 0.02 : 0.05 }
  const native = async (label, withFooter) => {
    if (!wantNative) return
    log(`native benchmark (${label})…`)
    const r = await runNative(NATIVE_BINARY, { ...nativeOptions, footerPath: withFooter ? footerPath : undefined })
    if (!r) log(`no native binary at ${NATIVE_BINARY}: build it with bash scripts/build.sh bench`)
    else {
      result.nativeContext ??= r.context
      nativeRuns.push(r)
    }
  }

  if (want('throughput')) {
    // Native before and after the JS section: both halves of the load drift land in its medians.
    await native('first pass', true)
    result.throughput = section('throughput.js')
    await native('second pass', false)
    result.native = summarizeNative(nativeRuns)
  }
  if (want('allocations')) result.allocations = section('allocations.js')
  if (want('memory')) result.memory = section('memory-visits.js')
  if (want('wire')) result.wire = section('wire.js')
  if (want('rounds')) result.rounds = section('rounds.js')
  if (want('transport')) result.transport = section('transport.js')
  if (want('dataset')) result.dataset = section('dataset.js')
  if (want('dataset-scale')) result.datasetScale = section('dataset-scale.js')
  if (want('table')) result.table = section('table.js')
  if (want('table-index')) result.tableIndex = section('table-index.js')
  if (want('indexes')) result.indexes = section('indexes.js')
  if (want('confirm')) result.confirm = section('confirm-match.js')
  if (want('index-builder')) result.indexBuilder = section('index-builder.js')
  if (want('sidecar-formats')) result.sidecarFormats = section('sidecar-formats.js')
  if (want('sidecar-build')) result.sidecarBuild = section('sidecar-build.js')
  if (want('size')) result.size = await measureDownload()
  if (want('footer')) {
    result.footer = section('big-footer.js', ['--footer', footerPath], ['--max-old-space-size=8192'])
    const nativeFooter = result.native?.DecodeFooter
    if (nativeFooter) result.footer.nativeDecodeMs = nativeFooter.realNs / 1e6
  }
  result.machine.loadAverageAtEnd = os.loadavg()
  result.elapsedSeconds = (Date.now() - started) / 1000
  result.targets = targets(result)

  print(result)
  const resultsDir = path.join(here, 'results')
  mkdirSync(resultsDir, { recursive: true })
  writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`)
  log(`wrote bench/results/latest.json (${result.elapsedSeconds.toFixed(0)} s)`)
}

// ---------------------------------------------------------------------------------------------------

const fmt = (v, digits = 1) => (v === undefined || v === null || Number.isNaN(v) ? '–' : v.toFixed(digits))
const bytes = (n) => (n === undefined ? '–' : n >= MiB ? `${(n / MiB).toFixed(2)} MiB` : n >= KiB ? `${(n / KiB).toFixed(1)} KiB` : `${n} B`)

function table(title, headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')
  console.log(`\n${title}`)
  console.log(line(headers))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const r of rows) console.log(line(r))
}

function nativeFor(result, r) {
  return result.native?.[`CheckBatch/${r.native}/${r.n}`]
}

function print(result) {
  const m = result.machine
  console.log(`parquet-bloom benchmarks — ${m.date}, ${m.cpuModel} × ${m.cores}, Node ${m.node}${result.quick ? ', --quick' : ''}`)
  console.log(`load average at start ${m.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')}, at end ${m.loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')} (timings are wall-clock medians; JSON also has CPU-time medians)`)

  if (result.throughput) {
    const t = result.throughput
    const cap = Math.max(...t.results.filter((r) => !(r.native === 'INT64' && r.n === 1000000)).map((r) => r.peerValues))
    table(`Batched check, 1 MiB filter: ns/value (medians of ${t.results[0]?.trials} interleaved trials; per-value peers time at most ${cap} values per trial, INT64 × 1,000,000 whole unless --quick)`,
      ['case', 'values', 'ours', 'µs/call', 'native', 'hyparquet', 'xxhash-wasm', 'ours/native', 'hyparquet/ours', 'xxhash/ours', 'agree'],
      t.results.map((r) => {
        const nat = nativeFor(result, r)
        return [r.case, r.n, fmt(r.ours.nsPerValue), fmt(r.ours.nsPerCall / 1000, 2), fmt(nat?.nsPerValue), fmt(r.hyparquet.nsPerValue, 0), fmt(r.xxhashWasm.nsPerValue, 0),
          fmt(nat ? r.ours.nsPerValue / nat.nsPerValue : undefined, 2), fmt(r.hyparquet.nsPerValue / r.ours.nsPerValue, 0), fmt(r.xxhashWasm.nsPerValue / r.ours.nsPerValue, 1), r.agree ? 'yes' : 'NO']
      }))
  }
  if (result.allocations) {
    table(`Wasm allocations per warm batched call (allocationCount() over ${result.allocations.calls} calls)`, ['case', 'values', 'check', 'insert', 'warm-up'],
      result.allocations.results.map((r) => [r.case, r.n, r.checkAllocationsPerCall, r.insertAllocationsPerCall, r.warmUpAllocations]))
  }
  if (result.memory) {
    const v = result.memory
    table(`Memory: ${v.visits} visits of 1 MiB filters, ${v.inFlight} in flight (${fmt(v.msPerVisit, 2)} ms/visit, ${v.requests} reads, ${bytes(v.bytesFetched)})`,
      ['measure', 'start', 'peak', `first ${v.window}`, `last ${v.window}`, 'final'],
      [['wasm heap (linear memory)', bytes(v.heapBytes.atStart), bytes(v.heapBytes.peak), bytes(v.heapBytes.firstWindowPeak), bytes(v.heapBytes.lastWindowPeak), bytes(v.heapBytes.final)],
        ['pool in use', '', bytes(v.poolInUseBytes.peak), bytes(v.poolInUseBytes.firstWindowPeak), bytes(v.poolInUseBytes.lastWindowPeak), bytes(v.poolInUseBytes.final)]])
  }
  if (result.wire) {
    const w = result.wire
    const rows = []
    for (const r of w.results) {
      for (const [mode, s] of Object.entries(r.modes)) rows.push([r.values, `ours ${mode}`, s.requests, bytes(s.bytes), bytes(s.footerBytes), bytes(s.probeBytes), s.falseNegatives])
      const h = r.hyparquet
      rows.push([r.values, 'hyparquet metadata + filters', h.metadataAndFilterRequests, bytes(h.metadataAndFilterBytes), bytes(h.footerBytes), bytes(h.bloomBytes), '–'])
      rows.push([r.values, 'hyparquet data reads after', h.dataRequests, bytes(h.dataBytes), '', '', `${h.rowsReturned} rows`])
      rows.push([r.values, 'block-mode bound', '', bytes(r.blockBound), '', '', ''])
    }
    table(`Bytes on the wire: ${bytes(w.file.bytes)} DuckDB file, ${w.file.rowGroups} row groups, ${bytes(w.file.filterNumBytes)} filters (HEAD counted as a request)`,
      ['values', 'reader / mode', 'requests', 'bytes', 'footer', 'filters', 'false neg.'], rows)
  }
  if (result.indexes) {
    const x = result.indexes
    table('Statistics as an index: ns/value for a batch (sort keys once per probe, then one typed pass per row group; target ≤ 20 ns/value)',
      ['case', 'values', 'keys', 'check per row group'], x.statistics.map((r) => [r.case, r.values, fmt(r.keysNsPerValue), fmt(r.checkNsPerValue)]))
  }
  if (result.rounds) {
    const r = result.rounds
    table(`One value over ${r.rowGroups} row groups, server (own process) waits ${r.responseDelayMs} ms per response: old and new plans (medians of ${r.trials} interleaved trials; cold: open + probe, the first of a fresh Node process, one per trial beside them)`,
      ['plan', 'rounds', 'requests', 'bytes', 'warm ms', 'best ms', 'client cpu ms', 'cold ms', 'cold best ms', 'cold cpu ms', 'import ms'],
      r.plans.map((p) => [p.plan, p.rounds, p.requests, bytes(p.bytes), fmt(p.ms), fmt(p.minMs), fmt(p.cpuMs),
        ...(p.cold ? [fmt(p.cold.ms), fmt(p.cold.minMs), fmt(p.cold.cpuMs), fmt(p.cold.importMs)] : ['–', '–', '–', '–'])]))
  }
  if (result.transport) {
    const t = result.transport
    table(`Node (${t.node}) transports: small range requests over loopback to a server in its own process (medians of ${t.trials} interleaved trials)`,
      ['client', 'in flight', 'requests', 'ms', 'client cpu ms', 'cpu ms / request', 'ms / request'],
      t.results.map((r) => [r.client, r.inFlight, r.requests, fmt(r.ms), fmt(r.cpuMs), fmt(r.cpuMsPerRequest, 3), fmt(r.msPerRequest, 3)]))
  }
  if (result.dataset) {
    const d = result.dataset
    const label = { dataset: 'openDataset (cold; window: the first wave)', cached: 'openDataset, footer cache (second probe)', window256: 'openDataset (cold), concurrency 256', perFile: 'per-file loop over openParquet, 4 at a time (cold)',
      perFileCached: 'per-file loop, 4 at a time, footer cache', where: 'openDataset, where: one day', localDataset: 'openDataset, local files (no server)',
      duckdb: 'DuckDB read_parquet, local files (fresh connection)', duckdbAgain: 'DuckDB, the same query again' }
    const base = d.plans.perFile.ms
    table(`A dataset of ${d.files} files (${d.rowGroups} row groups, no bloom filter), one value, server (own process) waits ${d.responseDelayMs} ms per response (medians of ${d.trials} interleaved trials)`,
      ['plan', 'rounds', 'window', 'requests', 'bytes', 'ms', 'client cpu ms', '× per-file loop', 'files kept'],
      Object.entries(d.plans).map(([name, p]) => [label[name] ?? name, p.rounds ?? '–', p.window ?? '–', p.requests ?? '–', p.bytes === null ? '–' : bytes(p.bytes), fmt(p.ms), fmt(p.cpuMs), fmt(base / p.ms), p.kept]))
  }
  if (result.tableIndex) {
    const x = result.tableIndex
    table(`A table index of ${x.files} files (Iceberg: ${x.manifests} manifests; Delta: ${x.commits} commits; ${x.rowsPerFile} rows each, id filters at fpp ${x.fpp}; built in ${fmt(x.builds.iceberg.seconds)} s / ${fmt(x.builds.delta.seconds)} s, ${bytes(x.builds.iceberg.bytes)} / ${bytes(x.builds.delta.bytes)}): cold openTable + one id probe, server (own process) waits ${x.responseDelayMs} ms per response (medians of ${x.trials} interleaved trials; answers ${x.correct ? 'match' : 'DO NOT match'} the writer's files)`,
      ['plan', 'manifests / commits read', 'metadata requests', 'metadata bytes', 'index requests', 'index bytes', 'probe rounds', 'probe requests', 'files opened', 'ms', 'CPU ms'],
      Object.entries(x.plans).map(([name, p]) => [name, p.manifestsRead ?? p.commitsRead ?? '–', p.metadataRequests, bytes(p.metadataBytes), p.indexRequests, bytes(p.indexBytes), p.probeRounds, p.probeRequests, p.filesOpened, fmt(p.ms), fmt(p.cpuMs)]))
  }
  if (result.datasetScale) {
    const x = result.datasetScale
    const rows = []
    for (const [name, runs] of Object.entries(x.remote)) {
      for (const [when, r] of Object.entries(runs)) {
        const run = { probe: 'probe() (every answer kept)', probeEach: 'probeEach (streamed)', bareHttp: 'bare node:http, the same tail reads',
          httpsH2: 'probe() over https, HTTP/2 (ALPN h2)', httpsHttp1: 'probe() over https, server without h2 (HTTP/1.1), one trial' }[name]
        rows.push([`${run}, ${when === 'cold' ? 'cold process' : 'again (warm)'}`,
          r.rounds ?? '–', r.window ?? '–', r.requests, bytes(r.bytes), fmt(r.ms, 0), fmt(r.cpuMs, 0), fmt(r.cpuMsPerFile, 3), bytes(r.peakAboveStartBytes)])
      }
    }
    table(`A dataset without an index: ${x.files} files × ${x.rowGroupsPerFile} row groups (hyparquet-writer, unsorted INT64, no bloom filter), one value, server (own process) waits ${x.responseDelayMs} ms per response (a fresh process per trial, medians of ${x.trials})`,
      ['run', 'rounds', 'window', 'requests', 'bytes', 'ms', 'client cpu ms', 'cpu ms / file', 'peak RSS growth'], rows)
    const l = x.local
    table(`${l.files} of those files on local disk: openDataset on the folder against DuckDB's read_parquet query of the same files (medians of ${l.trials} interleaved trials)`,
      ['reader', 'ms', 'cpu ms', '× DuckDB (wall)', 'files kept'],
      [['parquet-bloom openDataset', fmt(l.ours.ms), fmt(l.ours.cpuMs), fmt(l.ours.ms / l.duckdb.ms, 2), l.keptByUs], ['DuckDB read_parquet … WHERE id = v', fmt(l.duckdb.ms), fmt(l.duckdb.cpuMs), '1.00', l.keptByDuckDB]])
  }
  if (result.table) {
    const x = result.table
    const label = { tableCold: 'openTable + probe id (cold: pointer, metadata, manifest list, manifests, files)', tableWarm: 'openTable again + probe id, unchanged table, footer cache',
      tableColdDay: 'openTable + probe day (cold; summaries skip manifests)', tableWarmDay: 'openTable again + probe day, unchanged table, footer cache',
      decodeManifests: `decoding the ${x.manifests} manifests again (what every warm open spent before they were kept decoded)`,
      perFileCold: 'per-file: openDataset over the data files (cold)', perFileWarm: 'per-file: openDataset, footer cache (second probe)' }
    const base = x.plans.perFileCold.ms
    const dash = (v) => (v === null || v === undefined ? '–' : v)
    table(`An Iceberg table of ${x.files} files in ${x.manifests} manifests (${x.rowsPerFile} rows, bloom filter on id, one day per manifest), one stored id or its day, server (own process) waits ${x.responseDelayMs} ms per response (medians of ${x.trials} interleaved trials; CPU: this process)`,
      ['plan', 'rounds', 'metadata rounds', 'requests', 'bytes', 'ms', 'CPU ms', '× per-file cold', 'manifests read / skipped', 'files opened', 'files kept'],
      Object.entries(x.plans).map(([name, p]) => [label[name] ?? name, p.rounds, p.metadataRounds, p.requests, bytes(p.bytes), fmt(p.ms), fmt(p.cpuMs), fmt(base / p.ms),
        p.manifestsRead === null ? '–' : `${p.manifestsRead} / ${p.manifestsSkipped}`, p.opened, dash(p.kept)]))
  }
  if (result.confirm) {
    table('Exact lookups: matching decoded pages (js/confirm/confirm-match.js; target ≥ 100 M values/s on numeric pages)',
      ['case', 'values', 'M values/s', 'ms per page array'], result.confirm.rows.map((r) => [r.case, r.values, fmt(r.mValuesPerSecond, 0), fmt(r.msPerCall)]))
    table('PLAIN byte-array pages, M values/s: old = one Uint8Array per value (match / hyparquet readPlain + match), new = in place (target ≥ 100)',
      ['case', 'values', 'old match', 'old decode + match', 'new in place', 'new (CPU time)'],
      result.confirm.plainBinary.map((r) => [r.case, r.values, fmt(r.oldMatch, 0), fmt(r.oldDecodeMatch, 0), fmt(r.newInPlace, 0), fmt(r.cpu.newInPlace, 0)]))
    const b = result.confirm.bytes
    table(`Exact lookup of one value in a ${bytes(b.fileBytes)} file with a page index (${b.rowGroups} row groups; bound: footer + page index + 2 pages per candidate row group)`,
      ['candidate row groups', 'confirm bytes', 'confirm requests', 'whole probe bytes', 'requests', 'bound', 'met'],
      [[b.candidateRowGroups, bytes(b.confirmBytes), b.confirmRequests, bytes(b.probeBytes), b.requests, bytes(b.bound), b.met ? 'yes' : 'NO']])
  }
  if (result.indexBuilder) {
    const x = result.indexBuilder
    table('index add: a DuckDB file without filters copied with filters for one column, one core (child process, young generation 2 MiB; memory above its start)',
      ['column', 'input', 'ms', 'MB/s', 'MB/s of CPU time', 'filters', 'peak RSS above start (maxRSS)', 'peak JS heap + external above start', 'peak RSS, default heap flags'],
      x.add.map((r) => [r.case, bytes(r.inputBytes), fmt(r.ms, 0), fmt(r.mbPerSecond), fmt(r.inputBytes / MiB / (r.cpuMs / 1000)), `${r.filters} (${bytes(r.filterBytes)})`,
        bytes(r.peakAboveStartBytes), bytes(r.heldPeakAboveStartBytes), r.defaultFlagsPeakAboveStartBytes === undefined ? '–' : bytes(r.defaultFlagsPeakAboveStartBytes)]))
    const sc = x.sidecar
    table(`Probe of one value over ${sc.files} files (${sc.rowGroups} row groups), server waits 20 ms per response: sidecar index (${bytes(sc.indexBytes)}, built in ${fmt(sc.buildMs, 0)} ms) vs each file's footer and filters`,
      ['reader', 'rounds', 'requests', 'bytes', 'ms'],
      [['sidecar index', sc.sidecar.rounds, sc.sidecar.requests, bytes(sc.sidecar.bytesFetched), fmt(sc.sidecar.ms, 0)],
        ['footers (files in parallel; rounds: the most of one file)', sc.footers.rounds, sc.footers.requests, bytes(sc.footers.bytesFetched), fmt(sc.footers.ms, 0)]])
    const big = x.sidecarAtScale
    table(`Issue #23: open + a one-value probe of ${big.files} files × ${big.rowGroups / big.files} row groups, server waits 20 ms per response: sidecar index (${bytes(big.indexBytes)}, directory ${bytes(big.directoryBytes)}, built in ${fmt(big.buildMs, 0)} ms; blocks read ${bytes(big.blockBytes)}, bound ${bytes(big.blockBound)}; false positives ${fmt(big.fpp.measured * 100, 3)}% of ${big.fpp.pairs} absent pairs, fpp ${big.fpp.target}) vs every file's footer (a dataset of the URLs)`,
      ['reader', 'rounds', 'requests', 'bytes', 'ms'],
      [['sidecar index (open + probe)', big.sidecar.rounds, big.sidecar.requests, bytes(big.sidecar.bytesFetched), fmt(big.sidecar.ms, 0)],
        ['footers (openDataset, one window)', big.footers.rounds, big.footers.requests, bytes(big.footers.bytesFetched), fmt(big.footers.ms, 0)]])
  }
  if (result.sidecarFormats) {
    const x = result.sidecarFormats
    const rows = []
    for (const format of [2, 1]) {
      const f = x[`format${format}`]
      if (!f) continue
      for (const phase of ['cold', 'warm']) {
        const p = f[phase]
        rows.push([`format ${format} (${bytes(f.indexBytes)})`, phase, p.rounds, p.requests, p.heads, bytes(p.bytes), fmt(p.ms, 0), fmt(p.cpuMs, 0), bytes(p.rssGrowthBytes)])
      }
      if (f.coldFresh) rows.push([`format ${format}`, `cold, fresh process (median of ${f.coldFresh.runs})`, f.coldFresh.rounds, '', '', bytes(f.coldFresh.bytes), fmt(f.coldFresh.ms, 0), fmt(f.coldFresh.cpuMs, 0), ''])
    }
    table(`Sidecar formats: one absent value over ${x.files} files × ${x.rowGroups / x.files} row groups, sizes and ETags given, server waits ${x.latencyMs} ms per response`,
      ['index', 'probe', 'rounds', 'requests', 'HEADs', 'bytes', 'ms', 'client CPU ms', 'RSS growth'], rows)
    table('Format 2 size model: bytes of a one-value probe (files blob 5 B/file + 24 B/page of 64; bit rows: 8 × ⌈chunks / 8⌉ per region; target ≤ 16 MiB at 1,000,000 files)',
      ['files', 'row groups each', 'files blob', 'bit rows', 'cold', 'warm'],
      x.sizeModel.map((m) => [m.files, m.groups, bytes(m.filesBlobBytes), bytes(m.bitRowBytes), bytes(m.coldBytes), bytes(m.warmBytes)]))
  }
  if (result.size) {
    const s = result.size
    table('Size a browser loads (gzip -9)', ['part', 'raw', 'gzip'],
      [['JS', bytes(s.js.raw), bytes(s.js.gzip)], ['wasm', bytes(s.wasm.raw), bytes(s.wasm.gzip)], ['total', bytes(s.total.raw), bytes(s.total.gzip)]])
  }
  if (result.footer) {
    const f = result.footer
    const label = { ours: `ours: open + probe column ${f.probedColumn}`, oursAll: 'ours: open + every column', hyparquet: 'hyparquet parquetMetadata' }
    const cold = (side) => f.memory[side]
    table(`Big footer ${f.rowGroups} × ${f.columns} (${bytes(f.footerBytes)}): bytes → ready to probe (${f.trials} interleaved trials; cold = the first call of a fresh process, and memory, in fresh processes)`,
      ['reader', 'warm ms', 'cpu ms', '× hyparquet (warm)', 'cold ms', 'cold cpu ms', '× hyparquet (cold)', 'JS heap retained', 'JS heap after parse', 'wasm growth'],
      ['ours', 'oursAll', 'hyparquet'].map((side) => [label[side], fmt(f.warmMs[side]), fmt(f.warmCpuMs[side]), fmt(f.warmMs.hyparquet / f.warmMs[side]),
        ...(cold(side) ? [fmt(cold(side).coldMs), fmt(cold(side).coldCpuMs), fmt(cold('hyparquet').coldMs / cold(side).coldMs), bytes(cold(side).jsHeapRetainedBytes), bytes(cold(side).jsHeapAfterParseBytes), bytes(cold(side).wasmGrowthBytes)] : ['–', '–', '–', '–', '–', '–'])]))
    const b = f.oursBreakdownMs
    console.log(`ours, the whole-footer decode (footers under 8 MiB; this one is decoded a window at a time) + probe one column, by stage (medians, ms): ${fmt(b.total)} = copy in ${fmt(b.copyIn)} + wasm counts ${fmt(b.countsPass)} + wasm outline ${fmt(b.outlinePass)} + one column's indexes ${fmt(b.oneColumn)} + JS ≈ ${fmt(b.jsRest)}; native build of the decoder (both passes) ${fmt(f.nativeDecodeMs)} ms`)
    const w = f.writerFile
    if (w) {
      table(`hyparquet-writer file ${w.rowGroups} row groups × ${w.columns} INT32 columns (${bytes(w.fileBytes)}): medians of ${w.trials} interleaved trials, ms; cold: the first call of fresh processes (${w.cold?.ours.runs ?? 0} each)`,
        ['measure', 'warm ms', '× hyparquet (warm)', 'cold ms', '× hyparquet (cold)'],
        [[`ours: openParquet + probe column ${f.probedColumn} (statistics answer${w.rightAnswer ? '' : '; WRONG ANSWER'})`, fmt(w.ms.ours), fmt(w.speedup), fmt(w.cold?.ours.ms), fmt(w.coldSpeedup)],
          ['hyparquet parquetMetadata', fmt(w.ms.hyparquet), '1', fmt(w.cold?.hyparquet.ms), '1'],
          ['file.metadata.rowGroups.length (built as read)', fmt(w.ms.metadataLength), '–', '–', '–'],
          ['reading every row group and column of file.metadata (what building it eagerly cost)', fmt(w.ms.metadataEveryElement), '–', '–', '–']])
    }
  }
  if (result.sidecarBuild) {
    const x = result.sidecarBuild
    const row = (label, r, files = r.files) => [label, files, fmt(r.ms / 1000), fmt(r.cpuMs / 1000), fmt(r.ms / files, 2), bytes(r.peakRssBytes)]
    table(`Sidecar index build of ${x.files} files × ${x.rowGroups / x.files} row groups (one INT64 column), server waits ${x.latencyMs} ms per response (child processes; peak RSS: getrusage maxRSS)`,
      ['build', 'files', 's', 'CPU s', 'ms per file', 'peak RSS'],
      [row('URLs, files read at once (default)', x.oneShot),
        row(`URLs, one file at a time (concurrency 1; extrapolated: ${fmt(x.oneAtATime.ms / x.oneAtATime.files * x.files / 1000, 0)} s)`, x.oneAtATime),
        row('local paths (default)', x.local),
        row(`URLs, ${x.shards.count} shards one after another (${fmt(x.shards.shardMs / 1000)} s) + merge; merged = one-shot: ${x.shards.identical ? 'yes' : 'NO'}`, x.shards)])
  }
  table('Targets (from the issues: 6 for throughput and memory, 13 for rounds and footers)', ['target', 'goal', 'measured', 'met'], result.targets.map((t) => [t.name, t.goal, t.measured, t.met === undefined ? '–' : t.met ? 'yes' : 'NO']))
}

function targets(result) {
  const out = []
  const add = (name, goal, measured, met) => out.push({ name, goal, measured, met })
  const t = result.throughput?.results ?? []
  const find = (nativeName, n) => t.find((r) => r.native === nativeName && r.n === n && !r.case.includes('columnar'))
  const int64 = find('INT64', 1000000)
  if (int64) {
    add('INT64 check, 1M values', '≤ 25 ns/value', `${fmt(int64.ours.nsPerValue)} ns/value (cpu ${fmt(int64.ours.cpuNsPerValue)})`, int64.ours.nsPerValue <= 25)
    add('INT64 1M vs hyparquet per-value', '≥ 50×', `${fmt(int64.hyparquet.nsPerValue / int64.ours.nsPerValue, 0)}×`, int64.hyparquet.nsPerValue / int64.ours.nsPerValue >= 50)
    const nat = nativeFor(result, int64)
    if (nat) {
      add('INT64 1M vs native build', '≥ 0.6× native speed', `${fmt(nat.nsPerValue / int64.ours.nsPerValue, 2)}× (cpu time: ${fmt(nat.cpuNsPerValue / int64.ours.cpuNsPerValue, 2)}×)`, nat.nsPerValue / int64.ours.nsPerValue >= 0.6)
    }
  }
  const strings = find('STRING16', 1000000)
  if (strings) add('16-byte strings, 1M values', '≤ 60 ns/value', `${fmt(strings.ours.nsPerValue)} ns/value (cpu ${fmt(strings.ours.cpuNsPerValue)})`, strings.ours.nsPerValue <= 60)
  const small = find('INT64', 64)
  if (small) add('64-value INT64 call', '≤ 1.5 µs', `${fmt(small.ours.nsPerCall / 1000, 2)} µs (cpu ${fmt(small.ours.cpuNsPerCall / 1000, 2)})`, small.ours.nsPerCall <= 1500)
  for (const r of t.filter((x) => x.n === 64 && x.native !== 'INT64')) {
    add(`64-value call: ${r.case}`, '(≤ 1.5 µs)', `${fmt(r.ours.nsPerCall / 1000, 2)} µs`, undefined)
  }
  if (result.allocations) {
    const worst = Math.max(...result.allocations.results.map((r) => Math.max(r.checkAllocationsPerCall, r.insertAllocationsPerCall)))
    add('allocations per warm batched call', '0', String(worst), worst === 0)
  }
  if (result.memory) {
    const v = result.memory
    add('visit test: peak wasm memory', `≤ ${bytes(v.target.peakHeapBytes)}`, `linear memory ${bytes(v.heapBytes.peak)} (initial ${bytes(v.heapBytes.atStart)}); pool in use ${bytes(v.poolInUseBytes.peak)}`,
      v.heapBytes.peak <= v.target.peakHeapBytes)
    add('visit test: no growth first → last', 'last ≤ first', `${bytes(v.heapBytes.firstWindowPeak)} → ${bytes(v.heapBytes.lastWindowPeak)}`, v.heapBytes.lastWindowPeak <= v.heapBytes.firstWindowPeak)
  }
  if (result.wire) {
    const one = result.wire.results.find((r) => r.values === 1)
    add('block mode, 1 value, default options', `≤ ${bytes(one.blockBound)} (+ coalescing)`, bytes(one.modes.block.bytes), one.modes.block.bytes <= one.blockBound)
    add('block mode, 1 value, coalesceGap 0', `≤ ${bytes(one.blockBound)}`, `${bytes(one.modes['block (coalesceGap 0)'].bytes)} in ${one.modes['block (coalesceGap 0)'].requests} requests`, one.modes['block (coalesceGap 0)'].bytes <= one.blockBound)
    const fn = result.wire.results.reduce((n, r) => n + Object.values(r.modes).reduce((k, s) => k + s.falseNegatives, 0), 0)
    add('wire test false negatives', '0', String(fn), fn === 0)
  }
  if (result.rounds) {
    const now = result.rounds.plans.find((p) => p.plan.includes('statistics off')) ?? result.rounds.plans.at(-1)
    add(`1 value, ${result.rounds.rowGroups} row groups, statistics off, 30 ms per response`, '≤ 3 rounds, ≤ 256 KiB, ≤ 150 ms (requests priced too)',
      `${now.rounds} rounds, ${now.requests} requests, ${bytes(now.bytes)}, ${fmt(now.ms, 0)} ms (client cpu ${fmt(now.cpuMs, 0)} ms)`, now.rounds <= 3 && now.bytes <= 256 * KiB && now.ms <= 150)
    if (now.cold) {
      add(`the same, first probe of a fresh process (cold)`, '≤ 150 ms', `${fmt(now.cold.ms, 0)} ms (best ${fmt(now.cold.minMs, 0)}, client cpu ${fmt(now.cold.cpuMs, 0)} ms; warm ${fmt(now.ms, 0)} ms)`, now.cold.ms <= 150)
    }
  }
  if (result.tableIndex) {
    const { files, manifests, plans } = result.tableIndex
    const ice = plans['iceberg with index']
    const iceAfter = plans['iceberg with index, after one append']
    const delta = plans['delta with index']
    const deltaAfter = plans['delta with index, after one append']
    add(`table index, Iceberg of ${files} files / ${manifests} manifests, id probe, unchanged`, '0 manifests, probe ≤ 4 rounds', `${ice.manifestsRead} manifests, probe ${ice.probeRounds} rounds (open: ${ice.metadataRounds} metadata rounds, the index's beside them)`, ice.manifestsRead === 0 && ice.probeRounds <= 4)
    add('table index, Iceberg, after one append', 'that snapshot\'s manifest only', `${iceAfter.manifestsRead} manifest read`, iceAfter.manifestsRead === 1)
    add(`table index, Delta of ${files} files, id probe, unchanged`, '0 commits, probe ≤ 4 rounds', `${delta.commitsRead} commits, probe ${delta.probeRounds} rounds`, delta.commitsRead === 0 && delta.probeRounds <= 4)
    add('table index, Delta, after one commit', 'that commit only', `${deltaAfter.commitsRead} commit read`, deltaAfter.commitsRead === 1)
  }
  if (result.dataset) {
    const { files, plans } = result.dataset
    add(`dataset of ${files} files, 1 value, 30 ms per response`, '≤ 3 rounds, ≤ 1.5 s on a quiet machine (dataset issue)',
      `${plans.dataset.rounds} rounds, ${plans.dataset.requests} requests, ${fmt(plans.dataset.ms, 0)} ms (per-file loop ${fmt(plans.perFile.ms, 0)} ms, DuckDB on local disk ${fmt(plans.duckdb.ms, 0)} ms)`,
      plans.dataset.rounds <= 3 && plans.dataset.ms <= 1500)
    add(`dataset of ${files} files, second probe (footer cache)`, '1 round', `${plans.cached.rounds} round, ${bytes(plans.cached.bytes)}, ${fmt(plans.cached.ms, 0)} ms`, plans.cached.rounds === 1)
  }
  if (result.table) {
    const { files, manifests, plans } = result.table
    add(`Iceberg table of ${files} files / ${manifests} manifests, 1 value, 30 ms per response`, '≤ 6 rounds cold (table issue)', `${plans.tableCold.rounds} rounds, ${plans.tableCold.requests} requests, ${fmt(plans.tableCold.ms, 0)} ms (per-file ${plans.perFileCold.requests} requests, ${fmt(plans.perFileCold.ms, 0)} ms)`, plans.tableCold.rounds <= 6)
    add(`Iceberg table of ${files} files, second probe (unchanged)`, '1 pointer request + index reads', `${plans.tableWarm.requests} requests (${plans.tableWarm.metadataRounds} metadata round), ${bytes(plans.tableWarm.bytes)}, ${fmt(plans.tableWarm.cpuMs, 0)} ms CPU`, plans.tableWarm.metadataRounds === 1 && plans.tableWarm.requests <= 1 + plans.tableWarm.opened)
    add(`Iceberg table of ${files} files / ${manifests} manifests, probe of the partition column`, 'manifests skipped by partition summaries', `${plans.tableColdDay.manifestsRead} read, ${plans.tableColdDay.manifestsSkipped} skipped; ${plans.tableColdDay.rounds} rounds cold`, plans.tableColdDay.manifestsRead < manifests)
  }
  if (result.indexBuilder) {
    const [int64, text] = result.indexBuilder.add
    // "On one core": input bytes over the process's CPU time; wall-clock alongside (the machine may be shared).
    const cpuRate = (r) => r.inputBytes / MiB / (r.cpuMs / 1000)
    add(`index add, INT64 column (${bytes(int64.inputBytes)})`, '≥ 50 MB/s (one core)', `${fmt(cpuRate(int64))} MB/s of CPU time (${fmt(int64.mbPerSecond)} wall)`, cpuRate(int64) >= 50)
    add(`index add, string column (${bytes(text.inputBytes)})`, '≥ 20 MB/s (one core)', `${fmt(cpuRate(text))} MB/s of CPU time (${fmt(text.mbPerSecond)} wall)`, cpuRate(text) >= 20)
    // Peak RSS (the kernel's maxRSS) above the start: everything the process holds, wasm memories included.
    const peak = Math.max(int64.peakAboveStartBytes, text.peakAboveStartBytes)
    add(`index add: peak memory (${bytes(Math.min(int64.inputBytes, text.inputBytes))}+ inputs)`, '≤ 64 MiB for 1 GB', `${bytes(peak)} peak RSS above start (JS heap + external ${bytes(Math.max(int64.heldPeakAboveStartBytes, text.heldPeakAboveStartBytes))})`, peak <= 64 * MiB)
    add(`sidecar probe of ${result.indexBuilder.sidecar.files} files`, '2 rounds', `${result.indexBuilder.sidecar.sidecar.rounds} rounds`, result.indexBuilder.sidecar.sidecar.rounds === 2)
    const big = result.indexBuilder.sidecarAtScale
    add(`sidecar: open + one-value probe of ${big.files} files × ${big.rowGroups / big.files} row groups (issue 23)`, `2 rounds, blocks ≤ ${bytes(big.blockBound)} + directory`,
      `${big.sidecar.rounds} rounds, ${big.sidecar.requests} requests, blocks ${bytes(big.blockBytes)} + directory ${bytes(big.directoryBytes)} (footers: ${big.footers.requests} requests, ${big.footers.rounds} rounds)`,
      big.sidecar.rounds === 2 && big.blockBytes <= big.blockBound)
    add(`sidecar false positives on absent values (${big.fpp.pairs} pairs)`, `≤ fpp ${big.fpp.target}`, `${fmt(big.fpp.measured * 100, 3)}%`, big.fpp.measured <= big.fpp.target)
  }
  if (result.sidecarFormats) {
    const x = result.sidecarFormats
    const { cold, warm, falseNegative } = x.format2
    // The CPU of a cold probe where only the client runs: a fresh process (in this one, collecting what writing
    // the index left behind falls in the probe measured next, hundreds of ms from run to run).
    const coldCpu = x.format2.coldFresh?.cpuMs ?? cold.cpuMs
    add(`sidecar format 2: one absent value, ${x.files} files × ${x.rowGroups / x.files} row groups, sizes and ETags given`, '≤ 3 rounds, 0 HEADs, ≤ 2 MiB, ≤ 300 ms CPU, ≤ 128 MiB RSS cold; warm 1 round',
      `cold ${cold.rounds} rounds, ${cold.heads} HEADs, ${bytes(cold.bytes)}, ${fmt(coldCpu, 0)} ms CPU (fresh process; ${fmt(cold.cpuMs, 0)} after the write), ` +
      `${bytes(cold.rssGrowthBytes)} RSS; warm ${warm.rounds} round, ${bytes(warm.bytes)} (format 1: ${x.format1 ? bytes(x.format1.cold.bytes) : '–'} cold)`,
      cold.rounds <= 3 && cold.heads === 0 && cold.bytes <= 2 * MiB && coldCpu <= 300 && cold.rssGrowthBytes <= 128 * MiB && warm.rounds === 1 && !falseNegative)
    const million = x.sizeModel.find((m) => m.files === 1_000_000)
    add('sidecar format 2 size model, 1,000,000 files × 10 row groups, one value cold', '≤ 16 MiB', bytes(million.coldBytes), million.coldBytes <= 16 * MiB)
  }
  if (result.sidecarBuild) {
    const x = result.sidecarBuild
    add(`sidecar build of ${x.files} files at ${x.latencyMs} ms per response`, '≤ 60 s, peak RSS ≤ 256 MiB',
      `${fmt(x.oneShot.ms / 1000)} s (one at a time: ~${fmt(x.oneAtATime.ms / x.oneAtATime.files * x.files / 1000, 0)} s), ${bytes(x.oneShot.peakRssBytes)}`,
      x.oneShot.ms <= 60_000 && x.oneShot.peakRssBytes <= 256 * MiB)
    add(`sidecar build in ${x.shards.count} shards, merged`, 'byte for byte the one-shot index; no false negative',
      `${x.shards.identical ? 'identical' : 'DIFFERENT'}; ${x.shards.checked} stored values found`, x.shards.identical)
  }
  if (result.datasetScale) {
    const x = result.datasetScale
    const cold = x.remote.probe.cold
    add(`dataset without an index, ${x.files} files`, '≤ 5 rounds, one request per file', `${cold.rounds} rounds (window ${cold.window}), ${cold.requests} requests`, cold.rounds <= 5 && cold.requests === x.files)
    add(`dataset without an index, ${x.files} files: client CPU`, '≤ 0.25 ms per file', `${fmt(cold.cpuMsPerFile, 3)} ms cold, ${fmt(x.remote.probe.warm.cpuMsPerFile, 3)} ms again`, cold.cpuMsPerFile <= 0.25)
    add(`dataset without an index, ${x.files} files: peak RSS growth`, '≤ 256 MiB', `${bytes(cold.peakAboveStartBytes)} probe(), ${bytes(x.remote.probeEach.cold.peakAboveStartBytes)} probeEach`,
      Math.max(cold.peakAboveStartBytes, x.remote.probeEach.cold.peakAboveStartBytes) <= 256 * MiB)
    const h2 = x.remote.httpsH2?.cold
    if (h2) {
      add(`the same over https, HTTP/2 (ALPN h2): client CPU`, '≤ 0.25 ms per file',
        `${fmt(h2.cpuMsPerFile, 3)} ms cold, ${h2.rounds} rounds (HTTP/1.1 over TLS: ${fmt(x.remote.httpsHttp1.cold.cpuMsPerFile, 3)} ms)`,
        h2.cpuMsPerFile <= 0.25 && h2.rounds <= 5)
      add(`the same over https, HTTP/2 (ALPN h2): peak RSS growth`, '≤ 256 MiB', bytes(h2.peakAboveStartBytes), h2.peakAboveStartBytes <= 256 * MiB)
    }
    add(`${x.local.files} local files`, 'faster than DuckDB\'s query', `${fmt(x.local.ours.ms, 0)} ms vs ${fmt(x.local.duckdb.ms, 0)} ms`, x.local.ours.ms < x.local.duckdb.ms)
  }
  if (result.size) add('wasm + JS gzip', '≤ 100 KiB', bytes(result.size.total.gzip), result.size.total.gzip <= 100 * KiB)
  if (result.footer) {
    const f = result.footer
    const speedup = f.warmMs.hyparquet / f.warmMs.ours
    add(`big footer ${f.rowGroups}×${f.columns}: open + probe one column`, '≥ 20× hyparquet (issue 13)', `${fmt(speedup)}× warm (cpu ${fmt(f.warmCpuMs.hyparquet / f.warmCpuMs.ours)}×)`, speedup >= 20)
    const coldSpeedup = f.memory.hyparquet.coldMs / f.memory.ours.coldMs
    add(`big footer ${f.rowGroups}×${f.columns}: open + probe one column, cold (fresh processes)`, '≥ 20× hyparquet cold',
      `${fmt(coldSpeedup)}× (${fmt(f.memory.ours.coldMs, 0)} vs ${fmt(f.memory.hyparquet.coldMs, 0)} ms; cpu ${fmt(f.memory.hyparquet.coldCpuMs / f.memory.ours.coldCpuMs)}×)`, coldSpeedup >= 20)
    const w = f.writerFile
    if (w) {
      add(`hyparquet-writer file ${w.rowGroups}×${w.columns}: open + probe one column`, '≥ 20× hyparquet (issue 13)', `${fmt(w.speedup)}× (${fmt(w.ms.ours)} vs ${fmt(w.ms.hyparquet)} ms)`, w.speedup >= 20 && w.rightAnswer)
      add(`hyparquet-writer file ${w.rowGroups}×${w.columns}: file.metadata.rowGroups.length`, '≈ 0 (built as read)', `${fmt(w.ms.metadataLength)} ms (every row group and column read: ${fmt(w.ms.metadataEveryElement)} ms)`, w.ms.metadataLength <= 5)
    }
    const ours = f.memory.ours.jsHeapRetainedBytes + f.memory.ours.wasmGrowthBytes
    add(`big footer ${f.rowGroups}×${f.columns}: memory`, '< hyparquet', `${bytes(ours)} (JS retained + wasm growth) vs ${bytes(f.memory.hyparquet.jsHeapRetainedBytes)}`, ours < f.memory.hyparquet.jsHeapRetainedBytes)
  }
  return out
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error)
    process.exitCode = 1
  }).finally(() => removeTmp())
}
