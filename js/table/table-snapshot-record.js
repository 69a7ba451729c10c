// A table index's snapshot record (docs/table-index.md): the Iceberg snapshot or Delta version a sidecar
// index was built at, and that snapshot's live files as its metadata listed them — written by
// js/index-builder/table-index-build.js as one more blob of the index's Puffin file, read by
// js/table/table-index.js so an unchanged table is opened without its manifests or log.
import { ErrorCode, ParquetBloomError } from '../errors.js'

export const RECORD_FORMAT = 'parquet-bloom-table-snapshot'
// 2: Delta's `logObject` (the log object the record was built from) and Iceberg's snapshot entry (`manifestList`,
// `snapshotTimestampMs`, `snapshotSummary`). A version-1
// record is still read: Delta opens it as not tied to a log (read whole); Iceberg checks its snapshot is the table's.
export const RECORD_VERSION = 2
const READABLE_VERSIONS = new Set([1, 2])

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * @typedef {{ path: string, size: number, validator: string | null, manifest?: number, records?: number, content?: number,
 *   sequence?: string, spec?: number, partition?: unknown[], equalityIds?: number[] | null, referencedDataFile?: string,
 *   vector?: { offset: number, size: number },
 *   partitionValues?: Record<string, string | null>, stats?: string, modificationTime?: number | bigint,
 *   deletionVector?: import('./deletion-vector.js').DeletionVectorDescriptor | null }} RecordedFile
 *   Iceberg: path as the manifest writes it, its manifest (an index into `manifests`), record count, content, data sequence
 *   number, partition spec and raw partition values, equality ids; of a delete file, the one data file it is of, and a
 *   deletion vector's blob in its Puffin file. Delta: the add action's path, partition values, stats and
 *   deletion vector. Both: size, and the validator the sidecar recorded (its identity: docs/sidecar-index.md "Identity").
 * @typedef {{ format: string, version: number, table: 'iceberg' | 'delta', tableId?: string, columns?: string[],
 *   snapshotId?: string, sequenceNumber?: string,
 *   deltaVersion?: number, metaData?: import('./delta.js').DeltaMetaData, protocol?: import('./delta.js').DeltaProtocol,
 *   manifests?: string[], manifestList?: string | null,
 *   snapshotTimestampMs?: string, snapshotSummary?: Record<string, string>, logObject?: import('./log-identity.js').LogIdentity,
 *   files: RecordedFile[], deleteFiles?: RecordedFile[] }} SnapshotRecord
 *   files: the data files, in the sidecar's entry order (file i is entry i; the sidecar records it by its path relative to the
 *   table's root); deleteFiles: Iceberg's position and equality deletes. Stored as columns (columnsOf). manifestList,
 *   snapshotTimestampMs, snapshotSummary: the Iceberg snapshot's, as its metadata writes them (a summary's values as
 *   strings); logObject: the Delta log object at deltaVersion (version 2 on).
 */

/**
 * Avro's longs (bigint) and bytes keep their kind through JSON: { $long: digits }, { $bytes: hex }; so do the
 * doubles JSON has no number for, { $double: 'Infinity' | '-Infinity' | 'NaN' | '-0' } (JSON would write null,
 * or 0: a float partition of Infinity recorded as null is a partition of nulls, which rules every value out).
 * @param {string} _
 * @param {any} value JSON.stringify's: of any shape
 */
function replacer(_, value) {
  if (typeof value === 'bigint') return { $long: String(value) }
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) {
    return { $double: Object.is(value, -0) ? '-0' : String(value) }
  }
  if (value instanceof Uint8Array) return { $bytes: Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('') }
  if (value && typeof value === 'object' && value.type === 'Buffer' && Array.isArray(value.data)) {
    return { $bytes: value.data.map((/** @type {number} */ b) => b.toString(16).padStart(2, '0')).join('') }
  }
  return value
}

/**
 * Longs and bytes back from their JSON forms, walking only objects (a reviver would be called for every value
 * of every file).
 * @param {any} value parsed JSON: of any shape
 * @returns {any}
 */
function restore(value) {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (value[i] !== null && typeof value[i] === 'object') value[i] = restore(value[i])
    return value
  }
  const keys = Object.keys(value)
  if (keys.length === 1 && typeof value.$long === 'string') return BigInt(value.$long)
  if (keys.length === 1 && ['Infinity', '-Infinity', 'NaN', '-0'].includes(value.$double)) return Number(value.$double)
  if (keys.length === 1 && typeof value.$bytes === 'string') return Uint8Array.from(value.$bytes.match(/../g) ?? [], (h) => parseInt(h, 16))
  for (const key of keys) if (value[key] !== null && typeof value[key] === 'object') value[key] = restore(value[key])
  return value
}

