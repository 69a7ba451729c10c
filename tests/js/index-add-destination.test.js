// What `index add` leaves at its destination and at its source: a file rewritten in place keeps its permission bits
// (a private file stays private), a new copy of a private file is private, and a run that fails part-way — an
// abort during the copy, a destination that cannot take the file — leaves the source as it was and nothing under
// the destination's name or beside it.
import assert from 'node:assert/strict'
import { chmod, copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, test } from 'node:test'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { init } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { tempDir } from '../../testkit/temp-dir.js'

const dir = await tempDir('index-add-destination')
let source
before(async () => {
  await init()
  source = path.join(dir, 'source.parquet')
  await writeFile(source, new Uint8Array(parquetWriteBuffer({
    columnData: [{ name: 'x', data: Int32Array.from({ length: 200_000 }, (_, i) => i * 7), type: 'INT32' }],
    rowGroupSize: 50_000,
  })))
})

const modeOf = async (file) => (await stat(file)).mode & 0o777

test('a private file rewritten in place stays private; a copy of it is private too', async () => {
  const inPlace = path.join(dir, 'private.parquet')
  await copyFile(source, inPlace)
  await chmod(inPlace, 0o600)
  const result = await addIndexes(inPlace, inPlace, { columns: ['x'] })
  assert.equal(result.added.length, 4)
  assert.equal((await modeOf(inPlace)).toString(8), '600', 'the rewritten file keeps its mode')
  const copy = path.join(dir, 'private-copy.parquet')
  await addIndexes(inPlace, copy, { columns: ['x'], replace: true })
  assert.equal((await modeOf(copy)).toString(8), '600', 'the copy of a private file is private')
  // A file replaced keeps its own bits, whatever the source's.
  const shared = path.join(dir, 'shared.parquet')
  await copyFile(source, shared)
  await chmod(shared, 0o644)
  await addIndexes(inPlace, shared, { columns: ['x'], replace: true })
  assert.equal((await modeOf(shared)).toString(8), '644')
})

test('a run that fails part-way leaves the source as it was and no file at the destination or beside it', async () => {
  const folder = path.join(dir, 'failing')
  await mkdir(folder)
  const input = path.join(folder, 'in.parquet')
  await copyFile(source, input)
  const original = await readFile(input)
  // Aborted during the copy of the data (windows of 64 KiB): the source read through an object that aborts at its third read.
  const controller = new AbortController()
  let reads = 0
  const aborting = { byteLength: original.length, slice: (from, to) => {
    if (++reads === 3) controller.abort(new Error('stop'))
    return original.subarray(from, to)
  } }
  await assert.rejects(addIndexes(aborting, path.join(folder, 'out.parquet'),
    { columns: ['x'], signal: controller.signal, windowBytes: 64 * 1024 }))
  assert.ok(reads >= 3)
  // A destination that cannot take the file: a directory of that name.
  await mkdir(path.join(folder, 'taken.parquet'))
  await assert.rejects(addIndexes(input, path.join(folder, 'taken.parquet'), { columns: ['x'] }))
  assert.deepEqual(await readFile(input), original, 'the source is unchanged')
  assert.deepEqual((await readdir(folder)).sort(), ['in.parquet', 'taken.parquet'], 'no partial file is left')
})
