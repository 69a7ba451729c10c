// Probing one column of one file: per row group, read only what answers the question — the whole
// filter, or just its header and the 32-byte blocks the values map to — verify the header before
// trusting any byte of the bitset, and answer absent / maybe / unknown. Never a false negative.
import { getCore } from '../wasm/core.js'
import { hashValues } from '../wasm/batch-writer.js'
import { decodeHeaderBytes, headerError, MAX_HEADER_BYTES } from './bloom-header.js'
import { layoutFromLength } from './bloom-layout.js'
import { nextBoundary, overlappingPages } from '../footer/file-geometry.js'
import { ensureColumnIndexes } from '../footer/chunk-indexes.js'
import { chunk, IndexFlag } from '../footer/records.js'
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { NativeStatus } from '../wasm/abi.js'
import { chunkUnavailable } from './index-coverage.js'
import { Unanswerable } from '../verdicts.js'
import { NO_FILTER_OFFSET_RULE } from './writer-rules.js'
import { loadedCrypto } from '../crypto/load-crypto.js'
import { BYTES_PER_BLOCK, isValidNumBytes, MAX_NUM_BYTES } from '../wasm/sbbf.js'

const HEADER_GUESS_BYTES = 64 // standard headers are 15–19 bytes; this leaves room for a few unknown fields
const HEADER_RETRY_BYTES = 4096
// What one more request and one more sequential round are worth in bytes, when no link model says
// otherwise (js/plan/link-model.js derives them from the measured RTT, bandwidth and window).
const DEFAULT_COSTS = Object.freeze({ requestBytes: 4096, roundBytes: 4096 })
// A filter's header and its blocks are read as one range when the bytes between cost less than a
// request, but never across more than this: block reads are for reading little.
const MAX_JOIN_GAP_BYTES = 16 * 1024

export const MODES = ['auto', 'filter', 'block']
const EMPTY_BLOCK = new Uint8Array(BYTES_PER_BLOCK)

/**
 * @typedef {ReturnType<typeof decodeHeaderBytes>} DecodedHeader
 * @typedef {{ headerLength: number, numBytes: number }} FilterLayout a filter's parts: guessed (layoutFromLength) or read
 * @typedef {{ start: number, end: number }} ByteRange
 * @typedef {(start: number, end: number) => Uint8Array | undefined} Lookup the bytes [start, end) when they have been read
 * @typedef {(start: number, end: number) => boolean} IsHeld whether the bytes [start, end) have been read
 * @typedef {{ offset: number, length: number | undefined, bound: number }} FilterLocation locateFilter's answer
 */

/**
 * Where one chunk's filter is, or why there is none to read. Any disagreement between the footer's
 * description of the filter and the file's other structures makes it unusable ('inconsistent-filter').
 * @param {import('../footer/file-geometry.js').FileGeometry} geometry what the footer says about the file's layout
 * @returns {{ offset: number, length: number | undefined, bound: number,
 *   crypto?: import('../crypto/encrypted-footer.js').ChunkCrypto } | Unanswerable}
 * @param {number} rowGroup
 * @param {number} column
 * @param {{ decrypt?: boolean }} [options]
 * @param {import('../footer/records.js').ChunkView} [record] the chunk's, when the caller has it
 */
