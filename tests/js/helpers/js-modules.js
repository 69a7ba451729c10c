// The source modules of js/ for the tests that check the package's shape (the module map, the import
// direction, the one fetch boundary): every .js file under js/ by its path there, '/'-separated,
// without what the builds write (the browser bundle and its chunks, the Emscripten glue and module).
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const JS_DIR = fileURLToPath(new URL('../../../js', import.meta.url))
const BUILT = /^(parquet-bloom\.browser|wasm\/parquet_bloom\.(mjs|wasm)$)/

/**
 * @param {RegExp} [endings] which file names count (default: .js)
 * @returns {string[]}
 */
export function jsModules(endings = /\.js$/, dir = JS_DIR, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    const name = path.relative(JS_DIR, file).split(path.sep).join('/')
    if (entry.isDirectory()) jsModules(endings, file, out)
    else if (endings.test(entry.name) && !BUILT.test(name)) out.push(name)
  }
  return out
}
