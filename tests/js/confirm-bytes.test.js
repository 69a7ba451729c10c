// Exact lookups on PLAIN BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY pages matched in place (js/pages/plain-binary-page.js,
// js/pages/plain-binary-scan.js) against independent truth: on pages written by hyparquet-writer (v2 pages,
// SNAPPY and uncompressed) and DuckDB (v1 pages, nulls, lists, UUIDs), the in-place hits and levels equal
// those of hyparquet's own page decode, and whole probes find exactly the rows hyparquet's full read
// (parquetReadObjects) and the writers' row formulas hold. Hostile sections (truncated, a length past
// the end) throw PageDecodeError, and a probe then keeps 'maybe' (confirm-failed), never a wrong answer.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { ensureColumnIndexes } from '../../js/footer/chunk-indexes.js'
import { CandidateMatcher } from '../../js/confirm/confirm-match.js'
import { chunk as chunkRecord } from '../../js/footer/records.js'
import { openParquet } from '../../js/index.js'
import { columnDecoder, decodePageAt, PageDecodeError } from '../../js/pages/page-decode.js'
import { chunkByteRange } from '../../js/indexes/page-index.js'
import * as scan from '../../js/pages/plain-binary-scan.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const ROWS = 12000
const utf8 = new TextEncoder()

/** Row i's string: nulls, empty strings, one byte, non-ASCII, long (some over 4 KiB), and repeated short keys. */
function stringOf(i) {
  if (i % 13 === 0) return null
  if (i % 17 === 0) return ''
  if (i % 97 === 0) return 'L'.repeat(4100) + (i % 3)
  switch (i % 5) {
    case 1: return String.fromCharCode(97 + (i % 26))
    case 2: return `é${i % 100}ü—${i % 7}`
    case 3: return 'x'.repeat(60 + (i % 200)) + (i % 11)
    default: return `key-${i % 2000}`
  }
}

/** A 16-byte id of row i: 600 distinct values sharing their first 12 bytes. */
function uuidOf(i) {
  const bytes = new Uint8Array(16).fill(0xab)
  new DataView(bytes.buffer).setUint32(12, (i * 7) % 600)
  return bytes
}

// Probed: values of every kind above, present and absent, several of one length (chained keys).
const STRING_PROBES = ['', 'a', 'z', 'é7ü—0', 'é99ü—6', 'x'.repeat(60 + 3) + '3', 'x'.repeat(60 + 3) + '4', 'key-4', 'key-1995', 'key-2000',
  'key-9', 'L'.repeat(4100) + '0', 'L'.repeat(4100) + '7', 'L'.repeat(5000), 'missing', 'é', 'ke', 'y-4']

const dir = await tempDir('confirm-bytes')
const files = {}
before(async () => {
  const rows = Array.from({ length: ROWS }, (_, i) => i)
  const columnData = [
    { name: 's', data: rows.map(stringOf), type: 'STRING', encoding: 'PLAIN' },
    { name: 'u', data: rows.map(uuidOf), type: 'UUID', encoding: 'PLAIN', nullable: false },
  ]
  for (const codec of ['SNAPPY', 'UNCOMPRESSED']) {
    files[`hyparquet-writer ${codec}`] = new Uint8Array(parquetWriteBuffer({ codec, rowGroupSize: 5000, pageSize: 8192, columnData }))
  }
  const file = path.join(dir, 'duckdb.parquet')
  await withDuckDB(async (conn) => {
    // Unique strings and uuids: DuckDB writes them PLAIN (a dictionary would not pay).
    await conn.run(`COPY (SELECT
        CASE WHEN i % 13 = 0 THEN NULL WHEN i % 17 = 0 THEN '' WHEN i % 5 = 1 THEN chr((97 + i % 26)::INTEGER)
             WHEN i % 5 = 2 THEN 'é' || i || 'ü' ELSE repeat('y', i % 300) || i END AS s,
        CASE WHEN i % 11 = 0 THEN NULL ELSE ['p' || i, '', 'q' || (i * 7)] END AS list,
        md5(i::VARCHAR)::UUID AS u
      FROM range(${ROWS}) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 4096)`)
  })
  files.duckdb = new Uint8Array(await readFile(file))
})

