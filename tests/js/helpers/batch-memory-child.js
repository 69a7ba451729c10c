// Run by batch-streaming.test.js in a fresh Node process, so no other test has grown the wasm heap or
// warmed the pool: one insert + check each of 1M INT64s (BigInt64Array), 1M strings (string[]) and
// 1M strings as Arrow-style columnar buffers, with memoryStats() before and after. Prints JSON.
import { BloomFilter, init, memoryStats } from '../../../js/index.js'

const N = 1_000_000
await init()

const int64 = new BigInt64Array(N)
for (let i = 0; i < N; i++) int64[i] = BigInt(i) * 0x9e3779b97f4a7c15n
const strings = Array.from({ length: N }, (_, i) => `value-${i.toString(36).padStart(10, '0')}`)
const utf8 = new TextEncoder()
const offsets = new Int32Array(N + 1)
for (let i = 0; i < N; i++) offsets[i + 1] = offsets[i] + strings[i].length
const columnar = { values: utf8.encode(strings.join('')), offsets, length: N }

const filter = BloomFilter.create({ ndv: 3 * N, fpp: 0.01 })
const before = memoryStats()
filter.insert(int64, 'INT64')
const int64Hits = filter.check(int64, 'INT64')
filter.insert(strings, 'BYTE_ARRAY')
const stringHits = filter.check(strings, 'BYTE_ARRAY')
const columnarHits = filter.check(columnar, 'BYTE_ARRAY')
const after = memoryStats()

const allMaybe = (hits) => hits.length === N && hits.every((h) => h === 1)
process.stdout.write(JSON.stringify({
  filterBytes: filter.numBytes,
  before,
  after,
  everyInsertedValueMaybe: allMaybe(int64Hits) && allMaybe(stringHits) && allMaybe(columnarHits),
}))
filter.free()
