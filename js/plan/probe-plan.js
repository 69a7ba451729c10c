// One read plan per probe, whatever indexes it reads: the footer's statistics answer first at no cost; then every
// index read the remaining values need — dictionary pages, bloom filter headers and blocks — of every
// row group is handed to the read scheduler at once, coalesced and fetched concurrently, so no index
// adds a sequential round trip per row group. Answers are combined per row group once its reads are in
// (js/plan/row-group-answer.js decides what each index may say). A dictionary read replaces the bloom read
// of its chunk; only when a dictionary then fails to decode does its filter get a second wave.
import { chunk } from '../footer/records.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { ErrorCode } from '../errors.js'
import { decodeDictionary, dictionaryPageRange, dictionaryVerdicts, shouldReadDictionary } from '../indexes/dictionary.js'
import { decryptedFilter, encryptedFilterTask, locateFilter, ProbeTask } from '../indexes/bloom-reads.js'
import { chunkUnavailable } from '../indexes/index-coverage.js'
import { loadedCrypto } from '../crypto/load-crypto.js'
import { RangeTask } from './read-scheduler.js'
import { RowGroupAnswer } from './row-group-answer.js'
import { candidatePages, decodeColumnIndex, decodeOffsetIndex, pageIndexLocation, pageIndexOrder, preparePageIndex } from '../indexes/page-index.js'
import { chunkStatistics, excludedByBounds, keyList, sortKeys, sortOrderFor } from '../indexes/statistics.js'
import { Source, Unanswerable } from './verdicts.js'
import { writerRulesFor } from '../indexes/writer-rules.js'

/**
 * Plans one probe. Returns the read tasks (for runReadTasks) and `results()`, which combines each row
 * group's answers after the reads: [{ index, numRows, results }].
 * @param {{ name: string, geometry: import('../indexes/bloom-reads.js').FileGeometry, column: import('../footer/footer.js').LeafColumn,
 *   encoded: any, hashed: import('../indexes/bloom-reads.js').HashedCandidates, mode: string, rowGroups: number[], statistics: boolean,
 *   dictionary: 'auto' | boolean, pageIndex: 'auto' | boolean }} probe
 */
