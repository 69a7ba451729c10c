// buildSidecarIndex(): one index file for a whole dataset, for files that cannot be rewritten — per
// file (path, size, validator), row group and indexed column, a split block bloom filter's bitset and
// the exact min/max of the chunk's values. Laid out as a Puffin file (js/sidecar/puffin.js; the
// format is docs/sidecar-index.md): the bitsets blob first, written block-major a bounded segment at a
// time (js/sidecar/sidecar-regions.js), then the directory (JSON) right before the footer, so one
// tail read finds both while the directory is small; the footer also gives the bitsets blob its layout
// (js/sidecar/sidecar-layout.js), so a first probe can read the directory and its values' blocks in one
// wave when it is not. A probe then reads only the 32-byte blocks its values map to — for one value, one
// range per region. With `update`, files whose size and validator match the old
// index keep their entries (their bitsets copied across), new files are indexed and gone ones dropped.
// Files are read many at once (js/index-builder/build-plan.js); with `shard`, only shard i of n's, into a
// segment that mergeSidecarSegments() joins with the others (js/index-builder/sidecar-segments.js).
import { invalidArgument } from '../errors.js'
import { crc32Hex, puffinFooter, PUFFIN_MAGIC } from '../sidecar/puffin.js'
import { openSink } from './sink.js'
import { openSidecarIndex, fileValidator, validatorKind } from '../sidecar/sidecar-index.js'
import { BITSETS_BLOB, DIRECTORY_BLOB } from '../sidecar/sidecar-blobs.js'
import { SIDECAR_VERSION } from '../sidecar/sidecar-directory.js'
import { encodeLayout, LAYOUT_PROPERTY } from '../sidecar/sidecar-layout.js'
import { PACKAGE_VERSION } from './version.js'
import { DEFAULT_SEGMENT_BYTES, RegionWriter } from '../sidecar/sidecar-regions.js'
import { SlicedIndexWriter } from './sidecar-sliced-writer.js'
import { buildReading, inOrder, localValidator, readFileEntry } from './build-plan.js'
import { segmentProperties, shardPositions } from './sidecar-segments.js'
import { inShard } from '../dataset/dataset.js'
import { GLOB_CHARS, listDataset } from '../dataset/listing.js'
import { checkFpp } from '../wasm/sbbf.js'

const utf8 = new TextEncoder()

/**
 * @typedef {import('./sidecar-sliced-writer.js').SlicedFileInput} SlicedFileInput
 * @typedef {import('../sidecar/sidecar-directory.js').FileEntry} FileEntry
 * @typedef {Awaited<ReturnType<typeof openSidecarIndex>>} OpenedIndex an index of either format
 */

/**
 * @param {string[]} files Node paths (a directory stands for the .parquet files under it) or URLs
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink as addIndexes takes it
 * @param {import('./index.js').SidecarBuildOptions} options as js/index-builder/index.d.ts declares them
 * @returns {ReturnType<typeof import('./index.js').buildSidecarIndex>}
 *   validators: how many files the index records with each kind of validator (mtime, etag,
 *   last-modified, none) — what a probe will compare: an mtime matches the file read by its path only
 */