/** A matcher for `candidates`, each its own value. */
function matcherOf(physicalType, candidates) {
  const n = candidates.length
  return new CandidateMatcher(physicalType, candidates, new Int32Array(n).map((_, k) => k), new Uint8Array(n).fill(1))
}

/**
 * Decodes every page of every row group's chunk of `columnName` both ways — in place, and with hyparquet's
 * readPlain — and asserts equal levels and hits. Returns how many pages went the in-place way and how many hits they had.
 */
async function comparePages(bytes, columnName, candidates) {
  const file = await openParquet(bytes)
  let inPlace = 0
  let hits = 0
  try {
    const { layout } = file
    const column = file.column(columnName)
    ensureColumnIndexes(layout, column.index)
    const matcher = matcherOf(column.physicalType, candidates)
    for (let g = 0; g < layout.rowGroupRows.length; g++) {
      const { codec } = chunkRecord(layout, g, column.index)
      const fast = await columnDecoder(layout, column, codec)
      // The same decoder without value sections: every page through hyparquet's readDataPage(V2).
      const slow = { ...fast, plainBinaryWidth: undefined }
      const { chunkStart, chunkEnd } = chunkByteRange(layout, g, column.index)
      const chunk = bytes.subarray(chunkStart, chunkEnd)
      for (let at = 0; at < chunk.length;) {
        const a = await decodePageAt(chunk, at, chunk.length, fast)
        const b = await decodePageAt(chunk, at, chunk.length, slow)
        assert.equal(a.next, b.next)
        assert.equal(a.page.kind, b.page.kind)
        assert.equal(b.page.plainBinary, undefined)
        if (a.page.kind === 'data' && a.page.plainBinary) {
          const where = `${columnName}, row group ${g}, page at ${at}`
          inPlace++
          assert.equal(a.page.numLevels, b.page.numLevels, where)
          assert.deepEqual(Array.from(a.page.definitionLevels), Array.from(b.page.definitionLevels), where)
          assert.deepEqual(Array.from(a.page.repetitionLevels), Array.from(b.page.repetitionLevels), where)
          const got = matcher.scanPlainBinary(a.page.plainBinary, scan)
          assert.deepEqual(got, matcher.scan(b.page.values), where)
          hits += got.filter((h) => h >= 0).length
        }
        at = a.next
      }
    }
  } finally {
    await file.close()
  }
  return { inPlace, hits }
}

/** Per probed value, the rows (ascending) whose cell equals it (a list's cell: any element), from `cells`. */
function rowsHolding(cells, value, equal) {
  const rows = []
  cells.forEach((cell, row) => {
    if (cell === null || cell === undefined) return
    if (Array.isArray(cell) ? cell.some((e) => e !== null && equal(e, value)) : equal(cell, value)) rows.push(row)
  })
  return rows
}

/** Probes with confirm and returns, per value, every row found; asserts nothing was left unconfirmed. */
async function confirmedRows(bytes, column, values) {
  const file = await openParquet(bytes)
  try {
    const result = await file.probe(column, values, { confirm: true, maxConfirmBytes: 64 * 1024 * 1024, maxRows: 1e9 })
    return values.map((value, v) => {
      const rows = []
      for (const g of result.rowGroups) {
        const r = g.results[v]
        assert.ok(r.source === 'data-pages' || r.verdict === 'absent', `${column} ${String(value).slice(0, 20)}: row group ${g.index} ${r.verdict} ${r.reason}: ${r.detail}`)
        if (r.rows) rows.push(...r.rows)
      }
      return rows
    })
  } finally {
    await file.close()
  }
}

const sameString = (a, b) => a === b
const sameBytes = (a, b) => a.length === b.length && a.every((x, j) => x === b[j])

