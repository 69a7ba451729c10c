// Where a file's structures lie, as its footer says: every offset it locates (pages, indexes, filters,
// the footer) and every chunk's page range, computed once per file on first use. Filter reads bound a
// filter of unknown length by the next structure, and refuse one that lies inside a chunk's pages.
import { allChunks } from './records.js'

/**
 * What filter reads need of a footer: the layout, the file's size and where its footer starts, and the
 * offsets that bound a filter of unknown length and the chunks' page ranges, each computed once on first use
 * (a class: one object per file, no closures).
 */
export class FileGeometry {
  /** @type {Float64Array | undefined} */
  #boundaries
  /** @type {{ starts: Float64Array, ends: Float64Array } | undefined} */
  #pageRanges

  /** @param {import('./footer.js').FileLayout} layout @param {number} fileSize @param {number} metadataOffset */
  constructor(layout, fileSize, metadataOffset) {
    this.layout = layout
    this.fileSize = fileSize
    this.metadataOffset = metadataOffset
  }

  boundaries() {
    return (this.#boundaries ??= structureBoundaries(this.layout, this.metadataOffset))
  }

  pageRanges() {
    return (this.#pageRanges ??= chunkPageRanges(this.layout, this.metadataOffset))
  }
}

/**
 * The FileGeometry of a footer.
 * @param {import('./footer.js').FileLayout} layout @param {number} fileSize @param {number} metadataOffset
 */
export function fileGeometry(layout, fileSize, metadataOffset) {
  return new FileGeometry(layout, fileSize, metadataOffset)
}

/**
 * Sorted offsets of every structure the footer locates (pages, indexes, bloom filters, the footer).
 * A bloom filter cannot extend past the next one, which bounds filters of unknown length.
 * @param {import('./footer.js').FileLayout} layout @param {number} metadataOffset
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

/** The first boundary strictly after `offset` (binary search). @param {Float64Array} boundaries @param {number} offset */
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

/**
 * Sorted page ranges of every column chunk: [first page, first page + total_compressed_size). A
 * dictionary_page_offset that does not lie before the data pages (0 in some files) is not trusted.
 * @param {import('./footer.js').FileLayout} layout @param {number} metadataOffset
 */
export function chunkPageRanges(layout, metadataOffset) {
  /** @type {[number, number][]} */
  const ranges = []
  for (const c of allChunks(layout)) {
    const range = c.pageRange()
    if (range) ranges.push([range.chunkStart, Math.min(range.chunkEnd, metadataOffset)])
  }
  ranges.sort((a, b) => a[0] - b[0])
  return { starts: Float64Array.from(ranges, (r) => r[0]), ends: Float64Array.from(ranges, (r) => r[1]) }
}

/**
 * The first page range that overlaps [start, end), or null.
 * @param {{ starts: Float64Array, ends: Float64Array }} pageRanges @param {number} start @param {number} end
 * @returns {[number, number] | null}
 */
export function overlappingPages({ starts, ends }, start, end) {
  // Ranges may nest or overlap each other (bad sizes), so scan back from the last start before `end`.
  let lo = 0
  let hi = starts.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (starts[mid] < end) lo = mid + 1
    else hi = mid
  }
  for (let k = lo - 1, seen = 0; k >= 0 && seen < 64; k--, seen++) {
    if (ends[k] > start) return [starts[k], ends[k]]
  }
  return null
}
