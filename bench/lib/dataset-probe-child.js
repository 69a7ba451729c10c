// One dataset probe over HTTP in a child process of its own (bench/sections/dataset-scale.js), so that
// what it costs in memory is the probe's: the kernel's peak RSS (getrusage maxRSS) above the RSS just
// before the probe, with client CPU and wall time and what the probe counted. Then the same probe again
// in the same process (connections kept, the JIT warm). Argument: JSON { origin, files, value, stream }:
// `files` URLs named as testkit/sidecar-dataset.js names them; `stream`: probeEach, keeping
// nothing, rather than probe().
import { init, openDataset } from '../../js/index.js'
import { datasetFileName } from '../../testkit/sidecar-dataset.js'

const { origin, files, value, stream } = JSON.parse(process.argv[2])
await init()
const urls = Array.from({ length: files }, (_, f) => `${origin}/${datasetFileName(f)}`)

async function once() {
  const rssBefore = process.memoryUsage().rss
  const cpu = process.cpuUsage()
  const started = performance.now()
  const dataset = await openDataset(urls)
  let answered = 0
  let kept = 0
  let errors = 0
  let stats
  const count = (file) => {
    answered++
    if (file.error) errors++
    if (file.values[0].verdict !== 'absent') kept++
  }
  if (stream) {
    // probeEach has no stats of its own: the files' requests and bytes are summed as they come.
    stats = { requests: 0, bytes: 0, rounds: null, window: null }
    for await (const file of dataset.probeEach('id', [BigInt(value)])) {
      count(file)
      stats.requests += file.stats.requests
      stats.bytes += file.stats.bytesFetched
    }
  } else {
    const result = await dataset.probe('id', [BigInt(value)])
    result.files.forEach(count)
    stats = result.stats
  }
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  const peak = Math.max(process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024) // maxRSS: KiB
  return { ms, cpuMs: (used.user + used.system) / 1000, rounds: stats.rounds, window: stats.window, requests: stats.requests, bytes: stats.bytes,
    answered, kept, errors, rssBeforeBytes: rssBefore, peakAboveStartBytes: peak - rssBefore }
}

const cold = await once()
const warm = await once()
process.stdout.write(JSON.stringify({ cold, warm }))
