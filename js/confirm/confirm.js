// Exact lookups (probe's confirm option): after the indexes have answered, the row groups where a value is still
// 'maybe' (or 'unknown' for want of an index) have their data pages read — with an OffsetIndex
// (parquet-format PageIndex.md) only the candidate pages and the dictionary page before them, else the
// whole column chunk — all in one wave of coalesced, concurrent reads within a byte budget, and are
// decoded (js/pages/page-decode.js) and matched (js/confirm/confirm-match.js) into 'present' with row numbers or an
// exact 'absent'. Any doubt about a page keeps the index's answer, with reason 'confirm-failed'.
// Encrypted chunks opened with their key have their pages decrypted first (js/crypto/encrypted-pages.js).
import { chunk } from '../footer/records.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { DEFAULT_MAX_CONFIRM_BYTES, DEFAULT_MAX_ROWS } from './confirm-options.js'
import { CandidateMatcher, hitsThroughDictionary, walkLevels } from './confirm-match.js'
import { columnDecoder, decodePageAt, PageDecodeError } from '../pages/page-decode.js'
import { ParquetBloomError } from '../errors.js'
import { RangeTask } from '../plan/read-scheduler.js'
import { decryptPage, pagesAuthenticated, splitPageModules } from '../crypto/encrypted-pages.js'
import { concatBytes } from '../format/bytes.js'
import { Source } from '../verdicts.js'

// Point lookups (probe's `columns`) come in this chunk: one chunk for the probe path to load, not two. Tables' metadata
// files are read as rows through the same page decoding (rowGroupValues, js/table/parquet-rows.js).
export { lookupColumns, lookupRowValues, rowGroupValues } from './point-lookups.js'

// 'unknown' answers that only lacked a usable index: the pages can still say. Others (null, NaN, an
// encrypted or external chunk) stay as they are.
const INDEX_LACKING = new Set(['no-index', 'malformed-filter', 'unsupported-filter', 'inconsistent-filter', 'untrusted-writer',
  'malformed-dictionary', 'unsupported-codec', 'dictionary-too-large'])

/**
 * @typedef {import('../verdicts.js').ValueResult} ValueResult
 * @typedef {{ index: number, numRows: number, results: ValueResult[] }} ConfirmGroup
 * @typedef {{ reason: import('../index.js').ReasonCode, detail: string }} ConfirmFailure why a row group's pages could not decide
 * @typedef {{ start: number, end: number, role: 'dictionary' | 'chunk' | number, bytes?: Uint8Array }} ConfirmRead
 *   role: the bytes before the first data page, the whole chunk, or the OffsetIndex's page of that number
 * @typedef {{ group: ConfirmGroup, wanted: Uint8Array, firstRow: number, reads: ConfirmRead[],
 *   pageIndex: import('../indexes/page-index.js').PreparedPageIndex | undefined, pages?: number[],
 *   failure: ConfirmFailure | undefined, crypto: import('../crypto/encrypted-footer.js').ChunkKeys | undefined,
 *   dictionaryFirst: boolean, where: string }} ConfirmJob
 *   one row group's confirmation: its reads, and why it failed when it did
 * @typedef {Awaited<ReturnType<typeof columnDecoder>>} ColumnDecoding
 * @typedef {(group: number, row: number) => void} OnHit
 */

/**
 * Whether the pages may decide this result: a 'maybe', a 'present' without rows, or an index-less 'unknown'.
 * @param {ValueResult} result
 */
function confirmable(result) {
  if (result.source === Source.VALUE) return false
  return result.verdict === 'maybe' || result.verdict === 'present' || (result.verdict === 'unknown' && INDEX_LACKING.has(result.reason))
}

