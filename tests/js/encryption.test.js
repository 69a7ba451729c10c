// Parquet modular encryption (docs/encryption.md): every encrypted parquet-testing file opened with the keys its
// upstream README gives, probed against the rows it documents (Arrow's test data: int32 = i, double =
// i × 1.1111111, float = i × 1.1f (in float arithmetic) over 50 rows; the bloom filter file: double = i + 0.5, float = i + 0.25
// over 2000 rows, as its statistics say); DuckDB files written at test time and read back by DuckDB;
// missing keys, wrong keys and tampered modules.
import assert from 'node:assert/strict'
import { webcrypto } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, openParquet } from '../../js/index.js'
import { chunk } from '../../js/footer/records.js'
import { encryptedFilterTask } from '../../js/indexes/bloom-reads.js'
import { loadCrypto } from '../../js/crypto/load-crypto.js'
import { decryptPage } from '../../js/crypto/encrypted-pages.js'
import { fixturePath, missingFixture, PARQUET_TESTING_FOOTER_KEY, PARQUET_TESTING_KEYS, PARQUET_TESTING_KEYS_256 } from './helpers/fixtures.js'
import { withFile } from './helpers/with-file.js'
import { runCli } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const FOOTER_KEY = PARQUET_TESTING_FOOTER_KEY
const KEYS = PARQUET_TESTING_KEYS
const KEYS_256 = PARQUET_TESTING_KEYS_256
const BLOOM_FILE = 'parquet-testing/encrypt_columns_and_footer_bloom_filter.parquet.encrypted'
const PLAINTEXT_FOOTER_FILE = 'parquet-testing/encrypt_columns_plaintext_footer.parquet.encrypted'
const SECRET_TEXTS = [FOOTER_KEY, ...Object.values(KEYS.columnKeys), 'bad-key-012345678', 'ffffffffffffffff']

// The 50-row files of Arrow's encryption tests, by their parquet-testing names.
const ARROW_FILES = [
  ['encrypt_columns_and_footer', {}],
  ['encrypt_columns_and_footer_aad', { aadPrefix: 'tester' }],
  ['encrypt_columns_and_footer_disable_aad_storage', { aadPrefix: 'tester' }],
  ['encrypt_columns_and_footer_ctr', {}],
  ['encrypt_columns_plaintext_footer', {}],
  ['uniform_encryption', {}],
]

const dir = await tempDir('crypto')
const verdicts = (result) => result.rowGroups.flatMap((g) => g.results.map((r) => r.verdict))
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i))

/** No key, or anything looking like one, in a message or a detail. */
function assertNoSecrets(text) {
  for (const secret of SECRET_TEXTS) assert.ok(!String(text).includes(secret), `a key appears in: ${text}`)
}

async function assertRejectsWith(promise, code, pattern) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.name, 'ParquetBloomError', String(error))
    assert.equal(error.code, code, error.message)
    if (pattern) assert.match(error.message, pattern)
    assertNoSecrets(error.message)
    return true
  })
}

describe('parquet-testing encrypted files, with their keys', () => {
  for (const [name, extra] of ARROW_FILES) {
    for (const [folder, keys] of [['parquet-testing', KEYS], ['parquet-testing/aes256', KEYS_256]]) {
      if (folder.endsWith('aes256') && name === 'encrypt_columns_and_footer_aad') continue // not published in aes256/
      const relative = `${folder}/${name}.parquet.encrypted`
      test(`${relative}: every stored int32/double/float value is kept, out-of-range ones are absent`, { skip: missingFixture(relative) }, async () => {
        await withFile(fixturePath(relative), { decryption: { ...keys, ...extra } }, async (file) => {
          assert.equal(file.metadata.numRows, 50)
          const probes = [
            ['int32_field', range(50, (i) => i), [50, 1000, -1]],
            ['double_field', range(50, (i) => i * 1.1111111), [100, -5]],
            ['float_field', range(50, (i) => Math.fround(i * Math.fround(1.1))), [100, -5]], // float arithmetic, as the writer's
          ]
          for (const [column, present, absent] of probes) {
            const result = await file.probe(column, [...present, ...absent])
            const got = verdicts(result)
            assert.ok(got.slice(0, present.length).every((v) => v === 'maybe' || v === 'present'), `${column}: a stored value is not kept: ${got}`)
            assert.deepEqual(got.slice(present.length), absent.map(() => 'absent'), column)
          }
          // Between stored values only the decrypted dictionary of Arrow's dictionary-only chunks can rule out;
          // CTR pages are not authenticated, so their dictionaries are not used.
          if (folder === 'parquet-testing') {
            const between = await file.probe('double_field', [1.5, 2.5])
            const expected = name.endsWith('_ctr') ? 'maybe' : 'absent'
            assert.deepEqual(between.rowGroups[0].results.map((r) => r.verdict), [expected, expected], JSON.stringify(between.rowGroups[0].results))
          }
        })
      })
    }
  }
})

