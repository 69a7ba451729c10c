// A Delta table's live files at one version (Delta transaction log protocol): `_last_checkpoint`, the
// checkpoint it names (single, multi-part, or V2 with sidecars; Parquet read by hyparquet, loaded on
// demand) and the commits after it, all in one wave — never a replay from version 0 (but for a checkpoint gone:
// withoutCheckpoint). A file's identity is its path (canonicalized, js/table/delta-file-identity.js) AND its deletion
// vector: one commit may add (path, new DV) and remove (path, old DV).
// Per file: partition values (strings typed by the schema; empty means null) and the `stats` JSON
// (min/max/nullCount by physical column names when column mapping is on), or, in a checkpoint without
// it, the `stats_parsed` struct (PROTOCOL.md "Checkpoint Schema"), read by the same rules.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { parseExactJson, JsonNumber } from './exact-json.js'
import { isAbsolutePath, locationUnder, pathResolver, tableError } from './table-location.js'
import { textOf } from './table-io.js'
import { valueKeys } from './column-keys.js'
import { readBound } from './bound-precision.js'
import { tableBoundRules } from '../indexes/table-bound-rules.js'
import { readParquetRows } from './parquet-rows.js'
import { hyparquetMetadata } from '../pages/page-decode.js'
import { LOG_IDENTITY_BYTES, logIdentity, sameLogIdentity } from './log-identity.js'
import { DeltaLiveFiles, dvId } from './delta-file-identity.js'

/**
 * The log's actions (PROTOCOL.md "Actions"), the fields read here; a checkpoint's Parquet rows read as the same objects.
 * @typedef {{ path: string, size: number | bigint, partitionValues?: Record<string, string | null> | null, stats?: string | null,
 *   stats_parsed?: unknown, deletionVector?: import('./deletion-vector.js').DeletionVectorDescriptor | null,
 *   modificationTime?: number | bigint }} DeltaAdd
 *   an add action: a live file; stats: its statistics as JSON text; stats_parsed: a checkpoint's typed struct of them
 * @typedef {{ path: string, deletionVector?: import('./deletion-vector.js').DeletionVectorDescriptor | null }} DeltaRemove
 * @typedef {{ id?: string, schemaString: string, partitionColumns?: string[] | null,
 *   configuration?: Record<string, string> | null }} DeltaMetaData
 * @typedef {Record<string, unknown>} DeltaProtocol the reader and writer versions and features, kept as logged
 * @typedef {{ add?: DeltaAdd | null, remove?: DeltaRemove | null, metaData?: DeltaMetaData | null, protocol?: DeltaProtocol | null,
 *   sidecar?: { path: string } | null }} DeltaAction
 *
 * The log objects read for a version: a checkpoint's parts (none when it starts from a table index's record or
 * version 0), then the commits after it, in order.
 * @typedef {{ checkpointVersion: number, checkpointNames: string[], checkpointBytes: Uint8Array[], commits: number[],
 *   commitTexts: Uint8Array[] }} DeltaLog
 *
 * A field of the schema (metaData.schemaString), the fields read here.
 * @typedef {{ name: string, type: string | { type?: string, fields?: DeltaSchemaField[] },
 *   metadata?: Record<string, any> | null }} DeltaSchemaField
 *   metadata: the field's own keys (column mapping's physical name and id, type changes), values of any JSON shape
 * @typedef {import('./load-table.js').TableField & { physicalName: string, physicalPath: string[], topLevel: boolean,
 *   mappingId: unknown, widenedFrom: TableType[] }} DeltaField
 * @typedef {import('./load-table.js').TableFile & { logged: DeltaAdd }} DeltaFile
 *   a live file; logged: its add action as logged, for a table index's record (js/index-builder/table-index-build.js)
 * @typedef {import('./column-keys.js').TableType} TableType
 * @typedef {import('./table-io.js').TableIO} TableIO
 * @typedef {import('./table-location.js').TableRoot} TableRoot
 */

/** @param {string} message @param {string} [source] */
const malformed = (message, source) => tableError(ErrorCode.MALFORMED_TABLE, message, { source })
/** @param {number} v */
const pad = (v) => String(v).padStart(20, '0')
const COMMIT_BATCH = 8
// Delta truncates string statistics to 32 characters by default; the table property
// delta.dataSkippingStringPrefixLength can make that shorter (js/table/bound-precision.js reads them).
const STRING_PREFIX = 32

/**
 * @param {DeltaSchemaField['type'] | null | undefined} type
 * @returns {TableType}
 */
export function deltaType(type) {
  if (typeof type !== 'string') return { kind: 'other', name: type?.type ?? 'nested' }
  const decimal = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(type)
  if (decimal) return { kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) }
  /** @type {Record<string, TableType['kind']>} */
  const kinds = { byte: 'int', short: 'int', integer: 'int', long: 'long', float: 'float', double: 'double', boolean: 'boolean',
    string: 'string', binary: 'binary', date: 'date', timestamp: 'timestamptz', timestamp_ntz: 'timestamp' }
  return kinds[type] ? { kind: kinds[type] } : { kind: 'other', name: type }
}

/**
 * A table's column mapping mode, lowercased as Spark and the Delta kernels read it; 'none' without the property.
 * @param {DeltaMetaData | null | undefined} metaData
 */
export const deltaMappingMode = (metaData) => String(metaData?.configuration?.['delta.columnMapping.mode'] ?? 'none').toLowerCase()

/**
 * Fields of the Delta schema with logical and physical dotted names (column mapping), numbered. In mode `none` the
 * physical name is the logical one (PROTOCOL.md "Reader Requirements for Column Mapping": files, stats and partition
 * values by display names), whatever `delta.columnMapping.physicalName` the schema still carries: read by those, a
 * column's stats and values were another column's (a = 1 answered absent from b's bounds).
 * @param {{ fields?: DeltaSchemaField[] } | null | undefined} schema
 * @param {string} mode the table's column mapping mode (deltaMappingMode)
 */
