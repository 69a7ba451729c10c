// An Iceberg table's live files at one snapshot (Iceberg table spec v1/v2): the metadata.json (which one:
// js/table/iceberg-pointer.js), the snapshot and its manifest list when the table is opened; the manifests
// a probe needs (js/table/manifest-summaries.js) when it is probed, in one wave; per data file its
// partition values and the per-column facts of its manifest entry (bounds by Appendix D, null/NaN/value
// counts), by field id.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { sameBytes } from '../format/bytes.js'
import { readAvroFile } from './avro.js'
import { manifestMayHoldValues, manifestMayMatchWhere } from './manifest-summaries.js'
import { decodeBound, icebergType, parseTransform, partitionKey, partitionText, transformResultType } from './iceberg-types.js'
import { pathResolver, tableError } from './table-location.js'
import { readIcebergMetadata } from './iceberg-pointer.js'
import { IcebergFileColumns, readNameMapping } from './iceberg-columns.js'
import { utf8Length, utf8Prefix, valueKeys } from './column-keys.js'
import { tableBoundRules } from '../indexes/table-bound-rules.js'

/**
 * An Iceberg table's metadata.json as parsed (spec "Table Metadata"; ids past 2^53 as bigints), the fields read here.
 * @typedef {{ 'format-version'?: number, 'table-uuid'?: string, location?: string, properties?: Record<string, string>,
 *   'current-snapshot-id'?: number | bigint | null, refs?: Record<string, { 'snapshot-id'?: number | bigint, type?: string }>,
 *   snapshots?: IcebergSnapshot[], 'current-schema-id'?: number,
 *   schemas?: IcebergSchema[], schema?: IcebergSchema, 'partition-specs'?: Array<{ 'spec-id': number, fields?: IcebergPartitionField[] }>,
 *   'partition-spec'?: IcebergPartitionField[] }} IcebergMetadata
 * @typedef {{ 'snapshot-id': number | bigint, 'schema-id'?: number, 'timestamp-ms'?: number | bigint, 'manifest-list'?: string,
 *   manifests?: string[], summary?: Record<string, unknown> }} IcebergSnapshot
 *   manifests: a v1 snapshot's manifests listed in the metadata itself, without a manifest list
 * @typedef {{ 'schema-id'?: number, fields?: IcebergSchemaField[] }} IcebergSchema
 * @typedef {{ id: number, name: string, type: string | { type?: string, fields?: IcebergSchemaField[] },
 *   'initial-default'?: unknown }} IcebergSchemaField
 * @typedef {{ name: string, transform: string, 'source-id': number, 'source-ids'?: number[] }} IcebergPartitionField
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {import('./column-keys.js').ColumnFacts} ColumnFacts
 *
 * A manifest of a snapshot, as its manifest list names it.
 * @typedef {{ index: number, path: string, location: string, content: number, specId: number, sequence: bigint,
 *   summaries: PartitionFieldSummary[] | null, specInFile?: boolean }} IcebergManifest
 *   content: 0 data files, 1 deletes; sequence: the manifest's sequence number, which its ADDED entries inherit;
 *   summaries: its partition field summaries, one per field of its partition spec; specInFile: listed in a v1
 *   snapshot itself, without a manifest list, so its spec id is the one its own metadata records, known once read
 * @typedef {{ contains_null?: boolean, contains_nan?: boolean | null, lower_bound?: Uint8Array | null,
 *   upper_bound?: Uint8Array | null }} PartitionFieldSummary
 *   a manifest list's field_summary (spec "Manifest Lists"): bounds in the single-value serialization of the field's result type
 * @typedef {{ manifest_path: string, partition_spec_id: number, content?: number, sequence_number?: bigint,
 *   partitions?: PartitionFieldSummary[] | null }} IcebergManifestListEntry a manifest list's manifest_file record, as Avro decoded it
 *
 * A data or delete file of a manifest entry (content 0 data, 1 position deletes, 2 equality deletes).
 * @typedef {import('./load-table.js').TableFile & { writtenPath: string, recordCount: number, content: number, sequence: bigint,
 *   specId: number, equalityIds: number[] | null, manifest: number, referencedDataFile?: string,
 *   vector?: { offset: number, size: number } }} IcebergFile
 *   referencedDataFile: the one data file a position delete file or deletion vector is of (as the metadata writes its
 *   path); vector: a v3 deletion vector's blob in its Puffin file (content_offset, content_size_in_bytes)
 *
 * What reading a manifest needs: partition specs by id, every field by id, the path resolver, the metrics truncation
 * length and the writer (js/indexes/writer-rules.js).
 * @typedef {{ specs: Map<number, IcebergPartitionField[]>, allFields: Map<number, TableField>,
 *   resolve: (path: string) => { location: string, relative: string }, truncate: number, writer: string }} ManifestContext
 */

