// Sidecar indexes (js/sidecar/, js/index-builder/sidecar-build.js, docs/sidecar-index.md): one Puffin file for a dataset
// written at test time by DuckDB and hyparquet-writer. Every stored value (DuckDB's own read of each row
// group) is found; values known to be absent are ruled out at about the target rate; a probe of many
// files over HTTP takes two rounds of the index; a changed, gone or unindexed file answers stale-index,
// never absent; --update keeps what did not change; openParquet(…, { index }) uses it for files
// without filters and ignores it for files it no longer describes.
import assert from 'node:assert/strict'
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'

import { ErrorCode, init, openDataset, openParquet } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { openDuckDB } from '../../testkit/duckdb.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runCli } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'

const FILES = 30
const ROWS = 6000
const GROUP_ROWS = 2048
const dir = await tempDir('sidecar')
let data
let duck
let server
let indexPath

const rows = async (sql) => (await duck.connection.runAndReadAll(sql)).getRows()
const fileName = (f) => `part-${String(f).padStart(3, '0')}.parquet`
/** Row i of file f: ids are multiples of 3 (so 3k+1 is absent everywhere), names a per-file permutation. */
const writeFile_ = (f, target = path.join(data, fileName(f)), offset = 0) => duck.connection.run(`COPY (SELECT
    ((i + ${f * ROWS + offset}) * 3)::BIGINT AS id, 'user-' || ((i * 7919 + ${f}) % 100003) AS name,
    CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37 + ${f}) % 5000 END::INTEGER AS n, (i % 400) / 16 AS d
  FROM range(${ROWS}) t(i)) TO '${target}' (FORMAT parquet, ROW_GROUP_SIZE ${GROUP_ROWS})`)

before(async () => {
  await init()
  data = path.join(dir, 'data')
  await mkdir(data)
  duck = await openDuckDB()
  for (let f = 0; f < FILES; f++) await writeFile_(f)
  await settleMtimes(data)
  indexPath = path.join(data, '_index.puffin')
  const result = await buildSidecarIndex([data], indexPath, { format: 1, columns: ['id', 'name', 'n', 'd'] })
  assert.equal(result.files, FILES)
  assert.deepEqual(result.skipped, [])
  server = await startTestServer({ root: dir })
})

after(async () => {
  await server?.close()
  duck?.close()
})

