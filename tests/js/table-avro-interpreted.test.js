// js/table/avro-interpreted.js (the schema-walking Avro decoder for runtimes without run-time code
// generation) held to avsc, an independent decoder (js/table/avro.js's path in Node): every Avro file
// of the table fixtures (Spark, Iceberg Java, Athena/Trino manifests and manifest lists), the manifests
// testkit/iceberg-writer.js writes, and files avsc writes with every Avro type, both codecs,
// named references across namespaces, a recursive type and blocks of negative counts. Each must decode to
// the same records, value for value and type for type. Damaged and hostile files (every truncation, bad
// sync markers, byte flips, counts and lengths past the file) are MALFORMED_TABLE, promptly.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import avsc from 'avsc'

import { readAvroFile } from '../../js/table/avro.js'
import { readAvroFileInterpreted } from '../../js/table/avro-interpreted.js'
import { bigLong } from './helpers/avsc-big-long.js'
import { fixturePath, missingFixture } from './helpers/fixtures.js'
import { writeIcebergTable } from '../../testkit/iceberg-writer.js'
import { tempDir } from '../../testkit/temp-dir.js'

/**
 * Values made comparable across the two decoders with their JS types kept (bigint vs number, string,
 * boolean, null): avsc's Buffers and record classes become Uint8Arrays and plain objects. The
 * interpreted decoder must already give Uint8Arrays and plain objects; `strict` checks that.
 */
function comparable(value, strict, where = '') {
  if (value instanceof Uint8Array) {
    if (strict) assert.equal(Object.getPrototypeOf(value), Uint8Array.prototype, `${where}: a plain Uint8Array`)
    return new Uint8Array(value)
  }
  if (Array.isArray(value)) return value.map((v, i) => comparable(v, strict, `${where}[${i}]`))
  if (value && typeof value === 'object') {
    if (strict) assert.equal(Object.getPrototypeOf(value), Object.prototype, `${where}: a plain object`)
    const out = {}
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: comparable(v, strict, `${where}.${k}`), enumerable: true })
    return out
  }
  return value
}

async function bothAgree(bytes, name) {
  const bySchema = await readAvroFileInterpreted(bytes, name)
  const byAvsc = await readAvroFile(bytes, name)
  assert.deepStrictEqual(comparable(bySchema.records, true, name), comparable(byAvsc.records, false), `${name}: the records avsc reads`)
  assert.deepStrictEqual(bySchema.meta, byAvsc.meta, `${name}: the metadata avsc reads`)
  return bySchema
}

/** The outcome of a decoder: its records made comparable, or the code of what it threw. */
async function outcome(read, bytes) {
  try {
    return { records: comparable((await read(bytes, 'x.avro')).records, false) }
  } catch (err) {
    return { code: err.code ?? `untyped ${err.name}: ${err.message}`, message: err.message }
  }
}

function avroFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.avro'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

/** Zigzag varint (Avro's int and long encoding), for files written byte by byte. */
function varint(n) {
  let z = BigInt.asUintN(64, (BigInt(n) << 1n) ^ (BigInt(n) < 0n ? -1n : 0n))
  const out = []
  do {
    const b = Number(z & 0x7fn)
    z >>= 7n
    out.push(z ? b | 0x80 : b)
  } while (z)
  return out
}

const SYNC = Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 255)
const str = (s) => [...varint(Buffer.byteLength(s)), ...Buffer.from(s)]

/** A container file by hand: the header for `schema`, then blocks of [count, already-encoded objects]. */
function containerFile(schema, blocks, { sync = SYNC } = {}) {
  const meta = [['avro.schema', JSON.stringify(schema)], ['avro.codec', 'null']]
  const out = [0x4f, 0x62, 0x6a, 0x01, ...varint(meta.length), ...meta.flatMap(([k, v]) => [...str(k), ...str(v)]), 0, ...SYNC]
  for (const [count, objects] of blocks) out.push(...varint(count), ...varint(objects.length), ...objects, ...sync)
  return new Uint8Array(out)
}

function encodeWithAvsc(schema, records, { codec, blockSize }) {
  return new Promise((resolve, reject) => {
    const chunks = []
    const encoder = new avsc.streams.BlockEncoder(avsc.Type.forSchema(schema, { wrapUnions: false, registry: { long: bigLong }, typeHook: (s) => (s?.type === 'long' ? bigLong : undefined) }), { codec, blockSize, metadata: { 'format-version': Buffer.from('2') } })
    encoder.on('data', (c) => chunks.push(c)).on('end', () => resolve(new Uint8Array(Buffer.concat(chunks)))).on('error', reject)
    for (const r of records) encoder.write(r)
    encoder.end()
  })
}