export function locateFilter(geometry, rowGroup, column, { decrypt = false } = {}, record = chunk(geometry.layout, rowGroup, column)) {
  const { layout, metadataOffset } = geometry
  ensureColumnIndexes(layout, column)
  const flags = record.flags
  // Only callers that decrypt (probe plans) get the location of an encrypted filter, with its key.
  const crypto = decrypt ? record.crypto : undefined
  const unavailable = chunkUnavailable(flags, crypto)
  if (unavailable) return unavailable
  if (record.indexFlags & IndexFlag.FOREIGN_BLOOM_FIELD) {
    return inconsistent('bloom_filter_offset or bloom_filter_length is not the integer parquet.thrift defines (a writer\'s own field?)',
      'foreign-field')
  }
  const offset = record.bloomOffset
  // -1 is also what the decoder records for an absent field; 0 and other negatives mean none too.
  if (offset === -1 || NO_FILTER_OFFSET_RULE.applies(offset)) return NO_FILTER
  const recorded = record.bloomLength
  // A filter lives in the data region: after the leading magic, before the footer.
  if (offset < 4 || offset >= metadataOffset) {
    return inconsistent(`bloom_filter_offset ${offset} is outside the data region [4, ${metadataOffset})`,
      offset >= metadataOffset ? 'overlaps-footer' : 'outside-file')
  }
  const length = recorded >= 0 ? recorded : undefined
  if (recorded < -1 || recorded === 0) return inconsistent(`bloom_filter_length ${recorded} cannot hold a filter`, 'length-mismatch')
  if (length !== undefined && offset + length > metadataOffset) {
    return inconsistent(`bloom filter [${offset}, ${offset + length}) overlaps the footer at ${metadataOffset}`, 'overlaps-footer')
  }
  const bound = length !== undefined ? offset + length : Math.min(nextBoundary(geometry.boundaries(), offset), metadataOffset)
  const overlap = overlappingPages(geometry.pageRanges(), offset, length !== undefined ? offset + length : offset + 1)
  if (overlap) {
    return inconsistent(`bloom filter at ${offset} lies inside a column chunk's pages [${overlap[0]}, ${overlap[1]})`, 'inside-pages')
  }
  return { offset, length, bound, crypto }
}

/** Why a chunk without a filter has none to read: one answer for them all (Unanswerables are read, never changed). */
const NO_FILTER = Object.freeze(
  new Unanswerable('no-index', 'this row group has no bloom filter for the column', ErrorCode.NO_BLOOM_FILTER))

/**
 * A filter the footer describes in a way that cannot be right.
 * @param {string} why
 * @param {string} problem an inspect warning code
 */
function inconsistent(why, problem) {
  return new Unanswerable('inconsistent-filter', why, ErrorCode.MALFORMED_FILTER, problem)
}

/**
 * Reads one row group's filter step by step. Subclasses decide what to do once the header is known.
 * The header is always decoded from bytes actually read at the filter's offset before any bitset
 * byte is used; layouts guessed from bloom_filter_length only decide what to request early.
 */
class FilterTask {
  /** What its reads are for, in a read plan (js/sources/io-ledger.js). */
  purpose = 'bloom'

  /**
   * @param {FilterLocation} location
   * @param {string} where
   * @param {{ requestBytes: number, roundBytes: number }} [costs]
   */
  constructor(location, where, costs = DEFAULT_COSTS) {
    this.costs = costs
    this.offset = location.offset
    this.length = location.length
    this.bound = location.bound
    this.where = where
    this.guess = location.length !== undefined ? layoutFromLength(location.length) : null
    /** @type {DecodedHeader | undefined} */
    this.header = undefined
    this.headerBytesTried = 0
  }

  /**
   * @param {Lookup} lookup
   * @returns {ByteRange[] | null}
   */
  step(lookup) {
    if (!this.header) {
      const header = this.readHeader(lookup)
      if (header === undefined) return this.initialNeeds()
      if (header === null) return this.header ? this.afterHeader(lookup, this.header) : null // refused (answered), or kept for its bits
      this.header = header
    }
    return this.afterHeader(lookup, this.header)
  }

