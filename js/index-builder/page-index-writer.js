// A column chunk's page index (parquet-format PageIndex.md), built while its pages are scanned for a
// bloom filter: the OffsetIndex (each data page's offset, size with its header, first row) and — when
// the file declares TYPE_ORDER for the column, in which page bounds are defined — the ColumnIndex (per
// page: null_pages, PLAIN-encoded min/max in the column's sort order, null_counts; boundary_order
// UNORDERED). Serialized with the Thrift compact protocol. Pages that do not start a row, or bounds that
// cannot be written (a page of NaNs only), leave the chunk without the index in doubt.
import { concatBytes } from '../format/bytes.js'
import { varint } from '../format/thrift-writer.js'
import { T } from '../format/thrift-compact.js'
import { listHeader, intValue } from './footer-splice.js'
import { pick, ValueBounds } from './chunk-values.js'

const utf8 = new TextEncoder()

/**
 * A ValueSink that passes values on to `inner` and keeps each data page's bounds (js/index-builder/chunk-scan.js
 * calls pageStart/pageEnd).
 */
export class PageIndexFeed {
  /**
   * @param {{ dictionary: Function, plain: Function, indexes: Function, finish: Function }} inner
   * @param {import('../footer/footer.js').LeafColumn} column
   * @param {boolean} withBounds
   */
  constructor(inner, column, withBounds) {
    this.inner = inner
    this.column = column
    this.withBounds = withBounds
    /** @type {ArrayLike<unknown> | undefined} */
    this.dictionaryValues = undefined
    /** @type {ValueBounds | undefined} the bounds of the page being scanned */
    this.current = undefined
    /**
     * @type {Array<{ offset: number, size: number, rows: number, levels: number, present: number, startsRow: boolean,
     *   bounds?: ValueBounds }>}
     */
    this.pages = []
  }

  /** @param {ArrayLike<unknown>} values */
  dictionary(values) {
    this.dictionaryValues = values
    this.inner.dictionary(values)
  }

  pageStart() {
    this.current = this.withBounds ? new ValueBounds(this.column) : undefined
  }

  /** @param {ArrayLike<unknown> | import('./chunk-values.js').ColumnarBytes} values */
  plain(values) {
    this.inner.plain(values)
    this.current?.add(values)
  }

  /** @param {ArrayLike<number>} indexes */
  indexes(indexes) {
    this.inner.indexes(indexes)
    // Indexes follow their dictionary.
    if (this.current && indexes.length) this.current.add(pick(/** @type {ArrayLike<unknown>} */ (this.dictionaryValues), indexes))
  }

  /** @param {{ offset: number, size: number, rows: number, levels: number, present: number, startsRow: boolean }} page */
  pageEnd(page) {
    this.pages.push({ ...page, bounds: this.current })
  }

  finish() {
    this.inner.finish()
  }

  /**
   * The serialized OffsetIndex and, with bounds, ColumnIndex; `problem` when pages do not start rows,
   * or a ColumnIndex could not say what its pages hold.
   * @param {number} numRows the row group's
   * @returns {{ offsetIndex: undefined, problem: string } | { offsetIndex: Uint8Array, columnIndex?: Uint8Array, problem?: string }}
   */
  serialize(numRows) {
    let firstRow = 0
    /** @type {Uint8Array[]} */
    const locations = []
    for (const p of this.pages) {
      if (!p.startsRow) return { offsetIndex: undefined, problem: 'a data page does not start at a row' }
      locations.push(concatBytes([
        Uint8Array.of(0x16), intValue(p.offset), Uint8Array.of(0x15), intValue(p.size),
        Uint8Array.of(0x16), intValue(firstRow), Uint8Array.of(0),
      ]))
      firstRow += p.rows
    }
    if (firstRow !== numRows) return { offsetIndex: undefined, problem: `the pages hold ${firstRow} rows, the row group ${numRows}` }
    // OffsetIndex { 1: list<PageLocation> page_locations }
    const offsetIndex = concatBytes([Uint8Array.of(0x19), listHeader(locations.length, T.STRUCT), ...locations, Uint8Array.of(0)])
    if (!this.withBounds) return { offsetIndex }
    /** @type {number[]} */
    const nullPages = []
    /** @type {Uint8Array[]} */
    const mins = []
    /** @type {Uint8Array[]} */
    const maxs = []
    /** @type {number[]} */
    const nullCounts = []
    for (const p of this.pages) {
      const bounds = p.bounds?.result()
      const allNull = p.present === 0
      if (!allNull && (!bounds || bounds.min === undefined)) {
        return { offsetIndex, problem: 'no ColumnIndex (the OffsetIndex is written): a page has no bounds in the column\'s order ' +
          '(NaN only, or an order bounds are not written for)' }
      }
      nullPages.push(allNull ? 1 : 2) // compact-protocol booleans in a list: 1 true, 2 false
      const b = /** @type {NonNullable<typeof bounds>} */ (bounds) // a page not all null has bounds (above)
      mins.push(allNull ? new Uint8Array(0) : plainBound(b.kind, b.min, 'min'))
      maxs.push(allNull ? new Uint8Array(0) : plainBound(b.kind, b.max, 'max'))
      nullCounts.push(p.levels - p.present)
    }
    /** @param {Uint8Array[]} list */
    const binaries = (list) => [listHeader(list.length, T.BINARY), ...list.flatMap((b) => [varint(b.length), b])]
    // ColumnIndex { 1: list<bool> null_pages, 2: list<binary> min_values, 3: list<binary> max_values,
    //   4: BoundaryOrder, 5: list<i64> null_counts }
    const columnIndex = concatBytes([
      Uint8Array.of(0x19), listHeader(nullPages.length, T.TRUE), Uint8Array.from(nullPages),
      Uint8Array.of(0x19), ...binaries(mins),
      Uint8Array.of(0x19), ...binaries(maxs),
      Uint8Array.of(0x15), intValue(0),
      Uint8Array.of(0x19), listHeader(nullCounts.length, T.I64), ...nullCounts.map((n) => intValue(n)),
      Uint8Array.of(0),
    ])
    return { offsetIndex, columnIndex }
  }
}

/**
 * A bound (a sort key) in its PLAIN encoding. A zero bound of a float column is written -0 as a min and
 * +0 as a max (PageIndex.md), so it covers both zeros.
 * @param {string} kind
 * @param {any} key a sort key of `kind`: a number, a bigint or bytes as the kind has it
 * @param {'min' | 'max'} which
 * @returns {Uint8Array}
 */
function plainBound(kind, key, which) {
  const out = new DataView(new ArrayBuffer(8))
  switch (kind) {
    case 'int32': out.setInt32(0, key, true); return new Uint8Array(out.buffer, 0, 4)
    case 'uint32': out.setUint32(0, key, true); return new Uint8Array(out.buffer, 0, 4)
    case 'int64': out.setBigInt64(0, key, true); return new Uint8Array(out.buffer, 0, 8)
    case 'uint64': out.setBigUint64(0, key, true); return new Uint8Array(out.buffer, 0, 8)
    case 'float': out.setFloat32(0, key === 0 ? (which === 'min' ? -0 : 0) : key, true); return new Uint8Array(out.buffer, 0, 4)
    case 'double': out.setFloat64(0, key === 0 ? (which === 'min' ? -0 : 0) : key, true); return new Uint8Array(out.buffer, 0, 8)
    default: return typeof key === 'string' ? utf8.encode(key) : key
  }
}
