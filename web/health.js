// The demo's view of filter health: the package's one health policy (assessFilterHealth, the same that
// `parquet-bloom inspect` applies) per filter, and a per-column summary grouped by warning code.
// Used by the demo worker, which passes the package's policy from the one copy of the package it loads;
// no I/O.

/**
 * Warnings for one filter, worst first: { code, level: 'bad' | 'note', text }.
 * @param {import('../js/index.js').FilterHealth} health BloomFilter.health()
 * @param {number | undefined} numRows rows of the filter's row group
 * @param {typeof import('../js/index.js').assessFilterHealth} assessFilterHealth the package's one health policy
 */
export function filterWarnings(health, numRows, assessFilterHealth) {
  return assessFilterHealth(health, { numRows })
    .map((w) => ({ code: w.code, level: w.level, text: `${w.code}: ${w.message}` }))
    .sort((a, b) => (a.level === b.level ? 0 : a.level === 'bad' ? -1 : 1))
}

/**
 * One line per column from the per-row-group checks: fill range, worst false-positive estimate and
 * the warnings with how many filters have each.
 * @param {Array<{ health?: import('../js/index.js').FilterHealth, warnings?: Array<{ code: string, level: string, text: string }>,
 *   error?: { code: string, message: string } }>} checks
 */
export function summarizeHealth(checks) {
  const healthy = checks.map((c) => c.health).filter((health) => health !== undefined)
  const fills = healthy.map((health) => health.fillRatio)
  const counts = new Map()
  for (const c of checks) {
    const items = c.error ? [{ code: c.error.code, level: 'bad', text: `unreadable: ${c.error.message}` }] : c.warnings ?? []
    for (const w of items) {
      // Grouped by the kind of problem (its code), not by each filter's exact numbers.
      const entry = counts.get(w.code) ?? { code: w.code, level: w.level, text: w.text, count: 0 }
      entry.count++
      counts.set(w.code, entry)
    }
  }
  return {
    checked: checks.length,
    minFill: fills.length ? Math.min(...fills) : undefined,
    maxFill: fills.length ? Math.max(...fills) : undefined,
    maxFpp: healthy.length ? Math.max(...healthy.map((health) => health.estimatedFpp)) : undefined,
    warnings: [...counts.values()].sort((a, b) => (a.level === b.level ? b.count - a.count : a.level === 'bad' ? -1 : 1)),
  }
}
