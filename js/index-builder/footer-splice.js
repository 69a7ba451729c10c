// A splice over serialized FileMetaData (parquet.thrift, Thrift compact protocol): the footer is walked
// once to find every RowGroup, ColumnChunk and ColumnMetaData and the key-value metadata, and a new
// footer is assembled from the original bytes with only the structs that change re-serialized —
// ColumnMetaData.bloom_filter_offset/length (fields 14, 15), ColumnChunk's page index fields (4–7) and
// one key-value entry. Every other byte, unknown fields included, is copied as it was.
import { CompactReader, Malformed, T } from '../format/thrift-compact.js'
import { concatBytes } from '../format/bytes.js'
import { longFieldHeader, varint } from '../format/thrift-writer.js'

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder()

/**
 * @typedef {{ id: number, type: number, start: number, valueStart: number, end: number, child?: unknown }} Field
 *   start: the field header; valueStart..end: its value (empty for a boolean, whose value is its type)
 * @typedef {{ start: number, fields: Field[], end: number }} Struct end: after the stop byte
 * @typedef {{ rowGroup: number, column: number, struct: Struct, meta: Struct | undefined }} ChunkPlace
 * @typedef {{ top: Struct, rowGroups: Array<{ struct: Struct, chunks: ChunkPlace[] }>,
 *   keyValues: Array<{ key: string, start: number, end: number }> | undefined,
 *   encrypted: boolean }} FooterMap
 * @typedef {{ bloom?: { offset: number, length: number }, columnIndex?: { offset: number, length: number },
 *   offsetIndex?: { offset: number, length: number }, encryptedMetaData?: Uint8Array }} ChunkEdit
 *   where a chunk's new filter and page indexes lie; encryptedMetaData: a new encrypted_column_metadata module holding the
 *   bloom location (the plaintext ColumnMetaData, if any, is then kept)
 */

/**
 * Reads one struct's fields; `descend(id, type)` may read a field's value itself and return what it found.
 * @param {CompactReader} r
 * @param {(id: number, type: number) => unknown} [descend]
 * @returns {Struct}
 */
function readStruct(r, descend) {
  const structStart = r.at
  /** @type {Field[]} */
  const fields = []
  let lastId = 0
  for (;;) {
    const start = r.at
    const { id, type } = r.fieldHeader(lastId)
    if (type === 0) return { start: structStart, fields, end: r.at }
    const valueStart = r.at
    const child = descend?.(id, type)
    if (child === undefined) r.skip(type)
    fields.push({ id, type, start, valueStart, end: r.at, child })
    lastId = id
  }
}

/**
 * @template E
 * @param {CompactReader} r
 * @param {string} what
 * @param {(index: number) => E} readElement
 * @returns {E[]}
 */
function readListOf(r, what, readElement) {
  const { elemType, count } = r.listHeader(what)
  if (count > 0 && elemType !== T.STRUCT) throw new Malformed(`${what} does not hold structs (Thrift type ${elemType})`)
  /** @type {E[]} */
  const out = []
  for (let i = 0; i < count; i++) out.push(readElement(i))
  return out
}

/**
 * Maps a footer: where each RowGroup, ColumnChunk (and its ColumnMetaData) and key-value entry lies.
 * Throws Malformed.
 * @param {Uint8Array} bytes serialized FileMetaData
 * @returns {FooterMap}
 */
