// Writes a Delta table of many appended files at test time (PROTOCOL.md: commits of newline-delimited JSON actions in
// _delta_log/, no checkpoint): N data files written by hyparquet-writer (a bloom filter on `id`), added
// over C commits, each add with its `stats` (numRecords, min/max, nullCount); appendDeltaCommit adds and
// removes files in one more commit. The file → ids map it returns is the generator's own input (the
// same disjoint id ranges as testkit/iceberg-writer.js), independent of the reader.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { parquetWriteBuffer } from 'hyparquet-writer'

import { fileIds } from './iceberg-writer.js'

const TABLE_ID = '0f6c2d8e-5a41-4b7e-9c3d-7e2a1b9f4c60'
const pad = (v) => String(v).padStart(20, '0')

async function writeDataFile(dir, k, rows) {
  const ids = fileIds(k, rows)
  const bytes = parquetWriteBuffer({
    columnData: [{ name: 'id', data: BigInt64Array.from(ids), bloomFilter: true }],
    schema: [{ name: 'root', num_children: 1 }, { name: 'id', type: 'INT64', repetition_type: 'REQUIRED' }],
  })
  const name = `part-${String(k).padStart(5, '0')}.parquet`
  await writeFile(path.join(dir, name), new Uint8Array(bytes))
  return { index: k, path: name, ids, size: bytes.byteLength }
}

const addAction = (f) => ({ add: { path: f.path, partitionValues: {}, size: f.size, modificationTime: 1767225600000, dataChange: true,
  stats: JSON.stringify({ numRecords: f.ids.length, minValues: { id: Number(f.ids[0]) }, maxValues: { id: Number(f.ids[f.ids.length - 1]) }, nullCount: { id: 0 } }) } })

async function writeCommit(dir, version, actions) {
  await writeFile(path.join(dir, '_delta_log', `${pad(version)}.json`), actions.map((a) => JSON.stringify(a)).join('\n') + '\n')
}

/**
 * @param {string} dir an empty folder (the table's root)
 * @param {{ files?: number, commits?: number, rows?: number }} [shape]
 */
export async function writeDeltaTable(dir, { files = 100, commits = 10, rows = 64 } = {}) {
  await mkdir(dir, { recursive: true })
  const written = []
  for (let k = 0; k < files; k++) written.push(await writeDataFile(dir, k, rows))
  return writeDeltaLog(dir, written, { commits, rows })
}

/**
 * A Delta log over data files already written under dir ({ path, size, ids }, paths relative to it; any
 * further columns the files hold are not in the table's schema): their adds spread over `commits` commits.
 * @param {string} dir
 * @param {Array<{ index: number, path: string, size: number, ids: bigint[] }>} written
 */
export async function writeDeltaLog(dir, written, { commits = 10, rows = 64 } = {}) {
  await mkdir(path.join(dir, '_delta_log'), { recursive: true })
  const perCommit = Math.ceil(written.length / commits)
  const metaData = { metaData: { id: TABLE_ID, format: { provider: 'parquet', options: {} }, partitionColumns: [], configuration: {}, createdTime: 1767225600000,
    schemaString: JSON.stringify({ type: 'struct', fields: [{ name: 'id', type: 'long', nullable: false, metadata: {} }] }) } }
  for (let c = 0; c < commits; c++) {
    const members = written.slice(c * perCommit, (c + 1) * perCommit)
    await writeCommit(dir, c, [...(c === 0 ? [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } }, metaData] : []), ...members.map(addAction)])
  }
  return { root: dir, files: written, rows, version: commits - 1 }
}

/**
 * One more commit: `files` new data files added, and the files at the given indexes (into table.files) removed.
 * @param {Awaited<ReturnType<typeof writeDeltaTable>>} table
 */
export async function appendDeltaCommit(table, { files = 1, remove = [] } = {}) {
  const first = Math.max(...table.files.map((f) => f.index)) + 1
  const added = []
  for (let k = first; k < first + files; k++) added.push(await writeDataFile(table.root, k, table.rows))
  const removed = remove.map((i) => table.files[i])
  const version = table.version + 1
  await writeCommit(table.root, version, [...removed.map((f) => ({ remove: { path: f.path, deletionTimestamp: 1767225700000, dataChange: true } })), ...added.map(addAction)])
  return { ...table, files: [...table.files.filter((f) => !removed.includes(f)), ...added], version, added, removed }
}