export function deltaFields(schema, mode) {
  /** @type {DeltaField[]} */
  const out = []
  // Paths are kept as segments: a column may be named "a.b" (Spark allows dots in names), which the dotted names
  // cannot tell from a → b; split, its stats and file column were looked up as a struct a's b.
  /**
   * @param {DeltaSchemaField[] | undefined} fields
   * @param {string[]} path the logical path of the struct holding them
   * @param {string[]} physicalPath its physical path
   */
  const walk = (fields, path, physicalPath) => {
    for (const f of fields ?? []) {
      /** @type {string} */
      const physical = mode === 'none' ? f.name : f.metadata?.['delta.columnMapping.physicalName'] ?? f.name
      const own = { path: [...path, f.name], physicalPath: [...physicalPath, physical] }
      out.push({ id: out.length + 1, name: own.path.join('.'), namePath: own.path, physicalName: own.physicalPath.join('.'),
        physicalPath: own.physicalPath, type: deltaType(f.type), topLevel: path.length === 0,
        mappingId: f.metadata?.['delta.columnMapping.id'], widenedFrom: widenedFrom(f.metadata?.['delta.typeChanges']),
        ...(structFree(f.type) ? { structFree: true } : nestedUnder(f.type) ? { nestedType: f.type } : {}) })
      if (f.type && typeof f.type === 'object' && f.type.type === 'struct') walk(f.type.fields, own.path, own.physicalPath)
    }
  }
  walk(schema?.fields, [], [])
  return out
}

/** @param {unknown} type */
const nestedUnder = (type) => typeof type === 'object' && ['array', 'map'].includes(String(/** @type {any} */ (type)?.type))

/**
 * Whether a type is an array or map with no struct under it (arrays and maps of primitive types, or of such arrays and maps).
 * @param {unknown} type
 */
function structFree(type) {
  /** @type {(t: any) => boolean} */
  const free = (t) => typeof t === 'string' ||
    (t?.type === 'array' && free(t.elementType)) || (t?.type === 'map' && free(t.keyType) && free(t.valueType))
  return nestedUnder(type) && free(type)
}

/**
 * A Delta field's column in one data file (PROTOCOL.md "Reader Requirements for Column Mapping"): under column mapping
 * `id`, the column whose Parquet field_id is the field's `delta.columnMapping.id`, whatever its name — a table converted
 * from Iceberg names columns by their current names, and an old file may hold another field under that name; null when
 * the file has no such id (the column is null there, or, in a file without field ids, cannot be told). Otherwise its
 * physical path.
 * @param {{ physicalPath?: string[], mappingId?: unknown }} field
 * @param {string | undefined} mode the table's `delta.columnMapping.mode`
 * @param {Array<{ path: string[], fieldId?: number }>} columns the file's leaf columns
 * @returns {string[] | null}
 */
export function deltaColumnIn(field, mode, columns) {
  if (mode !== 'id') return field.physicalPath ?? null
  const id = Number(field.mappingId)
  return Number.isSafeInteger(id) ? columns.find((c) => c.fieldId === id)?.path ?? null : null
}

/** @type {WeakMap<import('../footer/footer.js').FileLayout, Array<{ path: string[], fieldId?: number }>>} */
const withGroups = new WeakMap()

/**
 * A data file's leaf columns and the groups of its schema that carry a field id, for deltaColumnIn under column mapping
 * `id`: writers put a field's id on its own schema element (PROTOCOL.md "Writer Requirements for Column Mapping"), and a
 * list's or map's is its group's — its leaves carry none (or the nested ids of "IcebergCompatV2"), so only the group
 * finds the column (read by leaf ids alone, a list column's values were null in every row). Read once per footer.
 * @param {import('../footer/footer.js').FileLayout} layout
 */
export async function readIdColumns(layout) {
  if (withGroups.has(layout)) return
  let schema
  try {
    schema = (await hyparquetMetadata(layout)).schema
  } catch {
    return // a footer hyparquet does not parse: its leaves' ids alone, as before
  }
  /** @type {Array<{ path: string[], fieldId?: number }>} */
  const groups = []
  let at = 1
  /** @param {string[]} parent @param {number} children */
  const walk = (parent, children) => {
    for (let k = 0; k < children && at < schema.length; k++) {
      const element = schema[at++]
      const path = [...parent, element.name]
      if (!element.num_children) continue
      if (element.field_id !== undefined) groups.push({ path, fieldId: element.field_id })
      walk(path, element.num_children)
    }
  }
  walk([], schema[0]?.num_children ?? 0)
  withGroups.set(layout, [...layout.columns, ...groups])
}

/**
 * The columns deltaColumnIn finds a field among: the leaves, and the groups with ids once readIdColumns has read them.
 * @param {import('../footer/footer.js').FileLayout} layout
 */
export const idColumns = (layout) => withGroups.get(layout) ?? layout.columns

/**
 * The types a field had before a widening (PROTOCOL.md "Type Widening": `delta.typeChanges` in the
 * field's metadata); entries with a `fieldPath` name a map key or value or an array element, not the field.
 * @param {unknown} changes
 */
function widenedFrom(changes) {
  if (!Array.isArray(changes)) return []
  return changes.filter((c) => c && typeof c.fromType === 'string' && c.fieldPath === undefined).map((c) => deltaType(c.fromType))
}

/**
 * @param {string} text
 * @param {string} name
 * @returns {DeltaAction[]}
 */
function parseLines(text, name) {
  const actions = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    let action
    try {
      action = JSON.parse(line)
    } catch (err) {
      throw malformed(`${name}: a line is not JSON (${/** @type {Error} */ (err).message})`, name)
    }
    // An action is an object (PROTOCOL.md "Delta Log Entries"); a `null` line was a TypeError when replayed.
    if (action === null || typeof action !== 'object' || Array.isArray(action)) throw malformed(`${name}: a line is not an action`, name)
    actions.push(action)
  }
  return actions
}

/**
 * A Parquet checkpoint's or sidecar's actions; MALFORMED_TABLE naming it when it does not read (js/table/parquet-rows.js).
 * @param {Uint8Array} bytes
 * @param {string} name
 * @returns {Promise<DeltaAction[]>}
 */
function parquetActions(bytes, name) {
  return readParquetRows(bytes, ['add', 'remove', 'metaData', 'protocol', 'sidecar', 'checkpointMetadata'], name)
}

/**
 * Which checkpoint to start from and which commits follow it, from a local listing.
 * @param {string[]} names
 * @param {number | undefined} wanted
 */
