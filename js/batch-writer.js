// Writes a batch of JS values straight into wasm scratch memory in the layout the native ValueBatch
// expects (Arrow-style values / offsets / validity), so the whole batch crosses into wasm in one call.
import { DESCRIPTOR_BYTES, PhysicalTypeCode } from './core.js'
import { ErrorCode, ParquetBloomError } from './errors.js'

const TWO_32 = 4294967296
const INT64_MIN = -(2n ** 63n)
const UINT64_MAX = 2n ** 64n - 1n

const FIXED_WIDTH = { INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12 }

/**
 * Resolves a type argument: a physical type name, or { type | physicalType, typeLength }.
 * @returns {{ name: string, code: number, typeLength: number }}
 */
export function resolveType(type) {
  const name = typeof type === 'string' ? type : type?.physicalType ?? type?.type
  const code = PhysicalTypeCode[name]
  if (code === undefined) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `unknown physical type ${JSON.stringify(name)}; expected one of ${Object.keys(PhysicalTypeCode).join(', ')}`)
  }
  const typeLength = typeof type === 'object' && type.typeLength !== undefined ? type.typeLength : FIXED_WIDTH[name] ?? 0
  if (!Number.isInteger(typeLength) || typeLength < 0) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `typeLength must be a non-negative integer, got ${typeLength}`)
  }
  return { name, code, typeLength }
}

function badValue(type, index, value, expected) {
  let shown
  try {
    shown = typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? JSON.stringify(value) : String(value)
  } catch {
    shown = typeof value
  }
  return new ParquetBloomError(ErrorCode.BAD_VALUE, `value ${index} (${shown}) is not ${expected} for a ${type} batch`)
}

const align16 = (n) => (n + 15) & ~15

/**
 * Columnar input: { values, offsets?, validity?, offset?, length } — Arrow-style buffers.
 * values holds fixed-width slots, BYTE_ARRAY data, or the BOOLEAN bitmap.
 */
function isColumnar(input) {
  return input !== null && typeof input === 'object' && !ArrayBuffer.isView(input) && !Array.isArray(input) &&
    'values' in input && 'length' in input
}

/**
 * Writes `input` into scratch memory and its descriptor in front of it. Reserves `outBytesPerSlot`
 * bytes per slot for the caller's results.
 * @returns {{ desc: number, count: number, out: number }}
 */
export function writeBatch(core, input, type, outBytesPerSlot = 1) {
  const t = resolveType(type)
  if (isColumnar(input)) return writeColumnar(core, input, t, outBytesPerSlot)
  const values = /** @type {ArrayLike<any>} */ (ArrayBuffer.isView(input) || Array.isArray(input) ? input : Array.from(input))
  const count = values.length

  const typedFixed = ArrayBuffer.isView(values) && !(values instanceof DataView) && t.name in FIXED_WIDTH && t.name !== 'INT96'
  const hasNulls = !ArrayBuffer.isView(values) && anyNull(values)
  const validityBytes = hasNulls ? align16((count + 7) >> 3) : 0
  const offsetsBytes = t.name === 'BYTE_ARRAY' ? align16(4 * (count + 1)) : 0
  const outBytes = align16(count * outBytesPerSlot)
  const valuesBytes = align16(valuesCapacity(values, t, count, typedFixed))

  const base = core.scratch(DESCRIPTOR_BYTES + validityBytes + offsetsBytes + outBytes + valuesBytes)
  const validityPtr = hasNulls ? base + DESCRIPTOR_BYTES : 0
  const offsetsPtr = offsetsBytes ? base + DESCRIPTOR_BYTES + validityBytes : 0
  const outPtr = base + DESCRIPTOR_BYTES + validityBytes + offsetsBytes
  const valuesPtr = outPtr + outBytes

  if (hasNulls) writeValidity(core.u8, validityPtr, values)
  let valuesLength
  if (typedFixed) {
    copyTypedArray(core, values, t.name, valuesPtr)
    valuesLength = values.byteLength
  } else {
    valuesLength = writeValues(core, values, t, valuesPtr, offsetsPtr)
  }
  core.writeDescriptor(base, t.code, t.typeLength, count, valuesPtr, valuesLength, offsetsPtr, 0, validityPtr, 0)
  return { desc: base, count, out: outPtr }
}

function anyNull(values) {
  for (let i = 0; i < values.length; i++) if (values[i] == null) return true
  return false
}

function writeValidity(u8, at, values) {
  u8.fill(0, at, at + ((values.length + 7) >> 3))
  for (let i = 0; i < values.length; i++) if (values[i] != null) u8[at + (i >> 3)] |= 1 << (i & 7)
}

