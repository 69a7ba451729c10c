// The tests' range server (testkit/range-server.js) in a process of its own, for benchmarks
// that time a client: its request handling then runs beside the client, not on the client's event
// loop, as an object store's would. Started with fork(); sends the server's origin once listening,
// applies the modes given as arguments to every request, and exits when its parent disconnects.
import { startTestServer } from '../../testkit/range-server.js'

const [root, ...modes] = process.argv.slice(2)
const server = await startTestServer({ root })
if (modes.length) server.setMode(...modes)
process.send?.({ origin: server.origin })
process.on('disconnect', () => {
  server.close().then(() => process.exit(0))
})
