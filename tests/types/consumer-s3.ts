// A consumer of the 'parquet-bloom/s3' entry (js/s3.d.ts: listS3, s3FetchFor), compiled by
// tests/js/consumer-types.test.js with tsc --strict like tests/types/consumer.ts: every documented option
// passed (`Required<…>`), every documented field read (`Every<…>`). Never run, only compiled.
import { openParquet, type ParquetFile } from 'parquet-bloom'
import { listS3, MAX_KEYS_PER_PAGE, s3FetchFor, type ListS3Options, type S3Credentials, type S3Entry } from 'parquet-bloom/s3'

/** Every field of T, each one present (optional ones too), and no other. */
type Every<T> = { [K in keyof Required<T>]: unknown }

const credentials: Required<S3Credentials> = { accessKeyId: 'AKIA', secretAccessKey: 'secret', sessionToken: 'token', region: 'auto' }

const options: Required<ListS3Options> = {
  endpoint: new URL('https://account.r2.cloudflarestorage.com'),
  region: 'eu-west-1',
  credentials,
  fetch: globalThis.fetch,
  signal: new AbortController().signal,
  maxKeys: MAX_KEYS_PER_PAGE satisfies 1000,
  retries: 3,
  requestTimeoutMs: 1000,
}

export async function consumeS3(): Promise<unknown[]> {
  const entries: S3Entry[] = await listS3('s3://my-bucket/events/**/*.parquet', options)
  await listS3('s3://public-bucket/prefix/', { endpoint: 'https://storage.googleapis.com' })
  const fields: Array<Every<S3Entry>> = entries.map((e) => ({ path: e.path, key: e.key, url: e.url, size: e.size, etag: e.etag }))
  const fetch: typeof globalThis.fetch = s3FetchFor({ credentials: options.credentials, region: options.region, fetch: options.fetch })
  const unsigned: typeof globalThis.fetch = s3FetchFor()
  const files: ParquetFile[] = await Promise.all(entries.map((e) => openParquet(e.url, { fetch, size: e.size, etag: e.etag })))
  return [fields, unsigned, files]
}