function planFromListing(names, wanted) {
  /** @type {Map<number, string>} */
  const commits = new Map()
  // By version, then by how many parts: two writers may leave checkpoints of one version cut in different numbers
  // of parts, each set whole only with all of its own parts.
  /** @type {Map<number, Map<number, Map<number, string>>>} version → parts in the set → part number → name */
  const checkpoints = new Map()
  for (const n of names) {
    let m = /^(\d{20})\.json$/.exec(n)
    if (m) { commits.set(Number(m[1]), n); continue }
    m = /^(\d{20})\.checkpoint(?:\.(\d+)\.(\d+))?(?:\.[0-9a-f-]{36})?\.(parquet|json)$/.exec(n)
    if (m) {
      const v = Number(m[1])
      const of = m[3] ? Number(m[3]) : 1
      const sets = checkpoints.get(v) ?? new Map()
      const set = sets.get(of) ?? new Map()
      const part = m[2] ? Number(m[2]) : 1
      // A V2 checkpoint may have both a .json and a .parquet form: one is enough, the JSON one when there is one.
      if (!set.has(part) || n.endsWith('.json')) set.set(part, n)
      checkpoints.set(v, sets.set(of, set))
    }
  }
  const latest = wanted ?? Math.max(-1, ...commits.keys(), ...checkpoints.keys())
  const whole = (/** @type {Map<number, Map<number, string>>} */ sets) =>
    [...sets].find(([of, set]) => Array.from({ length: of }, (_, i) => i + 1).every((part) => set.has(part)))?.[1]
  const usable = [...checkpoints].filter(([v, sets]) => v <= latest && whole(sets)).sort((a, b) => b[0] - a[0])
  const checkpointVersion = usable[0]?.[0] ?? -1
  const after = [...commits.keys()].filter((v) => v > checkpointVersion && v <= latest).sort((a, b) => a - b)
  for (let i = 0; i < after.length; i++) {
    if (after[i] !== checkpointVersion + 1 + i) throw malformed(`_delta_log: commit ${pad(checkpointVersion + 1 + i)}.json is missing`)
  }
  const chosen = usable[0] ? whole(usable[0][1]) : undefined
  const parts = chosen ? [...chosen].sort((a, b) => a[0] - b[0]).map(([, name]) => name) : []
  // A version asked for that the log does not reach is not the newest one read instead (as without a listing).
  if (wanted !== undefined && (after.length ? after[after.length - 1] : checkpointVersion) !== wanted) {
    throw malformed(`_delta_log: version ${wanted} does not exist`)
  }
  return { checkpointVersion, checkpointNames: parts, commits: after, latest }
}

/**
 * Loads a Delta table's live files: the log's objects read (readLog), replayed (replayLog), and each live
 * file described by its partition values and statistics (describeFiles). With a table index's snapshot record
 * (js/table/table-index.js): the recorded version's live files, then only the commits after it.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {{ version?: number, rebase?: (path: string) => string | URL | null | undefined, allowOutside?: boolean | string[],
 *   tableIndex?: Promise<import('./table-snapshot-record.js').SnapshotRecord | null>,
 *   tableIndexAt?: Promise<{ deltaVersion?: number, logObject?: string } | null> }} options
 *   tableIndex: a table index's record; tableIndexAt: the version and log object its footer names, known before the record is read
 */
export async function loadDelta(io, root, options = {}) {
  const tiedReads = startTiedReads(io, root, await options.tableIndexAt, options.version)
  const record = await options.tableIndex
  const delta = record?.table === 'delta' ? record : null
  const start = delta ? await recordStart(delta, tiedReads) : { since: null, reason: null }
  const { log, replayed, reason } = await replayFrom(io, root, options.version, delta, start)
  // The record's log object, read to tie it (the same bytes), is still in the log: the log holds its version. A read without
  // the record that ends before it missed commits no read without a listing sees (a gap a whole batch wide): an older version.
  if (reason === 'commits-unavailable' && options.version === undefined && delta && versionRead(log) < (delta.deltaVersion ?? -1)) {
    throw malformed(`${logLocation(root, '')}: the log holds version ${delta.deltaVersion} (the table index's), but its commits ` +
      `end at ${versionRead(log)} when read from its checkpoint: some between are missing`)
  }
  const { live, metaData, protocol } = replayed
  // A version asked for is read as it is; the newest the log holds may not be the table's newest.
  if (options.version === undefined) refuseCoordinated(protocol, metaData, logLocation(root, ''))
  const writer = 'delta'
  const { fields, files } = describeFiles(root, metaData, live, writer, options)
  const used = Boolean(start.since) && !reason
  return { format: /** @type {const} */ ('delta'), version: versionRead(log), metaData, protocol, writer, fields, files,
    columnMapping: deltaMappingMode(metaData),
    logObject: used && !log.commits.length ? delta?.logObject : versionObject(log),
    ...(delta ? { indexed: indexState(log, used, reason) } : {}) }
}

/**
 * Where a table index's record leaves the log to be read: the commits since its version (`since`), or null and
 * why the record is not used (a stable code, js/index.d.ts TableIndexUnusedReason).
 * @typedef {{ since: DeltaLog | null, reason: import('../index.js').TableIndexUnusedReason | null }} RecordStart
 */

/**
 * The reads a table index's footer lets start before its record is read: the commits after the recorded version,
 * and the start of the log object it names (which ties the record to this table's log). Null when the footer
 * names no version and log object (an index built before records named their log, or no index).
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {{ deltaVersion?: number, logObject?: string } | null | undefined} at
 * @param {number | undefined} wanted the version asked for
 */
function startTiedReads(io, root, at, wanted) {
  if (at?.deltaVersion === undefined || at.logObject === undefined) return null
  const identity = readLogIdentity(io, root, at.logObject)
  const reading = readLogSince(io, root, at.deltaVersion, wanted)
  identity.catch(() => {})
  reading.catch(() => {})
  return { deltaVersion: at.deltaVersion, identity, reading }
}

/**
 * Whether the record can be used, and the commits since it: it must name its log object, at the version the footer
 * names, and that object must be the one the log still holds; the commits after it must still be there.
 * @param {import('./table-snapshot-record.js').SnapshotRecord} delta a Delta table's record
 * @param {ReturnType<typeof startTiedReads>} tiedReads
 * @returns {Promise<RecordStart>}
 */
async function recordStart(delta, tiedReads) {
  if (!delta.logObject || !tiedReads) return { since: null, reason: 'untied-record' }
  if (delta.deltaVersion !== tiedReads.deltaVersion || !sameLogIdentity(delta.logObject, await tiedReads.identity)) {
    return { since: null, reason: 'log-differs' }
  }
  const since = await tiedReads.reading
  return since ? { since, reason: null } : { since: null, reason: 'commits-unavailable' }
}

