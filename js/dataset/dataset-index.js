// openDataset(…, { index }): a sidecar index (js/index-builder/sidecar-index.js, docs/sidecar-index.md) asked
// for all of a dataset probe's files in one call; loaded by js/dataset/dataset.js only for a dataset with one.

/**
 * openDataset's `index`: a sidecar index (js/index-builder/sidecar-index.js), opened once at the first
 * probe — the index-builder is imported only then — and asked for all of a probe's files in one call.
 * Only files it describes as they are (it stats or HEADs them itself: a listing's size alone would miss a
 * rewrite of the same size) get its answers; the others it answers `stale-index`, which decides nothing.
 */
export class DatasetIndex {
  #given
  #options
  /** @type {Promise<{ index: any, module: any, owned: boolean }> | undefined} */
  #opened
  /** js/index-builder/sidecar-index.js, once answers() loaded it */
  #module
  /** The index file's stats already counted in a probe's (an index opened here counts its opening too). */
  #counted = { requests: 0, bytesFetched: 0, rounds: 0 }

  constructor(given, options) {
    this.#given = given
    this.#options = options
  }

  #open() {
    this.#opened ??= import('../index-builder/sidecar-index.js').then(async (module) => {
      this.#module = module
      const given = this.#given
      if (typeof given?.probe === 'function') {
        if (given.stats) this.#counted = { ...given.stats }
        return { index: given, module, owned: false }
      }
      return { index: await module.openSidecarIndex(given, this.#options), module, owned: true }
    })
    return this.#opened
  }

  /**
   * The sidecar's answer per file it describes as it is — answers: Map(file → { rowGroups }); files it
   * cannot be asked about (a location that is not a path or URL) are left out — and what asking cost
   * (cost: { requests, bytes, rounds } of the index file since the last call, its opening included).
   * @returns {Promise<{ answers: Map<object, { rowGroups: Array<{ index: number, results: any[] }> }>, cost: { requests: number, bytes: number, rounds: number } }>}
   */
  async answers(column, values, files, signal) {
    const { index } = await this.#open()
    const asked = files.filter((f) => typeof locationOf(f) === 'string')
    const answers = new Map()
    if (asked.length && values.length) {
      const result = await index.probe(column, values, { files: asked.map((f) => ({ path: locationOf(f) })), signal })
      result.files.forEach((entry, i) => { if (entry.current) answers.set(asked[i], entry) })
    }
    const now = index.stats ?? { requests: 0, bytesFetched: 0, rounds: 0 }
    const cost = { requests: now.requests - this.#counted.requests, bytes: now.bytesFetched - this.#counted.bytesFetched, rounds: now.rounds - this.#counted.rounds }
    this.#counted = now
    return { answers, cost }
  }

  /** The file's own row-group answers for values `open` (in that order), sharpened by the sidecar's, as openParquet's `index` does. */
  sharpen(rowGroups, indexed, open) {
    this.#module.sharpenResults(rowGroups, indexed.map((g) => ({ results: open.map((k) => g.results[k]) })))
  }

  async close() {
    if (!this.#opened) return
    const { index, owned } = await this.#opened.catch(() => ({ index: null, owned: false }))
    if (owned) await index.close()
  }
}

function locationOf(file) {
  const { location } = file.descriptor
  return location instanceof URL ? location.href : location
}
