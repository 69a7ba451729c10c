// Skipping Iceberg manifests by the manifest list's partition field summaries (spec "Manifest Lists",
// field_summary; bounds in Appendix D single-value serialization, encoded here by hand): a manifest is
// skipped only when its bounds rule every probed value out through the partition transform (bucket by
// the spec's Appendix B hash vectors; UTF-8 order for strings; string upper bounds as prefixes); any
// doubt keeps it. On the real partitioned fixture tables, probing each stored value alone (so that
// summaries can skip) never loses a live value and never makes a deleted one present.
import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, test } from 'node:test'

import { openTable } from '../../js/index.js'
import { loadTable } from '../../js/table/load-table.js'
import { valueKeys } from '../../js/table/column-keys.js'
import { manifestMayHoldValues, manifestMayMatchWhere } from '../../js/table/manifest-summaries.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { icebergTruth, probeForm, valuesOfTable } from './helpers/table-truth.js'
import { parquetWithIds, writeIcebergTable } from './helpers/iceberg-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

// Appendix D by hand: int/date 4 bytes little-endian, long 8, strings as UTF-8.
const int4 = (n) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, n, true); return b }
const long8 = (n) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, BigInt(n), true); return b }
const utf8 = (s) => new TextEncoder().encode(s)
const summary = (lower, upper, containsNull = false) => ({ contains_null: containsNull, contains_nan: null, lower_bound: lower, upper_bound: upper })

function holds(type, transform, bounds, values, { summaries, sourceId = 1, fieldId = 1 } = {}) {
  const specs = new Map([[0, [{ name: 'p', transform, 'source-id': sourceId, 'field-id': 1000 }]]])
  const field = { id: fieldId, name: 'c', type }
  return manifestMayHoldValues({ specId: 0, summaries: summaries === undefined ? [bounds] : summaries }, specs, field, valueKeys(type, values))
}