/**
 * Plans the confirmation of a probe's results. Returns the read tasks (for runReadTasks, one wave) and
 * `finish()`, which decodes what was read and rewrites the results in place.
 * @param {{ name: string, layout: import('../footer/footer.js').FileLayout, metadataOffset: number,
 *   column: import('../footer/footer.js').LeafColumn,
 *   encoded: { physicalType: string, candidates: any[], owners: Int32Array, outcomes: any[] },
 *   rowGroups: ConfirmGroup[],
 *   pageIndexOf: (rowGroup: number) => import('../indexes/page-index.js').PreparedPageIndex | undefined,
 *   maxConfirmBytes?: number, maxRows?: number, maxReadBytes?: number }} probe
 *   maxReadBytes: the byte source's largest single read (openParquet's maxBytes): a chunk over it is not read
 *   name: the file, for messages
 */
export function planConfirm({
  name, layout, metadataOffset, column, encoded, rowGroups, pageIndexOf,
  maxConfirmBytes = DEFAULT_MAX_CONFIRM_BYTES, maxRows = DEFAULT_MAX_ROWS, maxReadBytes = Infinity,
}) {
  ensureColumnIndexes(layout, column.index) // the chunks' codecs
  const firstRows = rowGroupFirstRows(layout.rowGroupRows)
  const tasks = []
  /** @type {ConfirmJob[]} */
  const jobs = []
  let planned = 0
  for (const group of rowGroups) {
    const wanted = new Uint8Array(group.results.length)
    let open = 0
    group.results.forEach((r, v) => { if (confirmable(r)) { wanted[v] = 1; open++ } })
    if (!open) continue
    /** @type {ConfirmJob} */
    const job = { group, wanted, firstRow: firstRows[group.index], reads: [], pageIndex: undefined, failure: undefined,
      crypto: undefined, dictionaryFirst: false, where: `${name}: row group ${group.index}, column ${column.name}` }
    jobs.push(job)
    const record = chunk(layout, group.index, column.index)
    job.failure = encryptionRefusal(record)
    if (job.failure) continue
    // encryptionRefusal let it through: no key is missing.
    job.crypto = /** @type {import('../crypto/encrypted-footer.js').ChunkKeys | undefined} */ (record.crypto)
    const range = record.pageRange()
    if (!range || !(range.chunkStart >= 4 && range.chunkEnd <= metadataOffset)) {
      job.failure = { reason: 'confirm-failed', detail: 'the footer does not place the column chunk inside the file\'s data' }
      continue
    }
    // A chunk starting before its first data page starts with its dictionary page (ChunkView.pageRange).
    job.dictionaryFirst = range.chunkStart !== record.dataPageOffset
    const prepared = pageIndexOf(group.index)
    if (prepared) {
      const pages = candidatePageUnion(group.results, wanted, prepared.pageCount)
      job.pageIndex = prepared
      job.pages = pages
      // The dictionary page, when there is one, lies before the first data page.
      if (range.chunkStart < prepared.offsets[0]) job.reads.push({ start: range.chunkStart, end: prepared.offsets[0], role: 'dictionary' })
      for (const p of pages) {
        job.reads.push({ start: prepared.offsets[p], end: prepared.offsets[p] + prepared.compressedSizes[p], role: p })
      }
    } else {
      job.reads.push({ start: range.chunkStart, end: range.chunkEnd, role: 'chunk' })
    }
    const bytes = job.reads.reduce((sum, r) => sum + (r.end - r.start), 0)
    const largest = Math.max(...job.reads.map((r) => r.end - r.start))
    if (largest > maxReadBytes) {
      job.failure = {
        reason: 'confirm-budget',
        detail: `a ${largest}-byte read, over the largest single read this file allows (maxBytes ${maxReadBytes})`,
      }
      job.reads = []
      continue
    }
    if (planned + bytes > maxConfirmBytes) {
      job.failure = {
        reason: 'confirm-budget',
        detail: `confirming would read ${bytes} more bytes, past maxConfirmBytes ${maxConfirmBytes}`,
      }
      job.reads = []
      continue
    }
    planned += bytes
    for (const read of job.reads) {
      tasks.push(new RangeTask(read.start, read.end, (/** @type {Uint8Array} */ b) => { read.bytes = b }, 'data-page'))
    }
  }
  const rowsTaken = new Int32Array(encoded.outcomes.length)
  return {
    tasks,
    plannedBytes: planned,
    async finish() {
      for (const job of jobs) {
        if (!job.failure) job.failure = await confirmJob(job, { layout, column, encoded, maxRows, rowsTaken })
        if (job.failure) keepWithReason(job, job.failure)
      }
    },
  }
}

