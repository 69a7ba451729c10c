// Deletion vectors. Delta's (Delta protocol "Deletion Vectors" and "Deletion Vector Format"): where a
// DV's bytes are (inline Z85, a file named by a Z85 UUID next to the table's data, or an absolute
// path), and the bitmap they hold — a RoaringBitmapArray: magic 1681511377, then 32-bit Roaring
// bitmaps in the portable serialization (RoaringFormatSpec), each under the high 32 bits of the rows.
// Iceberg v3's (Puffin spec, `deletion-vector-v1`) are the same bitmap in a blob framed as Delta frames
// one in its files (a big-endian length, the bitmap, a big-endian CRC-32), here checked before use.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { crc32 } from '../pages/crc32.js'

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#'
const Z85_VALUE = new Map([...Z85].map((c, i) => [c, i]))
const MAGIC = 1681511377
const SERIAL_COOKIE_NO_RUN = 12346
const SERIAL_COOKIE = 12347

const malformed = (/** @type {string} */ message) => new ParquetBloomError(ErrorCode.MALFORMED_TABLE, `deletion vector: ${message}`)

/**
 * Z85 text (ZeroMQ RFC 32) to bytes: every 5 characters are 4 bytes, big-endian.
 * @param {string} text
 */
export function z85Decode(text) {
  if (text.length % 5 !== 0) throw malformed(`Z85 text of ${text.length} characters (not a multiple of 5)`)
  const out = new Uint8Array((text.length / 5) * 4)
  for (let i = 0, o = 0; i < text.length; i += 5, o += 4) {
    let n = 0
    for (let j = 0; j < 5; j++) {
      const v = Z85_VALUE.get(text[i + j])
      if (v === undefined) throw malformed(`${JSON.stringify(text[i + j])} is not a Z85 character`)
      n = n * 85 + v
    }
    if (n > 0xffffffff) throw malformed('a Z85 group is over 32 bits')
    out[o] = n >>> 24; out[o + 1] = (n >>> 16) & 255; out[o + 2] = (n >>> 8) & 255; out[o + 3] = n & 255
  }
  return out
}

/**
 * A deletion vector as a Delta add action describes it (PROTOCOL.md "Deletion Vector Descriptor"): storageType 'i'
 * (inline Z85), 'u' (a file named by a Z85 UUID) or 'p' (a path); offset in that file; sizeInBytes of the bitmap.
 * @typedef {{ storageType: string, pathOrInlineDv: string, offset?: number | null, sizeInBytes: number,
 *   cardinality?: number }} DeletionVectorDescriptor
 */

/**
 * Where a DV's bytes are: { inline: bytes } or { path (relative to the table root, or absolute), offset }.
 * @param {DeletionVectorDescriptor} dv
 */
export function deletionVectorSource(dv) {
  if (dv.storageType === 'i') return { inline: z85Decode(dv.pathOrInlineDv) }
  if (dv.storageType === 'u') {
    const text = dv.pathOrInlineDv
    const prefix = text.slice(0, -20)
    const hex = [...z85Decode(text.slice(-20))].map((b) => b.toString(16).padStart(2, '0')).join('')
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    return { path: `${prefix ? `${prefix}/` : ''}deletion_vector_${uuid}.bin`, offset: Number(dv.offset ?? 1) }
  }
  if (dv.storageType === 'p') return { path: dv.pathOrInlineDv, offset: Number(dv.offset ?? 1), absolute: true }
  throw malformed(`unknown storageType ${JSON.stringify(dv.storageType)}`)
}

/**
 * The bitmap bytes of a DV inside its file ("Deletion Vector File Storage Format"): at `offset`, a big-endian size,
 * the bytes, then their CRC-32, big-endian — checked: a bitmap changed in storage would delete other rows than the
 * writer's, turning rows the table holds into "absent" and deleted ones into "present".
 * @param {Uint8Array} fileBytes
 * @param {number} offset
 * @param {number} sizeInBytes
 */
export function bitmapInFile(fileBytes, offset, sizeInBytes) {
  if (offset + 4 > fileBytes.length) throw malformed(`offset ${offset} is past the file's ${fileBytes.length} bytes`)
  const view = new DataView(fileBytes.buffer, fileBytes.byteOffset, fileBytes.byteLength)
  const size = view.getInt32(offset, false)
  if (size !== sizeInBytes || offset + 8 + size > fileBytes.length) {
    throw malformed(`the file says ${size} bytes at ${offset} (and a checksum after), the log says ${sizeInBytes}`)
  }
  const bitmap = fileBytes.subarray(offset + 4, offset + 4 + size)
  const stored = view.getUint32(offset + 4 + size, false)
  const computed = crc32(bitmap) >>> 0
  if (computed !== stored) {
    throw malformed(`the bitmap at ${offset} does not match its CRC-32 (stored ${stored.toString(16)}, computed ${computed.toString(16)})`)
  }
  return bitmap
}

