// Adds seeds from real writers: DuckDB and hyparquet-writer write Parquet files at fuzz-setup time (the
// same helpers the node tests use), and their footers and bloom filters become inputs for the footer,
// header and bitset harnesses. Nothing third-party is read; the files are deleted afterwards.
//   node fuzz/footer-seeds.mjs <output dir>   → <output dir>/<harness>/<seed name>
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { parquetMetadata } from 'hyparquet'

import { writeDuckdbSample, writeHyparquetSample } from '../testkit/sample-files.js'

const out = process.argv[2]
if (!out) {
  console.error('usage: node fuzz/footer-seeds.mjs <output dir>')
  process.exit(2)
}

const MAX_FILTERS_PER_FILE = 12
const PROBES = ['', 'str1', 'str42', 's7-é😀', '2024-01-02', 'absent value'].map((s) => new TextEncoder().encode(s))

async function save(harness, bytes) {
  const dir = path.join(out, harness)
  await mkdir(dir, { recursive: true })
  const name = createHash('sha1').update(bytes).digest('hex')
  await writeFile(path.join(dir, name), bytes)
}

/** Footer, then each chunk's header + bitset (followed by probe values in fuzz_bitset_load's layout). */
async function seedsFrom(file) {
  const bytes = new Uint8Array(await readFile(file))
  const footerLength = new DataView(bytes.buffer).getUint32(bytes.length - 8, true)
  await save('fuzz_file_metadata', bytes.subarray(bytes.length - 8 - footerLength, bytes.length - 8))
  const metadata = parquetMetadata(bytes.buffer)
  const offsets = []
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const offset = chunk.meta_data?.bloom_filter_offset
      if (offset !== undefined) offsets.push({ offset: Number(offset), length: chunk.meta_data.bloom_filter_length })
    }
  }
  offsets.sort((a, b) => a.offset - b.offset)
  const footerStart = bytes.length - 8 - footerLength
  for (const [i, { offset, length }] of offsets.slice(0, MAX_FILTERS_PER_FILE).entries()) {
    // Without bloom_filter_length the filter runs at most to the next filter or the footer.
    const end = length !== undefined ? offset + length : Math.min(offsets[i + 1]?.offset ?? footerStart, footerStart)
    const filter = bytes.subarray(offset, end)
    await save('fuzz_bloom_header', filter.subarray(0, 64))
    const probes = PROBES.flatMap((p) => [p.length, ...p])
    await save('fuzz_bitset_load', new Uint8Array([...filter, ...probes]))
    await save('fuzz_analyze_bitset', filter.subarray(filter.length % 32))
  }
}

const dir = await mkdtemp(path.join(tmpdir(), 'parquet-bloom-seeds-'))
try {
  const small = { rows: 600, rowGroupSize: 200 }
  for (const write of [writeDuckdbSample, writeHyparquetSample]) {
    try {
      const { path: file } = await write(dir, small)
      await seedsFrom(file)
      console.log(`footer seeds: ${path.basename(file)}`)
    } catch (error) {
      console.warn(`footer seeds: ${write.name} failed, continuing without it: ${error.message}`)
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