export function mapFooter(bytes) {
  const r = new CompactReader(bytes)
  /** @type {Omit<FooterMap, 'top'> & { top?: Struct }} the top struct once it is read */
  const map = { top: undefined, rowGroups: [], keyValues: undefined, encrypted: false }
  map.top = readStruct(r, (id, type) => {
    if (id === 4 && type === T.LIST) {
      map.rowGroups = readListOf(r, 'FileMetaData.row_groups', (g) => {
        /** @type {ChunkPlace[]} */
        const chunks = []
        const struct = readStruct(r, (rid, rtype) => {
          if (rid !== 1 || rtype !== T.LIST) return undefined
          readListOf(r, 'RowGroup.columns', (c) => {
            /** @type {Struct | undefined} */
            let meta
            const chunk = readStruct(r, (cid, ctype) => {
              if (cid === 8 || cid === 9) map.encrypted = true // crypto_metadata, encrypted_column_metadata
              if (cid !== 3 || ctype !== T.STRUCT) return undefined
              meta = readStruct(r)
              return meta
            })
            chunks.push({ rowGroup: g, column: c, struct: chunk, meta })
          })
          return chunks
        })
        return { struct, chunks }
      })
      return map.rowGroups
    }
    if (id === 5 && type === T.LIST) {
      map.keyValues = readListOf(r, 'FileMetaData.key_value_metadata', () => {
        const start = r.at
        let key = ''
        readStruct(r, (kid, ktype) => {
          if (kid !== 1 || ktype !== T.BINARY) return undefined
          key = utf8Decoder.decode(r.binary())
          return key
        })
        return { key, start, end: r.at }
      })
      return map.keyValues
    }
    if (id === 8) map.encrypted = true // encryption_algorithm: a plaintext footer of an encrypted file
    return undefined
  })
  return /** @type {FooterMap} */ (map)
}

/**
 * The fields of the struct serialized at the start of `bytes`. Throws Malformed.
 * @param {Uint8Array} bytes
 */
export function mapStruct(bytes) {
  return readStruct(new CompactReader(bytes))
}

/**
 * A compact-protocol list header.
 * @param {number} count
 * @param {number} elemType
 */
export function listHeader(count, elemType) {
  return count < 15 ? Uint8Array.of((count << 4) | elemType) : concatBytes([Uint8Array.of(0xf0 | elemType), varint(count)])
}

/**
 * An i64 or i32 value (zigzag varint) of a non-negative integer.
 * @param {number} n
 */
export function intValue(n) {
  return varint(n * 2)
}

/**
 * A KeyValue struct { 1: key, 2: value }.
 * @param {string} key
 * @param {string} value
 */
export function keyValueStruct(key, value) {
  const k = utf8.encode(key)
  const v = utf8.encode(value)
  return concatBytes([Uint8Array.of(0x18), varint(k.length), k, Uint8Array.of(0x18), varint(v.length), v, Uint8Array.of(0)])
}

/**
 * A struct's bytes with some fields set (added or replaced, by id) or, set to null, dropped — as parts,
 * mostly views of `bytes`. When every set field already exists with the same type only their values
 * change and every field header stays as it was; otherwise all headers are written in the long form
 * (valid whatever id precedes them) and new fields go before the first field with a larger id.
 * @param {Uint8Array} bytes
 * @param {Struct} struct
 * @param {Map<number, { type: number, parts: Uint8Array[] } | null>} set
 * @returns {Uint8Array[]}
 */
export function spliceStruct(bytes, struct, set) {
  /** @type {Uint8Array[]} */
  const out = []
  const inPlace = [...set].every(([id, v]) => v !== null && struct.fields.some((f) => f.id === id && f.type === v.type))
  if (inPlace) {
    for (const f of struct.fields) {
      out.push(bytes.subarray(f.start, f.valueStart))
      const value = set.get(f.id)
      if (value) out.push(...value.parts)
      else out.push(bytes.subarray(f.valueStart, f.end))
    }
  } else {
    const pending = /** @type {Array<[number, { type: number, parts: Uint8Array[] }]>} */ ([...set]
      .filter(([id, v]) => v !== null && !struct.fields.some((f) => f.id === id)).sort((a, b) => a[0] - b[0]))
    /**
     * @param {number} id
     * @param {number} type
     * @param {Uint8Array[]} parts
     */
    const emit = (id, type, parts) => out.push(longFieldHeader(type, id), ...parts)
    for (const f of struct.fields) {
      while (pending.length && pending[0][0] < f.id) {
        const [id, v] = /** @type {[number, { type: number, parts: Uint8Array[] }]} */ (pending.shift())
        emit(id, v.type, v.parts)
      }
      const value = set.get(f.id)
      if (value) emit(f.id, value.type, value.parts)
      else if (value !== null) emit(f.id, f.type, [bytes.subarray(f.valueStart, f.end)])
    }
    for (const [id, v] of pending) emit(id, v.type, v.parts)
  }
  out.push(Uint8Array.of(0))
  return out
}

