// One probe of a dataset's files (js/dataset/dataset.js): each file's values decided without a read where its
// Hive partitions, `where`, the limit, the caller's prefilter or the sidecar index decide them, the file opened
// and probed (js/parquet-file.js) for the rest, and its row groups' answers rolled up with those. The file's
// work is chained rather than awaited: thousands of files in flight hold no async frame each.
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { show } from '../values/input.js'
import { Source, valueResult } from '../verdicts.js'
import { PROBE_NOW } from '../parquet-file.js'
import { asIoStats, ioStats } from '../sources/io-ledger.js'
import { comparableWith, ownPartitions, partitionMayEqual, partitionReadings } from './hive.js'
import { rollUpValue } from './roll-up.js'

/**
 * @typedef {import('./dataset.js').DatasetFile} DatasetFile
 * @typedef {import('./dataset.js').FileResult} FileResult
 * @typedef {import('./dataset.js').Prefilter} Prefilter
 * @typedef {Parameters<Prefilter>[0]} FileView the file as a prefilter and columnOf see it
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {Awaited<ReturnType<import('./dataset-index.js').DatasetIndex['answers']>>
 *   & { opened: import('./dataset-index.js').DatasetIndex }} IndexAnswers the sidecar's answers for the probe's files
 */

export class ProbeRun {
  /** rows found by confirm so far, in every file: the limit's count */
  rowsFound = 0

  /**
   * @param {{ list: unknown[], column: string | string[], columnName: string, settings: Record<string | symbol, any>,
   *   where: ((file: DatasetFile) => boolean) | null, limit: number | undefined,
   *   session: import('./session.js').FileSession, probeOptions: Record<string | symbol, any>,
   *   fromIndex: import('./index-batches.js').IndexBatches<IndexAnswers> | undefined, fileView: (file: DatasetFile) => FileView,
   *   decideInFile: import('./dataset.js').DecideInFile | undefined,
   *   lookupColumnsIn?: import('./dataset.js').LookupColumnsIn | undefined, indexAnswersByColumn?: boolean,
   *   partitionTypes?: Record<string, string>,
   *   budget?: import('../plan/result-budget.js').ResultBudget | import('../plan/result-budget.js').FileRoom }} probe
   *   the values, the column, the probe's settings, the files' session, what every file's probe is given, the
   *   sidecar's answers (when the dataset has one), the file as a prefilter and columnOf see it, a table's
   *   answers for values a file's own column type cannot hold (DECIDE_IN_FILE), and a table's names of `columns`
   *   in a file (LOOKUP_COLUMNS_IN), whether its sidecar answers for its column however files name it
   *   (INDEX_ANSWERS_BY_COLUMN), the partition keys' types, and the room for answers (maxResults: probe()'s, or each file's)
   */
  constructor({ list, column, columnName, settings, where, limit, session, probeOptions, fromIndex, fileView, decideInFile,
    lookupColumnsIn, indexAnswersByColumn = false, partitionTypes = {}, budget }) {
    this.list = list
    this.partitionTypes = partitionTypes
    this.column = column
    this.columnName = columnName
    this.settings = settings
    this.where = where
    this.limit = limit
    this.session = session
    this.probeOptions = probeOptions
    this.fromIndex = fromIndex
    this.fileView = fileView
    this.decideInFile = decideInFile
    this.lookupColumnsIn = lookupColumnsIn
    this.indexAnswersByColumn = indexAnswersByColumn
    this.budget = budget
  }

