// A list or map column's point lookup values (`columns`) with the structs under it named as the table names their fields
// (js/table/struct-values.js does a struct column's): a data file holds them under its own names — an Iceberg field's as
// written before a rename (fields are found by id, spec "Column Projection"), Delta's physical names (PROTOCOL.md "Column
// Mapping": by physical name, or by field id in mode `id`) — and lacks fields added since, which hold an Iceberg
// `initial-default`, else null (js/table/missing-columns.js); fields the schema no longer has are left out. The file's
// list and map levels are read as hyparquet's row reader assembles them (js/confirm/point-lookups.js).
import { hyparquetMetadata, loadHyparquet } from '../pages/page-decode.js'
import { icebergType } from './iceberg-types.js'
import { missingColumnValue } from './missing-columns.js'

/**
 * @typedef {import('./load-table.js').LoadedTable} LoadedTable
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {{ element: Record<string, any>, children: SchemaNode[] }} SchemaNode hyparquet's schema tree
 * @typedef {(value: unknown) => unknown} Shape a file's value as the table's
 */

class NotKnown extends Error {}

// hyparquet's rules (hyparquet/src/schema.js isListLike, isMapLike), by which its row reader assembles lists and maps.
/** @param {SchemaNode} node */
const listLike = (node) => node.element.converted_type === 'LIST' && node.children.length === 1 &&
  node.children[0].children.length <= 1 && node.children[0].element.repetition_type === 'REPEATED'
/** @param {SchemaNode} node */
const mapLike = (node) => node.element.converted_type === 'MAP' && node.children.length === 1 &&
  node.children[0].children.length === 2 && node.children[0].element.repetition_type === 'REPEATED' &&
  node.children[0].children.every((c) => !['key', 'value'].includes(c.element.name) || c.element.repetition_type !== 'REPEATED')

const same = (/** @type {unknown} */ v) => v

/**
 * How a file's values of a list or map field become the table's, or why they cannot be made so here.
 * @param {LoadedTable} table
 * @param {import('../footer/footer.js').FileLayout} layout the data file's
 * @param {TableField} field a top-level list or map field (its `nestedType`, as the table's schema writes it)
 * @param {string} fileName the field's top-level column in the file
 * @returns {Promise<{ reshape: Shape } | { unknown: string }>}
 */
export async function nestedShape(table, layout, field, fileName) {
  const [{ pages }, metadata] = await Promise.all([loadHyparquet(), hyparquetMetadata(layout)])
  const node = pages.parquetSchema(metadata).children.find((/** @type {SchemaNode} */ c) => c.element.name === fileName)
  try {
    return { reshape: shapeOf(table, field.nestedType, node, field.name) }
  } catch (error) {
    if (error instanceof NotKnown) return { unknown: `${field.name}: ${error.message}` }
    throw error
  }
}

/**
 * @param {LoadedTable} table
 * @param {any} type the table's type (Iceberg or Delta schema JSON)
 * @param {SchemaNode | undefined} node the file's schema node holding it
 * @param {string} where for messages
 * @returns {Shape}
 */
function shapeOf(table, type, node, where) {
  if (!node) throw new NotKnown(`the file has no column of ${where}`)
  if (!type || typeof type !== 'object') return same // a primitive: as the file gives it
  const kind = type.type
  if (kind === 'list' || kind === 'array') {
    if (!listLike(node)) throw new NotKnown(`the file's ${where} is not a list as hyparquet reads one`)
    const repeated = node.children[0]
    const element = shapeOf(table, kind === 'list' ? type.element : type.elementType,
      repeated.children.length === 1 ? repeated.children[0] : repeated, `${where}'s element`)
    if (element === same) return same
    return (v) => (Array.isArray(v) ? v.map(element) : v)
  }
  if (kind === 'map') {
    if (!mapLike(node)) throw new NotKnown(`the file's ${where} is not a map as hyparquet reads one`)
    const [keyNode, valueNode] = node.children[0].children
    if (shapeOf(table, table.format === 'iceberg' ? type.key : type.keyType, keyNode, `${where}'s key`) !== same) {
      throw new NotKnown('a map keyed by structs or lists is not read here')
    }
    const value = shapeOf(table, table.format === 'iceberg' ? type.value : type.valueType, valueNode, `${where}'s value`)
    if (value === same) return same
    return (v) => (v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x)])) : v)
  }
  if (kind !== 'struct') throw new NotKnown(`its type ${JSON.stringify(kind)} is not read here`)
  const fields = /** @type {any[]} */ (type.fields ?? []).map((f) => {
    const at = childOf(table, f, node)
    if (at) return { name: f.name, at: at.element.name, shape: shapeOf(table, f.type, at, `${where}.${f.name}`) }
    if (table.format !== 'iceberg') return { name: f.name, value: null }
    const missing = missingColumnValue(table, undefined,
      { id: f.id, name: `${where}.${f.name}`, type: icebergType(f.type), initialDefault: f['initial-default'] })
    if ('unknown' in missing) throw new NotKnown(missing.unknown)
    return { name: f.name, value: missing.value }
  })
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    const held = /** @type {Record<string, unknown>} */ (v)
    return Object.fromEntries(fields.map((f) => [f.name, 'value' in f ? f.value : f.shape(held[f.at])]))
  }
}

/**
 * The file's child of a struct node holding a table field: Iceberg's by field id (a file without ids under the struct
 * is not read here: its names may be another field's), Delta's by field id under column mapping `id`, else by its
 * physical name (the name itself in mode `none`).
 * @param {LoadedTable} table
 * @param {any} f the table's struct field
 * @param {SchemaNode} node
 * @returns {SchemaNode | undefined}
 */
function childOf(table, f, node) {
  const ids = node.children.some((c) => c.element.field_id !== undefined)
  if (table.format === 'iceberg') {
    if (!ids) throw new NotKnown('the file has no field ids under it, which its struct fields are found by')
    return node.children.find((c) => c.element.field_id === f.id)
  }
  if (table.columnMapping === 'id') {
    const id = Number(f.metadata?.['delta.columnMapping.id'])
    return Number.isSafeInteger(id) ? node.children.find((c) => c.element.field_id === id) : undefined
  }
  const physical = table.columnMapping === 'name' ? f.metadata?.['delta.columnMapping.physicalName'] ?? f.name : f.name
  return node.children.find((c) => c.element.name === physical)
}
