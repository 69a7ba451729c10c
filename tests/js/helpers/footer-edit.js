// Rewrites a real file's footer for tests: decode its FileMetaData with the test Thrift codec, edit the
// struct, re-encode it. The data and every offset stay as they are; only what the edit touches changes.
import { decodeStruct, encodeStruct } from '../../../testkit/thrift-writer.js'

/** `bytes` with its FileMetaData passed through `edit(struct)`; returns the new file's bytes. */
export function editFooter(bytes, edit) {
  const length = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true)
  const start = bytes.length - 8 - length
  const { struct } = decodeStruct(bytes.subarray(start, bytes.length - 8))
  edit(struct)
  const footer = encodeStruct(struct)
  const out = new Uint8Array(start + footer.length + 8)
  out.set(bytes.subarray(0, start))
  out.set(footer, start)
  new DataView(out.buffer).setUint32(start + footer.length, footer.length, true)
  out.set(new TextEncoder().encode('PAR1'), start + footer.length + 4)
  return out
}
