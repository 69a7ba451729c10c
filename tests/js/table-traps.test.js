// The pruning traps, one test each, on synthetic metadata built by hand from the specs: Iceberg
// bounds in the single-value serialization (spec Appendix D), bucket hashes (Appendix B vectors),
// partition transforms (spec "Partition Transforms"), Delta `stats` JSON as the protocol writes it.
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { valueKeys } from '../../js/table/column-keys.js'
import { deltaFacts, deltaPartitions, deltaType } from '../../js/table/delta.js'
import { icebergColumnFacts } from '../../js/table/iceberg.js'
import { applyTransform, bucketHash, icebergType, parseTransform, partitionText } from '../../js/table/iceberg-types.js'
import { loadTable } from '../../js/table/load-table.js'
import { openTable } from '../../js/index.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { TABLE_FIXTURES } from './helpers/table-truth.js'
import { pruneFile } from '../../js/table/prune.js'
import { TABLE_BOUND_RULES } from '../../js/indexes/table-bound-rules.js'
import { tempDir } from '../../testkit/temp-dir.js'

const utf8 = (s) => new TextEncoder().encode(s)
const le32 = (n) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, n, true); return b }
const le64 = (n) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, BigInt(n), true); return b }
const f32 = (x) => { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, x, true); return b }
const f64 = (x) => { const b = new Uint8Array(8); new DataView(b.buffer).setFloat64(0, x, true); return b }

/** A one-column Iceberg data file (manifest entry fields) and the pruning answers for values. */
function iceberg(type, entry, values, { writer = 'spark', truncate = 16 } = {}) {
  const field = { id: 1, name: 'c', type: icebergType(type) }
  const pairs = (m) => (m === undefined ? [] : [{ key: 1, value: m }])
  const dataFile = {
    lower_bounds: pairs(entry.lower), upper_bounds: pairs(entry.upper), null_value_counts: pairs(entry.nulls),
    value_counts: pairs(entry.count), nan_value_counts: pairs(entry.nans),
  }
  const file = { partitions: [], columnFacts: icebergColumnFacts(dataFile, [field], truncate, writer) }
  return pruneFile(file, field, valueKeys(field.type, values)).map((a) => a?.reason ?? null)
}

function delta(type, stats, values, prefixLength) {
  const fields = [{ id: 1, name: 'c', physicalName: 'c', physicalPath: ['c'], type: deltaType(type), topLevel: true }]
  const file = { partitions: [], columnFacts: deltaFacts(fields, new Set(), JSON.stringify(stats), 'delta', prefixLength) }
  return pruneFile(file, fields[0], valueKeys(fields[0].type, values)).map((a) => a?.reason ?? null)
}

