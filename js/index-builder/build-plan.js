// How a sidecar index build reads many files at once: a bounded number of files in flight through one
// window of requests (js/dataset/request-window.js), each file's validator (a URL's from its tail read's
// response, a local file's stat beside it) and footer in one round, then every indexed chunk's bytes read
// together (the next round: ranges joined across small
// gaps), then its filters built — while the files before and after it are doing the same. Entries come
// out in input order, whatever order the files finish in, so the index is the same as one built one file
// at a time. Memory: the files in flight, their tails, and at most `budgetBytes` of prefetched chunk bytes.
import { openParquet } from '../parquet-file.js'
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { buildChunkFilter, DEFAULT_WINDOW_BYTES, FILTERABLE_TYPES } from './chunk-filter.js'
import { decodeHeaderBytes } from '../indexes/bloom-header.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunkByteRange } from '../indexes/page-index.js'
import { fileValidator } from '../sidecar/sidecar-index.js'
import { encodeBound } from '../sidecar/sidecar-directory.js'
import { layoutEncrypted } from './add-indexes.js'
import { RequestWindow } from '../dataset/request-window.js'
import { throwIfAborted } from '../plan/read-scheduler.js'
import { validatorFromHeaders } from '../sources/validator.js'
import { recordedValidator } from '../sources/validator-text.js'
import { scheduledFetch } from '../sources/scheduled-fetch.js'

/** Files read at once: local files are CPU-bound (a few keep the disk busy); URLs wait on the link. */
export const LOCAL_FILES_IN_FLIGHT = 8
export const REMOTE_FILES_IN_FLIGHT = 32
/** Chunk bytes read ahead, over all files in flight: what bounds the build's memory beside its filters. */
export const DEFAULT_PREFETCH_BUDGET = 64 * 1024 * 1024
/** Chunks closer than this are read as one range. */
const JOIN_GAP = 64 * 1024

/**
 * A budget of bytes shared by the files in flight: a file takes what its chunk reads need before it
 * sends them and gives it back when its filters are built. A file needing more than the whole budget
 * waits for all of it (so it runs alone), never forever.
 */
export class ByteBudget {
  #free
  /** @type {Array<{ want: number, resolve: () => void }>} the files waiting for bytes, first come first served */
  #waiting = []
  /** @param {number} bytes */
  constructor(bytes) {
    this.total = bytes
    this.#free = bytes
  }