describe('manifest partition summaries against probed values', () => {
  test('identity: bounds of the field\'s type rule values out; a 4-byte bound of a column promoted to long still reads', () => {
    const long = { kind: 'long' }
    assert.equal(holds(long, 'identity', summary(long8(10), long8(20)), [15n]), true)
    assert.equal(holds(long, 'identity', summary(long8(10), long8(20)), [9n]), false)
    assert.equal(holds(long, 'identity', summary(long8(10), long8(20)), [21n, 9n]), false)
    assert.equal(holds(long, 'identity', summary(long8(10), long8(20)), [21n, 10n]), true)
    assert.equal(holds(long, 'identity', summary(int4(10), int4(20)), [25n]), false)
    assert.equal(holds(long, 'identity', summary(int4(10), int4(20)), [20n]), true)
  })

  test('strings: compared by UTF-8 bytes, and an upper bound is a prefix (it may be cut)', () => {
    const string = { kind: 'string' }
    assert.equal(holds(string, 'identity', summary(utf8('abb'), utf8('abc')), ['abcz']), true) // starts with the upper bound
    assert.equal(holds(string, 'identity', summary(utf8('abb'), utf8('abc')), ['abd']), false)
    assert.equal(holds(string, 'identity', summary(utf8('abb'), utf8('abc')), ['ab']), false)
    // U+FFFD sorts after U+1F600 in UTF-16 units but before it in UTF-8 bytes: inside [a, 😀].
    assert.equal(holds(string, 'identity', summary(utf8('a'), utf8('😀')), ['\uFFFD']), true)
    assert.equal(holds(string, 'truncate[4]', summary(utf8('iceb'), utf8('iceb')), ['iceberg']), true)
    assert.equal(holds(string, 'truncate[4]', summary(utf8('icea'), utf8('icea')), ['iceberg']), false)
  })

  test('bucket by the spec\'s Appendix B hashes: 34 hashes to 2017239379 (bucket 3 of 16), "iceberg" to 1210000089 (bucket 9)', () => {
    assert.equal(holds({ kind: 'long' }, 'bucket[16]', summary(int4(3), int4(3)), [34n]), true)
    assert.equal(holds({ kind: 'long' }, 'bucket[16]', summary(int4(0), int4(2)), [34n]), false)
    assert.equal(holds({ kind: 'int' }, 'bucket[16]', summary(int4(4), int4(15)), [34]), false)
    assert.equal(holds({ kind: 'string' }, 'bucket[16]', summary(int4(9), int4(9)), ['iceberg']), true)
    assert.equal(holds({ kind: 'string' }, 'bucket[16]', summary(int4(0), int4(8)), ['iceberg']), false)
    // Nanoseconds hash as microseconds: 2017-11-16T22:31:08.000001001 to -1207196810 (bucket 6 of 16).
    assert.equal(holds({ kind: 'timestamp_ns' }, 'bucket[16]', summary(int4(6), int4(6)), ['2017-11-16T22:31:08.000001001']), true)
    assert.equal(holds({ kind: 'timestamp_ns' }, 'bucket[16]', summary(int4(7), int4(15)), ['2017-11-16T22:31:08.000001001']), false)
    // 2017-11-16T14:31:08-08:00 to -2047944441 (bucket 7 of 16).
    assert.equal(holds({ kind: 'timestamptz_ns' }, 'bucket[16]', summary(int4(0), int4(6)), ['2017-11-16T14:31:08-08:00']), false)
    assert.equal(holds({ kind: 'timestamptz_ns' }, 'bucket[16]', summary(int4(7), int4(7)), ['2017-11-16T14:31:08-08:00']), true)
  })

  test('temporal transforms: day of a timestamp, month of a date', () => {
    const ts = { kind: 'timestamp' }
    // 2026-01-07 is day 20460 since 1970-01-01; March 2026 is month 674.
    assert.equal(holds(ts, 'day', summary(int4(20460), int4(20460)), ['2026-01-07T10:00:00']), true)
    assert.equal(holds(ts, 'day', summary(int4(20454), int4(20459)), ['2026-01-07T10:00:00']), false)
    assert.equal(holds({ kind: 'date' }, 'month', summary(int4(674), int4(674)), ['2026-03-15']), true)
    assert.equal(holds({ kind: 'date' }, 'month', summary(int4(675), int4(680)), ['2026-03-15']), false)
    assert.equal(holds({ kind: 'date' }, 'year', summary(int4(56), int4(56)), ['2026-03-15']), true)
    assert.equal(holds({ kind: 'date' }, 'year', summary(int4(50), int4(55)), ['2026-03-15']), false)
  })

  test('doubt keeps the manifest: no summaries, summaries that do not fit the spec, no bounds, transforms not computed, NaN and null, other columns', () => {
    const long = { kind: 'long' }
    const out = summary(long8(10), long8(20))
    assert.equal(holds(long, 'identity', null, [99n], { summaries: null }), true)
    assert.equal(holds(long, 'identity', null, [99n], { summaries: [out, out] }), true)
    assert.equal(holds(long, 'identity', summary(null, null, true), [99n]), true)
    assert.equal(holds(long, 'identity', summary(long8(10), null), [99n]), true)
    assert.equal(holds(long, 'zorder', out, [99n]), true)
    assert.equal(holds(long, 'void', out, [99n]), true)
    assert.equal(holds({ kind: 'float' }, 'bucket[16]', summary(int4(0), int4(0)), [1.5]), true) // no bucket of a float
    assert.equal(holds({ kind: 'double' }, 'identity', summary(new Uint8Array(8), new Uint8Array(8)), [NaN]), true)
    assert.equal(holds(long, 'identity', out, [null]), true)
    assert.equal(holds(long, 'identity', out, [99n], { sourceId: 2 }), true)
    assert.equal(holds(long, 'identity', summary(new Uint8Array(3), long8(20)), [99n]), true) // a bound of no width the type has
  })

  test('where: integer partitions (identity of int/long, bucket) by their bounds and contains_null; anything else keeps', () => {
    const specs = new Map([[0, [{ name: 'b', transform: 'bucket[16]', 'source-id': 1, 'field-id': 1000 }, { name: 'd', transform: 'identity', 'source-id': 2, 'field-id': 1001 }]]])
    const fields = new Map([[1, { type: { kind: 'long' } }], [2, { type: { kind: 'date' } }]])
    const manifest = { specId: 0, summaries: [summary(int4(0), int4(2)), summary(int4(20454), int4(20454))] }
    const may = (where) => manifestMayMatchWhere(manifest, specs, fields, where)
    assert.equal(may({ b: 3 }), false)
    assert.equal(may({ b: '3' }), false)
    assert.equal(may({ b: 3n }), false)
    assert.equal(may({ b: [3, 1] }), true)
    assert.equal(may({ b: 2 }), true)
    assert.equal(may({ b: 2.5 }), true) // not an integer: not decided here
    assert.equal(may({ b: null }), false) // contains_null is false
    assert.equal(may({ d: '2030-01-01' }), true) // dates: not decided here
    assert.equal(may({ other: 1 }), true)
    assert.equal(manifestMayMatchWhere({ specId: 0, summaries: [summary(int4(0), int4(2), true), summary(null, null)] }, specs, fields, { b: null }), true)
  })
})