  /**
   * What every file's answer starts with. Its `order` is added last of all (ordered()), so that deleting it
   * once the files are sorted leaves each kept answer a fast object, not a dictionary.
   * @param {DatasetFile} file @param {unknown} status the sidecar's word on the file, if any
   * @returns {FileResult}
   */
  #baseOf(file, status) {
    /** @type {FileResult} */
    const base = { path: file.path, partitions: ownPartitions(file.partitions), rowGroups: [], error: null, stats: ioStats() }
    if (status) base.index = status
    return base
  }

  /**
   * One file's answer: decided without a read where its partitions, `where` or the limit decide, else probed.
   * @param {DatasetFile} file
   * @param {number} order its place in the dataset
   * @param {{ floor: number }} chain
   * @returns {Promise<FileResult>}
   */
  probeOne(file, order, chain) {
    const { list, where, limit } = this
    if (where && !where(file)) {
      return Promise.resolve(ordered({ ...this.#baseOf(file, undefined), skipped: 'where',
        values: list.map((v) => valueResult(v, 'absent', Source.PARTITION, 'outside-where',
          'the file\'s partitions fall outside `where`: none of its rows are asked about')) }, order))
    }
    if (limit !== undefined && this.rowsFound >= limit) {
      const detail = `not probed: ${limit} rows were found in other files`
      return Promise.resolve(ordered({ ...this.#baseOf(file, undefined), skipped: 'limit',
        values: list.map((v) => valueResult(v, 'unknown', null, 'limit-reached', detail)) }, order))
    }
    let partitioned
    try {
      partitioned = decidedByPartition(file, this.columnName, list, this.partitionTypes)
    } catch (error) {
      return Promise.resolve(this.#failed(file, order, error, list.map(() => null), undefined))
    }
    // Awaited only when there is something to wait for: a file in flight holds every frame it awaits in.
    if ((!partitioned && this.settings.prefilter) || this.fromIndex) return this.#decideThenProbe(file, order, partitioned, chain)
    return this.#probeFile(file, order, partitioned ?? list.map(() => null), undefined, chain)
  }

  /**
   * A file's values decided first by the prefilter and the sidecar, then the file probed for the rest.
   * @param {DatasetFile} file @param {number} order
   * @param {Array<ValueResult | null> | null} partitioned what the file's partition folders decided
   * @param {{ floor: number }} chain
   */
  async #decideThenProbe(file, order, partitioned, chain) {
    const { list, settings, fromIndex } = this
    const { prefilter } = settings
    const decided = partitioned ??
      (prefilter ? await decidedByPrefilter(this.fileView(file), file.path, this.columnName, list, prefilter) : list.map(() => null))
    const { opened: sidecar, indexed, status, counted = 0 } = fromIndex ? await fromIndex.for(file) : {}
    /** @type {boolean[]} the values the sidecar decided (of the file as the listing describes it) */
    const byIndex = []
    // A value the sidecar rules out in every row group needs no read of this file — unless a caller's columnOf may name
    // the column otherwise in it: the index answered for the file's column of the name asked, perhaps another one.
    if (indexed && this.#indexHolds(undefined)) {
      list.forEach((v, k) => {
        if (decided[k] || !indexed.rowGroups.length || !indexed.rowGroups.every((g) => g.results[k].verdict === 'absent')) return
        decided[k] = rollUpValue(indexed.rowGroups, k, v)
        byIndex[k] = true
      })
    }
    // Whether the sidecar described the file (and if not, why): a file it does not describe is probed without it.
    return this.#probeFile(file, order, decided, indexed ? { indexed, sidecar, byIndex } : undefined, chain, status, counted)
  }

  /**
   * Whether the sidecar's answers for a file are about the column the file is probed in (`fileColumn`, what columnOf
   * named; undefined: before the file is opened). An index of files answers for the file's column of the name asked: a
   * caller's columnOf naming another (a swap rename: x is the file's y) would have it rule out values by the wrong column.
   * A table's sidecar answers for the table's column however files name it (INDEX_ANSWERS_BY_COLUMN).
   * @param {string | string[] | undefined} fileColumn
   */
  #indexHolds(fileColumn) {
    if (!this.settings.columnOf || this.indexAnswersByColumn) return true
    return fileColumn !== undefined && (Array.isArray(fileColumn) ? fileColumn.join('.') : String(fileColumn)) === this.columnName
  }

  /**
   * Probes the file for the values not decided without it.
   * @param {DatasetFile} file @param {number} order @param {Array<ValueResult | null>} decided per value, or null
   * @param {{ indexed: any, sidecar: any, byIndex: boolean[] } | undefined} fromSidecar the sidecar's answers for the file, to
   *   sharpen, and the values it decided
   * @param {{ floor: number }} chain
   * @param {unknown} [status] the sidecar's word on the file
   * @param {number} [counted] the row groups the sidecar described of it, whose room probe()'s budget took then
   * @returns {Promise<FileResult>}
   */
  #probeFile(file, order, decided, fromSidecar, chain, status = undefined, counted = 0) {
    const { list } = this
    let count = 0
    for (let k = 0; k < list.length; k++) if (!decided[k]) count++
    /** @type {number[]} the values still open, by position (the room they need, where push would leave seventeen) */
    const open = new Array(count)
    for (let k = 0, j = 0; k < list.length; k++) if (!decided[k]) open[j++] = k
    if (open.length === 0) return Promise.resolve(ordered({ ...this.#baseOf(file, status), values: decided }, order))
    // The file's read chained rather than awaited, its state one record (the session hands it the file or the failure):
    // thousands of files in flight hold no async frame, closure or context each.
    return this.session.withFile(file.descriptor, new FileProbe(this, file, order, decided, fromSidecar, status, open, counted), chain)
  }

  /**
   * A file opened for `probe`: its answer, at once when its statistics answer, else its promise.
   * @param {FileProbe} probe @param {import('../parquet-file.js').ParquetFile} opened
   * @returns {FileResult | Promise<FileResult>}
   */
  probeOpened(probe, opened) {
    const { list, settings, column } = this
    const { file, order, decided, open } = probe
    probe.parquet = opened
    // Room for the file's row groups' answers before any index of it is read: TOO_LARGE fails probe() (probeFailed), or
    // this file alone in probeEach (FileRoom).
    // (Less those its sidecar index described, whose room was taken then: a file's answers replace its index's.)
    this.budget?.add(opened.metadata.rowGroups.length, probe.counted)
    // A footer of other row groups than the sidecar's entry (a same-size replacement no validator told apart): what the
    // sidecar decided is of another file's row groups. The file is asked those values too, and its answers are its own.
    const side = probe.fromSidecar
    const differs = side?.sidecar?.differs?.(opened.metadata.rowGroups, side.indexed.rowGroups)
    if (side && differs) {
      probe.status = differs
      open.length = 0
      for (let k = 0; k < list.length; k++) {
        if (side.byIndex[k]) decided[k] = null
        if (!decided[k]) open.push(k)
      }
      probe.fromSidecar = undefined
    }
    const { fromSidecar, status } = probe
    /** A file without the column answers 'column-missing' for what is still open; any other failure is its error. */
    const columnMissing = (/** @type {unknown} */ error) => {
      if (/** @type {{ code?: unknown } | null | undefined} */ (error)?.code !== ErrorCode.COLUMN_NOT_FOUND) throw error
      const detail = /** @type {ParquetBloomError} */ (error).message // names the file's columns
      return ordered({ ...this.#baseOf(file, status), stats: statsOf(opened),
        values: list.map((v, k) => decided[k] ?? valueResult(v, 'unknown', null, 'column-missing', detail)) }, order)
    }
    /**
     * The file's answer from its column `fileColumn`: at once when its statistics answer, else its promise.
     * @param {string | string[]} fileColumn
     * @returns {FileResult | Promise<FileResult>}
     */
    const answerIn = (fileColumn) => {
      const sidecar = this.#indexHolds(fileColumn) ? fromSidecar : undefined
      let asked = open
      let probed
      let lookups
      try {
        const inFile = this.decideInFile?.(opened, column, fileColumn, open.map((k) => list[k]))
        if (inFile) asked = open.filter((k, j) => !(decided[k] = inFile[j] ?? null))
        if (asked.length === 0) return ordered({ ...this.#baseOf(file, status), stats: statsOf(opened), values: decided }, order)
        lookups = lookupsInFile(this.probeOptions, this.lookupColumnsIn, opened, file.partitions)
        probed = opened[PROBE_NOW](fileColumn, asked.length === list.length ? list : asked.map((k) => list[k]), lookups.options)
      } catch (error) {
        return columnMissing(error)
      }
      if (probed instanceof Promise) {
        return probed.then((answer) => this.#fileAnswer(file, order, status, opened, fileColumn, decided, asked,
          namedAsAsked(answer, lookups), sidecar, lookups), columnMissing)
      }
      return this.#fileAnswer(file, order, status, opened, fileColumn, decided, asked, namedAsAsked(probed, lookups), sidecar,
        lookups)
    }
    if (!settings.columnOf) return answerIn(column)
    // The published ParquetFile is this class's declared face.
    const published = /** @type {import('../index.js').ParquetFile} */ (/** @type {unknown} */ (opened))
    return (async () => {
      let fileColumn
      try {
        fileColumn = await settings.columnOf(this.fileView(file), published, column)
      } catch (error) {
        return columnMissing(error)
      }
      return answerIn(fileColumn)
    })()
  }

  /**
   * `probe`'s file failed to open, or its probe failed: the file's answer with its error (after an abort, the abort).
   * @param {FileProbe} probe @param {unknown} error
   * @returns {FileResult}
   */
  probeFailed(probe, error) {
    if (this.settings.signal?.aborted || (error !== undefined && error === this.budget?.exceeded)) throw error
    const { file, order, decided, fromSidecar, status, parquet } = probe
    // A file read as changed (FILE_CHANGED: another ETag, size or mtime than the listing's) is not the version the sidecar
    // matched by the listing's size and ETag: what the sidecar decided is of bytes no longer there.
    const byIndex = /** @type {{ code?: unknown }} */ (error)?.code === ErrorCode.FILE_CHANGED ? fromSidecar?.byIndex : undefined
    return this.#failed(file, order, error, byIndex ? decided.map((d, k) => (byIndex[k] ? null : d)) : decided, status, parquet)
  }

  /**
   * A file's answer when probing it failed: its error, and `unknown` (file-error) for each value not decided without it.
   * @param {DatasetFile} file @param {number} order @param {unknown} error
   * @param {Array<ValueResult | null>} decided @param {unknown} status
   * @param {import('../parquet-file.js').ParquetFile} [parquet] the file, when it was opened
   * @returns {FileResult}
   */
  #failed(file, order, error, decided, status, parquet = undefined) {
    const data = errorData(error)
    const base = this.#baseOf(file, status)
    return ordered({ ...base, error: data, stats: parquet ? statsOf(parquet) : base.stats,
      values: this.list.map((v, k) => decided[k] ??
        valueResult(v, 'unknown', null, 'file-error', `${file.path}: ${data.code}: ${data.message}`)) }, order)
  }

  /**
   * A probed file's answer: its row groups' answers, rolled up per value with those decided without it.
   * @param {DatasetFile} file @param {number} order @param {unknown} status
   * @param {import('../parquet-file.js').ParquetFile} opened @param {string | string[]} fileColumn
   * @param {Array<ValueResult | null>} decided @param {number[]} asked the values the file was asked, by position
   * @param {import('../index.js').ProbeResult} probed
   * @param {{ indexed: any, sidecar: any } | undefined} fromSidecar
   * @param {Lookups} lookups the file's names of `columns` (lookupsInFile)
   * @returns {FileResult}
   */
  #fileAnswer(file, order, status, opened, fileColumn, decided, asked, probed, fromSidecar, lookups) {
    const { list } = this
    // A file whose footer is not the entry's (another row-group count or row count) keeps its answers and says so.
    const sharpened = fromSidecar?.sidecar?.sharpen(probed.rowGroups, fromSidecar.indexed.rowGroups, asked,
      opened.metadata.rowGroups.length)
    if (sharpened && !sharpened.described) status = sharpened
    // Every value asked of the file: its row groups' answers are the file's as they are.
    const rowGroups = asked.length === list.length ? probed.rowGroups : withDecided(probed.rowGroups, asked, decided)
    /** @type {ValueResult[]} */
    const values = new Array(list.length)
    for (let k = 0; k < list.length; k++) {
      const r = decided[k] ?? rollUpValue(rowGroups, k, list[k])
      values[k] = r
      if (r.verdict === 'present') this.rowsFound += r.rows?.length ?? 0
    }
    const { typeLength } = opened.column(fileColumn)
    const stats = statsOf(opened)
    // The published key order: path, partitions, rowGroups, error, stats, index, column, physicalType, logicalType,
    // typeLength, values, confirm, columnsMissing.
    /** @type {FileResult} */
    const result = { path: file.path, partitions: ownPartitions(file.partitions), rowGroups, error: null, stats }
    if (status) result.index = status
    // The run's own string where the file names the column so (every file's answer kept would hold a copy).
    result.column = probed.column === this.columnName ? this.columnName : probed.column
    result.physicalType = probed.physicalType
    result.logicalType = probed.logicalType
    if (typeLength !== undefined) result.typeLength = typeLength
    result.values = values
    if (probed.confirm) result.confirm = probed.confirm
    // A `columns` name a plain dataset's file lacks reads null, as in DuckDB's union_by_name; said here, so that a name no
    // file has (a typo, which DuckDB refuses) is not only nulls. A table's files are read by its schema (lookupColumnsIn).
    const { named, fromPath } = lookups
    const missing = this.lookupColumnsIn ? undefined : named && lookups.asked.filter((_, k) => named[k] === null && !fromPath?.has(k))
    if (missing?.length) result.columnsMissing = missing
    return ordered(result, order)
  }
}

