// The page index as an index (parquet.thrift ColumnIndex/OffsetIndex, ColumnChunk fields 4–7;
// parquet-format PageIndex.md): which pages of a column chunk may hold each probed value. A value
// outside every page's [min, max] (null pages hold no non-null value) is absent from the row group; the
// page numbers kept are the pages an exact lookup has to read. An index that disagrees with itself or
// with the footer (list lengths, min > max, bound widths, NaN bounds, page locations, row counts, null
// counts against null pages) is not used for that chunk, with a reason: never a wrong "absent".
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk } from '../footer/records.js'
import {
  boundsOrderProblem, bytePrefix, compareBytes, compareDecimal, halfToNumber, keyList, NO_ORDER, sortOrderFor,
} from './statistics.js'
import { writerRulesFor } from './writer-rules.js'

export { decodeColumnIndex, decodeOffsetIndex } from '../format/page-index-thrift.js'

const INCONSISTENT = 'inconsistent-page-index'
// Per-value page lists beyond this many (value, page) pairs are not built (128 MiB of Int32 pairs):
// `excluded` is still exact, and a lookup then reads every kept page.
export const DEFAULT_MAX_MATCHES = 1 << 24

/**
 * @param {string} reason
 * @param {string} problem
 * @param {string} detail
 * @returns {{ usable: false, reason: string, problem: string, detail: string }}
 */
function unusable(reason, problem, detail) {
  return { usable: false, reason, problem, detail }
}

/**
 * Where a chunk's ColumnIndex and OffsetIndex are, from the footer. Each is null when the footer has
 * none; `{ reason, problem, detail }` when the footer's numbers cannot be right (negative or zero
 * lengths, an offset without a length, a range outside the data region [4, metadataOffset) or inside
 * the chunk's own pages).
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {number} rowGroup
 * @param {number} columnIndex
 * @param {number} metadataOffset where the footer starts: the end of the data region
 * @param {import('../footer/records.js').ChunkView} [record] the chunk's, when the caller has it
 * @returns {{ columnIndex: { offset: number, length: number } | null, offsetIndex: { offset: number, length: number } | null }
 *   | { reason: string, problem: string, detail: string }}
 */
export function pageIndexLocation(layout, rowGroup, columnIndex, metadataOffset, record = chunk(layout, rowGroup, columnIndex)) {
  ensureColumnIndexes(layout, columnIndex)
  const columnOffset = record.columnIndexOffset
  const columnLength = record.columnIndexLength
  const offsetOffset = record.offsetIndexOffset
  const offsetLength = record.offsetIndexLength
  if (columnOffset === -1 && columnLength === -1 && offsetOffset === -1 && offsetLength === -1) return NO_PAGE_INDEX
  const range = record.pageRange()
  const ci = locatePageIndexPart('column index', columnOffset, columnLength, metadataOffset, range)
  const oi = locatePageIndexPart('offset index', offsetOffset, offsetLength, metadataOffset, range)
  for (const located of [ci, oi]) {
    if (located && 'problem' in located && located.problem) return { reason: INCONSISTENT, problem: 'location', detail: located.problem }
  }
  // Neither is a problem now.
  const columnRange = /** @type {{ offset: number, length: number } | null} */ (ci)
  const offsetRange = /** @type {{ offset: number, length: number } | null} */ (oi)
  if (columnRange && offsetRange && columnRange.offset < offsetRange.offset + offsetRange.length &&
    offsetRange.offset < columnRange.offset + columnRange.length) {
    return { reason: INCONSISTENT, problem: 'location', detail: 'the column index and the offset index overlap' }
  }
  return { columnIndex: columnRange, offsetIndex: offsetRange }
}

/** A chunk whose footer gives no page index: one answer for them all (read, never changed). */
const NO_PAGE_INDEX = Object.freeze({ columnIndex: null, offsetIndex: null })

/**
 * One part of a chunk's page index, located: null when the footer gives neither its offset nor its length.
 * @param {string} what
 * @param {number} offset
 * @param {number} length
 * @param {number} metadataOffset
 * @param {{ chunkStart: number, chunkEnd: number } | null} range the chunk's pages
 * @returns {{ offset: number, length: number } | { problem: string } | null}
 */
