// What one range request costs the client in Node: the global fetch (undici) against node:http with a
// keep-alive Agent, over loopback to the tests' range server in a process of its own (so its CPU is
// not the client's), 1,000 small range requests (32 bytes, as a probe's block reads) with 64 in flight
// and one at a time, interleaved, medians. Client CPU per request is what the link model's per-request
// cost starts from (js/plan/link-model.js INITIAL_REQUEST_MS).
import { fork } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { makeTempDir } from '../../testkit/temp-dir.js'
import { runIfMain } from '../lib/section.js'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const serverScript = fileURLToPath(new URL('../lib/range-server-process.js', import.meta.url))
const FILE_BYTES = 4 * 1024 * 1024

async function startServer(root) {
  const child = fork(serverScript, [root], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const { origin } = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`the range server exited (${code})`)))
  })
  return { origin, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.disconnect() }) }
}

/** One GET of `range` through the global fetch, body read whole. */
async function viaFetch(url, range) {
  const response = await fetch(url, { headers: { range, 'accept-encoding': 'identity' } })
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 206) throw new Error(`fetch: HTTP ${response.status}`)
  return bytes.length
}

/** One GET of `range` through node:http and `agent`, body read whole. */
function viaHttp(agent) {
  return (url, range) => new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { range, 'accept-encoding': 'identity' } }, (response) => {
      let length = 0
      response.on('data', (chunk) => { length += chunk.length })
      response.on('end', () => (response.statusCode === 206 ? resolve(length) : reject(new Error(`http: HTTP ${response.statusCode}`))))
      response.on('error', reject)
    })
    request.on('error', reject)
  })
}

/** `count` requests of 32-byte ranges spread over the file, `inFlight` at a time: wall and client CPU. */
async function measure(get, url, count, inFlight) {
  let next = 0
  const cpu = process.cpuUsage()
  const started = performance.now()
  const worker = async () => {
    while (next < count) {
      const i = next++
      const start = (i * 4099) % (FILE_BYTES - 32)
      const n = await get(url, `bytes=${start}-${start + 31}`)
      if (n !== 32) throw new Error(`got ${n} bytes`)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { ms, cpuMs: (used.user + used.system) / 1000 }
}

export async function run({ quick } = {}) {
  const { dir, remove } = await makeTempDir('bench-transport')
  writeFileSync(path.join(dir, 'data.bin'), new Uint8Array(FILE_BYTES).map((_, i) => i * 7))
  const server = await startServer(dir)
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 })
  const noKeepAlive = new http.Agent({ keepAlive: false, maxSockets: 64 })
  try {
    const url = `${server.origin}/data.bin`
    const count = quick ? 300 : 1000
    const trials = quick ? 3 : 7
    const clients = {
      'global fetch (undici)': viaFetch,
      'node:http, keep-alive Agent': viaHttp(keepAlive),
      'node:http, no keep-alive': viaHttp(noKeepAlive),
    }
    const results = []
    for (const inFlight of [64, 1]) {
      const runs = Object.fromEntries(Object.keys(clients).map((name) => [name, []]))
      for (let t = -1; t < trials; t++) { // trial -1 warms up connections and the JIT
        for (const [name, get] of Object.entries(clients)) {
          const r = await measure(get, url, inFlight === 1 ? Math.min(count, 300) : count, inFlight)
          if (t >= 0) runs[name].push(r)
        }
      }
      for (const [name, list] of Object.entries(runs)) {
        const n = inFlight === 1 ? Math.min(count, 300) : count
        results.push({ client: name, inFlight, requests: n, ms: median(list.map((r) => r.ms)), cpuMs: median(list.map((r) => r.cpuMs)),
          cpuMsPerRequest: median(list.map((r) => r.cpuMs)) / n, msPerRequest: median(list.map((r) => r.ms)) / n })
      }
    }
    return { node: process.version, trials, results }
  } finally {
    keepAlive.destroy()
    noKeepAlive.destroy()
    await server.stop()
    await remove()
  }
}

runIfMain(import.meta.url, run)