describe('encrypted bloom filters', () => {
  test('encrypt_columns_and_footer_bloom_filter: 0 false negatives over all 2000 values of each filtered column', { skip: missingFixture(BLOOM_FILE) }, async () => {
    for (const source of [fixturePath(BLOOM_FILE), new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))]) {
      for (const mode of ['auto', 'filter', 'block']) {
        await withFile(source, { decryption: KEYS }, async (file) => {
          for (const [column, offset] of [['double_field', 0.5], ['float_field', 0.25]]) {
            const present = await file.probe(column, range(2000, (i) => i + offset), { mode })
            assert.ok(present.rowGroups[0].results.every((r) => r.verdict === 'maybe' && r.reason === 'bloom-filter'), `${column} ${mode}`)
            // Values between the stored ones: inside min/max, so only the filter can rule them out.
            const between = await file.probe(column, range(1999, (i) => i + 1), { mode })
            const absent = between.rowGroups[0].results.filter((r) => r.verdict === 'absent' && r.reason === 'bloom-filter').length
            assert.ok(absent > 1999 * 0.9, `${column} ${mode}: only ${absent} of 1999 ruled out`)
          }
        })
      }
    }
  })

  test('exact lookups decrypt the data pages: the filter\'s maybe becomes present at the documented row; columns of encrypted columns stay refused', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await withFile(fixturePath(BLOOM_FILE), { decryption: KEYS }, async (file) => {
      const result = await file.probe('double_field', [0.5, 1000.5], { confirm: true })
      assert.deepEqual(result.rowGroups[0].results.map((r) => [r.verdict, r.source, r.rows]), [['present', 'data-pages', [0]], ['present', 'data-pages', [1000]]])
      // hyparquet cannot decrypt: point lookups of an encrypted column's values are refused.
      await assert.rejects(file.probe('int32_field', [0], { confirm: true, columns: ['double_field'] }), (error) => error.code === 'ENCRYPTED')
    })
  })

  test('keys as bytes, and a keyRetriever given the key metadata (kf, kc1, kc2), sync or async', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const bytes = (text) => new TextEncoder().encode(text)
    await withFile(fixturePath(BLOOM_FILE), { decryption: { footerKey: bytes(FOOTER_KEY), columnKeys: { double_field: bytes(KEYS.columnKeys.double_field), float_field: bytes(KEYS.columnKeys.float_field) } } },
      async (file) => assert.equal(verdicts(await file.probe('double_field', [0.5]))[0], 'maybe'))
    const byId = { kf: FOOTER_KEY, kc1: KEYS.columnKeys.double_field, kc2: KEYS.columnKeys.float_field }
    const asked = []
    const keyRetriever = async (metadata, { column }) => {
      const id = new TextDecoder().decode(metadata)
      asked.push([id, column])
      return byId[id]
    }
    await withFile(fixturePath(BLOOM_FILE), { decryption: { keyRetriever } }, async (file) => {
      assert.deepEqual(verdicts(await file.probe('float_field', [0.25, 7.25, 5])), ['maybe', 'maybe', 'absent'])
    })
    assert.deepEqual(asked.sort(), [['kc1', 'double_field'], ['kc2', 'float_field'], ['kf', undefined]])
  })

  test('an encrypted filter costs one whole read: the same requests as its plaintext twin would, never block reads', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const bytes = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    const reads = []
    const source = { byteLength: bytes.length, slice: async (s, e) => { reads.push([s, e]); return bytes.slice(s, e).buffer } }
    await withFile(source, { decryption: KEYS, initialFetchSize: 2048 }, async (file) => {
      reads.length = 0
      await file.probe('double_field', [3.5], { mode: 'block' })
      const [column] = file.metadata.rowGroups[0].columns
      assert.ok(reads.some(([s, e]) => s <= column.bloom.offset && e >= column.bloom.offset + column.bloom.length), JSON.stringify(reads))
    })
  })
})

describe('encrypted page indexes', () => {
  test('ColumnIndex and OffsetIndex modules are decrypted and used (pages of each kept value); tampered, DECRYPTION_FAILED', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    await withFile(original, { decryption: KEYS }, async (file) => {
      const result = await file.probe('double_field', range(2000, (i) => i + 0.5), { pageIndex: true })
      const results = result.rowGroups[0].results
      assert.ok(results.every((r) => r.verdict === 'maybe' && Array.isArray(r.pages) && r.pages.length >= 1))
      // Three pages in order: the first value is on page 0, the last on the last page.
      assert.deepEqual([results[0].pages, results[1999].pages], [[0], [2]])
    })
    // The double_field column index sits at 28894 (132 bytes: a whole module).
    const tampered = original.slice()
    tampered[28894 + 40] ^= 1
    await withFile(tampered, { decryption: KEYS }, async (file) => {
      await assertRejectsWith(file.probe('double_field', [0.5], { pageIndex: true }), ErrorCode.DECRYPTION_FAILED, /double_field: column index/)
      assert.equal(verdicts(await file.probe('double_field', [0.5]))[0], 'maybe') // the filter alone still answers
    })
  })
})

describe('encrypted dictionary pages', () => {
  const FILE = 'parquet-testing/encrypt_columns_and_footer.parquet.encrypted'
  test('a tampered dictionary page header or page is DECRYPTION_FAILED, naming it', { skip: missingFixture(FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(FILE)))
    const offset = await withFile(original, { decryption: KEYS }, async (file) => {
      const column = file.layout.columns.findIndex((c) => c.name === 'double_field')
      return chunk(file.layout, 0, column).dictionaryPageOffset
    })
    const headerModule = new DataView(original.buffer, original.byteOffset + offset, 4).getUint32(0, true)
    for (const [at, pattern] of [[offset + 20, /double_field: dictionary page header/], [offset + 4 + headerModule + 30, /double_field: dictionary page: cannot decrypt/]]) {
      const tampered = original.slice()
      tampered[at] ^= 2
      await withFile(tampered, { decryption: KEYS }, async (file) => {
        await assertRejectsWith(file.probe('double_field', [1.5]), ErrorCode.DECRYPTION_FAILED, pattern)
        assert.equal(verdicts(await file.probe('double_field', [1.5], { dictionary: false }))[0], 'maybe')
      })
    }
  })
})

