// js/plan/link-model.js: what one more request is worth in bytes, on hand-worked waves — free while the
// split wave fits in the rounds the joined one takes anyway, a window's share of a round otherwise.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { LinkModel } from '../../js/plan/link-model.js'

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
})
