// Thin layer over the module's raw wasm exports, and the one module that holds the raw module: the named
// native functions (`core.native`, typed in js/wasm/parquet_bloom.d.mts and checked at init()), heap views
// that follow memory growth, the fixed scratch region batch calls stream through, the batch descriptor
// writer, and native status codes turned into errors.
import { BatchDescriptor, bindAbi, NativeStatus, PhysicalType, whenBound } from './abi.js'
import { checkSbbfLimits } from './sbbf.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { loadWasmModule } from '../wasm-loader.js'

// How a native function's result reads: as the wasm export returns it, or a uint32_t the export returns
// as a signed int32 (addresses, sizes), or the pool statistics the export writes (three doubles) at the
// address it returns.
const AS_IS = 0
const UNSIGNED = 1
const POOL_STATS = 2

/**
 * Each native function JS calls: the C export of src/bindings/wasm_bindings.cc that implements it (its
 * wasm name, with Emscripten's leading underscore) and how its result reads.
 * @type {Readonly<Record<keyof import('./parquet_bloom.mjs').NativeFunctions,
 *   readonly [keyof import('./parquet_bloom.mjs').ParquetBloomModule, number]>>}
 */
const NATIVE_EXPORTS = Object.freeze({
  poolAcquire: ['_pb_pool_acquire', UNSIGNED],
  poolRelease: ['_pb_pool_release', AS_IS],
  poolSetMaxBytes: ['_pb_pool_set_max_bytes', AS_IS],
  poolStats: ['_pb_pool_stats', POOL_STATS],
  poolClassBytes: ['_pb_pool_class_bytes', UNSIGNED],
  allocationCount: ['_pb_allocation_count', AS_IS],
  batchScratchAddress: ['_pb_batch_scratch_address', UNSIGNED],
  batchScratchBytes: ['_pb_batch_scratch_bytes', UNSIGNED],
  decodeHeader: ['_pb_decode_header', AS_IS],
  encodeHeader: ['_pb_encode_header', UNSIGNED],
  optimalNumBytes: ['_pb_optimal_num_bytes', AS_IS],
  checkHashes: ['_pb_check_hashes', AS_IS],
  blockIndices: ['_pb_block_indices', AS_IS],
  checkGatheredBlocks: ['_pb_check_gathered_blocks', AS_IS],
  decodeColumnChunks: ['_pb_decode_column_chunks', AS_IS],
  analyzeBitset: ['_pb_analyze_bitset', AS_IS],
  abiDescription: ['_pb_abi_description', UNSIGNED],
})

/**
 * Every native function JS calls; init() refuses a module that lacks one, as bindAbi refuses one whose
 * records or enums differ.
 * @type {ReadonlyArray<keyof import('./parquet_bloom.mjs').NativeFunctions>}
 */
export const NATIVE_FUNCTIONS = Object.freeze(
  /** @type {Array<keyof import('./parquet_bloom.mjs').NativeFunctions>} */ (Object.keys(NATIVE_EXPORTS)))

/** parquet.thrift `Type`, as the native PhysicalType enum numbers it (known once init() bound the ABI). */
export const PhysicalTypeCode = PhysicalType.values

export const RESULT_ABSENT = 0
export const RESULT_MAYBE = 1
export const RESULT_NULL = 2

// Word index of each descriptor field; the bytes reserved for it are padded so what follows stays 16-byte aligned.
const Descriptor = BatchDescriptor.wordIndex('i32', true)
let DESCRIPTOR_BYTES = 0
whenBound(() => { DESCRIPTOR_BYTES = (BatchDescriptor.bytes + 15) & ~15 })

/** @type {Core | undefined} */
let core

/**
 * Resolves once the wasm module is ready; later calls return the same instance.
 * @param {{ module?: WebAssembly.Module }} [options] `module`: parquet_bloom.wasm precompiled by the
 *   platform (e.g. a Workers wasm module import), for runtimes that forbid compiling wasm from bytes.
 */
export async function init(options) {
  if (core) return core
  const module = await loadWasmModule(options)
  const native = nativeFunctions(module)
  checkNativeFunctions(native)
  bindAbi({ HEAPU8: module.HEAPU8, abiDescription: native.abiDescription })
  checkSbbfLimits()
  core ??= new Core(module, /** @type {import('./parquet_bloom.mjs').NativeFunctions} */ (native))
  return core
}

/**
 * The native functions, by name, over the module's exports; a function whose export the module lacks is
 * left out, for checkNativeFunctions to name.
 * @param {import('./parquet_bloom.mjs').ParquetBloomModule} module
 * @returns {Partial<import('./parquet_bloom.mjs').NativeFunctions>}
 */
