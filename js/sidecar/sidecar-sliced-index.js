// A format-2 sidecar index opened for probing (docs/sidecar-index.md "Format 2"). The tail read holds the
// footer, the layout and (all or most of) the fixed files blob; a probe reads, in one wave, the rest of
// that blob and, per region of its column, the 8 bit rows each value's hash selects (js/index-builder/
// bit-slices.js) — M bytes per value over M chunks. Files the caller describes (size and validator, as a
// listing gives them) are matched by identity hash with no request per file; a file answered from the
// index is one whose identity matches exactly one entry's whole 64-bit hash (files blob version 3 stores a
// 4-byte locator per file: a caller's claims are vouched for a page at a time by the page's digest, or by
// the page's whole hashes, read where no digest vouches). Paths, reasons and min/max are read only where
// needed: the path hashes and a page of details to say why a file is not described (or to match it by
// path when only its size is known), the pages of the files still open after the bloom check to sharpen
// them with min/max, when those pages are few.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { crc32 } from '../pages/crc32.js'
import { sameBytes } from '../format/bytes.js'
import { RangeTask } from '../plan/read-scheduler.js'
import { LinkModel } from '../plan/link-model.js'
import { excludedByBounds } from '../indexes/statistics.js'
import { Source, valueResult } from '../verdicts.js'
import { crc32Hex } from './puffin.js'
import { andRows, blockIndexOf, hashRows, sliceRowBytes, unsliceBitset } from './bit-slices.js'
import { decodeBound, notAnIndex } from './sidecar-directory.js'
import { decodeDetailsPage } from './sidecar-details.js'
import { decodeFilesPart, decodeSlicedLayout, FILES_VERSIONS, placeColumn, unreadableChunks } from './sidecar-files-part.js'
import { AMBIGUOUS, hashHalves, hashStrings, HashTable, identityText, pageDigests } from './sidecar-identity.js'
import { typeKey } from './sidecar-layout.js'
import { currency, StaleReason } from './sidecar-currency.js'
import { DETAILS_BLOB, FILES_BLOB, IDENTITIES_BLOB, PATH_HASHES_BLOB, SLICES_BLOB } from './sidecar-blobs.js'
import { encodeFor, unreadableChunkResults } from './sidecar-probe-values.js'
import { checkFiles, heldRegion, indexStats, readWave } from './sidecar-reads.js'

/**
 * @typedef {import('./sidecar-files-part.js').SlicedLayout} SlicedLayout
 * @typedef {import('./sidecar-files-part.js').FilesPart} FilesPart
 * @typedef {import('./puffin.js').BlobMetadata} BlobMetadata
 * @typedef {import('./puffin.js').PuffinFooter} PuffinFooter
 * @typedef {{ slices: BlobMetadata, details: BlobMetadata, paths: BlobMetadata, files: BlobMetadata,
 *   identities: BlobMetadata | undefined }} SlicedBlobs the blobs of format 2 (identities: files blob version 3)
 * @typedef {import('./sidecar-index.js').FileSpec} FileSpec
 * @typedef {import('./sidecar-index.js').ProbeOptions & { bounds?: boolean }} SlicedProbeOptions
 * @typedef {ReturnType<typeof currency>} Currency
 * @typedef {ReturnType<typeof encodeWithHalves>} HalvedEncoding
 * @typedef {ReturnType<typeof sharedResults>} SharedResults
 * @typedef {string[] & { plain?: boolean }} PathForms
 * @typedef {{ forms: PathForms, now: { size: number, validator?: string | null } | undefined, checked: boolean,
 *   why: Currency | undefined }} MoreFacts
 *   a caller's file not matched by identity: the forms its path may be recorded under, its size and validator, why it is stale
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {import('./sidecar-directory.js').RecordedBound} RecordedBound
 * @typedef {{ index: number, numRows: number | null, results: ValueResult[] }} AnsweredRowGroup
 * @typedef {{ path: string, current: boolean, reason?: string, detail?: string, validators?: { recorded: string, found: string },
 *   rowGroups: AnsweredRowGroup[] }} AnsweredFile
 */

