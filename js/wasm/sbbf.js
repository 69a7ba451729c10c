// The Split Block Bloom Filter's sizes (parquet-format BloomFilter.md "Technical Approach": blocks of 8
// 32-bit words; src/sbbf.h declares them through the ABI, and init() checks these against it) and the
// checks of the sizes and false-positive probabilities callers pass: one place for every module.
import { invalidArgument, ErrorCode, ParquetBloomError } from '../errors.js'
import { SbbfLimit } from './abi.js'

export const BYTES_PER_BLOCK = 32
export const WORDS_PER_BLOCK = 8
export const MIN_NUM_BYTES = 32
/**
 * BloomFilter.md's salts, one per word of a block (src/sbbf.cc kSalt): word w of the block a hash selects
 * sets bit (low32 × SALTS[w]) >>> 27.
 */
export const SALTS = Object.freeze([0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31])
/** The ceiling arrow, parquet-java and arrow-rs use: a larger filter is refused, never allocated. */
export const MAX_NUM_BYTES = 128 * 1024 * 1024

/**
 * A bitset length the core accepts: whole blocks, within [MIN_NUM_BYTES, MAX_NUM_BYTES].
 * @param {unknown} numBytes
 */
export function isValidNumBytes(numBytes) {
  return typeof numBytes === 'number' && Number.isInteger(numBytes) && numBytes >= MIN_NUM_BYTES && numBytes <= MAX_NUM_BYTES &&
    numBytes % BYTES_PER_BLOCK === 0
}

/**
 * Throws INVALID_ARGUMENT unless `fpp` is a probability a filter can be sized for: 0 < fpp < 1.
 * @param {unknown} fpp
 */
export function checkFpp(fpp, name = 'fpp') {
  if (!(typeof fpp === 'number' && fpp > 0 && fpp < 1)) throw invalidArgument(`${name} must be in (0, 1), got ${fpp}`)
}

/** Throws WASM when the module's SBBF sizes are not these (called by init() once the ABI is bound). */
export function checkSbbfLimits() {
  const expected = { BYTES_PER_BLOCK, WORDS_PER_BLOCK, MIN_NUM_BYTES, MAX_NUM_BYTES }
  for (const [name, value] of Object.entries(expected)) {
    if (SbbfLimit.values[name] !== value) {
      throw new ParquetBloomError(ErrorCode.WASM,
        `the wasm module does not match this JS: its SBBF ${name} is ${SbbfLimit.values[name]}, js/wasm/sbbf.js says ${value}`)
    }
  }
}