function locatePageIndexPart(what, offset, length, metadataOffset, range) {
  if (offset === -1 && length === -1) return null
  const where = `${what} at ${offset} (${length} bytes)`
  if (offset === -1 || length === -1) {
    return {
      problem: `the footer gives the ${what}'s ${offset === -1 ? 'length' : 'offset'} without its ${offset === -1 ? 'offset' : 'length'}`,
    }
  }
  if (!Number.isSafeInteger(offset) || length <= 0) return { problem: `the ${where} has an impossible offset or length` }
  if (offset < 4 || offset + length > metadataOffset) return { problem: `the ${where} is outside the file's data [4, ${metadataOffset})` }
  if (range && offset < range.chunkEnd && offset + length > range.chunkStart) {
    return { problem: `the ${where} overlaps the chunk's pages [${range.chunkStart}, ${range.chunkEnd})` }
  }
  return { offset, length }
}

/**
 * The byte range of a chunk's pages (ChunkView.pageRange, js/footer/records.js), or null.
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {number} rowGroup
 * @param {number} columnIndex
 * @returns {{ chunkStart: number, chunkEnd: number } | null}
 */
export function chunkByteRange(layout, rowGroup, columnIndex) {
  return chunk(layout, rowGroup, columnIndex).pageRange()
}

/**
 * The sort order a column's page bounds are in, or why they have none: ColumnIndex min/max are in the
 * column order (PageIndex.md), read as for min_value/max_value (boundsOrderProblem: TYPE_ORDER, or no
 * column_orders at all), and not from writers known to compute them otherwise (js/indexes/writer-rules.js).
 * @returns {{ usable: boolean, order?: { kind: string, width: number, signed: boolean }, reason?: string, problem?: string,
 *   detail?: string, rules?: object[] }}
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {import('../footer/footer.js').LeafColumn} column
 */
export function pageIndexOrder(layout, column) {
  const orderProblem = boundsOrderProblem(layout, column)
  if (orderProblem !== null) return unusable('no-sort-order', 'column-order', orderProblem)
  const order = sortOrderFor(column)
  if (!order) return unusable('no-sort-order', 'column-order', NO_ORDER)
  const rules = writerRulesFor(layout.createdBy, 'statistics', column).filter((rule) => rule.pageIndex)
  if (rules.length) return { ...unusable('untrusted-writer', 'writer', `${rules[0].message} (${rules[0].link})`), rules }
  return { usable: true, order }
}

/**
 * @typedef {{ usable: true, order: { kind: string, width: number }, pageCount: number, pages: Int32Array, min: BoundKeys,
 *   max: BoundKeys, compare: CompareBounds,
 *   monotone: boolean, unconfirmedNullPages: number, firstRowIndexes: Float64Array, offsets: Float64Array,
 *   compressedSizes: Float64Array }} PreparedPageIndex
 *   `pages`: the pages that may hold a non-null value, ascending (null pages their null counts confirm
 *   are left out; unconfirmed ones are kept, unbounded, and counted in unconfirmedNullPages); `min`/`max`:
 *   their bounds as sort keys (unbounded sides as sentinels), aligned with `pages`; `monotone`: both bounds
 *   non-decreasing along `pages` (checked, not taken from boundary_order), so a value's pages are one run
 *   found by binary search.
 * @typedef {{ usable: false, reason: string, problem: string, detail: string }} UnusablePageIndex
 */

/**
 * Page bounds and probe keys as one order's sort keys (numbers, bigints or bytes: js/indexes/statistics.js
 * SortKey), and for the byte orders the sentinels of unbounded sides. Each order has its own store,
 * decoder and comparison (boundStore); the code between them handles keys of every kind alike, so they
 * are typed `any` here.
 * @typedef {any} BoundKey
 * @typedef {Float64Array | BigInt64Array | BigUint64Array | BoundKey[]} BoundKeys
 * @typedef {(a: BoundKey, b: BoundKey) => number} CompareBounds
 * @typedef {{ min: BoundKeys, max: BoundKeys, lowest: BoundKey, highest: BoundKey,
 *   decode: (view: DataView, bytes: Uint8Array) => BoundKey, compare: CompareBounds }} BoundStore
 * @typedef {ReturnType<typeof keyList>} KeyList the probe's keys one per candidate
 */

