// One read plan per probe, whatever indexes it reads: the footer's statistics answer first at no cost; then every
// index read the remaining values need — page indexes, dictionary pages, bloom filter headers and blocks — of
// every row group is handed to the read scheduler at once, coalesced and fetched concurrently, so no index
// adds a sequential round trip per row group. Each index is one step here (statistics, page index,
// dictionary, bloom filter), as DataFusion prunes by statistics and by bloom filters apart; answers are
// combined per row group once its reads are in (js/plan/row-group-answer.js decides what each index may say).
// An encrypted chunk's reads are the same decisions, read through EncryptedChunkReads (whole modules,
// decrypted after the reads) instead of PlainChunkReads. A dictionary read replaces the bloom read of its
// chunk; only when a dictionary then fails to decode does its filter get a second wave.
import { chunk } from '../footer/records.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { ErrorCode } from '../errors.js'
import { decodeDictionary, dictionaryPageRange, dictionaryVerdicts, shouldReadDictionary } from '../indexes/dictionary.js'
import { decryptedFilter, encryptedFilterTask, locateFilter, ProbeTask } from '../indexes/bloom-reads.js'
import { chunkUnavailable } from '../indexes/index-coverage.js'
import { loadedCrypto } from '../crypto/load-crypto.js'
import { RangeTask } from './read-scheduler.js'
import { RowGroupAnswer } from './row-group-answer.js'
import {
  candidatePages, decodeColumnIndex, decodeOffsetIndex, pageIndexLocation, pageIndexOrder, preparePageIndex,
} from '../indexes/page-index.js'
import { chunkStatistics, excludedByBounds, keyList, sortKeys, sortOrderFor } from '../indexes/statistics.js'
import { Source, Unanswerable } from '../verdicts.js'
import { writerRulesFor } from '../indexes/writer-rules.js'

/**
 * @typedef {{ name: string, geometry: import('../footer/file-geometry.js').FileGeometry, column: import('../footer/footer.js').LeafColumn,
 *   encoded: any, hashed: import('../indexes/bloom-reads.js').HashedCandidates, mode: string, rowGroups: number[], statistics: boolean,
 *   dictionary: 'auto' | boolean, pageIndex: 'auto' | boolean }} Probe
 */

/**
 * Where a chunk's filter is (js/indexes/bloom-reads.js locateFilter), or why there is none to read.
 * @typedef {ReturnType<typeof locateFilter>} FilterLocation
 */
/** @typedef {Exclude<FilterLocation, Unanswerable>} FoundFilter */
/**
 * A chunk's statistics as js/indexes/statistics.js chunkStatistics documents them.
 * @typedef {{ usable: true, allNull: boolean, min?: import('../indexes/statistics.js').SortKey,
 *   max?: import('../indexes/statistics.js').SortKey }
 *   | { usable: false, reason: string, detail: string }} ChunkStats
 */
/**
 * A dictionary page to read (js/indexes/dictionary.js dictionaryPageRange), what it is compressed with, the
 * filter to read instead should it fail, and its bytes once read.
 * @typedef {{ page: { offset: number, maxLength: number, exact: boolean }, codec: number, fallback: FilterLocation,
 *   bytes?: Uint8Array }} DictionaryRead
 */
/** @typedef {import('../indexes/dictionary.js').DecodeDictionaryOptions} DecodeDictionaryOptions */
/** @typedef {ConstructorParameters<typeof Unanswerable>[0]} Reason a reason code, as an Unanswerable takes it */
/** @typedef {typeof PLAIN_READS | EncryptedChunkReads} ChunkReads how a chunk's indexes are read */

/**
 * Plans one probe. Returns the read tasks (for runReadTasks), `afterReads()` (decodes what was read and
 * returns the second wave's tasks) and `results()`, which combines each row group's answers after the
 * reads: [{ index, numRows, results }].
 * @param {Probe} probe
 */
