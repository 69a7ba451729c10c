// A sidecar index's directory (docs/sidecar-index.md "Directory"): its bytes checked against their CRC-32,
// parsed, and refused whole (MALFORMED_FOOTER) when it disagrees with itself, with the bitsets blob, or
// with the layout the footer gave a first probe (js/sidecar/sidecar-layout.js) — an index that
// contradicts itself answers nothing. Also the form min/max bounds take in it.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { sortOrderFor } from '../indexes/statistics.js'
import { crc32Matches } from './puffin.js'
import { layoutProblem } from './sidecar-layout.js'
import { BYTES_PER_BLOCK } from '../wasm/sbbf.js'

/**
 * @typedef {import('../index-builder/index.js').SidecarFileEntry} FileEntry
 * @typedef {{ offset: number, count: number, numBytes: number }} Region
 * @typedef {import('../index-builder/index.js').SidecarIndex['directory']} Directory
 * @typedef {FileEntry['rowGroups'][number]['chunks'][string]} Chunk [region, place, numBytes, min, max], or null
 * @typedef {number | string | null} RecordedBound a bound as the directory records it
 * @typedef {number | bigint | Uint8Array} SortKey a bound as a sort key (js/indexes/statistics.js sortKeys)
 */

export const SIDECAR_VERSION = 1
const utf8Decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * A bound (a sort key, js/indexes/statistics.js sortKeys) as JSON: numbers (±Infinity as text), bigints as text, bytes as hex.
 * @param {string | undefined} kind
 * @param {SortKey | undefined} key
 * @returns {RecordedBound}
 */
export function encodeBound(kind, key) {
  if (key === undefined) return null
  if (typeof key === 'bigint') return String(key)
  if (key instanceof Uint8Array) return Array.from(key, (b) => b.toString(16).padStart(2, '0')).join('')
  return Number.isFinite(key) ? key : String(key)
}

/**
 * A recorded bound back as a sort key of its column's kind (undefined where none is recorded).
 * @param {string | undefined} kind
 * @param {RecordedBound | undefined} text
 * @returns {SortKey | undefined}
 */
export function decodeBound(kind, text) {
  if (text === null || text === undefined) return undefined
  if (kind === 'int64' || kind === 'uint64') return BigInt(text)
  if (kind === 'bytes') {
    const hex = /** @type {string} */ (text) // bytes are recorded as hex (boundFits)
    const out = new Uint8Array(hex.length / 2)
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
    return out
  }
  return Number(text)
}

/**
 * The error an index that cannot be used is refused with.
 * @param {string} where
 * @param {string} why
 */
export function notAnIndex(where, why) {
  return new ParquetBloomError(ErrorCode.MALFORMED_FOOTER, `${where}: not a parquet-bloom sidecar index: ${why}`, { source: where })
}

/**
 * The directory from its blob's bytes, checked: its CRC-32, its JSON, its version, and that it agrees
 * with itself, the bitsets blob's length and (when the footer has one) the layout.
 * @param {Uint8Array} bytes the directory blob
 * @param {{ properties?: Record<string, string> }} blob its BlobMetadata
 * @param {number} bitsetsLength
 * @param {import('./sidecar-layout.js').Layout | undefined} layout
 * @param {string} where for messages
 * @returns {Directory}
 */
export function parseDirectory(bytes, blob, bitsetsLength, layout, where) {
  if (!crc32Matches(blob.properties?.crc32, bytes)) throw notAnIndex(where, 'its directory does not match its CRC-32')
  let directory
  try {
    directory = JSON.parse(utf8Decoder.decode(bytes))
  } catch (cause) {
    throw notAnIndex(where, `its directory is not JSON (${/** @type {Error} */ (cause)?.message ?? cause})`)
  }
  if (directory?.format !== 'parquet-bloom-sidecar' || directory.version !== SIDECAR_VERSION || !Array.isArray(directory.files)) {
    throw notAnIndex(where, `its directory is not version ${SIDECAR_VERSION} of the sidecar format`)
  }
  const problem = directoryProblem(directory, bitsetsLength) ?? (layout ? layoutProblem(layout, directory) : undefined)
  if (problem) throw notAnIndex(where, `its directory ${problem}`)
  return directory
}