/**
 * Why a chunk's pages cannot be confirmed for its encryption, or undefined: encrypted without its key,
 * or encrypted with AES_GCM_CTR_V1, whose pages are AES-CTR and authenticate nothing (a verdict never
 * comes from unauthenticated bytes, as for CTR dictionaries in js/crypto/encrypted-dictionary.js).
 * @param {import('../footer/records.js').ChunkView} record
 * @returns {ConfirmFailure | undefined}
 */
function encryptionRefusal(record) {
  const { crypto } = record
  if (crypto?.missing !== undefined) return { reason: 'confirm-failed', detail: `the column chunk is encrypted and ${crypto.missing}` }
  const keys = /** @type {import('../crypto/encrypted-footer.js').ChunkKeys | undefined} */ (crypto) // none missing, as checked
  if (keys && !pagesAuthenticated(keys)) {
    return {
      reason: 'confirm-failed',
      detail: `the file is encrypted with ${keys.algorithm}, whose data pages are AES-CTR and not authenticated: ` +
        'exact lookups answer only from authenticated pages',
    }
  }
  if (!keys && record.encrypted) return { reason: 'confirm-failed', detail: 'the column chunk is encrypted and no key for it was given' }
  return undefined
}

/**
 * File-level number of each row group's first row.
 * @param {ArrayLike<number>} rowGroupRows
 */
function rowGroupFirstRows(rowGroupRows) {
  const first = new Float64Array(rowGroupRows.length)
  for (let g = 1; g < rowGroupRows.length; g++) first[g] = first[g - 1] + rowGroupRows[g - 1]
  return first
}

/**
 * The pages any confirmed value may be on (all pages for a value without a list), ascending.
 * @param {ValueResult[]} results
 * @param {Uint8Array} wanted
 * @param {number} pageCount
 */
function candidatePageUnion(results, wanted, pageCount) {
  const on = new Uint8Array(pageCount)
  results.forEach((r, v) => {
    if (!wanted[v]) return
    if (Array.isArray(r.pages)) for (const p of r.pages) on[p] = 1
    else on.fill(1)
  })
  const pages = []
  for (let p = 0; p < pageCount; p++) if (on[p]) pages.push(p)
  return pages
}

/**
 * Decodes one row group's reads and settles its confirmed values; returns a failure instead when any page is in doubt.
 * @param {ConfirmJob} job
 * @param {{ layout: import('../footer/footer.js').FileLayout, column: import('../footer/footer.js').LeafColumn,
 *   encoded: { physicalType: string, candidates: any[], owners: Int32Array }, maxRows: number, rowsTaken: Int32Array }} context
 * @returns {Promise<ConfirmFailure | undefined>}
 */