  /** @param {number} bytes */
  async take(bytes) {
    const want = Math.min(bytes, this.total)
    if (this.#waiting.length === 0 && this.#free >= want) {
      this.#free -= want
      return want
    }
    await /** @type {Promise<void>} */ (new Promise((resolve) => this.#waiting.push({ want, resolve })))
    return want
  }

  /** @param {number} taken */
  give(taken) {
    this.#free += taken
    while (this.#waiting.length && this.#free >= this.#waiting[0].want) {
      const next = /** @type {{ want: number, resolve: () => void }} */ (this.#waiting.shift())
      this.#free -= next.want
      next.resolve()
    }
  }
}

/**
 * Runs `job` over `items` with at most `limit` started and not yet handed on, and yields the results in
 * the items' order. A failure stops new jobs, lets the started ones settle, then is thrown.
 * @template I, R
 * @param {I[]} items
 * @param {number} limit
 * @param {(item: I, index: number) => Promise<R>} job
 * @returns {AsyncGenerator<R>}
 */
export async function* inOrder(items, limit, job) {
  /** @type {Promise<R>[]} */
  const started = []
  let next = 0
  const start = () => {
    while (next < items.length && started.length < limit) {
      const i = next++
      const promise = job(items[i], i)
      promise.catch(() => {}) // observed below, in order; a later failure must not go unhandled meanwhile
      started.push(promise)
    }
  }
  try {
    start()
    while (started.length) {
      const result = await started[0]
      started.shift()
      start()
      yield result
    }
  } finally {
    next = items.length
    await Promise.allSettled(started)
  }
}

/**
 * What the files of a build are read through: one window of requests for URLs, the files in flight,
 * and the prefetch budget.
 * @param {string[]} inputs
 * @param {{ concurrency?: number, fetch?: typeof globalThis.fetch, prefetchBytes?: number }} options
 */
export function buildReading(inputs, { concurrency, fetch, prefetchBytes }) {
  const remote = inputs.some((i) => typeof i === 'string' && /^https?:\/\//i.test(i))
  const filesInFlight = Math.max(1, concurrency ?? (remote ? REMOTE_FILES_IN_FLIGHT : LOCAL_FILES_IN_FLIGHT))
  // A file's tail read, then its chunk reads (an update's HEAD before them): room for two per file in flight.
  const window = new RequestWindow(Math.max(2, filesInFlight * 2))
  return {
    filesInFlight,
    fetch: remote ? window.windowedFetch(fetch) : fetch,
    window: window.size,
    budget: new ByteBudget(prefetchBytes ?? DEFAULT_PREFETCH_BUDGET),
  }
}

/**
 * One file's entry, its chunks' bitsets with it: the validator (a stat beside the footer's read, or
 * the headers of a URL's tail read) and the footer, then the indexed chunks' bytes in one wave, then the
 * filters. `known`: the validator when already known (an update's HEAD).
 * @param {string} input
 * @param {string} recorded the path the index records
 * @param {{ columns: string[], fpp: number, ndv: 'auto' | number, signal?: AbortSignal,
 *   columnIn?: (layout: import('../footer/footer.js').FileLayout, name: string) => string | string[] | null }} options
 * @param {ReturnType<typeof buildReading>} reading
 * @param {{ size: number, validator: string | null }} [known]
 * @returns {Promise<{ file: import('./sidecar-sliced-writer.js').SlicedFileInput,
 *   skipped: Array<{ file: string, rowGroup?: number, column?: string, detail: string }> }>}
 */
export async function readFileEntry(input, recorded, options, reading, known) {
  const { signal } = options
  // A URL's validator is the one its first response (the tail read) carries, as a HEAD would give it: no HEAD.
  const remote = known === undefined && typeof input === 'string' && /^https?:\/\//i.test(input)
  /** @type {any} */
  let firstHeaders
  const fetchFirst = remote ? scheduledFetch(reading.fetch, async (send) => {
    const response = /** @type {any} */ (await send())
    firstHeaders ??= response.headers
    return response
  }) : reading.fetch
  // A local file is stat'ed before it is read (localValidator waits while its mtime is too recent): bytes read after a
  // settled stat are the version it saw, or a later write gives the file a later mtime, which a probe sees.
  const local = known ?? (remote ? undefined : await localValidator(input, { fetch: reading.fetch, signal }))
  const file = await openParquet(input, { signal, fetch: fetchFirst, concurrency: reading.window })
  const validator = local ?? { size: file.fileSize, validator: firstHeaders ? validatorOfResponse(firstHeaders) : null }
  const skipped = []
  let taken = 0
  try {
    const { layout, metadataOffset } = file
    if (layoutEncrypted(layout)) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTED,
        `${file.name}: the file is encrypted; sidecar indexes of encrypted files are not supported ` +
        '(they would hold what the keys protect)', { source: file.name })
    }
    /** @type {Record<string, import('../sidecar/sidecar-layout.js').ColumnType>} */
    const columns = {}
    /** @type {Array<[string, import('../footer/footer.js').LeafColumn]>} by the name the index records */
    const leaves = []
    for (const name of options.columns) {
      let column
      try {
        // A table index names a column as the table does; a file's Parquet column may be found otherwise
        // (by an Iceberg field id, or Delta's physical name): options.columnIn says which, null for none.
        const found = options.columnIn ? options.columnIn(layout, name) : name
        if (found === null) throw new ParquetBloomError(ErrorCode.COLUMN_NOT_FOUND, `${file.name}: no column for ${name}`)
        column = file.column(found)
      } catch (error) {
        if (/** @type {ParquetBloomError} */ (error)?.code !== ErrorCode.COLUMN_NOT_FOUND) throw error
        skipped.push({ file: recorded, column: name, detail: 'the file has no such column' })
        continue
      }
      if (!FILTERABLE_TYPES.has(column.physicalType)) {
        throw invalidArgument(`${file.name}: column ${column.name} is ${column.physicalType}; ` +
          `bloom filters are built for ${[...FILTERABLE_TYPES].join(', ')}`)
      }
      // Recorded by the column's dotted path, as probes name it (a table index: as the table names it).
      const indexedName = options.columnIn ? name : column.name
      columns[indexedName] = {
        physicalType: column.physicalType, typeLength: column.typeLength ?? null, logicalType: column.logicalType ?? null,
      }
      leaves.push([indexedName, column])
    }
    const ranges = joinedRanges(chunkRanges(layout, metadataOffset, leaves), reading.budget.total)
    const wanted = ranges.reduce((n, r) => n + r.end - r.start, 0)
    taken = await reading.budget.take(wanted)
    const held = await Promise.all(ranges.map(async (r) => ({
      start: r.start, bytes: await file.readRange(r.start, r.end - r.start, { signal }),
    })))
    /**
     * @param {number} offset
     * @param {number} length
     */
    const read = (offset, length) => {
      const within = held.find((h) => offset >= h.start && offset + length <= h.start + h.bytes.length)
      return within
        ? Promise.resolve(within.bytes.subarray(offset - within.start, offset - within.start + length))
        : file.readRange(offset, length, { signal })
    }
    const rowGroups = []
    for (let g = 0; g < layout.rowGroupRows.length; g++) {
      /** @type {import('./sidecar-sliced-writer.js').SlicedFileInput['rowGroups'][number]['chunks']} */
      const chunkEntries = {}
      for (const [name, column] of leaves) {
        const built = await buildChunkFilter({ layout, metadataOffset, column, rowGroup: g, read,
          fpp: options.fpp, ndv: options.ndv, windowBytes: DEFAULT_WINDOW_BYTES, bounds: true })
        if ('problem' in built) {
          skipped.push({ file: recorded, rowGroup: g, column: name, detail: built.problem })
          chunkEntries[name] = null
          continue
        }
        const header = decodeHeaderBytes(built.bytes)
        const b = built.bounds
        chunkEntries[name] = {
          bitset: built.bytes.slice(header.headerLength),
          min: b ? encodeBound(b.kind, b.min) : null,
          max: b ? encodeBound(b.kind, b.max) : null,
        }
      }
      rowGroups.push({ numRows: layout.rowGroupRows[g], chunks: chunkEntries })
    }
    return {
      file: { path: recorded, size: validator.size, validator: validator.validator, numRows: layout.numRows, columns, rowGroups },
      skipped,
    }
  } finally {
    if (taken) reading.budget.give(taken)
    await file.close()
  }
}

/**
 * How long after its modification time a local file's mtime (or a URL's Last-Modified, before the response's Date) is
 * taken to tell its versions apart. File systems keep times coarsely — FAT to 2 s (Windows rounds up to the next 2 s),
 * ext3, HFS+ and some network mounts to the second, and a kernel stamps a write with a clock that may lag by a tick —
 * so a rewrite of the same size within that span keeps the mtime. Past it, any later write gets a later mtime. (This
 * assumes the file system's clock — a network server's — agrees with this machine's, or the web server's, within the
 * margin above 2 s.)
 */
export const MTIME_SETTLE_MS = 3000

/** Times a build waits for a file's mtime to settle (a file written again while it waits is waited for anew). */
const SETTLE_WAITS = 2

/**
 * What an index records of a local file's version: its size and `mtime:<ms>;ctime:<ms>`, stat'ed before any of its bytes
 * are read. An mtime less than MTIME_SETTLE_MS before the clock (read before the stat) cannot tell the version read from
 * a rewrite of the same size: the build waits until it has settled and stats the file again — a file written just
 * before its build is then described, not stale until an update. One still too recent (written again while waited for,
 * twice; or stamped in the future) is recorded `unsettled-mtime:…`, which no later check matches (stale-index,
 * `validator-unsettled`, until the index is built or updated again).
 * @param {string} input a local path
 * @param {{ fetch?: typeof globalThis.fetch, signal?: AbortSignal }} options
 * @returns {Promise<{ size: number, validator: string | null }>}
 */
export async function localValidator(input, options) {
  for (let waits = 0; ; waits++) {
    const clock = Date.now()
    const found = await fileValidator(input, options)
    const validator = settledMtime(found.validator, clock)
    // How long until it settles: never longer than the span itself (an mtime in the future is not waited for).
    const wait = mtimeOf(found.validator) + MTIME_SETTLE_MS - clock
    if (validator === found.validator || waits === SETTLE_WAITS || !(wait > 0 && wait <= MTIME_SETTLE_MS)) {
      return { size: found.size, validator }
    }
    await pause(wait, options.signal)
  }
}

/**
 * Resolves after `ms`; rejects with ABORTED as soon as `signal` aborts.
 * @param {number} ms
 * @param {AbortSignal | undefined} signal
 */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer)
      try {
        throwIfAborted(signal)
      } catch (error) {
        reject(error)
      }
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort)
      resolve(undefined)
    }, ms)
    if (signal?.aborted) abort()
    else signal?.addEventListener('abort', abort, { once: true })
  })
}