describe('a sidecar index over a DuckDB dataset', () => {
  test('every stored value of every indexed column is found in its row group (0 false negatives)', async () => {
    const index = await openSidecarIndex(indexPath)
    try {
      for (const f of [0, 7, FILES - 1]) {
        const stored = await rows(`SELECT file_row_number // ${GROUP_ROWS} AS g, id, name, n, d FROM read_parquet('${path.join(data, fileName(f))}', file_row_number = true)`)
        for (const [column, k] of Object.entries({ id: 1, name: 2, n: 3, d: 4 })) {
          const values = [...new Set(stored.map((r) => r[k]).filter((v) => v !== null).map((v) => (typeof v === 'object' ? Number(v.toString()) : v)))]
          const result = await index.probe(column, values, { files: [fileName(f)] })
          const [file] = result.files
          assert.equal(file.current, true)
          for (const [i, v] of values.entries()) {
            const groups = new Set(stored.filter((r) => r[k] !== null && (typeof r[k] === 'object' ? Number(r[k].toString()) : r[k]) === v).map((r) => Number(r[0])))
            for (const g of groups) assert.notEqual(file.rowGroups[g].results[i].verdict, 'absent', `${fileName(f)}, ${column} = ${v}, row group ${g}`)
          }
        }
      }
    } finally {
      await index.close()
    }
  })

  test('values known to be absent are ruled out at about the target rate; bounds rule out the rest', async (t) => {
    const index = await openSidecarIndex(indexPath)
    try {
      const absent = Array.from({ length: 3000 }, (_, i) => BigInt((i * 61) * 3 + 1))
      const result = await index.probe('id', absent)
      let bloomAbsent = 0
      let bloomMaybe = 0
      for (const f of result.files) {
        for (const g of f.rowGroups) {
          for (const r of g.results) {
            assert.notEqual(r.verdict, 'unknown')
            if (r.source === 'bloom-filter') r.verdict === 'absent' ? bloomAbsent++ : bloomMaybe++
          }
        }
      }
      const rate = bloomMaybe / (bloomAbsent + bloomMaybe)
      assert.ok(bloomAbsent + bloomMaybe > 1000, 'enough values fall inside some chunk\'s bounds to measure')
      t.diagnostic(`measured false-positive rate ${rate} over ${bloomAbsent + bloomMaybe} absent (value, row group) pairs inside the bounds`)
      assert.ok(rate <= 0.01, `measured false-positive rate ${rate} at fpp 0.01`)
    } finally {
      await index.close()
    }
  })

  test('probing all files over HTTP takes two rounds of the index: the tail read, then one wave of blocks', async () => {
    const index = await openSidecarIndex(server.url(`data/_index.puffin`), { base: path.join(data, '/') })
    try {
      assert.equal(index.stats.rounds, 1, 'the tail read holds the footer and the directory')
      const before = index.stats.bytesFetched
      const result = await index.probe('name', ['user-1', 'user-7919', 'nobody'], { validate: false })
      assert.equal(result.files.length, FILES)
      assert.equal(index.stats.rounds, 2)
      const blockBytes = index.stats.bytesFetched - before
      assert.ok(blockBytes < 64 * 1024, `the blocks wave read ${blockBytes} bytes, not whole filters`)
      // More blocks than requests in flight (30 values × 30 files × 3 row groups): still one wave, one round.
      const many = Array.from({ length: 30 }, (_, i) => `user-${i * 3001}`)
      await index.probe('name', many, { validate: false })
      assert.equal(index.stats.rounds, 3)
      const found = result.files.filter((f) => f.rowGroups.some((g) => g.results[0].verdict !== 'absent'))
      assert.ok(found.length >= 1)
    } finally {
      await index.close()
    }
  })

  test('a changed, gone or unindexed file answers stale-index, never absent', async () => {
    const copy = path.join(dir, 'copy')
    await mkdir(copy)
    for (const f of [0, 1, 2]) await writeFile(path.join(copy, fileName(f)), await readFile(path.join(data, fileName(f))))
    const copyIndex = path.join(copy, '_index.puffin')
    await settleMtimes(copy)
    await buildSidecarIndex([copy], copyIndex, { format: 1, columns: ['id'] })
    await writeFile_(1, path.join(copy, fileName(1)), 1) // rewritten: other rows (DuckDB may give them the same size)
    await rm(path.join(copy, fileName(2)))
    const index = await openSidecarIndex(copyIndex)
    try {
      const result = await index.probe('id', [3n, 3n * BigInt(ROWS + 5)], { files: [fileName(0), fileName(1), fileName(2), 'elsewhere.parquet'] })
      const [current, changed, gone, missing] = result.files
      assert.equal(current.current, true)
      for (const f of [changed, gone, missing]) {
        assert.equal(f.current, false)
        for (const g of f.rowGroups) for (const r of g.results) assert.deepEqual([r.verdict, r.reason], ['unknown', 'stale-index'])
      }
      // Each says why, by a stable code: the rewritten file by its size if the file system shows another, else by its mtime.
      const sameSize = (await stat(path.join(copy, fileName(1)))).size === index.files.find((e) => e.path === fileName(1)).size
      assert.deepEqual([changed, gone, missing].map((f) => f.reason), [sameSize ? 'validator-differs' : 'size-differs', 'file-gone', 'missing-from-index'])
      // A caller's listing with another size is stale too.
      const listed = await index.probe('id', [3n], { files: [{ path: fileName(0), size: 1 }] })
      assert.equal(listed.files[0].rowGroups[0].results[0].reason, 'stale-index')
      assert.equal(listed.files[0].reason, 'size-differs')
    } finally {
      await index.close()
    }
  })

  test('update: new files are indexed, gone ones dropped, unchanged ones kept without reading them', async () => {
    const copy = path.join(dir, 'update')
    await mkdir(copy)
    for (const f of [0, 1, 2]) await writeFile(path.join(copy, fileName(f)), await readFile(path.join(data, fileName(f))))
    const target = path.join(copy, '_index.puffin')
    await settleMtimes(copy)
    await buildSidecarIndex([copy], target, { format: 1, columns: ['id'] })
    await rm(path.join(copy, fileName(2)))
    await writeFile(path.join(copy, fileName(3)), await readFile(path.join(data, fileName(3))))
    await settleMtimes(path.join(copy, fileName(3)))
    const result = await buildSidecarIndex([copy], target, { format: 1, columns: ['id'], update: target })
    assert.deepEqual({ files: result.files, rebuilt: result.rebuilt, kept: result.kept, dropped: result.dropped }, { files: 3, rebuilt: 1, kept: 2, dropped: 1 })
    const index = await openSidecarIndex(target)
    try {
      assert.deepEqual(index.files.map((f) => f.path), [fileName(0), fileName(1), fileName(3)])
      // The kept entries' bitsets were copied whole: their stored values are still found.
      const id = (f, i) => BigInt((f * ROWS + i) * 3)
      const probed = await index.probe('id', [id(0, 10), id(1, 5000), id(3, 4000)])
      assert.notEqual(probed.files[0].rowGroups[0].results[0].verdict, 'absent')
      assert.notEqual(probed.files[1].rowGroups[2].results[1].verdict, 'absent')
      assert.notEqual(probed.files[2].rowGroups[1].results[2].verdict, 'absent')
    } finally {
      await index.close()
    }
  })

  test('openParquet(…, { index }): the index answers for a file without filters; a stale index is ignored', async () => {
    const index = await openSidecarIndex(indexPath)
    try {
      const file = await openParquet(path.join(data, fileName(4)), { index })
      try {
        const absent = Array.from({ length: 200 }, (_, i) => `user-${100003 + i}`) // inside the bounds, never stored
        const withIndex = await file.probe('name', ['user-4', ...absent], { statistics: false })
        const g0 = withIndex.rowGroups[0].results
        assert.notEqual(g0[0].verdict, 'absent')
        const ruledOut = g0.slice(1).filter((r) => r.verdict === 'absent').length
        assert.ok(ruledOut >= 190, `${ruledOut} of 200 absent names ruled out: ${JSON.stringify(g0[1])}`)
      } finally {
        await file.close()
      }
      // A file the index does not describe: probed as it is, nothing ruled out from the index.
      const other = path.join(dir, 'other.parquet')
      await writeFile_(4, other, 7)
      const stale = await openParquet(other, { index })
      try {
        const r = await stale.probe('name', ['nobody-1'], { statistics: false })
        assert.ok(r.rowGroups.every((g) => g.results[0].verdict !== 'absent'))
      } finally {
        await stale.close()
      }
    } finally {
      await index.close()
    }
  })

  test('a corrupt directory or a file that is not an index is MALFORMED_FOOTER', async () => {
    const bytes = new Uint8Array(await readFile(indexPath))
    const footerSize = new DataView(bytes.buffer).getUint32(bytes.length - 12, true)
    const corrupt = bytes.slice()
    corrupt[bytes.length - 16 - footerSize - 10] ^= 1 // a byte of the directory, right before the footer
    await assert.rejects(openSidecarIndex(corrupt), { code: ErrorCode.MALFORMED_FOOTER })
    await assert.rejects(openSidecarIndex(await readFile(path.join(data, fileName(0)))), { code: ErrorCode.MALFORMED_FOOTER })
  })
})

