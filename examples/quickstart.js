// The smallest tour of the API: build a filter, probe it, round-trip it through the Parquet layout.
// Run: node examples/quickstart.js
import { BloomFilter, init, memoryStats } from '../js/index.js'

await init()

const filter = BloomFilter.create({ ndv: 10_000, fpp: 0.01 })
try {
  filter.insert(['berlin', 'paris', 'tokyo'], 'BYTE_ARRAY')
  filter.insert(new BigInt64Array([42n, 7n]), 'INT64')

  const cities = ['paris', 'lima', 'tokyo']
  const hits = filter.check(cities, 'BYTE_ARRAY')
  cities.forEach((city, i) => console.log(`${city.padEnd(6)} ${hits[i] ? 'maybe present' : 'definitely absent'}`))
  console.log(`42     ${filter.mightContain(42n, 'INT64') ? 'maybe present' : 'definitely absent'}`)

  // toBytes() is what a Parquet writer stores: BloomFilterHeader + bitset.
  const bytes = filter.toBytes()
  const copy = BloomFilter.fromBytes(bytes)
  try {
    console.log(`round trip: ${bytes.length} bytes, tokyo ${copy.mightContain('tokyo', 'BYTE_ARRAY') ? 'still found' : 'LOST'}`)
  } finally {
    copy.free()
  }
} finally {
  filter.free()
}
console.log('wasm memory:', memoryStats())
