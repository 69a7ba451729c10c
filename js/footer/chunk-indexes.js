// Decodes the ChunkIndexRecords (parquet.thrift ColumnChunk / ColumnMetaData / Statistics: the statistics,
// encodings, codec and page index lengths) of a footer's chunks one column at a time, from the ColumnChunk
// spans the outline pass recorded (js/footer/footer.js), into a slot of the layout's `indexes`, which this
// module keeps (js/footer/records.js reads the records by name): a probe of one column of a footer with
// thousands of row groups decodes, and holds, that column's chunks only. Idempotent per column.
import { ChunkIndexRecord, ChunkRecord, ChunkSpan } from '../wasm/abi.js'
import { getCore } from '../wasm/core.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { NativeStatus } from '../wasm/abi.js'

// Chunks per wasm call: bounds the block the chunk bytes and records are decoded in (~10 MiB for chunks
// of ~100 bytes), whatever the footer's size.
const CHUNKS_PER_CALL = 32768

/** How many chunks' indexes have been decoded in this process, for tests that prove what a probe decodes. */
export const chunkIndexDecodes = { chunks: 0 }

// Which file a layout describes, for the errors of a chunk found malformed only when first read. Kept
// beside the layout, not in it: a footer cache stores the layout, and must never hold a URL.
/** @type {WeakMap<import('./footer.js').FileLayout, { source: string, metadataOffset: number }>} */
const origins = new WeakMap()

/**
 * Names the file `layout` is the footer of, and where its footer starts in it.
 * @param {import('./footer.js').FileLayout} layout @param {string} source @param {number} metadataOffset
 */
export function setLayoutOrigin(layout, source, metadataOffset) {
  const known = origins.get(layout)
  // A layout just read already names its file (ParquetFile names it again, for a cached layout's sake).
  if (known?.source !== source || known.metadataOffset !== metadataOffset) origins.set(layout, { source, metadataOffset })
}

/**
 * Makes `layout.indexes` hold column `column`'s records for every row group; a no-op once it does.
 * Call it before reading a chunk's index record. MALFORMED_FOOTER when one of its chunks does not decode.
 * @param {import('./footer.js').FileLayout} layout
 * @param {number} column leaf index
 */
export function ensureColumnIndexes(layout, column) {
  if (layout.indexSlots[column] >= 0) return
  decodeColumns(layout, [column])
}

/**
 * Decodes the records of `columns` (leaf indices) not decoded yet: their chunks' bytes, gathered from
 * footerBytes, go to wasm in batches, each decoded there as a whole ColumnChunk.
 * @param {import('./footer.js').FileLayout} layout
 * @param {number[]} columns
 */
export function decodeChunkIndexes(layout, columns) {
  const slots = layout.indexSlots
  const todo = [...new Set(columns)].filter((c) => slots[c] < 0)
  if (todo.length > 0) decodeColumns(layout, todo)
}

/**
 * @param {import('./footer.js').FileLayout} layout
 * @param {number[]} todo distinct leaf indices, none decoded yet
 */
function decodeColumns(layout, todo) {
  const slots = layout.indexSlots
  const numColumns = layout.columns.length
  const rowGroups = layout.rowGroupRows.length
  const total = rowGroups * todo.length
  const firstSlot = reserveIndexSlots(layout, todo.length)
  const order = new Int32Array(Math.min(total, CHUNKS_PER_CALL)) // chunk index of each slice in the batch
  // Column by column, as the records lie in layout.indexes: slice n is row group n % rowGroups of
  // todo[n / rowGroups], whose records go to slot firstSlot + n / rowGroups, so the slices' records are
  // consecutive from the first slot's first record on (indexRecordAt).
  for (let first = 0; first < total; first += CHUNKS_PER_CALL) {
    const count = Math.min(CHUNKS_PER_CALL, total - first)
    let bytes = 0
    for (let k = 0; k < count; k++) {
      const n = first + k
      const chunk = (n % rowGroups) * numColumns + todo[Math.floor(n / rowGroups)]
      order[k] = chunk
      bytes += layout.chunkSpans[chunk * 2 + 1]
    }
    decodeBatch(layout, order, count, bytes, indexRecordAt(layout, firstSlot, 0) + first)
  }
  // Only now: a column whose chunks fail to decode stays undecoded (and fails again when next read).
  todo.forEach((c, i) => { slots[c] = firstSlot + i })
  chunkIndexDecodes.chunks += total
}

// Chunks' bytes up to this long are copied into wasm memory a byte at a time, rather than through a view of each.
const COPY_BY_BYTE = 512

/**
 * Decodes the batch's slices (order[k]: their chunk numbers) and copies their records, consecutive, to
 * layout.indexes from record `firstRecord` on.
 * @param {import('./footer.js').FileLayout} layout @param {Int32Array} order @param {number} count @param {number} bytes the slices' bytes
 * @param {number} firstRecord
 */
