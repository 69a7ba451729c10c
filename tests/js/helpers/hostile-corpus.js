// Hostile Parquet files made at test time from a sample file we write ourselves (never committed):
// broken magic, footer lengths, truncations, garbage and Thrift bombs in the footer, and every way a
// bloom filter's offset, length or header can be wrong. Each case says what it must end in. Also the
// seeded mutation fuzzer over the same files (bounded in `npm test`, long in `npm run fuzz:js`).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

import { concatBytes } from '../../../js/format/bytes.js'
import { getCore } from '../../../js/wasm/core.js'
import { ErrorCode, init, memoryStats, openParquet, ParquetBloomError } from '../../../js/index.js'

import { referenceFilter, rng } from './reference-sbbf.js'
import { writeDuckdbSample, writeHyparquetSample } from './sample-files.js'
import { ByteWriter, cloneStruct, decodeStruct, encodeStruct, getField, removeField, setField, struct, T, varintSpans } from './thrift-writer.js'

const utf8 = new TextDecoder()
const MAGIC = [0x50, 0x41, 0x52, 0x31] // 'PAR1'
const MiB = 1024 * 1024

/** The column the filter cases break, the row group they break it in, and what the probe uses. */
export const TARGET = Object.freeze({ column: 'i32', rowGroup: 1 })

// Physical types of the sample's columns whose values the reference SBBF hashes exactly as written.
const REFERENCE_TYPES = { i32: 'INT32', i64: 'INT64', str: 'BYTE_ARRAY', bin: 'BYTE_ARRAY', fl: 'FIXED_LEN_BYTE_ARRAY', bool: 'BOOLEAN' }

// ---------------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------------
// The corpus

/**
 * Writes the sample file and the hostile files made from it into `dir`.
 * Each case: { name, path, bytes, open?: openParquet options, expect } where expect is
 *  - { code, message? }                openParquet (or the probe) rejects with this ParquetBloomError code
 *  - { opens: true }                   openParquet succeeds (a footer with no row groups: nothing to probe)
 *  - { unknown: RegExp }               TARGET's row group answers 'unknown' for every value, reason matching;
 *                                      the others answer exactly
 *  - { answers: true }                 every row group answers exactly (the filter is odd but usable)
 */
export async function buildCorpus(dir) {
  await mkdir(path.join(dir, 'small'), { recursive: true })
  const sample = await writeHyparquetSample(dir)
  const base = parseParquet(new Uint8Array(await readFile(sample.path)))
  const small = await writeHyparquetSample(path.join(dir, 'small'), { rows: 60, rowGroupSize: 20 })
  const smallBytes = new Uint8Array(await readFile(small.path))
  const truth = buildTruth(sample)
  const cases = [...fileCases(base, smallBytes), ...footerCases(base), ...filterCases(base)]
  const seen = new Set()
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`duplicate case name ${c.name}`)
    seen.add(c.name)
    c.path = path.join(dir, `${c.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.parquet`)
    await writeFile(c.path, c.bytes)
  }
  return { sample, base, truth, cases }
}

/** Whole-file damage: size, magic, footer length, truncation, garbage metadata, limits. */
function fileCases(base, smallBytes) {
  const { bytes, metadataOffset, metadataLength } = base
  const size = bytes.length
  const metadata = bytes.subarray(metadataOffset, size - 8)
  const data = bytes.subarray(0, metadataOffset)
  const f = base.filter(TARGET.rowGroup, TARGET.column)
  const malformed = { code: 'MALFORMED_FOOTER' }
  const withLength = (length) => assemble(data, metadata, { length })
  const random = rng(0xbadf00d)
  const garbage = Uint8Array.from({ length: metadataLength }, () => Math.floor(random() * 256))
  const cases = [
    { name: 'empty file', bytes: new Uint8Array(0), expect: malformed },
    { name: 'one byte', bytes: Uint8Array.of(0x50), expect: malformed },
    { name: 'PAR1 only', bytes: Uint8Array.from(MAGIC), expect: malformed },
    { name: 'PAR1PAR1', bytes: Uint8Array.from([...MAGIC, ...MAGIC]), expect: malformed },
    { name: 'eleven bytes', bytes: Uint8Array.from([...MAGIC, 0, 0, 0, ...MAGIC]), expect: malformed },
    { name: 'twelve bytes, footer length 0', bytes: Uint8Array.from([...MAGIC, 0, 0, 0, 0, ...MAGIC]), expect: malformed },
    { name: 'tail magic PAR0', bytes: assemble(data, metadata, { magic: [0x50, 0x41, 0x52, 0x30] }), expect: malformed },
    { name: 'tail magic lower case', bytes: assemble(data, metadata, { magic: [0x70, 0x61, 0x72, 0x31] }), expect: malformed },
    { name: 'tail magic PARE (encrypted footer)', bytes: assemble(data, metadata, { magic: [0x50, 0x41, 0x52, 0x45] }), expect: { code: 'ENCRYPTION_KEY_REQUIRED' } },
    { name: 'footer length 0', bytes: withLength(0), expect: malformed },
    { name: 'footer length 1', bytes: withLength(1), expect: malformed },
    { name: 'footer length 0x80000000 (negative as int32)', bytes: withLength(0x80000000), expect: malformed },
    { name: 'footer length 0xffffffff (-1 as int32)', bytes: withLength(0xffffffff), expect: malformed },
    { name: 'footer length larger than the file', bytes: withLength(size + 100), expect: malformed },
    { name: 'footer length reaching the leading magic', bytes: withLength(size - 8), expect: malformed },
    { name: 'footer length one past the file start', bytes: withLength(size - 7), expect: malformed },
    { name: 'footer length covering all the data', bytes: withLength(size - 12), expect: malformed },
    { name: 'footer length one short', bytes: withLength(metadataLength - 1), expect: malformed },
    { name: 'footer length one long', bytes: withLength(metadataLength + 1), expect: malformed },
    { name: 'truncated at the footer start', bytes: bytes.slice(0, metadataOffset), expect: malformed },
    { name: 'truncated inside the metadata', bytes: bytes.slice(0, metadataOffset + Math.floor(metadataLength / 2)), expect: malformed },
    { name: 'truncated inside a bloom header', bytes: bytes.slice(0, f.offset + 5), expect: malformed },
    { name: 'truncated inside a bitset', bytes: bytes.slice(0, f.offset + f.headerLength + 700), expect: malformed },
    { name: 'truncated by one byte', bytes: bytes.slice(0, size - 1), expect: malformed },
    { name: 'truncated by the magic', bytes: bytes.slice(0, size - 4), expect: malformed },
    { name: 'garbage metadata', bytes: assemble(data, garbage), expect: malformed },
    { name: 'zeroed metadata', bytes: assemble(data, new Uint8Array(metadataLength)), expect: malformed },
    { name: 'metadata of 0xff', bytes: assemble(data, new Uint8Array(metadataLength).fill(0xff)), expect: malformed },
    { name: 'metadata is a lone STOP', bytes: assemble(data, Uint8Array.of(0)), expect: malformed },
    { name: 'footer over maxFooterBytes', bytes, open: { maxFooterBytes: 1000 }, expect: { code: 'TOO_LARGE' } },
    { name: 'tail read over maxBytes', bytes, open: { maxBytes: 4096, initialFetchSize: 64 * 1024 }, expect: { code: 'TOO_LARGE', message: /over maxBytes \(4096\)/ } },
    { name: 'footer read over maxBytes', bytes, open: { maxBytes: 1024, initialFetchSize: 8 }, expect: { code: 'TOO_LARGE', message: /over maxBytes \(1024\)/ } },
  ]
  // The leading magic is only checked when the tail read brings in the whole file (no extra request).
  const badHead = smallBytes.slice()
  badHead[0] = 0x51
  cases.push({ name: 'head magic wrong (whole file read)', bytes: badHead, open: { initialFetchSize: 64 * 1024 }, expect: malformed })
  const badHeadBig = bytes.slice()
  badHeadBig.set([0x50, 0x41, 0x52, 0x32], 0)
  cases.push({ name: 'head magic wrong (large file, whole-file read)', bytes: badHeadBig, open: { initialFetchSize: size }, expect: malformed })
  return cases
}

