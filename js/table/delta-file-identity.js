// Which Delta add and remove actions name the same logical file (PROTOCOL.md "Add File and Remove File": a data
// file's path and its deletion vector's unique id). Spark keys them by the path canonicalized
// (DeltaLog.CanonicalPathFunction: the URI normalized, an absolute path without a scheme qualified with the default
// file system; DeltaLogSuite "paths should be canonicalized"), and writes its checkpoints and the removes of its DML
// in that form: an add logged as `/t/x.parquet` is removed as `file:/t/x.parquet`. Matched as written, such a
// remove left the file live, and its values were answered `present` from rows the table no longer holds.

/**
 * @typedef {import('./deletion-vector.js').DeletionVectorDescriptor} DeletionVectorDescriptor
 * @typedef {{ path: string, deletionVector?: DeletionVectorDescriptor | null }} FileAction an add or remove action's path and DV
 */

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s

/**
 * A DV's unique id (PROTOCOL.md "Deletion Vector Descriptor": storageType, pathOrInlineDv, and `@offset` when
 * there is one); '' for none.
 * @param {DeletionVectorDescriptor | null | undefined} dv
 */
export const dvId = (dv) => {
  if (!dv) return ''
  return `${dv.storageType}${dv.pathOrInlineDv}${dv.offset === undefined || dv.offset === null ? '' : `@${dv.offset}`}`
}

/**
 * A log path canonicalized as Spark's replay compares them: scheme lowercased, a `file:` URL with or without an empty
 * authority alike (`file:/t/x`, `file:///t/x`), `.` and `..` segments resolved (java.net.URI.normalize). Escapes are
 * compared as written: Spark and the Delta kernels keep `a%3Db` and `a=b` apart, so a remove of one leaves the other
 * live. `absolute`: the path part starts at a root; `qualified`: a scheme names its file system (an absolute path
 * without one is on the default file system, which the log does not name).
 * @param {string} path
 */
function canonical(path) {
  const m = SCHEME.exec(path)
  let scheme = ''
  let authority = ''
  let rest = path
  if (m) {
    scheme = m[1].toLowerCase()
    rest = m[2]
    const a = /^\/\/([^/]*)(.*)$/s.exec(rest)
    if (a) [authority, rest] = [a[1], a[2]]
  }
  const absolute = rest.startsWith('/') || authority !== ''
  /** @type {string[]} */
  const segments = []
  for (const s of (absolute ? rest.replace(/^\//, '') : rest).split('/')) {
    if (s === '.') continue
    if (s === '..' && segments.length && segments[segments.length - 1] !== '..') segments.pop()
    else segments.push(s)
  }
  const part = (absolute ? '/' : '') + segments.join('/')
  return { qualified: scheme !== '', absolute, part, key: scheme ? `${scheme}://${authority}${part}` : part }
}

/**
 * The live files of a log replay, by logical file: an add replaces the entry of its logical file, a remove drops
 * it. Paths are compared canonicalized; an absolute path without a scheme is the same file as one with a scheme
 * and the same path (Spark qualifies it with the file system the table is on).
 * @template {FileAction} A
 */
export class DeltaLiveFiles {
  /** @type {Map<string, A>} by canonical path and DV id */
  #live = new Map()
  /** @type {Map<string, Map<string, boolean>>} the live keys of absolute paths (and whether qualified), by path part and DV id */
  #byPart = new Map()

  /**
   * The key of `action`'s logical file, and the live keys naming the same file (itself, if live).
   * @param {FileAction} action
   */
  #sameFile(action) {
    const c = canonical(action.path)
    const dv = dvId(action.deletionVector)
    const key = `${c.key}\u0000${dv}`
    const part = c.absolute ? `${c.part}\u0000${dv}` : null
    const keys = this.#live.has(key) ? [key] : []
    for (const [other, qualified] of part === null ? [] : this.#byPart.get(part) ?? []) {
      // An unqualified path stands for the same path on the table's file system, whichever that is.
      if (other !== key && (!c.qualified || !qualified)) keys.push(other)
    }
    return { key, part, qualified: c.qualified, keys }
  }

  /** @param {string} key @param {string | null} part */
  #drop(key, part) {
    this.#live.delete(key)
    const keys = part === null ? undefined : this.#byPart.get(part)
    keys?.delete(key)
    if (part !== null && keys?.size === 0) this.#byPart.delete(part)
  }

  /** @param {A} add */
  add(add) {
    const { key, part, qualified, keys } = this.#sameFile(add)
    for (const k of keys) if (k !== key) this.#drop(k, part)
    this.#live.set(key, add)
    if (part !== null) this.#byPart.set(part, (this.#byPart.get(part) ?? new Map()).set(key, qualified))
  }

  /** @param {FileAction} remove */
  remove(remove) {
    const { part, keys } = this.#sameFile(remove)
    for (const k of keys) this.#drop(k, part)
  }

  /** The live adds. */
  values() {
    return this.#live.values()
  }
}
