// Loads the Emscripten module once per realm: in Node the .wasm is read from disk next to this file,
// in browsers and workers it is streamed from the URL import.meta.url resolves — no bundler setup.
// Node only: PARQUET_BLOOM_WASM_DIR=/abs/dir loads parquet_bloom.mjs + parquet_bloom.wasm from that
// directory instead of js/wasm/ (scripts/test-wasm-debug.sh points it at the ASSERTIONS/SAFE_HEAP build).
// Browsers ignore it.
import { ErrorCode, ParquetBloomError } from './errors.js'

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined'
const overrideDir = isNode ? process.env?.PARQUET_BLOOM_WASM_DIR || undefined : undefined

/** @type {Promise<any> | undefined} */
let loading
let wasmUrl = new URL('./wasm/parquet_bloom.wasm', import.meta.url)

/** Resolves to the raw Embind module (see src/bindings/wasm_bindings.cc). */
export function loadWasmModule() {
  loading ??= instantiate().catch((cause) => {
    loading = undefined
    throw new ParquetBloomError(ErrorCode.WASM, `could not load the parquet-bloom wasm module (${wasmUrl.href}): ${cause?.message ?? cause}`, { cause })
  })
  return loading
}

async function instantiate() {
  let createModule
  if (overrideDir) {
    const { pathToFileURL } = await import('node:url')
    const { resolve } = await import('node:path')
    const dir = pathToFileURL(`${resolve(overrideDir)}/`) // relative paths resolve from the cwd
    wasmUrl = new URL('parquet_bloom.wasm', dir)
    ;({ default: createModule } = await import(new URL('parquet_bloom.mjs', dir).href))
  } else {
    // A literal specifier, so bundlers see the module this file depends on.
    ;({ default: createModule } = await import('./wasm/parquet_bloom.mjs'))
  }
  if (isNode) {
    const { readFile } = await import('node:fs/promises')
    const wasmBinary = await readFile(wasmUrl)
    if (overrideDir) return withCommonJsGlobals(() => createModule({ wasmBinary }))
    return createModule({ wasmBinary })
  }
  return createModule({ locateFile: () => wasmUrl.href })
}

// The debug build includes Emscripten's Node environment (its ASSERTIONS refuse to start otherwise),
// whose 3.1.6 glue expects CommonJS's require and __dirname even in an ES module. They are provided
// only while the factory runs its synchronous environment setup, then removed again.
async function withCommonJsGlobals(create) {
  const { createRequire } = await import('node:module')
  const { fileURLToPath } = await import('node:url')
  const added = []
  for (const [name, value] of [['require', createRequire(wasmUrl)], ['__dirname', fileURLToPath(new URL('.', wasmUrl))]]) {
    if (!(name in globalThis)) {
      globalThis[name] = value
      added.push(name)
    }
  }
  try {
    return create()
  } finally {
    for (const name of added) delete globalThis[name]
  }
}
