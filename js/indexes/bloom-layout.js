// Where a column chunk's bloom filter lies and how big its parts are, before and after reading its
// header: the header length writers produce for a given numBytes, the layout a bloom_filter_length
// implies, and the bound that limits a filter whose length the footer does not record.
import { allChunks } from '../footer/records.js'
import { isValidNumBytes } from '../wasm/sbbf.js'

const varintLength = (v) => {
  let n = 1
  while (v >= 0x80) {
    v = Math.floor(v / 128)
    n++
  }
  return n
}

/** Bytes of the header standard writers emit: field 1 (i32 zigzag varint) + three one-member unions. */
export function standardHeaderLength(numBytes) {
  return 14 + varintLength(numBytes * 2)
}

/**
 * The (headerLength, numBytes) a bloom_filter_length implies when the header is the standard one, or
 * null. Only a guess until the header is read and agrees.
 */
export function layoutFromLength(length) {
  for (let v = 1; v <= 5; v++) {
    const numBytes = length - 14 - v
    if (isValidNumBytes(numBytes) && varintLength(numBytes * 2) === v) return { headerLength: 14 + v, numBytes }
  }
  return null
}

/**
 * Sorted offsets of every structure the footer locates (pages, indexes, bloom filters, the footer).
 * A bloom filter cannot extend past the next one, which bounds filters of unknown length.
 */
export function structureBoundaries(layout, metadataOffset) {
  const all = []
  for (const c of allChunks(layout)) {
    for (const offset of [c.bloomOffset, c.dataPageOffset, c.dictionaryPageOffset, c.columnIndexOffset, c.offsetIndexOffset]) {
      if (offset >= 0) all.push(offset)
    }
  }
  all.push(metadataOffset)
  return Float64Array.from(all).sort()
}

/** The first boundary strictly after `offset` (binary search). */
export function nextBoundary(boundaries, offset) {
  let lo = 0
  let hi = boundaries.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (boundaries[mid] <= offset) lo = mid + 1
    else hi = mid
  }
  return lo < boundaries.length ? boundaries[lo] : Infinity
}
