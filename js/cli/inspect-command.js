// `parquet-bloom inspect`: per column chunk, where its bloom filter lies, how it is laid out, how full it
// is, and the warnings that say whether a writer produced a usable filter.
import { assessFilterHealth, BloomFilter, HEALTH_CODES, ParquetBloomError, WRITER_RULES, writerRulesFor } from '../index.js'
import { chunk } from '../footer/records.js'

const READ_CONCURRENCY = 8

/** Every warning code with a one-line explanation (used in --help and the human legend). */
export const WARNING_CODES = {
  ...Object.fromEntries(Object.entries(HEALTH_CODES).map(([code, { text }]) => [code, text])),
  'header-empty-union': 'the header leaves algorithm/hash/compression empty: readers cannot trust it; probes answer "unknown"',
  'header-unknown-union': 'the header names an algorithm, hash or compression this reader does not know; probes answer "unknown"',
  'legacy-format': 'the pre-release bloom filter format (Murmur3, no Thrift header): probes answer "unknown"',
  'malformed-header': 'the bloom filter header does not decode: probes answer "unknown"',
  'length-mismatch': 'bloom_filter_length differs from header bytes + numBytes: probes answer "unknown" (inconsistent-filter)',
  'inside-pages': 'the filter range lies inside a column chunk\'s pages: probes answer "unknown" (inconsistent-filter)',
  'foreign-field': 'bloom_filter_offset/length are not integers (a writer\'s own field reusing the id): probes answer "unknown"',
  'outside-file': 'the filter range is not inside the file',
  'overlaps-footer': 'the filter range runs into the footer',
  ...Object.fromEntries(WRITER_RULES.map((rule) => [rule.code, `${rule.message} (${rule.link})`])),
  'unreadable': 'the filter could not be read; probes answer "unknown"',
}

/** @type {Record<string, string>} */
const HEADER_PROBLEM_CODES = {
  'empty-union': 'header-empty-union',
  'unknown-union': 'header-unknown-union',
  'legacy-format': 'legacy-format',
}

/**
 * @typedef {import('../index.js').BloomFilterParts} BloomFilterParts
 * @typedef {import('../index.js').BloomFilterHeaderInfo} BloomHeader
 * @typedef {{ code: string, message: string }} Warning
 * @typedef {{ offset: number, length: number | null, headerBytes: number | null, numBytes: number | null,
 *   fillRatio: number | null, estimatedNdv: number | null, estimatedFpp: number | null, warnings: Warning[] }} BloomReport
 *   one chunk's filter: where it is, how it is laid out, how full it is
 */

/**
 * The inspection report of one opened file, JSON-ready except for numbers that may be non-finite.
 * Every filter is read in one scan (ranges coalesced, bounded concurrency, bits dropped per chunk).
 * @param {import('../index.js').ParquetFile} file
 * @param {{ label: string, signal?: AbortSignal }} options
 */
export async function inspectFile(file, { label, signal }) {
  const metadata = file.metadata
  // The footer's records, for each chunk's encodings (a writer rule may depend on them).
  const layout = /** @type {import('../footer/footer.js').FileLayout} */ (file.layout)
  const rowGroups = metadata.rowGroups.map((rg) => ({
    index: rg.index,
    numRows: rg.numRows,
    columns: rg.columns.map((c) =>
      ({ path: c.path, physicalType: c.physicalType, typeLength: c.typeLength, logicalType: c.logicalType, indexes: c.indexes,
        bloom: /** @type {BloomReport | null} */ (null) })),
  }))
  await file.forEachBloomFilter(undefined, (parts) => {
    const rg = metadata.rowGroups[parts.rowGroup]
    const column = rg.columns[parts.columnIndex]
    // An encrypted chunk without its key is refused whether or not it has a filter: only filters are reported.
    const { bloom } = column
    if (bloom === null) return
    const rules = writerRulesFor(metadata.createdBy, 'bloom-filter', column, chunk(layout, parts.rowGroup, parts.columnIndex))
    rowGroups[parts.rowGroup].columns[parts.columnIndex].bloom = chunkReport(file, parts, { numRows: rg.numRows, bloom, rules })
  }, { signal, concurrency: READ_CONCURRENCY })
  const { requests, bytesFetched } = file.stats
  return {
    file: label,
    size: file.fileSize,
    createdBy: metadata.createdBy ?? null,
    numRows: metadata.numRows,
    rowGroups,
    stats: { requests, bytesFetched },
  }
}

/**
 * One chunk's report from the parts forEachBloomFilter hands over (refused filters come with their bits).
 * @param {import('../index.js').ParquetFile} file
 * @param {BloomFilterParts} parts
 * @param {{ numRows: number, bloom: { offset: number, length: number | undefined },
 *   rules: import('../index.js').WriterRule[] }} chunk the chunk's row count, where the footer places its filter, the writer's bugs
 * @returns {BloomReport}
 */
