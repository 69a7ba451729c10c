// `parquet-bloom probe|inspect <dir|glob|s3://…>`: a whole dataset through openDataset() — one line per
// file with its partitions and each value's file-level verdict, a summary per partition value, the
// totals and the cost; `inspect` reports per column how many files and row groups each index covers.
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

import { describeColumnType, ErrorCode, openDataset, openParquet, openTable, ParquetBloomError } from '../index.js'
import { fileProblem, formatBytes, formatPercent, formatTable, jsonSafe, showValue } from './format.js'
import { rememberSecrets, redactSecrets } from './keys.js'
import { Progress } from './run-files.js'
import { indexWarning } from './index-warning.js'
import { planText } from './plan-text.js'
import { UsageError } from './args.js'
import { bookkeepingFolder, listDataset } from '../dataset/listing.js'
import { addToTotals, emptyTotals, PROBE_END } from '../dataset/dataset.js'

/**
 * @typedef {{ write(text: string): unknown }} Output standard output, or a stream standing in for it
 * @typedef {import('../index.js').DatasetFileResult} DatasetFileResult
 */

/** @type {Record<string, string>} */
const SOURCE_LABEL = { 'statistics': 'stats', 'page-index': 'page index', 'dictionary': 'dict', 'bloom-filter': 'bloom',
  'data-pages': 'pages', 'value': 'value',
  'partition': 'partition', 'table-partition': 'table partition', 'table-stats': 'table stats' }

/**
 * Whether the command line names a dataset rather than files: one directory, glob or s3:// prefix.
 * @param {string[]} inputs
 */
export function isDatasetInput(inputs) {
  if (inputs.length !== 1) return false
  const [input] = inputs
  if (/^s3:\/\//i.test(input)) return true
  if (/^https?:\/\//i.test(input)) return false
  if (/[*?{]/.test(input)) return true
  try {
    return statSync(input).isDirectory()
  } catch {
    return false
  }
}

/**
 * What an s3:// dataset needs from the command line and the environment: the endpoint and region
 * (--endpoint, --region, else AWS_ENDPOINT_URL, AWS_REGION) and the credentials, from the environment
 * only (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), as the AWS tools read them.
 * @param {Record<string, any>} options the parsed command line
 * @param {Record<string, string | undefined>} [env]
 */
export function s3Options(options, env = process.env) {
  const endpoint = options.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION
  const credentials = env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
    ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) }
    : undefined
  if (credentials) rememberSecrets(credentials.secretAccessKey, credentials.sessionToken)
  return { ...(endpoint ? { endpoint } : {}), ...(region ? { region } : {}), ...(credentials ? { credentials } : {}) }
}

/**
 * 'a Delta' / 'an Iceberg' when a local folder is a table's root (_delta_log/, metadata/*.metadata.json), else undefined.
 * @param {string} input
 */
function tableFormatAt(input) {
  try {
    if (!statSync(input).isDirectory()) return undefined
    if (existsSync(path.join(input, '_delta_log'))) return 'a Delta'
    const metadata = path.join(input, 'metadata')
    if (existsSync(metadata) && readdirSync(metadata).some((n) => n.endsWith('.metadata.json') || n === 'version-hint.text')) {
      return 'an Iceberg'
    }
  } catch {
    // not a local folder (a glob, an s3:// prefix): no table root to recognise
  }
  return undefined
}

/**
 * Whether the command line names a table (--table): exactly one location.
 * @param {string[]} inputs
 * @param {Record<string, any>} options the parsed command line
 */
export function isTableInput(inputs, options) {
  if (options.table === undefined) return false
  if (inputs.length !== 1) throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `--table takes one table location, got ${inputs.length}`)
  return true
}

/**
 * The dataset (or table) a command line names; a dataset without any file is a mistake worth saying (exit 2).
 * @param {string} input
 * @param {Record<string, any>} options the parsed command line
 * @returns {Promise<import('../index.js').ParquetDataset | import('../index.js').ParquetTable>}
 */
