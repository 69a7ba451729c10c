// examples/cloudflare-worker/config.capnp lists the package's modules one by one (workerd resolves
// imports only among the modules its config names): it must name every module js/index.js reaches, so
// that adding a module to the package cannot silently break the Workers recipe.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { moduleGraph } from '../../scripts/size.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('the Workers example config names every module the package entry reaches', () => {
  const config = readFileSync(path.join(root, 'examples/cloudflare-worker/config.capnp'), 'utf8')
  const named = new Set([...config.matchAll(/name = "node_modules\/parquet-bloom\/([^"]+)"/g)].map((m) => m[1]))
  const reached = moduleGraph().map((file) => path.relative(root, file))
  const missing = reached.filter((file) => !named.has(file))
  assert.deepEqual(missing, [], `add these to examples/cloudflare-worker/config.capnp: ${missing.join(', ')}`)
})
