// PB_REQUIRE_FIXTURES=1 (set by .ci/run): a fixture-gated test skips when its fixture is missing, and
// fails instead when fixtures are required. Runs one small suite against an empty fixtures directory.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'

import { projectRoot } from './helpers/fixtures.js'
import { tempDir } from '../../testkit/temp-dir.js'

const empty = await tempDir('no-fixtures')

function runGatedSuite(require) {
  // Without NODE_TEST_CONTEXT the child is a top-level run that prints its own report.
  const { NODE_TEST_CONTEXT, ...parent } = process.env
  const env = { ...parent, PB_FIXTURES_DIR: empty, PB_REQUIRE_FIXTURES: require ? '1' : '' }
  return spawnSync(process.execPath, ['--test', 'tests/js/bloom-layout.test.js'], { cwd: projectRoot, env, encoding: 'utf8', timeout: 60_000 })
}

test('without PB_REQUIRE_FIXTURES, missing fixtures skip their tests and the suite passes', () => {
  const run = runGatedSuite(false)
  assert.equal(run.status, 0, run.stdout)
  assert.match(run.stdout, /# skipped 2/)
  assert.match(run.stdout, /fixture missing: .*sbbf-vectors\.json/)
})

test('with PB_REQUIRE_FIXTURES=1, a missing fixture fails the suite, naming it', () => {
  const run = runGatedSuite(true)
  assert.notEqual(run.status, 0)
  assert.match(run.stdout, /PB_REQUIRE_FIXTURES=1: fixture missing: .*sbbf-vectors\.json/)
})
