// `inspect --advise`: per column, how much each index would prune for probes of the column's own values
// and what a bloom filter would cost. A sample of row groups is decoded (js/index-builder/chunk-scan.js);
// each sampled row group's distinct values (up to a bound) are the probes, asked of every other sampled
// row group: the share of those (value, row group) pairs where the value is truly absent is the most any
// index can prune; the share the row groups' own statistics rule out is measured with the statistics
// the file has; a bloom filter would rule out the remaining absent pairs at 1 − fpp. The filter's cost
// is the SBBF size the wasm core picks for each sampled chunk's distinct values, scaled to all row groups.
import { getCore } from '../wasm/core.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
// The file layer is imported for the argument check; reaching it whole also keeps the browser bundle's
// probe path in the chunks it had: esbuild splits shared code by the set of entries reaching it, and an
// on-demand entry reaching only some of the probe path's modules would cut its chunks into smaller,
// worse-compressing files (tests/js/package.test.js holds the budget).
import { ParquetFile } from '../parquet-file.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk as chunkView } from '../footer/records.js'
import { chunkByteRange } from '../indexes/page-index.js'
import { columnDecoder } from '../pages/page-decode.js'
import { chunkStatistics, excludedByBounds, sortKeys, sortOrderFor } from '../indexes/statistics.js'
import { encodeHeader } from '../indexes/bloom-header.js'
import { scanChunk } from '../index-builder/chunk-scan.js'
import { columnarViews, DictionaryUse, FILTERABLE_TYPES } from '../index-builder/chunk-values.js'
import { checkFpp } from '../wasm/sbbf.js'

/** @typedef {import('../index-builder/chunk-values.js').ColumnarBytes} ColumnarBytes */
/** @typedef {import('../indexes/statistics.js').SortKey} SortKey */

export const DEFAULT_SAMPLE_ROW_GROUPS = 8
/** Probe values taken from each sampled row group. */
export const DEFAULT_VALUES_PER_ROW_GROUP = 200

const hex = (/** @type {Uint8Array} */ bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
/**
 * One key per stored value: the two zeros are one value to a probe.
 * @param {unknown} v
 */
const keyOf = (v) => (v instanceof Uint8Array ? `x${hex(v)}` : typeof v === 'bigint' ? `b${v}` : `n${v === 0 ? 0 : v}`)

/** A chunk's distinct values (a ValueSink): every distinct key, and up to `keep` of the values. */
class SampleValues {
  /** @param {number} keep */
  constructor(keep) {
    this.keep = keep
    /** @type {Set<string>} */
    this.keys = new Set()
    /** @type {unknown[]} */
    this.values = []
    this.dictionaryUse = new DictionaryUse()
  }

  /** @param {ArrayLike<unknown>} values the dictionary page's */
  dictionary(values) {
    this.dictionaryUse.set(values)
  }

  /** @param {ArrayLike<number>} indexes a data page's dictionary indexes */
  indexes(indexes) {
    this.dictionaryUse.mark(indexes)
  }

  /**
   * @param {ArrayLike<unknown> | ColumnarBytes} input
   *   a data page's values: an array, a typed array, or byte arrays as columnar bytes
   */
  plain(input) {
    const columnar = !Array.isArray(input) && !ArrayBuffer.isView(input)
    const values = /** @type {any[]} */ (columnar ? columnarViews(/** @type {ColumnarBytes} */ (input)) : input)
    for (let i = 0; i < values.length; i++) {
      const key = keyOf(values[i])
      if (this.keys.has(key)) continue
      this.keys.add(key)
      if (this.values.length < this.keep && values[i] === values[i]) {
        this.values.push(values[i] instanceof Uint8Array ? values[i].slice() : values[i])
      }
    }
  }

  finish() {
    const used = this.dictionaryUse.usedValues()
    if (used) this.plain(used)
  }
}

/**
 * Evenly spaced row groups, at most `count`.
 * @param {number} total
 * @param {number} count
 */
function sampleOf(total, count) {
  if (total <= count) return Array.from({ length: total }, (_, i) => i)
  return Array.from({ length: count }, (_, i) => Math.floor((i * total) / count))
}

/**
 * @param {import('../parquet-file.js').ParquetFile} file
 * @param {{ fpp?: number, sampleRowGroups?: number, valuesPerRowGroup?: number, columns?: string[], signal?: AbortSignal }} [options]
 * @returns {Promise<Array<{ column: string, physicalType: string, sampledRowGroups: number, distinctPerRowGroup: number,
 *   prune: { ideal: number, statistics: number | null, bloomFilter: number, withStatistics: number },
 *   filterBytes: number, hasFilters: boolean,
 *   pairs: number } | { column: string, physicalType: string, skipped: string }>>}
 *   prune shares are of (value, other row group) pairs: ideal = truly absent; statistics = ruled out by the
 *   file's min/max (null: no usable statistics); bloomFilter = a filter at fpp alone; withStatistics = both
 */
export async function adviseIndexes(file, options = {}) {
  const { fpp = 0.01, sampleRowGroups = DEFAULT_SAMPLE_ROW_GROUPS, valuesPerRowGroup = DEFAULT_VALUES_PER_ROW_GROUP, signal } = options
  if (!(file instanceof ParquetFile)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'adviseIndexes takes a file opened by openParquet')
  }
  // A filter's size is only defined for 0 < fpp < 1; anything else would silently size every filter wrong.
  checkFpp(fpp)
  const { layout, metadataOffset } = file
  const columns = options.columns ? options.columns.map((c) => file.column(c)) : layout.columns
  const groups = sampleOf(layout.rowGroupRows.length, sampleRowGroups)
  const read = (/** @type {number} */ offset, /** @type {number} */ length) => file.readRange(offset, length, { signal })
  const out = []
  for (const column of columns) {
    if (!FILTERABLE_TYPES.has(column.physicalType)) {
      out.push({
        column: column.name, physicalType: column.physicalType,
        skipped: `bloom filters are built for ${[...FILTERABLE_TYPES].join(', ')}`,
      })
      continue
    }
    ensureColumnIndexes(layout, column.index)
    const samples = []
    let problem
    for (const g of groups) {
      const view = chunkView(layout, g, column.index)
      // An encrypted chunk's pages are read as addIndexes reads them (its modules decrypted with the given keys).
      let pages
      if (view.crypto) {
        const sealing = await import('../index-builder/encrypted-output.js')
        const refusal = sealing.encryptedChunkProblem(view.crypto)
        if (refusal) {
          problem = `row group ${g}: ${refusal.detail}`
          break
        }
        const where = `${file.name}: row group ${g}, column ${column.name}`
        /** @param {Awaited<ReturnType<typeof columnDecoder>>} decoding */
        pages = (decoding) => sealing.encryptedPages(/** @type {any} */ (view.crypto), decoding,
          { dictionaryOffset: view.dictionaryPageOffset, where })
      }
      const range = chunkByteRange(layout, g, column.index)
      if (!range || !(range.chunkStart >= 4 && range.chunkEnd <= metadataOffset)) {
        problem = `row group ${g}: the footer does not place the chunk inside the file's data`
        break
      }
      const sink = new SampleValues(valuesPerRowGroup)
      try {
        const decoding = await columnDecoder(layout, column, view.codec)
        await scanChunk(read, { start: range.chunkStart, end: range.chunkEnd, numValues: view.numValues },
          decoding, sink, undefined, pages?.(decoding))
        sink.finish()
      } catch (error) {
        const failure = /** @type {{ code?: unknown, message?: string } | null | undefined} */ (error)
        if (failure?.code) throw error
        problem = `row group ${g}: ${failure?.message ?? error}`
        break
      }
      samples.push({ rowGroup: g, sink })
    }
    if (problem) {
      out.push({ column: column.name, physicalType: column.physicalType, skipped: `the pages cannot be read: ${problem}` })
      continue
    }
    out.push(adviceFor(file, column, samples, fpp))
  }
  return out
}

