// Starts bench/lib/range-server-process.js (the tests' range server in a process of its own) over a
// folder with the given modes, for sections that time a client against a remote-like server.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const serverScript = fileURLToPath(new URL('./range-server-process.js', import.meta.url))

/**
 * @param {string} root
 * @param {...string} modes
 * @returns {Promise<{ origin: string, stop: () => Promise<unknown> }>}
 */
export function startServerProcess(root, ...modes) {
  return startServerProcessWith({ root }, ...modes)
}

/**
 * startServerProcess, over HTTPS when `tlsDir` names a folder of key.pem and cert.pem (testkit/self-signed.js):
 * HTTP/2 for clients that offer it, unless `http2` is false.
 * @param {{ root: string, tlsDir?: string, http2?: boolean }} options
 * @param {...string} modes
 * @returns {Promise<{ origin: string, stop: () => Promise<unknown> }>}
 */
export async function startServerProcessWith({ root, tlsDir, http2 = true }, ...modes) {
  const env = tlsDir ? { ...process.env, RANGE_SERVER_TLS_DIR: tlsDir, RANGE_SERVER_HTTP1_ONLY: http2 ? '0' : '1' } : process.env
  const child = fork(serverScript, [root, ...modes], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env })
  const { origin } = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`the range server exited (${code})`)))
  })
  return { origin, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.disconnect() }) }
}