export function planProbe({ name, geometry, column, encoded, hashed, mode, rowGroups, statistics, dictionary, pageIndex }) {
  const { layout } = geometry
  // Every index this plan reads describes this column: its chunk index records, decoded once (lazily).
  ensureColumnIndexes(layout, column.index)
  // Statistics cost no bytes (they are in the footer): every candidate's sort key is made once.
  const order = statistics ? sortOrderFor(column) : null
  const keys = order && encoded.candidates.length ? sortKeys(order, encoded.candidates) : null
  // Page bounds are defined in the column order only; their keys are made on first need.
  const pageOrder = pageIndex === false ? null : pageIndexOrder(layout, column)
  let pageKeys
  const pageKeysFor = (o) => (pageKeys ??= keyList(keys && o.kind === order?.kind ? keys : sortKeys(o, encoded.candidates)))
  const bloomRules = writerRulesFor(layout.createdBy, 'bloom-filter', column)
  const untrustedFilter = bloomRules.length
    ? new Unanswerable('untrusted-writer', `${bloomRules[0].message} (${bloomRules[0].link})`, ErrorCode.UNSUPPORTED_FILTER)
    : null
  // A dictionary is exact for absence; for presence only from writers that build it from the values.
  const dictionaryRules = writerRulesFor(layout.createdBy, 'dictionary', column)
  const bloomTask = (g, group, location) => new ProbeTask(location, `${name}: row group ${g}, column ${column.name}`, hashed, mode,
    (hits) => { group.bloom = { hits } },
    (reason, detail) => { group.bloom = { missing: new Unanswerable(reason, detail) } },
    group.answer.openCandidates())

  const tasks = []
  const groups = rowGroups.map((g) => {
    const group = new RowGroupProbe(g, layout.rowGroupRows[g], new RowGroupAnswer(encoded))
    const { answer } = group
    if (group.numRows === 0) {
      answer.settleOpen('absent', Source.STATISTICS, 'empty-row-group', 'the row group has no rows')
      return group
    }
    const record = chunk(layout, g, column.index)
    const chunkCrypto = record.crypto
    const unavailable = chunkUnavailable(record.flags, chunkCrypto)
    if (unavailable) {
      answer.settleOpen('unknown', null, unavailable.reason, unavailable.detail)
      return group
    }
    if (order && !answer.settled) {
      const stats = chunkStatistics(layout, g, column, order)
      if (stats.usable) answer.applyStatistics(stats, stats.allNull ? null : excludedByBounds(order, keys, stats.min, stats.max))
      else answer.noteStatistics(stats)
    }
    if (answer.settled) return group
    const location = untrustedFilter ?? locateFilter(geometry, g, column.index, { decrypt: true })
    const usableFilter = !(location instanceof Unanswerable)
    // The page index: read with the other reads when nothing cheaper can answer (auto), or when asked.
    if (pageOrder?.usable && (pageIndex === true || !usableFilter)) {
      const where = pageIndexLocation(layout, g, column.index, geometry.metadataOffset)
      if ('reason' in where) answer.noteIndex(`page index: ${where.detail}`)
      else if (where.columnIndex && where.offsetIndex) {
        group.pageIndexRead = {}
        for (const part of ['columnIndex', 'offsetIndex']) {
          const { offset, length } = where[part]
          tasks.push(new RangeTask(offset, offset + length, (bytes) => { group.pageIndexRead[part] = bytes }))
        }
        group.pageIndexCrypto = chunkCrypto // its modules are decrypted in afterReads
      }
    }
    if (chunkCrypto) {
      // Encrypted: every module is read whole and decrypted after the reads. A dictionary that fails
      // cannot fall back on a second wave here, so it is read without a filter (auto) or with it (true).
      const { dictionaryDecryptable } = loadedCrypto()
      const page = dictionary === false || !dictionaryDecryptable(chunkCrypto) ? null
        : dictionaryPageRange(layout, g, column.index, geometry.metadataOffset, { decrypt: true })
      if (page && !('reason' in page) && page.exact && (dictionary === true || (!usableFilter && shouldReadDictionary(dictionary, page.maxLength, null)))) {
        group.dictionaryRead = { page, codec: record.codec, fallback: location, crypto: chunkCrypto }
        tasks.push(new RangeTask(page.offset, page.offset + page.maxLength, (bytes) => { group.dictionaryRead.bytes = bytes }))
      }
      if (!usableFilter) group.bloom = { missing: location }
      else tasks.push(encryptedFilterTask(location, `${name}: row group ${g}, column ${column.name}`, (modules) => { group.encryptedBloom = { crypto: chunkCrypto, modules } }))
      return group
    }
    const page = dictionary === false ? null : dictionaryPageRange(layout, g, column.index, geometry.metadataOffset)
    if (page && !('reason' in page) && shouldReadDictionary(dictionary, page.maxLength, usableFilter ? location.length ?? null : null)) {
      group.dictionaryRead = { page, codec: record.codec, fallback: location }
      tasks.push(new RangeTask(page.offset, page.offset + page.maxLength, (bytes) => { group.dictionaryRead.bytes = bytes }))
      return group
    }
    if (!usableFilter) {
      group.bloom = { missing: location }
      return group
    }
    tasks.push(bloomTask(g, group, location))
    return group
  })
  let byIndex
  return {
    tasks,
    /** After the reads: decodes the page indexes and dictionaries read; returns the bloom tasks of chunks whose dictionary failed. */
    async afterReads() {
      // Every encrypted module of the probe is decrypted at once, before anything is decoded.
      await Promise.all(groups.map(async (group) => {
        if (group.encryptedBloom) {
          const { crypto, modules } = group.encryptedBloom
          const filter = await decryptedFilter(crypto, modules, `${name}: row group ${group.index}, column ${column.name}`)
          group.bloom = filter instanceof Unanswerable ? { missing: filter } : { hits: hashed.checkBitset(filter.bitset) }
        }
        if (group.pageIndexCrypto && group.pageIndexRead?.columnIndex && group.pageIndexRead.offsetIndex) {
          group.pageIndexRead = await loadedCrypto().decryptPageIndex(group.pageIndexCrypto, group.pageIndexRead, `${name}: row group ${group.index}, column ${column.name}`)
        }
      }))
      for (const group of groups) {
        const read = group.pageIndexRead
        if (!read?.columnIndex || !read.offsetIndex) continue
        const record = chunk(layout, group.index, column.index)
        const range = record.pageRange()
        const prepared = preparePageIndex(pageOrder.order, decodeColumnIndex(read.columnIndex), decodeOffsetIndex(read.offsetIndex), {
          numRows: group.numRows, chunkStart: range?.chunkStart, chunkEnd: range?.chunkEnd, repeated: column.repeated,
          chunkNullCount: record.nullCount,
        })
        if (!prepared.usable) {
          // A cast: without strictNullChecks tsc does not narrow a union on a falsy discriminant.
          group.answer.noteIndex(`page index: ${/** @type {import('../indexes/page-index.js').UnusablePageIndex} */ (prepared).detail}`)
          continue
        }
        group.pageIndex = prepared
        group.pages = candidatePages(prepared, pageKeysFor(pageOrder.order), encoded.owners, { numValues: encoded.outcomes.length })
      }
      const retry = []
      await Promise.all(groups.filter((group) => group.dictionaryRead).map(async (group) => {
        const { page, codec, bytes, fallback, crypto } = group.dictionaryRead
        const options = { physicalType: column.physicalType, typeLength: column.typeLength, codec, exact: page.exact }
        const decrypted = bytes && crypto ? await loadedCrypto().decryptDictionary(crypto, bytes, `${name}: row group ${group.index}, column ${column.name}`) : undefined
        const decoded = !bytes ? { error: { reason: 'malformed-dictionary', detail: 'the dictionary page was not read' } }
          : decrypted ? decrypted.error ? decrypted : await decodeDictionary(decrypted.page, { ...options, exact: true })
            : await decodeDictionary(bytes, options)
        if ('set' in decoded) {
          group.dictionary = dictionaryVerdicts(decoded.set, encoded.candidates, encoded.owners, encoded.outcomes.length)
          return
        }
        group.answer.noteIndex(`dictionary: ${decoded.error.detail}`)
        // An encrypted chunk's filter was read in the same wave, if it has one (group.bloom is set).
        if (crypto) {
          if (fallback instanceof Unanswerable) group.bloom = { missing: new Unanswerable(decoded.error.reason, decoded.error.detail) }
        } else if (fallback instanceof Unanswerable) group.bloom = { missing: new Unanswerable(decoded.error.reason, decoded.error.detail) }
        else retry.push(bloomTask(group.index, group, fallback))
      }))
      return retry
    },
    results: () => groups.map((group) => group.combine(dictionaryRules)),
    /** The checked page index of a row group, when it was read and usable (exact lookups read its pages). */
    pageIndexOf: (g) => (byIndex ??= new Map(groups.map((group) => [group.index, group]))).get(g)?.pageIndex,
  }
}

