// The one policy for judging a bloom filter's health from its bits (BloomFilter.health()): which
// warnings a filter deserves, at which thresholds. `parquet-bloom inspect` and the demo both use it, so
// the same filter gets the same verdict everywhere.

// SBBF sets 8 bits per value, one per 32-bit word of a block, so a value is a false positive when all 8
// of its bits happen to be set: at a per-word fill f the false-positive rate is ≈ f^8. Fill 0.9 means
// ≈ 43% false positives and fill 0.92 means 50%: the filter no longer rules much out.
export const SATURATED_FILL = 0.9
export const SATURATED_FPP = 0.5
// Writers size filters for 1% (DuckDB, parquet-java, arrow defaults); 10% means it was undersized ~3x.
export const HIGH_FPP = 0.1
// Estimates are within a few percent for filters that are not saturated; the margin avoids noise on
// small row groups.
const NDV_SLACK_RATIO = 1.25
const NDV_SLACK_ABSOLUTE = 32

/** Every health warning code, its level ('bad': the filter misleads or rules out little; 'note'), and its meaning. */
export const HEALTH_CODES = Object.freeze(/** @satisfies {Record<string, { level: 'bad' | 'note', text: string }>} */ ({
  'saturated': {
    level: 'bad',
    text: `fill ≥ ${SATURATED_FILL * 100}% or implied false-positive rate ≥ ${SATURATED_FPP}: nearly every probe answers "maybe"`,
  },
  'high-fpp': {
    level: 'bad',
    text: `implied false-positive rate ≥ ${HIGH_FPP}: the filter was sized for fewer distinct values than it holds`,
  },
  'empty': { level: 'note', text: 'no bit is set although the row group has rows: fine only if every value in the chunk is null' },
  'all-blocks-identical': { level: 'bad', text: 'every 32-byte block holds the same bits: the writer did not spread values over blocks' },
  'ndv-exceeds-rows': {
    level: 'bad',
    text: 'the filter seems to hold more distinct values than the row group has rows (values from elsewhere?)',
  },
}))

/**
 * The health warnings of one filter, worst first: [{ code, level, message }].
 * @param {{ numBytes: number, bitsSet: number, fillRatio: number, estimatedNdv: number, estimatedFpp: number,
 *   allBlocksIdentical: boolean }} health BloomFilter.health()
 * @param {{ numRows?: number }} [chunk] the row group's row count, when known
 */
export function assessFilterHealth(health, { numRows } = {}) {
  /** @type {import('../index.js').HealthWarning[]} */
  const warnings = []
  /** @type {(code: keyof typeof HEALTH_CODES, message: string) => void} */
  const add = (code, message) => warnings.push({ code, level: HEALTH_CODES[code].level, message })
  const fpp = health.estimatedFpp
  const blocks = health.numBytes / 32
  const saturated = health.fillRatio >= SATURATED_FILL || fpp >= SATURATED_FPP
  if (saturated) {
    add('saturated', `${pct(health.fillRatio)} of the bits are set (implied false-positive rate ${round(fpp)}): ` +
      'nearly every probe answers "maybe", so the filter rules out almost nothing')
  } else if (fpp >= HIGH_FPP) {
    add('high-fpp', `implied false-positive rate ${round(fpp)} (${pct(health.fillRatio)} of the bits set): ` +
      'the filter was sized for fewer distinct values than it holds')
  }
  if (health.allBlocksIdentical && blocks > 1 && health.bitsSet > 0) {
    add('all-blocks-identical', `all ${blocks} blocks hold the same bits: the writer filled one block ` +
      'and copied it (or shared it), so the filter is as weak as a single 32-byte block')
  }
  if (!saturated && numRows !== undefined && Number.isFinite(health.estimatedNdv) &&
    health.estimatedNdv > numRows * NDV_SLACK_RATIO + NDV_SLACK_ABSOLUTE) {
    add('ndv-exceeds-rows', `the bits suggest ~${Math.round(health.estimatedNdv)} distinct values but the row group has ` +
      `${numRows} rows: the filter holds values that are not in this row group`)
  }
  if (health.bitsSet === 0 && (numRows === undefined || numRows > 0)) {
    add('empty', `no bit is set${numRows ? ` although the row group has ${numRows} rows` : ''}: every probe answers "absent" — ` +
      'right only if every value in this chunk is null')
  }
  return warnings
}

const pct = (/** @type {number} */ ratio) => `${Number((ratio * 100).toFixed(1))}%`
const round = (/** @type {number} */ p) => (p >= 0.001 ? String(Number(p.toPrecision(2))) : p.toExponential(1))