function nativeFunctions(module) {
  /** @type {Record<string, Function>} */
  const native = {}
  for (const [name, [exportName, result]] of Object.entries(NATIVE_EXPORTS)) {
    if (typeof module[exportName] !== 'function') continue
    // module[exportName] is looked up at each call: Emscripten's glue replaces its first stand-in with the
    // wasm function itself on the first call.
    const call = (/** @type {number[]} */ ...args) => /** @type {(...args: number[]) => number} */ (module[exportName])(...args)
    native[name] = result === UNSIGNED
      ? (/** @type {number[]} */ ...args) => call(...args) >>> 0
      : result === POOL_STATS
        ? () => {
          const stats = new Float64Array(module.HEAPU8.buffer, call() >>> 0, 3)
          return { heldBytes: stats[0], inUseBytes: stats[1], maxHeldBytes: stats[2] }
        }
        : call
  }
  return native
}

/**
 * Throws WASM, naming them, when the native functions lack any of NATIVE_FUNCTIONS (a module of another build).
 * @param {Partial<Record<keyof import('./parquet_bloom.mjs').NativeFunctions, unknown>>} native
 */
export function checkNativeFunctions(native) {
  const missing = NATIVE_FUNCTIONS.filter((name) => typeof native[name] !== 'function')
  if (missing.length) {
    throw new ParquetBloomError(ErrorCode.WASM,
      `the wasm module does not match this JS: it lacks ${missing.map((n) => `${n}()`).join(', ')}`)
  }
}

/** Whether init() has completed (callers per file then await nothing for it). */
export function initialized() {
  return core !== undefined
}

/** The initialised core, or a clear error when init() has not completed. */
export function getCore() {
  if (!core) throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'parquet-bloom is not initialised: await init() first')
  return core
}

export class Core {
  /** @type {import('./parquet_bloom.mjs').ParquetBloomModule} */
  #module

  /**
   * @param {import('./parquet_bloom.mjs').ParquetBloomModule} module
   * @param {import('./parquet_bloom.mjs').NativeFunctions} native its functions, named (nativeFunctions)
   */
  constructor(module, native) {
    this.#module = module
    /** The named native functions (nothing else of the module: its heap is read through the views below). */
    this.native = native
    /** @type {ArrayBuffer | undefined} */
    this.viewsOf = undefined
    // The module's static batch region: batches stream through it a chunk at a time (batch-writer.js), probes'
    // hashes are checked through it a slice at a time (js/indexes/bloom-reads.js), and a call's small output record
    // is written there. It never moves and is not pool memory. Valid until the next such use: they are synchronous.
    this.batchRegion = native.batchScratchAddress()
    this.batchRegionBytes = native.batchScratchBytes()
    // The calls a batch makes per chunk: the wasm functions themselves, with no wrapper between.
    this.insertBatch = rawExport(module, '_pb_insert_batch', 3)
    this.checkBatch = rawExport(module, '_pb_check_batch', 4)
    this.hashBatch = rawExport(module, '_pb_hash_batch', 2)
    // The footer's outline pass, whole or a big footer's in parts (js/footer/footer.js, windowed-outline.js).
    this.decodeFooter = rawExport(module, '_pb_decode_footer', 14)
    this.refreshViews()
  }

  // Memory growth detaches the old ArrayBuffer: views are rebuilt lazily whenever it changed, and code
  // re-reads them after every call that can allocate rather than holding them across it.
  refreshViews() {
    // Growing wasm memory detaches the old buffer, whose views then read as empty: a cheap test for the
    // hot path (reaching the module's HEAPU8 costs tens of nanoseconds).
    const { u8 } = this
    if (u8 !== undefined && u8.length !== 0) return
    const buffer = this.#module.HEAPU8.buffer
    if (buffer === this.viewsOf) return
    this.viewsOf = buffer
    // Typed without undefined: the constructor calls refreshViews(), so they are set on every Core.
    /** @type {Uint8Array<ArrayBuffer>} */
    this.u8 = new Uint8Array(buffer)
    /** @type {Int16Array<ArrayBuffer>} */
    this.i16 = new Int16Array(buffer)
    /** @type {Int32Array<ArrayBuffer>} */
    this.i32 = new Int32Array(buffer)
    /** @type {Uint32Array<ArrayBuffer>} */
    this.u32 = new Uint32Array(buffer)
    /** @type {Float32Array<ArrayBuffer>} */
    this.f32 = new Float32Array(buffer)
    /** @type {Float64Array<ArrayBuffer>} */
    this.f64 = new Float64Array(buffer)
    /** @type {BigInt64Array<ArrayBuffer>} */
    this.i64 = new BigInt64Array(buffer)
  }