/** @param {string} message @param {string} source */
const malformed = (message, source) =>
  tableError(ErrorCode.MALFORMED_TABLE, message, { source })
const DEFAULT_TRUNCATE = 16

/**
 * The snapshot to read: options.snapshot (an id, or the name of a branch or tag of `refs`), else the current one.
 * @param {IcebergMetadata} metadata
 * @param {{ snapshot?: string | number | bigint }} options
 * @param {string} source
 */
function chooseSnapshot(metadata, options, source) {
  const snapshots = metadata.snapshots ?? []
  const asked = options.snapshot
  const ref = typeof asked === 'string' && !/^\s*-?\d+\s*$/.test(asked) ? asked : undefined
  if (ref !== undefined && !Object.hasOwn(metadata.refs ?? {}, ref)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `snapshot ${JSON.stringify(ref)} is neither a snapshot id nor a ` +
      `branch or tag of the table (refs: ${Object.keys(metadata.refs ?? {}).join(', ') || 'none'})`)
  }
  // current-snapshot-id is optional (spec "Table Metadata"); the main branch always points at the current snapshot.
  const wanted = ref !== undefined ? metadata.refs?.[ref]?.['snapshot-id']
    : asked ?? metadata['current-snapshot-id'] ?? metadata.refs?.main?.['snapshot-id']
  if (wanted === undefined || wanted === null || wanted === -1) return null
  let id
  try {
    id = BigInt(wanted)
  } catch {
    const message = `snapshot id ${JSON.stringify(String(wanted))} is not an integer`
    throw asked === undefined ? malformed(`${source}: ${message}`, source) : new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, message)
  }
  const snapshot = snapshots.find((s) => BigInt(s['snapshot-id']) === id)
  if (!snapshot) {
    throw malformed(`${source}: no snapshot ${id} ` +
      `(snapshots: ${snapshots.map((s) => String(s['snapshot-id'])).join(', ') || 'none'})`, source)
  }
  return snapshot
}

/**
 * A partition field as derived from one column: a v3 multi-argument transform's (`source-ids` of several columns) is
 * derived from none here, whatever `source-id` says — its values are not one column's transform, and read as one they
 * would rule files out.
 * @param {IcebergPartitionField} field
 * @returns {IcebergPartitionField}
 */
function singleSource(field) {
  const ids = field['source-ids']
  if (!Array.isArray(ids)) return field
  const one = ids.length === 1 && (field['source-id'] === undefined || field['source-id'] === ids[0])
  return { ...field, 'source-id': one ? ids[0] : -1 }
}

/**
 * Whether the snapshot asked for is read with its own schema's names, as Iceberg Java's SnapshotUtil.schemaFor: one
 * asked for by id, or by a tag; a branch (and no snapshot asked for) is read with the current schema.
 * @param {IcebergMetadata} metadata
 * @param {string | number | bigint | undefined} asked
 */
function readsSnapshotSchema(metadata, asked) {
  if (asked === undefined) return false
  if (typeof asked !== 'string' || /^\s*-?\d+\s*$/.test(asked)) return true
  return metadata.refs?.[asked]?.type === 'tag'
}

/**
 * The ids of every field under a list or map type (its element, or key and value, and theirs: spec "Nested Types"), which
 * a data file's leaf columns under the field carry; none for another type.
 * @param {unknown} type
 * @returns {number[]}
 */
