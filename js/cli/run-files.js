// Runs one job per input file with bounded concurrency and hands results back in input order, while
// never letting finished-but-unreported results pile up beyond a small window (bounded memory for
// thousands of files). Also draws the stderr progress bar.

/**
 * @template T
 * @param {string[]} files
 * @param {{ concurrency: number, job: (file: string) => Promise<T>, report: (file: string, outcome: { value?:
 * T, error?: unknown }) => void,
 *   progress?: Progress }} options
 */
export async function runFiles(files, { concurrency, job, report, progress }) {
  const window = Math.max(concurrency * 4, 16) // how far ahead of the first unreported file work may start
  /** @type {Map<number, { value?: T, error?: unknown }>} */
  const outcomes = new Map()
  let nextToStart = 0
  let nextToReport = 0
  /** @type {Array<(value?: unknown) => void>} */
  let waiters = []
  const flush = () => {
    while (outcomes.has(nextToReport)) {
      const outcome = /** @type {{ value?: T, error?: unknown }} */ (outcomes.get(nextToReport)) // has() above
      outcomes.delete(nextToReport)
      report(files[nextToReport], outcome)
      nextToReport++
    }
    const woken = waiters
    waiters = []
    for (const resolve of woken) resolve()
  }
  const worker = async () => {
    for (;;) {
      while (nextToStart < files.length && nextToStart - nextToReport >= window) {
        await new Promise((resolve) => waiters.push(resolve))
      }
      if (nextToStart >= files.length) return
      const index = nextToStart++
      let outcome
      try {
        outcome = { value: await job(files[index]) }
      } catch (error) {
        outcome = { error }
      }
      outcomes.set(index, outcome)
      progress?.tick(outcome.error !== undefined)
      flush()
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker))
  flush()
}

/** A one-line progress bar on stderr, shown only on a terminal and only for two or more files. */
export class Progress {
  /**
   * @param {number} total files
   * @param {{ write(text: string): unknown, isTTY?: boolean }} [stream]
   */
  constructor(total, stream = process.stderr) {
    this.total = total
    this.done = 0
    this.failed = 0
    this.stream = stream
    this.tty = Boolean(stream.isTTY)
    this.lastDraw = 0
    this.shown = false
  }

  /** Drawn on a terminal, for two files or more (a table's count is known once its probe has planned). */
  get enabled() {
    return this.tty && this.total >= 2
  }

  /** @param {boolean} failed */
  tick(failed) {
    this.done++
    if (failed) this.failed++
    const now = Date.now()
    if (this.done === this.total || now - this.lastDraw >= 100) {
      this.lastDraw = now
      this.draw()
    }
  }

  draw() {
    if (!this.enabled) return
    const width = 30
    const filled = Math.round((this.done / this.total) * width)
    const failed = this.failed ? `, ${this.failed} failed` : ''
    this.stream.write(`\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total} files${failed}`)
    this.shown = true
  }

  /** Writes a line to stderr without tearing the bar. */
  /** @param {string} line */
  log(line) {
    if (this.shown) this.stream.write('\r\x1b[K')
    this.stream.write(`${line}\n`)
    if (this.shown) this.draw()
  }

  clear() {
    if (this.shown) this.stream.write('\r\x1b[K')
    this.shown = false
  }
}
