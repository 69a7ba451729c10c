// A request waiting for an HTTP/2 stream, aborted while it waits, in a process of its own that trusts the test
// server's certificate: for tests/js/node-http2.test.js. Fills every stream the origin's sessions may carry
// (64 sessions of the server's limit, `streams`) with reads the server holds, one more waiting behind them too,
// then sends one with a signal and aborts it. Argument: JSON { url, streams, abortAfterMs }. Prints JSON
// { waitedMs: from the abort to the request's rejection, name: the rejection's, held: requests still unanswered }.
import { nodeFetch } from '../../../js/sources/node-transport.js'

const { url, streams, abortAfterMs } = JSON.parse(process.argv[2])
// The origin's first session tells its limit, which every later session then takes.
await (await nodeFetch(url)).arrayBuffer()
let held = 0
for (let i = 0; i < 64 * streams + 1; i++) {
  held++
  nodeFetch(url).then((response) => response.arrayBuffer(), () => {}).finally(() => held--)
}
const controller = new AbortController()
let abortedAt = 0
setTimeout(() => {
  abortedAt = performance.now()
  controller.abort()
}, abortAfterMs)
const name = await nodeFetch(url, { signal: controller.signal }).then(() => 'answered', (error) => error?.name ?? String(error))
process.stdout.write(JSON.stringify({ waitedMs: performance.now() - abortedAt, name, held }))
process.exit(0)
