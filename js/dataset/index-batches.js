// A dataset's sidecar index asked about a probe's files (js/dataset/dataset.js): in one call, one wave of block reads
// however many files, beside their footers — unless the values × files are many. Its answers (per value, for each row
// group of each file) are held until each file is probed: 10,000 values over 400 files of 10 row groups were held all at
// once before the first file answered, growing with the files, so that probeEach() too outgrew a heap of 256 MiB
// (V8 aborted the process). Past PAIRS_AT_ONCE (value, file) pairs the files are asked a batch at a time: the first batch
// at once, as the one call was, each later one when a file of the batch before it waits for its answers; a file's
// answers are let go once it has taken them. A dataset probed for a few values is asked in one call, as before.
// Pairs alone do not bound the answers: 2 files of 200 row groups probed for 100,001 values are 40 million (V8 aborted a
// heap of 128 MiB, probe() and probeEach() alike). So the index tells the row groups it describes for each file asked,
// once its directory says (rowGroupsKnown, js/sidecar/), before it makes an answer: a batch of more than ANSWERS_AT_ONCE is
// asked again in parts that are not (its directory is read by then: only the parts' blocks are read), and the probe's
// room counts them there (js/plan/result-budget.js): probe() fails TOO_LARGE, probeEach's file over its room is left
// unanswered by the index, and answers TOO_LARGE once its footer is read, as it would without the index.

/** (value, file) pairs asked of the sidecar at once: 250,000 files for one value, 25 files for 10,000. */
export const PAIRS_AT_ONCE = 250_000
/** Answers (value, row group) the sidecar is asked to make at once, at most (unless one file alone makes more). */
export const ANSWERS_AT_ONCE = 1_000_000

/**
 * The room a probe keeps for its answers (js/plan/result-budget.js): the places of the files it has no room for, and
 * room taken for the others' row groups (which may throw, failing the probe).
 * @typedef {{ unanswerable(rowGroups: number[]): Set<number>, indexed(rowGroups: number): void }} Room
 */

/** Thrown from rowGroupsKnown when a batch's answers are too many at once: the batch is asked again in parts. */
const TOO_MANY_AT_ONCE = Symbol('tooManyAtOnce')

/**
 * @template T
 * @typedef {{ files: Set<unknown>, list: unknown[], asked?: Promise<T>, rowGroups: Map<unknown, number> }} Part
 *   files asked in one call (its answers T, once asked); rowGroups: each one's the index described (the room taken for them)
 */

/**
 * @template {{ opened: unknown, answers: Map<unknown, any>, described: Map<unknown, any>,
 *   cost: import('../index.js').IoStats & { inLedger?: boolean } }} A one call's answers (DatasetIndex.answers, and the index)
 */
export class IndexBatches {
  /** @type {Array<Promise<Part<A>[]> | undefined>} each batch's parts, once asked */
  #batches = []
  /** @type {Map<unknown, number>} each file's batch */
  #batchOf = new Map()
  #files
  #ask
  #size
  #values
  #room
  #answersAtOnce

