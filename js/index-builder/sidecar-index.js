// A sidecar index opened for probing (format: docs/sidecar-index.md): one tail read gives the Puffin
// footer and the directory (a second read only when the directory is larger than the tail read), and a
// probe of any number of files reads, in one wave, only the 32-byte blocks of the bitsets its values
// map to — after each chunk's recorded min/max has ruled out what it can. A file is answered from the
// index only while it is the file the index describes: one missing from the index, or whose size or
// validator differ, answers `unknown` with reason `stale-index`, never `absent`.
import { openByteSource } from '../sources/open-byte-source.js'
import { HttpSource } from '../sources/http-source.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { encodeProbeValues } from '../values/probe-values.js'
import { HashedCandidates } from '../indexes/bloom-reads.js'
import { RangeTask } from '../plan/read-scheduler.js'
import { ByteCache, BLOCK_MODE_COALESCE_GAP, runReadTasks } from '../plan/read-scheduler.js'
import { LinkModel, transportWindow } from '../plan/link-model.js'
import { excludedByBounds, sortKeys, sortOrderFor } from '../indexes/statistics.js'
import { Source, valueResult } from '../plan/verdicts.js'
import { init } from '../wasm/core.js'
import { crc32Hex, readPuffinFooter } from './puffin.js'
import { bitsetOf, blockOffset } from './sidecar-regions.js'

export const SIDECAR_VERSION = 1
export const BITSETS_BLOB = 'parquet-bloom-sbbf-bitsets-v1'
export const DIRECTORY_BLOB = 'parquet-bloom-directory-v1'
/** The first read of an index: its footer and, for up to a few thousand row groups, its directory (bigger ones cost one more read). */
export const DEFAULT_INDEX_TAIL_BYTES = 256 * 1024
const BLOCK_BYTES = 32
/** Region bytes readBitset keeps for the next bitsets of the same regions (an index update copies them in order). */
const MAX_HELD_REGION_BYTES = 64 * 1024 * 1024
const EMPTY_BLOCK = new Uint8Array(BLOCK_BYTES)
const utf8Decoder = new TextDecoder('utf-8', { fatal: true })

/** A bound (a sort key, js/indexes/statistics.js sortKeys) as JSON: numbers (±Infinity as text), bigints as text, bytes as hex. */
export function encodeBound(kind, key) {
  if (key === undefined) return null
  if (typeof key === 'bigint') return String(key)
  if (key instanceof Uint8Array) return Array.from(key, (b) => b.toString(16).padStart(2, '0')).join('')
  return Number.isFinite(key) ? key : String(key)
}

function decodeBound(kind, text) {
  if (text === null || text === undefined) return undefined
  if (kind === 'int64' || kind === 'uint64') return BigInt(text)
  if (kind === 'bytes') {
    const out = new Uint8Array(text.length / 2)
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16)
    return out
  }
  return Number(text)
}

/**
 * What tells one version of a file from another: its size, and the modification time of a local file,
 * the strong ETag (else Last-Modified) of a URL, nothing for memory.
 * @param {any} input
 * @param {{ fetch?: typeof fetch, signal?: AbortSignal }} [options]
 * @returns {Promise<{ size: number, validator: string | null }>}
 */
export async function fileValidator(input, { fetch: fetchImpl = globalThis.fetch, signal } = {}) {
  if (typeof input === 'string' && /^https?:\/\//i.test(input)) {
    const response = await fetchImpl(input, { method: 'HEAD', signal })
    if (!response.ok) throw new ParquetBloomError(ErrorCode.HTTP_STATUS, `${input}: HEAD answered ${response.status}`, { status: response.status, source: input })
    const etag = response.headers.get('etag')
    const lastModified = response.headers.get('last-modified')
    const validator = etag && !etag.startsWith('W/') ? `etag:${etag}` : lastModified ? `last-modified:${lastModified}` : null
    return { size: Number(response.headers.get('content-length')), validator }
  }
  if (typeof input === 'string') {
    const { stat } = await import('node:fs/promises')
    try {
      const info = await stat(input)
      return { size: info.size, validator: `mtime:${info.mtimeMs}` }
    } catch (cause) {
      if (cause?.code === 'ENOENT') return { size: -1, validator: null }
      throw new ParquetBloomError(ErrorCode.IO, `${input}: ${cause?.message ?? cause}`, { cause, source: input })
    }
  }
  if (typeof Blob === 'function' && input instanceof Blob) return { size: input.size, validator: null }
  return { size: input?.byteLength ?? -1, validator: null }
}

