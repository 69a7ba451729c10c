// A dataset probe over HTTPS in a process of its own, which trusts the test server's self-signed
// certificate (NODE_EXTRA_CA_CERTS is read only at a process's start): for tests/js/node-http2.test.js.
// Argument: JSON { urls, column, value, abortAfterMs?, handshakeTimeoutMs?, requestTimeoutMs? }.
// Prints JSON { files: [{ source, verdict, error }], stats }
// or, when aborted, { aborted: code }; with DEBUG_ERRORS set, each failed file's message too.
import { init, openDataset } from '../../../js/index.js'

const { urls, column, value, abortAfterMs, handshakeTimeoutMs, requestTimeoutMs } = JSON.parse(process.argv[2])
await init()
if (handshakeTimeoutMs !== undefined) (await import('../../../js/sources/node-http2.js')).setHandshakeTimeout(handshakeTimeoutMs)
const controller = new AbortController()
if (abortAfterMs !== undefined) setTimeout(() => controller.abort(), abortAfterMs)
try {
  const result = await (await openDataset(urls, { signal: controller.signal, requestTimeoutMs })).probe(column, [BigInt(value)])
  const files = result.files.map((f) => ({ source: f.source, verdict: f.values[0]?.verdict, error: f.error?.code, ...(process.env.DEBUG_ERRORS && f.error ? { message: f.error.message } : {}) }))
  const { requests, rounds, window, retries } = result.stats
  process.stdout.write(JSON.stringify({ files, stats: { requests, rounds, window, retries } }))
} catch (error) {
  process.stdout.write(JSON.stringify({ aborted: /** @type {{ code?: string }} */ (error).code ?? String(error) }))
}