const PARTITIONED = ['iceberg/mytable_partitioned_eqdeletes', 'iceberg/spark_rename_column']

describe('manifest skipping on real partitioned tables keeps every stored value', () => {
  for (const name of PARTITIONED) {
    test(name, { skip: missingFixture(`tables/${name}`) }, async (t) => {
      const location = fixturePath(`tables/${name}`)
      const loaded = await loadTable(location) // every manifest: the files and their values, read with hyparquet
      // Every value a file holds: the summaries of the manifest listing it never rule it out.
      for (const { file, columns } of await valuesOfTable(loaded)) {
        const manifest = loaded.manifests[file.manifest]
        for (const field of loaded.fields) {
          const values = (columns.get(field.name) ?? []).map((v) => probeForm(field, v))
          if (!values.length) continue
          let keyed
          try { keyed = valueKeys(field.type, values) } catch { continue }
          keyed.forEach((slot, k) => assert.ok(manifestMayHoldValues(manifest, loaded.specs, field, [slot]), `${name}: ${file.path} holds ${field.name} = ${String(values[k])}, its manifest was skipped`))
        }
      }
      // Each stored value probed alone through openTable, with and without confirm.
      const { live, held } = await icebergTruth(loaded)
      const table = await openTable(location)
      let probes = 0
      let skipped = 0
      for (const field of loaded.fields) {
        for (const [id, value] of held.get(field.name) ?? []) {
          const isLive = live.get(field.name)?.has(id) ?? false
          for (const confirm of [false, true]) {
            const result = await table.probe(field.name, [probeForm(field, value)], { confirm })
            probes++
            skipped += result.manifests?.skipped ?? 0
            const verdicts = result.files.map((f) => f.values[0].verdict)
            if (isLive) assert.ok(verdicts.some((v) => v !== 'absent'), `${name}: ${field.name} = ${String(value)} is live, every listed file says absent (confirm ${confirm}; ${result.manifests?.read} manifests read)`)
            else if (confirm) assert.ok(!verdicts.includes('present'), `${name}: ${field.name} = ${String(value)} is only in deleted rows`)
          }
        }
      }
      t.diagnostic(`${name}: ${probes} single-value probes, ${skipped} manifests skipped in all (of ${loaded.manifests.length} per probe)`)
      if (name === 'iceberg/mytable_partitioned_eqdeletes') {
        assert.ok(skipped > 0, 'identity partitions on name: summaries skip manifests')
        // name = 'a': only the data manifest whose summary spans a–d; the delete manifests hold f, c and b only.
        const a = await table.probe('name', ['a'])
        assert.deepEqual([a.manifests?.read, a.manifests?.skipped], [1, 4])
      }
    })
  }
})

