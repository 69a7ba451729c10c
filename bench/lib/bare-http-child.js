// The floor node:http sets under a dataset probe (bench/sections/dataset-scale.js): the same files' tail
// reads sent by a bare http.request loop in a fresh process, as many in flight as the probe's window, keep-alive
// Agents as js/sources/node-transport.js keeps them, each body read into one buffer and nothing else done with
// it. Client CPU per request and peak RSS above the RSS before the loop, cold (no connection open) then warm.
// Argument: JSON { origin, files, window, tail }.
import http from 'node:http'

import { datasetFileName } from '../../testkit/sidecar-dataset.js'

const { origin, files, window, tail } = JSON.parse(process.argv[2])
const { hostname, port } = new URL(origin)
// Sixteen Agents filled 256 requests at a time, like the transport's: one Agent's linear socket search would
// be a cost of the floor that the probe does not pay.
const agents = Array.from({ length: 16 }, () => new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity,
  scheduling: 'lifo' }))
let next = 0
let sent = 0

/** @returns {Promise<number>} the body's length */
function tailRead() {
  const path = `/${datasetFileName(next++)}`
  const agent = agents[Math.floor(sent++ / 256) % agents.length]
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path, agent, headers: { range: `bytes=-${tail}` } }, (response) => {
      /** @type {Buffer[]} */
      const chunks = []
      response.on('data', (chunk) => chunks.push(chunk))
      response.on('end', () => resolve(Buffer.concat(chunks).length))
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end()
  })
}

async function once() {
  next = 0
  sent = 0
  let bytes = 0
  const rssBefore = process.memoryUsage().rss
  const cpu = process.cpuUsage()
  const started = performance.now()
  const worker = async () => {
    while (next < files) {
      const length = await tailRead() // not `bytes += await …`: that reads bytes before the wait
      bytes += length
    }
  }
  await Promise.all(Array.from({ length: Math.min(window, files) }, worker))
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  const peak = Math.max(process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024) // maxRSS: KiB
  return { ms, cpuMs: (used.user + used.system) / 1000, requests: files, bytes, peakAboveStartBytes: peak - rssBefore }
}

const cold = await once()
const warm = await once()
process.stdout.write(JSON.stringify({ cold, warm }))
