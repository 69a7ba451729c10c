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
import { decryptedFilter, encryptedFilterTask, HashedCandidates, locateFilter, ProbeTask } from '../indexes/bloom-reads.js'
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
 *   encoded: any, coalesceGap: number, costs: { requestBytes: number, roundBytes: number }, mode: string,
 *   rowGroups: number[] | null, statistics: boolean, dictionary: 'auto' | boolean, pageIndex: 'auto' | boolean }} Probe
 *   rowGroups: the row groups to probe, in order; null: every one
 *   coalesceGap, costs: what the bloom reads are planned with (js/indexes/bloom-reads.js HashedCandidates)
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
/** @typedef {import('../footer/records.js').ChunkView} ChunkView */

/**
 * Plans one probe: its read tasks (`tasks`, for runReadTasks); `readsAfter` when `afterReads()` has work (it
 * decodes what was read and returns the second wave's tasks); `results()` combines each row group's answers after
 * the reads: [{ index, numRows, results }]. A row group its statistics settle costs its answer and nothing more.
 * @param {Probe} probe
 */
export function planProbe(probe) {
  const plan = new ProbeContext(probe)
  for (let i = 0; i < plan.answers.length; i++) plan.answers[i] = planRowGroup(plan, plan.rowGroupAt(i))
  return plan
}

/**
 * The candidates' sort keys in `order`, made once per encoding (a dataset's files share one: js/values/probe-values.js).
 * @type {WeakMap<object, { kind: string, keys: import('../indexes/statistics.js').SortKeys }>}
 */
const keysByEncoding = new WeakMap()

/**
 * @param {{ candidates: any[] }} encoded
 * @param {{ kind: string }} order
 */
function candidateKeys(encoded, order) {
  const made = keysByEncoding.get(encoded)
  if (made?.kind === order.kind) return made.keys
  const keys = sortKeys(order, encoded.candidates)
  keysByEncoding.set(encoded, { kind: order.kind, keys })
  return keys
}

/** Index locations of encrypted chunks too: a plan decrypts what it reads. */
const DECRYPT = Object.freeze({ decrypt: true })
const PLAIN = Object.freeze({ decrypt: false })

/** Per candidate, whether the statistics rule it out: read at once (applyStatistics), so one buffer serves every row group. */
let excludedScratch = new Uint8Array(64)

/** What every row group of one probe shares: the column, the candidates' keys, the writer rules, the task list. */
class ProbeContext {
  /** @type {ReturnType<typeof pageIndexOrder> | null | undefined} */
  #pageOrder
  /** @type {{ rule: import('../indexes/writer-rules.js').WriterRule, answer: Unanswerable } | undefined} */
  #untrustedFilter
  /** @type {ReturnType<typeof writerRulesFor> | undefined} */
  #dictionaryRules
  /** @type {HashedCandidates | undefined} */
  #hashed
  /** @type {Map<number, RowGroupProbe> | undefined} */
  #byIndex

  /** @param {Probe} probe */
  constructor(probe) {
    this.probe = probe
    const { layout } = probe.geometry
    this.layout = layout
    // Every index this plan reads describes this column: its chunk index records, decoded once (lazily).
    ensureColumnIndexes(layout, probe.column.index)
    // Statistics cost no bytes (they are in the footer): every candidate's sort key is made once.
    this.order = probe.statistics ? sortOrderFor(probe.column) : null
    this.keys = this.order && probe.encoded.candidates.length ? candidateKeys(probe.encoded, this.order) : null
    /** @type {ReturnType<typeof keyList> | undefined} */
    this.pageKeys = undefined
    /** @type {RowGroupAnswer[]} each planned row group's answer, in the probe's order (planProbe fills it) */
    this.answers = new Array(probe.rowGroups ? probe.rowGroups.length : layout.rowGroupRows.length)
    /** @type {RowGroupProbe[]} the row groups that read an index */
    this.groups = []
    /** @type {any[]} */
    this.tasks = []
    /** Whether afterReads() has work: a page index, a dictionary or an encrypted module to decode. */
    this.readsAfter = false
  }

  /**
   * The probe's i-th row group.
   * @param {number} i
   */
  rowGroupAt(i) {
    return this.probe.rowGroups ? this.probe.rowGroups[i] : i
  }

