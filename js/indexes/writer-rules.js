// Known writer bugs that make one of a file's indexes untrustworthy, in one table: each row names the
// bug (with its link), the writers it affects (FileMetaData.created_by, parsed as parquet-java's
// VersionParser does: "<application> version <semver> (build <hash>)"), the index and the columns, and
// the code inspect shows. probe() ignores an affected index; tests/js/writer-rules.test.js has a test
// per row. A rule errs on the side of ignoring: an index ignored costs bytes, one trusted wrongly costs
// a false "absent".

const BINARY_TYPES = new Set(['BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'])
/** @type {Set<string | undefined>} */
const TEXT_LOGICAL = new Set(['STRING', 'ENUM', 'JSON'])
// Encoding ids (parquet.thrift Encoding) that mean dictionary pages.
const DICTIONARY_ENCODINGS = (1 << 2) | (1 << 8)

/**
 * @typedef {{ application: string, version: [number, number, number] | null, prerelease: string }} WriterVersion
 * @typedef {{ physicalType: string, logicalType: import('../index.js').LogicalType | null, typeLength?: number,
 *   repeated?: boolean }} ColumnType
 * @typedef {{ id: string, index: 'bloom-filter' | 'statistics' | 'dictionary' | 'null-count', code: string, link: string,
 *   writer: (w: WriterVersion | null, createdBy: string | undefined) => boolean,
 *   affects: (column: ColumnType, chunk: { encodings: number }) => boolean, message: string, pageIndex?: boolean }} WriterRule
 *   pageIndex: the writer computed its ColumnIndex bounds the same wrong way, so a 'statistics' rule
 *   also makes the page index unusable (js/indexes/page-index.js pageIndexOrder). A 'null-count' rule only stops a
 *   chunk whose null_count equals num_values from being taken as all null (js/indexes/statistics.js).
 */

/**
 * Writers whose dictionary pages are built from the values they hold: there, a value in a dictionary-only
 * chunk's dictionary is in the chunk. Arrow C++ writes an Arrow dictionary array's dictionary as it is
 * (apache/arrow#5077), and so can writers built on arrow2 or polars' categoricals: unused values included.
 */
const EXACT_DICTIONARY_WRITERS = /^(DuckDB|parquet-mr|parquet-java|parquet-rs|impala|hyparquet)\b/i

// Writers that name themselves without a version VersionParser reads ('Polars', '@dsnp/parquetjs'): told by created_by's text.
/** @type {WriterRule['writer']} */
const byPolars = (_w, createdBy) => /^polars/i.test(createdBy ?? '')
/** @type {WriterRule['writer']} */
const byParquetjs = (_w, createdBy) => /parquetjs|parquet\.js/i.test(createdBy ?? '')