describe('truncated string and binary bounds', () => {
  test('Iceberg truncate(16): an upper bound of 16 characters is a prefix — values starting with it are kept', () => {
    // lineitem_iceberg l_comment: lower " Tiresias above ", upper "zzle special rer" (truncated, incremented)
    const e = { lower: utf8(' Tiresias above '), upper: utf8('zzle special rer') }
    assert.deepEqual(iceberg('string', e, ['zzle special rerun', 'zzle special requests', 'zzz', ' Tiresias above all', ' Tiresias']), [null, null, 'out-of-range', null, 'out-of-range'])
  })

  test('order is by UTF-8 bytes, not UTF-16 units', () => {
    // U+1F600 is D83D DE00 in UTF-16 (below U+E000) but F0 9F 98 80 in UTF-8 (above EE 80 80).
    const e = { lower: utf8('\uE000'), upper: utf8('\u{1F600}') }
    assert.deepEqual(iceberg('string', e, ['\u{1F600}', '\uE001', 'a']), [null, null, 'out-of-range'])
  })

  test('UniForm copies Delta\'s truncated max into upper_bounds: a prefix whatever its length (writer rule)', () => {
    assert.ok(TABLE_BOUND_RULES.some((r) => r.id === 'uniform-truncated-max'))
    const e = { lower: utf8('abc'), upper: utf8('abc') }
    assert.deepEqual(iceberg('string', e, ['abcd'], { writer: 'delta-uniform' }), [null])
    assert.deepEqual(iceberg('string', e, ['abcd'], { writer: 'spark' }), ['out-of-range'])
  })

  test('Delta: a max of 32 characters and a tie-breaker is a prefix — even before 4-byte UTF-8 characters', () => {
    const prefix = '002 Mark Tunnel\nNew Robert, GU 4' // 32 characters, as table_with_deletion_logs shows
    const stats = { numRecords: 2, minValues: { c: '000' }, maxValues: { c: `${prefix}\uFFFF` }, nullCount: { c: 0 } }
    assert.deepEqual(delta('string', stats, [`${prefix}\u{1F600}`, `${prefix}zzz`, 'zzz', '001']), [null, null, 'out-of-range', null])
  })

  test('Delta with a shorter delta.dataSkippingStringPrefixLength: a max of that length is a prefix', () => {
    const stats = { numRecords: 1, minValues: { c: 'abcd' }, maxValues: { c: 'abcd' }, nullCount: { c: 0 } }
    assert.deepEqual(delta('string', stats, ['abcdz'], 4), [null])
    assert.deepEqual(delta('string', stats, ['abcdz']), ['out-of-range'])
  })

  test('binary bounds of the truncate length are prefixes too', () => {
    const e = { lower: Uint8Array.of(0), upper: new Uint8Array(16).fill(0x10) }
    assert.deepEqual(iceberg('binary', e, [new Uint8Array(20).fill(0x10), Uint8Array.of(0x11)]), [null, 'out-of-range'])
  })
})

