// The fixed part of a format-2 sidecar index (docs/sidecar-index.md "Format 2: the files blob"): what
// every probe needs, fixed-width and binary — per file its identity (version 2: the 8-byte hash; version
// 3: its low 4 bytes, a locator, with a digest per details page that checks a page's files at once) and
// row-group count (and, where a column's files lie in more than one region of a segment, which one) —
// with the layout (columns, types, regions, segments, page table sizes) as a JSON property of the blob.
// It lies right before the footer, so the tail read holds it or most of it. Each file's chunks of a
// column are consecutive slots of one region, so no per-chunk record is needed: a file's slot is the row
// groups of the files before it in its segment and region.
import { notAnIndex } from './sidecar-directory.js'
import { BYTES_PER_BLOCK } from '../wasm/sbbf.js'

/** Row-group counts of 255 and more are stored in the overflow list. */
const OVERFLOW = 255
/** A file without chunks of the column (it lacks it, or has no row groups). */
export const NO_REGION = 255
const PAGE_ENTRY_BYTES = 16
const DIGEST_BYTES = 8
/** The files blob's versions: 2 stores each file's whole identity hash, 3 a locator and a digest per page. */
export const FILES_VERSIONS = [2, 3]

/**
 * @typedef {{ physicalType: string, typeLength: number | null, logicalType: object | null }} ColumnType
 * @typedef {{ offset: number, count: number, numBytes: number, column: string, type: ColumnType, segment: number }} SlicedRegion
 * @typedef {{ version: 2 | 3, fpp: number, writer: string, columns: string[], regions: SlicedRegion[], segments: number[],
 *   files: number, overflow: number, classed: number[], pages: number, pageFiles: number, unreadable?: number[][] }} SlicedLayout
 *   unreadable: runs [column, file, first row group, count] of chunks whose pages could not be read (their filters hold everything)
 * @typedef {{ offset: number, length: number, crc: number, digest?: Uint8Array }} PageEntry
 *   digest (version 3): XXH64 of the page's files' identity hashes, 8 bytes each in file order
 * @typedef {{ hashes: Uint8Array | null, locators: Uint32Array | null, rowGroups: Uint32Array,
 *   classes: Array<Uint8Array | null>, pages: PageEntry[] }} FilesPart
 *   hashes (version 2): the identity hashes, 8 bytes each; locators (version 3): their low 32 bits
 */

/**
 * The layout as the files blob's `layout` property.
 * @param {SlicedLayout} layout
 */
export function encodeSlicedLayout(layout) {
  /** @type {ColumnType[]} */
  const types = []
  /** @type {Map<string, number>} */
  const keys = new Map()
  const regions = layout.regions.map((r) => {
    const key = JSON.stringify(r.type)
    if (!keys.has(key)) {
      keys.set(key, types.length)
      types.push(r.type)
    }
    return [r.offset, r.count, r.numBytes, layout.columns.indexOf(r.column), keys.get(key), r.segment]
  })
  return JSON.stringify({ ...layout, types, regions })
}

/**
 * The layout from its property, checked against the bit slices blob's length.
 * @returns {SlicedLayout}
 * @param {string} text
 * @param {number} slicesLength
 * @param {string} where
 */
