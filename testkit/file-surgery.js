// A sample Parquet file taken apart and put back together, for the hostile-file tests and the mutation
// fuzzer: its data and its decoded footer (Thrift structs, ./thrift-writer.js), rebuilt with edits; and
// the truth about it — which values each row group holds, and what an independent SBBF
// (./reference-sbbf.js) says about the rest.
import { concatBytes } from '../js/format/bytes.js'

import { referenceFilter, rng } from './reference-sbbf.js'
import { cloneStruct, decodeStruct, encodeStruct, getField, removeField, struct } from './thrift-writer.js'

const utf8 = new TextDecoder()
export const MAGIC = [0x50, 0x41, 0x52, 0x31] // 'PAR1'
export const MiB = 1024 * 1024

/** The column the filter cases break, the row group they break it in, and what the probe uses. */
export const TARGET = Object.freeze({ column: 'i32', rowGroup: 1 })

// Physical types of the sample's columns whose values the reference SBBF hashes exactly as written.
const REFERENCE_TYPES = { i32: 'INT32', i64: 'INT64', str: 'BYTE_ARRAY', bin: 'BYTE_ARRAY', fl: 'FIXED_LEN_BYTE_ARRAY', bool: 'BOOLEAN' }

// Reading and rebuilding files

/**
 * Where everything is in a (flat-schema) Parquet file: the decoded footer, leaf names, and each
 * column chunk's bloom filter with its decoded header length and numBytes.
 */
export function parseParquet(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const metadataLength = view.getUint32(bytes.length - 8, true)
  const metadataOffset = bytes.length - 8 - metadataLength
  const meta = decodeStruct(bytes.subarray(metadataOffset, bytes.length - 8)).struct
  const leaves = getField(meta, 2).value.items.slice(1).map((e) => utf8.decode(getField(e, 4).value))
  const rowGroups = getField(meta, 4).value.items
  const filters = []
  rowGroups.forEach((rg, g) => {
    getField(rg, 1).value.items.forEach((chunk, c) => {
      const md = getField(chunk, 3).value
      const offset = getField(md, 14)
      if (!offset) return
      const o = Number(offset.value)
      const { struct: header, length: headerLength } = decodeStruct(bytes.subarray(o))
      filters.push({ rowGroup: g, column: leaves[c], columnIndex: c, offset: o, length: getField(md, 15)?.value, headerLength, numBytes: getField(header, 1).value })
    })
  })
  const filter = (g, column) => filters.find((f) => f.rowGroup === g && f.column === column)
  return { bytes, metadataOffset, metadataLength, meta, leaves, rowGroupCount: rowGroups.length, filters, filter }
}

/** The ColumnMetaData struct of chunk (g, column) in a decoded footer. */
export function columnMetaData(meta, g, columnIndex) {
  return getField(getField(getField(meta, 4).value.items[g], 1).value.items[columnIndex], 3).value
}

export function columnChunk(meta, g, columnIndex) {
  return getField(getField(meta, 4).value.items[g], 1).value.items[columnIndex]
}

export const concat = (...parts) => concatBytes(parts)

/** data + metadata + its length + PAR1 (length and magic overridable to break them). */
export function assemble(data, metadata, { length = metadata.length, magic = MAGIC } = {}) {
  const tail = new Uint8Array(8)
  new DataView(tail.buffer).setUint32(0, length >>> 0, true)
  tail.set(magic, 4)
  return concat(data, metadata, tail)
}

/**
 * A copy of the base file with an edited footer and, optionally, blobs appended to the data region
 * (right before the footer). edit(meta, blobOffsets) changes the cloned footer in place.
 */
export function rebuild(base, edit, blobs = []) {
  const meta = cloneStruct(base.meta)
  const offsets = []
  let at = base.metadataOffset
  for (const b of blobs) {
    offsets.push(at)
    at += b.length
  }
  edit?.(meta, offsets)
  return assemble(concat(base.bytes.subarray(0, base.metadataOffset), ...blobs), encodeStruct(meta))
}

