// `parquet-bloom inspect`: per column chunk, where its bloom filter lies, how it is laid out, how full it
// is, and the warnings that say whether a writer produced a usable filter.
import { BloomFilter } from '../bloom-filter.js'

// Health thresholds. SBBF sets 8 bits per value, one per 32-bit word, so a value is a false positive
// when all 8 of its bits happen to be set: at a per-word fill f the false-positive rate is ≈ f^8.
// Fill 0.9 means ≈ 43% false positives; fill 0.92 means 50%: the filter no longer rules much out.
export const SATURATED_FILL = 0.9
export const SATURATED_FPP = 0.5
// Writers size filters for 1% (DuckDB, parquet-java, arrow defaults); 10% means it was undersized ~3x.
export const HIGH_FPP = 0.1
// Estimates are within a few percent for filters that are not saturated; the margin avoids noise on
// small row groups.
const NDV_SLACK_RATIO = 1.25
const NDV_SLACK_ABSOLUTE = 32
const READ_CONCURRENCY = 8

/**
 * Writers known to hash something other than the PLAIN bytes of a value. `test` matches created_by;
 * `affects` says which columns are hashed differently.
 */
const WRITER_QUIRKS = [
  {
    test: /parquetjs|parquet\.js/i,
    affects: (column) => column.logicalType?.type !== 'STRING' && column.logicalType?.type !== 'ENUM' && column.logicalType?.type !== 'JSON',
    message: 'this writer (parquetjs) hashes String(value), not the PLAIN bytes of the value: for numbers, booleans and binary ' +
      'values its filter disagrees with every other reader, and "absent" from a spec-following reader could be wrong',
  },
]

/** Every warning code with a one-line explanation (used in --help and the human legend). */
export const WARNING_CODES = {
  'saturated': `fill ≥ ${SATURATED_FILL * 100}% or implied false-positive rate ≥ ${SATURATED_FPP}: nearly every probe answers "maybe"`,
  'high-fpp': `implied false-positive rate ≥ ${HIGH_FPP}: the filter was sized for fewer distinct values than it holds`,
  'empty': 'no bit is set although the row group has rows: fine only if every value in the chunk is null',
  'all-blocks-identical': 'every 32-byte block holds the same bits: the writer did not spread values over blocks',
  'ndv-exceeds-rows': 'the filter seems to hold more distinct values than the row group has rows (values from elsewhere?)',
  'header-empty-union': 'the header leaves algorithm/hash/compression empty: readers cannot trust it; probes answer "unknown"',
  'header-unknown-union': 'the header names an algorithm, hash or compression this reader does not know; probes answer "unknown"',
  'legacy-format': 'the pre-release bloom filter format (Murmur3, no Thrift header): probes answer "unknown"',
  'malformed-header': 'the bloom filter header does not decode: probes answer "unknown"',
  'length-mismatch': 'bloom_filter_length differs from header bytes + numBytes',
  'outside-file': 'the filter range is not inside the file',
  'overlaps-footer': 'the filter range runs into the footer',
  'hashes-text': 'the writer is known to hash values as text, not as their PLAIN bytes',
  'unreadable': 'the filter could not be read; probes answer "unknown"',
}

const HEADER_PROBLEM_CODES = {
  'empty-union': 'header-empty-union',
  'unknown-union': 'header-unknown-union',
  'legacy-format': 'legacy-format',
}

/**
 * The inspection report of one opened file, JSON-ready except for numbers that may be non-finite.
 * Every filter is read in one scan (ranges coalesced, bounded concurrency, bits dropped per chunk).
 * @param {import('../parquet-file.js').ParquetFile} file
 * @param {{ label: string, signal?: AbortSignal }} options
 */