describe('exact lookups of encrypted chunks (confirm)', () => {
  // Rows are the writers' loop index: Arrow's files hold i × 1.1111111 etc. at row i, the bloom filter file i + 0.5 at row i.
  const rowsOf = (result) => result.rowGroups[0].results.map((r) => [r.verdict, r.rows])
  for (const [name, extra] of ARROW_FILES) {
    for (const [folder, keys] of [['parquet-testing', KEYS], ['parquet-testing/aes256', KEYS_256]]) {
      if (folder.endsWith('aes256') && name === 'encrypt_columns_and_footer_aad') continue
      const relative = `${folder}/${name}.parquet.encrypted`
      const ctr = name.endsWith('_ctr')
      test(`${relative}: ${ctr ? 'CTR pages are not authenticated, so encrypted columns keep maybe' : 'every stored value is present at its row, values between them absent'}`, { skip: missingFixture(relative) }, async () => {
        await withFile(fixturePath(relative), { decryption: { ...keys, ...extra } }, async (file) => {
          const probes = [
            ['int32_field', range(50, (i) => i), [1000]],
            ['double_field', range(50, (i) => i * 1.1111111), [1.5, 2.5, 1.1111112]],
            ['float_field', range(50, (i) => Math.fround(i * Math.fround(1.1))), [1.5, 1.2]],
          ]
          for (const [column, present, absent] of probes) {
            const encrypted = file.layout.crypto.chunks[file.layout.columns.findIndex((c) => c.name === column)] !== undefined
            const result = await file.probe(column, [...present, ...absent], { confirm: true })
            const got = rowsOf(result)
            if (ctr && encrypted) {
              for (const r of result.rowGroups[0].results.slice(0, present.length)) {
                assert.equal(r.verdict, 'maybe', column)
                assert.equal(r.reason, 'confirm-failed')
                assert.match(r.detail, /AES_GCM_CTR_V1.*not authenticated/)
              }
              continue
            }
            assert.deepEqual(got.slice(0, present.length), present.map((_, i) => ['present', [i]]), column)
            assert.ok(got.slice(present.length).every(([v]) => v === 'absent'), `${column}: ${JSON.stringify(got.slice(present.length))}`)
          }
        })
      })
    }
  }

  test('bloom filter file: all 2000 values of both columns at their rows, with the OffsetIndex and walking the chunk; filter false positives absent', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await withFile(fixturePath(BLOOM_FILE), { decryption: KEYS }, async (file) => {
      for (const [column, offset] of [['double_field', 0.5], ['float_field', 0.25]]) {
        for (const pageIndex of [true, false]) {
          const result = await file.probe(column, range(2000, (i) => i + offset), { confirm: true, pageIndex })
          assert.deepEqual(rowsOf(result), range(2000, (i) => ['present', [i]]), `${column} pageIndex ${pageIndex}`)
        }
        // Values the filter keeps though they are not stored: only the pages can rule them out.
        const between = await file.probe(column, range(1999, (i) => i + 1))
        const kept = between.rowGroups[0].results.filter((r) => r.verdict === 'maybe').map((r) => r.value)
        assert.ok(kept.length > 0 && kept.length < 200, `${column}: ${kept.length} filter false positives`)
        const confirmed = await file.probe(column, kept, { confirm: true })
        assert.deepEqual(confirmed.rowGroups[0].results.map((r) => [r.verdict, r.reason]), kept.map(() => ['absent', 'not-in-data-pages']), column)
      }
    })
  })

  test('with an OffsetIndex only the candidate page is read: one value on the last of three pages reads one page module pair', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const bytes = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    const reads = []
    const source = { byteLength: bytes.length, slice: async (s, e) => { reads.push([s, e]); return bytes.slice(s, e).buffer } }
    await withFile(source, { decryption: KEYS, initialFetchSize: 2048 }, async (file) => {
      const pages = pageModules(bytes, file, 'double_field')
      const before = await file.probe('double_field', [1999.5], { pageIndex: true })
      assert.deepEqual(before.rowGroups[0].results[0].pages, [2])
      reads.length = 0
      const result = await file.probe('double_field', [1999.5], { confirm: true })
      assert.deepEqual(rowsOf(result), [['present', [1999]]])
      const last = pages[2]
      assert.ok(reads.some(([s, e]) => s <= last.header && e >= last.end), JSON.stringify(reads))
      assert.ok(reads.every(([s, e]) => e <= pages[0].header || s >= pages[1].end), `pages 0 and 1 are not read: ${JSON.stringify(reads)}`)
    })
  })

  test('a flipped bit in a data page header module or page module is DECRYPTION_FAILED naming the page; pages not read still answer', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    const pages = await withFile(original, { decryption: KEYS }, async (file) => pageModules(original, file, 'double_field'))
    assert.equal(pages.length, 3)
    const cases = [
      [pages[1].header + 4 + 12 + 2, /row group 0, column double_field: data page 1 header: cannot decrypt/],
      [pages[1].page + 4 + 12 + 100, /row group 0, column double_field: data page 1: cannot decrypt/],
      [pages[1].end - 1, /row group 0, column double_field: data page 1: cannot decrypt/], // the tag
      [pages[1].page + 1, /row group 0, column double_field: data page [12]/], // the length prefix (walking the chunk, page 2's header is then misplaced)
    ]
    for (const [at, pattern] of cases) {
      const tampered = original.slice()
      tampered[at] ^= 4
      await withFile(tampered, { decryption: KEYS }, async (file) => {
        for (const pageIndex of [true, false]) {
          await assertRejectsWith(file.probe('double_field', [1000.5], { confirm: true, pageIndex }), ErrorCode.DECRYPTION_FAILED, pattern)
        }
        // With the OffsetIndex a value on page 0 reads page 0 alone.
        assert.deepEqual(rowsOf(await file.probe('double_field', [0.5], { confirm: true })), [['present', [0]]])
        assert.equal(verdicts(await file.probe('double_field', [1000.5]))[0], 'maybe') // without confirm, the filter alone
      })
    }
  })

  test('pages decrypted with the wrong column key or a wrong page ordinal are DECRYPTION_FAILED, never a verdict', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const bytes = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    await withFile(bytes, { decryption: KEYS }, async (file) => {
      const [double, float] = ['double_field', 'float_field'].map((name) => file.layout.columns.findIndex((c) => c.name === name))
      const chunks = file.layout.crypto.chunks
      const own = chunks[double]
      // Page 1's modules, decrypted directly: with its key and ordinal, with the other column's key, with ordinal 0.
      const { header, page, end } = pageModules(bytes, file, 'double_field')[1]
      const modules = { header: bytes.subarray(header, page), page: bytes.subarray(page, end) }
      assert.ok((await decryptPage(own, modules, 1, 'page 1')).length > modules.page.length - 28)
      await assertRejectsWith(decryptPage({ ...own, keys: chunks[float].keys }, modules, 1, 'page 1'), ErrorCode.DECRYPTION_FAILED, /page 1 header: cannot decrypt/)
      await assertRejectsWith(decryptPage(own, modules, 0, 'page 1'), ErrorCode.DECRYPTION_FAILED, /page 1 header: cannot decrypt/)
      await assertRejectsWith(decryptPage(own, modules, 'dictionary', 'page 1'), ErrorCode.DECRYPTION_FAILED, /page 1 header: cannot decrypt/)
      // A probe whose page ordinals were off by one: the filter still authenticates, the pages do not.
      chunks[double] = { ...own, aad: (type, ordinal) => own.aad(type, ordinal === undefined ? undefined : ordinal + 1) }
      await assertRejectsWith(file.probe('double_field', [1000.5], { confirm: true }), ErrorCode.DECRYPTION_FAILED, /column double_field: data page 1 header: cannot decrypt/)
      chunks[double] = own
      assert.deepEqual(rowsOf(await file.probe('double_field', [1000.5], { confirm: true })), [['present', [1000]]])
    })
  })

  test('a column without its key keeps unknown (no-key) under confirm; the others are confirmed', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await withFile(fixturePath(BLOOM_FILE), { decryption: { footerKey: FOOTER_KEY, columnKeys: { float_field: KEYS.columnKeys.float_field } } }, async (file) => {
      const double = await file.probe('double_field', [0.5], { confirm: true })
      assert.deepEqual(double.rowGroups[0].results.map((r) => [r.verdict, r.reason, r.rows]), [['unknown', 'no-key', undefined]])
      assert.deepEqual(rowsOf(await file.probe('float_field', [7.25], { confirm: true })), [['present', [7]]])
    })
    await withFile(fixturePath(PLAINTEXT_FOOTER_FILE), {}, async (file) => {
      const double = await file.probe('double_field', [1.1111111], { confirm: true })
      assert.equal(double.rowGroups[0].results[0].verdict, 'unknown')
      assert.deepEqual(rowsOf(await file.probe('int32_field', [3], { confirm: true })), [['present', [3]]])
    })
  })

  test('200 seeded bit flips: confirmed rows are the documented ones or the probe fails typed; 0 false negatives', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    const pages = await withFile(original, { decryption: KEYS }, async (file) => pageModules(original, file, 'double_field'))
    const values = range(2000, (i) => i + 0.5)
    let seed = 0xc0ffee
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    const outcomes = { error: 0, answered: 0 }
    for (let k = 0; k < 200; k++) {
      const bytes = original.slice()
      // Half the flips land in double_field's data pages, the rest anywhere.
      const at = k % 2 ? Math.floor(random() * bytes.length) : pages[0].header + Math.floor(random() * (pages[2].end - pages[0].header))
      bytes[at] ^= 1 << Math.floor(random() * 8)
      try {
        await withFile(bytes, { decryption: KEYS }, async (file) => {
          const result = await file.probe('double_field', values, { confirm: true })
          result.rowGroups[0].results.forEach((r, i) => {
            assert.notEqual(r.verdict, 'absent', `flip ${k} at ${at}: stored ${values[i]} answered absent`)
            if (r.verdict === 'present') assert.deepEqual(r.rows, [i], `flip ${k} at ${at}`)
          })
        })
        outcomes.answered++
        assert.ok(k % 2 === 1, `flip ${k} at ${at}, inside a data page module, went unnoticed`)
      } catch (error) {
        if (error?.name !== 'ParquetBloomError') throw error
        outcomes.error++
      }
    }
    assert.ok(outcomes.error >= 100, JSON.stringify(outcomes))
  })
})

