// Synthetic Parquet footers and byte sources for the benchmarks that no real file of a sane size can
// feed: a FileMetaData of 10,000 row groups × 50 columns shaped like parquet-mr/arrow footers, and an
// AsyncBuffer that serves 10,000 row groups of 1 MiB bloom filters (~10 GB) from one template filter.
import { bloomFilterHeader, CompactWriter, T } from './thrift-compact.js'

const Type = { BOOLEAN: 0, INT32: 1, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 }
const Encoding = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 }
const PageType = { DATA_PAGE: 0, DICTIONARY_PAGE: 2 }
const ConvertedType = { UTF8: 0, DATE: 6, TIMESTAMP_MICROS: 10 }
const Repetition = { REQUIRED: 0, OPTIONAL: 1 }
const Codec = { SNAPPY: 1, ZSTD: 6 }

// Five column shapes, repeated across the schema: [name prefix, type, repetition, converted, logical, stat width].
const SHAPES = [
  ['id', Type.INT64, Repetition.REQUIRED, undefined, undefined, 8],
  ['name', Type.BYTE_ARRAY, Repetition.OPTIONAL, ConvertedType.UTF8, 'STRING', 12],
  ['day', Type.INT32, Repetition.OPTIONAL, ConvertedType.DATE, 'DATE', 4],
  ['score', Type.DOUBLE, Repetition.OPTIONAL, undefined, undefined, 8],
  ['ts', Type.INT64, Repetition.OPTIONAL, ConvertedType.TIMESTAMP_MICROS, 'TIMESTAMP', 8],
]

function schemaElement(w, { name, type, repetition, numChildren, converted, logical }) {
  if (type !== undefined) w.i32Field(1, type)
  if (repetition !== undefined) w.i32Field(3, repetition)
  w.binaryField(4, name)
  if (numChildren !== undefined) w.i32Field(5, numChildren)
  if (converted !== undefined) w.i32Field(6, converted)
  if (logical === 'STRING') w.structField(10, (u) => u.structField(1, () => {}))
  if (logical === 'DATE') w.structField(10, (u) => u.structField(6, () => {}))
  if (logical === 'TIMESTAMP') {
    w.structField(10, (u) => u.structField(8, (ts) => {
      ts.boolField(1, true)
      ts.structField(2, (unit) => unit.structField(2, () => {})) // MICROS
    }))
  }
}

function statBytes(width, seed) {
  const b = new Uint8Array(width)
  for (let i = 0; i < width; i++) b[i] = (seed * 31 + i * 17) & 0x7f
  return b
}

/**
 * Serialized FileMetaData with `rowGroups` × `columns` chunks and every field a real writer fills in:
 * encodings, path_in_schema, codec, sizes, page offsets, statistics (legacy min/max and min_value/
 * max_value), encoding_stats, page index offsets, bloom_filter_offset/length, key-value metadata.
 * @returns {{ bytes: Uint8Array, leafNames: string[] }}
 */
export function bigFooter({ rowGroups = 10000, columns = 50, rowsPerGroup = 100000, bloomBytes = 131072 } = {}) {
  const leaves = Array.from({ length: columns }, (_, c) => {
    const [prefix, type, repetition, converted, logical, width] = SHAPES[c % SHAPES.length]
    return { name: `${prefix}_${c}`, type, repetition, converted, logical, width }
  })
  const w = new CompactWriter(1 << 24)
  w.beginStruct()
  w.i32Field(1, 2)
  w.listField(2, T.STRUCT, [{ name: 'schema', numChildren: columns }, ...leaves], schemaElement)
  w.i64Field(3, rowGroups * rowsPerGroup)
  const chunkBytes = 400000
  const bloomLength = bloomFilterHeader(bloomBytes).length + bloomBytes
  const dataBytes = rowGroups * columns * chunkBytes
  const bloomBase = 4 + dataBytes
  const indexBase = bloomBase + rowGroups * columns * bloomLength
  w.fieldHeader(T.LIST, 4)
  w.listHeader(T.STRUCT, rowGroups)
  for (let g = 0; g < rowGroups; g++) {
    const groupStart = 4 + g * columns * chunkBytes
    w.beginStruct()
    w.fieldHeader(T.LIST, 1)
    w.listHeader(T.STRUCT, columns)
    for (let c = 0; c < columns; c++) {
      const leaf = leaves[c]
      const k = g * columns + c
      const start = groupStart + c * chunkBytes
      w.beginStruct()
      w.i64Field(2, start)
      w.structField(3, (m) => {
        m.i32Field(1, leaf.type)
        m.listField(2, T.I32, [Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY], (u, e) => u.zigzag(e))
        m.listField(3, T.BINARY, [leaf.name], (u, s) => u.binary(s))
        m.i32Field(4, c % 2 ? Codec.ZSTD : Codec.SNAPPY)
        m.i64Field(5, rowsPerGroup)
        m.i64Field(6, chunkBytes * 2 + (k % 977))
        m.i64Field(7, chunkBytes - (k % 977))
        m.i64Field(9, start + 20000)
        m.i64Field(11, start)
        m.structField(12, (s) => {
          const max = statBytes(leaf.width, k + 1)
          const min = statBytes(leaf.width, k)
          s.binaryField(1, max)
          s.binaryField(2, min)
          s.i64Field(3, leaf.repetition === Repetition.OPTIONAL ? k % 113 : 0)
          s.binaryField(5, max)
          s.binaryField(6, min)
        })
        m.listField(13, T.STRUCT, [[PageType.DICTIONARY_PAGE, Encoding.PLAIN, 1], [PageType.DATA_PAGE, Encoding.RLE_DICTIONARY, 8]], (u, [pageType, encoding, count]) => {
          u.i32Field(1, pageType)
          u.i32Field(2, encoding)
          u.i32Field(3, count)
        })
        m.i64Field(14, bloomBase + k * bloomLength)
        m.i32Field(15, bloomLength)
      })
      w.i64Field(4, indexBase + k * 200)
      w.i32Field(5, 40)
      w.i64Field(6, indexBase + k * 200 + 40)
      w.i32Field(7, 160)
      w.endStruct()
    }
    w.i64Field(2, columns * chunkBytes * 2)
    w.i64Field(3, rowsPerGroup)
    w.i64Field(5, groupStart)
    w.i64Field(6, columns * chunkBytes)
    w.fieldHeader(T.I16, 7)
    w.zigzag(g % 32768)
    w.endStruct()
  }
  // An ARROW:schema-like blob, as arrow writes: a few KB hyparquet decodes and ours skips.
  w.listField(5, T.STRUCT, [['ARROW:schema', 'A'.repeat(columns * 120)], ['writer.model.name', 'example']], (u, [key, value]) => {
    u.binaryField(1, key)
    u.binaryField(2, value)
  })
  w.binaryField(6, 'parquet-cpp-arrow version 21.0.0 (synthetic, parquet-bloom bench)')
  w.listField(7, T.STRUCT, leaves, (u) => u.structField(1, () => {})) // TypeDefinedOrder
  w.endStruct()
  return { bytes: w.bytes(), leafNames: leaves.map((l) => l.name) }
}

