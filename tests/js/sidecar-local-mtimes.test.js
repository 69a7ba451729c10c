// A sidecar index of local files records each file's size, mtime and change time. A file system that keeps times to the
// second (or FAT's 2 s) gives a rewrite of the same size within that second the same mtime, so an mtime still that
// recent cannot tell the version read from the next: the build waits until it has settled before it reads the file,
// and one it cannot wait for (stamped in the future, or written again while waited for) is recorded unsettled — the
// file is stale-index until the index is built or updated again. Simulated here by giving both versions one
// whole-second mtime, as such a file system would. Truth: the rows hyparquet reads from the file as it is now.
import assert from 'node:assert/strict'
import { copyFileSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openDataset } from '../../js/index.js'
import { buildSidecarIndex, openSidecarIndex } from '../../js/index-builder/index.js'
import { buildReading, MTIME_SETTLE_MS, readFileEntry, settledMtime } from '../../js/index-builder/build-plan.js'
import { writeSidecarFiles } from '../../js/index-builder/sidecar-build.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { runCli } from './helpers/run-cli.js'

const fileOf = (first) =>
  new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'v', data: Int32Array.from({ length: 100 }, (_, i) => first + i), type: 'INT32' }] }))

const dir = await tempDir('sidecar-local-mtimes')

/** Writes `bytes` to `file` with the modification time `mtime` (a Date), as a coarse file system would stamp it. */
function writeStamped(file, bytes, mtime) {
  writeFileSync(file, bytes)
  utimesSync(file, mtime, mtime)
}

/** What hyparquet reads of column v. */
function valuesIn(file) {
  const bytes = readFileSync(file)
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
    .then((rows) => rows.map((r) => r.v))
}

/** A dataset of `file` with the sidecar `index`, probed for 1000 and 5000 in column v. */
async function probeWith(file, index) {
  const dataset = await openDataset([file], { index })
  try {
    return await dataset.probe('v', [1000, 5000])
  } finally {
    await dataset.close()
  }
}

/** The current whole second: a write now on a file system of 1 s times gets this mtime. */
const thisSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000)
/** A whole second a minute from now: an mtime a build cannot wait for (a clock ahead of this machine's). */
const aMinuteAhead = () => new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000)

test('a file written just before its build: the build waits for its mtime to settle, and the index describes it', async () => {
  const file = path.join(dir, 'same-second.parquet')
  const index = path.join(dir, 'same-second.puffin')
  const mtime = thisSecond()
  writeStamped(file, fileOf(1000), mtime)
  const started = Date.now()
  const built = await buildSidecarIndex([file], index, { columns: ['v'] })
  assert.ok(Date.now() >= mtime.getTime() + MTIME_SETTLE_MS, `the build read the file ${Date.now() - started} ms after it began`)
  assert.deepEqual(built.validators, { mtime: 1 })
  const probe = () => probeWith(file, index)
  const unchanged = await probe()
  assert.equal(unchanged.totals.index.described, 1)
  assert.deepEqual(unchanged.files[0].values.map((v) => v.verdict), ['maybe', 'absent'])
  // Rewritten with the same size and the same (whole-second) mtime: its change time tells it apart.
  writeStamped(file, fileOf(5000), mtime)
  assert.equal(statSync(file).mtimeMs, mtime.getTime())
  assert.ok((await valuesIn(file)).includes(5000))
  const rewritten = await probe()
  assert.notEqual(rewritten.files[0].values[1].verdict, 'absent', 'the file holds 5000')
  assert.deepEqual(rewritten.totals.index.reasons, { 'validator-differs': 1 })
})

test('a build waiting for an mtime to settle ends at its abort', async () => {
  const file = path.join(dir, 'abort.parquet')
  writeStamped(file, fileOf(1000), new Date())
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 100)
  const started = Date.now()
  await assert.rejects(buildSidecarIndex([file], path.join(dir, 'abort.puffin'), { columns: ['v'], signal: controller.signal }),
    (e) => e.code === 'ABORTED')
  assert.ok(Date.now() - started < MTIME_SETTLE_MS - 1000, `${Date.now() - started} ms`)
})

test('an mtime stamped in the future is recorded unsettled, and an unsettled entry describes no file (formats 1 and 2)', async () => {
  for (const format of [1, 2]) {
    const file = path.join(dir, `probe-${format}.parquet`)
    const index = path.join(dir, `probe-${format}.puffin`)
    const mtime = aMinuteAhead()
    writeStamped(file, fileOf(1000), mtime)
    await buildSidecarIndex([file], index, { columns: ['v'], format })
    writeStamped(file, fileOf(5000), mtime)
    const opened = await openSidecarIndex(index)
    for (const files of [undefined, [{ path: file }], [{ path: file, size: statSync(file).size }]]) {
      const { files: [answer] } = await opened.probe('v', [5000], files ? { files } : {})
      assert.equal(answer.current, false, `format ${format}, files ${JSON.stringify(files)}`)
      assert.equal(answer.reason, 'validator-unsettled')
    }
    await opened.close()
  }
})