/** Footers that decode as Thrift but are not FileMetaData we can use, and Thrift bombs. */
function footerCases(base) {
  const malformed = { code: 'MALFORMED_FOOTER' }
  const edit = (name, fn, expect = malformed) => ({ name, bytes: rebuild(base, fn), expect })
  const schema = (meta) => getField(meta, 2).value.items
  const raw = (name, metadata, expect = malformed) => ({ name, bytes: assemble(base.bytes.subarray(0, base.metadataOffset), metadata), expect })
  const encoded = encodeStruct(base.meta)
  const fields = (meta, except) => {
    const copy = cloneStruct(meta)
    return removeField(copy, except)
  }

  // Writes the footer's real fields, then `bomb(w, lastId)` as the field(s) after them.
  const withTrailing = (name, bomb) => {
    const w = new ByteWriter()
    let last = 0
    for (const { id, type, value } of base.meta.fields) {
      w.fieldHeader(type === T.TRUE || type === T.FALSE ? (value ? T.TRUE : T.FALSE) : type, id, last)
      w.value(type, value)
      last = id
    }
    bomb(w, last)
    return raw(name, w.byte(T.STOP).bytes())
  }
  // The footer with field `id` replaced by raw bytes (everything else as written).
  const withField = (name, id, write) => {
    const w = new ByteWriter()
    let last = 0
    for (const { id: fid, type, value } of base.meta.fields) {
      if (fid === id) {
        write(w, last)
      } else {
        w.fieldHeader(type === T.TRUE || type === T.FALSE ? (value ? T.TRUE : T.FALSE) : type, fid, last)
        w.value(type, value)
      }
      last = fid
    }
    return raw(name, w.byte(T.STOP).bytes())
  }
  const deepStructs = (w, depth) => {
    for (let i = 0; i < depth; i++) w.byte(0x10 | T.STRUCT) // field 1 of the enclosing struct is a struct
    for (let i = 0; i <= depth; i++) w.byte(T.STOP)
  }
  const deepLists = (w, depth) => {
    for (let i = 0; i < depth; i++) w.byte(0x10 | T.LIST) // a one-element list of lists …
    w.byte(0x00)
  }

  return [
    edit('footer without schema', (meta) => removeField(meta, 2)),
    edit('footer without row_groups', (meta) => removeField(meta, 4)),
    edit('footer without num_rows', (meta) => removeField(meta, 3)),
    edit('schema of zero elements', (meta) => { getField(meta, 2).value.items = [] }),
    edit('schema field of the wrong type', (meta) => setField(meta, 2, T.I32, 7)),
    edit('row group missing a column chunk', (meta) => { getField(getField(meta, 4).value.items[1], 1).value.items.pop() }),
    edit('row group with an extra column chunk', (meta) => {
      const chunks = getField(getField(meta, 4).value.items[0], 1).value.items
      chunks.push(cloneStruct(chunks[0]))
    }),
    edit('root claims more children than the schema has', (meta) => setField(schema(meta)[0], 5, T.I32, schema(meta).length + 3)),
    edit('root claims fewer children than the schema has', (meta) => setField(schema(meta)[0], 5, T.I32, 2)),
    edit('root with negative children', (meta) => setField(schema(meta)[0], 5, T.I32, -1)),
    edit('leaf with unknown physical type', (meta) => setField(schema(meta)[1], 1, T.I32, 99)),
    edit('leaf with negative physical type', (meta) => setField(schema(meta)[1], 1, T.I32, -2)),
    edit('schema element without a name', (meta) => removeField(schema(meta)[3], 4)),
    edit('FIXED_LEN_BYTE_ARRAY leaf without type_length', (meta) => removeField(schema(meta).find((e) => getField(e, 1)?.value === 7), 2),
      { code: 'MALFORMED_FOOTER', message: /leaf fl is a FIXED_LEN_BYTE_ARRAY without a positive type_length/ }),
    edit('FIXED_LEN_BYTE_ARRAY leaf of width 0', (meta) => setField(schema(meta).find((e) => getField(e, 1)?.value === 7), 2, T.I32, 0),
      { code: 'MALFORMED_FOOTER', message: /FIXED_LEN_BYTE_ARRAY without a positive type_length/ }),
    edit('row group count mismatch with columns (no chunks)', (meta) => { getField(getField(meta, 4).value.items[2], 1).value.items = [] }),
    withField('schema list of 2^31 elements', 2, (w, last) => w.fieldHeader(T.LIST, 2, last).listHeader(T.STRUCT, 2 ** 31)),
    withField('schema list of 2^64-1 elements', 2, (w, last) => w.fieldHeader(T.LIST, 2, last).listHeader(T.STRUCT, 2n ** 64n - 1n)),
    withField('row_groups list of 2^31 elements', 4, (w, last) => w.fieldHeader(T.LIST, 4, last).listHeader(T.STRUCT, 2 ** 31)),
    withField('column chunk list of 2^31 elements', 4, (w, last) => {
      w.fieldHeader(T.LIST, 4, last).listHeader(T.STRUCT, 1)
      w.fieldHeader(T.LIST, 1, 0).listHeader(T.STRUCT, 2 ** 31)
    }),
    withTrailing('key_value_metadata list of 2^31 structs', (w, last) => w.fieldHeader(T.LIST, 5, Math.min(last, 4)).listHeader(T.STRUCT, 2 ** 31)),
    withTrailing('unknown list of 2^31 i64', (w, last) => w.fieldHeader(T.LIST, 20, last).listHeader(T.I64, 2 ** 31)),
    withTrailing('unknown list of 2^31 bools', (w, last) => w.fieldHeader(T.LIST, 20, last).listHeader(T.TRUE, 2 ** 31)),
    withTrailing('unknown map of 2^31 entries', (w, last) => w.fieldHeader(T.MAP, 20, last).varint(2 ** 31).byte((T.I32 << 4) | T.I32)),
    withTrailing('unknown binary of 2^62 bytes', (w, last) => w.fieldHeader(T.BINARY, 20, last).varint(2n ** 62n)),
    withTrailing('unknown binary of 2^31 bytes', (w, last) => w.fieldHeader(T.BINARY, 20, last).varint(2 ** 31)),
    withTrailing('varint of 11 bytes', (w, last) => w.fieldHeader(T.I64, 20, last).raw([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])),
    withTrailing('unknown wire type 13', (w, last) => w.fieldHeader(13, 20, last)),
    withTrailing('structs nested 100000 deep', (w, last) => {
      w.fieldHeader(T.STRUCT, 20, last)
      deepStructs(w, 100000)
    }),
    withTrailing('lists nested 100000 deep', (w, last) => {
      w.fieldHeader(T.LIST, 20, last).byte(0x10 | T.LIST)
      deepLists(w, 100000)
    }),
    withField('created_by of 2^62 bytes', 6, (w, last) => w.fieldHeader(T.BINARY, 6, last).varint(2n ** 62n)),
    withField('created_by of 2^31 bytes', 6, (w, last) => w.fieldHeader(T.BINARY, 6, last).varint(2 ** 31)),
    edit('statistics nested 100000 deep', (meta) => {
      const w = new ByteWriter()
      deepStructs(w, 100000)
      // ColumnMetaData.statistics becomes a struct whose field 1 nests on and on (pre-encoded body).
      setField(columnMetaData(meta, 0, 0), 12, T.STRUCT, { fields: [], raw: w.bytes() })
    }),
    raw('schema nested 200000 deep', schemaChainFooter(200000), { code: 'MALFORMED_FOOTER', message: /nests deeper than 256 levels/ }),
    raw('schema 2000 deep with 2000 leaves', schemaFanFooter(2000, 2000), { code: 'MALFORMED_FOOTER', message: /nests deeper than 256 levels/ }),
    raw('schema 250 deep with 20000 leaves', schemaFanFooter(250, 20000), { opens: true }),
    raw('schema with a 1 MB group name over 100 leaves', schemaFanFooter(2, 100, 'g'.repeat(MiB)), { code: 'TOO_LARGE', message: /column paths add up to more than/ }),
    // Footers whose decoded records would dwarf them: 72 bytes per column chunk, 16 per row group.
    raw('a million empty row groups in 4 MB', manyRowGroupsFooter(1_000_000, 0), { code: 'MALFORMED_FOOTER', message: /1000000 column chunks cannot fit in \d+ bytes/ }),
    raw('two million 9-byte column chunks', manyRowGroupsFooter(2_000_000, 8), { code: 'LIMIT_EXCEEDED', message: /decoding the footer: wasm memory pool cannot provide \d+ bytes for the footer's records/ }),
    // A footer that is only a struct opening over and over: the decoder must stop at its depth limit.
    raw('footer of nested struct headers only', concat(Uint8Array.of(0xf0 | T.STRUCT), new Uint8Array(64 * 1024).fill(0x10 | T.STRUCT))),
    raw('footer re-encoded unchanged', encoded, { answers: true }),
    raw('footer with only fields 1-3', encodeStruct(fields(fields(base.meta, 4), 6)), malformed),
  ]
}

/** A FileMetaData whose schema is a chain of `depth` one-child groups ending in one INT32 leaf. */
function schemaChainFooter(depth) {
  const w = new ByteWriter()
  w.fieldHeader(T.I32, 1, 0).zigzag(2)
  w.fieldHeader(T.LIST, 2, 1).listHeader(T.STRUCT, depth + 1)
  for (let i = 0; i < depth; i++) w.fieldHeader(T.BINARY, 4, 0).binary('g').fieldHeader(T.I32, 5, 4).zigzag(1).byte(T.STOP)
  w.fieldHeader(T.I32, 1, 0).zigzag(1).fieldHeader(T.BINARY, 4, 1).binary('x').byte(T.STOP)
  w.fieldHeader(T.I64, 3, 2).zigzag(0)
  w.fieldHeader(T.LIST, 4, 3).listHeader(T.STRUCT, 0)
  return w.byte(T.STOP).bytes()
}

/**
 * One INT32 leaf and `groups` row groups of one column chunk each, the chunk holding only a file_offset
 * padded to `padding` bytes (0: an empty chunk) — valid Thrift, no column metadata.
 */
function manyRowGroupsFooter(groups, padding) {
  const head = new ByteWriter()
  head.fieldHeader(T.I32, 1, 0).zigzag(2)
  head.fieldHeader(T.LIST, 2, 1).listHeader(T.STRUCT, 2)
  head.fieldHeader(T.BINARY, 4, 0).binary('root').fieldHeader(T.I32, 5, 4).zigzag(1).byte(T.STOP)
  head.fieldHeader(T.I32, 1, 0).zigzag(1).fieldHeader(T.BINARY, 4, 1).binary('c').byte(T.STOP)
  head.fieldHeader(T.I64, 3, 2).zigzag(groups)
  head.fieldHeader(T.LIST, 4, 3).listHeader(T.STRUCT, groups)
  const chunk = new ByteWriter()
  if (padding > 0) chunk.fieldHeader(T.I64, 2, 0).raw([...new Uint8Array(padding - 2).fill(0x80), 0x00])
  const group = new ByteWriter().fieldHeader(T.LIST, 1, 0).listHeader(T.STRUCT, 1).raw(chunk.byte(T.STOP).bytes()).byte(T.STOP).bytes()
  const headBytes = head.bytes()
  const out = new Uint8Array(headBytes.length + groups * group.length + 1)
  out.set(headBytes)
  for (let g = 0; g < groups; g++) out.set(group, headBytes.length + g * group.length)
  return out // ends with STOP (the zero the array was created with)
}

/** A schema `depth` groups deep whose innermost group holds `leaves` INT32 leaves. */
function schemaFanFooter(depth, leaves, groupName = 'g') {
  const w = new ByteWriter()
  w.fieldHeader(T.I32, 1, 0).zigzag(2)
  w.fieldHeader(T.LIST, 2, 1).listHeader(T.STRUCT, depth + leaves)
  for (let i = 0; i < depth; i++) w.fieldHeader(T.BINARY, 4, 0).binary(groupName).fieldHeader(T.I32, 5, 4).zigzag(i === depth - 1 ? leaves : 1).byte(T.STOP)
  for (let i = 0; i < leaves; i++) w.fieldHeader(T.I32, 1, 0).zigzag(1).fieldHeader(T.BINARY, 4, 1).binary(`c${i}`).byte(T.STOP)
  w.fieldHeader(T.I64, 3, 2).zigzag(0)
  w.fieldHeader(T.LIST, 4, 3).listHeader(T.STRUCT, 0)
  return w.byte(T.STOP).bytes()
}

/** Every way TARGET's bloom filter can be misplaced, mis-sized or have a bad header. */
function filterCases(base) {
  const f = base.filter(TARGET.rowGroup, TARGET.column)
  const original = base.bytes.subarray(f.offset, f.offset + f.headerLength + f.numBytes)
  const header = decodeStruct(original).struct
  const bitset = original.subarray(f.headerLength)
  const md = (meta) => columnMetaData(meta, TARGET.rowGroup, f.columnIndex)
  const size = base.bytes.length

  // The target's bloom_filter_offset / _length set to these values (null removes the field).
  const placed = (name, { offset, length }, expect) => ({
    name,
    bytes: rebuild(base, (meta) => {
      if (offset !== undefined) setField(md(meta), 14, T.I64, BigInt(offset))
      if (length === null) removeField(md(meta), 15)
      else if (length !== undefined) setField(md(meta), 15, T.I32, length)
    }),
    expect,
  })
  // `blob` appended before the footer and the target pointed at it (with `length`, default blob size).
  const appended = (name, blob, expect, { length = blob.length, padding = 0 } = {}) => ({
    name,
    bytes: rebuild(base, (meta, [at]) => {
      setField(md(meta), 14, T.I64, BigInt(at))
      if (length === null) removeField(md(meta), 15)
      else setField(md(meta), 15, T.I32, length)
    }, [blob, new Uint8Array(padding)]),
    expect,
  })
  // The header replaced and the original bitset right after it: a bitset read for it must be that one.
  const withHeader = (name, edit, expect, options) => {
    const h = cloneStruct(header)
    edit(h)
    return { ...appended(name, concat(encodeStruct(h), bitset), expect, options), bitsetFollowsHeader: true }
  }
  const rawHeader = (name, headerBytes, expect, options) => ({ ...appended(name, concat(headerBytes, bitset), expect, options), bitsetFollowsHeader: true })
  const union = (...members) => ({ fields: members.map((id) => ({ id, type: T.STRUCT, value: struct() })) })
  const unknown = (reason) => ({ unknown: reason })
  const answers = { answers: true }
  const outside = unknown(/inconsistent-filter: bloom_filter_offset -?\d+ is outside the data region/)
  const random = rng(0x5eed)

  const deepHeader = new ByteWriter().fieldHeader(T.STRUCT, 7, 0)
  for (let i = 0; i < 50000; i++) deepHeader.byte(0x10 | T.STRUCT)
  for (let i = 0; i <= 50000; i++) deepHeader.byte(T.STOP)

  return [
    // Where the filter is
    // 0 and negative offsets mean "no filter" (apache/iceberg#5172; js/indexes/writer-rules.js)
    placed('bloom offset -5', { offset: -5 }, unknown(/no-index: this row group has no bloom filter/)),
    placed('bloom offset -2^63', { offset: -(2n ** 63n) }, unknown(/no-index: this row group has no bloom filter/)),
    placed('bloom offset 0', { offset: 0 }, unknown(/no-index: this row group has no bloom filter/)),
    placed('bloom offset 3 (inside the magic)', { offset: 3 }, outside),
    placed('bloom offset at the footer', { offset: base.metadataOffset }, outside),
    placed('bloom offset inside the footer', { offset: base.metadataOffset + 10 }, outside),
    placed('bloom offset at the file end', { offset: size }, outside),
    placed('bloom offset past the end', { offset: size + 1000 }, outside),
    placed('bloom offset 2^62', { offset: 2n ** 62n }, outside),
    placed('bloom offset 2^63-1', { offset: 2n ** 63n - 1n }, outside),
    placed('bloom offset into a data page', { offset: 4 }, unknown(/inconsistent-filter: .*inside a column chunk's pages/)),
    placed('bloom offset one byte late', { offset: f.offset + 1 }, unknown(/malformed-filter|unsupported-filter|inconsistent-filter/)),
    placed('bloom offset so the filter overlaps the footer', { offset: base.metadataOffset - 100 }, unknown(/overlaps the footer/)),
    // How long it is
    placed('bloom length 0', { length: 0 }, unknown(/inconsistent-filter: bloom_filter_length 0 cannot hold a filter/)),
    placed('bloom length 1', { length: 1 }, unknown(/malformed-filter: .*truncated/)),
    placed('bloom length inside the header', { length: 10 }, unknown(/malformed-filter: .*truncated/)),
    placed('bloom length of the header alone', { length: f.headerLength }, unknown(/inconsistent-filter: .*bloom_filter_length 16 ≠ header 16 \+ numBytes 2048/)),
    placed('bloom length one short', { length: f.headerLength + f.numBytes - 1 }, unknown(/inconsistent-filter: .*bloom_filter_length \d+ ≠ header/)),
    placed('bloom length 2^31-1', { length: 2 ** 31 - 1 }, unknown(/overlaps the footer/)),
    // A length that disagrees with the filter in either direction makes it unusable: neither description is trusted over the other.
    placed('bloom length -5', { length: -5 }, unknown(/inconsistent-filter: bloom_filter_length -5 cannot hold a filter/)),
    placed('bloom length -2^31', { length: -(2 ** 31) }, unknown(/inconsistent-filter: bloom_filter_length -\d+ cannot hold a filter/)),
    placed('bloom length absent', { length: null }, answers),
    appended('bloom length one long', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 1, padding: 1 }),
    appended('bloom length 100 long', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 100, padding: 100 }),
    appended('bloom length 5000 long (standard layout guess wrong)', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 5000, padding: 5000 }),
    appended('bloom length 2048 long (looks like a 4096-byte filter)', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 2048, padding: 2048 }),
    // Without bloom_filter_length nothing disagrees: padding after the filter is fine.
    appended('no bloom length, 1 byte of padding after', original, answers, { length: null, padding: 1 }),
    appended('no bloom length, 100 bytes of padding after', original, answers, { length: null, padding: 100 }),
    appended('no bloom length, 5000 bytes of padding after', original, answers, { length: null, padding: 5000 }),
    appended('no bloom length, 2048 bytes of padding after', original, answers, { length: null, padding: 2048 }),
    appended('exact bloom length, 100 bytes of padding after', original, answers, { padding: 100 }),
    appended('bloom length long, runs into the footer', original, unknown(/overlaps the footer/), { length: original.length + 10 }),
    // Truncated filters (the next structure follows at once)
    appended('filter cut inside the header', original.slice(0, 9), unknown(/truncated/)),
    appended('filter cut inside the header, no length', original.slice(0, 9), unknown(/truncated/), { length: null }),
    appended('filter cut inside the bitset', original.slice(0, f.headerLength + 1000), unknown(/inconsistent-filter: .*≠ header/)),
    appended('filter cut inside the bitset, no length', original.slice(0, f.headerLength + 1000), unknown(/runs into the next structure/), { length: null }),
    appended('filter moved, no length', original, answers, { length: null }),
    // numBytes
    withHeader('numBytes 0', (h) => setField(h, 1, T.I32, 0), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes 33', (h) => setField(h, 1, T.I32, 33), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes 2047', (h) => setField(h, 1, T.I32, 2047), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes -2048', (h) => setField(h, 1, T.I32, -2048), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes 128 MiB + 32', (h) => setField(h, 1, T.I32, 128 * MiB + 32), unknown(/over the 128 MiB ceiling/)),
    withHeader('numBytes 2^31 - 32', (h) => setField(h, 1, T.I32, 2 ** 31 - 32), unknown(/over the 128 MiB ceiling/)),
    withHeader('numBytes 128 MiB (more than the file)', (h) => setField(h, 1, T.I32, 128 * MiB), unknown(/inconsistent-filter: .*≠ header/)),
    withHeader('numBytes 128 MiB, no length', (h) => setField(h, 1, T.I32, 128 * MiB), unknown(/runs into the next structure/), { length: null }),
    withHeader('numBytes 4096 (more than the bitset), no length', (h) => setField(h, 1, T.I32, 4096), unknown(/runs into the next structure/), { length: null }),
    withHeader('numBytes as i64', (h) => setField(h, 1, T.I64, 2048n), unknown(/wrong Thrift type/)),
    withHeader('numBytes missing', (h) => removeField(h, 1), unknown(/no numBytes/)),
    withHeader('numBytes i32 overflow', (h) => setField(h, 1, T.I64, 2n ** 40n), unknown(/wrong Thrift type/)),
    // The three unions
    withHeader('algorithm union empty', (h) => setField(h, 2, T.STRUCT, union()), unknown(/unsupported-filter: .*empty algorithm\/hash\/compression union/)),
    withHeader('algorithm unknown member', (h) => setField(h, 2, T.STRUCT, union(2)), unknown(/unsupported-filter: .*does not implement/)),
    withHeader('hash union empty', (h) => setField(h, 3, T.STRUCT, union()), unknown(/unsupported-filter: .*empty/)),
    withHeader('hash unknown member', (h) => setField(h, 3, T.STRUCT, union(9)), unknown(/unsupported-filter: .*does not implement/)),
    withHeader('compression union empty', (h) => setField(h, 4, T.STRUCT, union()), unknown(/unsupported-filter: .*empty/)),
    withHeader('compression unknown member (a codec)', (h) => setField(h, 4, T.STRUCT, union(2)), unknown(/unsupported-filter: .*does not implement/)),
    withHeader('union member of a struct plus an unknown one', (h) => setField(h, 2, T.STRUCT, union(1, 5)), answers),
    withHeader('algorithm missing', (h) => removeField(h, 2), unknown(/no algorithm/)),
    withHeader('hash missing', (h) => removeField(h, 3), unknown(/no hash/)),
    withHeader('compression missing', (h) => removeField(h, 4), unknown(/no compression/)),
    withHeader('algorithm of the wrong type', (h) => setField(h, 2, T.I32, 1), unknown(/wrong Thrift type/)),
    // Odd but valid headers
    withHeader('header with unknown fields', (h) => setField(setField(h, 9, T.BINARY, new Uint8Array(40).fill(7)), 12, T.LIST, { elemType: T.I32, items: [1, 2, 3] }), answers),
    withHeader('header with unknown fields, no length', (h) => setField(h, 9, T.BINARY, new Uint8Array(100).fill(7)), answers, { length: null }),
    withHeader('header with a 5000-byte unknown field', (h) => setField(h, 9, T.BINARY, new Uint8Array(5000).fill(7)), answers),
    withHeader('header with a 5000-byte unknown field, no length', (h) => setField(h, 9, T.BINARY, new Uint8Array(5000).fill(7)), answers, { length: null }),
    withHeader('header with a 60000-byte unknown field', (h) => setField(h, 9, T.BINARY, new Uint8Array(60000).fill(7)), answers),
    withHeader('header with a 70000-byte unknown field', (h) => setField(h, 9, T.BINARY, new Uint8Array(70000).fill(7)), unknown(/malformed-filter: .*the header is longer than 65536 bytes/)),
    rawHeader('header fields in reverse order', reversedHeader(header), answers),
    // Thrift bombs and garbage in the header
    rawHeader('header nested 50000 deep', deepHeader.bytes(), unknown(/not valid Thrift compact encoding|truncated/)),
    rawHeader('header with a 2^62-byte binary', new ByteWriter().fieldHeader(T.BINARY, 7, 0).varint(2n ** 62n).bytes(), unknown(/truncated/)),
    rawHeader('header with a list of 2^31 i32', new ByteWriter().fieldHeader(T.LIST, 7, 0).listHeader(T.I32, 2 ** 31).bytes(), unknown(/truncated|not valid Thrift compact encoding/)),
    rawHeader('header with an 11-byte varint', new ByteWriter().fieldHeader(T.I32, 1, 0).raw(new Uint8Array(10).fill(0xff)).byte(1).bytes(), unknown(/not valid Thrift compact encoding/)),
    rawHeader('header of unknown wire type', Uint8Array.of(0x1d), unknown(/not valid Thrift compact encoding/)),
    appended('header of garbage', concat(Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256)), bitset), unknown(/malformed-filter|unsupported-filter/)),
    appended('filter of zeros', new Uint8Array(original.length), unknown(/no numBytes/)),
    appended('filter of 0xff', new Uint8Array(original.length).fill(0xff), unknown(/malformed-filter/)),
    appended('legacy (pre-Thrift) filter', legacyFilter(bitset), unknown(/pre-release|no numBytes/)),
    // Chunk metadata that rules the filter out
    placed('chunk metadata encrypted', {}, unknown(/encrypted-column/)),
    placed('chunk in another file', {}, unknown(/external-file/)),
    placed('chunk with crypto metadata', {}, unknown(/encrypted-column/)),
    placed('chunk without metadata', {}, unknown(/no-column-metadata/)),
  ].map((c) => chunkEdits(c, base, f))
}