/**
 * The parts of a field's value, with the value of one child field replaced (parents of a spliced struct).
 * @param {Uint8Array} bytes
 * @param {Struct} struct
 * @param {number} fieldId a field the struct has (the one the child was found in)
 * @param {Uint8Array[]} parts
 */
function withChild(bytes, struct, fieldId, parts) {
  const field = /** @type {Field} */ (struct.fields.find((f) => f.id === fieldId))
  return spliceStruct(bytes, struct, new Map([[fieldId, { type: field.type, parts }]]))
}

/**
 * A new footer: `edits` by chunk (row group × column count + column) set bloom filter and page index
 * locations; `keyValue` replaces any entry with its key, or is appended.
 * @param {Uint8Array} bytes
 * @param {FooterMap} map
 * @param {Map<number, ChunkEdit>} edits
 * @param {{ key: string, value: string }} keyValue
 * @param {number} numColumns
 */
export function spliceFooter(bytes, map, edits, keyValue, numColumns) {
  /** @type {Uint8Array[]} */
  const rowGroupParts = []
  for (const [g, rowGroup] of map.rowGroups.entries()) {
    const touched = rowGroup.chunks.some((c) => edits.has(g * numColumns + c.column))
    if (!touched) {
      rowGroupParts.push(bytes.subarray(rowGroup.struct.start, rowGroup.struct.end))
      continue
    }
    // The row group's chunks were found in its columns field.
    const columnsField = /** @type {Field} */ (rowGroup.struct.fields.find((f) => f.id === 1))
    const chunkParts = [bytes.subarray(columnsField.valueStart, rowGroup.chunks[0].struct.start)]
    for (const chunk of rowGroup.chunks) {
      const edit = edits.get(g * numColumns + chunk.column)
      if (!edit) {
        chunkParts.push(bytes.subarray(chunk.struct.start, chunk.struct.end))
        continue
      }
      const chunkSet = new Map()
      if (edit.encryptedMetaData) {
        chunkSet.set(9, { type: T.BINARY, parts: [varint(edit.encryptedMetaData.length), edit.encryptedMetaData] })
      } else if (edit.bloom) {
        if (!chunk.meta) throw new Malformed(`row group ${g}, column ${chunk.column} has no ColumnMetaData to point at a filter`)
        const metaSet = new Map([
          [14, { type: T.I64, parts: [intValue(edit.bloom.offset)] }],
          [15, { type: T.I32, parts: [intValue(edit.bloom.length)] }],
        ])
        chunkSet.set(3, { type: T.STRUCT, parts: spliceStruct(bytes, chunk.meta, metaSet) })
      }
      if (edit.offsetIndex) {
        chunkSet.set(4, { type: T.I64, parts: [intValue(edit.offsetIndex.offset)] })
        chunkSet.set(5, { type: T.I32, parts: [intValue(edit.offsetIndex.length)] })
      }
      if (edit.columnIndex) {
        chunkSet.set(6, { type: T.I64, parts: [intValue(edit.columnIndex.offset)] })
        chunkSet.set(7, { type: T.I32, parts: [intValue(edit.columnIndex.length)] })
      }
      chunkParts.push(...spliceStruct(bytes, chunk.struct, chunkSet))
    }
    rowGroupParts.push(...withChild(bytes, rowGroup.struct, 1, chunkParts))
  }
  // FileMetaData.row_groups is a required field.
  const rowGroupsField = /** @type {Field} */ (map.top.fields.find((f) => f.id === 4))
  const rowGroupsValue = map.rowGroups.length
    ? [bytes.subarray(rowGroupsField.valueStart, map.rowGroups[0].struct.start), ...rowGroupParts]
    : [bytes.subarray(rowGroupsField.valueStart, rowGroupsField.end)]
  const kept = (map.keyValues ?? []).filter((kv) => kv.key !== keyValue.key)
  const kvValue = [
    listHeader(kept.length + 1, T.STRUCT),
    ...kept.map((kv) => bytes.subarray(kv.start, kv.end)),
    keyValueStruct(keyValue.key, keyValue.value),
  ]
  const top = new Map([[4, { type: T.LIST, parts: rowGroupsValue }], [5, { type: T.LIST, parts: kvValue }]])
  return concatBytes(spliceStruct(bytes, map.top, top))
}