function idsUnder(type) {
  if (!type || typeof type !== 'object') return []
  const t = /** @type {Record<string, any>} */ (type)
  if (t.type === 'struct') return (t.fields ?? []).flatMap((/** @type {IcebergSchemaField} */ f) => [f.id, ...idsUnder(f.type)])
  if (t.type === 'list') return [t['element-id'], ...idsUnder(t.element)]
  if (t.type === 'map') return [t['key-id'], ...idsUnder(t.key), t['value-id'], ...idsUnder(t.value)]
  return []
}

/**
 * Every field of a schema by id, with its dotted logical name (nested structs included; a list's or map's fields as the
 * ids under it, `nestedIds`).
 * @param {IcebergSchema | undefined} schema
 */
export function schemaFields(schema) {
  /** @type {TableField[]} */
  const out = []
  // Names may hold dots (a column "a.b"): a field's segments are kept (namePath), as Delta's, so that it is not read as a
  // struct a's b (`columns: ['a']` gave "a.b"'s values, a list "a.b"'s element path had a segment too many).
  /** @param {IcebergSchemaField[] | undefined} fields @param {string[]} prefix */
  const walk = (fields, prefix) => {
    for (const f of fields ?? []) {
      const namePath = [...prefix, f.name]
      const name = namePath.join('.')
      const initial = f['initial-default']
      const nested = f.type && typeof f.type === 'object' && f.type.type !== 'struct' ? idsUnder(f.type) : []
      // No struct under a list or map: the names of the files' levels under it are no field's.
      /** @type {(t: any) => boolean} */
      const free = (t) => typeof t === 'string' ||
        (t?.type === 'list' && free(t.element)) || (t?.type === 'map' && free(t.key) && free(t.value))
      const structFree = nested.length > 0 && free(f.type)
      out.push({ id: f.id, name, namePath, type: icebergType(f.type), topLevel: !prefix.length,
        ...(initial === undefined ? {} : { initialDefault: initial }), ...(nested.length ? { nestedIds: nested } : {}),
        ...(structFree ? { structFree } : nested.length ? { nestedType: f.type } : {}) })
      if (f.type && typeof f.type === 'object' && f.type.type === 'struct') walk(f.type.fields, namePath)
    }
  }
  walk(schema?.fields, [])
  return out
}

/**
 * The fields of every schema the table has had, or null when some may be missing: schemas are numbered from 0
 * without gaps, and a v1 table's lone `schema` is its only one.
 * @param {IcebergMetadata} metadata
 */
function everySchema(metadata) {
  const schemas = metadata.schemas
  if (!Array.isArray(schemas)) return metadata.schema ? [schemaFields(metadata.schema)] : null
  const ids = new Set(schemas.map((s) => s['schema-id']))
  if (!schemas.length || [...Array(schemas.length).keys()].some((id) => !ids.has(id))) return null
  return schemas.map(schemaFields)
}

/** @param {Record<string, string> | undefined} properties */
function truncateLength(properties) {
  let n = DEFAULT_TRUNCATE
  for (const [key, value] of Object.entries(properties ?? {})) {
    if (!key.startsWith('write.metadata.metrics.')) continue
    const m = /^truncate\((\d+)\)$/.exec(String(value))
    if (m) n = Math.min(n, Number(m[1]))
  }
  return n
}

/**
 * The writer, for the writer rules: 'delta-uniform' when Delta wrote this Iceberg metadata, else the engine.
 * @param {IcebergMetadata} metadata
 * @param {IcebergSnapshot | null | undefined} snapshot
 * @returns {string}
 */
export function icebergWriter(metadata, snapshot) {
  const keys = [...Object.keys(metadata.properties ?? {}), ...Object.keys(snapshot?.summary ?? {})]
  if (keys.some((k) => /^delta[-.]/.test(k))) return 'delta-uniform'
  /** @type {Record<string, any>} */
  const s = snapshot?.summary ?? {}
  return s['engine-name'] ?? (s['spark.app.id'] ? 'spark' : s.trino_query_id ? 'trino' : s['iceberg-version'] ?? 'iceberg')
}

/**
 * @template V
 * @param {Array<{ key: number, value: V }> | null | undefined} entries an Avro map of field ids
 * @returns {Map<number, V>}
 */
const mapOf = (entries) => new Map((entries ?? []).map((e) => [e.key, e.value]))

