// A consumer of the 'parquet-bloom/index-builder' entry (js/index-builder/index.d.ts: addIndexes,
// buildSidecarIndex, mergeSidecarSegments, openSidecarIndex, SidecarIndex, adviseIndexes), compiled by
// tests/js/consumer-types.test.js with tsc --strict like tests/types/consumer.ts: every documented option
// passed (`Required<…>`), every documented result field read (`Every<…>`). Never run, only compiled.
import { openDataset, openParquet, type ParquetDataset, type ParquetFile, type ErrorCodeValue, type ProbeValueResult, type StaleIndexReason, type ValidatorKind } from 'parquet-bloom'
import {
  addIndexes, adviseIndexes, buildSidecarIndex, INDEXES_KEY, mergeSidecarSegments, openSidecarIndex,
  type AddIndexesOptions, type AddIndexesResult, type OpenSidecarIndexOptions, type SidecarBuildOptions, type SidecarMergeOptions, type SidecarFileEntry, type SidecarIndex, type SidecarProbeResult,
} from 'parquet-bloom/index-builder'

/** Every field of T, each one present (optional ones too), and no other. */
type Every<T> = { [K in keyof Required<T>]: unknown }

const signal = new AbortController().signal

const addOptions: Required<AddIndexesOptions> = {
  columns: ['user_id', ['a', 'b']], fpp: 0.01, ndv: 'auto', replace: false, pageIndex: true, windowBytes: 4 << 20, signal,
  decryption: { footerKey: '0123456789012345', columnKeys: { ssn: new Uint8Array(16) }, aadPrefix: 'tester' },
}

const buildOptions: Required<SidecarBuildOptions> = {
  columns: ['user_id'], fpp: 0.01, ndv: 1000, base: '/data', update: '/data/_index.puffin', segmentBytes: 32 << 20, format: 2, signal,
  shard: { index: 3, count: 16 }, concurrency: 64, prefetchBytes: 64 << 20, fetch: globalThis.fetch,
  table: { location: 'https://bucket.example.com/warehouse/events/', format: 'iceberg', snapshot: '3055729675574597', headers: { authorization: 'Bearer x' } },
}

const mergeOptions: Required<SidecarMergeOptions> = { format: 2, segmentBytes: 32 << 20, fetch: globalThis.fetch, signal }

const openOptions: Required<OpenSidecarIndexOptions> = {
  base: '/data', initialFetchSize: 256 << 10, signal, fetch: globalThis.fetch, headers: new Headers({ authorization: 'Bearer x' }), maxBytes: 64 << 20,
  requestTimeoutMs: 1000, userAgent: 'consumer', retries: 3, name: 'the index', size: 1 << 20, fileSize: 1 << 20, etag: '"abc"', boundsBytes: 64 << 10,
}

function addedFields(r: AddIndexesResult): Every<AddIndexesResult> {
  return {
    bytesRead: r.bytesRead, bytesWritten: r.bytesWritten, blob: r.blob satisfies Blob | undefined,
    added: r.added.map((a) => ({ rowGroup: a.rowGroup, column: a.column, offset: a.offset, length: a.length, ndv: a.ndv, exact: a.exact, numBytes: a.numBytes, encrypted: a.encrypted satisfies true | undefined }) satisfies Every<AddIndexesResult['added'][number]>),
    pageIndexes: r.pageIndexes.map((p) => ({
      rowGroup: p.rowGroup, column: p.column,
      offsetIndex: { offset: p.offsetIndex.offset, length: p.offsetIndex.length }, columnIndex: p.columnIndex && { offset: p.columnIndex.offset, length: p.columnIndex.length },
      encrypted: p.encrypted satisfies true | undefined,
    }) satisfies Every<AddIndexesResult['pageIndexes'][number]>),
    skipped: r.skipped.map((s) => ({ rowGroup: s.rowGroup, column: s.column, reason: s.reason, detail: s.detail }) satisfies Every<AddIndexesResult['skipped'][number]>),
  }
}

type Merged = Awaited<ReturnType<typeof mergeSidecarSegments>>
function mergedFields(m: Merged): Every<Merged> {
  return { format: m.format, segments: m.segments, files: m.files, chunks: m.chunks, bytesWritten: m.bytesWritten, blob: m.blob }
}

type Built = Awaited<ReturnType<typeof buildSidecarIndex>>
function builtFields(b: Built): Every<Built> {
  return {
    format: b.format, files: b.files, rebuilt: b.rebuilt, kept: b.kept, dropped: b.dropped, chunks: b.chunks, bytesWritten: b.bytesWritten, blob: b.blob,
    validators: { mtime: b.validators.mtime, etag: b.validators.etag, 'last-modified': b.validators['last-modified'], unsettled: b.validators.unsettled,
      none: b.validators.none } satisfies Every<Built['validators']>,
    skipped: b.skipped.map((s) => ({ file: s.file, rowGroup: s.rowGroup, column: s.column, detail: s.detail }) satisfies Every<Built['skipped'][number]>),
    table: b.table && ({ format: b.table.format, snapshot: b.table.snapshot, version: b.table.version,
      statistics: b.table.statistics && ({ 'snapshot-id': b.table.statistics['snapshot-id'], 'statistics-path': b.table.statistics['statistics-path'],
        'file-size-in-bytes': b.table.statistics['file-size-in-bytes'], 'file-footer-size-in-bytes': b.table.statistics['file-footer-size-in-bytes'],
        'blob-metadata': b.table.statistics['blob-metadata'].map((m) => ({ type: m.type, 'snapshot-id': m['snapshot-id'], 'sequence-number': m['sequence-number'], fields: m.fields, properties: m.properties })) }),
    } satisfies Every<NonNullable<Built['table']>>),
  }
}

