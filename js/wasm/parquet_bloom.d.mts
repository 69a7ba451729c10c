// Types of parquet_bloom.mjs, the Emscripten glue scripts/build.sh generates here (git ignores it):
// TypeScript resolves './wasm/parquet_bloom.mjs' to this file first, so `npm run typecheck` needs no
// build and does not check generated code. The exports are the C functions of src/bindings/wasm_bindings.cc;
// js/wasm/core.js names them as NativeFunctions, checks at init() that the module has each of them
// (NATIVE_FUNCTIONS) and is the only module that calls them. Addresses are wasm32 byte addresses; int32
// results are src/status.h Status codes unless said otherwise.

/** What js/wasm-loader.js passes: the .wasm bytes, where to find the .wasm, or how to instantiate it. */
export interface EmscriptenModuleOptions {
  wasmBinary?: ArrayBufferView | ArrayBuffer
  locateFile?: (name: string, prefix?: string) => string
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receiveInstance: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ) => object
}

/** The scratch pool's bytes (src/scratch_pool.h). */
export interface PoolStats { heldBytes: number, inUseBytes: number, maxHeldBytes: number }

/** The native functions as js/wasm/core.js names them (`core.native`), over the module's exports. */
export interface NativeFunctions {
  /** A pool block of at least `bytes`; 0 when the budget is exhausted. */
  poolAcquire(bytes: number): number
  poolRelease(address: number): number
  poolSetMaxBytes(bytes: number): void
  poolStats(): PoolStats
  /** The bytes a pool block of `bytes` really holds (its size class). */
  poolClassBytes(bytes: number): number
  /** Heap allocations so far (pool system allocations + operator new); for bench/sections/allocations.js. */
  allocationCount(): number
  batchScratchAddress(): number
  batchScratchBytes(): number
  /** Decodes a BloomFilterHeader into a BloomHeader record at `out`. */
  decodeHeader(data: number, size: number, out: number): number
  /** Writes the header of a `numBytes` filter at `out`; returns its length, 0 when `capacity` is too small. */
  encodeHeader(numBytes: number, out: number, capacity: number): number
  /** Filter bytes for `ndv` values at `fpp`; 0 for arguments out of range. */
  optimalNumBytes(ndv: number, fpp: number): number
  checkHashes(words: number, numBytes: number, hashes: number, count: number, out: number): number
  blockIndices(hashes: number, count: number, numBlocks: number, out: number): void
  checkGatheredBlocks(hashes: number, blocks: number, count: number, out: number): void
  decodeColumnChunks(data: number, size: number, spans: number, count: number, chunks: number, indexes: number, failed: number): number
  analyzeBitset(words: number, numBytes: number, out: number): number
  /** Address of the src/abi.h Description js/wasm/abi.js binds to. */
  abiDescription(): number
}

/**
 * The instantiated module: the exports of src/bindings/wasm_bindings.cc (each a C function of numbers, by
 * its C name with a leading underscore) and the heap. uint32_t results arrive as signed int32.
 */
export interface ParquetBloomModule {
  HEAPU8: Uint8Array<ArrayBuffer>
  _pb_pool_acquire(bytes: number): number
  _pb_pool_release(address: number): number
  _pb_pool_set_max_bytes(bytes: number): void
  /** Address of three doubles: the pool's held, in-use and maximum held bytes. */
  _pb_pool_stats(): number
  _pb_pool_class_bytes(bytes: number): number
  _pb_allocation_count(): number
  _pb_batch_scratch_address(): number
  _pb_batch_scratch_bytes(): number
  _pb_decode_header(data: number, size: number, out: number): number
  _pb_encode_header(numBytes: number, out: number, capacity: number): number
  _pb_optimal_num_bytes(ndv: number, fpp: number): number
  _pb_check_hashes(words: number, numBytes: number, hashes: number, count: number, out: number): number
  _pb_block_indices(hashes: number, count: number, numBlocks: number, out: number): void
  _pb_check_gathered_blocks(hashes: number, blocks: number, count: number, out: number): void
  _pb_decode_column_chunks(data: number, size: number, spans: number, count: number, chunks: number, indexes: number, failed: number): number
  _pb_analyze_bitset(words: number, numBytes: number, out: number): number
  _pb_abi_description(): number
  /** The calls a batch makes per chunk; js/wasm/core.js calls them as they are. */
  _pb_insert_batch(words: number, numBytes: number, descriptor: number): number
  _pb_check_batch(words: number, numBytes: number, descriptor: number, out: number): number
  /** Hashes a batch into `out` (XXH64, 8 bytes per value); returns how many were hashed, negative on error. */
  _pb_hash_batch(descriptor: number, out: number): number
  /** One pass of the footer decoder (src/file_metadata.h DecodeFooterPass); a Status. */
  _pb_decode_footer(pass: number, data: number, size: number, bias: number, summary: number, schema: number,
    rowGroups: number, chunks: number, spans: number, columnOrders: number, schemaCapacity: number, rowGroupCapacity: number,
    chunkCapacity: number, columnOrderCapacity: number): number
}

/** Resolves to the module (src/bindings/wasm_bindings.cc); js/wasm/core.js binds it. */
declare function createModule(options?: EmscriptenModuleOptions): Promise<ParquetBloomModule>
export default createModule
