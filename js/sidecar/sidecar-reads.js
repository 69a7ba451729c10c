// How both sidecar readers (formats 1 and 2) read their index file and check the files it names: a wave
// of range reads joined into one round, regions kept whole for readBitset, files stat'ed or HEADed a
// window at a time (the caller's headers only to the index's own origin), and the stats both report,
// HEADs counted as requests of the index.
import { HttpSource } from '../sources/http-source.js'
import { BLOCK_MODE_COALESCE_GAP, runReadTasks } from '../plan/read-scheduler.js'
import { transportWindow } from '../plan/link-model.js'
import { startValidators } from './sidecar-currency.js'

/**
 * @typedef {import('../sources/open-byte-source.js').ByteSource} ByteSource
 * @typedef {ByteSource & Pick<import('../sources/shared.js').SourceBase, 'attachIo'>} IndexSource an index's bytes as
 *   openByteSource opens them, which a dataset probe's ledger can be attached to
 */

/**
 * The coalescing gap that joins a wave's reads into at most `window` requests — one round, however many
 * files and row groups — by joining across the smallest gaps first (never less than block mode's).
 * @param {Array<{ start: number, end: number }>} tasks
 * @param {number} window
 */
export function gapForOneRound(tasks, window) {
  const ranges = tasks.map((t) => [t.start, t.end]).sort((a, b) => a[0] - b[0])
  /** @type {number[]} */
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

/**
 * One wave of reads of the index file (its tasks' ranges, one round however many); its rounds.
 * @param {{ source: any, cache: any, link: import('../plan/link-model.js').LinkModel }} index
 * @param {import('../plan/read-scheduler.js').RangeTask[]} tasks
 * @param {AbortSignal | undefined} signal
 */
export async function readWave({ source, cache, link }, tasks, signal) {
  if (!tasks.length) return 0
  const remote = source instanceof HttpSource
  const window = transportWindow(source, remote)
  const { rounds } = await runReadTasks(tasks, {
    source, cache, link: remote ? link : undefined, concurrency: window, coalesceGap: gapForOneRound(tasks, window), signal,
  })
  return rounds
}

/** Region bytes readBitset keeps for the next bitsets of the same regions (an index update copies them in order). */
const MAX_HELD_REGION_BYTES = 64 * 1024 * 1024

/**
 * A region's bytes, read whole (`read()`) unless `held` has them; kept in `held`, the oldest dropped beyond
 * MAX_HELD_REGION_BYTES in all. `read` is called (a round of its own) only when they are not held.
 * @param {Map<number, Uint8Array>} held
 * @param {() => Promise<Uint8Array>} read
 * @param {number} regionIndex
 */
export async function heldRegion(held, regionIndex, read) {
  const kept = held.get(regionIndex)
  if (kept) return kept
  const bytes = await read()
  let total = bytes.length
  for (const [index, other] of [...held].reverse()) {
    total += other.length
    if (total > MAX_HELD_REGION_BYTES) held.delete(index)
  }
  held.set(regionIndex, bytes)
  return bytes
}

/**
 * Starts checking files (stat or HEAD), a window at a time, with the caller's headers only to the index's
 * own origin; `started.requests` of them count as requests of the index.
 * @param {string[]} paths
 * @param {{ source: ByteSource, fetch?: typeof globalThis.fetch, headers?: HeadersInit, signal?: AbortSignal,
 * ioLane?: import('../sources/io-ledger.js').IoLane }} io
 */
export function checkFiles(paths, { source, fetch, headers, signal, ioLane }) {
  const url = paths.find((p) => /^https?:\/\//i.test(p))
  return startValidators(paths, {
    fetch, signal, headers, origin: originOf(source), window: transportWindow({ name: url ?? source.name }, url !== undefined), ioLane,
  })
}

/**
 * The index's own origin when it is read over HTTP (its caller's headers are for that host).
 * @param {ByteSource} source
 */
function originOf(source) {
  try {
    return source instanceof HttpSource ? new URL(source.name).origin : undefined
  } catch {
    return undefined
  }
}

/**
 * { requests, bytesFetched, rounds, heads } of an index: its reads and its checks of files (`heads`).
 * @param {ByteSource} source
 * @param {number} rounds
 * @param {number} checks
 */
export function indexStats(source, rounds, checks) {
  const { requests, bytesFetched } = source.stats
  return { requests: requests + checks, bytesFetched, rounds, heads: checks }
}
