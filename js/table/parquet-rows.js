// Whole small Parquet files as rows — Delta checkpoints, Iceberg position-delete files — read by
// hyparquet with the page codecs (js/pages/page-codecs.js), both loaded on first use (never on the probe path).
import { loadHyparquetPages } from '../pages/hyparquet.js'
import { loadCompressors } from '../pages/page-codecs.js'

/**
 * The rows of a Parquet file held in memory, with only those of `columns` its schema has (all when
 * omitted).
 * @param {Uint8Array} bytes
 * @param {string[]} [columns] top-level column names
 * @returns {Promise<Record<string, any>[]>}
 */
export async function readParquetRows(bytes, columns) {
  // Through the one hyparquet adapter (js/pages/hyparquet.js): its package entry for Node imports node:fs.
  const [{ parquetMetadata, parquetReadObjects }, compressors] = await Promise.all([loadHyparquetPages(), loadCompressors()])
  const file = /** @type {ArrayBuffer} */ (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const metadata = parquetMetadata(file)
  const present = new Set(metadata.schema.map((e) => e.name))
  const wanted = columns?.filter((c) => present.has(c))
  if (wanted && wanted.length === 0) return []
  return parquetReadObjects({ file, metadata, compressors, ...(wanted ? { columns: wanted } : {}) })
}
