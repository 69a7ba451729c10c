// Point lookups after an exact lookup (probe's `columns` option): the values of other columns at the rows a
// confirmation found, each leaf's pages decoded as exact lookups decode theirs (js/confirm/row-values.js), with the
// OffsetIndex (parquet-format PageIndex.md first_row_index) when there is one, so only the pages holding those rows
// are fetched: kilobytes for a few rows of a large file. Without an OffsetIndex the chunks are read.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ChunkView } from '../footer/records.js'
import { hyparquetMetadata, loadHyparquet } from '../pages/page-decode.js'
import { leafValuesAt } from './row-values.js'

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
 * Adds `values` (parallel to `rows`: one `{ column: value }` per row, as hyparquet's row reader gives them) to every
 * result that has rows. BYTE_ARRAY without a string annotation stays bytes (as DuckDB's BLOB): hyparquet's text of
 * bytes that are not UTF-8 would be U+FFFD in their place, another value than the row's. A row group whose pages of
 * those columns cannot be read (js/confirm/row-values.js) keeps its results' verdicts and rows, without values, and says
 * why in their detail.
 * @param {{ layout: import('../footer/footer.js').FileLayout, metadataOffset: number, columns: string[],
 *   offsetIndexes: import('./row-values.js').OffsetIndexes, readRange: (offset: number, length: number) => Promise<Uint8Array>,
 *   rowGroups: Array<{ results: Array<{ rows?: number[], values?: Array<object | undefined>, detail?: string }> }> }} lookup
 */
export async function lookupRowValues({ layout, metadataOffset, columns, offsetIndexes, readRange, rowGroups }) {
  const firstRows = [0]
  for (const n of layout.rowGroupRows) firstRows.push(firstRows[firstRows.length - 1] + n)
  const groupOf = (/** @type {number} */ row) => {
    let g = 0
    while (row >= firstRows[g + 1]) g++
    return g
  }
  // Per row group, the wanted rows (file rows), ascending.
  /** @type {Map<number, Set<number>>} */
  const wanted = new Map()
  for (const g of rowGroups) {
    for (const r of g.results) {
      for (const row of r.rows ?? []) {
        const group = groupOf(row)
        wanted.set(group, (wanted.get(group) ?? new Set()).add(row))
      }
    }
  }
  if (!wanted.size) return
  /** @type {Map<number, Record<string, unknown>>} */
  const byRow = new Map()
  /** @type {Map<number, string>} */
  const failed = new Map()
  await Promise.all([...wanted].map(async ([group, set]) => {
    const fileRows = [...set].sort((a, b) => a - b)
    const rows = fileRows.map((row) => row - firstRows[group])
    try {
      const valuesOf = await rowGroupValues({ layout, metadataOffset, group, rows, columns, offsetIndexes, read: readRange, utf8: false,
        countPastDates: true })
      fileRows.forEach((row, i) => byRow.set(row, Object.fromEntries(columns.map((name, c) => [name, valuesOf[c][i]]))))
    } catch (error) {
      if (error instanceof ParquetBloomError) throw error // a read failed or was aborted: the probe's error
      failed.set(group, error instanceof Error ? error.message : String(error))
    }
  }))
  for (const g of rowGroups) {
    for (const r of g.results) {
      if (!r.rows?.length) continue
      const why = r.rows.map(groupOf).map((group) => failed.get(group)).find((w) => w !== undefined)
      if (why === undefined) r.values = r.rows.map((row) => byRow.get(row))
      else r.detail += `; the rows' values of ${columns.join(', ')} could not be read: ${why}`
    }
  }
}

/**
 * The values of top-level `columns` at `rows` (ascending, numbered within row group `group`): per column, an array
 * parallel to `rows`, as hyparquet's row reader gives them (`offsetIndexes` and `utf8` as leafValuesAt takes them).
 * Each leaf's pages are decoded by leafValuesAt, which throws for a page in doubt (a read's ParquetBloomError as it
 * is): never fewer values, nor others.
 * @param {{ layout: import('../footer/footer.js').FileLayout, metadataOffset: number, group: number, rows: number[],
 *   columns: string[], offsetIndexes?: import('./row-values.js').OffsetIndexes, read: import('./row-values.js').ReadRange,
 *   utf8?: boolean, countPastDates?: boolean }} lookup
 * @returns {Promise<unknown[][]>}
 */
export async function rowGroupValues({ layout, metadataOffset, group, rows, columns, offsetIndexes, read, utf8 = true,
  countPastDates = false }) {
  const [{ pages }, metadata] = await Promise.all([loadHyparquet(), hyparquetMetadata(layout)])
  const schema = pages.parquetSchema(metadata)
  return Promise.all(columns.map(async (name) => {
    const leaves = layout.columns.filter((c) => c.path[0] === name)
    const values = await Promise.all(leaves.map((column) =>
      leafValuesAt({ layout, metadataOffset, group, column, rows, offsetIndexes, read, utf8, countPastDates })))
    const node = schema.children.find((/** @type {any} */ child) => child.element.name === name)
    if (!node.children.length) return values[0]
    // A struct, list or map: its leaves assembled as hyparquet's row reader does (rows are independent).
    const leafData = new Map(leaves.map((leaf, i) => [leaf.path.join('.'), values[i]]))
    pages.assembleNested(leafData, node, countPastDates ? pages.LOOKUP_PARSERS : pages.DEFAULT_PARSERS)
    const assembled = leafData.get(name)
    if (!assembled) throw new Error(`column ${name} was not assembled`)
    return assembled
  }))
}
