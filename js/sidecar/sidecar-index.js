// A sidecar index opened for probing (format: docs/sidecar-index.md): one tail read gives the Puffin
// footer, the regions' layout and, while it is small, the directory; a probe of any number of files
// reads, in one wave, only the 32-byte blocks of the bitsets its values map to — after each chunk's
// recorded min/max has ruled out what it can. A directory larger than the tail read is not read at
// open: the first probe reads it in one wave with the block rows its values select in every region (the
// layout says where they are), then applies the directory — so opening and a first probe take two rounds
// however many files there are. A file is answered from the index only while it is the file the index
// describes: one missing from the index, or whose size or validator differ, answers `unknown` with
// reason `stale-index`, never `absent`, and its entry says why (js/sidecar/sidecar-currency.js StaleReason).
import { openByteSource } from '../sources/open-byte-source.js'
import { HttpSource } from '../sources/http-source.js'
import { withFileSize } from '../sources/shared.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { RangeTask } from '../plan/read-scheduler.js'
import { ByteCache } from '../plan/read-scheduler.js'
import { LinkModel } from '../plan/link-model.js'
import { excludedByBounds } from '../indexes/statistics.js'
import { Source, valueResult } from '../verdicts.js'
import { init } from '../wasm/core.js'
import { readPuffinFooter } from './puffin.js'
import { bitsetOf, blockOffset } from './sidecar-regions.js'
import { decodeBound, notAnIndex, parseDirectory } from './sidecar-directory.js'
import { blockRows, decodeLayout, LAYOUT_PROPERTY } from './sidecar-layout.js'
import { currency, StaleReason } from './sidecar-currency.js'
import { isSlicedFooter, SlicedSidecarIndex } from './sidecar-sliced-index.js'
import { BITSETS_BLOB, DIRECTORY_BLOB } from './sidecar-blobs.js'
import { encodedOncePerType, encodeFor, refusedFile, unreadableChunkResults } from './sidecar-probe-values.js'
import { checkFiles, heldRegion, indexStats, readWave } from './sidecar-reads.js'
import { checkSidecarRoom } from '../plan/result-budget.js'
import { BYTES_PER_BLOCK } from '../wasm/sbbf.js'

export { SIDECAR_VERSION } from './sidecar-directory.js'
export { fileValidator, StaleReason, validatorKind } from './sidecar-currency.js'
/** The first read of an index: its footer (with the layout) and, for up to a few thousand row groups, its directory. */
export const DEFAULT_INDEX_TAIL_BYTES = 256 * 1024
/** What a round of reads of a local file is worth in bytes (as js/parquet-file.js counts it): little. */
const LOCAL_ROUND_BYTES = 4096
const EMPTY_BLOCK = new Uint8Array(BYTES_PER_BLOCK)

/**
 * Opens a sidecar index: one tail read (two when its footer is larger than `initialFetchSize`). A
 * directory outside the tail read is read by the first probe, with its blocks (or by loadDirectory());
 * an index written without a layout has its directory read here, as before.
 * @param {any} source anything openParquet takes
 * @param {import('../index-builder/index.js').OpenSidecarIndexOptions} [options] as js/index-builder/index.d.ts declares them (and
 *   openParquet's reading options: headers, retries, …); base: where the index's relative paths are resolved
 */
