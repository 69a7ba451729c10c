// Decodes a Parquet PageHeader (parquet.thrift PageHeader, DictionaryPageHeader) from Thrift compact
// protocol bytes, bounds-checked: every read stays inside `bytes`, nesting is capped, and any field
// this reader does not need is skipped, so hostile bytes give { problem } and never a throw or a hang.
// Written here rather than taken from hyparquet because hyparquet exports no page header reader in its
// public API and its internal one recurses without a bound.

// Thrift compact protocol wire types
const T = Object.freeze({
  STOP: 0, TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12, UUID: 13,
})
// A PageHeader nests two levels (DataPageHeader → Statistics); more than this is not a page header.
const MAX_DEPTH = 16

export const PageType = Object.freeze({ DATA_PAGE: 0, INDEX_PAGE: 1, DICTIONARY_PAGE: 2, DATA_PAGE_V2: 3 })

class Malformed extends Error {}

class Reader {
  constructor(bytes) {
    this.bytes = bytes
    this.at = 0
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Malformed('truncated')
    return this.bytes[this.at++]
  }

  skip(n) {
    if (n > this.bytes.length - this.at) throw new Malformed('truncated')
    this.at += n
  }

  /** Unsigned LEB128 up to 64 bits, as a number (exact up to 2^53; larger only needs to be "large"). */
  varint() {
    let value = 0
    let scale = 1
    for (let i = 0; i < 10; i++) {
      const b = this.byte()
      value += (b & 0x7f) * scale
      if (!(b & 0x80)) return value
      scale *= 128
    }
    throw new Malformed('a varint longer than 10 bytes')
  }

  /** A zigzag i32; anything outside the i32 range is malformed. */
  i32() {
    const raw = this.varint()
    if (raw > 0xffffffff) throw new Malformed('an i32 field out of range')
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2
  }

  /** Skips a value of wire type `type` (compact protocol), recursing at most MAX_DEPTH levels. */
  skipValue(type, depth) {
    switch (type) {
      case T.TRUE: case T.FALSE: return
      case T.BYTE: return this.skip(1)
      case T.I16: case T.I32: case T.I64: this.varint(); return
      case T.DOUBLE: return this.skip(8)
      case T.UUID: return this.skip(16)
      case T.BINARY: return this.skip(this.varint())
      case T.LIST: case T.SET: {
        const header = this.byte()
        const size = (header >> 4) === 15 ? this.varint() : header >> 4
        // A bool in a list takes a byte; every element takes at least one, so `size` is bounded by the input.
        const elementType = header & 0x0f
        const skipAs = elementType === T.TRUE || elementType === T.FALSE ? T.BYTE : elementType
        for (let i = 0; i < size; i++) this.skipValue(skipAs, depth)
        return
      }
      case T.MAP: {
        const size = this.varint()
        if (size === 0) return
        const types = this.byte()
        for (let i = 0; i < size; i++) {
          this.skipValue(types >> 4, depth)
          this.skipValue(types & 0x0f, depth)
        }
        return
      }
      case T.STRUCT: return this.struct(depth + 1, () => false)
      default: throw new Malformed(`unknown Thrift wire type ${type}`)
    }
  }

  /** Reads a struct's fields; `onField(id, type)` reads the ones it knows (returns true), the rest are skipped. */
  struct(depth, onField) {
    if (depth > MAX_DEPTH) throw new Malformed(`structs nested deeper than ${MAX_DEPTH}`)
    let id = 0
    for (;;) {
      const header = this.byte()
      const type = header & 0x0f
      if (type === T.STOP) return
      const delta = header >> 4
      id = delta ? id + delta : this.i32()
      if (!onField(id, type)) this.skipValue(type, depth)
    }
  }
}

/** @typedef {{ numValues?: number, encoding?: number, isSorted?: boolean }} DictionaryPageHeader */
/**
 * @typedef {{ type?: number, uncompressedPageSize?: number, compressedPageSize?: number, crc?: number,
 *   dictionary?: DictionaryPageHeader }} PageHeader
 */

/**
 * Decodes the PageHeader at the start of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {{ header: PageHeader, length: number } | { problem: string }}
 *   `length` is the header's size in bytes: the page data starts there.
 */
export function decodePageHeader(bytes) {
  const reader = new Reader(bytes)
  /** @type {PageHeader} */
  const header = {}
  const i32Field = (type) => {
    if (type !== T.I32) throw new Malformed('a PageHeader integer field has the wrong Thrift type')
    return reader.i32()
  }
  try {
    reader.struct(0, (id, type) => {
      switch (id) {
        case 1: header.type = i32Field(type); return true
        case 2: header.uncompressedPageSize = i32Field(type); return true
        case 3: header.compressedPageSize = i32Field(type); return true
        case 4: header.crc = i32Field(type); return true
        case 7: {
          if (type !== T.STRUCT) throw new Malformed('dictionary_page_header is not a struct')
          const dictionary = (header.dictionary = /** @type {DictionaryPageHeader} */ ({}))
          reader.struct(1, (field, fieldType) => {
            if (field === 1) dictionary.numValues = i32Field(fieldType)
            else if (field === 2) dictionary.encoding = i32Field(fieldType)
            else if (field === 3 && (fieldType === T.TRUE || fieldType === T.FALSE)) dictionary.isSorted = fieldType === T.TRUE
            else return false
            return true
          })
          return true
        }
        default: return false
      }
    })
  } catch (error) {
    if (error instanceof Malformed) return { problem: `the page header does not decode: ${error.message}` }
    throw error
  }
  return { header, length: reader.at }
}
