// A tiny Thrift compact-protocol codec for tests: decodes a struct keeping every field's wire type, so
// a real footer or bloom filter header re-encodes byte for byte after a precise edit, and a raw writer
// for crafting what no writer would emit (overlong lists, huge binary lengths, nesting bombs).

export const T = Object.freeze({
  STOP: 0, TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12,
})

/**
 * A decoded struct: its fields in wire order. Values: BOOL → boolean, BYTE/I16/I32 → number,
 * I64 → bigint, DOUBLE → number, BINARY → Uint8Array, LIST/SET → { elemType, items }, MAP →
 * { keyType, valueType, entries: [[k, v]] }, STRUCT → ThriftStruct.
 * @typedef {{ fields: Array<{ id: number, type: number, value: any }> }} ThriftStruct
 */

/** Decodes the struct at the start of `bytes`: { struct, length } (length = bytes consumed). */
export function decodeStruct(bytes) {
  const reader = new Reader(bytes)
  const struct = reader.struct()
  return { struct, length: reader.at }
}

/**
 * Where the varints of an encoded struct are: [{ start, end, kind }] with kind 'int' (an integer
 * value), 'length' (of a binary), 'size' (of a list, set or map), 'field-id' (a long-form field id)
 * or 'list-header' (the one byte holding a short list's element type and size).
 * The fuzzer rewrites them to reach lengths and counts that byte flips rarely produce.
 */
export function varintSpans(bytes) {
  const reader = new Reader(bytes)
  reader.spans = []
  reader.struct()
  return reader.spans
}

/** Encodes a struct (as decodeStruct returns it, edited or built by hand). */
export function encodeStruct(struct) {
  const w = new ByteWriter()
  w.struct(struct)
  return w.bytes()
}

/** The field `id` of a struct, or undefined. */
export function getField(struct, id) {
  return struct.fields.find((f) => f.id === id)
}

/** Sets (or adds, keeping ids ascending) field `id`. */
export function setField(struct, id, type, value) {
  const field = getField(struct, id)
  if (field) {
    field.type = type
    field.value = value
    return struct
  }
  struct.fields.push({ id, type, value })
  struct.fields.sort((a, b) => a.id - b.id)
  return struct
}

export function removeField(struct, id) {
  struct.fields = struct.fields.filter((f) => f.id !== id)
  return struct
}

/** A struct from [id, type, value] triples. */
export function struct(...fields) {
  return { fields: fields.map(([id, type, value]) => ({ id, type, value })) }
}

/** A deep copy (byte values included) so one decoded footer can seed many edits. */
export function cloneStruct(s) {
  return decodeStruct(encodeStruct(s)).struct
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes
    this.at = 0
  }

  byte() {
    if (this.at >= this.bytes.length) throw new Error(`thrift: read past the end at ${this.at}`)
    return this.bytes[this.at++]
  }

  varint(kind = 'int') {
    const start = this.at
    let result = 0n
    let shift = 0n
    for (;;) {
      const b = this.byte()
      result |= BigInt(b & 0x7f) << shift
      if (!(b & 0x80)) {
        this.spans?.push({ start, end: this.at, kind })
        return result
      }
      shift += 7n
    }
  }

  zigzag(kind) {
    const v = this.varint(kind)
    return (v >> 1n) ^ -(v & 1n)
  }

  value(type) {
    switch (type) {
      case T.TRUE: return true
      case T.FALSE: return false
      case T.BYTE: return (this.byte() << 24) >> 24
      case T.I16:
      case T.I32: return Number(this.zigzag())
      case T.I64: return this.zigzag()
      case T.DOUBLE: {
        const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.at, 8).getFloat64(0, true)
        this.at += 8
        return v
      }
      case T.BINARY: {
        const n = Number(this.varint('length'))
        if (this.at + n > this.bytes.length) throw new Error(`thrift: binary of ${n} bytes past the end`)
        const v = this.bytes.slice(this.at, this.at + n)
        this.at += n
        return v
      }
      case T.LIST:
      case T.SET: {
        const b = this.byte()
        let size = b >> 4
        if (size < 15) this.spans?.push({ start: this.at - 1, end: this.at, kind: 'list-header' })
        if (size === 15) size = Number(this.varint('size'))
        const elemType = b & 0x0f
        const items = []
        for (let i = 0; i < size; i++) {
          items.push(elemType === T.TRUE || elemType === T.FALSE ? this.byte() === 1 : this.value(elemType))
        }
        return { elemType, items }
      }
      case T.MAP: {
        const size = Number(this.varint('size'))
        if (size === 0) return { keyType: 0, valueType: 0, entries: [] }
        const b = this.byte()
        const keyType = b >> 4
        const valueType = b & 0x0f
        const entries = []
        for (let i = 0; i < size; i++) entries.push([this.value(keyType), this.value(valueType)])
        return { keyType, valueType, entries }
      }
      case T.STRUCT: return this.struct()
      default: throw new Error(`thrift: unknown type ${type} at ${this.at}`)
    }
  }

  struct() {
    const fields = []
    let last = 0
    for (;;) {
      const b = this.byte()
      const type = b & 0x0f
      if (type === T.STOP) return { fields }
      const delta = b >> 4
      const id = delta ? last + delta : Number(this.zigzag('field-id'))
      last = id
      fields.push({ id, type, value: this.value(type) })
    }
  }
}

