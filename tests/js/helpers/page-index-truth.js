// Independent truth for page-index tests: a chunk's ColumnIndex and OffsetIndex as hyparquet reads
// them, the values hyparquet reads from each row, and which pages may hold a value computed naively
// from hyparquet's bounds (plain < for numbers and bigints, Buffer.compare for bytes).
import { parquetMetadata, parquetReadObjects, parquetSchema, readColumnIndex, readOffsetIndex } from 'hyparquet'

/** Leaf schema elements in column order (the depth-first leaves of hyparquet's schema tree). */
function leafElements(metadata) {
  const leaves = []
  const walk = (node) => {
    if (!node.children.length) leaves.push(node.element)
    for (const child of node.children) walk(child)
  }
  walk(parquetSchema(metadata))
  return leaves
}

/** hyparquet's view of a file: metadata, leaves, and readers of one chunk's indexes and values. */
export function hyparquetTruth(bytes) {
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const metadata = parquetMetadata(arrayBuffer)
  const leaves = leafElements(metadata)
  const reader = (offset, length) => ({ view: new DataView(arrayBuffer, Number(offset), length), offset: 0 })
  return {
    metadata,
    leaves,
    chunk: (g, c) => metadata.row_groups[g].columns[c],
    columnIndex(g, c) {
      const chunk = metadata.row_groups[g].columns[c]
      if (chunk.column_index_offset === undefined) return undefined
      // Raw bytes for binary bounds, so they compare byte for byte; numbers and bigints as hyparquet converts them.
      return readColumnIndex(reader(chunk.column_index_offset, chunk.column_index_length), leaves[c], { stringFromBytes: (b) => b })
    },
    offsetIndex(g, c) {
      const chunk = metadata.row_groups[g].columns[c]
      if (chunk.offset_index_offset === undefined) return undefined
      return readOffsetIndex(reader(chunk.offset_index_offset, chunk.offset_index_length))
    },
    /** Every row's value of a column, per row group. */
    async values(name) {
      const rows = await parquetReadObjects({ file: arrayBuffer, columns: [name], utf8: false })
      const out = []
      let at = 0
      for (const rg of metadata.row_groups) {
        const n = Number(rg.num_rows)
        out.push(rows.slice(at, at + n).map((row) => row[name]))
        at += n
      }
      return out
    },
  }
}

/** Naive comparison of a probed value with a hyparquet bound of the same column. */
export function naiveCompare(a, b) {
  if (a instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b))
  const x = typeof a === 'boolean' ? Number(a) : a
  const y = typeof b === 'boolean' ? Number(b) : b
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * The pages whose hyparquet bounds hold `value`. A null page holds none when its null count is known
 * and positive; without one it may hold anything (parquet.thrift: readers must not assume a missing
 * count). An empty binary bound is no bound.
 */
export function naivePages(columnIndex, value) {
  const pages = []
  for (let p = 0; p < columnIndex.null_pages.length; p++) {
    if (columnIndex.null_pages[p]) {
      if (!(columnIndex.null_counts?.[p] > 0n)) pages.push(p)
      continue
    }
    const min = columnIndex.min_values[p]
    const max = columnIndex.max_values[p]
    const noMin = min instanceof Uint8Array && min.length === 0
    const noMax = max instanceof Uint8Array && max.length === 0
    if ((noMin || naiveCompare(value, min) >= 0) && (noMax || naiveCompare(value, max) <= 0)) pages.push(p)
  }
  return pages
}

/** The page holding row `row`: the last whose first_row_index is at or before it. */
export function pageOfRow(offsetIndex, row) {
  const locations = offsetIndex.page_locations
  let page = 0
  while (page + 1 < locations.length && Number(locations[page + 1].first_row_index) <= row) page++
  return page
}
