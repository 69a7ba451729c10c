// The details of a format-2 sidecar index (docs/sidecar-index.md "Format 2: details pages"): what a probe
// reads only for the files still open after the bloom check, or to say why a file is not described —
// path, size, validator, row counts and each chunk's exact min/max — binary and columnar, a page of
// files at a time, each page checked against the CRC-32 the files blob's page table records.
import { notAnIndex } from './sidecar-directory.js'

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder('utf-8', { fatal: true })
const BOUND_NULL = 0
const BOUND_NUMBER = 1
const BOUND_TEXT = 2

/** Growable bytes with varints, doubles and strings. */
class ByteWriter {
  constructor() {
    this.bytes = new Uint8Array(1024)
    this.length = 0
  }

  /**
   * @param {number} n
   */
  #room(n) {
    if (this.length + n <= this.bytes.length) return
    let size = this.bytes.length * 2
    while (size < this.length + n) size *= 2
    const grown = new Uint8Array(size)
    grown.set(this.bytes.subarray(0, this.length))
    this.bytes = grown
  }

  /**
   * @param {number} b
   */
  byte(b) {
    this.#room(1)
    this.bytes[this.length++] = b
  }

  /**
   * A non-negative safe integer, 7 bits a byte.
   * @param {number} n
   */
  varint(n) {
    this.#room(8)
    while (n >= 128) {
      this.bytes[this.length++] = (n % 128) | 128
      n = Math.floor(n / 128)
    }
    this.bytes[this.length++] = n
  }

  /**
   * @param {number} x
   */
  double(x) {
    this.#room(8)
    new DataView(this.bytes.buffer).setFloat64(this.length, x, true)
    this.length += 8
  }

  /**
   * @param {string} s
   */
  text(s) {
    const b = utf8.encode(s)
    this.varint(b.length)
    this.#room(b.length)
    this.bytes.set(b, this.length)
    this.length += b.length
  }

  done() {
    return this.bytes.slice(0, this.length)
  }
}

class ByteReader {
  /**
   * @param {Uint8Array} bytes
   * @param {string} where
   */
  constructor(bytes, where) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.at = 0
    this.where = where
  }

  /**
   * @param {number} n
   */
  #need(n) {
    if (this.at + n > this.bytes.length) throw notAnIndex(this.where, 'a details page ends early')
  }

  byte() {
    this.#need(1)
    return this.bytes[this.at++]
  }

  varint() {
    let n = 0
    let scale = 1
    for (;;) {
      const b = this.byte()
      n += (b & 127) * scale
      if (b < 128) return n
      scale *= 128
      if (scale > 2 ** 56) throw notAnIndex(this.where, 'a details page holds a varint too long')
    }
  }

  double() {
    this.#need(8)
    const x = this.view.getFloat64(this.at, true)
    this.at += 8
    return x
  }

  text() {
    const n = this.varint()
    this.#need(n)
    const s = utf8Decoder.decode(this.bytes.subarray(this.at, this.at + n))
    this.at += n
    return s
  }
}

/**
 * @typedef {{ path: string, size: number, validator: string | null, numRows: number, rowRows: number[],
 *   bounds: Array<Array<[RecordedBound, RecordedBound]> | null> }} FileDetails
 * @typedef {import('./sidecar-directory.js').RecordedBound} RecordedBound
 *   rowRows: each row group's rows; bounds[column] (layout order): per row group [min, max] as
 *   js/sidecar/sidecar-directory.js encodeBound writes them, or null when the file lacks the column
 */

/**
 * One page: its files' paths, then sizes, validators, rows, row groups' rows, and per column the bounds.
 * @param {FileDetails[]} files
 * @param {number} columnCount
 */
export function encodeDetailsPage(files, columnCount) {
  const w = new ByteWriter()
  w.varint(files.length)
  for (const f of files) w.text(f.path)
  for (const f of files) w.varint(f.size)
  for (const f of files) {
    if (f.validator === null) w.byte(0)
    else {
      w.byte(1)
      w.text(f.validator)
    }
  }
  for (const f of files) w.varint(f.numRows)
  for (const f of files) {
    w.varint(f.rowRows.length)
    for (const n of f.rowRows) w.varint(n)
  }
  for (let c = 0; c < columnCount; c++) {
    for (const f of files) {
      const bounds = f.bounds[c]
      if (!bounds) {
        w.byte(0)
        continue
      }
      w.byte(1)
      for (const [min, max] of bounds) for (const b of [min, max]) writeBound(w, b)
    }
  }
  return w.done()
}

/**
 * @param {ByteWriter} w
 * @param {import('./sidecar-directory.js').RecordedBound | undefined} bound
 */
function writeBound(w, bound) {
  if (bound === null || bound === undefined) w.byte(BOUND_NULL)
  else if (typeof bound === 'number') {
    w.byte(BOUND_NUMBER)
    w.double(bound)
  } else {
    w.byte(BOUND_TEXT)
    w.text(String(bound))
  }
}

/**
 * A page back (its CRC checked by the caller).
 * @returns {FileDetails[]}
 * @param {Uint8Array} bytes
 * @param {number} columnCount
 * @param {string} where
 */
export function decodeDetailsPage(bytes, columnCount, where) {
  const r = new ByteReader(bytes, where)
  const n = r.varint()
  const files = Array.from({ length: n }, () => /** @type {FileDetails} */ ({
    path: r.text(), size: 0, validator: null, numRows: 0, rowRows: [], bounds: [],
  }))
  for (const f of files) f.size = r.varint()
  for (const f of files) f.validator = r.byte() ? r.text() : null
  for (const f of files) f.numRows = r.varint()
  for (const f of files) f.rowRows = Array.from({ length: r.varint() }, () => r.varint())
  for (let c = 0; c < columnCount; c++) {
    for (const f of files) {
      if (!r.byte()) {
        f.bounds[c] = null
        continue
      }
      f.bounds[c] = f.rowRows.map(() => [readBound(r), readBound(r)])
    }
  }
  if (r.at !== bytes.length) throw notAnIndex(where, 'a details page has bytes after its files')
  return files
}

/**
 * @param {ByteReader} r
 * @returns {import('./sidecar-directory.js').RecordedBound}
 */
function readBound(r) {
  const tag = r.byte()
  if (tag === BOUND_NULL) return null
  if (tag === BOUND_NUMBER) return r.double()
  if (tag === BOUND_TEXT) return r.text()
  throw notAnIndex(r.where, `a details page has a bound of unknown tag ${tag}`)
}
