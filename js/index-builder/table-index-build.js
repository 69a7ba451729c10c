// buildSidecarIndex(…, { table }): a table index (docs/table-index.md) — a format-2 sidecar index of an
// Iceberg or Delta table's live data files at one snapshot or version, with a snapshot record beside its
// blobs (js/table/table-snapshot-record.js): the snapshot id or version, and per file what the metadata
// listed (path, size, partition, sequence; Delta's add action) and the validator the sidecar recorded, so
// openTable(…, { index }) can know the table's files without its manifests or log, and match them to the
// sidecar's entries with no request per file. Every blob's Puffin metadata names the Iceberg snapshot
// and the indexed field ids, as an Iceberg table's `statistics` list describes a statistics file.
import { ErrorCode, invalidArgument, ParquetBloomError } from '../errors.js'
import { loadTable } from '../table/load-table.js'
import { summaryOf } from '../table/iceberg.js'
import { deltaColumnIn } from '../table/delta.js'
import { encodeSnapshotRecord } from '../table/table-snapshot-record.js'
import { PUFFIN_MAGIC } from '../sidecar/puffin.js'
import { TABLE_SNAPSHOT_BLOB } from '../sidecar/sidecar-blobs.js'
import { validatorKind } from '../sidecar/sidecar-index.js'
import { DEFAULT_SEGMENT_BYTES } from '../sidecar/sidecar-regions.js'
import { checkFpp } from '../wasm/sbbf.js'
import { SlicedIndexWriter } from './sidecar-sliced-writer.js'
import { buildReading, readFileEntry } from './build-plan.js'
import { openSink } from './sink.js'
import { PACKAGE_VERSION } from './version.js'

/**
 * What of loadTable's table a build reads (loadTable's own result is of two shapes without a common type):
 * @typedef {{ name: string, id?: number, physicalPath?: string[] }} TableField a table column (physicalPath: Delta's)
 * @typedef {{ location: string | URL, path: string, size: number }} TableFile a live data file (and what the record takes of it)
 */

/**
 * A Delta add's `stats` without the min/max of the indexed columns (`paths`: their physical paths), whose
 * filters and exact bounds the index holds: a smaller record, and a bound dropped only prunes less.
 */
/**
 * @param {string} text
 * @param {string[][]} paths
 */
function statsWithoutIndexed(text, paths) {
  let stats
  try { stats = JSON.parse(text) } catch { return text }
  for (const side of ['minValues', 'maxValues']) {
    for (const path of paths) {
      let holder = stats?.[side]
      for (const part of path.slice(0, -1)) {
        holder = holder && typeof holder === 'object' ? holder[part] : undefined
      }
      if (holder && typeof holder === 'object') delete holder[path[path.length - 1]]
    }
  }
  return JSON.stringify(stats)
}

/**
 * A table file as the record lists it (`indexedPaths`: Delta's physical paths of the indexed columns).
 * @param {{ format: string }} table
 * @param {any} file a data or delete file as loadTable lists it: an Iceberg manifest entry's or a Delta add's fields
 * @param {string | null} validator
 * @param {string[][]} [indexedPaths]
 */
function recordedFile(table, file, validator, indexedPaths = []) {
  if (table.format === 'delta') {
    const add = file.logged
    // modificationTime: a path added again by a later commit (other bytes at the same path and size) is told apart by it.
    return { path: add.path, size: file.size, validator, partitionValues: add.partitionValues ?? {},
      ...(add.modificationTime !== undefined ? { modificationTime: add.modificationTime } : {}),
      ...(typeof add.stats === 'string' ? { stats: statsWithoutIndexed(add.stats, indexedPaths) } : {}),
      ...(add.deletionVector ? { deletionVector: add.deletionVector } : {}) }
  }
  return { path: file.writtenPath, size: file.size, validator, manifest: file.manifest, records: file.recordCount,
    content: file.content, sequence: String(file.sequence), spec: file.specId,
    partition: file.partitions.map((/** @type {{ raw?: unknown }} */ p) => p.raw ?? null),
    equalityIds: file.equalityIds ?? null,
    ...(file.referencedDataFile ? { referencedDataFile: file.referencedDataFile } : {}), ...(file.vector ? { vector: file.vector } : {}) }
}

