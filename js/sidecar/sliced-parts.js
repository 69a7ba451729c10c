// The parts of a format-2 sidecar index file (docs/sidecar-index.md "Format 2"), read when a probe first needs
// them and checked as they arrive: the files blob (its CRC-32; decoded with the files' identity table), the
// path hashes, the details pages (each its CRC-32, its count of files and row groups), version 3's identity
// pages (each its page's digest); where a column's chunks lie; and the waves of reads that fetch them.
import { crc32 } from '../pages/crc32.js'
import { sameBytes } from '../format/bytes.js'
import { RangeTask } from '../plan/read-scheduler.js'
import { LinkModel } from '../plan/link-model.js'
import { crc32Matches } from './puffin.js'
import { notAnIndex } from './sidecar-directory.js'
import { decodeDetailsPage } from './sidecar-details.js'
import { decodeFilesPart, placeColumn, unreadableChunks } from './sidecar-files-part.js'
import { hashHalves, HashTable, pageDigests } from './sidecar-identity.js'
import { readWave } from './sidecar-reads.js'

/**
 * @typedef {import('./sidecar-files-part.js').SlicedLayout} SlicedLayout
 * @typedef {import('./sidecar-files-part.js').FilesPart} FilesPart
 * @typedef {import('./puffin.js').BlobMetadata} BlobMetadata
 * @typedef {{ slices: BlobMetadata, details: BlobMetadata, paths: BlobMetadata, files: BlobMetadata,
 *   identities: BlobMetadata | undefined }} SlicedBlobs the blobs of format 2 (identities: files blob version 3)
 */

export class SlicedParts {
  /** @type {import('./sidecar-reads.js').IndexSource} */
  #source
  /** @type {import('../plan/read-scheduler.js').ByteCache} */
  #cache
  /** @type {SlicedBlobs} */
  #blobs
  /** @type {SlicedLayout} */
  #layout
  /** @type {FilesPart | undefined} the files blob, once read (filesPart()) */
  #part
  /** @type {HashTable | undefined} the files' identity hashes (version 3: their locators), with the files blob */
  #identities
  /** @type {HashTable | undefined} the path hashes, once a probe needed them */
  #paths
  /** @type {Map<string, { regionOf: Int32Array, slotOf: Uint32Array, unreadable: Map<number, Uint8Array> }>} */
  #placements = new Map()
  /** @type {Map<number, import('./sidecar-details.js').FileDetails[]>} */
  #pages = new Map()
  /** @type {Map<number, Uint8Array>} version 3: pages of the identities blob read, each checked against its digest */
  #identityPages = new Map()
  #link = new LinkModel()
  /** Where the tail read began: the files blob's bytes from there on are held. */
  #tailOffset
  /** @type {Uint8Array | undefined} The whole details blob, read before the page table was known: split into pages after its wave. */
  #wholeDetails

  /**
   * @param {import('./sidecar-reads.js').IndexSource} source the index file
   * @param {import('../plan/read-scheduler.js').ByteCache} cache the tail's bytes
   * @param {SlicedBlobs} blobs
   * @param {SlicedLayout} layout
   * @param {number} tailOffset
   */
  constructor(source, cache, blobs, layout, tailOffset) {
    this.#source = source
    this.#cache = cache
    this.#blobs = blobs
    this.#layout = layout
    this.#tailOffset = tailOffset
    const held = cache.get(blobs.files.offset, blobs.files.offset + blobs.files.length)
    if (held) this.#takeFilesPart(held)
  }

  get layout() {
    return this.#layout
  }

  get blobs() {
    return this.#blobs
  }

  /** The path hashes, once pathsTask()'s wave read them. */
  get pathTable() {
    return this.#paths
  }

  /**
   * Whether the details page p is read.
   * @param {number} p
   */
  hasPage(p) {
    return this.#pages.has(p)
  }

  /** Whether any details page is read. */
  get anyPage() {
    return this.#pages.size > 0
  }

  /**
   * Version 3: the identities of page p, once identityTasks()'s wave read them.
   * @param {number} p
   */
  identityPage(p) {
    return this.#identityPages.get(p)
  }

