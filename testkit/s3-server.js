// A real S3 server for tests: s3rver in a child process (testkit/s3-server-child.js) on
// 127.0.0.1, behind a proxy in this process that waits N ms per response, answers chosen requests with
// S3's 503 SlowDown (or a reset connection), logs every request, and — since s3rver does not check SigV4
// signatures — can require requests signed with given credentials, checked by AWS's own signer
// (@smithy/signature-v4), an implementation independent of the aws4fetch the library signs with.
// s3rver's own misbehaviour stays: it answers a suffix range bytes=-n with bytes 0-n/N.
import { fork } from 'node:child_process'
import { createHash, createHmac } from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SignatureV4 } from '@smithy/signature-v4'

import { ResponseTimers } from './response-timers.js'
import { makeTempDir } from './temp-dir.js'

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3-server-child.js')
/** s3rver's built-in key pair; tests may add their own with `keyPairs`. */
export const S3RVER_CREDENTIALS = Object.freeze({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })

/** What a bucket a page reads must allow (docs/datasets.md "Buckets": the CORS headers a bucket must allow). */
const CORS_CONFIGURATION = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod>
<AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><ExposeHeader>Content-Range</ExposeHeader>
<ExposeHeader>Content-Length</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`

const running = new Set()
// However a test run ends, no s3rver outlives it.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * One log entry per request the proxy received (securityToken: its x-amz-security-token header, which
 * s3rver itself ignores).
 * @typedef {{ method: string, path: string, query: URLSearchParams, range: string | undefined, ifMatch: string | undefined,
 *   authorization: string | undefined, securityToken: string | undefined, status: number | undefined, bytesWritten: number, injected?: string }} S3LogEntry
 */

/**
 * Starts s3rver with `buckets` and the proxy in front of it. `keyPairs` are access keys s3rver accepts
 * besides S3RVER/S3RVER. `cors`: every bucket gets a CORS configuration that lets any page read it
 * (GET/HEAD with any header, ETag and Content-Range exposed), answered by s3rver itself.
 * @param {{ buckets?: string[], keyPairs?: Array<{ accessKeyId: string, secretAccessKey: string }>, cors?: boolean }} [options]
 */
export async function startS3Server({ buckets = ['test-bucket'], keyPairs = [], cors = false } = {}) {
  const { dir: directory, remove: removeDirectory } = await makeTempDir('s3rver')
  const child = fork(CHILD, [], { execArgv: ['--openssl-legacy-provider'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let upstreamPort
  try {
    upstreamPort = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('s3rver did not start within 20 s')), 20_000)
      child.once('message', (message) => {
        clearTimeout(timer)
        if (message.error) reject(new Error(`s3rver failed to start: ${message.error}`))
        else resolve(message.port)
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`s3rver exited with ${code} before starting`))
      })
      child.send({ directory, buckets, keyPairs, cors: cors ? CORS_CONFIGURATION : undefined })
    })
  } catch (error) {
    child.kill('SIGKILL')
    await removeDirectory()
    throw error
  }
  const upstream = `http://127.0.0.1:${upstreamPort}`

  let latencyMs = 0
  /** @type {((entry: S3LogEntry, nth: number) => string | number | undefined) | undefined} */
  let failWith
  /** @type {{ accessKeyId: string, secretAccessKey: string, sessionToken?: string } | undefined} */
  let requiredSigner
  let stats = emptyStats()
  const timers = new ResponseTimers()

  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1')
    /** @type {S3LogEntry} */
    const entry = { method: req.method, path: url.pathname, query: url.searchParams, range: req.headers.range, ifMatch: req.headers['if-match'],
      authorization: req.headers.authorization, securityToken: req.headers['x-amz-security-token'], status: undefined, bytesWritten: 0 }
    stats.requests++
    stats.log.push(entry)
    const perPath = (stats.paths[url.pathname] ??= { requests: 0, ranges: [] })
    perPath.requests++
    perPath.ranges.push(req.headers.range)
    const nth = perPath.requests
    const counted = stats
    res.on('close', () => { entry.status = res.statusCode })
    const count = (n) => {
      entry.bytesWritten += n
      counted.bytesWritten += n
    }
    const respond = async () => {
      const injected = failWith?.(entry, nth)
      if (injected === 'reset') {
        entry.injected = 'reset'
        req.socket.destroy()
        return
      }
      if (typeof injected === 'number') {
        entry.injected = String(injected)
        const code = injected === 503 ? 'SlowDown' : 'InternalError'
        sendXmlError(res, injected, code, injected === 503 ? 'Please reduce your request rate.' : 'We encountered an internal error. Please try again.', count)
        return
      }
      // A CORS preflight carries no credentials (browsers never sign one): S3 answers it from the bucket's CORS rules.
      if (requiredSigner && req.method !== 'OPTIONS') {
        const refusal = await signatureRefusal(req, requiredSigner)
        if (refusal) {
          entry.injected = refusal.code
          sendXmlError(res, 403, refusal.code, refusal.message, count)
          return
        }
      }
      forward(req, res, upstream, count)
    }
    if (latencyMs > 0) timers.later(res, respond, latencyMs)
    else respond()
  })
  await new Promise((resolve, reject) => {
    proxy.once('error', reject)
    proxy.listen(0, '127.0.0.1', resolve)
  })
  const endpoint = `http://127.0.0.1:${proxy.address().port}`

  return {
    /** The proxy's origin: what clients use as options.endpoint. */
    endpoint,
    /** s3rver itself, without the proxy's latency and failures. */
    upstream,
    get stats() {
      return stats
    },
    resetStats() {
      stats = emptyStats()
    },
    /** Every response waits this long before it is answered (0: at once). */
    setLatency(ms) {
      latencyMs = ms
    },
    /**
     * pick(entry, nthRequestOfThePath) returns 503 (SlowDown), 500 (InternalError), 'reset' (the socket
     * destroyed before any answer) or undefined to serve the request; failRequests() with none stops.
     */
    failRequests(pick) {
      failWith = pick
    },
    /** From now on requests must carry a valid SigV4 signature by these credentials (none: no check). */
    requireSignature(credentials) {
      requiredSigner = credentials
    },
    /** Uploads an object through s3rver directly (unsigned); returns its ETag. */
    async put(bucket, key, bytes) {
      const response = await fetch(`${upstream}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`, { method: 'PUT', body: bytes })
      if (response.status !== 200) throw new Error(`s3rver refused PUT ${key}: ${response.status} ${await response.text()}`)
      await response.arrayBuffer()
      return response.headers.get('etag')
    },
    /** Stops the proxy and s3rver and removes its directory. */
    async stop() {
      timers.clear()
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(() => resolve()))
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
        await exited
        clearTimeout(timer)
      }
      await removeDirectory()
    },
  }
}