async function openInput(input, options) {
  if (options.table !== undefined) {
    // A table without live files is a table at an empty snapshot: that is an answer, not a mistake.
    return openTable(input, { format: options.table, snapshot: options.snapshot, version: options['table-version'],
      footerCache: options.footerCache, decryption: options.decryption,
      ...(options.index !== undefined ? { index: options.index } : {}) })
  }
  // A folder, glob or prefix of no Parquet file is FILE_NOT_FOUND from openDataset itself.
  return openDataset(input,
    { footerCache: options.footerCache, decryption: options.decryption, ...(options.index !== undefined ? { index: options.index } : {}),
    ...(/^s3:\/\//i.test(input) ? s3Options(options) : {}) })
}

/**
 * Probes a dataset; returns the exit code (2 when a file failed).
 * @param {string} input
 * @param {unknown[]} values
 * @param {Record<string, any>} options the parsed command line
 * @param {Output} [out]
 */
export async function runDatasetProbe(input, values, options, out = process.stdout) {
  const format = options.table === undefined ? tableFormatAt(input) : undefined
  if (format) {
    // Its folder holds files the table removed and rows it deleted: read as plain files, a deleted value is `present`.
    throw new UsageError(`${input} is the root of ${format} table: --table auto reads it as the table (its current files, ` +
      `less deleted rows); to probe every Parquet file under it as plain files, name them by a glob`, 'probe')
  }
  const dataset = await openInput(input, options)
  if (options.table === undefined) warnOfBookkeeping(input, dataset.files) // a table's files are its own, wherever they are
  const progress = new Progress(dataset.files.length)
  // A table's sidecar index read its snapshot record and filters while the table opened: the probe's stats count none of it.
  const indexAtOpen = 'table' in dataset ? copyOf(dataset.table.index?.reads) : undefined
  const probeOptions = {
    mode: options.mode, statistics: !options['no-statistics'], dictionary: options.dictionary,
    ...(options.confirm ? { confirm: true, maxConfirmBytes: options['max-confirm-bytes'], maxRows: options['max-rows'],
      columns: options.columns } : {}),
    where: options.where,
    ...(options.explain ? { plan: true } : {}),
    onProgress: (/** @type {{ filesTotal: number, filesDone: number, filesFailed: number }} */ p) => {
      progress.total = p.filesTotal; progress.done = p.filesDone - 1; progress.failed = p.filesFailed; progress.tick(false)
    },
  }
  const report = new ProbeReport(values, options, out, progress)
  /** @type {{ totals: Record<string, any>, stats: any, manifests?: unknown, plan?: import('../index.js').ReadPlan }} */
  let ended
  try {
    // A dataset's files are streamed (probeEach), each printed in the dataset's order once those before it are: probe() holds
    // every answer (TOO_LARGE past maxResults, which a CLI user cannot avoid by probeEach). A table's probe adds what its
    // files' answers do not say (its manifests, its stats and order) and --explain a plan of the whole probe: probe() there.
    const streams = options.table === undefined && !options.explain
    const streamed = streams ? await streamProbe(dataset, options.column, values, probeOptions, report) : undefined
    if (streamed) ended = streamed
    else {
      const result = await dataset.probe(options.column, values, probeOptions)
      progress.clear()
      for (const file of result.files) report.add(file)
      ended = result
    }
  } catch (error) {
    // A table refuses a column its schema lacks (a typo) before any read: said as the table's, as a failed file's line is.
    if (/** @type {any} */ (error)?.code !== ErrorCode.COLUMN_NOT_FOUND || options.table === undefined) throw error
    throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${input}: ${/** @type {Error} */ (error).message}`, { cause: error })
  } finally {
    await dataset.close()
  }
  progress.clear()
  report.end(ended, indexAtOpen)
  for (const { path: name, message } of report.errors) process.stderr.write(redactSecrets(`parquet-bloom: ${fileProblem(name, message)}\n`))
  // A --where value no partition holds (a typo, another spelling) skips every file: true under the filter, but worth saying.
  if (options.where && report.files && report.allSkippedByWhere) {
    const seen = Object.keys(options.where).map((key) => `${key}: ${[...(report.whereSeen.get(key) ?? [])].join(', ')}`)
    process.stderr.write(redactSecrets(`parquet-bloom: warning: --where matches no file of ${input} (values ${seen.join('; ')})\n`))
  }
  const warning = indexWarning(report.indexStatuses)
  if (warning) process.stderr.write(`${redactSecrets(warning)}\n`)
  // A column that no file read has (a typo) answers unknown everywhere: a mistake, as for a single file (exit 2). Not for
  // a table, which refuses a name its schema lacks (above): a column the schema gained after every live file was written is
  // in none of them, and a leaf no schema field names (a list's `tags.list.element`) is the files' own.
  // A --columns name every file lacks (a typo) reads null in every row: DuckDB refuses it, and so do we (exit 2).
  // Either is a typo only when no file has it: files settled unopened (--where, partitions, a sidecar index) may, and
  // DuckDB's union_by_name reads it there. Their footers are read then, only on this path (no cost when a file has it).
  const plain = options.table === undefined
  const columnName = Array.isArray(options.column) ? options.column.join('.') : String(options.column)
  let noColumn = plain && report.read > 0 && report.readAllMissing
  /** @type {string[]} */
  const asked = plain && options.confirm && report.lookedUp > 0 ? options.columns ?? [] : []
  let noLookup = asked.filter((c) => !report.lookupFound.has(c))
  if ((noColumn || noLookup.length) && report.unopened.length) {
    const found = await columnsOfFiles(input, options, report.unopened, noColumn ? options.column : undefined, noLookup)
    noColumn &&= !found.column
    noLookup = noLookup.filter((c) => !found.lookups.has(c))
  }
  if (noColumn) process.stderr.write(redactSecrets(`parquet-bloom: ${input}: no file read has column ${JSON.stringify(columnName)}\n`))
  if (noLookup.length) {
    process.stderr.write(redactSecrets(`parquet-bloom: ${input}: no file read has --columns column ` +
      `${noLookup.map((c) => JSON.stringify(c)).join(', ')}\n`))
  }
  return ended.totals.filesWithError || noColumn || noLookup.length ? 2 : 0
}

/**
 * A plain dataset's probe through probeEach, each file's answer handed to `report` in the dataset's order (probe()'s): one
 * answered ahead of those before it waits for them, without its row groups' answers unless --json prints them. Undefined
 * when two files share a path (no order to put them in by it): probe() then.
 * @param {import('../index.js').ParquetDataset} dataset
 * @param {string | string[]} column @param {unknown[]} values @param {Record<string, any>} probeOptions
 * @param {ProbeReport} report
 */
async function streamProbe(dataset, column, values, probeOptions, report) {
  const at = new Map(dataset.files.map((f, i) => [f.path, i]))
  if (at.size !== dataset.files.length) return undefined
  /** @type {Map<number, DatasetFileResult>} */
  const waiting = new Map()
  let next = 0
  /** @type {{ stats: any } | undefined} */
  let end
  /** @type {Record<string | symbol, any>} the CLI's own option, for the probe's stats */
  const eachOptions = { ...probeOptions, [PROBE_END]: (/** @type {{ stats: any }} */ e) => { end = e } }
  const each = dataset.probeEach(column, values, eachOptions)
  for await (const file of each) {
    if (!report.json) file.rowGroups = [] // the text printed of a file is its values'
    waiting.set(/** @type {number} */ (at.get(file.path)), file)
    for (let ready = waiting.get(next); ready; ready = waiting.get(next)) {
      waiting.delete(next++)
      report.add(ready)
    }
  }
  // Every file of the dataset answers once (no shard, no limit): none is left waiting.
  return { totals: report.totals, stats: /** @type {{ stats: any }} */ (end).stats }
}

/**
 * What `probe <dataset>` prints, a file at a time in the dataset's order: its line (or, --json, its entry of `files`), and
 * what the summary, the warnings and the exit code need of it — counts, not the files' answers.
 */
class ProbeReport {
  /**
   * @param {unknown[]} values @param {Record<string, any>} options the parsed command line @param {Output} out
   * @param {Progress} progress the bar on stderr, cleared for each line written while it shows
   */
  constructor(values, options, out, progress) {
    this.values = values
    this.options = options
    this.json = Boolean(options.json)
    this.out = out
    this.progress = progress
    this.summary = new SummaryCounts(values)
    this.totals = emptyTotals()
    this.files = 0
    /** @type {Array<{ path: string, message: string }>} */
    this.errors = []
    this.allSkippedByWhere = true
    /** Per --where key, the first 10 partition values seen, in the files' order. @type {Map<string, Set<unknown>>} */
    this.whereSeen = new Map()
    /** @type {Array<import('../index.js').DatasetIndexStatus>} */
    this.indexStatuses = []
    this.read = 0
    this.readAllMissing = true
    this.lookedUp = 0
    /** --columns names some looked-up file has. @type {Set<string>} */
    this.lookupFound = new Set()
    /** @type {string[]} */
    this.unopened = []
  }

  /** @param {string} text */
  #write(text) {
    const shown = this.progress.shown
    if (shown) this.progress.clear()
    this.out.write(text)
    if (shown) this.progress.draw()
  }

  /** @param {DatasetFileResult} file the next in the dataset's order */
  add(file) {
    if (this.json) {
      const { path: name, ...rest } = file
      this.#write(`${this.files === 0 ? '{"files":[' : ','}${JSON.stringify(jsonSafe({ file: name, ...rest }))}`)
      addToTotals(this.totals, file)
    } else {
      this.#write(`${fileLine(file)}\n`)
      this.summary.add(file)
      if (file.error) this.totals.filesWithError++
    }
    this.files++
    if (file.error) this.errors.push({ path: file.path, message: file.error.message })
    if (this.options.where) {
      if (file.skipped !== 'where') this.allSkippedByWhere = false
      for (const key of Object.keys(this.options.where)) {
        const seen = this.whereSeen.get(key) ?? this.whereSeen.set(key, new Set()).get(key)
        const value = file.partitions[key]
        if (value !== undefined && /** @type {Set<unknown>} */ (seen).size < 10) /** @type {Set<unknown>} */ (seen).add(value)
      }
    }
    if (file.index != null) this.indexStatuses.push(file.index)
    const missing = file.values.length > 0 && file.values.every((v) => v.reason === 'column-missing')
    if (!file.error && !file.skipped && file.values.length) {
      this.read++
      if (!missing) this.readAllMissing = false
      if (file.column !== undefined) {
        this.lookedUp++
        for (const c of this.options.columns ?? []) if (!file.columnsMissing?.includes(c)) this.lookupFound.add(c)
      }
    }
    if (!file.error && file.column === undefined && !missing) this.unopened.push(file.path)
  }

  /**
   * The rest: --json's totals and stats (a table's manifests, a plan), or the summary's lines.
   * @param {{ totals: Record<string, any>, stats: any, manifests?: unknown, plan?: import('../index.js').ReadPlan }} result
   * @param {{ requests: number, bytesFetched: number }} [indexAtOpen] a table's sidecar index's reads while it opened
   */
  end(result, indexAtOpen) {
    const { totals, stats, plan } = result
    const manifests = /** @type {{ read: number, total: number, skipped: number } | undefined} */ (result.manifests)
    if (this.json) {
      const rest = JSON.stringify(jsonSafe({ totals, stats, ...(manifests ? { manifests } : {}), ...(plan ? { plan } : {}) }))
      this.#write(`${this.files === 0 ? '{"files":[' : ''}],${rest.slice(1)}\n`)
      return
    }
    this.#write(`${this.summary.text(this.files, totals, stats, indexAtOpen)}\n`)
    // An Iceberg table: the files of manifests its partition summaries skipped are not listed above.
    if (manifests) this.#write(`manifests: ${manifests.read} of ${manifests.total} read, ${manifests.skipped} skipped by their ` +
      'partition summaries (their files are not listed)\n')
    if (plan) this.#write(`${planText(plan).join('\n')}\n`)
  }
}

/**
 * A copy of a table's sidecar index's read counts (they go on counting as the probe reads).
 * @param {{ requests?: number, bytesFetched?: number } | undefined} reads
 */
function copyOf(reads) {
  return reads ? { requests: reads.requests ?? 0, bytesFetched: reads.bytesFetched ?? 0 } : undefined
}

/**
 * Which of a probed column and --columns names the dataset's files at `paths` (those its probe left unopened) have, by
 * their footers: the column as their probe looks it up (ParquetFile.column), a --columns name as DuckDB's union_by_name
 * (any case). A file that cannot be read has nothing here: its probe's own error says why.
 * @param {string} input
 * @param {Record<string, any>} options the parsed command line
 * @param {string[]} paths
 * @param {string | string[] | undefined} column
 * @param {string[]} names
 */
async function columnsOfFiles(input, options, paths, column, names) {
  const wanted = new Set(paths)
  const { files, fetch } = await listDataset(input, /^s3:\/\//i.test(input) ? s3Options(options) : {})
  const found = { column: false, lookups: new Set() }
  const queue = files.filter((f) => wanted.has(f.path))
  const one = async (/** @type {import('../dataset/listing.js').FileDescriptor} */ d) => {
    const file = await openParquet(d.location, { ...(fetch ? { fetch } : {}), decryption: options.decryption,
      footerCache: options.footerCache, ...(d.size !== undefined && d.size >= 0 ? { size: d.size } : {}) }).catch(() => null)
    if (!file) return
    try {
      if (column !== undefined && !found.column) found.column = tryColumn(file, column)
      const { columns } = /** @type {import('../footer/footer.js').FileLayout} */ (file.layout)
      const tops = new Set(columns.map((c) => c.path[0].toLowerCase()))
      for (const c of names) if (tops.has(c.toLowerCase())) found.lookups.add(c)
    } finally {
      await file.close()
    }
  }
  const workers = Array.from({ length: Math.min(16, queue.length) }, async () => {
    for (let d = queue.shift(); d; d = queue.shift()) await one(d)
  })
  await Promise.all(workers)
  return found
}

/**
 * @param {import('../index.js').ParquetFile} file
 * @param {string | string[]} column
 */
function tryColumn(file, column) {
  try {
    file.column(column)
    return true
  } catch {
    return false
  }
}

/**
 * A glob matches what it says, writers' bookkeeping too (as DuckDB's glob: `t/**\/*.parquet` reads a Delta log's
 * checkpoints, Spark's `_temporary` attempts): they are probed as data, which they are not. One warning line says so.
 * @param {string} input
 * @param {ReadonlyArray<{ path: string }>} files
 */
function warnOfBookkeeping(input, files) {
  const under = files.map((f) => bookkeepingFolder(f.path)).filter((folder) => folder !== undefined)
  if (!under.length) return
  process.stderr.write(redactSecrets(`parquet-bloom: warning: ${input} matches ${under.length} file${under.length === 1 ? '' : 's'} ` +
    `in writers' bookkeeping folders (${[...new Set(under)].slice(0, 3).join(', ')}), probed as data; ` +
    'a table\'s folder with --table auto reads the table\n'))
}

/** @param {DatasetFileResult} file */
function fileLine(file) {
  const partitions = Object.entries(file.partitions).map(([k, v]) => `${k}=${v}`).join(' ')
  const verdicts = file.values.map((r) => `${showValue(r.value)}: ${r.verdict} ` +
    `(${r.verdict === 'unknown' || r.source === null ? r.reason : SOURCE_LABEL[r.source] ?? r.reason})`)
  const lines = [`${file.path}${partitions ? `  [${partitions}]` : ''}  ${verdicts.join('  ')}` +
    `${file.error ? `  error ${file.error.code}` : ''}`]
  for (const r of file.values) {
    if (r.rows?.length) lines.push(`  ${showValue(r.value)} in rows ${r.rows.join(', ')}${r.rowsTruncated ? ', … (--max-rows)' : ''}`)
    // --columns: `values` come only with `rows`, one per row (as a file's probe prints them).
    r.values?.forEach((row, i) => lines.push(`    row ${/** @type {number[]} */ (r.rows)[i]}: ${JSON.stringify(jsonSafe(row))}`))
  }
  return lines.join('\n')
}

/**
 * Per partition value, in how many of its files each value may be; then per value over all files; then the cost: counted a
 * file at a time, in the dataset's order.
 */
class SummaryCounts {
  /** @param {unknown[]} values */
  constructor(values) {
    this.values = values
    /** @type {Map<string, { files: number, kept: number[] }>} */
    this.facets = new Map()
    /** Per value: the files it may be in, is present in, is unknown in; those that rule it out, by source. */
    this.kept = values.map(() => 0)
    this.present = values.map(() => 0)
    this.unknown = values.map(() => 0)
    this.bySource = values.map(() => /** @type {Map<string | null, number>} */ (new Map()))
  }

  /** @param {DatasetFileResult} file */
  add(file) {
    const { values } = this
    for (const [key, value] of Object.entries(file.partitions)) {
      const label = `${key}=${value}`
      let facet = this.facets.get(label)
      if (!facet) this.facets.set(label, (facet = { files: 0, kept: values.map(() => 0) }))
      facet.files++
      const { kept } = facet
      file.values.forEach((r, k) => { if (r.verdict !== 'absent') kept[k]++ })
    }
    file.values.forEach((r, k) => {
      if (r.verdict === 'absent') {
        this.bySource[k].set(r.source, (this.bySource[k].get(r.source) ?? 0) + 1)
        return
      }
      this.kept[k]++
      if (r.verdict === 'present') this.present[k]++
      if (r.verdict === 'unknown') this.unknown[k]++
    })
  }

  /**
   * @param {number} files @param {Record<string, any>} totals @param {any} stats
   * @param {{ requests: number, bytesFetched: number }} [indexAtOpen] a table's sidecar index's reads while it opened
   */
  text(files, totals, stats, indexAtOpen = undefined) {
    const { values } = this
    const lines = []
    if (this.facets.size) {
      lines.push('by partition:')
      const rows = [...this.facets].map(([label, facet]) =>
        [`  ${label}`, ...facet.kept.map((n, k) => `${showValue(values[k])}: ${n} of ${facet.files} file${facet.files === 1 ? '' : 's'}`)])
      lines.push(formatTable(rows))
    }
    values.forEach((value, k) => {
      const present = this.present[k]
      const unknown = this.unknown[k]
      const ruledOut = [...this.bySource[k]].sort((a, b) => b[1] - a[1])
        .map(([source, n]) => `${n} by ${(source === null ? undefined : SOURCE_LABEL[source]) ?? source}`)
      lines.push(`${showValue(value)}: maybe in ${this.kept[k]} of ${files} files${present ? ` (present in ${present})` : ''}` +
        `${unknown ? `, unknown in ${unknown}` : ''}` +
        `${ruledOut.length ? `; ruled out ${ruledOut.join(', ')}` : ''}`)
    })
    const failed = totals.filesWithError ? `; ${totals.filesWithError} file${totals.filesWithError === 1 ? '' : 's'} failed` : ''
    lines.push(`${files} files (${stats.filesOpened} opened), ${costLine(stats, indexAtOpen)}${failed}`)
    return lines.join('\n')
  }
}

/**
 * Inspects a dataset: per column, the share of files and row groups each index covers.
 * @param {string} input
 * @param {Record<string, any>} options the parsed command line
 * @param {Output} [out]
 */
export async function runDatasetInspect(input, options, out = process.stdout) {
  const dataset = await openInput(input, options)
  if (options.table === undefined) warnOfBookkeeping(input, dataset.files) // a table's files are its own, wherever they are
  const progress = new Progress(dataset.files.length)
  const report = await dataset.inspect({
    onProgress: (p) => {
      progress.total = p.filesTotal; progress.done = p.filesDone - 1; progress.failed = p.filesFailed; progress.tick(false)
    },
  })
  progress.clear()
  const table = 'summary' in dataset && typeof dataset.summary === 'function' ? await dataset.summary() : undefined
  if (table && !options.json) out.write(tableText(input, table))
  if (options.json) {
    out.write(`${JSON.stringify(jsonSafe({
      ...(table ? { table } : {}), files: report.files, filesWithError: report.filesWithError, errors: report.errors,
      columns: report.columns, stats: report.stats,
    }))}\n`)
  } else {
    /** @type {(part: number, whole: number) => string} */
    const share = (part, whole) => `${formatPercent(whole ? part / whole : 0)} (${part}/${whole})`
    const rows = [['column', 'type', 'files', 'statistics', 'page index', 'dictionary-only', 'bloom filter']]
    for (const c of report.columns) {
      for (const [unit, total] of /** @type {const} */ ([['files', c.files], ['row groups', c.rowGroups]])) {
        const pick = unit === 'files' ? 'files' : 'rowGroups'
        rows.push([unit === 'files' ? c.column : '', unit === 'files' ? c.physicalTypes.join('|') : '',
          unit === 'files' ? String(c.files) : 'row groups', share(c.statistics[pick], total), share(c.pageIndex[pick], total),
          share(c.dictionaryOnly[pick], total), share(c.bloomFilter[pick], total)])
      }
    }
    out.write(`${input}: ${report.files} files${report.filesWithError ? `, ${report.filesWithError} unreadable` : ''}; ` +
      `a file counts when every row group has the index\n${formatTable(rows, 'llrrrrr').replace(/^/gm, '  ')}\n` +
      `${costLine(report.stats)}\n`)
  }
  for (const e of report.errors) {
    process.stderr.write(redactSecrets(`parquet-bloom: ${fileProblem(e.path, e.error.message)}\n`))
  }
  return report.filesWithError ? 2 : 0
}

/**
 * A table's metadata, for people: what was read and per column what it can rule out without reads.
 * @param {string} input
 * @param {import('../index.js').TableSummary} t
 */
function tableText(input, t) {
  const snapshotList = t.snapshots ?? [] // an Iceberg table's summary always lists them
  const at = t.format === 'iceberg' ? `snapshot ${t.snapshot ?? 'none'} of ${snapshotList.length}` : `version ${t.version}`
  const deletes = Object.entries(t.filesWithDeletes).filter(([, n]) => n).map(([k, n]) =>
    `${n} with ${k === 'dv' ? 'deletion vectors' : `${k} deletes`}`)
  const rows = [['column', 'type', 'files with bounds', 'null counts', 'NaN counts', 'partitioned by']]
  for (const c of t.columns) rows.push([c.column, c.type, `${c.bounds}/${c.files}`, `${c.nullCounts}/${c.files}`,
    `${c.nanCounts}/${c.files}`, c.partitions.join(', ') || '-'])
  const snapshots = t.format === 'iceberg'
    ? snapshotList.map((s) =>
      `  snapshot ${s.id} ${new Date(s.timestampMs).toISOString()} ${s.operation ?? ''}${s.id === t.snapshot ? ' (read)' : ''}\n`).join('')
    : ''
  return `${input}: ${t.format} table (writer ${t.writer}), ${at}: ${t.files} ` +
    `live files${deletes.length ? ` (${deletes.join(', ')})` : ''}\n${snapshots}` +
    `what the table's metadata can rule out without reading a file:\n${formatTable(rows, 'llrrrl').replace(/^/gm, '  ')}\n`
}

/**
 * @param {{ requests: number, bytes: number, rounds: number, ms: number, index?: { reads: number, heads: number, bytes: number } }} stats
 * @param {{ requests: number, bytesFetched: number } | undefined} indexAtOpen a table's sidecar index's reads while it opened
 */
function costLine({ requests, bytes, rounds, ms, index }, indexAtOpen = undefined) {
  /** @type {(n: number, word: string) => string} */
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`
  // The sidecar index's share: its reads of the index file and its HEADs of the files (checking they are the ones it describes).
  // A table's index was read when the table opened (its record, its filters): those reads are said apart, not in the totals.
  const opened = indexAtOpen?.requests
    ? `${index ? '; ' : ''}${plural(indexAtOpen.requests, 'read')}, ${formatBytes(indexAtOpen.bytesFetched)} when the table opened` : ''
  const ofIndex = index || opened
    ? ` (the sidecar index: ${index ? `${plural(index.reads, 'read')}, ${index.heads} HEAD${index.heads === 1 ? '' : 's'}, ` +
      `${formatBytes(index.bytes)}` : ''}${opened})`
    : ''
  return `${plural(requests, 'request')}${ofIndex}, ${formatBytes(bytes)} read, ${plural(rounds, 'round')}, ${Math.round(ms)} ms`
}

/**
 * Several files or URLs named on the command line, probed as one dataset (one request window, footers in
 * one wave): per input, a promise of the entry the per-file output takes (js/cli/probe-command.js probeFile's
 * shape), or of the error that file failed with. The inputs are the dataset's paths, in their order.
 * `indexStatuses` receives, per file, whether the sidecar index described it (the dataset's `index`).
 * @param {string[]} inputs
 * @param {import('./probe-command.js').ProbeSettings & { label: (input: string) => string,
 *   footerCache?: import('../index.js').FooterCache, decryption?: import('../index.js').DecryptionOptions, fileConcurrency?: number,
 *   index?: import('../index.js').OpenDatasetOptions['index'],
 *   indexStatuses?: Array<import('../index.js').DatasetIndexStatus | undefined> }} settings
 * @returns {Map<string, Promise<import('./probe-command.js').ProbeEntry>>}
 */
export function probeFilesAsDataset(inputs,
  { label, column, values, mode, statistics, dictionary, confirm, maxConfirmBytes, maxRows, columns, footerCache, decryption,
    fileConcurrency, index, indexStatuses }) {
  const started = performance.now()
  /** @typedef {import('./probe-command.js').ProbeEntry} ProbeEntry */
  /** @typedef {{ resolve: (entry: ProbeEntry) => void, reject: (error: unknown) => void }} Settlement */
  /** @type {Map<string, Settlement>} */
  const settle = new Map()
  const entries = new Map(inputs.map((input) =>
    [input, /** @type {Promise<ProbeEntry>} */ (new Promise((resolve, reject) => settle.set(input, { resolve, reject })))]))
  for (const entry of entries.values()) entry.catch(() => {}) // reported by whoever awaits it
  const run = async () => {
    // Named files are files, not partitions: no key=value of their paths decides anything here.
    // A sidecar index (opened by the caller, who closes it) answers all of them in one call.
    const dataset = await openDataset(inputs.map((input) => ({ path: input, location: input })),
      { footerCache, decryption, hivePartitioning: false, ...(index ? { index } : {}) })
    const options = { mode, statistics, dictionary, fileConcurrency, ...(confirm ? { confirm, maxConfirmBytes, maxRows, columns } : {}) }
    for await (const file of dataset.probeEach(column, values, options)) {
      // Every file of the dataset is one of the inputs, answered once.
      const { resolve, reject } = /** @type {Settlement} */ (settle.get(file.path))
      settle.delete(file.path)
      indexStatuses?.push(file.index)
      const missing = file.values.find((v) => v.reason === 'column-missing')
      if (file.error) reject(new ParquetBloomError(/** @type {any} */ (file.error.code), file.error.message, { status: file.error.status }))
      else if (missing) reject(new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, missing.detail))
      else {
        resolve({
          file: label(file.path),
          column: file.column ?? (Array.isArray(column) ? column.join('.') : column),
          physicalType: file.physicalType,
          logicalType: file.logicalType,
          // A file the sidecar index ruled out for every value was not opened: no column type, no row groups.
          typeLabel: file.column === undefined ? 'not opened: the sidecar index rules ' +
            'every value out' : describeColumnType(/** @type {any} */ (file)),
          rowGroups: file.rowGroups,
          stats: { requests: file.stats.requests, bytesFetched: file.stats.bytesFetched, ms: Math.round(performance.now() - started) },
          ...(file.confirm ? { confirm: file.confirm } : {}),
        })
      }
    }
  }
  run().catch((error) => { for (const { reject } of settle.values()) reject(error) })
  return entries
}
