// Shards of a sidecar index build: which files shard i of n indexes (by a hash of each recorded path, as
// a dataset's probe shards its files: the same on every machine, and a file added or removed moves no
// other file to another shard), and the segment's mark in its Puffin footer — the shard, and each file's
// position among all the build's files, so that merging segments (js/index-builder/sidecar-merge.js)
// writes the files in the order a one-shot build of the same inputs writes them.
import { invalidArgument } from '../errors.js'
import { inShard } from '../dataset/dataset.js'
import { readPuffinFooter } from '../sidecar/puffin.js'
import { openByteSource } from '../sources/open-byte-source.js'

/** The footer property a segment carries: JSON { shard, count, files, positions }. */
export const SEGMENT_PROPERTY = 'parquet-bloom.segment'
const SEGMENT_TAIL_BYTES = 256 * 1024

/**
 * The positions (into `recorded`) of the files shard `shard` indexes, in order: all of them without one.
 * @param {string[]} recorded the paths the index records, in the build's order
 * @param {{ index: number, count: number } | undefined} shard
 */
export function shardPositions(recorded, shard) {
  const all = recorded.map((_, i) => i)
  if (shard === undefined) return all
  return all.filter((i) => inShard(recorded[i], shard))
}

/**
 * The footer properties of segment `shard` of a build of `files` files, holding those at `positions`.
 * @param {{ index: number, count: number }} shard
 * @param {number} files
 * @param {number[]} positions
 */
export function segmentProperties(shard, files, positions) {
  return { [SEGMENT_PROPERTY]: JSON.stringify({ shard: shard.index, count: shard.count, files, positions }) }
}

/**
 * What a segment's footer says of it (undefined for an index built whole): read from its tail.
 * @param {any} source anything openSidecarIndex takes
 * @param {{ signal?: AbortSignal, fetch?: typeof fetch }} [options]
 * @returns {Promise<{ shard: number, count: number, files: number, positions: number[] } | undefined>}
 */
export async function readSegmentMark(source, options = {}) {
  const bytes = await openByteSource(source, options)
  try {
    let tail = await bytes.readTail(SEGMENT_TAIL_BYTES, { signal: options.signal })
    const size = /** @type {number} */ (bytes.size) // readTail learnt it
    let parsed = readPuffinFooter(tail.bytes, size, bytes.name)
    if ('need' in parsed) {
      tail = {
        offset: size - parsed.need, bytes: await bytes.read(size - parsed.need, parsed.need, { signal: options.signal }),
      }
      parsed = readPuffinFooter(tail.bytes, size, bytes.name)
    }
    const text = 'footer' in parsed ? parsed.footer.properties?.[SEGMENT_PROPERTY] : undefined
    if (text === undefined) return undefined
    let mark
    try {
      mark = JSON.parse(text)
    } catch {
      mark = undefined
    }
    const { shard, count, files, positions } = mark ?? {}
    if (!(Number.isInteger(count) && count >= 1 && Number.isInteger(shard) && shard >= 0 && shard < count &&
      Number.isInteger(files) && Array.isArray(positions) &&
      positions.every((p) => Number.isInteger(p) && p >= 0 && p < files))) {
      throw invalidArgument(`${bytes.name}: its segment mark (${SEGMENT_PROPERTY}) is not { shard, count, files, positions }`)
    }
    return { shard, count, files, positions }
  } finally {
    await bytes.close()
  }
}
