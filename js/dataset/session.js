// One pass over a dataset's files (a probe, an inspection): every file opened through the same request
// window and footer cache, a bounded number of files at once, each closed as soon as its job is done, and
// the I/O of all of them counted in one ledger (js/sources/io-ledger.js) — requests, bytes, and rounds
// measured over the shared window, and with `plan` every request recorded.
import { DEFAULT_INITIAL_FETCH_SIZE } from '../footer/footer.js'
import { LinkModel, LOCAL_WINDOW, transportWindow } from '../plan/link-model.js'
import { overNodeTransport } from '../sources/default-fetch.js'
import { IO_TOP, openParquetInto } from '../parquet-file.js'
import { IoLedger } from '../sources/io-ledger.js'
import { withKeys } from '../sources/shared.js'
import { throwIfAborted } from '../plan/read-scheduler.js'
import { nodeTransportWindow, RequestWindow } from './request-window.js'

/**
 * What FileSession.withFile hands a file to: `opened` makes its answer; `failed` the answer when it did not open, or
 * `opened` or its closing failed (`file`: the file, when it was opened), or throws (an abort).
 * @template T
 * @typedef {{ opened(file: import('../parquet-file.js').ParquetFile): T | Promise<T>,
 *   failed(error: unknown, file: import('../parquet-file.js').ParquetFile | undefined): T | Promise<T> }} FileVisit
 */

// Local files are read a few at a time per file (LOCAL_WINDOW); this many files are open at once.
const LOCAL_FILES_IN_FLIGHT = 32

export class FileSession {
  /**
   * A session over `files` (see the constructor) whose window is its transport's. Over Node's own transport to
   * an https origin that depends on the server's ALPN answer (HTTP/2, or HTTP/1.1 with a TLS handshake per
   * connection: js/dataset/request-window.js), so that is asked first; the wave's requests would wait for it
   * anyway. The first remote file's origin speaks for the dataset. (Node's transport module is imported here only
   * when it carries the files: a browser's download never holds it.)
   * @param {ConstructorParameters<typeof FileSession>[0]} files
   * @param {ConstructorParameters<typeof FileSession>[1]} openOptions
   * @param {ConstructorParameters<typeof FileSession>[2]} settings
   */
  static async open(files, openOptions, settings) {
    const remote = files.find((f) => isRemote(f.descriptor.location))
    const href = remote === undefined ? '' : String(remote.descriptor.location instanceof URL ? remote.descriptor.location.href
      : remote.descriptor.location)
    const connection = /^https:/i.test(href) && openOptions.concurrency === undefined && overNodeTransport(openOptions.fetch)
      ? await untilAborted(import('../sources/node-transport.js').then((m) => m.connectionKind(href)), openOptions.signal)
      : undefined
    return new FileSession(files, openOptions, settings, connection)
  }

