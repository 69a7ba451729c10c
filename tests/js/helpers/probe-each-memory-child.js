// A child process for tests/js/dataset-scale.test.js: streams a dataset probe through probeEach over
// the files the parent serves and prints what it cost in memory — the kernel's peak RSS (getrusage
// maxRSS) above the RSS just before the probe, which counts everything the process holds with no
// sampling gap, and the JS heap left after a full collection once the stream has ended. Argument: JSON
// { origin, files, distinct, concurrency, column, value }: `files` URLs over the `distinct` files the
// dataset helper names (a query string tells copies apart); concurrency null: the dataset's own window.
import { init, openDataset } from '../../../js/index.js'
import { datasetFileName } from '../../../testkit/sidecar-dataset.js'

const { origin, files, distinct, concurrency, column, value } = JSON.parse(process.argv[2])
await init()
const urls = Array.from({ length: files }, (_, i) => ({ path: `copy${Math.floor(i / distinct)}/${datasetFileName(i % distinct)}`, location: `${origin}/${datasetFileName(i % distinct)}?copy=${Math.floor(i / distinct)}` }))
// Warm: the modules, the JIT and a connection, so that the measure is the stream's.
const options = concurrency === null ? {} : { concurrency }
const warm = await openDataset(urls.slice(0, 20), options)
for await (const file of warm.probeEach(column, [BigInt(value)])) if (file.error) throw new Error(file.error.message)
globalThis.gc?.()
const heapBefore = process.memoryUsage().heapUsed
const rssBefore = process.memoryUsage().rss
const dataset = await openDataset(urls, options)
let seen = 0
let errors = 0
for await (const file of dataset.probeEach(column, [BigInt(value)])) {
  seen++
  if (file.error) errors++
}
const peak = Math.max(process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024) // maxRSS: KiB
globalThis.gc?.()
process.stdout.write(JSON.stringify({ files: seen, errors, peakAboveStartBytes: peak - rssBefore, heapAfterBytes: process.memoryUsage().heapUsed - heapBefore }))
