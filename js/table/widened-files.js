// Values of a widened table column that a file written before the widening cannot hold (Delta
// PROTOCOL.md "Type Widening", Iceberg spec "Schema Evolution"): engines read such a file's values
// widened exactly to the table's type, so a value of the wider type that no narrower value widens to is
// absent from that file — a file probe would instead round it into the file's type and could call a
// neighbour `present`. Integer, decimal and date widenings need no row here: the file's own conversion
// already refuses what its narrower type cannot hold exactly (2^40 in INT32, 1.2501 in DECIMAL(5,2)).
import { valueResult } from '../verdicts.js'
import { valueKeys } from './column-keys.js'

/**
 * Per value, an `absent` answer when the file's column cannot hold it as the table reads it, else null;
 * null for the whole list when the file's column is not narrower than the table's.
 * @param {{ name: string, type: import('./column-keys.js').TableType }} field
 * @param {{ physicalType: string }} fileColumn
 * @param {unknown[]} values
 */
export function notInNarrowerFile(field, fileColumn, values) {
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
