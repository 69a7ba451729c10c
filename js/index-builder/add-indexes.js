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
import { allChunks, chunk as chunkView } from '../footer/records.js'
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
 * Writes `source` with bloom filters for `options.columns` to `sink`.
 * @param {string | URL | Blob | ArrayBuffer | ArrayBufferView | { byteLength: number, slice: Function }} source anything openParquet takes
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink a path, a stream, or null for a Blob (result.blob)
 * @param {import('./index.js').AddIndexesOptions} options as js/index-builder/index.d.ts declares them
 * @returns {Promise<import('./index.js').AddIndexesResult>}
 */
export async function addIndexes(source, sink, options) {
  const { fpp = 0.01, ndv = 'auto', replace = false, windowBytes = DEFAULT_WINDOW_BYTES, pageIndex = false, signal } = options ?? {}
  if (!Array.isArray(options?.columns) || options.columns.length === 0) {
    throw invalidArgument('addIndexes needs options.columns: the columns to give bloom filters')
  }
  checkFpp(fpp)
  if (ndv !== 'auto' && !(Number.isSafeInteger(ndv) && ndv > 0)) {
    throw invalidArgument(`ndv must be 'auto' or a positive integer, got ${ndv}`)
  }
  const { decryption } = options
  let file
  try {
    file = await openParquet(source, { signal, decryption })
  } catch (error) {
    if (error?.code === ErrorCode.ENCRYPTION_KEY_REQUIRED && !decryption) {
      throw new ParquetBloomError(ErrorCode.ENCRYPTED,
        `${error.message.split(':')[0]}: the file is encrypted: pass its keys (decryption) to add indexes`,
        { cause: error, source: error.source })
    }
    throw error
  }
  let out
  try {
    const { layout, metadataOffset } = file
    const name = file.name
    // An encrypted file's footer as it stores it, not as decrypted for probing: that is what is rewritten.
    const footerBytes = layout.crypto?.footer.bytes ?? layout.footerBytes
    let map
    try {
      map = mapFooter(footerBytes)
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
    const columns = options.columns.map((path) => file.column(path))
    for (const column of columns) {
      if (!FILTERABLE_TYPES.has(column.physicalType)) {
        throw invalidArgument(`${name}: column ${column.name} is ${column.physicalType}; ` +
          `bloom filters are built for ${[...FILTERABLE_TYPES].join(', ')}`)
      }
    }
    const geometry = fileGeometry(layout, file.fileSize, metadataOffset)
    out = await openSink(sink)
    // Everything before the old footer, as it is; the next window is read while one is written, into the
    // other of two buffers (a sink is done with the bytes when its write resolves), so streaming a file of
    // any size leaves no buffer per window behind for the collector: garbage that counts as memory.
    const buffers = [0, 1].map(() => new Uint8Array(Math.min(windowBytes, metadataOffset)))
    let windows = 0
    const readWindow = (offset, length) => file.readRange(offset, length, { signal, into: buffers[windows++ % 2] })
    let next = readWindow(0, Math.min(windowBytes, metadataOffset))
    for (let at = 0; at < metadataOffset; at += windowBytes) {
      const bytes = await next
      const following = at + windowBytes
      next = following < metadataOffset ? readWindow(following, Math.min(windowBytes, metadataOffset - following)) : undefined
      next?.catch(() => {}) // awaited on the next turn; a failure then is the one reported
      await out.write(bytes)
    }
    // The copy is written: its first buffer now takes each chunk's first window (the whole chunk, mostly),
    // reused chunk after chunk, since nothing a chunk's scan leaves outlives it. Later windows of a chunk
    // are its own (its dictionary's values may be views into the first). Chunks are read only from the
    // data, which lies before the footer, so a window never needs more than the copy's buffer holds.
    const chunkWindow = buffers[0]
    buffers.length = 0
    // Pages are decoded into buffers shared by every chunk (js/pages/page-scratch.js), not new ones per page.
    const scratch = new PageScratch()
    const readChunk = () => {
      let first = true
      return (offset, length) => {
        const into = first ? chunkWindow : undefined
        first = false
        return file.readRange(offset, length, { signal, into })
      }
    }
    const added = []
    const pageIndexes = []
    const skipped = []
    const edits = new Map()
    const numColumns = layout.columns.length
    for (let g = 0; g < layout.rowGroupRows.length; g++) {
      for (const column of columns) {
        const chunk = g * numColumns + column.index
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
        if (!wantFilter && !wantOffsetIndex) continue
        const place = map.rowGroups[g]?.chunks[column.index]
        if (!place?.meta && !place?.struct.fields.some((f) => f.id === 9)) {
          skipped.push({ ...where, reason: 'no-column-metadata', detail: 'the column chunk has no ColumnMetaData to record a filter in' })
          continue
        }
        const problem = crypto && sealing.encryptedChunkProblem(crypto)
        if (problem) {
          skipped.push({ ...where, ...problem })
          continue
        }
        const chunkName = `${name}: row group ${g}, column ${column.name}`
        const pageLayout = crypto
          ? (decoding) => sealing.encryptedPages(crypto, decoding, { dictionaryOffset: view.dictionaryPageOffset, where: chunkName })
          : undefined
        const built = await buildChunkFilter({ layout, metadataOffset, column, rowGroup: g, read: readChunk(), fpp, ndv, windowBytes,
          pageIndex: wantColumnIndex ? 'both' : wantOffsetIndex ? 'offset' : false, pages: pageLayout, scratch })
        if ('problem' in built) {
          skipped.push({ ...where, reason: 'unreadable-pages', detail: built.problem })
          continue
        }
        const edit = {}
        if (wantFilter) {
          const offset = out.written // the sink's position: the old prefix, then what was added so far
          const bytes = crypto ? await sealing.sealFilter(crypto, built.bytes, built.headerLength) : built.bytes
          await out.write(bytes)
          edit.bloom = { offset, length: bytes.length }
          if (crypto) {
            const sealed = await sealing.sealColumnMetaData(footerBytes, place, crypto, edit.bloom, chunkName)
            if (sealed) edit.encryptedMetaData = sealed
          }
          added.push({ ...where, offset, length: bytes.length, ndv: built.ndv, exact: built.exact, numBytes: built.numBytes,
            ...(crypto ? { encrypted: true } : {}) })
        }
        const pages = built.pageIndex
        if (pages?.offsetIndex) {
          for (const kind of /** @type {const} */ (['columnIndex', 'offsetIndex'])) {
            if (!pages[kind]) continue
            // An encrypted chunk's page indexes are modules of their own (types 6 and 7), under its key.
            const bytes = crypto ? await sealing.sealPageIndex(crypto, kind, pages[kind]) : pages[kind]
            edit[kind] = { offset: out.written, length: bytes.length }
            await out.write(bytes)
          }
          pageIndexes.push({ ...where, offsetIndex: edit.offsetIndex, columnIndex: edit.columnIndex,
            ...(crypto ? { encrypted: true } : {}) })
        }
        if (pages?.problem) skipped.push({ ...where, reason: 'no-page-index', detail: pages.problem })
        if (Object.keys(edit).length) edits.set(chunk, edit)
      }
    }
    const record = {
      writer: `parquet-bloom ${PACKAGE_VERSION}`,
      bloomFilters: { columns: columns.map((c) => c.name), fpp, ndv, chunks: added.length },
    }
    if (pageIndex) record.pageIndexes = { chunks: pageIndexes.length, columnIndexes: pageIndexes.filter((p) => p.columnIndex).length }
    const footer = spliceFooter(footerBytes, map, edits, { key: INDEXES_KEY, value: JSON.stringify(record) }, numColumns)
    if (sealing) {
      await out.write(await sealing.sealFooter(layout.crypto, footer, name))
    } else {
      const length = new Uint8Array(4)
      new DataView(length.buffer).setUint32(0, footer.length, true)
      await out.write(footer)
      await out.write(length)
      await out.write(MAGIC)
    }
    const bytesWritten = out.written
    const blob = await out.close()
    out = undefined
    const result = { bytesRead: file.stats.bytesFetched, bytesWritten, added, pageIndexes, skipped }
    if (blob) result.blob = blob
    return result
  } catch (error) {
    await out?.abort(error)
    throw error
  } finally {
    await file.close()
  }
}


/** Whether any column chunk of the file is encrypted (their pages are ciphertext). */
export function layoutEncrypted(layout) {
  if (layout.encryptedColumns) return true
  for (const c of allChunks(layout)) {
    if (c.encrypted) return true
  }
  return false
}

/** Whether the chunk's filter is one a probe would use: placed consistently, from a writer not known to write it wrongly. */
function usableFilter(geometry, rowGroup, column) {
  if (writerRulesFor(geometry.layout.createdBy, 'bloom-filter', column).length) return false
  return !(locateFilter(geometry, rowGroup, column.index) instanceof Unanswerable)
}