describe('where on a real table\'s bucket partition skips manifests by their summaries', () => {
  test('iceberg/spark_rename_column (bucket[4] of id: its one manifest spans buckets 0–3)', { skip: missingFixture('tables/iceberg/spark_rename_column') }, async () => {
    const location = fixturePath('tables/iceberg/spark_rename_column')
    const loaded = await loadTable(location)
    const buckets = loaded.files.map((f) => Number(f.partitions.find((p) => p.name === 'id_bucket').raw))
    const table = await openTable(location)
    // A bucket no file has and outside the summary's bounds: the manifest is not read.
    const outside = await table.probe('id', [1], { where: { id_bucket: 7 } })
    assert.deepEqual([outside.manifests?.read, outside.files.length], [0, 0])
    // A bucket some file has: the manifest is read, and `where` keeps exactly the files of that bucket.
    const wanted = buckets[0]
    const inside = await table.probe('id', [1], { where: { id_bucket: String(wanted) } })
    assert.equal(inside.manifests?.read, 1)
    assert.deepEqual(inside.files.filter((f) => f.skipped !== 'where').map((f) => f.path).sort(),
      loaded.files.filter((_, i) => buckets[i] === wanted).map((f) => f.path).sort())
    await assert.rejects(table.probe('id', [1], { where: { nope: 1 } }), (e) => e.code === 'INVALID_ARGUMENT')
  })
})

describe('a manifest\'s partition tuples are read with the spec that wrote them, or not at all', async () => {
  const dir = await tempDir('manifest-specs')
  // Written with spec 1 (region void, identity city): its one file's tuple is (null, paris); its rows' region is eu.
  const specs = [{ id: 0, fields: [{ name: 'region', transform: 'identity', sourceId: 2, avro: 'string' }] },
    { id: 1, fields: [{ name: 'region', transform: 'void', sourceId: 2, avro: 'string' },
      { name: 'city', transform: 'identity', sourceId: 3, avro: 'string' }] }]
  const write = async (name, edit, listedSpecId = undefined) => {
    const root = path.join(dir, name)
    await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'region', type: 'string' },
      { id: 3, name: 'city', type: 'string' }], specs,
    files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [1] },
      { id: 2, name: 'region', type: 'string', data: ['eu'] }, { id: 3, name: 'city', type: 'string', data: ['paris'] }]) },
    manifests: [{ specId: 1, meta: { 'partition-spec-id': '1' }, listedSpecId,
      entries: [{ file: { file_path: 'data/f.parquet', record_count: 1, partition: { region: null, city: 'paris' } } }] }], ...edit })
    return root
  }

  test('a manifest list naming another spec than the manifest\'s own: MALFORMED_TABLE, not the other spec\'s reading', async () => {
    // Spec 0 gets as many fields as spec 1, so only the ids tell them apart.
    const root = await write('list-says-0', { editMetadata: (metadata) => {
      metadata['partition-specs'][0].fields.push({ name: 'city0', transform: 'identity', 'source-id': 3, 'field-id': 1002 })
    } }, 0)
    const table = await openTable(root)
    // Read as spec 0, the tuple's null would be identity(region)'s: every row's region null, eu absent.
    await assert.rejects(table.probe('region', ['eu']), { code: 'MALFORMED_TABLE', message: /written with partition spec 1/ })
    await table.close()
  })

  test('a tuple of another length than the spec\'s fields: MALFORMED_TABLE, not a missing value read as null', async () => {
    const root = await write('short-spec', { editMetadata: (metadata) => {
      metadata['partition-specs'][1].fields = [{ name: 'region', transform: 'identity', 'source-id': 2, 'field-id': 1000 }]
    } })
    const table = await openTable(root)
    await assert.rejects(table.probe('region', ['eu']), { code: 'MALFORMED_TABLE', message: /partition has 2 values/ })
    await table.close()
  })

  test('where on a field a spec made void keeps that spec\'s files: their null says nothing of their rows', async () => {
    // Beside the spec-1 file (region void, rows eu), a spec-0 file of region us.
    const root = path.join(dir, 'void-where')
    await writeIcebergTable(root, { schema: [{ id: 1, name: 'id', type: 'int' }, { id: 2, name: 'region', type: 'string' },
      { id: 3, name: 'city', type: 'string' }], specs,
    files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [1] },
      { id: 2, name: 'region', type: 'string', data: ['eu'] }, { id: 3, name: 'city', type: 'string', data: ['paris'] }]),
    'data/us.parquet': parquetWithIds([{ id: 1, name: 'id', type: 'int', data: [1] },
      { id: 2, name: 'region', type: 'string', data: ['us'] }, { id: 3, name: 'city', type: 'string', data: ['nyc'] }]) },
    manifests: [
      { specId: 1, entries: [{ file: { file_path: 'data/f.parquet', record_count: 1, partition: { region: null, city: 'paris' } } }] },
      { specId: 0, entries: [{ file: { file_path: 'data/us.parquet', record_count: 1, partition: { region: 'us' } } }] }] })
    const table = await openTable(root)
    const result = await table.probe('id', [1], { where: { region: 'eu' } })
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, `${f.values[0].verdict}:${f.values[0].reason}`]))
    // The void null read as the file's region: outside `where`, absent for the row of region eu it holds.
    assert.notEqual(byPath['data/f.parquet'], 'absent:outside-where')
    assert.equal(byPath['data/us.parquet'], 'absent:outside-where')
    await table.close()
  })

  test('the spec that wrote it: its file is kept for its region, ruled out by its city', async () => {
    const table = await openTable(await write('right'))
    const region = await table.probe('region', ['eu'])
    assert.notEqual(region.files[0].values[0].verdict, 'absent')
    const city = await table.probe('city', ['rome'])
    assert.equal(city.files[0].values[0].source, 'table-partition')
    await table.close()
  })
})

