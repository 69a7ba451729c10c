// The timers a test server arms (a response's latency or stall, a wave's release): each forgotten once it
// fires, a response's cancelled when that response closes, and every one cleared when the server closes,
// so that no test hangs on a timer of a server it is done with.
export class ResponseTimers {
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  #timers = new Set()

  /**
   * Runs `fn` after `ms` unless the server closes first.
   * @param {() => void} fn @param {number} ms
   */
  arm(fn, ms) {
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      fn()
    }, ms)
    this.#timers.add(timer)
    return timer
  }

  /**
   * Runs `fn` after `ms` unless `res` closes first (or the server does).
   * @param {import('node:http').ServerResponse} res @param {() => void} fn @param {number} ms
   */
  later(res, fn, ms) {
    const timer = this.arm(fn, ms)
    res.on('close', () => this.cancel(timer))
    return timer
  }

  /** @param {ReturnType<typeof setTimeout> | undefined} timer */
  cancel(timer) {
    clearTimeout(timer)
    if (timer !== undefined) this.#timers.delete(timer)
  }

  /** Every timer still pending, cleared (the server's close). */
  clear() {
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
  }
}
