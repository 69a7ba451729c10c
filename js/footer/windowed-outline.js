// Decodes a footer too big to copy into wasm memory at once (js/footer/footer.js readFooter, loaded only
// for one): the outline pass in parts (src/file_metadata.h DecodeFooterPass) over a window of its
// bytes at a time — the fields before the row groups, as many row groups as a window holds, then the
// fields after them — each window's records copied out before the next. The wasm memory it takes is a few
// MiB whatever the footer's size, where the whole pass takes the footer's bytes and its records, every
// page of which a fresh process must fault in first (for 10,000 × 50 chunks: 110 MiB, which also stay
// with the page, as wasm memory never shrinks). The result is the whole pass's layout, byte for byte;
// for any footer the parts do not take as they come (fields out of the writers' order, anything that
// does not decode) it returns undefined, and the caller decodes the footer whole, which decides it.
// It imports nothing: js/footer/footer.js hands it what it shares with the whole decode (`pieces`), so
// that none of those modules is split out of the bundle every page downloads into a chunk of its own.

// Footer bytes in wasm memory at a time; widened while a window holds no whole row group (or the head).
const WINDOW_BYTES = 1 << 21
// Bytes of records (row groups, their chunks and spans) one call writes before they are copied out.
const RECORD_BYTES = 1 << 21
// The largest block the wasm memory pool gives (src/scratch_pool.h ScratchPool::kMaxBlockBytes).
const MAX_BLOCK_BYTES = (128 << 20) + (1 << 20)

/**
 * @param {Uint8Array} metadata the footer (FileMetaData) bytes
 * @param {string} where the file, for errors
 * @param {typeof import('./footer.js').outlinePieces} pieces
 * @param {{ windowBytes?: number, recordBytes?: number }} [sizes] the window's first size and the records'
 *   (tests make them small, so that small footers take many windows)
 * @returns {import('./footer.js').FileLayout | undefined} undefined: decode the footer whole
 */