  /** The candidates' hashes, made by the first bloom read planned (none when statistics answer). */
  get hashed() {
    const { encoded } = this.probe
    this.#hashed ??= new HashedCandidates(encoded.candidates, { type: encoded.physicalType, typeLength: encoded.typeLength },
      this.probe.coalesceGap, this.probe.costs)
    return this.#hashed
  }

  /** Whether the page index's bounds can be read in the column's order (null: page index not wanted); made on first need. */
  get pageOrder() {
    if (this.#pageOrder === undefined) {
      this.#pageOrder = this.probe.pageIndex === false ? null : pageIndexOrder(this.layout, this.probe.column)
    }
    return this.#pageOrder
  }

  /**
   * Why this writer's bloom filter of the chunk is not to be trusted, or null. A rule may depend on the chunk's
   * encodings, so it is asked per chunk; its answer is made once per rule.
   * @param {{ encodings: number }} record
   */
  untrustedFilter(record) {
    const bloomRules = writerRulesFor(this.layout.createdBy, 'bloom-filter', this.probe.column, record)
    if (!bloomRules.length) return null
    const rule = bloomRules[0]
    if (this.#untrustedFilter?.rule !== rule) {
      const answer = new Unanswerable('untrusted-writer', `${rule.message} (${rule.link})`, ErrorCode.UNSUPPORTED_FILTER)
      this.#untrustedFilter = { rule, answer }
    }
    return this.#untrustedFilter.answer
  }

  /** A dictionary is exact for absence; for presence only from writers that build it from the values. */
  get dictionaryRules() {
    this.#dictionaryRules ??= writerRulesFor(this.layout.createdBy, 'dictionary', this.probe.column)
    return this.#dictionaryRules
  }

  /**
   * After the reads: decrypts and decodes the page indexes and dictionaries read; returns the bloom tasks
   * of chunks whose dictionary failed.
   */
  async afterReads() {
    const { groups } = this
    /** @type {Promise<void>[]} */
    const decrypting = []
    for (const group of groups) if (group.reads instanceof EncryptedChunkReads) decrypting.push(group.reads.decrypt(this, group))
    await Promise.all(decrypting)
    for (const group of groups) preparePageIndexRead(this, group)
    /** @type {Array<ReturnType<ProbeContext['bloomTask']>>} */
    const retry = []
    await Promise.all(groups.filter((group) => group.dictionaryRead).map(async (group) => {
      const fallback = await decodeDictionaryRead(this, group)
      if (fallback) retry.push(fallback)
    }))
    return retry
  }

  /** Each row group's results, the indexes read combined: [{ index, numRows, results }]. */
  results() {
    const { groups } = this
    for (let i = 0; i < groups.length; i++) groups[i].combine(this)
    const rows = this.layout.rowGroupRows
    /** @type {Array<{ index: number, numRows: number, results: import('../verdicts.js').ValueResult[] }>} */
    const out = new Array(this.answers.length)
    for (let i = 0; i < out.length; i++) {
      const g = this.rowGroupAt(i)
      // A count read from the Float64Array as a small integer where it is one: a dataset's answers keep every row group's,
      // and a double field would box each count in a heap number of its own. (A footer's count may be negative: as read.)
      const numRows = rows[g]
      out[i] = { index: g, numRows: (numRows | 0) === numRows ? numRows | 0 : numRows, results: this.answers[i].finalResults() }
    }
    return out
  }

  /**
   * The checked page index of a row group, when it was read and usable (exact lookups read its pages).
   * @param {number} g
   */
  pageIndexOf(g) {
    this.#byIndex ??= new Map(this.groups.map((group) => [group.index, group]))
    return this.#byIndex.get(g)?.pageIndex
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
    return new ProbeTask(location, this.where(group.index), this.hashed, this.probe.mode,
      (/** @type {Uint8Array} */ hits) => { group.bloom = hits },
      (/** @type {Reason} */ reason, /** @type {string} */ detail) => {
        group.bloom = new Unanswerable(reason, detail)
      },
      group.answer.openCandidates())
  }
}

/**
 * Plans one row group: each index in turn, cheapest first, until the values are settled or every read is planned.
 * Returns its answer (the reads planned fill it in).
 * @param {ProbeContext} plan
 * @param {number} g
 */