/**
 * Checks a decoded ColumnIndex and OffsetIndex against each other and the footer, and turns the bounds
 * into sort keys once per chunk.
 * @param {{ kind: string, width: number }} order from pageIndexOrder
 * @param {import('../format/page-index-thrift.js').ColumnIndex | import('../format/page-index-thrift.js').DecodeError} columnIndex
 * @param {import('../format/page-index-thrift.js').OffsetIndex | import('../format/page-index-thrift.js').DecodeError | null} offsetIndex
 * @param {{ numRows: number, chunkStart?: number, chunkEnd?: number, repeated?: boolean, chunkNullCount?: number }} chunk
 *   numRows: the row group's rows; chunkStart/chunkEnd: chunkByteRange (page locations are checked
 *   against it when given); repeated: the column is under a repeated field (a page's values ≠ its rows);
 *   chunkNullCount: the chunk statistics' null_count when known (the pages' counts cannot add up to more)
 * @returns {PreparedPageIndex | UnusablePageIndex}
 */
export function preparePageIndex(order, columnIndex, offsetIndex,
  { numRows, chunkStart, chunkEnd, repeated = false, chunkNullCount = -1 }) {
  if ('error' in columnIndex) return unusable(columnIndex.error.reason, 'decode', columnIndex.error.detail)
  if (!offsetIndex) {
    return unusable(INCONSISTENT, 'no-offset-index', 'the chunk has a column index without the offset index PageIndex.md requires with it')
  }
  if ('error' in offsetIndex) return unusable(offsetIndex.error.reason, 'decode', offsetIndex.error.detail)
  const { nullPages, minValues, maxValues, nullCounts } = columnIndex
  const { offsets, compressedSizes, firstRowIndexes } = offsetIndex
  const pageCount = nullPages.length
  if (pageCount === 0) return unusable(INCONSISTENT, 'list-lengths', 'the column index lists no pages')
  if (minValues.length !== pageCount || maxValues.length !== pageCount || offsets.length !== pageCount ||
    (nullCounts && nullCounts.length !== pageCount)) {
    return unusable(INCONSISTENT, 'list-lengths',
      `the page lists differ in length: null_pages ${pageCount}, min_values ${minValues.length}, ` +
      `max_values ${maxValues.length}, null_counts ${nullCounts ? nullCounts.length : 'absent'}, page_locations ${offsets.length}`)
  }
  const rows = checkRows(firstRowIndexes, numRows)
  if (rows) return rows
  const places = checkPlaces(offsets, compressedSizes, chunkStart, chunkEnd)
  if (places) return places
  const nulls = confirmNullPages(nullPages, nullCounts, firstRowIndexes, numRows, repeated, chunkNullCount)
  if ('usable' in nulls) return nulls
  return prepareBounds(order, columnIndex, nulls.confirmed, { pageCount, firstRowIndexes, offsets, compressedSizes })
}

/**
 * Why an OffsetIndex's first_row_index list cannot be right, or null (also point lookups', js/confirm/row-values.js).
 * @param {Float64Array} firstRowIndexes
 * @param {number} numRows
 */
export function checkRows(firstRowIndexes, numRows) {
  if (firstRowIndexes[0] !== 0) {
    return unusable(INCONSISTENT, 'first-row-index', `the first page starts at row ${firstRowIndexes[0]}, not 0`)
  }
  for (let i = 1; i < firstRowIndexes.length; i++) {
    // Pages begin on row boundaries (PageIndex.md), so each holds at least one row.
    if (!(firstRowIndexes[i] > firstRowIndexes[i - 1])) {
      return unusable(INCONSISTENT, 'first-row-index',
        `page ${i} starts at row ${firstRowIndexes[i]}, not after page ${i - 1} (row ${firstRowIndexes[i - 1]})`)
    }
  }
  const last = firstRowIndexes[firstRowIndexes.length - 1]
  if (!(last < numRows)) {
    return unusable(INCONSISTENT, 'first-row-index', `the last page starts at row ${last} but the row group has ${numRows} rows`)
  }
  return null
}

/**
 * Why an OffsetIndex's page places cannot be right (not inside the chunk, overlapping, empty), or null.
 * @param {Float64Array} offsets
 * @param {Float64Array} sizes
 * @param {number} [chunkStart]
 * @param {number} [chunkEnd]
 */
export function checkPlaces(offsets, sizes, chunkStart, chunkEnd) {
  const bounded = chunkStart !== undefined && chunkEnd !== undefined && Number.isFinite(chunkStart) && Number.isFinite(chunkEnd)
  let end = bounded ? chunkStart : -Infinity
  for (let i = 0; i < offsets.length; i++) {
    if (!(sizes[i] > 0)) return unusable(INCONSISTENT, 'page-locations', `page ${i} has compressed_page_size ${sizes[i]}`)
    if (offsets[i] < end) {
      return unusable(INCONSISTENT, 'page-locations', i === 0
        ? `page 0 at ${offsets[0]} is before the chunk's first page at ${chunkStart}`
        : `page ${i} at ${offsets[i]} starts before page ${i - 1} ends (${end})`)
    }
    end = offsets[i] + sizes[i]
  }
  if (bounded && end > chunkEnd) {
    return unusable(INCONSISTENT, 'page-locations', `the last page ends at ${end}, past the chunk's end at ${chunkEnd}`)
  }
  return null
}

