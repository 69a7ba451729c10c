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
import { init, openParquet, ParquetBloomError } from 'parquet-bloom'
import wasmModule from 'parquet-bloom/parquet_bloom.wasm'

const MAX_VALUES = 100

export default {
  async fetch(request, env) {
    const params = new URL(request.url).searchParams
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