/**
 * A manifest entry's data file as Avro decoded it (spec "Manifests": data_file), the fields read here.
 * @typedef {{ content?: number, file_path: string, file_size_in_bytes: bigint | number, record_count: bigint | number,
 *   partition?: Record<string, unknown>, equality_ids?: number[] | null, file_format?: string, referenced_data_file?: string | null,
 *   content_offset?: bigint | number | null, content_size_in_bytes?: bigint | number | null,
 *   lower_bounds?: Array<{ key: number, value: Uint8Array }> | null, upper_bounds?: Array<{ key: number, value: Uint8Array }> | null,
 *   null_value_counts?: Array<{ key: number, value: bigint }> | null, value_counts?: Array<{ key: number, value: bigint }> | null,
 *   nan_value_counts?: Array<{ key: number, value: bigint }> | null }} IcebergDataFile
 * @typedef {{ status: number, sequence_number?: bigint | null, data_file: IcebergDataFile }} IcebergManifestEntry
 *   status: 0 EXISTING, 1 ADDED, 2 DELETED
 */

/**
 * The column facts of one data file (manifest entry), by field id.
 * @param {IcebergDataFile} dataFile
 * @param {TableField[]} fields
 * @param {number} truncate
 * @param {string} writer
 * @returns {Map<number, ColumnFacts>}
 */
export function icebergColumnFacts(dataFile, fields, truncate, writer) {
  const lower = mapOf(dataFile.lower_bounds)
  const upper = mapOf(dataFile.upper_bounds)
  const nulls = mapOf(dataFile.null_value_counts)
  const values = mapOf(dataFile.value_counts)
  const nans = mapOf(dataFile.nan_value_counts)
  const facts = new Map()
  for (const field of fields) {
    /** @type {ColumnFacts} */
    const f = {}
    const rules = tableBoundRules(writer, field.type)
    if (!rules.some((r) => r.effect === 'ignore-bounds')) {
      const lo = lower.get(field.id)
      const hi = upper.get(field.id)
      const mayBeFloat = rules.some((r) => r.effect === 'bound-may-be-float')
      if (lo) f.lower = mayBeFloat ? withFloatReading(decodeBound(field.type, lo), 'lower') : decodeBound(field.type, lo)
      if (hi && !rules.some((r) => r.effect === 'ignore-upper-bound')) {
        const upper = mayBeFloat ? withFloatReading(decodeBound(field.type, hi), 'upper') : decodeBound(field.type, hi)
        f.upper = upper
        const text = field.type.kind === 'string'
        const len = text ? utf8Length(hi) : hi.length
        const prefixRule = rules.some((r) => r.effect === 'upper-bound-is-prefix')
        // Bounds of these types decode to their bytes.
        if ((text || field.type.kind === 'binary' || field.type.kind === 'fixed') && (len >= truncate || prefixRule) &&
          upper instanceof Uint8Array) {
          f.upperPrefix = text ? utf8Prefix(upper, Math.min(truncate, len)) : upper.subarray(0, Math.min(truncate, len))
        }
      }
    }
    if (field.type.kind === 'uuid' && (f.lower !== undefined || f.upper !== undefined)) f.uuidOrders = true
    const nullCount = nulls.get(field.id)
    const valueCount = values.get(field.id)
    const nanCount = nans.get(field.id)
    if (nullCount !== undefined) f.nullCount = BigInt(nullCount)
    if (valueCount !== undefined) f.valueCount = BigInt(valueCount)
    if (nanCount !== undefined) f.nanCount = BigInt(nanCount)
    facts.set(field.id, f)
  }
  return facts
}

/**
 * A double bound that may be a float's shortest decimal read as a double (TABLE_BOUND_RULES 'bound-may-be-float'): the
 * least (lower) or greatest (upper) of it and the float32 it rounds to (both, halfway between two).
 * @param {import('./column-keys.js').Key | undefined} key
 * @param {'lower' | 'upper'} end
 */
function withFloatReading(key, end) {
  if (typeof key !== 'number' || !Number.isFinite(key)) return key
  const slot = valueKeys({ kind: 'float' }, [key])[0]
  const all = [key, ...(slot && 'keys' in slot ? slot.keys : []).filter((k) => typeof k === 'number')]
  return end === 'lower' ? Math.min(...all) : Math.max(...all)
}

