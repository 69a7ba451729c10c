// Format 2's bloom check (docs/sidecar-index.md "Format 2"): the 8 bit rows each of a probe's values selects in
// every region of its column (js/sidecar/bit-slices.js), read in the probe's first wave, ANDed once per region
// and candidate; then, per file, which of its row groups' filters may hold each candidate — most files of an
// absent value told apart without an allocation.
import { RangeTask } from '../plan/read-scheduler.js'
import { andRows, blockIndexOf, hashRows, sliceRowBytes } from './bit-slices.js'
import { encodingFor } from './sliced-answers.js'

/**
 * @typedef {import('./sliced-answers.js').HalvedEncoding} HalvedEncoding
 * @typedef {import('./sidecar-probe-values.js').Refused} Refused a column type that refuses a value: its files answer so
 * @typedef {import('./sidecar-files-part.js').SlicedLayout} SlicedLayout
 * @typedef {{ regionOf: Int32Array, slotOf: Uint32Array }} Placement where each entry's chunks of the column lie
 */

export class BloomCheck {
  #layout
  #list
  #where
  #column
  /** @type {Map<string, HalvedEncoding | Refused>} the values as each column type stores them, by type key */
  #encodings = new Map()
  /** @type {Array<HalvedEncoding | Refused>} per region of the column */
  #regionEncodings = []
  /** @type {Map<string, Uint8Array>} bit rows read, by `${region}:${position}` */
  #rowBytes = new Map()
  /** @type {Array<Array<Uint8Array>>} per region, per candidate: the AND of its 8 rows */
  #masks = []
  /** @type {Placement | undefined} */
  #placement
  /** @type {ArrayLike<number> | undefined} each file's row-group count */
  #rowGroupCounts

  /**
   * @param {SlicedLayout} layout
   * @param {unknown[]} list the probe's values
   * @param {string} where the index, for errors
   * @param {string} column
   */
  constructor(layout, list, where, column) {
    this.#layout = layout
    this.#list = list
    this.#where = where
    this.#column = column
  }

  /**
   * The reads of the rows every region of the column needs, for every value's candidates, whoever the files are.
   * @param {number} slicesOffset where the slices blob begins in the index file
   */
  rowTasks(slicesOffset) {
    const tasks = []
    for (const [r, region] of this.#layout.regions.entries()) {
      if (region.column !== this.#column) continue
      const encoded = this.encodingOf(r)
      if ('refused' in encoded) continue
      const rows = sliceRowBytes(region.count)
      const positions = new Set()
      for (const c of encoded.candidates) for (const p of hashRows(blockIndexOf(c.high, region.numBytes / 32), c.low)) positions.add(p)
      for (const p of positions) {
        const start = slicesOffset + region.offset + p * rows
        tasks.push(new RangeTask(start, start + rows, (/** @type {Uint8Array} */ bytes) => this.#rowBytes.set(`${r}:${p}`, bytes)))
      }
    }
    return tasks
  }

  /**
   * The values as region r's column type stores them, or Refused.
   * @param {number} r
   */
  encodingOf(r) {
    return (this.#regionEncodings[r] ??= encodingFor(this.#encodings, this.#layout.regions[r].type, this.#list, this.#where, this.#column))
  }

  /**
   * Where each file's chunks of the column lie, once the files blob is read.
   * @param {Placement} placement
   * @param {ArrayLike<number>} rowGroupCounts
   */
  place(placement, rowGroupCounts) {
    this.#placement = placement
    this.#rowGroupCounts = rowGroupCounts
  }

  /**
   * Entry f's bloom check: maybe[g × candidates + c] = 1 where candidate c may be in its row group g; undefined
   * when no filter of its may hold any (or it has no chunk of the column).
   * @param {number} f
   * @returns {Uint8Array | undefined}
   */
  check(f) {
    const { regionOf, slotOf } = /** @type {Placement} */ (this.#placement) // placed before
    const r = regionOf[f]
    if (r < 0 || 'refused' in this.encodingOf(r)) return undefined
    const slot = slotOf[f]
    const end = slot + /** @type {ArrayLike<number>} */ (this.#rowGroupCounts)[f]
    const regionMasks = this.#masksOf(r)
    // Most files of an absent value have no bit set: they are told apart without an allocation.
    let any = false
    for (let c = 0; c < regionMasks.length && !any; c++) {
      const mask = regionMasks[c]
      for (let k = slot; k < end; k++) {
        if ((mask[k >>> 3] >> (k & 7)) & 1) {
          any = true
          break
        }
      }
    }
    if (!any) return undefined
    const count = regionMasks.length
    const maybe = new Uint8Array((end - slot) * count)
    for (let c = 0; c < count; c++) {
      const mask = regionMasks[c]
      for (let g = 0, k = slot; k < end; g++, k++) maybe[g * count + c] = (mask[k >>> 3] >> (k & 7)) & 1
    }
    return maybe
  }

  /**
   * Region r's masks, one per candidate: the AND of the 8 rows its hash selects.
   * @param {number} r
   */
  #masksOf(r) {
    if (!this.#masks[r]) {
      const region = this.#layout.regions[r]
      // check() asks only of regions whose type took the values.
      const encoded = /** @type {HalvedEncoding} */ (this.encodingOf(r))
      this.#masks[r] = encoded.candidates.map((c) => andRows(hashRows(blockIndexOf(c.high, region.numBytes / 32), c.low)
        .map((p) => /** @type {Uint8Array} */ (this.#rowBytes.get(`${r}:${p}`)))))
    }
    return this.#masks[r]
  }
}
