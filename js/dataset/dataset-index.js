// openDataset(…, { index }): a sidecar index (js/sidecar/sidecar-index.js, docs/sidecar-index.md) asked
// for all of a dataset probe's files in one call; loaded by js/dataset/dataset.js only for a dataset with one.

import { hasFileSystem } from '../sources/runtime.js'
import { placesOf } from './index-batches.js'

/**
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {{ descriptor: { location: unknown, size?: number, etag?: string } }} IndexedFile
 *   a dataset's file, as the index is asked about it
 * @typedef {{ path: string, current: boolean, reason?: string, detail?: string, validators?: { recorded: string, found: string },
 *   unanswered?: boolean, rowGroups: Array<{ index: number, numRows: number, results: ValueResult[] }> }} SidecarFileAnswer
 *   a file of the sidecar's probe result (js/sidecar/sidecar-index.js)
 */

/**
 * openDataset's `index`: a sidecar index (js/sidecar/sidecar-index.js), opened once at the first
 * probe — the index-builder is imported only then — and asked for all of a probe's files in one call.
 * Only files it describes as they are get its answers — matched by the size and ETag the caller's
 * descriptors give (a listing's), else by a stat or HEAD of each (a size alone would miss a rewrite of
 * the same size); the others it answers `stale-index`, which decides nothing,
 * and says why — which the probe reports per file and in its totals, so an index that describes none
 * of the files does not pass unnoticed.
 */
export class DatasetIndex {
  #given
  #options
  /** @type {Promise<{ index: any, module: any, owned: boolean }> | undefined} */
  #opened
  /** @type {typeof import('../sidecar/sidecar-index.js') | undefined} js/sidecar/sidecar-index.js, once answers() loaded it */
  #module
  /** The index file's stats already counted in a probe's (an index opened here counts its opening too). */
  #counted = { requests: 0, bytesFetched: 0, rounds: 0, heads: 0 }

  /**
   * @param {unknown} given openDataset's `index`: a path or URL of a sidecar index, or one opened (an object with probe())
   * @param {import('../index-builder/index.js').OpenSidecarIndexOptions} options the dataset's options for openParquet, which
   *   openSidecarIndex takes too
   */
  constructor(given, options) {
    this.#given = given
    this.#options = options
  }

  /** @param {import('../sources/io-ledger.js').IoLedger} [ledger] the first probe's: the opening's reads are its requests */
  #open(ledger) {
    this.#opened ??= import('../sidecar/sidecar-index.js').then(async (module) => {
      this.#module = module
      // A caller's index object is used as it is: any shape with probe() and close().
      const given = /** @type {any} */ (this.#given)
      if (typeof given?.probe === 'function') {
        if (given.stats) this.#counted = { heads: 0, ...given.stats }
        return { index: given, module, owned: false }
      }
      return { index: await module.openSidecarIndex(given, { ...this.#options, ...(ledger ? { ioLedger: ledger, ioGroup: 'index' } : {}) }),
        module, owned: true }
    })
    return this.#opened
  }

