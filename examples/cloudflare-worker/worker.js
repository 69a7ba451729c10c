// A Cloudflare Worker (or any workerd host) that answers "could this Parquet file hold these values?"
// from the file's bloom filters, reading only the footer and filter bytes over range requests:
//   GET /?file=orders.parquet&column=city&value=Tokyo&value=Atlantis[&confirm=1]
// → { file, column, values, rowGroups: [{ index, verdicts: ['maybe', 'absent'], reasons, rows? }], stats }
// With confirm=1 the data pages that may hold the values are read too (an exact lookup): verdicts are
// then 'present' or 'absent', and `rows` lists, per value, the file's rows holding it.
// Workers forbid compiling wasm from bytes at run time; importing the .wasm gives a precompiled
// WebAssembly.Module (wrangler's default CompiledWasm rule, or a `wasm` module in a workerd config),
// which init({ module }) instantiates. Files are read from env.PARQUET_BASE_URL only: the request names
// a file under it, never a URL of its own choosing.
// A dataset too large for one invocation is split over many:
//   GET /shards?file=a.parquet&file=b.parquet…&column=city&value=Tokyo[&shards=4]
// fans out one sub-request per shard to this same Worker (the SELF service binding), each probing its
// share of the files (`probe(…, { shard: { index, count } })`: by a hash of each path, the same in every
// invocation) at GET /shard?…&index=i&count=n, and merges their answers with mergeShardResults:
// → { files: [{ path, values: [{ value, verdict, source, reason }], error }], totals, stats, shards }
// An Iceberg or Delta table under PARQUET_BASE_URL, its files ruled out by the table's metadata first:
//   GET /table?table=warehouse/events/&column=user_id&value=42
// → { format, files: [{ path, values: [{ value, verdict, source, reason }], error }], totals, stats }
// A sidecar index of many files is built the same way, in shards, and merged:
//   GET /index?file=a.parquet&file=b.parquet…&column=city[&shards=4]
// fans out GET /index-shard?…&index=i&count=n, each invocation building its shard's segment
// (buildSidecarIndex(…, { shard })), and merges the segments (mergeSidecarSegments): the response is the
// index file, the very bytes one build of all the files writes.
import { init, mergeShardResults, openDataset, openParquet, openTable, ParquetBloomError } from 'parquet-bloom'
import { buildSidecarIndex, mergeSidecarSegments } from 'parquet-bloom/index-builder'
import wasmModule from 'parquet-bloom/parquet_bloom.wasm'

const MAX_VALUES = 100
const MAX_FILES = 1000
const MAX_SHARDS = 32

export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    if (url.pathname === '/shards') return fanOut(url, env, request.signal)
    if (url.pathname === '/shard') return probeShard(url, env, request.signal)
    if (url.pathname === '/table') return probeTable(url, env, request.signal)
    if (url.pathname === '/index' || url.pathname === '/index-shard') return sidecarIndex(url, env, request.signal)
    const params = url.searchParams
    const column = params.get('column')
    const values = params.getAll('value')
    const base = new URL(env.PARQUET_BASE_URL)
    const file = new URL(params.get('file') ?? '', base)
    if (!column || values.length === 0 || values.length > MAX_VALUES) {
      return Response.json({ error: { code: 'BAD_REQUEST', message: `need ?file=…&column=…&value=… (1 to ${MAX_VALUES} values)` } }, { status: 400 })
    }
    if (file.origin !== base.origin || !file.pathname.startsWith(base.pathname) || file.href === base.href) {
      return Response.json({ error: { code: 'BAD_REQUEST', message: 'file must name a file under PARQUET_BASE_URL' } }, { status: 400 })
    }

    try {
      await init({ module: wasmModule }) // once per isolate; later calls return at once
      const parquet = await openParquet(file, { signal: request.signal })
      try {
        const confirm = params.get('confirm') === '1'
        const result = await parquet.probe(column, values, { confirm })
        return Response.json({
          file: file.pathname.slice(base.pathname.length),
          column,
          values,
          rowGroups: result.rowGroups.map((g) => ({
            index: g.index,
            verdicts: g.results.map((r) => r.verdict),
            reasons: g.results.map((r) => r.reason),
            ...(confirm ? { rows: g.results.map((r) => r.rows ?? []) } : {}),
          })),
          stats: parquet.stats,
        })
      } finally {
        await parquet.close()
      }
    } catch (error) {
      if (!(error instanceof ParquetBloomError)) throw error
      const status = ['COLUMN_NOT_FOUND', 'BAD_VALUE', 'INVALID_ARGUMENT'].includes(error.code) ? 400 : 502
      return Response.json({ error: { code: error.code, message: error.message } }, { status })
    }
  },
}