function entryFields(f: SidecarFileEntry): Every<SidecarFileEntry> {
  return {
    path: f.path, size: f.size, validator: f.validator, numRows: f.numRows,
    columns: Object.values(f.columns).map((c) => ({ physicalType: c.physicalType, typeLength: c.typeLength, logicalType: c.logicalType }) satisfies Every<SidecarFileEntry['columns'][string]>),
    rowGroups: f.rowGroups.map((g) => ({ numRows: g.numRows, chunks: Object.values(g.chunks).map((c) => c && { region: c[0], place: c[1], numBytes: c[2], min: c[3], max: c[4] }) }) satisfies Every<SidecarFileEntry['rowGroups'][number]>),
  }
}

function indexMembers(index: SidecarIndex): Every<SidecarIndex> {
  const d = index.directory
  return {
    files: index.files.map(entryFields),
    columns: index.columns,
    directory: {
      format: d.format, version: d.version, writer: d.writer, fpp: d.fpp, columns: d.columns, files: d.files.map(entryFields),
      regions: d.regions.map((r) => ({ offset: r.offset, count: r.count, numBytes: r.numBytes }) satisfies Every<SidecarIndex['directory']['regions'][number]>),
    } satisfies Every<SidecarIndex['directory']>,
    stats: { requests: index.stats.requests, bytesFetched: index.stats.bytesFetched, rounds: index.stats.rounds, heads: index.stats.heads } satisfies Every<SidecarIndex['stats']>,
    loadDirectory: index.loadDirectory, probe: index.probe, refine: index.refine, close: index.close,
  }
}

function probedFields(r: SidecarProbeResult): Every<SidecarProbeResult> {
  return {
    column: r.column,
    files: r.files.map((f) => ({
      path: f.path, current: f.current, reason: f.reason satisfies StaleIndexReason | undefined, detail: f.detail,
      validators: f.validators && ({ recorded: f.validators.recorded satisfies ValidatorKind, found: f.validators.found satisfies ValidatorKind | 'none' }),
      error: f.error && ({ code: f.error.code satisfies ErrorCodeValue, message: f.error.message }),
      rowGroups: f.rowGroups.map((g) => ({ index: g.index, numRows: g.numRows, results: g.results.map((v: ProbeValueResult) => v.verdict) }) satisfies Every<SidecarProbeResult['files'][number]['rowGroups'][number]>),
    }) satisfies Every<SidecarProbeResult['files'][number]>),
  }
}

type Advice = Awaited<ReturnType<typeof adviseIndexes>>[number]
function adviceFields(a: Advice): Every<Exclude<Advice, { skipped: string }>> | Every<Extract<Advice, { skipped: string }>> {
  if ('skipped' in a) return { column: a.column, physicalType: a.physicalType, skipped: a.skipped }
  return {
    column: a.column, physicalType: a.physicalType, sampledRowGroups: a.sampledRowGroups, distinctPerRowGroup: a.distinctPerRowGroup,
    prune: { ideal: a.prune.ideal, statistics: a.prune.statistics, bloomFilter: a.prune.bloomFilter, withStatistics: a.prune.withStatistics } satisfies Every<typeof a.prune>,
    filterBytes: a.filterBytes, hasFilters: a.hasFilters, pairs: a.pairs,
  }
}

export async function consumeIndexBuilder(url: string): Promise<unknown[]> {
  const key: 'parquet-bloom.indexes' = INDEXES_KEY
  const added = await addIndexes(url, null, addOptions)
  await addIndexes(new Uint8Array(8), '/tmp/out.parquet', { columns: ['id'] })
  await addIndexes(new Blob([]), new WritableStream<Uint8Array>(), { columns: ['id'], ndv: 100 })
  const built = await buildSidecarIndex(['/data/a.parquet', '/data'], '/data/_index.puffin', buildOptions)
  const merged = await mergeSidecarSegments(['/data/_seg0.puffin', new Uint8Array(8), new Blob([])], null, mergeOptions)
  await mergeSidecarSegments(['/data/_seg0.puffin'], '/data/_index.puffin')
  const index: SidecarIndex = await openSidecarIndex(url, openOptions)
  await index.loadDirectory({ signal }) // a directory beyond the tail read: index.files and index.directory once it is read
  const probed = await index.probe('user_id', [42n], { files: ['a.parquet', { path: 'b.parquet', size: 10, validator: null }], validate: true, signal })
  const file: ParquetFile = await openParquet(url, { index })
  // A dataset takes the opened index too (and closes only one it opened itself from a path or URL).
  const dataset: ParquetDataset = await openDataset(['/data/a.parquet'], { index })
  await dataset.close()
  const advice = await adviseIndexes(file, { fpp: 0.01, sampleRowGroups: 8, valuesPerRowGroup: 200, columns: ['id'], signal })
  await index.close()
  return [key, addedFields(added), builtFields(built), mergedFields(merged), indexMembers(index), probedFields(probed), advice.map(adviceFields)]
}
