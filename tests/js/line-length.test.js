// Lines of js/ a reader sees whole: in the folders and files listed here no line runs past
// MAX_LINE_CHARS characters, so none needs side-scrolling or soft wrap to be read. A folder joins the
// list once its long lines are wrapped; when every folder has, the list can become all of js/.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { JS_DIR, jsModules } from './helpers/js-modules.js'

const MAX_LINE_CHARS = 140

// Paths under js/: a folder ends with '/', a file is named whole.
const CLEAN = [
  'advice/',
  'cli/',
  'confirm/',
  'crypto/',
  'dataset/',
  'filter/',
  'footer/',
  'format/',
  'indexes/',
  'pages/',
  'plan/',
  'sidecar/',
  'sources/',
  'values/',
  'wasm/',
  'cli.js',
  'errors.js',
  'index-builder/add-indexes.js',
  'index-builder/build-plan.js',
  'index-builder/chunk-filter.js',
  'index-builder/chunk-scan.js',
  'index-builder/chunk-values.js',
  'index-builder/encrypted-output.js',
  'index-builder/footer-splice.js',
  'index-builder/index.js',
  'index-builder/page-index-writer.js',
  'index-builder/sidecar-build.js',
  'index-builder/sidecar-merge.js',
  'index-builder/sidecar-segments.js',
  'index-builder/sidecar-sliced-writer.js',
  'index-builder/sink.js',
  'index-builder/version.js',
  'parquet-file.js',
  'table/avro-codecs.js',
  'table/avro-interpreted.js',
  'table/avro.js',
  'table/avsc-util.js',
  'table/bound-precision.js',
  'table/column-keys.js',
  'table/deletes.js',
  'table/deletion-vector.js',
  'table/exact-json.js',
  'table/iceberg-pointer.js',
  'table/iceberg-types.js',
  'table/iceberg.js',
  'table/load-table.js',
  'table/manifest-summaries.js',
  'table/open-table.js',
  'table/parquet-rows.js',
  'table/prune.js',
  'table/table-io.js',
  'table/table-location.js',
  'table/table-summary.js',
  'table/widened-files.js',
  'verdicts.js',
  'wasm-loader.js',
]

const covers = (entry, module) => (entry.endsWith('/') ? module.startsWith(entry) : module === entry)

test(`the clean parts of js/ have no line over ${MAX_LINE_CHARS} characters`, () => {
  const modules = jsModules().filter((m) => CLEAN.some((entry) => covers(entry, m)))
  for (const entry of CLEAN) assert.ok(modules.some((m) => covers(entry, m)), `${entry} names no module of js/`)
  const long = []
  for (const module of modules) {
    readFileSync(path.join(JS_DIR, module), 'utf8').split('\n').forEach((line, i) => {
      const chars = [...line].length
      if (chars > MAX_LINE_CHARS) long.push(`js/${module}:${i + 1} (${chars} characters)`)
    })
  }
  assert.deepEqual(long, [], `lines over ${MAX_LINE_CHARS} characters: wrap them`)
})
