// An Iceberg table opened with a table index (js/table/table-index.js): its live files known from the
// index's snapshot record instead of its manifests. At the recorded snapshot nothing past metadata.json is
// read; at a later one, its manifest list, and only the manifests it lists that the record does not
// (manifests are immutable: one listed by both still holds the files recorded for it) — the files they
// add join, the files of recorded manifests no longer listed leave, and every delete file, recorded or
// new, is attached to every data file again. A probe of a column the index does not hold reads the
// manifests it needs as without an index (their bounds prune), through a scan of the whole snapshot.
import { attachDeletes, IcebergManifests, manifestFiles } from './iceberg.js'

/**
 * @typedef {import('./iceberg.js').IcebergFile} IcebergFile
 * @typedef {import('./iceberg.js').IcebergManifest} IcebergManifest
 * @typedef {import('./iceberg.js').ManifestContext} ManifestContext
 * @typedef {import('./table-snapshot-record.js').SnapshotRecord} SnapshotRecord
 * @typedef {import('./table-snapshot-record.js').RecordedFile} RecordedFile
 */

/**
 * One recorded file as the table file its manifest entry made of it (partition values, sequence, deletes), without bounds.
 * @param {RecordedFile} recorded
 * @param {ManifestContext} context
 */
function recordedTableFile(recorded, context) {
  const content = recorded.content ?? 0
  const manifest = { index: recorded.manifest ?? 0, specId: recorded.spec ?? 0, content: content > 0 ? 1 : 0, sequence: 0n }
  const partition = Object.fromEntries((recorded.partition ?? []).map((v, k) => [`p${k}`, v]))
  const entry = { status: 1, sequence_number: BigInt(recorded.sequence ?? 0),
    data_file: { content, file_path: recorded.path, file_size_in_bytes: recorded.size,
      record_count: recorded.records ?? 0, partition, equality_ids: recorded.equalityIds ?? null,
      referenced_data_file: recorded.referencedDataFile ?? null, file_format: recorded.vector ? 'PUFFIN' : 'PARQUET',
      content_offset: recorded.vector?.offset ?? null, content_size_in_bytes: recorded.vector?.size ?? null } }
  const [file] = manifestFiles(manifest, [entry], context)
  return Object.assign(file, { fromIndex: true })
}

export class IndexedIcebergScan {
  /** @type {IcebergFile[]} every live data file known: the record's still live, then those read since */
  files = []
  /** @type {IcebergFile[]} */
  deleteFiles = []
  /** @type {IcebergManifest[]} the current snapshot's manifests once its list is read (empty at the recorded snapshot) */
  manifests = []
  #io
  #context
  #listManifests
  /** @type {IcebergFile[]} the recorded data files still live */
  #kept
  /** @type {IcebergFile[]} */
  #keptDeletes
  /** @type {IcebergManifests | null} the manifests added since the recorded snapshot */
  #added
  /** @type {IcebergManifests | null} the whole snapshot, for probes of columns the index does not hold */
  #whole = null
  #recordedManifests
  #indexedColumns

  /**
   * @param {import('./table-io.js').TableIO} io
   * @param {import('./table-snapshot-record.js').SnapshotRecord} record
   * @param {{ snapshot: import('./iceberg.js').IcebergSnapshot, listManifests: () => Promise<IcebergManifest[]>,
   *   context: ManifestContext, indexedColumns?: string[] }} at
   */
  static async open(io, record, { snapshot, listManifests, context }) {
    const unchanged = String(snapshot['snapshot-id']) === record.snapshotId
    const manifests = unchanged ? [] : await listManifests()
    return new IndexedIcebergScan(io, record, { unchanged, manifests, listManifests, context })
  }

