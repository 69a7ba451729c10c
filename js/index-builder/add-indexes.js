// addIndexes(): a copy of a Parquet file with bloom filters (parquet-format BloomFilter.md) for the
// columns asked for, without touching its data. Every byte before the old footer — pages, old filters,
// old page indexes — is streamed across unchanged in bounded reads, so every offset the old footer
// recorded stays valid; each new filter (BloomFilterHeader + bitset, built by the wasm core sized for
// the target false-positive rate) follows, then the old FileMetaData with only the ColumnMetaData of
// the chunks that got a filter re-serialized (js/index-builder/footer-splice.js) and one key-value entry
// saying what was added by which version. A chunk whose pages cannot be read fully gets no filter: an
// incomplete filter would answer absent for values that are there. An encrypted file is refused unless its
// keys are given; with them, filters of encrypted chunks are written as encrypted modules and the footer
// sealed again (js/index-builder/encrypted-output.js, loaded only then).
import { openParquet } from '../parquet-file.js'
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { allChunks, ChunkFlag, chunk as chunkView } from '../footer/records.js'
import { buildChunkFilter, DEFAULT_WINDOW_BYTES, FILTERABLE_TYPES } from './chunk-filter.js'
import { locateFilter } from '../indexes/bloom-reads.js'
import { fileGeometry } from '../footer/file-geometry.js'
import { writerRulesFor } from '../indexes/writer-rules.js'
import { Malformed } from '../format/thrift-compact.js'
import { Unanswerable } from '../verdicts.js'
import { mapFooter, spliceFooter } from './footer-splice.js'
import { openSink } from './sink.js'
import { PageScratch } from '../pages/page-scratch.js'
import { PACKAGE_VERSION } from './version.js'
import { checkFpp } from '../wasm/sbbf.js'

/** The key-value metadata key recording what addIndexes added. */
export const INDEXES_KEY = 'parquet-bloom.indexes'
const MAGIC = Uint8Array.of(0x50, 0x41, 0x52, 0x31) // PAR1
const TYPE_ORDER = 1 // ColumnOrder: the order page bounds are defined in


/**
 * @typedef {import('../parquet-file.js').ParquetFile} ParquetFile
 * @typedef {import('../footer/footer.js').LeafColumn} LeafColumn
 * @typedef {import('./sink.js').Sink} Sink
 * @typedef {typeof import('./encrypted-output.js')} Sealing
 * @typedef {import('./index.js').AddIndexesResult} AddIndexesResult
 * @typedef {{ fpp: number, ndv: 'auto' | number, replace: boolean, windowBytes: number, pageIndex: boolean,
 *   signal: AbortSignal | undefined }} Settings
 * @typedef {Pick<AddIndexesResult, 'added' | 'pageIndexes' | 'skipped'>} Outcome what was added and skipped, chunk by chunk
 * @typedef {{ bytes: Uint8Array, map: import('./footer-splice.js').FooterMap, sealing: Sealing | undefined }} SourceFooter
 *   the footer as the file stores it, mapped; sealing: encrypted-output.js, loaded for an encrypted file
 * @typedef {{ where: { rowGroup: number, column: string }, wantFilter: boolean, place: import('./footer-splice.js').ChunkPlace,
 *   keys: import('../crypto/encrypted-footer.js').ChunkKeys | undefined, chunkName: string, pageIndex: false | 'offset' | 'both',
 *   pages: ((decoding: any) => import('./chunk-scan.js').PageLayout) | undefined }} ChunkPlan
 *   what one chunk gets: a filter (wantFilter) and which page indexes; keys: an encrypted chunk's
 */

/**
 * Writes `source` with bloom filters for `options.columns` to `sink`.
 * @param {string | URL | Blob | ArrayBuffer | ArrayBufferView | { byteLength: number, slice: Function }} source anything openParquet takes
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink a path, a stream, or null for a Blob (result.blob)
 * @param {import('./index.js').AddIndexesOptions} options as js/index-builder/index.d.ts declares them
 * @returns {Promise<AddIndexesResult>}
 */