  /**
   * Decoded header, undefined when its bytes are not here yet, null when refused (and answered).
   * @param {Lookup} lookup
   * @returns {DecodedHeader | null | undefined}
   */
  readHeader(lookup) {
    const want = this.headerBytesTried || (this.guess ? this.guess.headerLength : HEADER_GUESS_BYTES)
    const end = Math.min(this.offset + want, this.bound)
    const bytes = lookup(this.offset, end)
    if (!bytes) return undefined
    const header = decodeHeaderBytes(bytes)
    if (header.status === NativeStatus.MALFORMED && header.problem === 'truncated' && end < this.bound && want < MAX_HEADER_BYTES) {
      // Unknown fields can make a valid header long: read more, up to what the decoder accepts.
      this.headerBytesTried = want < HEADER_RETRY_BYTES ? HEADER_RETRY_BYTES : MAX_HEADER_BYTES
      return undefined
    }
    if (header.status === NativeStatus.MALFORMED && header.problem === 'truncated' && end < this.bound) {
      this.refuse(new ParquetBloomError(ErrorCode.TOO_LARGE,
        `${this.where}: bloom filter at offset ${this.offset}: the header is longer than ${MAX_HEADER_BYTES} bytes`,
        { offset: this.offset, field: 'BloomFilterHeader' }), header)
      return null
    }
    if (header.status !== NativeStatus.OK) {
      this.refuse(headerError(header, `${this.where}: bloom filter at offset ${this.offset}`), header)
      return null
    }
    const described = header.headerLength + header.numBytes
    // The footer's length and the header must describe the same bytes: a header that does not end
    // where the described bitset begins, or a bitset of another size, is not this filter.
    if (this.length !== undefined ? described !== this.length : this.offset + described > this.bound) {
      const why = this.length !== undefined
        ? `bloom_filter_length ${this.length} ≠ header ${header.headerLength} + numBytes ${header.numBytes} (= ${described})`
        : `the filter (${header.headerLength} + ${header.numBytes} bytes) runs into the next structure at ${this.bound}`
      this.refuse(new ParquetBloomError(ErrorCode.MALFORMED_FILTER,
        `${this.where}: inconsistent bloom filter at offset ${this.offset}: ${why}`,
        { offset: this.offset, reason: 'inconsistent-filter', problem: this.length !== undefined ? 'length-mismatch' : undefined }), header)
      return null
    }
    return header
  }

  initialNeeds() {
    if (this.headerBytesTried) return [{ start: this.offset, end: Math.min(this.offset + this.headerBytesTried, this.bound) }]
    if (this.guess) return this.needsWithLayout(this.guess)
    // Unknown length: reading up to the next structure takes one round; reading the header first takes
    // two. The whole range wins while its extra bytes cost less than the round they save.
    if (this.bound - this.offset <= this.costs.roundBytes) return [{ start: this.offset, end: this.bound }]
    return [{ start: this.offset, end: Math.min(this.offset + HEADER_GUESS_BYTES, this.bound) }]
  }

  /** @param {FilterLayout} header */
  bitsetRange(header) {
    const start = this.offset + header.headerLength
    return { start, end: start + header.numBytes }
  }

  // What each subclass decides (declared here so that the steps above are typed).

  /**
   * The first ranges to request when the filter's layout is guessed from bloom_filter_length.
   * @param {FilterLayout} _layout
   * @returns {Array<{ start: number, end: number }>}
   */
  needsWithLayout(_layout) {
    throw new Error('not implemented')
  }

  /**
   * Once the header is known: the ranges still needed, or null when the task has finished.
   * @param {Lookup} _lookup
   * @param {DecodedHeader} _header
   * @returns {Array<{ start: number, end: number }> | null}
   */
  afterHeader(_lookup, _header) {
    throw new Error('not implemented')
  }

  /**
   * A header that cannot be used: answers (or, for WholeFilterTask, may keep reading its bits).
   * @param {ParquetBloomError} _error
   * @param {DecodedHeader} [_header]
   */
  refuse(_error, _header) {
    throw new Error('not implemented')
  }
}

/**
 * Reads the whole bitset and hands it to `onBitset(header, bitsetBytes)`. A refused filter goes to
 * `onRefused(error, header, bitset)`; with `keepRefusedBits` its bitset is still read when the header
 * gives a usable size inside the filter's bounds (inspection reports how such filters are filled).
 */
export class WholeFilterTask extends FilterTask {
  /**
   * @param {FilterLocation} location
   * @param {string} where
   * @param {(header: DecodedHeader, bitset: Uint8Array) => void} onBitset
   * @param {(error: ParquetBloomError, header?: DecodedHeader, bitset?: Uint8Array) => void} onRefused
   * @param {{ keepRefusedBits?: boolean }} [options]
   */
  constructor(location, where, onBitset, onRefused, { keepRefusedBits = false } = {}) {
    super(location, where)
    this.onBitset = onBitset
    this.onRefused = onRefused
    this.keepRefusedBits = keepRefusedBits
    /** @type {ParquetBloomError | undefined} */
    this.refusal = undefined
  }

