// A bounds-checked Thrift compact-protocol reader for the structs JS decodes itself (PageHeader,
// ColumnIndex, OffsetIndex; thrift/doc/specs/thrift-compact-protocol.md): every read stays inside the
// bytes, every list count is checked against the bytes left before anything is allocated, and skipping
// unknown fields is depth-bounded, so hostile bytes end in a Malformed (which callers turn into a typed
// result), never an unbounded allocation or a hang.

// Thrift compact type ids
export const T = Object.freeze({
  TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12, UUID: 13,
})
// Fields we do not read (histograms, newer additions) are skipped; real ones nest two levels at most.
const MAX_SKIP_DEPTH = 32
const I32_MIN = -(2 ** 31)
const I32_MAX = 2 ** 31 - 1

/** Thrown by the reader and its callers' decoders; each decoder turns it into its typed result. */
export class Malformed {
  /** @param {string} detail */
  constructor(detail) {
    this.detail = detail
  }
}

export class CompactReader {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes
    this.at = 0
  }

  get left() {
    return this.bytes.length - this.at
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Malformed(`the struct ends early, at byte ${this.at} of ${this.bytes.length}`)
    return this.bytes[this.at++]
  }

  /** An unsigned varint as a Number; beyond 2^53 a value cannot be held exactly and is refused. */
  varint() {
    let result = 0
    let scale = 1
    for (let i = 0; i < 10; i++) {
      const b = this.byte()
      result += (b & 0x7f) * scale
      if (!(b & 0x80)) {
        if (result > Number.MAX_SAFE_INTEGER) throw new Malformed(`an integer at byte ${this.at} is larger than 2^53`)
        return result
      }
      scale *= 128
    }
    throw new Malformed(`a varint at byte ${this.at} runs past 10 bytes`)
  }

  zigzag() {
    const n = this.varint()
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2
  }

  i32() {
    const v = this.zigzag()
    if (v < I32_MIN || v > I32_MAX) throw new Malformed(`an i32 at byte ${this.at} is out of range (${v})`)
    return v
  }

  binary() {
    const n = this.varint()
    if (n > this.left) throw new Malformed(`a binary of ${n} bytes at byte ${this.at} runs past the end`)
    const view = this.bytes.subarray(this.at, this.at + n)
    this.at += n
    return view
  }

  /**
   * A list header: { elemType, count }, the count checked against the bytes left (≥ 1 byte per element).
   * @param {string} what
   */
  listHeader(what) {
    const b = this.byte()
    let count = b >> 4
    if (count === 15) count = this.varint()
    const elemType = b & 0x0f
    if (count > this.left) throw new Malformed(`${what} claims ${count} elements but only ${this.left} bytes are left`)
    return { elemType, count }
  }

  /**
   * A field header: { id, type } (type 0: the struct's end).
   * @param {number} lastId
   */
  fieldHeader(lastId) {
    const b = this.byte()
    const type = b & 0x0f
    if (type === 0) return { id: 0, type: 0 }
    const delta = b >> 4
    const id = delta ? lastId + delta : this.i32()
    return { id, type }
  }

  /**
   * @param {number} type
   * @param {number} [depth]
   */
  skip(type, depth = 0) {
    if (depth > MAX_SKIP_DEPTH) throw new Malformed(`fields nest deeper than ${MAX_SKIP_DEPTH} levels`)
    switch (type) {
      case T.TRUE:
      case T.FALSE: return
      case T.BYTE: this.byte(); return
      case T.I16:
      case T.I32:
      case T.I64: this.varint(); return
      case T.DOUBLE:
      case T.UUID: {
        const n = type === T.DOUBLE ? 8 : 16
        if (this.left < n) throw new Malformed(`a ${type === T.DOUBLE ? 'double' : 'uuid'} runs past the end`)
        this.at += n
        return
      }
      case T.BINARY: this.binary(); return
      case T.LIST:
      case T.SET: {
        const { elemType, count } = this.listHeader('a skipped list')
        for (let i = 0; i < count; i++) this.skipElement(elemType, depth + 1)
        return
      }
      case T.MAP: {
        const count = this.varint()
        if (count === 0) return
        if (count > this.left) throw new Malformed(`a skipped map claims ${count} entries but only ${this.left} bytes are left`)
        const kinds = this.byte()
        for (let i = 0; i < count; i++) {
          this.skipElement(kinds >> 4, depth + 1)
          this.skipElement(kinds & 0x0f, depth + 1)
        }
        return
      }
      case T.STRUCT: {
        let lastId = 0
        for (;;) {
          const { id, type: fieldType } = this.fieldHeader(lastId)
          if (fieldType === 0) return
          this.skip(fieldType, depth + 1)
          lastId = id
        }
      }
      default: throw new Malformed(`unknown Thrift type ${type} at byte ${this.at}`)
    }
  }

  /**
   * Inside a list, set or map a boolean takes a byte of its own (in a field it lives in the header).
   * @param {number} type
   * @param {number} depth
   */
  skipElement(type, depth) {
    if (type === T.TRUE || type === T.FALSE) this.byte()
    else this.skip(type, depth)
  }

  /**
   * @param {number} type
   * @param {string} what
   * @param {number} elemType
   */
  expectList(type, what, elemType) {
    if (type !== T.LIST) throw new Malformed(`${what} is not a list (Thrift type ${type})`)
    const header = this.listHeader(what)
    if (header.count > 0 && header.elemType !== elemType && !(elemType === T.TRUE && header.elemType === T.FALSE)) {
      throw new Malformed(`${what} holds Thrift type ${header.elemType}, not ${elemType}`)
    }
    return header.count
  }
}
