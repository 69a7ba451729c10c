// Lines of js/ a reader sees whole: in every source module of js/ (what the builds write, the browser
// bundle and the Emscripten glue, aside) no line runs past MAX_LINE_CHARS characters, so none needs
// side-scrolling or soft wrap to be read.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { JS_DIR, jsModules } from './helpers/js-modules.js'

const MAX_LINE_CHARS = 140

test(`no line of js/ runs over ${MAX_LINE_CHARS} characters`, () => {
  const modules = jsModules()
  assert.ok(modules.length > 0, 'js/ has modules')
  const long = []
  for (const module of modules) {
    readFileSync(path.join(JS_DIR, module), 'utf8').split('\n').forEach((line, i) => {
      const chars = [...line].length
      if (chars > MAX_LINE_CHARS) long.push(`js/${module}:${i + 1} (${chars} characters)`)
    })
  }
  assert.deepEqual(long, [], `lines over ${MAX_LINE_CHARS} characters: wrap them`)
})
