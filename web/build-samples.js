// Writes the demo's sample Parquet files and their manifest into web/samples/ (tests/js/helpers/demo-samples.js
// says what they are and how their truth is read back; the tests use it from there).
// Run: node web/build-samples.js [--force]      (skips files that already exist unless --force)
import { buildSamples } from '../tests/js/helpers/demo-samples.js'

const manifest = await buildSamples({ force: process.argv.includes('--force'), log: (line) => console.log(line) })
for (const s of manifest.samples) console.log(`${s.file}: ${s.sizeBytes} bytes, ${s.probe.rowGroupCount} row groups`)