export async function buildSidecarIndex(files, sink, options) {
  // A table's live files at its snapshot, and the snapshot recorded beside them (js/index-builder/table-index-build.js).
  if (options?.table !== undefined && options.table !== null) return (await import('./table-index-build.js')).buildTableIndex(sink, options)
  const { fpp = 0.01, ndv = 'auto', signal, format = 2 } = options ?? {}
  if (format !== 1 && format !== 2) throw invalidArgument(`format must be 1 or 2, got ${format}`)
  if (!Array.isArray(options?.columns) || !options.columns.length) {
    throw invalidArgument('buildSidecarIndex needs options.columns: the columns to index')
  }
  checkFpp(fpp)
  const base = options.base ?? (typeof sink === 'string' ? (await import('node:path')).dirname(sink) : undefined)
  const inputs = await expandInputs(files)
  const recorded = await Promise.all(inputs.map((input) => recordedPath(input, base)))
  const chosen = shardPositions(recorded, options.shard)
  if (options.shard) inShard('', options.shard) // refused even when no file falls in it
  const previous = options.update ? await openSidecarIndex(options.update, { base }) : undefined
  await previous?.loadDirectory({ signal })
  const reading = buildReading(chosen.map((i) => inputs[i]), {
    concurrency: options.concurrency, fetch: options.fetch, prefetchBytes: options.prefetchBytes,
  })
  const readOptions = { columns: options.columns, fpp, ndv, signal }
  const out = await openSink(sink)
  /** @type {Array<{ file: string, rowGroup?: number, column?: string, detail: string }>} */
  const skipped = []
  let rebuilt = 0
  let kept = 0
  let chunks = 0
  /** @type {Array<string | null>} per file written: its validator */
  const validators = []
  try {
    await out.write(PUFFIN_MAGIC)
    const properties = options.shard ? segmentProperties(options.shard, inputs.length, chosen) : undefined
    const writer = format === 2
      ? new SlicedIndexWriter(out, {
        fpp, columns: options.columns, segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
        writer: `parquet-bloom ${PACKAGE_VERSION}`, properties,
      })
      : new DirectoryWriter(out, { fpp, columns: options.columns, segmentBytes: options.segmentBytes, properties })
    const paths = new Set()
    // An unchanged file (size and validator as the old index records them) keeps its entry unread, when
    // the old index indexed every column asked for (an entry without one: the file has no such column).
    const reusable = previous !== undefined && options.columns.every((c) => previous.columns.includes(c))
    const job = async (/** @type {number} */ i) => {
      const old = reusable ? previous.entry(recorded[i]) : undefined
      if (!old) return readFileEntry(inputs[i], recorded[i], readOptions, reading)
      const remote = /^https?:\/\//i.test(inputs[i])
      // A local file's mtime as a build records it (unsettled when too recent to tell versions apart): an entry recorded
      // unsettled is read anew, as its old read may be of a version the same mtime hid.
      const validator = remote ? await fileValidator(inputs[i], { fetch: reading.fetch, signal })
        : await localValidator(inputs[i], { fetch: reading.fetch, signal })
      if (old.size === validator.size && old.validator === validator.validator && validatorKind(old.validator) !== 'unsettled') {
        return { old }
      }
      // A URL's changed file records the validator of the response its read begins with, as a build does (where a
      // Last-Modified too recent to tell versions apart is recorded as such); a local file's stat stands.
      return readFileEntry(inputs[i], recorded[i], readOptions, reading, remote ? undefined : validator)
    }
    for await (const done of inOrder(chosen, reading.filesInFlight, job)) {
      let file
      if ('old' in done) {
        file = await copyEntry(/** @type {OpenedIndex} */ (previous), done.old) // an old entry comes from it
        kept++
      } else {
        file = done.file
        skipped.push(...done.skipped)
        rebuilt++
      }
      for (const g of file.rowGroups) for (const c of Object.values(g.chunks)) if (c) chunks++
      paths.add(file.path)
      validators.push(file.validator)
      await writer.add(file)
    }
    await writer.finish()
    const bytesWritten = out.written
    const written = await out.close()
    /** @type {Awaited<ReturnType<typeof buildSidecarIndex>>} */
    const result = { format, files: validators.length, rebuilt, kept,
      dropped: previous ? previous.files.filter((f) => !paths.has(f.path)).length : 0, chunks, bytesWritten,
      validators: validatorsOf(validators), skipped }
    if (written) result.blob = written
    return result
  } catch (error) {
    await out.abort(error)
    throw error
  } finally {
    await previous?.close()
  }
}

/**
 * Writes an index of files already described (their bitsets and bounds at hand), in either format: what
 * buildSidecarIndex does after reading each file, for a caller that has the filters (benchmarks, tools).
 * @param {AsyncIterable<import('./sidecar-sliced-writer.js').SlicedFileInput> |
 *   Iterable<import('./sidecar-sliced-writer.js').SlicedFileInput>} files
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink
 * @param {{ format?: 1 | 2, fpp?: number, columns: string[], segmentBytes?: number, filesVersion?: 2 | 3 }} options
 *   filesVersion: format 2's files blob (default 3; 2 writes indexes as they were, for tests of such indexes)
 */
export async function writeSidecarFiles(files, sink, { format = 2, fpp = 0.01, columns, segmentBytes, filesVersion }) {
  const out = await openSink(sink)
  try {
    await out.write(PUFFIN_MAGIC)
    const writer = format === 2
      ? new SlicedIndexWriter(out, {
        fpp, columns, segmentBytes: segmentBytes ?? DEFAULT_SEGMENT_BYTES, writer: `parquet-bloom ${PACKAGE_VERSION}`, filesVersion,
      })
      : new DirectoryWriter(out, { fpp, columns, segmentBytes, properties: undefined })
    for await (const file of files) await writer.add(file)
    await writer.finish()
    const bytesWritten = out.written
    return { bytesWritten, blob: await out.close() }
  } catch (error) {
    await out.abort(error)
    throw error
  }
}

/**
 * How many entries record each kind of validator (mtime, etag, last-modified; none for a file read from memory
 * or a URL that sent none).
 * @param {Array<string | null>} validators
 */
