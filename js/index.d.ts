// TypeScript declarations for parquet-bloom's public API (js/index.js): bloom filters, Parquet files
// opened for probing, and the one error class with its stable codes.

// `using filter = BloomFilter.create(...)` needs Symbol.dispose; declared here (as @types/node does) so
// projects whose lib predates it still compile.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol
  }
}

// ---------------------------------------------------------------------------------------------------
// Module setup

/**
 * Loads the wasm module. Safe to call repeatedly; openParquet() calls it for you. The first call
 * decides how the module is loaded; later calls share it.
 */
export function init(options?: InitOptions): Promise<void>

export interface InitOptions {
  /**
   * `parquet_bloom.wasm` (exported as `parquet-bloom/parquet_bloom.wasm`) already compiled by the
   * platform, for runtimes that forbid compiling wasm from bytes at run time, such as Cloudflare
   * Workers / workerd, where importing the .wasm file yields a `WebAssembly.Module`. Nothing is then
   * fetched or compiled.
   */
  module?: WebAssembly.Module
}

/** Wasm memory in bytes: the whole linear memory, what the scratch pool holds, and what is in use. */
export function memoryStats(): MemoryStats

export interface MemoryStats {
  heapBytes: number
  poolBytes: number
  poolInUseBytes: number
  poolMaxBytes: number
}

/**
 * Bounds the wasm scratch pool (bitsets + batch scratch). Lowering it below what is in use takes
 * effect as blocks are released.
 */
export function configure(options?: { maxPoolBytes?: number }): void

// ---------------------------------------------------------------------------------------------------
// Bloom filters

/** Parquet physical types. */
/** Bytes from hex text ('0x' optional; whitespace, ':', '-', '_' ignored); BAD_VALUE on anything else. */
export function parseHexBytes(text: string): Uint8Array

/** A human label for a column type, e.g. "INT32 (DATE)" or "FIXED_LEN_BYTE_ARRAY(16) (UUID)". */
export function describeColumnType(
  column: { physicalType: PhysicalType, typeLength?: number | null, logicalType?: LogicalType | null }): string

export type PhysicalType = 'BOOLEAN' | 'INT32' | 'INT64' | 'INT96' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY' | 'FIXED_LEN_BYTE_ARRAY'

/** A physical type name, or one with its width (FIXED_LEN_BYTE_ARRAY needs typeLength). */
export type FilterValueType =
  | PhysicalType
  | { type: PhysicalType, typeLength?: number }
  | { physicalType: PhysicalType, typeLength?: number }

/** Arrow-style columnar input: fixed-width slots, BYTE_ARRAY data + offsets, or the BOOLEAN bitmap. */
export interface ColumnarValues {
  values: ArrayBufferView
  offsets?: Int32Array | Uint32Array | BigInt64Array
  validity?: Uint8Array
  offset?: number
  validityOffset?: number
  length: number
}

/**
 * A batch of physical values: an array (null/undefined are nulls), a typed array, Arrow-style columnar
 * buffers, or an Apache Arrow JS Vector (its type is inferred when `type` is omitted).
 * INT32: number; INT64: bigint or safe integer; FLOAT/DOUBLE: number; BYTE_ARRAY: string (UTF-8) or
 * Uint8Array; FIXED_LEN_BYTE_ARRAY / INT96: Uint8Array of the width; BOOLEAN: boolean.
 */
export type FilterValues = ArrayLike<unknown> | Iterable<unknown> | ColumnarValues

export interface FilterHealth {
  numBytes: number
  bitsSet: number
  /** Share of bits set, 0..1. */
  fillRatio: number
  /** Distinct values the per-word fill suggests were inserted. */
  estimatedNdv: number
  /** Probability that a value never inserted reads "maybe". */
  estimatedFpp: number
  saturatedWords: number
  emptyBlocks: number
  allBlocksIdentical: boolean
}

/**
 * A Split Block Bloom Filter whose bitset lives in pooled wasm memory. Owned filters are freed with
 * free() (or `using`); filters lent by visitBloomFilter die when their visit ends.
 */
export class BloomFilter {
  private constructor()
  /**
   * A zeroed filter sized for `ndv` distinct values at `fpp` (as arrow/parquet-java size them), or of
   * exactly `numBytes` (a multiple of 32 in [32, 128 MiB]).
   */
  static create(options: { ndv: number, fpp?: number } | { numBytes: number }): BloomFilter
  /** Reads the Parquet layout: BloomFilterHeader followed by the bitset. */
  static fromBytes(bytes: Uint8Array | ArrayBuffer): BloomFilter
  /** Copies a bare bitset (no header) into a new filter. */
  static fromBitset(bitset: Uint8Array): BloomFilter

  /** Bitset size in bytes. Throws FILTER_RELEASED after free() or the end of its visit. */
  readonly numBytes: number
  /** True once freed, or once its visit ended. */
  readonly released: boolean

  /** Inserts a batch of values of one physical type; nulls are skipped. */
  insert(values: FilterValues, type?: FilterValueType): this
  /** Per value: 1 = maybe present, 0 = definitely absent, 2 = null slot. */
  check(values: FilterValues, type?: FilterValueType): Uint8Array
  /** One value: false only when it is definitely absent. */
  mightContain(value: unknown, type: FilterValueType): boolean
  /** The Parquet layout: BloomFilterHeader {numBytes, BLOCK, XXHASH, UNCOMPRESSED} + bitset. */
  toBytes(): Uint8Array
  /** How full the bitset is and what that implies. */
  health(): FilterHealth
  /** A copy of the bitset bytes. */
  bitset(): Uint8Array
  /** Returns the bitset's memory to the pool. Idempotent. */
  free(): void
  [Symbol.dispose](): void
}

// ---------------------------------------------------------------------------------------------------
// Parquet files

/** Anything hyparquet calls an AsyncBuffer: random access by slice. */
export interface AsyncBufferLike {
  byteLength: number
  slice(start: number, end?: number): ArrayBuffer | ArrayBufferView | Promise<ArrayBuffer | ArrayBufferView>
}

/**
 * Where a file's bytes come from: an http(s) URL (Range requests), a file: URL or a path (Node), a
 * Blob/File, bytes in memory, or an AsyncBuffer.
 */
export type ParquetSource = string | URL | Blob | ArrayBuffer | SharedArrayBuffer | ArrayBufferView | AsyncBufferLike

