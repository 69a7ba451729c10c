// The read plan of a probe (`plan: true`, js/sources/io-ledger.js) drawn as a waterfall per round: each
// request a bar on one time axis — which file, which range, what for, its bytes and time.
import { formatBytes, plural } from './format.js'

// Requests drawn per round; the rest of a round is one line.
const DRAWN_PER_ROUND = 40

/**
 * The last path segment of a URL or path, for a row label (the whole name is the row's title).
 * @param {string} name
 */
function shortName(name) {
  const clean = name.split('?')[0].replace(/\/+$/, '')
  return clean.slice(clean.lastIndexOf('/') + 1) || name
}

const escape = (/** @type {unknown} */ text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Fills `container` with the plan's waterfall (hides it when there is none).
 * @param {HTMLElement} container
 * @param {import('../js/index.js').ReadPlan | undefined} plan
 */
export function renderPlan(container, plan) {
  container.hidden = !plan
  if (!plan) {
    container.innerHTML = ''
    return
  }
  const drawn = plan.requests
  const start = Math.min(...drawn.map((r) => r.startMs), Infinity)
  const end = Math.max(...drawn.map((r) => r.startMs + r.ms), -Infinity)
  const span = Math.max(end - start, 0.1)
  const at = (/** @type {number} */ ms) => `${(((ms - start) / span) * 100).toFixed(2)}%`
  /** @type {Map<number, import('../js/index.js').ReadPlan['requests']>} */
  const byRound = new Map()
  for (const r of drawn) {
    const inRound = byRound.get(r.round)
    if (inRound) inRound.push(r)
    else byRound.set(r.round, [r])
  }
  const { stats } = plan
  const rows = [`<p class="plan-head"><strong>Read plan</strong>: ${plural(stats.requests, 'request')}, ${formatBytes(stats.bytesFetched)}, ${plural(stats.rounds, 'round')}` +
    `${stats.heads ? `, ${plural(stats.heads, 'HEAD')}` : ''}${stats.retries ? `, ${plural(stats.retries, 'retry', 'retries')}` : ''} <span class="muted small">(bars: when each request ran, ${span.toFixed(1)} ms in all)</span></p>`]
  rows.push('<table class="plan"><tbody>')
  for (const round of plan.rounds) {
    const purposes = Object.entries(round.purposes).map(([p, n]) => `${escape(p)} ${n}`).join(' · ')
    rows.push(`<tr class="plan-round" data-round="${round.round}"><th colspan="5">Round ${round.round} <span class="muted small">${plural(round.requests, 'request')}, ${formatBytes(round.bytes)} — ${purposes}</span></th></tr>`)
    const listed = (byRound.get(round.round) ?? []).sort((a, b) => a.startMs - b.startMs)
    for (const r of listed.slice(0, DRAWN_PER_ROUND)) {
      const name = plan.files[r.file]
      // offset null: a HEAD, or a suffix read the server did not place (416 to a suffix longer than the object, say).
      const range = r.offset === null ? (r.length === null ? 'HEAD' : `last ${r.length} bytes`)
        : r.length === null ? 'whole object' : `${r.offset}–${r.offset + r.length - 1}`
      const purpose = r.purposes ? r.purposes.join(' + ') : r.purpose
      // data-file/-offset/-length: what the request read, as data (the browser tests hold it to the server's log).
      rows.push(`<tr class="plan-request" data-request data-purpose="${escape(r.purpose)}" data-round="${r.round}" data-file="${escape(name)}"` +
        ` data-offset="${r.offset ?? ''}" data-length="${r.length ?? ''}">` +
        `<td><span class="plan-purpose p-${escape(r.purpose)}">${escape(purpose)}</span></td>` +
        `<td class="plan-file" title="${escape(name)}">${escape(shortName(name))}</td>` +
        `<td class="muted small">${escape(range)}</td><td class="num">${formatBytes(r.bytes)}</td>` +
        `<td class="plan-lane"><span class="plan-bar p-${escape(r.purpose)}${r.failed ? ' failed' : ''}" style="left:${at(r.startMs)};width:max(2px,${((r.ms / span) * 100).toFixed(2)}%)" title="${r.ms.toFixed(1)} ms"></span></td></tr>`)
    }
    const more = round.requests - Math.min(listed.length, DRAWN_PER_ROUND)
    if (more > 0) rows.push(`<tr class="plan-more"><td colspan="5" class="muted small">… ${plural(more, 'more request')} in this round</td></tr>`)
  }
  rows.push('</tbody></table>')
  if (plan.listed.omitted) rows.push(`<p class="muted small">${plural(plan.listed.omitted, 'request')} past the first ${plan.listed.maxRequests} are counted, not drawn.</p>`)
  container.innerHTML = rows.join('')
}