function validatorsOf(validators) {
  /** @type {Record<string, number>} */
  const counts = {}
  for (const v of validators) {
    const kind = validatorKind(v) ?? 'none'
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}


/**
 * Paths and URLs; a local folder or glob becomes the Parquet files a dataset of it lists (js/dataset/listing.js: by path,
 * .parquet/.parq/.pq, a folder's bookkeeping such as _delta_log skipped), so that the index describes the files
 * `openDataset` of the same folder probes. (Walked here apart, it took .parquet only, so a dataset's .parq files went
 * unindexed, and a glob was a file not found.)
 * @param {string[]} files
 */
async function expandInputs(files) {
  /** @type {string[]} */
  const out = []
  for (const input of files) {
    if (typeof input === 'string' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
      const { stat } = await import('node:fs/promises')
      const info = await stat(input).catch(() => undefined)
      if (info?.isDirectory() || (!info && GLOB_CHARS.test(input))) {
        const { files: listed } = await listDataset(input)
        for (const f of listed) out.push(/** @type {string} */ (f.location))
        continue
      }
    }
    out.push(input)
  }
  return out
}

/**
 * How a file is named in the index: relative to `base` (with / separators) for local paths under it, and
 * for URLs under a URL base (decoded, the form readers look a URL up by), so that an index built through
 * one server still describes the files served from another origin beside it.
 * @param {string} input
 * @param {string | undefined} base
 */
async function recordedPath(input, base) {
  if (base === undefined) return input
  if (/^https?:\/\//i.test(input)) {
    const prefix = base.endsWith('/') ? base : `${base}/`
    return /^https?:\/\//i.test(base) && input.startsWith(prefix) ? decodeURIComponent(input.slice(prefix.length)) : input
  }
  const path = await import('node:path')
  const relative = path.relative(base, path.resolve(input))
  return relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(input) : relative.split(path.sep).join('/')
}

/**
 * An entry of an index (either format), its bitsets read back for a new one.
 * @param {OpenedIndex} previous
 * @param {FileEntry} old
 * @returns {Promise<SlicedFileInput>}
 */
export async function copyEntry(previous, old) {
  /** @type {SlicedFileInput['rowGroups']} */
  const rowGroups = []
  for (const g of old.rowGroups) {
    /** @type {SlicedFileInput['rowGroups'][number]['chunks']} */
    const chunkEntries = {}
    for (const [name, c] of Object.entries(g.chunks)) {
      chunkEntries[name] = Array.isArray(c) ? { bitset: await previous.readBitset(c[0], c[1]), min: c[3], max: c[4] } : null
    }
    rowGroups.push({ numRows: g.numRows, chunks: chunkEntries })
  }
  return { ...old, rowGroups }
}

/**
 * Format 1: bitsets block-major per segment (js/sidecar/sidecar-regions.js), then the JSON
 * directory right before the footer, whose bitsets blob carries the layout.
 */
class DirectoryWriter {
  /**
   * @param {import('./sink.js').Sink} out the sink, after the Puffin magic
   * @param {{ fpp: number, columns: string[], segmentBytes: number | undefined, properties: Record<string, string> | undefined }} options
   */
  constructor(out, { fpp, columns, segmentBytes, properties }) {
    this.out = out
    this.properties = properties
    this.fpp = fpp
    this.columns = columns
    this.bitsetsStart = out.written
    this.regions = new RegionWriter(out, this.bitsetsStart, segmentBytes)
    /** @type {FileEntry[]} */
    this.entries = []
  }

  /** @param {SlicedFileInput} file */
  async add(file) {
    /** @type {FileEntry['rowGroups']} */
    const rowGroups = []
    for (const g of file.rowGroups) {
      /** @type {FileEntry['rowGroups'][number]['chunks']} */
      const chunkEntries = {}
      for (const [name, c] of Object.entries(g.chunks)) {
        if (!c) {
          chunkEntries[name] = null
          continue
        }
        // [region, place in it, numBytes, min, max]: the region and place are set when the region is written.
        /** @type {NonNullable<import('../sidecar/sidecar-directory.js').Chunk>} */
        const entry = [-1, -1, c.bitset.length, c.min, c.max]
        await this.regions.add(c.bitset, entry, name, file.columns[name])
        chunkEntries[name] = entry
      }
      rowGroups.push({ numRows: g.numRows, chunks: chunkEntries })
    }
    this.entries.push({
      path: file.path, size: file.size, validator: file.validator, numRows: file.numRows, columns: file.columns, rowGroups,
    })
  }

  async finish() {
    const { out, regions } = this
    await regions.flush()
    const bitsetsLength = out.written - this.bitsetsStart
    const directory = utf8.encode(JSON.stringify({
      format: 'parquet-bloom-sidecar', version: SIDECAR_VERSION, writer: `parquet-bloom ${PACKAGE_VERSION}`, fpp: this.fpp,
      columns: this.columns, regions: regions.regions, files: this.entries }))
    const directoryStart = out.written
    await out.write(directory)
    /**
     * @param {string} type
     * @param {number} offset
     * @param {number} length
     * @param {Record<string, string>} properties
     * @returns {import('../sidecar/puffin.js').BlobMetadata}
     */
    const blob = (type, offset, length, properties) => ({
      type, fields: [], 'snapshot-id': -1, 'sequence-number': -1, offset, length, properties,
    })
    await out.write(puffinFooter([
      blob(BITSETS_BLOB, this.bitsetsStart, bitsetsLength, {
        [LAYOUT_PROPERTY]: encodeLayout({
          fpp: this.fpp, columns: this.columns, regions: regions.regions.map((r, i) => ({ ...r, ...regions.kinds[i] })),
        }),
      }),
      blob(DIRECTORY_BLOB, directoryStart, directory.length, { crc32: crc32Hex(directory), version: String(SIDECAR_VERSION) }),
    ], { 'created-by': `parquet-bloom ${PACKAGE_VERSION}`, ...this.properties }))
  }
}
