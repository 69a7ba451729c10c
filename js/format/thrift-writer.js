// Decrypted Thrift modules, read and re-serialized. parquet-mr pads the plaintext of its modules (the
// parquet-testing files carry 13–90 zero bytes after a ColumnMetaData, a bloom filter header or a
// ColumnIndex): Thrift readers stop at the struct's end, and so do we (the padding is authenticated
// too). Edited structs are written with long-form field headers, valid whatever the previous field id.
import { CompactReader, Malformed, T } from './thrift-compact.js'

/**
 * The serialized struct at the start of `plaintext`, or a Malformed's detail when none decodes.
 * @param {Uint8Array} plaintext
 * @returns {{ bytes: Uint8Array, problem?: undefined } | { problem: string, bytes?: undefined }}
 */
export function thriftStructPrefix(plaintext) {
  const r = new CompactReader(plaintext)
  try {
    r.skip(T.STRUCT)
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    return { problem: error.detail }
  }
  return { bytes: plaintext.subarray(0, r.at) }
}

/**
 * A compact-protocol field header in the long form: the type, then the id as a zigzag varint.
 * @param {number} type
 * @param {number} id
 */
export function longFieldHeader(type, id) {
  const bytes = varint(id >= 0 ? id * 2 : -id * 2 - 1)
  const out = new Uint8Array(bytes.length + 1)
  out[0] = type
  out.set(bytes, 1)
  return out
}

/**
 * An unsigned varint.
 * @param {number} value
 */
export function varint(value) {
  const out = []
  let v = value
  while (v >= 0x80) {
    out.push((v % 128) | 0x80)
    v = Math.floor(v / 128)
  }
  out.push(v)
  return new Uint8Array(out)
}