/**
 * Which null pages the null counts confirm (1), or an unusable result when they contradict them. A null
 * page without a known count (null_counts absent, or -1 as parquet-java writes when it did not count) is
 * not trusted: parquet-java with statistics off marks every page of a REQUIRED column null
 * (datapage_v1-*.parquet), and parquet-format requires readers not to assume anything from a missing count.
 * @param {Uint8Array} nullPages
 * @param {Float64Array | null} nullCounts
 * @param {Float64Array} firstRowIndexes
 * @param {number} numRows
 * @param {boolean} repeated
 * @param {number} chunkNullCount
 * @returns {{ confirmed: Uint8Array } | UnusablePageIndex}
 */
function confirmNullPages(nullPages, nullCounts, firstRowIndexes, numRows, repeated, chunkNullCount) {
  const n = nullPages.length
  const confirmed = new Uint8Array(n)
  if (!nullCounts) return { confirmed }
  let total = 0
  for (let i = 0; i < n; i++) {
    const count = nullCounts[i]
    if (count < 0) continue
    total += count
    const rows = (i + 1 < n ? firstRowIndexes[i + 1] : numRows) - firstRowIndexes[i]
    // parquet-java GH-3457: null_pages[i] true with null_counts[i] 0 cannot both be right.
    if (nullPages[i] && count === 0) {
      return unusable(INCONSISTENT, 'null-counts', `page ${i} is a null page with null_count 0 (parquet-java GH-3457)`)
    }
    if (!repeated) {
      // Outside repeated fields a page holds one value (null or not) per row.
      if (nullPages[i] && count !== rows) {
        return unusable(INCONSISTENT, 'null-counts', `page ${i} is a null page of ${rows} rows with null_count ${count}`)
      }
      if (!nullPages[i] && count >= rows) {
        return unusable(INCONSISTENT, 'null-counts', `page ${i} is not a null page but null_count ${count} covers its ${rows} rows`)
      }
    }
    if (nullPages[i]) confirmed[i] = 1
  }
  if (chunkNullCount >= 0 && total > chunkNullCount) {
    return unusable(INCONSISTENT, 'null-counts',
      `the pages' null counts add up to ${total}, more than the chunk's null_count ${chunkNullCount}`)
  }
  return { confirmed }
}

// Unbounded sides of byte-ordered bounds (an empty bound of a non-null page is kept as no bound).
const BELOW_ALL = Symbol('below all')
const ABOVE_ALL = Symbol('above all')

/**
 * @param {{ kind: string, width: number }} order
 * @param {import('../format/page-index-thrift.js').ColumnIndex} columnIndex
 * @param {Uint8Array} confirmedNull
 * @param {{ pageCount: number, firstRowIndexes: Float64Array, offsets: Float64Array, compressedSizes: Float64Array }} locations
 * @returns {PreparedPageIndex | UnusablePageIndex}
 */
