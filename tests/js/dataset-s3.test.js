// openDataset('s3://…') end to end over a real S3 implementation (s3rver behind a latency proxy,
// testkit/s3-server.js) with a Hive dataset DuckDB wrote: the listing gives every file's size and
// ETag, so the footers are one exact range each and a second probe validates them without a footer read;
// signed GETs; partitions answer with no request beyond the listing. Checked against DuckDB's answers.
import assert from 'node:assert/strict'
import { readFile, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'

import { openDataset } from '../../js/index.js'
import { filesHolding, writeHiveDataset } from '../../testkit/hive-dataset.js'
import { runCli } from './helpers/run-cli.js'
import { startS3Server } from '../../testkit/s3-server.js'

const BUCKET = 'pb-dataset'
const KEY = { accessKeyId: 'AKIDDATASETTEST', secretAccessKey: 'dataset-secret-MUST-NOT-APPEAR/+=' }

let s3
let dir
let root
let local
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pb-dataset-s3-'))
  root = path.join(dir, 'events')
  await writeHiveDataset(root, { days: 4, bloom: true, rowsPerFile: 2000 })
  local = await openDataset(root)
  s3 = await startS3Server({ buckets: [BUCKET], keyPairs: [KEY] })
  for (const f of local.files) await s3.put(BUCKET, `events/${f.path}`, await readFile(path.join(root, f.path)))
  await s3.put(BUCKET, 'events/_SUCCESS', new Uint8Array(0))
  s3.requireSignature(KEY)
  // A footer cache keeps no entry of an object modified less than 3 s before (its Last-Modified): the second probes
  // below are answered from the first's footers.
  await delay(3000)
})
after(async () => {
  await s3?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
})

test('a signed S3 glob: the listing\'s paths, sizes and ETags; partitions from the keys; answers as DuckDB\'s', async () => {
  const dataset = await openDataset(`s3://${BUCKET}/events/**/*.parquet`, { endpoint: s3.endpoint, credentials: KEY })
  assert.deepEqual(dataset.files.map((f) => f.path), local.files.map((f) => f.path))
  assert.deepEqual(dataset.files.map((f) => f.size), local.files.map((f) => f.size))
  assert.deepEqual(dataset.files.map((f) => f.partitions), local.files.map((f) => f.partitions))
  assert.ok(dataset.files.every((f) => /^"[0-9a-f]+"$/.test(f.validator)), 'every file has its ETag')
  const values = [1003, 4003, 7]
  const result = await dataset.probe('user_id', values, { confirm: true })
  for (const [k, value] of values.entries()) {
    const truth = await filesHolding(root, `user_id = ${value}`)
    for (const file of result.files) {
      assert.equal(file.error, null)
      assert.equal(file.values[k].verdict, truth.has(file.path) ? 'present' : 'absent', `${file.path}: ${value}`)
    }
  }
  assert.ok(!JSON.stringify(result).includes(KEY.secretAccessKey))
})

test('30 ms per response: footers exact ranges in one wave, a second probe one round, partitions none', async (t) => {
  const dataset = await openDataset(`s3://${BUCKET}/events/`, { endpoint: s3.endpoint, credentials: KEY })
  s3.setLatency(30)
  try {
    s3.resetStats()
    const first = await dataset.probe('user_id', [4003], { statistics: false })
    t.diagnostic(`first: ${first.stats.rounds} rounds, ${first.stats.requests} requests, ${(first.stats.bytes / 1000).toFixed(1)} KB, ${first.stats.ms.toFixed(0)} ms`)
    assert.equal(s3.stats.requests, first.stats.requests, JSON.stringify(s3.stats.log.map((e) => [e.method, e.path, e.range, e.status])))
    assert.ok(first.stats.rounds <= 3, `${first.stats.rounds} rounds`)
    for (const entry of s3.stats.log) assert.match(entry.range ?? '', /^bytes=\d+-\d+$/, 'an exact range, no suffix, no HEAD')
    s3.resetStats()
    const second = await dataset.probe('user_id', [4003], { statistics: false })
    t.diagnostic(`second: ${second.stats.rounds} rounds, ${second.stats.requests} requests, ${(second.stats.bytes / 1000).toFixed(1)} KB, ${second.stats.ms.toFixed(0)} ms`)
    assert.equal(second.stats.footersFromCache, dataset.files.length)
    assert.equal(second.stats.rounds, 1)
    assert.deepEqual(second.files.map((f) => f.values[0].verdict), first.files.map((f) => f.values[0].verdict))
    s3.resetStats()
    const partition = await dataset.probe('country', ['FR'])
    assert.equal(s3.stats.requests, 0)
    assert.equal(partition.files.filter((f) => f.values[0].verdict === 'maybe').length, 4)
  } finally {
    s3.setLatency(0)
  }
})

