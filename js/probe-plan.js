// One read plan per probe (issue #12.5): the footer's statistics answer first at no cost; then every
// index read the remaining values need — bloom filter headers and blocks, and the other indexes that
// join later — of every row group is handed to the read scheduler at once, coalesced and fetched
// concurrently, so no index adds a sequential round trip per row group. Answers are combined per row
// group once all of its reads are in (js/row-group-answer.js decides what each index may say).
import { Chunk, CHUNK_WORDS } from './footer.js'
import { ErrorCode } from './errors.js'
import { chunkUnavailable, locateFilter, ProbeTask } from './probe.js'
import { RowGroupAnswer } from './row-group-answer.js'
import { chunkStatistics, excludedByBounds, sortKeys, sortOrderFor } from './statistics.js'
import { Source, Unanswerable } from './verdicts.js'
import { writerRulesFor } from './writer-rules.js'

/**
 * Plans one probe. Returns the read tasks (for runReadTasks) and `results()`, which combines each row
 * group's answers after the reads: [{ index, numRows, results }].
 * @param {{ name: string, geometry: import('./probe.js').FileGeometry, column: import('./footer.js').LeafColumn,
 *   encoded: any, hashed: import('./probe.js').HashedCandidates, mode: string, rowGroups: number[], statistics: boolean }} probe
 */
export function planProbe({ name, geometry, column, encoded, hashed, mode, rowGroups, statistics }) {
  const { layout } = geometry
  // Statistics cost no bytes (they are in the footer): every candidate's sort key is made once.
  const order = statistics ? sortOrderFor(column) : null
  const keys = order && encoded.candidates.length ? sortKeys(order, encoded.candidates) : null
  const bloomRules = writerRulesFor(layout.createdBy, 'bloom-filter', column)
  const untrustedFilter = bloomRules.length
    ? new Unanswerable('untrusted-writer', `${bloomRules[0].message} (${bloomRules[0].link})`, ErrorCode.UNSUPPORTED_FILTER)
    : null

  const tasks = []
  const groups = rowGroups.map((g) => {
    const group = new RowGroupProbe(g, layout.rowGroupRows[g], new RowGroupAnswer(encoded))
    const { answer } = group
    if (group.numRows === 0) {
      answer.settleOpen('absent', Source.STATISTICS, 'empty-row-group', 'the row group has no rows')
      return group
    }
    const unavailable = chunkUnavailable(layout.chunks[(g * layout.columns.length + column.index) * CHUNK_WORDS + Chunk.FLAGS])
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
    const location = untrustedFilter ?? locateFilter(geometry, g, column.index)
    if (location instanceof Unanswerable) {
      group.bloom = { missing: location }
      return group
    }
    tasks.push(new ProbeTask(location, `${name}: row group ${g}, column ${column.name}`, hashed, mode,
      (hits) => { group.bloom = { hits } },
      (reason, detail) => { group.bloom = { missing: new Unanswerable(reason, detail) } },
      answer.openCandidates()))
    return group
  })
  return {
    tasks,
    results: () => groups.map((group) => group.combine()),
  }
}

/** One row group of a probe: its answer so far and what each index read brought. */
class RowGroupProbe {
  constructor(index, numRows, answer) {
    this.index = index
    this.numRows = numRows
    this.answer = answer
    /** @type {{ hits: Uint8Array } | { missing: Unanswerable } | undefined} */
    this.bloom = undefined
  }

  /** Combines the indexes' answers, exact ones first, into this row group's results. */
  combine() {
    const { answer } = this
    if (!answer.settled) {
      if (this.bloom && 'hits' in this.bloom) answer.applyBloomFilter(this.bloom.hits)
      else answer.finishWithout(this.bloom?.missing ?? new Unanswerable('internal', 'the bloom filter read did not finish'))
    }
    return { index: this.index, numRows: this.numRows, results: answer.finalResults() }
  }
}