export function planProbe(probe) {
  const plan = new ProbeContext(probe)
  const groups = probe.rowGroups.map((g) => planRowGroup(plan, g))
  /** @type {Map<number, RowGroupProbe> | undefined} */
  let byIndex
  return {
    tasks: plan.tasks,
    /**
     * After the reads: decrypts and decodes the page indexes and dictionaries read; returns the bloom tasks
     * of chunks whose dictionary failed.
     */
    async afterReads() {
      await Promise.all(groups.map((group) => group.reads?.decrypt(plan, group)))
      for (const group of groups) preparePageIndexRead(plan, group)
      /** @type {Array<ReturnType<ProbeContext['bloomTask']>>} */
      const retry = []
      await Promise.all(groups.filter((group) => group.dictionaryRead).map(async (group) => {
        const fallback = await decodeDictionaryRead(plan, group)
        if (fallback) retry.push(fallback)
      }))
      return retry
    },
    results: () => groups.map((group) => group.combine(plan.dictionaryRules)),
    /** The checked page index of a row group, when it was read and usable (exact lookups read its pages). */
    pageIndexOf: (/** @type {number} */ g) => (byIndex ??= new Map(groups.map((group) => [group.index, group]))).get(g)?.pageIndex,
  }
}

/** What every row group of one probe shares: the column, the candidates' keys, the writer rules, the task list. */
class ProbeContext {
  /** @param {Probe} probe */
  constructor(probe) {
    this.probe = probe
    const { layout } = probe.geometry
    this.layout = layout
    // Every index this plan reads describes this column: its chunk index records, decoded once (lazily).
    ensureColumnIndexes(layout, probe.column.index)
    // Statistics cost no bytes (they are in the footer): every candidate's sort key is made once.
    this.order = probe.statistics ? sortOrderFor(probe.column) : null
    this.keys = this.order && probe.encoded.candidates.length ? sortKeys(this.order, probe.encoded.candidates) : null
    // Page bounds are defined in the column order only; their keys are made on first need.
    this.pageOrder = probe.pageIndex === false ? null : pageIndexOrder(layout, probe.column)
    /** @type {ReturnType<typeof keyList> | undefined} */
    this.pageKeys = undefined
    const bloomRules = writerRulesFor(layout.createdBy, 'bloom-filter', probe.column)
    this.untrustedFilter = bloomRules.length
      ? new Unanswerable('untrusted-writer', `${bloomRules[0].message} (${bloomRules[0].link})`, ErrorCode.UNSUPPORTED_FILTER)
      : null
    // A dictionary is exact for absence; for presence only from writers that build it from the values.
    this.dictionaryRules = writerRulesFor(layout.createdBy, 'dictionary', probe.column)
    /** @type {any[]} */
    this.tasks = []
  }

  /**
   * The candidates' keys in the page index's order (the statistics' keys when the orders agree).
   * @param {{ kind: string }} order
   */
  pageKeysFor(order) {
    this.pageKeys ??= keyList(this.keys && order.kind === this.order?.kind ? this.keys : sortKeys(order, this.probe.encoded.candidates))
    return this.pageKeys
  }

  /** @param {number} g */
  where(g) {
    return `${this.probe.name}: row group ${g}, column ${this.probe.column.name}`
  }

  /**
   * The bloom read of one chunk (plaintext): header, then the blocks the open candidates need.
   * @param {RowGroupProbe} group
   * @param {FoundFilter} location
   */
  bloomTask(group, location) {
    return new ProbeTask(location, this.where(group.index), this.probe.hashed, this.probe.mode,
      (/** @type {Uint8Array} */ hits) => { group.bloom = { hits } },
      (/** @type {Reason} */ reason, /** @type {string} */ detail) => {
        group.bloom = { missing: new Unanswerable(reason, detail) }
      },
      group.answer.openCandidates())
  }
}

/**
 * Plans one row group: each index in turn, cheapest first, until the values are settled or every read is planned.
 * @param {ProbeContext} plan
 * @param {number} g
 */
function planRowGroup(plan, g) {
  const { layout } = plan
  const { column } = plan.probe
  const group = new RowGroupProbe(g, layout.rowGroupRows[g], new RowGroupAnswer(plan.probe.encoded))
  const { answer } = group
  if (group.numRows === 0) {
    answer.settleOpen('absent', Source.STATISTICS, 'empty-row-group', 'the row group has no rows')
    return group
  }
  const record = chunk(layout, g, column.index)
  const unavailable = chunkUnavailable(record.flags, record.crypto)
  if (unavailable) {
    answer.settleOpen('unknown', null, unavailable.reason, unavailable.detail)
    return group
  }
  pruneByStatistics(plan, group)
  if (answer.settled) return group
  // A chunk whose keys are missing was settled above (chunkUnavailable): a crypto context here has its keys.
  const keys = /** @type {import('../crypto/encrypted-footer.js').ChunkKeys | undefined} */ (record.crypto)
  group.reads = keys ? new EncryptedChunkReads(keys) : PLAIN_READS
  const filter = plan.untrustedFilter ?? locateFilter(plan.probe.geometry, g, column.index, { decrypt: true })
  planPageIndexRead(plan, group, !(filter instanceof Unanswerable))
  const dictionaryInstead = planDictionaryRead(plan, group, record.codec, filter)
  if (!dictionaryInstead) planBloomRead(plan, group, filter)
  return group
}

