// file.metadata (docs/api.md "file.metadata") built as it is read: a footer of thousands of row groups answers
// rowGroups.length at once, a row group is made when it is first read, and a column of it when that is
// (decoding the column's chunk index records, every row group's, once). It keeps the documented shape:
// rowGroups and columns are Arrays (Proxies of them), so JSON.stringify, spreading, iteration,
// Array.isArray and the array methods see every element; structuredClone refuses Proxies, so a copy
// for postMessage is JSON.parse(JSON.stringify(metadata)).
import { chunk } from '../footer/records.js'
import { chunkIndexes } from './index-coverage.js'

/** @param {import('../footer/file-geometry.js').FileGeometry} geometry */
export function lazyMetadata(geometry) {
  const { layout } = geometry
  const { rowGroupRows } = layout
  return {
    numRows: layout.numRows,
    createdBy: layout.createdBy,
    rowGroups: lazyArray(rowGroupRows.length, (g) => ({ index: g, numRows: rowGroupRows[g], columns: rowGroupColumns(geometry, g) })),
  }
}

/**
 * @param {import('../footer/file-geometry.js').FileGeometry} geometry
 * @param {number} g
 */
function rowGroupColumns(geometry, g) {
  const { layout } = geometry
  const { columns } = layout
  return lazyArray(columns.length, (i) => {
    const c = columns[i]
    const { bloomOffset: offset, bloomLength: length } = chunk(layout, g, i)
    return {
      path: c.name,
      pathInSchema: c.path,
      physicalType: c.physicalType,
      typeLength: c.typeLength,
      logicalType: c.logicalType,
      // -1 is the decoder's "absent"; any other offset, even a bad one, is what the file says.
      bloom: offset !== -1 ? { offset, length: length >= 0 ? length : undefined } : null,
      indexes: chunkIndexes(geometry, g, i), // decodes this column's chunk index records, once
    }
  })
}

/**
 * An Array of `length` elements (a Proxy of one), element i made by make(i) when first read and kept:
 * by index, iteration, an array method, JSON.stringify, Object.keys or a property descriptor.
 * @template T
 * @param {number} length
 * @param {(index: number) => T} make
 * @returns {T[]}
 */
export function lazyArray(length, make) {
  /** @type {T[]} */
  const target = new Array(length)
  /** @param {string | symbol} key */
  const isIndex = (key) => typeof key === 'string' && String(Number(key) >>> 0) === key && Number(key) < length
  /** @param {string | symbol} key */
  const ensure = (key) => {
    if (isIndex(key) && !Object.prototype.hasOwnProperty.call(target, key)) target[Number(key)] = make(Number(key))
  }
  return new Proxy(target, {
    get(t, key, receiver) {
      ensure(key)
      return Reflect.get(t, key, receiver)
    },
    has: (t, key) => isIndex(key) || Reflect.has(t, key),
    getOwnPropertyDescriptor(t, key) {
      ensure(key)
      return Reflect.getOwnPropertyDescriptor(t, key)
    },
    ownKeys(t) {
      for (let i = 0; i < length; i++) ensure(String(i))
      return Reflect.ownKeys(t)
    },
  })
}