export async function inspectFile(file, { label, signal }) {
  const metadata = file.metadata
  const quirk = WRITER_QUIRKS.find((q) => q.test.test(metadata.createdBy ?? ''))
  const rowGroups = metadata.rowGroups.map((rg) => ({
    index: rg.index,
    numRows: rg.numRows,
    columns: rg.columns.map((c) => ({ path: c.path, physicalType: c.physicalType, typeLength: c.typeLength, logicalType: c.logicalType, bloom: null })),
  }))
  await file.forEachBloomFilter(undefined, (parts) => {
    const rg = metadata.rowGroups[parts.rowGroup]
    const column = rg.columns[parts.columnIndex]
    rowGroups[parts.rowGroup].columns[parts.columnIndex].bloom = chunkReport(file, parts, { numRows: rg.numRows, column, quirk })
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

/** One chunk's report from the parts forEachBloomFilter hands over (refused filters come with their bits). */
function chunkReport(file, parts, { numRows, column, quirk }) {
  const { offset } = column.bloom
  const length = column.bloom.length ?? null
  const warnings = new Warnings()
  const header = parts.header
  const headerKnown = header !== undefined && header.headerLength > 0 && header.numBytes > 0
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

  checkPlacement(warnings, file, offset, length, headerKnown ? header : undefined)
  if (header && header.status !== 0) {
    const code = HEADER_PROBLEM_CODES[header.problem] ?? 'malformed-header'
    warnings.add(code, HEADER_MESSAGES[code] ?? errorText(parts.error, file.name) ?? `bloom filter header problem: ${header.problem}`)
  }
  if (parts.error !== undefined && warnings.list.length === 0) warnings.add('unreadable', errorText(parts.error, file.name))
  if (quirk?.affects(column)) warnings.add('hashes-text', quirk.message)
  if (parts.bitset) addHealth(report, warnings, parts.bitset, numRows)
  return report
}

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
  const fpp = health.estimatedFpp
  const saturated = health.fillRatio >= SATURATED_FILL || fpp >= SATURATED_FPP
  if (saturated) {
    warnings.add('saturated', `${pct(health.fillRatio)} of the bits are set (implied false-positive rate ${round(fpp)}): ` +
      'nearly every probe answers "maybe", so the filter rules out almost nothing')
  } else if (fpp >= HIGH_FPP) {
    warnings.add('high-fpp', `implied false-positive rate ${round(fpp)} (${pct(health.fillRatio)} of the bits set): ` +
      'the filter was sized for fewer distinct values than it holds')
  }
  if (health.bitsSet === 0 && numRows > 0) {
    warnings.add('empty', `no bit is set although the row group has ${numRows} rows: every probe answers "absent" — ` +
      'right only if every value in this chunk is null')
  }
  if (health.allBlocksIdentical && health.numBytes > 32 && health.bitsSet > 0) {
    warnings.add('all-blocks-identical', `all ${health.numBytes / 32} blocks hold the same bits: the writer filled one block ` +
      'and copied it (or shared it), so the filter is as weak as a single 32-byte block')
  }
  if (!saturated && Number.isFinite(health.estimatedNdv) && health.estimatedNdv > numRows * NDV_SLACK_RATIO + NDV_SLACK_ABSOLUTE) {
    warnings.add('ndv-exceeds-rows', `the bits suggest ~${Math.round(health.estimatedNdv)} distinct values but the row group has ` +
      `${numRows} rows: the filter holds values that are not in this row group`)
  }
}

/** outside-file / overlaps-footer / length-mismatch, from the footer's numbers and the decoded header. */
function checkPlacement(warnings, file, offset, length, header) {
  const { fileSize, metadataOffset } = file
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
    this.list = []
  }

  add(code, message) {
    if (!this.list.some((w) => w.code === code)) this.list.push({ code, message })
  }
}

const HEADER_MESSAGES = {
  'header-empty-union': 'the header leaves the algorithm, hash and compression unions empty: the spec says BLOCK/XXHASH/' +
    'UNCOMPRESSED must be named, so readers refuse it and probes answer "unknown"',
  'header-unknown-union': 'the header names an algorithm, hash or compression other than BLOCK/XXHASH/UNCOMPRESSED: ' +
    'probes answer "unknown"',
  'legacy-format': 'this is the pre-release bloom filter format (Murmur3, no Thrift header): probes answer "unknown"',
}

/** The library's message without the "<file>: row group N, column C: " it starts with (the report says where). */
function errorText(error, fileName) {
  if (error === undefined) return undefined
  const text = error instanceof Error ? error.message : String(error)
  return text.startsWith(`${fileName}: `) ? text.slice(fileName.length + 2).replace(/^row group \d+, column [^:]*: /, '') : text
}

const pct = (ratio) => `${Number((ratio * 100).toFixed(1))}%`
const round = (p) => (p >= 0.001 ? String(Number(p.toPrecision(2))) : p.toExponential(1))