/**
 * A file's probe options with `columns` (point lookups) as the file names them (a table's LOOKUP_COLUMNS_IN: renamed
 * columns, column mapping), and how to give its row values back under the names asked (`named`: each asked column's
 * name in the file, parallel to `asked`; null: as they are). A column the file does not have is left out of its
 * lookups and is null in its rows, as DuckDB's union_by_name reads it: in a plain dataset too, where such a file
 * answered `unknown` (column-missing) for every value, even those its probed column holds. A Hive partition key the file
 * does not hold as a column is its folder's value in every row (`fromPath`: by position in `asked`), as DuckDB's
 * hive_partitioning reads it (it was null, and the CLI took the key for a typo). A table's files: by its schema.
 * @typedef {{ options: Record<string | symbol, any>, named: Array<string | null> | null, asked: string[],
 *   fromPath?: Map<number, unknown> }} Lookups
 * @param {Record<string | symbol, any>} probeOptions
 * @param {import('./dataset.js').LookupColumnsIn | undefined} lookupColumnsIn
 * @param {import('../parquet-file.js').ParquetFile} opened
 * @param {Record<string, unknown> | undefined} partitions the file's, from its path
 * @returns {Lookups}
 */
function lookupsInFile(probeOptions, lookupColumnsIn, opened, partitions) {
  const { columns } = probeOptions
  // Anything but names is refused by the file's probe, as given.
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== 'string')) return { options: probeOptions, named: null, asked: [] }
  const named = lookupColumnsIn ? lookupColumnsIn(opened, columns) : columns.map((c) => columnInFile(opened, c))
  if (named.every((fileName, i) => fileName === columns[i])) return { options: probeOptions, named: null, asked: columns }
  const inFile = [...new Set(named.filter((fileName) => fileName !== null))]
  /** @type {Map<number, unknown> | undefined} */
  let fromPath
  if (!lookupColumnsIn && partitions) {
    named.forEach((fileName, k) => {
      const key = fileName === null ? partitionKey(partitions, columns[k]) : undefined
      if (key !== undefined) (fromPath ??= new Map()).set(k, partitions[key])
    })
  }
  return { options: { ...probeOptions, columns: inFile }, named, asked: columns, fromPath }
}

