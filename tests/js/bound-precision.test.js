// Table bounds stored at another precision than the data (js/table/bound-precision.js): a test per row
// of the rules table on metadata written as the writers write it (Spark's shortest float text,
// delta-rs's double of the float, `delta.typeChanges`, Iceberg bounds of the type a file was written
// with), then whole Delta tables over files written by hyparquet-writer and DuckDB, each stored value as
// hyparquet reads it: never ruled out by the table's statistics, and values past the float's rounding
// range ruled out.
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../js/index.js'
import { valueKeys } from '../../js/table/column-keys.js'
import { deltaFacts, deltaType } from '../../js/table/delta.js'
import { icebergColumnFacts } from '../../js/table/iceberg.js'
import { icebergType } from '../../js/table/iceberg-types.js'
import { pruneFile } from '../../js/table/prune.js'
import { BOUND_PRECISION_RULES } from '../../js/table/bound-precision.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { tempDir } from '../../testkit/temp-dir.js'

const pad = (v) => String(v).padStart(20, '0')
const f32bits = new Float32Array(1)
const u32 = new Uint32Array(f32bits.buffer)
/** The next float32 above (dir 1) or below (dir -1) a finite nonzero float32. */
const nextFloat = (f, dir) => { f32bits[0] = f; u32[0] += (dir > 0) === (f > 0) ? 1 : -1; return f32bits[0] }
/** The float32's shortest decimal, as Java's Float.toString (and so Spark's stats) prints it. */
function floatText(f) {
  for (let p = 1; p <= 9; p++) {
    const text = f.toPrecision(p)
    if (Math.fround(Number(text)) === f) return String(Number(text))
  }
  return String(f)
}
const le32 = (n) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, n, true); return b }
const f32le = (x) => { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, x, true); return b }

/** Pruning answers for one Delta file whose stats JSON is `statsText`, for a column of `type` (and its earlier types). */
function delta(type, statsText, values, { widenedFrom = [], prefixLength } = {}) {
  const field = { id: 1, name: 'c', physicalName: 'c', physicalPath: ['c'], type: deltaType(type), topLevel: true, widenedFrom: widenedFrom.map(deltaType) }
  const file = { partitions: [], columnFacts: deltaFacts([field], new Set(), statsText, 'delta', prefixLength) }
  return pruneFile(file, field, valueKeys(field.type, values)).map((a) => a?.reason ?? null)
}

/** Pruning answers for one Iceberg file with these serialized bounds. */
function iceberg(type, lower, upper, values) {
  const field = { id: 1, name: 'c', type: icebergType(type) }
  const dataFile = { lower_bounds: [{ key: 1, value: lower }], upper_bounds: [{ key: 1, value: upper }] }
  const file = { partitions: [], columnFacts: icebergColumnFacts(dataFile, [field], 16, 'spark') }
  return pruneFile(file, field, valueKeys(field.type, values)).map((a) => a?.reason ?? null)
}

const stats = (min, max) => `{"numRecords":1,"minValues":{"c":${min}},"maxValues":{"c":${max}},"nullCount":{"c":0}}`
const f = Math.fround(3.4) // 3.4000000953674316, which Spark writes as 3.4

