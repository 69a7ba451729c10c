// Writes batches of JS values into wasm memory in the layout the native ValueBatch expects (Arrow-style
// values / offsets / validity). streamBatch moves a batch of any size through the module's fixed batch
// region a chunk of values at a time, one wasm call per chunk.
import { DESCRIPTOR_BYTES, PhysicalTypeCode } from './core.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'

const TWO_32 = 4294967296
const INT64_MIN = -(2n ** 63n)
const UINT64_MAX = 2n ** 64n - 1n

/** @type {Readonly<Record<string, number>>} bytes per value of the fixed-width types (no entry for the others) */
const FIXED_WIDTH = { INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12 }

/** @typedef {{ name: string, code: number, typeLength: number, width: number }} ResolvedType */
/**
 * What resolveType is given: a FilterValueType (import('../index.js')), or anything callers pass as one
 * (it throws on the rest).
 * @typedef {string | { type?: string, physicalType?: string, typeLength?: number } | null | undefined} TypeArgument
 */
/** @typedef {Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array} FixedWidthArray */
/** @typedef {(desc: number, out: number, count: number) => void} ChunkCall */

/**
 * Resolves a type argument: a physical type name, or { type | physicalType, typeLength }. `width`: bytes
 * of a fixed-width type's value (0 for the others).
 * @param {TypeArgument} type
 * @returns {ResolvedType}
 */
export function resolveType(type) {
  // A name's resolution is made once (not for FIXED_LEN_BYTE_ARRAY, whose width the values may set).
  if (typeof type === 'string') return resolvedNames.get(type) ?? resolveName(type)
  const name = type?.physicalType ?? type?.type
  const code = name === undefined ? undefined : PhysicalTypeCode[name]
  if (code === undefined || name === undefined) throw unknownType(name)
  const typeLength = typeof type === 'object' && type !== null && type.typeLength !== undefined ? type.typeLength : FIXED_WIDTH[name] ?? 0
  if (!Number.isInteger(typeLength) || typeLength < 0) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `typeLength must be a non-negative integer, got ${typeLength}`)
  }
  return { name, code, typeLength, width: FIXED_WIDTH[name] ?? 0 }
}

/** @type {Map<string, ResolvedType>} */
const resolvedNames = new Map()

/** @param {string} name */
function resolveName(name) {
  const code = PhysicalTypeCode[name]
  if (code === undefined) throw unknownType(name)
  const t = { name, code, typeLength: FIXED_WIDTH[name] ?? 0, width: FIXED_WIDTH[name] ?? 0 }
  if (name !== 'FIXED_LEN_BYTE_ARRAY') resolvedNames.set(name, Object.freeze(t))
  return t
}

/** @param {unknown} name */
function unknownType(name) {
  return new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
    `unknown physical type ${JSON.stringify(name)}; expected one of ${Object.keys(PhysicalTypeCode).join(', ')}`)
}

/**
 * @param {string} type
 * @param {number} index
 * @param {unknown} value
 * @param {string} expected
 */
function badValue(type, index, value, expected) {
  let shown
  try {
    shown = typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? JSON.stringify(value) : String(value)
  } catch {
    shown = typeof value
  }
  return new ParquetBloomError(ErrorCode.BAD_VALUE, `value ${index} (${shown}) is not ${expected} for a ${type} batch`)
}

const align16 = (/** @type {number} */ n) => (n + 15) & ~15

/**
 * Columnar input: { values, offsets?, validity?, offset?, length } — Arrow-style buffers.
 * values holds fixed-width slots, BYTE_ARRAY data, or the BOOLEAN bitmap.
 * @param {unknown} input
 * @returns {input is import('../index.js').ColumnarValues}
 */
function isColumnar(input) {
  return input !== null && typeof input === 'object' && !ArrayBuffer.isView(input) && !Array.isArray(input) &&
    'values' in input && 'length' in input
}

// Slots per chunk at most; byte arrays are bounded by their bytes (the guess sizes their other areas).
const MAX_CHUNK_SLOTS = 32768
const BYTE_ARRAY_GUESS_BYTES = 24
const LAYOUT_SLACK = 5 * 16 // each area's alignment padding