/**
 * The log read and replayed: from the record on (the commits since it), else whole. A metaData action since that
 * names another table means the record was not this table's: the log is then read whole.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {number | undefined} wanted the version asked for
 * @param {import('./table-snapshot-record.js').SnapshotRecord | null} delta a Delta table's record
 * @param {RecordStart} start
 */
async function replayFrom(io, root, wanted, delta, { since, reason }) {
  const log = since ?? await readLog(io, root, wanted)
  const replayed = await replayLog(io, root, log, since ? delta : null)
  if (since && delta?.tableId !== undefined && replayed.metaData.id !== delta.tableId) {
    const whole = await readLog(io, root, wanted)
    return { log: whole, replayed: await replayLog(io, root, whole), reason: /** @type {const} */ ('other-table') }
  }
  return { log, replayed, reason }
}

/**
 * The version a log read stands at: its last commit's, else its checkpoint's.
 * @param {DeltaLog} log
 */
const versionRead = (log) => (log.commits.length ? log.commits[log.commits.length - 1] : log.checkpointVersion)

/**
 * What the table says of its index (js/index.d.ts ParquetTable's table.index): whether the table was at the
 * record's version and how many commits were read since, or, the record not used, why.
 * @param {DeltaLog} log
 * @param {boolean} used
 * @param {import('../index.js').TableIndexUnusedReason | null} reason
 */
function indexState(log, used, reason) {
  return used
    ? { unchanged: log.commits.length === 0, commitsRead: log.commits.length }
    : { unchanged: false, replayed: true, reason }
}

/**
 * The identity of the log object at the version read (js/table/log-identity.js): its last commit, or,
 * when no commit follows the checkpoint, the checkpoint (of a multi-part one, its first part).
 * Undefined when the log read holds neither (a table index's record stood for them).
 * @param {DeltaLog} log
 */
function versionObject(log) {
  if (log.commits.length) {
    const last = log.commits.length - 1
    const bytes = log.commitTexts[last]
    return logIdentity(`${pad(log.commits[last])}.json`, bytes, bytes.byteLength)
  }
  if (!log.checkpointNames.length) return undefined
  const first = log.checkpointNames.reduce((a, b, i) => (b < log.checkpointNames[a] ? i : a), 0)
  const bytes = log.checkpointBytes[first]
  return logIdentity(log.checkpointNames[first], bytes, bytes.byteLength)
}

/**
 * The identity of a log object as it is now: the start of it (one range read) and its size; null when it is
 * gone, or its size is not known (a response without a Content-Range it may read): then it is not tied either.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {string} name
 */
async function readLogIdentity(io, root, name) {
  const found = await io.readStart(logLocation(root, name), LOG_IDENTITY_BYTES)
  return found && found.size !== undefined ? logIdentity(name, found.bytes, found.size) : null
}

/**
 * The commits after a table index's recorded version `from`, and no checkpoint: from a listing, or by asking
 * for the next versions a batch at a time (the first batch beside `_last_checkpoint`). Null when they
 * cannot be had — a version before the recorded one was asked for, or the log no longer holds the commits
 * after it (cleaned up behind a newer checkpoint): the log is then read as without an index.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {number} from
 * @param {number | undefined} wanted
 * @returns {Promise<DeltaLog | null>}
 */
async function readLogSince(io, root, from, wanted) {
  if (wanted !== undefined && wanted < from) return null
  const log = (/** @type {string} */ name) => logLocation(root, name)
  /** @type {(commits: number[], commitTexts: Uint8Array[]) => DeltaLog} */
  const result = (commits, commitTexts) => ({ checkpointVersion: from, checkpointNames: [], checkpointBytes: [], commits, commitTexts })
  const listing = await io.list(logLocation(root, ''))
  if (listing) {
    const { latest } = planFromListing(listing, wanted)
    const names = new Set(listing)
    const versions = Array.from({ length: Math.max(0, latest - from) }, (_, i) => from + 1 + i)
    if (!versions.every((v) => names.has(`${pad(v)}.json`))) return null
    const locations = versions.map((v) => log(`${pad(v)}.json`))
    const [texts, same] = await Promise.all([io.readAll(locations, { immutable: true }), sameAsKept(io, locations)])
    if (!same) return createdAnew(io, root, () => readLogSince(io, root, from, wanted))
    return result(versions, texts)
  }
  /** @type {number[]} */
  const commits = []
  /** @type {Uint8Array[]} */
  const commitTexts = []
  let next = from + 1
  let checkpointed = -1 // the version _last_checkpoint (read beside the first batch) names
  for (let first = true; ; first = false) {
    const count = wanted !== undefined ? wanted - next + 1 : COMMIT_BATCH
    const versions = Array.from({ length: Math.max(0, count) }, (_, i) => next + i)
    const locations = versions.map((v) => log(`${pad(v)}.json`))
    const [batch, pointer, same] = await Promise.all([
      io.readAll(locations, { immutable: true, optional: true }),
      first ? io.read(log('_last_checkpoint'), { optional: true }) : null,
      first ? sameAsKept(io, locations) : true,
    ])
    if (!same) return createdAnew(io, root, () => readLogSince(io, root, from, wanted))
    if (first) checkpointed = lastCheckpointOf(pointer)?.version ?? -1
    const { got, gap } = commitsUpToMissing(batch)
    // The log goes on past the first missing commit (a later one is there, or a newer checkpoint): cleaned up past the
    // recorded version, or a gap. Read up to it, the table was an older version: the log is read as without an index
    // (from its newest checkpoint; a gap after that is MALFORMED_TABLE there).
    if (gap >= 0 || (got.length < versions.length && checkpointed > next - 1 + got.length)) return null
    if (wanted !== undefined && got.length < versions.length) return null
    commitTexts.push(...got)
    commits.push(...versions.slice(0, got.length))
    if (wanted !== undefined || got.length < versions.length || versions.length === 0) break
    next += COMMIT_BATCH
  }
  return result(commits, commitTexts)
}

/**
 * A batch of commits read without a listing, up to the first missing one (`got`), and where a later one is there
 * (`gap`, the index of the missing one; -1 when none): PROTOCOL.md's versions are contiguous, and delta-kernel-rs and
 * Spark refuse a listing with a gap after the checkpoint. Read up to the gap, the table was an older version, whose
 * probes answered `absent` for the files added after it.
 * @param {Array<Uint8Array | null>} batch
 */
function commitsUpToMissing(batch) {
  const end = batch.indexOf(null)
  if (end < 0) return { got: /** @type {Uint8Array[]} */ (batch), gap: -1 }
  const gap = batch.some((bytes, i) => i > end && bytes !== null) ? end : -1
  return { got: /** @type {Uint8Array[]} */ (batch.slice(0, end)), gap }
}

