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
import { openParquet } from '../parquet-file.js'
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { buildChunkFilter, DEFAULT_WINDOW_BYTES, FILTERABLE_TYPES } from './chunk-filter.js'
import { decodeHeaderBytes } from '../indexes/bloom-header.js'
import { crc32Hex, puffinFooter, PUFFIN_MAGIC } from '../sidecar/puffin.js'
import { openSink } from './sink.js'
import { openSidecarIndex, fileValidator, validatorKind } from '../sidecar/sidecar-index.js'
import { BITSETS_BLOB, DIRECTORY_BLOB } from '../sidecar/sidecar-blobs.js'
import { encodeBound, SIDECAR_VERSION } from '../sidecar/sidecar-directory.js'
import { encodeLayout, LAYOUT_PROPERTY } from '../sidecar/sidecar-layout.js'
import { PACKAGE_VERSION } from './version.js'
import { DEFAULT_SEGMENT_BYTES, RegionWriter } from '../sidecar/sidecar-regions.js'
import { SlicedIndexWriter } from './sidecar-sliced-writer.js'
import { layoutEncrypted } from './add-indexes.js'
import { checkFpp } from '../wasm/sbbf.js'

const utf8 = new TextEncoder()

/**
 * @param {string[]} files Node paths (a directory stands for the .parquet files under it) or URLs
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink as addIndexes takes it
 * @param {import('./index.js').SidecarBuildOptions} options as js/index-builder/index.d.ts declares them
 * @returns {Promise<{ files: number, rebuilt: number, kept: number, dropped: number, chunks: number, bytesWritten: number, blob?: Blob,
 *   validators: Record<string, number>, skipped: Array<{ file: string, rowGroup?: number, column?: string, detail: string }> }>}
 *   validators: how many files the index records with each kind of validator (mtime, etag,
 *   last-modified, none) — what a probe will compare: an mtime matches the file read by its path only
 */
