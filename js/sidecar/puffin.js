// Iceberg's Puffin container (https://iceberg.apache.org/puffin-spec/): Magic, blobs, then the footer —
// Magic, FooterPayload (UTF-8 JSON { blobs: [BlobMetadata], properties }), FooterPayloadSize (4 bytes,
// little-endian), Flags (4 bytes; bit 0 of byte 0: payload compressed) and Magic. Written uncompressed;
// a compressed footer or blob is refused on read, as is any size that does not fit the file.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { crc32 } from '../pages/crc32.js'
import { sameBytes } from '../format/bytes.js'

export const PUFFIN_MAGIC = Uint8Array.of(0x50, 0x46, 0x41, 0x31) // PFA1
/** Magic + payload size + flags + magic: the footer's fixed tail. */
const FOOTER_TAIL_BYTES = 12

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * @typedef {{ type: string, fields: number[], 'snapshot-id': number | bigint, 'sequence-number': number | bigint,
 *   offset: number, length: number,
 *   'compression-codec'?: string, properties?: Record<string, string> }} BlobMetadata
 * @typedef {{ blobs: BlobMetadata[], properties?: Record<string, string> }} PuffinFooter
 */

/**
 * The CRC-32 recorded with each blob (properties.crc32), so a reader can check what it reads whole: the unsigned value
 * in 8 lower-case hex digits.
 * @param {Uint8Array} bytes
 */
export function crc32Hex(bytes) {
  return (crc32(bytes) >>> 0).toString(16).padStart(8, '0')
}

/**
 * Whether a blob's recorded properties.crc32 is the CRC-32 of `bytes`: as crc32Hex writes it, or as indexes written
 * before it did (the signed value in hex padded to 8: `-41598279`, `0-abcdef`), which still open.
 * @param {unknown} recorded
 * @param {Uint8Array} bytes
 */
export function crc32Matches(recorded, bytes) {
  const crc = crc32(bytes)
  return recorded === (crc >>> 0).toString(16).padStart(8, '0') || recorded === crc.toString(16).padStart(8, '0')
}

/**
 * The footer of a Puffin file whose blobs (described with their offsets) precede it.
 * @param {BlobMetadata[]} blobs
 * @param {Record<string, string>} properties
 */
export function puffinFooter(blobs, properties) {
  // Iceberg snapshot ids are longs past 2^53: a bigint is written as its exact digits.
  const json = JSON.stringify({ blobs, properties }, (_, v) => (typeof v === 'bigint' ? `\u0000long:${v}` : v))
    .replace(/"\\u0000long:(-?\d+)"/g, '$1')
  const payload = utf8.encode(json)
  const out = new Uint8Array(4 + payload.length + FOOTER_TAIL_BYTES)
  out.set(PUFFIN_MAGIC, 0)
  out.set(payload, 4)
  const view = new DataView(out.buffer)
  view.setUint32(4 + payload.length, payload.length, true)
  view.setUint32(8 + payload.length, 0, true)
  out.set(PUFFIN_MAGIC, 12 + payload.length)
  return out
}

/**
 * Decodes a Puffin footer from the file's last bytes. Returns the footer's JSON and where the footer
 * starts, or `{ need }`: the tail does not hold the whole footer, read `need` bytes from the end.
 * @param {Uint8Array} tail the last bytes of the file
 * @param {number} fileSize
 * @param {string} where for messages
 * @returns {{ footer: PuffinFooter, footerStart: number } | { need: number }}
 */
export function readPuffinFooter(tail, fileSize, where) {
  /** @param {string} why */
  const bad = (why) => new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a Puffin index file: ${why}`, { source: where })
  if (tail.length < FOOTER_TAIL_BYTES + 4) throw bad(`${fileSize} bytes is too short`)
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  if (!sameBytes(tail.subarray(tail.length - 4), PUFFIN_MAGIC)) throw bad('it does not end with PFA1')
  const flags = view.getUint32(tail.length - 8, true)
  if (flags & 1) throw bad('its footer is compressed, which this reader does not support')
  const payloadSize = view.getUint32(tail.length - 12, true)
  const footerLength = payloadSize + FOOTER_TAIL_BYTES + 4
  if (footerLength + 4 > fileSize) throw bad(`its footer of ${payloadSize} bytes does not fit in ${fileSize} bytes`)
  if (footerLength > tail.length) return { need: footerLength }
  const footerStart = fileSize - footerLength
  const footerBytes = tail.subarray(tail.length - footerLength)
  if (!sameBytes(footerBytes.subarray(0, 4), PUFFIN_MAGIC)) throw bad('its footer does not start with PFA1')
  let footer
  try {
    footer = JSON.parse(utf8Decoder.decode(footerBytes.subarray(4, 4 + payloadSize)))
  } catch (cause) {
    throw bad(`its footer is not UTF-8 JSON (${/** @type {Error} */ (cause)?.message ?? cause})`)
  }
  if (!footer || !Array.isArray(footer.blobs)) throw bad('its footer has no blobs list')
  for (const blob of footer.blobs) {
    if (!(Number.isSafeInteger(blob?.offset) && Number.isSafeInteger(blob.length) && blob.offset >= 4 && blob.length >= 0 &&
      blob.offset + blob.length <= footerStart)) {
      throw bad(`a blob of type ${JSON.stringify(blob?.type)} lies outside the file's blobs`)
    }
    if (blob['compression-codec'] !== undefined && blob['compression-codec'] !== null) {
      throw bad(`blob ${JSON.stringify(blob.type)} is compressed (${blob['compression-codec']})`)
    }
  }
  return { footer, footerStart }
}