function decodeBatch(layout, order, count, bytes, firstRecord) {
  const core = getCore()
  const { chunkSpans, footerBytes } = layout
  const spanBytes = count * ChunkSpan.bytes
  const chunkBytes = count * ChunkRecord.bytes
  const indexBytes = count * ChunkIndexRecord.bytes
  const block = acquire(core, 16 + spanBytes + chunkBytes + indexBytes + bytes, layout)
  try {
    const failedPtr = block
    const spansPtr = block + 16
    const chunksPtr = spansPtr + spanBytes
    const indexesPtr = chunksPtr + chunkBytes
    const bytesPtr = indexesPtr + indexBytes
    // Views taken after acquire (which may grow memory) and used only until the decode call.
    const u8 = core.u8
    const i32 = core.i32
    let at = bytesPtr
    for (let k = 0; k < count; k++) {
      const offset = chunkSpans[order[k] * 2]
      const length = chunkSpans[order[k] * 2 + 1]
      i32[(spansPtr >> 2) + k * 2] = offset
      i32[(spansPtr >> 2) + k * 2 + 1] = length
      if (length <= COPY_BY_BYTE) {
        for (let b = 0; b < length; b++) u8[at + b] = footerBytes[offset + b]
      } else {
        u8.set(footerBytes.subarray(offset, offset + length), at)
      }
      at += length
    }
    const status = core.native.decodeColumnChunks(bytesPtr, bytes, spansPtr, count, chunksPtr, indexesPtr, failedPtr)
    if (status !== NativeStatus.OK) throw malformedChunk(layout, order[core.i32[failedPtr >> 2]] ?? order[0])
    // Every record's words, doubles included (copied as their bits).
    const words = ChunkIndexRecord.bytes >> 2
    const from = indexesPtr >> 2
    layout.indexes.i32.set(core.i32.subarray(from, from + count * words), firstRecord * words)
  } finally {
    core.release(block)
  }
}

/**
 * Which record of `layout.indexes` is row group `rowGroup`'s in slot `slot` (negative: none, the column is not decoded).
 * @param {import('./footer.js').FileLayout} layout @param {number} slot @param {number} rowGroup
 */
export function indexRecordAt(layout, slot, rowGroup) {
  return slot < 0 ? -1 : slot * layout.rowGroupRows.length + rowGroup
}

/**
 * Room in `layout.indexes` for `count` more columns' records; returns the first of their slots (the
 * caller assigns them in `layout.indexSlots` once their records are in). The buffer at least doubles
 * when it grows, so decoding the columns one by one copies the records a bounded number of times.
 * @param {import('./footer.js').FileLayout} layout @param {number} count
 */
export function reserveIndexSlots(layout, count) {
  const slots = layout.indexSlots
  let slotsUsed = 0
  for (let c = 0; c < slots.length; c++) slotsUsed = Math.max(slotsUsed, slots[c] + 1)
  const slotWords = layout.rowGroupRows.length * ChunkIndexRecord.words(4)
  const held = layout.indexes.i32
  const needed = (slotsUsed + count) * slotWords
  if (needed > held.length) {
    const capacity = Math.min(Math.max(needed, held.length * 2), layout.columns.length * slotWords)
    const buffer = new ArrayBuffer(capacity * 4)
    const i32 = new Int32Array(buffer)
    i32.set(held.subarray(0, slotsUsed * slotWords))
    layout.indexes = { f64: new Float64Array(buffer), i32 }
  }
  return slotsUsed
}

/** @param {import('../wasm/core.js').Core} core @param {number} bytes @param {import('./footer.js').FileLayout} layout */
function acquire(core, bytes, layout) {
  try {
    return core.acquire(bytes, 'the footer\'s column chunks')
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    const where = origins.get(layout)?.source ?? 'footer'
    throw new ParquetBloomError(error.code, `${where}: decoding the footer: ${error.message}`, { source: where, cause: error })
  }
}

/** @param {import('./footer.js').FileLayout} layout @param {number} chunk its row-group-major number */
function malformedChunk(layout, chunk) {
  const { source: where = 'footer', metadataOffset = 0 } = origins.get(layout) ?? {}
  const numColumns = layout.columns.length
  const rowGroup = Math.floor(chunk / numColumns)
  const column = layout.columns[chunk % numColumns]
  const offset = metadataOffset + layout.chunkSpans[chunk * 2]
  return new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
    `${where}: malformed footer: the ColumnChunk of row group ${rowGroup}, column ${column.name} does not decode ` +
    `(at byte ${offset} of the file)`,
    { source: where, offset, field: `row_groups[${rowGroup}].columns[${column.index}]` })
}
