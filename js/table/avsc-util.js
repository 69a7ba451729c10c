// The few Node `util` functions avsc's types use (inherits, format, debuglog, deprecate), for the browser
// bundle only: scripts/build-bundle.js aliases `util` to this module, since browsers have no `util` and
// the npm polyfill pulls in a dozen packages for what avsc needs of it. Node, Bun and Deno use their own.

/**
 * Node's util.inherits: the constructor's prototype chained to the parent's, and `super_` set.
 * @param {Function} ctor
 * @param {Function} superCtor
 */
export function inherits(ctor, superCtor) {
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true })
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype)
}

/**
 * Node's util.format for the directives avsc's messages use (%s %d %i %j %%); extra arguments appended.
 * @param {unknown} template
 * @param {...unknown} args
 */
export function format(template, ...args) {
  let next = 0
  const text = String(template).replace(/%([sdij%])/g, (directive, kind) => {
    if (kind === '%') return '%'
    if (next >= args.length) return directive
    const arg = args[next++]
    if (kind === 'j') {
      try {
        return JSON.stringify(arg, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))
      } catch {
        return '[Circular]'
      }
    }
    if (kind === 'd' || kind === 'i') return String(kind === 'i' ? Math.trunc(Number(arg)) : Number(arg))
    return String(arg)
  })
  return [text, ...args.slice(next).map(String)].join(' ')
}

/** Debug logging is off in a browser: a no-op logger. */
export function debuglog() {
  return () => {}
}

/**
 * Deprecated functions run as they are, without a warning.
 * @template {Function} F
 * @param {F} fn
 */
export function deprecate(fn) {
  return fn
}
