// openTable(): an Iceberg or Delta table probed as a dataset. The table's metadata lists the live data
// files (an Iceberg table's as each probe reads the manifests it needs, js/table/manifest-summaries.js)
// and rules files out per value before any read (the dataset's prefilter, js/table/prune.js);
// columns are found in each file by field id (Iceberg) or physical name (Delta column mapping); rows a
// confirmation finds are checked against the file's deletes (js/table/deletes.js).
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { ADD_FILES, bothPrefilters, DECIDE_IN_FILE, INDEX_ANSWERS_BY_COLUMN, IO_LEDGER, LOOKUP_COLUMNS_IN, PROBE_ONLY, ParquetDataset }
  from '../dataset/dataset.js'
import { IoLedger, ioStatsSince } from '../sources/io-ledger.js'
import { loadTable } from './load-table.js'
import { pruneFile } from './prune.js'
import { valueKeys } from './column-keys.js'
import { applyDeletes } from './deletes.js'
import { summarizeTable } from './table-summary.js'
import { notInNarrowerFile } from './widened-files.js'
import { deltaColumnIn, idColumns, isDeltaPartitionColumn, readIdColumns } from './delta.js'
import { missingColumnValue } from './missing-columns.js'
import { reshapeStruct, structShape } from './struct-values.js'
import { nestedShape } from './nested-values.js'

/**
 * @typedef {import('./load-table.js').LoadedTable} LoadedTable
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {import('./load-table.js').TableFile} TableFile
 * @typedef {import('../parquet-file.js').ParquetFile} ParquetFile
 */

const TABLE_OPTIONS = ['format', 'snapshot', 'version', 'metadata', 'rebase', 'allowOutside']

/**
 * The table field a probe names (dotted for nested fields), or undefined. A name two fields share (a column named "a.b"
 * beside a → b) is INVALID_ARGUMENT, as a file's for two leaves is (js/parquet-file.js): one's answer is not the other's,
 * and a prefilter knows the column by its dotted name only.
 * @param {{ fields: TableField[] }} table
 * @param {string | string[]} column
 */
function fieldNamed(table, column) {
  const name = Array.isArray(column) ? column.join('.') : String(column)
  const fields = table.fields.filter((f) => namesField(f, column, name))
  if (fields.length > 1) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `${JSON.stringify(name)} names ${fields.length} columns of the table ` +
      '(a name with a dot beside a nested field), which a probe cannot tell apart', { field: name })
  }
  return fields[0]
}

/**
 * Whether a probe's column is the field: a path by its segments where the field has them (Delta's namePath: joined
 * with dots, the path s → a → b was the field s."a.b"), a string by the field's dotted name (docs/tables.md).
 * @param {TableField} field
 * @param {string | string[]} column
 * @param {string} name the column's dotted name
 */
function namesField(field, column, name) {
  const segments = field.namePath
  if (!Array.isArray(column) || !segments) return field.name === name
  return segments.length === column.length && segments.every((s, i) => s === column[i])
}

/**
 * Checks that a probe names the table's columns: the probed column a field of the table's schema (or a list's or map's
 * element under one, found by the files' names), each point lookup (`columns`) a top-level one. A table has a schema: a
 * name it does not have is no column of the table, whatever a data file holds under that name — a column written
 * without the schema (its values are no row's), a metadata column (Iceberg's row lineage `_row_id` stores null for the
 * ids rows inherit from the file's first_row_id, Delta's materialized row tracking column those from baseRowId: read
 * as the file's, such an id was `absent`), a dropped column's old name — so it is COLUMN_NOT_FOUND, as a file's probe
 * of a column the file lacks.
 * @param {LoadedTable} table
 * @param {string | string[]} column
 * @param {unknown} columns the probe's point lookups
 */
