// Exact matching for confirmed lookups (probe's confirm option): the probe's PLAIN candidates (js/values/probe-values.js — both
// zeros, each timestamp reading, decimals by their stored bytes) compared with a page's raw physical
// values as hyparquet decodes them, then mapped to row numbers through the definition and repetition
// levels (parquet-format "Nested Encoding"). The hot loops compare typed arrays and numbers only: no
// object per value. PLAIN binary pages are matched on their value bytes (js/pages/plain-binary-scan.js, which
// is loaded with the page decoders and handed in, so probes that never confirm do not load it).
import { PageDecodeError } from '../pages/page-decode-error.js'
import { sameBytes } from '../format/bytes.js'

/**
 * Distinct candidate keys, each with the probe values (owners) it stands for: `group` numbers key the
 * owner lists, so a page scan records small integers.
 */
export class CandidateMatcher {
  /**
   * @param {string} physicalType
   * @param {any[]} candidates encodeProbeValues().candidates
   * @param {Int32Array} owners the value each candidate belongs to
   * @param {Uint8Array} wanted per value: 1 when it is being confirmed
   */
  constructor(physicalType, candidates, owners, wanted) {
    this.physicalType = physicalType
    /** @type {number[][]} owners per group */
    this.groups = []
    /** Values with a candidate of a form this matcher cannot compare: never answered from pages. */
    this.undecidable = new Uint8Array(wanted.length)
    /** @type {Uint8Array[]} The key of each group for binary types */
    this.byteKeys = []
    /** @type {Array<number | bigint | boolean | string>} The key of each group for the other types */
    this.scalarKeys = []
    /** Whether some key is a microsecond of `wide` INT96 bytes (matchKey): then values are also compared at microseconds. */
    this.microseconds = false
    /** @type {Map<string | number | bigint | boolean, number>} a key (binary ones by bytesKeyId) to its group */
    const byKey = new Map()
    for (let k = 0; k < candidates.length; k++) {
      const owner = owners[k]
      if (!wanted[owner]) continue
      const key = matchKey(physicalType, candidates[k])
      if (key === undefined) {
        this.undecidable[owner] = 1
        continue
      }
      if (typeof key === 'string') this.microseconds = true
      const id = typeof key === 'object' ? bytesKeyId(key) : key
      let group = byKey.get(id)
      if (group === undefined) {
        group = this.groups.length
        byKey.set(id, group)
        this.groups.push([])
        if (typeof key === 'object') this.byteKeys.push(key)
        else this.scalarKeys.push(key)
      }
      if (!this.groups[group].includes(owner)) this.groups[group].push(owner)
    }
    // scan gives a value one group, its exact key's first: that group also takes the owners of its microsecond's, or a
    // text probed beside the bigint of its stored instant went unconfirmed (absent).
    if (this.microseconds) {
      for (const [id, group] of byKey) {
        const wide = typeof id === 'bigint' ? byKey.get(microsecondKey(id)) : undefined
        const list = this.groups[group]
        if (wide !== undefined) for (const owner of this.groups[wide]) if (!list.includes(owner)) list.push(owner)
      }
    }
    this.byKey = byKey
    /** @type {import('../pages/plain-binary-scan.js').PlainBinaryKeys | undefined} built on the first PLAIN binary page */
    this.plainKeys = undefined
  }

  /**
   * For each value of a PLAIN BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY section, its group or -1 (the same hits
   * `scan` gives for the values hyparquet decodes from it). Throws PageDecodeError on a malformed section.
   * @param {import('../pages/plain-binary-page.js').PlainBinarySection} section
   * @param {Pick<typeof import('../pages/plain-binary-scan.js'), 'plainBinaryKeys' | 'scanPlainByteArray' | 'scanPlainFixed'>} scan
   *   js/pages/plain-binary-scan.js (as page-decode.js loads it)
   * @returns {Int32Array}
   */
  scanPlainBinary({ bytes, count, width }, scan) {
    // byteKeys[g] is group g's key for the binary types: hits are groups.
    this.plainKeys ??= scan.plainBinaryKeys(this.byteKeys, (message) => new PageDecodeError(message))
    return width === undefined
      ? scan.scanPlainByteArray(bytes, count, this.plainKeys)
      : scan.scanPlainFixed(bytes, count, width, this.plainKeys)
  }

