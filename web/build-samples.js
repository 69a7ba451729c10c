// Writes the demo's sample Parquet files and their manifest into web/samples/ (testkit/demo-samples.js
// says what they are and how their truth is read back; the tests use it from there), and the samples of the
// dataset and table card with theirs (testkit/demo-datasets.js).
// Run: node web/build-samples.js [--force]      (skips files that already exist unless --force)
import { buildSamples } from '../testkit/demo-samples.js'
import { buildDatasetSamples } from '../testkit/demo-datasets.js'

const force = process.argv.includes('--force')
const manifest = await buildSamples({ force, log: (line) => console.log(line) })
for (const s of manifest.samples) console.log(`${s.file}: ${s.sizeBytes} bytes, ${s.probe.rowGroupCount} row groups`)
const datasets = await buildDatasetSamples({ force, log: (line) => console.log(line) })
for (const s of datasets.samples) console.log(`${s.id}: ${s.title}`)
