// What a table column holds in the rows of a data file without it, for point lookups (`columns`): Iceberg (spec "Column
// Projection") the file's identity partition value of the field, else the field's v3 `initial-default` (spec "Default
// values": every row written before the field was added holds it), else null; Delta (PROTOCOL.md "Partition Value
// Serialization", "Column Mapping") a partition column's value from the add's partitionValues — the data files do not
// hold partition columns — else null. The value is given as the table's other files give that column's values: as
// hyparquet reads the Parquet type the spec writes the field as (Appendix A: bigints for long, Dates for date and
// timestamps, numbers for decimals, text for string, bytes for binary and fixed).
import { compareKeys, valueKeys } from './column-keys.js'
import { isDeltaPartitionColumn } from './delta.js'

/**
 * @typedef {import('./load-table.js').LoadedTable} LoadedTable
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {import('./load-table.js').TableFile} TableFile
 * @typedef {import('./column-keys.js').TableType} TableType
 * @typedef {import('./column-keys.js').Key} Key
 * @typedef {{ value: unknown } | { unknown: string }} MissingValue every row's value, or why it is not known
 */

const text = new TextDecoder()

/** @param {unknown} v */
const show = (v) => JSON.stringify(typeof v === 'object' && v !== null && !(v instanceof Uint8Array) ? v : String(v))

/**
 * The one key of a value's keys: several that are one number (a decimal's every width, a float's both zeros) are one.
 * @param {Key[]} keys
 * @param {unknown} raw the value as written: a float's sign of zero
 */
function oneKey(keys, raw) {
  if (!keys.length || keys.some((k) => compareKeys(k, keys[0]) !== 0)) return undefined
  return keys.find((k) => typeof k === 'number' && Object.is(k, Number(raw))) ?? keys[0]
}

/**
 * The Date of the millisecond holding `ticks` (of 1/perMs ms), as point lookups read a file's timestamps
 * (js/pages/hyparquet.js): a bigint division truncates towards zero, 1969-12-31T23:59:59.999999 was 1970-01-01. Past a
 * Date's range (years after 275760, before -271821) the count itself, as those lookups give it (no Invalid Date).
 * @param {bigint} ticks @param {bigint} perMs
 */
const dateOfTicks = (ticks, perMs) => {
  const date = new Date(Number(ticks / perMs - (ticks % perMs < 0n ? 1n : 0n)))
  return Number.isNaN(date.getTime()) ? ticks : date
}

/**
 * A key (js/table/column-keys.js) as hyparquet reads a value of the type, or undefined for a type it is not read as.
 * @param {TableType} type
 * @param {Key} key
 */
function rowValueOf(type, key) {
  const n = /** @type {bigint} */ (key)
  const bytes = /** @type {Uint8Array} */ (key)
  switch (type.kind) {
    case 'boolean': return n === 1n
    case 'int': return Number(n)
    case 'long': case 'time': return n
    case 'float': case 'double': return key
    case 'decimal': return Number(n) / 10 ** (type.scale ?? 0)
    case 'date': return Number.isNaN(new Date(Number(n) * 86400000).getTime()) ? n : new Date(Number(n) * 86400000)
    case 'timestamp': case 'timestamptz': return dateOfTicks(n, 1000n)
    case 'timestamp_ns': case 'timestamptz_ns': return dateOfTicks(n, 1000000n)
    case 'string': return text.decode(bytes)
    // BYTE_ARRAY without a string annotation stays bytes in point lookups (js/confirm/point-lookups.js), as DuckDB's BLOB.
    case 'binary': case 'fixed': return new Uint8Array(bytes)
    case 'uuid': {
      const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
    }
    default: return undefined
  }
}

/**
 * A field's `initial-default` (spec Appendix C "JSON single-value serialization") as a row value.
 * @param {TableField} field
 * @returns {MissingValue}
 */
function initialDefault(field) {
  const json = field.initialDefault
  if (json === null || json === undefined) return { value: null }
  const { type } = field
  const unknown = { unknown: `its ${field.name} is the field's initial-default ${show(json)}, not read here as ${type.kind}` }
  if (type.kind === 'boolean') return typeof json === 'boolean' ? { value: json } : unknown
  if (type.kind === 'float' || type.kind === 'double') {
    return typeof json === 'number' ? { value: type.kind === 'float' ? Math.fround(json) : json } : unknown
  }
  if (type.kind === 'binary' || type.kind === 'fixed') {
    // Serialized as hexadecimal text.
    if (typeof json !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(json)) return unknown
    const bytes = Uint8Array.from(json.match(/../g) ?? [], (h) => parseInt(h, 16))
    return { value: rowValueOf(type, bytes) }
  }
  // Appendix C writes an offset into every timestamptz: text without one is not that type's.
  if (type.kind.startsWith('timestamptz') && !/(Z|[+-]\d{2}:?\d{2})$/.test(String(json))) return unknown
  let keyed
  try {
    keyed = valueKeys(type, [typeof json === 'number' && Number.isInteger(json) ? BigInt(json) : json])[0]
  } catch {
    return unknown
  }
  // One stored reading only: a value with several is no one row value.
  const key = keyed && 'keys' in keyed ? oneKey(keyed.keys, json) : undefined
  const value = key === undefined ? undefined : rowValueOf(type, key)
  return value === undefined ? unknown : { value }
}

/**
 * What every row of a data file that has no column for `field` (a top-level field of the table) holds.
 * @param {LoadedTable} table
 * @param {TableFile | undefined} file the table's file
 * @param {TableField} field
 * @returns {MissingValue}
 */
export function missingColumnValue(table, file, field) {
  const partition = file?.partitions.find((p) => p.sourceId === field.id && p.transform.name === 'identity')
  if (partition) {
    if (partition.key === null) return { value: null }
    if (partition.orNull) {
      return { unknown: `its ${field.name} is the file's partition value ${show(partition.raw)} or null, by whom reads it` }
    }
    const key = oneKey(partition.keys ?? (partition.key === undefined ? [] : [partition.key]), partition.raw)
    const value = key === undefined ? undefined : rowValueOf(field.type, key)
    if (value === undefined) return { unknown: `its ${field.name} is the file's partition value ${show(partition.raw)}, not read here` }
    return { value }
  }
  if (table.format === 'delta') {
    // A partition column whose value the log gives in a form not read (js/table/delta.js deltaPartitions) is not null.
    return isDeltaPartitionColumn(table.metaData, field)
      ? { unknown: `its ${field.name} is the add's partition value, which is not read here` } : { value: null }
  }
  return initialDefault(field)
}