/**
 * Whether the newest of `locations` the process keeps from an earlier read is still what storage holds: one small
 * read, beside the reads of `locations` (called after them, so in their round). Log objects are written once, but a
 * table deleted and created anew at its location writes the same names again, and the kept ones would stand for it.
 * @param {TableIO} io
 * @param {string[]} locations in version order
 */
function sameAsKept(io, locations) {
  const newest = io.lastCached(locations)
  return newest === undefined ? true : io.stillAsCached(newest)
}

/**
 * The log of a table created anew at its location, read again once what was kept of the old one is dropped.
 * @template T
 * @param {TableIO} io @param {TableRoot} root @param {() => Promise<T>} read
 */
function createdAnew(io, root, read) {
  io.forgetUnder(logLocation(root, ''))
  return read()
}

/**
 * `_last_checkpoint` as read here: the checkpoint's version, its number of parts, a V2 checkpoint's file name. Null when
 * there is none, or it is not JSON (a write cut short) or names no version: delta-kernel-rs and Spark ignore such a file
 * and list the log; here the log is then read from commit 0 (thrown, it was a SyntaxError and the table unread).
 * @param {Uint8Array | null} bytes
 * @returns {{ version: number, parts: number, v2Path: string | undefined } | null}
 */
function lastCheckpointOf(bytes) {
  if (!bytes) return null
  let last
  try { last = parseExactJson(textOf(bytes)) } catch { return null }
  const version = Number(last?.version)
  if (!Number.isSafeInteger(version) || version < 0) return null
  const parts = Number(last.parts ?? 1)
  const v2Path = last.v2Checkpoint?.path
  return { version, parts: Number.isSafeInteger(parts) && parts > 1 ? parts : 1, v2Path: typeof v2Path === 'string' ? v2Path : undefined }
}

/**
 * The location of a log object, by a name this module chose (a version's, a checkpoint's, a sidecar's as the log names
 * it): under the root's _delta_log/.
 * @param {TableRoot} root
 * @param {string} name
 */
const logLocation = (root, name) => /** @type {string} */ (locationUnder(root, `_delta_log/${name}`))

/**
 * The checkpoint's parts and the commits after it, read in one wave: from a listing when the store has
 * one, else from the checkpoint `_last_checkpoint` names and the next versions probed (readLogFrom).
 * @returns {Promise<{ checkpointVersion: number, checkpointNames: string[], checkpointBytes: Uint8Array[], commits: number[],
 *   commitTexts: Uint8Array[] }>}
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {number | undefined} wanted
 * @param {boolean} [fromZero] `_last_checkpoint` not read: the log from commit 0 (withoutCheckpoint)
 */
async function readLog(io, root, wanted, fromZero = false) {
  const log = (/** @type {string} */ name) => logLocation(root, name)
  const listing = await io.list(logLocation(root, ''))
  if (listing) {
    const plan = planFromListing(listing, wanted)
    if (plan.latest < 0) throw malformed(`${log('')}: no commits`)
    const checkpoints = plan.checkpointNames.map(log)
    const commits = plan.commits.map((v) => log(`${pad(v)}.json`))
    const [checkpointBytes, commitTexts, same] = await Promise.all([
      io.readAll(checkpoints, { immutable: true }),
      io.readAll(commits, { immutable: true }),
      sameAsKept(io, [...checkpoints, ...commits]),
    ])
    if (!same) return createdAnew(io, root, () => readLog(io, root, wanted))
    return { ...plan, checkpointBytes, commitTexts }
  }
  const last = fromZero ? null : lastCheckpointOf(await io.read(log('_last_checkpoint'), { optional: true }))
  const start = last && (wanted === undefined || last.version <= wanted) ? last : null
  // Never null: only a read that starts from a checkpoint after a gap is (readLogFrom's afterGap).
  return /** @type {DeltaLog} */ (await readLogFrom(io, root, wanted, start))
}

/**
 * The log read without a listing from a checkpoint (none: from commit 0), its next versions probed a batch at a time (the first
 * batch in the same wave as the checkpoint; a wanted version is read exactly). A commit missing while a later one of the batch
 * is there is a gap: PROTOCOL.md's metadata cleanup keeps a checkpoint at the oldest version it keeps, which Spark and
 * delta-kernel-rs find by listing; here the classic one (`n.checkpoint.parquet`) of the first commit after the gap is tried,
 * once (`afterGap`; a multi-part or UUID-named one cannot be found without a listing). Read from it, the newest version is
 * read; read up to the gap, an older one was, whose newest files' values were answered absent: otherwise MALFORMED_TABLE.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {number | undefined} wanted
 * @param {{ version: number, parts: number, v2Path: string | undefined } | null} start the checkpoint (lastCheckpointOf's form)
 * @param {boolean} [afterGap] start is the checkpoint tried after a gap: null when it is not there
 * @returns {Promise<DeltaLog | null>}
 */
