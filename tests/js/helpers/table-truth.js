// Independent truth for table tests: every value each data file of a table fixture holds, read with
// hyparquet (not with parquet-bloom), per table column — matched to the Parquet column by field id
// (Iceberg) or by physical name (Delta column mapping), as a reader of the table must.
import { readFileSync } from 'node:fs'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

/** Every table fixture (tables/SOURCES.md). */
export const TABLE_FIXTURES = [
  'iceberg/spark_bunnies', 'iceberg/java_bunnies', 'iceberg/spark_rename_column', 'iceberg/athena_example',
  'iceberg/lineitem_iceberg', 'iceberg/mytable_partitioned_eqdeletes',
  'delta/dv-partitioned-with-checkpoint', 'delta/table_with_deletion_logs', 'delta/parquet-all-types',
  'delta/checkpoint-cdf-table', 'delta/data-reader-partition-values',
]

/** A local Parquet file's schema and rows (instants exact), read with hyparquet. */
export async function readParquet(location, columns) {
  const bytes = readFileSync(location)
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  return { schema: parquetMetadata(buffer).schema, rows: await parquetReadObjects({ file: buffer, compressors, columns, parsers: TRUTH_PARSERS }) }
}

/** The Parquet top-level column name of a table field in one file's schema. */
function parquetNameOf(schema, table, field) {
  if (table.format === 'iceberg') {
    const element = schema.slice(1).find((e) => e.field_id === field.id)
    return element?.name
  }
  return field.physicalName
}

/**
 * Per table file, per top-level primitive field: the values hyparquet reads (nulls left out).
 * @returns {Promise<Array<{ file: any, columns: Map<string, unknown[]> }>>}
 */
export async function valuesOfTable(table) {
  const out = []
  for (const file of table.files) {
    const { schema, rows } = await readParquet(file.location)
    const columns = new Map()
    for (const field of table.fields) {
      if (field.name.includes('.') || field.type.kind === 'other') continue
      const name = parquetNameOf(schema, table, field)
      if (name === undefined) continue
      const values = rows.map((r) => r[name]).filter((v) => v !== null && v !== undefined)
      columns.set(field.name, values)
    }
    // Partition columns of a Delta table live in the path, not the file: their values are the partition's.
    if (table.format === 'delta') {
      for (const p of file.partitions) if (p.raw !== null && p.raw !== '') columns.set(p.name, [p.raw])
    }
    out.push({ file, columns })
  }
  return out
}

/** Exact instants: hyparquet's Dates would drop the microseconds (a false "absent" in the test itself). */
class Instant {
  constructor(micros, nanos = 0n) { this.micros = micros; this.nanos = nanos }
  toString() { return `${this.micros}µs` }
}
export const TRUTH_PARSERS = {
  timestampFromMilliseconds: (ms) => new Instant(BigInt(ms) * 1000n),
  timestampFromMicroseconds: (us) => new Instant(BigInt(us)),
  timestampFromNanoseconds: (ns) => new Instant(BigInt(ns) / 1000n, BigInt(ns) % 1000n),
}

function instantText(instant, zoned) {
  const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b))
  const seconds = floorDiv(instant.micros, 1000000n)
  const fraction = String(instant.micros - seconds * 1000000n).padStart(6, '0') + (instant.nanos ? String(instant.nanos).padStart(3, '0') : '')
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}${zoned ? 'Z' : ''}`
}

/** A value as hyparquet returns it, as a probe takes it (decimals as exact text, instants as exact text). */
export function probeForm(field, value) {
  if (value instanceof Instant) return instantText(value, field.type.kind.startsWith('timestamptz'))
  if (field.type.kind === 'decimal' && typeof value === 'number') return value.toFixed(field.type.scale)
  if (field.type.kind === 'date' && value instanceof Date) return value.toISOString().slice(0, 10)
  return value
}

/** A value's identity for sets of values (instants, Dates and bytes by content). */
export const idOf = (v) => (typeof v === 'object' && v !== null && 'micros' in v ? `t${v.micros}.${v.nanos}` : v instanceof Date ? `d${v.getTime()}` : v instanceof Uint8Array ? `b${Array.from(v)}` : `${typeof v}:${String(v)}`)

/**
 * An Iceberg table's values per column: in live rows (position and equality deletes applied) and in
 * any row; files name columns by field id: the values are read under the current names through
 * hyparquet's own schema.
 */
export async function icebergTruth(table) {
  let liveRows = 0
  const live = new Map()
  const held = new Map()
  for (const file of table.files) {
    const { schema, rows } = await readParquet(file.location)
    const deleted = new Set()
    for (const d of file.deletes.filter((x) => x.kind === 'position')) {
      for (const r of (await readParquet(d.location, ['file_path', 'pos'])).rows) if (r.file_path === file.writtenPath) deleted.add(Number(r.pos))
    }
    // Equality deletes (the fixtures' are on int and string columns): a row equal to a delete row in
    // every equality column, matched by field id, is deleted.
    for (const d of file.deletes.filter((x) => x.kind === 'equality')) {
      const del = await readParquet(d.location)
      const nameIn = (s, id) => s.find((e) => e.field_id === id)?.name
      for (const dr of del.rows) {
        rows.forEach((row, i) => { if (d.equalityIds.every((id) => row[nameIn(schema, id)] === dr[nameIn(del.schema, id)])) deleted.add(i) })
      }
    }
    liveRows += rows.length - deleted.size
    for (const field of table.fields) {
      if (field.name.includes('.') || field.type.kind === 'other') continue
      const element = schema.find((e) => e.field_id === field.id)
      if (!element) continue
      rows.forEach((row, i) => {
        const value = row[element.name]
        if (value === null || value === undefined) return
        for (const map of deleted.has(i) ? [held] : [held, live]) {
          if (!map.has(field.name)) map.set(field.name, new Map())
          map.get(field.name).set(idOf(value), value)
        }
      })
    }
  }
  return { live, held, liveRows }
}

