// A format-2 sidecar index opened for probing (docs/sidecar-index.md "Format 2"). The tail read holds the
// footer, the layout and (all or most of) the fixed files blob; a probe reads, in one wave, the rest of
// that blob and, per region of its column, the 8 bit rows each value's hash selects (js/sidecar/
// bit-slices.js) — M bytes per value over M chunks — and matches the caller's files to entries
// (sliced-file-matching.js: by identity hash, with no request per file where a listing gives size and
// validator). Paths, reasons and min/max are read only where needed (sliced-parts.js): the path hashes
// and a page of details to say why a file is not described (or to match it by path when only its size is
// known), the pages of the files still open after the bloom check to sharpen them with min/max, when
// those pages are few; sliced-answers.js makes the answers.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { RangeTask } from '../plan/read-scheduler.js'
import { valueResult } from '../verdicts.js'
import { crc32Matches } from './puffin.js'
import { sliceRowBytes, unsliceBitset } from './bit-slices.js'
import { notAnIndex } from './sidecar-directory.js'
import { decodeSlicedLayout, FILES_VERSIONS } from './sidecar-files-part.js'
import { currency } from './sidecar-currency.js'
import { DETAILS_BLOB, FILES_BLOB, IDENTITIES_BLOB, PATH_HASHES_BLOB, SLICES_BLOB } from './sidecar-blobs.js'
import { checkFiles, heldRegion, indexStats } from './sidecar-reads.js'
import { checkSidecarRoom } from '../plan/result-budget.js'
import { SlicedParts } from './sliced-parts.js'
import { CLAIMED, DESCRIBED, DETAILS, FileMatcher, isUrl, PATH, Targets } from './sliced-file-matching.js'
import { answerChunk, sharedResults } from './sliced-answers.js'
import { BloomCheck } from './sliced-bloom-check.js'
import { refusedFile } from './sidecar-probe-values.js'

/**
 * @typedef {import('./sidecar-files-part.js').SlicedLayout} SlicedLayout
 * @typedef {import('./puffin.js').BlobMetadata} BlobMetadata
 * @typedef {import('./puffin.js').PuffinFooter} PuffinFooter
 * @typedef {import('./sliced-parts.js').SlicedBlobs} SlicedBlobs
 * @typedef {import('./sidecar-index.js').ProbeOptions & { bounds?: boolean }} SlicedProbeOptions
 * @typedef {ReturnType<typeof currency>} Currency
 * @typedef {import('./sliced-answers.js').HalvedEncoding} HalvedEncoding
 * @typedef {import('./sliced-answers.js').SharedResults} SharedResults
 * @typedef {import('./sliced-answers.js').AnsweredRowGroup} AnsweredRowGroup
 * @typedef {import('./sliced-file-matching.js').MoreFacts} MoreFacts
 * @typedef {{ path: string, current: boolean, reason?: string, detail?: string, validators?: { recorded: string, found: string },
 *   error?: { code: string, message: string }, unanswered?: boolean, rowGroups: AnsweredRowGroup[] }} AnsweredFile
 */

/** Details pages a probe reads to sharpen open files with min/max, at most (beyond it, the bloom filter's answer stands). */
export const DEFAULT_BOUNDS_BYTES = 64 * 1024

/**
 * Whether a Puffin footer is a format-2 sidecar index's.
 * @param {PuffinFooter} footer
 */
export function isSlicedFooter(footer) {
  return footer.blobs.some((b) => b.type === FILES_BLOB)
}

export class SlicedSidecarIndex {
  /** @type {import('./sidecar-reads.js').IndexSource} */
  #source
  /** @type {import('../plan/read-scheduler.js').ByteCache} */
  #cache
  /** @type {SlicedParts} the index file's parts, read as probes need them */
  #parts
  /** @type {FileMatcher} */
  #matcher
  /** @type {SlicedLayout} */
  #layout
  /** @type {SlicedBlobs} */
  #blobs
  #rounds
  #validations = 0
  /** @type {import('../sources/io-ledger.js').IoLane | undefined} where a probe's HEADs of files are clocked and recorded */
  #checksLane
  #base
  #fetch
  #headers
  #boundsBytes
  /** @type {Map<number, Uint8Array>} regions readBitset read, the most recent last */
  #regionBytes = new Map()
  /** @type {import('./sidecar-directory.js').FileEntry[] | undefined} */
  #entries
  /** @type {Map<string, import('./sidecar-directory.js').FileEntry> | undefined} */
  #byPath
  /** @type {PuffinFooter} */
  #footer