async function readLogFrom(io, root, wanted, start, afterGap = false) {
  const log = (/** @type {string} */ name) => logLocation(root, name)
  const checkpointVersion = start ? start.version : -1
  const checkpointNames = !start ? [] : start.parts > 1
    ? Array.from({ length: start.parts },
      (_, i) => `${pad(checkpointVersion)}.checkpoint.${pad(i + 1).slice(-10)}.${pad(start.parts).slice(-10)}.parquet`)
    : [start.v2Path ?? `${pad(checkpointVersion)}.checkpoint.parquet`]
  /** @type {number[]} */
  const commits = []
  /** @type {Uint8Array[]} */
  const commitTexts = []
  /** @type {Uint8Array[]} */
  let checkpointBytes = []
  let next = checkpointVersion + 1
  // Batches double: a log read without a checkpoint (none, or one gone: from 0) takes log2 rounds, not one per 8 commits,
  // and at most half of what is asked for is past the newest commit.
  for (let first = true, size = COMMIT_BATCH; ; first = false, size *= 2) {
    const count = wanted !== undefined ? wanted - next + 1 : size
    const versions = Array.from({ length: Math.max(0, count) }, (_, i) => next + i)
    const locations = versions.map((v) => log(`${pad(v)}.json`))
    const reads = io.readAll(locations, { immutable: true, optional: true })
    const checkpointRead = first ? io.readAll(checkpointNames.map(log), { immutable: true }).catch(
      (error) => { if (error?.code === ErrorCode.FILE_NOT_FOUND) return error; throw error }) : null
    const [batch, checkpoint, same] = await Promise.all([reads, checkpointRead,
      first ? sameAsKept(io, [...checkpointNames.map(log), ...locations]) : true])
    if (!same) return createdAnew(io, root, () => readLog(io, root, wanted))
    if (checkpoint instanceof Error && afterGap) return null
    const { got, gap } = commitsUpToMissing(batch)
    if (gap >= 0 && !afterGap) {
      const kept = versions[batch.findIndex((bytes, i) => i > gap && bytes !== null)]
      const fromKept = await readLogFrom(io, root, wanted, { version: kept, parts: 1, v2Path: undefined }, true)
      if (fromKept) return fromKept
    }
    if (checkpoint instanceof Error) return withoutCheckpoint(io, root, wanted, checkpointVersion, checkpoint)
    if (checkpoint) checkpointBytes = checkpoint // the first wave's
    if (gap >= 0) throw malformed(`${log('')}: commit ${pad(versions[gap])}.json is missing, but later ones are there`)
    commitTexts.push(...got)
    commits.push(...versions.slice(0, got.length))
    if (wanted !== undefined && got.length < versions.length) throw malformed(`${log('')}: version ${wanted} does not exist`)
    if (wanted !== undefined || got.length < versions.length || versions.length === 0) break
    next += size
  }
  if (commits.length === 0 && checkpointVersion < 0) throw malformed(`${log('')}: no _last_checkpoint and no commit 0`)
  return { checkpointVersion, checkpointNames, checkpointBytes, commits, commitTexts }
}

/**
 * The log from commit 0 when the checkpoint `_last_checkpoint` names is gone, or a part of it (PROTOCOL.md: readers
 * ignore a multi-part checkpoint with missing parts; Spark then lists the log from 0). Used only when the commits
 * read reach the checkpoint's version: fewer (cleaned up, or a gap) would be an older version read as the newest.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {number | undefined} wanted
 * @param {number} version the checkpoint's
 * @param {unknown} missing its read's FILE_NOT_FOUND, thrown when the commits cannot stand for it (none from 0)
 * @returns {Promise<DeltaLog>}
 */
async function withoutCheckpoint(io, root, wanted, version, missing) {
  // Only a log from 0 that is not there (no commit 0: MALFORMED_TABLE) gives way to the checkpoint's error; an abort, a
  // timeout or a failed read is its own answer (an abort read as FILE_NOT_FOUND was not one).
  const whole = await readLog(io, root, wanted, true).catch((error) => {
    if (error?.code === ErrorCode.MALFORMED_TABLE || error?.code === ErrorCode.FILE_NOT_FOUND) return null
    throw error
  })
  if (!whole || versionRead(whole) < version) throw missing
  return whole
}

/**
 * The log replayed: the checkpoint (and its sidecars, read in one more wave), then each commit in order.
 * A file's identity is its path and its deletion vector.
 * @param {TableIO} io
 * @param {TableRoot} root
 * @param {DeltaLog} log
 * @param {import('./table-snapshot-record.js').SnapshotRecord | null} [record] a table index's record: the live files
 *   at the version the log read starts after
 */
async function replayLog(io, root, log, record = null) {
  /** @type {DeltaLiveFiles<DeltaAdd>} */
  const live = new DeltaLiveFiles()
  let metaData = record?.metaData
  let protocol = record?.protocol
  // A table index's record stands for the checkpoint and commits up to its version.
  for (const f of record?.files ?? []) {
    const add = {
      path: f.path, size: f.size, partitionValues: f.partitionValues ?? {}, stats: f.stats, deletionVector: f.deletionVector ?? undefined,
      modificationTime: f.modificationTime,
    }
    live.add(add)
  }
  /** @param {DeltaAction} action */
  const apply = (action) => {
    if (action.add) live.add(action.add)
    else if (action.remove) live.remove(action.remove)
    else if (action.metaData) metaData = action.metaData
    else if (action.protocol) protocol = action.protocol
  }
  /** @type {string[]} */
  const sidecars = []
  for (let i = 0; i < log.checkpointBytes.length; i++) {
    const name = log.checkpointNames[i]
    const actions = name.endsWith('.json')
      ? parseLines(textOf(log.checkpointBytes[i]), name)
      : await parquetActions(log.checkpointBytes[i], name)
    for (const a of actions) {
      if (a.sidecar) sidecars.push(a.sidecar.path)
      // Checkpoint removes are tombstones of files no longer in the table: nothing to undo.
      else if (!a.remove) apply(a)
    }
  }
  if (sidecars.length) {
    // PROTOCOL.md "Sidecar File Information": a URI-encoded path, absolute or relative to _delta_log/_sidecars (Spark's
    // new Path(sidecarDir, path), delta-kernel-rs's URL join); read from _delta_log/ when it held a '/', it was not found.
    const resolve = pathResolver(root, { encoded: true })
    const found = sidecars.map((p) => resolve(isAbsolutePath(p) ? p : `_delta_log/_sidecars/${p}`))
    const names = found.map((f) => f.relative)
    const bytes = await io.readAll(found.map((f) => f.location), { immutable: true })
    // A sidecar is part of the checkpoint: its removes are tombstones too (Delta Kernel reads them as checkpoint batches).
    // Applied, one in a later sidecar dropped a live add of the same file, whose values were answered absent.
    for (let i = 0; i < bytes.length; i++) for (const a of await parquetActions(bytes[i], names[i])) if (!a.remove) apply(a)
  }
  log.commitTexts.forEach((bytes, i) => { for (const a of parseLines(textOf(bytes), `${pad(log.commits[i])}.json`)) apply(a) })
  if (!metaData) throw malformed(`${logLocation(root, '')}: no metaData action up to this version`)
  refuseUnreadable(protocol, logLocation(root, ''))
  return { live, metaData, protocol }
}

// The reader features (PROTOCOL.md "Table Features") whose tables are read as the protocol means them:
// column mapping, deletion vectors, timestamp_ntz, type widening (old files' bounds in their narrower type),
// v2 checkpoints (sidecars), vacuumProtocolCheck (a writers' rule) and variant columns (never probed: their
// files carry no statistics for them).
const READABLE_FEATURES = new Set(['columnMapping', 'deletionVectors', 'timestampNtz', 'typeWidening', 'typeWidening-preview',
  'v2Checkpoint', 'vacuumProtocolCheck', 'variantType', 'variantType-preview'])