export async function openSidecarIndex(source, options = {}) {
  options = withFileSize(options)
  await init()
  const byteSource = /** @type {IndexSource} */ (await openByteSource(source, options))
  byteSource.readPurpose = 'sidecar'
  try {
    const where = byteSource.name
    const { signal } = options
    let tail = await byteSource.readTail(options.initialFetchSize ?? DEFAULT_INDEX_TAIL_BYTES, { signal })
    const size = /** @type {number} */ (byteSource.size) // readTail learnt it
    let parsed = readPuffinFooter(tail.bytes, size, where)
    if ('need' in parsed) {
      tail = { offset: size - parsed.need, bytes: await byteSource.read(size - parsed.need, parsed.need, { signal }) }
      parsed = /** @type {any} */ (readPuffinFooter(tail.bytes, size, where))
    }
    const { footer } = /** @type {Exclude<typeof parsed, { need: number }>} */ (parsed)
    if (isSlicedFooter(footer)) {
      const cache = new ByteCache()
      cache.add(tail.offset, tail.bytes)
      return new SlicedSidecarIndex(byteSource, cache, footer, {
        base: options.base ?? await defaultBase(source), fetch: options.fetch, headers: options.headers,
        boundsBytes: options.boundsBytes, tailOffset: tail.offset })
    }
    const bitsets = footer.blobs.find((b) => b.type === BITSETS_BLOB)
    const directoryBlob = footer.blobs.find((b) => b.type === DIRECTORY_BLOB)
    if (!bitsets || !directoryBlob) throw notAnIndex(where, `it has no ${!bitsets ? BITSETS_BLOB : DIRECTORY_BLOB} blob`)
    let layout
    const layoutText = bitsets.properties?.[LAYOUT_PROPERTY]
    if (layoutText !== undefined) {
      const decoded = typeof layoutText === 'string' ? decodeLayout(layoutText, bitsets.length) : { problem: 'its layout is not a string' }
      if ('problem' in decoded) throw notAnIndex(where, decoded.problem)
      layout = decoded.layout
    }
    const cache = new ByteCache()
    cache.add(tail.offset, tail.bytes)
    // Without a layout (an index written before there was one) no block can be placed before the directory: read it now.
    const directoryBytes = cache.get(directoryBlob.offset, directoryBlob.offset + directoryBlob.length) ??
      (layout ? undefined : await byteSource.read(directoryBlob.offset, directoryBlob.length, { signal }))
    const directory = directoryBytes && parseDirectory(directoryBytes, directoryBlob, bitsets.length, layout, where)
    const base = options.base ?? await defaultBase(source)
    return new SidecarIndex(byteSource, cache, {
      directory, directoryBlob, layout, bitsets, base, fetch: options.fetch, headers: options.headers,
    })
  } catch (error) {
    await byteSource.close()
    throw error
  }
}

/**
 * @param {unknown} source
 * @returns {Promise<string | undefined>}
 */
