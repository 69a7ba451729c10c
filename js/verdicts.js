// The probe's result model, in one place: every per-value answer is data — { value, verdict, source,
// reason, detail } — with a stable kebab-case `reason` that programs (the CLI, the demo, callers) switch
// on, and a `detail` sentence for people. docs/verdicts.md and index.d.ts list the same codes.

/** Which index decided: 'value' when the value alone decides (null, NaN, not representable). */
export const Source = Object.freeze({
  STATISTICS: 'statistics',
  PAGE_INDEX: 'page-index',
  DICTIONARY: 'dictionary',
  BLOOM_FILTER: 'bloom-filter',
  DATA_PAGES: 'data-pages',
  VALUE: 'value',
  PARTITION: 'partition', // a dataset file's Hive partition values, from its path (js/dataset/hive.js)
  TABLE_PARTITION: 'table-partition', // a table's metadata: the file's partition values (Iceberg manifests, Delta log)
  TABLE_STATS: 'table-stats', // a table's metadata: the file's column statistics
})

/**
 * Every reason code with the verdict it comes with and what it means. `verdict: null` where the code
 * can come with more than one verdict. Its keys are the reason codes: ReasonCode below, and index.d.ts's.
 */
export const REASONS = Object.freeze(/** @satisfies {Record<string, { verdict: Verdict | null, text: string }>} */ ({
  'bloom-filter': { verdict: null, text: 'the bloom filter answered: absent, or maybe (at its false-positive rate)' },
  'out-of-range': { verdict: 'absent', text: 'below the chunk\'s min or above its max (row-group statistics)' },
  'in-range': { verdict: 'maybe', text: 'within the chunk\'s min/max, and no other index could rule it out' },
  'out-of-page-range': { verdict: 'absent', text: 'outside the min/max of every page of the chunk (page index)' },
  'in-page-range': {
    verdict: 'maybe',
    text: 'within the min/max of some pages (page index; `pages` lists them), and the chunk has no bloom filter',
  },
  'all-null': { verdict: 'absent', text: 'every value of the chunk is null (null_count = num_values)' },
  'in-dictionary': {
    verdict: null,
    text: 'the chunk\'s dictionary holds it and every data page is dictionary-encoded: present ' +
      '(maybe, for writers whose dictionaries may hold unused values)',
  },
  'not-in-dictionary': { verdict: 'absent', text: 'not in the chunk\'s dictionary, and every data page is dictionary-encoded' },
  'empty-row-group': { verdict: 'absent', text: 'the row group has no rows' },
  'not-representable': { verdict: 'absent', text: 'no file of this column type can hold the value (1.5 in INT32)' },
  'null': { verdict: 'unknown', text: 'bloom filters and min/max do not record nulls' },
  'nan': { verdict: 'unknown', text: 'NaN has many bit patterns and no place in min/max' },
  'no-index': { verdict: 'unknown', text: 'no usable index (statistics or bloom filter) for this chunk' },
  'malformed-filter': { verdict: 'unknown', text: 'the bloom filter does not decode' },
  'malformed-dictionary': { verdict: 'unknown', text: 'the dictionary page does not decode (and the chunk has no usable bloom filter)' },
  'unsupported-codec': { verdict: 'unknown', text: 'the dictionary page uses a compression this reader cannot decompress' },
  'dictionary-too-large': { verdict: 'unknown', text: 'the dictionary page is larger than this reader decodes (64 MiB)' },
  'unsupported-filter': { verdict: 'unknown', text: 'the bloom filter uses an algorithm, hash or compression this reader does not know' },
  'inconsistent-filter': {
    verdict: 'unknown',
    text: 'the footer\'s description of the filter disagrees with the filter (length, placement)',
  },
  'untrusted-writer': { verdict: 'unknown', text: 'the writer is known to write this index wrongly (see the writer rules)' },
  'encrypted-column': { verdict: 'unknown', text: 'the column is encrypted' },
  'no-key': { verdict: 'unknown', text: 'the column is encrypted and its key was not given (options.decryption)' },
  'no-column-metadata': { verdict: 'unknown', text: 'the column chunk has no metadata' },
  'external-file': { verdict: 'unknown', text: 'the column chunk lives in another file' },
  'in-data-pages': { verdict: 'present', text: 'the chunk\'s data pages hold it (confirm: true); `rows` lists the rows' },
  'not-in-data-pages': { verdict: 'absent', text: 'no data page that may hold it does (confirm: true read and compared them)' },
  'confirm-budget': {
    verdict: null,
    text: 'not confirmed: reading the chunk\'s pages would pass maxConfirmBytes; the index\'s verdict stands',
  },
  'confirm-failed': {
    verdict: null,
    text: 'not confirmed: a data page could not be read or disagrees with the file; the index\'s verdict stands',
  },
  'partition-match': { verdict: 'maybe', text: 'the file\'s partition value equals it (a dataset file; its rows were not read)' },
  'partition-mismatch': {
    verdict: 'absent',
    text: 'the file\'s partition value differs from it (from its path, or the table\'s metadata)',
  },
  'outside-where': {
    verdict: 'absent',
    text: 'the file\'s partitions fall outside the probe\'s `where`: none of its rows are asked about',
  },
  'column-missing': { verdict: 'unknown', text: 'the dataset file has no such column (its schema differs from other files\')' },
  'file-error': { verdict: 'unknown', text: 'the dataset file could not be read or probed; its `error` says why' },
  'limit-reached': { verdict: 'unknown', text: 'the dataset file was not probed: `limit` rows were already found in other files' },
  'no-nan': { verdict: 'absent', text: 'a NaN, in a table file whose metadata counts no NaN in the column' },
  'unit-differs': { verdict: 'unknown', text: 'an integer, in a table file whose timestamps are of another unit: give text or a Date' },
  'deletes-not-applied': {
    verdict: 'maybe',
    text: 'the table file has deletes (delete files, a deletion vector) that could not be applied to the rows found: ' +
      'they may all be deleted',
  },
  'rows-deleted': {
    verdict: 'absent',
    text: 'confirm found it only in rows the table\'s deletes (position deletes, a deletion vector) remove',
  },
  'stale-index': {
    verdict: 'unknown',
    text: 'the sidecar index does not describe the file as it is (missing from it, or another size or validator): ' +
      'probe the file itself',
  },
  'internal': { verdict: 'unknown', text: 'an internal inconsistency; please report it' },
}))

