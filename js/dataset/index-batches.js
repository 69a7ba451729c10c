// A dataset's sidecar index asked about a probe's files (js/dataset/dataset.js): in one call, one wave of block reads
// however many files, beside their footers — unless the values × files are many. Its answers (per value, for each row
// group of each file) are held until each file is probed: 10,000 values over 400 files of 10 row groups were held all at
// once before the first file answered, growing with the files, so that probeEach() too outgrew a heap of 256 MiB
// (V8 aborted the process). Past PAIRS_AT_ONCE (value, file) pairs the files are asked a batch at a time: the first batch
// at once, as the one call was, each later one when a file of the batch before it waits for its answers; a file's
// answers are let go once it has taken them. A dataset probed for a few values is asked in one call, as before.

/** (value, file) pairs asked of the sidecar at once: 250,000 files for one value, 25 files for 10,000. */
export const PAIRS_AT_ONCE = 250_000

/**
 * @template {{ opened: unknown, answers: Map<unknown, any>, described: Map<unknown, any>,
 *   cost: import('../index.js').IoStats & { inLedger?: boolean } }} A one call's answers (DatasetIndex.answers, and the index)
 */
export class IndexBatches {
  /** @type {Array<Promise<A> | undefined>} each batch's answers, once asked */
  #batches = []
  /** @type {Map<unknown, number>} each file's batch */
  #batchOf = new Map()
  #files
  #ask
  #size

  /**
   * @param {unknown[]} files the files to ask about, in the order they are probed
   * @param {number} values how many values each is asked
   * @param {(files: unknown[]) => Promise<A>} ask one call of the sidecar for these files
   * @param {number} [pairsAtOnce]
   */
  constructor(files, values, ask, pairsAtOnce = PAIRS_AT_ONCE) {
    this.#files = files
    this.#ask = ask
    this.#size = Math.max(1, Math.floor(pairsAtOnce / Math.max(1, values)))
    files.forEach((f, i) => this.#batchOf.set(f, Math.floor(i / this.#size)))
    // Asked even of no file: the index is opened, and its opening's reads are the probe's, as they were.
    this.#start(0)
  }

  /**
   * The sidecar's word on `file`, taken out of its batch's answers (asking for the batch, and the next one, so that it
   * is in when the files reach it): the index, the file's answers (undefined: none) and whether it described the file.
   * @param {unknown} file
   * @returns {Promise<{ opened: A['opened'], indexed: (A['answers'] extends Map<any, infer V> ? V : never) | undefined,
   *   status: (A['described'] extends Map<any, infer S> ? S : never) | undefined }>}
   */
  async for(file) {
    const k = this.#batchOf.get(file) ?? 0
    this.#start(k + 1)
    const { opened, answers, described } = await /** @type {Promise<A>} */ (this.#start(k))
    const indexed = answers.get(file)
    const status = described.get(file)
    answers.delete(file)
    described.delete(file)
    return { opened, indexed, status }
  }

  /**
   * What the batches asked cost: the latest count when the ledger counts them (from the start), else their sum.
   * @returns {Promise<A['cost'] | undefined>}
   */
  async cost() {
    const asked = await Promise.all(this.#batches.filter((b) => b !== undefined))
    const costs = asked.map((a) => a.cost)
    if (costs.every((c) => c.inLedger)) return costs.reduce((a, b) => (b.requests >= a.requests ? b : a))
    const sum = { requests: 0, bytesFetched: 0, rounds: 0, retries: 0, heads: 0, inLedger: false }
    for (const c of costs) {
      sum.requests += c.requests
      sum.bytesFetched += c.bytesFetched
      sum.rounds += c.rounds
      sum.retries += c.retries
      sum.heads += c.heads
    }
    return sum
  }

  /** @param {number} k */
  #start(k) {
    if (k > 0 && k * this.#size >= this.#files.length) return undefined
    if (this.#batches[k] === undefined) {
      const asked = this.#ask(this.#files.slice(k * this.#size, (k + 1) * this.#size))
      asked.catch(() => {}) // awaited per file; a failure there fails the probe, not an unhandled rejection
      this.#batches[k] = asked
    }
    return this.#batches[k]
  }
}
