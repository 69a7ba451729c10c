// Builds the browser bundle: js/index.js and everything it imports, minified into one ES module,
// js/parquet-bloom.browser.js, which package.json's "browser" export condition points at. The commented
// sources stay what Node runs and what the bundle's source map points back to.
// It sits in js/ beside wasm-loader.js so `new URL('./wasm/parquet_bloom.wasm', import.meta.url)` and
// the glue's `import('./wasm/parquet_bloom.mjs')` resolve from it exactly as from the sources; the
// Emscripten glue stays a separate file (already minified by em++, and loaded by init() only).
// Modules a future `import('./x.js')` loads on demand become their own chunks beside the bundle.
// Node built-ins (node:fs etc.) are reached only through dynamic imports on Node-only paths: they stay
// external, so a browser never requests them.
// Usage: node scripts/build-bundle.js     (scripts/build-bundle.sh, which scripts/build.sh wasm runs)
import { build } from 'esbuild'
import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUNDLE = 'js/parquet-bloom.browser.js'
export const GLUE = 'js/wasm/parquet_bloom.mjs'
export const WASM = 'js/wasm/parquet_bloom.wasm'

const AVSC_TYPES = 'avsc/etc/browser/avsc-types.js'

/**
 * avsc (Iceberg manifests, on demand: js/table/avro.js) is CommonJS and requires Node's `buffer` and
 * `util`. It is bundled on its own into one ES module — `buffer` from the npm package of that name, `util`
 * as the four functions avsc uses (js/table/avsc-util.js) — which the bundle then splits like any other
 * module: CommonJS handled inside the bundle itself would put esbuild's interop helpers into a chunk
 * that the entry imports, growing what every probe downloads.
 * @type {import('esbuild').Plugin}
 */
const avscAsModule = {
  name: 'avsc-as-module',
  setup(plugin) {
    plugin.onResolve({ filter: /^avsc\/etc\/browser\/avsc-types\.js$/ }, () => ({ path: AVSC_TYPES, namespace: 'avsc-module' }))
    plugin.onLoad({ filter: /.*/, namespace: 'avsc-module' }, async () => {
      const { outputFiles } = await build({
        absWorkingDir: root,
        entryPoints: [AVSC_TYPES],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        alias: { util: './js/table/avsc-util.js' },
        write: false,
        logLevel: 'warning',
      })
      return { contents: outputFiles[0].text, loader: 'js', resolveDir: root }
    })
  },
}

/**
 * Runs esbuild. With write: false nothing touches the disk and the outputs come back in memory
 * (testkit/download-size.js measures them that way, so a stale bundle on disk can never pass the budget).
 * @returns {Promise<import('esbuild').BuildResult & { metafile: import('esbuild').Metafile }>}
 */
export function buildBrowserBundle({ write = true } = {}) {
  return build({
    absWorkingDir: root,
    entryPoints: { 'parquet-bloom.browser': 'js/index.js' },
    outdir: 'js',
    // Chunks must sit in js/ too: code moved into one keeps its import.meta.url-relative paths.
    chunkNames: 'parquet-bloom.browser-chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false, // the map points at the commented sources the package ships in js/
    legalComments: 'none',
    external: ['node:*', './wasm/parquet_bloom.mjs'],
    plugins: [avscAsModule],
    metafile: true,
    write,
    logLevel: 'warning',
  })
}

/** Removes the previous bundle, its map and its chunks: chunk names carry a hash, so old ones would pile up in the package. */
async function removePreviousBundle() {
  const js = path.join(root, 'js')
  const prefix = path.basename(BUNDLE, '.js')
  for (const name of await readdir(js)) if (name.startsWith(prefix)) await rm(path.join(js, name))
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await removePreviousBundle()
    await buildBrowserBundle()
  } catch {
    process.exit(1) // esbuild has already printed what failed
  }
}