/** A column's data pages in the file, found by walking the modules' length prefixes from its first data page. */
function pageModules(bytes, file, column) {
  const c = file.layout.columns.findIndex((x) => x.name === column)
  const record = chunk(file.layout, 0, c)
  let at = record.dataPageOffset
  const end = at + record.totalCompressedSize
  const length = (offset) => new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0, true)
  const pages = []
  while (at < end) {
    const page = at + 4 + length(at)
    const next = page + 4 + length(page)
    pages.push({ header: at, page, end: next })
    at = next
  }
  return pages
}

describe('external key material (parquet-java key tools)', () => {
  const FILE = 'parquet-testing/external_key_material_java.parquet.encrypted'
  const MATERIAL = 'parquet-testing/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json'
  test('a keyRetriever that unwraps the double-wrapped keys of the key material file opens it', { skip: missingFixture(FILE) || missingFixture(MATERIAL) }, async () => {
    // The test KMS (parquet-java InMemoryKMS, Arrow TestOnlyInServerWrapKms): master keys kf, kc1, kc2;
    // KEK = GCM-unwrap(master key, wrappedKEK, AAD = master key id), DEK = GCM-unwrap(KEK, wrappedDEK, AAD = KEK id).
    const material = JSON.parse(await readFile(fixturePath(MATERIAL), 'utf8'))
    const masterKeys = { kf: FOOTER_KEY, kc1: KEYS.columnKeys.double_field, kc2: KEYS.columnKeys.float_field }
    const { subtle } = webcrypto
    const utf8 = new TextEncoder()
    const base64 = (text) => Uint8Array.from(Buffer.from(text, 'base64'))
    const unwrap = async (key, wrapped, aad) => new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv: wrapped.subarray(0, 12), additionalData: aad },
      await subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']), wrapped.subarray(12)))
    const references = []
    const keyRetriever = async (keyMetadata) => {
      const { keyReference } = JSON.parse(new TextDecoder().decode(keyMetadata))
      references.push(keyReference)
      const entry = JSON.parse(material[keyReference])
      const kek = await unwrap(utf8.encode(masterKeys[entry.masterKeyID]), base64(entry.wrappedKEK), utf8.encode(entry.masterKeyID))
      return unwrap(kek, base64(entry.wrappedDEK), base64(entry.keyEncryptionKeyID))
    }
    await withFile(fixturePath(FILE), { decryption: { keyRetriever } }, async (file) => {
      assert.equal(file.metadata.numRows, 100)
      assert.deepEqual(file.layout.columns.map((c) => c.name), ['integers', 'strings'])
      assert.ok(file.metadata.rowGroups[0].columns.every((c) => c.indexes.statistics.usable))
      assert.equal(verdicts(await file.probe('integers', [-1e9]))[0], 'absent')
    })
    assert.deepEqual(references.sort(), ['columnKey0', 'columnKey1', 'footerKey'])
  })
})