function prepareBounds(order, columnIndex, confirmedNull, locations) {
  const { nullPages, minValues, maxValues, boundaryOrder } = columnIndex
  const { pageCount } = locations
  if (!(boundaryOrder in BOUNDARY_ORDERS)) {
    return unusable(INCONSISTENT, 'boundary-order', `boundary_order ${boundaryOrder} is not one parquet.thrift defines`)
  }
  let kept = 0
  let unconfirmedNullPages = 0
  for (let i = 0; i < pageCount; i++) {
    if (!confirmedNull[i]) kept++
    if (nullPages[i] && !confirmedNull[i]) unconfirmedNullPages++
  }
  const pages = new Int32Array(kept)
  const bounded = new Uint8Array(kept) // both bounds read from the index (what boundary_order speaks of)
  const store = boundStore(order, kept)
  let j = 0
  for (let i = 0; i < pageCount; i++) {
    if (confirmedNull[i]) continue
    pages[j] = i
    // A null page its count does not confirm may hold anything; its bounds (empty) say nothing.
    const min = nullPages[i] ? store.lowest : boundKey(order, store, minValues[i], store.lowest)
    const max = nullPages[i] ? store.highest : boundKey(order, store, maxValues[i], store.highest)
    for (const [which, key] of [['min', min], ['max', max]]) {
      if (key === WRONG_WIDTH) {
        return unusable(INCONSISTENT, 'bound-width',
          `page ${i}'s ${which} bound is ${(which === 'min' ? minValues : maxValues)[i].length} bytes, not the column's ${order.width}`)
      }
      if (key !== key) {
        return unusable(INCONSISTENT, 'nan-bound',
          `page ${i}'s ${which} bound is NaN, which says nothing about the other values (PARQUET-1246)`)
      }
    }
    if (store.compare(min, max) > 0) return unusable(INCONSISTENT, 'min-above-max', `page ${i}'s min bound is larger than its max`)
    store.min[j] = min
    store.max[j] = max
    bounded[j] = !nullPages[i] && minValues[i].length > 0 && maxValues[i].length > 0 ? 1 : 0
    j++
  }
  const claim = claimedOrderBroken(store, bounded, pages, boundaryOrder)
  if (claim) return unusable(INCONSISTENT, 'boundary-order', `boundary_order is ${BOUNDARY_ORDERS[boundaryOrder]} but ${claim}`)
  let monotone = true
  for (let p = 1; p < kept && monotone; p++) {
    monotone = store.compare(store.min[p - 1], store.min[p]) <= 0 && store.compare(store.max[p - 1], store.max[p]) <= 0
  }
  return {
    usable: true, order, pages, min: store.min, max: store.max, compare: store.compare, monotone, unconfirmedNullPages,
    ...locations,
  }
}

const BOUNDARY_ORDERS = ['UNORDERED', 'ASCENDING', 'DESCENDING']
const WRONG_WIDTH = Symbol('wrong width')

/**
 * A bound's sort key: `unbounded` for an empty bound, WRONG_WIDTH for a fixed-width order's odd length.
 * @param {{ width: number }} order
 * @param {BoundStore} store
 * @param {Uint8Array} bytes
 * @param {BoundKey} unbounded
 * @returns {BoundKey}
 */
function boundKey(order, store, bytes, unbounded) {
  if (bytes.length === 0) return unbounded
  if (order.width && bytes.length !== order.width) return WRONG_WIDTH
  return store.decode(new DataView(bytes.buffer, bytes.byteOffset, bytes.length), bytes)
}

/**
 * Where the bounds contradict a claimed ASCENDING or DESCENDING boundary_order (over the pages with
 * both bounds, as writers compute it), or null. A writer wrong about it may be wrong about more.
 * @param {BoundStore} store
 * @param {Uint8Array} bounded
 * @param {Int32Array} pages
 * @param {number} boundaryOrder
 */
function claimedOrderBroken(store, bounded, pages, boundaryOrder) {
  if (boundaryOrder === 0) return null
  const sign = boundaryOrder === 1 ? 1 : -1
  let previous = -1
  for (let p = 0; p < bounded.length; p++) {
    if (!bounded[p]) continue
    if (previous >= 0 &&
      (sign * store.compare(store.min[previous], store.min[p]) > 0 || sign * store.compare(store.max[previous], store.max[p]) > 0)) {
      return `the bounds of pages ${pages[previous]} and ${pages[p]} are not in that order`
    }
    previous = p
  }
  return null
}

/** @type {CompareBounds} numbers and bigints, by the operators */
const compareNative = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Typed storage, decoder and comparison for one order's bounds; unbounded sides compare past every key.
 * @param {{ kind: string }} order
 * @param {number} n
 * @returns {BoundStore}
 */