/**
 * The file's partition key DuckDB's union_by_name reads as `name` (names ignore case, as columnInFile's), or undefined.
 * @param {Record<string, unknown>} partitions
 * @param {string} name
 */
function partitionKey(partitions, name) {
  if (Object.hasOwn(partitions, name)) return name
  const lower = name.toLowerCase()
  return Object.keys(partitions).find((key) => key.toLowerCase() === lower)
}

/**
 * The file's top-level column that DuckDB's union_by_name reads as `name`, whose names ignore case: `name` itself, else
 * the one differing from it only in case (a file's `Name` is the `name` of the others: its values, not null); null when
 * none is. Several differing only in case: `name`, which the file's probe refuses (column-missing), as DuckDB does.
 * @param {import('../parquet-file.js').ParquetFile} opened
 * @param {string} name
 * @returns {string | null}
 */
function columnInFile(opened, name) {
  const lower = name.toLowerCase()
  /** @type {string | null} */
  let found = null
  for (const { path: [top] } of opened.layout.columns) {
    if (top === name) return name
    if (top !== found && top.toLowerCase() === lower) found = found === null ? top : name
  }
  return found
}

/**
 * A file's probe answer with its row values (`columns`) keyed by the names asked, not the file's; null for a
 * column the file does not have.
 * @param {import('../index.js').ProbeResult} probed
 * @param {Lookups} lookups
 */
