// Where a column chunk's bloom filter lies and how big its parts are, before and after reading its
// header: the header length writers produce for a given numBytes, and the layout a bloom_filter_length
// implies (what bounds a filter whose length the footer does not record: js/footer/file-geometry.js).
import { isValidNumBytes } from '../wasm/sbbf.js'

const varintLength = (/** @type {number} */ v) => {
  let n = 1
  while (v >= 0x80) {
    v = Math.floor(v / 128)
    n++
  }
  return n
}

/**
 * Bytes of the header standard writers emit: field 1 (i32 zigzag varint) + three one-member unions.
 * @param {number} numBytes
 */
export function standardHeaderLength(numBytes) {
  return 14 + varintLength(numBytes * 2)
}

/**
 * The (headerLength, numBytes) a bloom_filter_length implies when the header is the standard one, or
 * null. Only a guess until the header is read and agrees.
 * @param {number} length
 */
export function layoutFromLength(length) {
  for (let v = 1; v <= 5; v++) {
    const numBytes = length - 14 - v
    if (isValidNumBytes(numBytes) && varintLength(numBytes * 2) === v) return { headerLength: 14 + v, numBytes }
  }
  return null
}


