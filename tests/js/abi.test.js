// js/wasm/abi.js binding to a module's ABI description: the real module binds; hand-built descriptions that
// differ from js/wasm/abi.js in one name, one type, or one record more are refused with a WASM error naming it.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { ErrorCode, init, ParquetBloomError } from '../../js/index.js'
import * as abi from '../../js/wasm/abi.js'

// 32-bit FNV-1a, written out from its definition (not js/wasm/abi.js's), over "Name\0first\0…\0".
function fnv1a(text) {
  let h = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) h = Number((BigInt(h ^ byte) * 0x01000193n) & 0xffffffffn)
  return h
}

const RECORDS = ['BatchDescriptor', 'BloomHeader', 'BitsetHealth', 'FileSummary', 'SchemaRecord', 'RowGroupRecord', 'ChunkRecord', 'ChunkIndexRecord', 'ChunkSpan']
const ENUMS = ['Status', 'HeaderProblem', 'PhysicalType', 'ChunkFlag', 'IndexFlag', 'SbbfLimit', 'FooterPass']
const I32 = 5

/**
 * A fake Emscripten module whose heap holds a src/abi.h Description of js/wasm/abi.js's own lists, every field
 * an i32 word unless `edit` changes the plan: { records: [{ name, names, types? }], enums: [{ name, names }] }.
 */
function fakeModule(edit = (plan) => plan) {
  const plan = edit({
    records: RECORDS.map((name) => ({ name, names: [...abi[name].names] })),
    enums: ENUMS.map((name) => ({ name, names: [...abi[name].names] })),
  })
  const heap = new Uint32Array(4096)
  let top = 16 // word index of the next free word
  const put = (words) => {
    const at = top
    heap.set(words, at)
    top += words.length
    return at * 4
  }
  const hash = ({ name, names }) => fnv1a(`${name}\0${names.join('\0')}\0`)
  const records = plan.records.map((r) => {
    const fields = put(r.names.map((_, i) => ((i * 4) << 16) | (4 << 8) | (r.types?.[i] ?? I32)))
    return put([fnv1a(r.name), hash(r), r.names.length * 4, r.names.length, fields])
  })
  const enums = plan.enums.map((e) => put([fnv1a(e.name), hash(e), e.names.length, put(e.names.map((_, i) => i))]))
  const description = put([2, records.length, put(records), enums.length, put(enums)])
  return { HEAPU8: new Uint8Array(heap.buffer), abiDescription: () => description }
}

/** A fresh copy of js/wasm/abi.js, not yet bound (the one the package uses is bound by init()). */
const freshAbi = async () => import(`../../js/wasm/abi.js?fresh=${Math.random()}`)

function assertRefused(run, pattern) {
  assert.throws(run, (e) => e instanceof ParquetBloomError && e.code === ErrorCode.WASM && pattern.test(e.message))
}

test('the release module binds: status codes, flags and word indices take its values', async () => {
  await init()
  assert.deepEqual(abi.NativeStatus, { OK: 0, MALFORMED: 1, UNSUPPORTED: 2, INVALID_ARGUMENT: 3, LIMIT_EXCEEDED: 4 })
  assert.deepEqual(abi.ChunkFlag.values, { HAS_META_DATA: 1, ENCRYPTED_META_DATA: 2, HAS_CRYPTO_META_DATA: 4, EXTERNAL_FILE: 8 })
  assert.equal(abi.PhysicalType.values.FIXED_LEN_BYTE_ARRAY, 7) // parquet.thrift Type
  assert.equal(abi.HeaderProblem.byValue.get(3), 'missing-numBytes')
  // C++ layout rules: four int32 then a double, which aligns to 8, then six int32.
  assert.equal(abi.FileSummary.bytes, 48)
  // A record of mixed types: three doubles then fourteen int32 words.
  assert.equal(abi.ChunkIndexRecord.bytes, 80)
})

test('a description of exactly js/wasm/abi.js\'s lists binds', async () => {
  const fresh = await freshAbi()
  fresh.bindAbi(fakeModule())
  assert.equal(fresh.Status.values.LIMIT_EXCEEDED, 4)
  assert.equal(fresh.BatchDescriptor.bytes, 40)
})

test('the bindings may list records and enums in any order', async () => {
  const fresh = await freshAbi()
  fresh.bindAbi(fakeModule((plan) => ({ records: plan.records.reverse(), enums: plan.enums.reverse() })))
  assert.equal(fresh.ChunkRecord.words(4), 9)
})

test('a record js/wasm/abi.js lists but the module does not describe fails init', async () => {
  const fresh = await freshAbi()
  assertRefused(() => fresh.bindAbi(fakeModule((plan) => {
    plan.records = plan.records.filter((r) => r.name !== 'BitsetHealth')
    return plan
  })), /does not describe BitsetHealth/)
})

test('a field added in C++ but not listed in js/wasm/abi.js fails init', async () => {
  const fresh = await freshAbi()
  assertRefused(() => fresh.bindAbi(fakeModule((plan) => {
    plan.records.find((r) => r.name === 'ChunkRecord').names.push('statistics_offset')
    return plan
  })), /the 10 members of ChunkRecord in src\/ differ from the 9 js\/wasm\/abi.js lists/)
})

test('a renamed or reordered enumerator fails init', async () => {
  const fresh = await freshAbi()
  assertRefused(() => fresh.bindAbi(fakeModule((plan) => {
    const status = plan.enums.find((e) => e.name === 'Status')
    status.names = [status.names[1], status.names[0], ...status.names.slice(2)]
    return plan
  })), /the 5 members of Status in src\/ differ/)
})

test('a field of a type JS has no view for (uint16) fails init', async () => {
  const fresh = await freshAbi()
  assertRefused(() => fresh.bindAbi(fakeModule((plan) => {
    plan.records.find((r) => r.name === 'BloomHeader').types = [I32, 4]
    return plan
  })), /BloomHeader\.algorithm is u16/)
})

test('one record more than js/wasm/abi.js knows fails init', async () => {
  const fresh = await freshAbi()
  assertRefused(() => fresh.bindAbi(fakeModule((plan) => {
    plan.records.push({ name: 'StatisticsRecord', names: ['min_offset'] })
    return plan
  })), /describes 17 records and enums/)
})

test('a module without a description fails init', async () => {
  const fresh = await freshAbi()
  assertRefused(() => fresh.bindAbi({ HEAPU8: new Uint8Array(16) }), /describes no ABI/)
})

test('a module lacking one of the functions JS calls fails init, naming it; the release module has them all', async () => {
  await init()
  const { checkNativeFunctions, getCore, NATIVE_FUNCTIONS } = await import('../../js/wasm/core.js')
  const real = getCore().native
  assert.deepEqual(NATIVE_FUNCTIONS.filter((name) => typeof real[name] !== 'function'), [])
  const lacking = Object.fromEntries(NATIVE_FUNCTIONS.filter((n) => n !== 'checkHashes').map((n) => [n, () => 0]))
  assertRefused(() => checkNativeFunctions(lacking), /it lacks checkHashes\(\)/)
})