function namedAsAsked(probed, { named, asked, fromPath }) {
  if (!named) return probed
  // The file was asked some columns but gave no values (its pages of them could not be read): none made up here.
  const read = named.some((fileName) => fileName !== null)
  for (const { results } of probed.rowGroups) {
    for (const r of results) {
      if (!r.rows?.length || (read && !r.values)) continue
      const rows = r.values
      r.values = r.rows.map((_, i) => {
        const row = /** @type {Record<string, unknown> | undefined} */ (rows?.[i])
        return Object.fromEntries(asked.map((c, k) => [c, named[k] === null ? (fromPath?.get(k) ?? null) : row?.[named[k]]]))
      })
    }
  }
  return probed
}

/**
 * Per value, the answer the caller's prefilter gives without a read (or null).
 * @param {FileView} view
 * @param {string} path
 * @param {string} columnName
 * @param {unknown[]} values
 * @param {Prefilter} prefilter
 */
async function decidedByPrefilter(view, path, columnName, values, prefilter) {
  /** @type {Array<import('../verdicts.js').ValueResult | null>} */
  const decided = values.map(() => null)
  const answers = await prefilter(view, columnName, values)
  if (answers === null || answers === undefined) return decided
  if (!Array.isArray(answers) || answers.length !== values.length) {
    throw invalidArgument(`prefilter must return null or an array of ${values.length} entries for ${path}`)
  }
  answers.forEach((a, k) => {
    if (a === null || a === undefined) return
    if ((a.verdict !== 'absent' && a.verdict !== 'maybe') || typeof a.source !== 'string' || typeof a.reason !== 'string') {
      throw invalidArgument(`prefilter: entry ${k} for ${path} must be null or { verdict: 'absent' | 'maybe', source, ` +
        'reason, detail }')
    }
    // A prefilter names its own reason (PrefilterAnswer takes a string): a table's are reason codes, a caller's its own.
    const reason = /** @type {import('../verdicts.js').ReasonCode} */ (a.reason)
    decided[k] = valueResult(values[k], a.verdict, a.source, reason, String(a.detail ?? ''))
  })
  return decided
}

