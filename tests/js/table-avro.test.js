// js/table/avro.js (Avro object container files through avsc's types, as browsers run it) against avsc's
// own streaming container decoder (the Node-only BlockDecoder, an independent reading of the same
// bytes): every manifest and manifest list of the Iceberg fixtures, and files avsc's BlockEncoder writes
// with both codecs, several blocks and longs past 2^53. Damaged files are MALFORMED_TABLE, never records.
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { describe, test } from 'node:test'
import avsc from 'avsc'

import { readAvroFile } from '../../js/table/avro.js'
import { bigLong } from './helpers/avsc-big-long.js'
import { fixturePath, missingFixture, readFixture } from './helpers/fixtures.js'

/** Records as avsc's BlockDecoder reads them (bytes as plain Uint8Arrays, to compare by content). */
function decodeWithStreams(bytes) {
  return new Promise((resolve, reject) => {
    const records = []
    const decoder = new avsc.streams.BlockDecoder({ parseHook: (schema) => avsc.Type.forSchema(schema, { registry: { long: bigLong }, wrapUnions: false }) })
    decoder.on('data', (r) => records.push(r)).on('end', () => resolve(records)).on('error', reject)
    decoder.end(Buffer.from(bytes))
  })
}

/** Values made comparable: Buffers and Uint8Arrays alike as arrays of bytes, records as plain objects. */
function plain(value) {
  if (value instanceof Uint8Array) return { bytes: Array.from(value) }
  if (Array.isArray(value)) return value.map(plain)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  return value
}

function encode(schema, records, { codec, blockSize }) {
  return new Promise((resolve, reject) => {
    const chunks = []
    const encoder = new avsc.streams.BlockEncoder(avsc.Type.forSchema(schema, { registry: { long: bigLong } }), { codec, blockSize, metadata: { 'format-version': Buffer.from('2') } })
    encoder.on('data', (c) => chunks.push(c)).on('end', () => resolve(new Uint8Array(Buffer.concat(chunks)))).on('error', reject)
    for (const r of records) encoder.write(r)
    encoder.end()
  })
}

const SCHEMA = { type: 'record', name: 'entry', fields: [
  { name: 'snapshot_id', type: ['null', 'long'] },
  { name: 'path', type: 'string' },
  { name: 'bound', type: ['null', 'bytes'] },
  { name: 'key', type: { type: 'fixed', name: 'key16', size: 16 } },
  { name: 'counts', type: { type: 'array', items: { type: 'record', name: 'kv', fields: [{ name: 'key', type: 'int' }, { name: 'value', type: 'long' }] } } },
] }
const RECORDS = Array.from({ length: 300 }, (_, i) => ({
  snapshot_id: i % 7 === 0 ? null : 9158179788527662767n - BigInt(i),
  path: `data/part-${i}-é.parquet`,
  bound: i % 5 === 0 ? null : Buffer.from([i & 255, 0, 255]),
  key: Buffer.alloc(16, i & 255),
  counts: [{ key: 1, value: BigInt(i) * 2n ** 40n }],
}))

describe('Avro container files', () => {
  for (const codec of ['null', 'deflate']) {
    test(`${codec} codec, several blocks: the records and metadata avsc wrote`, async () => {
      const bytes = await encode(SCHEMA, RECORDS, { codec, blockSize: 1024 })
      const { records, meta } = await readAvroFile(bytes, 'written.avro')
      assert.deepEqual(plain(records), plain(RECORDS))
      assert.equal(meta['format-version'], '2')
      assert.equal(meta['avro.codec'], codec)
      assert.equal(typeof records[1].snapshot_id, 'bigint')
      assert.ok(records[1].bound instanceof Uint8Array)
    })
  }

  test('every manifest and manifest list of the Iceberg fixtures reads as avsc\'s streaming decoder reads it', async (t) => {
    const missing = missingFixture('tables/iceberg')
    if (missing) return t.skip(missing)
    let files = 0
    for (const table of readdirSync(fixturePath('tables/iceberg'))) {
      for (const name of readdirSync(fixturePath(`tables/iceberg/${table}/metadata`)).filter((n) => n.endsWith('.avro'))) {
        const bytes = readFixture(`tables/iceberg/${table}/metadata/${name}`)
        const { records } = await readAvroFile(new Uint8Array(bytes), name)
        assert.deepEqual(plain(records), plain(await decodeWithStreams(bytes)), `${table}/${name}`)
        files++
      }
    }
    assert.ok(files >= 20, `${files} Avro files read`)
  })

  test('damaged files are MALFORMED_TABLE: magic, truncation, sync marker, codec', async () => {
    const bytes = await encode(SCHEMA, RECORDS.slice(0, 50), { codec: 'deflate', blockSize: 512 })
    const refused = async (damaged, what) => {
      await assert.rejects(readAvroFile(damaged, 'm.avro'), (err) => err.code === 'MALFORMED_TABLE' && err.message.startsWith('m.avro: not a readable Avro file'), what)
    }
    const badMagic = bytes.slice()
    badMagic[0] = 0x50
    await refused(badMagic, 'bad magic')
    await refused(bytes.subarray(0, bytes.length - 7), 'truncated in the last block')
    const badSync = bytes.slice()
    badSync[badSync.length - 1] ^= 1
    await refused(badSync, 'last sync marker changed')
    const snappy = Buffer.from(await encode(SCHEMA, RECORDS.slice(0, 3), { codec: 'null' })).toString('latin1').replace('\u0014avro.codec\u0008null', '\u0014avro.codec\u000csnappy')
    await refused(new Uint8Array(Buffer.from(snappy, 'latin1')), 'codec snappy')
  })
})
