// Probes a remote Parquet file by URL: for each row group, could it hold these values? Only the footer
// and the bloom filter bytes are read, over HTTP range requests; the data pages never are.
// Run: node examples/probe-url.js <url> <column> <value>... [--json]
//   e.g. node examples/probe-url.js http://127.0.0.1:8080/web/samples/orders.parquet city Tokyo Atlantis
import { openParquet, ParquetBloomError } from 'parquet-bloom'

const args = process.argv.slice(2)
const json = args.includes('--json')
const [url, column, ...values] = args.filter((a) => a !== '--json')
if (!url || !column || values.length === 0) {
  console.error('usage: node examples/probe-url.js <url> <column> <value>... [--json]')
  process.exit(64)
}

try {
  const file = await openParquet(url, { requestTimeoutMs: 30_000 })
  try {
    const result = await file.probe(column, values)
    const { requests, bytesFetched } = file.stats
    if (json) {
      console.log(JSON.stringify({ fileSize: file.fileSize, stats: file.stats, result }))
    } else {
      const width = Math.max(9, ...values.map((v) => v.length))
      console.log(`${file.name}: column ${result.column}`)
      console.log(['row group'.padEnd(10), ...values.map((v) => v.padEnd(width))].join(' '))
      for (const g of result.rowGroups) {
        console.log([String(g.index).padEnd(10), ...g.results.map((r) => r.verdict.padEnd(width))].join(' '))
      }
      console.log(`read ${kb(bytesFetched)} of ${kb(file.fileSize)} in ${requests} request${requests === 1 ? '' : 's'}`)
    }
  } finally {
    await file.close()
  }
} catch (error) {
  if (!(error instanceof ParquetBloomError)) throw error
  console.error(`error [${error.code}]: ${error.message}`)
  process.exit(2)
}

function kb(bytes) {
  return bytes < 1000 ? `${bytes} bytes` : bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} KB` : `${(bytes / 1e6).toFixed(1)} MB`
}
