// Whole small Parquet files as rows — Delta checkpoints, Iceberg position- and equality-delete files — read by
// hyparquet with the page codecs (js/pages/page-codecs.js), both loaded on first use (never on the probe path).
import { loadHyparquetPages } from '../pages/hyparquet.js'
import { loadCompressors } from '../pages/page-codecs.js'

/**
 * A Parquet file held in memory with its footer parsed, and the row reader.
 * @param {Uint8Array} bytes
 */
async function parsed(bytes) {
  // Through the one hyparquet adapter (js/pages/hyparquet.js): its package entry for Node imports node:fs.
  const [{ parquetMetadata, parquetReadObjects }, compressors] = await Promise.all([loadHyparquetPages(), loadCompressors()])
  const file = /** @type {ArrayBuffer} */ (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  return { file, metadata: parquetMetadata(file), compressors, parquetReadObjects }
}

/**
 * The rows of a Parquet file held in memory, with only those of `columns` its schema has (all when
 * omitted).
 * @param {Uint8Array} bytes
 * @param {string[]} [columns] top-level column names
 * @returns {Promise<Record<string, any>[]>}
 */
export async function readParquetRows(bytes, columns) {
  const { file, metadata, compressors, parquetReadObjects } = await parsed(bytes)
  const present = new Set(metadata.schema.map((/** @type {{ name: string }} */ e) => e.name))
  const wanted = columns?.filter((c) => present.has(c))
  if (wanted && wanted.length === 0) return []
  return parquetReadObjects({ file, metadata, compressors, ...(wanted ? { columns: wanted } : {}) })
}

/**
 * The rows of a Parquet file held in memory keyed by Iceberg field id (the schema's field_id), top-level
 * columns only: `ids` says which of the wanted ids the file has (a column the file lacks is not null here:
 * the caller decides what its absence means).
 * @param {Uint8Array} bytes
 * @param {number[]} wanted field ids
 * @returns {Promise<{ ids: Set<number>, rows: Array<Map<number, any>> }>}
 */
export async function readParquetRowsByFieldId(bytes, wanted) {
  const { file, metadata, compressors, parquetReadObjects } = await parsed(bytes)
  // Top-level elements: the root's children, walked by num_children (a nested column's children follow it).
  const names = new Map()
  let i = 1
  /** @type {(at: number) => number} the element after `at` and its descendants */
  const skip = (at) => { let n = at + 1; for (let c = 0; c < (metadata.schema[at].num_children ?? 0); c++) n = skip(n); return n }
  while (i < metadata.schema.length) {
    const e = metadata.schema[i]
    if (e.field_id !== undefined && wanted.includes(e.field_id) && !e.num_children) names.set(e.field_id, e.name)
    i = skip(i)
  }
  const ids = new Set(names.keys())
  if (!ids.size) return { ids, rows: [] }
  // Bytes without a string annotation stay bytes: decoded as UTF-8, distinct invalid sequences would all be U+FFFD
  // and compare equal (an equality delete of 0xFF would remove a row holding 0xEF 0xBF 0xBD).
  const objects = await parquetReadObjects({ file, metadata, compressors, columns: [...names.values()], utf8: false })
  return { ids, rows: objects.map((/** @type {Record<string, unknown>} */ o) => new Map([...names].map(([id, name]) => [id, o[name]]))) }
}