/** Copies a typed array through a heap view of its own kind (no intermediate byte view). */
function copyTypedArray(core, values, name, at) {
  if (name === 'INT32' && values instanceof Int32Array) return core.i32.set(values, at >> 2)
  if (name === 'INT32' && values instanceof Uint32Array) return core.u32.set(values, at >> 2)
  if (name === 'INT64' && values instanceof BigInt64Array) return core.i64.set(values, at >> 3)
  if (name === 'INT64' && values instanceof BigUint64Array) return core.u8.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), at)
  if (name === 'FLOAT' && values instanceof Float32Array) return core.f32.set(values, at >> 2)
  if (name === 'DOUBLE' && values instanceof Float64Array) return core.f64.set(values, at >> 3)
  throw new ParquetBloomError(ErrorCode.BAD_VALUE, `a ${values.constructor.name} cannot hold ${name} values; ` +
    'use Int32Array/Uint32Array, BigInt64Array/BigUint64Array, Float32Array or Float64Array to match the type')
}

/** An upper bound on the bytes the values need. */
function valuesCapacity(values, t, count, typedFixed) {
  if (typedFixed) return values.byteLength
  switch (t.name) {
    case 'BOOLEAN': return (count + 7) >> 3
    case 'BYTE_ARRAY': {
      let bytes = 0
      for (let i = 0; i < count; i++) {
        const v = values[i]
        if (typeof v === 'string') bytes += v.length * 3 // UTF-16 unit → at most 3 UTF-8 bytes
        else if (v instanceof Uint8Array) bytes += v.length
        else if (v != null) throw badValue(t.name, i, v, 'a string or Uint8Array')
      }
      return bytes
    }
    case 'FIXED_LEN_BYTE_ARRAY': return count * flbaWidth(values, t)
    default: return count * FIXED_WIDTH[t.name]
  }
}

function flbaWidth(values, t) {
  if (t.typeLength > 0) return t.typeLength
  for (let i = 0; i < values.length; i++) if (values[i] instanceof Uint8Array) return (t.typeLength = values[i].length)
  return 0
}

/** Writes JS values; returns the number of value bytes written. */
function writeValues(core, values, t, at, offsetsPtr) {
  const count = values.length
  switch (t.name) {
    case 'INT32': {
      const w = core.i32
      for (let i = 0, p = at >> 2; i < count; i++, p++) {
        const v = values[i]
        if (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v < TWO_32) w[p] = v
        else if (v == null) w[p] = 0
        else if (typeof v === 'bigint' && v >= -2147483648n && v < 4294967296n) w[p] = Number(v)
        else throw badValue(t.name, i, v, 'an integer in [-2^31, 2^32)')
      }
      return count * 4
    }
    case 'INT64': {
      const w = core.i32
      for (let i = 0, p = at >> 2; i < count; i++, p += 2) {
        const v = values[i]
        if (typeof v === 'number' && Number.isSafeInteger(v)) {
          w[p] = v | 0 // ToInt32 is v mod 2^32: exactly the low word for any safe integer
          w[p + 1] = Math.floor(v / TWO_32) | 0
        } else if (typeof v === 'bigint' && v >= INT64_MIN && v <= UINT64_MAX) {
          core.i64[p >> 1] = BigInt.asIntN(64, v)
        } else if (v == null) {
          w[p] = 0
          w[p + 1] = 0
        } else {
          throw badValue(t.name, i, v, 'a safe integer or a bigint in [-2^63, 2^64)')
        }
      }
      return count * 8
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const isFloat = t.name === 'FLOAT'
      const w = isFloat ? core.f32 : core.f64
      for (let i = 0, p = at >> (isFloat ? 2 : 3); i < count; i++, p++) {
        const v = values[i]
        if (typeof v === 'number') w[p] = v
        else if (v == null) w[p] = 0
        else throw badValue(t.name, i, v, 'a number')
      }
      return count * (isFloat ? 4 : 8)
    }
    case 'BOOLEAN': {
      const u8 = core.u8
      u8.fill(0, at, at + ((count + 7) >> 3))
      for (let i = 0; i < count; i++) {
        const v = values[i]
        if (v === true || v === 1) u8[at + (i >> 3)] |= 1 << (i & 7)
        else if (v !== false && v !== 0 && v != null) throw badValue(t.name, i, v, 'a boolean')
      }
      return (count + 7) >> 3
    }
    case 'BYTE_ARRAY': return writeByteArrays(core, values, at, offsetsPtr)
    case 'INT96':
    case 'FIXED_LEN_BYTE_ARRAY': {
      const width = t.name === 'INT96' ? 12 : flbaWidth(values, t)
      const u8 = core.u8
      for (let i = 0; i < count; i++) {
        const v = values[i]
        if (v instanceof Uint8Array && v.length === width) u8.set(v, at + i * width)
        else if (v == null) u8.fill(0, at + i * width, at + (i + 1) * width)
        else throw badValue(t.name, i, v, `a Uint8Array of ${width} bytes`)
      }
      return count * width
    }
  }
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `unsupported type ${t.name}`)
}

