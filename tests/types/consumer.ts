// A consumer of the published types (js/index.d.ts, through package.json "exports"), compiled by
// tests/js/consumer-types.test.js with tsc --strict. It passes every documented option and reads every
// documented result field: `Every<T>` makes the compiler refuse a literal that leaves a field of T out
// or names one T does not declare, so a field added to, renamed in or dropped from the declarations
// fails here until this file (and so its reader) follows. Never run, only compiled.
import {
  adviseIndexes, assessFilterHealth, BloomFilter, browserStore, configure, createFooterCache, describeColumnType, directoryStore, ErrorCode,
  init, memoryStats, memoryStore, openParquet, ParquetBloomError, parseHexBytes, REASONS, redactUrl, Source, WRITER_RULES,
  writerRulesFor, HEALTH_CODES,
  type AdviseIndexesOptions, type IndexAdvice, type BloomFilterHeaderInfo, type BloomFilterParts, type BloomFilterVisit, type ChunkIndexes, type ColumnChunkInfo,
  type ColumnarValues, type DecryptionOptions, type ErrorCodeValue, type FilterHealth, type FooterCache, type FooterCacheOptions,
  type FooterStore, type HealthWarning, type InitOptions, type LeafColumn, type MemoryStats, type OpenParquetOptions,
  type ParquetFile, type ParquetMetadata, type ProbeOptions, type ProbeResult, type ProbeValueResult, type ReasonCode,
  type RowGroupInfo, type Verdict, type VerdictSource, type WriterRule, type IoStats, type ReadPlan, type ReadPurpose, READ_PURPOSES,
} from 'parquet-bloom'

/** Every field of T, each one present (optional ones too), and no other. */
type Every<T> = { [K in keyof Required<T>]: unknown }

/** Every field of an IoStats, the one I/O shape. */
export function ioFields(s: IoStats): Every<IoStats> {
  return { requests: s.requests, bytesFetched: s.bytesFetched, rounds: s.rounds, retries: s.retries, heads: s.heads }
}

/** Every field of a read plan. */
export function planFields(p: ReadPlan): Every<ReadPlan> {
  return {
    files: p.files satisfies string[],
    requests: p.requests.map((r) => ({ file: r.file, purpose: r.purpose satisfies ReadPurpose, purposes: r.purposes, offset: r.offset, length: r.length, bytes: r.bytes,
      round: r.round, startMs: r.startMs, ms: r.ms, retry: r.retry, failed: r.failed }) satisfies Every<ReadPlan['requests'][number]>),
    rounds: p.rounds.map((r) => ({ round: r.round, requests: r.requests, bytes: r.bytes, startMs: r.startMs, endMs: r.endMs, purposes: r.purposes.footer }) satisfies Every<ReadPlan['rounds'][number]>),
    stats: ioFields(p.stats),
    listed: { requests: p.listed.requests, omitted: p.listed.omitted, maxRequests: p.listed.maxRequests } satisfies Every<ReadPlan['listed']>,
  }
}

const purposes: readonly ReadPurpose[] = READ_PURPOSES
void purposes

const store: FooterStore = {
  get: async (_key: string) => undefined,
  set: async (_key: string, _bytes: Uint8Array) => {},
  delete: async (_key: string) => {},
  list: async () => [{ key: 'k', size: 1 }],
}
const cacheOptions: Required<FooterCacheOptions> = { maxBytes: 1 << 20, store, trustUnvalidated: false }
const cache: FooterCache = createFooterCache(cacheOptions)

const decryption: Required<DecryptionOptions> = {
  footerKey: '0123456789012345',
  columnKeys: { 'a.b': new Uint8Array(16) },
  aadPrefix: 'prefix',
  keyRetriever: async (keyMetadata: Uint8Array, context: { column?: string }) => (context.column ?? '') + keyMetadata.length,
}

