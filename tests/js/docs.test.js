// The README is an entry and docs/ the manual: every relative link in README.md, ARCHITECTURE.md and docs/*.md
// must lead to a file that exists and, with an anchor into a markdown page, to a heading of that page (by
// GitHub's slug rules), so moving text between pages cannot leave a link dangling. And the README stays short.
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (file) => readFileSync(path.join(root, file), 'utf8')
const pages = ['README.md', 'ARCHITECTURE.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** The lines of a markdown page outside fenced code blocks (a `# comment` in a shell block is no heading). */
function proseLines(text) {
  const lines = []
  let fence = null
  for (const line of text.split('\n')) {
    const marker = line.match(/^\s*(`{3,}|~{3,})/)
    if (marker) {
      if (fence === null) fence = marker[1][0]
      else if (marker[1][0] === fence) fence = null
      continue
    }
    if (fence === null) lines.push(line)
  }
  return lines
}

/** GitHub's anchor for a heading: its text lowercased, punctuation dropped, each space a '-'. */
function slug(heading) {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading anchors by its text
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/ /g, '-')
}

/** The anchors of a page's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchors(text) {
  const seen = new Map()
  const found = new Set()
  for (const line of proseLines(text)) {
    const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/)
    if (!heading) continue
    const base = slug(heading[1])
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    found.add(count === 0 ? base : `${base}-${count}`)
  }
  return found
}

/** Every inline link target of a page's prose (not inside code spans). */
function linkTargets(text) {
  const targets = []
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, (code) => (code.includes('](') ? '' : code))
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(m[1])
  }
  return targets
}

test('the slug rules match GitHub on this project\'s headings', () => {
  assert.equal(slug('Tables (`openTable`: Iceberg and Delta)'), 'tables-opentable-iceberg-and-delta')
  assert.equal(slug('Values are converted by the column\'s type'), 'values-are-converted-by-the-columns-type')
  assert.equal(slug('Command line: `parquet-bloom`'), 'command-line-parquet-bloom')
  assert.equal(slug('Rounds, not requests'), 'rounds-not-requests')
  assert.deepEqual([...anchors('# Probing\n```sh\n# not a heading\n```\n## Probing\n')], ['probing', 'probing-1'])
})

test('every relative link in README.md, ARCHITECTURE.md and docs/*.md leads to a file and, with an anchor, a heading', () => {
  const broken = []
  let checked = 0
  for (const page of pages) {
    for (const target of linkTargets(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:: not ours to check
      checked++
      const [file, anchor] = target.split('#')
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
      if (resolved.startsWith('..') || !existsSync(path.join(root, resolved))) {
        broken.push(`${page}: ${target} (no file ${resolved})`)
        continue
      }
      if (anchor === undefined || !resolved.endsWith('.md')) continue
      if (!anchors(read(resolved)).has(anchor)) broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`)
    }
  }
  assert.ok(checked > 50, `found only ${checked} relative links: the link pattern no longer matches the pages`)
  assert.deepEqual(broken, [])
})

test('README.md is an entry: under 400 lines, linking every page of docs/', () => {
  const readme = read('README.md')
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)
  assert.ok(lines < 400, `README.md has ${lines} lines; move reference text into docs/`)
  const linked = new Set(linkTargets(readme).map((t) => t.split('#')[0]))
  const unlinked = pages.filter((p) => p.startsWith('docs/') && !linked.has(p))
  assert.deepEqual(unlinked, [], 'pages of docs/ the README does not list')
})