/**
 * @typedef {'absent' | 'maybe' | 'present' | 'unknown'} Verdict
 * @typedef {import('./index.js').VerdictSource} VerdictSource
 * @typedef {keyof typeof REASONS} ReasonCode a stable kebab-case code a result's `reason` holds
 * @typedef {{ value: any, verdict: Verdict, source: VerdictSource | null, reason: ReasonCode, detail: string,
 *   pages?: number[], rows?: number[], rowsTruncated?: boolean, values?: Array<Record<string, unknown>> }} ValueResult
 *   `pages`: the candidate pages of a value the page index kept (js/plan/row-group-answer.js finalResults);
 *   `rows`: file-level row numbers holding it, ascending, when confirmed (js/confirm/confirm.js)
 */

/**
 * @param {unknown} value
 * @param {Verdict} verdict
 * @param {string | null} source one of Source's values (the published VerdictSource), or null
 * @param {ReasonCode} reason
 * @param {string} detail
 * @returns {ValueResult}
 */
export function valueResult(value, verdict, source, reason, detail) {
  return { value, verdict, source: /** @type {VerdictSource | null} */ (source), reason, detail }
}

/**
 * Why a chunk cannot be answered by an index: a reason code, a sentence, the error code a visit throws,
 * and for inconsistent filters which disagreement it is (`problem`, an inspect warning code).
 */
export class Unanswerable {
  /**
   * @param {ReasonCode} reason
   * @param {string} detail
   * @param {string} [errorCode] one of ErrorCode (js/errors.js)
   * @param {string} [problem]
   */
  constructor(reason, detail, errorCode, problem) {
    this.reason = reason
    this.detail = detail
    this.errorCode = errorCode
    this.problem = problem
  }
}
