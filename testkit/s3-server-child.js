// The child process of testkit/s3-server.js: runs s3rver (a real S3 implementation, suffix-range
// bug included) on 127.0.0.1 with a random port, and tells the parent that port over IPC. Started with
// --openssl-legacy-provider: s3rver's continuation tokens use DES, which Node ≥ 17 disables by default.
// Exits when the parent goes away, so no test run can leave it behind.
import { createRequire } from 'node:module'
import S3rver from 's3rver'

const require = createRequire(import.meta.url)

process.on('disconnect', () => process.exit(0))
process.once('message', async ({ directory, buckets, keyPairs, cors }) => {
  try {
    // s3rver accepts only access key ids of its registry (it does not check SigV4 signatures themselves).
    const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account')
    for (const { accessKeyId, secretAccessKey } of keyPairs) DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey)
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name, configs: cors ? [cors] : [] })) })
    const { port } = await server.run()
    process.send({ port })
  } catch (error) {
    process.send({ error: String(error?.stack ?? error) })
    process.exit(1)
  }
})