/**
 * Streams `input` through the batch region, calling call(desc, out, count) once per chunk (`out`:
 * outBytesPerSlot bytes per slot, which are gathered into `into` from byte `at`, or into a new array).
 * A value too large for the region goes alone through a leased pool block. Values are checked per
 * chunk: a BAD_VALUE can follow earlier chunks' calls. Returns the gathered bytes (empty when
 * outBytesPerSlot is 0).
 * @param {import('./core.js').Core} core
 * @param {import('../index.js').FilterValues | import('../filter/arrow-input.js').ColumnarInput} input values, or Arrow buffers
 * @param {TypeArgument} type
 * @param {number} outBytesPerSlot
 * @param {ChunkCall} call
 * @param {Uint8Array} [into]
 * @returns {Uint8Array}
 */
export function streamBatch(core, input, type, outBytesPerSlot, call, into, at = 0) {
  const source = batchInputOf(input, resolveType(type))
  const total = source.count
  const slots = chunkSlots(core.batchRegionBytes, slotBytes(source, outBytesPerSlot))
  let out = into
  for (let begin = 0; begin < total;) {
    const layout = new Layout(core.batchRegion, core.batchRegionBytes, Math.min(slots, total - begin), source, outBytesPerSlot)
    const end = source.write(core, begin, begin + layout.slots, layout)
    if (end === begin) {
      // The value alone does not fit the empty region.
      const answer = streamLargeValue(core, source, begin, outBytesPerSlot, call)
      if (outBytesPerSlot !== 0) (out ??= new Uint8Array(total * outBytesPerSlot)).set(answer, at + begin * outBytesPerSlot)
      begin++
      continue
    }
    call(layout.desc, layout.out, end - begin)
    core.refreshViews() // the call may have grown memory
    if (outBytesPerSlot !== 0) {
      const from = layout.out
      const bytes = (end - begin) * outBytesPerSlot
      if (out === undefined && end - begin === total) {
        out = core.u8.slice(from, from + bytes) // the whole batch in one chunk
      } else {
        out ??= new Uint8Array(total * outBytesPerSlot)
        out.set(core.u8.subarray(from, from + bytes), at + begin * outBytesPerSlot)
      }
    }
    begin = end
  }
  return out ?? new Uint8Array(0)
}

/**
 * XXH64 of every (non-null) value as writers hash it, 8 little-endian bytes each.
 * @param {import('./core.js').Core} core
 * @param {import('../index.js').FilterValues} input
 * @param {TypeArgument} type
 * @returns {Uint8Array}
 */
export function hashValues(core, input, type) {
  return streamBatch(core, input, type, 8, (desc, out, count) => {
    const written = core.hashBatch(desc, out)
    if (written !== count) {
      throw new ParquetBloomError(ErrorCode.BAD_VALUE,
        written < 0 ? `could not hash the values (status ${-written})` : 'a null value has no hash')
    }
  })
}

/**
 * One value too large for the empty region, through a pool block held for its call only; returns its out bytes.
 * @param {import('./core.js').Core} core
 * @param {BatchInput} batch
 * @param {number} at
 * @param {number} outBytesPerSlot
 * @param {ChunkCall} call
 */
function streamLargeValue(core, batch, at, outBytesPerSlot, call) {
  const bytes = DESCRIPTOR_BYTES + LAYOUT_SLACK + 48 + outBytesPerSlot + batch.valueBytes(at)
  const ptr = core.acquire(bytes, 'a value larger than the batch region')
  try {
    const layout = new Layout(ptr, bytes, 1, batch, outBytesPerSlot)
    if (batch.write(core, at, at + 1, layout) !== at + 1) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `internal: value ${at} does not fit the ${bytes} bytes leased for it`)
    }
    call(layout.desc, layout.out, 1)
    core.refreshViews()
    return core.u8.slice(layout.out, layout.out + outBytesPerSlot)
  } finally {
    core.refreshViews()
    core.release(ptr)
  }
}

/**
 * Layout bytes per slot (an estimate for byte arrays).
 * @param {BatchInput} batch
 * @param {number} outBytesPerSlot
 */
