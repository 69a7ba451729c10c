// maxResults by default, for a file's probe (js/parquet-file.js) and a dataset's, table's or sidecar index's
// (js/plan/result-budget.js): about 850 MB of answers (one per value and row group, ~85 bytes each), within the heap
// Node and browsers give a page or process; and the option's one check. Apart from result-budget.js: the probe path
// loads nothing else of the budget's.
import { invalidArgument } from '../errors.js'

export const DEFAULT_MAX_RESULTS = 10_000_000

/**
 * A probe's maxResults, checked (INVALID_ARGUMENT unless an integer >= 1 or Infinity).
 * @param {unknown} maxResults undefined: DEFAULT_MAX_RESULTS
 */
export function maxResultsOf(maxResults) {
  const max = maxResults ?? DEFAULT_MAX_RESULTS
  if (typeof max !== 'number' || !(max === Infinity || (Number.isInteger(max) && max >= 1))) {
    throw invalidArgument(`maxResults must be an integer >= 1 or Infinity, got ${String(maxResults)}`)
  }
  return max
}
