// Minifies Emscripten's JS glue (js/wasm/parquet_bloom.mjs) as it is installed: emcc 3.1.6 strips its whitespace but keeps
// every identifier (no Closure Compiler here), and every browser downloads it with the wasm (the budget of
// tests/js/package.test.js). esbuild renames its locals; property names, the wasm's import and export names and the
// ES module's default export are kept, and the glue has no eval or new Function (-sDYNAMIC_EXECUTION=0) to break.
// Usage: node scripts/minify-glue.js <glue.mjs> <out.mjs>
import { readFile, writeFile } from 'node:fs/promises'
import { transform } from 'esbuild'

const [from, to] = process.argv.slice(2)
const { code } = await transform(await readFile(from, 'utf8'), { minify: true, format: 'esm', legalComments: 'none' })
await writeFile(to, code)
