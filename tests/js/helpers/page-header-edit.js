// Edits page headers of real files in place for hostile-page tests: the zigzag varints of a PageHeader
// (parquet.thrift, Thrift compact), rewritten in the same number of bytes so every offset stays valid.
import assert from 'node:assert/strict'

/** Reads the ULEB128 varint at `at`: { value (zigzag-decoded), end }. */
export function readZigzag(bytes, at) {
  let raw = 0n
  let shift = 0n
  let end = at
  for (;;) {
    const b = bytes[end++]
    raw |= BigInt(b & 0x7f) << shift
    shift += 7n
    if (!(b & 0x80)) break
  }
  return { value: (raw >> 1n) ^ -(raw & 1n), end }
}

/** Rewrites the zigzag varint at `at` in place with `value`, in the same number of bytes (padded). */
export function writeZigzag(bytes, at, value) {
  const { end } = readZigzag(bytes, at)
  let raw = value >= 0n ? value << 1n : ((-value) << 1n) - 1n
  for (let i = at; i < end; i++) {
    const last = i === end - 1
    bytes[i] = Number(raw & 0x7fn) | (last ? 0 : 0x80)
    raw >>= 7n
  }
  assert.equal(raw, 0n, 'the new value needs more varint bytes than the old one')
}

/** Offsets of a page header's uncompressed and compressed size varints (fields 2 and 3, written in order). */
export function pageSizeFields(bytes, at) {
  assert.equal(bytes[at], 0x15, 'PageHeader field 1 (i32)')
  const type = readZigzag(bytes, at + 1)
  assert.equal(bytes[type.end], 0x15, 'PageHeader field 2 (i32)')
  const uncompressed = readZigzag(bytes, type.end + 1)
  assert.equal(bytes[uncompressed.end], 0x15, 'PageHeader field 3 (i32)')
  return { uncompressedAt: type.end + 1, compressedAt: uncompressed.end + 1 }
}