/**
 * @param {ParquetFile} file
 * @param {import('../footer/footer.js').LeafColumn} column
 * @param {Array<{ rowGroup: number, sink: SampleValues }>} samples
 * @param {number} fpp
 */
function adviceFor(file, column, samples, fpp) {
  const { layout } = file
  const order = sortOrderFor(column)
  let pairs = 0
  let absent = 0
  let byStatistics = 0
  let statisticsUsable = order !== null
  for (const from of samples) {
    const values = from.sink.values
    if (!values.length) continue
    const keys = order ? sortKeys(order, values) : undefined
    for (const to of samples) {
      if (to === from) continue
      /** @type {{ usable: boolean, allNull?: boolean, min?: SortKey, max?: SortKey }} */
      const stats = order ? chunkStatistics(layout, to.rowGroup, column, order) : { usable: false }
      if (!stats.usable) statisticsUsable = false
      const excluded = stats.usable && order && keys // usable statistics are an ordered column's (keys set with order)
        ? (stats.allNull ? new Uint8Array(values.length).fill(1) : excludedByBounds(order, keys, stats.min, stats.max))
        : undefined
      values.forEach((v, k) => {
        pairs++
        const isAbsent = !to.sink.keys.has(keyOf(v))
        if (isAbsent) absent++
        if (excluded?.[k]) byStatistics++
      })
    }
  }
  const core = getCore()
  const headerBytes = encodeHeader(32).length
  const sampledBytes = samples.reduce((n, s) => n + core.native.optimalNumBytes(s.sink.keys.size, fpp) + headerBytes, 0)
  const share = (/** @type {number} */ n) => (pairs ? n / pairs : 0)
  const bloom = absent * (1 - fpp)
  // Statistics rule out only absent pairs; a filter rules out the absent pairs they leave, at 1 − fpp.
  const both = byStatistics + (absent - byStatistics) * (1 - fpp)
  const hasFilters = samples.every((s) => file.metadata.rowGroups[s.rowGroup].columns[column.index].bloom !== null)
  return {
    column: column.name, physicalType: column.physicalType, sampledRowGroups: samples.length, pairs,
    distinctPerRowGroup: samples.length ? samples.reduce((n, s) => n + s.sink.keys.size, 0) / samples.length : 0,
    prune: {
      ideal: share(absent), statistics: statisticsUsable ? share(byStatistics) : null,
      bloomFilter: share(bloom), withStatistics: share(statisticsUsable ? both : bloom),
    },
    filterBytes: samples.length ? Math.round((sampledBytes / samples.length) * layout.rowGroupRows.length) : 0,
    hasFilters,
  }
}
