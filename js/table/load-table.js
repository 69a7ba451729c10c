// One entry for both table formats: the table root, its format (given, or told by what it holds), and
// its live files with what the metadata says about each (js/table/iceberg.js, js/table/delta.js): all
// of them, or for Iceberg with `lazy`, those of the manifests read so far (table.scan reads more).
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { loadDelta } from './delta.js'
import { loadIceberg } from './iceberg.js'
import { readPreviousMetadata } from './iceberg-pointer.js'
import { TableIO } from './table-io.js'
import { locationUnder, tableError, tableRoot } from './table-location.js'

const FORMATS = ['iceberg', 'delta', 'auto']

/**
 * What both formats' readers say of a table, as the table layer (pruning, deletes, summaries) reads it.
 * @typedef {import('./column-keys.js').TableType} TableType
 * @typedef {import('./column-keys.js').Key} Key
 * @typedef {{ id: number, name: string, type: TableType, namePath?: string[], physicalPath?: string[], topLevel?: boolean,
 *   widenedFrom?: TableType[], mappingId?: unknown, initialDefault?: unknown, nestedIds?: number[],
 *   structFree?: boolean, nestedType?: unknown }} TableField
 *   a column of the table's schema by its dotted logical name: Iceberg's field id, v3 `initial-default` (as JSON
 *   serializes it) and, for a list or map, the ids of the fields under it (structFree: a list or map with no struct
 *   under it, whose element, key or value a probe may name; else nestedType, its type as the schema writes it); for
 *   Delta its number in the schema, its name's segments (namePath: a field may be named "a.b"), and its physical path in the
 *   data files and `delta.columnMapping.id` (column mapping)
 * @typedef {{ name: string, sourceId: number, transform: import('./iceberg-types.js').Transform, key: Key | null | undefined,
 *   keys?: Key[], raw: unknown, sourceType?: TableType, notInFile?: boolean, orNull?: boolean }} FilePartition
 *   one partition value of a file: the field it derives from, by a transform; its key (null: a null value; undefined: not
 *   known), or several; notInFile: a Delta partition column, which the data files do not hold; orNull: a Delta value that
 *   is its key or null by whom reads it (js/table/delta.js partitionRaw, emptyOrNull): no other value, and no row value
 * @typedef {{ kind: 'position', location: string, path: string }
 *   | { kind: 'equality', location: string, path: string, equalityIds: number[] | null }
 *   | { kind: 'dv', puffin: { location: string, path: string, offset: number, size: number } }
 *   | { kind: 'dv', dv: import('./deletion-vector.js').DeletionVectorDescriptor }} FileDelete
 *   a delete that may apply to a file's rows: an Iceberg position or equality delete file or deletion vector (a Puffin
 *   file's blob at offset, of size bytes), or a Delta deletion vector
 * @typedef {{ path: string, location: string, size: number, partitions: FilePartition[], partitionValues: Record<string, unknown>,
 *   columnFacts: Map<number, import('./column-keys.js').ColumnFacts>, deletes: FileDelete[], writtenPath?: string,
 *   fromIndex?: boolean, logged?: import('./delta.js').DeltaAdd }} TableFile
 *   a live data file: its path relative to the root and location to read; partition values (typed, and by name as text);
 *   column facts by field id; writtenPath: as the metadata writes it (position deletes name it); fromIndex: described by
 *   a table index's record, not yet by its manifest entry; logged: a Delta file's add action as logged
 */