export async function addIndexes(source, sink, options) {
  const settings = checkedSettings(options)
  const file = await openSource(source, settings.signal, options.decryption)
  /** @type {Sink | undefined} */
  let out
  try {
    const footer = await readSourceFooter(file)
    const columns = indexedColumns(file, options.columns)
    const geometry = fileGeometry(file.layout, file.fileSize, file.metadataOffset)
    out = await openSink(sink, { copyOf: localPath(source) })
    const chunkWindow = await copyData(file, out, settings)
    const { outcome, edits } = await writeChunkIndexes(file, out, { footer, columns, geometry, settings, chunkWindow })
    await writeFooter(file, out, footer, edits, indexesRecord(columns, settings, outcome))
    const bytesWritten = out.written
    const blob = await out.close()
    out = undefined
    /** @type {AddIndexesResult} */
    const result = { bytesRead: file.stats.bytesFetched, bytesWritten, ...outcome }
    if (blob) result.blob = blob
    return result
  } catch (error) {
    await out?.abort(error)
    throw error
  } finally {
    await file.close()
  }
}

/**
 * The source's path when it is a local file given by path.
 * @param {Parameters<typeof addIndexes>[0]} source
 */
function localPath(source) {
  return typeof source === 'string' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? source : undefined
}

/**
 * The options with their defaults, checked: columns to index, the false-positive rate, ndv.
 * @param {import('./index.js').AddIndexesOptions} options
 * @returns {Settings}
 */
function checkedSettings(options) {
  const { fpp = 0.01, ndv = 'auto', replace = false, windowBytes = DEFAULT_WINDOW_BYTES, pageIndex = false, signal } = options ?? {}
  if (!Array.isArray(options?.columns) || options.columns.length === 0) {
    throw invalidArgument('addIndexes needs options.columns: the columns to give bloom filters')
  }
  checkFpp(fpp)
  if (ndv !== 'auto' && !(Number.isSafeInteger(ndv) && ndv > 0)) {
    throw invalidArgument(`ndv must be 'auto' or a positive integer, got ${ndv}`)
  }
  // The copy steps by it: 0 or a fraction would never reach the footer.
  if (!(Number.isSafeInteger(windowBytes) && windowBytes > 0)) {
    throw invalidArgument(`windowBytes must be a positive integer, got ${String(windowBytes)}`)
  }
  return { fpp, ndv, replace, windowBytes, pageIndex, signal }
}

/**
 * The source opened; an encrypted file without keys is refused as ENCRYPTED (nothing to add indexes with).
 * @param {Parameters<typeof addIndexes>[0]} source
 * @param {AbortSignal | undefined} signal
 * @param {import('../index.js').DecryptionOptions | undefined} decryption
 */
async function openSource(source, signal, decryption) {
  try {
    return await openParquet(source, { signal, decryption })
  } catch (error) {
    const failure = /** @type {ParquetBloomError} */ (error)
    if (failure?.code === ErrorCode.ENCRYPTION_KEY_REQUIRED && !decryption) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTED,
        `${failure.message.split(':')[0]}: the file is encrypted: pass its keys (decryption) to add indexes`,
        { cause: error, source: failure.source })
    }
    throw error
  }
}

/**
 * The footer to rewrite, mapped: an encrypted file's as it stores it, not as decrypted for probing. An encrypted
 * file loads the sealing module, and is refused when its filters cannot be sealed or its footer key is missing.
 * @param {ParquetFile} file
 * @returns {Promise<SourceFooter>}
 */