export function decodeSlicedLayout(text, slicesLength, where) {
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch (cause) {
    throw notAnIndex(where, `its files layout is not JSON (${/** @type {Error} */ (cause)?.message ?? cause})`)
  }
  const { columns, types, regions, segments, files, overflow, classed, pages, pageFiles } = parsed ?? {}
  const counts = [files, overflow, pages, pageFiles]
  if (!FILES_VERSIONS.includes(parsed?.version) || !Array.isArray(columns) || !Array.isArray(types) || !Array.isArray(regions) ||
    !Array.isArray(segments) || !Array.isArray(classed) ||
    !counts.every((n) => Number.isSafeInteger(n) && n >= 0) || pageFiles < 1 || pages !== Math.ceil(files / pageFiles)) {
    throw notAnIndex(where, 'its files layout is not version 2 or 3 or lacks columns, types, regions, segments or counts')
  }
  let end = 0
  for (const s of segments) {
    // An index of no files (a shard none of the files fall in) has one empty segment.
    const empty = files === 0 && s === 0 && segments.length === 1
    if (!(Number.isSafeInteger(s) && (s > end || empty) && s <= files)) {
      throw notAnIndex(where, 'its segments do not cover its files in order')
    }
    end = s
  }
  if (end !== files) throw notAnIndex(where, 'its segments do not cover its files')
  const out = regions.map((row, r) => {
    const [offset, count, numBytes, c, t, segment] = Array.isArray(row) ? row : []
    const rowBytes = (count + 7) >>> 3
    if (!(Number.isSafeInteger(offset) && offset >= 0 && Number.isSafeInteger(count) && count >= 1 && Number.isSafeInteger(numBytes) &&
      numBytes >= BYTES_PER_BLOCK &&
      (numBytes & (numBytes - 1)) === 0 && offset + numBytes * 8 * rowBytes <= slicesLength && typeof columns[c] === 'string' &&
      typeof types[t]?.physicalType === 'string' && Number.isSafeInteger(segment) && segment >= 0 && segment < segments.length)) {
      throw notAnIndex(where, `its layout places region ${r} (${JSON.stringify(row)}) outside the ${slicesLength}-byte bit slices blob, ` +
        'not as whole power-of-two blocks, or of no listed column, type and segment')
    }
    return { offset, count, numBytes, column: columns[c], type: types[t], segment }
  })
  if (!classed.every((c) => Number.isSafeInteger(c) && typeof columns[c] === 'string')) {
    throw notAnIndex(where, 'its layout names an unknown classed column')
  }
  const unreadable = parsed.unreadable ?? []
  if (!Array.isArray(unreadable) || !unreadable.every((run) => Array.isArray(run) && run.length === 4 &&
    run.every((n) => Number.isSafeInteger(n) && n >= 0) &&
    typeof columns[run[0]] === 'string' && run[1] < files && run[3] >= 1)) {
      throw notAnIndex(where, 'its layout lists unreadable chunks of no listed column or file')
    }
  return { ...parsed, regions: out, unreadable }
}

/**
 * Bytes of the files blob for this layout.
 * @param {Pick<SlicedLayout, 'version' | 'files' | 'classed' | 'overflow' | 'pages'>} layout
 */
export function filesPartLength(layout) {
  return layout.files * (identityBytes(layout.version) + 1 + layout.classed.length) + layout.overflow * 4 +
    layout.pages * (PAGE_ENTRY_BYTES + (layout.version >= 3 ? DIGEST_BYTES : 0))
}

/**
 * Bytes of a file's identity in the files blob.
 * @param {number} version
 */
function identityBytes(version) {
  return version >= 3 ? 4 : 8
}

/**
 * The files blob of this version.
 * @param {{ version: 2 | 3, hashes: Uint8Array, rowGroups: number[], classes: Uint8Array[], pages: PageEntry[] }} part
 *   hashes: the identity hashes, 8 bytes each; classes: one array per classed column, in the layout's
 *   `classed` order; pages: with their digests for version 3
 */
export function encodeFilesPart({ version, hashes, rowGroups, classes, pages }) {
  const n = rowGroups.length
  const overflow = rowGroups.filter((g) => g >= OVERFLOW)
  const identity = identityBytes(version)
  const out = new Uint8Array(n * (identity + 1 + classes.length) + overflow.length * 4 +
    pages.length * (PAGE_ENTRY_BYTES + (version >= 3 ? DIGEST_BYTES : 0)))
  const view = new DataView(out.buffer)
  if (version >= 3) for (let f = 0; f < n; f++) out.set(hashes.subarray(f * 8, f * 8 + 4), f * 4)
  else out.set(hashes, 0)
  let at = n * identity
  for (const g of rowGroups) out[at++] = Math.min(g, OVERFLOW)
  for (const g of overflow) {
    view.setUint32(at, g, true)
    at += 4
  }
  for (const c of classes) {
    out.set(c, at)
    at += n
  }
  for (const p of pages) {
    view.setFloat64(at, p.offset, true)
    view.setUint32(at + 8, p.length, true)
    view.setUint32(at + 12, p.crc, true)
    at += PAGE_ENTRY_BYTES
  }
  if (version >= 3) {
    for (const p of pages) {
      if (p.digest?.length !== DIGEST_BYTES) throw new RangeError('internal: a page without its digest')
      out.set(p.digest, at)
      at += DIGEST_BYTES
    }
  }
  return out
}

/**
 * The files blob decoded (its CRC checked by the caller).
 * @param {Uint8Array} bytes
 * @param {SlicedLayout} layout
 * @param {number} detailsLength the details blob's length (pages must lie in it)
 * @returns {FilesPart}
 * @param {string} where
 */
