// Which entry of a format-2 sidecar index describes each file a probe names (docs/sidecar-index.md "Format 2"):
// by identity hash of path, size and validator, with no request per file (version 3: a locator's claim, vouched
// for by its page's digest or the entry's whole hash); else by the hash of one of the forms its path may be
// recorded under, its details then saying whether the entry is current; else not described, and why.
import { sameBytes } from '../format/bytes.js'
import { AMBIGUOUS, hashHalves, hashStrings, identityText, pageDigests } from './sidecar-identity.js'
import { currency, StaleReason } from './sidecar-currency.js'

/**
 * @typedef {import('./sidecar-identity.js').HashTable} HashTable
 * @typedef {import('./sidecar-index.js').FileSpec} FileSpec
 * @typedef {ReturnType<typeof currency>} Currency
 * @typedef {ReturnType<typeof import('./sidecar-reads.js').checkFiles>} StartedChecks the checks of files named without a size
 * @typedef {string[] & { plain?: boolean }} PathForms
 * @typedef {{ forms: PathForms, now: { size: number, validator?: string | null } | undefined, checked: boolean,
 *   why: Currency | undefined }} MoreFacts
 *   a caller's file not matched by identity: the forms its path may be recorded under, its size and validator, why it is stale
 */

const URL_PREFIX = /^https?:\/\//i
/** Whether a path is an http(s) URL (its first letter tested before the pattern: most paths are not). */
export const isUrl = (/** @type {string} */ p) => (p.charCodeAt(0) | 32) === 104 && URL_PREFIX.test(p)

export class FileMatcher {
  /** @type {import('./sliced-parts.js').SlicedParts} */
  #parts
  /** @type {string | undefined} where the index's relative paths are relative to */
  #base
  /** @type {string | undefined} The base as an absolute local path, once a caller's path needed it. */
  #absoluteBase
  /** @type {boolean | undefined} Whether the base is a URL, once a caller's path needed it. */
  #baseIsUrl

  /**
   * @param {import('./sliced-parts.js').SlicedParts} parts
   * @param {string | undefined} base
   */
  constructor(parts, base) {
    this.#parts = parts
    this.#base = base
  }

