// Column types: the logical type of a schema element (LogicalTypes.md: logical_type, else the legacy
// converted_type) and a human label for a column type, for the footer, CLI, demo page and messages.

/**
 * A human label for a column type: "INT32 (DATE)", "FIXED_LEN_BYTE_ARRAY(16) (UUID)",
 * "INT64 (TIMESTAMP(MICROS, UTC))", "INT32 (INTEGER(8, signed))", "BYTE_ARRAY".
 * @param {{ physicalType: string, typeLength?: number, logicalType?: { [key: string]: unknown } | null }} column a LogicalType
 */
export function describeColumnType(column) {
  const physical = column?.physicalType ?? 'unknown type'
  const base = physical === 'FIXED_LEN_BYTE_ARRAY' && Number.isInteger(column.typeLength)
    ? `${physical}(${column.typeLength})`
    : String(physical)
  const logical = describeLogicalType(column?.logicalType)
  return logical ? `${base} (${logical})` : base
}

/** @param {{ [key: string]: unknown } | null | undefined} lt a LogicalType */
function describeLogicalType(lt) {
  if (!lt || typeof lt !== 'object') return ''
  switch (lt.type) {
    case 'INTEGER': return `INTEGER(${lt.bitWidth}, ${lt.isSigned === false ? 'unsigned' : 'signed'})`
    case 'DECIMAL': return `DECIMAL(${lt.precision}, ${lt.scale ?? 0})`
    case 'TIME':
    case 'TIMESTAMP': return `${lt.type}(${lt.unit}, ${lt.isAdjustedToUTC ? 'UTC' : 'local'})`
    case 'OTHER': return lt.name ? `OTHER(${lt.name})` : 'OTHER'
    default: return String(lt.type)
  }
}

/**
 * What of a SchemaElement (hyparquet's, or js/footer/outline-layout.js's of the wasm decoder's records) sets its column's type.
 * @typedef {{ logical_type?: { [key: string]: unknown } | null, converted_type?: string | null, precision?: number,
 *   scale?: number }} SchemaElementTypes
 */

const SIMPLE_LOGICAL = new Set([
  'STRING', 'ENUM', 'JSON', 'BSON', 'UUID', 'FLOAT16', 'INTERVAL', 'DATE', 'VARIANT', 'GEOMETRY', 'GEOGRAPHY', 'UNKNOWN',
])

/**
 * The normalized logical type of a hyparquet SchemaElement: its `logical_type` when it is one we know,
 * else its legacy `converted_type`, else null.
 * @param {SchemaElementTypes} element
 * @returns {import('../index.js').LogicalType | null}
 */
export function logicalTypeFromSchemaElement(element) {
  const fromLogical = logicalFromThrift(element?.logical_type, element)
  if (fromLogical && fromLogical.type !== 'OTHER') return fromLogical
  // An unrecognised logical type defers to a converted type a legacy reader would have used.
  return logicalFromConverted(element) ?? fromLogical
}

/**
 * @param {{ [key: string]: unknown } | null | undefined} lt a SchemaElement's logical_type
 * @param {SchemaElementTypes} element the SchemaElement, whose scale and precision a DecimalType without them defers to
 * @returns {import('../index.js').LogicalType | null}
 */
function logicalFromThrift(lt, element) {
  if (!lt || typeof lt !== 'object') return null
  const type = lt.type
  if (type === 'NULL') return { type: 'UNKNOWN' }
  if (typeof type === 'string' && SIMPLE_LOGICAL.has(type)) return { type }
  switch (type) {
    // Both are required in a DecimalType; a writer that leaves them out most likely wrote them in the SchemaElement
    // (as every writer does for the converted type), else LogicalTypes.md's default scale, 0.
    case 'DECIMAL': return { type, precision: lt.precision ?? element?.precision, scale: lt.scale ?? element?.scale ?? 0 }
    case 'TIME':
    case 'TIMESTAMP': return { type, unit: lt.unit, isAdjustedToUTC: Boolean(lt.isAdjustedToUTC) }
    case 'INTEGER':
      // Both are required: an IntType without its signedness is not read as either (unsigned would put -5 out of
      // range and order min/max wrongly): it defers, as an unknown type does, to a converted type, else to the
      // physical type without a sort order for its statistics.
      if (typeof lt.bitWidth !== 'number' || typeof lt.isSigned !== 'boolean') {
        return { type: 'OTHER', name: 'INTEGER without bitWidth or isSigned' }
      }
      return { type, bitWidth: lt.bitWidth, isSigned: lt.isSigned }
  }
  if (typeof type === 'string') return { type: 'OTHER', name: type }
  // hyparquet passes union members it does not know through as { field_N: ... }
  const key = Object.keys(lt)[0]
  return { type: 'OTHER', name: key ? `LogicalType ${key.replace('field_', 'field ')}` : 'LogicalType' }
}

/** @type {Record<string, [number, boolean]>} */
const CONVERTED_INTEGERS = {
  INT_8: [8, true], INT_16: [16, true], INT_32: [32, true], INT_64: [64, true],
  UINT_8: [8, false], UINT_16: [16, false], UINT_32: [32, false], UINT_64: [64, false],
}

/** @param {SchemaElementTypes} element @returns {import('../index.js').LogicalType | null} */
function logicalFromConverted(element) {
  const ct = element?.converted_type
  switch (ct) {
    case undefined:
    case null: return null
    case 'UTF8': return { type: 'STRING' }
    case 'ENUM':
    case 'JSON':
    case 'BSON':
    case 'DATE':
    case 'INTERVAL': return { type: ct }
    case 'DECIMAL': return { type: 'DECIMAL', precision: element.precision, scale: element.scale ?? 0 }
    // UTC by LogicalTypes.md, but DuckDB reads them as TIME / TIMESTAMP without zone: `legacy` probes both (js/values/temporal.js).
    case 'TIME_MILLIS':
    case 'TIME_MICROS':
    case 'TIMESTAMP_MILLIS':
    case 'TIMESTAMP_MICROS': {
      const [type, unit] = ct.split('_')
      return { type, unit, isAdjustedToUTC: true, legacy: true }
    }
  }
  const int = CONVERTED_INTEGERS[ct]
  if (int) return { type: 'INTEGER', bitWidth: int[0], isSigned: int[1] }
  return null // MAP, MAP_KEY_VALUE, LIST annotate groups, not leaves
}