function planRowGroup(plan, g) {
  const { layout } = plan
  const { column } = plan.probe
  const answer = new RowGroupAnswer(plan.probe.encoded)
  const numRows = layout.rowGroupRows[g]
  if (numRows === 0) {
    answer.settleOpen('absent', Source.STATISTICS, 'empty-row-group', 'the row group has no rows')
    return answer
  }
  const record = chunk(layout, g, column.index)
  const unavailable = chunkUnavailable(record.flags, record.crypto)
  if (unavailable) {
    answer.settleOpen('unknown', null, unavailable.reason, unavailable.detail)
    return answer
  }
  pruneByStatistics(plan, answer, g, record)
  if (answer.settled) return answer
  // A chunk whose keys are missing was settled above (chunkUnavailable): a crypto context here has its keys.
  const keys = /** @type {import('../crypto/encrypted-footer.js').ChunkKeys | undefined} */ (record.crypto)
  const reads = keys ? new EncryptedChunkReads(keys) : PLAIN_READS
  const filter = plan.untrustedFilter(record) ?? locateFilter(plan.probe.geometry, g, column.index, DECRYPT, record)
  const pageIndex = pageIndexToRead(plan, answer, g, !(filter instanceof Unanswerable), record)
  const dictionaryPage = dictionaryToRead(plan, reads, g, record, filter)
  if (filter instanceof Unanswerable && !pageIndex && !dictionaryPage) {
    // Nothing to read: the answer is what the statistics and the missing filter say (RowGroupProbe.combine's last step).
    answer.finishWithout(filter)
    return answer
  }
  const group = new RowGroupProbe(g, numRows, answer)
  plan.groups.push(group)
  group.reads = reads
  if (keys) plan.readsAfter = true
  if (pageIndex) planPageIndexRead(plan, group, pageIndex)
  const dictionaryInstead = dictionaryPage ? planDictionaryRead(plan, group, record, dictionaryPage, filter) : false
  if (!dictionaryInstead) planBloomRead(plan, group, filter)
  return answer
}

/**
 * Statistics: free (in the footer); values outside min/max, or a chunk of nulls only, are settled here.
 * @param {ProbeContext} plan
 * @param {RowGroupAnswer} answer
 * @param {number} g
 * @param {import('../footer/records.js').ChunkView} record the chunk's
 */
function pruneByStatistics(plan, answer, g, record) {
  if (!plan.order || answer.settled) return
  const stats = /** @type {ChunkStats} */ (chunkStatistics(plan.layout, g, plan.probe.column, plan.order, record))
  if (!stats.usable) {
    // A cast: without strictNullChecks tsc does not narrow a union on a falsy discriminant.
    answer.noteStatistics(/** @type {{ detail: string }} */ (stats))
    return
  }
  if (stats.allNull) {
    answer.applyStatistics(stats, null)
    return
  }
  // plan.keys are the candidates' sort keys wherever plan.order is set.
  const keys = /** @type {import('../indexes/statistics.js').SortKeys} */ (plan.keys)
  const candidates = plan.probe.encoded.candidates.length
  if (excludedScratch.length < candidates) excludedScratch = new Uint8Array(candidates)
  answer.applyStatistics(stats, excludedByBounds(plan.order, keys, stats.min, stats.max, excludedScratch))
}

/**
 * The page index: read with the other reads when nothing cheaper can answer (auto), or when asked. Its location
 * when it is to be read; a location the footer gets wrong is noted on the answer.
 * @param {ProbeContext} plan
 * @param {RowGroupAnswer} answer
 * @param {number} g
 * @param {boolean} usableFilter
 * @param {import('../footer/records.js').ChunkView} record the chunk's
 * @returns {{ columnIndex: { offset: number, length: number }, offsetIndex: { offset: number, length: number } } | null}
 */
function pageIndexToRead(plan, answer, g, usableFilter, record) {
  if (!(plan.probe.pageIndex === true || !usableFilter)) return null
  const where = pageIndexLocation(plan.layout, g, plan.probe.column.index, plan.probe.geometry.metadataOffset, record)
  // A chunk without a page index has nothing to read, whatever its order (most chunks: asked before the order).
  if (!('reason' in where) && (!where.columnIndex || !where.offsetIndex)) return null
  if (!plan.pageOrder?.usable) return null
  if ('reason' in where) {
    answer.noteIndex(`page index: ${where.detail}`)
    return null
  }
  // Both parts are there (checked above).
  return /** @type {{ columnIndex: { offset: number, length: number }, offsetIndex: { offset: number, length: number } }} */ (where)
}

/**
 * Plans the reads of a row group's page index.
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 * @param {{ columnIndex: { offset: number, length: number }, offsetIndex: { offset: number, length: number } }} where
 */
function planPageIndexRead(plan, group, where) {
  /** @type {{ columnIndex?: Uint8Array, offsetIndex?: Uint8Array }} */
  const read = {}
  group.pageIndexRead = read
  plan.readsAfter = true
  for (const part of /** @type {const} */ (['columnIndex', 'offsetIndex'])) {
    const { offset, length } = where[part]
    plan.tasks.push(new RangeTask(offset, offset + length, (bytes) => { read[part] = bytes }, 'page-index'))
  }
}

