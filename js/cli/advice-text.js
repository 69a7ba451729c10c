// The text of `parquet-bloom inspect --advise` (js/advice/advise.js): one row per column, what each index
// would prune of probes of the column's own values and what filters would cost.
import { formatBytes, formatTable } from './format.js'

/**
 * The text of `inspect --advise`: one row per column.
 * @param {{ file: string, columns: Awaited<ReturnType<typeof import('../advice/advise.js').adviseIndexes>> }} advice
 * @param {number} fpp the filters' false-positive rate
 */
export function adviceText({ file, columns }, fpp) {
  /** @param {number | null | undefined} x */
  const percent = (x) => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)}%`)
  const rows = [['column', 'type', 'row groups read', '~distinct / rg', 'absent (most any index prunes)', 'statistics prune',
    `bloom @ ${fpp}`, 'both', 'filter bytes', 'has filters']]
  for (const c of columns) {
    if ('skipped' in c) {
      rows.push([c.column, c.physicalType, '', '', c.skipped, '', '', '', '', ''])
      continue
    }
    rows.push([c.column, c.physicalType, String(c.sampledRowGroups), c.distinctPerRowGroup.toFixed(0), percent(c.prune.ideal),
      percent(c.prune.statistics),
      percent(c.prune.bloomFilter), percent(c.prune.withStatistics), formatBytes(c.filterBytes), c.hasFilters ? 'yes' : 'no'])
  }
  return `${file}: pruning for probes of each column's own values (share of value × other row group pairs)\n${formatTable(rows)}\n`
}
