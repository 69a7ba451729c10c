// The bitsets blob of a sidecar index, block-major (docs/sidecar-index.md "Regions"): bitsets are
// gathered up to a bounded segment, then written per column, type and size as one region in which block b of
// every bitset lies next to block b of the others — a hash selects the same block in every bitset of one size
// (BloomFilter.md: (hash >> 32) × numBlocks >> 32), so a value's blocks in all the files and row groups
// of a region are one contiguous range. Memory holds one segment. A region holds one type of its column
// (files of a dataset may differ), so the layout can say how a probe hashes its values for it
// (js/sidecar/sidecar-layout.js) before the directory is read.
import { typeKey } from './sidecar-layout.js'
import { BYTES_PER_BLOCK } from '../wasm/sbbf.js'

/** Bitset bytes gathered before a segment's regions are written. */
export const DEFAULT_SEGMENT_BYTES = 32 * 1024 * 1024

/**
 * Where block `block` of bitset `k` of a region lies, from the bitsets blob's start.
 * @param {{ offset: number, count: number }} region
 * @param {number} k
 * @param {number} block
 */
export function blockOffset(region, k, block) {
  return region.offset + (block * region.count + k) * BYTES_PER_BLOCK
}

export class RegionWriter {
  /**
   * @param {{ write: (bytes: Uint8Array) => Promise<void>, written: number }} out the sink, at the blob's start
   * @param {number} blobStart where the bitsets blob starts in the sink
   */
  constructor(out, blobStart, segmentBytes = DEFAULT_SEGMENT_BYTES) {
    this.out = out
    this.blobStart = blobStart
    this.segmentBytes = segmentBytes
    /** @type {Array<{ offset: number, count: number, numBytes: number }>} */
    this.regions = []
    /** @type {Array<{ column: string, type: import('./sidecar-layout.js').ColumnType }>} per region: whose bitsets it holds */
    this.kinds = []
    /** @type {Array<{ bitset: Uint8Array, entry: unknown[], column: string, type: import('./sidecar-layout.js').ColumnType }>} */
    this.pending = []
    this.pendingBytes = 0
  }

  /**
   * Takes a column's bitset (of a file where the column has `type`); `entry[0]`, `entry[1]` become its region and
   * place when its segment is written.
   * @param {Uint8Array} bitset
   * @param {unknown[]} entry
   * @param {string} column
   * @param {import('./sidecar-layout.js').ColumnType} type
   */
  async add(bitset, entry, column, type) {
    this.pending.push({ bitset, entry, column, type })
    this.pendingBytes += bitset.length
    if (this.pendingBytes >= this.segmentBytes) await this.flush()
  }

  /** Writes the gathered bitsets as one region per column, type and size (a probe asks one column). */
  async flush() {
    /** @type {Map<string, RegionWriter['pending']>} */
    const groups = new Map()
    for (const p of this.pending) {
      const key = JSON.stringify([p.bitset.length, p.column, typeKey(p.type)])
      let group = groups.get(key)
      if (!group) groups.set(key, group = [])
      group.push(p)
    }
    this.pending = []
    this.pendingBytes = 0
    for (const list of groups.values()) {
      const numBytes = list[0].bitset.length
      const region = { offset: this.out.written - this.blobStart, count: list.length, numBytes }
      list.forEach((p, k) => {
        p.entry[0] = this.regions.length
        p.entry[1] = k
      })
      this.regions.push(region)
      this.kinds.push({ column: list[0].column, type: list[0].type })
      // One row of the region per block index: block b of every bitset.
      const row = new Uint8Array(list.length * BYTES_PER_BLOCK)
      for (let b = 0; b < numBytes / BYTES_PER_BLOCK; b++) {
        list.forEach((p, k) => row.set(p.bitset.subarray(b * BYTES_PER_BLOCK, (b + 1) * BYTES_PER_BLOCK), k * BYTES_PER_BLOCK))
        await this.out.write(row)
      }
    }
  }
}

/**
 * One bitset of a region, gathered from its blocks.
 * @param {Uint8Array} regionBytes the whole region
 * @param {{ count: number, numBytes: number }} region
 * @param {number} k
 */
export function bitsetOf(regionBytes, region, k) {
  const out = new Uint8Array(region.numBytes)
  for (let b = 0; b < region.numBytes / BYTES_PER_BLOCK; b++) {
    const at = (b * region.count + k) * BYTES_PER_BLOCK
    out.set(regionBytes.subarray(at, at + BYTES_PER_BLOCK), b * BYTES_PER_BLOCK)
  }
  return out
}