// The last four cases above edit the ColumnChunk rather than the filter.
function chunkEdits(c, base, f) {
  const chunk = (meta) => columnChunk(meta, TARGET.rowGroup, f.columnIndex)
  const edits = {
    'chunk metadata encrypted': (meta) => setField(chunk(meta), 9, T.BINARY, new Uint8Array(32).fill(9)),
    'chunk in another file': (meta) => setField(chunk(meta), 1, T.BINARY, new TextEncoder().encode('other.parquet')),
    'chunk with crypto metadata': (meta) => setField(chunk(meta), 8, T.STRUCT, struct([1, T.STRUCT, struct()])),
    'chunk without metadata': (meta) => removeField(chunk(meta), 3),
  }
  return edits[c.name] ? { ...c, bytes: rebuild(base, edits[c.name]) } : c
}

function reversedHeader(header) {
  const w = new ByteWriter()
  let last = 0
  for (const { id, type, value } of [...header.fields].reverse()) {
    w.fieldHeader(type, id, last)
    w.value(type, value)
    last = id
  }
  return w.byte(T.STOP).bytes()
}

/** The pre-release layout: numBytes, algorithm, hash as little-endian int32, then the bitset. */
function legacyFilter(bitset) {
  const head = new Uint8Array(12)
  new DataView(head.buffer).setInt32(0, bitset.length, true)
  return concat(head, bitset)
}