/**
 * Statistics: free (in the footer); values outside min/max, or a chunk of nulls only, are settled here.
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 */
function pruneByStatistics(plan, group) {
  const { answer } = group
  if (!plan.order || answer.settled) return
  const stats = /** @type {ChunkStats} */ (chunkStatistics(plan.layout, group.index, plan.probe.column, plan.order))
  // plan.keys are the candidates' sort keys wherever plan.order is set.
  const keys = /** @type {import('../indexes/statistics.js').SortKeys} */ (plan.keys)
  if (stats.usable) answer.applyStatistics(stats, stats.allNull ? null : excludedByBounds(plan.order, keys, stats.min, stats.max))
  // A cast: without strictNullChecks tsc does not narrow a union on a falsy discriminant.
  else answer.noteStatistics(/** @type {{ detail: string }} */ (stats))
}

/**
 * The page index: read with the other reads when nothing cheaper can answer (auto), or when asked.
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 * @param {boolean} usableFilter
 */
function planPageIndexRead(plan, group, usableFilter) {
  if (!plan.pageOrder?.usable || !(plan.probe.pageIndex === true || !usableFilter)) return
  const where = pageIndexLocation(plan.layout, group.index, plan.probe.column.index, plan.probe.geometry.metadataOffset)
  if ('reason' in where) {
    group.answer.noteIndex(`page index: ${where.detail}`)
    return
  }
  if (!where.columnIndex || !where.offsetIndex) return
  /** @type {{ columnIndex?: Uint8Array, offsetIndex?: Uint8Array }} */
  const read = {}
  group.pageIndexRead = read
  for (const part of /** @type {const} */ (['columnIndex', 'offsetIndex'])) {
    const { offset, length } = /** @type {{ offset: number, length: number }} */ (where[part]) // both checked above
    plan.tasks.push(new RangeTask(offset, offset + length, (bytes) => { read[part] = bytes }, 'page-index'))
  }
}

/**
 * The dictionary page: read when it is cheaper than the filter, or when asked. Returns true when it
 * replaces the chunk's bloom read (a plaintext chunk's filter is read in a second wave only if the
 * dictionary fails to decode).
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 * @param {number} codec
 * @param {FilterLocation} filter
 */
function planDictionaryRead(plan, group, codec, filter) {
  const { dictionary } = plan.probe
  const reads = /** @type {ChunkReads} */ (group.reads) // planRowGroup set them
  const page = dictionary === false ? null : reads.dictionaryRange(plan, group.index)
  if (!page || 'reason' in page || !reads.readsDictionary(dictionary, page, filter)) return false
  /** @type {DictionaryRead} */
  const read = { page, codec, fallback: filter }
  group.dictionaryRead = read
  plan.tasks.push(new RangeTask(page.offset, page.offset + page.maxLength, (bytes) => { read.bytes = bytes }, 'dictionary'))
  return reads.dictionaryReplacesFilter
}

/**
 * The bloom filter: its header and the blocks the open candidates need, or why there is none to read.
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 * @param {FilterLocation} filter
 */
function planBloomRead(plan, group, filter) {
  if (filter instanceof Unanswerable) group.bloom = { missing: filter }
  else plan.tasks.push(/** @type {ChunkReads} */ (group.reads).bloomTask(plan, group, filter)) // planRowGroup set them
}

