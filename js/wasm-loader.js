// Loads the Emscripten module once per realm: in Node the .wasm is read from disk next to this file,
// in browsers and workers it is streamed from the URL import.meta.url resolves — no bundler setup.
import { ErrorCode, ParquetBloomError } from './errors.js'

const wasmUrl = new URL('./wasm/parquet_bloom.wasm', import.meta.url)
const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined'

/** @type {Promise<any> | undefined} */
let loading

/** Resolves to the raw Embind module (see src/bindings/wasm_bindings.cc). */
export function loadWasmModule() {
  loading ??= instantiate().catch((cause) => {
    loading = undefined
    throw new ParquetBloomError(ErrorCode.WASM, `could not load the parquet-bloom wasm module (${wasmUrl.href}): ${cause?.message ?? cause}`, { cause })
  })
  return loading
}

async function instantiate() {
  const { default: createModule } = await import('./wasm/parquet_bloom.mjs')
  if (isNode) {
    const { readFile } = await import('node:fs/promises')
    return createModule({ wasmBinary: await readFile(wasmUrl) })
  }
  return createModule({ locateFile: () => wasmUrl.href })
}