describe('a sidecar index over hyparquet-writer files', () => {
  test('INT32, DOUBLE, FLOAT, strings, binary, FIXED_LEN_BYTE_ARRAY with nulls: every value found', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const sub = path.join(dir, 'hyparquet')
    await mkdir(sub)
    const n = 3000
    const columns = [
      ['i32', { type: 'INT32' }, (i) => i * 7919 - 10000000],
      ['dbl', { type: 'DOUBLE' }, (i) => (i === 5 ? -0 : (i - 1000) / 3)],
      ['flt', { type: 'FLOAT' }, (i) => (i - 1000) / 4],
      ['str', { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }, (i) => (i % 7 === 0 ? null : `s${i % 1700}-é`)],
      ['bin', { type: 'BYTE_ARRAY' }, (i) => new Uint8Array([i & 255, i >> 8, 0xff])],
      ['fl', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 4 }, (i) => new Uint8Array([i & 255, i >> 8, 1, 2])],
    ]
    const datas = columns.map(([, , make]) => Array.from({ length: n }, (_, i) => make(i)))
    for (const f of [0, 1]) {
      const buffer = parquetWriteBuffer({
        columnData: columns.map(([name], c) => ({ name, data: f ? datas[c].slice().reverse() : datas[c] })),
        schema: [{ name: 'root', num_children: columns.length },
          ...columns.map(([name, element], c) => ({ name, repetition_type: datas[c].includes(null) ? 'OPTIONAL' : 'REQUIRED', ...element }))],
        rowGroupSize: 1000,
      })
      await writeFile(path.join(sub, `h${f}.parquet`), new Uint8Array(buffer))
    }
    const target = path.join(sub, 'index.puffin')
    await settleMtimes(sub)
    await buildSidecarIndex([sub], target, { format: 1, columns: columns.map(([name]) => name) })
    const index = await openSidecarIndex(target)
    try {
      for (const [c, [name]] of columns.entries()) {
        for (const f of [0, 1]) {
          const all = f ? datas[c].slice().reverse() : datas[c]
          const result = await index.probe(name, all.filter((v) => v !== null), { files: [`h${f}.parquet`] })
          const [file] = result.files
          let v = 0
          for (let i = 0; i < n; i++) {
            if (all[i] === null) continue
            assert.notEqual(file.rowGroups[Math.floor(i / 1000)].results[v].verdict, 'absent', `h${f}, ${name}, row ${i}`)
            v++
          }
        }
      }
    } finally {
      await index.close()
    }
  })
})

