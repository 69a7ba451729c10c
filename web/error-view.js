// Turns an error from the worker ({ code, message }) into what a person needs: what happened, the
// library's own message (it names the URL or file), and what to do about it.

/** @type {Record<string, { title: string, hint: string }>} */
const EXPLANATIONS = {
  IO: {
    title: 'The file could not be reached',
    hint: 'Check the URL. If the file is on another site, its server must allow this page by CORS: ' +
      'Access-Control-Allow-Origin, the Range request header, and Access-Control-Expose-Headers: Content-Range.',
  },
  HTTP_STATUS: { title: 'The server answered with an error', hint: 'Check the URL; a presigned URL may have expired.' },
  FILE_NOT_FOUND: { title: 'The file was not found', hint: 'Check the path or URL.' },
  RANGE_NOT_SUPPORTED: {
    title: 'The server does not support Range requests',
    hint: 'parquet-bloom reads only the parts of a file it needs, which needs HTTP Range requests. Serve the file from object storage or a server that supports them.',
  },
  BAD_RESPONSE_LENGTH: { title: 'The server sent the wrong bytes', hint: 'A proxy or the server mangled a Range response; the file may also have changed while it was read.' },
  MALFORMED_FOOTER: { title: 'This is not a readable Parquet file', hint: 'A Parquet file ends with the magic bytes "PAR1" after its footer. The file may be another format, or truncated.' },
  ENCRYPTED: { title: 'This part of the file is encrypted', hint: 'Parquet modular encryption hides it: enter the column\'s key under "Encryption keys" and open the file again.' },
  ENCRYPTION_KEY_REQUIRED: { title: 'The file is encrypted', hint: 'Parquet modular encryption hides the footer and the indexes: enter the footer key (and the AAD prefix, if the file does not store it) under "Encryption keys" and open it again.' },
  DECRYPTION_FAILED: { title: 'The file does not decrypt', hint: 'A key or the AAD prefix is wrong, or the file was altered. The message names the part that failed.' },
  MALFORMED_FILTER: { title: 'A bloom filter is damaged', hint: 'The writer produced a filter that does not decode. Affected row groups read "unknown".' },
  UNSUPPORTED_FILTER: { title: 'A bloom filter uses an unsupported format', hint: 'Only Split Block Bloom Filters with XXHASH and no compression exist in the Parquet spec today.' },
  COLUMN_NOT_FOUND: { title: 'No such column', hint: 'Pick a column from the list.' },
  BAD_VALUE: { title: 'A value does not fit the column\'s type', hint: 'Type values as the column holds them: 42 for integers, 2024-01-31 for dates, 2024-01-31 12:00:00 for timestamps, 12.50 for decimals.' },
  INVALID_ARGUMENT: { title: 'That request is not valid', hint: '' },
  TOO_LARGE: { title: 'Over a size limit', hint: 'The footer or a filter is larger than the configured limits.' },
  ABORTED: { title: 'Cancelled', hint: '' },
  LIMIT_EXCEEDED: { title: 'Out of wasm memory budget', hint: 'Probe fewer row groups at once.' },
  WASM: { title: 'The wasm module did not load', hint: 'Build it with scripts/build.sh wasm (npm start does this).' },
  WORKER: { title: 'The probe worker did not start', hint: 'Open the page through a web server (npm start), not as a file:// page, in a browser with module workers.' },
}

/** @param {unknown} error the worker's { code, message } (an Error with a code), or anything else thrown */
export function explainError(error) {
  // Read as the worker's shape; on anything else the fields are undefined and the fallbacks apply.
  const { code, message } = /** @type {{ code?: string, message?: string }} */ (error)
  const known = code === undefined ? undefined : EXPLANATIONS[code]
  return {
    code: code ?? 'INTERNAL',
    title: known?.title ?? 'Something went wrong',
    message: message ?? String(error),
    hint: known ? known.hint : 'This looks like a bug in parquet-bloom; please report it with the file if you can.',
  }
}