  /**
   * @param {import('./sidecar-reads.js').IndexSource} source its byte source, tail read
   * @param {import('../plan/read-scheduler.js').ByteCache} cache the tail's bytes
   * @param {PuffinFooter} footer the Puffin footer
   * @param {{ base: string | undefined, fetch: typeof globalThis.fetch | undefined, headers: HeadersInit | undefined,
   *   boundsBytes: number | undefined, tailOffset: number }} options
   */
  constructor(source, cache, footer, { base, fetch, headers, boundsBytes, tailOffset }) {
    const where = source.name
    const find = (/** @type {string} */ type) => footer.blobs.find((b) => b.type === type)
    const blobs = /** @type {SlicedBlobs} checked just below */ ({
      slices: find(SLICES_BLOB),
      details: find(DETAILS_BLOB),
      paths: find(PATH_HASHES_BLOB),
      files: find(FILES_BLOB),
      identities: find(IDENTITIES_BLOB),
    })
    for (const [name, blob] of Object.entries(blobs)) {
      if (!blob && name !== 'identities') throw notAnIndex(where, `it has no ${name} blob of format 2`)
    }
    const version = blobs.files.properties?.version
    if (version === undefined || !FILES_VERSIONS.map(String).includes(version) || typeof blobs.files.properties?.layout !== 'string') {
      throw notAnIndex(where, 'its files blob is not version 2 or 3 or has no layout')
    }
    const layout = decodeSlicedLayout(blobs.files.properties.layout, blobs.slices.length, where)
    if (String(layout.version) !== version) throw notAnIndex(where, 'its files blob and its layout are of different versions')
    if (layout.version >= 3 && blobs.identities?.length !== layout.files * 8) {
      throw notAnIndex(where, 'it has no identities blob of one hash per file')
    }
    this.#source = source
    this.#cache = cache
    this.#layout = layout
    this.#blobs = blobs
    this.#base = base
    this.#fetch = fetch
    this.#headers = headers
    this.#boundsBytes = boundsBytes ?? DEFAULT_BOUNDS_BYTES
    this.#rounds = source.stats.requests
    this.#footer = footer
    this.#parts = new SlicedParts(source, cache, blobs, layout, tailOffset)
    this.#matcher = new FileMatcher(this.#parts, base)
  }

  /** The format: 2. */
  get version() {
    return 2
  }

  get columns() {
    return this.#layout.columns
  }

