// Whole small Parquet files as rows — Delta checkpoints and sidecars, Iceberg position- and equality-delete files (and a
// data file's equality columns) —, each row group's pages decoded as point lookups decode theirs
// (js/confirm/point-lookups.js rowGroupValues: header sizes and CRC, levels within their section and at most the
// maximum, values within their page, the pages holding the row group's rows), then converted and assembled by
// hyparquet as its row reader does; loaded on first use (never on the probe path). That row reader, used here before,
// read the pages with none of those checks: a DuckDB sidecar whose add.path page had a short level run (DuckDB and
// arrow-rs refuse it) lost its last add, whose file's values were then answered absent; a position delete file's short
// run in pos deleted row 0 and not row 5. A file that does not read so is MALFORMED_TABLE naming it, never fewer rows.
import { ErrorCode, messageOf } from '../errors.js'
import { tableError } from './table-location.js'
import { openParquet } from '../parquet-file.js'

/**
 * A Parquet file held in memory, opened as any file (openParquet: its footer decoded as probes decode it), and the
 * rows of `columns` its `pick` chooses from its leaves; what `pick` returns besides (Iceberg's field ids) with them.
 * The lookups are a dynamic import of the chunk exact lookups load (a static import of the footer reader from here
 * split the probe path's chunks, +2.4 KB gzip); openParquet is the dataset layer's own (js/dataset/session.js).
 * @template T
 * @param {Uint8Array} bytes
 * @param {string} name the file, for errors
 * @param {(leaves: import('../footer/footer.js').LeafColumn[]) => { columns: string[], also: T }} pick
 * @param {boolean} utf8 false: bytes without a string annotation stay bytes
 * @returns {Promise<{ rows: Record<string, unknown>[], also: T }>}
 */
async function rowsOf(bytes, name, pick, utf8) {
  const { rowGroupValues } = await import('../confirm/confirm.js')
  // The class behind the declared ParquetFile (js/index.d.ts hides its layout).
  const file = /** @type {import('../parquet-file.js').ParquetFile} */ (/** @type {unknown} */ (await openParquet(bytes, { name })))
  try {
    const { layout, metadataOffset } = file
    const { columns, also } = pick(layout.columns)
    /** @type {Record<string, unknown>[]} */
    const rows = []
    if (!columns.length) return { rows, also }
    /** @type {import('../confirm/row-values.js').ReadRange} */
    const read = async (offset, length) => {
      if (!(offset >= 0 && length >= 0 && offset + length <= bytes.length)) {
        throw new Error(`bytes ${offset}–${offset + length} lie outside the ${bytes.length}-byte file`)
      }
      return bytes.subarray(offset, offset + length)
    }
    for (let group = 0; group < layout.rowGroupRows.length; group++) {
      const count = layout.rowGroupRows[group]
      if (!count) continue
      // Every row, so whole chunks (no OffsetIndex): their pages must hold the row group's rows.
      const at = Array.from({ length: count }, (_, i) => i)
      const values = await rowGroupValues({ layout, metadataOffset, group, rows: at, columns, read, utf8 })
      for (let i = 0; i < count; i++) rows.push(Object.fromEntries(columns.map((c, k) => [c, values[k][i]])))
    }
    return { rows, also }
  } finally {
    await file.close()
  }
}

/**
 * `read`, any failure of it MALFORMED_TABLE naming the file.
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} read
 * @returns {Promise<T>}
 */
async function asTableFile(name, read) {
  try {
    return await read()
  } catch (error) {
    throw tableError(ErrorCode.MALFORMED_TABLE, `${name}: does not read as Parquet (${messageOf(error)})`, { source: name, cause: error })
  }
}

/**
 * The rows of a Parquet file held in memory, with only those of `columns` its schema has at its top level.
 * @param {Uint8Array} bytes
 * @param {string[]} columns top-level column names
 * @param {string} name the file, for errors
 * @returns {Promise<Record<string, any>[]>}
 */
export async function readParquetRows(bytes, columns, name) {
  const { rows } = await asTableFile(name, () => rowsOf(bytes, name, (leaves) => {
    const present = new Set(leaves.map((c) => c.path[0]))
    return { columns: columns.filter((c) => present.has(c)), also: null }
  }, true))
  return rows
}

/**
 * The rows of a Parquet file held in memory keyed by Iceberg field id (the schema's field_id), top-level
 * columns only: `ids` says which of the wanted ids the file has (a column the file lacks is not null here:
 * the caller decides what its absence means).
 * @param {Uint8Array} bytes
 * @param {number[]} wanted field ids
 * @param {string} name the file, for errors
 * @returns {Promise<{ ids: Set<number>, rows: Array<Map<number, any>> }>}
 */
export async function readParquetRowsByFieldId(bytes, wanted, name) {
  // Bytes without a string annotation stay bytes: decoded as UTF-8, distinct invalid sequences would all be U+FFFD
  // and compare equal (an equality delete of 0xFF would remove a row holding 0xEF 0xBF 0xBD).
  const { rows, also: names } = await asTableFile(name, () => rowsOf(bytes, name, (leaves) => {
    // Top-level leaves (a nested column's leaves have longer paths).
    /** @type {Map<number, string>} */
    const byId = new Map()
    for (const c of leaves) if (c.path.length === 1 && c.fieldId !== undefined && wanted.includes(c.fieldId)) byId.set(c.fieldId, c.path[0])
    return { columns: [...byId.values()], also: byId }
  }, false))
  return { ids: new Set(names.keys()), rows: rows.map((o) => new Map([...names].map(([id, column]) => [id, o[column]]))) }
}