export interface OpenParquetOptions {
  /** Aborts every operation of this file, now and later. */
  signal?: AbortSignal
  /** For URLs. Default: in Node, its own keep-alive transport over node:http(s); elsewhere the runtime's fetch. */
  fetch?: typeof fetch
  /** Sent with every HTTP request (e.g. Authorization). */
  headers?: HeadersInit
  /** Bytes read from the end of the file at open: the footer and often the filters. Default 64 KiB. */
  initialFetchSize?: number
  /** The most one read may return (and a server ignoring Range may send). Default 64 MiB. */
  maxBytes?: number
  /** Larger footers are refused with TOO_LARGE. Default 128 MiB. */
  maxFooterBytes?: number
  /**
   * Reads in flight at once. Default: what the transport allows — 256 in Node, 100 to an HTTP/2 or HTTP/3
   * origin in a browser, 6 over HTTP/1.1, 16 for files and memory.
   */
  concurrency?: number
  /**
   * Ranges closer than this many bytes are read in one request (the link model may join more to save
   * rounds). Default 1024; 64 for block reads.
   */
  coalesceGap?: number
  /** The largest coalesced request. Default 16 MiB. */
  maxRequestBytes?: number
  /** A request taking longer ends with ABORTED. Default: none. */
  requestTimeoutMs?: number
  /** User-Agent for HTTP requests (browsers may ignore it). */
  userAgent?: string
  /** The name used in messages instead of the URL or path. */
  name?: string
  /**
   * Keeps the footers of URLs (validated by ETag, or Last-Modified + size) and reuses them: a second
   * open reads and decodes no footer. Every later request carries If-Match / If-Unmodified-Since; a
   * replaced file has its footer read anew. Other sources ignore it.
   */
  footerCache?: FooterCache
  /**
   * Keys of a file protected by Parquet modular encryption (docs/encryption.md). Decrypted with
   * WebCrypto; keys are kept only as non-extractable CryptoKeys for the file's life and never appear in
   * messages. A file opened with `decryption` does not use `footerCache`.
   */
  decryption?: DecryptionOptions
  /**
   * The file's size in bytes, as a listing gives it (listS3) and a dataset's descriptors name it: the tail is
   * read as an exact range (bytes=size-64KiB..size-1) rather than a suffix range. A size the server contradicts
   * is BAD_RESPONSE_LENGTH, never an answer. URLs only.
   */
  size?: number
  /** @deprecated The former name of `size` (still read; giving both, unequal, is INVALID_ARGUMENT). */
  fileSize?: number
  /**
   * The file's ETag, as a listing gives it (quotes included): a response with another ETag is
   * FILE_CHANGED, and a footerCache entry with this ETag is used without any request. URLs only.
   */
  etag?: string
  /**
   * How many times a request that failed transiently (429, 500, 502, 503, 504, a reset or dropped
   * connection, requestTimeoutMs) is sent again, after 50–800 ms of jittered exponential backoff within
   * the signal. Default 3; 0 disables retries. An abort is never retried.
   */
  retries?: number
  /**
   * Record every request from the footer read on: the first `probe(…, { plan: true })` then lists the
   * footer's reads too. Default false.
   */
  plan?: boolean
  /**
   * A sidecar index (`openSidecarIndex` from 'parquet-bloom/index-builder', docs/indexes.md "Giving files the
   * indexes they lack") whose filters and bounds answer what the file's own indexes leave open, while
   * it describes this file as it is (same size and validator); otherwise the file is probed as usual.
   */
  index?: {
    refine(probe: {
      name: string, fileSize: number, column: string, values: unknown[], rowGroups: unknown[], rowGroupCount?: number,
      signal?: AbortSignal
    }): Promise<unknown>
  }
}

/** A key: 16, 24 or 32 bytes, or a string whose UTF-8 bytes are the key (as parquet-testing writes them). */
export type EncryptionKey = Uint8Array | string

export interface DecryptionOptions {
  /** Decrypts an encrypted footer (required for those), verifies a plaintext footer's signature, and decrypts columns encrypted with it. */
  footerKey?: EncryptionKey
  /** Column keys by dotted column path ('a.b.c'). A column whose key is missing answers unknown with reason 'no-key'. */
  columnKeys?: Record<string, EncryptionKey>
  /** The AAD prefix of a file written with one it does not store (supply_aad_prefix); checked against a stored one. */
  aadPrefix?: Uint8Array | string
  /** Asked for each key not given above, with the key_metadata the file stores for it; `column` unset for the footer key. */
  keyRetriever?: (keyMetadata: Uint8Array, context: { column?: string }) =>
    EncryptionKey | null | undefined | Promise<EncryptionKey | null | undefined>
}

/** Where a FooterCache keeps its serialized entries. Keys are SHA-256 hex strings (never URLs). */
export interface FooterStore {
  get(key: string): Promise<Uint8Array | undefined>
  set(key: string, bytes: Uint8Array): Promise<void>
  delete(key: string): Promise<void>
  /** What the store already holds, oldest first (for eviction across processes). */
  list?(): Promise<Array<{ key: string, size: number }>>
}

export interface FooterCacheOptions {
  /** Entries are evicted least recently used above this many bytes. Default 64 MiB. */
  maxBytes?: number
  /** Default memoryStore(). */
  store?: FooterStore
  /** Also cache files whose server sends no ETag/Last-Modified (or only a weak ETag). Default false. */
  trustUnvalidated?: boolean
}

export declare class FooterCache {
  private constructor()
  readonly maxBytes: number
  readonly trustUnvalidated: boolean
  /** Bytes the entries take, as far as this process knows. */
  readonly bytes: number
  readonly stats: { hits: number, misses: number, stores: number, evictions: number, invalidations: number }
  /** Drops the entry of a URL. */
  forget(url: string): Promise<void>
}

/** A cache of decoded footers for openParquet(url, { footerCache }). */
export function createFooterCache(options?: FooterCacheOptions): FooterCache
/** Entries in this process's memory (the default). */
export function memoryStore(): FooterStore
/** Entries as files in a directory (Node); atomic writes, a corrupt file is a miss. */
export function directoryStore(dir: string): FooterStore
/** Cache Storage when available, else IndexedDB (browsers). */
export function browserStore(name?: string): FooterStore

/** Opens a Parquet file and reads its footer (one tail read; a second only for a larger footer). */
export function openParquet(source: ParquetSource, options?: OpenParquetOptions): Promise<ParquetFile>