function emptyStats() {
  return {
    requests: 0,
    bytesWritten: 0,
    /** @type {Record<string, { requests: number, ranges: (string | undefined)[] }>} */
    paths: {},
    /** @type {S3LogEntry[]} */
    log: [],
  }
}

const upstreamAgent = new http.Agent({ keepAlive: true })

function forward(req, res, upstream, count) {
  const target = new URL(req.url, upstream)
  const outgoing = http.request(target, { method: req.method, headers: req.headers, agent: upstreamAgent }, (answer) => {
    res.writeHead(answer.statusCode, answer.statusMessage, answer.headers)
    answer.on('data', (chunk) => {
      count(chunk.length)
      res.write(chunk)
    })
    answer.on('end', () => res.end())
    answer.on('error', () => res.destroy())
    res.on('close', () => answer.destroy())
  })
  outgoing.on('error', () => res.destroy())
  req.pipe(outgoing)
}

function sendXmlError(res, status, code, message, count) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>test</RequestId></Error>`
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) })
  count(Buffer.byteLength(body))
  res.end(body)
}

/**
 * Why a request is refused under requireSignature(), or undefined when its SigV4 Authorization header is
 * the one AWS's signer computes for the same method, host, path, query, signed headers and date.
 */
async function signatureRefusal(req, credentials) {
  const authorization = req.headers.authorization
  if (!authorization) return { code: 'AccessDenied', message: 'Access Denied' }
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization)
  if (!m) return { code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed.' }
  const [, accessKeyId, , region, signedHeaders, signature] = m
  if (accessKeyId !== credentials.accessKeyId) return { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' }
  const amzDate = req.headers['x-amz-date']
  if (typeof amzDate !== 'string' || !/^\d{8}T\d{6}Z$/.test(amzDate)) return { code: 'AccessDenied', message: 'AWS authentication requires a valid Date or x-amz-date header' }
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`)
  const url = new URL(req.url, `http://${req.headers.host}`)
  const headers = {}
  for (const name of signedHeaders.split(';')) {
    if (name === 'x-amz-date') continue // the signer writes it from signingDate
    const value = req.headers[name]
    if (value === undefined) return { code: 'SignatureDoesNotMatch', message: `signed header ${name} is missing` }
    headers[name] = Array.isArray(value) ? value.join(',') : value
  }
  const query = {}
  for (const [k, v] of url.searchParams) query[k] = v
  const signer = new SignatureV4({ credentials: { accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken },
    region, service: 's3', sha256: NodeSha256, uriEscapePath: false, applyChecksum: false })
  const signed = await signer.sign({ method: req.method, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers },
    { signingDate, signableHeaders: new Set(signedHeaders.split(';')) })
  const expected = /Signature=([0-9a-f]{64})/.exec(signed.headers.authorization ?? '')?.[1]
  if (expected !== signature) return { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' }
  return undefined
}

/** The hash constructor @smithy/signature-v4 takes, over node:crypto. */
class NodeSha256 {
  constructor(secret) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', typeof secret === 'string' ? secret : Buffer.from(secret))
  }

  update(data) {
    this.hash.update(typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength))
  }

  async digest() {
    return new Uint8Array(this.hash.digest())
  }

  reset() {}
}