/**
 * Why a directory cannot be used, or undefined: every region must lie inside the bitsets blob as whole
 * power-of-two blocks, every entry describe a file (path, size, row groups) and every chunk a place in a
 * region of its size, with bounds of its column's kind.
 * @param {any} directory parsed JSON of any shape: this is what checks it
 * @param {number} bitsetsLength
 */
function directoryProblem(directory, bitsetsLength) {
  const isPowerOfTwoBlocks = (/** @type {number} */ n) => Number.isSafeInteger(n) && n >= BYTES_PER_BLOCK && (n & (n - 1)) === 0
  if (!Array.isArray(directory.regions)) return 'has no regions list'
  for (const [r, region] of directory.regions.entries()) {
    if (!(Number.isSafeInteger(region?.offset) && region.offset >= 0 && Number.isSafeInteger(region.count) && region.count >= 1 &&
      isPowerOfTwoBlocks(region.numBytes) &&
      region.offset + region.count * region.numBytes <= bitsetsLength)) {
      return `places region ${r} (${region?.count} bitsets of ${region?.numBytes} bytes at ${region?.offset}) ` +
        `outside the ${bitsetsLength}-byte bitsets blob, or not as whole power-of-two blocks`
    }
  }
  for (const [i, file] of directory.files.entries()) {
    const where = `file ${i}`
    if (typeof file?.path !== 'string' || !Number.isSafeInteger(file.size) || !Array.isArray(file.rowGroups) ||
      typeof file.columns !== 'object' || file.columns === null) {
      return `describes ${where} incompletely (path, size, columns, rowGroups)`
    }
    for (const [g, group] of file.rowGroups.entries()) {
      if (!Number.isSafeInteger(group?.numRows) || group.numRows < 0 || typeof group.chunks !== 'object' || group.chunks === null) {
        return `describes ${where}, row group ${g} incompletely`
      }
      for (const [column, chunk] of Object.entries(group.chunks)) {
        if (chunk === null) continue
        const type = file.columns[column]
        if (!type || typeof type.physicalType !== 'string') {
          return `has a chunk of ${where}, row group ${g} for column ${column}, which the file's entry does not describe`
        }
        if (!Array.isArray(chunk) || chunk.length !== 5) return `has a malformed chunk (${where}, row group ${g}, column ${column})`
        const [r, k, numBytes, min, max] = chunk
        const region = Number.isSafeInteger(r) ? directory.regions[r] : undefined
        if (!region || !(Number.isSafeInteger(k) && k >= 0 && k < region.count) || numBytes !== region.numBytes) {
          return `places the bitset of ${where}, row group ${g}, column ${column} at ${JSON.stringify([r, k])} of ${numBytes} bytes, ` +
            'which no region holds'
        }
        const order = sortOrderFor({
          physicalType: type.physicalType, typeLength: type.typeLength ?? undefined, logicalType: type.logicalType,
        })
        for (const bound of [min, max]) {
          if (bound === null) continue
          if (!order || !boundFits(order.kind, bound)) {
            return `records a bound ${JSON.stringify(bound)} that is not a ${order?.kind ?? 'orderless'} value ` +
              `(${where}, row group ${g}, column ${column})`
          }
        }
      }
    }
  }
  return undefined
}

/**
 * Whether a recorded bound is of the form encodeBound writes for this kind.
 * @param {string} kind
 * @param {unknown} bound
 */
function boundFits(kind, bound) {
  if (kind === 'int64' || kind === 'uint64') return typeof bound === 'string' && /^-?\d+$/.test(bound)
  if (kind === 'bytes') return typeof bound === 'string' && /^([0-9a-f]{2})*$/.test(bound)
  if (kind === 'int32' || kind === 'uint32') return Number.isSafeInteger(bound)
  if (kind === 'float' || kind === 'double') return typeof bound === 'number' || bound === 'Infinity' || bound === '-Infinity'
  return false
}