test('a v3 partition field of a multi-argument transform (source-ids) is derived from no one column, whatever source-id says', async () => {
  const root = path.join(await tempDir('manifest-source-ids'), 't')
  // bucket[4] over (a, b): its value is not bucket[4] of a. Read as a's, a = 1 (bucket 0 of 4 alone) was ruled out by
  // the file's bucket 3.
  await writeIcebergTable(root, { schema: [{ id: 1, name: 'a', type: 'int' }, { id: 2, name: 'b', type: 'int' }],
    spec: [{ name: 'ab_bucket', transform: 'bucket[4]', sourceId: 1, avro: 'int' }],
    files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'a', type: 'int', data: [1] },
      { id: 2, name: 'b', type: 'int', data: [2] }]) },
    manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 1, partition: { ab_bucket: 3 } } }] }],
    editMetadata: (metadata) => { metadata['partition-specs'][0].fields[0]['source-ids'] = [1, 2] } })
  const table = await openTable(root)
  const result = await table.probe('a', [1])
  assert.notEqual(result.files[0]?.values[0].verdict ?? 'absent', 'absent')
  await table.close()
})

test('truncate of an int or long: also Iceberg Java\'s partition value, computed in the column\'s width (it wraps)', async () => {
  // TruncateUtil.truncateInt: v - (((v % W) + W) % W) in int. -2147483648 by 10: -2147483650 wraps to 2147483646; 1500000000 by
  // 2000000000: (v % W) + W = 3500000000 wraps to -794967296, and v minus it to -2000000000. Each file holds its value and
  // carries Java's partition; the other file of each table carries another partition and is ruled out (by the manifest
  // list's partition summaries, and without them by the file's partition).
  const javaInt = [[-2147483648, 10, 2147483646], [1500000000, 2000000000, -2000000000]]
  const bounds = (n) => [summary(Buffer.from(int4(n)), Buffer.from(int4(n)))]
  for (const [type, avro] of [['int', 'int'], ['long', 'long']]) { // long: a file written before int was promoted to long
    for (const [[v, w, java], summarized] of javaInt.flatMap((c) => [[c, true], [c, false]])) {
      const root = path.join(await tempDir('manifest-truncate-java'), 't')
      const file = parquetWithIds([{ id: 1, name: 'c', type, data: [type === 'long' ? BigInt(v) : v] }])
      const entry = (name, c) => ({ file: { file_path: `data/${name}.parquet`, record_count: 1, partition: { c_trunc: c } } })
      await writeIcebergTable(root, { schema: [{ id: 1, name: 'c', type }],
        spec: [{ name: 'c_trunc', transform: `truncate[${w}]`, sourceId: 1, avro }],
        files: { 'data/java.parquet': file, 'data/other.parquet': file },
        manifests: [
          { summaries: summarized ? bounds(java) : null, entries: [entry('java', java)] },
          { summaries: summarized ? bounds(5) : null, entries: [entry('other', 5)] },
        ] })
      const table = await openTable(root)
      const result = await table.probe('c', [v])
      const verdicts = Object.fromEntries(result.files.map((f) => [path.basename(f.path), f.values[0].verdict]))
      assert.notEqual(verdicts['java.parquet'] ?? 'absent', 'absent', `${type} ${v} truncate[${w}], summaries: ${summarized}`)
      assert.equal(verdicts['other.parquet'] ?? 'absent', 'absent')
      await table.close()
    }
  }
})