  /**
   * For each value of `values` (raw, hyparquet's readPlain form), its group or -1.
   * @param {ArrayLike<any>} values
   * @returns {Int32Array}
   */
  scan(values) {
    const n = values.length
    const hits = new Int32Array(n).fill(-1)
    if (this.groups.length === 0) return hits
    const { byKey } = this
    if (this.microseconds) { // INT96 with `wide` keys: each value exactly, then its microsecond
      for (let i = 0; i < n; i++) hits[i] = byKey.get(values[i]) ?? byKey.get(microsecondKey(values[i])) ?? -1
      return hits
    }
    switch (this.physicalType) {
      case 'BYTE_ARRAY':
      case 'FIXED_LEN_BYTE_ARRAY':
        scanBytes(values, this.byteKeys, hits)
        return hits
      case 'INT64':
        // A BigInt64Array is compared as pairs of int32 words: no bigint per value. INT64 keys are bigints (matchKey).
        if (values instanceof BigInt64Array) scanWords(values, /** @type {bigint[]} */ (this.scalarKeys), hits)
        else for (let i = 0; i < n; i++) hits[i] = byKey.get(values[i]) ?? -1
        return hits
      case 'INT32':
        if (this.scalarKeys.length > 1 && values instanceof Int32Array) {
          scanInts(values, /** @type {number[]} */ (this.scalarKeys), hits) // INT32 keys are numbers (matchKey)
          return hits
        }
      // falls through
      default: {
        // Numbers (Map keys compare SameValueZero: -0 finds 0, which the candidates hold as both zeros
        // anyway), booleans, INT96 bigints.
        if (this.scalarKeys.length === 1) {
          const key = this.scalarKeys[0]
          for (let i = 0; i < n; i++) if (values[i] === key) hits[i] = 0
        } else {
          for (let i = 0; i < n; i++) hits[i] = byKey.get(values[i]) ?? -1
        }
        return hits
      }
    }
  }
}

/**
 * A candidate as the raw value hyparquet decodes for the physical type, or undefined if of another form.
 * @param {string} physicalType
 * @param {unknown} candidate
 * @returns {Uint8Array | number | bigint | boolean | string | undefined} a string: an INT96 microsecond (microsecondKey)
 */
function matchKey(physicalType, candidate) {
  switch (physicalType) {
    case 'INT32': return typeof candidate === 'number' && Number.isInteger(candidate) ? candidate : undefined
    case 'INT64': return typeof candidate === 'bigint' ? BigInt.asIntN(64, candidate) : undefined
    case 'FLOAT':
    case 'DOUBLE': return typeof candidate === 'number' && candidate === candidate ? candidate : undefined
    case 'BOOLEAN': return typeof candidate === 'boolean' ? candidate : undefined
    case 'BYTE_ARRAY':
      if (typeof candidate === 'string') return new TextEncoder().encode(candidate)
      return candidate instanceof Uint8Array ? candidate : undefined
    case 'FIXED_LEN_BYTE_ARRAY': return candidate instanceof Uint8Array ? candidate : undefined
    case 'INT96': {
      if (!(candidate instanceof Uint8Array) || candidate.length !== 12) return undefined
      // As js/pages/page-decode.js's int96Values reads a page's: BigInt(high int32) << 64n | low (an unsigned int64).
      const view = new DataView(candidate.buffer, candidate.byteOffset, 12)
      const key = BigInt(view.getInt32(8, true)) << 64n | view.getBigUint64(0, true)
      // `wide` bytes (js/values/input.js WideInt96) stand for every value of their microsecond, as DuckDB reads INT96.
      // Spark's forms with a negative nanosecond of day (before 4713 BC and past year 287,566: microseconds) stay exact.
      return (/** @type {import('../values/input.js').WideInt96} */ (candidate).wide && microsecondKey(key)) || key
    }
    default: return undefined
  }
}

const latin1 = new TextDecoder('latin1')

/**
 * An INT96 value's microsecond as DuckDB reads it (Julian day × µs per day + nanoseconds of day / 1000), as a key no bigint
 * equals; '' for a negative nanosecond of day (the low 64 bits as a signed int64), which only Spark's forms have
 * (js/values/temporal.js int96Forms), at microseconds: compared exactly.
 * @param {bigint} value `high << 64n | low`, low unsigned (js/pages/page-decode.js int96Values)
 */
function microsecondKey(value) {
  const nanosOfDay = BigInt.asUintN(64, value)
  if (nanosOfDay >= 2n ** 63n) return ''
  return `µs${(value >> 64n) * 86400000000n + nanosOfDay / 1000n}`
}

/**
 * One Map key per distinct byte string (built once per candidate, never per page value).
 * @param {Uint8Array} bytes
 */
function bytesKeyId(bytes) {
  return `b:${latin1.decode(bytes)}`
}

/**
 * Byte values against byte keys: length first, then the bytes, only for equal lengths.
 * @param {ArrayLike<Uint8Array>} values
 * @param {Uint8Array[]} keys
 * @param {Int32Array} hits
 */
function scanBytes(values, keys, hits) {
  /** @type {Map<number, number[]>} */
  const byLength = new Map()
  keys.forEach((key, group) => {
    const list = byLength.get(key.length)
    if (list) list.push(group)
    else byLength.set(key.length, [group])
  })
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    const groups = byLength.get(value.length)
    if (groups === undefined) continue
    for (const group of groups) {
      if (sameBytes(value, keys[group])) {
        hits[i] = group
        break
      }
    }
  }
}

// Several keys: a table indexed by a value's low bits says whether any key could be equal, so most
// values cost one typed-array load; the keys are compared only behind it.
const FILTER_BITS = 12
const FILTER_MASK = (1 << FILTER_BITS) - 1

/** @param {Iterable<number>} lows */
function lowBitsFilter(lows) {
  const filter = new Uint8Array(1 << FILTER_BITS)
  for (const low of lows) filter[low & FILTER_MASK] = 1
  return filter
}