  /** { requests, bytesFetched, rounds, heads } of the index so far, as format 1 counts them. */
  get stats() {
    return indexStats(this.#source, this.#rounds, this.#validations)
  }

  /** Every entry, as format 1's directory records them (chunks: [region, slot, numBytes, min, max]); after loadDirectory(). */
  get files() {
    return this.directory.files
  }

  get directory() {
    if (!this.#entries) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `${this.#source.name}: the sidecar index's entries are not read yet: await index.loadDirectory()`)
    }
    const l = this.#layout
    return { format: 'parquet-bloom-sidecar', version: 2, writer: l.writer, fpp: l.fpp, columns: l.columns,
      regions: l.regions.map(({ offset, count, numBytes }) => ({ offset, count, numBytes })), files: this.#entries }
  }

  /**
   * The entry recorded under exactly this path (after loadDirectory()).
   * @param {string} recorded
   */
  entry(recorded) {
    if (!this.#byPath) {
      this.#byPath = new Map()
      for (const f of this.files) if (!this.#byPath.has(f.path)) this.#byPath.set(f.path, f)
    }
    return this.#byPath.get(recorded)
  }

  /** Reads every page of details and the files blob (one wave) and builds the entries: what an update or a listing of the index needs. */
  async loadDirectory({ signal } = /** @type {{ signal?: AbortSignal }} */ ({})) {
    if (this.#entries) return
    const everyPage = this.#layout.pages ? [...Array(this.#layout.pages).keys()] : []
    await this.#wave([...this.#parts.filesTask(), ...this.#parts.pageTasks(everyPage)],
      { signal })
    const l = this.#layout
    const placements = l.columns.map((c) => this.#parts.placement(c))
    /** @type {import('./sidecar-directory.js').FileEntry[]} */
    const entries = []
    for (let f = 0; f < l.files; f++) {
      const d = this.#parts.detailsOf(f)
      /** @type {Record<string, import('./sidecar-layout.js').ColumnType>} */
      const columns = {}
      /**
       * @type {Array<[string, import('./sidecar-files-part.js').SlicedRegion, number, number, (typeof d.bounds)[number],
       *   Uint8Array | undefined]>} per column the file has: its name, region, region index, first slot, bounds, unreadable flags
       */
      const chunksOf = []
      l.columns.forEach((name, c) => {
        const r = placements[c].regionOf[f]
        if (r < 0) return
        const region = l.regions[r]
        columns[name] = region.type
        chunksOf.push([name, region, r, placements[c].slotOf[f], d.bounds[c], placements[c].unreadable.get(f)])
      })
      // A chunk whose pages could not be read is null, as in format 1's directory.
      const rowGroups = d.rowRows.map((numRows, g) => ({ numRows,
        chunks: Object.fromEntries(chunksOf.map(([name, region, r, slot, bounds, unreadable]) => [name, unreadable?.[g]
          ? null
          : /** @type {import('./sidecar-directory.js').Chunk} */ (
            [r, slot + g, region.numBytes, bounds?.[g]?.[0] ?? null, bounds?.[g]?.[1] ?? null])])) }))
      entries.push({ path: d.path, size: d.size, validator: d.validator, numRows: d.numRows, columns, rowGroups })
    }
    this.#entries = entries
  }

  /**
   * The Puffin metadata of a blob of this type (its properties are in the footer, read at open), or undefined.
   * @param {string} type
   */
  blobMetadata(type) {
    return this.#footer.blobs.find((b) => b.type === type)
  }

  /**
   * A blob of the Puffin file beside the sidecar's own (a table index's snapshot record), read whole in
   * one counted wave (none when the tail read holds it), checked against its CRC-32; undefined when the
   * file has no blob of that type.
   * @param {string} type
   * @returns {Promise<{ bytes: Uint8Array, metadata: BlobMetadata } | undefined>}
   */
  async readBlob(type, { signal } = /** @type {{ signal?: AbortSignal }} */ ({})) {
    const blob = this.blobMetadata(type)
    if (!blob) return undefined
    let bytes = this.#cache.get(blob.offset, blob.offset + blob.length)
    const onBytes = (/** @type {Uint8Array} */ read) => { bytes = read }
    if (!bytes) await this.#wave([new RangeTask(blob.offset, blob.offset + blob.length, onBytes)], { signal })
    const whole = /** @type {Uint8Array} */ (bytes) // held, or read by the wave
    if (!crc32Matches(blob.properties?.crc32, whole)) throw notAnIndex(this.#source.name, `its ${type} blob does not match its CRC-32`)
    return { bytes: whole, metadata: blob }
  }

  /**
   * One stored bitset, whole (for copying into a new index): its region is read whole, the last few kept.
   * @param {number} regionIndex
   * @param {number} k
   */
  async readBitset(regionIndex, k) {
    const region = this.#layout.regions[regionIndex]
    const bytes = await heldRegion(this.#regionBytes, regionIndex, () => {
      this.#rounds++
      return this.#source.read(this.#blobs.slices.offset + region.offset, region.numBytes * 8 * sliceRowBytes(region.count))
    })
    return unsliceBitset(bytes, region, k)
  }

  /**
   * Says, per file and row group, whether each value may be in `column`, from the index alone; as format
   * 1's probe (js/sidecar/sidecar-index.js), with `files` matched by identity where they give a
   * size and validator. `numRows` of a row group is null where its file's details were not read.
   * @param {string} column
   * @param {Iterable<unknown>} values
   * @param {SlicedProbeOptions} [options] ioLedger: as format 1's probe takes it
   * @returns {Promise<{ column: string, files: AnsweredFile[] }>}
   */
  async probe(column, values, options = {}) {
    const list = Array.from(values)
    this.#joinLedger(options.ioLedger)
    const { signal } = options
    const validate = options.validate !== false
    const specs = options.files?.map((f) => (typeof f === 'string' ? { path: f } : f))
    const bloom = new BloomCheck(this.#layout, list, this.#source.name, column)
    const rowTasks = bloom.rowTasks(this.#blobs.slices.offset)
    const wantPaths = !this.#parts.pathTable && specs?.some((s) => s.size === undefined && !validate)
    const waveA = [...this.#parts.filesTask(), ...rowTasks, ...(wantPaths ? this.#parts.pathsTask() : []),
      ...(specs ? [] : this.#parts.pageTasks([...Array(this.#layout.pages).keys()]))]
    // Files named without a size are checked (stat / HEAD) beside the first wave.
    const toCheck = specs && validate
      ? [...new Set(await Promise.all(specs.filter((s) => s.size === undefined).map((s) => this.#matcher.resolve(s.path))))]
      : []
    const started = toCheck.length ? this.#validate(toCheck, signal) : undefined
    const rounds = await Promise.all([this.#parts.waveRounds(waveA, signal), started ? started.settled.then(() => started.rounds) : 0])
    this.#rounds += Math.max(...rounds)

    const targets = specs ? await this.#matcher.match(specs, validate, started) : await this.#everyFile(validate, signal)
    const { entry, state, more } = targets
    const placement = this.#parts.placement(column)
    const { regionOf, unreadable } = placement
    const rowGroupCounts = this.#parts.filesPart().rowGroups
    let rowGroups = 0
    for (let i = 0; i < targets.count; i++) if (entry[i] >= 0) rowGroups += rowGroupCounts[entry[i]]
    checkSidecarRoom(options.maxResults, list.length, rowGroups, targets.count, this.#source.name)
    bloom.place(placement, rowGroupCounts)
    /** @type {Map<number, Uint8Array>} per caller's file with a bloom hit: maybe[g × candidates + c], candidate c may be in row group g */
    const maybes = new Map()
    /** The bloom check of caller's file i's chunks, in the entry it is (or claims to be). */
    const bloomCheck = (/** @type {number} */ i) => {
      const maybe = bloom.check(entry[i])
      if (maybe) maybes.set(i, maybe)
    }
    /** The details pages of the open files `opened` for their min/max, when they are few. */
    const boundsPages = (/** @type {number[]} */ opened) => {
      if (!opened.length || options.bounds === false) return []
      const pages = [...new Set(opened.map((i) => this.#parts.pageOf(entry[i])))].filter((p) => !this.#parts.hasPage(p))
      const bytes = pages.reduce((n, p) => n + this.#parts.filesPart().pages[p].length, 0)
      return options.bounds === true || bytes <= this.#boundsBytes ? pages : []
    }
    const checked = new Uint8Array(targets.count)
    // Version 3: claims confirmed by their pages' digests; the others' identities are read in the wave that
    // reads the bounds of the files the bloom check leaves open (a claim is checked as the entry it names).
    const identityPages = this.#parts.filesPart().hashes ? [] : this.#matcher.confirmByDigest(targets)
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== DESCRIBED && !(state[i] === CLAIMED && entry[i] >= 0)) continue
      checked[i] = 1
      bloomCheck(i)
    }
    await this.#wave([...this.#parts.identityTasks(identityPages), ...this.#parts.pageTasks(boundsPages([...maybes.keys()]))], { signal })
    if (!this.#parts.filesPart().hashes) {
      this.#matcher.confirmByIdentities(targets)
      for (const i of maybes.keys()) {
        if (state[i] !== DESCRIBED) maybes.delete(i)
      }
      for (let i = 0; i < targets.count; i++) if (state[i] !== DESCRIBED) checked[i] = 0
    }

    // Not matched by identity: by path, then its details say why (or that the caller's facts fit it).
    const byPath = [...more.keys()].filter((i) => state[i] === PATH)
    if (byPath.length) {
      if (!this.#parts.pathTable) await this.#wave(this.#parts.pathsTask(), { signal })
      this.#matcher.matchByPath(targets, byPath)
    }
    const needReasons = byPath.filter((i) => state[i] === DETAILS)
    if (needReasons.length) {
      await this.#wave(this.#parts.pageTasks(needReasons.map((i) => this.#parts.pageOf(entry[i]))), { signal })
      this.#matcher.decideByDetails(targets, needReasons)
    }

    // Files described by path: their bloom check, and their bounds.
    const late = []
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== DESCRIBED || checked[i]) continue
      bloomCheck(i)
      if (maybes.has(i)) late.push(i)
    }
    await this.#wave(this.#parts.pageTasks(boundsPages(late)), { signal })
    // Every file matched, some by path just now (named without a size, `validate: false`: uncounted above, where they had
    // 200 row groups answered past maxResults 2): the row groups each is answered for, counted before any answer is made.
    const described = Array.from({ length: targets.count }, (_, i) => (entry[i] >= 0 ? rowGroupCounts[entry[i]] : 0))
    checkSidecarRoom(options.maxResults, list.length, described.reduce((n, g) => n + g, 0), targets.count, this.#source.name)
    const unanswered = options.rowGroupsKnown?.(described)
    const c = this.#layout.columns.indexOf(column)
    const shared = sharedResults(list)
    const useBounds = options.bounds !== false
    /** @type {AnsweredFile[]} */
    const files = new Array(targets.count)
    for (let i = 0; i < targets.count; i++) {
      const f = entry[i]
      if (unanswered?.has(i)) {
        const why = state[i] === DESCRIBED ? undefined : /** @type {MoreFacts} */ (more.get(i)).why
        files[i] = { path: targets.paths[i], current: !why, ...(why ? { reason: why.reason, detail: why.detail,
          ...(why.validators ? { validators: why.validators } : {}) } : {}), unanswered: true, rowGroups: [] }
        continue
      }
      const r = f >= 0 ? regionOf[f] : -1
      const encoding = r >= 0 ? bloom.encodingOf(r) : undefined
      // A file whose column type refuses a value answers so (refusedFile), never from its filters (which check() did not ask).
      const refused = encoding && 'refused' in encoding ? encoding.refused : undefined
      const encoded = refused ? undefined : /** @type {HalvedEncoding | undefined} */ (encoding)
      const detailsRead = this.#parts.anyPage && this.#parts.pageOfFile(f)
      if (state[i] === DESCRIBED && encoded && !maybes.has(i) && !detailsRead && !unreadable.has(f)) {
        // Every row group ruled out by the bloom check alone (most files, for an absent value): answers
        // shared by every such file with as many row groups.
        files[i] = { path: targets.paths[i], current: true, rowGroups: shared.ruledOut(rowGroupCounts[f], encoded) }
        continue
      }
      /** @type {AnsweredFile} */
      const answered = { path: targets.paths[i], current: state[i] === DESCRIBED, rowGroups: [] }
      // A file not described is stale for a reason kept in `more`.
      const why = state[i] === DESCRIBED ? undefined : /** @type {MoreFacts} */ (more.get(i)).why
      this.#answer(answered, why, f, encoded, maybes.get(i), unreadable.get(f), list, column, c, useBounds, shared)
      if (refused && !why) Object.assign(answered, refusedFile(list, answered.path, column, refused, answered.rowGroups))
      files[i] = answered
    }
    return { column, files }
  }

  /**
   * One file's entry of a probe's answer, beyond the common case: not described (`why`), or open after the bloom
   * check, or with its details read.
   * @param {AnsweredFile} answered
   * @param {Currency | undefined} why
   * @param {number} f its entry, or -1
   * @param {HalvedEncoding | undefined} encoded
   * @param {Uint8Array | undefined} maybe
   * @param {Uint8Array | undefined} unreadable
   * @param {unknown[]} list
   * @param {string} column
   * @param {number} c the column's index in the layout
   * @param {boolean} useBounds
   * @param {SharedResults} shared
   */
  #answer(answered, why, f, encoded, maybe, unreadable, list, column, c, useBounds, shared) {
    const details = f >= 0 ? this.#parts.pageOfFile(f) : undefined
    const groups = f >= 0 ? this.#parts.filesPart().rowGroups[f] : 0
    /** @type {AnsweredRowGroup[]} */
    const rowGroups = new Array(groups)
    for (let index = 0; index < groups; index++) rowGroups[index] = { index, numRows: details ? details.rowRows[index] : null, results: [] }
    answered.rowGroups = rowGroups
    if (why) {
      const results = list.map((value) => valueResult(value, 'unknown', null, 'stale-index',
        `the sidecar index does not describe this file as it is: ${why.detail}`))
      for (const g of rowGroups) g.results = results.slice()
      Object.assign(answered, {
        reason: why.reason, detail: why.detail, ...(why.validators ? { validators: why.validators } : {}), rowGroups,
      })
      return
    }
    for (const g of rowGroups) {
      g.results = answerChunk(encoded, maybe, unreadable?.[g.index] === 1, g, list, column,
        useBounds ? details?.bounds[c]?.[g.index] : undefined, shared)
    }
  }

  /**
   * Sharpens one file's probe results, as format 1's refine does (the file stat'ed or HEADed to be matched).
   * @param {Parameters<import('./sidecar-index.js').SidecarIndex['refine']>[0]} probe
   */
  async refine({ name, column, values, rowGroups, rowGroupCount, signal }) {
    const open = rowGroups.some((g) => g.results.some((r) => r.verdict === 'maybe' || r.verdict === 'unknown'))
    if (!open) return undefined
    // The file was opened by its name from the working directory; a relative name given to probe() would be taken as
    // relative to the index's base, another file where the base is another folder (format 1 resolves it alike).
    let path = name
    if (this.#base !== undefined && !isUrl(this.#base) && !isUrl(name)) {
      const nodePath = await import('node:path')
      if (!nodePath.isAbsolute(name)) path = nodePath.resolve(name)
    }
    const [answered] = (await this.probe(column, values, { files: [{ path }], signal, maxResults: Infinity })).files
    if (!answered.current) {
      return { described: false, reason: answered.reason, detail: answered.detail,
        ...(answered.validators ? { validators: answered.validators } : {}) }
    }
    if (answered.rowGroups.length < rowGroups.length) return undefined
    const { sharpenResults } = await import('./sidecar-index.js')
    return sharpenResults(rowGroups, answered.rowGroups, rowGroupCount)
  }

  async close() {
    await this.#source.close()
  }

  /**
   * Every file of the index (no `files`): their paths from the details, checked unless `validate` is false.
   * @param {boolean} validate
   * @param {AbortSignal | undefined} signal
   */
  async #everyFile(validate, signal) {
    const recorded = (/** @type {number} */ f) => this.#parts.detailsOf(f).path
    const paths = await Promise.all(Array.from({ length: this.#layout.files }, (_, f) => this.#matcher.resolve(recorded(f))))
    const targets = new Targets(paths)
    paths.forEach((_, f) => {
      targets.entry[f] = f
      targets.state[f] = DESCRIBED
    })
    if (!validate) return targets
    const started = this.#validate([...new Set(paths)], signal)
    await started.settled
    this.#rounds += started.rounds
    for (let f = 0; f < paths.length; f++) {
      const now = currency(this.#parts.detailsOf(f), await /** @type {Promise<any>} */ (started.checks.get(paths[f])), { checked: true })
      if (!now.current) targets.stale(f, now)
    }
    return targets
  }

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
   * @param {RangeTask[]} tasks
   * @param {{ signal?: AbortSignal }} options
   */
  async #wave(tasks, { signal }) {
    this.#rounds += await this.#parts.waveRounds(tasks, signal)
  }
}