function boundStore(order, n) {
  /** @type {(decode: (view: DataView) => number) => BoundStore} */
  const numbers = (decode) => ({
    min: new Float64Array(n), max: new Float64Array(n), lowest: -Infinity, highest: Infinity, decode, compare: compareNative,
  })
  switch (order.kind) {
    case 'boolean': return numbers((v) => (v.getUint8(0) ? 1 : 0))
    case 'int32': return numbers((v) => v.getInt32(0, true))
    case 'uint32': return numbers((v) => v.getUint32(0, true))
    case 'float': return numbers((v) => v.getFloat32(0, true))
    case 'double': return numbers((v) => v.getFloat64(0, true))
    case 'float16': return numbers((v) => halfToNumber(v.getUint16(0, true)))
    // The extremes of the type are at or past every key, as an unbounded side is.
    case 'int64': return {
      min: new BigInt64Array(n), max: new BigInt64Array(n), lowest: -(2n ** 63n), highest: 2n ** 63n - 1n,
      decode: (v) => v.getBigInt64(0, true), compare: compareNative,
    }
    case 'uint64': return {
      min: new BigUint64Array(n), max: new BigUint64Array(n), lowest: 0n, highest: 2n ** 64n - 1n,
      decode: (v) => v.getBigUint64(0, true), compare: compareNative,
    }
    default: {
      const compareValues = order.kind === 'decimal' ? compareDecimal : compareBytes
      /** @type {CompareBounds} */
      const compare = (a, b) => {
        if (a === b) return 0
        if (a === BELOW_ALL || b === ABOVE_ALL) return -1
        if (a === ABOVE_ALL || b === BELOW_ALL) return 1
        return compareValues(a, b)
      }
      return { min: new Array(n), max: new Array(n), lowest: BELOW_ALL, highest: ABOVE_ALL, decode: (_v, bytes) => bytes, compare }
    }
  }
}

/**
 * @typedef {{ usable: boolean, excluded: Uint8Array, pageStarts: Int32Array | null, pageList: Int32Array | null,
 *   pageCount: number, omitted?: string }} PageCandidates usable is always true (the type of pageIndexCandidates' success)
 *   excluded[k] = 1 when no page may hold candidate k. Value v's candidate pages (ascending) are
 *   pageList[pageStarts[v] .. pageStarts[v + 1]); both null (with `omitted` saying why) when the lists
 *   would exceed maxMatches pairs.
 */

/**
 * For each candidate, whether some page may hold it, and for each value the pages that may.
 * @param {PreparedPageIndex} index from preparePageIndex
 * @param {import('./statistics.js').SortKeys | import('./statistics.js').KeyList} keys sortKeys(order, candidates), or its keyList
 * @param {Int32Array} owners the value each candidate belongs to
 * @param {{ numValues?: number, maxMatches?: number }} [options]
 * @returns {PageCandidates}
 */
export function candidatePages(index, keys, owners, { numValues, maxMatches = DEFAULT_MAX_MATCHES } = {}) {
  const list = keyList(keys) // byte keys come packed in one buffer from sortKeys
  const values = numValues ?? maxOwner(owners) + 1
  return index.monotone ? byBinarySearch(index, list, owners, values, maxMatches) : bySortedKeys(index, list, owners, values, maxMatches)
}

/**
 * preparePageIndex then candidatePages: `{ usable: false, … }` when the index cannot be used.
 * `options`: preparePageIndex's chunk fields and candidatePages' numValues, maxMatches.
 * @param {{ kind: string, width: number }} order
 * @param {import('./statistics.js').SortKeys} keys
 * @param {Int32Array} owners
 * @param {Parameters<typeof preparePageIndex>[1]} columnIndex
 * @param {Parameters<typeof preparePageIndex>[2]} offsetIndex
 * @param {Parameters<typeof preparePageIndex>[3] & Parameters<typeof candidatePages>[3]} options
 * @returns {PageCandidates | UnusablePageIndex}
 */
export function pageIndexCandidates(order, keys, owners, columnIndex, offsetIndex, options) {
  const index = preparePageIndex(order, columnIndex, offsetIndex, options)
  if (index.usable === false) return index
  return candidatePages(index, keys, owners, options)
}

/**
 * Pages ordered by both bounds: the pages holding a key are the run from the first whose max ≥ key to the last whose min ≤ key.
 * @param {PreparedPageIndex} index
 * @param {KeyList} keys
 * @param {Int32Array} owners
 * @param {number} numValues
 * @param {number} maxMatches
 * @returns {PageCandidates}
 */