function slotBytes(batch, outBytesPerSlot) {
  return outBytesPerSlot + (batch.hasValidity ? 1 / 8 : 0) + (batch.hasOffsets ? 4 + BYTE_ARRAY_GUESS_BYTES : batch.width)
}

/**
 * As many slots as the region holds at `perSlot` bytes, in whole ropes when there is room.
 * @param {number} regionBytes
 * @param {number} perSlot
 */
function chunkSlots(regionBytes, perSlot) {
  const n = Math.floor((regionBytes - DESCRIPTOR_BYTES - LAYOUT_SLACK) / perSlot)
  return n >= ROPE_CHUNK ? Math.min(MAX_CHUNK_SLOTS, n - (n % ROPE_CHUNK)) : Math.max(1, n)
}

/** A chunk's areas in a region: descriptor, validity, offsets, results, values. */
class Layout {
  /**
   * @param {number} base
   * @param {number} bytes
   * @param {number} slots
   * @param {BatchInput} batch
   * @param {number} outBytesPerSlot
   */
  constructor(base, bytes, slots, batch, outBytesPerSlot) {
    this.desc = base
    this.slots = slots
    let at = base + DESCRIPTOR_BYTES
    this.validity = 0
    if (batch.hasValidity) {
      this.validity = at
      at += align16((slots >> 3) + 2) // a bitmap copied from a bit offset spans one more byte
    }
    this.offsets = 0
    if (batch.hasOffsets) {
      this.offsets = at
      at += align16(4 * (slots + 1))
    }
    this.out = at
    this.values = at + align16(slots * outBytesPerSlot)
    this.valuesEnd = base + bytes
  }
}

const TYPED = 0
const ARRAY = 1
const COLUMNAR = 2

// A batch input as the chunk writers read it (not a byte source: those are js/sources/): one class for
// every kind of input, as one shape keeps the per-chunk reads monomorphic (three classes cost ~50 ns
// on a 64-value call).

class BatchInput {
  /**
   * @param {number} kind TYPED, ARRAY or COLUMNAR
   * @param {ResolvedType} t
   * @param {ArrayLike<unknown>} values TYPED: a FixedWidthArray; ARRAY: the values; COLUMNAR: the values' bytes
   * @param {number} count
   */
  constructor(kind, t, values, count) {
    this.kind = kind
    this.t = t
    this.values = values
    this.count = count
    this.width = 0 // bytes per slot; 1/8 for a bitmap, 0 for byte arrays
    this.hasValidity = false
    this.hasOffsets = false
    this.view = 0 // TYPED: the heap view the array is copied through (HEAP_*)
    this.offset = 0 // COLUMNAR: the first slot (first bit of a BOOLEAN bitmap)
    this.validityOffset = 0
    /** @type {Uint8Array | undefined} COLUMNAR: the validity bitmap's bytes */
    this.validity = undefined
    /** @type {Int32Array | undefined} COLUMNAR BYTE_ARRAY: the count + 1 offsets, from the first slot */
    this.offsetsIn = undefined
  }

  /**
   * Writes slots [begin, end), or those that fit, and the descriptor; returns where it stopped.
   * @param {import('./core.js').Core} core
   * @param {number} begin
   * @param {number} end
   * @param {Layout} layout
   * @returns {number}
   */
  write(core, begin, end, layout) {
    if (this.kind === TYPED) return writeTypedChunk(this, core, begin, end, layout)
    if (this.kind === ARRAY) return writeArrayChunk(this, core, begin, end, layout)
    return writeColumnarChunk(this, core, begin, end, layout)
  }

  /**
   * Bytes value i needs alone.
   * @param {number} i
   */
  valueBytes(i) {
    const { offsetsIn } = this
    if (this.kind === COLUMNAR && this.hasOffsets && offsetsIn) return Math.max(0, offsetsIn[i + 1] - offsetsIn[i])
    if (this.kind === ARRAY && this.hasOffsets) {
      const v = this.values[i]
      return typeof v === 'string' ? v.length * 3 : v instanceof Uint8Array ? v.length : 0
    }
    return Math.ceil(this.width)
  }
}

