// `parquet-bloom index add`: one file copied with bloom filters (js/index-builder/add-indexes.js), and a
// summary of what was added, kept and skipped; `index build`: one sidecar index for many files (or one
// shard's segment of it); `index merge`: one index from the segments.
import { existsSync } from 'node:fs'

import { addIndexes, buildSidecarIndex, mergeSidecarSegments } from '../index-builder/index.js'
import { decryptionFromCommandLine } from './keys.js'
import { recordedValidatorLines } from './index-warning.js'

/**
 * @param {string} input
 * @param {Record<string, any>} options the parsed command line (js/cli/args.js)
 * @returns {Promise<string>} what to print
 */
export async function indexAdd(input, options) {
  const result = await addIndexes(input, options.output,
    { columns: options.column, fpp: options.fpp, ndv: options.ndv, replace: options.replace, pageIndex: options['page-index'],
    decryption: decryptionFromCommandLine(options) })
  if (options.json) {
    return `${JSON.stringify({
      file: input, output: options.output, bytesWritten: result.bytesWritten, added: result.added, pageIndexes: result.pageIndexes,
      skipped: result.skipped,
    }, null, 2)}\n`
  }
  const filterBytes = result.added.reduce((n, a) => n + a.length, 0)
  const pageIndexes = result.pageIndexes.length
    ? `, ${result.pageIndexes.length} page indexes (${result.pageIndexes.filter((p) => p.columnIndex).length} with a ColumnIndex)`
    : ''
  const encrypted = result.added.filter((a) => a.encrypted).length
  const lines = [`${input} → ${options.output}: ${result.added.length} bloom filters added ` +
    `(${filterBytes} bytes${encrypted ? `, ${encrypted} encrypted` : ''})${pageIndexes}, ${result.bytesWritten} bytes written`]
  const byReason = new Map()
  for (const s of result.skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s])
  for (const [reason, list] of byReason) {
    const what = reason === 'has-filter' ? 'kept their usable filter (--replace builds new ones)' : `skipped (${reason})`
    lines.push(`  ${list.length} chunks ${what}`)
    if (reason !== 'has-filter') {
      for (const s of list.slice(0, 5)) lines.push(`    row group ${s.rowGroup}, column ${s.column}: ${s.detail}`)
    }
  }
  return `${lines.join('\n')}\n`
}

/**
 * @param {string[]} inputs
 * @param {Record<string, any>} options the parsed command line (js/cli/args.js)
 * @returns {Promise<string>} what to print
 */
export async function indexBuild(inputs, options) {
  const update = options.update && existsSync(options.output) ? options.output : undefined
  const format = options.format === undefined ? undefined : /** @type {1 | 2} */ (Number(options.format))
  const result = await buildSidecarIndex(options.table !== undefined ? null : inputs, options.output, {
    columns: options.column, fpp: options.fpp, ndv: options.ndv, update, ...(format === undefined ? {} : { format }),
    ...(options.shard ? { shard: options.shard } : {}), ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.table !== undefined ? { table: options.table } : {}) })
  const { blob, ...shape } = result
  if (options.json) {
    return `${JSON.stringify({ output: options.output, ...(options.shard ? { shard: options.shard } : {}), ...shape }, null, 2)}\n`
  }
  const shard = options.shard ? ` segment ${options.shard.index}/${options.shard.count}` : ''
  const lines = [`${options.output} (format ${result.format}${shard}): ${result.files} files, ${result.chunks} column ` +
    `chunks indexed (${result.rebuilt} files read, ${result.kept} kept, ${result.dropped} dropped), ${result.bytesWritten} bytes`]
  for (const s of result.skipped.slice(0, 10)) {
    lines.push(`  ${s.file}${s.rowGroup !== undefined ? `, row group ${s.rowGroup}` : ''}${s.column ? `, column ${s.column}` : ''}: ` +
      `${s.detail}`)
  }
  if (result.table) {
    const at = result.table.format === 'iceberg' ? `snapshot ${result.table.snapshot}` : `version ${result.table.version}`
    lines.push(`  the table index records ${at}`)
  }
  lines.push(...recordedValidatorLines(result.validators))
  return `${lines.join('\n')}\n`
}

/**
 * @param {string[]} segments
 * @param {Record<string, any>} options the parsed command line (js/cli/args.js)
 * @returns {Promise<string>} what to print
 */
export async function indexMerge(segments, options) {
  const format = options.format === undefined ? undefined : /** @type {1 | 2} */ (Number(options.format))
  const { blob, ...result } = await mergeSidecarSegments(segments, options.output, format === undefined ? {} : { format })
  if (options.json) return `${JSON.stringify({ output: options.output, ...result }, null, 2)}\n`
  return `${options.output} (format ${result.format}): ${result.segments} segments merged, ${result.files} files, ${result.chunks} ` +
    `column chunks, ${result.bytesWritten} bytes\n`
}