  /** @param {FilterLayout} layout */
  needsWithLayout(layout) {
    return [{ start: this.offset, end: this.offset + layout.headerLength + layout.numBytes }]
  }

  /**
   * @param {Lookup} lookup
   * @param {DecodedHeader} header
   */
  afterHeader(lookup, header) {
    const { start, end } = this.bitsetRange(header)
    const bitset = lookup(start, end)
    if (!bitset) return [{ start, end }]
    if (this.refusal) this.onRefused(this.refusal, header, bitset)
    else this.onBitset(header, bitset)
    return null
  }

  /**
   * @param {ParquetBloomError} error
   * @param {DecodedHeader} [header]
   */
  refuse(error, header) {
    // Only a header decoded to its end (refused for what it names, not for how it is encoded) says
    // truly where its bitset lies.
    const describesBits = header &&
      (header.status === NativeStatus.UNSUPPORTED || (header.status === NativeStatus.OK && error.reason === 'inconsistent-filter'))
    const usable = describesBits && isValidNumBytes(header.numBytes) &&
      header.headerLength > 0 && this.offset + header.headerLength + header.numBytes <= this.bound
    if (this.keepRefusedBits && usable) {
      this.refusal = error
      this.header = header // step() goes on to read the bits
      return
    }
    this.onRefused(error, header)
  }

  /** @param {string} reason */
  giveUp(reason) {
    this.onRefused(new ParquetBloomError(ErrorCode.MALFORMED_FILTER, `${this.where}: bloom filter at offset ${this.offset}: ${reason}`,
      { offset: this.offset }))
  }
}

/**
 * Answers the probe's candidate hashes for one row group, in 'filter', 'block' or 'auto' mode.
 * `answer(candidateHits)` receives a Uint8Array (1 = maybe) per candidate; `refuse(reason, detail)`
 * says why the filter cannot answer.
 */
export class ProbeTask extends FilterTask {
  /**
   * @param {FilterLocation} location
   * @param {string} where
   * @param {HashedCandidates} probe
   * @param {string} mode one of MODES
   * @param {(candidateHits: Uint8Array) => void} answer
   * @param {(reason: import('../verdicts.js').ReasonCode, detail: string) => void} refuse
   * @param {Uint8Array} [needed] 1 per candidate still to answer (others were decided by cheaper indexes)
   */
  constructor(location, where, probe, mode, answer, refuse, needed) {
    super(location, where, probe.costs)
    this.probe = probe
    this.mode = mode
    this.answer = answer
    this.refuseWith = refuse
    this.needed = needed && needed.includes(0) ? needed : null
  }

  /**
   * Distinct blocks of the candidates still needed.
   * @param {number} numBlocks
   * @returns {number[]}
   */
  neededBlocks(numBlocks) {
    const indices = this.probe.blockIndices(numBlocks)
    if (!this.needed) return [...new Set(indices)]
    /** @type {Set<number>} */
    const blocks = new Set()
    for (let k = 0; k < indices.length; k++) if (this.needed[k]) blocks.add(indices[k])
    return [...blocks]
  }

  /** @param {ParquetBloomError} error */
  refuse(error) {
    this.refuseWith(error.reason ?? (error.code === ErrorCode.UNSUPPORTED_FILTER ? 'unsupported-filter' : 'malformed-filter'),
      error.message)
  }

  /** @param {string} reason */
  giveUp(reason) {
    this.refuseWith('malformed-filter', reason)
  }

  /** @param {FilterLayout} layout */
  needsWithLayout(layout) {
    const header = { start: this.offset, end: this.offset + layout.headerLength }
    const useBlocks = this.chooseBlocks(layout, () => false)
    return useBlocks
      ? joinNear([header, ...this.blockRanges(layout)], Math.min(this.costs.requestBytes, MAX_JOIN_GAP_BYTES))
      : [{ start: this.offset, end: this.offset + layout.headerLength + layout.numBytes }]
  }