describe('confirm on PLAIN byte-array pages, in place: the same hits as hyparquet\'s decode', () => {
  for (const name of ['hyparquet-writer SNAPPY', 'hyparquet-writer UNCOMPRESSED']) {
    test(`${name} (v2 pages): strings of many lengths, nulls; 16-byte UUIDs`, async () => {
      const strings = await comparePages(files[name], 's', STRING_PROBES)
      assert.ok(strings.inPlace >= 5 && strings.hits > 100, JSON.stringify(strings))
      const uuids = await comparePages(files[name], 'u', [uuidOf(5), uuidOf(599), new Uint8Array(16), new Uint8Array(15).fill(0xab), uuidOf(0).subarray(0, 12)])
      assert.ok(uuids.inPlace >= 3 && uuids.hits > 10, JSON.stringify(uuids))
    })
  }

  test('DuckDB (v1 pages): strings with nulls, a list of strings (repetition levels), UUIDs', async () => {
    const bytes = files.duckdb
    const strings = await comparePages(bytes, 's', ['', 'a', 'é2ü', 'é7ü', 'y'.repeat(3) + '3', 'y'.repeat(299) + '299', 'nope', 'y'])
    assert.ok(strings.inPlace >= 3 && strings.hits > 100, JSON.stringify(strings))
    const file = await openParquet(bytes)
    const listLeaf = file.layout.columns.find((c) => c.path[0] === 'list').path
    await file.close()
    const lists = await comparePages(bytes, listLeaf, ['', 'p7', 'q49', 'p11', 'q0', 'r1'])
    assert.ok(lists.inPlace >= 3 && lists.hits > 1000, JSON.stringify(lists))
    const truth = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), columns: ['u'], utf8: false })
    const someUuid = (row) => uuidBytes(truth[row].u)
    const uuids = await comparePages(bytes, 'u', [someUuid(3), someUuid(ROWS - 1), new Uint8Array(16)])
    assert.ok(uuids.inPlace >= 3 && uuids.hits === 2, JSON.stringify(uuids))
  })
})

/** hyparquet reads a UUID as its canonical string: back to its 16 bytes. */
function uuidBytes(value) {
  if (value instanceof Uint8Array) return value
  return Uint8Array.from(value.replace(/-/g, '').match(/../g), (h) => parseInt(h, 16))
}

describe('confirm on PLAIN byte-array pages: whole probes equal hyparquet\'s full read', () => {
  for (const name of ['hyparquet-writer SNAPPY', 'duckdb']) {
    test(`${name}: strings, and a list of strings`, async () => {
      const bytes = files[name]
      const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      const columns = name === 'duckdb' ? ['s', 'list'] : ['s']
      const read = await parquetReadObjects({ file: arrayBuffer, columns })
      const probes = name === 'duckdb' ? ['', 'a', 'é2ü', 'é7ü', 'y'.repeat(3) + '3', 'nope'] : STRING_PROBES
      const got = await confirmedRows(bytes, 's', probes)
      probes.forEach((value, v) => {
        const truth = rowsHolding(read.map((r) => r.s), value, sameString)
        assert.deepEqual(got[v], truth, `s ${JSON.stringify(value.slice(0, 20))}`)
        if (name !== 'duckdb') assert.deepEqual(truth, rowsHolding(Array.from({ length: ROWS }, (_, i) => stringOf(i)), value, sameString), 'the formula agrees')
      })
      assert.ok(got.some((rows) => rows.length > 0) && got.some((rows) => rows.length === 0))
      if (name === 'duckdb') {
        const listProbes = ['', 'p7', 'q49', 'p11', 'r1']
        const listRows = await confirmedRows(bytes, ['list', 'list', 'element'], listProbes)
        listProbes.forEach((value, v) => assert.deepEqual(listRows[v], rowsHolding(read.map((r) => r.list), value, sameString), `list ${value}`))
      }
    })
  }

  test('hyparquet-writer UUIDs (FIXED_LEN_BYTE_ARRAY(16)) by their bytes', async () => {
    const probes = [uuidOf(5), uuidOf(599), new Uint8Array(16)]
    const got = await confirmedRows(files['hyparquet-writer UNCOMPRESSED'], 'u', probes)
    const cells = Array.from({ length: ROWS }, (_, i) => uuidOf(i))
    probes.forEach((value, v) => assert.deepEqual(got[v], rowsHolding(cells, value, sameBytes)))
    assert.equal(got[0].length, ROWS / 600)
  })
})

