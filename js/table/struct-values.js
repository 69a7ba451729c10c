// A struct column's point lookup values (`columns`) as the table names its fields. A data file's struct holds its
// fields under the file's names — Iceberg's as written (a field renamed since keeps its old name there; fields are
// found by id, spec "Column Projection"), Delta's physical names under column mapping (PROTOCOL.md "Column Mapping") —
// and lacks fields added since, which hold what missing-columns.js says (an Iceberg `initial-default`, else null).
// Fields the schema no longer has are left out. A list or map column's: js/table/nested-values.js.
import { missingColumnValue } from './missing-columns.js'

/**
 * @typedef {import('./load-table.js').LoadedTable} LoadedTable
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {import('./load-table.js').TableFile} TableFile
 * @typedef {{ name: string, at: string | null, value?: unknown, fields: StructShape[] }} StructShape
 *   a field of a struct: its name in the table, in the file (null: the file lacks it, and every row holds `value`), its fields
 */

/**
 * A field's name as segments: Delta's as its schema nests them (a field may be named "a.b", which the dotted name cannot
 * tell from a struct a's b: split, such a field was left out of its struct's value), else the dotted name's.
 * @param {TableField} f
 */
const segmentsOf = (f) => f.namePath ?? f.name.split('.')

/** @param {TableField} parent @param {TableField} f @param {number} [more] how many levels below parent */
const under = (parent, f, more) => {
  const [p, s] = [segmentsOf(parent), segmentsOf(f)]
  return (more === undefined ? s.length > p.length : s.length === p.length + more) && p.every((segment, i) => s[i] === segment)
}

/**
 * The fields of a struct field as one file holds them, or why a value of one is not known here; null for a field without
 * struct fields.
 * @param {LoadedTable} table
 * @param {TableFile | undefined} file the table's file
 * @param {TableField} field a top-level field the file has
 * @param {(field: TableField) => string[] | null} pathIn the file's path of a field (of a leaf column under it), or null
 * @param {(field: TableField) => string | null} [unread] why the file may hold a field it has no path of (Iceberg: no field
 *   ids, no name mapping), or null: then no value of the struct is known, not a null made up for the field
 * @returns {{ shape: StructShape[] } | { unknown: string } | null}
 */
export function structShape(table, file, field, pathIn, unread = () => null) {
  /** @type {string | null} */
  let unknown = null
  /** @param {TableField} parent @param {number} depth @returns {StructShape[]} */
  const fieldsOf = (parent, depth) => table.fields.filter((f) => under(parent, f, 1)).map((f) => {
    const name = /** @type {string} */ (segmentsOf(f).at(-1))
    let at = null
    for (const leaf of [f, ...table.fields.filter((d) => under(f, d))]) {
      const path = pathIn(leaf)
      if (path && path.length > depth) {
        at = path[depth]
        break
      }
    }
    if (at !== null) return { name, at, fields: fieldsOf(f, depth + 1) }
    const why = unread(f)
    if (why) unknown ??= `its field ${f.name} is not read here: ${why}`
    const missing = missingColumnValue(table, file, f)
    if ('unknown' in missing) unknown ??= missing.unknown
    return { name, at, value: 'value' in missing ? missing.value : undefined, fields: [] }
  })
  const shape = fieldsOf(field, 1)
  if (!shape.length) return null
  return unknown === null ? { shape } : { unknown: `the file has no column ${field.name}'s field, and ${unknown}` }
}

/**
 * A file's struct value as the table names its fields.
 * @param {unknown} value
 * @param {StructShape[]} shape
 * @returns {unknown}
 */
export function reshapeStruct(value, shape) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const held = /** @type {Record<string, unknown>} */ (value)
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const f of shape) out[f.name] = f.at === null ? f.value : f.fields.length ? reshapeStruct(held[f.at], f.fields) : held[f.at]
  return out
}
