// Listing S3-compatible buckets (js/sources/s3-listing.js) against s3rver, a real S3 implementation,
// started on loopback by testkit/s3-server.js: pagination, globs, keys that need XML and URL
// escaping, SigV4 signing (checked by AWS's own signer in the proxy, since s3rver checks only the key
// id), retries of 503 SlowDown, and credentials kept out of every message.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'

import { ErrorCode } from '../../js/index.js'
import { listS3, s3FetchFor } from '../../js/sources/s3-listing.js'
import { bucketAddress, objectUrl, parseS3Url } from '../../js/sources/s3-url.js'
import { parseListBucketResult, parseXml } from '../../js/sources/s3-xml.js'
import { startS3Server } from '../../testkit/s3-server.js'

const BUCKET = 'pb-listing'
const SECRET = { accessKeyId: 'AKIDTESTLISTING', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }
// Keys and their bodies: partitions, non-Parquet neighbours, and names that need XML and URL escaping.
const OBJECTS = {
  'data/year=2024/part-0.parquet': 'a'.repeat(10),
  'data/year=2024/part-1.parquet': 'b'.repeat(11),
  'data/year=2025/part-0.parquet': 'c'.repeat(12),
  'data/year=2025/deep/more/part-9.parquet': 'd'.repeat(13),
  'data/_SUCCESS': '',
  'data/notes.txt': 'notes',
  'data/a&b <c> "q" \'s\'.parquet': 'entities',
  'data/space name.parquet': 'space',
  'data/plus+sign.parquet': 'plus',
  'data/ünïcødé €.parquet': 'unicode',
  'data/star*.parquet': 'star',
  'other/x.parquet': 'other',
}
const DATA_PARQUET = Object.keys(OBJECTS).filter((k) => k.startsWith('data/') && k.endsWith('.parquet')).sort()

let s3
const etags = {}
before(async () => {
  s3 = await startS3Server({ buckets: [BUCKET], keyPairs: [SECRET] })
  for (const [key, body] of Object.entries(OBJECTS)) etags[key] = await s3.put(BUCKET, key, new TextEncoder().encode(body))
})
after(async () => {
  await s3?.stop()
})

const list = (pattern, options = {}) => listS3(`s3://${BUCKET}/${pattern}`, { endpoint: s3.endpoint, ...options })
const listingRequests = () => s3.stats.log.filter((e) => e.query.get('list-type') === '2')