/**
 * Files as columns — per field one array, or { all: value } when every file has the same — and their paths
 * without the prefix they share (to the last /): a tenth of the bytes of one object per file.
 * @param {RecordedFile[]} files
 */
function columnsOf(files) {
  const paths = files.map((f) => f.path)
  let prefix = paths[0] ?? ''
  for (const p of paths) while (!p.startsWith(prefix)) prefix = prefix.slice(0, prefix.length - 1)
  prefix = prefix.slice(0, prefix.lastIndexOf('/') + 1)
  const keys = [...new Set(files.flatMap((f) => Object.keys(f)))].filter((k) => k !== 'path')
  /** @type {Record<string, unknown>} */
  const columns = {}
  for (const key of keys) {
    const values = files.map((f) => /** @type {Record<string, unknown>} */ (f)[key] ?? null)
    const first = JSON.stringify(values[0], replacer)
    columns[key] = values.every((v) => JSON.stringify(v, replacer) === first) ? { all: values[0] } : values
  }
  return { count: files.length, prefix, paths: paths.map((p) => p.slice(prefix.length)), columns }
}

/**
 * @param {any} table the files' columns as parsed (columnsOf's form, checked here)
 * @param {string} where for messages
 * @returns {RecordedFile[]}
 */
function filesOf(table, where) {
  const { count, prefix, paths, columns } = table ?? {}
  if (!Number.isSafeInteger(count) || typeof prefix !== 'string' || !Array.isArray(paths) || paths.length !== count ||
    typeof columns !== 'object') {
    throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
      `${where}: not a table index's snapshot record: its files are not columns of one length`, { source: where })
  }
  const files = paths.map((p) => /** @type {RecordedFile} */ ({ path: prefix + p }))
  for (const [key, values] of Object.entries(columns)) {
    const all = !Array.isArray(values)
    if (!all && values.length !== count) {
      throw new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
        `${where}: not a table index's snapshot record: its column ${key} is not ${count} long`, { source: where })
    }
    files.forEach((f, i) => { const v = all ? values.all : values[i]; if (v !== null) /** @type {Record<string, unknown>} */ (f)[key] = v })
  }
  return files
}

/** @param {Omit<SnapshotRecord, 'format' | 'version'>} record */
export function encodeSnapshotRecord(record) {
  const stored = {
    ...record, files: columnsOf(record.files), ...(record.deleteFiles ? { deleteFiles: columnsOf(record.deleteFiles) } : {}),
  }
  return utf8.encode(JSON.stringify({ format: RECORD_FORMAT, version: RECORD_VERSION, ...stored }, function (key, value) {
    // Buffer's toJSON runs before a replacer sees the value: take the raw one.
    return replacer(key, this[key] instanceof Uint8Array ? this[key] : value)
  }))
}

/**
 * @param {Uint8Array} bytes
 * @param {string} where for messages
 * @returns {SnapshotRecord}
 */
export function decodeSnapshotRecord(bytes, where) {
  const bad = (/** @type {string} */ why) => new ParquetBloomError(ErrorCode.MALFORMED_FOOTER,
    `${where}: not a table index's snapshot record: ${why}`, { source: where })
  let record
  try {
    record = restore(JSON.parse(utf8Decoder.decode(bytes)))
  } catch (cause) {
    throw bad(`it is not UTF-8 JSON (${/** @type {{ message?: string } | undefined} */ (cause)?.message ?? cause})`)
  }
  if (record?.format !== RECORD_FORMAT || !READABLE_VERSIONS.has(record.version)) {
    throw bad(`format ${JSON.stringify(record?.format)} version ${record?.version}`)
  }
  if (record.table !== 'iceberg' && record.table !== 'delta') throw bad(`table ${JSON.stringify(record.table)}`)
  record.files = filesOf(record.files, where)
  if (record.deleteFiles) record.deleteFiles = filesOf(record.deleteFiles, where)
  /** @param {RecordedFile | null} f */
  const wellFormed = (f) => typeof f?.path === 'string' && Number.isSafeInteger(f.size)
  if (!Array.isArray(record.files) || !record.files.every(wellFormed)) {
    throw bad('a file without a path or size')
  }
  if (record.table === 'iceberg' && (typeof record.snapshotId !== 'string' || !Array.isArray(record.manifests))) {
    throw bad('no snapshot id or manifests')
  }
  if (record.table === 'delta' && (!Number.isSafeInteger(record.deltaVersion) || !record.metaData)) throw bad('no version or metaData')
  const log = record.logObject
  if (log !== undefined && !(typeof log?.name === 'string' && Number.isSafeInteger(log.size) && typeof log.hash === 'string')) {
    throw bad('a log object without a name, size or hash')
  }
  return record
}