/** The files a dataset request names, each under PARQUET_BASE_URL (else a Response saying why not); an index build asks no values. */
function datasetRequest(params, env, { needValues = true } = {}) {
  const base = new URL(env.PARQUET_BASE_URL)
  const column = params.get('column')
  const values = params.getAll('value')
  const names = params.getAll('file')
  if (!column || (needValues && values.length === 0) || values.length > MAX_VALUES || names.length === 0 || names.length > MAX_FILES) {
    return Response.json({ error: { code: 'BAD_REQUEST', message: `need file=… (1 to ${MAX_FILES}), column=…, value=… (1 to ${MAX_VALUES})` } }, { status: 400 })
  }
  const files = names.map((name) => new URL(name, base))
  if (files.some((file) => file.origin !== base.origin || !file.pathname.startsWith(base.pathname) || file.href === base.href)) {
    return Response.json({ error: { code: 'BAD_REQUEST', message: 'every file must name a file under PARQUET_BASE_URL' } }, { status: 400 })
  }
  // A dataset's paths are the names as given: the shard a file falls in is then the same in every invocation.
  return { column, values, descriptors: files.map((location, i) => ({ path: names[i], location })) }
}

/** GET /shards: one sub-request per shard to this Worker, side by side; their answers merged as one dataset's. */
async function fanOut(url, env, signal) {
  const asked = datasetRequest(url.searchParams, env)
  if (asked instanceof Response) return asked
  const count = Number(url.searchParams.get('shards') ?? 4)
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_SHARDS)) {
    return Response.json({ error: { code: 'BAD_REQUEST', message: `shards must be an integer from 1 to ${MAX_SHARDS}` } }, { status: 400 })
  }
  const answers = await Promise.all(Array.from({ length: count }, async (_, index) => {
    const query = new URLSearchParams(url.searchParams)
    query.set('index', String(index))
    query.set('count', String(count))
    // The host is not looked up: a service binding hands the request to the Worker itself.
    const response = await env.SELF.fetch(`https://self/shard?${query}`, { signal })
    return { status: response.status, body: await response.json() }
  }))
  const failed = answers.find((a) => a.status !== 200)
  if (failed) return Response.json(failed.body, { status: failed.status })
  const merged = await mergeShardResults(answers.map((a) => a.body))
  return Response.json({ ...merged, shards: answers.map((a) => ({ files: a.body.files.length, requests: a.body.stats.requests })) })
}

/** GET /shard: this invocation's share of the files, probed as one dataset. */
async function probeShard(url, env, signal) {
  const asked = datasetRequest(url.searchParams, env)
  if (asked instanceof Response) return asked
  const shard = { index: Number(url.searchParams.get('index')), count: Number(url.searchParams.get('count')) }
  try {
    await init({ module: wasmModule })
    const dataset = await openDataset(asked.descriptors, { hivePartitioning: false, signal })
    const result = await dataset.probe(asked.column, asked.values, { shard })
    // Only what the merged answer shows (a row group's details stay in the shard).
    const files = result.files.map((f) => ({ path: f.path, rowGroups: f.rowGroups.map((g) => ({ index: g.index, results: g.results.map(({ verdict, source }) => ({ verdict, source })) })),
      values: f.values.map(({ value, verdict, source, reason }) => ({ value, verdict, source, reason })), error: f.error }))
    return Response.json({ files, totals: result.totals, stats: result.stats })
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    return Response.json({ error: { code: error.code, message: error.message } }, { status: error.code === 'INVALID_ARGUMENT' ? 400 : 502 })
  }
}