/**
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink
 * @param {import('./index.js').SidecarBuildOptions} options with `table`: the table's location, or
 *   { location, format, snapshot, version, … }
 */
export async function buildTableIndex(sink, options) {
  const { fpp = 0.01, ndv = 'auto', signal } = options
  if (options.format !== undefined && options.format !== 2) throw invalidArgument('a table index is a format-2 sidecar index')
  if (options.update !== undefined) throw invalidArgument('a table index is built again for a new snapshot, not updated')
  if (!Array.isArray(options.columns) || !options.columns.length) {
    throw invalidArgument('buildSidecarIndex needs options.columns: the columns to index')
  }
  checkFpp(fpp)
  const given = /** @type {any} */ (options.table)
  const spec = typeof given === 'string' || given instanceof URL ? { location: given } : given
  const { location, ...tableOptions } = spec
  const table = /** @type {any} */ (await loadTable(location, { ...tableOptions, signal }))
  /** @type {TableFile[]} */
  const dataFiles = table.files
  const iceberg = table.format === 'iceberg'
  const snapshot = iceberg ? table.snapshot : null
  const fields = iceberg
    ? options.columns.map((c) => table.fields.find((/** @type {TableField} */ f) => f.name === c)?.id).filter((id) => id !== undefined)
    : []
  const puffin = snapshot
    ? { fields, 'snapshot-id': BigInt(snapshot['snapshot-id']), 'sequence-number': BigInt(snapshot['sequence-number'] ?? 0) }
    : undefined

  // Each file's column of a table column: Iceberg's by field id, the name mapping or a name that always meant the
  // field (js/table/iceberg-columns.js; a file with field ids but not this one has none, whatever its names say);
  // Delta's by the field's mapping id (column mapping `id`), else by the physical name (column mapping `name`).
  /**
   * @param {import('../footer/footer.js').FileLayout} layout
   * @param {string} name
   * @returns {string | string[] | null}
   */
  const columnIn = (layout, name) => {
    /** @type {TableField | undefined} */
    const field = table.fields.find((/** @type {TableField} */ f) => f.name === name)
    if (!field) return iceberg && table.fileColumns.notAColumn(name) ? null : name
    if (!iceberg) return deltaColumnIn(field, table.columnMapping, layout.columns)
    const found = table.fileColumns.columnOf(layout.columns, field)
    return 'path' in found ? found.path : null
  }
  const indexedPaths = iceberg
    ? []
    : options.columns.map((c) => table.fields.find((/** @type {TableField} */ f) => f.name === c)?.physicalPath).filter(Boolean)
  const out = await openSink(sink)
  /** @type {Array<{ file: string, rowGroup?: number, column?: string, detail: string }>} */
  const skipped = []
  const recorded = []
  /** @type {Partial<Record<string, number>>} */
  const validators = {}
  let chunks = 0
  try {
    await out.write(PUFFIN_MAGIC)
    const writer = new SlicedIndexWriter(out, {
      fpp, columns: options.columns, segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
      writer: `parquet-bloom ${PACKAGE_VERSION}`, puffin,
    })
    // The files are read as any build's are (js/index-builder/build-plan.js): their validators from
    // their tail reads, no HEAD; a size other than the table's is another file than the one it describes.
    const files = buildReading(dataFiles.map((f) => String(f.location)), {
      concurrency: options.concurrency, fetch: tableOptions.fetch, prefetchBytes: options.prefetchBytes,
    })
    const build = async (/** @type {TableFile} */ file) => {
      const read = await readFileEntry(String(file.location), file.path, { ...options, fpp, ndv, signal, columnIn }, files)
      if (read.file.size !== file.size) {
        throw new ParquetBloomError(ErrorCode.MALFORMED_TABLE,
          `${file.path}: the table lists ${file.size} bytes, the file has ${read.file.size}: not the file the table describes`,
          { source: file.path })
      }
      skipped.push(...read.skipped)
      return { found: { size: read.file.size, validator: read.file.validator }, entry: read.file }
    }
    // In table order, the build's files in flight read ahead (their bitsets wait, in order, for the writer).
    const pending = []
    for (let i = 0; i < dataFiles.length || pending.length; i++) {
      while (pending.length < files.filesInFlight && i + pending.length < dataFiles.length) {
        const building = build(dataFiles[i + pending.length])
        building.catch(() => {})
        pending.push(building)
      }
      if (!pending.length) break
      const { found, entry } = await /** @type {Promise<any>} */ (pending.shift())
      await writer.add(entry)
      for (const g of entry.rowGroups) for (const c of Object.values(g.chunks)) if (c) chunks++
      recorded.push(recordedFile(table, dataFiles[i], found.validator, indexedPaths))
      const kind = validatorKind(found.validator) ?? 'none'
      validators[kind] = (validators[kind] ?? 0) + 1
    }
    const snapshotId = snapshot ? String(snapshot['snapshot-id']) : '-1'
    const record = iceberg
      ? { table: 'iceberg', tableId: table.metadata['table-uuid'], snapshotId,
          sequenceNumber: String(snapshot?.['sequence-number'] ?? 0),
          columns: options.columns,
          manifestList: snapshot?.['manifest-list'] ?? null, snapshotTimestampMs: snapshot ? String(snapshot['timestamp-ms']) : undefined,
          snapshotSummary: snapshot ? summaryOf(snapshot) : undefined,
          manifests: table.manifests.map((/** @type {{ path: string }} */ m) => m.path), files: recorded,
          deleteFiles: table.deleteFiles.map((/** @type {unknown} */ d) => recordedFile(table, d, null)) }
      : { table: 'delta', tableId: table.metaData.id, deltaVersion: table.version, logObject: table.logObject, columns: options.columns,
          metaData: table.metaData, protocol: table.protocol, files: recorded }
    // Delta: the version and its log object in the footer too, so a reader reads the log after it, and the start of
    // that object, beside the record.
    /** @type {Record<string, string>} */
    const properties = iceberg
      ? { 'snapshot-id': snapshotId }
      : { 'delta-version': String(table.version), ...(table.logObject ? { 'delta-log-object': table.logObject.name } : {}) }
    const written = await writer.finish([
      { type: TABLE_SNAPSHOT_BLOB, bytes: encodeSnapshotRecord(/** @type {any} */ (record)), properties },
    ])
    const bytesWritten = out.written
    const blob = await out.close()
    return { format: /** @type {2} */ (2), files: recorded.length, rebuilt: recorded.length, kept: 0, dropped: 0, chunks, bytesWritten,
      validators, skipped,
      table: { format: table.format, ...(iceberg
        ? { snapshot: snapshotId, statistics: statisticsEntry(snapshotId, bytesWritten, written) }
        : { version: table.version }) },
      ...(blob ? { blob } : {}) }
  } catch (error) {
    await out.abort(error)
    throw error
  }
}

/**
 * The entry of an Iceberg table's `statistics` list (table spec "Table Statistics") that would register the
 * index for its snapshot; `statistics-path` is left for the caller, who knows where the index is stored.
 * @param {string} snapshotId
 * @param {number} fileSize
 * @param {Awaited<ReturnType<SlicedIndexWriter['finish']>>} written
 */
function statisticsEntry(snapshotId, fileSize, written) {
  return {
    'snapshot-id': snapshotId,
    'statistics-path': null,
    'file-size-in-bytes': fileSize,
    'file-footer-size-in-bytes': written.footerBytes,
    'blob-metadata': written.blobs.map((b) => ({
      type: b.type, 'snapshot-id': String(b['snapshot-id']), 'sequence-number': String(b['sequence-number']),
      fields: b.fields, properties: b.properties,
    })),
  }
}