/**
 * Loads an Iceberg table's files at a snapshot.
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 * @param {{ metadata?: string, snapshot?: string | number | bigint, rebase?: (path: string) => string | URL | null | undefined,
 *   allowOutside?: boolean | string[],
 *   tableIndex?: Promise<import('./table-snapshot-record.js').SnapshotRecord | null> }} options tableIndex: a table index's record
 */
export async function loadIceberg(io, root, options = {}) {
  const { location: metadataLocation, metadata } = await readIcebergMetadata(io, root, options)
  const formatVersion = metadata['format-version'] ?? 1
  if (formatVersion > 3) throw malformed(`${metadataLocation}: format-version ${formatVersion} is not supported`, metadataLocation)
  const snapshot = chooseSnapshot(metadata, options, metadataLocation)
  const schemaId = snapshot?.['schema-id'] ?? metadata['current-schema-id']
  const schema = (metadata.schemas ?? []).find((s) => s['schema-id'] === schemaId) ?? metadata.schema
  // Columns are asked for by the current schema's names; older files are matched by field id.
  const current = (metadata.schemas ?? []).find((s) => s['schema-id'] === metadata['current-schema-id']) ?? schema
  let fields = schemaFields(current)
  /** @type {Map<number, TableField>} */
  const allFields = new Map()
  for (const s of metadata.schemas ?? [metadata.schema]) for (const f of schemaFields(s)) if (!allFields.has(f.id)) allFields.set(f.id, f)
  for (const f of fields) allFields.set(f.id, f)
  // At a snapshot asked for by id or tag, a name is its schema's field, as Iceberg reads it (SnapshotUtil.schemaFor), even
  // where the current schema gives the name another field (names swapped, or a column dropped and re-added since): read
  // as the current one's, the snapshot's files answered for the other column. Names only the current schema has are kept
  // (fields added since: the snapshot's files lack them). Typed as the field's bounds are read.
  if (readsSnapshotSchema(metadata, options.snapshot) && schema !== current) {
    const asOf = schemaFields(schema).map((f) => ({ ...(allFields.get(f.id) ?? f), name: f.name, namePath: f.namePath }))
    const names = new Set(asOf.map((f) => f.name))
    fields = [...asOf, ...fields.filter((f) => !names.has(f.name))]
  }
  /** @type {Map<number, IcebergPartitionField[]>} */
  const specs = new Map((metadata['partition-specs'] ?? [{ 'spec-id': 0, fields: metadata['partition-spec'] ?? [] }])
    .map((s) => [s['spec-id'], (s.fields ?? []).map(singleSource)]))
  const resolve = pathResolver(root, { tablePrefix: metadata.location, rebase: options.rebase, allowOutside: options.allowOutside })
  const writer = icebergWriter(metadata, snapshot)
  const truncate = truncateLength(metadata.properties)
  const known = (metadata.schemas ?? [metadata.schema]).map(schemaFields)
  const fileColumns = new IcebergFileColumns(readNameMapping(metadata.properties), everySchema(metadata), known, fields)
  const base = { format: /** @type {const} */ ('iceberg'), formatVersion, metadataLocation, metadata, snapshot, writer, fields,
    fieldsById: allFields, specs, fileColumns }
  if (!snapshot) return { ...base, files: [], deleteFiles: [], manifests: [], scan: null }

  /** @returns {Promise<IcebergManifest[]>} */
  const listManifests = async () => {
    const listed = snapshot['manifest-list']
      ? (await io.readAllDecoded([resolve(String(snapshot['manifest-list'])).location], readAvroFile))[0].records
      : (snapshot.manifests ?? []).map((/** @type {string} */ path) => ({ manifest_path: path, partition_spec_id: -1, content: 0 }))
    const inline = !snapshot['manifest-list']
    return listed.map((/** @type {IcebergManifestListEntry} */ m, /** @type {number} */ index) => ({
      index,
      path: m.manifest_path,
      location: resolve(m.manifest_path).location,
      content: m.content ?? 0,
      specId: m.partition_spec_id,
      sequence: m.sequence_number ?? 0n,
      summaries: m.partitions ?? null,
      ...(inline ? { specInFile: true } : {}),
    }))
  }
  const context = { specs, allFields, resolve, truncate, writer }
  // A table index's snapshot record (js/table/table-index.js): the manifest list is read only when the
  // table has moved on since, and then only the manifests added since are.
  const record = await options.tableIndex
  const reason = record?.table === 'iceberg' ? untrustedRecord(record, metadata) : null
  if (record?.table === 'iceberg' && !reason) {
    const { IndexedIcebergScan } = await import('./iceberg-indexed.js')
    const scan = await IndexedIcebergScan.open(io, record, { snapshot, listManifests, context })
    return { ...base, files: scan.files, deleteFiles: scan.deleteFiles, manifests: scan.manifests, scan }
  }
  const manifests = await listManifests()
  const scan = new IcebergManifests(io, manifests, context)
  return { ...base, files: scan.files, deleteFiles: scan.deleteFiles, manifests, scan,
    ...(reason ? { indexed: { unchanged: false, replayed: true, reason } } : {}) }
}

