// Which Parquet column of an Iceberg data file holds a table field (spec "Column Projection"): the column
// with the field's id when the file has field ids; else the column the table's name mapping
// (`schema.name-mapping.default`, spec Appendix C "Name Mapping Serialization") gives the field's id — files
// imported from writers without ids are read through it, and a rename keeps the files' old names there;
// else, with no mapping, the column of the field's name when every schema of the table gave that name to
// that field alone (a name another field once held may be that field's column in an older file) and it is the
// column Iceberg Java reads as the field (by position; the spec reads nulls there). A name the
// current schema does not have but an older one gave a field (dropped, or renamed since) is no column of the
// table: files written before hold that field's values under it.

/**
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {{ id: number | undefined, names: string[], fields: MappedField[] }} MappedField
 *   a name mapping's field: its id (none: a column the table does not have), the names files give it, its children
 * @typedef {{ mapping: MappedField[] } | { invalid: string } | null} NameMapping
 *   a table's parsed mapping; invalid: why it cannot be used (no file without ids is then read); null: the table has none
 * @typedef {{ path: string[] } | { missing: string, unread?: true }} FileColumn
 *   the file's column (its path), or why the file has none for the field; unread: it may hold the field in a column not
 *   read as it (no ids, no usable mapping), unlike a file written without the field (a point lookup's null there)
 */

const MAPPING_PROPERTY = 'schema.name-mapping.default'

/**
 * One level of a name mapping, checked as Iceberg Java's NameMappingParser and MappedFields check it: names
 * strings, ids integers, and no name given twice at one level (which field a file's column is would be a guess).
 * @param {unknown} list
 * @param {string} where the level's path, for messages
 * @returns {MappedField[]}
 */
function mappedFields(list, where) {
  if (!Array.isArray(list)) throw new Error(`${where} is not a list of field mappings`)
  /** @type {Set<string>} */
  const seen = new Set()
  return list.map((entry, k) => {
    const at = `${where}[${k}]`
    if (!entry || typeof entry !== 'object') throw new Error(`${at} is not an object`)
    const id = entry['field-id']
    if (id !== undefined && id !== null && !Number.isSafeInteger(id)) {
      throw new Error(`${at}: field-id ${JSON.stringify(id)} is not an integer`)
    }
    const names = entry.names
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw new Error(`${at}: names is not a list of strings`)
    for (const name of names) {
      if (seen.has(name)) throw new Error(`${where}: the name ${JSON.stringify(name)} is mapped twice`)
      seen.add(name)
    }
    const fields = entry.fields === undefined || entry.fields === null ? [] : mappedFields(entry.fields, `${at}.fields`)
    return { id: id ?? undefined, names, fields }
  })
}

/**
 * A table's name mapping from its properties.
 * @param {Record<string, string> | undefined} properties
 * @returns {NameMapping}
 */
export function readNameMapping(properties) {
  const text = properties?.[MAPPING_PROPERTY]
  if (text === undefined || text === null) return null
  try {
    return { mapping: mappedFields(JSON.parse(String(text)), MAPPING_PROPERTY) }
  } catch (error) {
    return { invalid: `its ${MAPPING_PROPERTY} cannot be used: ${/** @type {Error} */ (error).message}` }
  }
}

/**
 * The field id a name mapping gives the column at `path` (a name per level, as the file's schema nests them), or
 * undefined. A column under a list or map is not mapped here: no such column is a field a probe names.
 * @param {MappedField[]} mapping
 * @param {string[]} path
 */
function mappedId(mapping, path) {
  let level = mapping
  /** @type {MappedField | undefined} */
  let found
  for (const name of path) {
    found = level.find((f) => f.names.includes(name))
    if (!found) return undefined
    level = found.fields
  }
  return found?.id
}

/**
 * Whether every schema of the table gives the field's name to it alone, and it no other name: then a file's
 * column of that name, whichever schema the file was written with, is that field's. Schemas are numbered from
 * 0 without gaps; one missing (removed) may have said otherwise.
 * @param {TableField} field
 * @param {TableField[][]} schemas each schema's fields (js/table/iceberg.js schemaFields)
 */