  /**
   * @param {unknown[]} files the files to ask about, in the order they are probed
   * @param {number} values how many values each is asked
   * @param {(files: unknown[], rowGroupsKnown: (rowGroups: number[]) => Set<number> | undefined) => Promise<A>} ask one call
   *   of the sidecar for these files
   * @param {{ room?: Room, pairsAtOnce?: number, answersAtOnce?: number }} [options]
   */
  constructor(files, values, ask, { room, pairsAtOnce = PAIRS_AT_ONCE, answersAtOnce = ANSWERS_AT_ONCE } = {}) {
    this.#files = files
    this.#ask = ask
    this.#values = values
    this.#room = room
    this.#answersAtOnce = answersAtOnce
    this.#size = Math.max(1, Math.floor(pairsAtOnce / Math.max(1, values)))
    files.forEach((f, i) => this.#batchOf.set(f, Math.floor(i / this.#size)))
    // Asked even of no file: the index is opened, and its opening's reads are the probe's, as they were.
    this.#start(0)
  }

  /**
   * The sidecar's word on `file`, taken out of its batch's answers (asking for the batch, and the next one, so that it
   * is in when the files reach it): the index, the file's answers (undefined: none), whether it described the file, and
   * the row groups the probe's room took for it (0: none yet).
   * @param {unknown} file
   * @returns {Promise<{ opened: A['opened'], indexed: (A['answers'] extends Map<any, infer V> ? V : never) | undefined,
   *   status: (A['described'] extends Map<any, infer S> ? S : never) | undefined, counted: number }>}
   */
  async for(file) {
    const k = this.#batchOf.get(file) ?? 0
    this.#start(k + 1)
    const parts = /** @type {Part<A>[]} */ (await this.#start(k))
    const p = Math.max(0, parts.findIndex((part) => part.files.has(file)))
    if (parts[p + 1]) this.#askPart(parts[p + 1], false)
    const part = parts[p]
    const { opened, answers, described } = await this.#askPart(part, false)
    const indexed = answers.get(file)
    const status = described.get(file)
    const counted = part.rowGroups.get(file) ?? 0
    answers.delete(file)
    described.delete(file)
    part.rowGroups.delete(file)
    return { opened, indexed, status, counted }
  }

  /**
   * What the batches asked cost: the latest count when the ledger counts them (from the start), else their sum.
   * @returns {Promise<A['cost'] | undefined>}
   */
  async cost() {
    const parts = (await Promise.all(this.#batches.filter((b) => b !== undefined))).flat()
    const asked = await Promise.all(parts.flatMap((part) => (part.asked ? [part.asked] : [])))
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
      const list = this.#files.slice(k * this.#size, (k + 1) * this.#size)
      /** @type {Part<A>} */
      const whole = { files: new Set(list), list, rowGroups: new Map() }
      /** @type {number[]} */
      let described = []
      const asked = this.#askPart(whole, list.length > 1, (rowGroups) => { described = rowGroups })
      // Too many answers at once: asked again in parts (the first at once), each of as many files as fit.
      const parts = asked.then(() => [whole],
        (error) => (error === TOO_MANY_AT_ONCE ? this.#parts(list, described) : Promise.reject(error)))
      parts.catch(() => {}) // awaited per file; a failure there fails the probe, not an unhandled rejection
      this.#batches[k] = parts
    }
    return this.#batches[k]
  }

  /**
   * The part's call, asked once: told the row groups, it refuses a batch of too many answers (`splittable`), takes the
   * probe's room for them, and says which files have none.
   * @param {Part<A>} part @param {boolean} splittable
   * @param {(rowGroups: number[]) => void} [told]
   */
  #askPart(part, splittable, told = undefined) {
    part.asked ??= this.#ask(part.list, (described) => {
      const unanswerable = this.#room?.unanswerable(described) ?? new Set()
      const rowGroups = described.map((n, i) => (unanswerable.has(i) ? 0 : n))
      told?.(rowGroups)
      const answered = rowGroups.reduce((a, b) => a + b, 0)
      if (splittable && this.#values * answered > this.#answersAtOnce) throw TOO_MANY_AT_ONCE
      this.#room?.indexed(answered)
      rowGroups.forEach((n, i) => { if (n) part.rowGroups.set(part.list[i], n) })
      return unanswerable.size ? unanswerable : undefined
    })
    part.asked.catch(() => {}) // awaited per file
    return part.asked
  }

  /**
   * A batch's files in parts of at most ANSWERS_AT_ONCE answers each (a file of more alone), by the row groups the index
   * described (0 for a file it did not, and for one the probe has no room for: left unanswered when asked again).
   * @param {unknown[]} list @param {number[]} rowGroups
   * @returns {Part<A>[]}
   */
  #parts(list, rowGroups) {
    /** @type {Part<A>[]} */
    const parts = []
    let answers = Infinity
    list.forEach((file, i) => {
      const more = this.#values * (rowGroups[i] ?? 0)
      if (answers + more > this.#answersAtOnce) {
        parts.push({ files: new Set(), list: [], rowGroups: new Map() })
        answers = 0
      }
      answers += more
      parts[parts.length - 1].files.add(file)
      parts[parts.length - 1].list.push(file)
    })
    this.#askPart(parts[0], false)
    return parts
  }
}

/**
 * A sidecar's rowGroupsKnown for some of a caller's files (`places`: each one's among `count`), as the caller's of them all.
 * @param {number[]} places @param {number} count
 * @param {(rowGroups: number[]) => Set<number> | undefined} rowGroupsKnown the caller's, of all its files (0: none asked)
 */
export function placesOf(places, count, rowGroupsKnown) {
  return (/** @type {number[]} */ rowGroups) => {
    const all = new Array(count).fill(0)
    places.forEach((at, j) => { all[at] = rowGroups[j] })
    const unanswerable = rowGroupsKnown(all)
    return unanswerable && new Set(places.flatMap((at, j) => (unanswerable.has(at) ? [j] : [])))
  }
}
