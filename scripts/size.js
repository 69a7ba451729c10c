// Prints what a browser downloads to probe a file with parquet-bloom: every JS module reachable from
// the package entry (js/index.js) plus the wasm, raw and gzip -9 (node:zlib), as `npm run size` shows.
// Usage: node scripts/size.js [--json]
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = path.join(root, 'js/index.js')
const WASM = path.join(root, 'js/wasm/parquet_bloom.wasm') // fetched by js/wasm-loader.js, not imported

// Relative specifiers of static imports/re-exports and of dynamic import('...') with a literal string.
const SPECIFIER = /(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s*[\w*{}\s,$]+\s*from\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g

/** Files reachable from the entry, in discovery order. */
export function moduleGraph(entry = ENTRY) {
  const seen = new Set()
  const visit = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(SPECIFIER)) visit(path.resolve(path.dirname(file), m[1]))
  }
  visit(entry)
  return [...seen]
}

/** Raw and gzip sizes of every file a browser loads to probe, and the totals. */
export function measureDownload() {
  const files = [...moduleGraph(), WASM].map((file) => {
    const bytes = readFileSync(file)
    return { file: path.relative(root, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
  })
  const sum = (list, key) => list.reduce((n, f) => n + f[key], 0)
  const js = files.filter((f) => !f.file.endsWith('.wasm'))
  const wasm = files.filter((f) => f.file.endsWith('.wasm'))
  return {
    files,
    js: { raw: sum(js, 'raw'), gzip: sum(js, 'gzip') },
    wasm: { raw: sum(wasm, 'raw'), gzip: sum(wasm, 'gzip') },
    total: { raw: sum(files, 'raw'), gzip: sum(files, 'gzip') },
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let report
  try {
    report = measureDownload()
  } catch (error) {
    console.error(error.code === 'ENOENT' ? `missing ${error.path}: build the wasm first (bash scripts/build.sh wasm)` : error.message)
    process.exit(1)
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2))
  } else {
    const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
    const width = Math.max(...report.files.map((f) => f.file.length))
    for (const f of report.files) console.log(`${f.file.padEnd(width)}  ${kib(f.raw).padStart(10)}  ${kib(f.gzip).padStart(10)} gzip`)
    console.log('-'.repeat(width + 30))
    console.log(`${'JS'.padEnd(width)}  ${kib(report.js.raw).padStart(10)}  ${kib(report.js.gzip).padStart(10)} gzip  (${report.files.length - 1} files)`)
    console.log(`${'wasm'.padEnd(width)}  ${kib(report.wasm.raw).padStart(10)}  ${kib(report.wasm.gzip).padStart(10)} gzip`)
    console.log(`${'total'.padEnd(width)}  ${kib(report.total.raw).padStart(10)}  ${kib(report.total.gzip).padStart(10)} gzip`)
  }
}
