// Row-level deletes against the rows a confirmation found (Iceberg position and equality delete files,
// Delta deletion vectors). Deletes only remove rows: an `absent` stays absent, and a `present` keeps the
// rows no delete removes. Position deletes and deletion vectors are applied exactly; equality deletes
// (and anything unreadable) turn a `present` into `maybe`, reason `deletes-not-applied`.
import { bitmapInFile, decodeRoaringBitmapArray, deletionVectorSource } from './deletion-vector.js'
import { pathResolver } from './table-location.js'
import { readParquetRows } from './parquet-rows.js'

/** The deleted row positions of one data file, or null when some delete cannot be applied exactly. */
async function deletedRows(table, file) {
  const deleted = new Set()
  const resolve = pathResolver(table.root, { encoded: true, allowOutside: table.allowOutside })
  const reads = []
  for (const d of file.deletes) {
    if (d.kind === 'equality') return null
    if (d.kind === 'dv') {
      const source = deletionVectorSource(d.dv)
      if (source.inline) {
        for (const r of decodeRoaringBitmapArray(source.inline)) deleted.add(r)
        continue
      }
      const { location } = resolve(source.path)
      reads.push({ location, use: (bytes) => { for (const r of decodeRoaringBitmapArray(bitmapInFile(bytes, source.offset, Number(d.dv.sizeInBytes)))) deleted.add(r) } })
    } else if (d.kind === 'position') {
      reads.push({ location: d.location, use: async (bytes) => {
        for (const row of await readParquetRows(bytes, ['file_path', 'pos'])) {
          if (row.file_path === file.writtenPath) deleted.add(Number(row.pos))
        }
      } })
    }
  }
  const bytes = await table.io.readAll(reads.map((r) => r.location), { immutable: true })
  for (let i = 0; i < reads.length; i++) await reads[i].use(bytes[i])
  return deleted
}

const notApplied = (v, why) => ({ ...v, verdict: 'maybe', reason: 'deletes-not-applied', detail: `${v.detail}; but the file has deletes that were not applied (${why})` })

/**
 * The file's values with its deletes applied to each `present` one.
 * @param {any} table the loaded table (js/table/load-table.js)
 * @param {any} file the table file
 * @param {Array<any>} values the file's per-value results
 */
export async function applyDeletes(table, file, values) {
  let deleted
  try {
    deleted = await deletedRows(table, file)
  } catch (error) {
    return values.map((v) => (v.verdict === 'present' ? notApplied(v, `${error.code ?? 'error'}: ${error.message}`) : v))
  }
  return values.map((v) => {
    if (v.verdict !== 'present') return v
    if (deleted === null) return notApplied(v, 'equality deletes')
    if (!Array.isArray(v.rows)) return notApplied(v, 'the rows holding it are not known')
    const rows = v.rows.filter((r) => !deleted.has(r))
    if (rows.length) return { ...v, rows }
    if (v.rowsTruncated) return notApplied(v, 'every row listed is deleted, and the list was cut at maxRows')
    return { ...v, verdict: 'absent', reason: 'rows-deleted', detail: `every row holding it (${v.rows.join(', ')}) is deleted by the table's deletes` }
  })
}