function checkColumns(table, column, columns) {
  const name = Array.isArray(column) ? column.join('.') : String(column)
  const nested = (/** @type {TableField} */ f) => f.type.kind === 'other' && ['list', 'map', 'array'].includes(String(f.type.name))
  // Under a list or map: a path below its segments (as fieldNamed matches), a string below its dotted name.
  const under = (/** @type {TableField} */ f) => Array.isArray(column) && f.namePath
    ? column.length > f.namePath.length && f.namePath.every((s, i) => s === column[i]) : name.startsWith(`${f.name}.`)
  const lists = fieldNamed(table, column) ? [] : table.fields.filter((f) => nested(f) && under(f))
  if (!fieldNamed(table, column) && !lists.length) throw notAColumn(table, name)
  // A string under two lists of one dotted name ("a.b" beside a struct a's list b) is either's, as fieldNamed refuses
  // (nestedColumnIn read the first: 9, in a.b's list, was absent from "a.b"'s).
  const shared = lists.find((f, i) => lists.some((g, j) => j !== i && g.name === f.name))
  if (shared) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `${JSON.stringify(name)} is under 2 columns named ` +
      `${JSON.stringify(shared.name)} (a name with a dot beside a nested field), which a probe cannot tell apart`, { field: name })
  }
  if (!Array.isArray(columns)) return // anything else is refused by the file's probe, as given
  for (const c of columns) if (typeof c === 'string' && !table.fields.some((f) => f.topLevel && f.name === c)) throw notAColumn(table, c)
}

/**
 * @param {LoadedTable} table
 * @param {string} name
 */
function notAColumn(table, name) {
  const why = table.fileColumns?.notAColumn(name)
  const top = table.fields.filter((f) => f.topLevel).map((f) => f.name)
  return new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${JSON.stringify(name)} is no column of the table` +
    (why ? `: ${why}` : `; its columns: ${top.slice(0, 20).join(', ')}${top.length > 20 ? `, … (${top.length})` : ''}`), { field: name })
}

/**
 * The Parquet column of a table field in one file: Iceberg's by field id, name mapping or a name that always meant
 * the field (js/table/iceberg-columns.js); Delta's by the field's mapping id (column mapping `id`), else its physical path.
 * @param {LoadedTable} table
 * @param {TableField} field
 * @param {ParquetFile} parquetFile
 * @returns {string | string[]}
 */
function columnInFile(table, field, parquetFile) {
  if (table.format === 'iceberg' && table.fileColumns) {
    const found = table.fileColumns.columnOf(parquetFile.layout.columns, field)
    if ('path' in found) return found.path
    throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${parquetFile.name}: ${found.missing}`,
      { source: parquetFile.name, field: field.name })
  }
  // A partition column's values are the add's partitionValues (pruned by them; `unknown` where they are not read here), not
  // the file's column of that name: read, a file from before the column was a partition column answered `present` for
  // values Spark and delta-kernel-rs read as null in it.
  if (isDeltaPartitionColumn(table.metaData, field)) {
    throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${parquetFile.name}: ${field.name} is a partition column, whose ` +
      'values are the log\'s partitionValues, not the data file\'s', { source: parquetFile.name, field: field.name })
  }
  const path = deltaColumnIn(field, table.columnMapping, idColumns(parquetFile.layout))
  if (path) return path
  throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND,
    `${parquetFile.name}: no column with field id ${String(field.mappingId)} (${field.name}), which column mapping \`id\` ` +
    'reads by: the file was written before the column existed, or without field ids', { source: parquetFile.name, field: field.name })
}

/**
 * The file's path of a table field (of a leaf column under it: a struct's fields are found by theirs), found as
 * columnInFile finds it, or null when the file has none of it.
 * @param {LoadedTable} table
 * @param {ParquetFile} parquetFile
 * @param {TableField} field
 * @returns {string[] | null}
 */
function pathIn(table, parquetFile, field) {
  const columns = parquetFile.layout.columns
  // A list's or map's leaves carry the ids of its element, key and value fields, not its own (Iceberg).
  const nested = field.nestedIds
  const leaf = nested && columns.find((c) => c.fieldId !== undefined && nested.includes(c.fieldId))
  if (leaf) return leaf.path
  try {
    const found = columnInFile(table, field, parquetFile)
    const path = Array.isArray(found) ? found : found.split('.')
    // A Delta field's physical name is given whether or not this file has the column (added since).
    return columns.some((c) => path.every((segment, i) => c.path[i] === segment)) ? path : null
  } catch (error) {
    if (/** @type {{ code?: unknown }} */ (error)?.code !== ErrorCode.COLUMN_NOT_FOUND) throw error
    return null
  }
}

