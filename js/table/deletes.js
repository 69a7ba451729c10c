// Row-level deletes against the rows a confirmation found (Iceberg position and equality delete files and
// deletion vectors, Delta deletion vectors). Deletes only remove rows: an `absent` stays absent, and a `present` keeps the
// rows no delete removes. Position deletes and deletion vectors are applied exactly. Equality deletes
// (Iceberg spec "Equality Delete Files") are applied where every equality column of a found row can be
// compared with every delete row by its Iceberg type, by field id; anything else (a type compared
// lossily, a column a file lacks, an unreadable file) turns a `present` into `maybe`, reason
// `deletes-not-applied`.
import { bitmapInFile, decodeRoaringBitmapArray, deletionVectorSource, puffinDeletionVectorRows } from './deletion-vector.js'
import { pathResolver } from './table-location.js'
import { readParquetRows, readParquetRowsByFieldId } from './parquet-rows.js'
import { sameKey, valueKeys } from './column-keys.js'

// Types whose values hyparquet reads without loss and whose equality is that of their keys. Not here:
// floats (NaN and -0 have their own equality), decimals (hyparquet reads them as doubles), times and
// timestamps (hyparquet's Dates drop the micro- and nanoseconds).
const EXACT_KINDS = new Set(['int', 'long', 'string', 'binary', 'fixed', 'uuid', 'boolean', 'date'])

/**
 * @typedef {import('./load-table.js').LoadedTable} LoadedTable
 * @typedef {import('./load-table.js').TableFile} TableFile
 * @typedef {import('../index.js').ProbeValueResult} ProbeValueResult
 * @typedef {Array<Map<number, unknown>>} RowsById a Parquet file's rows, each its values by field id
 * @typedef {{ ids: number[], rows: RowsById | null }} EqualityDeletes
 *   one equality delete file: its equality field ids and rows (null: it could not be read as needed)
 */

/**
 * Whether two values of one column are equal for an equality delete: true, false, or null when it
 * cannot be said with certainty. Nulls equal nulls (spec: "Equality Delete Files"); undefined is a
 * column that was not there to read.
 * @param {import('./column-keys.js').TableType | undefined} type
 * @param {unknown} a
 * @param {unknown} b
 */
function equalForDelete(type, a, b) {
  if (a === undefined || b === undefined || !type || !EXACT_KINDS.has(type.kind)) return null
  if (a === null || b === null) return a === null && b === null
  let ka, kb
  try {
    [ka, kb] = valueKeys(type, [a, b])
  } catch {
    return null
  }
  if (!ka || !kb || !('keys' in ka) || !('keys' in kb)) return null
  const overlap = ka.keys.some((x) => kb.keys.some((y) => sameKey(x, y)))
  if (!overlap) return false
  return ka.keys.length === 1 && kb.keys.length === 1 ? true : null
}

/**
 * What the file's deletes remove: the deleted row positions, the equality delete files' rows (by field
 * id), and — when an equality column is not the probed one — the data file's own rows by field id.
 * Null `equality` rows mean an equality delete file could not be read as needed.
 * @param {LoadedTable} table
 * @param {TableFile} file
 * @param {number | undefined} probedId
 * @returns {Promise<{ positions: Set<number>, equality: EqualityDeletes[], dataRows: { ids: Set<number>, rows: RowsById } | null }>}
 */
async function readDeletes(table, file, probedId) {
  /** @type {Set<number>} */
  const positions = new Set()
  /** @type {EqualityDeletes[]} */
  const equality = []
  const resolve = pathResolver(table.root, { encoded: true, allowOutside: table.allowOutside })
  /** @type {Array<{ location: string, use: (bytes: Uint8Array) => void | Promise<void> }>} */
  const reads = []
  /** @type {Set<number>} */
  const needed = new Set()
  for (const d of file.deletes) {
    if (d.kind === 'equality') {
      const ids = (d.equalityIds ?? []).map(Number)
      for (const id of ids) needed.add(id)
      reads.push({ location: d.location, use: async (bytes) => {
        const read = ids.length ? await readParquetRowsByFieldId(bytes, ids, d.location) : null
        equality.push({ ids, rows: read && ids.every((id) => read.ids.has(id)) ? read.rows : null })
      } })
    } else if (d.kind === 'dv' && 'puffin' in d) {
      const { location, offset, size } = d.puffin
      reads.push({ location, use: (bytes) => { for (const r of puffinDeletionVectorRows(bytes, offset, size)) positions.add(r) } })
    } else if (d.kind === 'dv') {
      const source = deletionVectorSource(d.dv)
      if (source.inline) {
        for (const r of decodeRoaringBitmapArray(source.inline)) positions.add(r)
        continue
      }
      const { location } = resolve(source.path)
      reads.push({ location, use: (bytes) => {
        for (const r of decodeRoaringBitmapArray(bitmapInFile(bytes, source.offset, Number(d.dv.sizeInBytes)))) positions.add(r)
      } })
    } else if (d.kind === 'position') {
      reads.push({ location: d.location, use: async (bytes) => {
        for (const row of await readParquetRows(bytes, ['file_path', 'pos'], d.location)) {
          if (row.file_path === file.writtenPath) positions.add(Number(row.pos))
        }
      } })
    }
  }
  // The data file is read (in the same round as the delete files) only when an equality column is not
  // the probed one: the probed column's value at a found row is the value found.
  /** @type {{ ids: Set<number>, rows: RowsById } | null} */
  let dataRows = null
  const others = [...needed].filter((id) => id !== probedId)
  if (others.length) {
    reads.push({ location: file.location, use: async (bytes) => {
      dataRows = await readParquetRowsByFieldId(bytes, others, file.location)
    } })
  }
  const bytes = await table.io.readAll(reads.map((r) => r.location), { immutable: true })
  for (let i = 0; i < reads.length; i++) await reads[i].use(bytes[i])
  return { positions, equality, dataRows }
}