const openOptions: Required<OpenParquetOptions> = {
  signal: new AbortController().signal,
  fetch: globalThis.fetch,
  headers: { authorization: 'Bearer x' },
  initialFetchSize: 64 * 1024,
  maxBytes: 64 << 20,
  maxFooterBytes: 128 << 20,
  concurrency: 6,
  coalesceGap: 8192,
  maxRequestBytes: 16 << 20,
  requestTimeoutMs: 1000,
  userAgent: 'consumer',
  name: 'a file',
  footerCache: cache,
  decryption,
  size: 1 << 20,
  fileSize: 1 << 20, // deprecated: the former name of size (equal values accepted)
  etag: '"abc"',
  retries: 3,
  plan: true,
  index: { refine: async () => {} },
}

const probeOptions: Required<ProbeOptions> = {
  statistics: true,
  dictionary: 'auto',
  pageIndex: 'auto',
  mode: 'block',
  signal: new AbortController().signal,
  rowGroups: [0],
  concurrency: 4,
  coalesceGap: 64,
  confirm: true,
  maxConfirmBytes: 16 << 20,
  maxRows: 1000,
  columns: ['id'],
  plan: true,
  maxResults: 10_000_000,
}

const initOptions: Required<InitOptions> = { module: new WebAssembly.Module(new Uint8Array(8)) }

