// The human form of an inspect report: a heading, one aligned table row per column chunk, and the
// warnings grouped by code with one example each.
import { describeColumnType } from '../index.js'
import { formatBytes, formatCount, formatPercent, formatProbability, formatTable } from './format.js'

/** @param {Awaited<ReturnType<typeof import('./inspect-command.js').inspectFile>>} report */
export function inspectText(report) {
  const groups = report.rowGroups.length
  const lines = [`${report.file}  ${formatBytes(report.size)}, ${report.numRows} rows in ${groups} row group${groups === 1 ? '' : 's'}` +
    `${report.createdBy ? `, created by ${report.createdBy}` : ''}`]
  const rows = [['rg', 'column', 'type', 'offset', 'length', 'header', 'bitset', 'fill', '~ndv', 'fpp', 'warnings']]
  const byCode = new Map()
  let filters = 0
  let filterBytes = 0
  for (const rg of report.rowGroups) {
    for (const column of rg.columns) {
      const type = describeColumnType(column)
      const b = column.bloom
      if (!b) {
        rows.push([String(rg.index), column.path, type, '-', '', '', '', '', '', '', 'no bloom filter'])
        continue
      }
      filters++
      filterBytes += b.numBytes ?? 0
      for (const w of b.warnings) {
        const seen = byCode.get(w.code)
        if (seen) seen.count++
        else byCode.set(w.code, { count: 1, where: `row group ${rg.index}, ${column.path}`, message: w.message })
      }
      rows.push([
        String(rg.index), column.path, type, String(b.offset), b.length === null ? 'absent' : String(b.length),
        b.headerBytes === null ? '?' : String(b.headerBytes), b.numBytes === null ? '?' : formatBytes(b.numBytes),
        b.fillRatio === null ? '-' : formatPercent(b.fillRatio),
          b.fillRatio === null ? '-' : `${b.warnings.some((w) => w.code === 'saturated') ? '≥' : ''}${formatCount(b.estimatedNdv)}`,
        b.fillRatio === null ? '-' : formatProbability(b.estimatedFpp), b.warnings.map((w) => w.code).join(',') || 'ok',
      ])
    }
  }
  lines.push(formatTable(rows, 'rllrrrrrrrl').replace(/^/gm, '  '))
  const chunks = groups * (report.rowGroups[0]?.columns.length ?? 0)
  const io = report.stats
    ? `; ${report.stats.requests} request${report.stats.requests === 1 ? '' : 's'}, ${formatBytes(report.stats.bytesFetched)} read`
    : ''
  lines.push(`  ${filters} of ${chunks} column chunks have a bloom filter (${formatBytes(filterBytes)} of bitsets)${io}`)
  for (const [code, { count, where, message }] of byCode) {
    lines.push(`  ${code} (${count} chunk${count === 1 ? '' : 's'}), e.g. ${where}: ${message}`)
  }
  lines.push(...coverageLines(report))
  return lines.join('\n')
}

/**
 * How probe-able each column is: in how many row groups it has usable statistics, a page index, only
 * dictionary-encoded data pages and a bloom filter; then why statistics were ignored, by reason.
 * @param {Awaited<ReturnType<typeof import('./inspect-command.js').inspectFile>>} report
 */
function coverageLines(report) {
  const groups = report.rowGroups.length
  const columns = report.rowGroups[0]?.columns ?? []
  if (columns.length === 0) return []
  /** @param {number} n */
  const share = (n) => (n === groups ? 'all' : n === 0 ? '-' : `${n}/${groups}`)
  const rows = [['column', 'statistics', 'page index', 'dictionary-only', 'bloom filter']]
  const ignored = new Map()
  columns.forEach((column, c) => {
    let stats = 0
    let pageIndex = 0
    let dictionary = 0
    let bloom = 0
    for (const rg of report.rowGroups) {
      const x = rg.columns[c].indexes
      if (x.statistics.usable) stats++
      else if (x.statistics.present) {
        const seen = ignored.get(x.statistics.reason)
        if (seen) seen.count++
        else ignored.set(x.statistics.reason, { count: 1, where: `row group ${rg.index}, ${column.path}`, detail: x.statistics.detail })
      }
      if (x.pageIndex.columnIndex) pageIndex++
      if (x.dictionary.allDataPages) dictionary++
      if (x.bloomFilter) bloom++
    }
    rows.push([column.path, share(stats), share(pageIndex), share(dictionary), share(bloom)])
  })
  const lines = ['  indexes a probe can use, per column (row groups):', formatTable(rows, 'lrrrr').replace(/^/gm, '    ')]
  for (const [reason, { count, where, detail }] of ignored) {
    lines.push(`  statistics ignored: ${reason} (${count} chunk${count === 1 ? '' : 's'}), e.g. ${where}: ${detail}`)
  }
  return lines
}
