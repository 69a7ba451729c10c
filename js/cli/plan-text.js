// The text of `probe --explain`: a probe's read plan (js/sources/io-ledger.js) round by round — which
// ranges of which files were read, what for, their bytes and times.
import { formatBytes } from './format.js'

// Requests listed per round; the rest of a round is summed up in one line.
const LISTED_PER_ROUND = 20

/** @type {(n: number, word: string) => string} */
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * @param {import('../index.js').ReadPlan} plan
 * @param {(name: string) => string} [label] how a file is named (default: as the plan names it)
 * @returns {string[]}
 */
export function planText(plan, label = (name) => name) {
  const { stats } = plan
  const lines = [`read plan: ${plural(stats.requests, 'request')}, ${formatBytes(stats.bytesFetched)}, ${plural(stats.rounds, 'round')}` +
    `${stats.retries ? `, ${plural(stats.retries, 'retry')}`.replace('retrys', 'retries') : ''}` +
    `${stats.heads ? `, ${stats.heads} HEAD${stats.heads === 1 ? '' : 's'}` : ''}`]
  /** @type {Map<number, import('../index.js').ReadPlan['requests']>} */
  const byRound = new Map()
  for (const r of plan.requests) {
    let list = byRound.get(r.round)
    if (!list) byRound.set(r.round, (list = []))
    list.push(r)
  }
  for (const round of plan.rounds) {
    const purposes = Object.entries(round.purposes).map(([p, n]) => `${p} ${n}`).join(', ')
    // A round with a listed request has both ends of its span (ReadPlan).
    const span = round.startMs === null || round.endMs === null ? '' : `  ${round.startMs.toFixed(1)}–${round.endMs.toFixed(1)} ms`
    lines.push(`  round ${round.round}: ${plural(round.requests, 'request')}, ${formatBytes(round.bytes)}${span}  (${purposes})`)
    const listed = (byRound.get(round.round) ?? []).sort((a, b) => a.startMs - b.startMs)
    for (const r of listed.slice(0, LISTED_PER_ROUND)) {
      const range = r.offset === null ? 'HEAD' : r.length === null ? 'whole' : `bytes ${r.offset}-${r.offset + r.length - 1}`
      const what = r.purposes ? r.purposes.join('+') : r.purpose
      lines.push(`    ${what.padEnd(14)} ${label(plan.files[r.file])}  ${range}  ${formatBytes(r.bytes)}  ` +
        `+${r.startMs.toFixed(1)} ms, ${r.ms.toFixed(1)} ms` +
        `${r.retry ? '  (retry)' : ''}${r.failed ? '  (failed)' : ''}`)
    }
    const more = round.requests - Math.min(listed.length, LISTED_PER_ROUND)
    if (more > 0) lines.push(`    … ${plural(more, 'more request')}`)
  }
  if (plan.listed.omitted) lines.push(`  (${plan.listed.omitted} requests past the first ${plan.listed.maxRequests} are counted, ` +
    'not listed)')
  return lines
}