function byBinarySearch(index, keys, owners, numValues, maxMatches) {
  const { min, max, compare, pages } = index
  const m = pages.length
  const n = keys.length
  const from = new Int32Array(n)
  const to = new Int32Array(n)
  let matches = 0
  for (let k = 0; k < n; k++) {
    const key = keys[k]
    if (key !== key) {
      // A NaN key has no place among the bounds: every page is kept (values.js answers NaN before this).
      to[k] = m
    } else {
      from[k] = firstBeyond(max, m, key, compare, false)
      to[k] = firstBeyond(min, m, key, compare, true)
    }
    if (to[k] > from[k]) matches += to[k] - from[k]
  }
  const excluded = new Uint8Array(n)
  for (let k = 0; k < n; k++) excluded[k] = to[k] > from[k] ? 0 : 1
  if (matches > maxMatches) return omittedLists(excluded, index, matches, maxMatches)
  if (strictlyAscending(owners)) {
    return { usable: true, excluded, ...runsInValueOrder(from, to, owners, pages, numValues, matches), pageCount: index.pageCount }
  }
  const pairValues = new Int32Array(matches)
  const pairPages = new Int32Array(matches)
  let at = 0
  for (let k = 0; k < n; k++) {
    for (let j = from[k]; j < to[k]; j++) {
      pairValues[at] = owners[k]
      pairPages[at++] = pages[j]
    }
  }
  return { usable: true, excluded, ...groupByValue(pairValues, pairPages, numValues, true), pageCount: index.pageCount }
}

/**
 * One candidate per value, values in order (the common probe): each run of pages is its value's list as it stands.
 * @param {Int32Array} from
 * @param {Int32Array} to
 * @param {Int32Array} owners
 * @param {Int32Array} pages
 * @param {number} numValues
 * @param {number} matches
 */
function runsInValueOrder(from, to, owners, pages, numValues, matches) {
  const starts = new Int32Array(numValues + 1)
  const list = new Int32Array(matches)
  let at = 0
  let v = 0
  for (let k = 0; k < owners.length; k++) {
    const owner = owners[k]
    while (v <= owner) starts[v++] = at
    for (let j = from[k]; j < to[k]; j++) list[at++] = pages[j]
  }
  while (v <= numValues) starts[v++] = at
  return { pageStarts: starts, pageList: list }
}

/** @param {Int32Array} owners */
function strictlyAscending(owners) {
  for (let k = 1; k < owners.length; k++) if (!(owners[k] > owners[k - 1])) return false
  return true
}

/**
 * Any pages: sort the keys once, then each page takes the run of sorted keys within its bounds.
 * @param {PreparedPageIndex} index
 * @param {KeyList} keys
 * @param {Int32Array} owners
 * @param {number} numValues
 * @param {number} maxMatches
 * @returns {PageCandidates}
 */
function bySortedKeys(index, keys, owners, numValues, maxMatches) {
  const { min, max, compare, pages } = index
  const m = pages.length
  const n = keys.length
  let nanCount = 0
  for (let k = 0; k < n; k++) if (keys[k] !== keys[k]) nanCount++
  const sorted = new Int32Array(n - nanCount)
  const nanKeys = new Int32Array(nanCount)
  for (let k = 0, s = 0, q = 0; k < n; k++) {
    if (keys[k] !== keys[k]) nanKeys[q++] = k
    else sorted[s++] = k
  }
  sorted.sort(sortComparator(keys, index.order))
  const s = sorted.length
  const sortedKeys = keys instanceof Float64Array || keys instanceof BigInt64Array || keys instanceof BigUint64Array
    ? new /** @type {any} */ (keys.constructor)(s) : new Array(s)
  for (let p = 0; p < s; p++) sortedKeys[p] = keys[sorted[p]]
  const from = new Int32Array(m)
  const to = new Int32Array(m)
  // Keys in a page's bounds, counted as a difference array over sorted positions.
  const cover = new Int32Array(s + 1)
  let matches = nanCount * m
  for (let j = 0; j < m; j++) {
    // The first sorted key not below the page's min, and the first above its max.
    from[j] = firstBeyond(sortedKeys, s, min[j], compare, false)
    to[j] = firstBeyond(sortedKeys, s, max[j], compare, true)
    if (to[j] > from[j]) {
      matches += to[j] - from[j]
      cover[from[j]]++
      cover[to[j]]--
    }
  }
  const excluded = new Uint8Array(n)
  for (let p = 0, depth = 0; p < s; p++) {
    depth += cover[p]
    excluded[sorted[p]] = depth > 0 ? 0 : 1
  }
  if (m === 0) for (let q = 0; q < nanCount; q++) excluded[nanKeys[q]] = 1
  if (matches > maxMatches) return omittedLists(excluded, index, matches, maxMatches)
  const pairValues = new Int32Array(matches)
  const pairPages = new Int32Array(matches)
  // Pages in ascending order, each value at most once per page: every value's list comes out sorted and unique.
  const lastPage = new Int32Array(numValues).fill(-1)
  let at = 0
  const take = (/** @type {number} */ k, /** @type {number} */ j) => {
    const v = owners[k]
    if (lastPage[v] === j) return
    lastPage[v] = j
    pairValues[at] = v
    pairPages[at++] = pages[j]
  }
  for (let j = 0; j < m; j++) {
    for (let p = from[j]; p < to[j]; p++) take(sorted[p], j)
    for (let q = 0; q < nanCount; q++) take(nanKeys[q], j)
  }
  return {
    usable: true, excluded, ...groupByValue(pairValues.subarray(0, at), pairPages.subarray(0, at), numValues, false),
    pageCount: index.pageCount,
  }
}

