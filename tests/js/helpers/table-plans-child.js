// A child process for tests/js/table-memory.test.js (run with --expose-gc): writes an Iceberg table of `files` data files
// (ids k·1000 + 2r, r < 40, each file's id bounds in its manifest entry; `tags` a list of structs { a }), opens it once and
// probes it 40 times with point lookups of `tags`, each probe in 15 files no earlier probe read (probe() or probeEach, by
// `mode`), and prints the JS heap (code spaces left out: the JIT's work is not the table's) after the 10th probe and after
// the 40th, with every answer that is not the generator's truth. Argument: JSON { dir, files, mode }.
import v8 from 'node:v8'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { openTable } from '../../../js/index.js'
import { writeIcebergTable } from './iceberg-writer.js'

const { dir, files: FILES, mode } = JSON.parse(process.argv[2])
const ROWS = 40
const PER_PROBE = 15
const longBound = (/** @type {bigint} */ n) => { const b = Buffer.alloc(8); b.writeBigInt64LE(n); return b }
// Even ids only: an odd one within a file's bounds keeps the file (it is read), and no row holds it.
const idOf = (/** @type {number} */ k, /** @type {number} */ r) => BigInt(k * 1000 + 2 * r)
const schema = [{ name: 'root', num_children: 2 }, { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 1 },
  { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1, field_id: 2 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'OPTIONAL', num_children: 1, field_id: 3 },
  { name: 'a', type: 'INT64', repetition_type: 'OPTIONAL', field_id: 4 }]
/** @type {Record<string, Uint8Array>} */
const files = {}
const entries = []
for (let k = 0; k < FILES; k++) {
  const ids = Array.from({ length: ROWS }, (_, r) => idOf(k, r))
  const name = `data/f${k}.parquet`
  files[name] = new Uint8Array(parquetWriteBuffer({ schema, rowGroupSize: 10,
    columnData: [{ name: 'id', data: ids }, { name: 'tags', data: ids.map((v) => [{ a: v }, { a: v + 1n }]) }] }))
  entries.push({ file: { file_path: name, record_count: ROWS, lower_bounds: [{ key: 1, value: longBound(idOf(k, 0)) }],
    upper_bounds: [{ key: 1, value: longBound(idOf(k, ROWS - 1)) }] } })
}
await writeIcebergTable(dir, { schema: [{ id: 1, name: 'id', type: 'long' },
  { id: 2, name: 'tags', type: { type: 'list', 'element-id': 3, 'element-required': false,
    element: { type: 'struct', fields: [{ id: 4, name: 'a', required: false, type: 'long' }] } } }],
files, manifests: [{ entries }] })

const heap = async () => {
  await new Promise((resolve) => setTimeout(resolve, 20))
  for (let i = 0; i < 3; i++) {
    /** @type {any} */ (globalThis).gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return v8.getHeapSpaceStatistics().filter((s) => !s.space_name.startsWith('code')).reduce((n, s) => n + s.space_used_size, 0)
}

const table = await openTable(dir, { format: 'iceberg' })
/** @type {string[]} */
const wrong = []
/** @param {number} p */
async function probe(p) {
  const ks = Array.from({ length: PER_PROBE }, (_, j) => (p * PER_PROBE + j) % FILES)
  // The first file's value is stored (its row's tags are looked up); the others' are not, in their files' bounds.
  const values = ks.map((k, j) => idOf(k, 3) + (j === 0 ? 0n : 1n))
  const options = { confirm: true, columns: ['id', 'tags'] }
  const answers = []
  if (mode === 'each') for await (const f of table.probeEach('id', values, options)) answers.push(f)
  else answers.push(...(await table.probe('id', values, options)).files)
  for (const f of answers) {
    const k = ks.indexOf(Number(/** @type {RegExpMatchArray} */ (f.path.match(/f(\d+)\.parquet/))[1]))
    f.values.forEach((v, j) => {
      const held = j === 0 && k === 0
      if (v.verdict !== (held ? 'present' : 'absent')) wrong.push(`${f.path} ${v.value}: ${v.verdict}`)
      const tags = /** @type {any} */ (v).values?.[0]?.tags
      if (held && String(tags?.map((/** @type {{ a: bigint }} */ t) => t.a)) !== `${v.value},${BigInt(v.value) + 1n}`) {
        wrong.push(`${f.path}: tags ${tags}`)
      }
    })
  }
}
for (let p = 0; p < 10; p++) await probe(p)
const after10 = await heap()
for (let p = 10; p < 40; p++) await probe(p)
const after40 = await heap()
await table.close()
process.stdout.write(JSON.stringify({ after10, after40, wrong }))
