// What a first probe of a sidecar index needs before its directory has arrived (docs/sidecar-index.md
// "Layout"): the regions of the bitsets blob, each with its column and that column's type, stored as the
// `layout` property of the bitsets blob in the Puffin footer — a few hundred bytes that the tail read
// holds whatever the directory's size. A value's blocks in every bitset of a region are one row of the
// region (docs/sidecar-index.md "Regions"), so with the layout a probe can read those rows in the same
// wave as the directory; the directory, once checked against the layout, says which blocks count.
import { BYTES_PER_BLOCK } from '../wasm/sbbf.js'

/** The bitsets blob's property that holds the layout (a JSON string: Puffin properties are strings). */
export const LAYOUT_PROPERTY = 'layout'

/**
 * @typedef {{ physicalType: string, typeLength: number | null, logicalType: object | null }} ColumnType
 * @typedef {{ offset: number, count: number, numBytes: number, column: string, type: ColumnType }} LayoutRegion
 * @typedef {{ fpp: number, columns: string[], regions: LayoutRegion[] }} Layout
 */

/**
 * A column type as one string, object keys sorted, so one type written twice compares equal.
 * @param {Partial<ColumnType> | null | undefined} type
 */
export function typeKey(type) {
  /** @type {(v: unknown) => unknown} */
  const canonical = (v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(/** @type {Record<string, unknown>} */ (v)[k])]))
    : v)
  return JSON.stringify([type?.physicalType ?? null, type?.typeLength ?? null, canonical(type?.logicalType ?? null)])
}

/**
 * The layout as its property's text: regions as [offset, count, numBytes, column index, type index].
 * @param {Layout} layout
 */
export function encodeLayout({ fpp, columns: asked, regions }) {
  // Regions name columns by their dotted paths, which the columns asked for may spell otherwise.
  const columns = [...new Set([...asked, ...regions.map((r) => r.column)])]
  /** @type {ColumnType[]} */
  const types = []
  /** @type {Map<string, number>} */
  const typeIndex = new Map()
  const rows = regions.map((r) => {
    const key = typeKey(r.type)
    if (!typeIndex.has(key)) {
      typeIndex.set(key, types.length)
      types.push(r.type)
    }
    return [r.offset, r.count, r.numBytes, columns.indexOf(r.column), typeIndex.get(key)]
  })
  return JSON.stringify({ fpp, columns, types, regions: rows })
}

/**
 * The layout from its property's text, or why it cannot be used: every region must name a column and a
 * type the layout lists and lie inside the bitsets blob as whole power-of-two blocks.
 * @param {string} text
 * @param {number} bitsetsLength
 * @returns {{ layout: Layout } | { problem: string }}
 */
export function decodeLayout(text, bitsetsLength) {
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch (cause) {
    return { problem: `its layout is not JSON (${/** @type {Error} */ (cause)?.message ?? cause})` }
  }
  const { fpp, columns, types, regions } = parsed ?? {}
  if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string') || !Array.isArray(types) || !Array.isArray(regions)) {
    return { problem: 'its layout lacks columns, types or regions' }
  }
  const out = []
  for (const [r, row] of regions.entries()) {
    const [offset, count, numBytes, c, t] = Array.isArray(row) ? row : []
    const type = types[t]
    if (!(Number.isSafeInteger(offset) && offset >= 0 && Number.isSafeInteger(count) && count >= 1 && Number.isSafeInteger(numBytes) &&
      numBytes >= BYTES_PER_BLOCK && (numBytes & (numBytes - 1)) === 0 && offset + count * numBytes <= bitsetsLength) ||
      typeof columns[c] !== 'string' || typeof type?.physicalType !== 'string') {
      return { problem: `its layout places region ${r} (${JSON.stringify(row)}) outside the ${bitsetsLength}-byte bitsets blob, ` +
        'not as whole power-of-two blocks, or of no listed column and type' }
    }
    out.push({ offset, count, numBytes, column: columns[c], type })
  }
  return { layout: { fpp, columns, regions: out } }
}

/**
 * Why a directory disagrees with the layout a first probe read its blocks by, or undefined: the same
 * regions, and every chunk in a region of its own column and its file's type for that column.
 * @param {Layout} layout
 * @param {import('./sidecar-directory.js').Directory} directory
 */
export function layoutProblem(layout, directory) {
  if (layout.regions.length !== directory.regions.length) {
    return `has ${directory.regions.length} regions, the footer's layout ${layout.regions.length}`
  }
  for (const [r, region] of layout.regions.entries()) {
    const d = directory.regions[r]
    if (d.offset !== region.offset || d.count !== region.count || d.numBytes !== region.numBytes) {
      return `places region ${r} elsewhere than the footer's layout`
    }
  }
  const keys = layout.regions.map((r) => typeKey(r.type))
  for (const [i, file] of directory.files.entries()) {
    const fileKeys = new Map()
    for (const [g, group] of file.rowGroups.entries()) {
      for (const [column, chunk] of Object.entries(group.chunks)) {
        if (chunk === null) continue
        if (!fileKeys.has(column)) fileKeys.set(column, typeKey(file.columns[column]))
        const r = chunk[0]
        if (layout.regions[r].column !== column || keys[r] !== fileKeys.get(column)) {
          return `puts the bitset of file ${i}, row group ${g}, column ${column} in region ${r}, ` +
            `which the footer's layout gives to column ${layout.regions[r].column} of another type`
        }
      }
    }
  }
  return undefined
}

/**
 * The rows of the regions of `column` that the values' hashes select: in each, one range of count × 32
 * bytes per distinct block index — every bitset's block for those values, whatever file or row group it
 * belongs to. `hashedFor(type)` gives the values' HashedCandidates for a column of that type, or
 * undefined when they do not convert to it (no rows are read for that region then).
 * @param {Layout} layout
 * @param {string} column
 * @param {(type: ColumnType) => { count: number, blockIndices: (numBlocks: number) => Uint32Array } | undefined} hashedFor
 * @param {number} bitsetsOffset where the bitsets blob starts in the index file
 * @returns {Array<{ start: number, end: number }>}
 */
export function blockRows(layout, column, hashedFor, bitsetsOffset) {
  const rows = []
  for (const region of layout.regions) {
    if (region.column !== column) continue
    const hashed = hashedFor(region.type)
    if (!hashed?.count) continue
    const rowBytes = region.count * BYTES_PER_BLOCK
    for (const block of new Set(hashed.blockIndices(region.numBytes / BYTES_PER_BLOCK))) {
      const start = bitsetsOffset + region.offset + block * rowBytes
      rows.push({ start, end: start + rowBytes })
    }
  }
  return rows
}
