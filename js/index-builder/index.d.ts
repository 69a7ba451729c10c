// Types of 'parquet-bloom/index-builder' (js/index-builder/index.js): giving files the indexes they lack.
import type { DatasetIndexStatus, DecryptionOptions, ErrorCodeValue, ProbeValueResult, StaleIndexReason, ValidatorKind } from '../index.js'

type Source = string | URL | Blob | ArrayBuffer | ArrayBufferView | { byteLength: number, slice(start: number, end?: number): unknown }
/** A Node path (written under a temporary name, then renamed), a Node Writable, a WritableStream, or null for a Blob. */
type Sink = string
  | { write(chunk: Uint8Array, callback?: (error?: Error | null) => void): boolean, end(callback?: () => void): unknown }
  | WritableStream<Uint8Array>
  | null

export const INDEXES_KEY: 'parquet-bloom.indexes'

export interface AddIndexesOptions {
  /** The columns to give bloom filters (dotted paths or path segments). */
  columns: Array<string | string[]>
  /** Target false-positive rate of each filter (default 0.01). */
  fpp?: number
  /** 'auto' (default): each chunk's distinct values counted; a number sizes every filter for it. */
  ndv?: 'auto' | number
  /** Build filters also for chunks that have a usable one. */
  replace?: boolean
  /** Also write an OffsetIndex for chunks without one, and a ColumnIndex where the file declares TYPE_ORDER. */
  pageIndex?: boolean
  /** Bytes per read: of the file copied across, and of a chunk's pages decoded at once (default 4 MiB). */
  windowBytes?: number
  signal?: AbortSignal
  /**
   * The keys of an encrypted file (as openParquet takes them). Without them an encrypted file is refused (ENCRYPTED); with
   * them, filters of encrypted chunks are written as encrypted modules (BloomFilter Header and Bitset, the column's key),
   * so are their new page indexes (ColumnIndex and OffsetIndex modules), and the footer is encrypted or signed again with the
   * footer key, which is therefore required (ENCRYPTION_KEY_REQUIRED).
   */
  decryption?: DecryptionOptions
}

export interface AddIndexesResult {
  bytesRead: number
  bytesWritten: number
  /** encrypted: the filter was written as two encrypted modules (`length` covers both). */
  added: Array<{
    rowGroup: number, column: string, offset: number, length: number, ndv: number, exact: boolean, numBytes: number, encrypted?: true
  }>
  /** encrypted: each index was written as an encrypted module under the column's key (`length` covers the module). */
  pageIndexes: Array<{
    rowGroup: number, column: string, offsetIndex: { offset: number, length: number }, columnIndex?: { offset: number, length: number },
    encrypted?: true
  }>
  /**
   * has-filter: kept, usable (no `replace`); unreadable-pages: nothing written (also AES_GCM_CTR_V1 pages, which nothing
   * authenticates); no-column-metadata; external-file: the chunk's file_path names another file, where its pages lie;
   * no-page-index: pages that do not start rows, or bounds that cannot be written
   * (the chunk has no new page index); no-key: the chunk is encrypted and its key was not given.
   */
  skipped: Array<{
    rowGroup: number, column: string,
    reason: 'has-filter' | 'unreadable-pages' | 'no-column-metadata' | 'external-file' | 'no-page-index' | 'no-key',
    detail: string
  }>
  /** With a null sink. */
  blob?: Blob
}

/** A copy of `source` with bloom filters for `options.columns`; pages copied unchanged. Encrypted files without `decryption`: ENCRYPTED. */
export function addIndexes(source: Source, sink: Sink, options: AddIndexesOptions): Promise<AddIndexesResult>

export interface SidecarBuildOptions {
  columns: string[]
  fpp?: number
  ndv?: 'auto' | number
  /**
   * Recorded paths are relative to it: local paths under a folder, URLs under a URL (default: the index file's directory when the sink
   * is a path; else paths are recorded as given).
   */
  base?: string
  /** The old index (anything openSidecarIndex takes): entries of unchanged files are kept, new files indexed, gone ones dropped. */
  update?: Source
  /** Bitset bytes gathered before a segment's regions are written (default 32 MiB): what memory holds of them. */
  segmentBytes?: number
  /**
   * 2 (default): bit-sliced filters and a fixed-width files part, for datasets of many files (docs/sidecar-index.md "Format 2");
   * 1: block-major filters and a JSON directory, read whole.
   */
  format?: 1 | 2
  signal?: AbortSignal
  /**
   * Only the files of shard `index` of `count` (by a hash of each recorded path: the same on every machine), written as a
   * segment that mergeSidecarSegments() joins with the other shards' into the index a build of all the files writes.
   */
  shard?: { index: number, count: number }
  /** Files read at once (default 32 when any input is a URL, else 8); their requests share one window of twice that. */
  concurrency?: number
  /** Chunk bytes read ahead over all files in flight (default 64 MiB): with the files in flight, what bounds memory. */
  prefetchBytes?: number
  /** The fetch URLs are read (and HEAD-checked) with (default: Node's keep-alive transport, elsewhere the runtime's). */
  fetch?: typeof fetch
  /**
   * A table index (docs/table-index.md): the live data files of this Iceberg or Delta table (its root folder or URL, or
   * { location, format, snapshot, version, fetch, headers, … } as openTable takes them) at its current (or given) snapshot or
   * version, with that snapshot recorded in the index, so openTable(…, { index }) reads no manifest or commit while the table is
   * still there. `files` is then ignored (pass null); always format 2; recorded paths are relative to the table's root.
   */
  table?: string | URL | ({ location: string | URL } & Pick<import('../index.js').OpenTableOptions,
    'format' | 'snapshot' | 'version' | 'metadata' | 'rebase' | 'allowOutside' | 'fetch' | 'headers'>)
}

