// The reason codes exist in three places: REASONS (js/verdicts.js, what the code answers with),
// ReasonCode (js/index.d.ts, what TypeScript users switch on) and the reason table of docs/verdicts.md
// (what people read). They must name the same codes, and the table must give each the verdict REASONS gives it.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { REASONS } from '../../js/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (file) => readFileSync(path.join(root, file), 'utf8')

/** ReasonCode's members: the string literals of its union in js/index.d.ts. */
function declaredReasonCodes() {
  const union = read('js/index.d.ts').match(/^export type ReasonCode =([\s\S]*?)\n\n/m)
  assert.ok(union, 'js/index.d.ts declares `export type ReasonCode = …`')
  return [...union[1].matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1])
}

/** docs/verdicts.md's reason table: `code` (or `a` / `b`) | verdict(s) | when. */
function documentedReasons() {
  const page = read('docs/verdicts.md')
  const start = page.indexOf('| `reason` | verdict | when |')
  assert.ok(start >= 0, 'docs/verdicts.md has the reason table (| `reason` | verdict | when |)')
  const rows = page.slice(start).split('\n').slice(2)
  const reasons = new Map()
  for (const row of rows) {
    if (!row.startsWith('|')) break
    const [codes, verdicts] = row.split('|').slice(1, 3)
    const verdictList = verdicts.trim().split(/\s*\/\s*/)
    for (const m of codes.matchAll(/`([a-z0-9-]+)`/g)) reasons.set(m[1], verdictList)
  }
  return reasons
}

test('REASONS, ReasonCode and docs/verdicts.md name the same reason codes', () => {
  const codes = Object.keys(REASONS).sort()
  assert.deepEqual(declaredReasonCodes().sort(), codes, 'ReasonCode in js/index.d.ts against REASONS')
  assert.deepEqual([...documentedReasons().keys()].sort(), codes, 'docs/verdicts.md\'s reason table against REASONS')
})

test('docs/verdicts.md gives each reason the verdict REASONS gives it (several where REASONS says null)', () => {
  for (const [code, verdicts] of documentedReasons()) {
    const { verdict } = REASONS[code]
    if (verdict === null) assert.ok(verdicts.length > 1, `${code}: REASONS allows several verdicts, docs/verdicts.md lists ${verdicts.join(' / ')}`)
    else assert.deepEqual(verdicts, [verdict], `${code}: docs/verdicts.md's verdict`)
  }
})
