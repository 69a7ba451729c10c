// Loads the Emscripten module once per realm: in Node the .wasm is read from disk next to this file,
// in browsers and workers it is streamed from the URL import.meta.url resolves — no bundler setup.
// Where compiling wasm from bytes at run time is forbidden (Cloudflare Workers / workerd), the caller
// passes the module its platform precompiled, and Emscripten's instantiateWasm hook instantiates that.
// Node only: PARQUET_BLOOM_WASM_DIR=/abs/dir loads parquet_bloom.mjs + parquet_bloom.wasm from that
// directory instead of js/wasm/ (scripts/test-wasm-debug.sh points it at the ASSERTIONS/SAFE_HEAP build).
// Browsers ignore it.
import { ErrorCode, ParquetBloomError } from './errors.js'

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined'
const overrideDir = isNode ? readOverrideDir() : undefined

/** @type {Promise<import('./wasm/parquet_bloom.mjs').ParquetBloomModule> | undefined} */
let loading
/** @type {URL | undefined} */
let wasmUrl

/**
 * Resolves to the raw Emscripten module (its exports: src/bindings/wasm_bindings.cc). With `module` (a compiled
 * WebAssembly.Module of js/wasm/parquet_bloom.wasm) nothing is fetched or compiled: the first call
 * decides, later calls share its result.
 * @param {{ module?: WebAssembly.Module }} [options]
 */
export function loadWasmModule({ module } = {}) {
  if (module !== undefined && !(module instanceof WebAssembly.Module)) {
    return Promise.reject(new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `init({ module }) needs a WebAssembly.Module (of parquet_bloom.wasm), got ${module === null ? 'null' : typeof module}`))
  }
  loading ??= (module ? instantiatePrecompiled(module) : instantiate()).catch((cause) => {
    loading = undefined
    const what = module ? 'the precompiled WebAssembly.Module passed to init()' : (wasmUrl?.href ?? './wasm/parquet_bloom.wasm')
    const hint = !module && /disallowed|not allowed|code generation/i.test(String(cause?.message))
      ? '; this runtime does not compile wasm at run time: pass a precompiled module with init({ module })'
      : ''
    throw new ParquetBloomError(ErrorCode.WASM,
      `could not load the parquet-bloom wasm module (${what}): ${cause?.message ?? cause}${hint}`, { cause })
  })
  return loading
}

// Emscripten's instantiateWasm hook is synchronous and reports success through a callback; a failed
// instantiation must reject the load rather than leave the factory's ready promise pending forever.
/**
 * @param {WebAssembly.Module} module
 * @returns {Promise<import('./wasm/parquet_bloom.mjs').ParquetBloomModule>}
 */
async function instantiatePrecompiled(module) {
  const createModule = await importFactory()
  return new Promise((resolve, reject) => {
    /** @type {import('./wasm/parquet_bloom.mjs').EmscriptenModuleOptions} */
    const options = {
      // Given, so the glue does not resolve its default .wasm URL from import.meta.url (absent in workerd).
      locateFile: (name) => name,
      instantiateWasm(imports, receiveInstance) {
        // catch, not then's second argument: receiveInstance itself throws on a module of another build.
        WebAssembly.instantiate(module, imports).then((instance) => receiveInstance(instance, module)).catch(reject)
        return {} // the exports arrive through receiveInstance
      },
    }
    const created = overrideDir ? withCommonJsGlobals(() => createModule(options)) : createModule(options)
    Promise.resolve(created).then(resolve, reject)
  })
}

async function instantiate() {
  const createModule = await importFactory()
  if (!wasmUrl) {
    throw new Error('this runtime gives modules no import.meta.url to find parquet_bloom.wasm by; ' +
      'pass a precompiled module with init({ module })')
  }
  if (isNode) {
    const { readFile } = await import('node:fs/promises')
    const wasmBinary = await readFile(wasmUrl)
    if (overrideDir) return withCommonJsGlobals(() => createModule({ wasmBinary }))
    return createModule({ wasmBinary })
  }
  const url = wasmUrl
  return createModule({ locateFile: () => url.href })
}

/** The Emscripten factory, from js/wasm/ or PARQUET_BLOOM_WASM_DIR; sets wasmUrl to its .wasm. */
async function importFactory() {
  if (overrideDir) {
    const { pathToFileURL } = await import('node:url')
    const { resolve } = await import('node:path')
    const dir = pathToFileURL(`${resolve(overrideDir)}/`) // relative paths resolve from the cwd
    wasmUrl = new URL('parquet_bloom.wasm', dir)
    return (await import(new URL('parquet_bloom.mjs', dir).href)).default
  }
  // Resolved here, not at import time: workerd has no import.meta.url, yet must be able to import the
  // package and pass a precompiled module. The specifier is literal so that bundlers see the file.
  if (typeof import.meta.url === 'string') wasmUrl = new URL('./wasm/parquet_bloom.wasm', import.meta.url)
  return (await import('./wasm/parquet_bloom.mjs')).default
}

// The debug build includes Emscripten's Node environment (its ASSERTIONS refuse to start otherwise),
// whose 3.1.6 glue expects CommonJS's require and __dirname even in an ES module. They are provided
// only while the factory runs its synchronous environment setup, then removed again.
/**
 * @param {() => Promise<import('./wasm/parquet_bloom.mjs').ParquetBloomModule>} create
 * @returns {Promise<import('./wasm/parquet_bloom.mjs').ParquetBloomModule>}
 */
async function withCommonJsGlobals(create) {
  const { createRequire } = await import('node:module')
  const { fileURLToPath } = await import('node:url')
  if (!wasmUrl) throw new Error('importFactory sets wasmUrl before the factory runs')
  /** @type {string[]} */
  const added = []
  /** @type {Array<[string, unknown]>} */
  const globals = [['require', createRequire(wasmUrl)], ['__dirname', fileURLToPath(new URL('.', wasmUrl))]]
  const globalRecord = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis))
  for (const [name, value] of globals) {
    if (!(name in globalThis)) {
      globalRecord[name] = value
      added.push(name)
    }
  }
  try {
    return create()
  } finally {
    for (const name of added) delete globalRecord[name]
  }
}

// Deno implements process.env but throws NotCapable on it without --allow-env: no permission to read
// the variable means no override, not a package that fails to import.
function readOverrideDir() {
  try {
    return process.env?.PARQUET_BLOOM_WASM_DIR || undefined
  } catch {
    return undefined
  }
}
