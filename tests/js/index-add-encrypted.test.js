// addIndexes on files with Parquet modular encryption (parquet-testing's encrypted files, with the keys
// their upstream README gives): the copies are checked without our crypto code — the footer is decrypted
// (or its signature verified) with node:crypto under AADs composed here from the spec (Encryption.md
// §4.4), the FileMetaData and ColumnMetaData decoded by hyparquet's Thrift reader, each new filter's two
// modules (BloomFilter Header 8, Bitset 9) decrypted with the column's key and checked for every stored
// value with hyparquet's SBBF and XXH64 — and by our reader, which must find every stored value and rule
// out ≥ 99% of absent ones. Pages are byte-identical. With pageIndex, on copies whose footers lost their page
// indexes, the new ColumnIndex / OffsetIndex modules (6, 7) decrypted the same way equal parquet-java's own.
// Refusals: no keys, no footer key, a missing column key, AES-CTR pages, DuckDB's empty-AAD files, tampered modules.
import assert from 'node:assert/strict'
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js'
import { readBloomFilter, sbbfContains } from 'hyparquet/src/bloom.js'
import { readColumnIndex, readOffsetIndex } from 'hyparquet/src/indexes.js'
import { parquetMetadata } from 'hyparquet/src/metadata.js'

import { ErrorCode, init, openParquet } from '../../js/index.js'
import { addIndexes, adviseIndexes, INDEXES_KEY } from '../../js/index-builder/index.js'
import { chunk } from '../../js/footer/records.js'
import { mapFooter, spliceStruct } from '../../js/index-builder/footer-splice.js'
import { fixturePath, missingFixture, PARQUET_TESTING_FOOTER_KEY, PARQUET_TESTING_KEYS, PARQUET_TESTING_KEYS_256 } from './helpers/fixtures.js'
import { referenceHash } from '../../testkit/reference-sbbf.js'
import { runCli } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const FOOTER_KEY = PARQUET_TESTING_FOOTER_KEY
const KEYS = PARQUET_TESTING_KEYS
const KEYS_256 = PARQUET_TESTING_KEYS_256
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i))
// Arrow's 50-row encryption test data: int32 = i, double = i × 1.1111111, float = i × 1.1f (float arithmetic).
const ARROW_VALUES = {
  int32_field: ['INT32', range(50, (i) => i)],
  double_field: ['DOUBLE', range(50, (i) => i * 1.1111111)],
  float_field: ['FLOAT', range(50, (i) => Math.fround(i * Math.fround(1.1)))],
}
// The bloom filter file: 2000 rows, double = i + 0.5, float = i + 0.25.
const BLOOM_VALUES = {
  double_field: ['DOUBLE', range(2000, (i) => i + 0.5)],
  float_field: ['FLOAT', range(2000, (i) => i + 0.25)],
}
const CASES = [
  ['parquet-testing/encrypt_columns_and_footer.parquet.encrypted', KEYS, ARROW_VALUES],
  ['parquet-testing/encrypt_columns_and_footer_aad.parquet.encrypted', { ...KEYS, aadPrefix: 'tester' }, ARROW_VALUES],
  ['parquet-testing/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', { ...KEYS, aadPrefix: 'tester' }, ARROW_VALUES],
  ['parquet-testing/encrypt_columns_plaintext_footer.parquet.encrypted', KEYS, ARROW_VALUES],
  ['parquet-testing/uniform_encryption.parquet.encrypted', KEYS, ARROW_VALUES],
  ['parquet-testing/aes256/encrypt_columns_and_footer.parquet.encrypted', KEYS_256, ARROW_VALUES],
  ['parquet-testing/aes256/encrypt_columns_plaintext_footer.parquet.encrypted', KEYS_256, ARROW_VALUES],
  ['parquet-testing/encrypt_columns_and_footer_bloom_filter.parquet.encrypted', KEYS, BLOOM_VALUES],
]