  /**
   * @param {import('./table-io.js').TableIO} io
   * @param {SnapshotRecord} record
   * @param {{ unchanged: boolean, manifests: IcebergManifest[], listManifests: () => Promise<IcebergManifest[]>,
   *   context: ManifestContext }} at
   */
  constructor(io, record, { unchanged, manifests, listManifests, context }) {
    this.#io = io
    this.#context = context
    this.#listManifests = listManifests
    this.manifests = manifests
    // An Iceberg record always lists its manifests (js/table/table-snapshot-record.js refuses one without).
    const recordedManifests = record.manifests ?? []
    this.#recordedManifests = recordedManifests
    this.#indexedColumns = new Set(record.columns ?? [])
    const listed = new Set(manifests.map((m) => m.path))
    const recorded = new Set(recordedManifests)
    const stillListed = (/** @type {RecordedFile} */ f) => unchanged || listed.has(recordedManifests[f.manifest ?? -1])
    this.#kept = record.files.filter(stillListed).map((f) => recordedTableFile(f, context))
    this.#keptDeletes = (record.deleteFiles ?? []).filter(stillListed).map((f) => recordedTableFile(f, context))
    const added = manifests.filter((m) => !recorded.has(m.path))
    this.#added = added.length ? new IcebergManifests(io, added, context) : null
    /** Whether the table is at the recorded snapshot, and how many manifests the record stood for. */
    this.indexed = {
      unchanged, manifestsFromIndex: unchanged ? recordedManifests.length : manifests.length - added.length, manifestsAdded: added.length,
    }
    this.#refresh()
  }

  /** How many manifests the snapshot has, and how many were read (the record's count as the total while the list is unread). */
  get counts() {
    const total = this.manifests.length || this.#recordedManifests.length
    return { total, read: (this.#added?.counts.read ?? 0) + (this.#whole?.counts.read ?? 0) }
  }

  /**
   * A probe's files: of a column the index holds, the record's live files and those of the manifests
   * added since that the summaries keep; of another column, the whole snapshot's as without an index.
   * @param {Parameters<IcebergManifests['filesFor']>[0]} field
   * @param {Parameters<IcebergManifests['filesFor']>[1]} keyed
   * @param {Parameters<IcebergManifests['filesFor']>[2]} where
   */
  async filesFor(field, keyed, where) {
    if (!field || !this.#indexedColumns.has(field.name)) {
      if (!this.#whole) {
        if (!this.manifests.length) this.manifests = await this.#listManifests()
        this.#whole = new IcebergManifests(this.#io, this.manifests, this.#context)
      }
      const plan = await this.#whole.filesFor(field, keyed, where)
      this.#refresh()
      return plan
    }
    const fetched = this.#io.stats.requests - this.#io.stats.retries
    const added = this.#added
      ? await this.#added.filesFor(field, keyed, where)
      : { files: [], manifests: { total: 0, read: 0, skipped: 0, fetched: 0 } }
    this.#refresh()
    const total = this.counts.total
    return { files: [...this.#kept, ...added.files],
      // read + skipped (by the summaries, of those added since) + fromIndex (the record's, still listed) = total
      manifests: { total, read: added.manifests.read, skipped: added.manifests.skipped,
        fetched: this.#io.stats.requests - this.#io.stats.retries - fetched, fromIndex: total - added.manifests.total } }
  }

  /** Every live file: the record's and those of every manifest added since (one wave). */
  async readAll() {
    await this.#added?.readAll()
    this.#refresh()
  }

  /** `files` and `deleteFiles` again, deletes attached across recorded and new files (the arrays are kept: the table holds them). */
  #refresh() {
    const seen = new Set()
    const data = []
    for (const f of [...this.#kept, ...(this.#added?.files ?? []), ...(this.#whole?.files ?? [])]) {
      if (seen.has(f.path)) continue
      seen.add(f.path)
      data.push(f)
    }
    const deletes = []
    const seenDeletes = new Set()
    for (const d of [...this.#keptDeletes, ...(this.#added?.deleteFiles ?? []), ...(this.#whole?.deleteFiles ?? [])]) {
      if (seenDeletes.has(d.path)) continue
      seenDeletes.add(d.path)
      deletes.push(d)
    }
    if (deletes.length) attachDeletes(data, deletes)
    this.files.splice(0, this.files.length, ...data)
    this.deleteFiles.splice(0, this.deleteFiles.length, ...deletes)
  }
}
