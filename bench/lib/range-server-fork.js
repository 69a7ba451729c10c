// Starts bench/lib/range-server-process.js (the tests' range server in a process of its own) over a
// folder with the given modes, for sections that time a client against a remote-like server.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const serverScript = fileURLToPath(new URL('./range-server-process.js', import.meta.url))

/** @returns {Promise<{ origin: string, stop: () => Promise<unknown> }>} */
export async function startServerProcess(root, ...modes) {
  const child = fork(serverScript, [root, ...modes], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const { origin } = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`the range server exited (${code})`)))
  })
  return { origin, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.disconnect() }) }
}