/**
 * @param {Uint8Array} excluded
 * @param {{ pageCount: number }} index
 * @param {number} matches
 * @param {number} maxMatches
 * @returns {PageCandidates}
 */
function omittedLists(excluded, index, matches, maxMatches) {
  return { usable: true, excluded, pageStarts: null, pageList: null, pageCount: index.pageCount,
    omitted: `${matches} (value, page) pairs exceed maxMatches ${maxMatches}: read every page a value is not excluded from` }
}

/**
 * The first j in [0, n) of an ascending array (bounds or sorted keys) with sorted[j] > key (`strict`)
 * or sorted[j] ≥ key, n when none.
 * @param {ArrayLike<BoundKey>} sorted
 * @param {number} n
 * @param {BoundKey} key
 * @param {CompareBounds} compare
 * @param {boolean} strict
 */
function firstBeyond(sorted, n, key, compare, strict) {
  let lo = 0
  let hi = n
  const native = compare === compareNative // numbers and bigints: the operators themselves, for large probes
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const c = native ? (sorted[mid] > key ? 1 : sorted[mid] < key ? -1 : 0) : compare(sorted[mid], key)
    if (strict ? c > 0 : c >= 0) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * Orders candidate indices by their keys (never sentinels, never NaN): numbers subtract, bytes compare directly.
 * @param {KeyList} keys
 * @param {{ kind: string }} order
 * @returns {(a: number, b: number) => number}
 */
function sortComparator(keys, order) {
  if (keys instanceof Float64Array) return (a, b) => keys[a] - keys[b]
  if (order.kind === 'bytes' || order.kind === 'decimal') {
    const bytes = /** @type {Uint8Array[]} */ (keys) // the byte orders' keys (keyList)
    if (order.kind === 'decimal') return (a, b) => compareDecimal(bytes[a], bytes[b])
    // Most comparisons are one subtraction of 6-byte prefixes; equal prefixes compare the bytes.
    const prefix = Float64Array.from(bytes, (key) => bytePrefix(key, 0, key.length))
    return (a, b) => prefix[a] - prefix[b] || compareBytes(bytes[a], bytes[b])
  }
  return (a, b) => compareNative(keys[a], keys[b])
}

/**
 * (value, page) pairs to per-value page lists by a stable counting sort; `mayRepeat`: sort and de-duplicate each list.
 * @param {Int32Array} pairValues
 * @param {Int32Array} pairPages
 * @param {number} numValues
 * @param {boolean} mayRepeat
 */
function groupByValue(pairValues, pairPages, numValues, mayRepeat) {
  const starts = new Int32Array(numValues + 1)
  for (let i = 0; i < pairValues.length; i++) starts[pairValues[i] + 1]++
  for (let v = 0; v < numValues; v++) starts[v + 1] += starts[v]
  const fill = starts.slice(0, numValues)
  const list = new Int32Array(pairValues.length)
  for (let i = 0; i < pairValues.length; i++) list[fill[pairValues[i]]++] = pairPages[i]
  if (!mayRepeat) return { pageStarts: starts, pageList: list }
  // A value with several candidates can list a page twice or out of order: fix those lists, compacting.
  let write = 0
  for (let v = 0; v < numValues; v++) {
    const begin = starts[v]
    const end = starts[v + 1]
    starts[v] = write
    let ordered = true
    for (let i = begin + 1; i < end && ordered; i++) ordered = list[i] > list[i - 1]
    const segment = ordered ? list.subarray(begin, end) : list.slice(begin, end).sort()
    let previous = -1
    for (let i = 0; i < segment.length; i++) {
      const page = segment[i]
      if (page === previous) continue
      list[write++] = page
      previous = page
    }
  }
  starts[numValues] = write
  return { pageStarts: starts, pageList: list.subarray(0, write) }
}

/** @param {Int32Array} owners */
function maxOwner(owners) {
  let top = -1
  for (let k = 0; k < owners.length; k++) if (owners[k] > top) top = owners[k]
  return top
}
