// Inspects local Parquet files: row groups, columns, which columns have bloom filters, and how healthy
// those filters are (how full, and the false-positive rate that fill implies).
// Run: node examples/inspect-files.js <file.parquet>... [--json]
import { openParquet, ParquetBloomError } from 'parquet-bloom'

const args = process.argv.slice(2)
const json = args.includes('--json')
const paths = args.filter((a) => a !== '--json')
if (paths.length === 0) {
  console.error('usage: node examples/inspect-files.js <file.parquet>... [--json]')
  process.exit(64)
}

let failed = false
for (const path of paths) {
  try {
    const report = await inspect(path)
    if (json) console.log(JSON.stringify(report))
    else print(report)
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    console.error(`${path}: error [${error.code}]: ${error.message}`)
    failed = true
  }
}
process.exitCode = failed ? 2 : 0

async function inspect(path) {
  const file = await openParquet(path)
  try {
    const { numRows, createdBy, rowGroups } = file.metadata
    const columns = []
    for (const [c, column] of (rowGroups[0]?.columns ?? []).entries()) {
      const fills = []
      const fpps = []
      let filterBytes = 0
      let filters = 0
      for (const group of rowGroups) {
        const bloom = group.columns[c].bloom
        if (!bloom) continue
        filters++
        filterBytes += bloom.length ?? 0
        // The filter is lent for the length of the callback, then returned to the wasm pool.
        const health = await file.visitBloomFilter(group.index, column.path, (filter) => filter.health())
        fills.push(health.fillRatio)
        fpps.push(health.estimatedFpp)
      }
      columns.push({
        name: column.path,
        physicalType: column.physicalType,
        logicalType: column.logicalType?.type ?? null,
        filters,
        filterBytes,
        minFill: fills.length ? Math.min(...fills) : null,
        maxFill: fills.length ? Math.max(...fills) : null,
        maxEstimatedFpp: fpps.length ? Math.max(...fpps) : null,
      })
    }
    return { path, fileSize: file.fileSize, numRows, createdBy, rowGroups: rowGroups.length, columns, stats: file.stats }
  } finally {
    await file.close()
  }
}

function print(report) {
  console.log(`${report.path}: ${report.numRows} rows in ${report.rowGroups} row groups, ${report.fileSize} bytes, written by ${report.createdBy ?? 'unknown'}`)
  const pct = (x) => `${(x * 100).toFixed(x < 0.01 ? 3 : 1)}%`
  const typeOf = (c) => `${c.physicalType}${c.logicalType ? ` ${c.logicalType}` : ''}`
  const width = Math.max(6, ...report.columns.map((c) => c.name.length))
  const typeWidth = Math.max(4, ...report.columns.map((c) => typeOf(c).length))
  console.log(`  ${'column'.padEnd(width)}  ${'type'.padEnd(typeWidth)}  filters  ${'bytes'.padStart(9)}  fill          est. fpp`)
  for (const c of report.columns) {
    const health = c.filters === 0 ? '-' : `${pct(c.minFill)}–${pct(c.maxFill)}`.padEnd(12) + `  ${pct(c.maxEstimatedFpp)}${c.maxEstimatedFpp > 0.05 ? '  overfull!' : ''}`
    console.log(`  ${c.name.padEnd(width)}  ${typeOf(c).padEnd(typeWidth)}  ${`${c.filters}/${report.rowGroups}`.padEnd(7)}  ${String(c.filterBytes).padStart(9)}  ${health}`)
  }
}