/**
 * Per value, the answer of the file's partition folder (`column=value` in its path) when the column is
 * one; else null, and the prefilter decides. A key with a '.' (`a.b=5`) is also how the file's nested field a.b is
 * named (`'a.b'`, `['a', 'b']`), a column of its own (DuckDB's `a.b` and `"a.b"`), and a folder `K=1` may or may not
 * be the file's column k (partitionReadings): such a folder says `maybe` for its value but rules nothing out; the file
 * answers the rest (null).
 * @param {{ path: string, pathPartitions: boolean, raw: Record<string, string | null> }} file
 * @param {string} columnName
 * @param {unknown[]} values
 * @param {Record<string, string>} types the partition keys' types
 * @returns {Array<import('../verdicts.js').ValueResult | null> | null}
 */
function decidedByPartition(file, columnName, values, types) {
  if (!file.pathPartitions) return null
  const { exact, values: readings } = partitionReadings(file.raw, columnName)
  if (readings.length === 0) return null
  const shown = readings.map((raw) => (raw === null ? 'null (the default partition)' : JSON.stringify(raw))).join(' or ')
  // Only a folder named as asked, not a nested field's name, rules a value out.
  const sure = exact && !columnName.includes('.')
  // A value the key's type cannot be compared with fails the file, as a file's own column of that type fails it.
  const refused = sure ? values.find((v) => !comparableWith(types[columnName], v, readings[0])) : undefined
  if (refused !== undefined) {
    throw new ParquetBloomError(ErrorCode.BAD_VALUE, `${file.path}: ${show(refused)} cannot be compared with the ` +
      `partition ${columnName}, a ${types[columnName]} (${JSON.stringify(file.raw[columnName])} here)`)
  }
  return values.map((v) => (readings.some((raw) => partitionMayEqual(raw, v))
    ? valueResult(v, 'maybe', Source.PARTITION, 'partition-match', `the file's partition ${columnName} is ${shown}; its rows were not read`)
    : sure ? valueResult(v, 'absent', Source.PARTITION, 'partition-mismatch', `the file's partition ${columnName} is ${shown}`) : null))
}