/**
 * @param {import('../index.js').FilterValues | import('../filter/arrow-input.js').ColumnarInput} input
 * @param {ResolvedType} t
 */
function batchInputOf(input, t) {
  if (ArrayBuffer.isView(input)) {
    if (t.width !== 0 && t.name !== 'INT96' && !(input instanceof DataView)) return typedInput(input, t)
    // A DataView has no length: it reads as no values, as before types were checked.
    return arrayInput(/** @type {ArrayLike<unknown>} */ (input), t)
  }
  if (isColumnar(input)) return columnarInput(input, t)
  // Columnar buffers (a caller's, or Arrow's) went above: what is left is a list of values.
  return arrayInput(Array.isArray(input) ? input : Array.from(/** @type {ArrayLike<unknown> | Iterable<unknown>} */ (input)), t)
}

// The heap view a typed array is copied through: the one of its own kind (a memcpy), bytes for BigUint64Array.
const HEAP_I32 = 1
const HEAP_U32 = 2
const HEAP_I64 = 3
const HEAP_F32 = 4
const HEAP_F64 = 5
const HEAP_BYTES = 6

/**
 * The heap view for `values` holding type `name`, 0 if it cannot hold the type.
 * @param {ArrayBufferView} values
 * @param {string} name
 */
function heapViewFor(values, name) {
  switch (name) {
    case 'INT32': return values instanceof Int32Array ? HEAP_I32 : values instanceof Uint32Array ? HEAP_U32 : 0
    case 'INT64': return values instanceof BigInt64Array ? HEAP_I64 : values instanceof BigUint64Array ? HEAP_BYTES : 0
    case 'FLOAT': return values instanceof Float32Array ? HEAP_F32 : 0
    case 'DOUBLE': return values instanceof Float64Array ? HEAP_F64 : 0
  }
  return 0
}

/**
 * A typed array of a fixed-width type: chunks are copies of slices.
 * @param {ArrayBufferView} values
 * @param {ResolvedType} t
 */
function typedInput(values, t) {
  const view = heapViewFor(values, t.name)
  if (view === 0) {
    throw new ParquetBloomError(ErrorCode.BAD_VALUE, `a ${values.constructor.name} cannot hold ${t.name} values; ` +
      'use Int32Array/Uint32Array, BigInt64Array/BigUint64Array, Float32Array or Float64Array to match the type')
  }
  const array = /** @type {FixedWidthArray} */ (values) // heapViewFor found it one
  const s = new BatchInput(TYPED, t, array, array.length)
  s.width = t.width
  s.view = view
  return s
}

/**
 * @param {BatchInput} s
 * @param {import('./core.js').Core} core
 * @param {number} begin
 * @param {number} end
 * @param {Layout} layout
 */
function writeTypedChunk(s, core, begin, end, layout) {
  const w = s.width
  end = Math.min(end, begin + fittingSlots(layout.valuesEnd - layout.values, w))
  const v = /** @type {FixedWidthArray} */ (s.values) // a TYPED input's (typedInput)
  const slice = begin === 0 && end === v.length ? v : v.subarray(begin, end)
  // s.view is the view of slice's own kind (heapViewFor): numbers for all but HEAP_I64's and HEAP_BYTES's.
  const numbers = /** @type {ArrayLike<number>} */ (slice)
  switch (s.view) {
    case HEAP_I32: core.i32.set(numbers, layout.values >> 2); break
    case HEAP_U32: core.u32.set(numbers, layout.values >> 2); break
    case HEAP_I64: core.i64.set(/** @type {BigInt64Array} */ (slice), layout.values >> 3); break
    case HEAP_F32: core.f32.set(numbers, layout.values >> 2); break
    case HEAP_F64: core.f64.set(numbers, layout.values >> 3); break
    default: core.u8.set(new Uint8Array(v.buffer, v.byteOffset + begin * w, (end - begin) * w), layout.values)
  }
  core.writeDescriptor(layout.desc, s.t.code, s.t.typeLength, end - begin, layout.values, (end - begin) * w, 0, 0, 0, 0)
  return end
}

