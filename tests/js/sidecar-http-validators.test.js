// A sidecar index of URLs records what tells a file's versions apart, from the build's own response: a server that
// sends only a weak ETag, or a Last-Modified less than a second before its Date (a rewrite within that second keeps
// the date), must not let a same-size rewrite pass for the file indexed. Truth: the rows hyparquet reads from the
// file as the server now serves it.
import assert from 'node:assert/strict'
import { readFileSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { openDataset } from '../../js/index.js'
import { buildSidecarIndex } from '../../js/index-builder/index.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'

const fileOf = (first) =>
  new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'v', data: Int32Array.from({ length: 100 }, (_, i) => first + i), type: 'INT32' }] }))

const dir = await tempDir('sidecar-http-validators')
let server
before(async () => {
  server = await startTestServer({ root: dir })
})
after(async () => {
  await server?.close()
})

/** Builds an index of the file at `name` as served in `mode`, rewrites it (same size, other values), and probes. */
async function rewriteAfterBuild(name, mode, { mtime } = {}) {
  const file = path.join(dir, name)
  writeFileSync(file, fileOf(1000))
  if (mtime) utimesSync(file, mtime, mtime)
  server.setMode(mode)
  const url = server.url(name)
  const index = path.join(dir, `${name}.puffin`)
  await buildSidecarIndex([url], index, { columns: ['v'] })
  const unchanged = await openDataset([url], { index })
  const before = await unchanged.probe('v', [1000, 5000])
  await unchanged.close()
  writeFileSync(file, fileOf(5000))
  if (mtime) utimesSync(file, mtime, mtime)
  const bytes = readFileSync(file)
  const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
  assert.ok(rows.some((r) => r.v === 5000))
  const dataset = await openDataset([url], { index })
  const result = await dataset.probe('v', [5000])
  await dataset.close()
  return { before, after: result }
}

test('a server that sends only a weak ETag: a rewrite of the same size is stale-index, not absent', async () => {
  const { before, after } = await rewriteAfterBuild('weak.parquet', 'weak-etag')
  assert.equal(before.totals.index.described, 1, 'the unchanged file is described (its weak ETag is the same)')
  assert.equal(before.files[0].values[1].verdict, 'absent')
  assert.notEqual(after.files[0].values[0].verdict, 'absent', 'the rewritten file holds 5000')
  assert.deepEqual(after.totals.index.reasons, { 'validator-differs': 1 })
})

test('a Last-Modified less than a second before the response\'s Date: the file is not taken for the one indexed', async () => {
  // Both versions carry the same modification time, ahead of the server's clock: the same Last-Modified.
  const mtime = new Date(Math.ceil(Date.now() / 1000) * 1000 + 5000)
  const { after } = await rewriteAfterBuild('fresh.parquet', 'last-modified', { mtime })
  assert.notEqual(after.files[0].values[0].verdict, 'absent', 'the rewritten file holds 5000')
  assert.equal(after.totals.index.described, 0)
})

test('a server on a file system of 2 s times (FAT): a Last-Modified a second before the Date is not settled either', async () => {
  // FAT keeps times to 2 s: every write in [E, E + 2 s) is stamped E. Built in the second after E (the Date one second
  // past the Last-Modified), then rewritten within those 2 s: the same size and Last-Modified, other values.
  while (Date.now() % 2000 < 1000 || Date.now() % 2000 > 1400) await new Promise((resolve) => setTimeout(resolve, 20))
  const stamped = new Date(Date.now() - (Date.now() % 2000))
  const { after } = await rewriteAfterBuild('fat.parquet', 'last-modified', { mtime: stamped })
  assert.ok(Date.now() - stamped.getTime() < 2000, 'rewritten within the 2 s that FAT stamps alike')
  assert.notEqual(after.files[0].values[0].verdict, 'absent', 'the rewritten file holds 5000')
  assert.equal(after.totals.index.described, 0)
})

test('nginx\'s strong ETag (the mtime\'s second and the size) with a recent Last-Modified: not settled either', async () => {
  // Both versions carry one modification time (a file system of 1 s times, a rewrite within the second): one ETag.
  const mtime = new Date(Math.floor(Date.now() / 1000) * 1000)
  const { before, after } = await rewriteAfterBuild('nginx.parquet', 'nginx-etag', { mtime })
  assert.notEqual(after.files[0].values[0].verdict, 'absent', 'the rewritten file holds 5000')
  assert.equal(before.totals.index.described, 0, 'recorded unsettled')
  assert.deepEqual(after.totals.index.reasons, { 'validator-unsettled': 1 })
  // Settled (a Last-Modified well before the Date), the ETag describes the unchanged file.
  const settled = await rewriteAfterBuild('nginx-settled.parquet', 'nginx-etag', { mtime: new Date(Date.now() - 3_600_000) })
  assert.equal(settled.before.totals.index.described, 1)
  assert.equal(settled.before.files[0].values[1].verdict, 'absent')
})

test('a Last-Modified well before the Date still describes the unchanged file', async () => {
  const { before } = await rewriteAfterBuild('settled.parquet', 'last-modified', { mtime: new Date(Date.now() - 3_600_000) })
  assert.equal(before.totals.index.described, 1)
  assert.equal(before.files[0].values[1].verdict, 'absent')
})

test('update: a file rewritten just before the update is recorded as unsettled too, so a rewrite right after is not absent', async () => {
  const file = path.join(dir, 'updated.parquet')
  writeFileSync(file, fileOf(1000))
  utimesSync(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000))
  server.setMode('last-modified')
  const url = server.url('updated.parquet')
  const index = path.join(dir, 'updated.puffin')
  await buildSidecarIndex([url], index, { columns: ['v'] })
  // Rewritten (its Last-Modified ahead of the server's clock), the index updated, then rewritten again with that date.
  const mtime = new Date(Math.ceil(Date.now() / 1000) * 1000 + 5000)
  writeFileSync(file, fileOf(3000))
  utimesSync(file, mtime, mtime)
  const updated = await buildSidecarIndex([url], index + '.new', { columns: ['v'], update: index })
  assert.equal(updated.rebuilt, 1)
  writeFileSync(file, fileOf(5000))
  utimesSync(file, mtime, mtime)
  const dataset = await openDataset([url], { index: index + '.new' })
  const result = await dataset.probe('v', [5000])
  await dataset.close()
  assert.notEqual(result.files[0].values[0].verdict, 'absent', 'the file holds 5000')
})
