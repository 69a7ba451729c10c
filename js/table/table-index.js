// openTable(…, { index }) with a table index (docs/table-index.md): a format-2 sidecar index whose Puffin
// file also records the snapshot it was built at (js/table/table-snapshot-record.js). Opened beside the
// table's pointer; its record lets the table be loaded without its manifests or log while it is at that
// snapshot (js/table/iceberg-indexed.js, js/table/delta.js), and its files are matched to the sidecar's
// entries by the identity the record keeps — table files are immutable, so no file is checked by a stat
// or HEAD. A file the record does not list (added since) is never answered from the index.
import { TABLE_SNAPSHOT_BLOB } from '../sidecar/sidecar-blobs.js'
import { openSidecarIndex } from '../sidecar/sidecar-index.js'
import { StaleReason } from '../sidecar/sidecar-currency.js'
import { decodeSnapshotRecord } from './table-snapshot-record.js'
import { schemaFields } from './iceberg.js'
import { indexReadsAsTable } from './widened-files.js'
import { ErrorCode } from '../errors.js'
import { isDeltaPartitionColumn } from './delta.js'
import { placesOf } from '../dataset/index-batches.js'

/**
 * Opens the sidecar of openTable's `index` (or takes one already open): what its footer says of the
 * snapshot record (`at`: the Delta version and the name of its log object, known after the tail read, so
 * the log can be read beside the record), and the record being read, if it has one (a format-2 index built with `table`).
 * @param {any} given anything openSidecarIndex takes, or an opened index
 * @param {Record<string, any>} options openSidecarIndex's reading options
 * @returns {Promise<{ sidecar: any, owned: boolean, at: { deltaVersion?: number, logObject?: string } | null,
 *   record: Promise<import('./table-snapshot-record.js').SnapshotRecord | null> }>}
 */
export async function openTableIndex(given, options) {
  const owned = typeof given?.probe !== 'function'
  const sidecar = owned ? await openSidecarIndex(given, options) : given
  const metadata = typeof sidecar.blobMetadata === 'function' ? sidecar.blobMetadata(TABLE_SNAPSHOT_BLOB) : undefined
  const version = Number(metadata?.properties?.['delta-version'])
  const logObject = metadata?.properties?.['delta-log-object']
  const record = metadata
    ? sidecar.readBlob(TABLE_SNAPSHOT_BLOB, { signal: options.signal })
      .then((/** @type {{ bytes: Uint8Array }} */ blob) => decodeSnapshotRecord(blob.bytes, String(given?.name ?? given)))
    : Promise.resolve(null)
  record.catch(() => {}) // awaited by openTable, which closes the sidecar when it fails
  return { sidecar, owned, record,
    at: metadata
      ? { ...(Number.isSafeInteger(version) ? { deltaVersion: version } : {}), ...(typeof logObject === 'string' ? { logObject } : {}) }
      : null }
}

// Why a record was not used (loadDelta, loadIceberg) that leaves no sign it was made of this table: its files are not asked
// of the sidecar either. A record whose log or snapshot is this table's but could not be followed ('commits-unavailable',
// 'snapshot-differs': the same table-uuid) still knows this table's files by path and size, which never change.
/** @type {Set<import('../index.js').TableIndexUnusedReason | null | undefined>} */
const NOT_THIS_TABLE = new Set(['untied-record', 'log-differs', 'other-table'])

/**
 * Whether the record was made of this table: Iceberg's table-uuid, Delta's metaData id (when both are known),
 * and, when loading the table set it aside, not for a reason that leaves that in doubt.
 * @param {import('./table-snapshot-record.js').SnapshotRecord} record
 * @param {import('./load-table.js').LoadedTable} table
 */
export function recordOfTable(record, table) {
  const recorded = record.tableId
  const found = table.format === 'iceberg' ? table.metadata?.['table-uuid'] : table.metaData?.id
  const reason = (table.scan?.indexed ?? table.indexed)?.reason
  return record.table === table.format && (recorded === undefined || found === undefined || recorded === found) &&
    !NOT_THIS_TABLE.has(reason)
}

const READ_OTHERWISE = 'a file of an older type or another unit than the column\'s (written before a widening, or by another ' +
  'tool) may read a value otherwise than the table: each file is probed as without an index'

