// Independent truth for table tests: every value each data file of a table fixture holds, read with
// hyparquet (not with parquet-bloom), per table column — matched to the Parquet column by field id
// (Iceberg) or by physical name (Delta column mapping), as a reader of the table must.
import { readFileSync } from 'node:fs'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

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
    const bytes = readFileSync(file.location)
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    const schema = parquetMetadata(buffer).schema
    const rows = await parquetReadObjects({ file: buffer, compressors })
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

/** A value as hyparquet returns it, as a probe takes it (decimals as exact text, dates as Dates). */
export function probeForm(field, value) {
  if (field.type.kind === 'decimal' && typeof value === 'number') return value.toFixed(field.type.scale)
  if (field.type.kind === 'date' && value instanceof Date) return value.toISOString().slice(0, 10)
  return value
}