/** One case per rule id: the rules table and this list must name the same rows. */
const CASES = {
  'delta-widened-from-float': () => {
    // A file written before float → double stores float32 3.4f and says 3.4; engines read 3.4000000953674316.
    assert.deepEqual(delta('double', stats(3.4, 3.4), [f, 3.4, nextFloat(f, 1), nextFloat(f, -1)], { widenedFrom: ['float'] }),
      [null, null, 'out-of-range', 'out-of-range'])
    // Without the widening recorded, a double column's "3.4" is the double 3.4.
    assert.deepEqual(delta('double', stats(3.4, 3.4), [f, 3.4]), ['out-of-range', null])
  },
  'delta-float-shortest-decimal': () => {
    // Spark's shortest text and delta-rs's double of the float mean the same float32.
    for (const text of ['3.4', '3.4000000953674316']) {
      assert.deepEqual(delta('float', stats(text, text), [f, 3.4, nextFloat(f, 1), nextFloat(f, -1)]), [null, null, 'out-of-range', 'out-of-range'])
    }
    // A decimal halfway between two floats stands for both.
    const lo = Math.fround(1 + 2 ** -23)
    const half = (1 + lo) / 2
    assert.deepEqual(delta('float', stats(half, half), [1, lo, nextFloat(lo, 1)]), [null, null, 'out-of-range'])
  },
  'delta-exact-digits': () => {
    // A long past 2^53 and a decimal of 15 digits compare by their digits.
    assert.deepEqual(delta('long', stats('9007199254740993', '9007199254740993'), [9007199254740992n, 9007199254740993n, 9007199254740994n]),
      ['out-of-range', null, 'out-of-range'])
    assert.deepEqual(delta('decimal(15,3)', stats('123456789012.345', '123456789012.345'), ['123456789012.344', '123456789012.345', '123456789012.346']),
      ['out-of-range', null, 'out-of-range'])
    // Widened since the bound was written: int → long, decimal(5,2) → decimal(10,4), date → timestamp_ntz.
    assert.deepEqual(delta('long', stats(7, 9), [6, 7, 9, 10], { widenedFrom: ['integer'] }), ['out-of-range', null, null, 'out-of-range'])
    assert.deepEqual(delta('decimal(10,4)', stats('1.25', '1.25'), ['1.2499', '1.25', '1.2501'], { widenedFrom: ['decimal(5,2)'] }),
      ['out-of-range', null, 'out-of-range'])
    assert.deepEqual(delta('timestamp_ntz', stats('"2024-01-02"', '"2024-01-02"'), ['2024-01-02T00:00:00', '2024-01-01T23:59:59', '2024-01-02T00:00:01'], { widenedFrom: ['date'] }),
      [null, 'out-of-range', 'out-of-range'])
    // A double's digits are the correctly rounded double, however many there are.
    assert.deepEqual(delta('double', stats('0.1000000000000000055511151231257827', '0.1000000000000000055511151231257827'), [0.1, 0.10000000000000002]),
      [null, 'out-of-range'])
  },
  'delta-binary-not-read': () => {
    // delta-rs writes 0x00 0x5C as "\\x00\\\\" (its own test), which is not those bytes.
    assert.deepEqual(delta('binary', stats('"\\\\x00\\\\\\\\"', '"\\\\x00\\\\\\\\"'), [Uint8Array.of(0x00, 0x5c), Uint8Array.of(0xff)]), [null, null])
  },
  'delta-decimal-through-double': () => {
    // delta-rs: 123456789012345677 as f64 is 123456789012345680, over 100 is 1234567890123456.8 — above the least value.
    assert.deepEqual(delta('decimal(18,2)', stats('1234567890123456.8', '1234567890123456.8'), ['1234567890123456.77', '1234567890000000.77']),
      [null, 'out-of-range'])
    // Its own test: 99999999999999999999999999999999.999999 in decimal(38,6) is written 9.999999999999999e31.
    assert.deepEqual(delta('decimal(38,6)', stats('1', '9.999999999999999e31'), ['99999999999999999999999999999999.999999', '0.5']),
      [null, 'out-of-range'])
    // Past 17 digits, a neighbour is kept; a value past the double's rounding is ruled out.
    assert.deepEqual(delta('decimal(38,18)', stats('12345678901234567890.123456789012345678', '12345678901234567890.123456789012345678'),
      ['12345678901234567890.123456789012345677', '12345678901234567890.123456789012345679', '12345678902000000000', '12345678901000000000']),
    [null, null, 'out-of-range', 'out-of-range'])
  },
  'delta-timestamp-milliseconds': () => {
    // A microsecond value within the bound's millisecond, on either side, is kept; past it, ruled out.
    const s = stats('"2024-01-02T03:04:05.006Z"', '"2024-01-02T03:04:05.006Z"')
    assert.deepEqual(delta('timestamp', s, ['2024-01-02T03:04:05.006999Z', '2024-01-02T03:04:05.005001Z', '2024-01-02T03:04:05.008001Z']),
      [null, null, 'out-of-range'])
    // Also after date → timestamp_ntz (a widened column's later files are written in milliseconds too).
    assert.deepEqual(delta('timestamp_ntz', stats('"2024-01-02T00:00:00.000"', '"2024-01-02T00:00:00.000"'), ['2024-01-02T00:00:00.000999'], { widenedFrom: ['date'] }), [null])
  },
  'delta-timestamp-offset-minutes': () => {
    // java.time's XXX prints Africa/Monrovia's -00:44:30 (until 1972) as -00:44: 12:00:00.123456Z is written 11:15:30.123-00:44,
    // which reads 11:59:30.123Z. A value within the minute is kept, one past it ruled out; a UTC bound stays exact to the 1 ms.
    const s = stats('"1965-06-01T11:15:30.123-00:44"', '"1965-06-01T11:15:30.123-00:44"')
    assert.deepEqual(delta('timestamp', s, ['1965-06-01T12:00:00.123456Z', '1965-06-01T11:59:00.123Z', '1965-06-01T12:00:31Z', '1965-06-01T11:58:29Z']),
      [null, null, 'out-of-range', 'out-of-range'])
    assert.deepEqual(delta('timestamp', stats('"1965-06-01T12:00:00.123Z"', '"1965-06-01T12:00:00.123Z"'), ['1965-06-01T12:00:00.125Z']), ['out-of-range'])
  },
  'delta-string-prefix': () => {
    const prefix = 'abcdefghijklmnopqrstuvwxyz012345' // 32 characters
    assert.deepEqual(delta('string', stats('"a"', `"${prefix}"`), [`${prefix}zzz`, `${prefix.slice(0, 31)}z`]), [null, 'out-of-range'])
    assert.deepEqual(delta('string', stats('"a"', '"abcd"'), ['abcdz'], { prefixLength: 4 }), [null])
    // Spark cuts at 32 UTF-16 units and appends U+FFFD, below every 4-byte UTF-8 character: 16 emoji and U+FFFD
    // (17 characters) is a prefix, as is 31 letters, "?" (half a pair) and U+FFFD; a value past it is still ruled out.
    const emoji = '\u{1F600}'
    assert.deepEqual(delta('string', stats('"a"', `"${emoji.repeat(16)}\uFFFD"`), [emoji.repeat(20), '\u{1F601}']), [null, 'out-of-range'])
    assert.deepEqual(delta('string', stats('"a"', `"${'a'.repeat(31)}?\uFFFD"`), [`${'a'.repeat(31)}${emoji}`, 'b']), [null, 'out-of-range'])
    // A writer cutting the same way with U+FFFF as its tie-breaker: the same prefix.
    assert.deepEqual(delta('string', stats('"a"', `"${emoji.repeat(16)}\uFFFF"`), [emoji.repeat(20), '\u{1F601}']), [null, 'out-of-range'])
  },
  'iceberg-date-promoted-to-timestamp': () => {
    // 19724 days = 2024-01-02: midnight that day, in micros and in nanos.
    const day = le32(19724)
    assert.deepEqual(iceberg('timestamp', day, day, ['2024-01-02T00:00:00', '2024-01-01T23:59:59', '2024-01-02T00:00:00.000001']), [null, 'out-of-range', 'out-of-range'])
    assert.deepEqual(iceberg('timestamp_ns', day, day, ['2024-01-02T00:00:00', '2024-01-03T00:00:00']), [null, 'out-of-range'])
  },
  'iceberg-int-promoted-to-long': () => {
    assert.deepEqual(iceberg('long', le32(-5), le32(70000), [-5, 70000, -6, 70001, 2 ** 40]), [null, null, 'out-of-range', 'out-of-range', 'out-of-range'])
  },
  'iceberg-float-promoted-to-double': () => {
    assert.deepEqual(iceberg('double', f32le(3.4), f32le(3.4), [f, 3.4, nextFloat(f, 1)]), [null, 'out-of-range', 'out-of-range'])
  },
  'iceberg-decimal-precision-promoted': () => {
    // decimal(4,2) → decimal(20,2): a 2-byte bound of -1.28 (0xff80) still reads -128 unscaled.
    const b = Uint8Array.of(0xff, 0x80)
    assert.deepEqual(iceberg('decimal(20,2)', b, b, ['-1.28', '-1.27', '-1.29']), [null, 'out-of-range', 'out-of-range'])
  },
}

