// Reads a URL's footer through a FooterCache (js/footer/footer-cache.js): a hit costs no request, a miss reads
// the footer and keeps it when the server validated it; after FILE_CHANGED the entry is dropped and the
// footer read anew from the new version of the file.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { readFooter } from './footer.js'

/**
 * @param {import('./footer-cache.js').FooterCache} cache
 * @param {import('../sources/http-source.js').HttpSource} source in conditional mode
 * @returns {Promise<{ fileSize: number, metadataOffset: number, layout: object, tail: { offset: number, bytes: Uint8Array }, fromCache: boolean }>}
 */
export async function footerThroughCache(cache, source, options) {
  const entry = await cache.lookup(source.cacheKey)
  if (!entry) return readAndRemember(cache, source, options)
  source.expectFile(entry.validator, entry.fileSize)
  return { fileSize: entry.fileSize, metadataOffset: entry.metadataOffset, layout: entry.layout, tail: { offset: entry.fileSize, bytes: new Uint8Array(0) }, fromCache: true }
}

/** After FILE_CHANGED: drops the entry and reads the footer of the file as it is now. */
export async function rereadFooter(cache, source, options) {
  await cache.forget(source.cacheKey)
  source.forgetFile()
  return readAndRemember(cache, source, options)
}

async function readAndRemember(cache, source, options) {
  let footer
  try {
    footer = await readFooter(source, options)
  } catch (error) {
    // Replaced between the tail read and the rest of a large footer: once more, from the new version.
    if (error?.code !== ErrorCode.FILE_CHANGED) throw error
    source.forgetFile()
    footer = await readFooter(source, options)
  }
  await cache.remember(source.cacheKey, { validator: source.validator, ...footer })
  return { ...footer, fromCache: false }
}

/**
 * Checks that a footer taken from the cache still describes the file, when no read has shown it yet:
 * the file's last 8 bytes (footer length + PAR1), fetched with the validator. FILE_CHANGED otherwise.
 */
export async function confirmFooter(source, { fileSize, metadataOffset }, signal) {
  if (source.confirmed !== false) return
  const last = await source.read(fileSize - 8, 8, { signal })
  const view = new DataView(last.buffer, last.byteOffset, 8)
  if (view.getUint32(0, true) !== fileSize - 8 - metadataOffset || view.getUint32(4, true) !== 0x31524150) {
    throw new ParquetBloomError(ErrorCode.FILE_CHANGED, `${source.name} changed since its footer was cached: its footer length or magic differ`, { source: source.name })
  }
}