async function defaultBase(source) {
  if (source instanceof URL) return new URL('.', source).href
  if (typeof source !== 'string') return undefined
  if (/^https?:\/\//i.test(source)) return new URL('.', source).href
  return (await import('node:path')).dirname(source)
}

/**
 * Where a recorded path points: resolved against the base (a directory or a URL).
 * @param {string} recorded
 * @param {string | undefined} base
 */
async function resolvePath(recorded, base) {
  if (/^https?:\/\//i.test(recorded) || base === undefined) return recorded
  if (/^https?:\/\//i.test(base)) return new URL(recorded, base).href
  return (await import('node:path')).resolve(base, recorded)
}

/**
 * The key a file is looked up by: an absolute path, or the URL as given.
 * @param {unknown} input
 */
async function fileKey(input) {
  if (typeof input !== 'string' || /^https?:\/\//i.test(input)) return String(input)
  return (await import('node:path')).resolve(input)
}

/**
 * @typedef {import('./sidecar-directory.js').FileEntry} SidecarEntry
 *   a chunk: [region, place in the region, numBytes, min, max] (docs/sidecar-index.md)
 * @typedef {import('./puffin.js').BlobMetadata} BlobMetadata
 * @typedef {import('./sidecar-reads.js').IndexSource} IndexSource
 * @typedef {ReturnType<typeof encodeFor>} Encoding the values as a column of one type stores them
 * @typedef {import('./sidecar-probe-values.js').Refused} Refused a column type that refuses a value
 * @typedef {{ path: string, size?: number, validator?: string | null }} FileSpec a file the caller names
 * @typedef {{ size: number, validator: string | null }} FoundValidator
 * @typedef {{ excluded: ReturnType<typeof excludedByBounds> | undefined, blocks: Uint8Array[], hits: Uint8Array | undefined }} Planned
 *   a chunk's blocks per candidate (EMPTY_BLOCK where none is read), and which candidates its bounds exclude
 * @typedef {{ spec: FileSpec, path: string, entry: SidecarEntry | undefined, encoded?: Encoding, refused?: ParquetBloomError,
 *   chunks?: Array<{ index: number, chunk: import('./sidecar-directory.js').Chunk, planned?: Planned }> }} Target
 *   a file a probe answers for: the entry that describes it (none: missing from the index), its chunks' plans; `refused`: its
 *   column type refuses a value (BAD_VALUE), which it answers per file
 * @typedef {{ files?: Array<string | FileSpec>, validate?: boolean, signal?: AbortSignal,
 *   ioLedger?: import('../sources/io-ledger.js').IoLedger, maxResults?: number,
 *   rowGroupsKnown?: (rowGroups: number[]) => Set<number> | undefined }} ProbeOptions
 *   maxResults: the most answers (per value, for each row group) a probe makes (js/plan/result-budget.js checkSidecarRoom);
 *   rowGroupsKnown: a dataset's (js/dataset/index-batches.js), told the row groups the index describes for each file asked
 *   (0: none) once it knows them, before it makes any answer; it may throw (the probe fails so), and the files whose places
 *   it returns are answered without row groups (`unanswered: true`), their currency as ever
 */

export class SidecarIndex {
  #source
  #cache
  #bitsets
  #link = new LinkModel()
  #rounds
  /** HEADs sent to check that files are the ones the index describes: requests of the index, beside its reads. */
  #validations = 0
  /** @type {import('../sources/io-ledger.js').IoLane | undefined} where a probe's HEADs of files are clocked and recorded */
  #checksLane
  /** @type {Map<string, SidecarEntry>} entries by key (fileKey of their resolved paths) */
  #byKey = new Map()
  /** @type {Map<string, SidecarEntry> | undefined} entries by the path they are recorded under */
  #byPath
  #base
  #fetch
  #headers
  /** @type {Map<number, Uint8Array>} regions readBitset read, the most recent last */
  #regionBytes = new Map()
  /** the directory, once read and checked */
  #directory
  #directoryBlob
  /** @type {import('./sidecar-layout.js').Layout | undefined} from the footer; absent in indexes written before it */
  #layout
  /** @type {Promise<void> | undefined} the directory's read, while one is in flight */
  #loading

  /**
   * @param {IndexSource} source
   * @param {ByteCache} cache
   * @param {{ directory: import('./sidecar-directory.js').Directory | undefined, directoryBlob: BlobMetadata,
   *   layout: import('./sidecar-layout.js').Layout | undefined, bitsets: BlobMetadata, base: string | undefined,
   *   fetch: typeof globalThis.fetch | undefined, headers: HeadersInit | undefined }} parts
   */
  constructor(source, cache, { directory, directoryBlob, layout, bitsets, base, fetch, headers }) {
    this.#source = source
    this.#cache = cache
    this.#bitsets = bitsets
    this.#base = base
    this.#fetch = fetch
    this.#headers = headers
    this.#directoryBlob = directoryBlob
    this.#layout = layout
    this.#directory = directory
    this.#rounds = source.stats.requests
  }

  /** The directory as stored (docs/sidecar-index.md); until it is read (a probe, or loadDirectory()) asking for it is a caller error. */
  get directory() {
    if (!this.#directory) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `${this.#source.name}: the sidecar index's directory is not read yet: await index.loadDirectory() ` +
        '(a probe reads it with its first blocks)')
    }
    return this.#directory
  }

  /** @type {SidecarEntry[]} every file the index describes (the directory's) */
  get files() {
    return this.directory.files
  }

  /**
   * The indexed columns: the footer's layout says them before the directory is read.
   * @returns {string[]}
   */
  get columns() {
    // One of the two is here: an index without a layout has its directory read at open.
    return /** @type {string[]} */ (this.#directory?.columns ?? this.#layout?.columns)
  }

  /** Reads the directory when opening did not (one read); a probe does it itself, in the wave of its first blocks. */
  async loadDirectory({ signal } = /** @type {{ signal?: AbortSignal }} */ ({})) {
    while (!this.#directory) {
      if (this.#loading) await this.#loading.catch(() => {}) // another caller's read; if it failed, try once more here
      else await this.#readDirectoryWith([], { signal })
    }
  }

  /** Resolves every entry's key once (paths against the base). */
  async #keys() {
    if (this.#byKey.size || !this.files.length) return this.#byKey
    for (const entry of this.files) this.#byKey.set(await fileKey(await resolvePath(entry.path, this.#base)), entry)
    return this.#byKey
  }

  /**
   * The entry recorded under exactly this path (as the index records it).
   * @param {string} recorded
   */
  entry(recorded) {
    if (!this.#byPath) {
      this.#byPath = new Map()
      for (const f of this.files) if (!this.#byPath.has(f.path)) this.#byPath.set(f.path, f)
    }
    return this.#byPath.get(recorded)
  }

  /** { requests, bytesFetched, rounds } of the index so far, its opening and its HEADs of files included (`heads` of the requests). */
  get stats() {
    return indexStats(this.#source, this.#rounds, this.#validations)
  }

  /**
   * One stored bitset, whole (for copying into a new index); regions are read whole, the last few kept.
   * @param {number} regionIndex
   * @param {number} k
   */
  async readBitset(regionIndex, k) {
    const region = this.directory.regions[regionIndex]
    const bytes = await heldRegion(this.#regionBytes, regionIndex, () => {
      this.#rounds++
      return this.#source.read(this.#bitsets.offset + region.offset, region.count * region.numBytes)
    })
    return bitsetOf(bytes, region, k)
  }

  /**
   * Says, per file and row group, whether each value may be in `column`, from the index alone.
   * @param {string} column an indexed column, as the index names it
   * @param {Iterable<unknown>} values
   * @param {ProbeOptions} [options]
   *   ioLedger: a dataset probe's, whose requests this probe's are (its `index` group); files: the files to answer
   *   for (default: every file of the index), with the size (and validator)
   *   the caller knows them by — a listing; without a size, `validate` (default true) stats (or HEADs)
   *   each file, concurrently with the block reads
   * @returns {Promise<{ column: string, files: Array<{ path: string, current: boolean, reason?: string, detail?: string,
   *   validators?: { recorded: string, found: string }, error?: { code: string, message: string }, unanswered?: boolean,
   *   rowGroups: Array<{ index: number, numRows: number, results: import('../verdicts.js').ValueResult[] }> }> }>}
   */
  async probe(column, values, options = {}) {
    const list = Array.from(values)
    this.#joinLedger(options.ioLedger)
    if (!this.#directory && this.#loading) await this.#loading.catch(() => {})
    if (!this.#directory) return this.#firstProbe(column, list, options)
    return this.#probeLoaded(column, list, options, {})
  }

  /**
   * A probe before the directory is read: one wave reads the directory and, in every region of the
   * column (the layout's), the block row each value selects — every chunk's block, before min/max or the
   * directory could say which count — while the files the caller names are checked beside it. Then the
   * probe runs as any other, its blocks taken from those rows.
   * @param {string} column
   * @param {unknown[]} list
   * @param {ProbeOptions} options
   */
  async #firstProbe(column, list, options) {
    /** @type {Map<string, Encoding | Refused>} */
    const encodings = new Map()
    const hashedFor = (/** @type {import('./sidecar-layout.js').ColumnType} */ type) => {
      try {
        const encoded = encodedOncePerType(encodings, type, encodeFor, list, this.#source.name, column)
        return 'refused' in encoded ? undefined : encoded.hashed
      } catch (error) {
        // Values a column of this type cannot hold: no rows for its regions; the probe decides with the directory.
        if (error instanceof ParquetBloomError) return undefined
        throw error
      }
    }
    let rows = this.#layout ? blockRows(this.#layout, column, hashedFor, this.#bitsets.offset) : []
    const rowBytes = rows.reduce((n, r) => n + r.end - r.start, 0)
    // Read blind, before min/max can rule chunks out: worth it while the rows cost no more than the
    // directory itself (the wave at most doubles what it costs) plus the bytes a round is worth (the round
    // it saves). Beyond that (many values, many block rows), the directory comes first, then only the
    // blocks min/max leave open.
    const roundBytes = this.#source instanceof HttpSource ? this.#link.bytesPerRound : LOCAL_ROUND_BYTES
    if (rowBytes > this.#directoryBlob.length + roundBytes) rows = []
    const held = new ByteCache()
    const tasks = rows.map((r) => new RangeTask(r.start, r.end, (/** @type {Uint8Array} */ bytes) => held.add(r.start, bytes)))
    // A file the caller names needs no directory to be stat'ed or HEADed: where its recorded path is the
    // name (the usual case), that check is the one the probe uses.
    const named = options.validate === false || !options.files ? [] : options.files.map(specOf).filter((s) => s.size === undefined)
    /** @type {ReturnType<typeof checkFiles> | undefined} */
    let early
    const alongside = async () => {
      if (!named.length) return 0
      const paths = [...new Set(await Promise.all(named.map((s) => resolvePath(s.path, this.#base))))]
      early = this.#validate(paths, options.signal)
      await early.settled
      return early.rounds
    }
    await this.#readDirectoryWith(tasks, options, alongside)
    return this.#probeLoaded(column, list, options, { held, early: early?.checks, encodings })
  }

  /**
   * The probe once the directory is here. `held`: block rows a first probe read; `early`: checks of
   * files it started; `encodings`: the values as each column type stores them, by typeKey.
   * @param {string} column
   * @param {unknown[]} list
   * @param {ProbeOptions} options
   * @param {{ held?: ByteCache, early?: Map<string, Promise<FoundValidator>>, encodings?: Map<string, Encoding | Refused> }} carried
   */
  async #probeLoaded(column, list, options, { held, early, encodings = new Map() }) {
    const keys = await this.#keys()
    const requested = options.files ?? this.files.map((e) => ({ path: e.path }))
    const targets = await Promise.all(requested.map(async (/** @type {string | FileSpec} */ f) => {
      const spec = specOf(f)
      const recorded = this.entry(spec.path)
      const path = recorded ? await resolvePath(recorded.path, this.#base) : spec.path
      const entry = recorded ?? keys.get(await fileKey(path))
      return /** @type {Target} */ ({ spec, path, entry })
    }))
    checkSidecarRoom(options.maxResults, list.length, targets.reduce((n, t) => n + (t.entry?.rowGroups.length ?? 0), 0), targets.length,
      this.#source.name)
    const unanswered = options.rowGroupsKnown?.(targets.map((t) => t.entry?.rowGroups.length ?? 0))
    // Files the caller described are checked at once; the others are checked while their blocks are read.
    const toCheck = options.validate === false ? []
      : [...new Set(targets.filter((t) => t.entry && t.spec.size === undefined && !early?.has(t.path)).map((t) => t.path))]
    const started = toCheck.length ? this.#validate(toCheck, options.signal) : undefined
    const checks = targets.map((t) => {
      const { entry } = t
      if (!entry) {
        return Promise.resolve(/** @type {ReturnType<typeof currency>} */ ({
          current: false, reason: StaleReason.MISSING_FROM_INDEX, detail: 'the file is not in the index',
        }))
      }
      if (t.spec.size !== undefined) return Promise.resolve(currency(entry, { size: t.spec.size, validator: t.spec.validator }))
      if (options.validate === false) return Promise.resolve(/** @type {ReturnType<typeof currency>} */ ({ current: true }))
      // One of the two checks every path that is neither described by the caller nor exempt.
      return /** @type {Promise<FoundValidator>} */ (early?.get(t.path) ?? started?.checks.get(t.path))
        .then((now) => currency(entry, now, { checked: true }))
    })
    const known = await Promise.all(targets.map((t, i) => (t.spec.size !== undefined || !t.entry ? checks[i] : undefined)))
    /** @type {RangeTask[]} */
    const tasks = []
    for (const [i, t] of targets.entries()) {
      if (!t.entry || known[i]?.current === false || unanswered?.has(i)) continue
      const type = t.entry.columns[column]
      if (!type) continue
      const encoded = encodedOncePerType(encodings, type, encodeFor, list, t.path, column)
      if ('refused' in encoded) {
        t.refused = encoded.refused
        continue
      }
      t.encoded = encoded
      t.chunks = t.entry.rowGroups.map((g, index) => {
        const chunk = g.chunks[column]
        if (!Array.isArray(chunk) || g.numRows === 0) return { index, chunk }
        return { index, chunk, planned: this.#planChunk(encoded, chunk, tasks, held) }
      })
    }
    const [currencies, blockRounds] = await Promise.all([
      Promise.all(checks),
      this.#runWave(tasks, options),
    ])
    // The checks run beside the block reads: the probe takes as many rounds as the longer of the two.
    this.#rounds += Math.max(blockRounds, started?.rounds ?? 0)
    return {
      column,
      files: targets.map((t, i) => {
        const now = currencies[i]
        const why = now.current ? {} : { reason: now.reason, detail: now.detail, ...(now.validators ? { validators: now.validators } : {}) }
        if (unanswered?.has(i)) return { path: t.path, current: now.current, ...why, unanswered: true, rowGroups: [] }
        const rowGroups = (t.entry?.rowGroups ?? []).map((g, index) => ({
          index, numRows: g.numRows, results: /** @type {import('../verdicts.js').ValueResult[]} */ ([]),
        }))
        if (!now.current) {
          for (const g of rowGroups) {
            g.results = list.map((value) => valueResult(value, 'unknown', null, 'stale-index',
              `the sidecar index does not describe this file as it is: ${now.detail}`))
          }
          return { path: t.path, current: false, ...why, rowGroups }
        }
        if (t.refused) return { path: t.path, current: true, ...refusedFile(list, t.path, column, t.refused, rowGroups) }
        for (const g of rowGroups) g.results = answerChunk(t, g.index, list, column)
        return { path: t.path, current: true, rowGroups }
      }),
    }
  }

  /**
   * One chunk's block reads: for each candidate inside the chunk's bounds, the block its hash selects (from `held`
   * rows when a first probe read them).
   * @param {Encoding} encoded
   * @param {NonNullable<import('./sidecar-directory.js').Chunk>} chunk
   * @param {RangeTask[]} tasks
   * @param {ByteCache | undefined} held
   * @returns {Planned}
   */
  #planChunk(encoded, chunk, tasks, held) {
    const [regionIndex, k, numBytes, minText, maxText] = chunk
    const region = this.directory.regions[regionIndex]
    const { hashed, order, keys } = encoded
    let excluded
    if (order && (minText !== null || maxText !== null)) {
      // keys are the sort keys wherever there is an order (encodeFor).
      const sortKeys = /** @type {import('../indexes/statistics.js').SortKeys} */ (keys)
      excluded = excludedByBounds(order, sortKeys, decodeBound(order.kind, minText), decodeBound(order.kind, maxText))
    }
    const planned = { excluded, blocks: new Array(hashed.count).fill(EMPTY_BLOCK), hits: undefined }
    if (!hashed.count) return planned
    const indices = hashed.blockIndices(numBytes / BYTES_PER_BLOCK)
    /** @type {Map<number, number[]>} candidates by the block their hash selects */
    const wanted = new Map()
    for (let c = 0; c < hashed.count; c++) {
      if (excluded?.[c]) continue
      const block = indices[c]
      let owners = wanted.get(block)
      if (!owners) wanted.set(block, owners = [])
      owners.push(c)
    }
    for (const [block, owners] of wanted) {
      const at = this.#bitsets.offset + blockOffset(region, k, block)
      const bytes = held?.get(at, at + BYTES_PER_BLOCK)
      if (bytes) for (const c of owners) planned.blocks[c] = bytes
      else {
        const onBytes = (/** @type {Uint8Array} */ read) => { for (const c of owners) planned.blocks[c] = read }
        tasks.push(new RangeTask(at, at + BYTES_PER_BLOCK, onBytes))
      }
    }
    return planned
  }

  /**
   * Sharpens one file's probe results (openParquet(…, { index })): where the file's own indexes left a
   * value open and the index describes this file as it is, the index's answer replaces a `maybe` when it
   * is `absent`, and an `unknown` when it is anything but. A
   * file the index does not describe (missing, another size or validator) keeps its results as they are.
   * Resolves to whether the index described the file ({ described, reason?, detail?, validators? }, as a
   * dataset reports it), or undefined when it was not asked: nothing left open, or a column or row groups
   * the index has no entry for in this file.
   * @param {{ name: string, fileSize: number, column: string, values: unknown[],
   *   rowGroups: Array<{ index: number, numRows: number, results: any[] }>, rowGroupCount?: number, signal?: AbortSignal }} probe
   *   rowGroupCount: the file's row groups (all of them, `rowGroups` may be some), checked against the entry's
   * @returns {Promise<{ described: boolean, reason?: string, detail?: string,
   *   validators?: { recorded: string, found: string } } | undefined>}
   */
  async refine({ name, fileSize, column, values, rowGroups, rowGroupCount, signal }) {
    const open = rowGroups.some((g) => g.results.some((r) => r.verdict === 'maybe' || r.verdict === 'unknown'))
    if (!open) return undefined
    // A file missing from the index, or of another size, needs no check to be not described.
    /** @param {SidecarEntry | undefined} entry */
    const stale = (entry) => (!entry ? { described: false, reason: StaleReason.MISSING_FROM_INDEX, detail: 'the file is not in the index' }
      : entry.size !== fileSize
        ? { described: false, reason: StaleReason.SIZE_DIFFERS, detail: `its size is ${fileSize}, the index recorded ${entry.size}` }
        : undefined)
    const fits = (/** @type {SidecarEntry} */ entry) => entry.rowGroups.length >= rowGroups.length && entry.columns[column]
    let entry = this.#directory ? (await this.#keys()).get(await fileKey(name)) : undefined
    if (this.#directory && (!entry || stale(entry) || !fits(entry))) return stale(entry)
    // Before the directory is read, the probe reads it with its blocks, and the entry is looked at after.
    let [answered] = (await this.probe(column, values, { files: [{ path: entry?.path ?? name }], signal, maxResults: Infinity })).files
    if (!entry) {
      entry = (await this.#keys()).get(await fileKey(name))
      if (!entry || stale(entry) || !fits(entry)) return stale(entry)
      if (answered.path !== await resolvePath(entry.path, this.#base)) {
        [answered] = (await this.probe(column, values, { files: [{ path: entry.path }], signal, maxResults: Infinity })).files
      }
    }
    if (!answered.current) {
      return { described: false, reason: answered.reason, detail: answered.detail,
        ...(answered.validators ? { validators: answered.validators } : {}) }
    }
    return sharpenResults(rowGroups, answered.rowGroups, rowGroupCount)
  }

  /**
   * One wave: the directory and `tasks` (a first probe's block rows), with `alongside` (its checks of
   * files, returning their rounds) running beside it; then the directory is checked and kept. A probe
   * or loadDirectory() that comes meanwhile waits for this one.
   * @param {RangeTask[]} tasks
   * @param {{ signal?: AbortSignal }} options
   * @param {() => Promise<number>} [alongside]
   */
  async #readDirectoryWith(tasks, options, alongside = async () => 0) {
    const blob = this.#directoryBlob
    /** @type {Uint8Array | undefined} */
    let bytes
    const wave = [new RangeTask(blob.offset, blob.offset + blob.length, (/** @type {Uint8Array} */ read) => { bytes = read }), ...tasks]
    const loading = (async () => {
      const [waveRounds, sideRounds] = await Promise.all([this.#runWave(wave, options), alongside()])
      this.#rounds += Math.max(waveRounds, sideRounds)
      this.#directory = parseDirectory(/** @type {Uint8Array} */ (bytes), blob, this.#bitsets.length, this.#layout, this.#source.name)
    })()
    this.#loading = loading
    try {
      await loading
    } finally {
      if (this.#loading === loading) this.#loading = undefined
    }
  }

  /** Starts checking files (stat or HEAD), a window at a time; each HEAD counts as a request of the index. */
  /**
   * A dataset probe's ledger (js/sources/io-ledger.js): this probe's reads and HEADs are its requests, counted as its `index` group.
   * @param {import('../sources/io-ledger.js').IoLedger | undefined} ledger
   */
  #joinLedger(ledger) {
    if (!ledger) return
    this.#source.attachIo(ledger, undefined, 'index')
    this.#checksLane = ledger.lane(`${this.#source.name} (file checks)`, undefined, 'index')
  }

  /**
   * @param {string[]} paths
   * @param {AbortSignal | undefined} signal
   */
  #validate(paths, signal) {
    const started = checkFiles(paths, {
      source: this.#source, fetch: this.#fetch, headers: this.#headers, signal, ioLane: this.#checksLane,
    })
    this.#validations += started.requests
    return started
  }

  /**
   * Runs a wave of reads of the index file; returns its rounds.
   * @param {RangeTask[]} tasks
   * @param {{ signal?: AbortSignal }} options
   */
  #runWave(tasks, options) {
    return readWave({ source: this.#source, cache: this.#cache, link: this.#link }, tasks, options.signal)
  }

  async close() {
    await this.#source.close()
  }
}

/**
 * A file the caller names: a path (or URL), or { path, size?, validator? }.
 * @param {string | FileSpec} file
 * @returns {FileSpec}
 */
function specOf(file) {
  return typeof file === 'string' ? { path: file } : file
}


/**
 * Why a file's footer is not the one an entry describes (`row-groups-differ`), or undefined when it may be: another
 * number of row groups (`count`, the file's), or a row group of another row count than the entry records (where read).
 * @param {Array<{ index: number, numRows: number }>} rowGroups the file's (all, or those probed)
 * @param {Array<{ numRows?: number | null } | undefined>} theirs the entry's every row group
 * @param {number | undefined} count the file's row groups; undefined: not checked (a caller that does not say)
 * @returns {{ described: false, reason: string, detail: string } | undefined}
 */
export function rowGroupsDiffer(rowGroups, theirs, count) {
  const other = rowGroups.find((g) => theirs[g.index] == null || (theirs[g.index]?.numRows ?? g.numRows) !== g.numRows)
  if ((count === undefined || count === theirs.length) && !other) return undefined
  return { described: false, reason: StaleReason.ROW_GROUPS_DIFFER, detail: other
    ? `its row group ${other.index} has ${other.numRows} rows, the index recorded ${theirs[other.index]?.numRows ?? 'no such row group'}`
    : `it has ${count} row groups, the index recorded ${theirs.length}` }
}

/**
 * A file's own row-group answers sharpened by the sidecar's for the same file as it is (`theirs[g.index]`,
 * values in the same order): an absent from the index settles a maybe; any answer of the index beats an
 * unknown for want of an index. A value the probe itself decided (its encoding: source `value`) stays.
 * Only while the file's footer agrees with the entry: as many row groups (`count`, the file's), each of the row
 * count the entry records (where it was read). A file replaced by one of the same size where no validator tells
 * them apart (docs/sidecar-index.md "What validators cannot show") passed the check, but its group g is then
 * not the one the index's answer for g is of: the file keeps its own answers (`row-groups-differ`).
 * @param {Array<{ index: number, numRows: number, results: any[] }>} rowGroups
 * @param {Array<{ numRows?: number | null, results: any[] } | undefined>} theirs the entry's every row group
 * @param {number | undefined} count the file's row groups; undefined: not checked (a caller that does not say)
 * @returns {{ described: boolean, reason?: string, detail?: string }}
 */
export function sharpenResults(rowGroups, theirs, count) {
  const differs = rowGroupsDiffer(rowGroups, theirs, count)
  if (differs) return differs
  for (const g of rowGroups) {
    const answers = theirs[g.index]?.results
    if (!answers) continue
    g.results.forEach((r, v) => {
      if (r.source === Source.VALUE) return
      if ((r.verdict === 'maybe' && answers[v].verdict === 'absent') ||
        (r.verdict === 'unknown' && answers[v].verdict !== 'unknown')) g.results[v] = answers[v]
    })
  }
  return { described: true }
}

/**
 * The answers of one row group: presets, then bounds, then the bitset's blocks.
 * @param {Target} target
 * @param {number} rowGroup
 * @param {unknown[]} list
 * @param {string} column
 * @returns {import('../verdicts.js').ValueResult[]}
 */
function answerChunk(target, rowGroup, list, column) {
  const { chunk, planned: maybePlanned } = target.chunks?.[rowGroup] ?? {}
  // Only a current file is answered, so an entry describes it.
  const numRows = /** @type {SidecarEntry} */ (target.entry).rowGroups[rowGroup].numRows
  const encoded = target.encoded
  const fromIndex = (/** @type {unknown} */ value, /** @type {string} */ why) => valueResult(value, 'unknown', null, 'no-index', why)
  if (!encoded) return list.map((v) => fromIndex(v, `the sidecar index has no column ${column} for this file`))
  const { outcomes, owners } = encoded.encoded
  if (numRows === 0) return list.map((v) => valueResult(v, 'absent', Source.STATISTICS, 'empty-row-group', 'the row group has no rows'))
  if (!Array.isArray(chunk)) return unreadableChunkResults(list, outcomes)
  const planned = /** @type {Planned} */ (maybePlanned) // #planChunk planned every chunk with a filter and rows
  planned.hits ??= encoded.hashed.count ? encoded.hashed.checkBlocks(planned.blocks) : new Uint8Array(0)
  const inBounds = new Uint8Array(list.length)
  const maybe = new Uint8Array(list.length)
  for (let k = 0; k < owners.length && k < encoded.hashed.count; k++) {
    if (planned.excluded?.[k]) continue
    inBounds[owners[k]] = 1
    if (planned.hits[k]) maybe[owners[k]] = 1
  }
  return list.map((value, i) => {
    if (outcomes[i].verdict) return { .../** @type {import('../verdicts.js').ValueResult} */ (outcomes[i]) } // a preset answer
    if (!inBounds[i]) {
      return valueResult(value, 'absent', Source.STATISTICS, 'out-of-range', 'outside the min/max the sidecar index records for the chunk')
    }
    return maybe[i]
      ? valueResult(value, 'maybe', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter may hold it')
      : valueResult(value, 'absent', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter rules it out')
  })
}