/**
 * Why an Iceberg file may hold a field in a column not read as it (no field ids and no usable name mapping: Iceberg Java
 * reads such a file's columns by position, the spec reads nulls), or null. A point lookup gives no value then, not a null.
 * @param {LoadedTable} table
 * @param {ParquetFile} parquetFile
 * @param {TableField} field
 * @returns {string | null}
 */
function unreadIn(table, parquetFile, field) {
  if (table.format !== 'iceberg' || !table.fileColumns) return null
  const found = table.fileColumns.columnOf(parquetFile.layout.columns, field)
  return 'unread' in found && found.unread ? found.missing : null
}

/**
 * The file's column of a name under a list or map field of the table (`tags.list.element`, the file's levels below the
 * field): the field's column found as columnInFile finds it (by field id, Delta physical name), and the levels the name
 * gives below it. By the name as given, an old file's column of that name was read as the table's: after a rename it is
 * another field's (a Delta column renamed from tags, a new tags added since: 5, in the old field's list, was present).
 * Below a list or map with structs under it, the file's names of the fields are not the table's (renames, physical names),
 * so such a name is no column here, unless the table has no renames (Delta column mapping `none`). Undefined: no such name.
 * @param {LoadedTable} table
 * @param {ParquetFile} parquetFile
 * @param {string | string[]} column
 * @returns {string[] | undefined}
 */
function nestedColumnIn(table, parquetFile, column) {
  const segments = Array.isArray(column) ? column : String(column).split('.')
  const nested = (/** @type {TableField} */ f) => f.type.kind === 'other' && ['list', 'map', 'array'].includes(String(f.type.name))
  // The field's first k segments, as fieldNamed matches: a path by the field's name segments (a list named "a.b" is one),
  // a string by its dotted name. Its depth in the file is its segments' count, not its name's dots (an "a.b" list's
  // element path had a segment too many: the file had no such column, unknown where the list held the value).
  const fieldsAt = (/** @type {number} */ k) => table.fields.filter((f) => nested(f) && (Array.isArray(column) && f.namePath
    ? f.namePath.length === k && f.namePath.every((s, i) => s === column[i]) : f.name === segments.slice(0, k).join('.')))
  let k = segments.length - 1
  while (k > 0 && !fieldsAt(k).length) k--
  if (k === 0 || (table.format === 'delta' && table.columnMapping === 'none')) return undefined
  const [field] = fieldsAt(k) // one: a string two lists share is refused (checkColumns)
  const missing = (/** @type {string} */ why) => new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND,
    `${parquetFile.name}: ${JSON.stringify(segments.join('.'))}: ${why}`, { source: parquetFile.name, field: field.name })
  if (!field.structFree) {
    throw missing(`the file's names of fields under the list or map ${field.name} are not the table's (renames, column mapping): ` +
      'only the elements, keys or values of lists and maps without structs are probed by name')
  }
  const leaf = pathIn(table, parquetFile, field)
  const depth = field.namePath?.length ?? field.name.split('.').length
  if (!leaf || leaf.length < depth) throw missing(`the file has no column of ${field.name}`)
  const path = [...leaf.slice(0, depth), ...segments.slice(k)]
  const found = parquetFile.layout.columns.find((c) => c.path.length === path.length && c.path.every((p, i) => p === path[i]))
  if (found?.fieldId !== undefined && table.format === 'iceberg' && !field.nestedIds?.includes(found.fieldId)) {
    throw missing(`its field id ${found.fieldId} is not one under ${field.name}`)
  }
  return path
}

/**
 * The top-level name in one file of a probe's `columns` entry, a column of the table (checkColumns): that of the table's
 * column of that name (its field, or its nested fields), null when the file has none of it.
 * @param {LoadedTable} table
 * @param {ParquetFile} parquetFile
 * @param {string} name
 * @returns {string | null}
 */
function lookupColumnIn(table, parquetFile, name) {
  // By Delta's segments: a column "a.b" is not a struct a's (its values were read as a's: { a: 20 } for { a: { c: 10 } }).
  const own = (/** @type {TableField} */ f) => f.namePath ? f.namePath[0] === name : f.name === name || f.name.startsWith(`${name}.`)
  for (const field of table.fields.filter(own)) {
    const path = pathIn(table, parquetFile, field)
    if (path) return path[0]
  }
  return null
}