/**
 * Why a table index's record does not stand for this table's manifests (a stable code), or null: another
 * table-uuid ('other-table'), or its snapshot not among the metadata's as it was recorded — the manifest
 * list, commit time and summary of a snapshot never change once committed ('snapshot-differs': expired, or
 * another table's history) — checked in the metadata.json already read.
 * @param {import('./table-snapshot-record.js').SnapshotRecord} record
 * @param {IcebergMetadata} metadata
 * @returns {import('../index.js').TableIndexUnusedReason | null}
 */
function untrustedRecord(record, metadata) {
  if (record.tableId !== undefined && record.tableId !== metadata['table-uuid']) return 'other-table'
  const found = (metadata.snapshots ?? []).find((s) => String(s['snapshot-id']) === record.snapshotId)
  if (!found) return 'snapshot-differs'
  const { manifestList, snapshotTimestampMs, snapshotSummary } = record
  if (manifestList !== undefined && (found['manifest-list'] ?? null) !== manifestList) return 'snapshot-differs'
  if (snapshotTimestampMs !== undefined && String(found['timestamp-ms']) !== snapshotTimestampMs) return 'snapshot-differs'
  if (snapshotSummary !== undefined && JSON.stringify(summaryOf(found)) !== JSON.stringify(snapshotSummary)) return 'snapshot-differs'
  return null
}

/**
 * A snapshot's summary as a table index records it: its entries as strings, by name.
 * @param {IcebergSnapshot | null | undefined} snapshot
 */
export function summaryOf(snapshot) {
  const summary = snapshot?.summary ?? {}
  return Object.fromEntries(Object.keys(summary).sort().map((k) => [k, String(summary[k])]))
}

/**
 * The live entries of one decoded manifest as table files (data or delete files).
 * @param {Pick<IcebergManifest, 'index' | 'specId' | 'content' | 'sequence'>} manifest
 * @param {IcebergManifestEntry[]} records
 * @param {ManifestContext} context
 * @returns {IcebergFile[]}
 */
