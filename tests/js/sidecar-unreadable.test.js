// A chunk whose pages the builder could not read has no filter in the sidecar index; both formats answer
// it `unknown` (the index cannot describe it), never `maybe` and never `absent`, whatever the value, and
// keep answering the other chunks from their filters. The truth here is the generator: each chunk's filter
// is built with hyparquet's SBBF (testkit/reference-sbbf.js) from the values it holds.
import assert from 'node:assert/strict'
import path from 'node:path'
import { before, test } from 'node:test'

import { init } from '../../js/index.js'
import { openSidecarIndex } from '../../js/index-builder/index.js'
import { writeSidecarFiles } from '../../js/index-builder/sidecar-build.js'
import { referenceFilter } from '../../testkit/reference-sbbf.js'
import { tempDir } from '../../testkit/temp-dir.js'

const FILES = 40
const GROUPS = 4
const TYPE = { physicalType: 'INT64', typeLength: null, logicalType: null }
/** Row group g of file f holds these values. */
const held = (f, g) => [BigInt(f * 1000 + g * 10), BigInt(f * 1000 + g * 10 + 1)]
/** Chunks the builder could not read: [file, row group]. */
const UNREADABLE = [[3, 1], [3, 2], [17, 0]]
const isUnreadable = (f, g) => UNREADABLE.some(([uf, ug]) => uf === f && ug === g)

const dir = await tempDir('sidecar-unreadable')

function* files() {
  for (let f = 0; f < FILES; f++) {
    const rowGroups = []
    for (let g = 0; g < GROUPS; g++) {
      const filter = referenceFilter(64, 'INT64')
      for (const v of held(f, g)) filter.insert(v)
      const values = held(f, g)
      rowGroups.push({ numRows: values.length, chunks: { id: isUnreadable(f, g) ? null : { bitset: filter.bytes(), min: String(values[0]), max: String(values.at(-1)) } } })
    }
    yield { path: `part-${f}.parquet`, size: 1000 + f, validator: `etag:"v${f}"`, numRows: GROUPS * 2, columns: { id: TYPE }, rowGroups }
  }
}

before(async () => {
  await init()
  for (const format of [1, 2]) await writeSidecarFiles(files(), path.join(dir, `v${format}.puffin`), { format, columns: ['id'] })
})


for (const format of [1, 2]) {
  test(`format ${format}: an unreadable chunk is unknown for every value; the others answer from their filters`, async () => {
    const index = await openSidecarIndex(path.join(dir, `v${format}.puffin`))
    try {
      const listing = Array.from({ length: FILES }, (_, f) => ({ path: `part-${f}.parquet`, size: 1000 + f, validator: `etag:"v${f}"` }))
      // A value of an unreadable chunk, a value of a readable one, and a value stored nowhere.
      const values = [held(3, 1)[0], held(5, 2)[1], 999_999n]
      const { files: answered } = await index.probe('id', values, { files: listing, validate: false })
      for (let f = 0; f < FILES; f++) {
        assert.equal(answered[f].current, true)
        for (let g = 0; g < GROUPS; g++) {
          const results = answered[f].rowGroups[g].results
          values.forEach((v, k) => {
            const verdict = results[k].verdict
            if (isUnreadable(f, g)) {
              assert.equal(verdict, 'unknown', `file ${f}, row group ${g}, value ${v}`)
              assert.equal(results[k].reason, 'no-index')
            } else if (held(f, g).includes(v)) assert.equal(verdict, 'maybe', `file ${f}, row group ${g}, value ${v}`)
            else assert.notEqual(verdict, 'unknown')
          })
        }
      }
      if (format === 2) {
        // The entries say so too (null, as format 1's directory), so an update does not make a filter of them.
        await index.loadDirectory()
        assert.equal(index.files[3].rowGroups[1].chunks.id, null)
        assert.equal(index.files[17].rowGroups[0].chunks.id, null)
        assert.ok(Array.isArray(index.files[3].rowGroups[0].chunks.id))
      }
    } finally {
      await index.close()
    }
  })
}
