// A file replaced between its footer read and the reads of its indexes, without a footer cache: the probe must
// never answer from the new version's bytes at the old footer's offsets. Two versions of one size hold the same
// values with their row groups rotated, so each filter sits where the other version's does: the old footer sends
// value 5 to row group 0 (its statistics rule out the others), where the new version's filter holds 1000–1999.
// A mixed answer is `absent` for a value both versions hold. Truth: the values written, and a fresh open of each.
import assert from 'node:assert/strict'
import { copyFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parquetWriteBuffer } from 'hyparquet-writer'

import { ErrorCode, openDataset } from '../../js/index.js'
import { startS3Server } from '../../testkit/s3-server.js'
import { startTestServer } from '../../testkit/range-server.js'
import { tempDir } from '../../testkit/temp-dir.js'
import { withFile } from './helpers/with-file.js'

const ROWS_PER_GROUP = 1000
const VALUE = 5
// A tail of the footer alone: the filters are read by the probe, after the footer.
const OPEN = { initialFetchSize: 200 }

/** ids 1000g … 1000g + 999 for each g of `order`, one row group each, a bloom filter on `id`. */
function written(order) {
  const ids = order.flatMap((g) => Array.from({ length: ROWS_PER_GROUP }, (_, i) => g * ROWS_PER_GROUP + i))
  return new Uint8Array(parquetWriteBuffer({ codec: 'UNCOMPRESSED', rowGroupSize: ROWS_PER_GROUP,
    columnData: [{ name: 'id', data: ids, type: 'INT32', bloomFilter: true }] }))
}

const OLD = written([0, 1, 2]) // VALUE in row group 0
const NEW = written([1, 2, 0]) // VALUE in row group 2
const dir = await tempDir('replaced-mid-probe')
let server

before(async () => {
  server = await startTestServer({ root: dir })
})

after(async () => {
  await server?.close()
})

/** The probe's verdicts for VALUE by row group. */
async function verdictsOf(file) {
  return (await file.probe('id', [VALUE])).rowGroups.map((g) => g.results[0].verdict)
}

/** Asserts the probe of `file` (opened on the old version, now replaced) fails FILE_CHANGED, never answers. */
async function assertRefused(file, what) {
  const outcome = await verdictsOf(file).then((answer) => ({ answer, error: undefined }), (error) => ({ answer: undefined, error }))
  assert.equal(outcome.error?.code, ErrorCode.FILE_CHANGED, `${what}: answered ${JSON.stringify(outcome.answer)} after the change`)
}

test('the two versions are one size, and each alone answers VALUE where it is', async () => {
  assert.equal(NEW.length, OLD.length)
  assert.deepEqual(await withFile(OLD, OPEN, verdictsOf), ['maybe', 'absent', 'absent'])
  assert.deepEqual(await withFile(NEW, OPEN, verdictsOf), ['absent', 'absent', 'maybe'])
})

describe('over HTTP without a footer cache, a response of another version is FILE_CHANGED', () => {
  for (const mode of ['etag', 'last-modified', 'weak-etag', 'etag,ignore-conditions']) {
    test(mode, async () => {
      const name = `http-${mode.replace(',', '-')}.parquet`
      const file = path.join(dir, name)
      writeFileSync(file, OLD)
      utimesSync(file, 1e9, 1e9) // Last-Modified has seconds: the new version's is later
      await withFile(server.url(name, { mode }), OPEN, async (opened) => {
        writeFileSync(`${file}.tmp`, NEW)
        renameSync(`${file}.tmp`, file)
        await assertRefused(opened, mode)
      })
    })
  }
})

describe('over S3 (s3rver), an object put again (same size) after its footer was read', () => {
  let s3
  before(async () => {
    s3 = await startS3Server({ buckets: ['replaced'] })
  })
  after(async () => {
    await s3?.stop()
  })

  test('openParquet(url) without a footer cache: FILE_CHANGED', async () => {
    await s3.put('replaced', 'one/part.parquet', OLD)
    await withFile(`${s3.endpoint}/replaced/one/part.parquet`, OPEN, async (opened) => {
      await s3.put('replaced', 'one/part.parquet', NEW)
      await assertRefused(opened, 's3rver')
    })
  })

  test('a dataset listed before: the file is unknown (FILE_CHANGED), never absent', async () => {
    await s3.put('replaced', 'two/part.parquet', OLD)
    const dataset = await openDataset('s3://replaced/two/', { endpoint: s3.endpoint })
    await s3.put('replaced', 'two/part.parquet', NEW)
    const [file] = (await dataset.probe('id', [VALUE])).files
    assert.equal(file.values[0].verdict, 'unknown')
    assert.equal(file.error?.code, ErrorCode.FILE_CHANGED)
  })
})

describe('a local file changed after its footer was read is FILE_CHANGED', () => {
  // cp writes over the file in place (the descriptor read from sees the new bytes); a rename puts another file at the path.
  for (const how of ['rewritten in place', 'renamed over']) {
    for (const listed of [false, true]) {
      test(`${how}${listed ? ', its size from a listing' : ''}`, async () => {
        const file = path.join(dir, `local-${how.replaceAll(' ', '-')}-${listed}.parquet`)
        const replacement = `${file}.new`
        writeFileSync(file, OLD)
        writeFileSync(replacement, NEW)
        const inode = statSync(file).ino
        await withFile(file, listed ? { ...OPEN, size: OLD.length } : OPEN, async (opened) => {
          if (how === 'renamed over') renameSync(replacement, file)
          else copyFileSync(replacement, file)
          assert.equal(statSync(file).ino === inode, how === 'rewritten in place')
          await assertRefused(opened, how)
        })
      })
    }
  }

  test('an unchanged file is probed as before, again and again', async () => {
    const file = path.join(dir, 'local-unchanged.parquet')
    writeFileSync(file, OLD)
    await withFile(file, OPEN, async (opened) => {
      assert.deepEqual(await verdictsOf(opened), ['maybe', 'absent', 'absent'])
      assert.deepEqual(await verdictsOf(opened), ['maybe', 'absent', 'absent'])
    })
  })
})
