// Decompresses one Parquet page (parquet.thrift CompressionCodec) with hyparquet-compressors, which is
// loaded by a dynamic import the first time a compressed page is read, so probing bloom filters alone
// never downloads it. Every decompressor writes into a buffer of the header's uncompressed size, so a
// hostile page cannot make it allocate more than the caller allowed.

export const CODEC_NAMES = Object.freeze(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'])

let loading = null

/**
 * The module as loaded: releases other than the pinned one may also export snappyUncompressor, a
 * factory for a faster snappy decoder, which is preferred when present.
 * @typedef {typeof import('hyparquet-compressors') & {
 *   snappyUncompressor?: () => (input: Uint8Array, length: number) => Uint8Array }} CompressorsModule
 */

/**
 * hyparquet-compressors' decompressors by codec name, loaded once (also handed to hyparquet's v2 page
 * reader). Where it cannot be evaluated — its snappy compiles wasm from bytes as it loads, which
 * Cloudflare Workers forbid — hyparquet's own JavaScript snappy stands in, and the other codecs say why
 * they are missing (`unavailable`).
 * @returns {Promise<Record<string, (input: Uint8Array, length: number) => Uint8Array> & { unavailable?: string }>}
 */
export async function loadCompressors() {
  loading ??= import('hyparquet-compressors').then((/** @type {CompressorsModule} */ m) => {
    const snappy = m.snappyUncompressor ? m.snappyUncompressor() : m.decompressSnappy
    return {
      SNAPPY: snappy,
      GZIP: (input, length) => m.gunzip(input, new Uint8Array(length)),
      BROTLI: m.decompressBrotli,
      // With an output buffer fzstd never allocates a window; without one a frame could claim gigabytes.
      ZSTD: (input, length) => zstdInto(m.decompressZstd, input, length),
      LZ4: m.decompressLz4,
      LZ4_RAW: m.decompressLz4Raw,
    }
  }, async (error) => {
    const { loadHyparquetSnappy } = await import('./hyparquet.js')
    const { snappyUncompress } = await loadHyparquetSnappy()
    return {
      SNAPPY: (input, length) => {
        const out = new Uint8Array(length)
        snappyUncompress(input, out)
        return out
      },
      unavailable: `hyparquet-compressors could not be loaded: ${error?.message ?? error}`,
    }
  }).catch((error) => {
    loading = null // a later call may succeed (e.g. after an import map is added)
    throw error
  })
  return loading
}

/**
 * fzstd fills a given buffer without saying how much it wrote, so the frames' declared content sizes
 * must add up to the page's uncompressed size (writers that compress a page in one call declare it).
 */
function zstdInto(decompress, input, length) {
  const declared = zstdContentSize(input)
  if (declared !== length) {
    throw new Error(declared === null
      ? 'a zstd frame without a declared content size cannot be checked against the page header'
      : `the zstd frames hold ${declared} bytes, the page header says ${length}`)
  }
  return decompress(input, new Uint8Array(length))
}

/** Sum of the Frame_Content_Size of every zstd frame in `input` (RFC 8878 §3.1.1), or null when one is absent. */
function zstdContentSize(input) {
  let at = 0
  let total = 0
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
    if (sizeBytes === 0) return null
    const sizeAt = at + 5 + (singleSegment ? 0 : 1) + dictionaryIdBytes
    if (sizeAt + sizeBytes > input.length) return null
    let size = 0
    for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + input[sizeAt + i]
    if (sizeBytes === 2) size += 256
    total += size
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
      if (last) break
    }
    if ((descriptor >> 2) & 1) at += 4 // content checksum
  }
  return at === input.length ? total : null
}

/**
 * @param {Uint8Array} compressed the page's bytes as stored
 * @param {number} uncompressedSize from the page header (already bounded by the caller)
 * @param {number} codec parquet.thrift CompressionCodec id
 * @param {Record<string, (input: Uint8Array, length: number) => Uint8Array>} [compressors] decompressors
 *   by codec name (hyparquet's Compressors shape) to use instead of loading hyparquet-compressors
 * @returns {Promise<{ bytes: Uint8Array } | { error: { kind: 'malformed' | 'unsupported', detail: string } }>}
 */
export async function decompressPage(compressed, uncompressedSize, codec, compressors) {
  const name = CODEC_NAMES[codec]
  if (name === 'UNCOMPRESSED') {
    if (compressed.length !== uncompressedSize) {
      return malformed(`an uncompressed page of ${compressed.length} bytes, but its header says ${uncompressedSize}`)
    }
    return { bytes: compressed }
  }
  if (name === undefined || name === 'LZO') {
    return { error: { kind: 'unsupported', detail: `pages compressed with ${name ?? `codec ${codec}`} cannot be read` } }
  }
  let decompress = compressors?.[name]
  if (!decompress) {
    try {
      const loaded = await loadCompressors()
      decompress = loaded[name]
      if (!decompress) return { error: { kind: 'unsupported', detail: `a ${name} page cannot be read here: ${loaded.unavailable}` } }
    } catch (error) {
      return { error: { kind: 'unsupported', detail: `hyparquet-compressors could not be loaded to read a ${name} page: ${error?.message ?? error}` } }
    }
  }
  let bytes
  try {
    bytes = decompress(compressed, uncompressedSize)
  } catch (error) {
    return malformed(`the ${name} page does not decompress: ${error?.message ?? error}`)
  }
  if (!(bytes instanceof Uint8Array) || bytes.length !== uncompressedSize) {
    return malformed(`the ${name} page decompresses to ${bytes?.length} bytes, its header says ${uncompressedSize}`)
  }
  return { bytes }
}

/**
 * @param {string} detail
 * @returns {{ error: { kind: 'malformed', detail: string } }}
 */
function malformed(detail) {
  return { error: { kind: 'malformed', detail } }
}