/**
 * A JS array (or a typed array read value by value), converted a chunk at a time.
 * @param {ArrayLike<unknown>} values
 * @param {ResolvedType} t
 */
function arrayInput(values, t) {
  const s = new BatchInput(ARRAY, t, values, values.length)
  s.hasValidity = !ArrayBuffer.isView(values) && anyNull(values)
  s.hasOffsets = t.name === 'BYTE_ARRAY'
  s.width = t.name === 'BOOLEAN' ? 1 / 8 : t.name === 'BYTE_ARRAY' ? 0 : t.name === 'INT96' ? 12
    : t.name === 'FIXED_LEN_BYTE_ARRAY' ? flbaWidth(values, t) : FIXED_WIDTH[t.name]
  return s
}

/**
 * @param {BatchInput} s
 * @param {import('./core.js').Core} core
 * @param {number} begin
 * @param {number} end
 * @param {Layout} layout
 */
function writeArrayChunk(s, core, begin, end, layout) {
  const { values, t } = s
  if (s.hasOffsets) {
    end = writeByteArrays(core, values, begin, end, layout.values, layout.valuesEnd, layout.offsets)
  } else {
    end = Math.min(end, begin + fittingSlots(layout.valuesEnd - layout.values, s.width))
  }
  if (end === begin) return begin
  if (s.hasValidity) writeValidity(core.u8, layout.validity, values, begin, end)
  const valuesLength = s.hasOffsets
    ? core.i32[(layout.offsets >> 2) + end - begin]
    : writeValues(core, values, t, begin, end, layout.values)
  core.writeDescriptor(layout.desc, t.code, t.typeLength, end - begin, layout.values, valuesLength, layout.offsets, 0, layout.validity, 0)
  return end
}

/**
 * Slots of `width` bytes (1/8 for a bitmap, whose copy may start mid-byte) that fit in `room` bytes.
 * @param {number} room
 * @param {number} width
 */
function fittingSlots(room, width) {
  if (width === 0) return Infinity
  return width < 1 ? Math.max(0, room * 8 - 7) : Math.floor(room / width)
}

/** @param {ArrayLike<unknown>} values */
function anyNull(values) {
  for (let i = 0; i < values.length; i++) if (values[i] == null) return true
  return false
}

/**
 * The validity bits of slots [begin, end) of values, from bit 0 at `at`.
 * @param {Uint8Array} u8
 * @param {number} at
 * @param {ArrayLike<unknown>} values
 * @param {number} begin
 * @param {number} end
 */
function writeValidity(u8, at, values, begin, end) {
  u8.fill(0, at, at + ((end - begin + 7) >> 3))
  for (let i = begin; i < end; i++) if (values[i] != null) u8[at + ((i - begin) >> 3)] |= 1 << ((i - begin) & 7)
}

/**
 * @param {ArrayLike<unknown>} values
 * @param {ResolvedType} t
 */
function flbaWidth(values, t) {
  if (t.typeLength > 0) return t.typeLength
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v instanceof Uint8Array) return (t.typeLength = v.length)
  }
  return 0
}

/**
 * Writes JS values of slots [begin, end) from `at`; returns the number of value bytes written.
 * @param {import('./core.js').Core} core
 * @param {ArrayLike<unknown>} values
 * @param {ResolvedType} t
 * @param {number} begin
 * @param {number} end
 * @param {number} at
 */