describe('a sidecar index that disagrees with itself', () => {
  /** The index with its directory edited (its CRC made to match, so only the content is wrong). */
  async function withDirectory(edit) {
    const { crc32Hex, puffinFooter } = await import('../../js/sidecar/puffin.js')
    const bytes = new Uint8Array(await readFile(indexPath))
    const size = new DataView(bytes.buffer).getUint32(bytes.length - 12, true)
    const footer = JSON.parse(new TextDecoder().decode(bytes.subarray(bytes.length - 12 - size, bytes.length - 12)))
    const blob = footer.blobs.find((b) => b.type === 'parquet-bloom-directory-v1')
    const directory = JSON.parse(new TextDecoder().decode(bytes.subarray(blob.offset, blob.offset + blob.length)))
    edit(directory)
    const text = new TextEncoder().encode(JSON.stringify(directory))
    const blobs = footer.blobs.map((b) => (b === blob ? { ...b, length: text.length, properties: { ...b.properties, crc32: crc32Hex(text) } } : b))
    return Buffer.concat([bytes.subarray(0, blob.offset), text, puffinFooter(blobs, footer.properties)])
  }

  test('regions outside the blob or not whole blocks, places no region has, bounds of another kind: MALFORMED_FOOTER', async () => {
    const chunk = (d) => d.files[0].rowGroups[0].chunks.id
    for (const edit of [
      (d) => { chunk(d)[0] = 1e12 },
      (d) => { chunk(d)[1] = 1e6 },
      (d) => { chunk(d)[2] = 48 },
      (d) => { chunk(d)[3] = 'abc' },
      (d) => { d.regions[0].count = 1e9 },
      (d) => { d.regions[0].numBytes = 96 },
      (d) => { d.files[0].rowGroups[0].chunks.ghost = [0, 0, d.regions[0].numBytes, null, null] },
      (d) => { delete d.files[1].size },
    ]) {
      await assert.rejects(openSidecarIndex(await withDirectory(edit)), { code: ErrorCode.MALFORMED_FOOTER })
    }
    // The same path, untouched, opens.
    const index = await openSidecarIndex(await withDirectory(() => {}), { base: data })
    await index.close()
  })
})

describe('parquet-bloom index build / probe --index', () => {
  test('the CLI builds an index and probes through it; encrypted files are refused', async (t) => {
    const { fixturePath, missingFixture } = await import('./helpers/fixtures.js')
    const run = (args) => runCli(args)
    const sub = path.join(dir, 'cli')
    await mkdir(sub)
    for (const f of [0, 1]) await writeFile(path.join(sub, fileName(f)), await readFile(path.join(data, fileName(f))))
    const target = path.join(sub, '_index.puffin')
    await settleMtimes(sub)
    const built = await run(['index', 'build', sub, '-o', target, '-c', 'id', '--json'])
    assert.equal(built.code, 0, built.stderr)
    assert.equal(JSON.parse(built.stdout).files, 2)
    const present = String((ROWS + 7) * 3) // file 1, row 7
    const probe = await run(['probe', path.join(sub, fileName(1)), '-c', 'id', '-v', present, '-v', String((ROWS + 7) * 3 + 1), '--no-statistics', '--index', target, '--json'])
    assert.equal(probe.code, 0, probe.stderr)
    const [r0] = JSON.parse(probe.stdout).files[0].rowGroups
    assert.equal(r0.results[0].verdict, 'maybe')
    assert.deepEqual([r0.results[1].verdict, r0.results[1].source], ['absent', 'bloom-filter'])
    const again = await run(['index', 'build', sub, '-o', target, '-c', 'id', '--update'])
    assert.match(again.stdout, /0 files read, 2 kept, 0 dropped/)
    const skip = missingFixture('parquet-testing/encrypt_columns_plaintext_footer.parquet.encrypted')
    if (skip) return t.skip(skip)
    const refused = await run(['index', 'build', fixturePath('parquet-testing/encrypt_columns_plaintext_footer.parquet.encrypted'), '-o', path.join(sub, 'enc.puffin'), '-c', 'double_field'])
    assert.equal(refused.code, 2)
    assert.match(refused.stderr, /encrypted/)
  })
})