/** A Parquet LogicalType as the footer records it, e.g. { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: true }. */
export type LogicalType =
  | {
    type: 'STRING' | 'MAP' | 'LIST' | 'ENUM' | 'DATE' | 'NULL' | 'JSON' | 'BSON' | 'UUID' | 'FLOAT16' | 'VARIANT' | 'GEOMETRY'
      | 'GEOGRAPHY'
  }
  | { type: 'DECIMAL', precision: number, scale: number }
  /** legacy: from a ConvertedType alone (TIME_/TIMESTAMP_MILLIS/MICROS): UTC to parquet-java, without zone to DuckDB. */
  | { type: 'TIME' | 'TIMESTAMP', unit: 'MILLIS' | 'MICROS' | 'NANOS', isAdjustedToUTC: boolean, legacy?: true }
  | { type: 'INTEGER', bitWidth: number, isSigned: boolean }
  | { type: string, [key: string]: unknown }

export interface ColumnChunkInfo {
  /** Dotted path of the leaf column. */
  path: string
  physicalType: PhysicalType
  typeLength: number | undefined | null
  logicalType: LogicalType | null | undefined
  /** Where its bloom filter is; length is undefined when the writer did not record it. */
  bloom: { offset: number, length: number | undefined } | null
  /** Which indexes this chunk offers, and whether probes can use them. */
  indexes: ChunkIndexes
}

export interface ChunkIndexes {
  /** Row-group min/max statistics: present in the footer, and usable (a sort order, consistent counts, a trusted writer). */
  statistics: { present: boolean, usable: boolean, reason?: string, detail?: string }
  pageIndex: { columnIndex: boolean, offsetIndex: boolean }
  /** A dictionary page, and whether every data page is dictionary-encoded (null: cannot be told). */
  dictionary: { present: boolean, allDataPages: boolean | null }
  bloomFilter: boolean
}

export interface RowGroupInfo {
  index: number
  numRows: number
  columns: ColumnChunkInfo[]
}

export interface ParquetMetadata {
  numRows: number
  createdBy: string | undefined
  rowGroups: RowGroupInfo[]
}

export interface LeafColumn {
  index: number
  path: string[]
  name: string
  physicalType: PhysicalType
  typeLength: number | undefined
  logicalType: LogicalType | null
  repetition: string | undefined
  /** The column lies under a repeated field: its chunks hold more or fewer values than rows. */
  repeated: boolean
}

export type Verdict = 'absent' | 'maybe' | 'present' | 'unknown'

/** The index that decided a verdict; 'value' when the value alone decides (null, NaN, not representable). */
export type VerdictSource = 'statistics' | 'page-index' | 'dictionary' | 'bloom-filter' | 'data-pages' | 'value'
  | 'partition' | 'table-partition' | 'table-stats'

/** Stable reason codes (docs/verdicts.md "Verdicts, sources and reasons"; REASONS lists them with their meaning). */
export type ReasonCode =
  | 'bloom-filter' | 'out-of-range' | 'in-range' | 'all-null' | 'empty-row-group' | 'in-dictionary' | 'not-in-dictionary'
  | 'out-of-page-range' | 'in-page-range'
  | 'in-data-pages' | 'not-in-data-pages' | 'confirm-budget' | 'confirm-failed'
  | 'malformed-dictionary' | 'unsupported-codec' | 'dictionary-too-large'
  | 'not-representable' | 'null' | 'nan'
  | 'no-index' | 'malformed-filter' | 'unsupported-filter' | 'inconsistent-filter' | 'untrusted-writer'
  | 'encrypted-column' | 'no-key' | 'no-column-metadata' | 'external-file' | 'stale-index' | 'internal'
  | 'partition-match' | 'partition-mismatch' | 'outside-where' | 'column-missing' | 'file-error' | 'limit-reached'
  | 'no-nan' | 'deletes-not-applied' | 'rows-deleted' | 'unit-differs'

export interface ProbeValueResult {
  /** The value as it was passed in. */
  value: unknown
  verdict: Verdict
  /** Which index decided, or null when none could (unknown). */
  source: VerdictSource | null
  /** A stable kebab-case code to switch on. */
  reason: ReasonCode
  /** The sentence for people. */
  detail: string
  /** The pages of the chunk that may hold the value, when its page index was read and kept it. */
  pages?: number[]
  /** With `confirm: true`, when the data pages decided: the file-level 0-based rows holding the value, ascending. */
  rows?: number[]
  /** More rows hold the value than `maxRows` let through. */
  rowsTruncated?: boolean
  /**
   * With `columns`: per row of `rows`, those columns' values as hyparquet reads them; a timestamp or date no Date holds
   * (a year after 275760 or before -271821) is its stored count instead, a bigint of the column's unit (DATE: days).
   */
  values?: Array<Record<string, unknown>>
}

export declare const REASONS: Readonly<Record<ReasonCode, { verdict: Verdict | null, text: string }>>
export declare const Source: Readonly<{ STATISTICS: 'statistics', PAGE_INDEX: 'page-index', DICTIONARY: 'dictionary',
  BLOOM_FILTER: 'bloom-filter', DATA_PAGES: 'data-pages', VALUE: 'value',
  PARTITION: 'partition', TABLE_PARTITION: 'table-partition', TABLE_STATS: 'table-stats' }>

/** A filter health warning (the one policy inspect and the demo apply). */
export interface HealthWarning { code: string, level: 'bad' | 'note', message: string }
export function assessFilterHealth(health: FilterHealth, chunk?: { numRows?: number }): HealthWarning[]
export declare const HEALTH_CODES: Readonly<Record<string, { level: 'bad' | 'note', text: string }>>

/** A known writer bug that makes one index of a file untrustworthy. */
export interface WriterRule {
  id: string
  /** 'null-count': the writer's null_count may reach num_values in a chunk that holds values. */
  index: 'bloom-filter' | 'statistics' | 'dictionary' | 'null-count'
  /** The warning code inspect shows. */
  code: string
  link: string
  message: string
  /** A 'statistics' rule that also makes the writer's ColumnIndex bounds unusable (computed the same way). */
  pageIndex?: boolean
}
export declare const WRITER_RULES: readonly WriterRule[]
export function writerRulesFor(createdBy: string | undefined, index: WriterRule['index'],
  column: { physicalType: PhysicalType, logicalType?: LogicalType | null, typeLength?: number | null, repeated?: boolean },
  chunk?: { encodings: number }): WriterRule[]
/** A URL with its query string and credentials hidden, for messages. */
export function redactUrl(url: URL): string

/**
 * What I/O cost, in one shape for files, datasets, tables, sidecar indexes and progress events: requests sent
 * (retries and HEADs included; a local read is one), body bytes received, rounds — measured: a request is one
 * round after the latest request of its own file it waited for, or the one whose window slot it took
 * (docs/performance.md#rounds) — retries of transient failures, and HEAD requests.
 */