describe('listS3 over s3rver', () => {
  test('a prefix lists every object under it, with its size, ETag and a URL that GETs it', async () => {
    s3.resetStats()
    const entries = await list('data/')
    const expected = Object.keys(OBJECTS).filter((k) => k.startsWith('data/')).sort()
    assert.deepEqual(entries.map((e) => e.key).sort(), expected)
    for (const e of entries) {
      assert.equal(e.path, e.key.slice('data/'.length))
      assert.equal(e.size, new TextEncoder().encode(OBJECTS[e.key]).length, e.key)
      assert.equal(e.etag, etags[e.key], e.key)
      assert.match(e.etag, /^"[0-9a-f]{32}"$/)
      const response = await fetch(e.url)
      assert.equal(response.status, 200, e.url)
      assert.equal(await response.text(), OBJECTS[e.key], e.key)
    }
    assert.equal(listingRequests().length, 1)
  })

  test('max-keys 2 forces pages: every key once, in order, continuation tokens followed', async () => {
    s3.resetStats()
    const entries = await list('data/', { maxKeys: 2 })
    const expected = Object.keys(OBJECTS).filter((k) => k.startsWith('data/')).sort()
    assert.deepEqual(entries.map((e) => e.key), entries.map((e) => e.key).slice().sort())
    assert.deepEqual(entries.map((e) => e.key).sort(), expected)
    const pages = listingRequests()
    assert.equal(pages.length, Math.ceil(expected.length / 2))
    assert.equal(pages[0].query.get('continuation-token'), null)
    for (const page of pages.slice(1)) assert.ok(page.query.get('continuation-token'), 'later pages carry a token')
    for (const page of pages) assert.equal(page.query.get('max-keys'), '2')
  })

  test('globs: ** crosses directories (and matches none), * and ? stay within one', async () => {
    const keys = async (pattern, options) => (await list(pattern, options)).map((e) => e.key).sort()
    assert.deepEqual(await keys('data/**/*.parquet'), DATA_PARQUET)
    assert.deepEqual(await keys('data/**/*.parquet', { maxKeys: 3 }), DATA_PARQUET)
    assert.deepEqual(await keys('data/year=*/part-0.parquet'), ['data/year=2024/part-0.parquet', 'data/year=2025/part-0.parquet'])
    assert.deepEqual(await keys('data/year=202?/*.parquet'), ['data/year=2024/part-0.parquet', 'data/year=2024/part-1.parquet', 'data/year=2025/part-0.parquet'])
    assert.deepEqual(await keys('data/year=2025/**'), ['data/year=2025/deep/more/part-9.parquet', 'data/year=2025/part-0.parquet'])
    assert.deepEqual(await keys('data/star\\*.parquet'), ['data/star*.parquet'], 'a backslash makes * literal')
    assert.deepEqual(await keys('data/nothing-*'), [])
  })

  test('a * glob with no / after it lists one level (delimiter /), paths relative to the literal directory', async () => {
    s3.resetStats()
    const entries = await list('data/*.parquet')
    assert.deepEqual(entries.map((e) => e.key).sort(), DATA_PARQUET.filter((k) => !k.slice(5).includes('/')))
    assert.equal(listingRequests()[0].query.get('delimiter'), '/')
    assert.equal(listingRequests()[0].query.get('prefix'), 'data/')
    const partitioned = await list('data/year=2024/part-*')
    assert.deepEqual(partitioned.map((e) => e.path), ['part-0.parquet', 'part-1.parquet'])
  })

  test('a key: that object alone; a key that is a directory: what is under it', async () => {
    const [one, ...rest] = await list('data/year=2024/part-0.parquet')
    assert.equal(rest.length, 0)
    assert.deepEqual([one.key, one.path, one.size, one.etag], ['data/year=2024/part-0.parquet', 'part-0.parquet', 10, etags['data/year=2024/part-0.parquet']])
    const dir = await list('data/year=2024')
    assert.deepEqual(dir.map((e) => e.path), ['part-0.parquet', 'part-1.parquet'])
    assert.deepEqual(await list('data/year=2024/part-0.parquet.missing'), [])
  })

  test('keys with &, <, quotes, spaces, + and non-ASCII come back exact, and their URLs GET them', async () => {
    const entries = await list('data/')
    for (const key of ['data/a&b <c> "q" \'s\'.parquet', 'data/space name.parquet', 'data/plus+sign.parquet', 'data/ünïcødé €.parquet']) {
      const e = entries.find((x) => x.key === key)
      assert.ok(e, `${key} listed`)
      const response = await fetch(e.url)
      assert.equal(await response.text(), OBJECTS[key], key)
    }
  })

  test('the whole bucket, and a bucket that does not exist (LISTING_FAILED 404 NoSuchBucket)', async () => {
    assert.equal((await listS3(`s3://${BUCKET}`, { endpoint: s3.endpoint })).length, Object.keys(OBJECTS).length)
    await assert.rejects(listS3('s3://no-such-bucket/x/', { endpoint: s3.endpoint }),
      (e) => e.code === ErrorCode.LISTING_FAILED && e.status === 404 && /NoSuchBucket/.test(e.message))
  })

  test('503 SlowDown is retried (counted at the server); always 503 is LISTING_FAILED after 3 retries, promptly', async () => {
    s3.resetStats()
    s3.failRequests((entry) => (entry.query.get('list-type') === '2' && listingRequests().length <= 2 ? 503 : undefined))
    try {
      const entries = await list('data/year=2024/')
      assert.equal(entries.length, 2)
      assert.equal(listingRequests().length, 3)
      assert.deepEqual(listingRequests().map((e) => e.status), [503, 503, 200])

      s3.resetStats()
      s3.failRequests((entry) => (entry.query.get('list-type') === '2' ? 503 : undefined))
      const started = performance.now()
      await assert.rejects(list('data/'), (e) => e.code === ErrorCode.LISTING_FAILED && e.status === 503 && /SlowDown/.test(e.message))
      assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`)
      assert.equal(listingRequests().length, 4)
      s3.resetStats()
      await assert.rejects(list('data/', { retries: 0 }), (e) => e.code === ErrorCode.LISTING_FAILED && e.status === 503)
      assert.equal(listingRequests().length, 1)
    } finally {
      s3.failRequests()
    }
  })

  test('an aborted listing is ABORTED and is not retried', async () => {
    s3.setLatency(300)
    try {
      const controller = new AbortController()
      const listing = list('data/', { signal: controller.signal })
      setTimeout(() => controller.abort(new Error('user went away')), 50)
      await assert.rejects(listing, (e) => e.code === ErrorCode.ABORTED && /user went away/.test(e.message))
    } finally {
      s3.setLatency(0)
    }
  })

  test('an answer that is not a listing is LISTING_FAILED', async () => {
    const garbage = async () => new Response('<html><body>proxy login</body></html>', { status: 200 })
    await assert.rejects(list('data/', { fetch: garbage }), (e) => e.code === ErrorCode.LISTING_FAILED && /not <ListBucketResult>/.test(e.message))
    const endless = async () => new Response('<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>t</NextContinuationToken></ListBucketResult>')
    await assert.rejects(list('data/', { fetch: endless }), (e) => e.code === ErrorCode.LISTING_FAILED && /given before/.test(e.message))
  })
})

describe('signed listings (SigV4 by aws4fetch, verified by @smithy/signature-v4 in the proxy)', () => {
  const credentials = { ...SECRET, sessionToken: 'FQoGZXIvYXdzEXAMPLESESSIONTOKEN' }

  test('unsigned is refused where the bucket wants signatures; signed lists; the Authorization header has SigV4\'s shape', async () => {
    s3.requireSignature(credentials)
    try {
      await assert.rejects(list('data/'), (e) => e.code === ErrorCode.LISTING_FAILED && e.status === 403 && /AccessDenied/.test(e.message))
      s3.resetStats()
      const entries = await list('data/year=2024/', { credentials })
      assert.equal(entries.length, 2)
      const [page] = listingRequests()
      assert.match(page.authorization, /^AWS4-HMAC-SHA256 Credential=AKIDTESTLISTING\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/)
      assert.match(page.authorization, /x-amz-security-token/)
      // The objects' range GETs are signed the same way.
      const signedFetch = s3FetchFor({ credentials })
      const response = await signedFetch(entries[0].url, { headers: { range: 'bytes=0-3' } })
      assert.equal(response.status, 206)
      assert.equal(await response.text(), 'aaaa')
      assert.equal((await fetch(entries[0].url)).status, 403, 'the object unsigned is refused')
      // Keys that need escaping are signed as the server reads their paths.
      for (const entry of (await list('data/', { credentials })).filter((e) => /[&+ ü]/.test(e.key))) {
        assert.equal(await (await signedFetch(entry.url)).text(), OBJECTS[entry.key], entry.key)
      }
    } finally {
      s3.requireSignature(undefined)
    }
  })

  test('a region from the credentials goes into the signature; a wrong secret is refused, and no message names a credential', async () => {
    s3.requireSignature(credentials)
    try {
      s3.resetStats()
      await list('data/year=2025/', { credentials: { ...credentials, region: 'auto' } })
      assert.match(listingRequests()[0].authorization, /\/auto\/s3\/aws4_request/)
      const wrong = { ...credentials, secretAccessKey: 'not-the-secret-SHOULD-NOT-LEAK' }
      const error = await list('data/', { credentials: wrong }).then(() => assert.fail('listed'), (e) => e)
      assert.equal(error.code, ErrorCode.LISTING_FAILED)
      assert.match(error.message, /SignatureDoesNotMatch/)
      assertNoCredentials(error, wrong)
      const bad = await list('data/', { credentials: { accessKeyId: 'AKIDTESTLISTING', secretAccessKey: 42 } }).then(() => assert.fail('listed'), (e) => e)
      assert.equal(bad.code, ErrorCode.INVALID_ARGUMENT)
      assert.doesNotMatch(bad.message, /42/)
    } finally {
      s3.requireSignature(undefined)
    }
  })

  test('credentials are in no listed entry', async () => {
    const entries = await list('data/', { credentials })
    assertNoCredentials(JSON.stringify(entries), credentials)
  })
})

function assertNoCredentials(errorOrText, credentials) {
  const texts = typeof errorOrText === 'string' ? [errorOrText] : [errorOrText.message, String(errorOrText.stack), JSON.stringify(errorOrText), String(errorOrText.cause?.message ?? '')]
  for (const text of texts) {
    for (const secret of [credentials.secretAccessKey, credentials.sessionToken].filter(Boolean)) {
      assert.ok(!text.includes(secret), `a credential appears in: ${text}`)
    }
  }
}

describe('S3 URLs, globs and addressing', () => {
  test('parseS3Url: prefix, key, glob, directory', () => {
    assert.deepEqual(parseS3Url('s3://b-1/'), { bucket: 'b-1', prefix: '', directory: '' })
    assert.deepEqual(parseS3Url('s3://b-1'), { bucket: 'b-1', prefix: '', directory: '' })
    assert.deepEqual(parseS3Url('s3://b-1/a/b/'), { bucket: 'b-1', prefix: 'a/b/', directory: 'a/b/' })
    assert.deepEqual(parseS3Url('s3://b-1/a/b.parquet'), { bucket: 'b-1', prefix: 'a/b.parquet', directory: 'a/', key: 'a/b.parquet' })
    const glob = parseS3Url('s3://b-1/a/**/x-*.parquet')
    assert.equal(glob.prefix, 'a/')
    assert.equal(glob.directory, 'a/')
    assert.equal(glob.delimiter, undefined)
    for (const key of ['a/x-1.parquet', 'a/b/x-1.parquet', 'a/b/c/x-.parquet']) assert.ok(glob.match(key), key)
    for (const key of ['a/y-1.parquet', 'a/b/x-1.parquetx', 'b/x-1.parquet', 'a/x-1/parquet']) assert.ok(!glob.match(key), key)
    const one = parseS3Url('s3://b-1/p/part-?.parquet')
    assert.equal(one.prefix, 'p/part-')
    assert.equal(one.directory, 'p/')
    assert.equal(one.delimiter, '/')
    assert.ok(one.match('p/part-1.parquet') && !one.match('p/part-12.parquet') && !one.match('p/part-/.parquet'))
    assert.ok(parseS3Url('s3://b-1/(a)+[b].parquet').key === '(a)+[b].parquet')
    assert.ok(parseS3Url('s3://b-1/a.b*').match('a.bc') && !parseS3Url('s3://b-1/a.b*').match('axbc'))
    for (const bad of ['https://b/x', 's3:/b/x', 's3://a/', 's3://bad@host/x', 's3://b:1/x', 42]) {
      assert.throws(() => parseS3Url(bad), (e) => e.code === ErrorCode.INVALID_ARGUMENT, String(bad))
    }
  })

  test('bucketAddress: AWS virtual-hosted, path style for dotted buckets and custom endpoints', () => {
    assert.deepEqual(bucketAddress('my-bucket', {}), { base: 'https://my-bucket.s3.us-east-1.amazonaws.com/', listing: 'https://my-bucket.s3.us-east-1.amazonaws.com/', region: 'us-east-1' })
    assert.equal(bucketAddress('my-bucket', { region: 'eu-west-3' }).base, 'https://my-bucket.s3.eu-west-3.amazonaws.com/')
    assert.deepEqual(bucketAddress('my.bucket', { region: 'eu-west-3' }), { base: 'https://s3.eu-west-3.amazonaws.com/my.bucket/', listing: 'https://s3.eu-west-3.amazonaws.com/my.bucket', region: 'eu-west-3' })
    assert.equal(bucketAddress('b', { endpoint: 'https://acct.r2.cloudflarestorage.com' }).base, 'https://acct.r2.cloudflarestorage.com/b/')
    assert.equal(bucketAddress('b', { endpoint: 'http://127.0.0.1:9000/minio/' }).listing, 'http://127.0.0.1:9000/minio/b')
    assert.throws(() => bucketAddress('b', { endpoint: 'ftp://x' }), (e) => e.code === ErrorCode.INVALID_ARGUMENT)
    assert.throws(() => bucketAddress('b', { endpoint: 'https://user:pw@x' }), (e) => e.code === ErrorCode.INVALID_ARGUMENT && !/pw/.test(e.message))
    assert.equal(objectUrl('https://h/b/', 'a b/c+d/é(1)*.parquet'), 'https://h/b/a%20b/c%2Bd/%C3%A9%281%29%2A.parquet')
  })
})

describe('the ListObjectsV2 XML reader', () => {
  test('entities, character references and CDATA in keys; ETags unquoted from &quot;', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment -->
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>b</Name><IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
  <Contents><Key>a&amp;b &lt;c&gt; &quot;q&quot; &apos;s&apos; &#x27;&#233;&#x1F600;.parquet</Key><Size>12</Size><ETag>&quot;abc&quot;</ETag></Contents>
  <Contents><Key><![CDATA[x<&>y]]></Key><Size>0</Size></Contents>
  <Contents/>
</ListBucketResult>`
    assert.throws(() => parseListBucketResult(xml), /without <Key>/)
    const result = parseListBucketResult(xml.replace('<Contents/>', ''))
    assert.deepEqual(result, {
      objects: [{ key: 'a&b <c> "q" \'s\' \'é😀.parquet', size: 12, etag: '"abc"' }, { key: 'x<&>y', size: 0, etag: undefined }],
      truncated: true, nextToken: '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=',
    })
  })

  test('encoding-type=url keys are decoded ("+" is a space, %2B a plus)', () => {
    const xml = '<ListBucketResult><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated><Contents><Key>a+b%2Bc%26d%C3%A9</Key><Size>1</Size></Contents></ListBucketResult>'
    assert.equal(parseListBucketResult(xml).objects[0].key, 'a b+c&dé')
  })

  test('malformed documents are refused, not guessed at', () => {
    for (const bad of ['', '<a>', '<a></b>', '<a>&bogus;</a>', '<a>&amp</a>', '<a>&#0;</a>', '<a>&#xD800;</a>', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', '<a/><b/>', 'text<a/>',
      '<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>',
      '<ListBucketResult><IsTruncated>maybe</IsTruncated></ListBucketResult>', `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`]) {
      assert.throws(() => (bad.startsWith('<ListBucketResult') ? parseListBucketResult(bad) : parseXml(bad)), Error, JSON.stringify(bad))
    }
  })
})