export function manifestFiles(manifest, records, { specs, allFields, resolve, truncate, writer }) {
  // A spec the table does not list: its data files' partition values are not used. Its delete files' would say which
  // data files they apply to: read as a spec of no field, equality deletes would apply everywhere (a row of another
  // partition deleted), so they are refused.
  const specFields = specs.get(manifest.specId)
  const factFields = [...allFields.values()]
  /** @type {IcebergFile[]} */
  const out = []
  for (const entry of records) {
    if (entry.status === 2) continue // DELETED: no longer part of the table
    const dataFile = entry.data_file
    const sequence = entry.sequence_number ?? (entry.status === 1 ? manifest.sequence : 0n)
    const partitionValues = specFields ? Object.values(dataFile.partition ?? {}) : []
    // A partition tuple is its spec's fields in order: another count means another spec, whose values read as this
    // one's would rule files out by another column (a missing value would read as null: every row null).
    if (specFields && partitionValues.length !== specFields.length) {
      throw malformed(`${dataFile.file_path}: its partition has ${partitionValues.length} values, its partition spec ` +
        `${manifest.specId} ${specFields.length} fields`, String(dataFile.file_path))
    }
    const partitions = (specFields ?? []).map((pf, k) => {
      const transform = parseTransform(pf.transform)
      const source = allFields.get(pf['source-id'])
      const resultType = transformResultType(transform, source?.type ?? { kind: 'other' })
      return { name: pf.name, sourceId: pf['source-id'], transform, sourceType: source?.type,
        key: partitionKey(resultType, partitionValues[k]), raw: partitionValues[k] }
    })
    const { location, relative } = resolve(dataFile.file_path)
    const content = Number(manifest.content === 1 ? dataFile.content ?? 1 : dataFile.content ?? 0)
    if (!specFields && content !== 0) {
      throw malformed(`${dataFile.file_path}: a delete file of partition spec ${manifest.specId}, which the table's metadata ` +
        'does not list', String(dataFile.file_path))
    }
    // A deletion vector is a Puffin blob (spec "Deletion Vectors"); a position delete file in Parquet has no offset.
    const vector = content === 1 && String(dataFile.file_format ?? '').toUpperCase() === 'PUFFIN'
      ? { offset: Number(dataFile.content_offset ?? -1), size: Number(dataFile.content_size_in_bytes ?? -1) } : undefined
    out.push({
      path: relative,
      location,
      writtenPath: dataFile.file_path,
      size: Number(dataFile.file_size_in_bytes),
      recordCount: Number(dataFile.record_count),
      content,
      sequence,
      specId: manifest.specId,
      partitions,
      // A void field's value is null whatever its rows hold (a v1 table's dropped partition field): not one `where` compares.
      partitionValues: Object.fromEntries(partitions.filter((p) => p.transform.name !== 'void')
        .map((p) => [p.name, partitionText(p.transform, p.sourceType, p.raw)])),
      columnFacts: icebergColumnFacts(dataFile, factFields, truncate, writer),
      equalityIds: dataFile.equality_ids ?? null,
      manifest: manifest.index,
      deletes: [],
      ...(dataFile.referenced_data_file ? { referencedDataFile: dataFile.referenced_data_file } : {}),
      ...(vector ? { vector } : {}),
    })
  }
  return out
}

/**
 * A snapshot's manifests, read as probes need them: a probe reads (in one wave) only the manifests
 * whose partition summaries may hold its values, and each manifest once; decoded manifests are shared
 * through the process-wide cache of immutable objects, so a second open of the table decodes none.
 * `files` and `deleteFiles` are the live files of the manifests read so far.
 */
export class IcebergManifests {
  /** @type {IcebergFile[]} */
  files = []
  /** @type {IcebergFile[]} */
  deleteFiles = []
  /** @type {Map<number, IcebergFile[]>} the files of each manifest read, by its index */
  #read = new Map()

  /**
   * @param {import('./table-io.js').TableIO} io
   * @param {IcebergManifest[]} manifests
   * @param {ManifestContext} context
   */
  constructor(io, manifests, context) {
    this.io = io
    this.manifests = manifests
    this.context = context
  }

