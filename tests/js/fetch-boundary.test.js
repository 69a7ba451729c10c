// Only js/sources/ sends requests: every other module of js/ reads through a byte source or
// js/sources/object-reads.js, so retries, timeouts, redaction and validators hold for every request. A
// fetch may pass through other modules as a value (options.fetch handed on); calling one, reaching the
// runtime's (globalThis.fetch) or taking js/sources/default-fetch.js's defaultFetch is refused here.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { JS_DIR, jsModules } from './helpers/js-modules.js'

/**
 * The code of a module with comments, string contents and regular expression literals blanked (a
 * template literal's ${…} kept: it is code), so that only code is searched. Newlines are kept, for
 * line numbers.
 */
function codeOnly(text) {
  let out = ''
  let i = 0
  let lastSignificant = ''
  const templateDepths = [] // brace depth at each open ${ of a template literal
  let depth = 0
  const blank = (s) => s.replace(/[^\n]/g, ' ')
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i)
      const stop = end < 0 ? text.length : end
      out += blank(text.slice(i, stop))
      i = stop
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end < 0 ? text.length : end + 2
      out += blank(text.slice(i, stop))
      i = stop
    } else if (c === '\'' || c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1
      out += c + blank(text.slice(i + 1, j)) + c
      i = j + 1
      lastSignificant = 'a'
    } else if (c === '`' || (c === '}' && templateDepths.length && templateDepths.at(-1) === depth)) {
      if (c === '}') templateDepths.pop()
      let j = i + 1
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1
      out += c + blank(text.slice(i + 1, j))
      if (text[j] === '$') {
        templateDepths.push(depth)
        out += '${'
        i = j + 2
      } else {
        out += '`'
        i = j + 1
        lastSignificant = 'a'
      }
    } else if (c === '/' && (lastSignificant === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant) || /\b(return|typeof|case|in|of|void|throw)$/.test(out.trimEnd()))) {
      // A regular expression literal (where a value may start): up to its unescaped closing slash.
      let j = i + 1
      let inClass = false
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '[') inClass = true
        else if (text[j] === ']') inClass = false
        j += text[j] === '\\' ? 2 : 1
      }
      out += '/' + blank(text.slice(i + 1, j)) + '/'
      i = j + 1
      lastSignificant = 'a'
    } else {
      if (c === '{') depth++
      else if (c === '}') depth--
      if (!/\s/.test(c)) lastSignificant = c
      out += c
      i++
    }
  }
  return out
}

/** What in `code` reaches or calls a fetch, with its line: [{ line, what }]. */
function fetchUses(text) {
  const code = codeOnly(text)
  const found = []
  const at = (index) => code.slice(0, index).split('\n').length
  const scan = (pattern, what) => {
    for (const m of code.matchAll(pattern)) found.push({ line: at(m.index), what: `${what}: ${m[0].trim()}` })
  }
  scan(/\b(?:globalThis|window|self)\s*\.\s*fetch\b/g, 'the runtime\'s fetch')
  scan(/(?<![\w$.#])fetch\s*\(/g, 'a call of fetch')
  scan(/[.#]\s*fetch\s*\(/g, 'a call of a fetch held in a property')
  scan(/\bdefaultFetch\b/g, 'the default fetch')
  // A fetch bound to another name (`const send = options.fetch`, `{ fetch: send }`) and called under it.
  const aliases = new Set()
  for (const m of code.matchAll(/\b(?:const|let|var)\s+([\w$]+)\s*=\s*[^;\n]*?\bfetch\b/g)) aliases.add(m[1])
  for (const m of code.matchAll(/\bfetch\s*:\s*([A-Za-z_$][\w$]*)\s*(?=[,}=])/g)) aliases.add(m[1])
  for (const alias of aliases) scan(new RegExp(`(?<![\\w$.#])${alias.replace(/\$/g, '\\$')}\\s*\\(`, 'g'), `a call of ${alias}, a fetch`)
  return found
}

test('the scan finds every way of calling a fetch, and passes a fetch handed on as a value', () => {
  const calls = [
    'await fetch(url)',
    'const r = await globalThis.fetch(url, { method: "HEAD" })',
    'const f = globalThis.fetch',
    'return options.fetch(url)',
    'this.#fetch(url, init)',
    'const send = options.fetch ?? other\nawait send(url)',
    'function read({ fetch: send }) { return send(url) }',
    'import { defaultFetch } from "../sources/default-fetch.js"',
    'const x = `${await fetch(url)}`',
  ]
  for (const code of calls) assert.notDeepEqual(fetchUses(code), [], `not found in: ${code}`)
  const values = [
    'openObject(url, { fetch: options.fetch, headers })',
    'const { files, fetch } = await listDataset(source, options)\nreturn new ParquetDataset(files, fetch ? { ...options, fetch } : options)',
    'function check(input, { fetch: fetchImpl, signal } = {}) { return headObject(input, { fetch: fetchImpl, signal }) }',
    '// fetch(url) in a comment\nconst s = "fetch(url)"; const t = `globalThis.fetch(${"x"})`',
    'const re = /fetch\\(/g',
    'const n = stats.fetched + 1',
  ]
  for (const code of values) assert.deepEqual(fetchUses(code), [], `found in: ${code}`)
})

test('no module of js/ outside js/sources/ calls fetch, reaches globalThis.fetch or takes the default fetch', () => {
  const outside = jsModules().filter((m) => !m.startsWith('sources/'))
  assert.ok(outside.length > 50, 'the modules were found')
  const offences = outside.flatMap((m) => fetchUses(readFileSync(path.join(JS_DIR, m), 'utf8')).map((u) => `js/${m}:${u.line}: ${u.what}`))
  assert.deepEqual(offences, [], 'read through js/sources/ (a byte source, or readObject / openObject / headObject in js/sources/object-reads.js)')
})