/**
 * Why an index does not answer for a table's column at all, or null: a Delta partition column's values are the adds'
 * partitionValues, never a data file's column of that name (js/table/delta.js isDeltaPartitionColumn), which is all an
 * index built from the files saw — a file from before the column was a partition column holds other values there.
 * @param {import('./load-table.js').LoadedTable} table
 * @param {string} column
 */
function notIndexed(table, column) {
  const field = table.fields.find((f) => f.name === column)
  return table.format === 'delta' && field && isDeltaPartitionColumn(table.metaData, field)
    ? `${column} is a partition column: its values are the log's partitionValues, not the data files' the index was built from`
    : null
}

/**
 * The sidecar's answers, or null when it refuses a value (BAD_VALUE) that a file's older column cannot take but the table's can
 * (a time of day for a DATE file under a timestamp column): each file then decides it as without an index. (Our indexes answer
 * such a file per file, unknown with its `error`, which decides nothing; this keeps an index of an older version to that.)
 * @param {any} sidecar @param {string} column @param {unknown[]} values @param {object} options
 */
async function probeOrNone(sidecar, column, values, options) {
  try {
    return await sidecar.probe(column, values, options)
  } catch (error) {
    if (/** @type {{ code?: unknown }} */ (error)?.code === ErrorCode.BAD_VALUE) return null
    throw error
  }
}

/**
 * What a table's dataset asks as its sidecar index (js/dataset/dataset-index.js): files the record lists,
 * with the size it records, are asked of the sidecar by their recorded identity; the others answer
 * not described (`missing-from-index`: added since; `size-differs`).
 */
export class TableSidecar {
  #sidecar
  #owned
  #table
  /** @type {Map<string, import('./table-snapshot-record.js').RecordedFile>} */
  #recorded
  #sameTable

  /**
   * @param {any} sidecar the opened sidecar index
   * @param {import('./table-snapshot-record.js').SnapshotRecord} record
   * @param {import('./load-table.js').LoadedTable} table its `files` grow as manifests are read
   * @param {boolean} owned whether closing the table closes the sidecar
   */
  constructor(sidecar, record, table, owned) {
    this.#sidecar = sidecar
    this.#owned = owned
    this.#table = table
    // By the path the metadata writes (the recorded file's); the sidecar knows it by its path relative to the table's root.
    this.#recorded = new Map(record.files.map((f) => [f.path, f]))
    this.#sameTable = recordOfTable(record, table)
    this.record = record
  }

  get stats() {
    return this.#sidecar.stats
  }

  get columns() {
    return this.#sidecar.columns
  }