/** @type {WriterRule[]} */
export const WRITER_RULES = [
  {
    id: 'parquetjs-hashes-text',
    index: 'bloom-filter',
    code: 'hashes-text',
    link: 'https://github.com/LibertyDSNP/parquetjs/blob/main/lib/bloom/sbbf.ts',
    writer: byParquetjs,
    affects: (column) => !TEXT_LOGICAL.has(column.logicalType?.type),
    message: 'this writer (parquetjs) hashes String(value), not the PLAIN bytes of the value: for numbers, booleans and binary ' +
      'values its filter disagrees with every other reader, so its "absent" cannot be trusted',
  },
  {
    id: 'arrow-go-adaptive-bloom',
    index: 'bloom-filter',
    code: 'adaptive-bloom-false-negatives',
    link: 'https://github.com/apache/arrow-go/issues/525',
    // Adaptive filters first shipped in v18.3.0 and were fixed in v18.5.0 (apache/arrow-go#527). A
    // reader cannot tell an adaptive filter from a regular one, so every filter of these versions is out.
    writer: (w) => w?.application === 'parquet-go' && between(w, [18, 3, 0], [18, 5, 0]),
    affects: () => true,
    message: 'arrow-go 18.3.0–18.4.x wrote adaptive bloom filters that miss values they hold (false negatives); ' +
      'a reader cannot tell them from regular filters, so this writer\'s filters are not used',
  },
  {
    id: 'arrow-go-dictionary-bloom',
    index: 'bloom-filter',
    code: 'dictionary-bloom-arrow-go',
    link: 'https://github.com/apache/arrow-go/pull/1164',
    // pqarrow writes an Arrow dictionary array's indices straight into the dictionary encoder, past the path
    // that fills the bloom filter: such a chunk's filter lacks its values (empty, or only the values written
    // after a fallback to plain). Every release that writes filters (18.3.0 on) has it; the fix was not in a
    // release we could read (v18.7.0), so no upper bound yet. A reader cannot tell a dictionary array's chunk
    // from a dense array's, so the filters of every dictionary-encoded chunk of this writer are out.
    writer: (w) => w?.application === 'parquet-go' && w.version !== null && !before(w, [18, 3, 0]),
    affects: (_column, chunk) => (chunk.encodings & DICTIONARY_ENCODINGS) !== 0,
    message: 'arrow-go (18.3.0 on) leaves the values of a column written from an Arrow dictionary array out of its bloom filter: ' +
      'this writer\'s filters of dictionary-encoded chunks are not used',
  },
  {
    id: 'parquet-251',
    index: 'statistics',
    code: 'binary-statistics-before-1.8',
    link: 'https://issues.apache.org/jira/browse/PARQUET-251',
    // parquet-java's CorruptStatistics: binary stats from parquet-mr before 1.8.0 (a 1.8.0 prerelease
    // included) are wrong, and so are binary stats whose writer cannot be told at all.
    writer: (w, createdBy) => !createdBy || w === null || (w.application === 'parquet-mr' && (w.version === null || before(w, [1, 8, 0]))),
    affects: (column) => BINARY_TYPES.has(column.physicalType),
    message: 'parquet-mr before 1.8.0 (or an unidentified writer) wrote wrong min/max for binary columns: ' +
      'these statistics are ignored, as parquet-java and Arrow ignore them',
  },
  {
    id: 'parquet-1655',
    index: 'statistics',
    code: 'decimal-statistics-before-arrow-4',
    link: 'https://issues.apache.org/jira/browse/PARQUET-1655',
    writer: (w) => w?.application === 'parquet-cpp' || (w?.application === 'parquet-cpp-arrow' && before(w, [4, 0, 0])),
    affects: (column) => column.logicalType?.type === 'DECIMAL' && BINARY_TYPES.has(column.physicalType),
    pageIndex: true,
    message: 'parquet-cpp and Arrow before 4.0 compared binary decimals wrongly when computing min/max: ' +
      'these statistics are ignored',
  },
  {
    id: 'arrow-15042',
    index: 'statistics',
    code: 'dictionary-statistics-before-arrow-12',
    link: 'https://github.com/apache/arrow/issues/15042',
    // Arrow before 12 took a dictionary array's statistics from its first chunk only. The footer does
    // not say whether the Arrow data was a dictionary array, so every dictionary-encoded chunk is out.
    writer: (w) => w?.application === 'parquet-cpp-arrow' && before(w, [12, 0, 0]),
    affects: (_column, chunk) => (chunk.encodings & DICTIONARY_ENCODINGS) !== 0,
    message: 'Arrow before 12.0 could record the statistics of a dictionary array\'s first chunk only: ' +
      'statistics of dictionary-encoded chunks from this writer are ignored',
  },
  {
    id: 'polars-uint64',
    index: 'statistics',
    code: 'uint64-statistics-polars',
    link: 'https://github.com/pola-rs/polars/issues/15323',
    writer: byPolars,
    affects: (column) => column.physicalType === 'INT64' && isUnsigned(column),
    pageIndex: true,
    message: 'polars wrote wrong min/max for UInt64 columns: these statistics are ignored',
  },
  {
    id: 'polars-int128',
    index: 'statistics',
    code: 'int128-bounds-polars',
    link: 'https://github.com/pola-rs/polars/issues/25965',
    // From 1.32.0 (pola-rs/polars#23494) an Int128/UInt128 column is FIXED_LEN_BYTE_ARRAY(16) with no logical type, its
    // values little-endian but its page and chunk bounds the big-endian bytes of the extremes: a held value lies outside
    // them. created_by has no version. Its chunk statistics are out anyway (parquet-251: created_by does not parse).
    writer: byPolars,
    affects: (column) => column.physicalType === 'FIXED_LEN_BYTE_ARRAY' && column.typeLength === 16 && !column.logicalType,
    pageIndex: true,
    message: 'polars bounds Int128 columns by big-endian bytes but stores the values little-endian: ignored',
  },
  {
    id: 'polars-null-count',
    index: 'null-count',
    code: 'null-count-polars',
    link: 'https://github.com/pola-rs/polars/issues/29321',
    // Its null_count can exceed the chunk's nulls and reach num_values while it holds values: since polars 1.38.0 wrote
    // dictionary-encoded chunks in several data pages (pola-rs/polars#26360), each page carries the whole chunk's count
    // and the pages' counts are summed (#29321, fixed after 1.43); nested columns count the nulls under null lists
    // (pola-rs/polars#20621, open). created_by 'Polars' has no version, so every polars file is covered.
    writer: byPolars,
    affects: (column, chunk) => column.repeated === true || (chunk.encodings & DICTIONARY_ENCODINGS) !== 0,
    message: 'polars overcounts null_count',
  },
  // arrow-rs wrote no column_orders before 50.0.0 (apache/arrow-rs#5152), so its min_value/max_value
  // are read as type-defined order (as parquet-java reads them); these are the versions and columns
  // whose bounds were computed in another order.
  {
    id: 'arrow-rs-641',
    index: 'statistics',
    code: 'binary-statistics-before-arrow-rs-5.2',
    link: 'https://github.com/apache/arrow-rs/issues/641',
    // Fixed by apache/arrow-rs#643, released in 5.2.0: byte arrays compared shorter-first ("z" < "aa").
    writer: (w) => w?.application === 'parquet-rs' && before(w, [5, 2, 0]),
    affects: (column) => BINARY_TYPES.has(column.physicalType),
    pageIndex: true,
    message: 'arrow-rs (parquet-rs) before 5.2.0 compared byte arrays by length first when computing min/max: ' +
      'statistics of binary columns from this writer are ignored',
  },
  {
    id: 'arrow-rs-1532',
    index: 'statistics',
    code: 'decimal-unsigned-statistics-before-arrow-rs-13',
    link: 'https://github.com/apache/arrow-rs/issues/1532',
    // Fixed by apache/arrow-rs#1621, released in 13.0.0: binary decimals compared as unsigned bytes,
    // UINT_* integers as signed ones.
    writer: (w) => w?.application === 'parquet-rs' && before(w, [13, 0, 0]),
    affects: (column) => (column.logicalType?.type === 'DECIMAL' && column.physicalType === 'FIXED_LEN_BYTE_ARRAY') || isUnsigned(column),
    pageIndex: true,
    message: 'arrow-rs (parquet-rs) before 13.0.0 compared binary decimals as unsigned bytes and unsigned integers as signed ' +
      'when computing min/max: these statistics are ignored',
  },
  {
    id: 'arrow-rs-11073',
    index: 'statistics',
    code: 'byte-array-decimal-statistics-arrow-rs',
    link: 'https://github.com/apache/arrow-rs/issues/11073',
    // Still open: the Arrow writer path compares BYTE_ARRAY decimals as unsigned bytes (apache/arrow-rs#11073;
    // the low-level writer's variant, apache/arrow-rs#10860, mixed lengths). No fixed version yet.
    writer: (w) => w?.application === 'parquet-rs',
    affects: (column) => column.logicalType?.type === 'DECIMAL' && column.physicalType === 'BYTE_ARRAY',
    pageIndex: true,
    message: 'arrow-rs (parquet-rs) computes min/max of BYTE_ARRAY decimals as unsigned bytes, not in signed two\'s complement order: ' +
      'these statistics are ignored',
  },
  {
    id: 'hyparquet-bounds',
    index: 'statistics',
    code: 'bounds-hyparquet',
    link: 'https://github.com/hyparam/hyparquet-writer/issues/38',
    // hyparquet-writer's created_by is 'hyparquet' with no version, so no version can be told apart, and its bounds
    // were wrong in several: INT32 decimals written as float32 bits (hyparam/hyparquet-writer#38, until 0.16.x);
    // binary min/max ordered by the JS values (text by UTF-16 code units before 0.17, still UUIDs given as text by
    // the text: 'B' < 'a', bytes 0xb0 > 0xa0); FLOAT16 bounds written as the number's text; binary max cut to
    // 16 bytes without rounding up (before mid-2026).
    writer: (_w, createdBy) => /^hyparquet$/i.test(createdBy?.trim() ?? ''),
    affects: (column) => BINARY_TYPES.has(column.physicalType) ||
      (column.physicalType === 'INT32' && column.logicalType?.type === 'DECIMAL'),
    pageIndex: true,
    message: 'hyparquet-writer (its created_by has no version) wrote wrong bounds for such columns in some versions: ignored',
  },
  {
    id: 'parquetjs-binary-bounds',
    index: 'statistics',
    code: 'binary-bounds-parquetjs',
    link: 'https://github.com/LibertyDSNP/parquetjs/blob/main/lib/writer.ts',
    // parquetjs takes min/max with JS < and > on the values it was given, before they become bytes: text in
    // UTF-16 code units, and JSON objects, which never compare, leave the first value as both bounds.
    writer: byParquetjs,
    affects: (column) => BINARY_TYPES.has(column.physicalType) && column.logicalType?.type !== 'DECIMAL',
    pageIndex: true,
    message: 'parquetjs orders binary bounds by JS comparison, not by the bytes it writes: they are ignored',
  },
  {
    id: 'segmentio-page-max',
    index: 'statistics',
    code: 'truncated-page-max-segmentio',
    link: 'https://github.com/segmentio/parquet-go/issues/495',
    // From 2022-05 (#172) to its fix (#496, 2023-04) segmentio/parquet-go cut a binary page's ColumnIndex max to
    // ColumnIndexSizeLimit (16 bytes by default) without rounding it up: the page's longer values lie above it. Its
    // created_by names a pseudo-version ('version 0.0.0(build <commit>)'), so every build is out; it wrote no chunk min/max.
    writer: (_w, createdBy) => /segmentio\/parquet-go/.test(createdBy ?? ''),
    affects: (column) => BINARY_TYPES.has(column.physicalType),
    pageIndex: true,
    message: 'segmentio/parquet-go cut page maxima short, not rounded up: ignored',
  },
  {
    id: 'questdb-binary-max',
    index: 'statistics',
    code: 'binary-max-questdb',
    link: 'https://github.com/questdb/questdb/pull/7283',
    // QuestDB cuts a Binary (BYTE_ARRAY, no logical type) max longer than 8 bytes to 8 and increments them; when they
    // cannot be (eight 0xFF; 0x7F then 0xFF as an i64 in older builds) it kept a 9-byte prefix or the i64's wrap,
    // below the values (fixed by #7283). created_by is 'QuestDB version 9.0' in every build: all are out.
    writer: (_w, createdBy) => /^QuestDB/.test(createdBy ?? ''),
    affects: (column) => column.physicalType === 'BYTE_ARRAY' && !column.logicalType,
    pageIndex: true,
    message: 'QuestDB could store a Binary max below its values: ignored',
  },
  {
    id: 'go-parquet-nan-min',
    index: 'statistics',
    code: 'nan-min-xitongsys',
    link: 'https://github.com/xitongsys/parquet-go/blob/master/common/common.go',
    // xitongsys/parquet-go and its fork hangxie/parquet-go keep a running min with Go's <: a NaN replaces it (1 < NaN is
    // false), the next value replaces the NaN, so [1, NaN, 2] is bounded [2, 2]. created_by 'parquet-go version latest'
    // (no version: not arrow-go's) or 'parquet-go' (before 2020-04), and hangxie's 'github.com/hangxie/parquet-go…'.
    writer: (w, createdBy) => /^parquet-go$|hangxie\/parquet-go/.test(createdBy ?? '') || (w?.application === 'parquet-go' && !w.version),
    affects: (column) => column.physicalType === 'FLOAT' || column.physicalType === 'DOUBLE',
    pageIndex: true,
    message: 'a NaN resets this writer\'s running min: its FLOAT/DOUBLE bounds are ignored',
  },
  {
    id: 'dictionary-array-superset',
    index: 'dictionary',
    code: 'dictionary-may-hold-unused-values',
    link: 'https://github.com/apache/arrow/pull/5077',
    writer: (_w, createdBy) => !EXACT_DICTIONARY_WRITERS.test(createdBy ?? ''),
    affects: () => true,
    message: 'this writer may store a dictionary array\'s whole dictionary, with values no row uses: ' +
      'a value in it is only "maybe" in the chunk',
  },
]