  /**
   * The sidecar's answer per file it describes as it is — answers: Map(file → { rowGroups }) — and, per
   * file it was asked about, whether it describes it (described: Map(file → { described: true } or
   * { described: false, reason, detail, validators? }); a file whose location is not a path or URL is
   * not described, reason `no-path`); nothing when there are no values to ask about. And what asking cost
   * (cost: the IoStats of the index since the last call, its opening included; `heads` of the requests are
   * its HEADs of files, the others its reads), measured in the probe's `ledger` (cost.inLedger) — an index
   * of the caller's own making that does not take one is counted by its stats instead.
   * @param {string} column
   * @param {unknown[]} values
   * @param {IndexedFile[]} files
   * @param {AbortSignal | undefined} signal
   * @param {import('../sources/io-ledger.js').IoLedger} [ledger]
   * @param {(rowGroups: number[]) => Set<number> | undefined} [rowGroupsKnown] told the row groups the index describes for each
   *   of `files` before it makes an answer (js/dataset/index-batches.js); those it returns get none (described, no answers)
   * @returns {Promise<{ answers: Map<object, { rowGroups: Array<{ index: number, results: any[] }> }>,
   *   described: Map<object, { described: boolean, reason?: string, detail?: string, validators?: { recorded: string, found: string } }>,
   *   cost: import('../sources/io-ledger.js').IoStats & { inLedger: boolean } }>}
   */
  async answers(column, values, files, signal, ledger, rowGroupsKnown = undefined) {
    const { index } = await this.#open(ledger)
    /** @type {IndexedFile[]} the files asked of the index, at `places` among `files` */
    const asked = []
    /** @type {number[]} */
    const places = []
    files.forEach((f, i) => {
      if (typeof locationOf(f) !== 'string') return
      asked.push(f)
      places.push(i)
    })
    const answers = new Map()
    const described = new Map()
    if (values.length) {
      for (const f of files) if (typeof locationOf(f) !== 'string') described.set(f,
        { described: false, reason: 'no-path', detail: 'the file has no path or URL for the index to look up' })
    }
    if (asked.length && values.length) {
      const specs = asked.map(specOf)
      // The dataset reads a relative local path from the working directory; the index would take it as relative to
      // its own directory (its recorded form) and vouch for another file of that name: it is asked by absolute path.
      // (Without a file system a relative name is a URL relative to the page, as the dataset reads it: left as it is.)
      if (hasFileSystem() && specs.some((s) => isRelativeLocal(s.path))) {
        const { resolve } = await import('node:path')
        for (const s of specs) if (isRelativeLocal(s.path)) s.path = resolve(s.path)
      }
      // The dataset asks a batch of files at a time under its own budget (js/dataset/index-batches.js).
      const result = await index.probe(column, values, { files: specs, signal, ioLedger: ledger, maxResults: Infinity,
        rowGroupsKnown: rowGroupsKnown && placesOf(places, files.length, rowGroupsKnown) })
      result.files.forEach((/** @type {SidecarFileAnswer} */ entry, /** @type {number} */ i) => {
        if (entry.current) {
          if (!entry.unanswered) answers.set(asked[i], entry)
          described.set(asked[i], { described: true })
          return
        }
        // An index of another version may give no reason: it did not describe the file all the same.
        described.set(asked[i], { described: false, reason: entry.reason ?? 'not-described', detail: entry.detail ??
          'the sidecar index does not describe this file as it is',
          ...(entry.validators ? { validators: entry.validators } : {}) })
      })
    }
    const now = { heads: 0, ...(index.stats ?? { requests: 0, bytesFetched: 0, rounds: 0 }) }
    const counted = { requests: now.requests - this.#counted.requests, heads: now.heads - this.#counted.heads,
      bytesFetched: now.bytesFetched - this.#counted.bytesFetched,
      rounds: now.rounds - this.#counted.rounds, retries: 0 }
    this.#counted = now
    const measured = ledger?.groupStats('index')
    const cost = measured && measured.requests >= counted.requests ? { ...measured, inLedger: true } : { ...counted, inLedger: false }
    return { answers, described, cost }
  }

  /**
   * The file's own row-group answers for values `open` (in that order), sharpened by the sidecar's, as openParquet's `index` does
   * (only while the file's footer agrees with the entry: else `row-groups-differ`, and the file keeps its answers).
   * Called after answers(), which loaded the module.
   * @param {Array<{ index: number, numRows: number, results: ValueResult[] }>} rowGroups
   * @param {Array<{ numRows: number | null, results: ValueResult[] }>} indexed
   * @param {number[]} open
   * @param {number} count the file's row groups
   */
  sharpen(rowGroups, indexed, open, count) {
    const module = /** @type {typeof import('../sidecar/sidecar-index.js')} */ (this.#module)
    return module.sharpenResults(rowGroups, indexed.map((g) => ({ numRows: g.numRows, results: open.map((k) => g.results[k]) })), count)
  }

  /**
   * Why the file's footer is not the one the sidecar's entry describes (`row-groups-differ`: a same-size replacement no
   * validator told apart), or undefined when it may be. Called after answers(), which loaded the module.
   * @param {Array<{ index: number, numRows: number }>} fileRowGroups the file's every row group
   * @param {Array<{ numRows: number | null }>} indexed
   */
  differs(fileRowGroups, indexed) {
    const module = /** @type {typeof import('../sidecar/sidecar-index.js')} */ (this.#module)
    return module.rowGroupsDiffer(fileRowGroups, indexed, fileRowGroups.length)
  }

  async close() {
    if (!this.#opened) return
    const { index, owned } = await this.#opened.catch(() => ({ index: null, owned: false }))
    if (owned) await index.close()
  }
}

/**
 * What the index is told of a file: its path, and — when the caller's descriptor gives both its size and a
 * strong ETag (a listing's) — those, so the index decides without a request per file. A size alone is not
 * enough (a rewrite of the same size would pass): the index then checks the file itself.
 */
/** @param {IndexedFile} file */
function specOf(file) {
  const { size, etag } = file.descriptor
  const path = /** @type {string} */ (locationOf(file)) // asked only of files whose location is a path or URL
  if (Number.isSafeInteger(size) && typeof etag === 'string' && etag !== '' && !etag.startsWith('W/')) {
    return { path, size, validator: `etag:${etag}` }
  }
  return { path }
}

/**
 * A local path not anchored at a root (no scheme of two letters or more — a Windows drive letter is not one — and no
 * leading / or \\).
 * @param {string} path
 */
function isRelativeLocal(path) {
  return !/^[a-z][a-z0-9+.-]+:/i.test(path) && !/^([a-z]:)?[\\/]/i.test(path)
}

/** @param {IndexedFile} file */
function locationOf(file) {
  const { location } = file.descriptor
  return location instanceof URL ? location.href : location
}