// ---------------------------------------------------------------------------------------------------
// The mutation fuzzer: real files, mutated (bit flips, byte sets, truncations, splices, varint- and
// field-aware footer and header edits), through openParquet + probe + visitBloomFilter. Only
// ParquetBloomErrors may come out; nothing may hang; the wasm instance must keep working; and where a
// mutation leaves every filter and the footer intact (data pages), or only flips bitset bits, the
// verdicts must be exactly what the reference SBBF says over the bytes as they now are.

// Columns probed, with the type visitBloomFilter's check() takes for them.
const HYPARQUET_COLUMNS = { i32: 'INT32', i64: 'INT64', str: 'BYTE_ARRAY', bin: 'BYTE_ARRAY', fl: { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 4 }, bool: 'BOOLEAN' }
const DUCKDB_COLUMNS = { ii: 'INT32', si: 'INT32', bi: 'INT64', s: 'BYTE_ARRAY' }
const FUZZ_MODES = ['auto', 'filter', 'block']
const FUZZ_TAILS = [undefined, 8, 512, 4096, 1 << 20]
const ITERATION_TIMEOUT_MS = 5000
const HEALTH_EVERY = 25
const HEAP_LIMIT = 256 * MiB

// [kind, weight]. 'data' and 'bitset' mutations have exact expectations; the rest must merely end well.
const MUTATIONS = [
  ['data-bytes', 3], ['bitset-bits', 3], ['header-bytes', 2], ['header-varint', 2], ['footer-bytes', 3],
  ['footer-varint', 4], ['footer-field', 3], ['tail-bytes', 1], ['truncate', 1], ['splice', 2], ['anywhere-bits', 2],
]
const MUTATION_WEIGHT = MUTATIONS.reduce((n, [, w]) => n + w, 0)

