// One row group's answer to a probe: what each index says about each value, combined cheapest and
// most exact first — the value itself (null, NaN, not representable), the row-group statistics, the
// dictionary, then the bloom filter — into per-value results { value, verdict, source, reason, detail }
// (js/verdicts.js). A value is 'absent' only when an index rules out every one of its candidates.
import { DictionaryAnswer } from '../indexes/dictionary.js'
import { Source, valueResult } from '../verdicts.js'

/** @typedef {import('../verdicts.js').Verdict} Verdict */
/** @typedef {Parameters<typeof valueResult>[3]} Reason a result's reason code, as valueResult takes it */

export class RowGroupAnswer {
  /**
   * @param {{ candidates: any[], owners: Int32Array,
   *   outcomes: Array<{ value: any, verdict?: string, source?: string, reason?: import('../verdicts.js').ReasonCode,
   *     detail?: string }> }} encoded
   */
  constructor(encoded) {
    this.encoded = encoded
    this.open = 0
    const { outcomes } = encoded
    /** @type {Array<import('../verdicts.js').ValueResult | null>} */
    this.results = new Array(outcomes.length) // filled below: the exact room, where push would leave room for seventeen
    for (let i = 0; i < outcomes.length; i++) {
      const o = outcomes[i]
      if (o.verdict) {
        const verdict = /** @type {import('../verdicts.js').Verdict} */ (o.verdict)
        this.results[i] = valueResult(o.value, verdict, o.source ?? Source.VALUE, o.reason ?? 'internal', o.detail ?? '')
      } else {
        this.results[i] = null
        this.open++
      }
    }
    this.keptByStatistics = false
    /** The page index's candidate pages, when it was read: pageList[pageStarts[v] .. pageStarts[v + 1]) for value v. */
    /** @type {import('../indexes/page-index.js').PageCandidates | undefined} */
    this.pages = undefined
    /** @type {string[] | undefined} why indexes that were there could not be used, for the detail of a value no index decided */
    this.notes = undefined
  }

  get settled() {
    return this.open === 0
  }

  /** Candidates still needed: 1 where the candidate's value has no result yet. */
  openCandidates() {
    const { owners } = this.encoded
    const mask = new Uint8Array(owners.length)
    for (let k = 0; k < owners.length; k++) mask[k] = this.results[owners[k]] === null ? 1 : 0
    return mask
  }

  /**
   * @param {Verdict} verdict
   * @param {string | null} source
   * @param {Reason} reason
   * @param {string} detail
   */
  settleOpen(verdict, source, reason, detail) {
    const { outcomes } = this.encoded
    for (let i = 0; i < outcomes.length; i++) {
      if (this.results[i] === null) this.results[i] = valueResult(outcomes[i].value, verdict, source, reason, detail)
    }
    this.open = 0
  }

  /**
   * Statistics that were usable: every non-null value is out when the chunk is all null; otherwise a
   * value is out when each of its candidates is (`excluded[k]` = 1).
   * @param {{ allNull?: boolean }} stats
   * @param {ArrayLike<number> | null} excluded null only for a chunk of nulls
   */
  applyStatistics(stats, excluded) {
    if (stats.allNull) {
      this.settleOpen('absent', Source.STATISTICS, 'all-null', 'every value of this column chunk is null')
      return
    }
    this.keptByStatistics = true
    const bounds = /** @type {ArrayLike<number>} */ (excluded) // given for a chunk not all null
    this.#settleWhereAll(bounds, 1, 'absent', Source.STATISTICS, 'out-of-range', 'outside the min/max of this column chunk\'s statistics')
  }

  /**
   * Why statistics could not be used, for the detail of a value no index decided.
   * @param {{ detail: string }} stats
   */
  noteStatistics(stats) {
    this.noteIndex(`statistics: ${stats.detail}`)
  }

  /** @param {string} note */
  noteIndex(note) {
    this.notes ??= []
    this.notes.push(note)
  }

  /**
   * The chunk's dictionary, when it holds every value of the chunk: per value DictionaryAnswer. In it
   * is 'present' — or 'maybe' when `presentCaveat` says this writer's dictionaries may hold values no
   * row uses; not in it is 'absent'; values it cannot compare stay open.
   * @param {Uint8Array} answers per value: DictionaryAnswer
   * @param {string | null} presentCaveat
   */
  applyDictionary(answers, presentCaveat) {
    const { outcomes } = this.encoded
    for (let i = 0; i < outcomes.length; i++) {
      if (this.results[i] !== null || answers[i] === DictionaryAnswer.UNDECIDED) continue
      const value = outcomes[i].value
      this.results[i] = answers[i] === DictionaryAnswer.PRESENT
        ? (presentCaveat
          ? valueResult(value, 'maybe', Source.DICTIONARY, 'in-dictionary', `the chunk's dictionary holds it; ${presentCaveat}`)
          : valueResult(value, 'present', Source.DICTIONARY, 'in-dictionary',
            'the chunk\'s dictionary holds it, and every data page is dictionary-encoded'))
        : valueResult(value, 'absent', Source.DICTIONARY, 'not-in-dictionary',
          'not in the chunk\'s dictionary, and every data page is dictionary-encoded')
      this.open--
    }
  }