async function readSourceFooter(file) {
  const { layout } = file
  const name = file.name
  const bytes = layout.crypto?.footer.bytes ?? layout.footerBytes
  let map
  try {
    map = mapFooter(bytes)
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${name}: the footer cannot be rewritten: ${error.detail}`, { source: name })
  }
  let sealing
  if (map.encrypted || layoutEncrypted(layout)) {
    if (!layout.crypto) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTED,
        `${name}: the file is encrypted: pass its keys (decryption) to add indexes`, { source: name })
    }
    sealing = await import('./encrypted-output.js')
    const refusal = sealing.unsealableFile(layout.crypto, name)
    if (refusal) throw refusal
    if (!layout.crypto.footer.keys) throw sealing.footerKeyRequired(name)
  }
  return { bytes, map, sealing }
}

/**
 * The columns asked for, each of a type filters are built for, each once: a column named twice ('id' and ['id'])
 * had two filters written, the first left in the file unreferenced, and both reported as added.
 * @param {ParquetFile} file
 * @param {Array<string | string[]>} paths
 * @returns {LeafColumn[]}
 */
function indexedColumns(file, paths) {
  const columns = [...new Set(paths.map((path) => file.column(path)))]
  for (const column of columns) {
    if (!FILTERABLE_TYPES.has(column.physicalType)) {
      throw invalidArgument(`${file.name}: column ${column.name} is ${column.physicalType}; ` +
        `bloom filters are built for ${[...FILTERABLE_TYPES].join(', ')}`)
    }
  }
  return columns
}

/**
 * Copies everything before the old footer, as it is; the next window is read while one is written, into the
 * other of two buffers (a sink is done with the bytes when its write resolves), so streaming a file of any
 * size leaves no buffer per window behind for the collector: garbage that counts as memory. Returns the first
 * buffer, for the chunks' reads.
 * @param {ParquetFile} file
 * @param {Sink} out
 * @param {Settings} settings
 */
async function copyData(file, out, { windowBytes, signal }) {
  const { metadataOffset } = file
  const buffers = [0, 1].map(() => new Uint8Array(Math.min(windowBytes, metadataOffset)))
  let windows = 0
  /**
   * @param {number} offset
   * @param {number} length
   */
  const readWindow = (offset, length) => file.readRange(offset, length, { signal, into: buffers[windows++ % 2] })
  /** @type {Promise<Uint8Array> | undefined} */
  let next = readWindow(0, Math.min(windowBytes, metadataOffset))
  for (let at = 0; at < metadataOffset; at += windowBytes) {
    const bytes = await /** @type {Promise<Uint8Array>} */ (next) // the read of this window, started the turn before
    const following = at + windowBytes
    next = following < metadataOffset ? readWindow(following, Math.min(windowBytes, metadataOffset - following)) : undefined
    next?.catch(() => {}) // awaited on the next turn; a failure then is the one reported
    await out.write(bytes)
  }
  return buffers[0]
}

/**
 * Builds and writes each chunk's new filter and page indexes, row group by row group; returns what was added
 * and skipped, and the footer edits that point at what was written.
 * @param {ParquetFile} file
 * @param {Sink} out
 * @param {{ footer: SourceFooter, columns: LeafColumn[], geometry: ReturnType<typeof fileGeometry>, settings: Settings,
 *   chunkWindow: Uint8Array }} job chunkWindow: copyData's buffer
 * @returns {Promise<{ outcome: Outcome, edits: Map<number, import('./footer-splice.js').ChunkEdit> }>}
 */
async function writeChunkIndexes(file, out, { footer, columns, geometry, settings, chunkWindow }) {
  const { layout, metadataOffset } = file
  const { fpp, ndv, windowBytes, signal } = settings
  // The copy is written: its first buffer now takes each chunk's first window (the whole chunk, mostly),
  // reused chunk after chunk, since nothing a chunk's scan leaves outlives it. Later windows of a chunk
  // are its own (its dictionary's values may be views into the first). Chunks are read only from the
  // data, which lies before the footer, so a window never needs more than the copy's buffer holds.
  // Pages are decoded into buffers shared by every chunk (js/pages/page-scratch.js), not new ones per page.
  const scratch = new PageScratch()
  const readChunk = () => {
    let first = true
    return (/** @type {number} */ offset, /** @type {number} */ length) => {
      const into = first ? chunkWindow : undefined
      first = false
      return file.readRange(offset, length, { signal, into })
    }
  }
  /** @type {Outcome} */
  const outcome = { added: [], pageIndexes: [], skipped: [] }
  /** @type {Map<number, import('./footer-splice.js').ChunkEdit>} */
  const edits = new Map()
  const numColumns = layout.columns.length
  for (let g = 0; g < layout.rowGroupRows.length; g++) {
    for (const column of columns) {
      const plan = planChunk(file, footer, geometry, settings, g, column, outcome.skipped)
      if (!plan) continue
      const built = await buildChunkFilter({ layout, metadataOffset, column, rowGroup: g, read: readChunk(), fpp, ndv, windowBytes,
        pageIndex: plan.pageIndex, pages: plan.pages, scratch })
      if ('problem' in built) {
        outcome.skipped.push({ ...plan.where, reason: 'unreadable-pages', detail: built.problem })
        continue
      }
      const edit = await writeChunk(out, footer, plan, built, outcome)
      if (Object.keys(edit).length) edits.set(g * numColumns + column.index, edit)
    }
  }
  return { outcome, edits }
}

/**
 * What one chunk gets — a filter unless it has a usable one (or `replace`), page indexes it lacks (with
 * `pageIndex`) — or undefined when nothing, or nothing can be added (each reason in `skipped`).
 * @param {ParquetFile} file
 * @param {SourceFooter} footer
 * @param {ReturnType<typeof fileGeometry>} geometry
 * @param {Settings} settings
 * @param {number} g the row group
 * @param {LeafColumn} column
 * @param {Outcome['skipped']} skipped
 * @returns {ChunkPlan | undefined}
 */
function planChunk(file, { map, sealing }, geometry, { replace, pageIndex }, g, column, skipped) {
  const { layout } = file
  const where = { rowGroup: g, column: column.name }
  const wantFilter = replace || !usableFilter(geometry, g, column)
  if (!wantFilter) {
    skipped.push({ ...where, reason: 'has-filter', detail: 'the chunk has a usable bloom filter (replace: true builds a new one)' })
  }
  const view = chunkView(layout, g, column.index)
  const crypto = view.crypto
  const wantOffsetIndex = pageIndex && !(view.offsetIndexOffset >= 4)
  // Page bounds are defined only in TYPE_ORDER (PageIndex.md); a chunk keeps a ColumnIndex it has.
  const wantColumnIndex = wantOffsetIndex && !(view.columnIndexOffset >= 4) && layout.columnOrders?.[column.index] === TYPE_ORDER
  if (!wantFilter && !wantOffsetIndex) return undefined
  const place = map.rowGroups[g]?.chunks[column.index]
  if (!place?.meta && !place?.struct.fields.some((f) => f.id === 9)) {
    skipped.push({ ...where, reason: 'no-column-metadata', detail: 'the column chunk has no ColumnMetaData to record a filter in' })
    return undefined
  }
  // Its pages lie in the file file_path names, at the offsets recorded: this file's bytes there are other data.
  if (view.flags & ChunkFlag.EXTERNAL_FILE) {
    skipped.push({ ...where, reason: 'external-file',
      detail: 'the column chunk lives in another file (file_path): its pages are not in this one' })
    return undefined
  }
  // An encrypted chunk's file is encrypted: readSourceFooter loaded the sealing module.
  const seal = /** @type {Sealing} */ (sealing)
  const problem = crypto && seal.encryptedChunkProblem(crypto)
  if (problem) {
    skipped.push({ ...where, ...problem })
    return undefined
  }
  // Without a problem, an encrypted chunk has its keys.
  const keys = /** @type {import('../crypto/encrypted-footer.js').ChunkKeys | undefined} */ (crypto)
  const chunkName = `${file.name}: row group ${g}, column ${column.name}`
  /** @type {ChunkPlan['pages']} */
  const pages = keys
    ? (decoding) => seal.encryptedPages(keys, decoding, { dictionaryOffset: view.dictionaryPageOffset, where: chunkName })
    : undefined
  return { where, wantFilter, place, keys, chunkName, pageIndex: wantColumnIndex ? 'both' : wantOffsetIndex ? 'offset' : false, pages }
}

/**
 * Writes one chunk's new filter (sealed for an encrypted chunk, its ColumnMetaData module sealed again to
 * point at it) and page indexes after what the sink holds; returns the footer edit that records them.
 * @param {Sink} out
 * @param {SourceFooter} footer
 * @param {ChunkPlan} plan
 * @param {import('./chunk-filter.js').ChunkFilter} built
 * @param {Outcome} outcome
 * @returns {Promise<import('./footer-splice.js').ChunkEdit>}
 */
async function writeChunk(out, { bytes: footerBytes, sealing }, plan, built, { added, pageIndexes, skipped }) {
  const { where, keys: crypto, place, chunkName } = plan
  const seal = /** @type {Sealing} */ (sealing) // used for an encrypted chunk only, whose file is being sealed
  /** @type {import('./footer-splice.js').ChunkEdit} */
  const edit = {}
  if (plan.wantFilter) {
    const offset = out.written // the sink's position: the old prefix, then what was added so far
    const bytes = crypto ? await seal.sealFilter(crypto, built.bytes, built.headerLength) : built.bytes
    await out.write(bytes)
    edit.bloom = { offset, length: bytes.length }
    if (crypto) {
      const sealed = await seal.sealColumnMetaData(footerBytes, place, crypto, edit.bloom, chunkName)
      if (sealed) edit.encryptedMetaData = sealed
    }
    added.push({ ...where, offset, length: bytes.length, ndv: built.ndv, exact: built.exact, numBytes: built.numBytes,
      ...(crypto ? { encrypted: /** @type {const} */ (true) } : {}) })
  }
  const pages = built.pageIndex
  if (pages?.offsetIndex) {
    for (const kind of /** @type {const} */ (['columnIndex', 'offsetIndex'])) {
      const index = pages[kind]
      if (!index) continue
      // An encrypted chunk's page indexes are modules of their own (types 6 and 7), under its key.
      const bytes = crypto ? await seal.sealPageIndex(crypto, kind, index) : index
      edit[kind] = { offset: out.written, length: bytes.length }
      await out.write(bytes)
    }
    // The OffsetIndex is written whenever a page index is (above).
    pageIndexes.push({ ...where, offsetIndex: /** @type {{ offset: number, length: number }} */ (edit.offsetIndex),
      columnIndex: edit.columnIndex, ...(crypto ? { encrypted: /** @type {const} */ (true) } : {}) })
  }
  if (pages?.problem) skipped.push({ ...where, reason: 'no-page-index', detail: pages.problem })
  return edit
}

/**
 * The key-value entry saying what this run added, by which version.
 * @param {LeafColumn[]} columns
 * @param {Settings} settings
 * @param {Outcome} outcome
 */
function indexesRecord(columns, { fpp, ndv, pageIndex }, { added, pageIndexes }) {
  /**
   * @type {{ writer: string, bloomFilters: { columns: string[], fpp: number, ndv: 'auto' | number, chunks: number },
   *   pageIndexes?: { chunks: number, columnIndexes: number } }}
   */
  const record = {
    writer: `parquet-bloom ${PACKAGE_VERSION}`,
    bloomFilters: { columns: columns.map((c) => c.name), fpp, ndv, chunks: added.length },
  }
  if (pageIndex) record.pageIndexes = { chunks: pageIndexes.length, columnIndexes: pageIndexes.filter((p) => p.columnIndex).length }
  return record
}

/**
 * The new footer after the filters: the old FileMetaData with the edits and the record, its length and
 * magic — or, for an encrypted file, sealed again as its mode says.
 * @param {ParquetFile} file
 * @param {Sink} out
 * @param {SourceFooter} source
 * @param {Map<number, import('./footer-splice.js').ChunkEdit>} edits
 * @param {object} record
 */
async function writeFooter(file, out, { bytes, map, sealing }, edits, record) {
  const { layout } = file
  const footer = spliceFooter(bytes, map, edits, { key: INDEXES_KEY, value: JSON.stringify(record) }, layout.columns.length)
  if (sealing) {
    // readSourceFooter loads the sealing module only for a file with its crypto.
    const crypto = /** @type {import('../crypto/encrypted-footer.js').FileCrypto} */ (layout.crypto)
    await out.write(await sealing.sealFooter(crypto, footer, file.name))
  } else {
    const length = new Uint8Array(4)
    new DataView(length.buffer).setUint32(0, footer.length, true)
    await out.write(footer)
    await out.write(length)
    await out.write(MAGIC)
  }
}


/**
 * Whether any column chunk of the file is encrypted (their pages are ciphertext).
 * @param {import('../footer/footer.js').FileLayout} layout
 */
export function layoutEncrypted(layout) {
  if (layout.encryptedColumns) return true
  for (const c of allChunks(layout)) {
    if (c.encrypted) return true
  }
  return false
}

/**
 * Whether the chunk's filter is one a probe would use: placed consistently, from a writer not known to write it wrongly.
 * @param {ReturnType<typeof fileGeometry>} geometry
 * @param {number} rowGroup
 * @param {LeafColumn} column
 */
function usableFilter(geometry, rowGroup, column) {
  const { layout } = geometry
  if (writerRulesFor(layout.createdBy, 'bloom-filter', column, chunkView(layout, rowGroup, column.index)).length) return false
  return !(locateFilter(geometry, rowGroup, column.index) instanceof Unanswerable)
}