export async function buildSidecarIndex(files, sink, options) {
  const { fpp = 0.01, ndv = 'auto', signal, format = 2 } = options ?? {}
  if (format !== 1 && format !== 2) throw invalidArgument(`format must be 1 or 2, got ${format}`)
  if (!Array.isArray(options?.columns) || !options.columns.length) throw invalidArgument('buildSidecarIndex needs options.columns: the columns to index')
  checkFpp(fpp)
  const base = options.base ?? (typeof sink === 'string' ? (await import('node:path')).dirname(sink) : undefined)
  const inputs = await expandInputs(files)
  const previous = options.update ? await openSidecarIndex(options.update, { base }) : undefined
  await previous?.loadDirectory({ signal })
  const out = await openSink(sink)
  const skipped = []
  let rebuilt = 0
  let kept = 0
  let chunks = 0
  const validators = []
  try {
    await out.write(PUFFIN_MAGIC)
    const writer = format === 2
      ? new SlicedIndexWriter(out, { fpp, columns: options.columns, segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES, writer: `parquet-bloom ${PACKAGE_VERSION}` })
      : new DirectoryWriter(out, { fpp, columns: options.columns, segmentBytes: options.segmentBytes })
    const paths = new Set()
    for (const input of inputs) {
      const recorded = await recordedPath(input, base)
      const validator = await fileValidator(input)
      const old = previous?.entry(recorded)
      let file
      if (old && old.size === validator.size && old.validator === validator.validator && options.columns.every((c) => old.columns[c] !== undefined)) {
        file = await copyEntry(previous, old)
        kept++
      } else {
        file = await indexFile(input, recorded, validator, { ...options, fpp, ndv, signal }, skipped)
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
    const result = { format, files: validators.length, rebuilt, kept, dropped: previous ? previous.files.filter((f) => !paths.has(f.path)).length : 0, chunks, bytesWritten,
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
 * @param {AsyncIterable<import('./sidecar-sliced-writer.js').SlicedFileInput> | Iterable<import('./sidecar-sliced-writer.js').SlicedFileInput>} files
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink
 * @param {{ format?: 1 | 2, fpp?: number, columns: string[], segmentBytes?: number, filesVersion?: 2 | 3 }} options filesVersion: format 2's files blob (default 3; 2 writes indexes as they were, for tests of such indexes)
 */
export async function writeSidecarFiles(files, sink, { format = 2, fpp = 0.01, columns, segmentBytes, filesVersion }) {
  const out = await openSink(sink)
  try {
    await out.write(PUFFIN_MAGIC)
    const writer = format === 2
      ? new SlicedIndexWriter(out, { fpp, columns, segmentBytes: segmentBytes ?? DEFAULT_SEGMENT_BYTES, writer: `parquet-bloom ${PACKAGE_VERSION}`, filesVersion })
      : new DirectoryWriter(out, { fpp, columns, segmentBytes })
    for await (const file of files) await writer.add(file)
    await writer.finish()
    const bytesWritten = out.written
    return { bytesWritten, blob: await out.close() }
  } catch (error) {
    await out.abort(error)
    throw error
  }
}

/** How many entries record each kind of validator (mtime, etag, last-modified; none for a file read from memory or a URL that sent none). */
function validatorsOf(validators) {
  /** @type {Record<string, number>} */
  const counts = {}
  for (const v of validators) {
    const kind = validatorKind(v) ?? 'none'
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}


/** Paths and URLs; a directory becomes the .parquet files under it, sorted. */
async function expandInputs(files) {
  const out = []
  for (const input of files) {
    if (typeof input === 'string' && !/^https?:\/\//i.test(input)) {
      const { stat, readdir } = await import('node:fs/promises')
      const path = await import('node:path')
      const info = await stat(input).catch(() => undefined)
      if (info?.isDirectory()) {
        const listed = await readdir(input, { recursive: true })
        for (const name of listed.filter((n) => n.endsWith('.parquet')).sort()) out.push(path.join(input, name))
        continue
      }
    }
    out.push(input)
  }
  return out
}

/** How a file is named in the index: relative to `base` (with / separators) for local paths under it. */
async function recordedPath(input, base) {
  if (base === undefined || /^https?:\/\//i.test(input)) return input
  const path = await import('node:path')
  const relative = path.relative(base, path.resolve(input))
  return relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(input) : relative.split(path.sep).join('/')
}

/** Builds one file's entry, its chunks' bitsets with it (one file's at a time: the writer takes them). */
async function indexFile(input, recorded, validator, options, skipped) {
  const file = await openParquet(input, { signal: options.signal })
  try {
    const { layout, metadataOffset } = file
    if (layoutEncrypted(layout)) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTED, `${file.name}: the file is encrypted; sidecar indexes of encrypted files are not supported (they would hold what the keys protect)`, { source: file.name })
    }
    const read = (offset, length) => file.readRange(offset, length, { signal: options.signal })
    const columns = {}
    const leaves = []
    for (const name of options.columns) {
      let column
      try {
        column = file.column(name)
      } catch (error) {
        if (error?.code !== ErrorCode.COLUMN_NOT_FOUND) throw error
        skipped.push({ file: recorded, column: name, detail: 'the file has no such column' })
        continue
      }
      if (!FILTERABLE_TYPES.has(column.physicalType)) throw invalidArgument(`${file.name}: column ${column.name} is ${column.physicalType}; bloom filters are built for ${[...FILTERABLE_TYPES].join(', ')}`)
      // Recorded by the column's dotted path, as probes name it.
      columns[column.name] = { physicalType: column.physicalType, typeLength: column.typeLength ?? null, logicalType: column.logicalType ?? null }
      leaves.push([column.name, column])
    }
    const rowGroups = []
    for (let g = 0; g < layout.rowGroupRows.length; g++) {
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
        chunkEntries[name] = { bitset: built.bytes.slice(header.headerLength), min: b ? encodeBound(b.kind, b.min) : null, max: b ? encodeBound(b.kind, b.max) : null }
      }
      rowGroups.push({ numRows: layout.rowGroupRows[g], chunks: chunkEntries })
    }
    return { path: recorded, size: validator.size, validator: validator.validator, numRows: layout.numRows, columns, rowGroups }
  } finally {
    await file.close()
  }
}

/** An entry of the old index (either format), its bitsets read back for the new one. */
async function copyEntry(previous, old) {
  const rowGroups = []
  for (const g of old.rowGroups) {
    const chunkEntries = {}
    for (const [name, c] of Object.entries(g.chunks)) {
      chunkEntries[name] = Array.isArray(c) ? { bitset: await previous.readBitset(c[0], c[1], c[2]), min: c[3], max: c[4] } : null
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
  constructor(out, { fpp, columns, segmentBytes }) {
    this.out = out
    this.fpp = fpp
    this.columns = columns
    this.bitsetsStart = out.written
    this.regions = new RegionWriter(out, this.bitsetsStart, segmentBytes)
    this.entries = []
  }

  async add(file) {
    const rowGroups = []
    for (const g of file.rowGroups) {
      const chunkEntries = {}
      for (const [name, c] of Object.entries(g.chunks)) {
        if (!c) {
          chunkEntries[name] = null
          continue
        }
        // [region, place in it, numBytes, min, max]: the region and place are set when the region is written.
        const entry = [-1, -1, c.bitset.length, c.min, c.max]
        await this.regions.add(c.bitset, entry, name, file.columns[name])
        chunkEntries[name] = entry
      }
      rowGroups.push({ numRows: g.numRows, chunks: chunkEntries })
    }
    this.entries.push({ path: file.path, size: file.size, validator: file.validator, numRows: file.numRows, columns: file.columns, rowGroups })
  }

  async finish() {
    const { out, regions } = this
    await regions.flush()
    const bitsetsLength = out.written - this.bitsetsStart
    const directory = utf8.encode(JSON.stringify({ format: 'parquet-bloom-sidecar', version: SIDECAR_VERSION, writer: `parquet-bloom ${PACKAGE_VERSION}`, fpp: this.fpp,
      columns: this.columns, regions: regions.regions, files: this.entries }))
    const directoryStart = out.written
    await out.write(directory)
    const blob = (type, offset, length, properties) => ({ type, fields: [], 'snapshot-id': -1, 'sequence-number': -1, offset, length, properties })
    await out.write(puffinFooter([
      blob(BITSETS_BLOB, this.bitsetsStart, bitsetsLength, {
        [LAYOUT_PROPERTY]: encodeLayout({ fpp: this.fpp, columns: this.columns, regions: regions.regions.map((r, i) => ({ ...r, ...regions.kinds[i] })) }),
      }),
      blob(DIRECTORY_BLOB, directoryStart, directory.length, { crc32: crc32Hex(directory), version: String(SIDECAR_VERSION) }),
    ], { 'created-by': `parquet-bloom ${PACKAGE_VERSION}` }))
  }
}