export async function consume(url: string): Promise<unknown[]> {
  await init(initOptions)
  configure({ maxPoolBytes: 1 << 24 })
  const memory: Every<MemoryStats> = memoryStats()
  const file: ParquetFile = await openParquet(url, openOptions)
  const fileMembers: Every<ParquetFile> = {
    name: file.name, fileSize: file.fileSize, metadataOffset: file.metadataOffset, footerFromCache: file.footerFromCache,
    stats: ioFields(file.stats),
    metadata: file.metadata, layout: file.layout, column: file.column, probe: file.probe, visitBloomFilter: file.visitBloomFilter,
    getBloomFilter: file.getBloomFilter, readBloomFilterParts: file.readBloomFilterParts, forEachBloomFilter: file.forEachBloomFilter,
    validateFooter: file.validateFooter, readRange: file.readRange, close: file.close,
  }

  const result: ProbeResult = await file.probe('id', [1n, 'x', null], probeOptions)
  const resultFields: Every<ProbeResult> = {
    column: result.column, physicalType: result.physicalType, logicalType: result.logicalType, rowGroups: result.rowGroups,
    confirm: result.confirm && ioFields(result.confirm),
    plan: result.plan && planFields(result.plan),
  }
  const valueFields: Array<Every<ProbeValueResult>> = result.rowGroups.flatMap((g) => {
    const group: Every<ProbeResult['rowGroups'][number]> = { index: g.index, numRows: g.numRows, results: g.results }
    return g.results.map((r: ProbeValueResult) => ({
      value: r.value, verdict: r.verdict satisfies Verdict, source: r.source satisfies VerdictSource | null,
      reason: r.reason satisfies ReasonCode, detail: r.detail, pages: r.pages, rows: r.rows, rowsTruncated: r.rowsTruncated,
      values: r.values?.map((row) => row.id ?? group.index),
    }))
  })
  const reason: { verdict: Verdict | null, text: string } = REASONS['not-in-data-pages']
  const sources: VerdictSource[] = [Source.STATISTICS, Source.PAGE_INDEX, Source.DICTIONARY, Source.BLOOM_FILTER, Source.DATA_PAGES, Source.VALUE,
    Source.PARTITION, Source.TABLE_PARTITION, Source.TABLE_STATS]

  const metadata: Every<ParquetMetadata> = { numRows: file.metadata.numRows, createdBy: file.metadata.createdBy, rowGroups: file.metadata.rowGroups }
  const rowGroup: RowGroupInfo = file.metadata.rowGroups[0]
  const rowGroupFields: Every<RowGroupInfo> = { index: rowGroup.index, numRows: rowGroup.numRows, columns: rowGroup.columns }
  const chunk: ColumnChunkInfo = rowGroup.columns[0]
  const chunkFields: Every<ColumnChunkInfo> = {
    path: chunk.path, physicalType: chunk.physicalType, typeLength: chunk.typeLength, logicalType: chunk.logicalType,
    bloom: chunk.bloom && { offset: chunk.bloom.offset, length: chunk.bloom.length }, indexes: chunk.indexes,
  }
  const indexes: ChunkIndexes = chunk.indexes
  const indexFields: Every<ChunkIndexes> = {
    statistics: { present: indexes.statistics.present, usable: indexes.statistics.usable, reason: indexes.statistics.reason, detail: indexes.statistics.detail } satisfies Every<ChunkIndexes['statistics']>,
    pageIndex: { columnIndex: indexes.pageIndex.columnIndex, offsetIndex: indexes.pageIndex.offsetIndex } satisfies Every<ChunkIndexes['pageIndex']>,
    dictionary: { present: indexes.dictionary.present, allDataPages: indexes.dictionary.allDataPages } satisfies Every<ChunkIndexes['dictionary']>,
    bloomFilter: indexes.bloomFilter,
  }
  const leaf: LeafColumn = file.column(['id'])
  const leafFields: Every<LeafColumn> = {
    index: leaf.index, path: leaf.path, name: leaf.name, physicalType: leaf.physicalType, typeLength: leaf.typeLength,
    logicalType: leaf.logicalType, repetition: leaf.repetition, repeated: leaf.repeated,
  }

  const health: FilterHealth = await file.visitBloomFilter(0, 'id', (filter: BloomFilter) => filter.health(), { signal: openOptions.signal })
  const healthFields: Every<FilterHealth> = {
    numBytes: health.numBytes, bitsSet: health.bitsSet, fillRatio: health.fillRatio, estimatedNdv: health.estimatedNdv,
    estimatedFpp: health.estimatedFpp, saturatedWords: health.saturatedWords, emptyBlocks: health.emptyBlocks,
    allBlocksIdentical: health.allBlocksIdentical,
  }
  const warnings: Array<Every<HealthWarning>> = assessFilterHealth(health, { numRows: rowGroup.numRows })
    .map((w) => ({ code: w.code, level: w.level, message: w.message }))
  const healthCode: 'bad' | 'note' = HEALTH_CODES.saturated?.level ?? 'note'

  const parts: BloomFilterParts = await file.readBloomFilterParts(0, 'id', { signal: openOptions.signal })
  const header: BloomFilterHeaderInfo | undefined = parts.header
  const headerFields: Every<BloomFilterHeaderInfo> | undefined = header && {
    status: header.status, numBytes: header.numBytes, headerLength: header.headerLength, algorithm: header.algorithm,
    hash: header.hash, compression: header.compression, problem: header.problem,
  }
  const visits: Array<Every<BloomFilterVisit>> = []
  await file.forEachBloomFilter({ rowGroups: [0], columns: ['id', ['a', 'b']] }, (v: BloomFilterVisit) => {
    visits.push({ offset: v.offset, length: v.length, header: v.header, bitset: v.bitset, error: v.error, encrypted: v.encrypted,
      rowGroup: v.rowGroup, column: v.column, columnIndex: v.columnIndex })
  }, { signal: openOptions.signal, concurrency: 2 })
  await file.validateFooter({ signal: openOptions.signal })
  const bytes: Uint8Array = await file.readRange(0, 4, { signal: openOptions.signal })

  const columnar: Required<ColumnarValues> = { values: new Int32Array(4), offsets: new Int32Array(5), validity: new Uint8Array(1), offset: 0, validityOffset: 0, length: 4 }
  const owned: BloomFilter = await file.getBloomFilter(0, 'id', { signal: openOptions.signal })
  const filter = BloomFilter.create({ ndv: 1000, fpp: 0.01 })
  const filterMembers: Every<BloomFilter> = {
    numBytes: filter.numBytes, released: filter.released, insert: filter.insert(columnar, 'INT32').insert([1, 2], { type: 'INT32' }),
    check: filter.check(parseHexBytes('0x01'), { physicalType: 'FIXED_LEN_BYTE_ARRAY', typeLength: 1 }),
    mightContain: filter.mightContain(1, 'INT32'), toBytes: BloomFilter.fromBytes(filter.toBytes()), health: filter.health(),
    bitset: BloomFilter.fromBitset(filter.bitset()), free: owned.free(), [Symbol.dispose]: filter[Symbol.dispose],
  }
  BloomFilter.create({ numBytes: 32 }).free()

  const cacheFields: Every<FooterCache> = {
    maxBytes: cache.maxBytes, trustUnvalidated: cache.trustUnvalidated, bytes: cache.bytes, forget: await cache.forget(url),
    stats: { hits: cache.stats.hits, misses: cache.stats.misses, stores: cache.stats.stores, evictions: cache.stats.evictions, invalidations: cache.stats.invalidations } satisfies Every<FooterCache['stats']>,
  }
  const stores: FooterStore[] = [memoryStore(), directoryStore('/tmp/x'), browserStore('x')]
  const rules: Array<Every<WriterRule>> = [...WRITER_RULES, ...writerRulesFor(file.metadata.createdBy, 'statistics', leaf, { encodings: 0 })]
    .map((r) => ({ id: r.id, index: r.index, code: r.code, link: r.link, message: r.message, pageIndex: r.pageIndex }))
  const label: string = describeColumnType(leaf) + redactUrl(new URL(url))
  await file.close()

  try {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'x', { cause: null, source: 'a file', offset: 0, field: 'f', status: 400, reason: 'malformed-filter', problem: 'overlaps-footer' })
  } catch (error) {
    if (error instanceof ParquetBloomError) {
      const code: ErrorCodeValue = error.code
      const errorFields: Every<Omit<ParquetBloomError, keyof Error>> = {
        code, source: error.source, offset: error.offset, field: error.field, status: error.status, reason: error.reason, problem: error.problem,
      }
      return [memory, fileMembers, resultFields, valueFields, reason, sources, metadata, rowGroupFields, chunkFields, indexFields,
        leafFields, healthFields, warnings, healthCode, headerFields, visits, bytes, filterMembers, cacheFields, stores, rules, label, errorFields]
    }
  }
  // @ts-expect-error an unknown probe mode is a type error
  await file.probe('id', [1], { mode: 'everything' })
  // @ts-expect-error verdicts are a closed set
  const wrong: Verdict = 'perhaps'
  // @ts-expect-error reason codes are a closed set
  const unknownReason: ReasonCode = 'no-such-reason'
  return [wrong, unknownReason]
}

/** adviseIndexes from the main entry (the browser bundle's only way to it): every option, every field of both forms. */
export async function consumeAdvice(file: ParquetFile, signal: AbortSignal): Promise<unknown[]> {
  const options: Required<AdviseIndexesOptions> = { fpp: 0.05, sampleRowGroups: 4, valuesPerRowGroup: 50, columns: ['id'], signal }
  const advice: IndexAdvice[] = await adviseIndexes(file, options)
  await adviseIndexes(file)
  return advice.map((a): Every<Exclude<IndexAdvice, { skipped: string }>> | Every<Extract<IndexAdvice, { skipped: string }>> => {
    if ('skipped' in a) return { column: a.column, physicalType: a.physicalType, skipped: a.skipped }
    return {
      column: a.column, physicalType: a.physicalType, sampledRowGroups: a.sampledRowGroups, distinctPerRowGroup: a.distinctPerRowGroup,
      prune: { ideal: a.prune.ideal, statistics: a.prune.statistics, bloomFilter: a.prune.bloomFilter, withStatistics: a.prune.withStatistics } satisfies Every<typeof a.prune>,
      filterBytes: a.filterBytes, hasFilters: a.hasFilters, pairs: a.pairs,
    }
  })
}