const dir = await tempDir('index-add-encrypted')
const utf8 = new TextEncoder()
const text = new TextDecoder()
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')
const keyBytes = (key) => utf8.encode(key)
const le32 = (bytes, at) => new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true)
const thrift = (bytes, offset = 0) => {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset }
  return { value: deserializeTCompactProtocol(reader), end: reader.offset }
}

before(async () => { await init() })

/** Encryption.md §4.4: prefix ‖ file unique ‖ module type ‖ row group (2 LE) ‖ column (2 LE); the footer's stops after its type. */
function aad(fileAad, moduleType, rowGroup, column) {
  const out = Buffer.alloc(fileAad.length + (moduleType === 0 ? 1 : 5))
  out.set(fileAad)
  out[fileAad.length] = moduleType
  if (moduleType !== 0) {
    out.writeUInt16LE(rowGroup, fileAad.length + 1)
    out.writeUInt16LE(column, fileAad.length + 3)
  }
  return out
}

const cipherName = (key) => `aes-${key.length * 8}-gcm`

/** A GCM module (length ‖ nonce ‖ ciphertext ‖ tag) decrypted by node:crypto; throws when it does not authenticate. */
function openModule(key, module, additional) {
  const length = le32(module, 0)
  assert.equal(length, module.length - 4, 'the module length covers nonce, ciphertext and tag')
  const nonce = module.subarray(4, 16)
  const tag = module.subarray(module.length - 16)
  const decipher = createDecipheriv(cipherName(key), key, nonce)
  decipher.setAAD(additional)
  decipher.setAuthTag(tag)
  return new Uint8Array(Buffer.concat([decipher.update(module.subarray(16, module.length - 16)), decipher.final()]))
}

/** The AES parameters of an EncryptionAlgorithm union as hyparquet decodes it. */
function fileAadOf(algorithm, supplied) {
  const params = algorithm.field_1 ?? algorithm.field_2
  const prefix = supplied !== undefined ? utf8.encode(supplied) : params.field_1 ?? new Uint8Array(0)
  return Buffer.concat([prefix, params.field_2])
}

/**
 * The copy's footer read without our code: { metadata (hyparquet's Thrift object), fileAad }.
 * Encrypted footer: FileCryptoMetaData, then the footer module; plaintext footer: its signature is checked.
 */
function openFooter(bytes, keys) {
  const footerKey = keyBytes(keys.footerKey)
  const magic = text.decode(bytes.subarray(bytes.length - 4))
  const length = le32(bytes, bytes.length - 8)
  const region = bytes.subarray(bytes.length - 8 - length, bytes.length - 8)
  if (magic === 'PARE') {
    const { value: cryptoMetaData, end } = thrift(region)
    const fileAad = fileAadOf(cryptoMetaData.field_1, keys.aadPrefix)
    const plain = openModule(footerKey, region.subarray(end), aad(fileAad, 0))
    return { metadata: thrift(plain).value, fileAad, encryptedFooter: true, plaintext: plain, cryptoMetaData: region.subarray(0, end) }
  }
  assert.equal(magic, 'PAR1')
  const { value: metadata, end } = thrift(region)
  const fileAad = fileAadOf(metadata.field_8, keys.aadPrefix)
  const footer = region.subarray(0, end)
  const signature = region.subarray(end)
  assert.equal(signature.length, 28)
  const cipher = createCipheriv(cipherName(footerKey), footerKey, signature.subarray(0, 12))
  cipher.setAAD(aad(fileAad, 0))
  cipher.update(footer)
  cipher.final()
  assert.deepEqual(new Uint8Array(cipher.getAuthTag()), signature.subarray(12), 'the plaintext footer\'s signature verifies with the footer key')
  return { metadata, fileAad, encryptedFooter: false, plaintext: footer }
}

/** A GCM module sealed by node:crypto (length ‖ nonce ‖ ciphertext ‖ tag). */
function sealModule(key, plaintext, additional) {
  const nonce = Buffer.from(createHash('sha256').update(plaintext).digest().subarray(0, 12))
  const cipher = createCipheriv(cipherName(key), key, nonce)
  cipher.setAAD(additional)
  const body = Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
  const length = Buffer.alloc(4)
  length.writeUInt32LE(body.length)
  return new Uint8Array(Buffer.concat([length, body]))
}