/**
 * Opens a sidecar index: one tail read (two when its directory is larger than `initialFetchSize`).
 * @param {any} source anything openParquet takes
 * @param {import('./index.js').OpenSidecarIndexOptions} [options] as js/index-builder/index.d.ts declares them (and
 *   openParquet's reading options: headers, retries, …); base: where the index's relative paths are resolved
 */
export async function openSidecarIndex(source, options = {}) {
  await init()
  const byteSource = await openByteSource(source, options)
  try {
    const where = byteSource.name
    const { signal } = options
    let tail = await byteSource.readTail(options.initialFetchSize ?? DEFAULT_INDEX_TAIL_BYTES, { signal })
    const size = byteSource.size
    let parsed = readPuffinFooter(tail.bytes, size, where)
    if ('need' in parsed) {
      tail = { offset: size - parsed.need, bytes: await byteSource.read(size - parsed.need, parsed.need, { signal }) }
      parsed = /** @type {any} */ (readPuffinFooter(tail.bytes, size, where))
    }
    const { footer } = /** @type {{ footer: any }} */ (parsed)
    const bad = (why) => new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a parquet-bloom sidecar index: ${why}`, { source: where })
    const bitsets = footer.blobs.find((b) => b.type === BITSETS_BLOB)
    const directoryBlob = footer.blobs.find((b) => b.type === DIRECTORY_BLOB)
    if (!bitsets || !directoryBlob) throw bad(`it has no ${!bitsets ? BITSETS_BLOB : DIRECTORY_BLOB} blob`)
    const cache = new ByteCache()
    cache.add(tail.offset, tail.bytes)
    const directoryBytes = cache.get(directoryBlob.offset, directoryBlob.offset + directoryBlob.length) ??
      await byteSource.read(directoryBlob.offset, directoryBlob.length, { signal })
    if (directoryBlob.properties?.crc32 !== crc32Hex(directoryBytes)) throw bad('its directory does not match its CRC-32')
    let directory
    try {
      directory = JSON.parse(utf8Decoder.decode(directoryBytes))
    } catch (cause) {
      throw bad(`its directory is not JSON (${cause?.message ?? cause})`)
    }
    if (directory?.format !== 'parquet-bloom-sidecar' || directory.version !== SIDECAR_VERSION || !Array.isArray(directory.files)) {
      throw bad(`its directory is not version ${SIDECAR_VERSION} of the sidecar format`)
    }
    const problem = directoryProblem(directory, bitsets.length)
    if (problem) throw bad(`its directory ${problem}`)
    const base = options.base ?? await defaultBase(source)
    return new SidecarIndex(byteSource, cache, directory, bitsets, base)
  } catch (error) {
    await byteSource.close()
    throw error
  }
}

/**
 * Why a directory cannot be used, or undefined: every region must lie inside the bitsets blob as whole
 * power-of-two blocks, every entry describe a file (path, size, row groups) and every chunk a place in a
 * region of its size, with bounds of its column's kind. An index that disagrees with itself answers nothing.
 */
function directoryProblem(directory, bitsetsLength) {
  const isPowerOfTwoBlocks = (n) => Number.isSafeInteger(n) && n >= BLOCK_BYTES && (n & (n - 1)) === 0
  if (!Array.isArray(directory.regions)) return 'has no regions list'
  for (const [r, region] of directory.regions.entries()) {
    if (!(Number.isSafeInteger(region?.offset) && region.offset >= 0 && Number.isSafeInteger(region.count) && region.count >= 1 && isPowerOfTwoBlocks(region.numBytes) &&
      region.offset + region.count * region.numBytes <= bitsetsLength)) {
      return `places region ${r} (${region?.count} bitsets of ${region?.numBytes} bytes at ${region?.offset}) outside the ${bitsetsLength}-byte bitsets blob, or not as whole power-of-two blocks`
    }
  }
  for (const [i, file] of directory.files.entries()) {
    const where = `file ${i}`
    if (typeof file?.path !== 'string' || !Number.isSafeInteger(file.size) || !Array.isArray(file.rowGroups) || typeof file.columns !== 'object' || file.columns === null) {
      return `describes ${where} incompletely (path, size, columns, rowGroups)`
    }
    for (const [g, group] of file.rowGroups.entries()) {
      if (!Number.isSafeInteger(group?.numRows) || group.numRows < 0 || typeof group.chunks !== 'object' || group.chunks === null) return `describes ${where}, row group ${g} incompletely`
      for (const [column, chunk] of Object.entries(group.chunks)) {
        if (chunk === null) continue
        const type = file.columns[column]
        if (!type || typeof type.physicalType !== 'string') return `has a chunk of ${where}, row group ${g} for column ${column}, which the file's entry does not describe`
        if (!Array.isArray(chunk) || chunk.length !== 5) return `has a malformed chunk (${where}, row group ${g}, column ${column})`
        const [r, k, numBytes, min, max] = chunk
        const region = Number.isSafeInteger(r) ? directory.regions[r] : undefined
        if (!region || !(Number.isSafeInteger(k) && k >= 0 && k < region.count) || numBytes !== region.numBytes) {
          return `places the bitset of ${where}, row group ${g}, column ${column} at ${JSON.stringify([r, k])} of ${numBytes} bytes, which no region holds`
        }
        const order = sortOrderFor({ physicalType: type.physicalType, typeLength: type.typeLength ?? undefined, logicalType: type.logicalType })
        for (const bound of [min, max]) {
          if (bound === null) continue
          if (!order || !boundFits(order.kind, bound)) return `records a bound ${JSON.stringify(bound)} that is not a ${order?.kind ?? 'orderless'} value (${where}, row group ${g}, column ${column})`
        }
      }
    }
  }
  return undefined
}