describe('the bound precision rules, a test per row', () => {
  test('every rule has a case and every case a rule', () => {
    assert.deepEqual(Object.keys(CASES).sort(), BOUND_PRECISION_RULES.map((r) => r.id).sort())
  })
  for (const rule of BOUND_PRECISION_RULES) test(`${rule.id}: ${rule.message}`, CASES[rule.id])
})

describe('Delta float statistics over files written by hyparquet-writer and DuckDB', async () => {
  const dir = await tempDir('bound-precision')
  // The least and the greatest are not doubles' shortest texts: -0.3f is below -0.3, 123.456f above 123.456.
  const floats = [3.4, 0.1, -2.5e-8, 123.456, -0.3].map(Math.fround)

  async function duckdbFloats(file) {
    await withDuckDB(async (connection) => {
      const list = floats.map((x) => `(${x}::FLOAT)`).join(', ')
      await connection.run(`COPY (SELECT * FROM (VALUES ${list}) t(f)) TO '${file}' (FORMAT parquet)`)
    })
  }

  /**
   * A Delta table of the given files, with stats as `writer` writes them: 'spark' the float's shortest
   * text, 'delta-rs' the double of the float (serde_json of an f64).
   */
  async function deltaTable(name, schemaType, typeChanges, files) {
    const root = path.join(dir, name)
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    const metadata = typeChanges ? { 'delta.typeChanges': typeChanges } : {}
    const schema = { type: 'struct', fields: [{ name: 'f', type: schemaType, nullable: true, metadata }] }
    const actions = [
      { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: typeChanges ? ['typeWidening'] : [], writerFeatures: typeChanges ? ['typeWidening'] : [] } },
      { metaData: { id: name, format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: {} } },
    ]
    const truth = {}
    for (const file of files) {
      const bytes = file.bytes
      await writeFile(path.join(root, file.name), bytes)
      const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
      const values = rows.map((r) => r.f)
      truth[file.name] = values
      const min = values.reduce((a, b) => Math.min(a, b))
      const max = values.reduce((a, b) => Math.max(a, b))
      const text = file.writer === 'spark' ? floatText : String
      const statsText = `{"numRecords":${values.length},"minValues":{"f":${text(min)}},"maxValues":{"f":${text(max)}},"nullCount":{"f":0}}`
      actions.push({ add: { path: file.name, partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true, stats: statsText } })
    }
    await writeFile(path.join(root, '_delta_log', `${pad(0)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    return { root, truth }
  }

  /** A file written after the widening: doubles, whose stats are the doubles' shortest texts. */
  const doublesAfterWidening = () => ({
    name: 'after-widening.parquet', writer: 'delta-rs',
    bytes: new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'f', data: Float64Array.of(3.4, -0.3, 123.456, 0.1), type: 'DOUBLE' }] })),
  })

  async function files() {
    const hy = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'f', data: Float32Array.from(floats), type: 'FLOAT' }] }))
    const duckPath = path.join(dir, `duck-${Math.random().toString(36).slice(2)}.parquet`)
    await duckdbFloats(duckPath)
    const duck = new Uint8Array(await (await import('node:fs/promises')).readFile(duckPath))
    return [
      { name: 'hyparquet-spark.parquet', bytes: hy, writer: 'spark' },
      { name: 'duckdb-spark.parquet', bytes: duck, writer: 'spark' },
      { name: 'hyparquet-deltars.parquet', bytes: hy, writer: 'delta-rs' },
      { name: 'duckdb-deltars.parquet', bytes: duck, writer: 'delta-rs' },
    ]
  }

  const tables = [
    ['a float column', 'float', undefined],
    ['a column widened from float to double (delta.typeChanges)', 'double', [{ fromType: 'float', toType: 'double' }]],
    ['a column widened, in the preview form with tableVersion', 'double', [{ fromType: 'float', toType: 'double', tableVersion: 1 }]],
  ]
  test('a widened column with confirm: present exactly where hyparquet reads the value, as engines read the widened column', async () => {
    const written = [...await files(), doublesAfterWidening()]
    const { root, truth } = await deltaTable('widened-confirm', 'double', [{ fromType: 'float', toType: 'double' }], written)
    const table = await openTable(root)
    const asked = [...new Set([...Object.values(truth).flat(), 3.4, -0.3, 0.1, 123.456])]
    const result = await table.probe('f', asked, { confirm: true })
    for (const file of result.files) {
      for (const answer of file.values) {
        const expected = truth[file.path].includes(answer.value) ? 'present' : 'absent'
        assert.equal(answer.verdict, expected, `${file.path}: ${answer.value} (${answer.source}: ${answer.reason})`)
      }
    }
  })

  for (const [label, schemaType, typeChanges] of tables) {
    test(`${label}: every stored value (as hyparquet reads it) is kept; the next float past each file's bounds is ruled out`, async () => {
      const written = [...await files(), ...(typeChanges ? [doublesAfterWidening()] : [])]
      const { root, truth } = await deltaTable(label.replace(/\W+/g, '-'), schemaType, typeChanges, written)
      const table = await openTable(root)
      const stored = [...new Set(Object.values(truth).flat())]
      const result = await table.probe('f', stored)
      for (const file of result.files) {
        for (const answer of file.values) {
          if (truth[file.path].includes(answer.value)) assert.notEqual(answer.verdict, 'absent', `${file.path}: ${answer.value} is stored, answered ${answer.source}: ${answer.reason}`)
        }
      }
      const max = Math.max(...floats, 123.456)
      const min = Math.min(...floats, -0.3)
      const outside = [nextFloat(max, 1), nextFloat(min, -1), max * (1 + 2 ** -20)]
      const beyond = await table.probe('f', outside)
      for (const file of beyond.files) {
        for (const answer of file.values) {
          assert.equal(answer.verdict, 'absent', `${file.path}: ${answer.value}`)
          assert.equal(answer.source, 'table-stats', `${file.path}: ${answer.value} ruled out by the table's statistics`)
        }
      }
    })
  }
})