export interface IoStats { requests: number, bytesFetched: number, rounds: number, retries: number, heads: number }

/** What a request of a read plan was for (stable codes; `statistics` come with the footer, never a request of their own). */
export type ReadPurpose = 'listing' | 'table-metadata' | 'manifest' | 'footer' | 'statistics' | 'page-index' | 'dictionary' | 'bloom'
  | 'sidecar' | 'data-page' | 'head'
export declare const READ_PURPOSES: readonly ReadPurpose[]

/**
 * The read plan of a probe (`plan: true`): every request, which file, which range, what for, its bytes,
 * round and time (ms from the probe's start). Plain data, JSON-serializable. Past `listed.maxRequests`
 * (10,000) requests are counted in `rounds` and `stats` only (`listed.omitted`), so it stays bounded at 100,000 files.
 */
export interface ReadPlan {
  /** The objects read; `requests[].file` indexes it. */
  files: string[]
  requests: Array<{
    file: number
    purpose: ReadPurpose
    /** A request joined across ranges for several purposes: all of them, most bytes first. */
    purposes?: ReadPurpose[]
    /** null: a HEAD; `length` null: a whole object (table metadata). */
    offset: number | null
    length: number | null
    bytes: number
    round: number
    startMs: number
    ms: number
    retry?: true
    failed?: true
  }>
  /** Per round: its requests, bytes, time span (null when only omitted requests are in it) and purposes. */
  rounds: Array<{
    round: number, requests: number, bytes: number, startMs: number | null, endMs: number | null,
    purposes: Partial<Record<ReadPurpose, number>>
  }>
  stats: IoStats
  listed: { requests: number, omitted: number, maxRequests: number }
}

export interface ProbeResult {
  column: string
  physicalType: PhysicalType
  logicalType: LogicalType | null | undefined
  rowGroups: Array<{ index: number, numRows: number, results: ProbeValueResult[] }>
  /** With `confirm: true`: what reading the data pages cost, apart from the probe's index reads. */
  confirm?: IoStats
  /** With `plan: true`: the probe's requests (and the footer's, for a file opened with `plan: true`), since the last plan. */
  plan?: ReadPlan
}

export interface ProbeOptions {
  /** Record the probe's read plan into `result.plan`. Default false (rounds are measured either way). */
  plan?: boolean
  /** Use row-group min/max statistics (free: they are in the footer). Default true. */
  statistics?: boolean
  /**
   * Read the dictionary of chunks whose data pages are all dictionary-encoded (an exact answer): 'auto'
   * when it costs fewer bytes than the bloom filter read, or the chunk has no filter and the dictionary
   * is at most 64 KiB; true whenever usable; false never. Default 'auto'.
   */
  dictionary?: 'auto' | boolean
  /**
   * Read page indexes (ColumnIndex + OffsetIndex): 'auto' for chunks without a usable bloom filter, true always,
   * false never. Default 'auto'.
   */
  pageIndex?: 'auto' | boolean
  /** 'block' reads each filter's header and only the 32-byte blocks the values hash to; 'filter' whole filters; 'auto' the cheaper. */
  mode?: 'auto' | 'filter' | 'block'
  signal?: AbortSignal
  /** Row group indexes to probe; all by default. */
  rowGroups?: number[]
  concurrency?: number
  coalesceGap?: number
  /**
   * Exact lookups: values still maybe (or unknown for want of an index, or present from a dictionary)
   * after the indexes are looked up in the chunk's data pages — only the candidate pages with an
   * OffsetIndex, else the whole chunk — giving 'present' with `rows` or an exact 'absent'. Reads the
   * page index with the other indexes (pageIndex defaults to true). Default false.
   */
  confirm?: boolean
  /**
   * Data page bytes a confirmation may read, over all row groups; chunks past it keep their verdict (reason
   * confirm-budget). Default 16 MiB.
   */
  maxConfirmBytes?: number
  /** Rows listed per value, over all row groups; beyond it `rowsTruncated: true`. Default 1000. */
  maxRows?: number
  /** With `confirm`: top-level columns whose values at the matching rows come back as `values`, read page by page (OffsetIndex). */
  columns?: string[]
  /**
   * The most answers (one per value for each row group probed) the probe makes: past it, TOO_LARGE before any index is read
   * (probe fewer values per call). Default 10,000,000 (about 850 MB); Infinity: no limit.
   */
  maxResults?: number
}

/** A decoded BloomFilterHeader. */
export interface BloomFilterHeaderInfo {
  status: number
  numBytes: number
  headerLength: number
  algorithm: number
  hash: number
  compression: number
  /** 'none' when the header is usable. */
  problem: string
}

/**
 * One chunk's filter as read from the file. Without `error` it is usable: `header` and `bitset` are set.
 * With `error` (a ParquetBloomError, or a reason string when there was nothing to read) it is not; a
 * refused filter whose header still gives a usable size comes with its `bitset` too, for inspection.
 */
export interface BloomFilterParts {
  offset?: number
  length?: number | undefined
  header?: BloomFilterHeaderInfo
  bitset?: Uint8Array
  error?: ParquetBloomError | string
  /** The filter of an encrypted chunk, decrypted: `length` covers its two modules, not header + numBytes. */
  encrypted?: boolean
}

/** What forEachBloomFilter hands to its visitor: the parts, and which chunk they belong to. */
export interface BloomFilterVisit extends BloomFilterParts {
  rowGroup: number
  /** Dotted path of the column. */
  column: string
  columnIndex: number
}