  /**
   * @param {Lookup} lookup
   * @param {DecodedHeader} header
   */
  afterHeader(lookup, header) {
    const bitsetRange = this.bitsetRange(header)
    const whole = lookup(bitsetRange.start, bitsetRange.end)
    if (whole) { // already held (e.g. in the tail read): free in any mode
      this.answer(this.probe.checkBitset(whole))
      return null
    }
    if (!this.chooseBlocks(header, (start, end) => lookup(start, end) !== undefined)) {
      return [bitsetRange]
    }
    const blocks = this.probe.blockIndices(header.numBytes / BYTES_PER_BLOCK)
    const base = bitsetRange.start
    /** @type {number[]} */
    const missing = []
    /** @type {Uint8Array[]} */
    const gathered = []
    for (const b of this.neededBlocks(header.numBytes / BYTES_PER_BLOCK)) {
      if (!lookup(base + b * BYTES_PER_BLOCK, base + (b + 1) * BYTES_PER_BLOCK)) missing.push(b)
    }
    if (missing.length) return mergeBlockRanges(missing, base, Math.min(this.costs.requestBytes, MAX_JOIN_GAP_BYTES))
    // Candidates already decided elsewhere are checked against an empty block; their answer is unused.
    for (let k = 0; k < blocks.length; k++) {
      gathered.push(this.needed && !this.needed[k]
        ? EMPTY_BLOCK
        // held: no needed block is missing
        : /** @type {Uint8Array} */ (lookup(base + blocks[k] * BYTES_PER_BLOCK, base + (blocks[k] + 1) * BYTES_PER_BLOCK)))
    }
    this.answer(this.probe.checkBlocks(gathered))
    return null
  }

  /**
   * Requests this read takes in its first wave with each part its own range (`split`: the header, and
   * the blocks apart from it) and with header and blocks as one range (`joined`), from the layout
   * bloom_filter_length implies: what the link model weighs to price a request (js/plan/link-model.js).
   * @param {IsHeld} isHeld
   */
  plannedRequests(isHeld) {
    const layout = this.guess
    if (!layout) return { split: 1, joined: 1 }
    const base = this.offset + layout.headerLength
    if (isHeld(this.offset, base + layout.numBytes)) return { split: 0, joined: 0 }
    if (this.mode === 'filter') return { split: 1, joined: 1 }
    const blocks = this.neededBlocks(layout.numBytes / BYTES_PER_BLOCK)
      .filter((b) => !isHeld(base + b * BYTES_PER_BLOCK, base + (b + 1) * BYTES_PER_BLOCK))
    const ranges = mergeBlockRanges(blocks, base, this.probe.coalesceGap)
    if (this.mode === 'auto' && ranges.reduce((n, r) => n + r.end - r.start, 0) >= layout.numBytes) return { split: 1, joined: 1 }
    const header = isHeld(this.offset, base) ? [] : [{ start: this.offset, end: base }]
    return { split: joinNear([...header, ...ranges], this.probe.coalesceGap).length, joined: 1 }
  }

  /**
   * Block reads when the mode says so, or in auto mode when they cost less than the whole filter.
   * @param {FilterLayout} layout
   * @param {IsHeld} isHeld
   */
  chooseBlocks(layout, isHeld) {
    if (this.mode === 'block') return true
    if (this.mode === 'filter') return false
    const base = this.offset + layout.headerLength
    if (isHeld(base, base + layout.numBytes)) return false
    const blocks = this.neededBlocks(layout.numBytes / BYTES_PER_BLOCK)
      .filter((b) => !isHeld(base + b * BYTES_PER_BLOCK, base + (b + 1) * BYTES_PER_BLOCK))
    if (blocks.length === 0) return true
    // Header and blocks come in the same wave as a whole filter would: only bytes and requests differ.
    const ranges = mergeBlockRanges(blocks, base, this.probe.coalesceGap)
    const { requestBytes } = this.costs
    const blockCost = ranges.reduce((sum, r) => sum + r.end - r.start + requestBytes, 0)
    return blockCost < layout.numBytes + requestBytes
  }