/**
 * A table as loadTable loads it: its format's reader's answer (js/table/iceberg.js loadIceberg, js/table/delta.js
 * loadDelta), with the root, the reader of its metadata and `allowOutside`. Iceberg: the snapshot read (null: none),
 * its metadata and partition specs, how its files' columns are found (`fileColumns`), and `scan`, which reads the
 * manifests probes need; Delta: the version read and its column mapping mode.
 * @typedef {{ format: 'iceberg' | 'delta', writer: string, fields: TableField[], files: TableFile[], io: TableIO,
 *   root: import('./table-location.js').TableRoot, allowOutside?: boolean | string[], indexed?: TableIndexState,
 *   fieldsById?: Map<number, TableField>, specs?: Map<number, import('./iceberg.js').IcebergPartitionField[]>,
 *   fileColumns?: import('./iceberg-columns.js').IcebergFileColumns,
 *   snapshot?: import('./iceberg.js').IcebergSnapshot | null, metadata?: import('./iceberg.js').IcebergMetadata,
 *   formatVersion?: number, metadataLocation?: string, scan?: ManifestScan | null, version?: number,
 *   metaData?: import('./delta.js').DeltaMetaData, columnMapping?: string }} LoadedTable
 * @typedef {{ counts: { total: number, read: number }, readAll(): Promise<void>,
 *   filesFor: import('./iceberg.js').IcebergManifests['filesFor'], indexed?: TableIndexState }} ManifestScan
 *   an Iceberg snapshot's manifests, read as probes need them (js/table/iceberg.js, js/table/iceberg-indexed.js)
 * @typedef {{ unchanged: boolean, manifestsFromIndex?: number, manifestsAdded?: number, commitsRead?: number,
 *   replayed?: boolean, reason?: import('../index.js').TableIndexUnusedReason | null }} TableIndexState
 *   with a table index: whether the table was at its record's snapshot or version, what was read since, or why the
 *   record was not used (js/index.d.ts ParquetTable's table.index)
 */

/**
 * 'iceberg' or 'delta' for a table root: a _delta_log/ folder (or its pointer/commit 0) means Delta.
 * @param {TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 */
async function detectFormat(io, root) {
  const listing = await io.list(root.kind === 'local' ? root.root : '')
  if (listing) {
    if (listing.includes('_delta_log')) return 'delta'
    if (listing.includes('metadata')) return 'iceberg'
    throw tableError(ErrorCode.MALFORMED_TABLE, `${root.root}: neither a _delta_log/ nor a metadata/ folder: not a Delta or Iceberg table`)
  }
  // Fixed names under the root: none climbs out of it.
  const locations = /** @type {string[]} */ ([
    locationUnder(root, '_delta_log/_last_checkpoint'),
    locationUnder(root, '_delta_log/00000000000000000000.json'),
    locationUnder(root, 'metadata/version-hint.text'),
  ])
  const reading = io.readAll(locations, { optional: true })
  // An Iceberg table's metadata.json its last open read is read again in this round too (js/table/iceberg-pointer.js).
  readPreviousMetadata(io, root)
  const [pointer, first, hint] = await reading
  // The pointer read here is the one the format's reader starts with: it is not read twice.
  if (pointer || first) io.prime(locations[0], pointer)
  else if (hint) io.prime(locations[2], hint)
  if (pointer || first) return 'delta'
  if (hint) return 'iceberg'
  const where = root.kind === 'url' ? root.root.href : root.root
  throw tableError(ErrorCode.MALFORMED_TABLE, `${where}: found no _delta_log/_last_checkpoint, commit 0 or ` +
    'metadata/version-hint.text; pass format (and for Iceberg, metadata)')
}

/**
 * @param {string | URL} location the table's root folder or URL
 * @param {{ format?: 'iceberg' | 'delta' | 'auto', snapshot?: string | number | bigint, version?: number, metadata?: string,
 *   rebase?: (path: string) => string | URL | null | undefined, allowOutside?: boolean | string[], fetch?: typeof fetch,
 *   headers?: HeadersInit, signal?: AbortSignal, requestTimeoutMs?: number, userAgent?: string, retries?: number, io?: TableIO,
 *   lazy?: boolean, ioLedger?: import('../sources/io-ledger.js').IoLedger }} [options] fetch … retries: how the metadata
 *   objects are read (as openParquet reads files); ioLedger: where the opening's reads are recorded
 * @returns {Promise<LoadedTable>}
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
