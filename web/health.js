// Reads a bloom filter's health numbers (BloomFilter.health()) as a person would: what is wrong with the
// filter, if anything. Shared by the demo worker and the page; no I/O.

/** A filter whose estimated false-positive rate is above this lets too many absent values through. */
export const OVERFULL_FPP = 0.05
/** More than this share of empty 32-byte blocks means the filter is much larger than its values need. */
export const OVERSIZED_EMPTY_SHARE = 0.5

const percent = (x) => `${x >= 0.01 ? (x * 100).toFixed(0) : (x * 100).toPrecision(2)}%`

/**
 * Warnings for one filter, worst first: { level: 'bad' | 'note', text }.
 * @param {{ numBytes: number, bitsSet: number, estimatedFpp: number, saturatedWords: number,
 *   emptyBlocks: number, allBlocksIdentical: boolean }} health
 */
export function filterWarnings(health) {
  const warnings = []
  const blocks = health.numBytes / 32
  if (health.bitsSet === 0) {
    warnings.push({ level: 'note', text: 'empty: no value was hashed into it (only nulls, or a writer bug)' })
    return warnings
  }
  if (health.estimatedFpp > OVERFULL_FPP) {
    warnings.push({ level: 'bad', text: `overfull: about ${percent(health.estimatedFpp)} of absent values will read "maybe"` })
  }
  if (health.allBlocksIdentical && blocks > 1) {
    warnings.push({ level: 'bad', text: 'every block is identical: values were not spread over the blocks (wrong hash?)' })
  }
  if (health.saturatedWords > 0) {
    warnings.push({ level: 'bad', text: `${health.saturatedWords} fully set 32-bit word${health.saturatedWords === 1 ? '' : 's'}` })
  }
  if (blocks > 1 && health.emptyBlocks / blocks > OVERSIZED_EMPTY_SHARE) {
    warnings.push({ level: 'note', text: `oversized: ${percent(health.emptyBlocks / blocks)} of its blocks are empty` })
  }
  return warnings
}

/**
 * One line per column from the per-row-group checks: fill range, worst false-positive estimate and
 * the warnings with how many filters have each.
 * @param {Array<{ health?: object, warnings?: Array<{ level: string, text: string }>, error?: string }>} checks
 */
export function summarizeHealth(checks) {
  const healthy = checks.filter((c) => c.health)
  const fills = healthy.map((c) => c.health.fillRatio)
  const counts = new Map()
  for (const c of checks) {
    const items = c.error ? [{ level: 'bad', text: `unreadable: ${c.error}` }] : c.warnings ?? []
    for (const w of items) {
      // Group by the kind of problem (text before the colon), not by each filter's exact numbers.
      const kind = w.text.split(':')[0]
      const entry = counts.get(kind) ?? { level: w.level, text: w.text, count: 0 }
      entry.count++
      counts.set(kind, entry)
    }
  }
  return {
    checked: checks.length,
    minFill: fills.length ? Math.min(...fills) : undefined,
    maxFill: fills.length ? Math.max(...fills) : undefined,
    maxFpp: healthy.length ? Math.max(...healthy.map((c) => c.health.estimatedFpp)) : undefined,
    warnings: [...counts.values()].sort((a, b) => (a.level === b.level ? b.count - a.count : a.level === 'bad' ? -1 : 1)),
  }
}