test('a file whose mtime has settled is described, and an update reads an unsettled one anew', async () => {
  const file = path.join(dir, 'settles.parquet')
  const index = path.join(dir, 'settles.puffin')
  const mtime = aMinuteAhead()
  writeStamped(file, fileOf(1000), mtime)
  await buildSidecarIndex([file], index, { columns: ['v'] })
  // Rewritten within the second, then the second is long past: the update reads the file as it is now.
  writeStamped(file, fileOf(5000), mtime)
  const past = new Date(mtime.getTime() - 3_600_000)
  utimesSync(file, past, past)
  const updated = await buildSidecarIndex([file], index + '.new', { columns: ['v'], update: index })
  assert.deepEqual({ rebuilt: updated.rebuilt, kept: updated.kept, validators: updated.validators },
    { rebuilt: 1, kept: 0, validators: { mtime: 1 } })
  const dataset = await openDataset([file], { index: index + '.new' })
  const result = await dataset.probe('v', [1000, 5000])
  await dataset.close()
  assert.equal(result.totals.index.described, 1)
  assert.deepEqual(result.files[0].values.map((v) => v.verdict), ['absent', 'maybe'])
  // Updated again, unchanged: kept.
  const again = await buildSidecarIndex([file], index + '.again', { columns: ['v'], update: index + '.new' })
  assert.deepEqual({ rebuilt: again.rebuilt, kept: again.kept }, { rebuilt: 0, kept: 1 })
})

test('a file replaced by another of the same size and mtime (renamed over it, or copied over it keeping times) is not described', async () => {
  // Tools that set times to the second (tar, unzip, aws s3 sync, cp -p) give many files one mtime; two of one size
  // then differ by nothing the index recorded but their bytes. The replacement changes the file's ctime (a rename or a
  // write does; no tool sets it), which the index records beside the mtime.
  const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000)
  for (const replace of ['rename', 'copy keeping times']) {
    for (const format of [1, 2]) {
      const sub = path.join(dir, `${replace.split(' ')[0]}-${format}`)
      const { mkdirSync } = await import('node:fs')
      mkdirSync(sub)
      const [a, b] = [path.join(sub, 'a.parquet'), path.join(sub, 'b.parquet')]
      writeStamped(a, fileOf(1000), past)
      writeStamped(b, fileOf(5000), past)
      const index = path.join(sub, 'index.puffin')
      await buildSidecarIndex([sub], index, { columns: ['v'], format })
      if (replace === 'rename') renameSync(b, a)
      else {
        copyFileSync(b, a)
        utimesSync(a, past, past)
      }
      assert.deepEqual([statSync(a).size, statSync(a).mtimeMs], [fileOf(1000).length, past.getTime()])
      assert.ok((await valuesIn(a)).includes(5000))
      const dataset = await openDataset([a], { index })
      const result = await dataset.probe('v', [5000])
      await dataset.close()
      assert.notEqual(result.files[0].values[0].verdict, 'absent', `${replace}, format ${format}: a holds 5000`)
      assert.deepEqual(result.totals.index.reasons, { 'validator-differs': 1 })
    }
  }
})

test('an index that recorded mtimes alone (before change times were) still describes its unchanged files by them', async () => {
  const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000)
  for (const format of [1, 2]) {
    const file = path.join(dir, `mtime-only-${format}.parquet`)
    writeStamped(file, fileOf(1000), past)
    const { file: entry } = await readFileEntry(file, path.basename(file), { columns: ['v'], fpp: 0.01, ndv: 'auto' }, buildReading([file], {}))
    assert.match(entry.validator, /^mtime:\d+;ctime:[\d.]+$/)
    const index = path.join(dir, `mtime-only-${format}.puffin`)
    await writeSidecarFiles([{ ...entry, validator: `mtime:${past.getTime()}` }], index, { format, columns: ['v'] })
    const probe = () => probeWith(file, index)
    const unchanged = await probe()
    assert.equal(unchanged.totals.index.described, 1, `format ${format}`)
    assert.deepEqual(unchanged.files[0].values.map((v) => v.verdict), ['maybe', 'absent'])
    const later = new Date(past.getTime() + 1000)
    utimesSync(file, later, later)
    assert.deepEqual((await probe()).totals.index.reasons, { 'validator-differs': 1 })
  }
})

test('the CLI says it recorded an unsettled validator, and warns when a probe meets one', async () => {
  const file = path.join(dir, 'cli.parquet')
  const index = path.join(dir, 'cli.puffin')
  writeStamped(file, fileOf(1000), aMinuteAhead())
  const built = await runCli(['index', 'build', file, '-o', index, '-c', 'v'])
  assert.equal(built.code, 0, built.stderr)
  assert.match(built.stdout, /recorded no settled validator for 1 file .*until the index is built or updated again/)
  const probed = await runCli(['probe', file, '-c', 'v', '-v', '1000', '--index', index])
  assert.equal(probed.code, 0, probed.stderr)
  assert.match(probed.stderr, /^parquet-bloom: warning: the sidecar index did not describe the file .*1 validator-unsettled — .*--update/)
})

test('the rule: an mtime is settled only MTIME_SETTLE_MS before the clock read before its stat (a future one never)', () => {
  const clock = 1_800_000_000_000
  assert.ok(MTIME_SETTLE_MS >= 2000, 'FAT keeps times to 2 s')
  assert.equal(settledMtime(`mtime:${clock - MTIME_SETTLE_MS}`, clock), `mtime:${clock - MTIME_SETTLE_MS}`)
  assert.equal(settledMtime(`mtime:${clock - MTIME_SETTLE_MS + 1}`, clock), `unsettled-mtime:${clock - MTIME_SETTLE_MS + 1}`)
  assert.equal(settledMtime(`mtime:${clock + 5000}`, clock), `unsettled-mtime:${clock + 5000}`)
  assert.equal(settledMtime('etag:"x"', clock), 'etag:"x"')
  assert.equal(settledMtime(null, clock), null)
})
