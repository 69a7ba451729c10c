// How probe-able a dataset is, per column: the share of its files and row groups whose chunks carry
// usable statistics, a page index, a dictionary that covers every data page, and a bloom filter — the
// per-chunk facts of js/indexes/index-coverage.js (file.metadata … indexes), added up over files.

/** @typedef {'statistics' | 'pageIndex' | 'dictionaryOnly' | 'bloomFilter'} IndexKind */
/** @type {IndexKind[]} */
const KINDS = ['statistics', 'pageIndex', 'dictionaryOnly', 'bloomFilter']

/**
 * What each kind means for one chunk's `indexes` (js/indexes/index-coverage.js chunkIndexes).
 * @type {Record<IndexKind, (ix: ReturnType<typeof import('../indexes/index-coverage.js').chunkIndexes>) => boolean>}
 */
const HAS = {
  statistics: (ix) => ix.statistics.usable,
  pageIndex: (ix) => ix.pageIndex.columnIndex && ix.pageIndex.offsetIndex,
  dictionaryOnly: (ix) => ix.dictionary.present && ix.dictionary.allDataPages === true,
  bloomFilter: (ix) => ix.bloomFilter,
}

export class CoverageTally {
  /** @type {Map<string, { physicalTypes: Set<string>, files: number, rowGroups: number, counts: Record<string, { files:
   * number, rowGroups: number }> }>} */
  #columns = new Map()

  /** @param {{ rowGroups: Array<{ columns: Array<{ path: string, physicalType: string, indexes: any }> }> }} metadata one
   * file's (ParquetFile.metadata) */
  add(metadata) {
    const perColumn = new Map()
    for (const group of metadata.rowGroups) {
      for (const chunk of group.columns) {
        let seen = perColumn.get(chunk.path)
        if (!seen) perColumn.set(chunk.path,
          (seen = { physicalType: chunk.physicalType, rowGroups: 0, has: Object.fromEntries(KINDS.map((k) => [k, 0])) }))
        seen.rowGroups++
        for (const kind of KINDS) if (HAS[kind](chunk.indexes)) seen.has[kind]++
      }
    }
    for (const [path, seen] of perColumn) {
      let column = this.#columns.get(path)
      if (!column) this.#columns.set(path,
        (column = { physicalTypes: new Set(), files: 0, rowGroups: 0,
          counts: Object.fromEntries(KINDS.map((k) => [k, { files: 0, rowGroups: 0 }])) }))
      column.physicalTypes.add(seen.physicalType)
      column.files++
      column.rowGroups += seen.rowGroups
      for (const kind of KINDS) {
        column.counts[kind].rowGroups += seen.has[kind]
        // A file counts when every one of its row groups has the index: then it answers for the whole file.
        if (seen.has[kind] === seen.rowGroups) column.counts[kind].files++
      }
    }
  }

  /** Per column (in first-seen order): files and row groups holding it, and per kind how many of them have it. */
  result() {
    return [...this.#columns].map(([column, c]) =>
      ({ column, physicalTypes: [...c.physicalTypes], files: c.files, rowGroups: c.rowGroups, ...c.counts }))
  }
}
