// Runs under every runtime tests/runtimes/run.js tries (Node 18/22/24, Bun, Deno): loads the package,
// probes real files by URL (range requests to a local server), by file path and as a Blob, and opens a
// non-Parquet buffer. Prints one JSON document; run.js checks it against DuckDB's truth.
//   <runtime> tests/runtimes/smoke.mjs '<json spec>'
// spec: { wasm: 'default' | 'precompiled', wasmPath, probes: [{ name, kind: 'url' | 'path' | 'blob',
//         location, column, values }] }. 'precompiled' hands init() a compiled WebAssembly.Module, as
// a Workers runtime would, after two it must refuse (bytes, and a module of another build).
import { readFile } from 'node:fs/promises'

import { init, openParquet, ParquetBloomError } from '../../js/index.js'

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2)
const spec = JSON.parse(args[0])

function runtimeName() {
  if (globalThis.Deno) return `deno ${globalThis.Deno.version.deno}`
  if (globalThis.Bun) return `bun ${globalThis.Bun.version}`
  return `node ${process.versions.node}`
}

async function sourceFor({ kind, location }) {
  if (kind === 'url' || kind === 'path') return location
  if (kind === 'blob') return new Blob([await readFile(location)])
  throw new Error(`smoke: unknown source kind ${kind}`)
}

async function probe({ name, kind, location, column, values }) {
  const file = await openParquet(await sourceFor({ kind, location }))
  try {
    const result = await file.probe(column, values)
    return { name, verdicts: result.rowGroups.map((g) => g.results.map((r) => r.verdict)), stats: file.stats }
  } finally {
    await file.close()
  }
}

async function notParquet() {
  try {
    await openParquet(new Uint8Array(64).fill(7))
    return { code: null }
  } catch (error) {
    return { code: error.code, isParquetBloomError: error instanceof ParquetBloomError }
  }
}

/** init({ module }) with what is not parquet_bloom.wasm must fail with its code, and leave init usable. */
async function wrongModules() {
  const codes = []
  const emptyModule = await WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]))
  for (const module of [new Uint8Array(8), emptyModule]) {
    try {
      await init({ module })
      codes.push(null)
    } catch (error) {
      codes.push(error instanceof ParquetBloomError ? error.code : String(error))
    }
  }
  return codes
}

const refused = spec.wasm === 'precompiled' ? await wrongModules() : undefined
if (spec.wasm === 'precompiled') await init({ module: await WebAssembly.compile(await readFile(spec.wasmPath)) })
const probes = []
for (const p of spec.probes) probes.push(await probe(p))
console.log(JSON.stringify({ runtime: runtimeName(), wasm: spec.wasm, refused, probes, notParquet: await notParquet() }))
