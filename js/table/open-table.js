// openTable(): an Iceberg or Delta table probed as a dataset. The table's metadata lists the live data
// files and rules files out per value before any read (the dataset's prefilter, js/table/prune.js);
// columns are found in each file by field id (Iceberg) or physical name (Delta column mapping); rows a
// confirmation finds are checked against the file's deletes (js/table/deletes.js).
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ParquetDataset } from '../dataset/dataset.js'
import { loadTable } from './load-table.js'
import { pruneFile } from './prune.js'
import { valueKeys } from './column-keys.js'
import { applyDeletes } from './deletes.js'
import { summarizeTable } from './table-summary.js'

const TABLE_OPTIONS = ['format', 'snapshot', 'version', 'metadata', 'rebase', 'allowOutside']

/** The Parquet column of a table field in one file: by field id (Iceberg), else by its physical path. */
function columnInFile(table, field, parquetFile) {
  if (table.format === 'iceberg') {
    const columns = parquetFile.layout.columns
    const byId = columns.find((c) => c.fieldId === field.id)
    if (byId) return byId.path
    if (columns.some((c) => c.fieldId !== undefined)) {
      throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${parquetFile.name}: no column with field id ${field.id} (${field.name}): the file was written before the column existed`, { source: parquetFile.name, field: field.name })
    }
    return field.name.split('.')
  }
  return field.physicalPath
}

export class ParquetTable extends ParquetDataset {
  #table
  #byPath

  constructor(table, options) {
    const byPath = new Map(table.files.map((f) => [f.path, f]))
    const keysFor = new WeakMap()
    const fieldOf = (column) => table.fields.find((f) => f.name === (Array.isArray(column) ? column.join('.') : String(column)))
    const descriptors = table.files.map((f) => ({ path: f.path, location: f.location, size: f.size, partitions: f.partitionValues }))
    super(descriptors, {
      ...options,
      hivePartitioning: false,
      prefilter: async (file, column, values) => {
        const own = options.prefilter ? await options.prefilter(file, column, values) : null
        const field = fieldOf(column)
        const tableFile = byPath.get(file.path)
        if (!field || !tableFile) return own
        let keyed = keysFor.get(values)
        if (!keyed) keysFor.set(values, (keyed = valueKeys(field.type, values)))
        const answers = pruneFile(tableFile, field, keyed)
        // An absent from either wins over a maybe (a maybe only spares the read).
        return answers.map((a, k) => (a?.verdict === 'absent' ? a : own?.[k] ?? a))
      },
      columnOf: (file, parquetFile, column) => {
        const field = fieldOf(column)
        return field ? columnInFile(table, field, parquetFile) : column
      },
    })
    this.#table = table
    this.#byPath = byPath
  }

  /** What the table is: format, snapshot or version, the writer, its live files and their deletes. */
  get table() {
    const t = this.#table
    return {
      format: t.format,
      ...(t.format === 'iceberg' ? { snapshot: t.snapshot ? String(t.snapshot['snapshot-id']) : null, formatVersion: t.formatVersion, metadataLocation: t.metadataLocation } : { version: t.version }),
      writer: t.writer,
      columns: t.fields.map((f) => ({ name: f.name, type: f.type })),
      files: t.files.map((f) => ({ path: f.path, location: f.location, size: f.size, deletes: f.deletes.map((d) => d.kind) })),
      metadataStats: { ...t.io.stats },
    }
  }

  /** Per column, what the metadata can prune (files with bounds, null and NaN counts, partition fields); snapshots or version. */
  summary() {
    return summarizeTable(this.#table)
  }

  /**
   * The dataset's probe, with the file's deletes applied to the rows a confirmation found.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions} [options]
   */
  async probe(column, values, options = {}) {
    const result = await super.probe(column, values, options)
    await Promise.all(result.files.map((f) => this.#withDeletes(f, column)))
    return result
  }

  /**
   * The dataset's probeEach, each file with its deletes applied.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions} [options]
   */
  async * probeEach(column, values, options = {}) {
    for await (const file of super.probeEach(column, values, options)) {
      await this.#withDeletes(file, column)
      yield file
    }
  }

  /** Applies the file's deletes to the values a confirmation found present. */
  async #withDeletes(fileResult, column) {
    const file = this.#byPath.get(fileResult.path)
    if (!file?.deletes.length || !fileResult.values.some((v) => v.verdict === 'present')) return
    const name = Array.isArray(column) ? column.join('.') : String(column)
    fileResult.values = await applyDeletes(this.#table, file, fileResult.values, this.#table.fields.find((f) => f.name === name))
  }
}

/**
 * Opens an Iceberg or Delta table for probing: reads its metadata (one wave per level) and returns a
 * dataset of its live data files.
 * @param {string | URL} location the table's root: a local folder, a file: URL or an http(s) URL
 * @param {import('../index.js').OpenTableOptions} [options] format ('iceberg' | 'delta' | 'auto'), snapshot (Iceberg),
 *   version (Delta), metadata (an Iceberg metadata.json, relative to the root), rebase(path), allowOutside, and
 *   every openDataset / openParquet option
 */
export async function openTable(location, options = {}) {
  const table = await loadTable(location, options)
  const rest = Object.fromEntries(Object.entries(options).filter(([k]) => !TABLE_OPTIONS.includes(k)))
  return new ParquetTable(table, rest)
}
