// The demo's static server: serves web/, js/ (the package entry the page imports, as an npm user's
// bundler-free page would) and examples/ from the repo, with Range requests (via `send`) and CORS so
// other pages can probe the sample files too. Binds 127.0.0.1 only. Run as a script it also starts the
// sample bucket (testkit/demo-bucket.js: a local S3 API holding the sample dataset) and tells the page
// where it is at /web/samples/bucket.json.
// Run: node web/server.js        (PORT=8080 by default; PORT=0 picks a free port)
/// <reference path="./send.d.ts" />
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import send from 'send'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SERVED = ['web', 'js', 'examples']

// A cross-origin page must be allowed the Range header (suffix ranges are not CORS-safelisted, so they
// are preflighted) and shown Content-Range, which the library checks.
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Content-Range, Content-Length, Accept-Ranges, ETag',
}

/**
 * @param {Record<string, string>} mounts more top-level folders: name → directory served under /name/
 * @param {Record<string, unknown>} documents pathname → a value answered as JSON at that path
 * @param {((request: { method: string, path: string, range: string | null }) => void) | undefined} onRequest told of
 *   every GET and HEAD (the browser tests hold a page's read plan to what the server saw)
 * @returns {import('node:http').RequestListener}
 */
const handler = (mounts, documents, onRequest) => function handle(req, res) {
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value)
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'Range',
      'access-control-max-age': '600',
    }).end()
    return
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD, OPTIONS' }).end()
    return
  }
  const requestUrl = req.url ?? '/' // always set on a server's requests
  let pathname
  try {
    pathname = decodeURIComponent(new URL(requestUrl, 'http://127.0.0.1').pathname)
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad URL')
    return
  }
  onRequest?.({ method: req.method, path: pathname, range: req.headers.range ?? null })
  if (pathname === '/' || pathname === '/web') {
    res.writeHead(302, { location: '/web/' }).end()
    return
  }
  if (Object.hasOwn(documents, pathname)) {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(documents[pathname]))
    return
  }
  const top = pathname.split('/')[1]
  const mounted = Object.hasOwn(mounts, top) ? mounts[top] : undefined
  if (!SERVED.includes(top) && mounted === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`)
    return
  }
  // A development server: nothing is cached, so a rebuilt wasm or edited page is picked up at once and
  // the byte counts the page shows never depend on what the browser cache held.
  res.setHeader('cache-control', 'no-store')
  const served = mounted === undefined ? { root: repoRoot, path: pathname } : { root: mounted, path: pathname.slice(top.length + 1) }
  send(req, served.path, { root: served.root, index: ['index.html'], cacheControl: false, etag: false, lastModified: false, dotfiles: 'deny' })
    .on('error', (error) => {
      const status = error.status ?? 500
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 404 ? `not found: ${pathname}` : String(error.message))
    })
    .on('directory', () => {
      res.writeHead(301, { location: `${requestUrl.replace(/\?.*/, '')}/` }).end()
    })
    .pipe(res)
}

/**
 * Starts the server; resolves once it listens.
 * @param {{ port?: number, host?: string, mounts?: Record<string, string>, documents?: Record<string, unknown>,
 *   onRequest?: (request: { method: string, path: string, range: string | null }) => void }} [options] mounts:
 *   more folders, each served under /name/ (the browser tests serve table fixtures this way); documents: pathname → a
 *   value answered as JSON (where the sample bucket is); onRequest: told of every GET and HEAD
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export function startDemoServer({ port = 0, host = '127.0.0.1', mounts = {}, documents = {}, onRequest } = {}) {
  const server = http.createServer(handler(mounts, documents, onRequest))
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const actual = /** @type {import('node:net').AddressInfo} */ (server.address()).port // a TCP server's address
      resolve({
        url: `http://${host}:${actual}/`,
        port: actual,
        close: () => new Promise((done) => {
          server.close(() => done())
          server.closeAllConnections()
        }),
      })
    })
  })
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`)
    process.exit(2)
  }
  const bucket = await startBucket()
  try {
    const { url } = await startDemoServer({ port, documents: bucket ? { '/web/samples/bucket.json': { endpoint: bucket.endpoint, prefix: bucket.prefix } } : {} })
    console.log(`parquet-bloom demo: ${url}web/   (Ctrl+C to stop)`)
  } catch (caught) {
    const error = /** @type {NodeJS.ErrnoException} */ (caught) // listen's error, or what the server threw
    console.error(error.code === 'EADDRINUSE' ? `port ${port} is in use; run with PORT=<another port>` : `could not start the demo server: ${error.message}`)
    process.exit(1)
  }
}

/** The sample bucket, or undefined (with a note) when the samples or s3rver are missing: the page hides its sample then. */
async function startBucket() {
  try {
    // By URL: test helpers (s3rver's child process) are not part of what the typecheck covers.
    const { startSampleBucket } = await import(new URL('../testkit/demo-bucket.js', import.meta.url).href)
    const { samplesDir } = await import(new URL('../testkit/demo-samples.js', import.meta.url).href)
    const bucket = await startSampleBucket(samplesDir)
    console.log(`sample bucket: ${bucket.prefix} at ${bucket.endpoint} (a local S3 API, s3rver)`)
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => bucket.stop().finally(() => process.exit(0)))
    return bucket
  } catch (error) {
    console.log(`no sample bucket (${/** @type {Error} */ (error).message}); \`node web/build-samples.js\` writes the dataset it serves`)
    return undefined
  }
}