describe('Delta string maxima as Spark truncates them, over files written by hyparquet-writer', async () => {
  const dir = await tempDir('bound-precision-strings')
  /**
   * Spark's string max (StatisticsCollection.truncateMaxStringAgg) on a Java string: the first 32 UTF-16 units,
   * any units >= U+FFFD after them, then U+FFFD; UTF8String.fromString writes an unpaired surrogate as "?".
   */
  function sparkMax(x) {
    if (x.length <= 32) return x
    let i = 32
    while (i < x.length && x.charCodeAt(i) >= 0xfffd) i++
    return `${x.slice(0, i)}\uFFFD`.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '?')
  }
  const utf8Order = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))

  test('a max cut inside or just after 4-byte characters keeps every stored value; a value past the prefix is ruled out', async () => {
    const emoji = '\u{1F600}'
    const columns = { all: emoji.repeat(20), split: `${'a'.repeat(31)}${emoji.repeat(3)}`, mixed: `${'a'.repeat(30)}${emoji.repeat(5)}` }
    const root = path.join(dir, 'spark-strings')
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    const schema = { type: 'struct', fields: [{ name: 's', type: 'string', nullable: true, metadata: {} }] }
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'strings', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: {} } },
    ]
    const truth = {}
    for (const [name, long] of Object.entries(columns)) {
      const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 's', data: ['a', long], type: 'STRING' }] }))
      await writeFile(path.join(root, `${name}.parquet`), bytes)
      const values = (await parquetReadObjects({ file: bytes.buffer })).map((r) => r.s)
      truth[`${name}.parquet`] = values
      const [min, max] = [...values].sort(utf8Order).filter((_, i, a) => i === 0 || i === a.length - 1)
      const stats = { numRecords: values.length, minValues: { s: [...min].slice(0, 32).join('') }, maxValues: { s: sparkMax(max) }, nullCount: { s: 0 } }
      actions.push({ add: { path: `${name}.parquet`, partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true, stats: JSON.stringify(stats) } })
    }
    await writeFile(path.join(root, '_delta_log', `${pad(0)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    const table = await openTable(root)
    const stored = [...new Set(Object.values(truth).flat())]
    const result = await table.probe('s', stored)
    for (const file of result.files) {
      for (const answer of file.values) {
        if (truth[file.path].includes(answer.value)) {
          assert.notEqual(answer.verdict, 'absent', `${file.path}: ${answer.value} is stored, answered ${answer.source}: ${answer.reason}`)
        }
      }
    }
    const beyond = await table.probe('s', ['\u{1F601}'])
    for (const file of beyond.files) assert.equal(file.values[0].reason, 'out-of-range', file.path)
  })
})

describe('Delta statistics as delta-rs writes them (crates/core/src/writer/stats.rs), over files written by DuckDB and hyparquet-writer', async () => {
  const dir = await tempDir('bound-precision-delta-rs')
  /** A one-file Delta table of one column; stats: the file's min and max as delta-rs serializes them (JSON values). */
  async function oneFileTable(name, column, type, bytes, min, max, count) {
    const root = path.join(dir, name)
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    await writeFile(path.join(root, 'part-0.parquet'), bytes)
    const schema = { type: 'struct', fields: [{ name: column, type, nullable: true, metadata: {} }] }
    const stats = { numRecords: count, minValues: { [column]: min }, maxValues: { [column]: max }, nullCount: { [column]: 0 } }
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: name, format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: {} } },
      { add: { path: 'part-0.parquet', partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true, stats: JSON.stringify(stats) } },
    ]
    await writeFile(path.join(root, '_delta_log', `${pad(0)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    return openTable(root)
  }

  test('decimal(18,2) bounds written as doubles keep every stored value (DuckDB reads them back)', async () => {
    const file = path.join(dir, 'decimals.parquet')
    /** @type {string[]} */
    let stored = []
    await withDuckDB(async (connection) => {
      // The least's double is above it (…456.8), the greatest's below it (…457).
      await connection.run(`COPY (SELECT * FROM (VALUES (1234567890123456.77::DECIMAL(18,2)), (1234567890123457.01::DECIMAL(18,2)))
        t(d)) TO '${file}' (FORMAT parquet)`)
      stored = (await (await connection.run(`SELECT d::VARCHAR AS d FROM '${file}'`)).getRowObjects()).map((r) => String(r.d))
    })
    // delta-rs: the unscaled INT64 as f64, over 10^scale; serde_json prints the double's shortest text, as JavaScript does.
    const unscaled = stored.map((d) => BigInt(d.replace('.', '')))
    const asDeltaRs = (/** @type {bigint} */ u) => Number(u) / 100
    const min = unscaled.reduce((a, b) => (a < b ? a : b))
    const max = unscaled.reduce((a, b) => (a > b ? a : b))
    const bytes = new Uint8Array(await (await import('node:fs/promises')).readFile(file))
    const table = await oneFileTable('decimals', 'd', 'decimal(18,2)', bytes, asDeltaRs(min), asDeltaRs(max), stored.length)
    const result = await table.probe('d', stored, { confirm: true })
    assert.deepEqual(result.files[0].values.map((v) => v.verdict), stored.map(() => 'present'))
    const beyond = await table.probe('d', ['1234567891000000.00', '1234567890000000.00'])
    assert.deepEqual(beyond.files[0].values.map((v) => v.reason), ['out-of-range', 'out-of-range'])
  })
})

