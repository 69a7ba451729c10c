// buildSidecarIndex(): one index file for a whole dataset, for files that cannot be rewritten — per
// file (path, size, validator), row group and indexed column, a split block bloom filter's bitset and
// the exact min/max of the chunk's values. Laid out as a Puffin file (js/index-builder/puffin.js; the
// format is docs/sidecar-index.md): the bitsets blob first, written block-major a bounded segment at a
// time (js/index-builder/sidecar-regions.js), then the directory (JSON) right before the footer, so one
// tail read finds both while the directory is small; the footer also gives the bitsets blob its layout
// (js/index-builder/sidecar-layout.js), so a first probe can read the directory and its values' blocks in one
// wave when it is not. A probe then reads only the 32-byte blocks its values map to — for one value, one
// range per region. With `update`, files whose size and validator match the old
// index keep their entries (their bitsets copied across), new files are indexed and gone ones dropped.
import { openParquet } from '../parquet-file.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { buildChunkFilter, DEFAULT_WINDOW_BYTES, FILTERABLE_TYPES } from './chunk-filter.js'
import { decodeHeaderBytes } from '../indexes/bloom-header.js'
import { crc32Hex, puffinFooter, PUFFIN_MAGIC } from './puffin.js'
import { openSink } from './sink.js'
import { openSidecarIndex, BITSETS_BLOB, DIRECTORY_BLOB, fileValidator, validatorKind } from './sidecar-index.js'
import { encodeBound, SIDECAR_VERSION } from './sidecar-directory.js'
import { encodeLayout, LAYOUT_PROPERTY } from './sidecar-layout.js'
import { PACKAGE_VERSION } from './version.js'
import { RegionWriter } from './sidecar-regions.js'
import { layoutEncrypted } from './add-indexes.js'

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
  const { fpp = 0.01, ndv = 'auto', signal } = options ?? {}
  if (!Array.isArray(options?.columns) || !options.columns.length) throw invalid('buildSidecarIndex needs options.columns: the columns to index')
  if (!(fpp > 0 && fpp < 1)) throw invalid(`fpp must be in (0, 1), got ${fpp}`)
  const base = options.base ?? (typeof sink === 'string' ? (await import('node:path')).dirname(sink) : undefined)
  const inputs = await expandInputs(files)
  const previous = options.update ? await openSidecarIndex(options.update, { base }) : undefined
  await previous?.loadDirectory({ signal })
  const out = await openSink(sink)
  const skipped = []
  let rebuilt = 0
  let kept = 0
  let chunks = 0
  try {
    await out.write(PUFFIN_MAGIC)
    const bitsetsStart = out.written
    const regions = new RegionWriter(out, bitsetsStart, options.segmentBytes)
    const entries = []
    for (const input of inputs) {
      const recorded = await recordedPath(input, base)
      const validator = await fileValidator(input)
      const old = previous?.entry(recorded)
      if (old && old.size === validator.size && old.validator === validator.validator && options.columns.every((c) => old.columns[c] !== undefined)) {
        entries.push(await copyEntry(previous, old, regions))
        kept++
        continue
      }
      entries.push(await indexFile(input, recorded, validator, { ...options, fpp, ndv, signal }, regions, skipped))
      rebuilt++
    }
    await regions.flush()
    for (const e of entries) for (const g of e.rowGroups) for (const c of Object.values(g.chunks)) if (Array.isArray(c)) chunks++
    const bitsetsLength = out.written - bitsetsStart
    const directory = utf8.encode(JSON.stringify({ format: 'parquet-bloom-sidecar', version: SIDECAR_VERSION, writer: `parquet-bloom ${PACKAGE_VERSION}`, fpp,
      columns: options.columns, regions: regions.regions, files: entries }))
    const directoryStart = out.written
    await out.write(directory)
    const blob = (type, offset, length, properties) => ({ type, fields: [], 'snapshot-id': -1, 'sequence-number': -1, offset, length, properties })
    await out.write(puffinFooter([
      blob(BITSETS_BLOB, bitsetsStart, bitsetsLength, {
        [LAYOUT_PROPERTY]: encodeLayout({ fpp, columns: options.columns, regions: regions.regions.map((r, i) => ({ ...r, ...regions.kinds[i] })) }),
      }),
      blob(DIRECTORY_BLOB, directoryStart, directory.length, { crc32: crc32Hex(directory), version: String(SIDECAR_VERSION) }),
    ], { 'created-by': `parquet-bloom ${PACKAGE_VERSION}` }))
    const bytesWritten = out.written
    const written = await out.close()
    const result = { files: entries.length, rebuilt, kept, dropped: previous ? previous.files.filter((f) => !entries.some((e) => e.path === f.path)).length : 0, chunks, bytesWritten,
      validators: validatorsOf(entries), skipped }
    if (written) result.blob = written
    return result
  } catch (error) {
    await out.abort(error)
    throw error
  } finally {
    await previous?.close()
  }
}

/** How many entries record each kind of validator (mtime, etag, last-modified; none for a file read from memory or a URL that sent none). */
function validatorsOf(entries) {
  /** @type {Record<string, number>} */
  const counts = {}
  for (const e of entries) {
    const kind = validatorKind(e.validator) ?? 'none'
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}

function invalid(message) {
  return new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, message)
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

/** Builds one file's entry; its bitsets go to `out` as they are built. */
async function indexFile(input, recorded, validator, options, regions, skipped) {
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
      if (!FILTERABLE_TYPES.has(column.physicalType)) throw invalid(`${file.name}: column ${column.name} is ${column.physicalType}; bloom filters are built for ${[...FILTERABLE_TYPES].join(', ')}`)
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
        // [region, place in it, numBytes, min, max]: the region and place are set when the region is written.
        const entry = [-1, -1, built.numBytes, b ? encodeBound(b.kind, b.min) : null, b ? encodeBound(b.kind, b.max) : null]
        await regions.add(built.bytes.slice(header.headerLength), entry, name, columns[name])
        chunkEntries[name] = entry
      }
      rowGroups.push({ numRows: layout.rowGroupRows[g], chunks: chunkEntries })
    }
    return { path: recorded, size: validator.size, validator: validator.validator, numRows: layout.numRows, columns, rowGroups }
  } finally {
    await file.close()
  }
}

/** An entry of the old index, its bitsets copied into the new one. */
async function copyEntry(previous, old, regions) {
  const rowGroups = []
  for (const g of old.rowGroups) {
    const chunkEntries = {}
    for (const [name, c] of Object.entries(g.chunks)) {
      if (!Array.isArray(c)) {
        chunkEntries[name] = c
        continue
      }
      const entry = [-1, -1, ...c.slice(2)]
      await regions.add(await previous.readBitset(c[0], c[1]), entry, name, old.columns[name])
      chunkEntries[name] = entry
    }
    rowGroups.push({ numRows: g.numRows, chunks: chunkEntries })
  }
  return { ...old, rowGroups }
}
