// The one place parquet-bloom imports hyparquet: its page readers for exact lookups (js/pages/page-decode.js),
// its metadata parser, its type conversion and list/struct assembly for point lookups (js/confirm/row-values.js) and
// table metadata files (js/table/parquet-rows.js), and its JavaScript snappy where hyparquet-compressors
// cannot load. All are dynamic imports, loaded on first use. They name hyparquet/src/*.js modules, which
// hyparquet's package.json "exports" allows but which are not its documented API: of these only parquetMetadata and
// snappyUncompress are also exported by its entry, and that entry cannot be used
// here (in Node it is src/node.js, which imports 'fs' — not loadable in browsers without a bundler or in
// Workers — and it loads all of hyparquet, query planner included). The exact version pin holds the
// module paths; tests/js/hyparquet-adapter.test.js fails, naming the function, when an upgrade moves one.

/** Each function parquet-bloom uses, by the hyparquet module that exports it. */
export const HYPARQUET_FUNCTIONS = Object.freeze({
  'hyparquet/src/column.js': ['parquetHeader'],
  'hyparquet/src/datapage.js': ['readDataPage', 'readDataPageV2'],
  'hyparquet/src/plain.js': ['readPlain'],
  'hyparquet/src/metadata.js': ['parquetMetadata', 'parquetSchema'],
  'hyparquet/src/schema.js': ['getSchemaPath', 'getMaxDefinitionLevel', 'getMaxRepetitionLevel'],
  'hyparquet/src/encoding.js': ['readRleBitPackedHybrid'],
  'hyparquet/src/convert.js': ['convert', 'convertWithDictionary'],
  'hyparquet/src/assemble.js': ['assembleLists', 'assembleNested'],
  'hyparquet/src/snappy.js': ['snappyUncompress'],
})

/**
 * hyparquet's page-level functions, loaded together (each specifier literal, so that bundlers split them
 * into on-demand chunks and the Workers config test finds them).
 * @returns {Promise<Record<string, any>>} the functions, DEFAULT_PARSERS, and LOOKUP_PARSERS (point lookups': no Invalid Date)
 */
export async function loadHyparquetPages() {
  const modules = await Promise.all([
    import('hyparquet/src/column.js'), import('hyparquet/src/datapage.js'), import('hyparquet/src/plain.js'),
    import('hyparquet/src/metadata.js'), import('hyparquet/src/schema.js'),
    import('hyparquet/src/encoding.js'), import('hyparquet/src/convert.js'), import('hyparquet/src/assemble.js'),
  ])
  const moduleNames = /** @type {(keyof typeof HYPARQUET_FUNCTIONS)[]} */ (Object.keys(HYPARQUET_FUNCTIONS))
  const names = moduleNames.filter((name) => name !== 'hyparquet/src/snappy.js')
  const convert = /** @type {Record<string, unknown>} */ (modules[names.indexOf('hyparquet/src/convert.js')])
  const parsers = convert.DEFAULT_PARSERS
  if (typeof parsers !== 'object' || !parsers) {
    throw new TypeError(`hyparquet/src/convert.js no longer exports DEFAULT_PARSERS: ${UPGRADED}`)
  }
  // The parsers its row reader converts with when given none (timestamps, dates, strings, JSON, UUIDs, geometry), but
  // timestamps finer than milliseconds as the millisecond holding them; point lookups' give no Invalid Date either.
  /** @type {Record<string, any>} */
  const floored = { ...parsers, ...FLOORED_TIMESTAMPS }
  const lookups = { ...floored }
  for (const name of DATE_PARSERS) lookups[name] = countPastDates(floored[name])
  return Object.assign({ DEFAULT_PARSERS: floored, LOOKUP_PARSERS: lookups }, ...modules.map((module, i) => pick(names[i], module)))
}

/** hyparquet's parsers that make a Date of a count: TIMESTAMP (MILLIS, MICROS, NANOS; INT96 as nanoseconds), DATE. */
const DATE_PARSERS = ['timestampFromMilliseconds', 'timestampFromMicroseconds', 'timestampFromNanoseconds', 'dateFromDays']

/**
 * A Date parser that gives the stored count itself (a bigint, in the column's unit: ms, µs or ns since the epoch, INT96's
 * ns, DATE's days) where no Date holds the value: a year after 275760 or before -271821, which an INT64 of µs or ns, an
 * INT96 or a DATE stores (DuckDB's TIMESTAMP goes to 294247, its DATE to 5881580). Such a Date is Invalid Date, which a
 * caller cannot tell from a broken read, and which JSON writes as null, a value the row does not hold.
 * @param {(count: any) => Date} parse
 */
const countPastDates = (parse) => (/** @type {bigint | number} */ count) => {
  const date = parse(count)
  return Number.isNaN(date.getTime()) ? BigInt(count) : date
}

/**
 * A count of 1/perMs ms (a bigint, or a number) as the Date of the millisecond holding it. hyparquet's own parsers
 * divide bigints, which truncates towards zero: a point lookup's row at 1969-12-31 23:59:59.999999 (-1 µs) came back
 * as 1970-01-01T00:00:00.000Z, and every pre-1970 value finer than a millisecond 1 ms late.
 * @param {bigint} perMs
 */
const floorToDate = (perMs) => (/** @type {bigint | number} */ count) => {
  const big = BigInt(count)
  const ms = big / perMs
  return new Date(Number(ms * perMs > big ? ms - 1n : ms))
}
const FLOORED_TIMESTAMPS = { timestampFromMicroseconds: floorToDate(1000n), timestampFromNanoseconds: floorToDate(1000000n) }

const UPGRADED = 'the installed hyparquet is not the version js/pages/hyparquet.js was written for'

/**
 * hyparquet's JavaScript snappy decoder: it fills `output` exactly or throws.
 * @returns {Promise<{ snappyUncompress: (input: Uint8Array, output: Uint8Array) => void }>}
 */
export async function loadHyparquetSnappy() {
  return /** @type {any} */ (pick('hyparquet/src/snappy.js', await import('hyparquet/src/snappy.js')))
}

/**
 * The functions parquet-bloom uses from one hyparquet module; a clear error when one is gone.
 * @param {keyof typeof HYPARQUET_FUNCTIONS} name
 * @param {Record<string, unknown>} module the module as imported
 * @returns {Record<string, Function>}
 */
function pick(name, module) {
  /** @type {Record<string, Function>} */
  const out = {}
  for (const fn of HYPARQUET_FUNCTIONS[name]) {
    if (typeof module[fn] !== 'function') {
      throw new TypeError(`${name} no longer exports ${fn}(): ${UPGRADED}`)
    }
    out[fn] = /** @type {Function} */ (module[fn])
  }
  return out
}