  /** @param {FilterLayout} layout */
  blockRanges(layout) {
    return mergeBlockRanges(this.neededBlocks(layout.numBytes / BYTES_PER_BLOCK), this.offset + layout.headerLength)
  }
}

/**
 * Sorted ranges, each joined with the next when the bytes between them cost less than one more
 * request would (`gap`: what a request is worth in bytes, from the link model).
 * @param {ByteRange[]} ranges
 * @param {number} gap
 */
function joinNear(ranges, gap) {
  /** @type {ByteRange[]} */
  const out = []
  for (const r of ranges) {
    const last = out[out.length - 1]
    if (last && r.start - last.end <= gap) last.end = Math.max(last.end, r.end)
    else out.push({ start: r.start, end: r.end })
  }
  return out
}

/**
 * Sorted 32-byte block ranges, adjacent ones joined (and, with a gap, nearly adjacent ones).
 * @param {number[]} blocks
 * @param {number} base
 * @param {number} [gap]
 */
function mergeBlockRanges(blocks, base, gap = 0) {
  const sorted = [...blocks].sort((a, b) => a - b)
  /** @type {ByteRange[]} */
  const ranges = []
  for (const b of sorted) {
    const start = base + b * BYTES_PER_BLOCK
    const last = ranges[ranges.length - 1]
    if (last && start - last.end <= gap) last.end = start + BYTES_PER_BLOCK
    else ranges.push({ start, end: start + BYTES_PER_BLOCK })
  }
  return ranges
}

/**
 * The read of an encrypted chunk's filter: both modules whole (js/crypto/encrypted-filter.js), bounded as a
 * plaintext filter is. Only for a chunk with a crypto context (so js/crypto/ is loaded).
 * @param {{ offset: number, length: number | undefined, bound: number }} location @param {string} where
 * @param {ConstructorParameters<typeof import('../crypto/encrypted-filter.js').EncryptedFilterTask>[2]} onModules
 */
export function encryptedFilterTask(location, where, onModules) {
  return new (loadedCrypto().EncryptedFilterTask)(location, where, onModules,
    { maxHeaderBytes: MAX_HEADER_BYTES, maxFilterBytes: MAX_NUM_BYTES })
}

/**
 * Decrypts a filter encryptedFilterTask read and checks it like a plaintext one: the decoded header and
 * the bitset's plaintext, or an Unanswerable for an authenticated filter this reader cannot use. Throws
 * DECRYPTION_FAILED for anything that does not authenticate.
 * @param {import('../crypto/encrypted-footer.js').ChunkKeys} crypto
 * @param {Parameters<typeof import('../crypto/encrypted-filter.js').decryptFilter>[1]} modules what encryptedFilterTask read
 * @param {string} where
 * @returns {Promise<{ header: ReturnType<typeof decodeHeaderBytes>, bitset: Uint8Array } | Unanswerable>}
 */
export async function decryptedFilter(crypto, modules, where) {
  const { header: headerBytes, bitset } = await loadedCrypto().decryptFilter(crypto, modules, where)
  const header = decodeHeaderBytes(headerBytes)
  if (header.status !== NativeStatus.OK) {
    const error = headerError(header, `${where}: bloom filter`)
    return new Unanswerable(error.reason ?? (header.status === NativeStatus.UNSUPPORTED ? 'unsupported-filter' : 'malformed-filter'),
      error.message)
  }
  // Both modules authenticated, so they are the writer's: still, a header that does not describe this
  // bitset is not used. Bytes after the header's struct are ignored, as Thrift readers do (parquet-mr's
  // header modules carry padding: 100 bytes for a 16-byte header in the parquet-testing files).
  if (header.numBytes !== bitset.length) {
    return new Unanswerable('inconsistent-filter',
      `${where}: the decrypted bloom filter header says numBytes ${header.numBytes}, the bitset has ${bitset.length}`)
  }
  return { header, bitset }
}