/**
 * How a file's row values of a point lookup column become the table's: a column the file lacks holds one value in every
 * row (js/table/missing-columns.js), a struct's fields are named as the table names them (js/table/struct-values.js); or why
 * they are not known here. Null: as the file gives them.
 * @typedef {{ value: unknown } | { shape: import('./struct-values.js').StructShape[] } | { unknown: string }
 *   | { nested: { field: TableField, layout: import('../footer/footer.js').FileLayout, fileName: string } }
 *   | { reshape: (value: unknown) => unknown }} LookupPlan
 *   nested: a list or map with structs under it, whose reshape js/table/nested-values.js makes from the file's schema
 * @param {LoadedTable} table
 * @param {TableFile | undefined} file the table's file
 * @param {ParquetFile} parquetFile
 * @param {string} name a top-level column of the table
 * @param {string | null} fileName its name in the file (lookupColumnIn)
 * @returns {LookupPlan | null}
 */
function lookupPlan(table, file, parquetFile, name, fileName) {
  const field = /** @type {TableField} */ (table.fields.find((f) => f.topLevel && f.name === name))
  if (fileName !== null && field.nestedType) return { nested: { field, layout: parquetFile.layout, fileName } }
  if (fileName !== null) {
    return structShape(table, file, field, (f) => pathIn(table, parquetFile, f), (f) => unreadIn(table, parquetFile, f))
  }
  const unread = unreadIn(table, parquetFile, field)
  if (unread) return { unknown: `its column ${name} is not read here: ${unread}` }
  const missing = missingColumnValue(table, file, field)
  return 'value' in missing ? missing : { unknown: `the file has no column ${name}, and ${missing.unknown}` }
}

/** @param {TableFile} f */
const descriptorOf = (f) => ({ path: f.path, location: f.location, size: f.size, partitions: f.partitionValues })

export class ParquetTable extends ParquetDataset {
  #table
  /** The table files the dataset knows, by path (an Iceberg table's grow as probes read manifests). */
  #byPath
  /** openTable's own `where`, which a probe's replaces (as the dataset's options are merged). */
  #where

  /** The sidecar this table opened and closes (a table index, or an index of files opened for it). */
  #ownedIndex

  /** @type {IoLedger | undefined} openTable's reads, with `plan: true`: the first probe that asks for a plan carries them in it. */
  #openLedger

  /** @type {WeakMap<ParquetFile, string>} each opened file's path, as columnOf saw it */
  #pathOf

