// A file's answer per value, rolled up from its row groups' answers (js/verdicts.js): present when a row
// group holds it, absent only when every row group rules it out, maybe when one may hold it, else
// unknown. A file is never "absent" on the word of some of its row groups.
import { valueResult } from '../verdicts.js'

/**
 * One pass over the row groups' answers (a dataset rolls up every value of every file): counts, the first of
 * each verdict, and whether every 'absent' came from one index for one reason.
 * @param {Array<{ results: import('../verdicts.js').ValueResult[] }>} rowGroups
 * @param {number} k the value's position
 * @param {unknown} value
 * @returns {import('../verdicts.js').ValueResult}
 */
export function rollUpValue(rowGroups, k, value) {
  const n = rowGroups.length
  if (n === 0) return valueResult(value, 'absent', 'statistics', 'empty-row-group', 'the file has no row groups')
  let present = 0
  let maybe = 0
  let unknown = 0
  /** @type {import('../verdicts.js').ValueResult | undefined} */
  let first
  let withRows = false
  let truncated = false
  let oneCause = true
  for (let g = 0; g < n; g++) {
    const r = rowGroups[g].results[k]
    if (r.verdict === 'present') {
      if (present++ === 0) first = r
      if (r.rows) withRows = true
      if (r.rowsTruncated) truncated = true
    } else if (r.verdict === 'maybe') {
      if (maybe++ === 0 && !present) first = r
    } else if (r.verdict === 'unknown') {
      if (unknown++ === 0 && !present && !maybe) first = r
    } else if (!present && !maybe && !unknown) {
      if (first === undefined) first = r
      else if (r.source !== first.source || r.reason !== first.reason) oneCause = false
    }
  }
  const top = /** @type {import('../verdicts.js').ValueResult} */ (first) // n > 0: every row group was counted
  if (present) {
    const out = valueResult(value, 'present', top.source, top.reason, shared(`${present} of ${n} row groups hold it`))
    if (withRows) {
      out.rows = presentRows(rowGroups, k)
      const values = presentRowValues(rowGroups, k)
      if (values) out.values = values
    }
    if (truncated) out.rowsTruncated = true
    return out
  }
  if (maybe) return valueResult(value, 'maybe', top.source, top.reason,
      shared(`${maybe} of ${n} row groups may hold it; the first: ${top.detail}`))
  if (unknown) {
    return valueResult(value, 'unknown', top.source, top.reason,
      shared(`${unknown} of ${n} row groups could not answer; the first: ${top.detail}`))
  }
  // Every row group ruled it out: credit the index that ruled out the most of them.
  if (oneCause) {
    const source = `${top.source}`
    return valueResult(value, 'absent', source, `${top.reason}`, shared(`all ${n} row groups ruled it out (${source}: ${n})`))
  }
  return absentByCauses(rowGroups, k, value)
}

// A dataset keeps every file's answers, and most files' details read alike ("all 5 row groups ruled it out
// (statistics: 5)"): one string kept for each text, not one per file (a string and its pieces, ~90 bytes), up to this
// many texts at once.
const MOST_SHARED = 1024
/** @type {Map<string, string>} */
const details = new Map()

/** `text`, or the string of the same text handed out before. @param {string} text */
function shared(text) {
  const known = details.get(text)
  if (known !== undefined) return known
  if (details.size >= MOST_SHARED) details.clear()
  details.set(text, text)
  return text
}

/**
 * The rows of the row groups that hold value k, in row-group order.
 * @param {Array<{ results: import('../verdicts.js').ValueResult[] }>} rowGroups
 * @param {number} k
 */
function presentRows(rowGroups, k) {
  /** @type {number[]} */
  const rows = []
  for (const { results } of rowGroups) {
    const r = results[k]
    if (r.verdict === 'present' && r.rows) for (const row of r.rows) rows.push(row)
  }
  return rows
}

/**
 * With `columns`, the row values of the rows presentRows lists, parallel to them; undefined when a row group
 * holding the value has rows without their values.
 * @param {Array<{ results: import('../verdicts.js').ValueResult[] }>} rowGroups
 * @param {number} k
 */
function presentRowValues(rowGroups, k) {
  /** @type {Array<Record<string, unknown>>} */
  const values = []
  for (const { results } of rowGroups) {
    const r = results[k]
    if (r.verdict !== 'present' || !r.rows) continue
    if (!r.values || r.values.length !== r.rows.length) return undefined
    for (const v of r.values) values.push(v)
  }
  return values
}

/**
 * A value every row group ruled out, for more than one cause: credited to the cause that ruled out the most.
 * @param {Array<{ results: import('../verdicts.js').ValueResult[] }>} rowGroups
 * @param {number} k
 * @param {unknown} value
 */
function absentByCauses(rowGroups, k, value) {
  const bySource = new Map()
  for (const { results } of rowGroups) {
    const r = results[k]
    const key = `${r.source}\u0000${r.reason}`
    bySource.set(key, (bySource.get(key) ?? 0) + 1)
  }
  const [top] = [...bySource.entries()].sort((a, b) => b[1] - a[1])[0]
  const [source, reason] = top.split('\u0000')
  const detail = `all ${rowGroups.length} row groups ` +
    `ruled it out (${[...bySource.entries()].map(([key, n]) => `${key.split('\u0000')[0]}: ${n}`).join(', ')})`
  return valueResult(value, 'absent', source, /** @type {import('../verdicts.js').ReasonCode} */ (reason), detail)
}