/**
 * Refuses a table whose protocol asks its readers for what this one does not do (PROTOCOL.md "Protocol
 * Evolution": a reader must not read such a table). Read anyway, it could be answered wrong: a catalog-managed
 * table's newest commits are the catalog's, not yet in the log a reader of storage sees, so its newest rows
 * would be missed.
 * @param {DeltaProtocol | null | undefined} protocol
 * @param {string} where the log's location
 */
function refuseUnreadable(protocol, where) {
  const version = Number(protocol?.minReaderVersion ?? 1)
  const features = Array.isArray(protocol?.readerFeatures) ? protocol.readerFeatures.map(String) : []
  const unknown = version >= 3 ? features.filter((f) => !READABLE_FEATURES.has(f)) : []
  if (version <= 3 && unknown.length === 0) return
  const what = version > 3 ? `reader version ${version}` : `the reader feature${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`
  throw new ParquetBloomError(ErrorCode.UNSUPPORTED_TABLE, `${where}: the table's protocol requires ${what}, which parquet-bloom ` +
    'does not implement; its answers could be wrong, so the table is not read', { source: where })
}

/**
 * Refuses a table whose commits a commit coordinator holds (the writer feature `coordinatedCommits-preview`, with a
 * coordinator named in its configuration): its newest commits are written to `_delta_log/_commits/` under UUID names
 * and copied to the log only later, so the log holds an older version, and its newest rows would be answered `absent`.
 * A version asked for (time travel) is read: the log holds it whole once it is there.
 * @param {DeltaProtocol | null | undefined} protocol
 * @param {DeltaMetaData} metaData
 * @param {string} where the log's location
 */
function refuseCoordinated(protocol, metaData, where) {
  const features = Array.isArray(protocol?.writerFeatures) ? protocol.writerFeatures.map(String) : []
  const coordinator = metaData.configuration?.['delta.coordinatedCommits.commitCoordinator-preview']
  if (!features.includes('coordinatedCommits-preview') || !coordinator) return
  throw new ParquetBloomError(ErrorCode.UNSUPPORTED_TABLE, `${where}: the table's commits are coordinated by ` +
    `${JSON.stringify(coordinator)}, which holds its newest commits outside the log; read from the log alone its newest ` +
    'rows could be missed, so the table is not read', { source: where })
}

/**
 * The schema's fields and each live file: its location, partition values, column facts and deletes.
 * @param {TableRoot} root
 * @param {DeltaMetaData} metaData
 * @param {DeltaLiveFiles<DeltaAdd>} live
 * @param {string} writer
 * @param {{ rebase?: (path: string) => string | URL | null | undefined, allowOutside?: boolean | string[] }} options
 * @returns {{ fields: DeltaField[], files: DeltaFile[] }}
 */
function describeFiles(root, metaData, live, writer, options) {
  const fields = deltaFields(JSON.parse(metaData.schemaString), deltaMappingMode(metaData))
  const partitionColumns = new Set(metaData.partitionColumns ?? [])
  const configured = Number(metaData.configuration?.['delta.dataSkippingStringPrefixLength'])
  const prefixLength = Number.isInteger(configured) && configured > 0 ? Math.min(configured, STRING_PREFIX) : STRING_PREFIX
  const resolve = pathResolver(root, { encoded: true, rebase: options.rebase, allowOutside: options.allowOutside })
  const files = [...live.values()].map((add) => {
    const { location, relative } = resolve(add.path)
    return {
      path: relative,
      location,
      size: Number(add.size),
      partitions: deltaPartitions(fields, partitionColumns, add.partitionValues ?? {}),
      columnFacts: deltaFacts(fields, partitionColumns, add.stats, writer, prefixLength, add.stats_parsed),
      deletes: add.deletionVector ? [{ kind: /** @type {const} */ ('dv'), dv: add.deletionVector }] : [],
      // The add action as logged, for a table index's record (js/index-builder/table-index-build.js).
      logged: add,
      // By logical name, as a dataset `where` and people name them; empty means null, but a string's or binary's "" is kept
      // (emptyOrNull: a `where` of '' or of null keeps the file) and a value only under the logical name left out (any does).
      partitionValues: Object.fromEntries(fields.filter((f) => f.topLevel && partitionColumns.has(f.name)).flatMap((f) => {
        const { raw, orNull } = partitionRaw(add.partitionValues ?? {}, f)
        if (orNull && raw !== '') return []
        return [[f.name, raw === '' && !emptyOrNull(f.type, raw) ? null : raw ?? null]]
      })),
    }
  })
  refuseTwiceNamed(files)
  return { fields, files }
}

/**
 * Refuses a table whose live files name one data file twice with other deletion vectors or partition values (one add
 * relative, one absolute; or one path with two DVs and no remove, which PROTOCOL.md makes illegal): each is a logical
 * file of its own, whose rows Spark reads, but a probe knows a file by its path and read both with one's (`absent`
 * for a row only the other's DV deletes).
 * @param {DeltaFile[]} files
 */
function refuseTwiceNamed(files) {
  /** @type {Map<string, DeltaFile>} */
  const seen = new Map()
  // Its partitions' raw values too: partitionValues leaves out one logged under the logical name alone (describeFiles).
  const facts = (/** @type {DeltaFile} */ f) => JSON.stringify([dvId(f.logged.deletionVector), f.partitionValues,
    f.partitions.map((p) => p.raw ?? null)])
  for (const f of files) {
    const other = seen.get(f.path)
    if (other && facts(other) !== facts(f)) {
      throw malformed(`the log's live files name ${JSON.stringify(f.path)} twice (${JSON.stringify(other.logged.path)} and ` +
        `${JSON.stringify(f.logged.path)}) with other deletion vectors or partition values: not one file's rows`, f.path)
    }
    seen.set(f.path, f)
  }
}

/**
 * Whether a field is one of the table's partition columns (top-level, by logical name): its values in every file are the
 * add's partitionValues (deltaPartitions), never the data file's column of that name — one written before the column
 * was a partition column holds it as data, which Spark and delta-kernel-rs do not read.
 * @param {DeltaMetaData | null | undefined} metaData
 * @param {{ name: string, topLevel?: boolean }} field
 */
export const isDeltaPartitionColumn = (metaData, field) =>
  field.topLevel !== false && (metaData?.partitionColumns ?? []).includes(field.name)