/**
 * A file's row groups' answers for the values it was asked (`asked`, by position), with those decided without it
 * (prefilter, sidecar, DECIDE_IN_FILE) in their places. Apart: its closures would cost every file a context.
 * @param {Array<{ results: ValueResult[] }>} rowGroups
 * @param {number[]} asked
 * @param {Array<ValueResult | null>} decided one per value
 */
function withDecided(rowGroups, asked, decided) {
  const at = new Map(asked.map((k, j) => [k, j]))
  return rowGroups.map((g) => ({ ...g, results: decided.map((r, k) =>
    (at.has(k) ? g.results[/** @type {number} */ (at.get(k))] : /** @type {ValueResult} */ (r))) }))
}

/**
 * A file's answer with its place among the files (`order`, removed once they are sorted), as its last property.
 * @param {FileResult} result
 * @param {number} order
 */
function ordered(result, order) {
  result.order = order
  return result
}

/** @param {import('../parquet-file.js').ParquetFile} file */
function statsOf(file) {
  return asIoStats(file.stats)
}

/**
 * A failure as data: { code, message } of a ParquetBloomError, and its HTTP `status` when it has one (a 404's
 * FILE_NOT_FOUND, an HTTP_STATUS), IO for anything else.
 * @param {unknown} error
 * @returns {{ code: string, message: string, status?: number }}
 */
export function errorData(error) {
  if (error instanceof ParquetBloomError) {
    return error.status === undefined ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, status: error.status }
  }
  return { code: ErrorCode.IO, message: String(/** @type {{ message?: unknown } | null | undefined} */ (error)?.message ?? error) }
}

/**
 * One file's probe in flight, as FileSession.withFile hands it the opened file or its failure: what ProbeRun#probeFile
 * knows of the file, in one record rather than the closures and contexts of a callback each.
 */
class FileProbe {
  /**
   * @param {ProbeRun} run @param {DatasetFile} file @param {number} order
   * @param {Array<ValueResult | null>} decided per value, or null @param {any} fromSidecar @param {unknown} status
   * @param {number[]} open the values still open, by position
   * @param {number} counted the row groups its sidecar described, whose room probe()'s budget took then
   */
  constructor(run, file, order, decided, fromSidecar, status, open, counted) {
    this.run = run
    this.file = file
    this.order = order
    this.decided = decided
    this.fromSidecar = fromSidecar
    this.status = status
    this.open = open
    this.counted = counted
    /** @type {import('../parquet-file.js').ParquetFile | undefined} once opened */
    this.parquet = undefined
  }

  /** @param {import('../parquet-file.js').ParquetFile} opened */
  opened(opened) {
    return this.run.probeOpened(this, opened)
  }

  /** @param {unknown} error */
  failed(error) {
    return this.run.probeFailed(this, error)
  }
}
