// What both sidecar readers (formats 1 and 2) do alike with a probe's values: the values as a column of a
// given type stores them (candidates, hashes, sort keys), and the answers of a chunk the index could not
// read.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { encodeProbeValues } from '../values/probe-values.js'
import { HashedCandidates } from '../indexes/bloom-reads.js'
import { BLOCK_MODE_COALESCE_GAP } from '../plan/read-scheduler.js'
import { Source, valueResult } from '../verdicts.js'
import { sortKeys, sortOrderFor } from '../indexes/statistics.js'
import { typeKey } from './sidecar-layout.js'

/**
 * @typedef {import('../verdicts.js').ValueResult | { value: unknown, verdict?: undefined }} PresetOutcome a value's answer
 *   known before any filter (encodeProbeValues: a null, a value the column cannot hold), or just the value
 * @typedef {Omit<ReturnType<typeof encodeProbeValues>, 'outcomes'> & { outcomes: PresetOutcome[] }} EncodedValues
 * @typedef {{ refused: ParquetBloomError }} Refused a column type that refuses a value ('abc' for an INT32: BAD_VALUE)
 */

/**
 * The values as a column of `type` stores them, made by `encode` once per type for a whole probe (`made`, by type key);
 * Refused when the type refuses one of them (BAD_VALUE). That refuses it in the files of that type only, each of which
 * answers so (refusedFile), as its own probe would: the other files (a dataset's STRING files beside its INT32 ones,
 * read by name) keep their answers.
 * @template E
 * @param {Map<string, E | Refused>} made
 * @param {import('./sidecar-layout.js').ColumnType} type
 * @param {(type: import('./sidecar-layout.js').ColumnType, list: unknown[], path: string, column: string) => E} encode
 * @param {unknown[]} list
 * @param {string} path the index, for errors
 * @param {string} column
 * @returns {E | Refused}
 */
export function encodedOncePerType(made, type, encode, list, path, column) {
  const key = typeKey(type)
  let encoded = made.get(key)
  if (!encoded) {
    try {
      encoded = encode(type, list, path, column)
    } catch (error) {
      if (!(error instanceof ParquetBloomError) || error.code !== ErrorCode.BAD_VALUE) throw error
      encoded = { refused: /** @type {ParquetBloomError} */ (error.cause ?? error) } // encodeFor's cause: the value's own error
    }
    made.set(key, encoded)
  }
  return encoded
}

/**
 * A file whose column type refuses a value (Refused): its error, and every row group's values `unknown` (file-error),
 * as a dataset answers the file without an index (its probe throws BAD_VALUE).
 * @template {number | null} N
 * @param {unknown[]} list
 * @param {string} path the file
 * @param {string} column
 * @param {ParquetBloomError} refused
 * @param {Array<{ index: number, numRows: N }>} rowGroups
 */
export function refusedFile(list, path, column, refused, rowGroups) {
  const error = { code: refused.code, message: `${path}: column ${column}: ${refused.message}` }
  const results = list.map((v) => valueResult(v, 'unknown', null, 'file-error', `${error.code}: ${error.message}`))
  return { error, rowGroups: rowGroups.map((g) => ({ index: g.index, numRows: g.numRows, results: results.slice() })) }
}

/**
 * The values as a column of this type stores them: candidates, their hashes and sort keys.
 * @param {import('./sidecar-layout.js').ColumnType} type
 * @param {unknown[]} list
 * @param {string} path
 * @param {string} column
 */
export function encodeFor(type, list, path, column) {
  // The index records the column's logical type as the footer decoded it (a LogicalType).
  const leaf = /** @type {import('../indexes/statistics.js').TypedColumn} */ (
    { physicalType: type.physicalType, typeLength: type.typeLength ?? undefined, logicalType: type.logicalType })
  /** @type {EncodedValues} */
  let encoded
  try {
    encoded = /** @type {EncodedValues} */ (encodeProbeValues(leaf, list))
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    throw new ParquetBloomError(error.code, `${path}: column ${column}: ${error.message}`, { source: path, field: column, cause: error })
  }
  // `wide` INT96 bytes (js/values/input.js WideInt96: text or a Date) stand for any of 1000 nanoseconds, which the
  // index's filters hashed exactly: a miss rules none out, so the value is `maybe` before any filter, never `absent`.
  encoded.candidates.forEach((candidate, k) => {
    const v = encoded.owners[k]
    if (/** @type {import('../values/input.js').WideInt96} */ (candidate).wide) {
      encoded.outcomes[v] = valueResult(list[v], 'maybe', Source.BLOOM_FILTER, 'bloom-filter',
        'an INT96 timestamp given as text or a Date may be stored with any nanosecond of its microsecond, which DuckDB reads ' +
        'alike: the sidecar index\'s bloom filter cannot rule it out')
    }
  })
  const hashed = new HashedCandidates(encoded.candidates, { type: encoded.physicalType, typeLength: encoded.typeLength },
    BLOCK_MODE_COALESCE_GAP)
  const order = sortOrderFor(leaf)
  const keys = order ? sortKeys(order, encoded.candidates) : undefined
  return { encoded, hashed, order, keys }
}

/**
 * A chunk the builder could not read has no filter: its values are unknown to the index (presets stand).
 * @param {unknown[]} list
 * @param {PresetOutcome[]} outcomes
 * @returns {import('../verdicts.js').ValueResult[]}
 */
export function unreadableChunkResults(list, outcomes) {
  return list.map((v, i) => (outcomes[i].verdict
    ? { .../** @type {import('../verdicts.js').ValueResult} */ (outcomes[i]) } // a preset answer
    : valueResult(v, 'unknown', null, 'no-index', 'the sidecar index has no filter for this chunk (its pages could not be read)')))
}