  /**
   * The page index's answer (js/indexes/page-index.js candidatePages): a value is out when no page may hold any
   * of its candidates; the others keep their candidate pages, which the results carry.
   * @param {import('../indexes/page-index.js').PageCandidates} pages
   */
  applyPageIndex(pages) {
    this.pages = pages
    this.#settleWhereAll(pages.excluded, 1, 'absent', Source.PAGE_INDEX, 'out-of-page-range',
      'outside the min/max of every page of this column chunk (page index)')
  }

  /**
   * The bloom filter's answer per candidate (check results: 0 absent, anything else maybe).
   * @param {ArrayLike<number>} hits
   */
  applyBloomFilter(hits) {
    const { owners, outcomes, candidates } = this.encoded
    const maybe = new Uint8Array(outcomes.length)
    // Anything but a definite 0 counts as "maybe": never turn an odd answer into a false 'absent'. Nor a miss of `wide` INT96
    // bytes (values/input.js WideInt96): the value may be stored with another nanosecond of its microsecond.
    for (let k = 0; k < owners.length; k++) if (hits[k] !== 0 || candidates[k].wide) maybe[owners[k]] = 1
    for (let i = 0; i < outcomes.length; i++) {
      if (this.results[i] !== null) continue
      this.results[i] = maybe[i]
        ? valueResult(outcomes[i].value, 'maybe', Source.BLOOM_FILTER, 'bloom-filter', 'the bloom filter may hold it')
        : valueResult(outcomes[i].value, 'absent', Source.BLOOM_FILTER, 'bloom-filter', 'the bloom filter does not hold it')
    }
    this.open = 0
  }

  /**
   * No bloom filter could answer (`why`: an Unanswerable). Values the statistics kept are 'maybe'
   * from them when there simply is no filter; otherwise, and when a filter exists but is unusable,
   * they are 'unknown' with the reason.
   * @param {import('../verdicts.js').Unanswerable} why
   */
  finishWithout(why) {
    if (this.pages && why.reason === 'no-index') {
      this.settleOpen('maybe', Source.PAGE_INDEX, 'in-page-range',
        'within the min/max of some of this chunk\'s pages (page index); the chunk has no bloom filter')
      return
    }
    if (this.keptByStatistics && why.reason === 'no-index') {
      this.settleOpen('maybe', Source.STATISTICS, 'in-range',
        'within the min/max of this column chunk\'s statistics; the chunk has no bloom filter')
      return
    }
    const detail = this.notes ? `${why.detail}; ${this.notes.join('; ')}` : why.detail
    this.settleOpen('unknown', null, why.reason, detail)
  }

  /** Final results (every value settled); values the page index kept carry `pages`, their candidate pages. */
  finalResults() {
    if (this.open) this.settleOpen('unknown', null, 'internal', 'no index settled this value')
    const pageStarts = this.pages?.pageStarts
    const pageList = this.pages?.pageList
    if (pageStarts && pageList) {
      this.results.forEach((r, v) => {
        if (r && r.verdict !== 'absent' && r.source !== Source.VALUE) {
          r.pages = Array.from(pageList.subarray(pageStarts[v], pageStarts[v + 1]))
        }
      })
    }
    return /** @type {import('../verdicts.js').ValueResult[]} */ (this.results)
  }

  /**
   * @param {ArrayLike<number>} flags per candidate
   * @param {number} flagValue
   * @param {Verdict} verdict
   * @param {string | null} source
   * @param {Reason} reason
   * @param {string} detail
   */
  #settleWhereAll(flags, flagValue, verdict, source, reason, detail) {
    const { owners, outcomes } = this.encoded
    // A value is settled only when all its candidates carry the flag; a value with no candidate at all never is
    // (it would be "all" of nothing). Each value's candidates are one run of owners, as encodeProbeValues adds them
    // (no per-value arrays); owners in any other order settle nothing here: left open, never wrongly absent.
    for (let k = 1; k < owners.length; k++) if (owners[k] < owners[k - 1]) return
    for (let k = 0; k < owners.length;) {
      const owner = owners[k]
      let all = true
      for (; k < owners.length && owners[k] === owner; k++) if (flags[k] !== flagValue) all = false
      if (all && this.results[owner] === null) {
        this.results[owner] = valueResult(outcomes[owner].value, verdict, source, reason, detail)
        this.open--
      }
    }
  }
}