/** A base whose footer records no bloom_filter_length anywhere (as older writers did). */
export function withoutBloomLengths(base) {
  return rebuild(base, (meta) => {
    for (let g = 0; g < base.rowGroupCount; g++) {
      base.leaves.forEach((_, c) => removeField(columnMetaData(meta, g, c), 15))
    }
  })
}

// ---------------------------------------------------------------------------------------------------
// Truth: which values are in which row group, and what an independent SBBF says about the rest

/**
 * Present values per column per row group (from the sample writer's own record of what it wrote),
 * values in no row group at all, and reference verdicts from hyparquet's SBBF over the file's bitsets.
 */
export function buildTruth(sample, types = REFERENCE_TYPES) {
  const columns = {}
  for (const [name, type] of Object.entries(types)) {
    const rowGroups = sample.columns[name].rowGroups.map((entries) => entries.filter((e) => e.expect === undefined).map((e) => e.forms[0]))
    const keyOf = (v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'bigint' ? `${v}n` : `${typeof v}:${v}`)
    const everywhere = new Set(rowGroups.flat().map(keyOf))
    const absent = absentCandidates(name, type).filter((v) => !everywhere.has(keyOf(v)))
    columns[name] = { type, rowGroups, absent, keyOf, sets: rowGroups.map((vs) => new Set(vs.map(keyOf))) }
  }
  return { columns }
}

/** Values near the sample's own (so they look plausible) that the caller then checks are in no row group. */
function absentCandidates(name, type) {
  const k = Array.from({ length: 24 }, (_, i) => i)
  switch (name) {
    case 'i32': return k.map((i) => i * 7919 - 10000000 + 1 + i)
    case 'i64': return k.map((i) => BigInt(i) * 3037000493n * 1000n - 9000000000000000000n + 7n)
    case 'str': return k.map((i) => `absent-${i}`)
    case 'bin': return k.map((i) => new Uint8Array([i, 0x77, 0xfe]))
    case 'fl': return k.map((i) => new Uint8Array([i, 0x77, 3, 4]))
  }
  switch (type) {
    case 'INT32': return k.map((i) => i * 1000003 + 17)
    case 'INT64': return k.map((i) => BigInt(i) * 1000000007n + 17n)
    case 'BYTE_ARRAY': return k.map((i) => `absent-${i}`)
    default: return []
  }
}

/**
 * A sample of present values for each row group plus a few absent ones: what a test probes.
 * @returns {unknown[]}
 */
export function probeValues(truth, column, random = rng(1), perGroup = 6) {
  const c = truth.columns[column]
  const pick = (list, n) => {
    const out = []
    for (let i = 0; i < n && list.length; i++) out.push(list[Math.floor(random() * list.length)])
    return out
  }
  return [...c.rowGroups.flatMap((vs) => pick(vs, perGroup)), ...pick(c.absent, perGroup)]
}

/**
 * What an exact reader says for `values` in row group g over `bitset`: what hyparquet's SBBF answers.
 * For a bitset as the writer wrote it, values the row group holds (the writer's record) must be
 * 'maybe' there too; a harness whose two truths disagree fails here rather than excuse a verdict.
 * Pass { written: false } for a bitset the fuzzer changed, where present values may read 'absent'.
 */
export function expectedVerdicts(truth, column, g, values, bitset, { written = true } = {}) {
  const c = truth.columns[column]
  const ref = referenceFilter(bitset.length, c.type)
  ref.words.set(new Uint32Array(bitset.buffer.slice(bitset.byteOffset, bitset.byteOffset + bitset.length)))
  return values.map((v) => {
    const verdict = ref.contains(v) ? 'maybe' : 'absent'
    if (written && verdict === 'absent' && c.sets[g].has(c.keyOf(v))) throw new Error(`the reference SBBF says ${v} is absent from row group ${g} of ${column}, which holds it`)
    return verdict
  })
}

export function bitsetOf(bytes, filter) {
  const start = filter.offset + filter.headerLength
  return bytes.subarray(start, start + filter.numBytes)
}