  /**
   * Pool block of at least `bytes`, or a LIMIT_EXCEEDED error. May grow memory.
   * @param {number} bytes
   */
  acquire(bytes, what = 'scratch') {
    const ptr = this.native.poolAcquire(bytes)
    this.refreshViews()
    if (ptr === 0) {
      const { heldBytes, maxHeldBytes } = this.native.poolStats()
      throw new ParquetBloomError(ErrorCode.LIMIT_EXCEEDED,
        `wasm memory pool cannot provide ${bytes} bytes for ${what} (holding ${heldBytes} of ${maxHeldBytes} bytes)`)
    }
    return ptr
  }

  /** @param {number} ptr a pool block acquire() gave */
  release(ptr) {
    const status = this.native.poolRelease(ptr)
    if (status !== NativeStatus.OK) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `internal: releasing pool block ${ptr} failed (status ${status})`)
    }
  }

  /**
   * Writes the BatchDescriptor (src/bindings/batch_descriptor.h) a batch call reads. `offsetsBase` is
   * subtracted from the count + 1 BYTE_ARRAY offsets in wasm before the call uses them.
   * @param {number} at
   * @param {number} typeCode
   * @param {number} typeLength
   * @param {number} count
   * @param {number} valuesPtr
   * @param {number} valuesLength
   * @param {number} offsetsPtr
   * @param {number} valuesBitOffset
   * @param {number} validityPtr
   * @param {number} validityBitOffset
   */
  writeDescriptor(at, typeCode, typeLength, count, valuesPtr, valuesLength, offsetsPtr, valuesBitOffset,
    validityPtr, validityBitOffset, offsetsBase = 0) {
    const w = this.i32
    const i = at >> 2
    w[i + Descriptor.TYPE] = typeCode
    w[i + Descriptor.TYPE_LENGTH] = typeLength
    w[i + Descriptor.COUNT] = count
    w[i + Descriptor.VALUES] = valuesPtr
    w[i + Descriptor.VALUES_LENGTH] = valuesLength
    w[i + Descriptor.OFFSETS] = offsetsPtr
    w[i + Descriptor.VALUES_BIT_OFFSET] = valuesBitOffset
    w[i + Descriptor.VALIDITY] = validityPtr
    w[i + Descriptor.VALIDITY_BIT_OFFSET] = validityBitOffset
    w[i + Descriptor.OFFSETS_BASE] = offsetsBase
  }

  memoryStats() {
    const { heldBytes, inUseBytes, maxHeldBytes } = this.native.poolStats()
    return { heapBytes: this.#module.HEAPU8.length, poolBytes: heldBytes, poolInUseBytes: inUseBytes, poolMaxBytes: maxHeldBytes }
  }
}

export { DESCRIPTOR_BYTES }

/**
 * A plain wasm export of the module. Emscripten's glue wraps each export in a function that replaces
 * itself with the export on its first call; that call is made here with zeros, which every such entry
 * point refuses without touching memory, so later calls reach wasm directly. Typed as wasm calls it:
 * arguments left out read as 0 (js/footer/ passes the footer decoder's capacities only to the passes that use them).
 * @param {import('./parquet_bloom.mjs').ParquetBloomModule} module
 * @param {'_pb_insert_batch' | '_pb_check_batch' | '_pb_hash_batch' | '_pb_decode_footer'} name
 * @param {number} arity
 * @returns {(...args: number[]) => number}
 */
function rawExport(module, name, arity) {
  if (typeof module[name] !== 'function') {
    throw new ParquetBloomError(ErrorCode.WASM, `the wasm module does not match this JS: it exports no ${name}`)
  }
  /** @type {(...args: number[]) => number} */ (module[name])(...new Array(arity).fill(0))
  return module[name]
}

/**
 * Converts a native status into the error it means; OK returns quietly.
 * @param {number} status
 * @param {string} what
 */
export function throwIfFailed(status, what) {
  switch (status) {
    case NativeStatus.OK: return
    case NativeStatus.MALFORMED: throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${what}: malformed input batch`)
    case NativeStatus.LIMIT_EXCEEDED: throw new ParquetBloomError(ErrorCode.LIMIT_EXCEEDED, `${what}: wasm memory pool budget exhausted`)
    default: throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `${what}: invalid arguments (status ${status})`)
  }
}
