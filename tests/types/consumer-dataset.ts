// A consumer of the dataset and table types of the main entry ('parquet-bloom': openDataset, ParquetDataset,
// mergeShardResults, openTable, ParquetTable), compiled by tests/js/consumer-types.test.js with tsc
// --strict like tests/types/consumer.ts: `Required<…>` option objects pass every documented option,
// `Every<…>` literals read every documented result field, so a field added to, renamed in or dropped from
// the declarations fails here until this file follows. Never run, only compiled.
import {
  createFooterCache, mergeShardResults, openDataset, openTable,
  type DatasetCoverage, type DatasetFileDescriptor, type DatasetFileResult, type DatasetIndexStatus, type DatasetProbeOptions, type DatasetProbeResult,
  type ErrorCodeValue, type OpenDatasetOptions, type OpenTableOptions, type ParquetDataset, type ParquetFile, type ParquetTable,
  type PartitionType, type PrefilterAnswer, type ProbeValueResult, type StaleIndexReason, type TableColumnType, type TableIndexUnusedReason, type TableProbeResult, type TableSummary, type ValidatorKind, type Verdict,
} from 'parquet-bloom'
import { ioFields, planFields } from './consumer.js'

/** Every field of T, each one present (optional ones too), and no other. */
type Every<T> = { [K in keyof Required<T>]: unknown }

type FileView = DatasetFileDescriptor & { partitions: Record<string, unknown>, validator: string | null }

const prefilter = (file: FileView, column: string, values: unknown[]): PrefilterAnswer[] | null =>
  file.validator === null && column === 'id' ? values.map(() => ({ verdict: 'absent', source: 'table-stats', reason: 'out-of-range', detail: file.path })) : null
const columnOf = async (file: FileView, parquetFile: ParquetFile, column: string | string[]): Promise<string | string[]> =>
  file.partitions.day === undefined ? column : parquetFile.column(column).path

const descriptor: Required<DatasetFileDescriptor> = {
  path: 'day=2026-01-07/a.parquet', location: new URL('https://example.com/a.parquet'), size: 1 << 20, etag: '"abc"', partitions: { day: '2026-01-07' },
}

const datasetOptions: Required<Omit<OpenDatasetOptions, keyof import('parquet-bloom').OpenParquetOptions>> & OpenDatasetOptions = {
  partitioning: { day: 'DATE', country: 'VARCHAR', hour: 'TIMESTAMP', n: 'BIGINT' } satisfies Record<string, PartitionType>,
  hivePartitioning: true,
  prefilter,
  columnOf,
  credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret', sessionToken: 'token', region: 'auto' },
  endpoint: new URL('https://account.r2.cloudflarestorage.com'),
  region: 'eu-west-1',
  maxKeys: 1000,

  index: 'https://example.com/events/_index.puffin',
  footerCache: createFooterCache(),
  signal: new AbortController().signal,
}

const probeOptions: Required<Omit<DatasetProbeOptions, keyof import('parquet-bloom').ProbeOptions>> & DatasetProbeOptions = {
  where: { country: ['FR', 'DE'], day: new Date(0) },
  shard: { index: 0, count: 4 },
  limit: 10,
  onProgress: (progress) => {
    const fields: Every<typeof progress> = { filesDone: progress.filesDone, filesFailed: progress.filesFailed, filesTotal: progress.filesTotal, ...ioFields(progress), bytes: progress.bytes }
    void fields
  },
  prefilter,
  columnOf,
  fileConcurrency: 8,
  maxResults: 1_000_000,
  confirm: true,
  columns: ['id'],
}
// @ts-expect-error a dataset probe takes every row group: rowGroups names those of one file
const oneFile: DatasetProbeOptions = { rowGroups: [0] }

const tableOptions: Required<Omit<OpenTableOptions, keyof OpenDatasetOptions>> & OpenTableOptions = {
  format: 'auto',
  snapshot: 4567890123456789012n,
  version: 3,
  metadata: 'metadata/v3.metadata.json',
  rebase: (path: string) => (path.startsWith('s3://') ? new URL(path.replace('s3://', 'https://')) : undefined),
  allowOutside: ['https://other.example.com/warehouse/'],
  prefilter,
  credentials: datasetOptions.credentials,
}
// @ts-expect-error a table's columns are found by its metadata, not by a caller's columnOf
const mapped: OpenTableOptions = { columnOf }