/**
 * The hashed candidates of one probe call, kept in JS between row groups and copied into the batch region
 * for each check (a few bytes per value; the bitsets are the large part).
 */
export class HashedCandidates {
  /**
   * @param {ArrayLike<unknown>} candidates the probe's values in their physical type's form (js/values/)
   * @param {string | { type: string, typeLength?: number }} type a physical type (js/wasm/batch-writer.js resolveType)
   * @param {number} coalesceGap
   * @param {{ requestBytes: number, roundBytes: number }} [costs] what a request and a round are worth in bytes
   */
  constructor(candidates, type, coalesceGap, costs = DEFAULT_COSTS) {
    this.costs = costs
    const core = getCore()
    this.count = candidates.length
    this.coalesceGap = coalesceGap
    /** @type {Map<number, Uint32Array>} */
    this.indexCache = new Map()
    if (this.count === 0) {
      this.hashes = new Uint8Array(0)
      return
    }
    // Streamed through the fixed batch region, so a long candidate list needs no pool block of its size.
    this.hashes = hashValues(core, candidates, type)
  }

  /**
   * Block index of each candidate in a filter of numBlocks blocks (cached per size).
   * @param {number} numBlocks
   */
  blockIndices(numBlocks) {
    let indices = this.indexCache.get(numBlocks)
    if (!indices) {
      this.indexCache.set(numBlocks, indices = this.#slices(12, new Uint32Array(this.count), (core, at, n) => {
        core.native.blockIndices(at, n, numBlocks, at += n * 8)
        return core.u32.subarray(at >> 2, (at >> 2) + n)
      }))
    }
    return indices
  }

  /**
   * Checks every candidate against a whole bitset; the bitset's pool block is returned at once.
   * @param {Uint8Array} bitset
   */
  checkBitset(bitset) {
    const core = getCore()
    const filterPtr = core.acquire(bitset.length, 'a bloom filter bitset')
    try {
      core.u8.set(bitset, filterPtr)
      return this.#slices(9, new Uint8Array(this.count), (_, at, n) => {
        const status = core.native.checkHashes(filterPtr, bitset.length, at, n, at += n * 8)
        if (status !== NativeStatus.OK) {
          throw new ParquetBloomError(ErrorCode.MALFORMED_FILTER, `bitset of ${bitset.length} bytes refused (status ${status})`)
        }
        return core.u8.subarray(at, at + n)
      })
    } finally {
      core.release(filterPtr)
    }
  }

  /**
   * Checks candidate k against gathered[k], the 32-byte block its hash selects.
   * @param {Uint8Array[]} gathered
   */
  checkBlocks(gathered) {
    return this.#slices(8 + BYTES_PER_BLOCK + 1, new Uint8Array(this.count), (core, at, n, k) => {
      const blocksAt = at + n * 8
      for (let i = 0; i < n; i++) core.u8.set(gathered[k + i], blocksAt + i * BYTES_PER_BLOCK)
      core.native.checkGatheredBlocks(at, blocksAt, n, at = blocksAt + n * BYTES_PER_BLOCK)
      return core.u8.subarray(at, at + n)
    })
  }

  /**
   * `out`, filled a slice of candidates at a time: each slice's hashes are copied to the start of the module's fixed
   * batch region, `bytes` per candidate fitting it, and `call` returns its answers (at the region's `at`). So a probe
   * of any number of values grows no wasm memory (whole, 1M values took 9 to 41 MB of pool scratch for good).
   * @template {Uint8Array | Uint32Array} T
   * @param {number} bytes
   * @param {T} out
   * @param {(core: import('../wasm/core.js').Core, at: number, n: number, k: number) => ArrayLike<number>} call
   */
  #slices(bytes, out, call) {
    const core = getCore()
    const at = core.batchRegion
    const step = Math.floor(core.batchRegionBytes / bytes)
    for (let k = 0; k < this.count; k += step) {
      const n = Math.min(step, this.count - k)
      core.u8.set(this.hashes.subarray(k * 8, (k + n) * 8), at)
      out.set(call(core, at, n, k), k)
    }
    return out
  }
}
