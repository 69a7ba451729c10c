// The values a new bloom filter of one column chunk receives: the distinct values of its data pages and
// the dictionary entries its pages use, hashed as probes hash them (XXH64 of the PLAIN bytes, in wasm).
// DistinctValues counts them exactly — one 53-bit key of each value's hash in a Set, the values kept
// once — up to a bound; past it the caller sizes the filter from num_values and streams the values
// straight into it (FilterFeed), so memory stays bounded on any chunk.
import { getCore } from '../core.js'
import { hashValues } from '../batch-writer.js'

/** Distinct values counted exactly per chunk; beyond, the chunk's value count sizes the filter. */
export const DEFAULT_MAX_EXACT_DISTINCT = 1 << 19

/** The batch type a column's values are hashed as. */
export function hashType(column) {
  return column.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? { type: column.physicalType, typeLength: column.typeLength } : column.physicalType
}

/** Physical types whose values hyparquet hands over in the forms the batch hasher takes. */
export const FILTERABLE_TYPES = new Set(['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'])

export class TooManyDistinct extends Error {}

/** Values chosen by index from a typed array or array. */
function pick(values, chosen) {
  if (Array.isArray(values)) return chosen.map((i) => values[i])
  const out = new /** @type {any} */ (values.constructor)(chosen.length)
  for (let k = 0; k < chosen.length; k++) out[k] = values[chosen[k]]
  return out
}

/** Which dictionary entries the data pages use. */
class DictionaryUse {
  constructor() {
    this.values = undefined
    this.used = undefined
  }

  set(values) {
    this.values = values
    this.used = new Uint8Array(values.length)
  }

  mark(indexes) {
    const used = /** @type {Uint8Array} */ (this.used)
    for (let i = 0; i < indexes.length; i++) used[indexes[i]] = 1
  }

  /** The used entries, or undefined when there is no dictionary. */
  usedValues() {
    if (!this.values) return undefined
    const chosen = []
    this.used.forEach((u, i) => { if (u) chosen.push(i) })
    return pick(this.values, chosen)
  }
}

/** A ValueSink (js/index-builder/chunk-scan.js) whose data pages' dictionary entries join its plain values at the end. */
class ChunkValues {
  constructor(column) {
    this.type = hashType(column)
    this.dictionaryUse = new DictionaryUse()
  }

  dictionary(values) {
    this.dictionaryUse.set(values)
  }

  indexes(indexes) {
    this.dictionaryUse.mark(indexes)
  }

  /** @param {any} _values */
  plain(_values) {}

  /** Takes in the used dictionary entries; call once the chunk's pages are scanned. */
  finish() {
    const used = this.dictionaryUse.usedValues()
    if (used?.length) this.plain(used)
  }
}

/** Exact distinct values of one chunk. */
export class DistinctValues extends ChunkValues {
  constructor(column, maxDistinct = DEFAULT_MAX_EXACT_DISTINCT) {
    super(column)
    this.maxDistinct = maxDistinct
    this.keys = new Set()
    this.kept = []
  }

  plain(values) {
    if (!values.length) return
    const hashes = hashValues(getCore(), values, this.type)
    const words = new Uint32Array(hashes.buffer, hashes.byteOffset, values.length * 2)
    const chosen = []
    const keys = this.keys
    for (let i = 0; i < values.length; i++) {
      // 53 bits of the 64-bit hash: collisions only make the count (and the filter) smaller by a few in 2^53.
      const key = (words[2 * i + 1] >>> 11) * 4294967296 + words[2 * i]
      if (keys.has(key)) continue
      keys.add(key)
      chosen.push(i)
    }
    if (keys.size > this.maxDistinct) throw new TooManyDistinct()
    // Byte arrays may be views of the page: copied, so the page's buffer is not kept alive.
    const picked = pick(values, chosen)
    this.kept.push(Array.isArray(picked) ? picked.map((v) => (v instanceof Uint8Array ? v.slice() : v)) : picked)
  }

  get count() {
    return this.keys.size
  }

  /** Inserts every distinct value into `filter`. */
  insertInto(filter) {
    for (const batch of this.kept) filter.insert(batch, this.type)
  }
}

/** Streams a chunk's values straight into a filter already sized. */
export class FilterFeed extends ChunkValues {
  constructor(column, filter) {
    super(column)
    this.filter = filter
  }

  plain(values) {
    if (values.length) this.filter.insert(values, this.type)
  }
}