test('a null partition rules a file out only through a transform known to map only null to null; names in any case', async () => {
  // Iceberg Java's Transforms.fromString ignores case ('VOID' is void: always null); a transform it does not know
  // (UnknownTransform) rules nothing out. Each file holds c = 34 and has a null partition: read as "every c is null",
  // it was answered absent. 'Bucket[16]' is bucket[16]: 34 is in bucket 3 (Appendix B: 2017239379 % 16), not 4.
  const root = path.join(await tempDir('manifest-transform-case'), 't')
  const cases = [['VOID', null], ['Void', null], ['zorder', null], ['Bucket[16]', 3], ['Bucket[16]', 4]]
  for (const [k, [transform, partition]] of cases.entries()) {
    const dir = path.join(root, String(k))
    await writeIcebergTable(dir, { schema: [{ id: 1, name: 'c', type: 'long' }],
      spec: [{ name: 'p', transform, sourceId: 1, avro: 'int' }],
      files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'c', type: 'long', data: [34n] }]) },
      manifests: [{ entries: [{ file: { file_path: 'data/f.parquet', record_count: 1, partition: { p: partition } } }] }] })
    const table = await openTable(dir)
    const verdict = (await table.probe('c', [34n])).files[0]?.values[0].verdict ?? 'absent'
    if (partition === 4) assert.equal(verdict, 'absent', transform)
    else assert.notEqual(verdict, 'absent', `${transform}, partition ${partition}`)
    await table.close()
  }
})

/** Murmur3 x86 32-bit, seed 0, of a long's 8 little-endian bytes (spec Appendix B), written here from the algorithm. */
function murmurLong(n) {
  const mul = (a, b) => Number((BigInt(a) * BigInt(b)) & 0xffffffffn)
  const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0
  const bytes = Buffer.alloc(8)
  bytes.writeBigInt64LE(BigInt(n))
  let h = 0
  for (let i = 0; i < 8; i += 4) {
    const k = mul(rotl(mul(bytes.readUInt32LE(i), 0xcc9e2d51), 15), 0x1b873593)
    h = (mul(rotl((h ^ k) >>> 0, 13), 5) + 0xe6546b64) >>> 0
  }
  h = (h ^ 8) >>> 0
  h = mul(h ^ (h >>> 16), 0x85ebca6b); h = mul(h ^ (h >>> 13), 0xc2b2ae35); h = (h ^ (h >>> 16)) >>> 0
  return h | 0
}

