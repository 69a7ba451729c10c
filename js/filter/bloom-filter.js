// BloomFilter: a Split Block Bloom Filter whose bitset lives in pooled wasm memory. Owned filters are
// freed explicitly (free() / `using`); visit-scoped ones die when their visit ends and refuse use after.
import { BitsetHealth } from '../wasm/abi.js'
import { getCore, throwIfFailed, RESULT_MAYBE, RESULT_NULL } from '../wasm/core.js'
import { arrowChunks, hasDictionary, isArrowVector } from './arrow-input.js'
import { streamBatch } from '../wasm/batch-writer.js'
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { NativeStatus } from '../wasm/abi.js'
import { decodeHeaderBytes, encodeHeader, headerError } from '../indexes/bloom-header.js'
import { BYTES_PER_BLOCK, checkFpp, MAX_NUM_BYTES, MIN_NUM_BYTES } from '../wasm/sbbf.js'


// Safety net only: a filter the caller forgot to free returns its block when it is collected.
const leaked = new FinalizationRegistry((ptr) => {
  try {
    getCore().release(ptr)
  } catch {
    // The module may be gone at shutdown; nothing useful to report from a finalizer.
  }
})

/**
 * A physical type name, or { type, typeLength } (js/wasm/batch-writer.js resolveType).
 * @typedef {string | { type: string, typeLength?: number }} FilterType
 */

export class BloomFilter {
  #ptr
  #numBytes
  #owned
  #released = false
  /** @type {string | undefined} */
  #releasedReason