/**
 * A chunk whose bloom_filter_offset is 0 or negative has no filter: pre-release parquet-mr builds wrote 0
 * for "none" (PARQUET-1979), and a filter can never start inside the leading magic.
 */
export const NO_FILTER_OFFSET_RULE = {
  id: 'bloom-filter-offset-zero',
  link: 'https://github.com/apache/iceberg/pull/5172',
  applies: (/** @type {number} */ offset) => offset <= 0,
}

// A probe asks once per row group for the same created_by: it is parsed, and the rules whose writer it
// names are found, once per created_by (affects() still runs per chunk).
/** @type {string | undefined} */
let lastCreatedBy
/** @type {Map<string, WriterRule[]>} */
let writerRules = new Map()
// What most writers get, asked per row group: one empty list (callers read it, never change it) and one chunk.
const NO_RULES = /** @type {WriterRule[]} */ (/** @type {unknown} */ (Object.freeze([])))
const NO_ENCODINGS = Object.freeze({ encodings: 0 })

/**
 * The rules of `index` that make this writer's index of this column untrustworthy.
 * @param {string | undefined} createdBy
 * @param {WriterRule['index']} index
 * @param {ColumnType} column
 * @param {{ encodings: number }} [chunk]
 * @returns {WriterRule[]}
 */