/**
 * What a table index recorded: the snapshot (Iceberg) or version (Delta), and for Iceberg the `statistics` entry that would
 * register it.
 */
export interface TableIndexBuilt {
  format: 'iceberg' | 'delta'
  /** Iceberg: the snapshot id, as decimal digits. */
  snapshot?: string
  /** Delta: the version. */
  version?: number
  /**
   * Iceberg: an entry for the table metadata's `statistics` list (table spec "Table Statistics"); set `statistics-path` to where the
   * index is stored, and write `snapshot-id` and each blob's `snapshot-id` and `sequence-number` as JSON numbers (they are longs).
   */
  statistics?: { 'snapshot-id': string, 'statistics-path': string | null, 'file-size-in-bytes': number, 'file-footer-size-in-bytes': number,
    'blob-metadata': Array<{
      type: string, 'snapshot-id': string, 'sequence-number': string, fields: number[], properties?: Record<string, string>
    }> }
}

export interface SidecarMergeOptions {
  /** The merged index's format (default: the first segment's). */
  format?: 1 | 2
  /** As SidecarBuildOptions.segmentBytes. */
  segmentBytes?: number
  /** The fetch segments given as URLs are read with. */
  fetch?: typeof fetch
  signal?: AbortSignal
}

/**
 * One sidecar index from the segments of a sharded build (every shard of one build, each once), reading no Parquet file:
 * the same index, byte for byte, as a build of all the files at once. Indexes built whole merge too, their files ordered by
 * path. Relative paths are rewritten when a segment lies in another directory than the merged index. Segments of different
 * builds, a shard twice or missing, other columns or fpp, or a file in two segments: INVALID_ARGUMENT.
 */
export function mergeSidecarSegments(segments: Source[], sink: Sink, options?: SidecarMergeOptions): Promise<{
  format: 1 | 2, segments: number, files: number, chunks: number, bytesWritten: number, blob?: Blob
}>

/** One sidecar index (a Puffin file, docs/sidecar-index.md) for many files. */
export function buildSidecarIndex(files: string[] | null, sink: Sink, options: SidecarBuildOptions): Promise<{
  format: 1 | 2, files: number, rebuilt: number, kept: number, dropped: number, chunks: number, bytesWritten: number, blob?: Blob,
  /** With `table`: what the table index recorded. */
  table?: TableIndexBuilt
  /**
   * How many files the index records with each kind of validator — what a probe compares: an mtime (local paths) matches
   * the file read by its path only, never an ETag or Last-Modified over HTTP (build from the URLs for that); none: a file
   * from memory, or a URL whose server sent neither; unsettled: an mtime (less than 3 s before the build read the file)
   * or Last-Modified (less than 3 s before the response's Date; an ETag sent with one too) so recent that a rewrite of
   * the same size could keep it — such a file answers stale-index (validator-unsettled) until the index is built or
   * updated again.
   */
  validators: Partial<Record<Exclude<ValidatorKind, 'other'> | 'none', number>>
  skipped: Array<{ file: string, rowGroup?: number, column?: string, detail: string }>
}>

export interface SidecarProbeResult {
  column: string
  /**
   * current: the index describes the file as it is; when not, `reason` says why (never no-path or not-described here),
   * `validators` the kinds with validator-kind-differs, and every result is unknown (stale-index).
   */
  files: Array<{ path: string, current: boolean, reason?: StaleIndexReason, detail?: string,
    validators?: { recorded: ValidatorKind, found: ValidatorKind | 'none' },
    /**
     * A described file whose column type refuses a value ('abc' for an INT32: BAD_VALUE), as a dataset file's `error`: every
     * result of the file is then unknown (file-error). Only that file: the others answer.
     */
    error?: { code: ErrorCodeValue, message: string },
    /**
     * numRows: null where a format-2 index did not read the file's details (only the bloom check was needed). Format 2 shares
     * row-group and result objects between files that answer alike: treat them as read-only.
     */
    rowGroups: Array<{ index: number, numRows: number | null, results: ProbeValueResult[] }> }>
}

