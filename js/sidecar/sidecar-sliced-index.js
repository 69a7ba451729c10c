// A format-2 sidecar index opened for probing (docs/sidecar-index.md "Format 2"). The tail read holds the
// footer, the layout and (all or most of) the fixed files blob; a probe reads, in one wave, the rest of
// that blob and, per region of its column, the 8 bit rows each value's hash selects (js/index-builder/
// bit-slices.js) — M bytes per value over M chunks. Files the caller describes (size and validator, as a
// listing gives them) are matched by identity hash with no request per file; a file answered from the
// index is one whose identity matches exactly one entry. Paths, reasons and min/max are read only where
// needed: the path hashes and a page of details to say why a file is not described (or to match it by
// path when only its size is known), the pages of the files still open after the bloom check to sharpen
// them with min/max, when those pages are few.
import { HttpSource } from '../sources/http-source.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { crc32 } from '../pages/crc32.js'
import { RangeTask, runReadTasks } from '../plan/read-scheduler.js'
import { LinkModel, transportWindow } from '../plan/link-model.js'
import { excludedByBounds } from '../indexes/statistics.js'
import { Source, valueResult } from '../verdicts.js'
import { crc32Hex } from './puffin.js'
import { andRows, blockIndexOf, hashRows, sliceRowBytes, unsliceBitset } from './bit-slices.js'
import { decodeBound, notAnIndex } from './sidecar-directory.js'
import { decodeDetailsPage } from './sidecar-details.js'
import { decodeFilesPart, decodeSlicedLayout, placeColumn } from './sidecar-files-part.js'
import { AMBIGUOUS, hashHalves, hashStrings, HashTable, identityText } from './sidecar-identity.js'
import { typeKey } from './sidecar-layout.js'
import { currency, StaleReason, startValidators } from './sidecar-currency.js'
import { DETAILS_BLOB, FILES_BLOB, PATH_HASHES_BLOB, SLICES_BLOB } from './sidecar-blobs.js'
import { encodeFor, gapForOneRound, holdRegion } from './sidecar-probe-values.js'

/** Details pages a probe reads to sharpen open files with min/max, at most (beyond it, the bloom filter's answer stands). */
export const DEFAULT_BOUNDS_BYTES = 64 * 1024
const isUrl = (p) => /^https?:\/\//i.test(p)

/** Whether a Puffin footer is a format-2 sidecar index's. */
export function isSlicedFooter(footer) {
  return footer.blobs.some((b) => b.type === FILES_BLOB)
}

export class SlicedSidecarIndex {
  #source
  #cache
  #blobs
  #layout
  #part
  #identities
  #paths
  /** @type {Map<string, { regionOf: Int32Array, slotOf: Uint32Array }>} */
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
  #regionBytes = new Map()
  #entries
  #byPath
  /** @type {any} the Puffin footer */
  #footer

  /**
   * @param {any} source its byte source, tail read
   * @param {any} cache the tail's bytes
   * @param {any} footer the Puffin footer
   */
  /** The base as an absolute local path, once a caller's path needed it. */
  #absoluteBase

  /** Where the tail read began: the files blob's bytes from there on are held. */
  #tailOffset

