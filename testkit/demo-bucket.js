// The demo's sample bucket: a real S3 API (s3rver in its own child process, s3-server.js)
// on loopback beside the demo server, holding the sample dataset (web/samples/dataset/events/) under
// s3://pb-demo/events/ with a CORS configuration that lets the page list and read it, as it would a
// public bucket. Started by web/server.js and by the browser tests (tests/browser/run.js).
import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { DATASET_DIR, datasetFiles, SAMPLE_BUCKET } from './demo-datasets.js'
import { startS3Server } from './s3-server.js'

/**
 * Starts the bucket and uploads the dataset into it.
 * @param {string} samplesDir where the samples were written (testkit/demo-samples.js samplesDir)
 * @returns {Promise<{ endpoint: string, prefix: string, files: string[], server: Awaited<ReturnType<typeof startS3Server>>, stop: () => Promise<void> }>}
 */
export async function startSampleBucket(samplesDir) {
  const root = path.join(samplesDir, DATASET_DIR)
  const files = await datasetFiles(root)
  const server = await startS3Server({ buckets: [SAMPLE_BUCKET.bucket], cors: true })
  try {
    for (const f of files) await server.put(SAMPLE_BUCKET.bucket, `${SAMPLE_BUCKET.prefix}${f}`, await readFile(path.join(root, f)))
    // What writers leave beside the data, which a listing must pass over.
    await server.put(SAMPLE_BUCKET.bucket, `${SAMPLE_BUCKET.prefix}_SUCCESS`, new Uint8Array(0))
  } catch (error) {
    await server.stop()
    throw error
  }
  return { endpoint: server.endpoint, prefix: `s3://${SAMPLE_BUCKET.bucket}/${SAMPLE_BUCKET.prefix}`, files, server, stop: () => server.stop() }
}
