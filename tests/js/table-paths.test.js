// Paths in table metadata come from whoever wrote the table: after rebasing onto the table's root, a
// data, delete or deletion-vector path that leads outside it (another host, a link-local address, `..`
// out of the folder) is refused with PATH_OUTSIDE_TABLE and never fetched, unless allowOutside allows it.
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { ErrorCode, openTable } from '../../js/index.js'
import { pathResolver, tableRoot } from '../../js/table/table-location.js'
import { tempDir } from '../../testkit/temp-dir.js'

const outside = (fn) => assert.throws(fn, (e) => e.code === ErrorCode.PATH_OUTSIDE_TABLE)

describe('paths from table metadata', () => {
  test('local table: a location prefix is stripped, relative paths stay inside, `..` out is refused', async () => {
    const root = await tableRoot('/data/tables/t')
    const resolve = pathResolver(root, { tablePrefix: 's3a://bucket/warehouse/t' })
    assert.equal(resolve('s3a://bucket/warehouse/t/data/a.parquet').location, '/data/tables/t/data/a.parquet')
    assert.equal(resolve('s3://bucket/warehouse/t/data/a.parquet').location, '/data/tables/t/data/a.parquet')
    assert.equal(resolve('data/x/../a.parquet').location, '/data/tables/t/data/a.parquet')
    outside(() => resolve('../secret.parquet'))
    outside(() => resolve('data/../../secret.parquet'))
    outside(() => resolve('s3a://bucket/warehouse/t/../other/a.parquet'))
    outside(() => resolve('s3a://bucket/elsewhere/a.parquet'))
    outside(() => resolve('/etc/passwd'))
    outside(() => resolve('file:///etc/passwd'))
    assert.equal(resolve('/data/tables/t/data/a.parquet').location, '/data/tables/t/data/a.parquet')
    // A Delta path is a URI with or without a scheme: its escapes are decoded either way (Spark: new Path(new URI(path))).
    const delta = pathResolver(root, { encoded: true })
    assert.equal(delta('/data/tables/t/a%20b.parquet').location, '/data/tables/t/a b.parquet')
    assert.equal(delta('file:/data/tables/t/a%20b.parquet').location, '/data/tables/t/a b.parquet')
    assert.equal(delta('a%20b.parquet').location, '/data/tables/t/a b.parquet')
    outside(() => delta('/data/tables/t/%2e%2e/secret.parquet'))
  })

  test('URL table: other hosts, link-local addresses and climbing out are refused', async () => {
    const root = await tableRoot('https://bucket.example.com/warehouse/t')
    const resolve = pathResolver(root, { tablePrefix: 's3a://bucket/warehouse/t', encoded: true })
    assert.equal(resolve('s3a://bucket/warehouse/t/data/a b.parquet').location, 'https://bucket.example.com/warehouse/t/data/a%20b.parquet')
    assert.equal(resolve('part%3D1/a.parquet').location, 'https://bucket.example.com/warehouse/t/part%3D1/a.parquet')
    outside(() => resolve('https://evil.example.net/a.parquet'))
    outside(() => resolve('http://169.254.169.254/latest/meta-data/'))
    outside(() => resolve('http://[fe80::1]/a.parquet'))
    outside(() => resolve('https://bucket.example.com/warehouse/other/a.parquet'))
    outside(() => resolve('%2e%2e/%2e%2e/a.parquet'))
  })

  test('allowOutside: true allows any location; an allow-list allows its prefixes only', async () => {
    const root = await tableRoot('https://bucket.example.com/t/')
    assert.equal(pathResolver(root, { allowOutside: true })('https://other.example.com/a.parquet').location, 'https://other.example.com/a.parquet')
    const listed = pathResolver(root, { allowOutside: ['https://other.example.com/shared/'] })
    assert.equal(listed('https://other.example.com/shared/a.parquet').location, 'https://other.example.com/shared/a.parquet')
    outside(() => listed('https://other.example.com/private/a.parquet'))
    outside(() => listed('http://169.254.169.254/'))
  })
})

describe('openTable refuses a hostile table before any data read', async () => {
  const dir = await tempDir('table')
  before(async () => {
    const table = path.join(dir, 't')
    await mkdir(path.join(table, '_delta_log'), { recursive: true })
    const log = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'x', format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify({ type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }), partitionColumns: [], configuration: {} } },
      { add: { path: '../outside.parquet', partitionValues: {}, size: 10, modificationTime: 0, dataChange: true } },
    ]
    await writeFile(path.join(table, '_delta_log', '00000000000000000000.json'), log.map((a) => JSON.stringify(a)).join('\n'))
  })

  test('a Delta add whose path climbs out of the table: PATH_OUTSIDE_TABLE; allowOutside lets it through', async () => {
    await assert.rejects(openTable(path.join(dir, 't')), (e) => e.code === ErrorCode.PATH_OUTSIDE_TABLE && /outside\.parquet/.test(e.message))
    const allowed = await openTable(path.join(dir, 't'), { allowOutside: true })
    assert.equal(allowed.table.files.length, 1)
  })
})