// Every Avro type, logical types on their underlying types, names resolved through namespaces, a
// recursive record, unions of several branches.
const EVERY_TYPE = { type: 'record', name: 'Everything', namespace: 'org.example', fields: [
  { name: 'nothing', type: 'null' },
  { name: 'flag', type: 'boolean' },
  { name: 'small', type: 'int' },
  { name: 'big', type: 'long' },
  { name: 'single', type: 'float' },
  { name: 'twice', type: 'double' },
  { name: 'raw', type: 'bytes' },
  { name: 'text', type: 'string' },
  { name: 'colour', type: { type: 'enum', name: 'Colour', symbols: ['RED', 'GREEN', 'BLUE'] } },
  { name: 'hash', type: { type: 'fixed', name: 'Hash', namespace: 'other.space', size: 8 } },
  { name: 'hashAgain', type: 'other.space.Hash' },
  { name: 'colours', type: { type: 'array', items: 'Colour' } },
  { name: 'tags', type: { type: 'map', values: ['null', 'long', 'string'] } },
  { name: 'nested', type: { type: 'map', values: { type: 'array', items: 'double' } } },
  { name: 'either', type: ['null', 'int', 'string', 'boolean', { type: 'array', items: 'int' }] },
  { name: 'decimal', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
  { name: 'decimalFixed', type: { type: 'fixed', name: 'Dec', size: 5, logicalType: 'decimal', precision: 10, scale: 3 } },
  { name: 'day', type: { type: 'int', logicalType: 'date' } },
  { name: 'micros', type: { type: 'long', logicalType: 'timestamp-micros' } },
  { name: 'uuid', type: { type: 'string', logicalType: 'uuid' } },
  { name: 'chain', type: ['null', { type: 'record', name: 'Link', fields: [{ name: 'value', type: 'int' }, { name: 'next', type: ['null', 'Link'] }] }] },
  { name: 'inner', type: { type: 'record', name: 'Inner', namespace: 'deeper', fields: [
    { name: 'backToOuter', type: ['null', 'org.example.Colour'] },
    { name: 'local', type: { type: 'fixed', name: 'Local', size: 2 } },
    { name: 'localAgain', type: 'Local' },
  ] } },
] }

function everyTypeRecord(i) {
  const link = (n) => (n === 0 ? null : { value: n * 3, next: link(n - 1) })
  return {
    nothing: null,
    flag: i % 2 === 0,
    small: [0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 63, -64, 64][i % 8],
    big: [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 1234567890123n][i % 6],
    single: [0, -0, 1.5, Math.fround(3.14159), Infinity, -Infinity, NaN][i % 7],
    twice: [0, -0, Math.PI, 1e308, -5e-324, NaN][i % 6],
    raw: Buffer.from(Array.from({ length: i % 5 }, (_, k) => (k * 91 + i) & 255)),
    text: ['', 'ascii', 'é — ✓ 𝄞', 'x'.repeat(300)][i % 4],
    colour: ['RED', 'GREEN', 'BLUE'][i % 3],
    hash: Buffer.alloc(8, i & 255),
    hashAgain: Buffer.alloc(8, 255 - (i & 255)),
    colours: Array.from({ length: i % 4 }, (_, k) => ['BLUE', 'RED'][k % 2]),
    tags: Object.fromEntries(Array.from({ length: i % 3 }, (_, k) => [`k${k}`, [null, BigInt(k) << 40n, 'v'][k % 3]])),
    nested: i % 2 ? { a: [1.5, -2], b: [] } : {},
    either: [null, 42, 'word', true, [1, 2, 3]][i % 5],
    decimal: Buffer.from([0x80 | (i & 0x7f), 1]),
    decimalFixed: Buffer.from([0, 0, 0, 1, i & 255]),
    day: 19000 + i,
    micros: 1_700_000_000_000_000n + BigInt(i),
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    chain: link(i % 4),
    inner: { backToOuter: i % 2 ? 'BLUE' : null, local: Buffer.from([1, 2]), localAgain: Buffer.from([3, i & 255]) },
  }
}

describe('the schema-walking Avro decoder reads what avsc reads', () => {
  test('every Avro file under the table fixtures', async (t) => {
    const missing = missingFixture('tables')
    if (missing) return t.skip(missing)
    const files = avroFiles(fixturePath('tables'))
    let records = 0
    for (const file of files) records += (await bothAgree(new Uint8Array(readFileSync(file)), path.relative(fixturePath('tables'), file))).records.length
    assert.ok(files.length >= 30, `${files.length} Avro files read`)
    t.diagnostic(`${files.length} files, ${records} records`)
  })

  test('the manifests and manifest list testkit/iceberg-writer.js writes', async () => {
    const dir = await tempDir('avro-interpreted')
    await writeIcebergTable(dir, { files: 40, manifests: 4, rows: 2 })
    const files = avroFiles(dir)
    assert.equal(files.length, 5)
    for (const file of files) await bothAgree(new Uint8Array(readFileSync(file)), path.basename(file))
  })

  for (const codec of ['null', 'deflate']) {
    test(`every Avro type, ${codec} codec, several blocks`, async () => {
      const written = Array.from({ length: 120 }, (_, i) => everyTypeRecord(i))
      const bytes = await encodeWithAvsc(EVERY_TYPE, written, { codec, blockSize: 2048 })
      const { records, meta } = await bothAgree(bytes, `every-type-${codec}.avro`)
      assert.equal(records.length, written.length)
      assert.equal(meta['avro.codec'], codec)
      assert.equal(records[2].big, 2n ** 63n - 1n)
      assert.equal(records[3].chain.next.next.value, 3)
    })
  }

  test('arrays and maps in blocks of negative counts (followed by byte sizes), several blocks each', async () => {
    const schema = { type: 'record', name: 'R', fields: [{ name: 'xs', type: { type: 'array', items: 'int' } }, { name: 'm', type: { type: 'map', values: 'string' } }] }
    const xs = [...varint(-2), ...varint(2), ...varint(5), ...varint(-6), ...varint(1), ...varint(7), ...varint(0)]
    const m = [...varint(-1), ...varint(4), ...str('a'), ...str('bc'), ...varint(1), ...str('d'), ...str(''), ...varint(0)]
    const bytes = containerFile(schema, [[2, [...xs, ...m, ...varint(0), ...varint(0)]]])
    const { records } = await bothAgree(bytes, 'negative-counts.avro')
    assert.deepStrictEqual(records, [{ xs: [5, -6, 7], m: { a: 'bc', d: '' } }, { xs: [], m: {} }])
  })
})

describe('damaged and hostile Avro files are MALFORMED_TABLE, as with avsc', () => {
  const refusedBoth = async (bytes, what) => {
    for (const read of [readAvroFileInterpreted, readAvroFile]) {
      await assert.rejects(read(bytes, 'm.avro'), (err) => err.code === 'MALFORMED_TABLE' && err.message.startsWith('m.avro: not a readable Avro file'),
        `${read.name}: ${what}`)
    }
  }

  test('every truncation of a file: the records avsc reads, or both refuse', async () => {
    const bytes = await encodeWithAvsc(EVERY_TYPE, Array.from({ length: 6 }, (_, i) => everyTypeRecord(i)), { codec: 'null', blockSize: 300 })
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.subarray(0, n)
      const { message, ...interpreted } = await outcome(readAvroFileInterpreted, cut)
      const { message: avscMessage, ...byAvsc } = await outcome(readAvroFile, cut)
      assert.deepStrictEqual(interpreted, byAvsc, `cut at ${n} of ${bytes.length}: ${message} / ${avscMessage}`)
      // Only a cut right after a block's sync marker leaves a readable file.
      if (!interpreted.code) assert.ok(n > 4, `cut at ${n}`)
    }
  })

  // avsc is asked only where the schema-walking decoder did not refuse a count or length up front: avsc
  // allocates for a block's item count before reading the items, and a flipped count of 2^40 exhausts
  // the process's memory (an abort, not an exception). Nor where it refused a varint past the 64 bits
  // of a long (more than 10 bytes, or a tenth byte above 1), which avsc reads on.
  test('byte flips: the records avsc reads, or a typed refusal', async () => {
    const bytes = await encodeWithAvsc(EVERY_TYPE, Array.from({ length: 8 }, (_, i) => everyTypeRecord(i)), { codec: 'null', blockSize: 400 })
    let seed = 12345
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000)
    let refused = 0
    let boundsRefused = 0
    for (let trial = 0; trial < 1000; trial++) {
      const damaged = bytes.slice()
      const at = Math.floor(random() * damaged.length)
      damaged[at] = [0xff, 0x80, 0x7f, 0x01, Math.floor(random() * 256)][trial % 5]
      const interpreted = await outcome(readAvroFileInterpreted, damaged)
      if (interpreted.code) {
        assert.equal(interpreted.code, 'MALFORMED_TABLE', `flip at ${at}`)
        refused++
        if (/at most \d+ possible|objects in \d+ bytes|varint past 64 bits/.test(interpreted.message)) {
          boundsRefused++
          continue
        }
      }
      const byAvsc = await outcome(readAvroFile, damaged)
      if (interpreted.code || byAvsc.code) {
        assert.deepStrictEqual([interpreted.code, byAvsc.code], ['MALFORMED_TABLE', 'MALFORMED_TABLE'], `flip at ${at}: both refuse (${interpreted.message} / ${byAvsc.message})`)
      } else {
        assert.deepStrictEqual(interpreted, byAvsc, `flip at ${at}`)
      }
    }
    assert.ok(refused > 100 && boundsRefused > 10, `${refused} of 1000 damaged files refused, ${boundsRefused} by a count, length or varint past its bounds`)
  })

  test('bad magic, sync marker, codec and schema', async () => {
    const schema = { type: 'record', name: 'R', fields: [{ name: 'n', type: 'long' }] }
    const good = containerFile(schema, [[1, varint(7)]])
    assert.deepStrictEqual((await readAvroFileInterpreted(good, 'good.avro')).records, [{ n: 7n }])
    const badMagic = good.slice()
    badMagic[3] = 2
    await refusedBoth(badMagic, 'magic')
    await refusedBoth(containerFile(schema, [[1, varint(7)]], { sync: SYNC.map((b) => b ^ 1) }), 'sync marker')
    const snappy = new TextDecoder('latin1').decode(good).replace('\u0008null', '\u000csnappy')
    await refusedBoth(Uint8Array.from(snappy, (c) => c.charCodeAt(0)), 'codec snappy')
    await refusedBoth(containerFile({ type: 'record', name: 'R', fields: [{ name: 'n', type: 'Nowhere' }] }, [[1, varint(7)]]), 'unknown named type')
    await refusedBoth(containerFile(['null', 'null'].slice(0, 0), [[1, varint(0)]]), 'empty union')
  })

  test('counts and lengths past the file are refused at once, not looped over or allocated, by both readers', async () => {
    const started = Date.now()
    const big = 2n ** 62n
    const rec = (type) => ({ type: 'record', name: 'R', fields: [{ name: 'v', type }] })
    const cases = [
      ['block object count', rec('long'), [[big, varint(1)]]],
      ['block object count of empty records', rec('null'), [[big, []]]],
      ['array count', rec({ type: 'array', items: 'long' }), [[1, varint(big)]]],
      ['array count of nulls', rec({ type: 'array', items: 'null' }), [[1, varint(big)]]],
      ['negative array count', rec({ type: 'array', items: 'int' }), [[1, [...varint(-big), ...varint(1)]]]],
      ['map count', rec({ type: 'map', values: 'int' }), [[1, varint(big)]]],
      ['bytes length', rec('bytes'), [[1, varint(big)]]],
      ['negative string length', rec('string'), [[1, varint(-3)]]],
      ['union index', rec(['null', 'int']), [[1, varint(2)]]],
      ['negative union index', rec(['null', 'int']), [[1, varint(-1)]]],
      ['enum index', rec({ type: 'enum', name: 'E', symbols: ['A'] }), [[1, varint(1)]]],
    ]
    // avsc's own array and map readers loop over any count (2^31 nulls end the process): js/table/avro.js bounds them.
    for (const [what, schema, blocks] of cases) await refusedBoth(containerFile(schema, blocks), what)
    // Varints longer than a long: refused by the interpreted reader; avsc reads them (bounded by the bytes) as it always has.
    for (const [what, bytes] of [['varint of 11 bytes', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
      ['varint past 64 bits', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]]]) {
      await assert.rejects(readAvroFileInterpreted(containerFile(rec('long'), [[1, bytes]]), 'm.avro'), (err) => err.code === 'MALFORMED_TABLE', what)
    }
    const nested = rec({ type: 'array', items: { type: 'map', values: { type: 'array', items: 'null' } } })
    await refusedBoth(containerFile(nested, [[1, [...varint(1), ...varint(1), 0, ...varint(2n ** 31n)]]]), 'nulls in a map in an array')
    // A block's byte size past the file's end.
    const cut = containerFile(rec('long'), [[1, varint(7)]])
    const header = cut.length - 16 - 1 - 1 - 1
    const lying = Uint8Array.from([...cut.subarray(0, header), ...varint(1), ...varint(1000), ...varint(7), ...SYNC])
    await refusedBoth(lying, 'block byte size')
    assert.ok(Date.now() - started < 5000, `refused in ${Date.now() - started} ms`)
  })
})