/**
 * The files the fuzzer mutates, each with its layout and truth: hyparquet-writer files (with and
 * without bloom_filter_length, and one small enough for the tail read to hold all of it), and with
 * { duckdb: true } a DuckDB file (29 columns, statistics, another layout; a few seconds to write).
 */
export async function buildFuzzBases(dir, { duckdb = false } = {}) {
  const smallDir = path.join(dir, 'small')
  await mkdir(smallDir, { recursive: true })
  const full = await writeHyparquetSample(dir)
  const small = await writeHyparquetSample(smallDir, { rows: 60, rowGroupSize: 20 })
  const base = parseParquet(new Uint8Array(await readFile(full.path)))
  const fullTruth = buildTruth(full)
  const entry = (name, parsed, truth, checkTypes = HYPARQUET_COLUMNS) => ({
    name,
    parsed,
    truth,
    columns: Object.keys(checkTypes),
    checkTypes,
    values: Object.fromEntries(Object.keys(checkTypes).map((c) => [c, probeValues(truth, c, rng(c.length * 7919), 4)])),
    dataEnd: Math.min(...parsed.filters.map((f) => f.offset)),
  })
  const bases = [
    entry('hyparquet', base, fullTruth),
    entry('hyparquet-no-lengths', parseParquet(withoutBloomLengths(base)), fullTruth),
    entry('hyparquet-small', parseParquet(new Uint8Array(await readFile(small.path))), buildTruth(small)),
  ]
  if (duckdb) {
    const duckDir = path.join(dir, 'duckdb')
    await mkdir(duckDir, { recursive: true })
    const sample = await writeDuckdbSample(duckDir)
    bases.push(entry('duckdb', parseParquet(new Uint8Array(await readFile(sample.path))), buildTruth(sample, DUCKDB_COLUMNS), DUCKDB_COLUMNS))
  }
  for (const b of bases) {
    // What the unmutated file says about each column, to recognise mutations that left a chunk alone.
    const file = await openParquet(b.parsed.bytes)
    b.columnTypes = Object.fromEntries(file.layout.columns.map((c) => [c.name, JSON.stringify([c.physicalType, c.typeLength, c.logicalType])]))
    b.blooms = file.metadata.rowGroups.map((rg) => Object.fromEntries(rg.columns.map((c) => [c.path, c.bloom])))
    await file.close()
  }
  return bases
}

/** A per-iteration generator: iteration i of seed s is the same input whatever ran before it. */
export function iterationRandom(seed, i) {
  let h = (seed ^ 0x9e3779b9) >>> 0
  h = Math.imul(h ^ (i >>> 0), 0x85ebca6b) >>> 0
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0
  return rng((h ^ (h >>> 16)) >>> 0)
}

/** The input of iteration i: which base, what mutation, and how it is probed. */
export function fuzzInput(bases, seed, i) {
  const random = iterationRandom(seed, i)
  const pick = (list) => list[Math.floor(random() * list.length)]
  const base = pick(bases)
  const mutation = mutate(base, random)
  return {
    base,
    mutation,
    column: pick(base.columns),
    mode: pick(FUZZ_MODES),
    initialFetchSize: pick(FUZZ_TAILS),
    visit: random() < 0.3,
    parts: random() < 0.2,
    visitRowGroup: Math.floor(random() * base.parsed.rowGroupCount),
  }
}