  /**
   * @param {LoadedTable} table
   * @param {Record<string, any>} options openDataset's (what openTable was given, less the table's own)
   * @param {{ close(): Promise<void>, stats?: object } | null} [ownedIndex] an opened sidecar the table closes
   * @param {IoLedger} [openLedger] openTable's reads, with `plan: true`
   */
  constructor(table, options, ownedIndex = null, openLedger = undefined) {
    const byPath = new Map(table.files.map((f) => [f.path, f]))
    const keysFor = new WeakMap()
    /** @type {WeakMap<ParquetFile, string>} each opened file's path, as columnOf saw it */
    const pathOf = new WeakMap()
    const fieldOf = (/** @type {string | string[]} */ column) => fieldNamed(table, column)
    /** The column's path in the file: the field's, else the name as given, but not a dropped column's old name. */
    const fileColumnOf = (/** @type {ParquetFile} */ parquetFile, /** @type {string | string[]} */ column) => {
      const field = fieldOf(column)
      if (field) return columnInFile(table, field, parquetFile)
      const dropped = table.fileColumns?.notAColumn(Array.isArray(column) ? column.join('.') : String(column))
      if (dropped) {
        throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${parquetFile.name}: ${dropped}`, { source: parquetFile.name })
      }
      return nestedColumnIn(table, parquetFile, column) ?? column
    }
    super(table.files.map(descriptorOf), {
      ...options,
      hivePartitioning: false,
      // The table's pruning and the caller's own prefilter, merged as a probe's is with the dataset's.
      prefilter: bothPrefilters(async (/** @type {{ path: string }} */ file, /** @type {string} */ column,
        /** @type {unknown[]} */ values) => {
        const field = fieldOf(column)
        const tableFile = byPath.get(file.path)
        if (!field || !tableFile) return null
        let keyed = keysFor.get(values)
        if (!keyed) keysFor.set(values, (keyed = valueKeys(field.type, values)))
        return pruneFile(tableFile, field, keyed)
      }, options.prefilter),
      columnOf: (/** @type {{ path: string }} */ file, /** @type {ParquetFile} */ parquetFile, /** @type {string | string[]} */ column) => {
        pathOf.set(parquetFile, file.path)
        // Column mapping `id` finds a list or map by its group's field id, which the footer's leaves do not carry.
        if (table.columnMapping === 'id') return readIdColumns(parquetFile.layout).then(() => fileColumnOf(parquetFile, column))
        return fileColumnOf(parquetFile, column)
      },
      // Its sidecar (js/table/table-index.js) answers for the table's column, however each file names it.
      [INDEX_ANSWERS_BY_COLUMN]: true,
      [DECIDE_IN_FILE]: (/** @type {ParquetFile} */ parquetFile, /** @type {string | string[]} */ column,
        /** @type {string | string[]} */ fileColumn, /** @type {unknown[]} */ values) => {
        const field = fieldOf(column)
        return field ? notInNarrowerFile(field, parquetFile.column(fileColumn), values) : null
      },
    })
    this.#pathOf = pathOf
    this.#table = table
    this.#byPath = byPath
    this.#where = options.where
    this.#ownedIndex = ownedIndex ?? (typeof options.index?.record === 'object' ? options.index : null)
    this.#openLedger = openLedger
  }

  /** Releases the sidecar index the table opened. */
  async close() {
    await super.close()
    await this.#ownedIndex?.close()
  }

  /** What the table is: format, snapshot or version, the writer, its live files (read so far) and their deletes. */
  get table() {
    const t = this.#table
    return {
      format: t.format,
      ...(t.format === 'iceberg' ? { snapshot: t.snapshot ? String(t.snapshot['snapshot-id']) : null, formatVersion: t.formatVersion,
        metadataLocation: t.metadataLocation,
        manifests: t.scan?.counts ?? { total: 0, read: 0 } } : { version: t.version }),
      // With a table index: whether the table was at its snapshot, and what was read since.
      ...(t.scan?.indexed ?? t.indexed ? { index: { ...(t.scan?.indexed ?? t.indexed), reads: { ...this.#ownedIndex?.stats } } } : {}),
      writer: t.writer,
      columns: t.fields.map((f) => ({ name: f.name, type: f.type })),
      files: t.files.map((f) => ({ path: f.path, location: f.location, size: f.size, deletes: f.deletes.map((d) => d.kind) })),
      metadataStats: { ...t.io.stats },
    }
  }

  /**
   * Every live file of the table: an Iceberg table's manifests not read yet are read (one wave), so
   * `files` and `table.files` list them all afterwards. A Delta table's are known when it is opened.
   */
  async listFiles() {
    if (this.#table.scan) {
      await this.#table.scan.readAll()
      this.#know(this.#table.files)
    }
    return this.files
  }

  /**
   * A probe's LOOKUP_COLUMNS_IN: each file's names of the point lookup columns — one the file lacks is null in its rows
   * (js/dataset/probe-run.js), a struct's fields are under the file's names — and, in the probe's own `plans`, how
   * #asTableRows makes them the table's. Per probe: kept by the table, they grew with every file a probe ever looked
   * up rows in (a list's plan holds the file's footer layout), and no later probe reads them.
   * @param {Map<string, Map<string, LookupPlan>>} plans by file path
   */
  #lookupColumnsIn(plans) {
    const table = this.#table
    return (/** @type {ParquetFile} */ parquetFile, /** @type {string[]} */ columns) => {
      const named = columns.map((name) => lookupColumnIn(table, parquetFile, name))
      const path = this.#pathOf.get(parquetFile)
      if (path === undefined) return named
      /** @type {Map<string, LookupPlan>} */
      const planned = new Map()
      named.forEach((fileName, k) => {
        const plan = lookupPlan(table, this.#byPath.get(path), parquetFile, columns[k], fileName)
        if (plan) planned.set(columns[k], plan)
      })
      if (planned.size) plans.set(path, planned)
      return named
    }
  }

  /**
   * Files the dataset does not know yet join it (an Iceberg manifest just read).
   * @param {TableFile[]} files
   */
  #know(files) {
    const fresh = files.filter((f) => !this.#byPath.has(f.path))
    // A file a table index's record described (no bounds) gives way to its manifest entry, once read.
    for (const f of files) if (this.#byPath.get(f.path)?.fromIndex && !f.fromIndex) this.#byPath.set(f.path, f)
    for (const f of fresh) this.#byPath.set(f.path, f)
    if (fresh.length) this[ADD_FILES](fresh.map(descriptorOf))
  }

  /**
   * An Iceberg probe's files: those of the manifests its values and `where` may match, read now if
   * they were not (one wave); with what the manifest reads cost. Null for a table whose files are all known.
   * @param {string | string[]} column
   * @param {unknown[]} values
   * @param {Record<string, unknown> | undefined} where
   */
  async #plan(column, values, where) {
    const scan = this.#table.scan
    if (!scan) return null
    const names = new Set([...(this.#table.specs?.values() ?? [])].flat().map((pf) => pf.name))
    for (const key of Object.keys(where ?? {})) {
      if (!names.has(key)) {
        throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
          `where: ${JSON.stringify(key)} is not a partition key of the table (keys: ${[...names].join(', ') || 'none'})`)
      }
    }
    const field = fieldNamed(this.#table, column) ?? null
    let keyed = null
    try {
      keyed = field ? valueKeys(field.type, Array.from(values)) : null
    } catch {
      keyed = null // a value the file probe refuses: it says why; every manifest is kept
    }
    const plan = await scan.filesFor(field, keyed, where)
    this.#know(plan.files)
    return { paths: new Set(plan.files.map((f) => f.path)), manifests: plan.manifests }
  }

  /**
   * The probe's options for the dataset: only the planned files, and `where` by the keys the dataset knows.
   * @param {import('../index.js').DatasetProbeOptions} options
   * @param {{ paths: Set<string> } | null} plan
   */
  #datasetOptions(options, plan) {
    const given = options.where ?? this.#where
    if (!plan && this.#table.format === 'delta' && given && typeof given === 'object') {
      // A Delta partition column no file's partitionValues here names (each logged under its logical name alone, the value
      // or null by whom reads it: delta.js partitionRaw) rules no file out; a key no partition column's is still refused.
      return { ...options, where: Object.fromEntries(Object.entries(given).filter(([key]) => key in this.partitionTypes ||
        !isDeltaPartitionColumn(this.#table.metaData, { name: key }))) }
    }
    if (!plan) return options
    const where = given && Object.fromEntries(Object.entries(given).filter(([key]) => key in this.partitionTypes))
    return { ...options, ...(where ? { where } : {}), [PROBE_ONLY]: plan.paths }
  }

  /**
   * Per column, what the metadata can prune (files with bounds, null and NaN counts, partition fields); snapshots or
   * version. Reads every manifest.
   */
  async summary() {
    await this.listFiles()
    return summarizeTable(this.#table)
  }

  /**
   * The dataset's probe of the files the table's metadata may not rule out, with each file's deletes
   * applied to the rows a confirmation found. An Iceberg table's result also says how many manifests
   * the probe read and skipped (`manifests`); files of a skipped manifest are not listed: its partition
   * summaries rule out every value for all of them.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions} [options]
   */
  async probe(column, values, options = {}) {
    checkColumns(this.#table, column, options.columns)
    const list = Array.from(values)
    const started = performance.now()
    // One ledger for the probe: the manifests it reads, then the files (opened after them), then deletes;
    // the first probe asking for a plan of a table opened with one goes on from the opening's reads.
    const opening = options.plan === true ? this.#openLedger : undefined
    if (opening) this.#openLedger = undefined
    const ledger = opening ?? new IoLedger({ record: options.plan === true })
    const before = { ...ledger.stats }
    const io = this.#table.io
    io.useLedger(ledger)
    try {
      const plan = await this.#plan(column, list, options.where ?? this.#where)
      ledger.closePhase()
      /** @type {Map<string, Map<string, LookupPlan>>} */
      const plans = new Map()
      const datasetOptions = { ...this.#datasetOptions(options, plan), [IO_LEDGER]: ledger,
        [LOOKUP_COLUMNS_IN]: this.#lookupColumnsIn(plans) }
      /** @type {import('../index.js').DatasetProbeResult} */
      const result = await super.probe(column, list, datasetOptions)
      for (const f of result.files) await this.#asTableRows(f, options.columns, plans)
      await Promise.all(result.files.map((f) => this.#withDeletes(f, column)))
      // Its stats are the ledger's (the manifests' requests and rounds included), the time the table's.
      const own = ioStatsSince(ledger.stats, before)
      Object.assign(result.stats, { ...own, bytes: own.bytesFetched, ms: performance.now() - started })
      // The ledger's plan is the published ReadPlan (its purposes are ReadPurpose's).
      if (options.plan === true) result.plan = /** @type {import('../index.js').ReadPlan} */ (ledger.plan())
      if (!plan) return result
      // In the table's order (manifest by manifest), whichever manifests earlier probes read first.
      const rank = new Map(this.#table.files.map((f, i) => [f.path, i]))
      // Every file probed is one of the table's.
      result.files.sort((a, b) => /** @type {number} */ (rank.get(a.path)) - /** @type {number} */ (rank.get(b.path)))
      return { ...result, manifests: plan.manifests }
    } finally {
      io.useLedger(undefined)
    }
  }

  /**
   * The dataset's probeEach of the files the table's metadata may not rule out, each file with its deletes applied.
   * @param {string | string[]} column
   * @param {Iterable<unknown>} values
   * @param {import('../index.js').DatasetProbeOptions} [options]
   */
  async * probeEach(column, values, options = {}) {
    checkColumns(this.#table, column, options.columns)
    const list = Array.from(values)
    const plan = await this.#plan(column, list, options.where ?? this.#where)
    /** @type {Map<string, Map<string, LookupPlan>>} the files' in flight, each dropped once its answer is out */
    const plans = new Map()
    const datasetOptions = { ...this.#datasetOptions(options, plan), [LOOKUP_COLUMNS_IN]: this.#lookupColumnsIn(plans) }
    for await (const file of super.probeEach(column, list, datasetOptions)) {
      await this.#asTableRows(file, options.columns, plans)
      await this.#withDeletes(file, column)
      yield file
    }
  }

  /**
   * The dataset's inspect, of every live file (an Iceberg table's manifests are all read first).
   * @param {Parameters<ParquetDataset['inspect']>[0]} [options]
   */
  async inspect(options = {}) {
    await this.listFiles()
    return super.inspect(options)
  }

  /**
   * The rows' values of the point lookup columns as the table holds them (lookupPlan): a column the file lacks given its
   * value for the null it was read as, a struct's fields renamed (under a list or map too); a value not known here leaves
   * the rows without values, and says why in their detail.
   * @param {import('../index.js').DatasetFileResult} fileResult
   * @param {unknown} columns the probe's `columns`
   * @param {Map<string, Map<string, LookupPlan>>} filePlans the probe's (#lookupColumnsIn), the file's taken out of them
   */
  async #asTableRows(fileResult, columns, filePlans) {
    const planned = filePlans.get(fileResult.path)
    filePlans.delete(fileResult.path)
    if (!planned || !Array.isArray(columns)) return
    const plans = columns.flatMap((name) => (planned.has(name) ? [{ name, plan: /** @type {LookupPlan} */ (planned.get(name)) }] : []))
    const results = [...fileResult.rowGroups.flatMap((g) => g.results), ...fileResult.values]
    if (!plans.length || !results.some((r) => /** @type {any} */ (r).values)) return
    for (const p of plans) {
      if (!('nested' in p.plan)) continue
      const { field, layout, fileName } = p.plan.nested
      p.plan = await nestedShape(this.#table, layout, field, fileName)
    }
    const unknown = plans.find((p) => 'unknown' in p.plan)
    /** A row object is shared by its row group's result and the file's answer: each is made the table's once. */
    const done = new Set()
    /** @param {{ values?: Array<Record<string, unknown> | undefined>, detail?: string | null }} r */
    const asTable = (r) => {
      if (!r.values) return
      if (unknown && 'unknown' in unknown.plan) {
        delete r.values
        r.detail = `${r.detail ? `${r.detail}; ` : ''}no row values: ${unknown.plan.unknown}`
        return
      }
      for (const row of r.values) {
        if (!row || done.has(row)) continue
        done.add(row)
        for (const { name, plan } of plans) {
          if ('value' in plan) row[name] = plan.value
          else if ('shape' in plan) row[name] = reshapeStruct(row[name], plan.shape)
          else if ('reshape' in plan) row[name] = plan.reshape(row[name])
        }
      }
    }
    for (const r of results) asTable(/** @type {any} */ (r))
  }

  /**
   * Applies the file's deletes to the values a confirmation found present.
   * @param {import('../index.js').DatasetFileResult} fileResult
   * @param {string | string[]} column
   */
  async #withDeletes(fileResult, column) {
    const file = this.#byPath.get(fileResult.path)
    if (!file?.deletes.length || !fileResult.values.some((v) => v.verdict === 'present')) return
    fileResult.values = await applyDeletes(this.#table, file, fileResult.values, fieldNamed(this.#table, column), fileResult.rowGroups)
  }
}

/**
 * Opens an Iceberg or Delta table for probing: reads its metadata (one wave per level; an Iceberg
 * table's manifests wait for the probes that need them) and returns a dataset of its live data files.
 * @param {string | URL} location the table's root: a local folder, a file: URL or an http(s) URL
 * @param {import('../index.js').OpenTableOptions} [options] format ('iceberg' | 'delta' | 'auto'), snapshot (Iceberg),
 *   version (Delta), metadata (an Iceberg metadata.json, relative to the root), rebase(path), allowOutside, and
 *   every openDataset / openParquet option
 */
export async function openTable(location, options = {}) {
  // A sidecar index is opened beside the table's pointer: a table index's snapshot record decides what of the metadata is read.
  const indexing = options.index !== undefined && options.index !== null
    ? import('./table-index.js').then((m) => m.openTableIndex(options.index, indexReading(options)))
    : null
  indexing?.catch(() => {})
  // With `plan`, the opening's reads (pointer, metadata, manifest list, log) are recorded for the first plan.
  const openLedger = options.plan === true ? new IoLedger({ record: true }) : undefined
  let table
  try {
    table = await loadTable(location, { ...options, lazy: true, ...(openLedger ? { ioLedger: openLedger } : {}),
      ...(indexing ? { tableIndex: indexing.then((opened) => opened.record), tableIndexAt: indexing.then((opened) => opened.at) } : {}) })
  } catch (error) {
    const opened = await indexing?.catch(() => null)
    if (opened?.owned) await opened.sidecar.close()
    throw error
  }
  openLedger?.closePhase()
  const rest = Object.fromEntries(Object.entries(options).filter(([k]) => !TABLE_OPTIONS.includes(k) && k !== 'plan'))
  if (!indexing) return new ParquetTable(table, rest, null, openLedger)
  const opened = await indexing
  let record
  try {
    record = await opened.record
  } catch (error) {
    if (opened.owned) await opened.sidecar.close()
    throw error
  }
  const { FilesSidecar, TableSidecar } = await import('./table-index.js')
  // An index without a record (built from files) is asked as openDataset asks one: by stat or HEAD of each file, by the
  // name the files give the column.
  const index = record ? new TableSidecar(opened.sidecar, record, table, opened.owned) : new FilesSidecar(opened.sidecar, table)
  return new ParquetTable(table, { ...rest, index }, record || !opened.owned ? null : opened.sidecar, openLedger)
}

/**
 * The reading options openSidecarIndex takes, from openTable's.
 * @param {import('../index.js').OpenTableOptions} options
 */
function indexReading(options) {
  const { fetch, headers, signal, requestTimeoutMs, userAgent, retries } = options
  return Object.fromEntries(Object.entries({ fetch, headers, signal, requestTimeoutMs, userAgent, retries })
    .filter(([, v]) => v !== undefined))
}
