// What a format-2 sidecar index answers for a chunk (docs/sidecar-index.md "Format 2"): the probe's values as
// each region's column type stores them, with their hashes' halves for the bit rows; presets, then min/max
// where read, then the bloom check; and the answers many row groups share, made once per probe.
import { excludedByBounds } from '../indexes/statistics.js'
import { Source, valueResult } from '../verdicts.js'
import { decodeBound } from './sidecar-directory.js'
import { hashHalves } from './sidecar-identity.js'
import { encodedOncePerType, encodeFor, unreadableChunkResults } from './sidecar-probe-values.js'

/**
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {import('./sidecar-directory.js').RecordedBound} RecordedBound
 * @typedef {{ index: number, numRows: number | null, results: ValueResult[] }} AnsweredRowGroup
 * @typedef {ReturnType<typeof encodeWithHalves>} HalvedEncoding
 * @typedef {ReturnType<typeof sharedResults>} SharedResults
 */

/**
 * The values as a column of this type stores them, made once per type and probe (`encodings`, by type key).
 * @param {Map<string, HalvedEncoding | import('./sidecar-probe-values.js').Refused>} encodings
 * @param {import('./sidecar-layout.js').ColumnType} type
 * @param {unknown[]} list
 * @param {string} where the index, for errors
 * @param {string} column
 */
export function encodingFor(encodings, type, list, where, column) {
  return encodedOncePerType(encodings, type, encodeWithHalves, list, where, column)
}

/**
 * The values as a column of this type stores them: candidates with their hashes' halves, and sort keys.
 * @param {import('./sidecar-layout.js').ColumnType} type
 * @param {unknown[]} list
 * @param {string} path
 * @param {string} column
 */
function encodeWithHalves(type, list, path, column) {
  const { encoded, hashed, order, keys } = encodeFor(type, list, path, column)
  const { low, high } = hashHalves(hashed.hashes)
  const candidates = Array.from({ length: hashed.count }, (_, index) => ({ index, low: low[index], high: high[index] }))
  return { encoded, candidates, order, keys }
}

/**
 * The answers a probe gives many row groups, made once per value (results are data nobody changes): a
 * million row groups share a few objects instead of holding a million.
 * @param {unknown[]} list
 */
export function sharedResults(list) {
  /**
   * @param {import('../verdicts.js').Verdict} verdict
   * @param {string} source
   * @param {import('../verdicts.js').ReasonCode} reason
   * @param {string} detail
   */
  const make = (verdict, source, reason, detail) => list.map((value) => valueResult(value, verdict, source, reason, detail))
  return {
    outOfRange: make('absent', Source.STATISTICS, 'out-of-range', 'outside the min/max the sidecar index records for the chunk'),
    maybe: make('maybe', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter may hold it'),
    absent: make('absent', Source.BLOOM_FILTER, 'bloom-filter', 'the sidecar index\'s bloom filter rules it out'),
    scratch: new Uint8Array(list.length),
    /**
     * @type {Map<HalvedEncoding, { groups: AnsweredRowGroup[], byCount: AnsweredRowGroup[][] }>} per encoding: row group g
     * with every value ruled out by the bloom check (or preset), numRows unread, and the arrays of the first n of them
     */
    ruled: new Map(),
    /**
     * @param {number} count
     * @param {HalvedEncoding} encoded
     */
    ruledOut(count, encoded) {
      let made = this.ruled.get(encoded)
      if (!made) this.ruled.set(encoded, made = { groups: [], byCount: [] })
      let rowGroups = made.byCount[count]
      if (!rowGroups) {
        for (let index = made.groups.length; index < count; index++) {
          made.groups.push({
            index, numRows: null,
            results: encoded.encoded.outcomes.map((o, i) => (o.verdict ? { .../** @type {ValueResult} */ (o) } : this.absent[i])),
          })
        }
        rowGroups = made.byCount[count] = made.groups.slice(0, count)
      }
      return rowGroups
    },
  }
}

/**
 * One row group's answers: presets, then whether the index could read the chunk, then min/max where read, then the bit slices.
 * @param {HalvedEncoding | undefined} encoded
 * @param {Uint8Array | undefined} maybe
 * @param {boolean} unreadable
 * @param {{ index: number }} group
 * @param {unknown[]} list
 * @param {string} column
 * @param {[RecordedBound, RecordedBound] | undefined} bounds
 * @param {SharedResults} shared
 * @returns {ValueResult[]}
 */
export function answerChunk(encoded, maybe, unreadable, group, list, column, bounds, shared) {
  if (!encoded) {
    return list.map((v) => valueResult(v, 'unknown', null, 'no-index', `the sidecar index has no column ${column} for this file`))
  }
  const { outcomes, owners } = encoded.encoded
  // Its filter holds everything (it says maybe to all), but the index could not describe the chunk: unknown, as format 1 says.
  if (unreadable) return unreadableChunkResults(list, outcomes)
  const count = encoded.candidates.length
  const base = group.index * count
  let excluded
  if (bounds && encoded.order && (bounds[0] !== null || bounds[1] !== null)) {
    // keys are the sort keys wherever there is an order (encodeFor).
    excluded = excludedByBounds(encoded.order, /** @type {import('../indexes/statistics.js').SortKeys} */ (encoded.keys),
      decodeBound(encoded.order.kind, bounds[0]),
      decodeBound(encoded.order.kind, bounds[1]))
  }
  // 0: no candidate in bounds, 1: in bounds, 2: in bounds and a bloom hit — scratch reused across row groups.
  const state = shared.scratch
  state.fill(0)
  for (let k = 0; k < owners.length && k < count; k++) {
    if (excluded?.[k]) continue
    const i = owners[k]
    state[i] = Math.max(state[i], maybe?.[base + k] ? 2 : 1)
  }
  const out = new Array(list.length)
  for (let i = 0; i < list.length; i++) {
    out[i] = outcomes[i].verdict
      ? { .../** @type {ValueResult} */ (outcomes[i]) } // a preset answer
      : state[i] === 0 ? shared.outOfRange[i] : state[i] === 2 ? shared.maybe[i] : shared.absent[i]
  }
  return out
}