/**
 * Whether one found row is removed by the equality deletes: true, false, or null (cannot be said).
 * `valueOf(id)` is the row's value of a field (undefined: not known).
 * @param {LoadedTable} table
 * @param {EqualityDeletes[]} equality
 * @param {(id: number) => unknown} valueOf
 */
function equalityDeleted(table, equality, valueOf) {
  let uncertain = false
  for (const { ids, rows } of equality) {
    if (rows === null) return null
    for (const deleteRow of rows) {
      let all = true
      for (const id of ids) {
        const eq = equalForDelete(table.fieldsById?.get(id)?.type, valueOf(id), deleteRow.get(id))
        if (eq === false) { all = false; break }
        if (eq === null) { all = false; uncertain = true; break }
      }
      if (all) return true
    }
  }
  return uncertain ? null : false
}

/**
 * @param {ProbeValueResult} v
 * @param {string} why
 * @returns {ProbeValueResult}
 */
const notApplied = (v, why) => ({
  ...v, verdict: 'maybe', reason: 'deletes-not-applied', detail: `${v.detail}; but the file has deletes that were not applied (${why})`,
})

/**
 * Whether value k's rows, as rolled up from the file's row groups, are every row of the file holding it: each row
 * group ruled it out or listed its rows. A row group left at 'maybe' or 'unknown' (a confirmation over its budget or
 * unreadable), or 'present' without rows, may hold it at rows no list names.
 * @param {Array<{ results: ProbeValueResult[] }>} rowGroups the file's, as its probe returned them
 * @param {number} k
 */
function rowsComplete(rowGroups, k) {
  return rowGroups.length > 0 && rowGroups.every(({ results }) => {
    const r = results[k]
    return r.verdict === 'absent' || (r.verdict === 'present' && Array.isArray(r.rows))
  })
}

/**
 * The file's values with its deletes applied to each `present` one.
 * @param {LoadedTable} table
 * @param {TableFile} file
 * @param {ProbeValueResult[]} values the file's per-value results
 * @param {{ id?: number } | undefined} field the probed table field (its value at a found row is the value itself)
 * @param {Array<{ results: ProbeValueResult[] }>} rowGroups the file's row groups' results the values were rolled up from
 * @returns {Promise<ProbeValueResult[]>}
 */
export async function applyDeletes(table, file, values, field, rowGroups) {
  const probedId = table.format === 'iceberg' ? field?.id : undefined
  let deletes
  try {
    deletes = await readDeletes(table, file, probedId)
  } catch (error) {
    const { code, message } = /** @type {{ code?: string, message?: string }} */ (error)
    return values.map((v) => (v.verdict === 'present' ? notApplied(v, `${code ?? 'error'}: ${message}`) : v))
  }
  const { positions, equality, dataRows } = deletes
  return values.map((v, valueIndex) => {
    if (v.verdict !== 'present') return v
    const { values: rowValues, rows: listed, ...rest } = v
    if (!Array.isArray(listed)) return notApplied(v, 'the rows holding it are not known')
    /** the indexes into `listed` of the rows no delete removes */
    const kept = []
    for (let k = 0; k < listed.length; k++) {
      const r = listed[k]
      if (positions.has(r)) continue
      if (equality.length) {
        /** @param {number} id */
        const valueOf = (id) => (id === probedId ? v.value : dataRows?.ids.has(id) ? dataRows.rows[r]?.get(id) : undefined)
        const gone = equalityDeleted(table, equality, valueOf)
        if (gone === null) return notApplied(v, `equality deletes could not be compared with row ${r} exactly`)
        if (gone) continue
      }
      kept.push(k)
    }
    // `values` (with `columns`) is per row of `rows`: the deleted rows' values go with them.
    if (kept.length) {
      return { ...rest, rows: kept.map((k) => listed[k]), ...(rowValues ? { values: kept.map((k) => rowValues[k]) } : {}) }
    }
    if (v.rowsTruncated) return notApplied(v, 'every row listed is deleted, and the list was cut at maxRows')
    if (!rowsComplete(rowGroups, valueIndex)) {
      return notApplied(v, 'every row listed is deleted, but a row group whose rows are not listed may hold it')
    }
    return { ...rest, verdict: 'absent', reason: 'rows-deleted',
      detail: `every row holding it (${listed.join(', ')}) is deleted by the table's deletes` }
  })
}