export class ParquetFile {
  private constructor()
  /** The URL (credential-like query values shown as "…"), the path, or a label for in-memory sources. */
  readonly name: string
  readonly fileSize: number
  /** Where the serialized FileMetaData starts. */
  readonly metadataOffset: number
  /** True when the footer came from options.footerCache (no footer bytes were read). */
  readonly footerFromCache: boolean
  /**
   * I/O so far, the footer read included: HTTP requests or file/blob reads, the bytes they moved, the
   * sequential round trips, and the requests sent again after a transient failure (in `requests` too).
   */
  readonly stats: IoStats
  /** The footer, shaped for probing; built on first access. */
  readonly metadata: ParquetMetadata
  /** @internal compact footer form used by the probe code; its shape may change. */
  readonly layout: unknown
  /**
   * The leaf column a dotted path (or path segments) names; COLUMN_NOT_FOUND otherwise, INVALID_ARGUMENT when a
   * dotted path names two (a column named "a.b" beside a → b: pass the segments).
   */
  column(path: string | string[]): LeafColumn
  /**
   * Per row group, whether each value is definitely absent or may be present. Values are converted by
   * the column's physical + logical type (numbers, bigints, strings, Dates, bytes; see js/values/probe-values.js).
   */
  probe(column: string | string[], values: Iterable<unknown>, options?: ProbeOptions): Promise<ProbeResult>
  /**
   * Lends one chunk's filter to `visit` for the duration of the call; it is released afterwards. A filter a writer rule
   * distrusts is refused (UNSUPPORTED_FILTER, reason 'untrusted-writer'), as by getBloomFilter.
   */
  visitBloomFilter<T>(rowGroup: number, column: string | string[], visit: (filter: BloomFilter) => T | Promise<T>,
    options?: { signal?: AbortSignal }): Promise<T>
  /** One chunk's filter as an owned BloomFilter: free() it. */
  getBloomFilter(rowGroup: number, column: string | string[], options?: { signal?: AbortSignal }): Promise<BloomFilter>
  /** The raw header and bitset of one chunk's filter, or why it cannot be read. */
  readBloomFilterParts(rowGroup: number, column: string | string[], options?: { signal?: AbortSignal }): Promise<BloomFilterParts>
  /**
   * Reads the filters of many chunks in one scheduled pass (ranges coalesced, bounded concurrency) and
   * calls `visit` for each chunk that has one, as its bytes arrive. `bitset` may be reused after `visit`
   * returns: copy what you keep (BloomFilter.fromBitset copies). Default selection: everything.
   */
  forEachBloomFilter(selection: { rowGroups?: number[], columns?: Array<string | string[]> } | undefined,
    visit: (parts: BloomFilterVisit) => void, options?: { signal?: AbortSignal, concurrency?: number }): Promise<void>
  /**
   * Makes sure `metadata` describes the file as it is now: a footer from the cache that no read has
   * confirmed costs one 8-byte validated request; a replaced file has its footer read anew. probe() and
   * forEachBloomFilter() do this themselves.
   */
  validateFooter(options?: { signal?: AbortSignal }): Promise<void>
  /** Bytes [offset, offset + length) of the file, from what is already held or one counted read. */
  readRange(offset: number, length: number, options?: { signal?: AbortSignal }): Promise<Uint8Array>
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------------
// Errors

export declare const ErrorCode: Readonly<{
  INVALID_ARGUMENT: 'INVALID_ARGUMENT'
  BAD_VALUE: 'BAD_VALUE'
  MALFORMED_FOOTER: 'MALFORMED_FOOTER'
  MALFORMED_FILTER: 'MALFORMED_FILTER'
  UNSUPPORTED_FILTER: 'UNSUPPORTED_FILTER'
  ENCRYPTED: 'ENCRYPTED'
  ENCRYPTION_KEY_REQUIRED: 'ENCRYPTION_KEY_REQUIRED'
  DECRYPTION_FAILED: 'DECRYPTION_FAILED'
  COLUMN_NOT_FOUND: 'COLUMN_NOT_FOUND'
  NO_BLOOM_FILTER: 'NO_BLOOM_FILTER'
  FILE_NOT_FOUND: 'FILE_NOT_FOUND'
  HTTP_STATUS: 'HTTP_STATUS'
  RANGE_NOT_SUPPORTED: 'RANGE_NOT_SUPPORTED'
  BAD_RESPONSE_LENGTH: 'BAD_RESPONSE_LENGTH'
  FILE_CHANGED: 'FILE_CHANGED'
  LISTING_FAILED: 'LISTING_FAILED'
  TOO_LARGE: 'TOO_LARGE'
  ABORTED: 'ABORTED'
  IO: 'IO'
  MALFORMED_TABLE: 'MALFORMED_TABLE'
  PATH_OUTSIDE_TABLE: 'PATH_OUTSIDE_TABLE'
  UNSUPPORTED_TABLE: 'UNSUPPORTED_TABLE'
  FILTER_RELEASED: 'FILTER_RELEASED'
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED'
  WASM: 'WASM'
}>

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode]

/** The one error class parquet-bloom throws: `code` is for programs, `message` names the file and offset. */
export class ParquetBloomError extends Error {
  constructor(code: ErrorCodeValue, message: string, details?: {
    cause?: unknown, source?: string, offset?: number, field?: string, status?: number, reason?: ReasonCode, problem?: string
  })
  readonly name: 'ParquetBloomError'
  readonly code: ErrorCodeValue
  /** The URL or path involved. */
  readonly source?: string
  /** The byte offset involved. */
  readonly offset?: number
  /** The field or column involved. */
  readonly field?: string
  /** The HTTP status, for HTTP_STATUS, and for FILE_NOT_FOUND of a URL (404, 410). */
  readonly status?: number
  /** The verdict reason a probe answers with when this error makes an index unusable (e.g. 'malformed-filter'). */
  readonly reason?: ReasonCode
  /** For an inconsistent filter: which disagreement it is (an inspect warning code, e.g. 'overlaps-footer'). */
  readonly problem?: string
}

/** A file of a dataset as a caller (or a table layer) describes it. */
export interface DatasetFileDescriptor {
  /** The file's name in the dataset; Hive partitions are parsed from it unless `partitions` is given. */
  path: string
  /** What openParquet reads. */
  location: ParquetSource
  size?: number
  etag?: string
  /**
   * Partition values (typed); replaces what the path says. They serve `where` and facets; unlike a path's
   * key=value folders they never answer a probe of a same-named column (a table's partition may be a
   * transform of it: a prefilter decides those).
   */
  partitions?: Record<string, unknown>
}

/**
 * What a prefilter says of one value for a whole file: null (no opinion), a verdict that rules it out,
 * or `maybe`: decided without a read (the file is not opened for it; a table's partition column, which
 * its data files do not hold).
 */
export type PrefilterAnswer = null | { verdict: 'absent' | 'maybe', source: string, reason: string, detail: string }

export type PartitionType = 'DATE' | 'TIMESTAMP' | 'BIGINT' | 'VARCHAR'

