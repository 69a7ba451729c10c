// A minimal Thrift compact-protocol writer for the synthetic footers and bloom filter headers the
// benchmarks generate (Parquet's FileMetaData and BloomFilterHeader are Thrift compact structs).
export const T = Object.freeze({ TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, STRUCT: 12 })

const utf8 = new TextEncoder()

export class CompactWriter {
  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity)
    this.pos = 0
    this.lastField = [0]
  }

  ensure(n) {
    if (this.pos + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
  }

  byte(b) {
    this.ensure(1)
    this.buf[this.pos++] = b
  }

  /** Unsigned varint of a non-negative safe integer. */
  varint(v) {
    this.ensure(10)
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
    this.buf[this.pos++] = v
  }

  /** Zigzag varint of a safe integer (i16/i32/i64 alike). */
  zigzag(v) {
    this.varint(v >= 0 ? v * 2 : -v * 2 - 1)
  }

  fieldHeader(type, id) {
    const delta = id - this.lastField[this.lastField.length - 1]
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type)
    else {
      this.byte(type)
      this.zigzag(id)
    }
    this.lastField[this.lastField.length - 1] = id
  }

  beginStruct() {
    this.lastField.push(0)
  }

  endStruct() {
    this.byte(0)
    this.lastField.pop()
  }

  /** A struct field: header, then body() writes the nested fields. */
  structField(id, body) {
    this.fieldHeader(T.STRUCT, id)
    this.beginStruct()
    body(this)
    this.endStruct()
  }

  i32Field(id, v) {
    this.fieldHeader(T.I32, id)
    this.zigzag(v)
  }

  i64Field(id, v) {
    this.fieldHeader(T.I64, id)
    this.zigzag(v)
  }

  boolField(id, v) {
    this.fieldHeader(v ? T.TRUE : T.FALSE, id)
  }

  binaryField(id, bytes) {
    this.fieldHeader(T.BINARY, id)
    this.binary(bytes)
  }

  binary(bytes) {
    const b = typeof bytes === 'string' ? utf8.encode(bytes) : bytes
    this.varint(b.length)
    this.ensure(b.length)
    this.buf.set(b, this.pos)
    this.pos += b.length
  }

  listHeader(elemType, size) {
    if (size < 15) this.byte((size << 4) | elemType)
    else {
      this.byte(0xf0 | elemType)
      this.varint(size)
    }
  }

  /** A list field; item(writer, element, index) writes each element (structs: wrap in begin/endStruct). */
  listField(id, elemType, items, item) {
    this.fieldHeader(T.LIST, id)
    this.listHeader(elemType, items.length)
    items.forEach((element, index) => {
      if (elemType === T.STRUCT) {
        this.beginStruct()
        item(this, element, index)
        this.endStruct()
      } else {
        item(this, element, index)
      }
    })
  }

  bytes() {
    return this.buf.slice(0, this.pos)
  }
}

/** BloomFilterHeader { 1: numBytes, 2: BLOCK {}, 3: XXHASH {}, 4: UNCOMPRESSED {} }. */
export function bloomFilterHeader(numBytes) {
  const w = new CompactWriter(64)
  w.beginStruct()
  w.i32Field(1, numBytes)
  for (const id of [2, 3, 4]) w.structField(id, (u) => u.structField(1, () => {}))
  w.endStruct()
  return w.bytes()
}
