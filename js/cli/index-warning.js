// The CLI's words on a sidecar index (--index, `index build`): the one warning line a probe prints when the
// index did not describe some of its files — how many, and why, from the stable codes the dataset probe
// gives per file (js/sidecar/sidecar-currency.js StaleReason) — and what `index build` recorded.

/** @type {Record<string, string>} */
const KIND_WORDS = { 'mtime': 'local modification times', 'etag': 'ETags', 'last-modified': 'Last-Modified dates',
  'unsettled': 'validators too recent to tell versions apart', 'other': 'validators of another form', 'none': 'no validator' }
const HTTP_KINDS = new Set(['etag', 'last-modified'])

/**
 * What to do about files not described, for one kind of mismatch of validators.
 * @param {string} recorded the kind of validator the index recorded
 * @param {string} found the kind the file has now
 */
function kindHint(recorded, found) {
  if (recorded === 'mtime' && HTTP_KINDS.has(found)) {
    return `the index records local modification times (it was built from local paths) and the files are ` +
      `served with ${KIND_WORDS[found]}, which never match them: build the index from the files' URLs`
  }
  if (HTTP_KINDS.has(recorded) && found === 'mtime') {
    return `the index records ${KIND_WORDS[recorded]} (it was built from URLs) and the files are read by local path: build the index ` +
      'from the local paths'
  }
  if (HTTP_KINDS.has(recorded) && (found === 'last-modified' || found === 'none')) {
    return `the index records ${KIND_WORDS[recorded]} and the server ` +
      `now sends ${found === 'none' ? 'neither ETag nor Last-Modified' : 'only Last-Modified dates'}, which cannot show a file unchanged`
  }
  return `the index records ${KIND_WORDS[recorded] ?? recorded} and the files have ${KIND_WORDS[found] ?? found}`
}

/** @type {Record<string, string>} */
const REASON_HINTS = {
  'missing-from-index': 'files new since the index was built',
  'size-differs': 'files changed since the index was built',
  'validator-differs': 'files changed since the index was built',
  'file-gone': 'files gone since the index was built',
  'validator-unsettled': 'files written too shortly before the index was built for their mtime or Last-Modified to tell a rewrite apart',
  // --update would keep them (same size, no validator to differ): only a new build reads them again.
  'row-groups-differ': 'files replaced by others of the same size that no validator told apart: build the index again',
  'no-path': 'files without a path or URL to look up',
}

/**
 * One line (no newline), or undefined when the index described every file it was asked about.
 * @param {Array<{ described: boolean, reason?: string, validators?: { recorded: string, found: string } } | undefined>} statuses
 *   per file probed, its `index` (undefined: the index was not asked about it)
 */
export function indexWarning(statuses) {
  const asked = statuses.filter((s) => s != null)
  const missed = asked.filter((s) => !s.described)
  if (!missed.length) return undefined
  /** @type {Map<string | undefined, number>} */
  const byReason = new Map()
  for (const s of missed) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1)
  const counts = [...byReason].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} ${reason}`)
  const hints = new Set()
  for (const s of missed) {
    if (s.reason === 'validator-kind-differs' && s.validators) hints.add(kindHint(s.validators.recorded, s.validators.found))
    else if (s.reason !== undefined && REASON_HINTS[s.reason]) hints.add(REASON_HINTS[s.reason])
  }
  if (['missing-from-index', 'size-differs', 'validator-differs', 'file-gone', 'validator-unsettled'].some((r) => byReason.has(r))) {
    hints.add('parquet-bloom index build --update brings the index up to date')
  }
  const all = missed.length === asked.length
  const which = all ? (asked.length === 1 ? 'the' : `any of the ${asked.length}`) : `${missed.length} of ${asked.length}`
  return `parquet-bloom: warning: the sidecar index did not describe ${which} file${asked.length === 1 ? '' : 's'}` +
    ` (probed without it): ${counts.join(', ')}${hints.size ? ` — ${[...hints].join('; ')}` : ''}`
}

/**
 * What `index build` recorded to tell files apart, one line per kind of validator: a probe compares it,
 * and an index matches only files checked the same way (an mtime by local path, an ETag over HTTP).
 * @param {Record<string, number>} validators how many files with each kind (buildSidecarIndex's result)
 */
export function recordedValidatorLines(validators) {
  /** @param {number} n */
  const files = (n) => `${n} file${n === 1 ? '' : 's'}`
  const lines = []
  for (const [kind, n] of Object.entries(validators)) {
    if (kind === 'mtime') {
      lines.push(`recorded local modification times (mtime) for ${files(n)}: they match these files read by local path; ` +
        'served over HTTP, a file\'s ETag or Last-Modified never matches an mtime, so a probe over HTTP would not use the index: ' +
        'for that, build it from the files\' URLs')
    } else if (kind === 'etag') {
      lines.push(`recorded ETags for ${files(n)}: they match these URLs while their server sends the same ETag (a weak one, W/, ` +
        'recorded only where the server sent nothing else, shows a change but not that the bytes are the same)')
    } else if (kind === 'last-modified') {
      lines.push(`recorded Last-Modified dates for ${files(n)} (their server sent no strong ETag): a rewrite of the same size within the ` +
        'same second would not be noticed')
    } else if (kind === 'none') {
      lines.push(`recorded no validator for ${files(n)} (their server sent neither ETag nor Last-Modified): only their size tells a ` +
        'changed file apart')
    } else if (kind === 'unsettled') {
      lines.push(`recorded no settled validator for ${files(n)} (an mtime or Last-Modified, or an ETag sent with one, so recent that ` +
        'a rewrite of the same size could keep it): they answer stale-index until the index is built or updated again')
    } else {
      lines.push(`recorded ${kind} validators for ${files(n)}`)
    }
  }
  return lines
}