describe('an encrypted filter without bloom_filter_length', () => {
  // Two modules at offset 100: a 40-byte header module and a 96-byte bitset module, each length-prefixed.
  const file = new Uint8Array(400)
  const view = new DataView(file.buffer)
  view.setUint32(100, 40, true)
  view.setUint32(144, 96, true)
  const lookup = (start, end) => (end <= file.length ? file.subarray(start, end) : null)
  const drive = (task) => {
    const asked = []
    for (let needs = task.step(() => null); needs; needs = task.step(lookup)) asked.push(...needs.map((n) => [n.start, n.end]))
    return asked
  }
  // The task comes from js/crypto/, which probing loads once a file is found encrypted.
  before(() => loadCrypto())

  test('reads the header module\'s length, then both modules whole, each ending where its length says', () => {
    let got
    const asked = drive(encryptedFilterTask({ offset: 100, length: undefined, bound: 300 }, 'f', (m) => { got = m }))
    assert.deepEqual(asked[0], [100, 104])
    assert.deepEqual([got.header.length, got.bitset.length, got.error], [44, 100, undefined])
  })

  test('a module length past the next structure is DECRYPTION_FAILED, before any read of it', () => {
    let got
    drive(encryptedFilterTask({ offset: 100, length: undefined, bound: 200 }, 'f', (m) => { got = m }))
    assert.equal(got.error.code, ErrorCode.DECRYPTION_FAILED)
    assert.match(got.error.message, /bloom filter bitset/)
    view.setUint32(100, 0xfffffff0, true)
    drive(encryptedFilterTask({ offset: 100, length: undefined, bound: 300 }, 'f', (m) => { got = m }))
    assert.match(got.error.message, /bloom filter header/)
    view.setUint32(100, 40, true)
  })
})

describe('missing keys', () => {
  test('an encrypted footer without its footer key is ENCRYPTION_KEY_REQUIRED, with or without options.decryption', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE)), ErrorCode.ENCRYPTION_KEY_REQUIRED, /decryption/)
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE), { decryption: { columnKeys: KEYS.columnKeys } }), ErrorCode.ENCRYPTION_KEY_REQUIRED, /footerKey/)
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE), { decryption: { keyRetriever: () => undefined } }), ErrorCode.ENCRYPTION_KEY_REQUIRED, /footer/)
  })

  test('a missing column key: that column answers unknown (no-key), the other columns still answer', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await withFile(fixturePath(BLOOM_FILE), { decryption: { footerKey: FOOTER_KEY, columnKeys: { float_field: KEYS.columnKeys.float_field } } }, async (file) => {
      const double = await file.probe('double_field', [0.5, 1e9])
      assert.deepEqual(double.rowGroups[0].results.map((r) => [r.verdict, r.reason]), [['unknown', 'no-key'], ['unknown', 'no-key']])
      assert.match(double.rowGroups[0].results[0].detail, /double_field/)
      assert.deepEqual(verdicts(await file.probe('float_field', [0.25, 1e9])), ['maybe', 'absent'])
      assert.deepEqual(verdicts(await file.probe('int32_field', [5, 5000])), ['maybe', 'absent'])
    })
  })

  test('a file whose AAD prefix is not stored needs decryption.aadPrefix', { skip: missingFixture('parquet-testing/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted') }, async () => {
    await assertRejectsWith(openParquet(fixturePath('parquet-testing/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted'), { decryption: KEYS }),
      ErrorCode.ENCRYPTION_KEY_REQUIRED, /aadPrefix/)
  })

  test('a plaintext footer without keys: encrypted columns stay unknown, plaintext ones answer', { skip: missingFixture(PLAINTEXT_FOOTER_FILE) }, async () => {
    await withFile(fixturePath(PLAINTEXT_FOOTER_FILE), {}, async (file) => {
      assert.equal(file.metadata.rowGroups[0].columns.find((c) => c.path === 'double_field').indexes.statistics.usable, false)
      const int32 = verdicts(await file.probe('int32_field', [3, 500]))
      assert.ok(['present', 'maybe'].includes(int32[0]), int32[0])
      assert.equal(int32[1], 'absent')
      const double = await file.probe('double_field', [1.1111111])
      assert.equal(double.rowGroups[0].results[0].verdict, 'unknown')
    })
    await withFile(fixturePath(PLAINTEXT_FOOTER_FILE), { decryption: { footerKey: FOOTER_KEY } }, async (file) => {
      const double = await file.probe('double_field', [1.1111111])
      assert.deepEqual(double.rowGroups[0].results.map((r) => r.reason), ['no-key'])
    })
  })
})

