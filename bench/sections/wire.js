// Bytes on the wire: a DuckDB-written file of 200 row groups (high-cardinality BIGINT, a bloom filter per
// row group) served over HTTP by the tests' counting range server; 1, 10 and 1,000 values probed in
// block, filter and auto mode, next to hyparquet's parquetQuery({ useBloomFilters: true }) on the same
// file with its reads split into footer, bloom filter and data reads.
import { stat } from 'node:fs/promises'
import path from 'node:path'

import { asyncBufferFromUrl, parquetQuery } from 'hyparquet'

import { openParquet } from '../../js/index.js'
import { standardHeaderLength } from '../../js/indexes/bloom-layout.js'
import { startTestServer } from '../../testkit/range-server.js'
import { makeTempDir } from '../../testkit/temp-dir.js'
import { runIfMain } from '../lib/section.js'
import { withDuckDB } from '../../testkit/duckdb.js'

const ROW_GROUPS = 200
const ROWS_PER_GROUP = 2048 // DuckDB's row groups are multiples of its 2048-row vectors
const ROWS = ROW_GROUPS * ROWS_PER_GROUP
const idOf = (row) => (row * 2654435761) % 1000000007 // distinct for every row; no order across row groups

async function writeFile(dir) {
  const file = path.join(dir, 'wire.parquet')
  await withDuckDB(async (conn) => {
    await conn.run(`COPY (SELECT (i * 2654435761 % 1000000007)::BIGINT AS id, 'payload-' || i::VARCHAR AS payload FROM range(${ROWS}) t(i))
      TO '${file.replace(/'/g, "''")}' (FORMAT parquet, ROW_GROUP_SIZE ${ROWS_PER_GROUP}, DICTIONARY_SIZE_LIMIT 1000000, BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01)`)
  })
  return file
}

/** k present values, spread evenly over the file's rows (so over its row groups). */
function valuesFor(k) {
  return Array.from({ length: k }, (_, j) => idOf(Math.floor(((j + 0.5) * ROWS) / k)))
}

async function measureOurs(server, url, values, mode, coalesceGap) {
  server.resetStats()
  const file = await openParquet(url, coalesceGap === undefined ? {} : { coalesceGap })
  const footer = { requests: server.stats.requests, bytes: server.stats.bytesWritten }
  const result = await file.probe('id', values, { mode })
  const total = { requests: server.stats.requests, bytes: server.stats.bytesWritten }
  // Every value is in the file: a row group holding it must say maybe (a false negative would be a bug).
  const groupOfValue = new Map(values.map((v, j) => [v, Math.floor(Math.floor(((j + 0.5) * ROWS) / values.length) / ROWS_PER_GROUP)]))
  let falseNegatives = 0
  let absent = 0
  let unknown = 0
  for (const rg of result.rowGroups) {
    for (const r of rg.results) {
      if (r.verdict === 'absent') absent++
      if (r.verdict === 'unknown') unknown++
      if (groupOfValue.get(Number(r.value)) === rg.index && r.verdict === 'absent') falseNegatives++
    }
  }
  const numBytes = (await file.readBloomFilterParts(0, 'id')).header.numBytes
  await file.close()
  return {
    footerRequests: footer.requests, footerBytes: footer.bytes,
    probeRequests: total.requests - footer.requests, probeBytes: total.bytes - footer.bytes,
    requests: total.requests, bytes: total.bytes, absentVerdicts: absent, unknownVerdicts: unknown, falseNegatives, filterNumBytes: numBytes,
  }
}

/**
 * hyparquet's parquetQuery with useBloomFilters, over its own asyncBufferFromUrl (HEAD + ranges), with
 * each slice classified: footer (the tail / metadata), bloom (exactly a chunk's bloom filter range) or
 * data (everything read after the filters: pages of the row groups that were not pruned).
 */
