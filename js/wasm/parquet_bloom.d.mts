// Types of parquet_bloom.mjs, the Emscripten glue scripts/build.sh generates here (git ignores it):
// TypeScript resolves './wasm/parquet_bloom.mjs' to this file first, so `npm run typecheck` needs no
// build and does not check generated code.

/** What js/wasm-loader.js passes: the .wasm bytes, where to find the .wasm, or how to instantiate it. */
export interface EmscriptenModuleOptions {
  wasmBinary?: ArrayBufferView | ArrayBuffer
  locateFile?: (name: string, prefix?: string) => string
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receiveInstance: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ) => object
}

/** Resolves to the Embind module (src/bindings/wasm_bindings.cc); js/wasm/core.js and js/wasm/abi.js bind it. */
declare function createModule(options?: EmscriptenModuleOptions): Promise<any>
export default createModule
