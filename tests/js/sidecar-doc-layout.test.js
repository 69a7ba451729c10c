// Sidecar indexes (formats 1 and 2) and a table index, decoded from their bytes by a reader written from the documents
// alone (tests/js/helpers/sidecar-doc-reader.js: Puffin, layouts, directory, files blob, details pages, identities, bit
// slices, CRCs), never through js/sidecar. Checked against independent truth: DuckDB's rows of the files (every value a
// row group holds is in the filter the reader decodes, the bounds are the rows' exact min/max) and the index's own
// probe, whose verdicts must be the ones the documented rules give from the decoded bytes.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { init } from '../../js/index.js'
import { buildSidecarIndex, mergeSidecarSegments, openSidecarIndex } from '../../js/index-builder/index.js'
import { writeSidecarFiles } from '../../js/index-builder/sidecar-build.js'
import { withDuckDB } from '../../testkit/duckdb.js'
import { writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { plainBytes, referenceFilter } from '../../testkit/reference-sbbf.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { missingFixture, readVectors } from './helpers/fixtures.js'
import { bitsetHas, crc32, crcText, legacyCrcText, readSidecarDoc, xxh64 } from './helpers/sidecar-doc-reader.js'
import { crc32Matches } from '../../js/sidecar/puffin.js'

const dir = await tempDir('sidecar-doc-layout')
const COLUMNS = ['i32', 'i64', 's', 'd', 'd38', 'ts', 'dt']
// DuckDB's physical values (as text) and the form the probe is given.
const PHYSICAL = { i32: 'i32::VARCHAR', i64: 'i64::VARCHAR', s: 's', d: '(d*10000)::BIGINT::VARCHAR',
  d38: '(d38*1000000)::HUGEINT::VARCHAR',
  ts: 'epoch_us(ts)::VARCHAR', dt: "(dt - DATE '1970-01-01')::VARCHAR" }
const PROBE_FORM = { i32: 'i32', i64: 'i64', s: 's', d: 'd::VARCHAR', d38: 'd38::VARCHAR', ts: 'epoch_us(ts)', dt: 'dt::VARCHAR' }
/** name -> { rows: row counts per row group, groups: per row group { column: Map(physical text -> probe value) } } */
const truth = new Map()
const paths = []

before(async () => {
  await init()
  await withDuckDB(async (c) => {
    for (let f = 0; f < 2; f++) {
      const p = path.join(dir, `duck-${f}.parquet`)
      await c.run(`COPY (SELECT (i*7+${f})::INTEGER AS i32, (i*1000003 + ${f}*17)::BIGINT AS i64, 'name-' || (i % 1500) || '-' || ${f} AS s,
        ((i*13) / 10000.0)::DECIMAL(18,4) AS d, ('-123456789012345.' || lpad(((i*31) % 1000000)::VARCHAR, 6, '0'))::DECIMAL(38,6) AS d38,
        TIMESTAMP '2024-01-01' + to_microseconds(i*1000003 + ${f}) AS ts, DATE '2020-01-01' + (i % 900)::INTEGER AS dt
        FROM range(${5000 + f * 1000}) t(i)) TO '${p}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`)
      paths.push(p)
    }
    const hw = path.join(dir, 'hw-0.parquet')
    await writeFile(hw, new Uint8Array(parquetWriteBuffer({ columnData: [
      { name: 'i64', data: Array.from({ length: 2500 }, (_, i) => BigInt(i * 1000003 + 5)), type: 'INT64' },
      { name: 's', data: Array.from({ length: 2500 }, (_, i) => `hw-${i % 700}`), type: 'STRING' },
    ], rowGroupSize: 1000 })))
    paths.push(hw)
    for (const p of paths) {
      const rows = (await c.runAndReadAll(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${p}') ORDER BY 1`))
        .getRows().map((r) => Number(r[1]))
      const names = (await c.runAndReadAll(`SELECT name FROM parquet_schema('${p}')`)).getRows().map((r) => r[0])
      const have = COLUMNS.filter((x) => names.includes(x))
      const starts = rows.map((_, g) => rows.slice(0, g).reduce((a, b) => a + b, 0))
      const groups = rows.map(() => Object.fromEntries(have.map((x) => [x, new Map()])))
      const read = await c.runAndReadAll(`SELECT file_row_number, ${have.map((x) => `${PHYSICAL[x]}, ${PROBE_FORM[x]}`).join(', ')}
        FROM read_parquet('${p}', file_row_number=true)`)
      for (const r of read.getRows()) {
        const g = starts.findLastIndex((s) => s <= Number(r[0]))
        have.forEach((x, i) => groups[g][x].set(r[1 + 2 * i], r[2 + 2 * i]))
      }
      truth.set(path.basename(p), { rows, groups })
    }
  })
  await settleMtimes(...paths)
})

/** The PLAIN bytes (BloomFilter.md) of a physical value given as text, for the column's type as the index records it. */
function physicalBytes(text, type) {
  switch (type.physicalType) {
    case 'INT32': return plainBytes(Number(text), 'INT32')
    case 'INT64': return plainBytes(BigInt(text), 'INT64')
    case 'BYTE_ARRAY': return plainBytes(text, 'BYTE_ARRAY')
    case 'FIXED_LEN_BYTE_ARRAY': { // DECIMAL: big-endian two's complement of the type's width
      let v = BigInt.asUintN(type.typeLength * 8, BigInt(text))
      const out = new Uint8Array(type.typeLength)
      for (let i = type.typeLength - 1; i >= 0; i--) { out[i] = Number(v & 0xffn); v >>= 8n }
      return out
    }
    default: throw new Error(type.physicalType)
  }
}
/** A bound in the directory's forms: JSON numbers for INT32, decimal text for INT64, lower-case hex of the bytes for byte orders. */
const boundForm = (text, type) => (type.physicalType === 'INT32' ? Number(text) : type.physicalType === 'INT64' ? text
  : Buffer.from(physicalBytes(text, type)).toString('hex'))
const compare = (a, b, type) => {
  if (type.physicalType === 'INT32' || type.physicalType === 'INT64') return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0
  return a < b ? -1 : a > b ? 1 : 0
}
const probeValue = (column, v) => (column === 'i64' || column === 'ts' ? BigInt(v) : column === 'i32' ? Number(v) : v)
/** Values stored nowhere: [physical value as text, the probe's value]. */
const ABSENT = { i32: (i) => [String(1e9 + i), 1e9 + i], i64: (i) => [String(9e15 + i), BigInt(9e15 + i)], s: (i) => [`zz-${i}`, `zz-${i}`],
  d: (i) => [String((1e8 + i) * 10000 + 5000), `${1e8 + i}.5`], ts: (i) => [String(4e15 + i), BigInt(4e15 + i)],
  dt: (i) => [String(Date.UTC(2090, 0, 1 + i) / 864e5), new Date(Date.UTC(2090, 0, 1 + i)).toISOString().slice(0, 10)] }

/** Decodes the index's bytes, checks them against DuckDB's rows and the index's probe; returns counts. */
async function checkIndex(indexPath) {
  const doc = readSidecarDoc(await readFile(indexPath))
  assert.deepEqual(doc.problems, [], `${indexPath}: the bytes differ from the documents`)
  let pairs = 0
  let bounded = 0
  for (const e of doc.files) {
    const t = truth.get(e.path)
    assert.ok(t, e.path)
    assert.match(e.validator, /^mtime:[\d.]+;ctime:[\d.]+$/)
    assert.deepEqual(e.rowGroups.map((g) => g.numRows), t.rows)
    assert.equal(e.numRows, t.rows.reduce((a, b) => a + b, 0))
    e.rowGroups.forEach((g, gi) => {
      for (const column of doc.columns) {
        const values = t.groups[gi][column]
        const chunk = g.chunks[column]
        if (!values) { assert.equal(chunk, undefined, `${e.path} ${column}`); continue }
        const type = chunk.type ?? e.columns[column]
        let min = null
        let max = null
        for (const text of values.keys()) {
          pairs++
          const where = `${e.path} row group ${gi} ${column} ${text}`
          assert.ok(bitsetHas(chunk.bitset, xxh64(physicalBytes(text, type))), `${where}: not in its filter`)
          const b = boundForm(text, type)
          if (min === null || compare(b, min, type) < 0) min = b
          if (max === null || compare(b, max, type) > 0) max = b
        }
        if (chunk.min !== null) {
          bounded++
          const where = `${e.path} row group ${gi} ${column}: bounds`
          assert.deepEqual([String(chunk.min), String(chunk.max)], [String(min), String(max)], where)
        }
      }
    })
  }
  // The index's probe answers what the decoded bytes say, and never `absent` for a value a row group holds.
  let compared = 0
  const index = await openSidecarIndex(indexPath)
  try {
    for (const column of doc.columns) {
      const pool = new Map()
      for (const { groups } of truth.values()) {
        for (const g of groups) for (const [k, v] of g[column] ?? []) if (pool.size < 60) pool.set(k, v)
      }
      const probed = [...pool.values()].map((v) => probeValue(column, v))
      const physical = [...pool.keys()]
      for (let i = 0; ABSENT[column] && i < 30; i++) {
        const [text, value] = ABSENT[column](i)
        physical.push(text)
        probed.push(value)
      }
      const { files } = await index.probe(column, probed, { validate: false })
      for (const answered of files) {
        const name = path.basename(answered.path)
        const e = doc.files.find((x) => x.path === name)
        answered.rowGroups.forEach((g, gi) => {
          const chunk = e.rowGroups[gi].chunks[column]
          g.results.forEach((r, k) => {
            const held = truth.get(name).groups[gi][column]?.has(physical[k])
            if (held) assert.notEqual(r.verdict, 'absent', `${name} row group ${gi} ${column} ${physical[k]}`)
            if (!chunk) return
            const type = chunk.type ?? e.columns[column]
            const b = boundForm(physical[k], type)
            const outside = chunk.min !== null && (compare(b, chunk.min, type) < 0 || compare(b, chunk.max, type) > 0)
            const documented = outside || !bitsetHas(chunk.bitset, xxh64(physicalBytes(physical[k], type))) ? 'absent' : 'maybe'
            assert.equal(r.verdict === 'absent' ? 'absent' : 'maybe', documented, `${name} row group ${gi} ${column} ${physical[k]}`)
            compared++
          })
        })
      }
    }
  } finally {
    await index.close()
  }
  return { doc, pairs, bounded, compared }
}

for (const [label, options] of [['format 1', { format: 1 }], ['format 2', {}], ['format 2, one segment per file', { segmentBytes: 4096 }],
  ['format 1, one region per file', { format: 1, segmentBytes: 4096 }]]) {
  test(`${label}: the bytes decode as documented; DuckDB's values are in their filters, bounds exact, probes as decoded`, async () => {
    const out = path.join(dir, `${label.replace(/\W+/g, '-')}.puffin`)
    await buildSidecarIndex(paths, out, { columns: COLUMNS, ...options })
    const { doc, pairs, bounded, compared } = await checkIndex(out)
    assert.equal(doc.format, options.format ?? 2)
    assert.equal(doc.files.length, 3)
    assert.ok(pairs > 30000, `${pairs}`)
    assert.ok(bounded >= 20, `${bounded}`) // DECIMAL orders record no bounds
    assert.ok(compared > 2000, `${compared}`)
  })
}

test('shards merged: each segment and the merged index decode as documented; the merge is the whole build', async () => {
  for (const format of [1, 2]) {
    const whole = path.join(dir, `whole-${format}.puffin`)
    await buildSidecarIndex(paths, whole, { columns: COLUMNS, format })
    const segments = []
    for (let index = 0; index < 2; index++) {
      const seg = path.join(dir, `seg-${format}-${index}.puffin`)
      await buildSidecarIndex(paths, seg, { columns: COLUMNS, format, shard: { index, count: 2 } })
      const { doc } = await checkIndex(seg)
      const mark = JSON.parse(doc.footer.properties['parquet-bloom.segment'])
      assert.deepEqual(Object.keys(mark), ['shard', 'count', 'files', 'positions'])
      assert.equal(mark.files, 3)
      assert.equal(mark.positions.length, doc.files.length)
      segments.push(seg)
    }
    const merged = path.join(dir, `merged-${format}.puffin`)
    await mergeSidecarSegments(segments, merged)
    assert.deepEqual(await readFile(merged), await readFile(whole))
    await checkIndex(merged)
  }
})

test('the reader is not vacuous: a changed byte of a CRC-covered blob is seen', async () => {
  for (const [format, types] of [[2, ['parquet-bloom-details-v2', 'parquet-bloom-path-hashes-v2', 'parquet-bloom-files-v2']],
    [1, ['parquet-bloom-directory-v1']]]) {
    const out = path.join(dir, `vacuous-${format}.puffin`)
    await buildSidecarIndex(paths, out, { columns: COLUMNS, format })
    const bytes = new Uint8Array(await readFile(out))
    const { footer } = readSidecarDoc(bytes)
    for (const type of types) {
      const b = footer.blobs.find((x) => x.type === type)
      const copy = bytes.slice()
      copy[b.offset + b.length - 2] ^= 1
      let problems
      try {
        problems = readSidecarDoc(copy).problems
      } catch (error) {
        problems = [String(error)] // JSON that no longer parses
      }
      assert.ok(problems.some((p) => /crc|page|hash|JSON/i.test(p)), `${type}: ${problems}`)
    }
  }
  assert.equal(crcText(0xf42af515), 'f42af515')
  assert.equal(legacyCrcText(0xf42af515), '-bd50aeb')
  assert.equal(legacyCrcText(0xff543211), '0-abcdef')
  // An index written before records the legacy form; readers still take it (and a wrong one in either form not).
  const data = new TextEncoder().encode('puffin')
  const crc = crc32(data)
  assert.ok(crc > 0x7fffffff, 'a CRC whose two forms differ')
  assert.ok(crc32Matches(crcText(crc), data) && crc32Matches(legacyCrcText(crc), data))
  assert.ok(!crc32Matches(crcText(crc ^ 1), data) && !crc32Matches(legacyCrcText(crc ^ 1), data) && !crc32Matches(String(crc), data))
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926) // the check value of CRC-32/ISO-HDLC
  // The reader's SBBF check and hash against published vectors (sbbf-vectors.json).
  const vectors = missingFixture('sbbf-vectors.json') ? null : readVectors()
  if (vectors) {
    assert.equal(xxh64(new TextEncoder().encode('Hello')), BigInt(vectors.xxh64_seed0.Hello))
    const loop = vectors.xxh64_seed0.looping_bytes.signed
    loop.forEach((h, i) => assert.equal(BigInt.asIntN(64, xxh64(Uint8Array.from({ length: i }, (_, k) => k))), BigInt(h)))
    const spark = Uint8Array.from(vectors.spark_fixture_32_bytes.bitset)
    for (let i = 0; i < 20; i++) assert.equal(bitsetHas(spark, xxh64(new TextEncoder().encode(`a${i}`))), i < 10, `a${i}`)
  }
})

test('synthetic entries: row-group counts over 255, unreadable chunks, widened filters, no validator, files blob versions 2 and 3',
  async () => {
    const I64 = { physicalType: 'INT64', typeLength: null, logicalType: null }
    const STR = { physicalType: 'BYTE_ARRAY', typeLength: null, logicalType: { type: 'STRING' } }
    const held = (f, g) => [BigInt(f * 100000 + g * 10), BigInt(f * 100000 + g * 10 + 1)]
    const groupsOf = (f) => (f === 2 ? 300 : f === 5 ? 255 : f === 7 ? 0 : 3)
    const unreadable = (f, g) => (f === 3 && g === 1) || (f === 2 && g === 299)
    const sizeOf = (f, g) => (f % 2 ? 64 : g === 0 ? 32 : 128) // even files: row group 0's filter is widened to 128
    const filters = new Map()
    function* entries(n) {
      for (let f = 0; f < n; f++) {
        const rowGroups = []
        for (let g = 0; g < groupsOf(f); g++) {
          const filter = referenceFilter(sizeOf(f, g), 'INT64')
          for (const v of held(f, g)) filter.insert(v)
          filters.set(`${f}/${g}`, filter.bytes())
          const [min, max] = held(f, g).map(String)
          const chunks = { id: unreadable(f, g) ? null : { bitset: filter.bytes(), min, max } }
          if (f % 3 === 0) {
            const sf = referenceFilter(32, 'BYTE_ARRAY')
            sf.insert(`s${f}-${g}`)
            const hex = Buffer.from(`s${f}-${g}`).toString('hex')
            chunks.s = { bitset: sf.bytes(), min: hex, max: hex }
          }
          rowGroups.push({ numRows: 2, chunks })
        }
        yield { path: `dir/part-${f}.parquet`, size: 1000 + f, validator: f === 4 ? null : `etag:"v${f}"`, numRows: 2 * groupsOf(f),
          columns: f % 3 === 0 ? { id: I64, s: STR } : { id: I64 }, rowGroups }
      }
    }
    for (const options of [{ format: 1 }, { format: 2 }, { format: 2, filesVersion: 2 }, { format: 2, segmentBytes: 512 }]) {
      const out = path.join(dir, `synthetic-${JSON.stringify(options).replace(/\W+/g, '')}.puffin`)
      await writeSidecarFiles(entries(70), out, { columns: ['id', 's'], ...options })
      const doc = readSidecarDoc(await readFile(out))
      assert.deepEqual(doc.problems, [], JSON.stringify(options))
      if (options.format === 2) {
        assert.equal(doc.filesVersion, options.filesVersion ?? 3)
        assert.equal(doc.layout.overflow, 2)
        assert.deepEqual(doc.layout.unreadable, [[0, 2, 299, 1], [0, 3, 1, 1]])
      }
      doc.files.forEach((e, f) => {
        assert.equal(e.path, `dir/part-${f}.parquet`)
        assert.equal(e.validator ?? null, f === 4 ? null : `etag:"v${f}"`)
        assert.equal(e.rowGroups.length, groupsOf(f))
        e.rowGroups.forEach((g, gi) => {
          if (unreadable(f, gi)) return assert.equal(g.chunks.id, null, `${f}/${gi}`)
          const original = filters.get(`${f}/${gi}`)
          const factor = g.chunks.id.bitset.length / original.length
          // widened by repeating each block: block b' of the wider filter is block floor(b' / factor)
          for (let b = 0; b < g.chunks.id.bitset.length / 32; b++) {
            const o = Math.floor(b / factor) * 32
            assert.deepEqual(g.chunks.id.bitset.subarray(b * 32, b * 32 + 32), original.subarray(o, o + 32), `${f}/${gi} block ${b}`)
          }
          assert.equal(Boolean(g.chunks.s), f % 3 === 0)
          if (g.chunks.s) assert.ok(bitsetHas(g.chunks.s.bitset, xxh64(plainBytes(`s${f}-${gi}`, 'BYTE_ARRAY'))))
        })
      })
    }
  })

test('a table index: its record and blobs as docs/table-index.md says, entries identified by the path under the root', async () => {
  const root = path.join(dir, 'table')
  const written = await writeIcebergTable(root, { files: 40, manifests: 4, rows: 64 })
  const out = path.join(dir, 'table.puffin')
  const built = await buildSidecarIndex(null, out, { table: root, columns: ['id'] })
  const doc = readSidecarDoc(await readFile(out))
  assert.deepEqual(doc.problems, [])
  assert.equal(doc.format, 2)
  for (const b of doc.footer.blobs) {
    assert.equal(String(b['snapshot-id']), built.table.snapshot)
    assert.deepEqual(b.fields, [1])
  }
  const blob = doc.footer.blobs.find((b) => b.type === 'parquet-bloom-table-snapshot-v1')
  assert.deepEqual(Object.keys(blob.properties).sort(), ['crc32', 'snapshot-id'])
  const record = doc.table
  assert.equal(record.format, 'parquet-bloom-table-snapshot')
  assert.equal(record.version, 2)
  assert.equal(record.snapshotId, built.table.snapshot)
  assert.equal(record.files.count, doc.files.length)
  const field = (k, i) => (Array.isArray(record.files.columns[k]) ? record.files.columns[k][i] : record.files.columns[k].all)
  const byPath = new Map(written.files.map((f) => [f.path, f]))
  let pairs = 0
  doc.files.forEach((e, i) => {
    assert.ok((record.files.prefix + record.files.paths[i]).endsWith(`/${e.path}`), e.path)
    assert.equal(field('size', i), e.size)
    assert.equal(field('validator', i), e.validator)
    const f = byPath.get(e.path)
    assert.ok(f, e.path)
    let row = 0
    for (const g of e.rowGroups) {
      for (const id of f.ids.slice(row, row + g.numRows)) {
        pairs++
        assert.ok(bitsetHas(g.chunks.id.bitset, xxh64(plainBytes(id, 'INT64'))), `${e.path} ${id}`)
      }
      row += g.numRows
    }
  })
  assert.equal(pairs, 40 * 64)
})