describe('wrong keys and tampered bytes: DECRYPTION_FAILED, naming the module, never a verdict', () => {
  test('a wrong footer key, a wrong column key, a wrong AAD prefix', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE), { decryption: { ...KEYS, footerKey: 'ffffffffffffffff' } }), ErrorCode.DECRYPTION_FAILED, /footer/)
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE), { decryption: { ...KEYS, columnKeys: { ...KEYS.columnKeys, double_field: 'ffffffffffffffff' } } }),
      ErrorCode.DECRYPTION_FAILED, /row group 0, column double_field: column metadata/)
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE), { decryption: { ...KEYS, aadPrefix: 'tester' } }), ErrorCode.DECRYPTION_FAILED, /footer/)
    await assertRejectsWith(openParquet(fixturePath('parquet-testing/encrypt_columns_and_footer_aad.parquet.encrypted'), { decryption: { ...KEYS, aadPrefix: 'tester2' } }),
      ErrorCode.DECRYPTION_FAILED, /footer/)
    await assertRejectsWith(openParquet(fixturePath(BLOOM_FILE), { decryption: { ...KEYS, footerKey: 'bad-key-012345678' } }), ErrorCode.INVALID_ARGUMENT, /16, 24 or 32 bytes/)
    await assertRejectsWith(openParquet(fixturePath(PLAINTEXT_FOOTER_FILE), { decryption: { ...KEYS, footerKey: 'ffffffffffffffff' } }), ErrorCode.DECRYPTION_FAILED, /footer signature/)
  })

  test('a flipped bit in the footer, the footer signature, each bloom module; truncated and lying module lengths', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    const { offset, length } = await withFile(original, { decryption: KEYS }, async (file) => file.metadata.rowGroups[0].columns[0].bloom)
    const headerModule = new DataView(original.buffer, original.byteOffset + offset, 4).getUint32(0, true)
    const footerLength = new DataView(original.buffer, original.byteOffset + original.length - 8, 4).getUint32(0, true)
    const edit = (f) => { const copy = original.slice(); f(copy, new DataView(copy.buffer)); return copy }
    await assertRejectsWith(openParquet(edit((b) => { b[b.length - 8 - 100] ^= 1 }), { decryption: KEYS }), ErrorCode.DECRYPTION_FAILED, /footer/)
    await assertRejectsWith(openParquet(edit((b) => { b[b.length - 8 - footerLength + 40] ^= 0x10 }), { decryption: KEYS }), ErrorCode.DECRYPTION_FAILED, /footer/)
    const cases = [
      ['header ciphertext', (b) => { b[offset + 4 + 12 + 3] ^= 1 }, /double_field: bloom filter header/],
      ['header tag', (b) => { b[offset + 4 + headerModule - 1] ^= 0x80 }, /double_field: bloom filter header/],
      ['header nonce', (b) => { b[offset + 5] ^= 1 }, /double_field: bloom filter header/],
      ['bitset ciphertext', (b) => { b[offset + 4 + headerModule + 4 + 12 + 1000] ^= 4 }, /double_field: bloom filter bitset/],
      ['bitset tag', (b) => { b[offset + length - 1] ^= 1 }, /double_field: bloom filter bitset/],
      ['header length says more', (b, v) => v.setUint32(offset, headerModule + 16, true), /double_field: bloom filter/],
      ['header length says less', (b, v) => v.setUint32(offset, headerModule - 16, true), /double_field: bloom filter/],
      ['bitset length says less', (b, v) => v.setUint32(offset + 4 + headerModule, 100, true), /double_field: bloom filter bitset/],
      ['header length below nonce + tag', (b, v) => v.setUint32(offset, 3, true), /double_field: bloom filter/],
    ]
    for (const [name, change, pattern] of cases) {
      await withFile(edit(change), { decryption: KEYS }, async (file) => {
        for (const mode of ['auto', 'block']) {
          await assertRejectsWith(file.probe('double_field', range(50, (i) => i + 0.5), { mode }), ErrorCode.DECRYPTION_FAILED, pattern).catch((e) => { throw new Error(`${name} ${mode}: ${e.message}`) })
        }
        // The other encrypted column is untouched and still answers.
        assert.equal(verdicts(await file.probe('float_field', [0.25]))[0], 'maybe', name)
      })
    }
  })

  test('a plaintext footer altered after signing: refused with the footer key, read without it', { skip: missingFixture(PLAINTEXT_FOOTER_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(PLAINTEXT_FOOTER_FILE)))
    const at = Buffer.from(original).lastIndexOf('parquet-cpp-arrow')
    assert.ok(at > 0)
    const tampered = original.slice()
    tampered[at] = 'P'.charCodeAt(0)
    await assertRejectsWith(openParquet(tampered, { decryption: KEYS }), ErrorCode.DECRYPTION_FAILED, /footer signature/)
    await withFile(tampered, {}, async (file) => assert.equal(file.metadata.createdBy.slice(0, 7), 'Parquet'))
  })

  test('a plaintext footer is verified with the key a keyRetriever gives for its footer_signing_key_metadata (kf)', { skip: missingFixture(PLAINTEXT_FOOTER_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(PLAINTEXT_FOOTER_FILE)))
    const byId = { kf: FOOTER_KEY, kc1: KEYS.columnKeys.double_field, kc2: KEYS.columnKeys.float_field }
    const asked = []
    const keyRetriever = (metadata) => { const id = Buffer.from(metadata).toString(); asked.push(id); return byId[id] }
    await withFile(original, { decryption: { keyRetriever } }, async (file) => assert.deepEqual(verdicts(await file.probe('int32_field', [20])), ['maybe']))
    assert.ok(asked.includes('kf'), `asked for ${asked}`)
    // int32_field (plaintext, i at row i) has max 49 in its Statistics (fields 1 and 5): both altered to 10 after signing.
    const tampered = original.slice()
    const footerLength = new DataView(original.buffer, original.byteOffset + original.length - 8, 4).getUint32(0, true)
    let edits = 0
    for (let i = original.length - 8 - footerLength; i < original.length - 8; i++) {
      if (original[i] === 0x04 && original[i + 1] === 49 && original[i + 2] === 0 && original[i + 3] === 0 && original[i + 4] === 0) {
        tampered[i + 1] = 10
        edits++
      }
    }
    assert.equal(edits, 2)
    // Unverified, the altered bounds would rule out the stored 20 (absent, out-of-range): the signature catches it.
    await assertRejectsWith(openParquet(tampered, { decryption: { keyRetriever } }), ErrorCode.DECRYPTION_FAILED, /footer signature/)
    await assertRejectsWith(openParquet(tampered, { decryption: KEYS }), ErrorCode.DECRYPTION_FAILED, /footer signature/)
  })

  test('a plaintext footer whose RowGroup.ordinal is no 16-bit ordinal, read with column keys only: DECRYPTION_FAILED, not a RangeError', { skip: missingFixture(PLAINTEXT_FOOTER_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(PLAINTEXT_FOOTER_FILE)))
    const footerLength = new DataView(original.buffer, original.byteOffset + original.length - 8, 4).getUint32(0, true)
    const start = original.length - 8 - footerLength
    // The row group's last field, ordinal (field 7, i16, zigzag 0), then its struct's stop: the only 14 00 00 of the footer.
    const hits = []
    for (let i = start; i < original.length - 8 - 28; i++) if (original[i] === 0x14 && original[i + 1] === 0 && original[i + 2] === 0) hits.push(i)
    assert.equal(hits.length, 1)
    const tampered = original.slice()
    tampered[hits[0] + 1] = 0x01 // zigzag -1: no writer makes it, and without the footer key nothing authenticates the footer
    const { footerKey, ...columnKeysOnly } = KEYS
    assert.ok(footerKey)
    await assertRejectsWith(openParquet(tampered, { decryption: columnKeysOnly }), ErrorCode.DECRYPTION_FAILED, /row group -1, column (double|float)_field/)
    await assertRejectsWith(openParquet(tampered, { decryption: KEYS }), ErrorCode.DECRYPTION_FAILED, /footer signature/)
  })

  test('visitBloomFilter and inspection read an encrypted filter whole, decrypted; without its key it is refused', { skip: missingFixture(BLOOM_FILE) }, async () => {
    await withFile(fixturePath(BLOOM_FILE), { decryption: KEYS }, async (file) => {
      const hits = await file.visitBloomFilter(0, 'double_field', (filter) => filter.check(range(2000, (i) => i + 0.5), 'DOUBLE'))
      assert.ok(hits.every((h) => h === 1))
      const parts = await file.readBloomFilterParts(0, 'float_field')
      assert.equal(parts.error, undefined)
      assert.equal(parts.header.numBytes, 2048)
    })
    await withFile(fixturePath(BLOOM_FILE), { decryption: { footerKey: FOOTER_KEY } }, async (file) => {
      await assert.rejects(file.visitBloomFilter(0, 'double_field', () => {}), (e) => e.code === ErrorCode.ENCRYPTION_KEY_REQUIRED && e.reason === 'no-key')
    })
  })
})