describe('index build <folder | glob>', () => {
  test('describes the files a dataset of the folder probes: .parq too, bookkeeping (_delta_log, .staging) not; a glob lists', async () => {
    const sub = path.join(dir, 'listed')
    const bytes = await readFile(path.join(data, fileName(0)))
    const names = ['a.parquet', 'b.parq', 'k=1/c.parquet', '_delta_log/00.checkpoint.parquet', '.staging/d.parquet']
    for (const name of names) {
      await mkdir(path.dirname(path.join(sub, name)), { recursive: true })
      await writeFile(path.join(sub, name), bytes)
    }
    const dataset = await openDataset(sub)
    const probed = dataset.files.map((f) => f.path)
    assert.deepEqual(probed, ['a.parquet', 'b.parq', 'k=1/c.parquet'])
    const target = path.join(sub, '_index.puffin')
    const built = await runCli(['index', 'build', sub, '-o', target, '-c', 'id', '--json'])
    assert.equal(built.code, 0, built.stderr)
    assert.equal(JSON.parse(built.stdout).files, probed.length)
    const index = await openSidecarIndex(target, { base: sub })
    try {
      await index.loadDirectory()
      assert.deepEqual(index.files.map((f) => f.path).sort(), probed)
    } finally {
      await index.close()
    }
    const glob = await runCli(['index', 'build', path.join(sub, '**/*.parq'), '-o', path.join(sub, '_glob.puffin'), '-c', 'id', '--json'])
    assert.equal(glob.code, 0, glob.stderr)
    assert.equal(JSON.parse(glob.stdout).files, 1)
    const none = await runCli(['index', 'build', path.join(sub, '*.pq'), '-o', path.join(sub, '_none.puffin'), '-c', 'id'])
    assert.equal(none.code, 2)
    assert.match(none.stderr, /the glob matches no file/)
  })
})

describe('a sidecar index of files behind URLs', () => {
  test('records their strong ETags; a replaced file (another ETag) is stale-index', async () => {
    const sub = path.join(dir, 'urls')
    await mkdir(sub)
    for (const f of [0, 1]) await writeFile(path.join(sub, fileName(f)), await readFile(path.join(data, fileName(f))))
    const urls = [0, 1].map((f) => server.url(`urls/${fileName(f)}`, { mode: 'etag' }))
    const built = await buildSidecarIndex(urls, null, { format: 1, columns: ['id'] })
    const index = await openSidecarIndex(new Uint8Array(await built.blob.arrayBuffer()))
    try {
      assert.ok(index.files.every((f) => f.validator?.startsWith('etag:')), JSON.stringify(index.files.map((f) => f.validator)))
      const id = BigInt((ROWS + 9) * 3) // file 1, row 9
      let result = await index.probe('id', [id], { files: urls })
      assert.deepEqual(result.files.map((f) => f.current), [true, true])
      assert.notEqual(result.files[1].rowGroups[0].results[0].verdict, 'absent')
      // File 1 replaced by file 0's bytes: another content, another ETag.
      await writeFile(path.join(sub, fileName(1)), await readFile(path.join(data, fileName(0))))
      result = await index.probe('id', [id], { files: urls })
      assert.equal(result.files[0].current, true)
      assert.equal(result.files[1].current, false)
      assert.equal(result.files[1].rowGroups[0].results[0].reason, 'stale-index')
      const sizes = await Promise.all([0, 1].map(async (f) => (await stat(path.join(data, fileName(f)))).size))
      assert.equal(result.files[1].reason, sizes[0] === index.files[1].size ? 'validator-differs' : 'size-differs') // file 0's bytes in file 1's place
    } finally {
      await index.close()
    }
  })
})