/**
 * A read page index, checked and turned into candidate pages per value.
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 */
function preparePageIndexRead(plan, group) {
  const read = group.pageIndexRead
  if (!read?.columnIndex || !read.offsetIndex) return
  const record = chunk(plan.layout, group.index, plan.probe.column.index)
  const range = record.pageRange()
  // Read only when the page index's order was usable (planPageIndexRead).
  const order = /** @type {{ kind: string, width: number, signed: boolean }} */ (plan.pageOrder?.order)
  const prepared = preparePageIndex(order, decodeColumnIndex(read.columnIndex), decodeOffsetIndex(read.offsetIndex), {
    numRows: group.numRows, chunkStart: range?.chunkStart, chunkEnd: range?.chunkEnd, repeated: plan.probe.column.repeated,
    chunkNullCount: record.nullCount,
  })
  if (!prepared.usable) {
    // A cast: without strictNullChecks tsc does not narrow a union on a falsy discriminant.
    group.answer.noteIndex(`page index: ${/** @type {import('../indexes/page-index.js').UnusablePageIndex} */ (prepared).detail}`)
    return
  }
  group.pageIndex = prepared
  const { encoded } = plan.probe
  group.pages = candidatePages(prepared, plan.pageKeysFor(order), encoded.owners, { numValues: encoded.outcomes.length })
}

/**
 * A read dictionary decoded into per-value answers; when it fails, the bloom task of a second wave (or null).
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group one with a dictionaryRead
 */
async function decodeDictionaryRead(plan, group) {
  const { column, encoded } = plan.probe
  const { page, codec, bytes, fallback } = /** @type {DictionaryRead} */ (group.dictionaryRead)
  const reads = /** @type {ChunkReads} */ (group.reads) // planRowGroup set them before planning this read
  const options = { physicalType: column.physicalType, typeLength: column.typeLength, codec, exact: page.exact }
  const decoded = !bytes ? { error: { reason: 'malformed-dictionary', detail: 'the dictionary page was not read' } }
    : await reads.decodeDictionary(plan, group, bytes, options)
  if ('set' in decoded) {
    group.dictionary = dictionaryVerdicts(decoded.set, encoded.candidates, encoded.owners, encoded.outcomes.length)
    return null
  }
  group.answer.noteIndex(`dictionary: ${decoded.error.detail}`)
  if (fallback instanceof Unanswerable) {
    // The dictionary decoder's reasons are reason codes (malformed-dictionary, unsupported-codec, dictionary-too-large).
    const reason = /** @type {import('../verdicts.js').ReasonCode} */ (decoded.error.reason)
    group.bloom = { missing: new Unanswerable(reason, decoded.error.detail) }
    return null
  }
  // An encrypted chunk's filter was read in the same wave as its dictionary (group.bloom is set after decrypt).
  return reads.dictionaryReplacesFilter ? plan.bloomTask(group, fallback) : null
}

/** How a plaintext chunk's indexes are read: ranges as they lie in the file, filters by blocks. */
const PLAIN_READS = Object.freeze({
  dictionaryReplacesFilter: true,
  dictionaryRange: (/** @type {ProbeContext} */ plan, /** @type {number} */ g) =>
    dictionaryPageRange(plan.layout, g, plan.probe.column.index, plan.probe.geometry.metadataOffset),
  readsDictionary: (/** @type {'auto' | boolean} */ option, /** @type {{ maxLength: number }} */ page,
    /** @type {FilterLocation} */ filter) =>
    shouldReadDictionary(option, page.maxLength, filter instanceof Unanswerable ? null : filter.length ?? null),
  bloomTask: (/** @type {ProbeContext} */ plan, /** @type {RowGroupProbe} */ group, /** @type {FoundFilter} */ filter) =>
    plan.bloomTask(group, filter),
  decrypt: async (/** @type {ProbeContext} */ _plan, /** @type {RowGroupProbe} */ _group) => {},
  decodeDictionary: (/** @type {ProbeContext} */ _plan, /** @type {RowGroupProbe} */ _group, /** @type {Uint8Array} */ bytes,
    /** @type {DecodeDictionaryOptions} */ options) => decodeDictionary(bytes, options),
})

/**
 * How an encrypted chunk's indexes are read: every module whole, decrypted after the reads. A dictionary
 * that fails cannot fall back on a second wave here, so it is read beside the filter, only when there is
 * no usable filter (auto) or when asked (true).
 */
class EncryptedChunkReads {
  dictionaryReplacesFilter = false

  /** @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto */
  constructor(crypto) {
    this.crypto = crypto
  }

  /**
   * @param {ProbeContext} plan
   * @param {number} g
   */
  dictionaryRange(plan, g) {
    if (!loadedCrypto().dictionaryDecryptable(this.crypto)) return null
    return dictionaryPageRange(plan.layout, g, plan.probe.column.index, plan.probe.geometry.metadataOffset, { decrypt: true })
  }