/**
 * The file with every ColumnChunk's page index fields (offset_index_offset/length 4–5, column_index_offset/
 * length 6–7) dropped from its footer, which is encrypted (PARE) or signed again with the footer key by
 * node:crypto: the pages as parquet-java wrote them, but no page indexes. (The Thrift is cut with our
 * footer splice; the truth the test compares with is the original file's own page indexes.)
 */
function withoutPageIndexes(bytes, keys) {
  const footerKey = keyBytes(keys.footerKey)
  const { plaintext, fileAad, encryptedFooter, cryptoMetaData } = openFooter(bytes, keys)
  const map = mapFooter(plaintext)
  const drop = new Map([[4, null], [5, null], [6, null], [7, null]])
  const rowGroups = map.rowGroups.map((rowGroup) => {
    const columnsField = rowGroup.struct.fields.find((f) => f.id === 1)
    const chunks = [plaintext.subarray(columnsField.valueStart, rowGroup.chunks[0].struct.start), ...rowGroup.chunks.flatMap((c) => spliceStruct(plaintext, c.struct, drop))]
    return spliceStruct(plaintext, rowGroup.struct, new Map([[1, { type: columnsField.type, parts: chunks }]]))
  })
  const rowGroupsField = map.top.fields.find((f) => f.id === 4)
  const footer = new Uint8Array(Buffer.concat(spliceStruct(plaintext, map.top, new Map([[4, { type: rowGroupsField.type,
    parts: [plaintext.subarray(rowGroupsField.valueStart, map.rowGroups[0].struct.start), ...rowGroups.flat()] }]]))))
  let tail
  if (encryptedFooter) {
    tail = Buffer.concat([cryptoMetaData, sealModule(footerKey, footer, aad(fileAad, 0))])
  } else {
    const signed = sealModule(footerKey, footer, aad(fileAad, 0))
    // A signature is the nonce and tag of the footer's encryption (Encryption.md §5.5).
    tail = Buffer.concat([footer, signed.subarray(4, 16), signed.subarray(signed.length - 16)])
  }
  const length = Buffer.alloc(4)
  length.writeUInt32LE(tail.length)
  const prefix = bytes.length - 8 - le32(bytes, bytes.length - 8)
  return new Uint8Array(Buffer.concat([bytes.subarray(0, prefix), tail, length, bytes.subarray(bytes.length - 4)]))
}

/** A chunk's page indexes as hyparquet decodes them, from their plaintext (decrypted with `key` when given). */
function pageIndexesOf(bytes, chunkStruct, key, fileAad, rowGroup, column, schemaElement) {
  const open = (offset, length, type) => {
    const stored = bytes.subarray(Number(offset), Number(offset) + length)
    return key ? openModule(key, stored, aad(fileAad, type, rowGroup, column)) : stored
  }
  const reader = (plain) => ({ view: new DataView(plain.buffer, plain.byteOffset, plain.byteLength), offset: 0 })
  const offsetIndex = readOffsetIndex(reader(open(chunkStruct.field_4, chunkStruct.field_5, 7)))
  const columnIndex = chunkStruct.field_6 === undefined ? undefined
    : readColumnIndex(reader(open(chunkStruct.field_6, chunkStruct.field_7, 6)), schemaElement)
  return { offsetIndex, columnIndex }
}

/** Per column chunk: its ColumnMetaData (decrypted when encrypted) and the key its modules use (undefined: plaintext). */
function columnChunks(metadata, fileAad, keys, columnNames) {
  const out = []
  for (const [g, rowGroup] of metadata.field_4.entries()) {
    for (const [c, chunk] of rowGroup.field_1.entries()) {
      const name = columnNames[c]
      const cryptoMeta = chunk.field_8
      let key
      if (cryptoMeta?.field_1) key = keyBytes(keys.footerKey)
      else if (cryptoMeta?.field_2) key = keyBytes(keys.columnKeys[cryptoMeta.field_2.field_1.map((p) => text.decode(p)).join('.')])
      let meta = chunk.field_3
      if (chunk.field_9) meta = thrift(openModule(key, chunk.field_9, aad(fileAad, 1, g, c))).value
      out.push({ rowGroup: g, column: c, name, meta, key })
    }
  }
  return out
}