describe('CLI keys', () => {
  const cli = (args, env = {}) => runCli(args, { env })

  test('--footer-key / --column-key, environment variables and --key-file; keys never in the output', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const file = fixturePath(BLOOM_FILE)
    let r = await cli(['probe', file, '-c', 'double_field', '-v', '0.5', '-v', '3', '--json', '--footer-key', FOOTER_KEY, '--column-key', `double_field=${KEYS.columnKeys.double_field}`])
    assert.equal(r.code, 0, r.stderr)
    const [result] = JSON.parse(r.stdout).files
    assert.deepEqual(result.rowGroups[0].results.map((x) => x.verdict), ['maybe', 'absent'])
    r = await cli(['probe', file, '-c', 'float_field', '-v', '0.25'], { PARQUET_BLOOM_FOOTER_KEY: FOOTER_KEY, PARQUET_BLOOM_COLUMN_KEYS: `float_field=${KEYS.columnKeys.float_field}` })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /0\.25: maybe/)
    const keyFile = path.join(dir, 'keys.json')
    await writeFile(keyFile, JSON.stringify({ footerKey: FOOTER_KEY, columnKeys: { double_field: KEYS.columnKeys.double_field } }))
    r = await cli(['inspect', file, '--key-file', keyFile])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /double_field +DOUBLE +29667 +2212 +16/)
    for (const args of [['--column-key', 'double_field=ffffffffffffffff', '--debug'], ['--column-key', 'double_field=bad-key-012345678']]) {
      r = await cli(['probe', file, '-c', 'double_field', '-v', '1', '--footer-key', FOOTER_KEY, ...args])
      assert.equal(r.code, 2)
      assert.match(r.stderr, /DECRYPTION_FAILED|cannot decrypt|16, 24 or 32/)
      assertNoSecrets(r.stdout + r.stderr)
    }
    r = await cli(['probe', file, '-c', 'double_field', '-v', '1'])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /encrypted/)
  })
})

describe('seeded bit flips anywhere in an encrypted file', () => {
  test('300 flips of the bloom filter file: a typed error or verdicts with 0 false negatives', { skip: missingFixture(BLOOM_FILE) }, async () => {
    const original = new Uint8Array(await readFile(fixturePath(BLOOM_FILE)))
    const present = { double_field: range(2000, (i) => i + 0.5), float_field: range(2000, (i) => i + 0.25) }
    let seed = 0x5eed
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    const outcomes = { error: 0, answered: 0 }
    const footerLength = new DataView(original.buffer, original.byteOffset + original.length - 8, 4).getUint32(0, true)
    // Modules these probes read, all GCM-authenticated: the footer module (after the 20-byte
    // FileCryptoMetaData, whose key metadata is not authenticated and unused with explicit keys), both
    // filters, both page indexes (column indexes at 28894 and 29026, offset indexes at 29324 and 29456).
    const authenticated = [[original.length - 8 - footerLength + 20, original.length - 8], [29667, 29667 + 2212], [31879, 31879 + 2212],
      [28894, 28894 + 132], [29026, 29026 + 132], [29324, 29324 + 132], [29456, 29456 + 132]]
    for (let k = 0; k < 300; k++) {
      const bytes = original.slice()
      const at = Math.floor(random() * bytes.length)
      bytes[at] ^= 1 << Math.floor(random() * 8)
      const mustFail = authenticated.some(([start, end]) => at >= start && at < end)
      try {
        await withFile(bytes, { decryption: KEYS }, async (file) => {
          for (const [column, values] of Object.entries(present)) {
            const result = await file.probe(column, values, { pageIndex: true, dictionary: true })
            assert.ok(result.rowGroups[0].results.every((r) => r.verdict !== 'absent'), `flip ${k}: a stored ${column} value answered absent`)
          }
        })
        outcomes.answered++
        assert.ok(!mustFail, `flip ${k} at ${at}, inside an authenticated module, went unnoticed`)
      } catch (error) {
        if (error?.name !== 'ParquetBloomError') throw error
        outcomes.error++
      }
    }
    assert.ok(outcomes.error > 20, JSON.stringify(outcomes))
  })
})

