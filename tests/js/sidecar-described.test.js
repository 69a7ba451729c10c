// A sidecar index that does not describe the files it is asked about says so: built from a local folder it
// records mtimes, and the same folder served over HTTP has ETags (or Last-Modified dates), which never match
// them — the dataset probe's files and totals count every file as not described (validator-kind-differs),
// its stats show the index's own reads and HEADs as the server counted them, the CLI prints one warning
// line, and `index build` says which validators it recorded. A real rewritten, touched or new file is
// counted by its own reason, and is never answered absent from the index. The files are hyparquet-writer's;
// which value is where comes from the writer's inputs, what was requested from the server's own log.
import assert from 'node:assert/strict'
import { cp, readFile, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { init, openDataset } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { datasetFileName, storedValue, writeSidecarDataset } from '../../testkit/sidecar-dataset.js'
import { startTestServer } from '../../testkit/range-server.js'
import { runCli } from './helpers/run-cli.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'

const FILES = 12
const GROUPS = 2
const GROUP_ROWS = 200
const dir = await tempDir('sidecar-described')
const served = path.join(dir, 'served')
const localIndex = path.join(served, '_index.puffin')
/** The first stored value of file f (global row f · rows per file). */
const firstOf = (f) => storedValue(f * GROUPS * GROUP_ROWS)
let server
let urls
let built

before(async () => {
  await init()
  const { mkdir } = await import('node:fs/promises')
  await mkdir(served)
  await writeSidecarDataset(served, { files: FILES, groups: GROUPS, groupRows: GROUP_ROWS })
  built = await buildSidecarIndex([served], localIndex, { format: 1, columns: ['id'] })
  server = await startTestServer({ root: served })
  urls = Array.from({ length: FILES }, (_, f) => server.url(datasetFileName(f)))
})

after(() => server?.close())

/** The validators the index's directory records, read from its Puffin footer and directory by hand. */
async function recordedValidators(indexPath) {
  const bytes = await readFile(indexPath)
  const footerSize = bytes.readUInt32LE(bytes.length - 12)
  const footer = JSON.parse(bytes.subarray(bytes.length - 12 - footerSize, bytes.length - 12).toString('utf8'))
  const blob = footer.blobs.find((b) => b.type === 'parquet-bloom-directory-v1')
  return JSON.parse(bytes.subarray(blob.offset, blob.offset + blob.length).toString('utf8')).files.map((f) => f.validator)
}

/** The server's log since the last reset, split by what was asked: the index file's GETs, the data files' HEADs and GETs. */
function requestsSeen() {
  const log = server.stats.log
  const index = log.filter((e) => e.path === '/_index.puffin')
  return {
    indexReads: index.filter((e) => e.method === 'GET').length,
    indexBytes: index.reduce((n, e) => n + e.bytesWritten, 0),
    heads: log.filter((e) => e.method === 'HEAD' && e.path.endsWith('.parquet')).length,
    filesRead: new Set(log.filter((e) => e.method === 'GET' && e.path.endsWith('.parquet')).map((e) => path.basename(e.path))),
  }
}

describe('an index built from a local folder, probed over HTTP', () => {
  test('index build records mtimes, and says so', async () => {
    const validators = await recordedValidators(localIndex)
    assert.equal(validators.length, FILES)
    assert.ok(validators.every((v) => v.startsWith('mtime:')), validators.join(', '))
    assert.deepEqual(built.validators, { mtime: FILES })
  })

  for (const mode of ['etag', 'last-modified']) {
    test(`served with ${mode === 'etag' ? 'ETags' : 'only Last-Modified'}: every file is counted not described (validator-kind-differs), probed without the index`, async () => {
      server.setMode(mode)
      const dataset = await openDataset(urls, { index: server.url('_index.puffin') })
      try {
        server.resetStats()
        const values = [firstOf(3), firstOf(3) + 1n] // stored in file 3; stored nowhere (≡ 1 mod 3)
        const result = await dataset.probe('id', values)
        assert.deepEqual(result.totals.index, { described: 0, notDescribed: FILES, reasons: { 'validator-kind-differs': FILES } })
        for (const f of result.files) {
          assert.equal(f.index.described, false, f.path)
          assert.equal(f.index.reason, 'validator-kind-differs')
          assert.deepEqual(f.index.validators, { recorded: 'mtime', found: mode })
        }
        // Nothing was answered from the index: every file was read, and file 3 holds its value.
        const seen = requestsSeen()
        assert.equal(seen.filesRead.size, FILES)
        assert.notEqual(result.files[3].values[0].verdict, 'absent')
        // The index's own requests, as the server counted them: its reads of the index file and one HEAD per file.
        assert.equal(seen.heads, FILES)
        assert.deepEqual(result.stats.index && { reads: result.stats.index.reads, heads: result.stats.index.heads, requests: result.stats.index.requests, bytes: result.stats.index.bytes },
          { reads: seen.indexReads, heads: seen.heads, requests: seen.indexReads + seen.heads, bytes: seen.indexBytes })
        assert.equal(result.stats.requests, server.stats.requests)
      } finally {
        await dataset.close()
        server.setMode()
      }
    })
  }

  test('the CLI prints exactly one warning line, naming how many files and why (one file too)', async () => {
    server.setMode('etag')
    try {
      const args = ['probe', ...urls, '-c', 'id', '-v', String(firstOf(3)), '--index', server.url('_index.puffin')]
      for (const json of [false, true]) {
        const { code, stdout, stderr } = await runCli(json ? [...args, '--json'] : args)
        assert.equal(code, 0, stderr)
        if (json) JSON.parse(stdout) // stdout stays one JSON document
        const lines = stderr.split('\n').filter(Boolean)
        assert.equal(lines.length, 1, stderr)
        assert.match(lines[0], /^parquet-bloom: warning: /)
        assert.match(lines[0], new RegExp(`\\b${FILES} validator-kind-differs\\b`))
        assert.match(lines[0], new RegExp(`any of the ${FILES} files`))
        assert.match(lines[0], /build the index from the files' URLs/)
      }
      // One file probed on its own (through openParquet's index) is reported the same way.
      const one = await runCli(['probe', urls[3], '-c', 'id', '-v', String(firstOf(3)), '--index', server.url('_index.puffin')])
      assert.equal(one.code, 0, one.stderr)
      assert.match(one.stdout, /maybe/)
      assert.deepEqual(one.stderr.split('\n').filter(Boolean).map((l) => l.replace(/ — .*/, '')),
        ['parquet-bloom: warning: the sidecar index did not describe the file (probed without it): 1 validator-kind-differs'])
    } finally {
      server.setMode()
    }
  })

  test('index build in the CLI names the validators it recorded; built from the URLs it records ETags, which match: no warning', async () => {
    server.setMode('etag')
    try {
      const text = await runCli(['index', 'build', served, '-o', path.join(dir, 'again.puffin'), '-c', 'id', '--format', '1'])
      assert.equal(text.code, 0, text.stderr)
      assert.match(text.stdout, new RegExp(`recorded local modification times \\(mtime\\) for ${FILES} files: .*build it from the files' URLs`))
      const fromUrls = path.join(served, '_urls.puffin')
      const json = await runCli(['index', 'build', ...urls, '-o', fromUrls, '-c', 'id', '--json', '--format', '1'])
      assert.equal(json.code, 0, json.stderr)
      assert.deepEqual(JSON.parse(json.stdout).validators, { etag: FILES })
      assert.ok((await recordedValidators(fromUrls)).every((v) => v.startsWith('etag:')))
      for (const files of [urls, [urls[3]]]) {
        const probed = await runCli(['probe', ...files, '-c', 'id', '-v', String(firstOf(3)), '--index', server.url('_urls.puffin')])
        assert.equal(probed.code, 0, probed.stderr)
        assert.equal(probed.stderr, '')
      }
      const dataset = await openDataset(urls, { index: server.url('_urls.puffin') })
      try {
        const result = await dataset.probe('id', [firstOf(3)])
        assert.deepEqual(result.totals.index, { described: FILES, notDescribed: 0, reasons: {} })
        assert.notEqual(result.files[3].values[0].verdict, 'absent')
      } finally {
        await dataset.close()
      }
    } finally {
      server.setMode()
    }
  })

  test('an index of ETags, where the server now sends only Last-Modified or no validator: validator-kind-differs', async () => {
    server.setMode('etag')
    const built = await buildSidecarIndex(urls, path.join(served, '_etags.puffin'), { format: 1, columns: ['id'] })
    assert.deepEqual(built.validators, { etag: FILES })
    for (const [modes, found] of [[['last-modified'], 'last-modified'], [[], 'none']]) {
      server.setMode(...modes)
      const dataset = await openDataset(urls, { index: server.url('_etags.puffin') })
      try {
        const result = await dataset.probe('id', [firstOf(3)])
        assert.deepEqual(result.totals.index, { described: 0, notDescribed: FILES, reasons: { 'validator-kind-differs': FILES } })
        for (const f of result.files) assert.deepEqual(f.index.validators, { recorded: 'etag', found })
        assert.notEqual(result.files[3].values[0].verdict, 'absent')
      } finally {
        await dataset.close()
        server.setMode()
      }
    }
  })
})

describe('files changed since a local index was built', () => {
  const local = path.join(dir, 'local')
  const index = path.join(local, '_index.puffin')

  before(async () => {
    await cp(served, local, { recursive: true, filter: (source) => !source.endsWith('.puffin') })
    await settleMtimes(local)
    await buildSidecarIndex([local], index, { format: 1, columns: ['id'] })
    // File 2 rewritten with other rows (another size): it now holds a value the index never saw in it.
    await writeFile(path.join(local, datasetFileName(2)), new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'id', data: [firstOf(5), 7n, 10n], type: 'INT64' }], rowGroupSize: GROUP_ROWS })))
    // File 4 touched: the same bytes, a later modification time.
    const later = new Date(Date.now() + 60_000)
    await utimes(path.join(local, datasetFileName(4)), later, later)
    // A new file, which the index has never seen, holding the same value.
    await writeFile(path.join(local, 'zz-new.parquet'), new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: [firstOf(5)], type: 'INT64' }] })))
  })

  test('each is counted by its reason, none answered absent from the index; the CLI warns once', async () => {
    const dataset = await openDataset(local, { index })
    try {
      const result = await dataset.probe('id', [firstOf(5)])
      assert.deepEqual(result.totals.index, { described: FILES - 2, notDescribed: 3, reasons: { 'size-differs': 1, 'validator-differs': 1, 'missing-from-index': 1 } })
      const byName = new Map(result.files.map((f) => [f.path, f]))
      assert.equal(byName.get(datasetFileName(2)).index.reason, 'size-differs')
      assert.equal(byName.get(datasetFileName(4)).index.reason, 'validator-differs')
      assert.equal(byName.get('zz-new.parquet').index.reason, 'missing-from-index')
      // The value is in file 5 (as written), and now in file 2 and the new file, which the index does not describe.
      for (const name of [datasetFileName(5), datasetFileName(2), 'zz-new.parquet']) assert.notEqual(byName.get(name).values[0].verdict, 'absent', name)
      // Local files: the index's checks are stats, not requests.
      assert.equal(result.stats.index.heads, 0)
    } finally {
      await dataset.close()
    }
    const { code, stdout, stderr } = await runCli(['probe', local, '-c', 'id', '-v', String(firstOf(5)), '--index', index, '--json'])
    assert.equal(code, 0, stderr)
    assert.deepEqual(JSON.parse(stdout).totals.index.reasons, { 'size-differs': 1, 'validator-differs': 1, 'missing-from-index': 1 })
    const lines = stderr.split('\n').filter(Boolean)
    assert.equal(lines.length, 1, stderr)
    assert.match(lines[0], new RegExp(`^parquet-bloom: warning: the sidecar index did not describe 3 of ${FILES + 1} files`))
    for (const reason of ['1 size-differs', '1 validator-differs', '1 missing-from-index']) assert.ok(lines[0].includes(reason), lines[0])
    assert.match(lines[0], /index build --update/)
  })
})