  /**
   * @param {number} f
   */
  pageOf(f) {
    return Math.floor(f / this.#layout.pageFiles)
  }

  /**
   * @param {number} f
   */
  pageOfFile(f) {
    return this.#pages.get(this.pageOf(f))?.[f % this.#layout.pageFiles]
  }

  /**
   * @param {number} f
   */
  detailsOf(f) {
    const d = this.pageOfFile(f)
    if (!d) throw new Error(`internal: details of file ${f} not read`)
    return d
  }

  /** The files blob's read, unless held. */
  filesTask() {
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
  filesPart() {
    if (!this.#part) throw new Error('internal: the files blob is not read')
    return this.#part
  }

  /** The files' identity hashes, decoded with the files blob. */
  identityTable() {
    if (!this.#identities) throw new Error('internal: the files blob is not read')
    return this.#identities
  }

  /** @param {Uint8Array} bytes */
  #takeFilesPart(bytes) {
    if (this.#part) return
    const where = this.#source.name
    if (!crc32Matches(this.#blobs.files.properties?.crc32, bytes)) throw notAnIndex(where, 'its files blob does not match its CRC-32')
    this.#part = decodeFilesPart(bytes, this.#layout, this.#blobs.details.length, where)
    // Version 2: whole identity hashes, a match is a match. Version 3: locators, a match a claim that a page's
    // digest or its identities confirm.
    const { hashes, locators } = this.#part
    this.#identities = new HashTable(hashes
      ? hashHalves(hashes)
      : { low: /** @type {Uint32Array} */ (locators), high: new Uint32Array(this.#layout.files) })
  }

  pathsTask() {
    if (this.#paths) return []
    const blob = this.#blobs.paths
    return [new RangeTask(blob.offset, blob.offset + blob.length, (/** @type {Uint8Array} */ bytes) => {
      if (!crc32Matches(blob.properties?.crc32, bytes) || bytes.length !== this.#layout.files * 8) {
        throw notAnIndex(this.#source.name, 'its path hashes do not match their CRC-32 or count')
      }
      this.#paths = new HashTable(hashHalves(bytes))
    })]
  }

  /**
   * Reads of these details pages; before the page table is here (no files blob yet), the whole details blob.
   * @param {number[]} pages
   */
  pageTasks(pages) {
    const wanted = [...new Set(pages)].filter((p) => !this.#pages.has(p))
    if (!wanted.length) return []
    if (!this.#part) {
      const blob = this.#blobs.details
      return [new RangeTask(blob.offset, blob.offset + blob.length, (/** @type {Uint8Array} */ bytes) => {
        if (!crc32Matches(blob.properties?.crc32, bytes)) throw notAnIndex(this.#source.name, 'its details do not match their CRC-32')
        this.#wholeDetails = bytes
      })]
    }
    return wanted.map((p) => {
      const start = this.#blobs.details.offset + this.filesPart().pages[p].offset
      return new RangeTask(start, start + this.filesPart().pages[p].length, (/** @type {Uint8Array} */ bytes) => this.#takePage(p, bytes))
    })
  }

  /**
   * @param {number} p
   * @param {Uint8Array} bytes
   */
  #takePage(p, bytes) {
    const where = this.#source.name
    if ((crc32(bytes) >>> 0) !== this.filesPart().pages[p].crc) throw notAnIndex(where, `its details page ${p} does not match its CRC-32`)
    const files = decodeDetailsPage(bytes, this.#layout.columns.length, where)
    const first = p * this.#layout.pageFiles
    const expected = Math.min(this.#layout.pageFiles, this.#layout.files - first)
    if (files.length !== expected) throw notAnIndex(where, `its details page ${p} has ${files.length} files, not ${expected}`)
    files.forEach((d, i) => {
      if (d.rowRows.length !== this.filesPart().rowGroups[first + i]) {
        throw notAnIndex(where, `its details page ${p} disagrees with the files blob's row-group counts`)
      }
    })
    this.#pages.set(p, files)
  }

  /**
   * @param {string} column
   */
  placement(column) {
    let placed = this.#placements.get(column)
    if (!placed) {
      placed = {
        ...placeColumn(this.#layout, this.filesPart(), column, this.#source.name),
        unreadable: unreadableChunks(this.#layout, this.filesPart(), column, this.#source.name),
      }
      this.#placements.set(column, placed)
    }
    return placed
  }
  /**
   * One wave of reads of the index file; its rounds. Whole details read early are split into pages after.
   * @param {RangeTask[]} tasks
   * @param {AbortSignal | undefined} signal
   */
  async waveRounds(tasks, signal) {
    if (!tasks.length) return 0
    const rounds = await readWave({ source: this.#source, cache: this.#cache, link: this.#link }, tasks, signal)
    if (this.#wholeDetails) {
      const bytes = this.#wholeDetails
      this.#wholeDetails = undefined
      for (const [p, page] of this.filesPart().pages.entries()) {
        if (!this.#pages.has(p)) this.#takePage(p, bytes.subarray(page.offset, page.offset + page.length))
      }
    }
    return rounds
  }


  /**
   * Reads of these pages of the identities blob, each checked against its page's digest.
   * @param {number[]} pages
   */
  identityTasks(pages) {
    const blob = /** @type {BlobMetadata} */ (this.#blobs.identities) // version 3 has one (checked at open)
    const pageFiles = this.#layout.pageFiles
    return pages.map((p) => {
      const start = blob.offset + p * pageFiles * 8
      const end = blob.offset + Math.min(this.#layout.files, (p + 1) * pageFiles) * 8
      return new RangeTask(start, end, (/** @type {Uint8Array} */ bytes) => {
        if (!sameBytes(pageDigests([bytes]), /** @type {Uint8Array} */ (this.filesPart().pages[p].digest))) {
          throw notAnIndex(this.#source.name, `its identities of page ${p} do not match the page's digest`)
        }
        this.#identityPages.set(p, bytes)
      })
    })
  }

}
