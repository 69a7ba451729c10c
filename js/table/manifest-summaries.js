// Which manifests of an Iceberg snapshot may hold a probe's files, from the manifest list's partition
// field summaries (spec "Manifest Lists", field_summary: contains_null, contains_nan, lower_bound,
// upper_bound per partition field; bounds in the single-value serialization of the field's result type,
// Appendix D). A manifest is skipped only when a summary proves that no file in it can hold any probed
// value (or match `where`); a missing summary, a transform not computed here, bounds that do not decode
// or a summary list that does not fit the partition spec keep it.
import { decodeBound, parseTransform, transformReadings, transformResultType } from './iceberg-types.js'
import { factsExclude } from './column-keys.js'
import { partitionMayEqual } from '../dataset/hive.js'

/**
 * @typedef {import('./iceberg.js').IcebergPartitionField} IcebergPartitionField
 * @typedef {import('./iceberg.js').PartitionFieldSummary} PartitionFieldSummary
 */

/**
 * The summary of partition field `k` of a manifest as bounds ({ lower, upper, upperPrefix } keys), or
 * null when it cannot be used. String and binary upper bounds are read as prefixes: a writer may cut them.
 * @param {{ summaries: PartitionFieldSummary[] | null }} manifest
 * @param {number} k
 * @param {import('./column-keys.js').TableType} resultType
 */
function summaryBounds(manifest, k, resultType) {
  const summary = manifest.summaries?.[k]
  const lowerBytes = summary?.lower_bound
  const upperBytes = summary?.upper_bound
  if (!(lowerBytes instanceof Uint8Array) || !(upperBytes instanceof Uint8Array)) return null
  const lower = decodeBound(resultType, lowerBytes)
  const upper = decodeBound(resultType, upperBytes)
  if (lower === undefined || upper === undefined) return null
  const prefix = upper instanceof Uint8Array && ['string', 'binary', 'fixed'].includes(resultType.kind)
  // Iceberg Java's summaries of UUIDs are the least and greatest by java.util.UUID's signed order.
  return { lower, upper, ...(prefix ? { upperPrefix: upper } : {}), ...(resultType.kind === 'uuid' ? { uuidOrders: true } : {}),
    containsNull: summary?.contains_null }
}

/**
 * The partition fields of a manifest's spec, when its summaries line up with them (else null: keep it).
 * @param {{ specId: number, summaries: PartitionFieldSummary[] | null }} manifest
 * @param {Map<number, IcebergPartitionField[]>} specs
 */
function summarizedFields(manifest, specs) {
  const fields = specs.get(manifest.specId)
  if (!fields || !Array.isArray(manifest.summaries) || manifest.summaries.length !== fields.length) return null
  return fields
}

/**
 * Whether a manifest may hold a file that holds one of the values: false only when, for every value,
 * some partition field derived from the column rules out every reading of it.
 * @param {{ specId: number, summaries: PartitionFieldSummary[] | null }} manifest
 * @param {Map<number, IcebergPartitionField[]>} specs partition spec fields by spec id
 * @param {{ id: number, type: import('./column-keys.js').TableType }} field the probed column
 * @param {ReturnType<typeof import('./column-keys.js').valueKeys>} keyed the values' keys
 */
export function manifestMayHoldValues(manifest, specs, field, keyed) {
  const fields = summarizedFields(manifest, specs)
  if (!fields) return true
  const derived = fields.map((pf, k) => ({ pf, k })).filter(({ pf }) => pf['source-id'] === field.id)
  if (!derived.length) return true
  return keyed.some((slot) => {
    // A null, a NaN, or a value with no keys: the file layer answers it; the manifest is read.
    if (slot === null || !('keys' in slot)) return true
    return !derived.some(({ pf, k }) => {
      const transform = parseTransform(pf.transform)
      const bounds = summaryBounds(manifest, k, transformResultType(transform, field.type))
      if (!bounds) return false
      return slot.keys.every((key) => {
        const readings = transformReadings(transform, field.type, key)
        return readings.length > 0 && readings.every((t) => factsExclude(bounds, t) === 'out-of-bounds')
      })
    })
  })
}

/**
 * A `where` value as the integer partition value it can equal (the dataset compares the text of a
 * partition value with `partitionMayEqual`), or undefined when this is not known for certain.
 * @param {unknown} value
 */
function integerWanted(value) {
  let n
  if (typeof value === 'bigint') n = value
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value)
  else if (typeof value === 'string' && /^\s*[+-]?\d{1,15}\s*$/.test(value)) n = BigInt(value.trim())
  else return undefined
  // The dataset's own comparison must agree that this partition value, and only this one, matches.
  return partitionMayEqual(String(n), value) && !partitionMayEqual(String(n + 1n), value) ? n : undefined
}

/**
 * Whether a manifest may hold a file `where` keeps. Decided only for partition fields whose values are
 * plain integers as text (identity of int or long, bucket): a value given as an integer, or null (then
 * `contains_null` false rules the manifest out). Anything else keeps the manifest.
 * @param {{ specId: number, summaries: PartitionFieldSummary[] | null }} manifest
 * @param {Map<number, IcebergPartitionField[]>} specs
 * @param {Map<number, { type: import('./column-keys.js').TableType }>} fieldsById
 * @param {Record<string, unknown> | undefined | null} where
 */
export function manifestMayMatchWhere(manifest, specs, fieldsById, where) {
  if (!where || typeof where !== 'object') return true
  const fields = summarizedFields(manifest, specs)
  if (!fields) return true
  return Object.entries(where).every(([name, wanted]) => {
    const k = fields.findIndex((pf) => pf.name === name)
    if (k < 0) return true // files of this spec lack the key: `where` keeps them
    const pf = fields[k]
    const transform = parseTransform(pf.transform)
    const sourceType = fieldsById.get(pf['source-id'])?.type
    const integral = transform.name === 'bucket' ||
      (transform.name === 'identity' && (sourceType?.kind === 'int' || sourceType?.kind === 'long'))
    if (!integral || !sourceType) return true
    const values = Array.isArray(wanted) ? wanted : [wanted]
    return values.some((value) => {
      if (value === null || value === undefined) return manifest.summaries?.[k]?.contains_null !== false
      const n = integerWanted(value)
      if (n === undefined) return true
      const bounds = summaryBounds(manifest, k, transformResultType(transform, sourceType))
      return !bounds || factsExclude(bounds, n) !== 'out-of-bounds'
    })
  })
}
