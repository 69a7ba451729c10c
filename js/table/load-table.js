// One entry for both table formats: the table root, its format (given, or told by what it holds), and
// its live files with what the metadata says about each (js/table/iceberg.js, js/table/delta.js): all
// of them, or for Iceberg with `lazy`, those of the manifests read so far (table.scan reads more).
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { loadDelta } from './delta.js'
import { loadIceberg } from './iceberg.js'
import { TableIO } from './table-io.js'
import { locationUnder, tableError, tableRoot } from './table-location.js'

const FORMATS = ['iceberg', 'delta', 'auto']

/** 'iceberg' or 'delta' for a table root: a _delta_log/ folder (or its pointer/commit 0) means Delta. */
async function detectFormat(io, root) {
  const listing = await io.list(root.kind === 'local' ? root.root : '')
  if (listing) {
    if (listing.includes('_delta_log')) return 'delta'
    if (listing.includes('metadata')) return 'iceberg'
    throw tableError(ErrorCode.MALFORMED_TABLE, `${root.root}: neither a _delta_log/ nor a metadata/ folder: not a Delta or Iceberg table`)
  }
  const locations = [
    locationUnder(root, '_delta_log/_last_checkpoint'),
    locationUnder(root, '_delta_log/00000000000000000000.json'),
    locationUnder(root, 'metadata/version-hint.text'),
  ]
  const [pointer, first, hint] = await io.readAll(locations, { optional: true })
  // The pointer read here is the one the format's reader starts with: it is not read twice.
  if (pointer || first) io.prime(locations[0], pointer)
  else if (hint) io.prime(locations[2], hint)
  if (pointer || first) return 'delta'
  if (hint) return 'iceberg'
  throw tableError(ErrorCode.MALFORMED_TABLE, `${root.root.href}: found no _delta_log/_last_checkpoint, commit 0 or ` +
    'metadata/version-hint.text; pass format (and for Iceberg, metadata)')
}

/**
 * @param {string | URL} location the table's root folder or URL
 * @param {{ format?: 'iceberg' | 'delta' | 'auto', snapshot?: string | number | bigint, version?: number, metadata?: string,
 *   rebase?: (path: string) => string | URL | null | undefined, allowOutside?: boolean | string[], fetch?: typeof fetch,
 *   headers?: HeadersInit, signal?: AbortSignal, requestTimeoutMs?: number, userAgent?: string, retries?: number, io?: TableIO,
 *   lazy?: boolean, ioLedger?: import('../sources/io-ledger.js').IoLedger }} [options] fetch … retries: how the metadata
 *   objects are read (as openParquet reads files); ioLedger: where the opening's reads are recorded
 */
export async function loadTable(location, options = {}) {
  const format = options.format ?? 'auto'
  if (!FORMATS.includes(format)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`)
  }
  // A metadata.json named directly: the table's root is the folder above its metadata/ folder.
  const text = location instanceof URL ? location.href : String(location)
  const named = /^(.*?)\/?metadata\/([^/?#]+\.metadata\.json)([?#].*)?$/.exec(text)
  if (named && format !== 'delta') {
    return loadTable(named[1] + (named[3] ?? ''), { ...options, format: 'iceberg', metadata: `metadata/${named[2]}` })
  }
  const root = await tableRoot(location)
  const io = options.io ?? new TableIO(root, options)
  // options.ioLedger: a read plan of the opening (openTable's `plan`), its reads recorded as table metadata.
  if (options.ioLedger) io.useLedger(options.ioLedger)
  let table
  try {
    const chosen = format === 'auto' ? await detectFormat(io, root) : format
    table = chosen === 'delta' ? await loadDelta(io, root, options) : await loadIceberg(io, root, options)
  } finally {
    if (options.ioLedger) io.useLedger(undefined)
  }
  // Iceberg manifests are read when a probe needs them (`lazy`, as openTable does), or all of them now.
  if (!options.lazy && 'scan' in table) await table.scan?.readAll()
  return { ...table, root, io, allowOutside: options.allowOutside }
}