/** openParquet's options but those of one file (its size and ETag are its descriptor's) and its sidecar. */
export interface OpenDatasetOptions extends Omit<OpenParquetOptions, 'index' | 'size' | 'fileSize' | 'etag'> {
  /**
   * Record the opening's reads (the pages of an s3:// listing): the first `probe(…, { plan: true })` lists them
   * before its own (its `stats` stay the probe's). Default false.
   */
  plan?: boolean
  /**
   * A sidecar index ('parquet-bloom/index-builder': a path, a URL, or one openSidecarIndex opened) for the
   * dataset's files: opened once, asked for all of a probe's files in one call; a file it describes as it
   * is (same size and validator) and rules out for every value is not opened, the others are probed and
   * sharpened by it; a file it does not describe is probed as usual.
   */
  index?: string | URL | {
    probe(column: string, values: Iterable<unknown>, options?: {
      files?: Array<string | { path: string, size?: number, validator?: string | null }>, signal?: AbortSignal
    }): Promise<unknown>
    close(): Promise<void>
  }
  /** Partition key types; the others are inferred as DuckDB infers them (DATE, TIMESTAMP, BIGINT, else VARCHAR). */
  partitioning?: Record<string, PartitionType>
  /** Parse key=value folders of paths as partitions. Default true. */
  hivePartitioning?: boolean
  /** Called per file per probe before any read of it; a non-null entry decides value k for the file (absent, or maybe without a read). */
  prefilter?: (file: DatasetFileDescriptor & { partitions: Record<string, unknown>, validator: string | null }, column: string,
    values: unknown[]) =>
    PrefilterAnswer[] | null | Promise<PrefilterAnswer[] | null>
  /** The column's path in one file, after its footer was read (tables: renamed columns matched by field id, column mapping). */
  columnOf?: (file: DatasetFileDescriptor & { partitions: Record<string, unknown>, validator: string | null }, parquetFile: ParquetFile,
    column: string | string[]) =>
    string | string[] | Promise<string | string[]>
  /** For s3:// sources (js/sources/s3-listing.js, as 'parquet-bloom/s3' listS3 takes them): they sign the listing and every read. */
  credentials?: { accessKeyId: string, secretAccessKey: string, sessionToken?: string, region?: string }
  endpoint?: string | URL
  region?: string
  /** For s3:// sources: keys per ListObjectsV2 page, 1–1000. Default 1000. */
  maxKeys?: number
}

export interface DatasetProbeOptions extends Omit<ProbeOptions, 'rowGroups'> {
  /** Partition equality / IN: files whose partitions rule every listed value out are skipped before any read. */
  where?: Record<string, unknown>
  /** This client's share of the files, by a hash of their paths. */
  shard?: { index: number, count: number }
  /** With `confirm`: stop starting files once this many rows were found. */
  limit?: number
  /**
   * probe()'s most answers held (one per value for each file and each of its row groups; probeEach holds only the files in
   * flight). Past it, TOO_LARGE: before any read when values × files are over, else once a file's footer takes it over.
   * probeEach: a file whose own answers (values × its row groups) are over it answers TOO_LARGE as its `error`, values unknown.
   * Default 10,000,000; Infinity: no limit.
   */
  maxResults?: number
  /** After each file: the files done and the probe's IoStats so far (`bytes`: bytesFetched's old name, deprecated). */
  onProgress?: (progress: IoStats & { filesDone: number, filesFailed: number, filesTotal: number, bytes: number }) => void
  /** As openDataset's; given here it replaces that one for this probe (on a table, the table's own pruning too). */
  prefilter?: OpenDatasetOptions['prefilter']
  /** As openDataset's; given here it replaces that one for this probe (on a table, the table's own field-id matching too). */
  columnOf?: OpenDatasetOptions['columnOf']
  /** Files probed at once. Default: the request window for URLs, 32 for local files; at most 250,000 / the values. */
  fileConcurrency?: number
}

/**
 * Why a sidecar index did not describe a file (docs/indexes.md "Giving files the indexes they lack"):
 * missing-from-index (no entry for it), file-gone (no such file; HEAD 404/410), size-differs,
 * validator-differs (the same kind, another value: the file changed), validator-kind-differs (the same size,
 * validators of different kinds — an index built from local paths, which records mtimes, probed over HTTP;
 * an ETag recorded where the server now sends only Last-Modified, or none), validator-unsettled (the index recorded an
 * mtime or Last-Modified, or an ETag sent with one, too recent, when it was built, for a rewrite of the same size to
 * change it: whatever the file is now, the index may hold an earlier version's filters), row-groups-differ (the file
 * passed, but its footer has other row groups than the entry: a same-size replacement), no-path (a file given as
 * bytes), not-described (an index object that gave no reason).
 */
export type StaleIndexReason = 'missing-from-index' | 'file-gone' | 'size-differs' | 'validator-differs' | 'validator-kind-differs'
  | 'validator-unsettled' | 'ambiguous-in-index' | 'row-groups-differ' | 'no-path' | 'not-described'

/**
 * The kind of a validator a sidecar index records or finds: a local file's mtime, a URL's strong ETag or Last-Modified;
 * unsettled: an mtime or Last-Modified (or an ETag sent with one) a build recorded as too recent to tell versions apart
 * (`unsettled-mtime:…`, `unsettled-last-modified:…`, `unsettled-etag:…`); other: a caller's own form.
 */
export type ValidatorKind = 'mtime' | 'etag' | 'last-modified' | 'unsettled' | 'other'

/** Whether the dataset's sidecar index described a file (a file it does not describe is probed without it), and if not, why. */
export type DatasetIndexStatus = { described: true } | {
  described: false
  reason: StaleIndexReason
  detail: string
  /** With validator-kind-differs: the kind the index recorded, and the kind the file has now (none: its server sent no validator). */
  validators?: { recorded: ValidatorKind, found: ValidatorKind | 'none' }
}

export interface DatasetFileResult {
  path: string
  partitions: Record<string, unknown>
  /** Per value, the file's answer rolled up from its row groups (or decided without reading it). */
  values: ProbeValueResult[]
  /** As ParquetFile.probe returns them; [] when the file was decided without opening it. */
  rowGroups: Array<{ index: number, numRows: number, results: ProbeValueResult[] }>
  /**
   * The file's typed error (a ParquetBloomError's code; IO for anything else) and, from a server, its HTTP status (a missing
   * file is FILE_NOT_FOUND wherever it is: no such local file, or a URL answering 404 or 410); its values are then unknown
   * (reason file-error).
   */
  error: { code: ErrorCodeValue, message: string, status?: number } | null
  /** What this file's reads cost (0 when decided without opening it); its rounds from its opening. */
  stats: IoStats
  logicalType?: LogicalType | null
  /** Not probed: outside `where`, or `limit` was reached. */
  skipped?: 'where' | 'limit'
  column?: string
  physicalType?: PhysicalType
  typeLength?: number
  /** With `confirm`: what reading this file's data pages cost, apart from its index reads. */
  confirm?: IoStats
  /**
   * The `columns` (point lookups) this file does not have, as asked: null in its rows' values, as DuckDB's union_by_name
   * reads them (a Hive partition key is its folder's value, not missing). A name every file opened lacks is likely a typo
   * (DuckDB refuses it). Not for a table's files: a table reads them by its schema.
   */
  columnsMissing?: string[]
  /** With openDataset's `index`, for a file the probe asked it about (not one `where` skipped) and then answered (not `limit`-skipped):
   * whether the index described it. */
  index?: DatasetIndexStatus
}