/** Details pages a probe reads to sharpen open files with min/max, at most (beyond it, the bloom filter's answer stands). */
export const DEFAULT_BOUNDS_BYTES = 64 * 1024
const URL_PREFIX = /^https?:\/\//i
/** Whether a path is an http(s) URL (its first letter tested before the pattern: most paths are not). */
const isUrl = (/** @type {string} */ p) => (p.charCodeAt(0) | 32) === 104 && URL_PREFIX.test(p)

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
  /** @type {SlicedBlobs} */
  #blobs
  /** @type {SlicedLayout} */
  #layout
  /** @type {FilesPart | undefined} the files blob, once read (#filesPart()) */
  #part
  /** @type {HashTable | undefined} the files' identity hashes (version 3: their locators), with the files blob */
  #identities
  /** @type {HashTable | undefined} the path hashes, once a probe needed them */
  #paths
  /** @type {Map<string, { regionOf: Int32Array, slotOf: Uint32Array, unreadable: Map<number, Uint8Array> }>} */
  #placements = new Map()
  /** @type {Map<number, import('./sidecar-details.js').FileDetails[]>} */
  #pages = new Map()
  #link = new LinkModel()
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

  /** @type {string | undefined} The base as an absolute local path, once a caller's path needed it. */
  #absoluteBase

  /** @type {boolean | undefined} Whether the base is a URL, once a caller's path needed it. */
  #baseIsUrl

  /** Where the tail read began: the files blob's bytes from there on are held. */
  #tailOffset

  /** @type {Map<number, Uint8Array>} version 3: pages of the identities blob read, each checked against its digest */
  #identityPages = new Map()

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
    this.#layout = decodeSlicedLayout(blobs.files.properties.layout, blobs.slices.length, where)
    if (String(this.#layout.version) !== version) throw notAnIndex(where, 'its files blob and its layout are of different versions')
    if (this.#layout.version >= 3 && blobs.identities?.length !== this.#layout.files * 8) {
      throw notAnIndex(where, 'it has no identities blob of one hash per file')
    }
    this.#source = source
    this.#cache = cache
    this.#blobs = blobs
    this.#base = base
    this.#fetch = fetch
    this.#headers = headers
    this.#boundsBytes = boundsBytes ?? DEFAULT_BOUNDS_BYTES
    this.#rounds = source.stats.requests
    this.#tailOffset = tailOffset
    this.#footer = footer
    const held = cache.get(blobs.files.offset, blobs.files.offset + blobs.files.length)
    if (held) this.#takeFilesPart(held)
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
    await this.#wave([...this.#filesTask(), ...this.#pageTasks(this.#layout.pages ? [...Array(this.#layout.pages).keys()] : [])],
      { signal })
    const l = this.#layout
    const placements = l.columns.map((c) => this.#placement(c))
    /** @type {import('./sidecar-directory.js').FileEntry[]} */
    const entries = []
    for (let f = 0; f < l.files; f++) {
      const d = this.#detailsOf(f)
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
    if (blob.properties?.crc32 !== crc32Hex(whole)) throw notAnIndex(this.#source.name, `its ${type} blob does not match its CRC-32`)
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
    /** @type {Map<string, HalvedEncoding>} */
    const encodings = new Map()
    // The rows of every region of the column, for every value's candidates: whoever the files are.
    const rowTasks = []
    /** @type {Map<string, Uint8Array>} by `${region}:${position}` */
    const rowBytes = new Map()
    for (const [r, region] of this.#layout.regions.entries()) {
      if (region.column !== column) continue
      const encoded = this.#encodingFor(encodings, region.type, list, column)
      const rows = sliceRowBytes(region.count)
      const positions = new Set()
      for (const c of encoded.candidates) for (const p of hashRows(blockIndexOf(c.high, region.numBytes / 32), c.low)) positions.add(p)
      for (const p of positions) {
        const start = this.#blobs.slices.offset + region.offset + p * rows
        rowTasks.push(new RangeTask(start, start + rows, (/** @type {Uint8Array} */ bytes) => rowBytes.set(`${r}:${p}`, bytes)))
      }
    }
    const wantPaths = !this.#paths && specs?.some((s) => s.size === undefined && !validate)
    const waveA = [...this.#filesTask(), ...rowTasks, ...(wantPaths ? this.#pathsTask() : []),
      ...(specs ? [] : this.#pageTasks([...Array(this.#layout.pages).keys()]))]
    // Files named without a size are checked (stat / HEAD) beside the first wave.
    const toCheck = specs && validate
      ? [...new Set(await Promise.all(specs.filter((s) => s.size === undefined).map((s) => this.#resolve(s.path))))]
      : []
    const started = toCheck.length ? this.#validate(toCheck, signal) : undefined
    const rounds = await Promise.all([this.#waveRounds(waveA, signal), started ? started.settled.then(() => started.rounds) : 0])
    this.#rounds += Math.max(...rounds)

    const targets = specs ? await this.#targets(specs, validate, started) : await this.#everyFile(validate, signal)
    const { entry, state, more } = targets
    const placement = this.#placement(column)
    /** @type {Array<Array<Uint8Array>>} per region, per candidate: the AND of its 8 rows */
    const masks = []
    /**
     * @param {number} r
     * @param {HalvedEncoding['candidates']} candidates
     */
    const masksOf = (r, candidates) => {
      if (!masks[r]) {
        const region = this.#layout.regions[r]
        masks[r] = candidates.map((c) => andRows(hashRows(blockIndexOf(c.high, region.numBytes / 32), c.low)
          .map((p) => /** @type {Uint8Array} */ (rowBytes.get(`${r}:${p}`)))))
      }
      return masks[r]
    }
    /** @type {Map<number, Uint8Array>} per caller's file with a bloom hit: maybe[g × candidates + c], candidate c may be in row group g */
    const maybes = new Map()
    /** @type {HalvedEncoding[]} per region of the column: the values as its type stores them */
    const regionEncodings = []
    const rowGroupCounts = this.#filesPart().rowGroups
    const { regionOf, slotOf, unreadable } = placement
    /** The bloom check of caller's file i's chunks, in the entry it is (or claims to be). */
    const bloomCheck = (/** @type {number} */ i) => {
      const f = entry[i]
      const r = regionOf[f]
      if (r < 0) return
      const encoded = (regionEncodings[r] ??= this.#encodingFor(encodings, this.#layout.regions[r].type, list, column))
      const slot = slotOf[f]
      const end = slot + rowGroupCounts[f]
      const regionMasks = masksOf(r, encoded.candidates)
      // Most files of an absent value have no bit set: they are told apart without an allocation.
      let any = false
      for (let c = 0; c < regionMasks.length && !any; c++) {
        const mask = regionMasks[c]
        for (let k = slot; k < end; k++) {
          if ((mask[k >>> 3] >> (k & 7)) & 1) {
            any = true
            break
          }
        }
      }
      if (!any) return
      const count = regionMasks.length
      const maybe = new Uint8Array((end - slot) * count)
      for (let c = 0; c < count; c++) {
        const mask = regionMasks[c]
        for (let g = 0, k = slot; k < end; g++, k++) maybe[g * count + c] = (mask[k >>> 3] >> (k & 7)) & 1
      }
      maybes.set(i, maybe)
    }
    /** The details pages of the open files `opened` for their min/max, when they are few. */
    const boundsPages = (/** @type {number[]} */ opened) => {
      if (!opened.length || options.bounds === false) return []
      const pages = [...new Set(opened.map((i) => this.#pageOf(entry[i])))].filter((p) => !this.#pages.has(p))
      const bytes = pages.reduce((n, p) => n + this.#filesPart().pages[p].length, 0)
      return options.bounds === true || bytes <= this.#boundsBytes ? pages : []
    }
    const checked = new Uint8Array(targets.count)
    // Version 3: claims confirmed by their pages' digests; the others' identities are read in the wave that
    // reads the bounds of the files the bloom check leaves open (a claim is checked as the entry it names).
    const identityPages = this.#filesPart().hashes ? [] : this.#confirmByDigest(targets)
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== DESCRIBED && !(state[i] === CLAIMED && entry[i] >= 0)) continue
      checked[i] = 1
      bloomCheck(i)
    }
    await this.#wave([...this.#identityTasks(identityPages), ...this.#pageTasks(boundsPages([...maybes.keys()]))], { signal })
    if (!this.#filesPart().hashes) {
      this.#confirmByIdentities(targets)
      for (const i of maybes.keys()) {
        if (state[i] !== DESCRIBED) maybes.delete(i)
      }
      for (let i = 0; i < targets.count; i++) if (state[i] !== DESCRIBED) checked[i] = 0
    }

    // Not matched by identity: by path, then its details say why (or that the caller's facts fit it).
    const byPath = [...more.keys()].filter((i) => state[i] === PATH)
    if (byPath.length) {
      if (!this.#paths) await this.#wave(this.#pathsTask(), { signal })
      const paths = /** @type {HashTable} */ (this.#paths) // held, or read by the wave
      // Facts of byPath's files are kept (they are keys of `more`).
      const factsOf = (/** @type {number} */ i) => /** @type {MoreFacts} */ (more.get(i))
      const hashes = hashHalves(hashStrings(byPath.flatMap((i) => factsOf(i).forms)))
      let h = 0
      for (const i of byPath) {
        const t = factsOf(i)
        let found = -1
        for (let k = 0; k < t.forms.length; k++, h++) {
          const f = paths.find(hashes.low[h], hashes.high[h])
          if (found === -1 && f !== -1) found = f
        }
        if (found === AMBIGUOUS) targets.stale(i, ambiguous('path'))
        else if (found < 0) targets.stale(i, notInIndex())
        else {
          entry[i] = found
          state[i] = t.now ? DETAILS : DESCRIBED
        }
      }
    }
    const needReasons = byPath.filter((i) => state[i] === DETAILS)
    if (needReasons.length) {
      await this.#wave(this.#pageTasks(needReasons.map((i) => this.#pageOf(entry[i]))), { signal })
      for (const i of needReasons) {
        const t = /** @type {MoreFacts} */ (more.get(i)) // needReasons are of byPath
        const d = this.#detailsOf(entry[i])
        // The path's hash found it; its text must be one of the caller's forms (a hash of paths is not the path).
        if (!t.forms.includes(d.path)) targets.stale(i, notInIndex())
        else {
          // A file is DETAILS only with its size (and validator) known.
          const now = currency(d, /** @type {NonNullable<MoreFacts['now']>} */ (t.now), { checked: t.checked })
          if (now.current) state[i] = DESCRIBED
          else targets.stale(i, now)
        }
      }
    }

    // Files described by path: their bloom check, and their bounds.
    const late = []
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== DESCRIBED || checked[i]) continue
      bloomCheck(i)
      if (maybes.has(i)) late.push(i)
    }
    await this.#wave(this.#pageTasks(boundsPages(late)), { signal })
    const c = this.#layout.columns.indexOf(column)
    const shared = sharedResults(list)
    const useBounds = options.bounds !== false
    /** @type {AnsweredFile[]} */
    const files = new Array(targets.count)
    for (let i = 0; i < targets.count; i++) {
      const f = entry[i]
      const r = f >= 0 ? regionOf[f] : -1
      const encoded = r >= 0 ? regionEncodings[r] : undefined
      if (state[i] === DESCRIBED && encoded && !maybes.has(i) && (!this.#pages.size || !this.#pageOfFile(f)) && !unreadable.has(f)) {
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
    const details = f >= 0 ? this.#pageOfFile(f) : undefined
    const groups = f >= 0 ? this.#filesPart().rowGroups[f] : 0
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
  async refine({ name, column, values, rowGroups, signal }) {
    const open = rowGroups.some((g) => g.results.some((r) => r.verdict === 'maybe' || r.verdict === 'unknown'))
    if (!open) return undefined
    // The file was opened by its name from the working directory; a relative name given to probe() would be taken as
    // relative to the index's base, another file where the base is another folder (format 1 resolves it alike).
    let path = name
    if (this.#base !== undefined && !isUrl(this.#base) && !isUrl(name)) {
      const nodePath = await import('node:path')
      if (!nodePath.isAbsolute(name)) path = nodePath.resolve(name)
    }
    const [answered] = (await this.probe(column, values, { files: [{ path }], signal })).files
    if (!answered.current) {
      return { described: false, reason: answered.reason, detail: answered.detail,
        ...(answered.validators ? { validators: answered.validators } : {}) }
    }
    if (answered.rowGroups.length < rowGroups.length) return undefined
    const { sharpenResults } = await import('./sidecar-index.js')
    sharpenResults(rowGroups, answered.rowGroups)
    return { described: true }
  }

  async close() {
    await this.#source.close()
  }

  /**
   * How each caller's file is matched: by identity now (one batch of hashes for all of them), by path
   * later, or after its check. Files matched by identity (all of a listing's, as a rule) get no object of
   * their own: only the others' forms, facts and reasons are kept.
   * @param {FileSpec[]} specs
   * @param {boolean} validate
   * @param {ReturnType<typeof checkFiles> | undefined} started the checks of files named without a size
   */
  async #targets(specs, validate, started) {
    const path = this.#base !== undefined && !isUrl(this.#base) ? await import('node:path') : undefined
    const targets = new Targets(specs.map((s) => s.path))
    const { more, state } = targets
    /** per identity text: the caller's file it is of */
    /** @type {number[]} */
    let owners = []
    /** @type {string[]} */
    let texts = []
    const identities = this.#identityTable()
    const located = !this.#filesPart().hashes
    const { entry } = targets
    // Hashed a batch at a time, so the texts die young (a listing's worth of them would outlive collections).
    const match = () => {
      const { low, high } = hashHalves(hashStrings(texts))
      for (let h = 0; h < texts.length; h++) {
        const i = owners[h]
        if (state[i] !== PATH) continue // an earlier form decided
        if (located) {
          // A claim: the entry with this locator (or, shared, every such entry) is checked against the whole hash later.
          const f = identities.find(low[h], 0)
          if (f === -1) continue
          entry[i] = f
          state[i] = CLAIMED
          targets.low[i] = low[h]
          targets.high[i] = high[h]
          continue
        }
        const f = identities.find(low[h], high[h])
        if (f === AMBIGUOUS) targets.stale(i, ambiguous('identity'))
        else if (f >= 0) {
          entry[i] = f
          state[i] = DESCRIBED
        }
      }
      owners = []
      texts = []
    }
    for (let i = 0; i < specs.length; i++) {
      if (texts.length >= IDENTITY_BATCH) match()
      const spec = specs[i]
      if (spec.size !== undefined && spec.size >= 0 && spec.validator && this.#hashedAsGiven(spec.path, path)) {
        // The identity decides, with no request per file.
        owners.push(i)
        texts.push(identityText(spec.path, spec.size, spec.validator))
        continue
      }
      const forms = this.#recordedForms(spec.path, path)
      /** @type {MoreFacts['now']} */
      let now
      let checked = false
      if (spec.size !== undefined) now = { size: spec.size, validator: spec.validator ?? null }
      else if (validate) {
        // Validating, every file named without a size is being checked.
        const { checks } = /** @type {ReturnType<typeof checkFiles>} */ (started)
        now = await checks.get(this.#resolveWith(spec.path, path))
        checked = true
      }
      more.set(i, { forms, now, checked, why: undefined })
      if (now && now.size < 0) targets.stale(i, currency({ size: 0, validator: null }, now))
      else if (now?.validator) {
        // A plain relative name is hashed as given (what a build under the same base records); its other
        // forms are tried by path when that finds nothing.
        const hashed = forms.plain === true ? 1 : forms.length
        for (let k = 0; k < hashed; k++) {
          owners.push(i)
          texts.push(identityText(forms[k], now.size, now.validator))
        }
      }
    }
    match()
    targets.specs = specs
    targets.nodePath = path
    this.#byPathLater(targets)
    return targets
  }

  /**
   * Those of the fast path that matched no entry (or whose claim failed) are looked up by path, as the others.
   * @param {Targets} targets
   */
  #byPathLater(targets) {
    const { specs, state, more } = targets
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== PATH || more.has(i)) continue
      more.set(i, {
        forms: this.#recordedForms(specs[i].path, targets.nodePath),
        now: { size: /** @type {number} */ (specs[i].size), validator: specs[i].validator }, // the fast path's have sizes
        checked: false,
        why: undefined,
      })
    }
  }

  /**
   * Version 3: confirms claims by page where the caller claims every file of a page — the digest of the
   * claimants' hashes in file order is the page's — and returns the pages whose identities must be read
   * for the other claims (a page claimed in part, or whose digest no claimants give). A locator several
   * entries share makes its callers claimants of each; a page tries each choice of its claimants (a few).
   * @param {Targets} targets
   * @returns {number[]}
   */
  #confirmByDigest(targets) {
    const { entry, state } = targets
    const n = this.#layout.files
    const pageFiles = this.#layout.pageFiles
    /** per entry: its one claimant (a caller's file), -1: none, -2: several (in `more`) */
    const claim = new Int32Array(n).fill(-1)
    /** @type {Map<number, number[]>} the entries with several claimants: theirs */
    const several = new Map()
    const candidates = (/** @type {number} */ i) => (entry[i] === AMBIGUOUS ? this.#identityTable().findAll(targets.low[i], 0) : [entry[i]])
    /**
     * @param {number} f an entry
     * @param {number} i a caller's file claiming it
     */
    const addClaim = (f, i) => {
      if (claim[f] === -1) claim[f] = i
      else if (claim[f] >= 0) {
        several.set(f, [claim[f], i])
        claim[f] = -2
      } else several.get(f)?.push(i)
    }
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== CLAIMED) continue
      if (entry[i] === AMBIGUOUS) for (const f of candidates(i)) addClaim(f, i)
      else addClaim(entry[i], i)
    }
    /** per page tried: its first file, and one choice of claimants (one caller per file), whose hashes are in `blobs` */
    const tries = []
    const blobs = []
    const { low, high } = targets
    for (let p = 0; p < this.#layout.pages; p++) {
      const first = p * pageFiles
      const end = Math.min(n, first + pageFiles)
      let choices = 1
      for (let f = first; f < end && choices; f++) {
        if (claim[f] === -1) choices = 0
        else if (claim[f] === -2) choices *= /** @type {number[]} */ (several.get(f)).length
      }
      if (!choices || choices > MAX_PAGE_CHOICES) continue
      for (let choice = 0; choice < choices; choice++) {
        // Each file's claimant (the common case: the only one, read in place).
        let callers = claim.subarray(first, end)
        if (choices > 1) {
          callers = Int32Array.from(callers)
          let rest = choice
          for (let k = 0; k < callers.length; k++) {
            if (callers[k] !== -2) continue
            const list = /** @type {number[]} */ (several.get(first + k))
            callers[k] = list[rest % list.length]
            rest = Math.floor(rest / list.length)
          }
        }
        // 8 little-endian bytes per hash, as the writer digests them.
        const words = new Uint32Array(callers.length * 2)
        for (let k = 0; k < callers.length; k++) {
          words[2 * k] = low[callers[k]]
          words[2 * k + 1] = high[callers[k]]
        }
        tries.push({ p, first, callers })
        blobs.push(new Uint8Array(words.buffer))
      }
    }
    const digests = pageDigests(blobs)
    /** per page vouched for: per file, the caller whose hash it is */
    const vouched = targets.vouched
    tries.forEach(({ p, first, callers }, k) => {
      if (!sameBytes(digests.subarray(k * 8, k * 8 + 8), /** @type {Uint8Array} */ (this.#filesPart().pages[p].digest))) return
      // Two choices cannot both give the digest unless two callers' hashes are equal (then either will do).
      if (!vouched.has(p)) vouched.set(p, { first, callers })
    })
    const toRead = new Set()
    /** @type {Array<{ first: number, callers: Int32Array } | undefined>} */
    const byPage = new Array(this.#layout.pages)
    for (const [p, page] of vouched) byPage[p] = page
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== CLAIMED) continue
      const f = entry[i]
      if (f >= 0) {
        // The common case, without arrays: one candidate, its page vouched for (by this caller's hash or an equal one).
        const page = byPage[(f / pageFiles) | 0]
        if (page) {
          const j = page.callers[f - page.first]
          if (j === i || (targets.low[j] === targets.low[i] && targets.high[j] === targets.high[i])) state[i] = DESCRIBED
          else {
            entry[i] = -1
            state[i] = PATH
          }
        } else toRead.add(this.#pageOf(f))
        continue
      }
      const unvouched = candidates(i).filter((e) => !vouched.has(this.#pageOf(e)))
      if (unvouched.length) for (const e of unvouched) toRead.add(this.#pageOf(e))
      else this.#decideClaim(targets, i, candidates(i))
    }
    return [...toRead].filter((p) => !this.#identityPages.has(p))
  }

  /**
   * Version 3: the claims left, their pages' identities read: each decided.
   * @param {Targets} targets
   */
  #confirmByIdentities(targets) {
    for (let i = 0; i < targets.count; i++) {
      if (targets.state[i] !== CLAIMED) continue
      this.#decideClaim(targets, i, targets.entry[i] === AMBIGUOUS ? this.#identityTable().findAll(targets.low[i], 0) : [targets.entry[i]])
    }
    this.#byPathLater(targets)
  }

  /**
   * A claim decided, its candidates' pages vouched for by their digests or read: the one entry whose whole
   * identity hash is the caller's describes it; several: ambiguous; none: it is looked up by path.
   * @param {Targets} targets
   * @param {number} i
   * @param {number[]} candidates
   */
  #decideClaim(targets, i, candidates) {
    const matches = candidates.filter((f) => {
      const p = this.#pageOf(f)
      const vouched = targets.vouched.get(p)
      if (vouched) {
        const j = vouched.callers[f - vouched.first]
        return j === i || (targets.low[j] === targets.low[i] && targets.high[j] === targets.high[i])
      }
      const page = /** @type {Uint8Array} */ (this.#identityPages.get(p))
      const view = new DataView(page.buffer, page.byteOffset + (f - p * this.#layout.pageFiles) * 8, 8)
      return view.getUint32(0, true) === targets.low[i] && view.getUint32(4, true) === targets.high[i]
    })
    if (matches.length > 1) targets.stale(i, ambiguous('identity'))
    else if (matches.length === 1) {
      targets.entry[i] = matches[0]
      targets.state[i] = DESCRIBED
    } else {
      targets.entry[i] = -1
      targets.state[i] = PATH
    }
  }

  /**
   * Reads of these pages of the identities blob, each checked against its page's digest.
   * @param {number[]} pages
   */
  #identityTasks(pages) {
    const blob = /** @type {BlobMetadata} */ (this.#blobs.identities) // version 3 has one (checked at open)
    const pageFiles = this.#layout.pageFiles
    return pages.map((p) => {
      const start = blob.offset + p * pageFiles * 8
      const end = blob.offset + Math.min(this.#layout.files, (p + 1) * pageFiles) * 8
      return new RangeTask(start, end, (/** @type {Uint8Array} */ bytes) => {
        if (!sameBytes(pageDigests([bytes]), /** @type {Uint8Array} */ (this.#filesPart().pages[p].digest))) {
          throw notAnIndex(this.#source.name, `its identities of page ${p} do not match the page's digest`)
        }
        this.#identityPages.set(p, bytes)
      })
    })
  }

  /**
   * Every file of the index (no `files`): their paths from the details, checked unless `validate` is false.
   * @param {boolean} validate
   * @param {AbortSignal | undefined} signal
   */
  async #everyFile(validate, signal) {
    const paths = await Promise.all(Array.from({ length: this.#layout.files }, (_, f) => this.#resolve(this.#detailsOf(f).path)))
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
      const now = currency(this.#detailsOf(f), await /** @type {Promise<any>} */ (started.checks.get(paths[f])), { checked: true })
      if (!now.current) targets.stale(f, now)
    }
    return targets
  }

  /**
   * Whether a caller's path is matched by identity as given alone: `#recordedForms` gives it alone, or
   * (a plain relative name under a local base) hashes it alone.
   * @param {string} given
   * @param {typeof import('node:path') | undefined} path
   */
  #hashedAsGiven(given, path) {
    const base = this.#base
    if (base === undefined) return true
    this.#baseIsUrl ??= isUrl(base)
    if (isUrl(given)) return !this.#baseIsUrl
    return !path || isPlainName(given)
  }

  /**
   * The forms a caller's path may be recorded under: as given, relative to the base, and resolved (`path`:
   * node:path, for a local base).
   * @param {string} given
   * @param {typeof import('node:path') | undefined} path
   * @returns {PathForms}
   */
  #recordedForms(given, path) {
    const base = this.#base
    if (base === undefined) return [given]
    this.#baseIsUrl ??= isUrl(base)
    if (isUrl(given)) {
      if (!this.#baseIsUrl) return [given]
      const prefix = base.endsWith('/') ? base : `${base}/`
      return given.startsWith(prefix) ? [given, decodeURIComponent(given.slice(prefix.length))] : [given]
    }
    if (!path) return [given]
    // A plain relative name (no . or .. segments, / separators): itself, and under the base — no path arithmetic.
    if (isPlainName(given)) {
      this.#absoluteBase ??= path.resolve(base)
      return Object.assign([
        given,
        `${this.#absoluteBase}${path.sep}${path.sep === '/' ? given : given.split('/').join(path.sep)}`,
      ], { plain: true })
    }
    const absolute = path.resolve(base, given)
    const relative = path.relative(base, absolute)
    const forms = [given]
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) forms.push(relative.split(path.sep).join('/'))
    forms.push(absolute)
    return [...new Set(forms)]
  }

  /**
   * A recorded path resolved against the base, `path` (node:path) given for a local base.
   * @param {string} recorded
   * @param {typeof import('node:path') | undefined} path
   */
  #resolveWith(recorded, path) {
    if (isUrl(recorded) || this.#base === undefined) return recorded
    if (isUrl(this.#base)) return new URL(recorded, this.#base).href
    return path ? path.resolve(this.#base, recorded) : recorded
  }

  /**
   * Where a recorded path points (resolved against the base).
   * @param {string} recorded
   */
  async #resolve(recorded) {
    if (isUrl(recorded) || this.#base === undefined) return recorded
    if (isUrl(this.#base)) return new URL(recorded, this.#base).href
    return (await import('node:path')).resolve(this.#base, recorded)
  }

  /**
   * @param {number} f
   */
  #pageOf(f) {
    return Math.floor(f / this.#layout.pageFiles)
  }

  /**
   * @param {number} f
   */
  #pageOfFile(f) {
    return this.#pages.get(this.#pageOf(f))?.[f % this.#layout.pageFiles]
  }

  /**
   * @param {number} f
   */
  #detailsOf(f) {
    const d = this.#pageOfFile(f)
    if (!d) throw new Error(`internal: details of file ${f} not read`)
    return d
  }

  /** The files blob's read, unless held. */
  #filesTask() {
    if (this.#part) return []
    const blob = this.#blobs.files
    const end = blob.offset + blob.length
    // The tail read holds the blob's end: only the bytes before it are read.
    const held = this.#tailOffset > blob.offset && this.#tailOffset < end ? this.#cache.get(this.#tailOffset, end) : undefined
    if (!held) return [new RangeTask(blob.offset, end, (/** @type {Uint8Array} */ bytes) => this.#takeFilesPart(bytes))]
    return [new RangeTask(blob.offset, this.#tailOffset, (/** @type {Uint8Array} */ bytes) => {
      const whole = new Uint8Array(blob.length)
      whole.set(bytes, 0)
      whole.set(held, bytes.length)
      this.#takeFilesPart(whole)
    })]
  }

  /** The files blob decoded: a probe's first wave reads it (unless the tail read held it) before anything asks for it. */
  #filesPart() {
    if (!this.#part) throw new Error('internal: the files blob is not read')
    return this.#part
  }

  /** The files' identity hashes, decoded with the files blob. */
  #identityTable() {
    if (!this.#identities) throw new Error('internal: the files blob is not read')
    return this.#identities
  }

  /** @param {Uint8Array} bytes */
  #takeFilesPart(bytes) {
    if (this.#part) return
    const where = this.#source.name
    if (this.#blobs.files.properties?.crc32 !== crc32Hex(bytes)) throw notAnIndex(where, 'its files blob does not match its CRC-32')
    this.#part = decodeFilesPart(bytes, this.#layout, this.#blobs.details.length, where)
    // Version 2: whole identity hashes, a match is a match. Version 3: locators, a match a claim that a page's
    // digest or its identities confirm.
    const { hashes, locators } = this.#part
    this.#identities = new HashTable(hashes
      ? hashHalves(hashes)
      : { low: /** @type {Uint32Array} */ (locators), high: new Uint32Array(this.#layout.files) })
  }

  #pathsTask() {
    if (this.#paths) return []
    const blob = this.#blobs.paths
    return [new RangeTask(blob.offset, blob.offset + blob.length, (/** @type {Uint8Array} */ bytes) => {
      if (blob.properties?.crc32 !== crc32Hex(bytes) || bytes.length !== this.#layout.files * 8) {
        throw notAnIndex(this.#source.name, 'its path hashes do not match their CRC-32 or count')
      }
      this.#paths = new HashTable(hashHalves(bytes))
    })]
  }

  /**
   * Reads of these details pages; before the page table is here (no files blob yet), the whole details blob.
   * @param {number[]} pages
   */
  #pageTasks(pages) {
    const wanted = [...new Set(pages)].filter((p) => !this.#pages.has(p))
    if (!wanted.length) return []
    if (!this.#part) {
      const blob = this.#blobs.details
      return [new RangeTask(blob.offset, blob.offset + blob.length, (/** @type {Uint8Array} */ bytes) => {
        if (blob.properties?.crc32 !== crc32Hex(bytes)) throw notAnIndex(this.#source.name, 'its details do not match their CRC-32')
        this.#wholeDetails = bytes
      })]
    }
    return wanted.map((p) => {
      const start = this.#blobs.details.offset + this.#filesPart().pages[p].offset
      return new RangeTask(start, start + this.#filesPart().pages[p].length, (/** @type {Uint8Array} */ bytes) => this.#takePage(p, bytes))
    })
  }

  /** @type {Uint8Array | undefined} The whole details blob, read before the page table was known: split into pages after its wave. */
  #wholeDetails

  /**
   * @param {number} p
   * @param {Uint8Array} bytes
   */
  #takePage(p, bytes) {
    const where = this.#source.name
    if ((crc32(bytes) >>> 0) !== this.#filesPart().pages[p].crc) throw notAnIndex(where, `its details page ${p} does not match its CRC-32`)
    const files = decodeDetailsPage(bytes, this.#layout.columns.length, where)
    const first = p * this.#layout.pageFiles
    const expected = Math.min(this.#layout.pageFiles, this.#layout.files - first)
    if (files.length !== expected) throw notAnIndex(where, `its details page ${p} has ${files.length} files, not ${expected}`)
    files.forEach((d, i) => {
      if (d.rowRows.length !== this.#filesPart().rowGroups[first + i]) {
        throw notAnIndex(where, `its details page ${p} disagrees with the files blob's row-group counts`)
      }
    })
    this.#pages.set(p, files)
  }

  /**
   * @param {string} column
   */
  #placement(column) {
    let placed = this.#placements.get(column)
    if (!placed) {
      placed = {
        ...placeColumn(this.#layout, this.#filesPart(), column, this.#source.name),
        unreadable: unreadableChunks(this.#layout, this.#filesPart(), column, this.#source.name),
      }
      this.#placements.set(column, placed)
    }
    return placed
  }

  /**
   * @param {Map<string, HalvedEncoding>} encodings
   * @param {import('./sidecar-layout.js').ColumnType} type
   * @param {unknown[]} list
   * @param {string} column
   */
  #encodingFor(encodings, type, list, column) {
    const key = typeKey(type)
    let encoded = encodings.get(key)
    if (!encoded) {
      encoded = encodeWithHalves(type, list, this.#source.name, column)
      encodings.set(key, encoded)
    }
    return encoded
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
    this.#rounds += await this.#waveRounds(tasks, signal)
  }

  /**
   * One wave of reads of the index file; its rounds. Whole details read early are split into pages after.
   * @param {RangeTask[]} tasks
   * @param {AbortSignal | undefined} signal
   */
  async #waveRounds(tasks, signal) {
    if (!tasks.length) return 0
    const rounds = await readWave({ source: this.#source, cache: this.#cache, link: this.#link }, tasks, signal)
    if (this.#wholeDetails) {
      const bytes = this.#wholeDetails
      this.#wholeDetails = undefined
      for (const [p, page] of this.#filesPart().pages.entries()) {
        if (!this.#pages.has(p)) this.#takePage(p, bytes.subarray(page.offset, page.offset + page.length))
      }
    }
    return rounds
  }
}

/** Identity texts hashed in one call. */
const IDENTITY_BATCH = 4096

/** A caller's file: matched by path (or not yet), described by an entry, its details to be read, or not described. */
const PATH = 0
const DESCRIBED = 1
const DETAILS = 2
const STALE = 3
/** Choices of claimants a page's digest is tried with, at most (beyond, its identities are read). */
const MAX_PAGE_CHOICES = 16
/** Version 3: its locator names an entry (AMBIGUOUS: several), to be confirmed by a page's digest or the entry's whole hash. */
const CLAIMED = 4

/** The caller's files of one probe as arrays: the entry and state of each; forms, facts and reasons only where needed. */
class Targets {
  /** @param {string[]} paths */
  constructor(paths) {
    this.paths = paths
    this.count = paths.length
    this.entry = new Int32Array(paths.length).fill(-1)
    this.state = new Uint8Array(paths.length)
    /** version 3: the identity hash of each claim (low and high halves) */
    this.low = new Uint32Array(paths.length)
    this.high = new Uint32Array(paths.length)
    /** @type {FileSpec[]} */
    this.specs = []
    /** @type {typeof import('node:path') | undefined} */
    this.nodePath = undefined
    /** @type {Map<number, { first: number, callers: Int32Array }>} version 3: pages vouched for by their digests, and by whose hashes */
    this.vouched = new Map()
    /** @type {Map<number, MoreFacts>} */
    this.more = new Map()
  }

  /**
   * File i is not described, for this reason.
   * @param {number} i
   * @param {Currency} why
   */
  stale(i, why) {
    this.state[i] = STALE
    const t = this.more.get(i)
    if (t) t.why = why
    else this.more.set(i, { forms: [this.paths[i]], now: undefined, checked: false, why })
  }
}

/**
 * A relative path without . or .. segments, doubled or back slashes: under a local base, itself and base/itself.
 * @param {string} given
 */
function isPlainName(given) {
  return !given.startsWith('/') && !given.includes('\\') && !/(^|\/)\.\.?(\/|$)/.test(given) && !given.includes('//')
}

function notInIndex() {
  return { current: false, reason: StaleReason.MISSING_FROM_INDEX, detail: 'the file is not in the index' }
}

/**
 * @param {string} what
 */
function ambiguous(what) {
  return { current: false, reason: StaleReason.AMBIGUOUS_IN_INDEX,
    detail: `more than one entry of the index has this file's ${what} hash: the index cannot say which describes it` }
}

/**
 * The values as a column of this type stores them: candidates with their hashes' halves, and sort keys.
 * @param {import('./sidecar-layout.js').ColumnType} type
 * @param {unknown[]} list
 * @param {string} path
 * @param {string} column
 */
function encodeWithHalves(type, list, path, column) {
  const { encoded, hashed, order, keys } = encodeFor(type, list, path, column)
  const { low, high } = hashHalves(hashed.hashes)
  const candidates = Array.from({ length: hashed.count }, (_, index) => ({ index, low: low[index], high: high[index] }))
  return { encoded, candidates, order, keys }
}

/**
 * The answers a probe gives many row groups, made once per value (results are data nobody changes): a
 * million row groups share a few objects instead of holding a million.
 * @param {unknown[]} list
 */
function sharedResults(list) {
  /**
   * @param {import('../verdicts.js').Verdict} verdict
   * @param {string} source
   * @param {import('../verdicts.js').ReasonCode} reason
   * @param {string} detail
   */
  const make = (verdict, source, reason, detail) => list.map((value) => valueResult(value, verdict, source, reason, detail))
  return {
    outOfRange: make('absent', Source.STATISTICS, 'out-of-range', 'outside the min/max the sidecar index records for the chunk'),
    maybe: make('maybe', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter may hold it'),
    absent: make('absent', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter rules it out'),
    scratch: new Uint8Array(list.length),
    /**
     * @type {Map<HalvedEncoding, { groups: AnsweredRowGroup[], byCount: AnsweredRowGroup[][] }>} per encoding: row group g
     * with every value ruled out by the bloom check (or preset), numRows unread, and the arrays of the first n of them
     */
    ruled: new Map(),
    /**
     * @param {number} count
     * @param {HalvedEncoding} encoded
     */
    ruledOut(count, encoded) {
      let made = this.ruled.get(encoded)
      if (!made) this.ruled.set(encoded, made = { groups: [], byCount: [] })
      let rowGroups = made.byCount[count]
      if (!rowGroups) {
        for (let index = made.groups.length; index < count; index++) {
          made.groups.push({
            index, numRows: null,
            results: encoded.encoded.outcomes.map((o, i) => (o.verdict ? { .../** @type {ValueResult} */ (o) } : this.absent[i])),
          })
        }
        rowGroups = made.byCount[count] = made.groups.slice(0, count)
      }
      return rowGroups
    },
  }
}

/**
 * One row group's answers: presets, then whether the index could read the chunk, then min/max where read, then the bit slices.
 * @param {HalvedEncoding | undefined} encoded
 * @param {Uint8Array | undefined} maybe
 * @param {boolean} unreadable
 * @param {{ index: number }} group
 * @param {unknown[]} list
 * @param {string} column
 * @param {[RecordedBound, RecordedBound] | undefined} bounds
 * @param {SharedResults} shared
 * @returns {ValueResult[]}
 */
function answerChunk(encoded, maybe, unreadable, group, list, column, bounds, shared) {
  if (!encoded) {
    return list.map((v) => valueResult(v, 'unknown', null, 'no-index', `the sidecar index has no column ${column} for this file`))
  }
  const { outcomes, owners } = encoded.encoded
  // Its filter holds everything (it says maybe to all), but the index could not describe the chunk: unknown, as format 1 says.
  if (unreadable) return unreadableChunkResults(list, outcomes)
  const count = encoded.candidates.length
  const base = group.index * count
  let excluded
  if (bounds && encoded.order && (bounds[0] !== null || bounds[1] !== null)) {
    // keys are the sort keys wherever there is an order (encodeFor).
    excluded = excludedByBounds(encoded.order, /** @type {import('../indexes/statistics.js').SortKeys} */ (encoded.keys),
      decodeBound(encoded.order.kind, bounds[0]),
      decodeBound(encoded.order.kind, bounds[1]))
  }
  // 0: no candidate in bounds, 1: in bounds, 2: in bounds and a bloom hit — scratch reused across row groups.
  const state = shared.scratch
  state.fill(0)
  for (let k = 0; k < owners.length && k < count; k++) {
    if (excluded?.[k]) continue
    const i = owners[k]
    state[i] = Math.max(state[i], maybe?.[base + k] ? 2 : 1)
  }
  const out = new Array(list.length)
  for (let i = 0; i < list.length; i++) {
    out[i] = outcomes[i].verdict
      ? { .../** @type {ValueResult} */ (outcomes[i]) } // a preset answer
      : state[i] === 0 ? shared.outOfRange[i] : state[i] === 2 ? shared.maybe[i] : shared.absent[i]
  }
  return out
}