  constructor(source, cache, footer, { base, fetch, headers, boundsBytes, tailOffset }) {
    const where = source.name
    const find = (type) => footer.blobs.find((b) => b.type === type)
    const blobs = { slices: find(SLICES_BLOB), details: find(DETAILS_BLOB), paths: find(PATH_HASHES_BLOB), files: find(FILES_BLOB) }
    for (const [name, blob] of Object.entries(blobs)) if (!blob) throw notAnIndex(where, `it has no ${name} blob of format 2`)
    if (blobs.files.properties?.version !== '2' || typeof blobs.files.properties?.layout !== 'string') throw notAnIndex(where, 'its files blob is not version 2 or has no layout')
    this.#layout = decodeSlicedLayout(blobs.files.properties.layout, blobs.slices.length, where)
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
    const { requests, bytesFetched } = this.#source.stats
    return { requests: requests + this.#validations, bytesFetched, rounds: this.#rounds, heads: this.#validations }
  }

  /** Every entry, as format 1's directory records them (chunks: [region, slot, numBytes, min, max]); after loadDirectory(). */
  get files() {
    return this.directory.files
  }

  get directory() {
    if (!this.#entries) throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `${this.#source.name}: the sidecar index's entries are not read yet: await index.loadDirectory()`)
    const l = this.#layout
    return { format: 'parquet-bloom-sidecar', version: 2, writer: l.writer, fpp: l.fpp, columns: l.columns,
      regions: l.regions.map(({ offset, count, numBytes }) => ({ offset, count, numBytes })), files: this.#entries }
  }

  /** The entry recorded under exactly this path (after loadDirectory()). */
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
    await this.#wave([...this.#filesTask(), ...this.#pageTasks(this.#layout.pages ? [...Array(this.#layout.pages).keys()] : [])], { signal })
    const l = this.#layout
    const placements = l.columns.map((c) => this.#placement(c))
    const entries = []
    for (let f = 0; f < l.files; f++) {
      const d = this.#detailsOf(f)
      const columns = {}
      const chunksOf = []
      l.columns.forEach((name, c) => {
        const r = placements[c].regionOf[f]
        if (r < 0) return
        const region = l.regions[r]
        columns[name] = region.type
        chunksOf.push([name, region, r, placements[c].slotOf[f], d.bounds[c]])
      })
      const rowGroups = d.rowRows.map((numRows, g) => ({ numRows,
        chunks: Object.fromEntries(chunksOf.map(([name, region, r, slot, bounds]) => [name, [r, slot + g, region.numBytes, bounds?.[g]?.[0] ?? null, bounds?.[g]?.[1] ?? null]])) }))
      entries.push({ path: d.path, size: d.size, validator: d.validator, numRows: d.numRows, columns, rowGroups })
    }
    this.#entries = entries
  }

  /** The Puffin metadata of a blob of this type (its properties are in the footer, read at open), or undefined. */
  blobMetadata(type) {
    return this.#footer.blobs.find((b) => b.type === type)
  }

  /**
   * A blob of the Puffin file beside the sidecar's own (a table index's snapshot record), read whole in
   * one counted wave (none when the tail read holds it), checked against its CRC-32; undefined when the
   * file has no blob of that type.
   * @param {string} type
   * @returns {Promise<{ bytes: Uint8Array, metadata: any } | undefined>}
   */
  async readBlob(type, { signal } = /** @type {{ signal?: AbortSignal }} */ ({})) {
    const blob = this.blobMetadata(type)
    if (!blob) return undefined
    let bytes = this.#cache.get(blob.offset, blob.offset + blob.length)
    if (!bytes) await this.#wave([new RangeTask(blob.offset, blob.offset + blob.length, (read) => { bytes = read })], { signal })
    if (blob.properties?.crc32 !== crc32Hex(bytes)) throw notAnIndex(this.#source.name, `its ${type} blob does not match its CRC-32`)
    return { bytes, metadata: blob }
  }

  /** One stored bitset, whole (for copying into a new index): its region is read whole, the last few kept. */
  async readBitset(regionIndex, k) {
    const region = this.#layout.regions[regionIndex]
    let bytes = this.#regionBytes.get(regionIndex)
    if (!bytes) {
      this.#rounds++
      bytes = await this.#source.read(this.#blobs.slices.offset + region.offset, region.numBytes * 8 * sliceRowBytes(region.count))
      holdRegion(this.#regionBytes, regionIndex, bytes)
    }
    return unsliceBitset(bytes, region, k)
  }

  /**
   * Says, per file and row group, whether each value may be in `column`, from the index alone; as format
   * 1's probe (js/sidecar/sidecar-index.js), with `files` matched by identity where they give a
   * size and validator. `numRows` of a row group is null where its file's details were not read.
   * @param {string} column
   * @param {Iterable<unknown>} values
   * @param {{ files?: Array<string | { path: string, size?: number, validator?: string | null }>, validate?: boolean, signal?: AbortSignal, bounds?: boolean,
   *   ioLedger?: import('../sources/io-ledger.js').IoLedger }} [options] ioLedger: as format 1's probe takes it
   */
  async probe(column, values, options = {}) {
    const list = Array.from(values)
    this.#joinLedger(options.ioLedger)
    const { signal } = options
    const validate = options.validate !== false
    const specs = options.files?.map((f) => (typeof f === 'string' ? { path: f } : f))
    const encodings = new Map()
    // The rows of every region of the column, for every value's candidates: whoever the files are.
    const rowTasks = []
    const rowBytes = new Map()
    for (const [r, region] of this.#layout.regions.entries()) {
      if (region.column !== column) continue
      const encoded = this.#encodingFor(encodings, region.type, list, column)
      const rows = sliceRowBytes(region.count)
      const positions = new Set()
      for (const c of encoded.candidates) for (const p of hashRows(blockIndexOf(c.high, region.numBytes / 32), c.low)) positions.add(p)
      for (const p of positions) {
        const start = this.#blobs.slices.offset + region.offset + p * rows
        rowTasks.push(new RangeTask(start, start + rows, (bytes) => rowBytes.set(`${r}:${p}`, bytes)))
      }
    }
    const wantPaths = !this.#paths && specs?.some((s) => s.size === undefined && !validate)
    const waveA = [...this.#filesTask(), ...rowTasks, ...(wantPaths ? this.#pathsTask() : []),
      ...(specs ? [] : this.#pageTasks([...Array(this.#layout.pages).keys()]))]
    // Files named without a size are checked (stat / HEAD) beside the first wave.
    const toCheck = specs && validate ? [...new Set(await Promise.all(specs.filter((s) => s.size === undefined).map((s) => this.#resolve(s.path))))] : []
    const started = toCheck.length ? this.#validate(toCheck, signal) : undefined
    const rounds = await Promise.all([this.#waveRounds(waveA, signal), started ? started.settled.then(() => started.rounds) : 0])
    this.#rounds += Math.max(...rounds)

    /** per target: { path, f (entry or -1), now?, state } */
    /** @type {any[]} */
    const targets = specs ? await this.#targets(specs, validate, started) : await this.#everyFile(validate, signal)
    // Not matched by identity: by path, then its details say why (or that the caller's facts fit it).
    const byPath = targets.filter((t) => t.state === 'path')
    if (byPath.length) {
      if (!this.#paths) await this.#wave(this.#pathsTask(), { signal })
      const hashes = hashHalves(hashStrings(byPath.flatMap((t) => t.forms)))
      let i = 0
      for (const t of byPath) {
        let found = -1
        for (let k = 0; k < t.forms.length; k++, i++) {
          const f = this.#paths.find(hashes.low[i], hashes.high[i])
          if (found === -1 && f !== -1) found = f
        }
        if (found === AMBIGUOUS) Object.assign(t, { state: 'stale', why: ambiguous('path') })
        else if (found < 0) Object.assign(t, { state: 'stale', why: { current: false, reason: StaleReason.MISSING_FROM_INDEX, detail: 'the file is not in the index' } })
        else Object.assign(t, { f: found, state: t.now ? 'details' : 'described' })
      }
    }
    const needReasons = targets.filter((t) => t.state === 'details')
    if (needReasons.length) {
      await this.#wave(this.#pageTasks(needReasons.map((t) => this.#pageOf(t.f))), { signal })
      for (const t of needReasons) {
        const d = this.#detailsOf(t.f)
        // The path's hash found it; its text must be one of the caller's forms (a hash of paths is not the path).
        if (!t.forms.includes(d.path)) Object.assign(t, { state: 'stale', why: { current: false, reason: StaleReason.MISSING_FROM_INDEX, detail: 'the file is not in the index' } })
        else {
          const now = currency(d, t.now, { checked: t.checked })
          Object.assign(t, now.current ? { state: 'described' } : { state: 'stale', why: now })
        }
      }
    }

    // The bloom check of every described file's chunks.
    const placement = this.#placement(column)
    /** @type {Array<Array<Uint8Array>>} per region, per candidate: the AND of its 8 rows */
    const masks = []
    const masksOf = (r, candidates) => {
      if (!masks[r]) {
        const region = this.#layout.regions[r]
        masks[r] = candidates.map((c) => andRows(hashRows(blockIndexOf(c.high, region.numBytes / 32), c.low).map((p) => /** @type {Uint8Array} */ (rowBytes.get(`${r}:${p}`)))))
      }
      return masks[r]
    }
    const open = []
    const regionEncodings = []
    for (const t of targets) {
      if (t.state !== 'described') continue
      const r = placement.regionOf[t.f]
      if (r < 0) continue
      const encoded = (regionEncodings[r] ??= this.#encodingFor(encodings, this.#layout.regions[r].type, list, column))
      const slot = placement.slotOf[t.f]
      const groups = this.#part.rowGroups[t.f]
      const regionMasks = masksOf(r, encoded.candidates)
      const count = regionMasks.length
      // maybe[g × count + c]: candidate c may be in row group g.
      const maybe = new Uint8Array(groups * count)
      let any = 0
      for (let c = 0; c < count; c++) {
        const mask = regionMasks[c]
        for (let g = 0, k = slot; g < groups; g++, k++) any |= maybe[g * count + c] = (mask[k >>> 3] >> (k & 7)) & 1
      }
      t.encoded = encoded
      t.maybe = maybe
      t.open = any === 1
      if (any) open.push(t)
    }
    // Min/max for the files still open, when their pages are few.
    if (open.length && options.bounds !== false) {
      const pages = [...new Set(open.map((t) => this.#pageOf(t.f)))].filter((p) => !this.#pages.has(p))
      const bytes = pages.reduce((n, p) => n + this.#part.pages[p].length, 0)
      if (options.bounds === true || bytes <= this.#boundsBytes) await this.#wave(this.#pageTasks(pages), { signal })
    }
    const c = this.#layout.columns.indexOf(column)
    const shared = sharedResults(list)
    return {
      column,
      files: targets.map((t) => /** @type {{ path: string, current: boolean, reason?: string, detail?: string, validators?: any, rowGroups: any[] }} */ (this.#answer(t, list, column, c, options.bounds !== false, shared))),
    }
  }

  /** One file's entry of a probe's answer. */
  #answer(t, list, column, c, useBounds, shared) {
    const details = t.f >= 0 ? this.#pageOfFile(t.f) : undefined
    const groups = t.f >= 0 ? this.#part.rowGroups[t.f] : 0
    /** @type {Array<{ index: number, numRows: number | null, results: any[] }>} */
    const rowGroups = new Array(groups)
    if (t.state === 'described' && !details && t.encoded && !t.open) {
      // Every row group ruled out by the bloom check alone (most files, for an absent value): shared answers.
      for (let index = 0; index < groups; index++) rowGroups[index] = shared.ruledOut(index, t.encoded)
      return { path: t.path, current: true, rowGroups }
    }
    for (let index = 0; index < groups; index++) rowGroups[index] = { index, numRows: details ? details.rowRows[index] : null, results: [] }
    if (t.state !== 'described') {
      const now = t.why
      const results = list.map((value) => valueResult(value, 'unknown', null, 'stale-index', `the sidecar index does not describe this file as it is: ${now.detail}`))
      for (const g of rowGroups) g.results = results.slice()
      return { path: t.path, current: false, reason: now.reason, detail: now.detail, ...(now.validators ? { validators: now.validators } : {}), rowGroups }
    }
    for (const g of rowGroups) g.results = answerChunk(t, g, list, column, useBounds ? details?.bounds[c]?.[g.index] : undefined, shared)
    return { path: t.path, current: true, rowGroups }
  }

  /** Sharpens one file's probe results, as format 1's refine does (the file stat'ed or HEADed to be matched). */
  async refine({ name, column, values, rowGroups, signal }) {
    const open = rowGroups.some((g) => g.results.some((r) => r.verdict === 'maybe' || r.verdict === 'unknown'))
    if (!open) return undefined
    const [answered] = (await this.probe(column, values, { files: [{ path: name }], signal })).files
    if (!answered.current) return { described: false, reason: answered.reason, detail: answered.detail, ...(answered.validators ? { validators: answered.validators } : {}) }
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
   * later, or after its check.
   */
  async #targets(specs, validate, started) {
    const path = this.#base !== undefined && !isUrl(this.#base) ? await import('node:path') : undefined
    const targets = []
    for (const spec of specs) {
      /** @type {any} */
      const forms = this.#recordedForms(spec.path, path)
      const t = { path: spec.path, forms, plain: forms.plain === true, f: -1, state: 'path', now: undefined, checked: false, why: undefined }
      if (spec.size !== undefined) t.now = { size: spec.size, validator: spec.validator ?? null }
      else if (validate) {
        t.now = await started.checks.get(this.#resolveWith(spec.path, path))
        t.checked = true
      }
      if (t.now && t.now.size < 0) Object.assign(t, { state: 'stale', why: currency({ size: 0, validator: null }, t.now) })
      targets.push(t)
    }
    // A validator known (given or found): the identity decides, with no request per file.
    const byIdentity = targets.filter((t) => t.state === 'path' && t.now?.validator)
    const texts = []
    // A plain relative name is hashed as given (what a build under the same base records); its other forms
    // are tried by path when that finds nothing.
    const hashedForms = (t) => (t.forms.length === 2 && t.plain ? 1 : t.forms.length)
    for (const t of byIdentity) for (let k = 0; k < hashedForms(t); k++) texts.push(identityText(t.forms[k], t.now.size, t.now.validator))
    const { low, high } = hashHalves(hashStrings(texts))
    let i = 0
    for (const t of byIdentity) {
      let found = -1
      for (let k = 0; k < hashedForms(t); k++, i++) {
        const f = this.#identities.find(low[i], high[i])
        if (found === -1 && f !== -1) found = f
      }
      if (found === AMBIGUOUS) Object.assign(t, { state: 'stale', why: ambiguous('identity') })
      else if (found >= 0) Object.assign(t, { f: found, state: 'described' })
    }
    return targets
  }

  /** Every file of the index (no `files`): their paths from the details, checked unless `validate` is false. */
  async #everyFile(validate, signal) {
    const paths = await Promise.all(Array.from({ length: this.#layout.files }, (_, f) => this.#resolve(this.#detailsOf(f).path)))
    const targets = paths.map((path, f) => ({ path, forms: [this.#detailsOf(f).path], f, state: 'described', now: undefined, checked: false, why: undefined }))
    if (!validate) return targets
    const started = this.#validate([...new Set(paths)], signal)
    await started.settled
    this.#rounds += started.rounds
    for (const t of targets) {
      const now = currency(this.#detailsOf(t.f), await /** @type {Promise<any>} */ (started.checks.get(t.path)), { checked: true })
      if (!now.current) Object.assign(t, { state: 'stale', why: now })
    }
    return targets
  }

  /** The forms a caller's path may be recorded under: as given, relative to the base, and resolved (`path`: node:path, for a local base). */
  #recordedForms(given, path) {
    const base = this.#base
    if (base === undefined) return [given]
    if (isUrl(given)) {
      if (!isUrl(base)) return [given]
      const prefix = base.endsWith('/') ? base : `${base}/`
      return given.startsWith(prefix) ? [given, decodeURIComponent(given.slice(prefix.length))] : [given]
    }
    if (!path) return [given]
    // A plain relative name (no . or .. segments, / separators): itself, and under the base — no path arithmetic.
    if (!given.startsWith('/') && !given.includes('\\') && !/(^|\/)\.\.?(\/|$)/.test(given) && !given.includes('//')) {
      this.#absoluteBase ??= path.resolve(base)
      return Object.assign([given, `${this.#absoluteBase}${path.sep}${path.sep === '/' ? given : given.split('/').join(path.sep)}`], { plain: true })
    }
    const absolute = path.resolve(base, given)
    const relative = path.relative(base, absolute)
    const forms = [given]
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) forms.push(relative.split(path.sep).join('/'))
    forms.push(absolute)
    return [...new Set(forms)]
  }

  /** A recorded path resolved against the base, `path` (node:path) given for a local base. */
  #resolveWith(recorded, path) {
    if (isUrl(recorded) || this.#base === undefined) return recorded
    if (isUrl(this.#base)) return new URL(recorded, this.#base).href
    return path ? path.resolve(this.#base, recorded) : recorded
  }

  /** Where a recorded path points (resolved against the base). */
  async #resolve(recorded) {
    if (isUrl(recorded) || this.#base === undefined) return recorded
    if (isUrl(this.#base)) return new URL(recorded, this.#base).href
    return (await import('node:path')).resolve(this.#base, recorded)
  }

  #pageOf(f) {
    return Math.floor(f / this.#layout.pageFiles)
  }

  #pageOfFile(f) {
    return this.#pages.get(this.#pageOf(f))?.[f % this.#layout.pageFiles]
  }

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
    if (!held) return [new RangeTask(blob.offset, end, (bytes) => this.#takeFilesPart(bytes))]
    return [new RangeTask(blob.offset, this.#tailOffset, (bytes) => {
      const whole = new Uint8Array(blob.length)
      whole.set(bytes, 0)
      whole.set(held, bytes.length)
      this.#takeFilesPart(whole)
    })]
  }

  #takeFilesPart(bytes) {
    if (this.#part) return
    const where = this.#source.name
    if (this.#blobs.files.properties.crc32 !== crc32Hex(bytes)) throw notAnIndex(where, 'its files blob does not match its CRC-32')
    this.#part = decodeFilesPart(bytes, this.#layout, this.#blobs.details.length, where)
    this.#identities = new HashTable(hashHalves(this.#part.hashes))
  }

  #pathsTask() {
    if (this.#paths) return []
    const blob = this.#blobs.paths
    return [new RangeTask(blob.offset, blob.offset + blob.length, (bytes) => {
      if (blob.properties?.crc32 !== crc32Hex(bytes) || bytes.length !== this.#layout.files * 8) throw notAnIndex(this.#source.name, 'its path hashes do not match their CRC-32 or count')
      this.#paths = new HashTable(hashHalves(bytes))
    })]
  }

  /** Reads of these details pages; before the page table is here (no files blob yet), the whole details blob. */
  #pageTasks(pages) {
    const wanted = [...new Set(pages)].filter((p) => !this.#pages.has(p))
    if (!wanted.length) return []
    if (!this.#part) {
      const blob = this.#blobs.details
      return [new RangeTask(blob.offset, blob.offset + blob.length, (bytes) => {
        if (blob.properties?.crc32 !== crc32Hex(bytes)) throw notAnIndex(this.#source.name, 'its details do not match their CRC-32')
        this.#wholeDetails = bytes
      })]
    }
    return wanted.map((p) => {
      const start = this.#blobs.details.offset + this.#part.pages[p].offset
      return new RangeTask(start, start + this.#part.pages[p].length, (bytes) => this.#takePage(p, bytes))
    })
  }

  /** The whole details blob, read before the page table was known: split into pages after its wave. */
  #wholeDetails

  #takePage(p, bytes) {
    const where = this.#source.name
    if ((crc32(bytes) >>> 0) !== this.#part.pages[p].crc) throw notAnIndex(where, `its details page ${p} does not match its CRC-32`)
    const files = decodeDetailsPage(bytes, this.#layout.columns.length, where)
    const first = p * this.#layout.pageFiles
    const expected = Math.min(this.#layout.pageFiles, this.#layout.files - first)
    if (files.length !== expected) throw notAnIndex(where, `its details page ${p} has ${files.length} files, not ${expected}`)
    files.forEach((d, i) => {
      if (d.rowRows.length !== this.#part.rowGroups[first + i]) throw notAnIndex(where, `its details page ${p} disagrees with the files blob's row-group counts`)
    })
    this.#pages.set(p, files)
  }

  #placement(column) {
    let placed = this.#placements.get(column)
    if (!placed) {
      placed = placeColumn(this.#layout, this.#part, column, this.#source.name)
      this.#placements.set(column, placed)
    }
    return placed
  }

  #encodingFor(encodings, type, list, column) {
    const key = typeKey(type)
    let encoded = encodings.get(key)
    if (!encoded) {
      encoded = encodeWithHalves(type, list, this.#source.name, column)
      encodings.set(key, encoded)
    }
    return encoded
  }

  /** A dataset probe's ledger (js/sources/io-ledger.js): this probe's reads and HEADs are its requests, counted as its `index` group. */
  #joinLedger(ledger) {
    if (!ledger) return
    this.#source.attachIo(ledger, undefined, 'index')
    this.#checksLane = ledger.lane(`${this.#source.name} (file checks)`, undefined, 'index')
  }

  #validate(paths, signal) {
    const url = paths.find(isUrl)
    const started = startValidators(paths, { fetch: this.#fetch, signal, headers: this.#headers, origin: this.#origin(), window: transportWindow({ name: url ?? this.#source.name }, url !== undefined), ioLane: this.#checksLane })
    this.#validations += started.requests
    return started
  }

  #origin() {
    try {
      return this.#source instanceof HttpSource ? new URL(this.#source.name).origin : undefined
    } catch {
      return undefined
    }
  }

  async #wave(tasks, { signal }) {
    this.#rounds += await this.#waveRounds(tasks, signal)
  }

  /** One wave of reads of the index file; its rounds. Whole details read early are split into pages after. */
  async #waveRounds(tasks, signal) {
    if (!tasks.length) return 0
    const remote = this.#source instanceof HttpSource
    const window = transportWindow(this.#source, remote)
    const { rounds } = await runReadTasks(tasks, {
      source: this.#source, cache: this.#cache, link: remote ? this.#link : undefined,
      concurrency: window, coalesceGap: gapForOneRound(tasks, window), signal,
    })
    if (this.#wholeDetails) {
      const bytes = this.#wholeDetails
      this.#wholeDetails = undefined
      for (const [p, page] of this.#part.pages.entries()) if (!this.#pages.has(p)) this.#takePage(p, bytes.subarray(page.offset, page.offset + page.length))
    }
    return rounds
  }
}

function ambiguous(what) {
  return { current: false, reason: StaleReason.AMBIGUOUS_IN_INDEX,
    detail: `more than one entry of the index has this file's ${what} hash: the index cannot say which describes it` }
}

/** The values as a column of this type stores them: candidates with their hashes' halves, and sort keys. */
function encodeWithHalves(type, list, path, column) {
  const { encoded, hashed, order, keys } = encodeFor(type, list, path, column)
  const { low, high } = hashHalves(hashed.hashes)
  const candidates = Array.from({ length: hashed.count }, (_, index) => ({ index, low: low[index], high: high[index] }))
  return { encoded, candidates, order, keys }
}

/**
 * The answers a probe gives many row groups, made once per value (results are data nobody changes): a
 * million row groups share a few objects instead of holding a million.
 */
function sharedResults(list) {
  const make = (verdict, source, reason, detail) => list.map((value) => valueResult(value, verdict, source, reason, detail))
  return {
    outOfRange: make('absent', Source.STATISTICS, 'out-of-range', 'outside the min/max the sidecar index records for the chunk'),
    maybe: make('maybe', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter may hold it'),
    absent: make('absent', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter rules it out'),
    scratch: new Uint8Array(list.length),
    /** @type {Map<any, any[]>} per encoding, row group g with every value ruled out by the bloom check (or preset), numRows unread */
    groups: new Map(),
    ruledOut(index, encoded) {
      let byIndex = this.groups.get(encoded)
      if (!byIndex) this.groups.set(encoded, byIndex = [])
      if (!byIndex[index]) {
        const results = encoded.encoded.outcomes.map((o, i) => (o.verdict ? { ...o } : this.absent[i]))
        byIndex[index] = { index, numRows: null, results }
      }
      return byIndex[index]
    },
  }
}

/** One row group's answers: presets, then min/max where read, then the bit slices. */
function answerChunk(target, group, list, column, bounds, shared) {
  const encoded = target.encoded
  if (!encoded) return list.map((v) => valueResult(v, 'unknown', null, 'no-index', `the sidecar index has no column ${column} for this file`))
  const { outcomes, owners } = encoded.encoded
  const count = encoded.candidates.length
  const base = group.index * count
  let excluded
  if (bounds && encoded.order && (bounds[0] !== null || bounds[1] !== null)) {
    excluded = excludedByBounds(encoded.order, encoded.keys, decodeBound(encoded.order.kind, bounds[0]), decodeBound(encoded.order.kind, bounds[1]))
  }
  // 0: no candidate in bounds, 1: in bounds, 2: in bounds and a bloom hit — scratch reused across row groups.
  const state = shared.scratch
  state.fill(0)
  for (let k = 0; k < owners.length && k < count; k++) {
    if (excluded?.[k]) continue
    const i = owners[k]
    state[i] = Math.max(state[i], target.maybe[base + k] ? 2 : 1)
  }
  const out = new Array(list.length)
  for (let i = 0; i < list.length; i++) {
    out[i] = outcomes[i].verdict ? { ...outcomes[i] } : state[i] === 0 ? shared.outOfRange[i] : state[i] === 2 ? shared.maybe[i] : shared.absent[i]
  }
  return out
}