describe('addIndexes with keys: filters written as encrypted modules, footers sealed again', () => {
  for (const [relative, keys, columns] of CASES) {
    test(`${relative}: read back without our crypto code, every stored value is in its filter; our probe rules out ≥ 99% of absent values`, { skip: missingFixture(relative) }, async () => {
      const input = fixturePath(relative)
      const output = path.join(dir, `${path.basename(path.dirname(relative))}-${path.basename(relative)}.indexed`)
      const names = Object.keys(columns)
      const result = await addIndexes(input, output, { columns: names, decryption: keys, replace: true })
      assert.deepEqual(result.skipped, [])
      assert.equal(result.added.length, names.length)

      const before = new Uint8Array(await readFile(input))
      const after = new Uint8Array(await readFile(output))
      const prefix = before.length - 8 - le32(before, before.length - 8)
      assert.equal(sha256(after.subarray(0, prefix)), sha256(before.subarray(0, prefix)), 'the pages and everything before the old footer are byte-identical')
      assert.equal(text.decode(after.subarray(after.length - 4)), text.decode(before.subarray(before.length - 4)), 'the footer keeps its mode (PARE or PAR1)')

      const { metadata, fileAad } = openFooter(after, keys)
      const original = openFooter(before, keys).metadata
      assert.equal(metadata.field_3, original.field_3, 'num_rows')
      assert.equal(metadata.field_2.length, original.field_2.length, 'the schema')
      const record = metadata.field_5.find((kv) => text.decode(kv.field_1) === INDEXES_KEY)
      assert.ok(record, 'the key-value entry is in the sealed footer')
      const leafNames = metadata.field_2.filter((e) => !e.field_5).map((e) => text.decode(e.field_4))
      for (const chunk of columnChunks(metadata, fileAad, keys, leafNames)) {
        if (!names.includes(chunk.name)) continue
        const added = result.added.find((a) => a.rowGroup === chunk.rowGroup && a.column === chunk.name)
        assert.equal(Number(chunk.meta.field_14), added.offset, `${chunk.name}: bloom_filter_offset`)
        assert.equal(chunk.meta.field_15, added.length, `${chunk.name}: bloom_filter_length`)
        const modules = after.subarray(added.offset, added.offset + added.length)
        let header
        let bitset
        if (chunk.key) {
          assert.equal(added.encrypted, true)
          const headerModule = modules.subarray(0, 4 + le32(modules, 0))
          const bitsetModule = modules.subarray(headerModule.length)
          header = openModule(chunk.key, headerModule, aad(fileAad, 8, chunk.rowGroup, chunk.column))
          bitset = openModule(chunk.key, bitsetModule, aad(fileAad, 9, chunk.rowGroup, chunk.column))
          // The same modules under each other's AAD must not open: the module type is bound.
          assert.throws(() => openModule(chunk.key, headerModule, aad(fileAad, 9, chunk.rowGroup, chunk.column)))
        } else {
          assert.equal(added.encrypted, undefined, `${chunk.name} is a plaintext column: its filter is plaintext`)
          const headerEnd = thrift(modules).end
          header = modules.subarray(0, headerEnd)
          bitset = modules.subarray(headerEnd)
        }
        const plain = new Uint8Array(header.length + bitset.length)
        plain.set(header)
        plain.set(bitset, header.length)
        const filter = readBloomFilter({ view: new DataView(plain.buffer), offset: 0 })
        assert.ok(filter, `${chunk.name}: hyparquet reads the decrypted filter`)
        const [type, values] = columns[chunk.name]
        const missing = values.filter((v) => !sbbfContains(filter.blocks, referenceHash(v, type)))
        assert.deepEqual(missing, [], `${chunk.name}: every stored value is in the filter (hyparquet's SBBF)`)
      }

      const file = await openParquet(output, { decryption: keys })
      try {
        for (const [name, [, values]] of Object.entries(columns)) {
          const stored = await file.probe(name, values, { statistics: false })
          for (const g of stored.rowGroups) {
            assert.ok(g.results.every((r) => r.verdict !== 'absent'), `${name}: a stored value is absent`)
            assert.ok(g.results.every((r) => r.source === 'bloom-filter'), `${name}: the new filter answers`)
          }
          const absent = range(5000, (i) => (name === 'int32_field' ? 100000 + i : 100000.37 + i * 0.73))
          const probed = await file.probe(name, absent, { statistics: false })
          const ruledOut = probed.rowGroups[0].results.filter((r) => r.verdict === 'absent').length / absent.length
          assert.ok(ruledOut >= 0.99, `${name}: ${ruledOut} of absent values ruled out`)
        }
      } finally {
        await file.close()
      }
    })
  }
})

