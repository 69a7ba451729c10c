// js/plan/read-scheduler.js coalesce: which ranges share a request, on small hand-made needs whose merged
// requests are worked out by hand (gap and size limits at, and one past, their bounds).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'

import { coalesce } from '../../js/plan/read-scheduler.js'

const need = (start, end) => ({ start, end })
/** Requests as [start, end, [task, start, end]...] for compact expectations. */
const shape = (requests) => requests.map((r) => [r.start, r.end, r.parts.map((p) => [p.task, p.start, p.end])])

describe('coalesce', () => {
  test('nothing waiting: no requests', () => {
    assert.deepEqual(coalesce([], 100, 1000), [])
    assert.deepEqual(coalesce([{ task: 0, needs: [] }], 100, 1000), [])
  })

  test('ranges whose gap is at most `gap` share a request; one byte more and they do not', () => {
    assert.deepEqual(shape(coalesce([{ task: 0, needs: [need(0, 10), need(20, 30)] }], 10, 1000)),
      [[0, 30, [[0, 0, 10], [0, 20, 30]]]])
    assert.deepEqual(shape(coalesce([{ task: 0, needs: [need(0, 10), need(21, 30)] }], 10, 1000)),
      [[0, 10, [[0, 0, 10]]], [21, 30, [[0, 21, 30]]]])
  })

  test('with gap 0 only touching or overlapping ranges merge', () => {
    assert.deepEqual(shape(coalesce([{ task: 0, needs: [need(0, 10), need(10, 20), need(21, 22)] }], 0, 1000)),
      [[0, 20, [[0, 0, 10], [0, 10, 20]]], [21, 22, [[0, 21, 22]]]])
  })

  test('needs of several tasks are sorted by offset; contained and overlapping ranges extend to the furthest end', () => {
    const waiting = [
      { task: 2, needs: [need(500, 600)] },
      { task: 0, needs: [need(100, 400), need(5000, 5032)] },
      { task: 1, needs: [need(150, 200), need(350, 450)] },
    ]
    assert.deepEqual(shape(coalesce(waiting, 64, 1 << 20)), [
      [100, 600, [[0, 100, 400], [1, 150, 200], [1, 350, 450], [2, 500, 600]]],
      [5000, 5032, [[0, 5000, 5032]]],
    ])
  })

  test('a request grows to exactly maxBytes, never past it', () => {
    // [0, 40) + [50, 100): 100 bytes, exactly the limit; then [100, 101) would make it 101.
    assert.deepEqual(shape(coalesce([{ task: 0, needs: [need(0, 40), need(50, 100), need(100, 101)] }], 1000, 100)),
      [[0, 100, [[0, 0, 40], [0, 50, 100]]], [100, 101, [[0, 100, 101]]]])
  })

  test('a single range larger than maxBytes still gets its own request', () => {
    assert.deepEqual(shape(coalesce([{ task: 3, needs: [need(10, 510), need(600, 610)] }], 1000, 100)),
      [[10, 510, [[3, 10, 510]]], [600, 610, [[3, 600, 610]]]])
  })

  test('the same range needed by two tasks is read once and serves both', () => {
    assert.deepEqual(shape(coalesce([{ task: 0, needs: [need(64, 96)] }, { task: 1, needs: [need(64, 96)] }], 0, 1000)),
      [[64, 96, [[0, 64, 96], [1, 64, 96]]]])
  })
})