export interface DatasetProbeResult {
  files: DatasetFileResult[]
  totals: {
    files: number, filesOpened: number, filesWithError: number, filesSkipped: number, rowGroups: number
    verdicts: Record<Verdict, number>
    /** Per source, the files and row groups it ruled out (counted per value). */
    ruledOut: Record<string, { files: number, rowGroups: number }>
    /**
     * With openDataset's `index` (and values to probe): of the files asked about, how many it described and how many it did
     * not — those were probed without it — per reason.
     */
    index?: { described: number, notDescribed: number, reasons: Partial<Record<StaleIndexReason, number>> }
  }
  stats: IoStats & {
    /** @deprecated bytesFetched's old name. */
    bytes: number
    window: number, filesOpened: number, footersFromCache: number, ms: number
    /**
     * With openDataset's `index`: its share of the I/O above (its opening included) — `heads` of the files, checking
     * they are the ones it describes, and its reads of the index file (requests = reads + heads).
     */
    index?: IoStats & {
      /** @deprecated requests − heads. */
      reads: number
      /** @deprecated bytesFetched's old name. */
      bytes: number
    }
  }
  /** With `plan: true`: every request of the probe (sidecar, footers, indexes; a table's manifests). */
  plan?: ReadPlan
}

/** What openDataset() resolves to (the class itself is not exported: it loads with openDataset). */
export interface ParquetDataset {
  /** The files in probe order: a caller's list as given, listed files (directory, glob, S3) by path. */
  readonly files: Array<{ path: string, size: number | null, validator: string | null, partitions: Record<string, unknown> }>
  readonly partitionTypes: Record<string, PartitionType>
  /** What listing an s3:// prefix cost (its pages: a request and a round each), when the dataset was listed from one. */
  readonly listing?: IoStats
  probe(column: string | string[], values: Iterable<unknown>, options?: DatasetProbeOptions): Promise<DatasetProbeResult>
  probeEach(column: string | string[], values: Iterable<unknown>, options?: DatasetProbeOptions):
    AsyncGenerator<DatasetFileResult, void, undefined>
  /** Reads every footer and reports per column how many files (every row group) and row groups have each index. */
  inspect(options?: Pick<DatasetProbeOptions, 'signal' | 'shard' | 'onProgress' | 'fileConcurrency' | 'concurrency' | 'plan'>):
    Promise<DatasetCoverage>
  /** Closes the sidecar index the dataset opened from `index` (one passed opened stays the caller's). */
  close(): Promise<void>
}

export interface DatasetCoverage {
  files: number
  filesWithError: number
  errors: Array<{ path: string, error: { code: ErrorCodeValue, message: string, status?: number } }>
  columns: Array<{ column: string, physicalTypes: PhysicalType[], files: number, rowGroups: number,
    statistics: { files: number, rowGroups: number }, pageIndex: { files: number, rowGroups: number },
    dictionaryOnly: { files: number, rowGroups: number }, bloomFilter: { files: number, rowGroups: number } }>
  stats: DatasetProbeResult['stats']
  /** With `plan: true`: every footer read. */
  plan?: ReadPlan
}

/** Opens many Parquet files as one dataset: a list (sources or descriptors), a local directory or glob, or an s3:// prefix. */
export function openDataset(source: ParquetSource[] | DatasetFileDescriptor[] | string | URL, options?: OpenDatasetOptions):
  Promise<ParquetDataset>

export interface OpenTableOptions extends Omit<OpenDatasetOptions, 'hivePartitioning' | 'partitioning' | 'columnOf'> {
  /** 'auto' (default): a `_delta_log/` means Delta, a `metadata/` folder (or version hint) Iceberg. */
  format?: 'iceberg' | 'delta' | 'auto'
  /** Iceberg: the snapshot id to read (a string or bigint: ids exceed 2^53), or a branch or tag name of the table's refs.
   * Default: the current snapshot. */
  snapshot?: string | bigint | number
  /** Delta: the table version to read. Default: the latest. */
  version?: number
  /**
   * Iceberg: the metadata.json to read, relative to the table's root (over HTTP, for tables whose version-hint.text
   * is missing or leads to no file).
   */
  metadata?: string
  /** Maps a path as the metadata writes it to a location to read; default: strip the table's own location. */
  rebase?: (path: string) => string | URL | null | undefined
  /** Let the metadata name files outside the table's location: every one (true) or those under these prefixes. */
  allowOutside?: boolean | string[]
  /**
   * A sidecar index, as openDataset takes it. A table index (buildSidecarIndex(null, sink, { table }), docs/table-index.md) also
   * records its snapshot or version: while the table is still there no manifest, manifest list or commit is read and no file is
   * checked (table files are immutable); after later commits only theirs are read, files they add are probed without the index, files
   * they remove are dropped, and deletes apply to confirmed rows as without it. A probe of a column it does not index reads the
   * manifests as without it.
   */
  index?: OpenDatasetOptions['index']
  /**
   * Record the opening's reads (the pointer, metadata.json, the manifest list; a Delta log): the first
   * `probe(…, { plan: true })` lists them before its own (its `stats` stay the probe's). Default false.
   */
  plan?: boolean
}

export interface TableColumnType {
  kind: 'int' | 'long' | 'float' | 'double' | 'decimal' | 'string' | 'binary' | 'fixed' | 'uuid' | 'boolean'
    | 'date' | 'time' | 'timestamp' | 'timestamptz' | 'timestamp_ns' | 'timestamptz_ns' | 'other'
  precision?: number
  scale?: number
  length?: number
  name?: string
}

/** A table's probe result: the dataset's, and for Iceberg what the probe did with the snapshot's manifests. */
export interface TableProbeResult extends DatasetProbeResult {
  /**
   * Iceberg: of the snapshot's manifests, those the probe read (their live files are `files`) and those
   * the manifest list's partition summaries ruled out for every value and `where` (their files are not
   * listed); `fetched`: how many were read from the store for this probe (0 when read or decoded before).
   */
  manifests?: { total: number, read: number, skipped: number, fetched: number,
    /** With a table index: the manifests its record stood for (neither read nor needed; not counted in `skipped`). */
    fromIndex?: number }
}