function chunkReport(file, parts, { numRows, bloom, rules }) {
  const { offset } = bloom
  const length = bloom.length ?? null
  const warnings = new Warnings()
  const header = parts.header
  const headerKnown = header !== undefined && header.headerLength > 0 && header.numBytes > 0
  /** @type {BloomReport} */
  const report = {
    offset,
    length,
    headerBytes: headerKnown ? header.headerLength : null,
    numBytes: headerKnown ? header.numBytes : null,
    fillRatio: null,
    estimatedNdv: null,
    estimatedFpp: null,
    warnings: warnings.list,
  }

  // An encrypted filter's length covers its two modules, whose sizes decryption has already checked.
  checkPlacement(warnings, file, offset, length, headerKnown && !parts.encrypted ? header : undefined)
  if (header && header.status !== 0) {
    const code = HEADER_PROBLEM_CODES[header.problem] ?? 'malformed-header'
    warnings.add(code, HEADER_MESSAGES[code] ?? (parts.error === undefined ? undefined : errorText(parts.error, file.name)) ??
      `bloom filter header problem: ${header.problem}`)
  }
  const { error } = parts
  if (error instanceof ParquetBloomError && (error.problem === 'inside-pages' || error.problem === 'foreign-field')) {
    warnings.add(error.problem, errorText(error, file.name))
  }
  if (parts.error !== undefined && warnings.list.length === 0) warnings.add('unreadable', errorText(parts.error, file.name))
  for (const rule of rules) warnings.add(rule.code, `${rule.message} (${rule.link})`)
  if (parts.bitset) addHealth(report, warnings, parts.bitset, numRows)
  return report
}

/**
 * @param {BloomReport} report
 * @param {Warnings} warnings
 * @param {Uint8Array} bitset
 * @param {number} numRows the row group's
 */
function addHealth(report, warnings, bitset, numRows) {
  const filter = BloomFilter.fromBitset(bitset)
  let health
  try {
    health = filter.health()
  } finally {
    filter.free()
  }
  report.fillRatio = health.fillRatio
  report.estimatedNdv = health.estimatedNdv
  report.estimatedFpp = health.estimatedFpp
  for (const w of assessFilterHealth(health, { numRows })) warnings.add(w.code, w.message)
}

/**
 * outside-file / overlaps-footer / length-mismatch, from the footer's numbers and the decoded header.
 * @param {Warnings} warnings
 * @param {import('../index.js').ParquetFile} file
 * @param {number} offset
 * @param {number | null} length
 * @param {BloomHeader | undefined} header
 */
function checkPlacement(warnings, file, offset, length, header) {
  const { fileSize, metadataOffset } = file
  /** @type {Array<[string, number]>} */
  const ranges = []
  if (length !== null) ranges.push(['bloom_filter_length', offset + length])
  if (header) ranges.push(['header + numBytes', offset + header.headerLength + header.numBytes])
  if (offset < 4 || offset >= fileSize) {
    warnings.add('outside-file', `bloom_filter_offset ${offset} is outside the file's data (size ${fileSize})`)
  } else if (offset >= metadataOffset) {
    warnings.add('overlaps-footer', `bloom_filter_offset ${offset} is inside the footer, which starts at ${metadataOffset}`)
  } else {
    for (const [what, end] of ranges) {
      if (end > fileSize) {
        warnings.add('outside-file', `the filter [${offset}, ${end}) by ${what} ends past the end of the file (${fileSize})`)
      } else if (end > metadataOffset) {
        warnings.add('overlaps-footer', `the filter [${offset}, ${end}) by ${what} runs into the footer at ${metadataOffset}`)
      }
    }
  }
  if (length !== null && header && length !== header.headerLength + header.numBytes) {
    warnings.add('length-mismatch', `bloom_filter_length ${length} ≠ header ${header.headerLength} + numBytes ${header.numBytes} ` +
      `(= ${header.headerLength + header.numBytes})`)
  }
}

/** Warnings of one chunk: `{ code, message }`, one per code. */
class Warnings {
  constructor() {
    /** @type {Warning[]} */
    this.list = []
  }

  /**
   * @param {string} code
   * @param {string} message
   */
  add(code, message) {
    if (!this.list.some((w) => w.code === code)) this.list.push({ code, message })
  }
}

/** @type {Record<string, string>} */
const HEADER_MESSAGES = {
  'header-empty-union': 'the header leaves the algorithm, hash and compression unions empty: the spec says BLOCK/XXHASH/' +
    'UNCOMPRESSED must be named, so readers refuse it and probes answer "unknown"',
  'header-unknown-union': 'the header names an algorithm, hash or compression other than BLOCK/XXHASH/UNCOMPRESSED: ' +
    'probes answer "unknown"',
  'legacy-format': 'this is the pre-release bloom filter format (Murmur3, no Thrift header): probes answer "unknown"',
}

/**
 * The library's message without the "<file>: row group N, column C: " it starts with (the report says where).
 * @param {ParquetBloomError | string} error
 * @param {string} fileName
 */
function errorText(error, fileName) {
  const text = error instanceof Error ? error.message : String(error)
  return text.startsWith(`${fileName}: `) ? text.slice(fileName.length + 2).replace(/^row group \d+, column [^:]*: /, '') : text
}