  /**
   * The sidecar's probe of a table's files, named by location (as the dataset knows them).
   * @param {string} column
   * @param {unknown[]} values
   * @param {{ files: Array<{ path: string }>, signal?: AbortSignal, maxResults?: number,
   *   rowGroupsKnown?: (rowGroups: number[]) => Set<number> | undefined }} options (maxResults: a dataset's, Infinity;
   *   rowGroupsKnown: the sidecar's, js/sidecar/sidecar-index.js, of the files as they are given here)
   */
  async probe(column, values, { files, signal, maxResults, rowGroupsKnown }) {
    const byLocation = new Map(this.#table.files.map((f) => [String(f.location), f]))
    /** @type {object[]} */
    const out = new Array(files.length)
    /** @type {Array<[number, { path: string, size: number, validator: string | null }]>} */
    const asked = []
    /** @param {number} i @param {string} reason @param {string} detail */
    const notDescribed = (i, reason, detail) => { out[i] = { path: files[i].path, current: false, reason, detail, rowGroups: [] } }
    const sameField = await this.#sameField(column)
    const partition = notIndexed(this.#table, column)
    files.forEach((spec, i) => {
      const file = byLocation.get(spec.path)
      const recordedPath = file?.writtenPath ?? file?.logged?.path
      const recorded = file && this.#sameTable && recordedPath !== undefined ? this.#recorded.get(recordedPath) : undefined
      if (partition) {
        notDescribed(i, StaleReason.MISSING_FROM_INDEX, partition)
      } else if (!sameField) {
        notDescribed(i, StaleReason.MISSING_FROM_INDEX, `the table's column ${column} is not the field the index holds by that ` +
          'name: renamed or replaced since the index was built (or the index does not say which field it holds)')
      } else if (!this.#sameTable) {
        notDescribed(i, StaleReason.MISSING_FROM_INDEX, 'the table index is not tied to this table: built for another table, ' +
          'or for a table since re-created here, or before indexes recorded their log')
      } else if (!recorded || !file) { // a recorded file is a known one
        notDescribed(i, StaleReason.MISSING_FROM_INDEX,
          'the file is not in the table index: added to the table after the snapshot it was built at')
      } else if (recorded.size !== file.size) {
        notDescribed(i, StaleReason.SIZE_DIFFERS, `the table lists ${file.size} bytes, the index recorded ${recorded.size}`)
      } else if (this.record.table === 'iceberg' && recorded.sequence !== undefined &&
        String(/** @type {{ sequence?: bigint }} */ (file).sequence) !== recorded.sequence) {
        // A snapshot after the recorded one added the path again (an ADDED entry takes its snapshot's data sequence number;
        // a manifest rewrite keeps the file's): other bytes may be there at the same size.
        notDescribed(i, StaleReason.MISSING_FROM_INDEX, `the file was added again at its path after the indexed snapshot (its ` +
          `data sequence number is ${/** @type {{ sequence?: bigint }} */ (file).sequence}, the index recorded ${recorded.sequence})`)
      } else if (this.record.table === 'delta' && String(file.logged?.modificationTime) !== String(recorded.modificationTime)) {
        // A commit after the recorded version added the path again (its add is not the recorded one): other bytes may be
        // there at the same size. A deletion vector added to the file keeps its modificationTime, as Delta copies the add.
        notDescribed(i, StaleReason.MISSING_FROM_INDEX, `the file was added again at its path after the indexed version (its ` +
          `modificationTime is ${file.logged?.modificationTime}, the index recorded ${recorded.modificationTime ?? 'none'})`)
      } else {
        asked.push([i, { path: file.path, size: recorded.size, validator: recorded.validator }])
      }
    })
    const field = this.#table.fields.find((f) => f.name === column)
    if (asked.length && field && !indexReadsAsTable(field, values)) {
      for (const [i] of asked.splice(0)) notDescribed(i, StaleReason.MISSING_FROM_INDEX, READ_OTHERWISE)
    }
    if (asked.length) {
      const result = await probeOrNone(this.#sidecar, column, values, { files: asked.map(([, spec]) => spec), signal, validate: false,
        maxResults, rowGroupsKnown: rowGroupsKnown && placesOf(asked.map(([i]) => i), files.length, rowGroupsKnown) })
      if (!result) for (const [i] of asked) notDescribed(i, StaleReason.MISSING_FROM_INDEX, READ_OTHERWISE)
      /** @type {object[]} the sidecar's answers, in the order asked */
      const answers = result?.files ?? []
      answers.forEach((entry, j) => { out[asked[j][0]] = { ...entry, path: files[asked[j][0]].path } })
    }
    return { column, files: out }
  }

  /**
   * Whether the table's column of this name is the field the index was built from under it: a rename moves a name
   * to another field (Iceberg's field id, Delta's physical column), whose values the index never saw. The index's
   * fields: Iceberg's from the Puffin blob's `fields` (the indexed columns' ids, in order), Delta's from the
   * recorded metaData. A column the index does not hold answers true: the sidecar has no filter for it.
   * @param {string} column
   */
  async #sameField(column) {
    const k = (this.record.columns ?? this.#sidecar.columns ?? []).indexOf(column)
    if (k < 0) return true
    const now = this.#table.fields.find((f) => f.name === column)
    if (!now) return false
    if (this.record.table === 'iceberg') {
      const ids = typeof this.#sidecar.blobMetadata === 'function' ? this.#sidecar.blobMetadata(TABLE_SNAPSHOT_BLOB)?.fields : undefined
      const columns = this.record.columns ?? this.#sidecar.columns ?? []
      // An id left out (a column that was no field) shifts the others: no field can be told apart then.
      return Array.isArray(ids) && ids.length === columns.length && String(ids[k]) === String(now.id)
    }
    const schemaString = this.record.metaData?.schemaString
    if (typeof schemaString !== 'string') return false
    const { deltaFields, deltaMappingMode } = await import('./delta.js')
    const then = deltaFields(JSON.parse(schemaString), deltaMappingMode(this.record.metaData)).find((f) => f.name === column)
    return then !== undefined && then.physicalName === /** @type {{ physicalName?: string }} */ (now).physicalName
  }

  async close() {
    if (this.#owned) await this.#sidecar.close()
  }
}

/**
 * A sidecar index built from files (no snapshot record) asked about a table's files: it knows a column by the name
 * the Parquet files carry, the table by its own, and after a rename the two name different fields (Iceberg: a file
 * names a field as the schema did when it was written; Delta column mapping: by its physical name). It is asked by
 * the name the files carry — Delta's physical name (not under column mapping `id`, which reads by field id); an Iceberg
 * name only when every schema of the table (and its name mapping) gives that name to that field alone and that field
 * no other name, so a file's column of that name is the field — else it describes no file for that column
 * (`missing-from-index`).
 */
export class FilesSidecar {
  #sidecar
  #table

  /**
   * @param {any} sidecar the opened sidecar index (closed by the table, not here)
   * @param {import('./load-table.js').LoadedTable} table
   */
  constructor(sidecar, table) {
    this.#sidecar = sidecar
    this.#table = table
  }

  get stats() {
    return this.#sidecar.stats
  }

  get columns() {
    return this.#sidecar.columns
  }

  /**
   * @param {string} column
   * @param {unknown[]} values
   * @param {{ files: Array<{ path: string }>, signal?: AbortSignal }} options
   */
  async probe(column, values, options) {
    const partition = notIndexed(this.#table, column)
    const name = partition ? null : this.#fileColumn(column)
    if (name === null) {
      return { column, files: options.files.map((f) => ({ path: f.path, current: false, reason: StaleReason.MISSING_FROM_INDEX,
        detail: partition ?? `the index was built from files, which may name the table's column ${column} otherwise (renamed), or ` +
          'give its name to another column', rowGroups: [] })) }
    }
    const field = /** @type {any} */ (this.#table).fields.find((/** @type {{ name: string }} */ f) => f.name === column)
    const result = field && !indexReadsAsTable(field, values) ? null : await probeOrNone(this.#sidecar, name, values, options)
    if (!result) {
      return { column, files: options.files.map((f) => ({ path: f.path, current: false, reason: StaleReason.MISSING_FROM_INDEX,
        detail: READ_OTHERWISE, rowGroups: [] })) }
    }
    return { ...result, column }
  }

  /**
   * The name every file of the table gives the column, or null when files may name it otherwise.
   * @param {string} column
   * @returns {string | null}
   */
  #fileColumn(column) {
    const table = /** @type {any} */ (this.#table)
    const field = table.fields.find((/** @type {{ name: string }} */ f) => f.name === column)
    if (!field) return null
    // Column mapping `id` finds a column by field id, not name: a file's column of the physical name may be another field.
    if (table.format !== 'iceberg') {
      return table.columnMapping !== 'id' && typeof field.physicalName === 'string' ? field.physicalName : null
    }
    // Every schema a file may have been written with must be at hand: ids 0 to the highest, none removed.
    /** @type {Array<{ 'schema-id'?: number }>} */
    const schemas = Array.isArray(table.metadata?.schemas) ? table.metadata.schemas : []
    const ids = new Set(schemas.map((schema) => schema['schema-id']))
    if (!schemas.length || [...Array(schemas.length).keys()].some((id) => !ids.has(id))) return null
    for (const schema of schemas) {
      for (const f of schemaFields(/** @type {any} */ (schema))) if ((f.name === column) !== (f.id === field.id)) return null
    }
    const mapping = table.metadata?.properties?.['schema.name-mapping.default']
    if (mapping !== undefined) {
      if (column.includes('.')) return null
      let entries
      try {
        entries = JSON.parse(mapping)
      } catch {
        return null
      }
      if (!Array.isArray(entries)) return null
      for (const e of entries) {
        /** @type {unknown[]} */
        const names = Array.isArray(e?.names) ? e.names : []
        const isField = e?.['field-id'] === field.id
        if (names.includes(column) !== isField || (isField && names.some((n) => n !== column))) return null
      }
    }
    return column
  }

  async close() {}
}