  /** How many manifests the snapshot has, and how many have been read. */
  get counts() {
    return { total: this.manifests.length, read: this.#read.size }
  }

  /**
   * The data files a probe of `field` for these values (and `where`) must consider: those of every
   * manifest the summaries do not rule out, read now if they were not before.
   * @param {{ id: number, name: string, type: import('./column-keys.js').TableType } | null} field null: a column the table does not know
   *   (every manifest)
   * @param {ReturnType<typeof import('./column-keys.js').valueKeys> | null} keyed
   * @param {Record<string, unknown> | undefined} where
   */
  async filesFor(field, keyed, where) {
    const { specs, allFields } = this.context
    const needed = this.manifests.filter((m) => (!field || !keyed || manifestMayHoldValues(m, specs, field, keyed)) &&
      manifestMayMatchWhere(m, specs, allFields, where))
    // Manifests fetched: the requests sent, less those that were retries of one.
    const objectsRead = () => this.io.stats.requests - this.io.stats.retries
    const before = objectsRead()
    await this.#readManifests(needed)
    const files = needed.filter((m) => m.content === 0).flatMap((m) => this.#read.get(m.index) ?? [])
    return { files, manifests: {
      total: this.manifests.length, read: needed.length, skipped: this.manifests.length - needed.length, fetched: objectsRead() - before,
    } }
  }

  /** Every manifest read (one wave for those not read yet): `files` is then the snapshot's every live file. */
  async readAll() {
    await this.#readManifests(this.manifests)
  }

  /** @param {IcebergManifest[]} manifests */
  async #readManifests(manifests) {
    const pending = manifests.filter((m) => !this.#read.has(m.index))
    if (!pending.length) return
    const decoded = await this.io.readAllDecoded(pending.map((m) => m.location), readAvroFile)
    pending.forEach((manifest, k) => {
      if (this.#read.has(manifest.index)) return // read meanwhile by a concurrent probe
      const { meta } = decoded[k]
      if (manifest.specInFile) manifest.specId = specIdInFile(meta, this.context.specs)
      else if (meta['partition-spec-id'] !== undefined && meta['partition-spec-id'].trim() !== String(manifest.specId)) {
        // Which spec wrote its partition tuples is then a guess: read as the other's, they rule files out by other columns.
        throw malformed(`${manifest.path}: written with partition spec ${meta['partition-spec-id']}, the manifest list says ` +
          `${manifest.specId}`, manifest.location)
      }
      const files = manifestFiles(manifest, decoded[k].records, this.context)
      this.#read.set(manifest.index, files)
      for (const file of files) {
        if (file.content === 0) this.files.push(file)
        else this.deleteFiles.push(file)
      }
    })
    // In manifest order, as one eager read would list them.
    this.files.sort((a, b) => a.manifest - b.manifest)
    this.deleteFiles.sort((a, b) => a.manifest - b.manifest)
    if (this.deleteFiles.length) attachDeletes(this.files, this.deleteFiles)
  }
}

/**
 * The partition spec id a manifest's own metadata records (spec "Manifests": `partition-spec-id`), for one a v1
 * snapshot lists without a manifest list (which would say it). Without one, the table's spec when it has only one;
 * else -1, a spec of no known field: its files' partition values are not used.
 * @param {Record<string, string>} meta the manifest's Avro file metadata
 * @param {Map<number, IcebergPartitionField[]>} specs
 */
export function specIdInFile(meta, specs) {
  const text = meta['partition-spec-id']
  if (text !== undefined && /^\s*\d+\s*$/.test(text)) return Number(text)
  return specs.size === 1 ? [...specs.keys()][0] : -1
}

/**
 * Whether two raw partition values (as Avro decoded them) are one partition's: by kind and value, so that a null
 * is not the string "null" and -0.0 is not 0.0 (Iceberg's partition tuples are equal by Java's equals: NaN is NaN).
 * @param {unknown} a @param {unknown} b
 */
function samePartitionValue(a, b) {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return sameBytes(a, b)
  return Object.is(a ?? null, b ?? null)
}

/** @param {IcebergFile} a @param {IcebergFile} b */
const samePartition = (a, b) => a.specId === b.specId && a.partitions.length === b.partitions.length &&
  a.partitions.every((p, k) => samePartitionValue(p.raw, b.partitions[k].raw))

/**
 * The delete files that may apply to each data file (spec "Scan Planning"): position deletes and deletion vectors of
 * a sequence number ≥ the data file's, of that file when they name the one they are of, equality deletes of a greater
 * one; in the same partition, or global (a spec without fields, or with only void ones).
 * @param {IcebergFile[]} files
 * @param {IcebergFile[]} deleteFiles
 */
export function attachDeletes(files, deleteFiles) {
  for (const file of files) {
    file.deletes = []
    for (const del of deleteFiles) {
      // Unpartitioned: no field, or only void ones (a v1 table's dropped fields), as Iceberg's PartitionSpec.isUnpartitioned.
      const global = del.partitions.every((p) => p.transform.name === 'void')
      if (!(global || samePartition(file, del))) continue
      if (del.content === 1 && del.sequence >= file.sequence) {
        if (del.referencedDataFile !== undefined && del.referencedDataFile !== file.writtenPath) continue
        file.deletes.push(del.vector
          ? { kind: 'dv', puffin: { location: del.location, path: del.path, ...del.vector } }
          : { kind: 'position', location: del.location, path: del.path })
      } else if (del.content === 2 && del.sequence > file.sequence) {
        file.deletes.push({ kind: 'equality', location: del.location, path: del.path, equalityIds: del.equalityIds })
      }
    }
  }
}