/** One row group of a probe: its answer so far and what each index read brought. */
class RowGroupProbe {
  constructor(index, numRows, answer) {
    this.index = index
    this.numRows = numRows
    this.answer = answer
    /** @type {{ hits: Uint8Array, missing?: undefined } | { missing: Unanswerable, hits?: undefined } | undefined} */
    this.bloom = undefined
    /** @type {Uint8Array | undefined} per value: DictionaryAnswer */
    this.dictionary = undefined
    this.dictionaryRead = undefined
    this.pageIndexRead = undefined
    /** @type {import('../indexes/page-index.js').PreparedPageIndex | undefined} */
    this.pageIndex = undefined
    this.pages = undefined
    /** @type {{ crypto: any, modules: any } | undefined} an encrypted chunk's filter modules, decrypted in afterReads */
    this.encryptedBloom = undefined
    /** The chunk's crypto context when its page index modules need decrypting. */
    this.pageIndexCrypto = undefined
  }

  /** Combines the indexes' answers, exact ones first, into this row group's results. */
  combine(dictionaryRules) {
    const { answer } = this
    if (this.pages && !answer.settled) answer.applyPageIndex(this.pages)
    if (this.dictionary && !answer.settled) {
      const rule = dictionaryRules[0]
      answer.applyDictionary(this.dictionary, rule ? `${rule.message} (${rule.link})` : null)
      if (!answer.settled && !this.bloom) this.bloom = { missing: new Unanswerable('no-index', 'the dictionary could not compare this value and no bloom filter was read') }
    }
    if (!answer.settled) {
      if (this.bloom && 'hits' in this.bloom) answer.applyBloomFilter(this.bloom.hits)
      else answer.finishWithout(this.bloom?.missing ?? new Unanswerable('internal', 'the bloom filter read did not finish'))
    }
    return { index: this.index, numRows: this.numRows, results: answer.finalResults() }
  }
}