describe('DuckDB-written encrypted files', () => {
  /** A DuckDB connection that writes and reads encrypted Parquet with key 'k' = FOOTER_KEY. */
  async function withEncryptingDuckDB(fn) {
    return withDuckDB(async (connection) => {
      await connection.run("SET force_mbedtls_unsafe = 'true'")
      await connection.run(`PRAGMA add_parquet_key('k', '${FOOTER_KEY}')`)
      return await fn(connection)
    })
  }

  test('footer-key files from DuckDB: statistics probes agree with what DuckDB reads back; a wrong key fails', async () => {
    await withEncryptingDuckDB(async (connection) => {
      const target = path.join(dir, 'duck-encrypted.parquet')
      await connection.run(`COPY (SELECT i * 3 AS id, 'v' || (i % 50) AS name FROM range(6000) t(i)) TO '${target}' (ENCRYPTION_CONFIG {footer_key: 'k'}, ROW_GROUP_SIZE 2048)`)
      const read = await connection.runAndReadAll(`SELECT id FROM read_parquet('${target}', encryption_config={footer_key: 'k'}) ORDER BY id`)
      const ids = read.getRows().map(([id]) => id)
      assert.equal(ids.length, 6000)
      await withFile(target, { decryption: { footerKey: FOOTER_KEY } }, async (file) => {
        const result = await file.probe('id', ids)
        // Every id DuckDB reads back is kept by at least the row group whose range holds it.
        const kept = ids.map((_, k) => result.rowGroups.some((g) => g.results[k].verdict !== 'absent'))
        assert.ok(kept.every(Boolean), 'a stored id is absent everywhere')
        const outside = await file.probe('id', [-3n, 18000n, 18003n])
        assert.ok(verdicts(outside).every((v) => v === 'absent'))
        // Every chunk of a DuckDB file is encrypted: the dictionaries are decrypted (DuckDB's page headers
        // count the plaintext in compressed_page_size), never read as plaintext.
        const name = await file.probe('name', ['v1', 'nope'], { statistics: false })
        assert.deepEqual(name.rowGroups.map((g) => g.results.map((r) => [r.verdict, r.source])), name.rowGroups.map(() => [['present', 'dictionary'], ['absent', 'dictionary']]))
      })
      await assertRejectsWith(openParquet(target, { decryption: { footerKey: 'ffffffffffffffff' } }), ErrorCode.DECRYPTION_FAILED, /footer/)
      await assertRejectsWith(openParquet(target), ErrorCode.ENCRYPTION_KEY_REQUIRED)
    })
  })

  test('exact lookups of DuckDB-encrypted files: rows as DuckDB reads them back (file_row_number), sorted, shuffled and dictionary columns', async () => {
    await withEncryptingDuckDB(async (connection) => {
      const target = path.join(dir, 'duck-encrypted-confirm.parquet')
      await connection.run(`COPY (SELECT i * 3 AS id, 'v' || (i % 50) AS name, (i * 7919) % 6000 AS shuffled FROM range(6000) t(i))
        TO '${target}' (ENCRYPTION_CONFIG {footer_key: 'k'}, ROW_GROUP_SIZE 2048)`)
      const rowsIn = async (where) => (await connection.runAndReadAll(`SELECT file_row_number FROM read_parquet('${target}', encryption_config={footer_key: 'k'}, file_row_number = true)
        WHERE ${where} ORDER BY file_row_number`)).getRows().map(([row]) => Number(row))
      await withFile(target, { decryption: { footerKey: FOOTER_KEY } }, async (file) => {
        const cases = [
          ['id', [0n, 3n, 6150n, 17997n, 4n], ['id = 0', 'id = 3', 'id = 6150', 'id = 17997', 'id = 4']],
          ['shuffled', [0n, 1919n, 5999n, 6000n], ['shuffled = 0', 'shuffled = 1919', 'shuffled = 5999', 'shuffled = 6000']],
          ['name', ['v1', 'v49', 'v50'], ["name = 'v1'", "name = 'v49'", "name = 'v50'"]],
        ]
        for (const [column, values, wheres] of cases) {
          for (const pageIndex of [true, false]) {
            const result = await file.probe(column, values, { confirm: true, pageIndex, maxRows: 10000 })
            for (let k = 0; k < values.length; k++) {
              const expected = await rowsIn(wheres[k])
              const got = result.rowGroups.flatMap((g) => g.results[k].rows ?? [])
              assert.deepEqual(got, expected, `${column} ${values[k]}`)
              // Each row group is decided: present with rows, or absent.
              assert.ok(result.rowGroups.every((g) => ['present', 'absent'].includes(g.results[k].verdict)), `${column} ${values[k]}: ${JSON.stringify(result.rowGroups.map((g) => g.results[k].reason))}`)
            }
          }
        }
        assert.deepEqual(await rowsIn("name = 'v1'"), range(120, (j) => 1 + 50 * j)) // the SQL's formula, for the record
      })
    })
  })
})
