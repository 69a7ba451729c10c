// An Arrow column (apache-arrow Data) of one DuckDB type, for writers that take Arrow tables: parquet-wasm,
// which is arrow-rs's Parquet writer (the Rust ecosystem's: DataFusion, delta-rs, polars). DuckDB gives each
// value in the form arrowSelect asks for (an integer of the Arrow type's unit, text, hex); nulls as null.
import {
  Binary, Bool, DateDay, Decimal, FixedSizeBinary, Float32, Float64, Int8, Int16, Int32, Int64, makeData, TimeMicrosecond,
  TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, TimestampSecond, Uint8, Uint16, Uint32, Uint64, Utf8,
} from 'apache-arrow'

/** @typedef {[() => import('apache-arrow').DataType, { new (n: number): any }, (v: any) => number | bigint]} FixedWidth */
/** @type {Record<string, FixedWidth>} the Arrow type, its values' array, a DuckDB value as an element */
const FIXED = {
  TINYINT: [() => new Int8(), Int8Array, Number], SMALLINT: [() => new Int16(), Int16Array, Number],
  INTEGER: [() => new Int32(), Int32Array, Number], BIGINT: [() => new Int64(), BigInt64Array, BigInt],
  UTINYINT: [() => new Uint8(), Uint8Array, Number], USMALLINT: [() => new Uint16(), Uint16Array, Number],
  UINTEGER: [() => new Uint32(), Uint32Array, Number], UBIGINT: [() => new Uint64(), BigUint64Array, BigInt],
  FLOAT: [() => new Float32(), Float32Array, Number], DOUBLE: [() => new Float64(), Float64Array, Number],
  DATE: [() => new DateDay(), Int32Array, Number],
  TIMESTAMP: [() => new TimestampMicrosecond(), BigInt64Array, BigInt],
  TIMESTAMP_MS: [() => new TimestampMillisecond(), BigInt64Array, BigInt],
  TIMESTAMP_S: [() => new TimestampSecond(), BigInt64Array, BigInt],
  TIMESTAMP_NS: [() => new TimestampNanosecond(), BigInt64Array, BigInt],
  TIMESTAMPTZ: [() => new TimestampMicrosecond('UTC'), BigInt64Array, BigInt],
  TIME: [() => new TimeMicrosecond(), BigInt64Array, BigInt],
}

/** How DuckDB selects column `c` of `type` for arrowColumn. @param {string} type */
export function arrowSelect(type) {
  return SELECT[type] ?? (type.startsWith('DECIMAL') ? 'c::VARCHAR' : 'c')
}
/** @type {Record<string, string>} */
const SELECT = {
  FLOAT: 'c::DOUBLE', DATE: "(c - DATE '1970-01-01')::INTEGER", TIMESTAMP: 'epoch_us(c)', TIMESTAMP_MS: 'epoch_ms(c)',
  TIMESTAMP_S: 'epoch(c)::BIGINT', TIMESTAMP_NS: 'epoch_ns(c)', TIMESTAMPTZ: 'epoch_us(c)',
  TIME: "epoch_us(c)", BLOB: 'hex(c)', UUID: "replace(c::VARCHAR, '-', '')", BIGINT: 'c::VARCHAR',
  UBIGINT: 'c::VARCHAR',
}

/**
 * @param {string} type a DuckDB type (DECIMAL(p,s) included)
 * @param {unknown[]} values as arrowSelect selects them, null for null
 * @returns {import('apache-arrow').Data | null} null: no Arrow type for it here
 */
export function arrowColumn(type, values) {
  const length = values.length
  const nullBitmap = new Uint8Array(Math.ceil(length / 8))
  let nullCount = 0
  values.forEach((v, k) => {
    if (v === null) nullCount++
    else nullBitmap[k >> 3] |= 1 << (k & 7)
  })
  const base = { length, nullCount, nullBitmap }
  const fixed = FIXED[type]
  if (fixed) {
    const [arrowType, Values, element] = fixed
    const data = new Values(length)
    values.forEach((v, k) => { if (v !== null) data[k] = element(v) })
    return makeData({ ...base, type: arrowType(), data })
  }
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(type)
  if (decimal) {
    // 128-bit two's complement, little-endian: the unscaled value (DuckDB's text has all `scale` digits).
    const words = new Uint32Array(4 * length)
    values.forEach((v, k) => {
      if (v === null) return
      let unscaled = BigInt.asUintN(128, BigInt(String(v).replace('.', '')))
      for (let w = 0; w < 4; w++, unscaled >>= 32n) words[4 * k + w] = Number(unscaled & 0xffffffffn)
    })
    return makeData({ ...base, type: new Decimal(Number(decimal[2]), Number(decimal[1]), 128), data: words })
  }
  if (type === 'BOOLEAN') {
    const data = new Uint8Array(Math.ceil(length / 8))
    values.forEach((v, k) => { if (v === true) data[k >> 3] |= 1 << (k & 7) })
    return makeData({ ...base, type: new Bool(), data })
  }
  if (type === 'UUID') {
    const data = new Uint8Array(16 * length)
    values.forEach((v, k) => { if (v !== null) data.set(Buffer.from(String(v), 'hex'), 16 * k) })
    return makeData({ ...base, type: new FixedSizeBinary(16), data })
  }
  if (type === 'VARCHAR' || type === 'BLOB') {
    const parts = values.map((v) => (v === null ? new Uint8Array(0) : Buffer.from(String(v), type === 'BLOB' ? 'hex' : 'utf8')))
    const valueOffsets = new Int32Array(length + 1)
    parts.forEach((part, k) => { valueOffsets[k + 1] = valueOffsets[k] + part.length })
    const data = new Uint8Array(valueOffsets[length])
    parts.forEach((part, k) => data.set(part, valueOffsets[k]))
    return makeData({ ...base, type: type === 'BLOB' ? new Binary() : new Utf8(), valueOffsets, data })
  }
  return null
}
