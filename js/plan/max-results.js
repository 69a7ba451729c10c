// maxResults by default, for a file's probe (js/parquet-file.js) and a dataset's, table's or sidecar index's
// (js/plan/result-budget.js): about 850 MB of answers (one per value and row group, ~85 bytes each), within the heap
// Node and browsers give a page or process. Alone in its module: the probe path loads nothing else of the budget's.
export const DEFAULT_MAX_RESULTS = 10_000_000