/**
 * The dictionary page: read when it is cheaper than the filter, or when asked. Its range when it is to be read.
 * @param {ProbeContext} plan
 * @param {ChunkReads} reads how the chunk's indexes are read
 * @param {number} g
 * @param {import('../footer/records.js').ChunkView} record the chunk's
 * @param {FilterLocation} filter
 * @returns {{ offset: number, maxLength: number, exact: boolean } | null}
 */
function dictionaryToRead(plan, reads, g, record, filter) {
  const { dictionary } = plan.probe
  const page = dictionary === false ? null : reads.dictionaryRange(plan, g, record)
  if (!page || 'reason' in page || !reads.readsDictionary(dictionary, page, filter)) return null
  return page
}

/**
 * Plans the read of a row group's dictionary page. Returns true when it replaces the chunk's bloom read (a
 * plaintext chunk's filter is read in a second wave only if the dictionary fails to decode).
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 * @param {import('../footer/records.js').ChunkView} record the chunk's
 * @param {{ offset: number, maxLength: number, exact: boolean }} page
 * @param {FilterLocation} filter
 */
function planDictionaryRead(plan, group, record, page, filter) {
  /** @type {DictionaryRead} */
  const read = { page, codec: record.codec, fallback: filter }
  group.dictionaryRead = read
  plan.readsAfter = true
  plan.tasks.push(new RangeTask(page.offset, page.offset + page.maxLength, (bytes) => { read.bytes = bytes }, 'dictionary'))
  return /** @type {ChunkReads} */ (group.reads).dictionaryReplacesFilter // planRowGroup set them
}

/**
 * The bloom filter: its header and the blocks the open candidates need, or why there is none to read.
 * @param {ProbeContext} plan
 * @param {RowGroupProbe} group
 * @param {FilterLocation} filter
 */
function planBloomRead(plan, group, filter) {
  if (filter instanceof Unanswerable) group.bloom = filter
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
    group.bloom = new Unanswerable(reason, decoded.error.detail)
    return null
  }
  // An encrypted chunk's filter was read in the same wave as its dictionary (group.bloom is set after decrypt).
  return reads.dictionaryReplacesFilter ? plan.bloomTask(group, fallback) : null
}

/** How a plaintext chunk's indexes are read: ranges as they lie in the file, filters by blocks. */
const PLAIN_READS = Object.freeze({
  dictionaryReplacesFilter: true,
  dictionaryRange: (/** @type {ProbeContext} */ plan, /** @type {number} */ g, /** @type {ChunkView} */ record) =>
    dictionaryPageRange(plan.layout, g, plan.probe.column.index, plan.probe.geometry.metadataOffset, PLAIN, record),
  readsDictionary: (/** @type {'auto' | boolean} */ option, /** @type {{ maxLength: number }} */ page,
    /** @type {FilterLocation} */ filter) =>
    shouldReadDictionary(option, page.maxLength, filter instanceof Unanswerable ? null : filter.length ?? null),
  bloomTask: (/** @type {ProbeContext} */ plan, /** @type {RowGroupProbe} */ group, /** @type {FoundFilter} */ filter) =>
    plan.bloomTask(group, filter),
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
   * @param {ChunkView} record the chunk's
   */
  dictionaryRange(plan, g, record) {
    if (!loadedCrypto().dictionaryDecryptable(this.crypto)) return null
    return dictionaryPageRange(plan.layout, g, plan.probe.column.index, plan.probe.geometry.metadataOffset, DECRYPT, record)
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
      group.bloom = filter instanceof Unanswerable ? filter : plan.hashed.checkBitset(filter.bitset)
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
    /** @type {Uint8Array | Unanswerable | undefined} the filter's hits per candidate, or why there are none */
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
   * Combines the indexes' answers, exact ones first, into this row group's answer.
   * @param {ProbeContext} plan its writer's dictionary rules, asked only when a dictionary was read
   */
  combine(plan) {
    const { answer } = this
    if (this.pages && !answer.settled) answer.applyPageIndex(this.pages)
    if (this.dictionary && !answer.settled) {
      const rule = plan.dictionaryRules[0]
      answer.applyDictionary(this.dictionary, rule ? `${rule.message} (${rule.link})` : null)
      if (!answer.settled && !this.bloom) {
        this.bloom = new Unanswerable('no-index', 'the dictionary could not compare this value and no bloom filter was read')
      }
    }
    if (!answer.settled) {
      if (this.bloom instanceof Uint8Array) answer.applyBloomFilter(this.bloom)
      else answer.finishWithout(this.bloom ?? new Unanswerable('internal', 'the bloom filter read did not finish'))
    }
  }
}