test('URLs under a URL base are recorded relative to it: the index, read from another origin, describes the files there', async () => {
  const sub = path.join(dir, 'based')
  await mkdir(sub)
  for (const f of [0, 1]) await writeFile(path.join(sub, fileName(f)), await readFile(path.join(data, fileName(f))))
  const urls = [0, 1].map((f) => server.url(`based/${fileName(f)}`))
  const built = await buildSidecarIndex(urls, path.join(sub, '_index.puffin'), { format: 1, columns: ['id'], base: server.url('based/') })
  assert.deepEqual(built.validators, { none: 2 }, 'the test server sends no validator without a mode: the sizes decide')
  // The same files by another name of the same server: only a relative path can name them both.
  const elsewhere = (url) => url.replace('//127.0.0.1:', '//localhost:')
  const index = await openSidecarIndex(elsewhere(server.url('based/_index.puffin')))
  try {
    assert.deepEqual(index.files.map((f) => f.path), [0, 1].map(fileName))
    const id = BigInt((ROWS + 9) * 3) // file 1, row 9
    const result = await index.probe('id', [id], { files: urls.map(elsewhere) })
    assert.deepEqual(result.files.map((f) => f.current), [true, true])
    assert.notEqual(result.files[1].rowGroups[0].results[0].verdict, 'absent')
  } finally {
    await index.close()
  }
})

test('HEADs carry the caller\'s headers to the index\'s origin only; a file gone (404) answers stale-index, not an error', async () => {
  const sub = path.join(dir, 'heads')
  await mkdir(sub)
  for (const f of [0, 1]) await writeFile(path.join(sub, fileName(f)), await readFile(path.join(data, fileName(f))))
  const other = await startTestServer({ root: dir }) // another port: another origin
  try {
    const same = [0, 1].map((f) => server.url(`heads/${fileName(f)}`, { mode: 'etag' }))
    const elsewhere = [0, 1].map((f) => other.url(`heads/${fileName(f)}`, { mode: 'etag' }))
    assert.notEqual(new URL(elsewhere[0]).origin, new URL(same[0]).origin)
    const files = [...same, ...elsewhere]
    await buildSidecarIndex(files, path.join(sub, '_index.puffin'), { format: 1, columns: ['id'] })
    const heads = []
    const fetch = (input, init) => {
      if (init?.method === 'HEAD') heads.push([new URL(String(input)).origin, new Headers(init.headers).get('authorization')])
      return globalThis.fetch(input, init)
    }
    const index = await openSidecarIndex(server.url('heads/_index.puffin'), { headers: { authorization: 'Bearer secret' }, fetch })
    try {
      const id = BigInt((ROWS + 9) * 3) // file 1, row 9
      let result = await index.probe('id', [id], { files })
      assert.deepEqual(result.files.map((f) => f.current), [true, true, true, true])
      const origin = new URL(same[0]).origin
      assert.deepEqual(heads.filter(([o]) => o === origin).map(([, a]) => a), ['Bearer secret', 'Bearer secret'])
      assert.deepEqual(heads.filter(([o]) => o !== origin).map(([, a]) => a), [null, null], 'no credentials to another origin')
      await rm(path.join(sub, fileName(1)))
      result = await index.probe('id', [id], { files })
      assert.deepEqual(result.files.map((f) => f.current), [true, false, true, false])
      assert.deepEqual(result.files.map((f) => f.reason), [undefined, 'file-gone', undefined, 'file-gone'])
      for (const gone of [result.files[1], result.files[3]]) {
        assert.ok(gone.rowGroups.every((g) => g.results.every((r) => r.verdict === 'unknown' && r.reason === 'stale-index')))
      }
    } finally {
      await index.close()
    }
  } finally {
    await other.close()
  }
})

describe('sidecar regions', () => {
  test('small segments make many regions; every value is still found, and an update copies bitsets across them', async () => {
    const sub = path.join(dir, 'segments')
    await mkdir(sub)
    for (const f of [0, 1, 2, 3]) await writeFile(path.join(sub, fileName(f)), await readFile(path.join(data, fileName(f))))
    const target = path.join(sub, '_index.puffin')
    await settleMtimes(sub)
    await buildSidecarIndex([sub], target, { format: 1, columns: ['id', 'name'], segmentBytes: 4096 })
    await rm(path.join(sub, fileName(0)))
    await buildSidecarIndex([sub], target, { format: 1, columns: ['id', 'name'], segmentBytes: 8192, update: target })
    const index = await openSidecarIndex(target)
    try {
      assert.ok(index.directory.regions.length > 4, `${index.directory.regions.length} regions`)
      for (const f of [1, 2, 3]) {
        const stored = await rows(`SELECT file_row_number // ${GROUP_ROWS} AS g, id, name FROM read_parquet('${path.join(sub, fileName(f))}', file_row_number = true)`)
        for (const [column, k] of [['id', 1], ['name', 2]]) {
          const values = stored.map((r) => r[k])
          const result = await index.probe(column, values, { files: [fileName(f)] })
          const wrong = stored.filter((r, i) => result.files[0].rowGroups[Number(r[0])].results[i].verdict === 'absent')
          assert.equal(wrong.length, 0, `${fileName(f)}, ${column}: ${wrong.length} stored values answered absent`)
        }
      }
    } finally {
      await index.close()
    }
  })

  test('block-major: one value over every file and row group of a region is one range', async () => {
    const index = await openSidecarIndex(server.url('data/_index.puffin'), { base: path.join(data, '/') })
    try {
      const before = index.stats
      // Inside every chunk's bounds: all 90 chunks' blocks are read.
      const result = await index.probe('name', ['user-50000'], { validate: false })
      assert.ok(result.files.every((f) => f.rowGroups.every((g) => g.results[0].source === 'bloom-filter')))
      const after = index.stats
      // 30 files × 3 row groups, a few size classes: one range per region, not 90 blocks apart.
      assert.equal(after.rounds - before.rounds, 1)
      assert.ok(after.requests - before.requests <= index.directory.regions.length, `${after.requests - before.requests} requests for ${index.directory.regions.length} regions`)
      assert.ok(after.bytesFetched - before.bytesFetched <= 90 * 32 + index.directory.regions.length * 64, `${after.bytesFetched - before.bytesFetched} bytes`)
    } finally {
      await index.close()
    }
  })
})