/**
 * A field's partition value as logged: by its physical name, as Spark (TahoeFileIndex.getPartitionValuesRow) and
 * delta-kernel-rs read it only (no key: null). Some writers keyed it by the logical name under column mapping (Delta
 * Kernel Java's getWriteContext before delta#7212, sail before #1109): a value only there (the physical name not a key
 * at all; a null under it is the value) is that value to the writer and to readers that fall back to it (sail), null to
 * Spark: `orNull`. After renames the logical name may be another column's physical name: the same either-or.
 * @param {Record<string, string | null>} values
 * @param {DeltaField} field
 * @returns {{ raw: string | null | undefined, orNull?: boolean }}
 */
function partitionRaw(values, field) {
  if (Object.hasOwn(values, field.physicalName)) return { raw: values[field.physicalName] }
  const raw = Object.hasOwn(values, field.name) ? values[field.name] : undefined
  return typeof raw === 'string' ? { raw, orNull: true } : { raw: undefined }
}

/**
 * A string or binary partition value logged as "": null per PROTOCOL.md ("An empty string for any type translates to a
 * null partition value"), but '' (empty bytes) to Spark (TahoeFileIndex.getPartitionValuesRow, a non-ANSI Cast) and to
 * delta-kernel-rs (empty_string_partition_cast), and writers log it for either: delta-rs for '', duckdb-delta (before
 * its #342) for null. Either way no other value is there: `orNull`. For every other type all three read "" as null.
 * @param {import('./load-table.js').TableType} type
 * @param {string | null | undefined} raw
 */
const emptyOrNull = (type, raw) => raw === '' && (type.kind === 'string' || type.kind === 'binary')

/**
 * A file's partition values (its add action's, by physical or logical name; strings) typed by the schema.
 * @param {DeltaField[]} fields
 * @param {Set<string>} partitionColumns
 * @param {Record<string, string | null>} values
 * @returns {import('./load-table.js').FilePartition[]}
 */
export function deltaPartitions(fields, partitionColumns, values) {
  const out = []
  for (const field of fields) {
    if (!field.topLevel || !partitionColumns.has(field.name)) continue
    const { raw, orNull } = partitionRaw(values, field)
    // notInFile: Delta writes partition columns in the log, not in the data files (PROTOCOL.md "Partition Value Serialization").
    // orNull: the value or null by whom reads it: no other value is there, it may be (`maybe`), no row value (missing-columns.js).
    const base = { name: field.name, sourceId: field.id, transform: { name: 'identity' }, raw, notInFile: true }
    const empty = emptyOrNull(field.type, raw)
    const either = orNull || empty ? { orNull: true } : {}
    if (empty) { out.push({ ...base, ...either, key: new Uint8Array(0), keys: [new Uint8Array(0)] }); continue }
    // No key at all is null too, as Spark (TahoeFileIndex.getPartitionValuesRow) and delta-kernel-rs (parse_partition_value_raw)
    // read it, whatever the data file holds: a file written before the column was a partition column still has it as data.
    if (raw === undefined || raw === null || raw === '') { out.push({ ...base, raw: null, key: null }); continue }
    // A timestamp partition value without an offset is in a session time zone the log does not record.
    if (field.type.kind === 'timestamptz' && !/(Z|[+-]\d{2}:?\d{2})$/.test(raw)) continue
    // Binary partition values have no one text: the protocol's a character per byte, delta-rs's the six characters
    // \u00XX per byte, Spark's the bytes read as UTF-8 (lossy). Not used.
    if (field.type.kind === 'binary') continue
    let keyed
    try { keyed = valueKeys(field.type, [raw])[0] } catch { keyed = null }
    if (!keyed || !('keys' in keyed)) continue
    out.push({ ...base, ...either, keys: keyed.keys, key: keyed.keys[0] })
  }
  return out
}

/**
 * @param {unknown} object a statistics struct (minValues, nullCount, …) as parsed
 * @param {string[]} path the column's physical path in it
 * @returns {unknown}
 */
function statAt(object, path) {
  let v = object
  for (const p of path) {
    if (v === null || typeof v !== 'object' || v instanceof JsonNumber) return undefined
    v = /** @type {Record<string, unknown>} */ (v)[p]
  }
  return v
}

/**
 * A count from `stats` (JSON digits) or `stats_parsed` (a long, read as a bigint), else undefined.
 * @param {unknown} value
 */
function countOf(value) {
  if (value instanceof JsonNumber) return /^\d+$/.test(value.text) ? BigInt(value.text) : undefined
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  return undefined
}

/**
 * One file's column facts from its `stats` JSON text or, when that is missing, its checkpoint's
 * `stats_parsed` struct (the same fields, typed).
 * @param {DeltaField[]} fields
 * @param {Set<string>} partitionColumns
 * @param {string | null | undefined} statsText
 * @param {string} writer
 * @param {number} [prefixLength]
 * @param {unknown} [statsParsed]
 */
export function deltaFacts(fields, partitionColumns, statsText, writer, prefixLength = STRING_PREFIX, statsParsed = undefined) {
  /** @type {Map<number, import('./column-keys.js').ColumnFacts>} */
  const facts = new Map()
  let stats = null
  if (typeof statsText === 'string' && statsText !== '') {
    try { stats = parseExactJson(statsText, { rawNumbers: true }) } catch { stats = null }
  }
  if (!stats && statsParsed && typeof statsParsed === 'object') stats = statsParsed
  if (!stats || typeof stats !== 'object') return facts
  const numRecords = countOf(stats.numRecords)
  for (const field of fields) {
    if (partitionColumns.has(field.name)) continue
    if (tableBoundRules(writer, field.type).some((r) => r.effect === 'ignore-bounds')) continue
    /** @type {import('./column-keys.js').ColumnFacts} */
    const f = {}
    const context = { format: /** @type {const} */ ('delta'), type: field.type, widenedFrom: field.widenedFrom, prefixLength }
    const lower = readBound(context, statAt(stats.minValues, field.physicalPath), 'lower')
    const upper = readBound(context, statAt(stats.maxValues, field.physicalPath), 'upper')
    if (lower) f.lower = lower.key
    if (upper) f.upper = upper.key
    if (upper?.upperPrefix) f.upperPrefix = upper.upperPrefix
    const nulls = countOf(statAt(stats.nullCount, field.physicalPath))
    if (nulls !== undefined && field.topLevel) {
      f.nullCount = nulls
      if (numRecords !== undefined) f.valueCount = numRecords
    }
    if (Object.keys(f).length) facts.set(field.id, f)
  }
  return facts
}