/**
 * The mtime (ms) of a recorded `mtime:<ms>[;ctime:<ms>]`; NaN for any other text.
 * @param {string | null} recorded
 */
function mtimeOf(recorded) {
  return recorded?.startsWith('mtime:') ? Number(recorded.slice('mtime:'.length).split(';')[0]) : NaN
}

/**
 * A recorded `mtime:<ms>;ctime:<ms>` as it stands when its mtime is settled at `clock`, else marked `unsettled-`; any other
 * text as it is.
 * @param {string | null} recorded
 * @param {number} clock ms since the epoch, read before the stat that found `recorded`
 */
export function settledMtime(recorded, clock) {
  if (!recorded?.startsWith('mtime:')) return recorded
  const mtime = mtimeOf(recorded)
  return Number.isFinite(mtime) && clock - mtime >= MTIME_SETTLE_MS ? recorded : `unsettled-${recorded}`
}

/**
 * What an index records of a URL's version from a response's headers. A Last-Modified less than MTIME_SETTLE_MS before
 * the response's Date is weak (RFC 9110 §8.8.2.2): the file may be rewritten within that span under the same date —
 * a date is to the second, and the server's file system may keep times to 2 s (FAT) — so it is recorded in a form no
 * later check matches (`unsettled-last-modified:…`) — the file is stale-index until the index is built or updated
 * again — rather than as a date a rewrite of the same size would pass. So is an ETag sent with such a date
 * (`unsettled-etag:…`): a server may make its strong ETag of the time and size (nginx: the mtime's second and the
 * size), which a rewrite within that span keeps too.
 * @param {{ get(name: string): string | null }} headers
 */
