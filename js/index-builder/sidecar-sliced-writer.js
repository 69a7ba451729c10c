// Writes a format-2 sidecar index (docs/sidecar-index.md "Format 2"): the bit slices blob a bounded
// segment of files at a time (js/sidecar/bit-slices.js), then the details pages, the path hashes
// and the fixed files blob, right before the Puffin footer. A file's chunks of a column are widened to
// one size (no answer changes) so they take consecutive slots of one region; memory holds one segment
// of bitsets, its bit-sliced copy, and the details of every file (written at the end).
import { crc32 } from '../pages/crc32.js'
import { crc32Hex, puffinFooter } from '../sidecar/puffin.js'
import { sliceBitsets, widenBitset } from '../sidecar/bit-slices.js'
import { encodeDetailsPage } from '../sidecar/sidecar-details.js'
import { encodeFilesPart, encodeSlicedLayout, filesPartLength, NO_REGION } from '../sidecar/sidecar-files-part.js'
import { hashStrings, identityText, pageDigests } from '../sidecar/sidecar-identity.js'
import { typeKey } from '../sidecar/sidecar-layout.js'
import { DETAILS_BLOB, FILES_BLOB, IDENTITIES_BLOB, PATH_HASHES_BLOB, SLICES_BLOB } from '../sidecar/sidecar-blobs.js'
import { BYTES_PER_BLOCK } from '../wasm/sbbf.js'

/** Files per details page: a page is what a probe reads to learn one file's details. */
export const PAGE_FILES = 64

/**
 * @typedef {{ path: string, size: number, validator: string | null, numRows: number,
 *   columns: Record<string, import('../sidecar/sidecar-layout.js').ColumnType>,
 *   rowGroups: Array<{ numRows: number,
 *     chunks: Record<string, { bitset: Uint8Array, min: RecordedBound, max: RecordedBound } | null> }> }} SlicedFileInput
 *   a chunk: its bitset (without header) and bounds as encodeBound writes them; null: its pages could not be read
 * @typedef {import('../sidecar/sidecar-directory.js').RecordedBound} RecordedBound
 * @typedef {import('../sidecar/sidecar-details.js').FileDetails} FileDetails
 */

export class SlicedIndexWriter {
  /**
   * @param {{ write: (bytes: Uint8Array) => Promise<void>, written: number }} out the sink, after the Puffin magic
   * @param {{ fpp: number, columns: string[], segmentBytes: number, writer: string, properties?: Record<string, string>,
   *   puffin?: { fields: number[], 'snapshot-id': number | bigint, 'sequence-number': number | bigint }, filesVersion?: 2 | 3 }} options
   *   properties: more footer properties (a segment's mark, js/index-builder/sidecar-segments.js); puffin: what every
   *   blob's metadata says it was computed from (an Iceberg table index's field ids and snapshot); default: nothing of a table;
   *   filesVersion: the files blob's (docs/sidecar-index.md "The files blob"); 2 only to write indexes as they were
   */
  constructor(out, { fpp, columns, segmentBytes, writer, properties, puffin, filesVersion = 3 }) {
    this.out = out
    this.properties = properties
    this.puffin = puffin
    this.filesVersion = filesVersion
    this.fpp = fpp
    this.writer = writer
    this.columns = [...columns]
    this.segmentBytes = segmentBytes
    this.slicesStart = out.written
    /** @type {import('../sidecar/sidecar-files-part.js').SlicedRegion[]} */
    this.regions = []
    /** @type {number[]} per segment: the file it ends before */
    this.segments = []
    /** @type {FileDetails[]} per file: path, size, validator, rows, bounds */
    this.details = []
    /** @type {number[]} per file: row groups */
    this.rowGroups = []
    /**
     * @type {Array<Array<number | string> | undefined>} per column (by index), per file: its class, or the pending key until
     *   its segment is written
     */
    this.classes = []
    /**
     * @type {Map<string, { column: number, type: import('../sidecar/sidecar-layout.js').ColumnType, numBytes: number,
     *   bitsets: Uint8Array[] }>}
     *   this segment's regions to be
     */
    this.pending = new Map()
    this.pendingBytes = 0
    this.segmentStart = 0
    /** @type {number[][]} runs of chunks whose pages could not be read: [column, file, first row group, count] */
    this.unreadable = []
  }

