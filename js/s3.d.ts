// Types of the parquet-bloom/s3 entry (js/sources/s3-listing.js): listing S3-compatible buckets, and a
// fetch that signs the range GETs of their objects for openParquet.

/** Keys per ListObjectsV2 page at most (S3's limit and default). */
export declare const MAX_KEYS_PER_PAGE: 1000

/** Access keys for a private bucket. Never written to messages, names or returned objects. */
export interface S3Credentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  /** The region requests are signed for (R2: 'auto'); else options.region, else us-east-1. */
  region?: string
}

export interface ListS3Options {
  /** An S3-compatible service (R2, MinIO, Ceph, GCS's XML API, …), addressed path-style. Default: AWS, virtual-hosted. */
  endpoint?: string | URL
  /** AWS region of the bucket (its host name and the signature). Default us-east-1. */
  region?: string
  /** Signs every request with SigV4 (aws4fetch, loaded then). Public buckets need none. */
  credentials?: S3Credentials
  fetch?: typeof fetch
  signal?: AbortSignal
  /** Keys per ListObjectsV2 page, 1–1000. Default 1000. */
  maxKeys?: number
  /** Retries of a transiently failed page request (as openParquet's). Default 3. */
  retries?: number
  requestTimeoutMs?: number
}

/** One listed object: what openParquet needs to read it without a HEAD. */
export interface S3Entry {
  /** The key relative to the listed directory (the URL's literal part up to its last '/'). */
  path: string
  key: string
  /** The http(s) URL to GET it (pass s3FetchFor(options) as openParquet's fetch for a private bucket). */
  url: string
  size: number
  /** As the listing gives it, quotes included ('' when the server sent none). */
  etag: string
}

/**
 * Lists `s3://bucket/prefix/`, `s3://bucket/key` or a glob (`s3://bucket/prefix/**\/*.parquet`: `**` any
 * characters, `*` any but '/', `?` one but '/'), ListObjectsV2 page by page; LISTING_FAILED when the
 * bucket refuses or answers something else than a listing.
 */
export function listS3(url: string, options?: ListS3Options): Promise<S3Entry[]>
/** A fetch for openParquet that signs each request with the credentials (or plain fetch without them). */
export function s3FetchFor(options?: { credentials?: S3Credentials, region?: string, fetch?: typeof fetch }): typeof fetch