const utf8 = new TextEncoder()
const ROPE_CHUNK = 256

/**
 * UTF-8 straight into wasm memory. Per-string encodeInto calls cost more than the bytes, so strings
 * are concatenated a chunk at a time (V8 builds a rope) and encoded in one call; when the chunk is
 * ASCII (bytes written == UTF-16 units) every string's byte length is its .length. Chunks holding
 * non-ASCII text, bytes or nulls are written one value at a time.
 */
function writeByteArrays(core, values, at, offsetsPtr) {
  const u8 = core.u8
  const offsets = core.i32
  const n = values.length
  let o = offsetsPtr >> 2
  let pos = at
  offsets[o] = 0
  for (let c = 0; c < n; c += ROPE_CHUNK) {
    const e = Math.min(n, c + ROPE_CHUNK)
    let text = ''
    let allStrings = true
    for (let i = c; i < e; i++) {
      const v = values[i]
      if (typeof v !== 'string') {
        allStrings = false
        break
      }
      text += v
    }
    if (allStrings && utf8.encodeInto(text, u8.subarray(pos, pos + text.length * 3)).written === text.length) {
      for (let i = c; i < e; i++) {
        pos += values[i].length
        offsets[++o] = pos - at
      }
      continue
    }
    for (let i = c; i < e; i++) {
      const v = values[i]
      if (typeof v === 'string') pos += utf8.encodeInto(v, u8.subarray(pos, pos + v.length * 3)).written
      else if (v instanceof Uint8Array) {
        u8.set(v, pos)
        pos += v.length
      }
      offsets[++o] = pos - at
    }
  }
  return pos - at
}

/**
 * Arrow-style buffers supplied by the caller: copied once, hashed in place by the spaced hashers.
 * `offset` is the first slot in values/offsets (the first bit for BOOLEAN); `validityOffset` (default
 * `offset`) the first bit of the validity bitmap — Arrow slices fixed-width buffers but not bitmaps.
 */
function writeColumnar(core, input, t, outBytesPerSlot) {
  const count = input.length
  const offset = input.offset ?? 0
  const validityOffset = input.validityOffset ?? offset
  if (![count, offset, validityOffset].every((n) => Number.isInteger(n) && n >= 0)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'columnar input needs integer length, offset and validityOffset >= 0')
  }
  const values = asBytes(input.values, 'values')
  const validity = input.validity == null ? undefined : asBytes(input.validity, 'validity')
  if (validity && validity.length * 8 < validityOffset + count) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `validity bitmap holds ${validity.length * 8} bits, need ${validityOffset + count}`)
  }
  let offsets
  if (t.name === 'BYTE_ARRAY') {
    if (!(input.offsets instanceof Int32Array) || input.offsets.length < offset + count + 1) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `BYTE_ARRAY columnar input needs Int32Array offsets of at least ${offset + count + 1} entries`)
    }
    offsets = input.offsets.subarray(offset, offset + count + 1)
  }
  // Fixed-width slots are addressed from the start of `values`; skip the leading `offset` slots.
  const width = t.name === 'BOOLEAN' || t.name === 'BYTE_ARRAY' ? 0 : t.typeLength
  const valueBytes = width ? values.subarray(Math.min(values.length, offset * width), Math.min(values.length, (offset + count) * width)) : values
  const validityBytes = validity ? align16(validity.length) : 0
  const offsetsBytes = offsets ? align16(offsets.byteLength) : 0
  const outBytes = align16(count * outBytesPerSlot)
  const base = core.scratch(DESCRIPTOR_BYTES + validityBytes + offsetsBytes + outBytes + align16(valueBytes.length))
  const validityPtr = validity ? base + DESCRIPTOR_BYTES : 0
  const offsetsPtr = offsets ? base + DESCRIPTOR_BYTES + validityBytes : 0
  const outPtr = base + DESCRIPTOR_BYTES + validityBytes + offsetsBytes
  const valuesPtr = outPtr + outBytes
  const u8 = core.u8
  if (validity) u8.set(validity, validityPtr)
  if (offsets) core.i32.set(offsets, offsetsPtr >> 2)
  u8.set(valueBytes, valuesPtr)
  const bitOffset = t.name === 'BOOLEAN' ? offset : 0
  core.writeDescriptor(base, t.code, t.typeLength, count, valuesPtr, valueBytes.length, offsetsPtr, bitOffset, validityPtr, validity ? validityOffset : 0)
  return { desc: base, count, out: outPtr }
}

function asBytes(view, name) {
  if (view instanceof Uint8Array) return view
  if (ArrayBuffer.isView(view)) return new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
  if (view instanceof ArrayBuffer) return new Uint8Array(view)
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `columnar input: ${name} must be a typed array or ArrayBuffer`)
}