export function decodeFilesPart(bytes, layout, detailsLength, where) {
  if (bytes.length !== filesPartLength(layout)) {
    throw notAnIndex(where, `its files blob has ${bytes.length} bytes, its layout says ${filesPartLength(layout)}`)
  }
  const n = layout.files
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const identity = identityBytes(layout.version)
  const hashes = layout.version >= 3 ? null : bytes.subarray(0, n * 8)
  let locators = null
  if (layout.version >= 3) {
    locators = new Uint32Array(n)
    for (let f = 0; f < n; f++) locators[f] = view.getUint32(f * 4, true)
  }
  const rowGroups = new Uint32Array(n)
  let at = n * identity
  const counted = n * (identity + 1)
  let spill = counted
  for (let f = 0; f < n; f++) {
    const g = bytes[at + f]
    if (g === OVERFLOW) {
      if (spill + 4 > counted + layout.overflow * 4) {
        throw notAnIndex(where, 'its files blob has more overflowing row-group counts than it lists')
      }
      rowGroups[f] = view.getUint32(spill, true)
      spill += 4
    } else rowGroups[f] = g
  }
  at = counted + layout.overflow * 4
  /** @type {Array<Uint8Array | null>} */
  const classes = layout.columns.map(() => null)
  for (const c of layout.classed) {
    classes[c] = bytes.subarray(at, at + n)
    at += n
  }
  const pages = []
  for (let p = 0; p < layout.pages; p++) {
    /** @type {PageEntry} */
    const page = { offset: view.getFloat64(at, true), length: view.getUint32(at + 8, true), crc: view.getUint32(at + 12, true) }
    if (!(Number.isSafeInteger(page.offset) && page.offset >= 0 && page.offset + page.length <= detailsLength)) {
      throw notAnIndex(where, `its page ${p} lies outside the details blob`)
    }
    pages.push(page)
    at += PAGE_ENTRY_BYTES
  }
  if (layout.version >= 3) {
    for (const page of pages) {
      page.digest = bytes.subarray(at, at + DIGEST_BYTES)
      at += DIGEST_BYTES
    }
  }
  return { hashes, locators, rowGroups, classes, pages }
}

/**
 * Where each file's chunks of one column are: its region (-1: none) and its first slot there. A
 * file's class picks among its segment's regions of the column, in layout order.
 * @param {SlicedLayout} layout
 * @param {FilesPart} part
 * @param {string} column
 * @param {string} where
 */
export function placeColumn(layout, part, column, where) {
  const c = layout.columns.indexOf(column)
  const n = layout.files
  const regionOf = new Int32Array(n).fill(-1)
  const slotOf = new Uint32Array(n)
  if (c < 0) return { regionOf, slotOf }
  /** @type {number[][]} per segment, the column's regions */
  const bySegment = layout.segments.map(() => [])
  layout.regions.forEach((r, i) => { if (r.column === column) bySegment[r.segment].push(i) })
  const used = new Float64Array(layout.regions.length)
  const classes = part.classes[c]
  let segment = 0
  for (let f = 0; f < n; f++) {
    while (f >= layout.segments[segment]) segment++
    const cls = classes ? classes[f] : 0
    if (cls === NO_REGION || part.rowGroups[f] === 0) continue
    const r = bySegment[segment][cls]
    if (r === undefined) {
      if (!classes && !bySegment[segment].length) continue // no file of this segment has the column
      throw notAnIndex(where, `file ${f} of column ${column} is in no region of its segment`)
    }
    regionOf[f] = r
    slotOf[f] = used[r]
    used[r] += part.rowGroups[f]
  }
  for (const [r, region] of layout.regions.entries()) {
    if (region.column === column && used[r] !== region.count) {
      throw notAnIndex(where, `region ${r} holds ${region.count} filters, its files' row groups ${used[r]}`)
    }
  }
  return { regionOf, slotOf }
}

/**
 * The chunks of `column` whose pages could not be read: per file, its row groups' flags (1: unreadable).
 * @param {SlicedLayout} layout
 * @param {FilesPart} part
 * @returns {Map<number, Uint8Array>}
 * @param {string} column
 * @param {string} where
 */
export function unreadableChunks(layout, part, column, where) {
  const c = layout.columns.indexOf(column)
  const out = new Map()
  for (const [column_, f, first, count] of layout.unreadable ?? []) {
    if (column_ !== c) continue
    const groups = part.rowGroups[f]
    if (first + count > groups) {
      throw notAnIndex(where, `its layout lists row groups ${first}…${first + count - 1} of file ${f} as unreadable; it has ${groups}`)
    }
    let flags = out.get(f)
    if (!flags) out.set(f, flags = new Uint8Array(groups))
    flags.fill(1, first, first + count)
  }
  return out
}