  /**
   * @param {'auto' | boolean} option
   * @param {{ maxLength: number, exact: boolean }} page
   * @param {FilterLocation} filter
   */
  readsDictionary(option, page, filter) {
    return page.exact && (option === true || (filter instanceof Unanswerable && shouldReadDictionary(option, page.maxLength, null)))
  }

  /**
   * @param {ProbeContext} plan
   * @param {RowGroupProbe} group
   * @param {FoundFilter} filter
   */
  bloomTask(plan, group, filter) {
    return encryptedFilterTask(filter, plan.where(group.index), (/** @type {unknown} */ modules) => { group.encryptedBloom = modules })
  }

  /**
   * Every encrypted module of the row group is decrypted before anything of it is decoded.
   * @param {ProbeContext} plan
   * @param {RowGroupProbe} group
   */
  async decrypt(plan, group) {
    const where = plan.where(group.index)
    if (group.encryptedBloom) {
      const filter = await decryptedFilter(this.crypto, group.encryptedBloom, where)
      group.bloom = filter instanceof Unanswerable ? { missing: filter } : { hits: plan.probe.hashed.checkBitset(filter.bitset) }
    }
    if (group.pageIndexRead?.columnIndex && group.pageIndexRead.offsetIndex) {
      const read = /** @type {{ columnIndex: Uint8Array, offsetIndex: Uint8Array }} */ (group.pageIndexRead) // both tested above
      group.pageIndexRead = await loadedCrypto().decryptPageIndex(this.crypto, read, where)
    }
  }

  /**
   * @param {ProbeContext} plan
   * @param {RowGroupProbe} group
   * @param {Uint8Array} bytes
   * @param {DecodeDictionaryOptions} options
   */
  async decodeDictionary(plan, group, bytes, options) {
    const decrypted = await loadedCrypto().decryptDictionary(this.crypto, bytes, plan.where(group.index))
    return decrypted.error ? decrypted : decodeDictionary(decrypted.page, { ...options, exact: true })
  }
}

/** One row group of a probe: its answer so far and what each index read brought. */
class RowGroupProbe {
  /**
   * @param {number} index
   * @param {number} numRows
   * @param {RowGroupAnswer} answer
   */
  constructor(index, numRows, answer) {
    this.index = index
    this.numRows = numRows
    this.answer = answer
    /** @type {typeof PLAIN_READS | EncryptedChunkReads | undefined} how this chunk's indexes are read */
    this.reads = undefined
    /** @type {{ hits: Uint8Array, missing?: undefined } | { missing: Unanswerable, hits?: undefined } | undefined} */
    this.bloom = undefined
    /** @type {Uint8Array | undefined} per value: DictionaryAnswer */
    this.dictionary = undefined
    /** @type {DictionaryRead | undefined} */
    this.dictionaryRead = undefined
    /** @type {{ columnIndex?: Uint8Array, offsetIndex?: Uint8Array } | undefined} */
    this.pageIndexRead = undefined
    /** @type {import('../indexes/page-index.js').PreparedPageIndex | undefined} */
    this.pageIndex = undefined
    /** @type {import('../indexes/page-index.js').PageCandidates | undefined} */
    this.pages = undefined
    /** @type {any} an encrypted chunk's filter modules, decrypted in afterReads */
    this.encryptedBloom = undefined
  }

  /**
   * Combines the indexes' answers, exact ones first, into this row group's results.
   * @param {Array<{ message: string, link: string }>} dictionaryRules
   */
  combine(dictionaryRules) {
    const { answer } = this
    if (this.pages && !answer.settled) answer.applyPageIndex(this.pages)
    if (this.dictionary && !answer.settled) {
      const rule = dictionaryRules[0]
      answer.applyDictionary(this.dictionary, rule ? `${rule.message} (${rule.link})` : null)
      if (!answer.settled && !this.bloom) {
        this.bloom = { missing: new Unanswerable('no-index', 'the dictionary could not compare this value and no bloom filter was read') }
      }
    }
    if (!answer.settled) {
      if (this.bloom && 'hits' in this.bloom) answer.applyBloomFilter(/** @type {Uint8Array} */ (this.bloom.hits)) // its own key
      else answer.finishWithout(this.bloom?.missing ?? new Unanswerable('internal', 'the bloom filter read did not finish'))
    }
    return { index: this.index, numRows: this.numRows, results: answer.finalResults() }
  }
}
