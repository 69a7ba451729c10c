// The tests' range server (testkit/range-server.js) in a process of its own, for benchmarks
// that time a client: its request handling then runs beside the client, not on the client's event
// loop, as an object store's would. Started with fork(); sends the server's origin once listening,
// applies the modes given as arguments to every request, and exits when its parent disconnects. With
// RANGE_SERVER_TLS_DIR (a folder of key.pem and cert.pem, testkit/self-signed.js), HTTPS: HTTP/2, or HTTP/1.1
// for a client that does not offer h2; only HTTP/1.1 with RANGE_SERVER_HTTP1_ONLY=1.
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { startTestServer } from '../../testkit/range-server.js'

const [root, ...modes] = process.argv.slice(2)
const tlsDir = process.env.RANGE_SERVER_TLS_DIR
const tls = tlsDir ? { key: readFileSync(path.join(tlsDir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(tlsDir, 'cert.pem'), 'utf8') } : undefined
const server = await startTestServer({ root, tls, http2: process.env.RANGE_SERVER_HTTP1_ONLY !== '1' })
if (modes.length) server.setMode(...modes)
process.send?.({ origin: server.origin })
process.on('disconnect', () => {
  server.close().then(() => process.exit(0))
})
