// addIndexes over the hostile corpus (tests/js/helpers/hostile-corpus.js: broken magic, footer lengths,
// truncations, Thrift bombs, every way a bloom filter can be wrong): every case ends in a typed error or
// a copy that opens, and where it rebuilt a chunk's filter from the pages, every value the sample wrote
// into that chunk is found.
import assert from 'node:assert/strict'
import { before, test } from 'node:test'

import { init, ParquetBloomError } from '../../js/index.js'
import { addIndexes } from '../../js/index-builder/index.js'
import { buildCorpus } from './helpers/hostile-corpus.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withFile } from './helpers/with-file.js'

const dir = await tempDir('index-hostile')
let corpus

before(async () => {
  await init()
  corpus = await buildCorpus(dir)
})

test('every hostile file: a typed error, or a copy that opens and finds every value of the chunks it rebuilt', async (t) => {
  const columns = ['i32', 'i64', 'str']
  const outcomes = { copied: 0, refused: new Map() }
  for (const c of corpus.cases) {
    let result
    try {
      result = await addIndexes(c.path, null, { columns, replace: true, pageIndex: true })
    } catch (error) {
      assert.ok(error instanceof ParquetBloomError, `${c.name}: ${error?.stack ?? error}`)
      outcomes.refused.set(error.code, (outcomes.refused.get(error.code) ?? 0) + 1)
      continue
    }
    outcomes.copied++
    const bytes = new Uint8Array(await result.blob.arrayBuffer())
    await withFile(bytes, {}, async (file) => {
      for (const added of result.added) {
        const stored = corpus.sample.columns[added.column]?.rowGroups[added.rowGroup]
        if (!stored || file.layout.rowGroupRows[added.rowGroup] !== corpus.sample.rowGroupRows[added.rowGroup]) continue
        const values = stored.filter((e) => e.expect !== 'unknown').map((e) => e.forms[0])
        const probed = await file.probe(added.column, values, { statistics: false, rowGroups: [added.rowGroup], dictionary: false, pageIndex: false })
        const wrong = probed.rowGroups[0].results.filter((r) => r.verdict === 'absent')
        assert.equal(wrong.length, 0, `${c.name}: row group ${added.rowGroup}, ${added.column}: ${wrong.length} stored values answered absent (${wrong[0]?.detail})`)
      }
    })
  }
  t.diagnostic(`${corpus.cases.length} cases: ${outcomes.copied} copied, refused ${JSON.stringify(Object.fromEntries(outcomes.refused))}`)
  assert.ok(outcomes.copied > 10)
})