/** A BYTE_ARRAY PLAIN section of `values` (strings). */
function section(values) {
  const parts = values.map((s) => utf8.encode(s))
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.length, 0))
  const view = new DataView(out.buffer)
  let at = 0
  for (const p of parts) {
    view.setUint32(at, p.length, true)
    out.set(p, at + 4)
    at += 4 + p.length
  }
  return out
}

describe('confirm on PLAIN byte-array pages: hostile sections', () => {
  // The matcher, as confirmations use it: scanPlainBinary with the scan module, throwing PageDecodeError.
  const matcher = matcherOf('BYTE_ARRAY', ['abc', '', 'é'])
  const hitsOf = (bytes, count) => Array.from(matcher.scanPlainBinary({ bytes, count, width: undefined }, scan))
  const fixed = matcherOf('FIXED_LEN_BYTE_ARRAY', [new Uint8Array(16)])

  test('a well-formed section finds its keys (and ignores bytes past the values, as hyparquet does)', () => {
    const bytes = section(['x', 'abc', '', 'é', 'abd', 'abc'])
    assert.deepEqual(hitsOf(bytes, 6), [-1, 0, 1, 2, -1, 0])
    assert.deepEqual(hitsOf(bytes, 3), [-1, 0, 1])
    assert.deepEqual(Array.from(fixed.scanPlainBinary({ bytes: new Uint8Array(33), count: 2, width: 16 }, scan)), [0, 0])
  })

  test('a truncated section (fewer values than the levels say) throws PageDecodeError', () => {
    const bytes = section(['x', 'abc', 'abc'])
    assert.throws(() => hitsOf(bytes, 4), PageDecodeError)
    assert.throws(() => hitsOf(bytes.subarray(0, bytes.length - 1), 3), PageDecodeError)
    assert.throws(() => hitsOf(bytes.subarray(0, bytes.length - 5), 3), PageDecodeError) // cut inside a length
    assert.throws(() => fixed.scanPlainBinary({ bytes: new Uint8Array(31), count: 2, width: 16 }, scan), PageDecodeError)
  })

  test('a length past the page end throws PageDecodeError, even for lengths no key has', () => {
    const bytes = section(['abc', 'x'])
    new DataView(bytes.buffer).setUint32(7, 0xfffffff0, true) // the second value's length
    assert.throws(() => hitsOf(bytes, 2), PageDecodeError)
    new DataView(bytes.buffer).setUint32(7, 2, true)
    assert.throws(() => hitsOf(bytes, 2), PageDecodeError)
  })

  test('in a file: a value length past its page keeps maybe (confirm-failed), never absent', async () => {
    // An uncompressed v2 page (hyparquet-writer writes no CRC): make its first value's length huge.
    const bytes = files['hyparquet-writer UNCOMPRESSED'].slice()
    const file = await openParquet(bytes)
    const { layout } = file
    const column = file.column('s')
    const { chunkStart } = chunkByteRange(layout, 0, column.index)
    await file.close()
    // Row 0 is null, row 1 'b': the section starts with [1,0,0,0]'b'. Find it after the page header and levels.
    const firstValue = bytes.indexOf(0x62, chunkStart) - 4
    assert.deepEqual(Array.from(bytes.subarray(firstValue, firstValue + 5)), [1, 0, 0, 0, 0x62])
    new DataView(bytes.buffer).setUint32(firstValue, 1 << 30, true)
    const edited = await openParquet(bytes)
    try {
      const result = await edited.probe('s', ['b', 'key-4'], { confirm: true })
      for (const r of result.rowGroups[0].results) {
        assert.notEqual(r.verdict, 'absent')
        assert.equal(r.reason, 'confirm-failed', r.detail)
        assert.match(r.detail, /claims 1073741824 bytes/)
      }
    } finally {
      await edited.close()
    }
  })
})
