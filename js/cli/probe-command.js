// `parquet-bloom probe`: the values to look for (from --value, --values-file, --hex), one file's probe
// through ParquetFile.probe, its text form, and the summary over all files.
import { readFile } from 'node:fs/promises'

import { describeColumnType, ErrorCode, ParquetBloomError, parseHexBytes } from '../index.js'
import { formatBytes, jsonSafe, showValue } from './format.js'
import { planText } from './plan-text.js'

/**
 * @typedef {import('../index.js').ProbeValueResult} ProbeValueResult
 * @typedef {{ column: string, values: unknown[], mode: 'auto' | 'filter' | 'block', statistics: boolean,
 *   dictionary: 'auto' | boolean, confirm?: boolean, maxConfirmBytes?: number, maxRows?: number, columns?: string[],
 *   explain?: boolean }} ProbeSettings
 *   what to probe and how, from the command line (js/cli/args.js checked it)
 * @typedef {{ file: string, column: string, physicalType: import('../index.js').PhysicalType | undefined,
 *   logicalType: import('../index.js').LogicalType | null | undefined, typeLabel: string,
 *   rowGroups: Array<{ index: number, numRows: number, results: ProbeValueResult[] }>,
 *   stats: { requests: number, bytesFetched: number, ms: number }, confirm?: import('../index.js').IoStats,
 *   plan?: import('../index.js').ReadPlan }} ProbeEntry
 *   one probed file, in the shape of an entry of `files` in the JSON output (typeLabel: for the text form only)
 */

/**
 * The values of --value and --values-file in order: text, or bytes with --hex. A values file holds one
 * value per line (\n or \r\n); a blank line is no value (a stray one would probe "", or fail a number column's
 * conversion): the empty string is asked for by `--value ''`. A line of spaces is a value, as written.
 * @param {Record<string, any>} options the parsed command line
 * @returns {Promise<string[] | Uint8Array[]>}
 */
export async function loadValues(options) {
  /** @type {string[]} */
  const texts = [...(options.value ?? [])]
  for (const name of options['values-file'] ?? []) {
    let content
    try {
      content = name === '-' ? await readStdin() : await readFile(name, 'utf8')
    } catch (cause) {
      const failure = /** @type {{ code?: string, message?: string } | null | undefined} */ (cause) // node:fs's
      const code = failure?.code === 'ENOENT' ? ErrorCode.FILE_NOT_FOUND : ErrorCode.IO
      throw new ParquetBloomError(code,
        `--values-file ${name}: ${failure?.code === 'ENOENT' ? 'file not found' : failure?.message ?? cause}`, { cause })
    }
    // A byte order mark (Windows editors save UTF-8 with one) is not part of the first value, as TextDecoder reads it.
    texts.push(...content.replace(/^\uFEFF/, '').split(/\r?\n/).filter((line) => line !== ''))
  }
  if (texts.length === 0) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'no values to probe: the values files hold none (a blank line is none)')
  }
  if (!options.hex) return texts
  return texts.map((text) => {
    try {
      return parseHexBytes(text)
    } catch (error) {
      throw new ParquetBloomError(ErrorCode.BAD_VALUE, `--hex: ${/** @type {Error} */ (error).message}`)
    }
  })
}

