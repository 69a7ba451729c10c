// A file's answer per value, rolled up from its row groups' answers (js/verdicts.js): present when a row
// group holds it, absent only when every row group rules it out, maybe when one may hold it, else
// unknown. A file is never "absent" on the word of some of its row groups.
import { valueResult } from '../verdicts.js'

/**
 * @param {Array<{ results: import('../verdicts.js').ValueResult[] }>} rowGroups
 * @param {number} k the value's position
 * @param {unknown} value
 * @returns {import('../verdicts.js').ValueResult}
 */
export function rollUpValue(rowGroups, k, value) {
  if (rowGroups.length === 0) return valueResult(value, 'absent', 'statistics', 'empty-row-group', 'the file has no row groups')
  const results = rowGroups.map((g) => g.results[k])
  const present = results.filter((r) => r.verdict === 'present')
  if (present.length) {
    const rows = present.flatMap((r) => r.rows ?? [])
    const out = valueResult(value, 'present', present[0].source, present[0].reason,
      `${present.length} of ${results.length} row groups hold it`)
    if (present.some((r) => r.rows)) out.rows = rows
    if (present.some((r) => r.rowsTruncated)) out.rowsTruncated = true
    return out
  }
  const maybe = results.find((r) => r.verdict === 'maybe')
  if (maybe) {
    const count = results.filter((r) => r.verdict === 'maybe').length
    return valueResult(value, 'maybe', maybe.source, maybe.reason,
      `${count} of ${results.length} row groups may hold it; the first: ${maybe.detail}`)
  }
  const unknown = results.find((r) => r.verdict === 'unknown')
  if (unknown) {
    const count = results.filter((r) => r.verdict === 'unknown').length
    return valueResult(value, 'unknown', unknown.source, unknown.reason,
      `${count} of ${results.length} row groups could not answer; the first: ${unknown.detail}`)
  }
  // Every row group ruled it out: credit the index that ruled out the most of them.
  const bySource = new Map()
  for (const r of results) {
    const key = `${r.source}\u0000${r.reason}`
    bySource.set(key, (bySource.get(key) ?? 0) + 1)
  }
  const [top] = [...bySource.entries()].sort((a, b) => b[1] - a[1])[0]
  const [source, reason] = top.split('\u0000')
  const detail = `all ${results.length} row groups ` +
    `ruled it out (${[...bySource.entries()].map(([key, n]) => `${key.split('\u0000')[0]}: ${n}`).join(', ')})`
  return valueResult(value, 'absent', source, reason, detail)
}
