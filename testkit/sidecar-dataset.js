// A dataset for sidecar indexes at scale (tests/js/sidecar-scale.test.js, bench/sections/index-builder.js):
// many small files written by hyparquet-writer with one INT64 column whose values the caller can compute
// without reading anything back — a bijective 32-bit mix of the row's number, times 3 — so every row
// group's min/max spans nearly the whole range, and values ≡ 1 (mod 3) are stored nowhere.
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { settleMtimes } from './settled-mtimes.js'

/** The value of the dataset's global row n (distinct for distinct n < 2^32). */
export function storedValue(n) {
  let x = Math.imul(n, 0x9e3779b1) >>> 0
  x = (x ^ (x >>> 16)) >>> 0
  x = Math.imul(x, 0x85ebca6b) >>> 0
  x = (x ^ (x >>> 13)) >>> 0
  return BigInt(x) * 3n
}

/** The file names, in the order of their rows. */
export const datasetFileName = (f) => `p${String(f).padStart(5, '0')}.parquet`

/**
 * Writes `files` files of `groups` row groups of `groupRows` rows (column `id`) into `dir`, their mtimes set a minute
 * back (testkit/settled-mtimes.js) so that an index built at once describes them.
 * @returns {{ valuesOf: (f: number) => bigint[], where: (n: number) => { file: number, rowGroup: number, row: number } }}
 */
export async function writeSidecarDataset(dir, { files, groups, groupRows }) {
  const rowsPerFile = groups * groupRows
  const valuesOf = (f) => Array.from({ length: rowsPerFile }, (_, i) => storedValue(f * rowsPerFile + i))
  for (let f = 0; f < files; f++) {
    const buffer = parquetWriteBuffer({ columnData: [{ name: 'id', data: valuesOf(f), type: 'INT64' }], rowGroupSize: groupRows })
    await writeFile(path.join(dir, datasetFileName(f)), new Uint8Array(buffer))
    await settleMtimes(path.join(dir, datasetFileName(f)))
  }
  const where = (n) => ({ file: Math.floor(n / rowsPerFile), rowGroup: Math.floor((n % rowsPerFile) / groupRows), row: n % rowsPerFile })
  return { valuesOf, where }
}

/** The length of a sidecar index's directory blob, read from its Puffin footer by hand (not through the reader). */
export async function directoryLength(indexPath) {
  const bytes = await readFile(indexPath)
  const footerSize = bytes.readUInt32LE(bytes.length - 12)
  const footer = JSON.parse(bytes.subarray(bytes.length - 12 - footerSize, bytes.length - 12).toString('utf8'))
  return footer.blobs.find((b) => b.type === 'parquet-bloom-directory-v1').length
}