function nameAlwaysMeant(field, schemas) {
  return schemas.length > 0 && schemas.every((fields) => fields.every((f) => (f.name === field.name) === (f.id === field.id)))
}

/**
 * How a table's data files' columns are found: by field id, by the table's name mapping, or by a name that
 * always meant the field.
 */
export class IcebergFileColumns {
  #mapping
  #schemas
  #known
  #current

  /**
   * @param {NameMapping} mapping the table's name mapping (readNameMapping)
   * @param {TableField[][] | null} schemas every schema's fields, or null when some may be missing
   * @param {TableField[][]} known the fields of the schemas the metadata holds
   * @param {TableField[]} current the table's fields (the current schema's, and the snapshot's asked for)
   */
  constructor(mapping, schemas, known, current) {
    this.#mapping = mapping
    this.#schemas = schemas
    this.#known = known
    this.#current = new Map(current.map((f) => [f.name, f.id]))
  }

  /**
   * Why a name the table's fields do not have is no column of the table, or null: when a schema the metadata holds
   * gave it (or, for a dotted name, its first part) to a field that is not the table's under that name — dropped, or
   * renamed since. A dotted name under a field of the table (a list's element) is not one.
   * @param {string} name
   */
  notAColumn(name) {
    if (this.#current.has(name)) return null
    const top = name.split('.')[0]
    for (const fields of this.#known) {
      const former = fields.find((f) => (f.name === name || f.name === top) && this.#current.get(f.name) !== f.id)
      if (former) {
        return `${former.name} is not a column of the table's current schema: field ${former.id} had that name in an ` +
          'older schema (dropped, or renamed since), and files written before hold its values under it'
      }
    }
    return null
  }

  /**
   * The column of a file holding `field`, or why there is none.
   * @param {Array<{ path: string[], fieldId?: number }>} columns the file's leaf columns (its layout's)
   * @param {TableField} field
   * @returns {FileColumn}
   */
  columnOf(columns, field) {
    const byId = columns.find((c) => c.fieldId === field.id)
    if (byId) return { path: byId.path }
    if (columns.some((c) => c.fieldId !== undefined)) {
      return { missing: `no column with field id ${field.id} (${field.name}): the file was written before the column existed` }
    }
    const mapping = this.#mapping
    if (mapping && 'invalid' in mapping) {
      return { missing: `the file has no field ids and the table's name mapping ${mapping.invalid}`, unread: true }
    }
    if (mapping) {
      const mapped = columns.filter((c) => mappedId(mapping.mapping, c.path) === field.id)
      if (mapped.length === 1) return { path: mapped[0].path }
      if (mapped.length) {
        return { missing: `the file has no field ids and the table's name mapping gives field ${field.id} (${field.name}) to ` +
          `${mapped.length} of its columns (${mapped.map((c) => c.path.join('.')).join(', ')})`, unread: true }
      }
      return { missing: `the file has no field ids and the table's name mapping gives no column of it field ${field.id} (${field.name})` }
    }
    if (!this.#schemas || !nameAlwaysMeant(field, this.#schemas)) {
      return { missing: `the file has no field ids, the table no name mapping, and the name ${field.name} has not always meant ` +
        `field ${field.id}: the file's column of that name may be another field's`, unread: true }
    }
    // Iceberg Java reads such a file by position: its k-th top-level column as field k (ParquetSchemaUtil.addFallbackIds),
    // a struct's fields not by name either; the spec reads nulls. A name is read only where Java's position agrees with it.
    const tops = [...new Set(columns.map((c) => c.path[0]))]
    if (!field.topLevel || tops[field.id - 1] !== field.name) {
      return { missing: 'the file has no field ids and the table no name mapping: Iceberg Java reads its columns by position, ' +
        (field.topLevel ? `the ${field.id}. as field ${field.id} (${field.name}), and that is ${tops[field.id - 1] ?? 'none'}`
          : `nested fields too, not by name (${field.name})`), unread: true }
    }
    return { path: [field.name] }
  }
}
