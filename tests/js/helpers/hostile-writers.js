// Parquet files with the bloom filter defects real writers produce, made at test time:
// - writeParquetjsSample: a file written by @dsnp/parquetjs, whose filters have an empty-union header,
//   are shared by every row group, reuse one block object for all blocks (so they saturate) and hash
//   String(value) instead of the PLAIN bytes;
// - writePatchedFooterSample: a hyparquet-writer file whose footer is patched in place to carry a wrong
//   bloom_filter_length, or a bloom_filter_offset inside the footer or past the end of the file.
import { createRequire } from 'node:module'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { parquetMetadata } from 'hyparquet'

const require = createRequire(import.meta.url)

/**
 * @param {string} dir
 * @param {{ rows?: number, rowGroupSize?: number }} [options]
 * @returns {Promise<{ path: string, writer: string, rowGroupRows: number[], bloomColumns: string[], plainColumns: string[],
 *   rows: Array<{ name: string, quantity: bigint, price: number }> }>}
 */
export async function writeParquetjsSample(dir, { rows = 300, rowGroupSize = 100 } = {}) {
  const { ParquetSchema, ParquetWriter } = require('@dsnp/parquetjs')
  const file = path.join(dir, 'parquetjs-sample.parquet')
  const schema = new ParquetSchema({
    name: { type: 'UTF8' },
    quantity: { type: 'INT64' },
    price: { type: 'DOUBLE' },
  })
  // As its README ("Adding bloom filters") and lib/bloomFilterIO/bloomFilterWriter.js createSBBF take them.
  const writer = await ParquetWriter.openFile(schema, file, {
    rowGroupSize,
    bloomFilters: [
      { column: 'name', numDistinct: rowGroupSize, falsePositiveRate: 0.01 },
      { column: 'quantity', numDistinct: rowGroupSize, falsePositiveRate: 0.01 },
    ],
  })
  const data = Array.from({ length: rows }, (_, i) => ({ name: `n${i}`, quantity: BigInt(i * 3), price: i / 2 }))
  for (const row of data) await writer.appendRow(row)
  await writer.close()
  const metadata = await readMetadata(file)
  return {
    path: file,
    writer: '@dsnp/parquetjs',
    rowGroupRows: metadata.row_groups.map((rg) => Number(rg.num_rows)),
    bloomColumns: ['name', 'quantity'],
    plainColumns: ['price'],
    rows: data,
  }
}

/**
 * A copy of `source` (a file with bloom filters that record bloom_filter_length) with one chunk's
 * footer entry patched, without changing the footer's size:
 * - 'length-mismatch': bloom_filter_length one byte longer than header + bitset
 * - 'offset-in-footer': bloom_filter_offset pointing 2 bytes into the footer
 * - 'offset-past-end': bloom_filter_offset past the end of the file
 * @param {string} source path of a file written by hyparquet-writer (it writes offset then length)
 * @param {string} target path to write
 * @param {'length-mismatch' | 'offset-in-footer' | 'offset-past-end'} defect
 * @param {{ rowGroup?: number, column?: number }} [where] which chunk (default the first)
 * @returns {Promise<{ path: string, rowGroup: number, column: string, offset: number, length: number,
 *   patchedOffset: number, patchedLength: number, metadataOffset: number, fileSize: number }>}
 */
export async function writePatchedFooterSample(source, target, defect, { rowGroup = 0, column = 0 } = {}) {
  const bytes = new Uint8Array(await readFile(source))
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const footerLength = view.getUint32(bytes.length - 8, true)
  const metadataOffset = bytes.length - 8 - footerLength
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  const chunk = metadata.row_groups[rowGroup].columns[column]
  const offset = Number(chunk.meta_data.bloom_filter_offset)
  const length = chunk.meta_data.bloom_filter_length
  if (length === undefined) throw new Error(`${source}: the chunk has no bloom_filter_length to patch`)

  // Compact protocol: field 14 (i64 offset) is followed by field 15 (i32 length), header byte 0x15.
  const pattern = [...varint(zigzag(BigInt(offset))), 0x15, ...varint(zigzag(BigInt(length)))]
  const at = findUnique(bytes, pattern, metadataOffset)
  const offsetBytes = varint(zigzag(BigInt(offset))).length
  let patchedOffset = offset
  let patchedLength = length
  if (defect === 'length-mismatch') patchedLength = length + 1
  else if (defect === 'offset-in-footer') patchedOffset = metadataOffset + 2
  else if (defect === 'offset-past-end') patchedOffset = bytes.length + 1000
  else throw new Error(`unknown defect ${defect}`)
  const replacement = [...varint(zigzag(BigInt(patchedOffset))), 0x15, ...varint(zigzag(BigInt(patchedLength)))]
  if (replacement.length !== pattern.length || varint(zigzag(BigInt(patchedOffset))).length !== offsetBytes) {
    throw new Error(`patching ${defect} would change the footer size; pick another chunk`)
  }
  bytes.set(replacement, at)
  await writeFile(target, bytes)
  return {
    path: target, rowGroup, column: chunk.meta_data.path_in_schema.join('.'), offset, length, patchedOffset, patchedLength,
    metadataOffset, fileSize: bytes.length,
  }
}

async function readMetadata(file) {
  const bytes = await readFile(file)
  return parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
}

const zigzag = (n) => (n << 1n) ^ (n >> 63n)

function varint(n) {
  const out = []
  while (n >= 0x80n) {
    out.push(Number(n & 0x7fn) | 0x80)
    n >>= 7n
  }
  out.push(Number(n))
  return out
}

function findUnique(bytes, pattern, from) {
  const hits = []
  outer: for (let i = from; i + pattern.length <= bytes.length; i++) {
    for (let k = 0; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer
    hits.push(i)
  }
  if (hits.length !== 1) throw new Error(`expected the bloom filter offset/length once in the footer, found it ${hits.length} times`)
  return hits[0]
}