describe('a directory beyond the tail read', () => {
  const TAIL = 4096 // holds the footer and its layout, not this index's directory
  const base = () => path.join(data, '/')
  /** The index's bytes with its footer's blobs edited (the directory untouched). */
  async function withFooter(edit) {
    const { puffinFooter } = await import('../../js/sidecar/puffin.js')
    const bytes = new Uint8Array(await readFile(indexPath))
    const size = new DataView(bytes.buffer).getUint32(bytes.length - 12, true)
    const footer = JSON.parse(new TextDecoder().decode(bytes.subarray(bytes.length - 12 - size, bytes.length - 12)))
    const blobs = footer.blobs.map((b) => ({ ...b, properties: { ...b.properties } }))
    edit(blobs)
    return Buffer.concat([bytes.subarray(0, bytes.length - 16 - size), puffinFooter(blobs, footer.properties)])
  }
  /** Rounds and requests at the server, the requests that do not wait for each other counted as one round. */
  async function atServer(fn) {
    server.resetStats()
    server.setMode('wave:60')
    try {
      return { result: await fn(), server: { ...server.stats } }
    } finally {
      server.setMode()
    }
  }

  test('open leaves it to the first probe: one wave reads it with the block rows, answers as a loaded index does', async () => {
    const loaded = await openSidecarIndex(indexPath, { base: base() })
    let index
    try {
      const directoryLength = JSON.stringify(loaded.directory).length
      assert.ok(directoryLength > TAIL, `a directory of about ${directoryLength} bytes`)
      const one = await atServer(async () => {
        index = await openSidecarIndex(server.url('data/_index.puffin'), { base: base(), initialFetchSize: TAIL })
        assert.equal(index.stats.rounds, 1)
        assert.deepEqual(index.columns, ['id', 'name', 'n', 'd'])
        assert.throws(() => index.files, { code: ErrorCode.INVALID_ARGUMENT })
        return index.probe('name', ['user-1', 'nobody'], { files: [fileName(0), fileName(5), 'elsewhere.parquet'] })
      })
      assert.equal(one.server.rounds, 2)
      assert.equal(index.stats.rounds, 2)
      assert.equal(index.stats.requests, one.server.requests)
      assert.equal(index.stats.bytesFetched, one.server.bytesWritten)
      const expected = await loaded.probe('name', ['user-1', 'nobody'], { files: [fileName(0), fileName(5), 'elsewhere.parquet'] })
      assert.deepEqual(one.result, expected)
      assert.equal(one.result.files[2].rowGroups.length, 0)
      assert.equal(index.files.length, FILES)
      // Later probes: min/max first, then the blocks they leave open.
      const later = await atServer(() => index.probe('id', [3n, 4n], { validate: false }))
      assert.equal(later.server.rounds, 1)
      assert.deepEqual(later.result, await loaded.probe('id', [3n, 4n], { validate: false }))
    } finally {
      await index?.close()
      await loaded.close()
    }
  })

  test('many values: block rows costing more than the directory and a round are not read blind (directory first, then the blocks)', async () => {
    const loaded = await openSidecarIndex(indexPath, { base: base() })
    // A local file: a round is worth little (4 KiB), so hundreds of KiB of rows are not read blind.
    const index = await openSidecarIndex(indexPath, { base: base(), initialFetchSize: TAIL })
    try {
      const names = Array.from({ length: 300 }, (_, i) => `user-${i * 331}`)
      const result = await index.probe('name', names, { validate: false })
      assert.equal(index.stats.rounds, 3, 'the tail, the directory, then the blocks')
      assert.deepEqual(result, await loaded.probe('name', names, { validate: false }))
    } finally {
      await index.close()
      await loaded.close()
    }
  })

  test('a probe meanwhile waits for the same read; loadDirectory() reads it alone', async () => {
    const index = await openSidecarIndex(indexPath, { base: base(), initialFetchSize: TAIL })
    try {
      const [a, b] = await Promise.all([index.probe('id', [3n], { validate: false }), index.probe('id', [6n], { validate: false })])
      assert.equal(a.files.length, FILES)
      assert.equal(b.files.length, FILES)
      assert.equal(index.stats.rounds, 3, 'the tail, the directory with its rows, then the second probe\'s blocks')
    } finally {
      await index.close()
    }
    const alone = await openSidecarIndex(indexPath, { initialFetchSize: TAIL })
    try {
      await alone.loadDirectory()
      assert.equal(alone.stats.rounds, 2)
      assert.equal(alone.files.length, FILES)
    } finally {
      await alone.close()
    }
  })

  test('openParquet(…, { index }) with the directory unread: the first refine reads it with its blocks, and answers as a loaded index does', async () => {
    // Few values: their block rows cost less than the directory, so they ride in its wave.
    const names = ['user-4', 'user-100003', 'user-100004']
    const answers = async (index) => {
      const file = await openParquet(path.join(data, fileName(4)), { index })
      try {
        return (await file.probe('name', names, { statistics: false })).rowGroups.map((g) => g.results.map((r) => [r.verdict, r.source, r.reason]))
      } finally {
        await file.close()
      }
    }
    const loaded = await openSidecarIndex(indexPath)
    const pending = await openSidecarIndex(indexPath, { initialFetchSize: TAIL })
    try {
      const expected = await answers(loaded)
      assert.notEqual(expected[0][0][0], 'absent')
      assert.ok(expected.flat().some(([verdict, source]) => verdict === 'absent' && source === 'bloom-filter'))
      assert.deepEqual(await answers(pending), expected)
      assert.equal(pending.stats.rounds, 2, 'the tail, then the directory with the block rows')
    } finally {
      await loaded.close()
      await pending.close()
    }
  })

  test('an index written without a layout has its directory read at open, as before', async () => {
    const old = await withFooter((blobs) => { delete blobs[0].properties.layout })
    const index = await openSidecarIndex(old, { base: base(), initialFetchSize: TAIL })
    try {
      assert.equal(index.stats.rounds, 2)
      assert.equal(index.files.length, FILES)
      assert.notEqual((await index.probe('id', [3n], { files: [fileName(0)] })).files[0].rowGroups[0].results[0].verdict, 'absent')
    } finally {
      await index.close()
    }
  })

  test('a corrupt directory, or one that disagrees with the layout, is MALFORMED_FOOTER at the probe that reads it', async () => {
    const bytes = new Uint8Array(await readFile(indexPath))
    const footerSize = new DataView(bytes.buffer).getUint32(bytes.length - 12, true)
    const corrupt = bytes.slice()
    corrupt[bytes.length - 16 - footerSize - 10] ^= 1
    const disagreeing = await withFooter((blobs) => {
      const layout = JSON.parse(blobs[0].properties.layout)
      // Region 0 given to another column than the directory's chunks in it.
      layout.regions[0][3] = (layout.regions[0][3] + 1) % layout.columns.length
      blobs[0].properties.layout = JSON.stringify(layout)
    })
    for (const input of [corrupt, disagreeing]) {
      const index = await openSidecarIndex(input, { initialFetchSize: TAIL })
      try {
        await assert.rejects(index.probe('id', [3n], { validate: false }), { code: ErrorCode.MALFORMED_FOOTER })
        await assert.rejects(index.loadDirectory(), { code: ErrorCode.MALFORMED_FOOTER })
      } finally {
        await index.close()
      }
    }
    const outside = await withFooter((blobs) => {
      const layout = JSON.parse(blobs[0].properties.layout)
      layout.regions[0][0] = blobs[0].length
      blobs[0].properties.layout = JSON.stringify(layout)
    })
    await assert.rejects(openSidecarIndex(outside, { initialFetchSize: TAIL }), { code: ErrorCode.MALFORMED_FOOTER })
  })
})