function interestingInts(base, original) {
  const { bytes, metadataOffset } = base.parsed
  const o = typeof original === 'bigint' ? original : BigInt(Math.trunc(Number(original ?? 0)))
  return [0n, 1n, -1n, 2n, 3n, 4n, 7n, 8n, 15n, 16n, 17n, 31n, 32n, 33n, 63n, 64n, 127n, 128n, 255n, 256n, 1023n, 1024n,
    2047n, 2048n, 2049n, 4095n, 4096n, 65535n, 65536n, 1n << 24n, (1n << 31n) - 1n, -(1n << 31n), 1n << 31n, (1n << 32n) - 1n,
    1n << 32n, 1n << 53n, (1n << 53n) + 1n, 1n << 62n, (1n << 63n) - 1n, -(1n << 63n), BigInt(bytes.length), BigInt(bytes.length - 1),
    BigInt(bytes.length + 1), BigInt(metadataOffset), BigInt(metadataOffset - 1), BigInt(metadataOffset + 1), o + 1n, o - 1n, o * 2n, o / 2n, -o]
}

function pickInt(base, random, original) {
  if (random() < 0.2) return BigInt(Math.floor(random() * base.parsed.bytes.length))
  const list = interestingInts(base, original)
  return list[Math.floor(random() * list.length)]
}

/**
 * One mutation of a base file: { bytes, kind, note, expect } where expect is 'original' (verdicts as
 * the original bitsets say), 'mutated' (as the mutated bitsets say: only bitset bits changed) or 'any'.
 */
export function mutate(base, random) {
  const { bytes, metadataOffset, filters } = base.parsed
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo))
  const pickFilter = () => filters[int(0, filters.length)]
  let r = random() * MUTATION_WEIGHT
  let kind = MUTATIONS[0][0]
  for (const [k, w] of MUTATIONS) {
    if ((r -= w) < 0) {
      kind = k
      break
    }
  }
  const out = bytes.slice()
  const touched = []
  const setByte = (at, value) => {
    out[at] = value
    touched.push(at)
  }
  const flip = (at) => setByte(at, out[at] ^ (1 << int(0, 8)))
  const smash = (at) => setByte(at, random() < 0.5 ? [0x00, 0xff, 0x7f, 0x80, 0x0f, 0xf0, 0x1c, 0x19, 0x15][int(0, 9)] : int(0, 256))
  const metadata = bytes.subarray(metadataOffset, bytes.length - 8)
  const data = bytes.subarray(0, metadataOffset)

  switch (kind) {
    case 'data-bytes': {
      for (let n = int(1, 9); n > 0; n--) (random() < 0.5 ? flip : smash)(int(4, base.dataEnd))
      return { bytes: out, kind, note: `bytes ${touched.join(',')}`, expect: 'original' }
    }
    case 'bitset-bits': {
      const f = pickFilter()
      const start = f.offset + f.headerLength
      if (random() < 0.2) {
        const block = int(0, f.numBytes / 32)
        out.fill(random() < 0.5 ? 0 : 0xff, start + block * 32, start + block * 32 + 32)
        return { bytes: out, kind, note: `block ${block} of the filter at ${f.offset} filled`, expect: 'mutated' }
      }
      for (let n = int(1, 17); n > 0; n--) flip(int(start, start + f.numBytes))
      return { bytes: out, kind, note: `bits in the filter at ${f.offset}: ${touched.join(',')}`, expect: 'mutated' }
    }
    case 'header-bytes': {
      const f = pickFilter()
      for (let n = int(1, 4); n > 0; n--) (random() < 0.5 ? flip : smash)(int(f.offset, f.offset + f.headerLength))
      return { bytes: out, kind, note: `header of the filter at ${f.offset}: bytes ${touched.join(',')}`, expect: 'any' }
    }
    case 'header-varint': {
      const f = pickFilter()
      const spans = varintSpans(bytes.subarray(f.offset, f.offset + f.headerLength))
      if (spans.length === 0) return { bytes: out, kind, note: 'no varint', expect: 'original' }
      const span = spans[int(0, spans.length)]
      const replacement = varintBytes(span.kind, pickInt(base, random), random)
      const at = f.offset + span.start
      return { bytes: concat(bytes.subarray(0, at), replacement, bytes.subarray(f.offset + span.end)), kind, note: `${span.kind} at ${at} → ${hex(replacement)}`, expect: 'any' }
    }
    case 'footer-bytes': {
      for (let n = int(1, 9); n > 0; n--) (random() < 0.5 ? flip : smash)(int(metadataOffset, bytes.length - 8))
      return { bytes: out, kind, note: `footer bytes ${touched.join(',')}`, expect: 'any' }
    }
    case 'footer-varint': {
      const spans = varintSpans(metadata)
      const span = spans[int(0, spans.length)]
      let replacement
      if (span.kind === 'list-header') {
        const elem = random() < 0.8 ? metadata[span.start] & 0x0f : int(0, 16)
        replacement = new ByteWriter().listHeader(elem, pickInt(base, random) & ((1n << 64n) - 1n)).bytes()
      } else {
        replacement = varintBytes(span.kind, pickInt(base, random), random)
      }
      const edited = concat(metadata.subarray(0, span.start), replacement, metadata.subarray(span.end))
      return { bytes: assemble(data, edited), kind, note: `${span.kind} at footer byte ${span.start} → ${hex(replacement)}`, expect: 'any' }
    }
    case 'footer-field': {
      const meta = cloneStruct(base.parsed.meta)
      const ints = []
      const structs = []
      collectFields(meta, ints, structs)
      let note
      const r2 = random()
      if (r2 < 0.7 && ints.length) {
        const field = ints[int(0, ints.length)]
        const value = pickInt(base, random, field.value)
        note = `field ${field.id} (${field.value}) → ${value}`
        field.value = field.type === T.I64 ? value : Number(BigInt.asIntN(64, value))
      } else if (r2 < 0.85) {
        const s = structs[int(0, structs.length)]
        const removed = s.fields.splice(int(0, s.fields.length), 1)[0]
        note = `field ${removed?.id} removed`
      } else {
        const s = structs[int(0, structs.length)]
        const f = s.fields[int(0, s.fields.length)]
        if (f) s.fields.push({ ...f, id: f.id + int(1, 40) })
        note = `field ${f?.id} duplicated under a new id`
      }
      let encoded
      try {
        encoded = encodeStruct(meta)
      } catch {
        encoded = metadata // a value the writer cannot encode: keep the footer
      }
      return { bytes: assemble(data, encoded), kind, note, expect: 'any' }
    }
    case 'tail-bytes': {
      if (random() < 0.6) {
        const length = Number(BigInt.asUintN(32, pickInt(base, random, metadata.length)))
        new DataView(out.buffer).setUint32(out.length - 8, length, true)
        return { bytes: out, kind, note: `footer length ${length}`, expect: 'any' }
      }
      flip(int(out.length - 8, out.length))
      return { bytes: out, kind, note: `trailer byte ${touched[0]}`, expect: 'any' }
    }
    case 'truncate': {
      const cut = random() < 0.5 ? int(Math.max(0, bytes.length - 4096), bytes.length) : int(0, bytes.length)
      if (random() < 0.5) return { bytes: bytes.slice(0, cut), kind, note: `cut at ${cut}`, expect: 'any' }
      // Cut, then the original trailer: the footer length now points somewhere else.
      return { bytes: concat(bytes.subarray(0, cut), bytes.subarray(bytes.length - 8)), kind, note: `cut at ${cut}, trailer kept`, expect: 'any' }
    }
    case 'splice': {
      const n = int(1, 300)
      const from = int(0, bytes.length - n)
      const to = random() < 0.7 ? int(Math.max(0, metadataOffset - 5000), bytes.length - n) : int(0, bytes.length - n)
      const r3 = random()
      if (r3 < 0.4) {
        out.set(bytes.subarray(from, from + n), to)
        return { bytes: out, kind, note: `${n} bytes from ${from} over ${to}`, expect: 'any' }
      }
      if (r3 < 0.7) return { bytes: concat(bytes.subarray(0, to), bytes.subarray(from, from + n), bytes.subarray(to)), kind, note: `${n} bytes from ${from} inserted at ${to}`, expect: 'any' }
      return { bytes: concat(bytes.subarray(0, to), bytes.subarray(to + n)), kind, note: `${n} bytes deleted at ${to}`, expect: 'any' }
    }
    case 'anywhere-bits': {
      for (let n = int(1, 5); n > 0; n--) flip(int(0, bytes.length))
      const inData = touched.every((at) => at >= 4 && at < base.dataEnd)
      const inBitsets = touched.every((at) => filters.some((f) => at >= f.offset + f.headerLength && at < f.offset + f.headerLength + f.numBytes))
      return { bytes: out, kind, note: `bits at ${touched.join(',')}`, expect: inData ? 'original' : inBitsets ? 'mutated' : 'any' }
    }
    default:
      throw new Error(`unknown mutation ${kind}`)
  }
}