export function decodeWindowedOutline(metadata, where, pieces,
  { windowBytes = WINDOW_BYTES, recordBytes: windowRecordBytes = RECORD_BYTES } = {}) {
  const [getCore, FileSummary, FooterPass, NativeStatus, RowGroupRecord, ChunkRecord, ChunkSpan, SchemaRecord, acquireFor, leafColumns,
    rowGroupRowsOf, outlineLayout] = pieces
  const core = getCore()
  const [CHUNK_WORDS, ROW_GROUP_WORDS, SCHEMA_WORDS, SPAN_WORDS] =
    [ChunkRecord.words(8), RowGroupRecord.words(8), SchemaRecord.words(4), ChunkSpan.words(4)]
  const pass = FooterPass.values
  const size = metadata.length
  const summaryBytes = (FileSummary.bytes + 15) & ~15
  let window = 0
  let records = 0
  // The window's block: the FileSummary, then up to windowBytes of the footer from `at` (the copy's length).
  const copyWindow = (/** @type {number} */ at, atLeast = 0) => {
    if (atLeast > windowBytes || !window) {
      windowBytes = Math.max(windowBytes, atLeast)
      if (window) core.release(window)
      window = 0
      window = acquireFor(core, summaryBytes + windowBytes, 'window', where)
    }
    const bytes = metadata.subarray(at, Math.min(size, at + windowBytes))
    core.u8.set(bytes, window + summaryBytes)
    return bytes.length
  }
  // One pass (`which`) over the window's `length` bytes, footer offset `at`, into the record blocks given
  // (0: none) with their capacities; the FileSummary, or undefined when the part does not decode.
  /**
   * @param {number} which @param {number} at @param {number} length
   * @param {number} schema @param {number} rowGroups @param {number} chunks @param {number} spans @param {number} orders
   * @param {[number, number, number, number]} capacities schema, row groups, chunks, column orders
   */
  const decodePart = (which, at, length, schema, rowGroups, chunks, spans, orders,
    [schemaCapacity, rowGroupCapacity, chunkCapacity, orderCapacity]) => {
    const status = core.decodeFooter(which, window + summaryBytes, length, at, window, schema, rowGroups, chunks, spans, orders,
      schemaCapacity, rowGroupCapacity, chunkCapacity, orderCapacity)
    return status === NativeStatus.OK ? FileSummary.read(core, window) : undefined
  }
  try {
    // The counts, then the head: widened until the window holds the schema and the row groups' list header.
    let length, counted, head
    let wider = 0
    for (;;) {
      length = copyWindow(0, wider)
      if (core.decodeFooter(pass.FOOTER_COUNTS, window + summaryBytes, length, 0, window) === NativeStatus.OK) {
        counted = FileSummary.read(core, window)
        records = acquireFor(core, counted.schemaCount * SCHEMA_WORDS * 4 + 16, 'schema', where)
        head = decodePart(pass.FOOTER_HEAD, 0, length, records, 0, 0, 0, 0, [counted.schemaCount, 0, 0, 0])
        if (head) break
        core.release(records)
        records = 0
      }
      if (length === size) return undefined
      wider = windowBytes * 2
    }
    const schemaWords = core.i32.slice(records >> 2, (records >> 2) + head.schemaCount * SCHEMA_WORDS)
    core.release(records)
    records = 0
    const columns = leafColumns(schemaWords, head.schemaCount, metadata, where)
    const leaves = columns.length
    const rowGroupCount = head.rowGroupCount
    const chunkCount = rowGroupCount * leaves
    // (More chunks than a footer this size can hold, MIN_CHUNK_BYTES each in js/footer/outline-layout.js.)
    if (chunkCount > size / 8 || head.schemaCount !== counted.schemaCount) return undefined
    // The records are held in JS here, not in the pool. This decode takes no footer the whole one refuses,
    // so they must still fit where the whole decode puts them: one pool block (at most MAX_BLOCK_BYTES), within
    // the pool's budget (configure({ maxPoolBytes })), which bound what a hostile footer can make a decode
    // take. Over either, the whole decode says so (LIMIT_EXCEEDED).
    const recordBytes = chunkCount * (ChunkRecord.bytes + ChunkSpan.bytes) + rowGroupCount * RowGroupRecord.bytes +
      head.schemaCount * (SchemaRecord.bytes + 4)
    const { heldBytes, maxHeldBytes } = core.native.poolStats()
    if (recordBytes > MAX_BLOCK_BYTES || recordBytes > maxHeldBytes - heldBytes) return undefined

    const rowGroupWords = new Float64Array(rowGroupCount * ROW_GROUP_WORDS)
    const chunks = new Float64Array(chunkCount * CHUNK_WORDS)
    const chunkSpans = new Int32Array(chunkCount * SPAN_WORDS)
    const perWindow = Math.max(1, Math.floor(windowRecordBytes / (RowGroupRecord.bytes + leaves * (ChunkRecord.bytes + ChunkSpan.bytes))))
    const groupBytes = perWindow * RowGroupRecord.bytes
    const chunkBytes = perWindow * leaves * ChunkRecord.bytes
    records = acquireFor(core, Math.max(groupBytes + chunkBytes + perWindow * leaves * ChunkSpan.bytes, head.schemaCount * 4) + 16,
      'records', where)
    const [groupsAt, chunksAt, spansAt] = [records, records + groupBytes, records + groupBytes + chunkBytes]
    let at = head.errorOffset
    wider = 0
    for (let done = 0; done < rowGroupCount;) {
      length = copyWindow(at, wider)
      wider = 0
      const capacity = Math.min(perWindow, rowGroupCount - done)
      const got = decodePart(pass.FOOTER_ROW_GROUPS, at, length, 0, groupsAt, chunksAt, spansAt, 0, [0, capacity, capacity * leaves, 0])
      if (!got) return undefined
      if (got.rowGroupCount === 0) {
        // Not one whole row group in the window: a wider one, unless it already reached the end.
        if (at + length === size) return undefined
        wider = windowBytes * 2
        continue
      }
      if (got.chunkCount !== got.rowGroupCount * leaves) return undefined
      rowGroupWords.set(core.f64.subarray(groupsAt >> 3, (groupsAt >> 3) + got.rowGroupCount * ROW_GROUP_WORDS), done * ROW_GROUP_WORDS)
      chunks.set(core.f64.subarray(chunksAt >> 3, (chunksAt >> 3) + got.chunkCount * CHUNK_WORDS), done * leaves * CHUNK_WORDS)
      chunkSpans.set(core.i32.subarray(spansAt >> 2, (spansAt >> 2) + got.chunkCount * SPAN_WORDS), done * leaves * SPAN_WORDS)
      done += got.rowGroupCount
      at = got.errorOffset
    }
    length = copyWindow(at, size - at)
    const tail = decodePart(pass.FOOTER_TAIL, at, length, 0, 0, 0, 0, records, [0, 0, 0, head.schemaCount])
    if (!tail) return undefined
    const rowGroupRows = rowGroupRowsOf(rowGroupWords, columns, where)
    const orderCount = Math.min(tail.columnOrderCount, head.schemaCount)
    const columnOrders = tail.columnOrderCount >= 0 ? core.i32.slice(records >> 2, (records >> 2) + orderCount) : null
    return outlineLayout(metadata, { ...tail, version: head.version, numRows: head.numRows }, columns, rowGroupRows, chunks, chunkSpans,
      columnOrders)
  } catch {
    return undefined // the whole pass decides, and names what is wrong
  } finally {
    if (records) core.release(records)
    if (window) core.release(window)
  }
}