async function measureHyparquet(server, url, values, metadataHint) {
  server.resetStats()
  const inner = await asyncBufferFromUrl({ url })
  const head = { requests: server.stats.requests, bytes: server.stats.bytesWritten }
  const kinds = { footer: { requests: 0, bytes: 0 }, bloom: { requests: 0, bytes: 0 }, data: { requests: 0, bytes: 0 } }
  const file = {
    byteLength: inner.byteLength,
    async slice(start, end) {
      const buffer = await inner.slice(start, end)
      const kind = start >= metadataHint.metadataOffset || end === undefined || end >= inner.byteLength ? 'footer'
        : metadataHint.bloomRanges.has(`${start}-${end}`) ? 'bloom' : 'data'
      kinds[kind].requests++
      kinds[kind].bytes += buffer.byteLength
      return buffer
    },
  }
  // hyparquet returns INT64 as bigint and $in compares strictly, so the values go in as bigints.
  const rows = await parquetQuery({ file, filter: { id: { $in: values.map(BigInt) } }, useBloomFilters: true, columns: ['id'] })
  return {
    headRequests: head.requests,
    footerRequests: kinds.footer.requests, footerBytes: kinds.footer.bytes,
    bloomRequests: kinds.bloom.requests, bloomBytes: kinds.bloom.bytes,
    metadataAndFilterRequests: head.requests + kinds.footer.requests + kinds.bloom.requests,
    metadataAndFilterBytes: head.bytes + kinds.footer.bytes + kinds.bloom.bytes,
    dataRequests: kinds.data.requests, dataBytes: kinds.data.bytes,
    totalRequests: server.stats.requests, totalBytes: server.stats.bytesWritten,
    rowsReturned: rows.length,
  }
}

export async function run() {
  const { dir, remove } = await makeTempDir('bench-wire')
  const server = await startTestServer({ root: dir })
  try {
    const filePath = await writeFile(dir)
    const fileSize = (await stat(filePath)).size
    const url = server.url('wire.parquet')
    const opened = await openParquet(url)
    const columnIndex = opened.column('id').index
    const rowGroups = opened.metadata.rowGroups
    const bloomRanges = new Set(rowGroups.map((rg) => {
      const b = rg.columns[columnIndex].bloom
      return `${b.offset}-${b.offset + b.length}`
    }))
    const hint = { metadataOffset: opened.metadataOffset, bloomRanges }
    const filterNumBytes = (await opened.readBloomFilterParts(0, 'id')).header.numBytes
    const filtersBytes = rowGroups.reduce((n, rg) => n + rg.columns[columnIndex].bloom.length, 0)
    const firstFilter = Math.min(...rowGroups.map((rg) => rg.columns[columnIndex].bloom.offset))
    await opened.close()

    const results = []
    for (const k of [1, 10, 1000]) {
      const values = valuesFor(k)
      const row = { values: k, modes: {} }
      for (const mode of ['block', 'filter', 'auto']) row.modes[mode] = await measureOurs(server, url, values, mode)
      row.modes['block (coalesceGap 0)'] = await measureOurs(server, url, values, 'block', 0)
      row.hyparquet = await measureHyparquet(server, url, values, hint)
      // Block mode over R row groups: footer read + R × (header + 32 bytes per distinct block), before coalescing.
      row.blockBound = row.modes.block.footerBytes + ROW_GROUPS * (standardHeaderLength(filterNumBytes) + Math.min(k, filterNumBytes / 32) * 32)
      results.push(row)
    }
    return {
      file: { bytes: fileSize, rowGroups: ROW_GROUPS, rowsPerGroup: ROWS_PER_GROUP, writer: 'DuckDB (@duckdb/node-api)', filterNumBytes, filtersBytes, firstFilterOffset: firstFilter, metadataOffset: hint.metadataOffset, tailBytesBeforeFooter: hint.metadataOffset - firstFilter },
      results,
    }
  } finally {
    await server.close()
    await remove()
  }
}

runIfMain(import.meta.url, run)