  /**
   * @param {Array<{ descriptor: { location: any, size?: number, etag?: string } }>} files the files this pass may open
   * @param {Record<string, any>} openOptions openParquet's options (concurrency: the window, when given)
   * @param {{ footerCache: import('../footer/footer-cache.js').FooterCache, fileConcurrency?: number, link?:
   * LinkModel, ledger?: IoLedger, mostFiles?: number }} settings
   *   link: the dataset's model of its link (RTT, bandwidth), kept across passes; ledger: the pass's (a table's probe shares its own);
   *   mostFiles: files in flight at most, unless fileConcurrency says how many (a probe of many values: js/dataset/dataset.js)
   * @param {'http' | 'h2' | 'tls'} [connection] how Node's own transport reaches the files (FileSession.open() asks)
   */
  constructor(files, openOptions, { footerCache, fileConcurrency, link, ledger, mostFiles = Infinity }, connection = 'http') {
    const remote = files.find((f) => isRemote(f.descriptor.location))
    /**
     * Requests in flight at once over all files: the caller's `concurrency`, else what the transport
     * allows — over Node's own keep-alive pool, the first wave whole (a tail read per file), within its cap.
     */
    this.window = openOptions.concurrency ?? (!remote ? LOCAL_WINDOW
      : overNodeTransport(openOptions.fetch)
        ? nodeTransportWindow(files.length, openOptions.initialFetchSize ?? DEFAULT_INITIAL_FETCH_SIZE, undefined, connection)
        : transportWindow({ name: String(remote.descriptor.location) }, true))
    this.filesInFlight = fileConcurrency ?? Math.min(remote ? this.window : LOCAL_FILES_IN_FLIGHT, mostFiles)
    this.#fetch = new RequestWindow(this.window).windowedFetch(openOptions.fetch)
    /** Every request of the pass: rounds measured, and with openOptions.plan the read plan. */
    this.ledger = ledger ?? new IoLedger({ record: openOptions.plan === true })
    // Each file's reads are planned for its share of the window among the files open at that moment,
    // so that merged file by file they still fit it: 1,000 files open through a window of 1,000 plan a
    // request each where they can (their reads joined across cheap gaps), not one per filter part.
    const windowShare = () => Math.max(1, Math.floor(this.window / Math.max(1, this.#open)))
    // A file's size and ETag are its descriptor's, never one value for every file.
    const { plan: _plan, size: _size, fileSize: _fileSize, etag: _etag, ...forFiles } = openOptions
    // What every file is opened with, the per-file fields among them (each file's copy sets them): a copy of
    // an object with the same fields keeps its shape, with no property added per file.
    this.#openOptions = { ...forFiles, concurrency: this.window, footerCache, link: link ?? new LinkModel(), windowShare,
      ioLedger: this.ledger, fetch: this.#fetch, ioFloor: undefined, size: undefined, fileSize: undefined, etag: undefined }
    this.signal = openOptions.signal
    this.progress = { filesDone: 0, filesFailed: 0, filesTotal: 0 }
    this.filesOpened = 0
    this.footersFromCache = 0
    this.#started = performance.now()
  }

  #fetch
  #openOptions
  #open = 0
  #started

  /**
   * Opens one file, hands it to `visit.opened`, and closes it whatever happens; its I/O joins the pass's. A failure to
   * open it, or of `opened`, or of its closing, goes to `visit.failed` (the file, when it was opened) for its answer;
   * what that throws rejects. The file's size and ETag from a listing make its tail read exact and its cached footer
   * valid without a request.
   * `chain`: the worker's (run()'s job gets it): the file's requests come in rounds after the ones of the
   * file that worker finished before it — it waited for that one to open this one.
   * @template T
   * @param {{ location: any, size?: number, etag?: string }} descriptor location: openParquet's source
   * @param {FileVisit<T>} visit
   * @param {{ floor: number }} [chain]
   * @returns {Promise<T>}
   */
  withFile(descriptor, visit, chain) {
    // Counted from the tail read on: a file still opening shares the window too.
    this.#open++
    // One copy of the options per file, its size also under the name the sources read (fileSize), so
    // openParquet need not copy them again; not a spread with keys after it (js/sources/shared.js withKeys).
    const { size, etag } = descriptor
    // Handed on by openParquet's own chain (this is its receiver): thousands of files in flight hold no promise,
    // closure or context of the session's each. The count of files open ends in #use, or in fileFailed.
    return openParquetInto(descriptor.location, withKeys(this.#openOptions, { ioFloor: chain?.floor, size, fileSize: size, etag }),
      this, visit, chain)
  }

  /**
   * openParquetInto's receiver: the file is open.
   * @template T @param {import('../parquet-file.js').ParquetFile} file @param {FileVisit<T>} visit
   * @param {{ floor: number } | undefined} chain @returns {Promise<T>}
   */
  fileOpened(file, visit, chain) {
    return this.#use(file, visit, chain)
  }

  /**
   * openParquetInto's receiver: the file did not open (its source is closed).
   * @template T @param {unknown} error @param {FileVisit<T>} visit @returns {T | Promise<T>}
   */
  fileFailed(error, visit) {
    this.#open--
    return visit.failed(error, undefined)
  }

  /**
   * @template T
   * @param {import('../parquet-file.js').ParquetFile} file
   * @param {FileVisit<T>} visit
   * @param {{ floor: number }} [chain]
   * @returns {Promise<T>}
   */
  async #use(file, visit, chain) {
    this.filesOpened++
    if (file.footerFromCache) this.footersFromCache++
    /** @type {T | undefined} */
    let result
    /** @type {{ error: unknown } | undefined} */
    let failure
    try {
      result = await visit.opened(file)
    } catch (error) {
      failure = { error }
    } finally {
      if (chain) chain.floor = Math.max(chain.floor, file[IO_TOP])
    }
    // Decoded metadata lives no longer than the job; the footer cache keeps what it keeps. Closed before visit.failed,
    // which throws on an abort: the file (a local file's descriptor) is closed whatever it does. A failure to close is
    // the file's error, as it was opened's.
    try {
      await file.close()
    } catch (error) {
      failure = { error }
    } finally {
      this.#open--
    }
    return failure ? visit.failed(failure.error, file) : /** @type {T} */ (result)
  }

  /**
   * Runs `job` over `items`, `filesInFlight` at a time, and hands each result to `emit` as it finishes.
   * Progress events carry the pass's IoStats so far (and `bytes`, bytesFetched's old name, deprecated).
   * @template I, R
   * @param {I[]} items
   * @param {(item: I, chain: { floor: number }, at: number) => Promise<R>} job chain: for withFile; at: the item's place in `items`
   * @param {(result: R) => void | Promise<unknown>} emit a promise it returns holds the worker, which starts no other file
   *   until it settles: probeEach's loop sets the pace, so answers it has not taken yet do not pile up
   * @param {(progress: import('../index.js').IoStats & { filesDone: number, filesFailed: number, filesTotal: number,
   *   bytes: number }) => void} [onProgress]
   */
  async run(items, job, emit, onProgress) {
    this.progress.filesTotal = items.length
    const pass = new Pass(this, items, job, emit, onProgress)
    pass.start()
    // At the abort, not once every job has settled: a caller's prefilter or columnOf still pending (they are not given
    // the signal) would otherwise hold the rejection for as long as it takes, for ever if it never settles.
    await untilAborted(pass.done, this.signal)
    throwIfAborted(this.signal)
  }

  /**
   * What the pass cost: its ledger's IoStats (rounds measured: js/sources/io-ledger.js), `bytes` the old
   * name of bytesFetched (deprecated), the window, the files opened and the time.
   */
  get stats() {
    const io = this.ledger.stats
    return {
      ...io,
      bytes: io.bytesFetched,
      window: this.window,
      filesOpened: this.filesOpened,
      footersFromCache: this.footersFromCache,
      ms: performance.now() - this.#started,
    }
  }
}

/**
 * One run() of a session's: its items handed to `filesInFlight` workers. A worker opens its next file once it has finished
 * its last, so its files' rounds add up; each takes at most its share, so that no chain is longer than ⌈items / workers⌉
 * files (20,000 files over 4,000 workers: five, a round each, where workers that happened to be quicker took six). Once
 * one job has failed the pass has failed: no worker starts another file (its reads would go on after the caller's promise
 * has rejected).
 * @template I, R
 */
class Pass {
  /**
   * @param {FileSession} session
   * @param {I[]} items
   * @param {(item: I, chain: { floor: number }, at: number) => Promise<R>} job
   * @param {(result: R) => void | Promise<unknown>} emit
   * @param {((progress: any) => void) | undefined} onProgress
   */
  constructor(session, items, job, emit, onProgress) {
    this.session = session
    this.items = items
    this.job = job
    this.emit = emit
    this.onProgress = onProgress
    this.next = 0
    this.workers = Math.min(session.filesInFlight, items.length)
    this.share = Math.ceil(items.length / Math.max(1, this.workers))
    this.failed = false
    this.idle = 0
    /** @type {(value?: unknown) => void} */
    this.allDone = () => {}
    /** @type {(error: unknown) => void} */
    let failRun = () => {}
    /** settles once every worker is idle, or at the first failure */
    this.done = new Promise((resolve, reject) => {
      this.allDone = resolve
      failRun = reject
    })
    this.fail = (/** @type {unknown} */ error) => {
      this.failed = true
      failRun(error)
    }
  }

  start() {
    if (this.workers === 0) this.allDone(undefined)
    for (let w = 0; w < this.workers; w++) {
      try {
        new PassWorker(this).take()
      } catch (error) {
        this.fail(error)
      }
    }
  }
}

/**
 * A worker of a Pass: it takes the next item as its last one finishes, a chain of callbacks rather than a loop of awaits,
 * so thousands of workers waiting on the network hold no async frame each, nor a promise or closures: a worker is this
 * record and one bound method. It is the chain its jobs are given (FileSession.withFile): `floor`, the round its last
 * file's requests reached.
 * @template I, R
 */
class PassWorker {
  /** @param {Pass<I, R>} pass */
  constructor(pass) {
    this.pass = pass
    this.floor = 0
    this.taken = 0
    this.finished = this.finish.bind(this)
  }

  take() {
    const pass = this.pass
    if (pass.failed || pass.next >= pass.items.length || this.taken++ === pass.share) {
      if (++pass.idle === pass.workers) pass.allDone(undefined)
      return
    }
    throwIfAborted(pass.session.signal)
    const at = pass.next++
    pass.job(pass.items[at], this, at).then(this.finished, pass.fail)
  }

  /** @param {R} result */
  finish(result) {
    const pass = this.pass
    const session = pass.session
    try {
      // A file that finishes after the abort is not reported: the pass rejects with ABORTED.
      throwIfAborted(session.signal)
      session.progress.filesDone++
      if (/** @type {any} */ (result)?.error) session.progress.filesFailed++
      const held = pass.emit(result)
      if (pass.onProgress) {
        const io = session.ledger.stats
        pass.onProgress({ ...session.progress, ...io, bytes: io.bytesFetched })
      }
      if (held instanceof Promise) held.then(() => this.takeNext(), pass.fail)
      else this.take()
    } catch (error) {
      pass.fail(error)
    }
  }

  /** take(), its failure the pass's (from emit's promise, where nothing else catches it). */
  takeNext() {
    try {
      this.take()
    } catch (error) {
      this.pass.fail(error)
    }
  }
}

/**
 * `promise`, or ABORTED at `signal`'s abort, whichever comes first (an origin that never finishes TLS answers its
 * ALPN question only when its handshake times out).
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<T>}
 */
function untilAborted(promise, signal) {
  if (!signal) return promise
  throwIfAborted(signal)
  return new Promise((resolve, reject) => {
    const abort = () => {
      try {
        throwIfAborted(signal)
      } catch (error) {
        reject(error)
      }
    }
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

/** @param {unknown} location */
export function isRemote(location) {
  const text = location instanceof URL ? location.href : typeof location === 'string' ? location : ''
  return /^https?:\/\//i.test(text)
}
