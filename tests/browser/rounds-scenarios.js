// Browser scenarios of reads planned for round trips (js/plan/link-model.js): one value over 100 row groups (testkit/rounds-file.js) from
// a server that waits 30 ms per response, probed by the bundle on a page of the file's own origin —
// over HTTP/2 (node:http2, a self-signed certificate made at test time by the openssl CLI) the window
// widens once Resource Timing says h2, and the probe takes ≤ 3 rounds; over HTTP/1.1 the browser's six
// connections hold, and it takes at most ceil(R/6) + 2.
import { symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { startTestServer } from '../../testkit/range-server.js'
import { ROUNDS_PROBED_ROWS, ROUNDS_ROW_GROUPS, writeRoundsFile } from '../../testkit/rounds-file.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { selfSignedCertificate } from '../../testkit/self-signed.js'
import { BROWSER_HTTP1_WINDOW } from '../../js/plan/link-model.js'
import { repoRoot } from '../../web/server.js'
import { assertEqual, assertOk } from './checks.js'

const PAGE = 'rounds.html'
const FILE = 'rounds.parquet'

/** Scenarios over one file and two servers (h2 and HTTP/1.1), made on first use; `close()` ends them. */
export function roundsScenarios() {
  let ready
  const setup = () => (ready ??= (async () => {
    const { dir, remove } = await makeTempDir('browser-rounds')
    const { values } = await writeRoundsFile(dir, FILE)
    // The page, the bundle and the file on one origin: no CORS, and Resource Timing shows the protocol.
    await writeFile(path.join(dir, PAGE), '<!doctype html><meta charset="utf-8"><title>rounds</title>')
    await symlink(path.join(repoRoot, 'js'), path.join(dir, 'js'))
    const { key, cert } = await selfSignedCertificate(dir)
    const tls = { key, cert }
    const servers = { h2: await startTestServer({ root: dir, tls }), http1: await startTestServer({ root: dir }) }
    for (const s of Object.values(servers)) s.setMode('slow:30')
    return { dir, remove, values, servers }
  })())

  /** Opens the page on `server`'s origin and probes there; returns what the page and the server saw. */
  const probeInPage = async (page, server, value) => {
    await page.goto(`${server.origin}/${PAGE}`)
    await page.evaluate((bundle) => import(bundle).then((m) => m.init()), `${server.origin}/js/parquet-bloom.browser.js`)
    server.resetStats()
    const seen = await page.evaluate(async ({ bundle, url, value }) => {
      const { openParquet } = await import(bundle)
      const file = await openParquet(url)
      try {
        const result = await file.probe('id', [BigInt(value)])
        const protocols = performance.getEntriesByType('resource').filter((e) => e.name === url).map((e) => /** @type {any} */ (e).nextHopProtocol)
        return { stats: file.stats, verdicts: result.rowGroups.map((g) => g.results[0].verdict), protocols }
      } finally {
        await file.close()
      }
    }, { bundle: `${server.origin}/js/parquet-bloom.browser.js`, url: `${server.origin}/${FILE}`, value: String(value) })
    const fileLog = server.stats.log.filter((e) => e.path === `/${FILE}`)
    return { ...seen, server: { requests: fileLog.length, bytes: fileLog.reduce((n, e) => n + e.bytesWritten, 0), maxInFlight: server.stats.maxInFlight } }
  }

  const assertVerdicts = (verdicts) => {
    assertEqual(verdicts.length, ROUNDS_ROW_GROUPS, 'row groups')
    assertEqual(verdicts[ROUNDS_PROBED_ROWS[0].rowGroup], 'maybe', `the value is in row group ${ROUNDS_PROBED_ROWS[0].rowGroup}`)
    const absent = verdicts.filter((v) => v === 'absent').length
    assertOk(absent >= ROUNDS_ROW_GROUPS - 5, `only ${absent} row groups ruled out`)
  }

  const describe = (run) => `${run.stats.rounds} rounds, ${run.stats.requests} requests, ${run.stats.bytesFetched} bytes, ${run.server.maxInFlight} in flight at most`

  return {
    scenarios: [
      {
        name: 'rounds-http2',
        fn: async ({ page }) => {
          const { values, servers } = await setup()
          const run = await probeInPage(page, servers.h2, values[0])
          console.log(`# over HTTP/2: ${describe(run)}`)
          assertOk(run.protocols.length > 0 && run.protocols.every((p) => p === 'h2'), `the file's responses came over h2: ${JSON.stringify(run.protocols)}`)
          assertEqual(run.server.requests, run.stats.requests, 'requests the server answered')
          assertOk(run.server.maxInFlight > BROWSER_HTTP1_WINDOW, `the window widened past ${BROWSER_HTTP1_WINDOW}: ${run.server.maxInFlight} in flight at most`)
          assertOk(run.stats.rounds <= 3, `${run.stats.rounds} rounds`)
          assertVerdicts(run.verdicts)
        },
      },
      {
        name: 'rounds-http1',
        fn: async ({ page }) => {
          const { values, servers } = await setup()
          const run = await probeInPage(page, servers.http1, values[0])
          console.log(`# over HTTP/1.1: ${describe(run)}`)
          assertOk(run.protocols.length > 0 && run.protocols.every((p) => p === 'http/1.1'), `the file's responses came over HTTP/1.1: ${JSON.stringify(run.protocols)}`)
          assertEqual(run.server.requests, run.stats.requests, 'requests the server answered')
          assertOk(run.server.maxInFlight <= BROWSER_HTTP1_WINDOW, `${run.server.maxInFlight} in flight at most`)
          assertOk(run.stats.rounds <= Math.ceil(ROUNDS_ROW_GROUPS / BROWSER_HTTP1_WINDOW) + 2, `${run.stats.rounds} rounds`)
          assertVerdicts(run.verdicts)
        },
      },
    ],
    async close() {
      if (!ready) return
      const { remove, servers } = await ready
      await Promise.all(Object.values(servers).map((s) => s.close()))
      await remove()
    },
  }
}
