// The one error class parquet-bloom throws. `code` is stable and meant for programs; `message` names
// the file or URL and the offset or field involved, for people.

/** @type {Readonly<Record<string, string>>} */
export const ErrorCode = Object.freeze({
  INVALID_ARGUMENT: 'INVALID_ARGUMENT', // a caller error: unknown type name, bad option
  BAD_VALUE: 'BAD_VALUE', // a value of the wrong kind for the column ('abc' for INT32)
  MALFORMED_FOOTER: 'MALFORMED_FOOTER', // not Parquet, truncated, or undecodable FileMetaData
  MALFORMED_FILTER: 'MALFORMED_FILTER', // a bloom filter header or bitset that does not decode
  UNSUPPORTED_FILTER: 'UNSUPPORTED_FILTER', // well-formed but unusable (empty/unknown unions, legacy format)
  ENCRYPTED: 'ENCRYPTED', // an encrypted column chunk read without its keys (a visit, a point lookup)
  ENCRYPTION_KEY_REQUIRED: 'ENCRYPTION_KEY_REQUIRED', // an encrypted footer (PARE) without its footer key, or a needed AAD prefix missing
  DECRYPTION_FAILED: 'DECRYPTION_FAILED', // a module did not authenticate: wrong key or AAD prefix, tampered or truncated bytes
  COLUMN_NOT_FOUND: 'COLUMN_NOT_FOUND',
  NO_BLOOM_FILTER: 'NO_BLOOM_FILTER', // the column chunk has no bloom filter to lend (visitBloomFilter)
  FILE_NOT_FOUND: 'FILE_NOT_FOUND', // no such local file; a URL answering 404 or 410 (the error has `status`)
  HTTP_STATUS: 'HTTP_STATUS', // any other 4xx/5xx from a server
  RANGE_NOT_SUPPORTED: 'RANGE_NOT_SUPPORTED', // server ignores Range and the file is too big to take whole
  BAD_RESPONSE_LENGTH: 'BAD_RESPONSE_LENGTH', // wrong Content-Range, short or long body
  FILE_CHANGED: 'FILE_CHANGED', // a validated file was replaced: 412, or another ETag/Last-Modified/size
  LISTING_FAILED: 'LISTING_FAILED', // a bucket listing failed: refused (403, no such bucket), not a listing, or 5xx after retries
  TOO_LARGE: 'TOO_LARGE', // a configured limit (maxBytes, footer size, 128 MiB filter ceiling, a dataset probe's maxResults)
  ABORTED: 'ABORTED', // AbortSignal fired or a timeout elapsed
  IO: 'IO', // network or file-system failure
  MALFORMED_TABLE: 'MALFORMED_TABLE', // Iceberg/Delta table metadata that is missing, does not decode, or contradicts itself
  PATH_OUTSIDE_TABLE: 'PATH_OUTSIDE_TABLE', // table metadata names a file outside the table's location (refused unless allowOutside)
  UNSUPPORTED_TABLE: 'UNSUPPORTED_TABLE', // a Delta table whose protocol requires a reader feature or version not implemented here
  FILTER_RELEASED: 'FILTER_RELEASED', // a visit-scoped or freed filter used after its lifetime
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED', // the wasm scratch pool budget is exhausted
  WASM: 'WASM', // the wasm module failed to load
})

export class ParquetBloomError extends Error {
  /**
   * @param {string} code one of ErrorCode
   * @param {string} message
   * @param {{ cause?: unknown, source?: string, offset?: number, field?: string, status?: number,
   *   reason?: import('./verdicts.js').ReasonCode, problem?: string }} [details]
   *   `reason`: the verdict reason code (js/verdicts.js) a probe answers with when this error makes an index unusable;
   *   `problem`: for an inconsistent filter, which disagreement (an inspect warning code)
   */
  constructor(code, message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'ParquetBloomError'
    this.code = code
    if (details.source !== undefined) this.source = details.source
    if (details.offset !== undefined) this.offset = details.offset
    if (details.field !== undefined) this.field = details.field
    if (details.status !== undefined) this.status = details.status
    if (details.reason !== undefined) this.reason = details.reason
    if (details.problem !== undefined) this.problem = details.problem
  }
}

/**
 * The error every argument check throws: INVALID_ARGUMENT with the caller's message (one helper, so a
 * check reads the same wherever it is made).
 * @param {string} message
 * @param {ConstructorParameters<typeof ParquetBloomError>[2]} [details]
 */
export function invalidArgument(message, details) {
  return new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, message, details)
}

/**
 * What a message shows of a caught value: its `message` when it has one, else the value itself.
 * @param {unknown} cause
 */
export function messageOf(cause) {
  const message = (typeof cause === 'object' || typeof cause === 'function') && cause !== null && 'message' in cause
    ? cause.message
    : undefined
  return message ?? cause
}
