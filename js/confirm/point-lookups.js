// Point lookups after an exact lookup (probe's `columns` option): the values of other
// columns at the rows a confirmation found, read by hyparquet's row reader with its OffsetIndex
// support (parquet-format PageIndex.md first_row_index), so only the pages holding those rows are
// fetched: kilobytes for a few rows of a large file. Without an OffsetIndex hyparquet reads the chunks.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ChunkView } from '../footer/records.js'
import { hyparquetMetadata, loadHyparquet } from '../pages/page-decode.js'

// Matched rows closer than this are read in one hyparquet call (the pages between them come along).
const RUN_GAP_ROWS = 256

/**
 * The top-level columns `columns` names, checked against the file's schema.
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {unknown} columns
 * @param {string} name the file, for messages
 * @returns {string[]}
 */
export function lookupColumns(layout, columns, name) {
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== 'string')) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `columns must be an array of column names, got ${JSON.stringify(columns)}`)
  }
  const topLevel = new Set(layout.columns.map((c) => c.path[0]))
  for (const c of columns) {
    if (!topLevel.has(c)) {
      throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${name}: no top-level column ${JSON.stringify(c)} to return`,
        { source: name, field: c })
    }
  }
  // hyparquet would read an encrypted chunk's ciphertext as values: it cannot decrypt, and no decrypting
  // byte source can stand in for it, since every module needs an AAD naming its page. Even with keys.
  const numColumns = layout.columns.length
  for (let chunk = 0; chunk < layout.rowGroupRows.length * numColumns; chunk++) {
    const leaf = layout.columns[chunk % numColumns]
    if (columns.includes(leaf.path[0]) && new ChunkView(layout, chunk).encrypted) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTED,
        `${name}: column ${JSON.stringify(leaf.name)} is encrypted: point lookups (columns) read with hyparquet, ` +
        'which does not decrypt; name only plaintext columns', { source: name, field: leaf.path[0] })
    }
  }
  return columns
}

/**
 * Adds `values` (parallel to `rows`: one `{ column: value }` per row, as hyparquet reads them) to every
 * result that has rows.
 * @param {{ layout: import('../footer/footer.js').FileLayout, fileSize: number, columns: string[],
 *   readRange: (offset: number, length: number) => Promise<Uint8Array>,
 *   rowGroups: Array<{ results: Array<{ rows?: number[], values?: Array<object | undefined> }> }> }} lookup
 */
export async function lookupRowValues({ layout, fileSize, columns, readRange, rowGroups }) {
  /** @type {Set<number>} */
  const wanted = new Set()
  for (const g of rowGroups) for (const r of g.results) for (const row of r.rows ?? []) wanted.add(row)
  if (!wanted.size) return
  const { pages, compressors } = await loadHyparquet()
  const metadata = await hyparquetMetadata(layout)
  // The same bytes (an OffsetIndex) may be asked for by several runs: read once.
  /** @type {Map<string, Promise<ArrayBuffer>>} */
  const slices = new Map()
  const file = {
    byteLength: fileSize,
    /** @param {number} start @param {number} [end] */
    slice(start, end = fileSize) {
      const key = `${start}:${end}`
      if (!slices.has(key)) slices.set(key, readRange(start, end - start).then((b) => b.slice().buffer))
      return slices.get(key)
    },
  }
  /** @type {Map<number, Record<string, unknown>>} */
  const byRow = new Map()
  try {
    await Promise.all(rowRuns([...wanted].sort((a, b) => a - b), layout.rowGroupRows).map(async ([rowStart, rowEnd]) => {
      /** @type {Array<Record<string, unknown>>} */
      const rows = await pages.parquetReadObjects({ file, metadata, columns, rowStart, rowEnd, useOffsetIndex: true, compressors })
      rows.forEach((row, i) => { if (wanted.has(rowStart + i)) byRow.set(rowStart + i, row) })
    }))
  } catch (error) {
    if (error instanceof ParquetBloomError) throw error // a read failed or was aborted: the probe's error
    // A page hyparquet cannot decode (a bare RangeError left the probe): the rows keep their verdict, without values.
    const why = error instanceof Error ? error.message : String(error)
    const detail = `; the rows' values of ${columns.join(', ')} could not be read: ${why}`
    for (const g of rowGroups) for (const r of g.results) if (r.rows?.length) /** @type {{ detail: string }} */ (r).detail += detail
    return
  }
  for (const g of rowGroups) {
    for (const r of g.results) if (r.rows?.length) r.values = r.rows.map((row) => byRow.get(row))
  }
}

/**
 * Sorted rows as [start, end) runs that stay within one row group and join rows less than RUN_GAP_ROWS apart.
 * @param {number[]} rows
 * @param {Iterable<number>} rowGroupRows
 * @returns {Array<[number, number]>}
 */
function rowRuns(rows, rowGroupRows) {
  const groupEnds = []
  let end = 0
  for (const n of rowGroupRows) groupEnds.push((end += n))
  /** @type {Array<{ group: number, start: number, end: number }>} */
  const runs = []
  let g = 0
  for (const row of rows) {
    while (row >= groupEnds[g]) g++
    const last = runs[runs.length - 1]
    if (last && last.group === g && row - last.end < RUN_GAP_ROWS) last.end = row + 1
    else runs.push({ group: g, start: row, end: row + 1 })
  }
  return runs.map((r) => [r.start, r.end])
}