async function readStdin() {
  /** @type {Buffer[]} */
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Probes one opened file. Returns the JSON shape of one entry of `files`.
 * @param {import('../index.js').ParquetFile} file
 * @param {ProbeSettings & { label: string, started: number }} settings started: performance.now() when the file's turn came
 * @returns {Promise<ProbeEntry>}
 */
export async function probeFile(file,
  { label, column, values, mode, statistics, dictionary, confirm, maxConfirmBytes, maxRows, columns, started, explain }) {
  const result = await file.probe(column, values,
    { mode, statistics, dictionary, ...(confirm ? { confirm, maxConfirmBytes, maxRows, columns } : {}),
      ...(explain ? { plan: true } : {}) })
  const { requests, bytesFetched } = file.stats
  return {
    file: label,
    column: result.column,
    physicalType: result.physicalType,
    logicalType: result.logicalType,
    typeLabel: describeColumnType(file.column(column)),
    rowGroups: result.rowGroups,
    stats: { requests, bytesFetched, ms: Math.round(performance.now() - started) },
    ...(result.confirm ? { confirm: result.confirm } : {}),
    ...(result.plan ? { plan: result.plan } : {}),
  }
}

/**
 * Text lines for one probed file: a heading, one line per row group with every value's verdict.
 * @param {ProbeEntry} entry
 */
export function probeText(entry) {
  const lines = [`${entry.file}  column ${entry.column}  ${entry.typeLabel}`]
  const labelWidth = String(Math.max(0, entry.rowGroups.length - 1)).length
  const rowsWidth = Math.max(0, ...entry.rowGroups.map((rg) => String(rg.numRows).length))
  for (const rg of entry.rowGroups) {
    const verdicts = rg.results.map((r) => `${showValue(r.value)}: ${r.verdict} ` +
      `(${r.verdict === 'unknown' || r.source === null ? r.reason : SOURCE_LABEL[r.source] ?? r.reason})`)
    lines.push(`  row group ${String(rg.index).padStart(labelWidth)}  ${String(rg.numRows).padStart(rowsWidth)} rows  ` +
      `${verdicts.join('  ')}`)
    for (const r of rg.results) {
      if (r.rows?.length) lines.push(`    ${showValue(r.value)} in rows ${r.rows.join(', ')}${r.rowsTruncated ? ', … (--max-rows)' : ''}`)
      // `values` come only with `rows`, one per row.
      r.values?.forEach((row, i) => lines.push(`      row ${/** @type {number[]} */ (r.rows)[i]}: ${JSON.stringify(jsonSafe(row))}`))
    }
  }
  const { requests, bytesFetched, ms } = entry.stats
  lines.push(`  ${requests} request${requests === 1 ? '' : 's'}, ${formatBytes(bytesFetched)} read, ${ms} ms`)
  if (entry.confirm) {
    const c = entry.confirm
    lines.push(`  of which confirming: ${c.requests} request${c.requests === 1 ? '' : 's'}, ${formatBytes(c.bytesFetched)}`)
  }
  if (entry.plan) lines.push(...planText(entry.plan).map((line) => `  ${line}`))
  return lines.join('\n')
}

// How a verdict's deciding index is shown on a row group's line.
/** @type {Record<string, string>} */
const SOURCE_LABEL = { 'statistics': 'stats', 'page-index': 'page index', 'dictionary': 'dict', 'bloom-filter': 'bloom',
  'data-pages': 'pages', 'value': 'value' }
// ... and in the summary.
/** @type {Record<string, string>} */
const SOURCE_PHRASE = { 'statistics': 'statistics', 'page-index': 'page indexes', 'dictionary': 'dictionaries',
  'bloom-filter': 'bloom filters', 'data-pages': 'data pages', 'value': 'the value itself' }

/** Per value: in how many row groups and files it may be, over every file probed successfully. */
export class ProbeSummary {
  /** @param {unknown[]} values */
  constructor(values) {
    this.values = values
    this.maybeGroups = new Array(values.length).fill(0)
    this.unknownGroups = new Array(values.length).fill(0)
    this.maybeFiles = new Array(values.length).fill(0)
    /** Per value: row groups ruled out, by the index that ruled them out. */
    this.absentBySource = values.map(() => /** @type {Map<string | null, number>} */ (new Map()))
    this.presentGroups = new Array(values.length).fill(0)
    this.rowGroups = 0
    this.files = 0
    this.requests = 0
    this.bytesFetched = 0
  }

  /** @param {ProbeEntry} entry */
  add(entry) {
    this.files++
    this.rowGroups += entry.rowGroups.length
    this.requests += entry.stats.requests
    this.bytesFetched += entry.stats.bytesFetched
    const inFile = new Array(this.values.length).fill(false)
    for (const rg of entry.rowGroups) {
      rg.results.forEach((r, i) => {
        if (r.verdict === 'maybe' || r.verdict === 'present') {
          this.maybeGroups[i]++
          if (r.verdict === 'present') this.presentGroups[i]++
          inFile[i] = true
        } else if (r.verdict === 'absent') {
          const bySource = this.absentBySource[i]
          bySource.set(r.source, (bySource.get(r.source) ?? 0) + 1)
        } else if (r.verdict === 'unknown') {
          this.unknownGroups[i]++
          inFile[i] = true // "unknown" keeps the file in the running, like "maybe"
        }
      })
    }
    inFile.forEach((yes, i) => { if (yes) this.maybeFiles[i]++ })
  }

  /**
   * '42: maybe in 3 of 120 row groups (2 of 5 files)' per value, then the I/O line.
   * @param {number} failedFiles
   */
  text(failedFiles) {
    if (this.files === 0) return `no file could be probed (${failedFiles} failed)`
    /** @param {number} n */
    const groups = (n) => `${n} row group${n === 1 ? '' : 's'}`
    const lines = this.values.map((value, i) => {
      const unknown = this.unknownGroups[i] ? `, unknown in ${this.unknownGroups[i]}` : ''
      const ruledOut = [...this.absentBySource[i]].sort((a, b) => b[1] - a[1])
        .map(([source, n]) => `${n} by ${(source === null ? undefined : SOURCE_PHRASE[source]) ?? source}`)
      const present = this.presentGroups[i] ? ` (present in ${this.presentGroups[i]})` : ''
      return `${showValue(value)}: maybe in ${this.maybeGroups[i]} of ${groups(this.rowGroups)}${present}${unknown} ` +
        `(${this.maybeFiles[i]} of ${this.files} file${this.files === 1 ? '' : 's'})` +
        `${ruledOut.length ? `; ruled out ${ruledOut.join(', ')}` : ''}`
    })
    const failed = failedFiles ? `; ${failedFiles} file${failedFiles === 1 ? '' : 's'} failed` : ''
    const io = `${this.requests} request${this.requests === 1 ? '' : 's'}, ${formatBytes(this.bytesFetched)} read${failed}`
    if (lines.length === 1) return `${lines[0]}; ${io}`
    return [...lines, io].join('\n')
  }
}
