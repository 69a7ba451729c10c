// What a browser downloads to probe a file with parquet-bloom, raw and gzip -9 (node:zlib): the minified
// bundle (scripts/build-bundle.js, built here in memory from the current sources), the Emscripten glue
// and the wasm that init() loads — the budgeted base — then any chunk loaded only on demand, and the
// commented source modules; and the module graph of the sources. Measured for the tests (the 100 KiB
// budget, the Workers config, the browser runs), the benchmark and `npm run size` (scripts/size.js).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

import { BUNDLE, buildBrowserBundle, GLUE, root, WASM } from '../scripts/build-bundle.js'

const SOURCE_ENTRY = path.join(root, 'js/index.js')

// Specifiers of static imports/re-exports, and also of dynamic import('...') with a literal string.
const STATIC_SPECIFIER = /(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s*[\w*{}\s,$]+\s*from\s*)['"]([^'"\s]+)['"]/g
const SPECIFIER = /(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s*[\w*{}\s,$]+\s*from\s*|\bimport\s*\(\s*)['"]([^'"\s]+)['"]/g
const isRelative = (spec) => spec.startsWith('./') || spec.startsWith('../')

/** Every specifier `code` imports or re-exports (relative, bare, node:), and with `dynamicImports` those of import('…'). */
export function importSpecifiers(code, { dynamicImports = true } = {}) {
  return [...code.matchAll(dynamicImports ? SPECIFIER : STATIC_SPECIFIER)].map((m) => m[1])
}

/**
 * Source files reachable from the entry, in discovery order. `dynamicImports: false` leaves out modules
 * only an import() reaches (loaded on demand, e.g. with the page decoders): what a probe loads.
 */
export function moduleGraph(entry = SOURCE_ENTRY, { dynamicImports = true } = {}) {
  const seen = new Set()
  const visit = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    // Type-only imports in JSDoc comments (`@param {import('./x.js').T}`) load nothing.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
    for (const spec of importSpecifiers(text, { dynamicImports })) if (isRelative(spec)) visit(path.resolve(path.dirname(file), spec))
  }
  visit(entry)
  return [...seen]
}

const measure = (file, bytes) => ({ file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length })
const readMeasured = (file) => measure(file, readFileSync(path.join(root, file)))

function totals(files) {
  const sum = (list, key) => list.reduce((n, f) => n + f[key], 0)
  const js = files.filter((f) => !f.file.endsWith('.wasm'))
  const wasm = files.filter((f) => f.file.endsWith('.wasm'))
  return {
    js: { raw: sum(js, 'raw'), gzip: sum(js, 'gzip') },
    wasm: { raw: sum(wasm, 'raw'), gzip: sum(wasm, 'gzip') },
    total: { raw: sum(files, 'raw'), gzip: sum(files, 'gzip') },
  }
}

/**
 * What a browser downloads through the bundle. `files` is the base every probe needs: the bundle and the
 * chunks it imports statically, the glue and the wasm (init() loads both before the first probe).
 * `lazy` is every other chunk, each with what it adds beyond the base, loaded only when its import()
 * runs. `modules`: the source files the base is built from. Source maps are fetched only by open
 * developer tools and are not counted.
 */
export async function measureDownload() {
  const { metafile, outputFiles } = await buildBrowserBundle({ write: false })
  const contents = new Map(outputFiles.map((f) => [path.relative(root, f.path), f.contents]))
  const staticClosure = (start, into = new Set()) => {
    if (into.has(start)) return into
    into.add(start)
    for (const i of metafile.outputs[start].imports) if (!i.external && i.kind === 'import-statement') staticClosure(i.path, into)
    return into
  }
  const base = staticClosure(BUNDLE)
  const lazy = Object.keys(metafile.outputs)
    .filter((file) => file.endsWith('.js') && !base.has(file))
    .map((file) => {
      const adds = [...staticClosure(file)].filter((f) => !base.has(f))
      return { ...measure(file, contents.get(file)), adds: totals(adds.map((f) => measure(f, contents.get(f)))).total }
    })
  const files = [...[...base].map((file) => measure(file, contents.get(file))), readMeasured(GLUE), readMeasured(WASM)]
  const modules = [...base].flatMap((file) => Object.keys(metafile.outputs[file].inputs)).sort()
  return { files, ...totals(files), lazy, modules }
}

/**
 * The commented source modules a probe loads (what Node and the demo page load: the static graph and the
 * glue init() imports, not the modules other import()s load on demand) and the wasm: for reading, not budgeted.
 */
export function measureSources() {
  const files = [...moduleGraph(undefined, { dynamicImports: false }).map((file) => path.relative(root, file)), GLUE, WASM].map(readMeasured)
  return { files, ...totals(files) }
}