describe('addIndexes with keys and pageIndex: page indexes of encrypted chunks written as encrypted modules', () => {
  for (const relative of ['parquet-testing/encrypt_columns_and_footer.parquet.encrypted', 'parquet-testing/encrypt_columns_plaintext_footer.parquet.encrypted']) {
    test(`${relative} without its page indexes: the new ones, decrypted by node:crypto, equal parquet-java's for the same pages`, { skip: missingFixture(relative) }, async () => {
      const original = new Uint8Array(await readFile(fixturePath(relative)))
      const input = path.join(dir, `${path.basename(relative)}.no-page-index`)
      await writeFile(input, withoutPageIndexes(original, KEYS))
      const names = Object.keys(ARROW_VALUES)
      const output = path.join(dir, `${path.basename(relative)}.page-indexed`)
      const result = await addIndexes(input, output, { columns: names, decryption: KEYS, pageIndex: true })
      assert.deepEqual(result.skipped, [])
      assert.deepEqual(result.pageIndexes.map((p) => [p.column, p.encrypted ?? false, p.columnIndex !== undefined]),
        [['int32_field', false, true], ['double_field', true, true], ['float_field', true, true]])

      const after = new Uint8Array(await readFile(output))
      const copy = openFooter(after, KEYS)
      const truth = openFooter(original, KEYS)
      const leaves = truth.metadata.field_2.filter((e) => !e.field_5)
      // hyparquet's schema elements (what its ColumnIndex reader decodes bounds by), from the decrypted FileMetaData framed as a file's tail.
      const framed = Buffer.concat([truth.plaintext, Buffer.alloc(4), Buffer.from('PAR1')])
      framed.writeUInt32LE(truth.plaintext.length, truth.plaintext.length)
      const schema = parquetMetadata(framed.buffer.slice(framed.byteOffset, framed.byteOffset + framed.byteLength)).schema
      const chunks = columnChunks(copy.metadata, copy.fileAad, KEYS, leaves.map((e) => text.decode(e.field_4)))
      for (const c of chunks.filter((x) => names.includes(x.name))) {
        const mine = copy.metadata.field_4[c.rowGroup].field_1[c.column]
        const theirs = truth.metadata.field_4[c.rowGroup].field_1[c.column]
        const element = schema.find((e) => e.name === c.name)
        const written = pageIndexesOf(after, mine, c.key, copy.fileAad, c.rowGroup, c.column, element)
        const expected = pageIndexesOf(original, theirs, c.key, truth.fileAad, c.rowGroup, c.column, element)
        assert.deepEqual(written.offsetIndex.page_locations, expected.offsetIndex.page_locations, `${c.name}: page locations (offsets and sizes of the header and page modules, first rows)`)
        for (const field of ['null_pages', 'min_values', 'max_values', 'null_counts']) {
          assert.deepEqual(written.columnIndex[field], expected.columnIndex[field], `${c.name}: ColumnIndex ${field}`)
        }
        if (c.key) {
          // A module under another module type's AAD does not open: the type is bound.
          assert.throws(() => openModule(c.key, after.subarray(Number(mine.field_4), Number(mine.field_4) + mine.field_5), aad(copy.fileAad, 6, c.rowGroup, c.column)))
        }
      }
      // Our reader decrypts and uses them.
      const file = await openParquet(output, { decryption: KEYS })
      try {
        const probed = await file.probe('double_field', [1.1111111 * 7, 1e9], { statistics: false, pageIndex: true })
        const [stored, far] = probed.rowGroups[0].results
        assert.equal(stored.verdict, 'maybe')
        assert.deepEqual(stored.pages, [0], 'the new OffsetIndex places the stored value')
        assert.deepEqual([far.verdict, far.source], ['absent', 'page-index'], 'the new ColumnIndex rules the far value out')
      } finally {
        await file.close()
      }
    })
  }
})