function fileFields(f: DatasetFileResult): Every<DatasetFileResult> {
  return {
    path: f.path, partitions: f.partitions, values: f.values.map((v: ProbeValueResult) => v.verdict satisfies Verdict),
    rowGroups: f.rowGroups.map((g) => ({ index: g.index, numRows: g.numRows, results: g.results }) satisfies Every<DatasetFileResult['rowGroups'][number]>),
    error: f.error && ({ code: f.error.code satisfies ErrorCodeValue, message: f.error.message, status: f.error.status } satisfies Every<NonNullable<DatasetFileResult['error']>>),
    stats: ioFields(f.stats),
    logicalType: f.logicalType, skipped: f.skipped satisfies 'where' | 'limit' | undefined, column: f.column, physicalType: f.physicalType,
    typeLength: f.typeLength,
    confirm: f.confirm && ioFields(f.confirm),
    columnsMissing: f.columnsMissing?.map((c) => c satisfies string),
    index: f.index && (f.index.described ? { described: f.index.described satisfies true }
      : { described: f.index.described satisfies false, reason: f.index.reason satisfies StaleIndexReason, detail: f.index.detail,
        validators: f.index.validators && ({ recorded: f.index.validators.recorded satisfies ValidatorKind, found: f.index.validators.found } satisfies Every<NonNullable<Extract<DatasetIndexStatus, { described: false }>['validators']>>) } satisfies Every<Extract<DatasetIndexStatus, { described: false }>>),
  }
}

function resultFields(r: DatasetProbeResult): Every<DatasetProbeResult> {
  const t = r.totals
  return {
    files: r.files.map(fileFields),
    totals: {
      files: t.files, filesOpened: t.filesOpened, filesWithError: t.filesWithError, filesSkipped: t.filesSkipped, rowGroups: t.rowGroups,
      verdicts: { absent: t.verdicts.absent, maybe: t.verdicts.maybe, present: t.verdicts.present, unknown: t.verdicts.unknown } satisfies Every<DatasetProbeResult['totals']['verdicts']>,
      ruledOut: Object.entries(t.ruledOut).map(([source, n]) => ({ files: n.files, rowGroups: n.rowGroups + source.length }) satisfies Every<DatasetProbeResult['totals']['ruledOut'][string]>),
      index: t.index && ({ described: t.index.described, notDescribed: t.index.notDescribed, reasons: t.index.reasons['validator-kind-differs'] satisfies number | undefined } satisfies Every<NonNullable<DatasetProbeResult['totals']['index']>>),
    } satisfies Every<DatasetProbeResult['totals']>,
    stats: statsFields(r.stats),
    plan: r.plan && planFields(r.plan),
  }
}

function statsFields(s: DatasetProbeResult['stats']): Every<DatasetProbeResult['stats']> {
  return { ...ioFields(s), bytes: s.bytes, window: s.window, filesOpened: s.filesOpened, footersFromCache: s.footersFromCache, ms: s.ms,
    index: s.index && ({ ...ioFields(s.index), reads: s.index.reads, bytes: s.index.bytes } satisfies Every<NonNullable<DatasetProbeResult['stats']['index']>>) }
}

function coverageFields(c: DatasetCoverage): Every<DatasetCoverage> {
  return {
    files: c.files, filesWithError: c.filesWithError,
    errors: c.errors.map((e) => ({ path: e.path, error: { code: e.error.code satisfies ErrorCodeValue, message: e.error.message, status: e.error.status } }) satisfies Every<DatasetCoverage['errors'][number]>),
    columns: c.columns.map((col) => ({
      column: col.column, physicalTypes: col.physicalTypes, files: col.files, rowGroups: col.rowGroups,
      statistics: { files: col.statistics.files, rowGroups: col.statistics.rowGroups }, pageIndex: { files: col.pageIndex.files, rowGroups: col.pageIndex.rowGroups },
      dictionaryOnly: { files: col.dictionaryOnly.files, rowGroups: col.dictionaryOnly.rowGroups }, bloomFilter: { files: col.bloomFilter.files, rowGroups: col.bloomFilter.rowGroups },
    }) satisfies Every<DatasetCoverage['columns'][number]>),
    stats: statsFields(c.stats),
    plan: c.plan && planFields(c.plan),
  }
}

function datasetMembers(d: ParquetDataset): Every<ParquetDataset> {
  return {
    files: d.files.map((f) => ({ path: f.path, size: f.size, validator: f.validator, partitions: f.partitions }) satisfies Every<ParquetDataset['files'][number]>),
    partitionTypes: d.partitionTypes satisfies Record<string, PartitionType>,
    listing: d.listing && ioFields(d.listing),
    probe: d.probe, probeEach: d.probeEach, inspect: d.inspect, close: d.close,
  }
}

function tableColumnType(t: TableColumnType): Every<TableColumnType> {
  return { kind: t.kind, precision: t.precision, scale: t.scale, length: t.length, name: t.name }
}

