// Run by batch-streaming.test.js in a fresh Node process, so no other test has grown the wasm heap: probes of
// 1M INT64 values through a file's bloom filters (whole, and by blocks) and through a format-1 sidecar index (which
// checks gathered blocks), with memoryStats() before and after. Argument: JSON { dir, stored }: the parent's folder
// (p00000.parquet, p00001.parquet, _v1.puffin) and the values p00000.parquet holds, as text. Prints JSON: the stats,
// and how many stored values were answered absent by every row group (false negatives: must be 0).
import path from 'node:path'
import { init, memoryStats, openDataset, openParquet } from '../../../js/index.js'

const { dir, stored } = JSON.parse(process.argv[2])
const N = 1_000_000
await init()
// The stored values first, then values ≡ 1 (mod 3), which no file holds (testkit/sidecar-dataset.js).
const values = Array.from({ length: N }, (_, i) => (i < stored.length ? BigInt(stored[i]) : BigInt(i) * 3n + 1n))
const file = await openParquet(path.join(dir, 'p00000.parquet'))
const dataset = await openDataset(path.join(dir, '*.parquet'), { index: path.join(dir, '_v1.puffin') })
// Warm: footers, the filters' headers and the index's directory, so that the measure is the batches'.
await file.probe('id', [1n], { statistics: false })
await dataset.probe('id', [1n])
const before = memoryStats()
let falseNegatives = 0
for (const mode of ['filter', 'block']) {
  const { rowGroups } = await file.probe('id', values, { mode, statistics: false })
  for (let i = 0; i < stored.length; i++) if (rowGroups.every((g) => g.results[i].verdict === 'absent')) falseNegatives++
}
const { files } = await dataset.probe('id', values)
const first = files.find((f) => f.path === 'p00000.parquet')
for (let i = 0; i < stored.length; i++) if (first?.values[i].verdict !== 'maybe') falseNegatives++
const after = memoryStats()
await file.close()
await dataset.close()
process.stdout.write(JSON.stringify({ before, after, falseNegatives }))
