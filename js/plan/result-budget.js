// How many answers a probe may hold (a dataset's, js/dataset/dataset.js; a sidecar index's own). Its result is one
// record per value for each file and for each of the file's row groups, all held until the last file answers: 10,000
// values over 2,000 files of 10 row groups are 220 million records at ~85 bytes each, which no heap holds (V8 aborted
// the process, untyped). Over the budget the probe fails TOO_LARGE as early as it can tell: values × files before any
// read, a file's row groups once its footer says how many (js/dataset/probe-run.js), before its indexes are read and
// its answers made — so no more than the budget is ever held, whatever one file's row groups. probeEach() streams each
// file's answer instead, and holds only the files in flight, each file's answers within the limit (FileRoom). A dataset's
// sidecar index makes its answers for a batch of files before their footers are read: both count the row groups it
// describes as it says them, before it makes them (indexed, unanswerable; js/dataset/index-batches.js). A sidecar
// index's own probe makes all its answers at once: the same limit (checkSidecarRoom), as js/sidecar/ asks it.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { maxResultsOf } from './max-results.js'

export class ResultBudget {
  /**
   * Refuses, before any read, a probe whose files' answers alone (one per value for each file) are over the budget.
   * @param {unknown} maxResults the probe's option (undefined: js/plan/max-results.js DEFAULT_MAX_RESULTS; Infinity: no limit)
   * @param {number} values the probe's values
   * @param {number} files the files it probes (those `where` skips answer every value too)
   */
  constructor(maxResults, values, files) {
    this.max = maxResultsOf(maxResults)
    this.values = values
    this.files = files
    this.held = values * files
    this.#check()
  }

  /** @type {ParquetBloomError | undefined} the error the budget was refused with, which fails the probe, not one file */
  exceeded

  /**
   * A file is open: room for its row groups' answers, before they are made (TOO_LARGE past the budget). A file that
   * then answers without them (its column missing, an error) keeps its room: the budget errs on the side of refusing.
   * @param {number} rowGroups
   * @param {number} [counted] those its sidecar index described, whose room was taken then (indexed): a file's answers
   *   replace its index's, so its room is the larger of the two
   */
  add(rowGroups, counted = 0) {
    this.held += this.values * Math.max(0, rowGroups - counted)
    this.#check()
  }

  /**
   * A dataset's sidecar index describes `rowGroups` of the files it is asked about (js/dataset/index-batches.js): room for
   * its answers, before it makes them (TOO_LARGE past the budget, failing the probe).
   * @param {number} rowGroups
   */
  indexed(rowGroups) {
    this.add(rowGroups)
  }

  /** The files a sidecar index is to leave unanswered: none (past the budget, indexed() fails the probe). */
  unanswerable() {
    return new Set()
  }

  #check() {
    if (this.held <= this.max) return
    this.exceeded = new ParquetBloomError(ErrorCode.TOO_LARGE, `probe() of ${this.values} values over ${this.files} files needs ` +
      `room for ${this.held} answers (one per value for each file and each of its row groups), more than maxResults ` +
      `(${this.max}): use probeEach(), which streams each file's answer, or probe fewer values at once`)
    throw this.exceeded
  }
}

/**
 * probeEach()'s room, a file at a time: it holds only the files in flight, but a file's answers (one per value for each of
 * its row groups) are made at once, and a dataset asks its files with maxResults Infinity: 100,001 values over a file of
 * 200 row groups (20 million answers) had V8 abort the process. Past maxResults that file answers TOO_LARGE, its own error
 * (ProbeRun#failed: its values `unknown`), once its footer says how many row groups, before its indexes are read; the
 * other files go on. probe() counts its files under ResultBudget instead, once.
 */
export class FileRoom {
  /** @param {unknown} maxResults the probe's option @param {number} values the probe's values */
  constructor(maxResults, values) {
    this.max = maxResultsOf(maxResults)
    this.values = values
  }

  /** never set: a file over its room fails alone, not the probe (ResultBudget's fails the probe) */
  exceeded = undefined

  /**
   * A dataset's sidecar index describes these row groups of the files it is asked about (js/dataset/index-batches.js):
   * the places of those over the room, which it makes no answers for. The file answers TOO_LARGE once its footer is
   * read (add), as it would without the index — or, if the index's entry is not the file, as its footer says.
   * @param {number[]} rowGroups each file's
   */
  unanswerable(rowGroups) {
    /** @type {Set<number>} */
    const over = new Set()
    rowGroups.forEach((n, i) => { if (this.values * n > this.max) over.add(i) })
    return over
  }

  /** Room for an index's answers of files within it: nothing to count (the files in flight are bounded apart). */
  indexed() {}

  /** @param {number} rowGroups the file's, from its footer */
  add(rowGroups) {
    if (this.values * rowGroups <= this.max) return
    throw new ParquetBloomError(ErrorCode.TOO_LARGE, `${this.values} values over this file's ${rowGroups} row groups need room ` +
      `for ${this.values * rowGroups} answers (one per value for each row group), more than maxResults (${this.max}): probe ` +
      'fewer values at once')
  }
}

/**
 * A sidecar index's probe (js/sidecar/): its answers, one per value for each row group of each file it describes, are
 * made at once: TOO_LARGE past maxResults, once its directory says how many row groups, before they are made (10,000
 * values over an index of 400 files of 10 row groups had V8 abort a process of 256 MiB). A dataset's probe asks it with
 * maxResults Infinity: it asks a batch of files at a time (js/dataset/index-batches.js), under its own budget.
 * @param {unknown} maxResults the probe's option
 * @param {number} values @param {number} rowGroups of the files asked, as the index describes them @param {number} files
 * @param {string} name the index's
 */
export function checkSidecarRoom(maxResults, values, rowGroups, files, name) {
  const max = maxResultsOf(maxResults)
  if (values * rowGroups <= max) return
  throw new ParquetBloomError(ErrorCode.TOO_LARGE, `${name}: a probe of ${values} values over ${files} files of ${rowGroups} row ` +
    `groups needs room for ${values * rowGroups} answers (one per value for each row group), more than maxResults (${max}): ` +
    'ask about fewer files (options.files) or values at once')
}