async function confirmJob(job, { layout, column, encoded, maxRows, rowsTaken }) {
  const { group, wanted } = job
  const matcher = new CandidateMatcher(encoded.physicalType, encoded.candidates, encoded.owners, wanted)
  const rows = group.results.map(() => /** @type {number[]} */ ([]))
  const truncated = new Uint8Array(group.results.length)
  /** @type {OnHit} */
  const onHit = (g, row) => {
    const fileRow = job.firstRow + row
    for (const owner of matcher.groups[g]) {
      const list = rows[owner]
      if (list.length && list[list.length - 1] === fileRow) continue
      if (rowsTaken[owner] < maxRows) {
        list.push(fileRow)
        rowsTaken[owner]++
      } else {
        truncated[owner] = 1
      }
    }
  }
  try {
    const { codec } = chunk(layout, group.index, column.index)
    const decoding = await columnDecoder(layout, column, codec)
    if (job.crypto) await decryptReads(job, job.crypto)
    if (job.pageIndex) await scanIndexedPages(job, job.pageIndex, decoding, matcher, onHit)
    else await scanChunk(job, decoding, matcher, onHit)
  } catch (error) {
    if (error instanceof ParquetBloomError) throw error
    const detail = error instanceof PageDecodeError || error instanceof Error ? error.message : String(error)
    return { reason: 'confirm-failed', detail: `the data pages could not be read: ${detail}` }
  }
  group.results.forEach((r, v) => {
    if (!wanted[v] || matcher.undecidable[v]) return
    const found = rows[v].length > 0 || truncated[v] === 1
    /** @type {ValueResult} */
    const result = found
      ? {
        value: r.value, verdict: 'present', source: Source.DATA_PAGES, reason: 'in-data-pages',
        detail: 'the chunk\'s data pages hold it', rows: rows[v],
      }
      : {
        value: r.value, verdict: 'absent', source: Source.DATA_PAGES, reason: 'not-in-data-pages',
        detail: 'no data page that may hold it does (pages read and compared)', rows: [],
      }
    if (truncated[v]) result.rowsTruncated = true
    if (r.pages) result.pages = r.pages
    group.results[v] = result
  })
  return undefined
}

/**
 * An encrypted chunk's reads, replaced by their plaintext pages. Every module of every read is decrypted
 * at once: their places follow from the modules' length prefixes. Page ordinals count data pages only:
 * an OffsetIndex page p is ordinal p; a whole chunk's pages count from 0 after its dictionary page.
 * @param {ConfirmJob} job
 * @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto the job's
 */
async function decryptReads(job, crypto) {
  await Promise.all(job.reads.map(async (read) => {
    if (!read.bytes) return
    const dictionaryFirst = read.role === 'dictionary' || (read.role === 'chunk' && job.dictionaryFirst)
    const firstOrdinal = typeof read.role === 'number' ? read.role : 0
    /** @type {(k: number) => number | 'dictionary'} */
    const ordinalOf = (k) => (dictionaryFirst ? (k === 0 ? 'dictionary' : k - 1) : firstOrdinal + k)
    /** @param {number} k */
    const nameOf = (k) => {
      const ordinal = ordinalOf(k)
      return `${job.where}: ${ordinal === 'dictionary' ? 'dictionary page' : `data page ${ordinal}`}`
    }
    const modules = splitPageModules(read.bytes, nameOf)
    if (read.role !== 'chunk' && modules.length !== 1) {
      const what = read.role === 'dictionary' ? 'the bytes before the first data page' : `the OffsetIndex's page ${read.role}`
      throw new PageDecodeError(`${what} hold ${modules.length} encrypted pages, not 1`)
    }
    read.bytes = concatBytes(await Promise.all(modules.map((m, k) => decryptPage(crypto, m, ordinalOf(k), nameOf(k)))))
  }))
}

/**
 * Hits of one decoded data page: its values, or its dictionary indexes looked up.
 * @param {Extract<import('../pages/page-decode.js').DecodedPage, { kind: 'data' }>} page
 * @param {CandidateMatcher} matcher
 * @param {Int32Array | undefined} dictionaryGroups
 * @param {ColumnDecoding} decoding
 */
function pageHits(page, matcher, dictionaryGroups, decoding) {
  if (page.plainBinary) return matcher.scanPlainBinary(page.plainBinary, decoding.hyparquet.plainBinary)
  // Only a PLAIN binary page comes without values (decodePageAt).
  const { values } = page
  if (values === undefined) throw new PageDecodeError('a data page without values')
  if (!page.dictionaryIndexes) return matcher.scan(values)
  if (!dictionaryGroups) throw new PageDecodeError('a dictionary-encoded page, but the chunk has no dictionary page')
  return hitsThroughDictionary(values, dictionaryGroups)
}

