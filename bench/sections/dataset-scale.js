// A dataset without an index at scale: 20,000 files written by hyparquet-writer (2,000 with --quick;
// testkit/sidecar-dataset.js: five row groups of 40 rows, an unsorted INT64 column spread over
// the whole range, no bloom filter, no dictionary), served by the range server in its own process waiting
// 30 ms per response. One value, probed by openDataset over the URLs in a fresh child process per trial
// (bench/lib/dataset-probe-child.js), so that the RSS growth measured is the probe's: probe() keeping
// every answer, then probeEach streaming them; each child probes twice (cold, then warm: connections
// kept). Rounds, window, requests, bytes, wall, client CPU per file, peak RSS above the RSS before the
// probe. Beside them, node:http's floor: the same tail reads by a bare http.request loop, as many in flight
// (bench/lib/bare-http-child.js). The same probe() over HTTPS (a self-signed certificate the child trusts):
// from a server that picks HTTP/2 in ALPN (node:http2: a few connections for the whole wave), and from one
// that speaks only HTTP/1.1 (a TLS handshake per socket, so 256 sockets rather than the wave's: S3's case).
// Then 1,000 of the files in a folder of their own: openDataset on the folder
// against DuckDB's read_parquet query of the same files (a fresh connection, warmed once), interleaved
// trials, medians; the file holding the value must be kept by both.
import { execFileSync } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { DEFAULT_INITIAL_FETCH_SIZE } from '../../js/footer/footer.js'
import { init, openDataset } from '../../js/index.js'
import { duckdb, quote } from '../../testkit/hive-dataset.js'
import { datasetFileName, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { selfSignedCertificate } from '../../testkit/self-signed.js'
import { startServerProcess, startServerProcessWith } from '../lib/range-server-fork.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const GROUPS = 5
const GROUP_ROWS = 40
const RESPONSE_DELAY_MS = 30
const child = fileURLToPath(new URL('../lib/dataset-probe-child.js', import.meta.url))
const bareChild = fileURLToPath(new URL('../lib/bare-http-child.js', import.meta.url))

export async function run({ quick } = {}) {
  const files = quick ? 2000 : 20000
  const localFiles = 1000
  const trials = quick ? 1 : 3
  const { dir, remove } = await makeTempDir('bench-dataset-scale')
  let server
  let https2
  let https1
  try {
    await init()
    const remote = path.join(dir, 'remote')
    const local = path.join(dir, 'local')
    await mkdir(remote)
    await mkdir(local)
    await writeSidecarDataset(remote, { files, groups: GROUPS, groupRows: GROUP_ROWS })
    await writeSidecarDataset(local, { files: localFiles, groups: GROUPS, groupRows: GROUP_ROWS })
    // A value of file 123, row group 2: every file's min/max spans it, so every file is read and kept.
    const rowsPerFile = GROUPS * GROUP_ROWS
    const value = storedValue(123 * rowsPerFile + 2 * GROUP_ROWS + 17)
    server = await startServerProcess(remote, `slow:${RESPONSE_DELAY_MS}`)
    const { certFile } = await selfSignedCertificate(dir)
    https2 = await startServerProcessWith({ root: remote, tlsDir: dir }, `slow:${RESPONSE_DELAY_MS}`)
    https1 = await startServerProcessWith({ root: remote, tlsDir: dir, http2: false }, `slow:${RESPONSE_DELAY_MS}`)
    const probeIn = (name, origin, stream, env = process.env) => {
      const out = execFileSync(process.execPath, [child, JSON.stringify({ origin, files, value: String(value), stream })],
        { encoding: 'utf8', maxBuffer: 1 << 20, env })
      const r = JSON.parse(out)
      for (const run of [r.cold, r.warm]) {
        if (run.errors || run.answered !== files) throw new Error(`${name}: ${run.errors} errors, ${run.answered} of ${files} files answered`)
      }
      return r
    }
    const trusting = { ...process.env, NODE_EXTRA_CA_CERTS: certFile }

    const remoteRuns = { probe: [], probeEach: [], bareHttp: [], httpsH2: [], httpsHttp1: [] }
    for (let t = 0; t < trials; t++) {
      for (const [name, stream] of [['probe', false], ['probeEach', true]]) remoteRuns[name].push(probeIn(name, server.origin, stream))
      remoteRuns.httpsH2.push(probeIn('https, HTTP/2', https2.origin, false, trusting))
      // Once: a TLS handshake per socket makes it the slowest run by far.
      if (t === 0) remoteRuns.httpsHttp1.push(probeIn('https, HTTP/1.1', https1.origin, false, trusting))
      // node:http's own floor: the same tail reads, as many in flight as the probe's window, and nothing else.
      const window = remoteRuns.probe.at(-1).cold.window
      const bare = execFileSync(process.execPath, [bareChild, JSON.stringify({ origin: server.origin, files, window, tail: DEFAULT_INITIAL_FETCH_SIZE })],
        { encoding: 'utf8', maxBuffer: 1 << 20 })
      remoteRuns.bareHttp.push(JSON.parse(bare))
    }
    const summarize = (runs, which) => {
      const list = runs.map((r) => r[which])
      const pick = (key) => median(list.map((r) => r[key]))
      return { ms: pick('ms'), cpuMs: pick('cpuMs'), cpuMsPerFile: pick('cpuMs') / files, peakAboveStartBytes: pick('peakAboveStartBytes'),
        rounds: list[0].rounds, window: list[0].window, requests: list[0].requests, bytes: list[0].bytes, kept: list[0].kept }
    }

    // Local: ours against DuckDB's query over the same files, interleaved.
    const localTrials = quick ? 3 : 7
    const db = await duckdb()
    const localRuns = { ours: [], duckdb: [] }
    let keptByUs
    let keptByDuckDB
    try {
      const query = `SELECT DISTINCT filename FROM read_parquet(${quote(path.join(local, '*.parquet'))}, filename = true) WHERE id = ${value}`
      for (let t = -3; t < localTrials; t++) { // trials below 0 warm the JIT, the page cache and DuckDB
        let cpu = process.cpuUsage()
        let started = performance.now()
        const result = await (await openDataset(local)).probe('id', [value])
        let ms = performance.now() - started
        let used = process.cpuUsage(cpu)
        if (t >= 0) localRuns.ours.push({ ms, cpuMs: (used.user + used.system) / 1000 })
        keptByUs = result.files.filter((f) => f.values[0].verdict !== 'absent').map((f) => f.path)
        cpu = process.cpuUsage()
        started = performance.now()
        const rows = await db.rows(query)
        ms = performance.now() - started
        used = process.cpuUsage(cpu)
        if (t >= 0) localRuns.duckdb.push({ ms, cpuMs: (used.user + used.system) / 1000 })
        keptByDuckDB = rows.map((r) => path.basename(r.filename))
      }
    } finally {
      db.close()
    }
    const holder = datasetFileName(123)
    if (!keptByUs.includes(holder) || !keptByDuckDB.includes(holder)) throw new Error(`${holder} holds the value: kept by us ${keptByUs.includes(holder)}, by DuckDB ${keptByDuckDB.includes(holder)}`)
    const localSummary = (name) => ({ ms: median(localRuns[name].map((r) => r.ms)), cpuMs: median(localRuns[name].map((r) => r.cpuMs)) })
    return {
      files, rowGroupsPerFile: GROUPS, rowsPerGroup: GROUP_ROWS, responseDelayMs: RESPONSE_DELAY_MS, trials, value: String(value),
      remote: {
        probe: { cold: summarize(remoteRuns.probe, 'cold'), warm: summarize(remoteRuns.probe, 'warm') },
        probeEach: { cold: summarize(remoteRuns.probeEach, 'cold'), warm: summarize(remoteRuns.probeEach, 'warm') },
        bareHttp: { cold: summarize(remoteRuns.bareHttp, 'cold'), warm: summarize(remoteRuns.bareHttp, 'warm') },
        httpsH2: { cold: summarize(remoteRuns.httpsH2, 'cold'), warm: summarize(remoteRuns.httpsH2, 'warm') },
        httpsHttp1: { cold: summarize(remoteRuns.httpsHttp1, 'cold'), warm: summarize(remoteRuns.httpsHttp1, 'warm') },
      },
      local: { files: localFiles, trials: localTrials, ours: localSummary('ours'), duckdb: localSummary('duckdb'), keptByUs: keptByUs.length, keptByDuckDB: keptByDuckDB.length },
    }
  } finally {
    await Promise.all([server?.stop(), https2?.stop(), https1?.stop()])
    await remove()
  }
}

runIfMain(import.meta.url, run)