test('parquet-bloom probe s3://…: --endpoint, credentials from the environment, never in the output', async () => {
  const run = (args) => runCli(args, { env: { AWS_ACCESS_KEY_ID: KEY.accessKeyId, AWS_SECRET_ACCESS_KEY: KEY.secretAccessKey, AWS_REGION: 'us-east-1' } })
  const r = await run(['probe', `s3://${BUCKET}/events/`, '--endpoint', s3.endpoint, '-c', 'user_id', '-v', '1003', '--json'])
  assert.equal(r.code, 0, r.stderr)
  const doc = JSON.parse(r.stdout)
  const truth = await filesHolding(root, 'user_id = 1003')
  assert.equal(doc.files.length, local.files.length)
  for (const f of doc.files) if (truth.has(f.file)) assert.notEqual(f.values[0].verdict, 'absent', f.file)
  assert.ok(!(r.stdout + r.stderr).includes(KEY.secretAccessKey))
  const inspect = await run(['inspect', `s3://${BUCKET}/events/`, '--endpoint', s3.endpoint])
  assert.equal(inspect.code, 0, inspect.stderr)
  assert.match(inspect.stdout, /^ {2}user_id\s+INT64\s+12\s+100% \(12\/12\)/m)
})

test('what the listing cost: dataset.listing counts the pages the server saw', async () => {
  s3.resetStats()
  // maxKeys 3: the listing takes several pages, one after another.
  const dataset = await openDataset(`s3://${BUCKET}/events/`, { endpoint: s3.endpoint, credentials: KEY, maxKeys: 3 })
  const pages = s3.stats.log.filter((e) => e.method === 'GET' && /list-type=2/.test(e.path + (e.query ?? '')))
  assert.ok(pages.length >= 3, `${pages.length} listing pages`)
  assert.equal(s3.stats.requests, pages.length, 'opening a listed dataset sends only the listing')
  assert.equal(dataset.listing?.requests, pages.length)
  assert.equal(dataset.listing?.rounds, pages.length)
  assert.ok(dataset.listing.bytesFetched > 0)
  assert.equal(local.listing, undefined, 'a local folder is not a listing over the network')
})

test('opened with plan: true, the first planned probe lists the listing\'s pages before its own reads', async () => {
  s3.resetStats()
  const dataset = await openDataset(`s3://${BUCKET}/events/`, { endpoint: s3.endpoint, credentials: KEY, maxKeys: 3, plan: true })
  const pages = s3.stats.requests
  s3.resetStats()
  const result = await dataset.probe('user_id', [4003], { plan: true, statistics: false })
  const listing = result.plan.requests.filter((r) => r.purpose === 'listing')
  assert.equal(listing.length, pages, 'every page of the listing is in the plan')
  assert.deepEqual(listing.map((r) => r.round), listing.map((_, i) => i + 1), 'the pages follow one another')
  assert.ok(result.plan.requests.filter((r) => r.purpose !== 'listing').every((r) => r.round > pages), 'the files are read after the listing')
  assert.equal(result.plan.requests.length, pages + s3.stats.requests, 'the plan lists the listing and every request of the probe')
  assert.equal(result.stats.requests, s3.stats.requests, 'the probe\'s stats count its own requests')
  const again = await dataset.probe('user_id', [1003], { plan: true, statistics: false })
  assert.ok(again.plan.requests.every((r) => r.purpose !== 'listing'), 'a later plan lists its probe only')
})

test('a prefix skips bookkeeping (_SUCCESS, _tmp/) but not a `_key=value` folder DuckDB wrote; a key is its one object', async () => {
  // DuckDB's COPY … PARTITION_BY (_shard) writes `_shard=0/…`: a column named with an underscore is still data.
  const file = await readFile(path.join(root, local.files[0].path))
  const keys = ['shards/_shard=0/day=1/data_0.parquet', 'shards/_shard=1/day=1/data_0.parquet', 'shards/_SUCCESS',
    'shards/_tmp/data_0.parquet', 'shards/.staging/data_0.parquet', 'shards/_shard=1/_b.parquet']
  for (const key of keys) await s3.put(BUCKET, key, file)
  const dataset = await openDataset(`s3://${BUCKET}/shards/`, { endpoint: s3.endpoint, credentials: KEY })
  assert.deepEqual(dataset.files.map((f) => f.path), ['_shard=0/day=1/data_0.parquet', '_shard=1/day=1/data_0.parquet'])
  assert.deepEqual(dataset.files.map((f) => f.partitions), [{ _shard: 0, day: 1 }, { _shard: 1, day: 1 }])
  // A key naming one object is that object, whatever its name (Hive's own writer names its files 000000_0), as a local path.
  await s3.put(BUCKET, 'hive/000000_0', file)
  for (const key of ['shards/_shard=1/_b.parquet', 'hive/000000_0']) {
    const one = await openDataset(`s3://${BUCKET}/${key}`, { endpoint: s3.endpoint, credentials: KEY })
    assert.deepEqual(one.files.map((f) => f.path), [key.split('/').pop()])
    const probed = await one.probe('user_id', [1003])
    assert.equal(probed.files[0].error, null)
  }
})
