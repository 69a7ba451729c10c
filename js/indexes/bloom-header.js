// BloomFilterHeader through the wasm decoder (src/bloom_header.cc), with each refusal turned into an
// error that names the problem: malformed, unsupported (empty/unknown unions, legacy format) or too large.
import { BloomHeader, HeaderProblem } from '../wasm/abi.js'
import { getCore } from '../wasm/core.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { NativeStatus } from '../wasm/abi.js'

// Headers are ~16 bytes; a header with unknown fields may be longer, but never this long.
export const MAX_HEADER_BYTES = 64 * 1024

/**
 * Keyed by js/wasm/abi.js's names for src/bloom_header.h HeaderProblem.
 * @type {Record<string, string>}
 */
const PROBLEM_TEXT = {
  'truncated': 'the header is truncated',
  'bad-encoding': 'the header is not valid Thrift compact encoding',
  'missing-numBytes': 'the header has no numBytes',
  'missing-algorithm': 'the header has no algorithm',
  'missing-hash': 'the header has no hash',
  'missing-compression': 'the header has no compression',
  'bad-numBytes': 'numBytes is not a positive multiple of 32',
  'numBytes-too-large': 'numBytes is over the 128 MiB ceiling',
  'empty-union': 'the header has an empty algorithm/hash/compression union',
  'unknown-union': 'the header names an algorithm, hash or compression this reader does not implement',
  'legacy-format': 'this is the pre-release (non-Thrift, Murmur3) bloom filter format',
  'wrong-field-type': 'a header field has the wrong Thrift type',
}

/**
 * Decodes the header at the start of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {{ status: number, numBytes: number, algorithm: number, hash: number, compression: number,
 *   headerLength: number, problem: string }}
 */
export function decodeHeaderBytes(bytes) {
  const core = getCore()
  const length = Math.min(bytes.length, MAX_HEADER_BYTES)
  const headerBytes = (BloomHeader.bytes + 15) & ~15
  const at = core.batchRegion // MAX_HEADER_BYTES and the record fit it
  core.u8.set(bytes.subarray(0, length), at + headerBytes)
  const status = core.native.decodeHeader(at + headerBytes, length, at)
  const { numBytes, algorithm, hash, compression, headerLength, problem } = BloomHeader.read(core, at)
  return { status, numBytes, algorithm, hash, compression, headerLength, problem: HeaderProblem.byValue.get(problem) ?? 'unknown' }
}

/**
 * The error a failed decode means. `where` names the file/offset for the message.
 * @param {{ status: number, problem: string }} header decodeHeaderBytes' result
 * @param {string} where
 * @param {ConstructorParameters<typeof ParquetBloomError>[2]} [details]
 */
export function headerError(header, where, details = {}) {
  const text = PROBLEM_TEXT[header.problem] ?? `header problem ${header.problem}`
  const code = header.status === NativeStatus.UNSUPPORTED ? ErrorCode.UNSUPPORTED_FILTER
    : header.status === NativeStatus.LIMIT_EXCEEDED ? ErrorCode.TOO_LARGE
      : ErrorCode.MALFORMED_FILTER
  const kind = code === ErrorCode.UNSUPPORTED_FILTER ? 'unsupported bloom filter' : 'malformed bloom filter'
  return new ParquetBloomError(code, `${where}: ${kind}: ${text}`, { field: 'BloomFilterHeader', ...details })
}

/**
 * Encodes {numBytes, BLOCK, XXHASH, UNCOMPRESSED}.
 * @param {number} numBytes
 */
export function encodeHeader(numBytes) {
  const core = getCore()
  const at = core.batchRegion
  const n = core.native.encodeHeader(numBytes, at, 64)
  return core.u8.slice(at, at + n)
}
