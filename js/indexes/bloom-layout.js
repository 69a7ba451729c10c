// Where a column chunk's bloom filter lies and how big its parts are, before and after reading its
// header: the header length writers produce for a given numBytes, the layout a bloom_filter_length
// implies, and the bound that limits a filter whose length the footer does not record.
import { Chunk, CHUNK_WORDS } from '../footer/footer.js'

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
    if (numBytes >= 32 && numBytes % 32 === 0 && varintLength(numBytes * 2) === v) return { headerLength: 14 + v, numBytes }
  }
  return null
}

/**
 * Sorted offsets of every structure the footer locates (pages, indexes, bloom filters, the footer).
 * A bloom filter cannot extend past the next one, which bounds filters of unknown length.
 */
export function structureBoundaries(chunks, metadataOffset) {
  const count = chunks.length / CHUNK_WORDS
  const all = new Float64Array(count * 5 + 1)
  let n = 0
  for (let c = 0; c < count; c++) {
    const w = c * CHUNK_WORDS
    for (const k of [Chunk.BLOOM_OFFSET, Chunk.DATA_PAGE_OFFSET, Chunk.DICTIONARY_PAGE_OFFSET, Chunk.COLUMN_INDEX_OFFSET, Chunk.OFFSET_INDEX_OFFSET]) {
      if (chunks[w + k] >= 0) all[n++] = chunks[w + k]
    }
  }
  all[n++] = metadataOffset
  return all.subarray(0, n).sort()
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