describe('Delta binary statistics as delta-rs writes them, over a file written by hyparquet-writer', async () => {
  const dir = await tempDir('bound-precision-binary')
  /** Rust's std::ascii::escape_default of each byte, as delta-rs serializes a binary bound. */
  const escapeDefault = (/** @type {Uint8Array} */ bytes) => [...bytes].map((b) => ({ 9: '\\t', 10: '\\n', 13: '\\r', 34: '\\"', 39: "\\'", 92: '\\\\' })[b] ??
    (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')

  test('every stored value (as hyparquet reads it) is kept', async () => {
    const written = [Uint8Array.of(0x00, 0x5c), Uint8Array.of(0x01, 0xff), Uint8Array.of(0x7a)]
    const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'b', data: written, type: 'BYTE_ARRAY' }] }))
    const stored = (await parquetReadObjects({ file: bytes.buffer, utf8: false })).map((r) => r.b)
    const root = path.join(dir, 'binary')
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    await writeFile(path.join(root, 'part-0.parquet'), bytes)
    const order = (/** @type {Uint8Array} */ a, /** @type {Uint8Array} */ b) => Buffer.compare(a, b)
    const sorted = [...stored].sort(order)
    const stats = { numRecords: stored.length, minValues: { b: escapeDefault(sorted[0]) }, maxValues: { b: escapeDefault(sorted[sorted.length - 1]) },
      nullCount: { b: 0 } }
    const schema = { type: 'struct', fields: [{ name: 'b', type: 'binary', nullable: true, metadata: {} }] }
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'binary', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: {} } },
      { add: { path: 'part-0.parquet', partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true, stats: JSON.stringify(stats) } },
    ]
    await writeFile(path.join(root, '_delta_log', `${pad(0)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    const result = await (await openTable(root)).probe('b', stored)
    for (const answer of result.files[0].values) assert.notEqual(answer.verdict, 'absent', `${answer.value} is stored: ${answer.source} ${answer.reason}`)
  })
})

describe('Delta timestamp statistics as Spark writes them in a session time zone, over a file written by DuckDB', async () => {
  const dir = await tempDir('bound-precision-timestamps')

  test('an offset with seconds (Africa/Monrovia, 1965) is printed without them: every stored instant is kept', async () => {
    const file = path.join(dir, 'instants.parquet')
    /** @type {string[]} */
    let stored = []
    await withDuckDB(async (connection) => {
      await connection.run(`COPY (SELECT * FROM (VALUES (TIMESTAMPTZ '1965-06-01 12:00:00.123456+00'), (TIMESTAMPTZ '1965-06-01 13:00:00.654321+00'))
        t(ts)) TO '${file}' (FORMAT parquet)`)
      const read = await connection.run(`SELECT strftime(ts AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ') AS s FROM '${file}' ORDER BY ts`)
      stored = (await read.getRowObjects()).map((r) => String(r.s))
    })
    assert.deepEqual(stored, ['1965-06-01T12:00:00.123456Z', '1965-06-01T13:00:00.654321Z'])
    // As java.time's DateTimeFormatter "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" in Africa/Monrovia (offset -00:44:30) prints them.
    const stats = { numRecords: 2, minValues: { ts: '1965-06-01T11:15:30.123-00:44' }, maxValues: { ts: '1965-06-01T12:15:30.654-00:44' },
      nullCount: { ts: 0 } }
    const root = path.join(dir, 'monrovia')
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    const bytes = new Uint8Array(await (await import('node:fs/promises')).readFile(file))
    await writeFile(path.join(root, 'part-0.parquet'), bytes)
    const schema = { type: 'struct', fields: [{ name: 'ts', type: 'timestamp', nullable: true, metadata: {} }] }
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'monrovia', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: [], configuration: {} } },
      { add: { path: 'part-0.parquet', partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true, stats: JSON.stringify(stats) } },
    ]
    await writeFile(path.join(root, '_delta_log', `${pad(0)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    const table = await openTable(root)
    const result = await table.probe('ts', stored, { confirm: true })
    assert.deepEqual(result.files[0].values.map((v) => v.verdict), ['present', 'present'])
    const beyond = await table.probe('ts', ['1965-06-01T13:02:00Z', '1965-06-01T11:58:00Z'])
    assert.deepEqual(beyond.files[0].values.map((v) => v.reason), ['out-of-range', 'out-of-range'])
  })
})

describe('a Delta column widened from integer to double, over a file still of INT32 written by DuckDB', async () => {
  const dir = await tempDir('widened-int-double')

  test('text a double rounds to a stored integer is never absent there; exact text and numbers are probed exactly', async () => {
    const file = path.join(dir, 'old.parquet')
    const asked = ['3', '3.000', '3.0000000000000001', '2.9999999999999999', '3.5', 3]
    /** @type {number[]} */
    let truth = []
    await withDuckDB(async (connection) => {
      await connection.run(`COPY (SELECT * FROM (VALUES (3::INTEGER), (-7::INTEGER)) t(c)) TO '${file}' (FORMAT parquet)`)
      // The table reads the file's integers widened to DOUBLE, and a value given as text as the double it rounds to.
      for (const v of asked) {
        const rows = await (await connection.run(`SELECT count(*)::INTEGER AS n FROM '${file}' WHERE c::DOUBLE = '${v}'::DOUBLE`)).getRowObjects()
        truth.push(Number(rows[0].n))
      }
    })
    assert.deepEqual(truth, [1, 1, 1, 1, 0, 1])
    const bytes = new Uint8Array(await (await import('node:fs/promises')).readFile(file))
    const root = path.join(dir, 'table')
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    await writeFile(path.join(root, 'old.parquet'), bytes)
    const schema = (type, metadata) => JSON.stringify({ type: 'struct', fields: [{ name: 'c', type, nullable: true, metadata }] })
    const meta = (type, metadata) => ({ metaData: { id: 'w', format: { provider: 'parquet', options: {} }, schemaString: schema(type, metadata),
      partitionColumns: [], configuration: {} } })
    const commits = [
      [{ protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['typeWidening'], writerFeatures: ['typeWidening'] } },
        meta('integer', {}), { add: { path: 'old.parquet', partitionValues: {}, size: bytes.length, modificationTime: 0, dataChange: true,
          stats: '{"numRecords":2,"minValues":{"c":-7},"maxValues":{"c":3},"nullCount":{"c":0}}' } }],
      [meta('double', { 'delta.typeChanges': [{ fromType: 'integer', toType: 'double' }] })],
    ]
    for (const [v, actions] of commits.entries()) {
      await writeFile(path.join(root, '_delta_log', `${pad(v)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    }
    const result = await (await openTable(root)).probe('c', asked, { confirm: true })
    const verdicts = result.files[0].values.map((v) => v.verdict)
    assert.deepEqual(verdicts, ['present', 'present', 'unknown', 'unknown', 'absent', 'present'])
    for (const [k, n] of truth.entries()) if (n > 0) assert.notEqual(verdicts[k], 'absent', String(asked[k]))
    assert.equal(result.files[0].values[2].reason, 'unit-differs')
  })
})