/**
 * INT32 values against several keys.
 * @param {Int32Array} values
 * @param {number[]} keys
 * @param {Int32Array} hits
 */
function scanInts(values, keys, hits) {
  const filter = lowBitsFilter(keys)
  const m = keys.length
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (filter[value & FILTER_MASK] === 0) continue
    for (let g = 0; g < m; g++) {
      if (keys[g] === value) {
        hits[i] = g
        break
      }
    }
  }
}

/**
 * INT64 values as little-endian int32 pairs against the keys' words.
 * @param {BigInt64Array} values
 * @param {bigint[]} keys
 * @param {Int32Array} hits
 */
function scanWords(values, keys, hits) {
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  const lows = new Int32Array(keys.length)
  const highs = new Int32Array(keys.length)
  keys.forEach((key, group) => {
    lows[group] = Number(BigInt.asIntN(32, key))
    highs[group] = Number(BigInt.asIntN(32, key >> 32n))
  })
  const m = keys.length
  if (m === 1) {
    const low = lows[0]
    const high = highs[0]
    for (let i = 0; i < values.length; i++) if (words[2 * i] === low && words[2 * i + 1] === high) hits[i] = 0
    return
  }
  const filter = lowBitsFilter(lows)
  for (let i = 0; i < values.length; i++) {
    const low = words[2 * i]
    if (filter[low & FILTER_MASK] === 0) continue
    for (let g = 0; g < m; g++) {
      if (lows[g] === low && highs[g] === words[2 * i + 1]) {
        hits[i] = g
        break
      }
    }
  }
}

/**
 * Walks one data page's levels: calls `onHit(group, row)` for each present value whose group is ≥ 0, and
 * returns the rows the page starts (a repetition level 0 starts a row; without repetition levels every
 * level is a row). `nextRow` is the number of the row the page's first level-0 entry starts.
 * A page whose levels and values disagree throws.
 * @param {{ numLevels: number, definitionLevels: ArrayLike<number>, repetitionLevels: ArrayLike<number> }} page
 * @param {number} maxDefinitionLevel
 * @param {Int32Array} hits per present value: its group or -1
 * @param {number} nextRow
 * @param {(group: number, row: number) => void} onHit
 * @returns {{ rowsStarted: number, startsRow: boolean }} startsRow: the page's first level starts a row
 */
export function walkLevels(page, maxDefinitionLevel, hits, nextRow, onHit) {
  const { numLevels, definitionLevels: defs, repetitionLevels: reps } = page
  const repeated = reps.length > 0
  const everyLevelPresent = defs.length === 0
  if (repeated && reps.length !== numLevels) throw new Error(`${reps.length} repetition levels for ${numLevels} values`)
  if (!everyLevelPresent && defs.length !== numLevels) throw new Error(`${defs.length} definition levels for ${numLevels} values`)
  const presentCount = everyLevelPresent ? numLevels : countEqual(defs, maxDefinitionLevel)
  if (presentCount !== hits.length) throw new Error(`the levels say ${presentCount} values, the page holds ${hits.length}`)
  let rowsStarted = repeated ? countEqual(reps, 0) : numLevels
  if (!anyHit(hits)) return { rowsStarted, startsRow: !repeated || reps[0] === 0 || numLevels === 0 }
  let row = nextRow - 1
  let v = 0
  for (let i = 0; i < numLevels; i++) {
    if (!repeated || reps[i] === 0) row++
    if (everyLevelPresent || defs[i] === maxDefinitionLevel) {
      const group = hits[v++]
      if (group >= 0) onHit(group, row)
    }
  }
  return { rowsStarted, startsRow: !repeated || reps[0] === 0 || numLevels === 0 }
}

/** @param {Int32Array} hits */
function anyHit(hits) {
  for (let i = 0; i < hits.length; i++) if (hits[i] >= 0) return true
  return false
}

/**
 * How many of `levels` equal `level` (a page's values: its levels at the maximum; the rows it starts: repetition 0).
 * @param {ArrayLike<number>} levels
 * @param {number} level
 */
export function countEqual(levels, level) {
  let count = 0
  for (let i = 0; i < levels.length; i++) if (levels[i] === level) count++
  return count
}

/**
 * Per dictionary entry, its group or -1; a dictionary-encoded page's indexes then look their group up.
 * @param {CandidateMatcher} matcher
 * @param {ArrayLike<any>} dictionary raw dictionary values
 */
export function dictionaryGroups(matcher, dictionary) {
  return matcher.scan(dictionary)
}

/**
 * A dictionary-encoded page's indexes mapped through `groups` (dictionaryGroups); an index outside the
 * dictionary throws.
 * @param {ArrayLike<number>} indexes
 * @param {Int32Array} groups
 */
export function hitsThroughDictionary(indexes, groups) {
  const n = indexes.length
  const hits = new Int32Array(n)
  const size = groups.length
  for (let i = 0; i < n; i++) {
    const index = indexes[i]
    if (!(index >= 0 && index < size)) throw new Error(`dictionary index ${index} outside a dictionary of ${size} values`)
    hits[i] = groups[index]
  }
  return hits
}