/** A varint of the given span kind: zigzag for integers, plain for lengths and sizes, sometimes overlong. */
function varintBytes(kind, value, random) {
  const w = new ByteWriter()
  if (random() < 0.1) return w.raw([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).bytes() // 11 bytes
  if (kind === 'int' || kind === 'field-id') w.zigzag(value)
  else w.varint(value < 0n ? -value : value)
  const encoded = w.bytes()
  if (random() < 0.1 && encoded.length < 10) {
    // The same value, one byte longer (a non-minimal encoding).
    const longer = concat(encoded, Uint8Array.of(0))
    longer[encoded.length - 1] |= 0x80
    return longer
  }
  return encoded
}

function collectFields(s, ints, structs) {
  structs.push(s)
  for (const f of s.fields) {
    if (f.type === T.I32 || f.type === T.I64 || f.type === T.I16 || f.type === T.BYTE) ints.push(f)
    else if (f.type === T.STRUCT && !f.value.raw) collectFields(f.value, ints, structs)
    else if ((f.type === T.LIST || f.type === T.SET) && f.value.elemType === T.STRUCT) for (const item of f.value.items) collectFields(item, ints, structs)
  }
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Pool bytes in use besides the shared scratch region. */
function blocksInUse() {
  return memoryStats().poolInUseBytes - getCore().scratchBytes
}

function describe(value) {
  if (value instanceof Uint8Array) return `0x${hex(value)}`
  if (typeof value === 'bigint') return `${value}n`
  return JSON.stringify(value)
}

/**
 * Runs iteration i: opens the mutated bytes, probes, maybe visits / reads parts. Returns
 * { outcome: 'ok' | <error code> } or throws an Error describing a finding.
 */
export async function runFuzzIteration(bases, seed, i) {
  const input = fuzzInput(bases, seed, i)
  const { base, mutation, column, mode } = input
  const name = `fuzz-${seed}-${i}`
  const values = base.values[column]
  const what = () => `iteration ${i} (seed ${seed}): ${describeInput(input)}`
  const checkError = (error, step) => {
    if (!(error instanceof ParquetBloomError)) throw new Error(`${what()}: ${step} threw a non-ParquetBloomError: ${error?.stack ?? error}`)
    if (!Object.values(ErrorCode).includes(error.code)) throw new Error(`${what()}: ${step}: unknown code ${error.code}`)
    if (!error.message.includes(name)) throw new Error(`${what()}: ${step}: ${error.code} message does not name the source: ${error.message}`)
    return error.code
  }
  const expected = (g, bytes) => {
    const f = base.parsed.filter(g, column)
    return expectedVerdicts(base.truth, column, g, values, bitsetOf(bytes, f), { written: bytes === base.parsed.bytes })
  }
  const exactAgainst = mutation.expect === 'original' ? base.parsed.bytes : mutation.expect === 'mutated' ? mutation.bytes : undefined

  let file
  try {
    file = await openParquet(mutation.bytes, { name, initialFetchSize: input.initialFetchSize })
  } catch (error) {
    const code = checkError(error, 'openParquet')
    if (exactAgainst && !(base.name === 'hyparquet-small' && code === ErrorCode.MALFORMED_FOOTER)) {
      throw new Error(`${what()}: a file with its footer intact failed to open: ${error.message}`)
    }
    return { outcome: code, kind: mutation.kind }
  }
  try {
    let outcome = 'ok'
    const reasons = new Set()
    try {
      // Exact against the reference filter: the bloom filter alone (statistics would answer first).
      const result = await file.probe(column, values, { mode, statistics: false })
      // With statistics too (the default) the same file answers the same, except that min/max may rule
      // out values the filter lets through: never the other way round.
      const withStats = await file.probe(column, values, { mode })
      withStats.rowGroups.forEach((rg, g) => rg.results.forEach((r, i) => {
        const alone = result.rowGroups[g].results[i]
        if (r.verdict !== alone.verdict && !(r.verdict === 'absent' && r.source === 'statistics' && alone.verdict !== 'absent')) {
          throw new Error(`${what()}: row group ${g} value ${describe(values[i])}: ${r.verdict} (${r.reason}) with statistics, ${alone.verdict} (${alone.reason}) without`)
        }
      }))
      if (result.rowGroups.length !== file.layout.rowGroupRows.length) throw new Error(`${what()}: ${result.rowGroups.length} row groups answered`)
      result.rowGroups.forEach((rg, g) => {
        if (rg.index !== g || rg.results.length !== values.length) throw new Error(`${what()}: malformed result for row group ${g}`)
        for (const r of rg.results) {
          if (!['absent', 'maybe', 'unknown'].includes(r.verdict) || typeof r.reason !== 'string') throw new Error(`${what()}: bad result ${JSON.stringify(r)}`)
        }
        const verdicts = rg.results.map((r) => r.verdict)
        if (exactAgainst) {
          const want = expected(g, exactAgainst)
          if (verdicts.join() !== want.join()) {
            throw new Error(`${what()}: row group ${g} answered ${verdicts.join(',')} where the reference says ${want.join(',')} for ${values.map(describe).join(',')}; reasons ${rg.results.map((r) => r.reason).join(' | ')}`)
          }
        } else if (chunkUntouched(base, file, mutation.bytes, g, column)) {
          // Whatever else changed, this chunk's filter is where it was, as it was, for a column of the
          // same type: it may turn unknown (a bound or length elsewhere changed) but never say otherwise.
          const want = expected(g, base.parsed.bytes)
          if (verdicts.some((v, k) => v !== 'unknown' && v !== want[k])) {
            throw new Error(`${what()}: row group ${g}, whose filter is untouched, answered ${verdicts.join(',')} where the reference says ${want.join(',')}; reasons ${rg.results.map((r) => r.reason).join(' | ')}`)
          }
        }
        for (const r of rg.results) reasons.add(r.verdict === 'unknown' ? r.reason : r.verdict)
      })
    } catch (error) {
      if (!(error instanceof ParquetBloomError)) throw error
      outcome = checkError(error, 'probe')
      if (exactAgainst) throw new Error(`${what()}: the probe of a file whose footer and filters are intact failed: ${error.message}`)
    }
    if (input.visit) {
      const g = input.visitRowGroup
      try {
        const checked = await file.visitBloomFilter(g, column, (filter) => filter.check(values, base.checkTypes[column]))
        if (exactAgainst) {
          const got = [...checked].map((v) => (v === 1 ? 'maybe' : 'absent'))
          if (got.join() !== expected(g, exactAgainst).join()) throw new Error(`${what()}: visitBloomFilter of row group ${g} disagrees with the reference`)
        }
      } catch (error) {
        if (!(error instanceof ParquetBloomError)) throw error.message?.startsWith('iteration') ? error : new Error(`${what()}: visitBloomFilter threw a non-ParquetBloomError: ${error?.stack ?? error}`)
        checkError(error, 'visitBloomFilter')
        if (exactAgainst) throw new Error(`${what()}: visitBloomFilter of an intact filter failed: ${error.message}`)
      }
    }
    if (input.parts) {
      try {
        const parts = await file.readBloomFilterParts(input.visitRowGroup, column)
        if (!parts || (parts.bitset === undefined && parts.error === undefined)) throw new Error(`${what()}: readBloomFilterParts returned ${JSON.stringify(parts)}`)
      } catch (error) {
        if (!(error instanceof ParquetBloomError)) throw error.message?.startsWith('iteration') ? error : new Error(`${what()}: readBloomFilterParts threw: ${error?.stack ?? error}`)
        checkError(error, 'readBloomFilterParts')
      }
    }
    return { outcome, reasons, kind: mutation.kind }
  } finally {
    await file.close()
  }
}

export function describeInput({ base, mutation, column, mode, initialFetchSize }) {
  return `${base.name}, ${mutation.kind} [${mutation.note}], column ${column}, mode ${mode}, initialFetchSize ${initialFetchSize}`
}

/** Row group g's chunk of `column` has the original filter location, bytes, column type and rows. */
function chunkUntouched(base, file, bytes, g, column) {
  const c = file.layout.columns.find((col) => col.name === column)
  if (!c || JSON.stringify([c.physicalType, c.typeLength, c.logicalType]) !== base.columnTypes[column]) return false
  if (!(file.layout.rowGroupRows[g] > 0)) return false
  const bloom = file.metadata.rowGroups[g].columns[c.index].bloom
  const original = base.blooms[g]?.[column]
  if (!bloom || !original || bloom.offset !== original.offset || (bloom.length !== undefined && bloom.length !== original.length)) return false
  const f = base.parsed.filter(g, column)
  const end = f.offset + f.headerLength + f.numBytes
  if (end > bytes.length) return false
  for (let k = f.offset; k < end; k++) if (bytes[k] !== base.parsed.bytes[k]) return false
  return true
}

/** The failures the harness must catch, for its own tests. */
async function simulateFailure(what) {
  switch (what) {
    case 'sync-hang': for (;;) { /* spins until the watchdog terminates the worker */ }
    case 'async-hang': return new Promise(() => {})
    case 'type-error': return null.outcome
    default: throw new Error(`unknown simulated failure ${what}`)
  }
}

/** A valid probe of the first base, exact, and the pool back where it was. */
async function healthCheck(bases, baselineBlocks, heapStart) {
  const base = bases[0]
  const file = await openParquet(base.parsed.bytes, { name: 'health-check', initialFetchSize: 512 })
  try {
    for (const column of ['i32', 'str']) {
      const values = base.values[column]
      const result = await file.probe(column, values, { mode: 'block', statistics: false })
      result.rowGroups.forEach((rg, g) => {
        const want = expectedVerdicts(base.truth, column, g, values, bitsetOf(base.parsed.bytes, base.parsed.filter(g, column)))
        if (rg.results.map((r) => r.verdict).join() !== want.join()) throw new Error(`health check: ${column} row group ${g} answered wrongly`)
      })
      const g = base.parsed.rowGroupCount - 1
      const checked = await file.visitBloomFilter(g, column, (filter) => filter.check(values, base.checkTypes[column]))
      const want = expectedVerdicts(base.truth, column, g, values, bitsetOf(base.parsed.bytes, base.parsed.filter(g, column)))
      if ([...checked].map((v) => (v === 1 ? 'maybe' : 'absent')).join() !== want.join()) throw new Error(`health check: visitBloomFilter of ${column} answered wrongly`)
    }
  } finally {
    await file.close()
  }
  if (blocksInUse() !== baselineBlocks) throw new Error(`health check: ${blocksInUse() - baselineBlocks} pool bytes leaked`)
  const heap = memoryStats().heapBytes
  if (heap - heapStart > HEAP_LIMIT) throw new Error(`health check: wasm heap grew from ${heapStart} to ${heap}`)
}

/**
 * Runs iterations [start, start + iterations) of `seed` (or until durationMs passes), reporting the
 * iteration under way in progress[0] so a watchdog can tell a hang from slowness.
 */
export async function runFuzz({ seed, iterations = Infinity, durationMs = Infinity, start = 0, dir, saveDir, progress, maxFindings = 20, simulate,
  iterationTimeoutMs = ITERATION_TIMEOUT_MS, duckdb = false }) {
  await init()
  const bases = await buildFuzzBases(dir, { duckdb })
  await healthCheck(bases, 0, memoryStats().heapBytes).catch(() => {}) // warm-up: scratch, batch buffers
  const baselineBlocks = blocksInUse()
  const heapStart = memoryStats().heapBytes
  const report = { seed, start, iterations: 0, outcomes: {}, verdicts: {}, kinds: {}, findings: [], findingCount: 0, healthChecks: 0, heapStart, heapEnd: heapStart, elapsedMs: 0 }
  const startedAt = performance.now()
  const finding = async (i, message) => {
    report.findingCount++
    if (report.findings.length < maxFindings) {
      report.findings.push({ iteration: i, message })
      if (saveDir) {
        await mkdir(saveDir, { recursive: true })
        await writeFile(path.join(saveDir, `seed-${seed}-iteration-${i}.parquet`), fuzzInput(bases, seed, i).mutation.bytes)
      }
    }
  }
  for (let i = start; i < start + iterations && performance.now() - startedAt < durationMs; i++) {
    if (progress) Atomics.store(progress, 0, i)
    let timer
    try {
      const { outcome, reasons, kind } = await Promise.race([
        simulate?.iteration === i ? simulateFailure(simulate.what) : runFuzzIteration(bases, seed, i),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`iteration ${i} (seed ${seed}): no answer after ${iterationTimeoutMs} ms`)), iterationTimeoutMs) }),
      ])
      report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1
      if (kind) report.kinds[kind] = (report.kinds[kind] ?? 0) + 1
      for (const reason of reasons ?? []) report.verdicts[reason] = (report.verdicts[reason] ?? 0) + 1
    } catch (error) {
      const message = typeof error?.message === 'string' && error.message.startsWith(`iteration ${i} `) ? error.message
        : `iteration ${i} (seed ${seed}): ${describeInput(fuzzInput(bases, seed, i))}: threw ${error?.stack ?? error}`
      await finding(i, message)
    } finally {
      clearTimeout(timer)
    }
    report.iterations++
    if (blocksInUse() !== baselineBlocks) await finding(i, `iteration ${i} (seed ${seed}): ${blocksInUse() - baselineBlocks} pool bytes still in use after it`)
    if (report.iterations % HEALTH_EVERY === 0) {
      try {
        await healthCheck(bases, baselineBlocks, heapStart)
        report.healthChecks++
      } catch (error) {
        await finding(i, `after iteration ${i} (seed ${seed}): ${error.message}`)
      }
    }
  }
  report.heapEnd = memoryStats().heapBytes
  report.elapsedMs = Math.round(performance.now() - startedAt)
  return report
}