/**
 * The rows an Iceberg deletion vector deletes: the `deletion-vector-v1` blob at `offset` in its Puffin file, of `size`
 * bytes as the manifest records them (content_offset, content_size_in_bytes). A blob that does not fit them, or
 * whose CRC-32 disagrees, is MALFORMED_TABLE: a damaged bitmap could name rows that are not deleted.
 * @param {Uint8Array} fileBytes the Puffin file
 * @param {number} offset
 * @param {number} size
 */
export function puffinDeletionVectorRows(fileBytes, offset, size) {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset < 0 || size < 12 || offset + size > fileBytes.length) {
    throw malformed(`a Puffin blob of ${size} bytes at ${offset} is not within the file's ${fileBytes.length} bytes`)
  }
  const bitmap = bitmapInFile(fileBytes, offset, size - 8)
  const view = new DataView(fileBytes.buffer, fileBytes.byteOffset, fileBytes.byteLength)
  const recorded = view.getInt32(offset + size - 4, false)
  if (recorded !== crc32(bitmap)) throw malformed(`the Puffin blob at ${offset}: its CRC-32 does not match its bytes`)
  return decodeRoaringBitmapArray(bitmap)
}

/**
 * The row indexes a serialized RoaringBitmapArray holds, ascending.
 * @param {Uint8Array} bytes magic + bitmaps
 * @returns {number[]}
 */
export function decodeRoaringBitmapArray(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  /** @param {number} at @param {number} n */
  const need = (at, n) => { if (at + n > bytes.length) throw malformed('the bitmap is truncated') }
  need(0, 12)
  if (view.getInt32(0, true) !== MAGIC) throw malformed(`magic ${view.getInt32(0, true)} is not ${MAGIC}`)
  const count = Number(view.getBigInt64(4, true))
  let at = 12
  /** @type {number[]} */
  const rows = []
  for (let b = 0; b < count; b++) {
    need(at, 4)
    const high = view.getUint32(at, true) * 2 ** 32
    at += 4
    at = decodeRoaring32(view, at, need, (low) => rows.push(high + low))
  }
  return rows
}

/**
 * One portable 32-bit Roaring bitmap at `at`; calls `emit` per value; returns the end offset.
 * @param {DataView} view
 * @param {number} at
 * @param {(at: number, n: number) => void} need throws when fewer than n bytes are left at `at`
 * @param {(low: number) => void} emit
 */
function decodeRoaring32(view, at, need, emit) {
  need(at, 4)
  const cookie = view.getUint32(at, true)
  let size
  let runFlags = null
  at += 4
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    size = (cookie >>> 16) + 1
    const flagBytes = Math.ceil(size / 8)
    need(at, flagBytes)
    runFlags = new Uint8Array(view.buffer, view.byteOffset + at, flagBytes)
    at += flagBytes
  } else if (cookie === SERIAL_COOKIE_NO_RUN) {
    need(at, 4)
    size = view.getUint32(at, true)
    at += 4
  } else {
    throw malformed(`cookie ${cookie} is not a Roaring bitmap's`)
  }
  need(at, size * 4)
  const keys = []
  const cards = []
  for (let i = 0; i < size; i++) {
    keys.push(view.getUint16(at, true))
    cards.push(view.getUint16(at + 2, true) + 1)
    at += 4
  }
  if (runFlags === null || size >= 4) at += size * 4 // container offsets: not needed reading in order
  for (let i = 0; i < size; i++) {
    const base = keys[i] * 65536
    const isRun = runFlags !== null && (runFlags[i >> 3] >> (i & 7)) & 1
    if (isRun) {
      need(at, 2)
      const runs = view.getUint16(at, true)
      at += 2
      need(at, runs * 4)
      for (let r = 0; r < runs; r++) {
        const start = view.getUint16(at, true)
        const length = view.getUint16(at + 2, true)
        for (let v = start; v <= start + length; v++) emit(base + v)
        at += 4
      }
    } else if (cards[i] <= 4096) {
      need(at, cards[i] * 2)
      for (let k = 0; k < cards[i]; k++) emit(base + view.getUint16(at + 2 * k, true))
      at += cards[i] * 2
    } else {
      need(at, 8192)
      for (let w = 0; w < 2048; w++) {
        const word = view.getUint32(at + 4 * w, true)
        for (let bit = 0; bit < 32; bit++) if ((word >>> bit) & 1) emit(base + w * 32 + bit)
      }
      at += 8192
    }
  }
  return at
}