  /** @param {SlicedFileInput} file */
  async add(file) {
    const f = this.details.length
    /** @type {FileDetails['bounds']} */
    const bounds = []
    for (const [name, type] of Object.entries(file.columns)) {
      let c = this.columns.indexOf(name)
      if (c < 0) c = this.columns.push(name) - 1
      const chunks = file.rowGroups.map((g) => g.chunks[name] ?? null)
      bounds[c] = chunks.map((chunk) => [chunk?.min ?? null, chunk?.max ?? null])
      if (!chunks.length) continue
      const numBytes = Math.max(BYTES_PER_BLOCK, ...chunks.map((chunk) => chunk?.bitset.length ?? 0))
      // A chunk whose pages could not be read has a filter that holds everything: it can only say maybe.
      const bitsets = chunks.map((chunk) => (chunk ? widenBitset(chunk.bitset, numBytes) : new Uint8Array(numBytes).fill(255)))
      // …and the layout lists it, so a reader answers unknown there, as for a chunk the index does not describe.
      chunks.forEach((chunk, g) => {
        if (chunk) return
        const last = this.unreadable.at(-1)
        if (last && last[0] === c && last[1] === f && last[2] + last[3] === g) last[3]++
        else this.unreadable.push([c, f, g, 1])
      })
      const key = JSON.stringify([c, typeKey(type), numBytes])
      let region = this.pending.get(key)
      if (!region) this.pending.set(key, region = { column: c, type, numBytes, bitsets: [] })
      region.bitsets.push(...bitsets)
      ;(this.classes[c] ??= [])[f] = key
      this.pendingBytes += numBytes * bitsets.length
    }
    this.details.push({
      path: file.path, size: file.size, validator: file.validator, numRows: file.numRows,
      rowRows: file.rowGroups.map((g) => g.numRows), bounds,
    })
    this.rowGroups.push(file.rowGroups.length)
    if (this.pendingBytes >= this.segmentBytes) await this.#flush()
  }