function writeValues(core, values, t, begin, end, at) {
  const count = end - begin
  switch (t.name) {
    case 'INT32': {
      const w = core.i32
      for (let i = begin, p = at >> 2; i < end; i++, p++) {
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
      for (let i = begin, p = at >> 2; i < end; i++, p += 2) {
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
      for (let i = begin, p = at >> (isFloat ? 2 : 3); i < end; i++, p++) {
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
      for (let i = begin; i < end; i++) {
        const v = values[i]
        if (v === true || v === 1) u8[at + ((i - begin) >> 3)] |= 1 << ((i - begin) & 7)
        else if (v !== false && v !== 0 && v != null) throw badValue(t.name, i, v, 'a boolean')
      }
      return (count + 7) >> 3
    }
    case 'INT96':
    case 'FIXED_LEN_BYTE_ARRAY': {
      const width = t.name === 'INT96' ? 12 : flbaWidth(values, t)
      const u8 = core.u8
      for (let i = begin, p = at; i < end; i++, p += width) {
        const v = values[i]
        if (v instanceof Uint8Array && v.length === width) u8.set(v, p)
        else if (v == null) u8.fill(0, p, p + width)
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
 * UTF-8 of slots [begin, end) into [at, limit); returns the slot it stopped before. Per-string encodeInto
 * costs more than the bytes, so a rope of strings is encoded in one call; when it is ASCII (units read ==
 * bytes written) each length is .length. A rope that does not fit ends the chunk; non-ASCII, bytes,
 * nulls, or a rope too long for an empty region go one value at a time.
 * @param {import('./core.js').Core} core
 * @param {ArrayLike<unknown>} values
 * @param {number} begin
 * @param {number} end
 * @param {number} at
 * @param {number} limit
 * @param {number} offsetsPtr
 */
function writeByteArrays(core, values, begin, end, at, limit, offsetsPtr) {
  const u8 = core.u8
  const offsets = core.i32
  let o = offsetsPtr >> 2
  let pos = at
  offsets[o] = 0
  for (let c = begin; c < end; c += ROPE_CHUNK) {
    const e = Math.min(end, c + ROPE_CHUNK)
    // The offsets are written as if the rope were ASCII, in the same pass; the slow path rewrites them.
    let text = ''
    let allStrings = true
    for (let i = c, length = pos - at; i < e; i++) {
      const v = values[i]
      if (typeof v !== 'string') {
        allStrings = false
        break
      }
      text += v
      offsets[o + 1 + i - c] = length += v.length
    }
    if (allStrings) {
      if (c > begin && pos + text.length > limit) return c
      const { read, written } = utf8.encodeInto(text, u8.subarray(pos, limit))
      if (read === text.length && written === text.length) {
        pos += written
        o += e - c
        continue
      }
      if (c > begin && read < text.length) return c
    }
    for (let i = c; i < e; i++) {
      const v = values[i]
      if (typeof v === 'string') {
        const { read, written } = utf8.encodeInto(v, u8.subarray(pos, limit))
        if (read < v.length) return i
        pos += written
      } else if (v instanceof Uint8Array) {
        if (pos + v.length > limit) return i
        u8.set(v, pos)
        pos += v.length
      } else if (v != null) {
        throw badValue('BYTE_ARRAY', i, v, 'a string or Uint8Array')
      }
      offsets[++o] = pos - at
    }
  }
  return end
}

/**
 * Arrow-style buffers, copied a chunk at a time. `offset`: first slot (first bit for BOOLEAN);
 * `validityOffset` (default `offset`): first validity bit — Arrow slices fixed-width buffers, not
 * bitmaps. Lengths are checked up front, so a short buffer fails before any chunk.
 * @param {import('../index.js').ColumnarValues} input
 * @param {ResolvedType} t
 */
function columnarInput(input, t) {
  const count = input.length
  const offset = input.offset ?? 0
  const validityOffset = input.validityOffset ?? offset
  if (![count, offset, validityOffset].every((n) => Number.isInteger(n) && n >= 0)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'columnar input needs integer length, offset and validityOffset >= 0')
  }
  const values = asBytes(input.values, 'values')
  const validity = input.validity == null ? undefined : asBytes(input.validity, 'validity')
  if (validity && validity.length * 8 < validityOffset + count) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
      `validity bitmap holds ${validity.length * 8} bits, need ${validityOffset + count}`)
  }
  const s = new BatchInput(COLUMNAR, t, values, count)
  s.offset = offset
  s.validityOffset = validityOffset
  s.validity = validity
  s.hasValidity = validity !== undefined
  s.hasOffsets = t.name === 'BYTE_ARRAY'
  s.width = t.name === 'BOOLEAN' ? 1 / 8 : s.hasOffsets ? 0 : t.typeLength
  let needed
  if (s.hasOffsets) {
    if (!(input.offsets instanceof Int32Array) || input.offsets.length < offset + count + 1) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT,
        `BYTE_ARRAY columnar input needs Int32Array offsets of at least ${offset + count + 1} entries`)
    }
    const offsetsIn = input.offsets.subarray(offset, offset + count + 1)
    s.offsetsIn = offsetsIn
    if (offsetsIn[0] < 0) throw malformedColumnar(`offset ${offset} is negative`)
    needed = offsetsIn[count]
  } else {
    needed = t.name === 'BOOLEAN' ? (offset + count + 7) >> 3 : (offset + count) * s.width
  }
  if (values.length < needed) {
    throw malformedColumnar(`values hold ${values.length} bytes, ${count} slots from slot ${offset} need ${needed}`)
  }
  return s
}

/**
 * @param {BatchInput} s
 * @param {import('./core.js').Core} core
 * @param {number} begin
 * @param {number} end
 * @param {Layout} layout
 */
function writeColumnarChunk(s, core, begin, end, layout) {
  const { t } = s
  const values = /** @type {Uint8Array} */ (s.values) // a COLUMNAR input's bytes (columnarInput)
  const room = layout.valuesEnd - layout.values
  let valuesLength
  let bitOffset = 0
  let offsetsBase = 0
  const { offsetsIn } = s
  if (s.hasOffsets && offsetsIn) { // columnarInput sets offsetsIn with hasOffsets
    end = writeColumnarByteArrays(s, offsetsIn, core, begin, end, layout, room)
    if (end === begin) return begin
    offsetsBase = offsetsIn[begin]
    valuesLength = Math.max(0, offsetsIn[end] - offsetsBase)
  } else {
    end = Math.min(end, begin + fittingSlots(room, s.width))
    if (end === begin) return begin
    if (t.name === 'BOOLEAN') {
      const first = s.offset + begin
      bitOffset = first & 7
      valuesLength = (bitOffset + end - begin + 7) >> 3
      core.u8.set(values.subarray(first >> 3, (first >> 3) + valuesLength), layout.values)
    } else {
      valuesLength = (end - begin) * s.width
      core.u8.set(values.subarray((s.offset + begin) * s.width, (s.offset + end) * s.width), layout.values)
    }
  }
  let validityBitOffset = 0
  if (s.validity) {
    const first = s.validityOffset + begin
    validityBitOffset = first & 7
    core.u8.set(s.validity.subarray(first >> 3, (first >> 3) + ((validityBitOffset + end - begin + 7) >> 3)), layout.validity)
  }
  core.writeDescriptor(layout.desc, t.code, t.typeLength, end - begin, layout.values, valuesLength, layout.offsets, bitOffset,
    layout.validity, validityBitOffset, offsetsBase)
  return end
}

/**
 * The slots from `begin` whose bytes fit `room`; offsets copied as they are (wasm rebases them).
 * @param {BatchInput} s
 * @param {Int32Array} offsets s.offsetsIn
 * @param {import('./core.js').Core} core
 * @param {number} begin
 * @param {number} end
 * @param {Layout} layout
 * @param {number} room
 */
function writeColumnarByteArrays(s, offsets, core, begin, end, layout, room) {
  const first = offsets[begin]
  // Largest end with offsets[end] - first <= room (the core rejects offsets that do not ascend).
  let lo = begin
  let hi = end
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (offsets[mid] - first <= room) lo = mid
    else hi = mid - 1
  }
  end = lo
  if (end === begin) return begin
  core.i32.set(offsets.subarray(begin, end + 1), layout.offsets >> 2)
  core.u8.set(/** @type {Uint8Array} */ (s.values).subarray(first, Math.max(first, offsets[end])), layout.values)
  return end
}

/** @param {string} problem */
function malformedColumnar(problem) {
  return new ParquetBloomError(ErrorCode.BAD_VALUE, `columnar input: ${problem}`)
}

/**
 * @param {unknown} view
 * @param {string} name
 */
function asBytes(view, name) {
  if (view instanceof Uint8Array) return view
  if (ArrayBuffer.isView(view)) return new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
  if (view instanceof ArrayBuffer) return new Uint8Array(view)
  throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `columnar input: ${name} must be a typed array or ArrayBuffer`)
}
