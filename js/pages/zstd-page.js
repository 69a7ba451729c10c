// A zstd-compressed Parquet page (parquet.thrift CompressionCodec ZSTD; RFC 8878 frames) decoded into
// exactly the page header's size with fzstd's streaming decoder. Loaded with fzstd by js/pages/page-codecs.js
// the first time a zstd page is read, so a probe of other pages never downloads either.

import { Decompress } from 'fzstd'
import { concatBytes } from '../format/bytes.js'

/**
 * A zstd page decoded into exactly `length` bytes, or an Error saying why it cannot be. fzstd's one-call
 * decoder cannot say how much it wrote (and writers such as parquet-mr's zstd-jni and Trino's
 * aircompressor declare no content size to check it by), so its streaming decoder is used: it reports
 * each block it produces, and the bytes are counted: more than `length` stops it, fewer is refused.
 * Declared content sizes that do not add up to `length` are refused before anything is decoded.
 * @param {Uint8Array} input
 * @param {number} length
 */
export function decompressZstdPage(input, length) {
  const frames = zstdFrames(input)
  if (frames === null) throw new Error('the zstd frames do not parse')
  const contentSizes = frames.map((f) => f.contentSize)
  if (contentSizes.every((size) => size !== null)) {
    const declared = contentSizes.reduce((sum, size) => sum + size, 0)
    if (declared !== length) throw new Error(`the zstd frames hold ${declared} bytes, the page header says ${length}`)
  }
  // The decoder allocates a raw or RLE block's size as it stands (up to 2 MiB) before producing it.
  const largest = Math.max(0, ...frames.map((f) => f.largestStoredBlock))
  if (largest > length) throw new Error(`a zstd block of ${largest} bytes is larger than the page header's ${length}`)
  const out = new Uint8Array(length)
  let written = 0
  const stream = new Decompress((chunk) => {
    if (chunk.length > length - written) throw new Error(`the zstd frames hold more than the ${length} bytes the page header says`)
    out.set(chunk, written)
    written += chunk.length
  })
  stream.push(boundedWindows(input, frames, length), true)
  if (written !== length) throw new Error(`the zstd frames hold ${written} bytes, the page header says ${length}`)
  return out
}

/**
 * The frames with every window larger than `length` cut to `length`, skippable frames dropped. The
 * streaming decoder allocates each frame's Window_Size (zstd-jni declares 2 MiB and more for pages of a
 * few KiB; a hostile frame up to 2 GiB). A frame that produces at most `length` bytes — anything more is
 * refused — never refers further back than `length`, nor has a block larger than it, so it decodes the
 * same with a window of `length`: its header is rewritten as a single-segment one that says so.
 * @param {Uint8Array} input
 * @param {NonNullable<ReturnType<typeof zstdFrames>>} frames
 * @param {number} length
 */
function boundedWindows(input, frames, length) {
  const parts = frames.map((f) => {
    if (f.windowSize <= length) return input.subarray(f.start, f.end)
    const { dictionaryIdAt, dictionaryIdBytes } = f
    const header = new Uint8Array(5 + dictionaryIdBytes + 4)
    header.set(input.subarray(f.start, f.start + 4)) // magic number
    // Frame_Content_Size of 4 bytes, Single_Segment, and the frame's own checksum and dictionary id flags.
    header[4] = (2 << 6) | (1 << 5) | (input[f.start + 4] & 0b111)
    header.set(input.subarray(dictionaryIdAt, dictionaryIdAt + dictionaryIdBytes), 5)
    new DataView(header.buffer).setUint32(5 + dictionaryIdBytes, length, true)
    return [header, input.subarray(f.dataStart, f.end)]
  }).flat()
  return parts.length === 1 ? parts[0] : concatBytes(parts)
}

/**
 * The zstd frames of `input` (RFC 8878 §3.1.1), skippable frames left out: each frame's bytes [start,
 * end), where its Dictionary_ID field is and where its blocks start, its Frame_Content_Size (null when
 * absent), Window_Size (its content size for a single-segment frame) and the largest size of its raw and
 * RLE blocks (what they decode to). null when
 * the frames do not parse to the end of `input`.
 * @returns {{ start: number, end: number, dictionaryIdAt: number, dictionaryIdBytes: number, dataStart: number,
 *   contentSize: number | null, windowSize: number, largestStoredBlock: number }[] | null}
 * @param {Uint8Array} input
 */
function zstdFrames(input) {
  const frames = []
  let at = 0
  while (at < input.length) {
    if (input.length - at < 8) return null
    const magic = (input[at] | (input[at + 1] << 8) | (input[at + 2] << 16) | (input[at + 3] << 24)) >>> 0
    if ((magic & 0xfffffff0) === 0x184d2a50) { // skippable frame: 4-byte length follows
      const size = (input[at + 4] | (input[at + 5] << 8) | (input[at + 6] << 16) | (input[at + 7] << 24)) >>> 0
      at += 8 + size
      continue
    }
    if (magic !== 0xfd2fb528) return null
    const descriptor = input[at + 4]
    const singleSegment = (descriptor >> 5) & 1
    const sizeFlag = descriptor >> 6
    const dictionaryIdBytes = [0, 1, 2, 4][descriptor & 3]
    const sizeBytes = sizeFlag === 0 ? singleSegment : 1 << sizeFlag
    const sizeAt = at + 5 + (singleSegment ? 0 : 1) + dictionaryIdBytes
    if (sizeAt + sizeBytes > input.length) return null
    let contentSize = null
    if (sizeBytes) {
      contentSize = 0
      for (let i = sizeBytes - 1; i >= 0; i--) contentSize = contentSize * 256 + input[sizeAt + i]
      if (sizeBytes === 2) contentSize += 256
    }
    let windowSize
    if (singleSegment) {
      windowSize = /** @type {number} */ (contentSize)
    } else {
      const windowDescriptor = input[at + 5]
      const base = 2 ** (10 + (windowDescriptor >> 3))
      windowSize = base + (base / 8) * (windowDescriptor & 7)
    }
    const frame = {
      start: at, end: 0, dictionaryIdAt: sizeAt - dictionaryIdBytes, dictionaryIdBytes, dataStart: sizeAt + sizeBytes,
      contentSize, windowSize, largestStoredBlock: 0,
    }
    frames.push(frame)
    // The frame's blocks: each has a 3-byte header with its type and size (§3.1.1.2).
    at = sizeAt + sizeBytes
    for (;;) {
      if (at + 3 > input.length) return null
      const blockHeader = input[at] | (input[at + 1] << 8) | (input[at + 2] << 16)
      const last = blockHeader & 1
      const type = (blockHeader >> 1) & 3
      const blockSize = blockHeader >> 3
      at += 3 + (type === 1 ? 1 : blockSize) // an RLE block stores one byte
      if (type === 3) return null
      if (type !== 2) frame.largestStoredBlock = Math.max(frame.largestStoredBlock, blockSize)
      if (last) break
    }
    if ((descriptor >> 2) & 1) at += 4 // content checksum
    frame.end = at
  }
  return at === input.length ? frames : null
}