/** One file as a sidecar index records it (docs/sidecar-index.md "Files"). */
export interface SidecarFileEntry {
  /** As recorded: relative to the index's base, or as given. */
  path: string
  size: number
  /** `mtime:<ms>` (local), `etag:…` or `last-modified:…` (URL), null (memory). */
  validator: string | null
  numRows: number
  /** Per indexed column (dotted path): its types in this file. */
  columns: Record<string, { physicalType: string, typeLength: number | null, logicalType: object | null }>
  /**
   * Per row group and column: [region, place in the region, numBytes, min, max] (min/max: JSON numbers, decimal strings
   * or hex, null where not recorded), or null when the chunk's pages could not be read fully.
   */
  rowGroups: Array<{
    numRows: number, chunks: Record<string, [number, number, number, number | string | null, number | string | null] | null>
  }>
}

export class SidecarIndex {
  private constructor()
  /**
   * The directory's files; like `directory`, INVALID_ARGUMENT until the directory is read (format 1: a probe, or loadDirectory();
   * format 2: loadDirectory()).
   */
  readonly files: SidecarFileEntry[]
  /** The indexed columns (known from the footer, before the directory is read). */
  readonly columns: string[]
  /**
   * The directory as stored (docs/sidecar-index.md). A directory larger than the open's tail read is read by the
   * first probe (in one wave with its blocks) or by loadDirectory(); asking for it before is INVALID_ARGUMENT.
   */
  readonly directory: {
    format: string, version: number, writer: string, fpp: number, columns: string[],
    regions: Array<{ offset: number, count: number, numBytes: number }>, files: SidecarFileEntry[]
  }
  /**
   * Of the index: its reads, and the HEADs that check files are the ones it describes (requests, in the rounds they run beside;
   * `heads` of them).
   */
  readonly stats: { requests: number, bytesFetched: number, rounds: number, heads: number }
  /**
   * Reads the directory if opening did not (one read; format 2: every details page, the entries built from them); a probe does
   * not need this.
   */
  loadDirectory(options?: { signal?: AbortSignal }): Promise<void>
  /**
   * Per file and row group, from the index alone: one wave of 32-byte block reads (the first probe of an index
   * whose directory was not in the tail read: one wave of the directory and the block rows its values select).
   */
  probe(column: string, values: Iterable<unknown>, options?: {
    files?: Array<string | { path: string, size?: number, validator?: string | null }>, validate?: boolean, signal?: AbortSignal,
    /** Format 2: read the min/max of the files still open after the bloom check (default: when their pages are at most `boundsBytes`). */
    bounds?: boolean
    /**
     * The most answers (one per value for each row group of the files asked) the probe makes: past it, TOO_LARGE once the directory
     * says how many row groups, before they are made. Default 10,000,000; Infinity: no limit.
     */
    maxResults?: number
  }): Promise<SidecarProbeResult>
  /**
   * What openParquet(…, { index }) calls: sharpens the file's open results while the index describes it as it is. Says whether
   * it did (as a dataset reports it per file), or undefined when it was not asked (nothing open; a column or row groups it has no
   * entry for).
   */
  refine(probe: {
    name: string, fileSize: number, column: string, values: unknown[], rowGroups: unknown[],
    /** The file's row groups (all of them): another count than the entry's is `row-groups-differ`, nothing sharpened. */
    rowGroupCount?: number, signal?: AbortSignal
  }): Promise<DatasetIndexStatus | undefined>
  close(): Promise<void>
}

export interface OpenSidecarIndexOptions extends Pick<import('../index.js').OpenParquetOptions,
  'signal' | 'fetch' | 'headers' | 'maxBytes' | 'requestTimeoutMs' | 'userAgent' | 'retries' | 'name' | 'size' | 'fileSize' | 'etag'> {
  /** Where the index's relative paths are resolved (default: the index's own directory or URL). */
  base?: string
  /** Bytes read from the end of the index at open (default 256 KiB). */
  initialFetchSize?: number
  /** Format 2: details pages a probe reads, at most, for the min/max of the files still open after the bloom check (default 64 KiB). */
  boundsBytes?: number
}

/**
 * Opens a sidecar index: one tail read (two when its footer is larger than initialFetchSize, default 256 KiB). A directory
 * outside the tail read is read by the first probe, in the same wave as its blocks.
 */
export function openSidecarIndex(source: Source, options?: OpenSidecarIndexOptions): Promise<SidecarIndex>

/**
 * Per column, the share of probes of its own values each index would prune, and what filters would cost (inspect --advise; the
 * main entry's adviseIndexes is the same function).
 */
export function adviseIndexes(
  file: import('../index.js').ParquetFile, options?: import('../index.js').AdviseIndexesOptions,
): Promise<import('../index.js').IndexAdvice[]>