test('adviseIndexes reads encrypted chunks with their keys; without a key, or with AES-CTR pages, a column is skipped saying why', { skip: missingFixture(CASES[0][0]) }, async () => {
  const CTR = 'parquet-testing/encrypt_columns_and_footer_ctr.parquet.encrypted'
  const advise = async (relative, keys) => {
    const file = await openParquet(fixturePath(relative), { decryption: keys })
    try {
      return Object.fromEntries((await adviseIndexes(file, { columns: Object.keys(ARROW_VALUES) })).map((a) => [a.column, a]))
    } finally {
      await file.close()
    }
  }
  const withKeys = await advise(CASES[0][0], KEYS)
  for (const [name, [, values]] of Object.entries(ARROW_VALUES)) {
    assert.equal(withKeys[name].skipped, undefined, `${name}: ${withKeys[name].skipped}`)
    assert.equal(withKeys[name].distinctPerRowGroup, new Set(values).size, `${name}: the distinct values Arrow's test data stores`)
  }
  const withoutColumnKeys = await advise(CASES[0][0], { footerKey: FOOTER_KEY })
  assert.equal(withoutColumnKeys.int32_field.distinctPerRowGroup, 50, 'a plaintext column of the file is advised')
  for (const name of ['double_field', 'float_field']) assert.match(withoutColumnKeys[name].skipped, /encrypted and no key/)
  if (!missingFixture(CTR)) assert.match((await advise(CTR, KEYS)).double_field.skipped, /AES-CTR/)
})