function summaryFields(s: TableSummary): Every<TableSummary> {
  return {
    format: s.format, writer: s.writer, snapshot: s.snapshot,
    snapshots: s.snapshots?.map((x) => ({ id: x.id, timestampMs: x.timestampMs, operation: x.operation }) satisfies Every<NonNullable<TableSummary['snapshots']>[number]>),
    version: s.version, files: s.files,
    filesWithDeletes: { position: s.filesWithDeletes.position, equality: s.filesWithDeletes.equality, dv: s.filesWithDeletes.dv } satisfies Every<TableSummary['filesWithDeletes']>,
    columns: s.columns.map((c) => ({ column: c.column, type: c.type satisfies TableColumnType['kind'], files: c.files, bounds: c.bounds, nullCounts: c.nullCounts, nanCounts: c.nanCounts, partitions: c.partitions }) satisfies Every<TableSummary['columns'][number]>),
  }
}

function tableMembers(t: ParquetTable): Every<ParquetTable> {
  const info = t.table
  const manifests = info.manifests && ({ total: info.manifests.total, read: info.manifests.read } satisfies Every<NonNullable<ParquetTable['table']['manifests']>>)
  return {
    ...datasetMembers(t),
    listFiles: t.listFiles,
    table: {
      format: info.format, snapshot: info.snapshot, formatVersion: info.formatVersion, metadataLocation: info.metadataLocation, manifests, version: info.version,
      writer: info.writer, columns: info.columns.map((c) => ({ name: c.name, type: tableColumnType(c.type) }) satisfies Every<ParquetTable['table']['columns'][number]>),
      files: info.files.map((f) => ({ path: f.path, location: f.location, size: f.size, deletes: f.deletes satisfies Array<'position' | 'equality' | 'dv'> }) satisfies Every<ParquetTable['table']['files'][number]>),
      metadataStats: ioFields(info.metadataStats),
      index: info.index && ({ unchanged: info.index.unchanged satisfies boolean, manifestsFromIndex: info.index.manifestsFromIndex, manifestsAdded: info.index.manifestsAdded,
        commitsRead: info.index.commitsRead, replayed: info.index.replayed, reason: info.index.reason satisfies TableIndexUnusedReason | undefined,
        reads: { requests: info.index.reads.requests, bytesFetched: info.index.reads.bytesFetched, rounds: info.index.reads.rounds, heads: info.index.reads.heads } satisfies Every<NonNullable<ParquetTable['table']['index']>['reads']>,
      } satisfies Every<NonNullable<ParquetTable['table']['index']>>),
    } satisfies Every<ParquetTable['table']>,
    summary: t.summary().then(summaryFields),
  }
}

function tableResultFields(r: TableProbeResult): Every<TableProbeResult> {
  const m = r.manifests
  return { ...resultFields(r), manifests: m && ({ total: m.total, read: m.read, skipped: m.skipped, fetched: m.fetched, fromIndex: m.fromIndex } satisfies Every<NonNullable<TableProbeResult['manifests']>>) }
}

export async function consumeDataset(url: string): Promise<unknown[]> {
  const dataset: ParquetDataset = await openDataset('s3://bucket/events/**/*.parquet', datasetOptions)
  const listed: ParquetDataset[] = [await openDataset([url, new URL(url), new Blob([])]), await openDataset([descriptor]), await openDataset(new URL('file:///data/events'))]
  const result: DatasetProbeResult = await dataset.probe('id', [42n], probeOptions)
  const each: DatasetFileResult[] = []
  for await (const file of dataset.probeEach(['a', 'b'], new Set([1]), { signal: probeOptions.signal, mode: 'block' })) each.push(file)
  const inspectOptions: Required<NonNullable<Parameters<ParquetDataset['inspect']>[0]>> = {
    signal: new AbortController().signal, shard: { index: 1, count: 2 }, onProgress: probeOptions.onProgress, fileConcurrency: 4, concurrency: 64, plan: true,
  }
  const coverage: DatasetCoverage = await dataset.inspect(inspectOptions)
  const merged: DatasetProbeResult = await mergeShardResults([result, result])

  const table: ParquetTable = await openTable(new URL('https://bucket.example.com/warehouse/events/'), tableOptions)
  await openTable('data/delta-table', { format: 'delta', version: 0, allowOutside: true, snapshot: '123', rebase: () => null })
  const tableResult: TableProbeResult = await table.probe('user_id', [42n], { confirm: true })
  const listedFiles: ParquetDataset['files'] = await table.listFiles()
  const asDataset: ParquetDataset = table

  return [datasetMembers(dataset), listed, resultFields(result), each.map(fileFields), coverageFields(coverage), resultFields(merged),
    tableMembers(table), tableResultFields(tableResult), listedFiles, asDataset, oneFile, mapped]
}