/** Whether a recorded bound is of the form encodeBound writes for this kind. */
function boundFits(kind, bound) {
  if (kind === 'int64' || kind === 'uint64') return typeof bound === 'string' && /^-?\d+$/.test(bound)
  if (kind === 'bytes') return typeof bound === 'string' && /^([0-9a-f]{2})*$/.test(bound)
  if (kind === 'int32' || kind === 'uint32') return Number.isSafeInteger(bound)
  if (kind === 'float' || kind === 'double') return typeof bound === 'number' || bound === 'Infinity' || bound === '-Infinity'
  return false
}

async function defaultBase(source) {
  if (source instanceof URL) return new URL('.', source).href
  if (typeof source !== 'string') return undefined
  if (/^https?:\/\//i.test(source)) return new URL('.', source).href
  return (await import('node:path')).dirname(source)
}

/** Where a recorded path points: resolved against the base (a directory or a URL). */
async function resolvePath(recorded, base) {
  if (/^https?:\/\//i.test(recorded) || base === undefined) return recorded
  if (/^https?:\/\//i.test(base)) return new URL(recorded, base).href
  return (await import('node:path')).resolve(base, recorded)
}

/** The key a file is looked up by: an absolute path, or the URL as given. */
async function fileKey(input) {
  if (typeof input !== 'string' || /^https?:\/\//i.test(input)) return String(input)
  return (await import('node:path')).resolve(input)
}

/**
 * @typedef {{ path: string, size: number, validator: string | null, numRows: number,
 *   columns: Record<string, { physicalType: string, typeLength: number | null, logicalType: object | null }>,
 *   rowGroups: Array<{ numRows: number, chunks: Record<string, [number, number, number, any, any] | null> }> }} SidecarEntry
 *   a chunk: [region, place in the region, numBytes, min, max] (docs/sidecar-index.md)
 */

export class SidecarIndex {
  #source
  #cache
  #bitsets
  #link = new LinkModel()
  #rounds
  #byKey = new Map()
  #base
  /** @type {Map<number, Uint8Array>} regions readBitset read, the most recent last */
  #regionBytes = new Map()

  constructor(source, cache, directory, bitsets, base) {
    this.#source = source
    this.#cache = cache
    this.#bitsets = bitsets
    this.#base = base
    this.#rounds = source.stats.requests
    this.directory = directory
    /** @type {SidecarEntry[]} */
    this.files = directory.files
    this.columns = directory.columns
  }

  /** Resolves every entry's key once (paths against the base). */
  async #keys() {
    if (this.#byKey.size || !this.files.length) return this.#byKey
    for (const entry of this.files) this.#byKey.set(await fileKey(await resolvePath(entry.path, this.#base)), entry)
    return this.#byKey
  }

  /** The entry recorded under exactly this path (as the index records it). */
  entry(recorded) {
    return this.files.find((f) => f.path === recorded)
  }

  /** { requests, bytesFetched, rounds } of the index file so far, its opening included. */
  get stats() {
    const { requests, bytesFetched } = this.#source.stats
    return { requests, bytesFetched, rounds: this.#rounds }
  }

  /** One stored bitset, whole (for copying into a new index); regions are read whole, the last few kept. */
  async readBitset(regionIndex, k) {
    const region = this.directory.regions[regionIndex]
    let bytes = this.#regionBytes.get(regionIndex)
    if (!bytes) {
      this.#rounds++
      bytes = await this.#source.read(this.#bitsets.offset + region.offset, region.count * region.numBytes)
      let held = bytes.length
      for (const [index, kept] of [...this.#regionBytes].reverse()) {
        held += kept.length
        if (held > MAX_HELD_REGION_BYTES) this.#regionBytes.delete(index)
      }
      this.#regionBytes.set(regionIndex, bytes)
    }
    return bitsetOf(bytes, region, k)
  }

  /**
   * Says, per file and row group, whether each value may be in `column`, from the index alone.
   * @param {string} column an indexed column, as the index names it
   * @param {Iterable<unknown>} values
   * @param {{ files?: Array<string | { path: string, size?: number, validator?: string | null }>, validate?: boolean, signal?: AbortSignal }} [options]
   *   files: the files to answer for (default: every file of the index), with the size (and validator)
   *   the caller knows them by — a listing; without a size, `validate` (default true) stats (or HEADs)
   *   each file, concurrently with the block reads
   * @returns {Promise<{ column: string, files: Array<{ path: string, current: boolean, detail?: string,
   *   rowGroups: Array<{ index: number, numRows: number, results: import('../plan/verdicts.js').ValueResult[] }> }> }>}
   */
  async probe(column, values, options = {}) {
    const list = Array.from(values)
    const keys = await this.#keys()
    const requested = options.files ?? this.files.map((e) => ({ path: e.path }))
    const targets = await Promise.all(requested.map(async (f) => {
      const spec = typeof f === 'string' ? { path: f } : f
      const recorded = this.entry(spec.path)
      const path = recorded ? await resolvePath(recorded.path, this.#base) : spec.path
      const entry = recorded ?? keys.get(await fileKey(path))
      return { spec, path, entry }
    }))
    // Files the caller described are checked at once; the others are checked while their blocks are read.
    const checks = targets.map((t) => {
      if (!t.entry) return Promise.resolve({ current: false, detail: 'the file is not in the index' })
      if (t.spec.size !== undefined) return Promise.resolve(currency(t.entry, { size: t.spec.size, validator: t.spec.validator }))
      if (options.validate === false) return Promise.resolve(/** @type {{ current: boolean, detail?: string }} */ ({ current: true }))
      return fileValidator(t.path, { signal: options.signal }).then((now) => currency(t.entry, now))
    })
    const known = await Promise.all(targets.map((t, i) => (t.spec.size !== undefined || !t.entry ? checks[i] : undefined)))
    const encodings = new Map()
    const chunks = []
    const tasks = []
    for (const [i, t] of targets.entries()) {
      if (!t.entry || known[i]?.current === false) continue
      const type = t.entry.columns[column]
      if (!type) continue
      const typeKey = JSON.stringify(type)
      let encoded = encodings.get(typeKey)
      if (!encoded) {
        encoded = encodeFor(type, list, t.path, column)
        encodings.set(typeKey, encoded)
      }
      t.encoded = encoded
      t.chunks = t.entry.rowGroups.map((g, index) => {
        const chunk = g.chunks[column]
        if (!Array.isArray(chunk) || g.numRows === 0) return { index, chunk }
        const planned = this.#planChunk(encoded, chunk, tasks)
        chunks.push(planned)
        return { index, chunk, planned }
      })
    }
    const [currencies] = await Promise.all([
      Promise.all(checks),
      this.#run(tasks, options),
    ])
    return {
      column,
      files: targets.map((t, i) => {
        const now = currencies[i]
        const rowGroups = (t.entry?.rowGroups ?? []).map((g, index) => ({ index, numRows: g.numRows, results: [] }))
        if (!now.current) {
          for (const g of rowGroups) g.results = list.map((value) => valueResult(value, 'unknown', null, 'stale-index', `the sidecar index does not describe this file as it is: ${now.detail}`))
          return { path: t.path, current: false, detail: now.detail, rowGroups }
        }
        for (const g of rowGroups) g.results = answerChunk(t, g.index, list, column)
        return { path: t.path, current: true, rowGroups }
      }),
    }
  }

  /** One chunk's block reads: for each candidate inside the chunk's bounds, the block its hash selects. */
  #planChunk(encoded, chunk, tasks) {
    const [regionIndex, k, numBytes, minText, maxText] = chunk
    const region = this.directory.regions[regionIndex]
    const { hashed, order, keys } = encoded
    let excluded
    if (order && (minText !== null || maxText !== null)) excluded = excludedByBounds(order, keys, decodeBound(order.kind, minText), decodeBound(order.kind, maxText))
    const planned = { excluded, blocks: new Array(hashed.count).fill(EMPTY_BLOCK), hits: undefined }
    if (!hashed.count) return planned
    const indices = hashed.blockIndices(numBytes / BLOCK_BYTES)
    const wanted = new Map()
    for (let c = 0; c < hashed.count; c++) {
      if (excluded?.[c]) continue
      const block = indices[c]
      if (!wanted.has(block)) wanted.set(block, [])
      wanted.get(block).push(c)
    }
    for (const [block, owners] of wanted) {
      const at = this.#bitsets.offset + blockOffset(region, k, block)
      tasks.push(new RangeTask(at, at + BLOCK_BYTES, (bytes) => { for (const c of owners) planned.blocks[c] = bytes }))
    }
    return planned
  }

  /**
   * Sharpens one file's probe results (openParquet(…, { index })): where the file's own indexes left a
   * value open and the index describes this file as it is, the index's answer replaces a `maybe` when it
   * is `absent`, and an `unknown` when it is anything but. A
   * file the index does not describe (missing, another size or validator) keeps its results as they are.
   * @param {{ name: string, fileSize: number, column: string, values: unknown[], rowGroups: Array<{ index: number, results: any[] }>, signal?: AbortSignal }} probe
   */
  async refine({ name, fileSize, column, values, rowGroups, signal }) {
    const entry = (await this.#keys()).get(await fileKey(name))
    if (!entry || entry.size !== fileSize || entry.rowGroups.length < rowGroups.length || !entry.columns[column]) return
    const open = rowGroups.some((g) => g.results.some((r) => r.verdict === 'maybe' || r.verdict === 'unknown'))
    if (!open) return
    const [answered] = (await this.probe(column, values, { files: [{ path: entry.path }], signal })).files
    if (!answered.current) return
    sharpenResults(rowGroups, answered.rowGroups)
  }

  async #run(tasks, options) {
    if (!tasks.length) return
    const remote = this.#source instanceof HttpSource
    const window = transportWindow(this.#source, remote)
    const { rounds } = await runReadTasks(tasks, {
      source: this.#source, cache: this.#cache, link: remote ? this.#link : undefined,
      concurrency: window, coalesceGap: gapForOneRound(tasks, window), signal: options.signal,
    })
    this.#rounds += rounds
  }

  async close() {
    await this.#source.close()
  }
}

/**
 * A file's own row-group answers sharpened by the sidecar's for the same file as it is (`theirs[g.index]`,
 * values in the same order): an absent from the index settles a maybe; any answer of the index beats an
 * unknown for want of an index. A value the probe itself decided (its encoding: source `value`) stays.
 * @param {Array<{ index: number, results: any[] }>} rowGroups
 * @param {Array<{ results: any[] } | undefined>} theirs
 */
export function sharpenResults(rowGroups, theirs) {
  for (const g of rowGroups) {
    const answers = theirs[g.index]?.results
    if (!answers) continue
    g.results.forEach((r, v) => {
      if (r.source === Source.VALUE) return
      if ((r.verdict === 'maybe' && answers[v].verdict === 'absent') || (r.verdict === 'unknown' && answers[v].verdict !== 'unknown')) g.results[v] = answers[v]
    })
  }
}

/**
 * The coalescing gap that joins a wave's block reads into at most `window` requests — one round, however
 * many files and row groups — by joining across the smallest gaps first (never less than block mode's).
 */
function gapForOneRound(tasks, window) {
  const starts = [...new Set(tasks.map((t) => t.start))].sort((a, b) => a - b)
  if (starts.length <= window) return BLOCK_MODE_COALESCE_GAP
  const gaps = []
  for (let i = 1; i < starts.length; i++) gaps.push(starts[i] - starts[i - 1] - BLOCK_BYTES)
  gaps.sort((a, b) => a - b)
  // Joining the smallest (count - window) gaps leaves `window` requests.
  return Math.max(BLOCK_MODE_COALESCE_GAP, gaps[starts.length - window - 1] + 1)
}

/**
 * Whether an entry describes the file as it is now.
 * @returns {{ current: boolean, detail?: string }}
 */
function currency(entry, now) {
  if (now.size !== entry.size) return { current: false, detail: now.size < 0 ? 'the file is gone' : `its size is ${now.size}, the index recorded ${entry.size}` }
  if (now.validator && entry.validator && now.validator !== entry.validator) return { current: false, detail: `its validator is ${now.validator}, the index recorded ${entry.validator}` }
  return { current: true }
}

/** The values as a column of this type stores them: candidates, their hashes and sort keys. */
function encodeFor(type, list, path, column) {
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

/** The answers of one row group: presets, then bounds, then the bitset's blocks. */
function answerChunk(target, rowGroup, list, column) {
  const { chunk, planned } = target.chunks?.[rowGroup] ?? {}
  const numRows = target.entry.rowGroups[rowGroup].numRows
  const encoded = target.encoded
  const fromIndex = (value, why) => valueResult(value, 'unknown', null, 'no-index', why)
  if (!encoded) return list.map((v) => fromIndex(v, `the sidecar index has no column ${column} for this file`))
  const { outcomes, owners } = encoded.encoded
  if (numRows === 0) return list.map((v) => valueResult(v, 'absent', Source.STATISTICS, 'empty-row-group', 'the row group has no rows'))
  if (!Array.isArray(chunk)) return list.map((v, i) => (outcomes[i].verdict ? { ...outcomes[i] } : fromIndex(v, 'the sidecar index has no filter for this chunk (its pages could not be read)')))
  planned.hits ??= encoded.hashed.count ? encoded.hashed.checkBlocks(planned.blocks) : new Uint8Array(0)
  const inBounds = new Uint8Array(list.length)
  const maybe = new Uint8Array(list.length)
  for (let k = 0; k < owners.length && k < encoded.hashed.count; k++) {
    if (planned.excluded?.[k]) continue
    inBounds[owners[k]] = 1
    if (planned.hits[k]) maybe[owners[k]] = 1
  }
  return list.map((value, i) => {
    if (outcomes[i].verdict) return { ...outcomes[i] }
    if (!inBounds[i]) return valueResult(value, 'absent', Source.STATISTICS, 'out-of-range', 'outside the min/max the sidecar index records for the chunk')
    return maybe[i]
      ? valueResult(value, 'maybe', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter may hold it')
      : valueResult(value, 'absent', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter rules it out')
  })
}