describe('addIndexes on encrypted files: what is refused or skipped', () => {
  const FILE = 'parquet-testing/encrypt_columns_and_footer.parquet.encrypted'
  const PLAINTEXT_FOOTER = 'parquet-testing/encrypt_columns_plaintext_footer.parquet.encrypted'
  const CTR = 'parquet-testing/encrypt_columns_and_footer_ctr.parquet.encrypted'

  test('a missing column key: that column is skipped (no-key), the others get filters', { skip: missingFixture(FILE) }, async () => {
    const output = path.join(dir, 'no-column-key.parquet')
    const result = await addIndexes(fixturePath(FILE), output, { columns: ['int32_field', 'double_field'], decryption: { footerKey: FOOTER_KEY } })
    assert.deepEqual(result.added.map((a) => a.column), ['int32_field'])
    assert.deepEqual(result.skipped.map((s) => [s.column, s.reason]), [['double_field', 'no-key']])
  })

  test('a plaintext footer without its footer key cannot be signed again: ENCRYPTION_KEY_REQUIRED, no output', { skip: missingFixture(PLAINTEXT_FOOTER) }, async () => {
    const output = path.join(dir, 'unsigned.parquet')
    await assert.rejects(addIndexes(fixturePath(PLAINTEXT_FOOTER), output, { columns: ['double_field'], decryption: { columnKeys: KEYS.columnKeys } }),
      { code: ErrorCode.ENCRYPTION_KEY_REQUIRED })
    await assert.rejects(stat(output), { code: 'ENOENT' })
  })

  test('AES_GCM_CTR_V1: encrypted chunks are skipped (their CTR pages authenticate nothing), plaintext columns get filters', { skip: missingFixture(CTR) }, async () => {
    const output = path.join(dir, 'ctr.parquet')
    const result = await addIndexes(fixturePath(CTR), output, { columns: ['int32_field', 'double_field'], decryption: KEYS })
    assert.deepEqual(result.added.map((a) => a.column), ['int32_field'])
    assert.deepEqual(result.skipped.map((s) => [s.column, s.reason]), [['double_field', 'unreadable-pages']])
    const file = await openParquet(output, { decryption: KEYS })
    try {
      const probed = await file.probe('int32_field', [7, 100000], { statistics: false })
      assert.deepEqual(probed.rowGroups[0].results.map((r) => r.verdict), ['maybe', 'absent'])
    } finally {
      await file.close()
    }
  })

  test('a flipped bit in an encrypted data page is DECRYPTION_FAILED, and no output is left behind', { skip: missingFixture(FILE) }, async () => {
    const bytes = new Uint8Array(await readFile(fixturePath(FILE)))
    const file = await openParquet(bytes, { decryption: KEYS })
    const start = chunk(file.layout, 0, file.column('double_field').index).dataPageOffset
    await file.close()
    assert.ok(start > 0)
    const tampered = bytes.slice()
    tampered[start + 20] ^= 1 // the first data page's header module, past its length and nonce
    const input = path.join(dir, 'tampered.parquet')
    await writeFile(input, tampered)
    const output = path.join(dir, 'tampered-indexed.parquet')
    await assert.rejects(addIndexes(input, output, { columns: ['double_field'], decryption: KEYS }), { code: ErrorCode.DECRYPTION_FAILED })
    await assert.rejects(stat(output), { code: 'ENOENT' })
    assert.deepEqual((await readdir(dir)).filter((f) => f.includes('.partial-')), [])
  })

  test('DuckDB\'s encrypted files (empty AADs) are refused with ENCRYPTED: DuckDB reads filters of encrypted files as plaintext', async () => {
    await withDuckDB(async (connection) => {
      await connection.run("SET force_mbedtls_unsafe = 'true'")
      await connection.run(`PRAGMA add_parquet_key('k', '${FOOTER_KEY}')`)
      const input = path.join(dir, 'duck-encrypted.parquet')
      await connection.run(`COPY (SELECT i * 3 AS id FROM range(3000) t(i)) TO '${input}' (ENCRYPTION_CONFIG {footer_key: 'k'})`)
      const output = path.join(dir, 'duck-encrypted-indexed.parquet')
      await assert.rejects(addIndexes(input, output, { columns: ['id'], decryption: { footerKey: FOOTER_KEY } }), (error) => {
        assert.equal(error.code, ErrorCode.ENCRYPTED)
        assert.match(error.message, /DuckDB reads bloom filters of encrypted files as plaintext/)
        assert.ok(!error.message.includes(FOOTER_KEY))
        return true
      })
      await assert.rejects(stat(output), { code: 'ENOENT' })
    })
  })

  test('parquet-bloom index add takes the keys as probe does; they never appear in the output', { skip: missingFixture(PLAINTEXT_FOOTER) }, async () => {
    const output = path.join(dir, 'cli-encrypted.parquet')
    const run = await runCli(['index', 'add', fixturePath(PLAINTEXT_FOOTER), '-o', output, '-c', 'double_field', '-c', 'int32_field',
      '--footer-key', FOOTER_KEY, '--column-key', `double_field=${KEYS.columnKeys.double_field}`, '--json'])
    assert.equal(run.code, 0, run.stderr)
    const report = JSON.parse(run.stdout)
    assert.deepEqual(report.added.map((a) => [a.column, a.encrypted ?? false]), [['double_field', true], ['int32_field', false]])
    for (const secret of [FOOTER_KEY, KEYS.columnKeys.double_field]) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret))
    const refused = await runCli(['index', 'add', fixturePath(PLAINTEXT_FOOTER), '-o', output, '-c', 'double_field', '--column-key', `double_field=${KEYS.columnKeys.double_field}`])
    assert.notEqual(refused.code, 0)
    assert.match(refused.stderr, /footer key/)
    assert.ok(!refused.stderr.includes(KEYS.columnKeys.double_field))
  })
})
