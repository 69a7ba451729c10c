// What a table's own metadata says about one file before any read of it: per probed value, null (the
// metadata cannot rule it out) or an `absent` answer from the file's partition values (Iceberg
// transforms, Delta partition columns) or its per-column facts (bounds, null/NaN/value counts); for a
// Delta partition column, which the data files do not hold, a `maybe` where the partition value equals it. The
// answers are the prefilter the dataset layer asks before it opens a file.
import { nullOnlyFromNull, transformReadings } from './iceberg-types.js'
import { factsExclude, sameKey, valueKeys } from './column-keys.js'

/**
 * @typedef {import('./load-table.js').TableFile} TableFile
 * @typedef {import('./load-table.js').TableField} TableField
 * @typedef {import('./column-keys.js').Key} Key
 */

export const TableSource = Object.freeze({ PARTITION: 'table-partition', STATISTICS: 'table-stats' })

/** @param {string} source @param {string} reason @param {string} detail */
const absent = (source, reason, detail) => ({ verdict: /** @type {'absent'} */ ('absent'), source, reason, detail })

/**
 * Why one key cannot be in the file, or null.
 * @param {Pick<TableFile, 'partitions' | 'columnFacts'>} file
 * @param {Pick<TableField, 'id' | 'name' | 'type'>} field
 * @param {Key} key
 */
function keyExcluded(file, field, key) {
  for (const p of file.partitions) {
    if (p.sourceId !== field.id || p.key === undefined) continue
    if (p.key === null) {
      if (!nullOnlyFromNull(p.transform)) continue
      return absent(TableSource.PARTITION, 'partition-mismatch',
        `the file's partition ${p.name} is null: every row has a null ${field.name}`)
    }
    const readings = transformReadings(p.transform, field.type, key)
    if (!readings.length) continue
    const transformed = readings[0]
    const matches = readings.some((t) => (p.keys ? p.keys.some((k) => sameKey(t, k)) : sameKey(t, /** @type {Key} */ (p.key))))
    if (!matches) {
      return absent(TableSource.PARTITION, 'partition-mismatch',
        `the file's partition ${p.name} (${p.transform.name}${p.transform.arg !== undefined ? `[${p.transform.arg}]` : ''}) ` +
        `is ${show(p.raw)}; the value's is ${show(transformed)}`)
    }
  }
  const facts = file.columnFacts.get(field.id)
  if (!facts) return null
  const why = factsExclude(facts, key)
  if (why === 'all-null') {
    return absent(TableSource.STATISTICS, 'all-null', `the table's metadata counts only nulls in ${field.name} for this file`)
  }
  if (why === 'out-of-bounds') {
    return absent(TableSource.STATISTICS, 'out-of-range',
      `outside the lower/upper bounds the table's metadata records for ${field.name} in this file`)
  }
  return null
}

/** @param {unknown} v */
function show(v) {
  if (v instanceof Uint8Array) return new TextDecoder().decode(v)
  return String(v)
}

/**
 * The prefilter answers for one file: an entry per value.
 * @param {Pick<TableFile, 'partitions' | 'columnFacts'>} file a table file (js/table/iceberg.js, js/table/delta.js)
 * @param {Pick<TableField, 'id' | 'name' | 'type'>} field
 * @param {ReturnType<typeof valueKeys>} keyed the values' keys (valueKeys)
 */
export function pruneFile(file, field, keyed) {
  return keyed.map((slot) => {
    if (slot === null) return null
    if ('nan' in slot) {
      const facts = file.columnFacts.get(field.id)
      return facts?.nanCount === 0n
        ? absent(TableSource.STATISTICS, 'no-nan', `the table's metadata counts no NaN in ${field.name} for this file`)
        : null
    }
    let first = null
    for (const key of slot.keys) {
      const why = keyExcluded(file, field, key)
      if (!why) return partitionMatch(file, field, slot.keys)
      first ??= why
    }
    return first
  })
}

/**
 * `maybe` for a column the data files do not hold (a Delta partition column) when the file's partition
 * value equals one of the value's keys: its rows were not read, and opening the file could not tell more.
 * @param {Pick<TableFile, 'partitions'>} file
 * @param {Pick<TableField, 'id'>} field
 * @param {Key[]} keys
 */
function partitionMatch(file, field, keys) {
  const p = file.partitions.find((x) => x.sourceId === field.id && x.notInFile && x.key !== null && x.key !== undefined)
  const single = p?.key
  if (!p || single === null || single === undefined || !keys.some((key) => (p.keys ?? [single]).some((k) => sameKey(key, k)))) return null
  return { verdict: /** @type {'maybe'} */ ('maybe'), source: TableSource.PARTITION, reason: 'partition-match',
    detail: `the file's partition ${p.name} is ${show(p.raw)}${p.orNull ? ' (or null, by whom reads it)' : ''}: it equals the value; ` +
      'its rows were not read' }
}

/**
 * Prunes every file for one column and values: per file, the per-value entries (null or absent).
 * @param {{ files: TableFile[], fields: TableField[] }} table
 * @param {string} column a name of the current schema (dotted for nested fields)
 * @param {unknown[]} values
 */
export function pruneTable(table, column, values) {
  const field = table.fields.find((f) => f.name === column)
  if (!field) return table.files.map(() => values.map(() => null))
  const keyed = valueKeys(field.type, values)
  return table.files.map((file) => pruneFile(file, field, keyed))
}