describe('a table index over a Delta table whose columns were widened, files written by DuckDB', async () => {
  const dir = await tempDir('widened-index')

  test('date → timestamp_ntz and int → double: values an old file reads otherwise are decided as without the index', async () => {
    const { buildSidecarIndex } = await import('../../js/index-builder/index.js')
    const { settleMtimes } = await import('../../testkit/settled-mtimes.js')
    const root = path.join(dir, 'table')
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    const midnight = 1704153600000000n // 2024-01-02T00:00:00 in micros
    let truth = []
    await withDuckDB(async (connection) => {
      await connection.run(`COPY (SELECT DATE '2024-01-02' AS d, 3::INTEGER AS n) TO '${path.join(root, 'old.parquet')}' (FORMAT parquet)`)
      // The table reads d widened to TIMESTAMP and n to DOUBLE (text as the double it rounds to).
      const rows = await (await connection.run(`SELECT (d::TIMESTAMP = make_timestamp(${midnight}))::INTEGER AS a,
        (d::TIMESTAMP = TIMESTAMP '2024-01-02 10:00:00')::INTEGER AS b, (n::DOUBLE = '3.0000000000000001'::DOUBLE)::INTEGER AS c
        FROM '${path.join(root, 'old.parquet')}'`)).getRowObjects()
      truth = [rows[0].a, rows[0].b, rows[0].c].map(Number)
    })
    assert.deepEqual(truth, [1, 0, 1])
    await settleMtimes(path.join(root, 'old.parquet'))
    const size = (await import('node:fs')).statSync(path.join(root, 'old.parquet')).size
    const field = (name, type, from) => ({ name, type, nullable: true, metadata: from ? { 'delta.typeChanges': [{ fromType: from, toType: type }] } : {} })
    const meta = (fields) => ({ metaData: { id: 'w', format: { provider: 'parquet', options: {} },
      schemaString: JSON.stringify({ type: 'struct', fields }), partitionColumns: [], configuration: {} } })
    const commits = [
      [{ protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['typeWidening', 'timestampNtz'],
        writerFeatures: ['typeWidening', 'timestampNtz'] } }, meta([field('d', 'date'), field('n', 'integer')]),
      { add: { path: 'old.parquet', partitionValues: {}, size, modificationTime: 0, dataChange: true } }],
      [meta([field('d', 'timestamp_ntz', 'date'), field('n', 'double', 'integer')])],
    ]
    for (const [v, actions] of commits.entries()) {
      await writeFile(path.join(root, '_delta_log', `${pad(v)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    }
    const index = path.join(dir, 'table.puffin')
    await buildSidecarIndex(null, index, { table: root, columns: ['d', 'n'] })
    const table = await openTable(root, { index })
    const d = await table.probe('d', [midnight, '2024-01-02T10:00:00'])
    assert.deepEqual(d.files[0].values.map((v) => v.verdict), ['unknown', 'absent']) // the integer: unit-differs
    const n = await table.probe('n', ['3.0000000000000001', '3', '4'])
    assert.deepEqual(n.files[0].values.map((v) => v.verdict), ['unknown', 'maybe', 'absent'])
    // The index still answers, without opening the file, what every file reads as the table does.
    const four = await table.probe('n', ['4'])
    assert.deepEqual([four.files[0].values[0].verdict, four.stats.filesOpened], ['absent', 0])
    await table.close()
  })
})
