// Values of a widened table column that a file written before the widening cannot hold (Delta
// PROTOCOL.md "Type Widening", Iceberg spec "Schema Evolution"): engines read such a file's values
// widened exactly to the table's type, so a value of the wider type that no narrower value widens to is
// absent from that file — a file probe would instead round it into the file's type and could call a
// neighbour `present`. Integer and decimal widenings need no row here: the file's own conversion
// already refuses what its narrower type cannot hold exactly (2^40 in INT32, 1.2501 in DECIMAL(5,2)).
// A date widened to a timestamp (Iceberg v3) does: the file's DATE conversion would drop a time of day
// (a Date at noon probed as its day) and read an integer as days, where the table means micro- or
// nanoseconds. So does an integer type widened to double (Delta): text the table rounds to an integer
// double, which the file's conversion reads exactly and finds no integer in.
import { valueResult } from '../verdicts.js'
import { valueKeys } from './column-keys.js'

/**
 * Per value, an `absent` answer when the file's column cannot hold it as the table reads it, else null;
 * null for the whole list when the file's column is not narrower than the table's.
 * @param {{ name: string, type: import('./column-keys.js').TableType }} field
 * @param {{ physicalType: string, logicalType?: { type?: string, unit?: string } | null }} fileColumn
 * @param {unknown[]} values
 */
export function notInNarrowerFile(field, fileColumn, values) {
  if (TIMESTAMPS.has(field.type.kind)) {
    const unit = fileColumn.logicalType?.type === 'DATE' ? 'DAYS' : fileColumn.physicalType === 'INT96' ? 'INT96'
      : fileColumn.logicalType?.type === 'TIMESTAMP' ? fileColumn.logicalType.unit : undefined
    if (unit && unit !== (field.type.kind.endsWith('_ns') ? 'NANOS' : 'MICROS')) return inOtherUnit(field, values, unit)
  }
  if (field.type.kind === 'double' && INTEGERS.has(fileColumn.physicalType) && !NOT_INTEGERS.has(fileColumn.logicalType?.type ?? '')) {
    return roundedText(field, fileColumn.physicalType, values)
  }
  if (field.type.kind !== 'double' || fileColumn.physicalType !== 'FLOAT') return null
  let keyed
  try { keyed = valueKeys(field.type, values) } catch { return null }
  return keyed.map((slot, k) => {
    if (!slot || !('keys' in slot)) return null
    const holdable = slot.keys.some((key) => typeof key !== 'number' || Math.fround(key) === key)
    return holdable ? null : valueResult(values[k], 'absent', 'value', 'not-representable',
      `${field.name} is a double column and this file stores it as FLOAT, written before the column was widened: ` +
      `it holds only float32 values, and ${String(values[k])} is none`)
  })
}

const TIMESTAMPS = new Set(['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'])
const INTEGERS = new Set(['INT32', 'INT64'])
const NOT_INTEGERS = new Set(['DECIMAL', 'DATE', 'TIME', 'TIMESTAMP'])
/** @type {import('./column-keys.js').TableType} digits read exactly, as an integer */
const EXACT_INTEGER = { kind: 'decimal', precision: 400, scale: 0 }

/**
 * Per value, the answer of a file whose column is still of integers under a double column (Delta: byte, short or int
 * widened to double): text whose digits a double rounds to an integer ("3.0000000000000001" is the double 3, which the
 * file's 3 widens to) is read exactly by the file's own conversion, which finds no integer there. `unknown`
 * (`unit-differs`): the file reads it in another way than the table. Numbers are doubles already, read exactly.
 * @param {{ name: string, type: import('./column-keys.js').TableType }} field
 * @param {string} physicalType
 * @param {unknown[]} values
 */
function roundedText(field, physicalType, values) {
  let keyed
  try { keyed = valueKeys(field.type, values) } catch { return null }
  return keyed.map((slot, k) => {
    const value = values[k]
    const double = slot && 'keys' in slot ? slot.keys[0] : undefined
    if (typeof value !== 'string' || typeof double !== 'number' || !Number.isInteger(double)) return null
    // The text's exact integer, as the file reads it: none when it has a fraction.
    let exact
    try { exact = valueKeys(EXACT_INTEGER, [value])[0] } catch { exact = null }
    if (exact && 'keys' in exact && exact.keys[0] === BigInt(double)) return null
    return valueResult(value, 'unknown', null, 'unit-differs',
      `${field.name} is a double column and this file stores it as ${physicalType}, written before the column was widened: ` +
      `${value} is the double ${double} in the table, which this file's integers are not probed for; give the value as a number`)
  })
}

/**
 * Per value, the answer of a file whose timestamp column counts another unit than the table's: DATE (a
 * column widened from date: the file holds midnights only, any other instant is `absent`), TIMESTAMP in
 * milliseconds or nanoseconds, or INT96 (files written by other tools, added to the table). An integer is
 * in the table's unit, which the file's own conversion would read in the file's: `unknown` (`unit-differs`).
 * Text and Dates are probed by the file's conversion, which reads them exactly.
 * @param {{ name: string, type: import('./column-keys.js').TableType }} field
 * @param {unknown[]} values
 * @param {string} unit the file's: DAYS, MILLIS, MICROS, NANOS or INT96
 */
function inOtherUnit(field, values, unit) {
  let keyed
  try { keyed = valueKeys(field.type, values) } catch { return null }
  const day = field.type.kind.endsWith('_ns') ? 86_400_000_000_000n : 86_400_000_000n
  return keyed.map((slot, k) => {
    if (!slot || !('keys' in slot)) return null
    if (unit === 'DAYS' && !slot.keys.some((key) => typeof key === 'bigint' && key % day === 0n)) {
      return valueResult(values[k], 'absent', 'value', 'not-representable',
        `${field.name} is a timestamp column widened from date and this file stores it as DATE, written before the widening: ` +
        `it holds only midnights, and ${String(values[k])} is none`)
    }
    const value = values[k]
    if (typeof value === 'bigint' || typeof value === 'number') {
      return valueResult(value, 'unknown', null, 'unit-differs',
        `${field.name} is a timestamp column of ${field.type.kind.endsWith('_ns') ? 'nano' : 'micro'}seconds and this file ` +
        `stores it as ${unit === 'DAYS' ? 'DATE (days)' : unit}: the integer ${String(value)} is not probed in it; ` +
        'give the value as text or a Date')
    }
    return null
  })
}

/**
 * Whether a sidecar index may answer these values of a table column in every file: an index reads a value as each file's
 * column does, and its `absent` skips the file, so notInNarrowerFile never sees it. Not for values a file of an older
 * type or another unit reads otherwise: an integer under a timestamp column (days in a DATE file written before a
 * widening, milliseconds or INT96 in a file added from another tool), text a double column rounds to an integer it is
 * not (an INT32 file written before a widening). Such a probe's files are each opened and decided as without an index.
 * @param {{ type: import('./column-keys.js').TableType }} field
 * @param {unknown[]} values
 */
export function indexReadsAsTable(field, values) {
  if (TIMESTAMPS.has(field.type.kind)) return !values.some((v) => typeof v === 'number' || typeof v === 'bigint')
  if (field.type.kind !== 'double') return true
  const rounded = roundedText({ name: '', type: field.type }, 'INT32', values)
  return !rounded || rounded.every((answer) => answer === null)
}