function validatorOfResponse(headers) {
  const recorded = recordedValidator(validatorFromHeaders(headers))
  const lastModified = headers.get('last-modified')
  if (!recorded || !lastModified) return recorded
  const modified = Date.parse(lastModified)
  const date = Date.parse(headers.get('date') ?? '')
  return Number.isFinite(modified) && Number.isFinite(date) && date - modified < MTIME_SETTLE_MS ? `unsettled-${recorded}` : recorded
}

/**
 * The byte ranges of the indexed chunks whose pages lie inside the file's data (others are left to buildChunkFilter to refuse).
 * @param {import('../footer/footer.js').FileLayout} layout
 * @param {number} metadataOffset
 * @param {Array<[string, import('../footer/footer.js').LeafColumn]>} leaves
 */
function chunkRanges(layout, metadataOffset, leaves) {
  /** @type {Array<{ start: number, end: number }>} */
  const ranges = []
  for (let g = 0; g < layout.rowGroupRows.length; g++) {
    for (const [, column] of leaves) {
      ensureColumnIndexes(layout, column.index)
      const range = chunkByteRange(layout, g, column.index)
      if (range && range.chunkStart >= 4 && range.chunkEnd <= metadataOffset && range.chunkEnd > range.chunkStart) {
        ranges.push({ start: range.chunkStart, end: range.chunkEnd })
      }
    }
  }
  return ranges
}

/**
 * The chunks' ranges joined across gaps of at most JOIN_GAP, each at most DEFAULT_WINDOW_BYTES long (a
 * longer chunk is left to be read a window at a time as it is scanned), at most `limit` bytes in all.
 * @param {Array<{ start: number, end: number }>} ranges
 * @param {number} limit
 */
function joinedRanges(ranges, limit) {
  /** @type {Array<{ start: number, end: number }>} */
  const out = []
  let total = 0
  for (const r of ranges.filter((r) => r.end - r.start <= DEFAULT_WINDOW_BYTES).sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1]
    if (last && r.start - last.end <= JOIN_GAP && Math.max(last.end, r.end) - last.start <= DEFAULT_WINDOW_BYTES) {
      total += Math.max(0, r.end - last.end)
      last.end = Math.max(last.end, r.end)
    } else {
      if (total + r.end - r.start > limit) break
      total += r.end - r.start
      out.push({ ...r })
    }
  }
  return out
}
