// parquet-bloom public API: Split Block Bloom Filters for Parquet, backed by a wasm core.
import { getCore, init as initCore } from './wasm/core.js'

export { BloomFilter } from './filter/bloom-filter.js'
export { openParquet, ParquetFile } from './parquet-file.js'
export { browserStore, createFooterCache, directoryStore, FooterCache, memoryStore } from './footer/footer-cache.js'
export { ErrorCode, ParquetBloomError } from './errors.js'
export { describeColumnType } from './footer/column-type.js'
export { parseHexBytes } from './values/input.js'
export { REASONS, Source } from './verdicts.js'
export { assessFilterHealth, HEALTH_CODES } from './filter/filter-health.js'
export { WRITER_RULES, writerRulesFor } from './indexes/writer-rules.js'
export { redactUrl } from './sources/http-request.js'
export { READ_PURPOSES } from './sources/io-ledger.js'

/**
 * Opens many Parquet files as one dataset (js/dataset/dataset.js, loaded on first use: a probe of one
 * file never downloads it).
 * @param {Parameters<typeof import('./dataset/dataset.js').openDataset>[0]} source
 * @param {Parameters<typeof import('./dataset/dataset.js').openDataset>[1]} [options]
 */
export async function openDataset(source, options) {
  const dataset = await import('./dataset/dataset.js')
  return dataset.openDataset(source, options)
}

/**
 * The answers of a dataset's shards, probed apart, as one answer (js/dataset/dataset.js mergeShardResults).
 * @param {Parameters<typeof import('./dataset/dataset.js').mergeShardResults>[0]} results
 */
export async function mergeShardResults(results) {
  const dataset = await import('./dataset/dataset.js')
  return dataset.mergeShardResults(results)
}

/**
 * Loads the wasm module. Safe to call repeatedly; openParquet() calls it for you. Pass
 * `{ module }` (parquet_bloom.wasm as a WebAssembly.Module) where wasm cannot be compiled at run time.
 * @param {{ module?: WebAssembly.Module }} [options]
 */
export async function init(options) {
  await initCore(options)
}

/**
 * Wasm memory in bytes: the whole linear memory, what the scratch pool holds, and what is in use.
 * @returns {{ heapBytes: number, poolBytes: number, poolInUseBytes: number, poolMaxBytes: number }}
 */
export function memoryStats() {
  return getCore().memoryStats()
}

/**
 * Bounds the wasm scratch pool (bitsets + batch scratch). Lowering it below what is in use takes
 * effect as blocks are released.
 * @param {{ maxPoolBytes?: number }} options
 */
export function configure({ maxPoolBytes } = {}) {
  if (maxPoolBytes !== undefined) getCore().native.poolSetMaxBytes(maxPoolBytes)
}

/**
 * Per column, how much each index would prune for probes of the column's own values, and what bloom
 * filters would cost (js/advice/advise.js, loaded on first use with the page decoders: a probe
 * never downloads it). Here as well as on parquet-bloom/index-builder because a browser reaches only the
 * bundle, which is built from this entry.
 * @param {Parameters<typeof import('./advice/advise.js').adviseIndexes>[0]} file
 * @param {Parameters<typeof import('./advice/advise.js').adviseIndexes>[1]} [options]
 */
export async function adviseIndexes(file, options) {
  const advise = await import('./advice/advise.js')
  return advise.adviseIndexes(file, options)
}

/**
 * Opens an Iceberg or Delta table as a dataset of its live files, pruned by the table's own metadata
 * (js/table/open-table.js, loaded on first use with its Avro and checkpoint readers).
 * @param {Parameters<typeof import('./table/open-table.js').openTable>[0]} location
 * @param {Parameters<typeof import('./table/open-table.js').openTable>[1]} [options]
 */
export async function openTable(location, options) {
  const table = await import('./table/open-table.js')
  return table.openTable(location, options)
}