test('bucket of a nanosecond timestamp: its microseconds, floored (Java) or toward zero (iceberg-rust) before 1970', async () => {
  assert.equal(murmurLong(34), 2017239379) // Appendix B's vectors
  assert.equal(murmurLong(1510871468000001n), -1207196810) // 2017-11-16T22:31:08.000001
  const bucket = (micros) => (murmurLong(micros) & 0x7fffffff) % 16
  // 2017-11-16T22:31:08.000001001 is bucket 6 of 16; 1969-12-31T23:59:59.999999999 (-1 ns) is the bucket of -1 µs (Java's
  // nanosToMicros floors) or of 0 µs (iceberg-rust's v / 1000).
  const cases = [[1510871468000001001n, bucket(1510871468000001n), true], [1510871468000001001n, 5, false],
    [-1n, bucket(-1), true], [-1n, bucket(0), true],
    // v3 promotes date to timestamp_ns: midnight 2017-11-16 may be in its date's bucket (Appendix B: -653330422, bucket 10).
    [1510790400000000000n, 10, true]]
  assert.notEqual(bucket(-1), bucket(0))
  assert.notEqual(bucket(1510790400000000n), 10)
  const root = path.join(await tempDir('manifest-bucket-ns'), 't')
  for (const [k, [nanos, partition, holds]] of cases.entries()) {
    const dir = path.join(root, String(k))
    await writeIcebergTable(dir, { schema: [{ id: 1, name: 'c', type: 'timestamp_ns' }],
      spec: [{ name: 'p', transform: 'bucket[16]', sourceId: 1, avro: 'int' }],
      files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'c', type: 'timestamp_ns', data: [nanos] }]) },
      manifests: [{ summaries: [summary(Buffer.from(int4(partition)), Buffer.from(int4(partition)))],
        entries: [{ file: { file_path: 'data/f.parquet', record_count: 1, partition: { p: partition } } }] }] })
    const table = await openTable(dir)
    const verdict = (await table.probe('c', [nanos])).files[0]?.values[0].verdict ?? 'absent'
    if (holds) assert.notEqual(verdict, 'absent', `${nanos} in bucket ${partition}`)
    else assert.equal(verdict, 'absent', `${nanos} in bucket ${partition}`)
    await table.close()
  }
})

test('day of a timestamp before 1970 in the last second before a midnight: also iceberg-rust\'s day, one later', async () => {
  // 1969-12-30T23:59:59.5 is day -2 (spec); iceberg-rust's Day transform (seconds toward zero, plus the fraction of the
  // next tick; chrono's whole seconds and days toward zero) writes -1. Day -3 holds neither.
  const cases = [['timestamp', -86_400_500_000n], ['timestamp_ns', -86_400_500_000_000n]]
  const root = path.join(await tempDir('manifest-day-rust'), 't')
  for (const [type, value] of cases) {
    for (const [partition, holds] of [[-2, true], [-1, true], [-3, false]]) {
      const dir = path.join(root, `${type}${partition}`)
      await writeIcebergTable(dir, { schema: [{ id: 1, name: 'c', type }],
        spec: [{ name: 'p', transform: 'day', sourceId: 1, avro: 'int' }],
        files: { 'data/f.parquet': parquetWithIds([{ id: 1, name: 'c', type, data: [value] }]) },
        manifests: [{ summaries: [summary(Buffer.from(int4(partition)), Buffer.from(int4(partition)))],
          entries: [{ file: { file_path: 'data/f.parquet', record_count: 1, partition: { p: partition } } }] }] })
      const table = await openTable(dir)
      const verdict = (await table.probe('c', ['1969-12-30T23:59:59.5'])).files[0]?.values[0].verdict ?? 'absent'
      if (holds) assert.notEqual(verdict, 'absent', `${type} in day ${partition}`)
      else assert.equal(verdict, 'absent', `${type} in day ${partition}`)
      await table.close()
    }
  }
})