/**
 * runFuzz in a worker thread, watched from here: a synchronous hang (no progress for hangMs) or a crash
 * of the worker (out of memory, a wasm trap that kills it) becomes a finding naming the iteration, in a
 * report marked `broken` (iteration -1 when the worker died before its first iteration).
 */
export function runFuzzInWorker(options, { hangMs = 20000, onProgress } = {}) {
  const progress = new Int32Array(new SharedArrayBuffer(8))
  progress[0] = -1
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { hostileCorpusFuzz: { ...options, progress } },
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  })
  return new Promise((resolve) => {
    let settled = false
    let last = -1
    let lastChange = performance.now()
    const finish = (report) => {
      if (settled) return
      settled = true
      clearInterval(watchdog)
      resolve(report)
    }
    const broken = (why) => {
      const i = Atomics.load(progress, 0)
      finish({ seed: options.seed, broken: true, iterations: Math.max(0, i - (options.start ?? 0)), findings: [{ iteration: i, message: `iteration ${i} (seed ${options.seed}): ${why}` }], findingCount: 1, outcomes: {}, verdicts: {}, kinds: {} })
    }
    const watchdog = setInterval(() => {
      const at = Atomics.load(progress, 0)
      if (at !== last) {
        last = at
        lastChange = performance.now()
        onProgress?.(at)
      } else if (performance.now() - lastChange > hangMs) {
        worker.terminate()
        broken(`no progress for ${hangMs} ms (a synchronous hang)`)
      }
    }, 250)
    worker.on('message', (message) => finish(message))
    worker.on('error', (error) => broken(`the worker died: ${error?.stack ?? error}`))
    worker.on('exit', (code) => broken(`the worker exited with code ${code} before reporting`))
  })
}

if (!isMainThread && workerData?.hostileCorpusFuzz) {
  parentPort.postMessage(await runFuzz(workerData.hostileCorpusFuzz))
}
