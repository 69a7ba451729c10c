// Decompresses one Parquet page (parquet.thrift CompressionCodec) with hyparquet-compressors (zstd through
// js/pages/zstd-page.js), loaded by a dynamic import the first
// time a compressed page is read, so probing bloom filters alone never downloads it. Every decompressor
// writes into a buffer of the header's uncompressed size (zstd's streaming decoder into a window no
// larger), so a hostile page cannot make it allocate more than the caller allowed.
import { CODEC_NAMES } from '../format/page-header.js'
import { messageOf } from '../errors.js'

let loading = null
/**
 * Decompressors that write into a given buffer, by codec name (set by loadCompressors).
 * @type {Record<string, (input: Uint8Array, output: Uint8Array) => void>}
 */
let decompressorsInto = {}

/** hyparquet's JavaScript snappy (js/pages/hyparquet.js), loaded on demand. */
const loadHyparquetSnappy = () => import('./hyparquet.js').then((h) => h.loadHyparquetSnappy())

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
  // The zstd page reader comes with fzstd: only a zstd page needs either.
  loading ??= Promise.all([import('hyparquet-compressors'), import('./zstd-page.js')]).then(async ([loaded, zstd]) => {
    const m = /** @type {CompressorsModule} */ (loaded)
    // One snappy decoder for the process: `compressors.SNAPPY` keeps one wasm instance, whose memory grows to
    // the largest page and is reused; decompressSnappy instantiates one per page, garbage a scan of thousands
    // of pages piles up faster than the collector frees it (~30 MiB over an `index add` of 100 MB).
    const snappy = m.snappyUncompressor ? m.snappyUncompressor() : m.compressors?.SNAPPY ?? m.decompressSnappy
    decompressorsInto = {
      // Into a caller's buffer (decompressPage's `into`): hyparquet's JavaScript snappy writes there, where
      // hysnappy hands back a copy out of its wasm memory — a page-sized ArrayBuffer a page, which V8 frees
      // only at a collection that a scan allocating little else seldom triggers. It decodes at ~270–540 MB/s
      // here against hysnappy's 500–760, far above what a scan then does with the values. It fails unless it
      // wrote every byte of the buffer, so nothing of an earlier page shows through (gzip's decoder does not
      // check that, so it is not used this way).
      SNAPPY: (await loadHyparquetSnappy()).snappyUncompress,
    }
    return {
      SNAPPY: snappy,
      GZIP: (/** @type {Uint8Array} */ input, /** @type {number} */ length) => m.gunzip(input, new Uint8Array(length)),
      BROTLI: m.decompressBrotli,
      ZSTD: zstd.decompressZstdPage,
      LZ4: m.decompressLz4,
      LZ4_RAW: m.decompressLz4Raw,
    }
  }, async (error) => {
    const { snappyUncompress } = await loadHyparquetSnappy()
    decompressorsInto = { SNAPPY: snappyUncompress }
    return {
      SNAPPY: (/** @type {Uint8Array} */ input, /** @type {number} */ length) => {
        const out = new Uint8Array(length)
        snappyUncompress(input, out)
        return out
      },
      unavailable: `hyparquet-compressors could not be loaded: ${messageOf(error)}`,
    }
  }).catch((error) => {
    loading = null // a later call may succeed (e.g. after an import map is added)
    throw error
  })
  return loading
}

/**
 * @param {Uint8Array} compressed the page's bytes as stored
 * @param {number} uncompressedSize from the page header (already bounded by the caller)
 * @param {number} codec parquet.thrift CompressionCodec id
 * @param {Record<string, (input: Uint8Array, length: number) => Uint8Array>} [compressors] decompressors
 *   by codec name (hyparquet's Compressors shape) to use instead of loading hyparquet-compressors
 * @param {Uint8Array} [into] a buffer of uncompressedSize bytes to decompress into where the codec's
 *   decompressor can (snappy): the page is then that buffer, else bytes of its own
 * @returns {Promise<{ bytes: Uint8Array } | { error: { kind: 'malformed' | 'unsupported', detail: string } }>}
 */
export async function decompressPage(compressed, uncompressedSize, codec, compressors, into) {
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
      const intoBuffer = into?.length === uncompressedSize ? decompressorsInto[name] : undefined
      decompress = intoBuffer && into ? (/** @type {Uint8Array} */ input) => (intoBuffer(input, into), into) : loaded[name]
      if (!decompress) return { error: { kind: 'unsupported', detail: `a ${name} page cannot be read here: ${loaded.unavailable}` } }
    } catch (error) {
      return {
        error: {
          kind: 'unsupported',
          detail: `hyparquet-compressors could not be loaded to read a ${name} page: ${messageOf(error)}`,
        },
      }
    }
  }
  let bytes
  try {
    bytes = decompress(compressed, uncompressedSize)
  } catch (error) {
    return malformed(`the ${name} page does not decompress: ${messageOf(error)}`)
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