  /** Writes the segment's regions (files segmentStart … now): per column, its regions in the order they began. */
  async #flush() {
    const end = this.details.length
    if (end === this.segmentStart) return
    const byColumn = new Map()
    for (const [key, region] of this.pending) {
      if (!byColumn.has(region.column)) byColumn.set(region.column, new Map())
      const classes = byColumn.get(region.column)
      classes.set(key, classes.size)
      if (classes.size >= NO_REGION) {
        throw new RangeError(`more than ${NO_REGION - 1} sizes and types of column ${this.columns[region.column]} in one segment`)
      }
      this.regions.push({ offset: this.out.written - this.slicesStart, count: region.bitsets.length, numBytes: region.numBytes,
        column: this.columns[region.column], type: region.type, segment: this.segments.length })
      const sliced = sliceBitsets(region.bitsets, region.numBytes)
      region.bitsets = []
      await this.out.write(sliced)
    }
    for (const [c, keys] of this.classes.entries()) {
      if (!keys) continue
      for (let f = this.segmentStart; f < end; f++) if (typeof keys[f] === 'string') keys[f] = byColumn.get(c).get(keys[f])
    }
    this.pending = new Map()
    this.pendingBytes = 0
    this.segments.push(end)
    this.segmentStart = end
  }

  /**
   * The remaining segment, the details, path hashes and files blobs, and the footer; returns the blobs written.
   * @param {Array<{ type: string, bytes: Uint8Array, properties?: Record<string, string> }>} [extra] blobs of a caller's
   *   (a table index's snapshot record), written after the bit slices: the files blob stays right before the footer
   */
  async finish(extra = []) {
    await this.#flush()
    const n = this.details.length
    if (!this.segments.length) this.segments.push(0)
    const slicesLength = this.out.written - this.slicesStart
    /**
     * @param {string} type
     * @param {number} offset
     * @param {number} length
     * @param {Record<string, string>} properties
     * @returns {import('../sidecar/puffin.js').BlobMetadata}
     */
    const blob = (type, offset, length, properties) => ({
      type, fields: [], 'snapshot-id': -1, 'sequence-number': -1, ...this.puffin, offset, length, properties,
    })
    const blobs = [blob(SLICES_BLOB, this.slicesStart, slicesLength, {})]
    for (const e of extra) {
      blobs.push(blob(e.type, this.out.written, e.bytes.length, { ...e.properties, crc32: crc32Hex(e.bytes) }))
      await this.out.write(e.bytes)
    }

    const detailsStart = this.out.written
    /** @type {import('../sidecar/sidecar-files-part.js').PageEntry[]} */
    const pages = []
    const detailsCrc = { value: 0, parts: /** @type {Uint8Array[]} */ ([]) }
    for (let p = 0; p * PAGE_FILES < n; p++) {
      const page = encodeDetailsPage(this.details.slice(p * PAGE_FILES, (p + 1) * PAGE_FILES), this.columns.length)
      pages.push({ offset: this.out.written - detailsStart, length: page.length, crc: crc32(page) >>> 0 })
      detailsCrc.parts.push(page)
      await this.out.write(page)
    }
    const detailsBytes = concat(detailsCrc.parts)
    blobs.push(blob(DETAILS_BLOB, detailsStart, detailsBytes.length, { crc32: crc32Hex(detailsBytes) }))

    const pathHashes = hashStrings(this.details.map((d) => d.path))
    blobs.push(blob(PATH_HASHES_BLOB, this.out.written, pathHashes.length, { crc32: crc32Hex(pathHashes) }))
    await this.out.write(pathHashes)

    // A column needs a class per file where a segment holds it in more than one region, or a file lacks it.
    const classed = []
    const classes = []
    for (let c = 0; c < this.columns.length; c++) {
      const keys = this.classes[c] ?? []
      const per = new Uint8Array(n)
      let needed = false
      for (let f = 0; f < n; f++) {
        const cls = /** @type {number | undefined} */ (keys[f]) // every segment is written: classes, no keys
        per[f] = cls === undefined ? NO_REGION : cls
        if (per[f] !== 0 && this.rowGroups[f] > 0) needed = true
      }
      if (needed) {
        classed.push(c)
        classes.push(per)
      }
    }
    const version = this.filesVersion
    const layout = { version, fpp: this.fpp, writer: this.writer, columns: this.columns, regions: this.regions, segments: this.segments,
      files: n, overflow: this.rowGroups.filter((g) => g >= 255).length, classed, pages: pages.length, pageFiles: PAGE_FILES,
      ...(this.unreadable.length ? { unreadable: this.unreadable } : {}) }
    const hashes = hashStrings(this.details.map((d) => identityText(d.path, d.size, d.validator)))
    if (version >= 3) {
      // Each file's whole identity hash, read by page only where a page's digest cannot vouch for a caller's files.
      const digests = pageDigests(pages.map((_, p) => hashes.subarray(p * PAGE_FILES * 8, Math.min(n, (p + 1) * PAGE_FILES) * 8)))
      pages.forEach((page, p) => { page.digest = digests.subarray(p * 8, p * 8 + 8) })
      blobs.push(blob(IDENTITIES_BLOB, this.out.written, hashes.length, { crc32: crc32Hex(hashes) }))
      await this.out.write(hashes)
    }
    const files = encodeFilesPart({ version, hashes, rowGroups: this.rowGroups, classes, pages })
    if (files.length !== filesPartLength(layout)) throw new RangeError('internal: the files blob is not the length its layout gives')
    blobs.push(blob(FILES_BLOB, this.out.written, files.length, {
      crc32: crc32Hex(files), version: String(version), layout: encodeSlicedLayout(layout),
    }))
    await this.out.write(files)
    const footer = puffinFooter(blobs, { 'created-by': this.writer, ...this.properties })
    await this.out.write(footer)
    return { regions: this.regions.length, files: n, blobs, footerBytes: footer.length }
  }
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
