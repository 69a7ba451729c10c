// The command line on tables: `probe <table> --table …` answers per file with the table's metadata
// pruning first; `inspect <table> --table …` reports the snapshot and what the metadata can prune.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, test } from 'node:test'

import { fixturePath, missingFixture, projectRoot } from './helpers/fixtures.js'

const run = (...args) => promisify(execFile)(process.execPath, [`${projectRoot}/js/cli.js`, ...args], { encoding: 'utf8' })
const skip = missingFixture('tables')

describe('parquet-bloom on tables', { skip }, () => {
  test('probe --table delta --json: a value the table holds is never absent; one it lacks is ruled out by table stats', async () => {
    const { stdout } = await run('probe', fixturePath('tables/delta/dv-partitioned-with-checkpoint'), '--table', 'delta', '-c', 'col1', '-v', '28', '-v', '1000', '--json')
    const result = JSON.parse(stdout)
    assert.equal(result.files.length, 15)
    assert.ok(result.files.some((f) => f.values[0].verdict !== 'absent'))
    assert.ok(result.files.every((f) => f.values[1].verdict === 'absent'))
    assert.ok(result.files.filter((f) => f.values[1].source === 'table-stats').length >= 1)
  })

  test('inspect --table auto: snapshot, files and per-column pruning facts', async () => {
    const { stdout } = await run('inspect', fixturePath('tables/iceberg/spark_rename_column'), '--table', 'auto', '--json')
    const { table } = JSON.parse(stdout)
    assert.equal(table.format, 'iceberg')
    assert.equal(table.snapshot, '5276958600260276572')
    assert.equal(table.files, 3)
    assert.deepEqual(table.columns.find((c) => c.column === 'id').partitions, ['bucket[4]'])
    assert.deepEqual(table.columns.find((c) => c.column === 'event_date').partitions, ['identity'])
  })

  test('--snapshot without --table is a usage error', async () => {
    await assert.rejects(run('inspect', fixturePath('tables/iceberg/spark_rename_column'), '--snapshot', '1'), (e) => e.code === 1 || e.code === 64 || e.code > 0)
  })
})