/** GET /table: an Iceberg or Delta table (format told by its metadata) probed as a dataset of its live files. */
async function probeTable(url, env, signal) {
  const params = url.searchParams
  const column = params.get('column')
  const values = params.getAll('value')
  const base = new URL(env.PARQUET_BASE_URL)
  const location = new URL(params.get('table') ?? '', base)
  if (!column || values.length === 0 || values.length > MAX_VALUES) {
    return Response.json({ error: { code: 'BAD_REQUEST', message: `need ?table=…&column=…&value=… (1 to ${MAX_VALUES} values)` } }, { status: 400 })
  }
  if (location.origin !== base.origin || !location.pathname.startsWith(base.pathname) || location.href === base.href) {
    return Response.json({ error: { code: 'BAD_REQUEST', message: 'table must name a folder under PARQUET_BASE_URL' } }, { status: 400 })
  }
  try {
    await init({ module: wasmModule })
    // The table's own metadata may name only files under its folder (openTable refuses others).
    const table = await openTable(location, { signal })
    try {
      const result = await table.probe(column, values)
      const files = result.files.map((f) => ({ path: f.path, values: f.values.map(({ value, verdict, source, reason }) => ({ value, verdict, source, reason })), error: f.error?.code ?? null }))
      return Response.json({ format: table.table.format, files, totals: result.totals, stats: result.stats })
    } finally {
      await table.close()
    }
  } catch (error) {
    if (!(error instanceof ParquetBloomError)) throw error
    const status = ['COLUMN_NOT_FOUND', 'BAD_VALUE', 'INVALID_ARGUMENT'].includes(error.code) ? 400 : 502
    return Response.json({ error: { code: error.code, message: error.message } }, { status })
  }
}

/** GET /index: the segments of sub-requests to GET /index-shard, merged; GET /index-shard: one shard's segment. */
async function sidecarIndex(url, env, signal) {
  const params = url.searchParams
  const asked = datasetRequest(params, env, { needValues: false })
  if (asked instanceof Response) return asked
  const count = Number(params.get(url.pathname === '/index' ? 'shards' : 'count') ?? 4)
  const index = Number(params.get('index') ?? 0)
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_SHARDS && Number.isInteger(index) && index >= 0 && index < count)) {
    return Response.json({ error: { code: 'BAD_REQUEST', message: `shards must be an integer from 1 to ${MAX_SHARDS}` } }, { status: 400 })
  }
  try {
    await init({ module: wasmModule })
    if (url.pathname === '/index-shard') {
      const urls = asked.descriptors.map((d) => d.location.href)
      const { blob } = await buildSidecarIndex(urls, null, { columns: [asked.column], shard: { index, count }, signal })
      return new Response(blob)
    }
    const segments = await Promise.all(Array.from({ length: count }, async (_, i) => {
      const query = new URLSearchParams(params)
      query.set('index', String(i))
      query.set('count', String(count))
      const response = await env.SELF.fetch(`https://self/index-shard?${query}`, { signal })
      if (!response.ok) throw Object.assign(new Error('a shard failed'), { response })
      return new Uint8Array(await response.arrayBuffer())
    }))
    const { blob } = await mergeSidecarSegments(segments, null)
    return new Response(blob, { headers: { 'content-type': 'application/octet-stream' } })
  } catch (error) {
    if (error?.response) return error.response
    if (!(error instanceof ParquetBloomError)) throw error
    return Response.json({ error: { code: error.code, message: error.message } }, { status: error.code === 'INVALID_ARGUMENT' ? 400 : 502 })
  }
}
