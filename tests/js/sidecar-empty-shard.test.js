// A sharded sidecar build over fewer files than shards leaves shards that hold no file; each must still be a
// segment that opens and merges (a format-2 segment of no files was refused as "its segments do not cover its
// files in order", so `index merge` of 16 shards over a small dataset failed). Truth: the values hyparquet-writer
// was given, and the one-shot build's answers.
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { buildSidecarIndex, mergeSidecarSegments, openSidecarIndex } from '../../js/index-builder/index.js'
import { settleMtimes } from '../../testkit/settled-mtimes.js'
import { tempDir } from '../../testkit/temp-dir.js'

const top = await tempDir('sidecar-empty-shard')

for (const format of [1, 2]) {
  test(`format ${format}: 16 shards over 3 files (most shards empty) merge into the one-shot index`, async () => {
    const dir = path.join(top, `sidecar-empty-shard-${format}`)
    mkdirSync(dir)
    const held = [[11, 12, 13], [21, 22], [31]]
    const files = held.map((values, f) => {
      const file = path.join(dir, `f${f}.parquet`)
      writeFileSync(file, new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'v', data: Int32Array.from(values), type: 'INT32' }] })))
      return file
    })
    await settleMtimes(dir) // written a minute ago: the builds need not wait for the mtimes to settle
    const segments = []
    for (let index = 0; index < 16; index++) {
      const segment = path.join(dir, `s${index}.puffin`)
      const built = await buildSidecarIndex(files, segment, { columns: ['v'], format, shard: { index, count: 16 } })
      segments.push({ segment, files: built.files })
    }
    assert.ok(segments.some((s) => s.files === 0), 'some shard holds no file')
    const empty = await openSidecarIndex(segments.find((s) => s.files === 0).segment)
    assert.deepEqual((await empty.probe('v', [11])).files, [])
    await empty.close()
    const merged = path.join(dir, 'merged.puffin')
    await mergeSidecarSegments(segments.map((s) => s.segment), merged)
    const whole = path.join(dir, 'whole.puffin')
    await buildSidecarIndex(files, whole, { columns: ['v'], format })
    const probed = [11, 12, 13, 21, 22, 31, 99]
    const answers = async (at) => {
      const index = await openSidecarIndex(at)
      const result = await index.probe('v', probed, { files })
      await index.close()
      return result.files.map((f) => f.rowGroups.map((g) => g.results.map((r) => r.verdict)))
    }
    const fromMerged = await answers(merged)
    assert.deepEqual(fromMerged, await answers(whole))
    held.forEach((values, f) => values.forEach((v) => assert.notEqual(fromMerged[f][0][probed.indexOf(v)], 'absent', `f${f} holds ${v}`)))
  })
}
