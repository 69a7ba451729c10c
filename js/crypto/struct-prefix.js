// Decrypted Thrift modules as the struct they start with. parquet-mr pads the plaintext of its modules
// (the parquet-testing files carry 13–90 zero bytes after a ColumnMetaData, a bloom filter header or a
// ColumnIndex): Thrift readers stop at the struct's end, and so do we. The padding is authenticated too.
import { CompactReader, Malformed, T } from '../thrift-compact.js'

/** The serialized struct at the start of `plaintext`, or a Malformed's detail when none decodes. */
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
