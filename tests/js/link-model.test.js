// js/plan/link-model.js: what one more request is worth in bytes, on hand-worked waves — free while the
// split wave fits in the rounds the joined one takes anyway, a window's share of a round otherwise —
// and what a request costs in time, measured from whole waves and spent on gaps cheaper to read.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { LinkModel, mergeForRounds } from '../../js/plan/link-model.js'

describe('LinkModel.requestBytes', () => {
  const link = new LinkModel({ rttMs: 30, bytesPerMs: 10_000 }) // a round is worth 300,000 bytes

  test('a split wave that fits in the joined wave\'s rounds: requests are free', () => {
    assert.equal(link.requestBytes({ splitRequests: 190, joinedRequests: 95, window: 256 }), 0)
    assert.equal(link.requestBytes({ splitRequests: 256, joinedRequests: 1, window: 256 }), 0)
    assert.equal(link.requestBytes({ splitRequests: 12, joinedRequests: 7, window: 6 }), 0) // 2 rounds either way
  })

  test('a split wave that needs more rounds: each request costs a window\'s share of a round', () => {
    assert.equal(link.requestBytes({ splitRequests: 257, joinedRequests: 95, window: 256 }), 300_000 / 256)
    assert.equal(link.requestBytes({ splitRequests: 190, joinedRequests: 95, window: 64 }), 300_000 / 64)
    assert.equal(link.requestBytes({ splitRequests: 190, joinedRequests: 95, window: 6 }), 50_000)
  })

  test('a dataset\'s file planning for its share of a window: a request costs a share of the whole round', () => {
    // 1,000 files through a window of 1,000: each file's share is one request; its second costs a
    // thousandth of a round (the other files' reads share it), not a whole one.
    assert.equal(link.requestBytes({ splitRequests: 3, joinedRequests: 1, window: 1, roundWindow: 1000 }), 300)
    assert.equal(link.requestBytes({ splitRequests: 1, joinedRequests: 1, window: 1, roundWindow: 1000 }), 0)
  })
})

describe('the cost of a request', () => {
  test('a wave of 200 requests that took 130 ms beyond its 30 ms round: 0.5 ms per request, halfway from the start', () => {
    const link = new LinkModel({ rttMs: 30, bytesPerMs: 10_000, requestMs: 0.5 })
    const responses = Array.from({ length: 200 }, (_, i) => ({ bytes: 48, ms: 30 + i * 0.65 }))
    link.observeWave(responses, 160, 1)
    // (160 - 30 - 9600 / 10000) / 200 = 0.645; the first wave moves halfway: 0.5725.
    assert.ok(Math.abs(link.requestMs - 0.5725) < 1e-3, String(link.requestMs))
    assert.ok(Math.abs(link.rttMs - 30) < 0.01, 'the fastest response is the round trip')
  })

  test('a wave too small to show the cost leaves it, and the round trip is still measured', () => {
    const link = new LinkModel({ rttMs: 30, bytesPerMs: 10_000, requestMs: 0.5 })
    link.observeWave([{ bytes: 100, ms: 50 }, { bytes: 100, ms: 80 }], 80, 1)
    assert.equal(link.requestMs, 0.5)
    assert.ok(Math.abs(link.rttMs - 49.99) < 0.01)
  })

  test('cost counts requests; bytesPerRequest is what a request is worth in transfer', () => {
    const link = new LinkModel({ rttMs: 30, bytesPerMs: 10_000, requestMs: 0.5 })
    assert.equal(link.cost(100, 50_000, 256), 30 + 50 + 5)
    assert.equal(link.bytesPerRequest, 5000)
  })

  test('mergeForRounds reads gaps cheaper than a request, smallest first, at most a round\'s bytes (≥ 128 KiB) in vain', () => {
    // 60 reads of 32 bytes, 3,000 bytes apart, and 60 more 6,000 bytes apart (over 5,000: not worth it).
    const reads = []
    let at = 0
    for (let i = 0; i < 60; i++, at += 3032) reads.push({ start: at, end: at + 32, parts: [i] })
    for (let i = 0; i < 60; i++, at += 6032) reads.push({ start: at, end: at + 32, parts: [60 + i] })
    const wastedBy = (merged) => merged.reduce((n, r) => n + r.end - r.start, 0) - 120 * 32
    // 30 ms at 10 MB/s: a round carries 300,000 bytes, room for all 60 gaps of 3,000 (180,000 bytes).
    const link = new LinkModel({ rttMs: 30, bytesPerMs: 10_000, requestMs: 0.5 })
    const merged = mergeForRounds(reads, { window: 256, minGap: 1024, maxBytes: 16 << 20, link })
    assert.equal(wastedBy(merged), 60 * 3000)
    assert.equal(merged.length, 60)
    // The 61st read is 3,000 bytes after the 60th: joined too.
    assert.ok(merged.every((r) => r.parts.length === 1 || r.end <= 60 * 3032 + 32), 'only the 3,000-byte gaps are joined')
    assert.deepEqual(merged.flatMap((r) => r.parts), Array.from({ length: 120 }, (_, i) => i), 'every read served, in order')
    // A dataset's file planning for a quarter of the window gets a quarter of the round's bytes (75,000): the floor.
    const shared = mergeForRounds(reads, { window: 64, roundWindow: 256, minGap: 1024, maxBytes: 16 << 20, link })
    assert.equal(shared.length, 120 - Math.floor((128 * 1024) / 3000))
    // 5 ms at 10 MB/s: a round carries 50,000 bytes, less than the floor: 128 KiB in vain, smallest gaps first.
    const near = new LinkModel({ rttMs: 5, bytesPerMs: 10_000, requestMs: 0.5 })
    const floor = mergeForRounds(reads, { window: 256, minGap: 1024, maxBytes: 16 << 20, link: near })
    assert.ok(wastedBy(floor) <= 128 * 1024, `${wastedBy(floor)} bytes`)
    assert.equal(floor.length, 120 - Math.floor((128 * 1024) / 3000))
    assert.deepEqual(floor.flatMap((r) => r.parts), Array.from({ length: 120 }, (_, i) => i), 'every read served, in order')
    // Free requests (a cost of 0 measured): nothing joined.
    const free = new LinkModel({ rttMs: 30, bytesPerMs: 10_000, requestMs: 0 })
    assert.equal(mergeForRounds(reads, { window: 256, minGap: 1024, maxBytes: 16 << 20, link: free }).length, 120)
  })
})