/**
 * What openTable() resolves to: the table's live files as a dataset, pruned by the table's metadata.
 * An Iceberg table's manifests are read when a probe needs them, so `files` (and `table.files`) list the
 * files of the manifests read so far; `listFiles()` reads the rest.
 */
export interface ParquetTable extends ParquetDataset {
  /**
   * The dataset's probe over the files of the manifests that may hold the values (Iceberg), deletes applied to confirmed rows.
   * `column` and `columns` name the table's columns (COLUMN_NOT_FOUND for a name its schema lacks, whatever a file holds).
   */
  probe(column: string | string[], values: Iterable<unknown>, options?: DatasetProbeOptions): Promise<TableProbeResult>
  /** Every live file: an Iceberg table's manifests not read yet are read (one wave). */
  listFiles(): Promise<ParquetDataset['files']>
  readonly table: {
    format: 'iceberg' | 'delta'
    /** Iceberg: the snapshot read, as a decimal string. */
    snapshot?: string | null
    formatVersion?: number
    metadataLocation?: string
    /** Iceberg: the snapshot's manifests, and how many have been read so far. */
    manifests?: { total: number, read: number }
    /** Delta: the version read. */
    version?: number
    /** The writer the writer rules are keyed by ('spark', 'delta-uniform', an Iceberg engine, 'delta'). */
    writer: string
    columns: Array<{ name: string, type: TableColumnType }>
    /** The live files known so far (an Iceberg table's: of the manifests read; after listFiles(), all). */
    files: Array<{ path: string, location: string, size: number, deletes: Array<'position' | 'equality' | 'dv'> }>
    /**
     * The table's metadata reads so far: openTable's, then the manifests probes read (each wave of reads is one round);
     * `retries`: the requests that were transient failures sent again (`requests` includes them).
     */
    metadataStats: IoStats
    /**
     * With a table index: whether the table was at its snapshot or version (unchanged); Iceberg: the manifests the record stood for and
     * those added since; Delta: the commits read since (`replayed`: the record was not used — the manifests or log were read as
     * without an index — and `reason` says why).
     */
    index?: { unchanged: boolean, manifestsFromIndex?: number, manifestsAdded?: number, commitsRead?: number, replayed?: boolean,
      reason?: TableIndexUnusedReason,
      /** The index's own reads so far (opening and its snapshot record included), when the table opened it. */
      reads: { requests?: number, bytesFetched?: number, rounds?: number, heads?: number } }
  }
  /**
   * What the metadata can prune, per column, and the snapshots (Iceberg) or version (Delta):
   * `parquet-bloom inspect <table> --table auto`.
   */
  summary(): Promise<TableSummary>
}

/**
 * Why a table index's snapshot record was not used (docs/table-index.md "Tied to the table"): `untied-record`, a Delta record
 * from before records named their log object; `log-differs`, the Delta log object at the recorded version is gone or not the
 * one the index was built from (another table, or one re-created at the location); `commits-unavailable`, a version before the
 * recorded one was asked for, or the commits after it were cleaned up; `other-table`, the table-uuid or a metaData id since
 * names another table; `snapshot-differs`, the Iceberg metadata does not list the recorded snapshot with its manifest list.
 */
export type TableIndexUnusedReason = 'untied-record' | 'log-differs' | 'commits-unavailable' | 'other-table' | 'snapshot-differs'

export interface TableSummary {
  format: 'iceberg' | 'delta'
  writer: string
  /** Iceberg: the snapshot read, as a decimal string. */
  snapshot?: string | null
  /** Iceberg: every snapshot the metadata lists. */
  snapshots?: Array<{ id: string, timestampMs: number, operation: string | null }>
  /** Delta: the version read. */
  version?: number
  /** Live data files. */
  files: number
  /** Live data files with deletes of each kind. */
  filesWithDeletes: { position: number, equality: number, dv: number }
  /**
   * Per column of a type the table layer knows (not nested or unknown ones): of the live files, how many the
   * metadata gives bounds, null counts and NaN counts for, and the partition fields (transforms) derived from it.
   */
  columns: Array<{
    column: string, type: TableColumnType['kind'], files: number, bounds: number, nullCounts: number, nanCounts: number,
    partitions: string[]
  }>
}

/** Opens an Iceberg (v1, v2) or Delta table by its root: a local folder, a file: URL or an http(s) URL. */
export function openTable(location: string | URL, options?: OpenTableOptions): Promise<ParquetTable>

/**
 * The answers of a dataset's shards (probe(…, { shard: { index, count } }) run apart) as one: files by path, totals
 * recounted, stats added up.
 */
export function mergeShardResults(results: DatasetProbeResult[]): Promise<DatasetProbeResult>

export interface AdviseIndexesOptions {
  /** The false-positive rate the filters would be built for (default 0.01). */
  fpp?: number
  /** Row groups decoded, evenly spaced (default 8). */
  sampleRowGroups?: number
  /** Distinct values of each sampled row group probed against the others (default 200). */
  valuesPerRowGroup?: number
  /** Leaf column paths (default: every column). */
  columns?: string[]
  signal?: AbortSignal
}

/**
 * One column's advice. Shares are of (value, other sampled row group) pairs, the values being each sampled
 * row group's own: ideal = the value is truly absent (the most any index prunes); statistics = the file's
 * min/max rule it out (null: no usable statistics); bloomFilter = a filter at fpp alone; withStatistics = both.
 * A column whose pages cannot be read is skipped, with the reason.
 */
export type IndexAdvice = {
  column: string, physicalType: PhysicalType, sampledRowGroups: number, distinctPerRowGroup: number,
  prune: { ideal: number, statistics: number | null, bloomFilter: number, withStatistics: number },
  /** Bytes bloom filters sized for the sampled distinct counts would take over all row groups, headers included. */
  filterBytes: number
  /** Every sampled row group's chunk already has a bloom filter. */
  hasFilters: boolean
  pairs: number
} | { column: string, physicalType: PhysicalType, skipped: string }

/**
 * What each index would prune for probes of each column's own values, measured by decoding a sample of row
 * groups, and what bloom filters would cost (inspect --advise). Loaded on first use; also on parquet-bloom/index-builder.
 */
export function adviseIndexes(file: ParquetFile, options?: AdviseIndexesOptions): Promise<IndexAdvice[]>