/** The whole-file tail a Parquet reader expects after the metadata: its length and PAR1. */
export function withFileTail(metadata) {
  const out = new Uint8Array(metadata.length + 8)
  out.set(metadata)
  new DataView(out.buffer).setUint32(metadata.length, metadata.length, true)
  out.set([0x50, 0x41, 0x52, 0x31], metadata.length + 4)
  return out
}

/**
 * An AsyncBuffer ({ byteLength, slice }) for a file of `rowGroups` row groups with one INT64 column
 * `id`, each row group holding a 64-byte data page and then `filterBytes` (header + bitset, the bitset
 * copied from `bitset`). Bytes are synthesised per slice; each slice resolves on a later macrotask,
 * like a network read, so concurrent visits really overlap.
 */
export function syntheticFilterFile({ rowGroups, bitset }) {
  const header = bloomFilterHeader(bitset.length)
  const filter = new Uint8Array(header.length + bitset.length)
  filter.set(header)
  filter.set(bitset, header.length)
  const pageBytes = 64
  const region = pageBytes + filter.length
  const w = new CompactWriter(1 << 20)
  w.beginStruct()
  w.i32Field(1, 2)
  w.listField(2, T.STRUCT, [{ name: 'schema', numChildren: 1 }, { name: 'id', type: Type.INT64, repetition: Repetition.REQUIRED }], schemaElement)
  w.i64Field(3, rowGroups * 1000)
  w.fieldHeader(T.LIST, 4)
  w.listHeader(T.STRUCT, rowGroups)
  for (let g = 0; g < rowGroups; g++) {
    const start = 4 + g * region
    w.beginStruct()
    w.listField(1, T.STRUCT, [0], (u) => {
      u.i64Field(2, start)
      u.structField(3, (m) => {
        m.i32Field(1, Type.INT64)
        m.listField(2, T.I32, [Encoding.PLAIN], (v, e) => v.zigzag(e))
        m.listField(3, T.BINARY, ['id'], (v, s) => v.binary(s))
        m.i32Field(4, 0)
        m.i64Field(5, 1000)
        m.i64Field(6, pageBytes)
        m.i64Field(7, pageBytes)
        m.i64Field(9, start)
        m.i64Field(14, start + pageBytes)
        m.i32Field(15, filter.length)
      })
    })
    w.i64Field(2, pageBytes)
    w.i64Field(3, 1000)
    w.endStruct()
  }
  w.endStruct()
  const tail = withFileTail(w.bytes())
  const footerStart = 4 + rowGroups * region
  const byteLength = footerStart + tail.length

  const fill = (out, start) => {
    let pos = start
    const end = start + out.length
    while (pos < end) {
      const at = pos - start
      if (pos < 4) {
        const magic = [0x50, 0x41, 0x52, 0x31]
        out[at] = magic[pos]
        pos++
      } else if (pos >= footerStart) {
        const n = Math.min(end - pos, byteLength - pos)
        out.set(tail.subarray(pos - footerStart, pos - footerStart + n), at)
        pos += n
      } else {
        const inner = (pos - 4) % region
        const regionEnd = pos - inner + region
        const n = Math.min(end, regionEnd) - pos
        if (inner >= pageBytes) out.set(filter.subarray(inner - pageBytes, inner - pageBytes + n), at)
        else {
          const zeros = Math.min(n, pageBytes - inner)
          out.fill(0, at, at + zeros)
          if (n > zeros) out.set(filter.subarray(0, n - zeros), at + zeros)
        }
        pos += n
      }
    }
  }

  return {
    byteLength,
    filterLength: filter.length,
    filterOffset: (g) => 4 + g * region + pageBytes,
    slice(start, end = byteLength) {
      const out = new Uint8Array(end - start)
      fill(out, start)
      return new Promise((resolve) => setImmediate(() => resolve(out.buffer)))
    },
  }
}
