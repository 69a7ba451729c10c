// What both sidecar readers (formats 1 and 2) do alike before their reads: the probe's values as a
// column of a given type stores them (candidates, hashes, sort keys), and the joining gap that makes a
// wave of block or bit-row reads one round; and the regions readBitset keeps for the next bitsets.
import { ParquetBloomError } from '../errors.js'
import { encodeProbeValues } from '../values/probe-values.js'
import { HashedCandidates } from '../indexes/bloom-reads.js'
import { BLOCK_MODE_COALESCE_GAP } from '../plan/read-scheduler.js'
import { sortKeys, sortOrderFor } from '../indexes/statistics.js'

/**
 * The coalescing gap that joins a wave's reads into at most `window` requests — one round, however many
 * files and row groups — by joining across the smallest gaps first (never less than block mode's).
 */
export function gapForOneRound(tasks, window) {
  const ranges = tasks.map((t) => [t.start, t.end]).sort((a, b) => a[0] - b[0])
  const gaps = []
  let end = -Infinity
  for (const [start, stop] of ranges) {
    if (start > end && end !== -Infinity) gaps.push(start - end)
    end = Math.max(end, stop)
  }
  if (gaps.length < window) return BLOCK_MODE_COALESCE_GAP
  gaps.sort((a, b) => a - b)
  // gaps.length + 1 separate ranges: joining the smallest (gaps.length + 1 - window) gaps leaves `window` requests.
  return Math.max(BLOCK_MODE_COALESCE_GAP, gaps[gaps.length - window] + 1)
}

/** The values as a column of this type stores them: candidates, their hashes and sort keys. */
export function encodeFor(type, list, path, column) {
  const leaf = { physicalType: type.physicalType, typeLength: type.typeLength ?? undefined, logicalType: type.logicalType }
  let encoded
  try {
    encoded = encodeProbeValues(leaf, list)
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    throw new ParquetBloomError(error.code, `${path}: column ${column}: ${error.message}`, { source: path, field: column, cause: error })
  }
  const hashed = new HashedCandidates(encoded.candidates, { type: encoded.physicalType, typeLength: encoded.typeLength }, BLOCK_MODE_COALESCE_GAP)
  const order = sortOrderFor(leaf)
  const keys = order ? sortKeys(order, encoded.candidates) : undefined
  return { encoded, hashed, order, keys }
}

/** Region bytes readBitset keeps for the next bitsets of the same regions (an index update copies them in order). */
const MAX_HELD_REGION_BYTES = 64 * 1024 * 1024

/** Keeps a region read whole in `held`, dropping the oldest ones beyond MAX_HELD_REGION_BYTES in all. */
export function holdRegion(held, regionIndex, bytes) {
  let total = bytes.length
  for (const [index, kept] of [...held].reverse()) {
    total += kept.length
    if (total > MAX_HELD_REGION_BYTES) held.delete(index)
  }
  held.set(regionIndex, bytes)
}