  /**
   * How each caller's file is matched: by identity now (one batch of hashes for all of them), by path
   * later, or after its check. Files matched by identity (all of a listing's, as a rule) get no object of
   * their own: only the others' forms, facts and reasons are kept.
   * @param {FileSpec[]} specs
   * @param {boolean} validate
   * @param {StartedChecks | undefined} started the checks of files named without a size
   */
  async match(specs, validate, started) {
    const path = this.#base !== undefined && !isUrl(this.#base) ? await import('node:path') : undefined
    const targets = new Targets(specs.map((s) => s.path))
    const { more, state } = targets
    /** per identity text: the caller's file it is of */
    /** @type {number[]} */
    let owners = []
    /** @type {string[]} */
    let texts = []
    const identities = this.#parts.identityTable()
    const located = !this.#parts.filesPart().hashes
    const { entry } = targets
    // Hashed a batch at a time, so the texts die young (a listing's worth of them would outlive collections).
    const match = () => {
      const { low, high } = hashHalves(hashStrings(texts))
      for (let h = 0; h < texts.length; h++) {
        const i = owners[h]
        if (state[i] !== PATH) continue // an earlier form decided
        if (located) {
          // A claim: the entry with this locator (or, shared, every such entry) is checked against the whole hash later.
          const f = identities.find(low[h], 0)
          if (f === -1) continue
          entry[i] = f
          state[i] = CLAIMED
          targets.low[i] = low[h]
          targets.high[i] = high[h]
          continue
        }
        const f = identities.find(low[h], high[h])
        if (f === AMBIGUOUS) targets.stale(i, ambiguous('identity'))
        else if (f >= 0) {
          entry[i] = f
          state[i] = DESCRIBED
        }
      }
      owners = []
      texts = []
    }
    for (let i = 0; i < specs.length; i++) {
      if (texts.length >= IDENTITY_BATCH) match()
      const spec = specs[i]
      if (spec.size !== undefined && spec.size >= 0 && spec.validator && this.#hashedAsGiven(spec.path, path)) {
        // The identity decides, with no request per file.
        owners.push(i)
        texts.push(identityText(spec.path, spec.size, spec.validator))
        continue
      }
      const forms = this.#recordedForms(spec.path, path)
      /** @type {MoreFacts['now']} */
      let now
      let checked = false
      if (spec.size !== undefined) now = { size: spec.size, validator: spec.validator ?? null }
      else if (validate) {
        // Validating, every file named without a size is being checked.
        const { checks } = /** @type {StartedChecks} */ (started)
        now = await checks.get(this.#resolveWith(spec.path, path))
        checked = true
      }
      more.set(i, { forms, now, checked, why: undefined })
      if (now && now.size < 0) targets.stale(i, currency({ size: 0, validator: null }, now))
      else if (now?.validator) {
        // A plain relative name is hashed as given (what a build under the same base records); its other
        // forms are tried by path when that finds nothing.
        const hashed = forms.plain === true ? 1 : forms.length
        for (let k = 0; k < hashed; k++) {
          owners.push(i)
          texts.push(identityText(forms[k], now.size, now.validator))
        }
      }
    }
    match()
    targets.specs = specs
    targets.nodePath = path
    this.#byPathLater(targets)
    return targets
  }

  /**
   * Those of the fast path that matched no entry (or whose claim failed) are looked up by path, as the others.
   * @param {Targets} targets
   */
  #byPathLater(targets) {
    const { specs, state, more } = targets
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== PATH || more.has(i)) continue
      more.set(i, {
        forms: this.#recordedForms(specs[i].path, targets.nodePath),
        now: { size: /** @type {number} */ (specs[i].size), validator: specs[i].validator }, // the fast path's have sizes
        checked: false,
        why: undefined,
      })
    }
  }

  /**
   * Version 3: confirms claims by page where the caller claims every file of a page — the digest of the
   * claimants' hashes in file order is the page's — and returns the pages whose identities must be read
   * for the other claims (a page claimed in part, or whose digest no claimants give). A locator several
   * entries share makes its callers claimants of each; a page tries each choice of its claimants (a few).
   * @param {Targets} targets
   * @returns {number[]}
   */
  confirmByDigest(targets) {
    const { entry, state } = targets
    const n = this.#parts.layout.files
    const pageFiles = this.#parts.layout.pageFiles
    /** per entry: its one claimant (a caller's file), -1: none, -2: several (in `more`) */
    const claim = new Int32Array(n).fill(-1)
    /** @type {Map<number, number[]>} the entries with several claimants: theirs */
    const several = new Map()
    const candidates = (/** @type {number} */ i) => this.#candidates(targets, i)
    /**
     * @param {number} f an entry
     * @param {number} i a caller's file claiming it
     */
    const addClaim = (f, i) => {
      if (claim[f] === -1) claim[f] = i
      else if (claim[f] >= 0) {
        several.set(f, [claim[f], i])
        claim[f] = -2
      } else several.get(f)?.push(i)
    }
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== CLAIMED) continue
      if (entry[i] === AMBIGUOUS) for (const f of candidates(i)) addClaim(f, i)
      else addClaim(entry[i], i)
    }
    /** per page tried: its first file, and one choice of claimants (one caller per file), whose hashes are in `blobs` */
    const tries = []
    const blobs = []
    const { low, high } = targets
    for (let p = 0; p < this.#parts.layout.pages; p++) {
      const first = p * pageFiles
      const end = Math.min(n, first + pageFiles)
      let choices = 1
      for (let f = first; f < end && choices; f++) {
        if (claim[f] === -1) choices = 0
        else if (claim[f] === -2) choices *= /** @type {number[]} */ (several.get(f)).length
      }
      if (!choices || choices > MAX_PAGE_CHOICES) continue
      for (let choice = 0; choice < choices; choice++) {
        // Each file's claimant (the common case: the only one, read in place).
        let callers = claim.subarray(first, end)
        if (choices > 1) {
          callers = Int32Array.from(callers)
          let rest = choice
          for (let k = 0; k < callers.length; k++) {
            if (callers[k] !== -2) continue
            const list = /** @type {number[]} */ (several.get(first + k))
            callers[k] = list[rest % list.length]
            rest = Math.floor(rest / list.length)
          }
        }
        // 8 little-endian bytes per hash, as the writer digests them.
        const words = new Uint32Array(callers.length * 2)
        for (let k = 0; k < callers.length; k++) {
          words[2 * k] = low[callers[k]]
          words[2 * k + 1] = high[callers[k]]
        }
        tries.push({ p, first, callers })
        blobs.push(new Uint8Array(words.buffer))
      }
    }
    const digests = pageDigests(blobs)
    /** per page vouched for: per file, the caller whose hash it is */
    const vouched = targets.vouched
    tries.forEach(({ p, first, callers }, k) => {
      if (!sameBytes(digests.subarray(k * 8, k * 8 + 8), /** @type {Uint8Array} */ (this.#parts.filesPart().pages[p].digest))) return
      // Two choices cannot both give the digest unless two callers' hashes are equal (then either will do).
      if (!vouched.has(p)) vouched.set(p, { first, callers })
    })
    const toRead = new Set()
    /** @type {Array<{ first: number, callers: Int32Array } | undefined>} */
    const byPage = new Array(this.#parts.layout.pages)
    for (const [p, page] of vouched) byPage[p] = page
    for (let i = 0; i < targets.count; i++) {
      if (state[i] !== CLAIMED) continue
      const f = entry[i]
      if (f >= 0) {
        // The common case, without arrays: one candidate, its page vouched for (by this caller's hash or an equal one).
        const page = byPage[(f / pageFiles) | 0]
        if (page) {
          const j = page.callers[f - page.first]
          if (j === i || (targets.low[j] === targets.low[i] && targets.high[j] === targets.high[i])) state[i] = DESCRIBED
          else {
            entry[i] = -1
            state[i] = PATH
          }
        } else toRead.add(this.#parts.pageOf(f))
        continue
      }
      const unvouched = candidates(i).filter((e) => !vouched.has(this.#parts.pageOf(e)))
      if (unvouched.length) for (const e of unvouched) toRead.add(this.#parts.pageOf(e))
      else this.#decideClaim(targets, i, candidates(i))
    }
    return [...toRead].filter((p) => !this.#parts.identityPage(p))
  }

  /**
   * Version 3: the entries caller's file i claims: the one its locator names, or every entry sharing the locator.
   * @param {Targets} targets
   * @param {number} i
   */
  #candidates(targets, i) {
    return targets.entry[i] === AMBIGUOUS ? this.#parts.identityTable().findAll(targets.low[i], 0) : [targets.entry[i]]
  }

  /**
   * Version 3: the claims left, their pages' identities read: each decided.
   * @param {Targets} targets
   */
  confirmByIdentities(targets) {
    for (let i = 0; i < targets.count; i++) {
      if (targets.state[i] !== CLAIMED) continue
      this.#decideClaim(targets, i, this.#candidates(targets, i))
    }
    this.#byPathLater(targets)
  }

  /**
   * A claim decided, its candidates' pages vouched for by their digests or read: the one entry whose whole
   * identity hash is the caller's describes it; several: ambiguous; none: it is looked up by path.
   * @param {Targets} targets
   * @param {number} i
   * @param {number[]} candidates
   */
  #decideClaim(targets, i, candidates) {
    const matches = candidates.filter((f) => {
      const p = this.#parts.pageOf(f)
      const vouched = targets.vouched.get(p)
      if (vouched) {
        const j = vouched.callers[f - vouched.first]
        return j === i || (targets.low[j] === targets.low[i] && targets.high[j] === targets.high[i])
      }
      const page = /** @type {Uint8Array} */ (this.#parts.identityPage(p))
      const view = new DataView(page.buffer, page.byteOffset + (f - p * this.#parts.layout.pageFiles) * 8, 8)
      return view.getUint32(0, true) === targets.low[i] && view.getUint32(4, true) === targets.high[i]
    })
    if (matches.length > 1) targets.stale(i, ambiguous('identity'))
    else if (matches.length === 1) {
      targets.entry[i] = matches[0]
      targets.state[i] = DESCRIBED
    } else {
      targets.entry[i] = -1
      targets.state[i] = PATH
    }
  }

  /**
   * Whether a caller's path is matched by identity as given alone: `#recordedForms` gives it alone, or
   * (a plain relative name under a local base) hashes it alone.
   * @param {string} given
   * @param {typeof import('node:path') | undefined} path
   */
  #hashedAsGiven(given, path) {
    const base = this.#base
    if (base === undefined) return true
    this.#baseIsUrl ??= isUrl(base)
    if (isUrl(given)) return !this.#baseIsUrl
    return !path || isPlainName(given)
  }

  /**
   * The forms a caller's path may be recorded under: as given, relative to the base, and resolved (`path`:
   * node:path, for a local base).
   * @param {string} given
   * @param {typeof import('node:path') | undefined} path
   * @returns {PathForms}
   */
  #recordedForms(given, path) {
    const base = this.#base
    if (base === undefined) return [given]
    this.#baseIsUrl ??= isUrl(base)
    if (isUrl(given)) {
      if (!this.#baseIsUrl) return [given]
      const prefix = base.endsWith('/') ? base : `${base}/`
      return given.startsWith(prefix) ? [given, decodeURIComponent(given.slice(prefix.length))] : [given]
    }
    if (!path) return [given]
    // A plain relative name (no . or .. segments, / separators): itself, and under the base — no path arithmetic.
    if (isPlainName(given)) {
      this.#absoluteBase ??= path.resolve(base)
      return Object.assign([
        given,
        `${this.#absoluteBase}${path.sep}${path.sep === '/' ? given : given.split('/').join(path.sep)}`,
      ], { plain: true })
    }
    const absolute = path.resolve(base, given)
    const relative = path.relative(base, absolute)
    const forms = [given]
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) forms.push(relative.split(path.sep).join('/'))
    forms.push(absolute)
    return [...new Set(forms)]
  }

  /**
   * A recorded path resolved against the base, `path` (node:path) given for a local base.
   * @param {string} recorded
   * @param {typeof import('node:path') | undefined} path
   */
  #resolveWith(recorded, path) {
    if (isUrl(recorded) || this.#base === undefined) return recorded
    if (isUrl(this.#base)) return new URL(recorded, this.#base).href
    return path ? path.resolve(this.#base, recorded) : recorded
  }

  /**
   * Where a recorded path points (resolved against the base).
   * @param {string} recorded
   */
  async resolve(recorded) {
    if (isUrl(recorded) || this.#base === undefined) return recorded
    if (isUrl(this.#base)) return new URL(recorded, this.#base).href
    return (await import('node:path')).resolve(this.#base, recorded)
  }

  /**
   * Files not matched by identity, looked up by the hashes of their path's forms (the path hashes read): the
   * entry found describes the file, or its details are to say whether it does (the caller gave a size).
   * @param {Targets} targets
   * @param {number[]} byPath
   */
  matchByPath(targets, byPath) {
    const { entry, state, more } = targets
    const paths = /** @type {HashTable} */ (this.#parts.pathTable) // read before
    // Facts of byPath's files are kept (they are keys of `more`).
    const factsOf = (/** @type {number} */ i) => /** @type {MoreFacts} */ (more.get(i))
    const hashes = hashHalves(hashStrings(byPath.flatMap((i) => factsOf(i).forms)))
    let h = 0
    for (const i of byPath) {
      const t = factsOf(i)
      let found = -1
      for (let k = 0; k < t.forms.length; k++, h++) {
        const f = paths.find(hashes.low[h], hashes.high[h])
        if (found === -1 && f !== -1) found = f
      }
      if (found === AMBIGUOUS) targets.stale(i, ambiguous('path'))
      else if (found < 0) targets.stale(i, notInIndex())
      else {
        entry[i] = found
        state[i] = t.now ? DETAILS : DESCRIBED
      }
    }
  }

  /**
   * Files found by path whose details are read: described when the details' path is one of the caller's forms
   * and its size and validator are current; else stale, and why.
   * @param {Targets} targets
   * @param {number[]} found
   */
  decideByDetails(targets, found) {
    for (const i of found) {
      const t = /** @type {MoreFacts} */ (targets.more.get(i)) // found by path: kept in `more`
      const d = this.#parts.detailsOf(targets.entry[i])
      // The path's hash found it; its text must be one of the caller's forms (a hash of paths is not the path).
      if (!t.forms.includes(d.path)) targets.stale(i, notInIndex())
      else {
        // A file is DETAILS only with its size (and validator) known.
        const now = currency(d, /** @type {NonNullable<MoreFacts['now']>} */ (t.now), { checked: t.checked })
        if (now.current) targets.state[i] = DESCRIBED
        else targets.stale(i, now)
      }
    }
  }
}

/** Identity texts hashed in one call. */
const IDENTITY_BATCH = 4096

/** A caller's file: matched by path (or not yet), described by an entry, its details to be read, or not described. */
export const PATH = 0
export const DESCRIBED = 1
export const DETAILS = 2
const STALE = 3
/** Choices of claimants a page's digest is tried with, at most (beyond, its identities are read). */
const MAX_PAGE_CHOICES = 16
/** Version 3: its locator names an entry (AMBIGUOUS: several), to be confirmed by a page's digest or the entry's whole hash. */
export const CLAIMED = 4

/** The caller's files of one probe as arrays: the entry and state of each; forms, facts and reasons only where needed. */
export class Targets {
  /** @param {string[]} paths */
  constructor(paths) {
    this.paths = paths
    this.count = paths.length
    this.entry = new Int32Array(paths.length).fill(-1)
    this.state = new Uint8Array(paths.length)
    /** version 3: the identity hash of each claim (low and high halves) */
    this.low = new Uint32Array(paths.length)
    this.high = new Uint32Array(paths.length)
    /** @type {FileSpec[]} */
    this.specs = []
    /** @type {typeof import('node:path') | undefined} */
    this.nodePath = undefined
    /** @type {Map<number, { first: number, callers: Int32Array }>} version 3: pages vouched for by their digests, and by whose hashes */
    this.vouched = new Map()
    /** @type {Map<number, MoreFacts>} */
    this.more = new Map()
  }

  /**
   * File i is not described, for this reason.
   * @param {number} i
   * @param {Currency} why
   */
  stale(i, why) {
    this.state[i] = STALE
    const t = this.more.get(i)
    if (t) t.why = why
    else this.more.set(i, { forms: [this.paths[i]], now: undefined, checked: false, why })
  }
}

/**
 * A relative path without . or .. segments, doubled or back slashes: under a local base, itself and base/itself.
 * @param {string} given
 */
function isPlainName(given) {
  return !given.startsWith('/') && !given.includes('\\') && !/(^|\/)\.\.?(\/|$)/.test(given) && !given.includes('//')
}

function notInIndex() {
  return { current: false, reason: StaleReason.MISSING_FROM_INDEX, detail: 'the file is not in the index' }
}

/**
 * @param {string} what
 */
function ambiguous(what) {
  return { current: false, reason: StaleReason.AMBIGUOUS_IN_INDEX,
    detail: `more than one entry of the index has this file's ${what} hash: the index cannot say which describes it` }
}