export function writerRulesFor(createdBy, index, column, chunk = NO_ENCODINGS) {
  if (createdBy !== lastCreatedBy) {
    lastCreatedBy = createdBy
    const writer = parseCreatedBy(createdBy)
    writerRules = new Map()
    for (const rule of WRITER_RULES) {
      if (!rule.writer(writer, createdBy)) continue
      const rules = writerRules.get(rule.index)
      if (rules) rules.push(rule)
      else writerRules.set(rule.index, [rule])
    }
  }
  const rules = writerRules.get(index)
  if (rules === undefined) return NO_RULES
  let affecting = NO_RULES
  for (let r = 0; r < rules.length; r++) {
    if (!rules[r].affects(column, chunk)) continue
    if (affecting === NO_RULES) affecting = [rules[r]]
    else affecting.push(rules[r])
  }
  return affecting
}

/**
 * created_by as parquet-java's VersionParser reads it: "<application> version <version> (build <hash>)".
 * @param {unknown} createdBy
 * @returns {WriterVersion | null} null when it does not parse
 */
export function parseCreatedBy(createdBy) {
  if (typeof createdBy !== 'string') return null
  const m = /^(.*?)\s+version\s*(?:([^(]*?)\s*(?:\(\s*build\s*([^)]*?)\s*\))?)?$/.exec(createdBy.trim())
  if (!m || !m[1]) return null
  const semver = /^(\d+)\.(\d+)\.(\d+)([^-+]*)?(?:-([^+]*))?(?:\+(.*))?$/.exec(m[2] ?? '')
  return {
    application: m[1],
    version: semver ? [Number(semver[1]), Number(semver[2]), Number(semver[3])] : null,
    prerelease: semver?.[5] ?? '',
  }
}

/**
 * Semver order: a prerelease sorts before its release.
 * @param {WriterVersion} w one with a version (the callers check)
 * @param {number[]} bound
 */
function compareVersion(w, bound) {
  const version = /** @type {number[]} */ (w.version)
  for (let i = 0; i < 3; i++) if (version[i] !== bound[i]) return version[i] < bound[i] ? -1 : 1
  return w.prerelease ? -1 : 0
}

/**
 * @param {WriterVersion} w
 * @param {number[]} bound
 */
function before(w, bound) {
  return w.version !== null && compareVersion(w, bound) < 0
}

/**
 * @param {WriterVersion} w
 * @param {number[]} from
 * @param {number[]} to
 */
function between(w, from, to) {
  return w.version !== null && compareVersion(w, from) >= 0 && compareVersion(w, to) < 0
}

/** @param {ColumnType} column */
function isUnsigned(column) {
  const lt = column.logicalType
  return lt?.type === 'INTEGER' && lt.isSigned === false
}