describe('temporal bounds', () => {
  test('Delta timestamps are truncated to milliseconds: a microsecond value past the max millisecond is kept', () => {
    const stats = { numRecords: 1, minValues: { c: '2024-01-01T00:00:00.123Z' }, maxValues: { c: '2024-01-01T00:00:00.123Z' }, nullCount: { c: 0 } }
    assert.deepEqual(delta('timestamp', stats, ['2024-01-01T00:00:00.123456Z', '2024-01-01T00:00:00.122999Z', '2024-01-01T00:00:00.125Z']), [null, null, 'out-of-range'])
  })

  test('Delta timestamps before 1970 (truncation towards zero) keep the value', () => {
    const stats = { numRecords: 1, minValues: { c: '1970-01-01T00:00:00.000Z' }, maxValues: { c: '1970-01-01T00:00:00.000Z' }, nullCount: { c: 0 } }
    assert.deepEqual(delta('timestamp', stats, ['1969-12-31T23:59:59.9995Z']), [null])
  })

  test('Delta timestamp_ntz stats have no offset: read as written', () => {
    const stats = { numRecords: 1, minValues: { c: '2024-05-01T10:00:00.000' }, maxValues: { c: '2024-05-01T10:00:00.000' }, nullCount: { c: 0 } }
    assert.deepEqual(delta('timestamp_ntz', stats, ['2024-05-01T10:00:00', '2024-05-02T10:00:00']), [null, 'out-of-range'])
  })

  test('Iceberg timestamp (microseconds) and timestamp_ns (nanoseconds)', () => {
    const us = 1704067200000000n // 2024-01-01T00:00:00Z
    assert.deepEqual(iceberg('timestamptz', { lower: le64(us), upper: le64(us) }, ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000001Z']), [null, 'out-of-range'])
    const ns = us * 1000n + 1n
    assert.deepEqual(iceberg('timestamptz_ns', { lower: le64(ns), upper: le64(ns) }, ['2024-01-01T00:00:00.000000001Z', '2024-01-01T00:00:00.000000002Z']), [null, 'out-of-range'])
  })

  test('dates', () => {
    assert.deepEqual(iceberg('date', { lower: le32(19723), upper: le32(19723) }, ['2024-01-01', '2024-01-02']), [null, 'out-of-range'])
  })
})

describe('numbers, booleans, nulls', () => {
  test('missing bounds rule nothing out', () => {
    assert.deepEqual(iceberg('int', {}, [1, -5]), [null, null])
    assert.deepEqual(delta('integer', { numRecords: 3 }, [1]), [null])
  })

  test('NaN: only nan_value_counts = 0 rules it out; bounds never hold NaN', () => {
    const e = { lower: f64(1), upper: f64(2) }
    assert.deepEqual(iceberg('double', { ...e, nans: 0n }, [NaN, 1.5, 3]), ['no-nan', null, 'out-of-range'])
    assert.deepEqual(iceberg('double', { ...e, nans: 1n }, [NaN]), [null])
    assert.deepEqual(iceberg('double', e, [NaN]), [null])
  })

  test('-0.0 and +0.0 are one value for bounds', () => {
    assert.deepEqual(iceberg('double', { lower: f64(0), upper: f64(1) }, [-0]), [null])
    assert.deepEqual(iceberg('float', { lower: f32(-0), upper: f32(-0) }, [0]), [null])
  })

  test('a NaN bound (a writer bug) is not used', () => {
    assert.deepEqual(iceberg('double', { lower: f64(NaN), upper: f64(NaN) }, [5]), [null])
  })

  test('decimals compare by unscaled value (two\'s complement bytes)', () => {
    const e = { lower: Uint8Array.of(0xfe, 0x0c), upper: Uint8Array.of(0x04, 0xd2) } // -5.00 … 12.34
    assert.deepEqual(iceberg('decimal(10, 2)', e, ['12.34', '12.340', '12.35', '-5', '-5.01']), [null, null, 'out-of-range', null, 'out-of-range'])
    assert.deepEqual(delta('decimal(10,2)', { numRecords: 1, minValues: { c: 12.34 }, maxValues: { c: 12.34 }, nullCount: { c: 0 } }, ['12.34', '12.35']), [null, 'out-of-range'])
  })

  test('booleans', () => {
    assert.deepEqual(iceberg('boolean', { lower: Uint8Array.of(1), upper: Uint8Array.of(1) }, [true, false]), [null, 'out-of-range'])
  })

  test('all-null columns (null count = value count); probing null says nothing', () => {
    assert.deepEqual(iceberg('string', { nulls: 3n, count: 3n }, ['a', null]), ['all-null', null])
    assert.deepEqual(delta('string', { numRecords: 2, nullCount: { c: 2 } }, ['a']), ['all-null'])
    assert.deepEqual(delta('string', { numRecords: 2, nullCount: { c: 1 } }, ['a']), [null])
  })

  test('type promotion: an int bound (4 bytes) on a column now long', () => {
    assert.deepEqual(iceberg('long', { lower: le32(1), upper: le32(10) }, [5n, 11n, 2n ** 40n]), [null, 'out-of-range', 'out-of-range'])
    assert.deepEqual(iceberg('double', { lower: f32(1.5), upper: f32(2.5) }, [2, 3]), [null, 'out-of-range'])
  })

  test('UniForm double bounds may be a float\'s shortest decimal (a column widened from float): also that float (writer rule)', () => {
    assert.ok(TABLE_BOUND_RULES.some((r) => r.id === 'uniform-widened-float-bounds'))
    const e = { lower: f64(-0.3), upper: f64(3.4) } // Float.toString of -0.3f and 3.4f, read as doubles
    const values = [Math.fround(3.4), Math.fround(-0.3), 3.5, -0.31]
    assert.deepEqual(iceberg('double', e, values, { writer: 'delta-uniform' }), [null, null, 'out-of-range', 'out-of-range'])
    assert.deepEqual(iceberg('double', e, values, { writer: 'spark' }), ['out-of-range', 'out-of-range', 'out-of-range', 'out-of-range'])
  })

  test('a variant column\'s bounds are not used (writer rule)', () => {
    assert.ok(TABLE_BOUND_RULES.some((r) => r.id === 'iceberg-variant-upper-bound'))
    assert.deepEqual(iceberg('variant', { lower: utf8('a'), upper: utf8('b') }, [Uint8Array.of(0x7a)]), [null])
  })
})

describe('partition transforms', () => {
  test('bucket hashes: the spec\'s Appendix B vectors', () => {
    assert.equal(bucketHash({ kind: 'int' }, 34n), 2017239379)
    assert.equal(bucketHash({ kind: 'long' }, 34n), 2017239379)
    assert.equal(bucketHash({ kind: 'date' }, 17486n), -653330422)
    assert.equal(bucketHash({ kind: 'time' }, 81068000000n), -662762989)
    assert.equal(bucketHash({ kind: 'timestamp' }, 1510871468000000n), -2047944441)
    assert.equal(bucketHash({ kind: 'decimal' }, 1420n), -500754589)
    assert.equal(bucketHash({ kind: 'string' }, utf8('iceberg')), 1210000089)
    assert.equal(bucketHash({ kind: 'uuid' }, Uint8Array.from('f79c3e09677c4bbda4793f349cb785e7'.match(/../g).map((h) => parseInt(h, 16)))), 1488055340)
    assert.equal(bucketHash({ kind: 'binary' }, Uint8Array.of(0, 1, 2, 3)), -188683207)
  })

  test('a bucket partition keeps only the values hashing to it', () => {
    const field = { id: 1, name: 'id', type: { kind: 'int' } }
    const file = (bucket) => ({ partitions: [{ name: 'id_bucket', sourceId: 1, transform: parseTransform('bucket[16]'), key: BigInt(bucket), raw: bucket }], columnFacts: new Map() })
    // 2017239379 mod 16 = 3
    assert.deepEqual(pruneFile(file(3), field, valueKeys(field.type, [34])).map((a) => a?.reason ?? null), [null])
    assert.deepEqual(pruneFile(file(4), field, valueKeys(field.type, [34])).map((a) => a?.reason ?? null), ['partition-mismatch'])
  })

  test('truncate, year, month, day, hour (the spec\'s examples)', () => {
    const t = (name, type, key) => applyTransform(parseTransform(name), type, key)
    assert.equal(t('truncate[10]', { kind: 'int' }, 1n), 0n)
    assert.equal(t('truncate[10]', { kind: 'int' }, -1n), -10n)
    assert.equal(t('truncate[50]', { kind: 'decimal' }, 1065n), 1050n)
    assert.deepEqual(t('truncate[3]', { kind: 'string' }, utf8('iceberg')), utf8('ice'))
    assert.deepEqual(t('truncate[1]', { kind: 'string' }, utf8('\u{1F600}x')), utf8('\u{1F600}'))
    assert.equal(t('year', { kind: 'date' }, 17486n), 47n)
    assert.equal(t('month', { kind: 'date' }, 17486n), 574n)
    assert.equal(t('day', { kind: 'timestamp' }, 1510871468000000n), 17486n)
    assert.equal(t('hour', { kind: 'timestamp' }, 1510871468000000n), 419686n)
    assert.equal(t('day', { kind: 'timestamp' }, -1n), -1n)
    assert.equal(t('void', { kind: 'int' }, 1n), undefined)
  })

  test('a null partition value rules out every non-null value; void never rules out', () => {
    const field = { id: 1, name: 'd', type: { kind: 'date' } }
    const nullPart = { partitions: [{ name: 'd', sourceId: 1, transform: parseTransform('identity'), key: null, raw: null }], columnFacts: new Map() }
    assert.equal(pruneFile(nullPart, field, valueKeys(field.type, ['2022-01-01']))[0]?.reason, 'partition-mismatch')
    const voidPart = { partitions: [{ name: 'd', sourceId: 1, transform: parseTransform('void'), key: null, raw: null }], columnFacts: new Map() }
    assert.equal(pruneFile(voidPart, field, valueKeys(field.type, ['2022-01-01']))[0], null)
  })

  test('Delta partition values: typed strings, empty is null, offset-free timestamps are not used', () => {
    const fields = [
      { id: 1, name: 'n', physicalName: 'n', type: deltaType('integer'), topLevel: true },
      { id: 2, name: 's', physicalName: 's', type: deltaType('string'), topLevel: true },
      { id: 3, name: 't', physicalName: 't', type: deltaType('timestamp'), topLevel: true },
    ]
    const parts = deltaPartitions(fields, new Set(['n', 's', 't']), { n: '7', s: '', t: '2021-09-08 11:11:11' })
    const file = { partitions: parts, columnFacts: new Map() }
    assert.deepEqual(pruneFile(file, fields[0], valueKeys(fields[0].type, [7, 8])).map((a) => a?.reason ?? null), ['partition-match', 'partition-mismatch'])
    assert.equal(pruneFile(file, fields[1], valueKeys(fields[1].type, ['x']))[0]?.reason, 'partition-mismatch')
    assert.equal(pruneFile(file, fields[2], valueKeys(fields[2].type, ['2030-01-01T00:00:00Z']))[0], null)
  })
})

describe('Delta binary partition values', () => {
  test('as delta-rs writes them (\\u00XX per byte) and as the protocol shows them (a character per byte): never ruled out', async () => {
    const dir = await tempDir('delta-binary-partition')
    const key = Uint8Array.of(0x41, 0xff)
    // delta-rs (ScalarExt::serialize): each byte as the six characters \u00XX; PROTOCOL.md: "\u0001\u0002\u0003", a character per byte.
    const texts = { 'delta-rs': [...key].map((b) => `\\u${b.toString(16).toUpperCase().padStart(4, '0')}`).join(''), protocol: String.fromCharCode(...key) }
    for (const [writer, text] of Object.entries(texts)) {
      const root = path.join(dir, writer)
      await mkdir(path.join(root, '_delta_log'), { recursive: true })
      const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: Int32Array.of(1, 2), type: 'INT32' }] }))
      await writeFile(path.join(root, 'part-0.parquet'), bytes)
      const schema = { type: 'struct', fields: [{ name: 'x', type: 'integer', nullable: true, metadata: {} }, { name: 'b', type: 'binary', nullable: true, metadata: {} }] }
      const actions = [
        { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
        { metaData: { id: writer, format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: ['b'], configuration: {} } },
        { add: { path: 'part-0.parquet', partitionValues: { b: text }, size: bytes.length, modificationTime: 0, dataChange: true, stats: '{"numRecords":2}' } },
      ]
      await writeFile(path.join(root, '_delta_log', `${'0'.repeat(20)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
      const result = await (await openTable(root)).probe('b', [key])
      assert.notEqual(result.files[0].values[0].verdict, 'absent', `${writer}: every row of the file holds ${[...key]}`)
    }
  })
})

describe('Delta partition values under column mapping', () => {
  test('a null under the physical name is the value, though another column\'s physical name is the logical one', async () => {
    // Column mapping enabled on a table partitioned by a and b (physical names a, b), then a renamed x and b renamed a:
    // the logical column a is logged under b, and the key a is now x's. This file's a (key b) is null, its x (key a) is v.
    const root = path.join(await tempDir('delta-renamed-partitions'), 'table')
    await mkdir(path.join(root, '_delta_log'), { recursive: true })
    const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'c', data: Int32Array.of(1, 2), type: 'INT32' }] }))
    await writeFile(path.join(root, 'part-0.parquet'), bytes)
    const mapped = (name, id, physical, type) =>
      ({ name, type, nullable: true, metadata: { 'delta.columnMapping.id': id, 'delta.columnMapping.physicalName': physical } })
    const schema = { type: 'struct', fields: [mapped('x', 1, 'a', 'string'), mapped('a', 2, 'b', 'string'), mapped('c', 3, 'c', 'integer')] }
    const actions = [
      { protocol: { minReaderVersion: 2, minWriterVersion: 5 } },
      { metaData: { id: 'renamed', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(schema), partitionColumns: ['x', 'a'],
        configuration: { 'delta.columnMapping.mode': 'name', 'delta.columnMapping.maxColumnId': '3' } } },
      { add: { path: 'part-0.parquet', partitionValues: { a: 'v', b: null }, size: bytes.length, modificationTime: 0, dataChange: true,
        stats: '{"numRecords":2,"minValues":{"c":1},"maxValues":{"c":2},"nullCount":{"c":0}}' } },
    ]
    await writeFile(path.join(root, '_delta_log', `${'0'.repeat(20)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'))
    const table = await openTable(root)
    assert.deepEqual(table.files[0].partitions, { x: 'v', a: null })
    const nullA = await table.probe('c', [1], { where: { a: null }, confirm: true })
    assert.equal(nullA.files[0].values[0].verdict, 'present', 'both rows have a null a and c 1 is one of them')
    const aIsV = await table.probe('c', [1], { where: { a: 'v' }, confirm: true })
    assert.equal(aIsV.files[0]?.values[0].verdict ?? 'absent', 'absent', 'no row has a = v')
  })
})

describe('partition values as text (what `where` compares with)', () => {
  test('Iceberg writers name partition folders by the same text: every fixture file agrees with its path', { skip: missingFixture('tables/iceberg') }, async () => {
    let checked = 0
    for (const name of TABLE_FIXTURES.filter((n) => n.startsWith('iceberg/'))) {
      const table = await loadTable(fixturePath(`tables/${name}`))
      for (const file of table.files) {
        const folders = Object.fromEntries(file.path.split('/').slice(0, -1).filter((s) => s.includes('=')).map((s) => s.split('=')))
        for (const [key, value] of Object.entries(file.partitionValues)) {
          if (!(key in folders)) continue
          assert.equal(value, folders[key] === 'null' ? null : folders[key], `${name}: ${file.path}: ${key}`)
          checked++
        }
      }
    }
    assert.ok(checked >= 9)
  })

  test('transforms as Iceberg\'s human strings (the spec\'s example instant 2017-11-16T22:31:08)', () => {
    const t = (transform, raw, sourceType = { kind: 'timestamp' }) => partitionText(parseTransform(transform), sourceType, raw)
    assert.equal(t('year', 47), '2017')
    assert.equal(t('month', 574), '2017-11')
    assert.equal(t('day', 17486), '2017-11-16')
    assert.equal(t('hour', 419686), '2017-11-16-22')
    assert.equal(t('bucket[16]', 3), '3')
    assert.equal(t('identity', Uint8Array.of(0x04, 0xd2), { kind: 'decimal', scale: 2 }), '12.34')
    assert.equal(t('identity', Uint8Array.of(0xfe, 0x0c), { kind: 'decimal', scale: 2 }), '-5.00')
    assert.equal(t('identity', 17486, { kind: 'date' }), '2017-11-16')
    assert.equal(t('identity', null, { kind: 'date' }), null)
  })

  test('openTable: `where` on an Iceberg date partition keeps the file of that date', { skip: missingFixture('tables/iceberg/spark_rename_column') }, async () => {
    const table = await openTable(fixturePath('tables/iceberg/spark_rename_column'))
    const result = await table.probe('id', [1], { where: { date: '2022-01-01' } })
    const kept = result.files.filter((f) => f.values[0].reason !== 'outside-where').map((f) => f.path)
    assert.deepEqual(kept, ['data/id_bucket=0/date=2022-01-01/00000-20-b65939d1-96e1-4d30-a733-aa5264a479aa-00001.parquet'])
  })
})