/**
 * With an OffsetIndex: each candidate page alone, its first row from first_row_index, its row count checked.
 * @param {ConfirmJob} job
 * @param {import('../indexes/page-index.js').PreparedPageIndex} index the job's page index
 * @param {ColumnDecoding} decoding
 * @param {CandidateMatcher} matcher
 * @param {OnHit} onHit
 */
async function scanIndexedPages(job, index, decoding, matcher, onHit) {
  const { group } = job
  let dictionaryGroups
  for (const read of job.reads) {
    const { bytes } = read
    if (!bytes) throw new PageDecodeError('a page was not read')
    if (read.role === 'dictionary') {
      // Whatever precedes the first data page: the dictionary page (index pages may sit there too).
      for (let at = 0; at < bytes.length;) {
        const { page, next } = await decodePageAt(bytes, at, bytes.length, decoding)
        if (page.kind === 'dictionary') dictionaryGroups = matcher.scan(page.values)
        else if (page.kind === 'data') throw new PageDecodeError('a data page before the OffsetIndex\'s first page')
        at = next
      }
      continue
    }
    const p = /** @type {number} */ (read.role)
    const { page, next } = await decodePageAt(bytes, 0, bytes.length, decoding)
    if (page.kind !== 'data') throw new PageDecodeError(`the OffsetIndex's page ${p} is not a data page`)
    if (next !== bytes.length) throw new PageDecodeError(`page ${p} takes ${next} bytes, its OffsetIndex entry says ${bytes.length}`)
    const first = index.firstRowIndexes[p]
    const expected = (p + 1 < index.pageCount ? index.firstRowIndexes[p + 1] : group.numRows) - first
    const walked = walkLevels(page, decoding.maxDefinitionLevel, pageHits(page, matcher, dictionaryGroups, decoding), first, onHit)
    if (!walked.startsRow || walked.rowsStarted !== expected) {
      throw new PageDecodeError(`page ${p} holds ${walked.rowsStarted} rows${walked.startsRow ? '' : ' (not starting at a row)'}, ` +
        `its OffsetIndex says ${expected}`)
    }
  }
}

/**
 * Without an OffsetIndex: every page of the chunk in order; the rows they hold must add up to the row group's.
 * @param {ConfirmJob} job
 * @param {ColumnDecoding} decoding
 * @param {CandidateMatcher} matcher
 * @param {OnHit} onHit
 */
async function scanChunk(job, decoding, matcher, onHit) {
  const { bytes } = job.reads[0]
  if (!bytes) throw new PageDecodeError('the column chunk was not read')
  let dictionaryGroups
  let nextRow = 0
  for (let at = 0; at < bytes.length;) {
    const { page, next } = await decodePageAt(bytes, at, bytes.length, decoding)
    if (page.kind === 'dictionary') {
      if (dictionaryGroups) throw new PageDecodeError('a second dictionary page in the chunk')
      dictionaryGroups = matcher.scan(page.values)
    } else if (page.kind === 'data') {
      if (nextRow === 0 && page.repetitionLevels.length && page.numLevels && page.repetitionLevels[0] !== 0) {
        throw new PageDecodeError('the chunk\'s first page does not start a row')
      }
      nextRow += walkLevels(page, decoding.maxDefinitionLevel, pageHits(page, matcher, dictionaryGroups, decoding), nextRow, onHit)
        .rowsStarted
    }
    at = next
  }
  if (nextRow !== job.group.numRows) throw new PageDecodeError(`the chunk's pages hold ${nextRow} rows, the row group ${job.group.numRows}`)
}

/**
 * Values the pages could not decide keep the index's verdict; the reason says why they were not confirmed.
 * @param {ConfirmJob} job
 * @param {ConfirmFailure} failure
 */
function keepWithReason(job, { reason, detail }) {
  job.group.results.forEach((r, v) => {
    if (!job.wanted[v]) return
    job.group.results[v] = { ...r, reason, detail: `${detail}; ${r.reason}: ${r.detail}` }
  })
}
