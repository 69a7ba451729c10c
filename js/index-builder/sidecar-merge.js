// mergeSidecarSegments(): one sidecar index from the segments shard builds wrote (`index build --shard
// i/n`), with no Parquet file read: every entry and bitset is copied across, in the order a one-shot build
// of the same inputs writes the files (each segment marks their positions, js/index-builder/
// sidecar-segments.js) — so the merged index is the one-shot index, byte for byte. Indexes without a mark
// (built whole) merge too, their files ordered by path.
import { invalidArgument } from '../errors.js'
import { openSidecarIndex } from '../sidecar/sidecar-index.js'
import { copyEntry, writeSidecarFiles } from './sidecar-build.js'
import { readSegmentMark } from './sidecar-segments.js'

/**
 * @typedef {NonNullable<Awaited<ReturnType<typeof readSegmentMark>>>} SegmentMark
 * @typedef {{ source: unknown, mark: SegmentMark | undefined, index: Awaited<ReturnType<typeof openSidecarIndex>> }} OpenedSegment
 */

/**
 * @param {any[]} segments paths, URLs, Blobs or bytes of the segments (anything openSidecarIndex takes)
 * @param {string | NodeJS.WritableStream | WritableStream | null} sink as buildSidecarIndex takes it
 * @param {import('./index.js').SidecarMergeOptions} [options]
 */
export async function mergeSidecarSegments(segments, sink, options = {}) {
  if (!Array.isArray(segments) || !segments.length) throw invalidArgument('mergeSidecarSegments needs the segments to merge')
  const { signal } = options
  const outBase = typeof sink === 'string' ? (await import('node:path')).dirname(sink) : undefined
  /** @type {OpenedSegment[]} */
  const opened = []
  try {
    for (const source of segments) {
      const mark = await readSegmentMark(source, { signal, fetch: options.fetch })
      const index = await openSidecarIndex(source, { signal, fetch: options.fetch })
      opened.push({ source, mark, index })
      await index.loadDirectory({ signal })
    }
    const [first] = opened
    const format = options.format ?? (first.index.directory.version === 2 ? 2 : 1)
    const { fpp } = first.index.directory
    const columns = first.index.columns
    for (const { source, index } of opened) {
      if (index.directory.fpp !== fpp) {
        throw invalidArgument(`${nameOf(source)}: built with fpp ${index.directory.fpp}, ${nameOf(first.source)} with ${fpp}`)
      }
      if (JSON.stringify(index.columns) !== JSON.stringify(columns)) {
        throw invalidArgument(`${nameOf(source)}: indexes columns ${index.columns.join(', ')}, ` +
          `${nameOf(first.source)} ${columns.join(', ')}`)
      }
    }
    const order = mergeOrder(opened)
    const rebase = await rebaser(opened, outBase)
    const copied = async function* () {
      for (const { at, entry } of order) {
        const file = await copyEntry(opened[at].index, entry)
        yield { ...file, path: rebase(at, file.path) }
      }
    }
    const counted = { files: 0, chunks: 0 }
    const files = async function* () {
      for await (const file of copied()) {
        counted.files++
        for (const g of file.rowGroups) for (const c of Object.values(g.chunks)) if (c) counted.chunks++
        yield file
      }
    }
    const { bytesWritten, blob } = await writeSidecarFiles(files(), sink, { format, fpp, columns, segmentBytes: options.segmentBytes })
    return { format, segments: opened.length, ...counted, bytesWritten, ...(blob ? { blob } : {}) }
  } finally {
    await Promise.all(opened.map(({ index }) => index.close()))
  }
}

/**
 * The entries of all segments in the order to write them: by position when every segment is a shard of
 * one build (all n shards, each once), else by path. A path twice is refused: two entries for one file.
 * @param {OpenedSegment[]} opened
 */
function mergeOrder(opened) {
  const all = opened.flatMap(({ index, mark }, at) => index.files.map((entry, k) => ({ at, entry, position: mark?.positions[k] })))
  const maybeMarks = opened.map((o) => o.mark)
  if (maybeMarks.every(Boolean)) {
    const marks = /** @type {SegmentMark[]} */ (maybeMarks)
    const { count, files } = marks[0]
    if (marks.some((m) => m.count !== count || m.files !== files)) {
      throw invalidArgument('the segments come from different builds (their shard counts or file counts differ)')
    }
    const shards = new Set(marks.map((m) => m.shard))
    if (shards.size !== marks.length) throw invalidArgument('a shard is given twice')
    if (shards.size !== count) {
      throw invalidArgument(`shards ${[...Array(count).keys()].filter((s) => !shards.has(s)).join(', ')} of ${count} are missing: ` +
        'the merged index would lack their files')
    }
    for (const [k, o] of opened.entries()) {
      if (marks[k].positions.length !== o.index.files.length) {
        throw invalidArgument(`${nameOf(opened[k].source)}: its mark lists ${marks[k].positions.length} files, ` +
          `its index ${o.index.files.length}`)
      }
    }
    // Every entry has its position: every segment's mark lists one per file (above).
    all.sort((a, b) => /** @type {number} */ (a.position) - /** @type {number} */ (b.position))
  } else {
    all.sort((a, b) => (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0))
  }
  for (let i = 1; i < all.length; i++) {
    if (all[i].entry.path === all[i - 1].entry.path) throw invalidArgument(`${all[i].entry.path} is in two of the segments`)
  }
  return all
}

/**
 * Recorded paths are relative to the directory of the index that records them: a segment in another
 * directory than the merged index has its relative paths rewritten for the merged index's.
 * @param {OpenedSegment[]} opened
 * @param {string | undefined} outBase
 * @returns {Promise<(at: number, p: string) => string>}
 */
async function rebaser(opened, outBase) {
  if (outBase === undefined) return (at, p) => p
  const path = await import('node:path')
  const bases = opened.map(({ source }) => (typeof source === 'string' && !/^https?:\/\//i.test(source) ? path.dirname(source) : undefined))
  return (at, p) => {
    const from = bases[at]
    if (from === undefined || /^https?:\/\//i.test(p) || path.isAbsolute(p) || path.resolve(from) === path.resolve(outBase)) return p
    const relative = path.relative(outBase, path.resolve(from, p))
    return relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(from, p) : relative.split(path.sep).join('/')
  }
}

/** @param {unknown} source */
function nameOf(source) {
  return typeof source === 'string' ? source : source instanceof URL ? source.href : 'a segment'
}