/** Appends compact-protocol pieces; the raw methods let tests write what the codec never would. */
export class ByteWriter {
  constructor() {
    this.parts = []
    this.length = 0
  }

  raw(bytes) {
    const u8 = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes)
    this.parts.push(u8)
    this.length += u8.length
    return this
  }

  byte(b) {
    return this.raw([b & 0xff])
  }

  /** Unsigned LEB128 of a number or bigint (any size: hostile lengths go past 2^63). */
  varint(v) {
    let n = BigInt(v)
    const out = []
    while (n >= 0x80n) {
      out.push(Number(n & 0x7fn) | 0x80)
      n >>= 7n
    }
    out.push(Number(n))
    return this.raw(out)
  }

  zigzag(v) {
    const n = BigInt(v)
    return this.varint(n >= 0n ? n << 1n : ((-n) << 1n) - 1n)
  }

  fieldHeader(type, id, lastId) {
    const delta = id - lastId
    if (delta > 0 && delta <= 15) return this.byte((delta << 4) | type)
    return this.byte(type).zigzag(id)
  }

  listHeader(elemType, size) {
    if (size < 15) return this.byte((Number(size) << 4) | elemType)
    return this.byte(0xf0 | elemType).varint(size)
  }

  binary(bytes) {
    const u8 = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes
    return this.varint(u8.length).raw(u8)
  }

  value(type, value) {
    switch (type) {
      case T.TRUE:
      case T.FALSE: return this
      case T.BYTE: return this.byte(value)
      case T.I16:
      case T.I32:
      case T.I64: return this.zigzag(value)
      case T.DOUBLE: {
        const b = new Uint8Array(8)
        new DataView(b.buffer).setFloat64(0, value, true)
        return this.raw(b)
      }
      case T.BINARY: return this.binary(value)
      case T.LIST:
      case T.SET: {
        this.listHeader(value.elemType, value.items.length)
        for (const item of value.items) {
          if (value.elemType === T.TRUE || value.elemType === T.FALSE) this.byte(item ? 1 : 2)
          else this.value(value.elemType, item)
        }
        return this
      }
      case T.MAP: {
        this.varint(value.entries.length)
        if (value.entries.length === 0) return this
        this.byte((value.keyType << 4) | value.valueType)
        for (const [k, v] of value.entries) this.value(value.keyType, k).value(value.valueType, v)
        return this
      }
      case T.STRUCT: return this.struct(value)
      default: throw new Error(`thrift: cannot write type ${type}`)
    }
  }

  /** A struct; one with `raw` (its pre-encoded body, STOP included) is written as those bytes. */
  struct(s) {
    if (s.raw) return this.raw(s.raw)
    let last = 0
    for (const { id, type, value } of s.fields) {
      const wireType = type === T.TRUE || type === T.FALSE ? (value ? T.TRUE : T.FALSE) : type
      this.fieldHeader(wireType, id, last)
      last = id
      this.value(type, value)
    }
    return this.byte(T.STOP)
  }

  bytes() {
    const out = new Uint8Array(this.length)
    let at = 0
    for (const p of this.parts) {
      out.set(p, at)
      at += p.length
    }
    return out
  }
}