  /**
   * @private use create(), fromBytes() or a visit
   * @param {number} ptr
   * @param {number} numBytes
   * @param {boolean} owned
   * @param {symbol} token
   */
  constructor(ptr, numBytes, owned, token) {
    if (token !== constructToken) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'use BloomFilter.create() or BloomFilter.fromBytes()')
    }
    this.#ptr = ptr
    this.#numBytes = numBytes
    this.#owned = owned
  }

  /**
   * A zeroed filter sized for ndv distinct values at fpp (as arrow/parquet-java size them), or of
   * exactly numBytes (a multiple of 32 in [32, 128 MiB]).
   * @param {{ ndv?: number, fpp?: number, numBytes?: number }} options
   */
  static create({ ndv, fpp = 0.01, numBytes } = {}) {
    const core = getCore()
    if (numBytes === undefined) {
      if (ndv === undefined || !(Number.isFinite(ndv) && ndv >= 0)) {
        throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'BloomFilter.create needs { ndv, fpp } or { numBytes }')
      }
      checkFpp(fpp)
      numBytes = core.native.optimalNumBytes(ndv, fpp)
    }
    checkNumBytes(numBytes)
    const ptr = core.acquire(numBytes, 'a bloom filter bitset')
    core.u8.fill(0, ptr, ptr + numBytes)
    return BloomFilter.adopt(ptr, numBytes)
  }

  /**
   * Reads the Parquet layout: BloomFilterHeader followed by the bitset.
   * @param {Uint8Array | ArrayBuffer} bytes
   */
  static fromBytes(bytes) {
    const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes
    if (!(view instanceof Uint8Array)) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'BloomFilter.fromBytes expects a Uint8Array or ArrayBuffer')
    }
    const header = decodeHeaderBytes(view)
    if (header.status !== NativeStatus.OK) throw headerError(header, 'bloom filter bytes')
    const available = view.length - header.headerLength
    if (available < header.numBytes) {
      throw new ParquetBloomError(ErrorCode.MALFORMED_FILTER,
        `bloom filter bytes: header says numBytes ${header.numBytes} but only ${available} bitset bytes follow`,
        { offset: header.headerLength })
    }
    return BloomFilter.fromBitset(view.subarray(header.headerLength, header.headerLength + header.numBytes))
  }

  /**
   * Copies a bare bitset (no header) into a new filter.
   * @param {Uint8Array} bitset
   */
  static fromBitset(bitset) {
    checkNumBytes(bitset.length)
    const core = getCore()
    const ptr = core.acquire(bitset.length, 'a bloom filter bitset')
    core.u8.set(bitset, ptr)
    return BloomFilter.adopt(ptr, bitset.length)
  }

  /**
   * @internal wraps a pool block holding a bitset; the filter now owns it.
   * @param {number} ptr
   * @param {number} numBytes
   */
  static adopt(ptr, numBytes) {
    const filter = new BloomFilter(ptr, numBytes, true, constructToken)
    leaked.register(filter, ptr, filter)
    return filter
  }

  /**
   * @internal a filter whose block belongs to a visit scope, not to the filter.
   * @param {number} ptr
   * @param {number} numBytes
   */
  static scoped(ptr, numBytes) {
    return new BloomFilter(ptr, numBytes, false, constructToken)
  }

  get numBytes() {
    this.#assertLive()
    return this.#numBytes
  }

  get released() {
    return this.#released
  }

  /**
   * Inserts a batch of values of a Parquet physical type (nulls are skipped). Takes arrays, typed
   * arrays, Arrow-style columnar buffers ({ values, offsets?, validity?, offset?, validityOffset?,
   * length }) and Apache Arrow JS vectors (type inferred when omitted). Batches are inserted a chunk at
   * a time: a BAD_VALUE error part-way leaves the chunks before it inserted (more "maybe", never a false
   * "absent").
   * @param {import('../index.js').FilterValues} values
   * @param {FilterType} [type]
   */
  insert(values, type) {
    this.#assertLive()
    if (isArrowVector(values)) {
      for (const chunk of arrowChunks(values, type)) {
        if (hasDictionary(chunk)) this.insert(chunk.dictionary, type)
        else this.#insertBatch(chunk.input, chunk.type)
      }
      return this
    }
    this.#insertBatch(values, type)
    return this
  }

  /**
   * Checks a batch: 1 = maybe present, 0 = definitely absent, 2 = null slot (a bloom filter records no
   * nulls). Same inputs as insert().
   * @param {import('../index.js').FilterValues} values
   * @param {FilterType} [type]
   * @returns {Uint8Array}
   */
  check(values, type) {
    this.#assertLive()
    if (!isArrowVector(values)) return this.#checkBatch(values, type, undefined, 0)
    const results = new Uint8Array(values.length)
    let at = 0
    for (const chunk of arrowChunks(values, type)) {
      if (hasDictionary(chunk)) {
        // Check each dictionary entry once, then look the answers up by index.
        const answers = this.check(chunk.dictionary, type)
        const { indices, validity, validityOffset } = chunk
        for (let i = 0; i < chunk.length; i++) {
          const valid = !validity || (validity[(validityOffset + i) >> 3] >> ((validityOffset + i) & 7)) & 1
          results[at + i] = valid ? answers[indices[i]] : RESULT_NULL
        }
      } else {
        this.#checkBatch(chunk.input, chunk.type, results, at)
      }
      at += chunk.length
    }
    return results
  }

  // Batches stream through the module's fixed batch region a chunk at a time (batch-writer.js): one wasm
  // call per chunk, so a batch of any size costs neither pool memory nor heap growth. The per-chunk
  // calls are made once per filter: a small batch then allocates only its answers.
  /** @type {((desc: number) => void) | undefined} */
  #insertChunk
  /** @type {((desc: number, out: number) => void) | undefined} */
  #checkChunk

  /**
   * @param {import('../index.js').FilterValues | import('./arrow-input.js').ColumnarInput} values
   * @param {FilterType} [type]
   */
  #insertBatch(values, type) {
    const core = getCore()
    if (!this.#insertChunk) {
      const ptr = this.#ptr
      const numBytes = this.#numBytes
      this.#insertChunk = (desc) => throwIfFailed(core.insertBatch(ptr, numBytes, desc), 'insert')
    }
    streamBatch(core, values, type, 0, this.#insertChunk)
  }

  /**
   * Checks one batch; results go into `into` at `at` when given, else into a new array.
   * @param {import('../index.js').FilterValues | import('./arrow-input.js').ColumnarInput} values
   * @param {FilterType} [type]
   * @param {Uint8Array} [into]
   * @param {number} [at]
   */
  #checkBatch(values, type, into, at) {
    const core = getCore()
    if (!this.#checkChunk) {
      const ptr = this.#ptr
      const numBytes = this.#numBytes
      this.#checkChunk = (desc, out) => throwIfFailed(core.checkBatch(ptr, numBytes, desc, out), 'check')
    }
    return streamBatch(core, values, type, 1, this.#checkChunk, into, at)
  }

  /**
   * One value: false only when it is definitely absent.
   * @param {unknown} value
   * @param {FilterType} type
   */
  mightContain(value, type) {
    return this.check([value], type)[0] === RESULT_MAYBE
  }

  /** The Parquet layout: BloomFilterHeader {numBytes, BLOCK, XXHASH, UNCOMPRESSED} + bitset. */
  toBytes() {
    this.#assertLive()
    const header = encodeHeader(this.#numBytes)
    const out = new Uint8Array(header.length + this.#numBytes)
    out.set(header)
    out.set(getCore().u8.subarray(this.#ptr, this.#ptr + this.#numBytes), header.length)
    return out
  }

  /**
   * How full the bitset is and what that implies: fill ratio, the number of distinct values the
   * per-word fill suggests were inserted, and the false-positive probability a never-inserted value has.
   */
  health() {
    this.#assertLive()
    const core = getCore()
    const at = core.batchRegion // the record is a few dozen bytes
    throwIfFailed(core.native.analyzeBitset(this.#ptr, this.#numBytes, at), 'health')
    const h = BitsetHealth.read(core, at)
    return {
      numBytes: this.#numBytes,
      bitsSet: h.bitsSet,
      fillRatio: h.fillRatio,
      estimatedNdv: h.estimatedNdv,
      estimatedFpp: h.estimatedFpp,
      saturatedWords: h.saturatedWords,
      emptyBlocks: h.emptyBlocks,
      allBlocksIdentical: h.allBlocksIdentical === 1,
    }
  }

  /** A copy of the bitset bytes. */
  bitset() {
    this.#assertLive()
    return getCore().u8.slice(this.#ptr, this.#ptr + this.#numBytes)
  }

  /** Returns the bitset's memory to the pool (a scoped filter's memory goes back when its visit ends). Idempotent. */
  free() {
    if (this.#released) return
    this.#released = true
    this.#releasedReason = 'it was freed'
    if (!this.#owned) return
    leaked.unregister(this)
    getCore().release(this.#ptr)
  }

  [Symbol.dispose]() {
    this.free()
  }

  /** @internal pointer for probe code running inside the filter's lifetime */
  get address() {
    this.#assertLive()
    return this.#ptr
  }

  /**
   * @internal ends a scoped filter's life; its scope releases the block.
   * @param {string} reason why it can no longer be used
   */
  expire(reason) {
    if (this.#released) return
    this.#released = true
    this.#releasedReason = reason
  }

  #assertLive() {
    if (this.#released) {
      throw new ParquetBloomError(ErrorCode.FILTER_RELEASED,
        `this bloom filter can no longer be used: ${this.#releasedReason}. Keep results, not filters, beyond a visit callback`)
    }
  }
}

const constructToken = Symbol('BloomFilter')

/** @param {number} numBytes */
function checkNumBytes(numBytes) {
  if (!Number.isInteger(numBytes) || numBytes < MIN_NUM_BYTES || numBytes % BYTES_PER_BLOCK !== 0) {
    throw invalidArgument(`numBytes must be a positive multiple of ${BYTES_PER_BLOCK}, got ${numBytes}`)
  }
  if (numBytes > MAX_NUM_BYTES) {
    throw new ParquetBloomError(ErrorCode.TOO_LARGE, `numBytes ${numBytes} is over the 128 MiB bloom filter ceiling`)
  }
}
