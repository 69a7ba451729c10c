// Prints what a browser downloads to probe a file with parquet-bloom, raw and gzip -9, as `npm run size`
// shows: the budgeted base (bundle, glue, wasm), any chunk loaded only on demand (reported, not counted),
// then each commented source module, for reading. The measuring is testkit/download-size.js's.
// Usage: node scripts/size.js [--json]
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { measureDownload, measureSources } from '../testkit/download-size.js'

function printTable(title, report, { count = true } = {}) {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
  const row = (name, size, note = '') => console.log(`${name.padEnd(40)}  ${kib(size.raw).padStart(10)}  ${kib(size.gzip).padStart(10)} gzip${note}`)
  console.log(`\n${title}`)
  for (const f of report.files) row(f.file, f)
  console.log('-'.repeat(70))
  row('JS', report.js, `  (${report.files.length - 1} files)`)
  row('wasm', report.wasm)
  if (count) row('total', report.total)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let download
  let sources
  try {
    download = await measureDownload()
    sources = measureSources()
  } catch (error) {
    console.error(error.code === 'ENOENT' ? `missing ${error.path}: build the wasm first (bash scripts/build.sh wasm)` : error.message)
    process.exit(1)
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ download, sources }, null, 2))
  } else {
    printTable('What a browser downloads to probe (the budget: 100 KiB gzip)', download)
    console.log(`\nLoaded on demand, not in the total: ${download.lazy.length === 0 ? 'none' : ''}`)
    for (const c of download.lazy) console.log(`${c.file.padEnd(40)}  adds ${(c.adds.gzip / 1024).toFixed(1)} KiB gzip`)
    printTable('The commented sources the bundle is built from (Node and the demo page load these; informational)', sources, { count: false })
  }
}
